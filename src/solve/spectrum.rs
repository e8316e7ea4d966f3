//! The spectrum of nim-values of TER(G) and DNT(G) over many graphs (paper §6, question 3).
//!
//! [`dense_values`] is the lean path for one small graph (n ≤ [`DENSE_MAX`]): no automorphisms,
//! no hash map, only arrays indexed by vertex subsets.
//! 1. A set S is convex iff its one-step geodetic closure I[S] is S; I[S] is built from
//!    I[S ∖ v] by adding the intervals between v and S ∖ v.
//! 2. U does not generate iff [U] ≠ V iff U lies in a proper convex set (the hull is the least
//!    convex superset), so the nongenerating sets are the down-closure of the proper convex
//!    sets: one subset-sum pass over a bitset. P is terminating iff V ∖ P does not generate.
//! 3. One descending sweep over all subsets gives every TER value (terminating sets are
//!    terminal, value 0) and every DNT value (positions and options restricted to
//!    nonterminating sets); the game values are those of ∅.
//!
//! [`Spectrum`] accumulates value → count with the smallest example of each value, where
//! *smallest* means fewest edges, then the lexicographically least graph6 string. This order
//! does not depend on input order, thread count or sharding, so merged shards equal one run.

use crate::game::removing::{RemovingGame, Rule};
use crate::graph::{Closure, Graph};
use crate::solve::Solver;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use thiserror::Error;

/// Largest vertex count for the dense path (tables of 2^16 entries).
pub const DENSE_MAX: usize = 16;

/// nim(TER(G)) and nim(DNT(G)) of a connected graph given by adjacency bitmasks, with the
/// convex hull closure. Needs `adj.len() <= DENSE_MAX`. Uses a per-thread scratch space.
pub fn dense_values(adj: &[u64]) -> (u32, u32) {
    with_scratch(|s| s.values(adj))
}

/// Runs `f` on this thread's scratch tables (one set per thread, whatever the closure).
fn with_scratch<R>(f: impl FnOnce(&mut DenseScratch) -> R) -> R {
    thread_local! {
        static SCRATCH: std::cell::RefCell<DenseScratch> =
            std::cell::RefCell::new(DenseScratch::default());
    }
    SCRATCH.with(|s| f(&mut s.borrow_mut()))
}

/// Subsets of at most [`DENSE_MAX`] vertices index these tables.
const SUBSETS: usize = 1 << DENSE_MAX;

/// The arrays of [`dense_values`], kept between graphs so that a stream of graphs allocates
/// nothing: one-step closures and nim-values indexed by vertex subsets. Fixed-size tables
/// indexed by `u16` need no bounds checks in the inner loops.
pub struct DenseScratch {
    /// `closure[s]`: I[s], the union of the geodetic intervals between members of s.
    closure: Box<[u32; SUBSETS]>,
    /// `union[r]` for the current top vertex v: the union of I[v, u] over u in r.
    union: Box<[u32; SUBSETS]>,
    /// Bit s: s does not generate (lies in a proper convex set).
    nongen: Box<[u64; SUBSETS / 64]>,
    /// Indexed by the *unselected* set U = V \ P: `1 << nim(TER)` in the low 32 bits and
    /// `1 << nim(DNT)` in the high 32 bits, which are 0 where P is terminating (no DNT
    /// position). nim-values are at most 16 (a mex over at most 16 options).
    value: Box<[u64; SUBSETS]>,
}

/// A terminating set: TER value 0, not a DNT position.
const TER_ZERO: u64 = 1;

impl Default for DenseScratch {
    fn default() -> Self {
        let boxed = |n| vec![0u32; n].into_boxed_slice();
        DenseScratch {
            closure: boxed(SUBSETS).try_into().expect("sized"),
            union: boxed(SUBSETS).try_into().expect("sized"),
            nongen: vec![0u64; SUBSETS / 64]
                .into_boxed_slice()
                .try_into()
                .expect("sized"),
            value: vec![0u64; SUBSETS]
                .into_boxed_slice()
                .try_into()
                .expect("sized"),
        }
    }
}

/// The closures the dense path plays under (seed 000 §6, question 2: the geodetic closure
/// instead of the convex hull).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum DenseClosure {
    /// The convex hull [S] (the paper's games).
    #[default]
    Hull,
    /// The one-step geodetic closure I[S]: S generates iff I[S] = V.
    Geodetic,
}

impl DenseClosure {
    pub fn name(self) -> &'static str {
        match self {
            DenseClosure::Hull => "hull",
            DenseClosure::Geodetic => "geodetic",
        }
    }
}

impl DenseScratch {
    /// nim(TER(G)) and nim(DNT(G)), as [`dense_values`].
    pub fn values(&mut self, adj: &[u64]) -> (u32, u32) {
        self.closures(adj);
        self.nongen_hull(adj.len());
        self.sweep(adj.len())
    }

    /// The values under the hull and under the geodetic closure, from one table of one-step
    /// closures: `[(TER, DNT) under the hull, (TER, DNT) under I]`.
    pub fn values_both(&mut self, adj: &[u64]) -> [(u32, u32); 2] {
        self.closures(adj);
        self.nongen_geodetic(adj.len());
        let geodetic = self.sweep(adj.len());
        self.nongen_hull(adj.len());
        [self.sweep(adj.len()), geodetic]
    }

