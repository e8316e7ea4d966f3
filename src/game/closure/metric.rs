//! Geodesic closures on a distance matrix, shared by the closures of digraphs
//! ([`super::digraph`], directed geodesics) and of weighted graphs ([`super::weighted`],
//! weighted geodesics): seed 000 §6 question 4 asks for "convex hull hypergraph games on other
//! finite combinatorial objects where there is a natural notion of geodesic: … weighted graphs,
//! and directed graphs". The interval of x and y is I[x, y] = {z : d(x, z) + d(z, y) = d(x, y)
//! < ∞}, the vertices on some shortest x–y path (directed: from x to y); the geodetic closure
//! is I[S] = ⋃ I[x, y] over x, y ∈ S, and the hull iterates it to a fixed point. Both are
//! extensive (I[x, x] ∋ x) and monotone, which is all the games need.
//!
//! Also a small reader of the DOT subset these structures are written in: `graph` or
//! `digraph`, node statements, edge chains `a -> b -> c` / `a -- b` with an optional
//! `[weight=k]` (a positive integer; 1 when absent); attributes otherwise ignored; subgraphs
//! refused with a message.

use super::{from_mask, to_mask, ClosureOperator, Set};
use crate::game::features::FeatureDoc;
use crate::game::Value;
use crate::graph::io::{dot_tokens, Tok};

/// Most vertices. Past 64 a game is solved by its structure classes only (positions of more
/// than 64 elements have no exhaustive solver), which path-like structures allow: their
/// extreme vertices generate ([`super::unique_generating`]). Floyd–Warshall and the interval
/// table are cubic in the vertices: 1.7e7 steps at 256.
pub const MAX_VERTICES: usize = 256;
/// Largest edge weight (so that path lengths never overflow).
pub const MAX_WEIGHT: u64 = 1 << 32;
const INF: u64 = u64::MAX;

/// A finite metric structure with its geodesic closure.
#[derive(Debug)]
pub struct MetricOperator {
    kind: &'static str,
    name: String,
    names: Vec<String>,
    /// `dist[x][y]`, `INF` when y is not reachable from x.
    dist: Vec<Vec<u64>>,
    /// `interval[x][y]`: the mask I[x, y] (up to 64 vertices; empty past them).
    interval: Vec<Vec<u64>>,
    /// `wide[x * n + y]`: the set I[x, y], past 64 vertices (empty up to them).
    wide: Vec<Set>,
    iterate: bool,
    edges: usize,
}

impl MetricOperator {
    /// From weighted arcs (both directions listed for an undirected edge): shortest paths by
    /// Floyd–Warshall (n ≤ 64).
    pub fn new(
        kind: &'static str,
        name: String,
        names: Vec<String>,
        arcs: &[(usize, usize, u64)],
        iterate: bool,
        edges: usize,
    ) -> Result<MetricOperator, String> {
        let n = names.len();
        if n == 0 || n > MAX_VERTICES {
            return Err(format!(
                "{name}: {n} vertices; between 1 and {MAX_VERTICES} are supported"
            ));
        }
        let mut dist = vec![vec![INF; n]; n];
        for (x, row) in dist.iter_mut().enumerate() {
            row[x] = 0;
        }
        for &(a, b, w) in arcs {
            if a != b && w < dist[a][b] {
                dist[a][b] = w;
            }
        }
        for k in 0..n {
            for i in 0..n {
                if dist[i][k] == INF {
                    continue;
                }
                for j in 0..n {
                    if dist[k][j] != INF && dist[i][k] + dist[k][j] < dist[i][j] {
                        dist[i][j] = dist[i][k] + dist[k][j];
                    }
                }
            }
        }
        let mut interval = Vec::new();
        let mut wide = Vec::new();
        if n <= 64 {
            interval = vec![vec![0u64; n]; n];
            for x in 0..n {
                for y in 0..n {
                    if dist[x][y] != INF {
                        interval[x][y] = (0..n)
                            .filter(|&z| on_geodesic(&dist, x, z, y))
                            .fold(0, |m, z| m | 1 << z);
                    }
                }
            }
        } else {
            wide = wide_intervals(&dist);
        }
        Ok(MetricOperator {
            kind,
            name,
            names,
            dist,
            interval,
            wide,
            iterate,
            edges,
        })
    }

