//! The papers' contents (docs/contents/*.yaml: every numbered statement, example, figure and
//! table of a seed with the specs that cover it, or why none can) joined with the verdicts of
//! a build, as the serialisable view that `templates/index.md` renders into output/README.md.
//! A spec id the build does not know is bad input (the build writes nothing, exit 2).

use crate::check::Report;
use crate::spec::Spec;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// One entry of a contents file, as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawItem {
    item: String,
    #[serde(default)]
    specs: Vec<String>,
    #[serde(default)]
    why: Option<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum ContentsError {
    #[error("{file}: {why}")]
    Read { file: String, why: String },
    #[error("{file}: {item} names the spec `{id}`, which is not in the build")]
    UnknownSpec {
        file: String,
        item: String,
        id: String,
    },
    #[error("{file}: {item} has neither specs nor a reason (`why`)")]
    Empty { file: String, item: String },
}

/// A spec of an item with its verdict.
#[derive(Debug, Serialize)]
pub struct SpecVerdict {
    pub id: String,
    /// `holds`, `refuted (as expected)`, …
    pub verdict: String,
    pub range: String,
    /// The premises the verdict rests on (`uses:`), as ids (docs/design.md §2, premises).
    pub rests_on: Vec<String>,
}

#[derive(Debug, Serialize)]
pub struct ItemView {
    pub item: String,
    pub specs: Vec<SpecVerdict>,
    pub why: Option<String>,
}

/// One seed: its contents file's name (`paper000`) and its items in the file's order.
#[derive(Debug, Serialize)]
pub struct SeedView {
    pub name: String,
    pub items: Vec<ItemView>,
}

#[derive(Debug, Serialize, Default)]
pub struct ContentsView {
    pub seeds: Vec<SeedView>,
}

/// Largest contents file read (a FIFO or a device is refused before reading), and most files.
const MAX_FILE_BYTES: u64 = 4 << 20;
const MAX_FILES: usize = 10_000;

/// docs/contents beside a specs folder (`specs/` → `docs/contents/`).
pub fn dir_for(specs: &Path) -> PathBuf {
    let root = match specs.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    root.join("docs").join("contents")
}

/// The contents files of `dir` (sorted by name) joined with the build's reports; an empty
/// view when there is no such folder (a project without contents files).
///
/// `skipped`: specs of `tier: long` the run left out; an item naming one shows it as not run
/// by the main job (docs/design.md §2, tiers).
pub fn view(
    dir: &Path,
    index: &[(&Spec, &Report)],
    skipped: &[&Spec],
) -> Result<ContentsView, ContentsError> {
    let read_err = |file: &Path, e: std::io::Error| ContentsError::Read {
        file: file.display().to_string(),
        why: e.to_string(),
    };
    // No folder: a project without contents files. Any other failure is said, not skipped.
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(ContentsView::default()),
        Err(e) => return Err(read_err(dir, e)),
    };
    let mut files: Vec<PathBuf> = Vec::new();
    for e in entries {
        let p = e.map_err(|e| read_err(dir, e))?.path();
        if p.extension().is_some_and(|x| x == "yaml") {
            files.push(p);
        }
        if files.len() > MAX_FILES {
            return Err(ContentsError::Read {
                file: dir.display().to_string(),
                why: format!("more than {MAX_FILES} contents files"),
            });
        }
    }
    files.sort();
    let mut seeds = Vec::new();
    for path in files {
        let file = path.display().to_string();
        let text = super::files::read_regular_text(&path, MAX_FILE_BYTES)
            .map_err(|e| read_err(&path, e))?;
        let raw: Vec<RawItem> = serde_saphyr::from_str(&text).map_err(|e| ContentsError::Read {
            file: file.clone(),
            why: e.to_string(),
        })?;
        let mut items = Vec::new();
        for r in raw {
            if r.specs.is_empty() && r.why.is_none() {
                return Err(ContentsError::Empty { file, item: r.item });
            }
            let mut specs = Vec::new();
            for id in &r.specs {
                if skipped.iter().any(|s| s.id() == id) {
                    specs.push(SpecVerdict {
                        id: id.clone(),
                        verdict: "tier long, not run by the main job".to_string(),
                        range: "`grundy build --long`".to_string(),
                        rests_on: Vec::new(),
                    });
                    continue;
                }
                let Some((spec, report)) = index.iter().find(|(s, _)| s.id() == id) else {
                    return Err(ContentsError::UnknownSpec {
                        file,
                        item: r.item,
                        id: id.clone(),
                    });
                };
                specs.push(SpecVerdict {
                    id: id.clone(),
                    verdict: if spec.header.long {
                        format!(
                            "{} (tier long, `grundy build --long`)",
                            super::verdict_line(report)
                        )
                    } else {
                        super::verdict_line(report)
                    },
                    range: report.range.clone(),
                    rests_on: report.rests_on.iter().map(|p| p.id.clone()).collect(),
                });
            }
            items.push(ItemView {
                item: r.item,
                specs,
                why: r.why,
            });
        }
        seeds.push(SeedView {
            name: path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default(),
            items,
        });
    }
    Ok(ContentsView { seeds })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contents_beside_the_specs_folder() {
        assert_eq!(
            dir_for(Path::new("specs")),
            PathBuf::from("./docs/contents")
        );
        assert_eq!(
            dir_for(Path::new("/x/my/specs")),
            PathBuf::from("/x/my/docs/contents")
        );
    }

    #[test]
    fn missing_folder_is_empty_and_unknown_ids_are_errors() {
        let d = tempfile::tempdir().unwrap();
        assert!(view(&d.path().join("none"), &[], &[])
            .unwrap()
            .seeds
            .is_empty());
        std::fs::write(
            d.path().join("p.yaml"),
            "- { item: Lemma 1, specs: [nope] }\n",
        )
        .unwrap();
        let e = view(d.path(), &[], &[]).unwrap_err().to_string();
        assert!(e.contains("Lemma 1 names the spec `nope`"), "{e}");
        std::fs::write(d.path().join("p.yaml"), "- { item: Lemma 1, specs: [] }\n").unwrap();
        assert!(view(d.path(), &[], &[]).is_err());
        std::fs::write(
            d.path().join("p.yaml"),
            "- { item: Figure 2, specs: [], why: lost }\n",
        )
        .unwrap();
        let v = view(d.path(), &[], &[]).unwrap();
        assert_eq!(v.seeds[0].name, "p");
        assert_eq!(v.seeds[0].items[0].why.as_deref(), Some("lost"));
    }
}