    /// Step 1: the one-step closure I[s] of every subset s.
    fn closures(&mut self, adj: &[u64]) {
        let n = adj.len();
        assert!(
            (1..=DENSE_MAX).contains(&n),
            "dense path takes 1..={DENSE_MAX} vertices"
        );
        let size = 1usize << n;
        // Distance layers: layers[s][d] = vertices at distance d from s.
        let mut layers = [[0u32; DENSE_MAX + 1]; DENSE_MAX];
        let mut ecc = [0usize; DENSE_MAX];
        for s in 0..n {
            let (mut seen, mut layer, mut d) = (1u64 << s, 1u64 << s, 0usize);
            while layer != 0 {
                layers[s][d] = layer as u32;
                let mut next = 0u64;
                let mut l = layer;
                while l != 0 {
                    next |= adj[l.trailing_zeros() as usize];
                    l &= l - 1;
                }
                next &= !seen;
                seen |= next;
                layer = next;
                d += 1;
            }
            ecc[s] = d - 1;
        }
        // I[u, v] = the vertices w with d(u, w) + d(w, v) = d(u, v); {u, v} when v is out of
        // reach (as the first version's distance sums give).
        let mut interval = [[0u32; DENSE_MAX]; DENSE_MAX];
        for u in 0..n {
            for (d, &lay) in layers[u][..=ecc[u]].iter().enumerate() {
                let mut l = lay;
                while l != 0 {
                    let v = l.trailing_zeros() as usize;
                    l &= l - 1;
                    interval[u][v] = (0..=d).fold(0, |a, k| a | (layers[u][k] & layers[v][d - k]));
                }
            }
            for (v, iv) in interval[u][..n].iter_mut().enumerate() {
                if *iv == 0 {
                    *iv = 1 << u | 1 << v;
                }
            }
        }
        // One-step closures, subsets in blocks by their top vertex v:
        // I[s] = I[r] ∪ {v} ∪ ⋃_{u ∈ r} I[v, u] for s = r ∪ {v}, r below v. The unions
        // ⋃_{u ∈ r} I[v, u] double up bit by bit (union[2^k + r] = union[r] ∪ I[v, k]), so
        // both loops are element-wise and vectorise. s is convex iff I[s] = s.
        let closure = &mut self.closure[..size];
        let union = &mut self.union[..size];
        closure[0] = 0;
        for (v, row) in interval[..n].iter().enumerate() {
            let base = 1usize << v;
            union[0] = 1 << v;
            for (k, &iv) in row.iter().enumerate().take(v) {
                let (low, high) = union.split_at_mut(1 << k);
                for (h, &l) in high[..1 << k].iter_mut().zip(low.iter()) {
                    *h = l | iv;
                }
            }
            let (low, high) = closure.split_at_mut(base);
            for ((h, &l), &un) in high[..base].iter_mut().zip(low.iter()).zip(union.iter()) {
                *h = l | un;
            }
        }
    }

    /// Step 2 under the geodetic closure: s does not generate iff I[s] ≠ V (I is monotone, so
    /// this set is already closed under subsets).
    fn nongen_geodetic(&mut self, n: usize) {
        let size = 1usize << n;
        let full = (size - 1) as u32;
        let closure = &self.closure[..size];
        for (w, chunk) in closure.chunks(64).enumerate() {
            self.nongen[w] = chunk
                .iter()
                .enumerate()
                .fold(0u64, |m, (i, &c)| m | ((c != full) as u64) << i);
        }
    }

    /// Step 2 under the hull: the down-closure of the proper convex sets.
    fn nongen_hull(&mut self, n: usize) {
        let size = 1usize << n;
        let full = size - 1;
        let words = size.div_ceil(64);
        let closure = &self.closure[..size];
        let nongen = &mut *self.nongen;
        for (w, chunk) in closure.chunks(64).enumerate() {
            let first = (w << 6) as u32;
            nongen[w] = chunk
                .iter()
                .zip(first..)
                .fold(0u64, |m, (&c, s)| m | ((c == s) as u64) << (s - first));
        }
        // V is convex but not proper.
        nongen[full >> 6] &= !(1u64 << (full & 63));
        // Down-closure: every subset of a proper convex set does not generate.
        for v in 0..n {
            if v < 6 {
                let shift = 1u32 << v;
                let lacks = (0..64u32)
                    .filter(|x| x & shift == 0)
                    .fold(0u64, |a, x| a | 1 << x);
                for w in nongen[..words].iter_mut() {
                    *w |= (*w >> shift) & lacks;
                }
            } else {
                let bit = 1usize << (v - 6);
                for w in 0..words {
                    if w & bit == 0 {
                        nongen[w] |= nongen[w | bit];
                    }
                }
            }
        }
    }

    /// Step 3, over the nongenerating sets of step 2.
    fn sweep(&mut self, n: usize) -> (u32, u32) {
        let size = 1usize << n;
        let full = size - 1;
        let words = size.div_ceil(64);
        let nongen = &*self.nongen;
        // Step 3: ascending over the unselected set U (P = V \ U). P is terminating iff U
        // does not generate: TER value 0, and not a DNT position. An option of P removes one
        // vertex from U. Values are kept as bits (1 << nim), so a mex is one OR per option.
        let value = &mut *self.value;
        value[..size].fill(TER_ZERO);
        let in_range = if size >= 64 {
            u64::MAX
        } else {
            (1 << size) - 1
        };
        for (w, &ng) in nongen[..words].iter().enumerate() {
            let mut generating = !ng & in_range;
            while generating != 0 {
                let u = w << 6 | generating.trailing_zeros() as usize;
                generating &= generating - 1;
                let mut seen = 0u64;
                let mut rest = u;
                while rest != 0 {
                    let low = rest & rest.wrapping_neg();
                    rest ^= low;
                    seen |= value[(u ^ low) as u16 as usize];
                }
                let t = (!(seen as u32)).trailing_zeros();
                let d = (!((seen >> 32) as u32)).trailing_zeros();
                value[u as u16 as usize] = 1 << t | 1 << (32 + d);
            }
        }
        let x = value[full as u16 as usize];
        (x.trailing_zeros(), (x >> 32).trailing_zeros())
    }
}

