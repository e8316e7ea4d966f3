//! `grundy check` (check specs, print a line per spec) and `grundy build` (check everything in
//! specs/ and write every artifact to output/, atomically and deterministically).

use crate::check::{CheckError, Report, Verdict};
use crate::render::{write_atomic, Renderer};
use crate::spec::{collect_files, load_file, Spec, SpecError, TableSpec};
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// What checking one spec produced: its report and the view its templates render (a table,
/// a diagram, a gamegraph…), already serialised.
pub struct Checked {
    pub report: Report,
    pub view: Option<serde_json::Value>,
}

fn view_of<T: Serialize>(v: &T) -> Option<serde_json::Value> {
    Some(serde_json::to_value(v).expect("views serialise"))
}

/// Reads every spec under `paths`. All errors are collected, so one run shows them all.
pub fn load_specs(paths: &[PathBuf]) -> Result<Vec<Spec>, Vec<SpecError>> {
    let files = collect_files(paths).map_err(|e| {
        vec![SpecError {
            file: paths
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", "),
            line: 0,
            column: 0,
            message: format!("cannot list specs: {e}"),
            src: miette::NamedSource::new("", String::new()),
            span: None,
            label: String::new(),
            help: None,
        }]
    })?;
    let mut specs = Vec::new();
    let mut errors = Vec::new();
    for f in files {
        match load_file(&f) {
            Ok(s) => specs.push(s),
            Err(e) => errors.push(e),
        }
    }
    if errors.is_empty() {
        Ok(specs)
    } else {
        Err(errors)
    }
}

fn check_one(spec: &Spec) -> Result<Checked, CheckError> {
    match spec {
        Spec::Diagram { .. } => {
            check_diagram(spec, &mut diagram_registry(std::slice::from_ref(spec)))
        }
        Spec::Table {
            table: TableSpec::Signatures(t),
            ..
        } => {
            let (report, view) = t.check()?;
            Ok(Checked {
                report,
                view: view_of(&view),
            })
        }
        Spec::Sequence { sequence, .. } => {
            let (report, view) = sequence.check()?;
            Ok(Checked {
                report,
                view: view_of(&view),
            })
        }
        Spec::Sets { sets, .. } => Ok(Checked {
            report: sets.check()?,
            view: None,
        }),
        Spec::Reduction { reduction, .. } => Ok(Checked {
            report: reduction.check()?,
            view: None,
        }),
        Spec::Figure {
            figure, closure, ..
        } => {
            let (report, view) = figure.compute(*closure)?;
            Ok(Checked {
                report,
                view: view_of(&view),
            })
        }
        Spec::Certificate { certificate, .. } => {
            let (report, view) = certificate.check()?;
            Ok(Checked {
                report,
                view: view.as_ref().and_then(view_of),
            })
        }
        Spec::Claim { claim, .. } => Ok(Checked {
            report: claim.check()?,
            view: None,
        }),
        Spec::Table {
            table: TableSpec::Values(t),
            ..
        } => {
            let t0 = std::time::Instant::now();
            let view = t.compute()?;
            let cells: u64 = view.rows.iter().map(|r| r.cells.len() as u64).sum();
            let report = Report {
                id: t.id.clone(),
                kind: "table".into(),
                source: t.source.clone(),
                file: t.file.clone(),
                instances: cells,
                positions: cells,
                range: view.range.clone(),
                expect: crate::check::Expectation::Holds,
                verdict: Verdict::Holds,
                as_expected: true,
                notes: None,
                seconds: t0.elapsed().as_secs_f64(),
            };
            Ok(Checked {
                report,
                view: view_of(&view),
            })
        }
    }
}

/// Every diagram spec, plus the diagram specs their sinks refer to that were not loaded
/// (looked up as `<id>.yaml` next to the referring spec), so that references resolve.
fn diagram_registry(specs: &[Spec]) -> crate::check::diagram::Registry {
    let mut reg = crate::check::diagram::Registry::new();
    let mut dirs = Vec::new();
    for s in specs {
        if let Spec::Diagram { diagram, .. } = s {
            if let Some(d) = Path::new(&diagram.file).parent() {
                dirs.push(d.to_path_buf());
            }
            reg.add(diagram.clone());
        }
    }
    loop {
        let mut added = false;
        for id in reg.missing() {
            for d in &dirs {
                if let Ok(Spec::Diagram { diagram, .. }) = load_file(&d.join(format!("{id}.yaml")))
                {
                    if let Some(p) = Path::new(&diagram.file).parent() {
                        dirs.push(p.to_path_buf());
                    }
                    reg.add(diagram);
                    added = true;
                    break;
                }
            }
        }
        if !added {
            return reg;
        }
    }
}

