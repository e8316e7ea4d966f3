//! The front door of solving: `grundy solve`, `nim("…")` in spec formulas and the checkers ask
//! [`solve`] or [`nim`], which pick the fastest *sound* method for the game and name it.
//!
//! | game | method | gives |
//! |---|---|---|
//! | `*k` | `nimber` | k |
//! | octal heaps, `DC(n)` (0.137 on its runs) | `octal-sequence`: the nim sequence and its proved period, XOR over heaps | nim-value |
//! | UEG on a bipartite component | `gf2`: the even-kernel criterion of seed 002 | outcome (nim 0 when P) |
//! | TER(C_n), n odd, hull closure | `cycle-table`: the packed outcome sweep of [`super::cycle`] | outcome (nim 0 when P) |
//! | disjoint sums `A + B` | `sum`: each part by its own method, XOR (Sprague–Grundy) | nim-value |
//! | ordinal sums `A : B` | `ordinal-sum`: the start options' values by Conway's rule ([`super::ordinal`]), leaves by the memo solver | nim-value |
//! | TER(G), DNT(G) | `levels`: the parallel level solver of [`super::levels`]; past [`CLASSES_FROM_POSITIONS`] estimated positions `structure-classes` of 𝒩* when they are few | nim-value |
//! | GEN, DNG (and TER, DNT off graphs) of a closure | `structure-classes` ([`super::structure`]) when 𝓜 is found and its classes are few, else `exhaustive` | nim-value |
//! | the four closure games of a structure counted by parts (K_{n1,…,nk} past 64 vertices) | `symmetry-classes` ([`super::structure_symmetric`]): positions up to automorphisms, under the guard | nim-value |
//! | everything else | `exhaustive`: the memo solver of [`super::Solver`] | nim-value |
//!
//! Where a method gives only the outcome and the outcome is N, the nim-value is sought by the
//! exhaustive methods under the guard; if the guard refuses, [`solve`] still answers with the
//! outcome (and says why the nim-value is missing), while [`nim`] refuses.
//!
//! Every exhaustive method is guarded ([`super::guard`]): estimated before it starts, stopped
//! while it runs, both past the [`Budget`].

use super::cycle::{CycleSweep, Outcome};
use super::estimate::{self, TREE_MARGIN};
use super::guard::{human_bytes, human_count, Budget, Monitor, Refusal};
use super::progress::Progress;
use super::{levels, Solver};
use crate::game::dawson::runs;
use crate::game::octal_lookup::{dawson_code, heap_values};
use crate::game::removing::{RemovingGame, Rule};
use crate::game::spl::{Spl, SplPos};
use crate::game::{AnyGame, Game};

use serde::Serialize;
use std::time::Instant;

/// How a value was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    Nimber,
    OctalSequence,
    Gf2,
    CycleTable,
    Levels,
    OrdinalSum,
    StructureClasses,
    SymmetryClasses,
    Exhaustive,
}

impl Method {
    pub fn word(self) -> &'static str {
        match self {
            Method::Nimber => "nimber",
            Method::OctalSequence => "octal-sequence",
            Method::Gf2 => "gf2",
            Method::CycleTable => "cycle-table",
            Method::Levels => "levels",
            Method::OrdinalSum => "ordinal-sum",
            Method::StructureClasses => "structure-classes",
            Method::SymmetryClasses => "symmetry-classes",
            Method::Exhaustive => "exhaustive",
        }
    }
}

/// Options of a dispatched solve.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    pub budget: Budget,
    /// Show a progress line on stderr (if it is a terminal) for solves over a second.
    pub progress: bool,
}

impl Options {
    /// The machine's default budget, no progress line (spec checking).
    pub fn quiet() -> Options {
        Options {
            budget: Budget::default_for_machine(),
            progress: false,
        }
    }
}

