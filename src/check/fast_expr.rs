//! A native evaluator for the simplest formulas: integer and boolean expressions over
//! variables (`+ - * / %`, comparisons, `! && ||`, and the helpers `pty`, `gcd`, `divides`,
//! `abs`), compiled from rhai's own syntax tree.
//!
//! Kernel and token predicates of seed 002 are evaluated at every vertex of thousands of
//! stacked prisms, claims at every reachable position: rhai's per-call set-up (a fresh scope,
//! function resolution) was most of that time. A formula compiles here only if every node is
//! one of the above; at run time any case where rhai's answer is not plainly the same value
//! (a variable that is missing or not an integer or boolean, a type mismatch, overflow,
//! division by zero) gives `None`, and the caller evaluates the formula with rhai instead, which
//! then gives its usual value or error. So a result of this module is always rhai's result.

use rhai::{Dynamic, Expr, FnCallExpr, Stmt, AST};

/// A compiled formula: its tree and the names of the variables it reads.
#[derive(Clone, Debug)]
pub struct Fast {
    node: Node,
    pub vars: Vec<String>,
}

#[derive(Clone, Debug)]
enum Node {
    Int(i64),
    Bool(bool),
    Var(usize),
    Not(Box<Node>),
    Neg(Box<Node>),
    Bin(Op, Box<Node>, Box<Node>),
    And(Vec<Node>),
    Or(Vec<Node>),
    Call(Func, Vec<Node>),
}

#[derive(Clone, Copy, Debug)]
enum Op {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

#[derive(Clone, Copy, Debug)]
enum Func {
    Pty,
    Gcd,
    Divides,
    Abs,
}

/// A value of the evaluator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum V {
    I(i64),
    B(bool),
}

impl V {
    pub fn to_dynamic(self) -> Dynamic {
        match self {
            V::I(i) => Dynamic::from_int(i),
            V::B(b) => Dynamic::from_bool(b),
        }
    }

    /// An integer or boolean rhai value.
    pub fn from_dynamic(d: &Dynamic) -> Option<V> {
        if let Ok(i) = d.as_int() {
            Some(V::I(i))
        } else {
            d.as_bool().ok().map(V::B)
        }
    }
}

impl Fast {
    /// The formula compiled, if it is a single expression made only of supported nodes.
    pub fn compile(ast: &AST) -> Option<Fast> {
        if ast.iter_functions().next().is_some() {
            return None;
        }
        let mut vars = Vec::new();
        let node = match ast.statements() {
            [Stmt::Expr(e)] => compile(e, &mut vars)?,
            // A call at the top is a statement of its own in rhai's tree.
            [Stmt::FnCall(f, _)] => compile_call(f, &mut vars)?,
            _ => return None,
        };
        Some(Fast { node, vars })
    }

    /// The value for the variables' values in the order of [`Fast::vars`]; `None` where
    /// rhai must decide.
    #[inline]
    pub fn eval(&self, vals: &[V]) -> Option<V> {
        eval(&self.node, vals)
    }
}

fn compile(e: &Expr, vars: &mut Vec<String>) -> Option<Node> {
    Some(match e {
        Expr::IntegerConstant(i, _) => Node::Int(*i),
        Expr::BoolConstant(b, _) => Node::Bool(*b),
        Expr::DynamicConstant(d, _) => match V::from_dynamic(d)? {
            V::I(i) => Node::Int(i),
            V::B(b) => Node::Bool(b),
        },
        Expr::Variable(x, _, _) => {
            if !x.2.is_empty() {
                return None;
            }
            let name = x.1.as_str();
            let i = match vars.iter().position(|v| v == name) {
                Some(i) => i,
                None => {
                    vars.push(name.to_string());
                    vars.len() - 1
                }
            };
            Node::Var(i)
        }
        Expr::And(xs, _) => Node::And(xs.iter().map(|x| compile(x, vars)).collect::<Option<_>>()?),
        Expr::Or(xs, _) => Node::Or(xs.iter().map(|x| compile(x, vars)).collect::<Option<_>>()?),
        Expr::FnCall(f, _) => compile_call(f, vars)?,
        _ => return None,
    })
}

