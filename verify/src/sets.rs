//! `sets` specs re-derived (issue 43, families of sets): the families 𝒢, 𝒩, 𝒢*, 𝒩* of a
//! graph (seed 000 §2) and minimal transversals Tr (Example 2.1), from their definitions.
//!
//! Per instance the verifier builds the graph and its vertex names from the spec
//! ([`crate::names`]), closes every one of the 2^n subsets with its own closure code
//! ([`crate::graph_closure`]) and reads the families off the definitions:
//! - S *generates* when its closure is V; 𝒢 holds the inclusion-minimal generating sets and 𝒩
//!   the maximal non-generating ones;
//! - P is *terminating* when V ∖ P does not generate; 𝒢* holds the minimal terminating sets
//!   and 𝒩* the maximal nonterminating ones.
//!
//! Minimality is tested by the maximal proper subsets (S ∖ {x}) and maximality by the minimal
//! proper supersets (S ∪ {x}); that is sound because generating sets are closed upwards, which
//! is checked on every subset here, not assumed. The claim (the listed members, or the
//! membership rule evaluated on every subset by the verifier's own rhai engine with `S`,
//! `comp`, `size`, `V`, `adj` and the four families in scope) is then decided, and the
//! certificate's members, which only name what differs, must be the verifier's own family.

use crate::checks::FamilyInstance;
use crate::derive::{all_instances, Rederived, Stop};
use crate::formula::{engine, Evaluator};
use crate::graph_closure::GraphClosure;
use crate::names::{parse_graph, substitute, vertex_names};
use crate::spec::{formula_text, Raw};
use rhai::{Dynamic, Map, Scope};
use std::collections::{BTreeMap, BTreeSet};

/// Most vertices whose subsets are all closed (2^20 closures).
pub const MAX_VERTICES: usize = 20;
/// Most distinct elements of a family whose minimal transversals are listed by brute force.
pub const MAX_TRANSVERSAL_ELEMENTS: usize = 20;

type NameSet = BTreeSet<String>;

/// The minimal transversals of `family` (the inclusion-minimal sets meeting every member),
/// by their definition over every subset of the family's elements, in ascending order of
/// their masks over the sorted elements.
pub fn transversals(family: &[NameSet]) -> Result<Vec<NameSet>, String> {
    let universe: Vec<&String> = family
        .iter()
        .flatten()
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    if universe.len() > MAX_TRANSVERSAL_ELEMENTS {
        return Err(format!(
            "tr: {} elements (the verifier lists transversals of at most {MAX_TRANSVERSAL_ELEMENTS})",
            universe.len()
        ));
    }
    let mask = |s: &NameSet| {
        s.iter().fold(0u32, |m, x| {
            m | universe.iter().position(|u| *u == x).map_or(0, |i| 1 << i)
        })
    };
    let members: Vec<u32> = family.iter().map(mask).collect();
    let meets = |t: u32| members.iter().all(|&m| m & t != 0);
    let mut out = Vec::new();
    for t in 0..(1u32 << universe.len()) {
        // Meeting every member is closed upwards, so minimal = no element can be dropped.
        if meets(t) && (0..universe.len()).all(|i| t & (1 << i) == 0 || !meets(t & !(1 << i))) {
            out.push(
                (0..universe.len())
                    .filter(|&i| t & (1 << i) != 0)
                    .map(|i| universe[i].clone())
                    .collect(),
            );
        }
    }
    Ok(out)
}

/// A list of sets in the spec (`members`, `transversal_of`), read as names.
fn spec_sets(v: &[Vec<String>]) -> Vec<NameSet> {
    v.iter().map(|s| s.iter().cloned().collect()).collect()
}

fn show_set(s: &NameSet) -> String {
    format!("{{{}}}", s.iter().cloned().collect::<Vec<_>>().join(","))
}

fn show(sets: &[NameSet]) -> String {
    let each: Vec<String> = sets.iter().map(show_set).collect();
    format!("{{{}}}", each.join(", "))
}

/// The four families of one graph, as masks in ascending order.
pub(crate) struct Families {
    pub g: Vec<u64>,
    pub n: Vec<u64>,
    pub g_star: Vec<u64>,
    pub n_star: Vec<u64>,
}

