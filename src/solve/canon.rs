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
    /// The hypercube Q_d (vertex x adjacent to x ^ 2^i), d <= 5, started at ∅: the least image
    /// over the automorphisms x ↦ π(x ⊕ t) with t in an invariant set X(S) of vertices (those
    /// whose distance profile to S is largest), so |X| · d! images instead of 2^d · d!.
    Hypercube {
        d: u32,
        /// `spheres[x * (d + 1) + r]`: vertices at distance r from x.
        spheres: Vec<u64>,
        /// The d! coordinate permutations, as vertex permutations.
        perms: Vec<crate::graph::symmetry::Perm>,
    },
}

/// Translation of a set of hypercube vertices by `t` (x ↦ x ⊕ t), by butterfly swaps.
#[inline]
fn translate(mut s: u64, t: u64, d: u32) -> u64 {
    const M: [u64; 6] = [
        0x5555_5555_5555_5555,
        0x3333_3333_3333_3333,
        0x0F0F_0F0F_0F0F_0F0F,
        0x00FF_00FF_00FF_00FF,
        0x0000_FFFF_0000_FFFF,
        0x0000_0000_FFFF_FFFF,
    ];
    for (j, &m) in M.iter().enumerate().take(d as usize) {
        if t >> j & 1 == 1 {
            let k = 1u32 << j;
            s = ((s >> k) & m) | ((s & m) << k);
        }
    }
    s
}

fn permutations(d: usize) -> Vec<Vec<usize>> {
    if d == 0 {
        return vec![vec![]];
    }
    let mut out = Vec::new();
    for p in permutations(d - 1) {
        for i in 0..=p.len() {
            let mut q = p.clone();
            q.insert(i, d - 1);
            out.push(q);
        }
    }
    out
}

fn hypercube(game: &RemovingGame) -> Option<Canon> {
    let g = game.graph();
    let n = g.n();
    if !n.is_power_of_two() || !(4..=32).contains(&n) || game.start_set() != 0 {
        return None;
    }
    let d = n.trailing_zeros();
    let is_cube = (0..n).all(|x| g.adj(x) == (0..d).fold(0u64, |m, i| m | 1 << (x ^ 1 << i)));
    if !is_cube {
        return None;
    }
    let mut spheres = vec![0u64; n * (d as usize + 1)];
    for x in 0..n {
        for y in 0..n {
            let r = (x ^ y).count_ones() as usize;
            spheres[x * (d as usize + 1) + r] |= 1 << y;
        }
    }
    let perms = permutations(d as usize)
        .into_iter()
        .map(|pi| {
            let map: Vec<usize> = (0..n)
                .map(|x| (0..d as usize).fold(0, |y, i| y | (x >> i & 1) << pi[i]))
                .collect();
            crate::graph::symmetry::Perm::new(map)
        })
        .collect();
    Some(Canon::Hypercube { d, spheres, perms })
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
        if let Some(c) = hypercube(game) {
            return c;
        }
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
            Canon::Hypercube { d, perms, .. } => {
                format!("hypercube Q_{d} (group order {})", perms.len() << d)
            }
        }
    }

    /// Order of the group whose orbits the form identifies.
    pub fn order(&self) -> Option<f64> {
        match self {
            Canon::Generic => None,
            Canon::Structured { order, .. } => Some(*order),
            Canon::Hypercube { d, perms, .. } => Some((perms.len() << d) as f64),
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
            Canon::Hypercube { d, spheres, perms } => {
                if s == 0 {
                    return 0;
                }
                let n = 1usize << d;
                let w = *d as usize + 1;
                // Distance profile of each vertex to S, as base-64 digits (an invariant).
                let profile = |x: usize| {
                    spheres[x * w..(x + 1) * w]
                        .iter()
                        .fold(0u64, |k, &sp| k << 6 | u64::from((sp & s).count_ones()))
                };
                let mut top = 0u64;
                let mut xs = 0u64;
                for x in 0..n {
                    let k = profile(x);
                    if k > top {
                        top = k;
                        xs = 1 << x;
                    } else if k == top {
                        xs |= 1 << x;
                    }
                }
                let mut best = u64::MAX;
                for x in crate::graph::bits(xs) {
                    let t = translate(s, x as u64, *d);
                    for p in perms {
                        best = best.min(p.apply(t));
                    }
                }
                best
            }
        }
    }
}

/// Least image of the `m`-bit word `x` under rotations and reflections: the inner loop of the
/// level solver on cycles and wheels.
///
/// The definition (all 2m images) vectorises well: on a processor with AVX-512 or AVX2 it runs
/// in a copy compiled for those instructions (chosen at run time, so the binary stays
/// portable: 9 ns a word of 37 bits here, against 36 ns for plain x86-64); elsewhere the
/// scalar [`least_dihedral_by_runs`] (21 ns) is used. Both are tested against each other.
#[inline]
pub fn least_dihedral(x: u64, m: u32) -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512vl")
        {
            // SAFETY: the features the copy was compiled for are present.
            return unsafe { least_dihedral_avx512(x, m) };
        }
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: as above.
            return unsafe { least_dihedral_avx2(x, m) };
        }
    }
    least_dihedral_by_runs(x, m)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vl")]
