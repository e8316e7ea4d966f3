//! The spec formulas, evaluated by the verifier itself: the rhai scripting language used as a
//! library (it is not grundy's code), with the few functions the specs call registered here from
//! their definitions (gcd, divisibility, parity, sums of lists). Only the spec's parameters and
//! `let` values are in scope: a formula that reads anything else (a game feature such as
//! `n_star_sizes`, which grundy computes from the game) cannot be evaluated here, and the claim
//! is then reported "not re-derived", never verified.

use rhai::{Dynamic, Engine, Scope, AST, INT};
use std::cell::RefCell;
use std::collections::HashMap;

/// A value a formula gives: the verifier needs integers, booleans and strings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Val {
    Int(i64),
    Bool(bool),
    Str(String),
    List(Vec<i64>),
}

/// Why a formula gave no value: it reads something the verifier does not compute (the claim
/// cannot be re-derived), or it is wrong (an error of the spec, reported as such).
#[derive(Debug)]
pub enum FormulaError {
    NotEvaluable(String),
    Failed(String),
}

impl std::fmt::Display for FormulaError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FormulaError::NotEvaluable(m) | FormulaError::Failed(m) => f.write_str(m),
        }
    }
}

fn gcd(a: INT, b: INT) -> INT {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a as INT
}

/// The engine with the specs' functions, and each formula compiled once.
pub struct Evaluator {
    engine: Engine,
    compiled: RefCell<HashMap<String, AST>>,
}

pub fn engine() -> Evaluator {
    Evaluator {
        engine: new_engine(),
        compiled: RefCell::new(HashMap::new()),
    }
}

/// The engine with the specs' functions; bounded so that no formula runs for long.
fn new_engine() -> Engine {
    let mut e = Engine::new();
    e.set_max_operations(1_000_000);
    e.set_max_expr_depths(64, 32);
    e.set_max_array_size(100_000);
    e.set_max_string_size(10_000);
    e.register_fn("gcd", gcd);
    // a | b: b is a multiple of a (0 divides only 0).
    e.register_fn(
        "divides",
        |a: INT, b: INT| {
            if a == 0 {
                b == 0
            } else {
                b % a == 0
            }
        },
    );
    e.register_fn("pty", |a: INT| a.rem_euclid(2));
    e.register_fn("pty", |a: rhai::Array| -> rhai::Array {
        a.into_iter()
            .map(|x| Dynamic::from(x.as_int().unwrap_or(0).rem_euclid(2)))
            .collect()
    });
    e.register_fn("abs", |a: INT| a.abs());
    e.register_fn("sum", |a: rhai::Array| -> INT {
        a.iter().map(|x| x.as_int().unwrap_or(0)).sum()
    });
    e.register_fn("count_ge", |a: rhai::Array, k: INT| -> INT {
        a.iter()
            .filter(|x| x.as_int().is_ok_and(|v| v >= k))
            .count() as INT
    });
    let ints = |a: &rhai::Array| -> Vec<INT> { a.iter().filter_map(|x| x.as_int().ok()).collect() };
    e.register_fn("max", move |a: rhai::Array| {
        ints(&a).into_iter().max().unwrap_or(0)
    });
    e.register_fn("min", move |a: rhai::Array| {
        ints(&a).into_iter().min().unwrap_or(0)
    });
    e.register_fn("count", move |a: rhai::Array, k: INT| {
        ints(&a).into_iter().filter(|&x| x == k).count() as INT
    });
    // nim("G"): the verifier's own nim-value of the game named G (crate::solve).
    e.register_fn(
        "nim",
        |name: &str| -> Result<INT, Box<rhai::EvalAltResult>> {
            crate::solve::nim_of_name(name)
                .map(INT::from)
                .map_err(|m| format!("Function not found: nim({name}) ({m})").into())
        },
    );
    // graph6_vertices(G): the number of vertices of a graph in graph6 (a `graphs:` parameter).
    e.register_fn(
        "graph6_vertices",
        |g: &str| -> Result<INT, Box<rhai::EvalAltResult>> {
            let g = g.strip_prefix("graph6:").unwrap_or(g);
            crate::names::parse_graph(&format!("graph6:{g}"))
                .map(|h| h.n as INT)
                .map_err(|m| m.into())
        },
    );
    // Over sets of vertex names and families of them (`sets` specs, crate::sets): a set is
    // an array of strings, its order immaterial.
    e.register_fn("same_set", |a: rhai::Array, b: rhai::Array| {
        name_set(&a) == name_set(&b)
    });
    e.register_fn("has_set", |family: rhai::Array, s: rhai::Array| {
        let s = name_set(&s);
        family
            .iter()
            .any(|m| m.clone().into_array().is_ok_and(|m| name_set(&m) == s))
    });
    e.register_fn(
        "tr",
        |family: rhai::Array| -> Result<rhai::Array, Box<rhai::EvalAltResult>> {
            let sets: Vec<std::collections::BTreeSet<String>> = family
                .iter()
                .map(|m| m.clone().into_array().map(|m| name_set(&m)))
                .collect::<Result<_, _>>()
                .map_err(|_| "tr: a family is an array of sets".to_string())?;
            let members = crate::sets::transversals(&sets).map_err(|m| m.to_string())?;
            Ok(members
                .into_iter()
                .map(|t| Dynamic::from_array(t.into_iter().map(Dynamic::from).collect()))
                .collect())
        },
    );
    // Seed 002's trail (Lemmas 9 and 10, Remark 12), crate::trail.
    crate::trail::register(&mut e);
    e.register_fn("distinct", |a: rhai::Array| -> rhai::Array {
        let mut v: Vec<INT> = a.iter().filter_map(|x| x.as_int().ok()).collect();
        v.sort_unstable();
        v.dedup();
        v.into_iter().map(Dynamic::from).collect()
    });
    e
}

