//! The thin command-line layer: parses arguments (clap), calls the library, prints results.
//! Exit codes: 0 success (every claim holds), 1 some claim refuted, 2 bad input.

use crate::expr::{parse_game, substitute, ParseOptions};
use crate::graph::{parse_graph, Closure, Convexity};
use crate::term::{errln, outln};
use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

pub mod bench;
pub mod bench_groups;
pub mod bench_octal;
pub mod bench_solve_once;
pub mod bench_user;
pub mod check;
pub mod cycle;
pub mod features;
pub mod init;
pub mod octal;
pub mod reference;
pub mod spectrum;
pub mod synth;

#[derive(Parser, Debug)]
#[command(
    name = "grundy",
    version,
    about = "Solve impartial games on graphs and check papers' claims about them",
    after_help = "Start a project: `grundy init DIR`. The user guide: docs/guide in the source \
(`mdbook serve docs/guide`), with every spec field, game, graph family, feature and flag."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

/// `--closure`: any registered graph closure ([`crate::graph::closures`]), whose names and
/// descriptions `--help` lists.
#[derive(Clone, Copy, Debug)]
pub struct ClosureParser;

impl clap::builder::TypedValueParser for ClosureParser {
    type Value = Closure;
    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<Closure, clap::Error> {
        let text = value.to_string_lossy();
        Closure::named(&text).ok_or_else(|| {
            let mut e = clap::Error::new(clap::error::ErrorKind::InvalidValue).with_cmd(cmd);
            use clap::error::{ContextKind, ContextValue};
            if let Some(a) = arg {
                e.insert(ContextKind::InvalidArg, ContextValue::String(a.to_string()));
            }
            e.insert(ContextKind::InvalidValue, ContextValue::String(text.into()));
            e.insert(
                ContextKind::ValidValue,
                ContextValue::Strings(
                    crate::graph::closures::names()
                        .into_iter()
                        .map(String::from)
                        .collect(),
                ),
            );
            e
        })
    }
    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new(crate::graph::closures::all().into_iter().map(
            |c| clap::builder::PossibleValue::new(c.name()).help(c.about()),
        )))
    }
}

/// `--closure` of `grundy solve`: a closure's name, resolved once `--games` has registered
/// the closures defined in specs (issue 45); `--help` lists the registered ones.
#[derive(Clone, Copy, Debug)]
pub struct ClosureNameParser;

