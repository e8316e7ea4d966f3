//! The structure-class solver for closure games (docs/design.md, "Closure games", with the
//! proof): positions are grouped by ⌈P⌉, the intersection of the maximal legal sets 𝓜 that
//! contain P, and the nim-value of P is a function of the class ⌈P⌉ and k = |⌈P⌉ ∖ P| only.
//! This is the structure diagram of Ernst–Sieben (2018) for the games of generating groups,
//! where 𝓜 is the set of maximal subgroups and the classes are intersections of maximal
//! subgroups; for the removing games 𝓜 = 𝒩* (seed 000 §2.2).
//!
//! From a legal P in class I = ⌈P⌉ with k = |I ∖ P|:
//! * selecting x ∈ I ∖ P keeps the class: (I, k − 1);
//! * selecting x ∉ I leads to the class J = ⌈I ∪ {x}⌉ (the members of 𝓜 containing P ∪ {x}
//!   are those containing I ∪ {x}), with k' = |J| − |P| − 1 = k + |J| − |I| − 1; or, when no
//!   member contains x and I, to an illegal set: a terminal position of value 0 in the
//!   achievement games, no move in the avoidance games.
//!
//! So nim(I, k) = mex({nim(I, k−1) : k > 0} ∪ {nim(J, k + |J| − |I| − 1)} ∪ {0 : achievement
//! and some x ends}), computed over the classes by decreasing size (J ⊋ I), for every k.
//! The classes reachable from ⌈∅⌉ (the Frattini subgroup for groups) are found by a search
//! over the masks "which members of 𝓜 contain the set", so no subset of X is ever listed.

use crate::game::closure::Set;
use rustc_hash::FxHashMap;
use std::fmt;

/// Most classes a diagram may have before the solver gives up (the classes can be
/// exponentially many in |𝓜|, e.g. for hypercubes).
pub const MAX_CLASSES: usize = 200_000;

/// One structure class.
#[derive(Clone, Debug)]
pub struct Class {
    /// The class as a set of elements, ⌈P⌉.
    pub set: Set,
    /// Which members of 𝓜 contain it.
    pub members: Set,
    /// Classes reached by selecting an element outside the set (ascending, deduplicated).
    pub options: Vec<usize>,
    /// Some element outside every member containing the class: selecting it makes the
    /// position illegal.
    pub ends: bool,
    /// `nim[k]` for k = |set ∖ P| = 0 ..= |set|.
    pub nim: Vec<u32>,
}

impl Class {
    pub fn size(&self) -> usize {
        self.set.count_ones(..)
    }
}

/// The structure diagram of a closure game: its classes and their nim-values.
#[derive(Clone, Debug)]
pub struct Diagram {
    pub classes: Vec<Class>,
    /// Number of elements of the ground set.
    pub n: usize,
    /// The class of ∅, `None` when ∅ itself is illegal (𝓜 empty).
    pub start: Option<usize>,
    pub achievement: bool,
    facets: Vec<Set>,
    /// `col[x]`: members of 𝓜 containing x.
    col: Vec<Set>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TooManyClasses(pub usize);

impl fmt::Display for TooManyClasses {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "more than {} structure classes", self.0)
    }
}

impl Diagram {
    /// The diagram of the game on `n` elements whose maximal legal sets are `facets`.
    pub fn build(
        n: usize,
        facets: &[Set],
        achievement: bool,
        max_classes: usize,
    ) -> Result<Diagram, TooManyClasses> {
        let m = facets.len();
        let mut col = vec![Set::with_capacity(m); n];
        for (i, f) in facets.iter().enumerate() {
            for x in f.ones() {
                col[x].insert(i);
            }
        }
        let mut d = Diagram {
            classes: Vec::new(),
            n,
            start: None,
            achievement,
            facets: facets.to_vec(),
            col,
        };
        if m == 0 {
            return Ok(d);
        }
        let mut all = Set::with_capacity(m);
        all.insert_range(..);
        let mut index: FxHashMap<Set, usize> = FxHashMap::default();
        let root = d.class_of_members(&all);
        index.insert(root.set.clone(), 0);
        d.classes.push(root);
        d.start = Some(0);
        let mut i = 0;
        while i < d.classes.len() {
            let (set, members) = (d.classes[i].set.clone(), d.classes[i].members.clone());
            let mut seen: FxHashMap<Set, usize> = FxHashMap::default();
            let mut options = Vec::new();
            let mut ends = false;
            for x in 0..n {
                if set.contains(x) {
                    continue;
                }
                let mut mask = members.clone();
                mask.intersect_with(&d.col[x]);
                if mask.is_clear() {
                    ends = true;
                    continue;
                }
                if let Some(&j) = seen.get(&mask) {
                    options.push(j);
                    continue;
                }
                let c = d.class_of_members(&mask);
                let j = match index.get(&c.set) {
                    Some(&j) => j,
                    None => {
                        if d.classes.len() >= max_classes {
                            return Err(TooManyClasses(max_classes));
                        }
                        let j = d.classes.len();
                        index.insert(c.set.clone(), j);
                        d.classes.push(c);
                        j
                    }
                };
                seen.insert(mask, j);
                options.push(j);
            }
            options.sort_unstable();
            options.dedup();
            d.classes[i].options = options;
            d.classes[i].ends = ends;
            i += 1;
        }
        d.value();
        Ok(d)
    }

