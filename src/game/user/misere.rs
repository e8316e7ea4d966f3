//! Misère play of a move game defined in a spec (`play: misere`, docs/user-games.md, "Misère
//! play"): the player who cannot move wins. The game is solved as the normal-play game G' in
//! which every terminal position of G gets exactly one option, a fresh terminal node ⊥; a
//! player facing a terminal position of G then moves to ⊥ and wins, so the normal-play
//! outcome of G' at p is the misère outcome of G at p (nim-value 0 ⇔ P). Only that outcome
//! means anything: the nim-values of G' are not misère values and do not add, which is why
//! [`crate::expr`] lets only outcome claims name such a game, and never in a sum.
//!
//! ⊥ is [`Node::End`], a node of its own beside the positions [`Node::At`], so it cannot
//! equal a position whatever the rule returns; it is [`FamilyGame::hidden`], so no claim asks
//! about it and nothing labels it as a position. Certificates write it as the string `"⊥"`,
//! which no position (a mask or an array of integers) serialises to.

use super::moves::{UserGame, UserPos};
use crate::game::family::FamilyGame;
use crate::game::features::{FeatureDoc, Features};
use crate::game::Game;
use serde::{Serialize, Serializer};

/// A node of the transformed gamegraph: a position of the game, or ⊥.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Node<P> {
    At(P),
    End,
}

impl<P: Serialize> Serialize for Node<P> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Node::At(p) => p.serialize(s),
            Node::End => s.serialize_str(END),
        }
    }
}

/// ⊥ as certificates write it.
pub const END: &str = "⊥";

/// Why only outcome claims may name a game played misère, as refusals say it.
pub const OUTCOMES_ONLY: &str = "nim-values do not add under misère play (the values solved are its normal-play transform's, which say P or N and nothing more)";

/// A user game played misère: the normal-play transform of the game it wraps.
pub struct Misere<P: UserPos>(pub UserGame<P>);

impl<P: UserPos> std::fmt::Debug for Misere<P>
where
    UserGame<P>: std::fmt::Debug,
{
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "MISERE[{:?}]", self.0)
    }
}

impl<P: UserPos> Game for Misere<P>
where
    UserGame<P>: Game<Pos = P>,
{
    type Pos = Node<P>;
    fn start(&self) -> Node<P> {
        Node::At(self.0.start())
    }
    fn options(&self, p: &Node<P>) -> Vec<Node<P>> {
        match p {
            Node::End => Vec::new(),
            Node::At(q) => {
                let o = self.0.options(q);
                if o.is_empty() {
                    vec![Node::End]
                } else {
                    o.into_iter().map(Node::At).collect()
                }
            }
        }
    }
    fn canonical(&self, p: &Node<P>) -> Node<P> {
        // An automorphism maps terminal positions to terminal positions, so it commutes
        // with the transform (⊥ fixed): `symmetric: true` stays sound.
        match p {
            Node::End => Node::End,
            Node::At(q) => Node::At(self.0.canonical(q)),
        }
    }
    // No `components`: the sum law fails under misère play, and a misère spec may not
    // declare it (`crate::kinds::game`).
}

impl<P: UserPos> FamilyGame for Misere<P>
where
    UserGame<P>: FamilyGame + Game<Pos = P>,
{
    fn name(&self) -> String {
        self.0.name()
    }
    fn label(&self, p: &Node<P>) -> String {
        match p {
            Node::At(q) => self.0.label(q),
            // Never asked for: ⊥ is hidden. Said as what it is if it ever is.
            Node::End => "⊥ (the misère transform's end, no position of the game)".to_string(),
        }
    }
    fn features(&self, p: &Node<P>) -> Features {
        match p {
            Node::At(q) => self.0.features(q),
            Node::End => Features::new(),
        }
    }
    fn feature_docs(&self) -> &'static [FeatureDoc] {
        self.0.feature_docs()
    }
    fn distinct_bound(&self) -> Option<f64> {
        self.0.distinct_bound().map(|b| b + 1.0)
    }
    fn reachable_bound(&self) -> Option<f64> {
        self.0.reachable_bound().map(|b| b + 1.0)
    }
    fn certificate(&self) -> Result<serde_json::Value, String> {
        // The inner game's certificate records `"play": "misere"` from the spec.
        self.0.certificate()
    }
    fn misere(&self) -> Option<String> {
        let def = self.0.def();
        Some(format!(
            "{} is played misère (`play: misere` in {})",
            def.name, def.file
        ))
    }
    fn hidden(&self, p: &Node<P>) -> bool {
        *p == Node::End
    }
    fn declared_laws(&self) -> Option<String> {
        self.0.declared_laws()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::user::{compile, register_game, GameDef, PositionKind};

    /// Take 1 or 2 from one heap, played misère, registered as `MSUB12`.
    fn register() {
        let def = GameDef {
            name: "MSUB12".into(),
            title: "take 1 or 2, misère".into(),
            file: "msub12.yaml".into(),
            sha256: "test-msub12".into(),
            position: PositionKind::Integers,
            start: None,
            options: compile(
                "let out = []; for k in [1, 2] { if p[0] >= k { out.push([p[0] - k]); } } out",
            )
            .unwrap(),
            features: Vec::new(),
            components: false,
            symmetric: false,
            misere: true,
        };
        register_game(def).unwrap();
    }

    fn outcome(n: u32) -> &'static str {
        let g = crate::expr::parse_game_for_outcomes(
            &format!("MSUB12({n})"),
            crate::expr::ParseOptions::default(),
        )
        .unwrap();
        match crate::solve::Solver::new(&g).nim_of_start() {
            0 => "P",
            _ => "N",
        }
    }

    #[test]
    fn misere_subtraction_1_2_has_p_positions_1_mod_3() {
        register();
        // No move at 0 wins; 1 must move to 0 and lose; from there P ⇔ n ≡ 1 (mod 3).
        for n in 0..=20 {
            let want = if n % 3 == 1 { "P" } else { "N" };
            assert_eq!(outcome(n), want, "n = {n}");
        }
        // The wrong variant, normal play's rule (P ⇔ n ≡ 0 mod 3), fails at once.
        assert_ne!(outcome(0), "P");
    }

    #[test]
    fn bottom_is_a_node_of_its_own_hidden_and_written_as_itself() {
        register();
        let g = crate::expr::parse_game_for_outcomes("MSUB12(1)", Default::default()).unwrap();
        assert!(g.misere().unwrap().contains("msub12.yaml"));
        let start = g.start();
        let [to0] = &g.options(&start)[..] else {
            panic!("one option")
        };
        let [end] = &g.options(to0)[..] else {
            panic!("a terminal position's one option is ⊥")
        };
        assert!(g.hidden(end) && !g.hidden(to0) && !g.hidden(&start));
        assert!(g.options(end).is_empty());
        assert_eq!(g.label(to0), "(0)");
        assert_eq!(serde_json::to_value(Node::<Vec<i64>>::End).unwrap(), "⊥");
        assert_eq!(
            serde_json::to_value(Node::At(vec![0i64])).unwrap(),
            serde_json::json!([0])
        );
        // Refused wherever nim-values would be read.
        assert!(crate::expr::parse_game("MSUB12(1)", Default::default()).is_err());
    }
}
