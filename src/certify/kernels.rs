//! Edge geography outcomes (seed 002, design.md §5) as even-kernel witnesses: for every token
//! of every instance, an even kernel containing the token (a P-position, seed 002 Theorem 2),
//! or a first move followed by an even kernel of the remaining graph containing the token's
//! new vertex (an N-position). The witnesses are found by the GF(2) criterion
//! ([`crate::game::ueg::gf2_verdict`]) rather than by the spec's own construction; what the
//! checker verifies is the verdict (each token's outcome), not the construction. Where the
//! GF(2) criterion finds no witness and the spec gives its play (Thms 14–16 of seed 002), the
//! play itself is the proof tree: our moves, every reply of the opponent, and the kernels.

use super::{Body, MAX_SPEC_POSITIONS};
use crate::check::certificate::Certificate;
use crate::game::ueg::{gf2_verdict, Gf2Verdict};
use serde_json::json;

/// Largest instance (in vertices) certified: GF(2) elimination per token is cubic.
const MAX_VERTICES: usize = 200;

pub(crate) fn certify(c: &Certificate) -> Result<Body, String> {
    let boards = c.instance_boards(MAX_VERTICES).map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    let mut skipped = Vec::new();
    // Budget in vertices and edges listed.
    let mut budget = MAX_SPEC_POSITIONS;
    'instances: for b in boards {
        let n = b.vertices;
        let Some(adj) = b.graph.filter(|_| n <= MAX_VERTICES) else {
            skipped.push((b.instance, format!("more than {MAX_VERTICES} vertices")));
            continue;
        };
        let cost = adj.adj.iter().map(Vec::len).sum::<usize>() / 2 + n * b.tokens.len() / 2;
        if budget < cost {
            // The budget stated, for grundy-verify's recount (verify/src/exempt.rs).
            skipped.push((
                b.instance,
                format!(
                    "past the per-spec budget of {MAX_SPEC_POSITIONS} vertices and edges listed"
                ),
            ));
            continue;
        }
        let mut edges = Vec::new();
        for (a, ns) in adj.adj.iter().enumerate() {
            edges.extend(ns.iter().filter(|&&x| a < x).map(|&x| (a, x)));
        }
        let graph = json!({ "n": n, "edges": &edges });
        let mut certs = Vec::new();
        for (k, &t) in b.tokens.iter().enumerate() {
            let (proof, size) = match gf2_verdict(&adj, t) {
                // The spec's own play, where it gives one (Thms 14–16): a tree of moves,
                // every reply and the kernels, each checked by the verifier.
                Err(_) if b.plays.get(k).is_some_and(Option::is_some) => {
                    let p = b.plays[k].clone().expect("checked above");
                    let size = vertices_named(&p);
                    (p, size)
                }
                Err(e) => {
                    skipped.push((b.instance, format!("no GF(2) witness: {e}")));
                    continue 'instances;
                }
                Ok(v) if v.is_p() != b.claimed_p => {
                    skipped.push((b.instance, "the GF(2) criterion disagrees".into()));
                    continue 'instances;
                }
                Ok(Gf2Verdict::P { kernel }) => (json!({ "kernel": kernel }), kernel.len()),
                Ok(Gf2Verdict::N { to, kernel }) => (
                    json!({ "move": { "to": to, "then": { "kernel": kernel } } }),
                    kernel.len(),
                ),
            };
            budget = budget.saturating_sub(size);
            certs.push(json!({ "token": t, "proof": proof }));
        }
        budget = budget.saturating_sub(edges.len());
        out.push(json!({
            "instance": b.instance,
            "graph": graph,
            "outcome": if b.claimed_p { "P" } else { "N" },
            "tokens": certs,
        }));
    }
    if out.is_empty() {
        let why = skipped
            .first()
            .map_or("no instance".to_string(), |(i, w)| format!("{i}: {w}"));
        return Err(format!("no instance fits (first: {why})"));
    }
    Ok(Body {
        kind: "kernels",
        certified: out.len(),
        data: json!({ "instances": out }),
        skipped,
    })
}

/// The vertices a proof tree names (its size against the budget).
fn vertices_named(p: &serde_json::Value) -> usize {
    match p {
        serde_json::Value::Number(_) => 1,
        serde_json::Value::Array(a) => a.iter().map(vertices_named).sum(),
        serde_json::Value::Object(o) => o.values().map(vertices_named).sum(),
        _ => 0,
    }
}
