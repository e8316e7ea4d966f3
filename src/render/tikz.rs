//! TikZ figures from the DOT grundy writes: Graphviz lays the DOT out (`dot -Tjson0`), and the
//! positions, with the `grundy*` attributes the DOT templates put on nodes, edges and clusters,
//! become a typed [`TikzView`] rendered by `templates/figure.tikz.tex`.
//!
//! Attributes read (all optional; Graphviz ignores them when drawing SVG/PDF):
//! - on the graph: `grundywrap` (lay the top-level
//!   clusters out in rows of this many, for figures of many small panels);
//! - on top-level clusters: `grundyrow` (panels with one key share a row, e.g. one family of
//!   sets per row in Fig 2.1);
//! - on nodes: `grundytex` (label, TeX math), `grundynim` (a nim-value, set in bold under the
//!   label), `grundymini` (a miniature of a graph position, see [`Mini::parse`]) and
//!   `grundystyle` (TikZ styles of `grundy-tikz.sty`), `grundynote` (a second line, TeX
//!   math); invisible and point nodes become
//!   coordinates;
//! - on edges and clusters: `grundystyle`, and `grundytex` on clusters (their label).
//!
//! Positions are Graphviz's, in big points, and the drawing is made at that natural size; the
//! template scales the whole picture, labels included, to the text width when it is wider
//! (never up), so nodes, labels and routes keep the proportions Graphviz laid out. To keep
//! labels at 0.9 of their size where it can ([`GOOD_SCALE`]; a figure that would still print
//! them below [`MIN_LABEL_PT`] gets larger fonts, laid out for them) at `\linewidth` and on the page's height, [`fitted`] sizes miniatures as LaTeX sets
//! them and lays a figure out again, more compactly (text nodes without Graphviz's minimum
//! size, less space, panels in rows or stacked each with its own ranks), when it would print
//! smaller. Every edge follows Graphviz's
//! Bézier route (`.. controls ..`), so an edge never runs through a node it does not touch;
//! each node and panel title is checked by LaTeX (`\grundyfits` of `grundy-tikz.sty`) to fit
//! in the box Graphviz reserved for it, which is what makes Graphviz's non-overlap hold for
//! the typeset picture (tests/figures.rs checks the layout itself).

use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;

/// The width of a default 10pt article's `\linewidth` (345pt) in bp, over 0.8: a figure at most
/// this wide keeps its labels at 0.8 of their size or more when scaled to `\linewidth`.
pub const MAX_NATURAL_WIDTH: f64 = 345.0 / 72.27 * 72.0 / 0.8;

/// The print scale at which [`fitted`] stops trying more compact layouts: labels at 0.9 of
/// their size read as full size beside the text (at 0.8, Figs 5.2, 5.9 and seed 002's
/// SP_{12,2} and SP_{8,2} looked small).
pub const GOOD_SCALE: f64 = 0.9;

/// The size (pt) of a node's label and nim-value at the figures' font (`\small` of a 10pt
/// article, `grundy picture` in `grundy-tikz.sty`).
pub const LABEL_PT: f64 = 9.0;

/// The smallest a node label or nim-value may be printed (pt; issue 46 item 9: scaled to the
/// text width, Figs 5.2 and 5.9 printed them at 7–7.5pt and their fibre labels at 6pt):
/// [`fitted`] sets a figure's fonts larger when its scale would print them smaller, and lays it
/// out with its nodes at the size of the larger text.
pub const MIN_LABEL_PT: f64 = 8.0;

/// The most [`fitted`] enlarges a figure's fonts (the layout grows with them, so that beyond
/// this a figure would only print its drawings smaller).
pub const MAX_FONT_SCALE: f64 = 1.4;

/// The size (pt) a figure prints its node labels and nim-values at: [`LABEL_PT`] times its
/// font scale and [`printed_scale`].
pub fn printed_label_pt(v: &TikzView) -> f64 {
    LABEL_PT * v.font_scale * printed_scale(v)
}

/// The tallest a figure may be printed (bp): most of a 10pt article's text height (550pt),
/// leaving room for its caption.
pub const MAX_PRINTED_HEIGHT: f64 = 470.0;

/// The scale a figure is printed at: [`linewidth_scale`], or less when it would then be
/// taller than [`MAX_PRINTED_HEIGHT`] (the template scales it to the page's height).
pub fn printed_scale(v: &TikzView) -> f64 {
    let s = linewidth_scale(v.natural_width);
    if v.natural_height * s > MAX_PRINTED_HEIGHT {
        MAX_PRINTED_HEIGHT / v.natural_height
    } else {
        s
    }
}

/// The scale of a figure `width` bp wide at a 10pt article's `\linewidth` (never enlarged).
pub fn linewidth_scale(width: f64) -> f64 {
    (345.0 / 72.27 * 72.0 / width).min(1.0)
}

/// How the panels of a figure are arranged in one of [`COMPACT`]'s layouts.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Arrange {
    /// As Graphviz lays the DOT out.
    AsLaid,
    /// At most this many panels per row, moved whole (figures of many small panels, or
    /// panels that are separate drawings; see [`view_wrapped`]).
    Rows(usize),
    /// Separate panels one below the other, each ranked on its own: side by side, Graphviz
    /// gives all panels the ranks of the tallest (Fig 5.2's image DC(3) + *1 had the height of
    /// its preimage's fibres), so moving them under each other keeps that waste. Figures whose
    /// panels are not separate, or that name their rows, get `Rows(1)` instead.
    Stacked,
}

/// Graph attributes tried in turn, more compact each time, while a figure would print below
/// [`GOOD_SCALE`] (wider than the text or taller than the page allows; the reading
/// direction is never changed: plays run left to right and gamegraphs top down as in the
/// paper), with the arrangement of its panels.
const COMPACT: [(&str, Arrange); 6] = [
    ("", Arrange::AsLaid),
    ("nodesep=0.1", Arrange::Rows(3)),
    ("nodesep=0.06, ranksep=0.3", Arrange::Rows(3)),
    ("nodesep=0.06, ranksep=0.3", Arrange::Rows(2)),
    ("nodesep=0.06, ranksep=0.3", Arrange::Stacked),
    ("nodesep=0.04, ranksep=0.25", Arrange::Stacked),
];

