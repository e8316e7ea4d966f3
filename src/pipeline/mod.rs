//! The build pipeline, one pass down the layers: **load** the specs (stage one and two of the
//! reader, in parallel) → **resolve** the references between them (diagram sinks that name
//! other diagrams, looked up next to the referring spec when not loaded) → **check** every spec
//! (in parallel, dependencies first, results in the order of the input) → **render** every
//! artifact in memory → **write** them into `output/` in one transaction ([`output`]).
//!
//! The CLI calls [`check`] or [`build`] in a line. Specs are seen only through
//! [`SpecKind`](crate::check::kind::SpecKind): nothing here knows the kinds.
//!
//! One bad spec never hides the others: every load error, every spec that cannot be checked
//! (bad input) and every refutation is reported, and the exit code is the worst of them.

// Spec errors carry their source text for snippets; they are rare, so their size is no cost.
#![allow(clippy::result_large_err)]

pub mod certificates;
pub mod contents;
pub mod long_tier;
pub use crate::files;
pub mod output;

/// Artifacts in memory: paths relative to `output/` and their bytes.
pub type Files = Vec<(PathBuf, Vec<u8>)>;

use crate::check::kind::{Checked, Context};
use crate::check::{CertifiedReport, CheckError, Loc, Report, Verdict};
use crate::kinds::load_file;
use crate::render::{RenderError, Renderer};
use crate::spec::{collect_files, Spec, SpecError};
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Reads every spec under `paths` (files, or folders searched recursively), in parallel.
/// Every error is collected, so that one run shows them all.
pub fn load(paths: &[PathBuf]) -> (Vec<Spec>, Vec<SpecError>) {
    let files = match collect_files(paths) {
        Ok(f) => f,
        Err(e) => {
            let names: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
            return (
                Vec::new(),
                vec![SpecError::whole_file(
                    &names.join(", "),
                    format!("cannot list specs: {e}"),
                )],
            );
        }
    };
    // Game specs first (issue 45): the others may name their games and closures.
    let mut errors = crate::kinds::game::register_near(&files);
    let loaded: Vec<Result<Spec, SpecError>> = files.par_iter().map(|f| load_file(f)).collect();
    let mut specs = Vec::new();
    for r in loaded {
        match r {
            Ok(s) => specs.push(s),
            Err(e) => errors.push(e),
        }
    }
    (specs, errors)
}

/// The specs of a run after resolution: the ones asked for, then the diagrams they refer to
/// that were not asked for (checked, but not reported or rendered).
pub struct Resolved {
    pub specs: Vec<Spec>,
    pub requested: usize,
}

/// Two specs with one id would share a report entry and a diagram reference: refused, naming
/// both files. Referenced diagrams that were not loaded are read from `<id>.yaml` next to the
/// specs that were.
pub fn resolve(specs: Vec<Spec>) -> (Resolved, Vec<SpecError>) {
    let mut errors = Vec::new();
    let mut by_id: BTreeMap<String, String> = BTreeMap::new();
    let mut keep = Vec::new();
    for s in specs {
        match by_id.get(s.id()) {
            Some(other) => errors.push(SpecError::whole_file(
                s.body.file(),
                format!(
                    "spec id `{}` is also the id of {other}: ids (file stems) must be unique in a run",
                    s.id()
                ),
            )),
            None => {
                by_id.insert(s.id().to_string(), s.body.file().to_string());
                keep.push(s);
            }
        }
    }
    let requested = keep.len();
    let mut dirs: Vec<PathBuf> = Vec::new();
    for s in &keep {
        if let Some(d) = Path::new(s.body.file()).parent() {
            if !dirs.contains(&d.to_path_buf()) {
                dirs.push(d.to_path_buf());
            }
        }
    }
    // Premises (`uses:`) and companions (`corrected_by:`, `read_as:`) are looked up in the
    // whole specs folder of the referring spec, so that `check` of one file and `build` of
    // the folder decide the same (docs/design.md §2).
    let mut folders = SpecsFolders::default();
    let mut i = 0;
    while i < keep.len() {
        let s = &keep[i];
        let mut wanted: Vec<(String, bool)> = s
            .body
            .references()
            .into_iter()
            .map(|r| (r, false))
            .collect();
        wanted.extend(s.header.uses.iter().map(|u| (u.clone(), true)));
        wanted.extend(
            s.header
                .companion
                .iter()
                .map(|c| (c.id().to_string(), true)),
        );
        let file = s.body.file().to_string();
        for (r, premise) in wanted {
            if by_id.contains_key(&r) {
                continue;
            }
            let found = dirs
                .iter()
                .map(|d| d.join(format!("{r}.yaml")))
                .find(|p| p.is_file())
                .or_else(|| premise.then(|| folders.find(&file, &r)).flatten());
            if let Some(path) = found {
                // A premise from a folder not read so far may name games and closures
                // defined by the game specs beside it (issue 45): those are registered
                // first, as `load` registers the ones beside the specs it reads.
                if path.parent().is_some_and(|d| !dirs.iter().any(|x| x == d)) {
                    errors.extend(crate::kinds::game::register_near(std::slice::from_ref(
                        &path,
                    )));
                }
                match load_file(&path) {
                    Ok(s) => {
                        by_id.insert(r.clone(), s.body.file().to_string());
                        if let Some(d) = path.parent() {
                            if !dirs.contains(&d.to_path_buf()) {
                                dirs.push(d.to_path_buf());
                            }
                        }
                        keep.push(s);
                    }
                    Err(e) => errors.push(e),
                }
            }
            // A reference found nowhere is reported by the referring spec's check.
        }
        i += 1;
    }
    (
        Resolved {
            specs: keep,
            requested,
        },
        errors,
    )
}

