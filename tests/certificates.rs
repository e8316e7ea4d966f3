//! `kind: certificate` specs for seed 002 (undirected edge geography on stacked
//! prisms). Wrong variants of the paper's certificates are written to a temporary directory and
//! must be rejected (exit 1) with a counterexample naming the instance and the vertex.

use grundy::game::ueg::{check_even_kernel, AdjLists};
use std::path::Path;
use std::process::{Command, Output};

fn grundy(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(args)
        .output()
        .expect("the grundy binary runs")
}

/// Checks one spec given as YAML text; returns (exit code, stdout + stderr).
fn check_yaml(name: &str, yaml: &str) -> (Option<i32>, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(format!("{name}.yaml"));
    std::fs::write(&path, yaml).unwrap();
    let out = grundy(&["check", path.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout).to_string()
        + String::from_utf8_lossy(&out.stderr).as_ref();
    (out.status.code(), text)
}

fn spec(name: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("specs/seed002")
        .join(name);
    std::fs::read_to_string(p).unwrap()
}

/// Thm 16 Case 1 on SP(6,2): {1, 2̄, 4̄, 5} is an even kernel containing 1. By hand, the
/// vertices outside: 2 sees 1, 2̄; 3 sees none; 4 sees 5, 4̄; 6 sees 5, 1; 1̄ sees 1, 2̄;
/// 3̄ sees 2̄, 4̄; 5̄ sees 4̄, 5; 6̄ sees none — all even.
const SP_6_2_KERNEL: &str = r#"
kind: certificate
source: Thm 16
graph: "SP_{6,2}"
token: "(1,1)"
play:
  kernel: {vertices: ["(1,1)", "(2,2)", "(4,2)", "(5,1)"]}
"#;

#[test]
fn sp_6_2_kernel_by_hand_holds() {
    let (code, text) = check_yaml("sp62", SP_6_2_KERNEL);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("holds"), "{text}");
}

#[test]
fn kernel_with_one_vertex_moved_is_rejected_naming_the_vertex() {
    // 2̄ moved to 3: 4 = (4,1) then sees 3, 5 and 4̄ (and 1̄ sees only 1); the first vertex
    // in the order of the graph is named.
    let yaml = SP_6_2_KERNEL.replace("\"(2,2)\"", "\"(3,1)\"");
    let (code, text) = check_yaml("sp62_moved", &yaml);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("single instance: UEG(SP_{6,2}, (1,1))")
            && text.contains("(4,1) is outside the set and has 3 neighbours in it (odd)"),
        "{text}"
    );
    // The family of Thm 16 Case 1 with 6i+5 moved to 6i+6: 1 and 6 = m are adjacent (k = 1).
    let fam = spec("thm_16_case_1.yaml").replace("\"(6*i+5,1)\"", "\"(6*i+6,1)\"");
    let (code, text) = check_yaml("thm16_moved", &fam);
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("k=1: UEG(SP_{6,2}, (1,1))"), "{text}");
    assert!(
        text.contains("(1,1) and (6,1) are both in the set and adjacent"),
        "{text}"
    );
}

#[test]
fn wrong_kernel_rule_is_rejected_with_instance_and_vertex() {
    // Thm 6 with the diagonal i+j shifted by one: not an even kernel on the smallest instance.
    let wrong = spec("thm_6_kernel.yaml").replace(
        "divides(2*dp, i+j) != divides(2*dp, i-j)",
        "divides(2*dp, i+j+1) != divides(2*dp, i-j)",
    );
    let (code, text) = check_yaml("thm6_wrong", &wrong);
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("counterexample: m=2, n=1"), "{text}");
    assert!(
        text.contains("adjacent") || text.contains("(odd)"),
        "names a vertex: {text}"
    );
    // Token coverage: Thm 7 extended to the rows with d | b. For m = 3, n = 3 (d = 2, d' = 1)
    // the diamonds are single centres in rows 1 and 3, so no rotation of D reaches row 2.
    let all_rows =
        spec("thm_7_diamond_kernel.yaml").replace("tokens: \"!divides(d, b)\"", "tokens: \"true\"");
    let (code, text) = check_yaml("thm7_all_rows", &all_rows);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("m=3, n=3: UEG(SP_{6,3}, (1,2))")
            && text.contains("the kernel has no vertex in row 2"),
        "{text}"
    );
}

