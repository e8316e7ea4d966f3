//! Graphs of any practical size (up to [`MAX_VERTICES`] vertices) with the vertex names the
//! paper uses, stored as sorted adjacency lists, plus `u64` adjacency bitmasks when they fit
//! (at most [`MASK_VERTICES`] vertices). The mask API (`adj`, `full`, `component`,
//! `parse_set`) serves the games whose positions are vertex sets (TER, DNT) and the set
//! families; it is only available on graphs that fit in a mask, which [`parse_graph`] ensures.
//! Edge geography, even-kernel certificates, GF(2) and drawings read graphs of any size with
//! [`parse_large_graph`] and use [`Graph::neighbours`]. Families and user formats are in
//! [`families`] (the named graphs and GP_{n,k} in [`named`]) and [`io`] (a spec's relative
//! `file:` path read from its folder); geodetic convexity in [`convex`]; automorphisms (for
//! symmetry reduction) in [`symmetry`].

pub mod closures;
mod connected7;
pub mod convex;
pub mod drawing;
pub mod enumerate;
pub mod families;
pub mod io;
pub mod monophonic;
pub mod named;
pub mod spider;
pub mod symmetry;

pub use convex::{Closure, Convexity};
pub use families::{parse_graph, parse_large_graph};

use thiserror::Error;

/// The most vertices any graph may have (reading, drawing, edge geography, certificates).
pub const MAX_VERTICES: usize = 1 << 16;
/// The most edges any graph may have: bounds the memory of reading a graph (dense families
/// and graph6 strings are refused before their edges are built).
pub const MAX_EDGES: usize = 1 << 21;
/// The most vertices a graph whose vertex sets are `u64` bitmasks may have (TER, DNT, the set
/// families 𝒢, 𝒩, 𝒢*, 𝒩*).
pub const MASK_VERTICES: usize = 64;

#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum GraphError {
    #[error("unknown graph family `{0}` (expected one of {known})", known = families::known())]
    UnknownFamily(String),
    #[error("bad parameter for {family}: {why}")]
    BadParameter { family: String, why: String },
    #[error("graph {name} has {n} vertices; at most {MAX_VERTICES} are supported")]
    TooLarge { name: String, n: usize },
    #[error("graph {name} has {edges} edges; at most {MAX_EDGES} are supported")]
    TooManyEdges { name: String, edges: u128 },
    #[error("graph {name} has {n} vertices; at most {MASK_VERTICES} are supported for games on vertex sets (TER, DNT) and the set families (edge geography UEG and even-kernel certificates take graphs of any size)")]
    TooLargeForSets { name: String, n: usize },
    #[error("graph {0} has no vertices")]
    Empty(String),
    #[error("graph {0} is disconnected; geodetic convexity needs a connected graph")]
    Disconnected(String),
    #[error("graph {name}: loop at vertex {vertex} is not allowed")]
    Loop { name: String, vertex: String },
    #[error("malformed graph6 string `{text}`: {why}")]
    Graph6 { text: String, why: String },
    #[error("graph file {path}: {why}")]
    File { path: String, why: String },
    #[error("unknown vertex `{vertex}` in graph {graph}")]
    UnknownVertex { graph: String, vertex: String },
}

/// A finite simple connected graph.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Graph {
    name: String,
    names: Vec<String>,
    /// Sorted neighbour lists.
    nbrs: Vec<Vec<usize>>,
    /// Neighbour bitmasks when the graph has at most [`MASK_VERTICES`] vertices, else empty.
    adj: Vec<u64>,
}

