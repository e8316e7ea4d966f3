//! Graphs with at most 64 vertices, stored as adjacency bitmasks, with the vertex names the
//! paper uses. Families and user formats are in [`families`] and [`io`]; geodetic convexity
//! in [`convex`]; automorphisms (for symmetry reduction) in [`symmetry`].

pub mod convex;
pub mod enumerate;
pub mod families;
pub mod io;
pub mod symmetry;

pub use convex::{Closure, Convexity};
pub use families::parse_graph;

use thiserror::Error;

/// The most vertices a graph may have: vertex sets are `u64` bitmasks.
pub const MAX_VERTICES: usize = 64;

#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum GraphError {
    #[error("unknown graph family `{0}` (expected one of P_n, C_n, K_n, K_{{a,b,...}}, Split_{{m,n}}, Corona(G), Wd_{{n1,...}}, W_n, W_{{m,n}}, Q_n, Grid_{{a,b}}, SP_{{M,n}}, Kite, graph6:<s>, file:<path>)")]
    UnknownFamily(String),
    #[error("bad parameter for {family}: {why}")]
    BadParameter { family: String, why: String },
    #[error("graph {name} has {n} vertices; at most {MAX_VERTICES} are supported")]
    TooLarge { name: String, n: usize },
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
    adj: Vec<u64>,
}

impl Graph {
    /// Builds a graph from vertex names and edges given as index pairs; rejects loops,
    /// more than [`MAX_VERTICES`] vertices, empty and disconnected graphs.
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
        let mut adj = vec![0u64; n];
        for &(a, b) in edges {
            if a == b {
                return Err(GraphError::Loop {
                    name,
                    vertex: names[a].clone(),
                });
            }
            adj[a] |= 1 << b;
            adj[b] |= 1 << a;
        }
        let g = Graph { name, names, adj };
        if g.component(0) != g.full() {
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
    pub fn full(&self) -> u64 {
        if self.n() == 64 {
            u64::MAX
        } else {
            (1u64 << self.n()) - 1
        }
    }
    pub fn adj(&self, v: usize) -> u64 {
        self.adj[v]
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
        self.adj[v].count_ones()
    }
    pub fn edges(&self) -> Vec<(usize, usize)> {
        let mut e = Vec::new();
        for a in 0..self.n() {
            for b in bits(self.adj[a]) {
                if a < b {
                    e.push((a, b));
                }
            }
        }
        e
    }

    /// Vertices reachable from `v`.
    pub fn component(&self, v: usize) -> u64 {
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

    /// Distances from `v` by breadth-first search.
    pub fn distances_from(&self, v: usize) -> Vec<u32> {
        let mut d = vec![u32::MAX; self.n()];
        d[v] = 0;
        let mut seen = 1u64 << v;
        let mut frontier = seen;
        let mut k = 0;
        while frontier != 0 {
            k += 1;
            let mut next = 0;
            for u in bits(frontier) {
                next |= self.adj[u];
            }
            frontier = next & !seen;
            seen |= next;
            for u in bits(frontier) {
                d[u] = k;
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

    /// Parses `{v1, c}` / `v1,c` into a bitmask.
    pub fn parse_set(&self, text: &str) -> Result<u64, GraphError> {
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
