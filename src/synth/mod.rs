//! Synthesis of case analysis diagrams (paper §6, question 5: a case analysis diagram is a
//! quotient of a winning strategy). From the start positions of a diagram spec and a list of
//! feature expressions, [`synthesize`]:
//!
//! 1. solves every start position and refuses (with the counterexample) unless it is a
//!    P-position; then builds a winning strategy of the second player, choosing among the
//!    winning replies one whose class is already used (so that the quotient stays small);
//! 2. classifies every position met (first-player-to-move and second-player-to-move positions
//!    apart) by its *abstract feature vector*: each feature and each difference of two integer
//!    features, clamped to `-3..=3` (values beyond ±2 count as "large"), so that classes do not
//!    depend on the instance (`c` of 7 and of 19 are both "c ≥ 3");
//! 3. merges classes greedily while the merged class stays *separable*: its predicate — the
//!    conjunction of equalities and bounds its members share — holds for no member of another
//!    class (of either player, so that nodes are pairwise disjoint on what the strategy meets;
//!    N-classes merge only when they reply with the same move kinds); then prunes each
//!    predicate greedily to atoms that still separate it.
//!
//! Every member satisfies its class's predicate and every move of the strategy is an arrow, so
//! the result is a valid diagram by construction; it is nevertheless written as a spec and
//! checked by the ordinary checker (no separate trust). The model here never touches YAML or
//! files: [`to_spec_yaml`] produces the text for the CLI to write.

use crate::check::diagram::{features as pos_features, key, move_kind, Diagram, MoveKind};
use crate::check::formula::{Env, Formula};
use crate::game::{AnyGame, AnyPos, Game, Value};
use crate::solve::guard::{Budget, Monitor};
use crate::solve::progress::Progress;
use crate::solve::Solver;

/// Memory per solved position the synthesiser's solvers are budgeted for (the memo entry and
/// the hash table's slack).
const BYTES_PER_POSITION: f64 = 64.0;
use rustc_hash::FxHashMap;
use std::collections::{BTreeMap, BTreeSet};

/// A feature expression over the features of a position (`size - c`, `solid`).
#[derive(Clone, Debug)]
pub struct Feature {
    pub src: String,
    pub formula: Formula,
}

/// Parses a comma-separated list of feature expressions (commas inside brackets do not
/// separate). Errors name the feature that does not parse.
pub fn parse_features(text: &str) -> Result<Vec<Feature>, String> {
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut cur = String::new();
    for ch in text.chars() {
        match ch {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            _ => {}
        }
        if ch == ',' && depth == 0 {
            parts.push(std::mem::take(&mut cur));
        } else {
            cur.push(ch);
        }
    }
    parts.push(cur);
    let mut out = Vec::new();
    for p in parts {
        let src = p.trim().to_string();
        if src.is_empty() {
            return Err(format!("--features `{text}`: an empty feature expression"));
        }
        let formula = Formula::compile(&src)
            .map_err(|e| format!("feature `{src}` does not parse: {}", e.message))?;
        out.push(Feature { src, formula });
    }
    if out.len() > 12 {
        return Err(format!(
            "--features: {} features given; at most 12 (their pairwise differences are terms too)",
            out.len()
        ));
    }
    Ok(out)
}

/// A start position that is not a P-position: the claim is false.
#[derive(Clone, Debug)]
pub struct Counterexample {
    pub instance: String,
    pub position: String,
    pub nim: u32,
}

#[derive(Clone, Debug)]
pub struct SynthNode {
    pub name: String,
    pub when: String,
    /// The first player is to move.
    pub p_node: bool,
    pub start: Option<u32>,
    /// `terminal` (every member is terminal) or `*0` (members the strategy does not follow
    /// further, with `--zero-sinks`; the checker solves them).
    pub sink: Option<&'static str>,
    pub positions: usize,
    /// The predicate holds for no member of another node.
    pub separated: bool,
}

#[derive(Clone, Debug)]
pub struct SynthArrow {
    pub from: usize,
    pub to: usize,
    /// A reply of the second player (drawn double).
    pub reply: bool,
    pub kind: MoveKind,
}

/// A synthesized diagram.
#[derive(Clone, Debug)]
pub struct Synthesized {
    pub nodes: Vec<SynthNode>,
    pub arrows: Vec<SynthArrow>,
    pub start_positions: usize,
    pub positions: usize,
    /// Classes before merging.
    pub classes: usize,
}

