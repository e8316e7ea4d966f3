//! The removing games TER(G) and DNT(G) of paper §3 on any graph, for either closure.
//!
//! A position is the set P of selected vertices (a bitmask). P is terminating iff the
//! closure of V \ P is not V. TER: any unselected vertex may be selected while P is
//! nonterminating; terminating positions are terminal. DNT: positions are nonterminating
//! sets and a move must keep the set nonterminating. A game may start at any position P
//! (`TER_P(G)`, `DNT_P(G)`, before Prop 5.19).

use super::{Features, Game, Value};
use crate::graph::convex::SetFamilies;
use crate::graph::symmetry::Symmetry;
use crate::graph::{bits, Closure, Convexity, Graph};
use std::fmt;
use std::sync::{Arc, OnceLock};
use thiserror::Error;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// Achievement game: the player who makes P terminating wins.
    Ter,
    /// Avoidance game: P must stay nonterminating.
    Dnt,
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Rule::Ter => "TER",
            Rule::Dnt => "DNT",
        })
    }
}

#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum RemovingError {
    #[error("DNT start position {set} of {graph} is terminating, so it is not a position of DNT")]
    TerminatingStart { graph: String, set: String },
    #[error(
        "the {closure} intervals of {graph} need more than {} search steps; refused",
        crate::graph::monophonic::DEFAULT_BUDGET
    )]
    Closure { graph: String, closure: Closure },
    /// A closure defined in a spec whose rule failed on the graph (issue 45).
    #[error("{0}")]
    ClosureRule(String),
}

/// TER(G) or DNT(G), possibly started at a position.
#[derive(Clone, Debug)]
pub struct RemovingGame {
    rule: Rule,
    graph: Arc<Graph>,
    conv: Arc<Convexity>,
    start: u64,
    /// The automorphisms fixing the start, found on first use (the level solver of a game
    /// solved before, or a claim read off its features, never needs them).
    sym: Arc<OnceLock<Symmetry>>,
    /// 𝒢, 𝒩, 𝒢*, 𝒩*, when the search for them stayed within its budget; searched on first
    /// use and shared by the clones (the level solver never needs them, and on a large wheel
    /// the search visits 2^18 sets only to give up).
    families: Arc<OnceLock<Option<Arc<SetFamilies>>>>,
    /// Minimal terminating sets 𝒢*, when few enough to make the terminating test a scan.
    g_star: Arc<OnceLock<Option<Vec<u64>>>>,
    /// The pairs of vertices at distance diam(G) that generate G (Example 3.4's "antipodal"
    /// pairs on wheels), as two-bit masks: computed once, counted per position.
    antipodal: Arc<OnceLock<Vec<u64>>>,
    /// The parities of the terminal positions reachable from each position reachable from the
    /// start (`terminal_parities`, seed 000 Prop 2.2), when the game fits the budget.
    terminal: Arc<OnceLock<Option<rustc_hash::FxHashMap<u64, u8>>>>,
}

/// Pairs {a, b} with d(a, b) = diam(G) and [{a, b}] = V.
fn generating_antipodal_pairs(graph: &Graph, conv: &Convexity) -> Vec<u64> {
    let n = graph.n();
    let dist: Vec<Vec<u32>> = (0..n).map(|v| graph.distances_from(v)).collect();
    let diam = dist.iter().flatten().copied().max().unwrap_or(0);
    (0..n)
        .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
        .filter(|&(a, b)| diam > 0 && dist[a][b] == diam)
        .map(|(a, b)| 1u64 << a | 1u64 << b)
        .filter(|&m| conv.generates(m))
        .collect()
}

/// The features computed from the families 𝒢, 𝒩* of the graph ([`RemovingGame::features`]);
/// with `terminal_parities` (from the gamegraph), computed only when `families`
/// ([`crate::game::features::COSTLY`]).
pub const FAMILY_FEATURES: [&str; 5] = [
    "min_gen_sets",
    "gen_unique",
    "gen_complement",
    "n_star_sizes",
    "n_star_union",
];

