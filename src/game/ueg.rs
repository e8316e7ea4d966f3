//! Undirected edge geography UEG(G, v) (seed 002): a token sits on a vertex; a move slides it
//! along an edge at the token and deletes that edge. Three tools:
//!
//! - [`Ueg`]: the game, solved exhaustively (nim-value, outcome) by the crate's `Solver`,
//!   memoised on (remaining edges, token) after dropping edges outside the token's component
//!   (they can never be used again, so the value is unchanged). Positions are `u128` edge sets,
//!   so exhaustive search needs at most [`MAX_EDGES`] edges and [`MAX_TOKEN_VERTICES`]
//!   vertices; [`Ueg::exhaustive_estimate`] bounds its cost beforehand so that a caller can
//!   refuse instead of exhausting memory.
//! - [`check_even_kernel`]: an even kernel is a nonempty independent set S such that every
//!   vertex outside S has an even number of neighbours in S; if it contains the token, the
//!   position is P (seed 002, Theorem 2: from v ∈ S the mover must leave S along an edge vu;
//!   u then has an odd number of S-neighbours, so the reply returns to S and S stays an even
//!   kernel of the smaller graph). Works on graphs of any size ([`AdjLists`]).
//! - [`gf2_verdict`]: the polynomial criterion for bipartite graphs (Fraenkel, Scheinerman and
//!   Ullman, "Undirected edge geography", TCS 112 (1993)), derived here: with the token v on
//!   side X and B the X×Y biadjacency matrix over GF(2), (G, v) is a P-position iff the row of
//!   v lies in the span of the other rows of B. If so, a set S ∋ v of rows summing to zero is
//!   an even kernel (it lies in X, so it is independent). If not, by duality there is T ⊆ Y
//!   with an odd number of neighbours of v and an even number of neighbours of every other
//!   x ∈ X in T (a solution of B·T = e_v); moving to u ∈ T ∩ N(v) leaves T an even kernel of
//!   G − vu containing u, so (G, v) is an N-position. Gaussian elimination on word-vector rows,
//!   graphs of any size; [`Ueg::solve_fast`] is the front door that picks it.

use super::{Features, Game, Value};
use crate::graph::{Graph, GraphError};
use rustc_hash::FxHashMap;
use std::sync::Arc;
use thiserror::Error;

/// The most edges the exhaustive solver handles (edge sets are `u128`).
pub const MAX_EDGES: usize = 128;
/// The most vertices the exhaustive solver handles (the token is a `u8`).
pub const MAX_TOKEN_VERTICES: usize = 256;
/// Default budget of the exhaustive solver, in positions (a memo entry takes about 48 bytes,
/// so this is a few GB at most).
pub const DEFAULT_MAX_POSITIONS: f64 = 5e8;
/// Budget of the GF(2) criterion in 64-bit word operations (about a second).
pub const GF2_MAX_WORD_OPS: f64 = 4e9;

#[derive(Debug, Error, Clone, PartialEq)]
pub enum UegError {
    #[error("unknown vertex `{vertex}` in graph {graph}")]
    UnknownVertex { graph: String, vertex: String },
    #[error("the component of the token in {graph} is not bipartite (odd cycle through {vertex})")]
    NotBipartite { graph: String, vertex: String },
    #[error("{game}: the exhaustive solver needs at most {MAX_EDGES} edges and {MAX_TOKEN_VERTICES} vertices in the token's component, this one has {edges} edges and {vertices} vertices{hint}")]
    TooLargeForExhaustive {
        game: String,
        edges: usize,
        vertices: usize,
        hint: String,
    },
    #[error("{game}: exhaustive search refused: about {estimate:.2e} positions (budget {budget:.0e}; {edges} edges in the token's component){hint}")]
    OverBudget {
        game: String,
        estimate: f64,
        budget: f64,
        edges: usize,
        hint: String,
    },
    #[error("{game}: the GF(2) criterion would take about {ops:.2e} word operations (budget {GF2_MAX_WORD_OPS:.0e})")]
    Gf2TooLarge { game: String, ops: f64 },
}

/// A position: the remaining edges (bit i = edge i of [`Ueg::edges`]) and the token.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct UegPos {
    pub edges: u128,
    pub token: u8,
}

