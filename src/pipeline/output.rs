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
//! - Nothing outside `output/` is touched (issue 28): the journal is validated line by line
//!   before it is replayed (only renames of grundy's temporary files onto valid artifact
//!   paths in the same folder, removals of valid artifact paths), renames and removals go
//!   through folders opened one component at a time with `O_NOFOLLOW` (a symlinked folder is
//!   never followed), the lock is opened with `O_NOFOLLOW`, every file grundy reads here is
//!   a regular file of bounded size, and a folder without `.grundy-manifest` is written only
//!   when it is empty (it may hold the user's own files). A failed staging removes its
//!   temporary files and the folders it created.

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
    #[error("{path}:{line}: {why}; grundy did not write this journal: remove it after checking the folder")]
    Journal {
        path: String,
        line: usize,
        why: String,
    },
    #[error("{root} is not empty and has no {MANIFEST}, so grundy did not write it (it holds {first}): build into an empty or new folder (--output), or move those files away")]
    NotOwned { root: String, first: String },
}

/// Largest manifest or journal read (the real ones are a few tens of KiB).
const MAX_LIST_BYTES: u64 = 16 << 20;

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
    super::files::read_regular_text(&root.join(MANIFEST), MAX_LIST_BYTES)
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
    // A full disk fails here: the partial file goes, so no empty temporary file stays.
    if let Err(e) = f.write_all(bytes).and_then(|_| f.sync_all()) {
        let _ = std::fs::remove_file(&tmp);
        return Err(io(&tmp, e));
    }
    Ok(tmp)
}

