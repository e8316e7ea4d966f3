//! Gamegraph figures bound to their values (issue 43, figures): a `figure` spec's panels are
//! re-derived and its rendered DOT and TikZ files read.
//!
//! Per panel the verifier builds the game from the spec's name (it must be the certificate's
//! game), reads each node's position, and solves it itself: the printed nim-value must be its
//! own. Every arrow must be a move (§3; in a panel drawn up to congruence, a move to a position
//! the game's automorphisms map onto the drawn one, the automorphisms found by the verifier).
//! The nodes must be what the spec asks drawn: the whole gamegraph (every position reachable
//! from the start, one per class), its first `depth` moves, or the spec's play, move by move;
//! and no move between two drawn nodes may be left out. A map (Figs 5.1, 5.2, 5.7) is checked
//! option-preserving, onto and start to start on every position of its source (as a
//! reduction's); the dashed arrows of a play must send each position to its image, and each box
//! of a fibre must hold positions with the same image, named by the box.
//!
//! Then every file the spec renders through the built-in `gamegraph.dot` is read from the output
//! folder (its first comment must name the spec's sha256), with its TikZ rendering
//! (`….tikz.tex`, whose nodes carry their DOT names in a comment): every node's printed value
//! and, for positions on a graph, its miniature (which vertices are filled), and every arrow
//! and dashed map arrow, must be the certificate's, no more and no fewer. Panel titles and the
//! textual labels of positions off a graph (pins, multisets) are not read.

use crate::checks::{FigureBody, FigurePanel, MapFact};
use crate::derive::{Rederived, Stop};
use crate::games::{call, Game, Pos, Rules};
use crate::spec::{FigureText, PanelText, Raw};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};

/// Most bytes of a rendered figure read.
const MAX_FIGURE_BYTES: u64 = 8 << 20;
/// Most positions (classes) a drawn panel's game is explored to.
const MAX_EXPLORED: usize = 200_000;

type Arrows = BTreeSet<(String, String)>;

fn reject(m: String) -> Stop {
    Stop::Reject(m)
}

/// A panel's game, read: its rules, each node's position, its classes under the automorphisms.
struct Drawn {
    rules: Rules,
    symmetries: Vec<Vec<usize>>,
    nodes: BTreeMap<String, (Pos, u32)>,
}

impl Drawn {
    /// The class representative: the least image of a set position under the automorphisms
    /// (the identity alone outside a quotient).
    fn canon(&self, p: &Pos) -> Pos {
        match p {
            Pos::Set(s) if !self.symmetries.is_empty() => {
                Pos::Set(crate::games::least_image(&self.symmetries, *s))
            }
            _ => p.clone(),
        }
    }

    /// Node id of each drawn class.
    fn by_class(&self) -> Result<HashMap<Pos, String>, Stop> {
        let mut out = HashMap::new();
        for (id, (p, _)) in &self.nodes {
            if let Some(other) = out.insert(self.canon(p), id.clone()) {
                return Err(reject(format!(
                    "nodes {other} and {id} draw the same position (up to the automorphisms)"
                )));
            }
        }
        Ok(out)
    }
}

