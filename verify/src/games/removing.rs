//! The removing games TER and DNT on a graph under geodetic convexity (paper 000 §2–§3), or
//! under another registered closure (seed 000 §6 question 2: the one-step geodetic closure):
//! positions are vertex sets P (bit i = vertex i), selected from a start set; TER selects any
//! unselected vertex while P is nonterminating, DNT only if the new set is still
//! nonterminating. Certificates write `{"TER": {"graph": …, "start": mask}}`, with
//! `"closure": name` under another closure than the hull; specs write `TER(G)`, `DNT(G)` or,
//! started at named vertices, `DNT_{c,v3}(W_7)`, under the spec's `closure:`
//! ([`crate::closures::spec_closure`]).
//!
//! Features (paper 000 §2–§4): at a position P, `vertices` = |V|, `edges` = |E|, `size` =
//! |P|, `unselected` = |V ∖ P|, `terminating` ([V ∖ P] ≠ V, §3); and of the graph, from its
//! minimal generating sets 𝒢 (found by the verifier's own search,
//! [`crate::graph_closure::minimal_generating`]): `min_gen_sets` = |𝒢|, `gen_unique`
//! (𝒢 = {L}), `gen_complement` = |V ∖ L| (−1 unless 𝒢 = {L}), `n_star_sizes`, the sizes
//! of the members of 𝒩* (the maximal nonterminating sets: P is nonterminating iff V ∖ P
//! contains a member of 𝒢, so 𝒩* = {V ∖ L : L ∈ 𝒢}, listed by ascending L), and
//! `n_star_union` = |⋃𝒩*|; `free_antipodal_pairs`, the unselected pairs at distance diam(G)
//! that generate G (Example 3.4); and of the gamegraph, `terminal_parities`: the parities of the
//! terminal positions reachable from P (seed 000 Prop 2.2), by a search of the positions.
//!
//! Naive on purpose: distances by breadth-first search, hulls by closing under intervals until
//! nothing changes.

use super::{call, downcast, from_json, int, Description, Family, Game, Graph, Moves, Pos, Rules};
use crate::closures::Kind;
use crate::formula::{Env, Val};
use crate::graph_closure::GraphClosure;
use crate::names::{parse_graph, vertex};
use serde::Deserialize;
use serde_json::Value;
use std::any::Any;
use std::sync::OnceLock;

/// The family TER (`dnt` false) or DNT.
pub struct Removing {
    dnt: bool,
}

pub static TER: Removing = Removing { dnt: false };
pub static DNT: Removing = Removing { dnt: true };

fn key(dnt: bool) -> &'static str {
    if dnt {
        "DNT"
    } else {
        "TER"
    }
}

/// The start set of `TER_{v1,…}(G)`, by the vertices' names in G.
fn named_start(t: &str, g: &str, graph: &Graph, set: &str) -> Result<u64, String> {
    let mut start = 0u64;
    for v in set.split(',') {
        let i = vertex(g.trim(), graph.n, v.trim())?;
        if i >= 64 {
            return Err(format!("`{t}`: start sets are 64-bit"));
        }
        start |= 1 << i;
    }
    Ok(start)
}

/// A removing game as written: its graph, start set and closure.
#[derive(Clone, Debug)]
pub struct RemovingGame {
    dnt: bool,
    graph: Graph,
    start: u64,
    closure: Kind,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Json {
    graph: Graph,
    start: u64,
    /// Absent: the hull.
    #[serde(default)]
    closure: Option<String>,
}

/// A closure a certificate names: a built-in one (a closure defined in a spec is played as a
/// closure game, bound to its spec's bytes, never here).
fn closure_named(name: Option<&str>) -> Result<Kind, String> {
    match name.map(|n| (n, Kind::parse(Some(n)))) {
        None => Ok(Kind::parse(None).expect("the hull is registered")),
        Some((_, Some(k))) if k.spec_sha256().is_none() && k.text() != "hull" => Ok(k),
        Some((n, _)) => Err(format!(
            "`{n}` is not a closure a removing game's certificate names (the hull is written by leaving it out)"
        )),
    }
}

impl Family for Removing {
    fn key(&self) -> &'static str {
        key(self.dnt)
    }

    fn read(&self, v: Value) -> Result<Game, String> {
        let Json {
            graph,
            start,
            closure,
        } = from_json(v)?;
        Ok(Game::new(RemovingGame {
            dnt: self.dnt,
            graph,
            start,
            closure: closure_named(closure.as_deref())?,
        }))
    }

