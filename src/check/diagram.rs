//! `kind: diagram` (docs/design.md §3): case analysis diagrams in the sense of paper Remark 5.34,
//! checked as winning strategies for the second player, and the view they are drawn from
//! (Figures 5.8–5.15: Example 5.35, Lemmas 5.36–5.42, Theorem 5.43).
//!
//! Nodes are families of positions given by predicates over position features. P-nodes (the
//! first player to move) are start nodes, targets of reply arrows (double, dashed, dotted) and
//! sinks; N-nodes are targets of single arrows. The diagram is valid on its instance range iff,
//! exploring from every start position: (a) every position met at a P-node satisfies the
//! node's predicate (replies are only chosen into targets whose predicate holds, start
//! positions must satisfy a start node); (b) every option of a position at a non-sink P-node
//! satisfies the predicate of a target of the node's single arrows and is valid there
//! (coverage); (c) every position at an N-node has an option satisfying the predicate of a
//! target of its reply arrows that is valid there (reply); (d) every position at a sink is
//! terminal, has nim-value 0 by the solver (`*0`), or was validated as a start
//! position of another diagram (by reference; references are acyclic). Arrows marked `dehub`,
//! `split` or `heap` only stand for moves of that kind.
//!
//! Validity of a (node, position) pair depends only on later positions, so the search is a
//! memoised AND–OR recursion over a finite acyclic game: it terminates even when the diagram
//! has cycles, because every move changes the position. After a success every position the
//! strategy meets at a P-node is cross-checked to have nim-value 0 (and at an N-node a nonzero
//! value) by the solver; a disagreement is reported as a refutation, never silently accepted.
//! The values are the exhaustive solver's; past its reach, a closure game's or a graph's
//! removing game's structure classes give them (docs/design.md §9), the walk is bounded by
//! [`PAST_REACH_PAIRS`], and the report says the verdict rests on them.

use super::formula::{value_to_dynamic, Env, Formula};
use super::{
    at_instance, describe_instance, describe_range, instances, instantiate, CheckError,
    Counterexample, Expectation, Instance, Loc, Param, PartCoverage, Report, Verdict,
};
use crate::expr::{parse_game, ParseOptions};
use crate::game::{AnyGame, AnyPos, Features, Game, Value};
use crate::graph::Closure;
use crate::solve::Solver;
use rustc_hash::{FxHashMap, FxHashSet};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

/// How an arrow is drawn (Remark 5.34). Single arrows are the first player's moves; the
/// others are the second player's replies (dashed and dotted ones become available later,
/// which for the checker makes no difference).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Style {
    Single,
    Double,
    Dashed,
    Dotted,
}

impl Style {
    pub fn is_reply(self) -> bool {
        self != Style::Single
    }
}

/// The kind of move an arrow stands for (the paper colours dehubs and splits apart).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MoveKind {
    Any,
    /// SPL: a central vertex is selected (c decreases).
    Dehub,
    /// SPL: a rim vertex is selected (a part of λ is split).
    Split,
    /// A move in a nimber component of a sum.
    Heap,
}

impl MoveKind {
    fn name(self) -> &'static str {
        match self {
            MoveKind::Any => "any",
            MoveKind::Dehub => "dehub",
            MoveKind::Split => "split",
            MoveKind::Heap => "heap",
        }
    }
}

/// What makes a sink a known losing position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sink {
    Terminal,
    /// Known losing: checked by exhaustive solving.
    Zero,
    /// In the start family of another diagram (optionally of one start marker), which must
    /// itself be checked valid.
    Ref {
        diagram: String,
        start: Option<u32>,
    },
}

#[derive(Clone, Debug)]
pub struct Node {
    pub name: String,
    /// The label as TeX math, when the spec gives one (`tex:`).
    pub tex: Option<String>,
    /// The paper's notation, e.g. "(c, λ^{c+2}_0)".
    pub label: String,
    pub when: Formula,
    pub when_loc: Loc,
    /// Start marker number.
    pub start: Option<u32>,
    pub sink: Option<Sink>,
    /// First player to move.
    pub p_node: bool,
    /// The spec's reason why no start position reaches this part.
    pub unreached: Option<String>,
}

#[derive(Clone, Debug)]
pub struct Arrow {
    pub from: usize,
    pub to: usize,
    pub style: Style,
    pub kind: MoveKind,
    /// The spec's reason why no start position reaches this part.
    pub unreached: Option<String>,
}

/// Which positions of a start game are start positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StartPositions {
    /// The start position of each instance.
    Start,
    /// Every position reachable from the instance's start that satisfies `where`.
    Reachable,
}

/// A generator of start positions: a game template over finite parameter ranges.
#[derive(Clone, Debug)]
pub struct StartGen {
    pub game: String,
    pub game_loc: Loc,
    pub closure: Closure,
    pub params: Vec<Param>,
    pub filter: Option<Formula>,
    pub filter_loc: Loc,
    pub positions: StartPositions,
    /// The spec's reason why no start position reaches this part.
    pub unreached: Option<String>,
}

/// A validated diagram spec.
#[derive(Clone, Debug)]
pub struct Diagram {
    pub id: String,
    pub file: String,
    pub source: String,
    pub figure: Option<String>,
    /// The paper's letter, e.g. "A".
    pub letter: Option<String>,
    pub title: Option<String>,
    /// The spec's `caption:` (LaTeX, checked when read), printed instead of the title's.
    pub caption: Option<String>,
    pub notes: Option<String>,
    pub expect: Expectation,
    pub starts: Vec<StartGen>,
    pub nodes: Vec<Node>,
    pub arrows: Vec<Arrow>,
    pub loc: Loc,
}

/// A position identified across games: the game family whose options do not depend on the
/// instance, and the position. Sums are flattened and `*0` components dropped, so that
/// `(3,[]) + *0` and `(3,[])` are the same position.
pub type Key = (String, AnyPos);

/// The start family a checked diagram vouches for.
#[derive(Clone, Debug, Default)]
pub struct Family {
    pub valid: bool,
    /// How the paper refers to the diagram: "(A)", or its source when it has no letter.
    pub label: String,
    pub letter: Option<String>,
    pub range: String,
    /// Start positions and the start marker of the node they were validated at.
    pub members: FxHashMap<Key, Vec<u32>>,
}

/// The result of checking one diagram.
#[derive(Clone, Debug)]
pub struct Checked {
    pub report: Report,
    pub view: DiagramView,
    pub family: Arc<Family>,
}

