//! `kind: claim` (docs/design.md §2): a value (nim-value or outcome) stated for every instance of a
//! family over finite parameter ranges, at the start position or at every reachable position
//! selected by a predicate. Checked means every instance in the range was solved exhaustively
//! and agreed; otherwise the smallest instance is reported with the option list as evidence.

use super::formula::{show, Env, Formula};
use super::teeth::Observed;
use super::{
    at_instance, describe_instance, describe_range, instances, instantiate, tally, CheckError,
    Counterexample, Expectation, Instance, InstanceResult, Loc, Param, ParamValue, PartCoverage,
    Report, Verdict,
};

/// Positions per instance whose environments are recorded for the teeth test.
const OBSERVED_PER_INSTANCE: u64 = 64;
use crate::expr::{parse_game, parse_game_for_outcomes, ParseOptions};
use crate::game::{AnyGame, AnyPos, Game};
use crate::graph::Closure;
use crate::solve::Solver;
use rayon::prelude::*;
use rhai::Dynamic;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// What checking one instance solved, kept for its certificate so that nothing is parsed or
/// solved twice (issue 41): the game as parsed and the exhaustive solver's memo (values of
/// canonical positions), or the start's value found by another method (closure games, whose
/// certificate is not a table).
pub struct Solved {
    pub text: String,
    pub game: AnyGame,
    pub memo: rustc_hash::FxHashMap<AnyPos, u32>,
    /// The positions reachable from the start in the table's order
    /// ([`crate::solve::reachable_order`], split), when the start was solved for its table.
    pub order: Option<Vec<AnyPos>>,
    pub nim: Option<u32>,
}

/// The solved instances a check keeps, by their index in the parameter range.
pub type Kept = BTreeMap<usize, Solved>;

/// How much a check keeps for the certificate: instances whose memo has at most
/// `per_instance` positions, while the spec's kept positions stay under `per_spec` (the
/// certificate's own budgets, passed down by the spec kind).
#[derive(Clone, Copy, Debug)]
pub struct KeepLimits {
    pub per_instance: usize,
    pub per_spec: usize,
    /// Whether the certificate can list a table of this game at all.
    pub certifiable: fn(&AnyGame) -> bool,
}

/// The kept instances of one check, filled by its parallel instance checks.
struct Keeper {
    limits: KeepLimits,
    used: AtomicUsize,
    /// The least instance index whose start was past the per-instance budget: ranges come
    /// smallest first, so later instances are not tried by the memo solver first (the
    /// certificate stops trying there too).
    first_miss: AtomicUsize,
    kept: Mutex<Kept>,
}

impl Keeper {
    fn has_room(&self) -> bool {
        self.used.load(Ordering::Relaxed) < self.limits.per_spec
    }

    /// Whether instance `k`'s start is worth solving by the memo solver first.
    fn try_first(&self, k: usize, game: &AnyGame) -> bool {
        self.has_room()
            && k <= self.first_miss.load(Ordering::Relaxed)
            && !matches!(game, AnyGame::Closure(_))
            && (self.limits.certifiable)(game)
            && crate::solve::estimate::distinct_bound(game)
                .is_none_or(|b| b <= self.limits.per_instance as f64)
    }

    /// Instance `k`'s start was past the per-instance budget.
    fn missed(&self, k: usize) {
        self.spend(self.limits.per_instance);
        self.first_miss.fetch_min(k, Ordering::Relaxed);
    }

    /// Counts positions solved for nothing (a memo past the per-instance budget).
    fn spend(&self, positions: usize) {
        self.used.fetch_add(positions, Ordering::Relaxed);
    }

    /// Keeps what instance `k`'s check solved if it fits (a memo past the per-instance budget
    /// is dropped: its certificate would not list the instance).
    fn keep(&self, k: usize, solved: Solved) {
        // The certificate's budgets count the table's positions (literal, not canonical).
        let size = solved.order.as_ref().map_or(solved.memo.len(), Vec::len);
        if (solved.memo.is_empty() && solved.nim.is_none())
            || size > self.limits.per_instance
            || !self.has_room()
        {
            return;
        }
        self.spend(size.max(1));
        if let Ok(mut kept) = self.kept.lock() {
            kept.insert(k, solved);
        }
    }
}

/// A value given by one expression or by cases, like the paper's case formulas.
#[derive(Clone, Debug)]
pub enum ValueFormula {
    Expr(Formula),
    /// `(when, value)` pairs; every case whose condition holds must give the same value, and
    /// some case must apply.
    Cases(Vec<(Formula, Formula)>),
}

/// Why a value formula gives no value: the claim does not determine it (a refutation), or
/// the formula fails (bad input).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoValue {
    /// No case applies, or two applying cases disagree: the claim is not a function there.
    Undetermined(String),
    Error(String),
}

impl From<String> for NoValue {
    fn from(m: String) -> NoValue {
        NoValue::Error(m)
    }
}

impl ValueFormula {
    pub fn eval(&self, env: &Env) -> Result<Dynamic, NoValue> {
        self.eval_cases(env, &mut Vec::new())
    }

