//! Named graphs, GP_{n,k} and `file:` graphs (issue 45): the verifier builds `Petersen`,
//! `Heawood`, … and `GP_{n,k}` with its own constructions (verify/src/named.rs) and reads a
//! spec's `file:graphs/kneser.txt` from the spec's folder. The data are the certificates
//! `grundy build --specs tests/data/named_graphs/specs` writes: one Node Kayles claim per
//! named graph, one over GP_{6,1}, GP_{6,2}, GP_{8,1}, GP_{8,2}, and one on an edge list beside
//! its spec (the Petersen graph as the Kneser graph K(5,2)). A certificate is verified only
//! when the verifier's graph is the certificate's edge for edge, so "all verified" says that
//! grundy and the verifier build the same edge sets for every name. Each wrong variant below
//! must be caught.

use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::Command;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/named_graphs");

fn sha256(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let p = e.unwrap().path();
        let dest = to.join(p.file_name().unwrap());
        if p.is_dir() {
            copy_tree(&p, &dest);
        } else {
            std::fs::copy(&p, dest).unwrap();
        }
    }
}

struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir =
            std::env::temp_dir().join(format!("grundy-verify-named-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        copy_tree(Path::new(DATA), &dir);
        Scratch(dir)
    }

    fn cert_path(&self, id: &str) -> PathBuf {
        self.0.join("certificates").join(format!("{id}.json"))
    }

    fn edit(&self, id: &str, f: impl FnOnce(&mut Value)) {
        let p = self.cert_path(id);
        let mut v: Value = serde_json::from_slice(&std::fs::read(&p).unwrap()).unwrap();
        f(&mut v);
        std::fs::write(&p, serde_json::to_vec(&v).unwrap()).unwrap();
    }

    /// Edits a spec (at `rel` under specs/) and records its new sha256 in the certificate, as
    /// a forger regenerating the binding would.
    fn edit_spec(&self, id: &str, rel: &str, f: impl FnOnce(&str) -> String) {
        let p = self.0.join("specs").join(rel);
        let text = f(&std::fs::read_to_string(&p).unwrap());
        std::fs::write(&p, &text).unwrap();
        self.edit(id, |c| c["spec_sha256"] = json!(sha256(text.as_bytes())));
    }

    /// Runs the verifier from another folder (the scratch's parent: a relative `file:` path
    /// must not be read from the current folder); (exit code, stdout and stderr).
    fn run(&self) -> (i32, String) {
        let out = Command::new(env!("CARGO_BIN_EXE_grundy-verify"))
            .current_dir(std::env::temp_dir())
            .arg(self.0.join("certificates"))
            .arg("--specs")
            .arg(self.0.join("specs"))
            .arg("--allow-unverified")
            .output()
            .unwrap();
        (
            out.status.code().unwrap(),
            String::from_utf8_lossy(&out.stdout).to_string()
                + &String::from_utf8_lossy(&out.stderr),
        )
    }

    fn line(&self, id: &str) -> (i32, String) {
        let (code, out) = self.run();
        let line = out
            .lines()
            .find(|l| l.split_whitespace().next() == Some(id))
            .unwrap_or_else(|| panic!("no line for {id} in:\n{out}"))
            .to_string();
        (code, line)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

const NAMED: [&str; 10] = [
    "petersen",
    "heawood",
    "moebiuskantor",
    "pappus",
    "desargues",
    "dodecahedron",
    "icosahedron",
    "clebsch",
    "grotzsch",
    "chvatal",
];

#[test]
fn every_named_graph_and_the_file_graph_verify() {
    let s = Scratch::new("pristine");
    let (code, out) = s.run();
    assert_eq!(code, 0, "{out}");
    for id in NAMED.iter().map(|n| format!("nk_{n}")) {
        let line = out
            .lines()
            .find(|l| l.split_whitespace().next() == Some(id.as_str()))
            .unwrap_or_else(|| panic!("no line for {id}:\n{out}"));
        assert!(
            line.contains("verified (claim re-derived): 1 of 1"),
            "{line}"
        );
    }
    assert!(out.contains("nk_gp_even"), "{out}");
    let (_, gp) = s.line("nk_gp_even");
    assert!(gp.contains("verified (claim re-derived): 4 of 4"), "{gp}");
    let (_, file) = s.line("nk_kneser_file");
    assert!(
        file.contains("verified (claim re-derived): 1 of 1"),
        "{file}"
    );
    assert!(out.contains("12 specs: 12 verified"), "{out}");
}

#[test]
fn a_spec_naming_another_graph_is_rejected() {
    // The certificate is NK on the Petersen graph; the spec, rebound, says the prism GP_{5,1}
    // (10 vertices, 15 edges, 3-regular: only the edges tell them apart).
    let s = Scratch::new("other");
    s.edit_spec("nk_petersen", "nk_petersen.yaml", |t| {
        t.replace("game: NK(Petersen)", "game: NK(GP_{5,1})")
    });
    let (code, line) = s.line("nk_petersen");
    assert_eq!(code, 1, "{line}");
    assert!(line.contains("REJECTED"), "{line}");
}

#[test]
fn a_certificate_graph_with_one_edge_moved_is_rejected() {
    // Heawood's chord v0 v5 moved to v0 v7: still 21 edges on 14 vertices.
    let s = Scratch::new("edge");
    s.edit("nk_heawood", |c| {
        let edges = c["tables"][0]["game"]["NK"]["graph"]["edges"]
            .as_array_mut()
            .unwrap();
        let i = edges.iter().position(|e| *e == json!([0, 5])).unwrap();
        edges[i] = json!([0, 7]);
    });
    let (code, line) = s.line("nk_heawood");
    assert_eq!(code, 1, "{line}");
    assert!(line.contains("REJECTED"), "{line}");
}

#[test]
fn gp_out_of_range_is_not_a_graph_the_verifier_builds() {
    // GP_{6,3} (k = n/2) is no generalized Petersen graph: the claim is not re-derived.
    let s = Scratch::new("range");
    s.edit_spec("nk_petersen", "nk_petersen.yaml", |t| {
        t.replace("game: NK(Petersen)", "game: NK(GP_{6,3})")
    });
    let (_, line) = s.line("nk_petersen");
    assert!(!line.contains("verified (claim re-derived)"), "{line}");
    assert!(line.contains("GP_{6,3}"), "{line}");
}

#[test]
fn a_file_graph_missing_from_the_spec_folder_is_not_re_derived() {
    // The pristine run reads `file:graphs/kneser.txt` from specs/files/ while the current
    // folder is elsewhere; without the file there, the claim is not re-derived, and the line
    // names the path read.
    let s = Scratch::new("file");
    std::fs::remove_file(s.0.join("specs/files/graphs/kneser.txt")).unwrap();
    let (_, line) = s.line("nk_kneser_file");
    assert!(!line.contains("verified (claim re-derived)"), "{line}");
    assert!(line.contains("kneser.txt"), "{line}");
}