pub enum Outcome {
    Diagram(Synthesized),
    Counterexample(Counterexample),
}

/// Values beyond ±CLAMP are "large": classes and predicates do not tell them apart.
const CLAMP: i64 = 3;

/// A term: a feature, or the difference of two integer features.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Term {
    F(usize),
    D(usize, usize),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Atom {
    Eq(usize, i64),
    Ge(usize, i64),
    Le(usize, i64),
}

impl Atom {
    fn holds(self, v: &[i64]) -> bool {
        match self {
            Atom::Eq(t, k) => v[t] == k,
            Atom::Ge(t, k) => v[t] >= k,
            Atom::Le(t, k) => v[t] <= k,
        }
    }
}

struct Rec {
    p: bool,
    vals: Vec<i64>,
    terminal: bool,
    /// A P-position left to a `*0` sink (not expanded).
    leaf: bool,
    succ: Vec<(usize, MoveKind)>,
}

struct Ctx<'a> {
    feats: &'a [Feature],
    is_bool: Vec<Option<bool>>,
    cache: FxHashMap<(usize, AnyPos), Vec<i64>>,
}

impl Ctx<'_> {
    fn values(&mut self, gi: usize, g: &AnyGame, p: &AnyPos) -> Result<Vec<i64>, String> {
        if let Some(v) = self.cache.get(&(gi, p.clone())) {
            return Ok(v.clone());
        }
        let fmap = pos_features(g, p);
        // A feature that is a plain feature name is read directly: rhai (which copies the
        // whole environment per evaluation) only for expressions. This is what makes the
        // strategies of TER(C_21) (about a million positions) affordable.
        let mut env: Option<Env> = None;
        let mut out = Vec::with_capacity(self.feats.len());
        for (i, f) in self.feats.iter().enumerate() {
            let direct = match fmap.get(f.src.as_str()) {
                Some(Value::Int(v)) => Some((*v, false)),
                Some(Value::Bool(b)) => Some((i64::from(*b), true)),
                _ => None,
            };
            let (v, b) = if let Some(vb) = direct {
                vb
            } else {
                let env = env.get_or_insert_with(|| {
                    let mut e = Env::new();
                    e.add_features(&fmap);
                    e
                });
                let d = f
                    .formula
                    .eval(env)
                    .map_err(|m| format!("feature `{}` at position {}: {m}", f.src, g.label(p)))?;
                if let Ok(b) = d.as_bool() {
                    (i64::from(b), true)
                } else if let Ok(n) = d.as_int() {
                    (n, false)
                } else {
                    return Err(format!(
                        "feature `{}` at position {} is neither an integer nor true/false",
                        f.src,
                        g.label(p)
                    ));
                }
            };
            match self.is_bool[i] {
                None => self.is_bool[i] = Some(b),
                Some(x) if x != b => {
                    return Err(format!(
                        "feature `{}` is an integer at some positions and true/false at others",
                        f.src
                    ))
                }
                _ => {}
            }
            out.push(v);
        }
        self.cache.insert((gi, p.clone()), out.clone());
        Ok(out)
    }
}

fn terms(is_bool: &[bool]) -> Vec<Term> {
    let mut t: Vec<Term> = (0..is_bool.len()).map(Term::F).collect();
    for i in 0..is_bool.len() {
        for j in i + 1..is_bool.len() {
            if !is_bool[i] && !is_bool[j] {
                t.push(Term::D(i, j));
            }
        }
    }
    t
}

fn abstract_vec(terms: &[Term], vals: &[i64]) -> Vec<i64> {
    terms
        .iter()
        .map(|t| match *t {
            Term::F(i) => vals[i],
            Term::D(i, j) => vals[i].saturating_sub(vals[j]),
        })
        .map(|v| v.clamp(-CLAMP, CLAMP))
        .collect()
}

