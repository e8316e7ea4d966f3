//! Weighted graphs with weighted geodesics (seed 000 §6 question 4): z is in the interval of x
//! and y when it lies on a path of least total weight between them. Written inline
//! `Weighted(a-b:2, b-c, a-c:3)` (edges `u-v` with an optional positive integer weight `:k`,
//! 1 when absent; chains `a-b-c:2` give each of their edges the weight; a lone name is a
//! vertex) or `weighted:<path>`, a DOT `graph` whose edges carry `[weight=k]`. The selected
//! closure is the hull (default) or `--closure geodetic` (one step). With every weight 1 it is
//! the graph's own convexity. Shares [`super::metric`].
//!
//! Vertex names of the inline form are identifiers (letters, digits and `_`: a number or a
//! name not starting with a digit), so that a name means the same graph to grundy-verify,
//! which rebuilds it from the certificate's name alone. Self-loops, an edge given twice with
//! different weights, weights outside 1..=[`MAX_WEIGHT`] and more than
//! [`super::metric::MAX_VERTICES`] vertices are refused, in files as inline.

use super::metric::{read_dot, read_file, MetricOperator, MAX_VERTICES, MAX_WEIGHT};
use super::{ClosureOperator, Operator};
use crate::game::family::FormDoc;
use crate::graph::Closure;
use std::collections::HashMap;
use std::sync::Arc;

pub const OPERATOR: Operator = Operator {
    kind: "weighted",
    about: "weighted graphs (Weighted(a-b:2, b-c), or weighted:<path> in DOT with [weight=k]): weighted geodesics",
    forms: &[
        FormDoc { syntax: "Weighted(a-b:k,..)", example: "GEN(Weighted(a-b:2, b-c, a-c:3))", meaning: "a graph with edge weights (1 when omitted) under the weighted-geodesic hull" },
        FormDoc { syntax: "weighted:<path>", example: "GEN(weighted:g.dot)", meaning: "a weighted graph read from a DOT file ([weight=k])" },
    ],
    read: |text, closure| {
        let t = text.trim();
        if let Some(path) = t.strip_prefix("weighted:") {
            return Some(
                read_file(path)
                    .and_then(|b| build(t, &b, closure))
                    .map(super::read_from_file),
            );
        }
        let inner = t.strip_prefix("Weighted(")?;
        Some(match inner.strip_suffix(')') {
            Some(items) => inline(t, items, closure),
            None => Err("Weighted(..) is never closed".into()),
        })
    },
};

/// A weighted graph from a DOT body (the `weighted:<path>` files).
pub fn build(name: &str, body: &str, closure: Closure) -> Result<Arc<dyn ClosureOperator>, String> {
    let dot = read_dot(body)?;
    if dot.directed {
        return Err(format!(
            "{name}: a digraph; weighted graphs are undirected (`graph`, `--`)"
        ));
    }
    let mut edges = Edges::default();
    for &(a, b, w) in &dot.edges {
        edges.add(&dot.names, a, b, w)?;
    }
    finish(name, dot.names, edges, closure)
}

/// Whether `s` is a vertex name of the inline form: letters, digits and `_`, either a number
/// or not starting with a digit (the names grundy-verify reads too).
fn identifier(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'_')
        && (b.iter().all(u8::is_ascii_digit) || !b[0].is_ascii_digit())
}

/// `a-b:2, b-c-d, e`: the items between the parentheses of `Weighted(..)`.
fn inline(name: &str, items: &str, closure: Closure) -> Result<Arc<dyn ClosureOperator>, String> {
    let mut names: Vec<String> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    let mut edges = Edges::default();
    for item in items.split(',') {
        let item = item.trim();
        if item.is_empty() {
            return Err(if items.trim().is_empty() {
                "Weighted(): no vertices".into()
            } else {
                "Weighted(..): an empty item between commas".into()
            });
        }
        let (chain, weight) = match item.split_once(':') {
            Some((c, w)) => {
                let w = w.trim();
                // Digits only: `+2` would parse too, and names are compared as text.
                let weight = Some(w)
                    .filter(|w| w.bytes().all(|c| c.is_ascii_digit()))
                    .and_then(|w| w.parse::<u64>().ok())
                    .filter(|x| (1..=MAX_WEIGHT).contains(x))
                    .ok_or_else(|| {
                        format!(
                            "Weighted(..): the weight `{w}` of `{c}` is not an integer in 1..={MAX_WEIGHT}"
                        )
                    })?;
                (c, Some(weight))
            }
            None => (item, None),
        };
        let mut ids = Vec::new();
        for v in chain.split('-').map(str::trim) {
            if v.is_empty() {
                return Err(format!(
                    "Weighted(..): `{item}`: an edge needs a vertex on both sides of `-`"
                ));
            }
            if !identifier(v) {
                return Err(format!(
                    "Weighted(..): `{v}` is not a vertex name (letters, digits and `_`; a number or a name not starting with a digit)"
                ));
            }
            let i = match index.get(v) {
                Some(&i) => i,
                None => {
                    if names.len() >= MAX_VERTICES {
                        return Err(format!("Weighted(..): more than {MAX_VERTICES} vertices"));
                    }
                    names.push(v.to_string());
                    index.insert(v.to_string(), names.len() - 1);
                    names.len() - 1
                }
            };
            ids.push(i);
        }
        if ids.len() == 1 && weight.is_some() {
            return Err(format!(
                "Weighted(..): `{item}`: a weight needs an edge `u-v:k`"
            ));
        }
        for w in ids.windows(2) {
            edges.add(&names, w[0], w[1], weight.unwrap_or(1))?;
        }
    }
    finish(name, names, edges, closure)
}

/// The edges read so far, each once: `weight[(min, max)]`.
#[derive(Default)]
struct Edges {
    weight: HashMap<(usize, usize), u64>,
    /// In the order first given (for a deterministic edge list).
    order: Vec<(usize, usize)>,
}

impl Edges {
    fn add(&mut self, names: &[String], a: usize, b: usize, w: u64) -> Result<(), String> {
        if a == b {
            return Err(format!(
                "a self-loop at `{}`: weighted graphs have none",
                names[a]
            ));
        }
        let key = (a.min(b), a.max(b));
        match self.weight.get(&key) {
            Some(&old) if old != w => Err(format!(
                "the edge {}-{} is given twice, with weights {old} and {w}",
                names[key.0], names[key.1]
            )),
            Some(_) => Ok(()),
            None => {
                self.weight.insert(key, w);
                self.order.push(key);
                Ok(())
            }
        }
    }
}

fn finish(
    name: &str,
    names: Vec<String>,
    edges: Edges,
    closure: Closure,
) -> Result<Arc<dyn ClosureOperator>, String> {
    if !closure.geodesic() {
        return Err(format!(
            "the {closure} closure ignores weights; use the graph itself (weighted graphs take the geodesic closures: {})",
            super::digraph::geodesic_names()
        ));
    }
    let (kind, iterate) = if closure.iterated() {
        ("weighted", true)
    } else {
        ("weighted-geodetic", false)
    };
    let arcs: Vec<(usize, usize, u64)> = edges
        .order
        .iter()
        .flat_map(|&(a, b)| {
            let w = edges.weight[&(a, b)];
            [(a, b, w), (b, a, w)]
        })
        .collect();
    MetricOperator::new(
        kind,
        name.to_string(),
        names,
        &arcs,
        iterate,
        edges.order.len(),
    )
    .map(|op| Arc::new(op) as Arc<dyn ClosureOperator>)
}
