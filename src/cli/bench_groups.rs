//! The group-games section of `grundy bench` (issue 31): GEN and DNG of Sym(5), Alt(5),
//! Sym(6), Alt(6), and of Dih(n) and Cyc(n) for every n ≤ 200, by the structure-class solver
//! (docs/design.md §9), each timed from scratch (the subgroup lattice included); beside it, in
//! the same run, the memo solver on subsets wherever it can run (at most 64 elements and
//! Σ 2^|M| ≤ 2^16 legal positions over the maximal subgroups M), with the ratio and whether
//! the values agree. Then TER, DNT, GEN and DNG of complete multipartite graphs of hundreds of
//! vertices by count vectors (method `symmetry-classes`, src/solve/structure_symmetric.rs),
//! beside seed 000's multiset game TER(U) of §5.3 solved by its memo solver (for TER) and the
//! level solver on the graph where it has at most 64 vertices, with ratios. Last, the
//! dispatcher's two routes for TER and DNT on graphs of at most 64 vertices: the level solver
//! against the structure classes of 𝒩*, on instances both can run.

use crate::game::closure::{read_structure, ClosureGame};
use crate::graph::Closure;
use crate::solve::dispatch::structure_diagram;
use crate::solve::Solver;
use crate::term::outln;
use std::time::Instant;

/// Largest bound on the legal positions for which the memo solver is run.
const EXHAUSTIVE_POSITIONS: f64 = 65_536.0;

