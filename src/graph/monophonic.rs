//! Monophonic intervals: J[u, v] is the set of vertices on some induced (chordless) u–v path.
//! The monophonic hull iterates them to a fixed point exactly as the convex hull iterates
//! geodesic intervals (every geodesic is induced, so I[u, v] ⊆ J[u, v]; seed 000 §6 asks for
//! such variants of the convex hull games).
//!
//! Whether a vertex lies on an induced path between two others is NP-complete in general, so
//! the intervals are found by enumerating induced paths from each vertex, under a budget of
//! search steps: a graph past it is refused, never answered from a partial table.

use super::{bits, Graph};

/// Search steps (path extensions) allowed by [`intervals`] in [`DEFAULT_BUDGET`].
pub const DEFAULT_BUDGET: u64 = 50_000_000;

/// `J[u * n + v]` for every pair, or `None` past `budget` path extensions. `J[u, u] = {u}`.
pub fn intervals(g: &Graph, budget: u64) -> Option<Vec<u64>> {
    let n = g.n();
    let mut out = vec![0u64; n * n];
    let mut steps = 0u64;
    for u in 0..n {
        out[u * n + u] = 1 << u;
        // Depth-first over induced paths starting at u: (path mask, last vertex, the
        // vertices adjacent to the path before its last vertex, which the next vertex must
        // avoid).
        let mut stack: Vec<(u64, usize, u64)> = vec![(1 << u, u, 0)];
        while let Some((path, last, blocked)) = stack.pop() {
            let next_blocked = blocked | g.adj(last);
            for w in bits(g.adj(last) & !path & !blocked) {
                steps += 1;
                if steps > budget {
                    return None;
                }
                let p = path | 1 << w;
                out[u * n + w] |= p;
                stack.push((p, w, next_blocked & !(1 << w)));
            }
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::families as fam;

    /// J by definition: a vertex w is in J[u, v] iff some subset containing u, v, w induces a
    /// path with ends u and v.
    fn by_definition(g: &Graph) -> Vec<u64> {
        let n = g.n();
        let mut out = vec![0u64; n * n];
        for s in 1u64..(1 << n) {
            let verts: Vec<usize> = bits(s).collect();
            let deg: Vec<u32> = verts.iter().map(|&v| (g.adj(v) & s).count_ones()).collect();
            let ends: Vec<usize> = verts
                .iter()
                .zip(&deg)
                .filter(|(_, &d)| d <= 1)
                .map(|(&v, _)| v)
                .collect();
            let edges: u32 = deg.iter().sum::<u32>() / 2;
            let connected = g.adj(verts[0]) & s != 0 || verts.len() == 1;
            let is_path = edges as usize + 1 == verts.len()
                && deg.iter().all(|&d| d <= 2)
                && (verts.len() == 1 || ends.len() == 2)
                && connected
                && {
                    // connectivity of the induced subgraph
                    let mut seen = 1u64 << verts[0];
                    loop {
                        let grow = bits(seen).fold(seen, |a, v| a | (g.adj(v) & s));
                        if grow == seen {
                            break;
                        }
                        seen = grow;
                    }
                    seen == s
                };
            if is_path {
                let (a, b) = if verts.len() == 1 {
                    (verts[0], verts[0])
                } else {
                    (ends[0], ends[1])
                };
                out[a * n + b] |= s;
                out[b * n + a] |= s;
            }
        }
        out
    }

    #[test]
    fn intervals_are_the_induced_paths() {
        for g in [
            fam::cycle(6).unwrap(),
            fam::wheel(6).unwrap(),
            fam::kite(),
            fam::hypercube(3).unwrap(),
            fam::multipartite(&[1, 2, 3]).unwrap(),
            fam::path(5).unwrap(),
        ] {
            assert_eq!(
                intervals(&g, u64::MAX).unwrap(),
                by_definition(&g),
                "{}",
                g.name()
            );
        }
        // On C_6 the far side of the cycle is a second induced path: J[v1, v3] is everything.
        let c6 = fam::cycle(6).unwrap();
        assert_eq!(intervals(&c6, u64::MAX).unwrap()[2], 0b111111);
        assert!(intervals(&fam::hypercube(4).unwrap(), 10).is_none());
    }
}
