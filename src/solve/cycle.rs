//! Specialised outcome solver for TER(C_n), n odd (paper §5.1, Conjecture 5.5).
//!
//! For odd n = 2m + 1, Prop 5.1 says the minimal generating sets of C_n are the triples whose
//! three cyclic gaps are all at most m. So V ∖ P fails to generate iff it lies in an arc of
//! m + 1 consecutive vertices, i.e. P is terminating iff P contains m cyclically consecutive
//! vertices (the tests compare this with the hull for every subset, n ≤ 15). The terminating
//! test becomes a handful of word operations.
//!
//! The solver computes the *outcome* of every subset in one descending sweep over a packed bit
//! table (one bit per subset, set for P-positions: 2^n bits, 4 GiB at n = 35). A set is a
//! P-position iff it is terminating or none of its options P ∪ {v} is a P-position. Since
//! nim = 0 ⇔ outcome P, the outcome of ∅ decides Conjecture 5.5 for that n; the sweep does not
//! give the nim-value of N-positions, and callers must report "outcome P", not a nim-value.
//!
//! A game may also start at a selected set S (TER_S(C_n)): the table then covers only the
//! supersets of S. [`reply_starts`] uses this to decide ∅ from the second player's replies
//! {v1, vj} (rotation and reflection symmetry), a quarter of the memory, which is how n = 39
//! fits in 16 GiB.
//!
//! Layout: subset `(w << L) | lane` is bit `lane` of word `w`, with L = min(n, 6) lane bits.
//! Options that add a lane vertex stay in the word (shifts, resolved lane-popcount level by
//! level); options that add a word vertex read word `w | bit`. The word index is split into its
//! top T bits (the block) and the rest: a block depends only on itself and on blocks whose top
//! bits are a strict superset, so the blocks of one top-popcount level run in parallel (rayon),
//! each sweeping its words downwards. A finished level is a resumable state (`levels_done`), so
//! long runs can checkpoint between levels; the file handling lives in the CLI.

use rayon::prelude::*;
use serde::Serialize;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::Instant;
use thiserror::Error;

/// Most unselected vertices the packed table supports (2^37 bits = 16 GiB).
pub const MAX_FREE: u32 = 37;
/// Top word-index bits used to cut the table into independent blocks.
const TOP_BITS: u32 = 10;

#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum CycleError {
    #[error("C_{0}: the cycle solver needs an odd n with 3 <= n <= 63 (even cycles are settled by Prop 5.4)")]
    BadN(u32),
    #[error("start set for C_{n}: {why}")]
    BadStart { n: u32, why: String },
    #[error("checkpoint for C_{n} does not fit: {why}")]
    BadState { n: u32, why: String },
    #[error("C_{n}: the outcome table needs {need_mib} MiB, but only {avail_mib} MiB are available ({why}); select more vertices with --start or use --by-reply")]
    Memory {
        n: u32,
        need_mib: u64,
        avail_mib: u64,
        why: &'static str,
    },
}

/// Memory this process may still use: the smaller of the kernel's `MemAvailable` and the
/// address-space limit (`ulimit -v`), with what is named as the binding one.
fn available_memory() -> Option<(u64, &'static str)> {
    let mut best: Option<(u64, &'static str)> = None;
    if let Ok(info) = std::fs::read_to_string("/proc/meminfo") {
        if let Some(kb) = info
            .lines()
            .find_map(|l| l.strip_prefix("MemAvailable:"))
            .and_then(|r| r.split_whitespace().next())
            .and_then(|k| k.parse::<u64>().ok())
        {
            best = Some((kb.saturating_mul(1024), "free memory"));
        }
    }
    #[cfg(unix)]
    {
        let mut lim = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit only writes the struct it is given.
        if unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut lim) } == 0
            && lim.rlim_cur != libc::RLIM_INFINITY
        {
            #[allow(clippy::unnecessary_cast)] // rlim_t is not u64 everywhere
            let cap = lim.rlim_cur as u64;
            if best.is_none_or(|(b, _)| cap < b) {
                best = Some((cap, "the address-space limit, ulimit -v"));
            }
        }
    }
    best
}