    fn step(&self, s: u64) -> u64 {
        let mut out = s;
        for x in crate::graph::bits(s) {
            for y in crate::graph::bits(s) {
                out |= self.interval[x][y];
            }
        }
        out
    }

    /// The closure past 64 vertices, by a worklist: each element joins once and is paired
    /// with those before it (both orders, the intervals of a digraph being directed), which
    /// gives the least set closed under intervals; the one-step closure pairs S alone.
    fn close_wide(&self, s: &Set) -> Set {
        let n = self.size();
        let mut out = s.clone();
        let mut order: Vec<usize> = s.ones().collect();
        let mut reached = Set::with_capacity(n);
        let mut i = 0;
        while i < order.len() && out.count_ones(..) < n {
            let z = order[i];
            reached.clear();
            for &y in &order[..=i] {
                reached.union_with(&self.wide[z * n + y]);
                reached.union_with(&self.wide[y * n + z]);
            }
            if self.iterate {
                reached.difference_with(&out);
                order.extend(reached.ones());
            }
            out.union_with(&reached);
            i += 1;
        }
        out
    }

    pub fn distance(&self, x: usize, y: usize) -> Option<u64> {
        (self.dist[x][y] != INF).then_some(self.dist[x][y])
    }
}

/// z lies on a shortest path from x to y.
fn on_geodesic(dist: &[Vec<u64>], x: usize, z: usize, y: usize) -> bool {
    dist[x][y] != INF
        && dist[x][z] != INF
        && dist[z][y] != INF
        && dist[x][z] + dist[z][y] == dist[x][y]
}

/// The intervals I[x, y] as sets, `x * n + y`, for structures past 64 vertices.
fn wide_intervals(dist: &[Vec<u64>]) -> Vec<Set> {
    let n = dist.len();
    let mut wide = vec![Set::with_capacity(n); n * n];
    for x in 0..n {
        for y in 0..n {
            wide[x * n + y].extend((0..n).filter(|&z| on_geodesic(dist, x, z, y)));
        }
    }
    wide
}

/// The features of a digraph or weighted graph (directed or weighted geodesics).
pub const FEATURES: &[FeatureDoc] = &[
    FeatureDoc {
        name: "vertices",
        meaning: "|V| of the digraph or weighted graph",
    },
    FeatureDoc {
        name: "edges",
        meaning: "the number of arcs (digraph) or edges (weighted graph)",
    },
];

impl ClosureOperator for MetricOperator {
    fn feature_docs(&self) -> &'static [FeatureDoc] {
        FEATURES
    }
    fn certificate_order(&self) -> Option<super::CertificateOrder> {
        Some(super::CertificateOrder::ByName)
    }
    /// The one-step closures (`digraph-geodetic`, `weighted-geodetic`) are marked as graphs
    /// mark theirs.
    fn name_suffix(&self) -> String {
        if self.iterate {
            String::new()
        } else {
            " [geodetic]".into()
        }
    }
    fn kind(&self) -> &'static str {
        self.kind
    }
    fn structure(&self) -> String {
        self.name.clone()
    }
    fn size(&self) -> usize {
        self.names.len()
    }
    fn element_name(&self, i: usize) -> String {
        self.names[i].clone()
    }
    /// For the hulls (idempotent), by the search over closed sets, whose count is far below
    /// that of the non-generating sets on path-like structures (a directed path of 40
    /// vertices: 820 closed sets, 2^39 non-generating ones); else the generic search.
    fn maximal_nongenerating(&self, budget: u64) -> Option<Vec<Set>> {
        if self.iterate {
            if let Some(m) = super::maximal_closed(self, budget) {
                return Some(m);
            }
        }
        super::nongenerating_from_generating(self, budget)
    }
    fn minimal_generating(&self, budget: u64) -> Option<Vec<Set>> {
        if self.iterate {
            if let Some(g) = super::generating_by_closed_sets(self, budget) {
                return Some(g);
            }
        }
        super::generic_minimal_generating(self, budget)
    }
    fn close(&self, s: &Set) -> Set {
        if self.size() > 64 {
            return self.close_wide(s);
        }
        let mut m = to_mask(s).unwrap_or(0);
        loop {
            let next = self.step(m);
            if next == m || !self.iterate {
                return from_mask(next, self.size());
            }
            m = next;
        }
    }
    fn features(&self) -> Vec<(String, Value)> {
        vec![
            ("vertices".into(), Value::Int(self.names.len() as i64)),
            ("edges".into(), Value::Int(self.edges as i64)),
        ]
    }
}