/// The conjunction its (abstract) member vectors share: equalities, else bounds.
fn hull_atoms(terms: &[Term], is_bool: &[bool], keys: &[&Vec<i64>]) -> Vec<Atom> {
    let mut out = Vec::new();
    for (t, term) in terms.iter().enumerate() {
        let lo = keys.iter().map(|k| k[t]).min().unwrap_or(0);
        let hi = keys.iter().map(|k| k[t]).max().unwrap_or(0);
        let boolean = matches!(term, Term::F(i) if is_bool[*i]);
        if boolean {
            if lo == hi {
                out.push(Atom::Eq(t, lo));
            }
            continue;
        }
        if lo == hi && lo.abs() < CLAMP {
            out.push(Atom::Eq(t, lo));
            continue;
        }
        if lo > -CLAMP {
            out.push(Atom::Ge(t, lo));
        }
        if hi < CLAMP {
            out.push(Atom::Le(t, hi));
        }
    }
    out
}

fn excludes(atoms: &[Atom], others: &[&Vec<i64>]) -> bool {
    others.iter().all(|v| !atoms.iter().all(|a| a.holds(v)))
}

/// Synthesizes a diagram for the start positions of `d` (its nodes and arrows are ignored).
/// `limit` bounds the number of positions the strategy may meet.
///
/// With `zero_sinks`, only positions in the classes of start positions are followed; the
/// second player's other replies end at `*0` sinks (checked by solving), as the paper's
/// diagrams end at positions known losing by an earlier lemma.
pub fn synthesize(
    d: &Diagram,
    feats: &[Feature],
    limit: usize,
    zero_sinks: bool,
) -> Result<Outcome, String> {
    let (starts, _) = d.start_positions().map_err(|e| e.message)?;
    if starts.is_empty() {
        return Err("no start position is selected: nothing to synthesize".into());
    }
    // Game families whose options do not depend on the instance share one solver.
    let mut universes: Vec<String> = Vec::new();
    let mut games: Vec<AnyGame> = Vec::new();
    let mut start_at: Vec<(usize, AnyPos, String)> = Vec::new();
    for (text, g, p, _) in &starts {
        let u = key(g, p).0;
        let gi = match universes.iter().position(|x| *x == u) {
            Some(i) => i,
            None => {
                universes.push(u);
                games.push(g.clone());
                games.len() - 1
            }
        };
        start_at.push((gi, p.clone(), text.clone()));
    }
    // The solves that decide the starts and the replies are bounded too (issue 28): by the
    // same position limit and by the machine's memory budget.
    let budget = Budget::default_for_machine();
    let monitor = |g: &AnyGame| {
        let mut m = Monitor::new(
            g.to_string(),
            &budget,
            BYTES_PER_POSITION,
            "narrow the parameter ranges or raise --max-positions".into(),
        );
        m.max_positions = m.max_positions.min(limit as u64);
        m
    };
    let mut solvers: Vec<Solver<AnyGame>> = games
        .iter()
        .map(|g| Solver::with_guard(g, monitor(g), Progress::hidden()))
        .collect();
    for (gi, p, text) in &start_at {
        let v = solvers[*gi].try_nim(p).map_err(|r| r.to_string())?;
        if v != 0 {
            return Ok(Outcome::Counterexample(Counterexample {
                instance: text.clone(),
                position: games[*gi].label(p),
                nim: v,
            }));
        }
    }
    let mut ctx = Ctx {
        feats,
        is_bool: vec![None; feats.len()],
        cache: FxHashMap::default(),
    };
    // Abstract keys need to know which features are booleans: evaluate at the starts first.
    for (gi, p, _) in &start_at {
        ctx.values(*gi, &games[*gi], p)?;
    }
    let is_bool: Vec<bool> = ctx.is_bool.iter().map(|b| b.unwrap_or(false)).collect();
    let terms = terms(&is_bool);

    let mut recs: Vec<Rec> = Vec::new();
    let mut index: FxHashMap<(usize, AnyPos), usize> = FxHashMap::default();
    // Fine classes: (player, 0 followed / 1 terminal / 2 left to a `*0` sink, abstract vector).
    let mut class_of_key: BTreeMap<(bool, u8, Vec<i64>), usize> = BTreeMap::new();
    let mut used_reply: BTreeSet<(usize, usize, u8)> = BTreeSet::new();
    let mut stack: Vec<usize> = Vec::new();
    let mut start_recs: Vec<usize> = Vec::new();

    let kind_code = |k: MoveKind| k as u8;
    macro_rules! intern {
        ($gi:expr, $pos:expr, $p:expr) => {{
            let gi = $gi;
            let pos: &AnyPos = $pos;
            if let Some(&i) = index.get(&(gi, pos.clone())) {
                (i, false)
            } else {
                if recs.len() >= limit {
                    return Err(format!(
                        "the strategy meets more than {limit} positions: narrow the parameter ranges or raise --max-positions"
                    ));
                }
                let vals = ctx.values(gi, &games[gi], pos)?;
                let terminal = games[gi].options(pos).is_empty();
                recs.push(Rec {
                    p: $p,
                    vals,
                    terminal,
                    leaf: false,
                    succ: Vec::new(),
                });
                index.insert((gi, pos.clone()), recs.len() - 1);
                (recs.len() - 1, true)
            }
        }};
    }
    let mut rec_game: Vec<(usize, AnyPos)> = Vec::new();
    for (gi, p, _) in &start_at {
        let (i, fresh) = intern!(*gi, p, true);
        if fresh {
            rec_game.push((*gi, p.clone()));
            stack.push(i);
        }
        start_recs.push(i);
    }
    let start_keys: BTreeSet<Vec<i64>> = start_recs
        .iter()
        .map(|&i| abstract_vec(&terms, &recs[i].vals))
        .collect();
    let flag = |r: &Rec| -> u8 {
        if !r.p {
            0
        } else if r.terminal {
            1
        } else if r.leaf {
            2
        } else {
            0
        }
    };
    let class_key = |r: &Rec, terms: &[Term]| (r.p, flag(r), abstract_vec(terms, &r.vals));
    while let Some(i) = stack.pop() {
        let (gi, p) = rec_game[i].clone();
        let game = &games[gi];
        let ck = class_key(&recs[i], &terms);
        let n = class_of_key.len();
        class_of_key.entry(ck).or_insert(n);
        for q in game.options(&p) {
            let kind = move_kind(game, &p, &q);
            let (qi, fresh) = intern!(gi, &q, false);
            recs[i].succ.push((qi, kind));
            if !fresh {
                continue;
            }
            rec_game.push((gi, q.clone()));
            let qk = class_key(&recs[qi], &terms);
            let n = class_of_key.len();
            let qc = *class_of_key.entry(qk).or_insert(n);
            // The winning replies, scored: into a class this class already replies to with
            // the same kind, into a class already used, then any.
            let mut best: Option<(u8, AnyPos, MoveKind, Vec<i64>)> = None;
            for r in game.options(&q) {
                if solvers[gi].try_nim(&r).map_err(|e| e.to_string())? != 0 {
                    continue;
                }
                let rk = move_kind(game, &q, &r);
                let vals = ctx.values(gi, game, &r)?;
                let terminal = game.options(&r).is_empty();
                let av = abstract_vec(&terms, &vals);
                let followed = terminal || !zero_sinks || start_keys.contains(&av);
                let f = match (terminal, followed) {
                    (true, _) => 1,
                    (false, true) => 0,
                    (false, false) => 2,
                };
                let key = (true, f, av);
                let mut score = match class_of_key.get(&key) {
                    Some(&c) if used_reply.contains(&(qc, c, kind_code(rk))) => 0,
                    Some(_) => 1,
                    None => 2,
                };
                if zero_sinks && !start_keys.contains(&key.2) {
                    score += 3;
                }
                if best.as_ref().is_none_or(|b| score < b.0) {
                    best = Some((score, r.clone(), rk, key.2));
                }
            }
            let Some((_, r, rk, _)) = best else {
                return Err(format!(
                    "internal: {} has no option of nim-value 0",
                    game.label(&q)
                ));
            };
            let (ri, rfresh) = intern!(gi, &r, true);
            if rfresh && zero_sinks && !recs[ri].terminal {
                let av = abstract_vec(&terms, &recs[ri].vals);
                recs[ri].leaf = !start_keys.contains(&av);
            }
            recs[qi].succ.push((ri, rk));
            let rkey = class_key(&recs[ri], &terms);
            let n = class_of_key.len();
            let rc = *class_of_key.entry(rkey).or_insert(n);
            used_reply.insert((qc, rc, kind_code(rk)));
            if rfresh {
                rec_game.push((gi, r));
                if !recs[ri].leaf {
                    stack.push(ri);
                }
            }
        }
    }

    // Fine classes and their keys.
    let mut class_keys: Vec<(bool, u8, Vec<i64>)> = vec![Default::default(); class_of_key.len()];
    for (k, &c) in &class_of_key {
        class_keys[c] = k.clone();
    }
    let rec_class: Vec<usize> = recs
        .iter()
        .map(|r| class_of_key[&class_key(r, &terms)])
        .collect();
    let mut reply_kinds: Vec<BTreeSet<u8>> = vec![BTreeSet::new(); class_keys.len()];
    for (i, r) in recs.iter().enumerate() {
        if !r.p {
            for &(_, k) in &r.succ {
                reply_kinds[rec_class[i]].insert(kind_code(k));
            }
        }
    }

    // Greedy merging under separability.
    let mut block_of: Vec<usize> = (0..class_keys.len()).collect();
    let mut blocks: Vec<Vec<usize>> = (0..class_keys.len()).map(|c| vec![c]).collect();
    let keys_of = |b: &[usize]| -> Vec<&Vec<i64>> { b.iter().map(|&c| &class_keys[c].2).collect() };
    loop {
        let live: Vec<usize> = (0..blocks.len())
            .filter(|&b| !blocks[b].is_empty())
            .collect();
        let mut done = None;
        // Each live block's own hull, computed once per round rather than once per pair.
        let block_atoms: FxHashMap<usize, Vec<Atom>> = live
            .iter()
            .map(|&o| (o, hull_atoms(&terms, &is_bool, &keys_of(&blocks[o]))))
            .collect();
        'pairs: for (x, &a) in live.iter().enumerate() {
            for &b in &live[x + 1..] {
                let (ca, cb) = (blocks[a][0], blocks[b][0]);
                if class_keys[ca].0 != class_keys[cb].0 {
                    continue;
                }
                let kinds = |blk: &[usize]| -> BTreeSet<u8> {
                    blk.iter()
                        .flat_map(|&c| reply_kinds[c].iter().copied())
                        .collect()
                };
                if !class_keys[ca].0 && kinds(&blocks[a]) != kinds(&blocks[b]) {
                    continue;
                }
                // Followed positions and `*0` leaves never share a node.
                let flags = |blk: &[usize]| -> BTreeSet<u8> {
                    blk.iter().map(|&c| class_keys[c].1).collect()
                };
                let fl: BTreeSet<u8> = flags(&blocks[a])
                    .union(&flags(&blocks[b]))
                    .copied()
                    .collect();
                if fl.contains(&0) && fl.contains(&2) {
                    continue;
                }
                let merged: Vec<usize> = blocks[a].iter().chain(&blocks[b]).copied().collect();
                let atoms = hull_atoms(&terms, &is_bool, &keys_of(&merged));
                let mut ok = true;
                for &o in &live {
                    if o == a || o == b {
                        continue;
                    }
                    let ok_keys = keys_of(&blocks[o]);
                    if !excludes(&atoms, &ok_keys) || !excludes(&block_atoms[&o], &keys_of(&merged))
                    {
                        ok = false;
                        break;
                    }
                }
                if ok {
                    done = Some((a, b));
                    break 'pairs;
                }
            }
        }
        let Some((a, b)) = done else { break };
        let moved = std::mem::take(&mut blocks[b]);
        for &c in &moved {
            block_of[c] = a;
        }
        blocks[a].extend(moved);
    }
    let live: Vec<usize> = (0..blocks.len())
        .filter(|&b| !blocks[b].is_empty())
        .collect();
    let node_of_block: FxHashMap<usize, usize> =
        live.iter().enumerate().map(|(n, &b)| (b, n)).collect();
    let node_of_rec = |i: usize| node_of_block[&block_of[rec_class[i]]];

    // Predicates: the hull, pruned to the atoms that separate it (differences tried first).
    let mut nodes = Vec::new();
    let (mut np, mut nn) = (0, 0);
    let mut start_no: BTreeMap<usize, u32> = BTreeMap::new();
    for &s in &start_recs {
        let n = node_of_rec(s);
        let next = start_no.len() as u32 + 1;
        start_no.entry(n).or_insert(next);
    }
    let mut counts = vec![0usize; live.len()];
    let mut all_terminal = vec![true; live.len()];
    let mut any_leaf = vec![false; live.len()];
    for (i, r) in recs.iter().enumerate() {
        let n = node_of_rec(i);
        counts[n] += 1;
        all_terminal[n] &= r.p && r.terminal;
        any_leaf[n] |= r.leaf;
    }
    for (n, &b) in live.iter().enumerate() {
        let p = class_keys[blocks[b][0]].0;
        let own = keys_of(&blocks[b]);
        let others: Vec<&Vec<i64>> = live
            .iter()
            .filter(|&&o| o != b)
            .flat_map(|&o| keys_of(&blocks[o]))
            .collect();
        let mut atoms = hull_atoms(&terms, &is_bool, &own);
        let separated = excludes(&atoms, &others);
        if separated {
            for k in (0..atoms.len()).rev() {
                let mut fewer = atoms.clone();
                fewer.remove(k);
                if excludes(&fewer, &others) {
                    atoms = fewer;
                }
            }
        }
        let name = if p {
            np += 1;
            format!("P{np}")
        } else {
            nn += 1;
            format!("N{nn}")
        };
        nodes.push(SynthNode {
            name,
            when: render_atoms(&atoms, &terms, feats, &is_bool),
            p_node: p,
            start: start_no.get(&n).copied(),
            sink: if all_terminal[n] {
                Some("terminal")
            } else if any_leaf[n] {
                Some("*0")
            } else {
                None
            },
            positions: counts[n],
            separated,
        });
    }
    // Arrows: one per (from, to, kind) the strategy uses.
    let mut arrows_set: BTreeSet<(usize, usize, bool, u8)> = BTreeSet::new();
    let mut kind_by_code: BTreeMap<u8, MoveKind> = BTreeMap::new();
    for (i, r) in recs.iter().enumerate() {
        for &(j, k) in &r.succ {
            kind_by_code.insert(kind_code(k), k);
            arrows_set.insert((node_of_rec(i), node_of_rec(j), !r.p, kind_code(k)));
        }
    }
    let arrows = arrows_set
        .into_iter()
        .map(|(from, to, reply, k)| SynthArrow {
            from,
            to,
            reply,
            kind: kind_by_code[&k],
        })
        .collect();
    Ok(Outcome::Diagram(Synthesized {
        nodes,
        arrows,
        start_positions: start_recs.len(),
        positions: recs.len(),
        classes: class_keys.len(),
    }))
}

