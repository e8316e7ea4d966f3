//! Octal games from the command line at large heaps: `grundy solve` on Dawson's Chess and
//! 0.137 heaps up to 10^6 and beyond (values from the proved period), sweeps served from the
//! process-wide sequence cache, and `grundy octal` naming the method it used.

use std::process::Command;

fn grundy(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(args)
        .output()
        .expect("the grundy binary runs")
}

fn solve(expr: &str) -> u32 {
    let out = grundy(&["solve", expr]);
    assert!(out.status.success(), "{expr}: {out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    let first = text.lines().next().expect("a result line");
    let (_, v) = first.rsplit_once(" = ").expect("nim(…) = v");
    v.trim().parse().unwrap()
}

/// A002187 (Dawson's Chess) from n = 52 on: one period of 34 values.
const A002187_PERIOD: [u32; 34] = [
    3, 3, 0, 1, 1, 3, 0, 2, 1, 1, 0, 4, 5, 3, 7, 4, 8, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 4, 5,
    5, 9,
];

fn dawson(n: u64) -> u32 {
    assert!(n >= 52);
    A002187_PERIOD[((n - 52) % 34) as usize]
}

#[test]
fn dawson_chess_past_64_pins() {
    // DC(137) = G(69) = 1, DC(1000) = G(82) = 4 (A002187; period 34 from n = 52).
    assert_eq!(dawson(137), 1);
    assert_eq!(dawson(1000), 4);
    assert_eq!(solve("DC(137)"), 1);
    assert_eq!(solve("DC(1000)"), 4);
    assert_eq!(solve("DC(1000000)"), dawson(1_000_000));
    assert_eq!(solve("DC(4294967295)"), dawson(4_294_967_295));
    // Sums of heaps and nimbers by the XOR law.
    assert_eq!(solve("DC(1000000) + *3"), dawson(1_000_000) ^ 3);
    assert_eq!(solve("0.137(1000000, 137)"), dawson(1_000_000) ^ 1);
    assert_eq!(solve("0.137(999999) + DC(1000)"), dawson(999_999) ^ 4);
    // A row of pins up to 64 is still a row of pins (same value).
    assert_eq!(solve("DC(40)"), 1); // G(40) = 1 (A002187)
}

#[test]
fn wrong_values_are_told_apart() {
    // The checks above can fail: neighbouring heaps have other values.
    assert_ne!(solve("DC(1001)"), solve("DC(1000)"));
    assert_ne!(dawson(1001), dawson(1000));
}

#[test]
fn sweeps_reuse_the_sequence() {
    let out = grundy(&["solve", "0.137(n)", "--param", "n=1..=1000", "--json"]);
    assert!(out.status.success(), "{out:?}");
    let rows: Vec<serde_json::Value> = out
        .stdout
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_slice(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 1000);
    for (i, row) in rows.iter().enumerate() {
        let n = i as u64 + 1;
        if n >= 52 {
            assert_eq!(row["nim"], dawson(n), "0.137({n})");
        }
    }
    assert_eq!(rows[16]["nim"], 2); // G(17) = 2
}

#[test]
fn octal_command_names_its_method() {
    let out = grundy(&["octal", "0.137", "--len", "100000", "--json"]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let method = v["method"].as_str().unwrap();
    assert!(method.contains("proved period from heap 256"), "{method}");
    assert_eq!(v["sequence"][99_999], dawson(99_999));
    let out = grundy(&["octal", "0.16", "--len", "20000", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["engine"]["rare_common"].as_u64().unwrap() > 19_000, "{v}");
}

#[test]
fn absurd_heaps_are_refused() {
    for bad in ["DC(4294967296)", "0.137(4294967296)"] {
        let out = grundy(&["solve", bad]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(!out.stderr.is_empty(), "{bad}");
    }
}
