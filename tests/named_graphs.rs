//! Named graphs and generalized Petersen graphs (issue 45, item 2; src/graph/named.rs), and
//! `file:` graphs that travel with their spec folder. The named graphs are checked against
//! facts of the literature (order, size, regularity, girth, diameter, chromatic number) and
//! against other constructions by isomorphism (GP(5,2) and the Kneser graph K(5,2) are the
//! Petersen graph, GP(n,1) the prism C_n □ K_2 = SP_{n,2}, GP(8,3) Möbius–Kantor, GP(10,3)
//! Desargues, GP(10,2) the dodecahedron, the Fano plane's incidence graph Heawood). Each rule
//! has a wrong variant beside it. That grundy and grundy-verify build the same edge sets for
//! each name is verify/tests/named_graphs.rs (certificates compared edge for edge).

use grundy::graph::{parse_large_graph, Graph};
use std::collections::VecDeque;
use std::path::Path;
use std::process::Command;

fn g(name: &str) -> Graph {
    parse_large_graph(name).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn adjacent(g: &Graph, a: usize, b: usize) -> bool {
    g.neighbours(a).binary_search(&b).is_ok()
}

/// Breadth-first distances from `s`.
fn distances(g: &Graph, s: usize) -> Vec<usize> {
    let mut d = vec![usize::MAX; g.n()];
    d[s] = 0;
    let mut q = VecDeque::from([s]);
    while let Some(x) = q.pop_front() {
        for &y in g.neighbours(x) {
            if d[y] == usize::MAX {
                d[y] = d[x] + 1;
                q.push_back(y);
            }
        }
    }
    d
}

fn diameter(g: &Graph) -> usize {
    (0..g.n())
        .map(|s| *distances(g, s).iter().max().unwrap())
        .max()
        .unwrap()
}

/// The length of a shortest cycle (by breadth-first search from every vertex).
fn girth(g: &Graph) -> usize {
    let mut best = usize::MAX;
    for s in 0..g.n() {
        let mut d = vec![usize::MAX; g.n()];
        let mut parent = vec![usize::MAX; g.n()];
        d[s] = 0;
        let mut q = VecDeque::from([s]);
        while let Some(x) = q.pop_front() {
            for &y in g.neighbours(x) {
                if d[y] == usize::MAX {
                    d[y] = d[x] + 1;
                    parent[y] = x;
                    q.push_back(y);
                } else if parent[x] != y {
                    best = best.min(d[x] + d[y] + 1);
                }
            }
        }
    }
    best
}

/// The degree of every vertex when all are equal.
fn regular(g: &Graph) -> Option<u32> {
    let d = g.degree(0);
    (0..g.n()).all(|v| g.degree(v) == d).then_some(d)
}

fn colourable(g: &Graph, k: usize) -> bool {
    fn go(g: &Graph, k: usize, v: usize, col: &mut Vec<usize>) -> bool {
        if v == g.n() {
            return true;
        }
        for c in 0..k {
            if g.neighbours(v).iter().all(|&u| u >= v || col[u] != c) {
                col[v] = c;
                if go(g, k, v + 1, col) {
                    return true;
                }
            }
        }
        false
    }
    go(g, k, 0, &mut vec![0; g.n()])
}

fn chromatic(g: &Graph) -> usize {
    (1..).find(|&k| colourable(g, k)).unwrap()
}

/// Whether two connected graphs are isomorphic: vertices of `a` mapped in breadth-first
/// order, each to a vertex of `b` of its degree agreeing on adjacency with those mapped
/// before (a candidate must be a neighbour of the image of the vertex's BFS parent).
fn isomorphic(a: &Graph, b: &Graph) -> bool {
    if a.n() != b.n() || a.edge_count() != b.edge_count() {
        return false;
    }
    let mut degs_a: Vec<u32> = (0..a.n()).map(|v| a.degree(v)).collect();
    let mut degs_b: Vec<u32> = (0..b.n()).map(|v| b.degree(v)).collect();
    degs_a.sort_unstable();
    degs_b.sort_unstable();
    if degs_a != degs_b {
        return false;
    }
    // BFS order of a, with each vertex's parent.
    let mut order = vec![0];
    let mut parent = vec![usize::MAX; a.n()];
    let mut seen = vec![false; a.n()];
    seen[0] = true;
    let mut i = 0;
    while i < order.len() {
        let x = order[i];
        for &y in a.neighbours(x) {
            if !seen[y] {
                seen[y] = true;
                parent[y] = x;
                order.push(y);
            }
        }
        i += 1;
    }
    fn extend(
        a: &Graph,
        b: &Graph,
        order: &[usize],
        parent: &[usize],
        k: usize,
        map: &mut Vec<usize>,
        used: &mut Vec<bool>,
    ) -> bool {
        if k == order.len() {
            return true;
        }
        let x = order[k];
        let candidates: Vec<usize> = if k == 0 {
            (0..b.n()).collect()
        } else {
            b.neighbours(map[parent[x]]).to_vec()
        };
        for y in candidates {
            if used[y] || a.degree(x) != b.degree(y) {
                continue;
            }
            let fits = order[..k]
                .iter()
                .all(|&w| adjacent(a, x, w) == adjacent(b, y, map[w]));
            if fits {
                map[x] = y;
                used[y] = true;
                if extend(a, b, order, parent, k + 1, map, used) {
                    return true;
                }
                used[y] = false;
            }
        }
        false
    }
    extend(
        a,
        b,
        &order,
        &parent,
        0,
        &mut vec![usize::MAX; a.n()],
        &mut vec![false; b.n()],
    )
}

/// A graph from an edge list over vertex indices 0..n.
fn from_edges(name: &str, n: usize, edges: &[(usize, usize)]) -> Graph {
    Graph::new(name, (0..n).map(|i| i.to_string()).collect(), edges).unwrap()
}

/// The Kneser graph K(5,2): the 2-subsets of {0..4}, adjacent when disjoint.
fn kneser_5_2() -> Graph {
    let pairs: Vec<(usize, usize)> = (0..5)
        .flat_map(|a| (a + 1..5).map(move |b| (a, b)))
        .collect();
    let mut edges = Vec::new();
    for (i, p) in pairs.iter().enumerate() {
        for (j, q) in pairs.iter().enumerate().skip(i + 1) {
            if p.0 != q.0 && p.0 != q.1 && p.1 != q.0 && p.1 != q.1 {
                edges.push((i, j));
            }
        }
    }
    from_edges("K(5,2)", 10, &edges)
}

/// The incidence graph of the Fano plane: points 0..6, lines {i, i+1, i+3} mod 7 at 7..13.
fn fano_incidence() -> Graph {
    let mut edges = Vec::new();
    for l in 0..7 {
        for d in [0, 1, 3] {
            edges.push(((l + d) % 7, 7 + l));
        }
    }
    from_edges("Fano", 14, &edges)
}

#[test]
fn named_graphs_have_their_textbook_invariants() {
    // (name, vertices, edges, degree if regular, girth, diameter)
    type Facts = (&'static str, usize, usize, Option<u32>, usize, usize);
    let facts: [Facts; 10] = [
        ("Petersen", 10, 15, Some(3), 5, 2),
        ("Heawood", 14, 21, Some(3), 6, 3),
        ("MoebiusKantor", 16, 24, Some(3), 6, 4),
        ("Pappus", 18, 27, Some(3), 6, 4),
        ("Desargues", 20, 30, Some(3), 6, 5),
        ("Dodecahedron", 20, 30, Some(3), 5, 5),
        ("Icosahedron", 12, 30, Some(5), 3, 3),
        ("Clebsch", 16, 40, Some(5), 4, 2),
        ("Grotzsch", 11, 20, None, 4, 2),
        ("Chvatal", 12, 24, Some(4), 4, 2),
    ];
    for (name, n, m, deg, gi, diam) in facts {
        let x = g(name);
        assert_eq!((x.n(), x.edge_count()), (n, m), "{name}");
        assert_eq!(regular(&x), deg, "{name}");
        assert_eq!(girth(&x), gi, "{name}");
        assert_eq!(diameter(&x), diam, "{name}");
    }
    // Grötzsch and Chvátal: triangle-free (girth 4 above) and 4-chromatic; the Petersen graph
    // is 3-chromatic. Wrong variant: C_5 + a chord has a triangle and is 3-chromatic.
    assert_eq!(chromatic(&g("Grotzsch")), 4);
    assert_eq!(chromatic(&g("Chvatal")), 4);
    assert_eq!(chromatic(&g("Petersen")), 3);
    let chord = from_edges(
        "C5+chord",
        5,
        &[(0, 1), (1, 2), (2, 3), (3, 4), (4, 0), (0, 2)],
    );
    assert_eq!((girth(&chord), chromatic(&chord)), (3, 3));
    // Bipartite: Heawood, Möbius–Kantor, Pappus, Desargues (the Petersen graph is not).
    for name in ["Heawood", "MoebiusKantor", "Pappus", "Desargues"] {
        assert_eq!(chromatic(&g(name)), 2, "{name}");
    }
    // The Clebsch graph is strongly regular (16, 5, 0, 2): adjacent vertices have no common
    // neighbour, non-adjacent ones exactly two.
    let c = g("Clebsch");
    for a in 0..16 {
        for b in a + 1..16 {
            let common = (0..16)
                .filter(|&w| adjacent(&c, a, w) && adjacent(&c, b, w))
                .count();
            assert_eq!(common, if adjacent(&c, a, b) { 0 } else { 2 }, "{a} {b}");
        }
    }
    // Every vertex of the icosahedron sees a pentagon.
    let ico = g("Icosahedron");
    for v in 0..12 {
        let nb = ico.neighbours(v);
        for &x in nb {
            let inside = nb.iter().filter(|&&y| adjacent(&ico, x, y)).count();
            assert_eq!(inside, 2, "vertex {v}");
        }
    }
    // Aliases name the same graphs.
    assert_eq!(g("MobiusKantor").edges(), g("MoebiusKantor").edges());
    assert_eq!(g("Groetzsch").edges(), g("Grotzsch").edges());
}

#[test]
fn generalized_petersen_graphs_are_the_named_ones() {
    assert!(isomorphic(&g("GP_{5,2}"), &g("Petersen")));
    assert!(isomorphic(&g("Petersen"), &kneser_5_2()));
    assert!(isomorphic(&g("GP_{8,3}"), &g("MoebiusKantor")));
    assert!(isomorphic(&g("GP_{10,3}"), &g("Desargues")));
    assert!(isomorphic(&g("GP_{10,2}"), &g("Dodecahedron")));
    assert!(isomorphic(&g("Heawood"), &fano_incidence()));
    for n in 3..=9 {
        assert!(
            isomorphic(&g(&format!("GP_{{{n},1}}")), &g(&format!("SP_{{{n},2}}"))),
            "GP({n},1) is the prism"
        );
    }
    // Wrong variants: same order, size and degrees, other graphs.
    assert!(!isomorphic(&g("GP_{8,3}"), &g("GP_{8,1}")));
    assert!(!isomorphic(&g("GP_{10,2}"), &g("GP_{10,3}")));
    assert!(!isomorphic(&g("GP_{5,1}"), &g("Petersen")));
    assert!(!isomorphic(&g("Dodecahedron"), &g("Desargues")));
    // Numbering: outer u0..u(n-1) at 0..n-1, inner v0..v(n-1) at n..2n-1.
    let p = g("GP_{7,3}");
    assert_eq!(p.vertex_name(0), "u0");
    assert_eq!(p.vertex_name(7), "v0");
    assert_eq!(p.neighbours(0), &[1, 6, 7]);
    assert_eq!(p.neighbours(7), &[0, 10, 11]);
}

#[test]
fn generalized_petersen_parameters_out_of_range_are_refused() {
    for bad in [
        "GP_{6,3}",
        "GP_{7,4}",
        "GP_{7,0}",
        "GP_{2,1}",
        "GP_{5}",
        "GP_{5,2,1}",
    ] {
        let e = parse_large_graph(bad).expect_err(bad).to_string();
        assert!(e.contains("GP"), "{bad}: {e}");
    }
    let e = parse_large_graph("GP_{6,3}").unwrap_err().to_string();
    assert!(e.contains("1 <= k < n/2"), "{e}");
    assert!(parse_large_graph("GP_{7,3}").is_ok());
}

fn grundy(dir: &Path, args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).to_string() + &*String::from_utf8_lossy(&out.stderr),
    )
}

