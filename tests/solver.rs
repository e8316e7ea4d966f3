//! The front door of solving: the dispatcher names its method and agrees with the exhaustive
//! solver wherever both run; the parallel level solver gives the same values on 1 and 2
//! threads; the guard refuses oversized instances with an estimate (CLI exit 2), in specs too.

use grundy::check::formula::{Env, Formula};
use grundy::expr::{parse_game, ParseOptions};
use grundy::game::removing::{RemovingGame, Rule};
use grundy::game::AnyGame;
use grundy::graph::{families, Closure, Graph};
use grundy::solve::dispatch::{self, Options};
use grundy::solve::guard::{Budget, Monitor};
use grundy::solve::levels;
use grundy::solve::progress::Progress;
use grundy::solve::Solver;
use std::process::{Command, Output};

fn grundy(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(args)
        .output()
        .expect("grundy runs")
}

fn game(s: &str) -> AnyGame {
    parse_game(s, ParseOptions::default()).unwrap()
}

fn unlimited() -> Options {
    Options {
        budget: Budget::unlimited(),
        progress: false,
    }
}

#[test]
fn dispatched_values_equal_the_memo_solver() {
    for text in [
        "TER(C_13)",
        "TER(C_14)",
        "DNT(C_13)",
        "TER(W_15)",
        "DNT(W_16)",
        "TER(W_{3,7})",
        "DNT(K_{2,2,3})",
        "TER(Q_3)",
        "DNT(P_6)",
        "TER_{v1}(C_11)",
        "DNT_{v1}(W_12)",
        "DC(20) + TER(P_4)",
        "0.07(5,6,7)",
        "SPL(2,4)",
        "*2 : DNT(P_4)",
        // Edge geography inside ordinal sums: bases and tops, P- and N-positions.
        "UEG(Grid_{3,3}, (1,1)) : *1",
        "UEG(Grid_{3,3}, (1,2)) : *2",
        "*1 : UEG(Grid_{3,3}, (2,2))",
        "(UEG(Grid_{2,3}, (1,1)) + *1) : *1",
    ] {
        let g = game(text);
        let want = Solver::new(&g).nim_of_start();
        let got = dispatch::nim(&g, &unlimited()).unwrap();
        assert_eq!(got, want, "{text}");
    }
}

/// Thm 5.24 on W_8 .. W_13: nim(DNT(W_n)) = 0 exactly for n = 8 and n = 12 (1 otherwise), and
/// TER agrees with the memo solver without symmetry reduction.
#[test]
fn level_values_match_the_paper_on_wheels() {
    for n in 8..=13u64 {
        let w = families::wheel(n).unwrap();
        let dnt = RemovingGame::new(Rule::Dnt, w, Closure::HULL, 0).unwrap();
        let v = levels::solve(&dnt, &Monitor::unlimited(dnt.name()), &Progress::hidden())
            .unwrap()
            .nim;
        assert_eq!(v, u32::from(n != 8 && n != 12), "DNT(W_{n})");
    }
    let w = families::wheel(12).unwrap();
    let ter = RemovingGame::new(Rule::Ter, w.clone(), Closure::HULL, 0).unwrap();
    let dnt = RemovingGame::new(Rule::Dnt, w, Closure::HULL, 0).unwrap();
    let run = |g: &RemovingGame| {
        levels::solve(g, &Monitor::unlimited(g.name()), &Progress::hidden())
            .unwrap()
            .nim
    };
    assert_eq!(run(&dnt), 0);
    assert_eq!(
        run(&ter),
        Solver::new(&ter.clone().without_symmetry()).nim_of_start()
    );
}

#[test]
fn level_solver_is_thread_count_independent() {
    let graphs: Vec<Graph> = vec![
        families::cycle(17).unwrap(),
        families::wheel(20).unwrap(),
        families::gen_wheel(3, 9).unwrap(),
        families::hypercube(3).unwrap(),
    ];
    for g in graphs {
        for rule in [Rule::Ter, Rule::Dnt] {
            let game = RemovingGame::new(rule, g.clone(), Closure::HULL, 0).unwrap();
            let results: Vec<(u32, Vec<u64>)> = [1, 2]
                .iter()
                .map(|&t| {
                    let pool = rayon::ThreadPoolBuilder::new()
                        .num_threads(t)
                        .build()
                        .unwrap();
                    pool.install(|| {
                        let r = levels::solve(
                            &game,
                            &Monitor::unlimited(game.name()),
                            &Progress::hidden(),
                        )
                        .unwrap();
                        (r.nim, r.level_sizes)
                    })
                })
                .collect();
            assert_eq!(results[0], results[1], "{}", game.name());
            assert_eq!(
                results[0].0,
                Solver::new(&game).nim_of_start(),
                "{}",
                game.name()
            );
        }
    }
}