/// The first version of [`dense_values`] (descending over the selected set, intervals by
/// distance sums, closures by a loop over the members): kept as the reference the faster one
/// is tested against, value for value.
pub fn dense_values_reference(adj: &[u64]) -> (u32, u32) {
    let n = adj.len();
    assert!(
        (1..=DENSE_MAX).contains(&n),
        "dense path takes 1..={DENSE_MAX} vertices"
    );
    let size = 1usize << n;
    let full = size - 1;
    // Distances by breadth-first layers of bitmasks.
    let mut dist = vec![u8::MAX; n * n];
    for s in 0..n {
        let (mut seen, mut layer, mut d) = (1u64 << s, 1u64 << s, 0u8);
        while layer != 0 {
            for v in crate::graph::bits(layer) {
                dist[s * n + v] = d;
            }
            let next = crate::graph::bits(layer).fold(0u64, |a, v| a | adj[v]) & !seen;
            seen |= next;
            layer = next;
            d += 1;
        }
    }
    let mut interval = vec![0u32; n * n];
    for u in 0..n {
        for v in 0..n {
            let duv = dist[u * n + v];
            interval[u * n + v] = (0..n)
                .filter(|&w| dist[u * n + w] as u32 + dist[w * n + v] as u32 == duv as u32)
                .fold(0u32, |a, w| a | 1 << w);
        }
    }
    // Step 1: one-step closures and convex sets; step 2: nongenerating bitset.
    let words = size.div_ceil(64);
    let mut nongen = vec![0u64; words];
    let mut closure = vec![0u32; size];
    for s in 1..size {
        let v = 31 - (s as u32).leading_zeros() as usize;
        let rest = s & !(1 << v);
        let row = &interval[v * n..(v + 1) * n];
        let mut c = closure[rest] | 1 << v;
        for u in crate::graph::bits(rest as u64) {
            c |= row[u];
        }
        closure[s] = c;
    }
    for (s, &c) in closure.iter().enumerate() {
        if c as usize == s && s != full {
            nongen[s / 64] |= 1 << (s % 64);
        }
    }
    for v in 0..n {
        if v < 6 {
            let shift = 1u32 << v;
            let lacks = (0..64u32)
                .filter(|x| x & shift == 0)
                .fold(0u64, |a, x| a | 1 << x);
            for w in nongen.iter_mut() {
                *w |= (*w >> shift) & lacks;
            }
        } else {
            let bit = 1usize << (v - 6);
            for w in 0..words {
                if w & bit == 0 {
                    nongen[w] |= nongen[w | bit];
                }
            }
        }
    }
    let terminating = |p: usize| {
        let u = full & !p;
        nongen[u / 64] >> (u % 64) & 1 == 1
    };
    // Step 3: descending sweep; `dnt` is only read at nonterminating sets.
    let mut ter = vec![0u8; size];
    let mut dnt = vec![0u8; size];
    let mut term = vec![false; size];
    for p in (0..size).rev() {
        term[p] = terminating(p);
        if term[p] {
            continue;
        }
        let (mut seen_t, mut seen_d) = (0u64, 0u64);
        let mut free = full & !p;
        while free != 0 {
            let q = p | 1 << free.trailing_zeros();
            free &= free - 1;
            seen_t |= 1 << ter[q];
            if !term[q] {
                seen_d |= 1 << dnt[q];
            }
        }
        ter[p] = (!seen_t).trailing_zeros() as u8;
        dnt[p] = (!seen_d).trailing_zeros() as u8;
    }
    (ter[0] as u32, dnt[0] as u32)
}

/// Adjacency bitmasks of a graph6 string (no header) for the dense path: `None` unless it is
/// well formed, has 1..=[`DENSE_MAX`] vertices and is connected — every other case goes
/// through [`crate::graph::io::from_graph6`], which says what is wrong.
pub fn graph6_dense(text: &[u8]) -> Option<(usize, [u64; DENSE_MAX])> {
    let (&first, rest) = text.split_first()?;
    let n = (first as usize).checked_sub(63)?;
    if !(1..=DENSE_MAX).contains(&n) || rest.len() != (n * (n - 1) / 2).div_ceil(6) {
        return None;
    }
    let mut adj = [0u64; DENSE_MAX];
    let mut k = 0;
    for j in 1..n {
        for i in 0..j {
            let byte = rest[k / 6].checked_sub(63).filter(|&b| b < 64)?;
            if byte & (1 << (5 - k % 6)) != 0 {
                adj[i] |= 1 << j;
                adj[j] |= 1 << i;
            }
            k += 1;
        }
    }
    // Padding characters must be in range too.
    if rest.iter().any(|&b| !(63..=126).contains(&b)) {
        return None;
    }
    let (mut seen, mut layer) = (1u64, 1u64);
    while layer != 0 {
        let mut next = 0;
        let mut l = layer;
        while l != 0 {
            next |= adj[l.trailing_zeros() as usize];
            l &= l - 1;
        }
        layer = next & !seen;
        seen |= layer;
    }
    (seen == (1u64 << n) - 1).then_some((n, adj))
}

/// nim(TER(G)) and nim(DNT(G)) under the hull and under the geodetic closure (as
/// [`DenseScratch::values_both`]), one table of one-step closures for both.
pub fn dense_values_both(adj: &[u64]) -> [(u32, u32); 2] {
    with_scratch(|s| s.values_both(adj))
}

