//! The certificate kinds and their checks, entry by entry. Every check recomputes what it
//! needs from the definitions in [`crate::games`]; nothing the certificate says is taken on
//! trust except which question it answers (the spec's claimed values, which grundy evaluated
//! from the spec's formulas). The first bad entry is the error.

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
    #[serde(flatten)]
    pub body: Body,
    /// Instances grundy checked but did not certify, with the reason.
    #[serde(default)]
    pub not_certified: Vec<Value>,
}

#[derive(Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Body {
    NimTables { tables: Vec<Table> },
    OctalPeriod(Octal),
    Kernels { instances: Vec<KernelInstance> },
    Maps { maps: Vec<Map> },
    Strategy { games: Vec<StrategyGame> },
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
    let mut options = Vec::new();
    for (i, p) in positions.iter().enumerate() {
        let mut opts = Vec::new();
        for q in rules.options(p) {
            match index.get(&q) {
                Some(&j) => opts.push(j),
                None => return Err(format!("entry {i}: option {q:?} of position {} is not listed (the table is not closed)", entries[i].0)),
            }
        }
        options.push(opts);
    }
    // Options before positions (a post-order), so that a wrong value is reported at its own
    // entry rather than at a position above it.
    let mut done = vec![false; entries.len()];
    for root in 0..entries.len() {
        let mut stack = vec![(root, 0usize)];
        while let Some((i, k)) = stack.pop() {
            if done[i] {
                continue;
            }
            if let Some(&j) = options[i].get(k) {
                stack.push((i, k + 1));
                stack.push((j, 0));
                continue;
            }
            done[i] = true;
            let opt_values: Vec<u32> = options[i].iter().map(|&j| entries[j].1).collect();
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

fn check_table(t: &Table) -> Result<u64, String> {
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
    Ok(t.entries.len() as u64)
}

/// The period proof of an octal game's nim sequence.
#[derive(Deserialize)]
pub struct Octal {
    pub code: String,
    pub values: Vec<u32>,
    pub period: usize,
    pub preperiod: usize,
    /// What the spec states: listed values, a period and a preperiod (each optional).
    #[serde(default)]
    pub stated_values: Option<Vec<u32>>,
    pub stated_period: Option<usize>,
    pub stated_preperiod: Option<usize>,
    #[serde(default)]
    pub stated_least: bool,
}

fn check_octal(o: &Octal) -> Result<u64, String> {
    let g = octal_sequence(&o.code, o.values.len())?;
    if let Some(n) = (0..g.len()).find(|&n| g[n] != o.values[n]) {
        return Err(format!(
            "value {n}: listed G({n}) = {}, but the octal code gives {}",
            o.values[n], g[n]
        ));
    }
    let t = o.code.len() - 2;
    let (p, n0) = (o.period, o.preperiod);
    let bound = 2 * n0 + p + t;
    if p == 0 || bound + p > g.len() {
        return Err(format!("period {p}, preperiod {n0}: the Guy–Smith check needs G up to {}, only {} values listed", bound + p, g.len()));
    }
    // Guy–Smith: G(n + p) = G(n) for n0 ≤ n < 2·n0 + p + t proves it for all n ≥ n0.
    if let Some(n) = (n0..bound).find(|&n| g[n + p] != g[n]) {
        return Err(format!(
            "Guy–Smith inequality at n = {n}: G({}) = {} differs from G({n}) = {}",
            n + p,
            g[n + p],
            g[n]
        ));
    }
    if let Some(sv) = &o.stated_values {
        if let Some(n) = (0..sv.len()).find(|&n| sv.get(n) != g.get(n)) {
            return Err(format!(
                "stated value {n}: the spec lists {}, the octal code gives {:?}",
                sv[n],
                g.get(n)
            ));
        }
    }
    if let (Some(q), Some(e)) = (o.stated_period, o.stated_preperiod) {
        // Past max(e, n0) both sides are p-periodic in n, so one window of p values decides.
        let upto = e.max(n0) + p;
        if upto + q > g.len() {
            return Err(format!(
                "stated period {q} and preperiod {e} need G up to {}",
                upto + q
            ));
        }
        if let Some(n) = (e..upto).find(|&n| g[n + q] != g[n]) {
            return Err(format!(
                "stated period {q} from {e}: G({}) = {} differs from G({n}) = {}",
                n + q,
                g[n + q],
                g[n]
            ));
        }
        // Least: G(e − 1 + q) ≠ G(e − 1), and no smaller d is an eventual period (past
        // max(e, n0) G is p-periodic, so an eventual d-period would show in this window).
        if o.stated_least {
            if e > 0 && g[e - 1 + q] == g[e - 1] {
                return Err(format!(
                    "stated preperiod {e} is not least: G({}) = G({})",
                    e - 1 + q,
                    e - 1
                ));
            }
            let from = e.max(n0);
            if let Some(d) = (1..q).find(|&d| (from..from + p).all(|n| g[n + d] == g[n])) {
                return Err(format!(
                    "stated period {q} is not least: {d} is a period from {from}"
                ));
            }
        }
    }
    Ok(g.len() as u64)
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
    for &(a, b) in edges {
        if inside.contains(&a) && inside.contains(&b) {
            return Err(format!("kernel vertices {a} and {b} are adjacent"));
        }
    }
    for v in (0..n).filter(|v| !inside.contains(v)) {
        let k = edges
            .iter()
            .filter(|&&(a, b)| (a == v && inside.contains(&b)) || (b == v && inside.contains(&a)))
            .count();
        if k % 2 == 1 {
            return Err(format!(
                "vertex {v} outside the kernel has {k} neighbours in it (odd)"
            ));
        }
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
            let legal: HashSet<usize> = edges
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
            let listed: HashSet<usize> = rs.iter().map(|(v, _)| *v).collect();
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

fn check_kernel_instance(k: &KernelInstance) -> Result<u64, String> {
    k.graph.validate()?;
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
#[derive(Deserialize)]
pub struct Map {
    pub instance: String,
    pub from: Game,
    pub to: Game,
    pub pairs: Vec<(Value, Value)>,
    #[serde(default)]
    pub start_to_start: bool,
}

/// §2.4: f is option-preserving iff Opt(f(p)) = f(Opt(p)) for every p. The domain must contain
/// the start and be closed under options (so it holds for every reachable p).
fn check_map(m: &Map) -> Result<u64, String> {
    let (g, h) = (Rules::new(&m.from)?, Rules::new(&m.to)?);
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
        for q in g.options(&p) {
            image.insert(
                f.get(&q)
                    .cloned()
                    .ok_or_else(|| format!("pair {i}: option {q:?} of {pv} is not mapped"))?,
            );
        }
        let target = h.options(&f[&p]);
        if image != target {
            let extra: Vec<_> = image.symmetric_difference(&target).take(3).collect();
            return Err(format!(
                "pair {i}: Opt(f({pv})) ≠ f(Opt({pv})); they differ at {extra:?}"
            ));
        }
    }
    Ok(m.pairs.len() as u64)
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
    let table = read_table(&rules, &s.table).map_err(|e| format!("sink table: {e}"))?;
    let mut at: HashMap<(Pos, String), usize> = HashMap::new();
    for (i, st) in s.steps.iter().enumerate() {
        let p = rules.pos(&st.pos).map_err(|e| format!("step {i}: {e}"))?;
        if !s.nodes.contains_key(&st.node) {
            return Err(format!("step {i}: unknown node {}", st.node));
        }
        at.insert((p, st.node.clone()), i);
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
        let opts = rules.options(&p);
        let err = |m: String| format!("step {i} ({} at {}): {m}", st.pos, st.node);
        match (st.sink.as_deref(), s.nodes[&st.node]) {
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
            (Some(r), _) if r.starts_with("ref:") => {
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

/// Checks a whole certificate: the number of entries checked and the specs whose certificates
/// it rests on (diagram sinks referring to other diagrams), or the first bad entry.
pub fn check(c: &Certificate) -> Result<(u64, BTreeSet<String>), String> {
    let mut refs = BTreeSet::new();
    if c.format != "grundy-certificate/1" {
        return Err(format!("unknown format `{}`", c.format));
    }
    let mut total = 0;
    match &c.body {
        Body::NimTables { tables } => {
            for t in tables {
                total += check_table(t).map_err(|e| format!("instance {}: {e}", t.instance))?;
            }
        }
        Body::OctalPeriod(o) => total += check_octal(o)?,
        Body::Kernels { instances } => {
            for k in instances {
                total += check_kernel_instance(k)
                    .map_err(|e| format!("instance {}: {e}", k.instance))?;
            }
        }
        Body::Maps { maps } => {
            for m in maps {
                total += check_map(m).map_err(|e| format!("instance {}: {e}", m.instance))?;
            }
        }
        Body::Strategy { games } => {
            for g in games {
                total += check_strategy(g, &mut refs)
                    .map_err(|e| format!("instance {}: {e}", g.instance))?;
            }
        }
    }
    Ok((total, refs))
}