/// UEG on a graph of any size, started at a position. Only games whose token component fits
/// [`MAX_EDGES`] and [`MAX_TOKEN_VERTICES`] have exhaustive positions ([`Ueg::exhaustive_ok`]);
/// the others are decided by the GF(2) criterion when bipartite, and refused otherwise.
#[derive(Clone, Debug)]
pub struct Ueg {
    graph: Arc<Graph>,
    /// The token's vertex at the start (any size).
    token: usize,
    /// Edges of the exhaustive representation (the whole graph when it fits, else empty).
    edges: Vec<(usize, usize)>,
    /// Edges incident to each vertex (exhaustive representation).
    inc: Vec<u128>,
    start: UegPos,
    /// Why the exhaustive representation is unavailable.
    too_large: Option<(usize, usize)>,
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
    if k >= 128 {
        u128::MAX
    } else {
        (1u128 << k) - 1
    }
}

/// Whether a graph given by adjacency lists is bipartite (a 2-colouring by breadth-first
/// search, every component).
pub fn is_bipartite(adj: &[Vec<usize>]) -> bool {
    let mut colour = vec![u8::MAX; adj.len()];
    for s in 0..adj.len() {
        if colour[s] != u8::MAX {
            continue;
        }
        colour[s] = 0;
        let mut queue = vec![s];
        while let Some(v) = queue.pop() {
            for &w in &adj[v] {
                if colour[w] == u8::MAX {
                    colour[w] = 1 - colour[v];
                    queue.push(w);
                } else if colour[w] == colour[v] {
                    return false;
                }
            }
        }
    }
    true
}

/// Most vertices of a graph whose even kernels [`token_in_even_kernel`] searches.
pub const EVEN_KERNEL_SEARCH_VERTICES: usize = 16;

/// Whether some even kernel of the graph contains `t` (seed 002, Theorem 2's hypothesis): a
/// set S ∋ t, independent, with an even number of neighbours in S at every vertex outside
/// S. Searched over every independent S ∋ t within t's component (an even kernel restricted to
/// t's component is one: no vertex outside it has a neighbour in it); `None` on a graph of
/// more than [`EVEN_KERNEL_SEARCH_VERTICES`] vertices.
pub fn token_in_even_kernel(adj: &[Vec<usize>], t: usize) -> Option<bool> {
    let n = adj.len();
    if n > EVEN_KERNEL_SEARCH_VERTICES || t >= n {
        return None;
    }
    let nb: Vec<u32> = adj
        .iter()
        .map(|a| a.iter().fold(0u32, |m, &w| m | 1 << w))
        .collect();
    let mut comp = 1u32 << t;
    let mut grow = comp;
    while grow != 0 {
        let v = grow.trailing_zeros() as usize;
        grow &= grow - 1;
        let new = nb[v] & !comp;
        comp |= new;
        grow |= new;
    }
    let others: Vec<usize> = (0..n).filter(|&v| v != t && comp >> v & 1 == 1).collect();
    let even =
        |s: u32| (0..n).all(|v| s >> v & 1 == 1 || (nb[v] & s).count_ones().is_multiple_of(2));
    // Every subset of the other vertices of the component, with t, that is independent.
    Some((0u32..1 << others.len()).any(|bits| {
        let s = others
            .iter()
            .enumerate()
            .filter(|(i, _)| bits >> i & 1 == 1)
            .fold(1u32 << t, |m, (_, &v)| m | 1 << v);
        (0..n).all(|v| s >> v & 1 == 0 || nb[v] & s == 0) && even(s)
    }))
}

/// Vertex set of at most [`MAX_TOKEN_VERTICES`] vertices, on the stack (hot path of
/// `canonical`).
#[derive(Clone, Copy, Default)]
struct Small([u64; 4]);

impl Small {
    fn insert(&mut self, v: usize) -> bool {
        let (w, b) = (v / 64, 1u64 << (v % 64));
        let new = self.0[w] & b == 0;
        self.0[w] |= b;
        new
    }
}

/// Edges and vertices of the component of `token` in `g` (any size).
fn component_size(g: &Graph, token: usize) -> (usize, usize) {
    let d = g.distances_from(token);
    let inside: Vec<usize> = (0..g.n()).filter(|&v| d[v] != u32::MAX).collect();
    let edges = inside.iter().map(|&v| g.degree(v) as usize).sum::<usize>() / 2;
    (edges, inside.len())
}

