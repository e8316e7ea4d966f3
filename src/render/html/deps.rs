//! The dependency graph of a paper's results, as in a blueprint: an edge from a result to what
//! it rests on. Found by grundy: a diagram's sinks that refer to other diagrams
//! (`sink: {diagram: id}`), the proof artifacts (diagrams, maps, certificates) under the same
//! numbered result as a claim or table, and a corrected variant (`<id>_corrected`) of a result
//! kept as printed. Declared: the spec's optional `uses: [ids]`. Also the small gamegraph of a
//! counterexample's options. Both become DOT through templates (`html/deps.dot`,
//! `html/options.dot`); strings are escaped for DOT here, in the view.

use super::status::Status;
use crate::check::Counterexample;
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeSet;

/// One result, as the graph needs it.
pub struct NodeIn<'a> {
    pub id: String,
    pub paper: String,
    pub source: String,
    pub kind: String,
    pub status: Status,
    /// The spec's YAML (for `uses:` and diagram sinks).
    pub yaml: &'a Value,
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Edge {
    pub from: String,
    pub to: String,
    /// `sink`, `proof`, `corrects` or `uses`.
    pub why: &'static str,
}

/// Every `sink: {diagram: id}` anywhere in a spec.
fn sink_refs(v: &Value, out: &mut BTreeSet<String>) {
    match v {
        Value::Object(m) => {
            if let Some(Value::String(d)) = m.get("sink").and_then(|s| s.get("diagram")) {
                out.insert(d.clone());
            }
            for x in m.values() {
                sink_refs(x, out);
            }
        }
        Value::Array(a) => a.iter().for_each(|x| sink_refs(x, out)),
        _ => {}
    }
}

/// "Thm 5.43 case 1" → "Thm 5.43": the numbered result a part belongs to.
fn base_source(s: &str) -> String {
    let s = s.trim();
    match s.find(" case ") {
        Some(i) => s[..i].to_string(),
        None => s.to_string(),
    }
}

/// All edges; a `uses:` naming no loaded spec is an error.
pub fn edges(nodes: &[NodeIn]) -> Result<Vec<Edge>, String> {
    let ids: BTreeSet<&str> = nodes.iter().map(|n| n.id.as_str()).collect();
    let mut out = BTreeSet::new();
    for n in nodes {
        let mut sinks = BTreeSet::new();
        sink_refs(n.yaml, &mut sinks);
        for s in sinks {
            if ids.contains(s.as_str()) && s != n.id {
                out.insert(Edge {
                    from: n.id.clone(),
                    to: s,
                    why: "sink",
                });
            }
        }
        if let Some(Value::Array(list)) = n.yaml.get("uses") {
            for u in list {
                let u = match u {
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                };
                if !ids.contains(u.as_str()) {
                    return Err(format!(
                        "spec {} uses `{u}`, which is not a loaded spec",
                        n.id
                    ));
                }
                out.insert(Edge {
                    from: n.id.clone(),
                    to: u,
                    why: "uses",
                });
            }
        }
        if matches!(n.kind.as_str(), "claim" | "sets" | "table" | "sequence") {
            let base = base_source(&n.source);
            for m in nodes {
                if m.paper == n.paper
                    && m.id != n.id
                    && matches!(m.kind.as_str(), "diagram" | "reduction" | "certificate")
                    && base_source(&m.source) == base
                {
                    out.insert(Edge {
                        from: n.id.clone(),
                        to: m.id.clone(),
                        why: "proof",
                    });
                }
            }
        }
        if let Some(printed) = n.id.strip_suffix("_corrected") {
            if ids.contains(printed) {
                out.insert(Edge {
                    from: n.id.clone(),
                    to: printed.to_string(),
                    why: "corrects",
                });
            }
        }
    }
    Ok(out.into_iter().collect())
}

/// Escapes a string for a double-quoted DOT string (the one DOT escaping of [`crate::render::escape`]).
pub fn dot_quote(s: &str) -> String {
    crate::render::escape::dot_string_escape(s)
}

#[derive(Serialize)]
pub struct DotNode {
    pub name: String,
    pub label: String,
    pub url: String,
    pub tooltip: String,
    pub fill: &'static str,
    pub shape: &'static str,
}

#[derive(Serialize)]
pub struct DotEdge {
    pub from: String,
    pub to: String,
    pub style: &'static str,
    pub label: &'static str,
}

