//! Formulas and predicates of specs, evaluated by the embedded rhai engine over parameters and
//! position features. Expressions only (no statements, no loops), with an operation limit.
//!
//! Helper functions available to formulas: `pty(x)` (parity, paper §2.1), `sum(list)`,
//! `max(list)`, `min(list)`, `count(list, x)`, `count_ge(list, x)`, `mex(list)`, `gcd(a, b)`, `divides(a, b)`,
//! `nim("game expression")` (solves a game: e.g. `nim("DC(" + (n - 4) + ")")`, Prop 5.22);
//! over sets and families of sets `same_set`, `has_set`, `tr`, `distinct` (`set_helpers.rs`);
//! seed 002's trail `trail_corner`, `trail_missed`, `trail_outside` (Lemma 9), `trail_reaches`, `trail_labelling_proper` (the lemmas of Thm 13's proof), `trail_visits` (Lemma 4 of its reference [3]) (`trail_helpers.rs`).
//!
//! Limits ([`set_limits`]): the operation limit, expression depth, and the sizes of arrays,
//! strings and maps (so `[0].pad(1000000000, 0)` or string doubling fail fast), `eval`
//! disabled (it would bring statements and loops back). rhai's arithmetic is
//! checked (overflow is an error); the helpers here are checked too.

use super::fast_expr::{Fast, V};
use crate::expr::{parse_game, ParseOptions};
use crate::game::{mex, Features, Value};
use crate::graph::Closure;
use rhai::{Array, Dynamic, Engine, EvalAltResult, Scope, AST};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// A compiled formula together with its source text.
#[derive(Clone, Debug)]
pub struct Formula {
    pub src: String,
    ast: AST,
    /// The formula compiled natively, when it is simple enough ([`super::fast_expr`]).
    fast: Option<Arc<Fast>>,
}

/// A formula that does not compile: the message and the byte offset inside the formula.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormulaError {
    pub message: String,
    pub offset: usize,
}

/// Values of `nim("…")`, keyed by the closure and the game's text: the same text is another
/// game under another closure (docs/design.md §2).
type NimCache = Mutex<HashMap<(Closure, String), i64>>;

fn nim_cache() -> &'static NimCache {
    static CACHE: OnceLock<NimCache> = OnceLock::new();
    CACHE.get_or_init(Default::default)
}

thread_local! {
    /// The closure of the spec whose formula is being evaluated on this thread: `nim("…")`
    /// solves under it. Set by [`Formula::eval`] from its environment and restored after (a
    /// nested evaluation, stolen by rayon inside a solve, restores it too).
    static CLOSURE: std::cell::Cell<Closure> = const { std::cell::Cell::new(Closure::HULL) };
}

/// Restores the thread's closure when an evaluation ends.
struct ClosureGuard(Closure);

impl ClosureGuard {
    fn set(c: Closure) -> ClosureGuard {
        ClosureGuard(CLOSURE.with(|cell| cell.replace(c)))
    }
}

impl Drop for ClosureGuard {
    fn drop(&mut self) {
        CLOSURE.with(|cell| cell.set(self.0));
    }
}

fn list_ints(a: &Array) -> Result<Vec<i64>, Box<EvalAltResult>> {
    a.iter()
        .map(|d| {
            d.as_int().map_err(|t| {
                format!("expected a list of integers, found an element of type {t}").into()
            })
        })
        .collect()
}

/// gcd(a, b) >= 0; gcd(i64::MIN, 0) = 2^63 does not fit and comes out negative (refused by
/// the registered function).
pub(crate) fn gcd(a: i64, b: i64) -> i64 {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a as i64
}

/// a | b (0 divides only 0). `wrapping_rem`: i64::MIN % -1 overflows (and panics) but
/// -1 divides everything.
pub(crate) fn divides(a: i64, b: i64) -> bool {
    if a == 0 {
        b == 0
    } else {
        b.wrapping_rem(a) == 0
    }
}

/// Largest array, string (bytes) and map a formula may build.
pub const MAX_COLLECTION: usize = 100_000;

