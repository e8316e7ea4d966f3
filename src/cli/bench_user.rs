//! `grundy bench`'s user-game rows (issue 45): Node Kayles written as a rule in a game spec
//! against the built-in NK on the same graphs, wall time of reading and solving, and their
//! ratio: UNK (specs/user/unk.yaml) explores every position with the rule; UNKS
//! (specs/user/unk_sum.yaml) declares `components: true` and `symmetric: true`, so reading it
//! checks those laws along random plays and explores components up to symmetry, as NK does.

use crate::expr::{parse_game, ParseOptions};
use crate::solve::Solver;
use crate::term::{errln, outln};
use std::time::Instant;

/// The user Node Kayles spec, as specs/user/unk.yaml holds it.
pub const UNK_SPEC: &str = include_str!("../../specs/user/unk.yaml");
/// The same rule with its laws declared, as specs/user/unk_sum.yaml holds it.
pub const UNKS_SPEC: &str = include_str!("../../specs/user/unk_sum.yaml");

/// Seconds to read and solve `text`, its value and the positions solved.
fn timed(text: &str) -> Result<(f64, u32, u64), String> {
    let t0 = Instant::now();
    let g = parse_game(text, ParseOptions::default()).map_err(|e| e.to_string())?;
    let mut s = Solver::new(&g);
    let v = s.nim_of_start();
    Ok((t0.elapsed().as_secs_f64(), v, s.stats().positions))
}

pub fn run(json: bool) {
    for (file, text, id) in [
        ("specs/user/unk.yaml", UNK_SPEC, "unk"),
        ("specs/user/unk_sum.yaml", UNKS_SPEC, "unk_sum"),
    ] {
        if let Err(e) = crate::kinds::parse_spec(&crate::spec::Source { file, text }, id) {
            errln!("user games skipped: {e}");
            return;
        }
    }
    if !json {
        outln!(
            "{:<16} {:>4} {:>10} {:>10} {:>10} {:>10} {:>8} {:>10}",
            "user game",
            "nim",
            "user pos",
            "user s",
            "NK pos",
            "NK s",
            "user/NK",
            "per pos"
        );
    }
    for (head, graph) in ["UNK", "UNKS"]
        .into_iter()
        .flat_map(|h| ["C_20", "P_24", "Grid_{4,5}"].map(|g| (h, g)))
    {
        let (user, builtin) = match (
            timed(&format!("{head}({graph})")),
            timed(&format!("NK({graph})")),
        ) {
            (Ok(u), Ok(b)) => (u, b),
            (Err(e), _) | (_, Err(e)) => {
                errln!("user game on {graph} skipped: {e}");
                continue;
            }
        };
        let ratio = user.0 / builtin.0.max(1e-9);
        // NK memoises components up to automorphisms, UNK every position its rule reaches,
        // UNKS what NK does: the time per position compares the rule's evaluation (and for
        // UNKS the law checks) with compiled code.
        let per_position =
            (user.0 / user.2.max(1) as f64) / (builtin.0 / builtin.2.max(1) as f64).max(1e-12);
        if json {
            outln!(
                "{}",
                serde_json::json!({"user_game": format!("{head}({graph})"), "nim": user.1, "same_value": user.1 == builtin.1, "user_positions": user.2, "user_seconds": user.0, "builtin_positions": builtin.2, "builtin_seconds": builtin.0, "ratio": ratio, "per_position_ratio": per_position})
            );
        } else {
            outln!(
                "{:<16} {:>4} {:>10} {:>10.4} {:>10} {:>10.4} {:>7.1}x {:>9.2}x{}",
                format!("{head}({graph})"),
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
