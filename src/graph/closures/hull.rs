//! The convex hull of seed 000 (§2.5): geodesic intervals iterated to a fixed point; the
//! default closure of the graph games.

use super::{geodesic_intervals, GraphClosure};
use crate::graph::Graph;

pub struct Hull;

impl GraphClosure for Hull {
    fn name(&self) -> &'static str {
        "hull"
    }
    fn about(&self) -> &'static str {
        "the convex hull [S] (default): geodesic intervals iterated, seed 000's games"
    }
    fn intervals(&self, g: &Graph, _budget: u64) -> Option<Vec<u64>> {
        Some(geodesic_intervals(g))
    }
    fn iterated(&self) -> bool {
        true
    }
    fn geodesic(&self) -> bool {
        true
    }
    fn game_suffix(&self) -> String {
        String::new()
    }
}
