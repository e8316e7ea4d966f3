//! The games, re-implemented from their definitions and nothing else: one file per game
//! family (its `//!` header cites the definition it implements, its comments the rules they
//! belong to), each registered by one line in [`GAMES`]. Nothing outside a game's file names
//! that game: the certificate reader, the name reader, the checks, the claim derivation, the
//! features and `nim("…")` ask the registry.
//!
//! A game family answers three questions, one trait each:
//! - [`Family`]: how certificates and specs name its games (the key of `{"TER": …}` and the
//!   reading of what is under it; the reading of a spec's name such as `TER(W_6)`);
//! - [`Description`]: what one game is as written (its sameness with another, its start in the
//!   certificate's encoding, its shape), and its rules, built after checking the description;
//! - [`Moves`]: how it is played (the start, positions read in the certificate's encoding,
//!   the options, and optionally components, features and its part in a diagram start).
//!
//! Positions ([`Pos`]) are a few data shapes every game maps onto (a set as a bitmask, a
//! number, a list of numbers, a token with an edge set, a tuple); a position is read from the
//! certificate's JSON by the game it belongs to, so a malformed position is an error, never a
//! guess. Naive on purpose: options listed literally.

mod dawson;
mod graph;
mod multiset;
mod nim;
mod node_kayles;
mod ordinal;
mod removing;
mod spl;
mod sum;
mod ueg;
mod user;

use crate::formula::Env;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer};
use serde_json::Value;
use std::any::Any;
use std::collections::HashSet;
use std::fmt;
use std::sync::Arc;

pub use graph::{least_image, Graph};

/// Every game family the verifier knows, one line each. Spec names are tried in this order:
/// the sums first, since they split a name at its top-level ` : ` and ` + `.
pub static GAMES: &[&dyn Family] = &[
    &ordinal::Ordinal,
    &sum::Sum,
    &removing::TER,
    &removing::DNT,
    &nim::Nim,
    &dawson::Dawson,
    &multiset::Multiset,
    &spl::Spl,
    &ueg::Ueg,
    &node_kayles::NodeKayles,
    &user::User,
];

/// A game family: how certificates and specs name its games.
pub trait Family: Sync {
    /// The key a certificate writes its games under (`{"TER": …}`), unique in [`GAMES`].
    fn key(&self) -> &'static str;
    /// Reads a game from the value under the key.
    fn read(&self, v: Value) -> Result<Game, String>;
    /// Reads a game from its name in a spec (`TER(W_6)`); `None` when the name is not of this
    /// family.
    fn parse(&self, name: &str) -> Option<Result<Game, String>>;
    /// The nim-value of a named game by a rule of the family's own, for games past what the
    /// generic recursion ([`crate::solve`]) holds; `None`: the generic recursion.
    fn nim_of_name(&self, _name: &str) -> Option<Result<u32, String>> {
        None
    }
    /// A small game of the family worked by hand, for the registry's test.
    #[cfg(test)]
    fn example(&self) -> Example;
}

/// One game as a certificate or a spec's name describes it, before its rules are checked.
pub trait Description: fmt::Debug + Send + Sync {
    /// The key of its family.
    fn key(&self) -> &'static str;
    /// The rules, once the description is checked (a graph of the certificate, a start in it).
    fn rules(&self) -> Result<Rules, String>;
    /// The same game as `other`, graph for graph and start for start (`other` of another
    /// family is another game: compare [`Description::as_any`] downcasts).
    fn same(&self, other: &Game) -> bool;
    /// Itself, for [`Description::same`].
    fn as_any(&self) -> &dyn Any;
    /// The start position in the certificate's encoding (diagrams list their starts so);
    /// `None` when the verifier does not read this game's starts from a spec.
    fn encode_start(&self) -> Option<Value> {
        None
    }
    /// The kind of game without sizes: starts of one shape are positions of one game group.
    fn shape(&self) -> String {
        self.key().to_string()
    }
}

