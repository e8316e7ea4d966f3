//! Games and graph closures defined in specs, not in Rust (issue 45; the format is fixed by
//! docs/user-games.md). This module owns the rule language: the rhai engine with the
//! contract's limits and functions (`bit`, `has`, `count`, `members`, `minus`, `adj`, `ends`,
//! `incident`, `dist`, the constants `n`, `m`, `all`), rule compilation (once per spec, an
//! AST), one evaluation with its errors in words, and the registry that keeps a spec's
//! definitions unique by name. [`moves`] turns a move game into a game family, [`closure`] a
//! closure into a [`crate::graph::closures::GraphClosure`] ([`misere`] wraps a move game played
//! misère in its normal-play transform); `crate::kinds::game` reads the spec and calls
//! [`register_game`] / [`register_closure`].

pub mod closure;
pub mod laws;
pub mod misere;
pub mod moves;

use crate::graph::Graph;
use rhai::{Array, Dynamic, Engine, EvalAltResult, Scope, AST, INT};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// Operations one evaluation of a rule may take.
pub const MAX_OPERATIONS: u64 = 100_000;
/// Longest array or string a rule may build.
pub const MAX_COLLECTION: usize = 10_000;

/// What a position of a move game is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PositionKind {
    Vertices,
    Edges,
    Integers,
}

impl PositionKind {
    pub fn parse(s: &str) -> Option<PositionKind> {
        match s {
            "vertices" => Some(PositionKind::Vertices),
            "edges" => Some(PositionKind::Edges),
            "integers" => Some(PositionKind::Integers),
            _ => None,
        }
    }
    pub fn word(self) -> &'static str {
        match self {
            PositionKind::Vertices => "vertices",
            PositionKind::Edges => "edges",
            PositionKind::Integers => "integers",
        }
    }
}

/// A compiled rule: its text (for messages and docs) and its AST.
#[derive(Clone)]
pub struct Rule {
    pub text: String,
    pub ast: Arc<AST>,
}

impl std::fmt::Debug for Rule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}

/// A move game as its spec defines it.
#[derive(Debug)]
pub struct GameDef {
    pub name: String,
    pub title: String,
    /// The spec file, named in every error.
    pub file: String,
    pub sha256: String,
    pub position: PositionKind,
    pub start: Option<Rule>,
    pub options: Rule,
    pub features: Vec<(String, Rule)>,
    /// `components: true`: the game at a position is the sum of its components' ([`laws`]).
    pub components: bool,
    /// `symmetric: true`: the rule commutes with the graph's automorphisms ([`laws`]).
    pub symmetric: bool,
    /// `play: misere`: the player who cannot move wins ([`misere`]).
    pub misere: bool,
}

/// A graph closure as its spec defines it.
#[derive(Debug)]
pub struct ClosureDef {
    pub name: String,
    pub title: String,
    pub file: String,
    pub sha256: String,
    pub interval: Rule,
    pub iterated: bool,
}

/// Compiles a rule once; the error is rhai's, with its line and column within the rule.
pub fn compile(text: &str) -> Result<Rule, String> {
    base_engine()
        .compile(text)
        .map(|ast| Rule {
            text: text.to_string(),
            ast: Arc::new(ast),
        })
        .map_err(|e| e.to_string())
}

/// The packages a rule sees: rhai's core language, arithmetic, logic, iteration, arrays and
/// bit fields; no strings beyond literals, no time, no randomness.
fn packages() -> &'static [rhai::Shared<rhai::Module>] {
    static P: OnceLock<Vec<rhai::Shared<rhai::Module>>> = OnceLock::new();
    P.get_or_init(|| {
        use rhai::packages::*;
        vec![
            LanguageCorePackage::new().as_shared_module(),
            ArithmeticPackage::new().as_shared_module(),
            LogicPackage::new().as_shared_module(),
            BasicIteratorPackage::new().as_shared_module(),
            BasicArrayPackage::new().as_shared_module(),
            BitFieldPackage::new().as_shared_module(),
            BasicMathPackage::new().as_shared_module(),
        ]
    })
}

