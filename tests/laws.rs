//! Laws that must hold on every graph, checked by proptest on random small
//! connected graphs (a random spanning tree plus random extra edges) and on some named ones.
//!
//! - Sprague–Grundy: the directly solved disjoint sum (the product game) has the XOR of the
//!   parts' values (paper §2.3).
//! - Prop 2.4: 𝒩* = ∁(𝒢), 𝒩 = ∁(𝒢*), 𝒢* = Tr(𝒢), with the four families found by brute force
//!   over all subsets from an independent closure, for both the hull and the one-step closure.
//! - Prop 2.2 ([5, Prop 2.2]): if every terminal position has the same parity r, nim = r —
//!   on every rule (GEN, DNG, TER, DNT… as generated) and both closures.
//! - Prop 5.26: nim(*k : G) = k + nim(G).
//! - Symmetry reduction by automorphisms never changes a value.
//! - Node Kayles solved by components (the solver memoises only connected positions and sums
//!   the rest by XOR) agrees with a brute force over all vertex sets that splits nothing.

use grundy::expr::{parse_game, ParseOptions};
use grundy::game::removing::{RemovingGame, Rule};
use grundy::game::{AnyGame, AnyPos, Game};
use grundy::graph::convex::{sorted, transversals};
use grundy::graph::io::to_graph6;
use grundy::graph::{parse_graph, Closure, Convexity, Graph};
use grundy::solve::Solver;
use proptest::prelude::*;

/// A connected graph on `n` vertices: vertex i > 0 hangs off `parent[i] % i`, and pair number
/// p (in the order (0,1), (0,2), (1,2), (0,3), …) is an extra edge when bit p of `extra` is set.
fn build_graph(n: usize, parent: [u32; 8], extra: u64) -> Graph {
    let mut edges: Vec<(usize, usize)> = (1..n).map(|i| (parent[i] as usize % i, i)).collect();
    let mut p = 0;
    for b in 1..n {
        for a in 0..b {
            if extra >> p & 1 == 1 {
                edges.push((a, b));
            }
            p += 1;
        }
    }
    let names = (0..n).map(|i| format!("v{i}")).collect();
    let g = Graph::new("random", names, &edges).expect("a spanning tree makes it connected");
    let name = format!("graph6:{}", to_graph6(&g));
    g.with_name(name)
}

/// Random connected graphs with 1..=max_n vertices; the extra edges have density about 1/4.
fn arb_graph(max_n: usize) -> impl Strategy<Value = Graph> {
    (
        1..=max_n,
        proptest::array::uniform8(any::<u32>()),
        any::<u64>(),
        any::<u64>(),
    )
        .prop_map(|(n, parent, e1, e2)| build_graph(n, parent, e1 & e2))
}

const NAMED: [&str; 16] = [
    "C_5",
    "C_6",
    "C_7",
    "C_8",
    "W_6",
    "W_7",
    "K_{2,2,3}",
    "K_{1,4}",
    "Q_3",
    "W_{2,5}",
    "Grid_{2,3}",
    "SP_{3,2}",
    "Kite",
    "Corona(C_3)",
    "Wd_{3,3}",
    "P_5",
];

/// Random graphs and named (symmetric) ones.
fn arb_any_graph(max_n: usize) -> impl Strategy<Value = Graph> {
    prop_oneof![
        arb_graph(max_n),
        (0..NAMED.len()).prop_map(|i| parse_graph(NAMED[i]).expect("a valid name")),
    ]
}

fn arb_rule() -> impl Strategy<Value = Rule> {
    prop_oneof![Just(Rule::Ter), Just(Rule::Dnt)]
}

fn arb_closure() -> impl Strategy<Value = Closure> {
    prop_oneof![Just(Closure::HULL), Just(Closure::GEODETIC)]
}

fn removing(rule: Rule, g: Graph, closure: Closure) -> RemovingGame {
    RemovingGame::new(rule, g, closure, 0).expect("the empty set is nonterminating")
}

