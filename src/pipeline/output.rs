//! Writing `output/` as one transaction that `grundy build` owns through a manifest.
//!
//! - Every path is validated before anything is written: relative, no `..`, names a file
//!   system accepts, no collision with a file grundy does not own (one not in the manifest of
//!   the previous build, or the recorded long runs under `scale/`), and no symlink anywhere
//!   between `output/` and the file (a link could lead the write outside `output/`).
//! - New contents go to temporary files next to their targets (a failure there removes them
//!   and leaves `output/` as it was). A journal then lists the renames and removals, they are
//!   carried out, the new manifest is written and the journal removed. A build killed between
//!   the renames is completed by the next build before it does anything else, and temporary
//!   files of an interrupted run are removed, so `output/` is never left half-updated.
//! - Files of the previous build that the new one does not write (a removed spec) are
//!   removed. Files are created with the process's umask (0644 normally).

use crate::check::Report;
use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Component, Path, PathBuf};
use thiserror::Error;

/// The list of files the last build wrote, relative to `output/`, one per line.
pub const MANIFEST: &str = ".grundy-manifest";
const JOURNAL: &str = ".grundy-journal";
const TMP_PREFIX: &str = ".grundy-tmp-";
const LOCK: &str = ".grundy-lock";
/// Recorded results of long runs: written by hand-started commands, never by `build`.
pub const RECORDED: &str = "scale";

#[derive(Debug, Error)]
pub enum OutputError {
    #[error("output path `{path}`: {why}")]
    BadPath { path: String, why: String },
    #[error("{path} is a symbolic link: grundy does not write through links (output must stay inside {root})")]
    Symlink { path: String, root: String },
    #[error("cannot write {path}: {why}")]
    Io { path: String, why: String },
}

fn io(path: &Path, e: std::io::Error) -> OutputError {
    OutputError::Io {
        path: path.display().to_string(),
        why: e.to_string(),
    }
}

/// Checks one artifact path before anything is written.
pub fn validate(path: &Path) -> Result<(), OutputError> {
    let bad = |why: &str| OutputError::BadPath {
        path: path.display().to_string(),
        why: why.to_string(),
    };
    let text = path.to_str().ok_or_else(|| bad("not UTF-8"))?;
    if text.is_empty() || text.len() > 1024 {
        return Err(bad("empty, or longer than 1024 bytes"));
    }
    for c in path.components() {
        match c {
            Component::Normal(n) => {
                let n = n.to_str().unwrap_or("");
                if n.len() > 200 {
                    return Err(bad("a name longer than 200 bytes"));
                }
                if n.starts_with(".grundy-") {
                    return Err(bad("names starting with .grundy- are grundy's own"));
                }
                if !n.chars().all(crate::render::escape::is_path_char) {
                    return Err(bad(
                        "names use only letters, digits, `_`, `.` and `-` (paths appear in \\input{…} and links)",
                    ));
                }
            }
            _ => return Err(bad("must be relative and stay inside output/ (no `..`)")),
        }
    }
    if path
        .components()
        .next()
        .and_then(|c| c.as_os_str().to_str())
        == Some(RECORDED)
    {
        return Err(bad(
            "output/scale/ holds recorded long runs, which build never overwrites",
        ));
    }
    Ok(())
}

/// Refuses a path under `root` that passes through a symbolic link (or is one).
fn no_links(root: &Path, rel: &Path) -> Result<(), OutputError> {
    let mut p = root.to_path_buf();
    let check = |p: &Path| match std::fs::symlink_metadata(p) {
        Ok(m) if m.file_type().is_symlink() => Err(OutputError::Symlink {
            path: p.display().to_string(),
            root: root.display().to_string(),
        }),
        _ => Ok(()),
    };
    check(&p)?;
    for c in rel.components() {
        p.push(c);
        check(&p)?;
    }
    Ok(())
}