impl Graph {
    /// Builds a graph from vertex names and edges given as index pairs (duplicates merged);
    /// rejects loops, more than [`MAX_VERTICES`] vertices or [`MAX_EDGES`] edges, empty and
    /// disconnected graphs.
    pub fn new(
        name: impl Into<String>,
        names: Vec<String>,
        edges: &[(usize, usize)],
    ) -> Result<Graph, GraphError> {
        let name = name.into();
        let n = names.len();
        if n == 0 {
            return Err(GraphError::Empty(name));
        }
        if n > MAX_VERTICES {
            return Err(GraphError::TooLarge { name, n });
        }
        if edges.len() > MAX_EDGES {
            return Err(GraphError::TooManyEdges {
                name,
                edges: edges.len() as u128,
            });
        }
        let mut nbrs = vec![Vec::new(); n];
        for &(a, b) in edges {
            if a == b {
                return Err(GraphError::Loop {
                    name,
                    vertex: names[a].clone(),
                });
            }
            nbrs[a].push(b);
            nbrs[b].push(a);
        }
        for l in &mut nbrs {
            l.sort_unstable();
            l.dedup();
        }
        let adj = if n <= MASK_VERTICES {
            nbrs.iter()
                .map(|l| l.iter().fold(0u64, |m, &b| m | 1 << b))
                .collect()
        } else {
            Vec::new()
        };
        let g = Graph {
            name,
            names,
            nbrs,
            adj,
        };
        if g.distances_from(0).contains(&u32::MAX) {
            return Err(GraphError::Disconnected(g.name));
        }
        Ok(g)
    }

    pub fn name(&self) -> &str {
        &self.name
    }
    pub fn n(&self) -> usize {
        self.names.len()
    }
    /// Whether vertex sets of this graph fit in a `u64` mask (the mask API below).
    pub fn fits_mask(&self) -> bool {
        self.n() <= MASK_VERTICES
    }
    /// `Ok` if the graph fits in a `u64` mask, else the error to report.
    pub fn require_mask(&self) -> Result<(), GraphError> {
        if self.fits_mask() {
            Ok(())
        } else {
            Err(GraphError::TooLargeForSets {
                name: self.name.clone(),
                n: self.n(),
            })
        }
    }
    fn mask_only(&self) {
        assert!(
            self.fits_mask(),
            "graph {} has {} vertices: its vertex sets are not u64 masks (callers check fits_mask)",
            self.name,
            self.n()
        );
    }
    /// All vertices as a mask (graphs that [fit a mask](Graph::fits_mask) only).
    pub fn full(&self) -> u64 {
        self.mask_only();
        if self.n() == 64 {
            u64::MAX
        } else {
            (1u64 << self.n()) - 1
        }
    }
    /// Neighbours of `v` as a mask (graphs that [fit a mask](Graph::fits_mask) only).
    pub fn adj(&self, v: usize) -> u64 {
        self.mask_only();
        self.adj[v]
    }
    /// Neighbours of `v` in increasing order (any size).
    pub fn neighbours(&self, v: usize) -> &[usize] {
        &self.nbrs[v]
    }
    pub fn names(&self) -> &[String] {
        &self.names
    }
    pub fn vertex_name(&self, v: usize) -> &str {
        &self.names[v]
    }
    pub fn vertex_index(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|x| x == name)
    }
    pub fn degree(&self, v: usize) -> u32 {
        self.nbrs[v].len() as u32
    }
    /// Number of edges.
    pub fn edge_count(&self) -> usize {
        self.nbrs.iter().map(Vec::len).sum::<usize>() / 2
    }
    pub fn edges(&self) -> Vec<(usize, usize)> {
        let mut e = Vec::new();
        for a in 0..self.n() {
            for &b in &self.nbrs[a] {
                if a < b {
                    e.push((a, b));
                }
            }
        }
        e
    }

    /// Vertices reachable from `v` (graphs that [fit a mask](Graph::fits_mask) only).
    pub fn component(&self, v: usize) -> u64 {
        self.mask_only();
        let mut seen = 1u64 << v;
        let mut frontier = seen;
        while frontier != 0 {
            let mut next = 0;
            for u in bits(frontier) {
                next |= self.adj[u];
            }
            frontier = next & !seen;
            seen |= next;
        }
        seen
    }

    /// Distances from `v` by breadth-first search (`u32::MAX`: unreachable).
    pub fn distances_from(&self, v: usize) -> Vec<u32> {
        let mut d = vec![u32::MAX; self.n()];
        d[v] = 0;
        let mut queue = std::collections::VecDeque::from([v]);
        while let Some(x) = queue.pop_front() {
            for &y in &self.nbrs[x] {
                if d[y] == u32::MAX {
                    d[y] = d[x] + 1;
                    queue.push_back(y);
                }
            }
        }
        d
    }

    /// Set of vertices as the paper writes it: `{v1, v3}` (in vertex order).
    pub fn format_set(&self, mask: u64) -> String {
        let parts: Vec<&str> = bits(mask).map(|v| self.names[v].as_str()).collect();
        format!("{{{}}}", parts.join(", "))
    }

    /// Names of the vertices in a set, in vertex order.
    pub fn set_names(&self, mask: u64) -> Vec<String> {
        bits(mask).map(|v| self.names[v].clone()).collect()
    }

    /// Parses `{v1, c}` / `v1,c` into a bitmask (graphs that [fit a mask](Graph::fits_mask)).
    pub fn parse_set(&self, text: &str) -> Result<u64, GraphError> {
        self.require_mask()?;
        let t = text.trim().trim_start_matches('{').trim_end_matches('}');
        let mut m = 0u64;
        for part in split_top_level(t, ',')
            .into_iter()
            .map(str::trim)
            .filter(|s| !s.is_empty())
        {
            let v = self
                .vertex_index(part)
                .ok_or_else(|| GraphError::UnknownVertex {
                    graph: self.name.clone(),
                    vertex: part.to_string(),
                })?;
            m |= 1 << v;
        }
        Ok(m)
    }

    /// The graph as a petgraph graph (vertex weights are the names).
    pub fn to_petgraph(&self) -> petgraph::graph::UnGraph<String, ()> {
        let mut g = petgraph::graph::UnGraph::new_undirected();
        let idx: Vec<_> = self.names.iter().map(|n| g.add_node(n.clone())).collect();
        for (a, b) in self.edges() {
            g.add_edge(idx[a], idx[b], ());
        }
        g
    }

    /// Renames the graph (used for `Corona(...)` and user graphs).
    pub fn with_name(mut self, name: impl Into<String>) -> Graph {
        self.name = name.into();
        self
    }
}