fn compile_call(f: &FnCallExpr, vars: &mut Vec<String>) -> Option<Node> {
    if !f.namespace.is_empty() || f.capture_parent_scope {
        return None;
    }
    let args: Vec<Node> = f
        .args
        .iter()
        .map(|x| compile(x, vars))
        .collect::<Option<_>>()?;
    let bin = |op| {
        let [a, b]: [Node; 2] = args.clone().try_into().ok()?;
        Some(Node::Bin(op, Box::new(a), Box::new(b)))
    };
    Some(match (f.name.as_str(), args.len()) {
        ("+", 2) => bin(Op::Add)?,
        ("-", 2) => bin(Op::Sub)?,
        ("*", 2) => bin(Op::Mul)?,
        ("/", 2) => bin(Op::Div)?,
        ("%", 2) => bin(Op::Rem)?,
        ("==", 2) => bin(Op::Eq)?,
        ("!=", 2) => bin(Op::Ne)?,
        ("<", 2) => bin(Op::Lt)?,
        ("<=", 2) => bin(Op::Le)?,
        (">", 2) => bin(Op::Gt)?,
        (">=", 2) => bin(Op::Ge)?,
        ("!", 1) => Node::Not(Box::new(args.into_iter().next()?)),
        ("-", 1) => Node::Neg(Box::new(args.into_iter().next()?)),
        ("pty", 1) => Node::Call(Func::Pty, args),
        ("abs", 1) => Node::Call(Func::Abs, args),
        ("gcd", 2) => Node::Call(Func::Gcd, args),
        ("divides", 2) => Node::Call(Func::Divides, args),
        _ => return None,
    })
}

fn eval(n: &Node, vals: &[V]) -> Option<V> {
    Some(match n {
        Node::Int(i) => V::I(*i),
        Node::Bool(b) => V::B(*b),
        Node::Var(i) => *vals.get(*i)?,
        Node::Not(a) => match eval(a, vals)? {
            V::B(b) => V::B(!b),
            V::I(_) => return None,
        },
        Node::Neg(a) => match eval(a, vals)? {
            V::I(i) => V::I(i.checked_neg()?),
            V::B(_) => return None,
        },
        // `&&` stops at the first false, `||` at the first true.
        Node::And(xs) => short_circuit(xs, vals, false)?,
        Node::Or(xs) => short_circuit(xs, vals, true)?,
        Node::Bin(op, a, b) => {
            let (a, b) = (eval(a, vals)?, eval(b, vals)?);
            match (a, b) {
                (V::I(x), V::I(y)) => match op {
                    Op::Add => V::I(x.checked_add(y)?),
                    Op::Sub => V::I(x.checked_sub(y)?),
                    Op::Mul => V::I(x.checked_mul(y)?),
                    Op::Div => V::I(x.checked_div(y)?),
                    Op::Rem => V::I(x.checked_rem(y)?),
                    Op::Eq => V::B(x == y),
                    Op::Ne => V::B(x != y),
                    Op::Lt => V::B(x < y),
                    Op::Le => V::B(x <= y),
                    Op::Gt => V::B(x > y),
                    Op::Ge => V::B(x >= y),
                },
                (V::B(x), V::B(y)) => match op {
                    Op::Eq => V::B(x == y),
                    Op::Ne => V::B(x != y),
                    _ => return None,
                },
                _ => return None,
            }
        }
        Node::Call(f, args) => {
            let mut ints = [0i64; 2];
            for (slot, a) in ints.iter_mut().zip(args) {
                match eval(a, vals)? {
                    V::I(i) => *slot = i,
                    V::B(_) => return None,
                }
            }
            let [x, y] = ints;
            match f {
                Func::Pty => V::I(x.rem_euclid(2)),
                Func::Abs => V::I(x.checked_abs()?),
                Func::Gcd => {
                    let g = super::formula::gcd(x, y);
                    if g < 0 {
                        return None;
                    }
                    V::I(g)
                }
                Func::Divides => V::B(super::formula::divides(x, y)),
            }
        }
    })
}

