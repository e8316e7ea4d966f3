//! Undirected edge geography UEG(G, v) (seed 002): a token sits on a vertex; a move slides it
//! along an edge at the token and deletes that edge. Three tools:
//!
//! - [`Ueg`]: the game, solved exhaustively (nim-value, outcome) by the crate's `Solver`,
//!   memoised on (remaining edges, token) after dropping edges outside the token's component
//!   (they can never be used again, so the value is unchanged).
//! - [`check_even_kernel`]: an even kernel is a nonempty independent set S such that every
//!   vertex outside S has an even number of neighbours in S; if it contains the token, the
//!   position is P (seed 002, Theorem 2: from v ∈ S the mover must leave S along an edge vu;
//!   u then has an odd number of S-neighbours, so the reply returns to S and S stays an even
//!   kernel of the smaller graph). Works on graphs of any size ([`AdjLists`]), so that seed
//!   002's families can be checked beyond 64 vertices.
//! - [`Ueg::bipartite_verdict`]: the polynomial criterion for bipartite graphs (Fraenkel,
//!   Scheinerman and Ullman, "Undirected edge geography", TCS 112 (1993)), derived here:
//!   with the token v on side X and B the X×Y biadjacency matrix over GF(2), (G, v) is a
//!   P-position iff the row of v lies in the span of the other rows of B. If so, a set S ∋ v
//!   of rows summing to zero is an even kernel (it lies in X, so it is independent). If not,
//!   by duality there is T ⊆ Y with an odd number of neighbours of v and an even number of
//!   neighbours of every other x ∈ X in T; moving to u ∈ T ∩ N(v) leaves T an even kernel of
//!   G − vu containing u, so (G, v) is an N-position. Gaussian elimination on bitmask rows.

use super::{Features, Game, Value};
use crate::graph::{bits, Graph, GraphError};
use rustc_hash::FxHashMap;
use std::sync::Arc;
use thiserror::Error;

/// The most edges a UEG graph may have (edge sets are `u128`).
pub const MAX_EDGES: usize = 128;

#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum UegError {
    #[error(
        "graph {graph} has {edges} edges; undirected edge geography supports at most {MAX_EDGES}"
    )]
    TooManyEdges { graph: String, edges: usize },
    #[error("unknown vertex `{vertex}` in graph {graph}")]
    UnknownVertex { graph: String, vertex: String },
    #[error("the component of the token in {graph} is not bipartite (odd cycle through {vertex})")]
    NotBipartite { graph: String, vertex: String },
}

/// A position: the remaining edges (bit i = edge i of [`Ueg::edges`]) and the token.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct UegPos {
    pub edges: u128,
    pub token: u8,
}

/// UEG on a graph, started at a position.
#[derive(Clone, Debug)]
pub struct Ueg {
    graph: Arc<Graph>,
    edges: Vec<(usize, usize)>,
    /// Edges incident to each vertex.
    inc: Vec<u128>,
    start: UegPos,
}

fn bits128(mut m: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let b = m.trailing_zeros() as usize;
            m &= m - 1;
            Some(b)
        }
    })
}

fn all_edges(k: usize) -> u128 {
    if k == 128 {
        u128::MAX
    } else {
        (1u128 << k) - 1
    }
}

impl Ueg {
    /// UEG(G, v) with every edge present.
    pub fn new(graph: Graph, token: usize) -> Result<Ueg, UegError> {
        let edges = graph.edges();
        if edges.len() > MAX_EDGES {
            return Err(UegError::TooManyEdges {
                graph: graph.name().to_string(),
                edges: edges.len(),
            });
        }
        let mut inc = vec![0u128; graph.n()];
        for (i, &(a, b)) in edges.iter().enumerate() {
            inc[a] |= 1 << i;
            inc[b] |= 1 << i;
        }
        let start = UegPos {
            edges: all_edges(edges.len()),
            token: token as u8,
        };
        Ok(Ueg {
            graph: Arc::new(graph),
            edges,
            inc,
            start,
        })
    }

    /// UEG(G, v) with the token given by name, e.g. `(1,1)`.
    pub fn with_token_name(graph: Graph, token: &str) -> Result<Ueg, UegError> {
        let v = graph
            .vertex_index(token.trim())
            .ok_or_else(|| UegError::UnknownVertex {
                graph: graph.name().to_string(),
                vertex: token.trim().to_string(),
            })?;
        Ueg::new(graph, v)
    }

