//! Games and closures defined in specs (`kind: game`, docs/user-games.md, the contract grundy
//! implements independently): the verifier reads every such spec under `--specs` itself into a
//! process-wide registry — move games and graph closures by name, each with its file's sha256
//! and its rules compiled by the verifier's own rhai interpreter — and evaluates the rules
//! there. What it trusts for a user game is the spec file's bytes and this interpreter; the
//! game's options are re-derived from the rule at every position a certificate lists
//! ([`crate::games`]'s `USER` family, [`crate::closures`]' user closures).
//!
//! The interpreter: rhai's core language (no `print`, `debug`, `eval`, imports, time or
//! randomness), the contract's limits (100,000 operations per evaluation, expression depth 64,
//! call depth 32, strings and arrays at most 10,000 long), and the contract's functions, each
//! from its definition here: `bit`, `has`, `count`, `members`, `minus` always; `adj`, `ends`,
//! `incident`, `dist` (and the constants `n`, `m`, `all`) on graphs. Edges are numbered by their
//! pairs [u, v], u < v, in lexicographic order, whatever order the graph lists them in.
//! A rule that fails, exceeds a limit or gives what is not a position is an error naming the
//! spec file and the position: a rejection, never a guess.

use crate::games::Graph;
use crate::spec::SpecFile;
use indexmap::IndexMap;
use rhai::{Dynamic, Engine, EvalAltResult, Scope, AST, INT};
use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

/// Most vertices (or edges) of a graph a user game or closure is played on: positions are
/// 63-bit masks.
pub const MAX_BITS: usize = 63;

/// What a move game's positions are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    Vertices,
    Edges,
    Integers,
}

/// A move game of a spec: `name:` and `options:`.
pub struct UserGame {
    pub name: String,
    pub path: String,
    pub sha256: String,
    pub shape: Shape,
    /// The `start:` expression (graph positions; `None`: `all`).
    pub start: Option<AST>,
    pub options: AST,
    /// `features:` by name, in the spec's order.
    pub features: Vec<(String, AST)>,
    /// `components: true`: the spec declares that a position is the disjoint sum of its
    /// components (docs/user-games.md, "Declared laws"). The verifier splits options by it
    /// only after checking it at the option ([`crate::games::user`]); `symmetric:` it reads
    /// and does not use (every listed position is checked by the rule itself).
    pub components: bool,
    /// `play: misere` (or `misère`): the player who cannot move wins. The verifier solves the
    /// normal-play transform (every terminal position gets one option, a fresh terminal ⊥;
    /// [`crate::games::user`]), whose outcomes are the misère outcomes.
    pub misere: bool,
}

/// A graph closure of a spec: `closure:` and `interval:`.
pub struct UserClosure {
    pub name: &'static str,
    pub path: String,
    pub sha256: &'static str,
    pub interval: AST,
    pub iterated: bool,
}

/// The registry: games and closures by name (an error when the name's spec does not load, or
/// two specs define it), and per game spec id what it defines or why it does not load.
#[derive(Default)]
pub struct Registry {
    games: BTreeMap<String, Result<Arc<UserGame>, String>>,
    closures: BTreeMap<String, Result<&'static UserClosure, String>>,
    pub specs: BTreeMap<String, Result<String, String>>,
}

static REGISTRY: OnceLock<Registry> = OnceLock::new();

fn registry() -> Option<&'static Registry> {
    REGISTRY.get()
}

/// The move game named `name`: `None` when no game spec defines it.
pub fn game(name: &str) -> Option<Result<Arc<UserGame>, String>> {
    registry()?.games.get(name).cloned()
}

/// The user closure named `name`: `None` when no game spec defines it.
pub fn closure(name: &str) -> Option<Result<&'static UserClosure, String>> {
    registry()?.closures.get(name).cloned()
}

thread_local! {
    /// Per game name, the options at which its declared sum law was checked and used, since
    /// [`take_laws`] was last called on this thread (one certificate is checked on one thread).
    static LAWS: std::cell::RefCell<BTreeMap<String, u64>> = Default::default();
}

/// Records that `name`'s declared sum law was checked at one more option and used.
pub fn law_checked(name: &str) {
    LAWS.with(|l| *l.borrow_mut().entry(name.to_string()).or_default() += 1);
}

