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
//! - anything else is the same game when it prints the same.
//!
//! "Not the same" is not a proof of different values: a formula may still read an equal game
//! this does not recognise (two groups given by different generators, say), which the rule
//! then misses, never the other way round.

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
        _ => a.to_string() == b.to_string(),
    }
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
    petgraph::algo::is_isomorphic_matching(
        &marked(gx, x.start_set()),
        &marked(gy, y.start_set()),
        |a, b| a == b,
        |_, _| true,
    )
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
        ] {
            assert!(!same(a, b), "{a} and {b}");
        }
    }
}
