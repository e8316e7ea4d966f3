//! Re-deriving a spec's claim from the spec itself (issue 26): the instance list from `params`,
//! `let` and `where`; each instance's game or graph from its name (by [`crate::names`]); the
//! value, outcome, token set or map property the spec states (by [`crate::formula`]). The
//! certificate's evidence ([`crate::checks::Evidence`]) must then answer exactly that question:
//! every instance the spec names is certified or listed as not certified, with the spec's own
//! game, and the value the evidence establishes is the value the spec states.
//!
//! What the verifier cannot re-derive (a formula reading a game feature, a set of graphs it
//! does not enumerate, a game it does not build) makes the result "not re-derived", with the
//! reason; it is never reported verified.

use crate::checks::{Certificate, ClosureEntry, Evidence, KernelFact, MapFact, TableFact};
use crate::features;
use crate::formula::{engine, Env, Evaluator, FormulaError, Val};
use crate::games::{Game, Pos, Rules};
use crate::names::{parse_graph, same_graph, substitute};
use crate::spec::{formula_text, Raw};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet, HashSet};

/// Why re-deriving stopped: the verifier cannot (the claim is not re-derived), or the
/// certificate does not answer the spec's question (it is rejected).
#[derive(Debug)]
pub enum Stop {
    Not(String),
    Reject(String),
}

impl From<FormulaError> for Stop {
    fn from(e: FormulaError) -> Stop {
        match e {
            FormulaError::NotEvaluable(m) => Stop::Not(m),
            FormulaError::Failed(m) => Stop::Not(format!("the verifier's evaluation failed: {m}")),
        }
    }
}

/// The claim re-derived: instances certified, of the instances the spec names.
pub struct Rederived {
    pub certified: usize,
    pub total: usize,
}

/// Most instances enumerated for one spec.
const MAX_INSTANCES: usize = 1_000_000;

pub(crate) struct Inst {
    pub(crate) label: String,
    pub(crate) env: Env,
    /// Parameter values as text, for substitution into names.
    pub(crate) names: Vec<(String, String)>,
}

/// The values of one parameter.
fn param_values(name: &str, v: &Value) -> Result<Vec<Val>, Stop> {
    let bad = |m: &str| Stop::Not(format!("parameter `{name}`: {m}"));
    let int = |s: &str| -> Result<i64, Stop> {
        s.trim()
            .parse()
            .map_err(|_| bad(&format!("`{s}` is not an integer")))
    };
    let ints: Vec<i64> = match v {
        Value::Number(n) => vec![n.as_i64().ok_or_else(|| bad("not an integer"))?],
        Value::Array(a) => a
            .iter()
            .map(|x| x.as_i64().ok_or_else(|| bad("a list of integers")))
            .collect::<Result<_, _>>()?,
        Value::String(t) => {
            if let Some((a, b)) = t.split_once("..=") {
                let (a, b) = (int(a)?, int(b)?);
                if b.saturating_sub(a) >= MAX_INSTANCES as i64 {
                    return Err(bad("range too large"));
                }
                (a..=b).collect()
            } else if let Some((a, b)) = t.split_once("..<") {
                let (a, b) = (int(a)?, int(b)?);
                if b.saturating_sub(a) > MAX_INSTANCES as i64 {
                    return Err(bad("range too large"));
                }
                (a..b).collect()
            } else if t.contains("..") {
                // grundy refuses `a..b` as ambiguous (inclusive or not?); so does the verifier.
                return Err(bad("`a..b` is ambiguous: ranges are `a..=b` or `a..<b`"));
            } else {
                t.split(',').map(int).collect::<Result<_, _>>()?
            }
        }
        Value::Object(o) if o.contains_key("multisets") => {
            return multisets(name, &o["multisets"]);
        }
        Value::Object(o) if o.contains_key("graphs") => return graphs(name, &o["graphs"]),
        Value::Object(o) if o.contains_key("posets") => return posets(name, &o["posets"]),
        _ => return Err(bad("a range the verifier does not read")),
    };
    Ok(ints.into_iter().map(Val::Int).collect())
}

/// `{graphs: {vertices: "a..=b"}}` (or one count): every connected graph with a or up to b
/// vertices, one per isomorphism class, as its least graph6 string
/// ([`crate::enumerate`], at most 7 vertices); bound to the parameter as text, as grundy
/// binds it.
fn graphs(name: &str, b: &Value) -> Result<Vec<Val>, Stop> {
    let bad = |m: &str| Stop::Not(format!("parameter `{name}`: {m}"));
    let keys: Vec<&String> = b
        .as_object()
        .map(|o| o.keys().collect())
        .unwrap_or_default();
    if keys != ["vertices"] {
        return Err(bad("a set of graphs given by anything but `vertices`"));
    }
    let int = |t: &str| {
        t.trim()
            .parse::<usize>()
            .map_err(|_| bad("not a vertex count"))
    };
    let (lo, hi) = match &b["vertices"] {
        Value::Number(n) => {
            let v = n.as_u64().ok_or_else(|| bad("not a vertex count"))? as usize;
            (v, v)
        }
        Value::String(t) => match t.split_once("..=") {
            Some((a, c)) => (int(a)?, int(c)?),
            None => (int(t)?, int(t)?),
        },
        _ => return Err(bad("not a vertex range")),
    };
    let mut out = Vec::new();
    for n in lo..=hi {
        let list = crate::enumerate::connected_graphs(n).ok_or_else(|| {
            bad(&format!(
                "graphs of {n} vertices (the verifier enumerates 1 to {})",
                crate::enumerate::MAX_VERTICES
            ))
        })?;
        out.extend(list.into_iter().map(Val::Str));
    }
    Ok(out)
}

