//! `--coq DIR` (issue 48): a real certificate (prop_4_8_dnt, written by `grundy build`, in
//! tests/data) is exported as a Coq file that `coqc` proves with formal/'s soundness theorem;
//! the same file with one value of its table edited, or with another value claimed, is not
//! proved. Needs `coqc`: without it the test says so and passes, except under CI (`CI` set),
//! where it fails.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn coqc_present() -> bool {
    Command::new("coqc").arg("--version").output().is_ok()
}

/// Runs formal/prove.sh on a folder holding only `text` as `name`; whether it proved it.
fn proves(scratch: &Path, name: &str, text: &str) -> (bool, String) {
    let dir = scratch.join(format!("prove-{}", name.trim_end_matches(".v")));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(name), text).unwrap();
    let out = Command::new("bash")
        .arg(root().join("formal/prove.sh"))
        .arg(&dir)
        .env("JOBS", "1")
        .output()
        .unwrap();
    let log = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), log)
}

#[test]
fn exported_table_is_proved_and_a_tampered_one_is_not() {
    if !coqc_present() {
        assert!(
            std::env::var_os("CI").is_none(),
            "coqc is missing under CI: the Coq export cannot be tested"
        );
        eprintln!("coqc not found: the Coq export test is skipped (it runs under CI)");
        return;
    }
    let scratch = std::env::temp_dir().join(format!("grundy-verify-coq-{}", std::process::id()));
    let (certs, coq) = (scratch.join("certificates"), scratch.join("coq"));
    std::fs::create_dir_all(&certs).unwrap();
    let data = root().join("verify/tests/data");
    std::fs::copy(
        data.join("certificates/prop_4_8_dnt.json"),
        certs.join("prop_4_8_dnt.json"),
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_grundy-verify"))
        .arg(&certs)
        .arg("--specs")
        .arg(data.join("specs"))
        .arg("--allow-unverified")
        .arg("--coq")
        .arg(&coq)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.contains("coq: 1 files, 30 theorems"), "{stdout}");
    let text = std::fs::read_to_string(coq.join("prop_4_8_dnt.v")).unwrap();
    // Deterministic bytes: a second export writes the same file.
    let again = scratch.join("coq2");
    let out2 = Command::new(env!("CARGO_BIN_EXE_grundy-verify"))
        .arg(&certs)
        .arg("--specs")
        .arg(data.join("specs"))
        .arg("--allow-unverified")
        .arg("--coq")
        .arg(&again)
        .output()
        .unwrap();
    assert!(out2.status.success());
    assert_eq!(
        text,
        std::fs::read_to_string(again.join("prop_4_8_dnt.v")).unwrap()
    );

    let (ok, log) = proves(&scratch, "prop_4_8_dnt.v", &text);
    assert!(ok, "the exported file is not proved:\n{log}");

    // One value of the first table edited: (position, v) becomes (position, v + 1) for the
    // table's second entry (not the start, so the theorem's statement is unchanged).
    let data_at = text.find(":= [").expect("a table") + 4;
    let entry_at = data_at + text[data_at..].find(';').unwrap() + 1;
    let open = entry_at + text[entry_at..].find('(').unwrap();
    let close = open + text[open..].find(')').unwrap();
    let (pos, value) = text[open + 1..close].split_once(", ").unwrap();
    let value: u64 = value.parse().unwrap();
    let tampered = format!(
        "{}({pos}, {}){}",
        &text[..open],
        value + 1,
        &text[close + 1..]
    );
    assert_ne!(tampered, text);
    let (ok, log) = proves(&scratch, "tampered_value.v", &tampered);
    assert!(
        !ok,
        "a table with a value edited was proved:\n{log}\n{tampered}"
    );

    // Another value claimed at the start: the theorem's `= v.` edited.
    let th = text.find("Theorem ").unwrap();
    let th = th + text[th..].find("grundy ").unwrap();
    let eq = th + text[th..].find(" = ").unwrap() + 3;
    let dot = eq + text[eq..].find('.').unwrap();
    let v: u64 = text[eq..dot].parse().unwrap();
    let claimed = format!("{}{}{}", &text[..eq], v + 1, &text[dot..]);
    let (ok, log) = proves(&scratch, "tampered_claim.v", &claimed);
    assert!(!ok, "another claimed value was proved:\n{log}");

    std::fs::remove_dir_all(&scratch).unwrap();
}
