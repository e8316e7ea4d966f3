//! `kind: reduction` (docs/design.md §4, paper §2.4): a map `f : G → H` between two game families,
//! checked to be option-preserving, `Opt(f(p)) = f(Opt(p))` *as sets* for every reachable
//! `p` (Prop 2.3 then gives `nim(p) = nim(f(p))`), and optionally surjective onto the
//! positions reachable in `H`, start-to-start and injective (an option-preserving bijection
//! is an isomorphism of gamegraphs, the form of Prop 5.27).
//!
//! The map is a rhai script over the source position's features, or a built-in quotient map.
//! Either side may be replaced by a quotient gamegraph: by graph automorphisms fixing the start
//! (Example 3.4's "congruent positions") or by identification of all terminal positions
//! (Prop 5.27). A quotient's options are the union of its members' option classes, and the
//! checker proves each quotient is a congruence (every member has the same option classes),
//! so that the quotient map itself is option-preserving. Everything is decided on explicit
//! gamegraphs built by breadth-first search; then `nim(p) = nim(f(p))` is cross-checked with
//! the solver on every reachable `p`, independently of the explicit gamegraphs.

use super::formula::{engine, show, Env, Formula};
use super::{
    at_instance, describe_instance, describe_range, instances, CheckError, Counterexample,
    Expectation, Instance, Loc, Param, Report, Verdict,
};
use crate::expr::{parse_game, substitute, ParseOptions};
use crate::game::{mex, AnyGame, AnyPos, Game};
use crate::graph::Closure;
use crate::solve::Solver;
use rayon::prelude::*;
use rhai::{Dynamic, Map, Scope, AST};
use rustc_hash::FxHashMap;
use serde::Serialize;
use std::collections::BTreeSet;
use std::time::Instant;

/// Which positions a quotient identifies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum QuotientKind {
    /// Positions that are images of each other under a graph automorphism fixing the start.
    Automorphisms,
    /// All terminal positions.
    Terminal,
}

impl QuotientKind {
    /// The name a spec and a certificate write.
    pub fn name(self) -> &'static str {
        match self {
            QuotientKind::Automorphisms => "automorphisms",
            QuotientKind::Terminal => "terminal",
        }
    }

    pub fn parse(s: &str) -> Option<QuotientKind> {
        match s {
            "automorphisms" => Some(QuotientKind::Automorphisms),
            "terminal" => Some(QuotientKind::Terminal),
            _ => None,
        }
    }
}

/// A rhai script (statements and loops allowed, operation-limited) evaluated per position.
#[derive(Clone, Debug)]
pub struct Script {
    pub src: String,
    ast: AST,
    /// Identifier-like words of the source: only features it can mention are passed in.
    words: std::collections::BTreeSet<String>,
}

impl Script {
    /// Compiles a script; the error carries the message and a byte offset into `src`.
    pub fn compile(src: &str) -> Result<Script, (String, usize)> {
        engine()
            .compile(src)
            .map(|ast| Script {
                src: src.to_string(),
                ast,
                words: src
                    .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .filter(|w| !w.is_empty())
                    .map(str::to_string)
                    .collect(),
            })
            .map_err(|e| {
                let off = line_col_offset(src, e.1.line(), e.1.position());
                (e.0.to_string(), off)
            })
    }

    /// Whether the script's text mentions `name` (a variable it may read).
    pub fn mentions(&self, name: &str) -> bool {
        self.words.contains(name)
    }

    pub fn eval(&self, env: &Env) -> Result<Dynamic, String> {
        let mut scope = Scope::new();
        for (k, v) in env.vars() {
            scope.push_dynamic(k.to_string(), v.clone());
        }
        engine()
            .eval_ast_with_scope::<Dynamic>(&mut scope, &self.ast)
            .map_err(|e| e.to_string())
    }
}

fn line_col_offset(src: &str, line: Option<usize>, col: Option<usize>) -> usize {
    let (Some(line), Some(col)) = (line, col) else {
        return 0;
    };
    let mut off = 0;
    for (i, l) in src.split('\n').enumerate() {
        if i + 1 == line {
            return off + col.saturating_sub(1).min(l.len());
        }
        off += l.len() + 1;
    }
    src.len()
}

