//! Node Kayles on a graph: a move takes a vertex still in play out of play with its
//! neighbours. Certificates write `{"NK": {"graph": …}}`, positions the set of vertices in
//! play (bit i = vertex i), started with every vertex in play; specs write `NK(G)`.
//!
//! A position is the disjoint sum of the components of the subgraph induced on the vertices
//! in play (a move takes a vertex and its neighbours in play, all in one component, and
//! leaves the other components as they are), so its nim-value is the XOR of theirs; a table
//! may list an option as its components ([`Moves::components`], checked in
//! [`crate::checks`]).

use super::{call, downcast, from_json, int, Description, Family, Game, Graph, Moves, Pos, Rules};
use crate::names::{parse_graph, same_graph};
use serde::Deserialize;
use serde_json::Value;
use std::any::Any;

pub struct NodeKayles;

/// The graph, every vertex in play at the start.
#[derive(Clone, Debug, Deserialize)]
pub struct Nk {
    graph: Graph,
}

impl Family for NodeKayles {
    fn key(&self) -> &'static str {
        "NK"
    }

    fn read(&self, v: Value) -> Result<Game, String> {
        Ok(Game::new(from_json::<Nk>(v)?))
    }

    fn parse(&self, t: &str) -> Option<Result<Game, String>> {
        let (head, inner) = call(t)?;
        (head == "NK").then(|| {
            Ok(Game::new(Nk {
                graph: parse_graph(inner)?,
            }))
        })
    }

    #[cfg(test)]
    fn example(&self) -> super::Example {
        // P_3: taking the centre ends the game, taking an end leaves the other end.
        super::Example {
            name: "NK(P_3)",
            game: r#"{"graph": {"n": 3, "edges": [[0, 1], [1, 2]]}}"#,
            table: "[[7, 2], [4, 1], [1, 1], [0, 0]]",
            nim: 2,
        }
    }
}

/// The mask of vertices `0..n` (n ≤ 64).
fn all_vertices(n: usize) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

impl Description for Nk {
    fn key(&self) -> &'static str {
        "NK"
    }

    fn rules(&self) -> Result<Rules, String> {
        let graph = &self.graph;
        graph.validate()?;
        if graph.n > 64 {
            return Err("Node Kayles on at most 64 vertices".into());
        }
        Ok(Rules::of(Closed(
            (0..graph.n)
                .map(|v| {
                    graph
                        .neighbours(v)
                        .iter()
                        .fold(1u64 << v, |m, &w| m | 1 << w)
                })
                .collect(),
        )))
    }

    fn same(&self, other: &Game) -> bool {
        downcast::<Nk>(other).is_some_and(|o| same_graph(&self.graph, &o.graph))
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn encode_start(&self) -> Option<Value> {
        Some(Value::from(all_vertices(self.graph.n)))
    }
}

/// The closed neighbourhood of each vertex, as a mask.
struct Closed(Vec<u64>);

impl Moves for Closed {
    fn start(&self) -> Pos {
        Pos::Set(all_vertices(self.0.len()))
    }

    fn pos(&self, v: &Value) -> Result<Pos, String> {
        let p = int(v)?;
        if p & !all_vertices(self.0.len()) != 0 {
            return Err(format!("`{v}` is not a set of vertices of the graph"));
        }
        Ok(Pos::Set(p))
    }

    /// Take a vertex still in play out of play with its neighbours.
    fn options(&self, p: &Pos) -> Result<Vec<Pos>, String> {
        let s = p.set();
        let mut out = Vec::new();
        for (v, &c) in self.0.iter().enumerate() {
            if s >> v & 1 == 1 {
                out.push(Pos::Set(s & !c));
            }
        }
        Ok(out)
    }

    /// The vertex sets of the components of the subgraph induced on the vertices in play;
    /// empty when there is only one.
    fn components(&self, p: &Pos) -> Vec<Pos> {
        let s = p.set();
        let mut parts = Vec::new();
        let mut left = s;
        while left != 0 {
            let mut part = left & left.wrapping_neg();
            let mut frontier = part;
            while frontier != 0 {
                let v = frontier.trailing_zeros() as usize;
                frontier &= frontier - 1;
                let new = self.0[v] & s & !part;
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
}
