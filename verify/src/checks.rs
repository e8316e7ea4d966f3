//! The certificate kinds and their checks, entry by entry: the certificate is evidence only.
//! Every check recomputes what it needs from the definitions in [`crate::games`] and returns
//! the facts it established (the value at each instance's start, the outcome of each token,
//! the maps' properties, the octal sequence); which question those facts answer (the instance
//! list, the games, the claimed values) is re-derived from the spec in [`crate::derive`], never
//! taken from the certificate. The first bad entry is the error.

use crate::games::Game;
use crate::games::{mex, octal_sequence, Graph, Pos, Rules};
use serde::Deserialize;
use serde_json::Value;
use std::collections::{BTreeSet, HashMap, HashSet};

/// One certificate file.
#[derive(Deserialize)]
pub struct Certificate {
    pub format: String,
    pub spec: String,
    /// The sha256 of the spec file's bytes the certificate was made from.
    #[serde(default)]
    pub spec_sha256: Option<String>,
    #[serde(flatten)]
    pub body: Body,
    /// Instances grundy checked but did not certify, with the reason.
    #[serde(default)]
    pub not_certified: Vec<Value>,
}

#[derive(Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Body {
    NimTables {
        tables: Vec<Table>,
    },
    OctalPeriod(Octal),
    Kernels {
        instances: Vec<KernelInstance>,
    },
    Maps {
        maps: Vec<Map>,
    },
    Strategy {
        games: Vec<StrategyGame>,
    },
    ClosureValues {
        instances: Vec<ClosureEntry>,
    },
    /// A `holds` predicate's instances (grundy's certify/claims.rs): each game and how many
    /// positions the claim selects there; everything else is re-derived in
    /// [`crate::predicate`].
    Predicates {
        instances: Vec<PredicateInstance>,
    },
    /// The evidence of a refuted `certificate` spec that gives its play: none beyond the
    /// counterexample instance, where [`crate::plays`] walks the spec's play itself.
    SpecPlay {},
    /// The evidence of a refuted diagram: none beyond the counterexample start, from which
    /// [`crate::diagram_search`] searches the spec's strategy itself.
    DiagramSearch {},
    /// The evidence of Thm 13's construction as printed: none beyond the counterexample
    /// instance, where the verifier builds S itself ([`crate::trail`]).
    PrintedConstruction {},
    /// A value table: its cell count; the cells and the rendered files are read from the
    /// spec and the output folder ([`crate::tables`]).
    ValueTable {
        cells: u64,
    },
    /// Table 5.1 (`table: signatures`): the multisets per row (none in a refutation, which
    /// may name the condition (1)–(4) that fails); [`crate::signatures`] re-derives the rest.
    Signatures {
        #[serde(default)]
        rows: Vec<u64>,
        #[serde(default)]
        fails: Option<String>,
    },
    /// A `sets` spec (grundy's certify/families.rs): per instance the claimed family's
    /// members, which [`crate::sets`] recomputes from the definitions.
    Families {
        instances: Vec<FamilyInstance>,
    },
    /// A gamegraph figure (grundy's certify/figures.rs): its panels' nodes and arrows, its
    /// map's pairs, which [`crate::figures`] re-derives from the spec and binds to the
    /// rendered files.
    Figure(FigureBody),
    /// A refuted verdict (grundy's certify/refute.rs): the counterexample instance and the
    /// evidence there (a nim table, a closure entry or an octal period proof), checked as
    /// its own kind; [`crate::refute`] re-derives from the spec that the claim fails there.
    Refutation {
        counterexample: Counterexample,
        evidence: Box<Body>,
    },
}

/// A figure's certificate: per panel its game, nodes `[id, position, nim]` and arrows; the
/// map (checked as a reduction's map), the dashed arrows of a play to its image, the fibres.
#[derive(Deserialize, Clone)]
pub struct FigureBody {
    pub panels: Vec<FigurePanel>,
    pub map: Option<Map>,
    pub map_edges: Vec<(String, String)>,
    pub fibres: Vec<(Vec<String>, String)>,
    /// A graph figure's copies: cluster id, family, the member's vertex names.
    #[serde(default)]
    pub copies: Vec<(String, String, Vec<String>)>,
}

#[derive(Deserialize, Clone)]
#[serde(deny_unknown_fields)]
pub struct FigurePanel {
    pub game: Game,
    pub nodes: Vec<(String, Value, u32)>,
    pub arrows: Vec<(String, String)>,
}

/// One instance of a `holds` predicate: its game (rules, or a closure game by its name,
/// which [`crate::closure`] builds) and the number of positions selected.
#[derive(Deserialize)]
pub struct PredicateInstance {
    pub instance: String,
    #[serde(default)]
    pub game: Option<Game>,
    #[serde(default)]
    pub closure_game: Option<String>,
    pub positions: u64,
}

/// One instance of a `sets` spec: the family named (`G`, `N`, `G*`, `N*`, or `Tr`) and its
/// members by vertex names.
#[derive(Deserialize, Clone)]
pub struct FamilyInstance {
    pub instance: String,
    pub family: String,
    pub members: Vec<Vec<String>>,
}

/// The instance a refutation names.
#[derive(Deserialize)]
pub struct Counterexample {
    pub instance: String,
}

