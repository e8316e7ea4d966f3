//! The packed TER(C_n) sweep and the nim-value spectrum, checked against the general
//! solver (`RemovingGame` + `Solver`) on small sizes, and the geng pipeline against OEIS A001349.

use grundy::game::removing::{RemovingGame, Rule};
use grundy::graph::{families, Closure, Convexity, Graph};
use grundy::solve::cycle::{has_run, CycleSweep, Outcome};
use grundy::solve::spectrum::dense_values;
use grundy::solve::Solver;
use std::process::Command;

fn generic(rule: Rule, g: &Graph) -> u32 {
    let game = RemovingGame::new(rule, g.clone(), Closure::HULL, 0).unwrap();
    Solver::new(&game).nim_of_start()
}

/// For odd n, P is terminating iff it contains (n-1)/2 cyclically consecutive vertices.
#[test]
fn cycle_terminating_iff_half_run() {
    for n in (3..=15u32).step_by(2) {
        let conv = Convexity::new(&families::cycle(n as u64).unwrap(), Closure::HULL);
        for p in 0..1u64 << n {
            assert_eq!(conv.terminating(p), has_run(n, p), "C_{n}, P = {p:b}");
        }
    }
}

/// A wrong variant: runs of (n+1)/2 (one more) miss terminating sets, e.g. {v1, v2} in C_5.
#[test]
fn cycle_wrong_run_length_is_rejected() {
    let conv = Convexity::new(&families::cycle(5).unwrap(), Closure::HULL);
    assert!(conv.terminating(0b00011));
    let has_run_of =
        |len: u32, p: u64| (0..5).any(|s| (0..len).all(|i| p >> ((s + i) % 5) & 1 == 1));
    assert!(!has_run_of(3, 0b00011));
    assert!((0..32).any(|p| conv.terminating(p) != has_run_of(3, p)));
    assert!((0..32).all(|p| conv.terminating(p) == has_run_of(2, p)));
}

/// Every position's outcome from the sweep equals nim = 0 from the general solver.
#[test]
fn cycle_outcome_of_every_position_matches_solver() {
    for n in (3..=13u32).step_by(2) {
        let mut sweep = CycleSweep::new(n).unwrap();
        let r = sweep.finish();
        let game = RemovingGame::new(
            Rule::Ter,
            families::cycle(n as u64).unwrap(),
            Closure::HULL,
            0,
        )
        .unwrap();
        let mut solver = Solver::new(&game);
        let mut nonterminal = 0u64;
        for p in 0..1u64 << n {
            nonterminal += !game.terminating(p) as u64;
            let zero = solver.nim(&p) == 0;
            assert_eq!(
                sweep.outcome(p) == Some(Outcome::P),
                zero,
                "C_{n}, P = {p:b}"
            );
        }
        assert_eq!(r.positions, nonterminal, "C_{n}");
    }
}

/// TER(C_n) for odd 5 <= n <= 19: outcome P, as nim = 0 from the general solver (Conj. 5.5 as
/// far as the paper checked, below 21 to keep the test fast). C_3 = K_3 is the exception:
/// the first selection terminates, nim 1, outcome N.
#[test]
fn cycle_start_matches_solver() {
    for n in (3..=19u32).step_by(2) {
        let sweep = grundy::solve::cycle::solve(n).unwrap();
        let nim = generic(Rule::Ter, &families::cycle(n as u64).unwrap());
        assert_eq!(sweep.outcome == Outcome::P, nim == 0, "C_{n}");
        assert_eq!(sweep.outcome == Outcome::P, n != 3, "C_{n}");
    }
}

fn graph_from_edges(n: usize, edges: &[(usize, usize)]) -> Option<Graph> {
    Graph::new("g", (0..n).map(|i| i.to_string()).collect(), edges).ok()
}

