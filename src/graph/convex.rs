//! Interval convexity (paper §2.5): a graph's intervals under one of the registered closures
//! ([`super::closures`]: the convex hull by default, the one-step geodetic closure of §6
//! question 2, the monophonic hull), generating and terminating sets, the
//! families 𝒢, 𝒩, 𝒢*, 𝒩* and minimal transversals Tr (§2.2, Prop 2.4).

pub use super::closures::Closure;
use super::{bits, Graph};

/// Precomputed intervals of a graph under the chosen closure operator.
#[derive(Clone, Debug)]
pub struct Convexity {
    n: usize,
    full: u64,
    /// `interval[u * n + v]`: I(u, v) under the closure (geodesic: the vertices on some
    /// shortest u–v path, u and v included).
    interval: Vec<u64>,
    closure: Closure,
}

impl Convexity {
    /// The convexity of `g`, its intervals computed without a budget (internal callers on
    /// known graphs: games from users go through [`Convexity::try_new`]). A closure answers
    /// every graph under an unlimited budget ([`super::closures::GraphClosure::intervals`]).
    pub fn new(g: &Graph, closure: Closure) -> Convexity {
        match Convexity::with_budget(g, closure, u64::MAX) {
            Some(c) => c,
            None => unreachable!("an unlimited budget is never exceeded"),
        }
    }

    /// The convexity of `g`, its intervals computed without a step budget, or why not: a
    /// closure defined in a spec may fail on `g` (its rule errs, or an interval misses its
    /// ends), which is the user's input and never a panic.
    pub fn of(g: &Graph, closure: Closure) -> Result<Convexity, String> {
        Convexity::with_budget(g, closure, u64::MAX).ok_or_else(|| closure.refusal(g))
    }

    /// The convexity of `g`, or `None` when its intervals need more than
    /// [`super::closures::INTERVAL_BUDGET`] search steps.
    pub fn try_new(g: &Graph, closure: Closure) -> Option<Convexity> {
        Convexity::with_budget(g, closure, super::closures::INTERVAL_BUDGET)
    }

    fn with_budget(g: &Graph, closure: Closure, budget: u64) -> Option<Convexity> {
        Some(Convexity {
            n: g.n(),
            full: g.full(),
            interval: closure.intervals(g, budget)?,
            closure,
        })
    }

    pub fn closure_kind(&self) -> Closure {
        self.closure
    }
    pub fn n(&self) -> usize {
        self.n
    }
    pub fn full(&self) -> u64 {
        self.full
    }

    /// The interval between u and v under the closure: `I[u, v]` (geodesic), `J[u, v]`
    /// (induced paths) for the monophonic hull.
    pub fn interval(&self, u: usize, v: usize) -> u64 {
        self.interval[u * self.n + v]
    }

    /// `I[S]`: the union of the intervals between members of S (one step).
    pub fn geodetic_closure(&self, s: u64) -> u64 {
        let mut out = s;
        for u in bits(s) {
            let row = &self.interval[u * self.n..(u + 1) * self.n];
            for v in bits(s & !(u64::MAX >> (63 - u))) {
                out |= row[v];
            }
        }
        out
    }

    /// `[S]`: the convex hull. New vertices are paired only with vertices not yet paired,
    /// so each pair is joined once.
    pub fn hull(&self, s: u64) -> u64 {
        self.hull_until(s, 0)
    }

    /// The hull, stopping early once it contains `stop` (when `stop != 0`).
    fn hull_until(&self, s: u64, stop: u64) -> u64 {
        let mut done = 0u64;
        let mut cur = s;
        let mut todo = s;
        while todo != 0 {
            let u = todo.trailing_zeros() as usize;
            todo &= todo - 1;
            let row = &self.interval[u * self.n..(u + 1) * self.n];
            let mut add = 0u64;
            for v in bits(done) {
                add |= row[v];
            }
            done |= 1 << u;
            let new = add & !cur;
            cur |= new;
            todo |= new;
            if stop != 0 && cur & stop == stop {
                return cur;
            }
        }
        cur
    }