/// `{posets: {elements: "a..=b"}}` (or `a..<b`, or one count): every poset with a to b
/// elements, one per isomorphism class, named `Poset(1<2, ..)` by [`crate::posets`] (at most 7
/// elements); bound to the parameter as text, as grundy binds it.
fn posets(name: &str, b: &Value) -> Result<Vec<Val>, Stop> {
    let bad = |m: &str| Stop::Not(format!("parameter `{name}`: {m}"));
    let keys: Vec<&String> = b
        .as_object()
        .map(|o| o.keys().collect())
        .unwrap_or_default();
    if keys != ["elements"] {
        return Err(bad("a set of posets given by anything but `elements`"));
    }
    let int = |t: &str| {
        t.trim()
            .parse::<usize>()
            .map_err(|_| bad("not an element count"))
    };
    let (lo, hi) = match &b["elements"] {
        Value::Number(n) => {
            let v = n.as_u64().ok_or_else(|| bad("not an element count"))? as usize;
            (v, v)
        }
        Value::String(t) => {
            if let Some((a, c)) = t.split_once("..=") {
                (int(a)?, int(c)?)
            } else if let Some((a, c)) = t.split_once("..<") {
                let c = int(c)?;
                if c == 0 {
                    return Err(bad("an empty range of element counts"));
                }
                (int(a)?, c - 1)
            } else if t.contains("..") {
                return Err(bad("`a..b` is ambiguous: ranges are `a..=b` or `a..<b`"));
            } else {
                (int(t)?, int(t)?)
            }
        }
        _ => return Err(bad("not an element range")),
    };
    let mut out = Vec::new();
    for n in lo..=hi {
        let list = crate::posets::posets(n).ok_or_else(|| {
            bad(&format!(
                "posets of {n} elements (the verifier enumerates 1 to {})",
                crate::posets::MAX_ELEMENTS
            ))
        })?;
        out.extend(list.into_iter().map(Val::Str));
    }
    Ok(out)
}

/// `{multisets: {max_sum, min_sum, min_part, max_part, min_parts, max_parts}}`: every multiset of
/// positive integers within the bounds, written ascending.
fn multisets(name: &str, b: &Value) -> Result<Vec<Val>, Stop> {
    let get = |k: &str, d: i64| b.get(k).and_then(Value::as_i64).unwrap_or(d);
    let max_sum = get("max_sum", -1);
    if !(0..=40).contains(&max_sum) {
        return Err(Stop::Not(format!(
            "parameter `{name}`: multisets need max_sum in 0..=40"
        )));
    }
    let (min_sum, min_part) = (get("min_sum", 1).max(0), get("min_part", 1).max(1));
    let (min_parts, max_parts) = (get("min_parts", 1).max(0), get("max_parts", max_sum).max(0));
    // Nonincreasing sequences of parts, each at most the one before.
    fn grow(cur: &mut Vec<i64>, cap: i64, rest: i64, b: (i64, i64, i64, i64), out: &mut Vec<Val>) {
        let (min_sum, min_part, min_parts, max_parts) = b;
        let sum: i64 = cur.iter().sum();
        let len = cur.len() as i64;
        if sum >= min_sum && len >= min_parts && len <= max_parts {
            out.push(Val::List(cur.iter().rev().copied().collect()));
        }
        if len >= max_parts {
            return;
        }
        let mut p = cap.min(rest);
        while p >= min_part {
            cur.push(p);
            grow(cur, p, rest - p, b, out);
            cur.pop();
            p -= 1;
        }
    }
    let max_part = get("max_part", max_sum);
    let mut out = Vec::new();
    grow(
        &mut Vec::new(),
        max_part,
        max_sum,
        (min_sum, min_part, min_parts, max_parts),
        &mut out,
    );
    Ok(out)
}

pub(crate) fn show(v: &Val) -> String {
    match v {
        Val::Int(i) => i.to_string(),
        Val::List(l) => l.iter().map(i64::to_string).collect::<Vec<_>>().join(","),
        Val::Bool(b) => b.to_string(),
        Val::Str(s) => s.clone(),
    }
}

/// Every instance of `params` (the product of the ranges), labelled as grundy labels them
/// ("m=2, n=5"; a multiset "[1,2]").
pub(crate) fn all_instances(raw: &Raw) -> Result<Vec<Inst>, Stop> {
    let mut out = vec![Inst {
        label: String::new(),
        env: Env::default(),
        names: Vec::new(),
    }];
    for (name, v) in &raw.params {
        let values = param_values(name, v)?;
        if out.len().saturating_mul(values.len()) > MAX_INSTANCES {
            return Err(Stop::Not(format!("more than {MAX_INSTANCES} instances")));
        }
        let mut next = Vec::new();
        for i in &out {
            for v in &values {
                let mut j = Inst {
                    label: i.label.clone(),
                    env: i.env.clone(),
                    names: i.names.clone(),
                };
                if !j.label.is_empty() {
                    j.label.push_str(", ");
                }
                let shown = match v {
                    Val::List(_) => format!("[{}]", show(v)),
                    _ => show(v),
                };
                j.label.push_str(&format!("{name}={shown}"));
                j.env.set(name, v.clone());
                j.names.push((name.clone(), show(v)));
                next.push(j);
            }
        }
        out = next;
    }
    Ok(out)
}

/// Adds the `let` values (in order) to an instance; `lets_in_names`: they are substituted
/// into graph names too (certificate specs), as the spec language says.
pub(crate) fn with_lets(
    e: &Evaluator,
    raw: &Raw,
    inst: &mut Inst,
    lets_in_names: bool,
) -> Result<(), Stop> {
    for (k, v) in &raw.lets {
        let src =
            formula_text(v).ok_or_else(|| Stop::Not(format!("`let {k}` is not a formula")))?;
        let val = inst.env.eval(e, &src)?;
        if lets_in_names {
            inst.names.push((k.clone(), show(&val)));
        }
        inst.env.set(k, val);
    }
    Ok(())
}

fn selected(e: &Evaluator, raw: &Raw, inst: &Inst) -> Result<bool, Stop> {
    match &raw.filter {
        None => Ok(true),
        Some(f) => {
            let src =
                formula_text(f).ok_or_else(|| Stop::Not("`where` is not a formula".into()))?;
            Ok(inst.env.eval_bool(e, &src)?)
        }
    }
}

