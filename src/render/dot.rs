//! DOT → SVG/PDF. With Graphviz's `dot` installed, it runs as graphviz-rust runs it (the DOT
//! text in a temporary file, `dot -T<format> FILE`), but under [`run_bounded`]'s time limit, so
//! that a figure too large to lay out ends in an error, not a hung build (issue 49, R7). PDF
//! metadata dates are pinned through SOURCE_DATE_EPOCH so that bytes are reproducible. Without it, SVG comes
//! from the pure-Rust layout-rs fallback, and PDF is unavailable: the build records what it
//! skipped ([`note_skipped`]) and lists it once at the end ([`skipped_report`]).
//!
//! layout-rs reads a small subset of DOT (no HTML labels, few attributes, no ports), so the
//! fallback first reads the DOT with graphviz-rust's full parser and writes a plain equivalent
//! ([`simplify`]): subgraphs and clusters flattened, nodes renamed `n0, n1, …`, labels as plain
//! text (HTML markup stripped, entities decoded), and only the attributes layout-rs draws
//! (label, shape, colours, dashed/filled style, integer pen width and font size, rankdir).

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Mutex, OnceLock};
use thiserror::Error;

#[derive(Debug, Error)]
pub enum DotError {
    #[error("graphviz `dot` failed: {0}")]
    Dot(String),
    #[error("the DOT text does not parse: {0}")]
    Parse(String),
    #[error("PDF output needs Graphviz's `dot` (apt-get install graphviz)")]
    NoPdfWithoutDot,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Svg,
    Pdf,
}

/// Whether Graphviz's `dot` can be run (checked once).
pub fn dot_available() -> bool {
    static AVAILABLE: OnceLock<bool> = OnceLock::new();
    *AVAILABLE.get_or_init(|| runs("dot", "-V"))
}

/// Whether an external tool runs: `program arg` (a version flag) exits 0.
pub fn runs(program: &str, arg: &str) -> bool {
    std::process::Command::new(program)
        .arg(arg)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Parses DOT text with graphviz-rust's parser (also used by tests on every artifact).
pub fn parse(dot: &str) -> Result<graphviz_rust::dot_structures::Graph, DotError> {
    graphviz_rust::parse(dot).map_err(DotError::Parse)
}

/// Lays out and renders DOT text.
pub fn render(dot: &str, format: Format) -> Result<Vec<u8>, DotError> {
    if dot_available() {
        let f = match format {
            Format::Svg => "-Tsvg",
            Format::Pdf => "-Tpdf",
        };
        let bytes = exec_dot(dot, f)?;
        return Ok(match format {
            Format::Pdf => pin_pdf_dates(bytes),
            Format::Svg => bytes,
        });
    }
    match format {
        Format::Pdf => Err(DotError::NoPdfWithoutDot),
        Format::Svg => fallback_svg(dot),
    }
}

/// Seconds an external tool (`dot`, `pdflatex`) may run before it is killed; the environment
/// variable `GRUNDY_TOOL_SECONDS` sets another limit (at least 1).
pub fn tool_limit() -> std::time::Duration {
    let secs = std::env::var("GRUNDY_TOOL_SECONDS")
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .filter(|&s| s >= 1)
        .unwrap_or(TOOL_SECONDS);
    std::time::Duration::from_secs(secs)
}

/// The default of [`tool_limit`]: a TER(P_14) panel, the largest drawn so far, takes 45 s.
pub const TOOL_SECONDS: u64 = 300;

/// Runs `cmd` (stdin closed, stdout and stderr captured) and kills it when it runs past
/// [`tool_limit`]; `what` names the tool in the error.
pub fn run_bounded(
    cmd: &mut std::process::Command,
    what: &str,
) -> Result<std::process::Output, String> {
    use std::io::Read;
    use std::process::Stdio;
    use wait_timeout::ChildExt;
    let limit = tool_limit();
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("{what}: {e}"))?;
    // Read both pipes while waiting, so a tool that writes much never blocks on a full pipe.
    let mut out = child.stdout.take().expect("piped stdout");
    let mut err = child.stderr.take().expect("piped stderr");
    let reader = std::thread::spawn(move || {
        let mut b = Vec::new();
        let _ = out.read_to_end(&mut b);
        b
    });
    let err_reader = std::thread::spawn(move || {
        let mut b = Vec::new();
        let _ = err.read_to_end(&mut b);
        b
    });
    let status = match child
        .wait_timeout(limit)
        .map_err(|e| format!("{what}: {e}"))?
    {
        Some(status) => status,
        None => {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!(
                "{what} did not finish within {} s and was stopped (GRUNDY_TOOL_SECONDS sets the limit)",
                limit.as_secs()
            ));
        }
    };
    Ok(std::process::Output {
        status,
        stdout: reader.join().unwrap_or_default(),
        stderr: err_reader.join().unwrap_or_default(),
    })
}