/// A game's rules, built from a checked [`Description`].
pub trait Moves {
    fn start(&self) -> Pos;
    /// Reads a position written in the certificate's encoding, and checks it is one.
    fn pos(&self, v: &Value) -> Result<Pos, String>;
    /// Opt(p), listed, for p read by [`Moves::pos`] or reached by options. An error when the
    /// rules cannot be evaluated at p (a game written as a rule in a spec: its rule failed
    /// or gave no positions); the built-in games never fail.
    fn options(&self, p: &Pos) -> Result<Vec<Pos>, String>;
    /// The disjoint sum p is by the rules, as its components; empty when p is not split.
    fn components(&self, _p: &Pos) -> Vec<Pos> {
        Vec::new()
    }
    /// Checks that p is the disjoint sum of `parts` where the rules split it by a law they do
    /// not prove (a game spec's declared `components: true`); the built-in games split by
    /// their definition and check nothing.
    fn check_split(&self, _p: &Pos, _parts: &[Pos]) -> Result<(), String> {
        Ok(())
    }
    /// The features spec formulas read at p ([`crate::features`]); none by default.
    fn features(&self, _env: &mut Env, _p: &Pos) {}
    /// In a diagram start: the summands, when the game is a disjoint sum.
    fn summands<'a>(&'a self, _p: &'a Pos) -> Option<Vec<(&'a Rules, &'a Pos)>> {
        None
    }
    /// In a diagram start: the heap, when the game is a nimber.
    fn nimber(&self, _p: &Pos) -> Option<u32> {
        None
    }
    /// In a diagram start alone or with nimbers, its features are read unprefixed.
    fn features_in_diagram(&self) -> bool {
        false
    }
    /// The game's automorphisms as permutations of the bits of its set positions (a removing
    /// game: the graph's automorphisms fixing the start set), for figures drawn up to
    /// congruence; `None` when the game has none the verifier computes.
    fn symmetries(&self) -> Option<Vec<Vec<usize>>> {
        None
    }
    /// Played misère (a game spec's `play: misere`): the rules are the normal-play transform,
    /// whose values say the misère outcome (0 ⇔ P) and nothing more.
    fn misere(&self) -> bool {
        false
    }
    /// A node of the transform that is no position of the game (⊥): in tables, never asked
    /// about by a claim.
    fn hidden(&self, _p: &Pos) -> bool {
        false
    }
}

/// A position of any game: the data shapes every game maps onto.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Pos {
    /// A vertex set or a pin row (bit i = vertex or pin i).
    Set(u64),
    /// A number (a nimber's heap).
    Int(u32),
    /// A list of numbers (a multiset ascending, a partition nonincreasing).
    List(Vec<u32>),
    /// A token on a vertex and a set of edges (bit i = edge i of the graph's list).
    Token(usize, u128),
    /// Several positions: the components of a sum, or the fields of one position.
    Tuple(Vec<Pos>),
}

const FOREIGN: &str = "positions are read by the game they belong to";

impl Pos {
    pub fn set(&self) -> u64 {
        let Pos::Set(s) = self else {
            unreachable!("{FOREIGN}")
        };
        *s
    }
    pub fn int(&self) -> u32 {
        let Pos::Int(h) = self else {
            unreachable!("{FOREIGN}")
        };
        *h
    }
    pub fn list(&self) -> &[u32] {
        let Pos::List(u) = self else {
            unreachable!("{FOREIGN}")
        };
        u
    }
    pub fn token(&self) -> (usize, u128) {
        let Pos::Token(t, e) = self else {
            unreachable!("{FOREIGN}")
        };
        (*t, *e)
    }
    pub fn tuple(&self) -> &[Pos] {
        let Pos::Tuple(ps) = self else {
            unreachable!("{FOREIGN}")
        };
        ps
    }
}

/// A game as a certificate or a spec's name describes it.
#[derive(Clone)]
pub struct Game(Arc<dyn Description>, Option<Arc<Value>>);

impl Game {
    pub fn new(d: impl Description + 'static) -> Game {
        Game(Arc::new(d), None)
    }

    /// The certificate's JSON the game was read from (`None` for a game read from a spec's
    /// name): what the Coq export translates, with its own reader (`crate::coq`).
    pub fn json(&self) -> Option<&Value> {
        self.1.as_deref()
    }