/// An engine with the contract's limits and the set functions, without graph functions.
fn new_engine() -> Engine {
    let mut e = Engine::new_raw();
    for m in packages() {
        e.register_global_module(m.clone());
    }
    e.set_max_operations(MAX_OPERATIONS);
    e.set_max_expr_depths(64, 32);
    e.set_max_call_levels(32);
    e.set_max_string_size(MAX_COLLECTION);
    e.set_max_array_size(MAX_COLLECTION);
    e.set_max_map_size(MAX_COLLECTION);
    e.set_module_resolver(rhai::module_resolvers::DummyModuleResolver::new());
    for s in ["eval", "print", "debug", "import", "export"] {
        e.disable_symbol(s);
    }
    e.on_print(|_| {});
    e.on_debug(|_, _, _| {});
    e.set_optimization_level(rhai::OptimizationLevel::Simple);
    type R<T> = Result<T, Box<EvalAltResult>>;
    e.register_fn("bit", |i: INT| -> R<INT> { bit(i) });
    e.register_fn("has", |s: INT, i: INT| -> R<bool> { Ok(s & bit(i)? != 0) });
    e.register_fn("count", |s: INT| -> INT { INT::from(s.count_ones() as u8) });
    e.register_fn("members", |s: INT| -> Array {
        crate::graph::bits(s as u64)
            .map(|i| Dynamic::from_int(i as INT))
            .collect()
    });
    e.register_fn("minus", |s: INT, t: INT| -> INT { s & !t });
    e
}

/// The engine rules are compiled with (and integer games run on).
fn base_engine() -> &'static Engine {
    static E: OnceLock<Engine> = OnceLock::new();
    E.get_or_init(new_engine)
}

fn bit(i: INT) -> Result<INT, Box<EvalAltResult>> {
    if (0..63).contains(&i) {
        Ok(1 << i)
    } else {
        Err(format!("bit({i}): positions hold bits 0 to 62").into())
    }
}

/// What the graph functions of a rule read: one graph, precomputed.
pub struct GraphData {
    pub n: usize,
    pub adj: Vec<u64>,
    /// Edges sorted, u < v: edge i is `ends[i]`.
    pub ends: Vec<(usize, usize)>,
    pub incident: Vec<u64>,
    pub dist: Vec<Vec<INT>>,
}

impl GraphData {
    pub fn new(g: &Graph) -> GraphData {
        let n = g.n();
        let mut ends = g.edges();
        for e in &mut ends {
            if e.0 > e.1 {
                *e = (e.1, e.0);
            }
        }
        ends.sort_unstable();
        let mut incident = vec![0u64; n];
        for (i, &(u, v)) in ends.iter().enumerate() {
            if i < 64 {
                incident[u] |= 1 << i;
                incident[v] |= 1 << i;
            }
        }
        let dist = (0..n)
            .map(|v| {
                g.distances_from(v)
                    .into_iter()
                    .map(|d| if d == u32::MAX { -1 } else { INT::from(d) })
                    .collect()
            })
            .collect();
        GraphData {
            n,
            adj: (0..n).map(|v| g.adj(v)).collect(),
            ends,
            incident,
            dist,
        }
    }
    /// The full vertex mask.
    pub fn all_vertices(&self) -> u64 {
        if self.n >= 64 {
            u64::MAX
        } else {
            (1u64 << self.n) - 1
        }
    }
    /// The full edge mask.
    pub fn all_edges(&self) -> u64 {
        let m = self.ends.len();
        if m >= 64 {
            u64::MAX
        } else {
            (1u64 << m) - 1
        }
    }
}

/// One engine and scope for evaluating a spec's rules on one graph (or on integers).
pub struct Evaluator {
    engine: Engine,
    scope: Scope<'static>,
    base: usize,
}