/// A zeroed table of `words` words, refused with an estimate when it cannot fit in the memory
/// available (instead of an allocation abort or the OOM killer halfway through a long sweep).
pub fn zeroed_table(n: u32, words: usize) -> Result<Vec<u64>, CycleError> {
    let bytes = (words as u64).saturating_mul(8);
    let mib = |b: u64| b.div_ceil(1 << 20);
    if let Some((avail, why)) = available_memory() {
        // Headroom for the rest of the process (threads, buffers): 64 MiB.
        if bytes.saturating_add(64 << 20) > avail {
            return Err(CycleError::Memory {
                n,
                need_mib: mib(bytes),
                avail_mib: mib(avail),
                why,
            });
        }
    }
    if words == 0 {
        return Ok(Vec::new());
    }
    let fail = || CycleError::Memory {
        n,
        need_mib: mib(bytes),
        avail_mib: 0,
        why: "the allocation failed",
    };
    let layout = std::alloc::Layout::array::<u64>(words).map_err(|_| fail())?;
    // SAFETY: the layout has nonzero size; a non-null pointer from alloc_zeroed with the
    // layout of `words` u64s is a valid, initialised (zero) buffer of `words` u64s, owned by
    // the Vec with the same capacity and the global allocator.
    unsafe {
        let ptr = std::alloc::alloc_zeroed(layout) as *mut u64;
        if ptr.is_null() {
            return Err(fail());
        }
        Ok(Vec::from_raw_parts(ptr, words, words))
    }
}

/// Outcome of a position: P (previous player wins, nim = 0) or N (nim > 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Outcome {
    P,
    N,
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Outcome::P => "P",
            Outcome::N => "N",
        })
    }
}

/// `p` (a subset of the n vertices of C_n, bit i = v_{i+1}) contains m = (n-1)/2 cyclically
/// consecutive vertices: for odd n this is exactly "P is terminating in TER(C_n)".
pub fn has_run(n: u32, p: u64) -> bool {
    let m = (n - 1) / 2;
    let full = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
    let rot = |x: u64, k: u32| ((x >> k) | (x << (n - k))) & full;
    let mut y = p & full;
    for k in 1..m {
        y &= rot(p & full, k);
    }
    m == 0 || y != 0
}

/// Result of one cycle run.
#[derive(Clone, Debug, Serialize)]
pub struct CycleResult {
    pub n: u32,
    /// The start set S in the paper's names (empty for TER(C_n) itself).
    pub start: Vec<String>,
    /// Outcome of TER_S(C_n) (of TER(C_n) when S = ∅).
    pub outcome: Outcome,
    /// Nonterminating supersets of S: the nonterminal positions of TER_S(C_n) (all reachable).
    pub positions: u64,
    /// Table entries swept: the 2^(n-|S|) supersets of S.
    pub table_entries: u64,
    /// Nonterminating subsets that are P-positions.
    pub p_positions: u64,
    pub seconds: f64,
}

/// Progress of a sweep besides its table: what a checkpoint stores with it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Progress {
    /// Levels (top-bit popcounts, from the highest) finished.
    pub levels_done: u32,
    /// Nonterminating subsets seen so far.
    pub positions: u64,
    /// Of those, P-positions.
    pub p_positions: u64,
    /// Sweep seconds so far, over all sessions.
    pub seconds: f64,
}

/// The resumable sweep over the packed outcome table of TER(C_n).
pub struct CycleSweep {
    n: u32,
    start: u64,
    /// Unselected vertices of the start: the table's coordinates, in increasing order.
    free_mask: u64,
    lane_bits: u32,
    word_bits: u32,
    top_bits: u32,
    valid: u64,
    /// `(word part, lane part)` of each window of m consecutive vertices.
    windows: Vec<(u64, usize)>,
    /// `superset[l]`: lanes containing the lane set l.
    superset: Vec<u64>,
    /// `lacks[v]`: lanes without lane vertex v.
    lacks: Vec<u64>,
    /// `level[k]`: lanes with k lane vertices.
    level: Vec<u64>,
    table: Vec<u64>,
    progress: Progress,
}

/// The bits of `x` at the positions of `mask`, packed to the low end (software PEXT).
fn compress(x: u64, mask: u64) -> u64 {
    let mut out = 0u64;
    for (k, v) in crate::graph::bits(mask).enumerate() {
        out |= (x >> v & 1) << k;
    }
    out
}

/// A shared view of the table for the parallel sweep: blocks write disjoint words and read
/// words of finished blocks, so relaxed atomics (plain moves on x86-64) suffice.
fn atomic_view(t: &mut [u64]) -> &[AtomicU64] {
    const _: () = assert!(std::mem::size_of::<AtomicU64>() == std::mem::size_of::<u64>());
    const _: () = assert!(std::mem::align_of::<AtomicU64>() == std::mem::align_of::<u64>());
    // SAFETY: same size and alignment (asserted above); the exclusive borrow of `t` rules out
    // any non-atomic access while the view lives.
    unsafe { &*(t as *mut [u64] as *const [AtomicU64]) }
}