/// Invisible edges that put the top-level panels of a layout one below the other, in their
/// order from left to right: from the lowest node of each panel to the highest of the next.
/// `None` unless the panels are separate drawings (every node in a panel, no edge between
/// two panels) laid out top down, with no rows asked for (`grundywrap`, `grundyrow`).
fn stacking_edges(json: &Value) -> Option<String> {
    let objects = json.get("objects")?.as_array()?;
    if attr(json, "grundywrap").is_some() || attr(json, "rankdir").is_some_and(|r| r != "TB") {
        return None;
    }
    let clusters = raw_clusters(objects);
    let mut tops: Vec<&RawCluster> = clusters.iter().filter(|c| c.top).collect();
    if tops.len() < 2 || tops.iter().any(|c| c.row.is_some()) {
        return None;
    }
    let panel_of = |i: usize| tops.iter().position(|c| c.nodes.contains(&i));
    let placed = |o: &Value| attr(o, "bb").is_none() && attr(o, "pos").is_some();
    let all_inside = objects
        .iter()
        .enumerate()
        .all(|(i, o)| !placed(o) || panel_of(i).is_some());
    let edges = json.get("edges").and_then(Value::as_array);
    let within = edges.into_iter().flatten().all(|e| {
        let end = |k: &str| {
            e.get(k)
                .and_then(Value::as_u64)
                .and_then(|i| panel_of(i as usize))
        };
        end("tail") == end("head")
    });
    if !all_inside || !within {
        return None;
    }
    tops.sort_by(|a, b| a.bb.0.total_cmp(&b.bb.0));
    let y = |i: usize| {
        attr(&objects[i], "pos")
            .and_then(point)
            .map_or(0.0, |p| p.1)
    };
    let name = |i: usize| quoted(attr(&objects[i], "name").unwrap_or_default());
    let ends: Vec<(usize, usize)> = tops
        .iter()
        .map(|c| {
            let by_y = |a: &&usize, b: &&usize| y(**a).total_cmp(&y(**b));
            let low = c.nodes.iter().min_by(by_y).copied().unwrap_or_default();
            let high = c.nodes.iter().max_by(by_y).copied().unwrap_or_default();
            (low, high)
        })
        .collect();
    let op = if json.get("directed").and_then(Value::as_bool) == Some(false) {
        "--"
    } else {
        "->"
    };
    Some(
        ends.windows(2)
            .map(|w| format!("  {} {op} {} [style=invis];\n", name(w[0].0), name(w[1].1)))
            .collect(),
    )
}

/// A DOT identifier in double quotes.
fn quoted(name: &str) -> String {
    format!("\"{}\"", name.replace('\\', "\\\\").replace('"', "\\\""))
}

/// The DOT with `statements` added at the end of its graph (a node statement there sets
/// attributes of a node declared before, wherever it was declared).
fn appended(dot: &str, statements: &str) -> String {
    let cut = dot.rfind('}').unwrap_or(dot.len());
    format!("{}{statements}{}", &dot[..cut], &dot[cut..])
}

/// Width (bp) LaTeX gives a printed character of a panel title (`\footnotesize` math, a little
/// generous), and Graphviz a Helvetica `n` at the clusters' 12pt.
const TITLE_CHAR: f64 = 5.0;
const GRAPHVIZ_N: f64 = 0.556 * 12.0;

/// The value of attribute `key` in one line of the DOT grundy writes (`key="…"`), unescaped.
fn line_attr(line: &str, key: &str) -> Option<String> {
    let at = line.find(&format!("{key}=\""))? + key.len() + 2;
    let mut out = String::new();
    let mut chars = line[at..].chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => return Some(out),
            '\\' => out.extend(chars.next()),
            _ => out.push(c),
        }
    }
    None
}

/// The DOT with each panel title as wide as LaTeX prints it: a panel's DOT `label` (the
/// preview's `DNT(P_3) (nim-value 1)` in Helvetica) is often twice its typeset `grundytex`,
/// and Graphviz widens the panel to the label (Figs 5.1 and 5.7 had a third of their first
/// panel empty). A panel title is its cluster's `label="…";` line followed by the line with
/// its `grundytex` (templates/gamegraph.dot, graph.dot); the stand-in is a row of `n`s of
/// about the typeset width, and `\grundyfits` checks the title still fits.
fn typeset_titles(dot: &str) -> String {
    let lines: Vec<&str> = dot.lines().collect();
    let mut out = String::with_capacity(dot.len());
    for (i, l) in lines.iter().enumerate() {
        let t = l.trim_start();
        let tex = lines
            .get(i + 1)
            .and_then(|n| line_attr(n, "grundytex"))
            .filter(|x| !x.is_empty());
        match tex {
            // A quoted title or, in the previews' paper notation, an HTML-like one.
            Some(tex)
                if (t.starts_with("label=\"") && t.ends_with("\";"))
                    || (t.starts_with("label=<") && t.ends_with(">;")) =>
            {
                // A negative space prints nothing (the multiset braces `\{\!\!\{` are two
                // characters wide, not six).
                let printed = tex.replace("\\!", "");
                let n = (visible_chars(&printed) as f64 * TITLE_CHAR / GRAPHVIZ_N).ceil() as usize;
                out.push_str(&l[..l.len() - t.len()]);
                out.push_str(&format!("label=\"{}\";", "n".repeat(n.max(1))));
            }
            _ => out.push_str(l),
        }
        out.push('\n');
    }
    out
}

/// The DOT with extra graph attributes for the TikZ layout: no title (the caption is the
/// figure's title), panel titles as wide as they are printed, and `extra`.
fn with_attributes(dot: &str, extra: &str) -> String {
    let dot = typeset_titles(dot);
    let dot = dot.as_str();
    let cut = dot.rfind('}').unwrap_or(dot.len());
    let sep = if extra.is_empty() { "" } else { ", " };
    format!(
        "{}  graph [label=\"\"{sep}{extra}];\n{}",
        &dot[..cut],
        &dot[cut..]
    )
}

