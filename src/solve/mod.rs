//! The solver: owns memoisation and computes nim-values iteratively (an explicit stack, so
//! depth is bounded only by memory, never by the call stack).
//!
//! Positions are memoised on their [`Game::canonical`] representative; the value of any
//! reachable position is the memo value of its representative.

pub mod any_game;
pub mod canon;
pub mod cycle;
pub mod dispatch;
pub mod estimate;
pub mod guard;
pub mod levels;
pub mod ordinal;
pub mod progress;
pub mod spectrum;
pub mod structure;
pub mod structure_symmetric;
pub mod terminating;

use crate::game::{mex, Game};
use guard::{Monitor, Refusal};
use progress::Progress;
use rustc_hash::FxHashMap;
use serde::Serialize;
use std::time::Instant;

/// Positions the memo solvers of this process have solved (computed a value for), all
/// solvers together: how a test measures that an instance is solved once, not again for its
/// certificate.
static SOLVED: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// [`SOLVED`] so far.
pub fn positions_solved() -> u64 {
    SOLVED.load(std::sync::atomic::Ordering::Relaxed)
}

/// Statistics of one solve.
#[derive(Clone, Debug, Serialize)]
pub struct Stats {
    /// Distinct (canonical) positions whose value was computed.
    pub positions: u64,
    pub seconds: f64,
}

/// Memoising solver for one game.
pub struct Solver<'g, G: Game> {
    game: &'g G,
    memo: FxHashMap<G::Pos, u32>,
    seconds: f64,
    /// Budget checked while solving ([`Solver::try_nim`]); `None`: unlimited.
    monitor: Option<Monitor>,
    progress: Progress,
}

/// A position being solved. Its options are `parts`, one each, unless the game splits some
/// of them into disjoint sums ([`Game::components`]): then option i is the sum of
/// `parts[ends[i-1]..ends[i]]`, and only the parts are memoised.
struct Frame<P> {
    pos: P,
    parts: Vec<P>,
    ends: Vec<usize>,
    next: usize,
}

impl<P> Frame<P> {
    /// mex over the options of the XOR of each option's parts, from the memo.
    fn value(&self, memo: &FxHashMap<P, u32>) -> u32
    where
        P: Eq + std::hash::Hash,
    {
        if self.ends.is_empty() {
            return mex(self.parts.iter().map(|o| memo[o]));
        }
        let mut start = 0;
        mex(self.ends.iter().map(|&end| {
            let v = self.parts[start..end].iter().fold(0, |x, o| x ^ memo[o]);
            start = end;
            v
        }))
    }
}

impl<'g, G: Game> Solver<'g, G> {
    pub fn new(game: &'g G) -> Self {
        Solver {
            game,
            memo: FxHashMap::default(),
            seconds: 0.0,
            monitor: None,
            progress: Progress::hidden(),
        }
    }

    /// A solver that starts from the memo of an earlier one for the same game
    /// ([`Solver::into_memo`]): what the check solved is not solved again for the certificate.
    pub fn with_memo(game: &'g G, memo: FxHashMap<G::Pos, u32>) -> Self {
        Solver {
            memo,
            ..Solver::new(game)
        }
    }

    /// The memo: every canonical position solved, with its value.
    pub fn into_memo(self) -> FxHashMap<G::Pos, u32> {
        self.memo
    }

    /// A solver whose [`Solver::try_nim`] stops past the monitor's budget and reports progress.
    pub fn with_guard(game: &'g G, monitor: Monitor, progress: Progress) -> Self {
        Solver {
            monitor: (!monitor.is_unlimited()).then_some(monitor),
            progress,
            ..Solver::new(game)
        }
    }

    /// nim-value of the game's start position.
    pub fn nim_of_start(&mut self) -> u32 {
        let s = self.game.start();
        self.nim(&s)
    }

    /// nim-value of any position (memoised across calls). Ignores the budget: for games known
    /// to be small, or already solved through [`Solver::try_nim`].
    pub fn nim(&mut self, p: &G::Pos) -> u32 {
        let monitor = self.monitor.take();
        let v = self.try_nim(p);
        self.monitor = monitor;
        match v {
            Ok(v) => v,
            Err(_) => unreachable!("a solver without a monitor never refuses"),
        }
    }