    /// A game from its name in a spec (`TER(W_6)`, `DC(7) + *1`): the first family of
    /// [`GAMES`] that reads it, or why none does.
    pub fn parse(t: &str) -> Result<Game, String> {
        let t = t.trim();
        if let Some(g) = GAMES.iter().find_map(|f| f.parse(t)) {
            return g;
        }
        Err(match call(t) {
            None => format!("`{t}`: the verifier does not read this game"),
            Some((head, _)) => match head.split_once("_{").filter(|(_, s)| s.ends_with('}')) {
                Some((rule, _)) => {
                    format!("`{t}`: the verifier does not read games `{rule}_{{…}}(…)`")
                }
                None => format!("`{t}`: the verifier does not read games `{head}(…)`"),
            },
        })
    }

    /// A game from a certificate's JSON, `{"key": description}`.
    pub fn from_json(v: Value) -> Result<Game, String> {
        let Value::Object(m) = v else {
            return Err(format!("`{v}` is not a game {{\"key\": description}}"));
        };
        let mut m = m.into_iter();
        let (Some((key, inner)), None) = (m.next(), m.next()) else {
            return Err("a game is an object of exactly one key".into());
        };
        let family = GAMES.iter().find(|f| f.key() == key).ok_or_else(|| {
            let keys: Vec<&str> = GAMES.iter().map(|f| f.key()).collect();
            format!("unknown game `{key}`, expected one of {}", keys.join(", "))
        })?;
        let json = Value::Object([(key.clone(), inner.clone())].into_iter().collect());
        family.read(inner).map(|g| Game(g.0, Some(Arc::new(json))))
    }

    /// The same game, graph for graph and start for start.
    pub fn same(&self, other: &Game) -> bool {
        self.0.same(other)
    }
    /// Its description, for [`Description::same`].
    pub fn description(&self) -> &dyn Description {
        &*self.0
    }
    /// The start position in the certificate's encoding (see grundy's certify/encode).
    pub fn encode_start(&self) -> Option<Value> {
        self.0.encode_start()
    }
    /// The kind of game, without sizes.
    pub fn shape(&self) -> String {
        self.0.shape()
    }
}

impl fmt::Debug for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl<'de> Deserialize<'de> for Game {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Game, D::Error> {
        Game::from_json(Value::deserialize(d)?).map_err(serde::de::Error::custom)
    }
}

/// The other game as this game's own type, when it is one.
pub fn downcast<T: 'static>(other: &Game) -> Option<&T> {
    other.description().as_any().downcast_ref::<T>()
}

/// A game with what its moves need precomputed.
pub struct Rules(Box<dyn Moves>);

impl Rules {
    pub fn new(g: &Game) -> Result<Rules, String> {
        g.0.rules()
    }
    pub fn of(m: impl Moves + 'static) -> Rules {
        Rules(Box::new(m))
    }
    pub fn start(&self) -> Pos {
        self.0.start()
    }
    /// Reads a position written in the certificate's encoding, and checks it is one.
    pub fn pos(&self, v: &Value) -> Result<Pos, String> {
        self.0.pos(v)
    }
    /// Opt(p), as a set (an error when the rules cannot be evaluated at p).
    pub fn options(&self, p: &Pos) -> Result<HashSet<Pos>, String> {
        Ok(self.0.options(p)?.into_iter().collect())
    }
    /// Opt(p), as the game lists it.
    pub fn options_list(&self, p: &Pos) -> Result<Vec<Pos>, String> {
        self.0.options(p)
    }
    /// The disjoint sum a position is, by the verifier's own rules, as its components; empty
    /// when the position is not split; an error when the split rests on a declared law that
    /// fails at the position ([`Moves::check_split`]).
    pub fn components(&self, p: &Pos) -> Result<Vec<Pos>, String> {
        let parts = self.0.components(p);
        if parts.len() >= 2 {
            self.0.check_split(p, &parts)?;
        }
        Ok(parts)
    }
    pub fn features(&self, env: &mut Env, p: &Pos) {
        self.0.features(env, p)
    }
    pub fn summands<'a>(&'a self, p: &'a Pos) -> Option<Vec<(&'a Rules, &'a Pos)>> {
        self.0.summands(p)
    }
    pub fn nimber(&self, p: &Pos) -> Option<u32> {
        self.0.nimber(p)
    }
    pub fn features_in_diagram(&self) -> bool {
        self.0.features_in_diagram()
    }
    pub fn misere(&self) -> bool {
        self.0.misere()
    }
    pub fn symmetries(&self) -> Option<Vec<Vec<usize>>> {
        self.0.symmetries()
    }
    pub fn hidden(&self, p: &Pos) -> bool {
        self.0.hidden(p)
    }
}