/// Every instance the spec names is certified or listed as not certified (with a reason),
/// and the certificate names no other instance.
fn cover(
    named: &[String],
    all: &BTreeSet<String>,
    certified: &[&str],
    not_certified: &[String],
) -> Result<(), Stop> {
    let named_set: BTreeSet<&str> = named.iter().map(String::as_str).collect();
    let mut seen = BTreeSet::new();
    for c in certified {
        if !named_set.contains(c) {
            return Err(Stop::Reject(format!(
                "the certificate certifies instance {c}, which is not an instance of the spec"
            )));
        }
        if !seen.insert(*c) {
            return Err(Stop::Reject(format!("instance {c} is certified twice")));
        }
    }
    for n in not_certified {
        if !all.contains(n) {
            return Err(Stop::Reject(format!(
                "the certificate lists instance {n} as not certified, which is not an instance of the spec"
            )));
        }
    }
    let skipped: BTreeSet<&str> = not_certified.iter().map(String::as_str).collect();
    if let Some(m) = named
        .iter()
        .find(|n| !seen.contains(n.as_str()) && !skipped.contains(n.as_str()))
    {
        return Err(Stop::Reject(format!(
            "instance {m} of the spec is neither certified nor listed as not certified ({} instances named, {} certified, {} listed not certified)",
            named.len(),
            certified.len(),
            not_certified.len()
        )));
    }
    Ok(())
}

fn not_certified(c: &Certificate) -> Vec<String> {
    c.not_certified
        .iter()
        .map(|v| {
            v.get("instance")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string()
        })
        .collect()
}

/// The spec's instances after `let` and `where`, and the labels of all (for instances grundy
/// lists as not certified before its filter ran).
pub(crate) fn instance_list(
    e: &Evaluator,
    raw: &Raw,
    lets_in_names: bool,
) -> Result<(Vec<Inst>, BTreeSet<String>), Stop> {
    let all = all_instances(raw)?;
    let labels = all.iter().map(|i| i.label.clone()).collect();
    let mut out = Vec::new();
    for mut i in all {
        with_lets(e, raw, &mut i, lets_in_names)?;
        if selected(e, raw, &i)? {
            out.push(i);
        }
    }
    Ok((out, labels))
}

/// A value formula: a number, a formula, or `cases` (`{when, value}`: every case that applies
/// gives the same value, and some case applies — the claim is a function).
pub(crate) fn claimed(e: &Evaluator, env: &Env, v: &Value, outcome: bool) -> Result<Val, Stop> {
    let one = |v: &Value| -> Result<Val, Stop> {
        let src =
            formula_text(v).ok_or_else(|| Stop::Not("a value that is not a formula".into()))?;
        if outcome && (src == "P" || src == "N") {
            return Ok(Val::Str(src));
        }
        Ok(env.eval(e, &src)?)
    };
    let cases = match v {
        Value::Object(o) => o.get("cases").and_then(Value::as_array),
        Value::Array(a) => Some(a),
        _ => None,
    };
    let Some(cases) = cases else {
        return one(v);
    };
    let mut found: Option<Val> = None;
    for c in cases {
        let when = c
            .get("when")
            .and_then(formula_text)
            .ok_or_else(|| Stop::Not("a case without `when`".into()))?;
        if env.eval_bool(e, &when)? {
            let val = one(c.get("value").unwrap_or(&Value::Null))?;
            match &found {
                Some(f) if *f != val => {
                    return Err(Stop::Reject(format!(
                        "two cases apply and give {f:?} and {val:?}: the claim is not a function"
                    )))
                }
                _ => found = Some(val),
            }
        }
    }
    found.ok_or_else(|| Stop::Reject("no case applies: the claim states no value".into()))
}

/// Whatever else is re-derived, a table's instance label names its game: the spec's game with
/// the label's values substituted must be the table's game when the verifier can build it
/// (so a table cannot be relabelled as another graph of a set the verifier does not enumerate).
fn labels_name_games(template: &str, facts: &[TableFact]) -> Result<(), Stop> {
    for f in facts {
        let names: Option<Vec<(String, String)>> = f
            .instance
            .split(", ")
            .filter(|kv| !kv.is_empty())
            .map(|kv| {
                let (k, v) = kv.split_once('=')?;
                let v = v
                    .strip_prefix('[')
                    .and_then(|v| v.strip_suffix(']'))
                    .unwrap_or(v);
                Some((k.to_string(), v.to_string()))
            })
            .collect();
        let Some(names) = names else { continue };
        let name = substitute(template, &names);
        if let Ok(game) = Game::parse(&name) {
            if !game.same(&f.game) {
                return Err(Stop::Reject(format!(
                    "instance {}: the table's game is not {name}, which its label names",
                    f.instance
                )));
            }
        }
    }
    Ok(())
}

/// Most positions searched to confirm that an instance not in the certificate selects none.
const MAX_VACUOUS_SEARCH: usize = 200_000;

/// Every position reachable from the start (breadth-first), or `None` past `cap`; an error
/// when the rules cannot be evaluated at a position reached.
fn reachable(rules: &Rules, cap: usize) -> Result<Option<Vec<Pos>>, String> {
    let start = rules.start();
    let mut seen: HashSet<Pos> = HashSet::from([start.clone()]);
    let mut order = vec![start];
    let mut i = 0;
    while i < order.len() {
        for q in rules.options(&order[i])? {
            if seen.insert(q.clone()) {
                if order.len() >= cap {
                    return Ok(None);
                }
                order.push(q);
            }
        }
        i += 1;
    }
    Ok(Some(order))
}

/// The claim's environment at a position: parameters, the position's features, then `let`s
/// (the order grundy's checker uses).
pub(crate) fn env_at(
    e: &Evaluator,
    raw: &Raw,
    inst: &Inst,
    rules: &Rules,
    p: &Pos,
) -> Result<Env, Stop> {
    let mut env = inst.env.clone();
    features::of_position(&mut env, rules, p);
    for (k, v) in &raw.lets {
        let src =
            formula_text(v).ok_or_else(|| Stop::Not(format!("`let {k}` is not a formula")))?;
        let val = env.eval(e, &src)?;
        env.set(k, val);
    }
    Ok(env)
}

