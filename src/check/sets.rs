//! `kind: sets`: claims about the set families of §2 — 𝒢 (minimal generating), 𝒩 (maximal
//! nongenerating), 𝒢* (minimal terminating), 𝒩* (maximal nonterminating) — of a graph family
//! over parameter ranges, given either explicitly (Examples 2.6, 5.2) or by a membership rule
//! over a set `S` (Props 5.9, 5.16, 5.31); and explicit minimal transversals `Tr` (Example 2.1).

use super::formula::{Env, Formula};
use super::{
    describe_instance, describe_range, instances, instantiate, tally, CheckError, Counterexample,
    Expectation, Instance, InstanceResult, Loc, Param, Report, Verdict,
};
use crate::graph::convex::{sorted, transversals, SetFamilies};
use crate::graph::{bits, parse_graph, Closure, Convexity, Graph};
use rayon::prelude::*;
use rhai::{Dynamic, Map};
use std::collections::BTreeSet;
use std::time::Instant;

/// Largest graph whose subsets a membership rule is checked on (2^n evaluations).
pub const MAX_RULE_VERTICES: usize = 16;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    G,
    N,
    GStar,
    NStar,
}

impl Family {
    pub fn parse(s: &str) -> Option<Family> {
        match s {
            "G" => Some(Family::G),
            "N" => Some(Family::N),
            "G*" => Some(Family::GStar),
            "N*" => Some(Family::NStar),
            _ => None,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Family::G => "G",
            Family::N => "N",
            Family::GStar => "G*",
            Family::NStar => "N*",
        }
    }
    fn of(self, f: &SetFamilies) -> &[u64] {
        match self {
            Family::G => &f.g,
            Family::N => &f.n,
            Family::GStar => &f.g_star,
            Family::NStar => &f.n_star,
        }
    }
}

/// What is claimed of the family.
#[derive(Clone, Debug)]
pub enum Members {
    /// Exactly these sets (vertex names).
    Explicit(Vec<Vec<String>>),
    /// `S` is a member iff the predicate holds (variables `S`, `comp`, `size`, `V`, `adj`).
    Rule(Formula),
}

/// A validated `kind: sets` spec.
#[derive(Clone, Debug)]
pub struct SetsClaim {
    pub id: String,
    pub file: String,
    pub source: String,
    pub notes: Option<String>,
    pub expect: Expectation,
    pub loc: Loc,
    pub body: SetsBody,
}

#[derive(Clone, Debug)]
pub enum SetsBody {
    Graph {
        graph: String,
        closure: Closure,
        params: Vec<Param>,
        filter: Option<Formula>,
        family: Family,
        members: Members,
    },
    /// `Tr(family) = members`, over abstract elements named by strings.
    Transversal {
        family: Vec<Vec<String>>,
        members: Vec<Vec<String>>,
    },
}

fn show_family(names: &[Vec<String>]) -> String {
    let sets: Vec<String> = names
        .iter()
        .map(|s| format!("{{{}}}", s.join(",")))
        .collect();
    format!("{{{}}}", sets.join(", "))
}

fn name_sets(g: &Graph, masks: &[u64]) -> Vec<Vec<String>> {
    masks.iter().map(|&m| g.set_names(m)).collect()
}

fn canonical(sets: &[Vec<String>]) -> BTreeSet<BTreeSet<String>> {
    sets.iter().map(|s| s.iter().cloned().collect()).collect()
}

impl SetsClaim {
    fn err(&self, m: String) -> CheckError {
        CheckError {
            loc: self.loc.clone(),
            message: m,
        }
    }

