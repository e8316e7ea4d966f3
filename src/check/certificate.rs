//! `kind: certificate` (docs/design.md §5, seed 002): proofs of outcomes of undirected edge
//! geography checked as certificates, instance by instance, without exhaustive search.
//!
//! - An even kernel containing the token proves a P-position (seed 002, Theorem 2). Kernels are
//!   given by a rule (a predicate over the coordinates (i, j) of the vertices, as for Theorems 6
//!   and 7: the symmetric difference construction and the diamonds) or by a list of vertices with
//!   an indexed family (as for the kernels of SP(m,2), Theorems 14–16).
//! - A play tree proves more: at our nodes one listed move, at the opponent's nodes every legal
//!   reply answered (the checker compares the listed replies with the legal moves), each leaf an
//!   even kernel of the remaining graph (used edges deleted) containing the token (Theorem 14
//!   Case 4, Theorem 15, Theorem 16 Case 2). A tree whose root is our move proves an
//!   N-position, one whose root is a kernel or the opponent's replies a P-position.
//! - Tokens: one vertex, or every vertex (a, b) selected by a predicate. With `cover: rotation`
//!   a kernel K certifies every token of a row that K meets: rotating the cylinder is an
//!   automorphism (checked on the instance) and carries K to a kernel through the token (the
//!   argument closing Theorems 6 and 7).
//! - `solver: gf2`: where the fragment's construction is too implicit to encode (the regions of
//!   Theorem 13), the certificate is computed by the GF(2) criterion and still checked as a
//!   certificate (move plus even kernel), so the verdict does not rest on the solver.
//!
//! Kernel checks are polynomial and run on adjacency lists of any size; optional cross-checks
//! compare the certified outcome with the exhaustive solver or the GF(2) criterion on the
//! instances small enough.

use super::formula::{Env, Formula};
use super::{
    at_instance, describe_instance, describe_range, instances, tally, CheckError, Counterexample,
    Expectation, Instance, InstanceResult, Loc, Param, Report,
};
use crate::game::ueg::{check_even_kernel, gf2_verdict, AdjLists, Gf2Verdict, Ueg};
use crate::graph::parse_large_graph;
use rayon::prelude::*;
use rhai::Dynamic;
use rustc_hash::FxHashMap;
use serde::Serialize;
use std::collections::BTreeMap;
use std::time::Instant;

/// A vertex named in a spec: `(e1,e2)` with formulas for both coordinates, or a plain name.
#[derive(Clone, Debug)]
pub enum VertexTemplate {
    Coords(Formula, Formula),
    Name(String),
}

/// An even kernel as the paper gives it.
#[derive(Clone, Debug)]
pub enum KernelRule {
    /// Every vertex (i, j) satisfying the predicate.
    Predicate(Formula),
    /// Listed vertices, plus a family over an index running from `from` to `to` (exclusive).
    List {
        vertices: Vec<VertexTemplate>,
        family: Option<KernelFamily>,
    },
}

#[derive(Clone, Debug)]
pub struct KernelFamily {
    pub index: String,
    pub from: Formula,
    pub to: Formula,
    pub vertices: Vec<VertexTemplate>,
}

/// What follows a move (or the start): a kernel for the opponent to face, or the opponent's
/// replies, every one of them answered.
#[derive(Clone, Debug)]
pub enum After {
    Kernel(KernelRule),
    Replies(Vec<Reply>),
}

/// A node of a play tree: our move (absent at a root where the opponent moves first), then
/// what follows.
#[derive(Clone, Debug)]
pub struct Node {
    pub mv: Option<VertexTemplate>,
    pub after: After,
}

#[derive(Clone, Debug)]
pub struct Reply {
    pub reply: VertexTemplate,
    pub node: Node,
}

/// Which rotations certify tokens not in the kernel itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cover {
    /// The play is checked for every token.
    Each,
    /// A kernel certifies every token in a row it meets (the cylinder's rotations).
    Rotation,
}

#[derive(Clone, Debug)]
pub enum Tokens {
    One(VertexTemplate),
    /// Every vertex (a, b) selected by the predicate.
    Rule(Formula, Cover),
}

