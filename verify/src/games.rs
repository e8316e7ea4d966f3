//! The games, re-implemented from their definitions and nothing else: geodetic convexity,
//! TER and DNT (paper 000 §2–§3), Dawson's Chess (before Prop 5.19), the multiset terminate
//! game (before Prop 5.14), the splitting game SPL (§5.5), nimbers, disjoint and ordinal sums
//! (before Prop 5.26), undirected edge geography (seed 002), Node Kayles (take a vertex and its
//! neighbours out of play) and mex.
//!
//! Naive on purpose: distances by breadth-first search, hulls by closing under intervals until
//! nothing changes, options listed literally. Positions are read from the certificate's JSON
//! by the game they belong to, so a malformed position is an error, never a guess.

use serde::Deserialize;
use serde_json::Value;
use std::collections::{HashSet, VecDeque};

/// Most vertices and edges of a certificate's graph.
pub const MAX_GRAPH_VERTICES: usize = 100_000;
pub const MAX_GRAPH_EDGES: usize = 1_000_000;

/// A simple undirected graph on vertices `0..n`.
#[derive(Clone, Debug, Deserialize)]
pub struct Graph {
    pub n: usize,
    pub edges: Vec<(usize, usize)>,
}

impl Graph {
    pub fn validate(&self) -> Result<(), String> {
        // Bounds first: every check below is linear or better in n and the edges.
        if self.n > MAX_GRAPH_VERTICES || self.edges.len() > MAX_GRAPH_EDGES {
            return Err(format!(
                "a graph of {} vertices and {} edges: the verifier reads at most {MAX_GRAPH_VERTICES} and {MAX_GRAPH_EDGES}",
                self.n,
                self.edges.len()
            ));
        }
        let mut seen = HashSet::new();
        for &(a, b) in &self.edges {
            if !seen.insert((a.min(b), a.max(b))) {
                return Err(format!("edge ({a},{b}) is listed twice"));
            }
        }
        for &(a, b) in &self.edges {
            if a >= self.n || b >= self.n || a == b {
                return Err(format!(
                    "edge ({a},{b}) is not an edge of a simple graph on {} vertices",
                    self.n
                ));
            }
        }
        Ok(())
    }

    pub fn neighbours(&self, v: usize) -> Vec<usize> {
        let mut out = Vec::new();
        for &(a, b) in &self.edges {
            if a == v {
                out.push(b);
            } else if b == v {
                out.push(a);
            }
        }
        out
    }

    /// Distances from `s` by breadth-first search (`None`: unreachable).
    pub fn distances(&self, s: usize) -> Vec<Option<usize>> {
        let mut d = vec![None; self.n];
        d[s] = Some(0);
        let mut queue = VecDeque::from([s]);
        while let Some(x) = queue.pop_front() {
            for y in self.neighbours(x) {
                if d[y].is_none() {
                    d[y] = Some(d[x].unwrap() + 1);
                    queue.push_back(y);
                }
            }
        }
        d
    }
}

/// Geodetic convexity (paper 000 §2.1): the interval I[u,v] is the set of vertices on shortest
/// u–v paths, w ∈ I[u,v] iff d(u,w) + d(w,v) = d(u,v); a set is convex when it contains the
/// interval of each pair of its vertices, and the hull [S] is the least convex superset of S.
pub struct Convexity {
    n: usize,
    /// `interval[u][v]` as a vertex set (bit w = vertex w).
    interval: Vec<Vec<u64>>,
}