/// A closure game's instance (grundy's certify/closure.rs): its game word and structure, the
/// maximal legal sets 𝓜 (elements in the order [`crate::groups`] states) and the value at
/// the start. The verifier recomputes all of it ([`crate::closure`]); the lists only make a
/// mismatch name what differs.
#[derive(Deserialize, Clone)]
pub struct ClosureEntry {
    pub instance: String,
    pub game: String,
    pub structure: String,
    pub closure: String,
    /// For a closure defined in a spec: the sha256 of that spec file's bytes.
    #[serde(default)]
    pub closure_sha256: Option<String>,
    pub elements: usize,
    #[serde(default)]
    pub maximal_sets: Vec<Vec<usize>>,
    /// For structures solved by counts (complete multipartite graphs past 64 vertices): the
    /// maximal legal sets as count vectors, part by part.
    #[serde(default)]
    pub maximal_counts: Option<Vec<Vec<u32>>>,
    pub value: u32,
}

/// A nim-value table of one instance, closed under options.
#[derive(Deserialize)]
pub struct Table {
    pub instance: String,
    pub game: Game,
    pub entries: Vec<(Value, u32)>,
    pub claims: Vec<Claim>,
}

/// What the spec claims at a position: a nim-value or an outcome ("P" or "N").
#[derive(Deserialize)]
pub struct Claim {
    pub pos: Value,
    #[serde(default)]
    pub start: bool,
    pub nim: Option<u32>,
    pub outcome: Option<String>,
}

/// Reads a closed table: every listed position's options are listed, and each value is the
/// mex of its options' values (design.md §1, nim(p) = mex nim(Opt(p))). Since every game here
/// is finite and acyclic, induction on the game graph makes every listed value the nim-value.
/// An option that the rules split into a disjoint sum ([`Rules::components`], Node Kayles)
/// may be listed as its parts instead: its value is then the XOR of theirs (Sprague–Grundy).
/// Each part has no more vertices in play than the option, which has fewer than the position,
/// so the induction runs on the number of vertices in play.
fn read_table(rules: &Rules, entries: &[(Value, u32)]) -> Result<HashMap<Pos, u32>, String> {
    let mut index = HashMap::new();
    let mut positions = Vec::new();
    for (i, (v, _)) in entries.iter().enumerate() {
        let p = rules.pos(v).map_err(|e| format!("entry {i}: {e}"))?;
        if index.insert(p.clone(), i).is_some() {
            return Err(format!("entry {i}: position {v} is listed twice"));
        }
        positions.push(p);
    }
    // Per position, its options, each as the entries whose values XOR to the option's.
    let mut options: Vec<Vec<Vec<usize>>> = Vec::new();
    for (i, p) in positions.iter().enumerate() {
        let mut opts = Vec::new();
        for q in rules.options(p).map_err(|e| format!("entry {i}: {e}"))? {
            let group = match index.get(&q) {
                Some(&j) => vec![j],
                None => {
                    let parts = rules
                        .components(&q)
                        .map_err(|e| format!("entry {i}: {e}"))?;
                    let listed: Option<Vec<usize>> =
                        parts.iter().map(|c| index.get(c).copied()).collect();
                    match listed {
                        Some(js) if !js.is_empty() => js,
                        _ => {
                            // ⊥ is no position: said as what it is (a table of normal play
                            // offered for a game played misère lacks it).
                            let q = match rules.hidden(&q) {
                                true => "⊥ (the misère transform's end)".to_string(),
                                false => format!("{q:?}"),
                            };
                            return Err(format!("entry {i}: option {q} of position {} is not listed, nor are all of its components (the table is not closed)", entries[i].0));
                        }
                    }
                }
            };
            opts.push(group);
        }
        options.push(opts);
    }
    // Options before positions (a post-order), so that a wrong value is reported at its own
    // entry rather than at a position above it. The built-in games are acyclic by their
    // rules; a game written as a rule in a spec need not be, and on a cycle of options the
    // mex equations have solutions that are no nim-values: an entry reached again while it
    // is still open (on the path from the root) is refused.
    let mut done = vec![false; entries.len()];
    let mut open = vec![false; entries.len()];
    for root in 0..entries.len() {
        let mut stack = vec![(root, 0usize)];
        while let Some((i, k)) = stack.pop() {
            if done[i] {
                continue;
            }
            if k == 0 {
                if open[i] {
                    return Err(format!(
                        "entry {i}: position {} is reached again from its own options (the game is not acyclic)",
                        entries[i].0
                    ));
                }
                open[i] = true;
            }
            if let Some(group) = options[i].get(k) {
                stack.push((i, k + 1));
                stack.extend(group.iter().map(|&j| (j, 0)));
                continue;
            }
            done[i] = true;
            let opt_values: Vec<u32> = options[i]
                .iter()
                .map(|group| group.iter().fold(0, |x, &j| x ^ entries[j].1))
                .collect();
            let (m, (v, n)) = (mex(&opt_values), &entries[i]);
            if m != *n {
                return Err(format!("entry {i}: position {v} is listed with value {n}, but the mex of its {} options' values is {m}", opt_values.len()));
            }
        }
    }
    Ok(positions
        .into_iter()
        .zip(entries.iter().map(|e| e.1))
        .collect())
}

/// What a checked table establishes about its instance.
pub struct TableFact {
    pub instance: String,
    pub game: Game,
    /// The nim-value of the start position, by mex over the closed table.
    pub start_value: Option<u32>,
    /// The certificate states a claim at the start.
    pub start_claimed: bool,
    /// Every listed position's nim-value (each the mex of its options').
    pub values: HashMap<Pos, u32>,
}

