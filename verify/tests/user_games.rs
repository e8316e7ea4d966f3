//! Games defined in specs (`kind: game`, docs/user-games.md): certificates written by hand
//! here, their values brute-forced by the test's own small functions (not by the verifier's
//! code, nor grundy's), which the verifier must accept — Node Kayles written as a rule (UNK)
//! on paths, the subtraction game SUB with options n−1, n−2, n−3 (values n mod 4), TER on
//! paths under the P3-closure written as a rule — and forgeries it must reject naming what is
//! wrong: a wrong value, a rule changed under the old hash or with the new one, a wrong or
//! missing game spec, a rule that loops, gives a malformed position or a cycle, an entry
//! outside `all`, a closure's wrong hash or bad interval. Last, the convex hull written as a
//! user closure gives the built-in hull's verdicts on an existing certificate.

use serde_json::{json, Value};
use std::collections::HashMap;
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

const UNK: &str = "kind: game
source: Node Kayles written as a rule (Schaefer 1978)
name: UNK
title: Node Kayles, by its rule
position: vertices
options: |
  let out = [];
  for v in members(p) { out.push(minus(p, bit(v) | adj(v))); }
  out
features:
  available: count(p)
";

/// Take one vertex only (not its neighbours): another game under the same name.
const UNK_VERTEX_ONLY: &str = "kind: game
source: Node Kayles written as a rule (Schaefer 1978)
name: UNK
title: Node Kayles, by its rule
position: vertices
options: |
  let out = [];
  for v in members(p) { out.push(minus(p, bit(v))); }
  out
features:
  available: count(p)
";

const SUB: &str = "kind: game
source: the subtraction game S(1, 2, 3)
name: SUB
title: Take 1, 2 or 3
position: integers
options: |
  let out = [];
  for k in [1, 2, 3] { if p[0] >= k { out.push([p[0] - k]); } }
  out
";

const P3: &str = "kind: game
source: The P3 convexity (two common neighbours pull a vertex in)
closure: p3
title: P3 hull
interval: |
  bit(u) | bit(v) | (adj(u) & adj(v))
iterated: true
";

/// The geodesic intervals written as a rule: the convex hull, as a user closure.
const GEO: &str = "kind: game
source: geodesic intervals, written as a rule
closure: geo
title: convex hull by a rule
interval: |
  let s = bit(u) | bit(v);
  let d = dist(u, v);
  if d >= 0 {
    for w in 0..n {
      let a = dist(u, w);
      let b = dist(w, v);
      if a >= 0 && b >= 0 && a + b == d { s = s | bit(w); }
    }
  }
  s
iterated: true
";

