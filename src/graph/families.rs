//! The named graph families of the paper, with the paper's vertex names, and the parser for
//! graph names such as `C_9`, `K_{2,2,3}`, `W_{2,5}` or `graph6:Dhc`.

use super::{io, Graph, GraphError, MAX_EDGES, MAX_VERTICES};

fn v(i: usize) -> String {
    format!("v{i}")
}

fn too_large(name: &str, n: u64) -> Result<(), GraphError> {
    if n > MAX_VERTICES as u64 {
        Err(GraphError::TooLarge {
            name: name.to_string(),
            n: n as usize,
        })
    } else {
        Ok(())
    }
}

/// Refuses a dense family before its edges are built.
fn too_many_edges(name: &str, edges: u128) -> Result<(), GraphError> {
    if edges > MAX_EDGES as u128 {
        Err(GraphError::TooManyEdges {
            name: name.to_string(),
            edges,
        })
    } else {
        Ok(())
    }
}

fn bad(family: &str, why: impl Into<String>) -> GraphError {
    GraphError::BadParameter {
        family: family.to_string(),
        why: why.into(),
    }
}

/// Path P_n with vertices v1..vn.
pub fn path(n: u64) -> Result<Graph, GraphError> {
    let name = format!("P_{n}");
    if n < 1 {
        return Err(bad(&name, "a path needs n >= 1"));
    }
    too_large(&name, n)?;
    let n = n as usize;
    let edges: Vec<_> = (1..n).map(|i| (i - 1, i)).collect();
    Graph::new(name, (1..=n).map(v).collect(), &edges)
}

/// Cycle C_n with vertices v1..vn, v_i ~ v_{i+1} mod n.
pub fn cycle(n: u64) -> Result<Graph, GraphError> {
    let name = format!("C_{n}");
    if n < 3 {
        return Err(bad(&name, "a cycle needs n >= 3"));
    }
    too_large(&name, n)?;
    let n = n as usize;
    let edges: Vec<_> = (0..n).map(|i| (i, (i + 1) % n)).collect();
    Graph::new(name, (1..=n).map(v).collect(), &edges)
}

/// Complete graph K_n with vertices v1..vn.
pub fn complete(n: u64) -> Result<Graph, GraphError> {
    let name = format!("K_{n}");
    if n < 1 {
        return Err(bad(&name, "K_n needs n >= 1"));
    }
    too_large(&name, n)?;
    too_many_edges(&name, n as u128 * (n as u128 - 1) / 2)?;
    let n = n as usize;
    let mut edges = Vec::new();
    for a in 0..n {
        for b in a + 1..n {
            edges.push((a, b));
        }
    }
    Graph::new(name, (1..=n).map(v).collect(), &edges)
}

fn part_letter(i: usize, k: usize) -> String {
    if k <= 26 {
        ((b'a' + i as u8) as char).to_string()
    } else {
        format!("p{}_", i + 1)
    }
}

/// Complete multipartite K_{m1,...,mk}: part i has vertices a1.., b1.., … (K_{1,n} is the star
/// with centre a1 and leaves b1..bn).
pub fn multipartite(parts: &[u64]) -> Result<Graph, GraphError> {
    let name = format!(
        "K_{{{}}}",
        parts
            .iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join(",")
    );
    if parts.len() < 2 {
        return Err(bad(
            &name,
            "a complete multipartite graph needs at least two parts",
        ));
    }
    if parts.contains(&0) {
        return Err(bad(&name, "every part needs at least one vertex"));
    }
    let total = parts.iter().fold(0u64, |a, &b| a.saturating_add(b));
    too_large(&name, total)?;
    let squares: u128 = parts.iter().map(|&p| p as u128 * p as u128).sum();
    too_many_edges(&name, (total as u128 * total as u128 - squares) / 2)?;
    let mut names = Vec::new();
    let mut part_of = Vec::new();
    for (i, &m) in parts.iter().enumerate() {
        for j in 1..=m {
            names.push(format!("{}{}", part_letter(i, parts.len()), j));
            part_of.push(i);
        }
    }
    let mut edges = Vec::new();
    for a in 0..names.len() {
        for b in a + 1..names.len() {
            if part_of[a] != part_of[b] {
                edges.push((a, b));
            }
        }
    }
    Graph::new(name, names, &edges)
}

