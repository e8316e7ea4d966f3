//! Octal games from their code (`0.137`, `0.07`, `0.6`, `4.7`, …), their nim sequences and a
//! *proof* of eventual periodicity by the Guy–Smith octal periodicity theorem.
//!
//! Code `d0.d1d2…dt`: a move removes `j` tokens from one heap (`1 ≤ j ≤ t`, or `j = 0` when
//! `d0` has bit 4) and leaves the rest as no heap (bit 1 of `dj`, only if nothing is left),
//! one heap (bit 2) or two nonempty heaps (bit 4). Dawson's Chess DC(n) is `0.137` on a heap
//! of `n` (paper, before Prop 5.19; OEIS A002187).
//!
//! Periodicity theorem (Winning Ways ch. 4): if `G(n + p) = G(n)` for every `n` with
//! `n0 ≤ n < 2·n0 + p + t`, then it holds for every `n ≥ n0`. [`OctalGame::periodicity`]
//! searches the computed values for such a certificate, then reports the *least* period
//! (the smallest divisor of the certified period that is still an eventual period) and the
//! least preperiod for it, together with how far the sequence was computed. For 0.137 this
//! proves period 34 with least preperiod 52 (last exception at n = 51); Prop 5.23 of the
//! paper states a preperiod of 68, which is a preperiod but not the least one.
//!
//! Sequences come from [`Engine`] (`octal/engine.rs`): the rare/common method of the sparse
//! space phenomenon where it pays, the definition where it does not, and the proved period
//! as soon as there is one. [`nim_sequence_naive`](OctalCode::nim_sequence_naive) is the
//! definition, kept as the reference the engine is tested against. [`heap_value`] serves
//! `G(n)` for any heap from a process-wide cache (one engine per game), so a sweep over
//! `0.137(n)` or many `nim("DC(n)")` calls compute the sequence once, and a heap of 10^9 of a
//! game with a proved period is a lookup.

mod engine;

pub use engine::{Engine, EngineStats};

use super::{mex, Features, Game, Value};
use serde::Serialize;
use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, OnceLock};
use thiserror::Error;

#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum OctalError {
    #[error("octal code `{0}` must look like 0.137 or 4.7 (digits 0-7, one point)")]
    Syntax(String),
    #[error(
        "octal code `{0}`: the digit before the point must be 0 or 4 (splitting without removal)"
    )]
    BadUnitDigit(String),
    #[error("octal code `{0}` allows no move at all")]
    NoMoves(String),
    #[error("octal code `{0}` is too long (at most 32 digits after the point)")]
    TooLong(String),
    #[error("heap {heap} of {code}: no period is proved from the first {checked} values, and heaps of {checked} or more are only evaluated through a proved period")]
    NoPeriod {
        code: String,
        heap: u64,
        checked: usize,
    },
    #[error("heap {heap} of {code}: computing G({heap}) would exceed the work budget ({computed} values computed, no period proved); `grundy octal {code} --len N` computes long sequences without a budget")]
    TooCostly {
        code: String,
        heap: u64,
        computed: usize,
    },
}

/// Heaps below this size may be computed directly; larger ones are evaluated only through a
/// period proved from at most this many values.
pub const MAX_COMPUTED: usize = 1 << 22;

/// Work (options looked at) [`heap_value`] may spend on one game before it refuses: a few
/// seconds on a 2-core machine. Deterministic: whether a heap is answered does not depend on
/// what was asked before, because the engine's work up to a given length is fixed.
pub const HEAP_WORK_BUDGET: u64 = 4_000_000_000;

type Shared = Arc<Mutex<Engine>>;

fn cache() -> &'static Mutex<HashMap<Vec<u8>, Shared>> {
    static CACHE: OnceLock<Mutex<HashMap<Vec<u8>, Shared>>> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(HashMap::new()))
}

fn engine_for(code: &OctalCode) -> Shared {
    let mut map = cache().lock().unwrap_or_else(|e| e.into_inner());
    map.entry(code.digits.clone())
        .or_insert_with(|| Arc::new(Mutex::new(Engine::new(code, true).sequential())))
        .clone()
}

/// `G(n)` of the octal game `code` (e.g. `"0.137"`), from a process-wide cache: each game's
/// sequence is computed once, and once its period is proved every heap, however large, is a
/// lookup. Heaps of at least [`MAX_COMPUTED`] need a proved period.
pub fn heap_value(code: &str, n: u64) -> Result<u32, OctalError> {
    heap_value_of(&OctalCode::parse(code)?, n)
}

