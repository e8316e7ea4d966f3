//! Node Kayles on a graph, `NK(G)`: a move takes a vertex still in play out of play together
//! with its neighbours; with no vertex left there is no move. It is the example of an open
//! game family (issue 31, item 6): this file and one line in [`super::family::FAMILIES`] are
//! all it took.
//!
//! On a path, Node Kayles is Dawson's Chess, the octal game 0.137 (an end vertex takes two
//! vertices, or the whole of P_1; an interior vertex takes three and splits the rest in two),
//! so nim(NK(P_n)) = nim(DC(n)); on a cycle the first move leaves P_{n−3}; on K_{m,n} a move
//! leaves the other m − 1 (or n − 1) vertices of its side, independent. tests/aux_games.rs
//! and specs/known/node_kayles.yaml check these.

use super::family::{Family, FamilyGame, FormDoc, Registered};
use super::features::{FeatureDoc, Features, Value};
use super::Game;
use crate::graph::symmetry::Symmetry;
use crate::graph::{bits, Closure, Graph};
use std::sync::{Arc, OnceLock};

/// The family's registration.
pub struct NodeKaylesFamily;

const FORMS: &[FormDoc] = &[FormDoc {
    syntax: "NK(G)",
    example: "NK(P_7)",
    meaning: "Node Kayles on a graph G: take a vertex and its neighbours out of play",
}];

impl Family for NodeKaylesFamily {
    fn heads(&self) -> &'static [&'static str] {
        &["NK"]
    }
    fn forms(&self) -> &'static [FormDoc] {
        FORMS
    }
    fn title(&self) -> &'static str {
        "Node Kayles NK(G)"
    }
    fn parse(&self, _head: &str, args: &str, _closure: Closure) -> Result<Registered, String> {
        let graph = crate::graph::parse_graph(args).map_err(|e| e.to_string())?;
        Ok(Registered::new(NodeKayles {
            graph: Arc::new(graph),
            sym: Arc::default(),
        }))
    }
}

/// Node Kayles on one graph; a position is the set of vertices still in play.
#[derive(Clone)]
pub struct NodeKayles {
    graph: Arc<Graph>,
    /// The graph's automorphisms, found on first use: positions are memoised up to them.
    sym: Arc<OnceLock<Symmetry>>,
}

impl std::fmt::Debug for NodeKayles {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let adj: Vec<u64> = (0..self.graph.n()).map(|v| self.graph.adj(v)).collect();
        write!(f, "NK{adj:?}")
    }
}

impl Game for NodeKayles {
    type Pos = u64;
    fn start(&self) -> u64 {
        self.graph.full()
    }
    fn options(&self, &p: &u64) -> Vec<u64> {
        bits(p).map(|v| p & !(self.graph.adj(v) | 1 << v)).collect()
    }
    fn canonical(&self, &p: &u64) -> u64 {
        // An automorphism maps the game at p onto the game at its image, move for move.
        self.sym
            .get_or_init(|| Symmetry::of_graph(&self.graph, 0))
            .canonical(p)
    }
    fn components(&self, &p: &u64) -> Vec<u64> {
        // A move takes a vertex and its neighbours in play, all in one component of the
        // graph induced on p, so the game at p is the disjoint sum of its components' games.
        let parts = components(&self.graph, p);
        if parts.len() >= 2 {
            parts
        } else {
            Vec::new()
        }
    }
}

/// The vertex sets of the components of the subgraph induced on `p`, in order of least vertex.
fn components(g: &Graph, p: u64) -> Vec<u64> {
    crate::graph::mask_components(p, |v| g.adj(v))
}

/// How many vertex sets of `g` induce a connected subgraph (the empty set counted once), when
/// every vertex has degree at most 2: a component is a path or a cycle of m vertices, whose
/// connected subsets are its m(m+1)/2 subpaths, or its m(m−1) proper arcs and itself.
/// `None` for other graphs, whose connected subsets can be exponentially many.
fn connected_subsets_low_degree(g: &Graph) -> Option<f64> {
    if (0..g.n()).any(|v| g.degree(v) > 2) {
        return None;
    }
    let count = components(g, g.full())
        .into_iter()
        .map(|c| {
            let m = f64::from(c.count_ones());
            let edges: u32 = bits(c).map(|v| g.degree(v)).sum::<u32>() / 2;
            if f64::from(edges) == m && m >= 3.0 {
                m * (m - 1.0) + 1.0
            } else {
                m * (m + 1.0) / 2.0
            }
        })
        .sum::<f64>();
    Some(count + 1.0)
}

/// The features of Node Kayles positions.
pub const FEATURES: &[FeatureDoc] = &[
    FeatureDoc {
        name: "in_play",
        meaning: "the vertices still in play",
    },
    FeatureDoc {
        name: "remaining",
        meaning: "how many vertices are still in play",
    },
    FeatureDoc {
        name: "vertices",
        meaning: "|V| of the graph",
    },
];

impl FamilyGame for NodeKayles {
    fn name(&self) -> String {
        format!("NK({})", self.graph.name())
    }
    fn label(&self, &p: &u64) -> String {
        self.graph.format_set(p)
    }
    fn parse_pos(&self, text: &str) -> Result<u64, String> {
        self.graph.parse_set(text).map_err(|e| e.to_string())
    }
    fn features(&self, &p: &u64) -> Features {
        Features::from([
            ("in_play".to_string(), Value::Set(self.graph.set_names(p))),
            ("remaining".to_string(), Value::Int(p.count_ones() as i64)),
            ("vertices".to_string(), Value::Int(self.graph.n() as i64)),
        ])
    }
    fn feature_docs(&self) -> &'static [FeatureDoc] {
        FEATURES
    }
    fn distinct_bound(&self) -> Option<f64> {
        // The solver memoises only connected positions (Game::components).
        Some(
            connected_subsets_low_degree(&self.graph)
                .unwrap_or_else(|| 2f64.powi(self.graph.n() as i32)),
        )
    }
    fn reachable_bound(&self) -> Option<f64> {
        // Whole positions are vertex sets: splitting saves the memo, not an enumeration.
        Some(2f64.powi(self.graph.n() as i32))
    }
    fn certificate(&self) -> Result<serde_json::Value, String> {
        // The graph as every certificate writes one: vertex count and edge list.
        let g = &self.graph;
        Ok(serde_json::json!({ "NK": { "graph": { "n": g.n(), "edges": g.edges() } } }))
    }
}
