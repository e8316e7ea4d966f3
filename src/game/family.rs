//! Open registration of game families (issue 31, item 6). A new game is one file that
//! implements [`Family`] (how its expressions read) and [`FamilyGame`] (its gamegraph, labels
//! and features), plus one line in [`FAMILIES`] (or a [`register`] call from outside the
//! crate, [`crate::registry::Registry`]). The expression parser, `solve --help`, the
//! guide's generated pages, `grundy features`, the dispatcher (the memo solver under the
//! guard), sums, ordinal sums and the checkers then take the game through
//! [`super::AnyGame::Family`], with no other edit.
//!
//! The families grundy had before the registry keep their own variants of
//! [`super::AnyGame`]: their solvers have fast paths the dispatcher chooses by variant (the
//! level solver and the cycle table for TER/DNT, octal sequences, GF(2) for edge geography).
//! A registered family is solved by the memo solver unless it says more.
//!
//! Positions of a registered game are type-erased ([`DynPos`]): the family's own position
//! type behind an `Arc`, compared, ordered and hashed through it, so a family keeps its own
//! `Game::Pos` and the solvers memoise on it unchanged.

use super::features::{FeatureDoc, Features};
use super::Game;
use crate::graph::Closure;
use serde::Serialize;
use serde_json::Value;
use std::any::Any;
use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

/// One form of the game language, as `grundy solve --help` and the user guide list it (a
/// test parses every example).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FormDoc {
    pub syntax: &'static str,
    pub example: &'static str,
    pub meaning: &'static str,
}

/// How the expressions of a game family read.
pub trait Family: Sync {
    /// The heads of its expressions: `NK` for `NK(P_5)`. They must not be a head the parser
    /// already knows (a test checks).
    fn heads(&self) -> &'static [&'static str];
    /// Its forms, for `grundy solve --help` and the guide.
    fn forms(&self) -> &'static [FormDoc];
    /// `grundy features --all`'s title for the family (its example is the first form's).
    fn title(&self) -> &'static str;
    /// The game `head(args)`, with the closure the caller asked for (`--closure`, a spec's
    /// `closure:`); the error says what is wrong with `args`.
    fn parse(&self, head: &str, args: &str, closure: Closure) -> Result<Registered, String>;
}

/// Every built-in family: one line each.
pub static FAMILIES: &[&dyn Family] = &[&super::node_kayles::NodeKaylesFamily];

/// Families registered at run time, from outside the crate ([`register`]).
static EXTRA: std::sync::RwLock<Vec<&'static dyn Family>> = std::sync::RwLock::new(Vec::new());

/// Every registered family: the built-ins, then those registered at run time.
pub fn all() -> Vec<&'static dyn Family> {
    let extra = EXTRA.read().unwrap_or_else(|e| e.into_inner());
    FAMILIES.iter().chain(extra.iter()).copied().collect()
}

/// The family that reads expressions headed `head`.
pub fn lookup(head: &str) -> Option<&'static dyn Family> {
    all().into_iter().find(|f| f.heads().contains(&head))
}

/// The heads the expression language reserves for its own games.
const RESERVED: &[&str] = &["TER", "DNT", "GEN", "DNG", "DC", "SPL", "UEG", "MS", "NIM"];

/// Registers a family defined outside the crate; refused when one of its heads is taken (by
/// the language or another family) or is not a word (registering the same one again is a
/// no-op).
pub fn register(f: &'static dyn Family) -> Result<(), String> {
    let mut extra = EXTRA.write().unwrap_or_else(|e| e.into_inner());
    if extra.iter().any(|g| std::ptr::addr_eq(*g, f)) {
        return Ok(());
    }
    for head in f.heads() {
        let word = !head.is_empty()
            && head.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && head.starts_with(|c: char| c.is_ascii_alphabetic());
        let taken = RESERVED.contains(head)
            || FAMILIES
                .iter()
                .chain(extra.iter())
                .any(|g| g.heads().contains(head));
        if !word || taken {
            return Err(format!("the game head `{head}` is taken or not a word"));
        }
    }
    extra.push(f);
    Ok(())
}