/// How the outcome is certified.
#[derive(Clone, Debug)]
pub enum Proof {
    Play(Box<Node>),
    /// The GF(2) criterion finds the certificate; it is checked like a written one.
    Gf2 {
        claimed_p: bool,
    },
    /// The reconstructed construction of Thm 13 ([`crate::game::prism_trail`]) builds a first
    /// move and a kernel for every neighbour it allows; each is checked (N-positions).
    /// `mirror: false` is S as printed (positive cells of [m, 2m] only, without their mirror
    /// images in [0, m]): kept to show that the printed set is not an even kernel.
    Trail {
        mirror: bool,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CrossSolver {
    Exhaustive,
    Gf2,
}

/// Cross-check of the certified outcome on instances with at most `max_vertices` vertices.
#[derive(Clone, Copy, Debug)]
pub struct CrossCheck {
    pub solver: CrossSolver,
    pub max_vertices: usize,
}

/// A validated certificate spec.
#[derive(Clone, Debug)]
pub struct Certificate {
    pub id: String,
    pub file: String,
    pub source: String,
    pub notes: Option<String>,
    pub graph: String,
    pub loc: Loc,
    pub params: Vec<Param>,
    pub lets: Vec<(String, Formula, Loc)>,
    pub filter: Option<Formula>,
    pub tokens: Tokens,
    pub proof: Proof,
    pub cross_check: Option<CrossCheck>,
    pub draw: Option<Formula>,
    /// The paper's figure number the drawn instance illustrates, e.g. "4".
    pub figure: Option<String>,
    /// The figure's caption (LaTeX text), checked for balanced braces.
    pub caption: Option<String>,
    pub expect: Expectation,
}

/// One vertex of a drawn instance. `x, y`: the cylinder unrolled (i across, j down);
/// `rx, ry`: rings (row j on a circle of radius decreasing with j), as the prism is drawn.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct VertexView {
    pub name: String,
    pub i: i64,
    pub j: i64,
    pub kernel: bool,
    pub token: bool,
    pub x: f64,
    pub y: f64,
    pub rx: f64,
    pub ry: f64,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct EdgeView {
    pub a: String,
    pub b: String,
    /// Coordinates of both ends (0 for a vertex without coordinates).
    pub ai: i64,
    pub aj: i64,
    pub bi: i64,
    pub bj: i64,
    /// Deleted by the moves leading to the drawn kernel.
    pub removed: bool,
    /// Joins column M to column 1 (drawn around the cylinder).
    pub wrap: bool,
}

/// The instance a spec asks to draw: its graph, the kernel reached along the first branch
/// of the play, and every parameter value (templates draw constructions such as the
/// diamonds from them).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct CertificateView {
    pub id: String,
    pub spec: String,
    pub source: String,
    pub range: String,
    pub instance: String,
    pub graph: String,
    pub vars: BTreeMap<String, i64>,
    pub columns: i64,
    pub rows: i64,
    pub vertices: Vec<VertexView>,
    pub edges: Vec<EdgeView>,
    /// The token the drawn play starts from, and the moves from it to the drawn kernel (the
    /// vertex of each), as vertex names.
    pub start: String,
    pub moves: Vec<String>,
    /// The spec's caption (LaTeX text), if it gives one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub caption: Option<String>,
    /// With `solver: trail`: the trail and labellings of Thm 13's proof for the drawn token
    /// (seed 002, Figures 4 and 5).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trail: Option<crate::game::prism_trail::TrailDrawing>,
}

/// What a figure draws: the kernel, the used edges and the walk leading to it (the token it
/// starts from, then the vertex of every move).
type Drawn = (Vec<usize>, Vec<(usize, usize)>, Vec<String>);

/// The state of a walk down a play tree: moves so far (names), used edges, and the first
/// kernel met (for the figure).
struct Walk {
    path: Vec<String>,
    used: Vec<(usize, usize)>,
    draw: Option<Drawn>,
    /// Kernel leaves and nonempty kernel families reached (by address, see [`proof_parts`]).
    hits: Vec<usize>,
}

/// Per part of the proof (by address): instances and tokens that reached it.
type PartTally = std::sync::Mutex<FxHashMap<usize, (u64, u64)>>;

fn show_vertex(t: &VertexTemplate) -> String {
    match t {
        VertexTemplate::Name(n) => n.clone(),
        VertexTemplate::Coords(a, b) => format!("({},{})", a.src, b.src),
    }
}

/// The parts of a play tree a certificate must exercise (design.md §8): every kernel leaf
/// and every kernel family (an indexed family that is empty on every instance adds nothing to
/// any kernel checked), with their addresses and where they sit in the tree.
fn proof_parts(node: &Node, path: &mut Vec<String>, out: &mut Vec<(usize, String)>) {
    if let Some(mv) = &node.mv {
        path.push(format!("move {}", show_vertex(mv)));
    }
    match &node.after {
        After::Kernel(rule) => {
            let at = if path.is_empty() {
                "the start".to_string()
            } else {
                path.join(", ")
            };
            out.push((
                rule as *const KernelRule as usize,
                format!("kernel after {at}"),
            ));
            if let KernelRule::List {
                family: Some(f), ..
            } = rule
            {
                out.push((
                    f as *const KernelFamily as usize,
                    format!("kernel family over {} after {at}", f.index),
                ));
            }
        }
        After::Replies(rs) => {
            for r in rs {
                path.push(format!("reply {}", show_vertex(&r.reply)));
                proof_parts(&r.node, path, out);
                path.pop();
            }
        }
    }
    if node.mv.is_some() {
        path.pop();
    }
}

/// Records that a kernel rule was reached, and its family if it names some vertex.
fn record_kernel(rule: &KernelRule, env: &Env, hits: &mut Vec<usize>) {
    hits.push(rule as *const KernelRule as usize);
    if let KernelRule::List {
        family: Some(f), ..
    } = rule
    {
        if let (Ok(a), Ok(b)) = (f.from.eval_int(env), f.to.eval_int(env)) {
            if a < b && !f.vertices.is_empty() {
                hits.push(f as *const KernelFamily as usize);
            }
        }
    }
}

/// A failure of the certificate on one instance.
struct Failure {
    position: String,
    claimed: String,
    computed: String,
}

/// A graph with coordinates and the played moves.
struct Board {
    g: AdjLists,
    coords: Vec<Option<(i64, i64)>>,
    /// Vertex by name, built on the first lookup (predicate rules never look up names).
    index: std::sync::OnceLock<FxHashMap<String, usize>>,
    name: String,
}

impl Board {
    fn vertex(&self, name: &str) -> Option<usize> {
        self.index
            .get_or_init(|| {
                self.g
                    .names
                    .iter()
                    .enumerate()
                    .map(|(v, n)| (n.clone(), v))
                    .collect()
            })
            .get(name)
            .copied()
    }
}

fn parse_coords(name: &str) -> Option<(i64, i64)> {
    let inner = name.strip_prefix('(')?.strip_suffix(')')?;
    let (a, b) = inner.split_once(',')?;
    Some((a.trim().parse().ok()?, b.trim().parse().ok()?))
}

/// Builds the graph of an instance: stacked prisms of any size directly, other graphs by name.
/// `(m, n)` of a stacked prism `SP_{m,n}`.
fn prism_size(text: &str) -> Option<(usize, usize)> {
    text.trim()
        .strip_prefix("SP_{")
        .and_then(|r| r.strip_suffix('}'))
        .and_then(|r| r.split_once(','))
        .and_then(|(a, b)| Some((a.trim().parse::<usize>().ok()?, b.trim().parse().ok()?)))
}

fn build_graph(text: &str) -> Result<Board, String> {
    let t = text.trim();
    let g = match prism_size(t) {
        Some((m, n)) => AdjLists::stacked_prism(m, n).map_err(|e| e.to_string())?,
        None => AdjLists::from_graph(&parse_large_graph(t).map_err(|e| e.to_string())?),
    };
    let coords = match prism_size(t) {
        // Vertex (i,j) of SP_{m,n} is number (j-1)m + (i-1) (`AdjLists::stacked_prism`).
        Some((m, _)) => (0..g.names.len())
            .map(|v| Some(((v % m + 1) as i64, (v / m + 1) as i64)))
            .collect(),
        None => g.names.iter().map(|n| parse_coords(n)).collect(),
    };
    Ok(Board {
        g,
        coords,
        index: std::sync::OnceLock::new(),
        name: t.to_string(),
    })
}

impl Certificate {
    fn err(&self, inst: &Instance, m: impl std::fmt::Display) -> CheckError {
        CheckError {
            loc: self.loc.clone(),
            message: format!("{}{m}", at_instance(inst)),
        }
    }

