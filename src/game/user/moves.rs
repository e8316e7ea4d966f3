//! A move game defined in a spec as a game family: `UNK(P_5)` (graph positions, bit masks) or
//! `USUB(7)` (integer tuples). The whole gamegraph reachable from the start is explored when
//! the game is read, each position's rule evaluated once: a rule error, a malformed option, an
//! option equal to its position or a cycle (a position met again while still in progress)
//! is then an error of the game's expression, naming the spec file and the position, and the
//! solvers only look options up.

use super::laws::Laws;
use super::misere::Misere;
use super::{leak, Evaluator, GameDef, GraphData, PositionKind};
use crate::game::family::{Family, FamilyGame, FormDoc, Registered};
use crate::game::features::{FeatureDoc, Features, Value};
use crate::game::Game;
use crate::graph::{Closure, Graph};
use rhai::{Array, Dynamic, INT};
use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Arc, Mutex, OnceLock};

/// Most positions explored for one game before it is refused. A rule costs some 10–20 µs a
/// position (the guide's "Your own game", `grundy bench`), so this bounds the exploration to
/// seconds and its memory to a few hundred MB: past it a game is refused (exit 2), not run
/// for minutes.
pub const MAX_POSITIONS: usize = 1 << 20;

/// A game spec's registration.
pub struct UserFamily {
    def: Arc<GameDef>,
    heads: &'static [&'static str],
    forms: &'static [FormDoc],
    title: &'static str,
    docs: &'static [FeatureDoc],
}

impl UserFamily {
    pub fn new(def: GameDef) -> UserFamily {
        let name = leak(def.name.clone());
        let (syntax, example) = match def.position {
            PositionKind::Integers => (format!("{name}(a, b, …)"), format!("{name}(5)")),
            _ => (format!("{name}(G)"), format!("{name}(P_5)")),
        };
        let meaning = format!("{} (defined in {})", def.title, def.file);
        let forms = Box::leak(Box::new([FormDoc {
            syntax: leak(syntax),
            example: leak(example),
            meaning: leak(meaning),
        }]));
        let docs: Vec<FeatureDoc> = def
            .features
            .iter()
            .map(|(n, r)| FeatureDoc {
                name: leak(n.clone()),
                meaning: leak(format!("`{}` (the spec's rule)", r.text.trim())),
            })
            .collect();
        UserFamily {
            title: leak(def.title.clone()),
            heads: Box::leak(Box::new([name])),
            forms,
            docs: Box::leak(docs.into_boxed_slice()),
            def: Arc::new(def),
        }
    }
}

/// The games read so far, by spec hash and arguments: a table's rows and a certificate read
/// the same instance again without exploring it again.
fn cache() -> &'static Mutex<HashMap<String, Registered>> {
    static C: OnceLock<Mutex<HashMap<String, Registered>>> = OnceLock::new();
    C.get_or_init(Default::default)
}

impl Family for UserFamily {
    fn heads(&self) -> &'static [&'static str] {
        self.heads
    }
    fn forms(&self) -> &'static [FormDoc] {
        self.forms
    }
    fn title(&self) -> &'static str {
        self.title
    }
    fn parse(&self, _head: &str, args: &str, _closure: Closure) -> Result<Registered, String> {
        let key = format!("{}|{}", self.def.sha256, args.trim());
        if let Some(r) = cache().lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
            return Ok(r.clone());
        }
        let r = match self.def.position {
            PositionKind::Integers => {
                let start = args
                    .split(',')
                    .map(|a| a.trim().parse::<u32>().map(INT::from))
                    .collect::<Result<Vec<INT>, _>>()
                    .map_err(|_| {
                        format!(
                            "{}(…) takes non-negative integers separated by commas, not `{}`",
                            self.def.name,
                            args.trim()
                        )
                    })?;
                registered(UserGame::integers(self.def.clone(), start, self.docs)?)
            }
            _ => {
                let graph = crate::graph::parse_graph(args).map_err(|e| e.to_string())?;
                registered(UserGame::on_graph(self.def.clone(), graph, self.docs)?)
            }
        };
        cache()
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(key, r.clone());
        Ok(r)
    }
}

/// A position's type: a mask (graph games) or a tuple (integer games).
pub trait UserPos:
    Clone + Eq + Ord + Hash + std::fmt::Debug + Send + Sync + serde::Serialize + 'static
{
    fn to_dynamic(&self) -> Dynamic;
}
impl UserPos for u64 {
    fn to_dynamic(&self) -> Dynamic {
        Dynamic::from_int(*self as INT)
    }
}
impl UserPos for Vec<INT> {
    fn to_dynamic(&self) -> Dynamic {
        let a: Array = self.iter().map(|&x| Dynamic::from_int(x)).collect();
        Dynamic::from_array(a)
    }
}

