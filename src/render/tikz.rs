//! TikZ figures from the DOT grundy writes: Graphviz lays the DOT out (`dot -Tjson0`), and the
//! positions, with the `grundy*` attributes the DOT templates put on nodes, edges and clusters,
//! become a typed [`TikzView`] rendered by `templates/figure.tikz.tex`.
//!
//! Attributes read (all optional; Graphviz ignores them when drawing SVG/PDF):
//! - on the graph: `grundywrap` (lay the top-level
//!   clusters out in rows of this many, for figures of many small panels such as Fig 2.1);
//! - on nodes: `grundytex` (label, TeX math), `grundynim` (a nim-value, set in bold under the
//!   label), `grundymini` (a miniature of a graph position, see [`Mini::parse`]) and
//!   `grundystyle` (TikZ styles of `grundy-tikz.sty`), `grundynote` (a second line, TeX
//!   math); invisible and point nodes become
//!   coordinates;
//! - on edges and clusters: `grundystyle`, and `grundytex` on clusters (their label).
//!
//! Positions are Graphviz's, in big points; the template scales them to the text width
//! (never up), while the nodes keep their natural size around the typeset labels. Directed
//! graphs keep Graphviz's Bézier routes (so that the two arrows of a 2-cycle stay apart);
//! undirected ones are drawn with straight lines between the nodes.

use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;

