//! `kind: sets`: claims about the set families of §2 — 𝒢 (minimal generating), 𝒩 (maximal
//! nongenerating), 𝒢* (minimal terminating), 𝒩* (maximal nonterminating) — of a graph family
//! over parameter ranges, given either explicitly (Examples 2.6, 5.2) or by a membership rule
//! over a set `S` (Props 5.9, 5.16, 5.31); and explicit minimal transversals `Tr` (Example 2.1).

use super::formula::{Env, Formula};
use super::{
    at_instance, describe_instance, describe_range, instances, instantiate, tally, CheckError,
    Counterexample, Expectation, Instance, InstanceResult, Loc, Param, Report, Verdict,
};
use crate::graph::convex::{sorted, transversals, SetFamilies};
use crate::graph::{bits, parse_graph, Closure, Convexity, Graph};
use rayon::prelude::*;
use rhai::{Dynamic, Map};
use std::collections::BTreeSet;
use std::time::Instant;

/// Largest graph whose subsets a membership rule is checked on (2^n evaluations), and whose
/// families are computed from their definitions over all 2^n subsets.
pub const MAX_RULE_VERTICES: usize = 16;

/// 𝒢, 𝒩, 𝒢*, 𝒩* straight from their definitions (paper §2.5), over every subset: the
/// inclusion-minimal generating sets, maximal nongenerating, minimal terminating and maximal
/// nonterminating sets. Generating and terminating sets are closed upwards (the hull is
/// monotone), so a set is minimal iff removing any one element leaves the property, and
/// maximal iff adding any one element gains it. Unlike `Convexity::families` (which derives
/// 𝒢*, 𝒩 and 𝒩* from 𝒢 by Prop 2.4), nothing here assumes Prop 2.4, so the specs of Prop 2.4
/// and Remark 2.5 check it rather than restate it.
pub fn families_by_definition(conv: &Convexity) -> SetFamilies {
    let full = conv.full();
    let generating: Vec<bool> = (0..=full).map(|s| conv.generates(s)).collect();
    let gen = |s: u64| generating[s as usize];
    let term = |s: u64| !gen(full & !s);
    let minimal =
        |has: &dyn Fn(u64) -> bool, s: u64| has(s) && bits(s).all(|v| !has(s & !(1 << v)));
    let maximal =
        |has: &dyn Fn(u64) -> bool, s: u64| !has(s) && bits(full & !s).all(|v| has(s | 1 << v));
    SetFamilies {
        g: sorted((0..=full).filter(|&s| minimal(&gen, s)).collect()),
        n: sorted((0..=full).filter(|&s| maximal(&gen, s)).collect()),
        g_star: sorted((0..=full).filter(|&s| minimal(&term, s)).collect()),
        n_star: sorted((0..=full).filter(|&s| maximal(&term, s)).collect()),
    }
}

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

/// One instance's family as a certificate lists it: the instance, the family's name and its
/// members by vertex names.
pub type CertifiedFamily = (String, String, Vec<Vec<String>>);

/// One instance decided: the family's members by vertex names, or the counterexample.
type InstanceOutcome = Result<Vec<Vec<String>>, Counterexample>;

/// What is claimed of the family.
#[derive(Clone, Debug)]
pub enum Members {
    /// Exactly these sets (vertex names).
    Explicit(Vec<Vec<String>>),
    /// `S` is a member iff the predicate holds (variables `S`, `comp`, `size`, `V`, `adj`, and
    /// on graphs with at most [`MAX_RULE_VERTICES`] vertices the four families by definition,
    /// `fam_G`, `fam_N`, `fam_G_star`, `fam_N_star`, also visible to `where`).
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

    /// The instance's graph, its four families (by definition up to [`MAX_RULE_VERTICES`]
    /// vertices, else by Prop 2.4 from 𝒩) and the formulas' variables; `None` when the
    /// `where` filter leaves the instance out.
    fn instance_families(
        &self,
        inst: &Instance,
        graph: &str,
        closure: Closure,
        filter: &Option<Formula>,
    ) -> Result<Option<(Graph, SetFamilies, Env, String)>, CheckError> {
        let text = instantiate(graph, inst);
        let g = parse_graph(&text)
            .map_err(|e| self.err(format!("{}graph `{text}`: {e}", at_instance(inst))))?;
        let conv = Convexity::of(&g, closure)
            .map_err(|e| self.err(format!("{}graph `{text}`: {e}", at_instance(inst))))?;
        let fams = if g.n() <= MAX_RULE_VERTICES {
            families_by_definition(&conv)
        } else {
            conv.families(1 << 24).ok_or_else(|| {
                self.err(format!(
                    "{}graph {text} has too many nongenerating sets to enumerate",
                    at_instance(inst)
                ))
            })?
        };
        let mut env = Env::new();
        env.closure = closure;
        for (k, v) in inst {
            env.set(k, v.to_dynamic());
        }
        let family_value = |f: &[u64]| {
            Dynamic::from_array(
                f.iter()
                    .map(|&m| {
                        Dynamic::from_array(g.set_names(m).into_iter().map(Dynamic::from).collect())
                    })
                    .collect(),
            )
        };
        if g.n() <= MAX_RULE_VERTICES {
            for (name, f) in [
                ("fam_G", &fams.g),
                ("fam_N", &fams.n),
                ("fam_G_star", &fams.g_star),
                ("fam_N_star", &fams.n_star),
            ] {
                env.set(name, family_value(f));
            }
        }
        if let Some(f) = filter {
            if !f
                .eval_bool(&env)
                .map_err(|m| self.err(format!("{}{m}", at_instance(inst))))?
            {
                return Ok(None);
            }
        }
        Ok(Some((g, fams, env, text)))
    }

