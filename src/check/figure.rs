//! `kind: figure` (docs/design.md §7): the paper's gamegraph figures and graph figures, computed
//! and checked, as serialisable views for `templates/gamegraph.dot` and `templates/graph.dot`.
//!
//! A gamegraph panel is the full (or automorphism / terminal quotient) gamegraph of a game
//! instance, or one play in it, or its first few moves; every node carries its nim-value, its
//! rank (moves made) and a miniature of the position: the graph's vertices on a small grid
//! (● selected, ○ not), or the position's text (pins `|.||`, multisets, partitions).
//! A second panel may be the image of the first under a spec-defined map (Figs 5.1, 5.2, 5.7):
//! the map is checked option-preserving on the drawn instance by the reduction checker, and
//! its fibres are boxed together. A panel `*k : G` checks Prop 5.26 on every position:
//! nim(*j, q) = j for j < k and nim(*k, q) = k + nim(q).
//! Graph figures draw a graph once per member of its families 𝒢, 𝒢*, 𝒩, 𝒩* (Figs 2.1, 4.1,
//! 4.2) with the member's vertices marked, and check claimed members against the computed ones.

use super::reduction::{Claims, Explicit, MapKind, QuotientKind, Reduction, Script, Side};
use super::{CheckError, Counterexample, Expectation, Loc, Report, Verdict};
use crate::expr::{parse_game, ParseOptions};
use crate::game::{AnyGame, AnyPos, Game};
use crate::graph::{bits, Closure, Convexity, Graph};
use crate::solve::Solver;
use serde::Serialize;
use std::collections::BTreeMap;
use std::time::Instant;

/// How much of a game a panel draws.
#[derive(Clone, Debug)]
pub enum Extent {
    Full,
    /// Positions at most this many moves from the start.
    Depth(usize),
    /// One play: vertices selected in order (graph games) or successive positions (others).
    Play(Vec<String>),
}

#[derive(Clone, Debug)]
pub struct Panel {
    pub title: String,
    /// The panel's label as TeX math (`tex:` in the spec), if given.
    pub tex: Option<String>,
    pub game: String,
    pub quotient: Option<QuotientKind>,
    pub extent: Extent,
    pub shade_terminal: bool,
}

/// A map from the first panel's game to the second's (the second panel's game is its target).
#[derive(Clone, Debug)]
pub struct FigureMap {
    pub script: Script,
    pub loc: Loc,
}

#[derive(Clone, Debug)]
pub enum FigureBody {
    Games {
        panels: Vec<Panel>,
        map: Option<FigureMap>,
    },
    Graph {
        graph: Graph,
        /// Families to draw, each with the members the paper states (empty: not stated).
        families: Vec<(String, Vec<Vec<String>>)>,
        /// `layout: rows`: a row of copies per family, each graph drawn left to right.
        rows: bool,
    },
    /// The structure diagram of a closure game (see [`super::structure_figure`]).
    Structure(super::structure_figure::StructureFigure),
}

#[derive(Clone, Debug)]
pub struct Figure {
    pub id: String,
    pub file: String,
    pub source: String,
    pub title: String,
    pub notes: Option<String>,
    /// A caption in LaTeX (checked when read), else the gallery captions from the title.
    pub caption: Option<String>,
    pub loc: Loc,
    pub body: FigureBody,
    /// The paper's names of the vertices of the panels' graph, in vertex order (`vertex_names:
    /// [u, v, w]` for the paper's P_3 of Example 3.1, whose game-language names are v1, v2,
    /// v3): the legends, miniature names and position texts print these. The games, plays and
    /// maps keep the game language's names. Validated when read (one per vertex, distinct).
    pub vertex_names: Option<Vec<String>>,
}

