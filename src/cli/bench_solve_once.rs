//! `grundy bench --solve-once DIR`: what solving each instance once saves (issue 41 item 5),
//! measured in one run. The claim and reduction specs under DIR are checked and certified
//! twice: as `grundy build` does (the check keeps the games it parsed, their memos and the
//! starts' tables, and the certificate is written from them), and with nothing kept (the
//! certificate parses and solves every instance again, as before issue 41). It prints the
//! positions each way solves, the CPU seconds (user + system, all threads; each way run twice,
//! the mean) and their ratios,
//! and fails when the two ways write different certificate bytes.

use super::bench::cpu_seconds;
use crate::check::kind::Context;
use crate::pipeline::{certificates, check_all, load, resolve};
use crate::term::{errln, outln};
use std::path::PathBuf;
use std::process::ExitCode;

pub fn run(dir: PathBuf, json: bool) -> ExitCode {
    let (specs, errors) = load(std::slice::from_ref(&dir));
    if let Some(e) = errors.first() {
        errln!("error: {} cannot be read: {e}", dir.display());
        return ExitCode::from(2);
    }
    // The kinds whose check keeps what its certificate needs; the long tier is left out, as
    // the build leaves it out.
    let specs: Vec<_> = specs
        .into_iter()
        .filter(|s| matches!(s.kind(), "claim" | "reduction") && !s.header.long)
        .collect();
    let (resolved, errors) = resolve(specs);
    if let Some(e) = errors.first() {
        errln!("error: {e}");
        return ExitCode::from(2);
    }
    // Each way twice, in the order kept, again, again, kept: what the first run warms (lazy
    // tables, the allocator) is shared evenly between the two ways.
    let (mut once_pos, mut once_cpu, mut twice_pos, mut twice_cpu) = (0, 0.0, 0, 0.0);
    let mut once = Vec::new();
    let mut twice = Vec::new();
    for kept in [true, false, false, true] {
        let (p0, c0) = (crate::solve::positions_solved(), cpu_seconds());
        let bytes = if kept {
            kept_way(&resolved)
        } else {
            again_way(&resolved)
        };
        let (p1, c1) = (crate::solve::positions_solved(), cpu_seconds());
        if kept {
            once_pos += p1 - p0;
            once_cpu += c1 - c0;
            once = bytes;
        } else {
            twice_pos += p1 - p0;
            twice_cpu += c1 - c0;
            twice = bytes;
        }
    }
    let (once_pos, twice_pos) = (once_pos / 2, twice_pos / 2);
    let (once_cpu, twice_cpu) = (once_cpu / 2.0, twice_cpu / 2.0);
    let differ: Vec<&str> = resolved
        .specs
        .iter()
        .zip(once.iter().zip(&twice))
        .filter(|(_, (a, b))| a != b)
        .map(|(s, _)| s.id())
        .collect();
    let certified = once.iter().filter(|b| b.is_some()).count();
    if json {
        outln!(
            "{}",
            serde_json::json!({"bench": "solve-once", "specs": resolved.specs.len(), "certified": certified,
                "positions_kept": once_pos, "positions_not_kept": twice_pos,
                "cpu_seconds_kept": once_cpu, "cpu_seconds_not_kept": twice_cpu,
                "cpu_ratio": once_cpu / twice_cpu.max(1e-9), "threads": rayon::current_num_threads(),
                "certificates_differ": differ})
        );
    } else {
        outln!(
            "solve once: {} claim and reduction specs, {certified} certificates, {} threads",
            resolved.specs.len(),
            rayon::current_num_threads()
        );
        outln!("{:<24} {:>14} {:>12}", "", "positions", "CPU s");
        outln!(
            "{:<24} {:>14} {:>12.2}",
            "kept (the build)",
            once_pos,
            once_cpu
        );
        outln!(
            "{:<24} {:>14} {:>12.2}",
            "solved again",
            twice_pos,
            twice_cpu
        );
        outln!(
            "{:<24} {:>14.3} {:>12.3}",
            "ratio kept / again",
            once_pos as f64 / (twice_pos as f64).max(1.0),
            once_cpu / twice_cpu.max(1e-9)
        );
    }
    if differ.is_empty() {
        ExitCode::SUCCESS
    } else {
        errln!(
            "error: the certificates differ between the two ways: {}",
            differ.join(", ")
        );
        ExitCode::from(1)
    }
}

/// The build's way: each check keeps what its certificate is written from.
fn kept_way(resolved: &crate::pipeline::Resolved) -> Vec<Option<Vec<u8>>> {
    check_all(resolved, true)
        .iter()
        .map(|r| {
            r.as_ref().ok().and_then(|c| {
                c.certificate
                    .as_ref()
                    .and_then(|m| m.as_ref().as_ref().ok().map(|m| m.bytes.clone()))
            })
        })
        .collect()
}

/// Nothing kept: each certificate parses and solves its instances again.
fn again_way(resolved: &crate::pipeline::Resolved) -> Vec<Option<Vec<u8>>> {
    let ctx = Context::default();
    check_all(resolved, false)
        .iter()
        .zip(&resolved.specs)
        .map(|(r, s)| {
            r.as_ref()
                .ok()
                .and_then(|c| certificates::make(s, c, &ctx).ok().map(|m| m.bytes))
        })
        .collect()
}