    fn check_graph_instance(
        &self,
        inst: &Instance,
        graph: &str,
        closure: Closure,
        filter: &Option<Formula>,
        family: Family,
        members: &Members,
    ) -> Result<Option<InstanceOutcome>, CheckError> {
        let Some((g, fams, mut env, text)) =
            self.instance_families(inst, graph, closure, filter)?
        else {
            return Ok(None);
        };
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
                    return Ok(Some(Ok(name_sets(&g, actual))));
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
                    return Err(self.err(format!("{}a membership rule is checked on graphs with at most {MAX_RULE_VERTICES} vertices", at_instance(inst))));
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
                // Parameters, families, V and adj are fixed for the instance: folded in once
                // (e.g. `tr(fam_G)` is computed once, not once per subset).
                let rule = rule.specialise(&env);
                // One scope for all subsets: building it per subset cloned the families and
                // `adj` 2^n times (nearly all the time of prop_5_1).
                let mut scope = env.scope();
                for s in 0..=g.full() {
                    scope.set_value("S", names(s));
                    scope.set_value("comp", names(g.full() & !s));
                    scope.set_value("size", Dynamic::from_int(s.count_ones() as i64));
                    let predicted = rule
                        .eval_bool_in(&mut scope, closure)
                        .map_err(|m| self.err(format!("{}{m}", at_instance(inst))))?;
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
                Ok(Some(Ok(name_sets(&g, actual))))
            }
        }
    }

    pub fn check(&self) -> Result<Report, CheckError> {
        self.check_keeping().map(|(report, _)| report)
    }

    /// [`SetsClaim::check`], keeping each selected instance's family as the certificate lists
    /// it (the certificate is then made without computing the families again).
    pub fn check_keeping(&self) -> Result<(Report, Vec<CertifiedFamily>), CheckError> {
        let t0 = Instant::now();
        let mut kept = Vec::new();
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
                kept.push(("single instance".into(), "Tr".into(), members.clone()));
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
                // The spec's folder goes along to the workers (relative `file:` graphs).
                let folder = crate::graph::io::base();
                let results: Vec<_> = all
                    .par_iter()
                    .map(|i| {
                        crate::graph::io::with_base(folder.as_deref(), || {
                            self.check_graph_instance(i, graph, *closure, filter, *family, members)
                        })
                    })
                    .collect();
                let outcomes = all.iter().zip(results).map(|(i, r)| {
                    r.map(|o| match o {
                        None => InstanceResult::Skipped,
                        Some(Ok(members)) => {
                            kept.push((describe_instance(i), family.name().to_string(), members));
                            InstanceResult::Agreed(1)
                        }
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
        let report = Report {
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
            rests_on: Vec::new(),
            companion: None,
            excused: None,
            identity: None,
            laws: None,
            seconds: t0.elapsed().as_secs_f64(),
        };
        Ok((report, kept))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::families as fam;

    #[test]
    fn families_by_definition_on_paper_examples() {
        // Example 2.6 (kite) and Example 3.1 (P_3), by definition.
        let kite = fam::kite();
        let f = families_by_definition(&Convexity::new(&kite, Closure::HULL));
        let names = |ms: &[u64]| name_sets(&kite, ms);
        assert_eq!(
            canonical(&names(&f.g_star)),
            canonical(&[
                vec!["v".into(), "w".into()],
                vec!["u".into(), "w".into()],
                vec!["x".into()]
            ])
        );
        assert_eq!(
            canonical(&names(&f.n_star)),
            canonical(&[
                vec!["y".into(), "u".into(), "v".into()],
                vec!["y".into(), "w".into()]
            ])
        );
        let p3 = fam::path(3).unwrap();
        let f = families_by_definition(&Convexity::new(&p3, Closure::HULL));
        assert_eq!(f.g_star, vec![0b001, 0b100]);
        assert_eq!(f.n_star, vec![0b010]);
        // Example 3.2: the single vertex: 𝒢* = {{v}}, 𝒩* = {∅}.
        let k1 = fam::path(1).unwrap();
        let f = families_by_definition(&Convexity::new(&k1, Closure::HULL));
        assert_eq!((f.g_star, f.n_star), (vec![1], vec![0]));
    }

    #[test]
    fn by_definition_agrees_with_the_transversal_route() {
        for g in [
            fam::cycle(7).unwrap(),
            fam::wheel(7).unwrap(),
            fam::gen_wheel(2, 5).unwrap(),
            fam::hypercube(3).unwrap(),
        ] {
            for closure in [Closure::HULL, Closure::GEODETIC] {
                let conv = Convexity::new(&g, closure);
                assert_eq!(
                    families_by_definition(&conv),
                    conv.families(1 << 20).unwrap(),
                    "{}",
                    g.name()
                );
            }
        }
    }
}