/// Complete split graph K_m + ~K_n: clique u1..um joined to the independent set x1..xn.
pub fn split(m: u64, n: u64) -> Result<Graph, GraphError> {
    let name = format!("Split_{{{m},{n}}}");
    if m < 1 || n < 1 {
        return Err(bad(&name, "a complete split graph needs m >= 1 and n >= 1"));
    }
    too_large(&name, m.saturating_add(n))?;
    too_many_edges(
        &name,
        m as u128 * (m as u128 - 1) / 2 + m as u128 * n as u128,
    )?;
    let (m, n) = (m as usize, n as usize);
    let mut names: Vec<String> = (1..=m).map(|i| format!("u{i}")).collect();
    names.extend((1..=n).map(|i| format!("x{i}")));
    let mut edges = Vec::new();
    for a in 0..m {
        for b in a + 1..m + n {
            edges.push((a, b));
        }
    }
    Graph::new(name, names, &edges)
}

/// Corona H∘K1: every vertex v of H gets a pendant vertex v'.
pub fn corona(h: &Graph) -> Result<Graph, GraphError> {
    let name = format!("Corona({})", h.name());
    let n = h.n();
    too_large(&name, 2 * n as u64)?;
    let mut names: Vec<String> = h.names().to_vec();
    names.extend(h.names().iter().map(|s| format!("{s}'")));
    let mut edges = h.edges();
    edges.extend((0..n).map(|i| (i, i + n)));
    Graph::new(name, names, &edges)
}

/// Generalised windmill Wd(n1,...,nl): cliques K_{n_i} glued at the centre c; block i has
/// vertices v{i}_1 .. v{i}_{n_i - 1} besides c.
pub fn windmill(blocks: &[u64]) -> Result<Graph, GraphError> {
    let name = format!(
        "Wd_{{{}}}",
        blocks
            .iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join(",")
    );
    if blocks.len() < 2 || blocks.iter().any(|&b| b < 2) {
        return Err(bad(
            &name,
            "a windmill needs at least two blocks, each of size >= 2",
        ));
    }
    too_large(
        &name,
        blocks.iter().fold(1u64, |a, &b| a.saturating_add(b - 1)),
    )?;
    too_many_edges(
        &name,
        blocks
            .iter()
            .map(|&b| b as u128 * (b as u128 - 1) / 2)
            .sum(),
    )?;
    let mut names = vec!["c".to_string()];
    let mut edges = Vec::new();
    for (i, &b) in blocks.iter().enumerate() {
        let first = names.len();
        for j in 1..b {
            names.push(format!("v{}_{}", i + 1, j));
        }
        let members: Vec<usize> = std::iter::once(0).chain(first..names.len()).collect();
        for x in 0..members.len() {
            for y in x + 1..members.len() {
                edges.push((members[x], members[y]));
            }
        }
    }
    Graph::new(name, names, &edges)
}

/// Wheel W_n with n vertices in all: rim v1..v_{n-1} (a cycle) and centre c.
pub fn wheel(n: u64) -> Result<Graph, GraphError> {
    let name = format!("W_{n}");
    if n < 4 {
        return Err(bad(&name, "a wheel needs n >= 4 vertices in all"));
    }
    too_large(&name, n)?;
    let r = n as usize - 1;
    let mut names: Vec<String> = (1..=r).map(v).collect();
    names.push("c".into());
    let mut edges: Vec<_> = (0..r).map(|i| (i, (i + 1) % r)).collect();
    edges.extend((0..r).map(|i| (i, r)));
    Graph::new(name, names, &edges)
}