/// Resource limits of the formula engine (see the module header).
fn set_limits(e: &mut Engine) {
    e.set_max_operations(1_000_000);
    e.set_max_expr_depths(64, 32);
    e.set_max_call_levels(32);
    e.set_max_array_size(MAX_COLLECTION);
    e.set_max_string_size(MAX_COLLECTION);
    e.set_max_map_size(MAX_COLLECTION);
    e.disable_symbol("eval");
}

/// The shared engine (rhai's `sync` feature makes it `Send + Sync`).
pub fn engine() -> &'static Engine {
    static ENGINE: OnceLock<Engine> = OnceLock::new();
    ENGINE.get_or_init(|| {
        let mut e = Engine::new();
        set_limits(&mut e);
        e.register_fn("pty", |x: i64| x.rem_euclid(2));
        super::set_helpers::register(&mut e);
        super::trail_helpers::register(&mut e);
        e.register_fn("sum", |a: Array| -> Result<i64, Box<EvalAltResult>> {
            list_ints(&a)?
                .into_iter()
                .try_fold(0i64, i64::checked_add)
                .ok_or_else(|| "sum overflows 64-bit integers".into())
        });
        e.register_fn("max", |a: Array| -> Result<i64, Box<EvalAltResult>> {
            list_ints(&a)?
                .into_iter()
                .max()
                .ok_or_else(|| "max of an empty list".into())
        });
        e.register_fn("min", |a: Array| -> Result<i64, Box<EvalAltResult>> {
            list_ints(&a)?
                .into_iter()
                .min()
                .ok_or_else(|| "min of an empty list".into())
        });
        e.register_fn(
            "count",
            |a: Array, x: i64| -> Result<i64, Box<EvalAltResult>> {
                Ok(list_ints(&a)?.into_iter().filter(|&y| y == x).count() as i64)
            },
        );
        e.register_fn(
            "count_ge",
            |a: Array, x: i64| -> Result<i64, Box<EvalAltResult>> {
                Ok(list_ints(&a)?.into_iter().filter(|&y| y >= x).count() as i64)
            },
        );
        e.register_fn("mex", |a: Array| -> Result<i64, Box<EvalAltResult>> {
            let v = list_ints(&a)?;
            if v.iter().any(|&x| x < 0) {
                return Err("mex of a negative value".into());
            }
            Ok(mex(v.into_iter().map(|x| x.min(u32::MAX as i64) as u32)) as i64)
        });
        e.register_fn("gcd", |a: i64, b: i64| -> Result<i64, Box<EvalAltResult>> {
            let g = gcd(a, b);
            if g < 0 {
                return Err("gcd overflows 64-bit integers".into());
            }
            Ok(g)
        });
        e.register_fn("divides", divides);
        e.register_fn(
            "graph6_vertices",
            |g: &str| -> Result<i64, Box<EvalAltResult>> {
                graph6_vertices(g).ok_or_else(|| format!("`{g}` is not a graph in graph6").into())
            },
        );
        e.register_fn("nim", |game: &str| -> Result<i64, Box<EvalAltResult>> {
            let closure = CLOSURE.with(|c| c.get());
            if let Some(v) =
                super::teeth::fake_nim(game, || parse_game(game, ParseOptions { closure }).ok())
            {
                return v?
                    .as_int()
                    .map_err(|t| format!("nim drew a value of type {t}").into());
            }
            if super::teeth::own_game_active() {
                if let Ok(g) = parse_game(game, ParseOptions { closure }) {
                    if let Some(v) = super::teeth::own_game_call(game, &g) {
                        return Ok(v);
                    }
                }
            }
            let key = (closure, game.to_string());
            if let Some(&v) = nim_cache()
                .lock()
                .map_err(|_| "nim cache poisoned")?
                .get(&key)
            {
                return Ok(v);
            }
            let g = parse_game(game, ParseOptions { closure })
                .map_err(|e| format!("nim(\"{game}\"): {}", e.message))?;
            if let Some(why) = g.refusal() {
                return Err(format!("nim(\"{game}\"): {why}").into());
            }
            // The front door: fastest sound method, under the machine's budget.
            let v = crate::solve::dispatch::nim(&g, &crate::solve::dispatch::Options::quiet())
                .map_err(|r| format!("nim(\"{game}\"): {r}"))? as i64;
            nim_cache()
                .lock()
                .map_err(|_| "nim cache poisoned")?
                .insert(key, v);
            super::teeth::record("nim", &Dynamic::from_int(v));
            Ok(v)
        });
        e
    })
}

