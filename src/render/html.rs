//! The browsable proof report, in the style of a Lean blueprint: `output/index.html` lists every
//! result of each paper in the paper's order with its status, typeset statement, range and
//! coverage; `output/site/<paper>/<id>.html` is a page per spec (its YAML with line numbers, the
//! verdict, the counterexample drawn as a small gamegraph, figures, tables, artifact links);
//! a dependency graph per paper coloured by status; and plots of the recorded data (nim-value
//! spectrum, Dawson's Chess, Conjecture 5.5, wheels) as SVG (plotters) and pgfplots (.tex).
//! Figures are shown as the paper prints them, their TikZ typeset by LaTeX ([`typeset`]), when
//! TeX is installed, else as the Graphviz preview, and the page says which.
//!
//! Everything is static and works from file:// offline: KaTeX (vendored from the npm package,
//! MIT) typesets statements in the browser. Pages come from `templates/html/` with HTML
//! autoescaping; the only unescaped markup is what this module builds from escaped parts.
//! Bytes are deterministic: no times, no absolute paths.

pub mod deps;
pub mod math;
pub mod order;
pub mod plots;
pub mod status;
pub mod typeset;

use super::{RenderError, Renderer};
use crate::check::Report;
use crate::spec::Spec;
use math::Seg;
use serde::Serialize;
use serde_json::Value;
use status::Status;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// One checked spec, as the site sees it.
pub struct Entry<'a> {
    pub spec: &'a Spec,
    pub report: &'a Report,
    /// The view its templates rendered (a table, a sequence, a diagram…), if any.
    pub view: Option<&'a Value>,
    /// The verdict of the independent checker `grundy-verify` (certificates/VERIFIED.json).
    pub verified: Option<&'a str>,
}

/// What the site is built from.
pub struct SiteInput<'a> {
    pub entries: Vec<Entry<'a>>,
    /// The artifacts already rendered (paths relative to output/), so that pages link only to
    /// files that exist (a PDF is skipped without Graphviz).
    pub written: &'a [(PathBuf, Vec<u8>)],
    /// Where recorded data lives (`scale/spectrum_results.yaml`,
    /// `scale/conjecture_5_5_results.yaml`): the output directory. Plots of absent data are
    /// left out with a note.
    pub recorded: Option<&'a Path>,
}

/// The vendored KaTeX files, embedded so that any `--templates` directory works.
const KATEX: &[(&str, &[u8])] = &[
    (
        "katex.min.js",
        include_bytes!("../../templates/html/vendor/katex/katex.min.js"),
    ),
    (
        "katex.min.css",
        include_bytes!("../../templates/html/vendor/katex/katex.min.css"),
    ),
    (
        "LICENSE",
        include_bytes!("../../templates/html/vendor/katex/LICENSE"),
    ),
    (
        "fonts/KaTeX_AMS-Regular.woff2",
        include_bytes!("../../templates/html/vendor/katex/fonts/KaTeX_AMS-Regular.woff2"),
    ),
    (
        "fonts/KaTeX_Caligraphic-Bold.woff2",
        include_bytes!("../../templates/html/vendor/katex/fonts/KaTeX_Caligraphic-Bold.woff2"),
    ),
    (
        "fonts/KaTeX_Caligraphic-Regular.woff2",
        include_bytes!("../../templates/html/vendor/katex/fonts/KaTeX_Caligraphic-Regular.woff2"),
    ),
    (
        "fonts/KaTeX_Fraktur-Bold.woff2",
        include_bytes!("../../templates/html/vendor/katex/fonts/KaTeX_Fraktur-Bold.woff2"),
    ),
    (
        "fonts/KaTeX_Fraktur-Regular.woff2",
        include_bytes!("../../templates/html/vendor/katex/fonts/KaTeX_Fraktur-Regular.woff2"),
    ),
    (
        "fonts/KaTeX_Main-Bold.woff2",
        include_bytes!("../../templates/html/vendor/katex/fonts/KaTeX_Main-Bold.woff2"),
    ),
    (
        "fonts/KaTeX_Main-BoldItalic.woff2",
        include_bytes!("../../templates/html/vendor/katex/fonts/KaTeX_Main-BoldItalic.woff2"),
    ),
    (
        "fonts/KaTeX_Main-Italic.woff2",
        include_bytes!("../../templates/html/vendor/katex/fonts/KaTeX_Main-Italic.woff2"),
    ),
    (
        "fonts/KaTeX_Main-Regular.woff2",
        include_bytes!("../../templates/html/vendor/katex/fonts/KaTeX_Main-Regular.woff2"),
    ),
    (
        "fonts/KaTeX_Math-BoldItalic.woff2",
        include_bytes!("../../templates/html/vendor/katex/fonts/KaTeX_Math-BoldItalic.woff2"),
    ),
    (
        "fonts/KaTeX_Math-Italic.woff2",
        include_bytes!("../../templates/html/vendor/katex/fonts/KaTeX_Math-Italic.woff2"),
    ),
    (
        "fonts/KaTeX_SansSerif-Bold.woff2",
        include_bytes!("../../templates/html/vendor/katex/fonts/KaTeX_SansSerif-Bold.woff2"),
    ),
    (
        "fonts/KaTeX_SansSerif-Italic.woff2",
        include_bytes!("../../templates/html/vendor/katex/fonts/KaTeX_SansSerif-Italic.woff2"),
    ),
    (
        "fonts/KaTeX_SansSerif-Regular.woff2",
        include_bytes!("../../templates/html/vendor/katex/fonts/KaTeX_SansSerif-Regular.woff2"),
    ),
    (
        "fonts/KaTeX_Script-Regular.woff2",
        include_bytes!("../../templates/html/vendor/katex/fonts/KaTeX_Script-Regular.woff2"),
    ),
    (
        "fonts/KaTeX_Size1-Regular.woff2",
        include_bytes!("../../templates/html/vendor/katex/fonts/KaTeX_Size1-Regular.woff2"),
    ),
    (
        "fonts/KaTeX_Size2-Regular.woff2",
        include_bytes!("../../templates/html/vendor/katex/fonts/KaTeX_Size2-Regular.woff2"),
    ),
    (
        "fonts/KaTeX_Size3-Regular.woff2",
        include_bytes!("../../templates/html/vendor/katex/fonts/KaTeX_Size3-Regular.woff2"),
    ),
    (
        "fonts/KaTeX_Size4-Regular.woff2",
        include_bytes!("../../templates/html/vendor/katex/fonts/KaTeX_Size4-Regular.woff2"),
    ),
    (
        "fonts/KaTeX_Typewriter-Regular.woff2",
        include_bytes!("../../templates/html/vendor/katex/fonts/KaTeX_Typewriter-Regular.woff2"),
    ),
];