pub(crate) fn families(c: &GraphClosure) -> Result<Families, Stop> {
    let full = c.all();
    let n = c.n;
    let generates: Vec<bool> = (0..=full).map(|s| c.generates(s)).collect();
    let gen = |s: u64| generates[s as usize];
    for s in 0..=full {
        if gen(s) {
            if let Some(v) = (0..n).find(|&v| !gen(s | 1 << v)) {
                return Err(Stop::Reject(format!(
                    "the closure is not monotone: set {s:#x} generates and adding vertex {v} does not"
                )));
            }
        }
    }
    let term = |s: u64| !gen(full & !s);
    let elements = |s: u64| (0..n).filter(move |&v| s & (1 << v) != 0);
    let minimal =
        |has: &dyn Fn(u64) -> bool, s: u64| has(s) && elements(s).all(|v| !has(s & !(1 << v)));
    let maximal =
        |has: &dyn Fn(u64) -> bool, s: u64| !has(s) && elements(full & !s).all(|v| has(s | 1 << v));
    Ok(Families {
        g: (0..=full).filter(|&s| minimal(&gen, s)).collect(),
        n: (0..=full).filter(|&s| maximal(&gen, s)).collect(),
        g_star: (0..=full).filter(|&s| minimal(&term, s)).collect(),
        n_star: (0..=full).filter(|&s| maximal(&term, s)).collect(),
    })
}

/// Re-derives a `sets` spec; `listed` is the certificate's instances.
pub fn derive(raw: &Raw, listed: &[FamilyInstance]) -> Result<Rederived, Stop> {
    let mut by_label: BTreeMap<&str, &FamilyInstance> = BTreeMap::new();
    for f in listed {
        if by_label.insert(f.instance.as_str(), f).is_some() {
            return Err(Stop::Reject(format!(
                "instance {} is certified twice",
                f.instance
            )));
        }
    }
    if let Some(of) = &raw.transversal_of {
        return transversal(raw, of, &by_label);
    }
    let template = raw
        .graph
        .as_deref()
        .ok_or_else(|| Stop::Not("a `sets` spec without `graph`".into()))?;
    if !raw.lets.is_empty() {
        return Err(Stop::Not("`let` values in a `sets` spec".into()));
    }
    let family = raw
        .family
        .as_ref()
        .and_then(|f| f.as_str())
        .ok_or_else(|| Stop::Not("a `sets` spec without `family`".into()))?;
    let kind = crate::closures::Kind::parse(raw.closure.as_deref()).ok_or_else(|| {
        Stop::Not(format!(
            "the closure {} is not one the verifier knows",
            raw.closure.as_deref().unwrap_or("")
        ))
    })?;
    let e = engine();
    let mut seen = 0;
    let mut total = 0;
    for inst in all_instances(raw)? {
        let at = |m: String| {
            if inst.label.is_empty() {
                m
            } else {
                format!("instance {}: {m}", inst.label)
            }
        };
        let text = substitute(template, &inst.names);
        let g = parse_graph(&text).map_err(|m| Stop::Not(at(format!("graph `{text}`: {m}"))))?;
        if g.n > MAX_VERTICES {
            return Err(Stop::Not(at(format!(
                "{text} has {} vertices (the verifier closes every subset of at most {MAX_VERTICES})",
                g.n
            ))));
        }
        let names = vertex_names(&text, g.n).ok_or_else(|| {
            Stop::Not(at(format!(
                "the verifier does not name the vertices of {text}"
            )))
        })?;
        let c = GraphClosure::new(&g, kind).map_err(|m| Stop::Reject(at(m)))?;
        let fams = families(&c)?;
        let set_names = |s: u64| -> Vec<String> {
            (0..g.n)
                .filter(|&v| s & (1 << v) != 0)
                .map(|v| names[v].clone())
                .collect()
        };
        let dyn_set =
            |s: u64| Dynamic::from_array(set_names(s).into_iter().map(Dynamic::from).collect());
        let dyn_family =
            |f: &[u64]| Dynamic::from_array(f.iter().map(|&s| dyn_set(s)).collect::<Vec<_>>());
        let mut scope: Scope = inst.env.scope();
        for (name, f) in [
            ("fam_G", &fams.g),
            ("fam_N", &fams.n),
            ("fam_G_star", &fams.g_star),
            ("fam_N_star", &fams.n_star),
        ] {
            scope.push_dynamic(name, dyn_family(f));
        }
        if let Some(w) = raw.filter.as_ref() {
            let src =
                formula_text(w).ok_or_else(|| Stop::Not("`where` is not a formula".into()))?;
            if !e.eval_bool_in(&mut scope, &src).map_err(Stop::from)? {
                if by_label.contains_key(inst.label.as_str()) {
                    return Err(Stop::Reject(at(
                        "certified, but the spec's `where` leaves it out".into(),
                    )));
                }
                continue;
            }
        }
        total += 1;
        let actual = match family {
            "G" => &fams.g,
            "N" => &fams.n,
            "G*" => &fams.g_star,
            "N*" => &fams.n_star,
            f => {
                return Err(Stop::Reject(format!(
                    "`family: {f}` is none of G, N, G*, N*"
                )))
            }
        };
        let own: Vec<NameSet> = actual
            .iter()
            .map(|&s| set_names(s).into_iter().collect())
            .collect();
        let Some(cert) = by_label.get(inst.label.as_str()) else {
            return Err(Stop::Reject(at(
                "selected by the spec but not in the certificate".into(),
            )));
        };
        seen += 1;
        compare_listed(cert, family, &own).map_err(|m| Stop::Reject(at(m)))?;
        if let Some(m) = &raw.members {
            let want: BTreeSet<NameSet> = spec_sets(m).into_iter().collect();
            let have: BTreeSet<NameSet> = own.iter().cloned().collect();
            if want != have {
                return Err(Stop::Reject(at(format!(
                    "the spec claims {family} = {}, the verifier finds {family} = {}",
                    show(&want.into_iter().collect::<Vec<_>>()),
                    show(&own)
                ))));
            }
        } else if let Some(r) = &raw.rule {
            let rule =
                formula_text(r).ok_or_else(|| Stop::Not("`rule` is not a formula".into()))?;
            rule_everywhere(
                &e, &mut scope, &rule, g.n, &names, &g, actual, &set_names, family,
            )
            .map_err(|s| match s {
                Stop::Reject(m) => Stop::Reject(at(m)),
                other => other,
            })?;
        } else {
            return Err(Stop::Not(
                "a `sets` spec with neither `members` nor `rule`".into(),
            ));
        }
    }
    if seen != by_label.len() {
        return Err(Stop::Reject(
            "the certificate lists instances the spec does not have".into(),
        ));
    }
    if total == 0 {
        return Err(Stop::Reject("no instance is selected".into()));
    }
    Ok(Rederived {
        certified: total,
        total,
    })
}