fn check_table(t: &Table) -> Result<(u64, TableFact), String> {
    if t.entries.is_empty() {
        return Err("the table is empty".into());
    }
    let rules = Rules::new(&t.game)?;
    let values = read_table(&rules, &t.entries)?;
    for (i, c) in t.claims.iter().enumerate() {
        let p = rules.pos(&c.pos).map_err(|e| format!("claim {i}: {e}"))?;
        if c.start && p != rules.start() {
            return Err(format!(
                "claim {i}: {} is not the start position of the game",
                c.pos
            ));
        }
        let v = *values
            .get(&p)
            .ok_or_else(|| format!("claim {i}: position {} is not in the table", c.pos))?;
        // Outcome P iff nim-value 0 (design.md §1).
        let ok = match (&c.nim, c.outcome.as_deref()) {
            (Some(n), None) => *n == v,
            (None, Some("P")) => v == 0,
            (None, Some("N")) => v != 0,
            _ => {
                return Err(format!(
                    "claim {i}: claims neither a nim-value nor an outcome P/N"
                ))
            }
        };
        if !ok {
            return Err(format!(
                "claim {i}: position {} has nim-value {v}, not the claimed {}",
                c.pos,
                c.nim.map_or_else(
                    || c.outcome.clone().unwrap_or_default(),
                    |n| format!("*{n}")
                )
            ));
        }
    }
    let fact = TableFact {
        instance: t.instance.clone(),
        game: t.game.clone(),
        start_value: values.get(&rules.start()).copied(),
        start_claimed: t.claims.iter().any(|c| c.start),
        values,
    };
    Ok((t.entries.len() as u64, fact))
}

/// The period proof of an octal game's nim sequence. What the spec states (grundy records it
/// as `stated_*`) is read from the spec itself (see [`crate::derive`]).
#[derive(Deserialize)]
pub struct Octal {
    pub code: String,
    pub values: Vec<u32>,
    pub period: u64,
    pub preperiod: u64,
}

/// Most values of an octal sequence recomputed (the recursion is quadratic in the length).
pub const MAX_OCTAL_VALUES: usize = 20_000;
/// Most steps of the octal recursion for one certificate.
const MAX_OCTAL_WORK: u128 = 400_000_000;
/// Most digits of an octal code.
const MAX_OCTAL_DIGITS: usize = 64;

/// What a checked octal certificate establishes: the sequence G(0..len) by the definition,
/// and that G(n + period) = G(n) for every n >= preperiod (Guy–Smith).
pub struct OctalFact {
    pub code: String,
    pub g: Vec<u32>,
    pub period: usize,
    pub preperiod: usize,
}

fn check_octal(o: &Octal) -> Result<(u64, OctalFact), String> {
    if o.values.len() > MAX_OCTAL_VALUES {
        return Err(format!(
            "{} values: the verifier recomputes at most {MAX_OCTAL_VALUES}",
            o.values.len()
        ));
    }
    if o.code.len() > MAX_OCTAL_DIGITS + 2 {
        return Err(format!("octal code of {} characters", o.code.len()));
    }
    // The recursion costs about len²/2 steps per digit that splits a heap in two (bit 4):
    // bounded, so that no certificate makes the check run for long.
    let splits = o
        .code
        .chars()
        .skip(2)
        .filter(|c| c.to_digit(8).is_some_and(|d| d & 4 != 0))
        .count();
    let work = (o.values.len() as u128).pow(2) / 2 * splits as u128;
    if work > MAX_OCTAL_WORK {
        return Err(format!(
            "{} values of {}: about {work} steps to recompute, more than the verifier's {MAX_OCTAL_WORK}",
            o.values.len(),
            o.code
        ));
    }
    let g = octal_sequence(&o.code, o.values.len())?;
    if let Some(n) = (0..g.len()).find(|&n| g[n] != o.values[n]) {
        return Err(format!(
            "value {n}: listed G({n}) = {}, but the octal code gives {}",
            o.values[n], g[n]
        ));
    }
    let t = o.code.len().saturating_sub(2) as u64;
    let (p, n0) = (o.period, o.preperiod);
    // Checked arithmetic: absurd periods and preperiods (near 2^64) are refused, not wrapped.
    let need = n0
        .checked_mul(2)
        .and_then(|x| x.checked_add(p))
        .and_then(|x| x.checked_add(t))
        .and_then(|bound| Some((bound, bound.checked_add(p)?)));
    let Some((bound, need)) = need.filter(|_| p > 0) else {
        return Err(format!(
            "period {p}, preperiod {n0}: not a period proof (zero period or overflow)"
        ));
    };
    if need > g.len() as u64 {
        return Err(format!("period {p}, preperiod {n0}: the Guy–Smith check needs G up to {need}, only {} values listed", g.len()));
    }
    let (p, n0, bound) = (p as usize, n0 as usize, bound as usize);
    // Guy–Smith: G(n + p) = G(n) for n0 ≤ n < 2·n0 + p + t proves it for all n ≥ n0.
    if let Some(n) = (n0..bound).find(|&n| g[n + p] != g[n]) {
        return Err(format!(
            "Guy–Smith inequality at n = {n}: G({}) = {} differs from G({n}) = {}",
            n + p,
            g[n + p],
            g[n]
        ));
    }
    let len = g.len() as u64;
    Ok((
        len,
        OctalFact {
            code: o.code.clone(),
            g,
            period: p,
            preperiod: n0,
        },
    ))
}