/// A link.
#[derive(Serialize, Clone)]
pub struct Link {
    pub href: String,
    pub label: String,
}

/// A generic table (coverage parts, a rendered Markdown table).
#[derive(Serialize, Default)]
pub struct Grid {
    pub caption: Vec<Seg>,
    pub header: Vec<Vec<Seg>>,
    pub rows: Vec<Vec<Cell>>,
    /// A note under the table (what the boxes of Table 5.1 mean).
    pub legend: Vec<Seg>,
}

/// A table cell: its text typeset (a coverage part's condition, a header's `W_n`).
#[derive(Serialize)]
pub struct Cell {
    pub segs: Vec<Seg>,
    pub strong: bool,
    /// A boxed possibility of Table 5.1 (1, 2, 3: the box style of its group of rows; 0: none).
    pub boxed: u8,
}

impl Cell {
    fn plain(text: &str) -> Cell {
        Cell {
            segs: math::segments(text),
            strong: false,
            boxed: 0,
        }
    }
    fn math(tex: &str) -> Cell {
        Cell {
            segs: if tex.is_empty() {
                Vec::new()
            } else {
                vec![Seg::math(tex)]
            },
            strong: false,
            boxed: 0,
        }
    }
}

/// A signature table (Table 5.1) from the typed view its `.tex` template is fed
/// (`check::signatures::TableView`): the paper's columns ρ(U) = (p, d), p̃, then d̃ and nim(Ũ)
/// under conditions (1)-(4), nim∘Opt and the mex, with the boxed possibilities of each group
/// of rows in the box style the TeX uses (single, double, thick, in turn). None when the view
/// is not such a table.
fn signature_grid(view: &Value) -> Option<Grid> {
    let rows = view.get("rows")?.as_array()?;
    if rows.is_empty()
        || rows
            .iter()
            .any(|r| r.get("p_tilde").is_none() || r.get("cells").is_none())
    {
        return None;
    }
    let text = |v: Option<&Value>| v.map(scalar_text).unwrap_or_default();
    let mut header = vec![
        vec![Seg::math("p")],
        vec![Seg::math("d")],
        vec![Seg::math("\\tilde{p}")],
    ];
    for cond in ["\\sigma>0", "\\lambda>1", "\\nu=0", "\\lambda=1,\\ m=2"] {
        header.push(vec![Seg::math(&format!("{cond}:\\ \\tilde{{d}}"))]);
        header.push(vec![Seg::math("\\operatorname{nim}(\\tilde{U})")]);
    }
    header.push(vec![Seg::math(
        "\\operatorname{nim}\\circ\\operatorname{Opt}",
    )]);
    header.push(vec![Seg::math("\\operatorname{mex}")]);
    let mut group = 0u8;
    let mut out = Vec::new();
    for r in rows {
        let cells = r.get("cells")?.as_array()?;
        let boxed_row = cells
            .iter()
            .any(|c| c.get("boxed") == Some(&Value::Bool(true)));
        if boxed_row {
            group += 1;
        }
        let style = (group + 2) % 3 + 1;
        let mut row = vec![
            Cell::plain(&text(r.get("p"))),
            Cell::math(&text(r.get("d"))),
            Cell::plain(&text(r.get("p_tilde"))),
        ];
        for c in cells {
            row.push(Cell::math(&text(c.get("d"))));
            let mut nim = Cell::plain(&text(c.get("nim")));
            if c.get("boxed") == Some(&Value::Bool(true)) {
                nim.boxed = style;
            }
            row.push(nim);
        }
        let (sub, sup) = (text(r.get("subset")), text(r.get("superset")));
        row.push(Cell::math(
            &if r.get("same_sets") == Some(&Value::Bool(true)) {
                sup
            } else {
                format!("{sub},\\,{sup}")
            },
        ));
        row.push(Cell::plain(&text(r.get("mex"))));
        out.push(row);
    }
    Some(Grid {
        caption: math::segments(&text(view.get("title"))),
        header,
        rows: out,
        legend: math::segments(
            "In each row, one of the boxed possibilities must occur. The rows with boxes are \
             framed in turn single, double and thick, so that the boxes of one row are not read \
             with those of the next. The column nim∘Opt shows a subset and \
             a superset of nim(Opt(U)).",
        ),
    })
}

/// One result in the index (and at the top of its page).
#[derive(Serialize)]
pub struct ResultRow {
    pub id: String,
    pub paper: String,
    /// The page, relative to output/.
    pub page: String,
    pub source: String,
    /// The source typeset (a title such as `DNG on the Hasse diagram of B_2`).
    pub source_segs: Vec<Seg>,
    pub kind: String,
    pub status: &'static str,
    pub status_label: &'static str,
    pub verdict: &'static str,
    /// The parts of a holding claim excused as unreached ([`crate::check::Report::excused`]).
    pub excused: Option<String>,
    /// The laws of a game spec the verdict rests on ([`crate::check::Report::laws`]).
    pub laws: Option<String>,
    /// What the spec's structure was checked to be ([`crate::check::Report::identity`]).
    pub identity: Option<String>,
    /// The spec's `sanity:` reason: a sanity check, not counted among the results.
    pub sanity: Option<String>,
    pub expect: &'static str,
    pub as_expected: bool,
    pub title: Vec<Seg>,
    pub statement: Vec<Seg>,
    pub game: Vec<Seg>,
    /// What was checked, in the spec's own formal terms (issue 42 item 4): for a claim,
    /// `nim(TER(W_n)) = k + nim("TER(W_" + n + ")")` and its filter, one line per case.
    pub checked_as: Vec<String>,
    pub range: Vec<Seg>,
    pub instances: u64,
    pub positions: u64,
    pub because: Option<Vec<Seg>>,
    pub coverage: Option<Grid>,
    pub counterexample: Option<String>,
    /// The verdict of `grundy-verify` on the certificate, and its class.
    pub verified: Option<String>,
    pub verified_class: &'static str,
    /// The verifier's verdict line typeset (its backticked names as code, not raw backticks).
    pub verified_segs: Vec<Seg>,
    /// The verifier's mark beside the status badge (`re-derived by grundy-verify`, `partly
    /// re-derived`, …), none when the verifier has not run on this build.
    pub verified_mark: Option<&'static str>,
    /// The premises the verdict rests on (`uses:`): "id (source, verdict on range)".
    pub rests_on: Vec<Vec<Seg>>,
    /// Anchors by paper number on the index (`thm-5.43`, `seed002-thm-16`): each names the
    /// first result of its number; the spec id stays the row's own id.
    pub anchors: Vec<String>,
    /// What the index's search box matches: source, id, kind, title, statement, anchors.
    pub search: String,
}

