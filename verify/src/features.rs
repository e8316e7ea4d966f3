//! The position features spec formulas read about splitting-game positions, from their
//! definitions in paper 000 §5.5: for (c, λ), `c`; the parts of λ (Λ^n counts as the single
//! part n) as `parts`, `l1`, `l2` (0 when missing), `num_parts`, `size` (= `parts_sum`, their
//! sum), `odd_parts`; `is_lambda`; `solid` (before Lemma 5.39: l1 ≥ 4 or l2 ≥ 2, and Λ^n iff
//! n ≥ 5); `solid_splits` (Lemma 5.39: the options with as many centres that are solid);
//! `terminal` (the images of TER(W_{m,n})'s terminal positions, §5.5). In a diagram,
//! a sum of one splitting game with nimbers reads its features unprefixed and `nimber`, the
//! XOR of the nimber heaps (paper Remark 5.34's `(c, λ) + *k`).
//!
//! Removing games TER, DNT on a graph (paper 000 §2–§4): at a position P, `vertices` = |V|,
//! `edges` = |E|, `size` = |P|, `unselected` = |V ∖ P|, `terminating` ([V ∖ P] ≠ V, §3); and
//! of the graph, from its minimal generating sets 𝒢 (found by the verifier's own search,
//! [`crate::graph_closure::minimal_generating`]): `min_gen_sets` = |𝒢|, `gen_unique`
//! (𝒢 = {L}), `gen_complement` = |V ∖ L| (−1 unless 𝒢 = {L}), `n_star_sizes`, the sizes
//! of the members of 𝒩* (the maximal nonterminating sets: P is nonterminating iff V ∖ P
//! contains a member of 𝒢, so 𝒩* = {V ∖ L : L ∈ 𝒢}, listed by ascending L), and
//! `n_star_union` = |⋃𝒩*|.
//!
//! The multiset terminate game TER(U) (before Prop 5.14): `elements` (U ascending), `total`
//! = ‖U‖, σ (`sigma`, ones), λ (`lambda`, elements ≥ 2), m (the maximum), ν (`nu`, copies
//! of m minus one), `p` = pty(‖U‖), `terminal` (every element below 2), and d = m −
//! Σ_{u ∈ U'} (u − 1), U' the elements ≥ 2 less one copy of m (`d`; on terminal positions
//! d = ∞: `d_infinite`, and `d` is 2^40 as in grundy's convention), `rho` = [p, d].
//!
//! Positions of other games have no features here: a formula reading one is not evaluated by
//! the verifier.

use crate::formula::{Env, Val};
use crate::games::{Pos, Rules, Spl};

/// Before Lemma 5.39: (c, λ) is solid when l1 ≥ 4 or l2 ≥ 2; Λ^n when n ≥ 5.
fn solid(s: &Spl) -> bool {
    match s.lambda {
        Some(n) => n >= 5,
        None => s.parts.first().is_some_and(|&l| l >= 4) || s.parts.get(1).is_some_and(|&l| l >= 2),
    }
}

fn spl(env: &mut Env, s: &Spl) {
    let parts: Vec<u32> = match s.lambda {
        Some(n) => vec![n],
        None => s.parts.clone(),
    };
    let size: i64 = parts.iter().map(|&x| x as i64).sum();
    let get = |i: usize| parts.get(i).map_or(0, |&x| x as i64);
    let solid = self::solid(s);
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
    // Lemma 5.39's splits of λ that are solid: the options with as many centres (the others
    // take a centre away), by the verifier's own rules.
    let splits = crate::games::spl_options(s)
        .iter()
        .filter(|q| q.c == s.c && self::solid(q))
        .count();
    env.set("solid_splits", Val::Int(splits as i64));
    env.set("terminal", Val::Bool(terminal));
}

/// d = ∞ as the feature `d` holds it (a convention, not a result: larger than any finite d).
const D_INFINITE: i64 = 1 << 40;

fn multiset(env: &mut Env, u: &[u32]) {
    let u: Vec<i64> = u.iter().map(|&x| x as i64).collect();
    let m = u.iter().copied().max().unwrap_or(0);
    let terminal = u.iter().all(|&x| x < 2);
    let total: i64 = u.iter().sum();
    let d = if terminal {
        D_INFINITE
    } else {
        // U' = the elements ≥ 2 with one copy of m taken out.
        let mut rest: Vec<i64> = u.iter().copied().filter(|&x| x >= 2).collect();
        let at = rest
            .iter()
            .position(|&x| x == m)
            .expect("m ≥ 2 is an element");
        rest.remove(at);
        m - rest.iter().map(|x| x - 1).sum::<i64>()
    };
    env.set("elements", Val::List(u.clone()));
    env.set("total", Val::Int(total));
    env.set(
        "sigma",
        Val::Int(u.iter().filter(|&&x| x == 1).count() as i64),
    );
    env.set(
        "lambda",
        Val::Int(u.iter().filter(|&&x| x >= 2).count() as i64),
    );
    env.set("m", Val::Int(m));
    env.set(
        "nu",
        Val::Int(u.iter().filter(|&&x| x == m).count() as i64 - 1),
    );
    env.set("p", Val::Int(total % 2));
    env.set("d", Val::Int(d));
    env.set("d_infinite", Val::Bool(terminal));
    env.set("rho", Val::List(vec![total % 2, d]));
    env.set("terminal", Val::Bool(terminal));
}

fn removing(env: &mut Env, rules: &Rules, p: u64) {
    let Rules::Removing {
        conv,
        edges,
        generating,
        ..
    } = rules
    else {
        return;
    };
    let n = conv.n();
    env.set("vertices", Val::Int(n as i64));
    env.set("edges", Val::Int(*edges as i64));
    env.set("size", Val::Int(p.count_ones() as i64));
    env.set("unselected", Val::Int((n - p.count_ones() as usize) as i64));
    env.set("terminating", Val::Bool(conv.terminating(p)));
    let g = generating.get_or_init(|| {
        crate::graph_closure::minimal_generating(n, |s| conv.hull(s) == conv.all())
    });
    if let Some(g) = g {
        env.set("min_gen_sets", Val::Int(g.len() as i64));
        env.set("gen_unique", Val::Bool(g.len() == 1));
        let lc = match g.as_slice() {
            [l] => (n - l.count_ones() as usize) as i64,
            _ => -1,
        };
        env.set("gen_complement", Val::Int(lc));
        env.set(
            "n_star_sizes",
            Val::List(
                g.iter()
                    .map(|l| (n - l.count_ones() as usize) as i64)
                    .collect(),
            ),
        );
        let union = g.iter().fold(0u64, |a, &l| a | (conv.all() & !l));
        env.set("n_star_union", Val::Int(union.count_ones() as i64));
    }
}

/// The features of a lone game's position (claims about positions).
pub fn of_position(env: &mut Env, rules: &Rules, p: &Pos) {
    match (rules, p) {
        (Rules::Spl(_), Pos::Spl(s)) => spl(env, s),
        (Rules::Multiset(_), Pos::Multi(u)) => multiset(env, u),
        (Rules::Removing { .. }, Pos::Set(s)) => removing(env, rules, *s),
        _ => {}
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