/// Generalised wheel W_{m,n} = ~K_m + C_n: centres c1..cm, rim v1..vn.
pub fn gen_wheel(m: u64, n: u64) -> Result<Graph, GraphError> {
    let name = format!("W_{{{m},{n}}}");
    if m < 1 || n < 3 {
        return Err(bad(&name, "a generalised wheel needs m >= 1 and n >= 3"));
    }
    too_large(&name, m.saturating_add(n))?;
    too_many_edges(&name, (m as u128 + 1) * n as u128)?;
    let (m, n) = (m as usize, n as usize);
    let mut names: Vec<String> = (1..=m).map(|i| format!("c{i}")).collect();
    names.extend((1..=n).map(v));
    let mut edges: Vec<_> = (0..n).map(|i| (m + i, m + (i + 1) % n)).collect();
    for c in 0..m {
        edges.extend((0..n).map(|i| (c, m + i)));
    }
    Graph::new(name, names, &edges)
}

/// Hypercube Q_n on binary strings a1…an (vertex index = the string read in binary).
pub fn hypercube(n: u64) -> Result<Graph, GraphError> {
    let name = format!("Q_{n}");
    if n < 1 {
        return Err(bad(&name, "a hypercube needs n >= 1"));
    }
    if n > 16 {
        return Err(GraphError::TooLarge {
            name,
            n: 1usize << n.min(32),
        });
    }
    let n = n as usize;
    let count = 1usize << n;
    let names: Vec<String> = (0..count).map(|x| format!("{x:0n$b}")).collect();
    let mut edges = Vec::new();
    for x in 0..count {
        for b in 0..n {
            let y = x ^ (1 << b);
            if x < y {
                edges.push((x, y));
            }
        }
    }
    Graph::new(name, names, &edges)
}

/// Grid P_a × P_b with vertices (i,j).
pub fn grid(a: u64, b: u64) -> Result<Graph, GraphError> {
    let name = format!("Grid_{{{a},{b}}}");
    if a < 1 || b < 1 {
        return Err(bad(&name, "a grid needs a, b >= 1"));
    }
    too_large(&name, a.saturating_mul(b))?;
    let (a, b) = (a as usize, b as usize);
    let idx = |i: usize, j: usize| (i - 1) * b + (j - 1);
    let mut names = Vec::new();
    let mut edges = Vec::new();
    for i in 1..=a {
        for j in 1..=b {
            names.push(format!("({i},{j})"));
            if i < a {
                edges.push((idx(i, j), idx(i + 1, j)));
            }
            if j < b {
                edges.push((idx(i, j), idx(i, j + 1)));
            }
        }
    }
    Graph::new(name, names, &edges)
}

/// Stacked prism SP(M,n) = C_M □ P_n with vertices (i,j), i in 1..=M around the cycle, j in
/// 1..=n along the path (seed 002).
pub fn stacked_prism(m: u64, n: u64) -> Result<Graph, GraphError> {
    let name = format!("SP_{{{m},{n}}}");
    if m < 3 || n < 1 {
        return Err(bad(&name, "a stacked prism needs M >= 3 and n >= 1"));
    }
    too_large(&name, m.saturating_mul(n))?;
    let (m, n) = (m as usize, n as usize);
    let idx = |i: usize, j: usize| (j - 1) * m + (i - 1);
    let mut names = vec![String::new(); m * n];
    let mut edges = Vec::new();
    for j in 1..=n {
        for i in 1..=m {
            names[idx(i, j)] = format!("({i},{j})");
            edges.push((idx(i, j), idx(i % m + 1, j)));
            if j < n {
                edges.push((idx(i, j), idx(i, j + 1)));
            }
        }
    }
    Graph::new(name, names, &edges)
}

/// The kite of Example 2.6: edges xy, yu, yv, uw, vw.
pub fn kite() -> Graph {
    let names = ["x", "y", "u", "v", "w"].map(String::from).to_vec();
    Graph::new("Kite", names, &[(0, 1), (1, 2), (1, 3), (2, 4), (3, 4)])
        .expect("the kite is a valid graph")
}

