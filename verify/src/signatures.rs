//! Table 5.1 (`table: signatures`; paper 000 §5.3, the proof of Prop 5.14) re-derived: every
//! row against every multiset of its signature, and the rendered table read.
//!
//! The multiset terminate game TER(U): a move decreases a positive element of U by 1; U is
//! terminal when every element is below 2. Its signature ρ(U) = (p, d), p = pty(‖U‖),
//! d = m − Σ_{u ∈ U'} (u − 1) with U' the elements ≥ 2 less one copy of the maximum m, d = ∞ on
//! terminal U; σ counts the ones, λ the elements ≥ 2, ν the copies of m less one. The verifier
//! takes the moves and these numbers from its own multiset game (`games/multiset.rs`), and
//! nim by mex over the options, memoised.
//!
//! For every nonterminal multiset U of positive integers with ‖U‖ ≤ `max_sum` (the partitions),
//! exactly one row has U's p and a d range holding U's d; for every option Ũ, p̃ = 1 − p and
//! d̃ is d (column `same`), d + 1 (`up`), d − 1 (`down`) or ∞ (`inf`), and that column is not
//! blank and states nim(Ũ). With D the columns that occur, a row's `boxed` columns meet D (the
//! three nontrivial claims after the table), `subset` ⊆ nim(Opt(U)) ⊆ `superset`, and the mex
//! of nim(Opt(U)) is the row's `mex`. With `conditions: paper` the conditions (1)–(4) of the
//! proof hold at U: d − 1 ∈ D iff ν = 0, d ∈ D iff σ > 0, d + 1 ∈ D iff λ > 1, ∞ ∈ D iff λ = 1
//! and m = 2; `corrected` reads (1) as d − 1 ∈ D iff ν = 0 and not (λ = 1 and m = 2). Every
//! row covers some multiset. The certificate's count of multisets per row must be the
//! verifier's; a refutation names its counterexample U (or an empty row) and, if it is one,
//! the condition that fails, and the verifier finds it failing there itself.
//!
//! A file rendered through `table_5_1.tex` is read from the output folder: its first comment
//! names the spec's sha256, and every row of numbers is the spec's row of its printed p and d,
//! each row once, every entry as the spec (re-derived above) states it: p̃, each column's d̃
//! and nim(Ũ) (blank when the spec's is), the boxes (`\grundygroupbox{style}{value}`, on the
//! `boxed` columns, or, when a row lists none, on the subset's values if the subset is smaller
//! than the superset; styles 1, 2, 3 in turn over the boxed rows), the subset and superset
//! (one set when equal) and the mex. TeX markup is read, not compiled: `$`, spaces and `\,`
//! dropped, `\leq`, `\geq`, `\infty`, `\emptyset`, `\{`, `\}` read as `<=`, `>=`, `inf`, `{}`.

use crate::derive::{Rederived, Stop};
use crate::formula::{Env, Val};
use crate::games::{mex, Game, Pos, Rules};
use crate::spec::Raw;
use serde::Deserialize;
use std::collections::{BTreeSet, HashMap};