/// [`heap_value`] for a parsed code.
pub fn heap_value_of(code: &OctalCode, n: u64) -> Result<u32, OctalError> {
    let shared = engine_for(code);
    let mut e = shared.lock().unwrap_or_else(|e| e.into_inner());
    value_within(&mut e, code, n, MAX_COMPUTED, HEAP_WORK_BUDGET)
}

/// `G(n)` from `e`, computing at most `max_computed` values and `budget` work.
fn value_within(
    e: &mut Engine,
    code: &OctalCode,
    n: u64,
    max_computed: usize,
    budget: u64,
) -> Result<u32, OctalError> {
    if let Some(v) = e.known(n) {
        return Ok(v);
    }
    let target = if n < max_computed as u64 {
        n as usize + 1
    } else {
        max_computed
    };
    let within = e.extend_to(target, budget);
    if let Some(v) = e.known(n) {
        return Ok(v);
    }
    if !within {
        return Err(OctalError::TooCostly {
            code: code.text.clone(),
            heap: n,
            computed: e.computed().len(),
        });
    }
    Err(OctalError::NoPeriod {
        code: code.text.clone(),
        heap: n,
        checked: max_computed,
    })
}

/// An octal game, given by its code.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct OctalCode {
    text: String,
    /// `digits[j]` is `dj`; `digits[0]` is the digit before the point.
    digits: Vec<u8>,
}

impl OctalCode {
    pub fn parse(text: &str) -> Result<OctalCode, OctalError> {
        let t = text.trim();
        let (a, b) = t
            .split_once('.')
            .ok_or_else(|| OctalError::Syntax(t.into()))?;
        let ok = |s: &str| s.chars().all(|c| ('0'..='7').contains(&c));
        if a.len() != 1 || !ok(a) || b.is_empty() || !ok(b) {
            return Err(OctalError::Syntax(t.into()));
        }
        if b.len() > 32 {
            return Err(OctalError::TooLong(t.into()));
        }
        let mut digits: Vec<u8> = std::iter::once(a)
            .chain(b.split("").filter(|s| !s.is_empty()))
            .map(|s| s.as_bytes()[0] - b'0')
            .collect();
        if digits[0] != 0 && digits[0] != 4 {
            return Err(OctalError::BadUnitDigit(t.into()));
        }
        while digits.len() > 1 && *digits.last().expect("nonempty") == 0 {
            digits.pop();
        }
        if digits.iter().all(|&d| d == 0) {
            return Err(OctalError::NoMoves(t.into()));
        }
        Ok(OctalCode {
            text: t.to_string(),
            digits,
        })
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    /// `t`: the most tokens one move may remove (index of the last nonzero digit).
    pub fn max_removal(&self) -> usize {
        self.digits.len() - 1
    }

    fn digit(&self, j: usize) -> u8 {
        self.digits.get(j).copied().unwrap_or(0)
    }

    /// The heaps (as pairs `a ≤ b`, with 0 meaning "no heap") a heap of `n` may become.
    fn moves(&self, n: u32) -> Vec<(u32, u32)> {
        let mut out = Vec::new();
        for j in 0..=self.max_removal().min(n as usize) {
            let d = self.digit(j);
            let r = n - j as u32;
            if d & 1 != 0 && r == 0 && j > 0 {
                out.push((0, 0));
            }
            if d & 2 != 0 && r > 0 && j > 0 {
                out.push((0, r));
            }
            if d & 4 != 0 {
                for a in 1..=r / 2 {
                    out.push((a, r - a));
                }
            }
        }
        out
    }

    /// The heaps (`a ≤ b`, 0 for none) a heap of `n` may become, the options of the heap.
    pub fn option_pairs(&self, n: u32) -> Vec<(u32, u32)> {
        self.moves(n)
    }

    /// `G(0), …, G(len-1)` by the definition: O(n) options per heap. Reference for tests.
    pub fn nim_sequence_naive(&self, len: usize) -> Vec<u32> {
        let mut g: Vec<u32> = Vec::with_capacity(len);
        for n in 0..len as u32 {
            let v = mex(self
                .moves(n)
                .into_iter()
                .map(|(a, b)| g[a as usize] ^ g[b as usize]));
            g.push(v);
        }
        g
    }

    /// `G(0), …, G(len-1)`: the rare/common method where it pays, the definition where it
    /// does not (see [`engine`]), and values past a proved period from the period.
    pub fn nim_sequence(&self, len: usize) -> Vec<u32> {
        Engine::new(self, true).sequence(len)
    }

    /// `G(0), …, G(len-1)` computed value by value (rare/common or definition, no period):
    /// what the period shortcut is tested against.
    pub fn nim_sequence_computed(&self, len: usize) -> Vec<u32> {
        Engine::new(self, false).sequence(len)
    }

    /// `G(h)` for each heap, from the process-wide cache ([`heap_value`]).
    pub fn values_of(&self, heaps: &[u32]) -> Result<Vec<u32>, OctalError> {
        heaps
            .iter()
            .map(|&h| heap_value_of(self, h as u64))
            .collect()
    }

    /// Searches the first `len` values for a Guy–Smith certificate of periodicity.
    pub fn periodicity(&self, len: usize) -> Periodicity {
        let g = self.nim_sequence(len);
        periodicity_of(&g, self.max_removal())
    }
}

impl fmt::Display for OctalCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// Outcome of the periodicity search on a computed nim sequence.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Periodicity {
    /// Values computed: `G(0..checked_to)`.
    pub checked_to: usize,
    /// `t`, the most tokens a move removes.
    pub max_removal: usize,
    /// The proof, when one was found within the computed values.
    pub proof: Option<PeriodProof>,
}

