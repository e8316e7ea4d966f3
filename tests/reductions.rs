//! Option-preserving maps (`kind: reduction`, docs/design.md §4). The paper's maps hold on
//! their ranges, and every wrong variant (an off-by-one pin index, a missing `*1`, a wrong
//! component, a wrong range, a wrong ordinal sum) is rejected with a counterexample naming
//! the position p, f(p) and an option in the symmetric difference of Opt(f(p)) and f(Opt(p)).

use std::path::PathBuf;
use std::process::Command;

fn spec_text(name: &str) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("specs/paper000/reductions")
        .join(name);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// Checks a spec text written to a temporary file: (exit code, stdout).
fn check(name: &str, text: &str) -> (i32, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .arg("check")
        .arg(&path)
        .output()
        .expect("the grundy binary runs");
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    (out.status.code().unwrap_or(-1), stdout + &stderr)
}

/// A variant of a paper spec with one textual change (which must apply).
fn variant(spec: &str, from: &str, to: &str) -> String {
    let text = spec_text(spec);
    assert!(text.contains(from), "{spec} no longer contains `{from}`");
    text.replace(from, to)
}

fn refuted(name: &str, text: &str, expect: &[&str]) {
    let (code, out) = check(name, text);
    assert_eq!(code, 1, "{name} should be refuted:\n{out}");
    for e in expect {
        assert!(out.contains(e), "{name}: missing `{e}` in\n{out}");
    }
}

#[test]
fn paper_reductions_hold() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("specs/paper000/reductions");
    let out = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .arg("check")
        .arg(&dir)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{text}");
    // Instance counts: 114 = sum_{n=5}^{16} (n-1) wheel/start pairs; 83 multisets with
    // λ >= 2 and sum <= 10; 28 pairs m >= 2, n >= 4, m + n <= 12.
    for line in [
        "prop_5_19                        114 instances",
        "prop_5_20                        114 instances",
        "prop_5_27                        114 instances",
        "sec_5_3_multipartite             83 instances",
        "sec_5_5_generalized_wheel        28 instances",
        "example_3_4_dnt                  8 instances",
        "example_3_4_ter                  8 instances",
    ] {
        assert!(text.contains(line), "missing `{line}` in\n{text}");
    }
}

#[test]
fn prop_5_19_off_by_one_pin_index_is_rejected() {
    let t = variant(
        "prop_5_19.yaml",
        "((k + t) % r + 1)",
        "((k + t + 1) % r + 1)",
    );
    // On W_5 with v1 selected the one pin is v3; the shifted map reads v4 (a neighbour).
    refuted(
        "offbyone.yaml",
        &t,
        &[
            "n=5, k=1: DNT_{v1}(W_5) → DC(1) + *1 at position {v1}",
            "claimed Opt(f(p)) = f(Opt(p))",
            "f(p) = . + *1; . + *1 = f({v1, v3}) is in f(Opt(p)) but not in Opt(f(p))",
        ],
    );
}

#[test]
fn prop_5_19_missing_star_1_is_rejected() {
    let t = variant(
        "prop_5_19.yaml",
        "to: \"DC(pins) + *1\"",
        "to: \"DC(pins)\"",
    );
    let t = t.replace(
        "  row + \" + \" + if marked[\"c\"] { \"*0\" } else { \"*1\" }",
        "  row",
    );
    // Selecting c changes nothing in DC(1): f({v1, c}) = f({v1}) is not an option of it.
    refuted(
        "nostar.yaml",
        &t,
        &[
            "n=5, k=1: DNT_{v1}(W_5) → DC(1) at position {v1}",
            "f(p) = |; | = f({v1, c}) is in f(Opt(p)) but not in Opt(f(p))",
        ],
    );
}

#[test]
fn prop_5_20_wrong_pin_count_is_rejected() {
    let t = variant("prop_5_20.yaml", "pins: \"n - 4\"", "pins: \"n - 3\"");
    refuted(
        "pins.yaml",
        &t,
        &["n=5, k=1: DNT_{c,v1}(W_5) → DC(2) at position {v1, c}"],
    );
}

#[test]
fn prop_5_20_stone_component_is_rejected() {
    // DNT_{c,v_k} has already used c: the image is DC(n-4), not DC(n-4) + *1.
    let t = variant(
        "prop_5_20.yaml",
        "to: \"DC(pins)\"",
        "to: \"DC(pins) + *1\"",
    );
    let t = t.replace("\n  row\nclaims", "\n  row + \" + *1\"\nclaims");
    refuted(
        "stone.yaml",
        &t,
        &[
            "n=5, k=1: DNT_{c,v1}(W_5) → DC(1) + *1 at position {v1, c}",
            "*0 is in Opt(f(p)) but not in f(Opt(p))",
        ],
    );
}