#[derive(Serialize)]
struct StatusCount {
    class: &'static str,
    label: &'static str,
    count: usize,
}

#[derive(Serialize)]
struct PaperView {
    name: String,
    results: Vec<ResultRow>,
    /// How many of the rows are sanity checks (not counted among the results).
    sanity: usize,
    counts: Vec<StatusCount>,
    /// The dependency graph's SVG, relative to output/ (None: no dependencies recorded).
    deps: Option<String>,
    deps_nodes: usize,
    deps_edges: usize,
}

#[derive(Serialize)]
struct IndexView {
    root: &'static str,
    title: &'static str,
    /// The results, sanity checks left out (they are counted apart).
    specs: usize,
    as_expected: usize,
    sanity: usize,
    papers: Vec<PaperView>,
    legend: Vec<StatusCount>,
    /// How many results have each verdict of `grundy-verify`.
    verified_counts: Vec<crate::render::verdicts::VerifiedCount>,
    plots: Vec<plots::PlotRef>,
    plot_notes: Vec<String>,
}

#[derive(Serialize)]
struct Line {
    n: usize,
    text: String,
}

#[derive(Serialize)]
struct CexView {
    instance: String,
    game: Vec<Seg>,
    position: Option<String>,
    claimed: String,
    computed: String,
    evidence: Vec<String>,
    /// The options drawn as a gamegraph (SVG, relative to the page).
    graph: Option<String>,
}

/// A figure on its spec page: the picture and the caption a paper would print.
#[derive(Serialize)]
struct FigureView {
    /// The Graphviz preview (SVG), relative to the page.
    href: String,
    label: String,
    caption: Vec<Seg>,
    /// The TikZ drawing typeset by LaTeX (SVG), relative to the page, when TeX is there.
    typeset: Option<String>,
    /// The TikZ source, relative to the page, if the build wrote one.
    tikz: Option<String>,
    /// Why the preview is shown instead of the typeset figure (None: it is not).
    preview_because: Option<String>,
}

/// The typeset caption of an artifact (`x.svg`, `x.md`) from its `x.caption.tex`, if written.
fn caption_of(by_path: &BTreeMap<String, &Vec<u8>>, artifact: &str) -> Option<Vec<Seg>> {
    let stem = artifact.rsplit_once('.')?.0;
    let tex = by_path.get(&format!("{stem}.caption.tex"))?;
    math::caption_tex(&String::from_utf8_lossy(tex))
}

#[derive(Serialize)]
struct SpecPage {
    root: &'static str,
    title: String,
    row: ResultRow,
    notes: Vec<Seg>,
    source_file: String,
    lines: Vec<Line>,
    cex: Option<CexView>,
    figures: Vec<FigureView>,
    tables: Vec<Grid>,
    artifacts: Vec<Link>,
    uses: Vec<Link>,
    used_by: Vec<Link>,
}