/// The nim-value of a named game by a rule of its family's own, if a family has one.
pub fn nim_by_family(name: &str) -> Option<Result<u32, String>> {
    GAMES.iter().find_map(|f| f.nim_of_name(name))
}

/// A description read from a certificate's JSON by serde.
pub fn from_json<T: DeserializeOwned>(v: Value) -> Result<T, String> {
    serde_json::from_value(v).map_err(|e| e.to_string())
}

/// A name `head(inner)` split at its first `(` (the last character must be `)`).
pub fn call(t: &str) -> Option<(&str, &str)> {
    t.split_once('(')
        .and_then(|(h, r)| Some((h, r.strip_suffix(')')?)))
}

pub fn int(v: &Value) -> Result<u64, String> {
    v.as_u64()
        .ok_or_else(|| format!("`{v}` is not a nonnegative integer"))
}

pub fn ints(v: &Value) -> Result<Vec<u32>, String> {
    let a = v.as_array().ok_or_else(|| format!("`{v}` is not a list"))?;
    a.iter()
        .map(|x| int(x).and_then(|i| u32::try_from(i).map_err(|e| e.to_string())))
        .collect()
}

/// A tuple of positions, one per game, written as a list.
pub fn read_tuple(v: &Value, games: &[&Rules]) -> Result<Pos, String> {
    let a = v
        .as_array()
        .filter(|a| a.len() == games.len())
        .ok_or_else(|| format!("`{v}` is not a list of {} components", games.len()))?;
    Ok(Pos::Tuple(
        games
            .iter()
            .zip(a)
            .map(|(g, x)| g.pos(x))
            .collect::<Result<_, _>>()?,
    ))
}

/// mex: the least nonnegative integer not in the set (the Sprague–Grundy recursion,
/// nim(p) = mex nim(Opt(p)), design.md §1).
pub fn mex(values: &[u32]) -> u32 {
    // Linear: the mex of k values is at most k.
    let mut present = vec![false; values.len() + 1];
    for &v in values {
        if let Some(p) = present.get_mut(v as usize) {
            *p = true;
        }
    }
    present.iter().position(|&b| !b).unwrap_or(values.len()) as u32
}

/// The Guy–Smith octal periodicity theorem (Winning Ways ch. 4; Guy & Smith 1956), as cited
/// before Prop 5.23: for an octal game removing at most t tokens, if G(n + p) = G(n) for all
/// n0 ≤ n < 2·n0 + p + t, then G(n + p) = G(n) for all n ≥ n0.
pub fn octal_sequence(code: &str, len: usize) -> Result<Vec<u32>, String> {
    let digits: Vec<u32> = code
        .strip_prefix("0.")
        .ok_or_else(|| format!("octal code `{code}` does not start with 0."))?
        .chars()
        .map(|c| {
            c.to_digit(8)
                .ok_or_else(|| format!("`{c}` is not an octal digit"))
        })
        .collect::<Result<_, _>>()?;
    let mut g: Vec<u32> = Vec::with_capacity(len);
    for n in 0..len {
        let mut seen = Vec::new();
        for (k0, &d) in digits.iter().enumerate() {
            let k = k0 + 1;
            // Digit d_k: bit 1 removes k tokens leaving no heap, bit 2 leaving one heap,
            // bit 4 leaving two nonempty heaps.
            if d & 1 != 0 && n == k {
                seen.push(0);
            }
            if d & 2 != 0 && n > k {
                seen.push(g[n - k]);
            }
            if d & 4 != 0 && n > k + 1 {
                for a in 1..(n - k) {
                    seen.push(g[a] ^ g[n - k - a]);
                }
            }
        }
        g.push(mex(&seen));
    }
    Ok(g)
}

