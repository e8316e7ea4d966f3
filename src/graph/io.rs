//! User graphs: graph6 strings (nauty's format), edge-list files and DOT files.

use super::{Graph, GraphError, MAX_EDGES, MAX_VERTICES};
use std::collections::{BTreeMap, HashSet};
use std::path::Path;

/// Decodes a graph6 string (optionally with the `>>graph6<<` header). Vertices are named
/// 0..n-1 as nauty numbers them.
pub fn from_graph6(text: &str) -> Result<Graph, GraphError> {
    let raw = text.trim();
    let t = raw.strip_prefix(">>graph6<<").unwrap_or(raw);
    let err = |why: &str| GraphError::Graph6 {
        text: raw.to_string(),
        why: why.to_string(),
    };
    let bytes = t.as_bytes();
    if bytes.is_empty() {
        return Err(err("empty string"));
    }
    if let Some(i) = bytes.iter().position(|&b| !(63..=126).contains(&b)) {
        return Err(err(&format!(
            "character {} at position {} is outside the graph6 range '?'..'~'",
            bytes[i] as char,
            i + 1
        )));
    }
    let (n, rest) = if bytes[0] == 126 {
        if bytes.len() >= 2 && bytes[1] == 126 {
            return Err(err(
                "graphs with more than 258047 vertices are not supported",
            ));
        }
        if bytes.len() < 4 {
            return Err(err("truncated vertex count"));
        }
        let n = ((bytes[1] as usize - 63) << 12)
            | ((bytes[2] as usize - 63) << 6)
            | (bytes[3] as usize - 63);
        (n, &bytes[4..])
    } else {
        (bytes[0] as usize - 63, &bytes[1..])
    };
    if n > MAX_VERTICES {
        return Err(GraphError::TooLarge {
            name: format!("graph6:{raw}"),
            n,
        });
    }
    let pairs = n * n.saturating_sub(1) / 2;
    let need = pairs.div_ceil(6);
    if rest.len() != need {
        return Err(err(&format!(
            "{n} vertices need {need} data characters, found {}",
            rest.len()
        )));
    }
    let mut edges = Vec::new();
    let mut k = 0;
    for j in 1..n {
        for i in 0..j {
            let byte = rest[k / 6] - 63;
            if byte & (1 << (5 - k % 6)) != 0 {
                edges.push((i, j));
                if edges.len() > MAX_EDGES {
                    return Err(GraphError::TooManyEdges {
                        name: format!("graph6:{raw}"),
                        edges: edges.len() as u128,
                    });
                }
            }
            k += 1;
        }
    }
    Graph::new(
        format!("graph6:{raw}"),
        (0..n).map(|i| i.to_string()).collect(),
        &edges,
    )
}

/// Encodes a graph as graph6 (vertex order as stored).
pub fn to_graph6(g: &Graph) -> String {
    let n = g.n();
    let mut out = String::new();
    if n <= 62 {
        out.push((n as u8 + 63) as char);
    } else {
        out.push('~');
        for shift in [12, 6, 0] {
            out.push((((n >> shift) & 63) as u8 + 63) as char);
        }
    }
    let mut acc = 0u8;
    let mut k = 0;
    for j in 1..n {
        for i in 0..j {
            if g.neighbours(i).binary_search(&j).is_ok() {
                acc |= 1 << (5 - k % 6);
            }
            k += 1;
            if k % 6 == 0 {
                out.push((acc + 63) as char);
                acc = 0;
            }
        }
    }
    if k % 6 != 0 {
        out.push((acc + 63) as char);
    }
    out
}

/// Reads a graph file: DOT (`.dot`/`.gv`, or text starting with `graph`/`strict`) or an edge
/// list (one edge `u v` per line, `#` comments, a lone name declares an isolated vertex).
pub fn from_file(path: &Path) -> Result<Graph, GraphError> {
    let text = std::fs::read_to_string(path).map_err(|e| GraphError::File {
        path: path.display().to_string(),
        why: e.to_string(),
    })?;
    let name = format!("file:{}", path.display());
    let is_dot = matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("dot" | "gv")
    ) || {
        let h = text.trim_start();
        h.starts_with("graph") || h.starts_with("strict") || h.starts_with("digraph")
    };
    if is_dot {
        from_dot(&name, &text)
    } else {
        from_edge_list(&name, &text)
    }
}

struct Builder {
    index: BTreeMap<String, usize>,
    names: Vec<String>,
    edges: Vec<(usize, usize)>,
    seen: HashSet<(usize, usize)>,
}

impl Builder {
    fn new() -> Self {
        Builder {
            index: BTreeMap::new(),
            names: Vec::new(),
            edges: Vec::new(),
            seen: HashSet::new(),
        }
    }
    fn vertex(&mut self, name: &str) -> usize {
        if let Some(&i) = self.index.get(name) {
            return i;
        }
        self.names.push(name.to_string());
        self.index.insert(name.to_string(), self.names.len() - 1);
        self.names.len() - 1
    }
    fn edge(&mut self, a: &str, b: &str) {
        let (x, y) = (self.vertex(a), self.vertex(b));
        if self.seen.insert((x.min(y), x.max(y))) {
            self.edges.push((x, y));
        }
    }
}

