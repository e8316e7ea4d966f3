//! Complete multipartite graphs K_{n1,…,nk} past the 64 vertices of the graph games (issue 31,
//! performance): the geodesic closures computed from how many vertices a set has in each
//! part, so that the games are solved over count vectors, the positions up to the graph's
//! automorphisms ([`super::Counted`], src/solve/structure_symmetric.rs).
//!
//! With k ≥ 2 parts, two vertices of different parts are adjacent, and two vertices x ≠ y of
//! one part are at distance 2 with every vertex of every other part a common neighbour (and
//! no other vertex of their own part on a shortest path). So I[x, y] = {x, y} across parts and
//! I[x, y] = {x, y} ∪ (X ∖ part(x)) within a part. A set with counts c_i per part therefore has
//! the one-step geodetic closure: every part j ≠ i filled whenever some c_i ≥ 2; the convex
//! hull repeats that step (a part filled to n_j ≥ 2 fills all the others). Induced paths add
//! nothing: an induced path between two vertices of one part has length 2 (a longer one would
//! have a chord from an end to a vertex of another part), so the monophonic hull is the convex
//! hull. tests/closure_multipartite.rs compares this with the graph's own intervals
//! ([`crate::graph::Convexity`]) on every subset of small K_{n1,…,nk}.
//!
//! Read only past [`crate::graph::MASK_VERTICES`] vertices: smaller ones stay graphs, solved
//! by seed 000's level solver as before.

use super::{ClosureOperator, Counted, Operator, Set};
use crate::game::family::FormDoc;
use crate::game::features::FeatureDoc;
use crate::game::Value;
use crate::graph::{Closure, MASK_VERTICES, MAX_VERTICES};
use std::sync::Arc;

pub const OPERATOR: Operator = Operator {
    kind: "multipartite",
    about: "complete multipartite graphs K_{n1,...,nk} past 64 vertices: geodesic closures by part counts",
    forms: &[
        FormDoc { syntax: "K_{n1,...,nk}", example: "GEN(K_{40,40})", meaning: "a complete multipartite graph, past 64 vertices too (solved by part counts)" },
    ],
    read,
};

fn read(text: &str, closure: Closure) -> super::Reading {
    let inner = text
        .trim()
        .strip_prefix("K_{")
        .and_then(|r| r.strip_suffix('}'))?;
    if !inner.contains(',') {
        return None;
    }
    let parts: Vec<u64> = inner
        .split(',')
        .map(|p| p.trim().parse::<u64>())
        .collect::<Result<_, _>>()
        .ok()?;
    let total = parts.iter().fold(0u64, |a, &b| a.saturating_add(b));
    if total <= MASK_VERTICES as u64 {
        return None;
    }
    Some(Multipartite::new(&parts, closure).map(|m| Arc::new(m) as Arc<dyn ClosureOperator>))
}

/// The features of a complete multipartite graph read by part counts.
pub const FEATURES: &[FeatureDoc] = &[
    FeatureDoc {
        name: "vertices",
        meaning: "|V| of the graph",
    },
    FeatureDoc {
        name: "parts",
        meaning: "k, the number of parts of K_{n1,...,nk}",
    },
    FeatureDoc {
        name: "large_parts",
        meaning: "λ, parts of at least two vertices (seed 000 §5.3)",
    },
    FeatureDoc {
        name: "small_parts",
        meaning: "σ, parts of one vertex (seed 000 §5.3)",
    },
];

/// K_{n1,…,nk} with a geodesic closure.
#[derive(Debug)]
pub struct Multipartite {
    parts: Vec<u32>,
    /// First vertex of each part (vertices are numbered part by part).
    offset: Vec<usize>,
    /// Iterate the interval step (hull, monophonic hull) or take it once (geodetic closure).
    iterate: bool,
    /// The closure's mark in game names ([`crate::graph::Closure::game_suffix`]).
    suffix: String,
}

impl Multipartite {
    /// `parts` in the order written; at least two, none empty, at most
    /// [`crate::graph::MAX_VERTICES`] vertices in all, under a closure that declares its
    /// intervals on complete multipartite graphs geodesic
    /// ([`crate::graph::closures::GraphClosure::geodesic_on_complete_multipartite`]).
    pub fn new(parts: &[u64], closure: Closure) -> Result<Multipartite, String> {
        let name = || {
            let p: Vec<String> = parts.iter().map(u64::to_string).collect();
            format!("K_{{{}}}", p.join(","))
        };
        if !closure.geodesic_on_complete_multipartite() {
            return Err(format!(
                "{}: the {closure} closure is not decided by part counts (its intervals on complete multipartite graphs are not the geodesic ones)",
                name()
            ));
        }
        if parts.len() < 2 {
            return Err(format!(
                "{}: a complete multipartite graph needs at least two parts",
                name()
            ));
        }
        if parts.contains(&0) {
            return Err(format!("{}: every part needs at least one vertex", name()));
        }
        let total = parts.iter().fold(0u64, |a, &b| a.saturating_add(b));
        if total > MAX_VERTICES as u64 {
            return Err(format!(
                "{}: {total} vertices, more than the {MAX_VERTICES} a graph may have",
                name()
            ));
        }
        let mut offset = Vec::with_capacity(parts.len());
        let mut at = 0usize;
        for &p in parts {
            offset.push(at);
            at += p as usize;
        }
        Ok(Multipartite {
            parts: parts.iter().map(|&p| p as u32).collect(),
            offset,
            iterate: closure.iterated(),
            suffix: closure.game_suffix(),
        })
    }