/// The map of a reduction.
#[derive(Clone, Debug)]
pub enum MapKind {
    /// A script producing a target position: its text (as the target game labels positions)
    /// or, for sums, an array with one entry per component (text, or an integer for a nimber,
    /// or a list of integers for a multiset).
    Script(Script),
    /// `f(p) = p`, into the quotient of the same game (the canonical quotient map).
    Identity,
}

/// One side of a reduction: a game template, possibly quotiented.
#[derive(Clone, Debug)]
pub struct Side {
    pub game: String,
    pub loc: Loc,
    pub quotient: Option<QuotientKind>,
}

/// The claims a reduction spec makes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Claims {
    pub option_preserving: bool,
    pub surjective: bool,
    pub start_to_start: bool,
    pub injective: bool,
}

/// A validated reduction spec.
#[derive(Clone, Debug)]
pub struct Reduction {
    pub id: String,
    pub file: String,
    pub source: String,
    pub notes: Option<String>,
    pub closure: Closure,
    pub params: Vec<Param>,
    /// Named values computed from the parameters (substituted into the game templates too).
    pub lets: Vec<(String, Formula, Loc)>,
    pub filter: Option<Formula>,
    pub filter_loc: Loc,
    pub from: Side,
    pub to: Side,
    pub map: MapKind,
    pub map_loc: Loc,
    pub claims: Claims,
    pub expect: Expectation,
}

/// A class of positions: a literal position, an automorphism orbit (by its least member), or
/// the class of all terminal positions.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Class {
    Pos(AnyPos),
    Terminal,
}

/// Most positions of an explicit gamegraph: past it [`Explicit::build`] refuses (a figure
/// panel on TER(P_40), or a map between huge games, would otherwise grow until memory runs
/// out).
pub const MAX_EXPLICIT_POSITIONS: usize = 1_000_000;

/// An explicit finite gamegraph of one side: positions by breadth-first search, their
/// classes, and the options of every class (the union over its members).
pub struct Explicit {
    pub text: String,
    pub game: AnyGame,
    pub quotient: Option<QuotientKind>,
    pub positions: Vec<AnyPos>,
    pub index: FxHashMap<AnyPos, usize>,
    /// Options of each position, as position indices.
    pub options: Vec<Vec<usize>>,
    /// Class of each position.
    pub class_of: Vec<usize>,
    /// The classes, in order of first appearance.
    pub classes: Vec<Class>,
    /// Members of each class.
    pub members: Vec<Vec<usize>>,
    /// Options of each class (union over members), sorted.
    pub class_options: Vec<Vec<usize>>,
}

impl Explicit {
    /// Builds the gamegraph of everything reachable from `roots` (the start first).
    pub fn build(
        text: String,
        game: AnyGame,
        quotient: Option<QuotientKind>,
        roots: &[AnyPos],
    ) -> Result<Explicit, String> {
        if quotient == Some(QuotientKind::Automorphisms) {
            match &game {
                AnyGame::Removing(g) if g.symmetry().is_complete() => {}
                AnyGame::Removing(g) => {
                    return Err(format!(
                        "{text}: the automorphism group of {} is too large to enumerate, so its quotient cannot be formed",
                        g.graph().name()
                    ))
                }
                _ => {
                    return Err(format!(
                        "{text}: a quotient by automorphisms needs a graph game (TER or DNT)"
                    ))
                }
            }
        }
        let mut positions: Vec<AnyPos> = Vec::new();
        let mut index: FxHashMap<AnyPos, usize> = FxHashMap::default();
        for r in roots {
            if !index.contains_key(r) {
                index.insert(r.clone(), positions.len());
                positions.push(r.clone());
            }
        }
        let mut options: Vec<Vec<usize>> = Vec::new();
        let mut i = 0;
        while i < positions.len() {
            if positions.len() > MAX_EXPLICIT_POSITIONS {
                return Err(format!(
                    "{text}: the gamegraph has more than {MAX_EXPLICIT_POSITIONS} positions, too many to build explicitly; use a smaller game"
                ));
            }
            let p = positions[i].clone();
            let mut opts = Vec::new();
            for o in game.options(&p) {
                let j = match index.get(&o) {
                    Some(&j) => j,
                    None => {
                        index.insert(o.clone(), positions.len());
                        positions.push(o);
                        positions.len() - 1
                    }
                };
                opts.push(j);
            }
            opts.sort_unstable();
            opts.dedup();
            options.push(opts);
            i += 1;
        }
        let mut class_index: FxHashMap<Class, usize> = FxHashMap::default();
        let mut classes = Vec::new();
        let mut members: Vec<Vec<usize>> = Vec::new();
        let mut class_of = Vec::with_capacity(positions.len());
        for (i, p) in positions.iter().enumerate() {
            let c = match quotient {
                None => Class::Pos(p.clone()),
                Some(QuotientKind::Automorphisms) => Class::Pos(game.canonical(p)),
                Some(QuotientKind::Terminal) if options[i].is_empty() => Class::Terminal,
                Some(QuotientKind::Terminal) => Class::Pos(p.clone()),
            };
            let k = *class_index.entry(c.clone()).or_insert_with(|| {
                classes.push(c);
                members.push(Vec::new());
                classes.len() - 1
            });
            members[k].push(i);
            class_of.push(k);
        }
        let class_options = members
            .iter()
            .map(|ms| {
                let set: BTreeSet<usize> = ms
                    .iter()
                    .flat_map(|&m| options[m].iter().map(|&o| class_of[o]))
                    .collect();
                set.into_iter().collect()
            })
            .collect();
        Ok(Explicit {
            text,
            game,
            quotient,
            positions,
            index,
            options,
            class_of,
            classes,
            members,
            class_options,
        })
    }