pub fn derive(raw: &Raw, fig: &FigureBody, map: Option<&MapFact>) -> Result<Rederived, Stop> {
    let text = raw
        .figure
        .as_ref()
        .ok_or_else(|| Stop::Not("a figure the verifier did not read".into()))?;
    if text.families.is_some() {
        return graph_figure(raw, text, fig);
    }
    if let Some(game) = &text.structure {
        if !fig.panels.is_empty() || fig.map.is_some() || !fig.copies.is_empty() {
            return Err(reject("panels or copies in a structure diagram".into()));
        }
        return structure_figure(raw, text, game);
    }
    let spec = Some(text)
        .filter(|f| !f.panels.is_empty())
        .ok_or_else(|| Stop::Not("a figure without gamegraph panels".into()))?;
    if !fig.copies.is_empty() {
        return Err(reject("copies of a graph in a gamegraph figure".into()));
    }
    if spec.panels.len() != fig.panels.len() {
        return Err(reject(format!(
            "the spec draws {} panels, the certificate {}",
            spec.panels.len(),
            fig.panels.len()
        )));
    }
    if spec.map.is_some() && spec.panels.len() != 2 {
        return Err(Stop::Not("a map drawn with other than two panels".into()));
    }
    let mut drawn = Vec::new();
    for (i, (want, got)) in spec.panels.iter().zip(&fig.panels).enumerate() {
        drawn.push(panel(i, want, got).map_err(|e| match e {
            Stop::Reject(m) => Stop::Reject(format!("panel {} ({}): {m}", i + 1, want.game)),
            Stop::Not(m) => Stop::Not(format!("panel {} ({}): {m}", i + 1, want.game)),
        })?);
    }
    // What each panel must draw: the spec's play, or the whole gamegraph to a depth.
    let first_play = spec.panels[0].play.as_ref();
    let play = match first_play {
        Some(moves) => Some(play_positions(
            &spec.panels[0],
            &drawn[0],
            moves,
            spec.vertex_names.as_ref(),
        )?),
        None => None,
    };
    let image = |p: &Pos| -> Result<Pos, Stop> {
        let (m, _) =
            fig.map.as_ref().zip(map).ok_or_else(|| {
                reject("the spec's map is drawn, the certificate has no map".into())
            })?;
        let (g, h) = (&drawn[0].rules, &drawn[1].rules);
        for (a, b) in &m.pairs {
            if g.pos(a).map_err(reject)? == *p {
                return h.pos(b).map_err(reject);
            }
        }
        Err(reject(format!(
            "{p:?} has no image in the certificate's map"
        )))
    };
    for (i, (want, got)) in spec.panels.iter().zip(&fig.panels).enumerate() {
        let d = &drawn[i];
        let chain = if i == 0 {
            play.clone()
        } else if i == 1 && spec.map.is_some() {
            match &play {
                Some(ps) => Some(ps.iter().map(&image).collect::<Result<Vec<_>, _>>()?),
                None => None,
            }
        } else {
            None
        };
        let check = match chain {
            Some(ps) => drawn_play(d, got, &ps),
            None => drawn_whole(d, got, want.depth.unwrap_or(usize::MAX)),
        };
        check.map_err(|m| reject(format!("panel {} ({}): {m}", i + 1, want.game)))?;
    }
    // The map: option-preserving on every position of the source (checked with the
    // certificate), onto and start to start, between the spec's two panels.
    match (&spec.map, &fig.map, map) {
        (None, None, None) if fig.map_edges.is_empty() && fig.fibres.is_empty() => {}
        (Some(_), Some(m), Some(fact)) => {
            if !m.from.same(&fig.panels[0].game) || !m.to.same(&fig.panels[1].game) {
                return Err(reject(
                    "the certificate's map is not between the figure's two panels".into(),
                ));
            }
            if fact.from_quotient.is_some() || fact.to_quotient.is_some() {
                return Err(reject("a figure's map between quotients".into()));
            }
            if !fact.start_to_start || !fact.surjective {
                return Err(reject(
                    "the figure's map is not onto its image panel's game, start to start".into(),
                ));
            }
            let id_of = |k: usize, p: &Pos| -> Result<String, Stop> {
                let d = &drawn[k];
                d.by_class()?
                    .get(&d.canon(p))
                    .cloned()
                    .ok_or_else(|| reject(format!("{p:?} is not drawn in panel {}", k + 1)))
            };
            if let Some(ps) = &play {
                let mut want = Arrows::new();
                for p in ps {
                    want.insert((id_of(0, p)?, id_of(1, &image(p)?)?));
                }
                let got: Arrows = fig.map_edges.iter().cloned().collect();
                if want != got || !fig.fibres.is_empty() {
                    return Err(reject(format!(
                        "the dashed arrows are not the play's images: drawn {got:?}, the map gives {want:?}"
                    )));
                }
            } else {
                if !fig.map_edges.is_empty() {
                    return Err(reject(
                        "dashed arrows where the map boxes its fibres".into(),
                    ));
                }
                let mut boxed = BTreeSet::new();
                for (members, target) in &fig.fibres {
                    let (t, _) = drawn[1]
                        .nodes
                        .get(target)
                        .ok_or_else(|| reject(format!("a box names {target}, not a node")))?;
                    for m in members {
                        let (p, _) = drawn[0]
                            .nodes
                            .get(m)
                            .ok_or_else(|| reject(format!("a box holds {m}, not a node")))?;
                        if image(p)? != *t || !boxed.insert(m.clone()) {
                            return Err(reject(format!(
                                "node {m} is boxed with the image {target}, which is not its image (or it is boxed twice)"
                            )));
                        }
                    }
                }
                if boxed.len() != drawn[0].nodes.len() {
                    return Err(reject("not every node of the first panel is boxed".into()));
                }
            }
        }
        (Some(_), None, _) => {
            return Err(reject(
                "the spec draws a map, the certificate has none".into(),
            ))
        }
        _ => {
            return Err(reject(
                "the certificate draws a map the spec does not give".into(),
            ))
        }
    }
    // The rendered files.
    let all_arrows: Arrows = fig
        .panels
        .iter()
        .flat_map(|p| p.arrows.iter().cloned())
        .collect();
    let map_arrows: Arrows = fig.map_edges.iter().cloned().collect();
    let nodes: BTreeMap<&str, (&Pos, u32)> = drawn
        .iter()
        .flat_map(|d| d.nodes.iter().map(|(id, (p, v))| (id.as_str(), (p, *v))))
        .collect();
    let dots = dot_outputs(raw);
    if dots.is_empty() {
        return Err(Stop::Not(
            "the figure is rendered through no built-in `gamegraph.dot`".into(),
        ));
    }
    for rel in dots {
        let dot = read_rendered(&rel, &raw.sha256).map_err(|m| reject(format!("{rel}: {m}")))?;
        check_dot(&dot, &nodes, &all_arrows, &map_arrows)
            .map_err(|m| reject(format!("{rel}: {m}")))?;
        let tikz_rel = format!("{}.tikz.tex", rel.trim_end_matches(".dot"));
        // A TikZ file the spec writes through a template of its own (Fig 5.3's schematic of
        // every n) is not a drawing of these nodes.
        if output_paths(raw).any(|p| p == tikz_rel) {
            continue;
        }
        let tikz = read_rendered(&tikz_rel, &raw.sha256)
            .map_err(|m| reject(format!("{tikz_rel}: {m}")))?;
        check_tikz(&tikz, &nodes, &all_arrows, &map_arrows)
            .map_err(|m| reject(format!("{tikz_rel}: {m}")))?;
    }
    Ok(Rederived {
        certified: 1,
        total: 1,
    })
}

/// Reads one panel: its game (the spec's), its nodes' positions and values (the verifier's).
fn panel(i: usize, want: &PanelText, got: &FigurePanel) -> Result<Drawn, Stop> {
    let game = Game::parse(&want.game).map_err(Stop::Not)?;
    if !game.same(&got.game) {
        return Err(reject(format!(
            "the certificate's game is not the spec's {}",
            want.game
        )));
    }
    let rules = Rules::new(&got.game).map_err(reject)?;
    if rules.misere() {
        return Err(Stop::Not("a game played misère".into()));
    }
    let symmetries = match want.quotient.as_deref() {
        None => Vec::new(),
        Some("automorphisms") => rules
            .symmetries()
            .ok_or_else(|| Stop::Not("the game's automorphisms".into()))?,
        Some(q) => return Err(Stop::Not(format!("quotients by `{q}`"))),
    };
    let mut memo = HashMap::new();
    let mut nodes = BTreeMap::new();
    for (id, pv, nim) in &got.nodes {
        if !id.starts_with(&format!("p{i}_")) {
            return Err(reject(format!(
                "node {id} is not named for panel {}",
                i + 1
            )));
        }
        let p = rules
            .pos(pv)
            .map_err(|e| reject(format!("node {id}: {e}")))?;
        let mine = crate::solve::solve_at(&rules, &p, &mut memo)
            .map_err(|e| Stop::Not(format!("node {id}: {e}")))?;
        if mine != *nim {
            return Err(reject(format!(
                "node {id} ({pv}) is labelled {nim}, its nim-value is {mine}"
            )));
        }
        if nodes.insert(id.clone(), (p, *nim)).is_some() {
            return Err(reject(format!("node {id} is listed twice")));
        }
    }
    let d = Drawn {
        rules,
        symmetries,
        nodes,
    };
    d.by_class()?;
    Ok(d)
}