/// The laws used since the last call, with the number of options each was checked at.
pub fn take_laws() -> BTreeMap<String, u64> {
    LAWS.with(|l| std::mem::take(&mut *l.borrow_mut()))
}

thread_local! {
    /// The games played misère whose rules were built since [`take_misere`] was last called
    /// on this thread (one certificate is checked on one thread), for the verdict line.
    static MISERE: std::cell::RefCell<std::collections::BTreeSet<String>> = Default::default();
}

/// Records that the rules of `name`, a game played misère, were used.
pub fn misere_used(name: &str) {
    MISERE.with(|m| m.borrow_mut().insert(name.to_string()));
}

/// The games played misère used since the last call.
pub fn take_misere() -> std::collections::BTreeSet<String> {
    MISERE.with(|m| std::mem::take(&mut *m.borrow_mut()))
}

/// Every game spec id, with what it defines or why it does not load.
pub fn game_specs() -> &'static BTreeMap<String, Result<String, String>> {
    static EMPTY: BTreeMap<String, Result<String, String>> = BTreeMap::new();
    registry().map_or(&EMPTY, |r| &r.specs)
}

/// The fields of a `kind: game` spec.
#[derive(Deserialize)]
struct GameSpec {
    #[serde(default)]
    kind: String,
    name: Option<String>,
    position: Option<String>,
    start: Option<Value>,
    options: Option<String>,
    #[serde(default)]
    features: Option<IndexMap<String, Value>>,
    closure: Option<String>,
    interval: Option<String>,
    iterated: Option<bool>,
    components: Option<bool>,
    symmetric: Option<bool>,
    play: Option<Value>,
}

/// The heads of the game language grundy's built-in games take (docs/user-games.md), and the
/// verifier's: a user game may take none of them.
const BUILT_IN_HEADS: &[&str] = &[
    "TER", "DNT", "GEN", "DNG", "DC", "SPL", "UEG", "MS", "NIM", "NK", "USER",
];
const BUILT_IN_CLOSURES: &[&str] = &["hull", "geodetic", "monophonic"];

fn is_word(s: &str) -> bool {
    let mut c = s.chars();
    c.next().is_some_and(|x| x.is_ascii_alphabetic())
        && c.all(|x| x.is_ascii_alphanumeric() || x == '_')
}

/// A formula field: text, or a bare number or boolean YAML gave a type to.
fn text(v: &Value) -> Option<String> {
    crate::spec::formula_text(v)
}

enum Defined {
    Game(UserGame),
    Closure(UserClosure),
}

/// Reads one `kind: game` spec (`None`: another kind).
fn read(file: &SpecFile) -> Option<Result<Defined, Failed>> {
    let spec: GameSpec = match serde_saphyr::from_str(&file.text) {
        Ok(s) => s,
        // Another kind the verifier reads leniently, or a spec it cannot read at all: not a
        // game spec's business here.
        Err(e) => {
            return crate::spec::parse(&file.text)
                .ok()
                .filter(|r| r.kind == "game")
                .map(|_| {
                    Err(Failed {
                        names: (None, None),
                        why: format!("{}: the game spec cannot be read: {e}", file.path.display()),
                    })
                })
        }
    };
    if spec.kind != "game" {
        return None;
    }
    let names = (spec.name.clone(), spec.closure.clone());
    Some(read_game(spec, file).map_err(|e| {
        let e = format!("{}: {e}", file.path.display());
        Failed { names, why: e }
    }))
}

/// A game spec that does not load, with the names it gives (certificates naming them are
/// refused with its error).
struct Failed {
    names: (Option<String>, Option<String>),
    why: String,
}