impl Formula {
    pub fn compile(src: &str) -> Result<Formula, FormulaError> {
        match engine().compile_expression(src) {
            Ok(ast) => Ok(Formula {
                src: src.to_string(),
                fast: Fast::compile(&ast).map(Arc::new),
                ast,
            }),
            Err(e) => {
                let offset = offset_of(src, e.1.line(), e.1.position());
                Err(FormulaError {
                    message: e.0.to_string(),
                    offset,
                })
            }
        }
    }

    /// A constant formula (used for literal values in specs).
    pub fn constant(v: i64) -> Formula {
        Formula::compile(&v.to_string()).expect("an integer literal compiles")
    }

    pub fn eval(&self, env: &Env) -> Result<Dynamic, String> {
        if let Some(f) = &self.fast {
            let vals: Option<Vec<V>> = f
                .vars
                .iter()
                .map(|v| env.get(v).and_then(V::from_dynamic))
                .collect();
            if let Some(v) = vals.and_then(|vals| f.eval(&vals)) {
                return Ok(v.to_dynamic());
            }
        }
        let mut scope = Scope::new();
        for (k, v) in &env.vars {
            scope.push_dynamic(k.as_str(), v.clone());
        }
        let _closure = ClosureGuard::set(env.closure);
        engine()
            .eval_ast_with_scope::<Dynamic>(&mut scope, &self.ast)
            .map_err(|e| explain(&e, env.vars.iter().map(|(k, _)| k.as_str())))
    }

    pub fn eval_bool(&self, env: &Env) -> Result<bool, String> {
        let d = self.eval(env)?;
        d.as_bool().map_err(|t| {
            format!(
                "`{}` should be true or false, but gave a value of type {t}",
                self.src
            )
        })
    }

    /// The formula with the variables of `env` folded in as constants (rhai's full
    /// optimisation evaluates the constant parts, e.g. `gcd(2*m, n+1)`, once per instance).
    pub fn specialise(&self, env: &Env) -> Formula {
        let mut scope = Scope::new();
        for (k, v) in &env.vars {
            scope.push_constant_dynamic(k.clone(), v.clone());
        }
        // Full optimisation evaluates constant calls, `nim("…")` among them: under the closure.
        let _closure = ClosureGuard::set(env.closure);
        let ast = engine().optimize_ast(&scope, self.ast.clone(), rhai::OptimizationLevel::Full);
        Formula {
            src: self.src.clone(),
            fast: Fast::compile(&ast).map(Arc::new),
            ast,
        }
    }

    /// The formula as a predicate of the integer variables `names` (e.g. a vertex's
    /// coordinates), for evaluation at many points: natively when it compiles so, else in
    /// rhai with one scope for all points.
    pub fn predicate<'a>(&'a self, names: &'a [&'a str]) -> Predicate<'a> {
        let slots = self.fast.as_ref().and_then(|f| {
            f.vars
                .iter()
                .map(|v| names.iter().position(|n| n == v))
                .collect::<Option<Vec<usize>>>()
        });
        let mut scope = Scope::new();
        for n in names {
            scope.push(n.to_string(), 0i64);
        }
        Predicate {
            formula: self,
            names,
            slots,
            scope,
            vals: Vec::new(),
        }
    }

    /// Evaluates a predicate in a caller-owned scope: predicates run on every vertex of large
    /// graphs, so the scope is built once and only coordinates change.
    /// `closure`: the spec's closure, under which `nim("…")` solves (a scope carries none).
    pub fn eval_bool_in(
        &self,
        scope: &mut Scope<'static>,
        closure: Closure,
    ) -> Result<bool, String> {
        let _closure = ClosureGuard::set(closure);
        let d = engine()
            .eval_ast_with_scope::<Dynamic>(scope, &self.ast)
            .map_err(|e| {
                let names: Vec<String> = scope.iter_raw().map(|(k, ..)| k.to_string()).collect();
                explain(&e, names.iter().map(String::as_str))
            })?;
        d.as_bool().map_err(|t| {
            format!(
                "`{}` should be true or false, but gave a value of type {t}",
                self.src
            )
        })
    }

    pub fn eval_int(&self, env: &Env) -> Result<i64, String> {
        let d = self.eval(env)?;
        d.as_int().map_err(|t| {
            format!(
                "`{}` should be an integer, but gave a value of type {t}",
                self.src
            )
        })
    }
}