/// The dense spectrum path against the general solver: every labelled connected graph on
/// at most 4 vertices and a fixed pseudo-random sample on 5 and 6 vertices.
#[test]
fn dense_values_match_solver() {
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut checked = 0;
    for n in 1..=6usize {
        let pairs: Vec<(usize, usize)> = (0..n).flat_map(|j| (0..j).map(move |i| (i, j))).collect();
        let masks: Vec<u64> = if n <= 4 {
            (0..1u64 << pairs.len()).collect()
        } else {
            (0..250)
                .map(|_| {
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    seed >> (64 - pairs.len())
                })
                .collect()
        };
        for m in masks {
            let edges: Vec<_> = pairs
                .iter()
                .enumerate()
                .filter(|(k, _)| m >> k & 1 == 1)
                .map(|(_, &e)| e)
                .collect();
            let Some(g) = graph_from_edges(n, &edges) else {
                continue;
            };
            let adj: Vec<u64> = (0..n).map(|v| g.adj(v)).collect();
            let want = (generic(Rule::Ter, &g), generic(Rule::Dnt, &g));
            assert_eq!(dense_values(&adj), want, "n = {n}, edges {edges:?}");
            checked += 1;
        }
    }
    assert!(checked > 300, "only {checked} graphs checked");
}

fn geng_present() -> bool {
    let ok = Command::new("nauty-geng").arg("-help").output().is_ok();
    if !ok {
        eprintln!(
            "SKIPPED: nauty-geng not installed (Debian package `nauty`); .ci/run installs it"
        );
    }
    ok
}