    /// Evaluates, pushing onto `hits` the index of every case whose condition holds.
    pub fn eval_cases(&self, env: &Env, hits: &mut Vec<usize>) -> Result<Dynamic, NoValue> {
        match self {
            ValueFormula::Expr(f) => Ok(f.eval(env)?),
            ValueFormula::Cases(cases) => {
                let mut found: Option<(Dynamic, &str)> = None;
                for (i, (when, value)) in cases.iter().enumerate() {
                    if when.eval_bool(env)? {
                        hits.push(i);
                        let v = value.eval(env)?;
                        match &found {
                            None => found = Some((v, &when.src)),
                            Some((w, src)) if show(w) != show(&v) => {
                                return Err(NoValue::Undetermined(format!(
                                    "cases `{src}` and `{}` both apply but give {} and {}",
                                    when.src,
                                    show(w),
                                    show(&v)
                                )))
                            }
                            Some(_) => {}
                        }
                    }
                }
                found
                    .map(|(v, _)| v)
                    .ok_or_else(|| NoValue::Undetermined("no case applies".to_string()))
            }
        }
    }
}

/// What is claimed of each selected position.
#[derive(Clone, Debug)]
pub enum Claimed {
    Nim(ValueFormula),
    /// Evaluates to "P" or "N".
    Outcome(ValueFormula),
    /// A predicate that must be true (a statement that is not a value, e.g. Example 5.12's
    /// σ = 2, λ = 6, …): no game value is computed.
    Holds(Formula),
}

/// Which positions of each instance the claim is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Positions {
    Start,
    Reachable,
}

/// A validated claim spec.
#[derive(Clone, Debug)]
pub struct Claim {
    pub id: String,
    pub file: String,
    pub source: String,
    pub notes: Option<String>,
    pub game: String,
    pub game_loc: Loc,
    pub closure: Closure,
    pub params: Vec<Param>,
    pub filter: Option<Formula>,
    pub filter_loc: Loc,
    pub lets: Vec<(String, Formula, Loc)>,
    pub positions: Positions,
    pub claimed: Claimed,
    pub claimed_loc: Loc,
    pub expect: Expectation,
    /// Per case of a `cases` formula, the spec's reason why no instance reaches it.
    pub unreached: Vec<Option<String>>,
    /// [`Claim::reads_families`], decided on first use (environments are built per position).
    pub family_features_read: std::sync::OnceLock<bool>,
    /// `is:`, the group the statement names (with parameters), and where it is written.
    pub is_group: Option<(String, Loc)>,
}

/// Whether the game is on a group isomorphic to the one named `declared` (`is:`): `Err` with
/// the reason when it is not, when the game is not on a group, or when the search does not
/// decide.
pub fn check_group_is(game: &AnyGame, declared: &str) -> Result<(), String> {
    use crate::group::isomorphism::{isomorphic, Answer, Invariants};
    let want = crate::group::families::parse_group(declared)
        .map_err(|e| format!("`is: {declared}`: {e}"))?;
    let on_group = match game {
        AnyGame::Closure(c) => c.operator().group(),
        _ => None,
    };
    let Some(have) = on_group else {
        return Err(format!(
            "`is: {declared}` declares a group, but {game} is not a game on a group"
        ));
    };
    match isomorphic(have, &want) {
        Answer::Isomorphic => Ok(()),
        Answer::Not(why) => Err(format!(
            "the game's group {} is not {declared}, as `is:` declares: {why} ({}: {}; {declared}: {})",
            have.name(),
            have.name(),
            Invariants::of(have).describe(),
            Invariants::of(&want).describe()
        )),
        Answer::Undecided => Err(format!(
            "whether the game's group {} is {declared}, as `is:` declares, was not decided within {} steps of the isomorphism search",
            have.name(),
            crate::group::isomorphism::SEARCH_BUDGET
        )),
    }
}

/// How often each case of a claim applied within one instance (positions per case).
type CaseHits = Vec<u64>;

impl Claim {
    fn formula(&self) -> Option<&ValueFormula> {
        match &self.claimed {
            Claimed::Nim(f) | Claimed::Outcome(f) => Some(f),
            Claimed::Holds(_) => None,
        }
    }

    fn n_cases(&self) -> usize {
        match self.formula() {
            Some(ValueFormula::Cases(c)) => c.len(),
            _ => 0,
        }
    }

    /// A `holds` claim at one selected position: `None` when the predicate is true, else the
    /// counterexample with the values of the parameters and `let`s as evidence.
    fn check_holds(
        &self,
        p: &Formula,
        inst: &Instance,
        text: &str,
        position: Option<String>,
        env: &Env,
    ) -> Result<Option<Counterexample>, CheckError> {
        let ok = p.eval_bool(env).map_err(|m| CheckError {
            loc: self.claimed_loc.clone(),
            message: format!("{}{m}", at_instance(inst)),
        })?;
        if ok {
            return Ok(None);
        }
        let evidence = self
            .lets
            .iter()
            .filter_map(|(name, _, _)| env.get(name).map(|v| format!("{name} = {}", show(v))))
            .collect();
        Ok(Some(Counterexample {
            instance: describe_instance(inst),
            game: text.to_string(),
            position,
            claimed: format!("`{}`", p.src),
            computed: "false".into(),
            evidence,
        }))
    }

    /// The instances of the ranges, less those that a `where` reading only parameters rejects
    /// before their game is built: `UEG(graph6:G, t)` with `where: t < n` names no game at a
    /// token past a smaller graph's last vertex. A filter that reads a feature or a `let`
    /// fails to evaluate here and keeps the instance, to be decided at its positions; one that
    /// evaluates to false on the parameters alone is false at every position (parameters
    /// shadow features), so nothing the check would select is dropped.
    pub fn instances(&self) -> Vec<Instance> {
        let all = instances(&self.params);
        let Some(f) = &self.filter else {
            return all;
        };
        all.into_iter()
            .filter(|inst| {
                let mut env = Env::new();
                env.closure = self.closure;
                for (k, v) in inst {
                    env.set(k, v.to_dynamic());
                }
                !matches!(f.eval_bool(&env), Ok(false))
            })
            .collect()
    }