impl Convexity {
    pub fn new(g: &Graph) -> Result<Convexity, String> {
        if g.n > 64 {
            return Err(format!("{} vertices: positions are 64-bit sets", g.n));
        }
        let dist: Vec<Vec<Option<usize>>> = (0..g.n).map(|s| g.distances(s)).collect();
        let mut interval = vec![vec![0u64; g.n]; g.n];
        for u in 0..g.n {
            for v in 0..g.n {
                // Without a u–v path there is no shortest path: the interval is {u, v}.
                let mut set = (1u64 << u) | (1u64 << v);
                if let Some(duv) = dist[u][v] {
                    for w in 0..g.n {
                        if let (Some(a), Some(b)) = (dist[u][w], dist[w][v]) {
                            if a + b == duv {
                                set |= 1 << w;
                            }
                        }
                    }
                }
                interval[u][v] = set;
            }
        }
        Ok(Convexity { n: g.n, interval })
    }

    /// [S]: add the interval of every pair until a fixed point (§2.1).
    pub fn hull(&self, s: u64) -> u64 {
        let mut cur = s;
        loop {
            let mut next = cur;
            for u in 0..self.n {
                for v in 0..self.n {
                    if cur >> u & 1 == 1 && cur >> v & 1 == 1 {
                        next |= self.interval[u][v];
                    }
                }
            }
            if next == cur {
                return cur;
            }
            cur = next;
        }
    }

    pub fn n(&self) -> usize {
        self.n
    }

    pub fn all(&self) -> u64 {
        if self.n == 64 {
            u64::MAX
        } else {
            (1u64 << self.n) - 1
        }
    }

    /// §3: P is terminating iff [V \ P] ≠ V.
    pub fn terminating(&self, p: u64) -> bool {
        self.hull(self.all() & !p) != self.all()
    }
}

/// The SPL position (c, λ): `lambda = Some(n)` is the special partition Λ^n.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Spl {
    pub c: u32,
    pub lambda: Option<u32>,
    pub parts: Vec<u32>,
}

/// A position of any game below.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Pos {
    /// A vertex set or a pin row (bit i = vertex or pin i).
    Set(u64),
    Nim(u32),
    /// A multiset, ascending.
    Multi(Vec<u32>),
    Spl(Spl),
    /// The token and the remaining edges (bit i = edge i of the list).
    Ueg(usize, u128),
    /// Components of a disjoint or ordinal sum.
    Tuple(Vec<Pos>),
}

/// A game as a certificate describes it.
#[derive(Clone, Debug, Deserialize)]
pub enum Game {
    #[serde(rename = "TER")]
    Ter { graph: Graph, start: u64 },
    #[serde(rename = "DNT")]
    Dnt { graph: Graph, start: u64 },
    #[serde(rename = "nim")]
    Nim(u32),
    #[serde(rename = "DC")]
    Dawson { pins: u32, start: u64 },
    #[serde(rename = "multiset")]
    Multiset(Vec<u32>),
    #[serde(rename = "SPL")]
    Spl(Value),
    #[serde(rename = "UEG")]
    Ueg { graph: Graph, token: usize },
    #[serde(rename = "sum")]
    Sum(Vec<Game>),
    #[serde(rename = "ordinal")]
    Ordinal(Box<Game>, Box<Game>),
    #[serde(rename = "NK")]
    NodeKayles { graph: Graph },
}

/// A game with what its moves need precomputed.
pub enum Rules {
    Removing {
        dnt: bool,
        conv: Convexity,
        start: u64,
        edges: usize,
        /// The minimal generating sets 𝒢 (masks), found once when a formula asks
        /// ([`crate::features`]); `None` inside past the search budget.
        generating: std::sync::OnceLock<Option<Vec<u64>>>,
    },
    Nim(u32),
    Dawson {
        pins: u32,
        start: u64,
    },
    Multiset(Vec<u32>),
    Spl(Spl),
    Ueg {
        graph: Graph,
        token: usize,
    },
    Sum(Vec<Rules>),
    Ordinal(Box<Rules>, Box<Rules>),
    /// Node Kayles: the closed neighbourhood of each vertex, as a mask.
    NodeKayles {
        closed: Vec<u64>,
    },
}

fn int(v: &Value) -> Result<u64, String> {
    v.as_u64()
        .ok_or_else(|| format!("`{v}` is not a nonnegative integer"))
}