fn read_manifest(root: &Path) -> BTreeSet<PathBuf> {
    std::fs::read_to_string(root.join(MANIFEST))
        .map(|t| {
            t.lines()
                .filter(|l| !l.is_empty())
                .map(PathBuf::from)
                .filter(|p| validate(p).is_ok())
                .collect()
        })
        .unwrap_or_default()
}

/// Writes `bytes` to a new temporary file in `dir` and returns its path. The file gets the
/// process's umask, unlike the 0600 of a securely created temporary file: artifacts are meant
/// to be read by others.
fn write_tmp(dir: &Path, n: usize, bytes: &[u8]) -> Result<PathBuf, OutputError> {
    let tmp = dir.join(format!("{TMP_PREFIX}{}-{n}", std::process::id()));
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&tmp)
        .map_err(|e| io(&tmp, e))?;
    f.write_all(bytes).map_err(|e| io(&tmp, e))?;
    f.sync_all().map_err(|e| io(&tmp, e))?;
    Ok(tmp)
}

/// Holds an exclusive lock on `output/` for one build (released when dropped), so that two
/// builds at once do not take each other's temporary files for leftovers.
fn lock(root: &Path) -> Result<std::fs::File, OutputError> {
    use std::os::unix::io::AsRawFd;
    let p = root.join(LOCK);
    let f = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&p)
        .map_err(|e| io(&p, e))?;
    // SAFETY: flock on a file descriptor we own; it has no memory effects.
    if unsafe { libc::flock(f.as_raw_fd(), libc::LOCK_EX) } != 0 {
        return Err(io(&p, std::io::Error::last_os_error()));
    }
    Ok(f)
}

/// Finishes a build that was interrupted between its renames, and removes temporary files
/// of interrupted runs (ours, and the `.tmp` + six-character files of earlier versions).
fn recover(root: &Path) -> Result<(), OutputError> {
    let journal = root.join(JOURNAL);
    if let Ok(text) = std::fs::read_to_string(&journal) {
        for line in text.lines() {
            let mut f = line.split('\t');
            match (f.next(), f.next(), f.next()) {
                (Some("rename"), Some(a), Some(b)) => {
                    let (a, b) = (root.join(a), root.join(b));
                    if a.exists() {
                        std::fs::rename(&a, &b).map_err(|e| io(&b, e))?;
                    }
                }
                (Some("remove"), Some(a), None) => {
                    let _ = std::fs::remove_file(root.join(a));
                }
                (Some("manifest"), Some(a), None) => {
                    let a = root.join(a);
                    if a.exists() {
                        std::fs::rename(&a, root.join(MANIFEST)).map_err(|e| io(&a, e))?;
                    }
                }
                _ => {}
            }
        }
        std::fs::remove_file(&journal).map_err(|e| io(&journal, e))?;
    }
    let mut stack = vec![root.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            let Ok(ft) = e.file_type() else { continue };
            let name = e.file_name().to_string_lossy().to_string();
            if ft.is_dir() {
                stack.push(p);
            } else if ft.is_file()
                && (name.starts_with(TMP_PREFIX) || (name.starts_with(".tmp") && name.len() == 10))
            {
                let _ = std::fs::remove_file(&p);
            }
        }
    }
    Ok(())
}

