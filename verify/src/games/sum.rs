//! The disjoint sum A + B + …: a move is a move in exactly one component. Certificates write
//! `{"sum": [game, …]}`, positions the list of the components' positions; specs write
//! `A + B` (split at the top level, outside brackets).

use super::{downcast, from_json, read_tuple, Description, Family, Game, Moves, Pos, Rules};
use crate::names::split_top;
use serde_json::Value;
use std::any::Any;

pub struct Sum;

/// The components, as written.
#[derive(Clone, Debug)]
pub struct Parts(Vec<Game>);

impl Family for Sum {
    fn key(&self) -> &'static str {
        "sum"
    }

    fn read(&self, v: Value) -> Result<Game, String> {
        Ok(Game::new(Parts(from_json(v)?)))
    }

    fn parse(&self, t: &str) -> Option<Result<Game, String>> {
        let sum = split_top(t, " + ");
        (sum.len() > 1).then(|| {
            Ok(Game::new(Parts(
                sum.into_iter().map(Game::parse).collect::<Result<_, _>>()?,
            )))
        })
    }

    #[cfg(test)]
    fn example(&self) -> super::Example {
        super::Example {
            name: "*1 + *1",
            game: r#"[{"nim": 1}, {"nim": 1}]"#,
            table: "[[[1, 1], 0], [[0, 1], 1], [[1, 0], 1], [[0, 0], 0]]",
            nim: 0,
        }
    }
}

impl Description for Parts {
    fn key(&self) -> &'static str {
        "sum"
    }

    fn rules(&self) -> Result<Rules, String> {
        Ok(Rules::of(SumRules(
            self.0.iter().map(Rules::new).collect::<Result<_, _>>()?,
        )))
    }

    fn same(&self, other: &Game) -> bool {
        downcast::<Parts>(other).is_some_and(|o| {
            o.0.len() == self.0.len() && self.0.iter().zip(&o.0).all(|(a, b)| a.same(b))
        })
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn encode_start(&self) -> Option<Value> {
        Some(Value::Array(
            self.0
                .iter()
                .map(Game::encode_start)
                .collect::<Option<_>>()?,
        ))
    }

    fn shape(&self) -> String {
        let parts: Vec<String> = self.0.iter().map(Game::shape).collect();
        format!("sum({})", parts.join(","))
    }
}

/// The components' rules.
struct SumRules(Vec<Rules>);

impl Moves for SumRules {
    fn start(&self) -> Pos {
        Pos::Tuple(self.0.iter().map(Rules::start).collect())
    }

    fn pos(&self, v: &Value) -> Result<Pos, String> {
        read_tuple(v, &self.0.iter().collect::<Vec<_>>())
    }

    /// A move in exactly one component.
    fn options(&self, p: &Pos) -> Result<Vec<Pos>, String> {
        let ps = p.tuple();
        let mut out = Vec::new();
        for (i, g) in self.0.iter().enumerate() {
            for q in g.options_list(&ps[i])? {
                let mut r = ps.to_vec();
                r[i] = q;
                out.push(Pos::Tuple(r));
            }
        }
        Ok(out)
    }

    fn summands<'a>(&'a self, p: &'a Pos) -> Option<Vec<(&'a Rules, &'a Pos)>> {
        Some(self.0.iter().zip(p.tuple()).collect())
    }
}
