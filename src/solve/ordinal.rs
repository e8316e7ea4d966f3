//! Ordinal sums `G : H` solved without their position set (which is the product of the
//! components' and doubles with every `: *1`, so `*1 : *1 : … : *1` sixty deep has 2^60
//! positions).
//!
//! In `G : H` a move in `G` freezes `H` (src/game/sum.rs), so a position `(a, b)` with `a` off
//! `G`'s start has the value of `a` in `G`, and with `S` the set of values of `G`'s start
//! options, `f(b) = nim(G : b) = mex(S ∪ {f(b') : b' an option of b})`. By induction on `b`,
//! `f(b) = c_{nim(b)}` where `c_0 < c_1 < …` enumerate the naturals outside `S` (Conway's
//! ordinal-sum rule, *On Numbers and Games* ch. 15, here for impartial games): the options
//! give every `c_j` with `j < nim(b)` and never `c_{nim(b)}`; paper000's Prop 5.26,
//! `nim(*k : G) = k + nim(G)`, is the case of a nimber base. So the start options of `G : H`
//! have the values `S ∪ {c_t : t ∈ T}`, `T` those of `H`, and the value is their mex. Sums
//! inside need the value sets of their parts: an option of `A + B` changes one part, so its
//! value is `x ⊕ nim(B)` for `x` a start-option value of `A`, and so on.
//!
//! Value sets are kept as sorted disjoint intervals, so `*4294967295` costs one interval; the
//! XOR image of an interval splits it into aligned binary blocks (at most 128 per interval).
//! Octal games and Dawson's Chess give theirs from the heap values (issue 28: `*1 : DC(100000)`
//! once ran the memo solver on the heap): an option replaces one heap `h` by heaps `a, b`, so
//! its value is `total ⊕ G(h) ⊕ G(a) ⊕ G(b)`, linear in the heap sizes per removal digit.
//! Other components (graph games, SPL, …) give their start options' values by the guarded
//! memo solver of [`super::dispatch`], as before.

use super::guard::Refusal;
use crate::game::AnyGame;

/// A set of naturals as sorted, disjoint, non-adjacent half-open intervals `[lo, hi)`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Values(Vec<(u64, u64)>);

impl Values {
    /// `{0, 1, …, k-1}`: the option values of the nimber `*k`.
    pub fn below(k: u64) -> Values {
        Values::from_intervals(vec![(0, k)])
    }

    /// The set of the given values.
    pub fn of(values: impl IntoIterator<Item = u64>) -> Values {
        Values::from_intervals(values.into_iter().map(|v| (v, v + 1)).collect())
    }

    fn from_intervals(mut v: Vec<(u64, u64)>) -> Values {
        v.retain(|&(lo, hi)| lo < hi);
        v.sort_unstable();
        let mut out: Vec<(u64, u64)> = Vec::with_capacity(v.len());
        for (lo, hi) in v {
            match out.last_mut() {
                Some(last) if lo <= last.1 => last.1 = last.1.max(hi),
                _ => out.push((lo, hi)),
            }
        }
        Values(out)
    }

    /// The least natural not in the set.
    pub fn mex(&self) -> u64 {
        match self.0.first() {
            Some(&(0, hi)) => hi,
            _ => 0,
        }
    }

    pub fn contains(&self, x: u64) -> bool {
        self.0.iter().any(|&(lo, hi)| lo <= x && x < hi)
    }

    pub fn union(&self, other: &Values) -> Values {
        Values::from_intervals(self.0.iter().chain(&other.0).copied().collect())
    }