#[test]
fn cli_names_the_method() {
    for (text, method, nim) in [
        ("TER(C_21)", "cycle-table", 0),
        // A002187: G(17) = 2 for Dawson's Chess.
        ("DC(17) + *1", "sum(octal-sequence, nimber)", 3),
        ("DNT(W_20)", "levels", 1),
        ("UEG(SP_{6,8}, (1,1))", "gf2", 0),
    ] {
        let o = grundy(&["solve", text, "--json"]);
        assert!(o.status.success(), "{text}: {o:?}");
        let v: serde_json::Value =
            serde_json::from_str(String::from_utf8_lossy(&o.stdout).trim()).unwrap();
        assert_eq!(v["method"], method, "{text}");
        assert_eq!(v["nim"], nim, "{text}");
    }
    // The text output keeps `nim(G) = v` on stdout and names the method on stderr.
    let o = grundy(&["solve", "TER(C_21)"]);
    assert_eq!(
        String::from_utf8_lossy(&o.stdout).trim(),
        "nim(TER(C_21)) = 0"
    );
    assert!(String::from_utf8_lossy(&o.stderr).contains("method cycle-table"));
}

#[test]
fn cli_refuses_oversized_solves_with_an_estimate() {
    for (args, hint) in [
        (vec!["solve", "UEG(SP_{7,9}, (1,1))"], "odd cycle"),
        (vec!["solve", "TER(Grid_{7,8})"], "smaller instance"),
        (vec!["solve", "TER(C_45)"], "grundy cycle --n 45"),
        (
            vec!["solve", "TER(W_24)", "--max-positions", "1000"],
            "max-positions",
        ),
    ] {
        let o = grundy(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {o:?}");
        let err = String::from_utf8_lossy(&o.stderr).replace(['│', '\n'], " ");
        let err = err.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(err.contains("estimated"), "{args:?}: {err}");
        assert!(err.contains(hint), "{args:?}: {err}");
    }
    let o = grundy(&["solve", "TER(C_9)", "--max-memory", "lots"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn stopped_while_solving_past_the_position_limit() {
    // Refused from the estimate or stopped by the check while solving: either way an error
    // that counts positions, never an abort.
    let g = game("DNT(W_22)");
    let tight = Options {
        budget: Budget {
            max_positions: Some(50),
            max_memory: u64::MAX,
        },
        progress: false,
    };
    let r = dispatch::solve(&g, &tight).unwrap_err();
    assert!(r.to_string().contains("positions"), "{r}");
}

#[test]
fn formulas_reach_octal_heaps_through_the_front_door_and_are_guarded() {
    let env = Env::new();
    // The octal path against the exhaustive solver on the pin row.
    let f = Formula::compile(r#"nim("DC(40)")"#).unwrap();
    assert_eq!(
        f.eval_int(&env).unwrap(),
        i64::from(Solver::new(&game("DC(40)")).nim_of_start())
    );
    let f = Formula::compile(r#"nim("TER(Grid_{7,8})")"#).unwrap();
    let e = f.eval_int(&env).unwrap_err();
    assert!(e.contains("refused"), "{e}");
}

#[test]
fn claim_instances_past_the_budget_are_refused_at_their_location() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("guard.yaml");
    std::fs::write(
        &p,
        "kind: claim\nsource: X\ngame: TER(Grid_{7,n})\nparams:\n  n: 8..=8\nnim: 0\n",
    )
    .unwrap();
    let o = grundy(&["check", p.to_str().unwrap()]);
    let t = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(o.status.code(), Some(2), "{t}");
    assert!(t.contains("guard.yaml:3:7"), "{t}");
    assert!(t.contains("refused before solving"), "{t}");
}

/// Edge geography past the exhaustive encoding (128 edges): the GF(2) criterion gives the
/// value of a P-position, 0, but not its options' values, which an ordinal sum needs; encoded,
/// the position has no moves and the sum would be answered as if the base were *0 (this
/// answered nim(UEG(Grid_{12,12}, (1,2)) : *1) = 1 before). Refused instead, while the value of
/// the game alone and of its disjoint sums is still given.
#[test]
fn ordinal_sums_of_edge_geography_past_the_encoding_are_refused() {
    for text in [
        "UEG(Grid_{12,12}, (1,2)) : *1",
        "(*1 : UEG(Grid_{12,12}, (1,2))) : *1",
        "(UEG(Grid_{12,12}, (1,2)) + *1) : *1",
    ] {
        let r = dispatch::nim(&game(text), &unlimited());
        assert!(
            r.as_ref()
                .is_err_and(|e| e.to_string().contains("128 edges")),
            "{text}: {r:?}"
        );
    }
    // The start's value alone is the GF(2) verdict's (a P-position: 0).
    assert_eq!(
        dispatch::nim(&game("UEG(Grid_{12,12}, (1,2))"), &unlimited()).ok(),
        Some(0)
    );
    assert_eq!(
        dispatch::nim(&game("UEG(Grid_{12,12}, (1,2)) + *3"), &unlimited()).ok(),
        Some(3)
    );
}
