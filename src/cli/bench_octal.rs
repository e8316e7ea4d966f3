//! The octal section of `grundy bench`: grundy's octal engine next to Piotr Beling's `ogsolve`
//! (when it is on PATH) on the same games and lengths, in the same run, with the ratios.
//!
//! For each game and length `n`, grundy computes `G(0..=n)` (the proved period used) and
//! ogsolve is run with `-n n`: at the first length with each of its methods (naive, rc, rc2),
//! at longer ones with the method that was fastest before. The times compared are both
//! tools' own computation times (ogsolve's "calculation time"), so process start-up is left
//! out. ogsolve's Fletcher-32 checksum of the nimbers is compared with the same checksum of
//! grundy's sequence: `agree` means the two tools produced the same values, all of them.
//!
//! Environment: `GRUNDY_OCTAL_BENCH_LENS` (default `100000,1000000`),
//! `GRUNDY_OCTAL_BENCH_TIMEOUT` (seconds per ogsolve run, default 900).

use crate::game::octal::{Engine, OctalCode};
use crate::term::{errln, outln};
use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The games of the benchmark table: Dawson's Chess, two games with a sparse space, one
/// without (Treblecross), one with a split move that removes nothing.
pub const GAMES: [&str; 5] = ["0.137", "0.16", "0.106", "0.007", "4.7"];

const METHODS: [&str; 3] = ["naive", "rc", "rc2"];

/// Fletcher-32 over the values as 16-bit words, as ogsolve prints it.
fn checksum(values: &[u32]) -> u32 {
    let (mut a, mut b) = (0u16, 0u16);
    for &v in values {
        a = a.wrapping_add(v as u16);
        b = b.wrapping_add(a);
    }
    (b as u32) << 16 | a as u32
}

/// One ogsolve run: its calculation time and checksum, or why there is none.
#[derive(Clone, Debug)]
enum Og {
    Done { seconds: f64, checksum: u32 },
    TimedOut(f64),
    Failed(String),
}

/// Parses a Rust `Duration` printed with `{:.2?}` ("2.24s", "26.71ms", "5.96µs").
fn parse_duration(text: &str) -> Option<f64> {
    let t = text.trim();
    for (unit, scale) in [
        ("ms", 1e-3),
        ("µs", 1e-6),
        ("us", 1e-6),
        ("ns", 1e-9),
        ("s", 1.0),
    ] {
        if let Some(num) = t.strip_suffix(unit) {
            return num.trim().parse::<f64>().ok().map(|x| x * scale);
        }
    }
    None
}

