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
/// convex hull closure. Needs `adj.len() <= DENSE_MAX`.
pub fn dense_values(adj: &[u64]) -> (u32, u32) {
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

/// nim(TER(G)) and nim(DNT(G)): the dense path when small enough, else the general solver.
pub fn values(g: &Graph) -> (u32, u32) {
    if g.n() <= DENSE_MAX {
        let adj: Vec<u64> = (0..g.n()).map(|v| g.adj(v)).collect();
        return dense_values(&adj);
    }
    let solve = |rule| {
        let game = RemovingGame::new(rule, g.clone(), Closure::Hull, 0)
            .expect("the empty start is nonterminating in every connected graph");
        Solver::new(&game).nim_of_start()
    };
    (solve(Rule::Ter), solve(Rule::Dnt))
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
        self.count += count;
        if self.smallest.as_ref().is_none_or(|s| ex < s) {
            self.smallest = Some(ex.clone());
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
}

impl Spectrum {
    /// Records one graph with its values.
    pub fn add(&mut self, n: usize, graph6: &str, edges: u32, ter: u32, dnt: u32) {
        let ex = Example {
            edges,
            graph6: graph6.to_string(),
        };
        self.graphs += 1;
        self.vertices.insert(n);
        self.ter.entry(ter).or_default().add(1, &ex);
        self.dnt.entry(dnt).or_default().add(1, &ex);
        *self.joint.entry((ter, dnt)).or_default() += 1;
    }

    /// Adds another spectrum (exact: counts add, the smaller example wins).
    pub fn merge(&mut self, other: Spectrum) {
        self.graphs += other.graphs;
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
        }
    }
}

/// Merges shard reports exactly: the same source, one modulus, no shard twice.
pub fn merge_reports(reports: &[SpectrumReport]) -> Result<SpectrumReport, SpectrumError> {
    let mut total = Spectrum::default();
    let mut shards: Vec<Shard> = Vec::new();
    let mut seen = BTreeSet::new();
    let mut seconds = 0.0;
    let source = reports.first().map_or(String::new(), |r| r.source.clone());
    for r in reports {
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
        total.merge(Spectrum::from_report(r));
        seconds += r.seconds;
    }
    Ok(total.report(&source, &shards, seconds))
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

    #[test]
    fn merge_is_exact_and_rejects_double_counting() {
        let mut a = Spectrum::default();
        a.add(3, "Bw", 2, 2, 1);
        let mut b = Spectrum::default();
        b.add(3, "Bw", 3, 0, 0);
        b.add(3, "B?", 1, 2, 1);
        let ra = a.report("x", &[Shard::parse("0/2").unwrap()], 1.0);
        let rb = b.report("x", &[Shard::parse("1/2").unwrap()], 2.0);
        let m = merge_reports(&[ra.clone(), rb]).unwrap();
        assert!(m.complete);
        assert_eq!(m.graphs, 3);
        assert_eq!(m.ter[1].count, 2);
        assert_eq!(m.ter[1].smallest.graph6, "B?");
        assert!(merge_reports(&[ra.clone(), ra]).is_err());
        assert!(Shard::parse("3/3").is_err());
        assert!(Shard::parse("a/3").is_err());
    }
}
