//! `AnyGame`: the games a user can name (CLI and specs), composed with disjoint and ordinal
//! sums, behind the one [`Game`] trait. Its variants are the families with solvers of their
//! own in the dispatcher; any other family registers in [`super::family::FAMILIES`] and comes
//! in through [`AnyGame::Family`] without a new variant.

use super::closure::ClosureGame;
use super::dawson::Dawson;
use super::family::{DynPos, Registered};
use super::multiset::MultisetGame;
use super::nimber::Nimber;
use super::octal::OctalGame;
use super::removing::RemovingGame;
use super::spl::{Spl, SplPos};
use super::ueg::{Ueg, UegPos};
use super::{Features, Game, Value};
use std::fmt;

/// A game named by an expression such as `TER(C_9)`, `*2 : DNT(P_4)` or `DC(3) + *1`.
#[derive(Clone, Debug)]
pub enum AnyGame {
    Removing(RemovingGame),
    Nimber(u32),
    /// An octal game on a multiset of heaps, e.g. `0.137(17)`.
    Octal(OctalGame),
    /// Dawson's Chess as a row of pins, e.g. `DC(17)`.
    Dawson(Dawson),
    /// The multiset terminate game, e.g. `TER{2,2,3}`.
    Multiset(MultisetGame),
    /// The splitting game, e.g. `SPL(2,4)` or `SPL(3,[3])`.
    Spl(Spl),
    /// Undirected edge geography, e.g. `UEG(SP_{6,2}, (1,1))`.
    Ueg(Ueg),
    /// A closure game: GEN, DNG, TER or DNT on any closure operator, e.g. `GEN(Sym(4))`.
    Closure(ClosureGame),
    /// A game of a registered family ([`super::family::FAMILIES`]), e.g. `NK(P_7)`.
    Family(Registered),
    Sum(Vec<AnyGame>),
    Ordinal(Box<AnyGame>, Box<AnyGame>),
}

/// A position of an [`AnyGame`]; its shape mirrors the game's.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AnyPos {
    Set(u64),
    Nim(u32),
    Heaps(Vec<u32>),
    Pins(u64),
    Multiset(Vec<u32>),
    Spl(SplPos),
    Ueg(UegPos),
    Elements(crate::game::closure::Set),
    Family(DynPos),
    Sum(Vec<AnyPos>),
    Ordinal(Box<AnyPos>, Box<AnyPos>),
}

fn mismatch(game: &AnyGame, pos: &AnyPos) -> ! {
    // Positions are only ever produced by the game they belong to.
    unreachable!("position {pos:?} does not belong to game {game}")
}

impl Game for AnyGame {
    type Pos = AnyPos;

    fn start(&self) -> AnyPos {
        match self {
            AnyGame::Removing(g) => AnyPos::Set(g.start()),
            AnyGame::Nimber(k) => AnyPos::Nim(*k),
            AnyGame::Octal(g) => AnyPos::Heaps(g.start()),
            AnyGame::Dawson(g) => AnyPos::Pins(g.start()),
            AnyGame::Multiset(g) => AnyPos::Multiset(g.start()),
            AnyGame::Spl(g) => AnyPos::Spl(g.start()),
            AnyGame::Ueg(g) => AnyPos::Ueg(g.start()),
            AnyGame::Closure(g) => AnyPos::Elements(g.start()),
            AnyGame::Family(g) => AnyPos::Family(g.start()),
            AnyGame::Sum(parts) => AnyPos::Sum(parts.iter().map(Game::start).collect()),
            AnyGame::Ordinal(g, h) => AnyPos::Ordinal(Box::new(g.start()), Box::new(h.start())),
        }
    }