    /// The selected closure of S.
    pub fn close(&self, s: u64) -> u64 {
        if self.closure.iterated() {
            self.hull(s)
        } else {
            self.geodetic_closure(s)
        }
    }

    /// `S` generates the vertex set.
    pub fn generates(&self, s: u64) -> bool {
        if self.closure.iterated() {
            self.hull_until(s, self.full) == self.full
        } else {
            self.geodetic_closure(s) == self.full
        }
    }

    /// `P` is terminating: the unselected vertices no longer generate.
    pub fn terminating(&self, p: u64) -> bool {
        !self.generates(self.full & !p)
    }

    /// 𝒢, 𝒩, 𝒢*, 𝒩* of the graph, found by a search over nongenerating sets and a
    /// transversal computation that give up after `budget` units of work in all (a unit is a
    /// set visited, a closure on 32 vertices evaluated, or 64 pairs of sets compared): the families can be
    /// exponentially large, and counting sets alone let one set's many closures run for
    /// minutes on 64 vertices (issue 28).
    pub fn families(&self, budget: u64) -> Option<SetFamilies> {
        let mut work = 0u64;
        let g = self.minimal_generating(budget, &mut work)?;
        let g_star = transversals_within(&g, budget, &mut work)?;
        let n = g_star.iter().map(|s| self.full & !s).collect::<Vec<_>>();
        let n_star = g.iter().map(|s| self.full & !s).collect::<Vec<_>>();
        Some(SetFamilies {
            g: sorted(g),
            n: sorted(n),
            g_star: sorted(g_star),
            n_star: sorted(n_star),
        })
    }

    /// Minimal generating sets: depth-first over the nongenerating sets that contain the
    /// extreme vertices E = {x : V ∖ {x} does not generate}, extending only with larger
    /// vertices, so each set is visited once. Every generating set contains E (a set without
    /// x lies in V ∖ {x}, and the closure is monotone), so the sets without E need no visit:
    /// a tree's leaves, a star's, generate at once (K_{1,20} has 2^20 nongenerating sets).
    fn minimal_generating(&self, budget: u64, work: &mut u64) -> Option<Vec<u64>> {
        let mut out = Vec::new();
        let charge = |w: &mut u64, k: u64| {
            *w = w.saturating_add(k);
            *w <= budget
        };
        // A closure on n vertices costs about n² bit operations: 64 vertices cost four
        // times what 32 do (measured: Q_5 about 12 million closures a second, Split_{32,32}
        // about one million).
        let per = ((self.n * self.n) as u64 / 1024).max(1);
        if !charge(work, per * self.n as u64) {
            return None;
        }
        let extreme = bits(self.full)
            .filter(|&x| !self.generates(self.full & !(1 << x)))
            .fold(0u64, |e, x| e | 1 << x);
        if self.generates(extreme) {
            return Some(vec![extreme]);
        }
        let mut stack = vec![(extreme, 0usize)];
        while let Some((s, from)) = stack.pop() {
            if !charge(work, 1 + per * (self.n - from) as u64) {
                return None;
            }
            for v in from..self.n {
                if extreme >> v & 1 == 1 {
                    continue;
                }
                let t = s | (1 << v);
                if self.generates(t) {
                    if !charge(work, per * u64::from(t.count_ones())) {
                        return None;
                    }
                    if bits(t).all(|x| !self.generates(t & !(1 << x))) {
                        out.push(t);
                    }
                } else {
                    stack.push((t, v + 1));
                }
            }
        }
        Some(out)
    }
}

/// The four families of Prop 2.4, as sorted bitmasks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetFamilies {
    pub g: Vec<u64>,
    pub n: Vec<u64>,
    pub g_star: Vec<u64>,
    pub n_star: Vec<u64>,
}

