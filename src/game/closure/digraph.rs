//! Digraphs with directed geodesics (seed 000 §6 question 4: "directed graphs such as the
//! Hasse diagram of a poset and the Cayley digraph for a group"): z is in the interval of x and
//! y when it lies on a shortest directed path from x to y. Written `digraph:<path>` (a DOT
//! `digraph`, edges `a -> b`) or inline `Digraph(a->b, b->c)`. The selected closure is the hull
//! (default: intervals iterated) or `--closure geodetic` (one step); the monophonic hull is not
//! defined here. Shares [`super::metric`].

use super::metric::{read_dot, read_file, MetricOperator};
use super::{ClosureOperator, Operator};
use crate::game::family::FormDoc;
use crate::graph::Closure;
use std::sync::Arc;

pub const OPERATOR: Operator = Operator {
    kind: "digraph",
    about: "digraphs (digraph:<path> in DOT, or Digraph(a->b, ..)): directed geodesics",
    forms: &[
        FormDoc {
            syntax: "Digraph(a->b,..)",
            example: "DNG(Digraph(a->b, b->c, c->a))",
            meaning: "a digraph under the directed-geodesic hull (digraph-geodetic: one step)",
        },
        FormDoc {
            syntax: "digraph:<path>",
            example: "GEN(digraph:g.dot)",
            meaning: "a digraph read from a DOT file",
        },
    ],
    read: |text, closure| {
        let t = text.trim();
        let body = if let Some(path) = t.strip_prefix("digraph:") {
            return Some(
                read_file(path)
                    .and_then(|b| build(t, &b, closure))
                    .map(super::read_from_file),
            );
        } else if let Some(inner) = t.strip_prefix("Digraph(") {
            match inner.strip_suffix(')') {
                Some(arcs) => Ok(format!("digraph {{ {} }}", arcs.replace(',', ";"))),
                None => Err("Digraph(..) is never closed".into()),
            }
        } else {
            return None;
        };
        Some(body.and_then(|b| build(t, &b, closure)))
    },
};

fn build(name: &str, body: &str, closure: Closure) -> Result<Arc<dyn ClosureOperator>, String> {
    let dot = read_dot(body)?;
    if !dot.directed {
        return Err(format!("{name}: not a digraph (write `digraph` and `->`)"));
    }
    // Digraphs have a metric, so only closures built on geodesics extend to them.
    if !closure.geodesic() {
        return Err(format!(
            "the {closure} closure is defined for undirected graphs only (digraphs take the geodesic closures: {})",
            geodesic_names()
        ));
    }
    let (kind, iterate) = if closure.iterated() {
        ("digraph", true)
    } else {
        ("digraph-geodetic", false)
    };
    // Directed geodesics count arcs: every arc has length 1 (weights are ignored here).
    let arcs: Vec<(usize, usize, u64)> = dot.edges.iter().map(|&(a, b, _)| (a, b, 1)).collect();
    let n_arcs = arcs.len();
    MetricOperator::new(kind, name.to_string(), dot.names, &arcs, iterate, n_arcs)
        .map(|op| Arc::new(op) as Arc<dyn ClosureOperator>)
}

/// The registered graph closures built on geodesics, which extend to metrics (digraphs,
/// weighted graphs).
pub(super) fn geodesic_names() -> String {
    crate::graph::closures::all()
        .into_iter()
        .filter(|c| c.geodesic())
        .map(|c| c.name())
        .collect::<Vec<_>>()
        .join(", ")
}