    fn options(&self, p: &AnyPos) -> Vec<AnyPos> {
        match (self, p) {
            (AnyGame::Removing(g), AnyPos::Set(s)) => {
                g.options(s).into_iter().map(AnyPos::Set).collect()
            }
            (AnyGame::Nimber(_), AnyPos::Nim(k)) => {
                Nimber(*k).options(k).into_iter().map(AnyPos::Nim).collect()
            }
            (AnyGame::Octal(g), AnyPos::Heaps(h)) => {
                g.options(h).into_iter().map(AnyPos::Heaps).collect()
            }
            (AnyGame::Dawson(g), AnyPos::Pins(s)) => {
                g.options(s).into_iter().map(AnyPos::Pins).collect()
            }
            (AnyGame::Multiset(g), AnyPos::Multiset(u)) => {
                g.options(u).into_iter().map(AnyPos::Multiset).collect()
            }
            (AnyGame::Spl(g), AnyPos::Spl(q)) => {
                g.options(q).into_iter().map(AnyPos::Spl).collect()
            }
            (AnyGame::Ueg(g), AnyPos::Ueg(q)) => {
                g.options(q).into_iter().map(AnyPos::Ueg).collect()
            }
            (AnyGame::Closure(g), AnyPos::Elements(q)) => {
                g.options(q).into_iter().map(AnyPos::Elements).collect()
            }
            (AnyGame::Family(g), AnyPos::Family(q)) => {
                g.options(q).into_iter().map(AnyPos::Family).collect()
            }
            (AnyGame::Sum(parts), AnyPos::Sum(ps)) => {
                let mut out = Vec::new();
                for (i, (g, q)) in parts.iter().zip(ps).enumerate() {
                    for o in g.options(q) {
                        let mut next = ps.clone();
                        next[i] = o;
                        out.push(AnyPos::Sum(next));
                    }
                }
                out
            }
            (AnyGame::Ordinal(g, h), AnyPos::Ordinal(a, b)) => {
                let mut out: Vec<AnyPos> = g
                    .options(a)
                    .into_iter()
                    .map(|x| AnyPos::Ordinal(Box::new(x), b.clone()))
                    .collect();
                if **a == g.start() {
                    out.extend(
                        h.options(b)
                            .into_iter()
                            .map(|y| AnyPos::Ordinal(a.clone(), Box::new(y))),
                    );
                }
                out
            }
            _ => mismatch(self, p),
        }
    }

    fn canonical(&self, p: &AnyPos) -> AnyPos {
        match (self, p) {
            (AnyGame::Removing(g), AnyPos::Set(s)) => AnyPos::Set(g.canonical(s)),
            (AnyGame::Dawson(g), AnyPos::Pins(s)) => AnyPos::Pins(g.canonical(s)),
            (AnyGame::Multiset(g), AnyPos::Multiset(u)) => AnyPos::Multiset(g.canonical(u)),
            (AnyGame::Ueg(g), AnyPos::Ueg(q)) => AnyPos::Ueg(g.canonical(q)),
            (AnyGame::Family(g), AnyPos::Family(q)) => AnyPos::Family(g.canonical(q)),
            (AnyGame::Sum(parts), AnyPos::Sum(ps)) => {
                AnyPos::Sum(parts.iter().zip(ps).map(|(g, q)| g.canonical(q)).collect())
            }
            // Ordinal sums compare the left component with its start, so it stays literal.
            _ => p.clone(),
        }
    }

    fn components(&self, p: &AnyPos) -> Vec<AnyPos> {
        match (self, p) {
            (AnyGame::Family(g), AnyPos::Family(q)) => {
                g.components(q).into_iter().map(AnyPos::Family).collect()
            }
            _ => Vec::new(),
        }
    }
}

impl AnyGame {
    /// `Some(why)` when the game is, or has a part, played misère
    /// ([`super::family::FamilyGame::misere`]).
    pub fn misere(&self) -> Option<String> {
        match self {
            AnyGame::Family(g) => g.misere(),
            AnyGame::Sum(parts) => parts.iter().find_map(AnyGame::misere),
            AnyGame::Ordinal(g, h) => g.misere().or_else(|| h.misere()),
            _ => None,
        }
    }

    /// The laws the games of a spec declare that solving this game uses, in words
    /// ([`super::family::FamilyGame::declared_laws`]); `None` when it uses none.
    pub fn declared_laws(&self) -> Option<String> {
        let mut all: Vec<String> = Vec::new();
        let mut add = |l: Option<String>| {
            if let Some(l) = l.filter(|l| !all.contains(l)) {
                all.push(l);
            }
        };
        match self {
            AnyGame::Family(g) => add(g.declared_laws()),
            AnyGame::Sum(parts) => parts.iter().for_each(|p| add(p.declared_laws())),
            AnyGame::Ordinal(g, h) => {
                add(g.declared_laws());
                add(h.declared_laws());
            }
            _ => {}
        }
        (!all.is_empty()).then(|| all.join(" and "))
    }

