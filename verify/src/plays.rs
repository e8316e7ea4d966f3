//! A `certificate` spec's play (seed 002, Thms 14–16), walked by the verifier at one instance
//! to re-derive where it fails (issue 43, refutations): the token starts at the spec's
//! `token`; each `move` and `reply` deletes the edge it travels (undirected edge geography);
//! the replies listed must be exactly the opponent's legal moves; each `kernel` (listed
//! vertices, a family over an index range, or a predicate on (i, j)) must be an even kernel
//! of the remaining graph containing the token: a nonempty independent set in which every
//! outside vertex has an even number of neighbours (seed 002's definition). Vertices are
//! (a, b) of a stacked prism SP_{M,n}, numbered (b−1)·M + (a−1).

use crate::derive::{Inst, Stop};
use crate::formula::{Env, Evaluator, Val};
use crate::games::Graph;
use serde_json::Value;
use std::collections::BTreeSet;

type Edges = BTreeSet<(usize, usize)>;

struct Board {
    m: i64,
    n: i64,
    name: String,
    edges: Edges,
}

impl Board {
    fn index(&self, (a, b): (i64, i64)) -> Option<usize> {
        ((1..=self.m).contains(&a) && (1..=self.n).contains(&b))
            .then(|| ((b - 1) * self.m + (a - 1)) as usize)
    }
    /// Vertex number v as (a, b).
    fn name(&self, v: usize) -> String {
        let v = v as i64;
        show((v % self.m + 1, v / self.m + 1))
    }
    fn edge(a: usize, b: usize) -> (usize, usize) {
        (a.min(b), a.max(b))
    }
    fn neighbours(&self, v: usize) -> BTreeSet<usize> {
        self.edges
            .iter()
            .filter_map(|&(a, b)| match (a == v, b == v) {
                (true, _) => Some(b),
                (_, true) => Some(a),
                _ => None,
            })
            .collect()
    }
}

/// `(e1,e2)` with formulas for both coordinates, evaluated in `env`.
fn coords(e: &Evaluator, env: &Env, t: &str) -> Result<(i64, i64), Stop> {
    let inner = t
        .trim()
        .strip_prefix('(')
        .and_then(|r| r.strip_suffix(')'))
        .ok_or_else(|| Stop::Not(format!("vertex `{t}` is not (a,b)")))?;
    let parts = crate::names::split_top(inner, ",");
    let [a, b] = parts[..] else {
        return Err(Stop::Not(format!("vertex `{t}` is not (a,b)")));
    };
    Ok((env.eval_int(e, a)?, env.eval_int(e, b)?))
}

fn show((a, b): (i64, i64)) -> String {
    format!("({a},{b})")
}

/// The first failure of the spec's play at `inst` (its parameters and `let`s in `inst.env`),
/// or `None` when every move, reply and kernel holds.
pub fn first_failure(
    e: &Evaluator,
    raw: &crate::spec::Raw,
    inst: &Inst,
) -> Result<Option<String>, Stop> {
    let template = raw
        .graph
        .as_deref()
        .ok_or_else(|| Stop::Not("no `graph`".into()))?;
    let name = crate::names::substitute(template, &inst.names);
    let (m, n) = crate::names::prism_size(&name)
        .ok_or_else(|| Stop::Not(format!("plays are read on stacked prisms, not {name}")))?;
    let g: Graph = crate::names::parse_graph(&name).map_err(Stop::Not)?;
    let mut board = Board {
        m,
        n,
        name: name.clone(),
        edges: g.edges.iter().map(|&(a, b)| Board::edge(a, b)).collect(),
    };
    let token = raw
        .token
        .as_deref()
        .ok_or_else(|| Stop::Not("a play without one `token`".into()))?;
    let t = coords(e, &inst.env, token)?;
    let token = board
        .index(t)
        .ok_or_else(|| Stop::Reject(format!("the token {} is not a vertex of {name}", show(t))))?;
    let play = raw
        .play
        .as_ref()
        .ok_or_else(|| Stop::Not("no `play`".into()))?;
    walk(e, &inst.env, play, &mut board, token)
}