/// The TikZ view of a DOT figure laid out for the printed width: the first of [`COMPACT`]'s
/// layouts printed at [`GOOD_SCALE`] or more, else the one printed largest. `Ok(None)` when the
/// layout has no nodes.
pub fn fitted(dot: &str, from: &str) -> Result<Option<TikzView>, String> {
    // Fonts at their size unless the figure would then print its labels below
    // [`MIN_LABEL_PT`]; else enlarged by the factor that scale asks for and laid out again
    // (the larger nodes make the figure print a little smaller, so a few rounds), in
    // hundredths so that the output is stable, aiming 2% above the floor (LaTeX's box of a
    // drawing is a little larger than Graphviz's, by its lines' widths).
    let mut k = 1.0;
    let mut best: Option<TikzView> = None;
    for _ in 0..6 {
        let Some(v) = fitted_at(dot, from, k)? else {
            return Ok(None);
        };
        let pt = printed_label_pt(&v);
        let done = pt >= MIN_LABEL_PT * if k == 1.0 { 1.0 } else { 1.01 };
        if best
            .as_ref()
            .is_none_or(|b| done || pt > printed_label_pt(b) + 0.01)
        {
            best = Some(v);
        }
        let next = (k * 1.02 * MIN_LABEL_PT / pt * 100.0).ceil() / 100.0;
        if done || next > MAX_FONT_SCALE || next <= k {
            break;
        }
        k = next;
    }
    Ok(best)
}

/// The DOT with every font size (`fontsize=…` and HTML labels' `POINT-SIZE="…"`) and the
/// least node height times `k`, so that Graphviz sizes the text nodes for the enlarged labels
/// the TikZ drawing typesets.
fn with_font_scale(dot: &str, k: f64) -> String {
    if k == 1.0 {
        return dot.to_string();
    }
    let mut out = String::with_capacity(dot.len());
    let mut rest = dot;
    loop {
        let next = [("fontsize=", ""), ("POINT-SIZE=\"", "\"")]
            .iter()
            .filter_map(|&(key, close)| rest.find(key).map(|i| (i, key, close)))
            .min_by_key(|&(i, _, _)| i);
        let Some((i, key, close)) = next else {
            out.push_str(rest);
            // Graphviz's least node height (0.5in), which a node of two short lines keeps,
            // grows with the text too (DC(3) + *1's positions of Fig 5.2 were typeset 38pt
            // high in boxes of 36bp); the least width (0.75in) is wider than such text.
            // Not where the DOT fixes its nodes' sizes (a graph's vertices: Fig 2.1 grew
            // circles half an inch high and printed smaller with larger fonts).
            if out.contains("fixedsize=true") {
                return out;
            }
            return match out.find('{') {
                Some(at) => format!(
                    "{}\n  node [height={:.3}];{}",
                    &out[..=at],
                    0.5 * k,
                    &out[at + 1..]
                ),
                None => out,
            };
        };
        let start = i + key.len();
        out.push_str(&rest[..start]);
        let len = rest[start..]
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len() - start);
        match rest[start..start + len].parse::<f64>() {
            Ok(size) => out.push_str(&format!("{}{close}", (size * k * 100.0).round() / 100.0)),
            Err(_) => out.push_str(&format!("{}{close}", &rest[start..start + len])),
        }
        rest = &rest[start + len + close.len()..];
    }
}

/// [`fitted`] with the fonts `k` times their size.
fn fitted_at(dot: &str, from: &str, k: f64) -> Result<Option<TikzView>, String> {
    let dot = with_font_scale(dot, k);
    let dot = dot.as_str();
    // Graphviz sizes nodes from its own rendering of the DOT label (a table of ● and ○ for a
    // miniature), which is not what LaTeX typesets: up to twice as wide (Fig 5.5's positions
    // are 30bp wide typeset, 54bp in Graphviz's box) or smaller. The nodes whose typeset size
    // is known from their geometry get exactly that size in the layout (`fixedsize`), so
    // the layout is as compact as the page allows and `\grundyfits` still holds.
    let json = layout(&with_attributes(dot, ""))?;
    let Some(first) = view_wrapped(&json, from, None) else {
        return Ok(None);
    };
    let stacking = stacking_edges(&json);
    let mut sized = String::new();
    for n in &first.nodes {
        if let Some((w, h)) = typeset_size(n, k) {
            sized.push_str(&format!(
                "  {} [width={:.3}, height={:.3}, fixedsize=true];\n",
                quoted(&n.name),
                w / 72.0,
                h / 72.0
            ));
        }
    }
    let dot = appended(dot, &sized);
    // Graphviz gives every node at least its default size (0.75in x 0.5in), more than a
    // typeset `(3,[1]) + *1` needs (24bp x 11bp; Fig 5.9 has eight such nodes in a rank): the
    // compact layouts drop that minimum for boxed and plain text and keep a margin of 4bp x
    // 2bp around Graphviz's estimate of the label, which is wider than LaTeX sets it
    // (`\grundyfits` checks that it holds).
    let mut shrunk = String::new();
    for o in json
        .get("objects")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let margin = match attr(o, "shape") {
            Some("box" | "rect" | "rectangle") => ", margin=\"0.06,0.03\"",
            Some("plaintext" | "plain" | "none") => "",
            _ => continue,
        };
        if attr(o, "grundymini").is_none() && attr(o, "bb").is_none() && attr(o, "pos").is_some() {
            shrunk.push_str(&format!(
                "  {} [width=0, height=0{margin}];\n",
                quoted(attr(o, "name").unwrap_or_default())
            ));
        }
    }
    let mut best: Option<TikzView> = None;
    for (extra, arrange) in COMPACT {
        let compact = if arrange == Arrange::AsLaid {
            dot.clone()
        } else {
            appended(&dot, &shrunk)
        };
        let (laid, wrap) = match (arrange, &stacking) {
            (Arrange::AsLaid, _) => (compact, None),
            (Arrange::Rows(k), _) => (compact, Some(k)),
            (Arrange::Stacked, None) => (compact, Some(1)),
            // Stacked by invisible edges, each panel then centred under the widest (the
            // edges put a panel's top under the previous panel's lowest node, which for Fig
            // 5.2 was at its right end).
            (Arrange::Stacked, Some(edges)) => (appended(&compact, edges), Some(1)),
        };
        let json = layout(&with_attributes(&laid, extra))?;
        let Some(mut v) = view_wrapped(&json, from, wrap) else {
            return Ok(None);
        };
        v.font_scale = k;
        v.font_scale_tex = (k != 1.0).then(|| format!("{k:.2}"));
        // The layout printed largest: the template scales a figure to `\linewidth` and, when
        // it is then taller than the page allows, to that height, so what a reader sees is
        // the smaller of the two scales (stacking panels that are too tall side by side makes
        // them smaller still, not larger).
        let scale = printed_scale(&v);
        // A layout is kept once it prints at [`GOOD_SCALE`]; below that the more compact ones
        // are tried too, and the one printed largest wins (at least 0.8 is a rule the tests
        // check; 0.9 is what a reader of a paper takes for full size).
        let fits = scale >= GOOD_SCALE;
        if best
            .as_ref()
            .is_none_or(|b| scale > printed_scale(b) + 0.005)
        {
            best = Some(v);
        }
        if fits {
            break;
        }
    }
    Ok(best)
}