    /// Parameters and `let` values of an instance; `None` if `where` deselects it.
    fn env(&self, inst: &Instance) -> Result<Option<Env>, CheckError> {
        let mut env = Env::new();
        for (k, v) in inst {
            env.set(k, v.to_dynamic());
        }
        for (name, f, loc) in &self.lets {
            let v = f.eval(&env).map_err(|m| CheckError {
                loc: loc.clone(),
                message: format!("{}{m}", at_instance(inst)),
            })?;
            env.set(name, v);
        }
        if let Some(f) = &self.filter {
            if !f.eval_bool(&env).map_err(|m| self.err(inst, m))? {
                return Ok(None);
            }
        }
        Ok(Some(env))
    }

    fn graph_text(&self, env: &Env) -> String {
        let vals: Vec<(String, String)> = env
            .vars()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        crate::expr::substitute(&self.graph, &vals)
    }

    fn vertex_name(&self, t: &VertexTemplate, env: &Env) -> Result<String, String> {
        match t {
            VertexTemplate::Name(n) => Ok(n.clone()),
            VertexTemplate::Coords(a, b) => {
                Ok(format!("({},{})", a.eval_int(env)?, b.eval_int(env)?))
            }
        }
    }

    /// The kernel of a rule on the current graph; `Err(Ok(f))` is a failure of the
    /// certificate (a vertex that does not exist), `Err(Err(m))` bad input.
    fn kernel(
        &self,
        rule: &KernelRule,
        board: &Board,
        env: &Env,
    ) -> Result<Result<Vec<usize>, String>, String> {
        match rule {
            KernelRule::Predicate(f) => {
                let f = &f.specialise(env);
                // The instance's values are constants of the specialised formula.
                let mut pred = f.predicate(&["i", "j"]);
                let mut out = Vec::new();
                for (v, c) in board.coords.iter().enumerate() {
                    let (i, j) = c.ok_or_else(|| {
                        format!(
                            "vertex {} of {} has no coordinates (i,j) for the kernel rule",
                            board.g.names[v], board.name
                        )
                    })?;
                    if pred.eval(&[i, j])? {
                        out.push(v);
                    }
                }
                Ok(Ok(out))
            }
            KernelRule::List { vertices, family } => {
                let mut names = Vec::new();
                for t in vertices {
                    names.push(self.vertex_name(t, env)?);
                }
                if let Some(fam) = family {
                    let (from, to) = (fam.from.eval_int(env)?, fam.to.eval_int(env)?);
                    let mut e = env.clone();
                    for k in from..to {
                        e.set(&fam.index, Dynamic::from_int(k));
                        for t in &fam.vertices {
                            names.push(self.vertex_name(t, &e)?);
                        }
                    }
                }
                let mut out = Vec::new();
                for n in names {
                    match board.vertex(&n) {
                        Some(v) => out.push(v),
                        None => {
                            return Ok(Err(format!(
                                "the kernel names {n}, which is not a vertex of {}",
                                board.name
                            )))
                        }
                    }
                }
                out.sort_unstable();
                out.dedup();
                Ok(Ok(out))
            }
        }
    }

