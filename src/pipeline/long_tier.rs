//! The long tier's recorded results (docs/design.md §2, tiers; issue 47 item 5).
//!
//! The specs of `tier: long` take minutes (TER(W_40): 42 million positions), so the main job
//! leaves them out. `grundy build --long` checks them, records each one's report with the
//! sha256 of its spec file in `output/scale/long_tier.json` (the folder of recorded long runs,
//! which the build's transaction never owns), and then runs the main build. Every build shows
//! a recorded report in the index, the report and the site, marked as recorded, but only while
//! the spec file is byte for byte the one recorded; a spec changed since is listed as not run.
//!
//! The record holds no times and no paths outside the project, so CI's `grundy build --long`
//! writes it byte-identically unless a long-tier verdict changed, and the byte comparison of
//! `output/` then catches the change. Recorded reports are never certified: the verifier
//! re-checks the main job's certificates, and the long tier's would hold 42 million entries.

use super::output::{self, OutputError, RECORDED};
use super::{Run, Selection};
use crate::check::Report;
use crate::spec::Spec;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The record's file name under `output/scale/`.
pub const FILE: &str = "long_tier.json";
/// Largest record read (six specs take 10 KiB).
const MAX_BYTES: u64 = 16 << 20;

/// `output/scale/long_tier.json`.
#[derive(Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// The command that writes it, for a reader of the file.
    pub written_by: String,
    pub specs: Vec<Entry>,
}

/// One long-tier spec's report, bound to its spec file's bytes.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    pub id: String,
    pub sha256: String,
    pub report: Report,
}

impl Record {
    /// The record under `root` (the output folder); empty when there is none or it is not a
    /// record (a build never fails on it: the long tier is then listed as not run).
    pub fn read(root: &Path) -> Record {
        crate::files::read_regular_text(&root.join(RECORDED).join(FILE), MAX_BYTES)
            .ok()
            .and_then(|t| serde_json::from_str(&t).ok())
            .unwrap_or_default()
    }

    /// The recorded report of `spec`, if the record holds one for this very spec file.
    pub fn report_of(&self, spec: &Spec) -> Option<&Report> {
        self.specs
            .iter()
            .find(|e| e.id == spec.id() && e.sha256 == spec.sha256)
            .map(|e| &e.report)
    }
}

/// The certificate status a recorded long-tier report shows.
pub const STATUS: &str =
    "not certified: tier long, recorded by `grundy build --long` (the verifier re-checks the main job's certificates)";

/// Why `record` wrote nothing.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    #[error("bad input in the long tier: nothing was recorded")]
    BadInput,
    #[error(transparent)]
    Output(#[from] OutputError),
}

/// Checks every `tier: long` spec under `specs` and records the reports under `root`. The run
/// is returned for its reports and errors; the record is written only when no input was bad.
pub fn record(specs: &Path, root: &Path) -> (Run, Result<usize, RecordError>) {
    let (all, errors) = super::load(&[specs.to_path_buf()]);
    let files: Vec<PathBuf> = all
        .iter()
        .filter(|s| s.header.long)
        .map(|s| PathBuf::from(s.body.file()))
        .collect();
    // Named by file, a long spec is checked without --long (pipeline::check_with).
    let mut run = if files.is_empty() {
        Run {
            errors: Vec::new(),
            specs: Vec::new(),
            dependencies: Default::default(),
            skipped_long: Vec::new(),
        }
    } else {
        super::check(&files, &Selection::All)
    };
    run.errors.extend(errors);
    if run.exit_code() == 2 {
        return (run, Err(RecordError::BadInput));
    }
    let mut specs: Vec<Entry> = run
        .checked()
        .filter(|(s, _)| s.header.long)
        .map(|(s, c)| Entry {
            id: s.id().to_string(),
            sha256: s.sha256.clone(),
            report: c.report.clone(),
        })
        .collect();
    specs.sort_by(|a, b| a.id.cmp(&b.id));
    let n = specs.len();
    let record = Record {
        written_by: "grundy build --long".to_string(),
        specs,
    };
    let text = serde_json::to_string_pretty(&record).expect("a record serialises") + "\n";
    let result = output::write_recorded(root, FILE, text.as_bytes())
        .map(|()| n)
        .map_err(RecordError::from);
    (run, result)
}