#[test]
fn win_tree_missing_a_reply_is_rejected() {
    // SP(3,2): drop the answer to 1→3 (the fragment leaves it to symmetry).
    let full = spec("thm_15_sp_3_2.yaml");
    let (code, text) = check_yaml("sp32", &full);
    assert_eq!(code, Some(0), "{text}");
    let start = full.find("    - reply: \"(3,1)\"").unwrap();
    let end = full.find("    - reply: \"(1,2)\"").unwrap();
    let missing = format!("{}{}", &full[..start], &full[end..]);
    let (code, text) = check_yaml("sp32_missing", &missing);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("the reply (1,1)(3,1) is not covered"),
        "{text}"
    );
    // A nested opponent node missing a reply: after 1→1̄→2̄, Player 1 may also go to 2.
    let start = full.find("        - reply: \"(2,1)\"").unwrap();
    let nested = full[..start].to_string();
    let (code, text) = check_yaml("sp32_nested", &nested);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("(1,1) → (1,2) → (2,2)") && text.contains("(2,2)(2,1) is not covered"),
        "{text}"
    );
}

#[test]
fn illegal_moves_and_stuck_claims_are_rejected() {
    let full = spec("thm_15_sp_3_2.yaml");
    // Answering 1→2 by 2→1 again: the edge 12 is used.
    let bad = full.replacen("move: \"(3,1)\"", "move: \"(1,1)\"", 1);
    let (code, text) = check_yaml("sp32_used_edge", &bad);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("(2,1)(1,1) is not an edge of the remaining graph"),
        "{text}"
    );
    // Claiming Player 1 is stuck at 1̄ one move too early (after 1→1̄→2̄→3̄ answered by 3).
    let early = full.replace(
        "        - reply: \"(3,2)\"\n          move: \"(1,2)\"",
        "        - reply: \"(3,2)\"\n          move: \"(3,1)\"",
    );
    let (code, text) = check_yaml("sp32_not_stuck", &early);
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("is not covered"), "{text}");
}

#[test]
fn case_4_2_as_printed_names_a_missing_vertex() {
    // Checked where it lives: its companion (`corrected_by: thm_14_case_4`) is found there.
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("specs/seed002/thm_14_case_4_printed.yaml");
    let out = grundy(&["check", path.to_str().unwrap()]);
    let code = out.status.code();
    let text = String::from_utf8_lossy(&out.stdout).to_string()
        + String::from_utf8_lossy(&out.stderr).as_ref();
    // Expected refuted: exit 0, and the counterexample is the vertex 8 of SP(7,2).
    assert_eq!(code, Some(0), "{text}");
    assert!(
        text.contains("k=1: UEG(SP_{7,2}, (1,1))")
            && text.contains("the kernel names (8,1), which is not a vertex of SP_{7,2}"),
        "{text}"
    );
}

#[test]
fn gf2_certificate_with_wrong_outcome_is_refuted() {
    let wrong = spec("thm_13_n_case.yaml")
        .replace("outcome: N", "outcome: P")
        .replace("m: \"2..=16\"", "m: \"2..=4\"")
        .replace("n: \"1..=16\"", "n: \"1..=4\"");
    let (code, text) = check_yaml("thm13_wrong", &wrong);
    assert_eq!(code, Some(1), "{text}");
    // Smallest instance with a token: m = 2, n = 1, d = gcd(4, 2) = 2 > n: none; m = 2, n = 2:
    // d = gcd(4, 3) = 1, every vertex is N.
    assert!(
        text.contains("claimed P, computed N (GF(2) criterion)"),
        "{text}"
    );
}

