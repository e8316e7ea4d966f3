//! `grundy cycle`: outcome of TER(C_n) for odd n by the packed sweep of
//! [`crate::solve::cycle`] (Conjecture 5.5), with per-n positions, seconds and peak memory, and
//! resumable checkpoints (`--checkpoint DIR`: the table after whole levels, written to a
//! temporary file and renamed, so a killed run never leaves a torn checkpoint). `--max-levels K`
//! pauses after K levels with exit code 3; rerunning the same command resumes. `--start` plays
//! TER_S(C_n); `--by-reply` decides ∅ from the replies {v1, vj} in a quarter of the memory.
//!
//! Checkpoint format (v3, little-endian): magic, seven header words (n, start, levels done,
//! positions, P-positions, seconds, table words), a 64-bit checksum ([`Checksum`]) over the
//! header words and the whole table, then the table. A checkpoint whose checksum does not match
//! is refused (exit 2): a corrupted table would silently give a wrong outcome.

use super::bench::{peak_mib, reset_peak};
use crate::solve::cycle::{reply_starts, CycleResult, CycleSweep, Outcome, Progress};
use crate::term::{errln, outln};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

const MAGIC: &[u8; 8] = b"GRCYCv3\0";
const OLD_MAGIC: &[u8; 8] = b"GRCYCv2\0";

/// A fast 64-bit checksum over words: per word a bijective multiply-rotate step, so that
/// changing any one word always changes the state (and later words cannot undo it except by
/// a 2^-64 chance), with a final avalanche.
struct Checksum(u64);

impl Checksum {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    fn new() -> Self {
        Checksum(0x243F_6A88_85A3_08D3)
    }
    fn word(&mut self, w: u64) {
        self.0 = (self.0 ^ w).wrapping_mul(Self::K).rotate_left(29) ^ (self.0 >> 17);
    }
    fn finish(&self) -> u64 {
        let mut h = self.0;
        h ^= h >> 33;
        h = h.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
        h ^= h >> 33;
        h = h.wrapping_mul(0xC4CE_B9FE_1A85_EC53);
        h ^ (h >> 33)
    }
}

fn ckpt_path(dir: &Path, n: u32, start: u64) -> PathBuf {
    if start == 0 {
        dir.join(format!("ter-cycle-{n}.ckpt"))
    } else {
        dir.join(format!("ter-cycle-{n}-start-{start:x}.ckpt"))
    }
}

/// Parses `v1,v4` (the paper's names; `1,4` also accepted) into a vertex mask of C_n.
pub fn parse_start(text: &str, n: u32) -> Result<u64, String> {
    let mut mask = 0u64;
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let num = part.strip_prefix('v').unwrap_or(part);
        match num.parse::<u32>() {
            Ok(i) if (1..=n).contains(&i) => mask |= 1 << (i - 1),
            _ => {
                return Err(format!(
                    "--start `{text}`: expected vertices v1..v{n} separated by commas, e.g. v1,v4"
                ))
            }
        }
    }
    Ok(mask)
}

