//! The parallel exhaustive solver of the removing games TER(G) and DNT(G): level-by-level
//! retrograde analysis over canonical positions ordered by size.
//!
//! Every move of TER and DNT selects one vertex, so the positions reachable from the start S
//! fall into levels by |P| - |S|, and the options of a level-s position lie in level s + 1.
//! The forward pass builds each level as the sorted, deduplicated canonical forms of the
//! options of the level before (in parallel with rayon, in chunks so the temporary option lists
//! stay bounded). The backward pass then gives every position of level s the mex of the values
//! of its options, found by binary search in level s + 1, again in parallel. Each value is a
//! function of the level sets alone, which do not depend on the order the threads produce
//! them in (they are sorted), so the values are identical for every thread count.
//!
//! A level stores 8 bytes per position plus a 4-byte value in the backward pass, several times
//! less than a hash memo. The forward pass checks the position and memory budget after each
//! chunk (see [`super::guard::Monitor`]).

use super::canon::Canon;
use super::guard::{Monitor, Refusal};
use super::progress::Progress;
use super::terminating::Terminating;
use crate::game::mex;
use crate::game::removing::{RemovingGame, Rule};
use crate::graph::bits;
use rayon::prelude::*;
use std::time::Instant;

/// Bytes per position the level solver needs at its peak (set, value, sort buffers, and the
/// lookup index of one level).
pub const BYTES_PER_POSITION: f64 = 32.0;

/// An open-addressing index of a sorted level (slots hold positions in the level): one or two
/// memory reads per lookup where a binary search over millions of positions makes about 20,
/// most of them cache misses. Lookups return exactly what a binary search would.
struct Index {
    slots: Vec<u32>,
    mask: usize,
}

impl Index {
    const EMPTY: u32 = u32::MAX;

    fn new(level: &[u64]) -> Index {
        if level.len() >= (u32::MAX / 4) as usize {
            // Too large for 32-bit slots: `find` falls back to binary search.
            return Index {
                slots: Vec::new(),
                mask: 0,
            };
        }
        let cap = (level.len() * 2).next_power_of_two().max(16);
        let mut slots = vec![Self::EMPTY; cap];
        let mask = cap - 1;
        for (i, &q) in level.iter().enumerate() {
            let mut h = Self::hash(q) & mask;
            while slots[h] != Self::EMPTY {
                h = (h + 1) & mask;
            }
            slots[h] = i as u32;
        }
        Index { slots, mask }
    }

    #[inline]
    fn hash(q: u64) -> usize {
        (q.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 17) as usize
    }

    #[inline]
    fn find(&self, level: &[u64], q: u64) -> Option<usize> {
        if self.slots.is_empty() {
            return level.binary_search(&q).ok();
        }
        let mut h = Self::hash(q) & self.mask;
        loop {
            let i = self.slots[h];
            if i == Self::EMPTY {
                return None;
            }
            if level[i as usize] == q {
                return Some(i as usize);
            }
            h = (h + 1) & self.mask;
        }
    }
}

/// Positions of a level expanded at once (bounds the option lists of the forward pass).
const CHUNK: usize = 1 << 18;

/// Result of a level solve.
#[derive(Clone, Debug)]
pub struct LevelResult {
    pub nim: u32,
    /// Distinct canonical positions (terminal ones included).
    pub positions: u64,
    /// Positions per level, from the start.
    pub level_sizes: Vec<u64>,
    /// The canonical form used.
    pub canon: String,
    pub seconds: f64,
}