#[test]
fn thm13_trail_construction_outside_its_hypothesis_is_refuted() {
    // The construction needs d | b; asked for the P-tokens it fails on the smallest instance
    // (m = 2, n = 1: d = gcd(4, 2) = 2 does not divide b = 1).
    let wrong = spec("thm_13_trail.yaml")
        .replace("tokens: \"divides(d, b)\"", "tokens: \"!divides(d, b)\"")
        .replace("m: \"2..=30\"", "m: \"2..=4\"")
        .replace("n: \"1..=30\"", "n: \"1..=4\"");
    let (code, text) = check_yaml("thm13_trail_wrong", &wrong);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("m=2, n=1: UEG(SP_{4,1}, (1,1))")
            && text.contains("d = 2 does not divide b = 1"),
        "{text}"
    );
}

#[test]
fn bad_certificate_specs_exit_2() {
    for (yaml, why) in [
        (
            SP_6_2_KERNEL.replace("token: \"(1,1)\"", "token: \"(1,1)\"\ncover: rotation"),
            "`cover: rotation` needs `tokens`",
        ),
        (
            SP_6_2_KERNEL.replace("play:", "solver: gf2\nplay:"),
            "either `play` or `solver`",
        ),
        (
            SP_6_2_KERNEL.replace("  kernel:", "  move: \"(2,1)\"\n  replies: []\n  kernel:"),
            "give either",
        ),
    ] {
        let (code, text) = check_yaml("bad", &yaml);
        assert_eq!(code, Some(2), "{text}");
        assert!(text.contains(why), "{why}: {text}");
    }
}

/// Seed 002 handles SP(3,2) by explicit play because no even kernel contains vertex 1: every
/// one of the 32 sets containing (1,1) fails.
#[test]
fn sp_3_2_has_no_even_kernel_at_1() {
    let g = AdjLists::stacked_prism(3, 2).unwrap();
    let one = g.index("(1,1)").unwrap();
    for mask in 0u32..64 {
        let set: Vec<usize> = (0..6).filter(|&v| mask >> v & 1 == 1).collect();
        if set.contains(&one) {
            assert!(check_even_kernel(&g, &set, Some(one)).is_err(), "{set:?}");
        }
    }
    // SP(6,2) does have one (Thm 16 Case 1).
    let g = AdjLists::stacked_prism(6, 2).unwrap();
    let s: Vec<usize> = ["(1,1)", "(2,2)", "(4,2)", "(5,1)"]
        .iter()
        .map(|n| g.index(n).unwrap())
        .collect();
    assert_eq!(check_even_kernel(&g, &s, g.index("(1,1)")), Ok(()));
}