fn claim(
    e: &Evaluator,
    raw: &Raw,
    c: &Certificate,
    facts: &[TableFact],
) -> Result<Rederived, Stop> {
    if raw.holds.is_some() {
        return Err(Stop::Not("a `holds` predicate reads game features".into()));
    }
    let reach = match raw.positions.as_deref() {
        None | Some("start") => false,
        Some("reachable") => true,
        Some(p) => return Err(Stop::Not(format!("positions `{p}`"))),
    };
    // Grundy lists the claim at the start of every table; a table without it claims nothing.
    if !reach {
        if let Some(f) = facts.iter().find(|f| !f.start_claimed) {
            return Err(Stop::Reject(format!(
                "instance {}: the table states no claim at the start",
                f.instance
            )));
        }
    }
    // A bare `outcome: N` is text, not YAML 1.1's false.
    let bare = raw
        .outcome_text
        .as_ref()
        .filter(|t| *t == "P" || *t == "N")
        .map(|t| Value::String(t.clone()));
    let (value, outcome) = match (&raw.nim, bare.as_ref().or(raw.outcome.as_ref())) {
        (Some(v), None) => (v, false),
        (None, Some(v)) => (v, true),
        _ => {
            return Err(Stop::Not(
                "the spec states neither `nim` nor `outcome`".into(),
            ))
        }
    };
    let template = raw
        .game
        .as_ref()
        .ok_or_else(|| Stop::Not("no `game`".into()))?;
    labels_name_games(template, facts)?;
    let insts = all_instances(raw)?;
    let all: BTreeSet<String> = insts.iter().map(|i| i.label.clone()).collect();
    let skipped: BTreeSet<String> = not_certified(c).into_iter().collect();
    let by_label: BTreeMap<&str, &TableFact> =
        facts.iter().map(|f| (f.instance.as_str(), f)).collect();
    // The claim at one position with the table's value there.
    let check =
        |env: &Env, label: &str, name: &str, at: &Pos, v: u32, misere: bool| -> Result<(), Stop> {
            let want = claimed(e, env, value, outcome)?;
            let ok = match (&want, outcome) {
                (Val::Int(w), false) => *w == v as i64,
                (Val::Str(s), true) if s == "P" => v == 0,
                (Val::Str(s), true) if s == "N" => v != 0,
                _ => {
                    return Err(Stop::Not(format!(
                        "the claimed value {want:?} is not a nim-value or outcome"
                    )))
                }
            };
            if ok {
                return Ok(());
            }
            // Played misère, the table's value is the transform's: only its outcome is the game's.
            let has = match misere {
                true => format!("the misère outcome {}", if v == 0 { "P" } else { "N" }),
                false => format!("nim-value {v}"),
            };
            Err(Stop::Reject(format!(
                "instance {label}: {name} has {has} at {at:?} by the table, but the spec states {}",
                show(&want)
            )))
        };
    let mut named = Vec::new();
    let mut certified = 0;
    for i in &insts {
        // A `where` false on the parameters alone names no game to build (a token past the
        // last vertex of a smaller graph); one that reads features fails here and is decided
        // at the positions below.
        if let Some(src) = raw.filter.as_ref().and_then(formula_text) {
            if matches!(i.env.eval_bool(e, &src), Ok(false)) {
                continue;
            }
        }
        let name = substitute(template, &i.names);
        let built = Game::parse(&name).and_then(|g| Ok((Rules::new(&g)?, g)));
        let (rules, game) = match built {
            Ok(x) => x,
            // Grundy could not build it either, and says so.
            Err(_) if skipped.contains(&i.label) && !by_label.contains_key(i.label.as_str()) => {
                named.push(i.label.clone());
                continue;
            }
            Err(why) => return Err(Stop::Not(why)),
        };
        // Under misère play the values are the normal-play transform's: they give the
        // outcome, not a nim-value (docs/user-games.md, "Misère play").
        if rules.misere() && !outcome {
            return Err(Stop::Reject(format!(
                "instance {}: {name} is played misère, whose nim-values do not add and are not claimed: only `outcome:` claims are re-derived for it",
                i.label
            )));
        }
        let table = by_label.get(i.label.as_str());
        if let Some(f) = table {
            if !game.same(&f.game) {
                return Err(Stop::Reject(format!(
                    "instance {}: the certificate's game is not the spec's {name}",
                    i.label
                )));
            }
        }
        let selected = |env: &Env| -> Result<bool, Stop> {
            match &raw.filter {
                None => Ok(true),
                Some(f) => {
                    let src = formula_text(f)
                        .ok_or_else(|| Stop::Not("`where` is not a formula".into()))?;
                    Ok(env.eval_bool(e, &src)?)
                }
            }
        };
        if !reach {
            let start = rules.start();
            let env = env_at(e, raw, i, &rules, &start)?;
            if !selected(&env)? {
                continue;
            }
            named.push(i.label.clone());
            if let Some(f) = table {
                let v = f.start_value.ok_or_else(|| {
                    Stop::Reject(format!(
                        "instance {}: the start is not in the table",
                        i.label
                    ))
                })?;
                check(&env, &i.label, &name, &start, v, rules.misere())?;
                certified += 1;
            }
            continue;
        }
        // Every reachable position the filter selects (the table is closed under options, so
        // the positions reachable from its start are all in it).
        match table {
            Some(f) => {
                let mut n = 0;
                let positions = reachable(&rules, f.values.len() + 1)
                    .map_err(|e| Stop::Reject(format!("instance {}: {e}", i.label)))?
                    .ok_or_else(|| {
                        Stop::Reject(format!("instance {}: the table is not closed", i.label))
                    })?;
                for p in positions.iter().filter(|p| !rules.hidden(p)) {
                    let env = env_at(e, raw, i, &rules, p)?;
                    if selected(&env)? {
                        let v = *f.values.get(p).ok_or_else(|| {
                            Stop::Reject(format!("instance {}: {p:?} is not in the table", i.label))
                        })?;
                        check(&env, &i.label, &name, p, v, rules.misere())?;
                        n += 1;
                    }
                }
                if n == 0 {
                    return Err(Stop::Reject(format!(
                        "instance {}: the claim selects no position of it",
                        i.label
                    )));
                }
                named.push(i.label.clone());
                certified += 1;
            }
            None if skipped.contains(&i.label) => named.push(i.label.clone()),
            None => {
                // Not listed at all: grundy leaves out instances where the claim selects no
                // position, which the verifier confirms by its own search.
                let positions = reachable(&rules, MAX_VACUOUS_SEARCH)
                    .map_err(|e| Stop::Reject(format!("instance {}: {e}", i.label)))?
                    .ok_or_else(|| {
                        Stop::Not(format!(
                            "instance {} is not listed and too large to confirm it is vacuous",
                            i.label
                        ))
                    })?;
                for p in positions.iter().filter(|p| !rules.hidden(p)) {
                    if selected(&env_at(e, raw, i, &rules, p)?)? {
                        return Err(Stop::Reject(format!(
                            "instance {} of the spec is neither certified nor listed as not certified (the claim selects {p:?})",
                            i.label
                        )));
                    }
                }
            }
        }
    }
    cover(
        &named,
        &all,
        &facts
            .iter()
            .map(|f| f.instance.as_str())
            .collect::<Vec<_>>(),
        &c.not_certified
            .iter()
            .filter_map(|v| v.get("instance").and_then(Value::as_str))
            .map(String::from)
            .collect::<Vec<_>>(),
    )?;
    Ok(Rederived {
        certified,
        total: named.len(),
    })
}