fn game(word: &str, group: &str) -> ClosureGame {
    let op = read_structure(group, Closure::HULL).expect("benchmark groups parse");
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
        outln!(
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
    outln!(
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
        outln!(
            "{:<16} {:>4} {:>8} {:>10} {:>12} {:>8}",
            "group game",
            "nim",
            "classes",
            "classes s",
            "exhaustive s",
            "ratio"
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
            outln!(
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
            outln!(
                "{family}(n), n <= 200: {} games (GEN, DNG) in {total:.3} s, slowest {} {:.4} s; memo solver on {} of them: {ex_total:.3} s against {cl_total:.4} s by classes{}",
                rows.len(),
                slowest.game,
                slowest.seconds,
                both.len(),
                if agree { ", same values" } else { ", VALUES DIFFER" }
            );
        }
    }
    run_multipartite(json);
    run_removing(json);
}

/// TER and DNT on graphs both routes solve: the level solver (what the dispatcher runs below
/// its estimate's threshold) against the structure classes (what it tries past it).
pub fn run_removing(json: bool) {
    use crate::game::removing::{RemovingGame, Rule};
    use crate::solve::dispatch::removing_by_classes;
    use crate::solve::guard::Monitor;
    use crate::solve::progress::Progress;
    if !json {
        outln!(
            "{:<24} {:>4} {:>10} {:>10} {:>10} {:>10} {:>8}",
            "removing game",
            "nim",
            "positions",
            "levels s",
            "classes",
            "classes s",
            "ratio"
        );
    }
    for graph in [
        "P_20",
        "P_26",
        "K_{1,20}",
        "C_16",
        "W_16",
        "Q_4",
        "K_{6,6,6}",
    ] {
        for rule in [Rule::Ter, Rule::Dnt] {
            let g = crate::graph::parse_graph(graph).expect("benchmark graphs parse");
            let Ok(r) = RemovingGame::new(rule, g, Closure::HULL, 0) else {
                continue;
            };
            let name = r.name();
            let t0 = Instant::now();
            let Ok(levels) = crate::solve::levels::solve(
                &r,
                &Monitor::unlimited(name.clone()),
                &Progress::hidden(),
            ) else {
                continue;
            };
            let level_s = t0.elapsed().as_secs_f64();
            let t0 = Instant::now();
            let classes = removing_by_classes(&r, crate::solve::structure::MAX_CLASSES);
            let class_s = t0.elapsed().as_secs_f64();
            let agree = classes.as_ref().map_or(true, |&(v, _)| v == levels.nim);
            if json {
                outln!(
                    "{}",
                    serde_json::json!({
                        "removing_game": name, "nim": levels.nim, "level_positions": levels.positions,
                        "levels_seconds": level_s, "classes": classes.as_ref().ok().map(|c| c.1),
                        "classes_seconds": class_s, "same_value": agree,
                    })
                );
                continue;
            }
            let (count, ratio) = match &classes {
                Ok((_, c)) => (
                    c.to_string(),
                    format!("{:.1}x", level_s / class_s.max(1e-9)),
                ),
                Err(_) => ("failed".to_string(), "-".to_string()),
            };
            outln!(
                "{name:<24} {:>4} {:>10} {level_s:>10.4} {count:>10} {class_s:>10.4} {ratio:>8}{}",
                levels.nim,
                levels.positions,
                if agree { "" } else { "  VALUES DIFFER" }
            );
        }
    }
}

/// One multipartite row: (nim, count vectors, seconds) by symmetry classes, and the other
/// method's name, value and seconds.
fn multipartite_row(word: &str, parts: &[u64], json: bool) {
    use crate::game::closure::multipartite::Multipartite;
    use crate::game::multiset::MultisetGame;
    use crate::solve::dispatch::{self, Options};
    use crate::solve::guard::Monitor;
    let op = std::sync::Arc::new(
        Multipartite::new(parts, Closure::HULL).expect("benchmark graphs are multipartite"),
    );
    let g = ClosureGame::named(word, op.clone()).expect("the four games");
    let t0 = Instant::now();
    let s = crate::solve::structure_symmetric::solve(
        op.as_ref(),
        g.direction(),
        g.goal(),
        &Monitor::unlimited(g.name()),
    )
    .expect("no limit");
    let seconds = t0.elapsed().as_secs_f64();
    let total: u64 = parts.iter().sum();
    let other: Option<(&str, u32, f64)> = if total <= 64 && matches!(word, "TER" | "DNT") {
        let graph = crate::graph::families::multipartite(parts).expect("a graph");
        let rule = if word == "TER" {
            crate::game::removing::Rule::Ter
        } else {
            crate::game::removing::Rule::Dnt
        };
        let game = crate::game::removing::RemovingGame::new(rule, graph, Closure::HULL, 0)
            .map(crate::game::AnyGame::Removing)
            .expect("a removing game");
        let t0 = Instant::now();
        dispatch::nim(&game, &Options::quiet())
            .ok()
            .map(|v| ("levels on the graph", v, t0.elapsed().as_secs_f64()))
    } else if word == "TER" && parts.iter().filter(|&&p| p >= 2).count() >= 2 {
        let m = MultisetGame::new(parts.iter().map(|&p| p as u32).collect());
        let t0 = Instant::now();
        let v = Solver::new(&m).nim_of_start();
        Some(("TER(U) memo", v, t0.elapsed().as_secs_f64()))
    } else {
        None
    };
    let name = g.name();
    let agree = other.is_none_or(|o| o.1 == s.nim);
    if json {
        outln!(
            "{}",
            serde_json::json!({
                "multipartite_game": name, "nim": s.nim, "count_vectors": s.states,
                "symmetry_seconds": seconds, "other_method": other.map(|o| o.0),
                "other_seconds": other.map(|o| o.2), "same_value": agree,
            })
        );
        return;
    }
    let (what, secs, ratio) = match other {
        Some((w, _, t)) => (
            w.to_string(),
            format!("{t:.4}"),
            format!("{:.1}x", t / seconds.max(1e-9)),
        ),
        None => ("-".into(), "-".into(), "-".into()),
    };
    outln!(
        "{name:<24} {:>4} {:>10} {seconds:>10.4} {what:>20} {secs:>10} {ratio:>8}{}",
        s.nim,
        s.states,
        if agree { "" } else { "  VALUES DIFFER" }
    );
}

/// Complete multipartite graphs by count vectors, against TER(U) and the level solver.
pub fn run_multipartite(json: bool) {
    if !json {
        outln!(
            "{:<24} {:>4} {:>10} {:>10} {:>20} {:>10} {:>8}",
            "multipartite game",
            "nim",
            "vectors",
            "symmetry s",
            "other method",
            "other s",
            "ratio"
        );
    }
    let graphs: [&[u64]; 6] = [
        &[4, 4, 5],
        &[100, 100, 100],
        &[50, 100, 150],
        &[200, 200],
        &[1, 1, 250],
        &[20, 20, 20, 20, 20],
    ];
    for parts in graphs {
        for word in ["TER", "DNT", "GEN", "DNG"] {
            multipartite_row(word, parts, json);
        }
    }
}