/// The operands in order until one is `stop` (the result), else `!stop`; `None` if an
/// operand is not a boolean.
fn short_circuit(xs: &[Node], vals: &[V], stop: bool) -> Option<V> {
    for x in xs {
        match eval(x, vals)? {
            V::B(b) if b == stop => return Some(V::B(stop)),
            V::B(_) => {}
            V::I(_) => return None,
        }
    }
    Some(V::B(!stop))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::formula::engine;

    fn rhai_value(src: &str, names: &[&str], vals: &[i64]) -> Result<V, String> {
        let mut scope = rhai::Scope::new();
        for (n, v) in names.iter().zip(vals) {
            scope.push(n.to_string(), *v);
        }
        let ast = engine()
            .compile_expression(src)
            .map_err(|e| e.to_string())?;
        let d = engine()
            .eval_ast_with_scope::<Dynamic>(&mut scope, &ast)
            .map_err(|e| e.to_string())?;
        V::from_dynamic(&d).ok_or_else(|| "not int or bool".into())
    }

    fn fast_value(src: &str, names: &[&str], vals: &[i64]) -> Option<V> {
        let ast = engine().compile_expression(src).ok()?;
        let f = Fast::compile(&ast)
            .unwrap_or_else(|| panic!("{src} compiles natively: {:#?}", ast.statements()));
        let vs: Vec<V> = f
            .vars
            .iter()
            .map(|v| V::I(vals[names.iter().position(|n| n == v).unwrap()]))
            .collect();
        f.eval(&vs)
    }

    /// Random expressions over i and j agree with rhai wherever the native evaluator answers,
    /// and it answers on most of them (the test would be empty otherwise).
    #[test]
    fn agrees_with_rhai_on_random_expressions() {
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move |k: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % k
        };
        fn int_expr(d: u32, r: &mut dyn FnMut(u64) -> u64) -> String {
            if d == 0 {
                return match r(6) {
                    0 => "i".into(),
                    1 => "j".into(),
                    2 => "9223372036854775807".into(),
                    3 => format!("{}", r(7) as i64 - 3),
                    _ => format!("{}", r(40)),
                };
            }
            let a = int_expr(d - 1, r);
            let b = int_expr(d - 1, r);
            match r(10) {
                0 => format!("({a} + {b})"),
                1 => format!("({a} - {b})"),
                2 => format!("({a} * {b})"),
                3 => format!("({a} / {b})"),
                4 => format!("({a} % {b})"),
                5 => format!("abs({a})"),
                6 => format!("pty({a})"),
                7 => format!("gcd({a}, {b})"),
                8 => format!("-{a}"),
                _ => a,
            }
        }
        fn bool_expr(d: u32, r: &mut dyn FnMut(u64) -> u64) -> String {
            let a = int_expr(d, r);
            let b = int_expr(d, r);
            let atom = match r(8) {
                0 => format!("{a} == {b}"),
                1 => format!("{a} != {b}"),
                2 => format!("{a} < {b}"),
                3 => format!("{a} <= {b}"),
                4 => format!("{a} > {b}"),
                5 => format!("{a} >= {b}"),
                6 => format!("divides({a}, {b})"),
                _ => format!("!divides({a}, {b})"),
            };
            if d == 0 {
                return atom;
            }
            let other = bool_expr(d - 1, r);
            match r(4) {
                0 => format!("({atom}) && ({other})"),
                1 => format!("({atom}) || ({other})"),
                2 => format!("!({atom})"),
                _ => format!("({atom}) == ({other})"),
            }
        }
        let names = ["i", "j"];
        let (mut answered, mut total) = (0, 0);
        for k in 0..3000 {
            let src = if k % 2 == 0 {
                int_expr(1 + (k % 3) as u32, &mut next)
            } else {
                bool_expr(1 + (k % 3) as u32, &mut next)
            };
            for _ in 0..4 {
                let vals = [next(41) as i64 - 20, next(41) as i64 - 20];
                total += 1;
                if let Some(v) = fast_value(&src, &names, &vals) {
                    answered += 1;
                    assert_eq!(Ok(v), rhai_value(&src, &names, &vals), "{src} at {vals:?}");
                }
            }
        }
        assert!(answered * 10 > total * 7, "answered {answered} of {total}");
    }

    #[test]
    fn errors_and_other_types_are_left_to_rhai() {
        // Overflow, division by zero, a boolean where an integer is expected.
        for src in [
            "i * 9223372036854775807",
            "j / 0",
            "i % 0",
            "!i",
            "i == true",
        ] {
            assert_eq!(fast_value(src, &["i", "j"], &[3, 4]), None, "{src}");
            assert!(rhai_value(src, &["i", "j"], &[3, 4]).is_err() || src.contains("true"));
        }
        // Features the evaluator does not know are not compiled at all.
        for src in [
            "[1, 2].len()",
            "if i > 0 { 1 } else { 2 }",
            "i ** 2",
            "S.contains(1)",
        ] {
            let ast = engine().compile_expression(src).unwrap();
            assert!(Fast::compile(&ast).is_none(), "{src}");
        }
        // The seed 002 kernel of Thm 7, specialised to d = 4, dp = 2.
        let src = "abs(i - (i / 4) * 4 - 2) + abs(j - (j / 4) * 4 - 2) < 2 && (i + j + 2) % 2 == 1";
        for i in 0..8 {
            for j in 0..8 {
                assert_eq!(
                    fast_value(src, &["i", "j"], &[i, j]).map(Ok),
                    Some(rhai_value(src, &["i", "j"], &[i, j]))
                );
            }
        }
    }
}