    /// Checks a play node with the token at `token`, on the graph with the used edges
    /// deleted. `path`: the moves so far. Returns the first failure.
    fn check_node(
        &self,
        node: &Node,
        board: &mut Board,
        token: usize,
        env: &Env,
        walk: &mut Walk,
    ) -> Result<Option<Failure>, String> {
        let fail = |path: &[String], claimed: String, computed: String| Failure {
            position: path.join(" → "),
            claimed,
            computed,
        };
        let mut token = token;
        let mut moved = false;
        if let Some(mv) = &node.mv {
            let name = self.vertex_name(mv, env)?;
            let Some(to) = board.vertex(&name) else {
                return Ok(Some(fail(
                    &walk.path,
                    format!("a move to {name}"),
                    format!("{name} is not a vertex of {}", board.name),
                )));
            };
            if !board.g.remove_edge(token, to) {
                return Ok(Some(fail(
                    &walk.path,
                    format!("a move to {name}"),
                    format!(
                        "{}{name} is not an edge of the remaining graph",
                        board.g.names[token]
                    ),
                )));
            }
            walk.used.push((token, to));
            walk.path.push(name);
            token = to;
            moved = true;
        }
        if let After::Kernel(rule) = &node.after {
            record_kernel(rule, env, &mut walk.hits);
        }
        let result = match &node.after {
            After::Kernel(rule) => match self.kernel(rule, board, env)? {
                Err(why) => Some(fail(&walk.path, "an even kernel".into(), why)),
                Ok(set) => {
                    let r = check_even_kernel(&board.g, &set, Some(token));
                    if walk.draw.is_none() {
                        walk.draw = Some((set.clone(), walk.used.clone(), walk.path.clone()));
                    }
                    r.err().map(|e| {
                        fail(
                            &walk.path,
                            format!("an even kernel containing {}", board.g.names[token]),
                            e.to_string(),
                        )
                    })
                }
            },
            After::Replies(replies) => {
                let legal: Vec<usize> = board.g.adj[token].clone();
                let mut listed = Vec::new();
                let mut failure = None;
                for r in replies {
                    let name = self.vertex_name(&r.reply, env)?;
                    let Some(to) = board.vertex(&name) else {
                        failure = Some(fail(
                            &walk.path,
                            format!("a reply to {name}"),
                            format!("{name} is not a vertex of {}", board.name),
                        ));
                        break;
                    };
                    if !legal.contains(&to) {
                        failure = Some(fail(
                            &walk.path,
                            format!("a reply to {name}"),
                            format!(
                                "{}{name} is not an edge of the remaining graph",
                                board.g.names[token]
                            ),
                        ));
                        break;
                    }
                    listed.push(to);
                    board.g.remove_edge(token, to);
                    walk.used.push((token, to));
                    walk.path.push(name);
                    let sub = self.check_node(&r.node, board, to, env, walk)?;
                    walk.path.pop();
                    walk.used.pop();
                    board.g.add_edge(token, to);
                    if sub.is_some() {
                        failure = sub;
                        break;
                    }
                }
                if failure.is_none() {
                    if let Some(&missing) = legal.iter().find(|u| !listed.contains(u)) {
                        failure = Some(fail(
                            &walk.path,
                            "every reply of the opponent answered".into(),
                            format!(
                                "the reply {}{} is not covered",
                                board.g.names[token], board.g.names[missing]
                            ),
                        ));
                    }
                }
                failure
            }
        };
        if moved {
            let (a, b) = walk.used.pop().expect("the move was recorded");
            board.g.add_edge(a, b);
            walk.path.pop();
        }
        Ok(result)
    }

    /// The spec's play from `token` in the certificates' proof encoding (`grundy-verify`'s
    /// `Proof`: `{"kernel": [..]}`, `{"move": {"to": v, "then": ..}}`, `{"replies": [[v,
    /// ..], ..]}`, vertices by number), on the graph with the used edges deleted; `Err` where
    /// the play fails (the check reports that failure). The verifier checks every kernel and
    /// that the replies are exactly the legal ones, so the tree is evidence, not a claim.
    fn play_proof(
        &self,
        node: &Node,
        board: &mut Board,
        token: usize,
        env: &Env,
    ) -> Result<serde_json::Value, String> {
        use serde_json::json;
        let at = |name: &str, board: &Board| {
            board
                .vertex(name)
                .ok_or_else(|| format!("{name} is not a vertex of {}", board.name))
        };
        let mut token = token;
        let mut moved = None;
        if let Some(mv) = &node.mv {
            let to = at(&self.vertex_name(mv, env)?, board)?;
            if !board.g.remove_edge(token, to) {
                return Err(format!(
                    "{token}–{to} is not an edge of the remaining graph"
                ));
            }
            moved = Some((token, to));
            token = to;
        }
        let after = match &node.after {
            After::Kernel(rule) => match self.kernel(rule, board, env)? {
                Ok(set) => Ok(json!({ "kernel": set })),
                Err(why) => Err(why),
            },
            After::Replies(replies) => {
                let mut out = Vec::new();
                let mut failed = None;
                for r in replies {
                    let to = match at(&self.vertex_name(&r.reply, env)?, board) {
                        Ok(v) => v,
                        Err(e) => {
                            failed = Some(e);
                            break;
                        }
                    };
                    if !board.g.remove_edge(token, to) {
                        failed = Some(format!(
                            "{token}–{to} is not an edge of the remaining graph"
                        ));
                        break;
                    }
                    let sub = self.play_proof(&r.node, board, to, env);
                    board.g.add_edge(token, to);
                    match sub {
                        Ok(p) => out.push(json!([to, p])),
                        Err(e) => {
                            failed = Some(e);
                            break;
                        }
                    }
                }
                match failed {
                    Some(e) => Err(e),
                    None => Ok(json!({ "replies": out })),
                }
            }
        };
        if let Some((a, b)) = moved {
            board.g.add_edge(a, b);
        }
        let after = after?;
        Ok(match moved {
            Some((_, to)) => json!({ "move": { "to": to, "then": after } }),
            None => after,
        })
    }

    /// The tokens of an instance.
    fn tokens(&self, board: &Board, env: &Env) -> Result<Result<Vec<usize>, String>, String> {
        match &self.tokens {
            Tokens::One(t) => {
                let name = self.vertex_name(t, env)?;
                Ok(board
                    .vertex(&name)
                    .map(|v| vec![v])
                    .ok_or_else(|| format!("the token {name} is not a vertex of {}", board.name)))
            }
            Tokens::Rule(f, _) => {
                let f = &f.specialise(env);
                // A predicate that does not mention `a` selects whole rows: one evaluation
                // per row.
                let by_row = !mentions(&f.src, "a");
                let mut row_value: FxHashMap<i64, bool> = FxHashMap::default();
                let mut pred = f.predicate(&["a", "b"]);
                let mut out = Vec::new();
                for (v, c) in board.coords.iter().enumerate() {
                    let (a, b) = c.ok_or_else(|| {
                        format!("vertex {} has no coordinates (a,b)", board.g.names[v])
                    })?;
                    let known = if by_row {
                        row_value.get(&b).copied()
                    } else {
                        None
                    };
                    let selected = match known {
                        Some(x) => x,
                        None => {
                            let x = pred.eval(&[a, b])?;
                            row_value.insert(b, x);
                            x
                        }
                    };
                    if selected {
                        out.push(v);
                    }
                }
                Ok(Ok(out))
            }
        }
    }