/// The certificate's members of an instance must be the verifier's own family.
fn compare_listed(cert: &FamilyInstance, family: &str, own: &[NameSet]) -> Result<(), String> {
    if cert.family != family {
        return Err(format!(
            "the certificate lists the family {}, the spec states {family}",
            cert.family
        ));
    }
    let listed: BTreeSet<NameSet> = cert
        .members
        .iter()
        .map(|m| m.iter().cloned().collect())
        .collect();
    let have: BTreeSet<NameSet> = own.iter().cloned().collect();
    if let Some(x) = listed.difference(&have).next() {
        return Err(format!(
            "the certificate lists {} in {family}, which is not a member",
            show_set(x)
        ));
    }
    if let Some(x) = have.difference(&listed).next() {
        return Err(format!(
            "the certificate leaves out {} of {family}",
            show_set(x)
        ));
    }
    Ok(())
}

/// The membership rule on every subset: it must hold exactly on the family's members.
#[allow(clippy::too_many_arguments)]
fn rule_everywhere(
    e: &Evaluator,
    scope: &mut Scope,
    rule: &str,
    n: usize,
    names: &[String],
    g: &crate::games::Graph,
    actual: &[u64],
    set_names: &dyn Fn(u64) -> Vec<String>,
    family: &str,
) -> Result<(), Stop> {
    let full: u64 = if n == 64 { u64::MAX } else { (1 << n) - 1 };
    let dyn_set =
        |s: u64| Dynamic::from_array(set_names(s).into_iter().map(Dynamic::from).collect());
    let mut adj = Map::new();
    for v in 0..n {
        let nb = g.neighbours(v).into_iter().fold(0u64, |m, w| m | 1 << w);
        adj.insert(names[v].as_str().into(), dyn_set(nb));
    }
    scope.push_dynamic("V", dyn_set(full));
    scope.push_dynamic("adj", Dynamic::from_map(adj));
    scope.push_dynamic("S", Dynamic::UNIT);
    scope.push_dynamic("comp", Dynamic::UNIT);
    scope.push_dynamic("size", Dynamic::from_int(0));
    let members: BTreeSet<u64> = actual.iter().copied().collect();
    for s in 0..=full {
        scope.set_value("S", dyn_set(s));
        scope.set_value("comp", dyn_set(full & !s));
        scope.set_value("size", Dynamic::from_int(s.count_ones() as i64));
        let said = e.eval_bool_in(scope, rule)?;
        if said != members.contains(&s) {
            let set = format!("{{{}}}", set_names(s).join(","));
            return Err(Stop::Reject(if said {
                format!("the rule admits {set}, which is not in {family}")
            } else {
                format!("the rule leaves out {set}, which is in {family}")
            }));
        }
    }
    Ok(())
}