#[derive(Clone, Debug, Serialize)]
pub struct NodeView {
    pub id: String,
    /// The position as text (also the tooltip).
    pub text: String,
    /// Miniature: rows of cells (`●`, `○`, or empty), or one row with the text.
    pub grid: Vec<Vec<String>>,
    pub cols: usize,
    pub nim: u32,
    pub rank: usize,
    pub start: bool,
    pub terminal: bool,
    pub shaded: bool,
    /// `box` for the squares of Fig 5.4 (base at its start), `ellipse` otherwise.
    pub shape: String,
    /// The position in the game language, unescaped (for TeX labels): the whole position when
    /// there is no miniature, the nimber of `*k : G` above its miniature, empty otherwise.
    pub label: String,
    /// The position drawn as its graph (see [`miniature`]), for graph games.
    pub mini: Option<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct EdgeView {
    pub from: String,
    pub to: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct ClusterView {
    pub id: String,
    pub label: String,
    /// The label unescaped, in the game language (for TeX).
    pub label_raw: String,
    pub nodes: Vec<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct PanelView {
    pub id: String,
    pub title: String,
    pub game: String,
    pub nim: u32,
    pub nodes: Vec<NodeView>,
    pub edges: Vec<EdgeView>,
    pub clusters: Vec<ClusterView>,
    /// Node ids per rank (moves made), rank 0 first.
    pub ranks: Vec<Vec<String>>,
    /// Where each vertex sits in the miniatures (vertex names on the grid), if any.
    pub legend: Option<Vec<Vec<String>>>,
    /// The game unescaped, in the game language (for TeX).
    pub game_raw: String,
    /// The spec's `tex:` label of the panel, if any.
    pub tex: Option<String>,
    /// The legend as a miniature with the vertex names (see [`miniature`]).
    pub legend_mini: Option<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct GraphCopyView {
    pub id: String,
    /// The family the copy draws a member of (`G`, `N*`, …): a figure of many copies sets
    /// each family in a row of its own, in the order the spec lists them.
    pub family: String,
    pub label: String,
    /// The label unescaped, in the game language (`𝒢 ∋ {x, w}`, for TeX).
    pub label_raw: String,
    pub marked: Vec<String>,
    /// Graphviz's pinned `pos` of each vertex, in vertex order (unless `rows`).
    pub at: Vec<String>,
    /// Where the panel's invisible title node is pinned (unless `rows`).
    pub title_at: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct VertexView {
    pub id: String,
    pub name: String,
    /// The vertex name unescaped (for TeX).
    pub name_raw: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct GraphFigureView {
    pub vertices: Vec<VertexView>,
    pub edges: Vec<EdgeView>,
    pub copies: Vec<GraphCopyView>,
    /// A row of copies per family, each graph drawn left to right (`layout: rows`).
    pub rows: bool,
}

#[derive(Clone, Debug, Serialize)]
pub struct FigureView {
    pub title: String,
    pub source: String,
    pub panels: Vec<PanelView>,
    /// Dashed arrows from a play's positions to their images.
    pub map_edges: Vec<EdgeView>,
    /// A play and its image under a map (Figs 5.1, 5.7): drawn left to right as in the paper,
    /// the play above its image.
    pub plays: bool,
    pub graph: Option<GraphFigureView>,
    /// The structure diagram, for `structure:` figures.
    pub structure: Option<super::structure_figure::StructureView>,
    /// The spec's `caption:` (LaTeX), which the gallery prints instead of the title.
    pub caption: Option<String>,
}

fn html(s: &str) -> String {
    crate::text::escape::dot_html_escape(s)
}

/// Most pairs of a figure's map kept for its certificate (a drawn game is far smaller).
const MAX_MAP_PAIRS: usize = 100_000;

/// What a gamegraph figure's certificate lists (issue 43, figures): per panel its game, each
/// drawn node with the position it shows (a class's first member in a quotient) and its
/// nim-value, and the arrows; the map's pairs on every position of the first panel's game,
/// the dashed arrows from a play to its image, and the boxed fibres with their image's node.
pub struct CertifiedFigure {
    pub panels: Vec<CertifiedPanel>,
    pub map: Option<super::reduction::MapPairs>,
    pub map_edges: Vec<(String, String)>,
    pub fibres: Vec<(Vec<String>, String)>,
    /// A graph figure's copies: the cluster id, the family and the member's vertex names.
    pub copies: Vec<(String, String, Vec<String>)>,
}

#[derive(Clone, Debug)]
pub struct CertifiedPanel {
    pub game: AnyGame,
    pub nodes: Vec<(String, AnyPos, u32)>,
    pub arrows: Vec<(String, String)>,
}

impl CertifiedPanel {
    fn of(b: &Built) -> CertifiedPanel {
        let nim: BTreeMap<&str, u32> = b
            .view
            .nodes
            .iter()
            .map(|n| (n.id.as_str(), n.nim))
            .collect();
        CertifiedPanel {
            game: b.ex.game.clone(),
            nodes: b
                .node_of_class
                .iter()
                .map(|(&c, id)| {
                    (
                        id.clone(),
                        b.ex.positions[b.ex.members[c][0]].clone(),
                        nim[id.as_str()],
                    )
                })
                .collect(),
            arrows: b
                .view
                .edges
                .iter()
                .map(|e| (e.from.clone(), e.to.clone()))
                .collect(),
        }
    }
}

/// Grid cells of the vertices of a named graph: rims (of cycles and wheels) clockwise on the
/// border of a square from the top, centres inside; parts of K_{..} as columns; paths and
/// other graphs in one row.
pub fn vertex_grid(g: &Graph) -> Vec<(usize, usize)> {
    let name = g.name();
    let n = g.n();
    // Rim vertex t at angle 90° − 360°·t/r on a circle of radius R (clockwise from the top),
    // centres on the middle row; R is the least radius without collisions.
    let rim_layout = |rim: &[usize], inner: &[usize]| -> Option<Vec<(usize, usize)>> {
        let r = rim.len() as f64;
        for radius in 1..=8usize {
            let rf = radius as f64;
            let mut cell = vec![(0usize, 0usize); n];
            let mut used = std::collections::BTreeSet::new();
            let mut ok = true;
            for (t, &v) in rim.iter().enumerate() {
                let th = std::f64::consts::FRAC_PI_2 - std::f64::consts::TAU * t as f64 / r;
                let row = (rf - (rf * th.sin()).round()) as usize;
                let col = (rf + (rf * th.cos()).round()) as usize;
                ok &= used.insert((row, col));
                cell[v] = (row, col);
            }
            let m = inner.len();
            for (t, &v) in inner.iter().enumerate() {
                let col = radius as i64 + 2 * t as i64 - (m as i64 - 1);
                if col < 0 || col > 2 * radius as i64 {
                    ok = false;
                    break;
                }
                let c = (radius, col as usize);
                ok &= used.insert(c);
                cell[v] = c;
            }
            if ok {
                return Some(cell);
            }
        }
        None
    };
    if name.starts_with("W_{") || name.starts_with("W_") || name.starts_with("C_") {
        let rim: Vec<usize> = (0..n)
            .filter(|&v| g.vertex_name(v).starts_with('v'))
            .collect();
        let inner: Vec<usize> = (0..n)
            .filter(|&v| g.vertex_name(v).starts_with('c'))
            .collect();
        if rim.len() >= 3 && rim.len() + inner.len() == n {
            if let Some(cells) = rim_layout(&rim, &inner) {
                return cells;
            }
        }
    }
    if name.starts_with("K_{") {
        let mut cell = vec![(0, 0); n];
        let mut col: BTreeMap<char, usize> = BTreeMap::new();
        for (v, c) in cell.iter_mut().enumerate() {
            let nm = g.vertex_name(v);
            let letter = nm.chars().next().unwrap_or('a');
            let k = col.len();
            let column = *col.entry(letter).or_insert(k);
            let row: usize = nm[letter.len_utf8()..].parse::<usize>().unwrap_or(1) - 1;
            *c = (row, column);
        }
        return cell;
    }
    (0..n).map(|v| (0, v)).collect()
}

/// Where a named graph's vertices sit in its usual drawing, in unit coordinates (y up): rims
/// of cycles and wheels clockwise from the top around their centres (several centres of
/// W_{m,n} on a small inner circle, turned half a rim step so that none is on a line of rim
/// vertex and centre), paths in a row, complete multipartite graphs by parts in
/// columns, stacked prisms SP_{m,n} as concentric rings (a cylinder seen from its axis),
/// generalized Petersen graphs GP_{n,k} and the Petersen graph as an outer and an inner ring,
/// and any other graph by stress majorization ([`crate::graph::drawing`]).
pub fn mini_coords(g: &Graph) -> Vec<(f64, f64)> {
    let n = g.n();
    let name = g.name();
    let circle = |k: usize, r: usize, radius: f64| {
        let th = std::f64::consts::FRAC_PI_2 - std::f64::consts::TAU * k as f64 / r.max(1) as f64;
        (radius * th.cos(), radius * th.sin())
    };
    let names: Vec<&str> = (0..n).map(|v| g.vertex_name(v)).collect();
    let rim: Vec<usize> = (0..n).filter(|&v| names[v].starts_with('v')).collect();
    let inner: Vec<usize> = (0..n).filter(|&v| names[v].starts_with('c')).collect();
    let mut at = vec![(0.0, 0.0); n];
    if (name.starts_with("W_") || name.starts_with("C_"))
        && rim.len() >= 3
        && rim.len() + inner.len() == n
    {
        for (k, &v) in rim.iter().enumerate() {
            at[v] = circle(k, rim.len(), 1.0);
        }
        // Several centres sit on a small circle, turned and sized so that no edge passes
        // nearer a vertex it does not join than it must (the clearance, searched over a
        // sixteenth of a rim step and four radii): at the rim's angles, two centres of
        // W_{2,4} lay on the line v1–v3, and the edges v1c2 and c1v3 passed through the other
        // centre (issue 46).
        if inner.len() == 1 {
            at[inner[0]] = (0.0, 0.0);
        } else if inner.len() > 1 {
            let step = std::f64::consts::TAU / rim.len() as f64;
            let mut best = (f64::MIN, at.clone());
            for radius in [0.35, 0.45, 0.55, 0.65] {
                for k in 0..16 {
                    let turn = step * k as f64 / 16.0;
                    let (s, c) = turn.sin_cos();
                    let mut trial = at.clone();
                    for (j, &v) in inner.iter().enumerate() {
                        let (x, y) = circle(j, inner.len(), radius);
                        trial[v] = (x * c + y * s, -x * s + y * c);
                    }
                    let cl = clearance(g, &trial);
                    if cl > best.0 + 1e-9 {
                        best = (cl, trial);
                    }
                }
            }
            at = best.1;
        }
        return at;
    }
    if name.starts_with("P_") && rim.len() == n {
        let w = (n.max(2) - 1) as f64;
        for (k, &v) in rim.iter().enumerate() {
            at[v] = (-1.0 + 2.0 * k as f64 / w, 0.0);
        }
        return at;
    }
    if name.starts_with("K_{") && name.contains(',') {
        let cells = vertex_grid(g);
        let cols = cells.iter().map(|c| c.1).max().unwrap_or(0) + 1;
        let rows = cells.iter().map(|c| c.0).max().unwrap_or(0) + 1;
        let mut height = vec![0usize; cols];
        for c in &cells {
            height[c.1] = height[c.1].max(c.0 + 1);
        }
        let sx = 2.0 / (cols.max(2) - 1) as f64;
        let sy = 2.0 / (rows.max(2) - 1) as f64;
        for (v, &(r, c)) in cells.iter().enumerate() {
            let off = (height[c] as f64 - 1.0) / 2.0;
            at[v] = (-1.0 + sx * c as f64, (off - r as f64) * sy);
        }
        // Three parts or more in columns can put a vertex on an edge between the outer
        // columns (K_{2,2,2}): then the parts go round a circle, a slot left between parts
        // (vertices in convex position: no vertex on a chord, no two chords along one line).
        if cols >= 3 && clearance(g, &at) < MINI_CLEARANCE {
            let slots = n + cols;
            let mut slot = 0;
            for c in 0..cols {
                for (v, cell) in cells.iter().enumerate() {
                    if cell.1 == c {
                        at[v] = circle(slot, slots, 1.0);
                        slot += 1;
                    }
                }
                slot += 1;
            }
        }
        return at;
    }
    if name.starts_with("SP_") {
        let idx: Vec<Option<(usize, usize)>> = names
            .iter()
            .map(|s| {
                let (i, j) = s.trim_matches(['(', ')']).split_once(',')?;
                Some((i.trim().parse().ok()?, j.trim().parse().ok()?))
            })
            .collect();
        if idx.iter().all(Option::is_some) {
            let m = idx.iter().flatten().map(|p| p.0).max().unwrap_or(1);
            let rings = idx.iter().flatten().map(|p| p.1).max().unwrap_or(1);
            for (v, p) in idx.iter().enumerate() {
                let (i, j) = p.unwrap_or((1, 1));
                let radius = 1.0 - 0.6 * (j as f64 - 1.0) / (rings.max(2) - 1) as f64;
                at[v] = circle(i.saturating_sub(1), m, radius);
            }
            return at;
        }
    }
    // Generalized Petersen graphs (and the Petersen graph, GP_{5,2} with its names): the
    // outer cycle u0..u(n-1) on the unit circle, the inner vertices v0..v(n-1) on a circle
    // of half its radius, each under its u (the textbook drawing: the pentagram inside) —
    // unless an inner edge passes too near an inner vertex (GP_{10,2}: v1 beside v0 v2), when
    // stress majorization draws it.
    if (name.starts_with("GP_") || name == "Petersen")
        && n.is_multiple_of(2)
        && (0..n).all(|v| {
            let (head, i) = if v < n / 2 {
                ('u', v)
            } else {
                ('v', v - n / 2)
            };
            names[v].strip_prefix(head) == Some(&i.to_string())
        })
    {
        for (v, p) in at.iter_mut().enumerate() {
            *p = if v < n / 2 {
                circle(v, n / 2, 1.0)
            } else {
                circle(v - n / 2, n / 2, 0.5)
            };
        }
        if clearance(g, &at) >= MINI_CLEARANCE {
            return at;
        }
    }
    // Any other graph: by stress majorization (src/graph/drawing.rs), at most 1 from the
    // centre like the rims above.
    let at = crate::graph::drawing::stress_layout(g);
    let r = at
        .iter()
        .map(|p| p.0.hypot(p.1))
        .fold(0.0, f64::max)
        .max(1e-9);
    at.iter().map(|&(x, y)| (x / r, y / r)).collect()
}

/// The least distance, in a drawing's units, from a vertex to an edge it is not an end of
/// (`f64::MAX` without such a pair): a miniature's vertex is 2.8pt across at 1.4 units = 8.4pt,
/// so below [`MINI_CLEARANCE`] an edge reads as passing through it (tests/figures.rs checks
/// every miniature drawn).
pub fn clearance(g: &Graph, at: &[(f64, f64)]) -> f64 {
    let mut least = f64::MAX;
    for (a, b) in g.edges() {
        let (p, q) = (at[a], at[b]);
        let (dx, dy) = (q.0 - p.0, q.1 - p.1);
        let len2 = dx * dx + dy * dy;
        for (v, &r) in at.iter().enumerate() {
            if v == a || v == b {
                continue;
            }
            let t = if len2 == 0.0 {
                0.0
            } else {
                (((r.0 - p.0) * dx + (r.1 - p.1) * dy) / len2).clamp(0.0, 1.0)
            };
            least = least.min((r.0 - p.0 - t * dx).hypot(r.1 - p.1 - t * dy));
        }
    }
    least
}

/// The clearance a miniature needs, in [`mini_coords`]' units: its vertex radius, half an
/// edge's width and half a point of air, (1.4 + 0.2 + 0.5)pt at 6pt per 1.4 units.
pub const MINI_CLEARANCE: f64 = (1.4 + 0.2 + 0.5) / 6.0 / 1.4;

/// An edge's length in a graph figure (bp): three vertex widths, room for the edge to be seen.
const FIGURE_EDGE: f64 = 40.0;

/// Graphviz's `pos` (bp, pinned) of every vertex in every copy of a graph figure: the graph
/// drawn as [`mini_coords`] draws it, scaled so that its shortest edge is [`FIGURE_EDGE`]
/// long, one copy per panel from left to right (the TikZ figure puts them in rows of
/// `grundywrap`); and where each panel's invisible title node goes, above the drawing, so the
/// panel's box leaves its title a band of its own.
fn pinned_copies(g: &Graph, copies: usize) -> (Vec<Vec<String>>, Vec<String>) {
    let at = mini_coords(g);
    let shortest = g
        .edges()
        .iter()
        .map(|&(a, b)| (at[a].0 - at[b].0).hypot(at[a].1 - at[b].1))
        .fold(f64::MAX, f64::min);
    let k = if shortest.is_finite() && shortest > 1e-9 {
        FIGURE_EDGE / shortest
    } else {
        FIGURE_EDGE
    };
    let at: Vec<(f64, f64)> = at.iter().map(|&(x, y)| (x * k, y * k)).collect();
    let (x0, x1) = at
        .iter()
        .fold((f64::MAX, f64::MIN), |(l, h), p| (l.min(p.0), h.max(p.0)));
    let y1 = at.iter().map(|p| p.1).fold(f64::MIN, f64::max);
    // A vertex is 0.3in (21.6bp) across; panels 30bp apart.
    let w = (x1 - x0).max(0.0) + 40.0;
    let mut pos = Vec::new();
    let mut titles = Vec::new();
    for c in 0..copies {
        let (dx, dy) = (c as f64 * (w + 30.0) - x0, -y1);
        pos.push(
            at.iter()
                .map(|&(x, y)| format!("{:.2},{:.2}!", x + dx, y + dy))
                .collect(),
        );
        // The title (13bp high) sits under the box's top, clear of the top vertices.
        titles.push(format!(
            "{:.2},{:.2}!",
            (x0 + x1) / 2.0 + dx,
            y1 + dy + 36.0
        ));
    }
    (pos, titles)
}

/// The legend of the miniatures: the graph in the same drawing with its vertex names (`names`,
/// the paper's, else the graph's own), as [`miniature`] writes it with a fourth field per
/// vertex (the name). The drawing is always [`mini_coords`] of `g`: renaming the vertices
/// must not move them.
pub fn legend_miniature(g: &Graph, names: Option<&[String]>) -> String {
    let at = mini_coords(g);
    let vs: Vec<String> = at
        .iter()
        .enumerate()
        .map(|(v, (x, y))| {
            let name = names.map_or(g.vertex_name(v), |n| n[v].as_str());
            format!("{:.2},{:.2},0,{name}", x * 1.4, y * 1.4)
        })
        .collect();
    let es: Vec<String> = g
        .edges()
        .into_iter()
        .map(|(a, b)| format!("{a}-{b}"))
        .collect();
    format!("{}|{}", vs.join(" "), es.join(" "))
}

/// A miniature of a graph position for the TikZ figures: `x,y,s …|a-b …` (the coordinates of
/// [`mini_coords`] scaled to about 1.4 units across, s = 1 for the vertices in `set`, then
/// the graph's edges), parsed by `render::tikz::Mini`.
pub fn miniature(g: &Graph, set: u64) -> String {
    let at = mini_coords(g);
    let vs: Vec<String> = at
        .iter()
        .enumerate()
        .map(|(v, (x, y))| format!("{:.2},{:.2},{}", x * 1.4, y * 1.4, set >> v & 1))
        .collect();
    let es: Vec<String> = g
        .edges()
        .into_iter()
        .map(|(a, b)| format!("{a}-{b}"))
        .collect();
    format!("{}|{}", vs.join(" "), es.join(" "))
}

/// The graph a panel's game is played on (a removing game, or the top of `*k : G`), whose
/// vertices `vertex_names` renames.
pub fn panel_graph(game: &AnyGame) -> Option<&Graph> {
    match game {
        AnyGame::Removing(g) => Some(g.graph()),
        AnyGame::Ordinal(_, h) => panel_graph(h),
        _ => None,
    }
}

/// A position's text as the paper writes it, where [`AnyGame::label`] writes the game
/// language's: the vertices under the paper's names (`{u, w}`), a multiset in the paper's
/// double braces (`⦃1,2,2⦄`, typeset `\{\!\!\{1,2,2\}\!\!\}` as in Fig 5.1 and its caption),
/// in sums and ordinal sums too.
fn shown(game: &AnyGame, p: &AnyPos, names: Option<&[String]>) -> String {
    match (game, p, names) {
        (AnyGame::Removing(_), AnyPos::Set(s), Some(n)) => {
            let parts: Vec<&str> = bits(*s).map(|v| n[v].as_str()).collect();
            format!("{{{}}}", parts.join(", "))
        }
        (AnyGame::Multiset(_), AnyPos::Multiset(u), _) => {
            let parts: Vec<String> = u.iter().map(u32::to_string).collect();
            format!("⦃{}⦄", parts.join(","))
        }
        (AnyGame::Ordinal(g, h), AnyPos::Ordinal(a, b), _) => {
            format!("({}, {})", shown(g, a, names), shown(h, b, names))
        }
        (AnyGame::Sum(parts), AnyPos::Sum(ps), _) => parts
            .iter()
            .zip(ps)
            .map(|(g, q)| shown(g, q, names))
            .collect::<Vec<_>>()
            .join(" + "),
        _ => game.label(p),
    }
}

/// A class of a drawn gamegraph as the paper writes it: its position ([`shown`]), in brackets
/// for an orbit of automorphisms, or the terminal class.
fn shown_class(ex: &Explicit, class: usize, names: Option<&[String]>) -> String {
    match (&ex.classes[class], ex.quotient) {
        (super::reduction::Class::Pos(q), Some(QuotientKind::Automorphisms)) => {
            format!("[{}]", shown(&ex.game, q, names))
        }
        (super::reduction::Class::Pos(q), _) => shown(&ex.game, q, names),
        _ => ex.class_label(class),
    }
}

fn grid_rows(cells: &[(usize, usize)], fill: impl Fn(usize) -> String) -> Vec<Vec<String>> {
    let rows = cells.iter().map(|c| c.0).max().unwrap_or(0) + 1;
    let cols = cells.iter().map(|c| c.1).max().unwrap_or(0) + 1;
    let mut g = vec![vec![String::new(); cols]; rows];
    for (v, &(r, c)) in cells.iter().enumerate() {
        g[r][c] = fill(v);
    }
    g
}

/// Most positions one panel draws (the paper's largest figure draws 30).
pub const MAX_DRAWN_POSITIONS: usize = 2_000;
/// Most moves one panel draws.
pub const MAX_DRAWN_ARROWS: usize = 20_000;

/// The positions a panel draws, with their ranks, as indices into `ex.positions`. A play's
/// vertices may be named as the game names them or by the figure's `vertex_names`.
fn drawn(
    ex: &Explicit,
    extent: &Extent,
    game: &AnyGame,
    names: Option<&[String]>,
) -> Result<Vec<(usize, usize)>, String> {
    match extent {
        Extent::Full | Extent::Depth(_) => {
            let limit = match extent {
                Extent::Depth(d) => *d,
                _ => usize::MAX,
            };
            // Rank = moves made along the longest play from the start (all plays to a position
            // of a removing game have the same length; in other games edges still go down).
            let np = ex.positions.len();
            let mut indeg = vec![0usize; np];
            let mut seen = vec![false; np];
            let mut stack = vec![0usize];
            seen[0] = true;
            while let Some(p) = stack.pop() {
                for &o in &ex.options[p] {
                    indeg[o] += 1;
                    if !seen[o] {
                        seen[o] = true;
                        stack.push(o);
                    }
                }
            }
            let mut rank = vec![0usize; np];
            let mut order = vec![0usize];
            let mut i = 0;
            while i < order.len() {
                let p = order[i];
                for &o in &ex.options[p] {
                    rank[o] = rank[o].max(rank[p] + 1);
                    indeg[o] -= 1;
                    if indeg[o] == 0 {
                        order.push(o);
                    }
                }
                i += 1;
            }
            Ok(order
                .into_iter()
                .filter(|&p| rank[p] <= limit)
                .map(|p| (p, rank[p]))
                .collect())
        }
        Extent::Play(moves) => {
            let mut cur = 0usize;
            let mut out = vec![(0usize, 0usize)];
            for (k, m) in moves.iter().enumerate() {
                let next = match (game, &ex.positions[cur]) {
                    (AnyGame::Removing(g), AnyPos::Set(s)) => {
                        let by_paper = || names.and_then(|n| n.iter().position(|x| x == m.trim()));
                        let v = g
                            .graph()
                            .vertex_index(m.trim())
                            .or_else(by_paper)
                            .ok_or_else(|| {
                                format!(
                                    "move {}: `{m}` is not a vertex of {}",
                                    k + 1,
                                    g.graph().name()
                                )
                            })?;
                        AnyPos::Set(s | 1 << v)
                    }
                    _ => game.parse_pos(m)?,
                };
                let j = ex.options[cur]
                    .iter()
                    .copied()
                    .find(|&o| ex.positions[o] == next)
                    .ok_or_else(|| {
                        format!(
                            "move {}: {} is not an option of {}",
                            k + 1,
                            game.label(&next),
                            game.label(&ex.positions[cur])
                        )
                    })?;
                cur = j;
                out.push((j, k + 1));
            }
            Ok(out)
        }
    }
}

struct Built {
    view: PanelView,
    /// Node id of each drawn class.
    node_of_class: BTreeMap<usize, String>,
    /// Drawn positions in play order (for plays) or drawing order.
    positions: Vec<usize>,
    ex: Explicit,
}

#[allow(clippy::too_many_arguments)]
fn node_view(
    ex: &Explicit,
    game: &AnyGame,
    pos: usize,
    id: String,
    rank: usize,
    nim: u32,
    shade: bool,
    names: Option<&[String]>,
) -> NodeView {
    let class = ex.class_of[pos];
    let p = &ex.positions[ex.members[class][0]];
    let terminal = ex.class_options[class].is_empty();
    let text = shown_class(ex, class, names);
    let mut label = text.clone();
    let mut mini = None;
    let (grid, cols) = match (game, p) {
        (AnyGame::Removing(g), AnyPos::Set(s))
            if ex.classes[class] != super::reduction::Class::Terminal =>
        {
            let cells = vertex_grid(g.graph());
            let rows = grid_rows(&cells, |v| {
                if s >> v & 1 == 1 {
                    "●".into()
                } else {
                    "○".into()
                }
            });
            let cols = rows[0].len();
            label.clear();
            mini = Some(miniature(g.graph(), *s));
            (rows, cols)
        }
        // `*k : G` drawn as the nimber's position above a miniature of G's position.
        (AnyGame::Ordinal(a, h), AnyPos::Ordinal(x, y))
            if ex.classes[class] != super::reduction::Class::Terminal =>
        {
            match (&**h, &**y) {
                (AnyGame::Removing(g), AnyPos::Set(s)) => {
                    let cells = vertex_grid(g.graph());
                    let mut rows = vec![vec![html(&a.label(x))]];
                    rows.extend(grid_rows(&cells, |v| {
                        if s >> v & 1 == 1 {
                            "●".into()
                        } else {
                            "○".into()
                        }
                    }));
                    let cols = rows[1].len();
                    label = a.label(x);
                    mini = Some(miniature(g.graph(), *s));
                    (rows, cols)
                }
                _ => (vec![vec![html(&text)]], 1),
            }
        }
        _ => (vec![vec![html(&text)]], 1),
    };
    let shape = match (game, p) {
        (AnyGame::Ordinal(a, _), AnyPos::Ordinal(x, _)) if **x == a.start() => "box",
        _ => "ellipse",
    };
    NodeView {
        id,
        text: html(&text),
        grid,
        cols,
        nim,
        rank,
        start: pos == 0,
        terminal,
        shaded: shade && terminal,
        shape: shape.into(),
        label,
        mini,
    }
}

fn build_panel(
    idx: usize,
    panel: &Panel,
    closure: Closure,
    roots: Option<&[AnyPos]>,
    vertex_names: Option<&[String]>,
) -> Result<Built, String> {
    let game = parse_game(&panel.game, ParseOptions { closure })
        .map_err(|e| format!("game `{}`: {}", panel.game, e.message))?;
    let mut rts = vec![game.start()];
    if let Some(r) = roots {
        rts.extend(r.iter().cloned());
    }
    let ex = Explicit::build(panel.game.clone(), game.clone(), panel.quotient, &rts)?;
    let nims = ex.class_nims();
    let mut solver = Solver::new(&game);
    // The paper's names apply to the panels on a graph with as many vertices (checked when
    // the spec is read); a panel on another game keeps its own.
    let names = vertex_names.filter(|n| panel_graph(&game).is_some_and(|g| g.n() == n.len()));
    let picked = drawn(&ex, &panel.extent, &game, names)?;
    // A drawing's budget (issue 49 R7): Graphviz, the TikZ and SVG files and the reader all
    // give out long before the explicit gamegraph's million positions (a TER(C_16) panel,
    // 65,535 positions, ran out of memory under 1.5 GB; TER(P_14) took 45 s in `dot`).
    let arrows: usize = {
        let mut keep = vec![false; ex.positions.len()];
        for &(p, _) in &picked {
            keep[p] = true;
        }
        picked
            .iter()
            .map(|&(p, _)| ex.options[p].iter().filter(|&&o| keep[o]).count())
            .sum()
    };
    if picked.len() > MAX_DRAWN_POSITIONS || arrows > MAX_DRAWN_ARROWS {
        return Err(format!(
            "the panel would draw {} positions and {arrows} moves; a figure draws at most \
             {MAX_DRAWN_POSITIONS} positions and {MAX_DRAWN_ARROWS} moves (draw a smaller game, \
             or a play or `depth:` of this one)",
            picked.len()
        ));
    }
    let mut nodes = Vec::new();
    let mut node_of_class: BTreeMap<usize, String> = BTreeMap::new();
    let mut ranks: Vec<Vec<String>> = Vec::new();
    let mut positions = Vec::new();
    for &(p, rank) in &picked {
        let class = ex.class_of[p];
        // The explicit gamegraph and the solver must agree on every drawn position.
        let by_solver = solver.nim(&ex.positions[p]);
        if by_solver != nims[class] {
            return Err(format!(
                "nim({}) is {} on the gamegraph but {by_solver} by the solver",
                ex.label(p),
                nims[class]
            ));
        }
        positions.push(p);
        if node_of_class.contains_key(&class) {
            continue;
        }
        let id = format!("p{idx}_{}", node_of_class.len());
        node_of_class.insert(class, id.clone());
        nodes.push(node_view(
            &ex,
            &game,
            p,
            id.clone(),
            rank,
            nims[class],
            panel.shade_terminal,
            names,
        ));
        if ranks.len() <= rank {
            ranks.resize(rank + 1, Vec::new());
        }
        ranks[rank].push(id);
    }
    let mut edges = Vec::new();
    match &panel.extent {
        Extent::Play(_) => {
            for w in positions.windows(2) {
                edges.push(EdgeView {
                    from: node_of_class[&ex.class_of[w[0]]].clone(),
                    to: node_of_class[&ex.class_of[w[1]]].clone(),
                });
            }
        }
        _ => {
            for (&c, id) in &node_of_class {
                for &o in &ex.class_options[c] {
                    if let Some(t) = node_of_class.get(&o) {
                        edges.push(EdgeView {
                            from: id.clone(),
                            to: t.clone(),
                        });
                    }
                }
            }
        }
    }
    let (legend, legend_mini) = match &game {
        AnyGame::Removing(g) => {
            let cells = vertex_grid(g.graph());
            let name = |v: usize| names.map_or(g.graph().vertex_name(v), |n| n[v].as_str());
            (
                Some(grid_rows(&cells, |v| html(name(v)))),
                Some(legend_miniature(g.graph(), names)),
            )
        }
        _ => (None, None),
    };
    let view = PanelView {
        id: format!("p{idx}"),
        title: html(&panel.title),
        game: html(&panel.game),
        game_raw: panel.game.clone(),
        tex: panel.tex.clone(),
        legend_mini,
        nim: nims[ex.class_of[0]],
        nodes,
        edges,
        clusters: Vec::new(),
        ranks,
        legend,
    };
    Ok(Built {
        view,
        node_of_class,
        positions,
        ex,
    })
}

/// Prop 5.26 on every position of `*k : G`: nim(*j, q) = j (j < k), nim(*k, q) = k + nim(q).
fn check_ordinal(game: &AnyGame, ex: &Explicit) -> Option<(String, String, String)> {
    let AnyGame::Ordinal(base, top) = game else {
        return None;
    };
    let AnyGame::Nimber(k) = **base else {
        return None;
    };
    let mut s = Solver::new(game);
    let mut t = Solver::new(&**top);
    for p in &ex.positions {
        let AnyPos::Ordinal(a, b) = p else { continue };
        let AnyPos::Nim(j) = **a else { continue };
        let want = if j < k { j } else { k + t.nim(b) };
        let got = s.nim(p);
        if got != want {
            return Some((game.label(p), format!("*{want}"), format!("*{got}")));
        }
    }
    None
}

impl Figure {
    fn err(&self, m: String) -> CheckError {
        CheckError {
            loc: self.loc.clone(),
            message: m,
        }
    }

    /// Computes the view and checks the figure's claims (maps, Prop 5.26, stated families).
    pub fn compute(
        &self,
        closure: Closure,
    ) -> Result<(Report, FigureView, Option<CertifiedFigure>), CheckError> {
        let t0 = Instant::now();
        let mut verdict = Verdict::Holds;
        let mut positions = 0u64;
        let mut notes = self.notes.clone();
        let certified;
        let view = match &self.body {
            FigureBody::Games { panels, map } => {
                let mut built: Vec<Built> = Vec::new();
                let mut map_edges = Vec::new();
                let names = self.vertex_names.as_deref();
                let first =
                    build_panel(0, &panels[0], closure, None, names).map_err(|m| self.err(m))?;
                let mut images: Vec<AnyPos> = Vec::new();
                let mut map_pairs = None;
                let mut fibre_images: Vec<(Vec<String>, String)> = Vec::new();
                if let Some(m) = map {
                    let target = panels.get(1).ok_or_else(|| {
                        self.err("a figure `map` draws its image as the second panel".into())
                    })?;
                    // The map is checked on this instance exactly as a reduction spec would be.
                    let red = Reduction {
                        id: self.id.clone(),
                        file: self.file.clone(),
                        source: self.source.clone(),
                        notes: None,
                        closure,
                        params: Vec::new(),
                        lets: Vec::new(),
                        filter: None,
                        filter_loc: self.loc.clone(),
                        from: Side {
                            game: panels[0].game.clone(),
                            loc: self.loc.clone(),
                            quotient: panels[0].quotient,
                        },
                        to: Side {
                            game: target.game.clone(),
                            loc: m.loc.clone(),
                            quotient: target.quotient,
                        },
                        map: MapKind::Script(m.script.clone()),
                        map_loc: m.loc.clone(),
                        claims: Claims {
                            option_preserving: true,
                            surjective: true,
                            start_to_start: true,
                            injective: false,
                        },
                        expect: Expectation::Holds,
                    };
                    let r = red.check()?;
                    notes = Some(
                        format!(
                            "{} {}",
                            notes.unwrap_or_default(),
                            r.notes.clone().unwrap_or_default()
                        )
                        .trim()
                        .to_string(),
                    );
                    verdict = r.verdict.clone();
                    map_pairs = red.map_pairs(MAX_MAP_PAIRS)?.and_then(|mut v| v.pop());
                    let tgame = parse_game(&target.game, ParseOptions { closure })
                        .map_err(|e| self.err(e.message))?;
                    for &p in &first.positions {
                        let pos = &first.ex.positions[p];
                        let env = red_env(&first.ex.game, pos, &m.script);
                        let d = m.script.eval(&env).map_err(|e| self.err(e))?;
                        images.push(
                            super::reduction::pos_from_dynamic(&tgame, &d)
                                .map_err(|e| self.err(e))?,
                        );
                    }
                }
                built.push(first);
                for (i, panel) in panels.iter().enumerate().skip(1) {
                    let mut p = panel.clone();
                    let play_images =
                        map.is_some() && i == 1 && matches!(panels[0].extent, Extent::Play(_));
                    if play_images {
                        let tgame = parse_game(&panel.game, ParseOptions { closure })
                            .map_err(|e| self.err(e.message))?;
                        // The images of the play must be a play of the target (an
                        // option-preserving map sends moves to moves); the first that is not
                        // refutes the map, and the panel draws the image play up to it.
                        let broken = if images.first() != Some(&tgame.start()) {
                            Some(0)
                        } else {
                            (1..images.len())
                                .find(|&k| !tgame.options(&images[k - 1]).contains(&images[k]))
                        };
                        if broken == Some(0) {
                            if verdict.holds() {
                                verdict = Verdict::Refuted {
                                    counterexample: Counterexample {
                                        instance: "figure".into(),
                                        game: format!("{} → {}", panels[0].game, panel.game),
                                        position: Some(
                                            built[0].ex.game.label(&built[0].ex.positions[0]),
                                        ),
                                        claimed: format!(
                                            "f maps the start of the play to the start of {}",
                                            panel.game
                                        ),
                                        computed: format!(
                                            "f(start) = {}, the start is {}",
                                            images
                                                .first()
                                                .map_or_else(String::new, |x| tgame.label(x)),
                                            tgame.label(&tgame.start())
                                        ),
                                        evidence: vec![],
                                    },
                                };
                            }
                        } else if let Some(k) = broken {
                            let src_game = &built[0].ex.game;
                            let at = |j: usize| &built[0].ex.positions[built[0].positions[j]];
                            let mut evidence = vec![format!(
                                "options of {}: {}",
                                tgame.label(&images[k - 1]),
                                tgame
                                    .options(&images[k - 1])
                                    .iter()
                                    .map(|o| tgame.label(o))
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            )];
                            if let Verdict::Refuted { counterexample } = &verdict {
                                evidence.push(format!("map check: {counterexample}"));
                            }
                            verdict = Verdict::Refuted {
                                counterexample: Counterexample {
                                    instance: "figure".into(),
                                    game: format!("{} → {}", panels[0].game, panel.game),
                                    position: Some(format!(
                                        "move {k}: {} → {}",
                                        src_game.label(at(k - 1)),
                                        src_game.label(at(k))
                                    )),
                                    claimed: format!(
                                        "f maps move {k} of the play to a move of {}",
                                        panel.game
                                    ),
                                    computed: format!(
                                        "f gives {} → {}, and {} is not an option of {}",
                                        tgame.label(&images[k - 1]),
                                        tgame.label(&images[k]),
                                        tgame.label(&images[k]),
                                        tgame.label(&images[k - 1])
                                    ),
                                    evidence,
                                },
                            };
                        }
                        let upto = broken.unwrap_or(images.len());
                        let moves: Vec<String> = images[1..upto.max(1)]
                            .iter()
                            .map(|x| tgame.label(x))
                            .collect();
                        p.extent = Extent::Play(moves);
                    }
                    let b = build_panel(i, &p, closure, None, names).map_err(|m| self.err(m))?;
                    built.push(b);
                }
                if map.is_some() && built.len() > 1 {
                    let (a, rest) = built.split_at_mut(1);
                    let (src, tgt) = (&mut a[0], &mut rest[0]);
                    let key = |x: &AnyPos| tgt.ex.index.get(x).map(|&i| tgt.ex.class_of[i]);
                    if matches!(panels[0].extent, Extent::Play(_)) {
                        for (k, &p) in src.positions.iter().enumerate() {
                            if let Some(c) = key(&images[k]) {
                                if let Some(t) = tgt.node_of_class.get(&c) {
                                    map_edges.push(EdgeView {
                                        from: src.node_of_class[&src.ex.class_of[p]].clone(),
                                        to: t.clone(),
                                    });
                                }
                            }
                        }
                    } else {
                        let mut fibres: BTreeMap<usize, Vec<String>> = BTreeMap::new();
                        for (k, &p) in src.positions.iter().enumerate() {
                            if let Some(c) = key(&images[k]) {
                                let id = src.node_of_class[&src.ex.class_of[p]].clone();
                                let f = fibres.entry(c).or_default();
                                if !f.contains(&id) {
                                    f.push(id);
                                }
                            }
                        }
                        // The fibres are ranked by their image's rank in the image's
                        // gamegraph (f sends every move to a move, so ranks still grow along
                        // every edge): a fibre's positions then share a rank, its box is one
                        // row high, and the rows between ranks, where the arrows run, hold no
                        // box (ranked by moves made, fibres spanning two ranks stood in the
                        // way of the arrows between them, Fig 5.2).
                        let image_rank: BTreeMap<&str, usize> = tgt
                            .view
                            .nodes
                            .iter()
                            .map(|n| (n.id.as_str(), n.rank))
                            .collect();
                        let mut rank_of: BTreeMap<String, usize> = BTreeMap::new();
                        for (c, nodes) in &fibres {
                            let r = tgt
                                .node_of_class
                                .get(c)
                                .and_then(|t| image_rank.get(t.as_str()));
                            for id in nodes {
                                if let Some(&r) = r {
                                    rank_of.insert(id.clone(), r);
                                }
                            }
                        }
                        if src.view.nodes.iter().all(|n| rank_of.contains_key(&n.id)) {
                            let mut ranks: Vec<Vec<String>> = Vec::new();
                            for n in &mut src.view.nodes {
                                n.rank = rank_of[&n.id];
                                if ranks.len() <= n.rank {
                                    ranks.resize(n.rank + 1, Vec::new());
                                }
                                ranks[n.rank].push(n.id.clone());
                            }
                            src.view.ranks = ranks;
                        }
                        for (j, (c, nodes)) in fibres.into_iter().enumerate() {
                            if let Some(t) = tgt.node_of_class.get(&c) {
                                fibre_images.push((nodes.clone(), t.clone()));
                            }
                            src.view.clusters.push(ClusterView {
                                id: format!("{}_f{j}", src.view.id),
                                label: format!("↦ {}", html(&shown_class(&tgt.ex, c, None))),
                                label_raw: format!("↦ {}", shown_class(&tgt.ex, c, None)),
                                nodes,
                            });
                        }
                    }
                }
                for b in &built {
                    positions += b.view.nodes.len() as u64;
                    if verdict.holds() {
                        if let Some((pos, claimed, computed)) = check_ordinal(&b.ex.game, &b.ex) {
                            verdict = Verdict::Refuted {
                                counterexample: Counterexample {
                                    instance: "figure".into(),
                                    game: b.ex.text.clone(),
                                    position: Some(pos),
                                    claimed: format!("{claimed} (Prop 5.26)"),
                                    computed,
                                    evidence: vec![],
                                },
                            };
                        }
                    }
                }
                certified = Some(CertifiedFigure {
                    panels: built.iter().map(CertifiedPanel::of).collect(),
                    map: map_pairs,
                    map_edges: map_edges
                        .iter()
                        .map(|e| (e.from.clone(), e.to.clone()))
                        .collect(),
                    fibres: fibre_images,
                    copies: Vec::new(),
                });
                FigureView {
                    title: html(&self.title),
                    source: html(&self.source),
                    panels: built.into_iter().map(|b| b.view).collect(),
                    plays: !map_edges.is_empty(),
                    map_edges,
                    graph: None,
                    structure: None,
                    caption: self.caption.clone(),
                }
            }
            FigureBody::Graph {
                graph,
                families,
                rows,
            } => {
                let conv = Convexity::of(graph, closure).map_err(|e| self.err(e))?;
                let fam = conv.families(1 << 20).ok_or_else(|| {
                    self.err(format!(
                        "the families of {} are too many to enumerate",
                        graph.name()
                    ))
                })?;
                let mut copies = Vec::new();
                let mut listed = Vec::new();
                for (name, stated) in families {
                    let sets = match name.as_str() {
                        "G" => &fam.g,
                        "N" => &fam.n,
                        "G*" => &fam.g_star,
                        "N*" => &fam.n_star,
                        other => {
                            return Err(self.err(format!(
                                "unknown family `{other}` (expected G, N, G* or N*)"
                            )))
                        }
                    };
                    let computed: Vec<Vec<String>> =
                        sets.iter().map(|&s| graph.set_names(s)).collect();
                    if !stated.is_empty() {
                        let norm = |v: &Vec<Vec<String>>| {
                            let mut v: Vec<Vec<String>> = v
                                .iter()
                                .map(|s| {
                                    let mut s = s.clone();
                                    s.sort();
                                    s
                                })
                                .collect();
                            v.sort();
                            v
                        };
                        if norm(stated) != norm(&computed) && verdict.holds() {
                            verdict = Verdict::Refuted {
                                counterexample: Counterexample {
                                    instance: "figure".into(),
                                    game: graph.name().to_string(),
                                    position: None,
                                    claimed: format!("{name} = {}", show_sets(stated)),
                                    computed: format!("{name} = {}", show_sets(&computed)),
                                    evidence: vec![],
                                },
                            };
                        }
                    }
                    let pretty = match name.as_str() {
                        "G" => "𝒢",
                        "N" => "𝒩",
                        "G*" => "𝒢*",
                        _ => "𝒩*",
                    };
                    for (j, &s) in sets.iter().enumerate() {
                        positions += 1;
                        listed.push((
                            format!("{}{}", name.replace('*', "s"), j),
                            name.clone(),
                            graph.set_names(s),
                        ));
                        copies.push(GraphCopyView {
                            id: format!("{}{}", name.replace('*', "s"), j),
                            family: name.clone(),
                            label: html(&format!("{pretty} ∋ {}", graph.format_set(s))),
                            label_raw: format!("{pretty} ∋ {}", graph.format_set(s)),
                            marked: bits(s).map(|v| format!("v{v}")).collect(),
                            at: Vec::new(),
                            title_at: String::new(),
                        });
                    }
                }
                certified = Some(CertifiedFigure {
                    panels: Vec::new(),
                    map: None,
                    map_edges: Vec::new(),
                    fibres: Vec::new(),
                    copies: listed,
                });
                // Drawn as the paper draws the graph, every copy alike (`rows` figures are
                // laid out by Graphviz, left to right).
                if !*rows {
                    let (at, titles) = pinned_copies(graph, copies.len());
                    for ((c, at), t) in copies.iter_mut().zip(at).zip(titles) {
                        c.at = at;
                        c.title_at = t;
                    }
                }
                FigureView {
                    title: html(&self.title),
                    source: html(&self.source),
                    panels: Vec::new(),
                    map_edges: Vec::new(),
                    plays: false,
                    graph: Some(GraphFigureView {
                        vertices: graph
                            .names()
                            .iter()
                            .enumerate()
                            .map(|(i, s)| VertexView {
                                id: format!("v{i}"),
                                name: html(s),
                                name_raw: s.clone(),
                            })
                            .collect(),
                        edges: graph
                            .edges()
                            .into_iter()
                            .map(|(a, b)| EdgeView {
                                from: format!("v{a}"),
                                to: format!("v{b}"),
                            })
                            .collect(),
                        copies,
                        rows: *rows,
                    }),
                    structure: None,
                    caption: self.caption.clone(),
                }
            }
            FigureBody::Structure(fig) => {
                let (view, refuted) =
                    super::structure_figure::compute(fig, closure).map_err(|m| self.err(m))?;
                positions = view.all_classes as u64;
                if let Some(counterexample) = refuted {
                    verdict = Verdict::Refuted { counterexample };
                }
                // The verifier computes the classes itself; the certificate lists nothing.
                certified = Some(CertifiedFigure {
                    panels: Vec::new(),
                    map: None,
                    map_edges: Vec::new(),
                    fibres: Vec::new(),
                    copies: Vec::new(),
                });
                FigureView {
                    title: html(&self.title),
                    source: html(&self.source),
                    panels: Vec::new(),
                    map_edges: Vec::new(),
                    plays: false,
                    graph: None,
                    structure: Some(view),
                    caption: self.caption.clone(),
                }
            }
        };
        let report = Report {
            id: self.id.clone(),
            kind: "figure".into(),
            source: self.source.clone(),
            file: self.file.clone(),
            instances: 1,
            positions,
            range: "single instance".into(),
            expect: Expectation::Holds,
            as_expected: verdict.holds(),
            verdict,
            notes,
            coverage: Vec::new(),
            rests_on: Vec::new(),
            companion: None,
            excused: None,
            identity: None,
            laws: None,
            seconds: t0.elapsed().as_secs_f64(),
        };
        Ok((report, view, certified))
    }
}

fn show_sets(v: &[Vec<String>]) -> String {
    let s: Vec<String> = v.iter().map(|x| format!("{{{}}}", x.join(", "))).collect();
    format!("{{{}}}", s.join(", "))
}

/// The environment a map sees at a position (as in reduction specs, without parameters).
fn red_env(game: &AnyGame, p: &AnyPos, script: &Script) -> super::formula::Env {
    super::reduction::map_env(&super::formula::Env::new(), game, p, script)
}

/// A figure with the closure operator its graph games use.
#[derive(Clone, Debug)]
pub struct FigureSpec {
    pub figure: Figure,
    pub closure: Closure,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::families;

    fn distinct(cells: &[(usize, usize)]) -> bool {
        let set: std::collections::BTreeSet<_> = cells.iter().collect();
        set.len() == cells.len()
    }

    #[test]
    fn miniature_layouts_are_unambiguous() {
        // W_5: rim v1..v4 as a diamond around c, v1 on top (as Fig 5.5 draws v_i).
        let w5 = families::wheel(5).unwrap();
        assert_eq!(
            vertex_grid(&w5),
            vec![(0, 1), (1, 2), (2, 1), (1, 0), (1, 1)]
        );
        for n in 4..=16 {
            assert!(
                distinct(&vertex_grid(&families::wheel(n).unwrap())),
                "W_{n}"
            );
            assert!(
                distinct(&vertex_grid(&families::cycle(n).unwrap())),
                "C_{n}"
            );
        }
        for m in 1..=6 {
            for n in 3..=10 {
                let g = families::gen_wheel(m, n).unwrap();
                assert!(distinct(&vertex_grid(&g)), "W_{{{m},{n}}}");
            }
        }
        // K_{1,2,2}: one column per part.
        let k = families::multipartite(&[1, 2, 2]).unwrap();
        assert_eq!(
            vertex_grid(&k),
            vec![(0, 0), (0, 1), (1, 1), (0, 2), (1, 2)]
        );
        assert_eq!(
            vertex_grid(&families::path(3).unwrap()),
            vec![(0, 0), (0, 1), (0, 2)]
        );
    }
}
