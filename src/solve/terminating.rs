//! A faster test of "P is terminating" for the level solver: instead of building the hull of
//! V ∖ P pair by pair (quadratic in |V ∖ P|, and V ∖ P is nearly everything in the positions
//! of TER and DNT), it asks of each *selected* vertex p whether p lies on a geodesic between two
//! members of the current set, through `between[p][a]` = { b : p ∈ I(a, b) }. Newly covered
//! vertices join the set and the scan repeats (the hull is the least fixed point of the
//! geodetic closure), so the cost is driven by |P|, usually small.
//!
//! Equivalent to [`crate::graph::Convexity::terminating`] for every closure (built from its
//! intervals); the tests compare the two on every subset of small graphs.

use crate::graph::{bits, Convexity};

/// The precomputed interval table of a graph.
#[derive(Clone, Debug)]
pub struct Terminating {
    n: usize,
    full: u64,
    /// The closure repeats the interval step (a hull) rather than taking it once.
    iterated: bool,
    /// `between[p * n + a]`: the vertices b with p in the interval I(a, b).
    between: Vec<u64>,
    /// `useful[p]`: the vertices a ≠ p with some b ≠ p such that p is on a shortest a–b path
    /// (p is interior to no geodesic from any other a, so those rows need not be scanned).
    useful: Vec<u64>,
}

impl Terminating {
    /// The table of `conv`'s intervals, read the other way round: whatever the closure, the
    /// scan asks the same question of its intervals.
    pub fn new(conv: &Convexity) -> Terminating {
        let n = conv.n();
        let mut between = vec![0u64; n * n];
        for p in 0..n {
            for a in 0..n {
                between[p * n + a] = (0..n)
                    .filter(|&b| conv.interval(a, b) >> p & 1 == 1)
                    .fold(0u64, |m, b| m | 1 << b);
            }
        }
        let useful = (0..n)
            .map(|p| {
                (0..n)
                    .filter(|&a| a != p && between[p * n + a] & !(1u64 << p) != 0)
                    .fold(0u64, |m, a| m | 1 << a)
            })
            .collect();
        Terminating {
            n,
            full: conv.full(),
            iterated: conv.closure_kind().iterated(),
            between,
            useful,
        }
    }

    /// `true` iff the unselected vertices V ∖ P do not generate V.
    #[inline]
    pub fn terminating(&self, p: u64) -> bool {
        let mut cur = self.full & !p;
        let mut missing = p & self.full;
        if missing == 0 {
            // V generates itself (the closure of V is V).
            return false;
        }
        loop {
            let mut added = 0u64;
            for v in bits(missing) {
                let row = &self.between[v * self.n..(v + 1) * self.n];
                // p itself is in every row, but p is missing from `cur`.
                if bits(cur & self.useful[v]).any(|a| row[a] & cur != 0) {
                    added |= 1 << v;
                }
            }
            if added == 0 {
                return true;
            }
            missing &= !added;
            if missing == 0 {
                return false;
            }
            if !self.iterated {
                // One step of the interval operator: no iteration.
                return true;
            }
            cur |= added;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::{closures, families as fam};

    #[test]
    fn agrees_with_the_hull_on_every_subset() {
        for g in [
            fam::cycle(9).unwrap(),
            fam::wheel(9).unwrap(),
            fam::hypercube(3).unwrap(),
            fam::kite(),
            fam::path(8).unwrap(),
            fam::gen_wheel(2, 6).unwrap(),
            fam::multipartite(&[2, 3, 3]).unwrap(),
        ] {
            for closure in closures::all() {
                let c = Convexity::new(&g, closure);
                let t = Terminating::new(&c);
                for p in 0..1u64 << g.n() {
                    assert_eq!(
                        t.terminating(p),
                        c.terminating(p),
                        "{} {closure:?} {p:b}",
                        g.name()
                    );
                }
            }
        }
    }
}
