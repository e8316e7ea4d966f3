//! Closure games: one model for every convex-hull and generation game of the research
//! program (docs/design.md, "Closure games"; usage in docs/closure-games.md).
//!
//! A game is a finite ground set X, a closure operator cl behind the one small trait
//! [`ClosureOperator`], a [`Direction`] and a [`Goal`]. A set S *generates* if cl(S) = X.
//! Positions are the sets P of selected elements, the start is ∅, a move selects one more
//! element. The *legal* positions are, building: the non-generating sets; removing: the
//! nonterminating sets (cl(X ∖ P) = X, seed 000 §3). Both families are closed under subsets
//! (cl is monotone), so the game is the achievement or avoidance game of a simplicial complex:
//!
//! | game | direction | goal | a move to an illegal set |
//! |---|---|---|---|
//! | `GEN(X)` | building | achievement | allowed, and ends the game (the mover wins) |
//! | `DNG(X)` | building | avoidance | not allowed (no move: you lose) |
//! | `TER(X)` | removing | achievement | allowed, and ends the game |
//! | `DNT(X)` | removing | avoidance | not allowed |
//!
//! GEN and DNG are Anderson–Harary's games (1987) and Ernst–Sieben's (2018) for groups; on
//! graphs they are the building games of Buckley–Harary (1985) cited in seed 000 §1. TER and
//! DNT on graphs are seed 000's games: for graphs they stay [`super::removing::RemovingGame`]
//! (the level solver's fast path), and the tests show this model gives the same values.
//!
//! Operators are registered in [`OPERATORS`], one line each; a new closure is one file that
//! implements the trait and adds its line there.

pub mod digraph;
pub mod enumerate;
pub mod graph;
pub mod metric;
pub mod multipartite;
pub mod poset;
pub mod sets;
pub mod subgroup;
pub mod weighted;

use super::features::FeatureDoc;
use super::{Features, Game, Value};
use crate::graph::Closure;
use fixedbitset::FixedBitSet;
use std::fmt;
use std::sync::{Arc, OnceLock};

/// A set of elements of the ground set.
pub type Set = FixedBitSet;

/// Sets visited at most by the generic search for minimal generating sets.
pub const FAMILY_BUDGET: u64 = 1 << 18;