/// A formula bound to integer variables by [`Formula::predicate`].
pub struct Predicate<'a> {
    formula: &'a Formula,
    names: &'a [&'a str],
    /// For each variable of the native form, its index in `names`.
    slots: Option<Vec<usize>>,
    scope: Scope<'static>,
    vals: Vec<V>,
}

impl Predicate<'_> {
    /// The predicate at `point` (values of the names, in order).
    pub fn eval(&mut self, point: &[i64]) -> Result<bool, String> {
        if let (Some(slots), Some(f)) = (&self.slots, &self.formula.fast) {
            self.vals.clear();
            self.vals.extend(slots.iter().map(|&k| V::I(point[k])));
            match f.eval(&self.vals) {
                Some(V::B(b)) => return Ok(b),
                // An integer is an error, reported by rhai below.
                Some(V::I(_)) | None => {}
            }
        }
        for (n, &x) in self.names.iter().zip(point) {
            self.scope.set_value(n.to_string(), x);
        }
        // Certificate predicates (edge geography) have no closure: the hull is the default.
        self.formula.eval_bool_in(&mut self.scope, Closure::HULL)
    }
}

/// rhai's message, and for an unknown variable the nearest names the formula could have
/// meant ("did you mean `num_parts`?"), or all of them when none is near.
/// The helper functions a formula may call, as it calls them (the module header's list): the
/// hint of a call that matches none of their signatures.
const HELPERS: [(&str, &str); 21] = [
    ("pty", "`pty(x)` takes an integer (its parity) or a list of integers"),
    ("sum", "`sum(list)` takes a list of integers"),
    ("max", "`max(list)` takes a nonempty list of integers"),
    ("min", "`min(list)` takes a nonempty list of integers"),
    ("count", "`count(list, x)` takes a list of integers and an integer"),
    ("count_ge", "`count_ge(list, x)` takes a list of integers and an integer"),
    ("mex", "`mex(list)` takes a list of nonnegative integers"),
    ("gcd", "`gcd(a, b)` takes two integers"),
    ("divides", "`divides(a, b)` takes two integers"),
    (
        "graph6_vertices",
        "`graph6_vertices(G)` takes a graph in graph6, e.g. a `graphs:` parameter",
    ),
    ("nim", "`nim(\"game\")` takes a game expression as a string, e.g. `nim(\"DC(\" + (n - 4) + \")\")`"),
    ("same_set", "`same_set(a, b)` takes two sets (lists of names)"),
    (
        "has_set",
        "`has_set(family, set)` takes a family (a list of sets) and a set (a list of names): whether some member of the family is that set",
    ),
    ("tr", "`tr(family)` takes a family (a list of sets of names)"),
    ("distinct", "`distinct(list)` takes a list of integers"),
    ("trail_corner", "`trail_corner(m, n)` takes two integers"),
    ("trail_missed", "`trail_missed(m, n)` takes two integers"),
    ("trail_outside", "`trail_outside(m, n)` takes two integers"),
    ("trail_reaches", "`trail_reaches(m, n, b)` takes three integers"),
    ("trail_labelling_proper", "`trail_labelling_proper(m, n, b)` takes three integers"),
    ("trail_visits", "`trail_visits(m, n, i, j)` takes four integers"),
];