impl Evaluator {
    /// For rules over `graph` (`all` the vertex or edge mask), or over integers (`None`).
    pub fn new(graph: Option<(Arc<GraphData>, u64)>) -> Evaluator {
        let mut engine = new_engine();
        let mut scope = Scope::new();
        if let Some((g, all)) = graph {
            scope.push_constant("n", g.n as INT);
            scope.push_constant("m", g.ends.len() as INT);
            scope.push_constant("all", all as INT);
            let vertex = {
                let n = g.n;
                move |v: INT| -> Result<usize, Box<EvalAltResult>> {
                    usize::try_from(v).ok().filter(|&v| v < n).ok_or_else(|| {
                        format!("{v} is not a vertex (0 to {})", n as INT - 1).into()
                    })
                }
            };
            let d = g.clone();
            let vx = vertex;
            engine.register_fn("adj", move |v: INT| -> Result<INT, Box<EvalAltResult>> {
                Ok(d.adj[vx(v)?] as INT)
            });
            let d = g.clone();
            engine.register_fn(
                "incident",
                move |v: INT| -> Result<INT, Box<EvalAltResult>> {
                    Ok(d.incident[vertex(v)?] as INT)
                },
            );
            let d = g.clone();
            engine.register_fn(
                "dist",
                move |u: INT, v: INT| -> Result<INT, Box<EvalAltResult>> {
                    Ok(d.dist[vertex(u)?][vertex(v)?])
                },
            );
            let d = g;
            engine.register_fn("ends", move |e: INT| -> Result<Array, Box<EvalAltResult>> {
                let (u, v) = usize::try_from(e)
                    .ok()
                    .and_then(|e| d.ends.get(e))
                    .ok_or_else(|| {
                        format!("{e} is not an edge (0 to {})", d.ends.len() as INT - 1)
                    })?;
                Ok(vec![
                    Dynamic::from_int(*u as INT),
                    Dynamic::from_int(*v as INT),
                ])
            });
        }
        let base = scope.len();
        Evaluator {
            engine,
            scope,
            base,
        }
    }

    /// Evaluates `rule` with the variables `vars` bound; the error in words.
    pub fn eval(
        &mut self,
        rule: &Rule,
        vars: &[(&'static str, Dynamic)],
    ) -> Result<Dynamic, String> {
        self.scope.rewind(self.base);
        for (name, v) in vars {
            self.scope.push(*name, v.clone());
        }
        let r = self
            .engine
            .eval_ast_with_scope::<Dynamic>(&mut self.scope, &rule.ast);
        self.scope.rewind(self.base);
        r.map_err(|e| describe(&e))
    }
}

/// A rule's run-time error in words.
fn describe(e: &EvalAltResult) -> String {
    match e {
        EvalAltResult::ErrorTooManyOperations(_) => {
            format!("the rule ran past {MAX_OPERATIONS} operations (does it loop?)")
        }
        EvalAltResult::ErrorDataTooLarge(..) => format!(
            "the rule built an array or string longer than {MAX_COLLECTION} (does it grow without end?)"
        ),
        EvalAltResult::ErrorStackOverflow(_) => {
            "the rule recursed past the call depth limit".to_string()
        }
        _ => e.to_string(),
    }
}

/// A registered definition: its kind (`game`, `closure`), file and sha256.
type Entry = (&'static str, String, String);

/// The definitions registered so far, by name.
fn registered() -> &'static Mutex<HashMap<String, Entry>> {
    static R: OnceLock<Mutex<HashMap<String, Entry>>> = OnceLock::new();
    R.get_or_init(Default::default)
}

/// Records `name` as defined by `file` (hash `sha`): `Ok(true)` when new, `Ok(false)` when
/// the same spec registered it already, `Err` when another spec did.
fn claim_name(kind: &'static str, name: &str, file: &str, sha: &str) -> Result<bool, String> {
    let mut r = registered().lock().unwrap_or_else(|e| e.into_inner());
    match r.get(name) {
        Some((k, _, s)) if *k == kind && s == sha => Ok(false),
        Some((_, f, _)) => Err(format!(
            "the {kind} `{name}` is defined twice: by {f} and by {file}"
        )),
        None => {
            r.insert(name.to_string(), (kind, file.to_string(), sha.to_string()));
            Ok(true)
        }
    }
}

fn release_name(name: &str) {
    registered()
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .remove(name);
}

/// Registers a move game as a game family (a no-op when the same spec registered it).
pub fn register_game(def: GameDef) -> Result<(), String> {
    if !claim_name("game", &def.name, &def.file, &def.sha256)? {
        return Ok(());
    }
    let name = def.name.clone();
    let family: &'static moves::UserFamily = Box::leak(Box::new(moves::UserFamily::new(def)));
    crate::game::family::register(family).inspect_err(|_| release_name(&name))
}

/// Registers a closure (a no-op when the same spec registered it).
pub fn register_closure(def: ClosureDef) -> Result<(), String> {
    if !claim_name("closure", &def.name, &def.file, &def.sha256)? {
        return Ok(());
    }
    let name = def.name.clone();
    let c: &'static closure::UserClosure = Box::leak(Box::new(closure::UserClosure::new(def)));
    crate::graph::closures::register(c)
        .map(|_| ())
        .inspect_err(|_| release_name(&name))
}

/// Leaks a string: run-time families and closures hand out `&'static str`.
fn leak(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}
