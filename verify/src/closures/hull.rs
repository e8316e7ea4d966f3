//! The convex hull (seed 000 §2.5): geodesic intervals, repeated to a fixed point.

use super::Rule;
use crate::games::Graph;

pub struct Hull;

impl Rule for Hull {
    fn name(&self) -> &'static str {
        "hull"
    }
    fn intervals(&self, g: &Graph) -> Result<Vec<Vec<u64>>, String> {
        Ok(super::geodesic_intervals(g))
    }
    fn iterated(&self) -> bool {
        true
    }
    fn geodesic(&self) -> bool {
        true
    }
}