/// A node as drawn and explained.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct NodeView {
    pub name: String,
    pub label: String,
    /// The spec's `tex:` label, if any (templates derive one from `label` otherwise).
    #[serde(default)]
    pub tex: Option<String>,
    pub when: String,
    pub player: String,
    pub start: Option<u32>,
    /// The paper's start marker, e.g. "(A.1)".
    pub start_label: Option<String>,
    /// "terminal", "*0" or a reference such as "(A.2)".
    pub sink: Option<String>,
    /// Distinct positions the strategy meets at this node.
    pub positions: u64,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ArrowView {
    pub from: String,
    pub to: String,
    pub style: Style,
    #[serde(rename = "move")]
    pub kind: MoveKind,
}

/// The serialisable view of a checked diagram (for templates and `--explain`).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct DiagramView {
    pub id: String,
    pub source: String,
    pub figure: Option<String>,
    pub letter: Option<String>,
    pub title: Option<String>,
    /// The spec's `caption:` (LaTeX), which the gallery prints instead of the title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub caption: Option<String>,
    pub range: String,
    pub holds: bool,
    pub start_positions: u64,
    pub positions: u64,
    pub nodes: Vec<NodeView>,
    pub arrows: Vec<ArrowView>,
}

/// `--explain`: the strategy as the checker saw it, a line per node.
pub fn explain(v: &DiagramView) -> String {
    // English counts: "1 start position", "2 start positions".
    let n = |k: usize, what: &str| format!("{k} {what}{}", if k == 1 { "" } else { "s" });
    let mut out = format!(
        "{} ({}): {}, {}\n",
        v.id,
        v.source,
        n(v.start_positions as usize, "start position"),
        n(v.positions as usize, "(node, position) pair")
    );
    for node in &v.nodes {
        let mut tags = vec![format!("{}-node", node.player)];
        if let Some(s) = &node.start_label {
            tags.push(format!("start {s}"));
        }
        if let Some(s) = &node.sink {
            tags.push(format!("sink {s}"));
        }
        out.push_str(&format!(
            "  {:<6} {:<28} {:>17}  [{}]  when {}\n",
            node.name,
            node.label,
            n(node.positions as usize, "position"),
            tags.join(", "),
            node.when
        ));
    }
    for a in &v.arrows {
        out.push_str(&format!(
            "  {} -> {} ({:?}, {})\n",
            a.from,
            a.to,
            a.style,
            a.kind.name()
        ));
    }
    out
}

/// The instance-independent family of a game: positions of these games have options that do
/// not depend on where the game was started, so exploration memoises across instances.
fn universe(g: &AnyGame) -> String {
    match g {
        AnyGame::Spl(_) => "SPL".into(),
        AnyGame::Nimber(_) => "*".into(),
        AnyGame::Sum(parts) => {
            let u: Vec<String> = parts.iter().map(universe).collect();
            format!("sum[{}]", u.join(";"))
        }
        // Everything else is identified by its whole structure (graph, closure, rule…), so
        // that two games share memoised results only when they are the same game.
        other => format!("{other:?}"),
    }
}

fn flatten<'a>(g: &'a AnyGame, p: &'a AnyPos, out: &mut Vec<(&'a AnyGame, &'a AnyPos)>) {
    match (g, p) {
        (AnyGame::Sum(parts), AnyPos::Sum(ps)) => {
            for (h, q) in parts.iter().zip(ps) {
                flatten(h, q, out);
            }
        }
        (AnyGame::Nimber(_), AnyPos::Nim(0)) => {}
        _ => out.push((g, p)),
    }
}

/// The position as a member of a start family (see [`Key`]).
pub fn key(g: &AnyGame, p: &AnyPos) -> Key {
    let mut comps = Vec::new();
    flatten(g, p, &mut comps);
    match comps.as_slice() {
        [] => ("*".into(), AnyPos::Nim(0)),
        [(h, q)] => (universe(h), (*q).clone()),
        many => {
            let u: Vec<String> = many.iter().map(|(h, _)| universe(h)).collect();
            let ps: Vec<AnyPos> = many.iter().map(|(_, q)| (*q).clone()).collect();
            (format!("sum[{}]", u.join(";")), AnyPos::Sum(ps))
        }
    }
}

/// Features for node predicates: the game's own features, and for a sum of one game with
/// nimbers also that game's features unprefixed and `nimber`, the XOR of the nimber heaps
/// (so that `(c, λ) + *k` reads `c`, `size`, …, `nimber`).
pub fn features(g: &AnyGame, p: &AnyPos) -> Features {
    let mut f = g.features(p);
    let mut comps = Vec::new();
    let mut nimber = 0i64;
    collect_parts(g, p, &mut comps, &mut nimber);
    if comps.len() == 1 && matches!(g, AnyGame::Sum(_)) {
        let (h, q) = comps[0];
        for (k, v) in h.features(q) {
            f.entry(k).or_insert(v);
        }
    }
    f.insert("nimber".into(), Value::Int(nimber));
    f
}

fn collect_parts<'a>(
    g: &'a AnyGame,
    p: &'a AnyPos,
    out: &mut Vec<(&'a AnyGame, &'a AnyPos)>,
    nimber: &mut i64,
) {
    match (g, p) {
        (AnyGame::Sum(parts), AnyPos::Sum(ps)) => {
            for (h, q) in parts.iter().zip(ps) {
                collect_parts(h, q, out, nimber);
            }
        }
        (AnyGame::Nimber(_), AnyPos::Nim(k)) => *nimber ^= *k as i64,
        _ => out.push((g, p)),
    }
}

/// The kind of the move p → q.
pub fn move_kind(g: &AnyGame, p: &AnyPos, q: &AnyPos) -> MoveKind {
    match (g, p, q) {
        (AnyGame::Spl(_), AnyPos::Spl(a), AnyPos::Spl(b)) => {
            if a.c != b.c {
                MoveKind::Dehub
            } else {
                MoveKind::Split
            }
        }
        (AnyGame::Nimber(_), _, _) => MoveKind::Heap,
        (AnyGame::Sum(parts), AnyPos::Sum(a), AnyPos::Sum(b)) => parts
            .iter()
            .zip(a.iter().zip(b))
            .find(|(_, (x, y))| x != y)
            .map_or(MoveKind::Any, |(h, (x, y))| move_kind(h, x, y)),
        _ => MoveKind::Any,
    }
}

fn kind_ok(arrow: MoveKind, actual: MoveKind) -> bool {
    arrow == MoveKind::Any || arrow == actual
}

/// Deepest exploration allowed (a guard against the call stack, far beyond the paper's games).
const MAX_DEPTH: usize = 4000;

struct Explorer<'a> {
    d: &'a Diagram,
    game: &'a AnyGame,
    values: Values<'a>,
    /// Every node's predicate at a position, evaluated together in one rhai scope (0 false,
    /// 1 true, 2 an error, re-evaluated for its message only when that node is asked): a
    /// strategy of TER(C_21) meets about a million positions, too many to keep an
    /// environment for each or to copy it per predicate.
    preds: FxHashMap<AnyPos, Box<[u8]>>,
    memo: FxHashMap<(usize, AnyPos), bool>,
    singles: Vec<Vec<usize>>,
    replies: Vec<Vec<usize>>,
    families: &'a HashMap<String, Arc<Family>>,
    depth: usize,
    /// The closure of the start generator: node predicates' `nim("…")` solve under it
    /// (docs/design.md §2, closures).
    closure: Closure,
}

