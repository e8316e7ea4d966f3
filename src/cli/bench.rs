//! `grundy bench`: positions per second and peak memory of the solver on TER(C_n) (odd n)
//! and DNT(W_n). Peak memory is the process's VmHWM, reset before each instance where the
//! kernel allows it (`/proc/self/clear_refs`).

use crate::expr::{parse_game, ParseOptions};
use std::process::ExitCode;

fn reset_peak() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

fn peak_mib() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

pub fn run(max_cycle: u64, max_wheel: u64, json: bool) -> ExitCode {
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
    for text in games {
        reset_peak();
        let g = parse_game(&text, ParseOptions::default()).expect("benchmark games parse");
        let r = g.solve();
        total += r.seconds;
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
    ExitCode::SUCCESS
}