/// The paper a spec belongs to: the folder under `specs/` (`specs/paper000/diagrams/x.yaml`
/// is paper000), else the spec's folder.
pub fn paper_of(file: &str) -> String {
    let p = Path::new(file);
    let parts: Vec<String> = p
        .parent()
        .map(|d| {
            d.components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    if let Some(i) = parts.iter().rposition(|c| c == "specs") {
        if let Some(next) = parts.get(i + 1) {
            return next.clone();
        }
    }
    parts.last().cloned().unwrap_or_else(|| "specs".to_string())
}

/// Where the page of a spec goes.
pub fn page_path(spec: &Spec) -> PathBuf {
    PathBuf::from(format!(
        "site/{}/{}.html",
        paper_of(spec.body.file()),
        spec.id()
    ))
}

/// A spec's YAML read again for what the model does not keep (statement, title, `uses:`,
/// `because:`, diagram sinks). The spec was read before, so failure only loses those extras.
fn yaml_of(text: &str) -> Value {
    serde_saphyr::from_str::<Value>(text).unwrap_or(Value::Null)
}

/// [`checked_as`] of the spec in `file` (read again, as the site does).
pub fn checked_as_file(kind: &str, file: &str) -> Vec<String> {
    crate::files::read_regular_text(Path::new(file), crate::spec::MAX_SPEC_BYTES)
        .ok()
        .map_or_else(Vec::new, |t| checked_as(kind, &yaml_of(&t)))
}

/// A spec's formal content as the spec writes it, beside its prose statement (issue 42 item
/// 4). A claim: the compared value or predicate, its cases, the positions it is about, its
/// `let`s, its filter and its declared group. A diagram: the games whose starts must be
/// P-positions and each node's predicate. A family of sets, a map, a value table, a sequence,
/// an even-kernel certificate: what is compared with what. Figures draw and state nothing.
pub fn checked_as(kind: &str, yaml: &Value) -> Vec<String> {
    match kind {
        "claim" => claim_checked_as(yaml),
        "diagram" => diagram_checked_as(yaml),
        "sets" => sets_checked_as(yaml),
        "reduction" => reduction_checked_as(yaml),
        "sequence" => sequence_checked_as(yaml),
        "certificate" => certificate_checked_as(yaml),
        "table" => table_checked_as(yaml),
        _ => Vec::new(),
    }
}

fn closure_suffix(yaml: &Value) -> String {
    str_field(yaml, "closure").map_or(String::new(), |c| format!(" [{c}]"))
}

fn params_text(yaml: &Value) -> Option<String> {
    ranges_text(yaml, "params")
}

/// `for n in 5..=16, m in 2,3` of a map of ranges (`params:`, a table's `rows:`/`columns:`).
fn ranges_text(yaml: &Value, key: &str) -> Option<String> {
    let Some(Value::Object(ps)) = yaml.get(key) else {
        return None;
    };
    let parts: Vec<String> = ps
        .iter()
        .map(|(k, v)| format!("{k} in {}", scalar_text(v).trim()))
        .collect();
    (!parts.is_empty()).then(|| format!("for {}", parts.join(", ")))
}

fn diagram_checked_as(yaml: &Value) -> Vec<String> {
    let mut out = Vec::new();
    for s in yaml
        .get("starts")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let Some(game) = str_field(s, "game") else {
            continue;
        };
        let which = match str_field(s, "positions").as_deref() {
            Some("reachable") => "every reachable position",
            _ => "the start",
        };
        let mut line = format!("{which} of {game}{} is a P-position", closure_suffix(s));
        if let Some(p) = params_text(s) {
            line.push_str(&format!(" {p}"));
        }
        if let Some(w) = str_field(s, "where") {
            line.push_str(&format!(" where {w}"));
        }
        out.push(line);
    }
    if let Some(Value::Object(nodes)) = yaml.get("nodes") {
        for (name, n) in nodes {
            let when = str_field(n, "when").unwrap_or_default();
            let mut line = format!("node {name}: {when}");
            if n.get("start").is_some() {
                line.push_str("  (start)");
            }
            if let Some(sink) = n.get("sink") {
                line.push_str(&format!("  (sink {})", scalar_text(sink).trim()));
            }
            out.push(line);
        }
    }
    out
}

/// A family of sets as `{a, b}, {c}`, when every member is a list of names or numbers (YAML
/// may read a bare `y` as a boolean, which would print as `true`): else how many members.
fn family_text(v: &Value) -> String {
    let sets: Option<Vec<String>> = v.as_array().and_then(|members| {
        members
            .iter()
            .map(|m| {
                let names: Option<Vec<String>> = m
                    .as_array()?
                    .iter()
                    .map(|e| match e {
                        Value::String(s) => Some(s.clone()),
                        Value::Number(n) => Some(n.to_string()),
                        _ => None,
                    })
                    .collect();
                Some(format!("{{{}}}", names?.join(", ")))
            })
            .collect()
    });
    match sets {
        Some(sets) => format!("{{{}}}", sets.join(", ")),
        None => format!(
            "the {} sets of the spec's list",
            v.as_array().map_or(0, Vec::len)
        ),
    }
}

fn sets_checked_as(yaml: &Value) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(t) = yaml.get("transversal_of") {
        let members = yaml.get("members").map_or_else(String::new, family_text);
        out.push(format!(
            "the minimal transversals of {} are {members}",
            family_text(t)
        ));
        return out;
    }
    let graph = str_field(yaml, "graph").unwrap_or_default();
    let family = str_field(yaml, "family").unwrap_or_default();
    let of = format!("{family} of {graph}{}", closure_suffix(yaml));
    if let Some(m) = yaml.get("members") {
        out.push(format!("{of} = {}", family_text(m)));
    }
    if let Some(r) = str_field(yaml, "rule") {
        out.push(format!("S in {of} iff {r}"));
    }
    if let Some(p) = params_text(yaml) {
        out.push(p);
    }
    out
}

fn reduction_checked_as(yaml: &Value) -> Vec<String> {
    let from = str_field(yaml, "from").unwrap_or_default();
    let to = str_field(yaml, "to").unwrap_or_default();
    let q = |k: &str| str_field(yaml, k).map_or(String::new(), |q| format!(" / {q}"));
    let claims: Vec<String> = yaml
        .get("claims")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(scalar_text)
        .collect();
    let mut out = vec![format!(
        "f: {from}{} -> {to}{}{} is {}",
        q("from_quotient"),
        q("to_quotient"),
        closure_suffix(yaml),
        claims.join(", ")
    )];
    if yaml.get("map").is_some() {
        out.push("f is the spec's `map:` script".into());
    }
    if let Some(p) = params_text(yaml) {
        out.push(p);
    }
    if let Some(w) = str_field(yaml, "where") {
        out.push(format!("for the instances where {w}"));
    }
    out
}

fn sequence_checked_as(yaml: &Value) -> Vec<String> {
    let game = str_field(yaml, "octal")
        .map(|o| format!("the octal game {o}"))
        .or_else(|| str_field(yaml, "game"))
        .unwrap_or_default();
    let mut out = Vec::new();
    if yaml.get("values").is_some() {
        let n = str_field(yaml, "length").unwrap_or_default();
        out.push(format!(
            "the nim-values of {game} on heaps n < {n} are the listed values"
        ));
    }
    if let Some(p) = str_field(yaml, "period") {
        out.push(format!("period {p}"));
    }
    if let Some(p) = str_field(yaml, "preperiod") {
        out.push(format!("preperiod {p}"));
    }
    out
}

fn certificate_checked_as(yaml: &Value) -> Vec<String> {
    let graph = str_field(yaml, "graph").unwrap_or_default();
    let token = str_field(yaml, "token").unwrap_or_default();
    let mut out = vec![format!(
        "UEG({graph}, {token}) has an even kernel: the token's start is a P-position"
    )];
    if let Some(p) = params_text(yaml) {
        out.push(p);
    }
    if let Some(Value::Object(lets)) = yaml.get("let") {
        for (k, v) in lets {
            out.push(format!("let {k} = {}", scalar_text(v).trim()));
        }
    }
    out
}