impl OctalFact {
    /// `d` is a period of G from `from` on: past max(from, n0) G is p-periodic, so the window
    /// [max(from, n0), max(from, n0) + p) decides together with [from, n0).
    fn period_from(&self, d: usize, from: usize) -> Result<bool, String> {
        let top = from.max(self.preperiod).checked_add(self.period);
        let end = top.and_then(|t| t.checked_add(d));
        match (top, end) {
            (Some(top), Some(end)) if end <= self.g.len() => {
                Ok((from..top).all(|n| self.g[n + d] == self.g[n]))
            }
            _ => Err(format!(
                "period {d} from {from}: needs more than the {} values computed",
                self.g.len()
            )),
        }
    }

    /// The least eventual period: it divides the proved period.
    fn least_period(&self) -> usize {
        (1..=self.period)
            .filter(|d| self.period.is_multiple_of(*d))
            .find(|&d| self.period_from(d, self.preperiod).unwrap_or(false))
            .unwrap_or(self.period)
    }

    /// Checks every number a spec states: listed values, a period, a preperiod (of the stated
    /// period, or of the least one when no period is stated), and that the preperiod is the
    /// least one for that period (`least_preperiod`, as the spec field says).
    pub fn check_stated(
        &self,
        values: Option<&[u32]>,
        period: Option<u64>,
        preperiod: Option<u64>,
        least: bool,
    ) -> Result<(), String> {
        if let Some(sv) = values {
            if sv.len() > self.g.len() {
                return Err(format!(
                    "{} values stated, {} computed",
                    sv.len(),
                    self.g.len()
                ));
            }
            if let Some(n) = (0..sv.len()).find(|&n| sv[n] != self.g[n]) {
                return Err(format!(
                    "stated value {n}: the spec lists {}, the octal code gives {}",
                    sv[n], self.g[n]
                ));
            }
        }
        let too_big = |x: u64| usize::try_from(x).ok().filter(|&x| x <= self.g.len());
        let q = match period {
            Some(q) => too_big(q).filter(|&q| q > 0).ok_or_else(|| {
                format!("stated period {q} is not a period the computed values decide")
            })?,
            None => self.least_period(),
        };
        let e = match preperiod {
            Some(e) => too_big(e)
                .ok_or_else(|| format!("stated preperiod {e} is past the computed values"))?,
            None => self.preperiod,
        };
        if (period.is_some() || preperiod.is_some()) && !self.period_from(q, e)? {
            // period_from succeeded in bounds, so a differing n lies below the end of G.
            let n = (e..self.g.len().saturating_sub(q))
                .find(|&n| self.g[n + q] != self.g[n])
                .unwrap_or(e);
            return Err(format!(
                "stated period {q} from {e} fails: G({}) = {:?} differs from G({n}) = {:?}",
                n + q,
                self.g.get(n + q),
                self.g.get(n)
            ));
        }
        if least {
            if preperiod.is_none() {
                return Err("a least preperiod is claimed but none is stated".into());
            }
            if e > 0 && self.period_from(q, e - 1)? {
                return Err(format!(
                    "stated preperiod {e} is not least: the period {q} holds from {}",
                    e - 1
                ));
            }
        }
        Ok(())
    }
}

/// Edge-geography outcome certificates of one instance (seed 002): the outcome of the graph
/// with the token at each listed vertex.
#[derive(Deserialize)]
pub struct KernelInstance {
    pub instance: String,
    pub graph: Graph,
    pub outcome: String,
    pub tokens: Vec<TokenProof>,
}

#[derive(Deserialize)]
pub struct TokenProof {
    pub token: usize,
    pub proof: Proof,
}

/// A play tree: an even kernel facing the player to move, our one move, or every reply of the
/// opponent answered.
#[derive(Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Proof {
    Kernel(Vec<usize>),
    Move { to: usize, then: Box<Proof> },
    Replies(Vec<(usize, Proof)>),
}

/// Seed 002, the definition of an even kernel and Theorem 2: a nonempty independent set S in
/// which every outside vertex has an even number of neighbours; if S contains the token, the
/// position is a P-position.
fn even_kernel(
    n: usize,
    edges: &HashSet<(usize, usize)>,
    s: &[usize],
    token: usize,
) -> Result<(), String> {
    let inside: HashSet<usize> = s.iter().copied().collect();
    if inside.is_empty() || s.iter().any(|&v| v >= n) {
        return Err("the kernel is empty or names a vertex outside the graph".into());
    }
    if !inside.contains(&token) {
        return Err(format!("the kernel does not contain the token {token}"));
    }
    // One pass over the edges (linear, whatever n): neighbours in S of each outside vertex.
    let mut count: HashMap<usize, usize> = HashMap::new();
    for &(a, b) in edges {
        match (inside.contains(&a), inside.contains(&b)) {
            (true, true) => return Err(format!("kernel vertices {a} and {b} are adjacent")),
            (true, false) => *count.entry(b).or_default() += 1,
            (false, true) => *count.entry(a).or_default() += 1,
            (false, false) => {}
        }
    }
    let mut odd: Vec<(&usize, &usize)> = count.iter().filter(|(_, k)| *k % 2 == 1).collect();
    odd.sort();
    if let Some((v, k)) = odd.first() {
        return Err(format!(
            "vertex {v} outside the kernel has {k} neighbours in it (odd)"
        ));
    }
    Ok(())
}

fn edge(a: usize, b: usize) -> (usize, usize) {
    (a.min(b), a.max(b))
}

