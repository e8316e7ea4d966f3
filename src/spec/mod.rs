//! Specs: the claims of a paper written as YAML under `specs/<paper>/`, one spec per file.
//!
//! Reading happens in two stages: [`raw`] structs (serde-saphyr, `deny_unknown_fields`, with
//! line/column of every field), then validation into the checker's model types. Every error
//! names the file, line and column, says what was expected, and renders with a caret snippet
//! (miette).

// Spec errors carry their source text for snippets; they are rare, so their size is no cost.
#![allow(clippy::result_large_err)]

pub mod certificate;
pub mod diagram;
pub mod figure;
pub mod header;
pub mod range;
pub mod raw;
pub mod reduction;

use crate::check::claim::{Claim, Claimed, Positions, ValueFormula};
use crate::check::formula::Formula;
use crate::check::kind::SpecKind;
use crate::check::sequence::{SequenceSpec, Stated};
use crate::check::sets::{Family, Members, SetsBody, SetsClaim};
use crate::check::table::{Columns, ValueTable};
use crate::check::{Expectation, Loc, Param, ParamValue};
use crate::graph::Closure;
use header::{Header, RawHeader};
use miette::{Diagnostic, NamedSource, SourceSpan};
use raw::{
    RawClaim, RawFormula, RawMultisets, RawName, RawOutput, RawRange, RawScalar, RawSequence,
    RawSets, RawTable, RawVertexRange, Sp,
};
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;
use thiserror::Error;

/// Largest spec file read.
pub const MAX_SPEC_BYTES: u64 = 4 << 20;

/// Longest error message kept (a message may quote a value of the spec).
const MAX_MESSAGE: usize = 600;
/// Specs up to this size keep their whole text for error snippets.
const SNIPPET_WHOLE: usize = 64 << 10;
/// Longest line shown whole in a snippet; longer ones show a window around the error.
const SNIPPET_LINE: usize = 240;

/// The largest char boundary of `s` at or below `i`.
fn floor_char(s: &str, mut i: usize) -> usize {
    i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// At most `max` bytes of `s`, shortened with `…`.
pub(crate) fn clip(s: &str, max: usize) -> String {
    if s.len() <= max {
        s.to_string()
    } else {
        format!("{}…", &s[..floor_char(s, max)])
    }
}

/// The most instances one parameter range may produce.
pub const MAX_RANGE: usize = 100_000;

/// A spec that cannot be read: where, what was expected, with the source for a snippet.
/// Displayed with its location only when it has no snippet: a diagnostic names the location
/// once, in the snippet's header (`[specs/a.yaml:2:7]`).
#[derive(Debug, Error, Diagnostic)]
#[error("{}", self.headline())]
#[diagnostic()]
pub struct SpecError {
    pub file: String,
    pub line: u64,
    pub column: u64,
    pub message: String,
    #[source_code]
    pub src: NamedSource<String>,
    #[label("{label}")]
    pub span: Option<SourceSpan>,
    pub label: String,
    #[help]
    pub help: Option<String>,
}

impl SpecError {
    fn headline(&self) -> String {
        if self.span.is_some() && !self.src.inner().is_empty() {
            self.message.clone()
        } else {
            format!(
                "{}:{}:{}: {}",
                self.file, self.line, self.column, self.message
            )
        }
    }
}

/// An artifact a spec asks for: a template and a path relative to `output/`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutputSpec {
    pub template: String,
    pub path: PathBuf,
}

/// A validated spec: its artifacts and its body, the model type of its kind behind the one
/// [`SpecKind`] trait (so that nothing outside `crate::kinds` needs to know the kinds).
#[derive(Clone, Debug)]
pub struct Spec {
    pub header: Header,
    /// The sha256 of the spec file's bytes (lowercase hex), which certificates record so that
    /// `grundy-verify` checks a certificate against the very spec it reads (issue 26).
    pub sha256: String,
    pub outputs: Vec<OutputSpec>,
    pub body: Arc<dyn SpecKind>,
}

impl Spec {
    pub fn new(body: impl SpecKind + 'static, outputs: Vec<OutputSpec>) -> Spec {
        Spec {
            header: Header::default(),
            sha256: String::new(),
            outputs,
            body: Arc::new(body),
        }
    }
    pub fn id(&self) -> &str {
        self.body.id()
    }
    pub fn kind(&self) -> &'static str {
        self.body.kind()
    }
    pub fn outputs(&self) -> &[OutputSpec] {
        &self.outputs
    }
    /// The model type of the spec's kind, for code that handles one kind (tests, certificates).
    pub fn downcast<T: SpecKind + 'static>(&self) -> Option<&T> {
        self.body.as_any().downcast_ref::<T>()
    }
}

/// The source text of one spec file, for locating errors.
pub struct Source<'a> {
    pub file: &'a str,
    pub text: &'a str,
}

impl Source<'_> {
    fn byte_offset(&self, line: u64, column: u64) -> Option<usize> {
        if line == 0 {
            return None;
        }
        let mut off = 0;
        for (i, l) in self.text.split('\n').enumerate() {
            if i as u64 + 1 == line {
                let col = l
                    .char_indices()
                    .nth(column.saturating_sub(1) as usize)
                    .map_or(l.len(), |(b, _)| b);
                return Some(off + col);
            }
            off += l.len() + 1;
        }
        None
    }

    /// An error at a line and column (1-based; 0 when unknown), underlining `len` bytes.
    pub fn error_at(
        &self,
        line: u64,
        column: u64,
        len: usize,
        message: impl Into<String>,
        help: Option<String>,
    ) -> SpecError {
        let message = clip(&message.into(), MAX_MESSAGE);
        let offset = self.byte_offset(line, column);
        let (text, offset) = self.snippet(line, offset);
        let span = offset
            .map(|o| SourceSpan::from((o, len.max(1).min(text.len().saturating_sub(o)).max(1))));
        SpecError {
            file: self.file.to_string(),
            line,
            column,
            label: "here".into(),
            message,
            src: NamedSource::new(self.file, text),
            span,
            help,
        }
    }

    /// The source kept in an error for its snippet, and the offset within it: the whole text
    /// when it is small, else only a window of the offending line (a 100 MB one-line spec
    /// must not be echoed), preceded by empty lines so that miette still numbers it right.
    fn snippet(&self, line: u64, offset: Option<usize>) -> (String, Option<usize>) {
        let t = self.text;
        let Some(o) = offset.filter(|&o| o <= t.len()) else {
            return if t.len() <= SNIPPET_WHOLE {
                (t.to_string(), None)
            } else {
                (String::new(), None)
            };
        };
        let ls = t[..o].rfind('\n').map_or(0, |i| i + 1);
        let le = t[o..].find('\n').map_or(t.len(), |i| o + i);
        if t.len() <= SNIPPET_WHOLE && le - ls <= SNIPPET_LINE {
            return (t.to_string(), Some(o));
        }
        let from = floor_char(t, o.saturating_sub(SNIPPET_LINE / 2).max(ls));
        let to = floor_char(t, (o + SNIPPET_LINE / 2).min(le));
        let pad = if line > 1 && line <= 10_000 {
            "\n".repeat(line as usize - 1)
        } else {
            String::new()
        };
        let pre = if from > ls { "…" } else { "" };
        let post = if to < le { "…" } else { "" };
        let text = format!("{pad}{pre}{}{post}", &t[from..to]);
        (text, Some(pad.len() + pre.len() + (o - from)))
    }

    pub fn error<T>(
        &self,
        at: &Sp<T>,
        message: impl Into<String>,
        help: Option<String>,
    ) -> SpecError {
        self.error_at(at.line(), at.column(), 1, message, help)
    }

    /// An error inside a string field: `offset` is a byte offset within `text`, the field's
    /// value. The value is located after the field's start (it may be quoted).
    pub fn error_inside(
        &self,
        at: &Sp<String>,
        offset: usize,
        message: impl Into<String>,
    ) -> SpecError {
        let base = at
            .byte_offset()
            .or_else(|| self.byte_offset(at.line(), at.column()))
            .unwrap_or(0);
        let first = at.value().lines().next().unwrap_or("");
        let start = self
            .text
            .get(base..)
            .and_then(|rest| rest.find(first))
            .map(|i| base + i);
        match start {
            Some(s) if offset <= first.len() => {
                let abs = s + offset;
                let (line, column) = self.line_col(abs);
                let mut e = self.error_at(line, column, 1, message, None);
                e.span = Some(SourceSpan::from((abs, 1usize)));
                e
            }
            _ => self.error(at, message, None),
        }
    }

    fn line_col(&self, byte: usize) -> (u64, u64) {
        let before = &self.text[..byte.min(self.text.len())];
        let line = before.matches('\n').count() as u64 + 1;
        let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) as u64 + 1;
        (line, col)
    }

    pub fn loc<T>(&self, at: &Sp<T>) -> Loc {
        Loc {
            file: self.file.to_string(),
            line: at.line(),
            column: at.column(),
        }
    }
}