fn read_game(spec: GameSpec, file: &SpecFile) -> Result<Defined, String> {
    let engine = engine(None);
    let compile = |what: &str, src: &str| {
        engine
            .compile(src)
            .map_err(|e| format!("`{what}` does not compile: {e}"))
    };
    // `normal` (the default) or `misere`; a closure's games are played normal.
    let misere = match spec.play.as_ref().map(|v| v.as_str()) {
        None => false,
        Some(Some("normal")) => false,
        Some(Some("misere" | "misère")) => true,
        Some(_) => return Err("`play:` is `normal` or `misere`".into()),
    };
    if spec.play.is_some() && spec.closure.is_some() {
        return Err("a closure has no `play:` (its games are played normal)".into());
    }
    match (&spec.name, &spec.options, &spec.closure, &spec.interval) {
        (Some(name), Some(options), None, None) => {
            if !is_word(name) || BUILT_IN_HEADS.contains(&name.as_str()) {
                return Err(format!(
                    "`name: {name}` is not a word free for a game (a built-in head, or not [A-Za-z][A-Za-z0-9_]*)"
                ));
            }
            let shape = match spec.position.as_deref() {
                Some("vertices") => Shape::Vertices,
                Some("edges") => Shape::Edges,
                Some("integers") => Shape::Integers,
                other => {
                    return Err(format!(
                        "`position: {}` is not vertices, edges or integers",
                        other.unwrap_or("")
                    ))
                }
            };
            let start = match &spec.start {
                None => None,
                Some(_) if shape == Shape::Integers => {
                    return Err("`start:` is for graph positions only (an integers game starts at its tuple)".into())
                }
                Some(v) => {
                    let src = text(v).ok_or("`start:` is not an expression")?;
                    Some(compile("start", &src)?)
                }
            };
            let mut features = Vec::new();
            for (k, v) in spec.features.iter().flatten() {
                let src = text(v).ok_or_else(|| format!("feature `{k}` is not an expression"))?;
                features.push((k.clone(), compile(k, &src)?));
            }
            if spec.iterated.is_some() {
                return Err("`iterated:` belongs to a closure, not a move game".into());
            }
            let components = spec.components.unwrap_or(false);
            if components && misere {
                return Err("`components: true` does not hold under misère play (the outcome of a sum is not its components')".into());
            }
            if shape == Shape::Integers && (components || spec.symmetric.unwrap_or(false)) {
                return Err("`components:` and `symmetric:` are laws of games on graphs, not of integer games".into());
            }
            Ok(Defined::Game(UserGame {
                name: name.clone(),
                path: file.path.display().to_string(),
                sha256: file.sha256.clone(),
                shape,
                start,
                options: compile("options", options)?,
                features,
                components,
                misere,
            }))
        }
        (None, None, Some(name), Some(interval)) => {
            if !is_word(name) || BUILT_IN_CLOSURES.contains(&name.as_str()) {
                return Err(format!(
                    "`closure: {name}` is not a word free for a closure (a built-in closure, or not [A-Za-z][A-Za-z0-9_]*)"
                ));
            }
            if spec.position.is_some()
                || spec.start.is_some()
                || spec.features.is_some()
                || spec.components.is_some()
                || spec.symmetric.is_some()
            {
                return Err("a closure has no `position:`, `start:`, `features:`, `components:` or `symmetric:`".into());
            }
            let iterated = spec
                .iterated
                .ok_or("a closure states `iterated: true` or `iterated: false`")?;
            // Leaked: the registry's closures live for the whole process.
            Ok(Defined::Closure(UserClosure {
                name: Box::leak(name.clone().into_boxed_str()),
                path: file.path.display().to_string(),
                sha256: Box::leak(file.sha256.clone().into_boxed_str()),
                interval: compile("interval", interval)?,
                iterated,
            }))
        }
        _ => Err(
            "a game spec defines either a move game (`name:` and `options:`) or a graph closure (`closure:` and `interval:`)"
                .into(),
        ),
    }
}

