//! The game model: one small [`Game`] trait, nimbers, disjoint and ordinal sums, and the
//! named features of positions that specs reason about. Each game family lives in its own file;
//! new families register in [`family::FAMILIES`] (one line) and need no other edit.
//!
//! Semantics follow docs/design.md §1: a game is a finite acyclic gamegraph given by a start
//! position and `Opt(p)`; `nim(p) = mex nim(Opt(p))`.

pub mod any;
pub mod closure;
pub mod dawson;
pub mod family;
pub mod features;
pub mod identity;
pub mod multiset;
pub mod nimber;
pub mod node_kayles;
pub mod octal;
pub mod octal_lookup;
pub mod prism_trail;
pub mod removing;
pub mod spl;
pub mod sum;
pub mod ueg;
pub mod user;

pub use any::{AnyGame, AnyPos};
pub use features::{Features, Value};

use std::fmt::Debug;
use std::hash::Hash;

/// An impartial game given by its gamegraph.
///
/// `canonical` is the symmetry hook: it must map a position to a representative whose
/// nim-value is provably equal (for example the least image under graph automorphisms).
/// The solver memoises on representatives, so an unsound `canonical` would corrupt every
/// value; the default is the identity.
pub trait Game {
    type Pos: Clone + Eq + Hash + Debug;

    fn start(&self) -> Self::Pos;

    fn options(&self, p: &Self::Pos) -> Vec<Self::Pos>;

    fn canonical(&self, p: &Self::Pos) -> Self::Pos {
        p.clone()
    }

    /// The disjoint-sum hook: positions whose games add up (disjoint sum) to the game at `p`,
    /// so that nim(p) is the XOR of their values (Sprague–Grundy); empty, the default, when
    /// `p` is not split. Sound only if every move from `p` is a move in exactly one part,
    /// leaving the others as they are, and every such move is a move from `p`; each part
    /// must itself split no further. The solver then memoises parts, never their unions,
    /// which is what makes Node Kayles on a path polynomial.
    fn components(&self, _p: &Self::Pos) -> Vec<Self::Pos> {
        Vec::new()
    }
}

/// Minimum excludant of a set of nim-values.
pub fn mex<I: IntoIterator<Item = u32>>(values: I) -> u32 {
    let mut seen: u128 = 0;
    let mut big: Vec<u32> = Vec::new();
    for v in values {
        if v < 128 {
            seen |= 1u128 << v;
        } else {
            big.push(v);
        }
    }
    let m = (!seen).trailing_zeros();
    if m < 128 {
        return m;
    }
    big.sort_unstable();
    big.dedup();
    let mut m = 128;
    for v in big {
        if v == m {
            m += 1;
        } else if v > m {
            break;
        }
    }
    m
}

#[cfg(test)]
mod tests {
    use super::mex;

    #[test]
    fn mex_basics() {
        assert_eq!(mex([]), 0);
        assert_eq!(mex([1, 2]), 0);
        assert_eq!(mex([0, 2, 1, 4]), 3);
        assert_eq!(mex((0..200).collect::<Vec<_>>()), 200);
        assert_eq!(mex((0..128).chain([129]).collect::<Vec<_>>()), 128);
    }
}