fn table_checked_as(yaml: &Value) -> Vec<String> {
    if str_field(yaml, "table").as_deref() == Some("signatures") {
        return vec![
            "each row (signature ρ(U) = (p, d), the options' d̃ under conditions (1)–(4), a subset and a superset of nim(Opt(U)), the mex) against every nonterminal multiset U of its signature up to the sum bound".into(),
        ];
    }
    let mut games: Vec<String> = str_field(yaml, "game").into_iter().collect();
    if let Some(Value::Object(gs)) = yaml.get("games") {
        games.extend(gs.values().map(|g| scalar_text(g).trim().to_string()));
    }
    let over: Vec<String> = ["rows", "columns"]
        .iter()
        .filter_map(|k| ranges_text(yaml, k))
        .collect();
    games
        .iter()
        .map(|g| format!("nim({g}){} {}", closure_suffix(yaml), over.join(", ")))
        .collect()
}

fn claim_checked_as(yaml: &Value) -> Vec<String> {
    let Some(game) = str_field(yaml, "game") else {
        return Vec::new();
    };
    let closure = str_field(yaml, "closure").map_or(String::new(), |c| format!(" [{c}]"));
    let at = match str_field(yaml, "positions").as_deref() {
        Some("reachable") => Some(format!("every position reachable in {game}{closure}")),
        Some("all") => Some(format!("every position of {game}{closure}")),
        _ => None,
    };
    // `nim(G) = F` at the start, `nim = F at every position …` otherwise.
    let value = |word: &str, v: String| match &at {
        None => format!("{word}({game}){closure} = {v}"),
        Some(at) => format!("{word} = {v}  at {at}"),
    };
    let mut out = Vec::new();
    for word in ["nim", "outcome"] {
        match yaml.get(word) {
            Some(Value::Object(o)) => {
                for c in o
                    .get("cases")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                {
                    let when = c.get("when").map(scalar_text).unwrap_or_default();
                    let v = c.get("value").map(scalar_text).unwrap_or_default();
                    out.push(format!("{}  when {when}", value(word, v)));
                }
            }
            Some(v) => out.push(value(word, scalar_text(v).trim().to_string())),
            None => {}
        }
    }
    let at = at.unwrap_or_else(|| format!("the start of {game}{closure}"));
    if let Some(p) = str_field(yaml, "holds") {
        out.push(format!("{p}  at {at}"));
    }
    if let Some(Value::Object(lets)) = yaml.get("let") {
        for (k, v) in lets {
            out.push(format!("let {k} = {}", scalar_text(v).trim()));
        }
    }
    if let Some(w) = str_field(yaml, "where") {
        out.push(format!("for the instances where {w}"));
    }
    if let Some(g) = str_field(yaml, "is") {
        out.push(format!("its group isomorphic to {g}"));
    }
    out
}