/// Pairs (node, position) a strategy may meet on a game past the exhaustive solver's reach
/// before the check is refused: within reach, the solver's own guard bounds the walk.
const PAST_REACH_PAIRS: usize = 100_000;

/// The nim-values behind a diagram's solver cross-check and `*0` sinks: the exhaustive solver
/// within its reach; past it, the structure classes of a closure game or of TER/DNT of a graph
/// (docs/design.md §9), so that a diagram on DNG(Z_2 × Z_30) is walked instead of refused
/// (issue 42 item 5). The walk itself (every option covered, a reply found, sinks met) does not
/// depend on which.
enum Values<'a> {
    Exhaustive(Solver<'a, AnyGame>),
    Classes(crate::solve::structure::Diagram),
}

impl Values<'_> {
    fn nim(&mut self, g: &AnyGame, p: &AnyPos) -> Result<u32, String> {
        match self {
            Values::Exhaustive(solver) => Ok(solver.nim(p)),
            Values::Classes(d) => class_position(g, p)
                .and_then(|set| d.nim(&set))
                .ok_or_else(|| {
                    format!(
                        "the position {} has no structure class of {g} (it is not reached from the start)",
                        g.label(p)
                    )
                }),
        }
    }

    fn method(&self) -> &'static str {
        match self {
            Values::Exhaustive(_) => "exhaustive solving",
            Values::Classes(_) => "structure classes",
        }
    }
}

/// A position of a closure game or of a removing game of a graph as a set of the ground set.
fn class_position(g: &AnyGame, p: &AnyPos) -> Option<crate::game::closure::Set> {
    match (g, p) {
        (AnyGame::Closure(_), AnyPos::Elements(s)) => Some(s.clone()),
        (AnyGame::Removing(r), AnyPos::Set(m)) => {
            Some(crate::game::closure::from_mask(*m, r.graph().n()))
        }
        _ => None,
    }
}

/// The structure diagram of a game past the exhaustive solver's reach, whose classes give the
/// nim-value of every position from its start, or why there is none.
fn class_values(g: &AnyGame) -> Result<crate::solve::structure::Diagram, String> {
    use crate::solve::{dispatch, structure};
    let d =
        match g {
            AnyGame::Closure(c) => dispatch::structure_diagram(c)?,
            AnyGame::Removing(r) => dispatch::removing_diagram(r, structure::MAX_CLASSES)?,
            _ => return Err(
                "only closure games and TER/DNT of graphs are walked past it, by structure classes"
                    .into(),
            ),
        };
    match class_position(g, &g.start()).and_then(|s| d.nim(&s)) {
        Some(_) => Ok(d),
        None => Err("the start's structure class is not in the diagram".into()),
    }
}

/// A failure: the play from the start position and the reason.
struct Failure {
    path: Vec<String>,
    reason: String,
    position: String,
}

impl<'a> Explorer<'a> {
    /// The explorer of `game`'s strategy, with its values: the exhaustive solver within its
    /// reach, else the structure classes ([`Values`]).
    fn new(
        d: &'a Diagram,
        game: &'a AnyGame,
        closure: Closure,
        families: &'a HashMap<String, Arc<Family>>,
    ) -> Result<Self, CheckError> {
        let values = match super::reachable_guard(game) {
            Ok(()) => Values::Exhaustive(Solver::new(game)),
            Err(r) => Values::Classes(class_values(game).map_err(|why| CheckError {
                loc: d.loc.clone(),
                message: format!("game `{game}`: {r}; and {why}"),
            })?),
        };
        let mut singles = vec![Vec::new(); d.nodes.len()];
        let mut replies = vec![Vec::new(); d.nodes.len()];
        for (i, a) in d.arrows.iter().enumerate() {
            if a.style.is_reply() {
                replies[a.from].push(i);
            } else {
                singles[a.from].push(i);
            }
        }
        Ok(Explorer {
            d,
            game,
            values,
            closure,
            preds: FxHashMap::default(),
            memo: FxHashMap::default(),
            singles,
            replies,
            families,
            depth: 0,
        })
    }

    /// The nim-value of p, for the cross-check and `*0` sinks.
    fn nim(&mut self, p: &AnyPos) -> Result<u32, CheckError> {
        self.values.nim(self.game, p).map_err(|m| CheckError {
            loc: self.d.loc.clone(),
            message: m,
        })
    }

    fn past_reach(&self) -> bool {
        matches!(self.values, Values::Classes(_))
    }

    fn label(&self, p: &AnyPos) -> String {
        self.game.label(p)
    }

    fn pred(&mut self, node: usize, p: &AnyPos) -> Result<bool, CheckError> {
        if !self.preds.contains_key(p) {
            let mut env = Env::new();
            env.closure = self.closure;
            env.add_features(&features(self.game, p));
            let mut scope = env.scope();
            let base = scope.len();
            let row: Box<[u8]> = self
                .d
                .nodes
                .iter()
                .map(|n| {
                    let r = n.when.eval_bool_in(&mut scope, self.closure);
                    scope.rewind(base);
                    match r {
                        Ok(false) => 0,
                        Ok(true) => 1,
                        Err(_) => 2,
                    }
                })
                .collect();
            self.preds.insert(p.clone(), row);
        }
        match self.preds[p][node] {
            0 => Ok(false),
            1 => Ok(true),
            _ => {
                let mut env = Env::new();
                env.closure = self.closure;
                env.add_features(&features(self.game, p));
                let n = &self.d.nodes[node];
                n.when.eval_bool(&env).map_err(|m| CheckError {
                    loc: n.when_loc.clone(),
                    message: format!(
                        "predicate of node {} at position {}: {m}",
                        n.name,
                        self.game.label(p)
                    ),
                })
            }
        }
    }

