//! Weighted graphs with weighted geodesics (seed 000 §6 question 4): z is in the interval of x
//! and y when it lies on a path of least total weight between them. Written `weighted:<path>`,
//! a DOT `graph` whose edges carry `[weight=k]` (positive integers; 1 when absent). The
//! selected closure is the hull (default) or `--closure geodetic` (one step). With every
//! weight 1 it is the graph's own convexity. Shares [`super::metric`].

use super::metric::{read_dot, read_file, MetricOperator};
use super::{ClosureOperator, Operator};
use crate::graph::Closure;
use std::sync::Arc;

pub const OPERATOR: Operator = Operator {
    kind: "weighted",
    about: "weighted graphs (weighted:<path>, DOT with [weight=k]): weighted geodesics",
    read: |text, closure| {
        let path = text.trim().strip_prefix("weighted:")?;
        Some(read_file(path).and_then(|b| build(text.trim(), &b, closure)))
    },
};

pub fn build(name: &str, body: &str, closure: Closure) -> Result<Arc<dyn ClosureOperator>, String> {
    let dot = read_dot(body)?;
    if dot.directed {
        return Err(format!(
            "{name}: a digraph; weighted graphs are undirected (`graph`, `--`)"
        ));
    }
    let (kind, iterate) = match closure {
        Closure::Hull => ("weighted", true),
        Closure::Geodetic => ("weighted-geodetic", false),
        Closure::Monophonic => {
            return Err("the monophonic hull ignores weights; use the graph itself".into())
        }
    };
    let arcs: Vec<(usize, usize, u64)> = dot
        .edges
        .iter()
        .flat_map(|&(a, b, w)| [(a, b, w), (b, a, w)])
        .collect();
    let n_edges = dot.edges.len();
    MetricOperator::new(kind, name.to_string(), dot.names, &arcs, iterate, n_edges)
        .map(|op| Arc::new(op) as Arc<dyn ClosureOperator>)
}
