//! The laws a move game spec may declare about its rule (docs/user-games.md, "Declared
//! laws"): `components: true`, the game at a position is the disjoint sum of the games at its
//! components (the components of the subgraph a vertex set induces, or of an edge set with
//! edges joined when they share an end), and `symmetric: true`, the rule commutes with the
//! graph's automorphisms (those fixing the start). With them the solver memoises components
//! up to symmetry ([`crate::game::Game::components`], [`crate::game::Game::canonical`]), as the
//! built-in Node Kayles does; without them, every position whole.
//!
//! A rule is arbitrary code, so neither law can be proved here: each is checked, when the game
//! is read, at every position of [`PLAYS`] random plays from the start (a seeded generator:
//! the same positions every run). A law that fails there is exit 2 with the position and the
//! option that tell it; one that holds there is used, and the verdict says it rests on it.
//! grundy-verify does not use symmetry at all, and checks the sum law again at every option it
//! splits (verify/src/games/user.rs).

use crate::graph::symmetry::{Perm, Symmetry};
use crate::graph::Graph;
use rustc_hash::{FxHashMap, FxHashSet};

/// Random plays from the start along which the declared laws are checked.
pub const PLAYS: usize = 12;
/// Longest play checked: a rule whose options lead back to a position would otherwise play
/// forever here (the exploration that follows reports the cycle, exit 2).
const MAX_PLAY: usize = 1000;
/// Automorphisms tried per checked position (chosen at random from the group).
const PERMS_PER_POSITION: usize = 1;

/// What a move game on a graph declares, prepared for its positions' bit space (vertices, or
/// edges in the contract's order).
pub struct Laws {
    /// With `components: true`: per bit, the bits it touches (adjacent vertices; edges sharing
    /// an end).
    touch: Option<Vec<u64>>,
    /// With `symmetric: true`: automorphisms (fixing the start) acting on bits, identity first,
    /// and their inverses; only the identity otherwise.
    perms: Vec<Perm>,
    inverse: Vec<Perm>,
}

impl Laws {
    /// `ends`: the edges in the contract's order, when positions are edge sets.
    pub fn new(
        g: &Graph,
        ends: Option<&[(usize, usize)]>,
        start: u64,
        components: bool,
        symmetric: bool,
    ) -> Laws {
        let n = g.n();
        let touch = components.then(|| match ends {
            None => (0..n).map(|v| g.adj(v)).collect(),
            Some(ends) => ends
                .iter()
                .map(|&(a, b)| {
                    ends.iter()
                        .enumerate()
                        .filter(|(_, &(c, d))| {
                            (a, b) != (c, d) && (a == c || a == d || b == c || b == d)
                        })
                        .fold(0u64, |m, (i, _)| m | 1 << i)
                })
                .collect(),
        });
        let size = ends.map_or(n, <[_]>::len);
        let mut perms = vec![Perm::new((0..size).collect())];
        if symmetric {
            // Vertex automorphisms; an incomplete set (the group past the cap) would give
            // canonical forms that differ between images of one position, so then none.
            let sym = Symmetry::of_graph(g, if ends.is_none() { start } else { 0 });
            if sym.is_complete() {
                for p in sym.perms().iter().skip(1) {
                    let q = match ends {
                        None => p.clone(),
                        Some(ends) => {
                            let index: FxHashMap<(usize, usize), usize> =
                                ends.iter().enumerate().map(|(i, &e)| (e, i)).collect();
                            Perm::new(
                                ends.iter()
                                    .map(|&(a, b)| {
                                        let (x, y) = (p.map[a], p.map[b]);
                                        index[&(x.min(y), x.max(y))]
                                    })
                                    .collect(),
                            )
                        }
                    };
                    if q.apply(start) == start {
                        perms.push(q);
                    }
                }
            }
        }
        let inverse = perms
            .iter()
            .map(|p| {
                let mut inv = vec![0; p.map.len()];
                for (i, &j) in p.map.iter().enumerate() {
                    inv[j] = i;
                }
                Perm::new(inv)
            })
            .collect();
        Laws {
            touch,
            perms,
            inverse,
        }
    }