fn run_ogsolve(game: &str, method: &str, n: usize, timeout: f64) -> Og {
    let child = Command::new("ogsolve")
        .args([game, "-m", method, "-n", &n.to_string()])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn();
    let mut child = match child {
        Ok(c) => c,
        Err(e) => return Og::Failed(e.to_string()),
    };
    let t0 = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if t0.elapsed().as_secs_f64() > timeout => {
                let _ = child.kill();
                let _ = child.wait();
                return Og::TimedOut(timeout);
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => return Og::Failed(e.to_string()),
        }
    }
    let mut out = String::new();
    if let Some(mut s) = child.stdout.take() {
        let _ = s.read_to_string(&mut out);
    }
    let seconds = out
        .lines()
        .find_map(|l| l.trim().strip_prefix("calculation time:"))
        .and_then(parse_duration);
    let checksum = out
        .lines()
        .find_map(|l| l.split("checksum:").nth(1))
        .and_then(|c| u32::from_str_radix(c.trim(), 16).ok());
    match (seconds, checksum) {
        (Some(seconds), Some(checksum)) => Og::Done { seconds, checksum },
        _ => Og::Failed("unexpected ogsolve output".into()),
    }
}

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Runs the section; prints a table (or JSON lines).
pub fn run(json: bool) {
    let lens: Vec<usize> = std::env::var("GRUNDY_OCTAL_BENCH_LENS")
        .unwrap_or_else(|_| "100000,1000000".into())
        .split(',')
        .filter_map(|s| s.trim().parse().ok())
        .filter(|&n| (1..=crate::game::octal::MAX_COMPUTED).contains(&n))
        .collect();
    let timeout: f64 = env_or("GRUNDY_OCTAL_BENCH_TIMEOUT", 900.0);
    let have_ogsolve = Command::new("ogsolve")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok();
    if !have_ogsolve {
        errln!("octal: ogsolve not on PATH (cargo install ogsolve): grundy times only");
    }
    if !json {
        outln!(
            "{:<6} {:>8} {:>10} {:>12} {:>10} {:>9}  {:<6} grundy method",
            "octal",
            "n",
            "grundy s",
            "ogsolve",
            "ogsolve s",
            "ratio",
            "agree"
        );
    }
    for game in GAMES {
        let code = OctalCode::parse(game).expect("benchmark codes parse");
        let mut best: Option<&str> = None;
        for &n in &lens {
            let t0 = Instant::now();
            let mut engine = Engine::new(&code, true);
            let g = engine.sequence(n + 1);
            let ours = t0.elapsed().as_secs_f64();
            let method =
                super::octal::method_summary(engine.stats(), engine.computed().len(), n + 1);
            let sum = checksum(&g);
            // ogsolve: every method at the first length, then the fastest one.
            let methods: Vec<&str> = match best {
                Some(m) => vec![m],
                None => METHODS.to_vec(),
            };
            let mut runs: Vec<(&str, Og)> = Vec::new();
            if have_ogsolve {
                for m in methods {
                    runs.push((m, run_ogsolve(game, m, n, timeout)));
                }
            }
            let fastest = runs
                .iter()
                .filter_map(|(m, r)| match r {
                    Og::Done { seconds, checksum } => Some((*m, *seconds, *checksum)),
                    _ => None,
                })
                .min_by(|a, b| a.1.total_cmp(&b.1));
            best = fastest.map(|f| f.0).or(best);
            let timed_out = runs.iter().find_map(|(_, r)| match r {
                Og::TimedOut(t) => Some(*t),
                _ => None,
            });
            let agree = runs.iter().all(|(_, r)| match r {
                Og::Done { checksum, .. } => *checksum == sum,
                _ => true,
            });
            let (og_method, og_secs, ratio) = match (fastest, timed_out) {
                (Some((m, s, _)), _) => (m.to_string(), Some(s), Some(s / ours.max(1e-6))),
                (None, Some(t)) => ("timeout".to_string(), None, Some(t / ours.max(1e-6))),
                (None, None) => ("-".to_string(), None, None),
            };
            if json {
                let og: Vec<serde_json::Value> = runs
                    .iter()
                    .map(|(m, r)| match r {
                        Og::Done { seconds, checksum } => serde_json::json!({"method": m, "seconds": seconds, "checksum": format!("{checksum:X}")}),
                        Og::TimedOut(t) => serde_json::json!({"method": m, "timed_out_after": t}),
                        Og::Failed(e) => serde_json::json!({"method": m, "error": e}),
                    })
                    .collect();
                outln!(
                    "{}",
                    serde_json::json!({"octal": game, "n": n, "grundy_seconds": ours, "grundy_method": method, "checksum": format!("{sum:X}"), "ogsolve": og, "ogsolve_best": og_method, "ratio": ratio, "agree": fastest.map(|_| agree)})
                );
            } else {
                let ratio_text = match (ratio, timed_out.is_some() && fastest.is_none()) {
                    (Some(r), false) => format!("{r:.1}x"),
                    (Some(r), true) => format!(">{r:.0}x"),
                    (None, _) => "-".into(),
                };
                outln!(
                    "{:<6} {:>8} {:>10.4} {:>12} {:>10} {:>9}  {:<6} {}",
                    game,
                    n,
                    ours,
                    og_method,
                    og_secs.map_or_else(
                        || timed_out.map_or("-".into(), |t| format!(">{t:.0}")),
                        |s| format!("{s:.4}")
                    ),
                    ratio_text,
                    if fastest.is_none() {
                        // No completed ogsolve run to compare with.
                        "-"
                    } else if agree {
                        "yes"
                    } else {
                        "NO"
                    },
                    method
                );
            }
        }
    }
    if !json {
        outln!("ratio = ogsolve's fastest method / grundy, same run (above 1: grundy faster)");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_and_checksums() {
        assert_eq!(parse_duration("2.24s"), Some(2.24));
        assert!((parse_duration("26.71ms").unwrap() - 0.02671).abs() < 1e-12);
        assert!((parse_duration("5.96µs").unwrap() - 5.96e-6).abs() < 1e-15);
        assert_eq!(parse_duration("soon"), None);
        // Fletcher-32 of 1, 2: a = 3, b = 1 + 3.
        assert_eq!(checksum(&[1, 2]), 4 << 16 | 3);
    }
}