/// The number of vertices of a graph written in graph6 (a `graphs:` parameter, with or
/// without its `graph6:` prefix): the first byte is n + 63 for n < 63, else `~` and n in
/// three bytes of six bits.
fn graph6_vertices(g: &str) -> Option<i64> {
    let b = g.strip_prefix("graph6:").unwrap_or(g).as_bytes();
    let six = |x: &u8| (63..=126).contains(x).then(|| (*x - 63) as i64);
    match b {
        [126, 126, ..] => None,
        [126, x, y, z, ..] => Some(six(x)? << 12 | six(y)? << 6 | six(z)?),
        [x, ..] if *x < 126 => six(x),
        _ => None,
    }
}

/// The hint after rhai's "Function not found: has_set (array, &str | …)": how the helper of
/// that name is called, and for a set helper given one name, the membership test that was
/// meant (`"v1" in selected`); for an unknown name, the helpers it is close to.
fn function_hint(signature: &str) -> String {
    let name = signature.split([' ', '(']).next().unwrap_or(signature);
    let args = signature.split_once('(').map_or("", |(_, r)| r);
    if let Some((_, usage)) = HELPERS.iter().find(|(n, _)| *n == name) {
        let mut hint = format!("; {usage}");
        if matches!(name, "has_set" | "same_set" | "tr") && args.contains("str") {
            hint.push_str("; to ask whether a set holds one element, write `\"v1\" in selected`");
        }
        return hint;
    }
    let names: Vec<&str> = HELPERS.iter().map(|(n, _)| *n).collect();
    let near = nearest(name, &names);
    if near.is_empty() {
        String::new()
    } else {
        let list: Vec<String> = near.iter().map(|n| format!("`{n}`")).collect();
        format!("; did you mean {}?", list.join(" or "))
    }
}

fn explain<'a>(e: &EvalAltResult, names: impl Iterator<Item = &'a str>) -> String {
    if let EvalAltResult::ErrorFunctionNotFound(signature, _) = e.unwrap_inner() {
        return format!("{e}{}", function_hint(signature));
    }
    let EvalAltResult::ErrorVariableNotFound(name, _) = e else {
        return e.to_string();
    };
    let mut names: Vec<&str> = names.collect();
    names.sort_unstable();
    names.dedup();
    let near = nearest(name, &names);
    if !near.is_empty() {
        let list: Vec<String> = near.iter().map(|n| format!("`{n}`")).collect();
        format!("{e}; did you mean {}?", list.join(" or "))
    } else if names.is_empty() {
        e.to_string()
    } else {
        format!("{e}; the names here are {}", names.join(", "))
    }
}

/// The names closest to `name` (Jaro-Winkler similarity at least 0.8, best first, at most
/// three): the suggestions for a misspelt feature or parameter.
pub fn nearest<'a>(name: &str, names: &[&'a str]) -> Vec<&'a str> {
    let mut scored: Vec<(f64, &str)> = names
        .iter()
        .map(|&n| (strsim::jaro_winkler(name, n), n))
        .filter(|&(s, _)| s >= 0.8)
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
    scored.into_iter().take(3).map(|(_, n)| n).collect()
}

fn offset_of(src: &str, line: Option<usize>, col: Option<usize>) -> usize {
    let (Some(line), Some(col)) = (line, col) else {
        return 0;
    };
    let mut off = 0;
    for (i, l) in src.split('\n').enumerate() {
        if i + 1 == line {
            return off
                + l.char_indices()
                    .nth(col.saturating_sub(1))
                    .map_or(l.len(), |(b, _)| b);
        }
        off += l.len() + 1;
    }
    src.len()
}

/// Variables visible to a formula, in insertion order (later entries shadow earlier ones).
#[derive(Clone, Debug, Default)]
pub struct Env {
    vars: Vec<(String, Dynamic)>,
    /// The spec's closure, under which `nim("…")` solves.
    pub closure: Closure,
}

impl Env {
    pub fn new() -> Env {
        Env::default()
    }

    pub fn set(&mut self, name: &str, v: Dynamic) {
        self.vars.retain(|(k, _)| k != name);
        self.vars.push((name.to_string(), v));
    }