    /// Whether `p` is a node of the solved gamegraph that is no position of the game (the
    /// misère transform's ⊥, [`super::family::FamilyGame::hidden`]): never shown or asked about.
    pub fn hidden(&self, p: &AnyPos) -> bool {
        match (self, p) {
            (AnyGame::Family(g), AnyPos::Family(q)) => g.hidden(q),
            _ => false,
        }
    }
}

impl AnyGame {
    /// Why the nim-value of this game cannot be computed within budget, if so: a UEG component
    /// that is neither a P-position by GF(2) nor small enough for exhaustive search
    /// ([`Ueg::exhaustive_guard`]).
    pub fn refusal(&self) -> Option<String> {
        match self {
            AnyGame::Ueg(g) => match g.solve_fast() {
                Some((true, _)) => None,
                _ => g
                    .exhaustive_guard(super::ueg::DEFAULT_MAX_POSITIONS)
                    .err()
                    .map(|e| e.to_string()),
            },
            AnyGame::Sum(parts) => parts.iter().find_map(AnyGame::refusal),
            AnyGame::Ordinal(g, h) => g.refusal().or_else(|| h.refusal()),
            _ => None,
        }
    }

    /// [`AnyGame::refusal`] for a caller that needs more than the start's value: its options'
    /// values (an ordinal sum's components), or its positions (a claim over reachable
    /// positions). The GF(2) verdict that lets a P-position of edge geography past the
    /// exhaustive encoding pass gives its value, 0, and nothing else: encoded, it has no moves.
    pub fn positions_refusal(&self) -> Option<String> {
        match self {
            AnyGame::Ueg(g) => g
                .exhaustive_guard(super::ueg::DEFAULT_MAX_POSITIONS)
                .err()
                .map(|e| e.to_string()),
            AnyGame::Sum(parts) => parts.iter().find_map(AnyGame::positions_refusal),
            AnyGame::Ordinal(g, h) => g.positions_refusal().or_else(|| h.positions_refusal()),
            _ => None,
        }
    }

    /// Reads a position of this game written as [`AnyGame::label`] writes it: a vertex set
    /// `{v1, c}`, a nimber `*k`, a pin row `|.||`, a multiset `{0,1,2}`, an SPL position
    /// `(2,[3,1])` or `(2,Λ^4)`, components of a sum joined by `+`, an ordinal sum `(a, b)`.
    /// Used by spec-defined maps (docs/design.md §4) to name positions of a target game.
    pub fn parse_pos(&self, text: &str) -> Result<AnyPos, String> {
        let t = text.trim();
        match self {
            AnyGame::Removing(g) => g
                .graph()
                .parse_set(t)
                .map(AnyPos::Set)
                .map_err(|e| e.to_string()),
            AnyGame::Nimber(k) => {
                let v: u32 = t
                    .strip_prefix('*')
                    .unwrap_or(t)
                    .trim()
                    .parse()
                    .map_err(|_| format!("`{t}` is not a nimber such as *1"))?;
                if v > *k {
                    return Err(format!("*{v} is not a position of *{k}"));
                }
                Ok(AnyPos::Nim(v))
            }
            AnyGame::Dawson(g) => g.parse_row(t).map(AnyPos::Pins).map_err(|e| e.to_string()),
            AnyGame::Multiset(_) => MultisetGame::parse_multiset(t).map(AnyPos::Multiset),
            AnyGame::Spl(_) => SplPos::parse(t).map(AnyPos::Spl),
            AnyGame::Closure(g) => g.parse_pos(t).map(AnyPos::Elements),
            AnyGame::Family(g) => g.parse_pos(t).map(AnyPos::Family),
            AnyGame::Octal(_) | AnyGame::Ueg(_) => Err(format!(
                "positions of {self} cannot be written as text (supported: graph games, nimbers, DC, TER{{..}}, SPL and their sums)"
            )),
            AnyGame::Sum(parts) => {
                let pieces = crate::graph::split_top_level(t, '+');
                if pieces.len() != parts.len() {
                    return Err(format!(
                        "`{t}` has {} components joined by `+`, but {self} has {}",
                        pieces.len(),
                        parts.len()
                    ));
                }
                parts
                    .iter()
                    .zip(pieces)
                    .map(|(g, x)| g.parse_pos(x))
                    .collect::<Result<Vec<_>, _>>()
                    .map(AnyPos::Sum)
            }
            AnyGame::Ordinal(g, h) => {
                let inner = t
                    .strip_prefix('(')
                    .and_then(|r| r.strip_suffix(')'))
                    .ok_or_else(|| format!("an ordinal-sum position looks like (a, b), not `{t}`"))?;
                let pieces = crate::graph::split_top_level(inner, ',');
                let [a, b] = pieces.as_slice() else {
                    return Err(format!("an ordinal-sum position looks like (a, b), not `{t}`"));
                };
                Ok(AnyPos::Ordinal(
                    Box::new(g.parse_pos(a)?),
                    Box::new(h.parse_pos(b)?),
                ))
            }
        }
    }