/// Reads every `kind: game` spec of the folder into the registry (once per process).
pub fn load(specs: &BTreeMap<String, SpecFile>) {
    let mut r = Registry::default();
    // Which spec defined each name first, for a second definition's error.
    let mut game_by: BTreeMap<String, String> = BTreeMap::new();
    let mut closure_by: BTreeMap<String, String> = BTreeMap::new();
    for (id, file) in specs {
        let Some(read) = read(file) else { continue };
        let what = match read {
            Err(Failed { names, why }) => {
                if let Some(n) = names.0 {
                    r.games.insert(n, Err(why.clone()));
                }
                if let Some(n) = names.1 {
                    r.closures.insert(n, Err(why.clone()));
                }
                Err(why)
            }
            Ok(Defined::Game(g)) => {
                let name = g.name.clone();
                let what = format!(
                    "the move game {name} (positions: {}{})",
                    match g.shape {
                        Shape::Vertices => "vertices",
                        Shape::Edges => "edges",
                        Shape::Integers => "integers",
                    },
                    if g.misere { "; played misère" } else { "" }
                );
                if let Some(other) = game_by.get(&name) {
                    let e = format!("two game specs define the game {name}: {other} and {id}");
                    r.games.insert(name.clone(), Err(e.clone()));
                    r.specs.insert(other.clone(), Err(e.clone()));
                    Err(e)
                } else if let Some(Err(e)) = r.games.get(&name) {
                    Err(format!(
                        "another game spec defining {name} does not load ({e})"
                    ))
                } else {
                    game_by.insert(name.clone(), id.clone());
                    r.games.insert(name, Ok(Arc::new(g)));
                    Ok(what)
                }
            }
            Ok(Defined::Closure(c)) => {
                let name = c.name.to_string();
                let what = format!(
                    "the graph closure {name} ({})",
                    if c.iterated { "iterated" } else { "one step" }
                );
                if let Some(other) = closure_by.get(&name) {
                    let e = format!("two game specs define the closure {name}: {other} and {id}");
                    r.closures.insert(name.clone(), Err(e.clone()));
                    r.specs.insert(other.clone(), Err(e.clone()));
                    Err(e)
                } else if let Some(Err(e)) = r.closures.get(&name) {
                    Err(format!(
                        "another game spec defining the closure {name} does not load ({e})"
                    ))
                } else {
                    closure_by.insert(name.clone(), id.clone());
                    r.closures.insert(name, Ok(Box::leak(Box::new(c))));
                    Ok(what)
                }
            }
        };
        r.specs.insert(id.clone(), what);
    }
    let _ = REGISTRY.set(r);
}

/// A game spec of Node Kayles as a rule, registered for the unit tests (the registry's
/// example of the `USER` family).
#[cfg(test)]
pub const TEST_SPEC: &str = "kind: game\nsource: Node Kayles as a rule (Schaefer 1978)\nname: UNK\nposition: vertices\noptions: |\n  let out = [];\n  for v in members(p) { out.push(minus(p, bit(v) | adj(v))); }\n  out\n";

/// Loads [`TEST_SPEC`] as the process's registry, once (unit tests only).
#[cfg(test)]
pub fn ensure_test_registry() {
    if REGISTRY.get().is_none() {
        let file = SpecFile {
            path: "unk.yaml".into(),
            sha256: crate::spec::sha256_hex(TEST_SPEC.as_bytes()),
            text: TEST_SPEC.into(),
        };
        load(&BTreeMap::from([("unk".to_string(), file)]));
    }
}

/// The graph a rule is evaluated on: the contract's functions' data, computed once.
pub struct GraphData {
    pub n: usize,
    /// Edges as pairs u < v, in lexicographic order (edge i is `ends[i]`).
    pub ends: Vec<(usize, usize)>,
    pub adj: Vec<u64>,
    /// The edges at each vertex; `None` when an edge past bit 62 is at it.
    pub incident: Vec<Option<u64>>,
    /// Breadth-first distances, -1 when there is no path.
    pub dist: Vec<Vec<INT>>,
}

impl GraphData {
    pub fn new(g: &Graph) -> Result<GraphData, String> {
        g.validate()?;
        if g.n > MAX_BITS {
            return Err(format!(
                "a graph of {} vertices: a game or closure written as a rule has at most {MAX_BITS}",
                g.n
            ));
        }
        let mut ends: Vec<(usize, usize)> =
            g.edges.iter().map(|&(a, b)| (a.min(b), a.max(b))).collect();
        ends.sort_unstable();
        let mut adj = vec![0u64; g.n];
        let mut incident = vec![Some(0u64); g.n];
        for (i, &(a, b)) in ends.iter().enumerate() {
            adj[a] |= 1 << b;
            adj[b] |= 1 << a;
            for x in [a, b] {
                incident[x] = incident[x].filter(|_| i < MAX_BITS).map(|s| s | 1 << i);
            }
        }
        let dist = (0..g.n)
            .map(|s| {
                g.distances(s)
                    .into_iter()
                    .map(|d| d.map_or(-1, |d| d as INT))
                    .collect()
            })
            .collect();
        Ok(GraphData {
            n: g.n,
            ends,
            adj,
            incident,
            dist,
        })
    }

    pub fn m(&self) -> usize {
        self.ends.len()
    }

