//! User graphs: graph6 strings (nauty's format), edge-list files and DOT files.

use super::{Graph, GraphError, MAX_EDGES, MAX_VERTICES};
use std::collections::BTreeMap;
use std::path::Path;

/// Decodes a graph6 string (optionally with the `>>graph6<<` header). Vertices are named
/// 0..n-1 as nauty numbers them.
pub fn from_graph6(text: &str) -> Result<Graph, GraphError> {
    let raw = text.trim();
    let t = raw.strip_prefix(">>graph6<<").unwrap_or(raw);
    let err = |why: &str| GraphError::Graph6 {
        text: clip(raw, 60),
        why: why.to_string(),
    };
    let bytes = t.as_bytes();
    if bytes.is_empty() {
        return Err(err("empty string"));
    }
    if let Some(i) = bytes.iter().position(|&b| !(63..=126).contains(&b)) {
        return Err(err(&format!(
            "character {} at position {} is outside the graph6 range '?'..'~'",
            bytes[i] as char,
            i + 1
        )));
    }
    let (n, rest) = if bytes[0] == 126 {
        if bytes.len() >= 2 && bytes[1] == 126 {
            return Err(err(
                "graphs with more than 258047 vertices are not supported",
            ));
        }
        if bytes.len() < 4 {
            return Err(err("truncated vertex count"));
        }
        let n = ((bytes[1] as usize - 63) << 12)
            | ((bytes[2] as usize - 63) << 6)
            | (bytes[3] as usize - 63);
        (n, &bytes[4..])
    } else {
        (bytes[0] as usize - 63, &bytes[1..])
    };
    if n > MAX_VERTICES {
        return Err(GraphError::TooLarge {
            name: format!("graph6:{}", clip(raw, 60)),
            n,
        });
    }
    let pairs = n * n.saturating_sub(1) / 2;
    let need = pairs.div_ceil(6);
    if rest.len() != need {
        return Err(err(&format!(
            "{n} vertices need {need} data characters, found {}",
            rest.len()
        )));
    }
    let mut edges = Vec::new();
    let mut k = 0;
    for j in 1..n {
        for i in 0..j {
            let byte = rest[k / 6] - 63;
            if byte & (1 << (5 - k % 6)) != 0 {
                edges.push((i, j));
                if edges.len() > MAX_EDGES {
                    return Err(GraphError::TooManyEdges {
                        name: format!("graph6:{}", clip(raw, 60)),
                        edges: edges.len() as u128,
                    });
                }
            }
            k += 1;
        }
    }
    Graph::new(
        format!("graph6:{raw}"),
        (0..n).map(|i| i.to_string()).collect(),
        &edges,
    )
}

/// Encodes a graph as graph6 (vertex order as stored).
pub fn to_graph6(g: &Graph) -> String {
    let n = g.n();
    let mut out = String::new();
    if n <= 62 {
        out.push((n as u8 + 63) as char);
    } else {
        out.push('~');
        for shift in [12, 6, 0] {
            out.push((((n >> shift) & 63) as u8 + 63) as char);
        }
    }
    let mut acc = 0u8;
    let mut k = 0;
    for j in 1..n {
        for i in 0..j {
            if g.neighbours(i).binary_search(&j).is_ok() {
                acc |= 1 << (5 - k % 6);
            }
            k += 1;
            if k % 6 == 0 {
                out.push((acc + 63) as char);
                acc = 0;
            }
        }
    }
    if k % 6 != 0 {
        out.push((acc + 63) as char);
    }
    out
}

/// Largest graph file read (a graph of [`MAX_VERTICES`] vertices needs far less); reading
/// stops there, so `/dev/zero` or a huge file is refused instead of filling memory.
pub const MAX_FILE_BYTES: u64 = 16 << 20;

/// Longest vertex name accepted from a file (names reach labels of artifacts).
const MAX_NAME: usize = 256;

/// At most `max` bytes of a text, shortened with `…` (for error messages).
fn clip(s: &str, max: usize) -> String {
    if s.len() <= max {
        return s.to_string();
    }
    let mut i = max;
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    format!("{}…", &s[..i])
}

thread_local! {
    /// The folder relative `file:` paths resolve against on this thread ([`with_base`]).
    static BASE: std::cell::RefCell<Option<std::path::PathBuf>> =
        const { std::cell::RefCell::new(None) };
}