/// A diagram claims that the player to move loses every start game of its families (Remark
/// 5.34): each start the spec's families name must be a start of the certificate, which the
/// evidence check met at a P-node of an alternating strategy.
fn diagram(e: &Evaluator, raw: &Raw, groups: &[(Game, Vec<Value>)]) -> Result<Rederived, Stop> {
    let families = raw
        .starts
        .as_ref()
        .ok_or_else(|| Stop::Not("a diagram without `starts`".into()))?;
    let certified: Vec<(String, &Value)> = groups
        .iter()
        .flat_map(|(g, starts)| starts.iter().map(move |s| (g.shape(), s)))
        .collect();
    let mut total = 0;
    for fam in families {
        let sub: Raw = serde_json::from_value(fam.clone())
            .map_err(|e| Stop::Not(format!("a start family the verifier does not read: {e}")))?;
        let template = sub
            .game
            .as_ref()
            .ok_or_else(|| Stop::Not("a start family without `game`".into()))?;
        for i in all_instances(&sub)? {
            let name = substitute(template, &i.names);
            let game = Game::parse(&name).map_err(Stop::Not)?;
            let rules = Rules::new(&game).map_err(|e| Stop::Not(format!("{name}: {e}")))?;
            if rules.misere() {
                return Err(Stop::Reject(format!(
                    "{name} is played misère: a diagram shows nim-values, which it does not have"
                )));
            }
            let mut env = i.env.clone();
            features::of_diagram_start(&mut env, &rules, &rules.start());
            for (k, v) in &sub.lets {
                let src = formula_text(v).ok_or_else(|| Stop::Not(format!("`let {k}`")))?;
                let val = env.eval(e, &src)?;
                env.set(k, val);
            }
            if let Some(f) = &sub.filter {
                let src = formula_text(f).ok_or_else(|| Stop::Not("`where`".into()))?;
                if !env.eval_bool(e, &src)? {
                    continue;
                }
            }
            let pos = game
                .encode_start()
                .ok_or_else(|| Stop::Not(format!("starts of {name}")))?;
            let sh = game.shape();
            if !certified.iter().any(|(s, p)| *s == sh && **p == pos) {
                return Err(Stop::Reject(format!(
                    "start game {name} of the spec is not a start of the certificate's strategy"
                )));
            }
            total += 1;
        }
    }
    if total == 0 {
        return Err(Stop::Reject(
            "the spec's start families name no start game".into(),
        ));
    }
    Ok(Rederived {
        certified: total,
        total,
    })
}

/// The outcome a `kind: certificate` spec claims: a root `move` certifies N; a root kernel or
/// reply list P; the trail constructions N; `solver: gf2` the stated `outcome`.
fn kernel_outcome(raw: &Raw) -> Result<&'static str, Stop> {
    match (&raw.play, raw.solver.as_deref()) {
        (Some(p), None) => Ok(if p.get("move").is_some() { "N" } else { "P" }),
        (None, Some("trail" | "trail_printed")) => Ok("N"),
        (None, Some("gf2")) => match raw.outcome_text.as_deref() {
            Some("P") => Ok("P"),
            Some("N") => Ok("N"),
            _ => Err(Stop::Not("no outcome P or N stated".into())),
        },
        _ => Err(Stop::Not(
            "a certificate spec without `play` or a known `solver`".into(),
        )),
    }
}

