//! Named features of a position (numbers, booleans, lists, vertex sets): the vocabulary in
//! which specs write predicates and formulas over positions.

use serde::Serialize;
use std::collections::BTreeMap;

/// One feature value.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Value {
    Int(i64),
    Bool(bool),
    List(Vec<i64>),
    Set(Vec<String>),
    Str(String),
}

/// Features of a position, by name (ordered, so that reports are deterministic).
pub type Features = BTreeMap<String, Value>;

impl From<i64> for Value {
    fn from(v: i64) -> Self {
        Value::Int(v)
    }
}
impl From<bool> for Value {
    fn from(v: bool) -> Self {
        Value::Bool(v)
    }
}
impl From<Vec<i64>> for Value {
    fn from(v: Vec<i64>) -> Self {
        Value::List(v)
    }
}

/// The documented meaning of one feature: what `grundy features` prints and the user guide's
/// generated reference lists (the type is read from the computed [`Value`], never written here).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FeatureDoc {
    pub name: &'static str,
    pub meaning: &'static str,
}

const fn doc(name: &'static str, meaning: &'static str) -> FeatureDoc {
    FeatureDoc { name, meaning }
}

/// Features of TER(G) and DNT(G) positions (src/game/removing.rs). The family features need
/// 𝒢 and 𝒩* (computed only when a formula names one); the gap features exist only on cycles.
pub const REMOVING: &[FeatureDoc] = &[
    doc("selected", "the selected vertices P, in the paper's names"),
    doc("size", "|P|, the number of selected vertices"),
    doc("unselected", "|V \\ P|"),
    doc(
        "terminating",
        "P is terminating (seed 000 §3): [V \\ P] ≠ V, the unselected vertices no longer generate the graph under the closure",
    ),
    doc("vertices", "|V| of the graph"),
    doc("edges", "|E| of the graph"),
    doc(
        "free_antipodal_pairs",
        "the number of unselected pairs {a, b} at distance diam(G) with [{a, b}] = V (Example 3.4)",
    ),
    doc(
        "min_gen_sets",
        "|𝒢|, the number of minimal generating sets (minimal under inclusion, not of least size: C_6 has 5; family feature)",
    ),
    doc(
        "gen_unique",
        "𝒢 = {L}: exactly one minimal generating set (family feature)",
    ),
    doc(
        "gen_complement",
        "|L^c| when 𝒢 = {L}, else -1 (family feature)",
    ),
    doc(
        "n_star_sizes",
        "the sizes of the members of 𝒩* (family feature)",
    ),
    doc(
        "n_star_union",
        "|⋃𝒩*|; with n_star_sizes the hypotheses of Prop 4.4 (family feature)",
    ),
    doc("terminal_parities", TERMINAL_PARITIES),
    doc(
        "gaps",
        "cycles only: the number of maximal runs of unselected vertices (Conjecture 5.5)",
    ),
    doc("max_gap", "cycles only: the longest gap (0 if none)"),
    doc("min_gap", "cycles only: the shortest gap (0 if none)"),
    doc("gaps1", "cycles only: the number of gaps of length 1"),
    doc("gaps2", "cycles only: the number of gaps of length 2"),
    doc("gaps3", "cycles only: the number of gaps of length 3"),
    doc("odd_gaps", "cycles only: the number of gaps of odd length"),
    doc("even_gaps", "cycles only: the number of gaps of even length"),
];

/// Features of a nimber `*k`.
pub const NIMBER: &[FeatureDoc] = &[doc("heap", "k, the size of the nim heap")];

/// Features of an octal game on heaps, e.g. `0.137(17)` (src/game/octal.rs).
pub const OCTAL: &[FeatureDoc] = &[
    doc("heaps", "the heap sizes"),
    doc("num_heaps", "the number of (nonempty) heaps"),
    doc("tokens", "the sum of the heap sizes"),
    doc("largest", "the largest heap (0 if none)"),
];

