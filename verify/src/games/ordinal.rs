//! The ordinal sum A : B (before Prop 5.26): Opt(p, q) = Opt(p) × {q}, plus {p0} × Opt(q)
//! when p = p0, the start of A (a move in A forfeits B). Certificates write
//! `{"ordinal": [A, B]}`, positions `[p, q]`; specs write `A : B` (split at the top level).

use super::{downcast, from_json, read_tuple, Description, Family, Game, Moves, Pos, Rules};
use crate::names::split_top;
use serde_json::Value;
use std::any::Any;

pub struct Ordinal;

/// A : B, as written.
#[derive(Clone, Debug)]
pub struct Pair(Game, Game);

impl Family for Ordinal {
    fn key(&self) -> &'static str {
        "ordinal"
    }

    fn read(&self, v: Value) -> Result<Game, String> {
        let (a, b) = from_json(v)?;
        Ok(Game::new(Pair(a, b)))
    }

    fn parse(&self, t: &str) -> Option<Result<Game, String>> {
        let ord = split_top(t, " : ");
        (ord.len() == 2).then(|| Ok(Game::new(Pair(Game::parse(ord[0])?, Game::parse(ord[1])?))))
    }

    #[cfg(test)]
    fn example(&self) -> super::Example {
        // *1 : *1: from (1, 1) to (0, 1), which is over (A moved), or to (1, 0).
        super::Example {
            name: "*1 : *1",
            game: r#"[{"nim": 1}, {"nim": 1}]"#,
            table: "[[[1, 1], 2], [[0, 1], 0], [[1, 0], 1], [[0, 0], 0]]",
            nim: 2,
        }
    }
}

impl Description for Pair {
    fn key(&self) -> &'static str {
        "ordinal"
    }

    fn rules(&self) -> Result<Rules, String> {
        Ok(Rules::of(OrdinalRules(
            Rules::new(&self.0)?,
            Rules::new(&self.1)?,
        )))
    }

    fn same(&self, other: &Game) -> bool {
        downcast::<Pair>(other).is_some_and(|o| self.0.same(&o.0) && self.1.same(&o.1))
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn encode_start(&self) -> Option<Value> {
        Some(Value::Array(vec![
            self.0.encode_start()?,
            self.1.encode_start()?,
        ]))
    }

    fn shape(&self) -> String {
        format!("ordinal({},{})", self.0.shape(), self.1.shape())
    }
}

/// The rules of A and of B.
struct OrdinalRules(Rules, Rules);

impl Moves for OrdinalRules {
    fn start(&self) -> Pos {
        Pos::Tuple(vec![self.0.start(), self.1.start()])
    }

    fn pos(&self, v: &Value) -> Result<Pos, String> {
        read_tuple(v, &[&self.0, &self.1])
    }

    /// Before Prop 5.26: Opt(p, q) = Opt(p) × {q}, plus {p0} × Opt(q) when p = p0.
    fn options(&self, p: &Pos) -> Result<Vec<Pos>, String> {
        let ps = p.tuple();
        let mut out = Vec::new();
        for x in self.0.options_list(&ps[0])? {
            out.push(Pos::Tuple(vec![x, ps[1].clone()]));
        }
        if ps[0] == self.0.start() {
            for y in self.1.options_list(&ps[1])? {
                out.push(Pos::Tuple(vec![ps[0].clone(), y]));
            }
        }
        Ok(out)
    }
}