fn params(family: &str, body: &str) -> Result<Vec<u64>, GraphError> {
    let t = body.trim();
    let t = t
        .strip_prefix('{')
        .and_then(|t| t.strip_suffix('}'))
        .unwrap_or(t);
    t.split(',')
        .map(|p| {
            p.trim().parse::<u64>().map_err(|_| {
                bad(
                    family,
                    format!("`{}` is not a non-negative integer", p.trim()),
                )
            })
        })
        .collect()
}

fn exactly<const N: usize>(family: &str, ps: Vec<u64>) -> Result<[u64; N], GraphError> {
    let len = ps.len();
    ps.try_into()
        .map_err(|_| bad(family, format!("expected {N} parameter(s), got {len}")))
}

/// Parses a graph name whose vertex sets fit a `u64` mask (at most 64 vertices; for TER,
/// DNT and the set families). See [`parse_large_graph`] for the names.
pub fn parse_graph(text: &str) -> Result<Graph, GraphError> {
    let g = parse_large_graph(text)?;
    g.require_mask()?;
    Ok(g)
}

/// One graph family of the game language, as `grundy solve --help` and the user guide list
/// it: the syntax, an example that parses, and the vertex names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FamilyDoc {
    pub syntax: &'static str,
    pub example: &'static str,
    pub meaning: &'static str,
}

const fn fam(syntax: &'static str, example: &'static str, meaning: &'static str) -> FamilyDoc {
    FamilyDoc {
        syntax,
        example,
        meaning,
    }
}

/// Every graph family [`parse_large_graph`] reads (a test parses each example and checks that
/// the unknown-family message names every family).
pub const FAMILIES: &[FamilyDoc] = &[
    fam("P_n", "P_5", "path, vertices v1..vn"),
    fam("C_n", "C_9", "cycle, vertices v1..vn"),
    fam("K_n", "K_4", "complete graph, vertices v1..vn"),
    fam(
        "K_{a,b,...}",
        "K_{1,3}",
        "complete multipartite graph, parts a1.., b1.., c1.., …",
    ),
    fam(
        "Split_{m,n}",
        "Split_{2,3}",
        "complete split graph K_m + ~K_n: clique u1..um, independent x1..xn",
    ),
    fam(
        "Corona(G)",
        "Corona(C_4)",
        "corona G∘K1: G's vertices and a pendant copy v' of each",
    ),
    fam(
        "Wd_{n1,...}",
        "Wd_{3,3,4}",
        "generalised windmill: cliques K_{n_i} glued at the centre c (block i: vi_1..)",
    ),
    fam(
        "W_n",
        "W_7",
        "wheel on n vertices in all: rim v1..v(n-1), centre c",
    ),
    fam(
        "W_{m,n}",
        "W_{2,5}",
        "generalised wheel: centres c1..cm, rim cycle v1..vn",
    ),
    fam(
        "Q_n",
        "Q_3",
        "hypercube, vertices the binary strings of length n",
    ),
    fam("Grid_{a,b}", "Grid_{3,4}", "grid P_a □ P_b, vertices (i,j)"),
    fam(
        "SP_{m,n}",
        "SP_{6,2}",
        "stacked prism C_m □ P_n, vertices (i,j) (seed 002)",
    ),
    fam(
        "Spider_{l1,...}",
        "Spider_{3,2,1}",
        "spider (subdivided star): centre c, leg i the path vi_1..vi_li",
    ),
    fam(
        "Kite",
        "Kite",
        "the kite of the paper: vertices x, y, u, v, w",
    ),
    fam(
        "GP_{n,k}",
        "GP_{5,2}",
        "generalized Petersen graph, 3 <= n, 1 <= k < n/2: outer cycle u0..u(n-1), spokes u_i v_i, inner edges v_i v_(i+k)",
    ),
    fam(
        "Petersen",
        "Petersen",
        "the Petersen graph GP_{5,2} (10 vertices, 3-regular, girth 5): outer u0..u4, inner v0..v4",
    ),
    fam(
        "Heawood",
        "Heawood",
        "the Heawood graph (14 vertices, girth 6): v0..v13 around a Hamiltonian cycle, LCF [5,-5]^7",
    ),
    fam(
        "MoebiusKantor",
        "MoebiusKantor",
        "the Möbius–Kantor graph ≅ GP_{8,3} (16 vertices, girth 6; alias MobiusKantor): v0..v15, LCF [5,-5]^8",
    ),
    fam(
        "Pappus",
        "Pappus",
        "the Pappus graph (18 vertices, girth 6): v0..v17, LCF [5,7,-7,7,-7,-5]^3",
    ),
    fam(
        "Desargues",
        "Desargues",
        "the Desargues graph ≅ GP_{10,3} (20 vertices, girth 6): v0..v19, LCF [5,-5,9,-9]^5",
    ),
    fam(
        "Dodecahedron",
        "Dodecahedron",
        "the dodecahedron ≅ GP_{10,2} (20 vertices, girth 5): outer pentagon a0..a4, middle cycle b0..b9, inner pentagon c0..c4",
    ),
    fam(
        "Icosahedron",
        "Icosahedron",
        "the icosahedron (12 vertices, 5-regular): poles t and s, pentagons a0..a4 and b0..b4",
    ),
    fam(
        "Clebsch",
        "Clebsch",
        "the (5-regular) Clebsch graph, the folded 5-cube (16 vertices, girth 4): the 4-bit strings",
    ),
    fam(
        "Grotzsch",
        "Grotzsch",
        "the Grötzsch graph, Mycielskian of C_5 (11 vertices, triangle-free, 4-chromatic; alias Groetzsch): cycle v0..v4, u0..u4, apex w",
    ),
    fam(
        "Chvatal",
        "Chvatal",
        "the Chvátal graph (12 vertices, 4-regular, triangle-free, 4-chromatic): v0..v11",
    ),
    fam(
        "graph6:<s>",
        "graph6:Bw",
        "any graph in graph6, vertices 0..n-1",
    ),
    fam(
        "file:<path>",
        "file:g.txt",
        "an edge list (`u v` per line) or a DOT file; in a spec, a relative path is read from the spec's folder",
    ),
];

