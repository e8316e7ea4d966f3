//! The specs, read by the verifier itself: the folder indexed by spec id (the file stem, as
//! grundy names them), each file's sha256, and the few fields a claim is re-derived from. The
//! YAML is read leniently (unknown fields are ignored: the spec language grows with grundy; the
//! verifier reads only what it re-derives and says so when a spec needs more).

use indexmap::IndexMap;
use serde::Deserialize;
use serde_json::Value;
use sha2::Digest;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Specs are small YAML files; a larger one is refused.
const MAX_SPEC_BYTES: u64 = 1 << 20;
/// Most spec files indexed, and the deepest folder nesting followed.
const MAX_SPECS: usize = 100_000;
const MAX_DEPTH: usize = 16;

/// One spec file: its path, its bytes' sha256 (lowercase hex), and its text.
pub struct SpecFile {
    pub path: PathBuf,
    pub sha256: String,
    pub text: String,
}

pub fn sha256_hex(bytes: &[u8]) -> String {
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Every `*.yaml` under `dir` by id. A symlink, FIFO or other non-regular file named `*.yaml`,
/// an unreadable file or two specs with one id are errors (bad input), not skipped silently.
pub fn index(dir: &Path) -> Result<BTreeMap<String, SpecFile>, String> {
    let mut out = BTreeMap::new();
    let mut stack = vec![(dir.to_path_buf(), 0usize)];
    while let Some((d, depth)) = stack.pop() {
        let rd = std::fs::read_dir(&d).map_err(|e| format!("cannot read {}: {e}", d.display()))?;
        let mut entries: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
        entries.sort();
        for p in entries {
            let meta = std::fs::symlink_metadata(&p)
                .map_err(|e| format!("cannot read {}: {e}", p.display()))?;
            if meta.is_dir() {
                if depth + 1 > MAX_DEPTH {
                    return Err(format!("{}: folders nested too deep", p.display()));
                }
                stack.push((p, depth + 1));
                continue;
            }
            if p.extension().is_none_or(|x| x != "yaml") {
                continue;
            }
            if !meta.is_file() {
                return Err(format!(
                    "{}: a spec must be a regular file (this is a symlink or special file)",
                    p.display()
                ));
            }
            if meta.len() > MAX_SPEC_BYTES {
                return Err(format!("{}: larger than 1 MiB", p.display()));
            }
            let bytes = crate::io::read_regular(&p, MAX_SPEC_BYTES)?;
            let text = String::from_utf8(bytes.clone())
                .map_err(|_| format!("{}: not UTF-8 text", p.display()))?;
            let id = p
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            let file = SpecFile {
                path: p.clone(),
                sha256: sha256_hex(&bytes),
                text,
            };
            if let Some(old) = out.insert(id.clone(), file) {
                return Err(format!(
                    "two specs with id {id}: {} and {}",
                    old.path.display(),
                    p.display()
                ));
            }
            if out.len() > MAX_SPECS {
                return Err(format!("more than {MAX_SPECS} specs"));
            }
        }
    }
    Ok(out)
}

/// The fields the verifier re-derives claims from (all kinds in one lenient struct).
#[derive(Deserialize, Default)]
pub struct Raw {
    #[serde(default)]
    pub kind: String,
    #[serde(default)]
    pub params: IndexMap<String, Value>,
    #[serde(default, rename = "let")]
    pub lets: IndexMap<String, Value>,
    #[serde(default, rename = "where")]
    pub filter: Option<Value>,
    // kind: claim
    pub game: Option<String>,
    pub nim: Option<Value>,
    pub outcome: Option<Value>,
    pub holds: Option<Value>,
    pub positions: Option<String>,
    pub closure: Option<String>,
    /// `outcome` as text (YAML 1.1 reads a bare `N` as false when the type is left open).
    #[serde(skip)]
    pub outcome_text: Option<String>,
    // kind: certificate
    pub graph: Option<String>,
    pub token: Option<String>,
    pub tokens: Option<String>,
    pub play: Option<Value>,
    pub solver: Option<String>,
    // kind: reduction
    pub from: Option<String>,
    pub to: Option<String>,
    pub claims: Option<Value>,
    /// The canonical quotient map of `from` (no `to`), or quotient sides of a scripted map.
    pub quotient: Option<String>,
    pub from_quotient: Option<String>,
    pub to_quotient: Option<String>,
    // kind: diagram: start families (each with `game`, `params`, `let`, `where`)
    pub starts: Option<Vec<Value>>,
    // kind: table (value tables; kept as YAML values, as Table 5.1 reads them otherwise)
    pub rows: Option<Value>,
    pub columns: Option<Value>,
    pub games: Option<Value>,
    pub output: Option<Value>,
    /// `table: signatures` (Table 5.1, [`crate::signatures`]) and its `data`.
    pub table: Option<String>,
    pub data: Option<Value>,
    // kind: sets (kept as YAML values: other kinds use these names for other things)
    pub family: Option<Value>,
    pub rule: Option<Value>,
    /// `members` and `transversal_of` as text (YAML 1.1 reads the vertex `y` as true when the
    /// type is left open).
    #[serde(skip)]
    pub members: Option<Vec<Vec<String>>>,
    #[serde(skip)]
    pub transversal_of: Option<Vec<Vec<String>>>,
    // kind: sequence
    pub octal: Option<String>,
    pub values: Option<Value>,
    pub period: Option<u64>,
    pub preperiod: Option<u64>,
    pub least_preperiod: Option<bool>,
    /// The sha256 of the spec's bytes (rendered artifacts name it in their first comment).
    #[serde(skip)]
    pub sha256: String,
    /// A diagram's nodes and arrows (read only for `kind: diagram`).
    #[serde(skip)]
    pub diagram: Option<DiagramText>,
    /// A figure's panels, map and vertex names (read only for `kind: figure`).
    #[serde(skip)]
    pub figure: Option<FigureText>,
    /// An erratum's correction (the id of the spec that states the corrected claim).
    pub corrected_by: Option<String>,
    /// A reading's other reading (the id of the spec that reads the claim as it holds).
    pub read_as: Option<String>,
}

#[derive(Deserialize)]
struct SetsText {
    members: Option<Vec<Vec<String>>>,
    transversal_of: Option<Vec<Vec<String>>>,
}

/// What the verifier reads of a figure spec: its gamegraph panels (none for graph and
/// structure figures), the map's script (only whether there is one), the paper's vertex names.
#[derive(Deserialize, Default)]
pub struct FigureText {
    #[serde(default)]
    pub panels: Vec<PanelText>,
    pub map: Option<String>,
    pub vertex_names: Option<Vec<String>>,
    /// A graph figure: its graph by name, or named by `edges` (`u-x`, vertices in order of
    /// appearance), and the families drawn with the members the paper states.
    pub graph: Option<String>,
    pub edges: Option<Vec<String>>,
    pub families: Option<IndexMap<String, Vec<Vec<String>>>>,
    /// A structure diagram: its closure game, `up_to: conjugacy`, and the claimed count of
    /// class nodes and nim-value of the start.
    pub structure: Option<String>,
    pub up_to: Option<String>,
    pub classes: Option<u64>,
    pub nim: Option<u64>,
}

/// What the verifier reads of a diagram spec: its nodes (in order) and arrows.
#[derive(Deserialize, Default)]
pub struct DiagramText {
    #[serde(default)]
    pub nodes: IndexMap<String, NodeText>,
    #[serde(default)]
    pub arrows: Vec<ArrowText>,
}

#[derive(Deserialize)]
pub struct NodeText {
    pub when: Option<Value>,
    pub start: Option<Value>,
    pub sink: Option<Value>,
}

#[derive(Deserialize)]
pub struct ArrowText {
    pub from: String,
    pub to: String,
    pub style: Option<String>,
    #[serde(rename = "move")]
    pub kind: Option<String>,
}

#[derive(Deserialize)]
pub struct PanelText {
    pub game: String,
    pub quotient: Option<String>,
    pub depth: Option<usize>,
    pub play: Option<Vec<String>>,
}

#[derive(Deserialize)]
struct OutcomeText {
    outcome: Option<String>,
}

pub fn parse(text: &str) -> Result<Raw, String> {
    let mut raw =
        serde_saphyr::from_str::<Raw>(text).map_err(|e| format!("the spec cannot be read: {e}"))?;
    raw.sha256 = sha256_hex(text.as_bytes());
    raw.outcome_text = serde_saphyr::from_str::<OutcomeText>(text)
        .ok()
        .and_then(|o| o.outcome);
    if raw.kind == "diagram" {
        raw.diagram = Some(
            serde_saphyr::from_str::<DiagramText>(text)
                .map_err(|e| format!("the diagram's nodes cannot be read: {e}"))?,
        );
    }
    if raw.kind == "figure" {
        raw.figure = Some(
            serde_saphyr::from_str::<FigureText>(text)
                .map_err(|e| format!("the figure's panels cannot be read: {e}"))?,
        );
    }
    if raw.kind == "sets" {
        let t = serde_saphyr::from_str::<SetsText>(text)
            .map_err(|e| format!("the spec's sets cannot be read as names: {e}"))?;
        raw.members = t.members;
        raw.transversal_of = t.transversal_of;
    }
    Ok(raw)
}

/// A formula field: a string, or a bare number or boolean YAML gave a type to.
pub fn formula_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}
