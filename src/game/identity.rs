//! Whether two game expressions name the same game whatever their spelling, for the teeth of
//! value formulas and predicates (docs/design.md §2, teeth; issue 42 item 3): a formula that
//! reads `nim("TER(C_5) + *0")` in a claim about TER(C_5) reads its own value.
//!
//! The rules, each an identity of games (not only of values):
//! - a disjoint sum is a multiset of its parts: nested sums are flattened, the order of the
//!   parts does not matter and a part `*0` (no moves) is dropped;
//! - an ordinal sum with `*0` on either side is the other side (`*0 : G` has G's moves only,
//!   `G : *0` adds none);
//! - TER and DNT of two graphs are the same game when one graph maps onto the other by an
//!   isomorphism that maps start set onto start set, under the same closure (petgraph's VF2);
//! - GEN, DNG, TER and DNT on any closure operator (groups, posets, digraphs, …) are the same
//!   game when they have the same goal (achievement or avoidance) and their maximal legal sets
//!   𝓜 are isomorphic set systems: a position is legal iff it lies in a member of 𝓜, and a
//!   move adds one element, so a bijection of the ground sets carrying 𝓜 onto 𝓜 carries
//!   positions and options onto each other. So DNG(Sym(3) × Z_3) is DNG(Perm(…)) of the same
//!   group whatever its generators, and GEN of two non-isomorphic groups with the same
//!   maximal-subgroup structure is one game (VF2 on the element–member incidence graph);
//! - anything else is the same game when it prints the same.
//!
//! "Not the same" is not a proof of different values: a formula may still read an equal game
//! this does not recognise (structures past [`ISOMORPHISM_VERTICES`] or [`SET_SYSTEM_SIZE`],
//! an isomorphism search past [`MATCH_BUDGET`] steps), which the rule then misses, never the
//! other way round.

use super::any::AnyGame;

/// The parts of `g` as a sum: flattened, `*0` dropped, ordinal sums with `*0` unwrapped.
fn parts(g: &AnyGame) -> Vec<&AnyGame> {
    match g {
        AnyGame::Sum(ps) => ps.iter().flat_map(parts).collect(),
        AnyGame::Nimber(0) => Vec::new(),
        AnyGame::Ordinal(base, top) => match (parts(base).is_empty(), parts(top).is_empty()) {
            (true, _) => parts(top),
            (_, true) => parts(base),
            _ => vec![g],
        },
        _ => vec![g],
    }
}

/// Whether `a` and `b` are the same game up to the rules of this module.
pub fn same_game(a: &AnyGame, b: &AnyGame) -> bool {
    let (pa, mut pb) = (parts(a), parts(b));
    if pa.len() != pb.len() {
        return false;
    }
    // Match the parts one to one (a part may be equal to several; the first free one is as
    // good as any, since equality of parts is an equivalence).
    for x in pa {
        match pb.iter().position(|y| same_part(x, y)) {
            Some(i) => {
                pb.swap_remove(i);
            }
            None => return false,
        }
    }
    true
}

fn same_part(a: &AnyGame, b: &AnyGame) -> bool {
    match (a, b) {
        (AnyGame::Ordinal(a1, a2), AnyGame::Ordinal(b1, b2)) => {
            same_game(a1, b1) && same_game(a2, b2)
        }
        (AnyGame::Removing(x), AnyGame::Removing(y)) => {
            x.rule() == y.rule()
                && x.convexity().closure_kind().name() == y.convexity().closure_kind().name()
                && isomorphic_with_start(x, y)
        }
        (AnyGame::Closure(x), AnyGame::Closure(y)) => {
            x.goal() == y.goal() && (x.name() == y.name() || same_set_system(x, y))
        }
        _ => a.to_string() == b.to_string(),
    }
}

/// Largest ground set plus 𝓜 whose incidence graphs are compared.
const SET_SYSTEM_SIZE: usize = 640;

/// Node pairs VF2 may try before a comparison gives up (as "not the same"): a search on two
/// structures that agree on every invariant below but are not isomorphic could otherwise take
/// exponential time.
const MATCH_BUDGET: u64 = 2_000_000;

/// Whether two closure games' maximal legal sets are isomorphic set systems (see the module
/// header), as incidence graphs: an element node per element, a member node per member of 𝓜.
fn same_set_system(x: &super::closure::ClosureGame, y: &super::closure::ClosureGame) -> bool {
    if x.size() != y.size() {
        return false;
    }
    let (Some(mx), Some(my)) = (x.facets(), y.facets()) else {
        return false;
    };
    if mx.len() != my.len() || x.size() + mx.len() > SET_SYSTEM_SIZE {
        return false;
    }
    // Invariants first: the members' sizes and the elements' degrees, as sorted lists.
    let profile = |m: &[super::closure::Set], n: usize| {
        let mut sizes: Vec<usize> = m.iter().map(|s| s.count_ones(..)).collect();
        sizes.sort_unstable();
        let mut degrees: Vec<usize> = (0..n)
            .map(|e| m.iter().filter(|s| s.contains(e)).count())
            .collect();
        degrees.sort_unstable();
        (sizes, degrees)
    };
    if profile(mx, x.size()) != profile(my, y.size()) {
        return false;
    }
    let incidence = |m: &[super::closure::Set], n: usize| {
        let mut g = petgraph::graph::UnGraph::<bool, ()>::default();
        let elements: Vec<_> = (0..n).map(|_| g.add_node(false)).collect();
        for s in m {
            let member = g.add_node(true);
            for e in s.ones() {
                g.add_edge(elements[e], member, ());
            }
        }
        g
    };
    isomorphic_within_budget(&incidence(mx, x.size()), &incidence(my, y.size()))
}

