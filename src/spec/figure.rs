//! `kind: figure` specs (docs/design.md §7): the raw YAML form and its validation into
//! [`crate::check::figure::Figure`]. A gamegraph figure lists `panels` (a game, optionally
//! quotiented, drawn in full, to a `depth`, or along a `play`) and optionally a `map` script
//! from the first panel's game to the second's; a graph figure names a `graph` (or its
//! `edges`) and the `families` to draw, each with the members the paper states.

use super::header::RawHeader;
use super::raw::{RawName, Sp};
use super::{closure_of, outputs, Source, Spec, SpecError};
use crate::check::figure::{Extent, Figure, FigureBody, FigureMap, Panel};
use crate::check::reduction::{QuotientKind, Script};
use crate::graph::{parse_graph, Graph};
use indexmap::IndexMap;
use schemars::JsonSchema;
use serde::Deserialize;

/// One gamegraph panel.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawPanel {
    /// A game expression, e.g. "DNT_{v1}(W_7)".
    pub game: String,
    #[serde(default)]
    pub title: Option<String>,
    /// The panel's label as TeX math in the TikZ figure (default: derived from `game`,
    /// e.g. `\mathrm{DNT}_{v_1}(W_7)`).
    #[serde(default)]
    pub tex: Option<String>,
    /// `automorphisms` or `terminal`.
    #[serde(default)]
    pub quotient: Option<String>,
    /// Vertices selected in order (graph games) or successive positions (other games).
    #[serde(default)]
    pub play: Option<Vec<RawName>>,
    /// Only positions at most this many moves from the start.
    #[serde(default)]
    pub depth: Option<usize>,
    /// Shade the terminal positions.
    #[serde(default)]
    pub shade_terminal: bool,
}

/// `kind: figure`: a gamegraph or graph figure of the paper, computed and checked.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawFigure {
    pub title: String,
    #[serde(default)]
    pub closure: Option<Sp<String>>,
    #[serde(default)]
    pub panels: Option<Sp<Vec<RawPanel>>>,
    /// A rhai script from positions of the first panel's game to the second's (as in
    /// reduction specs); checked option-preserving, surjective and start to start.
    #[serde(default)]
    pub map: Option<Sp<String>>,
    /// A graph name (`Kite`), or the name of the graph given by `edges`.
    #[serde(default)]
    pub graph: Option<Sp<String>>,
    /// Edges `u-x` of a graph given inline (vertices in order of appearance).
    #[serde(default)]
    pub edges: Option<Sp<Vec<String>>>,
    /// Families to draw (`G`, `N`, `G*`, `N*`), each with the members the paper states
    /// (an empty list when the paper states none).
    #[serde(default)]
    pub families: Option<Sp<IndexMap<String, Vec<Vec<RawName>>>>>,
    /// A closure game whose structure diagram is drawn (`DNG(Sym(4))`, `GEN(Cyc(12))`,
    /// `TER(P_4)`): its structure classes, their types and the moves between them.
    #[serde(default)]
    pub structure: Option<Sp<String>>,
    /// `conjugacy`: a structure diagram draws one node per conjugacy class of structure
    /// classes (groups).
    #[serde(default)]
    pub up_to: Option<Sp<String>>,
    /// The number of nodes of the structure diagram the paper draws (a claim, checked).
    #[serde(default)]
    pub classes: Option<usize>,
    /// The nim-value of the structure diagram's game (a claim, checked).
    #[serde(default)]
    pub nim: Option<u32>,
    /// The caption, as LaTeX text (math in `$…$`); default: derived from the title.
    #[serde(default)]
    pub caption: Option<Sp<String>>,
    /// `rows` (graph figures): a row of copies per family, in the order `families` lists
    /// them, each graph drawn left to right.
    #[serde(default)]
    pub layout: Option<Sp<String>>,
    /// The paper's names of the vertices of the panels' graph, in the game language's vertex
    /// order (`[u, v, w]` for P_3's v1, v2, v3 in Example 3.1): one per vertex, distinct, each
    /// a letter followed by letters, digits or primes. Legends and position texts print them;
    /// games, plays and maps keep the game language's names.
    #[serde(default)]
    pub vertex_names: Option<Sp<Vec<RawName>>>,
}