    fn sink_ok(&mut self, sink: &Sink, p: &AnyPos) -> Result<Option<String>, CheckError> {
        let node_label = |s: &Self| s.label(p);
        Ok(match sink {
            Sink::Terminal => {
                let n = self.game.options(p).len();
                (n > 0).then(|| {
                    format!(
                        "{} is not terminal ({n} options) but sits at a `terminal` sink",
                        node_label(self)
                    )
                })
            }
            Sink::Zero => {
                let v = self.nim(p)?;
                (v != 0).then(|| {
                    format!(
                        "{} has nim-value *{v} by {}, but sits at a `*0` sink",
                        node_label(self),
                        self.values.method()
                    )
                })
            }
            Sink::Ref { diagram, start } => {
                let fam = &self.families[diagram];
                let k = key(self.game, p);
                let member = fam.members.get(&k).is_some_and(|marks| match start {
                    None => true,
                    Some(s) => marks.contains(s),
                });
                if !fam.valid {
                    Some(format!(
                        "{} sits at a sink referring to diagram `{diagram}`, which was not checked valid",
                        node_label(self)
                    ))
                } else if !member {
                    let which = start.map_or(String::new(), |s| format!(" at start {s}"));
                    Some(format!(
                        "{} is not among the start positions{which} validated by diagram {} ({})",
                        node_label(self),
                        fam.label,
                        fam.range
                    ))
                } else {
                    None
                }
            }
        })
    }

    fn enter(&mut self) -> Result<(), CheckError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(CheckError {
                loc: self.d.loc.clone(),
                message: format!("plays longer than {MAX_DEPTH} moves are not explored"),
            });
        }
        Ok(())
    }

    /// Validity of a position at a node whose predicate it satisfies.
    fn valid(&mut self, node: usize, p: &AnyPos) -> Result<bool, CheckError> {
        if let Some(&b) = self.memo.get(&(node, p.clone())) {
            return Ok(b);
        }
        if self.past_reach() && self.memo.len() >= PAST_REACH_PAIRS {
            return Err(CheckError {
                loc: self.d.loc.clone(),
                message: format!(
                    "the strategy meets more than {PAST_REACH_PAIRS} (node, position) pairs of {}, a game past the exhaustive solver's reach; a diagram is walked there only while its strategy stays small",
                    self.game
                ),
            });
        }
        self.enter()?;
        let r = self.valid_uncached(node, p);
        self.depth -= 1;
        let b = r?;
        self.memo.insert((node, p.clone()), b);
        Ok(b)
    }

    fn valid_uncached(&mut self, node: usize, p: &AnyPos) -> Result<bool, CheckError> {
        let n = &self.d.nodes[node];
        if let Some(s) = &n.sink {
            let s = s.clone();
            return Ok(self.sink_ok(&s, p)?.is_none());
        }
        let opts = self.game.options(p);
        if n.p_node {
            for q in &opts {
                if self.cover(node, p, q)?.is_none() {
                    return Ok(false);
                }
            }
            Ok(true)
        } else {
            Ok(self.reply(node, p, &opts)?.is_some())
        }
    }

    /// The single-arrow target at which option q of p (at P-node `node`) is valid.
    fn cover(&mut self, node: usize, p: &AnyPos, q: &AnyPos) -> Result<Option<usize>, CheckError> {
        let kind = move_kind(self.game, p, q);
        for i in 0..self.singles[node].len() {
            let a = &self.d.arrows[self.singles[node][i]];
            let t = a.to;
            if kind_ok(a.kind, kind) && self.pred(t, q)? && self.valid(t, q)? {
                return Ok(Some(t));
            }
        }
        Ok(None)
    }

    /// A winning reply from p at N-node `node`: the option and the target node.
    fn reply(
        &mut self,
        node: usize,
        p: &AnyPos,
        opts: &[AnyPos],
    ) -> Result<Option<(AnyPos, usize)>, CheckError> {
        for i in 0..self.replies[node].len() {
            let a = self.d.arrows[self.replies[node][i]].clone();
            for q in opts {
                if kind_ok(a.kind, move_kind(self.game, p, q))
                    && self.pred(a.to, q)?
                    && self.valid(a.to, q)?
                {
                    return Ok(Some((q.clone(), a.to)));
                }
            }
        }
        Ok(None)
    }

    fn step(&self, node: usize, p: &AnyPos) -> String {
        format!("{} [{}]", self.label(p), self.d.nodes[node].name)
    }

    /// Why (node, p) is invalid: follows the first failing option or reply down to a missing
    /// arrow, a failing sink or an unanswerable position.
    fn why(
        &mut self,
        node: usize,
        p: &AnyPos,
        path: &mut Vec<String>,
    ) -> Result<Failure, CheckError> {
        path.push(self.step(node, p));
        let n = self.d.nodes[node].clone();
        let fail = |path: &Vec<String>, reason: String, pos: String| Failure {
            path: path.clone(),
            reason,
            position: pos,
        };
        if let Some(s) = &n.sink {
            let r = self
                .sink_ok(s, p)?
                .unwrap_or_else(|| "sink accepted".into());
            return Ok(fail(path, r, self.label(p)));
        }
        let opts = self.game.options(p);
        if n.p_node {
            for q in &opts {
                if self.cover(node, p, q)?.is_some() {
                    continue;
                }
                let kind = move_kind(self.game, p, q);
                let mut matching = Vec::new();
                for &i in &self.singles[node].clone() {
                    let a = &self.d.arrows[i];
                    if kind_ok(a.kind, kind) && self.pred(a.to, q)? {
                        matching.push(a.to);
                    }
                }
                match matching.first() {
                    None => {
                        return Ok(fail(
                            path,
                            format!(
                                "coverage: option {} ({} move) of {} at node {} satisfies no target of {}'s single arrows (missing arrow from {})",
                                self.label(q),
                                kind.name(),
                                self.label(p),
                                n.name,
                                n.name,
                                n.name
                            ),
                            self.label(q),
                        ))
                    }
                    Some(&t) => return self.why(t, q, path),
                }
            }
            Ok(fail(path, "valid".into(), self.label(p)))
        } else {
            let mut candidates = Vec::new();
            for &i in &self.replies[node].clone() {
                let a = self.d.arrows[i].clone();
                for q in &opts {
                    if kind_ok(a.kind, move_kind(self.game, p, q)) && self.pred(a.to, q)? {
                        candidates.push((q.clone(), a.to));
                    }
                }
            }
            match candidates.first() {
                None => Ok(fail(
                    path,
                    format!(
                        "reply: no option of {} at node {} satisfies a target of {}'s reply arrows (missing reply from {})",
                        self.label(p),
                        n.name,
                        n.name,
                        n.name
                    ),
                    self.label(p),
                )),
                Some((q, t)) => {
                    let (q, t) = (q.clone(), *t);
                    let mut f = self.why(t, &q, path)?;
                    if candidates.len() > 1 {
                        f.reason.push_str(&format!(
                            " (the other {} replies from {} at node {} fail too)",
                            candidates.len() - 1,
                            self.label(p),
                            n.name
                        ));
                    }
                    Ok(f)
                }
            }
        }
    }

    /// The strategy's moves from (node, p): the target chosen for every option at a P-node,
    /// the chosen reply at an N-node, nothing at a sink.
    fn successors(&mut self, node: usize, p: &AnyPos) -> Result<Vec<(usize, AnyPos)>, CheckError> {
        let mut out = Vec::new();
        if self.d.nodes[node].sink.is_some() {
            return Ok(out);
        }
        let opts = self.game.options(p);
        if self.d.nodes[node].p_node {
            for q in &opts {
                if let Some(t) = self.cover(node, p, q)? {
                    out.push((t, q.clone()));
                }
            }
        } else if let Some((q, t)) = self.reply(node, p, &opts)? {
            out.push((t, q));
        }
        Ok(out)
    }

    /// The arrows leaving `node` that some option of p can follow (a move of the arrow's kind
    /// into a position satisfying the target's predicate and valid there), with those options:
    /// an arrow is exercised when it can be followed, even if the strategy prefers another.
    fn usable(&mut self, node: usize, p: &AnyPos) -> Usable {
        let idx: Vec<usize> = self.singles[node]
            .iter()
            .chain(&self.replies[node])
            .copied()
            .collect();
        let mut out = Vec::new();
        if idx.is_empty() {
            return out;
        }
        let opts = self.game.options(p);
        for a in idx {
            let (to, kind) = (self.d.arrows[a].to, self.d.arrows[a].kind);
            let qs: Vec<AnyPos> = opts
                .iter()
                .filter(|q| {
                    kind_ok(kind, move_kind(self.game, p, q))
                        && self.pred(to, q).unwrap_or(false)
                        && self.valid(to, q).unwrap_or(false)
                })
                .cloned()
                .collect();
            if !qs.is_empty() {
                out.push((a, qs));
            }
        }
        out
    }
}