/// A DOT graph of the subset described above: vertex names, and edges (a, b, weight) in the
/// order written; `directed` whether it is a `digraph`.
pub struct Dot {
    pub directed: bool,
    pub names: Vec<String>,
    pub edges: Vec<(usize, usize, u64)>,
}

pub fn read_dot(text: &str) -> Result<Dot, String> {
    let toks = dot_tokens(text).map_err(|e| format!("not valid DOT: {e}"))?;
    let kw = |t: &Tok, k: &str| matches!(t, Tok::Id(s, false) if s.eq_ignore_ascii_case(k));
    let mut k = 0;
    if toks.first().is_some_and(|(t, _)| kw(t, "strict")) {
        k += 1;
    }
    let directed = match toks.get(k) {
        Some((t, _)) if kw(t, "digraph") => true,
        Some((t, _)) if kw(t, "graph") => false,
        _ => return Err("not valid DOT: expected `graph` or `digraph`".into()),
    };
    k += 1;
    if matches!(toks.get(k), Some((Tok::Id(..), _))) {
        k += 1;
    }
    if !matches!(toks.get(k), Some((Tok::Open, _))) {
        return Err("not valid DOT: expected `{`".into());
    }
    k += 1;
    let mut names: Vec<String> = Vec::new();
    let mut edges = Vec::new();
    let index = |names: &mut Vec<String>, id: &str| -> Result<usize, String> {
        if let Some(i) = names.iter().position(|n| n == id) {
            return Ok(i);
        }
        if names.len() >= MAX_VERTICES {
            return Err(format!("more than {MAX_VERTICES} vertices"));
        }
        names.push(id.to_string());
        Ok(names.len() - 1)
    };
    // The statement being read: a chain of vertices and the attributes after it.
    let mut chain: Vec<usize> = Vec::new();
    let mut after_op = false;
    let mut closed = false;
    let flush = |chain: &mut Vec<usize>, weight: u64, edges: &mut Vec<(usize, usize, u64)>| {
        for w in chain.windows(2) {
            edges.push((w[0], w[1], weight));
        }
        chain.clear();
    };
    while k < toks.len() {
        let tok = &toks[k].0;
        if closed {
            return Err("not valid DOT: text after the closing `}`".into());
        }
        match tok {
            Tok::Id(..) if kw(tok, "subgraph") => {
                return Err("subgraphs are not read here; list the edges one by one".into())
            }
            Tok::Id(..) if kw(tok, "node") || kw(tok, "edge") || kw(tok, "graph") => {
                flush(&mut chain, 1, &mut edges);
                k += 1;
            }
            Tok::Id(id, _) => {
                if matches!(toks.get(k + 1), Some((Tok::Eq, _))) && !after_op {
                    flush(&mut chain, 1, &mut edges);
                    k += 3;
                    continue;
                }
                if !after_op {
                    flush(&mut chain, 1, &mut edges);
                }
                let v = index(&mut names, id)?;
                chain.push(v);
                after_op = false;
                k += 1;
            }
            Tok::Directed | Tok::Undirected => {
                if (matches!(tok, Tok::Directed)) != directed {
                    return Err(if directed {
                        "`--` in a digraph (write `->`)".into()
                    } else {
                        "`->` in an undirected graph (write `--`, or `digraph`)".into()
                    });
                }
                if chain.is_empty() || after_op {
                    return Err("an edge needs a vertex on both sides".into());
                }
                after_op = true;
                k += 1;
            }
            Tok::OpenAttr => {
                if after_op {
                    return Err("an edge needs a vertex on both sides".into());
                }
                let mut weight = 1u64;
                k += 1;
                while let Some((t, _)) = toks.get(k) {
                    match t {
                        Tok::CloseAttr => break,
                        Tok::Id(key, _) if key == "weight" => {
                            let Some((Tok::Id(v, _), _)) = toks.get(k + 2) else {
                                return Err("`weight` needs a value".into());
                            };
                            weight = v
                                .parse::<u64>()
                                .ok()
                                .filter(|w| (1..=MAX_WEIGHT).contains(w))
                                .ok_or_else(|| {
                                    format!("weight `{v}` is not an integer in 1..={MAX_WEIGHT}")
                                })?;
                            k += 3;
                        }
                        _ => k += 1,
                    }
                }
                if k >= toks.len() {
                    return Err("`[` is never closed".into());
                }
                flush(&mut chain, weight, &mut edges);
                k += 1;
            }
            Tok::Semi | Tok::Comma => {
                if after_op {
                    return Err("an edge needs a vertex on both sides".into());
                }
                flush(&mut chain, 1, &mut edges);
                k += 1;
            }
            Tok::Close => {
                if after_op {
                    return Err("an edge needs a vertex on both sides".into());
                }
                flush(&mut chain, 1, &mut edges);
                closed = true;
                k += 1;
            }
            Tok::Open => {
                return Err("subgraphs are not read here; list the edges one by one".into())
            }
            Tok::CloseAttr | Tok::Eq | Tok::Colon => {
                return Err("not valid DOT: unexpected token".into())
            }
        }
    }
    if !closed {
        return Err("not valid DOT: the `{` is never closed".into());
    }
    Ok(Dot {
        directed,
        names,
        edges,
    })
}