/// One instance of a user move game.
pub struct UserGame<P: UserPos> {
    def: Arc<GameDef>,
    graph: Option<Arc<Graph>>,
    data: Option<Arc<GraphData>>,
    start: P,
    /// Every reachable position's options; with declared laws, those of the components up to
    /// symmetry the solver memoises (the rest follow by [`Laws::derive`]).
    options: Arc<FxHashMap<P, Box<[P]>>>,
    /// The declared laws (graph positions only), checked when the game was read.
    laws: Option<Arc<Laws>>,
    /// Parts the laws did not reach from the explored ones, explored when first asked.
    late: Arc<Mutex<FxHashMap<P, Box<[P]>>>>,
    /// For features, evaluated on demand.
    eval: Arc<Mutex<Evaluator>>,
    docs: &'static [FeatureDoc],
}

impl<P: UserPos> std::fmt::Debug for UserGame<P> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The whole structure: the spec's hash, the graph and the start.
        write!(f, "USER[{}]", self.def.sha256)?;
        if let Some(d) = &self.data {
            write!(f, "{:?}", d.adj)?;
        }
        write!(f, "{:?}", self.start)
    }
}

impl UserGame<u64> {
    fn on_graph(
        def: Arc<GameDef>,
        graph: Graph,
        docs: &'static [FeatureDoc],
    ) -> Result<UserGame<u64>, String> {
        let data = Arc::new(GraphData::new(&graph));
        let (all, what) = match def.position {
            PositionKind::Edges => {
                if data.ends.len() > 63 {
                    return Err(format!(
                        "{}({}) has {} edges; edge positions hold at most 63",
                        def.name,
                        graph.name(),
                        data.ends.len()
                    ));
                }
                (data.all_edges(), "edge")
            }
            _ => {
                if data.n > 63 {
                    return Err(format!(
                        "{}({}) has {} vertices; vertex positions hold at most 63",
                        def.name,
                        graph.name(),
                        data.n
                    ));
                }
                (data.all_vertices(), "vertex")
            }
        };
        let mut eval = Evaluator::new(Some((data.clone(), all)));
        let graph = Arc::new(graph);
        let name = format!("{}({})", def.name, graph.name());
        let start = match &def.start {
            None => all,
            Some(r) => {
                let s = eval
                    .eval(r, &[])
                    .map_err(|e| format!("{}: {name}: the rule `start`: {e}", def.file))?;
                read_mask(all, what, s)
                    .map_err(|e| format!("{}: {name}: the rule `start`: {e}", def.file))?
            }
        };
        let read = |x: Dynamic| read_mask(all, what, x);
        let label = |p: &u64| label_mask(&graph, &data, def.position, *p);
        let laws = (def.components || def.symmetric).then(|| {
            let ends = (def.position == PositionKind::Edges).then_some(&data.ends[..]);
            Arc::new(Laws::new(
                &graph,
                ends,
                start,
                def.components,
                def.symmetric,
            ))
        });
        let options = match &laws {
            None => explore(&def, &name, &mut eval, vec![start], &read, &label, &|o| {
                vec![*o]
            })?,
            Some(l) => {
                let seed = seed_of(&def.sha256, &name);
                l.check(
                    start,
                    seed,
                    &mut |p| options_at(&def, &name, &mut eval, &p, &read, &label),
                    &|p| label(&p),
                )
                .map_err(|e| format!("{}: {name}: {e}", def.file))?;
                explore(
                    &def,
                    &name,
                    &mut eval,
                    roots(l, start),
                    &read,
                    &label,
                    &|o| parts(l, *o),
                )?
            }
        };
        Ok(UserGame {
            def,
            graph: Some(graph),
            data: Some(data),
            start,
            options: Arc::new(options),
            laws,
            late: Default::default(),
            eval: Arc::new(Mutex::new(eval)),
            docs,
        })
    }