/// `ours`: the player the proof is for moves now (a `move`); otherwise the opponent does
/// (a kernel, or every reply). A move slides the token along an edge and deletes the edge.
fn check_proof(
    n: usize,
    edges: &HashSet<(usize, usize)>,
    token: usize,
    proof: &Proof,
    ours: bool,
    path: &mut Vec<usize>,
) -> Result<u64, String> {
    let at = |path: &Vec<usize>| format!("after moves {path:?}");
    match (proof, ours) {
        (Proof::Kernel(s), false) => even_kernel(n, edges, s, token)
            .map(|_| 1)
            .map_err(|e| format!("{}: {e}", at(path))),
        (Proof::Move { to, then }, true) => {
            let mut rest = edges.clone();
            if !rest.remove(&edge(token, *to)) {
                return Err(format!(
                    "{}: move {token}→{to} uses no remaining edge",
                    at(path)
                ));
            }
            path.push(*to);
            let r = check_proof(n, &rest, *to, then, false, path);
            path.pop();
            r
        }
        (Proof::Replies(rs), false) => {
            let legal: BTreeSet<usize> = edges
                .iter()
                .filter_map(|&(a, b)| {
                    if a == token {
                        Some(b)
                    } else if b == token {
                        Some(a)
                    } else {
                        None
                    }
                })
                .collect();
            let listed: BTreeSet<usize> = rs.iter().map(|(v, _)| *v).collect();
            if legal != listed || rs.len() != listed.len() {
                return Err(format!(
                    "{}: replies listed {listed:?}, legal moves {legal:?}",
                    at(path)
                ));
            }
            let mut total = 0;
            for (to, answer) in rs {
                let mut rest = edges.clone();
                rest.remove(&edge(token, *to));
                path.push(*to);
                total += check_proof(n, &rest, *to, answer, true, path)?;
                path.pop();
            }
            Ok(total)
        }
        _ => Err(format!(
            "{}: a {} where the {} is to move",
            at(path),
            match proof {
                Proof::Kernel(_) => "kernel",
                Proof::Move { .. } => "move",
                Proof::Replies(_) => "reply list",
            },
            if ours { "prover" } else { "opponent" }
        )),
    }
}

/// What a checked kernel certificate establishes about one instance: the graph, and the
/// outcome of every token listed.
pub struct KernelFact {
    pub instance: String,
    pub graph: Graph,
    pub outcome: String,
    pub tokens: Vec<usize>,
    /// What the instance spends of grundy's per-spec budget: its edges and the vertices of
    /// its kernels ([`crate::exempt::kernels`] recounts the budget from it).
    pub listed: u64,
}

fn check_kernel_instance(k: &KernelInstance) -> Result<u64, String> {
    k.graph.validate()?;
    let mut seen = HashSet::new();
    if let Some(t) = k.tokens.iter().find(|t| !seen.insert(t.token)) {
        return Err(format!("token {} is listed twice", t.token));
    }
    let edges: HashSet<(usize, usize)> = k.graph.edges.iter().map(|&(a, b)| edge(a, b)).collect();
    // A proof whose root is our move shows an N-position; otherwise a P-position.
    let ours = match k.outcome.as_str() {
        "N" => true,
        "P" => false,
        o => return Err(format!("outcome `{o}` is neither P nor N")),
    };
    let mut total = 0;
    for t in &k.tokens {
        if t.token >= k.graph.n {
            return Err(format!("token {} is not a vertex", t.token));
        }
        total += check_proof(k.graph.n, &edges, t.token, &t.proof, ours, &mut Vec::new())
            .map_err(|e| format!("token {}: {e}", t.token))?;
    }
    Ok(total)
}

/// An option-preserving map on one instance (paper 000 §2.4): pairs (p, f(p)).
#[derive(Deserialize, Clone)]
pub struct Map {
    pub instance: String,
    pub from: Game,
    pub to: Game,
    pub pairs: Vec<(Value, Value)>,
    #[serde(default)]
    pub start_to_start: bool,
    /// A side that is a quotient gamegraph (`automorphisms` or `terminal`): its positions
    /// stand for their classes, which the verifier finds itself.
    #[serde(default)]
    pub from_quotient: Option<String>,
    #[serde(default)]
    pub to_quotient: Option<String>,
}

/// §2.4: f is option-preserving iff Opt(f(p)) = f(Opt(p)) for every p. The domain must contain
/// the start and be closed under options (so it holds for every reachable p).
/// What a checked map establishes: f is option-preserving from the start of `from` on, maps
/// the start to the start of `to` (or not), and is onto the positions of `to` reachable from
/// its start (or not).
pub struct MapFact {
    pub instance: String,
    /// The quotients the map is between, as the certificate names them.
    pub from_quotient: Option<String>,
    pub to_quotient: Option<String>,
    pub from: Game,
    pub to: Game,
    pub start_to_start: bool,
    pub surjective: bool,
    pub injective: bool,
    /// The pairs listed (what the instance spends of grundy's per-spec budget).
    pub pairs: u64,
}