/// What a directory entry is, without following a symlink to a directory: symlinked
/// directories (`up -> ..`, `self -> .`) are never walked, so a walk cannot loop or leave the
/// tree; symlinks to files are read as files.
enum Entry {
    Dir,
    File,
    Skip,
}

fn entry_kind(e: &std::fs::DirEntry) -> std::io::Result<Entry> {
    let t = e.file_type()?;
    Ok(if t.is_dir() {
        Entry::Dir
    } else if t.is_symlink() {
        match std::fs::metadata(e.path()) {
            Ok(m) if m.is_file() => Entry::File,
            _ => Entry::Skip,
        }
    } else if t.is_file() {
        Entry::File
    } else {
        Entry::Skip
    })
}

/// Every file under `dir`, recursively (directory symlinks not followed), sorted. A FIFO, a
/// device or a dangling link is listed too, so that reading it says what it is (a template
/// folder's `report.md -> /dev/zero` was skipped, then reported as a missing template).
pub fn collect_all_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d)? {
            let e = e?;
            match entry_kind(&e)? {
                Entry::Dir => stack.push(e.path()),
                Entry::File => out.push(e.path()),
                Entry::Skip if !std::fs::metadata(e.path()).is_ok_and(|m| m.is_dir()) => {
                    out.push(e.path())
                }
                Entry::Skip => {}
            }
        }
    }
    out.sort();
    Ok(out)
}

/// Collects the `.yaml`/`.yml` files under the given paths (directories recursively, directory
/// symlinks inside them not followed), sorted.
pub fn collect_files(paths: &[PathBuf]) -> std::io::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut stack = vec![p.clone()];
            while let Some(d) = stack.pop() {
                for e in std::fs::read_dir(&d)? {
                    let e = e?;
                    let path = e.path();
                    let yaml = matches!(
                        path.extension().and_then(|e| e.to_str()),
                        Some("yaml" | "yml")
                    );
                    match entry_kind(&e)? {
                        Entry::Dir => stack.push(path),
                        // A FIFO, a dangling or looping link named *.yaml is listed too:
                        // reading it then says what it is, rather than skipping it silently.
                        Entry::File | Entry::Skip if yaml => out.push(path),
                        _ => {}
                    }
                }
            }
        } else {
            out.push(p.clone());
        }
    }
    out.sort();
    out.dedup();
    Ok(out)
}

fn yaml_error(src: &Source, e: &serde_saphyr::Error) -> SpecError {
    let (line, column) = e.location().map_or((0, 0), |l| (l.line(), l.column()));
    // A duplicate key in our words: serde-saphyr's message advises a library setting
    // ("set DuplicateKeyPolicy in Options if acceptable"), which a spec's author cannot set.
    let mut inner = e;
    while let serde_saphyr::Error::WithSnippet { error, .. }
    | serde_saphyr::Error::AliasError { error, .. } = inner
    {
        inner = error;
    }
    if let serde_saphyr::Error::DuplicateMappingKey { key, .. } = inner {
        let what = key.as_deref().map_or(String::new(), |k| {
            format!(" `{}`", crate::term::excerpt(&k.escape_debug().to_string()))
        });
        return src.error_at(
            line,
            column,
            1,
            format!("duplicate key{what} at line {line}"),
            Some("a key may be given once in each mapping: remove one of them".into()),
        );
    }
    // serde-saphyr's message carries its own location and snippet; ours lead the report.
    let full = e.to_string();
    let first = full.lines().next().unwrap_or("").trim();
    let first = first.strip_prefix("error: ").unwrap_or(first);
    let msg = match first.strip_prefix("line ").and_then(|r| r.split_once(": ")) {
        Some((_, rest)) => rest.to_string(),
        None => first.to_string(),
    };
    // The location is the report's own; the message need not repeat it.
    let msg = match msg.rsplit_once(" at line ") {
        Some((m, at)) if at.split(", column ").all(|x| x.parse::<u64>().is_ok()) => m.to_string(),
        _ => msg,
    };
    let msg = crate::term::excerpt(&msg).into_owned();
    src.error_at(
        line,
        column,
        1,
        msg,
        Some("see `grundy schema` for the spec format".into()),
    )
}

/// YAML 1.2 booleans only (`true`/`false`): in YAML 1.1 `N`, `y` or `no` would be booleans,
/// and `N` is an outcome, `y` a vertex of the kite.
fn yaml_options() -> serde_saphyr::Options {
    let mut o = serde_saphyr::Options::default();
    o.strict_booleans = true;
    o.with_snippet = false;
    o
}

/// Stage one: the whole document into the raw struct of its kind.
pub(crate) fn read<T: serde::de::DeserializeOwned>(src: &Source) -> Result<T, SpecError> {
    serde_saphyr::from_str_with_options(src.text, yaml_options()).map_err(|e| yaml_error(src, &e))
}

