//! The monophonic hull: J[u, v] is the set of vertices on induced (chordless) u–v paths, found
//! by listing every induced path from u (a path grows by a neighbour of its end adjacent to no
//! earlier vertex), under a step budget: deciding membership is NP-hard in general, so past
//! the budget the graph is refused, never guessed. Repeated to a fixed point.

use super::Rule;
use crate::games::Graph;

/// Steps of the induced-path search, over all start vertices, before a graph is refused.
pub const MONOPHONIC_BUDGET: u64 = 5_000_000;

pub struct Monophonic;

impl Rule for Monophonic {
    fn name(&self) -> &'static str {
        "monophonic"
    }
    fn intervals(&self, g: &Graph) -> Result<Vec<Vec<u64>>, String> {
        let n = g.n;
        let mut interval = super::pairs(n);
        let mut adj = vec![0u64; n];
        for &(a, b) in &g.edges {
            adj[a] |= 1 << b;
            adj[b] |= 1 << a;
        }
        let mut steps = 0u64;
        for u in 0..n {
            // Depth-first over the induced paths from u: (path as a mask, its end, the union
            // of the neighbourhoods of its vertices before the end).
            let mut stack = vec![(1u64 << u, u, 0u64)];
            while let Some((path, end, before)) = stack.pop() {
                steps += 1;
                if steps > MONOPHONIC_BUDGET {
                    return Err(format!(
                        "the induced paths of this graph need more than {MONOPHONIC_BUDGET} search steps"
                    ));
                }
                interval[u][end] |= path;
                let mut next = adj[end] & !path & !before;
                while next != 0 {
                    let w = next.trailing_zeros() as usize;
                    next &= next - 1;
                    stack.push((path | 1 << w, w, before | adj[end]));
                }
            }
        }
        Ok(interval)
    }
    fn iterated(&self) -> bool {
        true
    }
    /// Induced paths between two vertices of one part of a complete multipartite graph have
    /// length 2 (a longer one has a chord), so there J = I.
    fn geodesic_on_complete_multipartite(&self) -> bool {
        true
    }
}