/// The positions of the spec's play: the start, then one vertex selected per move (named
/// as the spec's `vertex_names` or the graph's own names).
fn play_positions(
    want: &PanelText,
    d: &Drawn,
    moves: &[String],
    paper: Option<&Vec<String>>,
) -> Result<Vec<Pos>, Stop> {
    let graph = call(&want.game)
        .map(|(_, inner)| inner)
        .ok_or_else(|| Stop::Not("a play on a game not named `RULE(graph)`".into()))?;
    let n = crate::names::parse_graph(graph).map_err(Stop::Not)?.n;
    let own = crate::names::vertex_names(graph, n)
        .ok_or_else(|| Stop::Not(format!("the vertex names of {graph}")))?;
    let Pos::Set(mut s) = d.rules.start() else {
        return Err(Stop::Not("a play of a game without vertex sets".into()));
    };
    let mut out = vec![Pos::Set(s)];
    for m in moves {
        let v = own
            .iter()
            .position(|x| x == m.trim())
            .or_else(|| {
                paper
                    .filter(|p| p.len() == n)?
                    .iter()
                    .position(|x| x == m.trim())
            })
            .ok_or_else(|| reject(format!("the play's `{m}` is not a vertex of {graph}")))?;
        let next = Pos::Set(s | 1 << v);
        if !d
            .rules
            .options(&Pos::Set(s))
            .map_err(reject)?
            .contains(&next)
        {
            return Err(reject(format!("the play's move `{m}` is not a move")));
        }
        s |= 1 << v;
        out.push(next);
    }
    Ok(out)
}

/// A play drawn: exactly its positions, each arrow one of its moves.
fn drawn_play(d: &Drawn, got: &FigurePanel, ps: &[Pos]) -> Result<(), String> {
    let ids = d.by_class().map_err(|e| match e {
        Stop::Reject(m) | Stop::Not(m) => m,
    })?;
    let id = |p: &Pos| {
        ids.get(&d.canon(p))
            .cloned()
            .ok_or_else(|| format!("the play's position {p:?} is not drawn"))
    };
    let mut want = Arrows::new();
    for w in ps.windows(2) {
        want.insert((id(&w[0])?, id(&w[1])?));
    }
    let got_arrows: Arrows = got.arrows.iter().cloned().collect();
    let listed: HashSet<Pos> = ps.iter().map(|p| d.canon(p)).collect();
    if want != got_arrows || listed.len() != d.nodes.len() {
        return Err(format!(
            "it draws {} nodes and the arrows {got_arrows:?}; the play is {} positions with the moves {want:?}",
            d.nodes.len(),
            listed.len()
        ));
    }
    Ok(())
}

/// The whole gamegraph to `depth` moves (by the longest play to a position, as drawn): every
/// class of that rank drawn, every arrow a move, every move between drawn classes an arrow.
fn drawn_whole(d: &Drawn, got: &FigurePanel, depth: usize) -> Result<(), String> {
    let ids = d.by_class().map_err(|e| match e {
        Stop::Reject(m) | Stop::Not(m) => m,
    })?;
    // The quotient gamegraph from the start: classes, their option classes, ranks (Kahn).
    let start = d.canon(&d.rules.start());
    let mut order = vec![start.clone()];
    let mut index: HashMap<Pos, usize> = HashMap::from([(start, 0)]);
    let mut options: Vec<Vec<usize>> = Vec::new();
    let mut i = 0;
    while i < order.len() {
        let mut opts = BTreeSet::new();
        for o in d.rules.options(&order[i])? {
            let c = d.canon(&o);
            let k = match index.get(&c) {
                Some(&k) => k,
                None => {
                    if order.len() >= MAX_EXPLORED {
                        return Err(format!("more than {MAX_EXPLORED} positions to explore"));
                    }
                    index.insert(c.clone(), order.len());
                    order.push(c);
                    order.len() - 1
                }
            };
            opts.insert(k);
        }
        options.push(opts.into_iter().collect());
        i += 1;
    }
    let mut indeg = vec![0usize; order.len()];
    for o in &options {
        for &k in o {
            indeg[k] += 1;
        }
    }
    let mut rank = vec![0usize; order.len()];
    let mut queue = VecDeque::from([0usize]);
    let mut done = 0;
    while let Some(k) = queue.pop_front() {
        done += 1;
        for &o in &options[k] {
            rank[o] = rank[o].max(rank[k] + 1);
            indeg[o] -= 1;
            if indeg[o] == 0 {
                queue.push_back(o);
            }
        }
    }
    if done != order.len() {
        return Err("the game is not acyclic".into());
    }
    let mut want = Arrows::new();
    let mut drawn_count = 0;
    for (k, c) in order.iter().enumerate() {
        if rank[k] > depth {
            continue;
        }
        drawn_count += 1;
        let a = ids
            .get(c)
            .ok_or_else(|| format!("the position {c:?}, {} moves in, is not drawn", rank[k]))?;
        for &o in &options[k] {
            if rank[o] <= depth {
                let b = ids.get(&order[o]).ok_or_else(|| {
                    format!(
                        "the position {:?}, {} moves in, is not drawn",
                        order[o], rank[o]
                    )
                })?;
                want.insert((a.clone(), b.clone()));
            }
        }
    }
    if drawn_count != d.nodes.len() {
        return Err(format!(
            "it draws {} nodes, the gamegraph to depth {depth} has {drawn_count}",
            d.nodes.len()
        ));
    }
    let got_arrows: Arrows = got.arrows.iter().cloned().collect();
    if want != got_arrows {
        let extra: Vec<_> = got_arrows.difference(&want).take(3).collect();
        let missing: Vec<_> = want.difference(&got_arrows).take(3).collect();
        return Err(format!(
            "the arrows are not the moves: drawn but no move {extra:?}, a move not drawn {missing:?}"
        ));
    }
    Ok(())
}

/// The spec's outputs, `(template, path)`.
fn outputs(raw: &Raw) -> impl Iterator<Item = (&str, &str)> {
    raw.output
        .as_ref()
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|o| {
            Some((
                o.get("template").and_then(Value::as_str)?,
                o.get("path").and_then(Value::as_str)?,
            ))
        })
}

fn output_paths(raw: &Raw) -> impl Iterator<Item = &str> {
    outputs(raw).map(|(_, p)| p)
}

/// The paths the spec renders through the built-in `gamegraph.dot` as DOT.
fn dot_outputs(raw: &Raw) -> Vec<String> {
    outputs(raw)
        .filter(|&(t, p)| t == "gamegraph.dot" && p.ends_with(".dot"))
        .map(|(_, p)| p.to_string())
        .collect()
}

