//! The verifier's own closures on the vertex set of a graph (at most 64 vertices), for the
//! closure games GEN, DNG, TER, DNT on graphs (grundy's docs/closure-games.md; the building
//! games of Benesh–Ernst–Meyer–Salmon–Sieben, "Impartial geodetic building games on graphs",
//! 2024, and of seed 000 §1), from the definitions only:
//!
//! the intervals of each closure are its own file's ([`crate::closures`]: geodesic intervals
//! for the convex hull and the one-step geodetic closure, induced paths for the monophonic
//! hull); the *closure* of S takes the step ⋃ I[u, v] over u, v ∈ S once (geodetic) or
//! repeats it until nothing changes (the hulls).
//!
//! Without a u–v path the interval is {u, v}. S *generates* when its closure is V.
//!
//! The maximal non-generating sets 𝓝 (the maximal legal sets of GEN and DNG) are found by
//! [`maximal_nongenerating`]: for the hulls by a search over the closed sets, for the one-step
//! geodetic closure vertex by vertex over the sets whose closure misses that vertex; both
//! arguments are in the function's comment, and the unit tests compare them with the list of
//! all subsets on small graphs.

use crate::games::Graph;

/// Closed sets (or independent sets) visited at most when listing 𝓝.
pub const FAMILY_BUDGET: usize = 1 << 18;

pub use crate::closures::Kind;

/// A graph's vertex set with one of its closures.
pub struct GraphClosure {
    pub n: usize,
    pub kind: Kind,
    pub edges: usize,
    /// `interval[u][v]`: I[u, v] (or J[u, v]) as a vertex mask.
    interval: Vec<Vec<u64>>,
}

impl GraphClosure {
    pub fn new(g: &Graph, kind: Kind) -> Result<GraphClosure, String> {
        g.validate()?;
        if g.n > 64 {
            return Err(format!(
                "{} vertices: the verifier's vertex sets are 64-bit",
                g.n
            ));
        }
        let n = g.n;
        let interval = kind.intervals(g)?;
        Ok(GraphClosure {
            n,
            kind,
            edges: g.edges.len(),
            interval,
        })
    }

    /// An interval closure on `n` ≤ 64 elements from its intervals (`interval[u][v]` holding
    /// u and v), for structures other than graphs ([`crate::structures`]): posets by their
    /// order intervals, digraphs by directed geodesics (not symmetric).
    pub fn from_intervals(
        n: usize,
        kind: Kind,
        edges: usize,
        interval: Vec<Vec<u64>>,
    ) -> GraphClosure {
        debug_assert!(n <= 64 && interval.len() == n);
        GraphClosure {
            n,
            kind,
            edges,
            interval,
        }
    }

    pub fn all(&self) -> u64 {
        if self.n == 64 {
            u64::MAX
        } else {
            (1u64 << self.n) - 1
        }
    }

    /// One step: ⋃ I[u, v] over u, v ∈ S.
    fn step(&self, s: u64) -> u64 {
        let mut out = s;
        let mut a = s;
        while a != 0 {
            let u = a.trailing_zeros() as usize;
            a &= a - 1;
            let mut b = s;
            while b != 0 {
                let v = b.trailing_zeros() as usize;
                b &= b - 1;
                out |= self.interval[u][v];
            }
        }
        out
    }

    /// The closure of S: one step (geodetic) or repeated to a fixed point (hulls).
    pub fn close(&self, s: u64) -> u64 {
        let mut cur = self.step(s);
        if !self.kind.iterated() {
            return cur;
        }
        loop {
            let next = self.step(cur);
            if next == cur {
                return cur;
            }
            cur = next;
        }
    }

    pub fn generates(&self, s: u64) -> bool {
        self.close(s) == self.all()
    }

