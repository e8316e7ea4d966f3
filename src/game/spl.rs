//! The splitting game SPL(m,n) of paper §5.5, the option-preserving image of TER(W_{m,n})
//! (n ≥ 4): a position (c, λ) counts the unselected centres c and the clusters λ of
//! consecutive unselected rim vertices; before any rim vertex is selected λ is the special
//! partition Λ^n, whose only split is [n-1]. Moves: a *dehub* decreases c; a *split* replaces
//! a part α by β, γ ≥ 0 with β + γ = α − 1 (zeros dropped).
//!
//! Terminal positions are derived from TER(W_{m,n}), not copied from the paper: by
//! Prop 5.31, 𝒢* consists of the complements of {c_i, v_j, v_{j+1}}, so P is terminating iff
//! the unselected vertices lie in one such triple, i.e. c ≤ 1 and λ ∈ {[], [1], [2]}. The
//! paper's list omits (0,[]); it is terminal but unreachable (its only predecessors (1,[]) and
//! (0,[1]) are already terminal). The test below re-derives this on every reachable position.
//!
//! Features: c, parts, size |λ| (also `parts_sum`), num_parts, odd_parts, solid (before
//! Lemma 5.39; Λ^n is solid iff n ≥ 5), is_lambda, terminal, l1, l2, solid_splits (how many
//! splits of λ are solid, Lemma 5.39).

use super::{Features, Game, Value};
use std::fmt;
use thiserror::Error;

#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum SplError {
    #[error("SPL({m},{n}) needs m >= 2 and n >= 4 (the image of TER(W_{{m,n}}))")]
    Range { m: u64, n: u64 },
    #[error("Λ^{0} needs n >= 4")]
    SmallLambda(u64),
    #[error("SPL parameter {0} is too large")]
    TooLarge(u64),
}

/// The second component of a position.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Partition {
    /// Λ^n: the whole rim, no vertex selected yet.
    Lambda(u32),
    /// Parts, nonincreasing, no zeros.
    Parts(Vec<u32>),
}

/// A position (c, λ).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SplPos {
    pub c: u32,
    pub lambda: Partition,
}

impl SplPos {
    /// (c, λ) from any list of parts (sorted, zeros dropped).
    pub fn parts(c: u32, parts: &[u32]) -> SplPos {
        let mut p: Vec<u32> = parts.iter().copied().filter(|&x| x > 0).collect();
        p.sort_unstable_by(|a, b| b.cmp(a));
        SplPos {
            c,
            lambda: Partition::Parts(p),
        }
    }

    pub fn lambda(c: u32, n: u32) -> SplPos {
        SplPos {
            c,
            lambda: Partition::Lambda(n),
        }
    }

    /// A position written as by its `Display`: `(c,[l1,...])`, `(c,Λ^n)` or `(c,L^n)`.
    pub fn parse(text: &str) -> Result<SplPos, String> {
        let t = text.trim();
        let bad = || format!("SPL position `{t}` should look like (2,[3,1]) or (2,Λ^4)");
        let inner = t
            .strip_prefix('(')
            .and_then(|r| r.strip_suffix(')'))
            .ok_or_else(bad)?;
        let (c, rest) = inner.split_once(',').ok_or_else(bad)?;
        let c: u32 = c.trim().parse().map_err(|_| bad())?;
        let rest = rest.trim();
        if let Some(n) = rest.strip_prefix("Λ^").or_else(|| rest.strip_prefix("L^")) {
            let n: u32 = n.trim().parse().map_err(|_| bad())?;
            return Ok(SplPos::lambda(c, n));
        }
        let parts = rest
            .strip_prefix('[')
            .and_then(|r| r.strip_suffix(']'))
            .ok_or_else(bad)?;
        let parts = parts
            .split(',')
            .map(str::trim)
            .filter(|x| !x.is_empty())
            .map(|x| x.parse::<u32>().map_err(|_| bad()))
            .collect::<Result<Vec<u32>, String>>()?;
        Ok(SplPos::parts(c, &parts))
    }

    /// The parts; Λ^n counts as the single part n.
    pub fn part_list(&self) -> Vec<u32> {
        match &self.lambda {
            Partition::Lambda(n) => vec![*n],
            Partition::Parts(p) => p.clone(),
        }
    }

    pub fn size(&self) -> u32 {
        self.part_list().iter().sum()
    }

    pub fn is_lambda(&self) -> bool {
        matches!(self.lambda, Partition::Lambda(_))
    }

