//! Automorphisms of a graph (petgraph's VF2) and the canonical representative of a vertex set
//! under them, used by the solver for symmetry reduction.
//!
//! Soundness does not need the whole group: any set of automorphisms gives representatives
//! that are images of the original set, so equal representatives always mean equivalent
//! positions. We therefore keep at most [`MAX_AUTOMORPHISMS`] of them (for speed), and the
//! reduction is complete only when the group is that small.

use super::{bits, Graph};

/// Most automorphisms used for canonical forms.
pub const MAX_AUTOMORPHISMS: usize = 512;

/// A permutation of vertices, applied to bitmasks through byte lookup tables.
#[derive(Clone, Debug)]
pub struct Perm {
    pub map: Vec<usize>,
    table: Vec<[u64; 256]>,
}

impl Perm {
    pub fn new(map: Vec<usize>) -> Perm {
        let chunks = map.len().div_ceil(8);
        let mut table = vec![[0u64; 256]; chunks];
        for (c, t) in table.iter_mut().enumerate() {
            for (byte, slot) in t.iter_mut().enumerate() {
                let mut m = 0u64;
                for b in bits(byte as u64) {
                    let v = c * 8 + b;
                    if v < map.len() {
                        m |= 1 << map[v];
                    }
                }
                *slot = m;
            }
        }
        Perm { map, table }
    }

    pub fn apply(&self, s: u64) -> u64 {
        let mut out = 0;
        for (c, t) in self.table.iter().enumerate() {
            out |= t[((s >> (8 * c)) & 0xff) as usize];
        }
        out
    }
}

/// A set of automorphisms with the identity first.
#[derive(Clone, Debug)]
pub struct Symmetry {
    perms: Vec<Perm>,
    complete: bool,
}

impl Symmetry {
    /// Only the identity: no reduction.
    pub fn trivial(n: usize) -> Symmetry {
        Symmetry {
            perms: vec![Perm::new((0..n).collect())],
            complete: true,
        }
    }

    /// Automorphisms of `g` (at most [`MAX_AUTOMORPHISMS`]), keeping only those that map
    /// `fixed` onto itself (so started games keep their start).
    pub fn of_graph(g: &Graph, fixed: u64) -> Symmetry {
        let pg = g.to_petgraph();
        let mut nm = |_: &String, _: &String| true;
        let mut em = |_: &(), _: &()| true;
        let mut perms = Vec::new();
        let mut complete = true;
        if let Some(iter) =
            petgraph::algo::isomorphism::subgraph_isomorphisms_iter(&&pg, &&pg, &mut nm, &mut em)
        {
            for map in iter {
                if map.len() != g.n() {
                    continue;
                }
                let p = Perm::new(map);
                if p.apply(fixed) != fixed {
                    continue;
                }
                if perms.len() == MAX_AUTOMORPHISMS {
                    complete = false;
                    break;
                }
                perms.push(p);
            }
        }
        let id: Vec<usize> = (0..g.n()).collect();
        perms.retain(|p| p.map != id);
        perms.insert(0, Perm::new(id));
        Symmetry { perms, complete }
    }

    pub fn len(&self) -> usize {
        self.perms.len()
    }
    pub fn is_empty(&self) -> bool {
        self.perms.is_empty()
    }
    /// Whether every automorphism (fixing the start) is used.
    pub fn is_complete(&self) -> bool {
        self.complete
    }
    pub fn perms(&self) -> &[Perm] {
        &self.perms
    }

    /// The least image of `s`.
    pub fn canonical(&self, s: u64) -> u64 {
        self.perms.iter().map(|p| p.apply(s)).min().unwrap_or(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::families as fam;

    #[test]
    fn automorphism_group_orders() {
        assert_eq!(Symmetry::of_graph(&fam::cycle(9).unwrap(), 0).len(), 18);
        assert_eq!(Symmetry::of_graph(&fam::wheel(7).unwrap(), 0).len(), 12);
        assert_eq!(Symmetry::of_graph(&fam::hypercube(3).unwrap(), 0).len(), 48);
        assert_eq!(Symmetry::of_graph(&fam::kite(), 0).len(), 2);
        assert_eq!(Symmetry::of_graph(&fam::path(5).unwrap(), 0).len(), 2);
        // fixing v1 in C_9 leaves the reflection through v1
        assert_eq!(Symmetry::of_graph(&fam::cycle(9).unwrap(), 1).len(), 2);
    }

    #[test]
    fn canonical_is_an_orbit_invariant() {
        let g = fam::cycle(7).unwrap();
        let s = Symmetry::of_graph(&g, 0);
        for m in 0..128u64 {
            let c = s.canonical(m);
            assert_eq!(c.count_ones(), m.count_ones());
            for p in s.perms() {
                assert_eq!(s.canonical(p.apply(m)), c);
            }
        }
    }
}