/// The `.yaml` files of the specs folders met so far, by file stem: the folder of a spec is
/// its nearest ancestor named `specs`, else the `specs` folder of its nearest ancestor that
/// has one (a mutant under `tests/mutants/` rests on the specs in `specs/`), else its own
/// folder.
#[derive(Default)]
struct SpecsFolders {
    by_root: HashMap<PathBuf, HashMap<String, PathBuf>>,
}

impl SpecsFolders {
    fn root_of(file: &str) -> Option<PathBuf> {
        let dir = Path::new(file).parent()?;
        if let Some(a) = dir
            .ancestors()
            .find(|a| a.file_name().is_some_and(|n| n == "specs"))
        {
            return Some(a.to_path_buf());
        }
        dir.ancestors()
            .map(|a| a.join("specs"))
            .find(|s| s.is_dir())
            .or_else(|| Some(dir.to_path_buf()))
    }

    fn find(&mut self, file: &str, id: &str) -> Option<PathBuf> {
        let root = Self::root_of(file)?;
        let files = self.by_root.entry(root.clone()).or_insert_with(|| {
            let mut m = HashMap::new();
            for f in collect_files(std::slice::from_ref(&root)).unwrap_or_default() {
                if let Some(stem) = f.file_stem().and_then(|s| s.to_str()) {
                    m.entry(stem.to_string()).or_insert(f.clone());
                }
            }
            m
        });
        files.get(id).cloned()
    }
}

/// How long each spec's references chain is (0: refers to nothing), or the cycle it is on.
fn depths(specs: &[Spec]) -> Vec<Result<usize, String>> {
    let index: HashMap<&str, usize> = specs.iter().enumerate().map(|(i, s)| (s.id(), i)).collect();
    let mut memo: Vec<Option<Result<usize, String>>> = vec![None; specs.len()];
    fn go(
        i: usize,
        specs: &[Spec],
        index: &HashMap<&str, usize>,
        memo: &mut Vec<Option<Result<usize, String>>>,
        path: &mut Vec<usize>,
    ) -> Result<usize, String> {
        if let Some(d) = &memo[i] {
            return d.clone();
        }
        if let Some(at) = path.iter().position(|&j| j == i) {
            let mut names: Vec<&str> = path[at..].iter().map(|&j| specs[j].id()).collect();
            names.push(specs[i].id());
            return Err(format!(
                "diagram references form a cycle: {}",
                names.join(" -> ")
            ));
        }
        path.push(i);
        let mut d = Ok(0);
        for r in specs[i].body.references() {
            if let Some(&j) = index.get(r.as_str()) {
                match go(j, specs, index, memo, path) {
                    Ok(k) => d = d.map(|x: usize| x.max(k + 1)),
                    Err(e) => {
                        d = Err(e);
                        break;
                    }
                }
            }
        }
        path.pop();
        memo[i] = Some(d.clone());
        d
    }
    (0..specs.len())
        .map(|i| go(i, specs, &index, &mut memo, &mut Vec::new()))
        .collect()
}