    fn check_graph_instance(
        &self,
        inst: &Instance,
        graph: &str,
        closure: Closure,
        filter: &Option<Formula>,
        family: Family,
        members: &Members,
    ) -> Result<Option<Result<(), Counterexample>>, CheckError> {
        let text = instantiate(graph, inst);
        let g = parse_graph(&text).map_err(|e| {
            self.err(format!(
                "instance {}: graph `{text}`: {e}",
                describe_instance(inst)
            ))
        })?;
        let mut env = Env::new();
        for (k, v) in inst {
            env.set(k, v.to_dynamic());
        }
        if let Some(f) = filter {
            if !f
                .eval_bool(&env)
                .map_err(|m| self.err(format!("instance {}: {m}", describe_instance(inst))))?
            {
                return Ok(None);
            }
        }
        let conv = Convexity::new(&g, closure);
        let fams = conv.families(1 << 24).ok_or_else(|| {
            self.err(format!(
                "instance {}: graph {text} has too many nongenerating sets to enumerate",
                describe_instance(inst)
            ))
        })?;
        let actual = family.of(&fams);
        let cx = |claimed: String, computed: String, evidence: Vec<String>| Counterexample {
            instance: describe_instance(inst),
            game: text.clone(),
            position: None,
            claimed,
            computed,
            evidence,
        };
        match members {
            Members::Explicit(sets) => {
                let want = canonical(sets);
                let have = canonical(&name_sets(&g, actual));
                if want == have {
                    return Ok(Some(Ok(())));
                }
                let missing: Vec<String> = have
                    .difference(&want)
                    .map(|s| {
                        format!(
                            "{{{}}} is in {} but not claimed",
                            s.iter().cloned().collect::<Vec<_>>().join(","),
                            family.name()
                        )
                    })
                    .collect();
                let extra: Vec<String> = want
                    .difference(&have)
                    .map(|s| {
                        format!(
                            "{{{}}} is claimed but not in {}",
                            s.iter().cloned().collect::<Vec<_>>().join(","),
                            family.name()
                        )
                    })
                    .collect();
                Ok(Some(Err(cx(
                    format!("{} = {}", family.name(), show_family(sets)),
                    format!(
                        "{} = {}",
                        family.name(),
                        show_family(&name_sets(&g, actual))
                    ),
                    missing.into_iter().chain(extra).collect(),
                ))))
            }
            Members::Rule(rule) => {
                if g.n() > MAX_RULE_VERTICES {
                    return Err(self.err(format!("instance {}: a membership rule is checked on graphs with at most {MAX_RULE_VERTICES} vertices", describe_instance(inst))));
                }
                let in_family: BTreeSet<u64> = actual.iter().copied().collect();
                let names = |m: u64| {
                    Dynamic::from_array(g.set_names(m).into_iter().map(Dynamic::from).collect())
                };
                let mut adj = Map::new();
                for v in 0..g.n() {
                    adj.insert(g.vertex_name(v).into(), names(g.adj(v)));
                }
                env.set("V", names(g.full()));
                env.set("adj", Dynamic::from_map(adj));
                for s in 0..=g.full() {
                    env.set("S", names(s));
                    env.set("comp", names(g.full() & !s));
                    env.set("size", Dynamic::from_int(s.count_ones() as i64));
                    let predicted = rule.eval_bool(&env).map_err(|m| {
                        self.err(format!("instance {}: {m}", describe_instance(inst)))
                    })?;
                    if predicted != in_family.contains(&s) {
                        let set = g.format_set(s);
                        let (claimed, computed) = if predicted {
                            (
                                format!("{set} in {}", family.name()),
                                format!("{set} not in {}", family.name()),
                            )
                        } else {
                            (
                                format!("{set} not in {}", family.name()),
                                format!("{set} in {}", family.name()),
                            )
                        };
                        return Ok(Some(Err(cx(
                            claimed,
                            computed,
                            vec![format!(
                                "{} = {}",
                                family.name(),
                                show_family(&name_sets(&g, actual))
                            )],
                        ))));
                    }
                }
                Ok(Some(Ok(())))
            }
        }
    }

    pub fn check(&self) -> Result<Report, CheckError> {
        let t0 = Instant::now();
        let (instances_checked, verdict, range) = match &self.body {
            SetsBody::Transversal { family, members } => {
                let mut universe: Vec<String> = family
                    .iter()
                    .flatten()
                    .chain(members.iter().flatten())
                    .cloned()
                    .collect();
                universe.sort();
                universe.dedup();
                if universe.len() > 64 {
                    return Err(self.err("at most 64 distinct elements are supported".into()));
                }
                let mask = |s: &Vec<String>| {
                    s.iter()
                        .map(|x| {
                            1u64 << universe
                                .iter()
                                .position(|u| u == x)
                                .expect("collected above")
                        })
                        .fold(0, |a, b| a | b)
                };
                let fam: Vec<u64> = family.iter().map(mask).collect();
                let have: Vec<u64> = transversals(&fam);
                let want = sorted(members.iter().map(mask).collect());
                let to_names = |ms: &[u64]| {
                    ms.iter()
                        .map(|&m| bits(m).map(|b| universe[b].clone()).collect())
                        .collect::<Vec<Vec<String>>>()
                };
                let verdict = if have == want {
                    Verdict::Holds
                } else {
                    Verdict::Refuted {
                        counterexample: Counterexample {
                            instance: "single instance".into(),
                            game: format!("Tr({})", show_family(family)),
                            position: None,
                            claimed: show_family(members),
                            computed: show_family(&to_names(&have)),
                            evidence: vec![],
                        },
                    }
                };
                (1, verdict, "single instance".to_string())
            }
            SetsBody::Graph {
                graph,
                closure,
                params,
                filter,
                family,
                members,
            } => {
                let all = instances(params);
                let results: Vec<_> = all
                    .par_iter()
                    .map(|i| {
                        self.check_graph_instance(i, graph, *closure, filter, *family, members)
                    })
                    .collect();
                let outcomes = results.into_iter().map(|r| {
                    r.map(|o| match o {
                        None => InstanceResult::Skipped,
                        Some(Ok(())) => InstanceResult::Agreed(1),
                        Some(Err(cx)) => InstanceResult::Refuted(cx),
                    })
                });
                let (n, _, verdict) = tally(outcomes, || {
                    self.err(format!(
                        "no instance of {} is selected: the claim would hold vacuously",
                        describe_range(params)
                    ))
                })?;
                (n, verdict, describe_range(params))
            }
        };
        Ok(Report {
            id: self.id.clone(),
            kind: "sets".into(),
            source: self.source.clone(),
            file: self.file.clone(),
            instances: instances_checked,
            positions: instances_checked,
            range,
            expect: self.expect,
            as_expected: verdict.matches(self.expect),
            verdict,
            notes: self.notes.clone(),
            coverage: Vec::new(),
            seconds: t0.elapsed().as_secs_f64(),
        })
    }
}