fn ints(v: &Value) -> Result<Vec<u32>, String> {
    let a = v.as_array().ok_or_else(|| format!("`{v}` is not a list"))?;
    a.iter()
        .map(|x| int(x).and_then(|i| u32::try_from(i).map_err(|e| e.to_string())))
        .collect()
}

/// SPL positions are written `{"c": 3, "parts": [3, 1]}` or `{"c": 3, "Lambda": 5}`.
fn spl_pos(v: &Value) -> Result<Spl, String> {
    let c = int(v.get("c").ok_or_else(|| format!("`{v}` has no c"))?)? as u32;
    if let Some(n) = v.get("Lambda") {
        return Ok(Spl {
            c,
            lambda: Some(int(n)? as u32),
            parts: vec![],
        });
    }
    let parts = ints(
        v.get("parts")
            .ok_or_else(|| format!("`{v}` has no parts"))?,
    )?;
    if parts.contains(&0) || parts.windows(2).any(|w| w[0] < w[1]) {
        return Err(format!("`{v}`: parts must be positive and nonincreasing"));
    }
    Ok(Spl {
        c,
        lambda: None,
        parts,
    })
}

impl Rules {
    pub fn new(g: &Game) -> Result<Rules, String> {
        Ok(match g {
            Game::Ter { graph, start } | Game::Dnt { graph, start } => {
                graph.validate()?;
                let conv = Convexity::new(graph)?;
                let dnt = matches!(g, Game::Dnt { .. });
                if dnt && conv.terminating(*start) {
                    return Err("the DNT start is terminating".into());
                }
                Rules::Removing {
                    dnt,
                    conv,
                    start: *start,
                    edges: graph.edges.len(),
                    generating: std::sync::OnceLock::new(),
                }
            }
            // A nimber *k has k options: bounded so that a forged heap cannot exhaust memory.
            Game::Nim(k) if *k > 1 << 20 => return Err(format!("nimber *{k} is too large")),
            Game::Nim(k) => Rules::Nim(*k),
            Game::Dawson { pins, start } => {
                if *pins > 64 || (*pins < 64 && start >> pins != 0) {
                    return Err(format!("a row of {pins} pins has no pin outside it"));
                }
                Rules::Dawson {
                    pins: *pins,
                    start: *start,
                }
            }
            Game::Multiset(u) => {
                let mut u = u.clone();
                u.sort_unstable();
                Rules::Multiset(u)
            }
            Game::Spl(v) => Rules::Spl(spl_pos(v)?),
            Game::Ueg { graph, token } => {
                graph.validate()?;
                if graph.edges.len() > 128 || *token >= graph.n {
                    return Err("at most 128 edges and a token vertex of the graph".into());
                }
                Rules::Ueg {
                    graph: graph.clone(),
                    token: *token,
                }
            }
            Game::Sum(parts) => Rules::Sum(parts.iter().map(Rules::new).collect::<Result<_, _>>()?),
            Game::Ordinal(a, b) => {
                Rules::Ordinal(Box::new(Rules::new(a)?), Box::new(Rules::new(b)?))
            }
            Game::NodeKayles { graph } => {
                graph.validate()?;
                if graph.n > 64 {
                    return Err("Node Kayles on at most 64 vertices".into());
                }
                Rules::NodeKayles {
                    closed: (0..graph.n)
                        .map(|v| {
                            graph
                                .neighbours(v)
                                .iter()
                                .fold(1u64 << v, |m, &w| m | 1 << w)
                        })
                        .collect(),
                }
            }
        })
    }

    pub fn start(&self) -> Pos {
        match self {
            Rules::Removing { start, .. } | Rules::Dawson { start, .. } => Pos::Set(*start),
            Rules::Nim(k) => Pos::Nim(*k),
            Rules::Multiset(u) => Pos::Multi(u.clone()),
            Rules::Spl(s) => Pos::Spl(s.clone()),
            Rules::Ueg { graph, token } => Pos::Ueg(*token, all_edges(graph.edges.len())),
            Rules::Sum(parts) => Pos::Tuple(parts.iter().map(Rules::start).collect()),
            Rules::Ordinal(a, b) => Pos::Tuple(vec![a.start(), b.start()]),
            Rules::NodeKayles { closed } => Pos::Set(all_vertices(closed.len())),
        }
    }

