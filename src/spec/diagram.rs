//! `kind: diagram` specs (paper Remark 5.34, docs/design.md §3): the raw YAML structs and their
//! validation into [`crate::check::diagram::Diagram`]. The structure of the diagram is
//! validated here (which nodes are P- or N-nodes, where arrows may leave from, sinks); the
//! mathematics is checked by the checker.

use super::header::RawHeader;
use super::raw::{RawRange, Sp};
use super::{
    closure_of, expectation, formula, outputs, params, probe_game, Source, Spec, SpecError,
};
use crate::check::diagram::{
    Arrow, Diagram, MoveKind, Node, Sink, StartGen, StartPositions, Style,
};
use indexmap::IndexMap;
use schemars::JsonSchema;
use serde::Deserialize;

/// `kind: diagram`: a case analysis diagram checked as a winning strategy for the second
/// player from every start position.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawDiagram {
    /// The paper's figure number, e.g. "5.11".
    #[serde(default)]
    pub figure: Option<String>,
    /// The paper's letter for the diagram, e.g. "C" (start markers are drawn "(C.1)").
    #[serde(default)]
    pub letter: Option<String>,
    /// The title: text with the paper's notation (`W_{m,n}`), math in `$…$` as LaTeX.
    #[serde(default)]
    pub title: Option<String>,
    /// The caption, as LaTeX text (math in `$…$`); default: derived from the title.
    #[serde(default)]
    pub caption: Option<Sp<String>>,
    /// Generators of start positions.
    pub starts: Vec<RawStart>,
    /// Nodes by name (letters, digits, `_`).
    pub nodes: IndexMap<String, RawNode>,
    pub arrows: Vec<RawArrow>,
}