/// A scratch folder of specs and certificates.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir =
            std::env::temp_dir().join(format!("grundy-verify-user-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for sub in ["specs", "certificates"] {
            std::fs::create_dir_all(dir.join(sub)).unwrap();
        }
        Scratch(dir)
    }

    fn spec(&self, id: &str, text: &str) {
        std::fs::write(self.0.join("specs").join(format!("{id}.yaml")), text).unwrap();
    }

    fn remove_spec(&self, id: &str) {
        std::fs::remove_file(self.0.join("specs").join(format!("{id}.yaml"))).unwrap();
    }

    fn cert(&self, id: &str, v: &Value) {
        let p = self.0.join("certificates").join(format!("{id}.json"));
        std::fs::write(p, serde_json::to_vec(v).unwrap()).unwrap();
    }

    fn read_cert(&self, id: &str) -> Value {
        let p = self.0.join("certificates").join(format!("{id}.json"));
        serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap()
    }

    fn edit(&self, id: &str, f: impl FnOnce(&mut Value)) {
        let mut v = self.read_cert(id);
        f(&mut v);
        self.cert(id, &v);
    }

    /// (exit code, the verifier's line for `id`, after the id).
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
            .unwrap_or_else(|| {
                panic!(
                    "no line for {id} in:\n{text}\n{}",
                    String::from_utf8_lossy(&out.stderr)
                )
            })
            .trim_start_matches(id)
            .trim()
            .to_string();
        (out.status.code().unwrap(), line)
    }

    fn verified(&self, id: &str, what: &str) {
        let (code, line) = self.line(id);
        assert!(
            line.starts_with(&format!("verified (claim re-derived): {what} instances")),
            "{id}: {line}"
        );
        assert_eq!(code, 0, "{line}");
    }

    fn rejected(&self, id: &str, naming: &str) {
        let (code, line) = self.line(id);
        assert!(
            line.starts_with("REJECTED") && line.contains(naming),
            "expected {id} REJECTED naming `{naming}`: {line}"
        );
        assert_eq!(code, 1, "{line}");
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The path P_n as a certificate writes it.
fn path(n: usize) -> Value {
    let edges: Vec<[usize; 2]> = (1..n).map(|i| [i - 1, i]).collect();
    json!({"n": n, "edges": edges})
}

fn mex(values: impl IntoIterator<Item = u32>) -> u32 {
    let mut seen: Vec<u32> = values.into_iter().collect();
    seen.sort_unstable();
    seen.dedup();
    seen.iter()
        .enumerate()
        .find(|(i, &v)| *i as u32 != v)
        .map_or(seen.len() as u32, |(i, _)| i as u32)
}

/// Node Kayles on P_n by brute force: every position reachable from all n vertices, with
/// its nim-value (a move takes a vertex in play and its neighbours out of play).
fn node_kayles_path(n: usize) -> Vec<(u64, u32)> {
    fn value(p: u64, n: usize, memo: &mut HashMap<u64, u32>) -> u32 {
        if let Some(&v) = memo.get(&p) {
            return v;
        }
        let mut opts = Vec::new();
        for v in 0..n {
            if p >> v & 1 == 1 {
                let closed = (1u64 << v) | (1u64 << (v + 1)) | if v > 0 { 1 << (v - 1) } else { 0 };
                opts.push(value(p & !closed & ((1u64 << n) - 1), n, memo));
            }
        }
        let v = mex(opts);
        memo.insert(p, v);
        v
    }
    let mut memo = HashMap::new();
    value((1u64 << n) - 1, n, &mut memo);
    let mut entries: Vec<(u64, u32)> = memo.into_iter().collect();
    entries.sort_unstable_by_key(|e| std::cmp::Reverse(e.0));
    entries
}

/// TER on P_n under the P3-closure by brute force: the maximal legal sets and the value.
/// Legal P: V ∖ P generates (its hull under I(u, v) = {u, v} ∪ (N(u) ∩ N(v)) is V). A move
/// selects a vertex while P is legal; the first illegal position ends the game.
fn ter_p3_path(n: usize) -> (Vec<Vec<usize>>, u32) {
    let all = (1u64 << n) - 1;
    let adj = |v: usize| -> u64 {
        let mut a = 0;
        if v > 0 {
            a |= 1 << (v - 1);
        }
        if v + 1 < n {
            a |= 1 << (v + 1);
        }
        a
    };
    let hull = |s: u64| {
        let mut cur = s;
        loop {
            let mut next = cur;
            for u in 0..n {
                for v in 0..n {
                    if cur >> u & 1 == 1 && cur >> v & 1 == 1 && u != v {
                        next |= adj(u) & adj(v);
                    }
                }
            }
            if next == cur {
                return cur;
            }
            cur = next;
        }
    };
    let legal = |p: u64| hull(all & !p) == all;
    let mut maximal: Vec<Vec<usize>> = (0..=all)
        .filter(|&p| legal(p) && (0..n).all(|x| p >> x & 1 == 1 || !legal(p | 1 << x)))
        .map(|p| (0..n).filter(|&x| p >> x & 1 == 1).collect())
        .collect();
    maximal.sort();
    let mut memo: HashMap<u64, u32> = HashMap::new();
    for p in (0..=all).rev() {
        let v = if legal(p) {
            mex((0..n)
                .filter(|&x| p >> x & 1 == 0)
                .map(|x| memo[&(p | 1 << x)]))
        } else {
            0
        };
        memo.insert(p, v);
    }
    (maximal, memo[&0])
}

#[test]
fn the_brute_force_is_node_kayles() {
    // Node Kayles on P_1..P_10 is Dawson's Chess, 0.137 (Winning Ways ch. 4).
    let values: Vec<u32> = (1..=10).map(|n| node_kayles_path(n)[0].1).collect();
    assert_eq!(values, vec![1, 1, 2, 0, 3, 1, 1, 0, 3, 3]);
    // P_2 under the P3-closure: no vertex is ever pulled in, so only ∅ is legal and the
    // first move ends the game (value 1).
    assert_eq!(ter_p3_path(2), (vec![vec![]], 1));
}

/// A nim-tables certificate of `spec` (text `spec_text`) with these tables.
fn tables_cert(spec: &str, spec_text: &str, tables: Vec<Value>) -> Value {
    json!({
        "format": "grundy-certificate/1",
        "kind": "nim-tables",
        "spec": spec,
        "spec_sha256": sha256(spec_text.as_bytes()),
        "not_certified": [],
        "tables": tables,
    })
}

/// UNK on P_1..P_max: the game spec, the claim (the brute-forced values as a list, read
/// through the spec's feature `available`, n at the start), and their certificate.
fn unk_scratch(name: &str, max: usize) -> Scratch {
    let s = Scratch::new(name);
    s.spec("unk", UNK);
    let values: Vec<String> = (1..=max)
        .map(|n| node_kayles_path(n)[0].1.to_string())
        .collect();
    let claim = format!(
        "kind: claim\nsource: test\ngame: UNK(P_n)\nparams:\n  n: 1..={max}\nnim: 'if available == n {{ [{}][n - 1] }} else {{ -1 }}'\n",
        values.join(", ")
    );
    s.spec("unk_paths", &claim);
    let tables = (1..=max)
        .map(|n| {
            let entries = node_kayles_path(n);
            json!({
                "instance": format!("n={n}"),
                "game": {"USER": {"name": "UNK", "spec_sha256": sha256(UNK.as_bytes()), "graph": path(n)}},
                "entries": entries,
                "claims": [{"nim": entries[0].1, "pos": entries[0].0, "start": true}],
            })
        })
        .collect();
    s.cert("unk_paths", &tables_cert("unk_paths", &claim, tables));
    s
}

#[test]
fn node_kayles_as_a_rule_is_verified() {
    let s = unk_scratch("unk", 6);
    s.verified("unk_paths", "6 of 6");
    let (_, line) = s.line("unk");
    assert!(line.starts_with("defines the move game UNK"), "{line}");
}

#[test]
fn node_kayles_as_a_rule_forged() {
    // A wrong value (P_4's start is a P-position: value 0).
    let s = unk_scratch("unk-value", 4);
    s.edit("unk_paths", |c| c["tables"][3]["entries"][0][1] = json!(1));
    s.rejected("unk_paths", "instance n=4");

    // An entry outside `all` (bit 4 on P_4).
    let s = unk_scratch("unk-outside", 4);
    s.edit("unk_paths", |c| {
        c["tables"][3]["entries"]
            .as_array_mut()
            .unwrap()
            .push(json!([16, 0]))
    });
    s.rejected("unk_paths", "outside `all`");

    // The rule changed (take the vertex only) under the old hash.
    let s = unk_scratch("unk-rule", 4);
    s.spec("unk", UNK_VERTEX_ONLY);
    s.rejected("unk_paths", "other spec bytes");
    // ... and with the new hash: the options are the new rule's, the table is not closed
    // under them (or not their mex).
    s.edit("unk_paths", |c| {
        for t in c["tables"].as_array_mut().unwrap() {
            t["game"]["USER"]["spec_sha256"] = json!(sha256(UNK_VERTEX_ONLY.as_bytes()));
        }
    });
    s.rejected("unk_paths", "instance n=");

    // A wrong spec_sha256.
    let s = unk_scratch("unk-sha", 4);
    s.edit("unk_paths", |c| {
        c["tables"][0]["game"]["USER"]["spec_sha256"] = json!("00".repeat(32))
    });
    s.rejected("unk_paths", "other spec bytes");

    // The game spec missing.
    let s = unk_scratch("unk-missing", 4);
    s.remove_spec("unk");
    s.rejected("unk_paths", "no game spec named UNK");

    // Another game's name in the certificate.
    let s = unk_scratch("unk-name", 4);
    s.edit("unk_paths", |c| {
        c["tables"][1]["game"]["USER"]["name"] = json!("UNQ")
    });
    s.rejected("unk_paths", "no game spec named UNQ");
}

#[test]
fn subtraction_game_is_verified() {
    let s = Scratch::new("sub");
    s.spec("sub", SUB);
    let claim = "kind: claim\nsource: test\ngame: SUB(n)\nparams:\n  n: 0..=10\nnim: n % 4\n";
    s.spec("sub_values", claim);
    let tables = (0..=10u32)
        .map(|n| {
            let entries: Vec<Value> = (0..=n).rev().map(|k| json!([[k], k % 4])).collect();
            json!({
                "instance": format!("n={n}"),
                "game": {"USER": {"name": "SUB", "spec_sha256": sha256(SUB.as_bytes()), "start": [n]}},
                "entries": entries,
                "claims": [{"nim": n % 4, "pos": [n], "start": true}],
            })
        })
        .collect();
    s.cert("sub_values", &tables_cert("sub_values", claim, tables));
    s.verified("sub_values", "11 of 11");

    // A negative integer in an entry is no position.
    s.edit("sub_values", |c| {
        c["tables"][2]["entries"][0][0] = json!([-2])
    });
    s.rejected("sub_values", "instance n=2");
}

/// A one-instance game spec `BAD` on P_2 with this options rule, and a table for it.
fn bad_rule(name: &str, options: &str, entries: Value) -> Scratch {
    let s = Scratch::new(name);
    let game = format!(
        "kind: game\nsource: test\nname: BAD\nposition: vertices\noptions: |\n  {}\n",
        options.replace('\n', "\n  ")
    );
    s.spec("bad", &game);
    let claim = "kind: claim\nsource: test\ngame: BAD(P_2)\nnim: 0\n";
    s.spec("bad_claim", claim);
    let table = json!({
        "instance": "",
        "game": {"USER": {"name": "BAD", "spec_sha256": sha256(game.as_bytes()), "graph": path(2)}},
        "entries": entries,
        "claims": [{"nim": 0, "pos": 3, "start": true}],
    });
    s.cert("bad_claim", &tables_cert("bad_claim", claim, vec![table]));
    s
}

#[test]
fn bad_rules_are_rejected() {
    // The table below is right for a P_2 with no move; each rule then fails at the start.
    let start = json!([[3, 0]]);
    let s = bad_rule(
        "loop",
        "let x = 0;\nwhile true { x += 1; }\n[]",
        start.clone(),
    );
    s.rejected("bad_claim", "the options rule of BAD at position 3");
    let (_, line) = s.line("bad_claim");
    assert!(line.contains("operations"), "{line}");

    let s = bad_rule("outside", "[bit(2)]", start.clone());
    s.rejected("bad_claim", "outside `all`");
    let s = bad_rule("negative", "[-1]", start.clone());
    s.rejected("bad_claim", "outside `all`");
    let s = bad_rule("text", "[\"x\"]", start.clone());
    s.rejected("bad_claim", "is not a set of bits");
    let s = bad_rule("scalar", "p", start.clone());
    s.rejected("bad_claim", "is not an array of positions");
    let s = bad_rule("itself", "[p]", start.clone());
    s.rejected("bad_claim", "an option equal to its position");
    let s = bad_rule("unknown", "[nope(p)]", start);
    s.rejected("bad_claim", "the options rule of BAD");

    // A cycle 3 → 0 → 3 has a consistent mex labelling (3: 0, 0: 1), which is no nim-value.
    let s = bad_rule("cycle", "[minus(all, p)]", json!([[3, 0], [0, 1]]));
    s.rejected("bad_claim", "not acyclic");

    // A game spec that does not load: a built-in head.
    let s = unk_scratch("builtin-head", 2);
    s.spec("nk_again", &UNK.replace("name: UNK", "name: NK"));
    s.rejected("nk_again", "the game spec does not load");
    s.verified_or_exit1("unk_paths", "2 of 2");
}

impl Scratch {
    /// `id` verified, in a run that rejects something else.
    fn verified_or_exit1(&self, id: &str, what: &str) {
        let (_, line) = self.line(id);
        assert!(
            line.starts_with(&format!("verified (claim re-derived): {what} instances")),
            "{id}: {line}"
        );
    }
}

/// TER(P_n), n = 2..=6, under the P3-closure written as a rule: the closure-values
/// certificate, brute-forced.
fn ter_scratch(name: &str) -> Scratch {
    let s = Scratch::new(name);
    s.spec("p3", P3);
    let values: Vec<String> = (2..=6).map(|n| ter_p3_path(n).1.to_string()).collect();
    let claim = format!(
        "kind: claim\nsource: test\ngame: TER(P_n)\nclosure: p3\nparams:\n  n: 2..=6\nnim: '[{}][n - 2]'\n",
        values.join(", ")
    );
    s.spec("ter_p3", &claim);
    let instances: Vec<Value> = (2..=6)
        .map(|n| {
            let (maximal, value) = ter_p3_path(n);
            json!({
                "instance": format!("n={n}"),
                "game": "TER",
                "structure": format!("P_{n}"),
                "closure": "p3",
                "closure_sha256": sha256(P3.as_bytes()),
                "elements": n,
                "maximal_sets": maximal,
                "value": value,
                "claim": {"nim": value, "pos": [], "start": true},
            })
        })
        .collect();
    s.cert(
        "ter_p3",
        &json!({
            "format": "grundy-certificate/1",
            "kind": "closure-values",
            "spec": "ter_p3",
            "spec_sha256": sha256(claim.as_bytes()),
            "not_certified": [],
            "instances": instances,
        }),
    );
    s
}

#[test]
fn ter_under_a_user_closure_is_verified() {
    let s = ter_scratch("ter");
    s.verified("ter_p3", "5 of 5");
    let (_, line) = s.line("p3");
    assert!(line.starts_with("defines the graph closure p3"), "{line}");
}

#[test]
fn ter_under_a_user_closure_forged() {
    let s = ter_scratch("ter-value");
    s.edit("ter_p3", |c| {
        let v = c["instances"][3]["value"].as_u64().unwrap();
        c["instances"][3]["value"] = json!(v + 1);
    });
    s.rejected("ter_p3", "instance n=5");

    let s = ter_scratch("ter-sha");
    s.edit("ter_p3", |c| {
        c["instances"][0]["closure_sha256"] = json!("00".repeat(32))
    });
    s.rejected("ter_p3", "other spec bytes");

    let s = ter_scratch("ter-no-sha");
    s.edit("ter_p3", |c| {
        c["instances"][0]
            .as_object_mut()
            .unwrap()
            .remove("closure_sha256");
    });
    s.rejected("ter_p3", "closure_sha256 missing");

    // The closure's rule changed under the old hash.
    let s = ter_scratch("ter-rule");
    s.spec("p3", &P3.replace("iterated: true", "iterated: false"));
    s.rejected("ter_p3", "other spec bytes");

    // The closure's spec missing.
    let s = ter_scratch("ter-missing");
    s.remove_spec("p3");
    s.rejected("ter_p3", "not one a game spec under --specs defines");

    // An interval without u and v, with its hash updated.
    let s = ter_scratch("ter-interval");
    let bad = P3.replace(
        "bit(u) | bit(v) | (adj(u) & adj(v))",
        "bit(u) | (adj(u) & adj(v))",
    );
    s.spec("p3", &bad);
    s.edit("ter_p3", |c| {
        for i in c["instances"].as_array_mut().unwrap() {
            i["closure_sha256"] = json!(sha256(bad.as_bytes()));
        }
    });
    s.rejected("ter_p3", "does not hold u and v");
}

/// The built-in hull and the hull written as a user rule, on the fixture DNG(P_n),
/// n = 2..=20 (tests/data): the same verdicts, pristine and with a value changed.
#[test]
fn the_hull_as_a_user_rule_agrees_with_the_built_in_one() {
    let s = Scratch::new("geo");
    let spec =
        std::fs::read_to_string(Path::new(DATA).join("specs/closure_path_dng.yaml")).unwrap();
    let cert: Value = serde_json::from_slice(
        &std::fs::read(Path::new(DATA).join("certificates/closure_path_dng.json")).unwrap(),
    )
    .unwrap();
    s.spec("closure_path_dng", &spec);
    s.cert("closure_path_dng", &cert);
    s.spec("geo", GEO);
    let user_spec = spec.replace("game: DNG(P_n)", "game: DNG(P_n)\nclosure: geo");
    assert_ne!(user_spec, spec);
    s.spec("geo_path_dng", &user_spec);
    let mut user_cert = cert.clone();
    user_cert["spec"] = json!("geo_path_dng");
    user_cert["spec_sha256"] = json!(sha256(user_spec.as_bytes()));
    for i in user_cert["instances"].as_array_mut().unwrap() {
        assert_eq!(i["closure"], json!("hull"));
        i["closure"] = json!("geo");
        i["closure_sha256"] = json!(sha256(GEO.as_bytes()));
    }
    s.cert("geo_path_dng", &user_cert);
    let (code, built_in) = s.line("closure_path_dng");
    let (_, user) = s.line("geo_path_dng");
    assert_eq!(code, 0, "{built_in}");
    assert!(
        built_in.starts_with("verified (claim re-derived): 19 of 19"),
        "{built_in}"
    );
    assert_eq!(built_in, user);

    // The same forgery in both: n = 5's value changed.
    s.edit("closure_path_dng", |c| {
        c["instances"][3]["value"] = json!(1)
    });
    s.edit("geo_path_dng", |c| c["instances"][3]["value"] = json!(1));
    let (code, built_in) = s.line("closure_path_dng");
    let (_, user) = s.line("geo_path_dng");
    assert_eq!(code, 1);
    assert!(built_in.starts_with("REJECTED: instance n=5"), "{built_in}");
    assert_eq!(built_in, user);

    // A certificate naming the built-in hull for the user closure's spec is another closure.
    s.edit("geo_path_dng", |c| {
        c["instances"][3]["value"] = json!(0);
        for i in c["instances"].as_array_mut().unwrap() {
            i["closure"] = json!("hull");
            i.as_object_mut().unwrap().remove("closure_sha256");
        }
    });
    s.rejected("geo_path_dng", "under the hull closure");
}

const EK: &str = "kind: game
source: take an edge and every edge at its ends
name: EK
position: edges
options: |
  let out = [];
  for e in members(p) {
    let uv = ends(e);
    out.push(minus(p, incident(uv[0]) | incident(uv[1])));
  }
  out
";

/// EK by brute force on edges numbered as `edges` lists them: every position reachable from
/// all edges, with its nim-value.
fn edge_game(edges: &[(usize, usize)]) -> Vec<(u64, u32)> {
    let m = edges.len();
    let touching = |e: usize| -> u64 {
        let (a, b) = edges[e];
        (0..m)
            .filter(|&f| {
                let (c, d) = edges[f];
                c == a || c == b || d == a || d == b
            })
            .fold(0, |s, f| s | 1 << f)
    };
    fn value(p: u64, m: usize, t: &dyn Fn(usize) -> u64, memo: &mut HashMap<u64, u32>) -> u32 {
        if let Some(&v) = memo.get(&p) {
            return v;
        }
        let opts: Vec<u32> = (0..m)
            .filter(|&e| p >> e & 1 == 1)
            .map(|e| value(p & !t(e), m, t, memo))
            .collect();
        let v = mex(opts);
        memo.insert(p, v);
        v
    }
    let mut memo = HashMap::new();
    value((1u64 << m) - 1, m, &touching, &mut memo);
    let mut entries: Vec<(u64, u32)> = memo.into_iter().collect();
    entries.sort_unstable_by_key(|e| std::cmp::Reverse(e.0));
    entries
}

/// An edges game: its positions number the edges by their pairs in lexicographic order,
/// whatever order the certificate's graph lists them in; a table numbering them as listed
/// is another game's.
#[test]
fn edges_are_numbered_by_their_pairs() {
    // Spider_{1,1,2}: the centre 0, legs 1, 2 and 3-4.
    let listed = [(3, 4), (0, 3), (2, 0), (0, 1)];
    let mut sorted: Vec<(usize, usize)> =
        listed.iter().map(|&(a, b)| (a.min(b), a.max(b))).collect();
    sorted.sort_unstable();
    let by_pairs = edge_game(&sorted);
    let as_listed = edge_game(&listed);
    let value = by_pairs[0].1;
    let claim = format!("kind: claim\nsource: test\ngame: EK(Spider_{{1,1,2}})\nnim: {value}\n");
    let cert = |entries: &[(u64, u32)]| {
        tables_cert(
            "ek",
            &claim,
            vec![json!({
                "instance": "",
                "game": {"USER": {"name": "EK", "spec_sha256": sha256(EK.as_bytes()),
                                  "graph": {"n": 5, "edges": listed}}},
                "entries": entries,
                "claims": [{"nim": value, "pos": 15, "start": true}],
            })],
        )
    };
    let s = Scratch::new("edges");
    s.spec("ek_game", EK);
    s.spec("ek", &claim);
    s.cert("ek", &cert(&by_pairs));
    s.verified("ek", "1 of 1");
    assert_ne!(by_pairs, as_listed);
    s.cert("ek", &cert(&as_listed));
    s.rejected("ek", "entry");
}

/// A `start:` rule: Node Kayles on P_3 started without vertex 0 ({1, 2}: either move ends
/// the game, value 1); a start rule giving a bit outside `all` rejects.
#[test]
fn a_start_rule_is_the_start() {
    let game = UNK.replace("name: UNK", "name: UNS").replace(
        "position: vertices\n",
        "position: vertices\nstart: minus(all, bit(0))\n",
    );
    let claim = "kind: claim\nsource: test\ngame: UNS(P_3)\nnim: 1\n";
    let cert = |game: &str| {
        tables_cert(
            "uns",
            claim,
            vec![json!({
                "instance": "",
                "game": {"USER": {"name": "UNS", "spec_sha256": sha256(game.as_bytes()), "graph": path(3)}},
                "entries": [[6, 1], [0, 0]],
                "claims": [{"nim": 1, "pos": 6, "start": true}],
            })],
        )
    };
    let s = Scratch::new("start");
    s.spec("uns_game", &game);
    s.spec("uns", claim);
    s.cert("uns", &cert(&game));
    s.verified("uns", "1 of 1");
    let bad = game.replace("start: minus(all, bit(0))", "start: all | bit(3)");
    s.spec("uns_game", &bad);
    s.cert("uns", &cert(&bad));
    s.rejected("uns", "the start rule");
}

/// UNK with its sum law declared, as specs/user/unk_sum.yaml declares it.
fn unk_declaring(options: &str) -> String {
    format!("kind: game\nsource: test\nname: UNKS\nposition: vertices\ncomponents: true\noptions: |\n{options}")
}

const NK_RULE: &str =
    "  let out = [];\n  for v in members(p) { out.push(minus(p, bit(v) | adj(v))); }\n  out\n";

/// UNKS on P_n as grundy lists it when the sum law is declared: the empty set and every
/// run of consecutive vertices i..=j (the components an option splits into), each valued
/// as Node Kayles on a path of j - i + 1 vertices by the brute force; the start first.
fn unks_scratch(name: &str, n: usize, game: &str) -> Scratch {
    let s = Scratch::new(name);
    s.spec("unks", game);
    let claim = format!(
        "kind: claim\nsource: test\ngame: UNKS(P_{n})\nnim: {}\n",
        node_kayles_path(n)[0].1
    );
    s.spec("unks_path", &claim);
    let mut entries = vec![(((1u64 << n) - 1), node_kayles_path(n)[0].1)];
    for i in 0..n {
        for j in i..n {
            let run = ((1u64 << (j + 1)) - 1) & !((1u64 << i) - 1);
            if run != (1u64 << n) - 1 {
                entries.push((run, node_kayles_path(j - i + 1)[0].1));
            }
        }
    }
    entries.push((0, 0));
    let table = json!({
        "instance": "",
        "game": {"USER": {"name": "UNKS", "spec_sha256": sha256(game.as_bytes()), "graph": path(n)}},
        "entries": entries,
        "claims": [{"nim": entries[0].1, "pos": entries[0].0, "start": true}],
    });
    s.cert("unks_path", &tables_cert("unks_path", &claim, vec![table]));
    s
}

#[test]
fn a_declared_sum_law_is_checked_at_every_split_option_and_named_in_the_verdict() {
    // P_8: a table of runs only, accepted because every option split into runs obeys the law,
    // and the verdict says so.
    let s = unks_scratch("unks", 8, &unk_declaring(NK_RULE));
    s.verified("unks_path", "1 of 1");
    let (_, line) = s.line("unks_path");
    assert!(
        line.contains("rests on UNKS's declared sum law, checked at the")
            && line.contains("options split by it"),
        "{line}"
    );
    // The same table for a rule that may also clear a position of more than two vertices:
    // the option {v1} ∪ {v5, v6} of P_6's v3 is cleared whole, no move in one component.
    let clears = NK_RULE.replace("  out\n", "  if count(p) > 2 { out.push(0); }\n  out\n");
    let s = unks_scratch("unks-clears", 8, &unk_declaring(&clears));
    s.rejected(
        "unks_path",
        "declares `components: true`, but at the position",
    );
    // Without the declaration the runs are no components: the table is not closed.
    let s = unks_scratch(
        "unks-undeclared",
        8,
        &unk_declaring(NK_RULE).replace("components: true\n", ""),
    );
    s.rejected("unks_path", "not listed, nor are all of its components");
}

// ---- Misère play (docs/user-games.md, "Misère play") ----

/// Nim on two heaps played misère: the player who takes the last counter loses.
const MNIM: &str = "kind: game
source: Misère Nim (Bouton 1902)
name: MNIM
title: Nim played misère
position: integers
options: |
  let out = [];
  for i in 0..p.len() { for k in 0..p[i] { let q = p; q[i] = k; out.push(q); } }
  out
play: misere
";

/// Bouton (1902): (a, b) is a misère P-position exactly when both heaps are at most 1 and one
/// of them is 1, or some heap is at least 2 and a = b.
fn bouton(a: u32, b: u32) -> &'static str {
    let p = if a <= 1 && b <= 1 {
        (a + b) % 2 == 1
    } else {
        a ^ b == 0
    };
    if p {
        "P"
    } else {
        "N"
    }
}

