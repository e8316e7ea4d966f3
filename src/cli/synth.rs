//! `grundy synthesize`: find a case analysis diagram from a claim (paper §6, question 5) with
//! [`crate::synth`], write it as a diagram spec, check it with the same pipeline as
//! `grundy check` and render it (DOT and SVG beside the spec). Exit 0: the written diagram
//! checks; 1: a start position is not a P-position (the counterexample, no diagram) or the
//! written diagram does not check; 2: bad input.

use crate::kinds::parse_spec;
use crate::pipeline::{self, Selection};
use crate::spec::Source;
use crate::synth::{self, Outcome};
use crate::term::{errln, outln};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct SynthArgs {
    /// The start game, as in a diagram spec's `starts:`, e.g. `SPL(c,[lam])`.
    #[arg(long, required_unless_present = "starts_from")]
    game: Option<String>,
    /// A parameter as in `starts: params:` (YAML value): `c=1..=20`,
    /// `lam={multisets: {max_sum: 20, min_part: 1, max_part: 1}}`.
    #[arg(long = "param", value_name = "NAME=VALUE")]
    params: Vec<String>,
    /// The start filter (`where:`), e.g. `size == c`.
    #[arg(long = "where", value_name = "PREDICATE")]
    filter: Option<String>,
    /// Reuse the `starts:` block of an existing diagram spec instead of --game/--param/--where.
    #[arg(long, value_name = "SPEC", conflicts_with_all = ["game", "params", "filter"])]
    starts_from: Option<PathBuf>,
    /// Feature expressions to quotient by, comma-separated: `c, size - c, num_parts, solid`
    /// (the features of a game's positions: `grundy features GAME`).
    #[arg(long)]
    features: String,
    /// The diagram spec to write (its file stem becomes the diagram's id).
    #[arg(long)]
    output: PathBuf,
    /// The spec's `source:` (the result it is a strategy for).
    #[arg(long, default_value = "grundy synthesize")]
    source: String,
    /// Most positions the strategy may meet.
    #[arg(long, default_value_t = 2_000_000)]
    max_positions: usize,
    /// Follow only positions in the classes of start positions; end the second player's
    /// other replies at `*0` sinks (solved by the checker).
    #[arg(long)]
    zero_sinks: bool,
    /// A folder of templates to render the diagram with (default: the built-in templates;
    /// `grundy init` writes a copy to edit).
    #[arg(long, value_name = "DIR")]
    templates: Option<PathBuf>,
}

fn bad(msg: impl std::fmt::Display) -> ExitCode {
    errln!("error: {msg}");
    ExitCode::from(2)
}

fn starts_from_flags(a: &SynthArgs) -> Result<String, String> {
    let q = |t: &str| serde_json::to_string(t).unwrap_or_default();
    let game = a.game.as_deref().unwrap_or_default();
    let mut out = format!("starts:\n  - game: {}\n", q(game));
    if !a.params.is_empty() {
        out.push_str("    params:\n");
        for p in &a.params {
            let (name, value) = p
                .split_once('=')
                .ok_or_else(|| format!("--param `{p}`: expected NAME=VALUE"))?;
            let name = name.trim();
            if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                return Err(format!("--param `{p}`: bad parameter name"));
            }
            let value = value.trim();
            let v = if value.starts_with('{') {
                if value.contains('\n') {
                    return Err(format!("--param `{p}`: one line expected"));
                }
                value.to_string()
            } else {
                q(value)
            };
            out.push_str(&format!("      {name}: {v}\n"));
        }
    }
    if let Some(w) = &a.filter {
        out.push_str(&format!("    where: {}\n", q(w)));
    }
    Ok(out)
}