/// A rendered file's text, which must name the spec's sha256 in its first line.
fn read_rendered(rel: &str, sha256: &str) -> Result<String, String> {
    let path = crate::tables::output_file(rel)?;
    let text = crate::io::read_regular_text(&path, MAX_FIGURE_BYTES)?;
    let first = text.lines().next().unwrap_or("");
    let named = first.split_once("sha256 ").map(|(_, r)| {
        r.chars()
            .take_while(char::is_ascii_hexdigit)
            .collect::<String>()
    });
    if named.as_deref() != Some(sha256) {
        return Err(format!(
            "the file was not rendered from the spec's bytes (its first line names sha256 {}, the spec's is {sha256})",
            named.as_deref().unwrap_or("none")
        ));
    }
    Ok(text)
}

/// The vertex set a node's miniature must show: a graph position, or the graph part of
/// `*k : G`'s.
fn shown_set(p: &Pos) -> Option<u64> {
    match p {
        Pos::Set(s) => Some(*s),
        Pos::Tuple(v) if v.len() == 2 => match v[1] {
            Pos::Set(s) => Some(s),
            _ => None,
        },
        _ => None,
    }
}

fn compare_arrows(what: &str, drawn: &Arrows, want: &Arrows) -> Result<(), String> {
    if drawn != want {
        let extra: Vec<_> = drawn.difference(want).take(3).collect();
        let missing: Vec<_> = want.difference(drawn).take(3).collect();
        return Err(format!(
            "its {what} are not the certificate's: drawn and not certified {extra:?}, certified and not drawn {missing:?}"
        ));
    }
    Ok(())
}

/// The DOT: node statements with `grundynim`, their bold value and `grundymini` flags; arrows
/// (`a -> b`), dashed map arrows (`grundy map`); invisible layout edges are not drawn.
fn check_dot(
    dot: &str,
    nodes: &BTreeMap<&str, (&Pos, u32)>,
    arrows: &Arrows,
    map_arrows: &Arrows,
) -> Result<(), String> {
    let mut seen = BTreeSet::new();
    let (mut drawn, mut dashed) = (Arrows::new(), Arrows::new());
    for line in dot.lines().map(str::trim) {
        if line.starts_with("//") {
            continue;
        }
        if let Some(pair) = dot_arrow(line) {
            if line.contains("style=invis") {
                continue;
            }
            if line.contains("grundy map") {
                dashed.insert(pair);
            } else {
                drawn.insert(pair);
            }
            continue;
        }
        let Some((id, attrs)) = line.split_once(" [") else {
            continue;
        };
        let Some(nim) = attr(attrs, "grundynim") else {
            // A value printed by a node that is none of the certificate's.
            if attrs.contains("<B>") {
                return Err(format!(
                    "node {id} prints a value and is not one the certificate lists"
                ));
            }
            continue;
        };
        let &(p, v) = nodes
            .get(id)
            .ok_or_else(|| format!("node {id} is not one the certificate lists"))?;
        let bold = attrs
            .split_once("<B>")
            .and_then(|(_, r)| r.split_once("</B>"))
            .map(|(b, _)| b);
        if nim != v.to_string() || bold != Some(nim.as_str()) {
            return Err(format!(
                "node {id} is labelled {} (grundynim {nim}), its nim-value is {v}",
                bold.unwrap_or("nothing")
            ));
        }
        if let (Some(s), Some(mini)) = (shown_set(p), attr(attrs, "grundymini")) {
            let flags: Vec<bool> = mini
                .split('|')
                .next()
                .unwrap_or("")
                .split(' ')
                .map(|x| x.split(',').nth(2) == Some("1"))
                .collect();
            check_flags(id, &flags, s)?;
        }
        seen.insert(id.to_string());
    }
    if seen.len() != nodes.len() {
        return Err(format!(
            "it draws {} of the certificate's {} nodes",
            seen.len(),
            nodes.len()
        ));
    }
    compare_arrows("arrows", &drawn, arrows)?;
    compare_arrows("dashed map arrows", &dashed, map_arrows)
}

fn check_flags(id: &str, flags: &[bool], s: u64) -> Result<(), String> {
    let want: Vec<bool> = (0..flags.len()).map(|v| s >> v & 1 == 1).collect();
    let beyond = flags.len() < 64 && s >> flags.len() != 0;
    if flags != want || beyond {
        return Err(format!(
            "node {id}'s miniature fills other vertices than its position's"
        ));
    }
    Ok(())
}

/// The ends of a DOT arrow statement `a -> b [...];`.
fn dot_arrow(line: &str) -> Option<(String, String)> {
    let (a, rest) = line.split_once(" -> ")?;
    let b = rest.split([';', ' ', '[']).next().unwrap_or("");
    Some((a.to_string(), b.to_string()))
}

/// A DOT attribute's quoted value.
fn attr(attrs: &str, key: &str) -> Option<String> {
    let at = attrs.find(&format!("{key}=\""))? + key.len() + 2;
    let rest = &attrs[at..];
    Some(rest[..rest.find('"')?].to_string())
}

