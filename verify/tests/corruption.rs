//! Each certificate kind, worked by hand from the definitions: the correct certificate
//! verifies (with a small spec it answers), and one corrupted entry makes grundy-verify reject
//! it naming that entry.

use std::path::PathBuf;
use std::process::Command;

/// Runs grundy-verify on a certificates folder holding one certificate, beside a specs folder
/// holding its spec (whose sha256 the certificate records); (exit code, stdout).
fn verify(name: &str, json: &str, spec: &str) -> (i32, String) {
    let dir: PathBuf =
        std::env::temp_dir().join(format!("grundy-verify-test-{}-{name}", std::process::id()));
    let (certs, specs) = (dir.join("certificates"), dir.join("specs"));
    std::fs::create_dir_all(&certs).unwrap();
    std::fs::create_dir_all(&specs).unwrap();
    std::fs::write(specs.join(format!("{name}.yaml")), spec).unwrap();
    let json = json.replacen(
        r#""spec":"#,
        &format!(r#""spec_sha256":"{}","spec":"#, sha256(spec)),
        1,
    );
    std::fs::write(certs.join(format!("{name}.json")), json).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_grundy-verify"))
        .arg(&certs)
        .arg("--specs")
        .arg(&specs)
        .arg("--allow-unverified")
        .output()
        .unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
    )
}

fn sha256(text: &str) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn cert(spec: &str, kind: &str, body: &str) -> String {
    format!(
        r#"{{"format":"grundy-certificate/1","spec":"{spec}","source":"test","kind":"{kind}",{body}}}"#
    )
}

/// The spec each test's certificates answer (`verified` when the verifier re-derives it).
fn spec_of(name: &str) -> (&'static str, bool) {
    match name {
        "ter_p3" => ("kind: claim\ngame: TER(P_3)\nnim: 2\n", true),
        "dc" => (
            "kind: sequence\noctal: \"0.137\"\nperiod: 34\npreperiod: 68\n",
            true,
        ),
        "dc_least" => (
            "kind: sequence\noctal: \"0.137\"\nperiod: 34\npreperiod: 68\nleast_preperiod: true\n",
            true,
        ),
        "c4" => (
            "kind: certificate\ngraph: C_4\ntoken: \"(1,1)\"\nplay: {kernel: \"true\"}\n",
            false,
        ),
        "p2" => (
            "kind: certificate\ngraph: \"graph6:B_\"\ntoken: \"(1,1)\"\nplay: {move: \"(2,1)\"}\n",
            false,
        ),
        "ter_p3_map" => (
            "kind: reduction\nfrom: TER(P_3)\nto: \"*2\"\nclaims: [option_preserving, start_to_start]\n",
            true,
        ),
        _ => ("kind: diagram\n", false),
    }
}

fn accepts(spec: &str, kind: &str, body: &str) {
    let (text, rederived) = spec_of(spec);
    let (code, out) = verify(spec, &cert(spec, kind, body), text);
    assert_eq!(code, 0, "{out}");
    let want = if rederived {
        "verified (claim re-derived): 1 of 1 instances"
    } else {
        "evidence checked, claim not re-derived"
    };
    assert!(out.contains(&format!("{spec:<40} {want}")), "{out}");
}

fn rejects(spec: &str, kind: &str, body: &str, naming: &str) {
    let (code, out) = verify(spec, &cert(spec, kind, body), spec_of(spec).0);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("REJECTED") && out.contains(naming),
        "expected `{naming}` in: {out}"
    );
}

/// TER(P_3) on v0–v1–v2: {v0}, {v2} and every pair are terminating (their complements have
/// hull ≠ V), {v1} is not ([{v0, v2}] = V): nim({v1}) = 1, nim(∅) = mex{0, 1, 0} = 2.
const P3: &str = r#"{"TER":{"graph":{"n":3,"edges":[[0,1],[1,2]]},"start":0}}"#;

