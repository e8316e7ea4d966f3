//! `grundy-verify DIR [--write]`: re-checks every certificate `DIR/*.json` written by
//! `grundy build`, with code that shares nothing with grundy (only serde_json and std).
//! Prints one line per spec, `verified` or the first bad entry; exit 0 if all verify, 1 if
//! some certificate fails, 2 if the directory cannot be read. `--write` also records the
//! verdicts, deterministically, in `DIR/VERIFIED.json`.

// Index loops mirror the definitions (for u, v, w in V …); iterator chains would hide them.
#![allow(clippy::needless_range_loop)]

mod checks;
mod games;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::ExitCode;

/// The verdict on one certificate file: its spec, and the summary with the specs it rests on.
type Verdict = (String, Result<(String, BTreeSet<String>), String>);

fn verify_file(path: &Path) -> Verdict {
    let name = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => return (name, Err(format!("cannot read: {e}"))),
    };
    let cert: checks::Certificate = match serde_json::from_str(&text) {
        Ok(c) => c,
        Err(e) => return (name, Err(format!("not a certificate: {e}"))),
    };
    let r = checks::check(&cert).map(|(n, refs)| {
        let skipped = cert.not_certified.len();
        let mut m = format!("verified ({n} entries");
        if skipped > 0 {
            m.push_str(&format!("; {skipped} instances not certified"));
        }
        if !refs.is_empty() {
            let r: Vec<&str> = refs.iter().map(String::as_str).collect();
            m.push_str(&format!("; sinks rest on {}", r.join(", ")));
        }
        (m + ")", refs)
    });
    (cert.spec, r)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let write = args.iter().any(|a| a == "--write");
    let dirs: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
    let [dir] = dirs.as_slice() else {
        eprintln!("usage: grundy-verify DIR [--write]   (DIR: output/certificates)");
        return ExitCode::from(2);
    };
    let dir = Path::new(dir.as_str());
    let mut files: Vec<_> = match std::fs::read_dir(dir) {
        Ok(rd) => rd
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| {
                p.extension().is_some_and(|x| x == "json")
                    && p.file_name().is_some_and(|n| n != "VERIFIED.json")
            })
            .collect(),
        Err(e) => {
            eprintln!("error: cannot read {}: {e}", dir.display());
            return ExitCode::from(2);
        }
    };
    files.sort();
    let t0 = std::time::Instant::now();
    let mut results: Vec<Verdict> = std::thread::scope(|s| {
        let handles: Vec<_> = files
            .iter()
            .map(|f| s.spawn(move || verify_file(f)))
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| (String::new(), Err("the check panicked".into())))
            })
            .collect()
    });
    // A certificate resting on another spec's certificate verifies only if that one does
    // (references between diagrams are acyclic, so one pass per level settles them all).
    for _ in 0..results.len() {
        let ok: BTreeSet<String> = results
            .iter()
            .filter(|(_, r)| r.is_ok())
            .map(|(s, _)| s.clone())
            .collect();
        let mut changed = false;
        for (_, r) in results.iter_mut() {
            if let Ok((_, refs)) = r {
                if let Some(bad) = refs.iter().find(|x| !ok.contains(*x)) {
                    *r = Err(format!("a sink rests on the certificate of {bad}, which is missing or not verified"));
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    let results: Vec<(String, Result<String, String>)> = results
        .into_iter()
        .map(|(s, r)| (s, r.map(|(m, _)| m)))
        .collect();
    let mut record = BTreeMap::new();
    let mut failed = 0;
    for (spec, r) in &results {
        match r {
            Ok(m) => println!("{spec:<40} {m}"),
            Err(e) => {
                failed += 1;
                println!("{spec:<40} FAILED: {e}");
            }
        }
        record.insert(
            spec.clone(),
            r.clone().unwrap_or_else(|e| format!("FAILED: {e}")),
        );
    }
    println!(
        "{} certificates: {} verified, {failed} failed ({:.2} s)",
        results.len(),
        results.len() - failed,
        t0.elapsed().as_secs_f64()
    );
    if write {
        let text = serde_json::to_string_pretty(&record).expect("strings serialise") + "\n";
        if let Err(e) = std::fs::write(dir.join("VERIFIED.json"), text) {
            eprintln!("error: cannot write VERIFIED.json: {e}");
            return ExitCode::from(2);
        }
    }
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