    /// The same game started at another position.
    pub fn at(&self, pos: UegPos) -> Ueg {
        let mut g = self.clone();
        g.start = pos;
        g
    }

    pub fn graph(&self) -> &Graph {
        &self.graph
    }
    pub fn edges(&self) -> &[(usize, usize)] {
        &self.edges
    }

    /// Index of the edge {a, b}, if it exists.
    pub fn edge_index(&self, a: usize, b: usize) -> Option<usize> {
        let (a, b) = (a.min(b), a.max(b));
        self.edges.iter().position(|&e| e == (a, b))
    }

    /// Position with the token at `v` (all edges present).
    pub fn pos_at(&self, v: usize) -> UegPos {
        UegPos {
            edges: all_edges(self.edges.len()),
            token: v as u8,
        }
    }

    pub fn name(&self) -> String {
        let mut s = format!(
            "UEG({}, {})",
            self.graph.name(),
            self.graph.vertex_name(self.start.token as usize)
        );
        let missing = all_edges(self.edges.len()) & !self.start.edges;
        if missing != 0 {
            s.push_str(&format!(" − {}", self.edge_names(missing).join(" ")));
        }
        s
    }

    fn edge_names(&self, m: u128) -> Vec<String> {
        bits128(m)
            .map(|i| {
                let (a, b) = self.edges[i];
                format!("{}{}", self.graph.vertex_name(a), self.graph.vertex_name(b))
            })
            .collect()
    }

    pub fn label(&self, p: &UegPos) -> String {
        format!(
            "@{} [{} edges]",
            self.graph.vertex_name(p.token as usize),
            p.edges.count_ones()
        )
    }

    pub fn features(&self, p: &UegPos) -> Features {
        let mut f = Features::new();
        let t = p.token as usize;
        f.insert(
            "token".into(),
            Value::Set(vec![self.graph.vertex_name(t).to_string()]),
        );
        f.insert(
            "token_degree".into(),
            Value::Int((p.edges & self.inc[t]).count_ones() as i64),
        );
        f.insert("edges_left".into(), Value::Int(p.edges.count_ones() as i64));
        f.insert(
            "removed".into(),
            Value::Set(self.edge_names(all_edges(self.edges.len()) & !p.edges)),
        );
        f
    }

    /// Adjacency of the remaining graph as vertex bitmasks.
    pub fn adjacency(&self, edges: u128) -> Vec<u64> {
        let mut adj = vec![0u64; self.graph.n()];
        for i in bits128(edges) {
            let (a, b) = self.edges[i];
            adj[a] |= 1 << b;
            adj[b] |= 1 << a;
        }
        adj
    }

    /// The remaining graph as adjacency lists (for [`check_even_kernel`]).
    pub fn adj_lists(&self, edges: u128) -> AdjLists {
        let adj = self.adjacency(edges);
        AdjLists {
            names: self.graph.names().to_vec(),
            adj: adj.iter().map(|&m| bits(m).collect()).collect(),
        }
    }

    /// Edges of the component of the token.
    fn component_edges(&self, p: &UegPos) -> u128 {
        let mut reach: u64 = 1 << p.token;
        let mut used: u128 = 0;
        loop {
            let mut grow: u128 = 0;
            for v in bits(reach) {
                grow |= self.inc[v];
            }
            let grow = grow & p.edges & !used;
            if grow == 0 {
                return used;
            }
            used |= grow;
            for i in bits128(grow) {
                let (a, b) = self.edges[i];
                reach |= (1 << a) | (1 << b);
            }
        }
    }

    /// Outcome by exhaustive search with early cut-off (a move to a P-position ends the
    /// search): `true` iff P-position. Cheaper than the nim-value; same memo key.
    pub fn is_p_exhaustive(&self, p: &UegPos, memo: &mut FxHashMap<UegPos, bool>) -> bool {
        let p = self.canonical(p);
        if let Some(&v) = memo.get(&p) {
            return v;
        }
        let win = self
            .options(&p)
            .iter()
            .any(|o| self.is_p_exhaustive(o, memo));
        memo.insert(p, !win);
        !win
    }