/// Runs Graphviz on DOT text and returns its layout (`-Tjson0`), or why not.
pub fn layout(dot: &str) -> Result<Value, String> {
    use graphviz_rust::cmd::{CommandArg, Format};
    let bytes = graphviz_rust::exec_dot(dot.to_string(), vec![CommandArg::Format(Format::Json0)])
        .map_err(|e| e.to_string())?;
    serde_json::from_slice(&bytes).map_err(|e| format!("Graphviz JSON does not parse: {e}"))
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct MiniVertex {
    pub x: String,
    pub y: String,
    pub style: String,
    /// The vertex name (TeX math), in a legend.
    pub name: Option<String>,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct MiniEdge {
    pub ax: String,
    pub ay: String,
    pub bx: String,
    pub by: String,
}

/// A miniature of a position of a game on a graph: the graph in its usual drawing with the
/// selected vertices filled.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Mini {
    pub vertices: Vec<MiniVertex>,
    pub edges: Vec<MiniEdge>,
    /// A legend (vertices named), drawn larger.
    pub legend: bool,
}

impl Mini {
    /// Parses `x,y,s x,y,s …|a-b a-b …` (unit coordinates; s = 1 selected, 0 not; edges
    /// between vertex indices), as written by [`crate::check::figure::miniature`]; a fourth
    /// field `x,y,s,name` names the vertex (a legend).
    pub fn parse(s: &str) -> Option<Mini> {
        let (vs, es) = s.split_once('|')?;
        let mut vertices = Vec::new();
        let mut legend = false;
        for v in vs.split_whitespace() {
            let mut it = v.splitn(4, ',');
            let x: f64 = it.next()?.parse().ok()?;
            let y: f64 = it.next()?.parse().ok()?;
            let sel = it.next()? == "1";
            let name = it.next().map(super::texlabel::math);
            legend |= name.is_some();
            vertices.push(MiniVertex {
                x: num(x),
                y: num(y),
                style: match (&name, sel) {
                    (Some(_), _) => "grundy mini named".into(),
                    (None, true) => "grundy mini selected".into(),
                    (None, false) => "grundy mini vertex".into(),
                },
                name,
            });
        }
        let mut edges = Vec::new();
        for e in es.split_whitespace() {
            let (a, b) = e.split_once('-')?;
            let (a, b): (usize, usize) = (a.parse().ok()?, b.parse().ok()?);
            if a >= vertices.len() || b >= vertices.len() {
                return None;
            }
            let (va, vb) = (&vertices[a], &vertices[b]);
            edges.push(MiniEdge {
                ax: va.x.clone(),
                ay: va.y.clone(),
                bx: vb.x.clone(),
                by: vb.y.clone(),
            });
        }
        Some(Mini {
            vertices,
            edges,
            legend,
        })
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct TikzNode {
    pub id: String,
    pub x: String,
    pub y: String,
    pub style: String,
    /// A coordinate (an invisible helper node of the layout), not a drawn node.
    pub coordinate: bool,
    pub tex: Option<String>,
    pub nim: Option<String>,
    pub mini: Option<Mini>,
    /// A second line (TeX math), e.g. the diagram a sink refers to.
    pub note: Option<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Segment {
    pub c1: String,
    pub c2: String,
    pub end: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct TikzEdge {
    pub from: String,
    pub to: String,
    pub style: String,
    /// Bézier segments (Graphviz's route); empty: a straight line.
    pub segments: Vec<Segment>,
}

#[derive(Clone, Debug, Serialize)]
pub struct TikzCluster {
    pub style: String,
    pub x0: String,
    pub y0: String,
    pub x1: String,
    pub y1: String,
    pub label: Option<String>,
    pub lx: String,
    pub ly: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct TikzView {
    /// The DOT file the layout comes from (relative to output/).
    pub from: String,
    /// Width and height of the drawing in bp (the template scales it to the text width).
    pub width: String,
    pub height: String,
    pub clusters: Vec<TikzCluster>,
    pub nodes: Vec<TikzNode>,
    pub edges: Vec<TikzEdge>,
}

/// A coordinate as TikZ reads it: one decimal, no `-0`.
fn num(x: f64) -> String {
    let r = (x * 10.0).round() / 10.0;
    if r == 0.0 {
        "0".into()
    } else {
        format!("{r}")
    }
}

fn attr<'a>(o: &'a Value, k: &str) -> Option<&'a str> {
    o.get(k).and_then(Value::as_str).filter(|s| !s.is_empty())
}

fn point(s: &str) -> Option<(f64, f64)> {
    let (x, y) = s.split_once(',')?;
    Some((x.trim().parse().ok()?, y.trim().parse().ok()?))
}

fn bb(s: &str) -> Option<(f64, f64, f64, f64)> {
    let v: Vec<f64> = s.split(',').filter_map(|x| x.trim().parse().ok()).collect();
    (v.len() == 4).then(|| (v[0], v[1], v[2], v[3]))
}

struct RawCluster {
    bb: (f64, f64, f64, f64),
    lp: Option<(f64, f64)>,
    label: Option<String>,
    style: String,
    nodes: Vec<usize>,
    top: bool,
}

/// Builds the view from Graphviz's JSON layout. `None` when the layout has no nodes.
pub fn view(json: &Value, from: &str) -> Option<TikzView> {
    let objects = json.get("objects")?.as_array()?;
    let directed = json
        .get("directed")
        .and_then(Value::as_bool)
        .unwrap_or(true);
    let straight = !directed || attr(json, "splines") == Some("false");
    // Clusters (with their bounding boxes) and nodes (with positions), by object index.
    let mut clusters: Vec<RawCluster> = Vec::new();
    let mut pos: BTreeMap<usize, (f64, f64)> = BTreeMap::new();
    let mut half: BTreeMap<usize, (f64, f64)> = BTreeMap::new();
    let mut in_cluster: BTreeMap<usize, usize> = BTreeMap::new();
    for (i, o) in objects.iter().enumerate() {
        let name = attr(o, "name").unwrap_or("");
        if let Some(b) = attr(o, "bb").and_then(bb) {
            if name.starts_with("cluster") {
                let nodes: Vec<usize> = o
                    .get("nodes")
                    .and_then(Value::as_array)
                    .map(|a| {
                        a.iter()
                            .filter_map(|x| x.as_u64())
                            .map(|x| x as usize)
                            .collect()
                    })
                    .unwrap_or_default();
                clusters.push(RawCluster {
                    bb: b,
                    lp: attr(o, "lp").and_then(point),
                    label: attr(o, "grundytex").map(str::to_string),
                    style: attr(o, "grundystyle").unwrap_or("grundy panel").to_string(),
                    nodes,
                    top: true,
                });
            }
            continue;
        }
        if let Some(p) = attr(o, "pos").and_then(point) {
            pos.insert(i, p);
            let w: f64 = attr(o, "width").and_then(|s| s.parse().ok()).unwrap_or(0.0);
            let h: f64 = attr(o, "height")
                .and_then(|s| s.parse().ok())
                .unwrap_or(0.0);
            half.insert(i, (w * 36.0, h * 36.0));
        }
    }
    if pos.is_empty() {
        return None;
    }
    // A cluster is top-level when no other cluster contains all its nodes.
    let n = clusters.len();
    for a in 0..n {
        for b in 0..n {
            if a != b
                && clusters[b].nodes.len() > clusters[a].nodes.len()
                && clusters[a]
                    .nodes
                    .iter()
                    .all(|x| clusters[b].nodes.contains(x))
            {
                clusters[a].top = false;
            }
        }
    }
    for (k, c) in clusters.iter().enumerate() {
        if c.top {
            for &v in &c.nodes {
                in_cluster.insert(v, k);
            }
        }
    }
    // Panels in rows of `grundywrap` (panels are moved whole, with their inner clusters).
    let mut shift: BTreeMap<usize, (f64, f64)> = BTreeMap::new();
    if let Some(cols) = attr(json, "grundywrap").and_then(|s| s.parse::<usize>().ok()) {
        let mut tops: Vec<usize> = (0..n).filter(|&k| clusters[k].top).collect();
        tops.sort_by(|&a, &b| clusters[a].bb.0.total_cmp(&clusters[b].bb.0));
        if cols > 0 && tops.len() > cols {
            let w = tops
                .iter()
                .map(|&k| clusters[k].bb.2 - clusters[k].bb.0)
                .fold(0.0, f64::max);
            let h = tops
                .iter()
                .map(|&k| clusters[k].bb.3 - clusters[k].bb.1)
                .fold(0.0, f64::max);
            for (t, &k) in tops.iter().enumerate() {
                let (r, c) = ((t / cols) as f64, (t % cols) as f64);
                let d = (
                    c * (w + 8.0) - clusters[k].bb.0,
                    -r * (h + 8.0) - clusters[k].bb.1,
                );
                shift.insert(k, d);
            }
        }
    }
    let node_shift = |i: usize| -> (f64, f64) {
        in_cluster
            .get(&i)
            .and_then(|k| shift.get(k))
            .copied()
            .unwrap_or((0.0, 0.0))
    };
    let cluster_shift = |c: &RawCluster| -> (f64, f64) {
        c.nodes
            .first()
            .map(|&v| node_shift(v))
            .unwrap_or((0.0, 0.0))
    };
    let id = |i: usize| format!("n{i}");
    let mut nodes = Vec::new();
    let (mut lo, mut hi) = ((f64::MAX, f64::MAX), (f64::MIN, f64::MIN));
    let mut extend = |x: f64, y: f64| {
        lo = (lo.0.min(x), lo.1.min(y));
        hi = (hi.0.max(x), hi.1.max(y));
    };
    for (&i, &(x, y)) in &pos {
        let o = &objects[i];
        let (dx, dy) = node_shift(i);
        let (x, y) = (x + dx, y + dy);
        let coordinate = attr(o, "style").is_some_and(|s| s.contains("invis"))
            || attr(o, "shape") == Some("point");
        if !coordinate {
            let (hw, hh) = half[&i];
            extend(x - hw, y - hh);
            extend(x + hw, y + hh);
        }
        nodes.push(TikzNode {
            id: id(i),
            x: num(x),
            y: num(y),
            style: attr(o, "grundystyle").unwrap_or("grundy node").to_string(),
            coordinate,
            tex: attr(o, "grundytex").map(str::to_string),
            nim: attr(o, "grundynim").map(str::to_string),
            mini: attr(o, "grundymini").and_then(Mini::parse),
            note: attr(o, "grundynote").map(str::to_string),
        });
    }
    let mut out_clusters = Vec::new();
    for c in &clusters {
        let (dx, dy) = cluster_shift(c);
        let (x0, y0, x1, y1) = (c.bb.0 + dx, c.bb.1 + dy, c.bb.2 + dx, c.bb.3 + dy);
        extend(x0, y0);
        extend(x1, y1);
        let (lx, ly) =
            c.lp.map(|(x, y)| (x + dx, y + dy))
                .unwrap_or(((x0 + x1) / 2.0, y1 - 6.0));
        out_clusters.push(TikzCluster {
            style: c.style.clone(),
            x0: num(x0),
            y0: num(y0),
            x1: num(x1),
            y1: num(y1),
            label: c.label.clone(),
            lx: num(lx),
            ly: num(ly),
        });
    }
    let mut edges = Vec::new();
    if let Some(es) = json.get("edges").and_then(Value::as_array) {
        for e in es {
            let (Some(t), Some(h)) = (
                e.get("tail").and_then(Value::as_u64),
                e.get("head").and_then(Value::as_u64),
            ) else {
                continue;
            };
            let (t, h) = (t as usize, h as usize);
            if !pos.contains_key(&t) || !pos.contains_key(&h) {
                continue;
            }
            if attr(e, "style").is_some_and(|s| s.contains("invis")) {
                continue;
            }
            let segments = if straight {
                Vec::new()
            } else {
                spline(attr(e, "pos").unwrap_or(""), node_shift(t))
            };
            edges.push(TikzEdge {
                from: id(t),
                to: id(h),
                style: attr(e, "grundystyle")
                    .unwrap_or(if directed {
                        "grundy edge"
                    } else {
                        "grundy line"
                    })
                    .to_string(),
                segments,
            });
        }
    }
    Some(TikzView {
        from: from.to_string(),
        width: num((hi.0 - lo.0).max(1.0)),
        height: num((hi.1 - lo.1).max(1.0)),
        clusters: out_clusters,
        nodes,
        edges,
    })
}

/// Graphviz's edge route `[e,x,y] [s,x,y] p0 p1 p2 p3 …` as Bézier segments after p0 (the
/// end points are replaced by the TikZ nodes, which clip the path at their borders).
fn spline(s: &str, (dx, dy): (f64, f64)) -> Vec<Segment> {
    let pts: Vec<(f64, f64)> = s
        .split_whitespace()
        .filter(|w| !w.starts_with("e,") && !w.starts_with("s,"))
        .filter_map(point)
        .collect();
    if pts.len() < 4 || !(pts.len() - 1).is_multiple_of(3) {
        return Vec::new();
    }
    let p = |k: usize| format!("{},{}", num(pts[k].0 + dx), num(pts[k].1 + dy));
    (0..(pts.len() - 1) / 3)
        .map(|s| Segment {
            c1: p(3 * s + 1),
            c2: p(3 * s + 2),
            end: p(3 * s + 3),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn miniatures_parse_and_reject_garbage() {
        let m = Mini::parse("0,1,1 0.87,-0.5,0 -0.87,-0.5,0|0-1 1-2 2-0").unwrap();
        assert_eq!(m.vertices.len(), 3);
        assert_eq!(m.vertices[0].style, "grundy mini selected");
        assert_eq!(m.vertices[1].x, "0.9");
        assert_eq!(
            (m.edges[2].ax.as_str(), m.edges[2].by.as_str()),
            ("-0.9", "1")
        );
        assert!(Mini::parse("0,1,1|0-5").is_none());
        let l = Mini::parse("0,1,0,v1 0,0,0,(1,2)|0-1").unwrap();
        assert!(l.legend);
        assert_eq!(l.vertices[0].name.as_deref(), Some("v_{1}"));
        assert_eq!(l.vertices[1].name.as_deref(), Some("(1,2)"));
        assert!(Mini::parse("no bar").is_none());
    }

    #[test]
    fn routes_become_bezier_segments() {
        let s = spline(
            "e,43,75.1 43,110.7 43,102.98 43,93.712 43,85.112",
            (0.0, 0.0),
        );
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].c1, "43,103");
        assert_eq!(s[0].end, "43,85.1");
        assert!(spline("1,2 3,4", (0.0, 0.0)).is_empty());
    }

    #[test]
    fn a_layout_becomes_a_view() {
        let json: Value = serde_json::from_str(
            r#"{"directed": true, "objects": [
              {"name": "cluster_a", "bb": "8,31,78,178", "lp": "43,166", "grundytex": "G", "nodes": [1, 2]},
              {"_gvid": 1, "name": "a", "pos": "43,129", "width": "0.75", "height": "0.5", "grundytex": "x_1"},
              {"_gvid": 2, "name": "b", "pos": "43,57", "width": "0.75", "height": "0.5", "style": "invis"}],
             "edges": [{"tail": 1, "head": 2, "pos": "e,43,75 43,110 43,102 43,93 43,85", "grundystyle": "grundy double"}]}"#,
        )
        .unwrap();
        let v = view(&json, "x.dot").unwrap();
        assert_eq!(v.nodes.len(), 2);
        assert!(v.nodes[1].coordinate);
        assert_eq!(v.nodes[0].tex.as_deref(), Some("x_1"));
        assert_eq!(v.edges[0].style, "grundy double");
        assert_eq!(v.edges[0].segments.len(), 1);
        assert_eq!(v.clusters[0].label.as_deref(), Some("G"));
        assert_eq!(v.width, "70");
    }
}
