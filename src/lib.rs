//! grundy: exhaustive solving of impartial games on graphs and machine checking of the claims
//! papers make about them.
//!
//! The crate is split along the pipeline: [`graph`] (graphs and geodetic convexity) and
//! [`game`] (the `Game` model and every game family) → [`solve`] (memoised nim-values) →
//! [`expr`] (the textual game language shared by the CLI and specs) → `check`, `spec`,
//! `render` → the thin [`cli`]. Model, solver and checker never touch YAML, templates or files.

pub mod certify;
pub mod check;
pub mod cli;
pub mod expr;
pub mod files;
pub mod game;
pub mod graph;
pub mod group;
pub mod kinds;
pub mod pipeline;
pub mod registry;
pub mod render;
pub mod solve;
pub mod spec;
pub mod synth;
pub mod term;
pub mod text;
