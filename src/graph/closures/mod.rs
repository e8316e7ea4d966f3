//! Interval closures on a graph's vertex set, behind one small trait and one registry: the
//! convex hull of seed 000 (§2.5, the default), the one-step geodetic closure (§6 question 2)
//! and the monophonic hull, one file each. A closure here is given by its intervals I(u, v)
//! (a set of vertices holding u and v) and whether the step S ↦ ⋃ I(u, v) is iterated to a
//! fixed point (a hull) or taken once (a pre-closure). Everything a solver may exploit beyond
//! that is a capability the closure declares ([`GraphClosure::geodesic`],
//! [`GraphClosure::geodesic_on_complete_multipartite`]); no code outside this folder asks
//! which closure it holds by name, so a new closure is one file plus one line in [`BUILTIN`]
//! (or, from outside the crate, a [`crate::registry::Registry`] holding it) and is never
//! solved with another closure's tables.

mod geodetic;
mod hull;
mod monophonic;

pub use geodetic::Geodetic;
pub use hull::Hull;
pub use monophonic::Monophonic;

use super::Graph;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::RwLock;

/// Search steps an interval computation may take before the graph is refused (the
/// monophonic intervals are NP-hard to decide in general).
pub const INTERVAL_BUDGET: u64 = super::monophonic::DEFAULT_BUDGET;

/// A closure on the vertex set of a graph, given by its intervals.
///
/// The games need only that the closure is extensive and monotone, which every interval
/// closure is; it need not be idempotent ([`GraphClosure::iterated`] false).
pub trait GraphClosure: Send + Sync + 'static {
    /// Its name in specs (`closure:`), `--closure` and certificates: unique in the registry.
    fn name(&self) -> &'static str;
    /// One line for `--help`, `grundy features` and the guide.
    fn about(&self) -> &'static str;
    /// `I(u, v)` at `u * n + v` for every pair of the graph's `n` ≤ 64 vertices, symmetric
    /// (I(u, v) = I(v, u): the closures pair each two vertices once) and holding u and v
    /// (I(u, u) = {u}); `None` when computing them needs more than `budget` search steps
    /// (never under `u64::MAX`).
    fn intervals(&self, g: &Graph, budget: u64) -> Option<Vec<u64>>;
    /// Whether the closure repeats the interval step until nothing changes (a hull) or takes
    /// it once.
    fn iterated(&self) -> bool;
    /// Capability: the intervals are the geodesic ones, w ∈ I(u, v) iff d(u, w) + d(w, v) =
    /// d(u, v). Then the closure extends to digraphs and weighted graphs by their metrics, and
    /// when it is also iterated it is seed 000's convex hull, whose proved tables (the odd
    /// cycles' outcomes) and certificates apply.
    fn geodesic(&self) -> bool {
        false
    }
    /// Capability: on a complete multipartite graph (at least two parts) the intervals are
    /// the geodesic ones, so whether a set generates depends only on its counts per part
    /// (src/game/closure/multipartite.rs). Default: when the intervals are geodesic.
    fn geodesic_on_complete_multipartite(&self) -> bool {
        self.geodesic()
    }
    /// How a game's name marks the closure: ` [name]` (the default closure marks nothing).
    fn game_suffix(&self) -> String {
        format!(" [{}]", self.name())
    }
    /// Why the last [`GraphClosure::intervals`] returned `None` when it was not the budget (a
    /// closure defined in a spec whose rule failed): the message the games quote.
    fn failure(&self) -> Option<String> {
        None
    }
    /// The sha256 of the spec defining the closure (closures defined in specs, issue 45), which
    /// certificates record as `closure_sha256`.
    fn spec_sha256(&self) -> Option<&str> {
        None
    }
}

/// The built-in closures, the default first: one line each.
pub static BUILTIN: &[&dyn GraphClosure] = &[&Hull, &Geodetic, &Monophonic];

/// Closures registered at run time (from outside the crate), after the built-ins.
static EXTRA: RwLock<Vec<&'static dyn GraphClosure>> = RwLock::new(Vec::new());