/// Checks every spec of a resolution, dependencies first, independent specs in parallel.
/// A spec starts as soon as the specs it refers to are done (not when a whole level of them
/// is), so the diagrams that rest on others do not wait for the slowest claim. The results are
/// in the order of `resolved.specs`, whatever the number of threads. With `certify`, each
/// spec's certificate is made in the same task, right after its check (it needs only the
/// spec's own references, which its check had).
pub fn check_all(resolved: &Resolved, certify: bool) -> Vec<Result<Checked, CheckError>> {
    let specs = &resolved.specs;
    let depth = depths(specs);
    let bar = ProgressBar::new(specs.len() as u64);
    if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} {msg}") {
        bar.set_style(style);
    }
    let index: HashMap<&str, usize> = specs.iter().enumerate().map(|(i, s)| (s.id(), i)).collect();
    // The loaded specs each spec refers to (a reference to no loaded spec is reported by the
    // referring spec's own check), and the reverse.
    let refs: Vec<Vec<usize>> = specs
        .iter()
        .map(|s| {
            let mut r: Vec<usize> = s
                .body
                .references()
                .iter()
                .filter_map(|r| index.get(r.as_str()).copied())
                .collect();
            r.sort_unstable();
            r.dedup();
            r
        })
        .collect();
    let mut dependents: Vec<Vec<usize>> = vec![Vec::new(); specs.len()];
    for (i, rs) in refs.iter().enumerate() {
        if depth[i].is_ok() {
            for &j in rs {
                dependents[j].push(i);
            }
        }
    }
    let results: Vec<std::sync::OnceLock<Result<Checked, CheckError>>> = (0..specs.len())
        .map(|_| std::sync::OnceLock::new())
        .collect();
    for (i, d) in depth.iter().enumerate() {
        if let Err(cycle) = d {
            let _ = results[i].set(Err(CheckError {
                loc: Loc {
                    file: specs[i].body.file().to_string(),
                    line: 0,
                    column: 0,
                },
                message: cycle.clone(),
            }));
        }
    }
    // Specs on no cycle refer only to specs on no cycle (depths propagate cycles).
    let waiting: Vec<std::sync::atomic::AtomicUsize> = refs
        .iter()
        .map(|r| std::sync::atomic::AtomicUsize::new(r.len()))
        .collect();
    struct Shared<'a> {
        specs: &'a [Spec],
        refs: &'a [Vec<usize>],
        dependents: &'a [Vec<usize>],
        waiting: &'a [std::sync::atomic::AtomicUsize],
        results: &'a [std::sync::OnceLock<Result<Checked, CheckError>>],
        bar: &'a ProgressBar,
        certify: bool,
    }
    fn run<'s>(i: usize, sh: &'s Shared<'s>, scope: &rayon::Scope<'s>) {
        let s = &sh.specs[i];
        let mut ctx = Context {
            certify: sh.certify,
            ..Context::default()
        };
        let mut failed = None;
        for &j in &sh.refs[i] {
            let r = sh.specs[j].id();
            match sh.results[j].get() {
                Some(Ok(c)) => {
                    if let Some(f) = &c.family {
                        ctx.families.insert(r.to_string(), f.clone());
                    }
                }
                Some(Err(e)) => {
                    failed = Some(CheckError {
                        loc: e.loc.clone(),
                        message: format!(
                            "{} rests on diagram `{r}`, which cannot be checked: {}",
                            s.id(),
                            e.message
                        ),
                    });
                    break;
                }
                None => {}
            }
        }
        let result = match failed {
            Some(e) => Err(e),
            None => {
                sh.bar.set_message(s.id().to_string());
                // Relative `file:` graphs are read from the spec's folder.
                crate::graph::io::in_folder_of(s.body.file(), || {
                    let mut r = s.body.check(&ctx);
                    if sh.certify {
                        if let Ok(c) = &mut r {
                            let made = certificates::make(s, c, &ctx);
                            c.certificate = Some(Arc::new(made));
                            // What the check kept for its certificate is no longer needed.
                            c.kept = None;
                        }
                    }
                    r
                })
            }
        };
        sh.bar.inc(1);
        let _ = sh.results[i].set(result);
        for &d in &sh.dependents[i] {
            if sh.waiting[d].fetch_sub(1, std::sync::atomic::Ordering::AcqRel) == 1 {
                scope.spawn(move |sc| run(d, sh, sc));
            }
        }
    }
    let shared = Shared {
        specs,
        refs: &refs,
        dependents: &dependents,
        waiting: &waiting,
        results: &results,
        bar: &bar,
        certify,
    };
    let sh = &shared;
    rayon::scope(|scope| {
        // The long checks first, by the kinds' hints (rayon runs the last spawned first, and
        // the other threads steal from the front): a long check started last is the tail.
        let mut roots: Vec<usize> = (0..specs.len())
            .filter(|&i| depth[i].is_ok() && refs[i].is_empty())
            .collect();
        roots.sort_by_key(|&i| (specs[i].body.start_early(), std::cmp::Reverse(i)));
        for i in roots {
            scope.spawn(move |sc| run(i, sh, sc));
        }
    });
    bar.finish_and_clear();
    results
        .into_iter()
        .enumerate()
        .map(|(i, r)| {
            r.into_inner().unwrap_or_else(|| {
                Err(CheckError {
                    loc: Loc {
                        file: specs[i].body.file().to_string(),
                        line: 0,
                        column: 0,
                    },
                    message: "not checked".into(),
                })
            })
        })
        .collect()
}

/// What a run produced for one spec asked for.
pub struct SpecRun {
    pub spec: Spec,
    pub result: Result<Checked, CheckError>,
}

/// The results of `check`: every load error and every spec's result.
pub struct Run {
    pub errors: Vec<SpecError>,
    pub specs: Vec<SpecRun>,
    /// Start families of the diagrams checked only because a selected spec refers to them
    /// (`--only`): their certificates' sinks need them.
    pub dependencies: HashMap<String, Arc<crate::check::diagram::Family>>,
    /// Specs of `tier: long` left out of this run (no `--long`, not named by file or
    /// `--only`): listed in the index as not run by the main job (docs/design.md §2, tiers).
    pub skipped_long: Vec<Spec>,
}

impl Run {
    /// What the run did that its author may not have meant, for the command to print as
    /// notices: a figure spec without `output:` is checked (its stated families, map, play,
    /// classes) but drawn nowhere, where it used to pass in silence.
    pub fn notices(&self) -> Vec<String> {
        use crate::check::figure::{FigureBody, FigureSpec};
        self.specs
            .iter()
            .filter(|s| s.spec.outputs().is_empty())
            .filter_map(|s| {
                let f = s.spec.downcast::<FigureSpec>()?;
                let template = match f.figure.body {
                    FigureBody::Games { .. } => "gamegraph.dot",
                    FigureBody::Graph { .. } => "graph.dot",
                    FigureBody::Structure(_) => "structure.dot",
                };
                let id = s.spec.id();
                Some(format!(
                    "{id}: a figure without `output:` is checked but drawn nowhere; to draw it, add `output: [{{ template: {template}, path: <folder>/{id}.dot }}]`"
                ))
            })
            .collect()
    }