/// The typeset size (bp, a little generous) of a node whose content is a miniature: the
/// miniature's extent at its scale (`grundy mini`: 6pt a unit; the legend 14pt with the
/// vertex names), the rows of the tabular around it (a `\small` row is 11pt; a miniature is
/// centred on its row's baseline) and the shape (an ellipse is √2 times its content, plus
/// `inner sep`), its text rows and widths `k` times their size (the figure's font scale).
/// `None` for nodes without a miniature (Graphviz's estimate of their label stands, and
/// `\grundyfits` checks it).
fn typeset_size(n: &TikzNode, k: f64) -> Option<(f64, f64)> {
    let m = n.mini.as_ref()?;
    let coords = |f: fn(&MiniVertex) -> &String| -> (f64, f64) {
        m.vertices
            .iter()
            .filter_map(|v| f(v).parse::<f64>().ok())
            .fold((f64::MAX, f64::MIN), |(lo, hi), x| (lo.min(x), hi.max(x)))
    };
    let ((x0, x1), (y0, y1)) = (coords(|v| &v.x), coords(|v| &v.y));
    let (unit, vertex) = if m.legend { (14.0, 9.0) } else { (6.0, 2.8) };
    let (mw, mh) = ((x1 - x0) * unit + vertex, (y1 - y0) * unit + vertex);
    let text_rows = [n.tex.is_some(), n.nim.is_some(), n.note.is_some()];
    let rows = text_rows.iter().filter(|&&r| r).count() as f64;
    let h = (7.7 * k).max(mh / 2.0) + (3.3 * k).max(mh / 2.0) + 11.0 * k * rows;
    let text_w = [&n.tex, &n.note]
        .iter()
        .filter_map(|t| t.as_ref())
        .map(|t| visible_chars(t) as f64 * 5.5 * k)
        .fold(0.0, f64::max);
    let w = mw.max(text_w);
    let (w, h) = if n.style.contains("grundy position") {
        // TikZ's ellipse through the corners of the content box (inner sep 0.5pt), with the
        // outer sep of a very thick line.
        (
            std::f64::consts::SQRT_2 * (w + 1.0) + 1.2,
            std::f64::consts::SQRT_2 * (h + 1.0) + 1.2,
        )
    } else {
        (w + 4.0, h + 4.0)
    };
    Some((w * 1.03, h * 1.03))
}

/// The characters of TeX math that print (commands and braces left out): a width estimate.
fn visible_chars(t: &str) -> usize {
    let mut n = 0;
    let mut command = false;
    for c in t.chars() {
        if c == '\\' {
            command = true;
            n += 1;
        } else if command && c.is_ascii_alphabetic() {
        } else {
            command = false;
            if !matches!(c, '{' | '}' | '^' | '_' | ' ') {
                n += 1;
            }
        }
    }
    n
}