    fn claimed_p(&self) -> bool {
        match &self.proof {
            Proof::Play(node) => node.mv.is_none(),
            Proof::Gf2 { claimed_p } => *claimed_p,
            Proof::Trail { .. } => false,
        }
    }

    /// The rotation (i, j) ↦ (i+1, j) as a vertex map, if it is an automorphism.
    fn rotation(board: &Board) -> Result<Vec<usize>, String> {
        let cols = board
            .coords
            .iter()
            .map(|c| c.map_or(0, |c| c.0))
            .max()
            .unwrap_or(0);
        let mut map = Vec::with_capacity(board.coords.len());
        for (v, c) in board.coords.iter().enumerate() {
            let (i, j) = c.ok_or_else(|| {
                format!("vertex {} has no coordinates to rotate", board.g.names[v])
            })?;
            let name = format!("({},{j})", i % cols + 1);
            map.push(
                board
                    .vertex(&name)
                    .ok_or_else(|| format!("rotating {} gives {name}", board.g.names[v]))?,
            );
        }
        for (v, nb) in board.g.adj.iter().enumerate() {
            let mut img: Vec<usize> = nb.iter().map(|&u| map[u]).collect();
            let mut there = board.g.adj[map[v]].clone();
            img.sort_unstable();
            there.sort_unstable();
            if img != there {
                return Err(format!(
                    "the rotation i ↦ i+1 is not an automorphism of {} at {}",
                    board.name, board.g.names[v]
                ));
            }
        }
        Ok(map)
    }

    fn cross_check(
        &self,
        board: &Board,
        graph_text: &str,
        tokens: &[usize],
    ) -> Result<Option<Failure>, String> {
        let Some(cc) = self.cross_check else {
            return Ok(None);
        };
        if board.g.names.len() > cc.max_vertices {
            return Ok(None);
        }
        let claimed_p = self.claimed_p();
        let word = |p: bool| if p { "P" } else { "N" };
        match cc.solver {
            CrossSolver::Gf2 => {
                for &t in tokens {
                    let p = gf2_verdict(&board.g, t).map_err(|e| e.to_string())?.is_p();
                    if p != claimed_p {
                        return Ok(Some(Failure {
                            position: board.g.names[t].clone(),
                            claimed: word(claimed_p).into(),
                            computed: format!("{} (GF(2) criterion)", word(p)),
                        }));
                    }
                }
            }
            CrossSolver::Exhaustive => {
                let g = parse_large_graph(graph_text).map_err(|e| e.to_string())?;
                let game = Ueg::new(g, 0).map_err(|e| e.to_string())?;
                // Refuse with an estimate rather than exhaust memory.
                game.exhaustive_guard(crate::game::ueg::DEFAULT_MAX_POSITIONS)
                    .map_err(|e| e.to_string())?;
                let mut memo = FxHashMap::default();
                for &t in tokens {
                    let p = game.is_p_exhaustive(&game.pos_at(t), &mut memo);
                    if p != claimed_p {
                        return Ok(Some(Failure {
                            position: board.g.names[t].clone(),
                            claimed: word(claimed_p).into(),
                            computed: format!("{} (exhaustive)", word(p)),
                        }));
                    }
                }
            }
        }
        Ok(None)
    }

