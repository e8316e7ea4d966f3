//! Dawson's Chess DC(n) as a row of `n ≤ 64` pins (paper, before Prop 5.19): a move knocks
//! down a standing pin together with its standing neighbours. A position is the set of
//! standing pins (bit `i` = pin `p_{i+1}`), so that the option-preserving map of Prop 5.19
//! from `DNT_{v_k}(W_n)` can land on an explicit position of DC(n-4).
//!
//! DC(n) is the octal game 0.137 on a heap of n ([`super::octal`]); the solver reduces a row
//! to the multiset of its runs of standing pins (a sum of heaps, so the value is unchanged).
//! Rows longer than 64 pins are the octal game itself ([`dc_game`]): their positions are
//! lists of heap sizes and their value comes from the nim sequence of 0.137, whose period 34
//! (from n = 52) is proved by the Guy–Smith test, so `DC(n)` costs O(1) for any n.

use super::octal::{heap_value, OctalError, OctalGame};
use super::{AnyGame, Features, Game, Value};
use thiserror::Error;

#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum DawsonError {
    #[error("DC({0}): at most 64 pins are supported as a row of pins")]
    TooMany(u64),
    #[error("DC({0}): at most {max} pins", max = u32::MAX)]
    TooLarge(u64),
    #[error(transparent)]
    Octal(#[from] OctalError),
    #[error("pin row `{text}` has {found} pins, expected {expected}")]
    RowLength {
        text: String,
        found: u32,
        expected: u32,
    },
    #[error("pin row `{text}`: character {at} is `{found}`, expected `|` (standing) or `.` (knocked down)")]
    BadPin {
        text: String,
        at: usize,
        found: char,
    },
}

/// Parses a row drawn as by [`Dawson::label`] (`|.||`) into DC(n) started there.
pub fn parse_pins(text: &str) -> Result<Dawson, DawsonError> {
    let mut standing = 0u64;
    let mut n = 0u64;
    for (i, ch) in text.trim().chars().enumerate() {
        match ch {
            // Rows longer than 64 are rejected by `with_start` below.
            '|' if i < 64 => standing |= 1 << i,
            '|' | '.' => {}
            other => {
                return Err(DawsonError::BadPin {
                    text: text.to_string(),
                    at: i,
                    found: other,
                })
            }
        }
        n += 1;
    }
    Dawson::with_start(n, standing)
}

/// `DC(n)` as a game: a row of pins for `n ≤ 64` (positions are pin sets, as the maps of
/// Prop 5.19 need), the octal game 0.137 on one heap beyond (positions are heap lists).
pub fn dc_game(n: u64) -> Result<AnyGame, DawsonError> {
    if n <= 64 {
        return Dawson::new(n).map(AnyGame::Dawson);
    }
    let n32 = u32::try_from(n).map_err(|_| DawsonError::TooLarge(n))?;
    Ok(AnyGame::Octal(OctalGame::dawson(n32)?))
}

/// Dawson's Chess on `n` pins, possibly started at a position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Dawson {
    n: u32,
    start: u64,
}