    /// Reads a position written in the certificate's encoding, and checks it is one.
    pub fn pos(&self, v: &Value) -> Result<Pos, String> {
        let bad = |what: &str| format!("`{v}` is not {what}");
        Ok(match self {
            Rules::Removing { dnt, conv, .. } => {
                let p = int(v)?;
                if p & !conv.all() != 0 {
                    return Err(bad("a vertex set of the graph"));
                }
                // §3: the positions of DNT are the nonterminating sets.
                if *dnt && conv.terminating(p) {
                    return Err(bad("a position of DNT (it is terminating)"));
                }
                Pos::Set(p)
            }
            Rules::Nim(k) => {
                let h = int(v)? as u32;
                if h > *k {
                    return Err(bad("a position of the nimber"));
                }
                Pos::Nim(h)
            }
            Rules::Dawson { pins, .. } => {
                let p = int(v)?;
                if *pins < 64 && p >> pins != 0 {
                    return Err(bad("a set of pins of the row"));
                }
                Pos::Set(p)
            }
            Rules::Multiset(_) => {
                let u = ints(v)?;
                if u.windows(2).any(|w| w[0] > w[1]) {
                    return Err(bad("an ascending multiset"));
                }
                Pos::Multi(u)
            }
            Rules::Spl(_) => Pos::Spl(spl_pos(v)?),
            Rules::Ueg { graph, .. } => {
                let a = v
                    .as_array()
                    .filter(|a| a.len() == 2)
                    .ok_or_else(|| bad("[token, \"hex edges\"]"))?;
                let t = int(&a[0])? as usize;
                let e = a[1]
                    .as_str()
                    .and_then(|s| u128::from_str_radix(s, 16).ok())
                    .ok_or_else(|| bad("[token, \"hex edges\"]"))?;
                if t >= graph.n || e & !all_edges(graph.edges.len()) != 0 {
                    return Err(bad("a position of this graph"));
                }
                Pos::Ueg(t, e)
            }
            Rules::Sum(parts) => Pos::Tuple(components(v, parts.iter())?),
            Rules::Ordinal(a, b) => {
                Pos::Tuple(components(v, [a.as_ref(), b.as_ref()].into_iter())?)
            }
            Rules::NodeKayles { closed } => {
                let p = int(v)?;
                if p & !all_vertices(closed.len()) != 0 {
                    return Err(bad("a set of vertices of the graph"));
                }
                Pos::Set(p)
            }
        })
    }

    /// The disjoint sum a position is, by the verifier's own rules: for Node Kayles, the
    /// vertex sets of the components of the subgraph induced on the vertices in play (a move
    /// takes a vertex and its neighbours in play, all in one component, and leaves the other
    /// components as they are, so the game is their disjoint sum and its nim-value the XOR
    /// of theirs). Empty when the position is not split: other games, or one component.
    pub fn components(&self, p: &Pos) -> Vec<Pos> {
        let (Rules::NodeKayles { closed }, Pos::Set(s)) = (self, p) else {
            return Vec::new();
        };
        let mut parts = Vec::new();
        let mut left = *s;
        while left != 0 {
            let mut part = left & left.wrapping_neg();
            let mut frontier = part;
            while frontier != 0 {
                let v = frontier.trailing_zeros() as usize;
                frontier &= frontier - 1;
                let new = closed[v] & s & !part;
                part |= new;
                frontier |= new;
            }
            parts.push(Pos::Set(part));
            left &= !part;
        }
        if parts.len() >= 2 {
            parts
        } else {
            Vec::new()
        }
    }

