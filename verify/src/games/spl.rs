//! The splitting game SPL (paper 000 §5.5): a position (c, λ) is a count c and a partition λ,
//! or the special partition Λ^n. Certificates write `{"SPL": {"c": 3, "parts": [3, 1]}}` or
//! `{"SPL": {"c": 3, "Lambda": 5}}`, positions the same way; specs write `SPL(c,[parts])`,
//! `SPL(c,Λ^n)` or `SPL(c,n)` (start (c, Λ^n)). A position is the tuple (c, parts) or
//! (c, n) for Λ^n.
//!
//! Features, for (c, λ): `c`; the parts of λ (Λ^n counts as the single part n) as `parts`,
//! `l1`, `l2` (0 when missing), `num_parts`, `size` (= `parts_sum`, their sum), `odd_parts`;
//! `is_lambda`; `solid` (before Lemma 5.39: l1 ≥ 4 or l2 ≥ 2, and Λ^n iff n ≥ 5);
//! `solid_splits` (Lemma 5.39: the options with as many centres that are solid); `terminal`
//! (the images of TER(W_{m,n})'s terminal positions, §5.5). In a diagram, a sum of one
//! splitting game with nimbers reads these features unprefixed (paper Remark 5.34's
//! `(c, λ) + *k`).

use super::{call, downcast, ints, Description, Family, Game, Moves, Pos, Rules};
use crate::formula::{Env, Val};
use crate::names::{num, nums};
use serde_json::{json, Value};
use std::any::Any;

pub struct Spl;

/// The start as written: `{"c", "parts"|"Lambda"}` (read when the rules are built).
#[derive(Clone, Debug)]
pub struct Start(Value);

/// The SPL position (c, λ): `lambda = Some(n)` is the special partition Λ^n.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Position {
    c: u32,
    lambda: Option<u32>,
    parts: Vec<u32>,
}

impl Family for Spl {
    fn key(&self) -> &'static str {
        "SPL"
    }

    fn read(&self, v: Value) -> Result<Game, String> {
        Ok(Game::new(Start(v)))
    }

    fn parse(&self, t: &str) -> Option<Result<Game, String>> {
        let (head, inner) = call(t)?;
        (head == "SPL").then(|| {
            let (c, rest) = inner
                .split_once(',')
                .ok_or_else(|| format!("`{t}` is not SPL(c, n)"))?;
            let c = num(c)?;
            let rest = rest.trim();
            Ok(Game::new(Start(
                if let Some(parts) = rest.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
                    let mut parts: Vec<usize> = if parts.trim().is_empty() {
                        vec![]
                    } else {
                        nums(parts)?
                    };
                    // A partition is written nonincreasing.
                    parts.sort_unstable_by(|a, b| b.cmp(a));
                    if parts.contains(&0) {
                        return Err(format!("`{t}`: parts are positive"));
                    }
                    json!({ "c": c, "parts": parts })
                } else if let Some(n) = rest.strip_prefix("Λ^") {
                    json!({ "c": c, "Lambda": num(n)? })
                } else {
                    json!({ "c": c, "Lambda": num(rest)? })
                },
            )))
        })
    }

    #[cfg(test)]
    fn example(&self) -> super::Example {
        // (0, [3]) splits into (0, [2]) and (0, [1, 1]); (0, [1, 1]) into the terminal (0, [1]).
        super::Example {
            name: "SPL(0,[3])",
            game: r#"{"c": 0, "parts": [3]}"#,
            table: r#"[[{"c": 0, "parts": [3]}, 2], [{"c": 0, "parts": [2]}, 0],
                [{"c": 0, "parts": [1, 1]}, 1], [{"c": 0, "parts": [1]}, 0]]"#,
            nim: 2,
        }
    }
}

impl Description for Start {
    fn key(&self) -> &'static str {
        "SPL"
    }

    fn rules(&self) -> Result<Rules, String> {
        Ok(Rules::of(read(&self.0)?))
    }

    fn same(&self, other: &Game) -> bool {
        downcast::<Start>(other).is_some_and(|o| o.0 == self.0)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn encode_start(&self) -> Option<Value> {
        Some(self.0.clone())
    }
}