/// Checks `vertex_names` against the panels: names a TeX label and a DOT record can carry,
/// distinct, and one per vertex of every panel's graph (at least one panel is on a graph).
fn vertex_names(
    src: &Source,
    at: &Sp<Vec<RawName>>,
    panels: &[Panel],
    closure: crate::graph::Closure,
) -> Result<Vec<String>, SpecError> {
    let names: Vec<String> = at.value().iter().map(RawName::name).collect();
    for n in &names {
        let mut cs = n.chars();
        let ok = cs.next().is_some_and(|c| c.is_ascii_alphabetic())
            && cs.all(|c| c.is_ascii_alphanumeric() || c == '\'');
        if !ok {
            return Err(src.error(
                at,
                format!("vertex_names: `{n}` is not a vertex name"),
                Some("a letter, then letters, digits or primes (u, v1, x')".into()),
            ));
        }
    }
    // A set, not pairwise comparison: the list is user input (240,000 names took 99 s).
    let mut seen = std::collections::HashSet::new();
    for n in &names {
        if !seen.insert(n) {
            return Err(src.error(at, format!("vertex_names: `{n}` names two vertices"), None));
        }
    }
    let mut on_graph = false;
    for p in panels {
        let Ok(game) = crate::expr::parse_game(&p.game, crate::expr::ParseOptions { closure })
        else {
            continue;
        };
        if let Some(g) = crate::check::figure::panel_graph(&game) {
            on_graph = true;
            if g.n() != names.len() {
                return Err(src.error(
                    at,
                    format!(
                        "vertex_names: {} names for the {} vertices of {} (panel `{}`)",
                        names.len(),
                        g.n(),
                        g.name(),
                        p.game
                    ),
                    Some(format!(
                        "one per vertex, in order: {}",
                        g.names().join(", ")
                    )),
                ));
            }
        }
    }
    if !on_graph {
        return Err(src.error(
            at,
            "vertex_names: no panel is a game on a graph",
            Some("remove `vertex_names`".into()),
        ));
    }
    Ok(names)
}

fn inline_graph(src: &Source, name: &str, at: &Sp<Vec<String>>) -> Result<Graph, SpecError> {
    let mut names: Vec<String> = Vec::new();
    let mut edges = Vec::new();
    for e in at.value() {
        let Some((a, b)) = e.split_once('-') else {
            return Err(src.error(at, format!("edge `{e}` should look like u-x"), None));
        };
        let mut idx = |v: &str| {
            let v = v.trim().to_string();
            match names.iter().position(|x| *x == v) {
                Some(i) => i,
                None => {
                    names.push(v);
                    names.len() - 1
                }
            }
        };
        let (i, j) = (idx(a), idx(b));
        edges.push((i, j));
    }
    Graph::new(name, names, &edges).map_err(|e| src.error(at, e.to_string(), None))
}

