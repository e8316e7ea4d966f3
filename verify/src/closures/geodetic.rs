//! The geodetic closure I[S] (seed 000 §6 question 2): geodesic intervals, one step.

use super::Rule;
use crate::games::Graph;

pub struct Geodetic;

impl Rule for Geodetic {
    fn name(&self) -> &'static str {
        "geodetic"
    }
    fn intervals(&self, g: &Graph) -> Result<Vec<Vec<u64>>, String> {
        Ok(super::geodesic_intervals(g))
    }
    fn iterated(&self) -> bool {
        false
    }
    fn geodesic(&self) -> bool {
        true
    }
}