/// Start positions: the start of `game` for every instance of `params` (or, with
/// `positions: reachable`, every reachable position), selected by `where`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawStart {
    pub game: Sp<String>,
    #[serde(default)]
    pub closure: Option<Sp<String>>,
    #[serde(default)]
    pub params: IndexMap<String, Sp<RawRange>>,
    #[serde(default, rename = "where")]
    pub filter: Option<Sp<String>>,
    /// `start` (default) or `reachable`.
    #[serde(default)]
    pub positions: Option<Sp<String>>,
    /// Why no start position reaches this part (docs/design.md §2); without it, a part of the
    /// diagram that no start position reaches makes the diagram fail.
    #[serde(default)]
    pub unreached: Option<String>,
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawNode {
    /// The paper's notation, e.g. "(c, λ^{c+2}_0)".
    pub label: String,
    /// Predicate over the position's features.
    pub when: Sp<String>,
    /// Start marker number: start positions begin here.
    #[serde(default)]
    pub start: Option<u32>,
    /// `terminal`, `"*0"`, or `{diagram: <spec id>, start: <marker>}`.
    #[serde(default)]
    pub sink: Option<Sp<RawSink>>,
    /// Why no start position reaches this part (docs/design.md §2); without it, a part of the
    /// diagram that no start position reaches makes the diagram fail.
    #[serde(default)]
    pub unreached: Option<String>,
    /// The label as TeX math for the TikZ figure (default: derived from `label`).
    #[serde(default)]
    pub tex: Option<Sp<String>>,
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum RawSink {
    Word(String),
    Ref(RawSinkRef),
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawSinkRef {
    pub diagram: String,
    #[serde(default)]
    pub start: Option<u32>,
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawArrow {
    pub from: Sp<String>,
    pub to: Sp<String>,
    /// `single` (first player), `double` (second player), `dashed` or `dotted` (replies
    /// available later).
    pub style: Sp<String>,
    /// `any` (default), `dehub`, `split` or `heap` (a move in a nimber).
    #[serde(default, rename = "move")]
    pub kind: Option<Sp<String>>,
    /// Why no start position reaches this part (docs/design.md §2); without it, a part of the
    /// diagram that no start position reaches makes the diagram fail.
    #[serde(default)]
    pub unreached: Option<String>,
}

fn is_name(s: &str) -> bool {
    s.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

pub(crate) fn validate_diagram(
    src: &Source,
    id: &str,
    h: &RawHeader,
    r: RawDiagram,
) -> Result<Spec, SpecError> {
    if r.starts.is_empty() {
        return Err(src.error(
            &h.kind,
            "a diagram needs `starts`: where its start positions come from",
            Some("e.g. starts: [{game: \"SPL(c,[lam])\", params: {...}, where: \"...\"}]".into()),
        ));
    }
    let mut starts = Vec::new();
    for s in &r.starts {
        let closure = closure_of(src, &s.closure)?;
        super::closure_as_stated(src, h, closure, &s.closure)?;
        let ps = params(src, &s.params)?;
        let features = probe_game(src, &s.game, &ps, closure)?;
        super::no_shadowing(
            src,
            &s.game,
            &features,
            s.params.iter().map(|(k, v)| ("parameter", k.as_str(), v)),
        )?;
        let positions = match s.positions.as_ref().map(|p| p.value().as_str()) {
            None | Some("start") => StartPositions::Start,
            Some("reachable") => StartPositions::Reachable,
            Some(other) => {
                return Err(src.error(
                    s.positions.as_ref().expect("matched Some"),
                    format!("unknown positions `{other}`"),
                    Some("expected `start` or `reachable`".into()),
                ))
            }
        };
        starts.push(StartGen {
            game: s.game.value().clone(),
            game_loc: src.loc(&s.game),
            closure,
            params: ps,
            filter: s.filter.as_ref().map(|f| formula(src, f)).transpose()?,
            filter_loc: s
                .filter
                .as_ref()
                .map_or_else(|| src.loc(&s.game), |f| src.loc(f)),
            positions,
            unreached: s.unreached.clone(),
        });
    }
    let names: Vec<&String> = r.nodes.keys().collect();
    let index = |at: &Sp<String>| -> Result<usize, SpecError> {
        names.iter().position(|n| *n == at.value()).ok_or_else(|| {
            src.error(
                at,
                format!("unknown node `{}`", at.value()),
                Some(format!(
                    "nodes: {}",
                    names
                        .iter()
                        .map(|s| s.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                )),
            )
        })
    };
    let mut arrows = Vec::new();
    for a in &r.arrows {
        let style = match a.style.value().as_str() {
            "single" => Style::Single,
            "double" => Style::Double,
            "dashed" => Style::Dashed,
            "dotted" => Style::Dotted,
            other => {
                return Err(src.error(
                    &a.style,
                    format!("unknown arrow style `{other}`"),
                    Some("expected single, double, dashed or dotted".into()),
                ))
            }
        };
        let kind = match a.kind.as_ref().map(|k| k.value().as_str()) {
            None | Some("any") => MoveKind::Any,
            Some("dehub") => MoveKind::Dehub,
            Some("split") => MoveKind::Split,
            Some("heap") => MoveKind::Heap,
            Some(other) => {
                return Err(src.error(
                    a.kind.as_ref().expect("matched Some"),
                    format!("unknown move kind `{other}`"),
                    Some("expected any, dehub, split or heap".into()),
                ))
            }
        };
        arrows.push((
            Arrow {
                from: index(&a.from)?,
                to: index(&a.to)?,
                style,
                kind,
                unreached: a.unreached.clone(),
            },
            a,
        ));
    }
    let mut nodes = Vec::new();
    for (i, (name, n)) in r.nodes.iter().enumerate() {
        if !is_name(name) {
            return Err(src.error(
                &n.when,
                format!("bad node name `{name}`"),
                Some("a node name is a letter followed by letters, digits or _".into()),
            ));
        }
        let sink = match &n.sink {
            None => None,
            Some(s) => Some(match s.value() {
                RawSink::Word(w) if w == "terminal" => Sink::Terminal,
                RawSink::Word(w) if w == "*0" => Sink::Zero,
                RawSink::Word(w) => {
                    return Err(src.error(
                        s,
                        format!("unknown sink `{w}`"),
                        Some("expected `terminal`, `\"*0\"` or `{diagram: <spec id>}`".into()),
                    ))
                }
                RawSink::Ref(rf) => {
                    if rf.diagram == id {
                        return Err(src.error(s, "a diagram cannot refer to itself", None));
                    }
                    Sink::Ref {
                        diagram: rf.diagram.clone(),
                        start: rf.start,
                    }
                }
            }),
        };
        let targeted_by_reply = arrows.iter().any(|(a, _)| a.to == i && a.style.is_reply());
        let targeted_by_single = arrows.iter().any(|(a, _)| a.to == i && !a.style.is_reply());
        let p_node = n.start.is_some() || sink.is_some() || targeted_by_reply;
        if p_node && targeted_by_single {
            return Err(src.error(
                &n.when,
                format!("node `{name}` is the target of both a single arrow (first player) and a start marker, sink or reply arrow (second player)"),
                None,
            ));
        }
        if !p_node && !targeted_by_single {
            return Err(src.error(
                &n.when,
                format!("node `{name}` is not a start node and no arrow points to it"),
                None,
            ));
        }
        if sink.is_some() && arrows.iter().any(|(a, _)| a.from == i) {
            return Err(src.error(&n.when, format!("sink `{name}` has outgoing arrows"), None));
        }
        if !p_node && !arrows.iter().any(|(a, _)| a.from == i) {
            return Err(src.error(
                &n.when,
                format!("node `{name}` is reached by the first player but has no reply arrow"),
                None,
            ));
        }
        if let Some(t) = &n.tex {
            crate::text::texlabel::validate(t.value())
                .map_err(|m| src.error(t, format!("node {name}: {m}"), None))?;
        }
        nodes.push(Node {
            name: name.clone(),
            label: n.label.clone(),
            tex: n.tex.as_ref().map(|t| t.value().clone()),
            when: formula(src, &n.when)?,
            when_loc: src.loc(&n.when),
            start: n.start,
            sink,
            p_node,
            unreached: n.unreached.clone(),
        });
    }
    for (a, raw) in &arrows {
        let from = &nodes[a.from];
        if a.style.is_reply() && from.p_node {
            return Err(src.error(
                &raw.from,
                format!(
                    "reply arrow from `{}`, where the first player is to move",
                    from.name
                ),
                Some(
                    "replies (double, dashed, dotted) leave nodes reached by single arrows".into(),
                ),
            ));
        }
        if !a.style.is_reply() && !from.p_node {
            return Err(src.error(
                &raw.from,
                format!(
                    "single arrow from `{}`, where the second player is to move",
                    from.name
                ),
                Some("single arrows leave start nodes and targets of replies".into()),
            ));
        }
    }
    if !nodes.iter().any(|n| n.start.is_some()) {
        return Err(src.error(
            &h.kind,
            "a diagram needs at least one start node (`start: 1`)",
            None,
        ));
    }
    // Math in `$…$` is copied into the caption as LaTeX: checked as a figure's caption is.
    let tex_text = |text: &str| {
        crate::text::texlabel::validate_text(text)
            .err()
            .or_else(|| {
                text.match_indices('%')
                    .any(|(k, _)| !text[..k].ends_with('\\'))
                    .then(|| "write `\\%` for a percent sign".to_string())
            })
    };
    if let Some(c) = &r.caption {
        if let Some(why) = tex_text(c.value()) {
            return Err(src.error(c, format!("caption: {why}"), None));
        }
    }
    if let Some(why) = r
        .title
        .as_deref()
        .filter(|t| t.contains('$'))
        .and_then(tex_text)
    {
        return Err(src.error(&h.kind, format!("title: {why}"), None));
    }
    let diagram = Diagram {
        id: id.to_string(),
        file: src.file.to_string(),
        source: h.source.value().clone(),
        figure: r.figure.clone(),
        letter: r.letter.clone(),
        title: r.title.clone(),
        caption: r.caption.as_ref().map(|c| c.value().clone()),
        notes: h.notes.clone(),
        expect: expectation(src, h)?,
        starts,
        nodes,
        arrows: arrows.into_iter().map(|(a, _)| a).collect(),
        loc: src.loc(&h.kind),
    };
    Ok(Spec::new(diagram, outputs(src, &h.output)?))
}
