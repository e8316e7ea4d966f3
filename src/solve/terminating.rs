//! A faster test of "P is terminating" for the level solver: instead of building the hull of
//! V ∖ P pair by pair (quadratic in |V ∖ P|, and V ∖ P is nearly everything in the positions
//! of TER and DNT), it asks of each *selected* vertex p whether p lies on a geodesic between two
//! members of the current set, through `between[p][a]` = { b : p ∈ I(a, b) }. Newly covered
//! vertices join the set and the scan repeats (the hull is the least fixed point of the
//! geodetic closure), so the cost is driven by |P|, usually small.
//!
//! Equivalent to [`crate::graph::Convexity::terminating`] for both closures; the tests compare
//! the two on every subset of small graphs.

use crate::graph::{bits, Closure, Graph};

/// The precomputed geodesic table of a graph.
#[derive(Clone, Debug)]
pub struct Terminating {
    n: usize,
    full: u64,
    closure: Closure,
    /// `between[p * n + a]`: the vertices b with p on a shortest a–b path.
    between: Vec<u64>,
    /// `useful[p]`: the vertices a ≠ p with some b ≠ p such that p is on a shortest a–b path
    /// (p is interior to no geodesic from any other a, so those rows need not be scanned).
    useful: Vec<u64>,
}

impl Terminating {
    pub fn new(g: &Graph, closure: Closure) -> Terminating {
        let n = g.n();
        let dist: Vec<Vec<u32>> = (0..n).map(|v| g.distances_from(v)).collect();
        let mut between = vec![0u64; n * n];
        if closure == Closure::Monophonic {
            // Induced-path intervals instead of geodesic ones (same scan, other table).
            let conv = crate::graph::Convexity::new(g, closure);
            for p in 0..n {
                for a in 0..n {
                    between[p * n + a] = (0..n)
                        .filter(|&b| conv.interval(a, b) >> p & 1 == 1)
                        .fold(0u64, |m, b| m | 1 << b);
                }
            }
        }
        for p in (0..n).filter(|_| closure != Closure::Monophonic) {
            for a in 0..n {
                let mut m = 0u64;
                for b in 0..n {
                    if dist[a][p] != u32::MAX
                        && dist[p][b] != u32::MAX
                        && dist[a][p] + dist[p][b] == dist[a][b]
                    {
                        m |= 1 << b;
                    }
                }
                between[p * n + a] = m;
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
            full: g.full(),
            closure,
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
            match self.closure {
                Closure::Hull | Closure::Monophonic => cur |= added,
                // One step of the interval operator: no iteration.
                Closure::Geodetic => return true,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::{families as fam, Convexity};

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
            for closure in [Closure::Hull, Closure::Geodetic, Closure::Monophonic] {
                let t = Terminating::new(&g, closure);
                let c = Convexity::new(&g, closure);
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
