//! Dawson's Chess (before Prop 5.19): a row of pins (bit i = pin i standing); a move knocks
//! down a standing pin and its standing neighbours. Certificates write
//! `{"DC": {"pins": p, "start": mask}}`; specs write `DC(p)`, a full row of 1 to 64 pins.
//!
//! `nim("DC(p)")` in formulas is solved run by run, for rows of any length up to
//! [`MAX_PINS`]: a knocked-down pin separates the row into runs no move crosses, so a
//! position is the disjoint sum of its runs (nim-sum of their values), and a run of k pins
//! has the options "knock pin i" leaving runs of i − 2 and k − i − 1 pins (fewer at the ends).

use super::{call, downcast, from_json, int, mex, Description, Family, Game, Moves, Pos, Rules};
use crate::names::num;
use serde::Deserialize;
use serde_json::Value;
use std::any::Any;

/// Longest Dawson's Chess row solved run by run.
const MAX_PINS: usize = 100_000;

pub struct Dawson;

/// A row of `pins` pins, the standing ones at the start `start`.
#[derive(Clone, Debug, Deserialize)]
pub struct Row {
    pins: u32,
    start: u64,
}

impl Family for Dawson {
    fn key(&self) -> &'static str {
        "DC"
    }

    fn read(&self, v: Value) -> Result<Game, String> {
        Ok(Game::new(from_json::<Row>(v)?))
    }

    fn parse(&self, t: &str) -> Option<Result<Game, String>> {
        let (head, inner) = call(t)?;
        (head == "DC").then(|| {
            let p = num(inner)?;
            if !(1..=64).contains(&p) {
                return Err(format!("`{t}`: pin rows of 1 to 64 pins"));
            }
            Ok(Game::new(Row {
                pins: p as u32,
                start: if p == 64 { u64::MAX } else { (1u64 << p) - 1 },
            }))
        })
    }

    /// nim(DC(p)) for rows of any length, which the bitmask positions cannot hold.
    fn nim_of_name(&self, name: &str) -> Option<Result<u32, String>> {
        let p = name
            .trim()
            .strip_prefix("DC(")
            .and_then(|r| r.strip_suffix(')'))
            .and_then(|k| k.trim().parse::<usize>().ok())?;
        if p > MAX_PINS {
            return Some(Err(format!("DC({p}) is longer than the verifier solves")));
        }
        Some(Ok(runs(p)[p]))
    }

    #[cfg(test)]
    fn example(&self) -> super::Example {
        super::Example {
            name: "DC(3)",
            game: r#"{"pins": 3, "start": 7}"#,
            table: "[[7, 2], [4, 1], [1, 1], [0, 0]]",
            nim: 2,
        }
    }
}

/// nim(DC(k)) for a run of k standing pins, by the rule of the game.
fn runs(k: usize) -> Vec<u32> {
    let mut g = vec![0u32; k + 1];
    for n in 1..=k {
        let mut seen = Vec::with_capacity(n);
        for i in 1..=n {
            // Pin i falls with its neighbours i − 1 and i + 1 (where they stand).
            let left = i.saturating_sub(2);
            let right = n.saturating_sub(i + 1);
            seen.push(g[left] ^ g[right]);
        }
        g[n] = mex(&seen);
    }
    g
}

impl Description for Row {
    fn key(&self) -> &'static str {
        "DC"
    }

    fn rules(&self) -> Result<Rules, String> {
        let pins = self.pins;
        if pins > 64 || (pins < 64 && self.start >> pins != 0) {
            return Err(format!("a row of {pins} pins has no pin outside it"));
        }
        Ok(Rules::of(self.clone()))
    }

    fn same(&self, other: &Game) -> bool {
        downcast::<Row>(other).is_some_and(|o| o.pins == self.pins && o.start == self.start)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn encode_start(&self) -> Option<Value> {
        Some(Value::from(self.start))
    }
}

impl Moves for Row {
    fn start(&self) -> Pos {
        Pos::Set(self.start)
    }

    fn pos(&self, v: &Value) -> Result<Pos, String> {
        let p = int(v)?;
        if self.pins < 64 && p >> self.pins != 0 {
            return Err(format!("`{v}` is not a set of pins of the row"));
        }
        Ok(Pos::Set(p))
    }

    /// Before Prop 5.19: knock down a standing pin and its standing neighbours.
    fn options(&self, p: &Pos) -> Result<Vec<Pos>, String> {
        let (s, pins) = (p.set(), self.pins);
        let mut out = Vec::new();
        for i in 0..pins {
            if s >> i & 1 == 1 {
                let mut hit = 1u64 << i;
                if i > 0 {
                    hit |= 1 << (i - 1);
                }
                if i + 1 < pins {
                    hit |= 1 << (i + 1);
                }
                out.push(Pos::Set(s & !hit));
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    /// Dawson's Chess is the octal game 0.137 (before Prop 5.23): its values from the rule are
    /// A002187, 0112031103322405223301130211045274 for n = 0..33.
    #[test]
    fn dawson_from_the_rule_is_a002187() {
        let known = "0112031103322405223301130211045274";
        let g = super::runs(33);
        let got: String = g
            .iter()
            .map(|v| char::from_digit(*v, 10).unwrap())
            .collect();
        assert_eq!(got, known);
        // The generic solver on the pin-row game agrees where both apply.
        for n in 1..=12 {
            assert_eq!(
                crate::solve::nim_of_name(&format!("DC({n})")).unwrap(),
                g[n]
            );
            let game = super::Game::parse(&format!("DC({n})")).unwrap();
            let rules = super::Rules::new(&game).unwrap();
            assert_eq!(crate::solve::solve(&rules).unwrap(), g[n], "DC({n})");
        }
        // nim(TER(P_3)) = 2 (worked in tests/corruption.rs).
        assert_eq!(crate::solve::nim_of_name("TER(P_3)").unwrap(), 2);
    }
}
