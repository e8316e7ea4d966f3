//! The verifier's registry of graph closures, written from their definitions independently
//! of grundy's (grundy's docs/closure-games.md): one file per closure, one line in
//! [`CLOSURES`]. A closure is its intervals on a graph's vertex set and whether the step
//! S ↦ ⋃ I[u, v] is repeated to a fixed point; what else the verifier relies on (geodesic
//! intervals, which extend to digraphs, weighted graphs and part counts of complete
//! multipartite graphs) is a capability the closure declares, never its name.

mod geodetic;
mod hull;
mod monophonic;
pub mod user;

use crate::games::Graph;
use std::cell::Cell;
use std::fmt;

thread_local! {
    /// The `closure:` of the spec being verified on this thread: every graph game its names
    /// build is played under it, as in grundy (a spec's closure applies to all its games).
    static SPEC_CLOSURE: Cell<Option<Kind>> = const { Cell::new(None) };
}

/// Runs `f` with the games named on this thread built under `kind`.
pub fn in_spec_closure<R>(kind: Kind, f: impl FnOnce() -> R) -> R {
    let old = SPEC_CLOSURE.with(|c| c.replace(Some(kind)));
    let r = f();
    SPEC_CLOSURE.with(|c| c.set(old));
    r
}

/// The closure games named on this thread are built under (the hull outside a spec).
pub fn spec_closure() -> Kind {
    SPEC_CLOSURE.with(|c| c.get()).unwrap_or(Kind(CLOSURES[0]))
}

/// A graph closure by its intervals.
pub trait Rule: Sync {
    /// The name specs and certificates give it (`closure:`).
    fn name(&self) -> &'static str;
    /// `interval[u][v]` ⊇ {u, v} for every pair of the graph's vertices (at most 64).
    fn intervals(&self, g: &Graph) -> Result<Vec<Vec<u64>>, String>;
    /// Repeated to a fixed point (a hull) or taken once.
    fn iterated(&self) -> bool;
    /// The intervals are the geodesic ones: the closure extends to any metric (digraphs,
    /// weighted graphs).
    fn geodesic(&self) -> bool {
        false
    }
    /// On complete multipartite graphs the intervals are the geodesic ones, so counts per
    /// part decide generation.
    fn geodesic_on_complete_multipartite(&self) -> bool {
        self.geodesic()
    }
    /// A closure defined in a spec: that file's sha256 (certificates record it as
    /// `closure_sha256`); `None` for the built-in ones.
    fn spec_sha256(&self) -> Option<&'static str> {
        None
    }
}

/// Every built-in closure the verifier knows, the default (a spec without `closure:`) first.
/// The closures defined in specs are found after these, by name, in the registry filled when
/// the specs are read ([`crate::user`], [`user`]).
pub static CLOSURES: &[&dyn Rule] = &[&hull::Hull, &geodetic::Geodetic, &monophonic::Monophonic];

/// A registered closure.
#[derive(Clone, Copy)]
pub struct Kind(&'static dyn Rule);

impl Kind {
    /// The convex hull (geodesic intervals, iterated), for metric structures.
    pub const HULL: Kind = Kind(&hull::Hull);
    /// The one-step geodetic closure, for metric structures.
    pub const GEODETIC: Kind = Kind(&geodetic::Geodetic);
    /// The monophonic hull (tests name it; specs by its name).
    #[cfg(test)]
    pub const MONOPHONIC: Kind = Kind(&monophonic::Monophonic);

    /// The spec's `closure:` (absent: the first registered, the hull).
    pub fn parse(c: Option<&str>) -> Option<Kind> {
        match c {
            None => Some(Kind(CLOSURES[0])),
            Some(name) => CLOSURES
                .iter()
                .find(|r| r.name() == name)
                .map(|&r| Kind(r))
                .or_else(|| {
                    let c: &'static dyn Rule = crate::user::closure(name)?.ok()?;
                    Some(Kind(c))
                }),
        }
    }
    /// The name certificates give the closure.
    pub fn text(self) -> &'static str {
        self.0.name()
    }
    pub fn iterated(self) -> bool {
        self.0.iterated()
    }
    pub fn geodesic(self) -> bool {
        self.0.geodesic()
    }
    /// Seed 000's convex hull: geodesic intervals, iterated.
    pub fn is_geodesic_hull(self) -> bool {
        self.0.geodesic() && self.0.iterated()
    }
    pub fn geodesic_on_complete_multipartite(self) -> bool {
        self.0.geodesic_on_complete_multipartite()
    }
    pub fn intervals(self, g: &Graph) -> Result<Vec<Vec<u64>>, String> {
        self.0.intervals(g)
    }
    /// A closure defined in a spec: that file's sha256.
    pub fn spec_sha256(self) -> Option<&'static str> {
        self.0.spec_sha256()
    }
}

impl fmt::Debug for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text())
    }
}

/// Geodesic intervals, w ∈ I[u, v] iff d(u, w) + d(w, v) = d(u, v) by breadth-first
/// distances; without a u–v path, I[u, v] = {u, v}.
pub fn geodesic_intervals(g: &Graph) -> Vec<Vec<u64>> {
    let n = g.n;
    let mut interval = pairs(n);
    let dist: Vec<Vec<Option<usize>>> = (0..n).map(|s| g.distances(s)).collect();
    for u in 0..n {
        for v in 0..n {
            let Some(duv) = dist[u][v] else { continue };
            for w in 0..n {
                if let (Some(a), Some(b)) = (dist[u][w], dist[w][v]) {
                    if a + b == duv {
                        interval[u][v] |= 1 << w;
                    }
                }
            }
        }
    }
    interval
}

/// `interval[u][v] = {u, v}`: where every closure's intervals start.
pub fn pairs(n: usize) -> Vec<Vec<u64>> {
    (0..n)
        .map(|u| (0..n).map(|v| (1u64 << u) | (1u64 << v)).collect())
        .collect()
}