/// Sorted by size, then by the vertex lists (lexicographic), for stable printing.
pub fn sorted(mut v: Vec<u64>) -> Vec<u64> {
    v.sort_by_key(|&m| (m.count_ones(), bits(m).collect::<Vec<_>>()));
    v.dedup();
    v
}

/// Keeps the inclusion-minimal sets.
pub fn minimal(v: Vec<u64>) -> Vec<u64> {
    let v = sorted(v);
    let mut out: Vec<u64> = Vec::new();
    for s in v {
        if !out.iter().any(|&t| t & !s == 0) {
            out.push(s);
        }
    }
    out
}

/// `Tr(𝒜)`: the minimal transversals (Berge's algorithm). `Tr(∅) = {∅}`, `Tr({∅}) = ∅`.
pub fn transversals(family: &[u64]) -> Vec<u64> {
    transversals_within(family, u64::MAX, &mut 0).unwrap_or_default()
}

/// [`transversals`] within `budget` units of work (`work` carries what was spent before):
/// `None` once the partial transversals and their minimisation cost more.
pub fn transversals_within(family: &[u64], budget: u64, work: &mut u64) -> Option<Vec<u64>> {
    let mut tr = vec![0u64];
    for &a in family {
        let mut next = Vec::new();
        for &t in &tr {
            if t & a != 0 {
                next.push(t);
            } else {
                next.extend(bits(a).map(|x| t | (1 << x)));
            }
        }
        // `minimal` compares pairs of sets: one AND each, charged at 1/64 of a closure.
        let k = next.len() as u64;
        *work = work.saturating_add(k.saturating_mul(k) / 64 + k);
        if *work > budget {
            return None;
        }
        tr = minimal(next);
    }
    Some(sorted(tr))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::families as fam;

    fn set(g: &Graph, names: &[&str]) -> u64 {
        names
            .iter()
            .map(|n| 1u64 << g.vertex_index(n).unwrap())
            .fold(0, |a, b| a | b)
    }
    fn fam_of(g: &Graph, sets: &[&[&str]]) -> Vec<u64> {
        sorted(sets.iter().map(|s| set(g, s)).collect())
    }

    #[test]
    fn example_2_1_transversals() {
        // Tr({{1,2},{2,3,4},{2,3,5}}) = {{2},{1,3},{1,4,5}} with vertex i as bit i.
        let f = [0b110, 0b11100, 0b101100];
        assert_eq!(transversals(&f), sorted(vec![0b100, 0b1010, 0b110010]));
        assert_eq!(transversals(&[]), vec![0]);
        assert_eq!(transversals(&[0]), Vec::<u64>::new());
    }

    #[test]
    fn example_2_6_kite() {
        let g = fam::kite();
        let f = Convexity::new(&g, Closure::HULL).families(1 << 20).unwrap();
        assert_eq!(
            f.n,
            fam_of(
                &g,
                &[&["x", "y", "u"], &["x", "y", "v"], &["y", "u", "v", "w"]]
            )
        );
        assert_eq!(f.g_star, fam_of(&g, &[&["v", "w"], &["u", "w"], &["x"]]));
        assert_eq!(f.g, fam_of(&g, &[&["x", "w"], &["x", "u", "v"]]));
        assert_eq!(f.n_star, fam_of(&g, &[&["y", "u", "v"], &["y", "w"]]));
    }

    #[test]
    fn example_3_1_and_3_2() {
        let p3 = fam::path(3).unwrap();
        let f = Convexity::new(&p3, Closure::HULL)
            .families(1 << 20)
            .unwrap();
        assert_eq!(f.g_star, fam_of(&p3, &[&["v1"], &["v3"]]));
        assert_eq!(f.n_star, fam_of(&p3, &[&["v2"]]));
        let k1 = fam::path(1).unwrap();
        let f = Convexity::new(&k1, Closure::HULL)
            .families(1 << 20)
            .unwrap();
        assert_eq!(f.g_star, vec![1]);
        assert_eq!(f.n_star, vec![0]);
    }

    #[test]
    fn example_5_2_c5() {
        let g = fam::cycle(5).unwrap();
        let f = Convexity::new(&g, Closure::HULL).families(1 << 20).unwrap();
        let v = |i: usize| format!("v{i}");
        let tri = |a, b, c| vec![v(a), v(b), v(c)];
        let sets: Vec<Vec<String>> = vec![
            tri(1, 3, 4),
            tri(2, 4, 5),
            tri(1, 3, 5),
            tri(1, 2, 4),
            tri(2, 3, 5),
        ];
        let want: Vec<u64> = sorted(
            sets.iter()
                .map(|s| s.iter().map(|n| 1u64 << g.vertex_index(n).unwrap()).sum())
                .collect(),
        );
        assert_eq!(f.g, want);
        assert!(f.n_star.iter().all(|s| s.count_ones() == 2));
        assert_eq!(f.g_star.len(), 5);
        assert!(f
            .g_star
            .iter()
            .all(|s| s.count_ones() == 2 && (s & g.adj(s.trailing_zeros() as usize)) != 0));
    }

    #[test]
    fn prop_5_9_multipartite_n_star() {
        // λ >= 2: 𝒩* = complements of the sets with exactly two vertices from one part.
        for parts in [vec![2, 2], vec![1, 2, 3], vec![2, 2, 2], vec![1, 1, 2, 3]] {
            let g = fam::multipartite(&parts).unwrap();
            let f = Convexity::new(&g, Closure::HULL).families(1 << 22).unwrap();
            let mut want = Vec::new();
            for a in 0..g.n() {
                for b in a + 1..g.n() {
                    if g.adj(a) & (1 << b) == 0 {
                        want.push(g.full() & !((1 << a) | (1 << b)));
                    }
                }
            }
            assert_eq!(f.n_star, sorted(want), "{parts:?}");
        }
    }

    #[test]
    fn cor_5_17_wheel_g_star() {
        for n in 5..=10 {
            let g = fam::wheel(n).unwrap();
            let f = Convexity::new(&g, Closure::HULL).families(1 << 22).unwrap();
            let r = n as usize - 1;
            let want: Vec<u64> = (0..r)
                .map(|i| (1u64 << i) | (1u64 << ((i + 1) % r)))
                .collect();
            assert_eq!(f.g_star, sorted(want), "W_{n}");
        }
    }

    #[test]
    fn prop_5_31_generalised_wheel_n_star() {
        for (m, n) in [(2, 4), (2, 5), (3, 5), (2, 6), (4, 4)] {
            let g = fam::gen_wheel(m, n).unwrap();
            let f = Convexity::new(&g, Closure::HULL).families(1 << 22).unwrap();
            let (m, n) = (m as usize, n as usize);
            let mut want = Vec::new();
            for i in 0..m {
                for j in i + 1..m {
                    want.push(g.full() & !((1 << i) | (1 << j)));
                }
            }
            for k in 0..n {
                for l in k + 1..n {
                    let adjacent = l == k + 1 || (k == 0 && l == n - 1);
                    if !adjacent {
                        want.push(g.full() & !((1 << (m + k)) | (1 << (m + l))));
                    }
                }
            }
            assert_eq!(f.n_star, sorted(want), "W_{{{m},{n}}}");
        }
    }

    #[test]
    fn hull_and_geodetic_differ_on_q3() {
        // §6 question 2: on Q_3 the one-step closure is not the hull.
        let g = fam::hypercube(3).unwrap();
        let h = Convexity::new(&g, Closure::HULL);
        let c = Convexity::new(&g, Closure::GEODETIC);
        let differs = (0..256u64).any(|s| h.close(s) != c.close(s));
        assert!(differs);
        // antipodal pair generates under both
        assert!(h.generates(0b1000_0001) && c.generates(0b1000_0001));
    }
}