/// A set of names as a sorted set (an element that is not a string is read as its text).
fn name_set(a: &rhai::Array) -> std::collections::BTreeSet<String> {
    a.iter().map(|x| x.to_string()).collect()
}

impl Evaluator {
    /// `src` compiled once (an expression, else a script).
    fn compiled(&self, src: &str) -> Result<AST, String> {
        let mut cache = self.compiled.borrow_mut();
        if let Some(a) = cache.get(src) {
            return Ok(a.clone());
        }
        let a = self
            .engine
            .compile_expression(src)
            .or_else(|_| self.engine.compile(src))
            .map_err(|e| e.to_string())?;
        cache.insert(src.to_string(), a.clone());
        Ok(a)
    }

    /// Evaluates the truth value `src` in a scope the caller built (a `sets` rule over every
    /// subset, with the families, `V` and `adj` in it).
    pub fn eval_bool_in(&self, scope: &mut Scope, src: &str) -> Result<bool, FormulaError> {
        let ast = self.compiled(src).map_err(|m| not_evaluable(src, m))?;
        let d = self
            .engine
            .eval_ast_with_scope::<Dynamic>(scope, &ast)
            .map_err(|e| not_evaluable(src, e.to_string()))?;
        d.as_bool()
            .map_err(|_| FormulaError::Failed(format!("`{src}` is not a truth value")))
    }
}

/// An unknown variable or function means the formula reads what the verifier does not
/// compute; any other failure is the spec's error.
fn not_evaluable(src: &str, m: String) -> FormulaError {
    if m.contains("Variable not found") || m.contains("Function not found") {
        FormulaError::NotEvaluable(format!(
            "`{src}` reads what the verifier does not compute ({m})"
        ))
    } else {
        FormulaError::Failed(format!("`{src}`: {m}"))
    }
}

/// The variables in scope: parameters, then `let` values, in order.
#[derive(Clone, Default)]
pub struct Env {
    pub vars: Vec<(String, Val)>,
}

impl Env {
    pub fn set(&mut self, k: &str, v: Val) {
        self.vars.retain(|(n, _)| n != k);
        self.vars.push((k.to_string(), v));
    }

    pub fn scope(&self) -> Scope<'static> {
        let mut s = Scope::new();
        for (k, v) in &self.vars {
            let d = match v {
                Val::Int(i) => Dynamic::from(*i),
                Val::Bool(b) => Dynamic::from(*b),
                Val::Str(t) => Dynamic::from(t.clone()),
                Val::List(l) => Dynamic::from_array(l.iter().map(|&x| Dynamic::from(x)).collect()),
            };
            s.push_dynamic(k.clone(), d);
        }
        s
    }

    /// Evaluates `src`; an unknown variable or function means the formula reads what the
    /// verifier does not compute.
    pub fn eval(&self, ev: &Evaluator, src: &str) -> Result<Val, FormulaError> {
        let ast = ev.compiled(src).map_err(|m| not_evaluable(src, m))?;
        let mut scope = self.scope();
        let d = ev
            .engine
            .eval_ast_with_scope::<Dynamic>(&mut scope, &ast)
            .map_err(|e| not_evaluable(src, e.to_string()))?;
        if let Ok(i) = d.as_int() {
            return Ok(Val::Int(i));
        }
        if let Ok(b) = d.as_bool() {
            return Ok(Val::Bool(b));
        }
        if d.is_string() {
            return Ok(Val::Str(d.into_string().unwrap_or_default()));
        }
        if d.is_array() {
            let a = d.into_array().unwrap_or_default();
            let l: Option<Vec<i64>> = a.iter().map(|x| x.as_int().ok()).collect();
            if let Some(l) = l {
                return Ok(Val::List(l));
            }
        }
        Err(FormulaError::Failed(format!(
            "`{src}` gives a value that is not an integer, boolean or string"
        )))
    }

    pub fn eval_bool(&self, engine: &Evaluator, src: &str) -> Result<bool, FormulaError> {
        match self.eval(engine, src)? {
            Val::Bool(b) => Ok(b),
            v => Err(FormulaError::Failed(format!(
                "`{src}` is {v:?}, not a truth value"
            ))),
        }
    }

    pub fn eval_int(&self, engine: &Evaluator, src: &str) -> Result<i64, FormulaError> {
        match self.eval(engine, src)? {
            Val::Int(i) => Ok(i),
            v => Err(FormulaError::Failed(format!(
                "`{src}` is {v:?}, not an integer"
            ))),
        }
    }
}
