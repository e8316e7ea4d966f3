//! Move games defined in specs (`kind: game` with `name:` and `options:`; docs/user-games.md):
//! certificates write `{"USER": {"name", "spec_sha256", "graph" | "start"}}`, specs write the
//! game's own head, `UNK(P_5)` on a graph or `SUB(10)` on integers. The game is the registry's
//! ([`crate::user`]), found by its name among the game specs under `--specs`, and refused when
//! that file's sha256 differs from the certificate's `spec_sha256`. Positions are vertex or
//! edge sets as masks within `all`, or arrays of non-negative integers (compared as written);
//! the options are the rule's, evaluated by the verifier's own interpreter at every position
//! asked about, each checked to be a position — never taken from the certificate. A rule that
//! fails is an error naming the spec file and the position; a rule whose options lead back to
//! a position is refused where values are computed ([`crate::checks`], [`crate::solve`]).
//!
//! A game spec with `play: misere` is read as the normal-play transform (docs/user-games.md,
//! "Misère play"): every terminal position's one option is ⊥, a terminal node of its own (an
//! empty [`Pos::Tuple`], written `"⊥"`), so the values say the misère outcomes. The
//! certificate's `"play"` must be the spec's, and only outcome claims are re-derived.

use super::{call, downcast, from_json, int, Description, Family, Game, Graph, Moves, Pos, Rules};
use crate::formula::{Env, Val};
use crate::names::{parse_graph, same_graph};
use crate::user::{self, GraphData, Shape, UserGame};
use rhai::{Dynamic, Engine, Scope, INT};
use serde::Deserialize;
use serde_json::Value;
use std::any::Any;
use std::sync::Arc;

pub struct User;

/// The certificate's description.
#[derive(Deserialize)]
struct Written {
    name: String,
    spec_sha256: String,
    graph: Option<Graph>,
    start: Option<Vec<Value>>,
    /// `"misere"` for a game played misère; absent for normal play.
    play: Option<String>,
}

/// A user game on its graph, or at its integers start.
#[derive(Clone)]
pub struct UserDesc {
    game: Arc<UserGame>,
    arg: Arg,
}

#[derive(Clone, Debug)]
enum Arg {
    Graph(Graph),
    Ints(Vec<u32>),
}

impl std::fmt::Debug for UserDesc {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}({:?})", self.game.name, self.arg)
    }
}

/// The registered game `name`, or why there is none.
fn registered(name: &str) -> Result<Arc<UserGame>, String> {
    user::game(name).unwrap_or_else(|| {
        Err(format!(
            "no game spec named {name} among the `kind: game` specs under --specs"
        ))
    })
}

fn with_arg(
    game: Arc<UserGame>,
    graph: Option<Graph>,
    start: Option<Vec<u32>>,
) -> Result<Game, String> {
    let name = &game.name;
    let arg = match (game.shape, graph, start) {
        (Shape::Integers, None, Some(s)) => Arg::Ints(s),
        (Shape::Vertices | Shape::Edges, Some(g), None) => Arg::Graph(g),
        (Shape::Integers, _, _) => {
            return Err(format!(
                "{name} is played on integers: its certificate writes `start`"
            ))
        }
        _ => {
            return Err(format!(
                "{name} is played on a graph: its certificate writes `graph`"
            ))
        }
    };
    Ok(Game::new(UserDesc { game, arg }))
}