/// Stage one and two for a kind: the header, then the body of the kind's raw struct `T`, then
/// the kind's validation.
pub fn parse_with<T: serde::de::DeserializeOwned>(
    src: &Source,
    id: &str,
    validate: fn(&Source, &str, &RawHeader, T) -> Result<Spec, SpecError>,
) -> Result<Spec, SpecError> {
    let h: RawHeader = read(src)?;
    let header::Body(body) = read::<header::Body<T>>(src)?;
    if let Some(t) = h.tier.as_ref().filter(|t| t.value() != "long") {
        return Err(src.error(
            t,
            format!("unknown tier `{}`", t.value()),
            Some("expected `long` (checked by `grundy build --long`); leave `tier` out for the main job".into()),
        ));
    }
    if let Some(s) = &h.sanity {
        if s.value().trim().is_empty() {
            return Err(src.error(
                s,
                "`sanity` names why the spec cannot fail".to_string(),
                Some(
                    "e.g. `sanity: an arithmetic identity`; leave `sanity` out for a result".into(),
                ),
            ));
        }
        if h.expect.as_ref().is_some_and(|e| e.value() == "refuted") {
            return Err(src.error(
                s,
                "a sanity check cannot be expected refuted".to_string(),
                Some("an erratum is a result: leave `sanity` out".into()),
            ));
        }
    }
    let mut spec = validate(src, id, &h, body)?;
    spec.header = Header::from_raw(&h);
    Ok(spec)
}

/// Reads and validates one spec from its text. `id` is the spec's name (its file stem).
/// Graph names `file:<path>` in it read a relative path from the spec's folder.
pub fn parse_spec(src: &Source, id: &str, kinds: &[KindEntry]) -> Result<Spec, SpecError> {
    let mut spec = crate::graph::io::in_folder_of(src.file, || parse_spec_kind(src, id, kinds))?;
    single_line_fields(src, id)?;
    spec.sha256 = sha256_hex(src.text.as_bytes());
    Ok(spec)
}

/// Lowercase hex sha256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The fields every kind may have that reach artifacts on one line (header comments, titles,
/// labels); read leniently, after the full read has checked their types.
#[derive(serde::Deserialize)]
struct SingleLine {
    source: Option<Sp<String>>,
    title: Option<Sp<String>>,
}

/// Refuses control characters (a newline above all) in the spec's name and its one-line
/// fields: they would end a generated header comment and let the rest of the text into the
/// artifact as DOT, TeX or HTML. Templates escape besides (see `render`).
fn single_line_fields(src: &Source, id: &str) -> Result<(), SpecError> {
    if let Some(c) = id.chars().find(|c| c.is_control()) {
        return Err(src.error_at(
            0,
            0,
            1,
            format!(
                "the spec's file name contains the control character {}",
                c.escape_unicode()
            ),
            Some("rename the file".into()),
        ));
    }
    let Ok(fields) = serde_saphyr::from_str_with_options::<SingleLine>(src.text, yaml_options())
    else {
        return Ok(());
    };
    for (name, f) in [("source", fields.source), ("title", fields.title)] {
        let Some(f) = f else { continue };
        if let Some((i, c)) = f.value().char_indices().find(|(_, c)| is_line_breaking(*c)) {
            return Err(src.error_inside(
                &f,
                i,
                format!(
                    "`{name}` is one line of text; it contains the control character {}",
                    c.escape_unicode()
                ),
            ));
        }
    }
    Ok(())
}

/// Control characters, and the Unicode line and paragraph separators.
fn is_line_breaking(c: char) -> bool {
    c.is_control() || matches!(c, '\u{2028}' | '\u{2029}')
}

/// A spec kind as the reader sees it: its YAML name, its reader (stage two), and the JSON
/// Schema of its raw form (header and body), from which `grundy schema` and the guide's spec
/// reference are made. The kinds are registered in `crate::kinds::KINDS` and handed to the
/// reader, which names none of them.
#[derive(Clone, Copy)]
pub struct KindEntry {
    pub name: &'static str,
    pub parse: fn(&Source, &str) -> Result<Spec, SpecError>,
    pub schema: fn(&mut schemars::SchemaGenerator) -> schemars::Schema,
}

fn parse_spec_kind(src: &Source, id: &str, kinds: &[KindEntry]) -> Result<Spec, SpecError> {
    let kind: raw::KindOnly = read(src)?;
    let name = kind.kind.value().as_str();
    match kinds.iter().find(|k| k.name == name) {
        Some(k) => (k.parse)(src, id),
        None => Err(src.error(
            &kind.kind,
            format!("unknown spec kind `{name}`"),
            Some(format!(
                "expected one of: {}",
                kinds.iter().map(|k| k.name).collect::<Vec<_>>().join(", ")
            )),
        )),
    }
}

/// Reads one spec file.
pub fn load_file(path: &Path, kinds: &[KindEntry]) -> Result<Spec, SpecError> {
    use std::io::Read;
    let file = path.display().to_string();
    let fail = |message: String| SpecError {
        file: file.clone(),
        line: 0,
        column: 0,
        message,
        src: NamedSource::new(&file, String::new()),
        span: None,
        label: String::new(),
        help: None,
    };
    let mut bytes = Vec::new();
    crate::files::open_regular(path)
        .and_then(|f| f.take(MAX_SPEC_BYTES + 1).read_to_end(&mut bytes))
        .map_err(|e| fail(format!("cannot read spec: {e}")))?;
    if bytes.len() as u64 > MAX_SPEC_BYTES {
        return Err(fail(format!(
            "the spec is larger than {} MiB; specs are small YAML files",
            MAX_SPEC_BYTES >> 20
        )));
    }
    let text = String::from_utf8(bytes)
        .map_err(|e| fail(format!("cannot read spec: not UTF-8 text ({e})")))?;
    let id = path
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("spec")
        .to_string();
    // The id names the spec's artifacts and appears in them (DOT graph names, report rows):
    // the characters of an output path only, so no id can change the file it lands in.
    if id.is_empty()
        || !id
            .chars()
            .all(|c| c != '/' && crate::text::escape::is_path_char(c))
    {
        return Err(fail(format!(
            "the spec's file name `{}` may use only letters, digits, `_`, `.` and `-` (it names the spec's artifacts)",
            id.escape_debug()
        )));
    }
    parse_spec(
        &Source {
            file: &file,
            text: &text,
        },
        &id,
        kinds,
    )
}

