//! Certificates for `grundy-verify` (issue: an independent verifier): for every holding verdict
//! that can be certified within budget, a compact deterministic JSON file under
//! `output/certificates/` from which the small checker in `verify/` re-derives the verdict
//! from the definitions alone, sharing no code with the solver.
//!
//! Kinds: nim-value tables closed under options (claims), the Guy–Smith period data of octal
//! sequences, strategies of case analysis diagrams, families of sets ([`families`]), and even-kernel play trees for edge
//! geography. Tables list literal positions (no symmetry reduction, which the checker would
//! have to trust), so large instances exceed the per-instance budget and are listed in the
//! certificate as not certified, with the reason; a spec none of whose instances fits is
//! reported "not certified" with the reason. A refuted verdict's certificate carries the
//! counterexample's evidence ([`refute`]).

pub(crate) mod claims;
pub(crate) mod closure;
pub mod encode;
pub(crate) mod families;
pub(crate) mod figures;
pub(crate) mod kernels;
pub(crate) mod maps;
pub(crate) mod octal;
pub(crate) mod refute;
pub(crate) mod strategy;

pub use crate::check::kind::{Body, Made};
use crate::game::{AnyGame, AnyPos};
use crate::solve::Solver;
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

/// [`crate::solve::reachable_order`] of the game's positions (the one order of the tables).
fn breadth_first(
    game: &AnyGame,
    roots: &[AnyPos],
    cap: usize,
    split: bool,
) -> Result<Vec<AnyPos>, String> {
    crate::solve::reachable_order(game, roots, cap, split)
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
    nim_table_with(&mut Solver::new(game), roots, cap)
}

/// [`nim_table`] with a solver that may already hold values (the check's memo).
pub(crate) fn nim_table_with(
    solver: &mut Solver<AnyGame>,
    roots: &[AnyPos],
    cap: usize,
) -> Result<Vec<(Value, u32)>, String> {
    let order = breadth_first(solver.game(), roots, cap, true)?;
    Ok(table_of(solver, &order))
}

/// The entries of a table whose positions are `order` (what [`nim_table_with`] lists).
pub(crate) fn table_of(solver: &mut Solver<AnyGame>, order: &[AnyPos]) -> Vec<(Value, u32)> {
    order
        .iter()
        .map(|p| (encode::pos(p), solver.nim(p)))
        .collect()
}
