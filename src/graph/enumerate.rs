//! All connected graphs on a few vertices, one per isomorphism class, as graph6 strings
//! (canonical form: the least graph6 string over all vertex orders). Used as a parameter
//! range of specs ("every connected graph with at most 7 vertices"; 853 on 7, OEIS A001349).
//! Up to 6 vertices every edge set is tried; on 7 the graphs are grown from those on 6 by a
//! new vertex (every connected graph has a vertex whose removal leaves it connected: a leaf of
//! a spanning tree), classified by a colour-refined canonical code, and each class is then
//! written by the same least graph6 string as the smaller sizes. That list is stored
//! (`connected7.rs`, half a second saved per run) and the tests grow it again and compare.
//! Larger sizes belong to nauty's geng.

use super::io::{from_graph6, to_graph6};
use super::Graph;

/// The largest size enumerated in-process.
pub const MAX_ENUMERATED: usize = 7;

/// Above this size the graphs are grown from the next smaller size instead of trying every
/// edge set (2^21 edge sets times 7! orders would take minutes).
const MAX_BRUTE: usize = 6;

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
    static CACHE: std::sync::OnceLock<Vec<std::sync::OnceLock<Vec<String>>>> =
        std::sync::OnceLock::new();
    let cache = CACHE.get_or_init(|| (0..=MAX_ENUMERATED).map(|_| Default::default()).collect());
    Some(
        cache[n]
            .get_or_init(|| {
                if n <= MAX_BRUTE {
                    by_edge_sets(n)
                } else {
                    // n = 7, stored (the test below compares it with `by_extension(7)`).
                    super::connected7::CONNECTED_7
                        .iter()
                        .map(|s| s.to_string())
                        .collect()
                }
            })
            .clone(),
    )
}

/// Pairs in graph6 order (column by column) and the index of each pair.
fn pair_order(n: usize) -> (Vec<(usize, usize)>, Vec<Vec<usize>>) {
    let pairs: Vec<(usize, usize)> = (0..n).flat_map(|j| (0..j).map(move |i| (i, j))).collect();
    let mut index = vec![vec![0usize; n]; n];
    for (k, &(i, j)) in pairs.iter().enumerate() {
        index[i][j] = k;
        index[j][i] = k;
    }
    (pairs, index)
}

/// The graph6 strings of codes (bit m-1-k for pair k), sorted by edge count, then by code.
fn write_codes(n: usize, codes: impl IntoIterator<Item = u32>) -> Vec<String> {
    let (pairs, _) = pair_order(n);
    let m = pairs.len();
    let names: Vec<String> = (0..n).map(|i| i.to_string()).collect();
    let mut sorted: Vec<(u32, u32)> = codes.into_iter().map(|c| (c.count_ones(), c)).collect();
    sorted.sort_unstable();
    sorted.dedup();
    sorted
        .into_iter()
        .map(|(_, code)| {
            let edges: Vec<(usize, usize)> = (0..m)
                .filter(|k| code & (1 << (m - 1 - k)) != 0)
                .map(|k| pairs[k])
                .collect();
            to_graph6(&Graph::new("g", names.clone(), &edges).expect("a connected graph"))
        })
        .collect()
}

/// The code of the graph `adj` with vertex `order[i]` placed at position i.
#[cfg(test)]
fn code_of(adj: &[u64], order: &[usize], index: &[Vec<usize>], m: usize) -> u32 {
    let mut code = 0u32;
    for (i, &a) in order.iter().enumerate() {
        for (j, &b) in order.iter().enumerate().skip(i + 1) {
            if adj[a] >> b & 1 == 1 {
                code |= 1 << (m - 1 - index[i][j]);
            }
        }
    }
    code
}

/// Isomorphism-invariant vertex colours: degrees, refined by the multisets of neighbours'
/// colours until stable; colours are ranks of the sorted keys, so isomorphic graphs get
/// corresponding colours.
#[cfg(test)]
fn refined_colours(adj: &[u64]) -> Vec<usize> {
    let n = adj.len();
    let mut colour: Vec<usize> = adj.iter().map(|a| a.count_ones() as usize).collect();
    loop {
        let keys: Vec<(usize, Vec<usize>)> = (0..n)
            .map(|v| {
                let mut nb: Vec<usize> = super::bits(adj[v]).map(|w| colour[w]).collect();
                nb.sort_unstable();
                (colour[v], nb)
            })
            .collect();
        let mut distinct = keys.clone();
        distinct.sort();
        distinct.dedup();
        let next: Vec<usize> = keys
            .iter()
            .map(|k| distinct.binary_search(k).expect("a key"))
            .collect();
        let classes = |c: &[usize]| {
            let mut d = c.to_vec();
            d.sort_unstable();
            d.dedup();
            d.len()
        };
        if classes(&next) == classes(&colour) {
            return next;
        }
        colour = next;
    }
}