impl CycleSweep {
    /// A fresh sweep of TER(C_n) from ∅; allocates the 2^n-bit table.
    pub fn new(n: u32) -> Result<CycleSweep, CycleError> {
        Self::new_at(n, 0)
    }

    /// A fresh sweep of TER_S(C_n), the game started at the selected set `start` (bit i =
    /// v_{i+1}): the table covers the 2^(n-|S|) supersets of S, so fixing moves that are known
    /// by symmetry or known to win halves the table per vertex.
    pub fn new_at(n: u32, start: u64) -> Result<CycleSweep, CycleError> {
        let words = Self::words_for(n, start)?;
        Self::with_table(n, start, zeroed_table(n, words)?, Progress::default())
    }

    /// Resumes a sweep from a saved state (see [`CycleSweep::state`]).
    pub fn resume(
        n: u32,
        start: u64,
        table: Vec<u64>,
        progress: Progress,
    ) -> Result<CycleSweep, CycleError> {
        let words = Self::words_for(n, start)?;
        if table.len() != words {
            return Err(CycleError::BadState {
                n,
                why: format!("table has {} words, expected {words}", table.len()),
            });
        }
        let s = Self::with_table(n, start, table, progress)?;
        if progress.levels_done > s.levels() {
            return Err(CycleError::BadState {
                n,
                why: format!(
                    "{} levels done, only {} exist",
                    progress.levels_done,
                    s.levels()
                ),
            });
        }
        Ok(s)
    }

    /// Rejects what the sweep does not support: even n, n outside 3..=63, a start set outside
    /// the cycle, more than [`MAX_FREE`] unselected vertices.
    pub fn check(n: u32, start: u64) -> Result<(), CycleError> {
        Self::words_for(n, start).map(|_| ())
    }

    fn words_for(n: u32, start: u64) -> Result<usize, CycleError> {
        if !(3..=63).contains(&n) || n.is_multiple_of(2) {
            return Err(CycleError::BadN(n));
        }
        if start >> n != 0 {
            return Err(CycleError::BadStart {
                n,
                why: "it names a vertex beyond v_n".into(),
            });
        }
        let free = n - start.count_ones();
        if free > MAX_FREE {
            return Err(CycleError::BadStart {
                n,
                why: format!(
                    "{free} unselected vertices; the table holds at most {MAX_FREE} (select more)"
                ),
            });
        }
        Ok(1usize << free.saturating_sub(6))
    }

    fn with_table(
        n: u32,
        start: u64,
        table: Vec<u64>,
        progress: Progress,
    ) -> Result<CycleSweep, CycleError> {
        let m = (n - 1) / 2;
        let full = (1u64 << n) - 1;
        let free_mask = full & !start;
        let free = free_mask.count_ones();
        let lane_bits = free.min(6);
        let word_bits = free - lane_bits;
        let lanes = 1usize << lane_bits;
        let valid = if lanes == 64 {
            u64::MAX
        } else {
            (1u64 << lanes) - 1
        };
        let lane_mask = (1u64 << lane_bits) - 1;
        let windows = (0..n)
            .map(|s| {
                let w = (0..m).fold(0u64, |acc, i| acc | 1 << ((s + i) % n));
                let w = compress(w & !start, free_mask);
                (w >> lane_bits, (w & lane_mask) as usize)
            })
            .collect();
        let lane_set =
            |f: &dyn Fn(usize) -> bool| (0..lanes).filter(|&x| f(x)).fold(0u64, |a, x| a | 1 << x);
        let superset = (0..lanes).map(|l| lane_set(&|x| x & l == l)).collect();
        let lacks = (0..lane_bits)
            .map(|v| lane_set(&|x| x & (1 << v) == 0))
            .collect();
        let level = (0..=lane_bits)
            .map(|k| lane_set(&|x| x.count_ones() == k))
            .collect();
        Ok(CycleSweep {
            n,
            start,
            free_mask,
            lane_bits,
            word_bits,
            top_bits: word_bits.min(TOP_BITS),
            valid,
            windows,
            superset,
            lacks,
            level,
            table,
            progress,
        })
    }

