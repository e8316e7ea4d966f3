//! Wrong variants of the specs that extend the papers' results past one period or to results
//! that had no spec (issue "every result as printed"): each spec is checked with one value of
//! its statement changed, and the changed claim must be refuted with a counterexample, so the
//! spec can fail.

use std::path::PathBuf;
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Checks `spec` with `from` replaced by `to`; returns (exit code, output).
fn check_variant(spec: &str, from: &str, to: &str) -> (Option<i32>, String) {
    let body = std::fs::read_to_string(root().join(spec)).expect("the spec");
    assert!(body.contains(from), "{spec} has no `{from}`");
    let dir = tempfile::tempdir().expect("a temp dir");
    let name = std::path::Path::new(spec).file_name().expect("a file name");
    let path = dir.path().join(name);
    std::fs::write(&path, body.replace(from, to)).expect("write");
    let o = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .current_dir(root())
        .args(["check", path.to_str().expect("utf-8")])
        .output()
        .expect("grundy runs");
    let t = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    (o.status.code(), t)
}

fn refuted(spec: &str, from: &str, to: &str, counterexample: &str) {
    let (code, t) = check_variant(spec, from, to);
    assert_eq!(code, Some(1), "{spec} with `{to}`: {t}");
    assert!(t.contains(counterexample), "{spec} with `{to}`: {t}");
}

#[test]
fn thm_5_24_past_one_period_variant_is_refuted() {
    // n = 32 is P (DC(28) = 0); n = 30 is N. The first disagreement is at n = 30 (p = 26).
    refuted(
        "specs/paper000/thm_5_24_all_n.yaml",
        "[8, 12, 24, 28, 32]",
        "[8, 12, 24, 28, 30]",
        "p=26: DC(26): claimed P, computed N",
    );
    // Dropping the exceptional n = 38 (nim(DC(34)) = 0, inside the preperiod of 52)
    // is refuted at n = 38 itself, which only the reductions reach.
    refuted(
        "specs/paper000/thm_5_24_all_n.yaml",
        "n == 18 || n == 38 ||",
        "n == 18 ||",
        "p=34: DC(34): claimed N, computed P",
    );
}

#[test]
fn thm_5_29_past_one_period_variant_is_refuted() {
    refuted(
        "specs/paper000/thm_5_29_all_n.yaml",
        "25, 26, 30, 31]",
        "25, 26, 30, 32]",
        "p=27: DC(27) + *1: claimed N, computed P",
    );
}

#[test]
fn thm_5_43_on_spl_variant_is_refuted() {
    refuted(
        "specs/paper000/thm_5_43_spl.yaml",
        r#"{ when: "d == 1", value: 2 }"#,
        r#"{ when: "d == 1", value: 1 }"#,
        "m=3, n=4: SPL(3,4): claimed *1, computed *2",
    );
}
