//! Closure games solved up to the structure's automorphisms (method `symmetry-classes`): when
//! whether a set generates depends only on its counts per part ([`Counted`], e.g. the complete
//! multipartite graphs K_{n1,…,nk}, src/game/closure/multipartite.rs), two positions with the
//! same counts — up to permuting parts of one class — are mapped to each other by an
//! automorphism of the structure, which preserves legality and options, so they have the same
//! nim-value. The positions up to symmetry are the count vectors c (selected elements per
//! part), sorted within each class; a move adds 1 to one c_i < n_i. Legal: building, the
//! selection does not generate; removing, the unselected elements (counts n − c) generate.
//! Achievement games (GEN, TER) may move to an illegal position, terminal with value 0;
//! avoidance games (DNG, DNT) may not.
//!
//! The count vectors number Π over classes of C(m + n, m) (m parts of size n): 176,851 for
//! K_{100,100,100} against 2^300 subsets; the solve is refused beforehand when that exceeds
//! the guard's position limit, and stopped by the guard's monitor while it runs. It explodes
//! when the parts are many and of distinct sizes: K_{1,2,…,20} has 21! ≈ 5·10^19 count
//! vectors (docs/closure-games.md).

use super::guard::{Monitor, Refusal};
use crate::game::closure::{Counted, Direction, Goal};
use rustc_hash::FxHashMap;

/// Bytes per stored count vector: a 16-byte key and its value in the hash map with its spare
/// capacity, and the DFS stack (measured: K_{300,300,300}, 4.6 million vectors, in 0.4 GB
/// with vector keys, the fallback; packed keys take less).
pub const SYMMETRIC_BYTES: f64 = 100.0;

/// Count vectors up to symmetry: Π over classes of multisets of m counts in 0..=n.
pub fn estimate(c: &dyn Counted) -> f64 {
    let mut classes: FxHashMap<u64, (u64, u64)> = FxHashMap::default();
    for (i, &n) in c.parts().iter().enumerate() {
        let e = classes.entry(c.part_class(i)).or_insert((n as u64, 0));
        e.1 += 1;
    }
    classes
        .values()
        .map(|&(n, m)| {
            // C(m + n, m) as a float: multisets of size m from n + 1 values.
            (1..=m).fold(1.0f64, |a, j| a * (n + j) as f64 / j as f64)
        })
        .product()
}

/// The nim-value of the start and the count vectors stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solved {
    pub nim: u32,
    pub states: u64,
}

/// Solves the game from the empty selection, the guard's `monitor` consulted as it runs.
pub fn solve(
    c: &dyn Counted,
    direction: Direction,
    goal: Goal,
    monitor: &Monitor,
) -> Result<Solved, Refusal> {
    // A count vector packed into one u128 (mixed radix n_i + 1) when it fits, else the
    // vector itself (many parts: 200 parts of one vertex have 201 vectors but 2^200 codes).
    let radix: f64 = c.parts().iter().map(|&n| (n as f64 + 1.0).log2()).sum();
    if radix < 127.0 {
        let parts = c.parts().to_vec();
        solve_keyed(c, direction, goal, monitor, |s: &[u32], order: &[usize]| {
            order
                .iter()
                .zip(s)
                .fold(0u128, |a, (&i, &x)| a * (parts[i] as u128 + 1) + x as u128)
        })
    } else {
        solve_keyed(c, direction, goal, monitor, |s: &[u32], _: &[usize]| {
            s.to_vec()
        })
    }
}

fn solve_keyed<K: std::hash::Hash + Eq>(
    c: &dyn Counted,
    direction: Direction,
    goal: Goal,
    monitor: &Monitor,
    key: impl Fn(&[u32], &[usize]) -> K,
) -> Result<Solved, Refusal> {
    let n = c.parts();
    let k = n.len();
    // Parts reordered so that each class is a contiguous run; counts are sorted within runs.
    let mut order: Vec<usize> = (0..k).collect();
    order.sort_by_key(|&i| (c.part_class(i), i));
    let size: Vec<u32> = order.iter().map(|&i| n[i]).collect();
    let class: Vec<u64> = order.iter().map(|&i| c.part_class(i)).collect();
    let mut counts = vec![0u32; k];
    let mut legal = |s: &[u32]| -> bool {
        for (j, &i) in order.iter().enumerate() {
            counts[i] = match direction {
                Direction::Building => s[j],
                Direction::Removing => size[j] - s[j],
            };
        }
        let g = c.generates_counts(&counts);
        match direction {
            Direction::Building => !g,
            Direction::Removing => g,
        }
    };
    let start = vec![0u32; k];
    if !legal(&start) {
        return Ok(Solved { nim: 0, states: 0 });
    }
    let mut memo: FxHashMap<K, u32> = FxHashMap::default();
    let mut stack = vec![start.clone()];
    let mut vals: Vec<u32> = Vec::new();
    let mut missing: Vec<Vec<u32>> = Vec::new();
    while let Some(top) = stack.last().cloned() {
        let top_key = key(&top, &order);
        if memo.contains_key(&top_key) {
            stack.pop();
            continue;
        }
        vals.clear();
        missing.clear();
        for j in 0..k {
            // One option per run of equal counts within a class: raise the last of the run,
            // which keeps the run sorted.
            let last_of_run = j + 1 == k || class[j + 1] != class[j] || top[j + 1] != top[j];
            if !last_of_run || top[j] >= size[j] {
                continue;
            }
            let mut o = top.clone();
            o[j] += 1;
            if !legal(&o) {
                if goal == Goal::Achievement {
                    vals.push(0);
                }
                continue;
            }
            match memo.get(&key(&o, &order)) {
                Some(&v) => vals.push(v),
                None => missing.push(o),
            }
        }
        if missing.is_empty() {
            let v = crate::game::mex(vals.iter().copied());
            stack.pop();
            memo.insert(top_key, v);
            if (memo.len() as u64).is_multiple_of(Monitor::EVERY) {
                monitor.check(memo.len() as u64)?;
            }
        } else {
            stack.append(&mut missing);
        }
    }
    Ok(Solved {
        nim: memo[&key(&start, &order)],
        states: memo.len() as u64,
    })
}