    /// The start set S (bit i = v_{i+1}).
    pub fn start(&self) -> u64 {
        self.start
    }
    pub fn n(&self) -> u32 {
        self.n
    }
    /// Number of levels (top-bit popcounts) the sweep has in all.
    pub fn levels(&self) -> u32 {
        self.top_bits + 1
    }
    pub fn levels_done(&self) -> u32 {
        self.progress.levels_done
    }
    pub fn finished(&self) -> bool {
        self.progress.levels_done == self.levels()
    }
    /// The saved state: the table and the progress.
    pub fn state(&self) -> (&[u64], Progress) {
        (&self.table, self.progress)
    }

    /// Outcomes of the 2^L subsets of word `w` (bit = P-position), and the terminating lanes.
    #[inline]
    fn word(&self, w: u64, table: &[AtomicU64]) -> (u64, u64) {
        let mut term = 0u64;
        for &(hi, lo) in &self.windows {
            if w & hi == hi {
                term |= self.superset[lo];
            }
        }
        term &= self.valid;
        if term == self.valid {
            return (term, term);
        }
        let mut ncross = 0u64;
        let mut free = !w & ((1u64 << self.word_bits) - 1);
        while free != 0 {
            let j = free.trailing_zeros();
            free &= free - 1;
            ncross |= table[(w | 1 << j) as usize].load(Relaxed);
        }
        let mut p = 0u64;
        for k in (0..=self.lane_bits as usize).rev() {
            let mut nin = 0u64;
            for v in 0..self.lane_bits as usize {
                nin |= (p >> (1u32 << v)) & self.lacks[v];
            }
            p |= self.level[k] & (term | !(ncross | nin));
        }
        (p & self.valid, term)
    }

    /// Sweeps the next level of blocks; returns false when the sweep was already finished.
    pub fn step(&mut self) -> bool {
        if self.finished() {
            return false;
        }
        let t0 = Instant::now();
        let k = self.top_bits - self.progress.levels_done;
        let low_bits = self.word_bits - self.top_bits;
        let tops: Vec<u64> = (0..1u64 << self.top_bits)
            .filter(|t| t.count_ones() == k)
            .collect();
        let mut table = std::mem::take(&mut self.table);
        let view = atomic_view(&mut table);
        let this = &*self;
        let (pos, pp) = tops
            .par_iter()
            .map(|&top| {
                let (mut pos, mut pp) = (0u64, 0u64);
                for lo in (0..1u64 << low_bits).rev() {
                    let w = top << low_bits | lo;
                    let (p, term) = this.word(w, view);
                    view[w as usize].store(p, Relaxed);
                    let nonterm = this.valid & !term;
                    pos += nonterm.count_ones() as u64;
                    pp += (p & nonterm).count_ones() as u64;
                }
                (pos, pp)
            })
            .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
        self.table = table;
        self.progress.positions += pos;
        self.progress.p_positions += pp;
        self.progress.levels_done += 1;
        self.progress.seconds += t0.elapsed().as_secs_f64();
        true
    }

    /// Outcome of a position `p ⊇ S` once the sweep has finished.
    pub fn outcome(&self, p: u64) -> Option<Outcome> {
        if !self.finished() || p >> self.n != 0 || p & self.start != self.start {
            return None;
        }
        let p = compress(p, self.free_mask);
        let bit = self.table[(p >> self.lane_bits) as usize] >> (p & ((1 << self.lane_bits) - 1));
        Some(if bit & 1 == 1 { Outcome::P } else { Outcome::N })
    }

    /// Runs the remaining levels and returns the result.
    pub fn finish(&mut self) -> CycleResult {
        while self.step() {}
        self.result().expect("finished sweep has a result")
    }

    /// The result, once finished.
    pub fn result(&self) -> Option<CycleResult> {
        Some(CycleResult {
            n: self.n,
            start: crate::graph::bits(self.start)
                .map(|i| format!("v{}", i + 1))
                .collect(),
            outcome: self.outcome(self.start)?,
            positions: self.progress.positions,
            table_entries: 1u64 << self.free_mask.count_ones(),
            p_positions: self.progress.p_positions,
            seconds: self.progress.seconds,
        })
    }
}

/// The second player's replies to the first move, up to symmetry: the start sets
/// {v1, vj} for j = 2..=(n+1)/2. Every first move is a rotation of v1, and the reflection
/// fixing v1 maps vj to v_{n+2-j}. So ∅ is a P-position iff {v1} is an N-position iff one of
/// these starts is a P-position; each needs a table of 2^(n-2) bits, a quarter of the full one.
pub fn reply_starts(n: u32) -> Vec<u64> {
    (2..=n.div_ceil(2)).map(|j| 1 | 1u64 << (j - 1)).collect()
}