/// A proved eventual period.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PeriodProof {
    /// Least period.
    pub period: usize,
    /// Least preperiod for that period: `G(n + period) = G(n)` for all `n >= preperiod`.
    pub preperiod: usize,
    /// The last `n` with `G(n + period) != G(n)`, if any.
    pub last_exception: Option<usize>,
    /// The certificate checked: `G(n + cert_period) = G(n)` for `cert_preperiod ≤ n < cert_bound`
    /// with `cert_bound = 2·cert_preperiod + cert_period + t`.
    pub cert_period: usize,
    pub cert_preperiod: usize,
    pub cert_bound: usize,
}

/// Least `n0` such that `g[n + p] == g[n]` for every `n0 <= n < g.len() - p`.
fn tail_start(g: &[u32], p: usize) -> usize {
    (0..g.len() - p)
        .rev()
        .find(|&n| g[n + p] != g[n])
        .map_or(0, |n| n + 1)
}

/// Applies the periodicity theorem to computed values `g` of an octal game removing at most
/// `t` tokens.
pub fn periodicity_of(g: &[u32], t: usize) -> Periodicity {
    let len = g.len();
    let mut proof = None;
    for p in 1..=len / 2 {
        let n0 = tail_start(g, p);
        // The check covers n < 2 n0 + p + t, which reads g up to index 2 n0 + 2p + t - 1.
        let bound = 2 * n0 + p + t;
        if bound + p > len {
            continue;
        }
        // Any eventual period of a p-periodic tail divides p; it is enough to test it on
        // one period of the tail.
        let least = (1..=p)
            .filter(|q| p % q == 0)
            .find(|&q| (n0..n0 + p).all(|n| g[n + q] == g[n]))
            .expect("p itself qualifies");
        let pre = (0..n0.max(1))
            .rev()
            .find(|&n| n + least < len && g[n + least] != g[n])
            .map_or(0, |n| n + 1);
        proof = Some(PeriodProof {
            period: least,
            preperiod: pre,
            last_exception: pre.checked_sub(1),
            cert_period: p,
            cert_preperiod: n0,
            cert_bound: bound,
        });
        break;
    }
    Periodicity {
        checked_to: len,
        max_removal: t,
        proof,
    }
}

/// An octal game on a multiset of heaps (a sum of heaps).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct OctalGame {
    code: OctalCode,
    heaps: Vec<u32>,
    /// `G(h)` for each heap of `heaps`.
    values: Vec<u32>,
    /// Named as Dawson's Chess, `DC(n)` (0.137 on one heap too long for a row of pins).
    dawson: bool,
}

impl OctalGame {
    pub fn new(code: OctalCode, mut heaps: Vec<u32>) -> Result<OctalGame, OctalError> {
        heaps.sort_unstable();
        let values = code.values_of(&heaps)?;
        Ok(OctalGame {
            code,
            heaps,
            values,
            dawson: false,
        })
    }