/// Largest `max_sum` enumerated (the partitions of at most 30: about 28,600).
const MAX_SUM: u32 = 30;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Data {
    max_sum: u32,
    #[serde(default)]
    conditions: Option<String>,
    rows: Vec<Row>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Row {
    p: i64,
    d: String,
    same: Option<u32>,
    up: Option<u32>,
    down: Option<u32>,
    inf: Option<u32>,
    subset: Vec<u32>,
    superset: Vec<u32>,
    mex: u32,
    #[serde(default)]
    boxed: Vec<String>,
}

/// The columns: name, d̃ − d (`None`: d̃ = ∞).
const COLUMNS: [(&str, Option<i64>); 4] = [
    ("same", Some(0)),
    ("up", Some(1)),
    ("down", Some(-1)),
    ("inf", None),
];

impl Row {
    fn cell(&self, column: &str) -> Option<u32> {
        match column {
            "same" => self.same,
            "up" => self.up,
            "down" => self.down,
            _ => self.inf,
        }
    }
}

/// A row's d: `<=k`, `k` or `>=k`, as (k, -1 | 0 | 1).
fn range(t: &str) -> Result<(i64, i8), Stop> {
    let t = t.replace(' ', "");
    let (k, side) = match (t.strip_prefix("<="), t.strip_prefix(">=")) {
        (Some(k), _) => (k, -1),
        (_, Some(k)) => (k, 1),
        _ => (t.as_str(), 0),
    };
    let k = k
        .parse()
        .map_err(|_| Stop::Not(format!("the row's d `{t}` is not <=k, k or >=k")))?;
    Ok((k, side))
}

fn contains((k, side): (i64, i8), d: i64) -> bool {
    d.cmp(&k) as i8 == side || d == k
}

/// A range as the rendered table shows it, markup read ([`read_tex`]).
fn range_text((k, side): (i64, i8)) -> String {
    format!("{}{k}", ["<=", "", ">="][(side + 1) as usize])
}

/// ρ(U) and the counts, from the multiset game's features: (p, d, σ, λ, ν, m).
struct Sig {
    p: i64,
    d: Option<i64>,
    sigma: i64,
    lambda: i64,
    nu: i64,
    m: i64,
}

fn sig(rules: &Rules, u: &Pos) -> Sig {
    let mut env = Env::default();
    rules.features(&mut env, u);
    let get = |k: &str| match env.vars.iter().find(|(n, _)| n == k) {
        Some((_, Val::Int(i))) => *i,
        Some((_, Val::Bool(b))) => *b as i64,
        _ => unreachable!("the multiset game sets `{k}`"),
    };
    Sig {
        p: get("p"),
        d: (get("d_infinite") == 0).then(|| get("d")),
        sigma: get("sigma"),
        lambda: get("lambda"),
        nu: get("nu"),
        m: get("m"),
    }
}

struct Solver {
    rules: Rules,
    memo: HashMap<Pos, u32>,
}

impl Solver {
    fn new() -> Result<Solver, Stop> {
        let game = Game::parse("TER{2}").map_err(Stop::Not)?;
        Ok(Solver {
            rules: Rules::new(&game).map_err(Stop::Not)?,
            memo: HashMap::new(),
        })
    }

    /// nim(U) = mex nim(Opt(U)); the depth is at most ‖U‖.
    fn nim(&mut self, u: &Pos) -> u32 {
        if let Some(&v) = self.memo.get(u) {
            return v;
        }
        let opts = self.rules.options_list(u).expect("multiset moves");
        let vals: Vec<u32> = opts.iter().map(|o| self.nim(o)).collect();
        let v = mex(&vals);
        self.memo.insert(u.clone(), v);
        v
    }
}

fn show(u: &[u32]) -> String {
    let s: Vec<String> = u.iter().map(u32::to_string).collect();
    format!("U = {{{}}}", s.join(","))
}

/// Every multiset of positive integers with sum at most `n`, ascending, the smaller sums first.
fn partitions(n: u32) -> Vec<Vec<u32>> {
    fn grow(rest: u32, least: u32, cur: &mut Vec<u32>, out: &mut Vec<Vec<u32>>) {
        out.push(cur.clone());
        for x in least..=rest {
            cur.push(x);
            grow(rest - x, x, cur, out);
            cur.pop();
        }
    }
    let mut out = Vec::new();
    grow(n, 1, &mut Vec::new(), &mut out);
    out.sort_by_key(|u| (u.iter().sum::<u32>(), u.clone()));
    out
}

/// The spec's table, read.
struct Table {
    data: Data,
    ranges: Vec<(i64, i8)>,
    conditions: Option<bool>,
}

fn read(raw: &Raw) -> Result<Table, Stop> {
    if raw.table.as_deref() != Some("signatures") {
        return Err(Stop::Reject(
            "a signature table's certificate answers a `table: signatures` spec only".into(),
        ));
    }
    let data: Data = raw
        .data
        .clone()
        .ok_or_else(|| Stop::Not("no `data`".into()))
        .and_then(|d| {
            serde_json::from_value(d)
                .map_err(|e| Stop::Not(format!("`data` the verifier does not read: {e}")))
        })?;
    if data.max_sum > MAX_SUM {
        return Err(Stop::Not(format!("max_sum above {MAX_SUM}")));
    }
    let conditions = match data.conditions.as_deref() {
        None | Some("none") => None,
        Some("paper") => Some(false),
        Some("corrected") => Some(true),
        Some(c) => return Err(Stop::Not(format!("conditions `{c}`"))),
    };
    let ranges = data
        .rows
        .iter()
        .map(|r| range(&r.d))
        .collect::<Result<_, _>>()?;
    Ok(Table {
        data,
        ranges,
        conditions,
    })
}

impl Table {
    /// The row of U and what fails at U: each failure with the condition it is ("(1)"…) if
    /// one of (1)–(4).
    fn at(&self, s: &mut Solver, u: &[u32]) -> (Option<usize>, Vec<(Option<&str>, String)>) {
        let pos = Pos::List(u.to_vec());
        let g = sig(&s.rules, &pos);
        let d = g.d.expect("U is not terminal");
        let mut fails: Vec<(Option<&str>, String)> = Vec::new();
        let rows: Vec<usize> = (0..self.data.rows.len())
            .filter(|&i| self.data.rows[i].p == g.p && contains(self.ranges[i], d))
            .collect();
        let [r] = rows[..] else {
            let why = format!(
                "ρ(U) = ({}, {d}) is in {} rows of the table",
                g.p,
                rows.len()
            );
            return (None, vec![(None, why)]);
        };
        let row = &self.data.rows[r];
        let (mut dd, mut nims) = (BTreeSet::new(), BTreeSet::new());
        for o in s.rules.options_list(&pos).expect("multiset moves") {
            let (go, v) = (sig(&s.rules, &o), s.nim(&o));
            let name = show(o.list()).replacen("U", "Ũ", 1);
            nims.insert(v);
            if go.p != 1 - g.p {
                fails.push((None, format!("{name} has p̃ = {}", go.p)));
            }
            let Some((c, _)) = COLUMNS.iter().find(|(_, k)| *k == go.d.map(|x| x - d)) else {
                fails.push((
                    None,
                    format!("{name} has d̃ = {:?}, not d ± 1, d or ∞", go.d),
                ));
                continue;
            };
            dd.insert(*c);
            match row.cell(c) {
                None => fails.push((None, format!("{name} is in the blank column `{c}`"))),
                Some(x) if x != v => fails.push((
                    None,
                    format!("{name} in column `{c}` has nim {v}, the row states {x}"),
                )),
                Some(_) => {}
            }
        }
        let mut ks: Vec<i64> = COLUMNS
            .iter()
            .filter(|(c, _)| dd.contains(c))
            .map(|(_, k)| k.map_or(i64::MAX, |k| d + k))
            .collect();
        ks.sort_unstable();
        let shown: Vec<String> = ks
            .iter()
            .map(|&k| {
                if k == i64::MAX {
                    "∞".into()
                } else {
                    k.to_string()
                }
            })
            .collect();
        let vals = format!(
            "d = {d}, D = {{{}}}, σ = {}, λ = {}, ν = {}, m = {}",
            shown.join(", "),
            g.sigma,
            g.lambda,
            g.nu,
            g.m
        );
        if let Some(corrected) = self.conditions {
            let inf = g.lambda == 1 && g.m == 2;
            let one = match corrected {
                false => "d − 1 ∈ D iff ν = 0",
                true => "d − 1 ∈ D iff ν = 0 and not (λ = 1 and m = 2)",
            };
            for (k, c, want, text) in [
                ("(1)", "down", g.nu == 0 && !(corrected && inf), one),
                ("(2)", "same", g.sigma > 0, "d ∈ D iff σ > 0"),
                ("(3)", "up", g.lambda > 1, "d + 1 ∈ D iff λ > 1"),
                ("(4)", "inf", inf, "∞ ∈ D iff λ = 1 and m = 2"),
            ] {
                if dd.contains(c) != want {
                    fails.push((Some(k), format!("condition {k} ({text}) fails: {vals}")));
                }
            }
        }
        if !row.boxed.is_empty() && !row.boxed.iter().any(|b| dd.contains(b.as_str())) {
            fails.push((
                None,
                format!("no boxed column {:?} occurs ({vals})", row.boxed),
            ));
        }
        let sub: BTreeSet<u32> = row.subset.iter().copied().collect();
        let sup: BTreeSet<u32> = row.superset.iter().copied().collect();
        if !sub.is_subset(&nims) || !nims.is_subset(&sup) {
            fails.push((
                None,
                format!("nim(Opt(U)) = {nims:?}, not between {sub:?} and {sup:?}"),
            ));
        }
        let m = mex(&nims.iter().copied().collect::<Vec<_>>());
        if m != row.mex {
            fails.push((
                None,
                format!("mex nim(Opt(U)) = {m}, the row states {}", row.mex),
            ));
        }
        (Some(r), fails)
    }

    /// Every multiset: the count per row, or the first failure.
    fn all(&self, s: &mut Solver) -> Result<Vec<u64>, String> {
        let mut counts = vec![0u64; self.data.rows.len()];
        for u in partitions(self.data.max_sum) {
            if u.iter().all(|&x| x < 2) {
                continue;
            }
            match self.at(s, &u) {
                (Some(r), f) if f.is_empty() => counts[r] += 1,
                (_, f) => return Err(format!("the claim fails at {}: {}", show(&u), f[0].1)),
            }
        }
        match counts.iter().position(|&c| c == 0) {
            Some(i) => Err(format!("row {} covers no multiset", i + 1)),
            None => Ok(counts),
        }
    }
}

/// Why a signature table listed as not certified is rejected (main.rs).
pub const NO_BUDGET: &str = "a signature table is within every budget (the verifier re-derives it from the spec alone), so it has a certificate";

/// A holding table: every row re-derived on every multiset, the counts the certificate's, the
/// rendered files read.
pub fn derive(raw: &Raw, listed: &[u64]) -> Result<Rederived, Stop> {
    let t = read(raw)?;
    let counts = t.all(&mut Solver::new()?).map_err(Stop::Reject)?;
    if counts != listed {
        return Err(Stop::Reject(format!(
            "the certificate counts {listed:?} multisets per row, the verifier {counts:?}"
        )));
    }
    for f in outputs(raw) {
        rendered(&f, &raw.sha256, &t).map_err(|m| Stop::Reject(format!("{f}: {m}")))?;
    }
    let n = counts.iter().sum::<u64>() as usize;
    Ok(Rederived {
        certified: n,
        total: n,
    })
}

/// A refutation: the claim fails at the counterexample (`U = {…}`, or `row i` covering no
/// multiset), at the condition named if one is.
pub fn refuted(raw: &Raw, instance: &str, condition: Option<&str>) -> Result<String, Stop> {
    let t = read(raw)?;
    let mut s = Solver::new()?;
    let not_instance = || {
        Stop::Reject(format!(
            "the counterexample {instance} is not an instance of the spec"
        ))
    };
    if let Some(i) = instance.strip_prefix("row ") {
        let i: usize = i.parse().map_err(|_| not_instance())?;
        return match t.all(&mut s) {
            Err(why) if why == format!("row {i} covers no multiset") => Ok(why),
            _ => Err(Stop::Reject(format!(
                "{instance} covers a multiset or another part of the claim fails first"
            ))),
        };
    }
    let u: Vec<u32> = instance
        .strip_prefix("U = {")
        .and_then(|r| r.strip_suffix('}'))
        .and_then(|r| r.split(',').map(|x| x.parse().ok()).collect())
        .ok_or_else(not_instance)?;
    let sum: u32 = u.iter().sum();
    if show(&u) != instance
        || u.windows(2).any(|w| w[0] > w[1])
        || u.contains(&0)
        || sum > t.data.max_sum
        || u.iter().all(|&x| x < 2)
    {
        return Err(not_instance());
    }
    let (_, fails) = t.at(&mut s, &u);
    let found = match condition {
        None => fails.first(),
        Some(c) => fails.iter().find(|(k, _)| *k == Some(c)),
    };
    match (found, condition) {
        (Some((_, why)), _) => Ok(format!("the claim fails at {instance}: {why}")),
        (None, Some(c)) if !fails.is_empty() => Err(Stop::Reject(format!(
            "condition {c} holds at the counterexample {instance}"
        ))),
        _ => Err(Stop::Reject(format!(
            "the claim holds at the counterexample {instance}: every row entry and condition"
        ))),
    }
}

/// The files the spec renders through `table_5_1.tex`.
fn outputs(raw: &Raw) -> Vec<String> {
    let list = raw.output.as_ref().and_then(|o| o.as_array());
    list.into_iter()
        .flatten()
        .filter(|o| o.get("template").and_then(|t| t.as_str()) == Some("table_5_1.tex"))
        .filter_map(|o| Some(o.get("path")?.as_str()?.to_string()))
        .collect()
}

/// A cell's TeX markup read (see the module header).
fn read_tex(t: &str) -> String {
    t.replace("\\leq", "<=")
        .replace("\\geq", ">=")
        .replace("\\infty", "inf")
        .replace("\\emptyset", "{}")
        .replace("\\,", "")
        .replace("\\{", "{")
        .replace("\\}", "}")
        .chars()
        .filter(|c| !matches!(c, '$' | ' '))
        .collect()
}

/// `{a,b}` groups of a read cell, as sets.
fn sets(t: &str) -> Option<Vec<BTreeSet<u32>>> {
    t.split('}')
        .filter(|g| !g.is_empty())
        .map(|g| {
            let g = g.trim_start_matches(',').strip_prefix('{')?;
            g.split(',')
                .filter(|x| !x.is_empty())
                .map(|x| x.parse().ok())
                .collect()
        })
        .collect()
}

fn rendered(rel: &str, sha256: &str, t: &Table) -> Result<(), String> {
    let text = crate::tables::read_output(rel, sha256)?;
    let mut seen = vec![false; t.data.rows.len()];
    let mut group = 0;
    for (k, line) in text.lines().enumerate() {
        let Some((body, _)) = line.split('%').next().unwrap_or("").split_once("\\\\") else {
            continue;
        };
        let cells: Vec<String> = body.split('&').map(|c| c.trim().to_string()).collect();
        // A row of the header has no number in a cell of its own.
        if !cells.iter().any(|c| read_tex(c).parse::<i64>().is_ok()) {
            continue;
        }
        let at = |m: String| format!("line {}: {m}", k + 1);
        let p: i64 = cells[0]
            .parse()
            .map_err(|_| at(format!("numbers in a row whose p is `{}`", cells[0])))?;
        let d = cells.get(1).map(|c| read_tex(c)).unwrap_or_default();
        let r = (0..t.data.rows.len())
            .find(|&i| t.data.rows[i].p == p && range_text(t.ranges[i]) == d)
            .ok_or_else(|| at(format!("the row p = {p}, d = {d} is no row of the spec")))?;
        if std::mem::replace(&mut seen[r], true) {
            return Err(at(format!("the row p = {p}, d = {d} is printed twice")));
        }
        let row = &t.data.rows[r];
        if cells.len() != 13 {
            return Err(at(format!("{} cells, not 13", cells.len())));
        }
        let boxed = |c: &str, v: u32| match row.boxed.is_empty() {
            true => row.subset.contains(&v) && row.subset.len() < row.superset.len(),
            false => row.boxed.iter().any(|b| b == c),
        };
        if COLUMNS
            .iter()
            .any(|(c, _)| row.cell(c).is_some_and(|v| boxed(c, v)))
        {
            group += 1;
        }
        let style = (group + 2) % 3 + 1;
        let mut want = vec![((1 - p).to_string(), String::new())];
        let mut got = vec![(cells[2].clone(), String::new())];
        for (j, (c, shift)) in COLUMNS.iter().enumerate() {
            let (dt, nim) = (read_tex(&cells[3 + 2 * j]), cells[4 + 2 * j].clone());
            got.push((dt, nim));
            want.push(match (row.cell(c), shift) {
                (None, _) => (String::new(), String::new()),
                (Some(v), None) => ("inf".into(), box_tex(boxed(c, v), style, v)),
                (Some(v), Some(s)) => {
                    let (k, side) = t.ranges[r];
                    (range_text((k + s, side)), box_tex(boxed(c, v), style, v))
                }
            });
        }
        let names = ["p̃", "same", "up", "down", "inf"];
        for ((g, w), name) in got.iter().zip(&want).zip(names) {
            if g != w {
                return Err(at(format!(
                    "the row p = {p}, d = {d} prints {g:?} under `{name}`, the spec's row (re-derived) has {w:?}"
                )));
            }
        }
        let (sub, sup): (BTreeSet<u32>, BTreeSet<u32>) = (
            row.subset.iter().copied().collect(),
            row.superset.iter().copied().collect(),
        );
        let want_sets = if sub == sup {
            vec![sup]
        } else {
            vec![sub, sup]
        };
        if sets(&read_tex(&cells[11])) != Some(want_sets.clone()) {
            return Err(at(format!(
                "the row p = {p}, d = {d} prints nim∘Opt {}, the spec's row (re-derived) has {want_sets:?}",
                cells[11]
            )));
        }
        if cells[12] != row.mex.to_string() {
            return Err(at(format!(
                "the row p = {p}, d = {d} prints mex {}, the spec's row (re-derived) has {}",
                cells[12], row.mex
            )));
        }
    }
    match seen.iter().position(|s| !s) {
        Some(i) => Err(format!("row {} of the spec is not printed", i + 1)),
        None => Ok(()),
    }
}

fn box_tex(boxed: bool, style: u32, v: u32) -> String {
    match boxed {
        true => format!("\\grundygroupbox{{{style}}}{{{v}}}"),
        false => v.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The partitions of n ≤ 20 number Σ p(n) = 2,714 (A000041), ones-only ones included.
    #[test]
    fn partitions_counted() {
        assert_eq!(partitions(20).len(), 2714);
        assert_eq!(partitions(4).len(), 1 + 1 + 2 + 3 + 5);
    }

    /// Examples 5.12 and 5.13: ρ({1,1,2,3,3}) = (0, 0); U of Example 5.12 has σ = 2, λ = 6,
    /// ν = 2, m = 3, p = 1; and nim(TER({1,2,2})) = 2 (Example 5.11's game).
    #[test]
    fn signatures_of_the_examples() {
        let mut s = Solver::new().unwrap();
        let g = sig(&s.rules, &Pos::List(vec![1, 1, 2, 3, 3]));
        assert_eq!((g.p, g.d), (0, Some(0)));
        let g = sig(&s.rules, &Pos::List(vec![0, 1, 1, 2, 2, 2, 3, 3, 3]));
        assert_eq!((g.sigma, g.lambda, g.nu, g.m, g.p), (2, 6, 2, 3, 1));
        assert_eq!(s.nim(&Pos::List(vec![1, 2, 2])), 2);
        assert!(contains((-1, -1), -3) && contains((4, 1), 4) && !contains((0, 0), 1));
        assert_eq!(range_text((-2, -1)), "<=-2");
        assert_eq!(read_tex("$\\emptyset,\\,\\{1,2\\}$"), "{},{1,2}");
        assert_eq!(sets("{},{1,2}"), Some(vec![BTreeSet::new(), [1, 2].into()]));
    }
}
