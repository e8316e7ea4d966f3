//! The geodetic closure I[S] (seed 000 §6 question 2; Buckley–Harary's and Haynes et al.'s
//! geodetic games): one step of geodesic intervals, not iterated. Extensive and monotone but
//! not idempotent, which the games allow.

use super::{geodesic_intervals, GraphClosure};
use crate::graph::Graph;

pub struct Geodetic;

impl GraphClosure for Geodetic {
    fn name(&self) -> &'static str {
        "geodetic"
    }
    fn about(&self) -> &'static str {
        "the geodetic closure I[S]: one step of geodesic intervals (§6 question 2)"
    }
    fn intervals(&self, g: &Graph, _budget: u64) -> Option<Vec<u64>> {
        Some(geodesic_intervals(g))
    }
    fn iterated(&self) -> bool {
        false
    }
    fn geodesic(&self) -> bool {
        true
    }
}