/// Writes `files` (paths relative to `root`) as one transaction. Files of the previous build
/// that are neither written now nor listed in `keep` are removed.
pub fn commit(
    root: &Path,
    files: Vec<(PathBuf, Vec<u8>)>,
    keep: &[PathBuf],
) -> Result<(), OutputError> {
    // 1. Validate everything first.
    let mut seen = BTreeSet::new();
    for (p, _) in &files {
        validate(p)?;
        if !seen.insert(p.clone()) {
            return Err(OutputError::BadPath {
                path: p.display().to_string(),
                why: "written twice in one build".into(),
            });
        }
    }
    no_links(root, Path::new(""))?;
    std::fs::create_dir_all(root).map_err(|e| io(root, e))?;
    no_links(root, Path::new(""))?;
    let _lock = lock(root)?;
    recover(root)?;
    let old = read_manifest(root);
    let had_manifest = root.join(MANIFEST).exists();
    for (p, _) in &files {
        no_links(root, p)?;
        let target = root.join(p);
        if had_manifest && target.exists() && !old.contains(p) {
            return Err(OutputError::BadPath {
                path: p.display().to_string(),
                why: "a file grundy did not write is in the way (not in output/.grundy-manifest); move it away".into(),
            });
        }
        if target.is_dir() {
            return Err(OutputError::BadPath {
                path: p.display().to_string(),
                why: "a directory is in the way".into(),
            });
        }
    }
    // 2. Temporary files next to their targets; on failure, remove them again.
    let mut renames: Vec<(PathBuf, PathBuf)> = Vec::new();
    let mut staged = || -> Result<(), OutputError> {
        for (n, (p, bytes)) in files.iter().enumerate() {
            let target = root.join(p);
            if std::fs::read(&target).is_ok_and(|b| b == *bytes) {
                continue;
            }
            let dir = target.parent().unwrap_or(root).to_path_buf();
            // Create missing folders one by one, refusing links on the way.
            let rel_dir = p.parent().unwrap_or(Path::new(""));
            let mut d = root.to_path_buf();
            for c in rel_dir.components() {
                d.push(c);
                if !d.exists() {
                    std::fs::create_dir(&d).map_err(|e| io(&d, e))?;
                }
            }
            no_links(root, rel_dir)?;
            let tmp = write_tmp(&dir, n, bytes)?;
            renames.push((tmp, p.clone()));
        }
        Ok(())
    };
    if let Err(e) = staged() {
        for (t, _) in &renames {
            let _ = std::fs::remove_file(t);
        }
        return Err(e);
    }
    // 3. The journal, then the renames and removals it lists, then the manifest.
    let new: BTreeSet<PathBuf> = files.iter().map(|(p, _)| p.clone()).collect();
    let keep: BTreeSet<&PathBuf> = keep.iter().collect();
    let stale: Vec<&PathBuf> = old
        .iter()
        .filter(|p| !new.contains(*p) && !keep.contains(p))
        .collect();
    let mut listed: BTreeSet<PathBuf> = new.clone();
    listed.extend(
        keep.iter()
            .filter(|p| old.contains(**p))
            .map(|p| (*p).clone()),
    );
    let manifest_text: String = listed
        .iter()
        .map(|p| format!("{}\n", p.display()))
        .collect();
    let manifest_tmp = write_tmp(root, files.len(), manifest_text.as_bytes())?;
    let rel = |p: &Path| {
        p.strip_prefix(root)
            .unwrap_or(p)
            .to_string_lossy()
            .to_string()
    };
    let mut journal = String::new();
    for (t, p) in &renames {
        journal.push_str(&format!("rename\t{}\t{}\n", rel(t), p.display()));
    }
    for p in &stale {
        journal.push_str(&format!("remove\t{}\n", p.display()));
    }
    journal.push_str(&format!("manifest\t{}\n", rel(&manifest_tmp)));
    let jtmp = write_tmp(root, files.len() + 1, journal.as_bytes())?;
    let jpath = root.join(JOURNAL);
    std::fs::rename(&jtmp, &jpath).map_err(|e| io(&jpath, e))?;
    recover(root)
}

/// The reports of the previous build with their certificate status (for `--only`, which
/// rechecks one spec and keeps the entries of the others). Empty when there is no readable
/// report.
pub fn previous_reports(root: &Path) -> Vec<(Report, Option<String>)> {
    #[derive(serde::Deserialize)]
    struct Entry {
        #[serde(flatten)]
        report: Report,
        #[serde(default)]
        certificate: Option<String>,
    }
    #[derive(serde::Deserialize)]
    struct Previous {
        reports: Vec<Entry>,
    }
    std::fs::read_to_string(root.join("report.json"))
        .ok()
        .and_then(|t| serde_json::from_str::<Previous>(&t).ok())
        .map(|p| {
            p.reports
                .into_iter()
                .map(|e| (e.report, e.certificate))
                .collect()
        })
        .unwrap_or_default()
}