/// The TikZ: `\node[…] (nK) at (…) {…};` then `\grundyfits{nK}{…}{…}% DOT-NAME`; the value
/// `$\mathbf{v}$` and the miniature's `grundy mini selected` / `grundy mini vertex` nodes in
/// vertex order; `\draw[grundy edge] (nA) … (nB);` and `\draw[grundy map] …`.
fn check_tikz(
    tikz: &str,
    nodes: &BTreeMap<&str, (&Pos, u32)>,
    arrows: &Arrows,
    map_arrows: &Arrows,
) -> Result<(), String> {
    let lines: Vec<&str> = tikz.lines().collect();
    let mut name: HashMap<String, String> = HashMap::new();
    let mut seen = BTreeSet::new();
    for (k, line) in lines.iter().enumerate() {
        let Some(rest) = line.strip_prefix("\\node[") else {
            continue;
        };
        let Some(tik) = rest
            .split_once("] (")
            .and_then(|(_, r)| r.split_once(')'))
            .map(|(t, _)| t.to_string())
        else {
            continue;
        };
        let dot_name = lines
            .get(k + 1)
            .and_then(|l| l.strip_prefix(&format!("\\grundyfits{{{tik}}}")))
            .and_then(|l| l.split_once("% "))
            .map(|(_, n)| n.trim().to_string());
        let Some(dot_name) = dot_name else {
            if line.contains("\\mathbf{") {
                return Err(format!(
                    "node {tik} prints a value and names no node of the DOT"
                ));
            }
            continue;
        };
        name.insert(tik.clone(), dot_name.clone());
        let Some(&(p, v)) = nodes.get(dot_name.as_str()) else {
            if line.contains("\\mathbf{") {
                return Err(format!(
                    "node {tik} ({dot_name}) prints a value and is not one the certificate lists"
                ));
            }
            continue;
        };
        let bold = line
            .split_once("$\\mathbf{")
            .and_then(|(_, r)| r.split_once("}$"))
            .map(|(b, _)| b);
        if bold != Some(v.to_string().as_str()) {
            return Err(format!(
                "node {tik} ({dot_name}) is labelled {}, its nim-value is {v}",
                bold.unwrap_or("nothing")
            ));
        }
        if let Some(s) = shown_set(p) {
            if line.contains("\\tikz[grundy mini") {
                let flags: Vec<bool> = line
                    .match_indices("\\node[grundy mini ")
                    .map(|(at, _)| line[at..].starts_with("\\node[grundy mini selected"))
                    .collect();
                check_flags(&dot_name, &flags, s)?;
            }
        }
        seen.insert(dot_name);
    }
    if seen.len() != nodes.len() {
        return Err(format!(
            "it draws {} of the certificate's {} nodes",
            seen.len(),
            nodes.len()
        ));
    }
    let (mut drawn, mut dashed) = (Arrows::new(), Arrows::new());
    for line in &lines {
        let Some(rest) = line.strip_prefix("\\draw[") else {
            continue;
        };
        let Some((style, path)) = rest.split_once("] (") else {
            continue;
        };
        let ends: Vec<&str> = path
            .split('(')
            .map(|x| x.split(')').next().unwrap_or(""))
            .filter(|x| name.contains_key(*x))
            .collect();
        let from = path.split(')').next().unwrap_or("");
        let (Some(a), Some(b)) = (name.get(from), ends.last().and_then(|t| name.get(*t))) else {
            continue;
        };
        let pair = (a.clone(), b.clone());
        if style.contains("grundy map") {
            dashed.insert(pair);
        } else if style.contains("grundy edge") {
            drawn.insert(pair);
        }
    }
    compare_arrows("arrows", &drawn, arrows)?;
    compare_arrows("dashed map arrows", &dashed, map_arrows)
}

/// A graph figure (Figs 2.1, 4.1, 4.2): one copy of the graph per member of each family the
/// spec lists, the member's vertices marked. The verifier builds the graph from the spec, the
/// four families from their definitions ([`crate::sets::families`], under the spec's closure),
/// checks the members the spec states, and reads every copy in the DOT (its family and member
/// in the label, its marked vertices, its vertex names and edges) and in the TikZ.
fn graph_figure(raw: &Raw, text: &FigureText, fig: &FigureBody) -> Result<Rederived, Stop> {
    if !fig.panels.is_empty() || fig.map.is_some() {
        return Err(reject("gamegraph panels in a graph figure".into()));
    }
    let (graph, names) = match (&text.graph, &text.edges) {
        (_, Some(edges)) => {
            let mut names: Vec<String> = Vec::new();
            let mut pairs = Vec::new();
            for e in edges {
                let (a, b) = e
                    .split_once('-')
                    .ok_or_else(|| Stop::Not(format!("the edge `{e}`")))?;
                let mut idx = |v: &str| match names.iter().position(|x| x == v.trim()) {
                    Some(i) => i,
                    None => {
                        names.push(v.trim().to_string());
                        names.len() - 1
                    }
                };
                pairs.push((idx(a), idx(b)));
            }
            let g = crate::games::Graph {
                n: names.len(),
                edges: pairs,
            };
            g.validate().map_err(Stop::Not)?;
            (g, names)
        }
        (Some(name), None) => {
            let g = crate::names::parse_graph(name).map_err(Stop::Not)?;
            let names = crate::names::vertex_names(name, g.n)
                .ok_or_else(|| Stop::Not(format!("the vertex names of {name}")))?;
            (g, names)
        }
        (None, None) => return Err(Stop::Not("a graph figure without a graph".into())),
    };
    if graph.n > 20 {
        return Err(Stop::Not(format!("{} vertices (at most 20)", graph.n)));
    }
    let kind = crate::closures::Kind::parse(raw.closure.as_deref())
        .ok_or_else(|| Stop::Not("the spec's closure".into()))?;
    let closure = crate::graph_closure::GraphClosure::new(&graph, kind).map_err(reject)?;
    let fams = crate::sets::families(&closure)?;
    let set_names = |s: u64| -> BTreeSet<String> {
        (0..graph.n)
            .filter(|&v| s >> v & 1 == 1)
            .map(|v| names[v].clone())
            .collect()
    };
    // The copies to draw, family by family in the spec's order, each member once; a copy's id
    // is its family's (`G*` as `Gs`) and its number in the family.
    let listed: Vec<(String, String, BTreeSet<String>)> = fig
        .copies
        .iter()
        .map(|(id, f, m)| (id.clone(), f.clone(), m.iter().cloned().collect()))
        .collect();
    let mut at = 0;
    for (family, stated) in text.families.iter().flatten() {
        let members = match family.as_str() {
            "G" => &fams.g,
            "N" => &fams.n,
            "G*" => &fams.g_star,
            "N*" => &fams.n_star,
            other => return Err(Stop::Not(format!("the family `{other}`"))),
        };
        let own: BTreeSet<BTreeSet<String>> = members.iter().map(|&s| set_names(s)).collect();
        let claimed: BTreeSet<BTreeSet<String>> =
            stated.iter().map(|m| m.iter().cloned().collect()).collect();
        if !stated.is_empty() && claimed != own {
            return Err(reject(format!(
                "the spec states {family} = {claimed:?}, the verifier's {family} is {own:?}"
            )));
        }
        let copies = listed.get(at..at + own.len()).unwrap_or(&[]);
        let drawn: BTreeSet<BTreeSet<String>> = copies.iter().map(|c| c.2.clone()).collect();
        let ids_ok = copies.iter().enumerate().all(|(j, (id, f, _))| {
            f == family && *id == format!("{}{j}", family.replace('*', "s"))
        });
        if drawn != own || copies.len() != own.len() || !ids_ok {
            return Err(reject(format!(
                "the certificate's copies of {family} are not one per member: listed {copies:?}, the verifier's {family} is {own:?}"
            )));
        }
        at += own.len();
    }
    if at != listed.len() {
        return Err(reject(format!(
            "the certificate lists {} copies, the families have {at} members",
            listed.len()
        )));
    }
    let want = listed;
    let edges: BTreeSet<(usize, usize)> = graph
        .edges
        .iter()
        .map(|&(a, b)| (a.min(b), a.max(b)))
        .collect();
    let outputs: Vec<String> = outputs(raw)
        .filter(|&(t, p)| t == "graph.dot" && p.ends_with(".dot"))
        .map(|(_, p)| p.to_string())
        .collect();
    if outputs.is_empty() {
        return Err(Stop::Not(
            "the figure is rendered through no built-in `graph.dot`".into(),
        ));
    }
    for rel in outputs {
        let dot = read_rendered(&rel, &raw.sha256).map_err(|m| reject(format!("{rel}: {m}")))?;
        let copies = read_copies(&dot, "");
        check_copies(&copies, &want, &names, &edges).map_err(|m| reject(format!("{rel}: {m}")))?;
        let tikz_rel = format!("{}.tikz.tex", rel.trim_end_matches(".dot"));
        if output_paths(raw).any(|p| p == tikz_rel) {
            continue;
        }
        let tikz = read_rendered(&tikz_rel, &raw.sha256)
            .map_err(|m| reject(format!("{tikz_rel}: {m}")))?;
        let copies = read_copies(&tikz, "tikz");
        check_copies(&copies, &want, &names, &edges)
            .map_err(|m| reject(format!("{tikz_rel}: {m}")))?;
    }
    Ok(Rederived {
        certified: 1,
        total: 1,
    })
}