    /// 0 every verdict as expected, 1 some verdict not, 2 some input bad (the worst wins).
    pub fn exit_code(&self) -> u8 {
        if !self.errors.is_empty() || self.specs.iter().any(|s| s.result.is_err()) {
            2
        } else if self
            .specs
            .iter()
            .any(|s| s.result.as_ref().is_ok_and(|c| !c.report.as_expected))
        {
            1
        } else {
            0
        }
    }

    pub fn checked(&self) -> impl Iterator<Item = (&Spec, &Checked)> {
        self.specs
            .iter()
            .filter_map(|s| s.result.as_ref().ok().map(|c| (&s.spec, c)))
    }

    pub fn check_errors(&self) -> impl Iterator<Item = &CheckError> {
        self.specs.iter().filter_map(|s| s.result.as_ref().err())
    }
}

/// Which specs of a folder a run asks for.
#[derive(Clone, Debug, Default)]
pub enum Selection {
    /// Every spec of the main tier (specs with `tier: long` are left out unless named by
    /// their file).
    #[default]
    All,
    /// Every spec, the long tier included (`--long`).
    AllWithLong,
    /// `--only`: a spec id, or a figure number (`5.11`, `Fig 5.11`).
    Only(String),
}

impl Selection {
    fn selects(&self, s: &Spec) -> bool {
        match self {
            Selection::All | Selection::AllWithLong => true,
            Selection::Only(sel) => {
                let sel = sel.trim();
                if s.id() == sel {
                    return true;
                }
                let number = |t: &str| {
                    t.trim()
                        .trim_start_matches(|c: char| c.is_alphabetic() || c == '.')
                        .trim()
                        .to_string()
                };
                let want = number(sel);
                if want.is_empty() || !want.starts_with(|c: char| c.is_ascii_digit()) {
                    return false;
                }
                s.body.figure() == Some(want.as_str())
                    || (s.body.source().starts_with("Fig") && number(s.body.source()) == want)
            }
        }
    }
}

/// Load, resolve and check the specs under `paths`.
pub fn check(paths: &[PathBuf], selection: &Selection) -> Run {
    check_with(paths, selection, false)
}

/// [`check`], with each holding spec's certificate made as it is checked (for `build`).
pub fn check_certified(paths: &[PathBuf], selection: &Selection) -> Run {
    check_with(paths, selection, true)
}

fn check_with(paths: &[PathBuf], selection: &Selection, certify: bool) -> Run {
    let (specs, mut errors) = load(paths);
    let specs: Vec<Spec> = specs.into_iter().filter(|s| selection.selects(s)).collect();
    // The long tier runs with `--long`, with `--only`, or when its file is named itself.
    let named: Vec<PathBuf> = paths
        .iter()
        .filter(|p| p.is_file())
        .filter_map(|p| p.canonicalize().ok())
        .collect();
    let (specs, skipped_long): (Vec<Spec>, Vec<Spec>) = specs.into_iter().partition(|s| {
        !s.header.long
            || !matches!(selection, Selection::All)
            || Path::new(s.body.file())
                .canonicalize()
                .is_ok_and(|f| named.contains(&f))
    });
    let (resolved, more) = resolve(specs);
    errors.extend(more);
    let mut results = check_all(&resolved, certify);
    let nodes: Vec<crate::check::premises::Node> = resolved
        .specs
        .iter()
        .map(|s| crate::check::premises::Node {
            header: &s.header,
            body: s.body.as_ref(),
        })
        .collect();
    crate::check::premises::apply(&nodes, &mut results);
    let dependencies = resolved
        .specs
        .iter()
        .zip(&results)
        .skip(resolved.requested)
        .filter_map(|(s, r)| Some((s.id().to_string(), r.as_ref().ok()?.family.clone()?)))
        .collect();
    let specs = resolved
        .specs
        .into_iter()
        .zip(results)
        .take(resolved.requested)
        .map(|(spec, result)| SpecRun { spec, result })
        .collect();
    Run {
        errors,
        specs,
        dependencies,
        skipped_long,
    }
}

/// Summary of a run, for `--json` and for output/report.*.
#[derive(Serialize)]
pub struct Summary<'a> {
    /// The results: every spec but the sanity checks (`sanity:`).
    pub specs: usize,
    pub as_expected: usize,
    pub unexpected: usize,
    /// Specs that cannot fail on mathematical grounds (`sanity:`), not counted above; and how
    /// many of them failed all the same (a fault of the code).
    pub sanity_checks: usize,
    pub sanity_unexpected: usize,
    pub reports: Vec<CertifiedReport<'a>>,
    /// How many specs have each verdict of `grundy-verify` (certificates/VERIFIED.json).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub verified_counts: Vec<VerifiedCount>,
}

pub use crate::render::verdicts::{VerifiedCount, VerifierVerdicts};

/// Reads `<output>/certificates/VERIFIED.json` (a regular file of at most 16 MiB); none if it
/// is absent or unreadable (the report then says the verifier has not run).
pub fn read_verdicts(output: &Path) -> VerifierVerdicts {
    let path = output.join("certificates").join("VERIFIED.json");
    let ok = std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_file() && m.len() <= 16 << 20);
    ok.then(|| files::read_regular(&path, 16 << 20).ok())
        .flatten()
        .map(|b| VerifierVerdicts::from_json(&b))
        .unwrap_or_default()
}

