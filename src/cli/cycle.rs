//! `grundy cycle`: outcome of TER(C_n) for odd n by the packed sweep of
//! [`crate::solve::cycle`] (Conjecture 5.5), with per-n positions, seconds and peak memory, and
//! resumable checkpoints (`--checkpoint DIR`: the table after whole levels, written to a
//! temporary file and renamed, so a killed run never leaves a torn checkpoint).

use super::bench::{peak_mib, reset_peak};
use crate::solve::cycle::{CycleResult, CycleSweep};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

const MAGIC: &[u8; 8] = b"GRCYCv1\0";

fn ckpt_path(dir: &Path, n: u32) -> PathBuf {
    dir.join(format!("ter-cycle-{n}.ckpt"))
}

fn save(dir: &Path, s: &CycleSweep) -> std::io::Result<()> {
    let (table, levels, pos, pp) = s.state();
    let path = ckpt_path(dir, s.n());
    let tmp = path.with_extension("ckpt.tmp");
    {
        let mut f = std::io::BufWriter::with_capacity(1 << 22, std::fs::File::create(&tmp)?);
        f.write_all(MAGIC)?;
        for x in [s.n() as u64, levels as u64, pos, pp, table.len() as u64] {
            f.write_all(&x.to_le_bytes())?;
        }
        for chunk in table.chunks(1 << 16) {
            let bytes: Vec<u8> = chunk.iter().flat_map(|w| w.to_le_bytes()).collect();
            f.write_all(&bytes)?;
        }
        f.into_inner().map_err(|e| e.into_error())?.sync_all()?;
    }
    std::fs::rename(&tmp, &path)
}

fn load(dir: &Path, n: u32) -> Result<Option<CycleSweep>, String> {
    let path = ckpt_path(dir, n);
    let Ok(file) = std::fs::File::open(&path) else {
        return Ok(None);
    };
    let bad = |why: String| format!("checkpoint {}: {why}", path.display());
    let mut f = std::io::BufReader::with_capacity(1 << 22, file);
    let mut head = [0u8; 48];
    f.read_exact(&mut head).map_err(|e| bad(e.to_string()))?;
    if &head[..8] != MAGIC {
        return Err(bad("not a grundy cycle checkpoint".into()));
    }
    let field = |i: usize| u64::from_le_bytes(head[8 + 8 * i..16 + 8 * i].try_into().unwrap());
    if field(0) != n as u64 {
        return Err(bad(format!("it is for n = {}, not {n}", field(0))));
    }
    let words = field(4) as usize;
    if words != 1usize << n.saturating_sub(6) {
        return Err(bad(format!("it has {words} words, n = {n} needs {}", 1usize << n.saturating_sub(6))));
    }
    let mut table = vec![0u64; words];
    let mut buf = vec![0u8; 1 << 19];
    for chunk in table.chunks_mut(1 << 16) {
        let bytes = &mut buf[..chunk.len() * 8];
        f.read_exact(bytes).map_err(|e| bad(e.to_string()))?;
        for (w, b) in chunk.iter_mut().zip(bytes.chunks_exact(8)) {
            *w = u64::from_le_bytes(b.try_into().unwrap());
        }
    }
    CycleSweep::resume(n, table, field(1) as u32, field(2), field(3))
        .map(Some)
        .map_err(|e| bad(e.to_string()))
}

/// One n: resumes from `dir` when a checkpoint exists, checkpoints every `every` seconds.
pub fn run_one(
    n: u32,
    dir: Option<&Path>,
    every: f64,
) -> Result<(CycleResult, Option<f64>), String> {
    reset_peak();
    let mut sweep = match dir.map(|d| load(d, n)).transpose()?.flatten() {
        Some(s) => {
            eprintln!(
                "C_{n}: resuming at level {}/{}",
                s.levels_done(),
                s.levels()
            );
            s
        }
        None => CycleSweep::new(n).map_err(|e| e.to_string())?,
    };
    let mut last = Instant::now();
    while sweep.step() {
        if let Some(d) = dir {
            if !sweep.finished() && last.elapsed().as_secs_f64() >= every {
                save(d, &sweep).map_err(|e| format!("writing checkpoint in {}: {e}", d.display()))?;
                last = Instant::now();
            }
        }
    }
    if let Some(d) = dir {
        let _ = std::fs::remove_file(ckpt_path(d, n));
    }
    let r = sweep.result().expect("finished");
    Ok((r, peak_mib()))
}

pub fn run(ns: Vec<u32>, dir: Option<PathBuf>, every: f64, json: bool) -> ExitCode {
    if let Some(d) = &dir {
        if let Err(e) = std::fs::create_dir_all(d) {
            eprintln!("cannot create checkpoint directory {}: {e}", d.display());
            return ExitCode::from(2);
        }
    }
    if let Some(e) = ns.iter().find_map(|&n| CycleSweep::check_n(n).err()) {
        eprintln!("{e}");
        return ExitCode::from(2);
    }
    if !json {
        println!(
            "{:>4} {:>8} {:>14} {:>14} {:>14} {:>10} {:>10}",
            "n", "outcome", "positions", "P-positions", "table", "seconds", "peak MiB"
        );
    }
    for n in ns {
        let (r, peak) = match run_one(n, dir.as_deref(), every) {
            Ok(x) => x,
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::from(2);
            }
        };
        let peak = peak.unwrap_or(f64::NAN);
        if json {
            let mut v = serde_json::to_value(&r).expect("serialisable");
            v["game"] = serde_json::json!(format!("TER(C_{n})"));
            v["peak_mib"] = serde_json::json!(peak);
            v["threads"] = serde_json::json!(rayon::current_num_threads());
            println!("{v}");
        } else {
            println!(
                "{:>4} {:>8} {:>14} {:>14} {:>14} {:>10.2} {:>10.1}",
                r.n, r.outcome, r.positions, r.p_positions, r.table_entries, r.seconds, peak
            );
        }
    }
    ExitCode::SUCCESS
}