impl clap::builder::TypedValueParser for ClosureNameParser {
    type Value = String;
    fn parse_ref(
        &self,
        _cmd: &clap::Command,
        _arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        Ok(value.to_string_lossy().into_owned())
    }
    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        ClosureParser.possible_values()
    }
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Solve a game expression: `grundy solve 'TER(C_9)'`, `grundy solve 'DNT(W_n)' --param n=5..=40`.
    #[command(after_help = crate::expr::language_help())]
    Solve {
        /// The game, e.g. `TER(C_9)`, `DNT_{v1}(W_7)`, `*2 : DNT(P_4)`.
        game: String,
        /// Sweep a parameter: `n=5..=40` (inclusive), `n=4..<9` (exclusive), `n=3,5,7` (repeat for
        /// several; all combinations).
        #[arg(long = "param", value_name = "NAME=RANGE")]
        params: Vec<String>,
        /// Closure operator of the graph games (and of digraphs and weighted graphs, when it
        /// is built on geodesics); a closure defined in a spec with `--games`.
        #[arg(long, value_parser = ClosureNameParser, default_value = "hull")]
        closure: String,
        /// One JSON object (JSON lines for a sweep).
        #[arg(long)]
        json: bool,
        /// Most positions an exhaustive solve may store (default: what --max-memory allows).
        #[arg(long, value_name = "N")]
        max_positions: Option<u64>,
        /// Most memory an exhaustive solve may use, e.g. 8G, 512M (default: half of physical
        /// memory, at most three quarters of what is available now, at least 256M).
        #[arg(long, value_name = "SIZE")]
        max_memory: Option<String>,
        /// Most seconds a sweep (`--param`) may run in all: it stops past them, or at once when
        /// the pace of its instances so far says it would.
        #[arg(long, value_name = "SECONDS", default_value_t = 300, value_parser = clap::value_parser!(u64).range(1..=31_536_000))]
        max_seconds: u64,
        /// Games and closures defined in specs (`kind: game`): a spec, or a folder of them
        /// (registered before the game and `--closure` are read; repeat for several).
        #[arg(long, value_name = "PATH")]
        games: Vec<PathBuf>,
    },
    /// Renders templates for a build whose templates folder is the user's own (started by
    /// grundy itself, one request a line on standard input; src/render/sandbox.rs).
    #[command(hide = true)]
    RenderWorker {
        /// The templates folder.
        dir: PathBuf,
    },
    /// Print the families 𝒢, 𝒩, 𝒢*, 𝒩* of a graph in the paper's vertex names.
    Sets {
        /// The graph, e.g. `Kite`, `W_7`, `K_{1,3}` (the families: `grundy solve --help`).
        graph: String,
        /// Closure operator of the graph.
        #[arg(long, value_parser = ClosureParser, default_value = "hull")]
        closure: Closure,
        /// One JSON object with the four families as lists of vertex-name lists.
        #[arg(long)]
        json: bool,
    },
    /// Check specs (files or directories of YAML): a line per spec and a summary.
    /// Exit 0: every verdict as expected; 1: some claim refuted (or an erratum held); 2: bad input.
    Check {
        /// Spec files or folders of them (searched recursively).
        #[arg(default_value = "specs")]
        paths: Vec<PathBuf>,
        /// One JSON object: every spec's report and the summary.
        #[arg(long)]
        json: bool,
        /// Print strategies as the checker saw them (diagram specs).
        #[arg(long)]
        explain: bool,
        /// Also check the specs of `tier: long` found in folders (a spec file named on the
        /// command line is checked whatever its tier).
        #[arg(long)]
        long: bool,
    },
    /// The main job: check every spec in specs/ and regenerate output/ (one transaction:
    /// on bad input nothing is written). Exit codes as for `check`.
    Build {
        /// The folder of all specs (searched recursively).
        #[arg(long, default_value = "specs")]
        specs: PathBuf,
        /// A folder of tera templates to render the artifacts from (default: the templates
        /// built into grundy; `grundy init` writes a copy to edit).
        #[arg(long, value_name = "DIR")]
        templates: Option<PathBuf>,
        /// Where the artifacts go; build owns the files listed in its .grundy-manifest.
        #[arg(long, default_value = "output")]
        output: PathBuf,
        /// Rebuild one spec only (its id, e.g. `thm_5_43`, or a figure number, e.g. `5.11`)
        /// and update its entry in the index and report, leaving the others as they are.
        #[arg(long, value_name = "SPEC_ID|FIGURE")]
        only: Option<String>,
        /// First check the specs of `tier: long` (minutes) and record their reports in
        /// OUTPUT/scale/long_tier.json, then build as without it; every build shows the recorded
        /// reports of the long specs whose files are unchanged since.
        #[arg(long, conflicts_with = "only")]
        long: bool,
    },
    /// Print the JSON Schema of the spec format.
    Schema,
    /// Nim sequence of an octal game and its period, proved by the Guy–Smith theorem:
    /// `grundy octal 0.137 --len 1000`.
    Octal {
        /// The octal code, e.g. `0.137` (Dawson's Chess), `0.07`, `0.77`, `4.7`.
        code: String,
        /// How many values to compute: G(0), …, G(len-1).
        #[arg(long, default_value_t = 1000)]
        len: usize,
        /// One JSON object: the values, the period and where it was proved.
        #[arg(long)]
        json: bool,
    },
    /// Benchmark the solver (positions per second, peak memory).
    Bench {
        /// Largest odd n for TER(C_n): 0 (none) or an odd n >= 21 (the first benchmarked).
        #[arg(long, default_value_t = 27, value_parser = bench_cycle)]
        max_cycle: u64,
        /// Largest n for DNT(W_n).
        #[arg(long, default_value_t = 40)]
        max_wheel: u64,
        /// One JSON object per measurement.
        #[arg(long)]
        json: bool,
        /// Also the large instances: TER/DNT(W_n) for n = 36..=40, TER(Q_5), DNT(Q_5).
        #[arg(long)]
        scale: bool,
        /// Instead: the claim and reduction specs under DIR checked and certified as the build
        /// does (each instance solved once) and with the certificate solving again; positions,
        /// CPU seconds and their ratio.
        #[arg(long, value_name = "DIR")]
        solve_once: Option<std::path::PathBuf>,
    },
    /// Outcome of TER(C_n) for odd n by the packed-table sweep (Conjecture 5.5).
    Cycle {
        /// Odd n to solve (repeatable).
        #[arg(long = "n", value_name = "N")]
        n: Vec<u32>,
        /// Solve every odd n from --min-n up to this.
        #[arg(long)]
        max_n: Option<u32>,
        /// The smallest odd n of --max-n.
        #[arg(long, default_value_t = 3)]
        min_n: u32,
        /// Directory for resumable checkpoints.
        #[arg(long, value_name = "DIR")]
        checkpoint: Option<std::path::PathBuf>,
        /// Seconds between checkpoints.
        #[arg(long, default_value_t = 600.0, value_parser = positive_seconds)]
        checkpoint_every: f64,
        /// Start at this selected set, e.g. `v1,v4` (the game TER_S(C_n)).
        #[arg(long, value_name = "VERTICES")]
        start: Option<String>,
        /// Decide ∅ from the second player's replies {v1, vj} (tables of 2^(n-2) bits).
        #[arg(long, conflicts_with = "start")]
        by_reply: bool,
        /// Pause after this many levels (checkpointed; exit code 3); rerun to resume.
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
        max_levels: Option<u32>,
        /// One JSON object per n.
        #[arg(long)]
        json: bool,
        /// Also write the results as a LaTeX table (booktabs) to this file.
        #[arg(long, value_name = "FILE")]
        latex: Option<std::path::PathBuf>,
    },
    /// Distribution of nim(TER(G)) and nim(DNT(G)) over all connected graphs on N vertices.
    Spectrum(spectrum::SpectrumArgs),
    /// Find a case analysis diagram from a claim's start positions (paper §6, question 5),
    /// write it as a diagram spec, check and render it.
    #[command(after_help = "The features to quotient by: `grundy features GAME`.")]
    Synthesize(synth::SynthArgs),
    /// List the features of a game's positions (the names formulas and predicates read),
    /// with their types, meanings and values at the start: `grundy features 'SPL(3,[3])'`.
    Features(features::FeaturesArgs),
    /// Write a starter project into DIR: specs/ with an example claim, templates/ (a copy
    /// of the built-in templates to edit), and paper/ with a LaTeX stub that inputs the outputs.
    Init {
        /// The folder to create (must be empty or absent).
        dir: PathBuf,
    },
}