    /// Human-readable label of a position, in the paper's notation where there is one.
    pub fn label(&self, p: &AnyPos) -> String {
        match (self, p) {
            (AnyGame::Removing(g), AnyPos::Set(s)) => g.label(*s),
            (AnyGame::Nimber(_), AnyPos::Nim(k)) => format!("*{k}"),
            (AnyGame::Octal(g), AnyPos::Heaps(h)) => g.label(h),
            (AnyGame::Dawson(g), AnyPos::Pins(s)) => g.label(*s),
            (AnyGame::Multiset(g), AnyPos::Multiset(u)) => g.label(u),
            (AnyGame::Spl(g), AnyPos::Spl(q)) => g.label(q),
            (AnyGame::Ueg(g), AnyPos::Ueg(q)) => g.label(q),
            (AnyGame::Closure(g), AnyPos::Elements(q)) => g.label(q),
            (AnyGame::Family(g), AnyPos::Family(q)) => g.label(q),
            (AnyGame::Sum(parts), AnyPos::Sum(ps)) => parts
                .iter()
                .zip(ps)
                .map(|(g, q)| g.label(q))
                .collect::<Vec<_>>()
                .join(" + "),
            (AnyGame::Ordinal(g, h), AnyPos::Ordinal(a, b)) => {
                format!("({}, {})", g.label(a), h.label(b))
            }
            _ => mismatch(self, p),
        }
    }

    /// The documented meaning of every feature this game's positions may carry, by name
    /// (components of sums prefixed `g0_`, `g1_`, …; ordinal sums `base_`, `top_`), as
    /// [`AnyGame::features`] names them: `grundy features` and the guide's reference.
    pub fn feature_meanings(&self) -> Vec<(String, &'static str)> {
        use super::features as doc;
        let table = |t: &[doc::FeatureDoc]| {
            t.iter()
                .map(|d| (d.name.to_string(), d.meaning))
                .collect::<Vec<_>>()
        };
        let prefixed = |prefix: String, g: &AnyGame| {
            g.feature_meanings()
                .into_iter()
                .map(|(k, m)| (format!("{prefix}{k}"), m))
                .collect::<Vec<_>>()
        };
        match self {
            AnyGame::Removing(_) => table(doc::REMOVING),
            AnyGame::Nimber(_) => table(doc::NIMBER),
            AnyGame::Octal(_) => table(doc::OCTAL),
            AnyGame::Dawson(_) => table(doc::DAWSON),
            AnyGame::Multiset(_) => table(doc::MULTISET),
            AnyGame::Spl(_) => table(doc::SPL),
            AnyGame::Ueg(_) => table(doc::UEG),
            AnyGame::Closure(g) => {
                let mut v = table(doc::CLOSURE);
                v.extend(table(g.operator().feature_docs()));
                v
            }
            AnyGame::Family(g) => table(g.feature_docs()),
            AnyGame::Sum(parts) => parts
                .iter()
                .enumerate()
                .flat_map(|(i, g)| prefixed(format!("g{i}_"), g))
                .collect(),
            AnyGame::Ordinal(g, h) => {
                let mut v = prefixed("base_".into(), g);
                v.extend(prefixed("top_".into(), h));
                v
            }
        }
    }

    /// Named features of a position. Components of sums are prefixed `g0_`, `g1_`, …; the
    /// features of a lone game are unprefixed.
    pub fn features(&self, p: &AnyPos) -> Features {
        self.features_for(p, true)
    }

