//! A drawing of a graph that has no usual one (not a path, cycle, wheel, complete multipartite
//! graph or prism): vertices placed by stress majorization (Gansner, Koren, North, "Graph
//! drawing by stress majorization", 2004), so that Euclidean distances follow graph distances
//! and an edge is about one unit long. The 3-sun comes out as a triangle with a vertex beyond
//! each side and the diamond as a rhombus, as a paper draws them, where a layered layout set
//! them in ranks joined by long curves.
//!
//! Deterministic: the starts are the circle in vertex order and a fixed-seed series, the
//! iteration count is fixed, the drawing of least stress is kept, and the result is turned
//! to stand mirror-symmetric where it nearly is, then as flat as it can be (wide figures suit
//! a page), then with its first vertex as high as it can be, so the same graph is always
//! drawn the same way.

use super::Graph;

/// Iterations of the localized majorization (graphs drawn here have at most a few dozen
/// vertices; the stress no longer changes visibly after a hundred).
const ITERATIONS: usize = 300;

/// Starts of the majorization: the circle and random ones (a fixed seed).
const STARTS: usize = 12;

/// Localized stress majorization: each vertex in turn moves to the weighted mean of where
/// every other vertex would put it (weights 1/d², d the graph distance).
fn majorize(at: &mut [(f64, f64)], d: &impl Fn(usize, usize) -> f64) {
    let n = at.len();
    for _ in 0..ITERATIONS {
        for i in 0..n {
            let (mut sx, mut sy, mut sw) = (0.0, 0.0, 0.0);
            for j in 0..n {
                if i == j {
                    continue;
                }
                let dij = d(i, j);
                let w = 1.0 / (dij * dij);
                let (dx, dy) = (at[i].0 - at[j].0, at[i].1 - at[j].1);
                let len = (dx * dx + dy * dy).sqrt().max(1e-9);
                sx += w * (at[j].0 + dij * dx / len);
                sy += w * (at[j].1 + dij * dy / len);
                sw += w;
            }
            at[i] = (sx / sw, sy / sw);
        }
    }
}

/// Past this many vertices a graph is drawn on the circle alone: the majorization costs
/// STARTS × ITERATIONS × n² steps and the choice of turn n⁴ (about half a second at 64
/// vertices), and a graph far larger is no figure a reader can follow anyway.
pub const MAX_STRESS_VERTICES: usize = 64;

/// Drawings kept, by vertex count and edge list: a gamegraph figure draws its graph once per
/// position (a miniature each), and a drawing of 64 vertices takes about half a second.
const KEPT: usize = 8;

static DRAWN: std::sync::Mutex<Vec<(DrawingKey, Drawing)>> = std::sync::Mutex::new(Vec::new());

type DrawingKey = (usize, Vec<(usize, usize)>);
type Drawing = Vec<(f64, f64)>;

/// Vertex positions, an edge about one unit long, centred on the origin (y up); on a circle
/// of circumference n past [`MAX_STRESS_VERTICES`]. The same graph (vertex count and edges)
/// is drawn once and the drawing reused.
pub fn stress_layout(g: &Graph) -> Vec<(f64, f64)> {
    if g.n() > MAX_STRESS_VERTICES {
        return draw(g);
    }
    let key: DrawingKey = (g.n(), g.edges());
    let lock = || DRAWN.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, at)) = lock().iter().find(|(k, _)| *k == key) {
        return at.clone();
    }
    let at = draw(g);
    let mut kept = lock();
    if kept.len() >= KEPT {
        kept.remove(0);
    }
    kept.push((key, at.clone()));
    at
}