/// The answer for one game.
#[derive(Clone, Debug, Serialize)]
pub struct Solution {
    pub game: String,
    /// The nim-value, when the method (or the fallback) determined it.
    pub nim: Option<u32>,
    pub outcome: Outcome,
    /// `cycle-table`, `levels`, `sum(octal-sequence, levels)`, `gf2+exhaustive`, …
    pub method: String,
    /// Positions (or table entries, or sequence values) the methods computed.
    pub positions: u64,
    pub seconds: f64,
    /// Why the nim-value is missing, when it is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

struct Part {
    nim: Option<u32>,
    outcome: Outcome,
    method: String,
    positions: u64,
    note: Option<String>,
}

impl Part {
    fn valued(nim: u32, method: Method, positions: u64) -> Part {
        Part {
            nim: Some(nim),
            outcome: if nim == 0 { Outcome::P } else { Outcome::N },
            method: method.word().to_string(),
            positions,
            note: None,
        }
    }
}

/// Solves the start of `game` by the fastest sound method.
pub fn solve(game: &AnyGame, opts: &Options) -> Result<Solution, Refusal> {
    solve_for(game, opts, false)
}

/// [`solve`], with the nim-value required (`nim`) or the outcome enough: a claim of a value
/// needs the value, a claim of an outcome only the outcome (the cycle table, GF(2)).
pub fn solve_for(game: &AnyGame, opts: &Options, nim: bool) -> Result<Solution, Refusal> {
    let t0 = Instant::now();
    let p = part(game, opts, nim)?;
    Ok(Solution {
        game: game.to_string(),
        nim: p.nim,
        outcome: p.outcome,
        method: p.method,
        positions: p.positions,
        seconds: t0.elapsed().as_secs_f64(),
        note: p.note,
    })
}

/// The nim-value of the start of `game` (refused when no method within budget gives it).
pub fn nim(game: &AnyGame, opts: &Options) -> Result<u32, Refusal> {
    let p = part(game, opts, true)?;
    match p.nim {
        Some(v) => Ok(v),
        None => Err(Refusal {
            game: game.to_string(),
            during: false,
            estimate: format!("the nim-value (outcome {} by {})", p.outcome, p.method),
            limit: "what the budget allows".to_string(),
            hint: p.note.unwrap_or_default(),
        }),
    }
}

/// Checks that an exhaustive solve of `game` fits the budget, from the estimate alone: what
/// the checkers call before solving an instance with their own solver.
pub fn precheck(game: &AnyGame, budget: &Budget) -> Result<(), Refusal> {
    if fast_path_exists(game) {
        return Ok(());
    }
    let limit = budget.position_limit(MEMO_BYTES) as f64;
    if estimate::distinct_bound(game).is_some() {
        return within_distinct_bound(game, limit);
    }
    if let AnyGame::Removing(g) = game {
        // Sampled distinct positions: the game tree of TER/DNT is factorially larger.
        let e = estimate::removing(g);
        if e.positions > limit {
            return Err(refusal_from_estimate(
                game,
                e.positions,
                true,
                limit,
                hint_for(game),
            ));
        }
        return Ok(());
    }
    let est = estimate::tree(game);
    if est.positions > limit * TREE_MARGIN {
        return Err(refusal_from_estimate(
            game,
            est.positions,
            false,
            limit,
            hint_for(game),
        ));
    }
    Ok(())
}

/// Games every part of which is answered without exhaustive search.
fn fast_path_exists(game: &AnyGame) -> bool {
    match game {
        AnyGame::Nimber(_) | AnyGame::Octal(_) | AnyGame::Dawson(_) => true,
        AnyGame::Sum(parts) => parts.iter().all(fast_path_exists),
        _ => false,
    }
}

/// Bytes per position of the memo solver (hash entry, position, option lists on the stack).
const MEMO_BYTES: f64 = 120.0;

fn part(game: &AnyGame, opts: &Options, need_nim: bool) -> Result<Part, Refusal> {
    match game {
        AnyGame::Nimber(k) => Ok(Part::valued(*k, Method::Nimber, *k as u64 + 1)),
        AnyGame::Octal(g) => {
            let values = heap_values(g.code(), g.heaps()).map_err(|e| Refusal {
                game: game.to_string(),
                during: false,
                estimate: e.to_string(),
                limit: "the proved period".to_string(),
                hint: "use smaller heaps".to_string(),
            })?;
            let top = g.heaps().iter().copied().max().unwrap_or(0) as u64;
            Ok(Part::valued(
                values.iter().fold(0, |x, v| x ^ v),
                Method::OctalSequence,
                top + 1,
            ))
        }
        AnyGame::Dawson(g) => {
            let heaps = runs(g.start());
            let values = heap_values(&dawson_code(), &heaps).map_err(|e| Refusal {
                game: game.to_string(),
                during: false,
                estimate: e.to_string(),
                limit: "the proved period".to_string(),
                hint: String::new(),
            })?;
            let top = heaps.iter().copied().max().unwrap_or(0) as u64;
            Ok(Part::valued(
                values.iter().fold(0, |x, v| x ^ v),
                Method::OctalSequence,
                top + 1,
            ))
        }
        AnyGame::Sum(parts) => sum(game, parts, opts, need_nim),
        AnyGame::Removing(g) => removing(game, g, opts, need_nim),
        AnyGame::Ueg(u) => {
            // The one routing decision for edge geography is the game's own (it knows when
            // its positions exceed the exhaustive encoding and reads the whole graph then).
            match u.solve_fast() {
                Some((true, _)) => Ok(Part::valued(0, Method::Gf2, 1)),
                Some((false, _)) => {
                    // Outcome N; the nim-value only from an exhaustive solve within budget.
                    match memo(game, opts) {
                        Ok((v, n)) => Ok(Part {
                            method: format!("{}+{}", Method::Gf2.word(), Method::Exhaustive.word()),
                            ..Part::valued(v, Method::Exhaustive, n)
                        }),
                        Err(r) if !need_nim => Ok(Part {
                            nim: None,
                            outcome: Outcome::N,
                            method: Method::Gf2.word().to_string(),
                            positions: 1,
                            note: Some(format!("nim-value not computed: {r}")),
                        }),
                        Err(r) => Err(r),
                    }
                }
                None => memo(game, opts).map(|(v, n)| Part::valued(v, Method::Exhaustive, n)),
            }
        }
        AnyGame::Ordinal(..) => super::ordinal::nim(game, &mut |leaf| memo_options(leaf, opts))
            .map(|(v, n)| Part::valued(v, Method::OrdinalSum, n)),
        AnyGame::Spl(g) => spl(game, g, opts).map(|(v, n)| Part::valued(v, Method::Exhaustive, n)),
        AnyGame::Multiset(_) => {
            memo(game, opts).map(|(v, n)| Part::valued(v, Method::Exhaustive, n))
        }
        AnyGame::Closure(g) => closure(game, g, opts),
        AnyGame::Family(_) => memo(game, opts).map(|(v, n)| Part::valued(v, Method::Exhaustive, n)),
    }
}

/// A closure game by its structure diagram when 𝓜 is found and the classes stay within
/// [`super::structure::MAX_CLASSES`]; else by the memo solver on subsets under the guard.
fn closure(
    game: &AnyGame,
    g: &crate::game::closure::ClosureGame,
    opts: &Options,
) -> Result<Part, Refusal> {
    if let Some(c) = g.operator().counted() {
        // Positions up to the structure's automorphisms: count vectors, estimated exactly.
        use super::structure_symmetric::{estimate, solve, SYMMETRIC_BYTES};
        let limit = opts.budget.position_limit(SYMMETRIC_BYTES) as f64;
        let hint = "The count vectors explode when the parts are many and of distinct sizes; try fewer parts, or raise --max-memory / --max-positions if the machine has the memory.".to_string();
        let states = estimate(c);
        if states > limit {
            return Err(refusal_from_estimate(game, states, true, limit, hint));
        }
        let monitor = Monitor::new(game.to_string(), &opts.budget, SYMMETRIC_BYTES, hint);
        let s = solve(c, g.direction(), g.goal(), &monitor)?;
        return Ok(Part::valued(s.nim, Method::SymmetryClasses, s.states));
    }
    let why = match structure_diagram(g) {
        Ok(d) => {
            return Ok(Part::valued(
                d.start_nim(),
                Method::StructureClasses,
                d.classes.len() as u64,
            ))
        }
        Err(why) => why,
    };
    if g.size() > 64 {
        let (estimate, limit) = g
            .operator()
            .families_unavailable()
            .unwrap_or((why, "what the structure-class solver handles".into()));
        return Err(Refusal {
            game: game.to_string(),
            during: false,
            estimate,
            limit,
            hint: "ground sets of more than 64 elements are solved by structure classes only"
                .into(),
        });
    }
    memo(game, opts).map(|(v, n)| Part::valued(v, Method::Exhaustive, n))
}

/// The structure diagram of a closure game, or why there is none.
pub fn structure_diagram(
    g: &crate::game::closure::ClosureGame,
) -> Result<super::structure::Diagram, String> {
    use crate::game::closure::Goal;
    let facets = g
        .facets()
        .ok_or_else(|| match g.operator().families_unavailable() {
            Some((what, limit)) => format!("{what} exceeds {limit}"),
            None => "the maximal legal sets 𝓜 are too many to list".to_string(),
        })?;
    super::structure::Diagram::build(
        g.size(),
        facets,
        g.goal() == Goal::Achievement,
        super::structure::MAX_CLASSES,
    )
    .map_err(|e| e.to_string())
}

/// A sum: each distinct part solved once (equal parts, compared by their whole structure, share
/// the result: 8 × TER(C_29) is one solve), and the parts together within one position
/// budget (issue 28: a sum of 29 cycles ran past 30 s, each part within its own budget).
fn sum(game: &AnyGame, parts: &[AnyGame], opts: &Options, need_nim: bool) -> Result<Part, Refusal> {
    let mut solved: Vec<Part> = Vec::with_capacity(parts.len());
    let mut seen: rustc_hash::FxHashMap<String, usize> = Default::default();
    let limit = opts.budget.position_limit(MEMO_BYTES);
    let mut spent = 0u64;
    for g in parts {
        let key = format!("{g:?}");
        if let Some(&i) = seen.get(&key) {
            let p = &solved[i];
            solved.push(Part {
                nim: p.nim,
                outcome: p.outcome,
                method: p.method.clone(),
                positions: p.positions,
                note: p.note.clone(),
            });
            continue;
        }
        let mut left = *opts;
        left.budget.max_positions = Some(limit.saturating_sub(spent).max(1));
        let p = part(g, &left, false)?;
        // Only memoised positions count: a cycle table's entries, a nimber's k + 1 or an
        // octal heap's values cost no memo (`TER(C_21) + *1` is two lookups).
        let memoised = p
            .method
            .split(|c: char| !c.is_ascii_alphanumeric() && c != '-')
            .any(|w| w == Method::Exhaustive.word() || w == Method::Levels.word());
        if memoised {
            spent = spent.saturating_add(p.positions);
        }
        if spent > limit {
            return Err(Refusal {
                game: game.to_string(),
                during: true,
                estimate: format!("its parts' {} positions together", human_count(spent as f64)),
                limit: format!("the limit of {} positions", human_count(limit as f64)),
                hint: "Solve the parts one at a time, or raise --max-memory / --max-positions if the machine has the memory.".into(),
            });
        }
        seen.insert(key, solved.len());
        solved.push(p);
    }
    let methods: Vec<&str> = solved.iter().map(|p| p.method.as_str()).collect();
    let method = format!("sum({})", methods.join(", "));
    let positions = solved.iter().map(|p| p.positions).sum();
    let known: Vec<u32> = solved.iter().filter_map(|p| p.nim).collect();
    if known.len() == solved.len() {
        let v = known.iter().fold(0, |x, y| x ^ y);
        return Ok(Part {
            method,
            ..Part::valued(v, Method::Exhaustive, positions)
        });
    }
    // One part with only its outcome, the others summing to 0: the sum has that outcome.
    let missing: Vec<&Part> = solved.iter().filter(|p| p.nim.is_none()).collect();
    let rest = known.iter().fold(0, |x, y| x ^ y);
    let note = missing
        .iter()
        .filter_map(|p| p.note.clone())
        .collect::<Vec<_>>()
        .join("; ");
    if missing.len() == 1 && rest == 0 && !need_nim {
        return Ok(Part {
            nim: None,
            outcome: missing[0].outcome,
            method,
            positions,
            note: Some(note),
        });
    }
    Err(Refusal {
        game: game.to_string(),
        during: false,
        estimate: "a component whose nim-value is out of reach".to_string(),
        limit: "the budget".to_string(),
        hint: note,
    })
}

/// `Some(n)` when `g` is TER(C_n), n odd, hull closure, vertices in cycle order: the case of
/// the packed outcome table.
fn odd_cycle(g: &RemovingGame) -> Option<u32> {
    let graph = g.graph();
    let n = graph.n();
    let in_order = (0..n).all(|v| graph.degree(v) == 2 && graph.adj(v) >> ((v + 1) % n) & 1 == 1);
    (g.rule() == Rule::Ter
        && g.convexity().closure_kind().is_geodesic_hull()
        && n >= 5
        && n % 2 == 1
        && in_order)
        .then_some(n as u32)
}

fn removing(
    game: &AnyGame,
    g: &RemovingGame,
    opts: &Options,
    need_nim: bool,
) -> Result<Part, Refusal> {
    let mut table_outcome = None;
    if let Some(n) = odd_cycle(g) {
        let free = n - g.start_set().count_ones();
        let bytes = (1u64 << free.min(63)) as f64 / 8.0;
        if CycleSweep::check(n, g.start_set()).is_ok()
            && bytes <= opts.budget.max_memory as f64 * 0.9
        {
            let mut sweep = CycleSweep::new_at(n, g.start_set()).map_err(|e| Refusal {
                game: game.to_string(),
                during: false,
                estimate: e.to_string(),
                limit: "the cycle table".to_string(),
                hint: String::new(),
            })?;
            let r = sweep.finish();
            if r.outcome == Outcome::P {
                return Ok(Part::valued(0, Method::CycleTable, r.table_entries));
            }
            table_outcome = Some(r);
        }
    }
    // The sampled estimate is a few thousand closure tests: taken once, when first needed,
    // and shared by the choice of method and the level solver's guard.
    let positions = std::cell::OnceCell::new();
    let classes = match removing_by_estimate(g, &positions) {
        Ok(Some(p)) => return Ok(p),
        Ok(None) => None,
        Err(why) => Some(why),
    };
    let level = level_solve(game, g, opts, &positions).map_err(|mut r| {
        if let Some(why) = &classes {
            r.hint = format!("{} (Structure classes were tried first: {why}.)", r.hint);
        }
        r
    });
    match level {
        Ok(r) => {
            let method = if table_outcome.is_some() {
                format!("{}+{}", Method::CycleTable.word(), Method::Levels.word())
            } else {
                Method::Levels.word().to_string()
            };
            Ok(Part {
                method,
                ..Part::valued(r.nim, Method::Levels, r.positions)
            })
        }
        Err(refusal) => match table_outcome {
            Some(t) if !need_nim => Ok(Part {
                nim: None,
                outcome: t.outcome,
                method: Method::CycleTable.word().to_string(),
                positions: t.table_entries,
                note: Some(format!("nim-value not computed: {refusal}")),
            }),
            _ => Err(refusal),
        },
    }
}

fn refusal_from_estimate(
    game: &AnyGame,
    positions: f64,
    distinct: bool,
    limit: f64,
    hint: String,
) -> Refusal {
    let what = if distinct {
        "an estimated"
    } else {
        "a game tree of an estimated"
    };
    Refusal {
        game: game.to_string(),
        during: false,
        estimate: format!("{what} {} positions", human_count(positions)),
        limit: format!("the limit of {} positions", human_count(limit)),
        hint,
    }
}

fn hint_for(game: &AnyGame) -> String {
    let general = "Try a smaller instance, or raise --max-memory / --max-positions if the machine has the memory.";
    match game {
        AnyGame::Removing(g) => match odd_cycle(g) {
            Some(n) => format!("The outcome alone: `grundy cycle --n {n}` (packed outcome table). {general}"),
            None => general.to_string(),
        },
        AnyGame::Ueg(u) => match u.solve_fast() {
            Some(_) => "The outcome is decided at any size by the GF(2) criterion (the token's component is bipartite); only the nim-value needs the exhaustive solver, within its limits.".to_string(),
            // Say which of the two reasons holds: an odd cycle, or a bipartite component too
            // large for the GF(2) work budget (P_65536 has no odd cycle).
            None => match u.gf2_start() {
                Err(crate::game::ueg::UegError::Gf2TooLarge { ops, .. }) => format!(
                    "The token's component is bipartite, but the GF(2) criterion would take about {ops:.2e} word operations, over its budget of {:.0e}. {general}",
                    crate::game::ueg::GF2_MAX_WORD_OPS
                ),
                Err(crate::game::ueg::UegError::NotBipartite { vertex, .. }) => format!(
                    "UEG is decided at any size by the GF(2) criterion only when the token's component is bipartite; this one has an odd cycle through {vertex}. {general}"
                ),
                _ => general.to_string(),
            },
        },
        _ => general.to_string(),
    }
}

/// Above this many estimated distinct positions, a removing game is first tried by its
/// structure classes: below it the level solver takes milliseconds, and the families 𝒢, 𝒩*
/// it would need cost a search of their own.
pub const CLASSES_FROM_POSITIONS: f64 = 1e6;

/// Most classes the dispatcher lets a removing game's diagram have before it falls back to
/// the level solver (a failed attempt must stay cheap).
const REMOVING_MAX_CLASSES: usize = 20_000;

/// The dispatcher's choice for TER/DNT on a graph, by the estimate: the level solver's
/// distinct positions against the structure classes (issue 31, item 3). `Ok(None)`: the level
/// solver (already solved in this process, or small); `Err`: why the classes failed.
/// `positions` holds the estimate of [`estimate::removing`] once taken.
fn removing_by_estimate(
    g: &RemovingGame,
    positions: &std::cell::OnceCell<f64>,
) -> Result<Option<Part>, String> {
    if LEVEL_RESULTS
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .contains_key(&level_key(g))
    {
        return Ok(None);
    }
    if *positions.get_or_init(|| estimate::removing(g).positions) <= CLASSES_FROM_POSITIONS {
        return Ok(None);
    }
    let (nim, classes) = removing_by_classes(g, REMOVING_MAX_CLASSES)?;
    Ok(Some(Part::valued(nim, Method::StructureClasses, classes)))
}

/// TER or DNT of a graph from its position by the structure classes of 𝓜 = 𝒩* (the maximal
/// nonterminating sets, seed 000 §2.2; the recursion and its proof are docs/design.md §9), the
/// graph read as a closure operator (src/game/closure/graph.rs, which finds 𝒩* also where the
/// paper's families are past their search budget): (nim-value, classes), or why not.
pub fn removing_by_classes(g: &RemovingGame, max_classes: usize) -> Result<(u32, u64), String> {
    let d = removing_diagram(g, max_classes)?;
    let nim = d
        .nim(&crate::game::closure::from_mask(
            g.start_set(),
            g.graph().n(),
        ))
        .ok_or("the start's class is not in the diagram")?;
    Ok((nim, d.classes.len() as u64))
}

/// The structure diagram of TER or DNT of a graph (see [`removing_by_classes`]): the nim-value
/// of every position from the diagram's ∅ by [`super::structure::Diagram::nim`].
pub fn removing_diagram(
    g: &RemovingGame,
    max_classes: usize,
) -> Result<super::structure::Diagram, String> {
    use crate::game::closure::{graph::GraphOperator, ClosureGame, Direction, Goal};
    let n = g.graph().n();
    // The game's own intervals and families (searched within the same budget), not a second
    // search.
    let op = GraphOperator::with_convexity(
        g.graph().clone(),
        g.convexity().clone(),
        g.families().cloned(),
    );
    let goal = match g.rule() {
        Rule::Ter => Goal::Achievement,
        Rule::Dnt => Goal::Avoidance,
    };
    let cg = ClosureGame::new(std::sync::Arc::new(op), Direction::Removing, goal);
    let facets = cg
        .facets()
        .ok_or("the maximal nonterminating sets 𝒩* are past their search budget")?;
    super::structure::Diagram::build(n, facets, goal == Goal::Achievement, max_classes)
        .map_err(|e| e.to_string())
}

fn level_key(g: &RemovingGame) -> LevelKey {
    LevelKey {
        rule: g.rule(),
        closure: g.convexity().closure_kind(),
        start: g.start_set(),
        adjacency: (0..g.graph().n()).map(|v| g.graph().adj(v)).collect(),
    }
}

/// What identifies a removing game exactly: its rule, closure, start and adjacency (not its
/// name, which a spec may choose).
#[derive(Clone, PartialEq, Eq, Hash)]
struct LevelKey {
    rule: crate::game::removing::Rule,
    closure: crate::graph::Closure,
    start: u64,
    adjacency: Vec<u64>,
}

/// Level solves done in this process: specs of one build ask for the same games (DNT(W_n) for
/// n <= 34 is asked by Thm 5.24, Props 5.18 and 5.22 and the wheel table), and a value once
/// computed is the value.
static LEVEL_RESULTS: std::sync::LazyLock<
    std::sync::Mutex<rustc_hash::FxHashMap<LevelKey, levels::LevelResult>>,
> = std::sync::LazyLock::new(Default::default);

/// Entries kept at most (each is a few dozen bytes).
const LEVEL_RESULTS_KEPT: usize = 100_000;

fn level_solve(
    game: &AnyGame,
    g: &RemovingGame,
    opts: &Options,
    positions: &std::cell::OnceCell<f64>,
) -> Result<levels::LevelResult, Refusal> {
    let key = level_key(g);
    let cached = |k: &LevelKey| {
        LEVEL_RESULTS
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(k)
            .cloned()
    };
    if let Some(r) = cached(&key) {
        return Ok(r);
    }
    let r = level_solve_uncached(game, g, opts, positions)?;
    let mut results = LEVEL_RESULTS.lock().unwrap_or_else(|e| e.into_inner());
    if results.len() < LEVEL_RESULTS_KEPT {
        results.insert(key, r.clone());
    }
    Ok(r)
}

fn level_solve_uncached(
    game: &AnyGame,
    g: &RemovingGame,
    opts: &Options,
    positions: &std::cell::OnceCell<f64>,
) -> Result<levels::LevelResult, Refusal> {
    let limit = opts.budget.position_limit(levels::BYTES_PER_POSITION) as f64;
    let est = *positions.get_or_init(|| estimate::removing(g).positions);
    let bytes = est * levels::BYTES_PER_POSITION;
    if est > limit {
        let mut r = refusal_from_estimate(game, est, true, limit, hint_for(game));
        r.estimate = format!("{} (about {})", r.estimate, human_bytes(bytes));
        return Err(r);
    }
    let monitor = Monitor::new(
        game.to_string(),
        &opts.budget,
        levels::BYTES_PER_POSITION,
        hint_for(game),
    );
    let progress = if opts.progress {
        Progress::stderr(game.to_string())
    } else {
        Progress::hidden()
    };
    levels::solve(g, &monitor, &progress)
}

thread_local! {
    /// Values of SPL positions solved on this thread. A position (c, λ) of SPL is the same
    /// game whatever (m, n) it was reached from, so the instances of a range share their
    /// positions (Thm 5.43's SPL(m,n) for m <= 30, n <= 22 meets each position about seven
    /// times).
    static SPL_VALUES: std::cell::RefCell<rustc_hash::FxHashMap<SplPos, u32>> =
        std::cell::RefCell::new(rustc_hash::FxHashMap::default());
}

/// Entries the SPL table keeps between solves (about 100 bytes each); past them it is cleared.
const SPL_VALUES_KEPT: usize = 1 << 20;

/// SPL by memoised search with the thread's shared table, under the same guard as the memo
/// solver: (nim-value, positions computed by this call).
fn spl(game: &AnyGame, g: &Spl, opts: &Options) -> Result<(u32, u64), Refusal> {
    let limit = opts.budget.position_limit(MEMO_BYTES) as f64;
    within_distinct_bound(game, limit)?;
    let monitor = Monitor::new(game.to_string(), &opts.budget, MEMO_BYTES, hint_for(game));
    SPL_VALUES.with(|table| {
        let mut t = table.borrow_mut();
        if t.len() > SPL_VALUES_KEPT {
            *t = rustc_hash::FxHashMap::default();
        }
        let before = t.len();
        let start = g.start();
        // Depth-first, post-order: a position is valued once all its options are.
        let mut stack: Vec<(SplPos, Vec<SplPos>, usize)> = Vec::new();
        if !t.contains_key(&start) {
            let o = g.options(&start);
            stack.push((start.clone(), o, 0));
        }
        while let Some((_, options, next)) = stack.last_mut() {
            if let Some(q) = options[*next..].iter().position(|q| !t.contains_key(q)) {
                *next += q;
                let q = options[*next].clone();
                let o = g.options(&q);
                stack.push((q, o, 0));
                continue;
            }
            let (p, options, _) = stack.pop().expect("the loop's own entry");
            let v = crate::game::mex(options.iter().map(|q| t[q]));
            t.insert(p, v);
            let new = (t.len() - before) as u64;
            if new.is_multiple_of(Monitor::EVERY) {
                monitor.check(new)?;
            }
        }
        Ok((t[&start], (t.len() - before) as u64))
    })
}

/// The memo solver under the guard: (nim-value, positions).
fn memo(game: &AnyGame, opts: &Options) -> Result<(u32, u64), Refusal> {
    let mut s = guarded_memo(game, opts)?;
    let v = s.try_nim(&game.start())?;
    Ok((v, s.stats().positions))
}

/// The values of the start's options by the memo solver under the guard (the leaves of an
/// ordinal sum), and the positions it computed.
fn memo_options(game: &AnyGame, opts: &Options) -> Result<(super::ordinal::Values, u64), Refusal> {
    // The options' values, not only the start's: a P-position that passes `guarded_memo` on
    // its GF(2) verdict would be searched with no moves.
    if let Some(why) = game.positions_refusal() {
        return Err(Refusal {
            game: game.to_string(),
            during: false,
            estimate: format!("its size ({why})"),
            limit: "what the exhaustive solver's position encoding holds (an ordinal sum needs the values of its components' options)".into(),
            hint: hint_for(game),
        });
    }
    let mut s = guarded_memo(game, opts)?;
    s.try_nim(&game.start())?;
    let mut values = Vec::new();
    for o in game.options(&game.start()) {
        values.push(s.try_nim(&o)? as u64);
    }
    Ok((super::ordinal::Values::of(values), s.stats().positions))
}

/// Refuses a game whose proved bound on distinct positions ([`estimate::distinct_bound`])
/// exceeds `limit`; games without such a bound pass.
/// [`precheck`], and for listing every reachable position whole (a `positions: reachable`
/// claim, a diagram's candidates): the game's reachable positions within the budget, also
/// where the memo would hold only their components.
pub fn precheck_reachable(game: &AnyGame, budget: &Budget) -> Result<(), Refusal> {
    precheck(game, budget)?;
    let limit = budget.position_limit(MEMO_BYTES) as f64;
    match estimate::reachable_bound(game) {
        Some(bound) if bound > limit => Err(refusal_from_estimate(
            game,
            bound,
            true,
            limit,
            hint_for(game),
        )),
        _ => Ok(()),
    }
}

fn within_distinct_bound(game: &AnyGame, limit: f64) -> Result<(), Refusal> {
    match estimate::distinct_bound(game) {
        Some(bound) if bound > limit => Err(refusal_from_estimate(
            game,
            bound,
            true,
            limit,
            hint_for(game),
        )),
        _ => Ok(()),
    }
}

/// A memo solver for `game` once the estimate fits the budget, stopping past it.
fn guarded_memo<'g>(game: &'g AnyGame, opts: &Options) -> Result<Solver<'g, AnyGame>, Refusal> {
    let limit = opts.budget.position_limit(MEMO_BYTES) as f64;
    within_distinct_bound(game, limit)?;
    let est = match estimate::distinct_bound(game) {
        Some(bound) => estimate::Estimate {
            positions: bound,
            distinct: true,
        },
        None => estimate::tree(game),
    };
    if !est.distinct && est.positions > limit * TREE_MARGIN {
        return Err(refusal_from_estimate(
            game,
            est.positions,
            false,
            limit,
            hint_for(game),
        ));
    }
    // A game whose positions do not fit its own encoding (edge geography past 128 edges) is
    // refused by the game itself: searching it would see no moves and answer 0.
    if let Some(why) = game.refusal() {
        return Err(Refusal {
            game: game.to_string(),
            during: false,
            estimate: format!("its size ({why})"),
            limit: "what the exhaustive solver's position encoding holds".into(),
            hint: hint_for(game),
        });
    }
    let monitor = Monitor::new(game.to_string(), &opts.budget, MEMO_BYTES, hint_for(game));
    let progress = if opts.progress {
        Progress::stderr(game.to_string())
    } else {
        Progress::hidden()
    };
    Ok(Solver::with_guard(game, monitor, progress))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::{parse_game, ParseOptions};

    fn game(s: &str) -> AnyGame {
        parse_game(s, ParseOptions::default()).unwrap()
    }

    fn unlimited() -> Options {
        Options {
            budget: Budget::unlimited(),
            progress: false,
        }
    }

    /// The plain memo solver on the whole expression, no method shortcuts.
    fn exhaustive(g: &AnyGame) -> u32 {
        Solver::new(g).nim_of_start()
    }

    /// The SPL table shared by instances gives the memo solver's values, whether the
    /// instances come smallest first (the table warm) or largest first, and on the started
    /// positions Thm 5.43 names.
    #[test]
    fn spl_values_shared_by_instances_are_the_memo_solvers() {
        let mut texts = Vec::new();
        for m in 2..=7 {
            for n in 4..=11 {
                texts.push(format!("SPL({m},{n})"));
            }
        }
        texts.extend(["SPL(4,[6,3,1])".to_string(), "SPL(0,[9,2])".to_string()]);
        for order in [false, true] {
            SPL_VALUES.with(|t| t.borrow_mut().clear());
            let mut ts = texts.clone();
            if order {
                ts.reverse();
            }
            for t in &ts {
                let g = game(t);
                let AnyGame::Spl(s) = &g else { panic!("{t}") };
                let (v, _) = spl(&g, s, &unlimited()).unwrap();
                assert_eq!(v, exhaustive(&g), "{t}");
            }
        }
        // A second solve of the same game computes nothing new.
        let g = game("SPL(7,11)");
        let AnyGame::Spl(s) = &g else { unreachable!() };
        assert_eq!(spl(&g, s, &unlimited()).unwrap().1, 0);
    }

    #[test]
    fn every_method_agrees_with_the_exhaustive_solver() {
        for (text, method) in [
            ("*5", "nimber"),
            ("DC(11)", "octal-sequence"),
            ("0.137(9,4)", "octal-sequence"),
            ("0.07(12)", "octal-sequence"),
            ("TER(C_11)", "cycle-table"),
            ("TER(C_9)", "cycle-table"),
            ("TER(W_12)", "levels"),
            ("DNT(W_13)", "levels"),
            ("TER(K_{2,3})", "levels"),
            ("DNT(C_10)", "levels"),
            ("UEG(SP_{4,2}, (1,1))", "gf2"),
            ("TER{2,2,3}", "exhaustive"),
            ("*1 : DNT(P_4)", "ordinal-sum"),
            (
                "DC(7) + TER(C_7) + *3",
                "sum(octal-sequence, cycle-table, nimber)",
            ),
        ] {
            let g = game(text);
            let s = solve(&g, &unlimited()).unwrap();
            assert!(s.method.starts_with(method), "{text}: {}", s.method);
            let want = exhaustive(&g);
            match s.nim {
                Some(v) => assert_eq!(v, want, "{text} by {}", s.method),
                None => assert_eq!(s.outcome == Outcome::P, want == 0, "{text}"),
            }
            assert_eq!(nim(&g, &unlimited()).unwrap(), want, "{text}");
        }
    }

    #[test]
    fn gf2_n_positions_get_their_nim_value_exhaustively() {
        // Any UEG start that GF(2) calls N: the value then comes from the memo solver.
        for text in [
            "UEG(SP_{4,2}, (1,1))",
            "UEG(SP_{6,2}, (1,1))",
            "UEG(SP_{4,3}, (1,2))",
        ] {
            let g = game(text);
            let s = solve(&g, &unlimited()).unwrap();
            assert_eq!(s.nim, Some(exhaustive(&g)), "{text}: {}", s.method);
        }
    }

    #[test]
    fn the_guard_refuses_before_solving() {
        let small = Options {
            budget: Budget {
                max_positions: Some(1000),
                max_memory: u64::MAX,
            },
            progress: false,
        };
        let r = solve(&game("TER(W_30)"), &small).unwrap_err();
        assert!(!r.during, "{r}");
        assert!(r.estimate.contains("estimated"), "{r}");
        // The octal path needs no budget at all.
        assert!(solve(&game("DC(60)"), &small).is_ok());
        // TER(C_21) is a P-position by the table, so the sum needs no exhaustive search.
        let s = solve(&game("TER(C_21) + *1"), &small).unwrap();
        assert_eq!(
            (s.nim, s.method.as_str()),
            (Some(1), "sum(cycle-table, nimber)")
        );
        // An N-position by GF(2) whose nim-value is out of budget: solve answers the outcome,
        // nim refuses.
        let tiny = Options {
            budget: Budget {
                max_positions: Some(1),
                max_memory: u64::MAX,
            },
            progress: false,
        };
        for text in [
            "UEG(SP_{4,2}, (1,1))",
            "UEG(SP_{6,2}, (1,1))",
            "UEG(SP_{4,3}, (1,2))",
        ] {
            let g = game(text);
            let s = solve(&g, &tiny).unwrap();
            if s.outcome == Outcome::N {
                assert_eq!(s.nim, None, "{text}");
                assert!(s.note.is_some());
                assert!(nim(&g, &tiny).is_err());
            }
        }
    }
}
