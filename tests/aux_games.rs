//! The auxiliary games from the command line (`grundy solve`, `grundy octal`).

use std::process::Command;

fn grundy(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(args)
        .output()
        .expect("the grundy binary runs")
}

fn solve(expr: &str) -> u32 {
    let out = grundy(&["solve", expr]);
    assert!(out.status.success(), "{expr}: {:?}", out);
    let text = String::from_utf8(out.stdout).unwrap();
    let (_, v) = text.trim().rsplit_once(" = ").expect("nim(…) = v");
    v.parse().unwrap()
}

#[test]
fn solve_values() {
    // A002187: DC(3) = 2, DC(17) = 2.
    assert_eq!(solve("DC(17)"), 2);
    assert_eq!(solve("0.137(17)"), 2);
    assert_eq!(solve("DC(3) + *1"), 3);
    assert_eq!(solve("0.137(3) + DC(3)"), 0);
    // Prop 5.26: *2 : G has value 2 + nim(G); DNT(P_4) = 0.
    assert_eq!(solve("*2 : DNT(P_4)"), 2);
    // Prop 5.14: {2,2,3} has p = 1, d = 3 − 1 − 1 = 1, so value 2.
    assert_eq!(solve("TER{2,2,3}"), 2);
    // Theorem 5.43 (n + m even, d = 2): 0; Lemma 5.36: (3,[3]) has value 1.
    assert_eq!(solve("SPL(2,4)"), 0);
    assert_eq!(solve("SPL(3,[3])"), 1);
    assert_eq!(solve("SPL(3,[3]) + *1"), 0);
    assert_eq!(solve("SPL(2,Λ^4)"), 0);
    // Seed 002: SP(6,2) from (1,1) is a P-position; SP(4,2) is not.
    assert_eq!(solve("UEG(SP_{6,2}, (1,1))"), 0);
    assert_ne!(solve("UEG(SP_{4,2}, (1,1))"), 0);
}

#[test]
fn malformed_expressions_exit_2() {
    for bad in [
        "DC(3) + FOO",
        "DC(4294967296)",
        "0.8(3)",
        "SPL(1,4)",
        "SPL(3,[3)",
        "UEG(SP_{6,2}, (9,9))",
        "TER{2,x}",
    ] {
        let out = grundy(&["solve", bad]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(!out.stderr.is_empty(), "{bad}");
    }
}

#[test]
fn octal_subcommand_proves_dawson_period() {
    let out = grundy(&["octal", "0.137", "--len", "1000"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("period 34, least preperiod 52"), "{text}");
    assert!(text.contains("last exceptional value at n = 51"), "{text}");
    assert!(
        text.contains("  0 1 1 2 0 3 1 1 0 3 3 2 2 4 0 5 2 2 3 3 0 1 1 3 0 2 1 1 0 4 5 2 7 4\n")
    );

    let out = grundy(&["octal", "0.137", "--len", "300", "--json"]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["periodicity"]["proof"]["period"], 34);
    assert_eq!(v["periodicity"]["proof"]["preperiod"], 52);
    assert_eq!(v["periodicity"]["checked_to"], 300);
    assert_eq!(v["sequence"][68], 8);
    assert_eq!(v["sequence"][85], 9);

    let out = grundy(&["octal", "0.9"]);
    assert_eq!(out.status.code(), Some(2));
}

/// Node Kayles, the registered family (src/game/node_kayles.rs), through the library: values
/// worked by hand, Dawson's Chess on paths, sums, and labels that parse back.
#[test]
fn node_kayles_values() {
    use grundy::expr::{parse_game, ParseOptions};
    use grundy::game::{AnyGame, Game};
    let nim = |s: &str| parse_game(s, ParseOptions::default()).unwrap().solve().nim;
    // K_n: any move takes everything. K_{m,n}: a move leaves the m − 1 (n − 1) other
    // vertices of its side, independent, worth their parity.
    assert_eq!(nim("NK(K_5)"), 1);
    for (m, n) in [(1, 1), (2, 3), (3, 4), (2, 2), (3, 3), (4, 6)] {
        let want = grundy::game::mex([(m - 1) % 2, (n - 1) % 2]);
        assert_eq!(nim(&format!("NK(K_{{{m},{n}}})")), want, "K_{{{m},{n}}}");
    }
    // Paths are Dawson's Chess (0.137), computed here by its octal sequence.
    for n in 1..=18 {
        assert_eq!(
            nim(&format!("NK(P_{n})")),
            nim(&format!("DC({n})")),
            "P_{n}"
        );
    }
    // A wrong reading (Dawson's Kayles, shifted by one) disagrees: the check above has teeth.
    assert_ne!(nim("NK(P_3)"), nim("DC(2)"));
    // Sums and ordinal sums take registered games like any other.
    assert_eq!(nim("NK(P_3) + DC(3)"), 0);
    assert_eq!(nim("*1 : NK(P_3)"), 3);
    // Positions read back from their labels.
    let g = parse_game("NK(C_6)", ParseOptions::default()).unwrap();
    let AnyGame::Family(_) = &g else {
        panic!("NK is a registered family")
    };
    let mut stack = vec![g.start()];
    while let Some(p) = stack.pop() {
        assert_eq!(g.parse_pos(&g.label(&p)).unwrap(), p);
        stack.extend(g.options(&p));
    }
    // C_6: every first move leaves P_3, worth 2.
    assert_eq!(nim("NK(C_6)"), 0);
}

/// Node Kayles memoises components, so its memo bound (n(n+1)/2 + 1 on a path) is far below
/// the positions a check that takes every reachable position whole lists. Such a check is
/// guarded by the reachable bound (2^n): a claim on every reachable position of NK(P_60) is
/// refused with exit 2 in moments, the same claim on NK(P_8) is checked (and holds), and at
/// the start only NK(P_60) is solved.
#[test]
fn reachable_checks_of_split_games_are_guarded_by_whole_positions() {
    let dir = std::env::temp_dir().join(format!("grundy-nk-reachable-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let run = |n: u32, positions: &str| {
        let p = dir.join(format!("nk_{n}_{positions}.yaml"));
        let text = format!(
            "kind: claim\nsource: test\nstatement: every position holds at most n vertices\n\
             game: NK(P_{n})\npositions: {positions}\nholds: 'remaining <= {n}'\n"
        );
        std::fs::write(&p, text).unwrap();
        let t0 = std::time::Instant::now();
        let out = grundy(&["check", p.to_str().unwrap()]);
        let text = String::from_utf8_lossy(&out.stdout).to_string()
            + String::from_utf8_lossy(&out.stderr).as_ref();
        (out.status.code(), text, t0.elapsed().as_secs_f64())
    };
    let (code, text, secs) = run(60, "reachable");
    assert_eq!(code, Some(2), "{text}");
    assert!(secs < 10.0, "took {secs} s: {text}");
    let (code, text, _) = run(8, "reachable");
    assert_eq!(code, Some(0), "{text}");
    let (code, text, _) = run(60, "start");
    assert_eq!(code, Some(0), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}
