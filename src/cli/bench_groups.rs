//! The group-games section of `grundy bench` (issue 31): GEN and DNG of Sym(5), Alt(5),
//! Sym(6), Alt(6), and of Dih(n) and Cyc(n) for every n ≤ 200, by the structure-class solver
//! (docs/design.md §9), each timed from scratch (the subgroup lattice included); beside it, in
//! the same run, the memo solver on subsets wherever it can run (at most 64 elements and
//! Σ 2^|M| ≤ 2^16 legal positions over the maximal subgroups M), with the ratio and whether
//! the values agree.

use crate::game::closure::{read_structure, ClosureGame};
use crate::graph::Closure;
use crate::solve::dispatch::structure_diagram;
use crate::solve::Solver;
use std::time::Instant;

/// Largest bound on the legal positions for which the memo solver is run.
const EXHAUSTIVE_POSITIONS: f64 = 65_536.0;

fn game(word: &str, group: &str) -> ClosureGame {
    let op = read_structure(group, Closure::Hull).expect("benchmark groups parse");
    ClosureGame::named(word, op).expect("GEN and DNG are games")
}

/// (nim, classes, seconds) by structure classes, from a fresh game.
fn by_classes(word: &str, group: &str) -> (u32, usize, f64) {
    let g = game(word, group);
    let t0 = Instant::now();
    let d = structure_diagram(&g).expect("the maximal subgroups of a benchmark group are found");
    (d.start_nim(), d.classes.len(), t0.elapsed().as_secs_f64())
}

/// (nim, seconds) by the memo solver on subsets, when it fits.
fn by_subsets(word: &str, group: &str) -> Option<(u32, f64)> {
    let g = game(word, group);
    let bound: f64 = g
        .facets()?
        .iter()
        .map(|m| 2f64.powi(m.count_ones(..) as i32))
        .sum();
    if g.size() > 64 || bound > EXHAUSTIVE_POSITIONS {
        return None;
    }
    let g = game(word, group);
    let t0 = Instant::now();
    let v = Solver::new(&g).nim_of_start();
    Some((v, t0.elapsed().as_secs_f64()))
}

struct Row {
    game: String,
    nim: u32,
    classes: usize,
    seconds: f64,
    exhaustive: Option<(u32, f64)>,
}

fn row(word: &str, group: &str) -> Row {
    let (nim, classes, seconds) = by_classes(word, group);
    Row {
        game: format!("{word}({group})"),
        nim,
        classes,
        seconds,
        exhaustive: by_subsets(word, group),
    }
}

fn print(r: &Row, json: bool) {
    let agree = r.exhaustive.is_none_or(|(v, _)| v == r.nim);
    if json {
        println!(
            "{}",
            serde_json::json!({
                "group_game": r.game, "nim": r.nim, "classes": r.classes,
                "classes_seconds": r.seconds,
                "exhaustive_seconds": r.exhaustive.map(|e| e.1),
                "same_value": agree,
            })
        );
        return;
    }
    let (ex, ratio) = match r.exhaustive {
        Some((_, s)) => (
            format!("{s:.4}"),
            format!("{:.1}x", s / r.seconds.max(1e-9)),
        ),
        None => ("past reach".into(), "-".into()),
    };
    println!(
        "{:<16} {:>4} {:>8} {:>10.4} {:>12} {:>8}{}",
        r.game,
        r.nim,
        r.classes,
        r.seconds,
        ex,
        ratio,
        if agree { "" } else { "  VALUES DIFFER" }
    );
}

pub fn run(json: bool) {
    if !json {
        println!(
            "{:<16} {:>4} {:>8} {:>10} {:>12} {:>8}",
            "group game", "nim", "classes", "classes s", "exhaustive s", "ratio"
        );
    }
    for group in ["Sym(4)", "Dih(6)", "Sym(5)", "Alt(5)", "Sym(6)", "Alt(6)"] {
        for word in ["GEN", "DNG"] {
            print(&row(word, group), json);
        }
    }
    // The families, summarised: the slowest instance, the total, and the memo solver where
    // it runs.
    for family in ["Dih", "Cyc"] {
        let rows: Vec<Row> = (1..=200)
            .flat_map(|n| ["GEN", "DNG"].map(|w| row(w, &format!("{family}({n})"))))
            .collect();
        let slowest = rows
            .iter()
            .max_by(|a, b| a.seconds.total_cmp(&b.seconds))
            .expect("200 rows");
        let total: f64 = rows.iter().map(|r| r.seconds).sum();
        let both: Vec<&Row> = rows.iter().filter(|r| r.exhaustive.is_some()).collect();
        let agree = both
            .iter()
            .all(|r| r.exhaustive.is_some_and(|(v, _)| v == r.nim));
        let ex_total: f64 = both.iter().filter_map(|r| r.exhaustive.map(|e| e.1)).sum();
        let cl_total: f64 = both.iter().map(|r| r.seconds).sum();
        if json {
            println!(
                "{}",
                serde_json::json!({
                    "group_family": format!("{family}(n), n <= 200"), "games": rows.len(),
                    "slowest": slowest.game, "slowest_seconds": slowest.seconds,
                    "total_seconds": total, "exhaustive_games": both.len(),
                    "exhaustive_seconds": ex_total, "classes_seconds_same_games": cl_total,
                    "same_value": agree,
                })
            );
        } else {
            println!(
                "{family}(n), n <= 200: {} games (GEN, DNG) in {total:.3} s, slowest {} {:.4} s; memo solver on {} of them: {ex_total:.3} s against {cl_total:.4} s by classes{}",
                rows.len(),
                slowest.game,
                slowest.seconds,
                both.len(),
                if agree { ", same values" } else { ", VALUES DIFFER" }
            );
        }
    }
}