impl Synthesized {
    /// The nodes whose predicate also holds for members of another node.
    pub fn unseparated(&self) -> Vec<&str> {
        self.nodes
            .iter()
            .filter(|n| !n.separated)
            .map(|n| n.name.as_str())
            .collect()
    }

    /// What an unseparated diagram does not prove (issue 42 item 7), for its notes and the
    /// command's last line; `None` when every node is separated. Such a diagram is still a
    /// strategy the checker verifies on the positions met, but its predicates do not say which
    /// node a position is at (a P-node's and an N-node's may coincide), so its nodes only
    /// restate who is to move there: it proves nothing past the instances checked.
    pub fn vacuity(&self) -> Option<String> {
        let names = self.unseparated();
        if names.is_empty() {
            return None;
        }
        Some(format!(
            "Not a proof past the instances checked: the predicates of {} of its {} nodes ({}) \
             also hold for members of other nodes, so they restate who is to move on the \
             positions met rather than say why the second player wins.",
            names.len(),
            self.nodes.len(),
            names.join(", ")
        ))
    }

    /// Drops the nodes and arrows the checker's own strategy never exercises (it replies
    /// with the first valid reply arrow, which may differ from the synthesized choice); an
    /// unexercised part proves nothing, and removing it cannot invalidate a play that did not
    /// use it. Returns whether anything was dropped.
    pub fn drop_unexercised(&mut self, node_hit: &[bool], arrow_hit: &[bool]) -> bool {
        if node_hit.iter().chain(arrow_hit).all(|&h| h) {
            return false;
        }
        let keep: Vec<usize> = (0..self.nodes.len()).filter(|&i| node_hit[i]).collect();
        let renum: FxHashMap<usize, usize> =
            keep.iter().enumerate().map(|(n, &o)| (o, n)).collect();
        self.arrows = self
            .arrows
            .iter()
            .zip(arrow_hit)
            .filter(|(a, &h)| h && renum.contains_key(&a.from) && renum.contains_key(&a.to))
            .map(|(a, _)| SynthArrow {
                from: renum[&a.from],
                to: renum[&a.to],
                ..a.clone()
            })
            .collect();
        self.nodes = keep.iter().map(|&i| self.nodes[i].clone()).collect();
        true
    }
}