    /// nim-value of any position, or the refusal once the memo outgrows the budget.
    pub fn try_nim(&mut self, p: &G::Pos) -> Result<u32, Refusal> {
        let t0 = Instant::now();
        let root = self.game.canonical(p);
        if let Some(&v) = self.memo.get(&root) {
            return Ok(v);
        }
        let split = self.game.components(&root);
        if split.len() >= 2 {
            // A disjoint sum: its parts are solved (and memoised) one by one.
            let mut v = 0;
            for part in &split {
                v ^= self.try_nim(part)?;
            }
            return Ok(v);
        }
        let mut stack = vec![self.frame(root)];
        while let Some(top) = stack.last_mut() {
            let mut descend = None;
            while top.next < top.parts.len() {
                let o = &top.parts[top.next];
                if self.memo.contains_key(o) {
                    top.next += 1;
                } else {
                    descend = Some(o.clone());
                    break;
                }
            }
            match descend {
                Some(o) => {
                    let f = self.frame(o);
                    stack.push(f);
                }
                None => {
                    let done = stack.pop().expect("non-empty stack");
                    let v = done.value(&self.memo);
                    self.memo.insert(done.pos, v);
                    SOLVED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let n = self.memo.len() as u64;
                    let over = self.monitor.as_ref().is_some_and(|m| n > m.max_positions);
                    if n.is_multiple_of(Monitor::EVERY) || over {
                        self.progress.update(stack.len() as u64, n);
                        if let Some(m) = &self.monitor {
                            if let Err(r) = m.check(n) {
                                self.seconds += t0.elapsed().as_secs_f64();
                                return Err(r);
                            }
                        }
                    }
                }
            }
        }
        self.seconds += t0.elapsed().as_secs_f64();
        Ok(self.memo[&self.game.canonical(p)])
    }

    fn frame(&self, pos: G::Pos) -> Frame<G::Pos> {
        let options = self.game.options(&pos);
        let mut parts = Vec::with_capacity(options.len());
        let mut ends = Vec::new();
        for (i, o) in options.iter().enumerate() {
            let split = self.game.components(o);
            let grouped = split.len() >= 2;
            if grouped && ends.is_empty() {
                // The first split option: every earlier option was one part.
                ends.extend(1..=i);
            }
            if grouped {
                parts.extend(split.iter().map(|c| self.game.canonical(c)));
            } else {
                parts.push(self.game.canonical(o));
            }
            if grouped || !ends.is_empty() {
                ends.push(parts.len());
            }
        }
        Frame {
            pos,
            parts,
            ends,
            next: 0,
        }
    }

    pub fn stats(&self) -> Stats {
        Stats {
            positions: self.memo.len() as u64,
            seconds: self.seconds,
        }
    }

    pub fn game(&self) -> &G {
        self.game
    }

    /// Every position reachable from `from` (not canonicalised), with its nim-value, in
    /// breadth-first order, or `Err` past `cap` positions (with their values in the memo, a
    /// position costs about [`REACHABLE_BYTES`]): what a spec's `positions: reachable` walks,
    /// whose start may pass every estimate (TER(C_27) aborted on an 822 MB allocation under a
    /// 1.5 GB address-space limit; issue 44 item 10).
    pub fn reachable_within(
        &mut self,
        from: &G::Pos,
        cap: usize,
    ) -> Result<Vec<(G::Pos, u32)>, String> {
        let order = reachable_order(self.game, std::slice::from_ref(from), cap, false)?;
        Ok(order
            .into_iter()
            .map(|p| {
                let v = self.nim(&p);
                (p, v)
            })
            .collect())
    }

    /// Every position reachable from `from` (not canonicalised), with its nim-value, in
    /// breadth-first order, without bound: for tests on small games.
    pub fn reachable(&mut self, from: &G::Pos) -> Vec<(G::Pos, u32)> {
        let mut seen: std::collections::HashSet<G::Pos> = Default::default();
        let mut order = vec![from.clone()];
        seen.insert(from.clone());
        let mut i = 0;
        while i < order.len() {
            let p = order[i].clone();
            for o in self.game.options(&p) {
                if seen.insert(o.clone()) {
                    order.push(o);
                }
            }
            i += 1;
        }
        order
            .into_iter()
            .map(|p| {
                let v = self.nim(&p);
                (p, v)
            })
            .collect()
    }
}

/// Bytes a position of [`Solver::reachable_within`] takes: its entry in the seen set and the
/// order, and its value in the memo.
pub const REACHABLE_BYTES: f64 = 200.0;

/// The roots, then every position reached from them breadth-first (a deterministic order:
/// the order of the certificates' tables); with `split`, an option the game splits into a
/// disjoint sum ([`Game::components`]) is reached as its parts instead. `Err` past `cap`
/// positions.
pub fn reachable_order<G: Game>(
    game: &G,
    roots: &[G::Pos],
    cap: usize,
    split: bool,
) -> Result<Vec<G::Pos>, String> {
    let mut seen: rustc_hash::FxHashSet<G::Pos> = Default::default();
    let mut order: Vec<G::Pos> = Vec::new();
    for r in roots {
        if seen.insert(r.clone()) {
            order.push(r.clone());
        }
    }
    let mut i = 0;
    while i < order.len() {
        for o in game.options(&order[i]) {
            let parts = if split {
                game.components(&o)
            } else {
                Vec::new()
            };
            let reached = if parts.len() >= 2 { parts } else { vec![o] };
            for q in reached {
                if seen.insert(q.clone()) {
                    if order.len() >= cap {
                        return Err(format!(
                            "more than {cap} positions (the budget left for the instance)"
                        ));
                    }
                    order.push(q);
                }
            }
        }
        i += 1;
    }
    Ok(order)
}
