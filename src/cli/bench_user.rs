//! `grundy bench`'s user-game rows (issue 45): Node Kayles written as a rule in a game spec
//! (specs/user/unk.yaml, built in) against the built-in NK on the same graphs, wall time of
//! reading (for UNK: exploring every position with the rule) and solving, and their ratio.

use crate::expr::{parse_game, ParseOptions};
use crate::solve::Solver;
use crate::term::{errln, outln};
use std::time::Instant;

/// The user Node Kayles spec, as specs/user/unk.yaml holds it.
pub const UNK_SPEC: &str = include_str!("../../specs/user/unk.yaml");

/// Seconds to read and solve `text`, its value and the positions solved.
fn timed(text: &str) -> Result<(f64, u32, u64), String> {
    let t0 = Instant::now();
    let g = parse_game(text, ParseOptions::default()).map_err(|e| e.to_string())?;
    let mut s = Solver::new(&g);
    let v = s.nim_of_start();
    Ok((t0.elapsed().as_secs_f64(), v, s.stats().positions))
}

pub fn run(json: bool) {
    let src = crate::spec::Source {
        file: "specs/user/unk.yaml",
        text: UNK_SPEC,
    };
    if let Err(e) = crate::kinds::parse_spec(&src, "unk") {
        errln!("user games skipped: {e}");
        return;
    }
    if !json {
        outln!(
            "{:<16} {:>4} {:>10} {:>10} {:>10} {:>10} {:>8} {:>10}",
            "user game",
            "nim",
            "UNK pos",
            "UNK s",
            "NK pos",
            "NK s",
            "UNK/NK",
            "per pos"
        );
    }
    for graph in ["C_20", "P_24", "Grid_{4,5}"] {
        let (user, builtin) = match (
            timed(&format!("UNK({graph})")),
            timed(&format!("NK({graph})")),
        ) {
            (Ok(u), Ok(b)) => (u, b),
            (Err(e), _) | (_, Err(e)) => {
                errln!("user game on {graph} skipped: {e}");
                continue;
            }
        };
        let ratio = user.0 / builtin.0.max(1e-9);
        // NK memoises components up to automorphisms, UNK every position its rule reaches:
        // the time per position compares the rule's evaluation with compiled code.
        let per_position =
            (user.0 / user.2.max(1) as f64) / (builtin.0 / builtin.2.max(1) as f64).max(1e-12);
        if json {
            outln!(
                "{}",
                serde_json::json!({"user_game": format!("UNK({graph})"), "nim": user.1, "same_value": user.1 == builtin.1, "user_positions": user.2, "user_seconds": user.0, "builtin_positions": builtin.2, "builtin_seconds": builtin.0, "ratio": ratio, "per_position_ratio": per_position})
            );
        } else {
            outln!(
                "{:<16} {:>4} {:>10} {:>10.4} {:>10} {:>10.4} {:>7.1}x {:>9.2}x{}",
                format!("UNK({graph})"),
                user.1,
                user.2,
                user.0,
                builtin.2,
                builtin.0,
                ratio,
                per_position,
                if user.1 == builtin.1 {
                    ""
                } else {
                    "  VALUES DIFFER"
                }
            );
        }
    }
}
