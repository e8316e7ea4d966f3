//! The monophonic hull: induced-path intervals J[u, v] ([`crate::graph::monophonic`]) iterated
//! to a fixed point, as the convex hull iterates geodesic ones.

use super::GraphClosure;
use crate::graph::Graph;

pub struct Monophonic;

impl GraphClosure for Monophonic {
    fn name(&self) -> &'static str {
        "monophonic"
    }
    fn about(&self) -> &'static str {
        "the monophonic hull: induced-path intervals iterated"
    }
    fn intervals(&self, g: &Graph, budget: u64) -> Option<Vec<u64>> {
        crate::graph::monophonic::intervals(g, budget)
    }
    fn iterated(&self) -> bool {
        true
    }
    /// An induced path between two vertices of one part of K_{n1,…,nk} has length 2 (a longer
    /// one would have a chord from an end to a vertex of another part), so there the
    /// monophonic intervals are the geodesic ones.
    fn geodesic_on_complete_multipartite(&self) -> bool {
        true
    }
}