/// Errors of the CLI layer: each says what was expected.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    #[error("bad --param `{0}`: expected NAME=RANGE such as n=5..=40, n=4..<9 or n=3,5,7")]
    Param(String),
    #[error("{0}")]
    Ambiguous(String),
    #[error("parameter range `{0}` is empty")]
    EmptyRange(String),
    #[error("graph {0} is too large to enumerate its generating sets")]
    TooManySets(String),
    #[error("--param `{0}` has {1} values; at most {MAX_PARAM_VALUES} are allowed")]
    TooManyValues(String, u128),
    #[error("the --param ranges give {0} combinations; at most {MAX_PARAM_VALUES} are allowed")]
    TooManyCombinations(u128),
}

/// Most values of one `--param`, and most combinations of all of them (checked up front,
/// before any value is generated).
pub const MAX_PARAM_VALUES: u128 = 1_000_000;

/// Parses `n=5..=40` into a name and its values.
pub fn parse_param(s: &str) -> Result<(String, Vec<i64>), CliError> {
    let bad = || CliError::Param(s.to_string());
    let (name, range) = s.split_once('=').ok_or_else(bad)?;
    let name = name.trim();
    if name.is_empty()
        || !name.chars().all(|c| c.is_ascii_alphanumeric())
        || !name.starts_with(|c: char| c.is_ascii_alphabetic())
    {
        return Err(bad());
    }
    let num = |t: &str| t.trim().parse::<i64>().map_err(|_| bad());
    // Count a range before generating it: `0..=i64::MAX` must be refused, not allocated.
    let span = |a: i64, b: i64, inclusive: bool| -> Result<Vec<i64>, CliError> {
        let count = (b as i128 - a as i128 + i128::from(inclusive)).max(0) as u128;
        if count > MAX_PARAM_VALUES {
            return Err(CliError::TooManyValues(s.to_string(), count));
        }
        // `count` values from `a`: the last is at most `b`, so nothing overflows.
        Ok((0..count as i64).map(|i| a + i).collect())
    };
    let split = crate::spec::range::split(range)
        .map_err(|e| CliError::Ambiguous(format!("--param {s}: {e}")))?;
    let values: Vec<i64> = if let Some(r) = split {
        span(num(r.from)?, num(r.to)?, r.inclusive)?
    } else {
        range.split(',').map(num).collect::<Result<_, _>>()?
    };
    if values.is_empty() {
        return Err(CliError::EmptyRange(s.to_string()));
    }
    if values.len() as u128 > MAX_PARAM_VALUES {
        return Err(CliError::TooManyValues(s.to_string(), values.len() as u128));
    }
    Ok((name.to_string(), values))
}

