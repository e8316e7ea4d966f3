//! The nim-sequence engine of an octal game: the rare/common ("sparse space") method with the
//! definition as its fallback, and the Guy–Smith period put to use as soon as it is proved.
//!
//! **Rare and common values** (Winning Ways ch. 4, "Sparse space spells speed"; Flammenkamp's
//! sparse positions, where the parity of the position joins the value). Write the *extended
//! value* of a heap `a ≥ 1` as `e(a) = 2·G(a) + (a mod 2)`. A split move that removes `j`
//! tokens from a heap of `n` and leaves `a + b = n − j` gives the option
//! `G(a) ⊕ G(b)`, and `e(a) ⊕ e(b) = 2·(G(a) ⊕ G(b)) + ((n − j) mod 2)`. Split moves are grouped
//! by the parity `D = j mod 2`; for each group the engine keeps a set `C` of *common* extended
//! values with the property
//!
//! > `D ∉ C`, and no `c1, c2, c3 ∈ C` (repetitions allowed) have `c1 ⊕ c2 ⊕ c3 = D`,
//!
//! and calls every other value *rare*. If the candidate value `v` of heap `n` has
//! `e = 2v + (n mod 2)` in `C`, then no split of group `D` into two heaps of common value gives
//! `v` (it would need `e(a) ⊕ e(b) ⊕ e = D`). So the options from pairs with a rare member (few,
//! when the game has a sparse space) and the non-splitting moves decide `v`: if their mex is
//! common in every group, it *is* `G(n)`. Otherwise the pairs are scanned as by the definition,
//! stopping as soon as the candidate is common again or every pair was seen. The split is
//! rebuilt greedily (most frequent values first) when a rare value has become more frequent
//! than a common one. The same idea is the basis of Beling's RC/RC2 methods (`ogsolve`); this
//! is an independent implementation.
//!
//! **Choice of method.** Each heap is computed by whichever is cheaper: pairs with a rare
//! member (plus verification) or every pair. When rare heaps are not rare (0.137, 0.007) the
//! engine runs the definition with a tight loop; it probes the rare/common method from time
//! to time and returns to it when it pays again.
//!
//! **Period.** With `use_period`, the Guy–Smith test ([`super::periodicity_of`]) runs at every
//! power-of-two length from 64 on; once a period is proved, values past it come from the
//! period and the engine stops computing.

use super::{periodicity_of, OctalCode, PeriodProof};

const UNKNOWN: u8 = 0;
const COMMON: u8 = 1;
const RARE: u8 = 2;

/// Counters of what the engine did, for `grundy bench` and tests.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct EngineStats {
    /// Heaps decided by the rare/common method (with or without a verification scan).
    pub rare_common: u64,
    /// Heaps decided by scanning every split (the definition).
    pub definition: u64,
    /// Rebuilds of a rare/common split that were adopted.
    pub rebuilds: u64,
    /// Options looked at (pairs and single moves): the unit of work.
    pub work: u64,
}

/// The rare/common split of the extended values for split moves of one parity `D`.
#[derive(Clone, Debug)]
struct Split {
    d: u32,
    class: Vec<u8>,
    common: Vec<u32>,
    /// Heaps `a ≥ 1` whose extended value is rare, increasing.
    rare_heaps: Vec<u32>,
    next_rebuild: usize,
}

impl Split {
    fn new(d: u32) -> Split {
        let mut s = Split {
            d,
            class: Vec::new(),
            common: Vec::new(),
            rare_heaps: Vec::new(),
            next_rebuild: 0,
        };
        s.set(d, RARE);
        s
    }

    fn class_of(&self, e: u32) -> u8 {
        self.class.get(e as usize).copied().unwrap_or(UNKNOWN)
    }

    fn set(&mut self, e: u32, c: u8) {
        if self.class.len() <= e as usize {
            self.class
                .resize((e as usize + 1).next_power_of_two(), UNKNOWN);
        }
        self.class[e as usize] = c;
        if c == COMMON {
            self.common.push(e);
        }
    }

    /// Whether `x` can join the common set without breaking its defining property.
    fn addable(&self, x: u32) -> bool {
        x != self.d
            && self
                .common
                .iter()
                .all(|&c| self.class_of(x ^ self.d ^ c) != COMMON)
    }

    /// Whether the candidate extended value `e` may come from two common heaps (so the
    /// pairs of this group must be scanned). Classifies `e` as rare when it cannot be common.
    fn needs_scan(&mut self, e: u32) -> bool {
        match self.class_of(e) {
            COMMON => false,
            RARE => true,
            _ => {
                if self.addable(e) {
                    false
                } else {
                    self.set(e, RARE);
                    true
                }
            }
        }
    }