    fn parse(&self, t: &str) -> Option<Result<Game, String>> {
        let (head, inner) = call(t)?;
        let closure = crate::closures::spec_closure();
        let game = |graph, start| {
            Game::new(RemovingGame {
                dnt: self.dnt,
                graph,
                start,
                closure,
            })
        };
        // Started at named vertices: `DNT_{c,v3}(W_7)`.
        if let Some((rule, set)) = head
            .split_once("_{")
            .and_then(|(r, s)| Some((r, s.strip_suffix('}')?)))
        {
            return (rule == self.key()).then(|| {
                let graph = parse_graph(inner)?;
                let start = named_start(t, inner, &graph, set)?;
                Ok(game(graph, start))
            });
        }
        (head == self.key()).then(|| Ok(game(parse_graph(inner)?, 0)))
    }

    #[cfg(test)]
    fn example(&self) -> super::Example {
        // P_3: TER from ∅ has value 2 (tests/corruption.rs); DNT selects only the centre.
        let (name, table, nim) = if self.dnt {
            ("DNT(P_3)", "[[0, 1], [2, 0]]", 1)
        } else {
            (
                "TER(P_3)",
                "[[0, 2], [1, 0], [2, 1], [4, 0], [3, 0], [6, 0]]",
                2,
            )
        };
        super::Example {
            name,
            game: r#"{"graph": {"n": 3, "edges": [[0, 1], [1, 2]]}, "start": 0}"#,
            table,
            nim,
        }
    }
}

impl Description for RemovingGame {
    fn key(&self) -> &'static str {
        key(self.dnt)
    }

    fn rules(&self) -> Result<Rules, String> {
        self.graph.validate()?;
        let conv = Convexity::new(&self.graph, self.closure)?;
        if self.dnt && conv.terminating(self.start) {
            return Err("the DNT start is terminating".into());
        }
        Ok(Rules::of(RemovingRules {
            dnt: self.dnt,
            conv,
            start: self.start,
            edges: self.graph.edges.len(),
            graph: self.graph.clone(),
            antipodal: OnceLock::new(),
            generating: OnceLock::new(),
            terminal: OnceLock::new(),
        }))
    }

    fn same(&self, other: &Game) -> bool {
        downcast::<RemovingGame>(other).is_some_and(|o| {
            o.dnt == self.dnt
                && o.start == self.start
                && o.closure.text() == self.closure.text()
                && crate::names::same_graph(&self.graph, &o.graph)
        })
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn encode_start(&self) -> Option<Value> {
        Some(Value::from(self.start))
    }
}

/// A removing game with its convexity precomputed.
struct RemovingRules {
    dnt: bool,
    conv: Convexity,
    start: u64,
    edges: usize,
    /// The graph (for the distances of `free_antipodal_pairs`).
    graph: Graph,
    /// The vertex pairs at distance diam(G) that generate G, found once.
    antipodal: OnceLock<Vec<u64>>,
    /// The minimal generating sets 𝒢 (masks), found once when a formula asks; `None` inside
    /// past the search budget.
    generating: OnceLock<Option<Vec<u64>>>,
    /// For each position reachable from the start, the parities of the terminal positions
    /// reachable from it (bit r: one of parity r), found once; `None` past the budget.
    terminal: OnceLock<Option<std::collections::HashMap<u64, u8>>>,
}

impl Moves for RemovingRules {
    fn start(&self) -> Pos {
        Pos::Set(self.start)
    }

    fn pos(&self, v: &Value) -> Result<Pos, String> {
        let bad = |what: &str| format!("`{v}` is not {what}");
        let p = int(v)?;
        if p & !self.conv.all() != 0 {
            return Err(bad("a vertex set of the graph"));
        }
        // §3: the positions of DNT are the nonterminating sets.
        if self.dnt && self.conv.terminating(p) {
            return Err(bad("a position of DNT (it is terminating)"));
        }
        Ok(Pos::Set(p))
    }

    /// §3: TER selects any unselected vertex while P is nonterminating; DNT selects one only
    /// if the new set is still nonterminating.
    fn options(&self, p: &Pos) -> Result<Vec<Pos>, String> {
        let (s, conv) = (p.set(), &self.conv);
        let mut out = Vec::new();
        if conv.terminating(s) {
            return Ok(out);
        }
        for v in 0..64 {
            let q = s | 1 << v;
            if conv.all() >> v & 1 == 1 && q != s && !(self.dnt && conv.terminating(q)) {
                out.push(Pos::Set(q));
            }
        }
        Ok(out)
    }

    /// An automorphism of the graph maps hulls to hulls (the closures are defined by the
    /// graph's edges alone), so one fixing the start set maps plays to plays.
    fn symmetries(&self) -> Option<Vec<Vec<usize>>> {
        let all = self.graph.automorphisms(10_000)?;
        Some(
            all.into_iter()
                .filter(|perm| {
                    (0..perm.len()).all(|v| (self.start >> v & 1) == (self.start >> perm[v] & 1))
                })
                .collect(),
        )
    }