impl Ueg {
    /// UEG(G, v) with every edge present, on a graph of any size.
    pub fn new(graph: Graph, token: usize) -> Result<Ueg, UegError> {
        let (k, c) = component_size(&graph, token);
        let fits = graph.edge_count() <= MAX_EDGES && graph.n() <= MAX_TOKEN_VERTICES;
        let (edges, inc, start) = if fits {
            let edges = graph.edges();
            let mut inc = vec![0u128; graph.n()];
            for (i, &(a, b)) in edges.iter().enumerate() {
                inc[a] |= 1 << i;
                inc[b] |= 1 << i;
            }
            let start = UegPos {
                edges: all_edges(edges.len()),
                token: token as u8,
            };
            (edges, inc, start)
        } else {
            (Vec::new(), Vec::new(), UegPos { edges: 0, token: 0 })
        };
        Ok(Ueg {
            graph: Arc::new(graph),
            token,
            edges,
            inc,
            start,
            too_large: (!fits).then_some((k, c)),
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
        g.token = pos.token as usize;
        g
    }

    pub fn graph(&self) -> &Graph {
        &self.graph
    }
    pub fn edges(&self) -> &[(usize, usize)] {
        &self.edges
    }
    /// Whether positions of this game are representable for the exhaustive solver.
    pub fn exhaustive_ok(&self) -> bool {
        self.too_large.is_none()
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
            self.graph.vertex_name(self.token)
        );
        if self.exhaustive_ok() {
            let missing = all_edges(self.edges.len()) & !self.start.edges;
            if missing != 0 {
                s.push_str(&format!(" − {}", self.edge_names(missing).join(" ")));
            }
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
        self.features_for(p, true)
    }

    /// [`Ueg::features`]; `token_in_even_kernel` (a search over vertex sets) only if `costly`.
    pub fn features_for(&self, p: &UegPos, costly: bool) -> Features {
        let mut f = Features::new();
        if self.exhaustive_ok() {
            let adj = self.adj_lists(p.edges);
            f.insert("bipartite".into(), Value::Bool(is_bipartite(&adj.adj)));
            if costly {
                if let Some(k) = token_in_even_kernel(&adj.adj, p.token as usize) {
                    f.insert("token_in_even_kernel".into(), Value::Bool(k));
                }
            }
        }
        let t = p.token as usize;
        f.insert(
            "token".into(),
            Value::Set(vec![self.graph.vertex_name(t).to_string()]),
        );
        let degree = self.inc.get(t).map_or(0, |&i| (p.edges & i).count_ones());
        f.insert("token_degree".into(), Value::Int(degree as i64));
        f.insert("edges_left".into(), Value::Int(p.edges.count_ones() as i64));
        f.insert(
            "removed".into(),
            Value::Set(self.edge_names(all_edges(self.edges.len()) & !p.edges)),
        );
        f
    }

    /// The remaining graph of a position as adjacency lists (for [`check_even_kernel`]).
    pub fn adj_lists(&self, edges: u128) -> AdjLists {
        let mut adj = vec![Vec::new(); self.graph.n()];
        for i in bits128(edges) {
            let (a, b) = self.edges[i];
            adj[a].push(b);
            adj[b].push(a);
        }
        AdjLists {
            names: self.graph.names().to_vec(),
            adj,
        }
    }

    /// Edges of the component of the token.
    fn component_edges(&self, p: &UegPos) -> u128 {
        let mut reach = Small::default();
        reach.insert(p.token as usize);
        let mut used: u128 = 0;
        let mut grow = self.inc[p.token as usize] & p.edges;
        while grow != 0 {
            used |= grow;
            let mut next: u128 = 0;
            for i in bits128(grow) {
                let (a, b) = self.edges[i];
                for x in [a, b] {
                    if reach.insert(x) {
                        next |= self.inc[x];
                    }
                }
            }
            grow = next & p.edges & !used;
        }
        used
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

    /// The GF(2) criterion for bipartite components (module header) at a position of the
    /// exhaustive representation. `Err` if the token's component has an odd cycle.
    pub fn bipartite_verdict(&self, p: &UegPos) -> Result<Gf2Verdict, UegError> {
        gf2_verdict(&self.adj_lists(p.edges), p.token as usize).map_err(|e| self.named(e))
    }

    fn named(&self, e: UegError) -> UegError {
        match e {
            UegError::NotBipartite { vertex, .. } => UegError::NotBipartite {
                graph: self.graph.name().to_string(),
                vertex,
            },
            UegError::Gf2TooLarge { ops, .. } => UegError::Gf2TooLarge {
                game: self.name(),
                ops,
            },
            e => e,
        }
    }

    /// The GF(2) verdict at the start, for graphs of any size.
    pub fn gf2_start(&self) -> Result<Gf2Verdict, UegError> {
        let g = if self.exhaustive_ok() {
            self.adj_lists(self.start.edges)
        } else {
            AdjLists::from_graph(&self.graph)
        };
        gf2_verdict(&g, self.token).map_err(|e| self.named(e))
    }

    /// The fastest sound method for the outcome at the start, when one applies: the GF(2)
    /// criterion when the token's component is bipartite (any size). `Some((is_p, method))`.
    /// The one place that decides how UEG is routed; solvers' dispatchers call it first.
    pub fn solve_fast(&self) -> Option<(bool, &'static str)> {
        self.gf2_start().ok().map(|v| (v.is_p(), "gf2"))
    }

    /// An upper estimate of the positions the exhaustive solver would store, or why it cannot
    /// run at all: min(2^k · c, a sampled estimate of the number of trails from the token)
    /// for k edges and c vertices in the token's component (Knuth's estimator of the size of
    /// the trail tree, 256 walks from a fixed seed, so the answer is deterministic).
    pub fn exhaustive_estimate(&self) -> Result<f64, UegError> {
        if let Some((edges, vertices)) = self.too_large {
            return Err(UegError::TooLargeForExhaustive {
                game: self.name(),
                edges,
                vertices,
                hint: self.hint(),
            });
        }
        let comp = self.component_edges(&self.start);
        let k = comp.count_ones() as i32;
        let mut verts = Small::default();
        let mut c = 1;
        verts.insert(self.start.token as usize);
        for i in bits128(comp) {
            let (a, b) = self.edges[i];
            c += verts.insert(a) as i32 + verts.insert(b) as i32;
        }
        let bound = 2f64.powi(k) * c as f64;
        let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut total = 0.0;
        const WALKS: usize = 256;
        for _ in 0..WALKS {
            let (mut p, mut weight, mut sum) = (self.start, 1.0f64, 1.0f64);
            loop {
                let moves = p.edges & self.inc[p.token as usize];
                let d = moves.count_ones();
                if d == 0 {
                    break;
                }
                weight *= d as f64;
                sum += weight;
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let e = bits128(moves)
                    .nth((seed % d as u64) as usize)
                    .expect("d moves");
                let (a, b) = self.edges[e];
                p = UegPos {
                    edges: p.edges & !(1u128 << e),
                    token: if a == p.token as usize { b } else { a } as u8,
                };
            }
            total += sum;
        }
        Ok(bound.min(total / WALKS as f64))
    }

    /// `Ok` if the exhaustive solver may run within `budget` positions, else the refusal with
    /// its estimate and a hint.
    pub fn exhaustive_guard(&self, budget: f64) -> Result<f64, UegError> {
        let estimate = self.exhaustive_estimate()?;
        if estimate > budget {
            return Err(UegError::OverBudget {
                game: self.name(),
                estimate,
                budget,
                edges: self.component_edges(&self.start).count_ones() as usize,
                hint: self.hint(),
            });
        }
        Ok(estimate)
    }

    fn hint(&self) -> String {
        match self.gf2_start() {
            Err(UegError::NotBipartite { vertex, .. }) => format!(
                "; the GF(2) criterion does not apply either (odd cycle through {vertex}); try a smaller instance, or a bipartite one (SP_{{M,n}} with M even)"
            ),
            Err(UegError::Gf2TooLarge { ops, .. }) => format!(
                "; the GF(2) criterion would take about {ops:.2e} word operations, over its budget of {GF2_MAX_WORD_OPS:.0e}; try a smaller instance"
            ),
            _ => String::new(),
        }
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
        let Some(&inc) = self.inc.get(p.token as usize) else {
            // No exhaustive representation (callers check `exhaustive_ok` first).
            return Vec::new();
        };
        let t = p.token as usize;
        bits128(p.edges & inc)
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
        if !self.exhaustive_ok() {
            return *p;
        }
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
            adj: (0..g.n()).map(|v| g.neighbours(v).to_vec()).collect(),
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

/// The two sides of the component of `v` in `g` (v's side first, each sorted), or the
/// vertex closing an odd cycle.
fn two_colour(g: &AdjLists, v: usize) -> Result<(Vec<usize>, Vec<usize>), UegError> {
    let n = g.names.len();
    let mut colour: Vec<Option<bool>> = vec![None; n];
    colour[v] = Some(true);
    let mut stack = vec![v];
    let (mut x, mut y) = (Vec::new(), Vec::new());
    while let Some(a) = stack.pop() {
        let ca = colour[a].expect("coloured when pushed");
        if ca {
            x.push(a);
        } else {
            y.push(a);
        }
        for &b in &g.adj[a] {
            match colour[b] {
                None => {
                    colour[b] = Some(!ca);
                    stack.push(b);
                }
                Some(cb) if cb == ca => {
                    return Err(UegError::NotBipartite {
                        graph: "the certificate graph".into(),
                        vertex: g.names[b].clone(),
                    })
                }
                Some(_) => {}
            }
        }
    }
    x.sort_unstable();
    y.sort_unstable();
    Ok((x, y))
}

/// Rows of the X×Y biadjacency matrix as word vectors over Y's positions.
fn biadjacency(g: &AdjLists, x: &[usize], y: &[usize]) -> Vec<BitRow> {
    let mut col = vec![usize::MAX; g.names.len()];
    for (k, &b) in y.iter().enumerate() {
        col[b] = k;
    }
    x.iter()
        .map(|&a| {
            let mut r = BitRow::zero(y.len());
            for &b in &g.adj[a] {
                r.set(col[b]);
            }
            r
        })
        .collect()
}

/// Word operations of the elimination: rows × rank × (row words + combination words).
fn gf2_cost(x: usize, y: usize) -> f64 {
    let (xw, yw) = (x.div_ceil(64) as f64, y.div_ceil(64) as f64);
    x as f64 * x.min(y) as f64 * (xw + yw)
}

/// Reduces `row` (with its combination) by a basis whose rows were each reduced by the
/// earlier ones at insertion, so reducing in insertion order never brings back a pivot.
fn reduce(row: &mut BitRow, combo: &mut BitRow, basis: &[(usize, BitRow, BitRow)]) {
    for (p, b, c) in basis {
        if row.get(*p) {
            row.xor(b);
            combo.xor(c);
        }
    }
}

/// The GF(2) verdict on (g, v) for graphs of any size: the P test, and for an N-position the
/// solution T of B·T = e_v (module header), both from one elimination. `Err` if v's component
/// has an odd cycle or the elimination is over [`GF2_MAX_WORD_OPS`].
pub fn gf2_verdict(g: &AdjLists, v: usize) -> Result<Gf2Verdict, UegError> {
    let (x, y) = two_colour(g, v)?;
    let ops = gf2_cost(x.len(), y.len());
    if ops > GF2_MAX_WORD_OPS {
        return Err(UegError::Gf2TooLarge {
            game: "the GF(2) criterion".into(),
            ops,
        });
    }
    let rows = biadjacency(g, &x, &y);
    let iv = x.binary_search(&v).expect("v is on its own side");
    // Basis of the rows of X \ {v}, each with the set of rows it sums.
    let mut basis: Vec<(usize, BitRow, BitRow)> = Vec::new();
    for (k, r) in rows.iter().enumerate().filter(|&(k, _)| k != iv) {
        let (mut row, mut combo) = (r.clone(), BitRow::zero(x.len()));
        combo.set(k);
        reduce(&mut row, &mut combo, &basis);
        if let Some(p) = row.lowest() {
            basis.push((p, row, combo));
        }
    }
    let (mut row, mut combo) = (rows[iv].clone(), BitRow::zero(x.len()));
    combo.set(iv);
    reduce(&mut row, &mut combo, &basis);
    if row.lowest().is_none() {
        return Ok(Gf2Verdict::P {
            kernel: combo.members().into_iter().map(|k| x[k]).collect(),
        });
    }
    // N: solve the basis rows · T = 0 and row · T = 1 (the rows are independent, so the
    // system is consistent): reduced row echelon form, free variables 0.
    let mut sys: Vec<(BitRow, bool)> = basis.into_iter().map(|(_, b, _)| (b, false)).collect();
    sys.push((row, true));
    let mut pivots = Vec::with_capacity(sys.len());
    for i in 0..sys.len() {
        let p = sys[i].0.lowest().expect("independent rows stay nonzero");
        let (pivot_row, pivot_rhs) = sys[i].clone();
        for (j, (r, rhs)) in sys.iter_mut().enumerate() {
            if j != i && r.get(p) {
                r.xor(&pivot_row);
                *rhs ^= pivot_rhs;
            }
        }
        pivots.push(p);
    }
    let mut kernel: Vec<usize> = sys
        .iter()
        .zip(&pivots)
        .filter(|((_, rhs), _)| *rhs)
        .map(|(_, &p)| y[p])
        .collect();
    kernel.sort_unstable();
    let to = *g.adj[v]
        .iter()
        .filter(|u| kernel.binary_search(u).is_ok())
        .min()
        .expect("B·T = e_v: v has an odd number of neighbours in T");
    Ok(Gf2Verdict::N { to, kernel })
}

/// An even kernel of `g` containing `v` inside v's side of the bipartition of its component,
/// if one exists (the P case of [`gf2_verdict`]).
pub fn gf2_p_kernel(g: &AdjLists, v: usize) -> Result<Option<Vec<usize>>, UegError> {
    Ok(match gf2_verdict(g, v)? {
        Gf2Verdict::P { kernel } => Some(kernel),
        Gf2Verdict::N { .. } => None,
    })
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
    fn gf2_certificates_on_large_prisms_are_even_kernels() {
        // Beyond every bitmask: 96, 1160 and 48 vertices; each verdict's certificate is
        // checked independently (P: a kernel through the token; N: a move, then a kernel).
        let mut seen = [0usize; 2];
        for (m, n) in [(12usize, 8usize), (40, 29), (6, 8), (64, 3)] {
            let g = AdjLists::stacked_prism(m, n).unwrap();
            for v in (0..g.names.len()).step_by(7) {
                match gf2_verdict(&g, v).unwrap() {
                    Gf2Verdict::P { kernel } => {
                        check_even_kernel(&g, &kernel, Some(v)).unwrap();
                        seen[0] += 1;
                    }
                    Gf2Verdict::N { to, kernel } => {
                        let mut h = g.clone();
                        assert!(h.remove_edge(v, to), "SP({m},{n}): {v}-{to} is a move");
                        check_even_kernel(&h, &kernel, Some(to)).unwrap();
                        seen[1] += 1;
                    }
                }
            }
        }
        assert!(seen[0] > 0 && seen[1] > 0, "both outcomes occur: {seen:?}");
        let c5 = AdjLists::from_graph(&families::cycle(5).unwrap());
        assert!(gf2_verdict(&c5, 0).is_err());
    }

    #[test]
    fn solve_fast_routes_bipartite_games_of_any_size_to_gf2() {
        let big = crate::graph::parse_large_graph("SP_{12,8}").unwrap();
        let game = Ueg::with_token_name(big, "(1,1)").unwrap();
        assert!(!game.exhaustive_ok());
        assert_eq!(game.solve_fast().map(|(_, m)| m), Some("gf2"));
        // Odd M: no fast method; the exhaustive solver is refused with an estimate.
        let odd = Ueg::with_token_name(sp(7, 9), "(1,1)").unwrap();
        assert_eq!(odd.solve_fast(), None);
        match odd.exhaustive_guard(DEFAULT_MAX_POSITIONS) {
            Err(UegError::OverBudget { estimate, .. }) => assert!(estimate > 1e20),
            other => panic!("expected a refusal, got {other:?}"),
        }
        // Small odd prisms stay with the exhaustive solver, within budget.
        let small = Ueg::with_token_name(sp(5, 2), "(1,1)").unwrap();
        let est = small.exhaustive_guard(DEFAULT_MAX_POSITIONS).unwrap();
        let mut s = Solver::new(&small);
        assert_eq!(s.nim_of_start(), 1);
        assert!(
            est >= s.stats().positions as f64,
            "{est} is an upper estimate"
        );
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