/// A start position: the instance it comes from (as text), its game and the position.
pub type StartPos = (String, AnyGame, AnyPos, Closure);

/// The start positions, the coverage of their generators, and the refutation by a start past
/// the exhaustive solver's reach that the fast solvers find to be an N-position.
type StartsOrRefutation = (Vec<StartPos>, Vec<PartCoverage>, Option<Counterexample>);

/// The refutation of a diagram at the start of `g` (named `what`) when the fast solvers find
/// it to be an N-position: a start node is a P-node. `None` when it is a P-position or the
/// fast solvers do not decide it.
fn start_is_n(g: &AnyGame, what: &str) -> Option<Counterexample> {
    let opts = crate::solve::dispatch::Options::quiet();
    let sol = crate::solve::dispatch::solve_for(g, &opts, false).ok()?;
    if sol.outcome != crate::solve::cycle::Outcome::N {
        return None;
    }
    let value = sol
        .nim
        .map_or("an N-position".into(), |v| format!("nim-value *{v}"));
    let start = g.label(&g.start());
    Some(Counterexample {
        instance: what.to_string(),
        game: g.to_string(),
        position: Some(start.clone()),
        claimed: "the diagram is a winning strategy for the second player".into(),
        computed: format!(
            "the start position {start} has {value} (by {}), and a start node must be a P-position (the game is past the exhaustive solver's reach, so the strategy itself was not followed)",
            sol.method
        ),
        evidence: Vec::new(),
    })
}

/// Arrows that can be followed from a position, each with the options that follow it.
type Usable = Vec<(usize, Vec<AnyPos>)>;

/// The strategy graph of one game family, explored once and shared by all its start
/// positions: for every (node, position) pair the strategy meets, its moves, the arrows that
/// can be followed from it, and the set of parts (nodes, then arrows, as bits) exercised from
/// it onwards. Pairs form a DAG (every move changes the position), so the part sets are
/// unions over successors, computed once per pair.
struct StrategyGraph {
    succ: FxHashMap<(usize, AnyPos), Vec<(usize, AnyPos)>>,
    usable: FxHashMap<(usize, AnyPos), Usable>,
    parts: FxHashMap<(usize, AnyPos), Vec<u64>>,
    nodes: usize,
    words: usize,
}

impl StrategyGraph {
    fn new(nodes: usize, arrows: usize) -> StrategyGraph {
        StrategyGraph {
            succ: FxHashMap::default(),
            usable: FxHashMap::default(),
            parts: FxHashMap::default(),
            nodes,
            words: (nodes + arrows).div_ceil(64),
        }
    }

    /// The parts exercised by the strategy from (node, p).
    fn reach(
        &mut self,
        ex: &mut Explorer,
        node: usize,
        p: &AnyPos,
    ) -> Result<Vec<u64>, CheckError> {
        let root = (node, p.clone());
        let mut stack = vec![(root.clone(), false)];
        while let Some((k, expanded)) = stack.pop() {
            if self.parts.contains_key(&k) {
                continue;
            }
            if !expanded {
                if !self.succ.contains_key(&k) {
                    let s = ex.successors(k.0, &k.1)?;
                    let u = ex.usable(k.0, &k.1);
                    self.succ.insert(k.clone(), s);
                    self.usable.insert(k.clone(), u);
                }
                stack.push((k.clone(), true));
                for c in &self.succ[&k] {
                    if !self.parts.contains_key(c) {
                        stack.push((c.clone(), false));
                    }
                }
                continue;
            }
            let mut bits = vec![0u64; self.words];
            let mut set = |i: usize| bits[i / 64] |= 1 << (i % 64);
            set(k.0);
            for (a, _) in &self.usable[&k] {
                set(self.nodes + a);
                set(ex.d.arrows[*a].to);
            }
            for c in &self.succ[&k] {
                for (w, x) in bits.iter_mut().zip(&self.parts[c]) {
                    *w |= x;
                }
            }
            self.parts.insert(k, bits);
        }
        Ok(self.parts[&root].clone())
    }
}

impl Diagram {
    /// Ids of diagrams referenced by sinks.
    pub fn references(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .nodes
            .iter()
            .filter_map(|n| match &n.sink {
                Some(Sink::Ref { diagram, .. }) => Some(diagram.clone()),
                _ => None,
            })
            .collect();
        out.sort();
        out.dedup();
        out
    }

    fn name_for_refs(&self) -> String {
        match (&self.letter, &self.figure) {
            (Some(l), _) => format!("({l})"),
            (None, Some(f)) => format!("of Figure {f}"),
            _ => self.source.clone(),
        }
    }

    fn range(&self) -> String {
        self.starts
            .iter()
            .map(|s| {
                let w = s
                    .filter
                    .as_ref()
                    .map_or(String::new(), |f| format!(" where {}", f.src));
                let r = if s.positions == StartPositions::Reachable {
                    "reachable positions of "
                } else {
                    ""
                };
                format!("{r}{} for {}{w}", s.game, describe_range(&s.params))
            })
            .collect::<Vec<_>>()
            .join("; ")
    }

    /// Every start position: (instance text, game, position), and per generator how many
    /// instances and start positions it selects.
    pub fn start_positions(&self) -> Result<(Vec<StartPos>, Vec<PartCoverage>), CheckError> {
        self.starts_or_refutation(false)
            .map(|(out, cov, _)| (out, cov))
    }