    /// The intersection of the members in `mask`, with the members that contain it.
    fn class_of_members(&self, mask: &Set) -> Class {
        let mut set = Set::with_capacity(self.n);
        set.insert_range(..);
        for i in mask.ones() {
            set.intersect_with(&self.facets[i]);
        }
        // Every member containing the intersection (a superset of `mask`).
        let mut members = Set::with_capacity(self.facets.len());
        for (i, f) in self.facets.iter().enumerate() {
            if set.is_subset(f) {
                members.insert(i);
            }
        }
        Class {
            set,
            members,
            options: Vec::new(),
            ends: false,
            nim: Vec::new(),
        }
    }

    /// nim(I, k) for every class, largest classes first.
    fn value(&mut self) {
        let mut order: Vec<usize> = (0..self.classes.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(self.classes[i].size()));
        for &i in &order {
            let size = self.classes[i].size();
            let mut nim = Vec::with_capacity(size + 1);
            for k in 0..=size {
                let mut vals: Vec<u32> = Vec::new();
                if k > 0 {
                    vals.push(nim[k - 1]);
                }
                if self.achievement && self.classes[i].ends {
                    vals.push(0);
                }
                for &j in &self.classes[i].options {
                    let c = &self.classes[j];
                    vals.push(c.nim[k + c.size() - size - 1]);
                }
                nim.push(crate::game::mex(vals));
            }
            self.classes[i].nim = nim;
        }
    }

    /// The nim-value of the start ∅.
    pub fn start_nim(&self) -> u32 {
        match self.start {
            Some(c) => *self.classes[c].nim.last().unwrap_or(&0),
            None => 0,
        }
    }

    /// The class of a position and its k, `None` when P is illegal.
    pub fn locate(&self, p: &Set) -> Option<(usize, usize)> {
        let mut mask = Set::with_capacity(self.facets.len());
        mask.insert_range(..);
        for x in p.ones() {
            mask.intersect_with(&self.col[x]);
        }
        if mask.is_clear() {
            return None;
        }
        let c = self.class_of_members(&mask);
        let i = self.classes.iter().position(|k| k.set == c.set)?;
        Some((i, c.set.count_ones(..) - p.count_ones(..)))
    }

    /// nim of any position: 0 when illegal (terminal); `None` for a legal position whose
    /// class is not reachable from ∅ (not a position of the game from the start).
    pub fn nim(&self, p: &Set) -> Option<u32> {
        let mut mask = Set::with_capacity(self.facets.len());
        mask.insert_range(..);
        for x in p.ones() {
            mask.intersect_with(&self.col[x]);
        }
        if mask.is_clear() {
            return Some(0);
        }
        let (i, k) = self.locate(p)?;
        Some(self.classes[i].nim[k])
    }

    /// The class types of Ernst–Sieben's diagrams: (parity of |I|, nim(I, k) for k of the
    /// parity of |I| ("even" positions), and for the other parity).
    pub fn parity_type(&self, i: usize) -> (usize, u32, u32) {
        let c = &self.classes[i];
        let s = c.size();
        let same = c.nim[s];
        let other = if s > 0 { c.nim[s - 1] } else { u32::MAX };
        (s % 2, same, other)
    }
}
