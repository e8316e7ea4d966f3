//! `grundy check` (check specs, print a line per spec) and `grundy build` (the main job):
//! argument handling and printing only; the work is [`crate::pipeline`].

use super::count;
use crate::check::{Report, Verdict};
use crate::pipeline::{self, BuildOptions, Run, Selection};
use crate::term::{errln, out, outln};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

fn print_report(r: &Report) {
    let what = if r.positions != r.instances {
        format!(
            "{}, {}",
            count(r.instances, "instance"),
            count(r.positions, "position")
        )
    } else {
        count(r.instances, "instance")
    };
    outln!(
        "{:<10} {:<32} {what}, {}: {}  ({:.2} s)",
        r.source,
        r.id,
        r.range,
        pipeline::verdict_line(r),
        r.seconds
    );
    if let Verdict::Refuted { counterexample } = &r.verdict {
        outln!("    counterexample: {counterexample}");
    }
    if !r.rests_on.is_empty() {
        let on: Vec<String> = r
            .rests_on
            .iter()
            .map(crate::check::premises::describe)
            .collect();
        outln!("    resting on {}", on.join("; "));
    }
    if let Some(c) = &r.companion {
        let how = if c.link == "read_as" {
            "the reading meant"
        } else {
            "corrected by"
        };
        outln!("    {how}: {}", crate::check::premises::describe(c));
    }
}

/// Every bad input of a run, after the verdicts, so that none hides another.
fn print_errors(run: &mut Run, json: bool) {
    for e in std::mem::take(&mut run.errors) {
        errln!("{:?}", miette::Report::new(e));
    }
    for s in &run.specs {
        if let Err(e) = &s.result {
            if json {
                errln!("error: {e}");
                continue;
            }
            outln!("{:<10} {:<32} BAD INPUT", s.spec.body.source(), s.spec.id());
            match check_diagnostic(e) {
                Some(d) => errln!("{d:?}"),
                None => errln!("error: {e}"),
            }
        }
    }
}

/// A check error as a diagnostic: the spec's line with a caret at the field, or at the token a
/// formula's error names by rhai's position ("(line 1, position 8)"), so the location is said
/// once. `None` when the spec file cannot be read again (it is then printed as plain text).
fn check_diagnostic(e: &crate::check::CheckError) -> Option<miette::Report> {
    let path = Path::new(&e.loc.file);
    let text = crate::files::read_regular_text(path, crate::spec::MAX_SPEC_BYTES).ok()?;
    let line_start: usize = text
        .split_inclusive('\n')
        .take((e.loc.line as usize).checked_sub(1)?)
        .map(str::len)
        .sum();
    let line = text[line_start..].split('\n').next()?;
    let col = (e.loc.column as usize).checked_sub(1)?;
    let field = line_start + line.char_indices().nth(col).map_or(line.len(), |(b, _)| b);
    let (message, at) = match rhai_position(&e.message) {
        Some((msg, p)) => match token_offset(&text, field, &e.message, p) {
            Some(at) => (msg, at),
            None => (e.message.clone(), field),
        },
        None => (e.message.clone(), field),
    };
    let diag = miette::MietteDiagnostic::new(message)
        .with_label(miette::LabeledSpan::at_offset(at, "here"));
    Some(miette::Report::new(diag).with_source_code(miette::NamedSource::new(&e.loc.file, text)))
}

/// rhai's ` (line 1, position P)` taken out of a message: the message without it, and P.
fn rhai_position(message: &str) -> Option<(String, usize)> {
    let start = message.find(" (line 1, position ")?;
    let rest = &message[start + " (line 1, position ".len()..];
    let end = rest.find(')')?;
    let p: usize = rest[..end].parse().ok()?;
    Some((format!("{}{}", &message[..start], &rest[end + 1..]), p))
}

/// The byte offset of the formula's `p`-th character (1-based), the formula written at `field`
/// on one line, quoted or plain. Only when the name rhai complains of is found there: formulas
/// grundy composes from several fields have positions that are not the spec's.
fn token_offset(text: &str, field: usize, message: &str, p: usize) -> Option<usize> {
    let quoted = matches!(text[field..].chars().next(), Some('"' | '\''));
    let skip = usize::from(quoted) + p.checked_sub(1)?;
    let at = field + text[field..].char_indices().nth(skip)?.0;
    let name = ["Variable not found: ", "Function not found: "]
        .iter()
        .find_map(|k| message.find(k).map(|i| &message[i + k.len()..]))?;
    let name: String = name
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    let line_end = text[field..].find('\n').map_or(text.len(), |i| field + i);
    (!name.is_empty() && at < line_end && text[at..].starts_with(&name)).then_some(at)
}

fn summary_line(run: &Run) -> String {
    let reports: Vec<&Report> = run.checked().map(|(_, c)| &c.report).collect();
    let s = pipeline::summary(reports.iter().copied());
    let bad = run.errors.len() + run.check_errors().count();
    // A spec that could not be read or checked is still one of the specs ("1 spec: … 1 bad input").
    let mut line = format!(
        "{}: {} as expected, {} not",
        count((s.specs + bad) as u64, "spec"),
        s.as_expected,
        s.unexpected
    );
    if bad > 0 {
        line.push_str(&format!(", {bad} bad input"));
    }
    line
}

/// The default folder `specs` is absent: the user is outside a project.
fn outside_project(paths: &[&Path]) -> bool {
    paths.len() == 1 && paths[0] == Path::new("specs") && !paths[0].exists()
}

const OUTSIDE: &str =
    "error: no specs/ folder here (run `grundy init DIR` to start a project, or name spec files)";