pub fn summary<'a>(reports: impl IntoIterator<Item = &'a Report>) -> Summary<'a> {
    summary_with_certificates(reports.into_iter().map(|r| (r, None)))
}

/// The summary with each report's certificate status.
pub fn summary_with_certificates<'a>(
    reports: impl IntoIterator<Item = (&'a Report, Option<&'a str>)>,
) -> Summary<'a> {
    let reports: Vec<CertifiedReport> = reports
        .into_iter()
        .map(|(report, certificate)| CertifiedReport {
            report,
            certificate,
            verified: None,
            sanity: None,
            checked_as: String::new(),
        })
        .collect();
    let mut s = Summary {
        specs: 0,
        as_expected: 0,
        unexpected: 0,
        sanity_checks: 0,
        sanity_unexpected: 0,
        reports,
        verified_counts: Vec::new(),
    };
    s.count();
    s
}

impl Summary<'_> {
    /// Counts the results and, apart, the sanity checks (after their `sanity` is set).
    pub fn count(&mut self) {
        let (sanity, results): (Vec<&CertifiedReport>, Vec<&CertifiedReport>) =
            self.reports.iter().partition(|r| r.sanity.is_some());
        self.specs = results.len();
        self.as_expected = results.iter().filter(|r| r.as_expected).count();
        self.unexpected = self.specs - self.as_expected;
        self.sanity_checks = sanity.len();
        self.sanity_unexpected = sanity.iter().filter(|r| !r.as_expected).count();
    }
}

/// The writer every artifact's header names.
pub const TOOL: &str = concat!("grundy ", env!("CARGO_PKG_VERSION"));

/// The header every artifact carries (in the template's comment syntax).
#[derive(Serialize)]
struct Provenance<'a> {
    /// `grundy 0.1.0`: the version that wrote the artifact (no date: bytes stay reproducible).
    tool: &'static str,
    spec: &'a str,
    /// The sha256 of the spec file's bytes, as certificates record it.
    sha256: &'a str,
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
    /// "Fig 5.11 (Lemma 5.41)" for a figure that draws a numbered result.
    source: String,
    id: &'a str,
    kind: &'a str,
    verdict: &'a str,
    /// The verdict of `grundy-verify` (certificates/VERIFIED.json).
    verified: Option<&'a str>,
    paths: Vec<String>,
}

#[derive(Serialize)]
struct Index<'a> {
    entries: Vec<IndexEntry<'a>>,
    /// How many specs have each verdict of `grundy-verify`.
    verified_counts: Vec<VerifiedCount>,
    /// Every numbered item of the papers with its specs and verdicts (docs/contents).
    contents: &'a contents::ContentsView,
}

/// The order of the paper: by the word of the source ("Example", "Fig", "Thm"), then its
/// numbers compared as numbers (4.7 before 4.10, Thm 6 before Thm 16), then the id.
pub fn paper_order(source: &str, id: &str) -> (String, Vec<u64>, String, String) {
    let (word, num) = source.split_once(' ').unwrap_or((source, ""));
    let nums: Vec<u64> = num
        .split(|c: char| !c.is_ascii_digit())
        .filter(|x| !x.is_empty())
        .filter_map(|x| x.parse().ok())
        .collect();
    (word.to_string(), nums, num.to_string(), id.to_string())
}

/// The paper a spec belongs to: its first folder under the specs root (`paper000`).
pub fn paper_of(root: &Path, file: &str) -> String {
    let p = Path::new(file);
    let rel = p.strip_prefix(root).unwrap_or(p);
    let mut comps = rel.components();
    match (comps.next(), comps.next()) {
        (Some(first), Some(_)) => first.as_os_str().to_string_lossy().to_string(),
        _ => String::new(),
    }
}

fn verdict_word(r: &Report) -> &'static str {
    if r.verdict.holds() {
        "holds"
    } else {
        "refuted"
    }
}

/// Every artifact by the paper's numbering (Fig 2.1 before Fig 10.1).
fn artifact_index<'a>(
    entries: &[(&'a Spec, &'a Report)],
    contents: &'a contents::ContentsView,
    verified: &'a VerifierVerdicts,
) -> Index<'a> {
    let verified_counts = verified.counts(entries.iter().map(|(s, _)| s.id()));
    let mut entries: Vec<IndexEntry> = entries
        .iter()
        .filter(|(s, _)| !s.outputs().is_empty())
        .map(|(s, r)| IndexEntry {
            source: match s.body.figure() {
                Some(f) => format!("Fig {f} ({})", r.source),
                None => r.source.clone(),
            },
            id: s.id(),
            kind: &r.kind,
            verdict: verdict_word(r),
            verified: verified.by_id.get(s.id()).map(String::as_str),
            paths: s
                .outputs()
                .iter()
                .map(|o| o.path.display().to_string())
                .collect(),
        })
        .collect();
    entries.sort_by_cached_key(|e| paper_order(&e.source, e.id));
    Index {
        entries,
        verified_counts,
        contents,
    }
}