    /// The options of `p` when it was not explored: by the laws from explored parts, else its
    /// parts explored now (a part the laws do not reach from the explored ones).
    fn options_late(&self, p: u64) -> Vec<u64> {
        let Some(laws) = &self.laws else {
            return Vec::new();
        };
        if let Some(o) = laws.derive(p, &self.options) {
            return o;
        }
        let mut late = self.late.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(o) = laws.derive(p, &late) {
            return o;
        }
        let (Some(graph), Some(data)) = (&self.graph, &self.data) else {
            return Vec::new();
        };
        let (all, what) = match self.def.position {
            PositionKind::Edges => (data.all_edges(), "edge"),
            _ => (data.all_vertices(), "vertex"),
        };
        let name = format!("{}({})", self.def.name, graph.name());
        let read = |x: Dynamic| read_mask(all, what, x);
        let label = |q: &u64| label_mask(graph, data, self.def.position, *q);
        let mut eval = self.eval.lock().unwrap_or_else(|e| e.into_inner());
        let split = laws.components(p);
        let found = explore(
            &self.def,
            &name,
            &mut eval,
            if split.is_empty() { vec![p] } else { split },
            &read,
            &label,
            &|o| parts(laws, *o),
        );
        match found {
            Ok(more) => late.extend(more),
            Err(e) => {
                // Reached only if a declared law fails beyond the positions it was checked
                // at: the game's values cannot be trusted, and no Result reaches here.
                crate::term::errln!("error: {e} (reached through the laws the spec declares)");
                std::process::exit(2);
            }
        }
        laws.derive(p, &late).unwrap_or_default()
    }
}

/// The seed of a game's law checks: its spec's hash and instance, so every run checks the same
/// positions.
fn seed_of(sha256: &str, name: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = rustc_hash::FxHasher::default();
    sha256.hash(&mut h);
    name.hash(&mut h);
    h.finish()
}

/// Where the solver starts: the canonical start, or its components' canonical forms.
fn roots(l: &Laws, start: u64) -> Vec<u64> {
    let c = l.canonical(start);
    match l.components(c) {
        s if s.is_empty() => vec![c],
        s => s.into_iter().map(|q| l.canonical(q)).collect(),
    }
}

/// An option as the solver memoises it: its components' canonical forms, or its own.
fn parts(l: &Laws, o: u64) -> Vec<u64> {
    match l.components(o) {
        s if s.is_empty() => vec![l.canonical(o)],
        s => s.into_iter().map(|q| l.canonical(q)).collect(),
    }
}

/// A rule's value read as a position: an integer mask within `all`.
fn read_mask(all: u64, what: &str, x: Dynamic) -> Result<u64, String> {
    let v = x
        .as_int()
        .map_err(|t| format!("a position is an integer ({what} mask), not {t}"))?;
    if v < 0 || (v as u64) & !all != 0 {
        return Err(format!(
            "{v} is not a position: it holds a bit outside `all` = {all}"
        ));
    }
    Ok(v as u64)
}

impl UserGame<Vec<INT>> {
    fn integers(
        def: Arc<GameDef>,
        start: Vec<INT>,
        docs: &'static [FeatureDoc],
    ) -> Result<UserGame<Vec<INT>>, String> {
        let mut eval = Evaluator::new(None);
        let name = format!("{}{}", def.name, label_tuple(&start));
        let read = |x: Dynamic| -> Result<Vec<INT>, String> {
            let t = x.type_name();
            let a = x
                .into_array()
                .map_err(|_| format!("a position is an array of integers, not {t}"))?;
            a.into_iter()
                .map(|v| {
                    let t = v.type_name();
                    match v.as_int() {
                        Ok(i) if i >= 0 => Ok(i),
                        Ok(i) => Err(format!("a position holds non-negative integers, not {i}")),
                        Err(_) => Err(format!("a position holds integers, not {t}")),
                    }
                })
                .collect()
        };
        let label = |p: &Vec<INT>| label_tuple(p);
        let options = explore(
            &def,
            &name,
            &mut eval,
            vec![start.clone()],
            &read,
            &label,
            &|o| vec![o.clone()],
        )?;
        Ok(UserGame {
            def,
            graph: None,
            data: None,
            start,
            options: Arc::new(options),
            laws: None,
            late: Default::default(),
            eval: Arc::new(Mutex::new(eval)),
            docs,
        })
    }
}

fn label_tuple(p: &[INT]) -> String {
    let parts: Vec<String> = p.iter().map(|x| x.to_string()).collect();
    format!("({})", parts.join(", "))
}

fn label_mask(g: &Graph, d: &GraphData, kind: PositionKind, p: u64) -> String {
    match kind {
        PositionKind::Edges => {
            let names: Vec<String> = crate::graph::bits(p)
                .filter_map(|e| d.ends.get(e))
                .map(|&(u, v)| format!("{}{}", g.vertex_name(u), g.vertex_name(v)))
                .collect();
            format!("{{{}}}", names.join(", "))
        }
        _ => g.format_set(p),
    }
}