    /// [`Diagram::start_positions`]; with `refute_beyond`, a start past the exhaustive
    /// solver's reach that the fast solvers find to be an N-position ends the list, and is
    /// returned as the diagram's refutation (a start node is a P-node, so no strategy from it
    /// can hold): DNG(Z_3^4) would be bad input, "past the solver's reach" (issue 42
    /// item 5). Other starts past reach are kept when their structure classes give values.
    fn starts_or_refutation(&self, refute_beyond: bool) -> Result<StartsOrRefutation, CheckError> {
        let mut out = Vec::new();
        let mut cov = Vec::new();
        for (k, s) in self.starts.iter().enumerate() {
            let w = s
                .filter
                .as_ref()
                .map_or(String::new(), |f| format!(" where {}", f.src));
            let mut c = PartCoverage::new(
                format!("start generator {} ({}{w})", k + 1, s.game),
                s.unreached.clone(),
            );
            for inst in instances(&s.params) {
                let before = out.len();
                let text = instantiate(&s.game, &inst);
                let g = parse_game(&text, ParseOptions { closure: s.closure }).map_err(|e| {
                    CheckError {
                        loc: s.game_loc.clone(),
                        message: format!("{}game `{text}`: {}", at_instance(&inst), e.message),
                    }
                })?;
                // The instance as the report names it.
                let what = if inst.is_empty() {
                    text.clone()
                } else {
                    format!("{text} ({})", describe_instance(&inst))
                };
                // The solver's guard (refuse, never abort): every position the strategy meets
                // is cross-checked by exhaustive solving, so an instance past the budget is an
                // error at its location, before any exploration. The positions are taken
                // whole, so the bound is on reachable positions, not on the memo's parts.
                if let Err(r) = super::reachable_guard(&g) {
                    // Past reach, the start is still decided by the fast solvers, and the
                    // strategy is walked with the values of the structure classes.
                    if s.positions == StartPositions::Start
                        && self.selected(s, &inst, &g, &g.start())?
                    {
                        if refute_beyond {
                            if let Some(refutation) = start_is_n(&g, &what) {
                                cov.push(c);
                                return Ok((out, cov, Some(refutation)));
                            }
                        }
                        if class_values(&g).is_ok() {
                            out.push((what.clone(), g.clone(), g.start(), s.closure));
                            c.instances += 1;
                            c.positions += 1;
                            c.first.get_or_insert_with(|| what.clone());
                            continue;
                        }
                    }
                    return Err(CheckError {
                        loc: s.game_loc.clone(),
                        message: format!("{}{r}", at_instance(&inst)),
                    });
                }
                let candidates = match s.positions {
                    StartPositions::Start => vec![g.start()],
                    StartPositions::Reachable => {
                        let mut solver = Solver::new(&g);
                        let st = g.start();
                        solver
                            .reachable_within(&st, super::reachable_cap())
                            .map_err(|why| CheckError {
                                loc: s.game_loc.clone(),
                                message: format!(
                                    "{}game `{text}`: its reachable positions are {why}",
                                    at_instance(&inst)
                                ),
                            })?
                            .into_iter()
                            .map(|(p, _)| p)
                            .collect()
                    }
                };
                for p in candidates {
                    if self.selected(s, &inst, &g, &p)? {
                        out.push((what.clone(), g.clone(), p, s.closure));
                    }
                }
                if out.len() > before {
                    c.instances += 1;
                    c.positions += (out.len() - before) as u64;
                    c.first.get_or_insert_with(|| out[before].0.clone());
                }
            }
            cov.push(c);
        }
        Ok((out, cov, None))
    }

    fn selected(
        &self,
        s: &StartGen,
        inst: &Instance,
        g: &AnyGame,
        p: &AnyPos,
    ) -> Result<bool, CheckError> {
        let Some(f) = &s.filter else {
            return Ok(true);
        };
        let mut env = Env::new();
        env.closure = s.closure;
        for (k, v) in inst {
            env.set(k, v.to_dynamic());
        }
        for (k, v) in features(g, p) {
            if env.get(&k).is_none() {
                env.set(&k, value_to_dynamic(&v));
            }
        }
        f.eval_bool(&env).map_err(|m| CheckError {
            loc: s.filter_loc.clone(),
            message: format!("{}{m}", at_instance(inst)),
        })
    }