fn check_map(m: &Map) -> Result<(u64, MapFact), String> {
    let (g, h) = (Rules::new(&m.from)?, Rules::new(&m.to)?);
    if g.misere() || h.misere() {
        return Err("a map between games one of which is played misère (its values are the normal-play transform's: outcomes only, which only an outcome claim reads)".into());
    }
    if m.from_quotient.is_some() || m.to_quotient.is_some() {
        return crate::quotients::check(m, &g, &h);
    }
    let mut f = HashMap::new();
    for (i, (p, q)) in m.pairs.iter().enumerate() {
        let (p, q) = (
            g.pos(p).map_err(|e| format!("pair {i}: {e}"))?,
            h.pos(q).map_err(|e| format!("pair {i}: {e}"))?,
        );
        if f.insert(p, q).is_some() {
            return Err(format!("pair {i}: position listed twice"));
        }
    }
    let start = f
        .get(&g.start())
        .ok_or("the start position is not mapped")?;
    if m.start_to_start && *start != h.start() {
        return Err(format!(
            "f(start) = {start:?} is not the start {:?}",
            h.start()
        ));
    }
    for (i, (pv, _)) in m.pairs.iter().enumerate() {
        let p = g.pos(pv)?;
        let mut image = HashSet::new();
        for q in g.options(&p).map_err(|e| format!("pair {i}: {e}"))? {
            image.insert(
                f.get(&q)
                    .cloned()
                    .ok_or_else(|| format!("pair {i}: option {q:?} of {pv} is not mapped"))?,
            );
        }
        let target = h.options(&f[&p]).map_err(|e| format!("pair {i}: {e}"))?;
        if image != target {
            let extra: Vec<_> = image.symmetric_difference(&target).take(3).collect();
            return Err(format!(
                "pair {i}: Opt(f({pv})) ≠ f(Opt({pv})); they differ at {extra:?}"
            ));
        }
    }
    // Onto: every position of `to` reachable from f(start) is an image (the image is closed
    // under options, by option preservation, so this search stays inside it or stops).
    let images: HashSet<&Pos> = f.values().collect();
    let mut surjective = true;
    let mut seen: HashSet<Pos> = HashSet::from([h.start()]);
    let mut queue = vec![h.start()];
    while let Some(q) = queue.pop() {
        if !images.contains(&q) {
            surjective = false;
            break;
        }
        for r in h.options(&q)? {
            if seen.insert(r.clone()) {
                queue.push(r);
            }
        }
    }
    let fact = MapFact {
        instance: m.instance.clone(),
        from_quotient: None,
        to_quotient: None,
        from: m.from.clone(),
        to: m.to.clone(),
        start_to_start: *start == h.start(),
        surjective,
        injective: images.len() == f.len(),
        pairs: m.pairs.len() as u64,
    };
    Ok((m.pairs.len() as u64, fact))
}

/// A diagram's strategy on one game (paper 000 Remark 5.34, design.md §3): every position
/// the strategy meets, with its node; at P-nodes every option with the node it lands in, at
/// other nodes the reply chosen; sinks terminal or of nim-value 0 by the table.
#[derive(Deserialize)]
pub struct StrategyGame {
    pub instance: String,
    pub game: Game,
    /// Node name → is a P-node (first player to move).
    pub nodes: HashMap<String, bool>,
    /// Arrows (from, to) by kind.
    pub singles: Vec<(String, String)>,
    pub doubles: Vec<(String, String)>,
    pub starts: Vec<Value>,
    pub steps: Vec<Step>,
    /// Nim-values of the `*0` sink positions, closed under options.
    #[serde(default)]
    pub table: Vec<(Value, u32)>,
}

#[derive(Deserialize)]
pub struct Step {
    pub pos: Value,
    pub node: String,
    /// At a P-node: each option and its node.
    #[serde(default)]
    pub options: Vec<(Value, String)>,
    /// At an N-node: the reply and its node.
    pub reply: Option<(Value, String)>,
    /// "terminal", "*0" or "ref:<spec>".
    pub sink: Option<String>,
}