pub fn validate_figure(
    src: &Source,
    id: &str,
    h: &RawHeader,
    r: RawFigure,
) -> Result<Spec, SpecError> {
    if let Some(e) = &h.expect {
        return Err(src.error(
            e,
            "a figure is drawn, not expected to fail",
            Some("remove `expect`".into()),
        ));
    }
    let closure = closure_of(src, &r.closure)?;
    super::closure_as_stated(src, h, closure, &r.closure)?;
    if let Some(c) = &r.caption {
        crate::text::texlabel::validate_text(c.value())
            .map_err(|why| src.error(c, format!("caption: {why}"), None))?;
        // An unescaped `%` would comment out the end of the \caption line.
        if c.value()
            .match_indices('%')
            .any(|(k, _)| !c.value()[..k].ends_with('\\'))
        {
            return Err(src.error(c, "caption: write `\\%` for a percent sign", None));
        }
    }
    let structure_only = [r.up_to.is_some(), r.classes.is_some(), r.nim.is_some()];
    if r.structure.is_none() && structure_only.contains(&true) {
        return Err(src.error(
            &h.kind,
            "`up_to`, `classes` and `nim` belong to a structure diagram (`structure:`)",
            None,
        ));
    }
    let mut names = None;
    let body = match (&r.panels, &r.graph, &r.structure) {
        (None, None, Some(s)) => {
            if let Err(m) = crate::check::structure_figure::closure_game(s.value(), closure) {
                return Err(src.error(s, m, None));
            }
            let up_to_conjugacy = match &r.up_to {
                None => false,
                Some(u) if u.value() == "conjugacy" => true,
                Some(u) => {
                    return Err(src.error(
                        u,
                        format!("unknown `up_to: {}`", u.value()),
                        Some("expected `conjugacy`".into()),
                    ))
                }
            };
            FigureBody::Structure(crate::check::structure_figure::StructureFigure {
                game: s.value().clone(),
                up_to_conjugacy,
                classes: r.classes,
                nim: r.nim,
            })
        }
        (Some(ps), None, None) => {
            if ps.value().is_empty() {
                return Err(src.error(ps, "a figure needs at least one panel", None));
            }
            let mut panels = Vec::new();
            for p in ps.value() {
                let quotient = match &p.quotient {
                    None => None,
                    Some(q) => Some(QuotientKind::parse(q).ok_or_else(|| {
                        src.error(
                            ps,
                            format!("unknown quotient `{q}`"),
                            Some("expected `automorphisms` or `terminal`".into()),
                        )
                    })?),
                };
                if let Err(e) =
                    crate::expr::parse_game(&p.game, crate::expr::ParseOptions { closure })
                {
                    return Err(src.error(
                        ps,
                        format!("bad game `{}`: {}", p.game, e.message),
                        None,
                    ));
                }
                let extent = match (&p.play, p.depth) {
                    (Some(moves), None) => Extent::Play(moves.iter().map(RawName::name).collect()),
                    (None, Some(d)) => Extent::Depth(d),
                    (None, None) => Extent::Full,
                    (Some(_), Some(_)) => {
                        return Err(src.error(
                            ps,
                            "a panel has a `play` or a `depth`, not both",
                            None,
                        ))
                    }
                };
                if let Some(t) = &p.tex {
                    crate::text::texlabel::validate(t).map_err(|m| src.error(ps, m, None))?;
                }
                panels.push(Panel {
                    tex: p.tex.clone(),
                    title: p.title.clone().unwrap_or_else(|| p.game.clone()),
                    game: p.game.clone(),
                    quotient,
                    extent,
                    shade_terminal: p.shade_terminal,
                });
            }
            let map = match &r.map {
                None => None,
                Some(m) => {
                    if panels.len() < 2 {
                        return Err(src.error(
                            m,
                            "a `map` draws its image as the second panel",
                            None,
                        ));
                    }
                    let script = Script::compile(m.value()).map_err(|(msg, off)| {
                        src.error_inside(m, off, format!("bad map script: {msg}"))
                    })?;
                    Some(FigureMap {
                        script,
                        loc: src.loc(m),
                    })
                }
            };
            if let Some(v) = &r.vertex_names {
                names = Some(vertex_names(src, v, &panels, closure)?);
            }
            FigureBody::Games { panels, map }
        }
        (None, Some(g), None) => {
            let graph = match &r.edges {
                Some(e) => inline_graph(src, g.value(), e)?,
                None => parse_graph(g.value())
                    .map_err(|e| src.error(g, format!("bad graph `{}`: {e}", g.value()), None))?,
            };
            let fams = r.families.as_ref().ok_or_else(|| {
                src.error(
                    g,
                    "a graph figure lists the `families` to draw",
                    Some("e.g. families: {G: [[x, w]]}".into()),
                )
            })?;
            let mut families = Vec::new();
            for (k, v) in fams.value() {
                if !matches!(k.as_str(), "G" | "N" | "G*" | "N*") {
                    return Err(src.error(
                        fams,
                        format!("unknown family `{k}`"),
                        Some("expected G, N, G* or N*".into()),
                    ));
                }
                for name in v.iter().flatten() {
                    if graph.vertex_index(&name.name()).is_none() {
                        return Err(src.error(
                            fams,
                            format!("`{}` is not a vertex of {}", name.name(), graph.name()),
                            Some(format!("vertices: {}", graph.names().join(", "))),
                        ));
                    }
                }
                families.push((
                    k.clone(),
                    v.iter()
                        .map(|s| s.iter().map(RawName::name).collect())
                        .collect(),
                ));
            }
            let rows = match &r.layout {
                None => false,
                Some(l) if l.value() == "rows" => true,
                Some(l) => {
                    return Err(src.error(
                        l,
                        format!("unknown layout `{}`", l.value()),
                        Some("expected `rows` (a row of copies per family)".into()),
                    ))
                }
            };
            FigureBody::Graph {
                graph,
                families,
                rows,
            }
        }
        _ => {
            return Err(src.error(
                &h.kind,
                "a figure has `panels` (gamegraphs), a `graph` or a `structure` (a structure diagram), one of them",
                None,
            ))
        }
    };
    if let (Some(v), None) = (&r.vertex_names, &names) {
        return Err(src.error(
            v,
            "`vertex_names` renames the vertices of the panels' graph: a graph figure names its vertices in `edges`",
            None,
        ));
    }
    if let (Some(l), false) = (&r.layout, matches!(body, FigureBody::Graph { .. })) {
        return Err(src.error(
            l,
            "`layout` applies to graph figures (`graph` and `families`) only",
            None,
        ));
    }
    let figure = Figure {
        id: id.to_string(),
        file: src.file.to_string(),
        source: h.source.value().clone(),
        title: r.title.clone(),
        notes: h.notes.clone(),
        caption: r.caption.as_ref().map(|c| c.value().clone()),
        loc: src.loc(&h.kind),
        body,
        vertex_names: names,
    };
    Ok(Spec::new(
        crate::check::figure::FigureSpec { figure, closure },
        outputs(src, &h.output)?,
    ))
}
