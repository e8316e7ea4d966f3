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
    // In a copy of specs/, in the variant's place: its premises (`uses:`) are found there.
    let dir = tempfile::tempdir().expect("a temp dir");
    copy_tree(&root().join("specs"), &dir.path().join("specs"));
    let path = dir.path().join(spec);
    std::fs::write(&path, body.replace(from, to)).expect("write");
    grundy(&["check".as_ref(), path.as_os_str()])
}

fn copy_tree(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("a folder") {
        let e = e.expect("an entry");
        let t = to.join(e.file_name());
        if e.file_type().expect("a type").is_dir() {
            copy_tree(&e.path(), &t);
        } else {
            std::fs::copy(e.path(), t).expect("copy");
        }
    }
}

/// Runs grundy from the repository root: (exit code, stdout and stderr).
fn grundy(args: &[&std::ffi::OsStr]) -> (Option<i32>, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .current_dir(root())
        .args(args)
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

/// The ids of every spec under specs/ (file stems).
fn spec_ids() -> std::collections::BTreeSet<String> {
    fn walk(d: &std::path::Path, out: &mut std::collections::BTreeSet<String>) {
        for e in std::fs::read_dir(d).expect("a directory") {
            let p = e.expect("an entry").path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "yaml") {
                out.insert(
                    p.file_stem()
                        .expect("a stem")
                        .to_string_lossy()
                        .into_owned(),
                );
            }
        }
    }
    let mut out = std::collections::BTreeSet::new();
    walk(&root().join("specs"), &mut out);
    out
}

#[test]
fn contents_lists_every_numbered_item_with_existing_specs() {
    let ids = spec_ids();
    for (file, seed_prefix) in [
        ("docs/contents/paper000.yaml", "000_"),
        ("docs/contents/seed002.yaml", "002_"),
    ] {
        let body = std::fs::read_to_string(root().join(file)).expect("contents");
        let mut items = Vec::new();
        for line in body.lines().filter(|l| l.starts_with("- {")) {
            let item = line
                .split("item: ")
                .nth(1)
                .and_then(|r| r.split(',').next())
                .expect("an item");
            items.push(item.to_string());
            let specs = line
                .split("specs: [")
                .nth(1)
                .and_then(|r| r.split(']').next())
                .expect("a spec list");
            for id in specs.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                assert!(ids.contains(id), "{file}: {item} names no spec `{id}`");
            }
            assert!(
                !specs.trim().is_empty() || line.contains("why: "),
                "{file}: {item} has neither specs nor a reason"
            );
        }
        if seed_prefix == "000_" {
            // Every numbered heading of the main paper is listed.
            let seeds = std::path::Path::new("/work/shared/seeds");
            let Some(seed) = std::fs::read_dir(seeds).ok().and_then(|mut d| {
                d.find_map(|e| {
                    let p = e.ok()?.path();
                    p.file_name()?
                        .to_str()?
                        .starts_with(seed_prefix)
                        .then_some(p)
                })
            }) else {
                continue; // the seeds are not shipped with the repository
            };
            let text = std::fs::read_to_string(seed).expect("the seed");
            for l in text.lines() {
                for kind in [
                    "Theorem ",
                    "Proposition ",
                    "Lemma ",
                    "Corollary ",
                    "Example ",
                    "Remark ",
                    "Conjecture ",
                    "Figure ",
                    "Table ",
                ] {
                    if let Some(rest) = l.strip_prefix(kind) {
                        let num: String = rest
                            .chars()
                            .take_while(|c| c.is_ascii_digit() || *c == '.')
                            .collect();
                        let num = num.trim_end_matches('.');
                        if num.contains('.') {
                            let want = format!("{kind}{num}");
                            assert!(items.contains(&want), "{file}: `{want}` not listed");
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn example_3_2_family_variants_are_refuted() {
    // Swapping the families: 𝒢* = {∅} and 𝒩* = {{v}} are both false for K_1.
    let (code, t) = check_variant(
        "specs/paper000/example_3_2_g_star.yaml",
        "members: [[v1]]",
        "members: [[]]",
    );
    assert_eq!(code, Some(1), "{t}");
    let (code, t) = check_variant(
        "specs/paper000/example_3_2_n_star.yaml",
        "members: [[]]",
        "members: [[v1]]",
    );
    assert_eq!(code, Some(1), "{t}");
}

/// `grundy build` of a one-spec project with a contents file; returns (exit code, output,
/// README.md as written or None).
fn build_with_contents(contents: &str) -> (Option<i32>, String, Option<String>) {
    let dir = tempfile::tempdir().expect("a temp dir");
    let specs = dir.path().join("specs").join("p");
    std::fs::create_dir_all(&specs).expect("mkdir");
    std::fs::copy(
        root().join("specs/paper000/example_3_2_ter.yaml"),
        specs.join("example_3_2_ter.yaml"),
    )
    .expect("copy");
    let docs = dir.path().join("docs").join("contents");
    std::fs::create_dir_all(&docs).expect("mkdir");
    std::fs::write(docs.join("p.yaml"), contents).expect("write");
    let out = dir.path().join("out");
    let specs = dir.path().join("specs");
    let (code, t) = grundy(&[
        "build".as_ref(),
        "--specs".as_ref(),
        specs.as_os_str(),
        "--templates".as_ref(),
        "templates".as_ref(),
        "--output".as_ref(),
        out.as_os_str(),
    ]);
    (code, t, std::fs::read_to_string(out.join("README.md")).ok())
}

#[test]
fn readme_lists_every_contents_item_with_its_verdict_or_reason() {
    let (code, t, readme) = build_with_contents(
        "- { item: Example 3.2, specs: [example_3_2_ter] }\n\
         - { item: Figure 9.9, specs: [], why: \"drawing lost | not rendered\" }\n",
    );
    assert_eq!(code, Some(0), "{t}");
    let readme = readme.expect("README.md written");
    assert!(
        readme.contains("## Contents of p: every numbered item"),
        "{readme}"
    );
    assert!(
        readme.contains("| Example 3.2 | `example_3_2_ter`: holds (single instance) |"),
        "{readme}"
    );
    // The reason is Markdown-escaped (a bare `|` would split the table row).
    assert!(
        readme.contains("| Figure 9.9 | none | drawing lost \\| not rendered |"),
        "{readme}"
    );
}

#[test]
fn unknown_spec_in_contents_is_bad_input() {
    let (code, t, readme) = build_with_contents("- { item: Lemma 1.1, specs: [no_such_spec] }\n");
    assert_eq!(code, Some(2), "{t}");
    assert!(
        t.contains("Lemma 1.1 names the spec `no_such_spec`, which is not in the build"),
        "{t}"
    );
    assert!(readme.is_none(), "nothing is written on bad input");
}

#[test]
fn no_contents_item_waits_for_a_spec() {
    // The work list of the issue "every result as printed" is empty: an item either names
    // its specs or says why no spec can exist.
    for file in ["docs/contents/paper000.yaml", "docs/contents/seed002.yaml"] {
        let body = std::fs::read_to_string(root().join(file)).expect("contents");
        let n = body.lines().filter(|l| l.starts_with("- {")).count();
        assert!(n > 0, "{file}");
        for l in body.lines().filter(|l| l.starts_with("- {")) {
            assert!(
                !l.contains("no spec yet") && !l.contains("not encoded"),
                "{file}: an item still waits for a spec: {l}"
            );
        }
    }
}
