//! Solving any game of the expression language ([`AnyGame::solve`]): the dispatcher's
//! fastest sound method, else part by part, exhaustively. An inherent impl kept in the solve
//! layer, so that the game model never calls the solvers.

use super::Solver;
use crate::game::{AnyGame, Game};

/// Result of solving a named game.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Solved {
    pub game: String,
    pub nim: u32,
    pub positions: u64,
    pub seconds: f64,
}

impl AnyGame {
    /// nim-value of the start, by the fastest sound method of [`crate::solve::dispatch`],
    /// without a budget (callers that take games from users go through the dispatcher with
    /// one). Falls back to solving part by part, exhaustively, where no method gives the value.
    pub fn solve(&self) -> Solved {
        let t0 = std::time::Instant::now();
        let opts = crate::solve::dispatch::Options {
            budget: crate::solve::guard::Budget::unlimited(),
            progress: false,
        };
        if let Ok(s) = crate::solve::dispatch::solve(self, &opts) {
            if let Some(nim) = s.nim {
                return Solved {
                    game: s.game,
                    nim,
                    positions: s.positions,
                    seconds: s.seconds,
                };
            }
        }
        let (nim, positions) = self.solve_inner();
        Solved {
            game: self.to_string(),
            nim,
            positions,
            seconds: t0.elapsed().as_secs_f64(),
        }
    }

    fn solve_inner(&self) -> (u32, u64) {
        match self {
            AnyGame::Sum(parts) => parts
                .iter()
                .map(AnyGame::solve_inner)
                .fold((0, 0), |(a, n), (b, m)| (a ^ b, n + m)),
            AnyGame::Removing(g) => {
                let mut s = Solver::new(g);
                let v = s.nim_of_start();
                (v, s.stats().positions)
            }
            AnyGame::Nimber(k) => (*k, *k as u64 + 1),
            // The nim sequence and the XOR law (Sprague–Grundy) instead of the heap multisets.
            AnyGame::Octal(g) => {
                let top = g.heaps().iter().copied().max().unwrap_or(0) as u64;
                (g.nim_by_sequence(), top + 1)
            }
            AnyGame::Dawson(g) => solve_with(g),
            AnyGame::Multiset(g) => solve_with(g),
            AnyGame::Spl(g) => solve_with(g),
            // A P-position by the GF(2) criterion has nim-value 0; an N-position's value needs
            // the exhaustive solver (callers check `refusal` first).
            AnyGame::Ueg(g) => match g.solve_fast() {
                Some((true, _)) => (0, 0),
                _ => solve_with(g),
            },
            AnyGame::Closure(g) => solve_with(g),
            AnyGame::Family(_) | AnyGame::Ordinal(..) => {
                let mut s = Solver::new(self);
                let v = s.nim_of_start();
                (v, s.stats().positions)
            }
        }
    }
}

fn solve_with<G: Game>(g: &G) -> (u32, u64) {
    let mut s = Solver::new(g);
    let v = s.nim_of_start();
    (v, s.stats().positions)
}