/// A closure operator on the ground set `0..size()`: extensive and monotone (the games need
/// only that the non-generating sets are closed under subsets; idempotence is not required,
/// so the one-step geodetic closure is allowed).
pub trait ClosureOperator: Send + Sync + fmt::Debug {
    /// The operator's registered name: `hull`, `geodetic`, `monophonic`, `subgroup`, `sets`,
    /// `poset`, `digraph` (`digraph-geodetic`), `weighted` (`weighted-geodetic`).
    fn kind(&self) -> &'static str;
    /// The structure as the user named it: `P_7`, `Sym(4)`.
    fn structure(&self) -> String;
    /// The structure as the papers print it, for figures (groups: `S_4`, `Z_12`); default: as
    /// the user named it.
    fn paper_name(&self) -> String {
        self.structure()
    }
    fn size(&self) -> usize;
    fn element_name(&self, i: usize) -> String;
    fn parse_element(&self, text: &str) -> Option<usize> {
        (0..self.size()).find(|&i| self.element_name(i) == text.trim())
    }
    fn close(&self, s: &Set) -> Set;
    fn generates(&self, s: &Set) -> bool {
        self.close(s).count_ones(..) == self.size()
    }
    /// The maximal non-generating sets 𝓝 (for groups: the maximal subgroups), or `None` past
    /// `budget`. The default derives them from the minimal generating sets: S is
    /// non-generating iff it contains none, so the maximal ones are the complements of the
    /// minimal transversals Tr(𝒢) (seed 000 Prop 2.4).
    fn maximal_nongenerating(&self, budget: u64) -> Option<Vec<Set>> {
        nongenerating_from_generating(self, budget)
    }
    /// Why [`ClosureOperator::maximal_nongenerating`] gave no family, when the operator knows
    /// better than "too many to list" (groups: the subgroup lattice's budget), as what exceeded
    /// which limit.
    fn families_unavailable(&self) -> Option<(String, String)> {
        None
    }
    /// The minimal generating sets 𝒢, or `None` past `budget` sets visited (or a ground set
    /// of more than 64 elements). The default is the depth-first search of
    /// [`crate::graph::Convexity`] on any operator.
    fn minimal_generating(&self, budget: u64) -> Option<Vec<Set>> {
        generic_minimal_generating(self, budget)
    }
    /// The group whose subgroups close, for an operator on a group (`is:` declarations).
    fn group(&self) -> Option<&crate::group::Group> {
        None
    }
    /// The meanings of [`ClosureOperator::features`], for `grundy features` and the guide.
    fn feature_docs(&self) -> &'static [FeatureDoc] {
        &[]
    }
    /// Features of the structure itself (group order, number of subgroups, …).
    fn features(&self) -> Vec<(String, Value)> {
        Vec::new()
    }
    /// Generators of a group of permutations of X (`perm[x]` is the image of x) that commute
    /// with cl, so they map generating sets to generating sets and structure classes to
    /// structure classes of the same type: for groups the inner automorphisms, by which the
    /// structure diagram is drawn up to conjugacy. Default: none known.
    fn symmetries(&self) -> Vec<Vec<usize>> {
        Vec::new()
    }
    /// The structure as counts per orbit of its automorphisms, when whether a set generates
    /// depends only on those counts (complete multipartite graphs): then the games are
    /// solved over count vectors (src/solve/structure_symmetric.rs), whatever |X|.
    fn counted(&self) -> Option<&dyn Counted> {
        None
    }
    /// A structure class I (a legal set of the diagram) in the papers' notation, for the
    /// structure-diagram figure (the renderer sets it in TeX). Default: its elements, `{a, b}`
    /// (∅ for the empty set).
    fn class_label(&self, s: &Set) -> String {
        if s.is_clear() {
            return "∅".into();
        }
        let names: Vec<String> = s.ones().map(|i| self.element_name(i)).collect();
        format!("{{{}}}", names.join(", "))
    }
    /// Whether the structure was read from a file (`poset:`, `sets:`, `digraph:`,
    /// `weighted:`) rather than written out in its name: certificates of such games are
    /// refused (src/certify/closure.rs), since the verifier rebuilds structures from their
    /// names alone and reads no files besides the specs. Set by the file readers through
    /// [`read_from_file`], so no caller has to guess it from the name.
    fn is_from_file(&self) -> bool {
        false
    }
    /// What a game's name appends to mark the closure (`DNG(P_7) [monophonic]`); default:
    /// nothing.
    fn name_suffix(&self) -> String {
        String::new()
    }
    /// How certificates list the elements, which the verifier rebuilds from the structure's
    /// name alone; `None`: games on this structure are not certified by their maximal sets.
    fn certificate_order(&self) -> Option<CertificateOrder> {
        None
    }
}

/// The order of the elements in a closure game's certificate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CertificateOrder {
    /// Sorted by name (groups, posets, set families, digraphs and weighted graphs, whose
    /// element numbering is the reader's own).
    ByName,
    /// The structure's own order (a graph's vertex order, which its name fixes).
    Index,
}

/// Marks an operator as read from a file ([`ClosureOperator::is_from_file`]); everything else is
/// the operator's own.
pub fn read_from_file(op: Arc<dyn ClosureOperator>) -> Arc<dyn ClosureOperator> {
    Arc::new(FromFile(op))
}

/// An operator read from a file: every method forwards to it, except
/// [`ClosureOperator::is_from_file`].
#[derive(Debug)]
struct FromFile(Arc<dyn ClosureOperator>);

