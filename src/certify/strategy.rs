//! Strategies of case analysis diagrams (design.md §3, paper Remark 5.34): for each group of
//! start games, every (node, position) pair the validated strategy meets, with every option
//! and the node covering it at P-nodes, the reply chosen at the others, and sinks; `*0` sinks
//! come with a nim-value table of their positions. References to other diagrams are named;
//! they rest on those diagrams' own certificates.

use super::{encode, nim_table, Body, MAX_SPEC_POSITIONS};
use crate::check::diagram::{Diagram, Family, Sink, StrategyStep};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::Arc;

/// `a` widened to hold `b`'s positions too: nimbers take the larger heap (start games of one
/// group differ only in their start and their nimber components).
fn widen(a: &mut Value, b: &Value) {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (k, v) in x.iter_mut() {
                if let Some(w) = y.get(k) {
                    if k == "nim" {
                        let m = v.as_u64().max(w.as_u64()).unwrap_or(0);
                        *v = json!(m);
                    } else {
                        widen(v, w);
                    }
                }
            }
        }
        (Value::Array(x), Value::Array(y)) => {
            for (v, w) in x.iter_mut().zip(y) {
                widen(v, w);
            }
        }
        _ => {}
    }
}

/// The start families of the diagram specs checked valid, by id.
pub(crate) type Families = HashMap<String, Arc<Family>>;

pub(crate) fn certify(d: &Diagram, all: &Families) -> Result<Body, String> {
    let mut families = HashMap::new();
    for r in d.references() {
        let f = all
            .get(&r)
            .ok_or_else(|| format!("referenced diagram {r} is not a checked diagram spec"))?;
        families.insert(r, f.clone());
    }
    let groups = d
        .strategy(&families)
        .map_err(|e| e.to_string())?
        .ok_or("the strategy was not found valid")?;
    let names: Vec<&str> = d.nodes.iter().map(|n| n.name.as_str()).collect();
    let nodes: serde_json::Map<String, Value> = d
        .nodes
        .iter()
        .map(|n| (n.name.clone(), json!(n.p_node)))
        .collect();
    let arrows = |reply: bool| -> Vec<(&str, &str)> {
        d.arrows
            .iter()
            .filter(|a| a.style.is_reply() == reply)
            .map(|a| (names[a.from], names[a.to]))
            .collect()
    };
    let mut out = Vec::new();
    let mut budget = MAX_SPEC_POSITIONS;
    for g in &groups {
        let mut desc = encode::game(&g.games[0])?;
        for other in &g.games[1..] {
            widen(&mut desc, &encode::game(other)?);
        }
        if g.steps.len() > budget {
            return Err(format!(
                "the strategy meets more than {MAX_SPEC_POSITIONS} positions (the per-spec budget)"
            ));
        }
        budget -= g.steps.len();
        let mut zero = Vec::new();
        let steps: Vec<Value> = g
            .steps
            .iter()
            .map(|(node, p, step)| {
                let mut s = json!({ "pos": encode::pos(p), "node": names[*node] });
                match step {
                    StrategyStep::Sink => {
                        s["sink"] = json!(match &d.nodes[*node].sink {
                            Some(Sink::Zero) => {
                                zero.push(p.clone());
                                "*0".to_string()
                            }
                            Some(Sink::Ref { diagram, .. }) => format!("ref:{diagram}"),
                            _ => "terminal".to_string(),
                        })
                    }
                    StrategyStep::Cover(c) => {
                        s["options"] = Value::Array(
                            c.iter()
                                .map(|(q, t)| json!([encode::pos(q), names[*t]]))
                                .collect(),
                        )
                    }
                    StrategyStep::Reply(q, t) => s["reply"] = json!([encode::pos(q), names[*t]]),
                }
                s
            })
            .collect();
        let table = if zero.is_empty() {
            Vec::new()
        } else {
            nim_table(&g.games[0], &zero, budget)?
        };
        budget = budget.saturating_sub(table.len());
        let instance = if g.games.len() == 1 {
            g.games[0].to_string()
        } else {
            format!("{} and {} more start games", g.games[0], g.games.len() - 1)
        };
        out.push(json!({
            "instance": instance,
            "game": desc,
            "nodes": nodes,
            "singles": arrows(false),
            "doubles": arrows(true),
            "starts": g.starts.iter().map(|(p, _)| encode::pos(p)).collect::<Vec<_>>(),
            "steps": steps,
            "table": table,
        }));
    }
    Ok(Body {
        kind: "strategy",
        certified: out.len(),
        data: json!({ "games": out }),
        skipped: Vec::new(),
    })
}
