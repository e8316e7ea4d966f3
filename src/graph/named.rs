//! Named graphs of the literature (`Petersen`, `Heawood`, `MoebiusKantor`, `Pappus`,
//! `Desargues`, `Dodecahedron`, `Icosahedron`, `Clebsch`, `Grotzsch`, `Chvatal`) and the
//! generalized Petersen graphs `GP_{n,k}`, each built from its textbook definition.
//!
//! Vertex numbering (the index order; certificates and grundy-verify compare graphs edge for
//! edge, so it is part of the language):
//!
//! - `GP_{n,k}` (3 ≤ n, 1 ≤ k < n/2): the outer cycle u0..u(n−1) at 0..n−1, the inner
//!   vertices v0..v(n−1) at n..2n−1; edges u_i u_{i+1}, spokes u_i v_i, inner v_i v_{i+k}
//!   (indices mod n). `Petersen` is GP(5,2) with these names.
//! - `Heawood`, `MoebiusKantor`, `Pappus`, `Desargues`: v0..v(n−1) around a Hamiltonian
//!   cycle, plus the chords of their LCF notation (Frucht 1976): [5,−5]^7, [5,−5]^8,
//!   [5,7,−7,7,−7,−5]^3 and [5,−5,9,−9]^5.
//! - `Dodecahedron`: its Schlegel diagram, the outer pentagon a0..a4, the middle 10-cycle
//!   b0..b9, the inner pentagon c0..c4 (in that order); a_i ~ b_{2i}, c_i ~ b_{2i+1}.
//! - `Icosahedron`: the top pole t, the upper pentagon a0..a4, the lower pentagon b0..b4, the
//!   bottom pole s; a_i ~ b_i, a_i ~ b_{i+1}.
//! - `Clebsch`: the folded 5-cube, the 4-bit strings 0000..1111 (index = the string in
//!   binary), adjacent when they differ in one bit or in all four.
//! - `Grotzsch`: the Mycielskian of C_5, the cycle v0..v4, their shadows u0..u4 (u_i ~ the
//!   cycle neighbours of v_i) and the apex w adjacent to every u_i.
//! - `Chvatal`: v0..v11 with the edge list of Chvátal (1970) as networkx numbers it.

use super::{Graph, GraphError};

fn bad(family: &str, why: impl Into<String>) -> GraphError {
    GraphError::BadParameter {
        family: family.to_string(),
        why: why.into(),
    }
}

fn numbered(prefix: &str, n: usize) -> Vec<String> {
    (0..n).map(|i| format!("{prefix}{i}")).collect()
}

/// The generalized Petersen graph GP(n, k): outer cycle u_i u_{i+1}, spokes u_i v_i, inner
/// edges v_i v_{i+k}, for n ≥ 3 and 1 ≤ k < n/2 (k = n/2 would make the inner edges a
/// perfect matching counted twice, and k > n/2 repeats GP(n, n − k)).
pub fn generalized_petersen(n: u64, k: u64) -> Result<Graph, GraphError> {
    let name = format!("GP_{{{n},{k}}}");
    if n < 3 {
        return Err(bad(&name, "a generalized Petersen graph needs n >= 3"));
    }
    if k < 1 || 2 * k >= n {
        return Err(bad(
            &name,
            format!(
                "GP_{{n,k}} needs 1 <= k < n/2 (here n = {n}, so k in 1..={})",
                (n - 1) / 2
            ),
        ));
    }
    if n > (super::MAX_VERTICES / 2) as u64 {
        return Err(GraphError::TooLarge {
            name,
            n: (n as usize).saturating_mul(2),
        });
    }
    let (n, k) = (n as usize, k as usize);
    let mut names = numbered("u", n);
    names.extend(numbered("v", n));
    let mut edges = Vec::with_capacity(3 * n);
    for i in 0..n {
        edges.push((i, (i + 1) % n));
        edges.push((i, n + i));
        edges.push((n + i, n + (i + k) % n));
    }
    Graph::new(name, names, &edges)
}

/// A cubic Hamiltonian graph in LCF notation: v0..v(n−1) around the cycle, and v_i joined to
/// v_{i + jumps[i mod len]} (each chord is listed from both ends; duplicates merge).
fn lcf(name: &str, jumps: &[i64], repeat: usize) -> Graph {
    let n = jumps.len() * repeat;
    let mut edges: Vec<(usize, usize)> = (0..n).map(|i| (i, (i + 1) % n)).collect();
    for i in 0..n {
        let j = (i as i64 + jumps[i % jumps.len()]).rem_euclid(n as i64) as usize;
        edges.push((i.min(j), i.max(j)));
    }
    Graph::new(name, numbered("v", n), &edges).expect("an LCF graph is a valid graph")
}