/// [`dense_values_both`] for any graph: the dense path when small enough, else the general
/// solver under each closure.
pub fn values_both(g: &Graph) -> [(u32, u32); 2] {
    if g.n() <= DENSE_MAX {
        let adj: Vec<u64> = (0..g.n()).map(|v| g.adj(v)).collect();
        return dense_values_both(&adj);
    }
    [Closure::HULL, Closure::GEODETIC].map(|c| general_values(g, c))
}

/// nim(TER(G)) and nim(DNT(G)) under `closure` by the general solver (graphs past the dense
/// path).
fn general_values(g: &Graph, closure: Closure) -> (u32, u32) {
    let solve = |rule| {
        let game = RemovingGame::new(rule, g.clone(), closure, 0)
            .expect("the empty start is nonterminating in every connected graph");
        Solver::new(&game).nim_of_start()
    };
    (solve(Rule::Ter), solve(Rule::Dnt))
}

/// nim(TER(G)) and nim(DNT(G)): the dense path when small enough, else the general solver.
pub fn values(g: &Graph) -> (u32, u32) {
    if g.n() <= DENSE_MAX {
        let adj: Vec<u64> = (0..g.n()).map(|v| g.adj(v)).collect();
        return dense_values(&adj);
    }
    general_values(g, Closure::HULL)
}

/// OEIS A001349: the number of connected graphs on n unlabelled vertices, n = 0..=14 (n = 15
/// passes 2^64). A complete `nauty-geng -c N` spectrum must count exactly this many.
pub const CONNECTED_GRAPHS: [u64; 15] = [
    1,
    1,
    1,
    2,
    6,
    21,
    112,
    853,
    11_117,
    261_080,
    11_716_571,
    1_006_700_565,
    164_059_830_476,
    50_335_907_869_219,
    29_003_487_462_848_061,
];

/// nim(TER(G)) and nim(DNT(G)) by the level solver (symmetry-reduced retrograde analysis over
/// canonical positions, `src/solve/levels.rs`): a second method for cross-checking the dense
/// path on samples.
pub fn level_values(g: &Graph) -> Result<(u32, u32), String> {
    level_values_under(g, DenseClosure::Hull)
}

/// [`level_values`] under `closure`.
pub fn level_values_under(g: &Graph, closure: DenseClosure) -> Result<(u32, u32), String> {
    use crate::solve::guard::Monitor;
    use crate::solve::progress::Progress;
    let closure = match closure {
        DenseClosure::Hull => Closure::HULL,
        DenseClosure::Geodetic => Closure::GEODETIC,
    };
    let solve = |rule| -> Result<u32, String> {
        let game = RemovingGame::new(rule, g.clone(), closure, 0).map_err(|e| e.to_string())?;
        crate::solve::levels::solve(&game, &Monitor::unlimited(game.name()), &Progress::hidden())
            .map(|r| r.nim)
            .map_err(|e| e.to_string())
    };
    Ok((solve(Rule::Ter)?, solve(Rule::Dnt)?))
}

#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum SpectrumError {
    #[error("bad shard `{0}`: expected i/k with 0 <= i < k, e.g. 3/100")]
    Shard(String),
    #[error("cannot merge: shard {0} appears twice")]
    DuplicateShard(String),
    #[error("cannot merge: shards split the work {a} and {b} ways")]
    MixedModulus { a: u64, b: u64 },
    #[error("cannot merge: one result is over {a}, another over {b}")]
    MixedSource { a: String, b: String },
    #[error(
        "cannot merge: {missing} of {count} shards missing (first: {first}); the {present} given \
         cover {graphs} graphs (pass --partial to merge an incomplete set)"
    )]
    Missing {
        missing: u64,
        count: u64,
        first: String,
        present: usize,
        graphs: u64,
    },
    #[error(
        "cannot merge: all shards of `{origin}` count {graphs} graphs, but there are {expected} \
         connected graphs on {n} vertices (OEIS A001349)"
    )]
    WrongTotal {
        origin: String,
        n: usize,
        graphs: u64,
        expected: u64,
    },
    #[error(
        "cannot merge: shard {0} carries no check (its command, graph count and digest of the \
         values): it cannot be vouched for; compute it again with this grundy"
    )]
    Unchecked(String),
    #[error(
        "cannot merge: the checks of shards {shards} do not add up to the {graphs} graphs they \
         report"
    )]
    ChecksDisagree { shards: String, graphs: u64 },
}

/// A shard `i/k` (geng's res/mod).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl Shard {
    pub fn parse(s: &str) -> Result<Shard, SpectrumError> {
        let bad = || SpectrumError::Shard(s.to_string());
        let (i, k) = s.split_once('/').ok_or_else(bad)?;
        let index: u64 = i.trim().parse().map_err(|_| bad())?;
        let count: u64 = k.trim().parse().map_err(|_| bad())?;
        if count == 0 || index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// The smallest example so far: fewest edges, then least graph6 string.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Example {
    pub edges: u32,
    pub graph6: String,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Tally {
    count: u64,
    smallest: Option<Example>,
}

impl Tally {
    fn add(&mut self, count: u64, ex: &Example) {
        self.add_parts(count, ex.edges, &ex.graph6);
    }

    /// As `add`, allocating only when the example is the new smallest.
    fn add_parts(&mut self, count: u64, edges: u32, graph6: &str) {
        self.count += count;
        let smaller = self
            .smallest
            .as_ref()
            .is_none_or(|s| (edges, graph6) < (s.edges, s.graph6.as_str()));
        if smaller {
            self.smallest = Some(Example {
                edges,
                graph6: graph6.to_string(),
            });
        }
    }
}

/// Distribution of nim-values over a set of graphs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Spectrum {
    graphs: u64,
    vertices: BTreeSet<usize>,
    ter: BTreeMap<u32, Tally>,
    dnt: BTreeMap<u32, Tally>,
    joint: BTreeMap<(u32, u32), u64>,
    /// The closure the values are under.
    closure: DenseClosure,
    /// Under the geodetic closure: the graphs whose value differs from the hull's, by the
    /// pair (value under the hull, value under I), for TER and for DNT.
    ter_vs_hull: BTreeMap<(u32, u32), Tally>,
    dnt_vs_hull: BTreeMap<(u32, u32), Tally>,
    /// The multiset digest of the per-graph values: the sum, mod 2^128, of the first 16 bytes
    /// of SHA-256 of `graph6 TER DNT` over the graphs, so it does not depend on the order the
    /// threads solve them in (issue 44 item 4).
    digest: u128,
}