    /// Dawson's Chess on `n` pins as the octal game 0.137 on one heap of `n`, named `DC(n)`:
    /// the form for rows too long for [`super::dawson::Dawson`]'s bit sets.
    pub fn dawson(n: u32) -> Result<OctalGame, OctalError> {
        let mut g = OctalGame::new(OctalCode::parse("0.137")?, vec![n])?;
        g.dawson = true;
        Ok(g)
    }
    pub fn code(&self) -> &OctalCode {
        &self.code
    }
    pub fn heaps(&self) -> &[u32] {
        &self.heaps
    }

    /// nim-value of the start via the nim sequence (or proved period) and the XOR law.
    pub fn nim_by_sequence(&self) -> u32 {
        self.values.iter().fold(0, |x, &v| x ^ v)
    }

    pub fn name(&self) -> String {
        if self.dawson {
            return format!("DC({})", self.heaps[0]);
        }
        let hs: Vec<String> = self.heaps.iter().map(u32::to_string).collect();
        format!("{}({})", self.code, hs.join(","))
    }

    pub fn label(&self, p: &[u32]) -> String {
        let hs: Vec<String> = p.iter().map(u32::to_string).collect();
        format!("[{}]", hs.join(","))
    }

    pub fn features(&self, p: &[u32]) -> Features {
        let mut f = Features::new();
        f.insert(
            "heaps".into(),
            Value::List(p.iter().map(|&h| h as i64).collect()),
        );
        f.insert("num_heaps".into(), Value::Int(p.len() as i64));
        f.insert(
            "tokens".into(),
            Value::Int(p.iter().map(|&h| h as i64).sum()),
        );
        f.insert(
            "largest".into(),
            Value::Int(p.iter().copied().max().unwrap_or(0) as i64),
        );
        f
    }
}