/// Above this many minimal terminating sets, the hull test is cheaper than the scan.
const G_STAR_SCAN_LIMIT: usize = 64;

impl RemovingGame {
    pub fn new(
        rule: Rule,
        graph: Graph,
        closure: Closure,
        start: u64,
    ) -> Result<RemovingGame, RemovingError> {
        let conv = Convexity::try_new(&graph, closure).ok_or_else(|| match closure.failure() {
            Some(why) => RemovingError::ClosureRule(why),
            None => RemovingError::Closure {
                graph: graph.name().to_string(),
                closure,
            },
        })?;
        if rule == Rule::Dnt && conv.terminating(start) {
            return Err(RemovingError::TerminatingStart {
                graph: graph.name().to_string(),
                set: graph.format_set(start),
            });
        }
        Ok(RemovingGame {
            rule,
            graph: Arc::new(graph),
            conv: Arc::new(conv),
            start,
            sym: Arc::default(),
            families: Arc::default(),
            g_star: Arc::default(),
            antipodal: Arc::default(),
            terminal: Arc::default(),
        })
    }

    /// Same game without symmetry reduction (for cross-checks).
    pub fn without_symmetry(mut self) -> RemovingGame {
        self.sym = Arc::new(OnceLock::from(Symmetry::trivial(self.graph.n())));
        self
    }

    pub fn rule(&self) -> Rule {
        self.rule
    }
    pub fn graph(&self) -> &Graph {
        &self.graph
    }
    pub fn convexity(&self) -> &Convexity {
        &self.conv
    }
    pub fn symmetry(&self) -> &Symmetry {
        self.sym
            .get_or_init(|| Symmetry::of_graph(&self.graph, self.start))
    }
    pub fn start_set(&self) -> u64 {
        self.start
    }

    /// `TER(C_9)`, `DNT_{v1}(W_7)`, with ` [geodetic]` for the one-step closure (the closure's
    /// own suffix).
    pub fn name(&self) -> String {
        let started = if self.start == 0 {
            String::new()
        } else {
            format!("_{{{}}}", self.graph.set_names(self.start).join(","))
        };
        let closure = self.conv.closure_kind().game_suffix();
        format!("{}{}({}){}", self.rule, started, self.graph.name(), closure)
    }

    #[inline]
    pub fn terminating(&self, p: u64) -> bool {
        let g_star = self.g_star.get_or_init(|| {
            self.families()
                .map(|f| f.g_star.clone())
                .filter(|g| g.len() <= G_STAR_SCAN_LIMIT)
        });
        match g_star {
            Some(gs) => gs.iter().any(|&g| g & !p == 0),
            None => self.conv.terminating(p),
        }
    }

    pub fn families(&self) -> Option<&SetFamilies> {
        self.families
            .get_or_init(|| {
                self.conv
                    .families(crate::game::closure::FAMILY_BUDGET)
                    .map(Arc::new)
            })
            .as_deref()
    }

    /// Named features of a position: the set, its size, whether it is terminating; and of the
    /// graph: `vertices`, `edges`, and (when 𝒢 was enumerated) `min_gen_sets` = |𝒢|,
    /// `gen_unique` (𝒢 = {L}), `gen_complement` = |L^c| (-1 unless 𝒢 = {L}), `n_star_sizes`,
    /// `n_star_union` = |⋃𝒩*|; `free_antipodal_pairs`: the unselected pairs at distance diam(G)
    /// that generate G (Example 3.4).
    pub fn features(&self, p: u64) -> Features {
        self.features_for(p, true)
    }