    /// Greedy split, most frequent values first; adopted when it leaves fewer rare heaps.
    fn rebuild(&mut self, counts: &[u64], g: &[u32]) -> bool {
        let mut order: Vec<u32> = (0..counts.len() as u32)
            .filter(|&e| counts[e as usize] > 0)
            .collect();
        order.sort_by(|&a, &b| counts[b as usize].cmp(&counts[a as usize]).then(a.cmp(&b)));
        let mut fresh = Split::new(self.d);
        let mut rare_total = 0u64;
        for e in order {
            if fresh.class_of(e) == RARE || !fresh.addable(e) {
                fresh.set(e, RARE);
                rare_total += counts[e as usize];
            } else {
                fresh.set(e, COMMON);
            }
        }
        if rare_total >= self.rare_heaps.len() as u64 {
            return false;
        }
        fresh.rare_heaps = (1..g.len())
            .filter(|&a| fresh.class_of(ext(g[a], a)) == RARE)
            .map(|a| a as u32)
            .collect();
        fresh.next_rebuild = self.next_rebuild;
        *self = fresh;
        true
    }
}

/// Half-scans at least this long run on two threads.
const PARALLEL_PAIRS: usize = 1 << 17;

/// Marks `g[a] ⊕ g[r − a]` for `lo ≤ a ≤ hi` in `seen` (a power-of-two length above every
/// option, so the mask keeps the index in bounds without a check).
fn mark_pairs<T: Copy + Into<u32>>(
    g: &[T],
    r: usize,
    lo: usize,
    hi: usize,
    seen: &mut [u32],
    s: u32,
) {
    if lo > hi {
        return;
    }
    let mask = seen.len() - 1;
    let left = &g[lo..=hi];
    let right = &g[r - hi..=r - lo];
    for (x, y) in left.iter().zip(right.iter().rev()) {
        seen[((*x).into() ^ (*y).into()) as usize & mask] = s;
    }
}

fn ext(v: u32, heap: usize) -> u32 {
    2 * v + (heap as u32 & 1)
}

/// Incremental computation of `G(0), G(1), …` of one octal game.
#[derive(Clone, Debug)]
pub struct Engine {
    t: usize,
    take_all: Vec<usize>,
    take: Vec<usize>,
    /// Removals `j` that may leave two heaps, by parity of `j`.
    splits: [Vec<usize>; 2],
    g: Vec<u32>,
    /// `g` again in 16 bits while every value fits: half the memory traffic of the definition.
    g16: Option<Vec<u16>>,
    use_period: bool,
    proof: Option<PeriodProof>,
    next_check: usize,
    counts: Vec<u64>,
    rc: [Split; 2],
    /// `seen[v] == stamp`: `v` is an option of the heap being computed.
    seen: Vec<u32>,
    /// The second thread's table for long scans.
    seen2: Vec<u32>,
    /// Whether long scans may use a second thread.
    parallel: bool,
    stamp: u32,
    /// Running estimate (in 1/1024) of the share of all pairs the verification scan reads.
    verify_share: u64,
    stats: EngineStats,
}

impl Engine {
    /// A fresh engine; with `use_period`, values past a proved period are not computed.
    pub fn new(code: &OctalCode, use_period: bool) -> Engine {
        let t = code.max_removal();
        let mut take_all = Vec::new();
        let mut take = Vec::new();
        let mut splits = [Vec::new(), Vec::new()];
        for j in 0..=t {
            let d = code.digit(j);
            if j > 0 && d & 1 != 0 {
                take_all.push(j);
            }
            if j > 0 && d & 2 != 0 {
                take.push(j);
            }
            if d & 4 != 0 {
                splits[j & 1].push(j);
            }
        }
        Engine {
            t,
            take_all,
            take,
            splits,
            g: Vec::new(),
            g16: Some(Vec::new()),
            use_period,
            proof: None,
            next_check: 64,
            counts: Vec::new(),
            rc: [Split::new(0), Split::new(1)],
            seen: vec![0; 2],
            seen2: Vec::new(),
            parallel: true,
            stamp: 0,
            verify_share: 0,
            stats: EngineStats::default(),
        }
    }

    /// The same engine without a second thread. An engine behind a lock must not call
    /// `rayon::join`: while waiting, the thread may run another task that takes the same lock.
    pub fn sequential(mut self) -> Engine {
        self.parallel = false;
        self
    }

    /// Values computed so far.
    pub fn computed(&self) -> &[u32] {
        &self.g
    }

    pub fn proof(&self) -> Option<&PeriodProof> {
        self.proof.as_ref()
    }