/// Outcome of TER(C_n) for odd n by the packed sweep.
pub fn solve(n: u32) -> Result<CycleResult, CycleError> {
    Ok(CycleSweep::new(n)?.finish())
}

/// Outcome of TER(C_n) for odd n from the second player's replies ([`reply_starts`]),
/// stopping at the first reply that is a P-position: a quarter of the table of [`solve`]
/// when the first reply wins (as {v1, v2} has for every odd n checked so far).
pub fn outcome_by_reply(n: u32) -> Result<Outcome, CycleError> {
    CycleSweep::check(n, 0)?;
    // In C_3 = K_3 the first move already terminates: ∅ is N without any reply.
    if has_run(n, 1) {
        return Ok(Outcome::N);
    }
    for s in reply_starts(n) {
        // A P-position reply makes {v1}, and so every first move, an N-position.
        if CycleSweep::new_at(n, s)?.finish().outcome == Outcome::P {
            return Ok(Outcome::P);
        }
    }
    Ok(Outcome::N)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_wrap_around() {
        // C_7, m = 3: {v7, v1, v2} wraps; {v1, v2, v4, v5} has no run of 3.
        assert!(has_run(7, 0b1000011));
        assert!(!has_run(7, 0b0011011));
        assert!(has_run(3, 0b100));
        assert!(!has_run(3, 0));
    }

    #[test]
    fn small_cycles_by_hand() {
        // TER(C_3) = TER(K_3): the first selection terminates, so ∅ is an N-position.
        assert_eq!(solve(3).unwrap().outcome, Outcome::N);
        // C_5 (Example 5.2): every vertex lies in a terminating pair, so the second player wins.
        assert_eq!(solve(5).unwrap().outcome, Outcome::P);
        assert_eq!(solve(9).unwrap().outcome, Outcome::P);
    }

    #[test]
    fn rejects_even_and_out_of_range() {
        assert_eq!(CycleSweep::new(8).err(), Some(CycleError::BadN(8)));
        assert_eq!(CycleSweep::new(1).err(), Some(CycleError::BadN(1)));
        assert!(matches!(
            CycleSweep::new(39).err(),
            Some(CycleError::BadStart { n: 39, .. })
        ));
        assert!(CycleSweep::check(39, 0b11).is_ok());
        assert!(CycleSweep::new_at(9, 1 << 9).is_err());
    }

    #[test]
    fn replies_decide_the_start() {
        assert_eq!(outcome_by_reply(3).unwrap(), Outcome::N);
        for n in (5..=21u32).step_by(2) {
            let full = solve(n).unwrap().outcome;
            let by_reply = reply_starts(n)
                .into_iter()
                .any(|s| CycleSweep::new_at(n, s).unwrap().finish().outcome == Outcome::P);
            assert_eq!(full == Outcome::P, by_reply, "C_{n}");
            assert_eq!(outcome_by_reply(n).unwrap(), full, "C_{n}");
        }
        assert_eq!(reply_starts(7), vec![0b11, 0b101, 0b1001]);
    }

    #[test]
    fn started_sweep_agrees_with_full_table() {
        let mut full = CycleSweep::new(15).unwrap();
        full.finish();
        for start in [0b1u64, 0b101, 0b1000_0001, 0b111] {
            let mut s = CycleSweep::new_at(15, start).unwrap();
            let r = s.finish();
            assert_eq!(Some(r.outcome), full.outcome(start), "S = {start:b}");
            for p in (0..1u64 << 15).filter(|p| p & start == start) {
                assert_eq!(s.outcome(p), full.outcome(p));
            }
        }
    }

    #[test]
    fn resumed_sweep_matches_uninterrupted() {
        let full = solve(17).unwrap();
        let mut s = CycleSweep::new(17).unwrap();
        s.step();
        s.step();
        let (t, progress) = s.state();
        assert_eq!(progress.levels_done, 2);
        let mut r = CycleSweep::resume(17, 0, t.to_vec(), progress).unwrap();
        let res = r.finish();
        assert_eq!(
            (res.outcome, res.positions, res.p_positions),
            (full.outcome, full.positions, full.p_positions)
        );
        assert!(CycleSweep::resume(17, 0, vec![0; 3], Progress::default()).is_err());
    }
}