/// `dot -T<format>` on `dot` (written to a temporary file, as graphviz-rust does), bounded.
fn exec_dot(dot: &str, flag: &str) -> Result<Vec<u8>, DotError> {
    use std::io::Write;
    let fail = |e: String| DotError::Dot(e);
    let mut file = tempfile::NamedTempFile::new().map_err(|e| fail(e.to_string()))?;
    file.write_all(dot.as_bytes())
        .map_err(|e| fail(e.to_string()))?;
    let path = file.into_temp_path();
    let out = run_bounded(
        std::process::Command::new("dot").arg(flag).arg(&*path),
        "graphviz `dot`",
    )
    .map_err(fail)?;
    if !out.status.success() {
        return Err(fail(String::from_utf8_lossy(&out.stderr).to_string()));
    }
    Ok(out.stdout)
}

/// Older cairo builds ignore SOURCE_DATE_EPOCH and stamp the current time: overwrite the
/// digits of `/CreationDate (D:…)` and `/ModDate (D:…)` with the epoch, in place, so that
/// the byte length (and the PDF's cross-reference offsets) stay unchanged.
fn pin_pdf_dates(mut pdf: Vec<u8>) -> Vec<u8> {
    for key in [&b"/CreationDate (D:"[..], &b"/ModDate (D:"[..]] {
        let mut from = 0;
        while let Some(k) = pdf[from..].windows(key.len()).position(|w| w == key) {
            let start = from + k + key.len();
            let epoch = b"19700101000000";
            let digits = pdf[start..]
                .iter()
                .take(epoch.len())
                .take_while(|b| b.is_ascii_digit())
                .count();
            pdf[start..start + digits].copy_from_slice(&epoch[..digits]);
            from = start;
        }
    }
    pdf
}

/// What a run skipped for want of a system tool: (artifact, tool, Debian package).
static SKIPPED: Mutex<BTreeSet<(String, String, String)>> = Mutex::new(BTreeSet::new());

/// Records an artifact skipped because `tool` (from the Debian package `package`) is missing.
pub fn note_skipped(what: &str, tool: &str, package: &str) {
    SKIPPED.lock().unwrap_or_else(|e| e.into_inner()).insert((
        what.into(),
        tool.into(),
        package.into(),
    ));
}

/// The skipped artifacts grouped by tool, one line per tool, and forgets them; `None` if
/// nothing was skipped.
pub fn skipped_report() -> Option<String> {
    let items = std::mem::take(&mut *SKIPPED.lock().unwrap_or_else(|e| e.into_inner()));
    if items.is_empty() {
        return None;
    }
    let mut by_tool: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
    for (what, tool, package) in items {
        by_tool.entry((tool, package)).or_default().push(what);
    }
    let lines: Vec<String> = by_tool
        .into_iter()
        .map(|((tool, package), whats)| {
            let shown = whats.iter().take(6).cloned().collect::<Vec<_>>().join(", ");
            let more = if whats.len() > 6 {
                format!(", … ({} more)", whats.len() - 6)
            } else {
                String::new()
            };
            if package.is_empty() {
                // Not a missing tool: why the tool did not make them.
                format!("skipped {} item(s): {tool}: {shown}{more}", whats.len())
            } else {
                format!(
                    "skipped {} item(s) that need {tool} (Debian package `{package}`: apt-get install {package}): {shown}{more}",
                    whats.len()
                )
            }
        })
        .collect();
    Some(lines.join("\n"))
}