impl ClosureOperator for FromFile {
    fn kind(&self) -> &'static str {
        self.0.kind()
    }
    fn structure(&self) -> String {
        self.0.structure()
    }
    fn paper_name(&self) -> String {
        self.0.paper_name()
    }
    fn size(&self) -> usize {
        self.0.size()
    }
    fn element_name(&self, i: usize) -> String {
        self.0.element_name(i)
    }
    fn parse_element(&self, text: &str) -> Option<usize> {
        self.0.parse_element(text)
    }
    fn close(&self, s: &Set) -> Set {
        self.0.close(s)
    }
    fn generates(&self, s: &Set) -> bool {
        self.0.generates(s)
    }
    fn maximal_nongenerating(&self, budget: u64) -> Option<Vec<Set>> {
        self.0.maximal_nongenerating(budget)
    }
    fn families_unavailable(&self) -> Option<(String, String)> {
        self.0.families_unavailable()
    }
    fn minimal_generating(&self, budget: u64) -> Option<Vec<Set>> {
        self.0.minimal_generating(budget)
    }
    fn feature_docs(&self) -> &'static [FeatureDoc] {
        self.0.feature_docs()
    }
    fn group(&self) -> Option<&crate::group::Group> {
        self.0.group()
    }
    fn features(&self) -> Vec<(String, Value)> {
        self.0.features()
    }
    fn symmetries(&self) -> Vec<Vec<usize>> {
        self.0.symmetries()
    }
    fn counted(&self) -> Option<&dyn Counted> {
        self.0.counted()
    }
    fn class_label(&self, s: &Set) -> String {
        self.0.class_label(s)
    }
    fn is_from_file(&self) -> bool {
        true
    }
    fn name_suffix(&self) -> String {
        self.0.name_suffix()
    }
    fn certificate_order(&self) -> Option<CertificateOrder> {
        self.0.certificate_order()
    }
}

/// A structure whose ground set splits into parts such that whether a set generates depends
/// only on how many elements it has in each part, and parts of one [`Counted::part_class`]
/// are interchangeable: the positions up to the structure's automorphisms are then count
/// vectors, sorted within each class (src/solve/structure_symmetric.rs solves all four games
/// over them).
pub trait Counted: Send + Sync {
    /// The parts' sizes.
    fn parts(&self) -> &[u32];
    /// Whether a set with `counts[i]` elements in part i generates.
    fn generates_counts(&self, counts: &[u32]) -> bool;
    /// Parts of the same class may be permuted by an automorphism (with their elements).
    fn part_class(&self, i: usize) -> u64;
}

/// What an operator's reader answers: `None` when the text is not its kind of structure.
pub type Reading = Option<Result<Arc<dyn ClosureOperator>, String>>;

/// One registered closure operator: its name and how it reads a structure.
pub struct Operator {
    pub kind: &'static str,
    pub about: &'static str,
    /// The structures it reads, as `grundy solve --help` and the guide's language page list
    /// them (each example is a game on one; tests/cli.rs solves those not read from a file).
    pub forms: &'static [crate::game::family::FormDoc],
    /// `None` when the text is not this operator's kind of structure (or another closure is
    /// selected); `Some(Err)` when it is, but malformed.
    pub read: fn(&str, Closure) -> Reading,
}

/// Every closure operator on structures other than graphs of at most 64 vertices, tried in
/// this order on the argument of `GEN(..)`, `DNG(..)` (and of `TER(..)`, `DNT(..)` when it
/// is not a graph); graphs come last ([`GRAPHS`]), under the selected graph closure
/// ([`crate::graph::closures`]).
pub const OPERATORS: &[Operator] = &[
    subgroup::OPERATOR,
    sets::OPERATOR,
    poset::OPERATOR,
    digraph::OPERATOR,
    weighted::OPERATOR,
    multipartite::OPERATOR,
];

/// Graphs under the selected closure, tried after [`OPERATORS`].
pub const GRAPHS: Operator = graph::OPERATOR;

/// The forms of every structure a closure game can be played on, operator by operator
/// ([`OPERATORS`], then graphs).
pub fn structure_forms() -> Vec<crate::game::family::FormDoc> {
    OPERATORS
        .iter()
        .chain([&GRAPHS])
        .flat_map(|o| o.forms.iter().copied())
        .collect()
}

/// Reads a structure with the first operator that recognises it.
pub fn read_structure(text: &str, closure: Closure) -> Result<Arc<dyn ClosureOperator>, String> {
    for op in OPERATORS.iter().chain([&GRAPHS]) {
        if let Some(r) = (op.read)(text, closure) {
            return r;
        }
    }
    Err(format!(
        "`{}` is neither a group (Cyc(n), Dih(n), Sym(n), Alt(n), Dic(n), Perm(..), G x H), a family of generating sets (Sets({{1,2}},{{2,3}})), a poset (Bool(n), Div(n), Chain(n), Poset(1<2, ..), poset:<path>), a digraph (digraph:<path>, Digraph(a->b, ..)), a weighted graph (weighted:<path>, Weighted(a-b:2, ..)) nor a graph",
        text.trim()
    ))
}