    pub fn get(&self, name: &str) -> Option<&Dynamic> {
        self.vars
            .iter()
            .rev()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v)
    }

    /// The variables as a rhai scope, for many evaluations with [`Formula::eval_bool_in`]
    /// without copying the environment each time.
    pub fn scope(&self) -> Scope<'static> {
        let mut scope = Scope::new();
        for (k, v) in &self.vars {
            scope.push_dynamic(k.clone(), v.clone());
        }
        scope
    }

    /// Adds position features (they do not shadow parameters of the same name).
    pub fn add_features(&mut self, f: &Features) {
        for (k, v) in f {
            if self.get(k).is_none() {
                self.vars.push((k.clone(), value_to_dynamic(v)));
            }
        }
    }

    pub fn vars(&self) -> impl Iterator<Item = (&str, &Dynamic)> {
        self.vars.iter().map(|(k, v)| (k.as_str(), v))
    }
}

pub fn value_to_dynamic(v: &Value) -> Dynamic {
    match v {
        Value::Int(i) => Dynamic::from_int(*i),
        Value::Bool(b) => Dynamic::from_bool(*b),
        Value::List(l) => Dynamic::from_array(l.iter().map(|&x| Dynamic::from_int(x)).collect()),
        Value::Set(s) => Dynamic::from_array(s.iter().map(|x| Dynamic::from(x.clone())).collect()),
        Value::Str(s) => Dynamic::from(s.clone()),
    }
}