/// A TER/DNT game on a random graph, or a nimber.
fn arb_game(max_n: usize) -> impl Strategy<Value = AnyGame> {
    prop_oneof![
        3 => (arb_rule(), arb_graph(max_n), arb_closure())
            .prop_map(|(r, g, c)| AnyGame::Removing(removing(r, g, c))),
        1 => (0u32..5).prop_map(AnyGame::Nimber),
    ]
}

fn nim_of(g: &AnyGame) -> u32 {
    Solver::new(g).nim_of_start()
}

// ---------------------------------------------------------------- brute-force convexity

/// Closure computed from scratch: Floyd–Warshall distances, intervals, one step or iterated.
fn brute_closure(g: &Graph, closure: Closure) -> Vec<u64> {
    let n = g.n();
    let inf = u32::MAX / 4;
    let mut d = vec![vec![inf; n]; n];
    for (a, row) in d.iter_mut().enumerate() {
        row[a] = 0;
    }
    for (a, b) in g.edges() {
        d[a][b] = 1;
        d[b][a] = 1;
    }
    for k in 0..n {
        for a in 0..n {
            for b in 0..n {
                if d[a][k] + d[k][b] < d[a][b] {
                    d[a][b] = d[a][k] + d[k][b];
                }
            }
        }
    }
    let step = |s: u64| {
        let mut out = s;
        for a in (0..n).filter(|&a| s >> a & 1 == 1) {
            for b in (0..n).filter(|&b| s >> b & 1 == 1) {
                for w in 0..n {
                    if d[a][w] + d[w][b] == d[a][b] {
                        out |= 1 << w;
                    }
                }
            }
        }
        out
    };
    // Induced-path intervals have their own brute force (tests/closure_games.rs).
    assert!(
        closure.geodesic(),
        "arb_closure draws the geodesic closures only"
    );
    (0..1u64 << n)
        .map(|s| {
            if !closure.iterated() {
                return step(s);
            }
            let mut cur = s;
            loop {
                let next = step(cur);
                if next == cur {
                    break cur;
                }
                cur = next;
            }
        })
        .collect()
}

fn subset(a: u64, b: u64) -> bool {
    a & !b == 0
}

/// Members of `family` with no other member strictly inside them.
fn minimal_by_inclusion(family: &[u64]) -> Vec<u64> {
    sorted(
        family
            .iter()
            .copied()
            .filter(|&s| !family.iter().any(|&t| t != s && subset(t, s)))
            .collect(),
    )
}

fn maximal_by_inclusion(family: &[u64]) -> Vec<u64> {
    sorted(
        family
            .iter()
            .copied()
            .filter(|&s| !family.iter().any(|&t| t != s && subset(s, t)))
            .collect(),
    )
}

fn complement_all(full: u64, f: &[u64]) -> Vec<u64> {
    sorted(f.iter().map(|s| full & !s).collect())
}