/// What makes a shard's result checkable: the command that lists its graphs, how many there
/// were, and the digest of their values ([`Spectrum`]'s), which a recomputation must match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShardCheck {
    pub command: String,
    pub graphs: u64,
    pub digest: String,
}

/// The digest of one graph's values.
fn graph_digest(graph6: &str, ter: u32, dnt: u32) -> u128 {
    use sha2::{Digest, Sha256};
    let h = Sha256::digest(format!("{graph6} {ter} {dnt}").as_bytes());
    u128::from_be_bytes(h[..16].try_into().expect("16 bytes"))
}

/// Graphs whose value under the geodetic closure differs from the hull's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiffRow {
    pub hull: u32,
    pub geodetic: u32,
    pub count: u64,
    pub smallest: Example,
}

/// One row of a distribution.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ValueRow {
    pub value: u32,
    pub count: u64,
    pub smallest: Example,
}

/// Count of graphs with a given pair (nim TER, nim DNT).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JointRow {
    pub ter: u32,
    pub dnt: u32,
    pub count: u64,
}

/// The serialisable form of a spectrum: what `--json` prints and `merge` reads.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpectrumReport {
    /// Where the graphs came from, e.g. `nauty-geng -c 8` or `file:graphs.g6`.
    pub source: String,
    /// Shards included (`i/k`); an unsharded run is `0/1`.
    pub shards: Vec<String>,
    /// All shards `0..k` are included.
    pub complete: bool,
    pub vertices: Vec<usize>,
    pub graphs: u64,
    pub ter: Vec<ValueRow>,
    pub dnt: Vec<ValueRow>,
    pub joint: Vec<JointRow>,
    /// Wall-clock seconds, summed over shards.
    pub seconds: f64,
    /// The closure (absent: the hull, as every result before `--closure`).
    #[serde(default, skip_serializing_if = "is_hull")]
    pub closure: DenseClosure,
    /// Under the geodetic closure, the graphs whose TER / DNT value differs from the hull's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ter_vs_hull: Option<Vec<DiffRow>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dnt_vs_hull: Option<Vec<DiffRow>>,
    /// Per shard, what makes it checkable (absent in results written before them).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub checks: BTreeMap<String, ShardCheck>,
    /// The shards `spectrum merge` recomputed and found as recorded.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rechecked: Vec<String>,
    /// Shards merged without a check (`--unchecked`: recorded before checks existed).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unchecked: Vec<String>,
}

fn is_hull(c: &DenseClosure) -> bool {
    *c == DenseClosure::Hull
}

impl Spectrum {
    /// Records one graph with its values.
    pub fn add(&mut self, n: usize, graph6: &str, edges: u32, ter: u32, dnt: u32) {
        self.digest = self.digest.wrapping_add(graph_digest(graph6, ter, dnt));
        self.graphs += 1;
        self.vertices.insert(n);
        self.ter.entry(ter).or_default().add_parts(1, edges, graph6);
        self.dnt.entry(dnt).or_default().add_parts(1, edges, graph6);
        *self.joint.entry((ter, dnt)).or_default() += 1;
    }

    /// An empty spectrum of values under `closure`.
    pub fn under(closure: DenseClosure) -> Spectrum {
        Spectrum {
            closure,
            ..Spectrum::default()
        }
    }

    /// Records one graph with its values under the hull and under the geodetic closure (a
    /// spectrum [`Spectrum::under`] the geodetic closure).
    pub fn add_both(&mut self, n: usize, graph6: &str, edges: u32, both: [(u32, u32); 2]) {
        let [(ht, hd), (gt, gd)] = both;
        self.add(n, graph6, edges, gt, gd);
        if ht != gt {
            self.ter_vs_hull
                .entry((ht, gt))
                .or_default()
                .add_parts(1, edges, graph6);
        }
        if hd != gd {
            self.dnt_vs_hull
                .entry((hd, gd))
                .or_default()
                .add_parts(1, edges, graph6);
        }
    }

    pub fn closure(&self) -> DenseClosure {
        self.closure
    }

    /// Adds another spectrum (exact: counts add, the smaller example wins). Both must be
    /// under one closure (`merge_reports` refuses others).
    pub fn merge(&mut self, other: Spectrum) {
        for (mine, theirs) in [
            (&mut self.ter_vs_hull, other.ter_vs_hull),
            (&mut self.dnt_vs_hull, other.dnt_vs_hull),
        ] {
            for (k, t) in theirs {
                if let Some(ex) = &t.smallest {
                    mine.entry(k).or_default().add(t.count, ex);
                }
            }
        }
        self.graphs += other.graphs;
        self.digest = self.digest.wrapping_add(other.digest);
        self.vertices.extend(other.vertices);
        for (mine, theirs) in [(&mut self.ter, other.ter), (&mut self.dnt, other.dnt)] {
            for (v, t) in theirs {
                if let Some(ex) = &t.smallest {
                    mine.entry(v).or_default().add(t.count, ex);
                }
            }
        }
        for (k, c) in other.joint {
            *self.joint.entry(k).or_default() += c;
        }
    }

