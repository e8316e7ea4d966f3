//! The tampering suite (issue 26): real certificates written by `grundy build` (copied into
//! tests/data/certificates with their specs in tests/data/specs, one or two per kind), each
//! edited by hand the way a forger would — drop, truncate, relabel, change a value, change a
//! graph, weaken a flag, forge a strategy, overflow — must be rejected with a message naming
//! what is wrong. The unedited certificates verify with their claims re-derived.

use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::Command;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data");

fn sha256(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A scratch copy of tests/data, edited by one test.
struct Scratch {
    dir: PathBuf,
}

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!(
            "grundy-verify-tamper-{}-{name}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        // The output folder's rendered tables sit beside the certificates, as in output/.
        for sub in ["specs", "certificates", "paper000", "es2018"] {
            std::fs::create_dir_all(dir.join(sub)).unwrap();
            for e in std::fs::read_dir(Path::new(DATA).join(sub)).unwrap() {
                let p = e.unwrap().path();
                std::fs::copy(&p, dir.join(sub).join(p.file_name().unwrap())).unwrap();
            }
        }
        Scratch { dir }
    }

    fn cert_path(&self, id: &str) -> PathBuf {
        self.dir.join("certificates").join(format!("{id}.json"))
    }

    fn cert(&self, id: &str) -> Value {
        serde_json::from_slice(&std::fs::read(self.cert_path(id)).unwrap()).unwrap()
    }

    fn put_cert(&self, id: &str, v: &Value) {
        std::fs::write(self.cert_path(id), serde_json::to_vec(v).unwrap()).unwrap();
    }

    /// Edits a certificate in place.
    fn edit(&self, id: &str, f: impl FnOnce(&mut Value)) {
        let mut v = self.cert(id);
        f(&mut v);
        self.put_cert(id, &v);
    }

    fn spec_path(&self, id: &str) -> PathBuf {
        self.dir.join("specs").join(format!("{id}.yaml"))
    }

    /// Edits a spec and records the new bytes' sha256 in its certificate, as a forger who
    /// regenerates the binding would: what the spec now states is what must be re-derived.
    fn edit_spec(&self, id: &str, f: impl FnOnce(&str) -> String) {
        let text = f(&std::fs::read_to_string(self.spec_path(id)).unwrap());
        std::fs::write(self.spec_path(id), &text).unwrap();
        self.edit(id, |c| c["spec_sha256"] = json!(sha256(text.as_bytes())));
    }

    /// Runs the verifier; (exit code, stdout).
    fn run(&self, extra: &[&str]) -> (i32, String) {
        let out = Command::new(env!("CARGO_BIN_EXE_grundy-verify"))
            .arg(self.dir.join("certificates"))
            .arg("--specs")
            .arg(self.dir.join("specs"))
            .args(extra)
            .output()
            .unwrap();
        (
            out.status.code().unwrap(),
            String::from_utf8(out.stdout).unwrap() + &String::from_utf8(out.stderr).unwrap(),
        )
    }

    /// The verifier's line for one spec.
    fn line(&self, id: &str) -> (i32, String) {
        let (code, out) = self.run(&["--allow-unverified"]);
        let line = out
            .lines()
            .find(|l| l.split_whitespace().next() == Some(id))
            .unwrap_or_else(|| panic!("no line for {id} in:\n{out}"))
            .to_string();
        (code, line)
    }

    fn rejected(&self, id: &str, naming: &str) {
        let (code, line) = self.line(id);
        assert_eq!(code, 1, "{line}");
        assert!(
            line.contains("REJECTED") && line.contains(naming),
            "expected REJECTED naming `{naming}`: {line}"
        );
    }

    fn verified(&self, id: &str, what: &str) {
        let (code, line) = self.line(id);
        assert_eq!(code, 0, "{line}");
        assert!(
            line.contains(&format!("verified (claim re-derived): {what}")),
            "expected verified {what}: {line}"
        );
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

#[test]
fn unedited_certificates_verify_with_their_claims_rederived() {
    let s = Scratch::new("pristine");
    s.verified("prop_5_30_dnt", "11 of 11 instances");
    s.verified("example_3_2_dnt", "1 of 1 instances");
    s.verified("prop_5_23", "1 of 1 instances");
    s.verified("fig_2", "1 of 1 instances");
    s.verified("thm_14_case_1", "16 of 20 instances");
    s.verified("wheel_map_small", "4 of 4 instances");
    s.verified("lemma_5_37_diagram", "20 of 20 instances");
    s.verified("prop_4_8_dnt", "30 of 30 instances");
    s.verified("prop_4_3", "334 of 334 instances");
    s.verified("closure_weighted_ter", "4 of 4 instances");
    s.verified("closure_weighted_dnt", "3 of 3 instances");
    let (_, line) = s.line("thm_5_24");
    assert!(line.contains("not certified"), "{line}");
}

/// The exit rule: a spec grundy reports as holding that is not fully verified fails the run
/// (unless allowed), and says which.
#[test]
fn holding_specs_not_fully_verified_fail_the_run() {
    let s = Scratch::new("exit");
    let report = s.dir.join("report.json");
    let r = json!({"reports": [
        {"id": "prop_5_30_dnt", "verdict": "holds", "certificate": "certificate written: certificates/prop_5_30_dnt.json"},
        {"id": "thm_14_case_1", "verdict": "holds", "certificate": "certificate written: certificates/thm_14_case_1.json"},
    ]});
    std::fs::write(&report, r.to_string()).unwrap();
    let rep = report.to_str().unwrap();
    let (code, out) = s.run(&["--report", rep]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("1 specs grundy reports as holding are not fully verified"),
        "{out}"
    );
    let (code, out) = s.run(&["--report", rep, "--allow-unverified"]);
    assert_eq!(code, 0, "{out}");
    // A certificate grundy reports writing that is missing is not verified either.
    std::fs::remove_file(s.cert_path("prop_5_30_dnt")).unwrap();
    let (code, out) = s.run(&["--report", rep, "--allow-unverified"]);
    assert!(
        out.contains("prop_5_30_dnt") && out.contains("reports writing is missing"),
        "{out}"
    );
    assert_eq!(code, 0, "{out}");
}

#[test]
fn nim_tables_edited() {
    let s = Scratch::new("tables");
    // Truncate: 11 instances to 3.
    s.edit("prop_5_30_dnt", |c| {
        c["tables"].as_array_mut().unwrap().truncate(3)
    });
    s.rejected(
        "prop_5_30_dnt",
        "instance m=5 of the spec is neither certified nor listed as not certified",
    );
    let s = Scratch::new("tables-drop-claims");
    // Drop the claims of one instance.
    s.edit("prop_5_30_dnt", |c| c["tables"][2]["claims"] = json!([]));
    s.rejected(
        "prop_5_30_dnt",
        "instance m=4: the table states no claim at the start",
    );
    let s = Scratch::new("tables-value");
    // Change a value.
    s.edit("prop_5_30_dnt", |c| {
        c["tables"][0]["entries"][0][1] = json!(0)
    });
    s.rejected(
        "prop_5_30_dnt",
        "instance m=2: entry 0: position 0 is listed with value 0, but the mex",
    );
    let s = Scratch::new("tables-relabel");
    // Relabel: two tables for one instance, and one for an instance the spec does not name.
    s.edit("prop_5_30_dnt", |c| {
        c["tables"][1]["instance"] = json!("m=2")
    });
    s.rejected(
        "prop_5_30_dnt",
        "instance m=2: the table's game is not DNT(W_{2,3}), which its label names",
    );
    let s = Scratch::new("tables-twice");
    s.edit("prop_5_30_dnt", |c| {
        let first = c["tables"][0].clone();
        c["tables"].as_array_mut().unwrap().push(first)
    });
    s.rejected("prop_5_30_dnt", "instance m=2 is certified twice");
    let s = Scratch::new("tables-relabel-out");
    s.edit("prop_5_30_dnt", |c| {
        c["tables"][1]["instance"] = json!("m=99")
    });
    s.rejected(
        "prop_5_30_dnt",
        "instance m=99: the table's game is not DNT(W_{99,3}), which its label names",
    );
    let s = Scratch::new("tables-relabel-other");
    s.edit("prop_5_30_dnt", |c| {
        c["tables"][1]["instance"] = json!("m three")
    });
    s.rejected(
        "prop_5_30_dnt",
        "certifies instance m three, which is not an instance of the spec",
    );
    let s = Scratch::new("tables-graph");
    // Change the graph: an isolated vertex added (every table entry stays a vertex set).
    s.edit("prop_5_30_dnt", |c| {
        let n = &mut c["tables"][0]["game"]["DNT"]["graph"]["n"];
        *n = json!(n.as_u64().unwrap() + 1);
    });
    s.rejected("prop_5_30_dnt", "instance m=2");
    // The table says nim(DNT(W_{2,3})) = 1 = the spec's claim; forging a table of a different
    // game with the right value and the spec's label is caught by the game check.
    let s = Scratch::new("tables-game");
    let other = s.cert("prop_5_30_dnt")["tables"][1].clone();
    s.edit("prop_5_30_dnt", |c| {
        let mut t = other;
        t["instance"] = json!("m=2");
        c["tables"][0] = t;
        c["tables"].as_array_mut().unwrap().remove(1);
    });
    s.rejected(
        "prop_5_30_dnt",
        "instance m=2: the table's game is not DNT(W_{2,3}), which its label names",
    );
}

/// prop_4_4-style: a table of a set of graphs the verifier does not enumerate, relabelled as
/// another graph6 string with the table unchanged.
#[test]
fn graph_set_table_relabelled() {
    let s = Scratch::new("graph6");
    s.edit("prop_4_8_dnt", |c| {
        c["tables"][3]["instance"] = json!("H=CN");
        c["tables"].as_array_mut().unwrap().remove(5);
    });
    s.rejected(
        "prop_4_8_dnt",
        "instance H=CN: the table's game is not DNT(Corona(graph6:CN)), which its label names",
    );
}

/// example_3_2_dnt's certificate (nim(DNT(K_1)) = 0) passed off as Theorem 5.24's.
#[test]
fn certificate_of_another_spec() {
    let s = Scratch::new("swap");
    let mut c = s.cert("example_3_2_dnt");
    c["spec"] = json!("thm_5_24");
    s.put_cert("thm_5_24", &c);
    s.rejected("thm_5_24", "the certificate was made from other spec bytes");
    // With the binding forged too (the sha256 of thm_5_24's spec), the instance list is wrong.
    let text = std::fs::read(s.spec_path("thm_5_24")).unwrap();
    c["spec_sha256"] = json!(sha256(&text));
    s.put_cert("thm_5_24", &c);
    s.rejected("thm_5_24", "which is not an instance of the spec");
    // Under another file name.
    let s = Scratch::new("swap-name");
    let c = s.cert("example_3_2_dnt");
    s.put_cert("thm_5_24", &c);
    s.rejected(
        "thm_5_24",
        "the file thm_5_24.json holds a certificate for spec example_3_2_dnt",
    );
    // No binding at all.
    let s = Scratch::new("no-sha");
    s.edit("example_3_2_dnt", |c| {
        c.as_object_mut().unwrap().remove("spec_sha256");
    });
    s.rejected("example_3_2_dnt", "records no spec_sha256");
}

#[test]
fn octal_period_edited() {
    // The certificate's stated values truncated: the verifier checks the spec's 102 values.
    let s = Scratch::new("octal-stated");
    s.edit("prop_5_23", |c| {
        c["stated_values"].as_array_mut().unwrap().truncate(10)
    });
    s.verified("prop_5_23", "1 of 1 instances");
    // A listed value changed in the spec (binding regenerated): caught.
    s.edit_spec("prop_5_23", |t| {
        t.replace(
            "values: >-\n  0112031103322405223301130211045274",
            "values: >-\n  0112031103322405223301130211045275",
        )
    });
    s.rejected(
        "prop_5_23",
        "stated value 33: the spec lists 5, the octal code gives 4",
    );
    // A false preperiod in the spec.
    let s = Scratch::new("octal-preperiod");
    s.edit_spec("prop_5_23", |t| t.replace("preperiod: 68", "preperiod: 30"));
    s.rejected("prop_5_23", "stated period 34 from 30 fails");
    // A stated period 1 with a preperiod near 2^64: refused, not wrapped.
    let s = Scratch::new("octal-spec-overflow");
    s.edit_spec("prop_5_23", |t| {
        t.replace("period: 34\n", "period: 1\n")
            .replace("preperiod: 68", "preperiod: 18446744073709551000")
    });
    s.rejected(
        "prop_5_23",
        "stated preperiod 18446744073709551000 is past the computed values",
    );
    // The certificate's own period proof with absurd numbers.
    for pre in [u64::MAX, 1 << 63] {
        let s = Scratch::new("octal-overflow");
        s.edit("prop_5_23", |c| {
            c["period"] = json!(1);
            c["preperiod"] = json!(pre);
        });
        s.rejected("prop_5_23", "not a period proof (zero period or overflow)");
    }
    let s = Scratch::new("octal-period");
    s.edit("prop_5_23", |c| c["period"] = json!(17));
    s.rejected("prop_5_23", "Guy–Smith inequality at n = 52");
    // A huge sequence is refused up front (the recursion is quadratic).
    let s = Scratch::new("octal-huge");
    s.edit("prop_5_23", |c| c["values"] = json!(vec![0; 25_000]));
    s.rejected(
        "prop_5_23",
        "25000 values: the verifier recomputes at most 20000",
    );
    let s = Scratch::new("octal-value");
    s.edit("prop_5_23", |c| c["values"][7] = json!(3));
    s.rejected(
        "prop_5_23",
        "value 7: listed G(7) = 3, but the octal code gives 1",
    );
}

#[test]
fn kernels_edited() {
    // Drop one token.
    let s = Scratch::new("kernel-token");
    s.edit("fig_2", |c| {
        c["instances"][0]["tokens"].as_array_mut().unwrap().pop();
    });
    s.rejected(
        "fig_2",
        "the certificate's tokens are not the spec's (72 stated, 71 certified",
    );
    // Drop the instance.
    let s = Scratch::new("kernel-instance");
    s.edit("fig_2", |c| c["instances"] = json!([]));
    s.rejected(
        "fig_2",
        "instance m=6, n=8 of the spec is neither certified nor listed",
    );
    // Change the graph: one edge of SP_{12,8} deleted (wherever the kernel check passes, the
    // graph check fails), or an isolated vertex added (the kernels stay even kernels).
    let s = Scratch::new("kernel-edge");
    s.edit("fig_2", |c| {
        c["instances"][0]["graph"]["edges"]
            .as_array_mut()
            .unwrap()
            .remove(0);
    });
    s.rejected("fig_2", "instance m=6, n=8");
    let s = Scratch::new("kernel-vertex");
    s.edit("fig_2", |c| c["instances"][0]["graph"]["n"] = json!(97));
    s.rejected(
        "fig_2",
        "instance m=6, n=8: the certificate's graph is not the spec's SP_{12,8}",
    );
    // Weaken: claim N where the spec claims P (the proof no longer fits either).
    let s = Scratch::new("kernel-outcome");
    s.edit("fig_2", |c| c["instances"][0]["outcome"] = json!("N"));
    s.rejected("fig_2", "a kernel where the prover is to move");
    // Forge a kernel.
    let s = Scratch::new("kernel-forged");
    s.edit("fig_2", |c| {
        c["instances"][0]["tokens"][0]["proof"]["kernel"] = json!([0])
    });
    s.rejected(
        "fig_2",
        "token 0: after moves []: vertex 1 outside the kernel has 1 neighbours",
    );
    // An N-certificate's move along no edge.
    let s = Scratch::new("kernel-move");
    s.edit("thm_14_case_1", |c| {
        c["instances"][0]["tokens"][0]["proof"]["move"]["to"] = json!(5)
    });
    s.rejected("thm_14_case_1", "move 0→5 uses no remaining edge");
    // A huge vertex count is refused before any loop over it.
    let s = Scratch::new("kernel-huge");
    s.edit("fig_2", |c| {
        c["instances"][0]["graph"]["n"] = json!(1_000_000_000_000u64)
    });
    s.rejected("fig_2", "the verifier reads at most 100000");
}

#[test]
fn maps_edited() {
    // Weakening the certificate's flag changes nothing: the spec's claims are what is checked.
    let s = Scratch::new("map-flag");
    s.edit("wheel_map_small", |c| {
        c["maps"][0]["start_to_start"] = json!(false)
    });
    s.verified("wheel_map_small", "4 of 4 instances");
    // The start sent elsewhere: the spec's start_to_start claim fails, or preservation does.
    let s = Scratch::new("map-start");
    s.edit("wheel_map_small", |c| {
        c["maps"][0]["pairs"][0][1] = json!({"c": 2, "Lambda": 3})
    });
    s.rejected("wheel_map_small", "instance m=2, n=4");
    // Drop a pair.
    let s = Scratch::new("map-pair");
    s.edit("wheel_map_small", |c| {
        c["maps"][0]["pairs"].as_array_mut().unwrap().pop();
    });
    s.rejected("wheel_map_small", "is not mapped");
    // Change a value of the map.
    let s = Scratch::new("map-value");
    s.edit("wheel_map_small", |c| {
        c["maps"][0]["pairs"][1][1] = json!({"c": 0, "Lambda": 4})
    });
    s.rejected("wheel_map_small", "pair 0: Opt(f(0)) ≠ f(Opt(0))");
    // Truncate the instances.
    let s = Scratch::new("map-truncate");
    s.edit("wheel_map_small", |c| {
        c["maps"].as_array_mut().unwrap().pop();
    });
    s.rejected(
        "wheel_map_small",
        "instance m=3, n=5 of the spec is neither certified nor listed",
    );
    // Another target game under the same label.
    let s = Scratch::new("map-game");
    s.edit("wheel_map_small", |c| {
        c["maps"][0]["to"] = json!({"SPL": {"c": 2, "Lambda": 5}})
    });
    s.rejected("wheel_map_small", "instance m=2, n=4");
}

/// Positions of SPL(2,[2]): (2,[2]) → (1,[2]) terminal, (2,[1]); (2,[1]) → (1,[1]) terminal,
/// (2,[]); (2,[]) → (1,[]) terminal. Its nim-value is 1 (mex{0, nim(2,[1])} with
/// nim(2,[1]) = mex{0, nim(2,[])} = mex{0, 1} = 2): the start is an N-position.
fn forged_spl_2_2(node_p: bool, singles: Value) -> Value {
    let p = |c: u32, parts: &[u32]| json!({"c": c, "parts": parts});
    let opt = |q: Value| json!([q, "X"]);
    json!({
        "format": "grundy-certificate/1", "spec": "forged", "source": "test", "kind": "strategy",
        "not_certified": [],
        "games": [{
            "instance": "SPL(2,[2])", "game": {"SPL": p(2, &[2])},
            "nodes": {"X": node_p}, "singles": singles, "doubles": [],
            "starts": [p(2, &[2])],
            "steps": [
                {"pos": p(2, &[2]), "node": "X", "options": [opt(p(1, &[2])), opt(p(2, &[1]))]},
                {"pos": p(2, &[1]), "node": "X", "options": [opt(p(1, &[1])), opt(p(2, &[]))]},
                {"pos": p(2, &[]), "node": "X", "options": [opt(p(1, &[]))]},
                {"pos": p(1, &[2]), "node": "X", "sink": "terminal"},
                {"pos": p(1, &[1]), "node": "X", "sink": "terminal"},
                {"pos": p(1, &[]), "node": "X", "sink": "terminal"},
            ],
            "table": []
        }]
    })
}

#[test]
fn strategies_forged() {
    let s = Scratch::new("forged");
    let spec = "kind: diagram\nsource: forged\n";
    std::fs::write(s.spec_path("forged"), spec).unwrap();
    let mut c = forged_spl_2_2(true, json!([["X", "X"]]));
    c["spec_sha256"] = json!(sha256(spec.as_bytes()));
    s.put_cert("forged", &c);
    s.rejected("forged", "single arrow X → X does not alternate");
    // The real diagram of Lemma 5.37 with a loop added, a reply arrow reversed, an option left
    // out, a sink moved to an N-node.
    let s = Scratch::new("diagram-loop");
    s.edit("lemma_5_37_diagram", |c| {
        c["games"][0]["singles"]
            .as_array_mut()
            .unwrap()
            .push(json!(["S", "S"]))
    });
    s.rejected(
        "lemma_5_37_diagram",
        "single arrow S → S does not alternate",
    );
    let s = Scratch::new("diagram-reverse");
    s.edit("lemma_5_37_diagram", |c| {
        c["games"][0]["doubles"]
            .as_array_mut()
            .unwrap()
            .push(json!(["S", "N1"]))
    });
    s.rejected(
        "lemma_5_37_diagram",
        "double arrow S → N1 does not alternate",
    );
    let s = Scratch::new("diagram-option");
    let at = s.cert("lemma_5_37_diagram")["games"][0]["steps"]
        .as_array()
        .unwrap()
        .iter()
        .position(|st| st["options"].as_array().is_some_and(|o| o.len() > 1))
        .unwrap();
    s.edit("lemma_5_37_diagram", |c| {
        c["games"][0]["steps"][at]["options"]
            .as_array_mut()
            .unwrap()
            .pop();
    });
    s.rejected("lemma_5_37_diagram", "covered");
    // Drop one start of the spec's family (c = 20): the spec names it, the strategy does not.
    let s = Scratch::new("diagram-drop-start");
    s.edit("lemma_5_37_diagram", |c| {
        c["games"][0]["starts"]
            .as_array_mut()
            .unwrap()
            .retain(|p| p["c"] != json!(20))
    });
    s.rejected(
        "lemma_5_37_diagram",
        "start game SPL(20,[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]) of the spec is not a start of the certificate's strategy",
    );
    let s = Scratch::new("diagram-start");
    s.edit("lemma_5_37_diagram", |c| {
        c["games"][0]["starts"]
            .as_array_mut()
            .unwrap()
            .push(json!({"c": 2, "parts": [2]}))
    });
    s.rejected("lemma_5_37_diagram", "is not met at a P-node");
}

/// Closure games (DNG of Sym(n), Benesh–Ernst–Sieben 2016): the verifier recomputes the
/// maximal subgroups and the value, so every edit of them, of the instance list or of the
/// spec's claim is caught.
#[test]
fn closure_values_edited() {
    let id = "dng_criterion_symmetric";
    let s = Scratch::new("closure-pristine");
    s.verified(id, "4 of 4 instances");
    // A value changed (n=4: DNG(Sym(4)) = 0).
    let s = Scratch::new("closure-value");
    s.edit(id, |c| c["instances"][2]["value"] = json!(3));
    s.rejected(
        id,
        "instance n=4: the certificate states nim(DNG(Sym(4))) = 3, the verifier computes 0",
    );
    // A maximal subgroup dropped.
    let s = Scratch::new("closure-drop-set");
    s.edit(id, |c| {
        c["instances"][3]["maximal_sets"]
            .as_array_mut()
            .unwrap()
            .remove(0);
    });
    s.rejected(
        id,
        "instance n=5: the certificate omits the maximal legal set",
    );
    // A maximal subgroup replaced by a smaller set (its first two elements).
    let s = Scratch::new("closure-shrink-set");
    s.edit(id, |c| {
        c["instances"][1]["maximal_sets"][0]
            .as_array_mut()
            .unwrap()
            .truncate(1);
    });
    s.rejected(
        id,
        "instance n=3: the certificate lists [0] as a maximal legal set",
    );
    // An instance dropped.
    let s = Scratch::new("closure-drop-instance");
    s.edit(id, |c| {
        c["instances"].as_array_mut().unwrap().remove(1);
    });
    s.rejected(
        id,
        "instance n=3 of the spec is neither certified nor listed as not certified",
    );
    // The game relabelled.
    let s = Scratch::new("closure-game");
    s.edit(id, |c| c["instances"][0]["game"] = json!("GEN"));
    s.rejected(id, "instance n=2: the certificate's game is GEN(Sym(2))");
    // The spec changed without the binding: other bytes than the certificate was made from.
    let s = Scratch::new("closure-spec-bytes");
    let p = s.spec_path(id);
    let text = std::fs::read_to_string(&p).unwrap();
    std::fs::write(&p, text.replace("n: 2..=5", "n: 2..=6")).unwrap();
    s.rejected(id, "the certificate was made from other spec bytes");
    // The spec's claim changed, and the binding regenerated: the claim (3 for every n) is
    // re-derived and fails at n=2 (DNG(Sym(2)) = 1).
    let s = Scratch::new("closure-spec-claim");
    s.edit_spec(id, |t| {
        let at = t.find("nim: >-").unwrap();
        format!("{}nim: \"3\"\n", &t[..at])
    });
    s.rejected(
        id,
        "instance n=2: nim(DNG(Sym(2))) = 1 by the verifier, but the spec states 3",
    );
}

/// Closure games on graphs (fixtures written by `grundy build` from the specs in tests/data:
/// DNG(P_n) under the hull, GEN(K_n) under the geodetic closure, GEN(C_n) under the
/// monophonic hull): the verifier builds each graph, its closure and 𝓝 itself, so a changed
/// value, a dropped or shrunken maximal set, another structure or closure, or a changed claim
/// is caught.
#[test]
fn graph_closure_values_edited() {
    let s = Scratch::new("graph-closure-pristine");
    s.verified("closure_path_dng", "19 of 19 instances");
    s.verified("closure_complete_geodetic", "9 of 9 instances");
    s.verified("closure_cycle_monophonic", "9 of 9 instances");
    // A value changed (n=5: DNG(P_5) = pty(4) = 0), on an instance solved exhaustively and on
    // one past the exhaustive bound (n=20: by structure classes on 𝓝).
    let id = "closure_path_dng";
    let s = Scratch::new("graph-closure-value");
    s.edit(id, |c| c["instances"][3]["value"] = json!(1));
    s.rejected(
        id,
        "instance n=5: the certificate states nim(DNG(P_5)) = 1, the verifier computes 0",
    );
    let s = Scratch::new("graph-closure-value-large");
    s.edit(id, |c| c["instances"][18]["value"] = json!(0));
    s.rejected(
        id,
        "instance n=20: the certificate states nim(DNG(P_20)) = 0, the verifier computes 1",
    );
    // A maximal set dropped, and one replaced by a smaller set.
    let id = "closure_cycle_monophonic";
    let s = Scratch::new("graph-closure-drop-set");
    s.edit(id, |c| {
        c["instances"][2]["maximal_sets"]
            .as_array_mut()
            .unwrap()
            .remove(1);
    });
    s.rejected(
        id,
        "instance n=6: the certificate omits the maximal legal set [0, 5] of GEN(C_6)",
    );
    let s = Scratch::new("graph-closure-shrink-set");
    s.edit(id, |c| {
        c["instances"][0]["maximal_sets"][0]
            .as_array_mut()
            .unwrap()
            .truncate(1);
    });
    s.rejected(
        id,
        "instance n=4: the certificate lists [0] as a maximal legal set of GEN(C_4), which it is not",
    );
    // Another structure: the certificate's entry names P_6 for the spec's P_5.
    let id = "closure_path_dng";
    let s = Scratch::new("graph-closure-structure");
    s.edit(id, |c| c["instances"][3]["structure"] = json!("P_6"));
    s.rejected(id, "instance n=5: the certificate's game is DNG(P_6)");
    // Another closure named in the certificate (the same values on K_n: the label is checked).
    let id = "closure_complete_geodetic";
    let s = Scratch::new("graph-closure-kind");
    s.edit(id, |c| c["instances"][2]["closure"] = json!("hull"));
    s.rejected(
        id,
        "instance n=3: the certificate's game is GEN(K_3) under the hull closure",
    );
    // The spec's closure changed (binding regenerated): C_n under the convex hull is another
    // game; relabelling the certificate to match leaves its monophonic 𝓝 (the edges), which
    // the verifier's hull does not have from C_5 on (there the arc {v1, v2, v3} is convex;
    // on C_4 both closures have the edges as 𝓝).
    let id = "closure_cycle_monophonic";
    let s = Scratch::new("graph-closure-spec-closure");
    s.edit_spec(id, |t| t.replace("closure: monophonic", "closure: hull"));
    s.rejected(
        id,
        "instance n=4: the certificate's game is GEN(C_4) under the monophonic closure",
    );
    let s = Scratch::new("graph-closure-spec-closure-relabelled");
    s.edit_spec(id, |t| t.replace("closure: monophonic", "closure: hull"));
    s.edit(id, |c| {
        for i in c["instances"].as_array_mut().unwrap() {
            i["closure"] = json!("hull");
        }
    });
    s.rejected(
        id,
        "instance n=5: the certificate lists [0, 1] as a maximal legal set of GEN(C_5), which it is not",
    );
    // The spec's claim changed, the binding regenerated: pty(n) fails at n=2.
    let id = "closure_path_dng";
    let s = Scratch::new("graph-closure-spec-claim");
    s.edit_spec(id, |t| t.replace("pty(n - 1)", "pty(n)"));
    s.rejected(
        id,
        "instance n=2: nim(DNG(P_2)) = 1 by the verifier, but the spec states 0",
    );
}

/// Complete multipartite graphs past 64 vertices (seed 000 Prop 5.15 on 73 to 231 vertices):
/// the verifier re-derives 𝓜 up to the graph's automorphisms (the maximal legal count
/// vectors) and the value by its own count recursion.
#[test]
fn multipartite_closure_values_edited() {
    let id = "prop_5_15_large";
    let s = Scratch::new("multipartite-pristine");
    s.verified(id, "60 of 60 instances");
    let s = Scratch::new("multipartite-value");
    s.edit(id, |c| c["instances"][1]["value"] = json!(0));
    s.rejected(
        id,
        "instance a=2, b=2, c=70: the certificate states nim(TER(K_{2,2,70})) = 0, the verifier computes 1",
    );
    let s = Scratch::new("multipartite-drop-count");
    s.edit(id, |c| {
        c["instances"][1]["maximal_counts"]
            .as_array_mut()
            .unwrap()
            .remove(2);
    });
    s.rejected(
        id,
        "instance a=2, b=2, c=70: the certificate omits the maximal legal count vector [2, 2, 68]",
    );
    let s = Scratch::new("multipartite-wrong-count");
    s.edit(id, |c| {
        c["instances"][0]["maximal_counts"][1] = json!([1, 2, 69])
    });
    s.rejected(
        id,
        "instance a=1, b=2, c=70: the certificate lists [1, 2, 69] as a maximal legal count vector",
    );
    let s = Scratch::new("multipartite-no-counts");
    s.edit(id, |c| {
        c["instances"][0]
            .as_object_mut()
            .unwrap()
            .remove("maximal_counts");
    });
    s.rejected(
        id,
        "instance a=1, b=2, c=70: the certificate lists no maximal legal count vectors",
    );
    let s = Scratch::new("multipartite-structure");
    s.edit(id, |c| c["instances"][0]["structure"] = json!("K_{1,2,71}"));
    s.rejected(
        id,
        "instance a=1, b=2, c=70: the certificate's game is TER(K_{1,2,71})",
    );
    let s = Scratch::new("multipartite-closure");
    s.edit(id, |c| {
        c["instances"][0]["closure"] = json!("multipartite-geodetic")
    });
    s.rejected(
        id,
        "instance a=1, b=2, c=70: the certificate's game is TER(K_{1,2,70}) under the multipartite-geodetic closure",
    );
    let s = Scratch::new("multipartite-game");
    s.edit(id, |c| c["instances"][0]["game"] = json!("DNT"));
    s.rejected(
        id,
        "instance a=1, b=2, c=70: the certificate's game is DNT(K_{1,2,70})",
    );
    // The claim changed (the first case's 0 made 1), the binding regenerated.
    let s = Scratch::new("multipartite-spec-claim");
    s.edit_spec(id, |t| {
        t.replace(
            "{ when: \"pty(v) == 0 && d <= 1\", value: 0 }",
            "{ when: \"pty(v) == 0 && d <= 1\", value: 1 }",
        )
    });
    s.rejected(id, "by the verifier, but the spec states 1");
}

/// Specs over every connected graph on at most 7 vertices whose formulas read features of the
/// graph (`vertices`; 𝒢 and 𝒩*: `gen_unique`, `gen_complement`): the verifier enumerates the
/// graphs and computes the features itself, so a changed claim or selection is caught.
#[test]
fn graph_features_rederived() {
    // Prop 4.8 with the parity shifted: fails at the first corona, K_2.
    let s = Scratch::new("features-vertices");
    s.edit_spec("prop_4_8_dnt", |t| {
        t.replace("pty(vertices / 2)", "pty(vertices / 2 + 1)")
    });
    s.rejected(
        "prop_4_8_dnt",
        "instance H=A_: DNT(Corona(graph6:A_)) has nim-value 0 at Set(0) by the table, but the spec states 1",
    );
    // Prop 4.3 with the parity of |V ∖ L| flipped.
    let s = Scratch::new("features-gen-complement");
    s.edit_spec("prop_4_3", |t| {
        t.replace("pty(gen_complement)", "pty(gen_complement + 1)")
    });
    s.rejected(
        "prop_4_3",
        "instance G=@: DNT(graph6:@) has nim-value 0 at Set(0) by the table, but the spec states 1",
    );
    // Prop 4.3's selection negated: the graphs with several minimal generating sets are then
    // the spec's instances, and the certificate has none of them.
    let s = Scratch::new("features-gen-unique");
    s.edit_spec("prop_4_3", |t| {
        t.replace("where: \"gen_unique\"", "where: \"!gen_unique\"")
    });
    s.rejected(
        "prop_4_3",
        "the certificate certifies instance G=@, which is not an instance of the spec",
    );
    // A graph dropped from the certificate.
    let s = Scratch::new("features-drop-graph");
    s.edit("prop_4_3", |c| {
        c["tables"].as_array_mut().unwrap().remove(3);
    });
    s.rejected(
        "prop_4_3",
        "of the spec is neither certified nor listed as not certified",
    );
}

/// Spiders, posets, families of sets and digraphs (fixtures written by `grundy build` from the
/// specs in tests/data: GEN of spiders, DNG of B_1..B_6, GEN of the 4-cycle's family, DNG of
/// the Hasse diagram of B_2 as a digraph): the verifier builds each structure and closure from
/// its name, so a changed value, a dropped, shrunken or foreign maximal set (also where the
/// list is checked rather than searched: B_5, B_6), or a relabelled closure is caught.
#[test]
fn structure_closure_values_edited() {
    let s = Scratch::new("structure-pristine");
    s.verified("closure_spiders_gen", "18 of 18 instances");
    s.verified("closure_posets_dng", "6 of 6 instances");
    s.verified("closure_sets_gen", "1 of 1 instances");
    s.verified("closure_digraph_dng", "1 of 1 instances");
    // A spider's value changed: Spider_{1,2,3} has 7 vertices, GEN = 1.
    let id = "closure_spiders_gen";
    let s = Scratch::new("structure-spider-value");
    let at = |c: &Value, label: &str| {
        c["instances"]
            .as_array()
            .unwrap()
            .iter()
            .position(|i| i["instance"] == json!(label))
            .unwrap_or_else(|| panic!("no instance {label}"))
    };
    let c = s.cert(id);
    let k = at(&c, "legs=[1,2,3]");
    s.edit(id, |c| c["instances"][k]["value"] = json!(0));
    s.rejected(
        id,
        "the certificate states nim(GEN(Spider_{1,2,3})) = 0, the verifier computes 1",
    );
    // A spider's maximal set moved to another leg's vertex (the numbering is checked).
    let s = Scratch::new("structure-spider-set");
    s.edit(id, |c| {
        let sets = c["instances"][k]["maximal_sets"].as_array_mut().unwrap();
        let first = sets[0].as_array_mut().unwrap();
        first.pop();
    });
    s.rejected(
        id,
        "as a maximal legal set of GEN(Spider_{1,2,3}), which it is not",
    );
    // A poset's value changed (n=3: DNG(B_3) = pty(7) = 1), and on B_6, past the search.
    let id = "closure_posets_dng";
    let s = Scratch::new("structure-poset-value");
    s.edit(id, |c| c["instances"][2]["value"] = json!(0));
    s.rejected(
        id,
        "instance n=3: the certificate states nim(DNG(Bool(3))) = 0, the verifier computes 1",
    );
    let s = Scratch::new("structure-poset-value-large");
    s.edit(id, |c| c["instances"][5]["value"] = json!(0));
    s.rejected(
        id,
        "instance n=6: the certificate states nim(DNG(Bool(6))) = 0, the verifier computes 1",
    );
    // A maximal set dropped: searched (n=3) and checked (n=6).
    let s = Scratch::new("structure-poset-drop");
    s.edit(id, |c| {
        c["instances"][2]["maximal_sets"]
            .as_array_mut()
            .unwrap()
            .remove(0);
    });
    s.rejected(
        id,
        "instance n=3: the certificate omits the maximal legal set",
    );
    let s = Scratch::new("structure-poset-drop-large");
    s.edit(id, |c| {
        c["instances"][5]["maximal_sets"]
            .as_array_mut()
            .unwrap()
            .remove(0);
    });
    s.rejected(id, "instance n=6: DNG(Bool(6)): the list is incomplete");
    // On B_6 a listed set shrunk by one element: legal, but not maximal.
    let s = Scratch::new("structure-poset-shrink-large");
    s.edit(id, |c| {
        c["instances"][5]["maximal_sets"][0]
            .as_array_mut()
            .unwrap()
            .pop();
    });
    s.rejected(id, "instance n=6: DNG(Bool(6)): the listed set");
    // Families of sets: the maximal independent set {1,3} of the 4-cycle replaced by {1}.
    let id = "closure_sets_gen";
    let s = Scratch::new("structure-sets-shrink");
    s.edit(id, |c| {
        c["instances"][0]["maximal_sets"][0]
            .as_array_mut()
            .unwrap()
            .truncate(1);
    });
    s.rejected(id, "as a maximal legal set of GEN(Sets(");
    let s = Scratch::new("structure-sets-value");
    s.edit(id, |c| c["instances"][0]["value"] = json!(2));
    s.rejected(id, "the verifier computes 0");
    // Digraphs: the closure relabelled (hull for the spec's one-step closure), and the value.
    let id = "closure_digraph_dng";
    let s = Scratch::new("structure-digraph-kind");
    s.edit(id, |c| c["instances"][0]["closure"] = json!("digraph"));
    s.rejected(
        id,
        "under the digraph closure on 4 elements, not the spec's",
    );
    let s = Scratch::new("structure-digraph-value");
    s.edit(id, |c| c["instances"][0]["value"] = json!(0));
    s.rejected(id, "the verifier computes 1");
    // The spec's claim changed, the binding regenerated: pty(elements) fails at once.
    let id = "closure_posets_dng";
    let s = Scratch::new("structure-poset-spec-claim");
    s.edit_spec(id, |t| t.replace("pty(elements - 1)", "pty(elements)"));
    s.rejected(
        id,
        "instance n=1: nim(DNG(Bool(1))) = 1 by the verifier, but the spec states 0",
    );
}

/// Inline weighted graphs (issue 31): the verifier rebuilds `Weighted(..)` from the spec's name
/// with its own Dijkstra, so a value edited, a table of the unweighted graph, the table of
/// another weighting of the same edges and a closure relabelled are all rejected. The fixture
/// K_{3,2} (x1, x2, x3 | y1, y2) has x3-y2 of weight w: TER = 2 for w = 1 (unweighted), 1 for
/// w = 2, 4 for w >= 3; its elements rank x1..x3, y1, y2 as 0..4.
#[test]
fn weighted_closure_certificates_edited() {
    let id = "closure_weighted_ter";
    // The value edited.
    let s = Scratch::new("weighted-value");
    s.edit(id, |c| c["instances"][1]["value"] = json!(2));
    s.rejected(
        id,
        "instance w=2: the certificate states nim(TER(Weighted(x1-y1, x1-y2, x2-y1, x2-y2, x3-y1, x3-y2:2))) = 2, the verifier computes 1",
    );
    // The table computed with unweighted geodesics (the w = 1 instance's, K_{3,2} itself)
    // stated for w = 2: {x1, x2, x3} is legal only when x3-y2 is as light as the rest.
    let s = Scratch::new("weighted-unweighted-table");
    s.edit(id, |c| {
        let unweighted = c["instances"][0].clone();
        c["instances"][1]["maximal_sets"] = unweighted["maximal_sets"].clone();
        c["instances"][1]["value"] = unweighted["value"].clone();
    });
    s.rejected(
        id,
        "instance w=2: the certificate lists [0, 1, 2] as a maximal legal set of TER(Weighted(",
    );
    // The certificate relabelled as another weighting of the same edges: the entry's name
    // alone (bound to the spec's), and the spec too, the binding regenerated (the heavy edge
    // moved to x3-y1; y1 and y2 trade places in the maximal sets, the value stays 1).
    let s = Scratch::new("weighted-relabelled-entry");
    s.edit(id, |c| {
        c["instances"][1]["structure"] =
            json!("Weighted(x1-y1, x1-y2, x2-y1, x2-y2, x3-y1:2, x3-y2)");
    });
    s.rejected(id, "instance w=2: the certificate's game is TER(Weighted(x1-y1, x1-y2, x2-y1, x2-y2, x3-y1:2, x3-y2))");
    let s = Scratch::new("weighted-relabelled-spec");
    s.edit_spec(id, |t| t.replace("x3-y1, x3-y2:w", "x3-y1:w, x3-y2"));
    s.edit(id, |c| {
        for (k, inst) in c["instances"]
            .as_array_mut()
            .unwrap()
            .iter_mut()
            .enumerate()
        {
            inst["structure"] = json!(format!(
                "Weighted(x1-y1, x1-y2, x2-y1, x2-y2, x3-y1:{}, x3-y2)",
                k + 1
            ));
        }
    });
    s.rejected(
        id,
        "instance w=2: the certificate lists [0, 3] as a maximal legal set of TER(Weighted(x1-y1, x1-y2, x2-y1, x2-y2, x3-y1:2, x3-y2))",
    );
    // The 5-cycle with a heavy edge: the hull named for the spec's one-step closure, and a
    // maximal set dropped.
    let id = "closure_weighted_dnt";
    let s = Scratch::new("weighted-kind");
    s.edit(id, |c| c["instances"][0]["closure"] = json!("weighted"));
    s.rejected(
        id,
        "under the weighted closure on 5 elements, not the spec's",
    );
    let s = Scratch::new("weighted-drop");
    s.edit(id, |c| {
        c["instances"][0]["maximal_sets"]
            .as_array_mut()
            .unwrap()
            .clear();
    });
    s.rejected(
        id,
        "instance w=4: the certificate omits the maximal legal set",
    );
}

/// A spec over every poset of a size (`{posets: {elements: "1..=4"}}`, the 24 posets of OEIS
/// A000112 on 1 to 4 elements): the verifier enumerates the posets itself, so a certificate
/// that drops one, names one another way (not the class's canonical labelling) or swaps in
/// another poset's entry is rejected, as is an edited value or maximal set, and a spec widened
/// to 5 elements with the binding regenerated but no new entries. Fixture instance 7 is the
/// 3-chain `Poset(1<2, 2<3)`: TER = 1 + pty(3 - 2) = 2, 𝒩* = {{middle}}.
#[test]
fn poset_range_certificates_edited() {
    let id = "closure_posets_range_ter";
    Scratch::new("posets-range-pristine").verified(id, "24 of 24 instances");
    let s = Scratch::new("posets-range-value");
    s.edit(id, |c| c["instances"][7]["value"] = json!(1));
    s.rejected(
        id,
        "instance P=Poset(1<2, 2<3): the certificate states nim(TER(Poset(1<2, 2<3))) = 1, the verifier computes 2",
    );
    let s = Scratch::new("posets-range-drop");
    s.edit(id, |c| {
        c["instances"].as_array_mut().unwrap().remove(7);
    });
    s.rejected(
        id,
        "instance P=Poset(1<2, 2<3) of the spec is neither certified nor listed as not certified",
    );
    // The chain named by a non-canonical labelling of itself: not an instance of the spec.
    let s = Scratch::new("posets-range-relabel");
    s.edit(id, |c| {
        c["instances"][7]["structure"] = json!("Poset(2<3, 1<2)");
        c["instances"][7]["instance"] = json!("P=Poset(2<3, 1<2)");
    });
    s.rejected(
        id,
        "the certificate certifies instance P=Poset(2<3, 1<2), which is not an instance of the spec",
    );
    // The chain's entry relabelled as the 3-element poset 1<2, 1<3 (whose 𝒩* is {∅}).
    let s = Scratch::new("posets-range-swap");
    s.edit(id, |c| {
        c["instances"][7]["structure"] = json!("Poset(1<2, 1<3)");
        c["instances"][7]["instance"] = json!("P=Poset(1<2, 1<3)");
    });
    s.rejected(
        id,
        "the certificate lists [1] as a maximal legal set of TER(Poset(1<2, 1<3)), which it is not",
    );
    let s = Scratch::new("posets-range-set");
    s.edit(id, |c| c["instances"][7]["maximal_sets"] = json!([[0]]));
    s.rejected(
        id,
        "the certificate lists [0] as a maximal legal set of TER(Poset(1<2, 2<3))",
    );
    // The range widened, the binding regenerated: the 63 posets on 5 elements are missing.
    let s = Scratch::new("posets-range-widened");
    s.edit_spec(id, |t| t.replace("\"1..=4\"", "\"1..=5\""));
    s.rejected(id, "of the spec is neither certified nor listed as not certified (87 instances named, 24 certified");
}

/// Issue 43, item 5: "not certified" is accepted only when the verifier confirms the stated
/// reason or verifies the instance itself. The forgery of the issue — the spec edited to be
/// false at one instance, its hash updated, that instance's table dropped and the instance
/// listed as not certified with a made-up reason — is rejected, with or without
/// `--allow-unverified`; so is the same forgery with a plausible budget reason.
#[test]
fn exemptions_forged() {
    let id = "prop_5_30_dnt";
    for (name, reason) in [
        ("made-up", "the solver was interrupted"),
        (
            "budget",
            "more than 10000 positions (the budget left for the instance)",
        ),
        (
            "not-tried",
            "not tried: two smaller instances exceeded the budget",
        ),
    ] {
        let s = Scratch::new(&format!("exempt-forgery-{name}"));
        // Unedited, nim(DNT(W_{5,3})) = 1; the forged spec says 0 at m = 5.
        s.edit_spec(id, |t| {
            t.replace(
                "nim: 1",
                "nim:\n  cases:\n    - {when: \"m == 5\", value: 0}\n    - {when: \"m != 5\", value: 1}",
            )
        });
        s.edit(id, |c| {
            c["tables"]
                .as_array_mut()
                .unwrap()
                .retain(|t| t["instance"] != "m=5");
            c["not_certified"] = json!([{"instance": "m=5", "reason": reason}]);
        });
        s.rejected(
            id,
            &format!("instance m=5 is listed as not certified (\"{reason}\"), which the verifier does not confirm: the verifier solves DNT(W_{{5,3}}) itself"),
        );
        // Rejected, not merely unverified: the exit code is 1 even when unverified specs
        // are allowed.
        let (code, _) = s.run(&["--allow-unverified"]);
        assert_eq!(code, 1);
    }
    // The same instance listed as not certified with the spec unedited (so true there): the
    // verifier solves it itself and counts it, whatever the reason.
    let s = Scratch::new("exempt-true");
    s.edit(id, |c| {
        c["tables"]
            .as_array_mut()
            .unwrap()
            .retain(|t| t["instance"] != "m=5");
        c["not_certified"] = json!([{"instance": "m=5", "reason": "the solver was interrupted"}]);
    });
    s.verified(
        id,
        "11 of 11 instances (80 entries; 1 solved by the verifier itself)",
    );
}

/// Legitimate exemptions are accepted with their reasons recounted: TER(P_n) (Example 4.11)
/// for n = 14, 15, 16 listed as past grundy's budget. n = 14 (12,288 positions) is within the
/// verifier's own budget, which solves it; n = 15 (24,576) is past it and past the stated
/// 10,000; n = 16 was not tried after two misses. Each reason edited to one that is false,
/// or not a reason the verifier recounts, is rejected.
#[test]
fn exemptions_recounted() {
    let id = "example_4_11_path_ter";
    let s = Scratch::new("exempt-legit");
    s.verified(
        id,
        "13 of 15 instances (12285 entries; 2 not certified; 1 solved by the verifier itself)",
    );
    let reason = |c: &mut Value, i: usize, r: &str| c["not_certified"][i]["reason"] = json!(r);
    let s = Scratch::new("exempt-made-up-large");
    s.edit(id, |c| reason(c, 2, "the solver was interrupted"));
    s.rejected(
        id,
        "instance n=16 is listed as not certified (\"the solver was interrupted\"), which the verifier does not confirm: TER(P_16) has more than 20000 positions, and the reason is not one the verifier recounts",
    );
    let s = Scratch::new("exempt-count-wrong");
    s.edit(id, |c| {
        reason(
            c,
            1,
            "more than 40000 positions (the budget left for the instance)",
        )
    });
    s.rejected(
        id,
        "instance n=15 is listed as not certified (\"more than 40000 positions (the budget left for the instance)\"), which the verifier does not confirm: TER(P_15) does not have more than 40000 positions",
    );
    // n = 15 certified in the forger's story (dropped from the list): then n = 16 follows
    // one miss, not two, and "not tried" is false. (n = 15 now has no table either: the
    // first complaint is the uncovered instance.)
    let s = Scratch::new("exempt-not-tried");
    s.edit(id, |c| {
        reason(c, 1, "not tried: two smaller instances exceeded the budget")
    });
    s.rejected(
        id,
        "instance n=15 is listed as not certified (\"not tried: two smaller instances exceeded the budget\"), which the verifier does not confirm: the two instances tried before it did not both exceed the budget",
    );
    let s = Scratch::new("exempt-spec-budget");
    s.edit(id, |c| {
        reason(c, 2, "past the per-spec budget of 100000 positions")
    });
    s.rejected(
        id,
        "instance n=16 is listed as not certified (\"past the per-spec budget of 100000 positions\"), which the verifier does not confirm: the instances before it list 12285 entries",
    );
    // Kernels: thm_14_case_1's k = 17..20 (SP_{104,2}, 208 vertices and up) are past 200
    // vertices; k = 1 (SP_{8,2}, 16 vertices) is not, nor is it past any per-spec budget.
    let s = Scratch::new("exempt-kernel-small");
    s.edit("thm_14_case_1", |c| {
        c["instances"].as_array_mut().unwrap().remove(0);
        c["not_certified"]
            .as_array_mut()
            .unwrap()
            .push(json!({"instance": "k=1", "reason": "more than 200 vertices"}));
    });
    s.rejected(
        "thm_14_case_1",
        "instance k=1 is listed as not certified (\"more than 200 vertices\"), which the verifier does not confirm: SP_{8,2} has 16 vertices",
    );
    let s = Scratch::new("exempt-kernel-budget");
    s.edit("thm_14_case_1", |c| {
        c["instances"].as_array_mut().unwrap().remove(0);
        c["not_certified"]
            .as_array_mut()
            .unwrap()
            .push(json!({"instance": "k=1", "reason": "past the per-spec budget"}));
    });
    s.rejected(
        "thm_14_case_1",
        "instance k=1 is listed as not certified (\"past the per-spec budget\"), which the verifier does not confirm: the instances before it list 0 vertices and edges and it needs",
    );
}

/// Issue 43, item 1: a refuted verdict's certificate carries its counterexample's evidence and
/// the verifier re-derives from the spec that the claim fails there: a nim table (Example
/// 4.10: nim(TER(Wd_{2,2})) = nim(TER(P_3)) = 2, the printed claim 2 − pty(V) = 1), a closure
/// game's value (DNG(Alt(3)) = 1, printed 3) and an octal period proof (Dawson's Chess: the
/// least preperiod is 52, printed 68). An erratum reads with its correction's verdict.
#[test]
fn refutations_rederived() {
    let s = Scratch::new("refuted");
    let (code, out) = s.run(&[]);
    assert_eq!(code, 0, "{out}");
    let (_, line) = s.line("example_4_10_ter");
    assert!(
        line.contains("refuted (re-derived): the claim fails at ns=[2,2]: TER(Wd_{2,2}) has nim-value 2 by the table, the spec states 1")
            && line.contains("corrected by example_4_10_ter_corrected: verified (claim re-derived): 45 of 45 instances"),
        "{line}"
    );
    let (_, line) = s.line("example_4_10_ter_corrected");
    assert!(
        line.contains("corrects example_4_10_ter (refuted, re-derived)"),
        "{line}"
    );
    let (_, line) = s.line("bes2016sa_dng_alternating_printed");
    assert!(line.contains("refuted (re-derived): the claim fails at n=3: nim(DNG(Alt(3))) = 1 by the verifier, the spec states 3"), "{line}");
    let (_, line) = s.line("prop_5_23_least");
    assert!(
        line.contains(
            "refuted (re-derived): the statement fails for 0.137: stated preperiod 68 is not least"
        ) && line.contains("read as prop_5_23: verified (claim re-derived): 1 of 1"),
        "{line}"
    );
}

/// A refutation whose counterexample satisfies the claim is rejected, however it is forged.
#[test]
fn refutations_forged() {
    let id = "example_4_10_ter";
    // The spec corrected (so the claim holds at the counterexample), the binding regenerated.
    let s = Scratch::new("refute-spec-holds");
    s.edit_spec(id, |t| t.replace("nim: \"2 - pty(vertices)\"", "nim: 2"));
    s.rejected(
        id,
        "the claim holds at the counterexample ns=[2,2]: TER(Wd_{2,2}) has the value the spec states",
    );
    // The table's value changed to the printed claim's: the mex check.
    let s = Scratch::new("refute-value");
    s.edit(id, |c| {
        c["evidence"]["tables"][0]["entries"][0][1] = json!(1)
    });
    s.rejected(id, "counterexample ns=[2,2]: instance ns=[2,2]: entry 0: position 0 is listed with value 1, but the mex");
    // Another instance named, its label and the table's alike: the table is not its game.
    let s = Scratch::new("refute-relabel");
    s.edit(id, |c| {
        c["counterexample"]["instance"] = json!("ns=[2,3]");
        c["evidence"]["tables"][0]["instance"] = json!("ns=[2,3]");
    });
    s.rejected(id, "the table's game is not the spec's TER(Wd_{2,3})");
    let s = Scratch::new("refute-not-instance");
    s.edit(id, |c| {
        c["counterexample"]["instance"] = json!("ns=[1,1]");
        c["evidence"]["tables"][0]["instance"] = json!("ns=[1,1]");
    });
    s.rejected(
        id,
        "the counterexample ns=[1,1] is not an instance of the spec",
    );
    // A holding spec's table presented as a refutation: DNT(W_{2,3}) = 1, as stated.
    let s = Scratch::new("refute-holding");
    s.edit("prop_5_30_dnt", |c| {
        let mut t = c["tables"][0].clone();
        t["claims"] = json!([]);
        *c = json!({
            "format": "grundy-certificate/1", "spec": "prop_5_30_dnt",
            "spec_sha256": c["spec_sha256"], "kind": "refutation",
            "counterexample": {"instance": "m=2"},
            "evidence": {"kind": "nim-tables", "tables": [t]},
        });
    });
    s.rejected(
        "prop_5_30_dnt",
        "the claim holds at the counterexample m=2: DNT(W_{2,3}) has the value the spec states",
    );
    // A refutation cannot exempt instances either.
    let s = Scratch::new("refute-exempt");
    s.edit(
        id,
        |c| {
            c["not_certified"] =
                json!([{"instance": "ns=[2,3]", "reason": "more than 200 vertices"}])
        },
    );
    s.rejected(id, "instance ns=[2,3] is listed as not certified");
    // The closure game's value forged to the printed claim's: the verifier's own value.
    let s = Scratch::new("refute-closure");
    s.edit("bes2016sa_dng_alternating_printed", |c| {
        c["evidence"]["instances"][0]["value"] = json!(3)
    });
    s.rejected(
        "bes2016sa_dng_alternating_printed",
        "the certificate states nim(DNG(Alt(3))) = 3, the verifier computes 1",
    );
    // The printed claim on A_3 replaced by the true value: nothing is refuted.
    let s = Scratch::new("refute-closure-holds");
    s.edit_spec("bes2016sa_dng_alternating_printed", |t| {
        t.replace("\nnim: 3", "\nnim: 1")
    });
    s.rejected(
        "bes2016sa_dng_alternating_printed",
        "the claim holds at the counterexample n=3: nim(DNG(Alt(3))) = 1 by the verifier, as the spec states",
    );
    // The least preperiod stated correctly: the sequence refutation has nothing to refute.
    let s = Scratch::new("refute-sequence-holds");
    s.edit_spec("prop_5_23_least", |t| {
        t.replace("preperiod: 68", "preperiod: 52")
    });
    s.rejected(
        "prop_5_23_least",
        "every number the spec states holds for 0.137",
    );
}

/// Issue 43, item 4: a `holds` predicate is evaluated by the verifier on every position, with
/// the features it reads computed by its own code. Lemma 5.39 on Λ^n (n = 5..60): the only
/// split of Λ^n is [n−1], which is solid, so `solid_splits` is 1 — the verifier computes it.
#[test]
fn predicates_rederived() {
    let id = "lemma_5_39_lambda";
    let s = Scratch::new("predicate");
    s.verified(id, "56 of 56 instances");
    s.verified("example_5_13", "1 of 1 instances");
    // The feature's value, stated exactly: a true fact, re-derived.
    let s = Scratch::new("predicate-exact");
    s.edit_spec(id, |t| t.replace("solid_splits > 0", "solid_splits == 1"));
    s.verified(id, "56 of 56 instances");
    // A predicate on the feature that is false: rejected at the first instance, naming it.
    let s = Scratch::new("predicate-false");
    s.edit_spec(id, |t| t.replace("solid_splits > 0", "solid_splits > 1"));
    s.rejected(id, "instance n=5: the predicate is false at");
    // Example 5.13's multiset features (‖U‖ = 10, p = 0, m = 3, d = 0, ρ = (0, 0)) with one
    // stated wrong.
    let s = Scratch::new("predicate-multiset");
    s.edit_spec("example_5_13", |t| t.replace("d == 0", "d == 1"));
    s.rejected("example_5_13", "the predicate is false at");
    // The certificate's game of one instance replaced by another's.
    let s = Scratch::new("predicate-game");
    s.edit(id, |c| {
        c["instances"][1]["game"] = c["instances"][2]["game"].clone()
    });
    s.rejected(
        id,
        "instance n=6: the certificate's game is not the spec's SPL(0,Λ^6)",
    );
    // An instance dropped and listed as not certified: the verifier evaluates it itself; a
    // spec false there (and only there) is rejected.
    let s = Scratch::new("predicate-exempt");
    s.edit(id, |c| {
        c["instances"].as_array_mut().unwrap().pop();
        c["not_certified"] = json!([{"instance": "n=60", "reason": "more than 10000 positions"}]);
    });
    s.verified(id, "56 of 56 instances");
    s.edit_spec(id, |t| {
        t.replace("solid_splits > 0", "solid_splits > 0 && n != 60")
    });
    s.rejected(
        id,
        "instance n=60 is listed as not certified (\"more than 10000 positions\"), which the verifier does not confirm: the predicate is false at",
    );
    // An instance the certificate drops without a word.
    let s = Scratch::new("predicate-drop");
    s.edit(id, |c| {
        c["instances"].as_array_mut().unwrap().pop();
    });
    s.rejected(
        id,
        "instance n=60 of the spec is neither certified nor listed as not certified",
    );
}

/// Families of sets (issue 43): the verifier closes every subset itself, reads 𝒢, 𝒩, 𝒢*, 𝒩*
/// off their definitions and decides the listed members or the rule on every subset; the
/// certificate's members must be its own family.
#[test]
fn families_of_sets_edited() {
    let s = Scratch::new("families");
    s.verified("example_2_6_n", "1 of 1 instances");
    s.verified("prop_5_16", "10 of 10 instances");
    s.verified("example_2_1", "1 of 1 instances");
    s.verified("geodetic_sets_paths", "13 of 13 instances");
    // A member of the kite's 𝒩 replaced in the certificate.
    let s = Scratch::new("families-member");
    s.edit("example_2_6_n", |c| {
        c["instances"][0]["members"][0] = json!(["x", "y", "w"])
    });
    s.rejected(
        "example_2_6_n",
        "the certificate lists {w,x,y} in N, which is not a member",
    );
    // A member dropped.
    let s = Scratch::new("families-drop");
    s.edit("prop_5_16", |c| {
        c["instances"][2]["members"].as_array_mut().unwrap().pop();
    });
    s.rejected("prop_5_16", "instance n=7: the certificate leaves out");
    // An instance dropped.
    let s = Scratch::new("families-instance");
    s.edit("prop_5_16", |c| {
        c["instances"].as_array_mut().unwrap().remove(0);
    });
    s.rejected(
        "prop_5_16",
        "instance n=5: selected by the spec but not in the certificate",
    );
    // The spec's members stated wrong (the hash updated, as a forger would).
    let s = Scratch::new("families-spec");
    s.edit_spec("example_2_6_n", |t| {
        t.replace("members: [[x, y, u]", "members: [[x, y, w]")
    });
    s.rejected("example_2_6_n", "the spec claims N =");
    // A rule that admits a set outside 𝒩 (two rim vertices, not neighbours).
    let s = Scratch::new("families-rule");
    s.edit_spec("prop_5_16", |t| {
        t.replace(" && adj[comp[0]].contains(comp[1])", "")
    });
    s.rejected("prop_5_16", "instance n=5: the rule admits");
    // Under the geodetic closure the path's 𝒢 is {{v1, vn}}; a rule naming v2 is refused.
    let s = Scratch::new("families-geodetic");
    s.edit_spec("geodetic_sets_paths", |t| {
        t.replace("S.contains(\"v1\")", "S.contains(\"v2\")")
    });
    s.rejected("geodetic_sets_paths", "the rule");
    // Example 2.1's transversals with one member changed.
    let s = Scratch::new("families-tr");
    s.edit_spec("example_2_1", |t| t.replace("[1, 4, 5]]", "[1, 4]]"));
    s.rejected("example_2_1", "the spec claims Tr =");
}

/// Removing games under the one-step geodetic closure (seed 000 §6 question 2): the
/// certificate's games name their closure, the verifier plays them under it and under the
/// spec's `closure:`; neither can be dropped.
#[test]
fn geodetic_removing_games_edited() {
    let id = "geodetic_hypercubes_ter";
    let s = Scratch::new("geodetic");
    s.verified(id, "3 of 4 instances");
    // The tables' closure dropped: Q_3's table, made under the one-step closure, is read
    // under the hull and its values fail there.
    let s = Scratch::new("geodetic-table");
    s.edit(id, |c| {
        for t in c["tables"].as_array_mut().unwrap() {
            t["game"]["TER"].as_object_mut().unwrap().remove("closure");
        }
    });
    s.rejected(id, "instance n=3");
    // The spec's `closure:` dropped (its hash updated): the certificate's games are not the
    // spec's games under the hull.
    let s = Scratch::new("geodetic-spec");
    s.edit_spec(id, |t| t.replace("closure: geodetic\n", ""));
    s.rejected(id, "instance n=1: the table's game is not TER(Q_1)");
    // A closure the verifier does not register, or one named where the hull is left out.
    let s = Scratch::new("geodetic-unknown");
    s.edit(id, |c| {
        c["tables"][0]["game"]["TER"]["closure"] = json!("hull")
    });
    s.rejected(id, "is not a closure a removing game's certificate names");
}

/// A `holds` predicate on closure games (issue 43): the verifier builds each game from the
/// spec (here DNG of the generalized dihedral groups Dih(Z_3 × Z_3), …, with its own
/// Dih(A)) and evaluates the predicate with its own values.
#[test]
fn closure_predicates_rederived() {
    let id = "dng_generalized_dihedral_odd";
    let s = Scratch::new("closure-predicate");
    s.verified(id, "4 of 4 instances");
    // The predicate stated false (DNG(Dih(A)) is a P-position: its value is 0, not 1).
    let s = Scratch::new("closure-predicate-false");
    s.edit_spec(id, |t| t.replace("][i]) == 0", "][i]) == 1"));
    s.rejected(
        id,
        "instance i=0: the predicate is false at the start of DNG(Perm(",
    );
    // An instance dropped without a word.
    let s = Scratch::new("closure-predicate-drop");
    s.edit(id, |c| {
        c["instances"].as_array_mut().unwrap().pop();
    });
    s.rejected(
        id,
        "instance i=3 of the spec is neither certified nor listed as not certified",
    );
    // A game given by rules where the spec names a closure game.
    let s = Scratch::new("closure-predicate-rules");
    s.edit(id, |c| {
        c["instances"][0]["game"] = json!({"nim": 0});
        c["instances"][0]
            .as_object_mut()
            .unwrap()
            .remove("closure_game");
    });
    s.rejected(
        id,
        "instance i=0: the certificate lists a game by its rules",
    );
}

/// Value tables bound to their values (issue 43, tables): the verifier solves every cell of
/// the spec and reads the rendered TeX, each row with its cells' sources; an edited number,
/// header or source is rejected.
#[test]
fn value_tables_edited() {
    let id = "table_ter_wmn";
    let tex = |s: &Scratch| s.dir.join("paper000").join("table_ter_wmn.tex");
    let edit_tex = |s: &Scratch, f: &dyn Fn(&str) -> String| {
        let t = std::fs::read_to_string(tex(s)).unwrap();
        let u = f(&t);
        assert_ne!(t, u, "the edit changes the file");
        std::fs::write(tex(s), u).unwrap();
    };
    let s = Scratch::new("table");
    s.verified(id, "36 of 36 instances");
    // A cell edited: nim(TER(W_{2,3})) is 2.
    let s = Scratch::new("table-cell");
    edit_tex(&s, &|t| t.replacen("\n2 & 2 & 0", "\n2 & 1 & 0", 1));
    s.rejected(
        id,
        "`@m=2, n=3` prints 1, but nim(TER(W_{2,3})) = 2 by the verifier",
    );
    // A row header edited: the values of m = 2 shown as m = 9's.
    let s = Scratch::new("table-header");
    edit_tex(&s, &|t| t.replacen("\n2 & 2 & 0", "\n9 & 2 & 0", 1));
    s.rejected(
        id,
        "the value of `@m=2, n=3` sits under the headers `9` and `3`",
    );
    // A row's sources dropped: its numbers come from nowhere.
    let s = Scratch::new("table-sources");
    edit_tex(&s, &|t| {
        t.lines()
            .filter(|l| !l.starts_with("% sources: @m=7"))
            .map(|l| format!("{l}\n"))
            .collect()
    });
    s.rejected(id, "line 17: numbers with no source");
    // A source pointed at another cell.
    let s = Scratch::new("table-source");
    edit_tex(&s, &|t| t.replacen("@m=2, n=3 ;", "@m=3, n=3 ;", 1));
    s.rejected(id, "sits under the headers");
    // The file rendered from other spec bytes (its first comment's sha256).
    let s = Scratch::new("table-sha");
    edit_tex(&s, &|t| t.replacen("(sha256 8", "(sha256 9", 1));
    s.rejected(id, "the file was not rendered from the spec's bytes");
    // The certificate's count of cells.
    let s = Scratch::new("table-count");
    s.edit(id, |c| c["cells"] = json!(35));
    s.rejected(id, "the certificate counts 35 cells, the spec has 36");
}

/// A play given by the spec (seed 002 Thm 15, SP(3,2) from (1,1)), certified as its tree of
/// moves, every reply and the even kernels where the GF(2) criterion finds no witness.
#[test]
fn spec_plays_edited() {
    let id = "thm_15_sp_3_2";
    let s = Scratch::new("play");
    s.verified(id, "1 of 1 instances");
    // A kernel with a vertex dropped is no even kernel.
    let s = Scratch::new("play-kernel");
    s.edit(id, |c| {
        c["instances"][0]["tokens"][0]["proof"]["replies"][0][1]["move"]["then"]["kernel"] =
            json!([1, 2])
    });
    s.rejected(id, "token 0");
    // A reply of the opponent left unanswered.
    let s = Scratch::new("play-reply");
    s.edit(id, |c| {
        c["instances"][0]["tokens"][0]["proof"]["replies"]
            .as_array_mut()
            .unwrap()
            .pop();
    });
    s.rejected(id, "replies listed {1, 2}, legal moves {1, 2, 3}");
}

/// Example 3.4's feature, computed by the verifier: no terminal position of TER(W_5) leaves
/// a generating pair of antipodal vertices unselected; stated as one, it is rejected.
#[test]
fn antipodal_pairs_rederived() {
    let id = "example_3_4_antipodal_ter";
    let s = Scratch::new("antipodal");
    s.verified(id, "1 of 1 instances");
    let s = Scratch::new("antipodal-false");
    s.edit_spec(id, |t| {
        t.replace("free_antipodal_pairs == 0", "free_antipodal_pairs == 1")
    });
    s.rejected(id, "the predicate is false at");
}

/// A printed play refuted (seed 002 Thm 14 case 4): the verifier walks the spec's play at the
/// counterexample itself; a certificate for a play that holds there is rejected.
#[test]
fn refuted_plays_rederived() {
    let id = "thm_14_case_4_printed";
    let s = Scratch::new("play-refuted");
    let (_, line) = s.line(id);
    assert!(
        line.contains("refuted (re-derived): at k=1: the kernel names (8,1), which is not a vertex of SP_{7,2}"),
        "{line}"
    );
    // The family corrected in the spec (its hash updated): the play holds at k = 1.
    let s = Scratch::new("play-refuted-forged");
    s.edit_spec(id, |t| {
        t.replacen(
            "range: \"0..<k\", vertices: [\"(6*i+8,1)\"",
            "range: \"0..<k-1\", vertices: [\"(6*i+8,1)\"",
            1,
        )
    });
    s.rejected(id, "the claim holds at the counterexample k=1");
    // The counterexample moved to an instance the spec's `where` leaves out (its hash
    // updated): a play failing there refutes nothing the spec states.
    let s = Scratch::new("play-refuted-where");
    s.edit_spec(id, |t| {
        t.replace(
            "let: {m: \"6*k + 1\"}",
            "let: {m: \"6*k + 1\"}\nwhere: \"k >= 2\"",
        )
    });
    s.rejected(
        id,
        "the counterexample k=1 is not selected by the spec's `where`",
    );
    // A spec's play given as the evidence of a holding verdict.
    let s = Scratch::new("play-top");
    s.edit(id, |c| *c = json!({"format": "grundy-certificate/1", "spec": c["spec"].clone(), "spec_sha256": c["spec_sha256"].clone(), "kind": "spec-play"}));
    s.rejected(id, "a spec's play is evidence of a refutation only");
}

/// Gamegraph figures bound to their values (issue 43, figures): the verifier solves every
/// drawn node, checks every arrow is a move and none is missing, checks the map, and reads the
/// rendered DOT and TikZ; an edited label, arrow, miniature, map arrow or box is rejected.
#[test]
fn figures_edited() {
    let file = |s: &Scratch, name: &str| s.dir.join("paper000").join(name);
    let edit_file = |s: &Scratch, name: &str, f: &dyn Fn(&str) -> String| {
        let t = std::fs::read_to_string(file(s, name)).unwrap();
        let u = f(&t);
        assert_ne!(t, u, "the edit changes the file");
        std::fs::write(file(s, name), u).unwrap();
    };
    // Edits the line of the file that contains `at`.
    let on_line = |t: &str, at: &str, from: &str, to: &str| -> String {
        t.lines()
            .map(|l| {
                if l.contains(at) {
                    l.replacen(from, to, 1)
                } else {
                    l.to_string()
                }
            })
            .map(|l| l + "\n")
            .collect()
    };
    let (play, quotient, fibres) = ("fig_5_1", "fig_3_2", "fig_5_2");
    let play_dot = "fig_5_1_ter_k122_play.dot";
    let play_tikz = "fig_5_1_ter_k122_play.tikz.tex";
    let s = Scratch::new("figure");
    s.verified(play, "1 of 1 instances");
    s.verified(quotient, "1 of 1 instances");
    s.verified(fibres, "1 of 1 instances");
    // A label edited in the DOT: the start of TER(K_{1,2,2}) has nim-value 2.
    let s = Scratch::new("figure-dot-label");
    edit_file(&s, play_dot, &|t| {
        on_line(
            &on_line(t, "p0_0 [", "grundynim=\"2\"", "grundynim=\"1\""),
            "p0_0 [",
            "<B>2</B>",
            "<B>1</B>",
        )
    });
    s.rejected(
        play,
        "node p0_0 is labelled 1 (grundynim 1), its nim-value is 2",
    );
    // The printed value alone edited (the attribute left as it was).
    let s = Scratch::new("figure-dot-bold");
    edit_file(&s, play_dot, &|t| {
        on_line(t, "p0_0 [", "<B>2</B>", "<B>3</B>")
    });
    s.rejected(play, "node p0_0 is labelled 3 (grundynim 2)");
    // An arrow redirected: {a1} → {a1, b1, c1} is no move.
    let s = Scratch::new("figure-dot-arrow");
    edit_file(&s, play_dot, &|t| {
        t.replacen("p0_1 -> p0_2;", "p0_1 -> p0_3;", 1)
    });
    s.rejected(play, "its arrows are not the certificate's");
    // A miniature edited: {a1} drawn with b1 filled too.
    let s = Scratch::new("figure-dot-mini");
    edit_file(&s, play_dot, &|t| {
        on_line(t, "p0_1 [", "0.00,1.40,0 ", "0.00,1.40,1 ")
    });
    s.rejected(play, "node p0_1's miniature fills other vertices");
    // A dashed map arrow redirected.
    let s = Scratch::new("figure-dot-map");
    edit_file(&s, play_dot, &|t| {
        t.replacen("p0_1 -> p1_1 [", "p0_1 -> p1_2 [", 1)
    });
    s.rejected(play, "its dashed map arrows are not the certificate's");
    // The TikZ: a value, an arrow, a miniature.
    let s = Scratch::new("figure-tikz-label");
    edit_file(&s, play_tikz, &|t| {
        on_line(t, "(n16) at", "$\\mathbf{0}$", "$\\mathbf{1}$")
    });
    s.rejected(play, "(p0_1) is labelled 1, its nim-value is 0");
    let s = Scratch::new("figure-tikz-arrow");
    edit_file(&s, play_tikz, &|t| {
        on_line(t, "\\draw[grundy edge] (n10)", "(n11);", "(n12);")
    });
    s.rejected(play, "tikz.tex: its arrows are not the certificate's");
    let s = Scratch::new("figure-tikz-mini");
    edit_file(&s, play_tikz, &|t| {
        on_line(
            t,
            "(n16) at",
            "\\node[grundy mini vertex]",
            "\\node[grundy mini selected]",
        )
    });
    s.rejected(play, "node p0_1's miniature fills other vertices");
    // A stray node printing a value, in the DOT and in the TikZ.
    let s = Scratch::new("figure-dot-stray");
    edit_file(&s, play_dot, &|t| {
        t.replacen(
            "    p0_0 -> p0_1;\n",
            "    p0_0 -> p0_1;\n    p0_9 [label=<<B>7</B>>];\n",
            1,
        )
    });
    s.rejected(
        play,
        "node p0_9 prints a value and is not one the certificate lists",
    );
    let s = Scratch::new("figure-tikz-stray");
    edit_file(&s, play_tikz, &|t| {
        t.replacen(
            "\\begin{pgfonlayer}",
            "\\node[grundy position] (n99) at (0,0) {$\\mathbf{7}$};\n\\begin{pgfonlayer}",
            1,
        )
    });
    s.rejected(play, "node n99 prints a value and names no node of the DOT");
    // The file rendered from other spec bytes.
    let s = Scratch::new("figure-sha");
    edit_file(&s, play_dot, &|t| t.replacen("(sha256 ", "(sha256 0", 1));
    s.rejected(play, "the file was not rendered from the spec's bytes");
    // The certificate: a value, a forged arrow, a node dropped, another game.
    let s = Scratch::new("figure-cert-value");
    s.edit(quotient, |c| c["panels"][0]["nodes"][1][2] = json!(1));
    s.rejected(quotient, "node p0_1 (1) is labelled 1, its nim-value is 0");
    let s = Scratch::new("figure-cert-arrow");
    s.edit(quotient, |c| {
        c["panels"][1]["arrows"]
            .as_array_mut()
            .unwrap()
            .push(json!(["p1_0", "p1_0"]))
    });
    s.rejected(quotient, "the arrows are not the moves");
    let s = Scratch::new("figure-cert-node");
    s.edit(quotient, |c| {
        c["panels"][1]["nodes"].as_array_mut().unwrap().pop();
    });
    s.rejected(quotient, "is not drawn");
    let s = Scratch::new("figure-spec-game");
    s.edit_spec(play, |t| {
        t.replacen("TER(K_{1,2,2})\", play", "TER(K_{1,2,3})\", play", 1)
    });
    s.rejected(
        play,
        "the certificate's game is not the spec's TER(K_{1,2,3})",
    );
    // A box holding a position whose image is another (Fig 5.2's fibres).
    let s = Scratch::new("figure-fibre");
    s.edit(fibres, |c| {
        let moved = c["fibres"][2][0].as_array_mut().unwrap().pop().unwrap();
        c["fibres"][1][0].as_array_mut().unwrap().push(moved);
    });
    s.rejected(fibres, "which is not its image");
}

/// Graph figures (Figs 2.1, 4.1, 4.2): one copy per member of each family, which the verifier
/// computes itself; a copy with another vertex marked, another label or edge, in the DOT or the
/// TikZ, a forged copy, or a family the spec misstates is rejected.
#[test]
fn graph_figures_edited() {
    let id = "fig_4_2";
    let (dot, tikz) = ("fig_4_2_diamond.dot", "fig_4_2_diamond.tikz.tex");
    let edit_file = |s: &Scratch, name: &str, f: &dyn Fn(&str) -> String| {
        let path = s.dir.join("paper000").join(name);
        let t = std::fs::read_to_string(&path).unwrap();
        let u = f(&t);
        assert_ne!(t, u, "the edit changes the file");
        std::fs::write(path, u).unwrap();
    };
    let s = Scratch::new("graph-figure");
    s.verified(id, "1 of 1 instances");
    // 𝒢 = {{x, y}}: the copy drawn with u marked instead of y.
    let s = Scratch::new("graph-figure-marked");
    edit_file(&s, dot, &|t| {
        t.replacen(
            "G0_v0 [grundystyle=\"grundy vertex\"",
            "G0_v0 [grundystyle=\"grundy vertex, grundy marked\"",
            1,
        )
    });
    s.rejected(id, "the copy G0 marks");
    let s = Scratch::new("graph-figure-label");
    edit_file(&s, dot, &|t| {
        t.replacen(
            "\\\\mathcal{G} \\\\ni  \\\\{x, y\\\\}",
            "\\\\mathcal{G} \\\\ni  \\\\{x, u\\\\}",
            1,
        )
    });
    s.rejected(id, "the copy G0 is labelled");
    let s = Scratch::new("graph-figure-edge");
    edit_file(&s, dot, &|t| t.replacen("    G0_v0 -- G0_v1;\n", "", 1));
    s.rejected(id, "the copy G0 draws other edges");
    let s = Scratch::new("graph-figure-tikz");
    edit_file(&s, tikz, &|t| {
        t.replacen(
            "\\node[grundy vertex, grundy marked] (n5)",
            "\\node[grundy vertex] (n5)",
            1,
        )
    });
    s.rejected(id, "tikz.tex: the copy G0 marks");
    // The certificate's copy of 𝒩* forged to {u, x}.
    let s = Scratch::new("graph-figure-cert");
    s.edit(id, |c| c["copies"][1][2] = json!(["u", "x"]));
    s.rejected(id, "the certificate's copies of N* are not one per member");
    // The spec misstating 𝒢 (its hash updated): {x, u} does not generate the diamond.
    let s = Scratch::new("graph-figure-spec");
    s.edit_spec(id, |t| t.replacen("G: [[x, \"y\"]]", "G: [[x, u]]", 1));
    s.rejected(id, "the spec states G =");
}

/// Quotient maps (Example 3.4, Prop 5.27; fixtures of smaller ranges than the main job's):
/// the verifier finds the classes itself (the graph's automorphisms, or all terminal positions
/// as one), checks each quotient is a congruence, and reads the map on classes. A map that
/// sends congruent positions apart, a certificate that drops a quotient, or a spec whose
/// quotient is edited is rejected.
#[test]
fn quotient_maps_edited() {
    let (canonical, terminal) = ("example_3_4_dnt", "prop_5_27");
    let s = Scratch::new("quotient");
    s.verified(canonical, "2 of 2 instances");
    s.verified(terminal, "4 of 4 instances");
    // {v1} sent to the class of {c}: the options of {c} are not the classes of {v1}'s.
    let s = Scratch::new("quotient-apart");
    s.edit(canonical, |c| c["maps"][0]["pairs"][1] = json!([1, 16]));
    s.rejected(canonical, "Opt(f(Set(1))) ≠ f(Opt(Set(1))) on classes");
    // A terminal position of TER_{v1}(W_5) sent to a nonterminal one of *1 : DNT_{v1}(W_5).
    let s = Scratch::new("quotient-terminal");
    s.edit(terminal, |c| c["maps"][0]["pairs"][1] = json!([3, [1, 5]]));
    s.rejected(terminal, "f sends congruent positions to different classes");
    // The quotient dropped from the certificate: the identity map, which holds, is not the
    // spec's map into the quotient.
    let s = Scratch::new("quotient-dropped");
    s.edit(canonical, |c| {
        for m in c["maps"].as_array_mut().unwrap() {
            m.as_object_mut().unwrap().remove("to_quotient");
        }
    });
    s.rejected(canonical, "the certificate's map is between the quotients");
    // The spec's quotient edited (its hash updated).
    let s = Scratch::new("quotient-spec");
    s.edit_spec(canonical, |t| {
        t.replacen("quotient: automorphisms", "quotient: terminal", 1)
    });
    s.rejected(canonical, "the certificate's map is between the quotients");
}

/// Table 5.1 (issue 43 item 3): every row re-derived against every multiset of its
/// signature (sum ≤ 20: 2,693 nonterminal multisets), the rendered table read entry by entry,
/// and conditions (1)–(4) as printed refuted at U = {2}, with the corrected (1) verified.
#[test]
fn signature_table_rederived() {
    let id = "table_5_1";
    let s = Scratch::new("sig");
    s.verified(id, "2693 of 2693 instances");
    let (_, line) = s.line("table_5_1_conditions");
    assert!(
        line.contains("refuted (re-derived): the claim fails at U = {2}: condition (1) (d − 1 ∈ D iff ν = 0) fails: d = 2, D = {∞}, σ = 0, λ = 1, ν = 0, m = 2")
            && line.contains("corrected by table_5_1_conditions_corrected: verified (claim re-derived): 2693 of 2693 instances"),
        "{line}"
    );
    // A row's value edited in the spec (the binding regenerated): ρ({1,2,3}) = (0, 2) and its
    // option {1,1,3} (d̃ = 3 = d + 1) has nim 0.
    let s = Scratch::new("sig-spec");
    s.edit_spec(id, |t| {
        t.replace(
            "d: \"2\", same: 2, up: 0, down: 2, inf: 0",
            "d: \"2\", same: 2, up: 1, down: 2, inf: 0",
        )
    });
    s.rejected(
        id,
        "the claim fails at U = {1,2,3}: Ũ = {1,1,3} in column `up` has nim 0, the row states 1",
    );
    // A mex edited, and a box moved to a column that need not occur.
    let s = Scratch::new("sig-spec-mex");
    s.edit_spec(id, |t| {
        t.replace("[1], superset: [1], mex: 0", "[1], superset: [1], mex: 1")
    });
    s.rejected(id, "mex nim(Opt(U)) = 0, the row states 1");
    let s = Scratch::new("sig-spec-box");
    s.edit_spec(id, |t| t.replace("boxed: [up, inf]", "boxed: [inf]"));
    s.rejected(
        id,
        "the claim fails at U = {1,2,3}: no boxed column [\"inf\"] occurs (d = 2, D = {1, 2, 3}",
    );
    // The certificate's count of multisets per row.
    let s = Scratch::new("sig-count");
    s.edit(id, |c| c["rows"][0] = json!(526));
    s.rejected(id, "the certificate counts [526, 147");
}

#[test]
fn signature_table_rendering_edited() {
    let id = "table_5_1";
    let tex = |s: &Scratch| s.dir.join("paper000").join("table_5_1.tex");
    let edit_tex = |s: &Scratch, f: &dyn Fn(&str) -> String| {
        let t = std::fs::read_to_string(tex(s)).unwrap();
        let u = f(&t);
        assert_ne!(t, u, "the edit changes the file");
        std::fs::write(tex(s), u).unwrap();
    };
    // A cell edited: the d − 1 option of ρ(U) = (0, 2) has nim 2.
    let s = Scratch::new("sig-tex-cell");
    edit_tex(&s, &|t| {
        t.replacen(
            "\\grundygroupbox{1}{0} & $1$ & 2 &",
            "\\grundygroupbox{1}{0} & $1$ & 1 &",
            1,
        )
    });
    s.rejected(id, "line 21: the row p = 0, d = 2 prints (\"1\", \"1\") under `down`, the spec's row (re-derived) has (\"1\", \"2\")");
    // A d̃ edited.
    let s = Scratch::new("sig-tex-dtilde");
    edit_tex(&s, &|t| t.replacen("$\\geq 5$", "$\\geq 6$", 1));
    s.rejected(
        id,
        "the row p = 0, d = >=4 prints (\">=6\", \"0\") under `up`",
    );
    // A box dropped (the boxes of ρ(U) = (1, 1)).
    let s = Scratch::new("sig-tex-box");
    edit_tex(&s, &|t| {
        t.replacen("\\grundygroupbox{3}{0} & $2$", "0 & $2$", 1)
    });
    s.rejected(
        id,
        "the row p = 1, d = 1 prints (\"1\", \"0\") under `same`",
    );
    // The subset and superset, and the mex.
    let s = Scratch::new("sig-tex-sets");
    edit_tex(&s, &|t| {
        t.replacen("$\\{0\\},\\,\\{0,2\\}$", "$\\{0,2\\}$", 1)
    });
    s.rejected(id, "the row p = 0, d = 2 prints nim∘Opt");
    let s = Scratch::new("sig-tex-mex");
    edit_tex(&s, &|t| {
        t.replacen("& $\\{1\\}$ & 0 \\\\", "& $\\{1\\}$ & 2 \\\\", 1)
    });
    s.rejected(id, "the row p = 1, d = >=3 prints mex 2");
    // A row dropped, a row printed twice, a row that is none of the spec's.
    let s = Scratch::new("sig-tex-drop");
    edit_tex(&s, &|t| {
        t.lines()
            .filter(|l| !l.starts_with("1 & $1$"))
            .map(|l| format!("{l}\n"))
            .collect()
    });
    s.rejected(id, "row 8 of the spec is not printed");
    let s = Scratch::new("sig-tex-twice");
    edit_tex(&s, &|t| {
        let row = t.lines().find(|l| l.starts_with("1 & $1$")).unwrap();
        t.replacen(row, &format!("{row}\n{row}"), 1)
    });
    s.rejected(id, "the row p = 1, d = 1 is printed twice");
    let s = Scratch::new("sig-tex-other");
    edit_tex(&s, &|t| t.replacen("\n1 & $1$ &", "\n1 & $7$ &", 1));
    s.rejected(id, "the row p = 1, d = 7 is no row of the spec");
    // The file rendered from other spec bytes.
    let s = Scratch::new("sig-tex-sha");
    edit_tex(&s, &|t| t.replacen("(sha256 0", "(sha256 1", 1));
    s.rejected(id, "the file was not rendered from the spec's bytes");
}

#[test]
fn signature_refutation_forged() {
    let id = "table_5_1_conditions";
    // Another multiset named, where conditions (1)–(4) and the row hold.
    let s = Scratch::new("sig-cx-other");
    s.edit(id, |c| c["counterexample"]["instance"] = json!("U = {3}"));
    s.rejected(id, "the claim holds at the counterexample U = {3}");
    // Another condition named: (2) holds at U = {2}.
    let s = Scratch::new("sig-cx-condition");
    s.edit(id, |c| c["evidence"]["fails"] = json!("(2)"));
    s.rejected(id, "condition (2) holds at the counterexample U = {2}");
    // Multisets the spec does not range over.
    for (name, u) in [
        ("order", "U = {2,1}"),
        ("sum", "U = {21}"),
        ("terminal", "U = {1,1}"),
    ] {
        let s = Scratch::new(&format!("sig-cx-{name}"));
        s.edit(id, |c| c["counterexample"]["instance"] = json!(u));
        s.rejected(
            id,
            &format!("the counterexample {u} is not an instance of the spec"),
        );
    }
    // The corrected conditions presented as refuted at U = {2}: (1') and the rows hold there.
    let s = Scratch::new("sig-cx-corrected");
    let fixed = "table_5_1_conditions_corrected";
    let mut c = s.cert(id);
    c["spec"] = json!(fixed);
    c["spec_sha256"] = s.cert(fixed)["spec_sha256"].clone();
    s.put_cert(fixed, &c);
    s.rejected(
        fixed,
        "the claim holds at the counterexample U = {2}: every row entry and condition",
    );
}

/// Issue 43's forgery on Table 5.1: a row made false, its multisets listed as not certified
/// with a made-up reason (in the certificate, or as grundy's report of the spec) — rejected.
#[test]
fn signature_table_exemptions_forged() {
    let id = "table_5_1";
    let reason = "the solver was interrupted";
    let s = Scratch::new("sig-exempt");
    s.edit_spec(id, |t| {
        t.replace("[1], superset: [1], mex: 0", "[1], superset: [1], mex: 1")
    });
    s.edit(id, |c| {
        c["not_certified"] = json!([{"instance": "U = {3}", "reason": reason}])
    });
    s.rejected(id, "the claim fails at U = {3}");
    // The spec unedited: the exemption alone is not confirmed.
    let s = Scratch::new("sig-exempt-true");
    s.edit(id, |c| {
        c["not_certified"] = json!([{"instance": "U = {3}", "reason": reason}])
    });
    s.rejected(
        id,
        &format!("instance U = {{3}} is listed as not certified (\"{reason}\"), which the verifier does not confirm"),
    );
    // No certificate, and grundy's report lists the table as not certified.
    let s = Scratch::new("sig-exempt-report");
    std::fs::remove_file(s.cert_path(id)).unwrap();
    let report = s.dir.join("report.json");
    let r = json!({"reports": [
        {"id": id, "verdict": "holds", "certificate": format!("not certified: {reason}")},
    ]});
    std::fs::write(&report, r.to_string()).unwrap();
    s.rejected(
        id,
        &format!("listed as not certified (\"{reason}\"), which the verifier does not confirm: a signature table is within every budget"),
    );
}

/// A refuted diagram (Thm 5.43 Case 4 as printed): the verifier searches the spec's strategy
/// from the counterexample start itself, every reply tried and every sink counted as won. A
/// counterexample moved to a start the strategy wins from, or to no start of the spec, is
/// rejected.
#[test]
fn refuted_diagrams_rederived() {
    let id = "thm_5_43_case4_printed";
    let s = Scratch::new("diagram-refuted");
    let (_, line) = s.line(id);
    assert!(
        line.contains("refuted (re-derived): from the start of SPL(3,6) + *1 at S the diagram's strategy does not win"),
        "{line}"
    );
    // m = 2 is even: (2,[4]) is a position of Case 1, and the strategy wins.
    let s = Scratch::new("diagram-refuted-won");
    s.edit(id, |c| {
        c["counterexample"]["instance"] = json!("SPL(2,5) + *1 (m=2, n=5)")
    });
    s.rejected(id, "the counterexample does not refute it");
    // SPL(3,4) + *1 is left out by the start family's `where` (m + 2 > n).
    let s = Scratch::new("diagram-refuted-where");
    s.edit(id, |c| {
        c["counterexample"]["instance"] = json!("SPL(3,4) + *1 (m=3, n=4)")
    });
    s.rejected(id, "is not selected by its start family's `where`");
    let s = Scratch::new("diagram-refuted-none");
    s.edit(id, |c| {
        c["counterexample"]["instance"] = json!("SPL(3,99) + *1 (m=3, n=99)")
    });
    s.rejected(id, "is not a start the spec generates");
    // The evidence offered for a holding verdict.
    let s = Scratch::new("diagram-refuted-top");
    s.edit(id, |c| {
        *c = json!({"format": "grundy-certificate/1", "spec": c["spec"].clone(), "spec_sha256": c["spec_sha256"].clone(), "kind": "diagram-search"})
    });
    s.rejected(id, "a diagram's search is evidence of a refutation only");
}

/// Structure diagrams (Ernst–Sieben 2018's GEN(Z_12)): the verifier computes the structure
/// classes of the game itself and reads the DOT and TikZ; an edited order or type, a dropped
/// arrow, an edited multiplicity, or a spec misstating the value or the class count is
/// rejected.
#[test]
fn structure_diagrams_edited() {
    let id = "structure_gen_cyc12";
    let edit_file = |s: &Scratch, name: &str, f: &dyn Fn(&str) -> String| {
        let path = s.dir.join("es2018").join(name);
        let t = std::fs::read_to_string(&path).unwrap();
        let u = f(&t);
        assert_ne!(t, u, "the edit changes the file");
        std::fs::write(path, u).unwrap();
    };
    let (dot, tikz) = ("structure_gen_cyc12.dot", "structure_gen_cyc12.tikz.tex");
    let s = Scratch::new("structure");
    s.verified(id, "1 of 1 instances");
    // Z_6's type is (0, 1, 2): its positions with |P| even have value 1.
    let s = Scratch::new("structure-type");
    edit_file(&s, dot, &|t| {
        t.replacen(
            "grundynote=\"|I| = 6, (0, 1, 2)\"",
            "grundynote=\"|I| = 6, (0, 0, 2)\"",
            1,
        )
    });
    s.rejected(id, "its nodes' orders, types and multiplicities");
    let s = Scratch::new("structure-arrow");
    edit_file(&s, dot, &|t| {
        t.replacen("  c0 -> c1 [grundystyle=\"grundy edge\"];\n", "", 1)
    });
    s.rejected(id, "its arrows between classes are not the moves");
    let s = Scratch::new("structure-end");
    edit_file(&s, dot, &|t| {
        t.replacen("  c1 -> terminal [grundystyle=\"grundy edge\"];\n", "", 1)
    });
    s.rejected(
        id,
        "the arrows into it are not the classes a move can leave",
    );
    let s = Scratch::new("structure-tikz");
    edit_file(&s, tikz, &|t| {
        t.replacen("$|I| = 4, (0, 1, 2)$", "$|I| = 4, (0, 1, 0)$", 1)
    });
    s.rejected(id, "node c2 does not print |I| = 4, (0, 1, 2)");
    let s = Scratch::new("structure-nim");
    s.edit_spec(id, |t| t.replacen("\nnim: 1\n", "\nnim: 0\n", 1));
    s.rejected(
        id,
        "the spec states nim(GEN(Cyc(12))) = 0, the verifier's is 1",
    );
    // The class count misstated, the renderings bound to the edited spec's bytes.
    let s = Scratch::new("structure-classes");
    let old = s.cert(id)["spec_sha256"].as_str().unwrap().to_string();
    s.edit_spec(id, |t| t.replacen("\nclasses: 3\n", "\nclasses: 4\n", 1));
    let new = s.cert(id)["spec_sha256"].as_str().unwrap().to_string();
    for f in [dot, tikz] {
        edit_file(&s, f, &|t| t.replace(&old, &new));
    }
    s.rejected(id, "it draws 3 class nodes; the spec states Some(4)");
}

/// A spec grundy reports as not certified with no certificate (issue 43 item 5): the reason
/// must be one the verifier recounts. A made-up reason, "no instance fits" for an instance of
/// few positions, the long tier for a spec of the main job, and a solver for a play are each
/// rejected; a true "no instance fits" is accepted.
#[test]
fn report_level_exemptions_confirmed() {
    let report_says = |s: &Scratch, id: &str, why: &str| {
        std::fs::remove_file(s.cert_path(id)).unwrap();
        let r = json!({"reports": [
            {"id": id, "verdict": "holds", "certificate": format!("not certified: {why}")},
        ]});
        std::fs::write(s.dir.join("report.json"), r.to_string()).unwrap();
    };
    let id = "example_3_2_dnt";
    let s = Scratch::new("report-made-up");
    report_says(&s, id, "the solver was interrupted");
    s.rejected(
        id,
        "which the verifier does not confirm: not a reason the verifier recounts",
    );
    let s = Scratch::new("report-fits");
    report_says(
        &s,
        id,
        "no instance fits (1 instances; first: : more than 10000 positions (the budget left for the instance))",
    );
    s.rejected(id, "has at most 10000 positions by the verifier's count");
    let s = Scratch::new("report-long");
    report_says(&s, id, "tier long, recorded by `grundy build --long`");
    s.rejected(id, "the spec is not of the long tier");
    let s = Scratch::new("report-solver");
    report_says(
        &s,
        "thm_14_case_4_printed",
        "the refuted construction is one of grundy's solvers, which the verifier does not re-implement",
    );
    s.rejected(
        "thm_14_case_4_printed",
        "the spec's construction is not a solver of grundy's",
    );
    // TER(P_16) has 65,536 positions: "no instance fits" holds by the verifier's count.
    let s = Scratch::new("report-true");
    std::fs::write(
        s.spec_path("ter_p16"),
        "kind: claim\nsource: test\ngame: TER(P_16)\nnim: 1\n",
    )
    .unwrap();
    let r = json!({"reports": [
        {"id": "ter_p16", "verdict": "holds", "certificate": "not certified: no instance fits (1 instances; first: : more than 10000 positions (the budget left for the instance))"},
    ]});
    std::fs::write(s.dir.join("report.json"), r.to_string()).unwrap();
    let (_, line) = s.line("ter_p16");
    assert!(line.contains("not certified: no instance fits"), "{line}");
}

/// Thm 13's construction as printed (seed 002): the verifier builds S from its own trail and
/// labelling at the counterexample and finds every first move leaves S no even kernel. A
/// counterexample that is not an instance, one whose tokens the spec no longer selects, and
/// the evidence offered for a holding verdict are rejected.
#[test]
fn printed_construction_rederived() {
    let id = "thm_13_printed";
    let s = Scratch::new("trail-printed");
    let (_, line) = s.line(id);
    assert!(
        line.contains("refuted (re-derived): at m=2, n=2, token (2,1), S as printed by the verifier's labelling: after (2,1) → (2, 2): (1, 2) is outside S and has 1 neighbours in it (odd)"),
        "{line}"
    );
    let s = Scratch::new("trail-printed-instance");
    s.edit(id, |c| c["counterexample"]["instance"] = json!("m=1, n=2"));
    s.rejected(
        id,
        "the counterexample m=1, n=2 is not an instance of the spec",
    );
    // No token selected (the spec edited, its hash updated): nothing fails there.
    let s = Scratch::new("trail-printed-tokens");
    s.edit_spec(id, |t| {
        t.replacen("tokens: \"divides(d, b)\"", "tokens: \"b > 99\"", 1)
    });
    s.rejected(id, "the claim holds at the counterexample m=2, n=2");
    let s = Scratch::new("trail-printed-top");
    s.edit(id, |c| {
        *c = json!({"format": "grundy-certificate/1", "spec": c["spec"].clone(), "spec_sha256": c["spec_sha256"].clone(), "kind": "printed-construction"})
    });
    s.rejected(
        id,
        "a printed construction is evidence of a refutation only",
    );
}