/// Renders the artifacts of one spec in memory.
fn render_spec(
    spec: &Spec,
    c: &Checked,
    renderer: &Renderer,
) -> Result<Vec<(PathBuf, Vec<u8>)>, RenderError> {
    let mut files = Vec::new();
    for o in spec.outputs() {
        let view = ArtifactView {
            provenance: Provenance {
                tool: TOOL,
                spec: &c.report.file,
                sha256: &spec.sha256,
                source: &c.report.source,
                range: &c.report.range,
                verdict: verdict_word(&c.report),
            },
            report: &c.report,
            view: c.view.as_ref(),
        };
        let text = renderer.render_output(&o.template, &view)?;
        if let Some(bytes) = crate::render::finish(&o.path, text)? {
            files.push((o.path.clone(), bytes));
        }
    }
    Ok(files)
}

/// Renders one template for a checked spec into an artifact's bytes (`grundy synthesize`
/// renders the diagram it wrote beside it).
pub fn render_one(
    c: &Checked,
    sha256: &str,
    renderer: &Renderer,
    template: &str,
    path: &Path,
) -> Result<Option<Vec<u8>>, RenderError> {
    let view = ArtifactView {
        provenance: Provenance {
            tool: TOOL,
            spec: &c.report.file,
            sha256,
            source: &c.report.source,
            range: &c.report.range,
            verdict: verdict_word(&c.report),
        },
        report: &c.report,
        view: c.view.as_ref(),
    };
    let text = renderer.render_output(template, &view)?;
    crate::render::finish(path, text)
}

/// Files the build writes for the whole run rather than for one spec.
pub const INDEX_FILES: &[&str] = &["README.md", "report.md", "report.json"];

/// Renders every artifact of the checked specs (in parallel; the order of the result is the
/// order of the specs), then the index and the report over `reports` (every spec of the
/// folder, including those not rechecked by `--only`, whose artifacts are in `previous`).
pub fn render_all(
    checked: &[(&Spec, &Checked)],
    index: &[(&Spec, &Report)],
    contents: &contents::ContentsView,
    previous: &Previous,
    renderer: &Renderer,
) -> Result<Vec<(PathBuf, Vec<u8>)>, RenderError> {
    let per_spec: Vec<Result<Files, RenderError>> = checked
        .par_iter()
        .map(|(s, c)| crate::graph::io::in_folder_of(s.body.file(), || render_spec(s, c, renderer)))
        .collect();
    let mut files = Vec::new();
    for r in per_spec {
        files.extend(r?);
    }
    // Certificates for the independent checker `grundy-verify` (crate::certify).
    let (certificates, status) = certificates::certificates(checked, &previous.families);
    files.extend(certificates);
    let mut status: HashMap<&str, &str> = checked
        .iter()
        .zip(&status)
        .map(|((s, _), st)| (s.id(), st.as_str()))
        .collect();
    for (id, st) in &previous.certificates {
        status.entry(id.as_str()).or_insert(st.as_str());
    }
    files.push((
        PathBuf::from("README.md"),
        renderer
            .render(
                "index.md",
                &artifact_index(index, contents, &previous.verified),
            )?
            .into_bytes(),
    ));
    let mut s = summary_with_certificates(
        index
            .iter()
            .map(|(spec, r)| (*r, status.get(spec.id()).copied())),
    );
    let sanity: HashMap<&str, &str> = index
        .iter()
        .filter_map(|(spec, _)| Some((spec.id(), spec.header.sanity.as_deref()?)))
        .collect();
    for r in &mut s.reports {
        r.verified = previous.verified.by_id.get(&r.id).map(String::as_str);
        r.sanity = sanity.get(r.id.as_str()).copied();
        r.checked_as = crate::render::html::checked_as_file(&r.kind, &r.file).join("; ");
    }
    s.count();
    // The verifier's counts are over the results; the sanity checks are not among them.
    s.verified_counts = previous.verified.counts(
        index
            .iter()
            .filter(|(spec, _)| spec.header.sanity.is_none())
            .map(|(spec, _)| spec.id()),
    );
    files.push((
        PathBuf::from("report.md"),
        renderer.render("report.md", &s)?.into_bytes(),
    ));
    files.push((
        PathBuf::from("report.json"),
        (serde_json::to_string_pretty(&s).map_err(|e| RenderError::Template {
            name: "report.json".into(),
            why: e.to_string(),
        })? + "\n")
            .into_bytes(),
    ));
    let views: HashMap<&str, Option<&serde_json::Value>> = checked
        .iter()
        .map(|(s, c)| (s.id(), c.view.as_ref()))
        .collect();
    // The galleries figures.tex and tables.tex, and the style file of the TikZ figures.
    let gallery: Vec<crate::render::gallery::Entry> = index
        .iter()
        .map(|(s, r)| crate::render::gallery::Entry {
            paths: s.outputs().iter().map(|o| o.path.clone()).collect(),
            source: r.source.clone(),
            view: views.get(s.id()).copied().flatten().cloned(),
            header: format!(
                "version {}; spec {}, sha256 {}",
                env!("CARGO_PKG_VERSION"),
                r.file,
                s.sha256
            ),
            checked_as: crate::render::html::checked_as_file(&r.kind, &r.file),
        })
        .collect();
    let mut all = files.clone();
    all.extend(previous.files.iter().cloned());
    let more = crate::render::gallery::artifacts(renderer, &all, &gallery)?;
    all.extend(more.iter().cloned());
    files.extend(more);
    // The browsable report (index.html, site/): every spec of `index`, with the view of those
    // checked in this run.
    let site = crate::render::html::SiteInput {
        entries: index
            .iter()
            .map(|(spec, report)| crate::render::html::Entry {
                spec,
                report,
                view: views.get(spec.id()).copied().flatten(),
                verified: previous.verified.by_id.get(spec.id()).map(String::as_str),
            })
            .collect(),
        written: &all,
        recorded: None,
    };
    let site = crate::render::html::site(&site, renderer)?;
    files.extend(site);
    Ok(files)
}