/// What a registered game provides beyond its gamegraph ([`Game`]).
pub trait FamilyGame: Game + Send + Sync + fmt::Debug + 'static
where
    Self::Pos: Ord + Send + Sync + Serialize + 'static,
{
    /// The game as the language writes it: `NK(P_5)`.
    fn name(&self) -> String;
    /// A position in the paper's notation; [`FamilyGame::parse_pos`] reads it back.
    fn label(&self, p: &Self::Pos) -> String;
    fn parse_pos(&self, text: &str) -> Result<Self::Pos, String> {
        Err(format!(
            "positions of {} cannot be written as text (`{text}`)",
            self.name()
        ))
    }
    fn features(&self, p: &Self::Pos) -> Features;
    /// The meaning of every feature [`FamilyGame::features`] computes.
    fn feature_docs(&self) -> &'static [FeatureDoc];
    /// An upper bound on the distinct positions, for the guard's estimate before solving.
    fn distinct_bound(&self) -> Option<f64> {
        None
    }
    /// An upper bound on the positions reachable from the start, each taken whole: what
    /// enumerating every reachable position visits (a `positions: reachable` claim, a
    /// diagram's candidates). It exceeds [`FamilyGame::distinct_bound`] for a game that
    /// splits positions into components, whose memo holds the parts only.
    fn reachable_bound(&self) -> Option<f64> {
        self.distinct_bound()
    }
    /// The game in the certificates' self-describing encoding (`crate::certify::encode`),
    /// which `grundy-verify` reads with its own implementation of the family's rules; its
    /// positions are written as their serde serialisation. `Err` says why it is not
    /// certified: a family without a counterpart in the verifier must not claim one.
    fn certificate(&self) -> Result<Value, String> {
        Err(format!(
            "{} is a registered family's game that certificates do not encode (the verifier has no rules for it)",
            self.name()
        ))
    }
    /// `Some(why)` for a game played misère (a game spec's `play: misere`): its gamegraph is
    /// the normal-play transform, whose nim-values give the misère outcomes (0 ⇔ P) and
    /// nothing else, so only outcome claims may read them (`crate::expr` refuses the game
    /// elsewhere, with `why`).
    fn misere(&self) -> Option<String> {
        None
    }
    /// A node of the solved gamegraph that is no position of the game (the misère
    /// transform's ⊥): solved and certified, never shown, asked about or given features.
    fn hidden(&self, _p: &Self::Pos) -> bool {
        false
    }
    /// The laws the game's spec declares and its solver uses, checked but not proved (a
    /// game spec's `components:`, `symmetric:`), in words for the verdict line.
    fn declared_laws(&self) -> Option<String> {
        None
    }
}

/// A registered game, type-erased.
#[derive(Clone)]
pub struct Registered(Arc<dyn LeafGame>);

impl Registered {
    pub fn new<G: FamilyGame>(g: G) -> Registered
    where
        G::Pos: Ord + Send + Sync + Serialize + 'static,
    {
        Registered(Arc::new(Typed(g)))
    }
    pub fn name(&self) -> String {
        self.0.name()
    }
    pub fn start(&self) -> DynPos {
        self.0.start()
    }
    pub fn options(&self, p: &DynPos) -> Vec<DynPos> {
        self.0.options(p)
    }
    pub fn canonical(&self, p: &DynPos) -> DynPos {
        self.0.canonical(p)
    }
    pub fn components(&self, p: &DynPos) -> Vec<DynPos> {
        self.0.components(p)
    }
    pub fn label(&self, p: &DynPos) -> String {
        self.0.label(p)
    }
    pub fn parse_pos(&self, text: &str) -> Result<DynPos, String> {
        self.0.parse_pos(text)
    }
    pub fn features(&self, p: &DynPos) -> Features {
        self.0.features(p)
    }
    pub fn feature_docs(&self) -> &'static [FeatureDoc] {
        self.0.feature_docs()
    }
    pub fn distinct_bound(&self) -> Option<f64> {
        self.0.distinct_bound()
    }
    pub fn reachable_bound(&self) -> Option<f64> {
        self.0.reachable_bound()
    }
    pub fn certificate(&self) -> Result<Value, String> {
        self.0.certificate()
    }
    /// [`FamilyGame::misere`].
    pub fn misere(&self) -> Option<String> {
        self.0.misere()
    }
    /// [`FamilyGame::hidden`].
    pub fn hidden(&self, p: &DynPos) -> bool {
        self.0.hidden(p)
    }
    /// [`FamilyGame::declared_laws`].
    pub fn declared_laws(&self) -> Option<String> {
        self.0.declared_laws()
    }
}

/// The game's whole structure (not its name, which a spec may choose): sums of equal parts
/// are solved once by comparing this.
impl fmt::Debug for Registered {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// [`FamilyGame`] made object-safe.
trait LeafGame: Send + Sync + fmt::Debug {
    fn name(&self) -> String;
    fn start(&self) -> DynPos;
    fn options(&self, p: &DynPos) -> Vec<DynPos>;
    fn canonical(&self, p: &DynPos) -> DynPos;
    fn components(&self, p: &DynPos) -> Vec<DynPos>;
    fn label(&self, p: &DynPos) -> String;
    fn parse_pos(&self, text: &str) -> Result<DynPos, String>;
    fn features(&self, p: &DynPos) -> Features;
    fn feature_docs(&self) -> &'static [FeatureDoc];
    fn distinct_bound(&self) -> Option<f64>;
    fn reachable_bound(&self) -> Option<f64>;
    fn certificate(&self) -> Result<Value, String>;
    fn misere(&self) -> Option<String>;
    fn hidden(&self, p: &DynPos) -> bool;
    fn declared_laws(&self) -> Option<String>;
}

#[derive(Debug)]
struct Typed<G>(G);

impl<G: FamilyGame> Typed<G>
where
    G::Pos: Ord + Send + Sync + Serialize + 'static,
{
    fn pos<'a>(&self, p: &'a DynPos) -> &'a G::Pos {
        // Positions are only ever produced by the game they belong to (as in AnyGame).
        p.0.as_any()
            .downcast_ref()
            .unwrap_or_else(|| unreachable!("position {p:?} does not belong to {}", self.0.name()))
    }
}

