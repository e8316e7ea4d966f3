//! The `grundy` CLI end to end: solve (text, JSON, sweeps), sets in the paper's vertex
//! names, closures, and bad input (exit 2 with a clear message, never a panic).

use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(args)
        .output()
        .expect("grundy runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn solve_prints_the_nim_value() {
    let o = run(&["solve", "TER(C_9)"]);
    assert!(o.status.success());
    assert_eq!(stdout(&o).trim(), "nim(TER(C_9)) = 0");
    // Example 3.1: TER(P_3) = *2.
    assert_eq!(
        stdout(&run(&["solve", "TER(P_3)"])).trim(),
        "nim(TER(P_3)) = 2"
    );
}

#[test]
fn solve_json_has_the_documented_keys() {
    let o = run(&["solve", "DNT(W_7)", "--json"]);
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["game"], "DNT(W_7)");
    assert_eq!(v["nim"], 1); // Prop 5.18: odd n
    assert!(v["positions"].as_u64().unwrap() > 0);
    assert!(v["seconds"].as_f64().unwrap() >= 0.0);
}

#[test]
fn sweep_gives_one_row_per_value() {
    let o = run(&["solve", "DNT(W_n)", "--param", "n=5..=12", "--json"]);
    assert!(o.status.success());
    let rows: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 8);
    // Thm 5.24: nim(DNT(W_n)) = 0 exactly for n = 8 and n = 12 in this range.
    for r in rows {
        let n = r["n"].as_i64().unwrap();
        assert_eq!(
            r["nim"].as_i64().unwrap(),
            if n == 8 || n == 12 { 0 } else { 1 },
            "n = {n}"
        );
    }
    let table = stdout(&run(&[
        "solve",
        "TER(W_{m,n})",
        "--param",
        "m=2..=3",
        "--param",
        "n=4..=5",
    ]));
    assert_eq!(table.lines().count(), 1 + 4);
}

#[test]
fn sets_in_paper_names() {
    let o = run(&["sets", "Kite", "--json"]);
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    // Example 2.6: 𝒢 = {{x,w},{x,u,v}}.
    assert_eq!(v["G"], serde_json::json!([["x", "w"], ["x", "u", "v"]]));
    assert_eq!(v["G*"], serde_json::json!([["x"], ["u", "w"], ["v", "w"]]));
    let text = stdout(&run(&["sets", "P_3"]));
    assert!(text.contains("G* = {{v1}, {v3}}"), "{text}");
}

#[test]
fn geodetic_closure_is_selectable() {
    // §6 question 2: on Q_3 the one-step geodetic closure differs from the hull, and so do
    // the families it gives.
    let hull = stdout(&run(&["sets", "Q_3"]));
    let geo = stdout(&run(&["sets", "Q_3", "--closure", "geodetic"]));
    assert_ne!(hull.lines().nth(1), geo.lines().nth(1));
    assert!(run(&["solve", "TER(Q_3)", "--closure", "geodetic"])
        .status
        .success());
}

#[test]
fn bad_input_exits_2_with_a_message() {
    for (args, needle) in [
        (vec!["solve", "TER(X_5)"], "unknown graph family"),
        (vec!["solve", "TER(graph6:Dh)"], "malformed graph6"),
        (vec!["solve", "TER(graph6:C?)"], "disconnected"),
        (vec!["solve", "TER(C_65)"], "at most 64"),
        (vec!["solve", "TER(Q_9)"], "at most 64"),
        (vec!["solve", "TER(C_9"], "never closed"),
        (vec!["solve", "DNT(W_n)", "--param", "n=9..=5"], "empty"),
        (vec!["solve", "DNT(W_n)", "--param", "n5"], "NAME=RANGE"),
        (vec!["sets", "K_{0,3}"], "every part needs"),
        (vec!["bogus"], "unrecognized subcommand"),
    ] {
        let o = run(&args);
        let all = format!("{}{}", stdout(&o), String::from_utf8_lossy(&o.stderr));
        assert_eq!(o.status.code(), Some(2), "{args:?}: {all}");
        assert!(
            all.contains(needle),
            "{args:?}: expected `{needle}` in {all}"
        );
        assert!(!all.contains("panicked"), "{args:?}: {all}");
    }
}
