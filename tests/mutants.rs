//! The mutation suite: wrong variants of paper specs, one or more per check rule of every spec
//! kind, each of which `grundy check` must refute (exit 1) with a counterexample. The mutants
//! live in tests/mutants/*.yaml; each file says in its header comments why it is wrong
//! (`# why:`), which check rule must catch it (`# rule:`), and a piece of the counterexample
//! the refutation must print (`# counterexample:`). Rules exercised by wrong variants kept in
//! other test files are listed in [`ELSEWHERE`]; a rule in [`RULES`] exercised by no mutant is
//! a gap and fails [`every_check_rule_has_a_mutant`].
//!
//! Also here: the soundness regressions that are not single-spec refutations (diagram ids
//! given by two files, one bad spec among good ones, `because:` of expected refutations,
//! `unreached:` marks, coverage in report.json).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Every check rule of every spec kind. A rule that only cross-checks the checker against the
/// solver (it cannot fail unless the checker itself is wrong) is listed in [`SELF_CHECKS`]
/// instead: no spec can make it fail.
const RULES: &[&str] = &[
    "claim/value",
    "claim/outcome",
    "claim/fast-outcome",
    "claim/no-case",
    "claim/cases-disagree",
    "claim/reachable-position",
    "claim/coverage",
    "claim/stale-unreached",
    "claim/erratum-holds",
    "claim/holds",
    "claim/is-group",
    "claim/closure-as-stated",
    "sets/members",
    "sets/rule",
    "sets/transversal",
    "signatures/cell",
    "signatures/subset-superset",
    "signatures/mex",
    "signatures/conditions",
    "signatures/boxes",
    "signatures/row-coverage",
    "sequence/values",
    "sequence/period",
    "sequence/preperiod",
    "sequence/least-preperiod",
    "diagram/start-node",
    "diagram/start-beyond-reach",
    "diagram/coverage",
    "diagram/reply",
    "diagram/sink-terminal",
    "diagram/sink-zero",
    "diagram/sink-reference",
    "diagram/start-generator-coverage",
    "diagram/node-arrow-coverage",
    "reduction/option-preserving",
    "reduction/surjective",
    "reduction/start-to-start",
    "reduction/injective",
    "figure/map",
    "figure/play-map",
    "figure/families",
    "figure/structure-classes",
    "figure/structure-nim",
    "certificate/token-vertex",
    "certificate/move",
    "certificate/replies",
    "certificate/nonempty",
    "certificate/token",
    "certificate/independent",
    "certificate/even-kernel",
    "certificate/kernel-vertex",
    "certificate/rotation",
    "certificate/gf2-outcome",
    "certificate/trail",
    "certificate/family-coverage",
    "premise/refuted",
    "premise/missing",
    "premise/cycle",
    "erratum/companion-named",
    "erratum/because-follows-link",
    "erratum/correction-range",
    "erratum/correction-disagrees",
    "erratum/correction-same-result",
    "reading/companion-holds",
    "teeth/predicate",
    "teeth/conjunct",
    "teeth/value-formula",
    "names/parameter-feature",
    "names/let-feature",
    "fast-path/cycle-table",
    "fast-path/gf2",
    "fast-path/octal",
];

/// Rules whose wrong variants are kept beside the specs they mutate, in other test files (or,
/// for the paper's errata, as specs under specs/ expected refuted).
const ELSEWHERE: &[(&str, &str)] = &[
    (
        "claim/fast-outcome",
        "tests/specs.rs: wrong_conjecture_outcome_is_refuted",
    ),
    (
        "claim/no-case",
        "tests/specs.rs: wrong_prop_5_15_is_refuted",
    ),
    (
        "claim/erratum-holds",
        "tests/specs.rs: erratum_that_holds_is_unexpected",
    ),
    (
        "sets/rule",
        "tests/specs.rs: wrong_prop_5_9_rule_is_refuted",
    ),
    (
        "signatures/cell",
        "tests/specs.rs: wrong_table_5_1_is_refuted",
    ),
    (
        "signatures/conditions",
        "specs/paper000/table_5_1_conditions.yaml (erratum of Prop 5.14's proof)",
    ),
    (
        "sequence/values",
        "tests/specs.rs: wrong_prop_5_23_digit_is_refuted",
    ),
    (
        "diagram/coverage",
        "tests/diagrams.rs: fig_5_8_variants_are_rejected and others",
    ),
    (
        "diagram/reply",
        "tests/diagrams.rs: diagram_d_variants_are_rejected",
    ),
    (
        "diagram/sink-terminal",
        "tests/diagrams.rs: diagram_c_variants_are_rejected",
    ),
    (
        "diagram/sink-zero",
        "tests/diagrams.rs: fig_5_8_variants_are_rejected",
    ),
    (
        "diagram/sink-reference",
        "tests/diagrams.rs: diagram_d_variants_are_rejected",
    ),
    (
        "certificate/kernel-vertex",
        "tests/certificates.rs: case_4_2_as_printed_names_a_missing_vertex",
    ),
    (
        "certificate/trail",
        "tests/certificates.rs: thm13_trail_construction_outside_its_hypothesis_is_refuted",
    ),
];