    fn features(&self, env: &mut Env, p: &Pos) {
        let (p, conv) = (p.set(), &self.conv);
        let n = conv.n();
        env.set("vertices", Val::Int(n as i64));
        env.set("edges", Val::Int(self.edges as i64));
        env.set("size", Val::Int(p.count_ones() as i64));
        env.set("unselected", Val::Int((n - p.count_ones() as usize) as i64));
        env.set("terminating", Val::Bool(conv.terminating(p)));
        // Example 3.4: the unselected pairs of vertices at distance diam(G) that generate G.
        let pairs = self.antipodal.get_or_init(|| {
            let dist: Vec<Vec<Option<usize>>> = (0..n).map(|v| self.graph.distances(v)).collect();
            let diam = dist.iter().flatten().flatten().copied().max().unwrap_or(0);
            let mut out = Vec::new();
            for a in 0..n {
                for b in a + 1..n {
                    let m = (1u64 << a) | (1u64 << b);
                    if diam > 0 && dist[a][b] == Some(diam) && conv.close(m) == conv.all() {
                        out.push(m);
                    }
                }
            }
            out
        });
        env.set(
            "free_antipodal_pairs",
            Val::Int(pairs.iter().filter(|&&m| m & p == 0).count() as i64),
        );
        let g = self.generating.get_or_init(|| {
            crate::graph_closure::minimal_generating(n, |s| conv.close(s) == conv.all())
        });
        if let Some(g) = g {
            env.set("min_gen_sets", Val::Int(g.len() as i64));
            env.set("gen_unique", Val::Bool(g.len() == 1));
            let lc = match g.as_slice() {
                [l] => (n - l.count_ones() as usize) as i64,
                _ => -1,
            };
            env.set("gen_complement", Val::Int(lc));
            env.set(
                "n_star_sizes",
                Val::List(
                    g.iter()
                        .map(|l| (n - l.count_ones() as usize) as i64)
                        .collect(),
                ),
            );
            let union = g.iter().fold(0u64, |a, &l| a | (conv.all() & !l));
            env.set("n_star_union", Val::Int(union.count_ones() as i64));
        }
        // Prop 2.2: the parities |Q| mod 2 of the terminal positions Q reachable from P.
        let memo = self
            .terminal
            .get_or_init(|| terminal_parities(self.start, &|q| self.options(&Pos::Set(q)).ok()));
        if let Some(&m) = memo.as_ref().and_then(|m| m.get(&p)) {
            env.set(
                "terminal_parities",
                Val::List((0..2).filter(|r| m >> r & 1 == 1).collect()),
            );
        }
    }
}

/// For every position P reachable from `start`, the parities |Q| mod 2 of the terminal
/// positions Q (no options) reachable from P, as a mask (bit r: some Q of parity r), by a
/// depth-first search of the positions (at most 16,384 of them, else `None`); `options`
/// gives the options of a vertex set, `None` on an error.
pub fn terminal_parities(
    start: u64,
    options: &dyn Fn(u64) -> Option<Vec<Pos>>,
) -> Option<std::collections::HashMap<u64, u8>> {
    fn visit(
        p: u64,
        options: &dyn Fn(u64) -> Option<Vec<Pos>>,
        memo: &mut std::collections::HashMap<u64, u8>,
    ) -> Option<u8> {
        if let Some(&m) = memo.get(&p) {
            return Some(m);
        }
        if memo.len() >= 16_384 {
            return None;
        }
        let opts = options(p)?;
        let mut m = if opts.is_empty() {
            1 << (p.count_ones() % 2)
        } else {
            0
        };
        for o in opts {
            m |= visit(o.set(), options, memo)?;
        }
        memo.insert(p, m);
        Some(m)
    }
    let mut memo = std::collections::HashMap::new();
    visit(start, options, &mut memo)?;
    Some(memo)
}

/// The closure the game is played under, on the graph's vertices: geodetic convexity (paper
/// 000 §2.1, the interval I[u,v] the vertices on shortest u–v paths and the hull [S] the
/// least convex superset of S) unless the certificate names another registered closure
/// ([`crate::closures`]); the closing itself is [`GraphClosure::close`].
pub struct Convexity {
    c: GraphClosure,
}

impl Convexity {
    pub fn new(g: &Graph, kind: Kind) -> Result<Convexity, String> {
        if g.n > 64 {
            return Err(format!("{} vertices: positions are 64-bit sets", g.n));
        }
        Ok(Convexity {
            c: GraphClosure::new(g, kind)?,
        })
    }

    /// The closure of S (for the hull, [S]: every pair's interval added to a fixed point).
    pub fn close(&self, s: u64) -> u64 {
        self.c.close(s)
    }

    pub fn n(&self) -> usize {
        self.c.n
    }

    pub fn all(&self) -> u64 {
        self.c.all()
    }

    /// §3: P is terminating iff the closure of V \ P is not V.
    pub fn terminating(&self, p: u64) -> bool {
        self.close(self.all() & !p) != self.all()
    }
}