    fn check_instance(
        &self,
        inst: &Instance,
        want_view: bool,
        tally: &PartTally,
    ) -> Result<(InstanceResult, Option<CertificateView>), CheckError> {
        // Parts of the proof reached on this instance, with the tokens that reached each.
        let mut reached: FxHashMap<usize, u64> = FxHashMap::default();
        let Some(env) = self.env(inst)? else {
            return Ok((InstanceResult::Skipped, None));
        };
        let text = self.graph_text(&env);
        let mut board = build_graph(&text).map_err(|m| self.err(inst, m))?;
        let failed = |t: usize, f: Failure, board: &Board| {
            InstanceResult::Refuted(Counterexample {
                instance: instance_name(inst),
                game: format!("UEG({text}, {})", board.g.names[t]),
                position: (!f.position.is_empty()).then_some(f.position),
                claimed: f.claimed,
                computed: f.computed,
                evidence: vec![],
            })
        };
        let tokens = match self.tokens(&board, &env).map_err(|m| self.err(inst, m))? {
            Ok(t) => t,
            Err(why) => {
                return Ok((
                    InstanceResult::Refuted(Counterexample {
                        instance: instance_name(inst),
                        game: text.clone(),
                        position: None,
                        claimed: "a token vertex".into(),
                        computed: why,
                        evidence: vec![],
                    }),
                    None,
                ))
            }
        };
        if tokens.is_empty() {
            return Ok((InstanceResult::Skipped, None));
        }
        let mut draw = None;
        // The trail construction's (m, n, b) for the drawn token (Figures 4 and 5).
        let mut trail_at = None;
        match &self.proof {
            Proof::Gf2 { claimed_p } => {
                let reps = self.representatives(&board, &tokens, inst)?;
                for &t in &reps {
                    let v = gf2_verdict(&board.g, t).map_err(|e| self.err(inst, e))?;
                    let word = |p: bool| if p { "P" } else { "N" };
                    if v.is_p() != *claimed_p {
                        let f = Failure {
                            position: String::new(),
                            claimed: word(*claimed_p).into(),
                            computed: format!("{} (GF(2) criterion)", word(v.is_p())),
                        };
                        return Ok((failed(t, f, &board), None));
                    }
                    // The solver's certificate is checked like a written one.
                    let checked = match &v {
                        Gf2Verdict::P { kernel } => check_even_kernel(&board.g, kernel, Some(t)),
                        Gf2Verdict::N { to, kernel } => {
                            let mut h = board.g.clone();
                            h.remove_edge(t, *to);
                            check_even_kernel(&h, kernel, Some(*to))
                        }
                    };
                    if let Err(e) = checked {
                        let f = Failure {
                            position: String::new(),
                            claimed: "a valid GF(2) certificate".into(),
                            computed: e.to_string(),
                        };
                        return Ok((failed(t, f, &board), None));
                    }
                    if draw.is_none() {
                        draw = Some(match v {
                            Gf2Verdict::P { kernel } => {
                                (kernel, vec![], vec![board.g.names[t].clone()])
                            }
                            Gf2Verdict::N { to, kernel } => (
                                kernel,
                                vec![(t, to)],
                                vec![board.g.names[t].clone(), board.g.names[to].clone()],
                            ),
                        });
                    }
                }
            }
            Proof::Trail { mirror } => {
                let reps = self.representatives(&board, &tokens, inst)?;
                let cols = board.coords.iter().filter_map(|c| c.map(|c| c.0)).max();
                let rows = board.coords.iter().filter_map(|c| c.map(|c| c.1)).max();
                let (Some(cols), Some(rows)) = (cols, rows) else {
                    return Err(self.err(inst, "the trail construction needs coordinates"));
                };
                if cols % 2 != 0 {
                    return Err(self.err(inst, "the trail construction needs SP(2m,n)"));
                }
                let m = cols / 2;
                for &t in &reps {
                    let (a, b) = board.coords[t].expect("tokens have coordinates");
                    // The construction puts the token in column m; rotate it to column a.
                    let at = |(i, j): (i64, i64)| {
                        let name = format!("({},{j})", (i - 1 + a - m).rem_euclid(cols) + 1);
                        board.vertex(&name).expect("a vertex of SP(2m,n)")
                    };
                    let built = if *mirror {
                        crate::game::prism_trail::thm13_certificate(m, rows, b)
                    } else {
                        crate::game::prism_trail::thm13_certificate_as_printed(m, rows, b)
                    };
                    let cert = match built {
                        Ok(c) => c,
                        Err(why) => {
                            let f = Failure {
                                position: String::new(),
                                claimed: "the construction of Thm 13".into(),
                                computed: why,
                            };
                            return Ok((failed(t, f, &board), None));
                        }
                    };
                    let kernel: Vec<usize> = cert.kernel.iter().map(|&c| at(c)).collect();
                    let moves: Vec<usize> = cert.moves.iter().map(|&c| at(c)).collect();
                    for &u in &moves {
                        board.g.remove_edge(t, u);
                        let checked = check_even_kernel(&board.g, &kernel, Some(u));
                        board.g.add_edge(t, u);
                        if let Err(e) = checked {
                            let f = Failure {
                                position: format!("{} → {}", board.g.names[t], board.g.names[u]),
                                claimed: format!(
                                    "an even kernel of G - {}{} containing {}",
                                    board.g.names[t], board.g.names[u], board.g.names[u]
                                ),
                                computed: e.to_string(),
                            };
                            return Ok((failed(t, f, &board), None));
                        }
                    }
                    if draw.is_none() {
                        let u = moves[0];
                        let walk = vec![board.g.names[t].clone(), board.g.names[u].clone()];
                        draw = Some((kernel, vec![(t, u)], walk));
                        trail_at = Some((m, rows, b));
                    }
                }
            }
            Proof::Play(node) => {
                let cover = match &self.tokens {
                    Tokens::Rule(_, c) => *c,
                    Tokens::One(_) => Cover::Each,
                };
                if cover == Cover::Rotation {
                    // One kernel for the instance; every token's row must meet it.
                    let After::Kernel(rule) = &node.after else {
                        return Err(self.err(inst, "`cover: rotation` needs a kernel"));
                    };
                    let mut hits = Vec::new();
                    record_kernel(rule, &env, &mut hits);
                    for h in hits {
                        reached.insert(h, tokens.len() as u64);
                    }
                    let set = match self
                        .kernel(rule, &board, &env)
                        .map_err(|m| self.err(inst, m))?
                    {
                        Ok(s) => s,
                        Err(why) => {
                            let f = Failure {
                                position: String::new(),
                                claimed: "an even kernel".into(),
                                computed: why,
                            };
                            return Ok((failed(tokens[0], f, &board), None));
                        }
                    };
                    if let Err(e) = check_even_kernel(&board.g, &set, None) {
                        let f = Failure {
                            position: String::new(),
                            claimed: "an even kernel".into(),
                            computed: e.to_string(),
                        };
                        return Ok((failed(tokens[0], f, &board), None));
                    }
                    Self::rotation(&board).map_err(|m| self.err(inst, m))?;
                    let rows: std::collections::HashSet<i64> = set
                        .iter()
                        .filter_map(|&v| board.coords[v].map(|c| c.1))
                        .collect();
                    for &t in &tokens {
                        let b = board.coords[t].map_or(0, |c| c.1);
                        if !rows.contains(&b) {
                            let f = Failure {
                                position: String::new(),
                                claimed: "a rotation of the kernel containing the token".into(),
                                computed: format!("the kernel has no vertex in row {b}"),
                            };
                            return Ok((failed(t, f, &board), None));
                        }
                    }
                    draw = Some((set, vec![], vec![board.g.names[tokens[0]].clone()]));
                } else {
                    for &t in &tokens {
                        let mut e = env.clone();
                        if let Some((a, b)) = board.coords[t] {
                            e.set("a", Dynamic::from_int(a));
                            e.set("b", Dynamic::from_int(b));
                        }
                        let mut walk = Walk {
                            path: vec![board.g.names[t].clone()],
                            used: Vec::new(),
                            draw: None,
                            hits: Vec::new(),
                        };
                        let r = self
                            .check_node(node, &mut board, t, &e, &mut walk)
                            .map_err(|m| self.err(inst, m))?;
                        let d = walk.draw;
                        walk.hits.sort_unstable();
                        walk.hits.dedup();
                        for h in walk.hits {
                            let e = reached.entry(h).or_insert(0);
                            *e += 1;
                        }
                        if let Some(f) = r {
                            return Ok((failed(t, f, &board), None));
                        }
                        if draw.is_none() {
                            draw = d;
                        }
                    }
                }
            }
        }
        if let Some(f) = self
            .cross_check(&board, &text, &tokens)
            .map_err(|m| self.err(inst, m))?
        {
            let t = board.vertex(&f.position).unwrap_or(tokens[0]);
            let f = Failure {
                position: String::new(),
                ..f
            };
            return Ok((failed(t, f, &board), None));
        }
        let view = match (want_view, draw) {
            (true, Some(drawn)) => {
                // The token where the kernel is faced: after the moves, if any.
                let now = drawn
                    .2
                    .last()
                    .and_then(|n| board.vertex(n))
                    .unwrap_or(tokens[0]);
                let mut board = board;
                for &(a, b) in &drawn.1 {
                    board.g.remove_edge(a, b);
                }
                let mut view = self.view(inst, &env, &text, &board, now, &drawn);
                if let Some((m, n, b)) = trail_at {
                    // The construction was checked above; drawing it repeats it.
                    view.trail = crate::game::prism_trail::thm13_drawing(m, n, b).ok();
                }
                Some(view)
            }
            _ => None,
        };
        if let Ok(mut t) = tally.lock() {
            for (h, tokens) in reached {
                let e = t.entry(h).or_insert((0, 0));
                e.0 += 1;
                e.1 += tokens;
            }
        }
        Ok((InstanceResult::Agreed(tokens.len() as u64), view))
    }