fn walk(
    e: &Evaluator,
    env: &Env,
    node: &Value,
    board: &mut Board,
    token: usize,
) -> Result<Option<String>, Stop> {
    let mut token = token;
    let mut moved = None;
    if let Some(mv) = node.get("move").and_then(Value::as_str) {
        let to = coords(e, env, mv)?;
        let Some(v) = board.index(to) else {
            return Ok(Some(format!(
                "the play moves to {}, which is not a vertex of {}",
                show(to),
                board.name
            )));
        };
        if !board.edges.remove(&Board::edge(token, v)) {
            return Ok(Some(format!(
                "the move to {} travels no edge of the remaining graph",
                show(to)
            )));
        }
        moved = Some((token, v));
        token = v;
    }
    let result = if let Some(k) = node.get("kernel") {
        kernel(e, env, k, board, token)?
    } else if let Some(rs) = node.get("replies").and_then(Value::as_array) {
        replies(e, env, rs, board, token)?
    } else {
        return Err(Stop::Not(
            "a play node with neither `kernel` nor `replies`".into(),
        ));
    };
    if let Some((a, b)) = moved {
        board.edges.insert(Board::edge(a, b));
    }
    Ok(result)
}

fn replies(
    e: &Evaluator,
    env: &Env,
    rs: &[Value],
    board: &mut Board,
    token: usize,
) -> Result<Option<String>, Stop> {
    let legal = board.neighbours(token);
    let mut listed = BTreeSet::new();
    for r in rs {
        let t = r
            .get("reply")
            .and_then(Value::as_str)
            .ok_or_else(|| Stop::Not("a reply without `reply`".into()))?;
        let to = coords(e, env, t)?;
        let Some(v) = board.index(to).filter(|v| legal.contains(v)) else {
            return Ok(Some(format!(
                "the reply to {} is not a legal move",
                show(to)
            )));
        };
        listed.insert(v);
        board.edges.remove(&Board::edge(token, v));
        let sub = walk(e, env, r, board, v)?;
        board.edges.insert(Board::edge(token, v));
        if sub.is_some() {
            return Ok(sub);
        }
    }
    Ok(legal
        .difference(&listed)
        .next()
        .map(|&v| format!("the opponent's move to {} is not answered", board.name(v))))
}

fn kernel(
    e: &Evaluator,
    env: &Env,
    k: &Value,
    board: &Board,
    token: usize,
) -> Result<Option<String>, Stop> {
    let mut set = BTreeSet::new();
    if let Some(pred) = k.as_str() {
        for b in 1..=board.n {
            for a in 1..=board.m {
                let mut env = env.clone();
                env.set("i", Val::Int(a));
                env.set("j", Val::Int(b));
                if env.eval_bool(e, pred)? {
                    set.extend(board.index((a, b)));
                }
            }
        }
    } else {
        let mut named = Vec::new();
        for v in k
            .get("vertices")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            named.push(coords(e, env, v.as_str().unwrap_or_default())?);
        }
        if let Some(f) = k.get("family") {
            let index = f.get("index").and_then(Value::as_str).unwrap_or("i");
            let range = f
                .get("range")
                .and_then(Value::as_str)
                .ok_or_else(|| Stop::Not("a kernel family without `range`".into()))?;
            let (from, to) = range
                .split_once("..<")
                .ok_or_else(|| Stop::Not(format!("range `{range}` is not a..<b")))?;
            let (from, to) = (env.eval_int(e, from)?, env.eval_int(e, to)?);
            let mut env = env.clone();
            for i in from..to {
                env.set(index, Val::Int(i));
                for v in f
                    .get("vertices")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                {
                    named.push(coords(e, &env, v.as_str().unwrap_or_default())?);
                }
            }
        }
        for p in named {
            match board.index(p) {
                Some(v) => {
                    set.insert(v);
                }
                None => {
                    return Ok(Some(format!(
                        "the kernel names {}, which is not a vertex of {}",
                        show(p),
                        board.name
                    )))
                }
            }
        }
    }
    if !set.contains(&token) {
        return Ok(Some(format!(
            "the kernel does not contain the token {}",
            board.name(token)
        )));
    }
    for &(a, b) in &board.edges {
        if set.contains(&a) && set.contains(&b) {
            return Ok(Some(format!(
                "the kernel's vertices {} and {} are adjacent",
                board.name(a),
                board.name(b)
            )));
        }
    }
    let vertices = (board.m * board.n) as usize;
    for v in (0..vertices).filter(|v| !set.contains(v)) {
        let inside = board.neighbours(v).intersection(&set).count();
        if inside % 2 == 1 {
            return Ok(Some(format!(
                "{} is outside the kernel with {inside} neighbours in it (odd)",
                board.name(v)
            )));
        }
    }
    Ok(None)
}