/// The table of the normal-play transform of misère Nim from (a, b), by brute force: every
/// position (x, y) with x ≤ a, y ≤ b; a terminal position's one option is ⊥ (value 0), so
/// (0, 0) has value 1; each value the mex of its options'. Entries as certificates write
/// them, ⊥ as "⊥".
fn misere_nim_table(a: u32, b: u32) -> Vec<Value> {
    let mut value: HashMap<(u32, u32), u32> = HashMap::new();
    for x in 0..=a {
        for y in 0..=b {
            let mut opts: Vec<u32> = (0..x).map(|k| value[&(k, y)]).collect();
            opts.extend((0..y).map(|k| value[&(x, k)]));
            if opts.is_empty() {
                opts.push(0); // ⊥
            }
            value.insert((x, y), mex(opts));
        }
    }
    let mut entries: Vec<Value> = Vec::new();
    for x in (0..=a).rev() {
        for y in (0..=b).rev() {
            entries.push(json!([[x, y], value[&(x, y)]]));
        }
    }
    entries.push(json!(["⊥", 0]));
    entries
}

/// The misère Nim spec, its Bouton claim over (a, b) ≤ (4, 4) and a certificate whose tables
/// `table(a, b)` gives, the game written with `play`.
fn mnim_scratch(
    name: &str,
    game: &str,
    claim: &str,
    play: Option<&str>,
    table: impl Fn(u32, u32) -> Vec<Value>,
) -> Scratch {
    let s = Scratch::new(name);
    s.spec("mnim", game);
    s.spec("mnim_bouton", claim);
    let mut tables = Vec::new();
    for a in 0..=4u32 {
        for b in 0..=4u32 {
            let mut g =
                json!({"name": "MNIM", "spec_sha256": sha256(game.as_bytes()), "start": [a, b]});
            if let Some(p) = play {
                g["play"] = json!(p);
            }
            tables.push(json!({
                "instance": format!("a={a}, b={b}"),
                "game": {"USER": g},
                "entries": table(a, b),
                "claims": [{"outcome": bouton(a, b), "pos": [a, b], "start": true}],
            }));
        }
    }
    s.cert("mnim_bouton", &tables_cert("mnim_bouton", claim, tables));
    s
}

