//! `grundy spectrum`: nim(TER(G)) and nim(DNT(G)) for every connected graph on N vertices
//! (from nauty's geng) or every graph of a graph6 file, in parallel, printed as a distribution
//! (table, `--json`, LaTeX via `templates/spectrum.tex`). `--shard i/k` passes geng's res/mod;
//! `grundy spectrum merge FILES...` combines shard JSON results exactly.

use crate::graph::io::from_graph6;
use crate::solve::spectrum::{
    check_total, dense_values, dense_values_both, graph6_dense, level_values_under, merge_reports,
    values, values_both, DenseClosure, JointRow, Shard, ShardCheck, Spectrum, SpectrumReport,
    DENSE_MAX,
};
use crate::term::{errln, outln};
use clap::{Args, Subcommand};
use rayon::prelude::*;
use serde::Serialize;
use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::process::{ExitCode, Stdio};
use std::time::Instant;

#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct SpectrumArgs {
    #[command(subcommand)]
    pub action: Option<SpectrumAction>,
    /// Every connected graph on this many vertices (runs `nauty-geng -c`).
    #[arg(long)]
    pub vertices: Option<usize>,
    /// Read graph6 lines from this file instead of geng.
    #[arg(long, value_name = "FILE", conflicts_with = "vertices")]
    pub input: Option<PathBuf>,
    /// Only part i of k (geng's res/mod; for a file, lines with index ≡ i mod k).
    #[arg(long, value_name = "I/K")]
    pub shard: Option<String>,
    /// Also solve every graph by the level solver (symmetry-reduced retrograde analysis) and
    /// exit 1 at the first graph where it disagrees with the dense path (for samples: slow).
    #[arg(long)]
    pub cross_check: bool,
    /// The closure: `hull` (the paper's games) or `geodetic` (§6 question 2: S generates iff
    /// I[S] = V); under `geodetic` the result also counts the graphs whose values differ from
    /// the hull's, with the smallest of each kind.
    #[arg(long, value_parser = parse_closure, default_value = "hull")]
    pub closure: DenseClosure,
    #[command(flatten)]
    pub out: OutputArgs,
}

fn parse_closure(s: &str) -> Result<DenseClosure, String> {
    match s {
        "hull" => Ok(DenseClosure::Hull),
        "geodetic" => Ok(DenseClosure::Geodetic),
        _ => Err(format!(
            "`{s}`: expected hull or geodetic (the closures of the dense spectrum path)"
        )),
    }
}

/// How each graph is solved.
#[derive(Clone, Copy)]
struct Mode {
    closure: DenseClosure,
    cross_check: bool,
}

#[derive(Args, Debug, Clone)]
pub struct OutputArgs {
    /// Print the result as one JSON object (the input of `merge`).
    #[arg(long)]
    pub json: bool,
    /// Also write a LaTeX table to this file.
    #[arg(long, value_name = "FILE")]
    pub latex: Option<PathBuf>,
}

#[derive(Subcommand, Debug)]
pub enum SpectrumAction {
    /// Combine shard results (`--json` outputs of `grundy spectrum --shard i/k`).
    Merge {
        /// Shard results (`grundy spectrum --shard i/k --json` outputs).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Merge even when shards are missing (the result says `"complete": false`).
        #[arg(long)]
        partial: bool,
        /// Shards of geng results to compute again and compare with what they record (graph
        /// count, digest of the values, and the distribution of a file holding one shard),
        /// chosen by their digests; 0 for none.
        #[arg(long, value_name = "K", default_value_t = 1)]
        recheck: usize,
        /// Merge results recorded before shards carried checks (the merged result lists them
        /// as `unchecked`); without it such a shard is refused.
        #[arg(long)]
        unchecked: bool,
        #[command(flatten)]
        out: OutputArgs,
    },
}

fn fail(msg: impl std::fmt::Display) -> ExitCode {
    errln!("error: {msg}");
    ExitCode::from(2)
}

