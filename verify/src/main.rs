//! `grundy-verify DIR [--specs SPECS] [--report REPORT] [--write] [--allow-unverified] [--coq COQDIR]`:
//! re-checks every certificate `DIR/*.json` written by `grundy build` against the spec it
//! belongs to, with code that shares nothing with grundy (see verify/README.md).
//!
//! Per certificate: the spec is found in SPECS (default `specs/`) by id and its bytes' sha256
//! must be the one the certificate records; the certificate's evidence is checked entry by
//! entry ([`checks`]); the spec's claim is re-derived from the spec ([`derive`]) and must be
//! what the evidence establishes. Per spec one verdict: "verified (claim re-derived): N of M
//! instances", "evidence checked, claim not re-derived: why", "not certified: why" or
//! "REJECTED: why". Exit 2 on bad input; 1 if a certificate is rejected, or if a spec grundy
//! reports as holding (REPORT, default DIR/../report.json) is not fully verified — unless
//! `--allow-unverified`, which still lists and counts them; 0 otherwise. `--write` records the
//! verdicts and their counts, deterministically, in `DIR/VERIFIED.json`. `--coq COQDIR` writes
//! the accepted nim-value tables as Coq files ([`coq`], docs/formal.md).
//!
//! Games and closures defined in specs (`kind: game`, docs/user-games.md) are read from SPECS
//! first ([`user`]); each such spec gets its own line ("defines …", or "REJECTED" when it does
//! not load), and certificates name its game or closure by name and sha256.

// Index loops mirror the definitions (for u, v, w in V …); iterator chains would hide them.
#![allow(clippy::needless_range_loop)]

mod checks;
mod closure;
mod closures;
mod coq;
mod derive;
mod diagram_search;
mod enumerate;
mod exempt;
mod features;
mod figures;
mod formula;
mod games;
mod graph_closure;
mod groups;
mod io;
mod multipartite;
mod named;
mod names;
mod plays;
mod posets;
mod predicate;
mod quotients;
mod refute;
mod sets;
mod signatures;
mod solve;
mod spec;
mod structures;
mod tables;
mod trail;
mod user;

use io::{errln, outln};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Most certificate files read, and the largest one.
const MAX_FILES: usize = 100_000;
const MAX_FILE_BYTES: u64 = 256 << 20;
/// Largest report.json read (grundy's own bound on it).
const MAX_REPORT_BYTES: u64 = 256 << 20;
/// Worker threads (a bounded pool, whatever the number of files).
const MAX_THREADS: usize = 8;

/// What became of one certificate file.
enum Outcome {
    Rejected(String),
    /// A refutation re-derived: what fails, and its companion spec: an erratum's correction
    /// (`corrected_by`) or a reading's (`read_as`).
    Refuted {
        entries: u64,
        why: String,
        companion: Option<(&'static str, String)>,
    },
    Checked {
        entries: u64,
        refs: BTreeSet<String>,
        /// `Ok((certified, total, of them solved by the verifier itself))`, or why the claim
        /// is not re-derived.
        derived: Result<(usize, usize, usize), String>,
        /// With `--coq`: the Coq file of the certificate (its claim re-derived).
        coq: Option<coq::Export>,
        /// Games defined in specs whose declared sum law the check used, with the number of
        /// options it was checked at ([`user::take_laws`]).
        laws: BTreeMap<String, u64>,
        /// Games defined in specs played misère whose rules the check used
        /// ([`user::take_misere`]).
        misere: BTreeSet<String>,
    },
}

fn verify_file(
    path: &Path,
    specs: &BTreeMap<String, spec::SpecFile>,
    to_coq: bool,
) -> (String, Outcome) {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let reject = |m: String| (stem.clone(), Outcome::Rejected(m));
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.is_file() => {}
        Ok(_) => return reject("not a regular file (a symlink or special file)".into()),
        Err(e) => return reject(format!("cannot read: {e}")),
    }
    let text = match io::read_regular_text(path, MAX_FILE_BYTES) {
        Ok(t) => t,
        Err(e) => return reject(e),
    };
    let cert: checks::Certificate = match serde_json::from_str(&text) {
        Ok(c) => c,
        Err(e) => return reject(format!("not a certificate: {e}")),
    };
    // The certificate is bound to its spec: by name, then by the spec's bytes.
    if cert.spec != stem {
        return reject(format!(
            "the file {stem}.json holds a certificate for spec {}",
            cert.spec
        ));
    }
    let Some(sf) = specs.get(&cert.spec) else {
        return reject(format!("no spec {} in the specs folder", cert.spec));
    };
    match &cert.spec_sha256 {
        None => return reject("the certificate records no spec_sha256".into()),
        Some(h) if *h != sf.sha256 => {
            return reject(format!(
                "the certificate was made from other spec bytes (sha256 {h}) than {} (sha256 {})",
                sf.path.display(),
                sf.sha256
            ))
        }
        Some(_) => {}
    }
    // Relative `file:` graphs of the spec are read from its folder, as grundy reads them.
    user::take_laws();
    user::take_misere();
    let (id, mut outcome) = named::in_folder(sf.path.parent(), || verify_bound(&cert, sf, to_coq));
    let used = user::take_laws();
    let played = user::take_misere();
    match &mut outcome {
        Outcome::Checked { laws, misere, .. } => {
            *laws = used;
            *misere = played;
        }
        Outcome::Refuted { why, .. } => {
            if !used.is_empty() {
                why.push_str(&format!(" ({})", rests_on_laws(&used)))
            }
            if !played.is_empty() {
                why.push_str(&format!(" ({})", played_misere(&played)))
            }
        }
        _ => {}
    }
    (id, outcome)
}