fn kernels(
    e: &Evaluator,
    raw: &Raw,
    c: &Certificate,
    facts: &[KernelFact],
) -> Result<Rederived, Stop> {
    let template = raw
        .graph
        .as_ref()
        .ok_or_else(|| Stop::Not("no `graph`".into()))?;
    let outcome = kernel_outcome(raw)?;
    let (insts, all) = instance_list(e, raw, true)?;
    let labels: Vec<String> = insts.iter().map(|i| i.label.clone()).collect();
    cover(
        &labels,
        &all,
        &facts
            .iter()
            .map(|f| f.instance.as_str())
            .collect::<Vec<_>>(),
        &not_certified(c),
    )?;
    let by_label: BTreeMap<&str, &KernelFact> =
        facts.iter().map(|f| (f.instance.as_str(), f)).collect();
    let mut certified = 0;
    for i in &insts {
        let Some(f) = by_label.get(i.label.as_str()) else {
            continue;
        };
        let name = substitute(template, &i.names);
        let graph = parse_graph(&name).map_err(Stop::Not)?;
        if !same_graph(&graph, &f.graph) {
            return Err(Stop::Reject(format!(
                "instance {}: the certificate's graph is not the spec's {name}",
                i.label
            )));
        }
        if f.outcome != outcome {
            return Err(Stop::Reject(format!(
                "instance {}: the certificate proves outcome {}, the spec claims {outcome}",
                i.label, f.outcome
            )));
        }
        // Tokens are vertices (a, b) of the stacked prism SP_{M,n}, at (b−1)·M + (a−1).
        let (m, n) = crate::names::prism_size(&name)
            .ok_or_else(|| Stop::Not(format!("tokens are read on stacked prisms, not {name}")))?;
        let index = |a: i64, b: i64| -> Option<usize> {
            ((1..=m).contains(&a) && (1..=n).contains(&b)).then(|| ((b - 1) * m + (a - 1)) as usize)
        };
        let mut want = BTreeSet::new();
        match (&raw.token, &raw.tokens) {
            (Some(t), None) => {
                let inner = t
                    .trim()
                    .strip_prefix('(')
                    .and_then(|r| r.strip_suffix(')'))
                    .and_then(|r| r.split_once(','))
                    .ok_or_else(|| Stop::Not(format!("token `{t}` is not (a,b)")))?;
                let (a, b) = (i.env.eval_int(e, inner.0)?, i.env.eval_int(e, inner.1)?);
                want.insert(index(a, b).ok_or_else(|| {
                    Stop::Reject(format!(
                        "instance {}: token ({a},{b}) is not a vertex",
                        i.label
                    ))
                })?);
            }
            (None, Some(pred)) => {
                for b in 1..=n {
                    for a in 1..=m {
                        let mut env = i.env.clone();
                        env.set("a", Val::Int(a));
                        env.set("b", Val::Int(b));
                        if env.eval_bool(e, pred)? {
                            want.extend(index(a, b));
                        }
                    }
                }
            }
            _ => return Err(Stop::Not("neither `token` nor `tokens`".into())),
        }
        let got: BTreeSet<usize> = f.tokens.iter().copied().collect();
        if got != want {
            let missing: Vec<_> = want.difference(&got).take(3).collect();
            let extra: Vec<_> = got.difference(&want).take(3).collect();
            return Err(Stop::Reject(format!(
                "instance {}: the certificate's tokens are not the spec's ({} stated, {} certified; missing {missing:?}, not stated {extra:?})",
                i.label,
                want.len(),
                got.len()
            )));
        }
        certified += 1;
    }
    Ok(Rederived {
        certified,
        total: insts.len(),
    })
}

fn maps(e: &Evaluator, raw: &Raw, c: &Certificate, facts: &[MapFact]) -> Result<Rederived, Stop> {
    // The canonical quotient map `quotient:` goes from `from` into its own quotient.
    let to = raw
        .to
        .as_ref()
        .or(raw.from.as_ref().filter(|_| raw.quotient.is_some()));
    let (Some(from), Some(to)) = (&raw.from, to) else {
        return Err(Stop::Not(
            "a reduction without `from` and `to` games".into(),
        ));
    };
    let sides = match &raw.quotient {
        Some(q) => (None, Some(q.clone())),
        None => (raw.from_quotient.clone(), raw.to_quotient.clone()),
    };
    let claims: Vec<String> = raw
        .claims
        .as_ref()
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default();
    // Reduction specs substitute `let` values into their game names too (`vk: '"v" + k'`).
    let (insts, all) = instance_list(e, raw, true)?;
    let labels: Vec<String> = insts.iter().map(|i| i.label.clone()).collect();
    cover(
        &labels,
        &all,
        &facts
            .iter()
            .map(|f| f.instance.as_str())
            .collect::<Vec<_>>(),
        &not_certified(c),
    )?;
    let by_label: BTreeMap<&str, &MapFact> =
        facts.iter().map(|f| (f.instance.as_str(), f)).collect();
    let mut certified = 0;
    for i in &insts {
        let Some(f) = by_label.get(i.label.as_str()) else {
            continue;
        };
        for (which, template, got) in [("from", from, &f.from), ("to", to, &f.to)] {
            let name = substitute(template, &i.names);
            let game = Game::parse(&name).map_err(Stop::Not)?;
            if !game.same(got) {
                return Err(Stop::Reject(format!(
                    "instance {}: the certificate's `{which}` game is not the spec's {name}",
                    i.label
                )));
            }
        }
        if (f.from_quotient.clone(), f.to_quotient.clone()) != sides {
            return Err(Stop::Reject(format!(
                "instance {}: the certificate's map is between the quotients {:?}, the spec's between {sides:?}",
                i.label,
                (&f.from_quotient, &f.to_quotient)
            )));
        }
        for claim in &claims {
            let holds = match claim.as_str() {
                // Checked for every mapped position by the evidence check itself.
                "option_preserving" => true,
                "start_to_start" => f.start_to_start,
                "surjective" => f.surjective,
                "injective" => f.injective,
                other => return Err(Stop::Not(format!("the map property `{other}`"))),
            };
            if !holds {
                return Err(Stop::Reject(format!(
                    "instance {}: the spec claims the map is {claim}, the certificate's map is not",
                    i.label
                )));
            }
        }
        certified += 1;
    }
    Ok(Rederived {
        certified,
        total: insts.len(),
    })
}

/// The values a sequence spec lists: digits run together ("0112…", one value each), or
/// numbers separated by commas or spaces.
pub(crate) fn listed_values(v: &Value) -> Result<Vec<u32>, Stop> {
    let bad = || Stop::Not("`values` in a form the verifier does not read".into());
    if let Some(a) = v.as_array() {
        return a
            .iter()
            .map(|x| {
                x.as_u64()
                    .and_then(|x| u32::try_from(x).ok())
                    .ok_or_else(bad)
            })
            .collect();
    }
    let text = v.as_str().ok_or_else(bad)?;
    let mut out = Vec::new();
    let commas = text.contains(',');
    let tokens: Vec<&str> = if commas {
        text.split(',').map(str::trim).collect()
    } else {
        text.split_whitespace().collect()
    };
    for t in tokens.into_iter().filter(|t| !t.is_empty()) {
        if !commas && t.chars().all(|c| c.is_ascii_digit()) {
            out.extend(t.chars().map(|c| c as u32 - '0' as u32));
        } else {
            out.push(t.parse().map_err(|_| bad())?);
        }
    }
    Ok(out)
}