/// Parses a graph name of any size up to [`MAX_VERTICES`] vertices: `P_5, C_9, K_4, K_{1,3},
/// K_{2,2,3}, Split_{2,3}, Corona(C_4), Wd_{3,3,4}, W_7, W_{2,5}, Q_3, Grid_{3,4}, SP_{6,2},
/// Spider_{3,2,1}, Kite, GP_{5,2}`, the named graphs of [`super::named`] (`Petersen`, …),
/// `graph6:<string>` and `file:<path>` (a relative path resolved by [`io::resolve`]).
pub fn parse_large_graph(text: &str) -> Result<Graph, GraphError> {
    let t = text.trim();
    if let Some(g6) = t.strip_prefix("graph6:") {
        return io::from_graph6(g6);
    }
    if let Some(path) = t.strip_prefix("file:") {
        // The graph keeps the name as written (artifacts do not depend on where the spec
        // folder lies); errors name the file read.
        let g = io::from_file(&io::resolve(std::path::Path::new(path)))?;
        return Ok(g.with_name(format!("file:{path}")));
    }
    if t == "Kite" {
        return Ok(kite());
    }
    if let Some(g) = super::named::lookup(t) {
        return Ok(g);
    }
    if let Some(inner) = t.strip_prefix("Corona(").and_then(|r| r.strip_suffix(')')) {
        // Each corona doubles the vertices (of at least 2): more than log2(MAX_VERTICES)
        // nested ones cannot fit, so refuse them before recursing (100,000 would overflow
        // the stack).
        let most = super::MAX_VERTICES.ilog2() as usize;
        if t.matches("Corona(").count() > most {
            return Err(bad(
                "Corona",
                format!("more than {most} nested coronas (each doubles the vertices)"),
            ));
        }
        let h = parse_large_graph(inner)?;
        if h.n() < 2 {
            return Err(bad("Corona", "the corona needs a nontrivial graph H"));
        }
        return corona(&h);
    }
    let (fam, body) = t
        .split_once('_')
        .ok_or_else(|| GraphError::UnknownFamily(t.to_string()))?;
    let ps = params(fam, body)?;
    match fam {
        "P" => path(exactly::<1>(fam, ps)?[0]),
        "C" => cycle(exactly::<1>(fam, ps)?[0]),
        "K" if ps.len() == 1 => complete(ps[0]),
        "K" => multipartite(&ps),
        "Split" => {
            let [m, n] = exactly::<2>(fam, ps)?;
            split(m, n)
        }
        "Wd" => windmill(&ps),
        "W" if ps.len() == 1 => wheel(ps[0]),
        "W" => {
            let [m, n] = exactly::<2>(fam, ps)?;
            gen_wheel(m, n)
        }
        "Q" => hypercube(exactly::<1>(fam, ps)?[0]),
        "Grid" => {
            let [a, b] = exactly::<2>(fam, ps)?;
            grid(a, b)
        }
        "SP" => {
            let [m, n] = exactly::<2>(fam, ps)?;
            stacked_prism(m, n)
        }
        "Spider" => super::spider::spider(&ps),
        "GP" => {
            let [n, k] = exactly::<2>(fam, ps)?;
            super::named::generalized_petersen(n, k)
        }
        _ => {
            let f = registered()
                .into_iter()
                .find(|f| f.head == fam)
                .ok_or_else(|| GraphError::UnknownFamily(t.to_string()))?;
            let g = (f.build)(&ps).map_err(|why| bad(fam, why))?;
            too_large(fam, g.n() as u64)?;
            Ok(g)
        }
    }
}