const BOUTON_CLAIM: &str = "kind: claim\nsource: Bouton 1902\ngame: MNIM(a, b)\nparams:\n  a: 0..=4\n  b: 0..=4\n\
    outcome: 'if a <= 1 && b <= 1 { if (a + b) % 2 == 1 { \"P\" } else { \"N\" } } else { if (a ^ b) == 0 { \"P\" } else { \"N\" } }'\n";

#[test]
fn the_brute_force_is_misere_nim() {
    // (0, 0): no move, the player to move wins; (1, 0): the one move leaves (0, 0), a loss
    // for the mover; (1, 1) wins by moving to (1, 0); (2, 2) is P as in normal play.
    let outcome = |a, b| {
        let t = misere_nim_table(a, b);
        if t[0][1] == 0 {
            "P"
        } else {
            "N"
        }
    };
    for (a, b) in [(0, 0), (1, 0), (1, 1), (2, 2), (3, 1), (4, 4), (2, 0)] {
        assert_eq!(outcome(a, b), bouton(a, b), "({a}, {b})");
    }
    assert_eq!(outcome(0, 0), "N");
    assert_eq!(outcome(1, 0), "P");
}

#[test]
fn misere_nim_is_verified_and_the_verdict_says_it_is_played_misere() {
    let s = mnim_scratch("mnim", MNIM, BOUTON_CLAIM, Some("misere"), misere_nim_table);
    s.verified("mnim_bouton", "25 of 25");
    let (_, line) = s.line("mnim_bouton");
    assert!(line.contains("MNIM played misère"), "{line}");
    let (_, line) = s.line("mnim");
    assert!(line.contains("played misère"), "{line}");
}