    /// Parses the game of one instance.
    pub fn game_of(&self, inst: &Instance) -> Result<(String, AnyGame), CheckError> {
        let text = instantiate(&self.game, inst);
        // Only an outcome claim may name a game played misère (docs/user-games.md).
        let parse = match self.claimed {
            Claimed::Outcome(_) => parse_game_for_outcomes,
            _ => parse_game,
        };
        let g = parse(
            &text,
            ParseOptions {
                closure: self.closure,
            },
        )
        .map_err(|e| CheckError {
            loc: self.game_loc.clone(),
            message: format!("{}game `{text}`: {}", at_instance(inst), e.message),
        })?;
        if let Some((declared, loc)) = &self.is_group {
            check_group_is(&g, &instantiate(declared, inst)).map_err(|m| CheckError {
                loc: loc.clone(),
                message: format!("{}{m}", at_instance(inst)),
            })?;
        }
        Ok((text, g))
    }

    /// What `is:` adds to the verdict: the declared group, checked by isomorphism, and its
    /// invariants at the first instance (docs/design.md §2, "What a group is").
    pub fn group_identity(&self) -> Option<String> {
        let (declared, _) = self.is_group.as_ref()?;
        let instances = instances(&self.params);
        let first = instances.first()?;
        let group = crate::group::families::parse_group(&instantiate(declared, first)).ok()?;
        let inv = crate::group::isomorphism::Invariants::of(&group).describe();
        Some(if first.is_empty() {
            format!("its group is {declared}, checked by isomorphism ({inv})")
        } else {
            format!(
                "its group is {declared}, checked by isomorphism at every instance (at {}: {inv})",
                describe_instance(first)
            )
        })
    }

    /// Whether a formula of the claim may read a feature computed from the graph's families
    /// (a textual test, so it errs on the side of computing them).
    pub(crate) fn reads_families(&self) -> bool {
        *self
            .family_features_read
            .get_or_init(|| self.mentions_family_features())
    }

    fn mentions_family_features(&self) -> bool {
        let mut srcs: Vec<&str> = Vec::new();
        srcs.extend(self.filter.iter().map(|f| f.src.as_str()));
        srcs.extend(self.lets.iter().map(|(_, f, _)| f.src.as_str()));
        match &self.claimed {
            Claimed::Nim(ValueFormula::Expr(f))
            | Claimed::Outcome(ValueFormula::Expr(f))
            | Claimed::Holds(f) => srcs.push(&f.src),
            Claimed::Nim(ValueFormula::Cases(c)) | Claimed::Outcome(ValueFormula::Cases(c)) => {
                for (w, v) in c {
                    srcs.push(&w.src);
                    srcs.push(&v.src);
                }
            }
        }
        crate::game::features::COSTLY
            .iter()
            .any(|name| srcs.iter().any(|s| s.contains(name)))
    }

    /// The environment the claim is evaluated in at a position: the spec's closure, the
    /// parameters, the position's features, then the spec's `let`s. The one place the
    /// bindings are built: the checker and the certificate writer both call it.
    pub(crate) fn env(
        &self,
        inst: &Instance,
        game: &AnyGame,
        pos: &AnyPos,
    ) -> Result<Env, CheckError> {
        let mut env = Env::new();
        env.closure = self.closure;
        for (k, v) in inst {
            env.set(k, v.to_dynamic());
        }
        env.add_features(&game.features_for(pos, self.reads_families()));
        for (name, f, loc) in &self.lets {
            let v = f.eval(&env).map_err(|m| CheckError {
                loc: loc.clone(),
                message: format!("{}{m}", at_instance(inst)),
            })?;
            env.set(name, v);
        }
        Ok(env)
    }

    fn selected(&self, env: &Env, inst: &Instance) -> Result<bool, CheckError> {
        match &self.filter {
            None => Ok(true),
            Some(f) => f.eval_bool(env).map_err(|m| CheckError {
                loc: self.filter_loc.clone(),
                message: format!("{}{m}", at_instance(inst)),
            }),
        }
    }

    // The instance, its game and solver, the position and its environment, and the case
    // tally are all per-call state of one instance's loop.
    #[allow(clippy::too_many_arguments)]
    fn check_position(
        &self,
        inst: &Instance,
        text: &str,
        game: &AnyGame,
        solver: &mut Solver<AnyGame>,
        pos: &AnyPos,
        env: &Env,
        hits: &mut CaseHits,
    ) -> Result<Option<Counterexample>, CheckError> {
        let nim = solver.nim(pos);
        let misere = game.misere().is_some();
        let Some((claimed, computed)) = self.compare(inst, env, nim, misere, hits)? else {
            return Ok(None);
        };
        let options = game.options(pos);
        let mut evidence: Vec<String> = if misere {
            // The options' misère outcomes; ⊥ is no position: a position whose only option
            // is ⊥ has none in the game, and its player wins by having no move.
            let real: Vec<&AnyPos> = options.iter().filter(|o| !game.hidden(o)).collect();
            if real.is_empty() {
                vec!["no move: the player to move wins under misère play".to_string()]
            } else {
                real.into_iter()
                    .map(|o| {
                        let out = if solver.nim(o) == 0 { "P" } else { "N" };
                        format!("{} {out} (misère)", game.label(o))
                    })
                    .collect()
            }
        } else {
            options
                .iter()
                .map(|o| format!("{} *{}", game.label(o), solver.nim(o)))
                .collect()
        };
        evidence.sort();
        evidence.dedup();
        if evidence.len() > 12 {
            let more = evidence.len() - 12;
            evidence.truncate(12);
            evidence.push(format!("… {more} more"));
        }
        let position = (self.positions == Positions::Reachable).then(|| game.label(pos));
        Ok(Some(Counterexample {
            instance: describe_instance(inst),
            game: text.to_string(),
            position,
            claimed,
            computed,
            evidence,
        }))
    }