    /// The GF(2) criterion for bipartite components (module header). `Err` if the token's
    /// component has an odd cycle.
    pub fn bipartite_verdict(&self, p: &UegPos) -> Result<Gf2Verdict, UegError> {
        match self.p_kernel(p)? {
            Some(kernel) => Ok(Gf2Verdict::P { kernel }),
            None => {
                let t = p.token as usize;
                for e in bits128(p.edges & self.inc[t]) {
                    let (a, b) = self.edges[e];
                    let u = if a == t { b } else { a };
                    let q = UegPos {
                        edges: p.edges & !(1u128 << e),
                        token: u as u8,
                    };
                    if let Some(kernel) = self.p_kernel(&q)? {
                        return Ok(Gf2Verdict::N { to: u, kernel });
                    }
                }
                unreachable!("the GF(2) duality argument gives a winning move from an N-position")
            }
        }
    }

    /// An even kernel containing the token inside its side of the bipartition, if one exists.
    fn p_kernel(&self, p: &UegPos) -> Result<Option<Vec<usize>>, UegError> {
        let adj = self.adjacency(self.component_edges(p));
        let v = p.token as usize;
        // Two-colour the component of v.
        let mut side: u64 = 1 << v;
        let mut seen: u64 = 1 << v;
        let mut frontier: u64 = 1 << v;
        let mut parity = true;
        while frontier != 0 {
            let mut next = 0u64;
            for x in bits(frontier) {
                next |= adj[x];
            }
            parity = !parity;
            if let Some(bad) = bits(next & seen).find(|&x| (side >> x & 1 == 1) != parity) {
                return Err(UegError::NotBipartite {
                    graph: self.graph.name().to_string(),
                    vertex: self.graph.vertex_name(bad).to_string(),
                });
            }
            let new = next & !seen;
            if parity {
                side |= new;
            }
            seen |= next;
            frontier = new;
        }
        // Rows of B for X = side \ {v}, reduced to a basis that remembers its combinations.
        let mut basis: Vec<(u64, u64)> = Vec::new();
        let reduce = |mut row: u64, mut combo: u64, basis: &[(u64, u64)]| {
            for &(b, c) in basis {
                let pivot = 63 - b.leading_zeros();
                if row >> pivot & 1 == 1 {
                    row ^= b;
                    combo ^= c;
                }
            }
            (row, combo)
        };
        for x in bits(side & !(1 << v)) {
            let (row, combo) = reduce(adj[x], 1 << x, &basis);
            if row != 0 {
                basis.push((row, combo));
                // Descending pivots: reducing by one never disturbs a higher pivot.
                basis.sort_unstable_by_key(|&(b, _)| b.leading_zeros());
            }
        }
        let (row, combo) = reduce(adj[v], 1 << v, &basis);
        Ok((row == 0).then(|| bits(combo).collect()))
    }
}

/// Verdict of the GF(2) criterion, with its certificate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Gf2Verdict {
    /// P-position: an even kernel containing the token.
    P { kernel: Vec<usize> },
    /// N-position: moving to `to` leaves an even kernel containing `to`.
    N { to: usize, kernel: Vec<usize> },
}

impl Gf2Verdict {
    pub fn is_p(&self) -> bool {
        matches!(self, Gf2Verdict::P { .. })
    }
}

impl Game for Ueg {
    type Pos = UegPos;
    fn start(&self) -> UegPos {
        self.start
    }
    fn options(&self, p: &UegPos) -> Vec<UegPos> {
        let t = p.token as usize;
        bits128(p.edges & self.inc[t])
            .map(|e| {
                let (a, b) = self.edges[e];
                UegPos {
                    edges: p.edges & !(1u128 << e),
                    token: if a == t { b } else { a } as u8,
                }
            })
            .collect()
    }
    /// Edges outside the token's component can never be used again.
    fn canonical(&self, p: &UegPos) -> UegPos {
        UegPos {
            edges: self.component_edges(p),
            token: p.token,
        }
    }
}

/// A graph of any size as adjacency lists with vertex names (for kernel certificates).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AdjLists {
    pub names: Vec<String>,
    pub adj: Vec<Vec<usize>>,
}

