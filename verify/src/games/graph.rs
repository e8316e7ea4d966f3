//! A simple undirected graph as certificates write it (`{"n": 4, "edges": [[0, 1], …]}`),
//! checked before any game is built on it, and its breadth-first distances. Shared by the
//! games on graphs and by the closures ([`crate::closures`]); it names no game.

use serde::Deserialize;
use std::collections::{HashSet, VecDeque};

/// Most vertices and edges of a certificate's graph.
pub const MAX_GRAPH_VERTICES: usize = 100_000;
pub const MAX_GRAPH_EDGES: usize = 1_000_000;

/// A simple undirected graph on vertices `0..n`.
#[derive(Clone, Debug, Deserialize)]
pub struct Graph {
    pub n: usize,
    pub edges: Vec<(usize, usize)>,
}

/// The least image of the vertex set `s` under the permutations `perms` (`s` itself when there
/// are none): the one name of its class under a group of automorphisms.
pub fn least_image(perms: &[Vec<usize>], s: u64) -> u64 {
    perms
        .iter()
        .map(|perm| {
            (0..perm.len())
                .filter(|&v| s >> v & 1 == 1)
                .fold(0u64, |acc, v| acc | 1 << perm[v])
        })
        .min()
        .unwrap_or(s)
}

impl Graph {
    pub fn validate(&self) -> Result<(), String> {
        // Bounds first: every check below is linear or better in n and the edges.
        if self.n > MAX_GRAPH_VERTICES || self.edges.len() > MAX_GRAPH_EDGES {
            return Err(format!(
                "a graph of {} vertices and {} edges: the verifier reads at most {MAX_GRAPH_VERTICES} and {MAX_GRAPH_EDGES}",
                self.n,
                self.edges.len()
            ));
        }
        let mut seen = HashSet::new();
        for &(a, b) in &self.edges {
            if !seen.insert((a.min(b), a.max(b))) {
                return Err(format!("edge ({a},{b}) is listed twice"));
            }
        }
        for &(a, b) in &self.edges {
            if a >= self.n || b >= self.n || a == b {
                return Err(format!(
                    "edge ({a},{b}) is not an edge of a simple graph on {} vertices",
                    self.n
                ));
            }
        }
        Ok(())
    }

    pub fn neighbours(&self, v: usize) -> Vec<usize> {
        let mut out = Vec::new();
        for &(a, b) in &self.edges {
            if a == v {
                out.push(b);
            } else if b == v {
                out.push(a);
            }
        }
        out
    }

    /// Every automorphism (a vertex permutation mapping edges onto edges), by backtracking
    /// vertex by vertex; `None` past 24 vertices or `cap` automorphisms.
    pub fn automorphisms(&self, cap: usize) -> Option<Vec<Vec<usize>>> {
        if self.n > 24 {
            return None;
        }
        let mut adj = vec![vec![false; self.n]; self.n];
        for &(a, b) in &self.edges {
            adj[a][b] = true;
            adj[b][a] = true;
        }
        let mut out = Vec::new();
        let mut perm: Vec<usize> = Vec::new();
        let mut used = vec![false; self.n];
        // Depth-first over partial maps 0..k ↦ perm, each consistent with adjacency so far.
        fn extend(
            adj: &[Vec<bool>],
            perm: &mut Vec<usize>,
            used: &mut [bool],
            out: &mut Vec<Vec<usize>>,
            cap: usize,
        ) -> bool {
            let k = perm.len();
            if k == adj.len() {
                out.push(perm.clone());
                return out.len() <= cap;
            }
            for t in 0..adj.len() {
                if used[t] || (0..k).any(|j| adj[k][j] != adj[t][perm[j]]) {
                    continue;
                }
                used[t] = true;
                perm.push(t);
                let go_on = extend(adj, perm, used, out, cap);
                perm.pop();
                used[t] = false;
                if !go_on {
                    return false;
                }
            }
            true
        }
        extend(&adj, &mut perm, &mut used, &mut out, cap).then_some(out)
    }

    /// Distances from `s` by breadth-first search (`None`: unreachable).
    pub fn distances(&self, s: usize) -> Vec<Option<usize>> {
        let mut d = vec![None; self.n];
        d[s] = Some(0);
        let mut queue = VecDeque::from([s]);
        while let Some(x) = queue.pop_front() {
            for y in self.neighbours(x) {
                if d[y].is_none() {
                    d[y] = Some(d[x].unwrap() + 1);
                    queue.push_back(y);
                }
            }
        }
        d
    }
}