/// Consistency checks of the checker against the exhaustive solver; listed so that the
/// absence of a mutant for them is a decision, not an oversight.
const SELF_CHECKS: &[&str] = &[
    "diagram: every position met at a P-node has nim-value 0 by the solver (and nonzero at N-nodes)",
    "reduction: nim(p) = nim(f(p)) by the solver (follows from option preservation)",
    "figure: Prop 5.26 on every position of an ordinal sum (computed values only)",
    "figure: the explicit gamegraph and the solver agree on every drawn position",
    "certificate: the certified outcome against the exhaustive or GF(2) solver (cross_check)",
    "certificate: the GF(2) solver's own certificate is checked like a written one",
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn grundy(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_grundy"))
        .current_dir(root())
        .args(args)
        .output()
        .expect("grundy runs")
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// The mutants with their header fields (`why`, `rule`, `counterexample`).
fn mutants() -> Vec<(PathBuf, BTreeMap<String, String>)> {
    let mut out = Vec::new();
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("tests/mutants"))
        .expect("tests/mutants")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    files.sort();
    for f in files {
        let body = std::fs::read_to_string(&f).expect("a mutant");
        let mut head = BTreeMap::new();
        for line in body.lines().take_while(|l| l.starts_with('#')) {
            if let Some((k, v)) = line.trim_start_matches("# ").split_once(": ") {
                head.insert(k.to_string(), v.to_string());
            }
        }
        out.push((f, head));
    }
    out
}

/// Mutants refuted (exit 1, `# counterexample:` printed) or, with `# verdict: bad input`,
/// refused (exit 2, `# error:` printed). Files with `# companion-of:` are not mutants but the
/// sound companions a mutant names (a narrower correction, say): they must hold on their own.
#[test]
fn every_mutant_is_refuted_with_its_counterexample() {
    let all = mutants();
    assert!(all.len() >= 30, "{} mutants", all.len());
    for (f, head) in &all {
        let o = grundy(&["check", f.to_str().expect("utf-8 path")]);
        let t = text(&o);
        if head.contains_key("companion-of") {
            assert_eq!(o.status.code(), Some(0), "{}: {t}", f.display());
            continue;
        }
        let bad_input = head.get("verdict").is_some_and(|v| v == "bad input");
        let needle = if bad_input { "error" } else { "counterexample" };
        for k in ["why", "rule", needle] {
            assert!(
                head.get(k).is_some_and(|v| !v.is_empty()),
                "{}: header `# {k}:` missing",
                f.display()
            );
        }
        if bad_input {
            assert_eq!(o.status.code(), Some(2), "{}: {t}", f.display());
            // miette wraps long messages: compare with the frame and line breaks taken out.
            let flat = t.replace(['│', '\n'], " ");
            let flat = flat.split_whitespace().collect::<Vec<_>>().join(" ");
            assert!(
                flat.contains(&head["error"]),
                "{}: expected `{}` in\n{t}",
                f.display(),
                head["error"]
            );
            continue;
        }
        assert_eq!(o.status.code(), Some(1), "{}: {t}", f.display());
        assert!(t.contains("counterexample: "), "{}: {t}", f.display());
        assert!(
            t.contains(&head["counterexample"]),
            "{}: expected `{}` in\n{t}",
            f.display(),
            head["counterexample"]
        );
    }
}

#[test]
fn every_check_rule_has_a_mutant() {
    let all = mutants();
    let here: Vec<&str> = all
        .iter()
        .filter_map(|(_, h)| h.get("rule").map(String::as_str))
        .collect();
    for r in &here {
        assert!(RULES.contains(r), "mutant rule `{r}` is not a known rule");
    }
    let gaps: Vec<&&str> = RULES
        .iter()
        .filter(|r| !here.contains(r) && !ELSEWHERE.iter().any(|(e, _)| e == *r))
        .collect();
    assert!(gaps.is_empty(), "check rules no mutant exercises: {gaps:?}");
    assert!(!SELF_CHECKS.is_empty());
}

fn tmp() -> tempfile::TempDir {
    tempfile::tempdir().expect("a temp dir")
}

fn copy(from: &str, to: &Path) {
    std::fs::create_dir_all(to.parent().expect("a parent")).expect("mkdir");
    std::fs::copy(root().join(from), to).expect("copy");
}

#[test]
fn diagram_ids_given_by_two_files_are_bad_input_naming_both() {
    // Two folders each holding a `lemma_5_37_diagram.yaml`: one valid, one broken (the start
    // node misses c = 1). One run must not report both with the verdict of either.
    let d = tmp();
    let a = d.path().join("a/lemma_5_37_diagram.yaml");
    let b = d.path().join("b/lemma_5_37_diagram.yaml");
    copy("tests/mutants/diagram_start_node.yaml", &a);
    copy("specs/paper000/diagrams/lemma_5_37_diagram.yaml", &b);
    let other = d.path().join("b/example_4_11_path_ter.yaml");
    copy("specs/paper000/example_4_11_path_ter.yaml", &other);
    let o = grundy(&[
        "check",
        a.to_str().expect("utf-8"),
        b.to_str().expect("utf-8"),
        other.to_str().expect("utf-8"),
    ]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(2), "{t}");
    // miette wraps long messages: compare with the frame and line breaks taken out.
    let t = t.replace(['│', '\n'], " ");
    let t = t.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        t.contains("spec id `lemma_5_37_diagram` is also the id of"),
        "{t}"
    );
    assert!(
        t.contains(a.parent().and_then(|p| p.to_str()).expect("utf-8"))
            && t.contains(b.parent().and_then(|p| p.to_str()).expect("utf-8")),
        "{t}"
    );
    // The unrelated spec is still checked.
    assert!(t.contains("example_4_11_path_ter"), "{t}");
    assert!(t.contains("holds"), "{t}");
}