fn sequence(raw: &Raw, o: &crate::checks::OctalFact) -> Result<Rederived, Stop> {
    let code = raw
        .octal
        .as_deref()
        .ok_or_else(|| Stop::Not("a sequence spec without `octal`".into()))?;
    if code != o.code {
        return Err(Stop::Reject(format!(
            "the certificate is for the octal game {}, the spec states {code}",
            o.code
        )));
    }
    let values = raw.values.as_ref().map(listed_values).transpose()?;
    o.check_stated(
        values.as_deref(),
        raw.period,
        raw.preperiod,
        raw.least_preperiod.unwrap_or(false),
    )
    .map_err(Stop::Reject)?;
    Ok(Rederived {
        certified: 1,
        total: 1,
    })
}

/// Re-derives the claim of `raw` and compares it with the evidence of its certificate.
pub fn derive(raw: &Raw, c: &Certificate, ev: &Evidence) -> Result<Rederived, Stop> {
    let e = engine();
    match (raw.kind.as_str(), ev) {
        ("claim", Evidence::Tables(t)) => claim(&e, raw, c, t),
        ("claim", Evidence::Closures(v)) => closures(&e, raw, c, v),
        ("claim", Evidence::Predicates(p)) => crate::predicate::derive(raw, c, p),
        ("certificate", Evidence::Kernels(k)) => kernels(&e, raw, c, k),
        ("reduction", Evidence::Maps(m)) => maps(&e, raw, c, m),
        ("sequence", Evidence::Octal(o)) => sequence(raw, o),
        ("sets", Evidence::Families(f)) => crate::sets::derive(raw, f),
        ("figure", Evidence::Figure(f)) => crate::figures::derive(raw, &f.0, f.1.as_ref()),
        ("table", Evidence::Signatures(rows, None)) => crate::signatures::derive(raw, rows),
        ("table", Evidence::ValueTable(cells)) => {
            let r = crate::tables::derive(raw)?;
            if r.total as u64 != *cells {
                return Err(Stop::Reject(format!(
                    "the certificate counts {cells} cells, the spec has {}",
                    r.total
                )));
            }
            Ok(r)
        }
        ("diagram", Evidence::Strategy(g)) => diagram(&e, raw, g),
        (kind, _) => Err(Stop::Reject(format!(
            "a certificate of this kind does not answer a `kind: {kind}` spec"
        ))),
    }
}

/// A closure-game claim (grundy's docs/design.md §9): per instance the verifier builds the
/// game from its name ([`crate::closure`]), computes the maximal legal sets, the features and
/// the value itself, rejects a certificate whose sets or value differ, and evaluates the spec's
/// formula on its own features against its own value.
fn closures(
    e: &Evaluator,
    raw: &Raw,
    c: &Certificate,
    entries: &[ClosureEntry],
) -> Result<Rederived, Stop> {
    if raw.holds.is_some() {
        return Err(Stop::Not("a `holds` predicate".into()));
    }
    if !matches!(raw.positions.as_deref(), None | Some("start")) {
        return Err(Stop::Not(
            "closure games at positions other than the start".into(),
        ));
    }
    let bare = raw
        .outcome_text
        .as_ref()
        .filter(|t| *t == "P" || *t == "N")
        .map(|t| Value::String(t.clone()));
    let (value, outcome) = match (&raw.nim, bare.as_ref().or(raw.outcome.as_ref())) {
        (Some(v), None) => (v, false),
        (None, Some(v)) => (v, true),
        _ => {
            return Err(Stop::Not(
                "the spec states neither `nim` nor `outcome`".into(),
            ))
        }
    };
    let template = raw
        .game
        .as_ref()
        .ok_or_else(|| Stop::Not("no `game`".into()))?;
    let insts = all_instances(raw)?;
    let all: BTreeSet<String> = insts.iter().map(|i| i.label.clone()).collect();
    let skipped = not_certified(c);
    let skipped_set: BTreeSet<&str> = skipped.iter().map(String::as_str).collect();
    let by_label: BTreeMap<&str, &ClosureEntry> =
        entries.iter().map(|f| (f.instance.as_str(), f)).collect();
    let mut named = Vec::new();
    let mut certified = 0;
    for i in &insts {
        let name = substitute(template, &i.names);
        let entry = by_label.get(i.label.as_str());
        let mut game = match crate::closure::parse(&name, raw.closure.as_deref()) {
            None => {
                return Err(Stop::Not(format!(
                    "{name} is not a closure game the verifier builds"
                )))
            }
            Some(Ok(g)) => g,
            Some(Err(_)) if entry.is_none() && skipped_set.contains(i.label.as_str()) => {
                named.push(i.label.clone());
                continue;
            }
            // A closure's rule written in a spec that fails is the spec's error.
            Some(Err(why)) if why.contains(crate::closures::user::FAILED) => {
                return Err(Stop::Reject(format!("instance {}: {name}: {why}", i.label)))
            }
            Some(Err(why)) => return Err(Stop::Not(format!("{name}: {why}"))),
        };
        if let (None, Some(entry)) = (&game.maximal, entry) {
            // Past the verifier's own search (posets such as Bool(6)): the certificate's
            // list is checked from the closure instead, or the claim is not re-derived.
            if let Err(Some(why)) = game.adopt_checked(&entry.maximal_sets) {
                return Err(Stop::Reject(format!("instance {}: {name}: {why}", i.label)));
            }
        }
        let env = closure_env(e, raw, &i.env, &game)?;
        if let Some(f) = &raw.filter {
            let src =
                formula_text(f).ok_or_else(|| Stop::Not("`where` is not a formula".into()))?;
            if !env.eval_bool(e, &src)? {
                continue;
            }
        }
        named.push(i.label.clone());
        let Some(entry) = entry else { continue };
        let reject = |m: String| Stop::Reject(format!("instance {}: {m}", i.label));
        let structure = name
            .trim()
            .split_once('(')
            .and_then(|(_, r)| r.strip_suffix(')'))
            .unwrap_or("");
        let bare = |t: &str| t.split_whitespace().collect::<String>();
        if entry.game != game.word.text()
            || entry.elements as u64 != game.elements()
            || entry.closure != game.kind()
            || bare(&entry.structure) != bare(structure)
        {
            return Err(reject(format!(
                "the certificate's game is {}({}) under the {} closure on {} elements, not the spec's {name} under the {} closure on {}",
                entry.game,
                entry.structure,
                entry.closure,
                entry.elements,
                game.kind(),
                game.elements()
            )));
        }
        let v = if let crate::closure::Ground::Counts(c) = &game.ground {
            // Complete multipartite graphs past 64 vertices: the maximal legal sets as count
            // vectors (part by part, as the spec writes the parts), and the value, by counts.
            let solved = c
                .solve()
                .map_err(|why| Stop::Not(format!("{name}: {why}")))?;
            let listed = entry.maximal_counts.as_ref().ok_or_else(|| {
                reject("the certificate lists no maximal legal count vectors".into())
            })?;
            compare_lists(listed, &solved.maximal, &name, "count vector").map_err(reject)?;
            solved.value
        } else {
            let mine = game.maximal.as_ref().ok_or_else(|| {
                Stop::Not(format!(
                    "{name}: the maximal legal sets are past the verifier's budget (removing games on groups of more than 16 elements, families of more than 2^18 sets)"
                ))
            })?;
            compare_lists(&entry.maximal_sets, mine, &name, "set").map_err(reject)?;
            game.value()
                .map_err(|why| Stop::Not(format!("{name}: {why}")))?
                .0
        };
        if entry.value != v {
            return Err(reject(format!(
                "the certificate states nim({name}) = {}, the verifier computes {v}",
                entry.value
            )));
        }
        let want = claimed(e, &env, value, outcome)?;
        let ok = match (&want, outcome) {
            (Val::Int(w), false) => *w == v as i64,
            (Val::Str(s), true) if s == "P" => v == 0,
            (Val::Str(s), true) if s == "N" => v != 0,
            _ => {
                return Err(Stop::Not(format!(
                    "the claimed value {want:?} is not a nim-value or outcome"
                )))
            }
        };
        if !ok {
            return Err(reject(format!(
                "nim({name}) = {v} by the verifier, but the spec states {}",
                show(&want)
            )));
        }
        certified += 1;
    }
    let labels: Vec<&str> = entries.iter().map(|f| f.instance.as_str()).collect();
    cover(&named, &all, &labels, &skipped)?;
    Ok(Rederived {
        certified,
        total: named.len(),
    })
}