fn save(dir: &Path, s: &CycleSweep) -> std::io::Result<()> {
    let (table, pr) = s.state();
    let path = ckpt_path(dir, s.n(), s.start());
    let tmp = path.with_extension("ckpt.tmp");
    {
        // A link planted under the temporary name is removed, never written through.
        match std::fs::remove_file(&tmp) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e),
            _ => {}
        }
        let file = crate::files::open_private(&tmp, true)?;
        let mut f = std::io::BufWriter::with_capacity(1 << 22, file);
        f.write_all(MAGIC)?;
        let head = [
            s.n() as u64,
            s.start(),
            pr.levels_done as u64,
            pr.positions,
            pr.p_positions,
            pr.seconds.to_bits(),
            table.len() as u64,
        ];
        let mut sum = Checksum::new();
        for &x in head.iter().chain(table) {
            sum.word(x);
        }
        for x in head.into_iter().chain([sum.finish()]) {
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

fn load(dir: &Path, n: u32, start: u64) -> Result<Option<CycleSweep>, String> {
    let path = ckpt_path(dir, n, start);
    let bad = |why: String| format!("checkpoint {}: {why}", path.display());
    let file = match crate::files::open_regular(&path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(bad(e.to_string())),
    };
    let mut f = std::io::BufReader::with_capacity(1 << 22, file);
    let mut head = [0u8; 72];
    f.read_exact(&mut head[..8])
        .map_err(|e| bad(e.to_string()))?;
    if &head[..8] == OLD_MAGIC {
        return Err(bad(
            "an older checkpoint format without a checksum; delete it to start afresh".into(),
        ));
    }
    if &head[..8] != MAGIC {
        return Err(bad("not a grundy cycle checkpoint".into()));
    }
    f.read_exact(&mut head[8..])
        .map_err(|e| bad(e.to_string()))?;
    let field = |i: usize| u64::from_le_bytes(head[8 + 8 * i..16 + 8 * i].try_into().unwrap());
    if field(0) != n as u64 || field(1) != start {
        return Err(bad(format!(
            "it is for n = {} from {:#x}, not n = {n} from {start:#x}",
            field(0),
            field(1)
        )));
    }
    let words = field(6) as usize;
    let free = n - start.count_ones();
    if words != 1usize << free.saturating_sub(6) {
        return Err(bad(format!(
            "it has {words} words, expected {}",
            1usize << free.saturating_sub(6)
        )));
    }
    let mut table = crate::solve::cycle::zeroed_table(n, words).map_err(|e| bad(e.to_string()))?;
    let mut sum = Checksum::new();
    for i in 0..7 {
        sum.word(field(i));
    }
    let mut buf = vec![0u8; 1 << 19];
    for chunk in table.chunks_mut(1 << 16) {
        let bytes = &mut buf[..chunk.len() * 8];
        f.read_exact(bytes).map_err(|e| bad(e.to_string()))?;
        for (w, b) in chunk.iter_mut().zip(bytes.chunks_exact(8)) {
            *w = u64::from_le_bytes(b.try_into().unwrap());
            sum.word(*w);
        }
    }
    if sum.finish() != field(7) {
        return Err(bad(
            "checksum mismatch: the file is corrupted (delete it to start afresh)".into(),
        ));
    }
    if f.read(&mut [0u8; 1]).map_err(|e| bad(e.to_string()))? != 0 {
        return Err(bad("trailing bytes after the table".into()));
    }
    let progress = Progress {
        levels_done: field(2) as u32,
        positions: field(3),
        p_positions: field(4),
        seconds: f64::from_bits(field(5)),
    };
    CycleSweep::resume(n, start, table, progress)
        .map(Some)
        .map_err(|e| bad(e.to_string()))
}

/// One n: resumes from `dir` when a checkpoint exists, checkpoints every `every` seconds, and
/// pauses (checkpointed, `Ok(None)`) after `max_levels` levels of this session.
pub fn run_one(
    n: u32,
    start: u64,
    dir: Option<&Path>,
    every: f64,
    max_levels: Option<u32>,
) -> Result<Option<(CycleResult, Option<f64>)>, String> {
    reset_peak();
    let mut sweep = match dir.map(|d| load(d, n, start)).transpose()?.flatten() {
        Some(s) => {
            errln!(
                "C_{n}: resuming at level {}/{}",
                s.levels_done(),
                s.levels()
            );
            s
        }
        None => CycleSweep::new_at(n, start).map_err(|e| e.to_string())?,
    };
    let mut last = Instant::now();
    let mut steps = 0;
    while sweep.step() {
        steps += 1;
        let pause = max_levels.is_some_and(|k| steps >= k) && !sweep.finished();
        if let Some(d) = dir {
            if !sweep.finished() && (pause || last.elapsed().as_secs_f64() >= every) {
                save(d, &sweep)
                    .map_err(|e| format!("writing checkpoint in {}: {e}", d.display()))?;
                last = Instant::now();
            }
        }
        if pause {
            errln!(
                "C_{n}: paused after level {}/{} (checkpointed)",
                sweep.levels_done(),
                sweep.levels()
            );
            return Ok(None);
        }
    }
    if let Some(d) = dir {
        let _ = std::fs::remove_file(ckpt_path(d, n, start));
    }
    let r = sweep.result().expect("finished");
    Ok(Some((r, peak_mib())))
}

/// Decides TER(C_n) from the replies {v1, vj} (see [`reply_starts`]): stops at the first
/// P-position reply. Positions and seconds are summed over the replies solved.
fn by_reply(n: u32, dir: Option<&Path>, every: f64, json: bool) -> Result<(), String> {
    let (mut positions, mut seconds, mut peak) = (0u64, 0.0f64, 0.0f64);
    let mut tried = Vec::new();
    let mut winner = None;
    // In C_3 = K_3 the first move already terminates, so ∅ is N without any reply.
    let first_terminates = crate::solve::cycle::has_run(n, 1);
    for s in reply_starts(n).into_iter().filter(|_| !first_terminates) {
        let (r, pk) = run_one(n, s, dir, every, None)?.expect("no pause without --max-levels");
        positions += r.positions;
        seconds += r.seconds;
        peak = peak.max(pk.unwrap_or(f64::NAN));
        tried.push(game_name(&r));
        if r.outcome == Outcome::P {
            winner = Some(r.start[1].clone());
            break;
        }
    }
    // A P-position reply makes {v1} an N-position, hence every first move loses: ∅ is P.
    let outcome = if winner.is_some() {
        Outcome::P
    } else {
        Outcome::N
    };
    if json {
        outln!(
            "{}",
            serde_json::json!({"game": format!("TER(C_{n})"), "n": n, "outcome": outcome,
                "method": "replies", "reply": winner, "solved": tried, "positions": positions,
                "seconds": seconds, "peak_mib": peak, "threads": rayon::current_num_threads()})
        );
    } else {
        outln!(
            "TER(C_{n}): outcome {outcome} ({}), {positions} positions, {seconds:.2} s, peak {peak:.1} MiB",
            match &winner {
                Some(v) => format!("second player answers v1 with {v}: TER_{{v1,{v}}}(C_{n}) is P"),
                None if first_terminates => "the first move terminates".to_string(),
                None => "every reply to v1 is an N-position".to_string(),
            }
        );
    }
    Ok(())
}

/// Where results go besides the terminal table.
pub struct CycleOutput {
    pub json: bool,
    /// A LaTeX table of the results (templates/cycle.tex), written atomically.
    pub latex: Option<PathBuf>,
}

#[derive(serde::Serialize)]
struct LatexRow {
    n: u32,
    game: String,
    outcome: String,
    positions: u64,
    table_entries: u64,
    seconds: String,
    peak_mib: String,
}

fn write_latex(path: &Path, rows: &[LatexRow]) -> Result<(), String> {
    let mut ctx = tera::Context::new();
    ctx.insert("rows", rows);
    ctx.insert("threads", &rayon::current_num_threads());
    let text = crate::render::render_one_off(include_str!("../../templates/cycle.tex"), &ctx)
        .map_err(|e| format!("rendering LaTeX: {e}"))?;
    crate::render::write_atomic(path, text.as_bytes()).map_err(|e| e.to_string())
}

pub fn run(
    ns: Vec<u32>,
    start: Option<String>,
    dir: Option<PathBuf>,
    every: f64,
    max_levels: Option<u32>,
    replies: bool,
    out: CycleOutput,
) -> ExitCode {
    let json = out.json;
    if replies {
        if start.is_some() || max_levels.is_some() {
            errln!("--by-reply chooses its own start sets and does not pause: drop --start and --max-levels");
            return ExitCode::from(2);
        }
        if let Some(e) = ns.iter().find_map(|&n| CycleSweep::check(n, 0b11).err()) {
            errln!("{e}");
            return ExitCode::from(2);
        }
        for n in ns {
            if let Err(e) = by_reply(n, dir.as_deref(), every, json) {
                errln!("{e}");
                return ExitCode::from(2);
            }
        }
        return ExitCode::SUCCESS;
    }
    if max_levels.is_some() && dir.is_none() {
        errln!("--max-levels needs --checkpoint DIR to save the paused state");
        return ExitCode::from(2);
    }
    if let Some(d) = &dir {
        if let Err(e) = std::fs::create_dir_all(d) {
            errln!("cannot create checkpoint directory {}: {e}", d.display());
            return ExitCode::from(2);
        }
    }
    let mut starts = Vec::new();
    for &n in &ns {
        let s = match start.as_deref().map(|t| parse_start(t, n)).transpose() {
            Ok(s) => s.unwrap_or(0),
            Err(e) => {
                errln!("{e}");
                return ExitCode::from(2);
            }
        };
        if let Err(e) = CycleSweep::check(n, s) {
            errln!("{e}");
            return ExitCode::from(2);
        }
        starts.push(s);
    }
    if !json {
        outln!(
            "{:>4} {:>8} {:>14} {:>14} {:>14} {:>10} {:>10}",
            "n",
            "outcome",
            "positions",
            "P-positions",
            "table",
            "seconds",
            "peak MiB"
        );
    }
    let mut rows = Vec::new();
    for (n, s) in ns.into_iter().zip(starts) {
        let (r, peak) = match run_one(n, s, dir.as_deref(), every, max_levels) {
            Ok(Some(x)) => x,
            Ok(None) => return ExitCode::from(3),
            Err(e) => {
                errln!("{e}");
                return ExitCode::from(2);
            }
        };
        let peak = peak.unwrap_or(f64::NAN);
        rows.push(LatexRow {
            n: r.n,
            game: game_name(&r),
            outcome: r.outcome.to_string(),
            positions: r.positions,
            table_entries: r.table_entries,
            seconds: format!("{:.2}", r.seconds),
            peak_mib: format!("{peak:.0}"),
        });
        if json {
            let mut v = serde_json::to_value(&r).expect("serialisable");
            v["game"] = serde_json::json!(game_name(&r));
            v["peak_mib"] = serde_json::json!(peak);
            v["threads"] = serde_json::json!(rayon::current_num_threads());
            outln!("{v}");
        } else {
            outln!(
                "{:>4} {:>8} {:>14} {:>14} {:>14} {:>10.2} {:>10.1}  {}",
                r.n,
                r.outcome,
                r.positions,
                r.p_positions,
                r.table_entries,
                r.seconds,
                peak,
                game_name(&r)
            );
        }
    }
    if let Some(path) = &out.latex {
        if let Err(e) = write_latex(path, &rows) {
            errln!("{e}");
            return ExitCode::from(2);
        }
    }
    ExitCode::SUCCESS
}

/// `TER(C_9)`, or `TER_{v1,v4}(C_9)` for a started game (paper notation before Prop 5.19).
fn game_name(r: &CycleResult) -> String {
    if r.start.is_empty() {
        format!("TER(C_{})", r.n)
    } else {
        format!("TER_{{{}}}(C_{})", r.start.join(","), r.n)
    }
}