fn paren(s: &str) -> String {
    if s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        s.to_string()
    } else {
        format!("({s})")
    }
}

fn render_atoms(atoms: &[Atom], terms: &[Term], feats: &[Feature], is_bool: &[bool]) -> String {
    if atoms.is_empty() {
        return "true".into();
    }
    let side = |t: usize, k: i64| -> (String, String) {
        match terms[t] {
            Term::F(i) => (paren(&feats[i].src), k.to_string()),
            Term::D(i, j) => {
                let r = paren(&feats[j].src);
                let rhs = match k {
                    0 => r,
                    k if k > 0 => format!("{r} + {k}"),
                    k => format!("{r} - {}", -k),
                };
                (paren(&feats[i].src), rhs)
            }
        }
    };
    atoms
        .iter()
        .map(|a| match *a {
            Atom::Eq(t, k) => match terms[t] {
                Term::F(i) if is_bool[i] => {
                    if k == 1 {
                        paren(&feats[i].src)
                    } else {
                        format!("!{}", paren(&feats[i].src))
                    }
                }
                _ => {
                    let (l, r) = side(t, k);
                    format!("{l} == {r}")
                }
            },
            Atom::Ge(t, k) => {
                let (l, r) = side(t, k);
                format!("{l} >= {r}")
            }
            Atom::Le(t, k) => {
                let (l, r) = side(t, k);
                format!("{l} <= {r}")
            }
        })
        .collect::<Vec<_>>()
        .join(" && ")
}

