//! The verifier's own list of the connected graphs on at most 7 vertices, one per isomorphism
//! class, for specs that range over them (`{graphs: {vertices: "1..=7"}}`): each class
//! written by its *least graph6 string over all vertex orders*, the canonical form the
//! certificates label instances with (a convention like the vertex numbering of the
//! families: a mismatch is a rejection, never an acceptance).
//!
//! Every connected graph on n ≥ 2 vertices has a vertex whose removal leaves it connected (a
//! leaf of a spanning tree), so the graphs on n vertices are the graphs on n − 1 with a new
//! vertex joined to a nonempty set of them; each is reduced to its canonical form by trying
//! all n! orders (5040 at n = 7, with the search cut where a prefix is already larger). The
//! counts are A001349 (1, 1, 2, 6, 21, 112, 853), which the tests check.

use std::collections::BTreeSet;
use std::sync::OnceLock;

/// The largest size enumerated.
pub const MAX_VERTICES: usize = 7;

/// graph6's bit order: the pairs (i, j), i < j, column by column.
fn pairs(n: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for j in 1..n {
        for i in 0..j {
            out.push((i, j));
        }
    }
    out
}

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

/// The least bit string (graph6 order, first pair most significant) over all vertex orders
/// of the graph with adjacency masks `adj`.
fn canonical(adj: &[u8], perms: &[Vec<usize>], pairs: &[(usize, usize)]) -> u32 {
    let m = pairs.len();
    let mut best = u32::MAX;
    'next: for p in perms {
        let mut key = 0u32;
        for (k, &(i, j)) in pairs.iter().enumerate() {
            if adj[p[i]] >> p[j] & 1 == 1 {
                key |= 1 << (m - 1 - k);
            }
            // The bits still to come can only add less than 2^(m − 1 − k).
            if key >> (m - 1 - k) > best >> (m - 1 - k) {
                continue 'next;
            }
        }
        best = best.min(key);
    }
    best
}

/// graph6 of the graph on `n` vertices whose pair bits are `key`.
fn graph6(n: usize, key: u32) -> String {
    let m = n * n.saturating_sub(1) / 2;
    let mut s = String::new();
    s.push((63 + n as u8) as char);
    let mut k = 0;
    while k < m {
        let mut c = 0u8;
        for b in 0..6 {
            c <<= 1;
            if k + b < m && key >> (m - 1 - (k + b)) & 1 == 1 {
                c |= 1;
            }
        }
        s.push((63 + c) as char);
        k += 6;
    }
    s
}

fn adjacency(n: usize, key: u32, pairs: &[(usize, usize)]) -> Vec<u8> {
    let m = pairs.len();
    let mut adj = vec![0u8; n];
    for (k, &(i, j)) in pairs.iter().enumerate() {
        if key >> (m - 1 - k) & 1 == 1 {
            adj[i] |= 1 << j;
            adj[j] |= 1 << i;
        }
    }
    adj
}

/// The canonical keys of the connected graphs on 1..=7 vertices, index n − 1.
fn all() -> &'static Vec<BTreeSet<u32>> {
    static ALL: OnceLock<Vec<BTreeSet<u32>>> = OnceLock::new();
    ALL.get_or_init(|| {
        let mut out = vec![BTreeSet::from([0u32])];
        for n in 2..=MAX_VERTICES {
            let (small, big) = (pairs(n - 1), pairs(n));
            let perms = permutations(n);
            let mut next = BTreeSet::new();
            for &key in &out[n - 2] {
                let mut adj = adjacency(n - 1, key, &small);
                adj.push(0);
                for s in 1u8..1 << (n - 1) {
                    let mut a = adj.clone();
                    for v in 0..n - 1 {
                        if s >> v & 1 == 1 {
                            a[v] |= 1 << (n - 1);
                            a[n - 1] |= 1 << v;
                        }
                    }
                    next.insert(canonical(&a, &perms, &big));
                }
            }
            out.push(next);
        }
        out
    })
}

/// The connected graphs on `n` vertices up to isomorphism, as canonical graph6 strings;
/// `None` outside 1..=[`MAX_VERTICES`].
pub fn connected_graphs(n: usize) -> Option<Vec<String>> {
    if !(1..=MAX_VERTICES).contains(&n) {
        return None;
    }
    Some(all()[n - 1].iter().map(|&k| graph6(n, k)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// OEIS A001349: connected graphs on n unlabelled vertices.
    #[test]
    fn counts_are_a001349() {
        let counts: Vec<usize> = (1..=7)
            .map(|n| connected_graphs(n).unwrap().len())
            .collect();
        assert_eq!(counts, [1, 1, 2, 6, 21, 112, 853]);
        assert!(connected_graphs(8).is_none());
    }

    /// The canonical form is the least graph6 string: K_2 is `A_`, P_3 `BW` (bits 011: the
    /// centre last, edges 02 and 12, not `Bg`, bits 101, the centre in the middle), K_3 `Bw`;
    /// and every listed string on 5 vertices is the least over its own relabellings.
    #[test]
    fn canonical_forms_are_least_graph6() {
        assert_eq!(connected_graphs(2).unwrap(), ["A_"]);
        assert_eq!(connected_graphs(3).unwrap(), ["BW", "Bw"]);
        let perms = permutations(5);
        let p = pairs(5);
        for g in connected_graphs(5).unwrap() {
            let graph = crate::names::parse_graph(&format!("graph6:{g}")).unwrap();
            let mut adj = [0u8; 5];
            for &(a, b) in &graph.edges {
                adj[a] |= 1 << b;
                adj[b] |= 1 << a;
            }
            let least = perms
                .iter()
                .map(|q| {
                    let mut a2 = vec![0u8; 5];
                    for (x, &y) in q.iter().enumerate() {
                        for (z, &w) in q.iter().enumerate() {
                            if adj[y] >> w & 1 == 1 {
                                a2[x] |= 1 << z;
                            }
                        }
                    }
                    graph6(5, canonical(&a2, &[vec![0, 1, 2, 3, 4]], &p))
                })
                .min()
                .unwrap();
            assert_eq!(least, g);
        }
    }
}