/// The least code over the vertex orders that list the colour classes in increasing colour
/// (every order within a class): a canonical form, since isomorphisms preserve colours.
#[cfg(test)]
fn refined_code(adj: &[u64], index: &[Vec<usize>], m: usize) -> (Vec<usize>, u32) {
    let colour = refined_colours(adj);
    let mut cells: Vec<Vec<usize>> = Vec::new();
    let mut by_colour: Vec<(usize, usize)> = colour.iter().copied().zip(0..).collect();
    by_colour.sort_unstable();
    for (c, v) in by_colour {
        match cells.last_mut() {
            Some(cell) if colour[cell[0]] == c => cell.push(v),
            _ => cells.push(vec![v]),
        }
    }
    let mut orders: Vec<Vec<usize>> = vec![vec![]];
    for cell in &cells {
        orders = orders
            .into_iter()
            .flat_map(|o| {
                permutations(cell.len()).into_iter().map(move |p| {
                    let mut o = o.clone();
                    o.extend(p.iter().map(|&i| cell[i]));
                    o
                })
            })
            .collect();
    }
    let mut sig: Vec<usize> = cells.iter().map(|c| c.len()).collect();
    sig.extend(cells.iter().map(|c| colour[c[0]]));
    let code = orders
        .iter()
        .map(|o| code_of(adj, o, index, m))
        .min()
        .expect("at least one order");
    (sig, code)
}

/// Connected graphs on `n` vertices grown from those on `n - 1` by a new vertex joined to a
/// nonempty set of old ones; classes by [`refined_code`], each written by its least code over
/// all vertex orders (the canonical form of [`by_edge_sets`]).
#[cfg(test)]
fn by_extension(n: usize) -> Vec<String> {
    let smaller = connected_graphs(n - 1).expect("a smaller size");
    let (pairs, index) = pair_order(n);
    let m = pairs.len();
    let mut classes: std::collections::BTreeMap<(Vec<usize>, u32), Vec<u64>> = Default::default();
    for g6 in &smaller {
        let h = graph(g6);
        for s in 1u64..(1 << (n - 1)) {
            let mut adj: Vec<u64> = (0..n - 1).map(|v| h.adj(v)).collect();
            for (v, a) in adj.iter_mut().enumerate() {
                if s >> v & 1 == 1 {
                    *a |= 1 << (n - 1);
                }
            }
            adj.push(s);
            classes.entry(refined_code(&adj, &index, m)).or_insert(adj);
        }
    }
    let perms = permutations(n);
    write_codes(
        n,
        classes.values().map(|adj| {
            perms
                .iter()
                .map(|p| {
                    let mut order = vec![0; n];
                    for (v, &at) in p.iter().enumerate() {
                        order[at] = v;
                    }
                    code_of(adj, &order, &index, m)
                })
                .min()
                .expect("at least one order")
        }),
    )
}

/// Every edge set on `n` vertices, each connected one reduced to its least code over all
/// vertex orders.
fn by_edge_sets(n: usize) -> Vec<String> {
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
    write_codes(n, seen.into_iter().map(|(_, code)| code))
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
        // Connected graphs on n unlabelled vertices: 1, 1, 2, 6, 21, 112, 853.
        let counts: Vec<usize> = (1..=7)
            .map(|n| connected_graphs(n).unwrap().len())
            .collect();
        assert_eq!(counts, vec![1, 1, 2, 6, 21, 112, 853]);
        assert!(connected_graphs(8).is_none());
    }

    #[test]
    fn stored_seven_vertex_graphs_are_the_enumeration() {
        assert_eq!(connected_graphs(7).unwrap(), by_extension(7));
    }

    #[test]
    fn growing_agrees_with_every_edge_set() {
        // The method used on 7 vertices gives exactly the brute-force list on 3..=6.
        for n in 3..=6 {
            assert_eq!(by_extension(n), by_edge_sets(n), "n = {n}");
        }
    }

    #[test]
    fn seven_vertex_graphs_are_canonical_and_distinct() {
        // Each string is its class's least graph6 string: re-canonicalising a relabelled copy
        // gives it back, and the refined codes of the 853 graphs are pairwise distinct.
        let list = connected_graphs(7).unwrap();
        let (pairs, index) = pair_order(7);
        let m = pairs.len();
        let mut codes = std::collections::BTreeSet::new();
        for g6 in &list {
            let g = graph(g6);
            assert_eq!(g.n(), 7);
            let adj: Vec<u64> = (0..7).map(|v| g.adj(v)).collect();
            assert!(codes.insert(refined_code(&adj, &index, m)), "{g6} twice");
            // Reverse the vertex order: the least code over all orders is unchanged.
            let rev: Vec<u64> = (0..7)
                .rev()
                .map(|v| super::super::bits(adj[v]).fold(0u64, |a, w| a | 1 << (6 - w)))
                .collect();
            let least = permutations(7)
                .iter()
                .map(|p| code_of(&rev, p, &index, m))
                .min()
                .unwrap();
            assert_eq!(write_codes(7, [least]), vec![g6.clone()]);
        }
    }
}