    /// Option classes of one member.
    pub fn member_option_classes(&self, p: usize) -> BTreeSet<usize> {
        self.options[p].iter().map(|&o| self.class_of[o]).collect()
    }

    /// Label of a class: the member's label; `[..]` for an orbit; `⊥` for the terminal class.
    pub fn class_label(&self, c: usize) -> String {
        match (&self.classes[c], self.quotient) {
            (Class::Terminal, _) => "⊥ (the terminal positions)".into(),
            (Class::Pos(p), Some(QuotientKind::Automorphisms)) => {
                format!("[{}]", self.game.label(p))
            }
            (Class::Pos(p), _) => self.game.label(p),
        }
    }

    pub fn label(&self, p: usize) -> String {
        self.game.label(&self.positions[p])
    }

    /// nim-value of every class, computed on the explicit gamegraph (iterative post-order).
    pub fn class_nims(&self) -> Vec<u32> {
        let n = self.classes.len();
        let mut nim: Vec<Option<u32>> = vec![None; n];
        for root in 0..n {
            if nim[root].is_some() {
                continue;
            }
            let mut stack = vec![(root, 0usize)];
            while let Some(&mut (c, ref mut next)) = stack.last_mut() {
                let opts = &self.class_options[c];
                if *next < opts.len() {
                    let o = opts[*next];
                    *next += 1;
                    if nim[o].is_none() {
                        stack.push((o, 0));
                    }
                } else {
                    nim[c] = Some(mex(opts.iter().map(|&o| nim[o].expect("options first"))));
                    stack.pop();
                }
            }
        }
        nim.into_iter()
            .map(|v| v.expect("every class solved"))
            .collect()
    }
}

/// Converts a script's result into a position of `game`.
pub fn pos_from_dynamic(game: &AnyGame, d: &Dynamic) -> Result<AnyPos, String> {
    if let Ok(s) = d.clone().into_immutable_string() {
        return game.parse_pos(&s);
    }
    match game {
        AnyGame::Sum(parts) => {
            let a = d.as_array_ref().map_err(|_| {
                format!(
                    "a position of {game} is a text such as `{}` or an array with one entry per component, not {}",
                    game.label(&game.start()),
                    show(d)
                )
            })?;
            if a.len() != parts.len() {
                return Err(format!(
                    "{} has {} entries, but {game} has {} components",
                    show(d),
                    a.len(),
                    parts.len()
                ));
            }
            parts
                .iter()
                .zip(a.iter())
                .map(|(g, x)| pos_from_dynamic(g, x))
                .collect::<Result<Vec<_>, _>>()
                .map(AnyPos::Sum)
        }
        AnyGame::Nimber(k) => {
            let v = d
                .as_int()
                .map_err(|_| format!("expected a nimber, found {}", show(d)))?;
            if v < 0 || v > *k as i64 {
                return Err(format!("*{v} is not a position of *{k}"));
            }
            Ok(AnyPos::Nim(v as u32))
        }
        AnyGame::Multiset(_) => {
            let a = d
                .as_array_ref()
                .map_err(|_| format!("expected a multiset, found {}", show(d)))?;
            let mut u = a
                .iter()
                .map(|x| {
                    x.as_int()
                        .ok()
                        .filter(|&v| (0..=u32::MAX as i64).contains(&v))
                        .map(|v| v as u32)
                        .ok_or_else(|| {
                            format!("{} is not a list of non-negative integers", show(d))
                        })
                })
                .collect::<Result<Vec<u32>, String>>()?;
            u.sort_unstable();
            Ok(AnyPos::Multiset(u))
        }
        _ => Err(format!(
            "expected a text position of {game} such as `{}`, found {}",
            game.label(&game.start()),
            show(d)
        )),
    }
}

