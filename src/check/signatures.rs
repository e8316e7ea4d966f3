//! Table 5.1 (proof of Prop 5.14): the case analysis of nim(U) for the multiset terminate game
//! by the signature ρ(U) = (p, d). Each row states, for options Ũ, which d̃ occur under
//! conditions (1)–(4) and their nim-values, a subset and a superset of nim(Opt(U)), and the mex.
//! The checker *verifies* every row against every nonterminal multiset with sum up to a bound,
//! by exhaustive solving: a row is a claim about all the multisets whose signature it covers.

use super::{CheckError, Counterexample, Expectation, Loc, Report, Verdict};
use crate::game::multiset::{is_terminal, signature, MultisetGame};
use crate::game::{mex, Game};
use crate::solve::Solver;
use serde::Serialize;
use std::collections::BTreeSet;
use std::time::Instant;

/// The d of a row: `<= k`, `= k` or `>= k`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum DRange {
    Le(i64),
    Eq(i64),
    Ge(i64),
}

impl DRange {
    pub fn contains(self, d: i64) -> bool {
        match self {
            DRange::Le(k) => d <= k,
            DRange::Eq(k) => d == k,
            DRange::Ge(k) => d >= k,
        }
    }
    fn shifted(self, by: i64) -> DRange {
        match self {
            DRange::Le(k) => DRange::Le(k + by),
            DRange::Eq(k) => DRange::Eq(k + by),
            DRange::Ge(k) => DRange::Ge(k + by),
        }
    }
    /// LaTeX text such as `\leq -1`.
    fn tex(self) -> String {
        match self {
            DRange::Le(k) => format!("\\leq {k}"),
            DRange::Eq(k) => k.to_string(),
            DRange::Ge(k) => format!("\\geq {k}"),
        }
    }
}

/// One row of Table 5.1 as the paper states it. Columns: `same` (σ > 0, d̃ = d), `up`
/// (λ > 1, d̃ = d + 1), `down` (ν = 0, d̃ = d − 1), `inf` (λ = 1 and m = 2, d̃ = ∞); `None` is
/// a blank cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SigRow {
    pub p: u32,
    pub d: DRange,
    pub same: Option<u32>,
    pub up: Option<u32>,
    pub down: Option<u32>,
    pub inf: Option<u32>,
    pub subset: Vec<u32>,
    pub superset: Vec<u32>,
    pub mex: u32,
    /// The paper's boxes (`same`, `up`, `down`, `inf`): one of these columns' d̃ occurs in D
    /// for every U of the row (the "nontrivial claims" after Table 5.1). Empty: the boxes are
    /// the subset's values that more than one column gives.
    pub boxed: Vec<String>,
}

/// Which version of conditions (1)–(4) of the proof of Prop 5.14 to check on every multiset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Conditions {
    /// Not checked (the table's cells are checked regardless).
    Off,
    /// As the paper states them.
    Paper,
    /// With (1) corrected: d − 1 ∈ D iff ν = 0 and not (λ = 1 and m = 2), because decrementing
    /// the only maximum 2 of such a U gives a terminal option, whose d̃ is ∞.
    Corrected,
}

#[derive(Clone, Debug)]
pub struct SignatureTable {
    pub conditions: Conditions,
    pub id: String,
    pub file: String,
    pub source: String,
    pub title: String,
    pub notes: Option<String>,
    pub rows: Vec<SigRow>,
    pub max_sum: u32,
    pub expect: Expectation,
    pub loc: Loc,
}

/// A rendered cell: the d̃ and nim(Ũ) of one column.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct CellView {
    pub d: String,
    pub nim: String,
    pub boxed: bool,
}

#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct RowView {
    pub p: u32,
    pub d: String,
    pub p_tilde: u32,
    pub cells: Vec<CellView>,
    pub subset: String,
    pub superset: String,
    pub same_sets: bool,
    pub mex: u32,
    /// Multisets with sum ≤ max_sum whose signature falls in this row.
    pub multisets: u64,
}

#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct TableView {
    pub title: String,
    pub max_sum: u32,
    pub rows: Vec<RowView>,
}

fn all_multisets(max_sum: u32) -> Vec<Vec<u32>> {
    fn extend(rest: u32, cap: u32, cur: &mut Vec<u32>, out: &mut Vec<Vec<u32>>) {
        out.push(cur.clone());
        for p in (1..=cap.min(rest)).rev() {
            cur.push(p);
            extend(rest - p, p, cur, out);
            cur.pop();
        }
    }
    let mut out = Vec::new();
    extend(max_sum, max_sum, &mut Vec::new(), &mut out);
    // Smallest first, so that a refutation names the smallest multiset.
    out.sort_by_key(|u| (u.iter().sum::<u32>(), u.clone()));
    out
}

