//! Exemptions checked (issue 43): an instance the certificate lists as not certified is
//! accepted only when the verifier confirms the stated reason, or verifies the instance
//! itself. "Not certified" is never taken on the certificate's word.
//!
//! Per instance listed, in this order:
//! 1. **Within the verifier's own budget** ([`OWN_POSITIONS`] positions, more than grundy's
//!    per-instance budget): the verifier builds the game from the spec, solves it with its
//!    own recursion ([`explore`], [`values`]) and evaluates the spec's claim there (in
//!    [`crate::derive`]); a false claim is a rejection, a true one counts the instance as
//!    verified — whatever reason the certificate gives. This is what catches a spec edited to
//!    be false at one instance and that instance listed as not certified.
//! 2. **Past it**: the stated reason must be one the verifier recounts ([`Reason`]):
//!    - "more than N positions": the verifier's own count passes N (it passed its own budget,
//!      at least N + 1);
//!    - "not tried: two smaller instances exceeded the budget": the last two instances
//!      before it (in the spec's order) that were tried are exemptions for size the verifier
//!      confirmed, with no certified instance since;
//!    - "past the per-spec budget of N": N is at least [`MIN_SPEC_BUDGET`], and the entries
//!      the certificate lists for the instances before it, plus what this one needs by the
//!      verifier's own count, exceed N;
//!    - "more than N vertices" (kernel instances): the verifier's own graph of the instance
//!      has more than N vertices, and more than [`MIN_KERNEL_VERTICES`].
//!
//!    Any other reason past the verifier's budget is rejected as unconfirmed.

use crate::checks::{Certificate, ClosureEntry, Evidence, KernelFact, MapFact, Proof, TableFact};
use crate::derive::{all_instances, claimed, env_at, instance_list, show, Inst, Stop};
use crate::formula::{engine, Env, Evaluator, Val};
use crate::games::Game;
use crate::games::{mex, Pos, Rules};
use crate::names::{parse_graph, substitute};
use crate::spec::{formula_text, Raw};
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};

/// The verifier solves an instance itself when it has at most this many positions (grundy
/// tables at most 10,000 per instance).
pub const OWN_POSITIONS: usize = 20_000;
/// A per-spec budget an exemption may invoke: at least this many entries listed (grundy's).
pub const MIN_SPEC_BUDGET: u64 = 100_000;
/// Kernel instances are exempt for size only past this many vertices (grundy certifies
/// every instance up to 200 vertices by GF(2) witnesses).
pub const MIN_KERNEL_VERTICES: u64 = 200;

/// The reasons the verifier recounts; anything else is `Other`.
#[derive(Clone, Debug, PartialEq)]
pub enum Reason {
    /// "more than N positions …"
    Positions(u64),
    /// "not tried: two smaller instances exceeded the budget"
    NotTried,
    /// "past the per-spec budget [of N …]"
    SpecBudget(Option<u64>),
    /// "more than N vertices"
    Vertices(u64),
    Other,
}