/// The environment of a map at one source position: `base` (parameters, lets), the
/// position's features, `label` (its text), and for graph games `marked` (vertex name →
/// selected).
/// Only what `script` mentions is computed (a variable it never names cannot matter).
pub fn map_env(base: &Env, game: &AnyGame, p: &AnyPos, script: &Script) -> Env {
    let mut env = base.clone();
    let mut features = game.features(p);
    features.retain(|k, _| script.mentions(k));
    env.add_features(&features);
    if script.mentions("label") {
        env.set("label", Dynamic::from(game.label(p)));
    }
    if !script.mentions("marked") {
        return env;
    }
    if let (AnyGame::Removing(g), AnyPos::Set(s)) = (game, p) {
        let mut m = Map::new();
        for (i, name) in g.graph().names().iter().enumerate() {
            m.insert(name.as_str().into(), Dynamic::from_bool(s >> i & 1 == 1));
        }
        env.set("marked", Dynamic::from_map(m));
    }
    env
}

/// Per-instance numbers for the report.
#[derive(Clone, Debug, Default)]
struct Counts {
    source_positions: u64,
    source_classes: u64,
    target_classes: u64,
}

enum Outcome {
    Agreed(Counts, Option<Box<MapPairs>>),
    Skipped,
    Refuted(Box<Counterexample>),
}

/// A failure found on one instance, before it is dressed as a counterexample.
struct Failure {
    game: String,
    position: String,
    claimed: String,
    computed: String,
    evidence: Vec<String>,
}

fn labels(side: &Explicit, set: &BTreeSet<usize>) -> String {
    let mut v: Vec<String> = set.iter().map(|&c| side.class_label(c)).collect();
    v.sort();
    if v.len() > 12 {
        let more = v.len() - 12;
        v.truncate(12);
        v.push(format!("… {more} more"));
    }
    format!("{{{}}}", v.join("; "))
}

impl Reduction {
    fn env0(&self, inst: &Instance) -> Result<Env, CheckError> {
        let mut env = Env::new();
        // `nim("…")` in a `let` solves under the spec's closure (docs/design.md §2, closures).
        env.closure = self.closure;
        for (k, v) in inst {
            env.set(k, v.to_dynamic());
        }
        for (name, f, loc) in &self.lets {
            let v = f.eval(&env).map_err(|m| CheckError {
                loc: loc.clone(),
                message: format!("{}{m}", at_instance(inst)),
            })?;
            env.set(name, v);
        }
        Ok(env)
    }

    /// Parameters and `let` values as they are substituted into game templates.
    fn words(&self, inst: &Instance, env: &Env) -> Vec<(String, String)> {
        let mut w: Vec<(String, String)> = inst
            .iter()
            .map(|(k, v)| (k.clone(), v.to_string()))
            .collect();
        for (name, _, _) in &self.lets {
            if let Some(v) = env.get(name) {
                let text = v
                    .clone()
                    .into_immutable_string()
                    .map(|s| s.to_string())
                    .unwrap_or_else(|_| show(v));
                w.retain(|(k, _)| k != name);
                w.push((name.clone(), text));
            }
        }
        w
    }

    fn game(
        &self,
        side: &Side,
        words: &[(String, String)],
        inst: &Instance,
    ) -> Result<(String, AnyGame), CheckError> {
        let text = substitute(&side.game, words);
        parse_game(
            &text,
            ParseOptions {
                closure: self.closure,
            },
        )
        .map(|g| (text.clone(), g))
        .map_err(|e| CheckError {
            loc: side.loc.clone(),
            message: format!("{}game `{text}`: {}", at_instance(inst), e.message),
        })
    }