    /// The automorphisms used beyond the identity.
    pub fn symmetries(&self) -> usize {
        self.perms.len() - 1
    }

    /// The least image of `p`, and the index of an automorphism giving it.
    pub fn canonical_with(&self, p: u64) -> (u64, usize) {
        let mut best = (p, 0);
        for (i, s) in self.perms.iter().enumerate().skip(1) {
            let q = s.apply(p);
            if q < best.0 {
                best = (q, i);
            }
        }
        best
    }

    pub fn canonical(&self, p: u64) -> u64 {
        self.canonical_with(p).0
    }

    /// The components of `p`, least bit first; empty when `p` is one (or none declared).
    pub fn components(&self, p: u64) -> Vec<u64> {
        let Some(touch) = &self.touch else {
            return Vec::new();
        };
        let mut parts = crate::graph::mask_components(p, |b| touch[b]);
        if parts.len() < 2 {
            parts.clear();
        }
        parts
    }

    /// The options of `p` by the laws, from the options of positions explored: each component
    /// (or `p` whole) found as an explored position or as an automorphic image of one.
    /// `None` when some part is neither.
    pub fn derive(&self, p: u64, explored: &FxHashMap<u64, Box<[u64]>>) -> Option<Vec<u64>> {
        let split = self.components(p);
        let parts = if split.is_empty() { vec![p] } else { split };
        let mut out = Vec::new();
        for q in parts {
            let rest = p & !q;
            match explored.get(&q) {
                Some(o) => out.extend(o.iter().map(|&o| rest | o)),
                None => {
                    let (c, i) = self.canonical_with(q);
                    let o = explored.get(&c)?;
                    out.extend(o.iter().map(|&o| rest | self.inverse[i].apply(o)));
                }
            }
        }
        Some(out)
    }

    /// Checks the declared laws at every position of [`PLAYS`] random plays from `start`
    /// (seeded by `seed`), with `rule` the options rule; the number of positions checked, or
    /// what fails, in words, with `show` writing positions.
    pub fn check(
        &self,
        start: u64,
        seed: u64,
        rule: &mut dyn FnMut(u64) -> Result<Vec<u64>, String>,
        show: &dyn Fn(u64) -> String,
    ) -> Result<usize, String> {
        let mut rng = SplitMix(seed);
        let mut checked = 0;
        // Plays meet the start, and components recur: each position's rule is run once.
        let mut seen: FxHashMap<u64, Vec<u64>> = FxHashMap::default();
        let mut cached = |p: u64| -> Result<Vec<u64>, String> {
            if let Some(o) = seen.get(&p) {
                return Ok(o.clone());
            }
            let o = rule(p)?;
            seen.insert(p, o.clone());
            Ok(o)
        };
        let rule = &mut cached;
        for _ in 0..PLAYS {
            let mut p = start;
            for _ in 0..MAX_PLAY {
                let opts = rule(p)?;
                self.check_at(p, &opts, rule, show, &mut rng)?;
                checked += 1;
                if opts.is_empty() {
                    break;
                }
                p = opts[rng.below(opts.len())];
            }
        }
        Ok(checked)
    }