/// All combinations of parameter values, first parameter outermost.
pub fn combinations(params: &[(String, Vec<i64>)]) -> Vec<Vec<(String, i64)>> {
    let mut out: Vec<Vec<(String, i64)>> = vec![vec![]];
    for (name, vals) in params {
        out = out
            .into_iter()
            .flat_map(|prefix| {
                vals.iter().map(move |&v| {
                    let mut p = prefix.clone();
                    p.push((name.clone(), v));
                    p
                })
            })
            .collect();
    }
    out
}

/// `n` and the noun, in English: "1 instance", "2 instances".
pub fn count(n: impl Into<u64>, singular: &str) -> String {
    let n = n.into();
    match (n, singular.ends_with('s')) {
        (1, _) => format!("1 {singular}"),
        (_, true) => format!("{n} {singular}es"),
        (_, false) => format!("{n} {singular}s"),
    }
}

/// Most worker threads `RAYON_NUM_THREADS` may ask for.
const MAX_THREADS: usize = 1024;

/// Builds rayon's global pool up front from `RAYON_NUM_THREADS`, so that an absurd or
/// unusable value is a clear error, not a panic inside the first parallel loop.
fn thread_pool() -> Result<(), String> {
    let Some(v) = std::env::var_os("RAYON_NUM_THREADS") else {
        return Ok(());
    };
    let text = v.to_string_lossy();
    let n: usize = text.trim().parse().map_err(|_| {
        format!("RAYON_NUM_THREADS=`{text}`: expected a number of threads (0 = one per core)")
    })?;
    if n > MAX_THREADS {
        return Err(format!(
            "RAYON_NUM_THREADS={n}: at most {MAX_THREADS} threads are allowed"
        ));
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(n)
        .build_global()
        .map_err(|e| format!("cannot start {n} worker threads: {e}"))
}

/// Registers the game specs named by `--games PATH` (or `--games=PATH`) on `solve` and
/// `features` (issue 45); a spec that cannot be read is exit 2.
fn register_games_from_args() -> Result<(), ExitCode> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if !matches!(
        args.iter()
            .find(|a| !a.starts_with('-'))
            .map(String::as_str),
        Some("solve" | "features")
    ) {
        return Ok(());
    }
    let mut paths = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a == "--games" {
            if let Some(p) = it.next() {
                paths.push(PathBuf::from(p));
            }
        } else if let Some(p) = a.strip_prefix("--games=") {
            paths.push(PathBuf::from(p));
        }
    }
    for p in paths {
        if let Err(e) = crate::kinds::game::register_path(&p) {
            return Err(report(e));
        }
    }
    Ok(())
}

fn report(err: impl Into<miette::Report>) -> ExitCode {
    errln!("{:?}", err.into());
    ExitCode::from(2)
}

