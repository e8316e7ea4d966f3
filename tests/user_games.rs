//! Games defined in specs (issue 45, docs/user-games.md): Node Kayles written as a rule gives
//! the built-in NK's values on every connected graph up to 7 vertices, the geodesic interval
//! closure written as a rule gives the built-in hull's TER and DNT values, integer games give
//! their known values, the P3 hull of specs/user agrees with a brute force, every error of a
//! rule is exit 2 naming the spec file and the position, and a wrong claim is refuted.

use grundy::expr::{parse_game, ParseOptions};
use grundy::graph::enumerate::connected_graphs;
use grundy::graph::Closure;
use grundy::solve::Solver;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn register(path: &Path) {
    grundy::kinds::load_file(path).unwrap_or_else(|e| panic!("{}: {e:?}", path.display()));
}

fn nim(expr: &str, closure: Closure) -> u32 {
    let g = parse_game(expr, ParseOptions { closure }).unwrap_or_else(|e| panic!("{expr}: {e}"));
    Solver::new(&g).nim_of_start()
}

/// Every connected graph with 1 to 7 vertices (1 + 1 + 2 + 6 + 21 + 112 + 853), as graph6.
fn graphs() -> Vec<String> {
    (1..=7).flat_map(|n| connected_graphs(n).unwrap()).collect()
}