    /// [`AnyGame::features`], without the features that need the families 𝒢, 𝒩* of a graph or
    /// the whole gamegraph unless `families` ([`crate::game::features::COSTLY`]).
    pub fn features_for(&self, p: &AnyPos, families: bool) -> Features {
        match (self, p) {
            (AnyGame::Removing(g), AnyPos::Set(s)) => g.features_for(*s, families),
            (AnyGame::Nimber(_), AnyPos::Nim(k)) => {
                Features::from([("heap".to_string(), Value::Int(*k as i64))])
            }
            (AnyGame::Octal(g), AnyPos::Heaps(h)) => g.features(h),
            (AnyGame::Dawson(g), AnyPos::Pins(s)) => g.features(*s),
            (AnyGame::Multiset(g), AnyPos::Multiset(u)) => g.features(u),
            (AnyGame::Spl(g), AnyPos::Spl(q)) => g.features(q),
            (AnyGame::Ueg(g), AnyPos::Ueg(q)) => g.features_for(q, families),
            (AnyGame::Closure(g), AnyPos::Elements(q)) => g.features_for(q, families),
            (AnyGame::Family(g), AnyPos::Family(q)) => g.features(q),
            (AnyGame::Sum(parts), AnyPos::Sum(ps)) => {
                let mut f = Features::new();
                for (i, (g, q)) in parts.iter().zip(ps).enumerate() {
                    for (k, v) in g.features_for(q, families) {
                        f.insert(format!("g{i}_{k}"), v);
                    }
                }
                f
            }
            (AnyGame::Ordinal(g, h), AnyPos::Ordinal(a, b)) => {
                let mut f = Features::new();
                for (k, v) in g.features_for(a, families) {
                    f.insert(format!("base_{k}"), v);
                }
                for (k, v) in h.features_for(b, families) {
                    f.insert(format!("top_{k}"), v);
                }
                f
            }
            _ => mismatch(self, p),
        }
    }
}

impl fmt::Display for AnyGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnyGame::Removing(g) => f.write_str(&g.name()),
            AnyGame::Nimber(k) => write!(f, "*{k}"),
            AnyGame::Octal(g) => f.write_str(&g.name()),
            AnyGame::Dawson(g) => f.write_str(&g.name()),
            AnyGame::Multiset(g) => f.write_str(&g.name()),
            AnyGame::Spl(g) => f.write_str(&g.name()),
            AnyGame::Ueg(g) => f.write_str(&g.name()),
            AnyGame::Closure(g) => f.write_str(&g.name()),
            AnyGame::Family(g) => f.write_str(&g.name()),
            AnyGame::Sum(parts) => {
                let s: Vec<String> = parts
                    .iter()
                    .map(|p| match p {
                        AnyGame::Ordinal(..) => format!("({p})"),
                        _ => p.to_string(),
                    })
                    .collect();
                f.write_str(&s.join(" + "))
            }
            AnyGame::Ordinal(g, h) => {
                let wrap = |x: &AnyGame| match x {
                    AnyGame::Sum(_) | AnyGame::Ordinal(..) => format!("({x})"),
                    _ => x.to_string(),
                };
                write!(f, "{} : {}", wrap(g), wrap(h))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::expr::{parse_game, ParseOptions};
    use crate::game::Game;

    #[test]
    fn positions_parse_back_from_their_labels() {
        for g in [
            "DNT_{v1}(W_7) + *1",
            "*1 : DNT_{v1}(W_5)",
            "TER{1,2,2}",
            "SPL(2,4)",
            "DC(5) + *2",
            "TER(K_{1,2,2})",
        ] {
            let game = parse_game(g, ParseOptions::default()).unwrap();
            let mut seen = 0;
            let mut stack = vec![game.start()];
            while let Some(p) = stack.pop() {
                assert_eq!(
                    game.parse_pos(&game.label(&p)).unwrap(),
                    p,
                    "{g}: {}",
                    game.label(&p)
                );
                seen += 1;
                if seen < 200 {
                    stack.extend(game.options(&p));
                }
            }
        }
        let dc = parse_game("DC(3) + *1", ParseOptions::default()).unwrap();
        assert!(dc
            .parse_pos("|| + *1")
            .unwrap_err()
            .contains("has 2 pins, expected 3"));
        assert!(dc.parse_pos("|||").unwrap_err().contains("1 components"));
        assert!(dc
            .parse_pos("||| + *2")
            .unwrap_err()
            .contains("not a position of *1"));
    }
}