    pub fn stats(&self) -> &EngineStats {
        &self.stats
    }

    /// `G(n)` if it is known without computing: computed, or given by the proved period.
    pub fn known(&self, n: u64) -> Option<u32> {
        if n < self.g.len() as u64 {
            return Some(self.g[n as usize]);
        }
        let p = self.proof.as_ref()?;
        let (pre, per) = (p.preperiod as u64, p.period as u64);
        let idx = if n < pre { n } else { pre + (n - pre) % per };
        self.g.get(idx as usize).copied()
    }

    /// Computes until `len` values are known (or a period is proved, with `use_period`), as
    /// long as the total work stays within `budget`; `false` when the budget ran out first.
    pub fn extend_to(&mut self, len: usize, budget: u64) -> bool {
        while self.g.len() < len {
            if self.use_period && self.proof.is_some() {
                break;
            }
            if self.stats.work > budget {
                return false;
            }
            self.step();
        }
        true
    }

    /// `G(0..len)`, using the proved period where there is one.
    pub fn sequence(&mut self, len: usize) -> Vec<u32> {
        self.extend_to(len, u64::MAX);
        (0..len as u64)
            .map(|n| self.known(n).expect("extended or periodic"))
            .collect()
    }

    fn mark(&mut self, v: u32) {
        let s = self.stamp;
        let mask = self.seen.len() - 1;
        self.seen[v as usize & mask] = s;
    }

    fn mex_from(&self, from: u32) -> u32 {
        let s = self.stamp;
        (from..)
            .find(|&v| self.seen.get(v as usize) != Some(&s))
            .expect("some value is absent")
    }

    /// Computes `G(n)` for `n = self.g.len()`.
    fn step(&mut self) {
        let n = self.g.len();
        self.stamp += 1;
        for i in 0..self.take_all.len() {
            if self.take_all[i] == n {
                self.mark(0);
            }
        }
        for i in 0..self.take.len() {
            let j = self.take[i];
            if n > j {
                self.mark(self.g[n - j]);
            }
        }
        self.stats.work += (self.take.len() + 1) as u64;
        let pairs: u64 = self
            .splits
            .iter()
            .flatten()
            .map(|&j| (n.saturating_sub(j) / 2) as u64)
            .sum();
        let v = if pairs == 0 {
            self.mex_from(0)
        } else {
            let rc_cost: u64 = (0..2)
                .map(|d| (self.splits[d].len() * self.rc[d].rare_heaps.len()) as u64)
                .sum();
            let expected = rc_cost + pairs * self.verify_share / 1024;
            // Probe the rare/common method now and then even when it did not pay lately.
            let probe = n.is_multiple_of(64) && rc_cost * 2 < pairs;
            if expected * 10 < pairs * 8 || probe {
                self.stats.rare_common += 1;
                self.rare_common(n, pairs)
            } else {
                self.stats.definition += 1;
                self.all_pairs(n);
                self.stats.work += pairs;
                self.mex_from(0)
            }
        };
        self.push(v);
    }

    /// Marks every split option of heap `n` (the definition's inner loop). Long scans are
    /// split between two threads, each marking its own table; the union is the same set
    /// whatever the thread count.
    fn all_pairs(&mut self, n: usize) {
        let s = self.stamp;
        let len = self.seen.len();
        if self.seen2.len() < len {
            self.seen2.resize(len, 0);
        }
        let mut split_used = false;
        for d in 0..2 {
            for &j in &self.splits[d] {
                if n < j + 2 {
                    continue;
                }
                let r = n - j;
                let h = r / 2;
                let seen = &mut self.seen[..len];
                let seen2 = &mut self.seen2[..len];
                if self.parallel && h >= PARALLEL_PAIRS && rayon::current_num_threads() > 1 {
                    split_used = true;
                    let mid = h / 2;
                    match &self.g16 {
                        Some(g) => {
                            rayon::join(
                                || mark_pairs(g, r, 1, mid, seen, s),
                                || mark_pairs(g, r, mid + 1, h, seen2, s),
                            );
                        }
                        None => {
                            let g = &self.g;
                            rayon::join(
                                || mark_pairs(g, r, 1, mid, seen, s),
                                || mark_pairs(g, r, mid + 1, h, seen2, s),
                            );
                        }
                    }
                } else {
                    match &self.g16 {
                        Some(g) => mark_pairs(g, r, 1, h, seen, s),
                        None => mark_pairs(&self.g, r, 1, h, seen, s),
                    }
                }
            }
        }
        if split_used {
            for (a, b) in self.seen.iter_mut().zip(&self.seen2) {
                if *b == s {
                    *a = s;
                }
            }
        }
    }