/// A structure other than a graph of at most 64 vertices (a group, a family of sets, a
/// complete multipartite graph past 64 vertices) read from `text` under `closure`, `None`
/// when no such operator recognises it: then `TER(text)` and `DNT(text)` are graph games.
pub fn read_off_graphs(text: &str, closure: Closure) -> Reading {
    OPERATORS.iter().find_map(|o| (o.read)(text, closure))
}

fn full_mask(n: usize) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

pub fn to_mask(s: &Set) -> Option<u64> {
    s.ones().try_fold(0u64, |m, i| (i < 64).then(|| m | 1 << i))
}

pub fn from_mask(m: u64, n: usize) -> Set {
    let mut s = Set::with_capacity(n);
    for i in crate::graph::bits(m) {
        s.insert(i);
    }
    s
}

/// The one minimal generating set, when there is one made of the extreme elements: e is
/// extreme when X ∖ {e} does not generate. A set missing an extreme e lies inside X ∖ {e} and
/// does not generate (cl is monotone); so if the extreme elements E generate, S generates iff
/// S ⊇ E: 𝒢 = {E} and 𝓝 = {X ∖ {e} : e ∈ E}, by n + 1 closures whatever |X| (paths, trees and
/// chains, directed or weighted, of any length; issue 49). `None` when E does not generate.
pub fn unique_generating<C: ClosureOperator + ?Sized>(op: &C) -> Option<Set> {
    let n = op.size();
    let mut all = Set::with_capacity(n);
    all.insert_range(..);
    let mut extreme = Set::with_capacity(n);
    for e in 0..n {
        all.set(e, false);
        if !op.generates(&all) {
            extreme.insert(e);
        }
        all.set(e, true);
    }
    op.generates(&extreme).then_some(extreme)
}

/// 𝓝 from [`unique_generating`]'s set E: the sets X ∖ {e}, e ascending (the order in which
/// the transversal search lists them; [`maximal_closed`] sorts its own).
fn nongenerating_of_unique(n: usize, e: &Set) -> Vec<Set> {
    e.ones()
        .map(|x| {
            let mut s = Set::with_capacity(n);
            s.insert_range(..);
            s.set(x, false);
            s
        })
        .collect()
}

/// The maximal non-generating sets of an *idempotent* operator (the hulls, not the one-step
/// geodetic closure): they are closed (cl(S) ≠ X is non-generating and contains S), and every
/// closed C ≠ X is reached from cl(∅) by steps C ↦ cl(C ∪ {x}) staying inside it, so a search
/// over the closed sets finds them: C is maximal iff every step from it gives X. `None` past
/// `budget` closed sets or 64 elements. The closed sets can be far fewer than the minimal
/// generating sets (Q_5: 243 subcubes against 1648).
pub fn maximal_closed<C: ClosureOperator + ?Sized>(op: &C, budget: u64) -> Option<Vec<Set>> {
    let n = op.size();
    if let Some(e) = unique_generating(op) {
        let mut out = nongenerating_of_unique(n, &e);
        out.sort();
        return Some(out);
    }
    if n > 64 {
        return None;
    }
    let full = full_mask(n);
    let close = |m: u64| to_mask(&op.close(&from_mask(m, n))).unwrap_or(full);
    let start = close(0);
    if start == full {
        return Some(Vec::new());
    }
    let mut seen: rustc_hash::FxHashSet<u64> = [start].into_iter().collect();
    let mut queue = std::collections::VecDeque::from([start]);
    let mut out = Vec::new();
    while let Some(c) = queue.pop_front() {
        let mut maximal = true;
        for x in 0..n {
            if c >> x & 1 == 1 {
                continue;
            }
            let d = close(c | 1 << x);
            if d != full {
                maximal = false;
                if seen.insert(d) {
                    if seen.len() as u64 > budget {
                        return None;
                    }
                    queue.push_back(d);
                }
            }
        }
        if maximal {
            out.push(from_mask(c, n));
        }
    }
    out.sort();
    Some(out)
}

