//! Canonical forms of vertex sets for the level solver: a structured form where the graph has
//! one (a dihedral rim and blocks of twins, as in cycles and wheels), the generic least image
//! under the stored automorphisms otherwise.
//!
//! Soundness needs only that the canonical form of a set is the image of that set under an
//! automorphism of the graph that fixes the start (then equal forms mean equal nim-values).
//! The structured form is built from generators that are each *verified* to be such an
//! automorphism (rotation and reflection of the rim, transpositions inside a twin block), so
//! every element of the group they generate is one too. For C_n and W_n the structured form is
//! the least image under the whole automorphism group, computed with shifts instead of the
//! |Aut| table lookups per set of the generic form.

use crate::game::removing::RemovingGame;
use crate::graph::Graph;

/// How canonical forms are computed.
#[derive(Clone, Debug)]
pub enum Canon {
    /// Least image under the automorphisms stored in the game's `Symmetry`.
    Generic,
    /// Blocks of twins (sorted to their lowest bits) and a dihedral rim (least rotation or
    /// reflection); all other vertices fixed.
    Structured {
        /// `(first bit, length)` of each block of pairwise twins, disjoint from the start.
        blocks: Vec<(u32, u32)>,
        /// `(first bit, length)` of the rim: bit `a + i` is adjacent to `a + (i + 1) % m`.
        rim: Option<(u32, u32)>,
        /// Order of the group generated.
        order: f64,
    },
}

fn low(m: u32) -> u64 {
    if m >= 64 {
        u64::MAX
    } else {
        (1u64 << m) - 1
    }
}

/// Applies a vertex map (a permutation of 0..n) to a set.
fn apply(map: &[usize], s: u64) -> u64 {
    crate::graph::bits(s).fold(0, |acc, v| acc | 1 << map[v])
}

/// `map` is an automorphism of `g` that maps `start` onto itself.
fn is_automorphism(g: &Graph, map: &[usize], start: u64) -> bool {
    if apply(map, start) != start {
        return false;
    }
    (0..g.n()).all(|v| apply(map, g.adj(v)) == g.adj(map[v]))
}

fn rim_generators(n: usize, a: usize, m: usize) -> (Vec<usize>, Vec<usize>) {
    let mut rot: Vec<usize> = (0..n).collect();
    let mut refl: Vec<usize> = (0..n).collect();
    for i in 0..m {
        rot[a + i] = a + (i + 1) % m;
        refl[a + i] = a + (m - i) % m;
    }
    (rot, refl)
}

fn swap_map(n: usize, u: usize, v: usize) -> Vec<usize> {
    let mut map: Vec<usize> = (0..n).collect();
    map.swap(u, v);
    map
}

fn factorial(k: u32) -> f64 {
    (1..=k).map(f64::from).product()
}