    /// One instance; with `keep`, the pairs (p, f(p)) of a scripted map between games without
    /// quotients are returned too, or why not (more than `keep` positions).
    fn check_instance(&self, inst: &Instance, keep: Option<usize>) -> Result<Outcome, CheckError> {
        let base = self.env0(inst)?;
        if let Some(f) = &self.filter {
            let keep = f.eval_bool(&base).map_err(|m| CheckError {
                loc: self.filter_loc.clone(),
                message: format!("{}{m}", at_instance(inst)),
            })?;
            if !keep {
                return Ok(Outcome::Skipped);
            }
        }
        let words = self.words(inst, &base);
        let (stext, sgame) = self.game(&self.from, &words, inst)?;
        let (ttext, tgame) = match self.map {
            MapKind::Identity => (stext.clone(), sgame.clone()),
            MapKind::Script(_) => self.game(&self.to, &words, inst)?,
        };
        let side_err = |loc: &Loc, m: String| CheckError {
            loc: loc.clone(),
            message: format!("{}{m}", at_instance(inst)),
        };
        let src = Explicit::build(
            stext.clone(),
            sgame.clone(),
            self.from.quotient,
            &[sgame.start()],
        )
        .map_err(|m| side_err(&self.from.loc, m))?;
        // The map on every reachable source position.
        let mut images: Vec<AnyPos> = Vec::with_capacity(src.positions.len());
        for p in &src.positions {
            let img = match &self.map {
                MapKind::Identity => p.clone(),
                MapKind::Script(s) => {
                    let env = map_env(&base, &sgame, p, s);
                    let d = s.eval(&env).map_err(|m| {
                        side_err(&self.map_loc, format!("map at {}: {m}", sgame.label(p)))
                    })?;
                    pos_from_dynamic(&tgame, &d).map_err(|m| {
                        side_err(
                            &self.map_loc,
                            format!(
                                "map at {} gave `{}`, not a position of {ttext}: {m}",
                                sgame.label(p),
                                show(&d)
                            ),
                        )
                    })?
                }
            };
            images.push(img);
        }
        let mut roots = vec![tgame.start()];
        roots.extend(images.iter().cloned());
        let tgt = Explicit::build(ttext.clone(), tgame.clone(), self.to.quotient, &roots)
            .map_err(|m| side_err(&self.to.loc, m))?;
        let fail = |f: Failure| -> Result<Outcome, CheckError> {
            Ok(Outcome::Refuted(Box::new(Counterexample {
                instance: describe_instance(inst),
                game: f.game,
                position: Some(f.position),
                claimed: f.claimed,
                computed: f.computed,
                evidence: f.evidence,
            })))
        };
        let fmap = |p: usize| tgt.class_of[tgt.index[&images[p]]];
        // Quotients must be congruences for their quotient maps to be option-preserving.
        for side in [&src, &tgt] {
            if side.quotient.is_none() {
                continue;
            }
            for (c, ms) in side.members.iter().enumerate() {
                let first = side.member_option_classes(ms[0]);
                for &m in &ms[1..] {
                    let other = side.member_option_classes(m);
                    if let Some(&x) = first.symmetric_difference(&other).next() {
                        let (has, lacks) = if first.contains(&x) {
                            (ms[0], m)
                        } else {
                            (m, ms[0])
                        };
                        return fail(Failure {
                            game: side.text.clone(),
                            position: side.label(has),
                            claimed: format!(
                                "{} and {} are identified by the quotient, so they have the same option classes",
                                side.label(has),
                                side.label(lacks)
                            ),
                            computed: format!("{} has an option in class {} and {} has none", side.label(has), side.class_label(x), side.label(lacks)),
                            evidence: vec![format!("class {}", side.class_label(c))],
                        });
                    }
                }
            }
        }
        // The map must be constant on the classes of a quotiented source.
        let mut fclass: Vec<usize> = Vec::with_capacity(src.classes.len());
        for ms in &src.members {
            let img = fmap(ms[0]);
            for &m in &ms[1..] {
                if fmap(m) != img {
                    return fail(Failure {
                        game: format!("{stext} → {ttext}"),
                        position: src.label(m),
                        claimed: format!("f is constant on the class of {}", src.label(ms[0])),
                        computed: format!(
                            "f({}) = {} but f({}) = {}",
                            src.label(ms[0]),
                            tgt.class_label(img),
                            src.label(m),
                            tgt.class_label(fmap(m))
                        ),
                        evidence: vec![],
                    });
                }
            }
            fclass.push(img);
        }
        let image_set: BTreeSet<usize> = fclass.iter().copied().collect();
        let tstart = tgt.class_of[0];
        if self.claims.option_preserving {
            for c in 0..src.members.len() {
                let fp = fclass[c];
                let f_opt: BTreeSet<usize> =
                    src.class_options[c].iter().map(|&o| fclass[o]).collect();
                let opt_f: BTreeSet<usize> = tgt.class_options[fp].iter().copied().collect();
                if let Some(&x) = f_opt.symmetric_difference(&opt_f).next() {
                    let computed = if opt_f.contains(&x) {
                        format!(
                            "f(p) = {}; {} is in Opt(f(p)) but not in f(Opt(p))",
                            tgt.class_label(fp),
                            tgt.class_label(x)
                        )
                    } else {
                        let via = src.class_options[c]
                            .iter()
                            .find(|&&o| fclass[o] == x)
                            .map(|&o| src.class_label(o))
                            .unwrap_or_default();
                        format!(
                            "f(p) = {}; {} = f({via}) is in f(Opt(p)) but not in Opt(f(p))",
                            tgt.class_label(fp),
                            tgt.class_label(x)
                        )
                    };
                    return fail(Failure {
                        game: format!("{stext} → {ttext}"),
                        position: src.class_label(c),
                        claimed: "Opt(f(p)) = f(Opt(p))".into(),
                        computed,
                        evidence: vec![
                            format!("f(Opt(p)) = {}", labels(&tgt, &f_opt)),
                            format!("Opt(f(p)) = {}", labels(&tgt, &opt_f)),
                        ],
                    });
                }
            }
        }
        if self.claims.start_to_start && fclass[src.class_of[0]] != tstart {
            return fail(Failure {
                game: format!("{stext} → {ttext}"),
                position: src.label(0),
                claimed: format!("f(start) = {}", tgt.class_label(tstart)),
                computed: format!("f(start) = {}", tgt.class_label(fclass[src.class_of[0]])),
                evidence: vec![],
            });
        }
        // Classes reachable from the target's start.
        let mut reach = vec![false; tgt.classes.len()];
        let mut stack = vec![tstart];
        reach[tstart] = true;
        while let Some(c) = stack.pop() {
            for &o in &tgt.class_options[c] {
                if !reach[o] {
                    reach[o] = true;
                    stack.push(o);
                }
            }
        }
        if self.claims.surjective {
            if let Some(c) = (0..tgt.classes.len()).find(|&c| reach[c] && !image_set.contains(&c)) {
                return fail(Failure {
                    game: format!("{stext} → {ttext}"),
                    position: tgt.class_label(c),
                    claimed: "f is onto the positions reachable in the target".into(),
                    computed: format!(
                        "{} is reachable in {ttext} but is not an image",
                        tgt.class_label(c)
                    ),
                    evidence: vec![],
                });
            }
            if let Some(c) = image_set.iter().copied().find(|&c| !reach[c]) {
                return fail(Failure {
                    game: format!("{stext} → {ttext}"),
                    position: tgt.class_label(c),
                    claimed: "f is onto the positions reachable in the target".into(),
                    computed: format!(
                        "the image {} is not reachable from the start of {ttext}",
                        tgt.class_label(c)
                    ),
                    evidence: vec![],
                });
            }
        }
        if self.claims.injective {
            let mut seen: FxHashMap<usize, usize> = FxHashMap::default();
            for (c, &img) in fclass.iter().enumerate() {
                if let Some(&d) = seen.get(&img) {
                    return fail(Failure {
                        game: format!("{stext} → {ttext}"),
                        position: src.class_label(c),
                        claimed: "f is injective".into(),
                        computed: format!(
                            "f({}) = f({}) = {}",
                            src.class_label(d),
                            src.class_label(c),
                            tgt.class_label(img)
                        ),
                        evidence: vec![],
                    });
                }
                seen.insert(img, c);
            }
        }
        // Prop 2.3 as a consequence, on the explicit gamegraphs and with the solver.
        let snim = src.class_nims();
        let tnim = tgt.class_nims();
        let mut ssolver = Solver::new(&sgame);
        let mut tsolver = Solver::new(&tgame);
        for (p, pos) in src.positions.iter().enumerate() {
            let a = ssolver.nim(pos);
            let b = tsolver.nim(&images[p]);
            let e = (snim[src.class_of[p]], tnim[fmap(p)]);
            if a != b || e != (a, a) {
                if self.claims.option_preserving && a == e.0 && b == e.1 {
                    // Cannot happen for an option-preserving map (Prop 2.3); report loudly.
                    return Err(side_err(&self.map_loc, format!("internal error: option-preserving map at {} changes the nim-value from {a} to {b}", src.label(p))));
                }
                return fail(Failure {
                    game: format!("{stext} → {ttext}"),
                    position: src.label(p),
                    claimed: "nim(p) = nim(f(p))".into(),
                    computed: format!(
                        "nim(p) = {a} but nim(f(p)) = nim({}) = {b} (explicit gamegraphs: {} and {})",
                        tgt.label(tgt.index[&images[p]]),
                        e.0,
                        e.1
                    ),
                    evidence: vec![],
                });
            }
        }
        let counts = Counts {
            source_positions: src.positions.len() as u64,
            source_classes: src.classes.len() as u64,
            target_classes: reach.iter().filter(|&&r| r).count() as u64,
        };
        // The same pairs, in the same breadth-first order, as `map_pairs` computes.
        let pairs = match keep {
            Some(cap) => Some(Box::new(MapPairs {
                instance: describe_instance(inst),
                pairs: if src.positions.len() > cap {
                    Err(format!(
                        "more than {cap} positions (the per-instance budget)"
                    ))
                } else {
                    Ok(src.positions.iter().cloned().zip(images).collect())
                },
                from: sgame,
                to: tgame,
                from_quotient: self.from.quotient,
                to_quotient: self.to.quotient,
            })),
            None => None,
        };
        Ok(Outcome::Agreed(counts, pairs))
    }