impl Family for User {
    fn key(&self) -> &'static str {
        "USER"
    }

    fn read(&self, v: Value) -> Result<Game, String> {
        let w: Written = from_json(v)?;
        let game = registered(&w.name)?;
        if w.spec_sha256 != game.sha256 {
            return Err(format!(
                "the certificate's game {} was made from other spec bytes (sha256 {}) than {} (sha256 {})",
                w.name, w.spec_sha256, game.path, game.sha256
            ));
        }
        // The play convention the certificate was solved under must be the spec's: a
        // normal-play table never passes for a misère one, nor the reverse.
        let misere = match w.play.as_deref() {
            None | Some("normal") => false,
            Some("misere") => true,
            Some(other) => return Err(format!("the play `{other}` is not `normal` or `misere`")),
        };
        if misere != game.misere {
            let says = |m: bool| if m { "misère" } else { "normal" };
            return Err(format!(
                "the certificate's game {} is played {}, but {} plays it {}",
                w.name,
                says(misere),
                game.path,
                says(game.misere)
            ));
        }
        let start = match w.start {
            Some(s) => Some(
                s.iter()
                    .map(|x| {
                        int(x)
                            .and_then(|i| u32::try_from(i).map_err(|_| format!("{i} is too large")))
                    })
                    .collect::<Result<_, _>>()?,
            ),
            None => None,
        };
        with_arg(game, w.graph, start)
    }

    fn parse(&self, t: &str) -> Option<Result<Game, String>> {
        let (head, inner) = call(t)?;
        let game = match user::game(head.trim())? {
            Ok(g) => g,
            Err(e) => return Some(Err(e)),
        };
        Some(match game.shape {
            Shape::Integers => inner
                .split(',')
                .map(|x| {
                    x.trim()
                        .parse::<u32>()
                        .map_err(|_| format!("`{t}`: `{x}` is not a non-negative integer"))
                })
                .collect::<Result<Vec<u32>, String>>()
                .and_then(|s| with_arg(game, None, Some(s))),
            Shape::Vertices | Shape::Edges => {
                parse_graph(inner).and_then(|g| with_arg(game, Some(g), None))
            }
        })
    }

    #[cfg(test)]
    fn example(&self) -> super::Example {
        // Node Kayles written as a rule (crate::user::TEST_SPEC), on P_3: as NK(P_3).
        user::ensure_test_registry();
        let sha = crate::spec::sha256_hex(user::TEST_SPEC.as_bytes());
        super::Example {
            name: "UNK(P_3)",
            game: Box::leak(
                format!(
                    r#"{{"name": "UNK", "spec_sha256": "{sha}", "graph": {{"n": 3, "edges": [[0, 1], [1, 2]]}}}}"#
                )
                .into_boxed_str(),
            ),
            table: "[[7, 2], [4, 1], [1, 1], [0, 0]]",
            nim: 2,
        }
    }
}

impl Description for UserDesc {
    fn key(&self) -> &'static str {
        "USER"
    }

    fn rules(&self) -> Result<Rules, String> {
        let g = &self.game;
        let err = |e: String| format!("{}: {e}", g.path);
        let (graph, bits) = match &self.arg {
            Arg::Ints(_) => (None, 0),
            Arg::Graph(graph) => {
                let d = GraphData::new(graph).map_err(err)?;
                let bits = if g.shape == Shape::Edges {
                    if d.m() > user::MAX_BITS {
                        return Err(err(format!(
                            "a graph of {} edges: an edges game has at most {}",
                            d.m(),
                            user::MAX_BITS
                        )));
                    }
                    d.m()
                } else {
                    d.n
                };
                (Some(Arc::new(d)), bits)
            }
        };
        let engine = user::engine(graph.clone());
        let all = user::low_bits(bits);
        if g.misere {
            user::misere_used(&g.name);
        }
        let mut r = UserRules {
            game: g.clone(),
            engine,
            graph,
            all,
            start: Pos::Set(all),
        };
        r.start = match (&self.arg, &g.start) {
            (Arg::Ints(s), _) => Pos::List(s.clone()),
            (Arg::Graph(_), None) => Pos::Set(all),
            (Arg::Graph(_), Some(ast)) => {
                let mut scope = r.scope();
                let d = user::run(&r.engine, &mut scope, ast)
                    .and_then(|d| user::mask(&d, all))
                    .map_err(|e| err(format!("the start rule: {e}")))?;
                Pos::Set(d)
            }
        };
        Ok(Rules::of(r))
    }

    fn same(&self, other: &Game) -> bool {
        downcast::<UserDesc>(other).is_some_and(|o| {
            o.game.name == self.game.name
                && o.game.sha256 == self.game.sha256
                && match (&self.arg, &o.arg) {
                    (Arg::Graph(a), Arg::Graph(b)) => same_graph(a, b),
                    (Arg::Ints(a), Arg::Ints(b)) => a == b,
                    _ => false,
                }
        })
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn encode_start(&self) -> Option<Value> {
        let start = self.rules().ok()?.start();
        Some(match start {
            Pos::Set(s) => Value::from(s),
            Pos::List(l) => Value::from(l),
            _ => return None,
        })
    }

    fn shape(&self) -> String {
        format!("USER:{}", self.game.name)
    }
}