    pub fn graphs(&self) -> u64 {
        self.graphs
    }

    /// [`Spectrum`]'s digest of the per-graph values, as 32 hex digits.
    pub fn digest(&self) -> String {
        format!("{:032x}", self.digest)
    }

    /// Count of graphs with nim(TER) = v.
    pub fn ter_count(&self, v: u32) -> u64 {
        self.ter.get(&v).map_or(0, |t| t.count)
    }
    /// Count of graphs with nim(DNT) = v.
    pub fn dnt_count(&self, v: u32) -> u64 {
        self.dnt.get(&v).map_or(0, |t| t.count)
    }

    pub fn report(&self, source: &str, shards: &[Shard], seconds: f64) -> SpectrumReport {
        let rows = |m: &BTreeMap<u32, Tally>| {
            m.iter()
                .filter_map(|(&value, t)| {
                    Some(ValueRow {
                        value,
                        count: t.count,
                        smallest: t.smallest.clone()?,
                    })
                })
                .collect()
        };
        let mut sh: Vec<Shard> = shards.to_vec();
        sh.sort();
        let complete = sh
            .first()
            .is_some_and(|s| sh.len() as u64 == s.count && sh.iter().all(|t| t.count == s.count));
        SpectrumReport {
            source: source.to_string(),
            shards: sh.iter().map(|s| s.to_string()).collect(),
            complete,
            vertices: self.vertices.iter().copied().collect(),
            graphs: self.graphs,
            ter: rows(&self.ter),
            dnt: rows(&self.dnt),
            joint: self
                .joint
                .iter()
                .map(|(&(ter, dnt), &count)| JointRow { ter, dnt, count })
                .collect(),
            seconds,
            closure: self.closure,
            ter_vs_hull: (self.closure == DenseClosure::Geodetic).then(|| diffs(&self.ter_vs_hull)),
            dnt_vs_hull: (self.closure == DenseClosure::Geodetic).then(|| diffs(&self.dnt_vs_hull)),
            checks: BTreeMap::new(),
            rechecked: Vec::new(),
            unchecked: Vec::new(),
        }
    }

    /// Rebuilds a spectrum from its report (for merging shards).
    pub fn from_report(r: &SpectrumReport) -> Spectrum {
        let tallies = |rows: &[ValueRow]| {
            rows.iter()
                .map(|row| {
                    (
                        row.value,
                        Tally {
                            count: row.count,
                            smallest: Some(row.smallest.clone()),
                        },
                    )
                })
                .collect()
        };
        Spectrum {
            graphs: r.graphs,
            vertices: r.vertices.iter().copied().collect(),
            ter: tallies(&r.ter),
            dnt: tallies(&r.dnt),
            joint: r.joint.iter().map(|j| ((j.ter, j.dnt), j.count)).collect(),
            closure: r.closure,
            ter_vs_hull: undiff(r.ter_vs_hull.as_deref()),
            dnt_vs_hull: undiff(r.dnt_vs_hull.as_deref()),
            // A report's per-shard digests are kept in its `checks`, not summed here.
            digest: 0,
        }
    }
}

fn diffs(m: &BTreeMap<(u32, u32), Tally>) -> Vec<DiffRow> {
    m.iter()
        .filter_map(|(&(hull, geodetic), t)| {
            Some(DiffRow {
                hull,
                geodetic,
                count: t.count,
                smallest: t.smallest.clone()?,
            })
        })
        .collect()
}

fn undiff(rows: Option<&[DiffRow]>) -> BTreeMap<(u32, u32), Tally> {
    rows.unwrap_or_default()
        .iter()
        .map(|r| {
            (
                (r.hull, r.geodetic),
                Tally {
                    count: r.count,
                    smallest: Some(r.smallest.clone()),
                },
            )
        })
        .collect()
}