/// The rule `options` at `p`, each option read as a position and none equal to `p`; an error
/// names the spec file, the game and the position.
fn options_at<P: UserPos>(
    def: &GameDef,
    name: &str,
    eval: &mut Evaluator,
    p: &P,
    read: &dyn Fn(Dynamic) -> Result<P, String>,
    label: &dyn Fn(&P) -> String,
) -> Result<Vec<P>, String> {
    let fail = |what: String| format!("{}: {name} at position {}: {what}", def.file, label(p));
    let out = eval
        .eval(&def.options, &[("p", p.to_dynamic())])
        .map_err(|e| fail(format!("the rule `options`: {e}")))?;
    let t = out.type_name();
    let list = out.into_array().map_err(|_| {
        fail(format!(
            "the rule `options` returned {t}, not an array of positions"
        ))
    })?;
    let mut opts = Vec::with_capacity(list.len());
    for x in list {
        let o = read(x).map_err(|e| {
            fail(format!(
                "the rule `options` returned an option that is malformed: {e}"
            ))
        })?;
        if &o == p {
            return Err(fail("the rule `options` returned the position itself as an option (a game must be acyclic)".into()));
        }
        opts.push(o);
    }
    Ok(opts)
}

/// A position in progress: its options, the positions they lead on to, the next to visit.
type Frame<P> = (P, Box<[P]>, Vec<P>, usize);

/// Every position reachable from `roots` with its options, by a depth-first search that marks
/// the positions in progress: meeting one again is a cycle. `expand` turns an option into the
/// positions the solver goes on to (the option itself, or with declared laws its components'
/// canonical forms).
fn explore<P: UserPos>(
    def: &GameDef,
    name: &str,
    eval: &mut Evaluator,
    roots: Vec<P>,
    read: &dyn Fn(Dynamic) -> Result<P, String>,
    label: &dyn Fn(&P) -> String,
    expand: &dyn Fn(&P) -> Vec<P>,
) -> Result<FxHashMap<P, Box<[P]>>, String> {
    let fail =
        |p: &P, what: String| format!("{}: {name} at position {}: {what}", def.file, label(p));
    let next_of = |eval: &mut Evaluator, p: &P| -> Result<(Box<[P]>, Vec<P>), String> {
        let opts = options_at(def, name, eval, p, read, label)?;
        let next = opts.iter().flat_map(expand).collect();
        Ok((opts.into_boxed_slice(), next))
    };
    let mut done: FxHashMap<P, Box<[P]>> = FxHashMap::default();
    let mut open: FxHashSet<P> = FxHashSet::default();
    for root in roots {
        if done.contains_key(&root) {
            continue;
        }
        let (opts, next) = next_of(eval, &root)?;
        open.insert(root.clone());
        let mut stack: Vec<Frame<P>> = vec![(root, opts, next, 0)];
        while let Some(top) = stack.last_mut() {
            if top.3 < top.2.len() {
                let o = top.2[top.3].clone();
                top.3 += 1;
                if done.contains_key(&o) {
                    continue;
                }
                if open.contains(&o) {
                    let from = label(&top.0);
                    return Err(fail(
                        &o,
                        format!("the options lead back to this position (a cycle, through {from}); a game must be acyclic"),
                    ));
                }
                if done.len() + open.len() >= MAX_POSITIONS {
                    return Err(format!(
                        "{}: {name} reaches more than {MAX_POSITIONS} positions (the most a game defined in a spec may have); refused",
                        def.file
                    ));
                }
                let (opts, next) = next_of(eval, &o)?;
                open.insert(o.clone());
                stack.push((o, opts, next, 0));
            } else {
                let (p, opts, _, _) = stack.pop().expect("non-empty stack");
                open.remove(&p);
                done.insert(p, opts);
            }
        }
    }
    Ok(done)
}

impl Game for UserGame<u64> {
    type Pos = u64;
    fn start(&self) -> u64 {
        self.start
    }
    fn options(&self, p: &u64) -> Vec<u64> {
        match self.options.get(p) {
            Some(o) => o.to_vec(),
            None => self.options_late(*p),
        }
    }
    fn canonical(&self, p: &u64) -> u64 {
        self.laws.as_ref().map_or(*p, |l| l.canonical(*p))
    }
    fn components(&self, p: &u64) -> Vec<u64> {
        self.laws
            .as_ref()
            .map_or_else(Vec::new, |l| l.components(*p))
    }
}