/// One copy as drawn: its label (TeX), and per vertex index its name and whether it is marked;
/// its edges by vertex index.
#[derive(Default, Debug)]
struct Copy {
    label: Option<String>,
    vertices: BTreeMap<usize, (String, bool)>,
    edges: BTreeSet<(usize, usize)>,
}

/// The copies of a graph figure's DOT (`subgraph cluster_ID`, nodes `ID_vK` with `grundytex`
/// and `grundy marked`, edges `ID_vA -- ID_vB`) or TikZ (`% ID_vK` after each vertex node;
/// labels by their order, as the clusters are written).
fn read_copies(text: &str, as_tikz: &str) -> BTreeMap<String, Copy> {
    let mut copies: BTreeMap<String, Copy> = BTreeMap::new();
    let vertex = |name: &str| -> Option<(String, usize)> {
        let (id, k) = name.rsplit_once("_v")?;
        Some((id.to_string(), k.parse().ok()?))
    };
    if as_tikz.is_empty() {
        let mut cluster = None;
        for line in text.lines().map(str::trim) {
            if let Some(id) = line
                .strip_prefix("subgraph cluster_")
                .and_then(|r| r.strip_suffix(" {"))
            {
                cluster = Some(id.to_string());
                copies.entry(id.to_string()).or_default();
            } else if let (Some(c), Some(tex)) = (&cluster, line.strip_prefix("color=")) {
                if let Some(l) = attr(tex, "grundytex") {
                    copies.entry(c.clone()).or_default().label = Some(l.replace("\\\\", "\\"));
                }
            } else if let Some((a, b)) = line.split_once(" -- ") {
                let b = b.trim_end_matches(';');
                if let (Some((ia, ka)), Some((ib, kb))) = (vertex(a), vertex(b)) {
                    if ia == ib {
                        copies
                            .entry(ia)
                            .or_default()
                            .edges
                            .insert((ka.min(kb), ka.max(kb)));
                    }
                }
            } else if let Some((name, attrs)) = line.split_once(" [") {
                if let (Some((id, k)), Some(tex)) = (vertex(name), attr(attrs, "grundytex")) {
                    let marked = attrs.contains("grundy marked");
                    copies
                        .entry(id)
                        .or_default()
                        .vertices
                        .insert(k, (tex, marked));
                }
            }
        }
        return copies;
    }
    let lines: Vec<&str> = text.lines().collect();
    let mut by_tikz: HashMap<String, (String, usize)> = HashMap::new();
    let mut labels = Vec::new();
    for (k, line) in lines.iter().enumerate() {
        if let Some(l) = line
            .strip_prefix("\\node[grundy cluster label]")
            .and_then(|r| r.split_once("{$"))
            .and_then(|(_, r)| r.rsplit_once("$}"))
        {
            labels.push(l.0.to_string());
            continue;
        }
        let Some(rest) = line.strip_prefix("\\node[") else {
            continue;
        };
        let Some((style, r)) = rest.split_once("] (") else {
            continue;
        };
        let Some((tik, r)) = r.split_once(')') else {
            continue;
        };
        let dot_name = lines
            .get(k + 1)
            .and_then(|l| l.strip_prefix(&format!("\\grundyfits{{{tik}}}")))
            .and_then(|l| l.split_once("% "))
            .map(|(_, n)| n.trim());
        let (Some(dot_name), Some(tex)) = (
            dot_name,
            r.split_once("{$").and_then(|(_, t)| t.rsplit_once("$}")),
        ) else {
            continue;
        };
        if let Some((id, v)) = vertex(dot_name) {
            by_tikz.insert(tik.to_string(), (id.clone(), v));
            copies
                .entry(id)
                .or_default()
                .vertices
                .insert(v, (tex.0.to_string(), style.contains("grundy marked")));
        }
    }
    for line in &lines {
        let Some(path) = line.strip_prefix("\\draw[grundy line] (") else {
            continue;
        };
        let ends: Vec<&str> = path
            .split('(')
            .map(|x| x.split(')').next().unwrap_or(""))
            .collect();
        if let (Some(a), Some(b)) = (
            ends.first().and_then(|t| by_tikz.get(*t)),
            ends.last().and_then(|t| by_tikz.get(*t)),
        ) {
            if a.0 == b.0 {
                copies
                    .entry(a.0.clone())
                    .or_default()
                    .edges
                    .insert((a.1.min(b.1), a.1.max(b.1)));
            }
        }
    }
    // The TikZ writes the clusters' labels in the clusters' order, which is the order their
    // vertices follow in.
    let mut ids: Vec<String> = Vec::new();
    for line in &lines {
        if let Some(dot_name) = line.split_once("% ").map(|(_, n)| n.trim()) {
            if let Some((id, _)) = vertex(dot_name) {
                if !ids.contains(&id) {
                    ids.push(id);
                }
            }
        }
    }
    for (id, l) in ids.iter().zip(labels) {
        copies.entry(id.clone()).or_default().label = Some(l);
    }
    copies
}