    /// 𝓝, the maximal non-generating sets, ascending as masks; `None` past
    /// [`FAMILY_BUDGET`] sets visited.
    ///
    /// Hulls (idempotent): a maximal non-generating M is closed (cl(M) ≠ V contains M), and
    /// from cl(∅) the steps C ↦ cl(C ∪ {x}) with x ∈ M stay inside M and reach it; so the
    /// search over the closed sets reached this way from cl(∅) meets every member of 𝓝, and a
    /// closed C ≠ V is maximal iff every step from it gives V.
    ///
    /// Geodetic closure (one step, not idempotent): S is non-generating iff some w ∉ I[S], i.e.
    /// S ⊆ V ∖ {w} holds no pair u, v with w ∈ I[u, v]: an independent set of the graph H_w on
    /// V ∖ {w} joining such pairs. Every member of 𝓝 is then a maximal independent set of some
    /// H_w, each of which is non-generating; the inclusion-maximal ones among them are 𝓝.
    pub fn maximal_nongenerating(&self) -> Option<Vec<u64>> {
        let all = self.all();
        let mut out = Vec::new();
        if self.kind.iterated() {
            let start = self.close(0);
            if start == all {
                return Some(Vec::new());
            }
            let mut seen = std::collections::HashSet::from([start]);
            let mut queue = std::collections::VecDeque::from([start]);
            while let Some(c) = queue.pop_front() {
                let mut maximal = true;
                for x in 0..self.n {
                    if c >> x & 1 == 1 {
                        continue;
                    }
                    let d = self.close(c | 1 << x);
                    if d != all {
                        maximal = false;
                        if seen.insert(d) {
                            if seen.len() > FAMILY_BUDGET {
                                return None;
                            }
                            queue.push_back(d);
                        }
                    }
                }
                if maximal {
                    out.push(c);
                }
            }
        } else {
            let mut candidates = std::collections::BTreeSet::new();
            let mut visited = 0usize;
            for w in 0..self.n {
                // H_w's adjacency on V ∖ {w}.
                let mut h = vec![0u64; self.n];
                for u in 0..self.n {
                    for v in 0..self.n {
                        // Both ways: a digraph's I[u, v] need not be I[v, u], and a set
                        // holding u and v has both.
                        if u != v && u != w && v != w && self.interval[u][v] >> w & 1 == 1 {
                            h[u] |= 1 << v;
                            h[v] |= 1 << u;
                        }
                    }
                }
                let vertices = all & !(1u64 << w);
                maximal_independent(&h, 0, vertices, 0, &mut candidates, &mut visited)?;
            }
            let c: Vec<u64> = candidates.into_iter().collect();
            out = c
                .iter()
                .copied()
                .filter(|&s| !c.iter().any(|&t| t != s && t & s == s))
                .collect();
        }
        out.sort_unstable();
        Some(out)
    }

    /// The minimal generating sets, ascending as masks; `None` past [`FAMILY_BUDGET`] sets
    /// visited ([`minimal_generating`]).
    pub fn minimal_generating(&self) -> Option<Vec<u64>> {
        minimal_generating(self.n, |s| self.generates(s))
    }
}

/// The minimal generating sets of a monotone `generates` on `n` ≤ 64 elements, ascending as
/// masks: a depth-first search adding larger elements only (each set once), stopping at the
/// generating sets, which are kept when no one-element removal still generates. `None` past
/// [`FAMILY_BUDGET`] sets visited.
pub fn minimal_generating(n: usize, generates: impl Fn(u64) -> bool) -> Option<Vec<u64>> {
    if generates(0) {
        return Some(vec![0]);
    }
    let mut out = Vec::new();
    let mut stack = vec![(0u64, 0usize)];
    let mut visited = 0usize;
    while let Some((s, from)) = stack.pop() {
        visited += 1;
        if visited > FAMILY_BUDGET {
            return None;
        }
        for v in from..n {
            let t = s | 1 << v;
            if generates(t) {
                let mut rest = t;
                let mut minimal = true;
                while rest != 0 {
                    let x = rest.trailing_zeros();
                    rest &= rest - 1;
                    if generates(t & !(1u64 << x)) {
                        minimal = false;
                        break;
                    }
                }
                if minimal {
                    out.push(t);
                }
            } else {
                stack.push((t, v + 1));
            }
        }
    }
    out.sort_unstable();
    Some(out)
}