/// nim of Node Kayles at every vertex set of `g` (bit i = vertex i in play), over all 2^n sets
/// in increasing order: a move takes a vertex in play and its neighbours, so every option of a
/// set is a smaller number and is already valued.
fn node_kayles_brute_force(g: &Graph) -> Vec<u32> {
    let n = g.n();
    let mut value = vec![0u32; 1 << n];
    for p in 1..(1u64 << n) {
        let opts = (0..n)
            .filter(|&v| p >> v & 1 == 1)
            .map(|v| value[(p & !(g.adj(v) | 1 << v)) as usize]);
        value[p as usize] = grundy::game::mex(opts);
    }
    value
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Node Kayles by components: every reachable position's value, from the solver that
    /// splits positions into components, equals the brute force's.
    #[test]
    fn node_kayles_components_agree_with_brute_force(
        n in 1usize..=8,
        parent in proptest::array::uniform8(any::<u32>()),
        extra in any::<u64>(),
        sparse in any::<bool>(),
    ) {
        // Graphs are connected; trees and sparse graphs (about one extra pair in eight) fall
        // apart into components after a move or two.
        let mask = if sparse { extra & (extra >> 1) & (extra >> 2) } else { extra };
        let g = build_graph(n, parent, mask);
        let truth = node_kayles_brute_force(&g);
        let game = parse_game(&format!("NK({})", g.name()), ParseOptions::default()).unwrap();
        let mut solver = Solver::new(&game);
        let start = game.start();
        for (p, v) in solver.reachable(&start) {
            let AnyPos::Family(q) = &p else { panic!("NK is a registered family") };
            // A position is serialised as its vertex mask (bit i = vertex i, graph6's order).
            let mask = q.to_json().as_u64().expect("a vertex mask");
            prop_assert_eq!(v, truth[mask as usize], "NK({}) at {}", g.name(), game.label(&p));
        }
        // The memo holds connected positions only, within the family's bound.
        let bound = grundy::solve::estimate::distinct_bound(&game).unwrap();
        prop_assert!(solver.stats().positions as f64 <= bound);
    }

    /// §2.3: nim(G + H) = nim(G) xor nim(H), with the sum solved as the product game.
    #[test]
    fn disjoint_sum_is_xor(a in arb_game(7), b in arb_game(7)) {
        let (va, vb) = (nim_of(&a), nim_of(&b));
        let sum = AnyGame::Sum(vec![a, b]);
        let direct = Solver::new(&sum).nim_of_start();
        prop_assert_eq!(direct, va ^ vb, "{}", sum);
        // AnyGame::solve combines parts by XOR; it must agree with the product game.
        prop_assert_eq!(sum.solve().nim, direct);
    }

    /// Prop 2.2 ([5, Prop 2.2]): if every terminal position of a game has the same parity r,
    /// its nim-value is r. In the removing games every move adds one vertex, so a position's
    /// parity is that of its set's size; the terminals are found by exploring every
    /// reachable position, independently of the families.
    #[test]
    fn prop_2_2_terminal_parity(g in arb_graph(7), rule in arb_rule(), closure in arb_closure()) {
        let game = AnyGame::Removing(removing(rule, g.clone(), closure));
        let mut solver = Solver::new(&game);
        let start = game.start();
        let parities: Vec<u32> = solver
            .reachable(&start)
            .into_iter()
            .filter(|(p, _)| game.options(p).is_empty())
            .map(|(p, _)| match p {
                AnyPos::Set(s) => parity(s.count_ones()),
                other => panic!("a removing game's position is a set, not {other:?}"),
            })
            .collect();
        if parities.windows(2).all(|w| w[0] == w[1]) {
            prop_assert_eq!(solver.nim(&start), parities[0], "Prop 2.2 on {}", game);
        }
    }

    /// §2.3 with three parts, one of them a nimber (smaller graphs keep the product small).
    #[test]
    fn disjoint_sum_of_three_is_xor(a in arb_game(5), b in arb_game(5), k in 0u32..4) {
        let (va, vb) = (nim_of(&a), nim_of(&b));
        let sum = AnyGame::Sum(vec![a, AnyGame::Nimber(k), b]);
        prop_assert_eq!(Solver::new(&sum).nim_of_start(), va ^ k ^ vb, "{}", sum);
    }

    /// Prop 2.4 on random graphs with at most 8 vertices, for both closures.
    #[test]
    fn prop_2_4_families_by_brute_force(g in arb_graph(8), closure in arb_closure()) {
        let full = g.full();
        let close = brute_closure(&g, closure);
        let conv = Convexity::new(&g, closure);
        for (s, &c) in close.iter().enumerate() {
            prop_assert_eq!(conv.close(s as u64), c, "closure of {:#b} in {}", s, g.name());
        }
        let all: Vec<u64> = (0..=full).collect();
        let generating = |s: u64| close[s as usize] == full;
        let terminating = |s: u64| !generating(full & !s);
        let gen: Vec<u64> = all.iter().copied().filter(|&s| generating(s)).collect();
        let nongen: Vec<u64> = all.iter().copied().filter(|&s| !generating(s)).collect();
        let term: Vec<u64> = all.iter().copied().filter(|&s| terminating(s)).collect();
        let nonterm: Vec<u64> = all.iter().copied().filter(|&s| !terminating(s)).collect();
        let g_fam = minimal_by_inclusion(&gen);
        let n_fam = maximal_by_inclusion(&nongen);
        let g_star = minimal_by_inclusion(&term);
        let n_star = maximal_by_inclusion(&nonterm);

        prop_assert_eq!(&n_star, &complement_all(full, &g_fam), "𝒩* = ∁(𝒢) on {}", g.name());
        prop_assert_eq!(&n_fam, &complement_all(full, &g_star), "𝒩 = ∁(𝒢*) on {}", g.name());
        prop_assert_eq!(&g_star, &transversals(&g_fam), "𝒢* = Tr(𝒢) on {}", g.name());
        // Tr also by brute force: inclusion-minimal sets meeting every member of 𝒢.
        let meets_all: Vec<u64> = all
            .iter()
            .copied()
            .filter(|&t| g_fam.iter().all(|&s| s & t != 0))
            .collect();
        prop_assert_eq!(&g_star, &minimal_by_inclusion(&meets_all));

        let f = conv.families(1 << 20).expect("at most 256 sets");
        prop_assert_eq!(f.g, g_fam);
        prop_assert_eq!(f.n, n_fam);
        prop_assert_eq!(f.g_star, g_star);
        prop_assert_eq!(f.n_star, n_star);
    }

    /// Prop 5.26: nim(*k : G) = k + nim(G), built directly and parsed from text.
    #[test]
    fn prop_5_26_ordinal_sum_with_nimber(
        g in arb_graph(7),
        rule in arb_rule(),
        closure in arb_closure(),
        k in 0u32..6,
    ) {
        let base = AnyGame::Removing(removing(rule, g.clone(), closure));
        let v = nim_of(&base);
        let ord = AnyGame::Ordinal(Box::new(AnyGame::Nimber(k)), Box::new(base));
        prop_assert_eq!(Solver::new(&ord).nim_of_start(), k + v, "{}", ord);
        let text = format!("*{k} : {rule}({})", g.name());
        let parsed = parse_game(&text, ParseOptions { closure }).expect("a valid expression");
        prop_assert_eq!(parsed.solve().nim, k + v, "{}", text);
    }

    /// Symmetry reduction changes no value: every position reachable in the plain game has the
    /// same value under the reduced solver, also for games started at a position.
    #[test]
    fn symmetry_reduction_preserves_values(
        g in arb_any_graph(7),
        rule in arb_rule(),
        closure in arb_closure(),
        start_bits in any::<u64>(),
    ) {
        let conv = Convexity::new(&g, closure);
        // A sparse start (about 1/8 of the vertices); DNT needs a nonterminating one.
        let mut start = start_bits & (start_bits >> 21) & (start_bits >> 42) & g.full();
        if rule == Rule::Dnt && conv.terminating(start) {
            start = 0;
        }
        let reduced = RemovingGame::new(rule, g, closure, start).expect("a valid start");
        let plain = reduced.clone().without_symmetry();
        let mut rs = Solver::new(&reduced);
        let mut ps = Solver::new(&plain);
        for (p, v) in ps.reachable(&start) {
            prop_assert_eq!(rs.nim(&p), v, "{} at {}", reduced.name(), reduced.label(p));
        }
    }
}