fn kind_word(k: MoveKind) -> &'static str {
    match k {
        MoveKind::Any => "any",
        MoveKind::Dehub => "dehub",
        MoveKind::Split => "split",
        MoveKind::Heap => "heap",
    }
}

/// The diagram spec text: the header, the `starts:` block as given, the nodes and arrows.
/// Strings are written as JSON strings, which are YAML double-quoted scalars.
pub fn to_spec_yaml(s: &Synthesized, source: &str, starts_block: &str, features: &str) -> String {
    let q = |t: &str| serde_json::to_string(t).unwrap_or_else(|_| "\"\"".into());
    let mut out = String::new();
    out.push_str("kind: diagram\n");
    out.push_str(&format!("source: {}\n", q(source)));
    let unseparated = s.unseparated();
    out.push_str(&format!(
        "title: {}\n",
        q(&if unseparated.is_empty() {
            format!("Synthesized diagram: {source}")
        } else {
            format!("Synthesized diagram, nodes not separated: {source}")
        })
    ));
    out.push_str(&format!(
        "notes: {}\n",
        q(&format!(
            "Written by grundy synthesize from the features [{features}]: {} nodes, {} arrows, \
             from {} start positions and {} positions met ({} classes before merging).{}",
            s.nodes.len(),
            s.arrows.len(),
            s.start_positions,
            s.positions,
            s.classes,
            s.vacuity().map_or(String::new(), |v| format!(" {v}"))
        ))
    ));
    out.push_str(starts_block.trim_end());
    out.push('\n');
    out.push_str("nodes:\n");
    for n in &s.nodes {
        out.push_str(&format!("  {}:\n", n.name));
        out.push_str(&format!("    label: {}\n", q(&n.when)));
        out.push_str(&format!("    when: {}\n", q(&n.when)));
        if let Some(k) = n.start {
            out.push_str(&format!("    start: {k}\n"));
        }
        if let Some(k) = n.sink {
            out.push_str(&format!("    sink: {}\n", q(k)));
        }
    }
    out.push_str("arrows:\n");
    for a in &s.arrows {
        out.push_str(&format!(
            "  - {{from: {}, to: {}, style: {}, move: {}}}\n",
            s.nodes[a.from].name,
            s.nodes[a.to].name,
            if a.reply { "double" } else { "single" },
            kind_word(a.kind)
        ));
    }
    out
}

/// Extracts the `starts:` block (the key and its indented or listed lines) of a spec's text.
pub fn starts_block(text: &str) -> Option<String> {
    let mut lines = text.lines();
    let mut out = String::new();
    for l in lines.by_ref() {
        if l.trim_end() == "starts:" {
            out.push_str("starts:\n");
            break;
        }
    }
    if out.is_empty() {
        return None;
    }
    for l in lines {
        if l.starts_with(' ') || l.starts_with('-') || l.trim().is_empty() {
            out.push_str(l);
            out.push('\n');
        } else {
            break;
        }
    }
    Some(out)
}