/// What a build keeps of the previous one when it rebuilds only some specs (`--only`): the
/// artifacts of the others and their certificate status.
#[derive(Default)]
pub struct Previous {
    pub files: Vec<(PathBuf, Vec<u8>)>,
    pub certificates: HashMap<String, String>,
    /// Families of diagrams checked in this run only as references of the rebuilt specs.
    pub families: HashMap<String, Arc<crate::check::diagram::Family>>,
    /// The verdicts of `grundy-verify` on the certificates (certificates/VERIFIED.json).
    pub verified: VerifierVerdicts,
}

/// What `grundy build` is asked to do.
#[derive(Clone, Debug)]
pub struct BuildOptions {
    pub specs: PathBuf,
    /// A templates folder; `None`: the templates compiled into the binary.
    pub templates: Option<PathBuf>,
    pub output: PathBuf,
    pub selection: Selection,
}

/// Why a build wrote nothing.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    #[error("bad input: nothing was written")]
    BadInput,
    #[error("no spec is selected by --only {0}")]
    NothingSelected(String),
    #[error(transparent)]
    Render(#[from] RenderError),
    #[error("bad input: {0}")]
    Contents(#[from] contents::ContentsError),
    #[error(transparent)]
    Output(#[from] output::OutputError),
}

/// The result of a build: the run, and how many files were written.
pub struct Built {
    pub run: Run,
    pub written: usize,
}

/// The main job: check, render, and write `output/` in one transaction. On bad input the run
/// is returned with the error and nothing is written.
/// [`build`] with a registry of one's own installed first ([`crate::registry::Registry`]).
pub fn build_with(
    registry: &crate::registry::Registry,
    opts: &BuildOptions,
) -> Result<(Run, Result<usize, BuildError>), String> {
    registry.install()?;
    Ok(build(opts))
}

pub fn build(opts: &BuildOptions) -> (Run, Result<usize, BuildError>) {
    let run = check_certified(std::slice::from_ref(&opts.specs), &opts.selection);
    if run.exit_code() == 2 {
        return (run, Err(BuildError::BadInput));
    }
    if run.specs.is_empty() {
        if let Selection::Only(s) = &opts.selection {
            let sel = s.clone();
            return (run, Err(BuildError::NothingSelected(sel)));
        }
    }
    let result = write_build(opts, &run);
    (run, result)
}

fn write_build(opts: &BuildOptions, run: &Run) -> Result<usize, BuildError> {
    let renderer = Renderer::load_or_embedded(opts.templates.as_deref())?;
    let checked: Vec<(&Spec, &Checked)> = run.checked().collect();
    // With --only, every other spec keeps its artifacts and its entry, read back from the
    // previous report.
    let (all_specs, previous_reports) = match &opts.selection {
        Selection::All | Selection::AllWithLong => (Vec::new(), Vec::new()),
        Selection::Only(_) => {
            let (all, errors) = load(std::slice::from_ref(&opts.specs));
            if !errors.is_empty() {
                return Err(BuildError::BadInput);
            }
            (all, output::previous_reports(&opts.output))
        }
    };
    let mut index: Vec<(&Spec, &Report)> = checked.iter().map(|(s, c)| (*s, &c.report)).collect();
    // The long tier left out of this run, as `grundy build --long` recorded it (for the very
    // spec files checked then; a spec changed since is listed as not run).
    let record = long_tier::Record::read(&opts.output);
    let recorded: Vec<(&Spec, &Report)> = run
        .skipped_long
        .iter()
        .filter_map(|s| Some((s, record.report_of(s)?)))
        .collect();
    index.extend(recorded.iter().copied());
    for s in &all_specs {
        if index.iter().any(|(t, _)| t.id() == s.id()) {
            continue;
        }
        if let Some((r, _)) = previous_reports.iter().find(|(r, _)| r.id == s.id()) {
            index.push((s, r));
        }
    }
    index.sort_by_cached_key(|(s, r)| {
        (
            paper_of(&opts.specs, &r.file),
            paper_order(&r.source, s.id()),
        )
    });
    // With --only, the artifacts of the other specs as the last build wrote them.
    let mut previous = Previous {
        files: all_specs
            .iter()
            .filter(|s| !checked.iter().any(|(t, _)| t.id() == s.id()))
            .flat_map(|s| s.outputs().iter())
            // With each artifact its caption file, which the gallery cannot write again
            // without the spec's view.
            .flat_map(|o| {
                let p = o.path.to_string_lossy();
                let stem = p
                    .strip_suffix(".tikz.tex")
                    .or_else(|| p.strip_suffix(".dot"))
                    .or_else(|| p.strip_suffix(".tex"));
                let caption = stem.map(|st| PathBuf::from(format!("{st}.caption.tex")));
                std::iter::once(o.path.clone()).chain(caption)
            })
            .filter_map(|path| {
                let bytes = files::read_regular(&opts.output.join(&path), 256 << 20).ok()?;
                Some((path, bytes))
            })
            .collect(),
        certificates: HashMap::new(),
        families: run.dependencies.clone(),
        verified: read_verdicts(&opts.output),
    };
    for (r, st) in &previous_reports {
        if let Some(st) = st {
            previous.certificates.insert(r.id.clone(), st.clone());
        }
    }
    for (s, _) in &recorded {
        previous
            .certificates
            .insert(s.id().to_string(), long_tier::STATUS.to_string());
    }
    // The long tier left out: by this run, or (with --only) by the build whose report the
    // other specs' entries come from.
    let mut skipped: Vec<&Spec> = run
        .skipped_long
        .iter()
        .filter(|s| !recorded.iter().any(|(t, _)| t.id() == s.id()))
        .collect();
    for s in &all_specs {
        if s.header.long && !index.iter().any(|(t, _)| t.id() == s.id()) {
            skipped.push(s);
        }
    }
    let contents = contents::view(&contents::dir_for(&opts.specs), &index, &skipped)?;
    let mut files = render_all(&checked, &index, &contents, &previous, &renderer)?;
    let keep: Vec<PathBuf> = match &opts.selection {
        Selection::All | Selection::AllWithLong => Vec::new(),
        // Artifacts (and report pages) of the specs not rebuilt stay as they are.
        Selection::Only(_) => {
            let others: Vec<&Spec> = all_specs
                .iter()
                .filter(|s| !checked.iter().any(|(t, _)| t.id() == s.id()))
                .collect();
            let pages: Vec<PathBuf> = others
                .iter()
                .map(|s| crate::render::html::page_path(s))
                .collect();
            files.retain(|(p, _)| !pages.contains(p));
            let certificates = others
                .iter()
                .map(|s| PathBuf::from(format!("certificates/{}.json", s.id())));
            // Their captions need their views (not computed in this run): kept as written.
            let captions: Vec<PathBuf> = others
                .iter()
                .flat_map(|s| s.outputs().iter())
                .filter_map(|o| {
                    let p = o.path.to_str()?;
                    p.strip_suffix(".dot").or(p.strip_suffix(".tikz.tex"))
                })
                .map(|stem| PathBuf::from(format!("{stem}.caption.tex")))
                .collect();
            files.retain(|(p, _)| !captions.contains(p));
            // The galleries, the report's front page and its plots are drawn from the views
            // of every spec, which only a full build computes: kept as the last full build
            // wrote them (rebuilding them from this run's views alone would drop the others'
            // captions and plots).
            let whole: Vec<PathBuf> = files
                .iter()
                .map(|(p, _)| p.clone())
                .filter(|p| {
                    p == Path::new("figures.tex")
                        || p == Path::new("tables.tex")
                        || p == Path::new("index.html")
                        || p.starts_with("site/plots")
                })
                .chain(previous_whole_build_files(&opts.output))
                .collect();
            files.retain(|(p, _)| !whole.contains(p));
            others
                .iter()
                .flat_map(|s| s.outputs().iter().map(|o| o.path.clone()))
                .chain(pages)
                .chain(certificates)
                .chain(captions)
                .chain(whole)
                .collect()
        }
    };
    let n = files.len();
    output::commit(&opts.output, files, &keep)?;
    Ok(n)
}

/// The plots of the report site written by the last full build (paths relative to output/).
fn previous_whole_build_files(output: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(output.join("site/plots"))
        .map(|d| {
            d.filter_map(|e| e.ok())
                .map(|e| PathBuf::from("site/plots").join(e.file_name()))
                .collect()
        })
        .unwrap_or_default()
}

impl SpecError {
    /// An error about a whole file (no line to point at).
    pub fn whole_file(file: &str, message: String) -> SpecError {
        SpecError {
            file: file.to_string(),
            line: 0,
            column: 0,
            message,
            src: miette::NamedSource::new(file, String::new()),
            span: None,
            label: String::new(),
            help: None,
        }
    }
}

/// The verdict with the parts excused as unreached, for terminal lines and the report:
/// "holds; 1 of 5 cases excused as unreached".
pub fn verdict_line(r: &Report) -> String {
    let mut line = verdict_text(r).to_string();
    for extra in [&r.excused, &r.laws, &r.identity].into_iter().flatten() {
        line.push_str("; ");
        line.push_str(extra);
    }
    line
}

/// A holds/refuted word with the expectation, for terminal lines.
pub fn verdict_text(r: &Report) -> &'static str {
    match (&r.verdict, r.as_expected) {
        (Verdict::Holds, true) => "holds",
        (Verdict::Holds, false) => "HOLDS (expected refuted)",
        (Verdict::Refuted { .. }, true) => "refuted (as expected)",
        (Verdict::Refuted { .. }, false) => "REFUTED",
        (Verdict::BadInput { .. }, _) => "BAD INPUT",
    }
}