fn check_diagram(
    spec: &Spec,
    reg: &mut crate::check::diagram::Registry,
) -> Result<Checked, CheckError> {
    let c = reg.check(spec.id())?;
    Ok(Checked {
        report: c.report,
        view: view_of(&c.view),
    })
}

/// Checks all specs in order, with a progress bar on stderr when it is a terminal.
pub fn check_all(specs: &[Spec]) -> Result<Vec<Checked>, CheckError> {
    let mut diagrams = diagram_registry(specs);
    let bar = ProgressBar::new(specs.len() as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} {msg}")
            .expect("a valid progress template"),
    );
    let mut out = Vec::new();
    for s in specs {
        bar.set_message(s.id().to_string());
        out.push(match s {
            Spec::Diagram { .. } => check_diagram(s, &mut diagrams)?,
            _ => check_one(s)?,
        });
        bar.inc(1);
    }
    bar.finish_and_clear();
    Ok(out)
}

fn print_report(r: &Report) {
    let verdict = match (&r.verdict, r.as_expected) {
        (Verdict::Holds, true) => "holds",
        (Verdict::Holds, false) => "HOLDS (expected refuted)",
        (Verdict::Refuted { .. }, true) => "refuted (as expected)",
        (Verdict::Refuted { .. }, false) => "REFUTED",
    };
    let what = if r.positions != r.instances {
        format!("{} instances, {} positions", r.instances, r.positions)
    } else {
        format!("{} instances", r.instances)
    };
    println!(
        "{:<10} {:<32} {what}, {}: {verdict}  ({:.2} s)",
        r.source, r.id, r.range, r.seconds
    );
    if let Verdict::Refuted { counterexample } = &r.verdict {
        println!("    counterexample: {counterexample}");
    }
}

fn print_spec_errors(errors: Vec<SpecError>) -> ExitCode {
    for e in errors {
        eprintln!("{:?}", miette::Report::new(e));
    }
    ExitCode::from(2)
}

fn print_check_error(e: CheckError) -> ExitCode {
    eprintln!("error: {e}");
    ExitCode::from(2)
}

/// Summary of a run, for `--json` and for output/report.*.
#[derive(Serialize)]
pub struct Summary<'a> {
    pub specs: usize,
    pub as_expected: usize,
    pub unexpected: usize,
    pub reports: Vec<&'a Report>,
}

pub fn summary(checked: &[Checked]) -> Summary<'_> {
    let reports: Vec<&Report> = checked.iter().map(|c| &c.report).collect();
    let ok = reports.iter().filter(|r| r.as_expected).count();
    Summary {
        specs: reports.len(),
        as_expected: ok,
        unexpected: reports.len() - ok,
        reports,
    }
}

pub fn check(paths: &[PathBuf], json: bool, explain: bool) -> ExitCode {
    let specs = match load_specs(paths) {
        Ok(s) => s,
        Err(e) => return print_spec_errors(e),
    };
    let checked = match check_all(&specs) {
        Ok(c) => c,
        Err(e) => return print_check_error(e),
    };
    if explain && !json {
        for c in &checked {
            let view = c
                .view
                .clone()
                .and_then(|v| serde_json::from_value::<crate::check::diagram::DiagramView>(v).ok());
            if let (Some(v), "diagram") = (view, c.report.kind.as_str()) {
                print!("{}", crate::check::diagram::explain(&v));
            }
        }
    }
    let s = summary(&checked);
    if json {
        println!(
            "{}",
            serde_json::to_string_pretty(&s).expect("reports serialise")
        );
    } else {
        for r in &s.reports {
            print_report(r);
        }
        let secs: f64 = s.reports.iter().map(|r| r.seconds).sum();
        println!(
            "{} specs: {} as expected, {} not ({secs:.2} s)",
            s.specs, s.as_expected, s.unexpected
        );
    }
    if s.unexpected == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// The header every artifact carries (in the template's comment syntax).
#[derive(Serialize)]
struct Provenance<'a> {
    spec: &'a str,
    source: &'a str,
    range: &'a str,
    verdict: &'a str,
}

#[derive(Serialize)]
struct ArtifactView<'a> {
    provenance: Provenance<'a>,
    report: &'a Report,
    view: Option<&'a serde_json::Value>,
}