/// The selection of a whole run: the main tier, or with `--long` every tier.
fn tier(long: bool) -> Selection {
    if long {
        Selection::AllWithLong
    } else {
        Selection::All
    }
}

/// A notice (stderr, so the summary stays the last line of stdout) naming the specs of
/// `tier: long` the run left out.
fn notice_skipped(run: &Run) {
    run.notices().iter().for_each(|n| eprintln!("notice: {n}"));
    if run.skipped_long.is_empty() {
        return;
    }
    let ids: Vec<&str> = run.skipped_long.iter().map(|s| s.id()).collect();
    errln!(
        "notice: {} specs of tier long not checked (run with --long): {}",
        ids.len(),
        ids.join(", ")
    );
}

pub fn check(paths: &[PathBuf], json: bool, explain: bool, long: bool) -> ExitCode {
    if outside_project(&paths.iter().map(PathBuf::as_path).collect::<Vec<_>>()) {
        errln!("{OUTSIDE}");
        return ExitCode::from(2);
    }
    let mut run = pipeline::check(paths, &tier(long));
    notice_skipped(&run);
    if explain && !json {
        for (s, c) in run.checked() {
            if let Some(text) = s.body.explain(c) {
                out!("{text}");
            }
        }
    }
    let reports: Vec<&Report> = run.checked().map(|(_, c)| &c.report).collect();
    if json {
        // Specs that could not be checked are listed too, in their place, as "bad input".
        let bad: Vec<Option<Report>> = run
            .specs
            .iter()
            .map(|s| {
                let e = s.result.as_ref().err()?;
                let b = &s.spec.body;
                Some(Report::bad_input(
                    s.spec.id(),
                    b.kind(),
                    b.source(),
                    b.file(),
                    e,
                ))
            })
            .collect();
        let s = pipeline::summary(run.specs.iter().zip(&bad).filter_map(|(s, b)| {
            b.as_ref()
                .or_else(|| s.result.as_ref().ok().map(|c| &c.report))
        }));
        match serde_json::to_string_pretty(&s) {
            Ok(t) => outln!("{t}"),
            Err(e) => errln!("error: {e}"),
        }
    } else {
        for r in &reports {
            print_report(r);
        }
        // The diagnostics before the summary, which stays the last line.
        let secs: f64 = reports.iter().map(|r| r.seconds).fold(0.0, |a, b| a + b);
        let line = summary_line(&run);
        let code = run.exit_code();
        print_errors(&mut run, json);
        outln!("{line} ({secs:.2} s)");
        return ExitCode::from(code);
    }
    let code = run.exit_code();
    print_errors(&mut run, json);
    ExitCode::from(code)
}

pub fn build(
    specs: &Path,
    templates: Option<&Path>,
    out: &Path,
    only: Option<String>,
    long: bool,
) -> ExitCode {
    if outside_project(&[specs]) {
        errln!("{OUTSIDE}");
        return ExitCode::from(2);
    }
    if specs.is_file() {
        errln!(
            "error: --specs takes the folder of all specs ({}); to rebuild one spec, use --only <spec id or figure number>",
            specs.display()
        );
        return ExitCode::from(2);
    }
    let t0 = std::time::Instant::now();
    let mut code = 0;
    if long {
        // The long tier first: its record is what the build below shows.
        let (mut run, recorded) = pipeline::long_tier::record(specs, out);
        let record = out
            .join(pipeline::output::RECORDED)
            .join(pipeline::long_tier::FILE);
        code = finish(
            &mut run,
            "long tier: ",
            recorded.map(|n| {
                format!(
                    "; recorded {n} reports in {} ({:.2} s)",
                    record.display(),
                    t0.elapsed().as_secs_f64()
                )
            }),
        );
        if code == 2 {
            return ExitCode::from(2);
        }
    }
    let opts = BuildOptions {
        specs: specs.to_path_buf(),
        templates: templates.map(Path::to_path_buf),
        output: out.to_path_buf(),
        selection: only.map_or(Selection::All, Selection::Only),
    };
    let t1 = std::time::Instant::now();
    let (mut run, written) = pipeline::build(&opts);
    notice_skipped(&run);
    // What a missing system tool kept out of the build, listed once.
    if let Some(skipped) = crate::render::dot::skipped_report() {
        if crate::render::dot::dot_available() {
            errln!("notice: some artifacts were not made\n{skipped}");
        } else {
            errln!(
                "notice: Graphviz `dot` is not installed: SVGs come from the layout-rs fallback\n{skipped}"
            );
        }
    }
    let built = finish(
        &mut run,
        "",
        written.map(|n| {
            format!(
                "; wrote {n} files to {} ({:.2} s)",
                out.display(),
                t1.elapsed().as_secs_f64()
            )
        }),
    );
    // The worst of the two runs (2 bad input, 1 an unexpected verdict, 0 all as expected).
    ExitCode::from(code.max(built))
}

/// Prints a run's reports and errors, then its summary line (after `prefix`) with `done`'s
/// tail, or the error that kept it from being written (exit 2); returns the exit code.
fn finish<E: std::fmt::Display>(run: &mut Run, prefix: &str, done: Result<String, E>) -> u8 {
    for (_, c) in run.checked() {
        print_report(&c.report);
    }
    let code = run.exit_code();
    let line = summary_line(run);
    print_errors(run, false);
    match done {
        Ok(tail) => {
            outln!("{prefix}{line}{tail}");
            code
        }
        Err(e) => {
            outln!("{prefix}{line}");
            errln!("error: {e}");
            2
        }
    }
}
