//! The position features spec formulas read about splitting-game positions, from their
//! definitions in paper 000 §5.5: for (c, λ), `c`; the parts of λ (Λ^n counts as the single
//! part n) as `parts`, `l1`, `l2` (0 when missing), `num_parts`, `size` (= `parts_sum`, their
//! sum), `odd_parts`; `is_lambda`; `solid` (before Lemma 5.39: l1 ≥ 4 or l2 ≥ 2, and Λ^n iff
//! n ≥ 5); `terminal` (the images of TER(W_{m,n})'s terminal positions, §5.5). In a diagram,
//! a sum of one splitting game with nimbers reads its features unprefixed and `nimber`, the
//! XOR of the nimber heaps (paper Remark 5.34's `(c, λ) + *k`). Positions of other games
//! have no features here: a formula reading one is not evaluated by the verifier.

use crate::formula::{Env, Val};
use crate::games::{Pos, Rules, Spl};

fn spl(env: &mut Env, s: &Spl) {
    let parts: Vec<u32> = match s.lambda {
        Some(n) => vec![n],
        None => s.parts.clone(),
    };
    let size: i64 = parts.iter().map(|&x| x as i64).sum();
    let get = |i: usize| parts.get(i).map_or(0, |&x| x as i64);
    let solid = match s.lambda {
        Some(n) => n >= 5,
        None => get(0) >= 4 || get(1) >= 2,
    };
    let terminal = s.lambda.is_none() && s.c <= 1 && matches!(s.parts.as_slice(), [] | [1] | [2]);
    env.set("c", Val::Int(s.c as i64));
    env.set(
        "parts",
        Val::List(parts.iter().map(|&x| x as i64).collect()),
    );
    env.set("l1", Val::Int(get(0)));
    env.set("l2", Val::Int(get(1)));
    env.set("num_parts", Val::Int(parts.len() as i64));
    env.set("size", Val::Int(size));
    env.set("parts_sum", Val::Int(size));
    env.set(
        "odd_parts",
        Val::Int(parts.iter().filter(|&&x| x % 2 == 1).count() as i64),
    );
    env.set("is_lambda", Val::Bool(s.lambda.is_some()));
    env.set("solid", Val::Bool(solid));
    env.set("terminal", Val::Bool(terminal));
}

/// The features of a lone game's position (claims about positions).
pub fn of_position(env: &mut Env, rules: &Rules, p: &Pos) {
    if let (Rules::Spl(_), Pos::Spl(s)) = (rules, p) {
        spl(env, s);
    }
}

/// The features of a diagram start: a splitting game alone or summed with nimbers, or a sum
/// of nimbers (`nimber` in every case).
pub fn of_diagram_start(env: &mut Env, rules: &Rules, p: &Pos) {
    let mut nimber = 0i64;
    let mut others = Vec::new();
    let mut parts = vec![(rules, p)];
    while let Some((r, q)) = parts.pop() {
        match (r, q) {
            (Rules::Sum(rs), Pos::Tuple(qs)) => parts.extend(rs.iter().zip(qs)),
            (Rules::Nim(_), Pos::Nim(h)) => nimber ^= *h as i64,
            other => others.push(other),
        }
    }
    if let [(Rules::Spl(_), Pos::Spl(s))] = others.as_slice() {
        spl(env, s);
    }
    env.set("nimber", Val::Int(nimber));
}
