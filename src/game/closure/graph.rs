//! A graph under one of the registered graph closures ([`crate::graph::closures`]: the convex
//! hull of seed 000 §2.5 by default, the geodetic closure, the monophonic hull, or one
//! registered from outside the crate) as a closure operator on its vertex set: the wrapper
//! [`GraphOperator`] of a [`crate::graph::Convexity`]. Whatever a solver may do beyond the
//! generic search it learns from the closure's declared capabilities, never from its name.

use super::{from_mask, to_mask, ClosureOperator, Operator, Set};
use crate::game::family::FormDoc;
use crate::game::features::FeatureDoc;
use crate::game::Value;
use crate::graph::convex::SetFamilies;
use crate::graph::{parse_graph, Closure, Convexity, Graph};
use std::sync::{Arc, OnceLock};

/// Graphs, under the selected graph closure (tried last: every other structure is written
/// in a way a graph is not).
pub const OPERATOR: Operator = Operator {
    kind: "graph",
    about: "graphs (at most 64 vertices) under the selected graph closure (--closure, `closure:`)",
    forms: &[FormDoc {
        syntax: "G",
        example: "DNG(C_6)",
        meaning: "any graph family below, under the graph closure chosen (--closure, closure:)",
    }],
    read: |text, closure| {
        Some(
            parse_graph(text)
                .map_err(|e| e.to_string())
                .and_then(|g| GraphOperator::new(g, closure))
                .map(|op| Arc::new(op) as Arc<dyn ClosureOperator>),
        )
    },
};

/// A graph with one of its convexities.
#[derive(Debug)]
pub struct GraphOperator {
    graph: Graph,
    conv: Convexity,
    families: OnceLock<Option<SetFamilies>>,
    /// The graph as K_{n1,…,nk} when it is complete multipartite, found on first use.
    parts: OnceLock<Option<super::multipartite::Multipartite>>,
}

/// The part sizes when `g` is complete multipartite with at least two parts: non-adjacency
/// is then an equivalence relation (its classes are the parts) and vertices of different
/// parts are adjacent, which this checks for every pair.
fn multipartite_parts(g: &Graph) -> Option<Vec<u64>> {
    let n = g.n();
    let full = g.full();
    let mut part_of = vec![usize::MAX; n];
    let mut masks: Vec<u64> = Vec::new();
    for v in 0..n {
        if part_of[v] != usize::MAX {
            continue;
        }
        // v's part: v and its non-neighbours.
        let part = full & !g.adj(v);
        for u in crate::graph::bits(part) {
            if part_of[u] != usize::MAX || g.adj(u) != full & !part {
                return None;
            }
            part_of[u] = masks.len();
        }
        masks.push(part);
    }
    (masks.len() >= 2).then(|| masks.iter().map(|m| u64::from(m.count_ones())).collect())
}

impl GraphOperator {
    pub fn new(graph: Graph, closure: Closure) -> Result<GraphOperator, String> {
        let conv = Convexity::try_new(&graph, closure).ok_or_else(|| closure.refusal(&graph))?;
        Ok(GraphOperator {
            graph,
            conv,
            families: OnceLock::new(),
            parts: OnceLock::new(),
        })
    }

    /// The operator of a graph whose convexity and families are already computed (a removing
    /// game's, [`crate::game::removing::RemovingGame`]): nothing is searched again. `families`
    /// is what a search within [`super::FAMILY_BUDGET`] found (`None`: past it).
    pub fn with_convexity(
        graph: Graph,
        conv: Convexity,
        families: Option<SetFamilies>,
    ) -> GraphOperator {
        GraphOperator {
            graph,
            conv,
            families: OnceLock::from(families),
            parts: OnceLock::new(),
        }
    }

    pub fn graph(&self) -> &Graph {
        &self.graph
    }

    fn families(&self, budget: u64) -> Option<&SetFamilies> {
        self.families
            .get_or_init(|| self.conv.families(budget))
            .as_ref()
    }
}

/// The features of a graph under any graph closure.
pub const FEATURES: &[FeatureDoc] = &[
    FeatureDoc {
        name: "vertices",
        meaning: "|V| of the graph",
    },
    FeatureDoc {
        name: "edges",
        meaning: "|E| of the graph",
    },
];

impl ClosureOperator for GraphOperator {
    fn feature_docs(&self) -> &'static [FeatureDoc] {
        FEATURES
    }
    fn certificate_order(&self) -> Option<super::CertificateOrder> {
        Some(super::CertificateOrder::Index)
    }
    fn name_suffix(&self) -> String {
        self.conv.closure_kind().game_suffix()
    }
    fn kind(&self) -> &'static str {
        self.conv.closure_kind().name()
    }
    fn structure(&self) -> String {
        self.graph.name().to_string()
    }
    fn size(&self) -> usize {
        self.graph.n()
    }
    fn element_name(&self, i: usize) -> String {
        self.graph.vertex_name(i).to_string()
    }
    fn parse_element(&self, text: &str) -> Option<usize> {
        self.graph.vertex_index(text.trim())
    }
    fn close(&self, s: &Set) -> Set {
        // Graphs of games have at most 64 vertices (parse_graph), so every set is a mask.
        let m = to_mask(s).unwrap_or(0);
        from_mask(self.conv.close(m), self.size())
    }
    fn generates(&self, s: &Set) -> bool {
        self.conv.generates(to_mask(s).unwrap_or(0))
    }
    /// 𝒢 from the paper's families, or — when the nongenerating sets are too many to search
    /// (P_40: every set missing an end vertex, 3·2^38 of them) — from 𝒩 found by the search
    /// over closed sets: S generates iff it meets the complement of every member of 𝒩, so 𝒢
    /// is the family of minimal transversals of {V ∖ N : N ∈ 𝒩} (seed 000 Prop 2.4).
    fn minimal_generating(&self, budget: u64) -> Option<Vec<Set>> {
        let n = self.size();
        if let Some(f) = self.families(budget) {
            return Some(f.g.iter().map(|&m| from_mask(m, n)).collect());
        }
        // The search over closed sets needs an idempotent closure (a hull).
        if !self.conv.closure_kind().iterated() {
            return None;
        }
        super::generating_by_closed_sets(self, budget)
    }
    /// 𝒩 from the paper's families, or — when 𝒢 is too large to list (Q_5 has 1648 minimal
    /// generating sets) — by the search over closed sets for the idempotent hulls.
    fn maximal_nongenerating(&self, budget: u64) -> Option<Vec<Set>> {
        let n = self.size();
        self.families(budget)
            .map(|f| f.n.iter().map(|&m| from_mask(m, n)).collect())
            .or_else(|| {
                self.conv
                    .closure_kind()
                    .iterated()
                    .then(|| super::maximal_closed(self, budget))
                    .flatten()
            })
    }
    /// A complete multipartite graph is solved by its count vectors (its positions up to
    /// automorphisms, src/solve/structure_symmetric.rs) whatever its size: K_{1,30}'s 2^30
    /// subsets are 2 × 31 vectors.
    fn counted(&self) -> Option<&dyn super::Counted> {
        self.parts
            .get_or_init(|| {
                let parts = multipartite_parts(&self.graph)?;
                super::multipartite::Multipartite::new(&parts, self.conv.closure_kind()).ok()
            })
            .as_ref()
            .map(|m| m as &dyn super::Counted)
    }
    fn features(&self) -> Vec<(String, Value)> {
        vec![
            ("vertices".into(), Value::Int(self.graph.n() as i64)),
            ("edges".into(), Value::Int(self.graph.edge_count() as i64)),
        ]
    }
}
