//! Hostile inputs to the verifier itself (issue 44 items 2 and 7, issue 49 R5): every file it
//! reads goes through one bounded reader, so a FIFO, a device or standard input given as the
//! report (or sitting where the default `DIR/../report.json` is) ends at once in exit 2 naming
//! what it is, never blocking or filling memory; and text from a certificate reaches the
//! terminal with its escape sequences shown, not sent.

use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// A certificates folder with one good certificate (TER(P_3) = *2) and its spec, in a fresh
/// temporary folder: `root/certificates`, `root/specs`.
fn project(tag: &str) -> std::path::PathBuf {
    let root =
        std::env::temp_dir().join(format!("grundy-verify-inputs-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(root.join("certificates")).unwrap();
    std::fs::create_dir_all(root.join("specs")).unwrap();
    let spec = "kind: claim\ngame: TER(P_3)\nnim: 2\n";
    std::fs::write(root.join("specs/ter_p3.yaml"), spec).unwrap();
    std::fs::write(
        root.join("certificates/ter_p3.json"),
        certificate("ter_p3", spec),
    )
    .unwrap();
    root
}

fn certificate(id: &str, spec: &str) -> String {
    use sha2::Digest;
    let sha: String = sha2::Sha256::digest(spec.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let game = r#"{"TER":{"graph":{"n":3,"edges":[[0,1],[1,2]]},"start":0}}"#;
    format!(
        r#"{{"format":"grundy-certificate/1","spec_sha256":"{sha}","spec":"{id}","source":"test","kind":"nim-tables","tables":[{{"instance":"","game":{game},"entries":[[0,2],[1,0],[2,1],[4,0],[3,0],[6,0]],"claims":[{{"pos":0,"start":true,"nim":2}}]}}]}}"#
    )
}

/// grundy-verify on `root`, with a time bound (a blocking read would show as exit 124).
fn run(root: &Path, extra: &[&str]) -> (Output, Duration) {
    let t0 = Instant::now();
    let out = Command::new("timeout")
        .args(["-k", "2", "15"])
        .arg(env!("CARGO_BIN_EXE_grundy-verify"))
        .arg(root.join("certificates"))
        .arg("--specs")
        .arg(root.join("specs"))
        .args(extra)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    (out, t0.elapsed())
}

fn mkfifo(p: &Path) {
    let st = Command::new("mkfifo").arg(p).status().unwrap();
    assert!(st.success(), "mkfifo {p:?}");
}

fn refused(root: &Path, extra: &[&str], phrase: &str) {
    let (out, took) = run(root, extra);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{extra:?}: {err}");
    assert!(
        err.contains(phrase),
        "{extra:?}: expected `{phrase}` in: {err}"
    );
    assert!(took < Duration::from_secs(10), "{extra:?}: took {took:?}");
}

#[test]
fn special_files_as_the_report_are_refused_at_once() {
    let root = project("special");
    let fifo = root.join("r.fifo");
    mkfifo(&fifo);
    refused(
        &root,
        &["--report", fifo.to_str().unwrap()],
        "a FIFO, not a regular file",
    );
    refused(
        &root,
        &["--report", "/dev/zero"],
        "/dev/zero: a device, not a regular file",
    );
    refused(
        &root,
        &["--report", "/dev/urandom"],
        "a device, not a regular file",
    );
    // Standard input (here /dev/null, a device) is no report either.
    refused(&root, &["--report", "/dev/stdin"], "not a regular file");
    // The default report, DIR/../report.json, planted as a FIFO or a link to a device.
    let default = root.join("report.json");
    mkfifo(&default);
    refused(&root, &[], "report.json: a FIFO, not a regular file");
    std::fs::remove_file(&default).unwrap();
    std::os::unix::fs::symlink("/dev/zero", &default).unwrap();
    refused(&root, &[], "a device, not a regular file");
    // The wrong variant: a regular report is read, and the certificate verifies.
    std::fs::remove_file(&default).unwrap();
    std::fs::write(
        &default,
        r#"{"reports":[{"id":"ter_p3","verdict":"holds","certificate":"certificate written"}]}"#,
    )
    .unwrap();
    let (out, _) = run(&root, &[]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains("verified (claim re-derived): 1 of 1"),
        "{stdout}"
    );
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn a_spec_or_certificate_that_is_a_fifo_does_not_block() {
    let root = project("fifo");
    mkfifo(&root.join("specs/other.yaml"));
    refused(&root, &[], "a spec must be a regular file");
    std::fs::remove_file(root.join("specs/other.yaml")).unwrap();
    mkfifo(&root.join("certificates/other.json"));
    let (out, took) = run(&root, &["--allow-unverified"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(took < Duration::from_secs(10));
    assert!(
        stdout.contains("other") && stdout.contains("REJECTED: not a regular file"),
        "{stdout}"
    );
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn escape_sequences_from_a_certificate_are_shown_not_sent() {
    let root = project("escape");
    // A certificate whose `spec` sets the terminal's title and colour; its file name a CSI.
    let evil = "\u{1b}]0;pwned\u{7}\u{1b}[31mevil";
    let json = certificate("ter_p3", "kind: claim\ngame: TER(P_3)\nnim: 2\n").replace(
        r#""spec":"ter_p3""#,
        &format!(r#""spec":{}"#, serde_json::to_string(evil).unwrap()),
    );
    std::fs::write(root.join("certificates/ter_p3.json"), json).unwrap();
    std::fs::write(root.join("certificates/x\u{9b}2J.json"), "{}").unwrap();
    let (out, _) = run(&root, &["--allow-unverified"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        !stdout.contains('\u{1b}') && !stdout.contains('\u{7}') && !stdout.contains('\u{9b}'),
        "a raw control character reached the output: {stdout:?}"
    );
    assert!(
        stdout.contains("spec \\u001b]0;pwned\\u0007\\u001b[31mevil"),
        "{stdout}"
    );
    assert!(stdout.contains("x\\u009b2J"), "{stdout}");
    std::fs::remove_dir_all(&root).unwrap();
}