/// Normal Nim's table from (a, b): every position's value a XOR b, no ⊥.
fn normal_nim_table(a: u32, b: u32) -> Vec<Value> {
    let mut entries = Vec::new();
    for x in (0..=a).rev() {
        for y in (0..=b).rev() {
            entries.push(json!([[x, y], x ^ y]));
        }
    }
    entries
}

#[test]
fn a_normal_play_table_does_not_pass_for_misere_nor_the_reverse() {
    // The wrong variant: normal play's outcomes (P ⇔ a XOR b = 0) with normal play's table,
    // said to be misère. At (0, 0) the rule gives no move, so the transform's one option is
    // ⊥, which the table does not list.
    let normal_claim = BOUTON_CLAIM.replace(
        "outcome: 'if a <= 1 && b <= 1 { if (a + b) % 2 == 1 { \"P\" } else { \"N\" } } else { if (a ^ b) == 0 { \"P\" } else { \"N\" } }'",
        "outcome: 'if (a ^ b) == 0 { \"P\" } else { \"N\" }'",
    );
    let s = mnim_scratch(
        "mnim-normal-table",
        MNIM,
        &normal_claim,
        Some("misere"),
        normal_nim_table,
    );
    s.edit("mnim_bouton", |c| {
        for t in c["tables"].as_array_mut().unwrap() {
            let [a, b] = [
                &t["game"]["USER"]["start"][0],
                &t["game"]["USER"]["start"][1],
            ]
            .map(|v| v.as_u64().unwrap());
            t["claims"][0]["outcome"] = json!(if a ^ b == 0 { "P" } else { "N" });
        }
    });
    s.rejected("mnim_bouton", "instance a=0, b=0: entry 0: option ⊥ (the misère transform's end) of position [0,0] is not listed");
    // The same normal-play table without `play`: the certificate's game is played normal,
    // the spec's misère.
    let s = mnim_scratch("mnim-no-play", MNIM, &normal_claim, None, normal_nim_table);
    s.rejected("mnim_bouton", "is played normal, but");
    // The misère table with the right outcomes, under a normal-play claim: the claim is
    // re-derived against misère outcomes and fails (at (0, 0), N, where the claim says P).
    let s = mnim_scratch(
        "mnim-normal-claim",
        MNIM,
        &normal_claim,
        Some("misere"),
        misere_nim_table,
    );
    s.rejected("mnim_bouton", "MNIM(0, 0) has the misère outcome N");
    // The reverse: a misère table said to be misère for the normal-play spec.
    let normal_spec = MNIM.replace("play: misere\n", "");
    let s = mnim_scratch(
        "mnim-reverse",
        &normal_spec,
        BOUTON_CLAIM,
        Some("misere"),
        misere_nim_table,
    );
    s.rejected("mnim_bouton", "is played misère, but");
    // ⊥ in a normal game's table, the play left out.
    let s = mnim_scratch(
        "mnim-end",
        &normal_spec,
        BOUTON_CLAIM,
        None,
        misere_nim_table,
    );
    s.rejected("mnim_bouton", "no position of MNIM, which is played normal");
}