pub fn run(a: SynthArgs) -> ExitCode {
    let feats = match synth::parse_features(&a.features) {
        Ok(f) => f,
        Err(e) => return bad(e),
    };
    let starts = match &a.starts_from {
        Some(path) => {
            let text = match crate::files::read_regular_text(path, 4 << 20) {
                Ok(t) => t,
                Err(e) => return bad(format!("cannot read {}: {e}", path.display())),
            };
            match synth::starts_block(&text) {
                Some(s) => s,
                None => return bad(format!("{} has no `starts:` block", path.display())),
            }
        }
        None => match starts_from_flags(&a) {
            Ok(s) => s,
            Err(e) => return bad(e),
        },
    };
    let id = match a.output.file_stem().and_then(|s| s.to_str()) {
        Some(s)
            if s.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') =>
        {
            s.to_string()
        }
        _ => {
            return bad(format!(
                "--output {}: the file stem (the diagram's id) must be letters, digits, `_`",
                a.output.display()
            ))
        }
    };
    if a.output.extension().and_then(|e| e.to_str()) != Some("yaml") {
        return bad("--output must name a .yaml file");
    }
    // The starts, read by the spec reader itself (same validation as a hand-written spec).
    let probe = format!(
        "kind: diagram\nsource: {}\n{}nodes:\n  X: {{label: x, when: \"true\", start: 1}}\narrows: []\n",
        serde_json::to_string(&a.source).unwrap_or_default(),
        starts
    );
    let file = a.output.display().to_string();
    let spec = match parse_spec(
        &Source {
            file: &file,
            text: &probe,
        },
        &id,
    ) {
        Ok(s) => s,
        Err(e) => return bad(format!("the start positions: {}", e.message)),
    };
    let Some(d) = spec.downcast::<crate::check::diagram::Diagram>() else {
        return bad("internal: the probe spec is not a diagram");
    };
    let s = match synth::synthesize(d, &feats, a.max_positions, a.zero_sinks) {
        Ok(Outcome::Diagram(s)) => s,
        Ok(Outcome::Counterexample(c)) => {
            outln!(
                "refuted: start position {} of {} has nim-value *{} (the first player wins): no diagram written",
                c.position, c.instance, c.nim
            );
            return ExitCode::from(1);
        }
        Err(e) => return bad(e),
    };
    let mut s = s;
    // Keep only what the checker's own strategy exercises (a few rounds: dropping a part can
    // leave another part unexercised). Each round is a full check, the costly step for large
    // games.
    for _ in 0..8 {
        let text = synth::to_spec_yaml(&s, &a.source, &starts, &a.features);
        let src = Source {
            file: &file,
            text: &text,
        };
        let d = match parse_spec(&src, &id) {
            Ok(sp) => match sp.downcast::<crate::check::diagram::Diagram>() {
                Some(d) => d.clone(),
                None => break,
            },
            Err(e) => return bad(format!("internal: the synthesized spec: {}", e.message)),
        };
        let Ok(c) = d.check(&std::collections::HashMap::new()) else {
            break;
        };
        let k = d.starts.len();
        let cov = &c.report.coverage;
        if cov.len() != k + d.nodes.len() + d.arrows.len() {
            break;
        }
        let node_hit: Vec<bool> = (0..d.nodes.len())
            .map(|i| cov[k + i].instances > 0)
            .collect();
        let arrow_hit: Vec<bool> = (0..d.arrows.len())
            .map(|i| cov[k + d.nodes.len() + i].instances > 0)
            .collect();
        if !s.drop_unexercised(&node_hit, &arrow_hit) {
            break;
        }
    }
    let text = synth::to_spec_yaml(&s, &a.source, &starts, &a.features);
    if let Err(e) = crate::render::write_atomic(&a.output, text.as_bytes()) {
        return bad(e);
    }
    outln!(
        "synthesized {}: {}, {} ({}, {} met, {} before merging)",
        a.output.display(),
        super::count(s.nodes.len() as u64, "node"),
        super::count(s.arrows.len() as u64, "arrow"),
        super::count(s.start_positions as u64, "start position"),
        super::count(s.positions as u64, "position"),
        super::count(s.classes as u64, "class")
    );
    for n in &s.nodes {
        outln!(
            "  {:<4} {}-node {:>8} positions{}{}{}  when {}",
            n.name,
            if n.p_node { "P" } else { "N" },
            n.positions,
            n.start.map_or(String::new(), |k| format!(", start {k}")),
            n.sink.map_or(String::new(), |k| format!(", sink {k}")),
            if n.separated {
                ""
            } else {
                ", NOT separated from the other nodes"
            },
            n.when
        );
    }
    if let Some(v) = s.vacuity() {
        outln!("warning: {v} (said in the spec's title and notes)");
    }
    // Check it exactly as `grundy check` would.
    let run = pipeline::check(std::slice::from_ref(&a.output), &Selection::All);
    for e in &run.errors {
        errln!("error: {}", e.message);
    }
    for e in run.check_errors() {
        errln!("error: {}", e.message);
    }
    for (spec, c) in run.checked() {
        outln!(
            "check {}: {} ({})",
            spec.id(),
            pipeline::verdict_line(&c.report),
            c.report.range
        );
        if !c.report.as_expected {
            outln!("  {:?}", c.report.verdict);
        }
        // Render beside the spec.
        match crate::render::Renderer::load_or_embedded(a.templates.as_deref()) {
            Ok(r) => {
                for ext in ["dot", "svg"] {
                    let path = a.output.with_extension(ext);
                    match pipeline::render_one(c, &spec.sha256, &r, "diagram.dot", &path) {
                        Ok(Some(bytes)) => {
                            if let Err(e) = crate::render::write_atomic(&path, &bytes) {
                                errln!("warning: {e}");
                            } else {
                                outln!("rendered {}", path.display());
                            }
                        }
                        Ok(None) => {}
                        Err(e) => errln!("warning: rendering {}: {e}", path.display()),
                    }
                }
            }
            Err(e) => errln!("warning: templates not rendered: {e}"),
        }
    }
    ExitCode::from(run.exit_code())
}