impl Canon {
    /// The structured form when the graph has a verified rim or twin block whose group is at
    /// least as large as the automorphisms the game stores; the generic form otherwise.
    pub fn for_game(game: &RemovingGame) -> Canon {
        let g = game.graph();
        let n = g.n();
        let start = game.start_set();
        if n < 3 {
            return Canon::Generic;
        }
        // Blocks of twins: maximal runs of consecutive vertices, outside the start, each
        // adjacent pair of which may be swapped.
        let mut blocks = Vec::new();
        let mut i = 0;
        while i < n {
            let mut j = i;
            while j + 1 < n && is_automorphism(g, &swap_map(n, j, j + 1), start) {
                j += 1;
            }
            if j > i {
                blocks.push((i as u32, (j - i + 1) as u32));
            }
            i = j + 1;
        }
        let in_block = |v: usize| {
            blocks
                .iter()
                .any(|&(a, m)| (a as usize..(a + m) as usize).contains(&v))
        };
        // A rim: the longest contiguous range, outside every block, with verified rotation and
        // reflection.
        let mut rim = None;
        'search: for m in (3..=n).rev() {
            for a in 0..=n - m {
                if (a..a + m).any(in_block) {
                    continue;
                }
                let (rot, refl) = rim_generators(n, a, m);
                if is_automorphism(g, &rot, start) && is_automorphism(g, &refl, start) {
                    rim = Some((a as u32, m as u32));
                    break 'search;
                }
            }
            // Long rims are what pays; stop looking below a third of the graph.
            if m * 3 < n {
                break;
            }
        }
        let order = blocks.iter().map(|&(_, m)| factorial(m)).product::<f64>()
            * rim.map_or(1.0, |(_, m)| 2.0 * m as f64);
        let sym = game.symmetry();
        let stored = sym.len() as f64;
        if order < 2.0 || (sym.is_complete() && order < stored) {
            return Canon::Generic;
        }
        Canon::Structured { blocks, rim, order }
    }

    /// Name of the form, for statistics.
    pub fn describe(&self) -> String {
        match self {
            Canon::Generic => "automorphism table".to_string(),
            Canon::Structured { blocks, rim, order } => {
                let mut parts = Vec::new();
                if let Some((_, m)) = rim {
                    parts.push(format!("dihedral rim of {m}"));
                }
                for (_, m) in blocks {
                    parts.push(format!("twin block of {m}"));
                }
                format!("{} (group order {order})", parts.join(", "))
            }
        }
    }

    /// The canonical form of `s`.
    #[inline]
    pub fn canonical(&self, game: &RemovingGame, s: u64) -> u64 {
        match self {
            Canon::Generic => game.symmetry().canonical(s),
            Canon::Structured { blocks, rim, .. } => {
                let mut out = s;
                for &(a, m) in blocks {
                    let mask = low(m) << a;
                    let k = (s & mask).count_ones();
                    out = (out & !mask) | (low(k) << a);
                }
                if let Some((a, m)) = *rim {
                    let mask = low(m) << a;
                    let r = least_dihedral((s >> a) & low(m), m);
                    out = (out & !mask) | (r << a);
                }
                out
            }
        }
    }
}

/// Least image of the `m`-bit word `x` under rotations and reflections.
#[inline]
pub fn least_dihedral(x: u64, m: u32) -> u64 {
    let full = low(m);
    let rot = |y: u64, k: u32| ((y >> k) | (y << (m - k))) & full;
    let y = x.reverse_bits() >> (64 - m);
    let mut best = x.min(y);
    for k in 1..m {
        best = best.min(rot(x, k)).min(rot(y, k));
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::removing::Rule;
    use crate::graph::{families as fam, Closure};

    fn game(g: Graph, start: u64) -> RemovingGame {
        RemovingGame::new(Rule::Ter, g, Closure::Hull, start).unwrap()
    }

    #[test]
    fn structured_forms_are_found_for_cycles_and_wheels() {
        let c = game(fam::cycle(9).unwrap(), 0);
        assert!(
            matches!(Canon::for_game(&c), Canon::Structured { rim: Some((0, 9)), order, .. } if order == 18.0)
        );
        let w = game(fam::wheel(10).unwrap(), 0);
        assert!(matches!(
            Canon::for_game(&w),
            Canon::Structured {
                rim: Some((0, 9)),
                ..
            }
        ));
        let gw = game(fam::gen_wheel(4, 12).unwrap(), 0);
        match Canon::for_game(&gw) {
            Canon::Structured { blocks, rim, order } => {
                assert_eq!(blocks, vec![(0, 4)]);
                assert_eq!(rim, Some((4, 12)));
                assert_eq!(order, 24.0 * 24.0);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn structured_forms_equal_least_images_under_the_whole_group() {
        for (g, start) in [
            (fam::cycle(9).unwrap(), 0),
            (fam::wheel(8).unwrap(), 0),
            (fam::gen_wheel(2, 5).unwrap(), 0),
            (fam::gen_wheel(3, 6).unwrap(), 0),
        ] {
            let gm = game(g, start);
            let canon = Canon::for_game(&gm);
            assert!(matches!(canon, Canon::Structured { .. }), "{}", gm.name());
            assert!(gm.symmetry().is_complete());
            for s in 0..1u64 << gm.graph().n() {
                assert_eq!(
                    canon.canonical(&gm, s),
                    gm.symmetry().canonical(s),
                    "{} {s:b}",
                    gm.name()
                );
            }
        }
    }

    #[test]
    fn graphs_without_structure_use_the_table() {
        let p = game(fam::path(5).unwrap(), 0);
        assert!(matches!(Canon::for_game(&p), Canon::Generic));
        // A start on the rim breaks the rotations: the stored automorphisms fixing it are used.
        let c = game(fam::cycle(9).unwrap(), 1);
        assert!(matches!(Canon::for_game(&c), Canon::Generic));
    }
}