pub(crate) fn closure_of(src: &Source, c: &Option<Sp<String>>) -> Result<Closure, SpecError> {
    match c {
        None => Ok(Closure::default()),
        Some(s) => Closure::named(s.value()).ok_or_else(|| {
            src.error(
                s,
                format!("unknown closure `{}`", s.value()),
                Some(format!(
                    "expected one of the registered graph closures: {}",
                    crate::graph::closures::names()
                        .iter()
                        .map(|n| format!("`{n}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                )),
            )
        }),
    }
}

/// The closures a statement names by their registered word (`geodetic`, `monophonic`, the
/// convex `hull`, a user closure's name), as whole words, ignoring case.
pub(crate) fn closures_named_in(statement: &str) -> Vec<Closure> {
    let text = statement.to_lowercase();
    crate::graph::closures::all()
        .into_iter()
        .filter(|c| {
            let word = c.name().to_lowercase();
            text.match_indices(&word).any(|(i, w)| {
                let before = text[..i].chars().next_back();
                let after = text[i + w.len()..].chars().next();
                let edge = |c: Option<char>| c.is_none_or(|c| !c.is_alphanumeric() && c != '_');
                edge(before) && edge(after)
            })
        })
        .collect()
}

/// A statement that names closures, none of them the spec's (`closure:`, the hull by default),
/// is bad input at `closure:` (or at the statement): a convex-hull statement encoded under
/// `closure: geodetic` checked another game (issue 42 item 4).
pub(crate) fn closure_as_stated(
    src: &Source,
    h: &RawHeader,
    closure: Closure,
    at: &Option<Sp<String>>,
) -> Result<(), SpecError> {
    let Some(statement) = &h.statement else {
        return Ok(());
    };
    let named = closures_named_in(statement);
    if named.is_empty() || named.contains(&closure) {
        return Ok(());
    }
    let words: Vec<String> = named.iter().map(|c| format!("`{}`", c.name())).collect();
    let message = format!(
        "the statement names the {} closure, but the spec is checked under `{}`",
        words.join(" and the "),
        closure.name()
    );
    let help = Some(format!("write `closure: {}`", named[0].name()));
    Err(match at {
        Some(c) => src.error(c, message, help),
        None => src.error(&h.kind, message, help),
    })
}

pub(crate) fn formula(src: &Source, at: &Sp<String>) -> Result<Formula, SpecError> {
    Formula::compile(at.value()).map_err(|e| {
        src.error_inside(
            at,
            e.offset,
            format!("bad expression `{}`: {}", at.value(), e.message),
        )
    })
}

/// A formula nested in an untagged value (its own span is not tracked): errors point at
/// the enclosing field.
pub(crate) fn nested_formula<T>(
    src: &Source,
    at: &Sp<T>,
    text: &str,
) -> Result<Formula, SpecError> {
    Formula::compile(text).map_err(|e| {
        src.error(
            at,
            format!(
                "bad expression `{text}`: {} (at offset {})",
                e.message, e.offset
            ),
            None,
        )
    })
}

/// The outcomes `P` and `N` may be written bare (they are not variables).
fn outcome_text(s: &str) -> String {
    match s.trim() {
        "P" => "\"P\"".into(),
        "N" => "\"N\"".into(),
        other => other.to_string(),
    }
}

fn value_formula(src: &Source, at: &Sp<RawFormula>) -> Result<ValueFormula, SpecError> {
    Ok(match at.value() {
        RawFormula::Int(i) => ValueFormula::Expr(Formula::constant(*i)),
        RawFormula::Expr(s) => ValueFormula::Expr(nested_formula(src, at, &outcome_text(s))?),
        RawFormula::Cases { cases } => {
            if cases.is_empty() {
                return Err(src.error(at, "a case formula needs at least one case", None));
            }
            let mut out = Vec::new();
            for c in cases {
                let when = nested_formula(src, at, &c.when)?;
                let value = match &c.value {
                    RawScalar::Int(i) => Formula::constant(*i),
                    RawScalar::Expr(s) => nested_formula(src, at, &outcome_text(s))?,
                };
                out.push((when, value));
            }
            ValueFormula::Cases(out)
        }
    })
}

fn parse_int_text(src: &Source, at: &Sp<RawRange>, t: &str) -> Result<i64, SpecError> {
    t.trim().parse::<i64>().map_err(|_| {
        src.error(
            at,
            format!("`{}` is not an integer", t.trim()),
            Some(
                "ranges look like 2..=8 (inclusive), 4..<9 (exclusive), 3,5,7 or [3, 5, 7]".into(),
            ),
        )
    })
}

/// All nonincreasing lists of parts within the bounds of `m`, sorted.
fn multisets(m: &RawMultisets) -> Vec<Vec<i64>> {
    struct Bounds {
        min_sum: i64,
        min_part: i64,
        min_parts: usize,
        max_parts: usize,
    }
    fn extend(rest: i64, cap: i64, b: &Bounds, cur: &mut Vec<i64>, all: &mut Vec<Vec<i64>>) {
        let sum: i64 = cur.iter().sum();
        if sum >= b.min_sum && cur.len() >= b.min_parts && cur.len() <= b.max_parts {
            all.push(cur.iter().rev().copied().collect());
        }
        if cur.len() >= b.max_parts {
            return;
        }
        let mut p = cap.min(rest);
        while p >= b.min_part {
            cur.push(p);
            extend(rest - p, p, b, cur, all);
            cur.pop();
            p -= 1;
        }
    }
    let b = Bounds {
        min_sum: m.min_sum.unwrap_or(1).max(0),
        min_part: m.min_part.unwrap_or(1).max(1),
        min_parts: m.min_parts.unwrap_or(1).max(0) as usize,
        max_parts: m.max_parts.unwrap_or(m.max_sum).max(0) as usize,
    };
    let mut out = Vec::new();
    extend(
        m.max_sum,
        m.max_part.unwrap_or(m.max_sum),
        &b,
        &mut Vec::new(),
        &mut out,
    );
    out.sort();
    out
}

fn param(src: &Source, name: &str, at: &Sp<RawRange>) -> Result<Param, SpecError> {
    if !name.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    {
        return Err(src.error(
            at,
            format!("bad parameter name `{name}`"),
            Some("a parameter name is a letter followed by letters, digits or _".into()),
        ));
    }
    let too_large = |n: usize| {
        src.error(
            at,
            format!("range of `{name}` has {n} values; at most {MAX_RANGE} are allowed"),
            None,
        )
    };
    let (values, text): (Vec<ParamValue>, String) = match at.value() {
        RawRange::Int(i) => (vec![ParamValue::Int(*i)], i.to_string()),
        RawRange::List(l) => (
            l.iter().map(|&i| ParamValue::Int(i)).collect(),
            format!("{l:?}"),
        ),
        RawRange::Text(t) => {
            let split = range::split(t).map_err(|e| {
                src.error(
                    at,
                    e.to_string(),
                    Some(
                        "ranges look like 2..=8 (inclusive), 4..<9 (exclusive), 3,5,7 or [3, 5, 7]"
                            .into(),
                    ),
                )
            })?;
            let vals: Vec<i64> = if let Some(r) = split {
                let (a, b) = (
                    parse_int_text(src, at, r.from)?,
                    parse_int_text(src, at, r.to)?,
                );
                // Count before building: `0..=i64::MAX` is refused, not allocated.
                let count = (b as i128 - a as i128 + i128::from(r.inclusive)).max(0);
                if count > MAX_RANGE as i128 {
                    return Err(too_large(count.min(usize::MAX as i128) as usize));
                }
                (0..count as i64).map(|i| a + i).collect()
            } else {
                t.split(',')
                    .map(|x| parse_int_text(src, at, x))
                    .collect::<Result<_, _>>()?
            };
            (
                vals.into_iter().map(ParamValue::Int).collect(),
                t.trim().to_string(),
            )
        }
        RawRange::Graphs { graphs } => {
            let (lo, hi) = count_range(src, at, &graphs.vertices, "vertex")?;
            let max = crate::graph::enumerate::MAX_ENUMERATED as i64;
            if lo < 1 || hi > max {
                return Err(src.error(
                    at,
                    format!("graphs are enumerated with 1 to {max} vertices, not {lo}..={hi}"),
                    Some("use nauty's geng through `grundy spectrum` for larger sizes".into()),
                ));
            }
            let mut vals = Vec::new();
            for n in lo..=hi {
                for g6 in crate::graph::enumerate::connected_graphs(n as usize)
                    .expect("within the enumerated sizes")
                {
                    vals.push(ParamValue::Name(vals.len() as i64, g6));
                }
            }
            (vals, format!("connected graphs with {lo}..={hi} vertices"))
        }
        RawRange::Posets { posets } => {
            let (lo, hi) = count_range(src, at, &posets.elements, "element")?;
            let max = crate::game::closure::enumerate::MAX_ENUMERATED as i64;
            if lo < 1 || hi > max {
                return Err(src.error(
                    at,
                    format!("posets are enumerated with 1 to {max} elements, not {lo}..={hi}"),
                    Some(format!("give a range of element counts within 1..={max}")),
                ));
            }
            let mut vals = Vec::new();
            for n in lo..=hi {
                for p in crate::game::closure::enumerate::posets(n as usize)
                    .expect("within the enumerated sizes")
                {
                    vals.push(ParamValue::Name(vals.len() as i64, p));
                }
            }
            (vals, format!("posets with {lo}..={hi} elements"))
        }
        RawRange::Multisets { multisets: m } => {
            if m.max_sum > 40 {
                return Err(src.error(
                    at,
                    format!(
                        "multisets with sum up to {} are too many to enumerate",
                        m.max_sum
                    ),
                    Some("use max_sum <= 40".into()),
                ));
            }
            let all = multisets(m);
            let text = format!("multisets with sum <= {}", m.max_sum);
            (all.into_iter().map(ParamValue::List).collect(), text)
        }
    };
    if values.is_empty() {
        return Err(src.error(
            at,
            format!("the range of `{name}` is empty"),
            Some("give a range with at least one value, e.g. 2..=8".into()),
        ));
    }
    if values.len() > MAX_RANGE {
        return Err(too_large(values.len()));
    }
    Ok(Param {
        name: name.to_string(),
        values,
        text,
    })
}

/// The counts of a `graphs` (vertices) or `posets` (elements) range, as the integer ranges
/// read: `4`, `"1..=6"`, `"2..<5"`; a bare `1..6` is ambiguous and refused, as everywhere.
fn count_range(
    src: &Source,
    at: &Sp<RawRange>,
    r: &RawVertexRange,
    what: &str,
) -> Result<(i64, i64), SpecError> {
    let t = match r {
        RawVertexRange::Int(i) => return Ok((*i, *i)),
        RawVertexRange::Text(t) => t,
    };
    let hint = || {
        Some(format!(
            "give a {what} count such as 4 or a range such as 1..=6"
        ))
    };
    match range::split(t).map_err(|e| src.error(at, e.to_string(), hint()))? {
        Some(r) => {
            let (a, b) = (
                parse_int_text(src, at, r.from)?,
                parse_int_text(src, at, r.to)?,
            );
            Ok((a, if r.inclusive { b } else { b.saturating_sub(1) }))
        }
        None => {
            let v = parse_int_text(src, at, t)?;
            Ok((v, v))
        }
    }
}

/// How often `word` occurs in `text` between non-alphanumeric characters (`_` separates:
/// `n` is named in `C_n`).
fn word_count(text: &str, word: &str) -> usize {
    let ident = |c: char| c.is_ascii_alphanumeric();
    text.match_indices(word)
        .filter(|&(i, _)| {
            !text[..i].chars().next_back().is_some_and(ident)
                && !text[i + word.len()..].chars().next().is_some_and(ident)
        })
        .count()
}

pub(crate) fn params(
    src: &Source,
    raw: &indexmap::IndexMap<String, Sp<RawRange>>,
) -> Result<Vec<Param>, SpecError> {
    let ps: Vec<Param> = raw
        .iter()
        .map(|(k, v)| param(src, k, v))
        .collect::<Result<_, _>>()?;
    // A parameter named nowhere else in the spec (game, formulas, filters) only repeats the
    // same instances: a typo or a leftover, refused as bad input.
    for (k, v) in raw {
        if word_count(src.text, k) < 2 {
            return Err(src.error(
                v,
                format!("parameter `{k}` is not used: no game, formula or filter names it"),
                Some(format!("remove `{k}`, or use it in the game or a formula")),
            ));
        }
    }
    let total = ps
        .iter()
        .try_fold(1usize, |acc, p| acc.checked_mul(p.values.len()));
    match total {
        Some(t) if t <= MAX_RANGE => Ok(ps),
        _ => {
            let first = raw.values().next().expect("a product over no ranges is 1");
            Err(src.error(
                first,
                format!("the parameter ranges give more than {MAX_RANGE} instances"),
                None,
            ))
        }
    }
}

/// The expectation of a spec (docs/design.md §2): `expect: refuted` is pinned to a companion
/// spec, `corrected_by: <id>` for an erratum or `read_as: <id>` for a reading, and the reason
/// (`because`) follows from which link is present. An explicit `because:` is still accepted
/// when it agrees with the link (older specs and `grundy-verify` read it), and refused when it
/// contradicts it. Whether the companion holds and agrees is decided after checking, when
/// every verdict is known (`crate::check::premises`).
pub fn expectation(src: &Source, h: &RawHeader) -> Result<Expectation, SpecError> {
    use crate::check::Because;
    let why = match &h.because {
        None => None,
        Some(b) => Some(Because::parse(b.value()).ok_or_else(|| {
            src.error(
                b,
                format!("unknown reason `{}`", b.value()),
                Some("expected `erratum` (the paper is wrong) or `reading` (the spec reads the paper as it does not mean)".into()),
            )
        })?),
    };
    let refuted = match &h.expect {
        None => false,
        Some(s) => match s.value().as_str() {
            "holds" => false,
            "refuted" => true,
            other => {
                return Err(src.error(
                    s,
                    format!("unknown expectation `{other}`"),
                    Some("expected `holds` or `refuted`".into()),
                ))
            }
        },
    };
    let link = match (&h.corrected_by, &h.read_as) {
        (Some(c), Some(_)) => return Err(src.error(
            c,
            "a spec names either `corrected_by` (an erratum) or `read_as` (a reading), not both",
            None,
        )),
        (Some(c), None) => Some((c, Because::Erratum)),
        (None, Some(r)) => Some((r, Because::Reading)),
        (None, None) => None,
    };
    if !refuted {
        if let Some(b) = &h.because {
            return Err(src.error(
                b,
                "`because` explains an expected refutation, but this spec expects the claim to hold",
                Some("drop `because`, or write `expect: refuted`".into()),
            ));
        }
        if let Some((l, _)) = link {
            return Err(src.error(
                l,
                "`corrected_by` and `read_as` pin an expected refutation to its companion, but this spec expects the claim to hold",
                Some("drop the link, or write `expect: refuted`".into()),
            ));
        }
        return Ok(Expectation::Holds);
    }
    let Some((l, from_link)) = link else {
        let at = h
            .expect
            .as_ref()
            .expect("refuted only when `expect` is given");
        return Err(src.error(
            at,
            "`expect: refuted` needs its companion: `corrected_by: <id>` (an erratum: the corrected claim, which must hold) or `read_as: <id>` (a reading: the reading the paper means, which must hold)",
            Some("the reason (erratum or reading) follows from the link (docs/design.md §2)".into()),
        ));
    };
    if l.value().trim().is_empty() {
        return Err(src.error(l, "the companion's id is empty", None));
    }
    match (why, &h.because) {
        (Some(w), Some(b)) if w != from_link => Err(src.error(
            b,
            format!(
                "`because: {}` contradicts the link: `{}` makes this spec {}",
                b.value(),
                if from_link == Because::Erratum {
                    "corrected_by"
                } else {
                    "read_as"
                },
                if from_link == Because::Erratum {
                    "an erratum"
                } else {
                    "a reading"
                },
            ),
            Some("drop `because:` (the link says it) or fix the link".into()),
        )),
        _ => Ok(Expectation::Refuted(from_link)),
    }
}

/// Output paths must stay inside `output/`: relative, no `..`, a known extension.
pub(crate) fn outputs(src: &Source, raw: &[RawOutput]) -> Result<Vec<OutputSpec>, SpecError> {
    raw.iter()
        .map(|o| {
            let p = Path::new(o.path.value());
            let inside = !o.path.value().is_empty()
                && p.components().all(|c| matches!(c, Component::Normal(_)));
            if !inside {
                return Err(src.error(
                    &o.path,
                    format!("output path `{}` is outside output/", o.path.value()),
                    Some(
                        "give a relative path such as paper000/table_5_1.tex, without `..`".into(),
                    ),
                ));
            }
            if let Some(c) = o
                .path
                .value()
                .chars()
                .find(|&c| !crate::text::escape::is_path_char(c))
            {
                return Err(src.error(
                    &o.path,
                    format!(
                        "output path `{}` contains `{}`",
                        o.path.value().escape_debug(),
                        c.escape_debug()
                    ),
                    Some("output paths use only letters, digits, `_`, `.`, `/` and `-` (they appear in \\input{…} and links)".into()),
                ));
            }
            let ext = p.extension().and_then(|e| e.to_str()).unwrap_or("");
            if !matches!(ext, "tex" | "md" | "dot" | "svg" | "pdf" | "json" | "txt") {
                return Err(src.error(
                    &o.path,
                    format!("output path `{}` has an unknown extension", o.path.value()),
                    Some("expected .tex, .md, .dot, .svg, .pdf, .json or .txt".into()),
                ));
            }
            if o.template.value().contains("..") || o.template.value().starts_with('/') {
                return Err(src.error(
                    &o.template,
                    "a template is named relative to templates/",
                    None,
                ));
            }
            Ok(OutputSpec {
                template: o.template.value().clone(),
                path: p.to_path_buf(),
            })
        })
        .collect()
}

/// Checks that a game template parses for the first instance, so that an unknown family or
/// a malformed expression is bad input (exit 2) before any checking starts.
/// Parses the game of the first instance (a game that does not parse is an error at the
/// spec's `game:`) and gives the names of its position features, which a formula reads.
pub(crate) fn probe_game(
    src: &Source,
    at: &Sp<String>,
    ps: &[Param],
    closure: Closure,
) -> Result<Vec<String>, SpecError> {
    probe_game_with(src, at, ps, closure, false).map(|(f, _)| f)
}

/// [`probe_game`], with a game played misère allowed when `misere` (for a claim, which then
/// says why unless it states outcomes: [`crate::expr::parse_game_for_outcomes`]); also
/// whether the game is played misère, and why.
pub(crate) fn probe_game_with(
    src: &Source,
    at: &Sp<String>,
    ps: &[Param],
    closure: Closure,
    misere: bool,
) -> Result<(Vec<String>, Option<String>), SpecError> {
    let first: Vec<(String, ParamValue)> = ps
        .iter()
        .map(|p| (p.name.clone(), p.values[0].clone()))
        .collect();
    let text = crate::expr::substitute(at.value(), &first);
    let parse = if misere {
        crate::expr::parse_game_for_outcomes
    } else {
        crate::expr::parse_game
    };
    match parse(&text, crate::expr::ParseOptions { closure }) {
        Ok(g) => Ok((feature_names(&g), g.misere())),
        Err(e) if text == *at.value() => Err(src.error_inside(
            at,
            e.offset(),
            format!("bad game `{}`: {}", clip(&text, 200), e.message),
        )),
        Err(e) => Err(src.error(
            at,
            format!("bad game `{text}` (first instance): {}", e.message),
            None,
        )),
    }
}

/// The names of the features of a game's positions (those needing the graph's families by
/// name only: computing them for a probe could be slow).
fn feature_names(g: &crate::game::AnyGame) -> Vec<String> {
    use crate::game::Game;
    let mut names: Vec<String> = g.features_for(&g.start(), false).into_keys().collect();
    let costly: &[&str] = match g {
        crate::game::AnyGame::Removing(_) => &[
            "min_gen_sets",
            "gen_unique",
            "gen_complement",
            "n_star_sizes",
            "n_star_union",
            "terminal_parities",
        ],
        crate::game::AnyGame::Closure(_) => &["terminal_parities"],
        crate::game::AnyGame::Ueg(_) => &["token_in_even_kernel"],
        _ => &[],
    };
    names.extend(costly.iter().map(|s| s.to_string()));
    names.sort();
    names.dedup();
    names
}

/// A parameter or `let` named like a feature of the game would shadow it, or be shadowed by
/// it, in every formula (docs/design.md §2, names): bad input naming both.
pub(crate) fn no_shadowing<'a, T: 'a>(
    src: &Source,
    game: &Sp<String>,
    features: &[String],
    names: impl IntoIterator<Item = (&'a str, &'a str, &'a Sp<T>)>,
) -> Result<(), SpecError> {
    for (what, name, at) in names {
        if features.iter().any(|f| f == name) {
            return Err(src.error(
                at,
                format!(
                    "the {what} `{name}` has the name of a feature of `{}`: in a formula `{name}` would mean the position's feature `{name}` and the {what} at once",
                    clip(game.value(), 80)
                ),
                Some(format!(
                    "rename the {what} (features of this game: {})",
                    clip(&features.join(", "), 300)
                )),
            ));
        }
    }
    Ok(())
}

pub(crate) fn validate_claim(
    src: &Source,
    id: &str,
    h: &RawHeader,
    r: RawClaim,
) -> Result<Spec, SpecError> {
    let closure = closure_of(src, &r.closure)?;
    closure_as_stated(src, h, closure, &r.closure)?;
    let ps = params(src, &r.params)?;
    // Only an outcome claim may name a game played misère (docs/user-games.md, "Misère play"):
    // a `nim:` or `holds:` claim about one is refused at its field, saying why.
    let (features, misere) = probe_game_with(src, &r.game, &ps, closure, true)?;
    if let Some(why) = misere {
        let stated = match (&r.nim, &r.holds) {
            (Some(f), _) => Some(("nim", f.line(), f.column())),
            (None, Some(f)) => Some(("holds", f.line(), f.column())),
            _ => None,
        };
        if let Some((field, line, column)) = stated {
            return Err(src.error_at(
                line,
                column,
                1,
                format!(
                    "{why}: only `outcome:` claims are checked for it, not `{field}:`, since {}",
                    crate::game::user::misere::OUTCOMES_ONLY
                ),
                Some(
                    "state the outcome, `outcome: P` or `outcome: N` (or a formula giving them)"
                        .into(),
                ),
            ));
        }
    }
    no_shadowing(
        src,
        &r.game,
        &features,
        r.params.iter().map(|(k, v)| ("parameter", k.as_str(), v)),
    )?;
    no_shadowing(
        src,
        &r.game,
        &features,
        r.lets.iter().map(|(k, v)| ("`let`", k.as_str(), v)),
    )?;
    let positions = match &r.positions {
        None => Positions::Start,
        Some(p) => match p.value().as_str() {
            "start" => Positions::Start,
            "reachable" => Positions::Reachable,
            other => {
                return Err(src.error(
                    p,
                    format!("unknown positions `{other}`"),
                    Some("expected `start` or `reachable`".into()),
                ))
            }
        },
    };
    let filter = r.filter.as_ref().map(|f| formula(src, f)).transpose()?;
    let filter_loc = r
        .filter
        .as_ref()
        .map(|f| src.loc(f))
        .unwrap_or_else(|| src.loc(&r.game));
    let lets = r
        .lets
        .iter()
        .map(|(k, v)| Ok((k.clone(), formula(src, v)?, src.loc(v))))
        .collect::<Result<Vec<_>, SpecError>>()?;
    let (claimed, claimed_loc) = match (&r.nim, &r.outcome, &r.holds) {
        (Some(n), None, None) => (Claimed::Nim(value_formula(src, n)?), src.loc(n)),
        (None, Some(o), None) => (Claimed::Outcome(value_formula(src, o)?), src.loc(o)),
        (None, None, Some(p)) => (Claimed::Holds(formula(src, p)?), src.loc(p)),
        (None, None, None) => {
            return Err(src.error(
                &h.kind,
                "a claim needs `nim`, `outcome` or `holds`",
                Some("e.g. `nim: 0`, `outcome: P` or `holds: \"solid\"`".into()),
            ))
        }
        _ => {
            return Err(src.error(
                &h.kind,
                "a claim states one of `nim`, `outcome` and `holds`, not several",
                None,
            ))
        }
    };
    let claim = Claim {
        id: id.to_string(),
        file: src.file.to_string(),
        source: h.source.value().clone(),
        notes: h.notes.clone(),
        game: r.game.value().clone(),
        game_loc: src.loc(&r.game),
        closure,
        params: ps,
        filter,
        filter_loc,
        lets,
        positions,
        claimed,
        claimed_loc,
        expect: expectation(src, h)?,
        family_features_read: Default::default(),
        is_group: r.is_group.as_ref().map(|g| (g.value().clone(), src.loc(g))),
        unreached: match r.nim.as_ref().or(r.outcome.as_ref()).map(|f| f.value()) {
            Some(RawFormula::Cases { cases }) => {
                cases.iter().map(|c| c.unreached.clone()).collect()
            }
            _ => Vec::new(),
        },
    };
    Ok(Spec::new(claim, outputs(src, &h.output)?))
}

fn parse_drange(
    src: &Source,
    at: &Sp<serde_json::Value>,
    t: &str,
) -> Result<crate::check::signatures::DRange, SpecError> {
    use crate::check::signatures::DRange;
    let t = t.trim();
    let num = |x: &str| {
        x.trim().parse::<i64>().map_err(|_| {
            src.error(
                at,
                format!("bad d `{t}`"),
                Some("expected \"<=-1\", \"0\" or \">=4\"".into()),
            )
        })
    };
    Ok(if let Some(x) = t.strip_prefix("<=") {
        DRange::Le(num(x)?)
    } else if let Some(x) = t.strip_prefix(">=") {
        DRange::Ge(num(x)?)
    } else {
        DRange::Eq(num(t)?)
    })
}

fn validate_signature_table(
    src: &Source,
    id: &str,
    h: &RawHeader,
    r: RawTable,
) -> Result<Spec, SpecError> {
    use crate::check::signatures::{SigRow, SignatureTable};
    let data = r.data.as_ref().ok_or_else(|| {
        src.error(
            &h.kind,
            "a `signatures` table needs `data` with `max_sum` and `rows`",
            None,
        )
    })?;
    let raw: raw::RawSigData = serde_json::from_value(data.value().clone()).map_err(|e| {
        src.error(
            data,
            format!("bad signature table data: {e}"),
            Some("see `grundy schema` (RawSigData)".into()),
        )
    })?;
    let mut rows = Vec::new();
    for row in &raw.rows {
        if row.p > 1 {
            return Err(src.error(data, format!("p = {} is not a parity", row.p), None));
        }
        rows.push(SigRow {
            p: row.p,
            d: parse_drange(src, data, &row.d)?,
            same: row.same,
            up: row.up,
            down: row.down,
            inf: row.inf,
            subset: row.subset.clone(),
            superset: row.superset.clone(),
            mex: row.mex,
            boxed: {
                for b in &row.boxed {
                    if !matches!(b.as_str(), "same" | "up" | "down" | "inf") {
                        return Err(src.error(
                            data,
                            format!("unknown column `{b}` in `boxed`"),
                            Some("expected same, up, down or inf".into()),
                        ));
                    }
                }
                row.boxed.clone()
            },
        });
    }
    let conditions = match raw.conditions.as_deref() {
        None | Some("none") => crate::check::signatures::Conditions::Off,
        Some("paper") => crate::check::signatures::Conditions::Paper,
        Some("corrected") => crate::check::signatures::Conditions::Corrected,
        Some(other) => {
            return Err(src.error(
                data,
                format!("unknown conditions `{other}`"),
                Some("expected none, paper or corrected".into()),
            ))
        }
    };
    let table = SignatureTable {
        conditions,
        id: id.to_string(),
        file: src.file.to_string(),
        source: h.source.value().clone(),
        title: r.title.clone(),
        notes: h.notes.clone(),
        rows,
        max_sum: raw.max_sum,
        expect: expectation(src, h)?,
        loc: src.loc(data),
    };
    Ok(Spec::new(table, outputs(src, &h.output)?))
}

pub(crate) fn validate_table(
    src: &Source,
    id: &str,
    h: &RawHeader,
    r: RawTable,
) -> Result<Spec, SpecError> {
    let kind = r.table.as_ref().map_or("values", |t| t.value().as_str());
    if kind == "signatures" {
        return validate_signature_table(src, id, h, r);
    }
    if kind != "values" {
        let at = r
            .table
            .as_ref()
            .expect("a non-default table kind was given");
        return Err(src.error(
            at,
            format!("unknown table kind `{kind}`"),
            Some("expected `values` or `signatures`".into()),
        ));
    }
    if let Some(e) = &h.expect {
        return Err(src.error(
            e,
            "a value table states nothing that could be refuted",
            Some("remove `expect`".into()),
        ));
    }
    let closure = closure_of(src, &r.closure)?;
    closure_as_stated(src, h, closure, &r.closure)?;
    let rows = params(src, &r.rows)?;
    let [row] = <[Param; 1]>::try_from(rows).map_err(|_| {
        src.error(
            &h.kind,
            "a value table needs exactly one row parameter under `rows`",
            None,
        )
    })?;
    let cols = params(src, &r.columns)?;
    let columns = match (cols.len(), &r.game, r.games.is_empty()) {
        (1, Some(g), true) => {
            let ps = vec![row.clone(), cols[0].clone()];
            probe_game(src, g, &ps, closure)?;
            Columns::Param { param: cols[0].clone(), game: g.value().clone() }
        }
        (0, None, false) => Columns::Games(r.games.iter().map(|(h, g)| (h.clone(), g.clone())).collect()),
        _ => {
            return Err(src.error(
                &h.kind,
                "a value table has either one `columns` parameter with a `game`, or a `games` map of column headers to games",
                None,
            ))
        }
    };
    let table = ValueTable {
        id: id.to_string(),
        file: src.file.to_string(),
        source: h.source.value().clone(),
        title: r.title.clone(),
        row,
        columns,
        closure,
        loc: src.loc(&h.kind),
    };
    Ok(Spec::new(table, outputs(src, &h.output)?))
}

/// JSON Schema of the spec format: one of `kinds` (the registered ones, `crate::kinds::KINDS`,
/// in their order), each its header and body; the header's `kind` field lists the kinds.
pub fn schema(kinds: &[KindEntry]) -> serde_json::Value {
    use serde_json::{json, Value};
    let mut generator = schemars::SchemaGenerator::default();
    let alternatives: Vec<Value> = kinds
        .iter()
        .map(|k| (k.schema)(&mut generator).to_value())
        .collect();
    let names: Vec<&str> = kinds.iter().map(|k| k.name).collect();
    let mut defs = serde_json::Map::new();
    for (name, def) in generator.take_definitions(true) {
        defs.insert(name, def);
    }
    for def in defs.values_mut() {
        if let Some(kind) = def.pointer_mut("/properties/kind") {
            kind["description"] = json!(format!("The spec kind: {}.", names.join(", ")));
        }
    }
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "AnySpec",
        "anyOf": alternatives,
        "$defs": defs,
    })
}

fn names(sets: &[Vec<RawName>]) -> Vec<Vec<String>> {
    sets.iter()
        .map(|s| s.iter().map(RawName::name).collect())
        .collect()
}

pub(crate) fn validate_sets(
    src: &Source,
    id: &str,
    h: &RawHeader,
    r: RawSets,
) -> Result<Spec, SpecError> {
    let body = match (&r.transversal_of, &r.graph) {
        (Some(fam), None) => {
            let Some(members) = &r.members else {
                return Err(src.error(
                    fam,
                    "`transversal_of` needs `members`: the claimed minimal transversals",
                    None,
                ));
            };
            SetsBody::Transversal {
                family: names(fam.value()),
                members: names(members.value()),
            }
        }
        (None, Some(graph)) => {
            let closure = closure_of(src, &r.closure)?;
            closure_as_stated(src, h, closure, &r.closure)?;
            let ps = params(src, &r.params)?;
            let first: Vec<(String, ParamValue)> = ps
                .iter()
                .map(|p| (p.name.clone(), p.values[0].clone()))
                .collect();
            let text = crate::expr::substitute(graph.value(), &first);
            let g = crate::graph::parse_graph(&text)
                .map_err(|e| src.error(graph, format!("bad graph `{text}`: {e}"), None))?;
            let fam_at = r.family.as_ref().ok_or_else(|| {
                src.error(
                    graph,
                    "a sets claim names its `family`",
                    Some("expected G, N, G* or N*".into()),
                )
            })?;
            let family = Family::parse(fam_at.value()).ok_or_else(|| {
                src.error(
                    fam_at,
                    format!("unknown family `{}`", fam_at.value()),
                    Some("expected G, N, G* or N*".into()),
                )
            })?;
            let members = match (&r.members, &r.rule) {
                (Some(m), None) => {
                    let sets = names(m.value());
                    for v in sets.iter().flatten() {
                        if ps.is_empty() && g.vertex_index(v).is_none() {
                            return Err(src.error(
                                m,
                                format!("`{v}` is not a vertex of {}", g.name()),
                                Some(format!("vertices: {}", g.names().join(", "))),
                            ));
                        }
                    }
                    Members::Explicit(sets)
                }
                (None, Some(rule)) => Members::Rule(formula(src, rule)?),
                _ => {
                    return Err(src.error(
                        fam_at,
                        "give either `members` (the sets) or `rule` (a predicate over S)",
                        None,
                    ))
                }
            };
            let filter = r.filter.as_ref().map(|f| formula(src, f)).transpose()?;
            SetsBody::Graph {
                graph: graph.value().clone(),
                closure,
                params: ps,
                filter,
                family,
                members,
            }
        }
        _ => {
            return Err(src.error(
                &h.kind,
                "a sets claim has either a `graph` or `transversal_of`",
                None,
            ))
        }
    };
    let sets = SetsClaim {
        id: id.to_string(),
        file: src.file.to_string(),
        source: h.source.value().clone(),
        notes: h.notes.clone(),
        expect: expectation(src, h)?,
        loc: src.loc(r.graph.as_ref().unwrap_or(&h.kind)),
        body,
    };
    Ok(Spec::new(sets, outputs(src, &h.output)?))
}

/// The most values a sequence spec may ask for.
pub const MAX_SEQUENCE: u64 = 200_000;

pub(crate) fn validate_sequence(
    src: &Source,
    id: &str,
    h: &RawHeader,
    r: RawSequence,
) -> Result<Spec, SpecError> {
    let code = crate::game::octal::OctalCode::parse(r.octal.value()).map_err(|e| {
        src.error(
            &r.octal,
            format!("bad octal code `{}`: {e}", r.octal.value()),
            Some("e.g. 0.137 (Dawson's Chess), 0.07, 4.7".into()),
        )
    })?;
    let length = match &r.length {
        None => 1000,
        Some(l) if *l.value() == 0 || *l.value() > MAX_SEQUENCE => {
            return Err(src.error(
                l,
                format!("length {} is out of range", l.value()),
                Some(format!("expected 1..={MAX_SEQUENCE}")),
            ))
        }
        Some(l) => *l.value() as usize,
    };
    let values = match &r.values {
        None => None,
        Some(v) => {
            let text = v.value();
            let tokens: Vec<&str> = if text.contains(',') {
                text.split(',').map(str::trim).collect()
            } else {
                text.split_whitespace().collect()
            };
            let mut out = Vec::new();
            for t in tokens.into_iter().filter(|t| !t.is_empty()) {
                let digits = !text.contains(',') && t.chars().all(|c| c.is_ascii_digit());
                if digits {
                    out.extend(t.chars().map(|c| c as u32 - '0' as u32));
                } else {
                    out.push(t.parse::<u32>().map_err(|_| {
                        src.error(
                            v,
                            format!("`{t}` is not a nim-value"),
                            Some("list digits (0112…) or comma-separated numbers".into()),
                        )
                    })?);
                }
            }
            Some(out)
        }
    };
    let stated = Stated {
        values,
        period: r.period.as_ref().map(|p| *p.value() as usize),
        preperiod: r.preperiod.as_ref().map(|p| *p.value() as usize),
        least: r.least_preperiod.unwrap_or(false),
    };
    let sequence = SequenceSpec {
        id: id.to_string(),
        file: src.file.to_string(),
        source: h.source.value().clone(),
        notes: h.notes.clone(),
        title: r.title.clone(),
        code,
        length,
        stated,
        expect: expectation(src, h)?,
        loc: src.loc(&r.octal),
    };
    Ok(Spec::new(sequence, outputs(src, &h.output)?))
}