fn check_strategy(s: &StrategyGame, refs: &mut BTreeSet<String>) -> Result<u64, String> {
    let rules = Rules::new(&s.game)?;
    if rules.misere() {
        return Err("a strategy diagram of a game played misère (its values are the normal-play transform's: outcomes only, which only an outcome claim reads)".into());
    }
    let table = read_table(&rules, &s.table).map_err(|e| format!("sink table: {e}"))?;
    // Alternation (Remark 5.34): a single arrow leaves a P-node (the opponent moves) for an
    // N-node, a double arrow (our reply) leaves an N-node for a P-node. Without it a P-node
    // with an arrow to itself would "prove" any position lost for the player to move.
    for (kind, arrows, from_p) in [("single", &s.singles, true), ("double", &s.doubles, false)] {
        for (a, b) in arrows.iter() {
            match (s.nodes.get(a), s.nodes.get(b)) {
                (Some(&pa), Some(&pb)) if pa == from_p && pb != from_p => {}
                (Some(_), Some(_)) => {
                    return Err(format!(
                        "{kind} arrow {a} → {b} does not alternate: a single arrow goes from a P-node to an N-node, a double arrow from an N-node to a P-node"
                    ))
                }
                _ => return Err(format!("{kind} arrow {a} → {b} names an unknown node")),
            }
        }
    }
    if s.steps.is_empty() || s.starts.is_empty() {
        return Err("no steps or no start positions".into());
    }
    let mut at: HashMap<(Pos, String), usize> = HashMap::new();
    for (i, st) in s.steps.iter().enumerate() {
        let p = rules.pos(&st.pos).map_err(|e| format!("step {i}: {e}"))?;
        if !s.nodes.contains_key(&st.node) {
            return Err(format!("step {i}: unknown node {}", st.node));
        }
        if at.insert((p, st.node.clone()), i).is_some() {
            return Err(format!(
                "step {i}: {} at {} is listed twice",
                st.pos, st.node
            ));
        }
    }
    let listed = |v: &Value, node: &str, what: &str| -> Result<(), String> {
        let q = rules.pos(v)?;
        at.get(&(q, node.to_string()))
            .map(|_| ())
            .ok_or_else(|| format!("{what} {v} at node {node} has no step"))
    };
    for v in &s.starts {
        if !s.steps.iter().any(|st| &st.pos == v && s.nodes[&st.node]) {
            return Err(format!("start position {v} is not met at a P-node"));
        }
    }
    for (i, st) in s.steps.iter().enumerate() {
        let p = rules.pos(&st.pos)?;
        let err = |m: String| format!("step {i} ({} at {}): {m}", st.pos, st.node);
        let opts = rules.options(&p).map_err(&err)?;
        match (st.sink.as_deref(), s.nodes[&st.node]) {
            // Every sink is a P-position: the player to move there loses.
            (Some(_), false) => return Err(err("a sink at an N-node (a sink is lost for the player to move, so it belongs at a P-node)".into())),
            (Some("terminal"), _) if opts.is_empty() => {}
            (Some("terminal"), _) => {
                return Err(err(format!("not terminal: {} options", opts.len())))
            }
            (Some("*0"), _) => match table.get(&p) {
                Some(0) => {}
                v => return Err(err(format!("a *0 sink with table value {v:?}"))),
            },
            // A reference to another diagram's start family is vouched for by that diagram's
            // own certificate; the step is accepted here and the reference is reported.
            (Some(r), _) if r.starts_with("ref:") && r.len() > 4 => {
                refs.insert(r["ref:".len()..].to_string());
            }
            (Some(r), _) => return Err(err(format!("unknown sink kind `{r}`"))),
            // P-node: every option covered by a single arrow's target (coverage, §3 (b)).
            (None, true) => {
                let mut covered = HashSet::new();
                for (qv, node) in &st.options {
                    if !s.singles.contains(&(st.node.clone(), node.clone())) {
                        return Err(err(format!("no single arrow {} → {node}", st.node)));
                    }
                    let q = rules.pos(qv).map_err(&err)?;
                    if !opts.contains(&q) {
                        return Err(err(format!("{qv} is not an option")));
                    }
                    listed(qv, node, "option").map_err(&err)?;
                    covered.insert(q);
                }
                if covered.len() != opts.len() {
                    return Err(err(format!(
                        "{} options, {} covered",
                        opts.len(),
                        covered.len()
                    )));
                }
            }
            // Other node: a legal reply along a double arrow, landing in its node (§3 (c)).
            (None, false) => {
                let (qv, node) = st.reply.as_ref().ok_or_else(|| err("no reply".into()))?;
                if !s.doubles.contains(&(st.node.clone(), node.clone())) {
                    return Err(err(format!("no double arrow {} → {node}", st.node)));
                }
                if !opts.contains(&rules.pos(qv).map_err(&err)?) {
                    return Err(err(format!("reply {qv} is not an option")));
                }
                listed(qv, node, "reply").map_err(&err)?;
            }
        }
    }
    Ok(s.steps.len() as u64)
}

/// The facts a checked certificate establishes, by kind.
pub enum Evidence {
    Tables(Vec<TableFact>),
    Octal(OctalFact),
    Kernels(Vec<KernelFact>),
    Maps(Vec<MapFact>),
    /// Per game group: its game and the start positions, each met at a P-node.
    Strategy(Vec<(Game, Vec<Value>)>),
    /// Closure games: their entries, each well formed (sets ascending, within the ground set).
    Closures(Vec<ClosureEntry>),
    /// A `holds` predicate: per instance its game (rules built, so a game) and the number of
    /// positions selected, as the certificate states it.
    Predicates(Vec<(String, Option<Game>, u64)>),
    /// A refuted play, to be walked from the spec.
    SpecPlay,
    /// A refuted diagram, to be searched from the spec.
    DiagramSearch,
    /// Thm 13's construction as printed, to be built from the spec.
    PrintedConstruction,
    /// A value table's cell count, as the certificate states it.
    ValueTable(u64),
    /// A `sets` spec's instances as the certificate lists them.
    Families(Vec<FamilyInstance>),
    /// A figure as the certificate draws it, its map checked (option-preserving where it is
    /// defined) when it has one.
    Figure(Box<(FigureBody, Option<MapFact>)>),
    /// A signature table's multisets per row, and the condition a refutation names.
    Signatures(Vec<u64>, Option<String>),
    /// A refutation: the counterexample instance and the facts checked there.
    Refuted(String, Box<Evidence>),
}

/// Checks a whole certificate: the number of entries checked, the facts established, and the
/// specs whose certificates it rests on (diagram sinks referring to other diagrams), or the
/// first bad entry.
pub fn check(c: &Certificate) -> Result<(u64, Evidence, BTreeSet<String>), String> {
    let mut refs = BTreeSet::new();
    if c.format != "grundy-certificate/1" {
        return Err(format!("unknown format `{}`", c.format));
    }
    let (total, evidence) = check_body(&c.body, &mut refs, true)?;
    Ok((total, evidence, refs))
}

