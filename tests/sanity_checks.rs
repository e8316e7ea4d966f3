//! Sanity checks (docs/design.md §2, issue 47 item 8): a spec that cannot fail on mathematical
//! grounds says why in `sanity:`; it is checked like any other, but the report (report.md,
//! report.json, the site's index) marks it and leaves it out of the counts of results. An empty
//! reason, and a sanity check expected refuted, are bad input; a misspelt field is refused by
//! the spec reader's unknown-field check.

use std::path::Path;
use std::process::Command;

fn grundy(dir: &Path, args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("grundy runs");
    (
        out.status.code().unwrap_or(-1),
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    )
}

/// Example 4.11 as a result, and an arithmetic identity as a sanity check.
fn project(sanity: &str) -> tempfile::TempDir {
    let d = tempfile::tempdir().expect("a temp dir");
    let specs = d.path().join("specs").join("paper");
    std::fs::create_dir_all(&specs).expect("specs/");
    std::fs::write(
        specs.join("result.yaml"),
        "kind: claim\nsource: Example 4.11\ngame: TER(P_n)\nparams:\n  n: 2..=6\nnim: \"1 + pty(n)\"\n",
    )
    .expect("write");
    std::fs::write(
        specs.join("identity.yaml"),
        format!(
            "kind: claim\nsource: Thm 7\n{sanity}game: \"*0\"\nparams:\n  m: 1..=9\n  n: 1..=9\nwhere: \"gcd(2*m, n+1) != gcd(m, n+1)\"\nnim: \"if gcd(2*m, n+1) == 2 * gcd(m, n+1) {{ 0 }} else {{ 1 }}\"\n"
        ),
    )
    .expect("write");
    d
}

#[test]
fn a_sanity_check_is_shown_and_not_counted() {
    let d = project("sanity: an arithmetic identity\n");
    let (code, out) = grundy(d.path(), &["build"]);
    assert_eq!(code, 0, "{out}");
    let md = std::fs::read_to_string(d.path().join("output/report.md")).expect("report.md");
    assert!(md.contains("1 results: 1 as expected, 0 not."), "{md}");
    assert!(md.contains("1 sanity checks"), "{md}");
    assert!(
        md.contains("holds; *sanity check*: an arithmetic identity"),
        "{md}"
    );
    let json: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(d.path().join("output/report.json")).expect("report.json"),
    )
    .expect("json");
    assert_eq!(json["specs"], 1, "{json}");
    assert_eq!(json["sanity_checks"], 1, "{json}");
    let reports = json["reports"].as_array().expect("reports");
    let of = |id: &str| {
        reports
            .iter()
            .find(|r| r["id"] == id)
            .unwrap_or_else(|| panic!("{id} in {json}"))
    };
    assert_eq!(of("identity")["sanity"], "an arithmetic identity");
    assert!(of("result").get("sanity").is_none());
    let html = std::fs::read_to_string(d.path().join("output/index.html")).expect("index.html");
    assert!(html.contains("1 results checked"), "{html}");
    assert!(html.contains("sanity check, not counted"), "{html}");
}

#[test]
fn without_the_field_both_are_results() {
    let d = project("");
    let (code, out) = grundy(d.path(), &["build"]);
    assert_eq!(code, 0, "{out}");
    let md = std::fs::read_to_string(d.path().join("output/report.md")).expect("report.md");
    assert!(md.contains("2 results: 2 as expected, 0 not."), "{md}");
    assert!(!md.contains("sanity"), "{md}");
}

#[test]
fn an_empty_reason_or_an_expected_refutation_is_bad_input() {
    for (field, want) in [
        (
            "sanity: \"  \"\n",
            "`sanity` names why the spec cannot fail",
        ),
        (
            "sanity: an identity\nexpect: refuted\nbecause: erratum\n",
            "a sanity check cannot be expected refuted",
        ),
        ("sanity_check: yes\n", "sanity_check"),
    ] {
        let d = project(field);
        let (code, out) = grundy(d.path(), &["check", "specs"]);
        assert_eq!(code, 2, "{field}: {out}");
        assert!(out.contains(want), "{field}: {out}");
    }
}