    /// Opt(p), as a set.
    pub fn options(&self, p: &Pos) -> HashSet<Pos> {
        self.options_list(p).into_iter().collect()
    }

    fn options_list(&self, p: &Pos) -> Vec<Pos> {
        let mut out = Vec::new();
        match (self, p) {
            // §3: TER selects any unselected vertex while P is nonterminating; DNT selects
            // one only if the new set is still nonterminating.
            (Rules::Removing { dnt, conv, .. }, Pos::Set(s)) => {
                if conv.terminating(*s) {
                    return out;
                }
                for v in 0..64 {
                    let q = s | 1 << v;
                    if conv.all() >> v & 1 == 1 && q != *s && !(*dnt && conv.terminating(q)) {
                        out.push(Pos::Set(q));
                    }
                }
            }
            (Rules::Nim(_), Pos::Nim(h)) => out.extend((0..*h).map(Pos::Nim)),
            // Before Prop 5.19: knock down a standing pin and its standing neighbours.
            (Rules::Dawson { pins, .. }, Pos::Set(s)) => {
                for i in 0..*pins {
                    if s >> i & 1 == 1 {
                        let mut hit = 1u64 << i;
                        if i > 0 {
                            hit |= 1 << (i - 1);
                        }
                        if i + 1 < *pins {
                            hit |= 1 << (i + 1);
                        }
                        out.push(Pos::Set(s & !hit));
                    }
                }
            }
            // Before Prop 5.14: decrease a positive element by 1; over when all are below 2.
            (Rules::Multiset(_), Pos::Multi(u)) => {
                if u.iter().all(|&x| x < 2) {
                    return out;
                }
                for i in 0..u.len() {
                    if u[i] > 0 {
                        let mut q = u.clone();
                        q[i] -= 1;
                        q.sort_unstable();
                        out.push(Pos::Multi(q));
                    }
                }
            }
            (Rules::Spl(_), Pos::Spl(s)) => out.extend(spl_options(s).into_iter().map(Pos::Spl)),
            // Seed 002: slide the token along an edge at it and delete that edge.
            (Rules::Ueg { graph, .. }, Pos::Ueg(t, e)) => {
                for (i, &(a, b)) in graph.edges.iter().enumerate() {
                    if e >> i & 1 == 1 && (a == *t || b == *t) {
                        out.push(Pos::Ueg(if a == *t { b } else { a }, e & !(1u128 << i)));
                    }
                }
            }
            // A disjoint sum: a move in exactly one component.
            (Rules::Sum(parts), Pos::Tuple(ps)) => {
                for (i, g) in parts.iter().enumerate() {
                    for q in g.options_list(&ps[i]) {
                        let mut r = ps.clone();
                        r[i] = q;
                        out.push(Pos::Tuple(r));
                    }
                }
            }
            // Before Prop 5.26: Opt(p, q) = Opt(p) × {q}, plus {p0} × Opt(q) when p = p0.
            (Rules::Ordinal(a, b), Pos::Tuple(ps)) => {
                for x in a.options_list(&ps[0]) {
                    out.push(Pos::Tuple(vec![x, ps[1].clone()]));
                }
                if ps[0] == a.start() {
                    for y in b.options_list(&ps[1]) {
                        out.push(Pos::Tuple(vec![ps[0].clone(), y]));
                    }
                }
            }
            // Node Kayles: take a vertex still in play out of play with its neighbours.
            (Rules::NodeKayles { closed }, Pos::Set(s)) => {
                for (v, &c) in closed.iter().enumerate() {
                    if s >> v & 1 == 1 {
                        out.push(Pos::Set(s & !c));
                    }
                }
            }
            _ => unreachable!("positions are read by the game they belong to"),
        }
        out
    }
}

