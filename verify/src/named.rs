//! The verifier's own named graphs (`Petersen`, `Heawood`, `MoebiusKantor`, `Pappus`,
//! `Desargues`, `Dodecahedron`, `Icosahedron`, `Clebsch`, `Grotzsch`, `Chvatal`), the
//! generalized Petersen graphs `GP_{n,k}`, and graphs read from edge-list files (`file:`),
//! written from the definitions, not from grundy's code. Certificates are compared edge for
//! edge, so the vertex numbering is the one grundy's guide documents:
//!
//! - GP(n, k), 3 ≤ n and 1 ≤ k < n/2: u_i = i on the outer cycle, v_i = n + i inside; edges
//!   u_i u_{i+1}, u_i v_i, v_i v_{i+k} (mod n). The Petersen graph is GP(5, 2).
//! - Heawood, Möbius–Kantor, Pappus, Desargues: a Hamiltonian cycle 0..n−1 and the chords of
//!   the LCF codes [5,−5]^7, [5,−5]^8, [5,7,−7,7,−7,−5]^3, [5,−5,9,−9]^5.
//! - The dodecahedron's Schlegel diagram: pentagon a_i = i, 10-cycle b_j = 5 + j, pentagon
//!   c_i = 15 + i; a_i b_{2i}, c_i b_{2i+1}.
//! - The icosahedron: pole 0, pentagon a_i = 1 + i, pentagon b_i = 6 + i, pole 11; a_i b_i,
//!   a_i b_{i+1}.
//! - Clebsch: the folded 5-cube on 0..15, x ~ y when x xor y has one bit or is 1111.
//! - Grötzsch: Mycielski's construction on C_5: v_i = i, u_i = 5 + i (joined to v_{i±1}), the
//!   apex 10 joined to every u_i.
//! - Chvátal: the 24 edges of Chvátal's 1970 graph as networkx lists them.
//! - `file:PATH`: an edge list (`u v` per line, `#` comments, a lone name is a vertex), the
//!   vertices numbered in the order they first appear; PATH relative to the folder of the
//!   spec being verified ([`in_folder`]).

use crate::games::Graph;
use std::cell::RefCell;
use std::path::{Path, PathBuf};

/// Most vertices of a `GP_{n,k}` or a graph file here.
const MAX_VERTICES: usize = 100_000;
/// Largest graph file read.
const MAX_FILE_BYTES: u64 = 16 << 20;

fn lcf(jumps: &[i64], times: usize) -> Graph {
    let n = jumps.len() * times;
    let mut set = std::collections::BTreeSet::new();
    for i in 0..n {
        set.insert((i.min((i + 1) % n), i.max((i + 1) % n)));
        let j = (i as i64 + jumps[i % jumps.len()]).rem_euclid(n as i64) as usize;
        set.insert((i.min(j), i.max(j)));
    }
    Graph {
        n,
        edges: set.into_iter().collect(),
    }
}

/// GP(n, k), or why not.
pub fn generalized_petersen(n: usize, k: usize) -> Result<Graph, String> {
    if n < 3 || k == 0 || 2 * k >= n || 2 * n > MAX_VERTICES {
        return Err(format!(
            "GP_{{{n},{k}}} is not a generalized Petersen graph (3 <= n, 1 <= k < n/2)"
        ));
    }
    let mut edges = Vec::new();
    for i in 0..n {
        edges.push((i, (i + 1) % n));
        edges.push((i, n + i));
        edges.push((n + i, n + (i + k) % n));
    }
    Ok(Graph { n: 2 * n, edges })
}