/// 𝓝 as the complements of the minimal transversals of 𝒢 (seed 000 Prop 2.4): the default of
/// [`ClosureOperator::maximal_nongenerating`].
pub fn nongenerating_from_generating<C: ClosureOperator + ?Sized>(
    op: &C,
    budget: u64,
) -> Option<Vec<Set>> {
    if let Some(e) = unique_generating(op) {
        return Some(nongenerating_of_unique(op.size(), &e));
    }
    let g = op.minimal_generating(budget)?;
    let masks: Vec<u64> = g.iter().map(to_mask).collect::<Option<_>>()?;
    let full = full_mask(op.size());
    Some(
        crate::graph::convex::transversals(&masks)
            .into_iter()
            .map(|t| from_mask(full & !t, op.size()))
            .collect(),
    )
}

/// 𝒢 of an *idempotent* operator from 𝓝 found by the search over closed sets
/// ([`maximal_closed`]), for structures whose non-generating sets are too many to search
/// (P_40, or a directed path: every set missing an end): S generates iff it meets the
/// complement of every member of 𝓝, so 𝒢 is the family of minimal transversals of
/// {X ∖ N : N ∈ 𝓝} (seed 000 Prop 2.4). `None` past `budget` or 64 elements.
pub fn generating_by_closed_sets<C: ClosureOperator + ?Sized>(
    op: &C,
    budget: u64,
) -> Option<Vec<Set>> {
    let n = op.size();
    if let Some(e) = unique_generating(op) {
        return Some(vec![e]);
    }
    let full = full_mask(n);
    let complements: Vec<u64> = maximal_closed(op, budget)?
        .iter()
        .map(|s| to_mask(s).map(|m| full & !m))
        .collect::<Option<_>>()?;
    let g = crate::graph::convex::transversals_within(&complements, budget, &mut 0)?;
    Some(
        crate::graph::convex::sorted(g)
            .into_iter()
            .map(|m| from_mask(m, n))
            .collect(),
    )
}