/// Merges shard reports exactly: the same source, one modulus, no shard twice, and (unless
/// `partial`) every shard present; a complete geng spectrum must count A001349(N) graphs.
///
/// Every shard must carry its [`ShardCheck`]; with `unchecked`, shards recorded before checks
/// existed are merged too and listed in the result's `unchecked`.
pub fn merge_reports(
    reports: &[SpectrumReport],
    partial: bool,
    unchecked: bool,
) -> Result<SpectrumReport, SpectrumError> {
    let mut without = Vec::new();
    let mut total = Spectrum::default();
    let mut checks = BTreeMap::new();
    let mut shards: Vec<Shard> = Vec::new();
    let mut seen = BTreeSet::new();
    let mut seconds = 0.0;
    let source = reports.first().map_or(String::new(), |r| r.source.clone());
    let closure = reports.first().map_or(DenseClosure::Hull, |r| r.closure);
    total.closure = closure;
    for r in reports {
        if r.closure != closure {
            return Err(SpectrumError::MixedSource {
                a: format!("{source} (closure {})", closure.name()),
                b: format!("{} (closure {})", r.source, r.closure.name()),
            });
        }
        if r.source != source {
            return Err(SpectrumError::MixedSource {
                a: source,
                b: r.source.clone(),
            });
        }
        for s in &r.shards {
            let sh = Shard::parse(s)?;
            if let Some(first) = shards.first() {
                if first.count != sh.count {
                    return Err(SpectrumError::MixedModulus {
                        a: first.count,
                        b: sh.count,
                    });
                }
            }
            if !seen.insert(sh) {
                return Err(SpectrumError::DuplicateShard(s.clone()));
            }
            shards.push(sh);
        }
        // Every shard must carry what makes it checkable, and the checks must add up.
        if r.checks.is_empty() && unchecked {
            without.extend(r.shards.iter().cloned());
        }
        for s in &r.shards {
            match r.checks.get(s) {
                Some(c) => {
                    checks.insert(s.clone(), c.clone());
                }
                None if r.checks.is_empty() && unchecked => {}
                None => return Err(SpectrumError::Unchecked(s.clone())),
            }
        }
        if !r.checks.is_empty()
            && (r.checks.len() != r.shards.len()
                || r.checks.values().map(|c| c.graphs).sum::<u64>() != r.graphs)
        {
            return Err(SpectrumError::ChecksDisagree {
                shards: r.shards.join(","),
                graphs: r.graphs,
            });
        }
        total.merge(Spectrum::from_report(r));
        seconds += r.seconds;
    }
    let mut report = total.report(&source, &shards, seconds);
    report.checks = checks;
    without.sort();
    report.unchecked = without;
    if let Some(first) = shards.first() {
        let missing: Vec<u64> = (0..first.count)
            .filter(|&i| {
                !seen.contains(&Shard {
                    index: i,
                    count: first.count,
                })
            })
            .collect();
        if !missing.is_empty() && !partial {
            return Err(SpectrumError::Missing {
                missing: missing.len() as u64,
                count: first.count,
                first: format!("{}/{}", missing[0], first.count),
                present: shards.len(),
                graphs: report.graphs,
            });
        }
    }
    if report.complete {
        check_total(&report)?;
    }
    Ok(report)
}