/// Iterator over the set bits of a mask, lowest first.
/// The classes of `p` under the relation "touches" (`touch(b)`: the bits bit b touches),
/// closed transitively within `p`: vertex sets of the components of an induced subgraph, or
/// edge sets joined by shared ends; least bit first.
pub fn mask_components(p: u64, touch: impl Fn(usize) -> u64) -> Vec<u64> {
    let mut left = p;
    let mut parts = Vec::new();
    while left != 0 {
        let mut part = left & left.wrapping_neg();
        loop {
            let grown = bits(part).fold(part, |acc, b| acc | (touch(b) & p));
            if grown == part {
                break;
            }
            part = grown;
        }
        parts.push(part);
        left &= !part;
    }
    parts
}

pub fn bits(mut m: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let b = m.trailing_zeros() as usize;
            m &= m - 1;
            Some(b)
        }
    })
}

/// Splits on `sep` outside parentheses, braces and brackets (vertex names such as `(1,2)`
/// contain commas).
pub fn split_top_level(t: &str, sep: char) -> Vec<&str> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    for (i, ch) in t.char_indices() {
        match ch {
            '(' | '{' | '[' => depth += 1,
            ')' | '}' | ']' => depth -= 1,
            c if c == sep && depth == 0 => {
                out.push(&t[start..i]);
                start = i + c.len_utf8();
            }
            _ => {}
        }
    }
    out.push(&t[start..]);
    out
}