/// What a verdict rests on beyond the rules: the sum laws game specs declare, checked at every
/// option split by them, and proved at none beyond (docs/user-games.md, "Declared laws").
fn rests_on_laws(laws: &BTreeMap<String, u64>) -> String {
    let each: Vec<String> = laws
        .iter()
        .map(|(name, n)| {
            format!("{name}'s declared sum law, checked at the {n} options split by it")
        })
        .collect();
    format!("rests on {}", each.join(" and "))
}

/// The games played misère a verdict is about, as its line says: solved by the verifier as
/// the normal-play transform (docs/user-games.md, "Misère play").
fn played_misere(games: &BTreeSet<String>) -> String {
    let names: Vec<&str> = games.iter().map(String::as_str).collect();
    format!(
        "{} played misère: outcomes of the rule with one move from every terminal position to a fresh terminal ⊥",
        names.join(", ")
    )
}

/// The certificate bound to its spec file: its evidence checked and its claim re-derived.
fn verify_bound(
    cert: &checks::Certificate,
    sf: &spec::SpecFile,
    to_coq: bool,
) -> (String, Outcome) {
    let reject = |m: String| (cert.spec.clone(), Outcome::Rejected(m));
    let (entries, evidence, refs) = match checks::check(cert) {
        Ok(x) => x,
        Err(e) => return reject(e),
    };
    let raw = match spec::parse(&sf.text) {
        Ok(r) => r,
        Err(e) => return reject(e),
    };
    // Every game the spec names is played under its `closure:`.
    let Some(kind) = closures::Kind::parse(raw.closure.as_deref()) else {
        return (
            cert.spec.clone(),
            Outcome::Checked {
                entries,
                refs,
                derived: Err(format!(
                    "the closure {} is not one the verifier knows",
                    raw.closure.as_deref().unwrap_or_default()
                )),
                coq: None,
                laws: BTreeMap::new(),
                misere: BTreeSet::new(),
            },
        );
    };
    closures::in_spec_closure(kind, || {
        derive_bound(cert, &raw, entries, evidence, refs, to_coq)
    })
}

/// [`verify_bound`] past the evidence check, under the spec's closure.
fn derive_bound(
    cert: &checks::Certificate,
    raw: &spec::Raw,
    entries: u64,
    evidence: checks::Evidence,
    refs: BTreeSet<String>,
    to_coq: bool,
) -> (String, Outcome) {
    let reject = |m: String| (cert.spec.clone(), Outcome::Rejected(m));
    if let checks::Evidence::Refuted(instance, inner) = &evidence {
        return match refute::derive(raw, instance, inner)
            .and_then(|why| exempt::check(raw, cert, &evidence).map(|_| why))
        {
            Ok(why) => (
                cert.spec.clone(),
                Outcome::Refuted {
                    entries,
                    why,
                    companion: raw
                        .corrected_by
                        .clone()
                        .map(|c| ("corrected by", c))
                        .or_else(|| raw.read_as.clone().map(|c| ("read as", c))),
                },
            ),
            Err(derive::Stop::Reject(why)) => reject(why),
            Err(derive::Stop::Not(why)) => (
                cert.spec.clone(),
                Outcome::Checked {
                    entries,
                    refs,
                    derived: Err(why),
                    coq: None,
                    laws: BTreeMap::new(),
                    misere: BTreeSet::new(),
                },
            ),
        };
    }
    // Every exemption confirmed or verified by the verifier itself (exempt.rs).
    let derived = match derive::derive(raw, cert, &evidence)
        .and_then(|r| Ok((r, exempt::check(raw, cert, &evidence)?)))
    {
        Ok((r, own)) => Ok((r.certified + own, r.total, own)),
        Err(derive::Stop::Not(why)) => Err(why),
        Err(derive::Stop::Reject(why)) => return reject(why),
    };
    let coq = (to_coq && derived.is_ok()).then(|| coq::export(cert));
    (
        cert.spec.clone(),
        Outcome::Checked {
            entries,
            refs,
            derived,
            coq,
            laws: BTreeMap::new(),
            misere: BTreeSet::new(),
        },
    )
}