/// A complete spectrum of `nauty-geng -c N` must count A001349(N) graphs.
pub fn check_total(r: &SpectrumReport) -> Result<(), SpectrumError> {
    let n = r
        .source
        .strip_prefix("nauty-geng -c ")
        .and_then(|n| n.parse::<usize>().ok());
    if let Some(&expected) = n.and_then(|n| CONNECTED_GRAPHS.get(n)) {
        if r.graphs != expected {
            return Err(SpectrumError::WrongTotal {
                origin: r.source.clone(),
                n: n.unwrap_or_default(),
                graphs: r.graphs,
                expected,
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::families as fam;

    fn adj(g: &Graph) -> Vec<u64> {
        (0..g.n()).map(|v| g.adj(v)).collect()
    }

    #[test]
    fn dense_path_matches_paper_values() {
        // Examples 3.1 and 3.2: TER(P_3) = *2, DNT(P_3) = *1, TER(K_1) = *1, DNT(K_1) = 0.
        assert_eq!(dense_values(&adj(&fam::path(3).unwrap())), (2, 1));
        assert_eq!(dense_values(&adj(&fam::path(1).unwrap())), (1, 0));
        // Props 5.3, 5.4 and C_9 (Conjecture 5.5 as checked in the paper): all zero.
        for n in [5u64, 8, 9] {
            assert_eq!(dense_values(&adj(&fam::cycle(n).unwrap())), (0, 0), "C_{n}");
        }
    }

    /// Random graphs (connected or not, 1 to 13 vertices, every density) and every graph
    /// on up to 5 labelled vertices: the fast path equals the first version value for value.
    #[test]
    fn dense_path_equals_the_reference() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut graphs: Vec<Vec<u64>> = Vec::new();
        for n in 1..=5usize {
            let pairs: Vec<(usize, usize)> =
                (0..n).flat_map(|j| (0..j).map(move |i| (i, j))).collect();
            for m in 0..1u64 << pairs.len() {
                let mut a = vec![0u64; n];
                for (k, &(i, j)) in pairs.iter().enumerate() {
                    if m >> k & 1 == 1 {
                        a[i] |= 1 << j;
                        a[j] |= 1 << i;
                    }
                }
                graphs.push(a);
            }
        }
        for k in 0..3000 {
            let n = 6 + k % 8;
            let density = next() % 100;
            let mut a = vec![0u64; n];
            for j in 0..n {
                for i in 0..j {
                    if next() % 100 < density {
                        a[i] |= 1 << j;
                        a[j] |= 1 << i;
                    }
                }
            }
            graphs.push(a);
        }
        let mut scratch = DenseScratch::default();
        for a in &graphs {
            assert_eq!(
                scratch.values(a),
                dense_values_reference(a),
                "adjacency {a:?}"
            );
        }
    }

    /// §6 question 2: the dense path under I equals the general solver under
    /// `Closure::GEODETIC` (interval closures by the closure registry, no shared table) on
    /// every connected graph with at most 6 vertices, and its hull half equals `values`.
    #[test]
    fn dense_geodetic_path_equals_the_general_solver() {
        for n in 1..=6 {
            for g6 in crate::graph::enumerate::connected_graphs(n).unwrap() {
                let g = crate::graph::enumerate::graph(&g6);
                let solve = |rule| {
                    let game = RemovingGame::new(rule, g.clone(), Closure::GEODETIC, 0).unwrap();
                    Solver::new(&game).nim_of_start()
                };
                let [hull, geodetic] = dense_values_both(&adj(&g));
                assert_eq!(geodetic, (solve(Rule::Ter), solve(Rule::Dnt)), "{g6}");
                assert_eq!(hull, dense_values(&adj(&g)), "{g6}");
            }
        }
    }

    /// Values of docs/results/geodetic_closure.md (specs/paper000/geodetic): K_{2,3} is
    /// TER 0 under I (2 under the hull, Prop 5.10's table) and DNT 2 (hull pty(5) = 1); Q_3
    /// is 0 for both games under either closure (Props 5.6, 5.7) though 𝒢 differs. A path
    /// that played the hull under the geodetic name fails at K_{2,3}.
    #[test]
    fn dense_geodetic_values_of_the_notes() {
        let k23 = adj(&fam::multipartite(&[2, 3]).unwrap());
        assert_eq!(dense_values_both(&k23), [(2, 1), (0, 2)]);
        let q3 = adj(&fam::hypercube(3).unwrap());
        assert_eq!(dense_values_both(&q3), [(0, 0), (0, 0)]);
        // Paths and cycles: the closures give the same game (Example 4.11, Props 5.3, 5.4).
        for n in 2..=9u64 {
            let [h, g] = dense_values_both(&adj(&fam::path(n).unwrap()));
            assert_eq!(h, g, "P_{n}");
        }
    }

    /// Shards under different closures are not one spectrum; the value changes merge exactly.
    #[test]
    fn merge_keeps_closures_apart() {
        let shard = |i, closure| {
            let mut s = Spectrum::under(closure);
            s.add_both(5, "DFw", 6, [(2, 1), (0, 2)]);
            s.report("file:k23.g6", &[Shard { index: i, count: 2 }], 0.0)
        };
        let both = [
            shard(0, DenseClosure::Geodetic),
            shard(1, DenseClosure::Geodetic),
        ];
        let merged = merge_reports(&both, true, true).unwrap();
        assert_eq!(merged.closure, DenseClosure::Geodetic);
        let ter = merged.ter_vs_hull.unwrap();
        assert_eq!((ter[0].hull, ter[0].geodetic, ter[0].count), (2, 0, 2));
        let mixed = [
            shard(0, DenseClosure::Geodetic),
            shard(1, DenseClosure::Hull),
        ];
        assert!(matches!(
            merge_reports(&mixed, true, true),
            Err(SpectrumError::MixedSource { .. })
        ));
    }

    #[test]
    fn merge_is_exact_and_rejects_double_counting() {
        let mut a = Spectrum::default();
        a.add(3, "Bw", 2, 2, 1);
        let mut b = Spectrum::default();
        b.add(3, "Bw", 3, 0, 0);
        b.add(3, "B?", 1, 2, 1);
        let ra = a.report("x", &[Shard::parse("0/2").unwrap()], 1.0);
        let rb = b.report("x", &[Shard::parse("1/2").unwrap()], 2.0);
        let m = merge_reports(&[ra.clone(), rb], false, true).unwrap();
        assert!(m.complete);
        assert_eq!(m.graphs, 3);
        assert_eq!(m.ter[1].count, 2);
        assert_eq!(m.ter[1].smallest.graph6, "B?");
        assert!(merge_reports(&[ra.clone(), ra.clone()], true, true).is_err());
        // One of two shards: refused unless partial.
        assert!(matches!(
            merge_reports(std::slice::from_ref(&ra), false, true),
            Err(SpectrumError::Missing { missing: 1, .. })
        ));
        assert!(
            !merge_reports(std::slice::from_ref(&ra), true, true)
                .unwrap()
                .complete
        );
        assert!(Shard::parse("3/3").is_err());
        assert!(Shard::parse("a/3").is_err());
    }

    /// The digest is a multiset digest: independent of the order graphs are added in and of
    /// how they are split into parts, and changed by any one value; a shard without a check is
    /// refused unless merged `unchecked` (then listed), and checks that do not add up to the
    /// report's graphs are refused.
    #[test]
    fn shard_checks_are_order_free_digests_and_required() {
        let graphs = [("Bw", 3, 0, 0), ("B?", 1, 2, 1), ("BW", 2, 2, 1)];
        let mut fwd = Spectrum::default();
        for &(g, e, t, d) in &graphs {
            fwd.add(3, g, e, t, d);
        }
        let (mut a, mut b) = (Spectrum::default(), Spectrum::default());
        for (i, &(g, e, t, d)) in graphs.iter().rev().enumerate() {
            if i % 2 == 0 { &mut a } else { &mut b }.add(3, g, e, t, d);
        }
        a.merge(b);
        assert_eq!(fwd.digest(), a.digest());
        let mut wrong = Spectrum::default();
        wrong.add(3, "Bw", 3, 0, 0);
        wrong.add(3, "B?", 1, 2, 1);
        wrong.add(3, "BW", 2, 1, 1);
        assert_ne!(fwd.digest(), wrong.digest());
        let sh = Shard::parse("0/1").unwrap();
        let mut r = fwd.report("x", &[sh], 0.0);
        assert!(matches!(
            merge_reports(std::slice::from_ref(&r), false, false),
            Err(SpectrumError::Unchecked(_))
        ));
        assert_eq!(
            merge_reports(std::slice::from_ref(&r), false, true)
                .unwrap()
                .unchecked,
            ["0/1"]
        );
        let check = ShardCheck {
            command: "x".into(),
            graphs: 3,
            digest: fwd.digest(),
        };
        r.checks.insert("0/1".into(), check.clone());
        let m = merge_reports(std::slice::from_ref(&r), false, false).unwrap();
        assert_eq!(m.checks["0/1"], check);
        r.checks.get_mut("0/1").unwrap().graphs = 2;
        assert!(matches!(
            merge_reports(&[r], false, false),
            Err(SpectrumError::ChecksDisagree { .. })
        ));
    }
}