    /// With `cover: rotation`, one token per row stands for its row (rotations are checked to
    /// be automorphisms); otherwise every token.
    fn representatives(
        &self,
        board: &Board,
        tokens: &[usize],
        inst: &Instance,
    ) -> Result<Vec<usize>, CheckError> {
        match &self.tokens {
            Tokens::Rule(_, Cover::Rotation) => {
                Self::rotation(board).map_err(|m| self.err(inst, m))?;
                let mut seen = std::collections::HashSet::new();
                Ok(tokens
                    .iter()
                    .copied()
                    .filter(|&t| seen.insert(board.coords[t].map_or(0, |c| c.1)))
                    .collect())
            }
            _ => Ok(tokens.to_vec()),
        }
    }

    fn view(
        &self,
        inst: &Instance,
        env: &Env,
        text: &str,
        board: &Board,
        token: usize,
        (kernel, used, walk): &Drawn,
    ) -> CertificateView {
        let columns = board
            .coords
            .iter()
            .filter_map(|c| c.map(|c| c.0))
            .max()
            .unwrap_or(0);
        let rows = board
            .coords
            .iter()
            .filter_map(|c| c.map(|c| c.1))
            .max()
            .unwrap_or(0);
        let mut inside = vec![false; board.g.names.len()];
        for &v in kernel.iter() {
            inside[v] = true;
        }
        let vertices = board
            .g
            .names
            .iter()
            .enumerate()
            .map(|(v, name)| {
                let (i, j) = board.coords[v].unwrap_or((v as i64 + 1, 1));
                let angle = std::f64::consts::TAU * (i - 1) as f64 / columns.max(1) as f64;
                let radius = 1.0 + (rows - j) as f64;
                VertexView {
                    name: name.clone(),
                    i,
                    j,
                    kernel: inside[v],
                    token: v == token,
                    x: i as f64,
                    y: j as f64,
                    rx: round2(radius * angle.sin()),
                    ry: round2(radius * angle.cos()),
                }
            })
            .collect();
        let mut edges = Vec::new();
        for (a, nb) in board.g.adj.iter().enumerate() {
            for &b in nb.iter().filter(|&&b| b > a) {
                edges.push(edge_view(board, a, b, false));
            }
        }
        for &(a, b) in used.iter() {
            edges.push(edge_view(board, a.min(b), a.max(b), true));
        }
        let vars = env
            .vars()
            .filter_map(|(k, v)| v.as_int().ok().map(|i| (k.to_string(), i)))
            .collect();
        CertificateView {
            id: self.id.clone(),
            spec: self.file.clone(),
            source: self.source.clone(),
            range: describe_range(&self.params),
            instance: describe_instance(inst),
            graph: text.to_string(),
            vars,
            columns,
            rows,
            vertices,
            edges,
            start: walk.first().cloned().unwrap_or_default(),
            moves: walk.get(1..).unwrap_or_default().to_vec(),
            caption: self.caption.clone(),
            trail: None,
        }
    }