fn set_tex(s: &[u32]) -> String {
    if s.is_empty() {
        "\\emptyset".into()
    } else {
        format!(
            "\\{{{}\\}}",
            s.iter().map(u32::to_string).collect::<Vec<_>>().join(",")
        )
    }
}

impl SignatureTable {
    fn row_of(&self, p: u32, d: i64) -> Vec<usize> {
        (0..self.rows.len())
            .filter(|&i| self.rows[i].p == p && self.rows[i].d.contains(d))
            .collect()
    }

    pub fn check(&self) -> Result<(Report, TableView), CheckError> {
        let t0 = Instant::now();
        if self.max_sum > 30 {
            return Err(CheckError {
                loc: self.loc.clone(),
                message: "max_sum above 30 gives too many multisets".into(),
            });
        }
        let all = all_multisets(self.max_sum);
        let mut counts = vec![0u64; self.rows.len()];
        let mut verdict = Verdict::Holds;
        let mut checked = 0u64;
        // One solver over a game whose start is irrelevant: positions are multisets.
        let game = MultisetGame::new(vec![]);
        let mut solver = Solver::new(&game);
        'outer: for u in &all {
            let mut u = u.clone();
            u.sort_unstable();
            if is_terminal(&u) {
                continue;
            }
            checked += 1;
            let s = signature(&u);
            let d = s.d.expect("nonterminal multisets have a finite d");
            let label = game.label(&u);
            let fail =
                |claimed: String, computed: String, evidence: Vec<String>| Verdict::Refuted {
                    counterexample: Counterexample {
                        instance: format!("U = {label}"),
                        game: format!("TER({label})"),
                        position: None,
                        claimed,
                        computed,
                        evidence,
                    },
                };
            let rows = self.row_of(s.p, d);
            let [r] = rows[..] else {
                verdict = fail(
                    format!("exactly one row for ρ(U) = ({}, {d})", s.p),
                    format!("{} rows", rows.len()),
                    vec![],
                );
                break;
            };
            counts[r] += 1;
            let row = &self.rows[r];
            let opts = game.options(&u);
            let mut d_set: BTreeSet<Option<i64>> = BTreeSet::new();
            let mut nims = BTreeSet::new();
            let mut evidence = Vec::new();
            for o in &opts {
                let so = signature(o);
                let v = solver.nim(o);
                nims.insert(v);
                evidence.push(format!(
                    "{} ρ=({},{}) *{v}",
                    game.label(o),
                    so.p,
                    so.d.map_or("∞".to_string(), |x| x.to_string())
                ));
                if so.p != 1 - s.p {
                    verdict = fail(
                        format!("p̃ = {} for every option", 1 - s.p),
                        format!("p̃ = {} for {}", so.p, game.label(o)),
                        evidence,
                    );
                    break 'outer;
                }
                let (column, name) = match so.d {
                    None => (row.inf, "∞"),
                    Some(x) if x == d => (row.same, "d"),
                    Some(x) if x == d + 1 => (row.up, "d+1"),
                    Some(x) if x == d - 1 => (row.down, "d-1"),
                    Some(x) => {
                        verdict = fail(
                            "d̃ ∈ {d-1, d, d+1, ∞}".into(),
                            format!("d̃ = {x} for {}", game.label(o)),
                            evidence,
                        );
                        break 'outer;
                    }
                };
                match column {
                    Some(c) if c == v => {}
                    Some(c) => {
                        verdict = fail(
                            format!("nim(Ũ) = {c} when d̃ = {name}"),
                            format!("nim({}) = {v}", game.label(o)),
                            evidence,
                        );
                        break 'outer;
                    }
                    None => {
                        verdict = fail(
                            format!("no option with d̃ = {name} (blank cell)"),
                            format!("{} has d̃ = {name}", game.label(o)),
                            evidence,
                        );
                        break 'outer;
                    }
                }
                d_set.insert(so.d);
            }
            let inf_case = s.lambda == 1 && s.m == 2;
            let cond1 = match self.conditions {
                Conditions::Corrected => (
                    d_set.contains(&Some(d - 1)),
                    s.nu == 0 && !inf_case,
                    "(1') d-1 ∈ D iff ν = 0 and not (λ = 1 and m = 2)",
                ),
                _ => (
                    d_set.contains(&Some(d - 1)),
                    s.nu == 0,
                    "(1) d-1 ∈ D iff ν = 0",
                ),
            };
            let conditions = [
                cond1,
                (d_set.contains(&Some(d)), s.sigma > 0, "(2) d ∈ D iff σ > 0"),
                (
                    d_set.contains(&Some(d + 1)),
                    s.lambda > 1,
                    "(3) d+1 ∈ D iff λ > 1",
                ),
                (
                    d_set.contains(&None),
                    s.lambda == 1 && s.m == 2,
                    "(4) ∞ ∈ D iff λ = 1 and m = 2",
                ),
            ];
            for (have, want, name) in conditions
                .into_iter()
                .filter(|_| self.conditions != Conditions::Off)
            {
                if have != want {
                    verdict = fail(
                        name.to_string(),
                        format!(
                            "membership {have}, condition {want} (σ={}, λ={}, ν={}, m={})",
                            s.sigma, s.lambda, s.nu, s.m
                        ),
                        evidence,
                    );
                    break 'outer;
                }
            }
            if !row.boxed.is_empty() {
                let occurs = |c: &str| match c {
                    "same" => d_set.contains(&Some(d)),
                    "up" => d_set.contains(&Some(d + 1)),
                    "down" => d_set.contains(&Some(d - 1)),
                    _ => d_set.contains(&None),
                };
                if !row.boxed.iter().any(|c| occurs(c)) {
                    verdict = fail(
                        format!(
                            "one of the boxed columns {} occurs in D",
                            row.boxed.join(", ")
                        ),
                        "none does".into(),
                        evidence,
                    );
                    break;
                }
            }
            let sub: BTreeSet<u32> = row.subset.iter().copied().collect();
            let sup: BTreeSet<u32> = row.superset.iter().copied().collect();
            if !sub.is_subset(&nims) || !nims.is_subset(&sup) {
                verdict = fail(
                    format!("{:?} ⊆ nim(Opt(U)) ⊆ {:?}", sub, sup),
                    format!("nim(Opt(U)) = {nims:?}"),
                    evidence,
                );
                break;
            }
            let m = mex(nims.iter().copied());
            let actual = solver.nim(&u);
            if m != row.mex || actual != row.mex {
                verdict = fail(
                    format!("mex = nim(U) = {}", row.mex),
                    format!("nim(U) = {actual}"),
                    evidence,
                );
                break;
            }
        }
        let rows = self
            .rows
            .iter()
            .zip(&counts)
            .map(|(r, &n)| {
                let cell = |v: Option<u32>, d: String, column: &str| match v {
                    Some(x) => CellView {
                        d,
                        nim: x.to_string(),
                        boxed: if r.boxed.is_empty() {
                            r.subset.contains(&x) && r.subset.len() < r.superset.len()
                        } else {
                            r.boxed.iter().any(|b| b == column)
                        },
                    },
                    None => CellView {
                        d: String::new(),
                        nim: String::new(),
                        boxed: false,
                    },
                };
                RowView {
                    p: r.p,
                    d: r.d.tex(),
                    p_tilde: 1 - r.p,
                    cells: vec![
                        cell(r.same, r.d.tex(), "same"),
                        cell(r.up, r.d.shifted(1).tex(), "up"),
                        cell(r.down, r.d.shifted(-1).tex(), "down"),
                        cell(r.inf, "\\infty".into(), "inf"),
                    ],
                    subset: set_tex(&r.subset),
                    superset: set_tex(&r.superset),
                    same_sets: r.subset == r.superset,
                    mex: r.mex,
                    multisets: n,
                }
            })
            .collect();
        if verdict.holds() {
            if let Some(i) = counts.iter().position(|&c| c == 0) {
                verdict = Verdict::Refuted {
                    counterexample: Counterexample {
                        instance: format!("row {}", i + 1),
                        game: "TER(U)".into(),
                        position: None,
                        claimed: "some multiset has this signature".into(),
                        computed: format!("no multiset with sum <= {} does", self.max_sum),
                        evidence: vec![],
                    },
                };
            }
        }
        let report = Report {
            id: self.id.clone(),
            kind: "table".into(),
            source: self.source.clone(),
            file: self.file.clone(),
            instances: checked,
            positions: checked,
            range: format!("every nonterminal multiset with sum <= {}", self.max_sum),
            expect: self.expect,
            as_expected: verdict.matches(self.expect),
            verdict,
            notes: self.notes.clone(),
            coverage: Vec::new(),
            rests_on: Vec::new(),
            companion: None,
            excused: None,
            identity: None,
            laws: None,
            seconds: t0.elapsed().as_secs_f64(),
        }
        .with_coverage(
            self.rows
                .iter()
                .zip(&counts)
                .enumerate()
                .map(|(i, (r, &n))| super::PartCoverage {
                    // "d = 0" for one value, "d \leq -1" for a bound (the cell's TeX alone
                    // would read "d 0").
                    part: match r.d {
                        DRange::Eq(k) => format!("row {} (p = {}, d = {k})", i + 1, r.p),
                        d => format!("row {} (p = {}, d {})", i + 1, r.p, d.tex()),
                    },
                    instances: n,
                    positions: n,
                    unreached: None,
                    first: None,
                })
                .collect(),
        );
        Ok((
            report,
            TableView {
                title: self.title.clone(),
                max_sum: self.max_sum,
                rows,
            },
        ))
    }
}