    fn vertex(&self, v: INT) -> Result<usize, Box<EvalAltResult>> {
        usize::try_from(v)
            .ok()
            .filter(|&v| v < self.n)
            .ok_or_else(|| format!("{v} is not a vertex of the graph (0..{})", self.n).into())
    }
}

/// The mask of the low `k` bits (k ≤ 63).
pub fn low_bits(k: usize) -> u64 {
    (1u64 << k) - 1
}

/// The shared packages of rhai's core language (without time), built once.
fn packages() -> &'static [rhai::Shared<rhai::Module>] {
    use rhai::packages::*;
    static P: OnceLock<Vec<rhai::Shared<rhai::Module>>> = OnceLock::new();
    P.get_or_init(|| {
        vec![
            CorePackage::new().as_shared_module(),
            LogicPackage::new().as_shared_module(),
            BitFieldPackage::new().as_shared_module(),
            BasicMathPackage::new().as_shared_module(),
            BasicArrayPackage::new().as_shared_module(),
            BasicMapPackage::new().as_shared_module(),
            MoreStringPackage::new().as_shared_module(),
        ]
    })
}

fn bit_index(i: INT, top: INT) -> Result<u32, Box<EvalAltResult>> {
    if (0..top).contains(&i) {
        Ok(i as u32)
    } else {
        Err(format!("bit {i} is outside 0..{top}").into())
    }
}

/// An interpreter with the contract's functions and limits; with a graph, its functions too.
pub fn engine(graph: Option<Arc<GraphData>>) -> Engine {
    let mut e = Engine::new_raw();
    for p in packages() {
        e.register_global_module(p.clone());
    }
    for s in ["print", "debug", "eval", "import", "export"] {
        e.disable_symbol(s);
    }
    e.set_optimization_level(rhai::OptimizationLevel::None);
    e.set_max_operations(100_000);
    e.set_max_expr_depths(64, 32);
    e.set_max_call_levels(32);
    e.set_max_string_size(10_000);
    e.set_max_array_size(10_000);
    e.set_max_map_size(10_000);
    e.register_fn("bit", |i: INT| -> Result<INT, Box<EvalAltResult>> {
        Ok(1 << bit_index(i, MAX_BITS as INT)?)
    });
    e.register_fn(
        "has",
        |s: INT, i: INT| -> Result<bool, Box<EvalAltResult>> {
            Ok((s as u64) >> bit_index(i, 64)? & 1 == 1)
        },
    );
    e.register_fn("count", |s: INT| (s as u64).count_ones() as INT);
    e.register_fn("members", |s: INT| -> rhai::Array {
        (0..64)
            .filter(|&i| (s as u64) >> i & 1 == 1)
            .map(|i| Dynamic::from(i as INT))
            .collect()
    });
    e.register_fn("minus", |s: INT, t: INT| s & !t);
    if let Some(g) = graph {
        let d = g.clone();
        e.register_fn("adj", move |v: INT| -> Result<INT, Box<EvalAltResult>> {
            Ok(d.adj[d.vertex(v)?] as INT)
        });
        let d = g.clone();
        e.register_fn(
            "ends",
            move |i: INT| -> Result<rhai::Array, Box<EvalAltResult>> {
                let (a, b) = usize::try_from(i)
                    .ok()
                    .and_then(|i| d.ends.get(i))
                    .ok_or_else(|| format!("{i} is not an edge of the graph (0..{})", d.m()))?;
                Ok(vec![Dynamic::from(*a as INT), Dynamic::from(*b as INT)])
            },
        );
        let d = g.clone();
        e.register_fn(
            "incident",
            move |v: INT| -> Result<INT, Box<EvalAltResult>> {
                d.incident[d.vertex(v)?].map(|s| s as INT).ok_or_else(|| {
                    format!("an edge at vertex {v} is past bit {}", MAX_BITS - 1).into()
                })
            },
        );
        let d = g;
        e.register_fn(
            "dist",
            move |u: INT, v: INT| -> Result<INT, Box<EvalAltResult>> {
                Ok(d.dist[d.vertex(u)?][d.vertex(v)?])
            },
        );
    }
    e
}

/// The scope a graph rule runs in: `n`, `m`, `all` (the mask `all`: every vertex, or every
/// edge).
pub fn graph_scope(g: &GraphData, all: u64) -> Scope<'static> {
    let mut s = Scope::new();
    s.push_constant("n", g.n as INT);
    s.push_constant("m", g.m() as INT);
    s.push_constant("all", all as INT);
    s
}

