//! All connected graphs on a few vertices, one per isomorphism class, as graph6 strings
//! (canonical form: the least graph6 string over all vertex orders). Used as a parameter
//! range of specs ("every connected graph with at most 6 vertices"). Larger sizes belong to
//! nauty's geng.

use super::io::{from_graph6, to_graph6};
use super::Graph;

/// The largest size enumerated in-process (n! vertex orders per graph).
pub const MAX_ENUMERATED: usize = 6;

fn permutations(n: usize) -> Vec<Vec<usize>> {
    let mut out = vec![vec![]];
    for k in 0..n {
        out = out
            .into_iter()
            .flat_map(|p: Vec<usize>| {
                (0..=k).map(move |i| {
                    let mut q = p.clone();
                    q.insert(i, k);
                    q
                })
            })
            .collect();
    }
    out
}

/// Connected graphs with exactly `n` vertices up to isomorphism, sorted by edge count, then
/// by graph6 string. `None` when `n` is 0 or above [`MAX_ENUMERATED`].
pub fn connected_graphs(n: usize) -> Option<Vec<String>> {
    if n == 0 || n > MAX_ENUMERATED {
        return None;
    }
    // Pairs in graph6 order (column by column); pair k is bit (m - 1 - k) of a code, so that
    // comparing codes as integers compares graph6 strings.
    let pairs: Vec<(usize, usize)> = (0..n).flat_map(|j| (0..j).map(move |i| (i, j))).collect();
    let m = pairs.len();
    let mut index = vec![vec![0usize; n]; n];
    for (k, &(i, j)) in pairs.iter().enumerate() {
        index[i][j] = k;
        index[j][i] = k;
    }
    let perms = permutations(n);
    let names: Vec<String> = (0..n).map(|i| i.to_string()).collect();
    let mut seen = std::collections::BTreeSet::new();
    for mask in 0u32..(1 << m) {
        let edges: Vec<(usize, usize)> = (0..m)
            .filter(|k| mask & (1 << (m - 1 - k)) != 0)
            .map(|k| pairs[k])
            .collect();
        let mut adj = vec![0u64; n];
        for &(a, b) in &edges {
            adj[a] |= 1 << b;
            adj[b] |= 1 << a;
        }
        let (mut seen_v, mut frontier) = (1u64, 1u64);
        while frontier != 0 {
            let next = super::bits(frontier).fold(0, |acc, v| acc | adj[v]);
            frontier = next & !seen_v;
            seen_v |= next;
        }
        if seen_v.count_ones() as usize != n {
            continue;
        }
        let canon = perms
            .iter()
            .map(|p| {
                edges
                    .iter()
                    .fold(0u32, |acc, &(a, b)| acc | 1 << (m - 1 - index[p[a]][p[b]]))
            })
            .min()
            .expect("at least one vertex order");
        seen.insert((edges.len(), canon));
    }
    let out = seen
        .into_iter()
        .map(|(_, code)| {
            let edges: Vec<(usize, usize)> = (0..m)
                .filter(|k| code & (1 << (m - 1 - k)) != 0)
                .map(|k| pairs[k])
                .collect();
            to_graph6(&Graph::new("g", names.clone(), &edges).expect("a connected graph"))
        })
        .collect();
    Some(out)
}

/// The graph of a canonical graph6 string.
pub fn graph(g6: &str) -> Graph {
    from_graph6(g6).expect("enumerated graph6 strings are valid")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_match_oeis_a001349() {
        // Connected graphs on n unlabelled vertices: 1, 1, 2, 6, 21, 112.
        let counts: Vec<usize> = (1..=6)
            .map(|n| connected_graphs(n).unwrap().len())
            .collect();
        assert_eq!(counts, vec![1, 1, 2, 6, 21, 112]);
    }
}
