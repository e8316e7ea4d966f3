//! Undirected edge geography (seed 002): a token on a vertex of a graph; a move slides the
//! token along an edge at it and deletes that edge. Certificates write
//! `{"UEG": {"graph": …, "token": v}}`, positions `[token, "hex edges"]` (bit i = edge i of
//! the graph's list still present); specs write `UEG(SP_{M,n}, (i,j))`, the token at vertex
//! (i, j) of the stacked prism, or `UEG(graph6:G, t)`, the token at vertex t = 0..n-1 (other
//! named graphs: the vertex by its name, `UEG(P_3, v2)`). Diagrams do not list UEG starts.

use super::{downcast, from_json, int, Description, Family, Game, Graph, Moves, Pos, Rules};
use crate::formula::{Env, Val};
use crate::names::{num, parse_graph, same_graph, split_top};
use serde::Deserialize;
use serde_json::Value;
use std::any::Any;

pub struct Ueg;

/// The graph and the token's vertex.
#[derive(Clone, Debug, Deserialize)]
pub struct Board {
    graph: Graph,
    token: usize,
}

impl Family for Ueg {
    fn key(&self) -> &'static str {
        "UEG"
    }

    fn read(&self, v: Value) -> Result<Game, String> {
        Ok(Game::new(from_json::<Board>(v)?))
    }

    fn parse(&self, t: &str) -> Option<Result<Game, String>> {
        let (head, inner) = super::call(t)?;
        (head == "UEG").then(|| {
            // A graph6 string has no comma, but may hold brackets (`C]`): split at the comma.
            let parts = if inner.trim_start().starts_with("graph6:") {
                inner.splitn(2, ", ").collect()
            } else {
                split_top(inner, ", ")
            };
            let [g, v] = parts[..] else {
                return Err(format!("`{t}` is not UEG(graph, (i,j))"));
            };
            let graph = parse_graph(g)?;
            // Any other graph: the token by the vertex's name (graph6: its index 0..n-1).
            if !g.trim().starts_with("SP_{") {
                let v = v.trim();
                let token = if g.trim().starts_with("graph6:") {
                    v.parse::<usize>()
                        .ok()
                        .filter(|&i| i < graph.n)
                        .ok_or_else(|| format!("`{v}` is not a vertex of {g}"))?
                } else {
                    crate::names::vertex(g.trim(), graph.n, v)?
                };
                return Ok(Game::new(Board { graph, token }));
            }
            let m = g
                .trim()
                .strip_prefix("SP_{")
                .and_then(|r| r.split_once(','))
                .map(|(m, _)| num(m))
                .ok_or_else(|| format!("`{t}`: tokens are read on stacked prisms only"))??;
            let (i, j) = v
                .trim()
                .strip_prefix('(')
                .and_then(|r| r.strip_suffix(')'))
                .and_then(|r| r.split_once(','))
                .ok_or_else(|| format!("`{v}` is not a vertex (i,j)"))?;
            let (i, j) = (num(i)?, num(j)?);
            if i < 1 || i > m || j < 1 || (j - 1) * m + i > graph.n {
                return Err(format!("`{v}` is not a vertex of the graph"));
            }
            Ok(Game::new(Board {
                token: (j - 1) * m + (i - 1),
                graph,
            }))
        })
    }

    #[cfg(test)]
    fn example(&self) -> super::Example {
        // SP_{3,1} is the triangle 0–1–2 (edges 01, 12, 20); the token starts at 0.
        super::Example {
            name: "UEG(SP_{3,1}, (1,1))",
            game: r#"{"graph": {"n": 3, "edges": [[0, 1], [1, 2], [2, 0]]}, "token": 0}"#,
            table: r#"[[[0, "7"], 1], [[1, "6"], 0], [[2, "4"], 1], [[0, "0"], 0],
                [[2, "3"], 0], [[1, "1"], 1]]"#,
            nim: 1,
        }
    }
}

fn all_edges(k: usize) -> u128 {
    if k >= 128 {
        u128::MAX
    } else {
        (1u128 << k) - 1
    }
}