/// The folder relative `file:` paths resolve against on this thread: the folder of the spec
/// being read, checked, certified or rendered; `None` (the current folder) on the command
/// line. Code that fans a spec's work out to other threads (rayon) takes it along with
/// [`with_base`].
pub fn base() -> Option<std::path::PathBuf> {
    BASE.with(|b| b.borrow().clone())
}

/// Runs `f` with relative `file:` paths resolved against `base`, then restores the folder
/// before (also when `f` panics): a rayon worker that steals another spec's task while it
/// waits runs it with that spec's folder and comes back to its own.
pub fn with_base<R>(base: Option<&Path>, f: impl FnOnce() -> R) -> R {
    struct Restore(Option<std::path::PathBuf>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let old = self.0.take();
            BASE.with(|b| *b.borrow_mut() = old);
        }
    }
    let old = BASE.with(|b| b.replace(base.map(Path::to_path_buf)));
    let _restore = Restore(old);
    f()
}

/// Runs `f` with relative `file:` paths resolved against the folder of the spec file
/// `spec_file` (as it was named: a relative spec path gives a relative folder).
pub fn in_folder_of<R>(spec_file: &str, f: impl FnOnce() -> R) -> R {
    let folder = Path::new(spec_file)
        .parent()
        .filter(|p| !p.as_os_str().is_empty());
    with_base(folder, f)
}

/// Where a `file:` path points: an absolute path as it is, a relative one against the
/// spec's folder ([`base`]) or else the current folder.
pub fn resolve(path: &Path) -> std::path::PathBuf {
    match base() {
        Some(b) if path.is_relative() => b.join(path),
        _ => path.to_path_buf(),
    }
}

/// Reads a graph file: DOT (`.dot`/`.gv`, or text starting with `graph`/`strict`/`digraph`) or
/// an edge list (one edge `u v` per line, `#` comments, a lone name declares an isolated
/// vertex). Files larger than [`MAX_FILE_BYTES`] are refused.
pub fn from_file(path: &Path) -> Result<Graph, GraphError> {
    use std::io::Read;
    let file_err = |why: String| GraphError::File {
        path: path.display().to_string(),
        why,
    };
    let f = crate::files::open_regular(path).map_err(|e| file_err(e.to_string()))?;
    let mut bytes = Vec::new();
    f.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| file_err(e.to_string()))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(file_err(format!(
            "larger than {} MiB; a graph of at most {MAX_VERTICES} vertices is far smaller",
            MAX_FILE_BYTES >> 20
        )));
    }
    let text = String::from_utf8(bytes).map_err(|_| file_err("not UTF-8 text".into()))?;
    // A byte-order mark (editors on Windows write one) is not part of the first vertex name.
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text).to_string();
    let name = format!("file:{}", path.display());
    let is_dot = matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("dot" | "gv")
    ) || {
        let h = text.trim_start().to_ascii_lowercase();
        h.starts_with("graph") || h.starts_with("strict") || h.starts_with("digraph")
    };
    if is_dot {
        from_dot(&name, &text)
    } else {
        from_edge_list(&name, &text)
    }
}

struct Builder {
    /// The graph's name, for errors.
    graph: String,
    index: BTreeMap<String, usize>,
    names: Vec<String>,
    edges: Vec<(usize, usize)>,
    seen: std::collections::BTreeSet<(usize, usize)>,
}

impl Builder {
    fn new(graph: &str) -> Self {
        Builder {
            graph: graph.to_string(),
            index: BTreeMap::new(),
            names: Vec::new(),
            edges: Vec::new(),
            seen: Default::default(),
        }
    }
    fn err(&self, why: String) -> GraphError {
        GraphError::File {
            path: self.graph.trim_start_matches("file:").to_string(),
            why,
        }
    }
    /// The index of a vertex, declaring it; refuses odd names and too many vertices at once.
    fn vertex(&mut self, name: &str) -> Result<usize, GraphError> {
        if let Some(&i) = self.index.get(name) {
            return Ok(i);
        }
        if name.is_empty() || name.len() > MAX_NAME || name.chars().any(char::is_control) {
            return Err(self.err(format!(
                "vertex name `{}`: names are 1 to {MAX_NAME} bytes without control characters",
                clip(&name.escape_debug().to_string(), 60)
            )));
        }
        if self.names.len() == MAX_VERTICES {
            return Err(GraphError::TooLarge {
                name: self.graph.clone(),
                n: MAX_VERTICES + 1,
            });
        }
        self.names.push(name.to_string());
        self.index.insert(name.to_string(), self.names.len() - 1);
        Ok(self.names.len() - 1)
    }
    fn edge_ix(&mut self, x: usize, y: usize) {
        if self.seen.insert((x.min(y), x.max(y))) {
            self.edges.push((x, y));
        }
    }
    fn edge(&mut self, a: &str, b: &str) -> Result<(), GraphError> {
        let (x, y) = (self.vertex(a)?, self.vertex(b)?);
        self.edge_ix(x, y);
        Ok(())
    }
}