#[test]
fn a_wrong_name_lists_the_names_and_the_help_lists_them_too() {
    let d = tempfile::tempdir().unwrap();
    let (code, out) = grundy(d.path(), &["solve", "TER(Petersn)"]);
    assert_eq!(code, 2, "{out}");
    for name in [
        "Petersen",
        "Heawood",
        "MoebiusKantor",
        "Chvatal",
        "GP_{n,k}",
        "Grid_{a,b}",
    ] {
        assert!(out.contains(name), "{name} missing from {out}");
    }
    let (_, help) = grundy(d.path(), &["solve", "--help"]);
    for name in ["Petersen", "Dodecahedron", "GP_{n,k}"] {
        assert!(help.contains(name), "{name} missing from the help");
    }
    // A right name solves: the Petersen graph's Node Kayles value (below).
    let (code, out) = grundy(d.path(), &["solve", "NK(Petersen)"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("= 1"), "{out}");
}

/// nim of Node Kayles from the full vertex set, by brute force over vertex masks.
fn node_kayles(g: &Graph) -> u32 {
    let n = g.n();
    let closed: Vec<u32> = (0..n)
        .map(|v| g.neighbours(v).iter().fold(1u32 << v, |m, &u| m | 1 << u))
        .collect();
    let mut value = vec![0u32; 1 << n];
    for p in 1..(1usize << n) {
        let mut opts = Vec::new();
        for v in (0..n).filter(|&v| p >> v & 1 == 1) {
            opts.push(value[p & !(closed[v] as usize)]);
        }
        value[p] = (0..).find(|m| !opts.contains(m)).unwrap();
    }
    value[(1 << n) - 1]
}

#[test]
fn the_petersen_spec_holds_and_its_value_is_cross_checked() {
    // specs/classics/node_kayles_petersen.yaml claims nim(NK(Petersen)) = 1.
    assert_eq!(node_kayles(&g("Petersen")), 1);
    assert_eq!(node_kayles(&kneser_5_2()), 1);
    // Wrong variant: the prism on 10 vertices has value 0.
    assert_eq!(node_kayles(&g("GP_{5,1}")), 0);
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let (code, out) = grundy(root, &["check", "specs/classics/node_kayles_petersen.yaml"]);
    assert_eq!(code, 0, "{out}");
    // The spec with the value changed is refuted (exit 1).
    let d = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(root.join("specs/classics/node_kayles_petersen.yaml"))
        .unwrap()
        .replace("nim: 1", "nim: 0");
    std::fs::write(d.path().join("nk_petersen_wrong.yaml"), text).unwrap();
    let (code, out) = grundy(d.path(), &["check", "nk_petersen_wrong.yaml"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("REFUTED"), "{out}");
}

#[test]
fn a_spec_reads_its_file_graph_from_its_own_folder() {
    let d = tempfile::tempdir().unwrap();
    let root = d.path();
    let demo = root.join("project/specs/demo");
    std::fs::create_dir_all(demo.join("graphs")).unwrap();
    // The path P_4 a-b-c-d: NK(P_4) = nim(DC(4)) = 0, TER(P_4) = 1.
    std::fs::write(demo.join("graphs/g.txt"), "a b\nb c\nc d\n").unwrap();
    let spec = |game: &str, nim: u32| {
        format!(
            "kind: claim\nsource: \"Test\"\nstatement: a file graph\ngame: {game}\nnim: {nim}\n"
        )
    };
    std::fs::write(demo.join("nk_file.yaml"), spec("NK(file:graphs/g.txt)", 0)).unwrap();
    std::fs::write(
        demo.join("ter_file.yaml"),
        spec("TER(file:graphs/g.txt)", 1),
    )
    .unwrap();
    // An absolute path stays absolute.
    let abs = demo.join("graphs/g.txt");
    std::fs::write(
        demo.join("abs_file.yaml"),
        spec(&format!("TER(file:{})", abs.display()), 1),
    )
    .unwrap();
    // Checked and built from the folder above the project: the spec's folder is what counts.
    let (code, out) = grundy(root, &["check", "project/specs"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("3 specs: 3 as expected"), "{out}");
    let (code, out) = grundy(
        root,
        &["build", "--specs", "project/specs", "--output", "out"],
    );
    assert_eq!(code, 0, "{out}");
    // The artifacts name the graph as the spec writes it, wherever the folder lies.
    assert!(root.join("out/certificates/nk_file.json").is_file());
    let page = std::fs::read_to_string(root.join("out/site/demo/nk_file.html")).unwrap();
    assert!(page.contains("file:graphs/g.txt"), "{page}");
    assert!(!page.contains("specs/demo/graphs"), "{page}");
    // On the command line, `file:` resolves against the current folder.
    let (code, out) = grundy(root, &["solve", "TER(file:graphs/g.txt)"]);
    assert_eq!(code, 2, "{out}");
    let (code, out) = grundy(&demo, &["solve", "TER(file:graphs/g.txt)"]);
    assert_eq!(code, 0, "{out}");
    // Wrong variant: the edge list beside the project root, not beside the spec, is not read.
    std::fs::create_dir_all(root.join("graphs")).unwrap();
    std::fs::rename(demo.join("graphs/g.txt"), root.join("graphs/g.txt")).unwrap();
    let (code, out) = grundy(root, &["check", "project/specs/demo/nk_file.yaml"]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("graphs/g.txt"), "{out}");
}

#[test]
fn init_starts_a_project_whose_graph_file_travels_with_its_spec() {
    let d = tempfile::tempdir().unwrap();
    let (code, out) = grundy(d.path(), &["init", "p"]);
    assert_eq!(code, 0, "{out}");
    let spec = d.path().join("p/specs/example/house.yaml");
    let text = std::fs::read_to_string(&spec).unwrap();
    assert!(text.contains("file:graphs/house.txt"), "{text}");
    assert!(d.path().join("p/specs/example/graphs/house.txt").is_file());
    // Checked from outside the project, and from inside it.
    let (code, out) = grundy(d.path(), &["check", "p/specs/example/house.yaml"]);
    assert_eq!(code, 0, "{out}");
    let (code, out) = grundy(&d.path().join("p"), &["check"]);
    assert_eq!(code, 0, "{out}");
    // The whole project moved elsewhere still checks (nothing names where it was).
    std::fs::rename(d.path().join("p"), d.path().join("q")).unwrap();
    let (code, out) = grundy(d.path(), &["check", "q/specs/example/house.yaml"]);
    assert_eq!(code, 0, "{out}");
}

#[test]
fn generalized_petersen_graphs_are_drawn_as_two_rings() {
    use grundy::check::figure::{clearance, mini_coords, MINI_CLEARANCE};
    for name in [
        "Petersen", "GP_{5,2}", "GP_{7,3}", "GP_{8,3}", "GP_{6,1}", "GP_{9,4}",
    ] {
        let x = g(name);
        let at = mini_coords(&x);
        let n = x.n() / 2;
        for (v, p) in at.iter().enumerate() {
            let r = p.0.hypot(p.1);
            let want = if v < n { 1.0 } else { 0.5 };
            assert!((r - want).abs() < 1e-9, "{name}: vertex {v} at radius {r}");
        }
        // Each v_i under its u_i, and no edge through a vertex it does not join.
        for i in 0..n {
            let (u, v) = (at[i], at[n + i]);
            assert!(
                (u.0 * v.1 - u.1 * v.0).abs() < 1e-9,
                "{name}: v{i} not under u{i}"
            );
        }
        assert!(clearance(&x, &at) >= MINI_CLEARANCE, "{name}");
    }
    // GP_{10,2} in two rings would have the inner edge v0 v2 pass by v1: drawn otherwise,
    // clear of its vertices.
    let dodeca = g("GP_{10,2}");
    let at = mini_coords(&dodeca);
    assert!((10..20).any(|v| (at[v].0.hypot(at[v].1) - 0.5).abs() > 1e-6));
    // Wrong variant: another graph on 10 vertices is not drawn as two rings.
    let at = mini_coords(&g("Grid_{2,5}"));
    assert!(at
        .iter()
        .any(|p| (p.0.hypot(p.1) - 0.5).abs() > 1e-6 && (p.0.hypot(p.1) - 1.0).abs() > 1e-6));
}