impl<G: FamilyGame> LeafGame for Typed<G>
where
    G::Pos: Ord + Send + Sync + Serialize + 'static,
{
    fn name(&self) -> String {
        self.0.name()
    }
    fn start(&self) -> DynPos {
        DynPos::new(self.0.start())
    }
    fn options(&self, p: &DynPos) -> Vec<DynPos> {
        self.0
            .options(self.pos(p))
            .into_iter()
            .map(DynPos::new)
            .collect()
    }
    fn canonical(&self, p: &DynPos) -> DynPos {
        DynPos::new(self.0.canonical(self.pos(p)))
    }
    fn components(&self, p: &DynPos) -> Vec<DynPos> {
        self.0
            .components(self.pos(p))
            .into_iter()
            .map(DynPos::new)
            .collect()
    }
    fn label(&self, p: &DynPos) -> String {
        self.0.label(self.pos(p))
    }
    fn parse_pos(&self, text: &str) -> Result<DynPos, String> {
        self.0.parse_pos(text).map(DynPos::new)
    }
    fn features(&self, p: &DynPos) -> Features {
        self.0.features(self.pos(p))
    }
    fn feature_docs(&self) -> &'static [FeatureDoc] {
        self.0.feature_docs()
    }
    fn distinct_bound(&self) -> Option<f64> {
        self.0.distinct_bound()
    }
    fn reachable_bound(&self) -> Option<f64> {
        self.0.reachable_bound()
    }
    fn certificate(&self) -> Result<Value, String> {
        self.0.certificate()
    }
    fn misere(&self) -> Option<String> {
        self.0.misere()
    }
    fn hidden(&self, p: &DynPos) -> bool {
        self.0.hidden(self.pos(p))
    }
    fn declared_laws(&self) -> Option<String> {
        self.0.declared_laws()
    }
}

/// A position of a registered game.
#[derive(Clone)]
pub struct DynPos(Arc<dyn PosObject>);

impl DynPos {
    fn new<P: Any + Send + Sync + fmt::Debug + Eq + Ord + Hash + Serialize>(p: P) -> DynPos {
        DynPos(Arc::new(p))
    }
    /// The position in the certificates' encoding: its serialisation.
    pub fn to_json(&self) -> Value {
        self.0.to_json()
    }
}

trait PosObject: Any + Send + Sync + fmt::Debug {
    fn as_any(&self) -> &dyn Any;
    fn eq_dyn(&self, other: &dyn PosObject) -> bool;
    fn cmp_dyn(&self, other: &dyn PosObject) -> Ordering;
    fn hash_dyn(&self, h: &mut dyn Hasher);
    fn to_json(&self) -> Value;
}

impl<T: Any + Send + Sync + fmt::Debug + Eq + Ord + Hash + Serialize> PosObject for T {
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn eq_dyn(&self, other: &dyn PosObject) -> bool {
        other.as_any().downcast_ref::<T>() == Some(self)
    }
    fn cmp_dyn(&self, other: &dyn PosObject) -> Ordering {
        match other.as_any().downcast_ref::<T>() {
            Some(o) => self.cmp(o),
            // Positions of different games: any fixed order will do.
            None => std::any::TypeId::of::<T>().cmp(&other.as_any().type_id()),
        }
    }
    fn hash_dyn(&self, mut h: &mut dyn Hasher) {
        self.hash(&mut h);
    }
    fn to_json(&self) -> Value {
        // Positions are plain data (sets as masks, lists); a type that fails to serialise
        // would be a family's bug, written as null so the verifier rejects the entry.
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}

impl PartialEq for DynPos {
    fn eq(&self, other: &DynPos) -> bool {
        self.0.eq_dyn(&*other.0)
    }
}
impl Eq for DynPos {}
impl PartialOrd for DynPos {
    fn partial_cmp(&self, other: &DynPos) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for DynPos {
    fn cmp(&self, other: &DynPos) -> Ordering {
        self.0.cmp_dyn(&*other.0)
    }
}
impl Hash for DynPos {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.hash_dyn(state);
    }
}
impl fmt::Debug for DynPos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}