/// Every copy drawn is one the families give, with the graph's names, edges and the member
/// marked, and its label naming the family and the member.
fn check_copies(
    copies: &BTreeMap<String, Copy>,
    want: &[(String, String, BTreeSet<String>)],
    names: &[String],
    edges: &BTreeSet<(usize, usize)>,
) -> Result<(), String> {
    if copies.len() != want.len() {
        return Err(format!(
            "it draws {} copies of the graph, the families have {} members",
            copies.len(),
            want.len()
        ));
    }
    for (id, family, member) in want {
        let c = copies
            .get(id)
            .ok_or_else(|| format!("the copy {id} is not drawn"))?;
        let drawn: Vec<String> = c.vertices.values().map(|(t, _)| plain(t)).collect();
        let own: Vec<String> = names.iter().map(|t| plain(t)).collect();
        if drawn != own || c.vertices.keys().copied().ne(0..names.len()) {
            return Err(format!(
                "the copy {id} names its vertices {drawn:?}, the graph's are {own:?}"
            ));
        }
        if c.edges != *edges {
            return Err(format!("the copy {id} draws other edges than the graph's"));
        }
        let marked: BTreeSet<String> = c
            .vertices
            .values()
            .filter(|(_, m)| *m)
            .map(|(t, _)| plain(t))
            .collect();
        let member: &BTreeSet<String> = &member.iter().map(|t| plain(t)).collect();
        if marked != *member {
            return Err(format!(
                "the copy {id} marks {marked:?}, the member of {family} is {member:?}"
            ));
        }
        let symbol = match family.as_str() {
            "G" => "\\mathcal{G} ",
            "N" => "\\mathcal{N} ",
            "G*" => "\\mathcal{G}^{*} ",
            _ => "\\mathcal{N}^{*} ",
        };
        let label = c.label.as_deref().unwrap_or("");
        let shown: Option<BTreeSet<String>> = label
            .strip_prefix(symbol)
            .and_then(|r| r.split_once("\\ni"))
            .map(|(_, set)| {
                set.trim()
                    .trim_start_matches("\\{")
                    .trim_end_matches("\\}")
                    .split(',')
                    .map(plain)
                    .filter(|x| !x.is_empty())
                    .collect()
            });
        if shown.as_ref() != Some(member) {
            return Err(format!(
                "the copy {id} is labelled `{label}`, the member of {family} is {member:?}"
            ));
        }
    }
    Ok(())
}

/// A vertex name with TeX grouping and spacing dropped (`v_{1}` reads as `v1`).
fn plain(t: &str) -> String {
    t.replace("\\mathrm", "")
        .chars()
        .filter(|c| !matches!(c, '{' | '}' | '_' | ' ' | '\\'))
        .collect()
}

/// A class node's order and type (|I|, pty(I), a, b), as the structure diagram prints it.
type Key = (usize, u32, u32, u32);

/// A structure diagram (docs/design.md §9, "The structure diagram as a figure"): one node per
/// structure class reachable from the start (per orbit of classes under conjugacy with
/// `up_to: conjugacy`, the node printing how many), each with its order |I| and type
/// (pty(I), a, b): the nim-values of the class's positions P with |P| even and odd; an arrow
/// for each move between classes; in an achievement game a shaded terminal node of value 0
/// with an arrow from every class a move can leave. The verifier builds the game, 𝓜 and the
/// classes itself ([`crate::closure::structure_classes`]), checks the spec's `classes:` and
/// `nim:`, and reads the DOT and TikZ. It does not compute conjugacy: the nodes' orders and
/// types must tell them apart (two nodes of one order and type are not read), and then each
/// node's classes are all the classes of its order and type, whose number its multiplicity
/// must be; the arrows are read between orders and types. The class names (`Z_6`, `⟨…⟩`)
/// are not read.
fn structure_figure(raw: &Raw, text: &FigureText, name: &str) -> Result<Rederived, Stop> {
    let game = crate::closure::parse(name, raw.closure.as_deref())
        .ok_or_else(|| Stop::Not(format!("{name} is not a closure game")))?
        .map_err(Stop::Not)?;
    let (n, facets, achievement) = game
        .facets()
        .ok_or_else(|| Stop::Not(format!("the maximal legal sets of {name}")))?;
    if facets.is_empty() {
        return Err(Stop::Not(format!("{name} has no legal move")));
    }
    let classes = crate::closure::structure_classes(n, &facets, achievement, 100_000)
        .ok_or_else(|| Stop::Not(format!("more than 100000 structure classes of {name}")))?;
    let key = |c: &crate::closure::StructureClass| -> Result<Key, Stop> {
        if c.size == 0 {
            return Err(Stop::Not("a class of no elements".into()));
        }
        // f(I, k) at |P| = |I| − k even, then odd (k ≥ 1 for one of them).
        let at = |parity: usize| {
            (0..=c.size)
                .rev()
                .find(|k| (c.size - k) % 2 == parity)
                .map(|k| c.values[k])
        };
        Ok((
            c.size,
            (c.size % 2) as u32,
            at(0).unwrap_or(0),
            at(1).unwrap_or(0),
        ))
    };
    let keys: Vec<Key> = classes.iter().map(key).collect::<Result<_, _>>()?;
    let mut count: BTreeMap<Key, u64> = BTreeMap::new();
    for k in &keys {
        *count.entry(*k).or_default() += 1;
    }
    let conjugacy = match text.up_to.as_deref() {
        None => false,
        Some("conjugacy") => true,
        Some(u) => return Err(Stop::Not(format!("`up_to: {u}`"))),
    };
    let nodes_wanted = if conjugacy {
        None
    } else {
        Some(classes.len() as u64)
    };
    let start = &classes[0];
    let start_value = start.values[start.size];
    if text.nim.is_some_and(|v| v != u64::from(start_value)) {
        return Err(reject(format!(
            "the spec states nim({name}) = {}, the verifier's is {start_value}",
            text.nim.unwrap_or(0)
        )));
    }
    let mut moves: BTreeSet<(Key, Key)> = BTreeSet::new();
    let mut ends: BTreeSet<Key> = BTreeSet::new();
    for (c, k) in classes.iter().zip(&keys) {
        for &t in &c.moves {
            moves.insert((*k, keys[t]));
        }
        if c.ends && achievement {
            ends.insert(*k);
        }
    }
    let outputs: Vec<String> = outputs(raw)
        .filter(|&(t, p)| t == "structure.dot" && p.ends_with(".dot"))
        .map(|(_, p)| p.to_string())
        .collect();
    if outputs.is_empty() {
        return Err(Stop::Not(
            "the figure is rendered through no built-in `structure.dot`".into(),
        ));
    }
    for rel in outputs {
        let dot = read_rendered(&rel, &raw.sha256).map_err(|m| reject(format!("{rel}: {m}")))?;
        let drawn = read_structure_dot(&dot).map_err(|m| reject(format!("{rel}: {m}")))?;
        let m = |e: String| reject(format!("{rel}: {e}"));
        let node_count = drawn.nodes.len() as u64;
        if text.classes.is_some_and(|c| c != node_count)
            || nodes_wanted.is_some_and(|c| c != node_count)
        {
            return Err(m(format!(
                "it draws {node_count} class nodes; the spec states {:?}, the verifier finds {} classes",
                text.classes,
                classes.len()
            )));
        }
        let mut by_key: BTreeMap<Key, (String, u64)> = BTreeMap::new();
        for (id, (k, mult)) in &drawn.nodes {
            if *mult > 1 && !conjugacy {
                return Err(m(format!(
                    "node {id} stands for {mult} classes without `up_to`"
                )));
            }
            if by_key.insert(*k, (id.clone(), *mult)).is_some() {
                return Err(Stop::Not(format!(
                    "{rel}: two nodes of order and type {k:?} (the verifier does not compute conjugacy)"
                )));
            }
        }
        let shown: BTreeMap<Key, u64> = by_key.iter().map(|(k, (_, c))| (*k, *c)).collect();
        if shown != count {
            return Err(m(format!(
                "its nodes' orders, types and multiplicities {shown:?} are not the classes' {count:?}"
            )));
        }
        if drawn
            .start
            .as_ref()
            .and_then(|s| drawn.nodes.get(s))
            .map(|(k, _)| *k)
            != Some(keys[0])
        {
            return Err(m(format!(
                "its start node is not the class of ⋂𝓜, of order and type {:?}",
                keys[0]
            )));
        }
        let key_of = |id: &str| drawn.nodes.get(id).map(|(k, _)| *k);
        let mut arrows = BTreeSet::new();
        let mut to_end = BTreeSet::new();
        for (a, b) in &drawn.arrows {
            let ka = key_of(a).ok_or_else(|| m(format!("an arrow from {a}, not a class node")))?;
            if Some(b) == drawn.terminal.as_ref() {
                to_end.insert(ka);
            } else {
                let kb =
                    key_of(b).ok_or_else(|| m(format!("an arrow to {b}, not a class node")))?;
                arrows.insert((ka, kb));
            }
        }
        if arrows != moves {
            return Err(m(format!(
                "its arrows between classes are not the moves: drawn {arrows:?}, the moves {moves:?}"
            )));
        }
        if to_end != ends || drawn.terminal.is_some() != achievement {
            return Err(m(
                "its terminal node or the arrows into it are not the classes a move can leave"
                    .into(),
            ));
        }
        // The TikZ prints each node's order and type, and the terminal node's value, as the DOT.
        let tikz_rel = format!("{}.tikz.tex", rel.trim_end_matches(".dot"));
        if output_paths(raw).any(|p| p == tikz_rel) {
            continue;
        }
        let tikz = read_rendered(&tikz_rel, &raw.sha256)
            .map_err(|m| reject(format!("{tikz_rel}: {m}")))?;
        let mut seen = 0;
        let lines: Vec<&str> = tikz.lines().collect();
        for (k, line) in lines.iter().enumerate() {
            let Some(name) = lines
                .get(k + 1)
                .filter(|_| line.starts_with("\\node["))
                .and_then(|l| l.split_once("% "))
                .map(|(_, n)| n.trim())
            else {
                continue;
            };
            if let Some((key, _)) = drawn.nodes.get(name) {
                let note = format!("|I| = {}, ({}, {}, {})", key.0, key.1, key.2, key.3);
                if !line.contains(&note) {
                    return Err(reject(format!(
                        "{tikz_rel}: node {name} does not print {note}"
                    )));
                }
                seen += 1;
            } else if Some(name) == drawn.terminal.as_deref() && !line.contains("$\\mathbf{0}$") {
                return Err(reject(format!(
                    "{tikz_rel}: the terminal node does not print 0"
                )));
            }
        }
        if seen != drawn.nodes.len() {
            return Err(reject(format!(
                "{tikz_rel}: it draws {seen} of the {} class nodes",
                drawn.nodes.len()
            )));
        }
    }
    Ok(Rederived {
        certified: 1,
        total: 1,
    })
}

