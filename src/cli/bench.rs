//! `grundy bench`: positions per second and peak memory of the exhaustive (level) solver on
//! TER(C_n) (odd n) and DNT(W_n); the speedup of all threads over one thread, measured in the
//! same run; with `--scale`, the large instances (W_n up to 40, Q_5). Peak memory is the
//! process's VmHWM, reset before each instance where the kernel allows it
//! (`/proc/self/clear_refs`).

use crate::expr::{parse_game, ParseOptions};
use crate::game::AnyGame;
use crate::solve::guard::Monitor;
use crate::solve::levels;
use crate::solve::progress::Progress;
use crate::term::{errln, outln};
use std::process::ExitCode;
use std::time::Instant;

/// CPU seconds (user + system) this process has used so far: on a loaded machine, the work
/// of a solve independently of what else runs.
pub(crate) fn cpu_seconds() -> f64 {
    // SAFETY: getrusage fills the struct it is given.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut u) } != 0 {
        return f64::NAN;
    }
    let tv = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    tv(u.ru_utime) + tv(u.ru_stime)
}

/// The exhaustive level solver on a removing game, unbudgeted: (nim, positions, seconds).
fn exhaustive(text: &str) -> (String, u32, u64, f64) {
    let g = parse_game(text, ParseOptions::default()).expect("benchmark games parse");
    let t0 = Instant::now();
    match &g {
        AnyGame::Removing(r) => {
            let res = levels::solve(r, &Monitor::unlimited(g.to_string()), &Progress::hidden())
                .expect("an unlimited monitor never refuses");
            (
                g.to_string(),
                res.nim,
                res.positions,
                t0.elapsed().as_secs_f64(),
            )
        }
        _ => {
            let r = g.solve();
            (r.game, r.nim, r.positions, t0.elapsed().as_secs_f64())
        }
    }
}

/// Seconds of one exhaustive solve of `text` on a pool of `threads` threads.
fn timed_on(threads: usize, text: &str) -> (u32, f64) {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool");
    pool.install(|| {
        let (_, nim, _, secs) = exhaustive(text);
        (nim, secs)
    })
}

/// The speedup of all threads over one, each game solved on both in this run.
pub fn speedup(json: bool) {
    let all = rayon::current_num_threads();
    if !json {
        outln!(
            "{:<14} {:>4} {:>10} {:>12} {:>8}",
            "speedup",
            "nim",
            "1 thread s",
            format!("{all} threads s"),
            "ratio"
        );
    }
    for text in ["TER(C_27)", "DNT(W_34)", "TER(W_{4,12})"] {
        let (nim1, one) = timed_on(1, text);
        let (nim_all, many) = timed_on(all, text);
        let ratio = one / many.max(1e-9);
        if json {
            outln!(
                "{}",
                serde_json::json!({"speedup_game": text, "nim": nim1, "same_value": nim1 == nim_all, "one_thread_seconds": one, "threads": all, "all_threads_seconds": many, "ratio": ratio})
            );
        } else {
            outln!(
                "{:<14} {:>4} {:>10.3} {:>12.3} {:>7.2}x{}",
                text,
                nim1,
                one,
                many,
                ratio,
                if nim1 == nim_all {
                    ""
                } else {
                    "  VALUES DIFFER"
                }
            );
        }
    }
}

/// TER(W_n), DNT(W_n) for n = 36..=40 and TER(Q_5), DNT(Q_5), each with wall time, CPU time
/// and peak memory.
pub fn scale(json: bool) {
    let mut games: Vec<String> = Vec::new();
    for n in 36..=40 {
        games.push(format!("TER(W_{n})"));
        games.push(format!("DNT(W_{n})"));
    }
    games.push("TER(Q_5)".into());
    games.push("DNT(Q_5)".into());
    if !json {
        outln!(
            "{:<12} {:>4} {:>12} {:>9} {:>9} {:>10}",
            "scale",
            "nim",
            "positions",
            "seconds",
            "cpu s",
            "peak MiB"
        );
    }
    for text in games {
        reset_peak();
        let c0 = cpu_seconds();
        let (game, nim, positions, secs) = exhaustive(&text);
        let cpu = cpu_seconds() - c0;
        let peak = peak_mib().unwrap_or(f64::NAN);
        if json {
            outln!(
                "{}",
                serde_json::json!({"scale_game": game, "nim": nim, "positions": positions, "seconds": secs, "cpu_seconds": cpu, "peak_mib": peak})
            );
        } else {
            outln!("{game:<12} {nim:>4} {positions:>12} {secs:>9.3} {cpu:>9.3} {peak:>10.1}");
        }
    }
}

