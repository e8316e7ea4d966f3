//! The multiset terminate game TER(U) (paper §5.3, before Prop 5.14): a move decreases one
//! positive element of the multiset U by 1; the game ends when every element is below 2.
//! It is the option-preserving image of TER(K_{m1,…,mk}) for λ ≥ 2.
//!
//! Features are the paper's: σ (ones), λ (elements ≥ 2), ν (copies of the maximum m, minus
//! one), m, p = pty(‖U‖), d = m − Σ_{u ∈ U'} (u − 1) with U' = {u ≥ 2} minus one copy of m,
//! and the signature ρ(U) = (p, d). On terminal positions d = ∞: the feature `d_infinite` is
//! true and `d` holds the sentinel [`D_INFINITE`] (larger than any finite d, and small enough
//! that formulas over it cannot overflow). Prop 5.14 gives nim(U) from ρ(U).

use super::{Features, Game, Value};

/// Value of the feature `d` on terminal positions, standing for d = ∞.
pub const D_INFINITE: i64 = 1 << 40;

/// TER(U) started at the multiset U.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MultisetGame {
    start: Vec<u32>,
}

/// Paper's statistics of a multiset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Signature {
    pub sigma: u32,
    pub lambda: u32,
    pub nu: i64,
    pub m: u32,
    pub p: u32,
    /// `None` is d = ∞ (terminal position).
    pub d: Option<i64>,
}

pub fn is_terminal(u: &[u32]) -> bool {
    u.iter().all(|&x| x < 2)
}

pub fn signature(u: &[u32]) -> Signature {
    let m = u.iter().copied().max().unwrap_or(0);
    let sigma = u.iter().filter(|&&x| x == 1).count() as u32;
    let lambda = u.iter().filter(|&&x| x >= 2).count() as u32;
    let nu = u.iter().filter(|&&x| x == m).count() as i64 - 1;
    let total: u64 = u.iter().map(|&x| x as u64).sum();
    let d = if is_terminal(u) {
        None
    } else {
        // U' drops exactly one copy of the maximum; the other copies count.
        let rest: i64 = u.iter().filter(|&&x| x >= 2).map(|&x| x as i64 - 1).sum();
        Some(m as i64 - (rest - (m as i64 - 1)))
    };
    Signature {
        sigma,
        lambda,
        nu,
        m,
        p: (total % 2) as u32,
        d,
    }
}

/// nim(U) by Prop 5.14 for a nonterminal U (`None` on terminal positions, where it is 0).
pub fn prop_5_14(u: &[u32]) -> Option<u32> {
    let s = signature(u);
    let d = s.d?;
    Some(match (s.p, d) {
        (0, d) if d <= 1 => 0,
        (0, _) => 1,
        (_, d) if d <= 0 => 1,
        (_, 1) | (_, 2) => 2,
        _ => 0,
    })
}

impl MultisetGame {
    pub fn new(mut start: Vec<u32>) -> MultisetGame {
        start.sort_unstable();
        MultisetGame { start }
    }

    pub fn name(&self) -> String {
        format!("TER{}", self.label(&self.start))
    }

    /// A position written as by [`MultisetGame::label`] (`{0,1,2,2}`, any order), sorted.
    pub fn parse_multiset(text: &str) -> Result<Vec<u32>, String> {
        let t = text.trim();
        let inner = t
            .strip_prefix('{')
            .and_then(|r| r.strip_suffix('}'))
            .ok_or_else(|| format!("multiset `{t}` should look like {{0,1,2}}"))?;
        let mut u = inner
            .split(',')
            .map(str::trim)
            .filter(|x| !x.is_empty())
            .map(|x| {
                x.parse::<u32>()
                    .map_err(|_| format!("multiset `{t}`: `{x}` is not a non-negative integer"))
            })
            .collect::<Result<Vec<u32>, String>>()?;
        u.sort_unstable();
        Ok(u)
    }

    /// `{0,1,2,2}` (nondecreasing).
    pub fn label(&self, u: &[u32]) -> String {
        let s: Vec<String> = u.iter().map(u32::to_string).collect();
        format!("{{{}}}", s.join(","))
    }

    pub fn features(&self, u: &[u32]) -> Features {
        let s = signature(u);
        let d = s.d.unwrap_or(D_INFINITE);
        let mut f = Features::new();
        f.insert(
            "elements".into(),
            Value::List(u.iter().map(|&x| x as i64).collect()),
        );
        f.insert(
            "total".into(),
            Value::Int(u.iter().map(|&x| x as i64).sum()),
        );
        f.insert("sigma".into(), Value::Int(s.sigma as i64));
        f.insert("lambda".into(), Value::Int(s.lambda as i64));
        f.insert("nu".into(), Value::Int(s.nu));
        f.insert("m".into(), Value::Int(s.m as i64));
        f.insert("p".into(), Value::Int(s.p as i64));
        f.insert("d".into(), Value::Int(d));
        f.insert("d_infinite".into(), Value::Bool(s.d.is_none()));
        f.insert("rho".into(), Value::List(vec![s.p as i64, d]));
        f.insert("terminal".into(), Value::Bool(is_terminal(u)));
        f
    }
}