/// The laws are not vacuous: on fixed small cases the product game, the ordinal sum and the
/// families take the values worked out by hand.
#[test]
fn laws_hand_checked_instances() {
    let g = |s: &str| parse_game(s, ParseOptions::default()).expect("valid");
    // TER(P_3) = 2 and DNT(P_3) = 1 (Example 3.1), so their sum is *3, and *2 : TER(P_3) = *4.
    let sum = g("TER(P_3) + DNT(P_3)");
    assert_eq!(Solver::new(&sum).nim_of_start(), 3);
    let ord = g("*2 : TER(P_3)");
    assert_eq!(Solver::new(&ord).nim_of_start(), 4);
    // A game plus itself is a P-position.
    assert_eq!(Solver::new(&g("TER(P_3) + TER(P_3)")).nim_of_start(), 0);
    // Disjoint and ordinal sums differ: TER(P_3) : *1 has options TER(P_3)'s (values 0, 0, 1)
    // with *1 discarded, and (∅, *0) of value 2, so mex{0, 1, 2} = 3 != 2 xor 1.
    assert_eq!(Solver::new(&g("TER(P_3) : *1")).nim_of_start(), 3);
}

/// Random trees with 2..=max_n vertices (no extra edges).
fn arb_tree(max_n: usize) -> impl Strategy<Value = Graph> {
    (2..=max_n, proptest::array::uniform8(any::<u32>()))
        .prop_map(|(n, parent)| build_graph(n, parent, 0))
}