/// The Coq exports of the certificates that stand (not rejected), by spec.
fn by_spec_exports(by_spec: &BTreeMap<String, Outcome>) -> Vec<&coq::Export> {
    by_spec
        .values()
        .filter_map(|o| match o {
            Outcome::Checked { coq, .. } => coq.as_ref(),
            Outcome::Rejected(_) | Outcome::Refuted { .. } => None,
        })
        .collect()
}

/// Grundy's verdict and certificate status per spec, from its report.json.
fn grundy_report(path: &Path) -> Result<BTreeMap<String, (String, String)>, String> {
    let text = io::read_regular_text(path, MAX_REPORT_BYTES)?;
    let v: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{}: not JSON: {e}", path.display()))?;
    let reports = v
        .get("reports")
        .and_then(|r| r.as_array())
        .ok_or_else(|| format!("{}: no `reports` list", path.display()))?;
    let field = |r: &serde_json::Value, k: &str| {
        r.get(k)
            .and_then(|x| x.as_str())
            .unwrap_or_default()
            .to_string()
    };
    Ok(reports
        .iter()
        .map(|r| {
            (
                field(r, "id"),
                (field(r, "verdict"), field(r, "certificate")),
            )
        })
        .collect())
}

struct Args {
    dir: PathBuf,
    specs: PathBuf,
    report: Option<PathBuf>,
    write: bool,
    allow_unverified: bool,
    coq: Option<PathBuf>,
}

fn args() -> Result<Args, String> {
    let mut it = std::env::args().skip(1);
    let (mut dir, mut specs, mut report, mut coq) = (None, None, None, None);
    let (mut write, mut allow_unverified) = (false, false);
    while let Some(a) = it.next() {
        match a.as_str() {
            "--write" => write = true,
            "--allow-unverified" => allow_unverified = true,
            "--specs" => specs = Some(it.next().ok_or("--specs needs a folder")?),
            "--report" => report = Some(it.next().ok_or("--report needs a file")?),
            "--coq" => coq = Some(PathBuf::from(it.next().ok_or("--coq needs a folder")?)),
            s if s.starts_with("--") => return Err(format!("unknown option {s}")),
            _ if dir.is_some() => return Err("one certificates folder only".into()),
            _ => dir = Some(a),
        }
    }
    let dir = PathBuf::from(dir.ok_or("no certificates folder given")?);
    Ok(Args {
        report: report.map(PathBuf::from).or_else(|| {
            // Whatever is there is read (and a FIFO or a device refused), not only what
            // `exists()` follows to.
            let r = dir.parent()?.join("report.json");
            std::fs::symlink_metadata(&r).is_ok().then_some(r)
        }),
        dir,
        specs: PathBuf::from(specs.unwrap_or_else(|| "specs".into())),
        write,
        allow_unverified,
        coq,
    })
}