/// Runs a compiled rule.
pub fn run(engine: &Engine, scope: &mut Scope, ast: &AST) -> Result<Dynamic, String> {
    engine
        .eval_ast_with_scope::<Dynamic>(scope, ast)
        .map_err(|e| e.to_string())
}

/// A set of bits within `all` (a mask), from a rule's value.
pub fn mask(d: &Dynamic, all: u64) -> Result<u64, String> {
    let i = d
        .as_int()
        .map_err(|t| format!("`{d}` (a {t}) is not a set of bits (an integer)"))?;
    if i < 0 || (i as u64) & !all != 0 {
        return Err(format!("{i} has a bit outside `all` ({all})"));
    }
    Ok(i as u64)
}

/// The numbers of an integers position, from a rule's value.
pub fn numbers(d: &Dynamic) -> Result<Vec<u32>, String> {
    let a = d
        .as_array_ref()
        .map_err(|t| format!("`{d}` (a {t}) is not an array of integers"))?;
    a.iter()
        .map(|x| {
            let i = x
                .as_int()
                .map_err(|t| format!("`{x}` (a {t}) in `{d}` is not an integer"))?;
            u32::try_from(i).map_err(|_| {
                format!("{i} in `{d}` is not an integer in 0..=4294967295 (negative or too large)")
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(g: Option<&Graph>, src: &str) -> Result<Dynamic, String> {
        let data = g.map(|g| Arc::new(GraphData::new(g).unwrap()));
        let e = engine(data.clone());
        let ast = e.compile(src).map_err(|e| e.to_string())?;
        let mut scope = match &data {
            Some(d) => graph_scope(d, low_bits(d.n)),
            None => Scope::new(),
        };
        run(&e, &mut scope, &ast)
    }

    #[test]
    fn the_contract_functions_from_their_definitions() {
        // Edges listed out of order are numbered by their pairs: [0,1] = 0, [0,3] = 1,
        // [1,2] = 2, [2,3] = 3.
        let c4 = Graph {
            n: 4,
            edges: vec![(3, 2), (1, 2), (0, 3), (1, 0)],
        };
        let int = |s: &str| eval(Some(&c4), s).unwrap().as_int().unwrap();
        assert_eq!(int("adj(0)"), 0b1010);
        assert_eq!(int("let e = ends(1); e[0] * 10 + e[1]"), 3);
        assert_eq!(int("incident(2)"), 0b1100);
        assert_eq!(int("dist(0, 2)"), 2);
        assert_eq!(int("n * 100 + m * 10 + count(all)"), 444);
        assert_eq!(int("minus(all, bit(1) | bit(2))"), 0b1001);
        assert_eq!(int("members(10).len()"), 2);
        assert!(eval(Some(&c4), "has(5, 2)").unwrap().as_bool().unwrap());
        let p2 = Graph {
            n: 3,
            edges: vec![(0, 1)],
        };
        assert_eq!(eval(Some(&p2), "dist(0, 2)").unwrap().as_int().unwrap(), -1);
        // Errors, never panics: out of range, out of budget, outside the language.
        assert!(eval(Some(&c4), "adj(4)")
            .unwrap_err()
            .contains("not a vertex"));
        assert!(eval(Some(&c4), "ends(4)")
            .unwrap_err()
            .contains("not an edge"));
        assert!(eval(None, "bit(63)").is_err());
        assert!(eval(None, "adj(0)").is_err());
        assert!(eval(None, "loop {}").is_err());
        assert!(eval(None, "print(1)").is_err());
        assert!(eval(None, "eval(\"1\")").is_err());
        assert!(eval(None, "timestamp()").is_err());
        assert!(eval(None, "let a = []; for i in 0..20000 { a.push(i); } a").is_err());
        assert!(mask(&Dynamic::from(16 as INT), 15).is_err());
        assert!(mask(&Dynamic::from(-1 as INT), 15).is_err());
        assert!(numbers(&Dynamic::from_array(vec![Dynamic::from(-1 as INT)])).is_err());
        assert_eq!(
            numbers(&Dynamic::from_array(vec![Dynamic::from(3 as INT)])),
            Ok(vec![3])
        );
    }
}