    /// Checks the diagram on every start position (docs/design.md §3). `families` holds the
    /// checked diagrams its sinks refer to.
    pub fn check(&self, families: &HashMap<String, Arc<Family>>) -> Result<Checked, CheckError> {
        let t0 = Instant::now();
        let (starts, mut coverage, beyond) = self.starts_or_refutation(true)?;
        if starts.is_empty() && beyond.is_none() {
            return Err(CheckError {
                loc: self.loc.clone(),
                message: "no start position is selected: the diagram would hold vacuously".into(),
            });
        }
        // Group start positions by game family, keeping the first game of each as the one
        // whose options are explored (the same for every game of the family).
        let mut groups: Vec<(String, usize, Vec<usize>)> = Vec::new();
        for (i, (_, g, _, closure)) in starts.iter().enumerate() {
            // Node predicates are evaluated under the generator's closure (`nim("…")` solves
            // under it): games of two closures never share an explorer.
            let u = format!("{closure:?}|{}", universe(g));
            match groups.iter_mut().find(|(v, _, _)| *v == u) {
                Some((_, _, members)) => members.push(i),
                None => groups.push((u, i, vec![i])),
            }
        }
        let start_nodes: Vec<usize> = (0..self.nodes.len())
            .filter(|&i| self.nodes[i].start.is_some())
            .collect();
        let mut per_node = vec![0u64; self.nodes.len()];
        let mut pairs = 0u64;
        let mut family = Family {
            valid: false,
            label: self.name_for_refs(),
            letter: self.letter.clone(),
            range: self.range(),
            members: FxHashMap::default(),
        };
        let mut failure: Option<(usize, Failure)> = None;
        // Games whose values came from their structure classes (past the exhaustive reach).
        let mut by_classes: Vec<String> = Vec::new();
        // Per node and arrow: start positions whose strategy exercises it, and the distinct
        // positions (node) or moves (arrow) it is exercised at (docs/design.md §2).
        let mut node_starts = vec![0u64; self.nodes.len()];
        let mut node_positions: Vec<FxHashSet<AnyPos>> =
            vec![FxHashSet::default(); self.nodes.len()];
        let mut arrow_starts = vec![0u64; self.arrows.len()];
        // Per part, the first start position (in the generators' order) that exercises it:
        // named when an `unreached:` mark is stale.
        let mut first_start: Vec<Option<usize>> = vec![None; self.nodes.len() + self.arrows.len()];
        let mut arrow_moves: Vec<FxHashSet<(AnyPos, AnyPos)>> =
            vec![FxHashSet::default(); self.arrows.len()];
        'groups: for (_, rep, members) in &groups {
            let (_, game, _, closure) = &starts[*rep];
            let mut ex = Explorer::new(self, game, *closure, families)?;
            if ex.past_reach() {
                by_classes.push(starts[*rep].1.to_string());
            }
            let mut graph = StrategyGraph::new(self.nodes.len(), self.arrows.len());
            for &i in members {
                let p = &starts[i].2;
                let mut ok_at = Vec::new();
                let mut first_match = None;
                for &s in &start_nodes {
                    if ex.pred(s, p)? {
                        first_match.get_or_insert(s);
                        if ex.valid(s, p)? {
                            ok_at.push(s);
                        }
                    }
                }
                match (ok_at.first(), first_match) {
                    (Some(&s), _) => {
                        let bits = graph.reach(&mut ex, s, p)?;
                        let hit = |i: usize| u64::from(bits[i / 64] >> (i % 64) & 1 == 1);
                        for (n, c) in node_starts.iter_mut().enumerate() {
                            *c += hit(n);
                        }
                        for (a, c) in arrow_starts.iter_mut().enumerate() {
                            *c += hit(self.nodes.len() + a);
                        }
                        for (k, f) in first_start.iter_mut().enumerate() {
                            if hit(k) == 1 && f.is_none_or(|f| i < f) {
                                *f = Some(i);
                            }
                        }
                        let marks = ok_at
                            .iter()
                            .filter_map(|&s| self.nodes[s].start)
                            .collect::<Vec<_>>();
                        family.members.insert(key(game, p), marks);
                    }
                    (None, None) => {
                        failure = Some((
                            i,
                            Failure {
                                path: vec![ex.label(p)],
                                reason: format!(
                                    "start position {} satisfies no start node's predicate",
                                    ex.label(p)
                                ),
                                position: ex.label(p),
                            },
                        ));
                        break 'groups;
                    }
                    (None, Some(s)) => {
                        let f = ex.why(s, p, &mut Vec::new())?;
                        failure = Some((i, f));
                        break 'groups;
                    }
                }
            }
            // Positions and moves at which each part is exercised, over all start positions.
            for (k, us) in &graph.usable {
                node_positions[k.0].insert(k.1.clone());
                for (a, qs) in us {
                    node_positions[self.arrows[*a].to].extend(qs.iter().cloned());
                    arrow_moves[*a].extend(qs.iter().map(|q| (k.1.clone(), q.clone())));
                }
            }
            // The solver cross-check of every position the strategy meets.
            let mut seen: Vec<(usize, AnyPos)> = graph.succ.into_keys().collect();
            seen.sort();
            for (node, p) in &seen {
                per_node[*node] += 1;
                pairs += 1;
                let n = &self.nodes[*node];
                let v = ex.nim(p)?;
                if (v == 0) != n.p_node {
                    let want = if n.p_node { "0" } else { "nonzero" };
                    failure = Some((
                        members[0],
                        Failure {
                            path: vec![ex.label(p)],
                            reason: format!(
                                "solver cross-check: {} at {}-node {} has nim-value *{v} (by {}), expected {want}",
                                ex.label(p),
                                if n.p_node { "P" } else { "N" },
                                n.name,
                                ex.values.method()
                            ),
                            position: ex.label(p),
                        },
                    ));
                    break 'groups;
                }
            }
        }
        let verdict = match (failure, beyond) {
            // The starts before it held; the first start past reach is an N-position.
            (None, Some(counterexample)) => Verdict::Refuted { counterexample },
            (None, None) => {
                family.valid = true;
                Verdict::Holds
            }
            (Some((i, f)), _) => Verdict::Refuted {
                counterexample: Counterexample {
                    instance: starts[i].0.clone(),
                    game: starts[i].1.to_string(),
                    position: Some(f.position),
                    claimed: "the diagram is a winning strategy for the second player".into(),
                    computed: format!("{}; play: {}", f.reason, f.path.join(" → ")),
                    evidence: Vec::new(),
                },
            },
        };
        let holds = verdict.holds();
        for (i, n) in self.nodes.iter().enumerate() {
            let mut c = PartCoverage::new(format!("node {}", n.name), n.unreached.clone());
            c.instances = node_starts[i];
            c.positions = node_positions[i].len() as u64;
            c.first = first_start[i].map(|k| starts[k].0.clone());
            coverage.push(c);
        }
        for (i, a) in self.arrows.iter().enumerate() {
            let kind = match a.kind {
                MoveKind::Any => String::new(),
                k => format!(", {}", k.name()),
            };
            let mut c = PartCoverage::new(
                format!(
                    "arrow {} -> {} ({}{kind})",
                    self.nodes[a.from].name,
                    self.nodes[a.to].name,
                    format!("{:?}", a.style).to_lowercase()
                ),
                a.unreached.clone(),
            );
            c.instances = arrow_starts[i];
            c.positions = arrow_moves[i].len() as u64;
            c.first = first_start[self.nodes.len() + i].map(|k| starts[k].0.clone());
            coverage.push(c);
        }
        let report = Report {
            id: self.id.clone(),
            kind: "diagram".into(),
            source: self.source.clone(),
            file: self.file.clone(),
            instances: starts.len() as u64,
            positions: pairs,
            range: self.range(),
            expect: self.expect,
            as_expected: verdict.matches(self.expect),
            verdict,
            notes: self.notes.clone(),
            coverage: Vec::new(),
            rests_on: Vec::new(),
            companion: None,
            excused: None,
            identity: None,
            laws: (!by_classes.is_empty()).then(|| {
                format!(
                    "rests on nim-values by structure classes (docs/design.md §9) at {}, past the exhaustive solver's reach: the strategy was walked, and its positions' values cross-checked by them",
                    by_classes.join(", ")
                )
            }),
            seconds: t0.elapsed().as_secs_f64(),
        }
        .with_coverage(coverage);
        let holds = holds && report.verdict.holds();
        let view = self.view(&report, holds, &per_node, families);
        Ok(Checked {
            report,
            view,
            family: Arc::new(family),
        })
    }

    fn view(
        &self,
        report: &Report,
        holds: bool,
        per_node: &[u64],
        families: &HashMap<String, Arc<Family>>,
    ) -> DiagramView {
        let letter = self.letter.clone().unwrap_or_default();
        let nodes = self
            .nodes
            .iter()
            .zip(per_node)
            .map(|(n, &count)| NodeView {
                name: n.name.clone(),
                label: n.label.clone(),
                tex: n.tex.clone(),
                when: n.when.src.clone(),
                player: if n.p_node { "P" } else { "N" }.into(),
                start: n.start,
                start_label: n.start.map(|s| {
                    if letter.is_empty() {
                        format!("({s})")
                    } else {
                        format!("({letter}.{s})")
                    }
                }),
                sink: n.sink.as_ref().map(|s| match s {
                    Sink::Terminal => "terminal".to_string(),
                    Sink::Zero => "*0".to_string(),
                    Sink::Ref { diagram, start } => {
                        let fam = families.get(diagram);
                        let name = fam.map_or_else(|| diagram.clone(), |f| f.label.clone());
                        match (fam.and_then(|f| f.letter.as_ref()), start) {
                            (Some(l), Some(s)) => format!("({l}.{s})"),
                            (None, Some(s)) => format!("{name}, start {s}"),
                            (_, None) => name,
                        }
                    }
                }),
                positions: count,
            })
            .collect();
        let arrows = self
            .arrows
            .iter()
            .map(|a| ArrowView {
                from: self.nodes[a.from].name.clone(),
                to: self.nodes[a.to].name.clone(),
                style: a.style,
                kind: a.kind,
            })
            .collect();
        DiagramView {
            id: self.id.clone(),
            source: self.source.clone(),
            figure: self.figure.clone(),
            letter: self.letter.clone(),
            title: self.title.clone(),
            caption: self.caption.clone(),
            range: report.range.clone(),
            holds,
            start_positions: report.instances,
            positions: report.positions,
            nodes,
            arrows,
        }
    }
}