/// The leading number of `s`, if any.
fn number(s: &str) -> Option<u64> {
    let digits: String = s.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

pub fn parse_reason(s: &str) -> Reason {
    if let Some(rest) = s.strip_prefix("more than ") {
        if let Some(n) = number(rest) {
            let unit = rest[n.to_string().len()..].trim_start();
            if unit.starts_with("positions") {
                return Reason::Positions(n);
            }
            if unit.starts_with("vertices") {
                return Reason::Vertices(n);
            }
        }
        return Reason::Other;
    }
    if s == "not tried: two smaller instances exceeded the budget" {
        return Reason::NotTried;
    }
    if let Some(rest) = s.strip_prefix("past the per-spec budget") {
        return match rest.strip_prefix(" of ") {
            Some(r) => number(r).map_or(Reason::Other, |n| Reason::SpecBudget(Some(n))),
            None if rest.is_empty() => Reason::SpecBudget(None),
            None => Reason::Other,
        };
    }
    Reason::Other
}

/// The certificate's exemptions: instance → stated reason (an entry without one has the
/// reason ""). An instance listed twice is an error.
pub fn listed(c: &Certificate) -> Result<BTreeMap<String, String>, String> {
    let mut out = BTreeMap::new();
    for v in &c.not_certified {
        let i = v
            .get("instance")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        let why = v
            .get("reason")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        if out.insert(i.clone(), why).is_some() {
            return Err(format!("instance {i} is listed as not certified twice"));
        }
    }
    Ok(out)
}

/// The start and every position reached from it breadth-first, as grundy lists a table: with
/// `split`, an option the rules split into a disjoint sum ([`Rules::components`]) is reached
/// as its parts. `None` past `cap` positions; an error when the rules cannot be evaluated at
/// a position reached (a game written as a rule in a spec).
pub fn explore(rules: &Rules, cap: usize, split: bool) -> Result<Option<Vec<Pos>>, String> {
    let start = rules.start();
    let mut seen: std::collections::HashSet<Pos> = std::collections::HashSet::from([start.clone()]);
    let mut order = vec![start];
    let mut i = 0;
    while i < order.len() {
        for q in rules.options(&order[i])? {
            let parts = if split {
                rules.components(&q)?
            } else {
                Vec::new()
            };
            let reached = if parts.is_empty() { vec![q] } else { parts };
            for r in reached {
                if seen.insert(r.clone()) {
                    if order.len() >= cap {
                        return Ok(None);
                    }
                    order.push(r);
                }
            }
        }
        i += 1;
    }
    Ok(Some(order))
}

/// The nim-value of every position of `order` (a set closed as [`explore`] makes it), by
/// nim(p) = mex nim(Opt(p)), an option split into parts valued as the XOR of theirs
/// (Sprague–Grundy); options before positions, with an explicit stack. An error when the
/// rules fail at a position or lead back to one (a game written as a rule in a spec need not
/// be acyclic; on a cycle the recursion has no nim-values).
pub fn values(rules: &Rules, order: &[Pos], split: bool) -> Result<HashMap<Pos, u32>, String> {
    let index: HashMap<&Pos, usize> = order.iter().enumerate().map(|(i, p)| (p, i)).collect();
    let groups: Vec<Vec<Vec<usize>>> = order
        .iter()
        .map(|p| {
            rules
                .options(p)?
                .into_iter()
                .map(|q| {
                    let parts = if split {
                        rules.components(&q)?
                    } else {
                        Vec::new()
                    };
                    Ok(if parts.is_empty() {
                        vec![index[&q]]
                    } else {
                        parts.iter().map(|c| index[c]).collect()
                    })
                })
                .collect::<Result<Vec<_>, String>>()
        })
        .collect::<Result<_, String>>()?;
    let mut val: Vec<Option<u32>> = vec![None; order.len()];
    let mut open = vec![false; order.len()];
    for root in 0..order.len() {
        let mut stack = vec![(root, false)];
        while let Some((i, expanded)) = stack.pop() {
            if val[i].is_some() {
                continue;
            }
            if expanded {
                let opts: Vec<u32> = groups[i]
                    .iter()
                    .map(|g| g.iter().fold(0, |x, &j| x ^ val[j].expect("options first")))
                    .collect();
                val[i] = Some(mex(&opts));
            } else {
                if open[i] {
                    return Err(format!(
                        "{:?} is reached again from its own options (the game is not acyclic)",
                        order[i]
                    ));
                }
                open[i] = true;
                stack.push((i, true));
                for g in &groups[i] {
                    stack.extend(g.iter().filter(|&&j| val[j].is_none()).map(|&j| (j, false)));
                }
            }
        }
    }
    Ok(order
        .iter()
        .cloned()
        .zip(val.into_iter().map(|v| v.expect("every position valued")))
        .collect())
}

/// Whether the instance has more than `n` positions, counted as grundy counts them: known
/// `true` when it is past the verifier's own budget and `n` is below it; else counted up to
/// `n + 1` (at most 10 × [`OWN_POSITIONS`], past which the count is not confirmed).
pub fn more_positions_than(rules: &Rules, n: u64, split: bool, within: Option<usize>) -> bool {
    match within {
        Some(count) => count as u64 > n,
        None if n < OWN_POSITIONS as u64 => true,
        // A rule failing before the count passes n confirms nothing.
        None if n < 10 * OWN_POSITIONS as u64 => {
            matches!(explore(rules, n as usize + 1, split), Ok(None))
        }
        None => false,
    }
}

/// The running state of a spec's exemptions in instance order, for "not tried" (grundy stops
/// trying after two instances in a row exceed the budget).
#[derive(Default)]
pub struct Misses {
    run: usize,
}

impl Misses {
    /// A certified (or self-verified within budget and not a miss) instance ends a run.
    pub fn certified(&mut self) {
        self.run = 0;
    }
    /// An exemption for size the verifier confirmed.
    pub fn missed(&mut self) {
        self.run += 1;
    }
    pub fn two_in_a_row(&self) -> bool {
        self.run >= 2
    }
}

/// The rejection of an exemption the verifier could not confirm.
pub fn unconfirmed(label: &str, why: &str, detail: &str) -> String {
    format!("instance {label} is listed as not certified (\"{why}\"), which the verifier does not confirm: {detail}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn graphs_are_ordered_as_grundy_enumerates_them() {
        // By vertex count, then edge count, then graph6 string: K_1, K_2, P_3, K_3, …
        assert_eq!(graph_place("@"), 0);
        assert_eq!(graph_place("A_"), 1);
        assert_eq!(graph_place("BW"), 2);
        assert_eq!(graph_place("Bw"), 3);
        assert_eq!(graph_place("not a graph"), 0);
        // A token parameter beside the graph: size = place + t, as grundy sizes instances.
        let inst = |g: &str, t: i64| Inst {
            label: format!("G={g}, t={t}"),
            env: Env::default(),
            names: Vec::new(),
        };
        let order: Vec<String> = in_grundy_order(vec![inst("Bw", 0), inst("A_", 1), inst("@", 0)])
            .into_iter()
            .map(|i| i.label)
            .collect();
        assert_eq!(order, ["G=@, t=0", "G=A_, t=1", "G=Bw, t=0"]);
    }

    #[test]
    fn reasons_are_read_as_grundy_writes_them() {
        let r = |s: &str| parse_reason(s);
        assert_eq!(
            r("more than 10000 positions (the budget left for the instance)"),
            Reason::Positions(10000)
        );
        assert_eq!(r("more than 200 vertices"), Reason::Vertices(200));
        assert_eq!(
            r("not tried: two smaller instances exceeded the budget"),
            Reason::NotTried
        );
        assert_eq!(r("past the per-spec budget"), Reason::SpecBudget(None));
        assert_eq!(
            r("past the per-spec budget of 100000 positions"),
            Reason::SpecBudget(Some(100000))
        );
        // Anything else, including near misses, is not a reason the verifier recounts.
        assert_eq!(r("more than enough positions"), Reason::Other);
        assert_eq!(r("more than 5 minutes"), Reason::Other);
        assert_eq!(r("the solver timed out"), Reason::Other);
        assert_eq!(r("not tried"), Reason::Other);
    }

    #[test]
    fn own_values_are_the_nim_values() {
        // TER(P_3) = *2 (paper 000 Example 3.1); DC(5) = 3 (A002187: 0,1,1,2,0,3).
        for (name, want) in [
            ("TER(P_3)", 2),
            ("DNT(P_3)", 1),
            ("DC(5)", 3),
            ("*3 + *5", 6),
        ] {
            let g = Game::parse(name).unwrap();
            let rules = Rules::new(&g).unwrap();
            let order = explore(&rules, OWN_POSITIONS, true).unwrap().unwrap();
            assert_eq!(
                values(&rules, &order, true).unwrap()[&rules.start()],
                want,
                "{name}"
            );
        }
        // Past a cap, no list.
        let g = Game::parse("DC(30)").unwrap();
        assert!(explore(&Rules::new(&g).unwrap(), 50, false)
            .unwrap()
            .is_none());
    }
}

/// A parameter value as grundy orders instances: integers, then lists, then names (a graph6
/// string with its place in grundy's enumeration).
#[derive(PartialEq, Eq, PartialOrd, Ord)]
enum Key {
    Int(i64),
    List(Vec<i64>),
    Name(i64, String),
}

/// The place of a connected graph (a canonical graph6 string) in grundy's enumeration of a
/// `graphs:` range: by vertex count, then edge count, then graph6 string (counted from the
/// graphs of one vertex: a range starting later shifts every place by the same amount, which
/// leaves the order unchanged). 0 for any other name.
fn graph_place(name: &str) -> i64 {
    static PLACES: std::sync::OnceLock<HashMap<String, i64>> = std::sync::OnceLock::new();
    let places = PLACES.get_or_init(|| {
        let edges = |g: &str| -> u32 {
            g.bytes()
                .skip(1)
                .map(|b| (b.saturating_sub(63) & 63).count_ones())
                .sum()
        };
        let mut out = HashMap::new();
        let mut place = 0;
        for n in 1..=crate::enumerate::MAX_VERTICES {
            let mut list = crate::enumerate::connected_graphs(n).unwrap_or_default();
            list.sort_by(|a, b| edges(a).cmp(&edges(b)).then_with(|| a.cmp(b)));
            for g in list {
                out.insert(g, place);
                place += 1;
            }
        }
        out
    });
    places.get(name).copied().unwrap_or(0)
}

/// The instances in the order grundy tries them (its budgets are spent in that order):
/// smallest first by the sum of the parameters' sizes (|i| for an integer, the sum of |x|
/// for a list, its place in grundy's enumeration for a graph6 string, [`graph_place`]), then
/// by the values, from the labels ("m=2, n=5", "ns=[2,2]", "G=Bw, t=0").
pub(crate) fn in_grundy_order(mut insts: Vec<Inst>) -> Vec<Inst> {
    fn key(label: &str) -> (i64, Vec<Key>) {
        let vals: Vec<Key> = label
            .split(", ")
            .filter_map(|kv| kv.split_once('=').map(|(_, v)| v))
            .map(
                |v| match v.strip_prefix('[').and_then(|v| v.strip_suffix(']')) {
                    Some(l) => {
                        Key::List(l.split(',').filter_map(|x| x.trim().parse().ok()).collect())
                    }
                    None => v
                        .parse()
                        .map_or_else(|_| Key::Name(graph_place(v), v.to_string()), Key::Int),
                },
            )
            .collect();
        let size = vals
            .iter()
            .map(|k| match k {
                Key::Int(i) => i.abs(),
                Key::List(l) => l.iter().map(|x| x.abs()).sum(),
                Key::Name(place, _) => *place,
            })
            .sum();
        (size, vals)
    }
    insts.sort_by_cached_key(|i| key(&i.label));
    insts
}

/// The claim of a `nim`/`outcome` spec: the value formula and whether it states an outcome.
pub(crate) fn stated(raw: &Raw) -> Result<(Value, bool), Stop> {
    // A bare `outcome: N` is text, not YAML 1.1's false.
    let bare = raw
        .outcome_text
        .as_ref()
        .filter(|t| *t == "P" || *t == "N")
        .map(|t| Value::String(t.clone()));
    match (&raw.nim, bare.or_else(|| raw.outcome.clone())) {
        (Some(v), None) => Ok((v.clone(), false)),
        (None, Some(v)) => Ok((v, true)),
        _ => Err(Stop::Not(
            "the spec states neither `nim` nor `outcome`".into(),
        )),
    }
}

/// Whether the claimed value `want` is the nim-value `v` (an outcome: P iff 0).
pub(crate) fn agrees(want: &Val, outcome: bool, v: u32) -> Result<bool, Stop> {
    match (want, outcome) {
        (Val::Int(w), false) => Ok(*w == v as i64),
        (Val::Str(s), true) if s == "P" => Ok(v == 0),
        (Val::Str(s), true) if s == "N" => Ok(v != 0),
        _ => Err(Stop::Not(format!(
            "the claimed value {want:?} is not a nim-value or outcome"
        ))),
    }
}

/// The `where` filter at an environment.
pub(crate) fn selected(e: &Evaluator, raw: &Raw, env: &Env) -> Result<bool, Stop> {
    match &raw.filter {
        None => Ok(true),
        Some(f) => {
            let src =
                formula_text(f).ok_or_else(|| Stop::Not("`where` is not a formula".into()))?;
            Ok(env.eval_bool(e, &src)?)
        }
    }
}

/// The exemptions of a nim-table certificate (`kind: claim`), after [`crate::derive`] has
/// re-derived its certified instances: each one confirmed or verified by the verifier
/// itself. Returns how many the verifier verified itself.
pub fn tables(raw: &Raw, c: &Certificate, facts: &[TableFact]) -> Result<usize, Stop> {
    let reasons = listed(c).map_err(Stop::Reject)?;
    if reasons.is_empty() {
        return Ok(0);
    }
    let e = engine();
    let reach = raw.positions.as_deref() == Some("reachable");
    let split = !reach;
    let (value, outcome) = stated(raw)?;
    let template = raw
        .game
        .as_ref()
        .ok_or_else(|| Stop::Not("no `game`".into()))?;
    let by_label: BTreeMap<&str, &TableFact> =
        facts.iter().map(|f| (f.instance.as_str(), f)).collect();
    let mut misses = Misses::default();
    let mut spent = 0u64;
    let mut own = 0;
    for i in in_grundy_order(all_instances(raw)?) {
        if let Some(f) = by_label.get(i.label.as_str()) {
            misses.certified();
            spent += f.values.len() as u64;
            continue;
        }
        let Some(why) = reasons.get(&i.label) else {
            continue;
        };
        let name = substitute(template, &i.names);
        let Ok(rules) = Game::parse(&name).and_then(|g| Rules::new(&g)) else {
            // Neither grundy nor the verifier builds it (accepted as derive accepts it).
            continue;
        };
        let reason = parse_reason(why);
        let within = explore(&rules, OWN_POSITIONS, split)
            .map_err(|e| Stop::Reject(format!("instance {}: {name}: {e}", i.label)))?;
        if let Some(order) = &within {
            // Within the verifier's own budget: it solves the instance and checks the claim,
            // whatever the stated reason.
            let vals = values(&rules, order, split)
                .map_err(|e| Stop::Reject(format!("instance {}: {name}: {e}", i.label)))?;
            let positions: Vec<Pos> = if reach {
                order.clone()
            } else {
                vec![rules.start()]
            };
            let mut checked = false;
            for p in &positions {
                let env = env_at(&e, raw, &i, &rules, p)?;
                if !selected(&e, raw, &env)? {
                    continue;
                }
                let want = claimed(&e, &env, &value, outcome)?;
                if !agrees(&want, outcome, vals[p])? {
                    return Err(Stop::Reject(unconfirmed(
                        &i.label,
                        why,
                        &format!(
                            "the verifier solves {name} itself ({} positions) and the claim is false there: nim-value {} at {p:?}, the spec states {}",
                            order.len(),
                            vals[p],
                            show(&want)
                        ),
                    )));
                }
                checked = true;
            }
            if checked {
                own += 1;
            }
            match reason {
                Reason::Positions(n) if order.len() as u64 > n => misses.missed(),
                Reason::NotTried | Reason::SpecBudget(_) => {}
                _ => misses.certified(),
            }
            continue;
        }
        let confirmed = match reason {
            Reason::Positions(n) => more_positions_than(&rules, n, split, None)
                .then_some(())
                .ok_or(format!("{name} does not have more than {n} positions by its count")),
            Reason::NotTried if misses.two_in_a_row() => Ok(()),
            Reason::NotTried => Err("the two instances tried before it did not both exceed the budget".into()),
            Reason::SpecBudget(n) => {
                let n = n.unwrap_or(MIN_SPEC_BUDGET);
                if n < MIN_SPEC_BUDGET {
                    Err(format!("a per-spec budget of {n} entries, below the {MIN_SPEC_BUDGET} the verifier accepts"))
                } else if spent + OWN_POSITIONS as u64 + 1 > n {
                    Ok(())
                } else {
                    Err(format!("the instances before it list {spent} entries, and it needs more than {OWN_POSITIONS}: within {n}"))
                }
            }
            _ => Err(format!(
                "{name} has more than {OWN_POSITIONS} positions, and the reason is not one the verifier recounts"
            )),
        };
        if let Err(detail) = confirmed {
            return Err(Stop::Reject(unconfirmed(&i.label, why, &detail)));
        }
        if matches!(reason, Reason::Positions(_)) {
            misses.missed();
        }
    }
    Ok(own)
}

/// The size of a play tree's witnesses as grundy counts them against its budget (the kernel
/// of a P-position, or of the position after the move).
pub fn proof_size(p: &Proof) -> u64 {
    match p {
        Proof::Kernel(k) => k.len() as u64,
        Proof::Move { then, .. } => proof_size(then),
        Proof::Replies(rs) => rs.iter().map(|(_, q)| proof_size(q)).sum(),
    }
}

/// The tokens a kernel spec names on its instance: one `token`, or every (a, b) of the
/// stacked prism SP_{m,n} a `tokens` predicate selects (the count is all the budget needs).
fn token_count(e: &Evaluator, raw: &Raw, env: &Env, name: &str) -> Result<u64, Stop> {
    if raw.token.is_some() {
        return Ok(1);
    }
    let pred = raw
        .tokens
        .as_ref()
        .ok_or_else(|| Stop::Not("neither `token` nor `tokens`".into()))?;
    let (m, n) = crate::names::prism_size(name)
        .ok_or_else(|| Stop::Not(format!("tokens are read on stacked prisms, not {name}")))?;
    let mut count = 0;
    for b in 1..=n {
        for a in 1..=m {
            let mut env = env.clone();
            env.set("a", Val::Int(a));
            env.set("b", Val::Int(b));
            if env.eval_bool(e, pred)? {
                count += 1;
            }
        }
    }
    Ok(count)
}

/// The exemptions of a kernel certificate (`kind: certificate`): "more than N vertices" by
/// the verifier's own graph of the instance; "past the per-spec budget" by recounting what
/// the certificate lists before the instance (its edges and kernels) and what the instance
/// needs (its edges and |V|/2 per token, as grundy budgets it). Edge geography is not solved
/// by the verifier (its positions are edge sets), so every exemption needs its reason.
pub fn kernels(raw: &Raw, c: &Certificate, facts: &[KernelFact]) -> Result<usize, Stop> {
    let reasons = listed(c).map_err(Stop::Reject)?;
    if reasons.is_empty() {
        return Ok(0);
    }
    let e = engine();
    let template = raw
        .graph
        .as_ref()
        .ok_or_else(|| Stop::Not("no `graph`".into()))?;
    let by_label: BTreeMap<&str, &KernelFact> =
        facts.iter().map(|f| (f.instance.as_str(), f)).collect();
    let insts = in_grundy_order(instance_list(&e, raw, true)?.0);
    let mut spent = 0u64;
    for i in &insts {
        if let Some(f) = by_label.get(i.label.as_str()) {
            spent += f.listed;
            continue;
        }
        let Some(why) = reasons.get(&i.label) else {
            continue;
        };
        let name = substitute(template, &i.names);
        let graph = parse_graph(&name).map_err(Stop::Not)?;
        let v = graph.n as u64;
        let confirmed = match parse_reason(why) {
            Reason::Vertices(n) if v > n && v > MIN_KERNEL_VERTICES => Ok(()),
            Reason::Vertices(_) => Err(format!(
                "{name} has {v} vertices (an exemption for size needs more than {MIN_KERNEL_VERTICES})"
            )),
            Reason::SpecBudget(n) => {
                let n = n.unwrap_or(MIN_SPEC_BUDGET);
                let need = graph.edges.len() as u64 + v * token_count(&e, raw, &i.env, &name)? / 2;
                if n < MIN_SPEC_BUDGET {
                    Err(format!("a per-spec budget of {n}, below the {MIN_SPEC_BUDGET} the verifier accepts"))
                } else if spent + need > n {
                    Ok(())
                } else {
                    Err(format!("the instances before it list {spent} vertices and edges and it needs {need}: within {n}"))
                }
            }
            _ => Err("the reason is not one the verifier recounts".into()),
        };
        if let Err(detail) = confirmed {
            return Err(Stop::Reject(unconfirmed(&i.label, why, &detail)));
        }
    }
    Ok(0)
}

/// The exemptions of a map certificate (`kind: reduction`): "more than N positions" by the
/// verifier's count of the source game's reachable positions; "past the per-spec budget" by
/// the pairs listed before the instance plus those it needs (one per reachable position).
pub fn maps(raw: &Raw, c: &Certificate, facts: &[MapFact]) -> Result<usize, Stop> {
    let reasons = listed(c).map_err(Stop::Reject)?;
    if reasons.is_empty() {
        return Ok(0);
    }
    let e = engine();
    let from = raw
        .from
        .as_ref()
        .ok_or_else(|| Stop::Not("a reduction without `from`".into()))?;
    let by_label: BTreeMap<&str, &MapFact> =
        facts.iter().map(|f| (f.instance.as_str(), f)).collect();
    let insts = in_grundy_order(instance_list(&e, raw, true)?.0);
    let mut spent = 0u64;
    for i in &insts {
        if let Some(f) = by_label.get(i.label.as_str()) {
            spent += f.pairs;
            continue;
        }
        let Some(why) = reasons.get(&i.label) else {
            continue;
        };
        let name = substitute(from, &i.names);
        let rules = Game::parse(&name)
            .and_then(|g| Rules::new(&g))
            .map_err(Stop::Not)?;
        let count = explore(&rules, OWN_POSITIONS, false)
            .map_err(|e| Stop::Reject(format!("instance {}: {name}: {e}", i.label)))?
            .map(|o| o.len());
        let need = count.map_or(OWN_POSITIONS as u64 + 1, |n| n as u64);
        let confirmed = match parse_reason(why) {
            Reason::Positions(n) if more_positions_than(&rules, n, false, count) => Ok(()),
            Reason::Positions(n) => Err(format!(
                "{name} does not have more than {n} positions by its count"
            )),
            Reason::SpecBudget(n) => {
                let n = n.unwrap_or(MIN_SPEC_BUDGET);
                if n >= MIN_SPEC_BUDGET && spent + need > n {
                    Ok(())
                } else {
                    Err(format!("the instances before it list {spent} pairs and it needs {need}: within {n} (at least {MIN_SPEC_BUDGET})"))
                }
            }
            _ => Err(
                "the reason is not one the verifier recounts (the verifier does not make maps)"
                    .into(),
            ),
        };
        if let Err(detail) = confirmed {
            return Err(Stop::Reject(unconfirmed(&i.label, why, &detail)));
        }
    }
    Ok(0)
}

/// The exemptions of a closure-game certificate: an instance the verifier builds and solves
/// ([`crate::closure`]) is verified by it, the claim evaluated on its own features and value;
/// one it cannot build either (a structure read from a file) is accepted as
/// [`crate::derive`] accepts it; any other is unconfirmed.
pub fn closures(raw: &Raw, c: &Certificate, entries: &[ClosureEntry]) -> Result<usize, Stop> {
    use crate::closure::Ground;
    let reasons = listed(c).map_err(Stop::Reject)?;
    if reasons.is_empty() {
        return Ok(0);
    }
    let e = engine();
    let (value, outcome) = stated(raw)?;
    let template = raw
        .game
        .as_ref()
        .ok_or_else(|| Stop::Not("no `game`".into()))?;
    let mut own = 0;
    for i in all_instances(raw)? {
        if entries.iter().any(|x| x.instance == i.label) {
            continue;
        }
        let Some(why) = reasons.get(&i.label) else {
            continue;
        };
        let name = substitute(template, &i.names);
        let game = match crate::closure::parse(&name, raw.closure.as_deref()) {
            None => {
                return Err(Stop::Not(format!(
                    "{name} is not a closure game the verifier builds"
                )))
            }
            Some(Err(_)) => continue,
            Some(Ok(g)) => g,
        };
        let solved = match &game.ground {
            Ground::Counts(g) => g.solve().map(|s| s.value),
            _ if game.maximal.is_some() => game.value().map(|v| v.0),
            _ => Err("past the verifier's budget".into()),
        };
        let v = match solved {
            Ok(v) => v,
            Err(detail) => {
                return Err(Stop::Reject(unconfirmed(
                    &i.label,
                    why,
                    &format!("{name}: {detail}, and the reason is not one the verifier recounts"),
                )))
            }
        };
        let env = crate::derive::closure_env(&e, raw, &i.env, &game)?;
        if !selected(&e, raw, &env)? {
            continue;
        }
        let want = claimed(&e, &env, &value, outcome)?;
        if !agrees(&want, outcome, v)? {
            return Err(Stop::Reject(unconfirmed(
                &i.label,
                why,
                &format!(
                    "the verifier solves {name} itself and the claim is false there: nim-value {v}, the spec states {}",
                    show(&want)
                ),
            )));
        }
        own += 1;
    }
    Ok(own)
}

/// The exemptions of any certificate, by kind (diagrams and sequences list none; a list there
/// is unconfirmed). Returns how many instances the verifier verified itself.
pub fn check(raw: &Raw, c: &Certificate, ev: &Evidence) -> Result<usize, Stop> {
    match ev {
        Evidence::Tables(t) => tables(raw, c, t),
        Evidence::Closures(x) => closures(raw, c, x),
        Evidence::Kernels(k) => kernels(raw, c, k),
        Evidence::Maps(m) => maps(raw, c, m),
        // Checked with the predicate itself (crate::predicate).
        Evidence::Predicates(_) => Ok(0),
        _ => match listed(c).map_err(Stop::Reject)?.into_iter().next() {
            None => Ok(0),
            Some((i, why)) => Err(Stop::Reject(unconfirmed(
                &i,
                &why,
                "a certificate of this kind has no exemptions to recount",
            ))),
        },
    }
}

/// Confirms a spec grundy reports as "not certified" with no certificate at all (issue 43
/// item 5): the reason must be one the verifier recounts from the spec, or it is rejected.
/// - "tier long, …": the spec is of the long tier (`tier: long`), which the main job records
///   and does not certify;
/// - "no instance fits (K instances; first: L: more than N positions …)": a claim of K
///   instances (at most 100), each of which has more than N positions by the verifier's own
///   count ([`explore`], N at most ten times its own budget);
/// - "the refuted construction is one of grundy's solvers, …": the spec's construction is a
///   `solver:` (grundy's code), not a play the verifier walks;
/// - a signature table (Table 5.1) is never exempt.
pub fn report_level(text: &str, why: &str) -> Result<(), String> {
    let raw = crate::spec::parse(text)?;
    if raw.kind == "table" && raw.table.as_deref() == Some("signatures") {
        return Err(crate::signatures::NO_BUDGET.into());
    }
    if why.starts_with("tier long") {
        return if text.lines().any(|l| l.trim() == "tier: long") {
            Ok(())
        } else {
            Err("the spec is not of the long tier".into())
        };
    }
    if why.starts_with("the refuted construction is one of grundy's solvers") {
        return if raw.solver.is_some() && raw.play.is_none() {
            Ok(())
        } else {
            Err("the spec's construction is not a solver of grundy's".into())
        };
    }
    if let Some(rest) = why.strip_prefix("no instance fits (") {
        let k = number(rest).ok_or("no instance count")?;
        let n = rest
            .split_once("more than ")
            .and_then(|(_, r)| number(r))
            .ok_or("no position count")?;
        if raw.kind != "claim" {
            return Err("an exemption by positions of a spec that is not a claim".into());
        }
        let template = raw.game.as_deref().ok_or("a claim without `game`")?;
        let insts = all_instances(&raw).map_err(|e| match e {
            Stop::Not(m) | Stop::Reject(m) => m,
        })?;
        if insts.len() as u64 != k || k > 100 {
            return Err(format!(
                "the spec has {} instances, the reason counts {k}",
                insts.len()
            ));
        }
        for i in &insts {
            let name = substitute(template, &i.names);
            let rules = Game::parse(&name).and_then(|g| Rules::new(&g))?;
            if n > 10 * OWN_POSITIONS as u64 {
                return Err(format!("{n} positions is past what the verifier counts"));
            }
            if !matches!(explore(&rules, n as usize, false), Ok(None)) {
                return Err(format!(
                    "{name} has at most {n} positions by the verifier's count"
                ));
            }
        }
        return Ok(());
    }
    Err("not a reason the verifier recounts".into())
}