unsafe fn least_dihedral_avx512(x: u64, m: u32) -> u64 {
    least_dihedral_by_definition(x, m)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn least_dihedral_avx2(x: u64, m: u32) -> u64 {
    least_dihedral_by_definition(x, m)
}

/// The least of all 2m images.
#[inline(always)]
fn least_dihedral_by_definition(x: u64, m: u32) -> u64 {
    let full = low(m);
    let rot = |y: u64, k: u32| ((y >> k) | (y << (m - k))) & full;
    let y = x.reverse_bits() >> (64 - m);
    let mut best = x.min(y);
    for k in 1..m {
        best = best.min(rot(x, k)).min(rot(y, k));
    }
    best
}

/// The least image without trying them all: it has the most leading zeros, so it puts a
/// longest cyclic run of zeros at the top. Only those rotations, and the reflections that put
/// such a run reversed at the top, are compared.
fn least_dihedral_by_runs(x: u64, m: u32) -> u64 {
    let full = low(m);
    if x == 0 || x == full {
        return x;
    }
    // Rotation right by k: bit i of the result is bit (i + k) mod m of the word.
    let rot = |y: u64, k: u32| {
        if k == 0 {
            y
        } else {
            ((y >> k) | (y << (m - k))) & full
        }
    };
    // A one rotated to the top bit: no run of zeros wraps around.
    let x = rot(x, (x.trailing_zeros() + 1) % m);
    let z = !x & full;
    // `bottoms`: the lowest bit of every run of zeros of the greatest length `len`.
    let mut bottoms = z;
    let mut len = 1;
    loop {
        let longer = bottoms & (z >> len);
        if longer == 0 {
            break;
        }
        bottoms = longer;
        len += 1;
    }
    let mut best = u64::MAX;
    let y = x.reverse_bits() >> (64 - m);
    let mut b = bottoms;
    while b != 0 {
        let s = b.trailing_zeros();
        b &= b - 1;
        // Rotating right by t + 1 puts the top t of the run at the top; in the reflection
        // the bottom s sits at m - 1 - s, and rotating right by m - s puts it at the top.
        let t = s + len - 1;
        best = best.min(rot(x, (t + 1) % m)).min(rot(y, (m - s) % m));
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::removing::Rule;
    use crate::graph::{families as fam, Closure};

    fn game(g: Graph, start: u64) -> RemovingGame {
        RemovingGame::new(Rule::Ter, g, Closure::HULL, start).unwrap()
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
    fn least_dihedral_agrees_with_the_definition() {
        // Every word up to 12 bits, then random words of every length up to 64.
        for m in 1..=12u32 {
            for x in 0..1u64 << m {
                let want = least_dihedral_by_definition(x, m);
                assert_eq!(least_dihedral(x, m), want, "{x:b} {m}");
                assert_eq!(least_dihedral_by_runs(x, m), want, "{x:b} {m}");
            }
        }
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for m in 13..=64u32 {
            for _ in 0..2000 {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                // Sparse, dense and periodic words as well as uniform ones.
                let x = match state % 4 {
                    0 => state,
                    1 => state & (state >> 3) & (state >> 7),
                    2 => state | (state >> 5),
                    _ => 0x1111_1111_1111_1111u64.rotate_left((state >> 60) as u32),
                } & low(m);
                let want = least_dihedral_by_definition(x, m);
                assert_eq!(least_dihedral(x, m), want, "{x:b} {m}");
                assert_eq!(least_dihedral_by_runs(x, m), want, "{x:b} {m}");
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

#[cfg(test)]
mod hypercube_tests {
    use super::*;
    use crate::game::removing::Rule;
    use crate::graph::{families as fam, Closure};

    #[test]
    fn hypercube_forms_are_orbit_invariants_and_images() {
        for d in [3u64, 4] {
            let g =
                RemovingGame::new(Rule::Ter, fam::hypercube(d).unwrap(), Closure::HULL, 0).unwrap();
            let canon = Canon::for_game(&g);
            assert!(matches!(canon, Canon::Hypercube { .. }), "Q_{d}");
            assert_eq!(canon.order(), Some(if d == 3 { 48.0 } else { 384.0 }));
            let sym = g.symmetry();
            assert!(sym.is_complete());
            let n = 1u64 << d;
            let step = if d == 3 { 1 } else { 97 };
            for s in (0..1u64 << n).step_by(step) {
                let c = canon.canonical(&g, s);
                // An image of s under an automorphism...
                assert!(sym.perms().iter().any(|p| p.apply(s) == c), "Q_{d} {s:b}");
                // ...and the same for every set of the orbit.
                for p in sym.perms().iter().take(12) {
                    assert_eq!(canon.canonical(&g, p.apply(s)), c, "Q_{d} {s:b}");
                }
            }
        }
    }
}