/// Features of Dawson's Chess as a row of pins, `DC(n)` (src/game/dawson.rs).
pub const DAWSON: &[FeatureDoc] = &[
    doc("pins", "n, the pins of the row"),
    doc("standing", "the number of pins still standing"),
    doc("knocked", "the number of pins knocked down"),
    doc("standing_pins", "the positions 1..n of the standing pins"),
    doc(
        "runs",
        "lengths of the runs of standing pins, left to right",
    ),
    doc("runs_sorted", "the run lengths, largest first"),
    doc("num_runs", "the number of runs"),
    doc("longest_run", "the longest run (0 if none)"),
];

/// Features of the multiset terminate game `TER{…}` (paper §5.3, src/game/multiset.rs).
pub const MULTISET: &[FeatureDoc] = &[
    doc(
        "elements",
        "the multiset U as the position writes it, nondecreasing (an element worn down to 0 stays, as 0)",
    ),
    doc("total", "‖U‖, the sum of the elements"),
    doc("sigma", "σ, the number of elements equal to 1"),
    doc("lambda", "λ, the number of elements ≥ 2"),
    doc("nu", "ν, the number of copies of the maximum m, minus one"),
    doc("m", "m, the largest element (0 if none)"),
    doc("p", "p = pty(‖U‖)"),
    doc(
        "d",
        "d = m − Σ_{u∈U'} (u − 1), U' = {u ≥ 2} minus one copy of m; a large sentinel when d = ∞",
    ),
    doc("d_infinite", "d = ∞ (terminal positions)"),
    doc("rho", "the signature ρ(U) = (p, d) of Prop 5.14, as a list"),
    doc("terminal", "every element is below 2"),
];

/// Features of the splitting game `SPL(…)` (paper §5.5, src/game/spl.rs).
pub const SPL: &[FeatureDoc] = &[
    doc("c", "the number of unselected centres"),
    doc("parts", "the clusters λ, nonincreasing"),
    doc("size", "|λ|, the sum of the parts"),
    doc("parts_sum", "|λ| (the same as size)"),
    doc("num_parts", "the number of parts of λ"),
    doc("odd_parts", "the number of odd parts of λ"),
    doc(
        "solid",
        "λ is solid (before Lemma 5.39: l1 ≥ 4 or l2 ≥ 2; Λ^n iff n ≥ 5)",
    ),
    doc("is_lambda", "λ is still the special partition Λ^n"),
    doc("terminal", "c ≤ 1 and λ ∈ {[], [1], [2]} (Prop 5.31)"),
    doc("l1", "the largest part (0 if none)"),
    doc("l2", "the second largest part (0 if none)"),
    doc(
        "solid_splits",
        "the number of moves splitting λ (same c) to a solid partition (Lemma 5.39)",
    ),
];

/// Features of undirected edge geography `UEG(G, v)` (seed 002, src/game/ueg.rs).
pub const UEG: &[FeatureDoc] = &[
    doc("token", "the vertex holding the token"),
    doc("token_degree", "the number of remaining edges at the token"),
    doc("edges_left", "the number of edges not yet removed"),
    doc("removed", "the removed edges"),
    doc(
        "bipartite",
        "the remaining graph (its edges not removed) is bipartite: where seed 002's GF(2) criterion applies",
    ),
    doc(
        "token_in_even_kernel",
        "some even kernel of the remaining graph contains the token (seed 002, Theorem 2: then the position is P): a nonempty independent set S ∋ token with an even number of neighbours in S at every vertex outside S; searched on graphs of at most 16 vertices (gamegraph feature)",
    ),
];