impl Game for MultisetGame {
    type Pos = Vec<u32>;
    fn start(&self) -> Vec<u32> {
        self.start.clone()
    }
    fn options(&self, u: &Vec<u32>) -> Vec<Vec<u32>> {
        if is_terminal(u) {
            return Vec::new();
        }
        let mut out = Vec::new();
        for i in 0..u.len() {
            if u[i] == 0 || (i + 1 < u.len() && u[i + 1] == u[i]) {
                continue;
            }
            let mut q = u.clone();
            q[i] -= 1;
            q.sort_unstable();
            out.push(q);
        }
        out
    }
    /// Zeros never move and change no statistic.
    fn canonical(&self, u: &Vec<u32>) -> Vec<u32> {
        u.iter().copied().filter(|&x| x > 0).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::Solver;

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

    fn all_multisets(max_sum: u32) -> Vec<Vec<u32>> {
        let mut out = Vec::new();
        for s in 0..=max_sum {
            partitions(s, s, &mut Vec::new(), &mut out);
        }
        out
    }

    #[test]
    fn examples_5_12_and_5_13() {
        let s = signature(&[0, 1, 1, 2, 2, 2, 3, 3, 3]);
        assert_eq!((s.sigma, s.lambda, s.nu, s.m, s.p), (2, 6, 2, 3, 1));
        let s = signature(&[1, 1, 2, 3, 3]);
        assert_eq!((s.p, s.d), (0, Some(0)));
        let s = signature(&[0, 1, 1, 1]);
        assert_eq!((s.p, s.d), (1, None));
        let g = MultisetGame::new(vec![0, 1, 1, 1]);
        let f = g.features(&g.start());
        assert_eq!(f["d_infinite"], Value::Bool(true));
        assert_eq!(f["d"], Value::Int(D_INFINITE));
    }

    #[test]
    fn prop_5_14_for_every_multiset_with_sum_at_most_16() {
        let game = MultisetGame::new(vec![]);
        let mut s = Solver::new(&game);
        let mut checked = 0;
        for mut u in all_multisets(16) {
            u.sort_unstable();
            let v = s.nim(&u);
            match prop_5_14(&u) {
                Some(claim) => {
                    assert_eq!(v, claim, "U = {u:?}");
                    checked += 1;
                }
                None => assert_eq!(v, 0),
            }
            // A zero element changes nothing.
            let mut z = u.clone();
            z.insert(0, 0);
            assert_eq!(prop_5_14(&z), prop_5_14(&u));
        }
        // Partitions of 0..=16 number 915; the terminal ones are the 17 [1^k].
        assert_eq!(checked, 915 - 17);
    }

    #[test]
    fn prop_5_14_wrong_variant_is_rejected() {
        // Same table with the p = 1, d ∈ {1,2} row claiming 1 instead of 2.
        let game = MultisetGame::new(vec![]);
        let mut s = Solver::new(&game);
        let wrong = all_multisets(8).into_iter().find(|u| {
            let mut u = u.clone();
            u.sort_unstable();
            let sig = signature(&u);
            let claim = match (sig.p, sig.d) {
                (1, Some(1 | 2)) => 1,
                _ => return false,
            };
            s.nim(&u) != claim
        });
        // nim{1,2} = mex{nim{1,1}, nim{0,2}} = mex{0, 1} = 2, with p = 1 and d = 2.
        assert_eq!(wrong, Some(vec![2, 1]));
    }

    #[test]
    fn ter_k_multipartite_matches_multiset_game() {
        use crate::game::removing::{RemovingGame, Rule};
        use crate::graph::{families, Closure};
        for parts in [
            vec![1, 2, 2],
            vec![2, 2, 3],
            vec![1, 1, 3, 3],
            vec![2, 3, 4],
        ] {
            let g = families::multipartite(&parts.iter().map(|&x| x as u64).collect::<Vec<_>>())
                .unwrap();
            let ter = RemovingGame::new(Rule::Ter, g, Closure::HULL, 0).unwrap();
            let a = Solver::new(&ter).nim_of_start();
            let mg = MultisetGame::new(parts.clone());
            assert_eq!(a, Solver::new(&mg).nim_of_start(), "{parts:?}");
        }
    }
}