/// SPL positions are written `{"c": 3, "parts": [3, 1]}` or `{"c": 3, "Lambda": 5}`.
fn read(v: &Value) -> Result<Position, String> {
    let c = super::int(v.get("c").ok_or_else(|| format!("`{v}` has no c"))?)? as u32;
    if let Some(n) = v.get("Lambda") {
        return Ok(Position {
            c,
            lambda: Some(super::int(n)? as u32),
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
    Ok(Position {
        c,
        lambda: None,
        parts,
    })
}

impl Position {
    /// (c, parts) or (c, n) for Λ^n.
    fn pos(&self) -> Pos {
        let second = match self.lambda {
            Some(n) => Pos::Int(n),
            None => Pos::List(self.parts.clone()),
        };
        Pos::Tuple(vec![Pos::Int(self.c), second])
    }

    fn of(p: &Pos) -> Position {
        let [c, second] = p.tuple() else {
            unreachable!("SPL positions are pairs")
        };
        match second {
            Pos::Int(n) => Position {
                c: c.int(),
                lambda: Some(*n),
                parts: vec![],
            },
            _ => Position {
                c: c.int(),
                lambda: None,
                parts: second.list().to_vec(),
            },
        }
    }

    /// §5.5: the terminal positions are the images of the terminal positions of TER(W_{m,n})
    /// listed there: (0,[1]), (0,[2]), (1,[]), (1,[1]), (1,[2]).
    fn terminal(&self) -> bool {
        self.lambda.is_none() && self.c <= 1 && matches!(self.parts.as_slice(), [] | [1] | [2])
    }

    /// §5.5: a dehub decreases c by 1; a split replaces a part α by β, γ ≥ 0 with
    /// β + γ = α − 1 (zeros vanish); Λ^n's only split is [n−1].
    /// Before Lemma 5.39: (c, λ) is solid when l1 ≥ 4 or l2 ≥ 2; Λ^n when n ≥ 5.
    fn solid(&self) -> bool {
        match self.lambda {
            Some(n) => n >= 5,
            None => {
                self.parts.first().is_some_and(|&l| l >= 4)
                    || self.parts.get(1).is_some_and(|&l| l >= 2)
            }
        }
    }

    fn options(&self) -> Vec<Position> {
        let mut out = Vec::new();
        if self.terminal() {
            return out;
        }
        if self.c > 0 {
            out.push(Position {
                c: self.c - 1,
                ..self.clone()
            });
        }
        let normal = |mut parts: Vec<u32>| {
            parts.retain(|&x| x > 0);
            parts.sort_unstable_by(|a, b| b.cmp(a));
            Position {
                c: self.c,
                lambda: None,
                parts,
            }
        };
        match self.lambda {
            Some(n) => out.push(normal(vec![n.saturating_sub(1)])),
            None => {
                for i in 0..self.parts.len() {
                    let a = self.parts[i];
                    for b in 0..a {
                        let mut parts = self.parts.clone();
                        parts.remove(i);
                        parts.extend([b, a - 1 - b]);
                        out.push(normal(parts));
                    }
                }
            }
        }
        out
    }
}

impl Moves for Position {
    fn start(&self) -> Pos {
        self.pos()
    }

    fn pos(&self, v: &Value) -> Result<Pos, String> {
        Ok(read(v)?.pos())
    }

    fn options(&self, p: &Pos) -> Result<Vec<Pos>, String> {
        Ok(Position::of(p)
            .options()
            .iter()
            .map(Position::pos)
            .collect())
    }

    fn features(&self, env: &mut Env, p: &Pos) {
        let s = Position::of(p);
        let parts: Vec<u32> = match s.lambda {
            Some(n) => vec![n],
            None => s.parts.clone(),
        };
        let size: i64 = parts.iter().map(|&x| x as i64).sum();
        let get = |i: usize| parts.get(i).map_or(0, |&x| x as i64);
        let solid = s.solid();
        env.set("c", Val::Int(s.c as i64));
        env.set(
            "parts",
            Val::List(parts.iter().map(|&x| x as i64).collect()),
        );
        env.set("l1", Val::Int(get(0)));
        env.set("l2", Val::Int(get(1)));
        env.set("num_parts", Val::Int(parts.len() as i64));
        env.set("size", Val::Int(size));
        env.set("parts_sum", Val::Int(size));
        env.set(
            "odd_parts",
            Val::Int(parts.iter().filter(|&&x| x % 2 == 1).count() as i64),
        );
        env.set("is_lambda", Val::Bool(s.lambda.is_some()));
        env.set("solid", Val::Bool(solid));
        // Lemma 5.39's splits of λ that are solid: the options with as many centres (the others
        // take a centre away), by the verifier's own rules.
        let splits = s
            .options()
            .iter()
            .filter(|q| q.c == s.c && q.solid())
            .count();
        env.set("solid_splits", Val::Int(splits as i64));
        env.set("terminal", Val::Bool(s.terminal()));
    }

    fn features_in_diagram(&self) -> bool {
        true
    }
}