pub(crate) fn reset_peak() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

pub(crate) fn peak_mib() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

pub fn run(max_cycle: u64, max_wheel: u64, json: bool, scale_too: bool) -> ExitCode {
    // Checked before anything runs: the ranges below are generated eagerly.
    let limit = crate::graph::MAX_VERTICES as u64;
    if max_cycle > limit || max_wheel > limit {
        errln!("error: --max-cycle and --max-wheel take at most {limit} (the largest graph the solver takes)");
        return ExitCode::from(2);
    }
    let mut games: Vec<String> = (21..=max_cycle)
        .step_by(2)
        .map(|n| format!("TER(C_{n})"))
        .collect();
    games.extend((20..=max_wheel).map(|n| format!("DNT(W_{n})")));
    if !json {
        outln!(
            "{:<12} {:>4} {:>12} {:>9} {:>14} {:>10}",
            "game",
            "nim",
            "positions",
            "seconds",
            "positions/s",
            "peak MiB"
        );
    }
    let mut total = 0.0;
    let mut fast_rows = Vec::new();
    for text in games {
        reset_peak();
        let (game, nim, positions, seconds) = exhaustive(&text);
        let r = crate::solve::any_game::Solved {
            game,
            nim,
            positions,
            seconds,
        };
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
            outln!(
                "{}",
                serde_json::json!({"game": r.game, "nim": r.nim, "positions": r.positions, "seconds": r.seconds, "positions_per_second": rate, "peak_mib": peak})
            );
        } else {
            outln!(
                "{:<12} {:>4} {:>12} {:>9.3} {:>14.0} {:>10.1}",
                r.game,
                r.nim,
                r.positions,
                r.seconds,
                rate,
                peak
            );
        }
    }
    if !json {
        outln!(
            "total {total:.2} s on {} threads",
            rayon::current_num_threads()
        );
    }
    super::bench_user::run(json);
    speedup(json);
    fast_path(&fast_rows, json);
    if scale_too {
        scale(json);
    }
    spectrum_rows(json);
    super::bench_octal::run(json);
    super::bench_groups::run(json);
    ExitCode::SUCCESS
}

/// TER(C_n) by the packed outcome sweep of `solve::cycle` next to the generic solver's time.
fn fast_path(rows: &[(u32, u32, f64)], json: bool) {
    if !json && !rows.is_empty() {
        outln!(
            "{:<12} {:>7} {:>14} {:>9} {:>12} {:>10}",
            "fast path",
            "outcome",
            "positions",
            "seconds",
            "fast/generic",
            "peak MiB"
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
            outln!(
                "{}",
                serde_json::json!({"game": format!("TER(C_{n})"), "path": "cycle", "outcome": r.outcome, "generic_nim": nim, "agree": agree, "positions": r.positions, "seconds": r.seconds, "fast_over_generic": ratio, "peak_mib": peak})
            );
        } else {
            outln!(
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
            errln!("spectrum n = {n} skipped: nauty-geng not available");
            return;
        };
        let secs = t0.elapsed().as_secs_f64();
        let rate = s.graphs() as f64 / secs.max(1e-9);
        if json {
            outln!(
                "{}",
                serde_json::json!({"spectrum_vertices": n, "graphs": s.graphs(), "seconds": secs, "graphs_per_second": rate})
            );
        } else {
            outln!(
                "spectrum n = {n}: {} graphs, {secs:.2} s, {rate:.0} graphs/s",
                s.graphs()
            );
        }
    }
}
