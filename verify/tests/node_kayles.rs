//! Node Kayles certificates (a registered game family, grundy's src/game/node_kayles.rs): the
//! verifier reads `{"NK": {"graph": …}}` with its own rules (a move takes a vertex in play
//! out of play with its neighbours), re-derives the game from the spec's `NK(P_n)` / `NK(C_n)`
//! and the claimed values from its formula. The data are the certificates `grundy build`
//! writes for specs/classics/node_kayles_{paths,cycles}.yaml over shorter ranges (n ≤ 12).
//! Each forgery below must be rejected naming what is wrong.

use serde_json::{json, Value};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/node_kayles");

struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir =
            std::env::temp_dir().join(format!("grundy-verify-nk-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for sub in ["specs", "certificates"] {
            std::fs::create_dir_all(dir.join(sub)).unwrap();
            for e in std::fs::read_dir(Path::new(DATA).join(sub)).unwrap() {
                let p = e.unwrap().path();
                std::fs::copy(&p, dir.join(sub).join(p.file_name().unwrap())).unwrap();
            }
        }
        Scratch(dir)
    }

    fn edit(&self, id: &str, f: impl FnOnce(&mut Value)) {
        let p = self.0.join("certificates").join(format!("{id}.json"));
        let mut v: Value = serde_json::from_slice(&std::fs::read(&p).unwrap()).unwrap();
        f(&mut v);
        std::fs::write(&p, serde_json::to_vec(&v).unwrap()).unwrap();
    }

    /// (exit code, the verifier's line for `id`).
    fn line(&self, id: &str) -> (i32, String) {
        let out = Command::new(env!("CARGO_BIN_EXE_grundy-verify"))
            .arg(self.0.join("certificates"))
            .arg("--specs")
            .arg(self.0.join("specs"))
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        let line = text
            .lines()
            .find(|l| l.split_whitespace().next() == Some(id))
            .unwrap_or_else(|| panic!("no line for {id} in:\n{text}"))
            .to_string();
        (out.status.code().unwrap(), line)
    }

    fn rejected(&self, id: &str, naming: &str) {
        let (code, line) = self.line(id);
        assert_eq!(code, 1, "{line}");
        assert!(
            line.contains("REJECTED") && line.contains(naming),
            "expected REJECTED naming `{naming}`: {line}"
        );
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn unedited_node_kayles_certificates_verify() {
    let s = Scratch::new("pristine");
    for (id, what) in [
        ("node_kayles_paths", "12 of 12"),
        ("node_kayles_cycles", "9 of 9"),
    ] {
        let (code, line) = s.line(id);
        assert_eq!(code, 0, "{line}");
        assert!(
            line.contains(&format!("verified (claim re-derived): {what} instances")),
            "{line}"
        );
    }
}

#[test]
fn a_changed_value_is_rejected() {
    let s = Scratch::new("value");
    // NK(P_4): entry 0 is the start, of value nim(DC(4)) = 0; 1 is not the mex of its options.
    s.edit("node_kayles_paths", |c| {
        c["tables"][3]["entries"][0][1] = json!(1)
    });
    s.rejected("node_kayles_paths", "instance n=4");
}

#[test]
fn a_table_of_another_graph_is_rejected() {
    // A genuine, closed table of NK(P_6) (from the paths certificate) relabelled as the
    // instance n = 6 of the cycles: the spec says C_6.
    let s = Scratch::new("graph");
    let p6 = {
        let p = s.0.join("certificates/node_kayles_paths.json");
        let v: Value = serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap();
        v["tables"][5].clone()
    };
    assert_eq!(p6["instance"], json!("n=6"));
    s.edit("node_kayles_cycles", |c| c["tables"][2] = p6);
    s.rejected(
        "node_kayles_cycles",
        "instance n=6: the table's game is not NK(C_6)",
    );
}

/// The wrong rule beside the right one: "take only the vertex" (not its neighbours). A table
/// closed and consistent under that rule, with the start's value the spec claims where the
/// two rules agree, must still be rejected: the verifier's options are Node Kayles's.
#[test]
fn a_table_of_the_vertex_only_rule_is_rejected() {
    fn solve(n: usize, p: u64, memo: &mut HashMap<u64, u32>) -> u32 {
        if let Some(&v) = memo.get(&p) {
            return v;
        }
        let opts: Vec<u32> = (0..n)
            .filter(|v| p >> v & 1 == 1)
            .map(|v| solve(n, p & !(1 << v), memo))
            .collect();
        let v = (0..).find(|m| !opts.contains(m)).unwrap();
        memo.insert(p, v);
        v
    }
    let s = Scratch::new("rule");
    s.edit("node_kayles_paths", |c| {
        // NK(P_2) = DC(2) has value 1, as taking the vertices one at a time (2 moves) has 0:
        // use P_3, where both are 1 (DC(3) = 1; three single moves: 1).
        let t = &mut c["tables"][2];
        let mut memo = HashMap::new();
        let start = solve(3, 0b111, &mut memo);
        assert_eq!(start, 1);
        let mut entries: Vec<(u64, u32)> = memo.into_iter().collect();
        entries.sort_by_key(|&(p, _)| std::cmp::Reverse(p));
        t["entries"] = json!(entries);
    });
    s.rejected("node_kayles_paths", "instance n=3");
}

/// nim of Node Kayles on the path P_n at every vertex set, by brute force (bit i = vertex i).
fn path_values(n: usize) -> Vec<u32> {
    let mut value = vec![0u32; 1 << n];
    for p in 1..(1u64 << n) {
        let mut opts: Vec<u32> = Vec::new();
        for v in (0..n).filter(|&v| p >> v & 1 == 1) {
            let closed = (7u64 << v >> 1) & ((1 << n) - 1);
            opts.push(value[(p & !closed) as usize]);
        }
        value[p as usize] = (0..).find(|m| !opts.contains(m)).unwrap();
    }
    value
}

/// The subpaths of P_n (vertex sets of one interval), the empty set and the start: the table
/// grundy writes when it lists every split option by its components.
fn interval_table(n: usize, value: impl Fn(u64) -> u32) -> Value {
    let full = (1u64 << n) - 1;
    let mut sets = vec![full];
    for len in (1..n).rev() {
        for a in 0..=n - len {
            sets.push(((1u64 << len) - 1) << a);
        }
    }
    sets.push(0);
    json!(sets
        .into_iter()
        .map(|p| json!([p, value(p)]))
        .collect::<Vec<_>>())
}

/// A table that lists split options by their components (connected positions only) verifies:
/// the verifier splits each option by its own rules and takes the XOR of the parts' values.
#[test]
fn a_table_of_components_verifies() {
    let s = Scratch::new("components");
    let truth = path_values(5);
    s.edit("node_kayles_paths", |c| {
        let t = &mut c["tables"][4];
        assert_eq!(t["instance"], json!("n=5"));
        t["entries"] = interval_table(5, |p| truth[p as usize]);
    });
    let (code, line) = s.line("node_kayles_paths");
    assert_eq!(code, 0, "{line}");
    assert!(line.contains("12 of 12 instances"), "{line}");
}

/// The wrong variants beside it: a component left out, and values made by adding the parts'
/// values instead of XOR-ing them (on P_5, taking the middle vertex leaves P_1 + P_1, worth
/// 1 ⊕ 1 = 0, not 1 + 1 = 2).
#[test]
fn a_table_of_components_with_a_part_missing_or_summed_is_rejected() {
    let truth = path_values(5);
    let s = Scratch::new("components-missing");
    s.edit("node_kayles_paths", |c| {
        let t = &mut c["tables"][4];
        let mut entries = interval_table(5, |p| truth[p as usize]);
        // {4} (bit 4) is the part of {0} ∪ {4} the table drops.
        entries
            .as_array_mut()
            .unwrap()
            .retain(|e| e[0] != json!(16u64));
        t["entries"] = entries;
    });
    s.rejected("node_kayles_paths", "nor are all of its components");

    // The "sum" rule's values, computed consistently over the whole table.
    let mut summed = [0u32; 32];
    for p in 1..32u64 {
        let mut opts = Vec::new();
        for v in (0..5).filter(|&v| p >> v & 1 == 1) {
            let q = p & !((7u64 << v >> 1) & 31);
            // Components of q in the path: its maximal runs of ones.
            let mut parts = Vec::new();
            let mut run = 0u64;
            for i in 0..5 {
                if q >> i & 1 == 1 {
                    run |= 1 << i;
                } else if run != 0 {
                    parts.push(run);
                    run = 0;
                }
            }
            if run != 0 {
                parts.push(run);
            }
            opts.push(parts.iter().map(|&r| summed[r as usize]).sum::<u32>());
        }
        summed[p as usize] = (0..).find(|m| !opts.contains(m)).unwrap();
    }
    assert_ne!(
        summed[31], truth[31],
        "the wrong rule must change the start's value"
    );
    let s = Scratch::new("components-summed");
    s.edit("node_kayles_paths", |c| {
        c["tables"][4]["entries"] = interval_table(5, |p| summed[p as usize]);
    });
    s.rejected("node_kayles_paths", "instance n=5");
}