    /// [`RemovingGame::features`], with those of [`FAMILY_FEATURES`] only if `families`:
    /// enumerating 𝒢 can take a second on a large cycle or wheel, for a formula that does not
    /// read it.
    pub fn features_for(&self, p: u64, families: bool) -> Features {
        let mut f = Features::new();
        f.insert("vertices".into(), Value::Int(self.graph.n() as i64));
        f.insert("edges".into(), Value::Int(self.graph.edges().len() as i64));
        if let Some(fam) = families.then(|| self.families()).flatten() {
            f.insert("min_gen_sets".into(), Value::Int(fam.g.len() as i64));
            f.insert("gen_unique".into(), Value::Bool(fam.g.len() == 1));
            let lc = if fam.g.len() == 1 {
                (self.graph.n() as u32 - fam.g[0].count_ones()) as i64
            } else {
                -1
            };
            f.insert("gen_complement".into(), Value::Int(lc));
            f.insert(
                "n_star_sizes".into(),
                Value::List(fam.n_star.iter().map(|s| s.count_ones() as i64).collect()),
            );
            // |⋃𝒩*|: with `n_star_sizes`, the hypotheses of Prop 4.4 (𝒩* pairwise disjoint iff
            // the sizes sum to it; V ≠ ⋃𝒩* iff it is less than `vertices`).
            let union = fam.n_star.iter().fold(0u64, |a, &s| a | s);
            f.insert("n_star_union".into(), Value::Int(union.count_ones() as i64));
        }
        // Prop 2.2's hypothesis: the parities of the terminal positions reachable from P.
        if families {
            let memo = self.terminal.get_or_init(|| {
                super::features::terminal_parities(
                    &self.start,
                    |p| self.options(p),
                    |p| p.count_ones(),
                    super::features::TERMINAL_PARITIES_BUDGET,
                )
            });
            if let Some(&m) = memo.as_ref().and_then(|m| m.get(&p)) {
                f.insert("terminal_parities".into(), super::features::parity_list(m));
            }
        }
        f.insert("selected".into(), Value::Set(self.graph.set_names(p)));
        f.insert("size".into(), Value::Int(p.count_ones() as i64));
        f.insert(
            "unselected".into(),
            Value::Int((self.graph.n() as u32 - p.count_ones()) as i64),
        );
        // The hull test, not `terminating`: its fast scan would enumerate 𝒢 first.
        f.insert("terminating".into(), Value::Bool(self.conv.terminating(p)));
        f.insert(
            "free_antipodal_pairs".into(),
            Value::Int(
                self.antipodal
                    .get_or_init(|| generating_antipodal_pairs(&self.graph, &self.conv))
                    .iter()
                    .filter(|&&m| m & p == 0)
                    .count() as i64,
            ),
        );
        cycle_gap_features(&self.graph, p, &mut f);
        f
    }

    pub fn label(&self, p: u64) -> String {
        self.graph.format_set(p)
    }
}

impl Game for RemovingGame {
    type Pos = u64;

    fn start(&self) -> u64 {
        self.start
    }

    fn options(&self, &p: &u64) -> Vec<u64> {
        let free = self.graph.full() & !p;
        match self.rule {
            Rule::Ter if self.terminating(p) => Vec::new(),
            Rule::Ter => bits(free).map(|v| p | (1 << v)).collect(),
            Rule::Dnt => bits(free)
                .map(|v| p | (1 << v))
                .filter(|&q| !self.terminating(q))
                .collect(),
        }
    }

    fn canonical(&self, &p: &u64) -> u64 {
        self.symmetry().canonical(p)
    }
}