impl AdjLists {
    pub fn from_graph(g: &Graph) -> AdjLists {
        AdjLists {
            names: g.names().to_vec(),
            adj: (0..g.n()).map(|v| bits(g.adj(v)).collect()).collect(),
        }
    }

    /// SP(M,n) = C_M □ P_n of any size, with the names of `crate::graph::families`.
    pub fn stacked_prism(m: usize, n: usize) -> Result<AdjLists, GraphError> {
        if m < 3 || n < 1 {
            return Err(GraphError::BadParameter {
                family: format!("SP_{{{m},{n}}}"),
                why: "a stacked prism needs M >= 3 and n >= 1".into(),
            });
        }
        // Refused up front: the lists take M·n vertices (and a product beyond usize would
        // wrap the indices below).
        const MOST: usize = 1 << 20;
        if m.checked_mul(n).is_none_or(|v| v > MOST) {
            return Err(GraphError::BadParameter {
                family: format!("SP_{{{m},{n}}}"),
                why: format!("more than {MOST} vertices"),
            });
        }
        let idx = |i: usize, j: usize| (j - 1) * m + (i - 1);
        let mut g = AdjLists {
            names: vec![String::new(); m * n],
            adj: vec![Vec::new(); m * n],
        };
        for j in 1..=n {
            for i in 1..=m {
                g.names[idx(i, j)] = format!("({i},{j})");
                g.add_edge(idx(i, j), idx(i % m + 1, j));
                if j < n {
                    g.add_edge(idx(i, j), idx(i, j + 1));
                }
            }
        }
        Ok(g)
    }

    /// Adds the edge {a, b} (no effect if present).
    pub fn add_edge(&mut self, a: usize, b: usize) {
        if !self.adj[a].contains(&b) {
            self.adj[a].push(b);
            self.adj[b].push(a);
        }
    }

    /// Deletes the edge {a, b}; `false` if it was not there.
    pub fn remove_edge(&mut self, a: usize, b: usize) -> bool {
        let had = self.adj[a].contains(&b);
        self.adj[a].retain(|&x| x != b);
        self.adj[b].retain(|&x| x != a);
        had
    }

    pub fn index(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|x| x == name)
    }
}

/// A vertex set over an [`AdjLists`] graph of any size, as 64-bit words.
#[derive(Clone, Debug, PartialEq, Eq)]
struct BitRow(Vec<u64>);

impl BitRow {
    fn zero(n: usize) -> BitRow {
        BitRow(vec![0; n.div_ceil(64)])
    }
    fn set(&mut self, v: usize) {
        self.0[v / 64] |= 1 << (v % 64);
    }
    fn get(&self, v: usize) -> bool {
        self.0[v / 64] >> (v % 64) & 1 == 1
    }
    fn xor(&mut self, o: &BitRow) {
        for (a, b) in self.0.iter_mut().zip(&o.0) {
            *a ^= b;
        }
    }
    fn lowest(&self) -> Option<usize> {
        self.0
            .iter()
            .position(|&w| w != 0)
            .map(|k| k * 64 + self.0[k].trailing_zeros() as usize)
    }
    fn members(&self) -> Vec<usize> {
        let mut out = Vec::new();
        for (k, &w) in self.0.iter().enumerate() {
            let mut w = w;
            while w != 0 {
                out.push(k * 64 + w.trailing_zeros() as usize);
                w &= w - 1;
            }
        }
        out
    }
}