    /// Checks every instance in parallel; the smallest failing instance is reported.
    pub fn check(&self) -> Result<Report, CheckError> {
        self.check_keeping_pairs(None).map(|(r, _)| r)
    }

    /// [`Reduction::check`], also returning the map's pairs on every instance with at most
    /// `keep` positions (as [`Reduction::map_pairs`] would compute them), so that a certificate
    /// need not evaluate the map again.
    pub fn check_keeping_pairs(
        &self,
        keep: Option<usize>,
    ) -> Result<(Report, Option<Vec<MapPairs>>), CheckError> {
        let t0 = Instant::now();
        let all = instances(&self.params);
        // The spec's folder goes along to the workers (relative `file:` graphs).
        let folder = crate::graph::io::base();
        let results: Vec<Result<Outcome, CheckError>> = all
            .par_iter()
            .map(|i| {
                crate::graph::io::with_base(folder.as_deref(), || self.check_instance(i, keep))
            })
            .collect();
        let mut kept = Vec::new();
        let mut checked = 0u64;
        let mut total = Counts::default();
        let mut verdict = Verdict::Holds;
        for r in results {
            match r? {
                Outcome::Skipped => {}
                Outcome::Agreed(c, pairs) => {
                    kept.extend(pairs.map(|p| *p));
                    checked += 1;
                    total.source_positions += c.source_positions;
                    total.source_classes += c.source_classes;
                    total.target_classes += c.target_classes;
                }
                Outcome::Refuted(cx) => {
                    checked += 1;
                    verdict = Verdict::Refuted {
                        counterexample: *cx,
                    };
                    break;
                }
            }
        }
        if checked == 0 {
            return Err(CheckError {
                loc: self.filter_loc.clone(),
                message: format!(
                    "no instance of {} is selected: the claim would hold vacuously",
                    describe_range(&self.params)
                ),
            });
        }
        let mut claims = Vec::new();
        for (on, name) in [
            (self.claims.option_preserving, "option-preserving"),
            (self.claims.surjective, "surjective"),
            (self.claims.start_to_start, "start to start"),
            (self.claims.injective, "injective"),
        ] {
            if on {
                claims.push(name);
            }
        }
        let measured = if verdict.holds() {
            format!(
                "{} ({}): {} source positions in {} classes onto {} target positions or classes; nim(p) = nim(f(p)) on every one, by the solver.",
                self.map_name(),
                claims.join(", "),
                total.source_positions,
                total.source_classes,
                total.target_classes
            )
        } else {
            format!("{} ({})", self.map_name(), claims.join(", "))
        };
        let notes = Some(match &self.notes {
            Some(n) => format!("{n} {measured}"),
            None => measured,
        });
        let report = Report {
            id: self.id.clone(),
            kind: "reduction".into(),
            source: self.source.clone(),
            file: self.file.clone(),
            instances: checked,
            positions: total.source_positions,
            range: describe_range(&self.params),
            expect: self.expect,
            as_expected: verdict.matches(self.expect),
            verdict,
            notes,
            coverage: Vec::new(),
            rests_on: Vec::new(),
            companion: None,
            excused: None,
            identity: None,
            laws: None,
            seconds: t0.elapsed().as_secs_f64(),
        }
        .with_coverage(
            // Every claimed property and the nim cross-check are decided on every position of
            // every selected instance.
            claims
                .iter()
                .copied()
                .chain(["nim(p) = nim(f(p))"])
                .map(|c| super::PartCoverage {
                    part: format!("claim {c}"),
                    instances: checked,
                    positions: total.source_positions,
                    unreached: None,
                    first: None,
                })
                .collect(),
        );
        Ok((report, keep.is_some().then_some(kept)))
    }