/// Checks one body (a refutation's evidence is a body too, one level down).
fn check_body(
    body: &Body,
    refs: &mut BTreeSet<String>,
    top: bool,
) -> Result<(u64, Evidence), String> {
    let mut total = 0;
    let evidence = match body {
        Body::Refutation { .. } if !top => {
            return Err("a refutation's evidence is itself a refutation".into())
        }
        Body::Refutation {
            counterexample,
            evidence,
        } => {
            let (n, inner) = check_body(evidence, refs, false)
                .map_err(|e| format!("counterexample {}: {e}", counterexample.instance))?;
            total += n;
            Evidence::Refuted(counterexample.instance.clone(), Box::new(inner))
        }
        Body::NimTables { tables } => {
            let mut facts = Vec::new();
            for t in tables {
                let (n, f) = check_table(t).map_err(|e| format!("instance {}: {e}", t.instance))?;
                total += n;
                facts.push(f);
            }
            Evidence::Tables(facts)
        }
        Body::OctalPeriod(o) => {
            let (n, f) = check_octal(o)?;
            total += n;
            Evidence::Octal(f)
        }
        Body::Kernels { instances } => {
            let mut facts = Vec::new();
            for k in instances {
                total += check_kernel_instance(k).map_err(|e| match k.instance.as_str() {
                    "" => e,
                    i => format!("instance {i}: {e}"),
                })?;
                facts.push(KernelFact {
                    instance: k.instance.clone(),
                    graph: k.graph.clone(),
                    outcome: k.outcome.clone(),
                    tokens: k.tokens.iter().map(|t| t.token).collect(),
                    listed: k.graph.edges.len() as u64
                        + k.tokens
                            .iter()
                            .map(|t| crate::exempt::proof_size(&t.proof))
                            .sum::<u64>(),
                });
            }
            Evidence::Kernels(facts)
        }
        Body::Maps { maps } => {
            let mut facts = Vec::new();
            for m in maps {
                let (n, f) = check_map(m).map_err(|e| format!("instance {}: {e}", m.instance))?;
                total += n;
                facts.push(f);
            }
            Evidence::Maps(facts)
        }
        Body::Strategy { games } => {
            for g in games {
                total +=
                    check_strategy(g, refs).map_err(|e| format!("instance {}: {e}", g.instance))?;
            }
            Evidence::Strategy(
                games
                    .iter()
                    .map(|g| (g.game.clone(), g.starts.clone()))
                    .collect(),
            )
        }
        Body::Predicates { instances } => {
            for i in instances {
                match (&i.game, &i.closure_game) {
                    (Some(g), None) => {
                        let rules =
                            Rules::new(g).map_err(|e| format!("instance {}: {e}", i.instance))?;
                        if rules.misere() {
                            return Err(format!("instance {}: a predicate about a game played misère (only outcome claims are read for it)", i.instance));
                        }
                    }
                    // Built from the spec's name by the verifier itself (crate::predicate).
                    (None, Some(_)) => {}
                    _ => {
                        return Err(format!(
                            "instance {}: a predicate's instance names one game: `game` or `closure_game`",
                            i.instance
                        ))
                    }
                }
                total += i.positions;
            }
            Evidence::Predicates(
                instances
                    .iter()
                    .map(|i| (i.instance.clone(), i.game.clone(), i.positions))
                    .collect(),
            )
        }
        Body::SpecPlay {} if top => {
            return Err("a spec's play is evidence of a refutation only".into())
        }
        Body::SpecPlay {} => Evidence::SpecPlay,
        Body::DiagramSearch {} if top => {
            return Err("a diagram's search is evidence of a refutation only".into())
        }
        Body::DiagramSearch {} => Evidence::DiagramSearch,
        Body::PrintedConstruction {} if top => {
            return Err("a printed construction is evidence of a refutation only".into())
        }
        Body::PrintedConstruction {} => Evidence::PrintedConstruction,
        Body::ValueTable { cells } => {
            total += cells;
            Evidence::ValueTable(*cells)
        }
        Body::Figure(f) => {
            let map = match &f.map {
                Some(m) => {
                    let (n, fact) = check_map(m).map_err(|e| format!("the figure's map: {e}"))?;
                    total += n;
                    Some(fact)
                }
                None => None,
            };
            for p in &f.panels {
                total += (p.nodes.len() + p.arrows.len()) as u64;
            }
            total += f.copies.len() as u64;
            Evidence::Figure(Box::new((f.clone(), map)))
        }
        Body::Signatures { rows, fails } => {
            total += rows.iter().sum::<u64>().max(1);
            Evidence::Signatures(rows.clone(), fails.clone())
        }
        Body::Families { instances } => {
            for i in instances {
                total += 1 + i.members.len() as u64;
            }
            Evidence::Families(instances.clone())
        }
        Body::ClosureValues { instances } => {
            for i in instances {
                // A closure defined in a spec is bound to that spec's bytes.
                let mine =
                    crate::closures::Kind::parse(Some(&i.closure)).and_then(|k| k.spec_sha256());
                match (&i.closure_sha256, mine) {
                    (None, None) => {}
                    (Some(h), Some(sha)) if h == sha => {}
                    (Some(h), None) => {
                        return Err(format!(
                            "instance {}: the closure {} (closure_sha256 {h}) is not one a game spec under --specs defines{}",
                            i.instance,
                            i.closure,
                            match crate::user::closure(&i.closure) {
                                Some(Err(e)) => format!(" ({e})"),
                                _ => String::new(),
                            }
                        ))
                    }
                    (h, Some(sha)) => {
                        return Err(format!(
                            "instance {}: the closure {} was made from other spec bytes (closure_sha256 {}) than its game spec's (sha256 {sha})",
                            i.instance,
                            i.closure,
                            h.as_deref().unwrap_or("missing")
                        ))
                    }
                }
                for m in &i.maximal_sets {
                    if m.windows(2).any(|w| w[0] >= w[1]) || m.iter().any(|&x| x >= i.elements) {
                        return Err(format!(
                            "instance {}: a maximal set is not an ascending list of elements below {}",
                            i.instance, i.elements
                        ));
                    }
                    total += m.len() as u64;
                }
                if let Some(c) = &i.maximal_counts {
                    total += c.len() as u64;
                }
            }
            Evidence::Closures(instances.clone())
        }
    };
    Ok((total, evidence))
}
