//! The position features spec formulas read. Each game defines its own, from the paper's
//! definitions, in its file of [`crate::games`] ([`crate::games::Moves::features`]: the
//! splitting game's (c, λ), the removing games' sizes and minimal generating sets, the
//! multiset game's signature). In a diagram, a start that is one game reading its features
//! there ([`crate::games::Moves::features_in_diagram`]: the splitting game), alone or summed
//! with nimbers, reads its features unprefixed and `nimber`, the XOR of the nimber heaps
//! (paper Remark 5.34's `(c, λ) + *k`).
//!
//! Positions of other games have no features: a formula reading one is not evaluated by the
//! verifier.

use crate::formula::{Env, Val};
use crate::games::{Pos, Rules};

/// The features of a lone game's position (claims about positions).
pub fn of_position(env: &mut Env, rules: &Rules, p: &Pos) {
    rules.features(env, p);
}

/// The features of a diagram start: a game that reads its features there (the splitting
/// game) alone or summed with nimbers, or a sum of nimbers (`nimber` in every case).
pub fn of_diagram_start(env: &mut Env, rules: &Rules, p: &Pos) {
    let mut nimber = 0i64;
    let mut others = Vec::new();
    let mut parts = vec![(rules, p)];
    while let Some((r, q)) = parts.pop() {
        if let Some(summands) = r.summands(q) {
            parts.extend(summands);
        } else if let Some(h) = r.nimber(q) {
            nimber ^= h as i64;
        } else {
            others.push((r, q));
        }
    }
    if let [(r, q)] = others.as_slice() {
        if r.features_in_diagram() {
            r.features(env, q);
        }
    }
    env.set("nimber", Val::Int(nimber));
}
