//! Certificates for `grundy-verify` (issue: an independent verifier): for every holding verdict
//! that can be certified within budget, a compact deterministic JSON file under
//! `output/certificates/` from which the small checker in `verify/` re-derives the verdict
//! from the definitions alone, sharing no code with the solver.
//!
//! Kinds: nim-value tables closed under options (claims), the Guy–Smith period data of octal
//! sequences, strategies of case analysis diagrams, and even-kernel play trees for edge
//! geography. Tables list literal positions (no symmetry reduction, which the checker would
//! have to trust), so large instances exceed the per-instance budget and are listed in the
//! certificate as not certified, with the reason; a spec none of whose instances fits is
//! reported "not certified" with the reason. A refuted verdict's certificate carries the
//! counterexample's evidence ([`refute`]).

pub(crate) mod claims;
pub(crate) mod closure;
pub mod encode;
pub(crate) mod kernels;
pub(crate) mod maps;
pub(crate) mod octal;
pub(crate) mod refute;
pub(crate) mod strategy;

pub use crate::check::kind::{Body, Made};
use crate::game::{AnyGame, AnyPos, Game};
use crate::solve::Solver;
use rustc_hash::FxHashSet;
use serde_json::Value;

/// Most positions listed for one instance.
pub const MAX_INSTANCE_POSITIONS: usize = 10_000;
/// Most positions listed for one spec, over all its instances.
pub const MAX_SPEC_POSITIONS: usize = 100_000;
/// All certificates together.
pub const MAX_TOTAL_BYTES: usize = 50_000_000;

/// Every position reachable from `start`, breadth-first, unsplit; `Err` past `cap`.
pub(crate) fn reachable_within(
    game: &AnyGame,
    start: &AnyPos,
    cap: usize,
) -> Result<Vec<AnyPos>, String> {
    breadth_first(game, std::slice::from_ref(start), cap, false)
}

/// The roots, then every position reached from them breadth-first (a deterministic order);
/// with `split`, an option the game splits into a disjoint sum ([`Game::components`]) is
/// reached as its parts instead. `Err` past `cap` positions.
fn breadth_first(
    game: &AnyGame,
    roots: &[AnyPos],
    cap: usize,
    split: bool,
) -> Result<Vec<AnyPos>, String> {
    let mut seen: FxHashSet<AnyPos> = FxHashSet::default();
    let mut order: Vec<AnyPos> = Vec::new();
    for r in roots {
        if seen.insert(r.clone()) {
            order.push(r.clone());
        }
    }
    let mut i = 0;
    while i < order.len() {
        for o in game.options(&order[i]) {
            let parts = if split {
                game.components(&o)
            } else {
                Vec::new()
            };
            let reached = if parts.len() >= 2 { parts } else { vec![o] };
            for q in reached {
                if seen.insert(q.clone()) {
                    if order.len() >= cap {
                        return Err(format!(
                            "more than {cap} positions (the budget left for the instance)"
                        ));
                    }
                    order.push(q);
                }
            }
        }
        i += 1;
    }
    Ok(order)
}

/// Every position reachable from `roots` with its nim-value, breadth-first (a deterministic
/// order), as certificate entries; `Err` past `cap` positions. An option the game splits into
/// a disjoint sum ([`Game::components`], Node Kayles) is listed as its parts, not itself: the
/// verifier splits it by its own rules and takes the XOR of the parts' listed values.
pub(crate) fn nim_table(
    game: &AnyGame,
    roots: &[AnyPos],
    cap: usize,
) -> Result<Vec<(Value, u32)>, String> {
    let order = breadth_first(game, roots, cap, true)?;
    let mut solver = Solver::new(game);
    Ok(order
        .iter()
        .map(|p| (encode::pos(p), solver.nim(p)))
        .collect())
}