fn components<'a>(
    v: &Value,
    games: impl ExactSizeIterator<Item = &'a Rules>,
) -> Result<Vec<Pos>, String> {
    let a = v
        .as_array()
        .filter(|a| a.len() == games.len())
        .ok_or_else(|| format!("`{v}` is not a list of {} components", games.len()))?;
    games.zip(a).map(|(g, x)| g.pos(x)).collect()
}

/// The mask of vertices `0..n` (n ≤ 64).
fn all_vertices(n: usize) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

fn all_edges(k: usize) -> u128 {
    if k >= 128 {
        u128::MAX
    } else {
        (1u128 << k) - 1
    }
}

/// §5.5: a dehub decreases c by 1; a split replaces a part α by β, γ ≥ 0 with β + γ = α − 1
/// (zeros vanish); Λ^n's only split is [n−1]. The terminal positions are the images of the
/// terminal positions of TER(W_{m,n}) listed there: (0,[1]), (0,[2]), (1,[]), (1,[1]), (1,[2]).
pub fn spl_options(s: &Spl) -> Vec<Spl> {
    let terminal = s.lambda.is_none() && s.c <= 1 && matches!(s.parts.as_slice(), [] | [1] | [2]);
    let mut out = Vec::new();
    if terminal {
        return out;
    }
    if s.c > 0 {
        out.push(Spl {
            c: s.c - 1,
            ..s.clone()
        });
    }
    let normal = |mut parts: Vec<u32>| {
        parts.retain(|&x| x > 0);
        parts.sort_unstable_by(|a, b| b.cmp(a));
        Spl {
            c: s.c,
            lambda: None,
            parts,
        }
    };
    match s.lambda {
        Some(n) => out.push(normal(vec![n.saturating_sub(1)])),
        None => {
            for i in 0..s.parts.len() {
                let a = s.parts[i];
                for b in 0..a {
                    let mut parts = s.parts.clone();
                    parts.remove(i);
                    parts.extend([b, a - 1 - b]);
                    out.push(normal(parts));
                }
            }
        }
    }
    out
}

/// mex: the least nonnegative integer not in the set (the Sprague–Grundy recursion,
/// nim(p) = mex nim(Opt(p)), design.md §1).
pub fn mex(values: &[u32]) -> u32 {
    // Linear: the mex of k values is at most k.
    let mut present = vec![false; values.len() + 1];
    for &v in values {
        if let Some(p) = present.get_mut(v as usize) {
            *p = true;
        }
    }
    present.iter().position(|&b| !b).unwrap_or(values.len()) as u32
}

/// The Guy–Smith octal periodicity theorem (Winning Ways ch. 4; Guy & Smith 1956), as cited
/// before Prop 5.23: for an octal game removing at most t tokens, if G(n + p) = G(n) for all
/// n0 ≤ n < 2·n0 + p + t, then G(n + p) = G(n) for all n ≥ n0.
pub fn octal_sequence(code: &str, len: usize) -> Result<Vec<u32>, String> {
    let digits: Vec<u32> = code
        .strip_prefix("0.")
        .ok_or_else(|| format!("octal code `{code}` does not start with 0."))?
        .chars()
        .map(|c| {
            c.to_digit(8)
                .ok_or_else(|| format!("`{c}` is not an octal digit"))
        })
        .collect::<Result<_, _>>()?;
    let mut g: Vec<u32> = Vec::with_capacity(len);
    for n in 0..len {
        let mut seen = Vec::new();
        for (k0, &d) in digits.iter().enumerate() {
            let k = k0 + 1;
            // Digit d_k: bit 1 removes k tokens leaving no heap, bit 2 leaving one heap,
            // bit 4 leaving two nonempty heaps.
            if d & 1 != 0 && n == k {
                seen.push(0);
            }
            if d & 2 != 0 && n > k {
                seen.push(g[n - k]);
            }
            if d & 4 != 0 && n > k + 1 {
                for a in 1..(n - k) {
                    seen.push(g[a] ^ g[n - k - a]);
                }
            }
        }
        g.push(mex(&seen));
    }
    Ok(g)
}