    fn map_name(&self) -> String {
        let side = |s: &Side| match s.quotient {
            None => s.game.clone(),
            Some(QuotientKind::Automorphisms) => format!("{} / automorphisms", s.game),
            Some(QuotientKind::Terminal) => format!("{} / terminal", s.game),
        };
        format!("f: {} → {}", side(&self.from), side(&self.to))
    }
}

/// One instance of a scripted map, exported for certificates (`crate::certify`).
pub struct MapPairs {
    pub instance: String,
    pub from: AnyGame,
    pub to: AnyGame,
    /// `(p, f(p))` for every position reachable from the source's start, breadth-first; or
    /// why the instance is left out (more than the budget of positions).
    pub pairs: Result<Vec<(AnyPos, AnyPos)>, String>,
    /// The quotients the map is between (the canonical quotient map `p ↦ p` into the quotient
    /// of the same game, or a map between quotient gamegraphs): f(p) stands for its class.
    pub from_quotient: Option<QuotientKind>,
    pub to_quotient: Option<QuotientKind>,
}

impl Reduction {
    /// The map on every selected instance, for certificates (a position standing for its class
    /// on a quotient side).
    pub fn map_pairs(&self, cap: usize) -> Result<Option<Vec<MapPairs>>, CheckError> {
        let mut out = Vec::new();
        for inst in instances(&self.params) {
            let base = self.env0(&inst)?;
            if let Some(f) = &self.filter {
                let keep = f.eval_bool(&base).map_err(|m| CheckError {
                    loc: self.filter_loc.clone(),
                    message: format!("{}{m}", at_instance(&inst)),
                })?;
                if !keep {
                    continue;
                }
            }
            let words = self.words(&inst, &base);
            let (_, from) = self.game(&self.from, &words, &inst)?;
            let (_, to) = self.game(&self.to, &words, &inst)?;
            let mut order = vec![from.start()];
            let mut seen: rustc_hash::FxHashSet<AnyPos> = order.iter().cloned().collect();
            let mut i = 0;
            let mut over = false;
            while i < order.len() && !over {
                for q in from.options(&order[i]) {
                    if seen.insert(q.clone()) {
                        order.push(q);
                    }
                }
                over = order.len() > cap;
                i += 1;
            }
            let pairs = if over {
                Err(format!(
                    "more than {cap} positions (the per-instance budget)"
                ))
            } else {
                order
                    .into_iter()
                    .map(|p| {
                        let MapKind::Script(script) = &self.map else {
                            return Ok((p.clone(), p));
                        };
                        let d = script
                            .eval(&map_env(&base, &from, &p, script))
                            .map_err(|m| format!("map at {}: {m}", from.label(&p)))?;
                        let q = pos_from_dynamic(&to, &d)?;
                        Ok((p, q))
                    })
                    .collect()
            };
            out.push(MapPairs {
                instance: describe_instance(&inst),
                from,
                to,
                pairs,
                from_quotient: self.from.quotient,
                to_quotient: self.to.quotient,
            });
        }
        Ok(Some(out))
    }
}