/// A small game of a family, worked by hand: its name in a spec, its description in a
/// certificate (the value under the key), a closed nim-value table in the certificate's
/// encoding, and the nim-value of its start.
#[cfg(test)]
pub struct Example {
    pub name: &'static str,
    pub game: &'static str,
    pub table: &'static str,
    pub nim: u32,
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[test]
    fn registry_keys_are_unique() {
        let mut keys: Vec<&str> = GAMES.iter().map(|f| f.key()).collect();
        keys.sort_unstable();
        let n = keys.len();
        keys.dedup();
        assert_eq!(keys.len(), n, "a key registered twice: {keys:?}");
    }

    /// Every registered game, on its worked example: the certificate's description read by
    /// the registry is the game its name reads to, and no other family's example; its start
    /// written in the certificate's encoding reads back as the start; the hand-worked table
    /// is closed (the reachable positions, read in the certificate's encoding) and every
    /// value is the mex of its options'; the start's value is the example's, and the
    /// verifier's solver agrees.
    #[test]
    fn every_game_round_trips_its_example() {
        let examples: Vec<(&str, Example)> = GAMES.iter().map(|f| (f.key(), f.example())).collect();
        for (key, ex) in &examples {
            let json: Value = serde_json::from_str(ex.game).unwrap();
            let read: Game = serde_json::from_value(serde_json::json!({ *key: json })).unwrap();
            let named = Game::parse(ex.name).unwrap();
            assert!(read.same(&named) && named.same(&read), "{key}: {}", ex.name);
            for (other, ey) in &examples {
                if other != key {
                    assert!(
                        !Game::parse(ey.name).unwrap().same(&read),
                        "{key} is {other}"
                    );
                }
            }
            assert!(read.shape().contains(key), "{key}: shape {}", read.shape());
            let rules = Rules::new(&read).unwrap();
            if let Some(s) = read.encode_start() {
                assert_eq!(rules.pos(&s).unwrap(), rules.start(), "{key}: start {s}");
            }
            let entries: Vec<(Value, u32)> = serde_json::from_str(ex.table).unwrap();
            let values: HashMap<Pos, u32> = entries
                .iter()
                .map(|(p, v)| (rules.pos(p).unwrap(), *v))
                .collect();
            assert_eq!(
                values.len(),
                entries.len(),
                "{key}: a position listed twice"
            );
            let value = |p: &Pos| {
                *values
                    .get(p)
                    .unwrap_or_else(|| panic!("{key}: {p:?} is reached but not in the table"))
            };
            let mut reached = HashSet::from([rules.start()]);
            let mut queue = vec![rules.start()];
            while let Some(p) = queue.pop() {
                let opts: Vec<u32> = rules.options(&p).unwrap().iter().map(value).collect();
                assert_eq!(mex(&opts), value(&p), "{key}: at {p:?}");
                for q in rules.options(&p).unwrap() {
                    if reached.insert(q.clone()) {
                        queue.push(q);
                    }
                }
            }
            assert_eq!(reached.len(), values.len(), "{key}: unreachable entries");
            assert_eq!(value(&rules.start()), ex.nim, "{key}");
            assert_eq!(crate::solve::solve(&rules).unwrap(), ex.nim, "{key}");
            assert_eq!(crate::solve::nim_of_name(ex.name).unwrap(), ex.nim, "{key}");
        }
    }

    /// Malformed games are refused by the registry, naming what is wrong.
    #[test]
    fn unknown_and_malformed_games_are_refused() {
        let bad = |v: Value| Game::from_json(v).unwrap_err();
        assert!(bad(serde_json::json!({"XYZ": 1})).contains("unknown game `XYZ`"));
        assert!(bad(serde_json::json!({"nim": 1, "DC": 2})).contains("exactly one key"));
        assert!(bad(serde_json::json!("nim")).contains("is not a game"));
        assert!(Game::parse("FOO(P_3)").unwrap_err().contains("`FOO(…)`"));
        assert!(Game::parse("FOO_{v1}(P_3)")
            .unwrap_err()
            .contains("`FOO_{…}(…)`"));
        assert!(Game::parse("P_3")
            .unwrap_err()
            .contains("does not read this game"));
    }
}