/// Features of every closure game GEN(X), DNG(X), and TER(X), DNT(X) on a structure that is not a
/// graph (src/game/closure/mod.rs); each closure operator adds its own (its `FEATURES`).
pub const CLOSURE: &[FeatureDoc] = &[
    doc("elements", "|X|, the size of the ground set (group elements, vertices, poset elements)"),
    doc("selected", "|P|, the number of selected elements"),
    doc(
        "legal",
        "P is a legal position: cl(P) ≠ X (building games), cl(X \\ P) = X (removing games)",
    ),
    doc(
        "maximal_sets",
        "|𝓜|, the maximal legal sets (maximal non-generating sets for GEN/DNG, 𝒩* for TER/DNT), when found within budget",
    ),
    doc(
        "maximal_sizes",
        "the sizes of the members of 𝓜, ascending, when found (𝒩* for TER/DNT: Prop 4.4's hypotheses)",
    ),
    doc("maximal_union", "|⋃𝓜|, when 𝓜 was found"),
    doc("terminal_parities", TERMINAL_PARITIES),
];

/// The meaning of `terminal_parities` (TER, DNT, GEN, DNG).
const TERMINAL_PARITIES: &str = "the parities pty(Q) = |Q| mod 2 of the terminal positions Q reachable from P, distinct and ascending: [r] when all have the parity r (seed 000 Prop 2.2: then nim = r); when the game from its start has at most 16,384 positions (gamegraph feature)";

/// The features that cost more than the position: computed from the families 𝒢, 𝒩* of a
/// graph or from the whole gamegraph, only for a claim whose formulas name one
/// ([`crate::game::AnyGame::features_for`]).
pub const COSTLY: &[&str] = &[
    "min_gen_sets",
    "gen_unique",
    "gen_complement",
    "n_star_sizes",
    "n_star_union",
    "terminal_parities",
    "token_in_even_kernel",
];

/// Most positions [`terminal_parities`] explores from the start of a game.
pub const TERMINAL_PARITIES_BUDGET: usize = 1 << 14;

/// For every position reachable from `start`, the parities of the terminal positions reachable
/// from it (bit 0: an even one, bit 1: an odd one; `size` is |Q|), by one depth-first search
/// over the gamegraph (the options are the game's, no symmetry); `None` past `budget`
/// positions.
pub fn terminal_parities<P: Clone + Eq + std::hash::Hash>(
    start: &P,
    options: impl Fn(&P) -> Vec<P>,
    size: impl Fn(&P) -> u32,
    budget: usize,
) -> Option<rustc_hash::FxHashMap<P, u8>> {
    fn visit<P: Clone + Eq + std::hash::Hash>(
        p: &P,
        options: &dyn Fn(&P) -> Vec<P>,
        size: &dyn Fn(&P) -> u32,
        budget: usize,
        entered: &mut usize,
        memo: &mut rustc_hash::FxHashMap<P, u8>,
    ) -> Option<u8> {
        if let Some(&m) = memo.get(p) {
            return Some(m);
        }
        // Positions whose options were listed, counted on entry: the memo holds only finished
        // ones, so a budget on it let a deep descent list the options of positions without
        // bound (a maximal subgroup of Z_3^7 is 729 levels deep, 2,187 closures each).
        if *entered >= budget {
            return None;
        }
        *entered += 1;
        let opts = options(p);
        let mut m = 0u8;
        if opts.is_empty() {
            m = 1 << (size(p) % 2);
        }
        for q in &opts {
            m |= visit(q, options, size, budget, entered, memo)?;
        }
        memo.insert(p.clone(), m);
        Some(m)
    }
    let mut memo = rustc_hash::FxHashMap::default();
    visit(start, &options, &size, budget, &mut 0, &mut memo)?;
    Some(memo)
}

/// The feature value of a parity mask of [`terminal_parities`]: [0], [1] or [0, 1].
pub fn parity_list(mask: u8) -> Value {
    Value::List((0..2).filter(|b| mask >> b & 1 == 1).collect())
}

/// The meaning of a feature of the game family `table`, if documented.
pub fn meaning(table: &[FeatureDoc], name: &str) -> Option<&'static str> {
    table.iter().find(|d| d.name == name).map(|d| d.meaning)
}

/// The type of a feature value as the guide names it.
pub fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Int(_) => "integer",
        Value::Bool(_) => "boolean",
        Value::List(_) => "list of integers",
        Value::Set(_) => "set of vertices or edges",
        Value::Str(_) => "string",
    }
}
