//! Nimbers: *k is a heap of k tokens, a move takes it to any smaller heap (design.md §1).
//! Certificates write `{"nim": k}`, positions the heap size; specs write `*k`. In a diagram
//! start the nimbers summed with a game are read as one feature, `nimber`, their XOR
//! (paper Remark 5.34's `(c, λ) + *k`, [`crate::features`]).

use super::{downcast, from_json, int, Description, Family, Game, Moves, Pos, Rules};
use serde_json::Value;
use std::any::Any;

pub struct Nim;

/// The nimber *k.
#[derive(Clone, Debug)]
pub struct Heap(u32);

impl Family for Nim {
    fn key(&self) -> &'static str {
        "nim"
    }

    fn read(&self, v: Value) -> Result<Game, String> {
        Ok(Game::new(Heap(from_json(v)?)))
    }

    fn parse(&self, t: &str) -> Option<Result<Game, String>> {
        let k = t.strip_prefix('*')?;
        Some(
            k.trim()
                .parse()
                .map(|k| Game::new(Heap(k)))
                .map_err(|_| format!("`{t}` is not a nimber")),
        )
    }

    #[cfg(test)]
    fn example(&self) -> super::Example {
        super::Example {
            name: "*2",
            game: "2",
            table: "[[2, 2], [1, 1], [0, 0]]",
            nim: 2,
        }
    }
}

impl Description for Heap {
    fn key(&self) -> &'static str {
        "nim"
    }

    fn rules(&self) -> Result<Rules, String> {
        // A nimber *k has k options: bounded so that a forged heap cannot exhaust memory.
        if self.0 > 1 << 20 {
            return Err(format!("nimber *{} is too large", self.0));
        }
        Ok(Rules::of(self.clone()))
    }

    fn same(&self, other: &Game) -> bool {
        downcast::<Heap>(other).is_some_and(|o| o.0 == self.0)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn encode_start(&self) -> Option<Value> {
        Some(Value::from(self.0))
    }
}

impl Moves for Heap {
    fn start(&self) -> Pos {
        Pos::Int(self.0)
    }

    fn pos(&self, v: &Value) -> Result<Pos, String> {
        let h = int(v)? as u32;
        if h > self.0 {
            return Err(format!("`{v}` is not a position of the nimber"));
        }
        Ok(Pos::Int(h))
    }

    fn options(&self, p: &Pos) -> Result<Vec<Pos>, String> {
        Ok((0..p.int()).map(Pos::Int).collect())
    }

    fn nimber(&self, p: &Pos) -> Option<u32> {
        Some(p.int())
    }
}