    /// Checks every instance (in parallel; the smallest failing instance is reported).
    pub fn check(&self) -> Result<(Report, Option<CertificateView>), CheckError> {
        let t0 = Instant::now();
        let all = instances(&self.params);
        let part_tally = PartTally::default();
        // The spec's folder goes along to the workers (relative `file:` graphs).
        let folder = crate::graph::io::base();
        let results: Vec<Result<(InstanceResult, Option<CertificateView>), CheckError>> = all
            .par_iter()
            .map(|inst| {
                crate::graph::io::with_base(folder.as_deref(), || {
                    let want = match &self.draw {
                        None => false,
                        Some(f) => {
                            let mut env = Env::new();
                            for (k, v) in inst {
                                env.set(k, v.to_dynamic());
                            }
                            f.eval_bool(&env).map_err(|m| self.err(inst, m))?
                        }
                    };
                    self.check_instance(inst, want, &part_tally)
                })
            })
            .collect();
        let mut view = None;
        let outcomes = results.into_iter().map(|r| {
            r.map(|(outcome, v)| {
                if view.is_none() {
                    view = v;
                }
                outcome
            })
        });
        let (checked, positions, verdict) = tally(outcomes, || CheckError {
            loc: self.loc.clone(),
            message: format!(
                "no instance of {} has a token: the certificate would hold vacuously",
                describe_range(&self.params)
            ),
        })?;
        let mut range = describe_range(&self.params);
        if let Some(cc) = self.cross_check {
            range.push_str(&format!(
                "; outcome cross-checked by the {} solver up to {} vertices",
                match cc.solver {
                    CrossSolver::Exhaustive => "exhaustive",
                    CrossSolver::Gf2 => "GF(2)",
                },
                cc.max_vertices
            ));
        }
        Ok((
            Report {
                id: self.id.clone(),
                kind: "certificate".into(),
                source: self.source.clone(),
                file: self.file.clone(),
                instances: checked,
                positions,
                range,
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
            .with_coverage({
                let mut parts = Vec::new();
                if let Proof::Play(node) = &self.proof {
                    proof_parts(node, &mut Vec::new(), &mut parts);
                }
                let t = part_tally.into_inner().unwrap_or_default();
                parts
                    .into_iter()
                    .map(|(addr, part)| {
                        let (instances, positions) = t.get(&addr).copied().unwrap_or((0, 0));
                        super::PartCoverage {
                            part,
                            instances,
                            positions,
                            unreached: None,
                            first: None,
                        }
                    })
                    .collect()
            }),
            view,
        ))
    }
}

/// "m=6, n=8", or "single instance" for a spec without parameters.
fn instance_name(inst: &Instance) -> String {
    if inst.is_empty() {
        "single instance".into()
    } else {
        describe_instance(inst)
    }
}

fn edge_view(board: &Board, a: usize, b: usize, removed: bool) -> EdgeView {
    let (ai, aj) = board.coords[a].unwrap_or((0, 0));
    let (bi, bj) = board.coords[b].unwrap_or((0, 0));
    let wrap = (ai - bi).abs() > 1;
    EdgeView {
        a: board.g.names[a].clone(),
        b: board.g.names[b].clone(),
        ai,
        aj,
        bi,
        bj,
        removed,
        wrap,
    }
}

/// Whether `word` occurs in `src` as a whole identifier.
fn mentions(src: &str, word: &str) -> bool {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    src.match_indices(word).any(|(k, _)| {
        let before = src[..k].chars().next_back();
        let after = src[k + word.len()..].chars().next();
        !before.is_some_and(ident) && !after.is_some_and(ident)
    })
}

fn round2(x: f64) -> f64 {
    let r = (x * 100.0).round() / 100.0;
    if r == 0.0 {
        0.0
    } else {
        r
    }
}

/// One selected instance of a certificate spec, exported for independent certificates
/// (`crate::certify`): its name, graph, tokens and the outcome the spec certifies.
pub struct InstanceBoard {
    pub instance: String,
    /// `None` when the graph has more than the vertices asked for (not built).
    pub graph: Option<AdjLists>,
    pub vertices: usize,
    pub tokens: Vec<usize>,
    pub claimed_p: bool,
    /// For a spec that gives its play: each token's play as a proof tree (see
    /// `Certificate::play_proof`), `None` where the play fails.
    pub plays: Vec<Option<serde_json::Value>>,
}

impl Certificate {
    /// Every selected instance with its tokens (instances the spec's rules reject are left
    /// out: the verdict then is a refutation, which carries no certificate).
    /// Graphs with more than `max_vertices` vertices that are stacked prisms (whose size is
    /// known from their name) are not built: they come with `graph: None` and no tokens.
    pub fn instance_boards(&self, max_vertices: usize) -> Result<Vec<InstanceBoard>, CheckError> {
        let claimed_p = match &self.proof {
            Proof::Gf2 { claimed_p } => *claimed_p,
            Proof::Trail { .. } => false,
            Proof::Play(node) => node.mv.is_none(),
        };
        let mut out = Vec::new();
        for inst in instances(&self.params) {
            let Some(env) = self.env(&inst)? else {
                continue;
            };
            let text = self.graph_text(&env);
            if let Some(n) = prism_size(&text)
                .and_then(|(m, n)| m.checked_mul(n))
                .filter(|&n| n > max_vertices)
            {
                out.push(InstanceBoard {
                    instance: describe_instance(&inst),
                    graph: None,
                    vertices: n,
                    tokens: Vec::new(),
                    claimed_p,
                    plays: Vec::new(),
                });
                continue;
            }
            let mut board = build_graph(&text).map_err(|m| self.err(&inst, m))?;
            let Ok(tokens) = self.tokens(&board, &env).map_err(|m| self.err(&inst, m))? else {
                continue;
            };
            // The plays delete and restore edges, which reorders adjacency lists: they walk a
            // copy, so the certificate's graph is the one built.
            let built = board.g.clone();
            let plays = match &self.proof {
                Proof::Play(node) => tokens
                    .iter()
                    .map(|&t| self.play_proof(node, &mut board, t, &env).ok())
                    .collect(),
                _ => Vec::new(),
            };
            out.push(InstanceBoard {
                instance: describe_instance(&inst),
                vertices: built.names.len(),
                graph: Some(built),
                tokens,
                claimed_p,
                plays,
            });
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `instance_boards` skips large prisms by the size their name gives: SP_{m,n} has m * n
    /// vertices.
    #[test]
    fn prisms_have_the_size_their_name_gives() {
        for (m, n) in [(3, 1), (4, 3), (6, 8), (12, 7), (120, 60)] {
            let text = format!("SP_{{{m},{n}}}");
            assert_eq!(prism_size(&text), Some((m, n)));
            let b = build_graph(&text).unwrap();
            assert_eq!(b.g.names.len(), m * n, "{text}");
            // Coordinates by arithmetic are those the names give.
            for (v, name) in b.g.names.iter().enumerate() {
                assert_eq!(b.coords[v], parse_coords(name), "{text} {name}");
                assert_eq!(b.vertex(name), Some(v));
            }
        }
        assert_eq!(prism_size("C_7"), None);
    }
}