/// Example 2.1's kind: Tr(`transversal_of`) = `members`, by the verifier's own transversals.
fn transversal(
    raw: &Raw,
    of: &[Vec<String>],
    by_label: &BTreeMap<&str, &FamilyInstance>,
) -> Result<Rederived, Stop> {
    let family = spec_sets(of);
    let claimed: BTreeSet<NameSet> = spec_sets(
        raw.members
            .as_ref()
            .ok_or_else(|| Stop::Not("a transversal claim without `members`".into()))?,
    )
    .into_iter()
    .collect();
    let own = transversals(&family).map_err(Stop::Not)?;
    let have: BTreeSet<NameSet> = own.iter().cloned().collect();
    if claimed != have {
        return Err(Stop::Reject(format!(
            "the spec claims Tr = {}, the verifier finds Tr = {}",
            show(&claimed.into_iter().collect::<Vec<_>>()),
            show(&own)
        )));
    }
    let (Some(cert), 1) = (by_label.get("single instance"), by_label.len()) else {
        return Err(Stop::Reject(
            "a transversal certificate lists its one instance as `single instance`".into(),
        ));
    };
    compare_listed(cert, "Tr", &own).map_err(Stop::Reject)?;
    Ok(Rederived {
        certified: 1,
        total: 1,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(xs: &[&str]) -> NameSet {
        xs.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn example_2_1_transversals() {
        // Seed 000, Example 2.1: Tr({{1,2},{2,3,4},{2,3,5}}) = {{2},{1,3},{1,4,5}}.
        let fam = [
            set(&["1", "2"]),
            set(&["2", "3", "4"]),
            set(&["2", "3", "5"]),
        ];
        let tr: BTreeSet<NameSet> = transversals(&fam).unwrap().into_iter().collect();
        let want: BTreeSet<NameSet> = [set(&["2"]), set(&["1", "3"]), set(&["1", "4", "5"])]
            .into_iter()
            .collect();
        assert_eq!(tr, want);
        // Wrong variant: {1,4} misses {2,3,5}.
        assert!(!tr.contains(&set(&["1", "4"])));
    }

    #[test]
    fn kite_families_are_example_2_6() {
        let g = parse_graph("Kite").unwrap();
        let names = vertex_names("Kite", g.n).unwrap();
        let c = GraphClosure::new(&g, crate::closures::Kind::HULL).unwrap();
        let f = families(&c).unwrap();
        let named = |fam: &[u64]| -> BTreeSet<NameSet> {
            fam.iter()
                .map(|&s| {
                    (0..5)
                        .filter(|v| s & (1 << v) != 0)
                        .map(|v| names[v].clone())
                        .collect()
                })
                .collect()
        };
        let sets = |xs: &[&[&str]]| -> BTreeSet<NameSet> { xs.iter().map(|x| set(x)).collect() };
        assert_eq!(
            named(&f.n),
            sets(&[&["x", "y", "u"], &["x", "y", "v"], &["y", "u", "v", "w"]])
        );
        assert_eq!(named(&f.g_star), sets(&[&["v", "w"], &["u", "w"], &["x"]]));
        assert_eq!(named(&f.g), sets(&[&["x", "w"], &["x", "u", "v"]]));
        assert_eq!(named(&f.n_star), sets(&[&["y", "u", "v"], &["y", "w"]]));
    }

    #[test]
    fn vertex_names_follow_the_spec_notation() {
        assert_eq!(
            vertex_names("W_5", 5).unwrap(),
            ["v1", "v2", "v3", "v4", "c"]
        );
        assert_eq!(
            vertex_names("W_{2,3}", 5).unwrap(),
            ["c1", "c2", "v1", "v2", "v3"]
        );
        assert_eq!(vertex_names("K_{2,1}", 3).unwrap(), ["a1", "a2", "b1"]);
        assert_eq!(vertex_names("graph6:Bw", 3).unwrap(), ["0", "1", "2"]);
        assert!(vertex_names("Petersen", 10).is_none());
    }
}