/// One line of output/README.md: a spec's artifacts under its numbered source.
#[derive(Serialize)]
struct IndexEntry<'a> {
    source: &'a str,
    id: &'a str,
    kind: &'a str,
    verdict: &'a str,
    paths: Vec<String>,
}

#[derive(Serialize)]
struct Index<'a> {
    entries: Vec<IndexEntry<'a>>,
}

/// Every artifact by the paper's numbering (Fig 2.1 before Fig 10.1), so that a newcomer
/// finds each figure by its number.
fn artifact_index<'a>(specs: &'a [Spec], checked: &'a [Checked]) -> Index<'a> {
    let mut entries: Vec<IndexEntry> = specs
        .iter()
        .zip(checked)
        .filter(|(s, _)| !s.outputs().is_empty())
        .map(|(s, c)| IndexEntry {
            source: &c.report.source,
            id: s.id(),
            kind: &c.report.kind,
            verdict: if c.report.verdict.holds() {
                "holds"
            } else {
                "refuted"
            },
            paths: s
                .outputs()
                .iter()
                .map(|o| o.path.display().to_string())
                .collect(),
        })
        .collect();
    let key = |e: &IndexEntry| {
        let (word, num) = e.source.split_once(' ').unwrap_or((e.source, ""));
        let nums: Vec<u64> = num
            .split(|c: char| !c.is_ascii_digit())
            .filter(|x| !x.is_empty())
            .filter_map(|x| x.parse().ok())
            .collect();
        (word.to_string(), nums, e.id.to_string())
    };
    entries.sort_by_key(key);
    Index { entries }
}

/// Renders every artifact in memory; nothing is written unless all render.
pub fn render_all(
    specs: &[Spec],
    checked: &[Checked],
    renderer: &Renderer,
) -> Result<Vec<(PathBuf, Vec<u8>)>, crate::render::RenderError> {
    let mut files = Vec::new();
    for (spec, c) in specs.iter().zip(checked) {
        let verdict = if c.report.verdict.holds() {
            "holds"
        } else {
            "refuted"
        };
        for o in spec.outputs() {
            let view = ArtifactView {
                provenance: Provenance {
                    spec: &c.report.file,
                    source: &c.report.source,
                    range: &c.report.range,
                    verdict,
                },
                report: &c.report,
                view: c.view.as_ref(),
            };
            let text = renderer.render(&o.template, &view)?;
            if let Some(bytes) = crate::render::finish(&o.path, text)? {
                files.push((o.path.clone(), bytes));
            }
        }
    }
    files.push((
        PathBuf::from("README.md"),
        renderer
            .render("index.md", &artifact_index(specs, checked))?
            .into_bytes(),
    ));
    let s = summary(checked);
    files.push((
        PathBuf::from("report.md"),
        renderer.render("report.md", &s)?.into_bytes(),
    ));
    files.push((
        PathBuf::from("report.json"),
        (serde_json::to_string_pretty(&s).expect("reports serialise") + "\n").into_bytes(),
    ));
    Ok(files)
}

pub fn build(specs_dir: &Path, templates: &Path, out: &Path) -> ExitCode {
    let specs = match load_specs(&[specs_dir.to_path_buf()]) {
        Ok(s) => s,
        Err(e) => return print_spec_errors(e),
    };
    let mut seen = std::collections::BTreeMap::new();
    for s in &specs {
        for o in s.outputs() {
            if let Some(other) = seen.insert(o.path.clone(), s.id().to_string()) {
                eprintln!(
                    "error: specs {other} and {} both write output/{}",
                    s.id(),
                    o.path.display()
                );
                return ExitCode::from(2);
            }
        }
    }
    let renderer = match Renderer::load(templates) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let t0 = std::time::Instant::now();
    let checked = match check_all(&specs) {
        Ok(c) => c,
        Err(e) => return print_check_error(e),
    };
    let files = match render_all(&specs, &checked, &renderer) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    for (path, text) in &files {
        if let Err(e) = write_atomic(&out.join(path), text) {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    }
    let s = summary(&checked);
    for r in &s.reports {
        print_report(r);
    }
    // What a missing system tool kept out of the build, listed once.
    if let Some(skipped) = crate::render::dot::skipped_report() {
        eprintln!("notice: Graphviz `dot` is not installed: SVGs come from the layout-rs fallback\n{skipped}");
    }
    println!(
        "{} specs: {} as expected, {} not; wrote {} files to {} ({:.2} s)",
        s.specs,
        s.as_expected,
        s.unexpected,
        files.len(),
        out.display(),
        t0.elapsed().as_secs_f64()
    );
    if s.unexpected == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