/// Display of a formula value in reports (`*k` is written by the caller).
pub fn show(d: &Dynamic) -> String {
    if let Ok(a) = d.as_array_ref() {
        let parts: Vec<String> = a.iter().map(show).collect();
        return format!("[{}]", parts.join(","));
    }
    d.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_name_suggests_the_nearest() {
        let mut e = Env::new();
        e.set("num_parts", Dynamic::from_int(2));
        e.set("odd_parts", Dynamic::from_int(1));
        e.set("c", Dynamic::from_int(3));
        let f = Formula::compile("numparts + 1").unwrap();
        let msg = f.eval(&e).unwrap_err();
        assert!(msg.contains("did you mean `num_parts`?"), "{msg}");
        // Nothing near: every name is listed instead of a wrong guess.
        let msg = Formula::compile("zzz").unwrap().eval(&e).unwrap_err();
        assert!(
            msg.contains("the names here are c, num_parts, odd_parts"),
            "{msg}"
        );
        assert_eq!(nearest("sise", &["size", "solid", "c"]), vec!["size"]);
    }

    fn env(pairs: &[(&str, i64)]) -> Env {
        let mut e = Env::new();
        for (k, v) in pairs {
            e.set(k, Dynamic::from_int(*v));
        }
        e
    }

    #[test]
    fn arithmetic_and_helpers() {
        let f = Formula::compile("if pty(n + m) == 0 && n - m >= 2 { 0 } else { 1 }").unwrap();
        assert_eq!(f.eval_int(&env(&[("n", 6), ("m", 2)])).unwrap(), 0);
        assert_eq!(f.eval_int(&env(&[("n", 7), ("m", 2)])).unwrap(), 1);
        let g = Formula::compile(
            "sum(parts) - max(parts) + count(parts, 1) + mex([0, 1, 3]) + gcd(12, 18)",
        )
        .unwrap();
        let mut e = Env::new();
        e.set(
            "parts",
            Dynamic::from_array(vec![
                Dynamic::from_int(1),
                Dynamic::from_int(2),
                Dynamic::from_int(4),
            ]),
        );
        assert_eq!(g.eval_int(&e).unwrap(), 3 + 1 + 2 + 6);
        assert_eq!(
            Formula::compile("nim(\"TER(P_3)\")")
                .unwrap()
                .eval_int(&Env::new())
                .unwrap(),
            2
        );
        assert_eq!(
            Formula::compile("-7 % 2")
                .unwrap()
                .eval_int(&Env::new())
                .unwrap(),
            -1
        );
        assert_eq!(
            Formula::compile("pty(-7)")
                .unwrap()
                .eval_int(&Env::new())
                .unwrap(),
            1
        );
    }

    #[test]
    fn limits_and_checked_arithmetic() {
        let run = |src: &str| {
            Formula::compile(src)
                .map_err(|e| e.message)
                .and_then(|f| f.eval(&Env::new()))
        };
        assert!(run("sum([9223372036854775807, 1])").is_err());
        assert!(run("9223372036854775807 + 1").is_err());
        assert!(run("gcd(-9223372036854775807 - 1, 0)").is_err());
        assert!(run("[0].pad(1000000000, 0)").is_err());
        assert!(run("\"ab\".pad(1000000000, \"x\")").is_err());
        assert!(run("eval(\"let x = 0; loop { x += 1 }\")").is_err());
        // The limits leave ordinary formulas alone.
        assert_eq!(
            run("sum([1, 2, 3]) + gcd(-4, 6)")
                .unwrap()
                .as_int()
                .unwrap(),
            8
        );
    }

    #[test]
    fn errors_have_offsets() {
        let e = Formula::compile("n + * 2").unwrap_err();
        assert_eq!(e.offset, 4);
        assert!(Formula::compile("x = 3").is_err());
        assert!(Formula::compile("unknown_var + 1")
            .unwrap()
            .eval(&Env::new())
            .is_err());
        assert!(Formula::compile("nim(\"TER(X_3)\")")
            .unwrap()
            .eval(&Env::new())
            .is_err());
    }

    /// A call that matches no helper says how the helper is called: `has_set(selected, "v1")`
    /// (a membership test written as a family test) points to `"v1" in selected`, a misspelt
    /// helper to the one meant. Every helper of the hint table is registered.
    #[test]
    fn calls_that_match_no_helper_say_how_it_is_called() {
        let mut env = Env::new();
        let names: Array = ["v1", "v3"]
            .iter()
            .map(|&n| Dynamic::from(n.to_string()))
            .collect();
        env.set("selected", Dynamic::from_array(names));
        let err = |src: &str| Formula::compile(src).unwrap().eval(&env).unwrap_err();
        let e = err(r#"has_set(selected, "v1")"#);
        assert!(e.contains("Function not found: has_set"), "{e}");
        assert!(e.contains("`has_set(family, set)` takes a family"), "{e}");
        assert!(e.contains(r#"write `"v1" in selected`"#), "{e}");
        // What the hint says works.
        let ok = Formula::compile(r#""v1" in selected"#).unwrap();
        assert!(ok.eval_bool(&env).unwrap());
        // A family test given sets stays silent about membership.
        let e = err("has_set(selected)");
        assert!(
            e.contains("takes a family") && !e.contains(" in selected`"),
            "{e}"
        );
        let e = err("distinkt([1, 1])");
        assert!(e.contains("did you mean `distinct`?"), "{e}");
        // An unknown name near no helper gets no guess.
        assert!(!err("zzzz(1)").contains("did you mean"));
        // The table names registered helpers only: each, called as its hint says, is found.
        let calls = [
            "pty(1)",
            "sum([1])",
            "max([1])",
            "min([1])",
            "count([1], 1)",
            "count_ge([1], 1)",
            "mex([0])",
            "gcd(1, 1)",
            "divides(1, 1)",
            "graph6_vertices(\"Bw\")",
            r#"nim("*1")"#,
            "same_set([], [])",
            "has_set([], [])",
            "tr([])",
            "distinct([1])",
            "trail_corner(2, 1)",
            "trail_missed(2, 1)",
            "trail_outside(2, 1)",
            "trail_reaches(2, 1, 1)",
            "trail_labelling_proper(2, 1, 1)",
            "trail_visits(2, 1, 2, 0)",
        ];
        assert_eq!(calls.len(), HELPERS.len());
        for ((name, _), call) in HELPERS.iter().zip(calls) {
            assert!(call.starts_with(&format!("{name}(")), "{call}");
            if let Err(e) = Formula::compile(call).unwrap().eval(&env) {
                assert!(!e.contains("Function not found"), "{call}: {e}");
            }
            assert!(
                err(&format!("{name}()")).contains(&format!("`{name}(")),
                "{name}"
            );
        }
    }
}