/// A graph family registered from outside the crate ([`register`]): `HEAD_n` or
/// `HEAD_{p1,p2,...}`, built from its parameters.
pub struct GraphFamily {
    /// The name before `_` (a word not taken by a built-in family).
    pub head: &'static str,
    pub doc: FamilyDoc,
    /// The graph of the parameters, or why there is none.
    pub build: fn(&[u64]) -> Result<Graph, String>,
}

/// The built-in heads of `HEAD_{...}` names ([`parse_large_graph`]).
const BUILTIN_HEADS: &[&str] = &[
    "P", "C", "K", "Split", "Wd", "W", "Q", "Grid", "SP", "Spider", "GP",
];

static EXTRA: std::sync::RwLock<Vec<&'static GraphFamily>> = std::sync::RwLock::new(Vec::new());

fn registered() -> Vec<&'static GraphFamily> {
    EXTRA.read().unwrap_or_else(|e| e.into_inner()).clone()
}

/// Registers a graph family defined outside the crate; refused when its head is taken or not
/// a word (registering the same one again is a no-op).
pub fn register(f: &'static GraphFamily) -> Result<(), String> {
    let mut extra = EXTRA.write().unwrap_or_else(|e| e.into_inner());
    if extra.iter().any(|g| std::ptr::eq(*g, f)) {
        return Ok(());
    }
    let word = f.head.starts_with(|c: char| c.is_ascii_alphabetic())
        && f.head.chars().all(|c| c.is_ascii_alphanumeric());
    if !word || BUILTIN_HEADS.contains(&f.head) || extra.iter().any(|g| g.head == f.head) {
        return Err(format!(
            "the graph family head `{}` is taken or not a word",
            f.head
        ));
    }
    extra.push(f);
    Ok(())
}