#[derive(Serialize)]
pub struct DepsView {
    pub paper: String,
    pub nodes: Vec<DotNode>,
    pub edges: Vec<DotEdge>,
    pub legend: Vec<(String, &'static str)>,
}

/// The graph of one paper: the results that take part in an edge (a graph of 100 isolated
/// nodes helps nobody; they are all in the index).
pub fn paper_view(paper: &str, nodes: &[NodeIn], edges: &[Edge]) -> DepsView {
    let mine: Vec<&NodeIn> = nodes.iter().filter(|n| n.paper == paper).collect();
    let in_paper = |id: &str| mine.iter().any(|n| n.id == id);
    let es: Vec<&Edge> = edges
        .iter()
        .filter(|e| in_paper(&e.from) && in_paper(&e.to))
        .collect();
    let used: BTreeSet<&str> = es
        .iter()
        .flat_map(|e| [e.from.as_str(), e.to.as_str()])
        .collect();
    DepsView {
        paper: dot_quote(paper),
        nodes: mine
            .iter()
            .filter(|n| used.contains(n.id.as_str()))
            .map(|n| DotNode {
                name: dot_quote(&n.id),
                label: dot_quote(&format!("{}\n{}", n.source, n.id)),
                url: dot_quote(&format!("{paper}/{}.html", n.id)),
                tooltip: dot_quote(&format!("{} ({}): {}", n.source, n.id, n.status.label())),
                fill: n.status.colour(),
                shape: match n.kind.as_str() {
                    "diagram" | "reduction" | "certificate" => "box",
                    "table" | "figure" => "note",
                    _ => "ellipse",
                },
            })
            .collect(),
        edges: es
            .iter()
            .map(|e| DotEdge {
                from: dot_quote(&e.from),
                to: dot_quote(&e.to),
                style: match e.why {
                    "corrects" => "dashed",
                    "uses" => "bold",
                    _ => "solid",
                },
                label: match e.why {
                    "sink" => "sink",
                    "corrects" => "corrects",
                    _ => "",
                },
            })
            .collect(),
        legend: Status::ALL
            .iter()
            .map(|s| (s.label().to_string(), s.colour()))
            .collect(),
    }
}

#[derive(Serialize)]
pub struct OptionNode {
    pub label: String,
    pub value: String,
}

#[derive(Serialize)]
pub struct OptionsView {
    pub root: String,
    pub options: Vec<OptionNode>,
}

/// The counterexample's position and its options with their values (`"{c} *1"` is the option
/// `{c}` of value *1), for `html/options.dot`.
pub fn options_view(c: &Counterexample) -> OptionsView {
    let root = match &c.position {
        Some(p) => format!("{}\n{p}\n= {}", c.game, c.computed),
        None => format!("{}\n= {} (claimed {})", c.game, c.computed, c.claimed),
    };
    OptionsView {
        root: dot_quote(&root),
        options: c
            .evidence
            .iter()
            .map(|e| {
                let (label, value) = match e.rsplit_once(' ') {
                    Some((l, v)) if v.starts_with('*') => (l.to_string(), v.to_string()),
                    _ => (e.clone(), String::new()),
                };
                OptionNode {
                    label: dot_quote(&label),
                    value: dot_quote(&value),
                }
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn edges_from_sinks_sources_corrections_and_uses() {
        let d = json!({"nodes": [{"sink": {"diagram": "diag_a"}}]});
        let u = json!({"uses": ["diag_a"]});
        let bad = json!({"uses": ["nope"]});
        let null = Value::Null;
        let node = |id: &str, source: &str, kind: &str, yaml| NodeIn {
            id: id.into(),
            paper: "p".into(),
            source: source.into(),
            kind: kind.into(),
            status: Status::Holds,
            yaml,
        };
        let nodes = vec![
            node("diag_a", "Lemma 1.1", "diagram", &null),
            node("diag_b", "Thm 2 case 1", "diagram", &d),
            node("thm_2", "Thm 2", "claim", &u),
            node("thm_2_corrected", "Thm 2", "claim", &null),
        ];
        let e = edges(&nodes).unwrap();
        let has =
            |f: &str, t: &str, w: &str| e.iter().any(|x| x.from == f && x.to == t && x.why == w);
        assert!(has("diag_b", "diag_a", "sink"));
        assert!(has("thm_2", "diag_b", "proof"));
        assert!(has("thm_2", "diag_a", "uses"));
        assert!(has("thm_2_corrected", "thm_2", "corrects"));
        assert!(!has("thm_2", "diag_a", "proof"));
        let mut nodes = nodes;
        nodes.push(node("x", "Prop 1", "claim", &bad));
        assert!(edges(&nodes).unwrap_err().contains("nope"));
    }
}