/// A spec file in a fresh folder.
fn spec(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// What a run printed, standard output then standard error.
fn both(out: &std::process::Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn grundy(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("the grundy binary runs")
}

#[test]
fn user_node_kayles_equals_the_builtin_on_all_connected_graphs_up_to_7_vertices() {
    register(&root().join("specs/user/unk.yaml"));
    let all = graphs();
    assert_eq!(all.len(), 996);
    for g6 in &all {
        let user = nim(&format!("UNK(graph6:{g6})"), Closure::default());
        let builtin = nim(&format!("NK(graph6:{g6})"), Closure::default());
        assert_eq!(user, builtin, "graph6:{g6}");
    }
}

#[test]
fn the_geodesic_interval_rule_gives_the_hulls_ter_and_dnt_values() {
    let dir = tempfile::tempdir().unwrap();
    let p = spec(
        dir.path(),
        "geo.yaml",
        "kind: game\nsource: test\nclosure: geo_by_rule\ntitle: geodesic hull by its rule\n\
         interval: |\n  let s = 0;\n  for w in 0..n { if dist(u, w) >= 0 && dist(w, v) >= 0 && dist(u, w) + dist(w, v) == dist(u, v) { s = s | bit(w); } }\n  s\n\
         iterated: true\n",
    );
    register(&p);
    let geo = Closure::named("geo_by_rule").expect("registered");
    for g6 in graphs() {
        for rule in ["TER", "DNT"] {
            let e = format!("{rule}(graph6:{g6})");
            // DNT on a one-vertex graph has a terminating start: no game under either closure.
            let Ok(hull) = parse_game(&e, ParseOptions::default()) else {
                assert!(
                    parse_game(&e, ParseOptions { closure: geo }).is_err(),
                    "{e}"
                );
                continue;
            };
            let want = Solver::new(&hull).nim_of_start();
            assert_eq!(nim(&e, geo), want, "{e} under the rule");
        }
    }
}

#[test]
fn integer_games_have_their_known_values() {
    let dir = tempfile::tempdir().unwrap();
    register(&spec(
        dir.path(),
        "sub123.yaml",
        "kind: game\nsource: test\nname: SUB123\nposition: integers\noptions: |\n  let out = [];\n  for k in [1, 2, 3] { if p[0] >= k { out.push([p[0] - k]); } }\n  out\n",
    ));
    for n in 0..=60u32 {
        assert_eq!(
            nim(&format!("SUB123({n})"), Closure::default()),
            n % 4,
            "SUB123({n})"
        );
    }
    // Kayles as octal 0.77 on a tuple of heaps: take 1 or 2 adjacent pins, the rest in up to
    // two heaps; heaps kept sorted, empty heaps dropped.
    register(&spec(
        dir.path(),
        "kayles.yaml",
        "kind: game\nsource: test\nname: KAYLES\nposition: integers\noptions: |\n  let out = [];\n  for i in 0..p.len() {\n    for t in [1, 2] {\n      if p[i] >= t {\n        for a in 0..(p[i] - t + 1) {\n          let b = p[i] - t - a;\n          if a <= b {\n            let q = [];\n            for j in 0..p.len() { if j != i { q.push(p[j]); } }\n            if a > 0 { q.push(a); }\n            if b > 0 { q.push(b); }\n            q.sort();\n            out.push(q);\n          }\n        }\n      }\n    }\n  }\n  out\n",
    ));
    for n in 0..=24u32 {
        let user = nim(&format!("KAYLES({n})"), Closure::default());
        let octal = nim(&format!("0.77({n})"), Closure::default());
        assert_eq!(user, octal, "Kayles on {n} pins");
    }
    // A tuple: the sum of its heaps.
    let v = nim("KAYLES(3, 5, 7)", Closure::default());
    let x = nim("0.77(3) + 0.77(5) + 0.77(7)", Closure::default());
    assert_eq!(v, x);
}

/// nim of TER under the P3 hull by brute force over vertex sets: the hull adds a vertex with
/// two neighbours inside until nothing changes; TER stops once the unselected vertices no
/// longer generate the graph.
fn p3_ter_brute(adj: &[u64]) -> u32 {
    let full = (1u64 << adj.len()) - 1;
    let hull = |mut s: u64| loop {
        let mut t = s;
        for (w, a) in adj.iter().enumerate() {
            if (a & s).count_ones() >= 2 {
                t |= 1 << w;
            }
        }
        if t == s {
            return s;
        }
        s = t;
    };
    let mut memo = std::collections::HashMap::new();
    fn go(
        p: u64,
        full: u64,
        hull: &dyn Fn(u64) -> u64,
        memo: &mut std::collections::HashMap<u64, u32>,
    ) -> u32 {
        if let Some(&v) = memo.get(&p) {
            return v;
        }
        let mut seen = vec![];
        if hull(full & !p) == full {
            for v in 0..64 {
                if full & !p & (1 << v) != 0 {
                    seen.push(go(p | 1 << v, full, hull, memo));
                }
            }
        }
        let v = (0..).find(|x| !seen.contains(x)).unwrap();
        memo.insert(p, v);
        v
    }
    go(0, full, &hull, &mut memo)
}

#[test]
fn the_p3_closure_agrees_with_a_brute_force_and_its_claim() {
    register(&root().join("specs/user/p3.yaml"));
    let p3 = Closure::named("p3").unwrap();
    for n in 2..=10usize {
        let path: Vec<u64> = (0..n)
            .map(|v| {
                (if v > 0 { 1 << (v - 1) } else { 0 }) | (if v + 1 < n { 1 << (v + 1) } else { 0 })
            })
            .collect();
        assert_eq!(
            nim(&format!("TER(P_{n})"), p3),
            p3_ter_brute(&path),
            "P_{n}"
        );
        if n >= 3 {
            let cycle: Vec<u64> = (0..n)
                .map(|v| 1 << ((v + 1) % n) | 1 << ((v + n - 1) % n))
                .collect();
            assert_eq!(
                nim(&format!("TER(C_{n})"), p3),
                p3_ter_brute(&cycle),
                "C_{n}"
            );
        }
    }
    // The values specs/user/p3_ter_paths.yaml states.
    let stated = [1, 2, 2, 3, 1, 4, 2, 2];
    for (i, want) in stated.iter().enumerate() {
        assert_eq!(nim(&format!("TER(P_{})", i + 2), p3), *want);
    }
}

#[test]
fn the_user_specs_hold_and_a_wrong_claim_is_refuted() {
    let out = grundy(&["check", "specs/user"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        root().join("specs/user/unk.yaml"),
        dir.path().join("unk.yaml"),
    )
    .unwrap();
    let wrong = std::fs::read_to_string(root().join("specs/user/unk_paths.yaml"))
        .unwrap()
        .replace("3, 3, 2, 2]", "3, 3, 2, 1]");
    let w = spec(dir.path(), "unk_wrong.yaml", &wrong);
    let out = grundy(&["check", w.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("n=12: UNK(P_12): claimed *1, computed *2"),
        "{text}"
    );
}

#[test]
fn the_certificate_names_the_game_and_its_spec_hash() {
    let dir = tempfile::tempdir().unwrap();
    let out = grundy(&[
        "build",
        "--specs",
        "specs/user",
        "--output",
        dir.path().to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let sha = grundy::spec::sha256_hex(&std::fs::read(root().join("specs/user/unk.yaml")).unwrap());
    let cert = std::fs::read_to_string(dir.path().join("certificates/unk_paths.json")).unwrap();
    assert!(
        cert.contains(&format!("\"spec_sha256\":\"{sha}\"")),
        "{cert}"
    );
    assert!(
        cert.contains("{\"USER\":{\"graph\":{\"edges\":[[0,1],[1,2]],\"n\":3},\"name\":\"UNK\"")
    );
    let p3 = grundy::spec::sha256_hex(&std::fs::read(root().join("specs/user/p3.yaml")).unwrap());
    // DNG, and TER read as a closure game, are certified by their maximal sets under the
    // closure named with its spec's hash.
    for id in ["p3_dng_cycles", "p3_ter_paths"] {
        let cert =
            std::fs::read_to_string(dir.path().join(format!("certificates/{id}.json"))).unwrap();
        assert!(
            cert.contains(&format!("\"closure\":\"p3\",\"closure_sha256\":\"{p3}\""))
                && cert.contains("\"kind\":\"closure-values\""),
            "{id}: {cert}"
        );
    }
}

/// Runs `grundy solve --games SPEC EXPR` on a game spec with the given `options:` rule and
/// returns stderr, asserting exit 2.
fn bad_game(name: &str, position: &str, options: &str, expr: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let p = spec(
        dir.path(),
        &format!("{name}.yaml"),
        &format!("kind: game\nsource: test\nname: {name}\nposition: {position}\noptions: |\n  {options}\n"),
    );
    let out = grundy(&["solve", "--games", p.to_str().unwrap(), expr]);
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(2), "{expr}: {err}");
    assert!(
        err.contains(&format!("{name}.yaml")),
        "{expr} names its spec: {err}"
    );
    assert!(!err.contains("panicked"), "{err}");
    err.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace("│ ", "")
}

#[test]
fn every_error_of_a_rule_is_exit_2_naming_the_file_and_the_position() {
    let e = bad_game("LOOPS", "vertices", "loop { }", "LOOPS(P_3)");
    assert!(
        e.contains("at position {v1, v2, v3}") && e.contains("100000 operations"),
        "{e}"
    );
    let e = bad_game(
        "GROWS",
        "vertices",
        "let a = []; loop { a.push(1); }",
        "GROWS(P_3)",
    );
    assert!(e.contains("longer than 10000"), "{e}");
    let e = bad_game("STRINGS", "vertices", "[\"x\"]", "STRINGS(P_3)");
    assert!(e.contains("malformed") && e.contains("not string"), "{e}");
    let e = bad_game(
        "OUTSIDE",
        "vertices",
        "if p == all { [bit(5)] } else { [] }",
        "OUTSIDE(P_3)",
    );
    assert!(e.contains("bit outside `all`"), "{e}");
    let e = bad_game(
        "NEGATIVE",
        "integers",
        "if p[0] > 0 { [[p[0] - 5]] } else { [] }",
        "NEGATIVE(3)",
    );
    assert!(e.contains("at position (3)") && e.contains("not -2"), "{e}");
    let e = bad_game("ITSELF", "vertices", "[p]", "ITSELF(P_2)");
    assert!(e.contains("the position itself"), "{e}");
    let e = bad_game(
        "CYCLES",
        "integers",
        "if p[0] == 0 { [[1]] } else { [[p[0] - 1]] }",
        "CYCLES(2)",
    );
    assert!(e.contains("a cycle"), "{e}");
    let e = bad_game("NOTLIST", "vertices", "5", "NOTLIST(P_2)");
    assert!(e.contains("not an array of positions"), "{e}");
    // A rule that does not compile is refused where the spec is read.
    let dir = tempfile::tempdir().unwrap();
    let p = spec(
        dir.path(),
        "broken.yaml",
        "kind: game\nsource: test\nname: BROKEN\noptions: 'let = ;'\n",
    );
    let out = grundy(&["check", p.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{text}");
    assert!(text.contains("does not compile"), "{text}");
}

#[test]
fn an_integer_games_certificate_names_its_start() {
    let dir = tempfile::tempdir().unwrap();
    let specs = dir.path().join("specs");
    std::fs::create_dir(&specs).unwrap();
    let game = "kind: game\nsource: test\nname: SUBT\nposition: integers\noptions: |\n  let out = [];\n  for k in [1, 2, 3] { if p[0] >= k { out.push([p[0] - k]); } }\n  out\n";
    spec(&specs, "subt.yaml", game);
    spec(
        &specs,
        "subt_values.yaml",
        "kind: claim\nsource: test\nstatement: n mod 4\ngame: SUBT(n)\nparams:\n  n: 0..=9\nnim: n % 4\n",
    );
    let out_dir = dir.path().join("out");
    let out = grundy(&[
        "build",
        "--specs",
        specs.to_str().unwrap(),
        "--output",
        out_dir.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let cert = std::fs::read_to_string(out_dir.join("certificates/subt_values.json")).unwrap();
    let sha = grundy::spec::sha256_hex(game.as_bytes());
    assert!(
        cert.contains(&format!(
            "{{\"USER\":{{\"name\":\"SUBT\",\"spec_sha256\":\"{sha}\",\"start\":[7]}}}}"
        )),
        "{cert}"
    );
    // Positions are arrays: 7 has the options 6, 5, 4.
    assert!(
        cert.contains("[[7],3]") || cert.contains("[[7], 3]"),
        "{cert}"
    );
}

#[test]
fn a_bad_closure_rule_and_a_name_defined_twice_are_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    spec(
        dir.path(),
        "half.yaml",
        "kind: game\nsource: test\nclosure: half\ninterval: bit(u)\niterated: true\n",
    );
    let claim = spec(
        dir.path(),
        "claim.yaml",
        "kind: claim\nsource: test\ngame: TER(P_n)\nclosure: half\nparams:\n  n: 3..=4\nnim: '0'\n",
    );
    let out = grundy(&["check", claim.to_str().unwrap()]);
    let text = both(&out);
    assert_eq!(out.status.code(), Some(2), "{text}");
    assert!(
        text.contains("half.yaml") && text.contains("misses u or v"),
        "{text}"
    );

    // The same rule under a sets spec and a figure's family rows, which build the closure's
    // intervals outside the games: exit 2 naming the rule's file, never a panic.
    let sets = spec(
        dir.path(),
        "sets.yaml",
        "kind: sets\nsource: test\nstatement: s\ngraph: P_4\nclosure: half\nfamily: \"G\"\nrule: \"true\"\n",
    );
    let out = grundy(&["check", sets.to_str().unwrap()]);
    let text = both(&out);
    assert_eq!(out.status.code(), Some(2), "{text}");
    assert!(
        text.contains("half.yaml") && text.contains("misses u or v") && !text.contains("panicked"),
        "{text}"
    );

    let dir = tempfile::tempdir().unwrap();
    let a = "kind: game\nsource: a\nname: TWICE\noptions: '[]'\n";
    let b = "kind: game\nsource: b\nname: TWICE\noptions: |\n  []\n";
    spec(dir.path(), "a.yaml", a);
    spec(dir.path(), "b.yaml", b);
    let out = grundy(&["check", dir.path().to_str().unwrap()]);
    let text = both(&out);
    assert_eq!(out.status.code(), Some(2), "{text}");
    assert!(text.contains("defined twice"), "{text}");
}

/// Arc Kayles written as a rule on edge sets: taking an edge removes it and every edge sharing
/// an end with it; `laws` declares what the rule obeys.
fn arc_kayles(dir: &Path, name: &str, laws: &str) -> PathBuf {
    spec(
        dir,
        &format!("{name}.yaml"),
        &format!(
            "kind: game\nsource: test\nname: {name}\nposition: edges\n{laws}options: |\n  let out = [];\n  for e in members(p) {{ let uv = ends(e); out.push(minus(p, incident(uv[0]) | incident(uv[1]))); }}\n  out\n"
        ),
    )
}

#[test]
fn declared_laws_give_node_kayles_values_on_all_connected_graphs_up_to_7_vertices() {
    register(&root().join("specs/user/unk_sum.yaml"));
    for g6 in &graphs() {
        let declared = parse_game(&format!("UNKS(graph6:{g6})"), ParseOptions::default()).unwrap();
        let mut s = Solver::new(&declared);
        let builtin = nim(&format!("NK(graph6:{g6})"), Closure::default());
        assert_eq!(s.nim_of_start(), builtin, "graph6:{g6}");
    }
    // Components up to symmetry, as NK memoises them: C_20's 18 arcs, not its 7,451 positions.
    let c20 = parse_game("UNKS(C_20)", ParseOptions::default()).unwrap();
    let mut s = Solver::new(&c20);
    assert_eq!(s.nim_of_start(), 0);
    assert_eq!(s.stats().positions, 18);
}

#[test]
fn arc_kayles_by_components_and_symmetry_equals_its_whole_exploration() {
    let dir = tempfile::tempdir().unwrap();
    register(&arc_kayles(dir.path(), "AKW", ""));
    register(&arc_kayles(
        dir.path(),
        "AKL",
        "components: true\nsymmetric: true\n",
    ));
    let six: Vec<String> = (1..=6).flat_map(|n| connected_graphs(n).unwrap()).collect();
    assert_eq!(six.len(), 143);
    for g6 in &six {
        let whole = nim(&format!("AKW(graph6:{g6})"), Closure::default());
        let laws = nim(&format!("AKL(graph6:{g6})"), Closure::default());
        assert_eq!(whole, laws, "graph6:{g6}");
    }
    // Arc Kayles on P_n is Node Kayles on P_{n-1} (its line graph): 0.07 shifted.
    for n in 2..=14 {
        assert_eq!(
            nim(&format!("AKL(P_{n})"), Closure::default()),
            nim(&format!("NK(P_{})", n - 1), Closure::default()),
            "P_{n}"
        );
    }
}

#[test]
fn a_declared_law_the_rule_breaks_is_exit_2_with_the_position() {
    let dir = tempfile::tempdir().unwrap();
    // Node Kayles, but a position may also be cleared whole: no move in one component.
    let clear = "  let out = [];\n  for v in members(p) { out.push(minus(p, bit(v) | adj(v))); }\n  if count(p) > 2 { out.push(0); }\n  out\n";
    // Node Kayles from the least vertex only: not invariant under C_7's rotations.
    let least = "  if p == 0 { [] } else { let v = members(p)[0]; [minus(p, bit(v) | adj(v))] }\n";
    for (name, options, laws, expr, said) in [
        (
            "CLEAR",
            clear,
            "components: true\n",
            "CLEAR(P_9)",
            "`components: true` is declared, but at the position",
        ),
        (
            "LEAST",
            least,
            "symmetric: true\n",
            "LEAST(C_7)",
            "`symmetric: true` is declared, but the automorphism",
        ),
    ] {
        let text = format!("kind: game\nsource: test\nname: {name}\nposition: vertices\n{laws}options: |\n{options}");
        let p = spec(dir.path(), &format!("{name}.yaml"), &text);
        let out = grundy(&["solve", "--games", p.to_str().unwrap(), expr]);
        let err = both(&out)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .replace("│ ", "");
        assert_eq!(out.status.code(), Some(2), "{expr}: {err}");
        assert!(
            err.contains(said) && err.contains(&format!("{name}.yaml")),
            "{err}"
        );
        assert!(!err.contains("panicked"), "{err}");
        // Without the declaration the same rule is a game like any other.
        let p = spec(dir.path(), &format!("{name}.yaml"), &text.replace(laws, ""));
        let out = grundy(&["solve", "--games", p.to_str().unwrap(), expr]);
        assert_eq!(out.status.code(), Some(0), "{}", both(&out));
    }
    // A rule whose options lead back, with laws declared: the checks' plays stop, and the
    // exploration reports the cycle.
    let p = spec(
        dir.path(),
        "BACK.yaml",
        "kind: game\nsource: test\nname: BACK\nposition: vertices\ncomponents: true\noptions: |\n  if p == all { [minus(all, bit(0))] } else { [all] }\n",
    );
    let out = grundy(&["solve", "--games", p.to_str().unwrap(), "BACK(P_2)"]);
    assert_eq!(out.status.code(), Some(2), "{}", both(&out));
    assert!(both(&out).contains("a cycle"), "{}", both(&out));
    // Laws are for graph positions.
    let p = spec(
        dir.path(),
        "INTS.yaml",
        "kind: game\nsource: test\nname: INTS\nposition: integers\ncomponents: true\noptions: '[]'\n",
    );
    let out = grundy(&["check", p.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", both(&out));
    assert!(
        both(&out).contains("laws of games on graphs"),
        "{}",
        both(&out)
    );
}

// ---- Misère play (docs/user-games.md, "Misère play") ----

/// The misère outcome ("P" or "N") of a game's start: the normal-play outcome of its
/// transform, as an outcome claim reads it.
fn misere_outcome(expr: &str) -> &'static str {
    let g = grundy::expr::parse_game_for_outcomes(expr, ParseOptions::default())
        .unwrap_or_else(|e| panic!("{expr}: {e}"));
    assert!(g.misere().is_some(), "{expr} is played misère");
    if Solver::new(&g).nim_of_start() == 0 {
        "P"
    } else {
        "N"
    }
}

/// Bouton (1902): a misère Nim position is P exactly when every heap is at most 1 and an odd
/// number of heaps are 1, or some heap is at least 2 and the heaps' XOR is 0.
fn bouton_misere(heaps: &[i64]) -> &'static str {
    let xor = heaps.iter().fold(0, |a, h| a ^ h);
    let p = if heaps.iter().all(|&h| h <= 1) {
        heaps.iter().filter(|&&h| h == 1).count() % 2 == 1
    } else {
        xor == 0
    };
    if p {
        "P"
    } else {
        "N"
    }
}

/// Every tuple of 1 to 3 heaps, each at most 7 (8 + 64 + 512).
fn heap_tuples() -> Vec<Vec<i64>> {
    let mut out: Vec<Vec<i64>> = vec![vec![]];
    let mut all = Vec::new();
    for _ in 0..3 {
        out = out
            .iter()
            .flat_map(|t| {
                (0..=7).map(move |h| {
                    let mut t = t.clone();
                    t.push(h);
                    t
                })
            })
            .collect();
        all.extend(out.iter().cloned());
    }
    all
}

#[test]
fn misere_nim_has_boutons_p_positions_and_not_normal_plays() {
    register(&root().join("specs/user/misere_nim.yaml"));
    let tuples = heap_tuples();
    assert_eq!(tuples.len(), 8 + 64 + 512);
    let mut normal_rule_fails = None;
    for t in &tuples {
        let args: Vec<String> = t.iter().map(|h| h.to_string()).collect();
        let expr = format!("MNIM({})", args.join(", "));
        let got = misere_outcome(&expr);
        assert_eq!(got, bouton_misere(t), "{expr}");
        // The wrong variant: normal play's rule, P exactly when the XOR is 0.
        let normal = if t.iter().fold(0, |a, h| a ^ h) == 0 {
            "P"
        } else {
            "N"
        };
        if normal != got && normal_rule_fails.is_none() {
            normal_rule_fails = Some(expr.clone());
        }
    }
    // It fails first at one heap of size 0: no move, so the player to move wins.
    assert_eq!(normal_rule_fails.as_deref(), Some("MNIM(0)"));
    // Misère and normal play differ only where every heap is at most 1 (Bouton).
    for t in &tuples {
        let normal = t.iter().fold(0, |a, h| a ^ h) == 0;
        if t.iter().any(|&h| h >= 2) {
            assert_eq!(bouton_misere(t) == "P", normal, "{t:?}");
        }
    }
}

#[test]
fn the_normal_play_rule_is_refuted_for_misere_nim_with_a_counterexample() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        root().join("specs/user/misere_nim.yaml"),
        dir.path().join("misere_nim.yaml"),
    )
    .unwrap();
    let w = spec(
        dir.path(),
        "wrong.yaml",
        "kind: claim\nsource: test\nstatement: the normal-play rule, wrongly for misère Nim\n\
         game: MNIM(a, b, c)\nparams:\n  a: 0..=7\n  b: 0..=7\n  c: 0..=7\n\
         outcome: 'if (a ^ b ^ c) == 0 { \"P\" } else { \"N\" }'\n",
    );
    let out = grundy(&["check", w.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", both(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("a=0, b=0, c=0: MNIM(0, 0, 0): claimed P, computed N (misère play)")
            && text.contains("no move: the player to move wins under misère play"),
        "{text}"
    );
    // Neither ⊥ nor a nim-value of the transform is shown as the game's.
    assert!(!text.contains('⊥') && !text.contains("nim *"), "{text}");
    // The spec's own claims, at the start and at every reachable position, hold.
    let out = grundy(&[
        "check",
        "specs/user/misere_nim_bouton.yaml",
        "specs/user/misere_nim_reachable.yaml",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", both(&out));
    // 8^3 positions reachable from (7, 7, 7): ⊥ is not among them.
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("1 instance, 512 positions"),
        "{}",
        both(&out)
    );
}

/// Misère Node Kayles by brute force: a position with no option is a win for the player to
/// move; otherwise it is a win exactly when some option is a loss.
fn misere_node_kayles_wins(p: u64, adj: &[u64], memo: &mut HashMap<u64, bool>) -> bool {
    if let Some(&w) = memo.get(&p) {
        return w;
    }
    let mut any_option = false;
    let mut win = false;
    for (v, a) in adj.iter().enumerate() {
        if p >> v & 1 == 1 {
            any_option = true;
            if !misere_node_kayles_wins(p & !(1 << v) & !a, adj, memo) {
                win = true;
                break;
            }
        }
    }
    let w = win || !any_option;
    memo.insert(p, w);
    w
}

use std::collections::HashMap;

const UNK_MISERE: &str = "kind: game\nsource: Node Kayles played misère\nname: UNKM\n\
    position: vertices\nplay: misère\nsymmetric: true\noptions: |\n  let out = [];\n  \
    for v in members(p) { out.push(minus(p, bit(v) | adj(v))); }\n  out\n";

#[test]
fn misere_node_kayles_equals_a_brute_force_on_all_connected_graphs_up_to_6_vertices() {
    let dir = tempfile::tempdir().unwrap();
    register(&spec(dir.path(), "unkm.yaml", UNK_MISERE));
    let all: Vec<String> = (1..=6).flat_map(|n| connected_graphs(n).unwrap()).collect();
    assert_eq!(all.len(), 1 + 1 + 2 + 6 + 21 + 112);
    let (mut p_count, mut differs_from_normal) = (0, 0);
    for g6 in &all {
        let g = grundy::graph::parse_graph(&format!("graph6:{g6}")).unwrap();
        let adj: Vec<u64> = (0..g.n()).map(|v| g.adj(v)).collect();
        let full = (1u64 << g.n()) - 1;
        let wins = misere_node_kayles_wins(full, &adj, &mut HashMap::new());
        let want = if wins { "N" } else { "P" };
        let got = misere_outcome(&format!("UNKM(graph6:{g6})"));
        assert_eq!(got, want, "graph6:{g6}");
        p_count += usize::from(got == "P");
        let normal = nim(&format!("NK(graph6:{g6})"), Closure::default()) == 0;
        differs_from_normal += usize::from(normal != (got == "P"));
    }
    // Misère is not normal play renamed: the outcomes differ on some graphs (K_1 first:
    // normal N, misère P, the one move leaving nothing).
    assert!(differs_from_normal > 0 && p_count > 0);
    assert_eq!(misere_outcome("UNKM(K_1)"), "P");
    assert_eq!(misere_outcome("UNKM(P_2)"), "P");
    assert_eq!(misere_outcome("UNKM(P_3)"), "N");
}

/// Runs `grundy check` on `claim` beside a game spec `game` in a fresh folder; asserts exit 2
/// and returns the output with the diagnostic's frame flattened.
fn bad_misere(game: &str, claim: Option<&str>) -> String {
    let dir = tempfile::tempdir().unwrap();
    let g = spec(dir.path(), "g.yaml", game);
    let target = match claim {
        Some(c) => spec(dir.path(), "c.yaml", c),
        None => g,
    };
    let out = grundy(&["check", target.to_str().unwrap()]);
    let text = both(&out);
    assert_eq!(out.status.code(), Some(2), "{text}");
    assert!(!text.contains("panicked"), "{text}");
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace("│ ", "")
}

#[test]
fn misere_play_is_refused_where_it_has_no_meaning_exit_2_naming_the_file_and_line() {
    let mnim = std::fs::read_to_string(root().join("specs/user/misere_nim.yaml")).unwrap();
    // A nim-value claim: nim-values do not add under misère play.
    let e = bad_misere(
        &mnim,
        Some("kind: claim\nsource: t\ngame: MNIM(a)\nparams:\n  a: 0..=3\nnim: a\n"),
    );
    assert!(
        e.contains("c.yaml:6")
            && e.contains("MNIM is played misère")
            && e.contains("not `nim:`, since nim-values do not add under misère play"),
        "{e}"
    );
    // A `holds:` predicate of it: no value to compare, and none meant.
    let e = bad_misere(
        &mnim,
        Some("kind: claim\nsource: t\ngame: MNIM(a)\nparams:\n  a: 0..=3\nholds: heaps == 1\n"),
    );
    assert!(e.contains("c.yaml:6") && e.contains("not `holds:`"), "{e}");
    // A sum of a misère game.
    let e = bad_misere(
        &mnim,
        Some("kind: claim\nsource: t\ngame: MNIM(1) + MNIM(2)\noutcome: N\n"),
    );
    assert!(
        e.contains("c.yaml:3") && e.contains("cannot be a part of a sum"),
        "{e}"
    );
    // A table of its nim-values.
    let e = bad_misere(
        &mnim,
        Some("kind: table\nsource: t\ntitle: t\nrows:\n  n: 1..=3\ngames:\n  \"a\": \"MNIM(n)\"\n"),
    );
    assert!(e.contains("MNIM is played misère"), "{e}");
    // The sum law with misère play.
    let e = bad_misere(
        &UNK_MISERE.replace("symmetric: true", "components: true"),
        None,
    );
    assert!(
        e.contains("g.yaml:6") && e.contains("`components: true` does not hold under misère play"),
        "{e}"
    );
    // `play:` on a closure, and an unknown play.
    let e = bad_misere(
        "kind: game\nsource: t\nclosure: p3m\ninterval: bit(u) | bit(v)\niterated: true\nplay: misere\n",
        None,
    );
    assert!(
        e.contains("g.yaml:6") && e.contains("a closure (`closure:`) has no `play:`"),
        "{e}"
    );
    let e = bad_misere(&mnim.replace("play: misere", "play: loser"), None);
    assert!(e.contains("unknown play `loser`"), "{e}");
    // `grundy solve` prints nim-values: refused.
    let out = grundy(&[
        "solve",
        "--games",
        root().join("specs/user/misere_nim.yaml").to_str().unwrap(),
        "MNIM(1, 2)",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", both(&out));
    assert!(both(&out).contains("played misère"), "{}", both(&out));
}

#[test]
fn a_misere_certificate_records_its_play() {
    let dir = tempfile::tempdir().unwrap();
    let out = grundy(&[
        "build",
        "--specs",
        "specs/user",
        "--output",
        dir.path().to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", both(&out));
    let cert: serde_json::Value = serde_json::from_slice(
        &std::fs::read(dir.path().join("certificates/misere_nim_bouton.json")).unwrap(),
    )
    .unwrap();
    let t = &cert["tables"][1];
    assert_eq!(t["instance"], "a=0, b=0, c=1");
    assert_eq!(t["game"]["USER"]["play"], "misere");
    // (0, 0, 1) → (0, 0, 0) → ⊥: the table of the transform, ⊥ written as itself.
    assert_eq!(
        t["entries"],
        serde_json::json!([[[0, 0, 1], 0], [[0, 0, 0], 1], ["⊥", 0]])
    );
    assert_eq!(t["claims"][0]["outcome"], "P");
}

#[test]
fn a_premise_in_another_folder_brings_the_games_defined_beside_it() {
    // specs/a/nk.yaml rests on specs/games/unk_paths.yaml, a claim about UNK, which only
    // specs/games/unk.yaml defines: checking specs/a alone must register it.
    let dir = tempfile::tempdir().unwrap();
    let specs = dir.path().join("specs");
    for sub in ["a", "games"] {
        std::fs::create_dir_all(specs.join(sub)).unwrap();
    }
    for f in ["unk.yaml", "unk_paths.yaml"] {
        std::fs::copy(
            root().join("specs/user").join(f),
            specs.join("games").join(f),
        )
        .unwrap();
    }
    let nk = spec(
        &specs.join("a"),
        "nk.yaml",
        "kind: claim\nsource: test\nstatement: Node Kayles on P_4 is a P-position.\n\
         uses: [unk_paths]\ngame: NK(P_4)\nnim: 0\n",
    );
    let out = grundy(&["check", nk.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", both(&out));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("resting on unk_paths"),
        "{}",
        both(&out)
    );
    // Without the game spec beside the premise, UNK is unknown there: bad input naming it.
    std::fs::remove_file(specs.join("games/unk.yaml")).unwrap();
    let out = grundy(&["check", nk.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", both(&out));
    assert!(
        both(&out).contains("unknown game `UNK`") && both(&out).contains("unk_paths.yaml:"),
        "{}",
        both(&out)
    );
}

#[test]
fn a_verdict_resting_on_declared_laws_says_so() {
    let out = grundy(&[
        "check",
        "specs/user/unks_paths.yaml",
        "specs/user/unk_paths.yaml",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", both(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    let line = |id: &str| {
        text.lines()
            .find(|l| l.contains(&format!(" {id} ")))
            .unwrap_or_else(|| panic!("no line for {id}: {text}"))
            .to_string()
    };
    assert!(
        line("unks_paths").contains(
            "holds; rests on UNKS's declared laws (components: true, symmetric: true), checked at the positions of 12 random plays from each start, not proved"
        ),
        "{text}"
    );
    // UNK declares nothing: its verdict rests on its rule alone.
    assert!(!line("unk_paths").contains("rests on"), "{text}");
}