#[test]
fn sec_5_3_needs_two_large_parts() {
    // λ = 1: K_{1,3} is a complete split graph, 𝒢 = {{b1,b2,b3}}, and selecting any b is
    // terminal, while TER{1,2} still has moves.
    let t = variant(
        "sec_5_3_multipartite.yaml",
        "count_ge(parts, 2) >= 2",
        "count_ge(parts, 2) >= 1",
    );
    refuted(
        "lambda1.yaml",
        &t,
        &[
            "parts=[1,3]: TER(K_{1,3}) → TER{1,3} at position {b1}",
            "f(p) = {1,2}; {0,2} is in Opt(f(p)) but not in f(Opt(p))",
            "f(Opt(p)) = {}",
        ],
    );
}

#[test]
fn sec_5_3_marked_instead_of_unmarked_is_rejected() {
    let t = variant(
        "sec_5_3_multipartite.yaml",
        "if !marked[letters",
        "if marked[letters",
    );
    refuted(
        "marked.yaml",
        &t,
        &[
            "parts=[2,2]: TER(K_{2,2}) → TER{2,2} at position {}",
            "f(p) = {0,0}",
        ],
    );
}

#[test]
fn sec_5_5_centres_before_the_rim_go_to_c_lambda() {
    // Sending every position without a selected rim vertex to (m, Λ^n), as a literal reading
    // of f(P_0) = (m, Λ^n) would, is not option-preserving: {c1} must go to (1, Λ^4).
    let t = variant(
        "sec_5_5_generalized_wheel.yaml",
        "\"(\" + c + \",Λ^\" + n + \")\"",
        "\"(\" + m + \",Λ^\" + n + \")\"",
    );
    refuted(
        "m_lambda.yaml",
        &t,
        &[
            "m=2, n=4: TER(W_{2,4}) → SPL(2,4) at position {}",
            "f(p) = (2,Λ^4); (2,Λ^4) = f({c1}) is in f(Opt(p)) but not in Opt(f(p))",
        ],
    );
}

#[test]
fn prop_5_27_needs_star_1() {
    let t = variant(
        "prop_5_27.yaml",
        "to: \"*1 : DNT_{vi}(W_n)\"",
        "to: \"*2 : DNT_{vi}(W_n)\"",
    )
    .replace("\"(*1, \" + label", "\"(*2, \" + label");
    // (*2, {v1}) has the option (*1, {v1}), which is not terminal: TER has no such move.
    refuted(
        "star2.yaml",
        &t,
        &[
            "n=5, i=1: TER_{v1}(W_5) → *2 : DNT_{v1}(W_5) at position {v1}",
            "f(p) = (*2, {v1}); (*1, {v1}) is in Opt(f(p)) but not in f(Opt(p))",
        ],
    );
    // Without the ordinal sum the terminal class is missing from the options of {v1, c}-like
    // positions: DNT alone is not isomorphic to TER modulo terminal positions.
    let t = variant(
        "prop_5_27.yaml",
        "to: \"*1 : DNT_{vi}(W_n)\"",
        "to: \"DNT_{vi}(W_n)\"",
    );
    let t = t.replace(
        "if terminating { \"(*0, {\" + vi + \"})\" } else { \"(*1, \" + label + \")\" }",
        "if terminating { \"{\" + vi + \"}\" } else { label }",
    );
    refuted(
        "nostar.yaml",
        &t,
        &["n=5, i=1: TER_{v1}(W_5) → DNT_{v1}(W_5)"],
    );
}

#[test]
fn example_3_4_quotient_identifies_positions() {
    // The automorphism quotient is not injective: {v1} and {v2} are congruent.
    let t = variant(
        "example_3_4_dnt.yaml",
        "claims: [option_preserving, surjective, start_to_start]",
        "claims: [option_preserving, injective]",
    );
    refuted(
        "inj.yaml",
        &t,
        &[
            "n=5: DNT(W_5) → DNT(W_5) at position {v2}",
            "f({v1}) = f({v2}) = [{v1}]",
        ],
    );
}

#[test]
fn bad_reduction_specs_exit_2() {
    let base = spec_text("prop_5_19.yaml");
    for (from, to, msg) in [
        (
            "claims: [option_preserving, surjective, start_to_start]",
            "claims: [option_preserving, bijective]",
            "unknown claim `bijective`",
        ),
        (
            "to: \"DC(pins) + *1\"",
            "to: \"DC(pins) + *1\"\nquotient: automorphisms",
            "either `map` or `quotient`",
        ),
        (
            "  row + \" + \" + if marked",
            "  row + \" + \" + if marked[",
            "bad map script",
        ),
        (
            "  row + \" + \" + if marked[\"c\"] { \"*0\" } else { \"*1\" }",
            "  row",
            "not a position of DC(1) + *1",
        ),
    ] {
        assert!(base.contains(from), "{from}");
        let (code, out) = check("bad.yaml", &base.replace(from, to));
        assert_eq!(code, 2, "{msg}:\n{out}");
        assert!(out.contains(msg), "missing `{msg}` in\n{out}");
    }
}