fn spectrum_json(args: &[&str]) -> serde_json::Value {
    let out = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .arg("spectrum")
        .args(args)
        .arg("--json")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// OEIS A001349 (connected graphs on n nodes): 1, 1, 2, 6, 21, 112, 853, 11117.
#[test]
fn geng_pipeline_counts_connected_graphs() {
    if !geng_present() {
        return;
    }
    for (n, want) in [1u64, 1, 2, 6, 21, 112, 853, 11117].iter().enumerate() {
        let r = spectrum_json(&["--vertices", &(n + 1).to_string()]);
        assert_eq!(r["graphs"], *want, "n = {}", n + 1);
        let sum: u64 = r["ter"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x["count"].as_u64().unwrap())
            .sum();
        assert_eq!(sum, *want);
    }
}

/// Every connected graph on at most 6 vertices from geng: the CLI's distribution equals the
/// one computed by the general solver, value by value, with the same smallest examples.
#[test]
fn spectrum_matches_solver_up_to_6_vertices() {
    if !geng_present() {
        return;
    }
    for n in 1..=6usize {
        let g6 = Command::new("nauty-geng")
            .args(["-c", "-q", &n.to_string()])
            .output()
            .unwrap();
        let mut ter = std::collections::BTreeMap::<u32, (u64, (u32, String))>::new();
        for line in String::from_utf8(g6.stdout).unwrap().lines() {
            let g = grundy::graph::io::from_graph6(line).unwrap();
            let e = (0..g.n()).map(|v| g.degree(v)).sum::<u32>() / 2;
            let t = generic(Rule::Ter, &g);
            let entry = ter.entry(t).or_insert((0, (u32::MAX, String::new())));
            entry.0 += 1;
            entry.1 = entry.1.clone().min((e, line.to_string()));
        }
        let r = spectrum_json(&["--vertices", &n.to_string()]);
        let got: Vec<(u32, u64, String)> = r["ter"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| {
                (
                    x["value"].as_u64().unwrap() as u32,
                    x["count"].as_u64().unwrap(),
                    x["smallest"]["graph6"].as_str().unwrap().to_string(),
                )
            })
            .collect();
        let want: Vec<(u32, u64, String)> =
            ter.into_iter().map(|(v, (c, (_, s)))| (v, c, s)).collect();
        assert_eq!(got, want, "n = {n}");
    }
}

/// Three shards merged equal one unsharded run exactly; merging a shard twice is refused.
#[test]
fn shards_merge_exactly() {
    if !geng_present() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("grundy-scale-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut files = Vec::new();
    for i in 0..3 {
        let r = spectrum_json(&["--vertices", "7", "--shard", &format!("{i}/3")]);
        let f = dir.join(format!("s{i}.json"));
        std::fs::write(&f, r.to_string()).unwrap();
        files.push(f.to_string_lossy().to_string());
    }
    let mut args = vec!["merge"];
    args.extend(files.iter().map(|s| s.as_str()));
    let merged = spectrum_json(&args);
    let full = spectrum_json(&["--vertices", "7"]);
    for key in ["graphs", "ter", "dnt", "joint", "vertices"] {
        assert_eq!(merged[key], full[key], "{key}");
    }
    assert_eq!(merged["complete"], true);
    let twice = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(["spectrum", "merge", &files[0], &files[0]])
        .output()
        .unwrap();
    assert_eq!(twice.status.code(), Some(2));
    // Two of three shards: refused, naming the missing one and the graphs covered; merged
    // with --partial as incomplete.
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_grundy"))
            .arg("spectrum")
            .args(args)
            .output()
            .unwrap()
    };
    let two = run(&["merge", &files[0], &files[1]]);
    assert_eq!(two.status.code(), Some(2));
    let msg = String::from_utf8_lossy(&two.stderr);
    assert!(msg.contains("1 of 3 shards missing (first: 2/3)"), "{msg}");
    let partial = run(&["merge", &files[0], &files[1], "--partial", "--json"]);
    assert!(partial.status.success());
    let p: serde_json::Value = serde_json::from_slice(&partial.stdout).unwrap();
    assert_eq!(p["complete"], false);
    // A shard whose joint table contradicts its own TER row (counts moved between two
    // pairs with the same total): refused.
    let mut bad =
        serde_json::from_str::<serde_json::Value>(&std::fs::read_to_string(&files[0]).unwrap())
            .unwrap();
    let joint = bad["joint"].as_array_mut().unwrap();
    let (a, b) = (
        joint[0]["count"].as_u64().unwrap(),
        joint[1]["count"].as_u64().unwrap(),
    );
    joint[0]["count"] = (a + 1).into();
    joint[1]["count"] = (b - 1).into();
    let f = dir.join("bad.json");
    std::fs::write(&f, bad.to_string()).unwrap();
    let o = run(&["merge", f.to_str().unwrap(), "--partial"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("in the joint table"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A sample of 8-vertex graphs solved by both the dense path and the level solver
/// (`--cross-check`) agrees; the flag is what the 11-vertex sample check uses.
#[test]
fn cross_check_agrees_on_a_sample() {
    if !geng_present() {
        return;
    }
    let r = spectrum_json(&["--vertices", "8", "--shard", "5/40", "--cross-check"]);
    assert!(r["graphs"].as_u64().unwrap() > 100, "{r}");
}

#[test]
fn bad_input_is_exit_2() {
    for args in [
        vec!["cycle", "--n", "8"],
        vec!["spectrum", "--vertices", "7", "--shard", "3/3"],
        vec!["spectrum", "--vertices", "40"],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_grundy"))
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(!out.stderr.is_empty());
    }
}

fn cycle_json(args: &[&str]) -> (Option<i32>, Option<serde_json::Value>) {
    let out = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .arg("cycle")
        .args(args)
        .arg("--json")
        .output()
        .unwrap();
    (out.status.code(), serde_json::from_slice(&out.stdout).ok())
}

/// A run paused after 3 levels (checkpointed) and resumed gives the uninterrupted result.
#[test]
fn cycle_checkpoint_resumes() {
    let dir = std::env::temp_dir().join(format!("grundy-scale-ckpt-{}", std::process::id()));
    let d = dir.to_string_lossy().to_string();
    let (code, _) = cycle_json(&["--n", "25", "--checkpoint", &d, "--max-levels", "3"]);
    assert_eq!(code, Some(3));
    assert!(dir.join("ter-cycle-25.ckpt").exists());
    let (code, resumed) = cycle_json(&["--n", "25", "--checkpoint", &d]);
    assert_eq!(code, Some(0));
    assert!(!dir.join("ter-cycle-25.ckpt").exists());
    let (_, full) = cycle_json(&["--n", "25"]);
    let (resumed, full) = (resumed.unwrap(), full.unwrap());
    for key in ["outcome", "positions", "p_positions"] {
        assert_eq!(resumed[key], full[key], "{key}");
    }
    assert_eq!(full["outcome"], "P");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Deciding ∅ from the replies {v1, vj}: C_3 = K_3 is N (the first move terminates), C_11 is P.
#[test]
fn cycle_by_reply() {
    let out = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(["cycle", "--n", "3", "--n", "11", "--by-reply", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let rows: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows[0]["outcome"], "N");
    assert_eq!(rows[1]["outcome"], "P");
    assert_eq!(rows[1]["reply"], "v2");
}