pub fn main() -> ExitCode {
    // Graphviz stamps PDFs with the current date unless this is set, and artifacts must be
    // reproducible. Set before any thread starts.
    if std::env::var_os("SOURCE_DATE_EPOCH").is_none() {
        std::env::set_var("SOURCE_DATE_EPOCH", "0");
    }
    // Like any Unix filter, end quietly when the reader of stdout goes away (`grundy … | head`)
    // instead of panicking in `println!`.
    #[cfg(unix)]
    // SAFETY: restoring the default disposition of SIGPIPE before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    crate::term::init();
    if let Err(e) = thread_pool() {
        errln!("error: {e}");
        return ExitCode::from(2);
    }
    // `--games` registers games and closures before the arguments are read: `--closure p3`
    // and the game expression may name them.
    if let Err(code) = register_games_from_args() {
        return code;
    }
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            if e.use_stderr() {
                // A usage error quotes the argument given: through the printing layer.
                eprint!("{}", crate::term::message(&e.render().to_string()));
            } else {
                let _ = e.print();
            }
            return if e.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    match cli.command {
        Command::Solve {
            game,
            params,
            closure,
            json,
            max_positions,
            max_memory,
            max_seconds,
            games: _,
        } => {
            let mut budget = crate::solve::guard::Budget::default_for_machine();
            budget.max_positions = max_positions;
            if let Some(m) = max_memory {
                match crate::solve::guard::parse_bytes(&m) {
                    Ok(b) => budget.max_memory = b,
                    Err(e) => return report(miette::Report::msg(format!("--max-memory: {e}"))),
                }
            }
            let Some(closure) = Closure::named(&closure) else {
                return report(miette::Report::msg(format!(
                    "invalid value '{closure}' for '--closure': no closure of that name (registered: {}; a closure defined in a spec needs --games)",
                    crate::graph::closures::names().join(", ")
                )));
            };
            solve(&game, &params, closure, json, budget, max_seconds)
        }
        Command::Sets {
            graph,
            closure,
            json,
        } => sets(&graph, closure, json),
        Command::Check {
            paths,
            json,
            explain,
            long,
        } => check::check(&paths, json, explain, long),
        Command::Build {
            specs,
            templates,
            output,
            only,
            long,
        } => check::build(&specs, templates.as_deref(), &output, only, long),
        Command::Schema => {
            outln!(
                "{}",
                serde_json::to_string_pretty(&crate::kinds::schema()).expect("a schema serialises")
            );
            ExitCode::SUCCESS
        }
        Command::Bench {
            max_cycle,
            max_wheel,
            json,
            scale,
            solve_once,
        } => match solve_once {
            Some(dir) => bench_solve_once::run(dir, json),
            None => bench::run(max_cycle, max_wheel, json, scale),
        },
        Command::Octal { code, len, json } => octal::run(&code, len, json),
        Command::Cycle {
            mut n,
            max_n,
            min_n,
            checkpoint,
            checkpoint_every,
            max_levels,
            start,
            by_reply,
            json,
            latex,
        } => {
            if let Some(max) = max_n {
                // Beyond 65 every n is refused anyway (odd n <= 63): stop there, not at 2^32.
                n.extend((min_n..=max.min(min_n.max(65).saturating_add(1))).filter(|k| k % 2 == 1));
            }
            if n.is_empty() {
                return report(miette::Report::msg(
                    "grundy cycle: give --n N (odd) or --max-n N",
                ));
            }
            cycle::run(
                n,
                start,
                checkpoint,
                checkpoint_every,
                max_levels,
                by_reply,
                cycle::CycleOutput { json, latex },
            )
        }
        Command::Spectrum(args) => spectrum::run(args),
        Command::Synthesize(args) => synth::run(args),
        Command::Features(args) => features::run(args),
        Command::Init { dir } => init::run(&dir),
        Command::RenderWorker { dir } => crate::render::sandbox::worker_main(&dir),
    }
}