fn draw(g: &Graph) -> Vec<(f64, f64)> {
    let n = g.n();
    if n == 0 {
        return Vec::new();
    }
    if n == 1 {
        return vec![(0.0, 0.0)];
    }
    // The circle in vertex order, then starts drawn by a fixed-seed generator: majorization
    // can stop in a drawing with a needless crossing (the diamond from the circle u, v, x, y),
    // so the drawing of least stress among the starts is kept (the first of equals).
    let radius = n as f64 / std::f64::consts::TAU;
    let circle: Vec<(f64, f64)> = (0..n)
        .map(|v| {
            let th = std::f64::consts::FRAC_PI_2 - std::f64::consts::TAU * v as f64 / n as f64;
            (radius * th.cos(), radius * th.sin())
        })
        .collect();
    if n > MAX_STRESS_VERTICES {
        return circle;
    }
    // Graph distances; vertices in other components are one further than the diameter.
    let rows: Vec<Vec<u32>> = (0..n).map(|v| g.distances_from(v)).collect();
    let diameter = rows
        .iter()
        .flatten()
        .filter(|&&d| d != u32::MAX)
        .max()
        .copied()
        .unwrap_or(1);
    let d = |i: usize, j: usize| -> f64 {
        let x = rows[i][j];
        f64::from(if x == u32::MAX { diameter + 1 } else { x })
    };
    let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
    let mut unit = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed >> 11) as f64 / (1u64 << 53) as f64
    };
    let mut best: Option<(f64, Vec<(f64, f64)>)> = None;
    for start in 0..STARTS {
        let mut at = if start == 0 {
            circle.clone()
        } else {
            (0..n)
                .map(|_| (2.0 * radius * unit(), 2.0 * radius * unit()))
                .collect()
        };
        majorize(&mut at, &d);
        let stress: f64 = (0..n)
            .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
            .map(|(i, j)| {
                let dij = d(i, j);
                let len = (at[i].0 - at[j].0).hypot(at[i].1 - at[j].1);
                (len - dij).powi(2) / (dij * dij)
            })
            .sum();
        if best.as_ref().is_none_or(|b| stress < b.0 - 1e-9) {
            best = Some((stress, at));
        }
    }
    let mut at = best.map(|b| b.1).unwrap_or(circle);
    let (cx, cy) = at.iter().fold((0.0, 0.0), |(a, b), &(x, y)| {
        (a + x / n as f64, b + y / n as f64)
    });
    for p in &mut at {
        *p = (p.0 - cx, p.1 - cy);
    }
    // The turn most nearly mirror-symmetric about the vertical axis (as a paper stands a
    // symmetric graph: the diamond's hubs one above the other, the sun's triangle on a
    // vertex), then of least height, then with vertex 0 highest; near-equal scores and heights
    // count as equal, so symmetric drawings choose by the next rule. A mirror symmetry maps
    // some vertex to another (their segment then lies level) or fixes two (their segment
    // stands upright), so the turns that lay a segment level or upright are the candidates.
    let turned = |angle: f64| -> Vec<(f64, f64)> {
        let (s, c) = angle.sin_cos();
        at.iter()
            .map(|&(x, y)| (x * c - y * s, x * s + y * c))
            .collect()
    };
    let height = |p: &[(f64, f64)]| {
        let (lo, hi) = p
            .iter()
            .fold((f64::MAX, f64::MIN), |(l, h), q| (l.min(q.1), h.max(q.1)));
        hi - lo
    };
    // How far the mirror image (x ↦ −x) of the drawing is from the drawing: the sum over the
    // vertices of the distance from a vertex's image to the nearest vertex.
    let asymmetry = |p: &[(f64, f64)]| -> f64 {
        p.iter()
            .map(|q| {
                p.iter()
                    .map(|r| (r.0 + q.0).hypot(r.1 - q.1))
                    .fold(f64::MAX, f64::min)
            })
            .sum()
    };
    let mut angles = vec![0.0];
    for i in 0..n {
        for j in i + 1..n {
            let level = -(at[j].1 - at[i].1).atan2(at[j].0 - at[i].0);
            for k in 0..4 {
                angles.push(level + f64::from(k) * std::f64::consts::FRAC_PI_2);
            }
        }
    }
    let turns: Vec<Vec<(f64, f64)>> = angles.iter().map(|&a| turned(a)).collect();
    let scores: Vec<f64> = turns.iter().map(|t| asymmetry(t)).collect();
    let heights: Vec<f64> = turns.iter().map(|t| height(t)).collect();
    let most = scores.iter().copied().fold(f64::MAX, f64::min);
    let symmetric: Vec<usize> = (0..turns.len())
        .filter(|&k| scores[k] <= most + 0.01)
        .collect();
    let least = symmetric
        .iter()
        .map(|&k| heights[k])
        .fold(f64::MAX, f64::min);
    let best = symmetric
        .into_iter()
        .filter(|&k| heights[k] <= least + 1e-6)
        .max_by(|&a, &b| turns[a][0].1.total_cmp(&turns[b][0].1).then(b.cmp(&a)))
        .unwrap_or(0);
    turns.into_iter().nth(best).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::families::parse_graph;

    /// A graph from edges `a-b` between named vertices (named in order of appearance).
    fn from_edges(edges: &[&str]) -> Graph {
        let mut names: Vec<String> = Vec::new();
        let mut pairs = Vec::new();
        for e in edges {
            let (a, b) = e.split_once('-').unwrap();
            let mut index = |x: &str| {
                names.iter().position(|n| n == x).unwrap_or_else(|| {
                    names.push(x.to_string());
                    names.len() - 1
                })
            };
            let (i, j) = (index(a), index(b));
            pairs.push((i, j));
        }
        Graph::new("G", names, &pairs).unwrap()
    }

    fn sun() -> Graph {
        from_edges(&[
            "x-y", "y-z", "z-x", "u-x", "u-y", "v-y", "v-z", "w-z", "w-x",
        ])
    }

    fn dist(p: (f64, f64), q: (f64, f64)) -> f64 {
        ((p.0 - q.0).powi(2) + (p.1 - q.1).powi(2)).sqrt()
    }

    /// The diamond K_2 + ~K_2 is drawn as a rhombus: its four edges of one length, the two
    /// vertices of degree 2 farther apart than the two of degree 3 (which are adjacent).
    #[test]
    fn the_diamond_is_a_rhombus() {
        let g = from_edges(&["x-y", "x-a", "x-b", "y-a", "y-b"]);
        let at = stress_layout(&g);
        let lens: Vec<f64> = g.edges().iter().map(|&(a, b)| dist(at[a], at[b])).collect();
        let hub = |v: usize| g.degree(v) == 3;
        let spokes: Vec<f64> = g
            .edges()
            .iter()
            .filter(|&&(a, b)| !(hub(a) && hub(b)))
            .map(|&(a, b)| dist(at[a], at[b]))
            .collect();
        assert_eq!(lens.len(), 5);
        assert!(
            spokes.iter().all(|l| (l - spokes[0]).abs() < 0.02),
            "{spokes:?}"
        );
        let tips: Vec<usize> = (0..4).filter(|&v| !hub(v)).collect();
        let hubs: Vec<usize> = (0..4).filter(|&v| hub(v)).collect();
        assert!(dist(at[tips[0]], at[tips[1]]) > dist(at[hubs[0]], at[hubs[1]]) + 0.3);
        // Stood as a paper stands it: the hubs one above the other, the tips level.
        assert!((at[hubs[0]].0 - at[hubs[1]].0).abs() < 0.01, "{at:?}");
        assert!((at[tips[0]].1 - at[tips[1]].1).abs() < 0.01, "{at:?}");
        // Turned flat: wider than high.
        let span = |f: fn(&(f64, f64)) -> f64| {
            let v: Vec<f64> = at.iter().map(f).collect();
            v.iter().copied().fold(f64::MIN, f64::max) - v.iter().copied().fold(f64::MAX, f64::min)
        };
        assert!(span(|p| p.0) > span(|p| p.1), "{at:?}");
    }

    /// No two vertices of a connected graph on at most 7 vertices meet, and every edge is
    /// between half and twice the unit long (a wrong variant, all vertices at the start's
    /// circle of radius n/2π, would fail the edge lengths of K_{1,6}'s spokes).
    #[test]
    fn small_graphs_are_spread_out() {
        for (name, g) in ["P_5", "C_6", "K_{1,6}", "K_4", "W_6", "K_{2,3}"]
            .map(|s| (s, parse_graph(s).unwrap()))
            .into_iter()
            .chain([("sun", sun())])
        {
            let at = stress_layout(&g);
            for a in 0..g.n() {
                for b in a + 1..g.n() {
                    assert!(dist(at[a], at[b]) > 0.4, "{name}: {a} and {b} meet");
                }
            }
            for (a, b) in g.edges() {
                let l = dist(at[a], at[b]);
                assert!((0.5..2.0).contains(&l), "{name}: edge {a}-{b} is {l} long");
            }
        }
    }

    /// The 3-sun: the triangle x, y, z inside, each of u, v, w beyond the side it is joined to
    /// (farther from the centre than the triangle's vertices).
    #[test]
    fn the_sun_is_a_triangle_with_ears() {
        let at = stress_layout(&sun());
        let r = |v: usize| dist(at[v], (0.0, 0.0));
        for inner in 0..3 {
            for outer in 3..6 {
                assert!(r(outer) > r(inner) + 0.3, "{at:?}");
            }
        }
    }

    /// A large graph is drawn at once (on the circle): 1,000 vertices in well under a second.
    #[test]
    fn large_graphs_are_not_majorized() {
        let g = crate::graph::families::parse_large_graph("C_1000").unwrap();
        let t = std::time::Instant::now();
        let at = stress_layout(&g);
        assert!(t.elapsed().as_secs_f64() < 0.5);
        let r = at[0].0.hypot(at[0].1);
        assert!(at.iter().all(|p| (p.0.hypot(p.1) - r).abs() < 1e-6));
    }

    /// The same graph, the same drawing (to the last bit).
    #[test]
    fn deterministic() {
        let g = sun();
        assert_eq!(draw(&g), draw(&g));
        assert_eq!(stress_layout(&g), draw(&g));
        assert_eq!(stress_layout(&g), stress_layout(&g));
    }
}