fn dodecahedron() -> Graph {
    let mut names = numbered("a", 5);
    names.extend(numbered("b", 10));
    names.extend(numbered("c", 5));
    let (a, b, c) = (
        |i: usize| i % 5,
        |i: usize| 5 + i % 10,
        |i: usize| 15 + i % 5,
    );
    let mut edges = Vec::new();
    for i in 0..5 {
        edges.push((a(i), a(i + 1)));
        edges.push((c(i), c(i + 1)));
        edges.push((a(i), b(2 * i)));
        edges.push((c(i), b(2 * i + 1)));
    }
    edges.extend((0..10).map(|i| (b(i), b(i + 1))));
    Graph::new("Dodecahedron", names, &edges).expect("the dodecahedron is a valid graph")
}

fn icosahedron() -> Graph {
    let mut names = vec!["t".to_string()];
    names.extend(numbered("a", 5));
    names.extend(numbered("b", 5));
    names.push("s".into());
    let (a, b) = (|i: usize| 1 + i % 5, |i: usize| 6 + i % 5);
    let mut edges = Vec::new();
    for i in 0..5 {
        edges.push((0, a(i)));
        edges.push((a(i), a(i + 1)));
        edges.push((b(i), b(i + 1)));
        edges.push((a(i), b(i)));
        edges.push((a(i), b(i + 1)));
        edges.push((11, b(i)));
    }
    Graph::new("Icosahedron", names, &edges).expect("the icosahedron is a valid graph")
}

fn clebsch() -> Graph {
    let names = (0..16).map(|x| format!("{x:04b}")).collect();
    let mut edges = Vec::new();
    for x in 0..16usize {
        for y in [x ^ 1, x ^ 2, x ^ 4, x ^ 8, x ^ 15] {
            if x < y {
                edges.push((x, y));
            }
        }
    }
    Graph::new("Clebsch", names, &edges).expect("the Clebsch graph is a valid graph")
}

fn grotzsch() -> Graph {
    let mut names = numbered("v", 5);
    names.extend(numbered("u", 5));
    names.push("w".into());
    let mut edges = Vec::new();
    for i in 0..5 {
        let next = (i + 1) % 5;
        edges.push((i, next));
        edges.push((5 + i, next));
        edges.push((5 + next, i));
        edges.push((5 + i, 10));
    }
    Graph::new("Grotzsch", names, &edges).expect("the Grötzsch graph is a valid graph")
}

fn chvatal() -> Graph {
    const ADJ: [(usize, &[usize]); 10] = [
        (0, &[1, 4, 6, 9]),
        (1, &[2, 5, 7]),
        (2, &[3, 6, 8]),
        (3, &[4, 7, 9]),
        (4, &[5, 8]),
        (5, &[10, 11]),
        (6, &[10, 11]),
        (7, &[8, 11]),
        (8, &[10]),
        (9, &[10, 11]),
    ];
    let edges: Vec<(usize, usize)> = ADJ
        .iter()
        .flat_map(|&(a, bs)| bs.iter().map(move |&b| (a, b)))
        .collect();
    Graph::new("Chvatal", numbered("v", 12), &edges).expect("the Chvátal graph is a valid graph")
}

/// One named graph: its names (the first is the one printed) and its construction.
pub struct Named {
    pub names: &'static [&'static str],
    pub build: fn() -> Graph,
}

fn petersen() -> Graph {
    let g = generalized_petersen(5, 2).expect("GP(5,2) is a valid graph");
    g.with_name("Petersen")
}

/// Every named graph [`lookup`] reads.
pub const NAMED: &[Named] = &[
    Named {
        names: &["Petersen"],
        build: petersen,
    },
    Named {
        names: &["Heawood"],
        build: || lcf("Heawood", &[5, -5], 7),
    },
    Named {
        names: &["MoebiusKantor", "MobiusKantor"],
        build: || lcf("MoebiusKantor", &[5, -5], 8),
    },
    Named {
        names: &["Pappus"],
        build: || lcf("Pappus", &[5, 7, -7, 7, -7, -5], 3),
    },
    Named {
        names: &["Desargues"],
        build: || lcf("Desargues", &[5, -5, 9, -9], 5),
    },
    Named {
        names: &["Dodecahedron"],
        build: dodecahedron,
    },
    Named {
        names: &["Icosahedron"],
        build: icosahedron,
    },
    Named {
        names: &["Clebsch"],
        build: clebsch,
    },
    Named {
        names: &["Grotzsch", "Groetzsch"],
        build: grotzsch,
    },
    Named {
        names: &["Chvatal"],
        build: chvatal,
    },
];

/// The named graph of this name (or alias), if any.
pub fn lookup(name: &str) -> Option<Graph> {
    NAMED
        .iter()
        .find(|n| n.names.contains(&name))
        .map(|n| (n.build)())
}