fn fallback_svg(dot: &str) -> Result<Vec<u8>, DotError> {
    use layout::backends::svg::SVGWriter;
    use layout::gv::{DotParser, GraphBuilder};
    let plain = simplify(dot)?;
    // layout-rs asserts on inputs it does not expect; a failure is an error, never an abort.
    std::panic::catch_unwind(|| {
        let mut parser = DotParser::new(&plain);
        let g = parser.process()?;
        let mut builder = GraphBuilder::new();
        builder.visit_graph(&g);
        let mut vg = builder.get();
        let mut svg = SVGWriter::new();
        vg.do_it(false, false, false, &mut svg);
        Ok::<_, String>(svg.finalize().into_bytes())
    })
    .map_err(|_| DotError::Parse("the layout-rs fallback failed on this graph".into()))?
    .map_err(DotError::Parse)
}

/// A token of DOT text, read leniently (any DOT Graphviz reads, and more).
#[derive(Clone, Debug, PartialEq)]
enum Tok {
    /// An identifier, numeral or quoted string (unescaped), or the text of an HTML string.
    Id(String),
    Html(String),
    Punct(char),
    /// `--` or `->`.
    EdgeOp,
}

fn tokenize(dot: &str) -> Result<Vec<Tok>, DotError> {
    let cs: Vec<char> = dot.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let at_line_start = |i: usize| {
        cs[..i]
            .iter()
            .rev()
            .take_while(|c| **c != '\n')
            .all(|c| c.is_whitespace())
    };
    while i < cs.len() {
        let c = cs[i];
        if c.is_whitespace() {
            i += 1;
        } else if c == '/' && cs.get(i + 1) == Some(&'/') || c == '#' && at_line_start(i) {
            while i < cs.len() && cs[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && cs.get(i + 1) == Some(&'*') {
            i += 2;
            while i < cs.len() && !(cs[i] == '*' && cs.get(i + 1) == Some(&'/')) {
                i += 1;
            }
            i += 2;
        } else if c == '"' {
            let mut text = String::new();
            i += 1;
            loop {
                match cs.get(i) {
                    None => return Err(DotError::Parse("a quoted string is never closed".into())),
                    Some('"') => break,
                    Some('\\') => {
                        match cs.get(i + 1) {
                            Some('n' | 'l' | 'r') => text.push('\n'),
                            Some('\n') => {}
                            Some(&d) => text.push(d),
                            None => {}
                        }
                        i += 2;
                        continue;
                    }
                    Some(&d) => text.push(d),
                }
                i += 1;
            }
            i += 1;
            // `"a" + "b"` concatenates.
            if let Some(Tok::Punct('+')) = out.last() {
                out.pop();
                if let Some(Tok::Id(prev)) = out.last_mut() {
                    prev.push_str(&text);
                    continue;
                }
            }
            out.push(Tok::Id(text));
        } else if c == '<' {
            let mut depth = 0;
            let start = i;
            while i < cs.len() {
                match cs[i] {
                    '<' => depth += 1,
                    '>' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
            if i >= cs.len() {
                return Err(DotError::Parse("an HTML string <…> is never closed".into()));
            }
            out.push(Tok::Html(cs[start + 1..i].iter().collect()));
            i += 1;
        } else if c == '-' && matches!(cs.get(i + 1), Some('-' | '>')) {
            out.push(Tok::EdgeOp);
            i += 2;
        } else if "{}[];,=:+".contains(c) {
            out.push(Tok::Punct(c));
            i += 1;
        } else if c.is_alphanumeric() || c == '_' || c == '.' || c == '-' || !c.is_ascii() {
            let start = i;
            while i < cs.len()
                && (cs[i].is_alphanumeric()
                    || cs[i] == '_'
                    || cs[i] == '.'
                    || !cs[i].is_ascii()
                    || (cs[i] == '-' && i == start))
            {
                i += 1;
            }
            out.push(Tok::Id(cs[start..i].iter().collect()));
        } else {
            return Err(DotError::Parse(format!("unexpected character `{c}`")));
        }
    }
    Ok(out)
}

/// Plain text of an HTML label: markup stripped (`<BR/>` and table rows become line breaks,
/// cells spaces), entities decoded, blank lines dropped.
fn html_text(t: &str) -> String {
    let mut out = String::new();
    let mut rest = t;
    while let Some(k) = rest.find('<') {
        out.push_str(&rest[..k]);
        let end = rest[k..].find('>').map_or(rest.len(), |e| k + e + 1);
        let tag = rest[k..end].to_ascii_lowercase();
        if tag.starts_with("<br") || tag.starts_with("</tr") {
            out.push('\n');
        } else if tag.starts_with("</td") {
            out.push(' ');
        }
        rest = &rest[end..];
    }
    out.push_str(rest);
    let lines: Vec<String> = decode_entities(&out)
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|l| !l.is_empty())
        .collect();
    lines.join("\n")
}

fn decode_entities(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(k) = rest.find('&') {
        out.push_str(&rest[..k]);
        let tail = &rest[k..];
        let semi = tail.find(';').filter(|&e| e <= 10);
        let decoded = semi.and_then(|e| {
            let name = &tail[1..e];
            let c = match name {
                "lt" => Some('<'),
                "gt" => Some('>'),
                "amp" => Some('&'),
                "quot" => Some('"'),
                "apos" => Some('\''),
                "nbsp" => Some(' '),
                _ => name
                    .strip_prefix("#x")
                    .or_else(|| name.strip_prefix("#X"))
                    .and_then(|h| u32::from_str_radix(h, 16).ok())
                    .or_else(|| name.strip_prefix('#').and_then(|d| d.parse().ok()))
                    .and_then(char::from_u32),
            };
            c.map(|c| (c, e + 1))
        });
        match decoded {
            Some((c, len)) => {
                out.push(c);
                rest = &tail[len..];
            }
            None => {
                out.push('&');
                rest = &tail[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// A DOT string literal layout-rs reads back as `text` (it understands `\"`, `\\`, `\n`).
fn quoted(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

type Attrs = BTreeMap<String, String>;

/// A recursive-descent reader of the DOT grammar over [`tokenize`]'s tokens that flattens
/// subgraphs into nodes and edges; attribute defaults are scoped like DOT's.
struct Flat {
    toks: Vec<Tok>,
    pos: usize,
    ids: BTreeMap<String, usize>,
    nodes: Vec<Attrs>,
    edges: Vec<(usize, usize, Attrs)>,
    rankdir: Option<String>,
    directed: bool,
}

impl Flat {
    fn err<T>(&self, what: &str) -> Result<T, DotError> {
        Err(DotError::Parse(format!(
            "{what} (token {} of {}: {:?})",
            self.pos + 1,
            self.toks.len(),
            self.toks.get(self.pos)
        )))
    }
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos)
    }
    fn peek_at(&self, k: usize) -> Option<&Tok> {
        self.toks.get(self.pos + k)
    }
    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(&Tok::Punct(c)) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
    fn keyword(&self, k: usize, word: &str) -> bool {
        matches!(self.peek_at(k), Some(Tok::Id(w)) if w.eq_ignore_ascii_case(word))
    }
    /// An ID: its plain text.
    fn id(&mut self) -> Result<String, DotError> {
        let t = match self.peek() {
            Some(Tok::Id(s)) => s.clone(),
            Some(Tok::Html(h)) => html_text(h),
            _ => return self.err("expected an identifier"),
        };
        self.pos += 1;
        Ok(t)
    }
    fn is_id(&self) -> bool {
        matches!(self.peek(), Some(Tok::Id(_) | Tok::Html(_)))
    }

    fn graph(&mut self) -> Result<(), DotError> {
        if self.keyword(0, "strict") {
            self.pos += 1;
        }
        if self.keyword(0, "digraph") {
            self.directed = true;
        } else if !self.keyword(0, "graph") {
            return self.err("expected `graph` or `digraph`");
        }
        self.pos += 1;
        if self.is_id() {
            self.id()?;
        }
        if !self.eat('{') {
            return self.err("expected `{`");
        }
        self.stmts(Attrs::new(), Attrs::new(), &mut Vec::new())?;
        Ok(())
    }

    fn attr_list(&mut self, into: &mut Attrs) -> Result<(), DotError> {
        while self.eat('[') {
            while !self.eat(']') {
                if self.peek().is_none() {
                    return self.err("an attribute list `[` is never closed");
                }
                let k = self.id()?;
                let v = if self.eat('=') {
                    self.id()?
                } else {
                    "true".into()
                };
                into.insert(k, v);
                let _ = self.eat(',') || self.eat(';');
            }
        }
        Ok(())
    }

    fn node(&mut self, name: String, defaults: &Attrs) -> usize {
        if let Some(&i) = self.ids.get(&name) {
            return i;
        }
        let mut a = defaults.clone();
        a.entry("label".into()).or_insert(name.clone());
        self.nodes.push(a);
        self.ids.insert(name, self.nodes.len() - 1);
        self.nodes.len() - 1
    }

    /// A node id with an optional port, or a subgraph: the nodes it stands for.
    fn operand(
        &mut self,
        nd: &Attrs,
        ed: &Attrs,
        mentioned: &mut Vec<usize>,
    ) -> Result<Vec<usize>, DotError> {
        if self.keyword(0, "subgraph") || self.peek() == Some(&Tok::Punct('{')) {
            let mut inner = Vec::new();
            self.subgraph(nd, ed, &mut inner)?;
            inner.sort_unstable();
            inner.dedup();
            mentioned.extend(&inner);
            return Ok(inner);
        }
        let name = self.id()?;
        while self.eat(':') {
            self.id()?;
        }
        let i = self.node(name, nd);
        mentioned.push(i);
        Ok(vec![i])
    }

    fn subgraph(
        &mut self,
        nd: &Attrs,
        ed: &Attrs,
        mentioned: &mut Vec<usize>,
    ) -> Result<(), DotError> {
        if self.keyword(0, "subgraph") {
            self.pos += 1;
            if self.is_id() {
                self.id()?;
            }
        }
        if !self.eat('{') {
            return self.err("expected `{` after subgraph");
        }
        self.stmts(nd.clone(), ed.clone(), mentioned)
    }

    /// Statements up to the closing `}` (consumed).
    fn stmts(
        &mut self,
        mut nd: Attrs,
        mut ed: Attrs,
        mentioned: &mut Vec<usize>,
    ) -> Result<(), DotError> {
        loop {
            if self.eat('}') {
                return Ok(());
            }
            if self.eat(';') || self.eat(',') {
                continue;
            }
            if self.peek().is_none() {
                return self.err("a `{` is never closed");
            }
            let is_kw = |f: &Flat, w| f.keyword(0, w) && f.peek_at(1) == Some(&Tok::Punct('['));
            if is_kw(self, "node") || is_kw(self, "edge") || is_kw(self, "graph") {
                let which = self.id()?.to_ascii_lowercase();
                let mut a = Attrs::new();
                self.attr_list(&mut a)?;
                match which.as_str() {
                    "node" => nd.extend(a),
                    "edge" => ed.extend(a),
                    _ => {
                        if let Some(r) = a.remove("rankdir") {
                            self.rankdir = Some(r);
                        }
                    }
                }
                continue;
            }
            if self.is_id() && self.peek_at(1) == Some(&Tok::Punct('=')) {
                let k = self.id()?;
                self.pos += 1;
                let v = self.id()?;
                if k == "rankdir" {
                    self.rankdir = Some(v);
                }
                continue;
            }
            let mut groups = vec![self.operand(&nd, &ed, mentioned)?];
            while self.peek() == Some(&Tok::EdgeOp) {
                self.pos += 1;
                groups.push(self.operand(&nd, &ed, mentioned)?);
            }
            if groups.len() == 1 {
                let mut a = Attrs::new();
                self.attr_list(&mut a)?;
                // `a [..]` sets node attributes; a lone subgraph takes none.
                if let [i] = groups[0].as_slice() {
                    if !a.is_empty() {
                        self.nodes[*i].extend(a);
                    }
                }
            } else {
                let mut a = ed.clone();
                self.attr_list(&mut a)?;
                for w in groups.windows(2) {
                    for &x in &w[0] {
                        for &y in &w[1] {
                            self.edges.push((x, y, a.clone()));
                        }
                    }
                }
            }
        }
    }
}

/// A colour layout-rs can read: a name of letters or `#rrggbb[aa]` (the first of a list).
fn plain_colour(c: &str) -> Option<String> {
    let c = c.split([':', ';', ',']).next()?.trim();
    let ok = (c.starts_with('#')
        && (c.len() == 7 || c.len() == 9)
        && c[1..].chars().all(|x| x.is_ascii_hexdigit()))
        || (!c.is_empty() && c.len() <= 24 && c.chars().all(|x| x.is_ascii_alphanumeric()));
    ok.then(|| c.to_ascii_lowercase())
}

fn plain_attrs(a: &Attrs, node: bool) -> String {
    let mut out: Vec<String> = Vec::new();
    if let Some(l) = a.get("label") {
        out.push(format!("label={}", quoted(l)));
    }
    for key in ["color", "fillcolor", "fontcolor"] {
        if let Some(c) = a.get(key).and_then(|c| plain_colour(c)) {
            out.push(format!("{key}={}", quoted(&c)));
        }
    }
    let style = a.get("style").map(String::as_str).unwrap_or("");
    if node {
        let shape = match a.get("shape").map(String::as_str) {
            Some(
                "box" | "rect" | "rectangle" | "square" | "plaintext" | "plain" | "none" | "note"
                | "tab" | "folder" | "component",
            ) => Some("box"),
            Some("doublecircle" | "doubleoctagon" | "tripleoctagon") => Some("doublecircle"),
            _ => None,
        };
        if let Some(s) = shape {
            out.push(format!("shape={s}"));
        }
        if style.contains("filled") {
            out.push("style=filled".into());
        }
    } else if style.contains("dashed") || style.contains("dotted") {
        out.push("style=dashed".into());
    }
    for key in ["penwidth", "fontsize"] {
        if let Some(x) = a.get(key).and_then(|x| x.parse::<f64>().ok()) {
            if x.is_finite() && (0.0..=100.0).contains(&x) {
                out.push(format!("{key}={}", x.round().max(1.0) as u32));
            }
        }
    }
    if out.is_empty() {
        String::new()
    } else {
        format!(" [{}]", out.join(", "))
    }
}

/// Rewrites DOT text into the plain subset layout-rs reads (module header). Self-loops are
/// dropped (layout-rs cannot route them).
pub fn simplify(dot: &str) -> Result<String, DotError> {
    let mut flat = Flat {
        toks: tokenize(dot)?,
        pos: 0,
        ids: BTreeMap::new(),
        nodes: Vec::new(),
        edges: Vec::new(),
        rankdir: None,
        directed: false,
    };
    flat.graph()?;
    let mut out = String::from(if flat.directed {
        "digraph {\n"
    } else {
        "graph {\n"
    });
    if flat.rankdir.as_deref() == Some("LR") {
        out.push_str("  graph [rankdir=LR];\n");
    }
    for (i, a) in flat.nodes.iter().enumerate() {
        out.push_str(&format!("  n{i}{};\n", plain_attrs(a, true)));
    }
    let arrow = if flat.directed { "->" } else { "--" };
    for (x, y, a) in &flat.edges {
        if x != y {
            out.push_str(&format!("  n{x} {arrow} n{y}{};\n", plain_attrs(a, false)));
        }
    }
    out.push_str("}\n");
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fallback_lays_out_a_small_graph() {
        let svg = fallback_svg("digraph { a -> b; b -> c }").unwrap();
        assert!(String::from_utf8(svg).unwrap().contains("<svg"));
    }

    #[test]
    fn fallback_reads_what_layout_rs_alone_cannot() {
        // HTML labels, clusters, ports, edge chains into subgraphs, quoted ids, defaults.
        let dot = r##"digraph "G 1" {
            graph [rankdir=LR, fontname="Latin Modern"];
            node [shape=box, style="rounded,filled", fillcolor="#eeeeee"];
            edge [arrowhead=vee];
            subgraph cluster_a { label=<<B>x</B>>; "a:1" [label=<λ<SUP>c+2</SUP> &amp; &lt;b&gt;<BR/>next>]; }
            "a:1":e -> { b c } [style=dotted, color="red:blue", penwidth=1.5];
            b -> b;
            c [label="say \"hi\"\nthere", shape=doublecircle];
        }"##;
        let plain = simplify(dot).unwrap();
        assert!(plain.contains(r#"label="λc+2 & <b>\nnext""#), "{plain}");
        assert!(
            plain.contains(r#"n0 -> n1 [color="red", style=dashed, penwidth=2]"#),
            "{plain}"
        );
        assert!(!plain.contains("n1 -> n1"), "self-loops dropped: {plain}");
        assert!(plain.contains("graph [rankdir=LR]"));
        let svg = String::from_utf8(fallback_svg(dot).unwrap()).unwrap();
        assert!(svg.contains("<svg"));
        // Labels reach the SVG escaped.
        assert!(svg.contains("&lt;b&gt;"), "{svg}");
    }

    #[test]
    fn fallback_draws_every_dot_file_in_output() {
        // The committed artifacts: every DOT file grundy writes gets an SVG without Graphviz.
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("output");
        let mut stack = vec![root];
        let mut count = 0;
        while let Some(dir) = stack.pop() {
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            for e in entries.flatten() {
                let p = e.path();
                if p.is_dir() {
                    stack.push(p);
                } else if p.extension().is_some_and(|x| x == "dot") {
                    let text = std::fs::read_to_string(&p).unwrap();
                    let svg =
                        fallback_svg(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
                    assert!(svg.starts_with(b"<svg") || svg.starts_with(b"<?xml"));
                    count += 1;
                }
            }
        }
        eprintln!("{count} DOT files drawn by the fallback");
    }

    #[test]
    fn pdf_dates_are_pinned_in_place() {
        let pdf = b"<< /CreationDate (D:20261130051509Z) /ModDate (D:2026) >>".to_vec();
        let pinned = pin_pdf_dates(pdf.clone());
        assert_eq!(pinned.len(), pdf.len());
        assert_eq!(
            pinned,
            b"<< /CreationDate (D:19700101000000Z) /ModDate (D:1970) >>".to_vec()
        );
    }

    #[test]
    fn dot_renders_when_installed() {
        if !dot_available() {
            eprintln!("graphviz not installed; skipping (CI installs it)");
            return;
        }
        assert!(render("digraph { a -> b }", Format::Pdf)
            .unwrap()
            .starts_with(b"%PDF"));
        assert!(render("digraph { a -> b }", Format::Svg)
            .unwrap()
            .starts_with(b"<?xml"));
    }
}