impl Description for Board {
    fn key(&self) -> &'static str {
        "UEG"
    }

    fn rules(&self) -> Result<Rules, String> {
        self.graph.validate()?;
        if self.graph.edges.len() > 128 || self.token >= self.graph.n {
            return Err("at most 128 edges and a token vertex of the graph".into());
        }
        Ok(Rules::of(self.clone()))
    }

    fn same(&self, other: &Game) -> bool {
        downcast::<Board>(other)
            .is_some_and(|o| o.token == self.token && same_graph(&self.graph, &o.graph))
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

impl Moves for Board {
    fn start(&self) -> Pos {
        Pos::Token(self.token, all_edges(self.graph.edges.len()))
    }

    fn pos(&self, v: &Value) -> Result<Pos, String> {
        let bad = |what: &str| format!("`{v}` is not {what}");
        let a = v
            .as_array()
            .filter(|a| a.len() == 2)
            .ok_or_else(|| bad("[token, \"hex edges\"]"))?;
        let t = int(&a[0])? as usize;
        let e = a[1]
            .as_str()
            .and_then(|s| u128::from_str_radix(s, 16).ok())
            .ok_or_else(|| bad("[token, \"hex edges\"]"))?;
        if t >= self.graph.n || e & !all_edges(self.graph.edges.len()) != 0 {
            return Err(bad("a position of this graph"));
        }
        Ok(Pos::Token(t, e))
    }

    /// Seed 002's features at a position, from the remaining edges: `bipartite` (a proper
    /// 2-colouring exists) and, on graphs of at most 16 vertices, `token_in_even_kernel`: some
    /// set S of vertices holding the token, nonempty and independent, has an even number of
    /// neighbours at every vertex outside it (Theorem 2's even kernel). Both by brute force
    /// over vertex sets, from the definitions.
    fn features(&self, env: &mut Env, p: &Pos) {
        let (t, e) = p.token();
        let n = self.graph.n;
        let edges: Vec<(usize, usize)> = self
            .graph
            .edges
            .iter()
            .enumerate()
            .filter(|(i, _)| e >> i & 1 == 1)
            .map(|(_, &ab)| ab)
            .collect();
        if n > 16 {
            return;
        }
        let inside = |s: u32, v: usize| s >> v & 1 == 1;
        // Bipartite: some 2-colouring (bit v: the colour of v) makes every edge bichromatic.
        let bipartite =
            (0u32..1 << n).any(|c| edges.iter().all(|&(a, b)| inside(c, a) != inside(c, b)));
        env.set("bipartite", Val::Bool(bipartite));
        let kernel = (1u32..1 << n).filter(|&s| inside(s, t)).any(|s| {
            let independent = edges.iter().all(|&(a, b)| !(inside(s, a) && inside(s, b)));
            independent
                && (0..n).filter(|&v| !inside(s, v)).all(|v| {
                    edges
                        .iter()
                        .filter(|&&(a, b)| (a == v && inside(s, b)) || (b == v && inside(s, a)))
                        .count()
                        % 2
                        == 0
                })
        });
        env.set("token_in_even_kernel", Val::Bool(kernel));
    }

    /// Seed 002: slide the token along an edge at it and delete that edge.
    fn options(&self, p: &Pos) -> Result<Vec<Pos>, String> {
        let (t, e) = p.token();
        let mut out = Vec::new();
        for (i, &(a, b)) in self.graph.edges.iter().enumerate() {
            if e >> i & 1 == 1 && (a == t || b == t) {
                out.push(Pos::Token(if a == t { b } else { a }, e & !(1u128 << i)));
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formula::Val;

    fn features(name: &str) -> Env {
        let g = Game::parse(name).unwrap_or_else(|e| panic!("{name}: {e}"));
        let rules = Rules::new(&g).unwrap();
        let mut env = Env::default();
        rules.features(&mut env, &rules.start());
        env
    }

    fn get(env: &Env, k: &str) -> Val {
        env.vars
            .iter()
            .find(|(n, _)| n == k)
            .map(|(_, v)| v.clone())
            .unwrap_or_else(|| panic!("{k} is not computed"))
    }

    #[test]
    fn even_kernels_and_bipartite_from_the_definitions() {
        // The paw (triangle 1-2-3, pendant 0-3, graph6 CN) from its pendant vertex: a
        // P-position that no even kernel holds (the converse of Theorem 2 needs bipartite).
        let paw = features("UEG(graph6:CN, 0)");
        assert_eq!(get(&paw, "bipartite"), Val::Bool(false));
        assert_eq!(get(&paw, "token_in_even_kernel"), Val::Bool(false));
        // The path P_3 from its centre: {v2} has an odd neighbour count at the ends, but
        // from an end {v1, v3} is an even kernel (v2 sees two of it).
        let centre = features("UEG(P_3, v2)");
        assert_eq!(get(&centre, "bipartite"), Val::Bool(true));
        assert_eq!(get(&centre, "token_in_even_kernel"), Val::Bool(false));
        assert_eq!(
            get(&features("UEG(P_3, v1)"), "token_in_even_kernel"),
            Val::Bool(true)
        );
        // A token past the graph's last vertex names no game.
        assert!(Game::parse("UEG(graph6:CN, 4)").is_err());
    }
}