    fn part_of(&self, v: usize) -> usize {
        self.offset.partition_point(|&o| o <= v) - 1
    }

    /// The closure of a set with `c[i]` vertices in part i, as counts (the module header).
    pub fn close_counts(&self, c: &[u32]) -> Vec<u32> {
        let mut c = c.to_vec();
        loop {
            let pairs: Vec<usize> = (0..c.len()).filter(|&i| c[i] >= 2).collect();
            let mut changed = false;
            for (j, (x, &n)) in c.iter_mut().zip(&self.parts).enumerate() {
                if *x < n && pairs.iter().any(|&i| i != j) {
                    *x = n;
                    changed = true;
                }
            }
            if !changed || !self.iterate {
                return c;
            }
        }
    }

    /// Part letters as [`crate::graph::families::multipartite`] names its vertices.
    fn letter(&self, i: usize) -> String {
        if self.parts.len() <= 26 {
            ((b'a' + i as u8) as char).to_string()
        } else {
            format!("p{}_", i + 1)
        }
    }
}

impl ClosureOperator for Multipartite {
    fn feature_docs(&self) -> &'static [FeatureDoc] {
        FEATURES
    }
    fn name_suffix(&self) -> String {
        self.suffix.clone()
    }
    fn kind(&self) -> &'static str {
        if self.iterate {
            "multipartite"
        } else {
            "multipartite-geodetic"
        }
    }
    fn structure(&self) -> String {
        let p: Vec<String> = self.parts.iter().map(u32::to_string).collect();
        format!("K_{{{}}}", p.join(","))
    }
    fn size(&self) -> usize {
        self.parts.iter().map(|&p| p as usize).sum()
    }
    fn element_name(&self, v: usize) -> String {
        let i = self.part_of(v);
        format!("{}{}", self.letter(i), v - self.offset[i] + 1)
    }
    fn parse_element(&self, text: &str) -> Option<usize> {
        let t = text.trim();
        (0..self.parts.len()).find_map(|i| {
            let j: usize = t.strip_prefix(&self.letter(i))?.parse().ok()?;
            (1..=self.parts[i] as usize)
                .contains(&j)
                .then(|| self.offset[i] + j - 1)
        })
    }
    fn close(&self, s: &Set) -> Set {
        let mut c = vec![0u32; self.parts.len()];
        for v in s.ones() {
            c[self.part_of(v)] += 1;
        }
        let closed = self.close_counts(&c);
        let mut out = s.clone();
        out.grow(self.size());
        for (i, (&a, &b)) in c.iter().zip(&closed).enumerate() {
            if b > a {
                out.insert_range(self.offset[i]..self.offset[i] + self.parts[i] as usize);
            }
        }
        out
    }
    fn counted(&self) -> Option<&dyn Counted> {
        Some(self)
    }
    /// `vertices`, `parts`, `large_parts` (λ, parts of two or more vertices), `small_parts` (σ).
    fn features(&self) -> Vec<(String, Value)> {
        let large = self.parts.iter().filter(|&&p| p >= 2).count();
        vec![
            ("vertices".into(), Value::Int(self.size() as i64)),
            ("parts".into(), Value::Int(self.parts.len() as i64)),
            ("large_parts".into(), Value::Int(large as i64)),
            (
                "small_parts".into(),
                Value::Int((self.parts.len() - large) as i64),
            ),
        ]
    }
}

impl Counted for Multipartite {
    fn parts(&self) -> &[u32] {
        &self.parts
    }
    /// [`Multipartite::close_counts`] reaching every part, without building it (the solver
    /// asks this at every count vector): parts not yet full need a part other than themselves
    /// with two or more selected vertices, and under the hull a part filled that way with
    /// n_j ≥ 2 vertices in turn fills the part that filled it. Tested equal to the closure on
    /// every count vector of small graphs.
    fn generates_counts(&self, c: &[u32]) -> bool {
        let mut pairs = 0usize;
        let mut pair_part = usize::MAX;
        for (i, &x) in c.iter().enumerate() {
            if x >= 2 {
                pairs += 1;
                pair_part = i;
            }
        }
        let filled_by_others = |j: usize| pairs >= 2 || (pairs == 1 && pair_part != j);
        let step = |j: usize| c[j] == self.parts[j] || filled_by_others(j);
        if (0..c.len()).all(step) {
            return true;
        }
        // Not all after one step: only one part i holds a pair (two would fill everything),
        // so every other part is full after the step and part i is the one left; the hull
        // fills it too when another part has at least two vertices.
        self.iterate && pairs == 1 && (0..c.len()).any(|j| j != pair_part && self.parts[j] >= 2)
    }
    /// The automorphisms of K_{n1,…,nk} permute each part and the parts of equal size.
    fn part_class(&self, i: usize) -> u64 {
        self.parts[i] as u64
    }
}