/// Depth-first over non-generating sets, extending only with larger elements (each set once).
pub(crate) fn generic_minimal_generating<C: ClosureOperator + ?Sized>(
    op: &C,
    budget: u64,
) -> Option<Vec<Set>> {
    let n = op.size();
    if let Some(e) = unique_generating(op) {
        return Some(vec![e]);
    }
    if n > 64 {
        return None;
    }
    let mut out = Vec::new();
    if op.generates(&Set::with_capacity(n)) {
        return Some(vec![Set::with_capacity(n)]);
    }
    let mut stack = vec![(0u64, 0usize)];
    let mut visited = 0u64;
    while let Some((s, from)) = stack.pop() {
        visited += 1;
        if visited > budget {
            return None;
        }
        for v in from..n {
            let t = s | (1 << v);
            if op.generates(&from_mask(t, n)) {
                let minimal =
                    crate::graph::bits(t).all(|x| !op.generates(&from_mask(t & !(1 << x), n)));
                if minimal {
                    out.push(from_mask(t, n));
                }
            } else {
                stack.push((t, v + 1));
            }
        }
    }
    out.sort();
    Some(out)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Selected elements are the ones the closure is taken of (GEN, DNG).
    Building,
    /// The closure of the unselected elements counts (TER, DNT).
    Removing,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Goal {
    /// The player who makes the position illegal wins (GEN, TER).
    Achievement,
    /// Positions must stay legal (DNG, DNT).
    Avoidance,
}

/// The four games' names, one line each.
pub const GAMES: &[(&str, Direction, Goal)] = &[
    ("GEN", Direction::Building, Goal::Achievement),
    ("DNG", Direction::Building, Goal::Avoidance),
    ("TER", Direction::Removing, Goal::Achievement),
    ("DNT", Direction::Removing, Goal::Avoidance),
];

/// A closure game started at the empty selection.
#[derive(Clone, Debug)]
pub struct ClosureGame {
    op: Arc<dyn ClosureOperator>,
    direction: Direction,
    goal: Goal,
    /// 𝓜, the maximal legal sets, when found within [`FAMILY_BUDGET`]; shared by clones.
    facets: Arc<OnceLock<Option<Arc<Vec<Set>>>>>,
    /// `terminal_parities` of every position reachable from the start (seed 000 Prop 2.2),
    /// when the game fits the budget.
    terminal: Arc<OnceLock<Option<rustc_hash::FxHashMap<Set, u8>>>>,
}

impl ClosureGame {
    pub fn new(op: Arc<dyn ClosureOperator>, direction: Direction, goal: Goal) -> ClosureGame {
        ClosureGame {
            op,
            direction,
            goal,
            facets: Arc::default(),
            terminal: Arc::default(),
        }
    }

    /// The game named `word` (`GEN`, `DNG`, `TER`, `DNT`) on `op`.
    pub fn named(word: &str, op: Arc<dyn ClosureOperator>) -> Option<ClosureGame> {
        GAMES
            .iter()
            .find(|(w, ..)| *w == word)
            .map(|&(_, d, g)| ClosureGame::new(op, d, g))
    }

    pub fn operator(&self) -> &dyn ClosureOperator {
        &*self.op
    }
    pub fn direction(&self) -> Direction {
        self.direction
    }
    pub fn goal(&self) -> Goal {
        self.goal
    }
    pub fn size(&self) -> usize {
        self.op.size()
    }

    pub fn word(&self) -> &'static str {
        GAMES
            .iter()
            .find(|(_, d, g)| *d == self.direction && *g == self.goal)
            .map_or("?", |(w, ..)| w)
    }

    /// `GEN(Sym(4))`, `DNG(P_7) [monophonic]` (graphs name their closure unless it is the hull).
    pub fn name(&self) -> String {
        format!(
            "{}({}){}",
            self.word(),
            self.op.structure(),
            self.op.name_suffix()
        )
    }

    /// Whether P is a legal (non-final) position: non-generating (building) or nonterminating
    /// (removing).
    pub fn legal(&self, p: &Set) -> bool {
        match self.direction {
            Direction::Building => !self.op.generates(p),
            Direction::Removing => {
                let mut rest = p.clone();
                rest.toggle_range(..);
                self.op.generates(&rest)
            }
        }
    }

    /// 𝓜: the maximal legal sets (𝓝 building, 𝒩* removing), when found within budget.
    pub fn facets(&self) -> Option<&[Set]> {
        self.facets
            .get_or_init(|| {
                let n = self.size();
                let f = match self.direction {
                    Direction::Building => self.op.maximal_nongenerating(FAMILY_BUDGET),
                    // P nonterminating iff X ∖ P contains a minimal generating set: the maximal
                    // ones are their complements (𝒩*, seed 000 Prop 2.4).
                    Direction::Removing => self.op.minimal_generating(FAMILY_BUDGET).map(|g| {
                        g.into_iter()
                            .map(|mut s| {
                                s.grow(n);
                                s.toggle_range(..);
                                s
                            })
                            .collect()
                    }),
                };
                f.map(|mut v| {
                    v.sort();
                    v.dedup();
                    Arc::new(v)
                })
            })
            .as_deref()
            .map(Vec::as_slice)
    }

    /// `{a, b}` in the operator's element names.
    pub fn label(&self, p: &Set) -> String {
        let names: Vec<String> = p.ones().map(|i| self.op.element_name(i)).collect();
        format!("{{{}}}", names.join(", "))
    }

    /// Reads a position written as [`ClosureGame::label`] writes it.
    pub fn parse_pos(&self, text: &str) -> Result<Set, String> {
        let t = text.trim();
        let inner = t
            .strip_prefix('{')
            .and_then(|r| r.strip_suffix('}'))
            .ok_or_else(|| {
                format!(
                    "a position of {} is a set such as {{a, b}}, not `{t}`",
                    self.name()
                )
            })?;
        let mut s = Set::with_capacity(self.size());
        for part in crate::graph::split_top_level(inner, ',') {
            if part.trim().is_empty() {
                continue;
            }
            let i = self.op.parse_element(part).ok_or_else(|| {
                format!(
                    "`{}` is not an element of {}",
                    part.trim(),
                    self.op.structure()
                )
            })?;
            s.insert(i);
        }
        Ok(s)
    }

    /// Features: `elements` = |X|, `selected` = |P|, `legal`; `maximal_sets` = |𝓜| when found;
    /// and the operator's own (for groups: `order`, `subgroups`, `maximal_subgroups`,
    /// `frattini_order`, …).
    pub fn features(&self, p: &Set) -> Features {
        self.features_for(p, true)
    }

    /// [`ClosureGame::features`]; `terminal_parities` (the sizes of the terminal positions
    /// reachable from P, by a search of the gamegraph) only if `costly`.
    pub fn features_for(&self, p: &Set, costly: bool) -> Features {
        let mut f = Features::new();
        f.insert("elements".into(), Value::Int(self.size() as i64));
        f.insert("selected".into(), Value::Int(p.count_ones(..) as i64));
        f.insert("legal".into(), Value::Bool(self.legal(p)));
        if let Some(m) = self.facets() {
            f.insert("maximal_sets".into(), Value::Int(m.len() as i64));
            let mut sizes: Vec<i64> = m.iter().map(|s| s.count_ones(..) as i64).collect();
            sizes.sort_unstable();
            f.insert("maximal_sizes".into(), Value::List(sizes));
            let mut union = Set::with_capacity(self.size());
            for s in m {
                union.union_with(s);
            }
            f.insert(
                "maximal_union".into(),
                Value::Int(union.count_ones(..) as i64),
            );
        }
        if costly {
            // A position's options cost |X| closures of up to |X| elements each, so past 64
            // elements the positions explored shrink with |X|³ (DNG(Z_2^8): 256 positions,
            // about a second; issue 44 item 1).
            let n = self.size().max(64) as u64;
            let budget = (crate::game::features::TERMINAL_PARITIES_BUDGET as u64 * 64 * 64 * 64
                / (n * n * n))
                .max(1) as usize;
            let memo = self.terminal.get_or_init(|| {
                crate::game::features::terminal_parities(
                    &self.start(),
                    |q| self.options(q),
                    |q| q.count_ones(..) as u32,
                    budget,
                )
            });
            if let Some(&m) = memo.as_ref().and_then(|m| m.get(p)) {
                f.insert(
                    "terminal_parities".into(),
                    crate::game::features::parity_list(m),
                );
            }
        }
        for (k, v) in self.op.features() {
            f.insert(k, v);
        }
        f
    }
}