/// Bron–Kerbosch without pivoting on the complement of `h` restricted to `p ∪ x`: every
/// maximal independent set of `h` containing `r` and inside `r ∪ p`, not meeting the excluded
/// `x`'s extensions, goes into `out`. `None` past [`FAMILY_BUDGET`] calls.
fn maximal_independent(
    h: &[u64],
    r: u64,
    mut p: u64,
    mut x: u64,
    out: &mut std::collections::BTreeSet<u64>,
    visited: &mut usize,
) -> Option<()> {
    *visited += 1;
    if *visited > FAMILY_BUDGET {
        return None;
    }
    if p == 0 && x == 0 {
        out.insert(r);
        return Some(());
    }
    while p != 0 {
        let v = p.trailing_zeros() as usize;
        let bit = 1u64 << v;
        // Independent: the new vertex and the rest must be non-adjacent in h.
        let keep = !h[v] & !bit;
        maximal_independent(h, r | bit, p & keep, x & keep, out, visited)?;
        p &= !bit;
        x |= bit;
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::names::parse_graph;

    fn op(name: &str, kind: Kind) -> GraphClosure {
        GraphClosure::new(&parse_graph(name).unwrap(), kind).unwrap()
    }

    /// 𝓝 by listing all 2^n subsets: the definition itself.
    fn listed(c: &GraphClosure) -> Vec<u64> {
        let non: Vec<u64> = (0..1u64 << c.n).filter(|&s| !c.generates(s)).collect();
        let set: std::collections::HashSet<u64> = non.iter().copied().collect();
        let mut out: Vec<u64> = non
            .iter()
            .copied()
            .filter(|&s| (0..c.n).all(|x| s >> x & 1 == 1 || !set.contains(&(s | 1 << x))))
            .collect();
        out.sort_unstable();
        out
    }

    const SMALL: &[&str] = &[
        "P_1",
        "P_2",
        "P_5",
        "P_8",
        "C_4",
        "C_5",
        "C_7",
        "C_8",
        "K_4",
        "K_{2,3}",
        "K_{1,4}",
        "K_{2,2,2}",
        "W_6",
        "W_7",
        "W_{2,5}",
        "Q_3",
        "Grid_{2,4}",
        "Grid_{3,3}",
        "Split_{2,3}",
        "Wd_{3,3}",
        "Corona(P_3)",
        "graph6:Dhc",
    ];

    #[test]
    fn maximal_nongenerating_sets_are_the_listed_ones() {
        for g in SMALL {
            for kind in crate::closures::CLOSURES
                .iter()
                .map(|r| Kind::parse(Some(r.name())).unwrap())
            {
                let c = op(g, kind);
                assert_eq!(c.maximal_nongenerating(), Some(listed(&c)), "{g} {kind:?}");
            }
        }
    }

    #[test]
    fn minimal_generating_sets_are_the_listed_ones() {
        for g in SMALL {
            for kind in crate::closures::CLOSURES
                .iter()
                .map(|r| Kind::parse(Some(r.name())).unwrap())
            {
                let c = op(g, kind);
                let gen: Vec<u64> = (0..1u64 << c.n).filter(|&s| c.generates(s)).collect();
                let mut want: Vec<u64> = gen
                    .iter()
                    .copied()
                    .filter(|&s| (0..c.n).all(|x| s >> x & 1 == 0 || !c.generates(s & !(1 << x))))
                    .collect();
                want.sort_unstable();
                assert_eq!(c.minimal_generating(), Some(want), "{g} {kind:?}");
            }
        }
    }

    /// Facts from the definitions: in C_n (n ≥ 4) the hull of two adjacent vertices is the
    /// edge, the geodetic closure of antipodal vertices of C_8 is all of it; in P_n the two
    /// leaves generate; J on a cycle is everything (both arcs are induced), so any two
    /// non-adjacent vertices of C_n generate under the monophonic hull but not the convex
    /// hull of C_9; in K_n every set is closed.
    #[test]
    fn closures_are_the_textbook_ones() {
        let c8 = op("C_8", Kind::GEODETIC);
        assert_eq!(c8.close(0b11), 0b11);
        assert!(c8.generates(1 | 1 << 4));
        assert!(!c8.generates(1 | 1 << 3));
        let p6 = op("P_6", Kind::HULL);
        assert!(p6.generates(1 | 1 << 5));
        assert!(!p6.generates(0b011111));
        let c9m = op("C_9", Kind::MONOPHONIC);
        let c9h = op("C_9", Kind::HULL);
        assert!(c9m.generates(1 | 1 << 2));
        assert!(!c9h.generates(1 | 1 << 2));
        let k5 = op("K_5", Kind::HULL);
        assert!((0..31u64).all(|s| k5.close(s) == s));
        // Q_3 under the hull: 𝓝 is the six half-cubes (a coordinate constant).
        let q3 = op("Q_3", Kind::HULL);
        let m = q3.maximal_nongenerating().unwrap();
        assert_eq!(m.len(), 6);
        assert!(m.iter().all(|s| s.count_ones() == 4));
        // Two vertices at distance 4 on C_9: one geodesic, the short arc, which is convex.
        let c9g = op("C_9", Kind::GEODETIC);
        assert_eq!(c9g.close(1 | 1 << 4), 0b11111);
        assert_eq!(c9h.close(1 | 1 << 4), 0b11111);
    }

    /// The geodetic closure is not idempotent: in K_{2,3} (parts a1, a2 | b1, b2, b3) the
    /// pair {b1, b2} has the interval {b1, b2, a1, a2}, and the second step adds b3 through
    /// the pair {a1, a2}. So the closed-set search, right for the hulls, would be wrong for
    /// it (the listing tests above cover both routes on every small graph).
    #[test]
    fn geodetic_closure_can_grow_on_a_second_step() {
        let geo = op("K_{2,3}", Kind::GEODETIC);
        let s = 1 << 2 | 1 << 3;
        assert_eq!(geo.close(s), 0b01111);
        assert_eq!(geo.close(geo.close(s)), 0b11111);
        assert!(!geo.generates(s));
        assert!(op("K_{2,3}", Kind::HULL).generates(s));
    }
}