/// Solves the start of a removing game. `monitor` bounds positions and memory.
pub fn solve(
    game: &RemovingGame,
    monitor: &Monitor,
    progress: &Progress,
) -> Result<LevelResult, Refusal> {
    let t0 = Instant::now();
    let canon = Canon::for_game(game);
    let term = Terminating::new(game.convexity());
    let full = game.graph().full();
    let rule = game.rule();
    let start = canon.canonical(game, game.start_set());
    let mut levels: Vec<Vec<u64>> = vec![vec![start]];
    // terminal[s][i]: level-s position i has no options (TER: it is terminating).
    let mut total: u64 = 1;
    loop {
        let cur = levels.last().expect("the start level");
        progress.update(levels.len() as u64 - 1, total);
        let mut parts: Vec<Vec<u64>> = Vec::new();
        let mut part_total: u64 = 0;
        for chunk in cur.chunks(CHUNK) {
            let mut next: Vec<u64> = chunk
                .par_iter()
                .flat_map_iter(|&p| {
                    let free = if rule == Rule::Ter && term.terminating(p) {
                        0
                    } else {
                        full & !p
                    };
                    bits(free).map(move |v| p | 1 << v)
                })
                .map(|q| canon.canonical(game, q))
                .collect();
            next.par_sort_unstable();
            next.dedup();
            if rule == Rule::Dnt {
                next = next
                    .into_par_iter()
                    .filter(|&q| !term.terminating(q))
                    .collect();
            }
            part_total += next.len() as u64;
            parts.push(next);
            monitor.check(total + part_total)?;
        }
        let mut next: Vec<u64> = parts.concat();
        drop(parts);
        next.par_sort_unstable();
        next.dedup();
        if next.is_empty() {
            break;
        }
        total += next.len() as u64;
        monitor.check(total)?;
        levels.push(next);
    }
    let level_sizes: Vec<u64> = levels.iter().map(|l| l.len() as u64).collect();
    // Backward: the last level has no options.
    let mut values: Vec<u32> = vec![0; levels.last().map_or(0, Vec::len)];
    for s in (0..levels.len() - 1).rev() {
        progress.update(s as u64, total);
        let (here, above) = levels.split_at(s + 1);
        let here = &here[s];
        let above = &above[0];
        let index = Index::new(above);
        let vals = &values;
        let new: Vec<u32> = here
            .par_iter()
            .map(|&p| {
                if rule == Rule::Ter && term.terminating(p) {
                    return 0;
                }
                mex(bits(full & !p).filter_map(|v| {
                    let q = canon.canonical(game, p | 1 << v);
                    // DNT: a terminating option is no option (and not in the level); TER:
                    // every option is in the level, by the forward pass.
                    index.find(above, q).map(|i| vals[i])
                }))
            })
            .collect();
        values = new;
        levels.truncate(s + 1);
    }
    Ok(LevelResult {
        nim: values[0],
        positions: total,
        level_sizes,
        canon: canon.describe(),
        seconds: t0.elapsed().as_secs_f64(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::removing::Rule;
    use crate::graph::{families as fam, Closure};
    use crate::solve::Solver;

    fn both(rule: Rule, g: crate::graph::Graph, start: u64) -> (u32, u32, u64, u64) {
        let game = RemovingGame::new(rule, g, Closure::HULL, start).unwrap();
        let r = solve(&game, &Monitor::unlimited(game.name()), &Progress::hidden()).unwrap();
        let mut s = Solver::new(&game);
        let v = s.nim_of_start();
        (r.nim, v, r.positions, s.stats().positions)
    }

    #[test]
    fn agrees_with_the_memo_solver() {
        for g in [
            fam::cycle(9).unwrap(),
            fam::cycle(12).unwrap(),
            fam::wheel(9).unwrap(),
            fam::wheel(14).unwrap(),
            fam::kite(),
            fam::gen_wheel(2, 6).unwrap(),
            fam::hypercube(3).unwrap(),
            fam::path(7).unwrap(),
            fam::complete(5).unwrap(),
        ] {
            for rule in [Rule::Ter, Rule::Dnt] {
                let (a, b, pa, pb) = both(rule, g.clone(), 0);
                assert_eq!(a, b, "{rule}({})", g.name());
                // Same canonical positions: both use least images under the whole group.
                assert_eq!(pa, pb, "{rule}({}) positions", g.name());
            }
        }
        // Started games (the start fixes part of the rim's symmetry).
        for start in [1, 0b101, 1 << 9] {
            let (a, b, pa, pb) = both(Rule::Dnt, fam::wheel(10).unwrap(), start);
            assert_eq!((a, pa), (b, pb), "start {start:b}");
        }
    }

    #[test]
    fn the_index_finds_what_binary_search_finds() {
        let level: Vec<u64> = (0..5000u64).map(|i| i * i * 7 + (i & 3)).collect();
        let index = Index::new(&level);
        for q in 0..200_000u64 {
            assert_eq!(index.find(&level, q), level.binary_search(&q).ok(), "{q}");
        }
        assert_eq!(Index::new(&[]).find(&[], 5), None);
    }

    #[test]
    fn values_do_not_depend_on_the_thread_count() {
        let game = RemovingGame::new(Rule::Dnt, fam::wheel(22).unwrap(), Closure::HULL, 0).unwrap();
        let run = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| {
                solve(&game, &Monitor::unlimited(game.name()), &Progress::hidden()).unwrap()
            })
        };
        let (one, two) = (run(1), run(2));
        assert_eq!(one.nim, two.nim);
        assert_eq!(one.level_sizes, two.level_sizes);
    }

    #[test]
    fn the_monitor_stops_a_solve_past_its_position_limit() {
        let game = RemovingGame::new(Rule::Ter, fam::cycle(15).unwrap(), Closure::HULL, 0).unwrap();
        let mut m = Monitor::unlimited(game.name());
        m.max_positions = 100;
        let r = solve(&game, &m, &Progress::hidden()).unwrap_err();
        assert!(r.during);
    }
}