#[test]
fn one_bad_spec_never_hides_the_others() {
    // A directory with an unreadable spec, a spec that is bad input only when checked (it
    // selects no instance), a refuted spec and a spec that holds: every one is listed, and
    // the run exits with the worst code (2); `build` writes nothing.
    let d = tmp();
    let specs = d.path().join("specs");
    std::fs::create_dir(&specs).expect("mkdir");
    std::fs::write(
        specs.join("a_unreadable.yaml"),
        "kind: claim\nsource: X\nbogus: 1\n",
    )
    .expect("write");
    std::fs::write(
        specs.join("b_vacuous.yaml"),
        "kind: claim\nsource: X\ngame: TER(P_n)\nparams: {n: 2..=5}\nwhere: n > 9\nnim: 0\n",
    )
    .expect("write");
    copy(
        "tests/mutants/claim_value.yaml",
        &specs.join("c_refuted.yaml"),
    );
    copy(
        "specs/paper000/example_4_11_path_ter.yaml",
        &specs.join("d_holds.yaml"),
    );
    let o = grundy(&["check", specs.to_str().expect("utf-8")]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(2), "{t}");
    assert!(t.contains("a_unreadable.yaml"), "{t}");
    assert!(t.contains("unknown field `bogus`"), "{t}");
    assert!(t.contains("b_vacuous") && t.contains("BAD INPUT"), "{t}");
    assert!(t.contains("would hold vacuously"), "{t}");
    assert!(t.contains("n=2: TER(P_2): claimed *0, computed *1"), "{t}");
    assert!(t.contains("d_holds"), "{t}");
    // The same without the unreadable file: still 2 (bad input beats a refutation).
    std::fs::remove_file(specs.join("a_unreadable.yaml")).expect("rm");
    let o = grundy(&["check", "--json", specs.to_str().expect("utf-8")]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    let verdicts: Vec<&str> = j["reports"]
        .as_array()
        .expect("reports")
        .iter()
        .map(|r| r["verdict"].as_str().expect("a verdict"))
        .collect();
    assert_eq!(verdicts, ["bad input", "refuted", "holds"]);
    // Without the bad input: the refutation decides (1).
    std::fs::remove_file(specs.join("b_vacuous.yaml")).expect("rm");
    let o = grundy(&["check", specs.to_str().expect("utf-8")]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    // build: bad input is listed and nothing is written.
    std::fs::write(
        specs.join("b_vacuous.yaml"),
        "kind: claim\nsource: X\ngame: TER(P_n)\nparams: {n: 2..=5}\nwhere: n > 9\nnim: 0\n",
    )
    .expect("write");
    let out = d.path().join("output");
    let o = grundy(&[
        "build",
        "--specs",
        specs.to_str().expect("utf-8"),
        "--output",
        out.to_str().expect("utf-8"),
    ]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(2), "{t}");
    assert!(t.contains("n=2: TER(P_2): claimed *0, computed *1"), "{t}");
    assert!(!out.exists(), "build wrote output");
}

fn check_text(name: &str, body: &str) -> (Option<i32>, String) {
    let d = tmp();
    let p = d.path().join(name);
    std::fs::write(&p, body).expect("write");
    let o = grundy(&["check", p.to_str().expect("utf-8")]);
    // miette wraps long messages: the text with the frame and line breaks taken out.
    let flat = text(&o).replace(['│', '\n'], " ");
    (
        o.status.code(),
        flat.split_whitespace().collect::<Vec<_>>().join(" "),
    )
}

#[test]
fn expected_refutations_name_their_companion() {
    let s =
        std::fs::read_to_string(root().join("specs/paper000/prop_5_23_least.yaml")).expect("spec");
    assert!(s.contains("read_as: prop_5_23"));
    let o = grundy(&["check", "specs/paper000/prop_5_23_least.yaml"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(text(&o).contains("the reading meant: prop_5_23 (Prop 5.23, holds"));
    // Without a companion, an expected refutation is bad input.
    let (code, t) = check_text("least.yaml", &s.replace("read_as: prop_5_23\n", ""));
    assert_eq!(code, Some(2), "{t}");
    assert!(t.contains("`expect: refuted` needs its companion"), "{t}");
    // `because:` must agree with the link.
    let (code, t) = check_text(
        "least.yaml",
        &s.replace(
            "read_as: prop_5_23\n",
            "read_as: prop_5_23\nbecause: erratum\n",
        ),
    );
    assert_eq!(code, Some(2), "{t}");
    assert!(t.contains("contradicts the link"), "{t}");
    let (code, t) = check_text(
        "least.yaml",
        &s.replace(
            "read_as: prop_5_23\n",
            "read_as: prop_5_23\nbecause: typo\n",
        ),
    );
    assert_eq!(code, Some(2), "{t}");
    assert!(t.contains("unknown reason `typo`"), "{t}");
    let holds =
        std::fs::read_to_string(root().join("specs/paper000/prop_5_23.yaml")).expect("spec");
    let (code, t) = check_text("holds.yaml", &format!("{holds}because: erratum\n"));
    assert_eq!(code, Some(2), "{t}");
    assert!(t.contains("`because` explains"), "{t}");
    let (code, t) = check_text("holds.yaml", &format!("{holds}corrected_by: prop_5_23\n"));
    assert_eq!(code, Some(2), "{t}");
    assert!(t.contains("pin an expected refutation"), "{t}");
    // report.json says which, from the link.
    let o = grundy(&[
        "check",
        "--json",
        "specs/paper000/prop_5_23_least.yaml",
        "specs/paper000/example_4_11_star_ter.yaml",
    ]);
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    let because: Vec<(&str, &str)> = j["reports"]
        .as_array()
        .expect("reports")
        .iter()
        .map(|r| {
            (
                r["because"].as_str().expect("because"),
                r["companion"]["id"].as_str().expect("a companion"),
            )
        })
        .collect();
    assert_eq!(
        because,
        [
            ("erratum", "example_4_11_star_ter_corrected"),
            ("reading", "prop_5_23")
        ]
    );
}

#[test]
fn every_expected_refutation_in_specs_is_pinned() {
    // Every `expect: refuted` spec of specs/ names a companion that is itself in specs/.
    let files = grundy_files(&root().join("specs"));
    let ids: Vec<String> = files
        .iter()
        .filter_map(|f| Some(f.file_stem()?.to_str()?.to_string()))
        .collect();
    let mut n = 0;
    for f in &files {
        let s = std::fs::read_to_string(f).expect("a spec");
        if !s.lines().any(|l| l.trim() == "expect: refuted") {
            continue;
        }
        n += 1;
        let link = s
            .lines()
            .find_map(|l| {
                l.strip_prefix("corrected_by: ")
                    .or_else(|| l.strip_prefix("read_as: "))
            })
            .unwrap_or_else(|| panic!("{}: no corrected_by/read_as", f.display()));
        assert!(
            ids.iter().any(|i| i == link.trim()),
            "{}: companion {link} is not in specs/",
            f.display()
        );
    }
    assert!(n >= 9, "{n} expected refutations");
}

fn grundy_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).expect("a folder") {
        let p = e.expect("an entry").path();
        if p.is_dir() {
            out.extend(grundy_files(&p));
        } else if p.extension().is_some_and(|e| e == "yaml") {
            out.push(p);
        }
    }
    out
}

#[test]
fn a_marked_unreached_part_passes_and_is_recorded() {
    // The mutant with a case no instance reaches holds once the case says why.
    let s = std::fs::read_to_string(root().join("tests/mutants/claim_case_unreached.yaml"))
        .expect("mutant")
        .replace(
            "{ when: \"v > 100\", value: 0 }",
            "{ when: \"v > 100\", value: 0, unreached: \"the range stops at |V| = 10\" }",
        );
    let d = tmp();
    let p = d.path().join("marked.yaml");
    std::fs::write(&p, s).expect("write");
    let o = grundy(&["check", "--json", p.to_str().expect("utf-8")]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    let cov = j["reports"][0]["coverage"].as_array().expect("coverage");
    assert_eq!(cov.len(), 6);
    assert_eq!(cov[5]["instances"], 0);
    assert_eq!(cov[5]["unreached"], "the range stops at |V| = 10");
    // The verdict says what was excused (issue 42 item 2), in the JSON and on the terminal; an
    // unmarked holding claim says nothing of the kind.
    assert_eq!(
        j["reports"][0]["excused"],
        "1 of 6 cases excused as unreached"
    );
    let o = grundy(&["check", p.to_str().expect("utf-8")]);
    assert!(
        text(&o).contains("holds; 1 of 6 cases excused as unreached"),
        "{}",
        text(&o)
    );
    let plain = d.path().join("plain.yaml");
    std::fs::write(
        &plain,
        std::fs::read_to_string(&p)
            .expect("read")
            .replace(", unreached: \"the range stops at |V| = 10\"", "")
            .replace("\n    - { when: \"v > 100\", value: 0 }", ""),
    )
    .expect("write");
    let o = grundy(&["check", "--json", plain.to_str().expect("utf-8")]);
    let j2: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    assert!(j2["reports"][0].get("excused").is_none(), "{}", text(&o));
    // Every other case of Prop 5.15 is reached, by the instances counted.
    let total: u64 = cov[..5]
        .iter()
        .map(|c| c["instances"].as_u64().expect("a count"))
        .sum();
    assert_eq!(
        total,
        j["reports"][0]["instances"].as_u64().expect("instances")
    );
}

#[test]
fn diagram_coverage_counts_start_positions_per_part() {
    let o = grundy(&[
        "check",
        "--json",
        "specs/paper000/diagrams/lemma_5_37_diagram.yaml",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    let cov: BTreeMap<String, (u64, u64)> = j["reports"][0]["coverage"]
        .as_array()
        .expect("coverage")
        .iter()
        .map(|c| {
            (
                c["part"].as_str().expect("part").to_string(),
                (
                    c["instances"].as_u64().expect("n"),
                    c["positions"].as_u64().expect("n"),
                ),
            )
        })
        .collect();
    // (c,[1^c]) for c = 1..=20: 20 start positions, each at S. (1,[1]) is terminal (one
    // position), so every other node and arrow is reached from the 19 starts with c >= 2, at
    // one position each: (c-1,[1^c]) at N1 and (c,[1^{c-1}]) at N2.
    assert_eq!(
        cov["start generator 1 (SPL(h,[lam]) where size == h)"],
        (20, 20)
    );
    assert_eq!(cov["node S"], (20, 20));
    for part in [
        "node N1",
        "node N2",
        "arrow S -> N1 (single, dehub)",
        "arrow S -> N2 (single, split)",
        "arrow N1 -> S (double, split)",
        "arrow N2 -> S (double, dehub)",
    ] {
        assert_eq!(cov[part], (19, 19), "{part}");
    }
}

/// A refuted range reports its first failing instance, and nothing past it is tallied: the
/// instances after it are skipped once it is found (a refuted K_{a,b} range once solved every
/// later instance, with evidence, for minutes), so the report must not depend on which were
/// reached before the skip, i.e. on the thread count.
#[test]
fn a_refuted_range_reports_the_same_whatever_the_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("wide.yaml");
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/mutants/geodetic_complete_bipartite_ter_hull.yaml"),
    )
    .unwrap()
    .replace("a: 1..=6", "a: 1..=14")
    .replace("b: 1..=6", "b: 1..=14");
    std::fs::write(&path, text).unwrap();
    let run = |threads: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_grundy"))
            .args(["check", "--json"])
            .arg(&path)
            .env("RAYON_NUM_THREADS", threads)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{out:?}");
        let mut v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        v["reports"][0]["seconds"] = serde_json::Value::Null;
        v
    };
    let one = run("1");
    assert_eq!(one["reports"][0]["counterexample"]["instance"], "a=2, b=3");
    for threads in ["2", "4", "16"] {
        assert_eq!(run(threads), one, "{threads} threads");
    }
}

/// An erratum and its correction ask the same question: the same game (parameters renamed by
/// their order) under the same closure. TER(K_2) is 1 under both closures, so a correction
/// under the geodetic closure agrees with the computed value at the erratum's counterexample
/// (K_{1,1}), yet it answers another question (the two differ at K_{2,3}); it is refused.
#[test]
fn an_erratum_and_its_correction_ask_the_same_question() {
    let erratum = "kind: claim\nsource: Test 1\nstatement: wrong\ngame: TER(K_{a,b})\nparams:\n  a: 1..=1\n  b: 1..=1\nnim: 0\nexpect: refuted\ncorrected_by: fixed\n";
    let fixed = |closure: &str, a: &str, b: &str| {
        format!(
            "kind: claim\nsource: Test 1\nstatement: right\ngame: TER(K_{{{a},{b}}})\n{closure}params:\n  {a}: 1..=1\n  {b}: 1..=1\nnim: 1\n"
        )
    };
    let run = |fixed: String| {
        let d = tmp();
        std::fs::write(d.path().join("erratum.yaml"), erratum).unwrap();
        std::fs::write(d.path().join("fixed.yaml"), fixed).unwrap();
        let o = grundy(&["check", d.path().to_str().unwrap()]);
        (o.status.code(), text(&o).replace(['│', '\n'], " "))
    };
    let (code, out) = run(fixed("", "a", "b"));
    assert_eq!(code, Some(0), "{out}");
    // Renamed parameters ask the same question, but the range rule names parameters: the
    // correction must be checked on the erratum's own range.
    let (code, out) = run(fixed("", "x", "y"));
    assert_eq!(code, Some(2), "renamed parameters: {out}");
    assert!(!out.contains("asks about"), "{out}");
    let (code, out) = run(fixed("closure: geodetic\n", "a", "b"));
    assert_eq!(code, Some(2), "{out}");
    let flat = out.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains("asks about TER(K_{#1,#2}) under the geodetic closure"),
        "{flat}"
    );
    // Another game at the same values: DNT(K_2) is 1 as well.
    let (code, out) = run(fixed("", "a", "b").replace("game: TER", "game: DNT"));
    assert_eq!(code, Some(2), "{out}");
}