fn full(n: u32) -> u64 {
    if n == 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

/// Lengths of the runs of standing pins, left to right.
pub fn runs(mut standing: u64) -> Vec<u32> {
    let mut out = Vec::new();
    while standing != 0 {
        standing >>= standing.trailing_zeros();
        let len = standing.trailing_ones();
        out.push(len);
        standing = if len == 64 { 0 } else { standing >> len };
    }
    out
}

impl Dawson {
    /// DC(n) with every pin standing.
    pub fn new(n: u64) -> Result<Dawson, DawsonError> {
        if n > 64 {
            return Err(DawsonError::TooMany(n));
        }
        let n = n as u32;
        Ok(Dawson { n, start: full(n) })
    }

    /// DC(n) started with exactly the pins of `standing` up (bits beyond n are ignored).
    pub fn with_start(n: u64, standing: u64) -> Result<Dawson, DawsonError> {
        let mut d = Dawson::new(n)?;
        d.start = standing & full(d.n);
        Ok(d)
    }

    pub fn pins(&self) -> u32 {
        self.n
    }

    /// nim-value of the start from the 0.137 sequence: the XOR of `G(run)` over the runs of
    /// standing pins (Sprague–Grundy), without exploring the game.
    pub fn nim_by_sequence(&self) -> Result<u32, OctalError> {
        runs(self.start)
            .into_iter()
            .try_fold(0, |x, r| Ok(x ^ heap_value("0.137", r as u64)?))
    }

    /// A position of this game drawn as by [`Dawson::label`] (`|.||`): exactly `n` pins.
    pub fn parse_row(&self, text: &str) -> Result<u64, DawsonError> {
        let d = parse_pins(text)?;
        if d.n != self.n {
            return Err(DawsonError::RowLength {
                text: text.trim().to_string(),
                found: d.n,
                expected: self.n,
            });
        }
        Ok(d.start)
    }

    pub fn name(&self) -> String {
        if self.start == full(self.n) {
            format!("DC({})", self.n)
        } else {
            format!("DC({})[{}]", self.n, self.label(self.start))
        }
    }

    /// `|` standing, `.` knocked down, pin p1 first.
    pub fn label(&self, standing: u64) -> String {
        (0..self.n)
            .map(|i| if standing >> i & 1 == 1 { '|' } else { '.' })
            .collect()
    }

    pub fn features(&self, standing: u64) -> Features {
        let mut f = Features::new();
        f.insert("pins".into(), Value::Int(self.n as i64));
        f.insert("standing".into(), Value::Int(standing.count_ones() as i64));
        f.insert(
            "knocked".into(),
            Value::Int((self.n - standing.count_ones()) as i64),
        );
        f.insert(
            "standing_pins".into(),
            Value::List(
                (0..self.n)
                    .filter(|i| standing >> i & 1 == 1)
                    .map(|i| i as i64 + 1)
                    .collect(),
            ),
        );
        let mut r: Vec<i64> = runs(standing).into_iter().map(i64::from).collect();
        f.insert("runs".into(), Value::List(r.clone()));
        r.sort_unstable_by(|a, b| b.cmp(a));
        f.insert("runs_sorted".into(), Value::List(r.clone()));
        f.insert("num_runs".into(), Value::Int(r.len() as i64));
        f.insert(
            "longest_run".into(),
            Value::Int(r.first().copied().unwrap_or(0)),
        );
        f
    }
}

impl Game for Dawson {
    type Pos = u64;
    fn start(&self) -> u64 {
        self.start
    }
    fn options(&self, &p: &u64) -> Vec<u64> {
        let mut out = Vec::new();
        let mut m = p;
        while m != 0 {
            let i = m.trailing_zeros();
            m &= m - 1;
            let b = 1u64 << i;
            let hit = b | b << 1 | b >> 1;
            out.push(p & !hit);
        }
        out
    }
    /// Runs of standing pins, longest first, separated by single knocked pins: the same
    /// sum of heaps, hence the same value.
    fn canonical(&self, &p: &u64) -> u64 {
        let mut r = runs(p);
        r.sort_unstable_by(|a, b| b.cmp(a));
        let mut out = 0u64;
        let mut at = 0u32;
        for len in r {
            out |= full(len) << at;
            at += len + 1;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::octal::OctalCode;
    use crate::solve::Solver;

    #[test]
    fn dawson_pins_agree_with_octal_0137_up_to_40() {
        let big = Dawson::new(40).unwrap();
        let mut s = Solver::new(&big);
        let g = OctalCode::parse("0.137").unwrap().nim_sequence(41);
        for n in 0..=40u32 {
            assert_eq!(s.nim(&full(n)), g[n as usize], "DC({n})");
        }
    }

    #[test]
    fn prop_5_19_consequence_dnt_v1_wn_is_dc_plus_star1() {
        use crate::expr::{parse_game, ParseOptions};
        let g = OctalCode::parse("0.137").unwrap().nim_sequence(20);
        for n in 5..=16 {
            let dnt = parse_game(&format!("DNT_{{v1}}(W_{n})"), ParseOptions::default())
                .unwrap()
                .solve()
                .nim;
            assert_eq!(dnt, g[n - 4] ^ 1, "DNT_{{v1}}(W_{n})");
        }
    }

    #[test]
    fn pins_parse_and_any_game_features() {
        use crate::expr::{parse_game, ParseOptions};
        let d = parse_pins("|.||").unwrap();
        assert_eq!((d.pins(), d.start()), (4, 0b1101));
        assert_eq!(d.label(d.start()), "|.||");
        // Runs 1 and 2: G(1) ^ G(2) = 1 ^ 1.
        assert_eq!(Solver::new(&d).nim_of_start(), 0);
        assert!(matches!(
            parse_pins("|x|"),
            Err(DawsonError::BadPin {
                at: 1,
                found: 'x',
                ..
            })
        ));
        let g = parse_game("DC(3) + *1", ParseOptions::default()).unwrap();
        let f = g.features(&g.start());
        assert_eq!(f["g0_standing"], Value::Int(3));
        assert_eq!(f["g1_heap"], Value::Int(1));
        assert_eq!(g.label(&g.start()), "||| + *1");
    }

    #[test]
    fn dawson_moves_and_labels() {
        let d = Dawson::new(4).unwrap();
        let mut opts: Vec<String> = d.options(&0b1111).iter().map(|&p| d.label(p)).collect();
        opts.sort();
        // Knocking p1 or p4 takes two pins, p2 or p3 three.
        assert_eq!(opts, ["...|", "..||", "|...", "||.."]);
        assert_eq!(runs(0b1101_1011), vec![2, 2, 2]);
        assert_eq!(d.canonical(&0b1011), 0b1011);
        assert_eq!(d.canonical(&0b1101), 0b1011);
        let f = d.features(0b1001);
        assert_eq!(f["standing"], Value::Int(2));
        assert_eq!(f["standing_pins"], Value::List(vec![1, 4]));
        assert_eq!(f["runs"], Value::List(vec![1, 1]));
        assert!(Dawson::new(65).is_err());
        let d64 = Dawson::new(64).unwrap();
        assert_eq!(d64.options(&u64::MAX).len(), 64);
        assert_eq!(runs(u64::MAX), vec![64]);
    }
}