    /// Compares the claim at one position with its nim-value: `None` when they agree (the
    /// cases that applied are tallied), else the claimed and the computed value as text.
    /// `misere`: the game is played misère, its nim-value that of the normal-play transform,
    /// which is not shown (only its outcome means anything).
    fn compare(
        &self,
        inst: &Instance,
        env: &Env,
        nim: u32,
        misere: bool,
        hits: &mut CaseHits,
    ) -> Result<Option<(String, String)>, CheckError> {
        let err = |m: String| CheckError {
            loc: self.claimed_loc.clone(),
            message: format!("{}{m}", at_instance(inst)),
        };
        let (formula, is_nim) = match &self.claimed {
            Claimed::Nim(f) => (f, true),
            Claimed::Outcome(f) => (f, false),
            // Decided by `check_holds` before any value is computed; kept total here.
            Claimed::Holds(p) => {
                return Ok((!p.eval_bool(env).map_err(err)?)
                    .then(|| (format!("`{}`", p.src), "false".to_string())))
            }
        };
        let actual = if nim == 0 { "P" } else { "N" };
        let computed_outcome = if misere {
            format!("{actual} (misère play)")
        } else {
            format!("{actual} (nim *{nim})")
        };
        let mut applied = Vec::new();
        let evaluated = formula.eval_cases(env, &mut applied);
        for i in applied {
            hits[i] += 1;
        }
        let (claimed, computed) = match evaluated {
            Err(NoValue::Error(m)) => return Err(err(m)),
            Err(NoValue::Undetermined(why)) => (
                why,
                if is_nim {
                    format!("*{nim}")
                } else {
                    computed_outcome
                },
            ),
            Ok(v) if is_nim => {
                let c = v.as_int().map_err(|t| {
                    err(format!(
                        "the claimed nim-value has type {t}, expected an integer"
                    ))
                })?;
                if c < 0 {
                    return Err(err(format!(
                        "the claimed nim-value is {c}; nim-values are nonnegative"
                    )));
                }
                if c == nim as i64 {
                    return Ok(None);
                }
                (format!("*{c}"), format!("*{nim}"))
            }
            Ok(v) => {
                let c = v.into_string().map_err(|t| {
                    err(format!(
                        "the claimed outcome has type {t}, expected \"P\" or \"N\""
                    ))
                })?;
                if c != "P" && c != "N" {
                    return Err(err(format!(
                        "the claimed outcome is `{c}`, expected \"P\" or \"N\""
                    )));
                }
                if c == actual {
                    return Ok(None);
                }
                (c, computed_outcome)
            }
        };
        Ok(Some((claimed, computed)))
    }

