//! Formula helpers over sets and families of sets (lists of vertex names, lists of such
//! lists), so that specs can state the identities of paper §2.2 — Prop 2.4 (𝒩* = ∁(𝒢),
//! 𝒩 = ∁(𝒢*), 𝒢* = Tr(𝒢)), Remark 2.5 and Prop 4.2 — as membership rules:
//!
//! - `same_set(a, b)`: a and b have the same elements (order and repeats ignored);
//! - `has_set(family, s)`: some member of the family is the set s;
//! - `tr(family)`: the minimal transversals (inclusion-minimal sets meeting every member;
//!   paper §2.2), each sorted by name;
//! - `distinct(list)`: the distinct integers of a list, increasing;
//! - `pty(list)`: the parity of every element (the scalar `pty` is in `formula.rs`).

use rhai::{Array, Dynamic, Engine, EvalAltResult};
use std::collections::BTreeSet;

type R<T> = Result<T, Box<EvalAltResult>>;

/// Most distinct elements `tr` accepts (the transversals are enumerated over subsets).
const MAX_TR_ELEMENTS: usize = 20;

fn names(a: &Array) -> R<BTreeSet<String>> {
    a.iter()
        .map(|d| {
            d.clone().into_string().or_else(|_| {
                d.as_int()
                    .map(|i| i.to_string())
                    .map_err(|t| format!("expected a set of names, found an element of type {t}"))
            })
        })
        .map(|r| r.map_err(Into::into))
        .collect()
}

fn family(f: &Array) -> R<Vec<BTreeSet<String>>> {
    f.iter()
        .map(|d| {
            d.as_array_ref()
                .map_err(|t| {
                    format!("expected a family of sets, found a member of type {t}").into()
                })
                .and_then(|a| names(&a))
        })
        .collect()
}

fn to_array(s: &BTreeSet<String>) -> Dynamic {
    Dynamic::from_array(s.iter().cloned().map(Dynamic::from).collect())
}

/// Minimal transversals of `fam` over the union of its members, by increasing size: a set
/// meeting every member is minimal iff no proper subset of it found earlier meets every member.
pub fn transversals(fam: &[BTreeSet<String>]) -> R<Vec<BTreeSet<String>>> {
    let universe: Vec<String> = fam
        .iter()
        .flatten()
        .cloned()
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    if universe.len() > MAX_TR_ELEMENTS {
        return Err(format!(
            "tr of a family over {} elements: at most {MAX_TR_ELEMENTS} are supported",
            universe.len()
        )
        .into());
    }
    let masks: Vec<u32> = fam
        .iter()
        .map(|s| {
            s.iter()
                .map(|x| 1u32 << universe.binary_search(x).expect("in the universe"))
                .fold(0, |a, b| a | b)
        })
        .collect();
    let mut subsets: Vec<u32> = (0..1u32 << universe.len()).collect();
    subsets.sort_by_key(|s| s.count_ones());
    let mut found: Vec<u32> = Vec::new();
    for s in subsets {
        if masks.iter().all(|&m| m & s != 0) && !found.iter().any(|&t| t & !s == 0) {
            found.push(s);
        }
    }
    Ok(found
        .into_iter()
        .map(|s| {
            (0..universe.len())
                .filter(|&i| s >> i & 1 == 1)
                .map(|i| universe[i].clone())
                .collect()
        })
        .collect())
}

pub fn register(e: &mut Engine) {
    e.register_fn("same_set", |a: Array, b: Array| -> R<bool> {
        Ok(names(&a)? == names(&b)?)
    });
    e.register_fn("has_set", |f: Array, s: Array| -> R<bool> {
        let s = names(&s)?;
        Ok(family(&f)?.contains(&s))
    });
    e.register_fn("tr", |f: Array| -> R<Array> {
        Ok(transversals(&family(&f)?)?.iter().map(to_array).collect())
    });
    e.register_fn("distinct", |a: Array| -> R<Array> {
        let v: BTreeSet<i64> = a
            .iter()
            .map(|d| {
                d.as_int()
                    .map_err(|t| format!("distinct: expected integers, found {t}").into())
            })
            .collect::<R<_>>()?;
        Ok(v.into_iter().map(Dynamic::from_int).collect())
    });
    e.register_fn("pty", |a: Array| -> R<Array> {
        a.iter()
            .map(|d| {
                d.as_int()
                    .map(|x| Dynamic::from_int(x.rem_euclid(2)))
                    .map_err(|t| format!("pty: expected integers, found {t}").into())
            })
            .collect()
    });
}

#[cfg(test)]
mod tests {
    use crate::check::formula::{Env, Formula};

    fn eval(src: &str) -> String {
        let f = Formula::compile(src).expect("compiles");
        crate::check::formula::show(&f.eval(&Env::new()).expect("evaluates"))
    }

    #[test]
    fn example_2_1_transversals_and_set_equality() {
        // Paper Example 2.1: Tr({{a,b},{b,c}}) = {{b},{a,c}}.
        assert_eq!(eval(r#"tr([["a","b"],["b","c"]])"#), "[[b],[a,c]]");
        // Tr is an involution on a clutter (Remark 2.5's double arrow).
        assert_eq!(eval(r#"tr(tr([["a","b"],["b","c"]]))"#), "[[a,b],[b,c]]");
        assert_eq!(eval(r#"tr([])"#), "[[]]");
        assert_eq!(eval(r#"same_set(["b","a"], ["a","b","a"])"#), "true");
        assert_eq!(eval(r#"same_set(["b"], ["a","b"])"#), "false");
        assert_eq!(eval(r#"has_set([["x"],["w","v"]], ["v","w"])"#), "true");
        assert_eq!(eval(r#"has_set([["x"],["w","v"]], ["v"])"#), "false");
        assert_eq!(eval("distinct(pty([3, 5, 2, 7]))"), "[0,1]");
        assert_eq!(eval("distinct([4, 2, 4])"), "[2,4]");
    }

    #[test]
    fn bad_arguments_are_errors_not_panics() {
        for src in [
            r#"tr([1, 2])"#,
            r#"has_set([["a"]], [[1]])"#,
            r#"pty(["a"])"#,
        ] {
            let f = Formula::compile(src).expect("compiles");
            assert!(f.eval(&Env::new()).is_err(), "{src}");
        }
    }
}