/// A structure diagram's DOT as drawn.
struct StructureDot {
    /// Class node id → (order and type, multiplicity).
    nodes: BTreeMap<String, (Key, u64)>,
    start: Option<String>,
    terminal: Option<String>,
    arrows: Vec<(String, String)>,
}

fn read_structure_dot(dot: &str) -> Result<StructureDot, String> {
    let mut out = StructureDot {
        nodes: BTreeMap::new(),
        start: None,
        terminal: None,
        arrows: Vec::new(),
    };
    for line in dot.lines().map(str::trim) {
        if line.starts_with("//") {
            continue;
        }
        if let Some(pair) = dot_arrow(line) {
            out.arrows.push(pair);
            continue;
        }
        let Some((id, attrs)) = line.split_once(" [") else {
            continue;
        };
        let Some(style) = attr(attrs, "grundystyle") else {
            continue;
        };
        if !style.contains("grundy square") {
            continue;
        }
        if style.contains("grundy shaded") {
            if attr(attrs, "grundynim").as_deref() != Some("0") || out.terminal.is_some() {
                return Err(format!("the terminal node {id} is not one node of value 0"));
            }
            out.terminal = Some(id.to_string());
            continue;
        }
        let note =
            attr(attrs, "grundynote").ok_or_else(|| format!("node {id} has no order and type"))?;
        let nums: Vec<u64> = note
            .split(|c: char| !c.is_ascii_digit())
            .filter(|x| !x.is_empty())
            .map(|x| x.parse().unwrap_or(u64::MAX))
            .collect();
        let [size, pty, a, b] = nums[..] else {
            return Err(format!("node {id}'s note `{note}` is not |I| and a type"));
        };
        let small = |x: u64| u32::try_from(x).map_err(|_| format!("node {id}'s note `{note}`"));
        let key = (
            usize::try_from(size).map_err(|_| format!("node {id}'s note `{note}`"))?,
            small(pty)?,
            small(a)?,
            small(b)?,
        );
        let tooltip = attr(attrs, "tooltip").unwrap_or_default();
        let mult = match tooltip.split_once("(×") {
            Some((_, r)) => r
                .split(')')
                .next()
                .and_then(|x| x.parse().ok())
                .ok_or_else(|| format!("node {id}'s multiplicity in `{tooltip}`"))?,
            None => 1,
        };
        if style.contains("grundy start") {
            out.start = Some(id.to_string());
        }
        out.nodes.insert(id.to_string(), (key, mult));
    }
    Ok(out)
}