/// The certificate's list of maximal legal sets (or count vectors) against the verifier's:
/// the first one listed that is not maximal legal, the first one missing, or a repeat.
fn compare_lists<T: PartialEq + std::fmt::Debug>(
    listed: &[Vec<T>],
    mine: &[Vec<T>],
    name: &str,
    what: &str,
) -> Result<(), String> {
    if let Some(m) = listed.iter().find(|m| !mine.contains(m)) {
        return Err(format!(
            "the certificate lists {m:?} as a maximal legal {what} of {name}, which it is not"
        ));
    }
    if let Some(m) = mine.iter().find(|m| !listed.contains(m)) {
        return Err(format!(
            "the certificate omits the maximal legal {what} {m:?} of {name} ({} listed, {} exist)",
            listed.len(),
            mine.len()
        ));
    }
    if listed.len() != mine.len() {
        return Err(format!(
            "the certificate lists a maximal legal {what} twice"
        ));
    }
    Ok(())
}

/// The environment a closure-game claim is evaluated in at an instance: the instance's
/// parameters, the game's features at the start, then the spec's `let`s in order.
pub(crate) fn closure_env(
    e: &Evaluator,
    raw: &Raw,
    base: &Env,
    game: &crate::closure::ClosureGame,
) -> Result<Env, Stop> {
    let mut env = base.clone();
    // A search of the gamegraph: only for a claim whose formulas read it.
    let reads = format!(
        "{:?}{:?}{:?}{:?}",
        raw.filter, raw.nim, raw.outcome, raw.lets
    );
    if reads.contains("terminal_parities") {
        if let Some(par) = game.terminal_parities() {
            env.set("terminal_parities", Val::List(par));
        }
    }
    for (k, v) in game.features() {
        env.set(
            k,
            match v {
                crate::closure::FeatureValue::Int(x) => Val::Int(x),
                crate::closure::FeatureValue::Bool(b) => Val::Bool(b),
                crate::closure::FeatureValue::List(l) => Val::List(l),
            },
        );
    }
    for (k, v) in &raw.lets {
        let src =
            formula_text(v).ok_or_else(|| Stop::Not(format!("`let {k}` is not a formula")))?;
        let val = env.eval(e, &src)?;
        env.set(k, val);
    }
    Ok(env)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ints(range: &str) -> Result<Vec<i64>, String> {
        match param_values("n", &Value::String(range.into())) {
            Ok(v) => Ok(v
                .into_iter()
                .map(|x| match x {
                    Val::Int(i) => i,
                    _ => unreachable!("ranges are integers"),
                })
                .collect()),
            Err(Stop::Not(m) | Stop::Reject(m)) => Err(m),
        }
    }

    #[test]
    fn ranges_are_read_as_grundy_reads_them() {
        assert_eq!(ints("2..=4"), Ok(vec![2, 3, 4]));
        assert_eq!(ints("2..<4"), Ok(vec![2, 3]));
        assert_eq!(ints("3,5,8"), Ok(vec![3, 5, 8]));
        // The ambiguous form grundy refuses is not read as exclusive (nor inclusive).
        assert!(ints("2..4").unwrap_err().contains("ambiguous"));
        assert!(ints("2..<x").is_err());
    }
}