/// A handle on a registered graph closure: cheap to copy, compared and hashed by name (names
/// are unique in the registry).
#[derive(Clone, Copy)]
pub struct Closure(&'static dyn GraphClosure);

impl Closure {
    /// The convex hull, seed 000's closure and the default.
    pub const HULL: Closure = Closure(&Hull);
    /// The one-step geodetic closure.
    pub const GEODETIC: Closure = Closure(&Geodetic);
    /// The monophonic hull.
    pub const MONOPHONIC: Closure = Closure(&Monophonic);

    /// The registered closure called `name`.
    pub fn named(name: &str) -> Option<Closure> {
        all().into_iter().find(|c| c.name() == name)
    }
    pub fn name(self) -> &'static str {
        self.0.name()
    }
    pub fn about(self) -> &'static str {
        self.0.about()
    }
    pub fn iterated(self) -> bool {
        self.0.iterated()
    }
    pub fn geodesic(self) -> bool {
        self.0.geodesic()
    }
    /// The closure is seed 000's convex hull: geodesic intervals, iterated.
    pub fn is_geodesic_hull(self) -> bool {
        self.0.geodesic() && self.0.iterated()
    }
    pub fn geodesic_on_complete_multipartite(self) -> bool {
        self.0.geodesic_on_complete_multipartite()
    }
    pub fn intervals(self, g: &Graph, budget: u64) -> Option<Vec<u64>> {
        self.0.intervals(g, budget)
    }
    pub fn game_suffix(self) -> String {
        self.0.game_suffix()
    }
    pub fn failure(self) -> Option<String> {
        self.0.failure()
    }
    pub fn spec_sha256(self) -> Option<&'static str> {
        self.0.spec_sha256()
    }
    /// Why the intervals of `g` are refused: the closure's own failure, else the budget.
    pub fn refusal(self, g: &Graph) -> String {
        self.failure().unwrap_or_else(|| {
            format!(
                "the {} intervals of {} need more than {} search steps; refused",
                self.name(),
                g.name(),
                INTERVAL_BUDGET
            )
        })
    }
}

impl Default for Closure {
    fn default() -> Closure {
        Closure(BUILTIN[0])
    }
}

impl PartialEq for Closure {
    fn eq(&self, other: &Closure) -> bool {
        self.name() == other.name()
    }
}
impl Eq for Closure {}
impl Hash for Closure {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.name().hash(h)
    }
}
impl fmt::Display for Closure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
impl fmt::Debug for Closure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
impl serde::Serialize for Closure {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

/// Every registered closure: the built-ins, then those registered at run time.
pub fn all() -> Vec<Closure> {
    let extra = EXTRA.read().unwrap_or_else(|e| e.into_inner());
    BUILTIN
        .iter()
        .chain(extra.iter())
        .map(|&c| Closure(c))
        .collect()
}

/// The registered names, for messages and help.
pub fn names() -> Vec<&'static str> {
    all().into_iter().map(Closure::name).collect()
}

/// Registers a closure defined outside the crate; refused when its name is taken by another
/// closure (registering the same one again is a no-op).
pub fn register(c: &'static dyn GraphClosure) -> Result<Closure, String> {
    let mut extra = EXTRA.write().unwrap_or_else(|e| e.into_inner());
    if extra.iter().any(|d| std::ptr::addr_eq(*d, c)) {
        return Ok(Closure(c));
    }
    let taken = BUILTIN
        .iter()
        .chain(extra.iter())
        .any(|d| d.name() == c.name());
    if taken || c.name().is_empty() {
        return Err(format!(
            "a graph closure named `{}` is registered already",
            c.name()
        ));
    }
    extra.push(c);
    Ok(Closure(c))
}

/// Geodesic intervals: w ∈ I(u, v) iff d(u, w) + d(w, v) = d(u, v) (vertices in other
/// components lie on no geodesic; without a u–v path, I(u, v) = {u, v}).
pub fn geodesic_intervals(g: &Graph) -> Vec<u64> {
    let n = g.n();
    let dist: Vec<Vec<u32>> = (0..n).map(|v| g.distances_from(v)).collect();
    let mut interval = vec![0u64; n * n];
    for u in 0..n {
        for v in 0..n {
            let mut m = 1u64 << u | 1u64 << v;
            if dist[u][v] != u32::MAX {
                for w in 0..n {
                    if dist[u][w] != u32::MAX
                        && dist[w][v] != u32::MAX
                        && dist[u][w] + dist[w][v] == dist[u][v]
                    {
                        m |= 1 << w;
                    }
                }
            }
            interval[u * n + v] = m;
        }
    }
    interval
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_the_hull_is_the_default() {
        let names = names();
        let mut sorted = names.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), names.len());
        assert_eq!(Closure::default().name(), "hull");
        assert!(Closure::default().is_geodesic_hull());
        assert!(!Closure::GEODETIC.is_geodesic_hull());
        assert!(!Closure::MONOPHONIC.is_geodesic_hull());
        assert!(register(&Hull).is_err(), "a taken name is refused");
    }
}