fn str_field(v: &Value, key: &str) -> Option<String> {
    match v.get(key)? {
        Value::String(s) => Some(s.trim().to_string()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

fn scalar_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// Per-part coverage, if the report carries it (`coverage`, `parts` or `cases`): a list of
/// objects becomes a table with their keys as columns, an object a two-column table.
fn coverage_of(report: &Value) -> Option<Grid> {
    let v = ["coverage", "parts", "cases"]
        .iter()
        .find_map(|k| report.get(*k).filter(|v| !v.is_null()))?;
    let mut grid = Grid {
        caption: vec![],
        ..Grid::default()
    };
    match v {
        Value::Array(items) if !items.is_empty() => {
            let mut cols: Vec<String> = Vec::new();
            for it in items {
                if let Value::Object(m) = it {
                    for k in m.keys() {
                        if !cols.contains(k) {
                            cols.push(k.clone());
                        }
                    }
                }
            }
            // What was checked first, then how much of it (the index shows these two).
            cols.sort_by_key(|c| match c.as_str() {
                "part" => 0,
                "instances" => 1,
                _ => 2,
            });
            if cols.is_empty() {
                grid.header = vec![math::segments("part")];
                grid.rows = items
                    .iter()
                    .map(|it| {
                        vec![Cell {
                            segs: math::part(&scalar_text(it)),
                            strong: false,
                            boxed: 0,
                        }]
                    })
                    .collect();
            } else {
                grid.rows = items
                    .iter()
                    .map(|it| {
                        cols.iter()
                            .map(|c| Cell {
                                segs: math::part(&it.get(c).map(scalar_text).unwrap_or_default()),
                                strong: false,
                                boxed: 0,
                            })
                            .collect()
                    })
                    .collect();
                grid.header = cols.iter().map(|c| math::segments(c)).collect();
            }
        }
        Value::Object(m) if !m.is_empty() => {
            grid.header = vec![math::segments("part"), math::segments("coverage")];
            grid.rows = m
                .iter()
                .map(|(k, v)| {
                    vec![
                        Cell {
                            segs: math::part(k),
                            strong: false,
                            boxed: 0,
                        },
                        Cell::plain(&scalar_text(v)),
                    ]
                })
                .collect();
        }
        _ => return None,
    }
    Some(grid)
}

/// Markdown pipe tables of a rendered `.md` artifact, with the bold line before each as its
/// caption (`**x**` cells are marked strong).
fn markdown_tables(md: &str) -> Vec<Grid> {
    let mut out = Vec::new();
    let mut caption = String::new();
    let mut cur: Option<Grid> = None;
    let cell = |s: &str| {
        let t = s.trim();
        let strong = t.len() > 4 && t.starts_with("**") && t.ends_with("**");
        Cell {
            segs: math::segments(&md_unescape(&t.replace("**", ""))),
            strong,
            boxed: 0,
        }
    };
    for line in md.lines() {
        let l = line.trim();
        if l.starts_with('|') {
            let inner = l.trim_start_matches('|').trim_end_matches('|');
            let cells: Vec<&str> = split_cells(inner);
            let g = cur.get_or_insert_with(|| Grid {
                caption: math::segments(&std::mem::take(&mut caption)),
                ..Grid::default()
            });
            if cells
                .iter()
                .all(|c| !c.trim().is_empty() && c.trim().chars().all(|x| "-: ".contains(x)))
            {
                continue;
            }
            if g.header.is_empty() {
                g.header = cells
                    .iter()
                    .map(|c| math::segments(&md_unescape(&c.trim().replace("**", ""))))
                    .collect();
            } else {
                g.rows.push(cells.iter().map(|c| cell(c)).collect());
            }
        } else {
            if let Some(g) = cur.take() {
                out.push(g);
            }
            if !l.is_empty() && !l.starts_with("<!--") {
                caption = md_unescape(&l.replace("**", ""));
            }
        }
    }
    if let Some(g) = cur.take() {
        out.push(g);
    }
    out
}

/// The cells of a Markdown table row: split at the `|` that [`super::escape::md_escape`] did
/// not escape.
fn split_cells(inner: &str) -> Vec<&str> {
    let b = inner.as_bytes();
    let mut out = Vec::new();
    let (mut from, mut i) = (0, 0);
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'|' => {
                out.push(&inner[from..i]);
                i += 1;
                from = i;
            }
            _ => i += 1,
        }
    }
    out.push(&inner[from.min(inner.len())..]);
    out
}

/// Markdown text back to plain text (the page's template escapes it for HTML once).
fn md_unescape(s: &str) -> String {
    super::escape::md_unescape(s)
}

fn html_page(
    renderer: &Renderer,
    template: &str,
    view: &impl Serialize,
) -> Result<Vec<u8>, RenderError> {
    Ok(renderer.render(template, view)?.into_bytes())
}

fn rel(p: &Path) -> String {
    p.to_string_lossy().replace('\\', "/")
}

/// Builds every file of the site (paths relative to output/).
pub fn site(
    input: &SiteInput,
    renderer: &Renderer,
) -> Result<Vec<(PathBuf, Vec<u8>)>, RenderError> {
    let mut files: Vec<(PathBuf, Vec<u8>)> = Vec::new();
    let written: BTreeSet<String> = input.written.iter().map(|(p, _)| rel(p)).collect();
    // Every TikZ figure typeset once (one pdflatex run; SVG pages converted in parallel).
    let typeset = typeset::tikz_svgs(input.written);
    for (tikz, svg) in &typeset.svgs {
        files.push((PathBuf::from(typeset::svg_path(tikz)), svg.clone()));
    }
    let by_path: BTreeMap<String, &Vec<u8>> =
        input.written.iter().map(|(p, b)| (rel(p), b)).collect();

    // Everything about each entry, in the paper's order.
    struct Item<'a> {
        entry: &'a Entry<'a>,
        report_json: Value,
        yaml: Value,
        source_text: Option<String>,
        status: Status,
        paper: String,
    }
    let mut items: Vec<Item> = input
        .entries
        .iter()
        .map(|e| {
            let report_json = serde_json::to_value(e.report).unwrap_or(Value::Null);
            let source_text = crate::files::read_regular_text(
                Path::new(&e.report.file),
                crate::spec::MAX_SPEC_BYTES,
            )
            .ok();
            let yaml = source_text.as_deref().map(yaml_of).unwrap_or(Value::Null);
            let because =
                str_field(&report_json, "because").or_else(|| str_field(&yaml, "because"));
            let st = status::status(&status::Facts {
                kind: &e.report.kind,
                holds: e.report.verdict.holds(),
                as_expected: e.report.as_expected,
                instances: e.report.instances,
                because: because.as_deref(),
                notes: e.report.notes.as_deref(),
            });
            Item {
                entry: e,
                paper: paper_of(&e.report.file),
                report_json,
                yaml,
                source_text,
                status: st,
            }
        })
        .collect();
    items.sort_by(|a, b| {
        a.paper.cmp(&b.paper).then_with(|| {
            order::by_source(
                (&a.entry.report.source, &a.entry.report.id),
                (&b.entry.report.source, &b.entry.report.id),
            )
        })
    });

    // The dependency graph.
    let nodes: Vec<deps::NodeIn> = items
        .iter()
        .map(|it| deps::NodeIn {
            id: it.entry.report.id.clone(),
            paper: it.paper.clone(),
            source: it.entry.report.source.clone(),
            kind: it.entry.report.kind.clone(),
            status: it.status,
            yaml: &it.yaml,
        })
        .collect();
    let graph = deps::edges(&nodes).map_err(RenderError::Site)?;

    let page_of = |paper: &str, id: &str| format!("site/{paper}/{id}.html");
    let row_of = |it: &Item| -> ResultRow {
        let r = it.entry.report;
        let because =
            str_field(&it.report_json, "because").or_else(|| str_field(&it.yaml, "because"));
        ResultRow {
            id: r.id.clone(),
            paper: it.paper.clone(),
            page: page_of(&it.paper, &r.id),
            source: r.source.clone(),
            source_segs: math::segments(&r.source),
            kind: r.kind.clone(),
            status: it.status.class(),
            status_label: it.status.label(),
            verdict: if r.verdict.holds() {
                "holds"
            } else {
                "refuted"
            },
            excused: r.excused.clone(),
            laws: r.laws.clone(),
            identity: r.identity.clone(),
            sanity: it.entry.spec.header.sanity.clone(),
            expect: if r.expect == crate::check::Expectation::Holds {
                "holds"
            } else {
                "refuted"
            },
            as_expected: r.as_expected,
            title: str_field(&it.yaml, "title")
                .map(|t| math::segments(&t))
                .unwrap_or_default(),
            statement: str_field(&it.yaml, "statement")
                .map(|s| math::segments(&s))
                .unwrap_or_default(),
            game: str_field(&it.yaml, "game")
                .map(|g| math::math(&g))
                .unwrap_or_default(),
            checked_as: checked_as(&r.kind, &it.yaml),
            range: math::range(&r.range),
            instances: r.instances,
            positions: r.positions,
            because: because.as_deref().map(math::segments),
            coverage: coverage_of(&it.report_json),
            counterexample: match &r.verdict {
                crate::check::Verdict::Refuted { counterexample } => {
                    Some(math::text_symbols(&counterexample.to_string()))
                }
                crate::check::Verdict::Holds | crate::check::Verdict::BadInput { .. } => None,
            },
            anchors: Vec::new(),
            search: [
                r.source.as_str(),
                r.id.as_str(),
                r.kind.as_str(),
                &str_field(&it.yaml, "title").unwrap_or_default(),
                &str_field(&it.yaml, "statement").unwrap_or_default(),
                &order::anchors(&r.source, &r.id).join(" "),
            ]
            .join(" ")
            .to_lowercase(),
            verified: it.entry.verified.map(String::from),
            verified_class: crate::render::verdicts::VerifierVerdicts::class(it.entry.verified).0,
            verified_segs: it.entry.verified.map(math::segments).unwrap_or_default(),
            verified_mark: status::verifier_mark(
                crate::render::verdicts::VerifierVerdicts::class(it.entry.verified).0,
            ),
            rests_on: r
                .rests_on
                .iter()
                .map(|p| {
                    let mut segs =
                        math::segments(&format!("{} ({}, {} on ", p.id, p.source, p.verdict));
                    segs.extend(math::range(&p.range));
                    segs.push(math::Seg::plain(")"));
                    segs
                })
                .collect(),
        }
    };

    // Spec pages.
    for it in &items {
        let r = it.entry.report;
        let row = row_of(it);
        let dir = format!("site/{}", it.paper);
        let mut figures = Vec::new();
        let mut tables = Vec::new();
        let mut artifacts = Vec::new();
        for o in it.entry.spec.outputs() {
            let p = rel(&o.path);
            if !written.contains(&p) {
                continue;
            }
            let href = format!("../../{p}");
            if p.ends_with(".svg") {
                let tikz = format!("{}.tikz.tex", p.trim_end_matches(".svg"));
                let has_tikz = written.contains(&tikz);
                figures.push(FigureView {
                    href: href.clone(),
                    label: p.clone(),
                    caption: caption_of(&by_path, &p).unwrap_or_default(),
                    typeset: typeset
                        .svgs
                        .contains_key(&tikz)
                        .then(|| format!("../../{}", typeset::svg_path(&tikz))),
                    tikz: has_tikz.then(|| format!("../../{tikz}")),
                    preview_because: match (has_tikz, typeset.svgs.contains_key(&tikz)) {
                        (true, true) => None,
                        (true, false) => Some(format!(
                            "the TikZ figure was not typeset: {}",
                            typeset.skipped.as_deref().unwrap_or("no SVG for it")
                        )),
                        (false, _) => {
                            Some("no TikZ drawing (Graphviz is needed to lay it out)".into())
                        }
                    },
                });
            }
            if p.ends_with(".md") {
                if let Some(bytes) = by_path.get(&p) {
                    let mut found = markdown_tables(&String::from_utf8_lossy(bytes));
                    // One table with a caption file: the caption a paper prints.
                    if let (1, Some(c)) = (found.len(), caption_of(&by_path, &p)) {
                        found[0].caption = c;
                    }
                    tables.extend(found);
                }
            }
            // A table written only as TeX (Table 5.1): shown from the view its template is fed.
            if p.ends_with(".tex") && !p.ends_with(".caption.tex") && !p.ends_with(".tikz.tex") {
                let md = format!("{}.md", p.trim_end_matches(".tex"));
                let has_md = it.entry.spec.outputs().iter().any(|o| rel(&o.path) == md);
                if let Some(mut grid) = it.entry.view.filter(|_| !has_md).and_then(signature_grid) {
                    if let Some(c) = caption_of(&by_path, &p) {
                        grid.caption = c;
                    }
                    tables.push(grid);
                }
            }
            artifacts.push(Link { href, label: p });
        }
        let cex = match &r.verdict {
            crate::check::Verdict::Refuted { counterexample: c } => {
                let graph = if c.evidence.is_empty() {
                    None
                } else {
                    let dot = renderer.render("html/options.dot", &deps::options_view(c))?;
                    let dot_path = PathBuf::from(format!("{dir}/{}_counterexample.dot", r.id));
                    let svg_path = PathBuf::from(format!("{dir}/{}_counterexample.svg", r.id));
                    let svg = super::finish(&svg_path, dot.clone())?;
                    files.push((dot_path, dot.into_bytes()));
                    svg.map(|bytes| {
                        files.push((svg_path, bytes));
                        format!("{}_counterexample.svg", r.id)
                    })
                };
                Some(CexView {
                    instance: c.instance.clone(),
                    game: math::math(&c.game),
                    position: c.position.clone(),
                    claimed: math::text_symbols(&c.claimed),
                    computed: math::text_symbols(&c.computed),
                    evidence: c.evidence.clone(),
                    graph,
                })
            }
            crate::check::Verdict::Holds | crate::check::Verdict::BadInput { .. } => None,
        };
        let link_to = |id: &str| {
            let target = items.iter().find(|x| x.entry.report.id == id);
            target.map(|t| Link {
                href: format!("../{}/{}.html", t.paper, id),
                label: format!("{} ({id})", t.entry.report.source),
            })
        };
        let uses = graph
            .iter()
            .filter(|e| e.from == r.id)
            .filter_map(|e| link_to(&e.to))
            .collect();
        let used_by = graph
            .iter()
            .filter(|e| e.to == r.id)
            .filter_map(|e| link_to(&e.from))
            .collect();
        let lines = it
            .source_text
            .as_deref()
            .unwrap_or("")
            .lines()
            .enumerate()
            .map(|(i, l)| Line {
                n: i + 1,
                text: l.to_string(),
            })
            .collect();
        let page = SpecPage {
            root: "../../",
            title: format!("{} — {}", r.source, r.id),
            row,
            notes: r.notes.as_deref().map(math::segments).unwrap_or_default(),
            source_file: r.file.clone(),
            lines,
            cex,
            figures,
            tables,
            artifacts,
            uses,
            used_by,
        };
        files.push((
            PathBuf::from(page_of(&it.paper, &r.id)),
            html_page(renderer, "html/spec.html", &page)?,
        ));
    }

    // Per paper: rows, counts, dependency graph.
    let mut papers: Vec<PaperView> = Vec::new();
    let paper_names: Vec<String> = items
        .iter()
        .map(|i| i.paper.clone())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    // Anchors by paper number: `{paper}-thm-5.43` for every paper, the bare `thm-5.43` for
    // the first paper (in the index's order) that has that number.
    let mut taken: BTreeSet<String> = items.iter().map(|i| i.entry.report.id.clone()).collect();
    taken.extend(paper_names.iter().cloned());
    for name in paper_names {
        let mine: Vec<&Item> = items.iter().filter(|i| i.paper == name).collect();
        let counts = Status::ALL
            .iter()
            .map(|s| StatusCount {
                class: s.class(),
                label: s.label(),
                count: mine
                    .iter()
                    .filter(|i| i.status == *s && i.entry.spec.header.sanity.is_none())
                    .count(),
            })
            .filter(|c| c.count > 0)
            .collect();
        let dv = deps::paper_view(&name, &nodes, &graph);
        let (deps_path, deps_nodes, deps_edges) = if dv.edges.is_empty() {
            (None, 0, 0)
        } else {
            let dot = renderer.render("html/deps.dot", &dv)?;
            let dot_path = PathBuf::from(format!("site/deps_{name}.dot"));
            let svg_path = PathBuf::from(format!("site/deps_{name}.svg"));
            let svg = super::finish(&svg_path, dot.clone())?;
            files.push((dot_path, dot.into_bytes()));
            let p = svg.map(|b| {
                files.push((svg_path.clone(), b));
                rel(&svg_path)
            });
            (p, dv.nodes.len(), dv.edges.len())
        };
        let mut results: Vec<ResultRow> = mine.iter().map(|i| row_of(i)).collect();
        for row in &mut results {
            for a in order::anchors(&row.source, &row.id) {
                for name in [format!("{}-{a}", row.paper), a] {
                    if taken.insert(name.clone()) {
                        row.anchors.push(name);
                    }
                }
            }
        }
        papers.push(PaperView {
            name: name.clone(),
            results,
            sanity: mine
                .iter()
                .filter(|i| i.entry.spec.header.sanity.is_some())
                .count(),
            counts,
            deps: deps_path,
            deps_nodes,
            deps_edges,
        });
    }

    // Plots.
    let views: Vec<(&Report, Option<&Value>)> =
        input.entries.iter().map(|e| (e.report, e.view)).collect();
    let (plot_list, plot_notes) = plots::all(&views, input.recorded).map_err(RenderError::Site)?;
    let mut plot_refs = Vec::new();
    for p in &plot_list {
        let svg = plots::svg(p).map_err(|why| RenderError::Template {
            name: format!("plot {}", p.id),
            why,
        })?;
        let tex = renderer.render("html/plot.tex", &plots::tex_view(p))?;
        files.push((
            PathBuf::from(format!("site/plots/{}.svg", p.id)),
            svg.into_bytes(),
        ));
        files.push((
            PathBuf::from(format!("site/plots/{}.tex", p.id)),
            tex.into_bytes(),
        ));
        plot_refs.push(plots::PlotRef {
            id: p.id.clone(),
            group: p.group.clone(),
            title: p.title.clone(),
            title_segs: math::segments(&p.title),
            alt: plots::unicode_scripts(&p.title),
            svg: format!("site/plots/{}.svg", p.id),
            tex: format!("site/plots/{}.tex", p.id),
        });
    }

    // The results: the sanity checks (`sanity:`) are listed but not counted.
    let results: Vec<&Item> = items
        .iter()
        .filter(|i| i.entry.spec.header.sanity.is_none())
        .collect();
    let legend = Status::ALL
        .iter()
        .map(|s| StatusCount {
            class: s.class(),
            label: s.label(),
            count: results.iter().filter(|i| i.status == *s).count(),
        })
        .collect();
    let index = IndexView {
        root: "",
        title: "grundy: checked results",
        specs: results.len(),
        as_expected: results
            .iter()
            .filter(|i| i.entry.report.as_expected)
            .count(),
        sanity: items.len() - results.len(),
        papers,
        legend,
        verified_counts: crate::render::verdicts::VerifierVerdicts {
            by_id: items
                .iter()
                .filter_map(|i| Some((i.entry.report.id.clone(), i.entry.verified?.to_string())))
                .collect(),
        }
        .counts(results.iter().map(|i| i.entry.report.id.as_str()))
        .into_iter()
        .map(|mut c| {
            // The index counts in the words of the marks beside the badges.
            if let Some(m) = status::verifier_mark(c.class) {
                c.label = m;
            }
            c
        })
        .collect(),
        plots: plot_refs,
        plot_notes,
    };
    files.push((
        PathBuf::from("index.html"),
        html_page(renderer, "html/index.html", &index)?,
    ));
    let empty: BTreeMap<String, String> = BTreeMap::new();
    files.push((
        PathBuf::from("site/style.css"),
        renderer.render("html/style.css", &empty)?.into_bytes(),
    ));
    files.push((
        PathBuf::from("site/site.js"),
        renderer.render("html/site.js", &empty)?.into_bytes(),
    ));
    for (name, bytes) in KATEX {
        files.push((
            PathBuf::from(format!("site/vendor/katex/{name}")),
            bytes.to_vec(),
        ));
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paper_from_spec_folder() {
        assert_eq!(paper_of("specs/paper000/diagrams/x.yaml"), "paper000");
        assert_eq!(paper_of("specs/seed002/thm_6.yaml"), "seed002");
        assert_eq!(paper_of("/tmp/a/mine/x.yaml"), "mine");
    }

    #[test]
    fn markdown_tables_are_read() {
        let md =
            "<!-- x -->\n**Title** (Thm 1)\n\n| n | v |\n|---|---|\n| 5 | **1** |\n| 6 | 2 |\n";
        let t = markdown_tables(md);
        assert_eq!(t.len(), 1);
        assert_eq!(t[0].caption, math::segments("Title (Thm 1)"));
        assert_eq!(t[0].header, vec![math::segments("n"), math::segments("v")]);
        assert_eq!(t[0].rows.len(), 2);
        assert!(t[0].rows[0][1].strong);
        assert_eq!(t[0].rows[0][1].segs, math::segments("1"));
    }
}