    /// Derived from Prop 5.31 (see the module header).
    pub fn is_terminal(&self) -> bool {
        match &self.lambda {
            Partition::Lambda(_) => false,
            Partition::Parts(p) => self.c <= 1 && matches!(p.as_slice(), [] | [1] | [2]),
        }
    }

    /// Before Lemma 5.39: l1 ≥ 4 or l2 ≥ 2; Λ^n is solid iff n ≥ 5.
    pub fn is_solid(&self) -> bool {
        match &self.lambda {
            Partition::Lambda(n) => *n >= 5,
            Partition::Parts(p) => {
                p.first().is_some_and(|&l| l >= 4) || p.get(1).is_some_and(|&l| l >= 2)
            }
        }
    }

    pub fn odd_parts(&self) -> u32 {
        self.part_list().iter().filter(|&&x| x % 2 == 1).count() as u32
    }
}

impl fmt::Display for SplPos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.lambda {
            Partition::Lambda(n) => write!(f, "({},Λ^{n})", self.c),
            Partition::Parts(p) => {
                let s: Vec<String> = p.iter().map(u32::to_string).collect();
                write!(f, "({},[{}])", self.c, s.join(","))
            }
        }
    }
}

/// SPL started at a position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Spl {
    start: SplPos,
}

/// Largest parameter accepted from users (keeps every count far from overflow).
const MAX_PARAM: u64 = 1 << 20;

impl Spl {
    /// SPL(m,n), started at (m, Λ^n).
    pub fn new(m: u64, n: u64) -> Result<Spl, SplError> {
        if m < 2 || n < 4 {
            return Err(SplError::Range { m, n });
        }
        for x in [m, n] {
            if x > MAX_PARAM {
                return Err(SplError::TooLarge(x));
            }
        }
        Ok(Spl {
            start: SplPos::lambda(m as u32, n as u32),
        })
    }

    /// SPL started at (c, λ) given by parts.
    pub fn at_parts(c: u64, parts: &[u64]) -> Result<Spl, SplError> {
        if let Some(&x) = std::iter::once(&c).chain(parts).find(|&&x| x > MAX_PARAM) {
            return Err(SplError::TooLarge(x));
        }
        let p: Vec<u32> = parts.iter().map(|&x| x as u32).collect();
        Ok(Spl {
            start: SplPos::parts(c as u32, &p),
        })
    }

    /// SPL started at (c, Λ^n).
    pub fn at_lambda(c: u64, n: u64) -> Result<Spl, SplError> {
        if n < 4 {
            return Err(SplError::SmallLambda(n));
        }
        if let Some(x) = [c, n].into_iter().find(|&x| x > MAX_PARAM) {
            return Err(SplError::TooLarge(x));
        }
        Ok(Spl {
            start: SplPos::lambda(c as u32, n as u32),
        })
    }

    pub fn start_pos(&self) -> &SplPos {
        &self.start
    }

    pub fn name(&self) -> String {
        match &self.start.lambda {
            Partition::Lambda(n) => format!("SPL({},{n})", self.start.c),
            Partition::Parts(p) => {
                let s: Vec<String> = p.iter().map(u32::to_string).collect();
                format!("SPL({},[{}])", self.start.c, s.join(","))
            }
        }
    }

    pub fn label(&self, p: &SplPos) -> String {
        p.to_string()
    }

    pub fn features(&self, p: &SplPos) -> Features {
        let parts = p.part_list();
        let mut f = Features::new();
        f.insert("c".into(), Value::Int(p.c as i64));
        f.insert(
            "parts".into(),
            Value::List(parts.iter().map(|&x| x as i64).collect()),
        );
        f.insert("size".into(), Value::Int(p.size() as i64));
        f.insert("parts_sum".into(), Value::Int(p.size() as i64));
        f.insert("num_parts".into(), Value::Int(parts.len() as i64));
        f.insert("odd_parts".into(), Value::Int(p.odd_parts() as i64));
        f.insert("solid".into(), Value::Bool(p.is_solid()));
        f.insert("is_lambda".into(), Value::Bool(p.is_lambda()));
        f.insert("terminal".into(), Value::Bool(p.is_terminal()));
        f.insert(
            "l1".into(),
            Value::Int(parts.first().copied().unwrap_or(0) as i64),
        );
        f.insert(
            "l2".into(),
            Value::Int(parts.get(1).copied().unwrap_or(0) as i64),
        );
        // Lemma 5.39 speaks of the splits of λ that are solid: counted over the options with
        // the same number of centres (the others are dehubs).
        let solid_splits = self
            .options(p)
            .iter()
            .filter(|q| q.c == p.c && q.is_solid())
            .count();
        f.insert("solid_splits".into(), Value::Int(solid_splits as i64));
        f
    }
}

