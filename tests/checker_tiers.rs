//! Spec tiers (docs/design.md §2, tiers): a spec with `tier: long` is left out of the main job
//! and named on stderr, checked with `--long`, or when its file is named on the command line;
//! an unknown tier is bad input. The specs here are cheap stand-ins (TER on paths, Example
//! 4.11: nim(TER(P_n)) = 1 + pty(n)), so the test is about the selection, not the cost.

use std::path::Path;
use std::process::Command;

fn grundy(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(args)
        .output()
        .expect("grundy runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn spec(tier: &str, lo: u32, hi: u32) -> String {
    format!(
        "kind: claim\nsource: Example 4.11\nstatement: nim(TER(P_n)) = 1 + pty(n).\n{tier}game: TER(P_n)\nparams:\n  n: {lo}..={hi}\nnim: \"1 + pty(n)\"\n"
    )
}

fn project() -> tempfile::TempDir {
    let d = tempfile::tempdir().expect("a temp dir");
    let specs = d.path().join("specs");
    std::fs::create_dir(&specs).expect("specs/");
    std::fs::write(specs.join("main.yaml"), spec("", 2, 6)).expect("write");
    std::fs::write(specs.join("slow.yaml"), spec("tier: long\n", 7, 9)).expect("write");
    d
}

fn path(p: &Path) -> &str {
    p.to_str().expect("a utf-8 path")
}

#[test]
fn long_specs_are_left_out_of_the_main_job_and_named() {
    let d = project();
    let specs = d.path().join("specs");
    let (code, out, err) = grundy(&["check", path(&specs)]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("1 spec: 1 as expected"), "{out}");
    assert!(!out.contains("slow"), "{out}");
    assert!(
        err.contains("1 specs of tier long not checked (run with --long): slow"),
        "{err}"
    );
    let (code, out, err) = grundy(&["check", "--long", path(&specs)]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("2 specs: 2 as expected"), "{out}");
    assert!(!err.contains("not checked"), "{err}");
    // Named by its file: checked whatever its tier.
    let (code, out, _) = grundy(&["check", path(&specs.join("slow.yaml"))]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("slow") && out.contains("holds"), "{out}");
}

#[test]
fn a_long_spec_that_fails_is_refuted_when_run() {
    // The long tier is not an excuse: a wrong long spec fails the run that includes it.
    let d = project();
    let specs = d.path().join("specs");
    std::fs::write(
        specs.join("slow.yaml"),
        spec("tier: long\n", 7, 9).replace("1 + pty(n)", "2 - pty(n)"),
    )
    .expect("write");
    assert_eq!(grundy(&["check", path(&specs)]).0, 0);
    let (code, out, _) = grundy(&["check", "--long", path(&specs)]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("REFUTED"), "{out}");
}

#[test]
fn an_unknown_tier_is_bad_input() {
    let d = project();
    let f = d.path().join("specs/slow.yaml");
    std::fs::write(&f, spec("tier: slow\n", 7, 9)).expect("write");
    let (code, out, err) = grundy(&["check", path(&f)]);
    assert_eq!(code, 2, "{out}\n{err}");
    assert!(
        format!("{out}{err}").contains("unknown tier `slow`"),
        "{out}\n{err}"
    );
}

fn build(d: &Path, long: bool) -> (i32, String, String) {
    let (specs, out) = (d.join("specs"), d.join("output"));
    let mut args = vec!["build", "--specs", path(&specs), "--output", path(&out)];
    if long {
        args.push("--long");
    }
    grundy(&args)
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// `grundy build --long` records the long tier's reports (output/scale/long_tier.json, bound
/// to the spec file's sha256); every later build shows them, byte for byte as the `--long`
/// build did, until the spec file changes; a refuted long spec is recorded refuted.
#[test]
fn the_long_tier_is_recorded_and_shown_while_its_spec_is_unchanged() {
    let d = project();
    let root = d.path();
    let (code, out, err) = build(root, false);
    assert_eq!(code, 0, "{out}\n{err}");
    let report = read(&root.join("output/report.md"));
    assert!(!report.contains("`slow`"), "{report}");
    let (code, out, err) = build(root, true);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(
        out.contains("long tier: 1 spec: 1 as expected"),
        "{out}\n{err}"
    );
    let record = read(&root.join("output/scale/long_tier.json"));
    assert!(record.contains("\"id\": \"slow\""), "{record}");
    assert!(record.contains("\"range\": \"n in 7..=9\""), "{record}");
    let after_long = read(&root.join("output/report.json"));
    assert!(
        after_long.contains("tier long, recorded by"),
        "{after_long}"
    );
    // A plain build shows the record: the same report bytes as the --long build.
    let (code, out, err) = build(root, false);
    assert_eq!(code, 0, "{out}\n{err}");
    assert_eq!(read(&root.join("output/report.json")), after_long);
    assert!(root.join("output/site").exists());
    // The spec changed since: its recorded report is no longer shown.
    let slow = root.join("specs/slow.yaml");
    std::fs::write(&slow, spec("tier: long\n", 7, 10)).expect("write");
    let (code, out, err) = build(root, false);
    assert_eq!(code, 0, "{out}\n{err}");
    let report = read(&root.join("output/report.json"));
    assert!(!report.contains("\"id\": \"slow\""), "{report}");
    // A wrong long spec is recorded as refuted, and the companion exits 1.
    std::fs::write(
        &slow,
        spec("tier: long\n", 7, 9).replace("1 + pty(n)", "2 - pty(n)"),
    )
    .expect("write");
    let (code, out, err) = build(root, true);
    assert_eq!(code, 1, "{out}\n{err}");
    let record = read(&root.join("output/scale/long_tier.json"));
    assert!(record.contains("\"verdict\": \"refuted\""), "{record}");
    let report = read(&root.join("output/report.md"));
    assert!(report.contains("`slow`"), "{report}");
}

/// The record is written with the build's guards: not into a folder grundy does not own.
#[test]
fn the_long_tier_is_not_recorded_into_a_foreign_folder() {
    let d = project();
    let root = d.path();
    std::fs::create_dir(root.join("output")).expect("mkdir");
    std::fs::write(root.join("output/thesis.tex"), "mine").expect("write");
    let (code, out, err) = build(root, true);
    assert_eq!(code, 2, "{out}\n{err}");
    assert!(!root.join("output/scale").exists());
    assert_eq!(read(&root.join("output/thesis.tex")), "mine");
}
