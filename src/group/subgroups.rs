//! The subgroup lattice up to conjugacy, the maximal subgroups and the Frattini subgroup,
//! computed by cyclic extension (never tabled).
//!
//! Every subgroup is the join of cyclic subgroups, so every subgroup K is reached from the
//! trivial group by steps H ↦ ⟨H, g⟩. If H = c⁻¹ R c for a class representative R, then
//! ⟨H, g⟩ = c⁻¹ ⟨R, c g c⁻¹⟩ c: extending only one representative per conjugacy class, by one
//! generator of every cyclic subgroup, reaches every class. A new subgroup puts all its
//! conjugates into the table of known subgroups, so each class is extended once.
//!
//! A subgroup M ≠ G is maximal iff ⟨M, g⟩ = G for every g ∉ M; it suffices to test one
//! generator g of each cyclic subgroup ⟨g⟩ ⊄ M. Maximality is invariant under conjugation,
//! so the maximal subgroups are the conjugates of the maximal representatives. The Frattini
//! subgroup Φ(G) is their intersection (G itself for the trivial group).

use super::Group;
use fixedbitset::FixedBitSet;
use rustc_hash::FxHashSet;

/// One conjugacy class of subgroups.
#[derive(Clone, Debug)]
pub struct SubgroupClass {
    pub rep: FixedBitSet,
    pub order: usize,
    /// Number of conjugates.
    pub size: usize,
    pub maximal: bool,
}

/// What the cyclic-extension search found.
#[derive(Clone, Debug)]
pub struct Lattice {
    /// Conjugacy classes of subgroups, in the order found (the trivial group first, G last
    /// unless G is trivial).
    pub classes: Vec<SubgroupClass>,
    /// Every maximal subgroup, sorted.
    pub maximal: Vec<FixedBitSet>,
    pub frattini: FixedBitSet,
}

impl Lattice {
    pub fn subgroups(&self) -> usize {
        self.classes.iter().map(|c| c.size).sum()
    }
}

/// One generator of each cyclic subgroup, the identity left out.
fn cyclic_generators(g: &Group) -> Vec<usize> {
    let mut seen: FxHashSet<FixedBitSet> = FxHashSet::default();
    let mut out = Vec::new();
    for a in 1..g.order() {
        let c = g.generate([a]);
        if seen.insert(c) {
            out.push(a);
        }
    }
    out
}

fn conjugates(g: &Group, h: &FixedBitSet) -> Vec<FixedBitSet> {
    let mut seen: FxHashSet<FixedBitSet> = FxHashSet::default();
    let mut out = Vec::new();
    for c in 0..g.order() {
        let k = g.conjugate(h, c);
        if seen.insert(k.clone()) {
            out.push(k);
        }
    }
    out
}

/// The lattice of subgroups of `g` up to conjugacy.
pub fn lattice(g: &Group) -> Lattice {
    let n = g.order();
    let cyc = cyclic_generators(g);
    let trivial = g.generate([]);
    let mut known: FxHashSet<FixedBitSet> = FxHashSet::default();
    known.insert(trivial.clone());
    let mut classes = vec![SubgroupClass {
        order: 1,
        size: 1,
        maximal: false,
        rep: trivial,
    }];
    let mut i = 0;
    while i < classes.len() {
        let h = classes[i].rep.clone();
        let full = h.count_ones(..) == n;
        let mut maximal = !full;
        for &a in &cyc {
            if h.contains(a) {
                continue;
            }
            let k = g.generate(h.ones().chain([a]));
            let order = k.count_ones(..);
            if order == n {
                if !known.contains(&k) {
                    known.insert(k.clone());
                    classes.push(SubgroupClass {
                        rep: k,
                        order,
                        size: 1,
                        maximal: false,
                    });
                }
                continue;
            }
            maximal = false;
            if known.contains(&k) {
                continue;
            }
            let conj = conjugates(g, &k);
            let size = conj.len();
            known.extend(conj);
            classes.push(SubgroupClass {
                rep: k,
                order,
                size,
                maximal: false,
            });
        }
        classes[i].maximal = maximal;
        i += 1;
    }
    let mut maximal: Vec<FixedBitSet> = classes
        .iter()
        .filter(|c| c.maximal)
        .flat_map(|c| conjugates(g, &c.rep))
        .collect();
    maximal.sort();
    let mut frattini = FixedBitSet::with_capacity(n);
    frattini.insert_range(..);
    for m in &maximal {
        frattini.intersect_with(m);
    }
    Lattice {
        classes,
        maximal,
        frattini,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::group::parse_group;

    fn summary(text: &str) -> (usize, usize, usize, usize) {
        let g = parse_group(text).unwrap();
        let l = lattice(&g);
        (
            l.subgroups(),
            l.classes.len(),
            l.maximal.len(),
            l.frattini.count_ones(..),
        )
    }

    /// Subgroup counts are OEIS-known: A000638 (classes of subgroups of S_n: 1, 2, 4, 11, 19,
    /// 56), A005432 (subgroups of S_n: 1, 2, 6, 30, 156, 1455); A_5 has 59 subgroups in 9
    /// classes; Q_8 has 6 subgroups and Φ(Q_8) = {±1}; Φ(Cyc(p^k)) has order p^(k-1).
    #[test]
    fn subgroup_counts_match_known_values() {
        assert_eq!(summary("Sym(1)").0, 1);
        assert_eq!(summary("Sym(3)"), (6, 4, 4, 1));
        assert_eq!(summary("Sym(4)").0, 30);
        assert_eq!(summary("Sym(4)").1, 11);
        assert_eq!(summary("Sym(5)").0, 156);
        assert_eq!(summary("Sym(5)").1, 19);
        assert_eq!(summary("Alt(5)").0, 59);
        assert_eq!(summary("Alt(5)").1, 9);
        // Every subgroup of Q_8 is normal: six classes of one.
        assert_eq!(summary("Dic(2)"), (6, 6, 3, 2));
        assert_eq!(summary("Cyc(27)").3, 9);
        assert_eq!(summary("Cyc(12)"), (6, 6, 2, 2));
        // Klein four: every proper nontrivial subgroup maximal, Φ trivial.
        assert_eq!(summary("Cyc(2) x Cyc(2)"), (5, 5, 3, 1));
        // Dih(4) (order 8): 10 subgroups, 3 maximal, Φ = ⟨r²⟩.
        assert_eq!(summary("Dih(4)"), (10, 8, 3, 2));
    }
}