    /// The rare/common method for heap `n`; `pairs` is the number of split options.
    fn rare_common(&mut self, n: usize, pairs: u64) -> u32 {
        let mut work = 0u64;
        for d in 0..2 {
            for k in 0..self.splits[d].len() {
                let j = self.splits[d][k];
                if n < j + 2 {
                    continue;
                }
                let r = n - j;
                let s = self.stamp;
                let mask = self.seen.len() - 1;
                let seen = &mut self.seen[..=mask];
                let g = &self.g[..r];
                for &a in &self.rc[d].rare_heaps {
                    let a = a as usize;
                    if a >= r {
                        break;
                    }
                    seen[(g[a] ^ g[r - a]) as usize & mask] = s;
                    work += 1;
                }
            }
        }
        let mut v = self.mex_from(0);
        let parity = n as u32 & 1;
        let mut need = [false; 2];
        for (d, nd) in need.iter_mut().enumerate() {
            *nd = !self.splits[d].is_empty() && self.rc[d].needs_scan(2 * v + parity);
        }
        // Scan positions per group: (index of the removal, next smaller heap a), in short
        // tight runs, looking for the candidate after each run.
        let mut at = [(0usize, 1usize); 2];
        let mut scanned = 0u64;
        while need[0] || need[1] {
            for d in 0..2 {
                while need[d] {
                    let (k, a) = at[d];
                    let Some(&j) = self.splits[d].get(k) else {
                        need[d] = false;
                        break;
                    };
                    let r = n.saturating_sub(j);
                    let h = r / 2;
                    if a > h {
                        at[d] = (k + 1, 1);
                        continue;
                    }
                    let end = (a + 15).min(h);
                    let s = self.stamp;
                    let mask = self.seen.len() - 1;
                    let seen = &mut self.seen[..=mask];
                    let lo = &self.g[a..=end];
                    let hi = &self.g[r - end..=r - a];
                    for (x, y) in lo.iter().zip(hi.iter().rev()) {
                        seen[(x ^ y) as usize & mask] = s;
                    }
                    scanned += (end + 1 - a) as u64;
                    at[d] = (k, end + 1);
                    if self.seen.get(v as usize) == Some(&s) {
                        v = self.mex_from(v + 1);
                        for (dd, nd) in need.iter_mut().enumerate() {
                            *nd = !self.splits[dd].is_empty()
                                && self.rc[dd].needs_scan(2 * v + parity);
                        }
                    }
                }
            }
        }
        self.stats.work += work + scanned;
        // Exponential average of the verification share, in 1/1024.
        let share = (scanned * 1024 / pairs.max(1)).min(1024);
        self.verify_share = (self.verify_share * 15 + share) / 16;
        v
    }

    fn push(&mut self, v: u32) {
        let n = self.g.len();
        self.g.push(v);
        let need = (v as usize + 1).next_power_of_two();
        if self.seen.len() < need {
            // Options are XORs of values below a power of two: `seen` covers them all.
            self.seen.resize(need, 0);
        }
        if let Some(g16) = &mut self.g16 {
            match u16::try_from(v) {
                Ok(x) => g16.push(x),
                Err(_) => self.g16 = None,
            }
        }
        if n >= 1 {
            let e = ext(v, n);
            if self.counts.len() <= e as usize {
                self.counts.resize(e as usize + 1, 0);
            }
            self.counts[e as usize] += 1;
            for d in 0..2 {
                if self.splits[d].is_empty() {
                    continue;
                }
                let split = &mut self.rc[d];
                let c = split.class_of(e);
                let rare = c == RARE || (c == UNKNOWN && !split.addable(e));
                if !rare {
                    if c == UNKNOWN {
                        split.set(e, COMMON);
                    }
                    continue;
                }
                if c == UNKNOWN {
                    split.set(e, RARE);
                }
                split.rare_heaps.push(n as u32);
                if n >= split.next_rebuild {
                    let cnt = self.counts[e as usize];
                    let least_common = split
                        .common
                        .iter()
                        .map(|&c| self.counts.get(c as usize).copied().unwrap_or(0))
                        .filter(|&k| k > 0)
                        .min()
                        .unwrap_or(0);
                    if cnt > least_common {
                        split.next_rebuild = n + (n / 16).max(16);
                        if split.rebuild(&self.counts, &self.g) {
                            self.stats.rebuilds += 1;
                        }
                        self.stats.work += self.counts.len() as u64;
                    }
                }
            }
        }
        if self.use_period && self.g.len() == self.next_check {
            self.next_check *= 2;
            let per = periodicity_of(&self.g, self.t);
            self.proof = per.proof;
        }
    }
}