fn parity(k: u32) -> u32 {
    k % 2
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Example 4.11: in a forest the leaves are the unique minimal generating set L, so
    /// nim(DNT) = pty(L^c) and nim(TER) = 1 + pty(L^c), L^c the inner vertices.
    #[test]
    fn example_4_11_trees(t in arb_tree(8)) {
        let leaves = (0..t.n()).filter(|&v| t.degree(v) == 1).count() as u32;
        let inner = t.n() as u32 - leaves;
        let f = Convexity::new(&t, Closure::HULL).families(1 << 20).expect("small");
        let leaf_set = (0..t.n()).filter(|&v| t.degree(v) == 1).fold(0u64, |m, v| m | 1 << v);
        prop_assert_eq!(f.g, vec![leaf_set]);
        let dnt = nim_of(&AnyGame::Removing(removing(Rule::Dnt, t.clone(), Closure::HULL)));
        let ter = nim_of(&AnyGame::Removing(removing(Rule::Ter, t.clone(), Closure::HULL)));
        prop_assert_eq!(dnt, parity(inner), "DNT({})", t.name());
        prop_assert_eq!(ter, 1 + parity(inner), "TER({})", t.name());
    }

    /// Props 3.3, 4.3, 4.4 and 4.5 wherever their hypotheses hold, for both closures (they
    /// only use that generating sets are closed upwards).
    #[test]
    fn props_3_3_and_4_3_to_4_5(
        g in prop_oneof![arb_graph(8), arb_tree(8)],
        closure in arb_closure(),
    ) {
        let f = Convexity::new(&g, closure).families(1 << 20).expect("small");
        let dnt = nim_of(&AnyGame::Removing(removing(Rule::Dnt, g.clone(), closure)));
        let ter = nim_of(&AnyGame::Removing(removing(Rule::Ter, g.clone(), closure)));
        let parities: Vec<u32> = f.n_star.iter().map(|s| parity(s.count_ones())).collect();
        let same_parity = parities.windows(2).all(|w| w[0] == w[1]);
        if same_parity {
            prop_assert_eq!(dnt, parities[0], "Prop 3.3 on {}", g.name());
        }
        if let [l] = f.g[..] {
            let lc = parity((g.full() & !l).count_ones());
            prop_assert_eq!(dnt, lc, "Prop 4.3 on {}", g.name());
            prop_assert_eq!(ter, 1 + lc, "Prop 4.5 on {}", g.name());
        }
        let union = f.n_star.iter().fold(0u64, |m, s| m | s);
        let disjoint = f.n_star.iter().map(|s| s.count_ones()).sum::<u32>() == union.count_ones();
        if disjoint && same_parity && union != g.full() {
            prop_assert_eq!(ter, parities[0] + 1, "Prop 4.4 on {}", g.name());
        }
    }
}
