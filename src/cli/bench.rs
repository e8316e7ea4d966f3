//! `grundy bench`: positions per second and peak memory of the solver on TER(C_n) (odd n)
//! and DNT(W_n). Peak memory is the process's VmHWM, reset before each instance where the
//! kernel allows it (`/proc/self/clear_refs`).

use crate::expr::{parse_game, ParseOptions};
use std::process::ExitCode;

pub(crate) fn reset_peak() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

pub(crate) fn peak_mib() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

pub fn run(max_cycle: u64, max_wheel: u64, json: bool) -> ExitCode {
    // Checked before anything runs: the ranges below are generated eagerly.
    let limit = crate::graph::MAX_VERTICES as u64;
    if max_cycle > limit || max_wheel > limit {
        eprintln!("error: --max-cycle and --max-wheel take at most {limit} (the largest graph the solver takes)");
        return ExitCode::from(2);
    }
    let mut games: Vec<String> = (21..=max_cycle)
        .step_by(2)
        .map(|n| format!("TER(C_{n})"))
        .collect();
    games.extend((20..=max_wheel).map(|n| format!("DNT(W_{n})")));
    if !json {
        println!(
            "{:<12} {:>4} {:>12} {:>9} {:>14} {:>10}",
            "game", "nim", "positions", "seconds", "positions/s", "peak MiB"
        );
    }
    let mut total = 0.0;
    let mut fast_rows = Vec::new();
    for text in games {
        reset_peak();
        let g = match parse_game(&text, ParseOptions::default()) {
            Ok(g) => g,
            Err(e) => {
                eprintln!("{:?}", miette::Report::new(e));
                return ExitCode::from(2);
            }
        };
        let r = g.solve();
        total += r.seconds;
        if let Some(n) = text
            .strip_prefix("TER(C_")
            .and_then(|t| t.strip_suffix(')'))
            .and_then(|t| t.parse::<u32>().ok())
        {
            fast_rows.push((n, r.nim, r.seconds));
        }
        let rate = r.positions as f64 / r.seconds.max(1e-9);
        let peak = peak_mib().unwrap_or(f64::NAN);
        if json {
            println!(
                "{}",
                serde_json::json!({"game": r.game, "nim": r.nim, "positions": r.positions, "seconds": r.seconds, "positions_per_second": rate, "peak_mib": peak})
            );
        } else {
            println!(
                "{:<12} {:>4} {:>12} {:>9.3} {:>14.0} {:>10.1}",
                r.game, r.nim, r.positions, r.seconds, rate, peak
            );
        }
    }
    if !json {
        println!(
            "total {total:.2} s on {} threads",
            rayon::current_num_threads()
        );
    }
    fast_path(&fast_rows, json);
    spectrum_rows(json);
    ExitCode::SUCCESS
}

/// TER(C_n) by the packed outcome sweep of `solve::cycle` next to the generic solver's time.
fn fast_path(rows: &[(u32, u32, f64)], json: bool) {
    if !json && !rows.is_empty() {
        println!(
            "{:<12} {:>7} {:>14} {:>9} {:>12} {:>10}",
            "fast path", "outcome", "positions", "seconds", "fast/generic", "peak MiB"
        );
    }
    for &(n, nim, generic) in rows {
        reset_peak();
        let Ok(r) = crate::solve::cycle::solve(n) else {
            continue;
        };
        let peak = peak_mib().unwrap_or(f64::NAN);
        let ratio = r.seconds / generic.max(1e-9);
        let agree = (nim == 0) == (r.outcome == crate::solve::cycle::Outcome::P);
        if json {
            println!(
                "{}",
                serde_json::json!({"game": format!("TER(C_{n})"), "path": "cycle", "outcome": r.outcome, "generic_nim": nim, "agree": agree, "positions": r.positions, "seconds": r.seconds, "fast_over_generic": ratio, "peak_mib": peak})
            );
        } else {
            println!(
                "{:<12} {:>7} {:>14} {:>9.4} {:>12.5} {:>10.1}{}",
                format!("TER(C_{n})"),
                r.outcome.to_string(),
                r.positions,
                r.seconds,
                ratio,
                peak,
                if agree {
                    ""
                } else {
                    "  DISAGREES with generic"
                }
            );
        }
    }
}

/// `grundy spectrum` on all connected graphs with 7 and 8 vertices (skipped without geng).
fn spectrum_rows(json: bool) {
    for n in [7usize, 8] {
        let t0 = std::time::Instant::now();
        let Some(Ok(s)) = super::spectrum::geng_spectrum(n) else {
            eprintln!("spectrum n = {n} skipped: nauty-geng not available");
            return;
        };
        let secs = t0.elapsed().as_secs_f64();
        let rate = s.graphs() as f64 / secs.max(1e-9);
        if json {
            println!(
                "{}",
                serde_json::json!({"spectrum_vertices": n, "graphs": s.graphs(), "seconds": secs, "graphs_per_second": rate})
            );
        } else {
            println!(
                "spectrum n = {n}: {} graphs, {secs:.2} s, {rate:.0} graphs/s",
                s.graphs()
            );
        }
    }
}