/// On a cycle (connected, every vertex of degree 2), the gap structure of the selected set
/// (Conjecture 5.5, paper §6 question 1): the maximal runs of unselected vertices around the
/// cycle. `gaps` counts them, `max_gap`/`min_gap` their lengths, `gaps1`, `gaps2`, `gaps3`
/// those of length 1, 2, 3, `odd_gaps`/`even_gaps` by parity. Nothing is added on other graphs.
fn cycle_gap_features(g: &crate::graph::Graph, p: u64, f: &mut Features) {
    let n = g.n();
    if n < 3 || (0..n).any(|v| g.degree(v) != 2) || g.component(0) != g.full() {
        return;
    }
    // Walk the cycle from vertex 0.
    let mut order = vec![0usize];
    let mut prev = usize::MAX;
    let mut cur = 0usize;
    while order.len() < n {
        let next = bits(g.adj(cur)).find(|&w| w != prev && w != 0 || (order.len() == n && w == 0));
        let Some(next) = next else { return };
        prev = cur;
        cur = next;
        order.push(cur);
    }
    let sel = |v: usize| p >> v & 1 == 1;
    let mut gaps: Vec<i64> = Vec::new();
    if let Some(start) = order.iter().position(|&v| sel(v)) {
        let mut run = 0i64;
        for k in 1..=n {
            let v = order[(start + k) % n];
            if sel(v) {
                if run > 0 {
                    gaps.push(run);
                }
                run = 0;
            } else {
                run += 1;
            }
        }
    } else {
        gaps.push(n as i64);
    }
    let count =
        |pred: &dyn Fn(i64) -> bool| Value::Int(gaps.iter().filter(|&&x| pred(x)).count() as i64);
    f.insert("gaps".into(), Value::Int(gaps.len() as i64));
    f.insert(
        "max_gap".into(),
        Value::Int(gaps.iter().copied().max().unwrap_or(0)),
    );
    f.insert(
        "min_gap".into(),
        Value::Int(gaps.iter().copied().min().unwrap_or(0)),
    );
    f.insert("gaps1".into(), count(&|x| x == 1));
    f.insert("gaps2".into(), count(&|x| x == 2));
    f.insert("gaps3".into(), count(&|x| x == 3));
    f.insert("odd_gaps".into(), count(&|x| x % 2 == 1));
    f.insert("even_gaps".into(), count(&|x| x % 2 == 0));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::families as fam;
    use crate::solve::Solver;

    fn nim(rule: Rule, g: Graph) -> u32 {
        let game = RemovingGame::new(rule, g, Closure::HULL, 0).unwrap();
        Solver::new(&game).nim_of_start()
    }

    #[test]
    fn example_3_1_p3_and_3_2_k1() {
        assert_eq!(nim(Rule::Dnt, fam::path(3).unwrap()), 1);
        assert_eq!(nim(Rule::Ter, fam::path(3).unwrap()), 2);
        assert_eq!(nim(Rule::Dnt, fam::path(1).unwrap()), 0);
        assert_eq!(nim(Rule::Ter, fam::path(1).unwrap()), 1);
    }

    #[test]
    fn symmetry_reduction_agrees_with_plain_solving() {
        for g in [
            fam::cycle(9).unwrap(),
            fam::wheel(8).unwrap(),
            fam::kite(),
            fam::gen_wheel(2, 5).unwrap(),
            fam::hypercube(3).unwrap(),
        ] {
            for rule in [Rule::Ter, Rule::Dnt] {
                let a = RemovingGame::new(rule, g.clone(), Closure::HULL, 0).unwrap();
                let b = a.clone().without_symmetry();
                let (mut sa, mut sb) = (Solver::new(&a), Solver::new(&b));
                assert_eq!(sa.nim_of_start(), sb.nim_of_start(), "{}", a.name());
                if a.symmetry().len() > 1 {
                    assert!(sa.stats().positions < sb.stats().positions);
                }
            }
        }
    }

    #[test]
    fn dnt_rejects_terminating_start() {
        let g = fam::cycle(5).unwrap();
        assert!(RemovingGame::new(Rule::Dnt, g, Closure::HULL, 0b11).is_err());
    }

    /// The `terminating` feature means what its description says, seed 000's terminating
    /// sets ([V ∖ P] ≠ V), and not the description it once had ([P] = V): on P_3 with its
    /// middle vertex selected, the ends still generate (not terminating) while {v2} alone
    /// does not generate.
    #[test]
    fn the_terminating_feature_is_the_papers() {
        use crate::game::Value;
        let g = crate::graph::families::path(3).unwrap();
        let game = RemovingGame::new(Rule::Ter, g, Closure::HULL, 0).unwrap();
        let conv = game.convexity().clone();
        let full = conv.full();
        let mut differs = false;
        for p in 0..=full {
            let f = game.features(p);
            let want = !conv.generates(full & !p);
            assert_eq!(f["terminating"], Value::Bool(want), "P = {p:b}");
            differs |= want != conv.generates(p);
        }
        assert!(differs, "the wrong reading agrees everywhere on P_3");
    }
}