#[test]
fn a_nim_value_claim_about_a_misere_game_is_rejected() {
    let claim = "kind: claim\nsource: test\ngame: MNIM(a, b)\nparams:\n  a: 0..=4\n  b: 0..=4\nnim: 'a ^ b'\n";
    let s = mnim_scratch("mnim-nim", MNIM, claim, Some("misere"), misere_nim_table);
    s.edit("mnim_bouton", |c| {
        for t in c["tables"].as_array_mut().unwrap() {
            let v = t["entries"][0][1].clone();
            t["claims"][0] = json!({"nim": v, "pos": t["entries"][0][0].clone(), "start": true});
        }
    });
    s.rejected("mnim_bouton", "only `outcome:` claims are re-derived");
}

/// The repository root and grundy's release binary, or `None` (said) when the root crate is
/// not built (CI builds it before the verifier's tests).
fn built_grundy() -> Option<(PathBuf, PathBuf)> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let grundy = root.join("target/release/grundy");
    if !grundy.exists() {
        eprintln!(
            "skipped: no {} (build the root crate first)",
            grundy.display()
        );
        return None;
    }
    Some((root, grundy))
}

#[test]
fn grundys_misere_certificates_are_verified() {
    // Misère Nim as grundy builds it from specs/user: at the start of all (a, b, c) ≤ 7, at
    // every position reachable from (7, 7, 7), and normal play's rule refuted as the erratum
    // the first corrects.
    let Some((root, grundy)) = built_grundy() else {
        return;
    };
    let s = Scratch::new("built");
    for id in ["misere_nim", "misere_nim_bouton", "misere_nim_reachable"] {
        let text = std::fs::read_to_string(root.join(format!("specs/user/{id}.yaml"))).unwrap();
        s.spec(id, &text);
    }
    s.spec(
        "misere_nim_xor",
        "kind: claim\nsource: Bouton 1902\nstatement: normal play's rule, wrongly for misère Nim\n\
         expect: refuted\ncorrected_by: misere_nim_bouton\ngame: MNIM(a, b, c)\n\
         params:\n  a: 0..=3\n  b: 0..=3\n  c: 0..=3\n\
         outcome: 'if (a ^ b ^ c) == 0 { \"P\" } else { \"N\" }'\n",
    );
    let out = Command::new(&grundy)
        .args(["build", "--specs"])
        .arg(s.0.join("specs"))
        .arg("--output")
        .arg(s.0.join("out"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::remove_dir_all(s.0.join("certificates")).unwrap();
    std::fs::rename(s.0.join("out/certificates"), s.0.join("certificates")).unwrap();
    for (id, n) in [
        ("misere_nim_bouton", "512 of 512"),
        ("misere_nim_reachable", "1 of 1"),
    ] {
        s.verified(id, n);
        let (_, line) = s.line(id);
        assert!(line.contains("MNIM played misère"), "{line}");
    }
    let (_, line) = s.line("misere_nim_xor");
    assert!(
        line.starts_with(
            "refuted (re-derived): the claim fails at a=0, b=0, c=0: MNIM(0, 0, 0) has the misère outcome N by the table, the spec states P"
        ),
        "{line}"
    );
}

/// Misère Node Kayles on P_n by brute force: the player to move wins with no move, or with a
/// move to a loss.
fn misere_node_kayles_path_wins(n: usize) -> bool {
    fn wins(p: u64, n: usize, memo: &mut HashMap<u64, bool>) -> bool {
        if let Some(&w) = memo.get(&p) {
            return w;
        }
        let moves: Vec<u64> = (0..n)
            .filter(|v| p >> v & 1 == 1)
            .map(|v| {
                let closed = (1u64 << v) | (1u64 << (v + 1)) | if v > 0 { 1 << (v - 1) } else { 0 };
                p & !closed & ((1u64 << n) - 1)
            })
            .collect();
        let w = moves.is_empty() || moves.iter().any(|&q| !wins(q, n, memo));
        memo.insert(p, w);
        w
    }
    wins((1u64 << n) - 1, n, &mut HashMap::new())
}

#[test]
fn grundys_misere_node_kayles_on_paths_is_verified() {
    // A graph game played misère, declared symmetric (grundy solves up to symmetry, the
    // verifier checks every listed position by the rule), spelled `misère`.
    let Some((_, grundy)) = built_grundy() else {
        return;
    };
    let outcomes: Vec<String> = (1..=10)
        .map(|n| {
            format!(
                "\"{}\"",
                if misere_node_kayles_path_wins(n) {
                    "N"
                } else {
                    "P"
                }
            )
        })
        .collect();
    // P_1: the one move leaves nothing, and the mover loses.
    assert_eq!(outcomes[0], "\"P\"");
    let s = Scratch::new("unkm");
    s.spec(
        "unkm",
        &UNK.replace("name: UNK", "name: UNKM").replace(
            "position: vertices\n",
            "position: vertices\nplay: misère\nsymmetric: true\n",
        ),
    );
    s.spec(
        "unkm_paths",
        &format!(
            "kind: claim\nsource: test\nstatement: misère Node Kayles on paths\ngame: UNKM(P_n)\n\
             params:\n  n: 1..=10\noutcome: '[{}][n - 1]'\n",
            outcomes.join(", ")
        ),
    );
    let out = Command::new(&grundy)
        .args(["build", "--specs"])
        .arg(s.0.join("specs"))
        .arg("--output")
        .arg(s.0.join("out"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::remove_dir_all(s.0.join("certificates")).unwrap();
    std::fs::rename(s.0.join("out/certificates"), s.0.join("certificates")).unwrap();
    s.verified("unkm_paths", "10 of 10");
    let (_, line) = s.line("unkm_paths");
    assert!(line.contains("UNKM played misère"), "{line}");
}