impl Game for UserGame<Vec<INT>> {
    type Pos = Vec<INT>;
    fn start(&self) -> Vec<INT> {
        self.start.clone()
    }
    fn options(&self, p: &Vec<INT>) -> Vec<Vec<INT>> {
        // Every position the solvers meet was reached from the start, so explored.
        self.options.get(p).map_or_else(Vec::new, |o| o.to_vec())
    }
}

/// The game as the registry holds it: its misère transform when the spec says `play: misere`.
fn registered<P: UserPos>(g: UserGame<P>) -> Registered
where
    UserGame<P>: FamilyGame + Game<Pos = P>,
{
    if g.def.misere {
        Registered::new(Misere(g))
    } else {
        Registered::new(g)
    }
}

impl<P: UserPos> UserGame<P> {
    /// The spec's definition.
    pub fn def(&self) -> &GameDef {
        &self.def
    }
    fn label_of(&self, p: &P) -> String {
        match (&self.graph, &self.data, p.to_dynamic().as_int()) {
            (Some(g), Some(d), Ok(m)) => label_mask(g, d, self.def.position, m as u64),
            _ => {
                let a: Vec<String> = p
                    .to_dynamic()
                    .into_array()
                    .unwrap_or_default()
                    .into_iter()
                    .map(|x| x.to_string())
                    .collect();
                format!("({})", a.join(", "))
            }
        }
    }
}

impl<P: UserPos> FamilyGame for UserGame<P>
where
    UserGame<P>: Game<Pos = P>,
{
    fn name(&self) -> String {
        match &self.graph {
            Some(g) => format!("{}({})", self.def.name, g.name()),
            None => format!("{}{}", self.def.name, self.label_of(&self.start)),
        }
    }
    fn label(&self, p: &P) -> String {
        self.label_of(p)
    }
    fn features(&self, p: &P) -> Features {
        let mut eval = self.eval.lock().unwrap_or_else(|e| e.into_inner());
        let mut out = Features::new();
        for (name, rule) in &self.def.features {
            let v = match eval.eval(rule, &[("p", p.to_dynamic())]) {
                Ok(d) if d.is_bool() => Value::Bool(d.as_bool().unwrap_or(false)),
                Ok(d) => match d.as_int() {
                    Ok(i) => Value::Int(i),
                    Err(t) => Value::Str(format!(
                        "error: the feature is {t}, not an integer or a boolean"
                    )),
                },
                Err(e) => Value::Str(format!("error: {e}")),
            };
            out.insert(name.clone(), v);
        }
        out
    }
    fn feature_docs(&self) -> &'static [FeatureDoc] {
        self.docs
    }
    fn distinct_bound(&self) -> Option<f64> {
        Some(self.options.len() as f64)
    }
    fn reachable_bound(&self) -> Option<f64> {
        // With declared laws only parts were explored; whole positions are sets of bits.
        match (&self.laws, &self.data) {
            (Some(_), Some(d)) => Some(2f64.powi(match self.def.position {
                PositionKind::Edges => d.ends.len(),
                _ => d.n,
            } as i32)),
            _ => self.distinct_bound(),
        }
    }
    fn declared_laws(&self) -> Option<String> {
        let d = &self.def;
        let laws: Vec<&str> = [("components", d.components), ("symmetric", d.symmetric)]
            .into_iter()
            .filter(|(_, on)| *on)
            .map(|(w, _)| w)
            .collect();
        (!laws.is_empty()).then(|| {
            format!(
                "{}'s declared {} ({}: true), checked at the positions of {} random plays from each start, not proved",
                d.name,
                if laws.len() == 1 { "law" } else { "laws" },
                laws.join(": true, "),
                super::laws::PLAYS
            )
        })
    }
    fn certificate(&self) -> Result<serde_json::Value, String> {
        let mut body = serde_json::json!({
            "name": self.def.name,
            "spec_sha256": self.def.sha256,
        });
        match &self.data {
            Some(d) => {
                body["graph"] = serde_json::json!({ "n": d.n, "edges": d.ends });
            }
            None => body["start"] = serde_json::to_value(&self.start).unwrap_or_default(),
        }
        // The play convention, so that a normal-play table cannot pass for a misère one or
        // the reverse (the verifier compares it with the spec's `play:`).
        if self.def.misere {
            body["play"] = serde_json::json!("misere");
        }
        Ok(serde_json::json!({ "USER": body }))
    }
}
