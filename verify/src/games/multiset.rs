//! The multiset terminate game TER(U) (before Prop 5.14): a move decreases a positive element
//! by 1; the game is over when every element is below 2. Certificates write
//! `{"multiset": [u1, …]}`, positions the multiset ascending; specs write `TER{u1,…,uk}`.
//!
//! Features: `elements` (U ascending), `total` = ‖U‖, σ (`sigma`, ones), λ (`lambda`,
//! elements ≥ 2), m (the maximum), ν (`nu`, copies of m minus one), `p` = pty(‖U‖),
//! `terminal` (every element below 2), and d = m − Σ_{u ∈ U'} (u − 1), U' the elements ≥ 2
//! less one copy of m (`d`; on terminal positions d = ∞: `d_infinite`, and `d` is 2^40 as in
//! grundy's convention), `rho` = [p, d].

use super::{downcast, from_json, ints, Description, Family, Game, Moves, Pos, Rules};
use crate::formula::{Env, Val};
use crate::names::nums;
use serde_json::Value;
use std::any::Any;

pub struct Multiset;

/// The multiset U as written (the rules sort it).
#[derive(Clone, Debug)]
pub struct Elements(Vec<u32>);

impl Family for Multiset {
    fn key(&self) -> &'static str {
        "multiset"
    }

    fn read(&self, v: Value) -> Result<Game, String> {
        Ok(Game::new(Elements(from_json(v)?)))
    }

    fn parse(&self, t: &str) -> Option<Result<Game, String>> {
        let u = t.strip_prefix("TER{").and_then(|r| r.strip_suffix('}'))?;
        Some(nums(u).map(|u| {
            let mut u: Vec<u32> = u.into_iter().map(|x| x as u32).collect();
            u.sort_unstable();
            Game::new(Elements(u))
        }))
    }

    #[cfg(test)]
    fn example(&self) -> super::Example {
        super::Example {
            name: "TER{1,2,2}",
            game: "[1, 2, 2]",
            table: "[[[1, 2, 2], 2], [[1, 1, 2], 1], [[0, 2, 2], 0], [[0, 1, 2], 2], [[1, 1, 1], 0], [[0, 1, 1], 0], [[0, 0, 2], 1], [[0, 0, 1], 0]]",
            nim: 2,
        }
    }
}

impl Description for Elements {
    fn key(&self) -> &'static str {
        "multiset"
    }

    fn rules(&self) -> Result<Rules, String> {
        let mut u = self.0.clone();
        u.sort_unstable();
        Ok(Rules::of(Elements(u)))
    }

    fn same(&self, other: &Game) -> bool {
        downcast::<Elements>(other).is_some_and(|o| o.0 == self.0)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn encode_start(&self) -> Option<Value> {
        Some(Value::from(self.0.clone()))
    }
}

impl Moves for Elements {
    fn start(&self) -> Pos {
        Pos::List(self.0.clone())
    }

    fn pos(&self, v: &Value) -> Result<Pos, String> {
        let u = ints(v)?;
        if u.windows(2).any(|w| w[0] > w[1]) {
            return Err(format!("`{v}` is not an ascending multiset"));
        }
        Ok(Pos::List(u))
    }

    /// Before Prop 5.14: decrease a positive element by 1; over when all are below 2.
    fn options(&self, p: &Pos) -> Result<Vec<Pos>, String> {
        let u = p.list();
        let mut out = Vec::new();
        if u.iter().all(|&x| x < 2) {
            return Ok(out);
        }
        for i in 0..u.len() {
            if u[i] > 0 {
                let mut q = u.to_vec();
                q[i] -= 1;
                q.sort_unstable();
                out.push(Pos::List(q));
            }
        }
        Ok(out)
    }

    fn features(&self, env: &mut Env, p: &Pos) {
        let u: Vec<i64> = p.list().iter().map(|&x| x as i64).collect();
        let m = u.iter().copied().max().unwrap_or(0);
        let terminal = u.iter().all(|&x| x < 2);
        let total: i64 = u.iter().sum();
        let d = if terminal {
            D_INFINITE
        } else {
            // U' = the elements ≥ 2 with one copy of m taken out.
            let mut rest: Vec<i64> = u.iter().copied().filter(|&x| x >= 2).collect();
            let at = rest
                .iter()
                .position(|&x| x == m)
                .expect("m ≥ 2 is an element");
            rest.remove(at);
            m - rest.iter().map(|x| x - 1).sum::<i64>()
        };
        env.set("elements", Val::List(u.clone()));
        env.set("total", Val::Int(total));
        env.set(
            "sigma",
            Val::Int(u.iter().filter(|&&x| x == 1).count() as i64),
        );
        env.set(
            "lambda",
            Val::Int(u.iter().filter(|&&x| x >= 2).count() as i64),
        );
        env.set("m", Val::Int(m));
        env.set(
            "nu",
            Val::Int(u.iter().filter(|&&x| x == m).count() as i64 - 1),
        );
        env.set("p", Val::Int(total % 2));
        env.set("d", Val::Int(d));
        env.set("d_infinite", Val::Bool(terminal));
        env.set("rho", Val::List(vec![total % 2, d]));
        env.set("terminal", Val::Bool(terminal));
    }
}

/// d = ∞ as the feature `d` holds it (a convention, not a result: larger than any finite d).
const D_INFINITE: i64 = 1 << 40;