/// A single-letter word in a subscript or argument (`C_n`, `W_{m,n}`, `DC(n)`) of an expression
/// that did not parse: most likely a parameter given no values.
fn unbound_parameter(text: &str) -> Option<char> {
    let chars: Vec<char> = text.chars().collect();
    (0..chars.len()).find_map(|i| {
        let c = chars[i];
        let before = i.checked_sub(1).map(|j| chars[j]);
        let after = chars.get(i + 1).copied();
        let opens = matches!(before, Some('_' | '{' | ',' | '('));
        let closes = matches!(after, None | Some('}' | ',' | ')' | ' '));
        (c.is_ascii_lowercase() && opens && closes).then_some(c)
    })
}

fn solve(
    game: &str,
    params: &[String],
    closure: Closure,
    json: bool,
    budget: crate::solve::guard::Budget,
    max_seconds: u64,
) -> ExitCode {
    use crate::solve::dispatch;
    let parsed: Result<Vec<_>, _> = params.iter().map(|p| parse_param(p)).collect();
    let parsed = match parsed {
        Ok(p) => p,
        Err(e) => return report(miette::Report::msg(e.to_string())),
    };
    // A parameter the expression never names would sweep the same game again and again.
    for (name, _) in &parsed {
        if substitute(game, &[(name.clone(), "\u{1}")]) == game {
            return report(miette::Report::msg(format!(
                "--param {name}: the game `{game}` does not use a parameter `{name}`"
            )));
        }
    }
    let opts = ParseOptions { closure };
    let total = parsed
        .iter()
        .try_fold(1u128, |acc, (_, v)| acc.checked_mul(v.len() as u128))
        .unwrap_or(u128::MAX);
    if total > MAX_PARAM_VALUES {
        return report(miette::Report::msg(
            CliError::TooManyCombinations(total).to_string(),
        ));
    }
    let combos = combinations(&parsed);
    let sweep = !parsed.is_empty();
    let dopts = dispatch::Options {
        budget,
        progress: true,
    };
    if sweep && !json {
        let names: Vec<&str> = parsed.iter().map(|(n, _)| n.as_str()).collect();
        outln!(
            "{:<8} {:<28} {:>4} {:>12} {:>10}  method",
            names.join(","),
            "game",
            "nim",
            "positions",
            "seconds"
        );
    }
    let started = std::time::Instant::now();
    for (done, combo) in combos.into_iter().enumerate() {
        // The sweep's total work (issue 49 R10): each instance is bounded by the solver's
        // budget, the sweep by time, forecast from the pace so far.
        if let Some(why) = sweep_past_its_time(done as u128, total, started.elapsed(), max_seconds)
        {
            return report(miette::Report::msg(why));
        }
        let text = substitute(game, &combo);
        let g = match parse_game(&text, opts) {
            Ok(g) => g,
            Err(e) => {
                // `TER(C_n)` without `--param n=…`: say which parameter is missing.
                let missing = unbound_parameter(&text);
                let e = miette::Report::new(e);
                return report(match missing {
                    Some(p) => e.wrap_err(format!(
                        "`{p}` looks like a parameter: give its values with --param {p}=5..=9"
                    )),
                    None => e,
                });
            }
        };
        let r = match dispatch::solve(&g, &dopts) {
            Ok(r) => r,
            Err(refusal) => {
                if json {
                    let mut obj = serde_json::json!({"game": refusal.game, "refused": refusal});
                    for (k, v) in &combo {
                        obj[k] = serde_json::json!(v);
                    }
                    outln!("{obj}");
                }
                return report(miette::Report::msg(refusal.to_string()));
            }
        };
        let value = match r.nim {
            Some(v) => v.to_string(),
            None => format!("{} (outcome)", r.outcome),
        };
        if json {
            let mut obj = serde_json::to_value(&r).expect("serialisable");
            for (k, v) in &combo {
                obj[k] = serde_json::json!(v);
            }
            outln!("{obj}");
        } else if sweep {
            let vals: Vec<String> = combo.iter().map(|(_, v)| v.to_string()).collect();
            outln!(
                "{:<8} {:<28} {:>4} {:>12} {:>10.3}  {}",
                vals.join(","),
                r.game,
                value,
                r.positions,
                r.seconds,
                r.method
            );
        } else {
            match r.nim {
                Some(v) => outln!("nim({}) = {v}", r.game),
                None => outln!(
                    "{} is an {}-position (nim-value not computed)",
                    r.game,
                    r.outcome
                ),
            }
            if let Some(note) = &r.note {
                errln!("{note}");
            }
            errln!(
                "method {}: {} positions, {:.3} s",
                r.method,
                r.positions,
                r.seconds
            );
        }
    }
    ExitCode::SUCCESS
}