fn main() -> ExitCode {
    let a = match args() {
        Ok(a) => a,
        Err(e) => {
            errln!("error: {e}");
            errln!("usage: grundy-verify DIR [--specs SPECS] [--report REPORT.json] [--write] [--allow-unverified] [--coq COQDIR]   (DIR: output/certificates)");
            return ExitCode::from(2);
        }
    };
    let specs = match spec::index(&a.specs) {
        Ok(s) if !s.is_empty() => s,
        Ok(_) => {
            errln!("error: no specs (*.yaml) in {}", a.specs.display());
            return ExitCode::from(2);
        }
        Err(e) => {
            errln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    // The games and closures the game specs define, before any certificate names one.
    user::load(&specs);
    let grundy = match &a.report {
        Some(r) => match grundy_report(r) {
            Ok(g) => g,
            Err(e) => {
                errln!("error: {e}");
                return ExitCode::from(2);
            }
        },
        None => BTreeMap::new(),
    };
    // Rendered tables are read from the output folder the certificates sit in.
    let _ = tables::OUTPUT_ROOT.set(a.dir.parent().map(Path::to_path_buf).unwrap_or_default());
    let mut files: Vec<PathBuf> = match std::fs::read_dir(&a.dir) {
        Ok(rd) => rd
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| {
                p.extension().is_some_and(|x| x == "json")
                    && p.file_name().is_some_and(|n| n != "VERIFIED.json")
            })
            .take(MAX_FILES + 1)
            .collect(),
        Err(e) => {
            errln!("error: cannot read {}: {e}", a.dir.display());
            return ExitCode::from(2);
        }
    };
    if files.len() > MAX_FILES {
        errln!("error: more than {MAX_FILES} certificate files");
        return ExitCode::from(2);
    }
    if files.is_empty() {
        errln!("error: no certificates (*.json) in {}", a.dir.display());
        return ExitCode::from(2);
    }
    files.sort();
    let t0 = std::time::Instant::now();
    // A bounded pool: each worker takes the next file; results land in file order.
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<(String, Outcome)>>> =
        Mutex::new((0..files.len()).map(|_| None).collect());
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(MAX_THREADS)
        .min(files.len());
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(f) = files.get(i) else { break };
                let r = std::panic::catch_unwind(|| verify_file(f, &specs, a.coq.is_some()))
                    .unwrap_or_else(|_| {
                        let stem = f
                            .file_stem()
                            .unwrap_or_default()
                            .to_string_lossy()
                            .into_owned();
                        (stem, Outcome::Rejected("the check panicked".into()))
                    });
                results.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(r);
            });
        }
    });
    let mut by_spec: BTreeMap<String, Outcome> = BTreeMap::new();
    for (spec, o) in results
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .flatten()
    {
        by_spec.insert(spec, o);
    }
    // A certificate resting on another spec's certificate verifies only if that one is not
    // rejected (references between diagrams are acyclic, so one pass per level settles them).
    for _ in 0..by_spec.len() {
        let ok: BTreeSet<String> = by_spec
            .iter()
            .filter(|(_, o)| matches!(o, Outcome::Checked { .. }))
            .map(|(s, _)| s.clone())
            .collect();
        let mut changed = false;
        for o in by_spec.values_mut() {
            if let Outcome::Checked { refs, .. } = o {
                if let Some(bad) = refs.iter().find(|x| !ok.contains(*x)) {
                    *o = Outcome::Rejected(format!(
                        "a sink rests on the certificate of {bad}, which is missing or rejected"
                    ));
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    // One verdict per spec: every spec of the folder, and any certificate of an unknown spec.
    let ids: BTreeSet<String> = specs.keys().chain(by_spec.keys()).cloned().collect();
    let mut record = BTreeMap::new();
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    let mut unverified_holding = Vec::new();
    let mut rejected = 0;
    for id in &ids {
        let (verdict, status) = grundy.get(id).cloned().unwrap_or_default();
        let holds = verdict == "holds";
        let (class, line) = match by_spec.get(id) {
            Some(Outcome::Rejected(why)) => {
                rejected += 1;
                ("rejected", format!("REJECTED: {why}"))
            }
            Some(Outcome::Refuted { entries, why, .. }) => (
                "refuted",
                format!("refuted (re-derived): {why} ({entries} entries)"),
            ),
            Some(Outcome::Checked {
                entries,
                refs,
                derived,
                laws,
                misere,
                ..
            }) => {
                let mut rests = if refs.is_empty() {
                    String::new()
                } else {
                    let r: Vec<&str> = refs.iter().map(String::as_str).collect();
                    format!("; sinks rest on {}", r.join(", "))
                };
                if !laws.is_empty() {
                    rests.push_str(&format!("; {}", rests_on_laws(laws)));
                }
                if !misere.is_empty() {
                    rests.push_str(&format!("; {}", played_misere(misere)));
                }
                if let Ok((_, _, own @ 1..)) = derived {
                    rests.push_str(&format!("; {own} solved by the verifier itself"));
                }
                match derived {
                    Ok((n, m, _)) if n == m => (
                        "verified",
                        format!("verified (claim re-derived): {n} of {m} instances ({entries} entries{rests})"),
                    ),
                    Ok((n, m, _)) => (
                        "partly verified",
                        format!("verified (claim re-derived): {n} of {m} instances ({entries} entries; {} not certified{rests})", m - n),
                    ),
                    Err(why) => (
                        "evidence checked",
                        format!("evidence checked, claim not re-derived: {why} ({entries} entries{rests})"),
                    ),
                }
            }
            // A game spec claims nothing: it defines a game or a closure other specs name.
            None if user::game_specs().contains_key(id) => match &user::game_specs()[id] {
                Ok(what) => (
                    "game definition",
                    format!("defines {what}: its rules compiled by the verifier's interpreter"),
                ),
                Err(why) => {
                    rejected += 1;
                    (
                        "rejected",
                        format!("REJECTED: the game spec does not load: {why}"),
                    )
                }
            },
            None if status.starts_with("certificate written") => (
                "missing",
                "not certified: the certificate grundy reports writing is missing".to_string(),
            ),
            // A spec with no certificate at all: grundy's reason must be one the verifier
            // recounts from the spec (issue 43 item 5).
            None if status.starts_with("not certified: ") => {
                let why = &status["not certified: ".len()..];
                let confirmed = specs
                    .get(id)
                    .ok_or_else(|| "the spec is not under --specs".to_string())
                    .and_then(|s| exempt::report_level(&s.text, why));
                match confirmed {
                    Ok(()) => ("not certified", format!("not certified: {why}")),
                    Err(e) => {
                        rejected += 1;
                        ("rejected", format!("REJECTED: listed as not certified (\"{why}\"), which the verifier does not confirm: {e}"))
                    }
                }
            }
            None => {
                let why = status
                    .strip_prefix("not certified: ")
                    .map(String::from)
                    .unwrap_or_else(|| {
                        if verdict.is_empty() {
                            "no certificate (and no verdict of grundy's)".into()
                        } else {
                            "no certificate".into()
                        }
                    });
                ("not certified", format!("not certified: {why}"))
            }
        };
        if holds && class != "verified" && class != "game definition" {
            unverified_holding.push(id.clone());
        }
        *counts.entry(class).or_default() += 1;
        record.insert(id.clone(), line);
    }
    // An erratum pair reads as one: the printed claim refuted, with its correction's verdict
    // (and a reading with the spec that reads it otherwise).
    for (id, o) in &by_spec {
        if let Outcome::Refuted {
            companion: Some((how, c)),
            ..
        } = o
        {
            let fix = record
                .get(c)
                .cloned()
                .unwrap_or_else(|| "not in the specs folder".into());
            if let Some(l) = record.get_mut(id) {
                l.push_str(&format!("; {how} {c}: {fix}"));
            }
            if let Some(l) = record.get_mut(c) {
                let rel = if *how == "read as" {
                    "the other reading of"
                } else {
                    "corrects"
                };
                l.push_str(&format!("; {rel} {id} (refuted, re-derived)"));
            }
        }
    }
    for (id, line) in &record {
        outln!("{id:<40} {line}");
    }
    let shown: Vec<String> = counts.iter().map(|(k, v)| format!("{v} {k}")).collect();
    outln!(
        "{} specs: {} ({:.2} s)",
        ids.len(),
        shown.join(", "),
        t0.elapsed().as_secs_f64()
    );
    if !unverified_holding.is_empty() {
        outln!(
            "{} specs grundy reports as holding are not fully verified{}",
            unverified_holding.len(),
            if a.allow_unverified {
                " (allowed by --allow-unverified)"
            } else {
                " (exit 1; --allow-unverified lists them and exits 0)"
            }
        );
    }
    if let Some(dir) = &a.coq {
        if let Err(e) = coq::write_all(dir, &by_spec_exports(&by_spec)) {
            errln!("error: {e}");
            return ExitCode::from(2);
        }
    }
    if a.write {
        let doc = serde_json::json!({
            "counts": counts,
            "holding_not_fully_verified": unverified_holding.len(),
            "specs": record,
        });
        let text = serde_json::to_string_pretty(&doc).expect("strings serialise") + "\n";
        if let Err(e) = std::fs::write(a.dir.join("VERIFIED.json"), text) {
            errln!("error: cannot write VERIFIED.json: {e}");
            return ExitCode::from(2);
        }
    }
    if rejected > 0 || (!unverified_holding.is_empty() && !a.allow_unverified) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