    fn check_at(
        &self,
        p: u64,
        opts: &[u64],
        rule: &mut dyn FnMut(u64) -> Result<Vec<u64>, String>,
        show: &dyn Fn(u64) -> String,
        rng: &mut SplitMix,
    ) -> Result<(), String> {
        let whole: FxHashSet<u64> = opts.iter().copied().collect();
        let parts = self.components(p);
        if !parts.is_empty() {
            let mut summed = FxHashSet::default();
            for &q in &parts {
                for o in rule(q)? {
                    if o & !q != 0 {
                        return Err(format!(
                            "`components: true` is declared, but at the component {} of the position {} the rule gives the option {}, which is not within the component",
                            show(q), show(p), show(o)
                        ));
                    }
                    summed.insert((p & !q) | o);
                }
            }
            if let Some(&o) = whole.iter().filter(|o| !summed.contains(o)).min() {
                return Err(format!(
                    "`components: true` is declared, but at the position {} the rule gives the option {}, which is no move in one of its components {}",
                    show(p), show(o), parts.iter().map(|&q| show(q)).collect::<Vec<_>>().join(", ")
                ));
            }
            if let Some(&o) = summed.iter().filter(|o| !whole.contains(o)).min() {
                return Err(format!(
                    "`components: true` is declared, but at the position {} the rule does not give {}, a move in one of its components {}",
                    show(p), show(o), parts.iter().map(|&q| show(q)).collect::<Vec<_>>().join(", ")
                ));
            }
        }
        for _ in 0..PERMS_PER_POSITION.min(self.perms.len() - 1) {
            let s = &self.perms[1 + rng.below(self.perms.len() - 1)];
            let image = s.apply(p);
            let mapped: FxHashSet<u64> = opts.iter().map(|&o| s.apply(o)).collect();
            let there: FxHashSet<u64> = rule(image)?.into_iter().collect();
            if let Some(&o) = mapped.iter().filter(|o| !there.contains(o)).min() {
                return Err(format!(
                    "`symmetric: true` is declared, but the automorphism {} maps the position {} to {} and its option to {}, which the rule does not give at {}",
                    mapping(s, show), show(p), show(image), show(o), show(image)
                ));
            }
            if let Some(&o) = there.iter().filter(|o| !mapped.contains(o)).min() {
                return Err(format!(
                    "`symmetric: true` is declared, but the automorphism {} maps the position {} to {}, where the rule gives {}, the image of no option of {}",
                    mapping(s, show), show(p), show(image), show(o), show(p)
                ));
            }
        }
        Ok(())
    }
}

/// An automorphism in words: each element it moves, and where, as `show` names singletons.
fn mapping(s: &Perm, show: &dyn Fn(u64) -> String) -> String {
    let name = |i: usize| {
        show(1 << i)
            .trim_matches(|c| c == '{' || c == '}')
            .to_string()
    };
    let moved: Vec<String> = (0..s.map.len())
        .filter(|&i| s.map[i] != i)
        .map(|i| format!("{} ↦ {}", name(i), name(s.map[i])))
        .collect();
    format!("({})", moved.join(", "))
}

/// SplitMix64: a seeded generator, so that the positions checked are the same every run.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::families as fam;

    #[test]
    fn components_of_vertex_and_edge_sets() {
        let p6 = fam::path(6).unwrap();
        let l = Laws::new(&p6, None, 0b111111, true, false);
        // {0,1} {3} {5}: three components of P_6's vertices.
        assert_eq!(l.components(0b101011), vec![0b11, 0b1000, 0b100000]);
        assert!(l.components(0b111).is_empty());
        // Edges of P_6 are 01,12,23,34,45 = bits 0..4: {01,12} and {34} are two components.
        let ends: Vec<(usize, usize)> = (0..5).map(|i| (i, i + 1)).collect();
        let e = Laws::new(&p6, Some(&ends), 0b11111, true, false);
        assert_eq!(e.components(0b01011), vec![0b011, 0b01000]);
        assert!(e.components(0b00111).is_empty());
    }

    #[test]
    fn canonical_forms_and_their_inverse() {
        let c6 = fam::cycle(6).unwrap();
        let l = Laws::new(&c6, None, 0b111111, false, true);
        assert_eq!(l.symmetries(), 11, "the dihedral group of order 12");
        // Every single vertex has the least image {0}; the inverse maps it back.
        for v in 0..6 {
            let (c, i) = l.canonical_with(1 << v);
            assert_eq!(c, 1);
            assert_eq!(l.inverse[i].apply(c), 1 << v);
        }
        // Without the declaration: the identity only.
        assert_eq!(Laws::new(&c6, None, 0b111111, false, false).symmetries(), 0);
    }
}
