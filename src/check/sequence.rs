//! `kind: sequence`: the nim sequence of an octal game with its eventual period *proved* by the
//! Guy–Smith periodicity theorem (docs/design.md §1), checked against what a paper states: listed
//! values, a period, a preperiod, optionally claimed least (Prop 5.23 for Dawson's Chess).

use super::{CheckError, Counterexample, Expectation, Loc, Report, Verdict};
use crate::game::octal::{OctalCode, PeriodProof};
use serde::Serialize;
use std::time::Instant;

/// What the spec states about the sequence.
#[derive(Clone, Debug, Default)]
pub struct Stated {
    /// `G(0), G(1), …` as listed.
    pub values: Option<Vec<u32>>,
    pub period: Option<usize>,
    pub preperiod: Option<usize>,
    /// The stated preperiod is claimed to be the least one.
    pub least: bool,
}

#[derive(Clone, Debug)]
pub struct SequenceSpec {
    pub id: String,
    pub file: String,
    pub source: String,
    pub notes: Option<String>,
    pub title: String,
    pub code: OctalCode,
    /// How many values to compute (must reach the theorem's bound).
    pub length: usize,
    pub stated: Stated,
    pub expect: Expectation,
    pub loc: Loc,
}

/// One displayed value; `exceptional` marks `G(n) != G(n + period)`, `hat` a column in which
/// the displayed rows differ (the paper's hats, Prop 5.23: "the hats indicate where the entries
/// differ", the same columns in every row).
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Cell {
    pub n: usize,
    pub value: u32,
    pub exceptional: bool,
    pub hat: bool,
}

#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Row {
    pub start: usize,
    pub cells: Vec<Cell>,
}

/// The proved sequence, for templates.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct SequenceView {
    pub code: String,
    pub title: String,
    pub period: usize,
    pub preperiod: usize,
    pub last_exception: Option<usize>,
    pub checked_to: usize,
    pub certificate: String,
    /// Rows of one period each, from n = 0; the last is the period, from `period_start` (the
    /// least multiple of the period at or after the least preperiod), the others a preperiod.
    pub rows: Vec<Row>,
    pub period_start: usize,
}

/// The paper's hats: every cell of a column in which the rows do not all agree (Prop 5.23
/// marks the same five columns in each of its three rows).
fn mark_hats(rows: &mut [Row]) {
    let width = rows.iter().map(|r| r.cells.len()).min().unwrap_or(0);
    for c in 0..width {
        let first = rows[0].cells[c].value;
        let differ = rows.iter().any(|r| r.cells[c].value != first);
        for r in rows.iter_mut() {
            r.cells[c].hat = differ;
        }
    }
}

/// Least `e` with `g[n + p] == g[n]` for all `e <= n`, using that `g` is periodic with the
/// proved `proof` beyond the computed range (so only `n < proof.preperiod + p` needs a look).
fn least_preperiod_for(g: &[u32], proof: &PeriodProof, p: usize) -> usize {
    let upto = proof.preperiod + p;
    (0..upto)
        .rev()
        .find(|&n| g[n + p] != g[n])
        .map_or(0, |n| n + 1)
}