/// Holds an exclusive lock on `output/` for one build (released when dropped), so that two
/// builds at once do not take each other's temporary files for leftovers.
fn lock(root: &Path) -> Result<std::fs::File, OutputError> {
    use std::os::unix::io::AsRawFd;
    let p = root.join(LOCK);
    let f = super::files::open_private(&p, false).map_err(|e| io(&p, e))?;
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
    if let Ok(m) = std::fs::symlink_metadata(&journal) {
        if m.file_type().is_symlink() {
            return Err(OutputError::Journal {
                path: journal.display().to_string(),
                line: 0,
                why: "a symbolic link".into(),
            });
        }
        let text = super::files::read_regular_text(&journal, MAX_LIST_BYTES)
            .map_err(|e| io(&journal, e))?;
        let steps = parse_journal(&text).map_err(|(line, why)| OutputError::Journal {
            path: journal.display().to_string(),
            line,
            why,
        })?;
        for step in steps {
            match step {
                Step::Rename(a, b) => match rename_in(root, &a, &b) {
                    Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                        return Err(io(&root.join(&b), e))
                    }
                    _ => {}
                },
                Step::Remove(a) => {
                    let _ = unlink_in(root, &a);
                }
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

enum Step {
    Rename(PathBuf, PathBuf),
    Remove(PathBuf),
}

/// Whether `p` is one of grundy's temporary files: `.grundy-tmp-…` inside a valid folder.
fn is_tmp(p: &Path) -> bool {
    let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let dir = p.parent().unwrap_or(Path::new(""));
    name.starts_with(TMP_PREFIX)
        && name[TMP_PREFIX.len()..]
            .chars()
            .all(|c| c.is_ascii_digit() || c == '-')
        && p.components().all(|c| matches!(c, Component::Normal(_)))
        && (dir.as_os_str().is_empty() || validate(dir).is_ok())
}

/// The journal's steps, each checked: a rename takes a temporary file onto a valid artifact
/// path in the same folder, a removal names a valid artifact path, the manifest step renames
/// a temporary file of `output/` onto the manifest. `Err((line, why))` otherwise.
fn parse_journal(text: &str) -> Result<Vec<Step>, (usize, String)> {
    let mut steps = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let bad = |why: &str| Err((i + 1, why.to_string()));
        let f: Vec<&str> = line.split('\t').collect();
        match f.as_slice() {
            ["rename", a, b] => {
                let (a, b) = (PathBuf::from(a), PathBuf::from(b));
                if !is_tmp(&a) || validate(&b).is_err() || a.parent() != b.parent() {
                    return bad(
                        "a rename that is not of a temporary file onto an artifact beside it",
                    );
                }
                steps.push(Step::Rename(a, b));
            }
            ["remove", a] => {
                let a = PathBuf::from(a);
                if validate(&a).is_err() {
                    return bad("a removal of a path outside output/ or not an artifact");
                }
                steps.push(Step::Remove(a));
            }
            ["manifest", a] => {
                let a = PathBuf::from(a);
                if !is_tmp(&a) || a.components().count() != 1 {
                    return bad("a manifest step that is not a temporary file of output/");
                }
                steps.push(Step::Rename(a, PathBuf::from(MANIFEST)));
            }
            _ => return bad("not a rename, remove or manifest step"),
        }
    }
    Ok(steps)
}

/// Opens folder `rel` of `root` one component at a time, never following a link (`O_NOFOLLOW`
/// on each step), so what is done inside stays inside `root`.
fn open_dir(root: &Path, rel: &Path) -> std::io::Result<std::os::fd::OwnedFd> {
    use std::ffi::CString;
    use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
    use std::os::unix::ffi::OsStrExt;
    let flags = libc::O_RDONLY | libc::O_DIRECTORY | libc::O_NOFOLLOW | libc::O_CLOEXEC;
    let c = |s: &std::ffi::OsStr| {
        CString::new(s.as_bytes())
            .map_err(|_| std::io::Error::from(std::io::ErrorKind::InvalidInput))
    };
    let root_c = c(root.as_os_str())?;
    // SAFETY: open/openat on NUL-terminated paths; the returned descriptors are owned here.
    let mut fd = unsafe {
        let r = libc::open(root_c.as_ptr(), flags);
        if r < 0 {
            return Err(std::io::Error::last_os_error());
        }
        OwnedFd::from_raw_fd(r)
    };
    for comp in rel.components() {
        let Component::Normal(n) = comp else {
            return Err(std::io::ErrorKind::InvalidInput.into());
        };
        let name = c(n)?;
        // SAFETY: as above; `fd` is a valid directory descriptor.
        fd = unsafe {
            let r = libc::openat(fd.as_raw_fd(), name.as_ptr(), flags);
            if r < 0 {
                return Err(std::io::Error::last_os_error());
            }
            OwnedFd::from_raw_fd(r)
        };
    }
    Ok(fd)
}

fn split(rel: &Path) -> std::io::Result<(&Path, std::ffi::CString)> {
    use std::os::unix::ffi::OsStrExt;
    let name = rel.file_name().ok_or(std::io::ErrorKind::InvalidInput)?;
    let name = std::ffi::CString::new(name.as_bytes())
        .map_err(|_| std::io::Error::from(std::io::ErrorKind::InvalidInput))?;
    Ok((rel.parent().unwrap_or(Path::new("")), name))
}

/// Removes `rel` under `root` without following links on the way (a link itself is removed,
/// never what it points to).
fn unlink_in(root: &Path, rel: &Path) -> std::io::Result<()> {
    use std::os::fd::AsRawFd;
    let (dir, name) = split(rel)?;
    let d = open_dir(root, dir)?;
    // SAFETY: unlinkat on a directory descriptor we own and a NUL-terminated name.
    if unsafe { libc::unlinkat(d.as_raw_fd(), name.as_ptr(), 0) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

/// Renames `a` to `b` under `root` (same folder or not) without following links on the way.
fn rename_in(root: &Path, a: &Path, b: &Path) -> std::io::Result<()> {
    use std::os::fd::AsRawFd;
    let ((da, na), (db, nb)) = (split(a)?, split(b)?);
    let (fa, fb) = (open_dir(root, da)?, open_dir(root, db)?);
    // SAFETY: renameat on directory descriptors we own and NUL-terminated names.
    if unsafe { libc::renameat(fa.as_raw_fd(), na.as_ptr(), fb.as_raw_fd(), nb.as_ptr()) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

/// Refuses to write into a folder grundy does not own: without a manifest, `root` may hold
/// only grundy's own files (`.grundy-*`) and the recorded long runs.
fn owned(root: &Path) -> Result<(), OutputError> {
    if root.join(MANIFEST).exists() {
        return Ok(());
    }
    let mut others: Vec<String> = std::fs::read_dir(root)
        .map_err(|e| io(root, e))?
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with(".grundy-") && n != RECORDED)
        .collect();
    others.sort();
    match others.first() {
        None => Ok(()),
        Some(first) => Err(OutputError::NotOwned {
            root: root.display().to_string(),
            first: if others.len() > 1 {
                format!("{first} and {} more", others.len() - 1)
            } else {
                first.clone()
            },
        }),
    }
}

/// Writes one recorded file `scale/<name>` under `root` atomically (a temporary file, then a
/// rename), with the build's guards: `root` must be new, empty or grundy's (its manifest), and
/// no symbolic link may lie on the way, so the write cannot land outside `output/`.
pub fn write_recorded(root: &Path, name: &str, bytes: &[u8]) -> Result<(), OutputError> {
    let rel = Path::new(RECORDED).join(name);
    if root.exists() {
        owned(root)?;
    }
    no_links(root, &rel)?;
    let path = root.join(&rel);
    crate::render::write_atomic(&path, bytes).map_err(|e| OutputError::Io {
        path: path.display().to_string(),
        why: e.to_string(),
    })?;
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
    owned(root)?;
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
        match std::fs::symlink_metadata(&target) {
            Ok(m) if !m.file_type().is_file() => {
                return Err(OutputError::BadPath {
                    path: p.display().to_string(),
                    why: "a directory, FIFO or device is in the way (not a regular file)".into(),
                })
            }
            _ => {}
        }
    }
    // 2. Temporary files next to their targets; on failure, remove them again.
    let mut renames: Vec<(PathBuf, PathBuf)> = Vec::new();
    let mut made_dirs: Vec<PathBuf> = Vec::new();
    let mut staged = || -> Result<(), OutputError> {
        for (n, (p, bytes)) in files.iter().enumerate() {
            let target = root.join(p);
            if super::files::read_regular(&target, bytes.len() as u64).is_ok_and(|b| b == *bytes) {
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
                    made_dirs.push(d.clone());
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
        // The folders this build created, deepest first (they are empty again).
        for d in made_dirs.iter().rev() {
            let _ = std::fs::remove_dir(d);
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
    let cleanup = |renames: &[(PathBuf, PathBuf)]| {
        for (t, _) in renames {
            let _ = std::fs::remove_file(t);
        }
        for d in made_dirs.iter().rev() {
            let _ = std::fs::remove_dir(d);
        }
    };
    let manifest_tmp = match write_tmp(root, files.len(), manifest_text.as_bytes()) {
        Ok(t) => t,
        Err(e) => {
            cleanup(&renames);
            return Err(e);
        }
    };
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
    let jtmp = match write_tmp(root, files.len() + 1, journal.as_bytes()) {
        Ok(t) => t,
        Err(e) => {
            let _ = std::fs::remove_file(&manifest_tmp);
            cleanup(&renames);
            return Err(e);
        }
    };
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
    super::files::read_regular_text(&root.join("report.json"), 256 << 20)
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