/// VF2 with node colours, giving up (false) past [`MATCH_BUDGET`] node comparisons.
fn isomorphic_within_budget(
    a: &petgraph::graph::UnGraph<bool, ()>,
    b: &petgraph::graph::UnGraph<bool, ()>,
) -> bool {
    let steps = std::cell::Cell::new(0u64);
    let found = petgraph::algo::is_isomorphic_matching(
        a,
        b,
        |p, q| {
            steps.set(steps.get() + 1);
            steps.get() <= MATCH_BUDGET && p == q
        },
        |_, _| true,
    );
    found && steps.get() <= MATCH_BUDGET
}

/// Graph sizes past which isomorphism is not searched (VF2 can be slow on large regular
/// graphs); the names are compared instead.
const ISOMORPHISM_VERTICES: usize = 24;

fn isomorphic_with_start(
    x: &super::removing::RemovingGame,
    y: &super::removing::RemovingGame,
) -> bool {
    let (gx, gy) = (x.graph(), y.graph());
    if gx.n() != gy.n()
        || gx.edge_count() != gy.edge_count()
        || x.start_set().count_ones() != y.start_set().count_ones()
    {
        return false;
    }
    if x.name() == y.name() {
        return true;
    }
    if gx.n() > ISOMORPHISM_VERTICES {
        return false;
    }
    let marked = |g: &crate::graph::Graph, start: u64| {
        let mut pg = petgraph::graph::UnGraph::<bool, ()>::with_capacity(g.n(), g.edge_count());
        let nodes: Vec<_> = (0..g.n())
            .map(|v| pg.add_node(start >> v & 1 == 1))
            .collect();
        for (a, b) in g.edges() {
            pg.add_edge(nodes[a], nodes[b], ());
        }
        pg
    };
    isomorphic_within_budget(&marked(gx, x.start_set()), &marked(gy, y.start_set()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::{parse_game, ParseOptions};

    fn same(a: &str, b: &str) -> bool {
        let p = |t: &str| parse_game(t, ParseOptions::default()).unwrap();
        same_game(&p(a), &p(b))
    }

    #[test]
    fn spellings_of_one_game_are_the_same_game() {
        for (a, b) in [
            ("TER(C_5)", "TER(C_5) + *0"),
            ("TER(C_5)", "*0 + TER(C_5)"),
            ("TER(C_5)", "*0 : TER(C_5)"),
            ("TER(C_5)", "TER(C_5) : *0"),
            ("TER(C_5)", "(TER(C_5) + *0) : (*0 + *0)"),
            ("DNT(P_4) + *1", "*1 + DNT(P_4)"),
            ("DNT(P_4) + *1", "(*1 + *0) + DNT(P_4)"),
            // C_4 and K_{2,2} are one graph; P_5 started next to either end.
            ("TER(C_4)", "TER(K_{2,2})"),
            ("DNT_{v2}(P_5)", "DNT_{v4}(P_5)"),
            // One group by other presentations: Sym(3) as the dihedral group of the triangle
            // and by generating permutations; Z_6 as Z_2 × Z_3; Sym(3) × Z_3 on 6 points.
            ("DNG(Sym(3))", "DNG(Dih(3))"),
            ("GEN(Sym(3))", "GEN(Perm((1,2),(1,2,3)))"),
            ("GEN(Cyc(6))", "GEN(Cyc(2) x Cyc(3))"),
            ("DNG(Sym(3) x Cyc(3))", "DNG(Perm((1,2),(1,2,3),(4,5,6)))"),
        ] {
            assert!(same(a, b), "{a} and {b}");
        }
    }

    #[test]
    fn different_games_are_not_the_same() {
        for (a, b) in [
            // Wrong variants of the rules above: another summand, another order of an
            // ordinal sum, another start, rule or closure, a non-isomorphic graph.
            ("TER(C_5)", "TER(C_5) + *1"),
            ("*1 : TER(C_5)", "TER(C_5) : *1"),
            ("DNT_{v2}(P_5)", "DNT_{v3}(P_5)"),
            ("TER(C_5)", "DNT(C_5)"),
            ("TER(C_6)", "TER(K_{3,3})"),
            ("TER(P_4)", "TER(K_{1,3})"),
            ("TER(C_5) + TER(C_5)", "TER(C_5)"),
            // Groups of one order with other maximal subgroups, and one group under the other
            // goal: Dic(3) and Dih(6) (order 12), Z_4 and Z_2 × Z_2, GEN and DNG of Sym(3).
            ("DNG(Dic(3))", "DNG(Dih(6))"),
            ("GEN(Cyc(4))", "GEN(Cyc(2) x Cyc(2))"),
            ("GEN(Sym(3))", "DNG(Sym(3))"),
        ] {
            assert!(!same(a, b), "{a} and {b}");
        }
    }
}