pub fn run(args: SpectrumArgs) -> ExitCode {
    if let Some(SpectrumAction::Merge {
        files,
        partial,
        recheck,
        unchecked,
        out,
    }) = args.action
    {
        return merge(&files, partial, recheck, unchecked, &out);
    }
    let shard = match args.shard.as_deref().map(Shard::parse).transpose() {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    let t0 = Instant::now();
    let mode = Mode {
        closure: args.closure,
        cross_check: args.cross_check,
    };
    let result = match (&args.input, args.vertices) {
        (Some(path), _) => from_file(path, shard, mode),
        (None, Some(n)) => from_geng(n, shard, mode),
        (None, None) => Err("grundy spectrum: give --vertices N or --input FILE".to_string()),
    };
    let (source, spectrum) = match result {
        Ok(x) => x,
        Err(e) if e.starts_with(DISAGREE) => {
            errln!("{e}");
            return ExitCode::from(1);
        }
        Err(e) => return fail(e),
    };
    let one = shard.unwrap_or(Shard { index: 0, count: 1 });
    let mut report = spectrum.report(&source, &[one], t0.elapsed().as_secs_f64());
    report.checks.insert(
        one.to_string(),
        ShardCheck {
            command: shard_command(&source, shard),
            graphs: spectrum.graphs(),
            digest: spectrum.digest(),
        },
    );
    output(&report, &args.out)
}

/// The command that lists a shard's graphs: geng's with its `res/mod`, or the file with the
/// shard taken as every k-th line from the i-th.
fn shard_command(source: &str, shard: Option<Shard>) -> String {
    match (source.strip_prefix("nauty-geng -c "), shard) {
        (Some(n), Some(s)) => format!("nauty-geng -c -q {n} {s}"),
        (Some(n), None) => format!("nauty-geng -c -q {n}"),
        (None, Some(s)) => format!("{source} lines {s}"),
        (None, None) => source.to_string(),
    }
}

/// Recomputes up to `k` shards of geng results (the first by digest, so the choice is fixed by
/// the results and not by the caller) and compares each with what was recorded: the graph
/// count and digest always, and the whole distribution when its file holds that shard alone.
/// Returns the shards rechecked, or why a shard is not as recorded.
fn recheck(reports: &[SpectrumReport], k: usize) -> Result<Vec<String>, String> {
    let mut candidates: Vec<(&String, &ShardCheck, &SpectrumReport)> = reports
        .iter()
        .flat_map(|r| r.checks.iter().map(move |(s, c)| (s, c, r)))
        .collect();
    candidates.sort_by(|a, b| (&a.1.digest, a.0).cmp(&(&b.1.digest, b.0)));
    let mut done = Vec::new();
    for (s, c, r) in candidates.into_iter().take(k) {
        let Some(n) = r
            .source
            .strip_prefix("nauty-geng -c ")
            .and_then(|n| n.parse::<usize>().ok())
        else {
            continue;
        };
        let shard = Shard::parse(s).map_err(|e| e.to_string())?;
        let mode = Mode {
            closure: r.closure,
            cross_check: false,
        };
        let whole = (shard.count > 1).then_some(shard);
        let (_, sp) =
            from_geng(n, whole, mode).map_err(|e| format!("rechecking shard {s}: {e}"))?;
        let again = sp.report(&r.source, &[shard], 0.0);
        let alone = r.shards.len() == 1;
        let same = sp.graphs() == c.graphs
            && sp.digest() == c.digest
            && (!alone
                || (again.ter == r.ter
                    && again.dnt == r.dnt
                    && again.joint == r.joint
                    && again.graphs == r.graphs
                    && again.vertices == r.vertices
                    && again.ter_vs_hull == r.ter_vs_hull
                    && again.dnt_vs_hull == r.dnt_vs_hull));
        if !same {
            let what = if sp.graphs() != c.graphs || sp.digest() != c.digest {
                format!(
                    "{} graphs with digest {} (recorded: {} graphs, digest {})",
                    sp.graphs(),
                    sp.digest(),
                    c.graphs,
                    c.digest
                )
            } else {
                "the recorded graphs and digest, but another distribution than its file's".into()
            };
            return Err(format!(
                "shard {s} of `{}` is not as recorded: computed again it has {what}; refusing to \
                 merge it",
                r.source
            ));
        }
        done.push(s.clone());
    }
    Ok(done)
}

fn merge(
    files: &[PathBuf],
    partial: bool,
    recheck_shards: usize,
    unchecked: bool,
    out: &OutputArgs,
) -> ExitCode {
    if files.is_empty() {
        return fail("spectrum merge: give at least one result file");
    }
    let mut reports = Vec::new();
    for f in files {
        let text = match read_bounded(f, MAX_REPORT_BYTES) {
            Ok(t) => t,
            Err(e) => return fail(format!("reading {}: {e}", f.display())),
        };
        match serde_json::from_str::<SpectrumReport>(&text) {
            Ok(r) => {
                if let Err(e) = validate_report(&r) {
                    return fail(format!("{}: {e}", f.display()));
                }
                reports.push(r)
            }
            Err(e) => {
                return fail(format!(
                    "{}: not a `grundy spectrum --json` result: {e}",
                    f.display()
                ))
            }
        }
    }
    // The merged counts are sums over the files: refuse before they could wrap.
    if reports
        .iter()
        .try_fold(0u64, |acc, r| acc.checked_add(r.graphs))
        .is_none()
    {
        return fail("the graph counts of these files add up to more than 2^64 - 1");
    }
    match merge_reports(&reports, partial, unchecked) {
        Ok(mut r) => {
            let geng = reports
                .iter()
                .any(|r| r.source.starts_with("nauty-geng -c "));
            if recheck_shards > 0 && geng {
                match recheck(&reports, recheck_shards) {
                    Ok(done) => r.rechecked = done,
                    Err(e) => return fail(e),
                }
                errln!(
                    "recomputed shard{} {}: as recorded",
                    if r.rechecked.len() == 1 { "" } else { "s" },
                    r.rechecked.join(", ")
                );
            } else {
                errln!("no shard recomputed (--recheck 0, or the graphs are not geng's)");
            }
            errln!(
                "merged {} shard{} covering {} graphs{}",
                r.shards.len(),
                if r.shards.len() == 1 { "" } else { "s" },
                r.graphs,
                if r.complete {
                    " (complete)"
                } else {
                    " (incomplete)"
                }
            );
            output(&r, out)
        }
        Err(e) => fail(e),
    }
}

/// Largest result file `merge` reads.
const MAX_REPORT_BYTES: u64 = 64 << 20;

/// Longest graph6 line `--input` reads (a graph on 62 vertices takes 317 bytes).
const MAX_LINE_BYTES: u64 = 4096;

/// Most vertices of a graph read by `--input`: each is solved exhaustively, TER and DNT.
pub const MAX_INPUT_VERTICES: usize = 20;

/// A whole file, refused beyond `max` bytes (so `/dev/zero` cannot fill memory).
fn read_bounded(path: &Path, max: u64) -> Result<String, String> {
    use std::io::Read;
    let mut bytes = Vec::new();
    crate::files::open_regular(path)
        .and_then(|f| f.take(max + 1).read_to_end(&mut bytes))
        .map_err(|e| format!("reading {}: {e}", path.display()))?;
    if bytes.len() as u64 > max {
        return Err(format!("{}: larger than {} MiB", path.display(), max >> 20));
    }
    String::from_utf8(bytes).map_err(|_| format!("{}: not UTF-8 text", path.display()))
}

/// Checks one `--json` result before merging: every count consistent with the graph total
/// (so no sum can wrap), every value listed once, shards named, every example a valid graph6
/// string of a listed size (examples reach a LaTeX `\verb`).
fn validate_report(r: &SpectrumReport) -> Result<(), String> {
    if r.shards.is_empty() {
        return Err("the result names no shards (an unsharded run is `0/1`)".into());
    }
    if !r.seconds.is_finite() || r.seconds < 0.0 {
        return Err(format!("bad seconds {}", r.seconds));
    }
    for (name, rows) in [("ter", &r.ter), ("dnt", &r.dnt)] {
        let mut total = 0u64;
        let mut seen = std::collections::BTreeSet::new();
        for row in rows.iter() {
            if !seen.insert(row.value) {
                return Err(format!("{name}: nim-value {} is listed twice", row.value));
            }
            if row.count == 0 {
                return Err(format!("{name}: nim-value {} has count 0", row.value));
            }
            total = total
                .checked_add(row.count)
                .ok_or_else(|| format!("{name}: the counts add up to more than 2^64 - 1"))?;
            let g = from_graph6(&row.smallest.graph6)
                .map_err(|e| format!("{name}: nim-value {}: bad example: {e}", row.value))?;
            let edges = (0..g.n()).map(|v| g.degree(v)).sum::<u32>() / 2;
            if edges != row.smallest.edges || !r.vertices.contains(&g.n()) {
                return Err(format!(
                    "{name}: nim-value {}: the example has {} vertices and {edges} edges, not as recorded",
                    row.value,
                    g.n()
                ));
            }
        }
        if total != r.graphs {
            return Err(format!(
                "{name}: the counts add up to {total}, but the result has {} graphs",
                r.graphs
            ));
        }
    }
    let mut joint = 0u64;
    let mut seen = std::collections::BTreeSet::new();
    for j in &r.joint {
        if !seen.insert((j.ter, j.dnt)) {
            return Err(format!("joint: ({}, {}) is listed twice", j.ter, j.dnt));
        }
        joint = joint
            .checked_add(j.count)
            .ok_or("joint: the counts add up to more than 2^64 - 1")?;
    }
    if joint != r.graphs {
        return Err(format!(
            "joint: the counts add up to {joint}, but the result has {} graphs",
            r.graphs
        ));
    }
    // The joint table's margins are the TER and DNT rows.
    for (name, rows, pick) in [
        (
            "ter",
            &r.ter,
            (|j: &JointRow| j.ter) as fn(&JointRow) -> u32,
        ),
        ("dnt", &r.dnt, |j: &JointRow| j.dnt),
    ] {
        for row in rows.iter() {
            let margin: u64 = r
                .joint
                .iter()
                .filter(|j| pick(j) == row.value)
                .map(|j| j.count)
                .sum();
            if margin != row.count {
                return Err(format!(
                    "joint: {margin} graphs have nim {name} = {} in the joint table, but the {name} row says {}",
                    row.value, row.count
                ));
            }
        }
    }
    if r.complete {
        check_total(r).map_err(|e| e.to_string())?;
    }
    if let Some(v) = r.vertices.iter().find(|&&v| v == 0 || v > 62) {
        return Err(format!("bad vertex count {v}"));
    }
    Ok(())
}

/// A block of graph6 lines read by the reader thread: the bytes, and per kept line its
/// number (from 1) and its range in the bytes.
struct Block {
    bytes: Vec<u8>,
    lines: Vec<(usize, std::ops::Range<usize>)>,
}

/// Solves the lines of one block in parallel. Well-formed connected graphs up to
/// [`DENSE_MAX`] vertices are parsed straight into bitmasks; anything else goes through the
/// general graph6 reader, which names what is wrong.
fn solve_block(block: &Block, mode: Mode) -> Result<Spectrum, String> {
    let empty = || Spectrum::under(mode.closure);
    block
        .lines
        .par_chunks(512)
        .try_fold(empty, |mut acc, lines| {
            for (no, range) in lines {
                let text = &block.bytes[range.clone()];
                // The reader checked the bytes are UTF-8.
                let line =
                    std::str::from_utf8(text).map_err(|_| format!("line {no}: not graph6 text"))?;
                let parse = || from_graph6(line).map_err(|e| format!("line {no}: {e}"));
                let geodetic = mode.closure == DenseClosure::Geodetic;
                // Under the geodetic closure, the hull's values as well (what differs).
                let (n, edges, both) = match graph6_dense(text) {
                    Some((n, adj)) => {
                        let adj = &adj[..n];
                        let edges = adj.iter().map(|a| a.count_ones()).sum::<u32>() / 2;
                        let both = if geodetic {
                            dense_values_both(adj)
                        } else {
                            let v = dense_values(adj);
                            [v, v]
                        };
                        (n, edges, both)
                    }
                    None => {
                        let g = parse()?;
                        // TER and DNT positions are vertex sets (u64 masks).
                        g.require_mask().map_err(|e| format!("line {no}: {e}"))?;
                        let edges = (0..g.n()).map(|v| g.degree(v)).sum::<u32>() / 2;
                        let both = if geodetic {
                            values_both(&g)
                        } else {
                            let v = values(&g);
                            [v, v]
                        };
                        (g.n(), edges, both)
                    }
                };
                let (ter, dnt) = both[geodetic as usize];
                if mode.cross_check {
                    let g = parse()?;
                    let (lt, ld) = level_values_under(&g, mode.closure)
                        .map_err(|e| format!("line {no}: {e}"))?;
                    if (lt, ld) != (ter, dnt) {
                        return Err(format!(
                            "{DISAGREE}line {no}: {line}: the dense path gives nim(TER) = {ter}, \
                             nim(DNT) = {dnt}; the level solver gives {lt}, {ld}"
                        ));
                    }
                }
                if geodetic {
                    acc.add_both(n, line, edges, both);
                } else {
                    acc.add(n, line, edges, ter, dnt);
                }
            }
            Ok(acc)
        })
        .try_reduce(empty, |mut a, b| {
            a.merge(b);
            Ok(a)
        })
}

/// Marks an error that is a disagreement of two methods (exit 1), not bad input (exit 2).
const DISAGREE: &str = "cross-check failed: ";

/// Streams graph6 lines through the solver in blocks, so memory stays flat: one thread reads
/// and splits lines (checking lengths, vertex counts and `keep`) while the pool solves the
/// block before, so reading never waits for solving.
fn solve_stream(
    reader: impl BufRead + Send,
    keep: impl Fn(usize) -> bool + Send,
    max_n: usize,
    mode: Mode,
) -> Result<Spectrum, String> {
    const BLOCK_LINES: usize = 1 << 16;
    let (tx, rx) = std::sync::mpsc::sync_channel::<Result<Block, String>>(2);
    std::thread::scope(|scope| {
        scope.spawn(move || {
            let mut reader = reader;
            let mut block = Block {
                bytes: Vec::with_capacity(BLOCK_LINES * 16),
                lines: Vec::with_capacity(BLOCK_LINES),
            };
            let mut line_start;
            for i in 0.. {
                use std::io::Read;
                line_start = block.bytes.len();
                let got = match (&mut reader)
                    .take(MAX_LINE_BYTES + 1)
                    .read_until(b'\n', &mut block.bytes)
                {
                    Ok(g) => g,
                    Err(e) => {
                        let _ = tx.send(Err(format!("reading graphs: {e}")));
                        return;
                    }
                };
                if got == 0 {
                    break;
                }
                let raw = &block.bytes[line_start..];
                if raw.len() as u64 > MAX_LINE_BYTES && raw.last() != Some(&b'\n') {
                    let _ = tx.send(Err(format!(
                        "line {}: longer than {MAX_LINE_BYTES} bytes; not a graph6 line of a small graph",
                        i + 1
                    )));
                    return;
                }
                let Ok(text) = std::str::from_utf8(raw) else {
                    let _ = tx.send(Err(format!("line {}: not graph6 text", i + 1)));
                    return;
                };
                let trimmed = text.trim();
                if trimmed.is_empty() || !keep(i) {
                    block.bytes.truncate(line_start);
                    continue;
                }
                let n = trimmed
                    .as_bytes()
                    .first()
                    .map_or(0, |&b| b as usize)
                    .saturating_sub(63);
                if n > max_n {
                    let _ = tx.send(Err(format!(
                        "line {}: graph with {n} vertices; spectrum takes at most {max_n}",
                        i + 1
                    )));
                    return;
                }
                let lead = text.len() - text.trim_start().len();
                let from = line_start + lead;
                block.lines.push((i + 1, from..from + trimmed.len()));
                if block.lines.len() == BLOCK_LINES {
                    let full = std::mem::replace(
                        &mut block,
                        Block {
                            bytes: Vec::with_capacity(BLOCK_LINES * 16),
                            lines: Vec::with_capacity(BLOCK_LINES),
                        },
                    );
                    if tx.send(Ok(full)).is_err() {
                        return;
                    }
                }
            }
            let _ = tx.send(Ok(block));
        });
        let mut total = Spectrum::under(mode.closure);
        // Stop at the first error, dropping the receiver so the reader stops too.
        for block in rx {
            total.merge(solve_block(&block?, mode)?);
        }
        Ok(total)
    })
}

fn from_file(path: &Path, shard: Option<Shard>, mode: Mode) -> Result<(String, Spectrum), String> {
    let f =
        crate::files::open_regular(path).map_err(|e| format!("reading {}: {e}", path.display()))?;
    let s = shard.unwrap_or(Shard { index: 0, count: 1 });
    let keep = move |i: usize| i as u64 % s.count == s.index;
    let sp = solve_stream(std::io::BufReader::new(f), keep, MAX_INPUT_VERTICES, mode)?;
    Ok((format!("file:{}", path.display()), sp))
}

/// A001349 past [`crate::solve::spectrum::CONNECTED_GRAPHS`] (n = 15, 16), as floats.
const CONNECTED_GRAPHS_15_16: [f64; 2] = [31397381142761241960.0, 63969560113225176176277.0];

/// Longest run `--vertices` accepts per shard, in estimated seconds (a day).
const MAX_RUN_SECONDS: f64 = 86_400.0;

/// Refuses a run that cannot finish (issue 28: `--vertices 16` is 6.4e22 graphs): the graph
/// count, a time estimate from the measured rate (about 1e5 graphs a second at n = 10 on
/// two cores, output/scale/spectrum_results.yaml; each solve doubles per vertex beyond), and
/// how many shards would bring a run under a day.
fn feasible(n: usize, shard: Option<Shard>) -> Result<(), String> {
    let known = crate::solve::spectrum::CONNECTED_GRAPHS;
    let graphs = match known.get(n) {
        Some(&c) => c as f64,
        None => CONNECTED_GRAPHS_15_16
            .get(n.wrapping_sub(known.len()))
            .copied()
            .unwrap_or(f64::INFINITY),
    };
    let per_graph = 1e-5 * 2f64.powi(n as i32 - 10).max(1.0);
    let k = shard.map_or(1, |s| s.count) as f64;
    let seconds = graphs * per_graph / k;
    if seconds <= MAX_RUN_SECONDS {
        return Ok(());
    }
    let shards = (graphs * per_graph / MAX_RUN_SECONDS).ceil();
    Err(format!(
        "--vertices {n}: {graphs:.3e} connected graphs (OEIS A001349), about {:.1e} days per run at the measured rate; refused (at most a day per run). Split it: --shard i/K for i = 0..K with K >= {shards:.0} (one job each, e.g. tests/slurm), then `grundy spectrum merge`",
        seconds / 86_400.0
    ))
}

/// Largest modulus geng takes: it reads `res/mod` into C `int`s, so `0/4294967298` was run as
/// `0/2` (the count wraps at 2^32) and passed off as a shard of 4294967298; past 2^31 - 1 geng
/// refuses it or wraps it. nauty 2.8.6, measured: `0/2147483647` runs, `0/2147483648` is
/// refused, `0/4294967298` gives the graphs of `0/2`.
pub const GENG_MAX_MOD: u64 = i32::MAX as u64;

/// A shard geng can take as its `res/mod` (the parser already refused `i >= K` and `K = 0`).
fn geng_shard(s: Shard) -> Result<(), String> {
    if s.count > GENG_MAX_MOD || s.index >= s.count {
        return Err(format!(
            "--shard {s}: geng takes K <= {GENG_MAX_MOD} (2^31 - 1) and i < K (a larger K would wrap inside geng and run another shard)"
        ));
    }
    Ok(())
}

/// Runs `nauty-geng -c -q N [i/k]` (or `geng` where nauty installs it under that name).
fn from_geng(n: usize, shard: Option<Shard>, mode: Mode) -> Result<(String, Spectrum), String> {
    if !(1..=DENSE_MAX).contains(&n) {
        return Err(format!(
            "--vertices {n}: expected 1..={DENSE_MAX} (every connected graph is enumerated)"
        ));
    }
    if let Some(s) = shard {
        geng_shard(s)?;
    }
    feasible(n, shard)?;
    let mut args = vec!["-c".to_string(), "-q".to_string(), n.to_string()];
    if let Some(s) = shard {
        args.push(s.to_string());
    }
    let mut child = None;
    let mut used = "";
    for bin in ["nauty-geng", "geng"] {
        match std::process::Command::new(bin)
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
        {
            Ok(c) => {
                child = Some(c);
                used = bin;
                break;
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => return Err(format!("starting {bin}: {e}")),
        }
    }
    let mut child = child.ok_or(
        "nauty's geng not found (neither `nauty-geng` nor `geng` is on PATH): install the Debian package `nauty`",
    )?;
    let stdout = child.stdout.take().expect("piped stdout");
    let sp = solve_stream(
        std::io::BufReader::with_capacity(1 << 20, stdout),
        |_| true,
        n,
        mode,
    );
    let status = child
        .wait()
        .map_err(|e| format!("waiting for {used}: {e}"))?;
    let sp = sp?;
    if !status.success() {
        return Err(format!("{used} {} failed: {status}", args.join(" ")));
    }
    Ok((format!("nauty-geng -c {n}"), sp))
}

#[derive(Serialize)]
struct LatexRow {
    value: u32,
    ter_count: String,
    ter_example: String,
    dnt_count: String,
    dnt_example: String,
}

#[derive(Serialize)]
struct LatexView {
    /// Under the geodetic closure (the column heads say so).
    geodetic: bool,
    source: String,
    shards: String,
    complete: bool,
    graphs: u64,
    vertices: String,
    rows: Vec<LatexRow>,
}

/// graph6 uses '?'..'~' only, so `!` is a safe \verb delimiter.
fn latex_view(r: &SpectrumReport) -> LatexView {
    let mut values: Vec<u32> = r.ter.iter().chain(&r.dnt).map(|x| x.value).collect();
    values.sort_unstable();
    values.dedup();
    let cell = |rows: &[crate::solve::spectrum::ValueRow], v: u32| {
        rows.iter()
            .find(|x| x.value == v)
            .map_or(("0".to_string(), "--".to_string()), |x| {
                (
                    x.count.to_string(),
                    format!("\\verb!{}!", x.smallest.graph6),
                )
            })
    };
    LatexView {
        geodetic: r.closure == DenseClosure::Geodetic,
        source: r.source.clone(),
        shards: if r.shards.len() > 8 {
            format!("{} shards", r.shards.len())
        } else {
            r.shards.join(", ")
        },
        complete: r.complete,
        graphs: r.graphs,
        vertices: r
            .vertices
            .iter()
            .map(|v| v.to_string())
            .collect::<Vec<_>>()
            .join(", "),
        rows: values
            .into_iter()
            .map(|v| {
                let (tc, te) = cell(&r.ter, v);
                let (dc, de) = cell(&r.dnt, v);
                LatexRow {
                    value: v,
                    ter_count: tc,
                    ter_example: te,
                    dnt_count: dc,
                    dnt_example: de,
                }
            })
            .collect(),
    }
}

fn write_latex(path: &Path, r: &SpectrumReport) -> Result<(), String> {
    let ctx = tera::Context::from_serialize(&latex_view(r)).map_err(|e| e.to_string())?;
    let text = crate::render::render_one_off(include_str!("../../templates/spectrum.tex"), &ctx)
        .map_err(|e| format!("rendering LaTeX: {e}"))?;
    crate::render::write_atomic(path, text.as_bytes()).map_err(|e| e.to_string())
}

fn output(r: &SpectrumReport, out: &OutputArgs) -> ExitCode {
    if let Some(path) = &out.latex {
        if let Err(e) = write_latex(path, r) {
            return fail(e);
        }
    }
    if out.json {
        outln!("{}", serde_json::to_string(r).expect("serialisable"));
        return ExitCode::SUCCESS;
    }
    outln!(
        "{} graphs ({}, shards {}{}{}), {:.2} s",
        r.graphs,
        r.source,
        r.shards.join(","),
        if r.complete { "" } else { ", incomplete" },
        if r.closure == DenseClosure::Geodetic {
            ", under the geodetic closure I"
        } else {
            ""
        },
        r.seconds
    );
    for (name, rows) in [("TER", &r.ter), ("DNT", &r.dnt)] {
        outln!(
            "{:<8} {:>12}  smallest (fewest edges, then graph6)",
            format!("nim {name}"),
            "graphs"
        );
        for row in rows.iter() {
            outln!(
                "{:<8} {:>12}  {} ({} edges)",
                row.value,
                row.count,
                row.smallest.graph6,
                row.smallest.edges
            );
        }
    }
    outln!(
        "joint (TER, DNT): {}",
        r.joint
            .iter()
            .map(|j| format!("({},{})={}", j.ter, j.dnt, j.count))
            .collect::<Vec<_>>()
            .join(" ")
    );
    for (name, rows) in [("TER", &r.ter_vs_hull), ("DNT", &r.dnt_vs_hull)] {
        let Some(rows) = rows else { continue };
        let changed: u64 = rows.iter().map(|d| d.count).sum();
        outln!(
            "{name} under I differs from the hull on {changed} graphs (hull -> I = graphs, smallest): {}",
            rows.iter()
                .map(|d| format!(
                    "{}->{} = {} {}",
                    d.hull, d.geodetic, d.count, d.smallest.graph6
                ))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    ExitCode::SUCCESS
}

/// The library entry used by tests and bench: the spectrum of all connected graphs on n
/// vertices from geng, or `None` when geng is not installed.
pub fn geng_spectrum(n: usize) -> Option<Result<Spectrum, String>> {
    let found = ["nauty-geng", "geng"].iter().any(|b| {
        std::process::Command::new(b)
            .arg("-help")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok()
    });
    let mode = Mode {
        closure: DenseClosure::Hull,
        cross_check: false,
    };
    found.then(|| from_geng(n, None, mode).map(|(_, s)| s))
}