    /// `{c_t : t ∈ indices}` where `c_0 < c_1 < …` enumerate the naturals outside `self`.
    /// `None` past `u64` (never reached from `u32` nimbers and depth 64).
    pub fn complement_image(&self, indices: &Values) -> Option<Values> {
        // Gaps of `self` as (first natural of the gap, its length or None for the last,
        // index of its first natural in the enumeration).
        let mut gaps = Vec::with_capacity(self.0.len() + 1);
        let (mut at, mut idx) = (0u64, 0u64);
        for &(lo, hi) in &self.0 {
            if lo > at {
                gaps.push((at, Some(lo - at), idx));
                idx += lo - at;
            }
            at = hi;
        }
        gaps.push((at, None, idx));
        let mut out = Vec::new();
        for &(lo, hi) in &indices.0 {
            for &(start, len, first) in &gaps {
                let end = len.map(|l| first + l);
                let a = lo.max(first);
                let b = end.map_or(hi, |e| hi.min(e));
                if a < b {
                    let x = start.checked_add(a - first)?;
                    let y = start.checked_add(b - first)?;
                    out.push((x, y));
                }
            }
        }
        Some(Values::from_intervals(out))
    }

    /// `{x ⊕ c : x ∈ self}`.
    pub fn xor(&self, c: u64) -> Values {
        let mut out = Vec::new();
        for &(lo, hi) in &self.0 {
            // Split [lo, hi) into aligned blocks [a, a + 2^k); XOR maps each onto an aligned
            // block of the same size.
            let mut a = lo;
            while a < hi {
                let mut k = if a == 0 {
                    63
                } else {
                    a.trailing_zeros().min(63)
                };
                while k > 0 && (hi - a) < (1u64 << k) {
                    k -= 1;
                }
                let size = 1u64 << k;
                let base = (a ^ c) & !(size - 1);
                out.push((base, base + size));
                a += size;
            }
        }
        Values::from_intervals(out)
    }
}

/// Gives the start options' values of a component the rules here do not cover, and the
/// positions it computed.
pub type Leaf<'a> = dyn FnMut(&AnyGame) -> Result<(Values, u64), Refusal> + 'a;

/// Whether [`start_option_values`] handles `game` without the memo solver at its top: ordinal
/// sums, and sums containing one.
pub fn applies(game: &AnyGame) -> bool {
    match game {
        AnyGame::Ordinal(..) => true,
        AnyGame::Sum(parts) => parts.iter().any(applies),
        _ => false,
    }
}

/// The values of the start's options of `game`, and the positions the leaf solves computed.
/// `leaf` gives them for components that are neither nimbers, sums nor ordinal sums.
pub fn start_option_values(game: &AnyGame, leaf: &mut Leaf) -> Result<(Values, u64), Refusal> {
    match game {
        AnyGame::Nimber(k) => Ok((Values::below(*k as u64), *k as u64 + 1)),
        AnyGame::Ordinal(g, h) => {
            let (s, n) = start_option_values(g, leaf)?;
            let (t, m) = start_option_values(h, leaf)?;
            let lifted = s.complement_image(&t).ok_or_else(|| too_large(game))?;
            Ok((s.union(&lifted), n + m))
        }
        AnyGame::Sum(parts) if applies(game) => {
            let mut sets = Vec::with_capacity(parts.len());
            let mut total = 0u64;
            let mut positions = 0u64;
            for p in parts {
                let (s, n) = start_option_values(p, leaf)?;
                total ^= s.mex();
                positions += n;
                sets.push(s);
            }
            let mut out = Values::default();
            for s in &sets {
                out = out.union(&s.xor(total ^ s.mex()));
            }
            Ok((out, positions))
        }
        AnyGame::Octal(g) => octal_start_options(game, g.code(), g.heaps()),
        AnyGame::Dawson(d) => {
            let heaps = crate::game::dawson::runs(crate::game::Game::start(d));
            octal_start_options(game, &crate::game::octal_lookup::dawson_code(), &heaps)
        }
        _ => leaf(game),
    }
}