impl Game for OctalGame {
    type Pos = Vec<u32>;
    fn start(&self) -> Vec<u32> {
        self.heaps.iter().copied().filter(|&h| h > 0).collect()
    }
    fn options(&self, p: &Vec<u32>) -> Vec<Vec<u32>> {
        let mut out = Vec::new();
        for (i, &h) in p.iter().enumerate() {
            if i > 0 && p[i - 1] == h {
                continue;
            }
            for (a, b) in self.code.moves(h) {
                let mut q: Vec<u32> = p[..i].iter().chain(&p[i + 1..]).copied().collect();
                q.extend([a, b].into_iter().filter(|&x| x > 0));
                q.sort_unstable();
                if !out.contains(&q) {
                    out.push(q);
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::Solver;

    /// OEIS A002187 (Dawson's Chess), n = 0..=101, typed from the entry.
    const A002187: [u32; 102] = [
        0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1, 0, 4,
        5, 2, 7, 4, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 4, 5, 5, 2, 3, 3, 0, 1, 1, 3, 0, 2,
        1, 1, 0, 4, 5, 3, 7, 4, 8, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 4, 5, 5, 9, 3, 3, 0, 1,
        1, 3, 0, 2, 1, 1, 0, 4, 5, 3, 7, 4,
    ];

    /// Independent brute force: a row of pins, knocking one down with its neighbours.
    fn pins_brute(n: usize) -> Vec<u32> {
        fn go(row: &mut Vec<bool>, memo: &mut std::collections::HashMap<Vec<bool>, u32>) -> u32 {
            if let Some(&v) = memo.get(row) {
                return v;
            }
            let mut seen = Vec::new();
            for i in 0..row.len() {
                if row[i] {
                    let mut r = row.clone();
                    let hi = (i + 1).min(row.len() - 1);
                    r[i.saturating_sub(1)..=hi].fill(false);
                    seen.push(go(&mut r, memo));
                }
            }
            let v = (0..).find(|x| !seen.contains(x)).unwrap();
            memo.insert(row.clone(), v);
            v
        }
        let mut memo = std::collections::HashMap::new();
        (0..n).map(|k| go(&mut vec![true; k], &mut memo)).collect()
    }

    #[test]
    fn typed_a002187_agrees_with_brute_force_pins() {
        // Guards the typed table itself, independently of the octal code.
        assert_eq!(pins_brute(19), A002187[..19].to_vec());
    }

    #[test]
    fn dawson_chess_is_a002187() {
        let code = OctalCode::parse("0.137").unwrap();
        assert_eq!(code.nim_sequence(102), A002187.to_vec());
        assert_eq!(code.nim_sequence_naive(102), A002187.to_vec());
    }

    /// The games of the benchmark table (issue 21) and a few more, with and without a
    /// sparse space: the engine (rare/common or definition, and the period shortcut) agrees
    /// value for value with the definition.
    #[test]
    fn engine_equals_definition() {
        for (c, len) in [
            ("0.137", 6000),
            ("0.16", 6000),
            ("0.106", 6000),
            ("0.007", 6000),
            ("4.7", 6000),
            ("0.07", 2000),
            ("0.6", 3000),
            ("4.777", 2000),
            ("0.77", 2000),
            ("0.51", 2000),
            ("0.4", 2000),
            ("4.0", 500),
            ("0.0000000000000000000000000000007", 300),
            ("4.3", 300),
        ] {
            let code = OctalCode::parse(c).unwrap();
            let naive = code.nim_sequence_naive(len);
            assert_eq!(code.nim_sequence_computed(len), naive, "{c} computed");
            assert_eq!(code.nim_sequence(len), naive, "{c} with period");
        }
    }

    #[test]
    fn rare_common_method_is_used_where_it_pays() {
        let stats = |c: &str| {
            let code = OctalCode::parse(c).unwrap();
            let mut e = Engine::new(&code, false);
            e.extend_to(20_000, u64::MAX);
            e.stats().clone()
        };
        // 0.16 and 0.106 have a sparse space: almost every heap by rare/common.
        for c in ["0.16", "0.106"] {
            let s = stats(c);
            assert!(s.rare_common > 19_000, "{c}: {s:?}");
            // Far below the 10^8 pairs of the definition.
            assert!(s.work < 20_000_000, "{c}: {s:?}");
        }
        // 0.007 has none: the definition does the work.
        let s = stats("0.007");
        assert!(s.definition > 15_000, "0.007: {s:?}");
    }

    /// Treblecross (0.007) independently: a row of cells, a move fills three adjacent empty
    /// cells.
    #[test]
    fn treblecross_blocks_brute_force() {
        fn go(row: u32, len: u32, memo: &mut std::collections::HashMap<u32, u32>) -> u32 {
            if let Some(&v) = memo.get(&row) {
                return v;
            }
            let mut seen = Vec::new();
            for i in 0..len.saturating_sub(2) {
                if row >> i & 0b111 == 0 {
                    seen.push(go(row | 0b111 << i, len, memo));
                }
            }
            let v = (0..).find(|x| !seen.contains(x)).unwrap();
            memo.insert(row, v);
            v
        }
        let brute: Vec<u32> = (0..20)
            .map(|n| go(0, n, &mut std::collections::HashMap::new()))
            .collect();
        assert_eq!(OctalCode::parse("0.007").unwrap().nim_sequence(20), brute);
        assert_eq!(&brute[..8], &[0, 0, 0, 1, 1, 1, 2, 2]);
    }

    /// Known sequences (OEIS, Winning Ways ch. 4) and their periods.
    #[test]
    fn oeis_sequences_and_periods() {
        // A071074, Double Kayles 0.7777 (offset 0): period 24, last exception 141.
        let a071074 = [
            0, 1, 2, 3, 4, 5, 6, 7, 3, 2, 8, 9, 7, 6, 5, 4, 3, 2, 8, 9, 4, 5, 12, 13, 9, 8, 2, 3,
            4, 5, 15, 14, 3, 2, 8, 9, 7, 6, 5, 4, 3, 2, 8, 9, 13, 12, 15, 14, 9, 8, 2, 3, 4, 5, 16,
            17, 10, 11, 8, 9, 14, 15, 5, 4, 3, 2, 16, 17, 13, 12, 15, 14, 9, 8, 2, 3, 4, 5, 6, 7,
            3, 2, 8, 9, 14, 15, 5, 4, 3, 2,
        ];
        let dk = OctalCode::parse("0.7777").unwrap();
        assert_eq!(dk.nim_sequence(a071074.len()), a071074);
        let p = dk.periodicity(1000).proof.unwrap();
        assert_eq!((p.period, p.last_exception), (24, Some(141)));
        // A071434, 0.1377 (offset 1): period 24, last exception 140.
        let a071434 = [
            1, 1, 2, 2, 3, 3, 1, 1, 4, 4, 3, 3, 2, 2, 1, 1, 4, 4, 2, 2, 6, 6, 4, 4, 1, 1, 2, 2, 7,
            7, 1, 1, 4, 4, 3, 3, 2, 2, 1, 1, 4, 4, 6, 6, 7, 7, 4, 4, 1, 1, 2, 2, 8, 8, 5, 5, 4, 4,
            7, 7, 2, 2, 1, 1, 8, 8, 6, 6, 7, 7, 4, 4, 1, 1, 2, 2, 3, 3, 1, 1, 4, 4, 7, 7, 2, 2, 1,
            1, 8, 8, 2, 2, 7, 7, 4, 4, 1, 1, 2, 2, 8, 8,
        ];
        let c = OctalCode::parse("0.1377").unwrap();
        assert_eq!(c.nim_sequence(a071434.len() + 1)[1..], a071434);
        let p = c.periodicity(1000).proof.unwrap();
        assert_eq!((p.period, p.last_exception), (24, Some(140)));
        // A071435, 0.177 (offset 1): period 20, last exception 496.
        let a071435 = [
            1, 1, 2, 2, 3, 1, 1, 4, 4, 3, 2, 2, 1, 1, 4, 2, 2, 6, 4, 4, 1, 1, 2, 2, 7, 1, 1, 4, 4,
            3, 2, 2, 1, 1, 4, 8, 2, 7, 4, 4, 1, 1, 2, 2, 7, 8, 1, 4, 4, 7, 2, 2, 1, 1, 4, 4, 2, 7,
            7, 4, 1, 1, 2, 2, 7, 7, 1, 1, 4, 7, 2, 2, 1, 1, 4, 4, 6, 2, 7, 4, 1, 1, 2, 2, 8, 8, 5,
            1, 4, 7, 2, 2, 1, 1, 8, 8, 6, 7, 7, 4, 1, 1,
        ];
        let c = OctalCode::parse("0.177").unwrap();
        assert_eq!(c.nim_sequence(a071435.len() + 1)[1..], a071435);
        let p = c.periodicity(4000).proof.unwrap();
        assert_eq!((p.period, p.last_exception), (20, Some(496)));
        // A077069, 4.777 (offset 1): period 20.
        let a077069 = [
            1, 2, 4, 6, 1, 2, 8, 10, 1, 13, 2, 16, 1, 4, 13, 14, 1, 8, 4, 13, 1, 2, 4, 8, 1, 13,
            16, 8, 1, 4, 2, 13, 1, 4, 8, 13, 1, 16, 4, 13,
        ];
        let c = OctalCode::parse("4.777").unwrap();
        assert_eq!(c.nim_sequence(a077069.len() + 1)[1..], a077069);
        assert_eq!(c.periodicity(1000).proof.unwrap().period, 20);
    }

    #[test]
    fn period_shortcut_matches_computed_values() {
        // 0.137 is proved periodic after 256 values; the next 20000 values from the period
        // are the computed ones.
        let code = OctalCode::parse("0.137").unwrap();
        let mut e = Engine::new(&code, true);
        e.extend_to(20_000, u64::MAX);
        assert_eq!(e.computed().len(), 256);
        let computed = code.nim_sequence_computed(20_000);
        assert!((0..20_000u64).all(|n| e.known(n) == Some(computed[n as usize])));
    }

    #[test]
    fn heap_value_cache_and_refusals() {
        // DC(10^6) and DC(10^9) through the proved period: 10^6 = 52 + 8 + 34·29410 and
        // 10^9 = 52 + 6 + 34·29411763, so they are G(60) = 1 and G(58) = 0 (A002187).
        assert_eq!(52 + 8 + 34 * 29_410, 1_000_000);
        assert_eq!(52 + 6 + 34 * 29_411_763, 1_000_000_000);
        assert_eq!(heap_value("0.137", 1_000_000), Ok(1));
        assert_eq!(A002187[60], 1);
        assert_eq!(heap_value("0.137", 1_000_000_000), Ok(0));
        assert_eq!(heap_value("0.1370", 85), Ok(9));
        assert!(matches!(heap_value("0.8", 3), Err(OctalError::Syntax(_))));
        let officers = OctalCode::parse("0.6").unwrap();
        let mut e = Engine::new(&officers, true);
        assert!(matches!(
            value_within(&mut e, &officers, 5000, 1000, u64::MAX),
            Err(OctalError::NoPeriod { heap: 5000, .. })
        ));
        let treble = OctalCode::parse("0.007").unwrap();
        let mut e = Engine::new(&treble, true);
        assert!(matches!(
            value_within(&mut e, &treble, 5000, 10_000, 100_000),
            Err(OctalError::TooCostly { heap: 5000, .. })
        ));
        // Within the budget, the same heap is answered.
        let naive = treble.nim_sequence_naive(5001);
        assert_eq!(
            value_within(&mut e, &treble, 5000, 10_000, u64::MAX),
            Ok(naive[5000])
        );
    }

    #[test]
    fn dawson_chess_period_is_proved() {
        let p = OctalCode::parse("0.137").unwrap().periodicity(1000);
        let proof = p.proof.expect("0.137 is periodic");
        assert_eq!(proof.period, 34);
        assert_eq!(proof.preperiod, 52);
        assert_eq!(proof.last_exception, Some(51));
        assert_eq!(p.max_removal, 3);
        // Prop 5.23's preperiod 68 is a preperiod but not the least one.
        let g = OctalCode::parse("0.137").unwrap().nim_sequence(300);
        assert!((68..266).all(|n| g[n + 34] == g[n]));
        assert_ne!(g[51 + 34], g[51]);
        // Too few values: no certificate (2·52 + 2·34 + 3 = 175 are needed).
        assert!(OctalCode::parse("0.137")
            .unwrap()
            .periodicity(174)
            .proof
            .is_none());
        assert!(OctalCode::parse("0.137")
            .unwrap()
            .periodicity(175)
            .proof
            .is_some());
    }

    #[test]
    fn known_periods() {
        // Kayles 0.77: period 12, last exception at n = 70; Dawson's Kayles 0.07: period 34,
        // last exception at 52 (it is 0.137 shifted by one).
        let k = OctalCode::parse("0.77")
            .unwrap()
            .periodicity(600)
            .proof
            .unwrap();
        assert_eq!((k.period, k.preperiod), (12, 71));
        let dk = OctalCode::parse("0.07")
            .unwrap()
            .periodicity(600)
            .proof
            .unwrap();
        assert_eq!((dk.period, dk.preperiod), (34, 53));
        let g7 = OctalCode::parse("0.07").unwrap().nim_sequence(60);
        let g137 = OctalCode::parse("0.137").unwrap().nim_sequence(59);
        assert_eq!(&g7[1..], &g137[..]);
        // Subtraction game {1,2,3,4} = 0.3333: n mod 5, purely periodic.
        let sub = OctalCode::parse("0.3333").unwrap();
        assert_eq!(sub.nim_sequence(7), [0, 1, 2, 3, 4, 0, 1]);
        let sp = sub.periodicity(50).proof.unwrap();
        assert_eq!((sp.period, sp.preperiod, sp.last_exception), (5, 0, None));
        // Officers 0.6: no period is known; none can be certified from 300 values.
        assert!(OctalCode::parse("0.6")
            .unwrap()
            .periodicity(300)
            .proof
            .is_none());
    }

    #[test]
    fn heap_sums_by_solver_match_xor() {
        let code = OctalCode::parse("0.137").unwrap();
        for hs in [vec![5, 7], vec![3, 3, 9], vec![17], vec![1, 2, 4, 8]] {
            let game = OctalGame::new(code.clone(), hs.clone()).unwrap();
            assert_eq!(
                Solver::new(&game).nim_of_start(),
                game.nim_by_sequence(),
                "{hs:?}"
            );
        }
    }

    #[test]
    fn huge_heaps_use_the_proved_period() {
        let code = OctalCode::parse("0.137").unwrap();
        let g = code.nim_sequence(200);
        let v = code.values_of(&[1_000_000_000, 17]).unwrap();
        assert_eq!(v, vec![g[58], g[17]]);
        assert_eq!(g[58], 0);
        let dc = OctalGame::dawson(1_000_000).unwrap();
        assert_eq!((dc.name(), dc.nim_by_sequence()), ("DC(1000000)".into(), 1));
    }

    #[test]
    fn bad_codes_are_rejected() {
        for bad in ["137", "0.", "0.8", "1.7", "0.1.3", "x.3", "0.000", "00.7"] {
            assert!(OctalCode::parse(bad).is_err(), "{bad}");
        }
    }
}