#[test]
fn prism_figure_dot_snapshot() {
    let dir = tempfile::tempdir().unwrap();
    let specs = dir.path().join("specs");
    std::fs::create_dir_all(&specs).unwrap();
    let yaml = spec("thm_14_case_4.yaml")
        .replace("k: \"1..=20\"", "k: \"1..=2\"")
        .replace("fig_sp_7_2_case_4.svg", "unused.dot");
    std::fs::write(specs.join("thm_14_case_4.yaml"), yaml).unwrap();
    let out = dir.path().join("out");
    let templates = Path::new(env!("CARGO_MANIFEST_DIR")).join("templates");
    let o = grundy(&[
        "build",
        "--specs",
        specs.to_str().unwrap(),
        "--templates",
        templates.to_str().unwrap(),
        "--output",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{o:?}");
    let dot = std::fs::read_to_string(out.join("seed002/fig_sp_7_2_case_4.dot")).unwrap();
    let dot = dot.replace(specs.to_str().unwrap(), "<specs>");
    insta::assert_snapshot!("fig_sp_7_2_case_4_dot", dot);
}

#[test]
fn every_sp_m2_certificate_has_a_rejected_wrong_variant() {
    // Shifting the whole family of each kernel by one vertex along the cycle breaks it.
    for name in [
        "thm_14_case_1.yaml",
        "thm_14_case_2.yaml",
        "thm_14_case_3.yaml",
        "thm_14_case_4.yaml",
        "thm_16_case_1.yaml",
        "thm_16_case_2.yaml",
    ] {
        let text = spec(name);
        let (code, out) = check_yaml("right", &text);
        assert_eq!(code, Some(0), "{name}: {out}");
        let wrong = text.replace("(6*i+", "(1+6*i+");
        assert_ne!(wrong, text, "{name}");
        let (code, out) = check_yaml("shifted", &wrong);
        assert_eq!(code, Some(1), "{name}: {out}");
        assert!(out.contains("counterexample: k="), "{name}: {out}");
    }
}

/// `grundy solve` on UEG beyond every bitmask: bipartite components go to the GF(2) criterion
/// (the method is named), whose verdict is re-checked here as a certificate; an odd prism too
/// large to search is refused with exit 2 and an estimate.
#[test]
fn solve_routes_large_bipartite_ueg_to_gf2_and_refuses_the_rest() {
    use grundy::game::ueg::{gf2_verdict, Gf2Verdict};
    for (m, n, token) in [(12, 8, "(1,1)"), (40, 29, "(1,10)"), (6, 8, "(1,1)")] {
        let game = format!("UEG(SP_{{{m},{n}}}, {token})");
        let out = grundy(&["solve", &game, "--json"]);
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        assert_eq!(out.status.code(), Some(0), "{game}: {text}");
        let v: serde_json::Value = serde_json::from_str(text.trim()).unwrap();
        assert_eq!(v["method"], "gf2", "{game}: {text}");
        // The same verdict, with its certificate checked independently.
        let g = AdjLists::stacked_prism(m, n).unwrap();
        let t = g.index(token).unwrap();
        let verdict = gf2_verdict(&g, t).unwrap();
        match &verdict {
            Gf2Verdict::P { kernel } => check_even_kernel(&g, kernel, Some(t)).unwrap(),
            Gf2Verdict::N { to, kernel } => {
                let mut h = g.clone();
                assert!(h.remove_edge(t, *to));
                check_even_kernel(&h, kernel, Some(*to)).unwrap();
            }
        }
        let outcome = if verdict.is_p() { "P" } else { "N" };
        assert_eq!(v["outcome"], outcome, "{game}");
    }
    let out = grundy(&["solve", "UEG(SP_{7,9}, (1,1))"]);
    let err = String::from_utf8_lossy(&out.stderr).replace(['│', '\n'], " ");
    let err = err.split_whitespace().collect::<Vec<_>>().join(" ");
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("refused") && err.contains("positions"),
        "{err}"
    );
    assert!(err.contains("odd cycle"), "{err}");
    // Small odd prisms are still solved exhaustively, with their nim-value.
    let out = grundy(&["solve", "UEG(SP_{5,2}, (1,1))"]);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "nim(UEG(SP_{5,2}, (1,1))) = 1"
    );
}

/// Every certificate carries what its spec checked in the spec's own formal terms, for a
/// reader (issue 42 item 4): Thm 5.29's cases as the spec writes them (the committed output).
#[test]
fn certificates_say_what_was_checked() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("output/certificates/thm_5_29.json");
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("the certificate")).unwrap();
    assert_eq!(
        doc["checked_as"],
        serde_json::json!([
            "nim(TER(W_n)) = 2  when [5, 6, 10, 11, 25, 26, 30, 31].contains(n % 34)",
            "nim(TER(W_n)) = 1  when ![5, 6, 10, 11, 25, 26, 30, 31].contains(n % 34)"
        ])
    );
}