/// The start options' values of an octal position (heaps of the game `code`), from the
/// heap values `G(0..=max)`: no position is built.
fn octal_start_options(
    game: &AnyGame,
    code: &crate::game::octal::OctalCode,
    heaps: &[u32],
) -> Result<(Values, u64), Refusal> {
    let top = heaps.iter().copied().max().unwrap_or(0);
    let all: Vec<u32> = (0..=top).collect();
    let g = code.values_of(&all).map_err(|e| Refusal {
        game: game.to_string(),
        during: false,
        estimate: e.to_string(),
        limit: "the proved period".to_string(),
        hint: "use smaller heaps".to_string(),
    })?;
    let total = heaps.iter().fold(0u32, |x, &h| x ^ g[h as usize]);
    let mut values = Vec::new();
    let mut done = std::collections::BTreeSet::new();
    for &h in heaps {
        if !done.insert(h) {
            continue;
        }
        let rest = total ^ g[h as usize];
        values.extend(
            code.option_pairs(h)
                .into_iter()
                .map(|(a, b)| (rest ^ g[a as usize] ^ g[b as usize]) as u64),
        );
    }
    Ok((Values::of(values), top as u64 + 1))
}

/// The nim-value of `game`'s start from its options' values; refused past `u32`.
pub fn nim(game: &AnyGame, leaf: &mut Leaf) -> Result<(u32, u64), Refusal> {
    let (s, n) = start_option_values(game, leaf)?;
    let v = u32::try_from(s.mex()).map_err(|_| too_large(game))?;
    Ok((v, n))
}

fn too_large(game: &AnyGame) -> Refusal {
    Refusal {
        game: game.to_string(),
        during: false,
        estimate: "a nim-value".to_string(),
        limit: "the largest nim-value grundy represents (2^32 - 1)".to_string(),
        hint: "Use smaller nimbers.".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::{parse_game, ParseOptions};
    use crate::solve::Solver;

    fn game(s: &str) -> AnyGame {
        parse_game(s, ParseOptions::default()).unwrap()
    }

    /// Leaves by the memo solver, unguarded (small games only).
    fn memo_leaf(g: &AnyGame) -> Result<(Values, u64), Refusal> {
        let mut s = Solver::new(g);
        let opts = crate::game::Game::options(g, &crate::game::Game::start(g));
        let vals = Values::of(opts.iter().map(|o| s.nim(o) as u64));
        Ok((vals, s.stats().positions))
    }

    fn fast(s: &str) -> u32 {
        nim(&game(s), &mut memo_leaf).unwrap().0
    }

    fn exhaustive(s: &str) -> u32 {
        Solver::new(&game(s)).nim_of_start()
    }

    #[test]
    fn agrees_with_the_exhaustive_solver() {
        for s in [
            "*1 : *1",
            "*0 : *3",
            "*2 : *1",
            "*1 : *1 : *1 : *1 : *1",
            "*3 : (*1 : *2) : *1",
            "(*1 + *2) : *1",
            "(*1 : *1) + (*2 : *1)",
            "*1 : DNT(P_4)",
            "DNT(P_4) : *2",
            "TER(C_5) : (*1 + TER(P_3)) : *2",
            "(TER(P_3) : *1) + *3",
            "((*1 : *2) + *3) : (*2 : *1)",
            "*2 : (*1 + *1)",
            "(*2 + *3 + (*1 : *1)) : *4",
        ] {
            assert_eq!(fast(s), exhaustive(s), "{s}");
        }
    }

    #[test]
    fn a_chain_of_ones_counts_its_length() {
        // Each `: *1` on top of a game of value v whose options have the values 0..v adds 1.
        let chain = vec!["*1"; 64].join(" : ");
        assert_eq!(fast(&chain), 64);
        // A graph game at the base: the exhaustive solver decides the small chain.
        let s = "DNT(P_4) : *1 : *1 : *1";
        assert_eq!(fast(s), exhaustive(s));
    }

    #[test]
    fn values_past_u32_are_refused() {
        assert!(nim(&game("*4294967295 : *4294967295"), &mut memo_leaf).is_err());
        assert_eq!(fast("*4294967295 : *0"), 4294967295);
    }

    #[test]
    fn interval_xor_and_complement() {
        let s = Values::of([0, 2, 5]);
        // Complement 1, 3, 4, 6, 7, …
        assert_eq!(
            s.complement_image(&Values::of([0, 1, 2, 3])).unwrap(),
            Values::of([1, 3, 4, 6])
        );
        let x = Values::below(13).xor(6);
        let want = Values::of((0..13).map(|v| v ^ 6));
        assert_eq!(x, want);
    }
}