/// The named graph of this name, if it is one.
pub fn named(name: &str) -> Option<Graph> {
    let g = match name {
        "Petersen" => generalized_petersen(5, 2).ok()?,
        // Seed 000, Example 2.6: x pendant at y, and the 4-cycle y, u, w, v.
        "Kite" => Graph {
            n: 5,
            edges: vec![(0, 1), (1, 2), (1, 3), (2, 4), (3, 4)],
        },
        "Heawood" => lcf(&[5, -5], 7),
        "MoebiusKantor" | "MobiusKantor" => lcf(&[5, -5], 8),
        "Pappus" => lcf(&[5, 7, -7, 7, -7, -5], 3),
        "Desargues" => lcf(&[5, -5, 9, -9], 5),
        "Dodecahedron" => {
            let mut edges = Vec::new();
            for i in 0..5 {
                edges.push((i, (i + 1) % 5));
                edges.push((15 + i, 15 + (i + 1) % 5));
                edges.push((i, 5 + 2 * i));
                edges.push((15 + i, 5 + 2 * i + 1));
            }
            for j in 0..10 {
                edges.push((5 + j, 5 + (j + 1) % 10));
            }
            Graph { n: 20, edges }
        }
        "Icosahedron" => {
            let mut edges = Vec::new();
            for i in 0..5 {
                let (a, a1, b, b1) = (1 + i, 1 + (i + 1) % 5, 6 + i, 6 + (i + 1) % 5);
                edges.extend([(0, a), (a, a1), (b, b1), (a, b), (a, b1), (b, 11)]);
            }
            Graph { n: 12, edges }
        }
        "Clebsch" => {
            let mut edges = Vec::new();
            for x in 0..16usize {
                for y in x + 1..16 {
                    let d = x ^ y;
                    if d.count_ones() == 1 || d == 15 {
                        edges.push((x, y));
                    }
                }
            }
            Graph { n: 16, edges }
        }
        "Grotzsch" | "Groetzsch" => {
            let mut edges = Vec::new();
            for i in 0..5 {
                let (prev, next) = ((i + 4) % 5, (i + 1) % 5);
                edges.push((i, next));
                edges.push((5 + i, prev));
                edges.push((5 + i, next));
                edges.push((5 + i, 10));
            }
            Graph { n: 11, edges }
        }
        "Chvatal" => Graph {
            n: 12,
            edges: vec![
                (0, 1),
                (0, 4),
                (0, 6),
                (0, 9),
                (1, 2),
                (1, 5),
                (1, 7),
                (2, 3),
                (2, 6),
                (2, 8),
                (3, 4),
                (3, 7),
                (3, 9),
                (4, 5),
                (4, 8),
                (5, 10),
                (5, 11),
                (6, 10),
                (6, 11),
                (7, 8),
                (7, 11),
                (8, 10),
                (9, 10),
                (9, 11),
            ],
        },
        _ => return None,
    };
    Some(g)
}

thread_local! {
    /// The folder of the spec being verified on this thread.
    static FOLDER: RefCell<Option<PathBuf>> = const { RefCell::new(None) };
}

/// Runs `f` with relative `file:` paths read from `folder` (the spec's), as grundy reads them.
pub fn in_folder<R>(folder: Option<&Path>, f: impl FnOnce() -> R) -> R {
    struct Back(Option<PathBuf>);
    impl Drop for Back {
        fn drop(&mut self) {
            let old = self.0.take();
            FOLDER.with(|d| *d.borrow_mut() = old);
        }
    }
    let _back = Back(FOLDER.with(|d| d.replace(folder.map(Path::to_path_buf))));
    f()
}

/// An edge-list file as a graph (vertices in order of first appearance); a DOT file is
/// refused (the verifier has no DOT reader), as is anything else it cannot read exactly.
pub fn from_file(path: &str) -> Result<Graph, String> {
    let p = Path::new(path);
    let full = match FOLDER.with(|d| d.borrow().clone()) {
        Some(dir) if p.is_relative() => dir.join(p),
        _ => p.to_path_buf(),
    };
    let text = crate::io::read_regular_text(&full, MAX_FILE_BYTES)?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let head = text.trim_start().to_ascii_lowercase();
    if matches!(p.extension().and_then(|e| e.to_str()), Some("dot" | "gv"))
        || ["graph", "strict", "digraph"]
            .iter()
            .any(|h| head.starts_with(h))
    {
        return Err(format!(
            "file:{path} is a DOT file; the verifier reads edge lists only"
        ));
    }
    let mut index: std::collections::HashMap<String, usize> = Default::default();
    let mut seen = std::collections::HashSet::new();
    let mut edges = Vec::new();
    let id = |name: &str, index: &mut std::collections::HashMap<String, usize>| {
        let next = index.len();
        *index.entry(name.to_string()).or_insert(next)
    };
    for (ln, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("");
        let words: Vec<&str> = line
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|w| !w.is_empty())
            .collect();
        match words[..] {
            [] => {}
            [a] => {
                id(a, &mut index);
            }
            [a, b] => {
                let (x, y) = (id(a, &mut index), id(b, &mut index));
                if x == y {
                    return Err(format!("file:{path} line {}: a loop", ln + 1));
                }
                if seen.insert((x.min(y), x.max(y))) {
                    edges.push((x, y));
                }
            }
            _ => return Err(format!("file:{path} line {}: expected `u v`", ln + 1)),
        }
        if index.len() > MAX_VERTICES {
            return Err(format!("file:{path} has more than {MAX_VERTICES} vertices"));
        }
    }
    Ok(Graph {
        n: index.len(),
        edges,
    })
}