/// A user game's rules on one graph (or integers start).
struct UserRules {
    game: Arc<UserGame>,
    engine: Engine,
    graph: Option<Arc<GraphData>>,
    /// The mask of every vertex (or edge); 0 for integers.
    all: u64,
    start: Pos,
}

impl UserRules {
    fn scope(&self) -> Scope<'static> {
        match &self.graph {
            Some(d) => user::graph_scope(d, self.all),
            None => Scope::new(),
        }
    }

    fn value(&self, p: &Pos) -> Dynamic {
        match p {
            Pos::Set(s) => Dynamic::from(*s as INT),
            Pos::List(l) => {
                Dynamic::from_array(l.iter().map(|&x| Dynamic::from(x as INT)).collect())
            }
            _ => unreachable!("a user game's positions are sets or lists"),
        }
    }

    /// The position a rule's value is, checked.
    fn read(&self, d: &Dynamic) -> Result<Pos, String> {
        match self.game.shape {
            Shape::Integers => user::numbers(d).map(Pos::List),
            Shape::Vertices | Shape::Edges => user::mask(d, self.all).map(Pos::Set),
        }
    }

    /// The `options:` rule at p (a position of the game, not ⊥), every value checked to be
    /// a position other than p.
    fn rule_options(&self, p: &Pos) -> Result<Vec<Pos>, String> {
        let err = |e: String| {
            format!(
                "{}: the options rule of {} at position {}: {e}",
                self.game.path,
                self.game.name,
                Self::show(p)
            )
        };
        let mut scope = self.scope();
        scope.push_constant("p", self.value(p));
        let d = user::run(&self.engine, &mut scope, &self.game.options).map_err(err)?;
        let a = d
            .as_array_ref()
            .map_err(|t| err(format!("`{d}` (a {t}) is not an array of positions")))?;
        let mut out = Vec::with_capacity(a.len());
        for x in a.iter() {
            let q = self.read(x).map_err(err)?;
            if q == *p {
                return Err(err("an option equal to its position".into()));
            }
            out.push(q);
        }
        Ok(out)
    }

    fn show(p: &Pos) -> String {
        match p {
            Pos::Set(s) => s.to_string(),
            Pos::List(l) => format!("{l:?}"),
            _ => format!("{p:?}"),
        }
    }
}

/// The misère transform's ⊥ (a game spec's `play: misere`): the one option of every terminal
/// position, itself terminal. An empty tuple, which no position of a user game (a set or a
/// list) is; certificates write it as the string [`END`].
fn end() -> Pos {
    Pos::Tuple(Vec::new())
}

/// ⊥ as certificates write it.
const END: &str = "⊥";

impl Moves for UserRules {
    fn start(&self) -> Pos {
        self.start.clone()
    }

    fn pos(&self, v: &Value) -> Result<Pos, String> {
        if v.as_str() == Some(END) {
            return match self.game.misere {
                true => Ok(end()),
                false => Err(format!(
                    "`{END}` (the misère transform's end) is no position of {}, which is played normal",
                    self.game.name
                )),
            };
        }
        match self.game.shape {
            Shape::Integers => super::ints(v).map(Pos::List),
            Shape::Vertices | Shape::Edges => {
                let p = int(v)?;
                if p & !self.all != 0 {
                    return Err(format!(
                        "`{v}` has a bit outside `all` ({}) of {}",
                        self.all, self.game.name
                    ));
                }
                Ok(Pos::Set(p))
            }
        }
    }