/// An even kernel of `g` containing `v` inside v's side of the bipartition of its component,
/// if one exists: the GF(2) criterion of the module header on graphs of any size (rows and
/// combinations as word vectors). `Err` if v's component has an odd cycle.
pub fn gf2_p_kernel(g: &AdjLists, v: usize) -> Result<Option<Vec<usize>>, UegError> {
    let n = g.names.len();
    let mut colour: Vec<Option<bool>> = vec![None; n];
    colour[v] = Some(true);
    let mut stack = vec![v];
    let mut side = Vec::new();
    while let Some(x) = stack.pop() {
        let cx = colour[x].expect("coloured when pushed");
        if cx {
            side.push(x);
        }
        for &y in &g.adj[x] {
            match colour[y] {
                None => {
                    colour[y] = Some(!cx);
                    stack.push(y);
                }
                Some(cy) if cy == cx => {
                    return Err(UegError::NotBipartite {
                        graph: "the certificate graph".into(),
                        vertex: g.names[y].clone(),
                    })
                }
                Some(_) => {}
            }
        }
    }
    let row_of = |x: usize| {
        let mut r = BitRow::zero(n);
        for &y in &g.adj[x] {
            r.set(y);
        }
        r
    };
    // Each basis row is reduced by the earlier ones at insertion, so reducing in insertion
    // order never brings back an earlier pivot.
    let mut basis: Vec<(usize, BitRow, BitRow)> = Vec::new();
    let reduce = |row: &mut BitRow, combo: &mut BitRow, basis: &[(usize, BitRow, BitRow)]| {
        for (p, b, c) in basis {
            if row.get(*p) {
                row.xor(b);
                combo.xor(c);
            }
        }
    };
    side.sort_unstable();
    for &x in side.iter().filter(|&&x| x != v) {
        let (mut row, mut combo) = (row_of(x), BitRow::zero(n));
        combo.set(x);
        reduce(&mut row, &mut combo, &basis);
        if let Some(p) = row.lowest() {
            basis.push((p, row, combo));
        }
    }
    let (mut row, mut combo) = (row_of(v), BitRow::zero(n));
    combo.set(v);
    reduce(&mut row, &mut combo, &basis);
    Ok(row.lowest().is_none().then(|| combo.members()))
}

/// The GF(2) verdict on (g, v) for graphs of any size (see [`Ueg::bipartite_verdict`]).
pub fn gf2_verdict(g: &AdjLists, v: usize) -> Result<Gf2Verdict, UegError> {
    if let Some(kernel) = gf2_p_kernel(g, v)? {
        return Ok(Gf2Verdict::P { kernel });
    }
    for &u in &g.adj[v] {
        let mut h = g.clone();
        h.remove_edge(v, u);
        if let Some(kernel) = gf2_p_kernel(&h, u)? {
            return Ok(Gf2Verdict::N { to: u, kernel });
        }
    }
    unreachable!("the GF(2) duality argument gives a winning move from an N-position")
}

/// Why a set is not an even kernel (containing the token), naming the offending vertex.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum KernelError {
    #[error("the set is empty")]
    Empty,
    #[error("the token {vertex} is not in the set")]
    MissingToken { vertex: String },
    #[error("{u} and {v} are both in the set and adjacent")]
    NotIndependent { u: String, v: String },
    #[error("{vertex} is outside the set and has {count} neighbours in it (odd)")]
    OddNeighbours { vertex: String, count: usize },
}

