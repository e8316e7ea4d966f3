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