    /// The `options:` rule at p, every value checked to be a position other than p; played
    /// misère, a terminal position's one option is ⊥, and ⊥ has none.
    fn options(&self, p: &Pos) -> Result<Vec<Pos>, String> {
        if *p == end() {
            return Ok(Vec::new());
        }
        let mut out = self.rule_options(p)?;
        if self.game.misere && out.is_empty() {
            out.push(end());
        }
        Ok(out)
    }

    fn hidden(&self, p: &Pos) -> bool {
        self.game.misere && *p == end()
    }

    fn misere(&self) -> bool {
        self.game.misere
    }

    /// With `components: true` declared: the components of p, vertex sets of the subgraph p
    /// induces, or edge sets joined where edges share an end; empty when p is one.
    fn components(&self, p: &Pos) -> Vec<Pos> {
        let (true, Pos::Set(s), Some(g)) = (self.game.components, p, &self.graph) else {
            return Vec::new();
        };
        let touch = |b: usize| -> u64 {
            match self.game.shape {
                Shape::Edges => {
                    // An edges game has at most MAX_BITS edges, so every vertex's is known.
                    let (u, v) = g.ends[b];
                    g.incident[u].unwrap_or(0) | g.incident[v].unwrap_or(0)
                }
                _ => g.adj[b],
            }
        };
        let mut parts = Vec::new();
        let mut left = *s;
        while left != 0 {
            let mut part = left & left.wrapping_neg();
            let mut frontier = part;
            while frontier != 0 {
                let b = frontier.trailing_zeros() as usize;
                frontier &= frontier - 1;
                let new = touch(b) & s & !part;
                part |= new;
                frontier |= new;
            }
            parts.push(Pos::Set(part));
            left &= !part;
        }
        if parts.len() < 2 {
            parts.clear();
        }
        parts
    }

    /// The declared sum law at p: the rule's options at p are exactly the moves in one
    /// component (each within it) with the others left as they are. Checked at every option
    /// the verifier splits, and recorded ([`crate::user::law_checked`]) so that the verdict
    /// says it rests on the law.
    fn check_split(&self, p: &Pos, parts: &[Pos]) -> Result<(), String> {
        let Pos::Set(s) = p else {
            return Ok(());
        };
        let whole: std::collections::BTreeSet<u64> = self
            .options(p)?
            .into_iter()
            .filter_map(|o| match o {
                Pos::Set(o) => Some(o),
                _ => None,
            })
            .collect();
        let mut summed = std::collections::BTreeSet::new();
        for q in parts {
            let Pos::Set(c) = q else { continue };
            for o in self.options(q)? {
                let Pos::Set(o) = o else { continue };
                if o & !c != 0 {
                    return Err(format!("{}: {} declares `components: true`, but its rule gives the option {o} at the component {c} of {s}, outside the component", self.game.path, self.game.name));
                }
                summed.insert((s & !c) | o);
            }
        }
        if whole != summed {
            let o = whole
                .symmetric_difference(&summed)
                .next()
                .copied()
                .unwrap_or_default();
            return Err(format!("{}: {} declares `components: true`, but at the position {s} {o} is {} (the law fails there)", self.game.path, self.game.name,
                if whole.contains(&o) { "an option of the rule and no move in one component" } else { "a move in one component and no option of the rule" }));
        }
        crate::user::law_checked(&self.game.name);
        Ok(())
    }

    /// The spec's `features:`, each evaluated at p; one that fails or gives neither an integer
    /// nor a truth value is left out (a formula reading it is then not evaluated).
    fn features(&self, env: &mut Env, p: &Pos) {
        if *p == end() {
            return;
        }
        for (k, ast) in &self.game.features {
            let mut scope = self.scope();
            scope.push_constant("p", self.value(p));
            let Ok(d) = user::run(&self.engine, &mut scope, ast) else {
                continue;
            };
            if let Ok(i) = d.as_int() {
                env.set(k, Val::Int(i));
            } else if let Ok(b) = d.as_bool() {
                env.set(k, Val::Bool(b));
            }
        }
    }
}