#[test]
fn nim_tables() {
    let table = |entries: &str, claim: &str| {
        format!(
            r#""tables":[{{"instance":"","game":{P3},"entries":{entries},"claims":[{claim}]}}]"#
        )
    };
    let good = "[[0,2],[1,0],[2,1],[4,0],[3,0],[6,0]]";
    accepts(
        "ter_p3",
        "nim-tables",
        &table(good, r#"{"pos":0,"start":true,"nim":2}"#),
    );
    // A wrong value: {v1} listed as *0.
    rejects(
        "ter_p3",
        "nim-tables",
        &table(
            "[[0,2],[1,0],[2,0],[4,0],[3,0],[6,0]]",
            r#"{"pos":0,"start":true,"nim":2}"#,
        ),
        "entry 2: position 2 is listed with value 0, but the mex of its 2 options' values is 1",
    );
    // A missing option: {v0, v1} left out.
    rejects(
        "ter_p3",
        "nim-tables",
        &table(
            "[[0,2],[1,0],[2,1],[4,0],[6,0]]",
            r#"{"pos":0,"start":true,"nim":2}"#,
        ),
        "entry 2: option Set(3) of position 2 is not listed",
    );
    // A wrong claim.
    rejects(
        "ter_p3",
        "nim-tables",
        &table(good, r#"{"pos":0,"start":true,"outcome":"P"}"#),
        "claim 0: position 0 has nim-value 2",
    );
}

/// Dawson's Chess 0.137 (A002187): least preperiod 52, period 34; Guy–Smith needs
/// G(n + 34) = G(n) for 52 ≤ n < 2·52 + 34 + 3 = 141, so 175 values.
const DC: &str = "0112031103322405223301130211045274011203110332244552330113021104537481120311033224455933011302110453748112031103322445593301130211045374811203110332244559330113021104537481120311";

#[test]
fn octal_period() {
    let body = |values: &str, pre: usize| {
        let v: Vec<String> = values.chars().map(|c| c.to_string()).collect();
        format!(
            r#""code":"0.137","values":[{}],"period":34,"preperiod":{pre},"stated_period":34,"stated_preperiod":68"#,
            v.join(",")
        )
    };
    accepts("dc", "octal-period", &body(DC, 52));
    let mut bad = DC.to_string();
    bad.replace_range(10..11, "7");
    rejects(
        "dc",
        "octal-period",
        &body(&bad, 52),
        "value 10: listed G(10) = 7, but the octal code gives 3",
    );
    // Preperiod 51 is not one: G(51 + 34) differs from G(51).
    rejects(
        "dc",
        "octal-period",
        &body(DC, 51),
        "Guy–Smith inequality at n = 51",
    );
    // Prop 5.23's preperiod 68 holds but is not the least one (52 is): the spec says least.
    rejects(
        "dc_least",
        "octal-period",
        &body(DC, 52),
        "stated preperiod 68 is not least",
    );
}

#[test]
fn kernels() {
    // C_4 with the token at v0: {v0, v2} is an even kernel (v1, v3 have 2 neighbours in it).
    let c4 = |kernel: &str| {
        format!(
            r#""instances":[{{"instance":"","graph":{{"n":4,"edges":[[0,1],[1,2],[2,3],[3,0]]}},"outcome":"P","tokens":[{{"token":0,"proof":{{"kernel":{kernel}}}}}]}}]"#
        )
    };
    accepts("c4", "kernels", &c4("[0,2]"));
    rejects(
        "c4",
        "kernels",
        &c4("[0]"),
        "token 0: after moves []: vertex 1 outside the kernel has 1 neighbours in it (odd)",
    );
    // P_3 with the token at the end v0: move to v1, then {v1} faces the opponent; with the
    // edge v0v1 deleted, v2 has one neighbour in {v1}: not a kernel. {v1} is one on P_2 though.
    let p = |edges: &str| {
        format!(
            r#""instances":[{{"instance":"","graph":{{"n":3,"edges":{edges}}},"outcome":"N","tokens":[{{"token":0,"proof":{{"move":{{"to":1,"then":{{"kernel":[1]}}}}}}}}]}}]"#
        )
    };
    accepts("p2", "kernels", &p("[[0,1]]"));
    rejects(
        "p2",
        "kernels",
        &p("[[0,1],[1,2]]"),
        "after moves [1]: vertex 2 outside the kernel has 1 neighbours",
    );
}

#[test]
fn maps() {
    // TER(P_3) → *2: ∅ ↦ *2, {v1} ↦ *1, every terminal position ↦ *0 (option-preserving).
    let body = |pairs: &str| {
        format!(
            r#""maps":[{{"instance":"","from":{P3},"to":{{"nim":2}},"pairs":{pairs},"start_to_start":true}}]"#
        )
    };
    accepts(
        "ter_p3_map",
        "maps",
        &body("[[0,2],[1,0],[2,1],[4,0],[3,0],[6,0]]"),
    );
    rejects(
        "ter_p3_map",
        "maps",
        &body("[[0,2],[1,0],[2,1],[4,0],[3,1],[6,0]]"),
        "pair 2: Opt(f(2)) ≠ f(Opt(2))",
    );
}

#[test]
fn strategy() {
    // *1 + *1: whatever the first player takes, the second takes the other heap.
    let body = |reply: &str| {
        format!(
            r#""games":[{{"instance":"","game":{{"sum":[{{"nim":1}},{{"nim":1}}]}},"nodes":{{"S":true,"N":false,"T":true}},"singles":[["S","N"]],"doubles":[["N","T"]],"starts":[[1,1]],"steps":[{{"pos":[1,1],"node":"S","options":[[[0,1],"N"],[[1,0],"N"]]}},{{"pos":[0,1],"node":"N","reply":[{reply},"T"]}},{{"pos":[1,0],"node":"N","reply":[[0,0],"T"]}},{{"pos":[0,0],"node":"T","sink":"terminal"}}]}}]"#
        )
    };
    accepts("nim_sum", "strategy", &body("[0,0]"));
    rejects(
        "nim_sum",
        "strategy",
        &body("[1,1]"),
        "step 1 ([0,1] at N): reply [1,1] is not an option",
    );
}