/// The syntax of every graph family, built-in and registered, for the message naming an
/// unknown one.
pub fn known() -> String {
    all_docs()
        .iter()
        .map(|f| f.syntax)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Every graph family's documentation: the built-ins ([`FAMILIES`]), then the registered ones.
pub fn all_docs() -> Vec<FamilyDoc> {
    FAMILIES
        .iter()
        .copied()
        .chain(registered().iter().map(|f| f.doc))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_documented_family_parses_and_is_named_when_unknown() {
        let unknown = GraphError::UnknownFamily("X_1".into()).to_string();
        for f in FAMILIES {
            let name = f.syntax.split(['_', '(', ':']).next().unwrap_or(f.syntax);
            assert!(
                unknown.contains(name),
                "{} missing from {unknown}",
                f.syntax
            );
            if !f.example.starts_with("file:") {
                parse_large_graph(f.example).unwrap_or_else(|e| panic!("{}: {e}", f.example));
            }
        }
        // A wrong example is caught: the check above is not vacuous.
        assert!(parse_large_graph("Wheel_7").is_err());
    }

    #[test]
    fn sizes_and_names() {
        assert_eq!(parse_graph("C_9").unwrap().edges().len(), 9);
        let w = parse_graph("W_7").unwrap();
        assert_eq!(w.n(), 7);
        assert_eq!(w.vertex_name(6), "c");
        assert_eq!(w.degree(6), 6);
        let s = parse_graph("K_{1,3}").unwrap();
        assert_eq!(s.names(), &["a1", "b1", "b2", "b3"]);
        assert_eq!(parse_graph("K_{2,2,3}").unwrap().edges().len(), 4 + 6 + 6);
        assert_eq!(parse_graph("Q_3").unwrap().edges().len(), 12);
        assert_eq!(
            parse_graph("Grid_{3,4}").unwrap().edges().len(),
            3 * 3 + 2 * 4
        );
        assert_eq!(parse_graph("SP_{6,2}").unwrap().edges().len(), 6 * 2 + 6);
        assert_eq!(parse_graph("W_{2,5}").unwrap().edges().len(), 5 + 10);
        assert_eq!(parse_graph("Wd_{3,3,4}").unwrap().n(), 1 + 2 + 2 + 3);
        assert_eq!(parse_graph("Split_{2,3}").unwrap().edges().len(), 1 + 6);
        let c = parse_graph("Corona(C_4)").unwrap();
        assert_eq!((c.n(), c.edges().len()), (8, 8));
        assert_eq!(parse_graph("Kite").unwrap().edges().len(), 5);
    }

    #[test]
    fn bad_input_is_an_error_not_a_panic() {
        for bad in [
            "X_3",
            "C_2",
            "C_65",
            "Q_7",
            "Q_100",
            "K_{0,3}",
            "W_3",
            "P_abc",
            "Grid_{9,9}",
            "C_99999999999999999999",
            "Split_{2}",
            "Corona(K_1)",
            "Wd_{1,3}",
        ] {
            assert!(parse_graph(bad).is_err(), "{bad} should be rejected");
        }
    }

    #[test]
    fn large_graphs_beyond_the_mask() {
        let sp = parse_large_graph("SP_{40,29}").unwrap();
        assert_eq!((sp.n(), sp.edge_count()), (1160, 40 * 29 + 40 * 28));
        assert_eq!(sp.neighbours(0), &[1, 39, 40]);
        assert!(!sp.fits_mask());
        assert_eq!(
            sp.distances_from(0)[sp.vertex_index("(21,29)").unwrap()],
            20 + 28
        );
        let q = parse_large_graph("Q_10").unwrap();
        assert_eq!((q.n(), q.edge_count()), (1024, 10 * 512));
        let c = parse_large_graph("Corona(C_100)").unwrap();
        assert_eq!((c.n(), c.edge_count()), (200, 200));
        assert_eq!(parse_large_graph("C_200").unwrap().edges().len(), 200);
        // The mask world refuses them with a message that names what takes them.
        let e = parse_graph("SP_{12,8}").unwrap_err();
        assert!(
            matches!(e, GraphError::TooLargeForSets { n: 96, .. }),
            "{e}"
        );
        assert!(e.to_string().contains("UEG"));
        assert!(sp.parse_set("{(1,1)}").is_err());
        // Sizes that would exhaust memory are refused before anything is built.
        for bad in [
            "K_{100000}",
            "K_{3000}",
            "K_{2000,2000}",
            "Q_17",
            "P_99999999",
            "SP_{1000,1000}",
        ] {
            assert!(parse_large_graph(bad).is_err(), "{bad} should be refused");
        }
    }
}
