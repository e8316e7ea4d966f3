//! Formula helpers for seed 002's Lemma 9 (the 45° trail in the rectangle [m, 2m] × [0, n+1],
//! built by [`crate::game::prism_trail::diagonal_trail`]):
//!
//! - `trail_corner(m, n)`: the corner [i, j] where the trail from (m, 0) first arrives;
//! - `trail_missed(m, n)`: how many points of T = {i ± j ≡ m (mod 2d')} it does not visit
//!   before that corner;
//! - `trail_outside(m, n)`: how many points it visits that are not in T;
//! - `trail_reaches(m, n, b)`: whether the trail τ' of Thm 13's proof (from (m, 0), or from
//!   (m, n+1) when b ≢ 0 mod 2d') visits (m, b) before another corner (the first unnumbered
//!   lemma after Lemma 9);
//! - `trail_labelling_proper(m, n, b)`: whether Remark 12's labelling by τ' is consistent and
//!   negative on the top, bottom and right sides (the second one);
//! - `trail_visits(m, n, i, j)`: whether the trail from (m, 0) visits the point (i, j) before
//!   it first arrives at another corner (Lemma 4 of seed 002's reference [3], as the proof of
//!   Lemma 9 quotes it).

use crate::game::prism_trail::{
    diagonal_trail, lemma_9_t, trail_labelling_proper, trail_reaches_token, Lattice as Point,
};
use rhai::{Dynamic, Engine, EvalAltResult};
use std::collections::BTreeSet;

type R<T> = Result<T, Box<EvalAltResult>>;

fn walk(m: i64, n: i64) -> R<(BTreeSet<Point>, Point)> {
    let (v, c) = diagonal_trail(m, n).ok_or_else(|| {
        format!("no trail for m = {m}, n = {n} (needs 1 <= m, 0 <= n, both at most 10000)")
    })?;
    Ok((v.into_iter().collect(), c))
}

/// The helpers compute from the game (the trail), so a teeth test (`super::teeth`) draws
/// their results instead, and every real result is recorded as their observed range.
fn traced(helper: &'static str, m: i64, n: i64, f: impl FnOnce() -> R<Dynamic>) -> R<Dynamic> {
    if let Some(v) = super::teeth::fake_call(helper, &format!("{m},{n}")) {
        return v.map_err(Into::into);
    }
    let v = f()?;
    super::teeth::record(helper, &v);
    Ok(v)
}

/// [`traced`] for the helpers of a token (m, b).
fn traced3(
    helper: &'static str,
    (m, n, b): (i64, i64, i64),
    f: impl FnOnce() -> Result<bool, String>,
) -> R<Dynamic> {
    if let Some(v) = super::teeth::fake_call(helper, &format!("{m},{n},{b}")) {
        return v.map_err(Into::into);
    }
    let v = Dynamic::from_bool(f()?);
    super::teeth::record(helper, &v);
    Ok(v)
}

pub fn register(e: &mut Engine) {
    e.register_fn(
        "trail_visits",
        |m: i64, n: i64, i: i64, j: i64| -> R<Dynamic> {
            let key = format!("{m},{n},{i},{j}");
            if let Some(v) = super::teeth::fake_call("trail_visits", &key) {
                return v.map_err(Into::into);
            }
            let (v, _) = walk(m, n)?;
            let v = Dynamic::from_bool(v.contains(&(i, j)));
            super::teeth::record("trail_visits", &v);
            Ok(v)
        },
    );
    e.register_fn("trail_reaches", |m: i64, n: i64, b: i64| -> R<Dynamic> {
        traced3("trail_reaches", (m, n, b), || trail_reaches_token(m, n, b))
    });
    e.register_fn(
        "trail_labelling_proper",
        |m: i64, n: i64, b: i64| -> R<Dynamic> {
            traced3("trail_labelling_proper", (m, n, b), || {
                trail_labelling_proper(m, n, b)
            })
        },
    );
    e.register_fn("trail_corner", |m: i64, n: i64| -> R<Dynamic> {
        traced("trail_corner", m, n, || {
            let (_, (i, j)) = walk(m, n)?;
            Ok(Dynamic::from_array(vec![
                Dynamic::from_int(i),
                Dynamic::from_int(j),
            ]))
        })
    });
    e.register_fn("trail_missed", |m: i64, n: i64| -> R<Dynamic> {
        traced("trail_missed", m, n, || {
            let (v, _) = walk(m, n)?;
            Ok(Dynamic::from_int(
                lemma_9_t(m, n).iter().filter(|p| !v.contains(p)).count() as i64,
            ))
        })
    });
    e.register_fn("trail_outside", |m: i64, n: i64| -> R<Dynamic> {
        traced("trail_outside", m, n, || {
            let (v, _) = walk(m, n)?;
            let t: BTreeSet<(i64, i64)> = lemma_9_t(m, n).into_iter().collect();
            Ok(Dynamic::from_int(
                v.iter().filter(|p| !t.contains(p)).count() as i64,
            ))
        })
    });
}

#[cfg(test)]
mod tests {
    use crate::check::formula::{show, Env, Formula};

    fn eval(src: &str) -> String {
        show(&Formula::compile(src).unwrap().eval(&Env::new()).unwrap())
    }

    #[test]
    fn small_trails() {
        // m = 2, n = 2 (worked in prism_trail's tests): ends at (4,0), visits T exactly.
        assert_eq!(eval("trail_corner(2, 2)"), "[4,0]");
        assert_eq!(eval("trail_missed(2, 2)"), "0");
        assert_eq!(eval("trail_outside(2, 2)"), "0");
        // m = 3, n = 2: d' = gcd(3, 3) = 3, the trail (3,0) (4,1) (5,2) (6,3) ends at a corner
        // at once; T = {i ± j ≡ 3 (mod 6)} = {(3,0), (4,1), (5,2), (6,3)}.
        assert_eq!(eval("trail_corner(3, 2)"), "[6,3]");
        assert_eq!(eval("trail_missed(3, 2)"), "0");
        assert_eq!(eval("trail_visits(3, 2, 5, 2)"), "true");
        assert_eq!(eval("trail_visits(3, 2, 4, 2)"), "false");
        assert!(Formula::compile("trail_corner(0, 2)")
            .unwrap()
            .eval(&Env::new())
            .is_err());
    }
}