impl SequenceSpec {
    pub fn check(&self) -> Result<(Report, SequenceView), CheckError> {
        let t0 = Instant::now();
        let g = self.code.nim_sequence(self.length);
        let per = crate::game::octal::periodicity_of(&g, self.code.max_removal());
        let proof = per.proof.clone().ok_or_else(|| CheckError {
            loc: self.loc.clone(),
            message: format!(
                "no period of {} is proved within {} values; raise `length`",
                self.code.text(),
                self.length
            ),
        })?;
        let need = proof.preperiod + 3 * proof.period;
        if g.len() < need {
            return Err(CheckError {
                loc: self.loc.clone(),
                message: format!("raise `length` to at least {need} to display the sequence"),
            });
        }
        let refute = |claimed: String, computed: String, evidence: Vec<String>| Verdict::Refuted {
            counterexample: Counterexample {
                instance: "single instance".into(),
                game: self.code.text().to_string(),
                position: None,
                claimed,
                computed,
                evidence,
            },
        };
        let mut verdict = Verdict::Holds;
        if let Some(vals) = &self.stated.values {
            if vals.len() > g.len() {
                return Err(CheckError {
                    loc: self.loc.clone(),
                    message: format!(
                        "{} values are listed; raise `length` to at least that",
                        vals.len()
                    ),
                });
            }
            if let Some(n) = (0..vals.len()).find(|&n| vals[n] != g[n]) {
                verdict = refute(
                    format!("G({n}) = {}", vals[n]),
                    format!("G({n}) = {}", g[n]),
                    vec![],
                );
            }
        }
        if self.stated.least && self.stated.preperiod.is_none() {
            return Err(CheckError {
                loc: self.loc.clone(),
                message: "`least_preperiod: true` claims nothing without a `preperiod`".into(),
            });
        }
        if verdict.holds() {
            // A preperiod stated without a period is a preperiod of the least period (the
            // least preperiod is the same for every period of an eventually periodic sequence).
            let stated_period = self
                .stated
                .period
                .or(self.stated.preperiod.map(|_| proof.period));
            if let Some(p) = stated_period {
                if p == 0 || p % proof.period != 0 {
                    verdict = refute(
                        format!("period {p}"),
                        format!("least period {} (does not divide {p})", proof.period),
                        vec![],
                    );
                } else if let Some(e) = self.stated.preperiod {
                    if g.len() < proof.preperiod + 2 * p {
                        return Err(CheckError {
                            loc: self.loc.clone(),
                            message: format!(
                                "raise `length` to at least {}",
                                proof.preperiod + 2 * p
                            ),
                        });
                    }
                    let least = least_preperiod_for(&g, &proof, p);
                    let witness =
                        |n: usize| format!("G({n}) = {} ≠ G({}) = {}", g[n], n + p, g[n + p]);
                    if e < least {
                        verdict = refute(
                            format!("preperiod {e} with period {p}"),
                            format!("least preperiod {least}"),
                            vec![witness(least - 1)],
                        );
                    } else if self.stated.least && e != least {
                        let ev = if least > 0 {
                            vec![
                                witness(least - 1),
                                format!("G(n + {p}) = G(n) for every n >= {least}"),
                            ]
                        } else {
                            vec![]
                        };
                        verdict = refute(
                            format!("least preperiod {e}"),
                            format!("least preperiod {least}"),
                            ev,
                        );
                    }
                }
            }
        }
        let mut rows: Vec<Row> = (0..need)
            .step_by(proof.period)
            .map(|start| Row {
                start,
                cells: (start..start + proof.period)
                    .map(|n| Cell {
                        n,
                        value: g[n],
                        exceptional: g[n] != g[n + proof.period],
                        hat: false,
                    })
                    .collect(),
            })
            .take_while(|r| r.start < proof.preperiod + proof.period)
            .collect();
        mark_hats(&mut rows);
        let period_start = rows.last().map_or(0, |r| r.start);
        let view = SequenceView {
            code: self.code.text().to_string(),
            title: self.title.clone(),
            period: proof.period,
            preperiod: proof.preperiod,
            last_exception: proof.last_exception,
            checked_to: per.checked_to,
            certificate: format!(
                "G(n + {}) = G(n) for {} <= n < {} (Guy-Smith bound 2*{} + {} + {})",
                proof.cert_period,
                proof.cert_preperiod,
                proof.cert_bound,
                proof.cert_preperiod,
                proof.cert_period,
                self.code.max_removal()
            ),
            rows,
            period_start,
        };
        let report = Report {
            id: self.id.clone(),
            kind: "sequence".into(),
            source: self.source.clone(),
            file: self.file.clone(),
            instances: 1,
            positions: per.checked_to as u64,
            range: format!("{} values computed, period proved", per.checked_to),
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
        };
        Ok((report, view))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Prop 5.23's three rows of Dawson's Chess, with the paper's hats: the same five columns
    /// (0, 14, 16, 17, 31) in every row, 15 hats, where the entries differ.
    #[test]
    fn hats_mark_the_columns_where_the_rows_differ_as_the_paper_does() {
        let printed = [
            "0112031103322405223301130211045274",
            "0112031103322445523301130211045374",
            "8112031103322445593301130211045374",
        ];
        let row = |k: usize, hat: &dyn Fn(usize, usize) -> bool| Row {
            start: 34 * k,
            cells: printed[k]
                .chars()
                .enumerate()
                .map(|(c, d)| Cell {
                    n: 34 * k + c,
                    value: d.to_digit(10).unwrap(),
                    exceptional: false,
                    hat: hat(k, c),
                })
                .collect(),
        };
        let mut rows: Vec<Row> = (0..3).map(|k| row(k, &|_, _| false)).collect();
        mark_hats(&mut rows);
        for r in &rows {
            let cols: Vec<usize> = r
                .cells
                .iter()
                .filter(|c| c.hat)
                .map(|c| c.n - r.start)
                .collect();
            assert_eq!(cols, [0, 14, 16, 17, 31], "row {}", r.start);
        }
        // The wrong variant: a hat where G(n) != G(n + 34), which the file printed (5 hats,
        // none in the period row), is not the paper's marking.
        let next =
            |k: usize, c: usize| k < 2 && printed[k].as_bytes()[c] != printed[k + 1].as_bytes()[c];
        let old: Vec<Row> = (0..3).map(|k| row(k, &next)).collect();
        let count = |rs: &[Row]| rs.iter().flat_map(|r| &r.cells).filter(|c| c.hat).count();
        assert_eq!((count(&rows), count(&old)), (15, 5));
        assert_ne!(rows, old);
    }
}