/// Edge-list text: `u v` per line.
pub fn from_edge_list(name: &str, text: &str) -> Result<Graph, GraphError> {
    let mut b = Builder::new();
    for (ln, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let f: Vec<&str> = line
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|s| !s.is_empty())
            .collect();
        match f.as_slice() {
            [a] => {
                b.vertex(a);
            }
            [a, c] => b.edge(a, c),
            _ => {
                return Err(GraphError::File {
                    path: name.trim_start_matches("file:").to_string(),
                    why: format!("line {}: expected `u v`, found `{line}`", ln + 1),
                })
            }
        }
        if b.names.len() > MAX_VERTICES {
            return Err(GraphError::TooLarge {
                name: name.to_string(),
                n: b.names.len(),
            });
        }
    }
    Graph::new(name, b.names, &b.edges)
}

/// DOT text, parsed by graphviz-rust; only node ids and edges are used.
pub fn from_dot(name: &str, text: &str) -> Result<Graph, GraphError> {
    use graphviz_rust::dot_structures::{
        Edge, EdgeTy, Graph as DGraph, Id, NodeId, Stmt, Subgraph, Vertex,
    };
    let file_err = |why: String| GraphError::File {
        path: name.trim_start_matches("file:").to_string(),
        why,
    };
    let g = graphviz_rust::parse(text).map_err(|e| file_err(format!("not valid DOT: {e}")))?;
    fn id_text(id: &Id) -> String {
        match id {
            Id::Html(s) | Id::Escaped(s) | Id::Plain(s) | Id::Anonymous(s) => {
                s.trim_matches('"').to_string()
            }
        }
    }
    fn vertex_names(v: &Vertex, out: &mut Vec<String>, b: &mut Builder) {
        match v {
            Vertex::N(NodeId(id, _)) => out.push(id_text(id)),
            Vertex::S(Subgraph { stmts, .. }) => {
                for s in stmts {
                    stmt(s, b, Some(out));
                }
            }
        }
    }
    fn stmt(s: &Stmt, b: &mut Builder, collect: Option<&mut Vec<String>>) {
        match s {
            Stmt::Node(n) => {
                let nm = id_text(&n.id.0);
                b.vertex(&nm);
                if let Some(c) = collect {
                    c.push(nm);
                }
            }
            Stmt::Edge(Edge { ty, .. }) => {
                let groups: Vec<Vec<String>> = match ty {
                    EdgeTy::Pair(a, c) => {
                        let (mut x, mut y) = (Vec::new(), Vec::new());
                        vertex_names(a, &mut x, b);
                        vertex_names(c, &mut y, b);
                        vec![x, y]
                    }
                    EdgeTy::Chain(vs) => vs
                        .iter()
                        .map(|v| {
                            let mut x = Vec::new();
                            vertex_names(v, &mut x, b);
                            x
                        })
                        .collect(),
                };
                for w in groups.windows(2) {
                    for a in &w[0] {
                        for c in &w[1] {
                            b.edge(a, c);
                        }
                    }
                }
            }
            Stmt::Subgraph(Subgraph { stmts, .. }) => {
                for s in stmts {
                    stmt(s, b, None);
                }
            }
            _ => {}
        }
    }
    let stmts = match &g {
        DGraph::Graph { stmts, .. } | DGraph::DiGraph { stmts, .. } => stmts,
    };
    let mut b = Builder::new();
    for s in stmts {
        stmt(s, &mut b, None);
    }
    if b.names.len() > MAX_VERTICES {
        return Err(GraphError::TooLarge {
            name: name.to_string(),
            n: b.names.len(),
        });
    }
    Graph::new(name, b.names, &b.edges)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::families;

    #[test]
    fn graph6_known_strings() {
        // nauty: C_5 is "Dhc", K_4 is "C~", P_3 is "Bg" (geng/showg conventions).
        let c5 = from_graph6("Dhc").unwrap();
        assert_eq!(c5.edges().len(), 5);
        assert!((0..5).all(|v| c5.degree(v) == 2));
        assert_eq!(from_graph6("C~").unwrap().edges().len(), 6);
        assert_eq!(from_graph6(">>graph6<<Bg").unwrap().edges().len(), 2);
    }

    #[test]
    fn graph6_round_trip() {
        for g in [
            families::cycle(9).unwrap(),
            families::wheel(7).unwrap(),
            families::hypercube(6).unwrap(),
        ] {
            let s = to_graph6(&g);
            let h = from_graph6(&s).unwrap();
            assert_eq!(g.edges(), h.edges());
        }
    }

    #[test]
    fn graph6_errors() {
        assert!(from_graph6("").is_err());
        assert!(from_graph6("D").is_err());
        assert!(from_graph6("Dh c").is_err());
        assert!(matches!(
            from_graph6("C?"),
            Err(GraphError::Disconnected(_))
        ));
    }

    #[test]
    fn edge_list_and_dot() {
        let g = from_edge_list("t", "# kite\nx y\ny u\ny v\nu w\nv w\n").unwrap();
        assert_eq!(g.edges().len(), 5);
        let d = from_dot("t", "graph { x -- y; y -- u; y -- v; u -- w -- v }").unwrap();
        assert_eq!(d.edges().len(), 5);
        assert!(from_edge_list("t", "a b c\n").is_err());
        assert!(from_dot("t", "graph { a -- ").is_err());
    }
}