impl Game for ClosureGame {
    type Pos = Set;

    fn start(&self) -> Set {
        Set::with_capacity(self.size())
    }

    fn options(&self, p: &Set) -> Vec<Set> {
        if !self.legal(p) {
            return Vec::new();
        }
        let mut out = Vec::new();
        for x in 0..self.size() {
            if p.contains(x) {
                continue;
            }
            let mut q = p.clone();
            q.insert(x);
            if self.goal == Goal::Achievement || self.legal(&q) {
                out.push(q);
            }
        }
        out
    }
}

impl fmt::Display for ClosureGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The maximal non-generating sets by brute force over all subsets.
    fn brute_force(op: &dyn ClosureOperator) -> Vec<Set> {
        let n = op.size();
        let nongen: Vec<u64> = (0u64..1 << n)
            .filter(|&m| !op.generates(&from_mask(m, n)))
            .collect();
        nongen
            .iter()
            .filter(|&&m| !nongen.iter().any(|&t| t != m && t & m == m))
            .map(|&m| from_mask(m, n))
            .collect()
    }

    /// Where the extreme elements generate, the shortcut's 𝓝 and 𝒢 are the brute-force
    /// families, in the order of the searches they stand in for; where they do not (C_4, the
    /// directed 3-cycle) there is no shortcut.
    #[test]
    fn extreme_elements_give_the_families_when_they_generate() {
        for text in [
            "Weighted(a-b:2, b-c, c-d:3, d-e)",
            "Weighted(c-a, c-b, c-d, d-e)",
            "Digraph(a->b->c->d, a->e)",
            "Poset(1<2<3, 1<4)",
        ] {
            let op = read_structure(text, Closure::HULL).unwrap();
            let e = unique_generating(op.as_ref()).unwrap_or_else(|| panic!("{text}"));
            let mut want = brute_force(op.as_ref());
            want.sort();
            let mut got = nongenerating_from_generating(op.as_ref(), 1 << 16).unwrap();
            let ascending: Vec<usize> = got.iter().map(|s| s.zeroes().next().unwrap()).collect();
            assert!(ascending.windows(2).all(|w| w[0] < w[1]), "{text}");
            got.sort();
            assert_eq!(got, want, "{text}");
            assert_eq!(op.minimal_generating(1 << 16).unwrap(), vec![e], "{text}");
        }
        for text in ["Weighted(a-b, b-c, c-d, d-a)", "Digraph(a->b->c->a)"] {
            let op = read_structure(text, Closure::HULL).unwrap();
            assert!(unique_generating(op.as_ref()).is_none(), "{text}");
        }
    }
}