/// Edge-list text: `u v` per line.
pub fn from_edge_list(name: &str, text: &str) -> Result<Graph, GraphError> {
    let mut b = Builder::new(name);
    for (ln, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let f: Vec<&str> = line
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|s| !s.is_empty())
            .take(3)
            .collect();
        match f.as_slice() {
            [a] => {
                b.vertex(a)?;
            }
            [a, c] => b.edge(a, c)?,
            _ => {
                return Err(b.err(format!(
                    "line {}: expected `u v`, found `{}`",
                    ln + 1,
                    clip(line, 80)
                )))
            }
        }
    }
    Graph::new(name, b.names, &b.edges)
}

/// A DOT token.
#[derive(Debug, PartialEq)]
pub(crate) enum Tok {
    /// An ID; `true` when it was quoted or HTML (never a keyword then).
    Id(String, bool),
    Open,
    Close,
    OpenAttr,
    CloseAttr,
    Semi,
    Comma,
    Eq,
    Colon,
    Undirected,
    Directed,
}

/// Splits DOT text into tokens (comments, `#` lines and `"a" + "b"` concatenation handled).
pub(crate) fn dot_tokens(text: &str) -> Result<Vec<(Tok, usize)>, String> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let line_of = |i: usize| text[..i].matches('\n').count() + 1;
    let mut line_start = true;
    let unclosed = |at: usize| format!("line {}: string never closed", line_of(at));
    while i < b.len() {
        let c = b[i];
        if c == b'\n' {
            line_start = true;
            i += 1;
            continue;
        }
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let at = i;
        if c == b'#' && line_start {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        line_start = false;
        if text[i..].starts_with("//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        if text[i..].starts_with("/*") {
            match text[i + 2..].find("*/") {
                Some(k) => i += k + 4,
                None => return Err(format!("line {}: comment never closed", line_of(at))),
            }
            continue;
        }
        let single = match c {
            b'{' => Some(Tok::Open),
            b'}' => Some(Tok::Close),
            b'[' => Some(Tok::OpenAttr),
            b']' => Some(Tok::CloseAttr),
            b';' => Some(Tok::Semi),
            b',' => Some(Tok::Comma),
            b'=' => Some(Tok::Eq),
            b':' => Some(Tok::Colon),
            _ => None,
        };
        if let Some(t) = single {
            out.push((t, at));
            i += 1;
            continue;
        }
        if text[i..].starts_with("--") {
            out.push((Tok::Undirected, at));
            i += 2;
            continue;
        }
        if text[i..].starts_with("->") {
            out.push((Tok::Directed, at));
            i += 2;
            continue;
        }
        if c == b'"' {
            let (mut s, mut end) = quoted(text, i).ok_or_else(|| unclosed(at))?;
            // `"a" + "b"` is one ID.
            loop {
                let rest = text[end..].trim_start();
                let Some(after) = rest.strip_prefix('+').map(str::trim_start) else {
                    break;
                };
                if !after.starts_with('"') {
                    break;
                }
                let (t, e) = quoted(text, text.len() - after.len()).ok_or_else(|| unclosed(at))?;
                s.push_str(&t);
                end = e;
            }
            out.push((Tok::Id(s, true), at));
            i = end;
            continue;
        }
        if c == b'<' {
            let mut depth = 0usize;
            let mut j = i;
            while j < b.len() {
                match b[j] {
                    b'<' => depth += 1,
                    b'>' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
            if j == b.len() {
                return Err(format!("line {}: HTML string never closed", line_of(at)));
            }
            out.push((Tok::Id(text[i + 1..j].to_string(), true), at));
            i = j + 1;
            continue;
        }
        let is_num_start = c.is_ascii_digit() || c == b'.' || c == b'-';
        let is_id = |ch: char| ch.is_alphanumeric() || ch == '_' || !ch.is_ascii();
        if is_num_start {
            let mut j = i + 1;
            while j < b.len() && (b[j].is_ascii_digit() || b[j] == b'.') {
                j += 1;
            }
            if &text[i..j] == "-" || &text[i..j] == "." || &text[i..j] == "-." {
                return Err(format!(
                    "line {}: unexpected `{}`",
                    line_of(at),
                    &text[i..j]
                ));
            }
            out.push((Tok::Id(text[i..j].to_string(), false), at));
            i = j;
            continue;
        }
        let ch = text[i..].chars().next().expect("inside the text");
        if is_id(ch) && !ch.is_ascii_digit() {
            let len = text[i..]
                .find(|x: char| !is_id(x))
                .unwrap_or(text.len() - i);
            out.push((Tok::Id(text[i..i + len].to_string(), false), at));
            i += len;
            continue;
        }
        return Err(format!(
            "line {}: unexpected character `{}`",
            line_of(at),
            ch.escape_debug()
        ));
    }
    Ok(out)
}

/// The quoted string starting at byte `i` (a `"`): its content (`\"` unescaped, line
/// continuations removed, other backslashes kept as Graphviz keeps them) and the byte after
/// its closing quote; `None` when it is never closed.
fn quoted(text: &str, i: usize) -> Option<(String, usize)> {
    let mut s = String::new();
    let mut j = i + 1;
    loop {
        let ch = text[j..].chars().next()?;
        j += ch.len_utf8();
        match ch {
            '"' => return Some((s, j)),
            '\\' if text[j..].starts_with('"') => {
                s.push('"');
                j += 1;
            }
            '\\' if text[j..].starts_with('\n') => j += 1,
            '\\' if text[j..].starts_with("\r\n") => j += 2,
            _ => s.push(ch),
        }
    }
}

/// DOT text (undirected `graph` or `strict graph` only; a `digraph` is refused): node IDs and
/// edges are read, attributes and ports ignored; an edge operand may be a subgraph
/// (`a -- {b c}` joins a to b and c). Parsed iteratively with an explicit stack of open
/// subgraphs, so nesting depth costs heap, never the call stack.
pub fn from_dot(name: &str, text: &str) -> Result<Graph, GraphError> {
    let mut b = Builder::new(name);
    let toks = dot_tokens(text).map_err(|e| b.err(format!("not valid DOT: {e}")))?;
    let line_of = |i: usize| text[..i.min(text.len())].matches('\n').count() + 1;
    let kw = |t: &Tok, k: &str| matches!(t, Tok::Id(s, false) if s.eq_ignore_ascii_case(k));
    let mut k = 0;
    let bad = |b: &Builder, at: usize, why: &str| {
        b.err(format!("not valid DOT: line {}: {why}", line_of(at)))
    };
    // Header: [strict] graph [ID] {
    if toks.first().is_some_and(|(t, _)| kw(t, "strict")) {
        k += 1;
    }
    match toks.get(k) {
        Some((t, _)) if kw(t, "graph") => k += 1,
        Some((t, at)) if kw(t, "digraph") => {
            return Err(bad(
                &b,
                *at,
                "a digraph; the games are played on undirected graphs (write `graph` and `--`)",
            ))
        }
        Some((_, at)) => return Err(bad(&b, *at, "expected `graph`")),
        None => return Err(b.err("not valid DOT: empty".into())),
    }
    if matches!(toks.get(k), Some((Tok::Id(..), _))) {
        k += 1;
    }
    match toks.get(k) {
        Some((Tok::Open, _)) => k += 1,
        Some((_, at)) => return Err(bad(&b, *at, "expected `{`")),
        None => return Err(b.err("not valid DOT: expected `{`".into())),
    }

    /// One open graph or subgraph: its vertices so far and the operands of the edge
    /// statement being read.
    #[derive(Default)]
    struct Frame {
        members: Vec<usize>,
        chain: Vec<Vec<usize>>,
        after_op: bool,
    }
    fn finish(f: &mut Frame, b: &mut Builder) {
        for w in f.chain.windows(2) {
            for &x in &w[0] {
                for &y in &w[1] {
                    b.edge_ix(x, y);
                }
            }
        }
        f.chain.clear();
    }
    fn add_member(f: &mut Frame, v: usize) {
        if !f.members.contains(&v) {
            f.members.push(v);
        }
    }
    let mut stack = vec![Frame::default()];
    let mut closed = false;
    while k < toks.len() {
        let (tok, at) = (&toks[k], toks[k].1);
        let tok = &tok.0;
        if closed {
            return Err(bad(&b, at, "text after the closing `}`"));
        }
        let top = stack.last_mut().expect("the graph's frame is open");
        match tok {
            Tok::Id(..) if kw(tok, "node") || kw(tok, "edge") || kw(tok, "graph") => {
                if top.after_op {
                    return Err(bad(&b, at, "an edge needs a vertex or subgraph after `--`"));
                }
                finish(top, &mut b);
                if !matches!(toks.get(k + 1), Some((Tok::OpenAttr, _))) {
                    return Err(bad(&b, at, "expected `[` after node/edge/graph"));
                }
                k += 1;
            }
            Tok::Id(..) if kw(tok, "subgraph") || kw(tok, "strict") || kw(tok, "digraph") => {
                if !kw(tok, "subgraph") {
                    return Err(bad(&b, at, "unexpected keyword"));
                }
                if !top.after_op {
                    finish(top, &mut b);
                }
                k += 1;
                if matches!(toks.get(k), Some((Tok::Id(..), _))) {
                    k += 1;
                }
                if !matches!(toks.get(k), Some((Tok::Open, _))) {
                    return Err(bad(&b, at, "expected `{` after subgraph"));
                }
                stack.push(Frame::default());
                k += 1;
            }
            Tok::Open => {
                if !top.after_op {
                    finish(top, &mut b);
                }
                stack.push(Frame::default());
                k += 1;
            }
            Tok::Id(id, _) => {
                let id = id.clone();
                if !top.after_op {
                    finish(top, &mut b);
                }
                k += 1;
                // `ID = ID`: a graph attribute.
                if !top.after_op && matches!(toks.get(k), Some((Tok::Eq, _))) {
                    if !matches!(toks.get(k + 1), Some((Tok::Id(..), _))) {
                        return Err(bad(&b, at, "expected a value after `=`"));
                    }
                    k += 2;
                    continue;
                }
                // A port `:ID[:ID]` is ignored.
                while matches!(toks.get(k), Some((Tok::Colon, _))) {
                    if !matches!(toks.get(k + 1), Some((Tok::Id(..), _))) {
                        return Err(bad(&b, at, "expected a port after `:`"));
                    }
                    k += 2;
                }
                let v = b.vertex(&id)?;
                let top = stack.last_mut().expect("open");
                add_member(top, v);
                top.chain.push(vec![v]);
                top.after_op = false;
                continue;
            }
            Tok::Close => {
                if top.after_op {
                    return Err(bad(&b, at, "an edge needs a vertex or subgraph after `--`"));
                }
                finish(top, &mut b);
                let done = stack.pop().expect("open");
                match stack.last_mut() {
                    None => closed = true,
                    Some(parent) => {
                        for &v in &done.members {
                            add_member(parent, v);
                        }
                        parent.chain.push(done.members);
                        parent.after_op = false;
                    }
                }
                k += 1;
            }
            Tok::Undirected => {
                if top.chain.is_empty() || top.after_op {
                    return Err(bad(&b, at, "`--` needs a vertex or subgraph on both sides"));
                }
                top.after_op = true;
                k += 1;
            }
            Tok::Directed => {
                return Err(bad(
                    &b,
                    at,
                    "`->` is a directed edge; the games are played on undirected graphs",
                ))
            }
            Tok::Semi | Tok::Comma => {
                if top.after_op {
                    return Err(bad(&b, at, "an edge needs a vertex or subgraph after `--`"));
                }
                finish(top, &mut b);
                k += 1;
            }
            Tok::OpenAttr => {
                if top.after_op {
                    return Err(bad(&b, at, "an edge needs a vertex or subgraph after `--`"));
                }
                // Attributes: `[a=b, c=d; e]`, ignored.
                k += 1;
                loop {
                    match toks.get(k) {
                        Some((Tok::CloseAttr, _)) => break,
                        Some((Tok::Id(..) | Tok::Eq | Tok::Comma | Tok::Semi, _)) => k += 1,
                        Some((_, a)) => return Err(bad(&b, *a, "unexpected token in `[...]`")),
                        None => return Err(bad(&b, at, "`[` is never closed")),
                    }
                }
                k += 1;
            }
            Tok::CloseAttr | Tok::Eq | Tok::Colon => {
                return Err(bad(&b, at, "unexpected token"));
            }
        }
    }
    if !closed {
        return Err(b.err("not valid DOT: the graph's `{` is never closed".into()));
    }
    Graph::new(name, b.names, &b.edges)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::families;

    #[test]
    fn graph6_known_strings() {
        // nauty: C_5 is "Dhc", K_4 is "C~", P_3 is "Bg" (geng/showg conventions).
        let c5 = from_graph6("Dhc").unwrap();
        assert_eq!(c5.edges().len(), 5);
        assert!((0..5).all(|v| c5.degree(v) == 2));
        assert_eq!(from_graph6("C~").unwrap().edges().len(), 6);
        assert_eq!(from_graph6(">>graph6<<Bg").unwrap().edges().len(), 2);
    }

    #[test]
    fn graph6_round_trip() {
        for g in [
            families::cycle(9).unwrap(),
            families::wheel(7).unwrap(),
            families::hypercube(6).unwrap(),
        ] {
            let s = to_graph6(&g);
            let h = from_graph6(&s).unwrap();
            assert_eq!(g.edges(), h.edges());
        }
    }

    #[test]
    fn graph6_errors() {
        assert!(from_graph6("").is_err());
        assert!(from_graph6("D").is_err());
        assert!(from_graph6("Dh c").is_err());
        assert!(matches!(
            from_graph6("C?"),
            Err(GraphError::Disconnected(_))
        ));
    }

    #[test]
    fn edge_list_and_dot() {
        let g = from_edge_list("t", "# kite\nx y\ny u\ny v\nu w\nv w\n").unwrap();
        assert_eq!(g.edges().len(), 5);
        let d = from_dot("t", "graph { x -- y; y -- u; y -- v; u -- w -- v }").unwrap();
        assert_eq!(d.edges().len(), 5);
        assert!(from_edge_list("t", "a b c\n").is_err());
        assert!(from_dot("t", "graph { a -- ").is_err());
    }

    #[test]
    fn dot_subgraph_operands_attributes_and_comments() {
        // `a -- {b c}` joins a to both: the star K_{1,2}.
        let g = from_dot("t", "graph { a -- {b c} }").unwrap();
        assert_eq!(g.edges().len(), 2);
        assert_eq!(g.degree(0), 2);
        // Subgraphs on both sides give the complete bipartite graph K_{2,2} = C_4.
        let g = from_dot("t", "strict graph G { subgraph s { x; y } -- { u v } }").unwrap();
        assert_eq!(g.edges().len(), 4);
        assert!((0..4).all(|v| g.degree(v) == 2));
        let g = from_dot(
            "t",
            "# cpp line\ngraph {\n node [shape=circle]; // comment\n /* block */ \"a\" + \"1\" -- b:n [color=red]; b -- c; rankdir=LR }",
        )
        .unwrap();
        assert_eq!(g.n(), 3);
        assert!(g.vertex_index("a1").is_some());
        // Edge chains: a path.
        assert_eq!(
            from_dot("t", "graph { a -- b -- c -- d }")
                .unwrap()
                .edges()
                .len(),
            3
        );
    }

    #[test]
    fn dot_refuses_directed_and_malformed_input() {
        let msg = |t: &str| from_dot("t", t).unwrap_err().to_string();
        assert!(msg("digraph { a -> b }").contains("digraph"));
        assert!(msg("graph { a -> b }").contains("directed"));
        assert!(msg("graph { a -- }").contains("--"));
        assert!(msg("graph { a -- b } extra").contains("after"));
        assert!(msg("graph { a -- b").contains("never closed"));
        assert!(msg("graph { \"a").contains("never closed"));
        // Deep nesting costs heap, not stack: 100,000 nested subgraphs.
        let deep = format!(
            "graph {{ a -- {}b{} }}",
            "{".repeat(100_000),
            "}".repeat(100_000)
        );
        assert_eq!(from_dot("t", &deep).unwrap().edges().len(), 1);
    }
}