impl Game for Spl {
    type Pos = SplPos;
    fn start(&self) -> SplPos {
        self.start.clone()
    }
    fn options(&self, p: &SplPos) -> Vec<SplPos> {
        if p.is_terminal() {
            return Vec::new();
        }
        let mut out = Vec::new();
        if p.c > 0 {
            out.push(SplPos {
                c: p.c - 1,
                lambda: p.lambda.clone(),
            });
        }
        match &p.lambda {
            Partition::Lambda(n) => out.push(SplPos::parts(p.c, &[n - 1])),
            Partition::Parts(parts) => {
                for (i, &a) in parts.iter().enumerate() {
                    if i > 0 && parts[i - 1] == a {
                        continue;
                    }
                    for b in 0..=(a - 1) / 2 {
                        let mut q: Vec<u32> =
                            parts[..i].iter().chain(&parts[i + 1..]).copied().collect();
                        q.extend([b, a - 1 - b]);
                        out.push(SplPos::parts(p.c, &q));
                    }
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::removing::{RemovingGame, Rule};
    use crate::graph::{families, Closure};
    use crate::solve::Solver;
    use std::collections::BTreeSet;

    /// f of §5.5 on W_{m,n}: centres are vertices 0..m, rim m..m+n in cyclic order.
    fn f(m: usize, n: usize, sel: u64) -> SplPos {
        let c = (0..m).filter(|&i| sel >> i & 1 == 0).count() as u32;
        let rim = |j: usize| sel >> (m + j % n) & 1 == 1;
        let Some(first) = (0..n).find(|&j| rim(j)) else {
            return SplPos::lambda(c, n as u32);
        };
        let mut parts = Vec::new();
        let mut run = 0;
        for k in 1..=n {
            if rim(first + k) {
                parts.push(run);
                run = 0;
            } else {
                run += 1;
            }
        }
        SplPos::parts(c, &parts)
    }

    fn nim(p: SplPos) -> u32 {
        let g = Spl { start: p };
        Solver::new(&g).nim_of_start()
    }

    fn partitions(n: u32, max: u32, prefix: &mut Vec<u32>, out: &mut Vec<Vec<u32>>) {
        if n == 0 {
            out.push(prefix.clone());
            return;
        }
        for k in (1..=n.min(max)).rev() {
            prefix.push(k);
            partitions(n - k, k, prefix, out);
            prefix.pop();
        }
    }

    fn parts_of(n: u32) -> Vec<Vec<u32>> {
        let mut out = Vec::new();
        partitions(n, n, &mut Vec::new(), &mut out);
        out
    }

    #[test]
    fn terminal_positions_are_derived_from_ter_w_mn() {
        let mut seen_terminal = BTreeSet::new();
        for m in 2..=8usize {
            for n in 4..=12 - m {
                let g = families::gen_wheel(m as u64, n as u64).unwrap();
                let ter = RemovingGame::new(Rule::Ter, g, Closure::HULL, 0)
                    .unwrap()
                    .without_symmetry();
                let spl = Spl::new(m as u64, n as u64).unwrap();
                let mut s = Solver::new(&ter);
                assert_eq!(f(m, n, 0), spl.start());
                for (p, _) in s.reachable(&0) {
                    let fp = f(m, n, p);
                    let opts = ter.options(&p);
                    assert_eq!(
                        opts.is_empty(),
                        fp.is_terminal(),
                        "W_{{{m},{n}}} {p:b} {fp}"
                    );
                    if fp.is_terminal() {
                        seen_terminal.insert(fp.to_string());
                    }
                    // Option-preserving: Opt(f(P)) = f(Opt(P)) as sets.
                    let a: BTreeSet<SplPos> = opts.iter().map(|&q| f(m, n, q)).collect();
                    let b: BTreeSet<SplPos> = spl.options(&fp).into_iter().collect();
                    assert_eq!(a, b, "W_{{{m},{n}}} at {fp}");
                }
            }
        }
        // The paper's five; (0,[]) is terminal but never reached.
        let expect: BTreeSet<String> = ["(0,[1])", "(0,[2])", "(1,[])", "(1,[1])", "(1,[2])"]
            .map(String::from)
            .into();
        assert_eq!(seen_terminal, expect);
        assert!(SplPos::parts(0, &[]).is_terminal());
        assert!(!SplPos::parts(0, &[1, 1]).is_terminal());
        assert!(!SplPos::parts(2, &[]).is_terminal());
    }

    #[test]
    fn ter_w_mn_equals_spl_up_to_14_vertices() {
        for m in 2..=10u64 {
            for n in 4..=14 - m {
                let g = families::gen_wheel(m, n).unwrap();
                let ter = RemovingGame::new(Rule::Ter, g, Closure::HULL, 0).unwrap();
                let a = Solver::new(&ter).nim_of_start();
                let b = Solver::new(&Spl::new(m, n).unwrap()).nim_of_start();
                assert_eq!(a, b, "W_{{{m},{n}}}");
            }
        }
    }

    #[test]
    fn lemma_5_36_and_5_37() {
        assert_eq!(nim(SplPos::parts(3, &[3])), 1);
        for c in 1..=12 {
            assert_eq!(nim(SplPos::parts(c, &vec![1; c as usize])), 0, "c = {c}");
        }
        // Wrong variant: (c, [1^(c+1)]) is not always losing.
        assert!((1..=6).any(|c| nim(SplPos::parts(c, &vec![1; c as usize + 1])) != 0));
    }

    #[test]
    fn lemma_5_38() {
        for c in [0, 2] {
            for l in 2..=7u32 {
                for p in parts_of(2 * l)
                    .into_iter()
                    .filter(|p| p.iter().all(|x| x % 2 == 0))
                {
                    assert_eq!(nim(SplPos::parts(c, &p)), 0, "({c},{p:?})");
                }
                assert_eq!(nim(SplPos::lambda(c, 2 * l)), 0, "({c},Λ^{})", 2 * l);
            }
        }
        // Wrong variant: c = 1 instead of c ∈ {0, 2}.
        assert_ne!(nim(SplPos::parts(1, &[4])), 0);
    }

    #[test]
    fn lemma_5_41() {
        for c in 3..=9u32 {
            for p in parts_of(c + 2) {
                let pos = SplPos::parts(c, &p);
                if pos.is_solid() {
                    assert_eq!(nim(pos), 0, "({c},{p:?})");
                }
            }
            assert_eq!(nim(SplPos::lambda(c, c + 2)), 0);
        }
        // Wrong variant: solidity is needed: (3, [3,1,1]) is not solid and not losing.
        let ns = SplPos::parts(3, &[3, 1, 1]);
        assert!(!ns.is_solid());
        assert_ne!(nim(ns), 0);
    }

    #[test]
    fn lemma_5_42() {
        for c in 0..=8u32 {
            for k in 0..=3u32 {
                for p in parts_of(c) {
                    assert_eq!(
                        nim(SplPos::parts(c + 2 * k + 3, &p)),
                        0,
                        "c={c} k={k} {p:?}"
                    );
                }
                if c >= 4 {
                    assert_eq!(nim(SplPos::lambda(c + 2 * k + 3, c)), 0);
                }
            }
        }
        // Wrong variant: an even surplus (c + 2k + 2) is not losing.
        assert!((0..=4).any(|c| nim(SplPos::parts(c + 2, &vec![1; c as usize])) != 0));
    }

    #[test]
    fn solid_and_features() {
        assert!(SplPos::parts(0, &[4]).is_solid());
        assert!(SplPos::parts(0, &[2, 2]).is_solid());
        assert!(!SplPos::parts(0, &[3, 1, 1]).is_solid());
        assert!(!SplPos::lambda(0, 4).is_solid());
        assert!(SplPos::lambda(0, 5).is_solid());
        let g = Spl::new(2, 4).unwrap();
        assert_eq!(g.label(&g.start()), "(2,Λ^4)");
        let p = SplPos::parts(3, &[1, 3, 0, 2]);
        assert_eq!(p.to_string(), "(3,[3,2,1])");
        let f = g.features(&p);
        assert_eq!(f["parts"], Value::List(vec![3, 2, 1]));
        assert_eq!(f["size"], Value::Int(6));
        assert_eq!(f["num_parts"], Value::Int(3));
        assert_eq!(f["odd_parts"], Value::Int(2));
        assert_eq!(f["solid"], Value::Bool(true));
        assert_eq!(f["is_lambda"], Value::Bool(false));
        assert!(Spl::new(1, 5).is_err());
        assert!(Spl::new(2, 3).is_err());
    }
}