/// What the strategy does at one (node, position) pair (for certificates, `crate::certify`).
#[derive(Clone, Debug)]
pub enum StrategyStep {
    Sink,
    /// At a P-node: every option with the single-arrow target it is valid at.
    Cover(Vec<(AnyPos, usize)>),
    /// At an N-node: the reply chosen and its target.
    Reply(AnyPos, usize),
}

/// The strategy validated on one group of start games: the game explored, the start
/// positions with their start node, and every (node, position) pair the strategy meets.
#[derive(Clone, Debug)]
pub struct StrategyGroup {
    pub games: Vec<AnyGame>,
    pub starts: Vec<(AnyPos, usize)>,
    pub steps: Vec<(usize, AnyPos, StrategyStep)>,
}

impl Diagram {
    /// The strategy the checker validates, exported for certificates (`crate::certify`);
    /// `None` if the diagram does not hold. `families` as for [`Diagram::check`].
    pub fn strategy(
        &self,
        families: &HashMap<String, Arc<Family>>,
    ) -> Result<Option<Vec<StrategyGroup>>, CheckError> {
        let (starts, _) = self.start_positions()?;
        let mut groups: Vec<(String, Vec<usize>)> = Vec::new();
        for (i, (_, g, _, closure)) in starts.iter().enumerate() {
            // Node predicates are evaluated under the generator's closure (`nim("…")` solves
            // under it): games of two closures never share an explorer.
            let u = format!("{closure:?}|{}", universe(g));
            match groups.iter_mut().find(|(v, _)| *v == u) {
                Some((_, members)) => members.push(i),
                None => groups.push((u, vec![i])),
            }
        }
        let start_nodes: Vec<usize> = (0..self.nodes.len())
            .filter(|&i| self.nodes[i].start.is_some())
            .collect();
        let mut out = Vec::new();
        for (_, members) in &groups {
            let (_, game, _, closure) = &starts[members[0]];
            let mut ex = Explorer::new(self, game, *closure, families)?;
            let mut group = StrategyGroup {
                games: members.iter().map(|&i| starts[i].1.clone()).collect(),
                starts: Vec::new(),
                steps: Vec::new(),
            };
            let mut seen: FxHashSet<(usize, AnyPos)> = FxHashSet::default();
            for &i in members {
                let p = &starts[i].2;
                let mut at = None;
                for &s in &start_nodes {
                    if ex.pred(s, p)? && ex.valid(s, p)? {
                        at = Some(s);
                        break;
                    }
                }
                let Some(s) = at else { return Ok(None) };
                group.starts.push((p.clone(), s));
                let mut stack = vec![(s, p.clone())];
                while let Some((node, p)) = stack.pop() {
                    if !seen.insert((node, p.clone())) {
                        continue;
                    }
                    let n = &self.nodes[node];
                    let step = if n.sink.is_some() {
                        StrategyStep::Sink
                    } else if n.p_node {
                        let mut cover = Vec::new();
                        for q in ex.game.options(&p) {
                            let Some(t) = ex.cover(node, &p, &q)? else {
                                return Ok(None);
                            };
                            stack.push((t, q.clone()));
                            cover.push((q, t));
                        }
                        StrategyStep::Cover(cover)
                    } else {
                        let opts = ex.game.options(&p);
                        let Some((q, t)) = ex.reply(node, &p, &opts)? else {
                            return Ok(None);
                        };
                        stack.push((t, q.clone()));
                        StrategyStep::Reply(q, t)
                    };
                    group.steps.push((node, p, step));
                }
            }
            out.push(group);
        }
        Ok(Some(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::parse_game;

    fn game(s: &str) -> AnyGame {
        parse_game(s, ParseOptions::default()).expect("a game")
    }

    #[test]
    fn keys_identify_g_plus_star_zero_with_g() {
        let a = game("SPL(3,[]) + *0");
        let b = game("SPL(3,[])");
        assert_eq!(key(&a, &a.start()), key(&b, &b.start()));
        let c = game("SPL(3,[]) + *1");
        assert_ne!(key(&c, &c.start()), key(&b, &b.start()));
        // Different SPL instances share options, so they share a universe; different graphs
        // do not.
        assert_eq!(universe(&game("SPL(3,[3])")), universe(&game("SPL(5,7)")));
        assert_ne!(universe(&game("TER(C_5)")), universe(&game("TER(C_6)")));
    }

    #[test]
    fn move_kinds_and_sum_features() {
        let g = game("SPL(3,[3]) + *1");
        let p = g.start();
        let kinds: Vec<MoveKind> = g.options(&p).iter().map(|q| move_kind(&g, &p, q)).collect();
        // (2,[3]) + *1, (3,[2]) + *1, (3,[1,1]) + *1, (3,[3]) + *0.
        assert_eq!(
            kinds,
            [
                MoveKind::Dehub,
                MoveKind::Split,
                MoveKind::Split,
                MoveKind::Heap
            ]
        );
        let f = features(&g, &p);
        assert_eq!(f["c"], Value::Int(3));
        assert_eq!(f["g0_c"], Value::Int(3));
        assert_eq!(f["nimber"], Value::Int(1));
        assert_eq!(f["size"], Value::Int(3));
        let h = game("*2 + *3");
        assert_eq!(features(&h, &h.start())["nimber"], Value::Int(1));
        assert!(!features(&h, &h.start()).contains_key("heap"));
    }
}