/// Runs Graphviz on DOT text and returns its layout (`-Tjson0`), or why not.
pub fn layout(dot: &str) -> Result<Value, String> {
    use graphviz_rust::cmd::{CommandArg, Format};
    let bytes = graphviz_rust::exec_dot(dot.to_string(), vec![CommandArg::Format(Format::Json0)])
        .map_err(|e| e.to_string())?;
    serde_json::from_slice(&bytes).map_err(|e| format!("Graphviz JSON does not parse: {e}"))
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct MiniVertex {
    pub x: String,
    pub y: String,
    pub style: String,
    /// The vertex name (TeX math), in a legend.
    pub name: Option<String>,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct MiniEdge {
    pub ax: String,
    pub ay: String,
    pub bx: String,
    pub by: String,
}

/// A miniature of a position of a game on a graph: the graph in its usual drawing with the
/// selected vertices filled.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Mini {
    pub vertices: Vec<MiniVertex>,
    pub edges: Vec<MiniEdge>,
    /// A legend (vertices named), drawn larger.
    pub legend: bool,
}

impl Mini {
    /// Parses `x,y,s x,y,s …|a-b a-b …` (unit coordinates; s = 1 selected, 0 not; edges
    /// between vertex indices), as written by [`crate::check::figure::miniature`]; a fourth
    /// field `x,y,s,name` names the vertex (a legend).
    pub fn parse(s: &str) -> Option<Mini> {
        let (vs, es) = s.split_once('|')?;
        let mut vertices = Vec::new();
        let mut legend = false;
        for v in vs.split_whitespace() {
            let mut it = v.splitn(4, ',');
            let x: f64 = it.next()?.parse().ok()?;
            let y: f64 = it.next()?.parse().ok()?;
            let sel = it.next()? == "1";
            let name = it.next().map(super::texlabel::math);
            legend |= name.is_some();
            vertices.push(MiniVertex {
                x: num(x),
                y: num(y),
                style: match (&name, sel) {
                    (Some(_), _) => "grundy mini named".into(),
                    (None, true) => "grundy mini selected".into(),
                    (None, false) => "grundy mini vertex".into(),
                },
                name,
            });
        }
        let mut edges = Vec::new();
        for e in es.split_whitespace() {
            let (a, b) = e.split_once('-')?;
            let (a, b): (usize, usize) = (a.parse().ok()?, b.parse().ok()?);
            if a >= vertices.len() || b >= vertices.len() {
                return None;
            }
            let (va, vb) = (&vertices[a], &vertices[b]);
            edges.push(MiniEdge {
                ax: va.x.clone(),
                ay: va.y.clone(),
                bx: vb.x.clone(),
                by: vb.y.clone(),
            });
        }
        Some(Mini {
            vertices,
            edges,
            legend,
        })
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct TikzNode {
    pub id: String,
    /// The node's name in the DOT (written after the node, for the verifier to bind it).
    pub name: String,
    pub x: String,
    pub y: String,
    pub style: String,
    /// A coordinate (an invisible helper node of the layout), not a drawn node.
    pub coordinate: bool,
    pub tex: Option<String>,
    pub nim: Option<String>,
    pub mini: Option<Mini>,
    /// A second line (TeX math), e.g. the diagram a sink refers to.
    pub note: Option<String>,
    /// The box Graphviz reserved for the node (bp): width, height.
    pub w: String,
    pub h: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct Segment {
    pub c1: String,
    pub c2: String,
    pub end: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct TikzEdge {
    pub from: String,
    pub to: String,
    pub style: String,
    /// Bézier segments (Graphviz's route); empty: a straight line.
    pub segments: Vec<Segment>,
}

#[derive(Clone, Debug, Serialize)]
pub struct TikzCluster {
    pub style: String,
    pub x0: String,
    pub y0: String,
    pub x1: String,
    pub y1: String,
    pub label: Option<String>,
    pub lx: String,
    pub ly: String,
    /// The box Graphviz reserved for the label (bp): the band of its height across the panel.
    pub lw: String,
    pub lh: String,
    /// The TikZ name of the label node.
    pub id: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct TikzView {
    /// The DOT file the layout comes from (relative to output/).
    pub from: String,
    /// Width and height of the drawing in bp (the template scales it to the text width).
    pub width: String,
    pub height: String,
    /// The width and height as numbers (bp), to choose among layouts.
    #[serde(skip)]
    pub natural_width: f64,
    #[serde(skip)]
    pub natural_height: f64,
    /// The factor the fonts are set at (1 but for a figure that would print its labels below
    /// [`MIN_LABEL_PT`]), and as the template writes it (`None` at 1).
    #[serde(skip)]
    pub font_scale: f64,
    pub font_scale_tex: Option<String>,
    pub clusters: Vec<TikzCluster>,
    pub nodes: Vec<TikzNode>,
    pub edges: Vec<TikzEdge>,
}

/// A coordinate as TikZ reads it: one decimal, no `-0`.
fn num(x: f64) -> String {
    let r = (x * 10.0).round() / 10.0;
    if r == 0.0 {
        "0".into()
    } else {
        format!("{r}")
    }
}

fn attr<'a>(o: &'a Value, k: &str) -> Option<&'a str> {
    o.get(k).and_then(Value::as_str).filter(|s| !s.is_empty())
}

/// A `grundy*` text attribute as the template wrote it before the `dot_string` escaping
/// (Graphviz keeps `\\` and `\n` of non-label attributes as they are).
fn text_attr(o: &Value, k: &str) -> Option<String> {
    attr(o, k).map(crate::render::escape::dot_string_unescape)
}

fn point(s: &str) -> Option<(f64, f64)> {
    let (x, y) = s.split_once(',')?;
    Some((x.trim().parse().ok()?, y.trim().parse().ok()?))
}

fn bb(s: &str) -> Option<(f64, f64, f64, f64)> {
    let v: Vec<f64> = s.split(',').filter_map(|x| x.trim().parse().ok()).collect();
    (v.len() == 4).then(|| (v[0], v[1], v[2], v[3]))
}

struct RawCluster {
    bb: (f64, f64, f64, f64),
    lp: Option<(f64, f64)>,
    /// The label's size (bp), from Graphviz's `lwidth`/`lheight` (inches).
    lsize: (f64, f64),
    label: Option<String>,
    style: String,
    /// `grundyrow`: panels with one row key share a row, rows in the order of first appearance.
    row: Option<String>,
    nodes: Vec<usize>,
    top: bool,
}

/// A size attribute of Graphviz's layout (inches) in bp; 0 when absent.
fn inches(o: &Value, k: &str) -> f64 {
    attr(o, k)
        .and_then(|s| s.parse::<f64>().ok())
        .unwrap_or(0.0)
        * 72.0
}

/// The clusters of Graphviz's layout (objects named `cluster…` with a bounding box), each
/// marked top-level when no other cluster contains all its nodes.
fn raw_clusters(objects: &[Value]) -> Vec<RawCluster> {
    let mut clusters: Vec<RawCluster> = Vec::new();
    for o in objects {
        let name = attr(o, "name").unwrap_or("");
        let Some(b) = attr(o, "bb").and_then(bb) else {
            continue;
        };
        // A `grundy room` cluster only keeps the routes Graphviz draws clear of the box it
        // holds (its margin is the room between an arrow and that box): it is not drawn.
        if !name.starts_with("cluster") || attr(o, "grundystyle") == Some("grundy room") {
            continue;
        }
        let nodes: Vec<usize> = o
            .get("nodes")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|x| x.as_u64())
                    .map(|x| x as usize)
                    .collect()
            })
            .unwrap_or_default();
        clusters.push(RawCluster {
            bb: b,
            lp: attr(o, "lp").and_then(point),
            lsize: (inches(o, "lwidth"), inches(o, "lheight")),
            label: text_attr(o, "grundytex"),
            style: attr(o, "grundystyle").unwrap_or("grundy panel").to_string(),
            row: attr(o, "grundyrow").map(str::to_string),
            nodes,
            top: true,
        });
    }
    let n = clusters.len();
    for a in 0..n {
        for b in 0..n {
            if a != b
                && clusters[b].nodes.len() > clusters[a].nodes.len()
                && clusters[a]
                    .nodes
                    .iter()
                    .all(|x| clusters[b].nodes.contains(x))
            {
                clusters[a].top = false;
            }
        }
    }
    clusters
}

/// Builds the view from Graphviz's JSON layout. `None` when the layout has no nodes.
pub fn view(json: &Value, from: &str) -> Option<TikzView> {
    view_wrapped(json, from, None)
}

/// [`view`], with at most `wrap` panels per row when the DOT asks for rows (`grundywrap`).
fn view_wrapped(json: &Value, from: &str, wrap: Option<usize>) -> Option<TikzView> {
    let objects = json.get("objects")?.as_array()?;
    let directed = json
        .get("directed")
        .and_then(Value::as_bool)
        .unwrap_or(true);
    let straight = attr(json, "splines") == Some("false");
    // Clusters (with their bounding boxes) and nodes (with positions), by object index.
    let clusters = raw_clusters(objects);
    let mut pos: BTreeMap<usize, (f64, f64)> = BTreeMap::new();
    let mut half: BTreeMap<usize, (f64, f64)> = BTreeMap::new();
    let mut in_cluster: BTreeMap<usize, usize> = BTreeMap::new();
    for (i, o) in objects.iter().enumerate() {
        if attr(o, "bb").and_then(bb).is_some() {
            continue;
        }
        if let Some(p) = attr(o, "pos").and_then(point) {
            pos.insert(i, p);
            half.insert(i, (inches(o, "width") / 2.0, inches(o, "height") / 2.0));
        }
    }
    if pos.is_empty() {
        return None;
    }
    let n = clusters.len();
    for (k, c) in clusters.iter().enumerate() {
        if c.top {
            for &v in &c.nodes {
                in_cluster.insert(v, k);
            }
        }
    }
    // Panels in rows of `grundywrap`, or of `wrap` when the panels are separate drawings (no
    // edge between two of them, no node outside them): panels are moved whole, with their
    // inner clusters, each row centred under the widest.
    let mut shift: BTreeMap<usize, (f64, f64)> = BTreeMap::new();
    let mut tops: Vec<usize> = (0..n).filter(|&k| clusters[k].top).collect();
    let separate = !tops.is_empty()
        && pos.keys().all(|i| in_cluster.contains_key(i))
        && json
            .get("edges")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .all(|e| {
                let end = |k: &str| {
                    e.get(k)
                        .and_then(Value::as_u64)
                        .and_then(|i| in_cluster.get(&(i as usize)))
                };
                // An invisible edge only placed the panels (see [`stacking_edges`]).
                attr(e, "style").is_some_and(|s| s.contains("invis")) || end("tail") == end("head")
            });
    let asked = attr(json, "grundywrap").and_then(|s| s.parse::<usize>().ok());
    let cols = match (asked, wrap) {
        (Some(c), Some(w)) => Some(c.min(w)),
        (Some(c), None) => Some(c),
        (None, Some(w)) if separate => Some(w),
        _ => None,
    };
    // Rows named by the DOT (`grundyrow`, e.g. one family of sets per row in Fig 2.1), in the
    // order the DOT lists them, else `cols` panels per row from left to right.
    let named = tops.len() > 1 && tops.iter().all(|&k| clusters[k].row.is_some());
    let cols = if named { Some(usize::MAX) } else { cols };
    if let Some(cols) = cols.filter(|&c| c > 0 && (named || tops.len() > c)) {
        let size = |k: usize| {
            let b = clusters[k].bb;
            (b.2 - b.0, b.3 - b.1)
        };
        let rows: Vec<Vec<usize>> = if named {
            let mut keys: Vec<&str> = Vec::new();
            for &k in &tops {
                let key = clusters[k].row.as_deref().unwrap_or_default();
                if !keys.contains(&key) {
                    keys.push(key);
                }
            }
            keys.iter()
                .map(|key| {
                    tops.iter()
                        .copied()
                        .filter(|&k| clusters[k].row.as_deref() == Some(*key))
                        .collect()
                })
                .collect()
        } else {
            // In reading order: left to right, or top down when the layout already stacked
            // them (no two side by side), as [`stacking_edges`] does.
            let stacked = tops.iter().all(|&a| {
                tops.iter().all(|&b| {
                    let (p, q) = (clusters[a].bb, clusters[b].bb);
                    a == b || p.1 >= q.3 || q.1 >= p.3
                })
            });
            if stacked {
                tops.sort_by(|&a, &b| clusters[b].bb.3.total_cmp(&clusters[a].bb.3));
            } else {
                tops.sort_by(|&a, &b| clusters[a].bb.0.total_cmp(&clusters[b].bb.0));
            }
            tops.chunks(cols).map(<[usize]>::to_vec).collect()
        };
        let row_width = |r: &[usize]| -> f64 {
            r.iter().map(|&k| size(k).0).sum::<f64>() + 8.0 * (r.len() - 1) as f64
        };
        let widest = rows.iter().map(|r| row_width(r)).fold(0.0, f64::max);
        let mut top = 0.0;
        for r in &rows {
            let height = r.iter().map(|&k| size(k).1).fold(0.0, f64::max);
            let mut x = (widest - row_width(r)) / 2.0;
            for &k in r {
                let b = clusters[k].bb;
                // Panels of a row share their top edge.
                shift.insert(k, (x - b.0, top - b.3));
                x += size(k).0 + 8.0;
            }
            top -= height + 8.0;
        }
    }
    let node_shift = |i: usize| -> (f64, f64) {
        in_cluster
            .get(&i)
            .and_then(|k| shift.get(k))
            .copied()
            .unwrap_or((0.0, 0.0))
    };
    let cluster_shift = |c: &RawCluster| -> (f64, f64) {
        c.nodes
            .first()
            .map(|&v| node_shift(v))
            .unwrap_or((0.0, 0.0))
    };
    let id = |i: usize| format!("n{i}");
    let mut nodes = Vec::new();
    let (mut lo, mut hi) = ((f64::MAX, f64::MAX), (f64::MIN, f64::MIN));
    let mut extend = |x: f64, y: f64| {
        lo = (lo.0.min(x), lo.1.min(y));
        hi = (hi.0.max(x), hi.1.max(y));
    };
    for (&i, &(x, y)) in &pos {
        let o = &objects[i];
        let (dx, dy) = node_shift(i);
        let (x, y) = (x + dx, y + dy);
        let coordinate = attr(o, "style").is_some_and(|s| s.contains("invis"))
            || attr(o, "shape") == Some("point");
        if !coordinate {
            let (hw, hh) = half[&i];
            extend(x - hw, y - hh);
            extend(x + hw, y + hh);
        }
        nodes.push(TikzNode {
            id: id(i),
            name: attr(o, "name").unwrap_or_default().to_string(),
            x: num(x),
            y: num(y),
            style: attr(o, "grundystyle").unwrap_or("grundy node").to_string(),
            coordinate,
            tex: text_attr(o, "grundytex"),
            nim: attr(o, "grundynim").map(str::to_string),
            mini: text_attr(o, "grundymini").as_deref().and_then(Mini::parse),
            note: text_attr(o, "grundynote"),
            w: num(2.0 * half[&i].0),
            h: num(2.0 * half[&i].1),
        });
    }
    let mut out_clusters = Vec::new();
    for (k, c) in clusters.iter().enumerate() {
        let (dx, dy) = cluster_shift(c);
        let (x0, y0, x1, y1) = (c.bb.0 + dx, c.bb.1 + dy, c.bb.2 + dx, c.bb.3 + dy);
        extend(x0, y0);
        extend(x1, y1);
        let (lx, ly) =
            c.lp.map(|(x, y)| (x + dx, y + dy))
                .unwrap_or(((x0 + x1) / 2.0, y1 - 6.0));
        out_clusters.push(TikzCluster {
            style: c.style.clone(),
            x0: num(x0),
            y0: num(y0),
            x1: num(x1),
            y1: num(y1),
            label: c.label.clone(),
            lx: num(lx),
            ly: num(ly),
            // The label may use the panel's width (Graphviz keeps its band above the nodes).
            lw: num((x1 - x0 - 4.0).max(c.lsize.0)),
            lh: num(c.lsize.1),
            id: format!("c{k}"),
        });
    }
    let mut edges = Vec::new();
    if let Some(es) = json.get("edges").and_then(Value::as_array) {
        for e in es {
            let (Some(t), Some(h)) = (
                e.get("tail").and_then(Value::as_u64),
                e.get("head").and_then(Value::as_u64),
            ) else {
                continue;
            };
            let (t, h) = (t as usize, h as usize);
            if !pos.contains_key(&t) || !pos.contains_key(&h) {
                continue;
            }
            if attr(e, "style").is_some_and(|s| s.contains("invis")) {
                continue;
            }
            let segments = if straight {
                Vec::new()
            } else {
                spline(attr(e, "pos").unwrap_or(""), node_shift(t))
            };
            edges.push(TikzEdge {
                from: id(t),
                to: id(h),
                style: attr(e, "grundystyle")
                    .unwrap_or(if directed {
                        "grundy edge"
                    } else {
                        "grundy line"
                    })
                    .to_string(),
                segments,
            });
        }
    }
    Some(TikzView {
        from: from.to_string(),
        natural_width: (hi.0 - lo.0).max(1.0),
        natural_height: (hi.1 - lo.1).max(1.0),
        width: num((hi.0 - lo.0).max(1.0)),
        height: num((hi.1 - lo.1).max(1.0)),
        font_scale: 1.0,
        font_scale_tex: None,
        clusters: out_clusters,
        nodes,
        edges,
    })
}

/// Graphviz's edge route `[e,x,y] [s,x,y] p0 p1 p2 p3 …` as Bézier segments after p0 (the
/// end points are replaced by the TikZ nodes, which clip the path at their borders).
fn spline(s: &str, (dx, dy): (f64, f64)) -> Vec<Segment> {
    // Graphviz may give one edge several splines, separated by `;` (Fig 5.7's start-to-start
    // map arrow, beside the legend's invisible edge, came as two arcs): the first is drawn.
    let first = s.split(';').next().unwrap_or_default();
    let pts: Vec<(f64, f64)> = first
        .split_whitespace()
        .filter(|w| !w.starts_with("e,") && !w.starts_with("s,"))
        .filter_map(point)
        .collect();
    if pts.len() < 4 || !(pts.len() - 1).is_multiple_of(3) {
        return Vec::new();
    }
    let p = |k: usize| format!("{},{}", num(pts[k].0 + dx), num(pts[k].1 + dy));
    (0..(pts.len() - 1) / 3)
        .map(|s| Segment {
            c1: p(3 * s + 1),
            c2: p(3 * s + 2),
            end: p(3 * s + 3),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn miniatures_parse_and_reject_garbage() {
        let m = Mini::parse("0,1,1 0.87,-0.5,0 -0.87,-0.5,0|0-1 1-2 2-0").unwrap();
        assert_eq!(m.vertices.len(), 3);
        assert_eq!(m.vertices[0].style, "grundy mini selected");
        assert_eq!(m.vertices[1].x, "0.9");
        assert_eq!(
            (m.edges[2].ax.as_str(), m.edges[2].by.as_str()),
            ("-0.9", "1")
        );
        assert!(Mini::parse("0,1,1|0-5").is_none());
        let l = Mini::parse("0,1,0,v1 0,0,0,(1,2)|0-1").unwrap();
        assert!(l.legend);
        assert_eq!(l.vertices[0].name.as_deref(), Some("v_{1}"));
        assert_eq!(l.vertices[1].name.as_deref(), Some("(1,2)"));
        assert!(Mini::parse("no bar").is_none());
    }

    #[test]
    fn panel_titles_are_laid_out_as_wide_as_they_are_printed() {
        let dot = "digraph g {\n  subgraph cluster_p0 {\n    label=\"TER(K_{1,2,2}) (nim-value 2)\";\n    color=gray60; grundytex=\"\\\\mathrm{TER}(K_{1,2,2})\";\n    a;\n  }\n  subgraph cluster_f { label=\"\"; grundytex=\"\"; b; }\n}\n";
        let t = typeset_titles(dot);
        // TER(K1,2,2) prints 11 characters and a command: 12 at 5bp, 9 Helvetica n's.
        assert!(t.contains("    label=\"nnnnnnnnn\";\n"), "{t}");
        assert!(!t.contains("nim-value"));
        // A label without a typeset title (a fibre box), and everything else, stays.
        assert!(t.contains("subgraph cluster_f { label=\"\"; grundytex=\"\"; b; }"));
        assert_eq!(t.replace("nnnnnnnnn", "TER(K_{1,2,2}) (nim-value 2)"), dot);
        // Multiset braces are two printed characters each, not six: 15 at 5bp, 12 n's.
        let m = "  subgraph cluster_p1 {\n    label=\"TER{1,2,2} (nim-value 2)\";\n    grundytex=\"\\\\mathrm{TER}(\\\\{\\\\!\\\\!\\\\{1,2,2\\\\}\\\\!\\\\!\\\\})\";\n";
        assert!(
            typeset_titles(m).contains("label=\"nnnnnnnnnnnn\";"),
            "{}",
            typeset_titles(m)
        );
        assert_eq!(
            line_attr("x; grundytex=\"a\\\\b\\\"c\"; y", "grundytex").as_deref(),
            Some("a\\b\"c")
        );
    }

    #[test]
    fn routes_become_bezier_segments() {
        let s = spline(
            "e,43,75.1 43,110.7 43,102.98 43,93.712 43,85.112",
            (0.0, 0.0),
        );
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].c1, "43,103");
        assert_eq!(s[0].end, "43,85.1");
        assert!(spline("1,2 3,4", (0.0, 0.0)).is_empty());
        // Two splines for one edge: the first one only (the wrong reading mixed their points).
        let two = spline(
            "e,298,371 214,368 241,358 267,358 294,369;e,298,395 214,397 241,408 267,408 294,397",
            (0.0, 0.0),
        );
        assert_eq!(two.len(), 1);
        assert_eq!(two[0].end, "294,369");
    }

    #[test]
    fn a_layout_becomes_a_view() {
        let json: Value = serde_json::from_str(
            r#"{"directed": true, "objects": [
              {"name": "cluster_a", "bb": "8,31,78,178", "lp": "43,166", "grundytex": "G", "nodes": [1, 2]},
              {"_gvid": 1, "name": "a", "pos": "43,129", "width": "0.75", "height": "0.5", "grundytex": "x_1"},
              {"_gvid": 2, "name": "b", "pos": "43,57", "width": "0.75", "height": "0.5", "style": "invis"}],
             "edges": [{"tail": 1, "head": 2, "pos": "e,43,75 43,110 43,102 43,93 43,85", "grundystyle": "grundy double"}]}"#,
        )
        .unwrap();
        let v = view(&json, "x.dot").unwrap();
        assert_eq!(v.nodes.len(), 2);
        assert!(v.nodes[1].coordinate);
        assert_eq!(v.nodes[0].tex.as_deref(), Some("x_1"));
        assert_eq!(v.edges[0].style, "grundy double");
        assert_eq!(v.edges[0].segments.len(), 1);
        assert_eq!(v.clusters[0].label.as_deref(), Some("G"));
        assert_eq!(v.width, "70");
    }

    #[test]
    fn separate_panels_are_stacked_and_joined_ones_are_not() {
        // Two panels: a above b in the left one, c alone in the right one.
        let layout = |edges: &str| -> Value {
            serde_json::from_str(&format!(
                r#"{{"directed": true, "objects": [
                  {{"name": "cluster_l", "bb": "0,0,50,100", "nodes": [2, 3]}},
                  {{"name": "cluster_r", "bb": "60,0,110,100", "nodes": [4]}},
                  {{"_gvid": 2, "name": "a", "pos": "25,80"}},
                  {{"_gvid": 3, "name": "b", "pos": "25,20"}},
                  {{"_gvid": 4, "name": "c\"d", "pos": "85,80"}}],
                 "edges": [{edges}]}}"#
            ))
            .unwrap()
        };
        // From the lowest node of the left panel to the highest of the right one.
        assert_eq!(
            stacking_edges(&layout(r#"{"tail": 2, "head": 3}"#)).as_deref(),
            Some("  \"b\" -> \"c\\\"d\" [style=invis];\n")
        );
        // The wrong variants: an edge between the panels (a map), or one panel only.
        assert_eq!(stacking_edges(&layout(r#"{"tail": 2, "head": 4}"#)), None);
        let one: Value = serde_json::from_str(
            r#"{"directed": true, "objects": [
              {"name": "cluster_l", "bb": "0,0,50,100", "nodes": [1]},
              {"_gvid": 1, "name": "a", "pos": "25,80"}], "edges": []}"#,
        )
        .unwrap();
        assert_eq!(stacking_edges(&one), None);
    }

    #[test]
    fn the_printed_scale_counts_the_page_width_and_height() {
        let json = |w: f64, h: f64| -> Value {
            serde_json::from_str(&format!(
                r#"{{"objects": [
                  {{"_gvid": 0, "name": "a", "pos": "0,0", "width": "0", "height": "0"}},
                  {{"_gvid": 1, "name": "b", "pos": "{w},{h}", "width": "0", "height": "0"}}]}}"#
            ))
            .unwrap()
        };
        let scale = |w, h| printed_scale(&view(&json(w, h), "x.dot").unwrap());
        // 345pt = 343.7bp: a figure that wide prints at its size, twice as wide at half of it.
        assert!((scale(343.0, 100.0) - 1.0).abs() < 1e-9);
        assert!((scale(687.4, 100.0) - 0.5).abs() < 1e-3);
        // A narrow figure taller than 470bp is scaled to that height.
        assert!((scale(100.0, 940.0) - 0.5).abs() < 1e-9);
        // At MAX_NATURAL_WIDTH labels keep 0.8 of their size.
        assert!((scale(MAX_NATURAL_WIDTH, 100.0) - 0.8).abs() < 1e-9);
    }
}