/// Why a sweep stops before instance `done` (0-based) of `total`: past `max_seconds`, or, a
/// second in, when the pace so far forecasts more than `max_seconds` for all of it.
fn sweep_past_its_time(
    done: u128,
    total: u128,
    elapsed: std::time::Duration,
    max_seconds: u64,
) -> Option<String> {
    let spent = elapsed.as_secs_f64();
    let forecast = spent / done.max(1) as f64 * total as f64;
    let past = spent > max_seconds as f64;
    if done == 0 || !(past || (spent >= 1.0 && forecast > max_seconds as f64)) {
        return None;
    }
    let what = if past {
        format!("it ran past {max_seconds} s")
    } else {
        format!(
            "at the pace of its first {done} instances ({spent:.1} s) all {total} would take \
             about {} s, past {max_seconds} s",
            crate::solve::guard::human_count(forecast.ceil())
        )
    };
    Some(format!(
        "the sweep stopped after {done} of {total} instances: {what}. Narrow the --param \
         ranges, or raise --max-seconds."
    ))
}

fn sets(graph: &str, closure: Closure, json: bool) -> ExitCode {
    let g = match parse_graph(graph) {
        Ok(g) => g,
        Err(e) => return report(miette::Report::msg(format!("bad graph `{graph}`: {e}"))),
    };
    let Some(conv) = Convexity::try_new(&g, closure) else {
        return report(miette::Report::msg(closure.refusal(&g)));
    };
    let Some(f) = conv.families(3 << 23) else {
        return report(miette::Report::msg(
            CliError::TooManySets(g.name().to_string()).to_string(),
        ));
    };
    let fam = |v: &Vec<u64>| v.iter().map(|&s| g.set_names(s)).collect::<Vec<_>>();
    if json {
        let obj = serde_json::json!({
            "graph": g.name(), "closure": closure.to_string(),
            "G": fam(&f.g), "N": fam(&f.n), "G*": fam(&f.g_star), "N*": fam(&f.n_star),
        });
        outln!("{obj}");
    } else {
        let show = |v: &Vec<u64>| {
            v.iter()
                .map(|&s| g.format_set(s))
                .collect::<Vec<_>>()
                .join(", ")
        };
        outln!(
            "graph {} ({} vertices, closure {})",
            g.name(),
            g.n(),
            closure
        );
        outln!("G  = {{{}}}", show(&f.g));
        outln!("N  = {{{}}}", show(&f.n));
        outln!("G* = {{{}}}", show(&f.g_star));
        outln!("N* = {{{}}}", show(&f.n_star));
    }
    ExitCode::SUCCESS
}

/// A positive, finite number of seconds (`--checkpoint-every`: NaN, infinity, 0 and negative
/// values are refused).
fn positive_seconds(s: &str) -> Result<f64, String> {
    let v: f64 = s.parse().map_err(|e| format!("{e}"))?;
    if v.is_finite() && v > 0.0 {
        Ok(v)
    } else {
        Err(format!("expected a positive number of seconds, not {s}"))
    }
}

/// `bench --max-cycle`: 0 (no cycles) or an odd n >= 21; 2 or 4 named no benchmark at all.
fn bench_cycle(s: &str) -> Result<u64, String> {
    let v: u64 = s.parse().map_err(|e| format!("{e}"))?;
    if v == 0 || (v >= 21 && v % 2 == 1) {
        Ok(v)
    } else {
        Err(format!(
            "expected 0 (no cycles) or an odd n >= 21 (the benchmarked cycles are TER(C_21), TER(C_23), ...), not {v}"
        ))
    }
}