/// Checks that `set` is an even kernel of `g` (and contains `token`, when given).
pub fn check_even_kernel(
    g: &AdjLists,
    set: &[usize],
    token: Option<usize>,
) -> Result<(), KernelError> {
    let mut inside = vec![false; g.names.len()];
    for &v in set {
        inside[v] = true;
    }
    if set.is_empty() {
        return Err(KernelError::Empty);
    }
    if let Some(t) = token {
        if !inside[t] {
            return Err(KernelError::MissingToken {
                vertex: g.names[t].clone(),
            });
        }
    }
    for v in 0..g.names.len() {
        let count = g.adj[v].iter().filter(|&&u| inside[u]).count();
        if inside[v] {
            if let Some(&u) = g.adj[v].iter().find(|&&u| inside[u]) {
                let (a, b) = (v.min(u), v.max(u));
                return Err(KernelError::NotIndependent {
                    u: g.names[a].clone(),
                    v: g.names[b].clone(),
                });
            }
        } else if count % 2 == 1 {
            return Err(KernelError::OddNeighbours {
                vertex: g.names[v].clone(),
                count,
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::families;
    use crate::solve::Solver;

    fn sp(m: u64, n: u64) -> Graph {
        families::stacked_prism(m, n).unwrap()
    }

    #[test]
    fn ueg_small_graphs_by_hand() {
        // From an end of P_3 every play has exactly two moves: P.
        let g = Ueg::new(families::path(3).unwrap(), 0).unwrap();
        assert_eq!(Solver::new(&g).nim_of_start(), 0);
        // From the middle of P_3: the only moves reach an end with no edge left: N, value 1.
        let g = Ueg::new(families::path(3).unwrap(), 1).unwrap();
        assert_eq!(Solver::new(&g).nim_of_start(), 1);
        // C_4: any play goes round the cycle, 4 moves: P.
        let g = Ueg::new(families::cycle(4).unwrap(), 0).unwrap();
        assert_eq!(Solver::new(&g).nim_of_start(), 0);
        // C_5: 5 moves: N.
        let g = Ueg::new(families::cycle(5).unwrap(), 0).unwrap();
        assert_eq!(Solver::new(&g).nim_of_start(), 1);
    }

    #[test]
    fn ueg_sp_m2_is_p_iff_3_divides_m() {
        for m in 3..=12u64 {
            let g = Ueg::with_token_name(sp(m, 2), "(1,1)").unwrap();
            let mut memo = FxHashMap::default();
            let p = g.is_p_exhaustive(&g.start(), &mut memo);
            assert_eq!(p, m % 3 == 0, "SP({m},2)");
            let v = Solver::new(&g).nim_of_start();
            assert_eq!(v == 0, p, "SP({m},2)");
        }
    }

    #[test]
    fn gf2_agrees_with_exhaustive_on_bipartite_prisms() {
        let mut count = 0;
        for m in (4..=20u64).step_by(2) {
            for n in 1..=20 / m {
                let game = Ueg::new(sp(m, n), 0).unwrap();
                let mut memo = FxHashMap::default();
                for v in 0..game.graph().n() {
                    let pos = game.pos_at(v);
                    let exhaustive = game.is_p_exhaustive(&pos, &mut memo);
                    let verdict = game.bipartite_verdict(&pos).unwrap();
                    assert_eq!(verdict.is_p(), exhaustive, "SP({m},{n}) at {v}");
                    // The certificate is a real even kernel.
                    match verdict {
                        Gf2Verdict::P { kernel } => {
                            let g = game.adj_lists(pos.edges);
                            check_even_kernel(&g, &kernel, Some(v)).unwrap();
                        }
                        Gf2Verdict::N { to, kernel } => {
                            let e = game.edge_index(v, to).unwrap();
                            let g = game.adj_lists(pos.edges & !(1u128 << e));
                            check_even_kernel(&g, &kernel, Some(to)).unwrap();
                        }
                    }
                    count += 1;
                }
            }
        }
        // SP(4,1..=5): 60, SP(6,1..=3): 36, SP(8,1..=2): 24, SP(10,1..=2): 30, C_12..C_20: 80.
        assert_eq!(count, 230);
    }

    #[test]
    fn gf2_agrees_with_exhaustive_on_every_reachable_position() {
        for g in [sp(4, 2), sp(6, 2), sp(4, 3), families::grid(3, 3).unwrap()] {
            let game = Ueg::new(g, 0).unwrap();
            let mut s = Solver::new(&game);
            let reach = s.reachable(&game.start());
            assert!(reach.len() > 50);
            for (pos, v) in reach {
                let verdict = game.bipartite_verdict(&pos).unwrap();
                assert_eq!(verdict.is_p(), v == 0, "{} at {pos:?}", game.name());
            }
        }
    }

    #[test]
    fn gf2_on_adjacency_lists_agrees_with_bitmask_version() {
        for (m, n) in [(4u64, 3u64), (6, 2), (8, 2), (4, 4)] {
            let game = Ueg::new(sp(m, n), 0).unwrap();
            let g = game.adj_lists(game.start().edges);
            for v in 0..g.names.len() {
                let small = game.bipartite_verdict(&game.pos_at(v)).unwrap();
                let big = gf2_verdict(&g, v).unwrap();
                assert_eq!(small.is_p(), big.is_p(), "SP({m},{n}) at {v}");
            }
        }
        let c5 = AdjLists::from_graph(&families::cycle(5).unwrap());
        assert!(gf2_verdict(&c5, 0).is_err());
    }

    #[test]
    fn gf2_rejects_odd_cycles() {
        let g = Ueg::new(families::cycle(5).unwrap(), 0).unwrap();
        assert!(matches!(
            g.bipartite_verdict(&g.start()),
            Err(UegError::NotBipartite { .. })
        ));
    }

    /// Seed 002, Case m = 6k: {6i+1, \overline{6i+2}, \overline{6i+4}, 6i+5 : i < k} with
    /// vertex i ↔ (i,1) and ī ↔ (i,2).
    fn seed_kernel(g: &AdjLists, k: usize, shift: usize) -> Vec<usize> {
        let mut s = Vec::new();
        for i in 0..k {
            for (a, j) in [(1, 1), (2, 2), (4, 2), (5 + shift, 1)] {
                s.push(g.index(&format!("({},{j})", 6 * i + a)).unwrap());
            }
        }
        s
    }

    #[test]
    fn seed_002_even_kernel_family_sp_6k_2() {
        for k in 1..=20 {
            let g = AdjLists::stacked_prism(6 * k, 2).unwrap();
            let s = seed_kernel(&g, k, 0);
            let token = g.index("(1,1)");
            assert_eq!(check_even_kernel(&g, &s, token), Ok(()), "k = {k}");
        }
        // Wrong variant: 6i+6 instead of 6i+5 is rejected, naming the vertex.
        let g = AdjLists::stacked_prism(12, 2).unwrap();
        let err = check_even_kernel(&g, &seed_kernel(&g, 2, 1), g.index("(1,1)")).unwrap_err();
        assert_eq!(
            err,
            KernelError::NotIndependent {
                u: "(1,1)".into(),
                v: "(12,1)".into()
            }
        );
    }

    #[test]
    fn kernel_checker_names_the_offending_vertex() {
        let g = AdjLists::from_graph(&families::path(3).unwrap());
        assert_eq!(check_even_kernel(&g, &[], None), Err(KernelError::Empty));
        assert_eq!(
            check_even_kernel(&g, &[0], Some(1)),
            Err(KernelError::MissingToken {
                vertex: "v2".into()
            })
        );
        assert_eq!(
            check_even_kernel(&g, &[0], None),
            Err(KernelError::OddNeighbours {
                vertex: "v2".into(),
                count: 1
            })
        );
        assert_eq!(check_even_kernel(&g, &[0, 2], Some(0)), Ok(()));
        assert_eq!(
            check_even_kernel(&g, &[0, 1], None),
            Err(KernelError::NotIndependent {
                u: "v1".into(),
                v: "v2".into()
            })
        );
    }

    #[test]
    fn seed_002_win_certificates_sp_m2() {
        // Cases 1-3 of the N-position theorem: a first move, then an even kernel of the
        // remaining graph containing the token's new vertex.
        let name = |i: usize, bar: bool| format!("({i},{})", if bar { 2 } else { 1 });
        type Family = fn(usize) -> Vec<(usize, bool)>;
        let cases: [(usize, (usize, bool), Family); 3] = [
            (2, (1, true), |k| {
                let mut s = vec![(1, true)];
                for i in 0..k {
                    s.extend([
                        (6 * i + 3, true),
                        (6 * i + 4, false),
                        (6 * i + 6, false),
                        (6 * i + 7, true),
                    ]);
                }
                s
            }),
            (4, (2, false), |k| {
                let mut s = vec![(1, true), (2, false), (4, false)];
                for i in 0..k {
                    s.extend([
                        (6 * i + 5, true),
                        (6 * i + 7, true),
                        (6 * i + 8, false),
                        (6 * i + 10, false),
                    ]);
                }
                s
            }),
            (5, (2, false), |k| {
                let mut s = vec![(1, false), (2, false), (3, true), (5, true)];
                for i in 0..k {
                    s.extend([
                        (6 * i + 6, false),
                        (6 * i + 8, false),
                        (6 * i + 9, true),
                        (6 * i + 11, true),
                    ]);
                }
                s
            }),
        ];
        for (r, (to, to_bar), family) in cases {
            for k in 0..=20usize {
                let m = r + 6 * k;
                if m < 3 {
                    continue;
                }
                let mut g = AdjLists::stacked_prism(m, 2).unwrap();
                let from = g.index("(1,1)").unwrap();
                let to_v = g.index(&name(to, to_bar)).unwrap();
                assert!(g.remove_edge(from, to_v));
                let s: Vec<usize> = family(k)
                    .into_iter()
                    .map(|(i, b)| g.index(&name(i, b)).unwrap())
                    .collect();
                assert_eq!(check_even_kernel(&g, &s, Some(to_v)), Ok(()), "m = {m}");
            }
        }
    }

    /// Vertex `i` (or `ī` when `bar`) of SP(m,2), indices taken as written in seed 002.
    fn v2(g: &AdjLists, i: usize, bar: bool) -> Result<usize, String> {
        let name = format!("({i},{})", if bar { 2 } else { 1 });
        g.index(&name).ok_or(name)
    }

    /// Checks one certificate of seed 002 on SP(m,2): delete the played `trail`, then
    /// `kernel` must be an even kernel containing the trail's last vertex.
    fn certificate(
        m: usize,
        trail: &[(usize, bool)],
        kernel: &[(usize, bool)],
    ) -> Result<(), String> {
        let mut g = AdjLists::stacked_prism(m, 2).map_err(|e| e.to_string())?;
        for w in trail.windows(2) {
            let (a, b) = (v2(&g, w[0].0, w[0].1)?, v2(&g, w[1].0, w[1].1)?);
            if !g.remove_edge(a, b) {
                return Err(format!("no edge {a}-{b}"));
            }
        }
        let last = trail.last().expect("nonempty trail");
        let token = v2(&g, last.0, last.1)?;
        let s = kernel
            .iter()
            .map(|&(i, b)| v2(&g, i, b))
            .collect::<Result<Vec<_>, _>>()?;
        check_even_kernel(&g, &s, Some(token)).map_err(|e| e.to_string())
    }

    fn family(fixed: &[(usize, bool)], k: usize, block: [(usize, bool); 4]) -> Vec<(usize, bool)> {
        let mut s = fixed.to_vec();
        for i in 0..k {
            s.extend(block.map(|(a, b)| (6 * i + a, b)));
        }
        s
    }

    #[test]
    fn seed_002_p_case_m_3_mod_6() {
        // Second player's replies in SP(3+6k, 2), k >= 1 (Cases 2.1, 2.2.1, 2.2.2).
        for k in 1..=20 {
            let m = 3 + 6 * k;
            let (t, f) = (true, false);
            certificate(
                m,
                &[(1, f), (2, f), (3, f)],
                &family(
                    &[(1, t), (2, f), (3, f)],
                    k,
                    [(4, t), (6, t), (7, f), (9, f)],
                ),
            )
            .unwrap();
            certificate(
                m,
                &[(1, f), (1, t), (2, t), (2, f), (3, f)],
                &family(
                    &[(2, f), (2, t), (3, f)],
                    k,
                    [(5, f), (6, t), (8, t), (9, f)],
                ),
            )
            .unwrap();
            certificate(
                m,
                &[(1, f), (1, t), (2, t), (3, t), (4, t)],
                &family(&[(1, t)], k, [(4, t), (5, f), (7, f), (8, t)]),
            )
            .unwrap();
        }
    }

    #[test]
    fn seed_002_n_case_m_1_mod_6() {
        // Case 4 (m = 1 + 6k): 1 → 2, then either reply is answered into an even kernel.
        let (t, f) = (true, false);
        for k in 1..=20 {
            let m = 1 + 6 * k;
            certificate(
                m,
                &[(1, f), (2, f), (2, t), (1, t)],
                &family(&[(1, t)], k, [(2, t), (4, t), (5, f), (7, f)]),
            )
            .unwrap();
        }
        // Case 4.2 as printed, {1,4,5̄,7̄} ∪ {6i+8, 6i+10, ‾6i+11, ‾6i+13 : i < k}, names
        // vertices beyond m for i = k-1; with i < k-1 it is an even kernel.
        for k in 1..=20 {
            let m = 1 + 6 * k;
            let trail = [(1, f), (2, f), (3, f), (4, f)];
            let fixed = [(1, f), (4, f), (5, t), (7, t)];
            let block = [(8, f), (10, f), (11, t), (13, t)];
            assert_eq!(
                certificate(m, &trail, &family(&fixed, k, block)),
                Err(format!("({},1)", m + 1))
            );
            certificate(m, &trail, &family(&fixed, k - 1, block)).unwrap();
        }
    }
}