/// Largest structure file read (`poset:`, `digraph:`, `weighted:`).
pub const MAX_FILE_BYTES: u64 = 1 << 20;

/// Reads a structure file: a regular file of at most [`MAX_FILE_BYTES`] (a FIFO, a device or
/// standard input is refused before a byte is read, by the one bounded reader). In a spec, a
/// relative path is read from the spec's folder, as a `file:` graph is
/// ([`crate::graph::io::resolve`]).
pub fn read_file(path: &str) -> Result<String, String> {
    crate::files::read_regular_text(
        &crate::graph::io::resolve(std::path::Path::new(path)),
        MAX_FILE_BYTES,
    )
    .map_err(|e| format!("{path}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The closure past 64 vertices (sets, worklist) is the closure up to 64 (masks, steps
    /// to a fixed point), on every subset of random digraphs of 7 vertices, hull and one step.
    #[test]
    fn wide_closure_is_the_mask_closure() {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        for case in 0..60 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let n = 7;
            let names: Vec<String> = (0..n).map(|i| format!("v{i}")).collect();
            let arcs: Vec<(usize, usize, u64)> = (0..n * n)
                .filter(|p| seed >> (p % 64) & 1 == 1 && p / n != p % n)
                .map(|p| (p / n, p % n, 1 + (p as u64 * 7 + case) % 3))
                .collect();
            for iterate in [true, false] {
                let mut op =
                    MetricOperator::new("digraph", "t".into(), names.clone(), &arcs, iterate, 0)
                        .unwrap();
                op.wide = wide_intervals(&op.dist);
                for m in 0u64..1 << n {
                    let s = super::super::from_mask(m, n);
                    assert_eq!(
                        op.close_wide(&s),
                        op.close(&s),
                        "case {case}, iterate {iterate}, set {m:b}"
                    );
                }
            }
        }
    }
}