    /// An outcome claim about TER(C_n), n odd, at its start is decided by the packed outcome
    /// sweep of `solve::cycle` (exact: outcome P ⇔ nim 0), which reaches far larger n than the
    /// general solver. Refutations fall back to the general solver for their evidence.
    fn fast_outcome(&self, game: &AnyGame) -> Option<&'static str> {
        if matches!(self.claimed, Claimed::Outcome(_)) && octal_only(game) {
            // Sums of octal heaps and nimbers: the nim sequence with its proved Guy–Smith
            // period (Prop 5.23 for DC), O(1) per heap past the period.
            let v = crate::solve::dispatch::nim(game, &crate::solve::dispatch::Options::quiet());
            return v.ok().map(|v| if v == 0 { "P" } else { "N" });
        }
        let (AnyGame::Removing(g), Claimed::Outcome(_)) = (game, &self.claimed) else {
            return None;
        };
        let graph = g.graph();
        let n = graph.n() as u32;
        let is_odd_cycle = n >= 5
            && n % 2 == 1
            && graph.edges().len() == n as usize
            && (0..graph.n()).all(|v| graph.degree(v) == 2);
        if g.rule() != crate::game::removing::Rule::Ter
            || g.start_set() != 0
            || !g.convexity().closure_kind().is_geodesic_hull()
            || !is_odd_cycle
        {
            return None;
        }
        let r = crate::solve::cycle::outcome_by_reply(n).ok()?;
        Some(match r {
            crate::solve::cycle::Outcome::P => "P",
            crate::solve::cycle::Outcome::N => "N",
        })
    }

    /// The solver's guard (design: refuse, never abort): an instance whose exhaustive solve is
    /// estimated past the machine's budget is an error at the game's location.
    fn guard(&self, inst: &Instance, game: &AnyGame) -> Result<(), CheckError> {
        super::memo_guard(game).map_err(|r| CheckError {
            loc: self.game_loc.clone(),
            message: format!("{}{r}", at_instance(inst)),
        })
    }

    /// Checks instance `k`; with a keeper, what it solves is kept for the certificate, and a
    /// start small enough to certify is solved by the memo solver first (its table is the
    /// certificate's), the other methods only when that solve is past the budget or disagrees.
    fn check_instance(
        &self,
        k: usize,
        inst: &Instance,
        hits: &mut CaseHits,
        obs: &mut Observed,
        keeper: Option<&Keeper>,
    ) -> Result<InstanceResult, CheckError> {
        let (text, game) = self.game_of(inst)?;
        let mut solver = Solver::new(&game);
        let mut nim = None;
        let mut order = None;
        let r = self.check_instance_with(
            k,
            inst,
            &text,
            &game,
            &mut solver,
            hits,
            obs,
            keeper,
            &mut nim,
            &mut order,
        )?;
        if matches!(r, InstanceResult::Agreed(_)) {
            self.own_value_read(inst, &game)?;
        }
        if let Some(keeper) = keeper {
            let memo = solver.into_memo();
            keeper.keep(
                k,
                Solved {
                    text,
                    game,
                    memo,
                    order,
                    nim,
                },
            );
        }
        Ok(r)
    }

    // One instance's game, solver and state; `nim` receives the start's value when a method
    // other than the memo solver found it.
    #[allow(clippy::too_many_arguments)]
    fn check_instance_with<'g>(
        &self,
        k: usize,
        inst: &Instance,
        text: &str,
        game: &'g AnyGame,
        solver: &mut Solver<'g, AnyGame>,
        hits: &mut CaseHits,
        obs: &mut Observed,
        keeper: Option<&Keeper>,
        nim_found: &mut Option<u32>,
        order_found: &mut Option<Vec<AnyPos>>,
    ) -> Result<InstanceResult, CheckError> {
        match self.positions {
            Positions::Start => {
                let start = game.start();
                let env = self.env(inst, game, &start)?;
                if !self.selected(&env, inst)? {
                    return Ok(InstanceResult::Skipped);
                }
                if let Claimed::Holds(p) = &self.claimed {
                    obs.observe(&env);
                    return Ok(match self.check_holds(p, inst, text, None, &env)? {
                        Some(cx) => InstanceResult::Refuted(cx),
                        None => InstanceResult::Agreed(1),
                    });
                }
                // Solve once (issue 41): a start whose table fits the certificate is solved
                // by the memo solver, whose memo the certificate lists; agreement ends the
                // check, anything else goes on below with that memo.
                if let Some(keeper) = keeper.filter(|kp| kp.try_first(k, game)) {
                    let cap = keeper.limits.per_instance;
                    match crate::solve::reachable_order(
                        game,
                        std::slice::from_ref(&start),
                        cap,
                        true,
                    ) {
                        Ok(order) => {
                            for p in &order {
                                solver.nim(p);
                            }
                            let nim = solver.nim(&start);
                            *order_found = Some(order);
                            let mut tally = vec![0; hits.len()];
                            let misere = game.misere().is_some();
                            if let Ok(None) = self.compare(inst, &env, nim, misere, &mut tally) {
                                for (h, t) in hits.iter_mut().zip(tally) {
                                    *h += t;
                                }
                                return Ok(InstanceResult::Agreed(1));
                            }
                        }
                        Err(_) => keeper.missed(k),
                    }
                }
                if let (Some(actual), Claimed::Outcome(f)) =
                    (self.fast_outcome(game), &self.claimed)
                {
                    if octal_only(game) {
                        // The octal sequence is the only method that reaches these heaps: a
                        // disagreement is reported from it (no exhaustive fallback).
                        let mut applied = Vec::new();
                        if let Ok(c) = f.eval_cases(&env, &mut applied) {
                            let claimed = c.to_string();
                            if claimed == actual {
                                for i in applied {
                                    hits[i] += 1;
                                }
                                return Ok(InstanceResult::Agreed(1));
                            }
                            return Ok(InstanceResult::Refuted(Counterexample {
                                instance: describe_instance(inst),
                                game: text.to_string(),
                                position: None,
                                claimed,
                                computed: format!("{actual} (octal sequence, proved period)"),
                                evidence: Vec::new(),
                            }));
                        }
                    }
                    // Anything but agreement goes to the general solver, which decides and
                    // explains; past its budget, the sweep's verdict is the refutation
                    // (docs/design.md §2, fast paths).
                    let mut applied = Vec::new();
                    match f.eval_cases(&env, &mut applied).map(|c| c.to_string()) {
                        Ok(c) if c == actual => {
                            for i in applied {
                                hits[i] += 1;
                            }
                            return Ok(InstanceResult::Agreed(1));
                        }
                        Ok(c) if (c == "P" || c == "N") && self.guard(inst, game).is_err() => {
                            return Ok(InstanceResult::Refuted(Counterexample {
                                instance: describe_instance(inst),
                                game: text.to_string(),
                                position: None,
                                claimed: c,
                                computed: format!(
                                    "{actual} (by the cycle table: the outcome sweep of the second player's replies)"
                                ),
                                evidence: Vec::new(),
                            }));
                        }
                        _ => {}
                    }
                }
                // The front door (solve::dispatch) picks the fastest sound method (the parallel
                // level solver for wheels and cycles, the cycle table, GF(2), octal sequences,
                // sums by XOR); only a disagreement needs the memo solver, for the values of the
                // options it reports.
                let quiet = crate::solve::dispatch::Options::quiet();
                let solved = crate::solve::dispatch::solve_for(
                    game,
                    &quiet,
                    matches!(self.claimed, Claimed::Nim(_)),
                )
                // A nim-value no method reaches: the outcome alone may still refute a
                // claimed *0 (GF(2) past the memo solver's limits).
                .or_else(|_| crate::solve::dispatch::solve_for(game, &quiet, false));
                let mut tally = vec![0; hits.len()];
                let mut disagreement: Option<(String, String)> = None;
                if let Ok(sol) = &solved {
                    let method = &sol.method;
                    *nim_found = sol.nim;
                    match (sol.nim, &self.claimed) {
                        (Some(nim), _) => match self.compare(
                            inst,
                            &env,
                            nim,
                            game.misere().is_some(),
                            &mut tally,
                        )? {
                            None => {
                                for (h, t) in hits.iter_mut().zip(tally) {
                                    *h += t;
                                }
                                return Ok(InstanceResult::Agreed(1));
                            }
                            Some((c, computed)) => {
                                disagreement = Some((c, format!("{computed} (by {method})")))
                            }
                        },
                        (None, Claimed::Outcome(f)) => {
                            let actual = match sol.outcome {
                                crate::solve::cycle::Outcome::P => "P",
                                crate::solve::cycle::Outcome::N => "N",
                            };
                            let mut applied = Vec::new();
                            if let Ok(c) = f.eval_cases(&env, &mut applied) {
                                let claimed = c.to_string();
                                if claimed == actual {
                                    for i in applied {
                                        hits[i] += 1;
                                    }
                                    return Ok(InstanceResult::Agreed(1));
                                }
                                if claimed == "P" || claimed == "N" {
                                    disagreement = Some((
                                        claimed,
                                        format!(
                                            "{actual} (by {method}; the nim-value is not computed)"
                                        ),
                                    ));
                                }
                            }
                        }
                        (None, Claimed::Nim(f)) => {
                            // Only the outcome is known (N: the nim-value is nonzero). A claimed
                            // *0 is refuted by it; a claimed nonzero value is not decided.
                            if sol.outcome == crate::solve::cycle::Outcome::N
                                && f.eval(&env).ok().and_then(|v| v.as_int().ok()) == Some(0)
                            {
                                disagreement = Some((
                                    "*0".to_string(),
                                    format!(
                                        "N, a nonzero nim-value (by {method}; the nim-value is not computed)"
                                    ),
                                ));
                            }
                        }
                        (None, Claimed::Holds(_)) => {}
                    }
                }
                // A method that decided the claim false refutes it (docs/design.md §2, fast
                // paths): with the options' values as evidence when the memo solver fits the
                // budget, else with the method's verdict alone.
                // Once a method has decided, the evidence is extra and held to a small budget:
                // under the whole machine's, a refuted GEN(Chain(24)) spent 90 s and 3.6 GB on
                // its options' values, and a range of such instances far more.
                let guarded = match &disagreement {
                    Some(_) => evidence_guard(game).map_err(|message| CheckError {
                        loc: self.game_loc.clone(),
                        message,
                    }),
                    None => self.guard(inst, game),
                };
                if let Err(refused) = guarded {
                    return match disagreement {
                        Some((claimed, computed)) => Ok(InstanceResult::Refuted(Counterexample {
                            instance: describe_instance(inst),
                            game: text.to_string(),
                            position: None,
                            claimed,
                            computed,
                            evidence: Vec::new(),
                        })),
                        None => Err(refused),
                    };
                }
                Ok(
                    match self.check_position(inst, text, game, solver, &start, &env, hits)? {
                        Some(cx) => InstanceResult::Refuted(cx),
                        None => InstanceResult::Agreed(1),
                    },
                )
            }
            Positions::Reachable => {
                super::reachable_guard(game).map_err(|r| CheckError {
                    loc: self.game_loc.clone(),
                    message: format!("{}{r}", at_instance(inst)),
                })?;
                let start = game.start();
                let mut count = 0;
                let reached = solver
                    .reachable_within(&start, super::reachable_cap())
                    .map_err(|why| CheckError {
                        loc: self.game_loc.clone(),
                        message: format!(
                            "{}{text}: its reachable positions are {why}",
                            at_instance(inst)
                        ),
                    })?;
                for (pos, _) in reached {
                    // The misère transform's ⊥ is no position of the game.
                    if game.hidden(&pos) {
                        continue;
                    }
                    let env = self.env(inst, game, &pos)?;
                    if !self.selected(&env, inst)? {
                        continue;
                    }
                    count += 1;
                    let refuted = match &self.claimed {
                        Claimed::Holds(p) => {
                            if count <= OBSERVED_PER_INSTANCE {
                                obs.observe(&env);
                            }
                            self.check_holds(p, inst, text, Some(game.label(&pos)), &env)?
                        }
                        _ => self.check_position(inst, text, game, solver, &pos, &env, hits)?,
                    };
                    if let Some(cx) = refuted {
                        return Ok(InstanceResult::Refuted(cx));
                    }
                }
                Ok(if count == 0 {
                    InstanceResult::Skipped
                } else {
                    InstanceResult::Agreed(count)
                })
            }
        }
    }

    /// docs/design.md §2, teeth: a `holds:` predicate (or a top-level conjunct of it) that is
    /// true on every random draw of the parameters, features and game helpers' results checks
    /// nothing, and is bad input at the predicate.
    fn teeth(&self, p: &Formula, observed: &Observed) -> Result<(), CheckError> {
        let lets: Vec<(String, Formula)> = self
            .lets
            .iter()
            .map(|(k, f, _)| (k.clone(), f.clone()))
            .collect();
        // A game without parameters is a placeholder: the claim is arithmetic over the
        // parameters, and its `let`s are what it checks, so they are drawn too.
        let game_varies = self.params.iter().any(|q| {
            instantiate(
                &self.game,
                &vec![(q.name.clone(), ParamValue::Int(i64::MIN))],
            ) != self.game
        });
        match super::teeth::toothless(&self.id, p, &lets, game_varies, observed) {
            None => Ok(()),
            Some((part, draws)) => Err(CheckError {
                loc: self.claimed_loc.clone(),
                message: format!(
                    "`{part}` is true whatever the game: it checks nothing (true on all {draws} random draws of the parameters, features and game helpers' results from their types and observed ranges; docs/design.md §2, teeth)"
                ),
            }),
        }
    }

    /// docs/design.md §2, teeth of value formulas: at the start of an agreed instance, a
    /// value formula that reads the value of the instance's own game through `nim("…")`
    /// computes what it is compared with, and is bad input at the formula.
    fn own_value_read(&self, inst: &Instance, game: &AnyGame) -> Result<(), CheckError> {
        let Some(formula) = self.formula() else {
            return Ok(());
        };
        if self.positions != Positions::Start || !self.mentions("nim(") {
            return Ok(());
        }
        let start = game.start();
        // The `let`s are recomputed on every evaluation: a `let` may be the one that reads it.
        let read = super::teeth::solves_own_game(game, || {
            let env = self.env(inst, game, &start).map_err(|e| e.message)?;
            formula
                .eval(&env)
                .map(|v| show(&v))
                .map_err(|e| format!("{e:?}"))
        });
        match read {
            None => Ok(()),
            Some(arg) => Err(CheckError {
                loc: self.claimed_loc.clone(),
                message: format!(
                    "{}the claimed value reads nim(\"{arg}\"), the value of the game the claim is about ({game}): it checks nothing (docs/design.md §2, teeth)",
                    at_instance(inst)
                ),
            }),
        }
    }

    /// Whether a formula of the claim's value (or a `let`) contains `needle`.
    fn mentions(&self, needle: &str) -> bool {
        let lets = self.lets.iter().any(|(_, f, _)| f.src.contains(needle));
        lets || match self.formula() {
            Some(ValueFormula::Expr(f)) => f.src.contains(needle),
            Some(ValueFormula::Cases(c)) => c
                .iter()
                .any(|(w, v)| w.src.contains(needle) || v.src.contains(needle)),
            None => false,
        }
    }

    /// What the claim states at the start of the instance described as `instance` ("n=3"), as
    /// `*k` or `P`/`N`; `None` for claims about positions or predicates (see
    /// `SpecKind::claimed_at`).
    /// The game asked about, with the parameters renamed `#1`, `#2`, … in their order, and the
    /// closure it is asked under ([`crate::check::kind::SpecKind::question`]).
    pub fn question(&self) -> String {
        let mut game = String::new();
        let mut word = String::new();
        let flush = |word: &mut String, game: &mut String| {
            match self.params.iter().position(|p| p.name == *word) {
                Some(k) => game.push_str(&format!("#{}", k + 1)),
                None => game.push_str(word),
            }
            word.clear();
        };
        for c in self.game.chars() {
            if c.is_alphanumeric() {
                word.push(c);
            } else {
                flush(&mut word, &mut game);
                game.push(c);
            }
        }
        flush(&mut word, &mut game);
        let game: String = game.split_whitespace().collect::<Vec<_>>().join(" ");
        format!("{game} under the {} closure", self.closure)
    }

    pub fn claimed_at(&self, instance: &str) -> Option<Result<String, String>> {
        let formula = self.formula()?;
        if self.positions != Positions::Start {
            return None;
        }
        let Some(inst) = instances(&self.params)
            .into_iter()
            .find(|i| describe_instance(i) == instance)
        else {
            return Some(Err(format!(
                "it is not an instance of {}",
                describe_range(&self.params)
            )));
        };
        // Dropped by a filter on its parameters alone (its game may not even exist).
        if !self.instances().contains(&inst) {
            return Some(Err("its filter does not select it".to_string()));
        }
        let said = (|| {
            let (_, game) = self.game_of(&inst).map_err(|e| e.message)?;
            let env = self
                .env(&inst, &game, &game.start())
                .map_err(|e| e.message)?;
            if !self.selected(&env, &inst).map_err(|e| e.message)? {
                return Err("its filter does not select it".to_string());
            }
            let v = formula.eval(&env).map_err(|e| match e {
                NoValue::Undetermined(m) | NoValue::Error(m) => m,
            })?;
            Ok(match &self.claimed {
                Claimed::Nim(_) => format!("*{}", show(&v)),
                _ => v.to_string(),
            })
        })();
        Some(said)
    }

    /// Checks every instance (in parallel; the verdict does not depend on the thread count:
    /// the smallest failing instance is reported).
    pub fn check(&self) -> Result<Report, CheckError> {
        Ok(self.check_keeping(None)?.0)
    }

    /// [`Claim::check`], keeping within `limits` what the instances' checks solved, for the
    /// certificate (`crate::certify::claims` lists these tables instead of solving again).
    pub fn check_keeping(&self, limits: Option<KeepLimits>) -> Result<(Report, Kept), CheckError> {
        let keeper = limits.map(|limits| Keeper {
            limits,
            used: AtomicUsize::new(0),
            first_miss: AtomicUsize::new(usize::MAX),
            kept: Mutex::new(Kept::new()),
        });
        let report = self.check_with(keeper.as_ref())?;
        let kept = keeper
            .and_then(|k| k.kept.into_inner().ok())
            .unwrap_or_default();
        Ok((report, kept))
    }

    fn check_with(&self, keeper: Option<&Keeper>) -> Result<Report, CheckError> {
        let t0 = Instant::now();
        let all = self.instances();
        let n = self.n_cases();
        // Only the first failing instance is reported, so an instance past one already found
        // failing is skipped (a refuted range once solved every later instance, and worked
        // out its evidence, for nothing: minutes on a refuted K_{a,b} range). Which later
        // instances were skipped depends on timing, so nothing past the first failing one is
        // tallied below: the report is the same whatever the thread count.
        let first_refuted = std::sync::atomic::AtomicUsize::new(usize::MAX);
        // The spec's folder goes along to the workers (relative `file:` graphs).
        let folder = crate::graph::io::base();
        let results: Vec<Result<(InstanceResult, CaseHits, Observed), CheckError>> = all
            .par_iter()
            .enumerate()
            .map(|(k, i)| {
                crate::graph::io::with_base(folder.as_deref(), || {
                    let mut hits = vec![0; n];
                    let mut obs = Observed::default();
                    if k > first_refuted.load(std::sync::atomic::Ordering::Relaxed) {
                        return Ok((InstanceResult::Skipped, hits, obs));
                    }
                    let r = self.check_instance(k, i, &mut hits, &mut obs, keeper)?;
                    if matches!(r, InstanceResult::Refuted(_)) {
                        first_refuted.fetch_min(k, std::sync::atomic::Ordering::Relaxed);
                    }
                    Ok((r, hits, obs))
                })
            })
            .collect();
        let mut observed = Observed::default();
        let mut coverage: Vec<PartCoverage> = match self.formula() {
            Some(ValueFormula::Cases(cases)) => cases
                .iter()
                .enumerate()
                .map(|(i, (when, _))| {
                    PartCoverage::new(
                        format!("case {} `{}`", i + 1, when.src),
                        self.unreached.get(i).cloned().flatten(),
                    )
                })
                .collect(),
            _ => Vec::new(),
        };
        let cut = first_refuted.into_inner().min(all.len().saturating_sub(1));
        let results = results
            .into_iter()
            .zip(&all)
            .take(cut + 1)
            .map(|(r, inst)| {
                r.map(|(res, hits, obs)| {
                    observed.merge(obs);
                    if matches!(res, InstanceResult::Agreed(_)) {
                        for (c, &h) in coverage.iter_mut().zip(&hits) {
                            if h > 0 {
                                c.instances += 1;
                                c.positions += h;
                                c.first.get_or_insert_with(|| describe_instance(inst));
                            }
                        }
                    }
                    res
                })
            });
        let (checked, positions, verdict) = tally(results, || CheckError {
            loc: self.filter_loc.clone(),
            message: format!(
                "no instance of {} is selected: the claim would hold vacuously",
                describe_range(&self.params)
            ),
        })?;
        if let (Verdict::Holds, Claimed::Holds(p)) = (&verdict, &self.claimed) {
            self.teeth(p, &observed)?;
        }
        Ok(Report {
            id: self.id.clone(),
            kind: "claim".into(),
            source: self.source.clone(),
            file: self.file.clone(),
            instances: checked,
            positions,
            range: describe_range(&self.params),
            expect: self.expect,
            as_expected: verdict.matches(self.expect),
            verdict,
            notes: self.notes.clone(),
            coverage: Vec::new(),
            rests_on: Vec::new(),
            companion: None,
            excused: None,
            identity: self.group_identity(),
            laws: all
                .first()
                .and_then(|i| self.game_of(i).ok())
                .and_then(|(_, g)| g.declared_laws())
                .map(|l| format!("rests on {l}")),
            seconds: t0.elapsed().as_secs_f64(),
        }
        .with_coverage(coverage))
    }
}

/// Whether `game` is a sum of octal games, Dawson's Chess rows and nimbers only: games whose
/// value `solve::dispatch` reads off the octal sequence instead of exploring positions.
fn octal_only(game: &AnyGame) -> bool {
    match game {
        AnyGame::Nimber(_) | AnyGame::Octal(_) | AnyGame::Dawson(_) => true,
        AnyGame::Sum(parts) => parts.iter().all(octal_only),
        _ => false,
    }
}

/// Most positions the memo solver may visit for the evidence of a refutation another method
/// has already decided.
const EVIDENCE_POSITIONS: u64 = 1 << 20;

/// The memo guard with [`EVIDENCE_POSITIONS`] as its budget.
fn evidence_guard(game: &AnyGame) -> Result<(), String> {
    let budget = crate::solve::guard::Budget {
        max_positions: Some(EVIDENCE_POSITIONS),
        ..crate::solve::guard::Budget::default_for_machine()
    };
    super::memo_guard_within(game, &budget)
}
