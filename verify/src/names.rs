//! The verifier's own reading of graph names as specs write them (`W_{2,5}`, `SP_{8,2}`,
//! `Corona(P_3)`, `graph6:Bw`), its own graph families from their definitions in paper 000 §2
//! and seed 002, and the pieces of names every game's reading shares (numbers, vertex names,
//! top-level splitting); each game family reads its own names (`TER(W_6)`, `DC(7) + *1`,
//! `*3 : TER(W_6)`, `SPL(4,9)`, `UEG(SP_{8,2}, (1,1))`) in its file of [`crate::games`].
//! Only the families the certified specs use are here; any other name is refused with its
//! name, and the claim is then reported not re-derived.
//!
//! Vertex numbering follows the order the families are defined in (the certificates' graphs
//! are compared edge for edge): P_n, C_n, K_n on v1..vn in order; K_{a,b,…} part by part;
//! Split_{m,n} the clique u1..um then x1..xn; W_n the rim v1..v_{n−1} then the centre; W_{m,n}
//! the centres c1..cm then the rim v1..vn; Q_n the binary strings; Grid_{a,b} vertex (i, j) at (i−1)·b + (j−1); SP_{M,n} vertex (i, j) at
//! (j−1)·M + (i−1); Wd the centre then block by block; Corona(H) the vertices of H then their
//! pendants; Spider_{l1,…,lk} the centre then leg by leg from the centre outward; graph6 as in
//! nauty; the named graphs, GP_{n,k} and `file:` edge lists as [`crate::named`] says.

use crate::games::Graph;

fn graph(n: usize, edges: Vec<(usize, usize)>) -> Graph {
    Graph { n, edges }
}

/// Most vertices a family graph may have here.
const MAX_VERTICES: usize = 100_000;

pub fn num(s: &str) -> Result<usize, String> {
    let v: usize = s
        .trim()
        .parse()
        .map_err(|_| format!("`{s}` is not a vertex count"))?;
    if v > MAX_VERTICES {
        return Err(format!("{v} vertices is more than the verifier builds"));
    }
    Ok(v)
}

pub fn nums(s: &str) -> Result<Vec<usize>, String> {
    s.split(',').map(num).collect()
}

/// A stacked prism SP_{M,n} (seed 002): n copies of the cycle C_M, (i, j) ~ (i+1, j) and
/// (i, j) ~ (i, j+1).
pub fn stacked_prism(m: usize, n: usize) -> Result<Graph, String> {
    if m < 3 || n < 1 || m.saturating_mul(n) > MAX_VERTICES {
        return Err(format!(
            "SP_{{{m},{n}}} is not a stacked prism the verifier builds"
        ));
    }
    let idx = |i: usize, j: usize| (j - 1) * m + (i - 1);
    let mut e = Vec::new();
    for j in 1..=n {
        for i in 1..=m {
            e.push((idx(i, j), idx(i % m + 1, j)));
            if j < n {
                e.push((idx(i, j), idx(i, j + 1)));
            }
        }
    }
    Ok(graph(m * n, e))
}

/// nauty's graph6 (n < 63): the upper triangle column by column, six bits a character.
fn graph6(s: &str) -> Result<Graph, String> {
    let b: Vec<u8> = s.bytes().collect();
    let bad = || format!("`{s}` is not a graph6 string (of fewer than 63 vertices)");
    let (&first, rest) = b.split_first().ok_or_else(bad)?;
    if !(63..126).contains(&first) || rest.iter().any(|c| !(63..=126).contains(c)) {
        return Err(bad());
    }
    let n = (first - 63) as usize;
    let bits = n * n.saturating_sub(1) / 2;
    if rest.len() != bits.div_ceil(6) {
        return Err(bad());
    }
    let mut e = Vec::new();
    let mut k = 0;
    for j in 1..n {
        for i in 0..j {
            if (rest[k / 6] - 63) >> (5 - k % 6) & 1 == 1 {
                e.push((i, j));
            }
            k += 1;
        }
    }
    Ok(graph(n, e))
}

/// A graph from its name.
pub fn parse_graph(t: &str) -> Result<Graph, String> {
    let t = t.trim();
    let unbrace = |s: &str| s.trim_start_matches('{').trim_end_matches('}').to_string();
    if let Some(g) = t.strip_prefix("graph6:") {
        return graph6(g);
    }
    if let Some(path) = t.strip_prefix("file:") {
        return crate::named::from_file(path);
    }
    if let Some(g) = crate::named::named(t) {
        return Ok(g);
    }
    if let Some(inner) = t.strip_prefix("Corona(").and_then(|r| r.strip_suffix(')')) {
        let h = parse_graph(inner)?;
        let n = h.n;
        if 2 * n > MAX_VERTICES {
            return Err(format!("`{t}` is too large"));
        }
        let mut e = h.edges;
        e.extend((0..n).map(|i| (i, i + n)));
        return Ok(graph(2 * n, e));
    }
    let (fam, arg) = t
        .split_once('_')
        .ok_or_else(|| format!("`{t}`: the verifier has no graph of this name"))?;
    let a = unbrace(arg);
    let all_pairs = |n: usize, keep: &dyn Fn(usize, usize) -> bool| {
        let mut e = Vec::new();
        for x in 0..n {
            for y in x + 1..n {
                if keep(x, y) {
                    e.push((x, y));
                }
            }
        }
        e
    };
    Ok(match fam {
        "P" => {
            let n = num(&a)?;
            if n < 1 {
                return Err("P_0 is not a path".into());
            }
            graph(n, (1..n).map(|i| (i - 1, i)).collect())
        }
        "C" => {
            let n = num(&a)?;
            if n < 3 {
                return Err(format!("C_{n} is not a cycle"));
            }
            graph(n, (0..n).map(|i| (i, (i + 1) % n)).collect())
        }
        "K" if !a.contains(',') => {
            let n = num(&a)?;
            if !(1..=2000).contains(&n) {
                return Err(format!("K_{n} is not a complete graph the verifier builds"));
            }
            graph(n, all_pairs(n, &|_, _| true))
        }
        "K" => {
            let parts = nums(&a)?;
            let total: usize = parts.iter().sum();
            if parts.contains(&0) || total > 2000 {
                return Err(format!(
                    "K_{{{a}}} is not a multipartite graph the verifier builds"
                ));
            }
            let part: Vec<usize> = parts
                .iter()
                .enumerate()
                .flat_map(|(i, &k)| std::iter::repeat_n(i, k))
                .collect();
            graph(total, all_pairs(total, &|x, y| part[x] != part[y]))
        }
        "Split" => {
            let v = nums(&a)?;
            let [m, n] = v[..] else {
                return Err(format!("`{t}` needs two sizes"));
            };
            if m < 1 || n < 1 || m + n > 2000 {
                return Err(format!("`{t}` is not a split graph the verifier builds"));
            }
            graph(m + n, all_pairs(m + n, &|x, _| x < m))
        }
        "W" if !a.contains(',') => {
            let n = num(&a)?;
            if n < 4 {
                return Err(format!("W_{n} is not a wheel"));
            }
            let r = n - 1;
            let mut e: Vec<_> = (0..r).map(|i| (i, (i + 1) % r)).collect();
            e.extend((0..r).map(|i| (i, r)));
            graph(n, e)
        }
        "W" => {
            let v = nums(&a)?;
            let [m, n] = v[..] else {
                return Err(format!("`{t}` needs two sizes"));
            };
            if m < 1 || n < 3 {
                return Err(format!("`{t}` is not a generalised wheel"));
            }
            let mut e: Vec<_> = (0..n).map(|i| (m + i, m + (i + 1) % n)).collect();
            for c in 0..m {
                e.extend((0..n).map(|i| (c, m + i)));
            }
            graph(m + n, e)
        }
        // The windmill Wd_{n1,…,nl}: cliques K_{n_i} sharing the centre (vertex 0), block by
        // block.
        "Wd" => {
            let blocks = nums(&a)?;
            let total = 1 + blocks.iter().map(|b| b.saturating_sub(1)).sum::<usize>();
            if blocks.len() < 2 || blocks.iter().any(|&b| b < 2) || total > 2000 {
                return Err(format!("`{t}` is not a windmill the verifier builds"));
            }
            let mut e = Vec::new();
            let mut next = 1;
            for b in blocks {
                let members: Vec<usize> = std::iter::once(0).chain(next..next + b - 1).collect();
                next += b - 1;
                for x in 0..members.len() {
                    for y in x + 1..members.len() {
                        e.push((members[x], members[y]));
                    }
                }
            }
            graph(total, e)
        }
        "Q" => {
            let n = num(&a)?;
            if !(1..=16).contains(&n) {
                return Err(format!("Q_{n} is not a hypercube the verifier builds"));
            }
            let mut e = Vec::new();
            for x in 0..1usize << n {
                for b in 0..n {
                    if x < x ^ (1 << b) {
                        e.push((x, x ^ (1 << b)));
                    }
                }
            }
            graph(1 << n, e)
        }
        // The grid P_a □ P_b: vertex (i, j), 1 ≤ i ≤ a, 1 ≤ j ≤ b, at (i − 1)·b + (j − 1).
        "Grid" => {
            let v = nums(&a)?;
            let [r, c] = v[..] else {
                return Err(format!("`{t}` needs two sizes"));
            };
            if r < 1 || c < 1 || r * c > MAX_VERTICES {
                return Err(format!("`{t}` is not a grid the verifier builds"));
            }
            let idx = |i: usize, j: usize| i * c + j;
            let mut e = Vec::new();
            for i in 0..r {
                for j in 0..c {
                    if i + 1 < r {
                        e.push((idx(i, j), idx(i + 1, j)));
                    }
                    if j + 1 < c {
                        e.push((idx(i, j), idx(i, j + 1)));
                    }
                }
            }
            graph(r * c, e)
        }
        // The spider Spider_{l1,…,lk} (grundy's src/graph/spider.rs): a centre (vertex 0) and
        // k legs, leg i a path of l_i vertices hanging from the centre, numbered leg by leg
        // from the centre outward.
        "Spider" => {
            let legs = nums(&a)?;
            let total = legs.iter().fold(1usize, |s, &l| s.saturating_add(l));
            if legs.is_empty() || legs.contains(&0) || total > MAX_VERTICES {
                return Err(format!("`{t}` is not a spider the verifier builds"));
            }
            let mut e = Vec::with_capacity(total - 1);
            let mut next = 1;
            for l in legs {
                let mut prev = 0;
                for v in next..next + l {
                    e.push((prev, v));
                    prev = v;
                }
                next += l;
            }
            graph(total, e)
        }
        "SP" => {
            let v = nums(&a)?;
            let [m, n] = v[..] else {
                return Err(format!("`{t}` needs two sizes"));
            };
            stacked_prism(m, n)?
        }
        "GP" => {
            let v = nums(&a)?;
            let [n, k] = v[..] else {
                return Err(format!("`{t}` needs n and k"));
            };
            crate::named::generalized_petersen(n, k)?
        }
        _ => return Err(format!("`{t}`: the verifier has no graph family `{fam}`")),
    })
}

/// (M, n) of a stacked prism named `SP_{M,n}` (its vertex (a, b) is number (b−1)·M + (a−1)).
pub fn prism_size(name: &str) -> Option<(i64, i64)> {
    let (a, b) = name
        .trim()
        .strip_prefix("SP_{")?
        .strip_suffix('}')?
        .split_once(',')?;
    Some((a.trim().parse().ok()?, b.trim().parse().ok()?))
}

/// The names of a graph's vertices in index order, as the specs write them: `v1`…`vn` on
/// P_n, C_n, K_n; the rim `v1`…`v_{n−1}` then the centre `c` on W_n; the centres `c1`…`cm`
/// then the rim `v1`…`vn` on W_{m,n}; part by part `a1, a2, …, b1, …` on K_{m1,…,mk} (up to
/// 26 parts); `x, y, u, v, w` on the kite; `0`…`n−1` on a graph6 string. `None` for a graph
/// the verifier does not name.
pub fn vertex_names(graph: &str, n: usize) -> Option<Vec<String>> {
    let graph = graph.trim();
    fn seq(p: &str, k: usize) -> impl Iterator<Item = String> + '_ {
        (1..=k).map(move |i| format!("{p}{i}"))
    }
    let names: Vec<String> = if graph.starts_with("graph6:") {
        (0..n).map(|i| i.to_string()).collect()
    } else if graph == "Kite" {
        ["x", "y", "u", "v", "w"].map(String::from).to_vec()
    } else if let Some(mn) = graph.strip_prefix("W_{").and_then(|r| r.strip_suffix('}')) {
        let m: usize = mn.split(',').next()?.trim().parse().ok()?;
        seq("c", m).chain(seq("v", n.checked_sub(m)?)).collect()
    } else if graph.starts_with("W_") {
        seq("v", n.checked_sub(1)?)
            .chain(["c".to_string()])
            .collect()
    } else if let Some(p) = graph.strip_prefix("K_{").and_then(|r| r.strip_suffix('}')) {
        let parts = nums(p).ok()?;
        if parts.len() > 26 {
            return None;
        }
        parts
            .iter()
            .enumerate()
            .flat_map(|(i, &k)| seq(&((b'a' + i as u8) as char).to_string(), k).collect::<Vec<_>>())
            .collect()
    } else if ["P_", "C_", "K_"].iter().any(|f| graph.starts_with(f)) {
        seq("v", n).collect()
    } else {
        return None;
    };
    (names.len() == n).then_some(names)
}

/// The index of a named vertex ([`vertex_names`]) on P_n, C_n, K_n, W_n and W_{m,n}.
pub fn vertex(graph: &str, n: usize, v: &str) -> Result<usize, String> {
    let bad = || format!("`{v}` is not a vertex of {graph} the verifier names");
    let g = graph.trim();
    if !["P_", "C_", "K_", "W_"].iter().any(|f| g.starts_with(f))
        || (g.starts_with("K_") && g.contains(','))
    {
        return Err(bad());
    }
    vertex_names(g, n)
        .and_then(|names| names.iter().position(|x| x == v))
        .ok_or_else(bad)
}

/// Splits `s` at top-level occurrences of `sep` (outside brackets).
pub fn split_top<'a>(s: &'a str, sep: &str) -> Vec<&'a str> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            _ => {}
        }
        if depth == 0 && s[i..].starts_with(sep) {
            out.push(&s[start..i]);
            i += sep.len();
            start = i;
            continue;
        }
        i += 1;
    }
    out.push(&s[start..]);
    out
}

/// Substitutes values for whole words (maximal runs of letters and digits) of a name.
pub fn substitute(template: &str, vars: &[(String, String)]) -> String {
    let mut out = String::new();
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        match vars.iter().rev().find(|(k, _)| k == word) {
            Some((_, v)) => out.push_str(v),
            None => out.push_str(word),
        }
        word.clear();
    };
    for c in template.chars() {
        if c.is_ascii_alphanumeric() {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

/// Graphs are equal when they have the same vertices and the same edges (in any order).
pub fn same_graph(a: &Graph, b: &Graph) -> bool {
    let norm = |g: &Graph| {
        let mut e: Vec<(usize, usize)> =
            g.edges.iter().map(|&(x, y)| (x.min(y), x.max(y))).collect();
        e.sort_unstable();
        e
    };
    let (ea, eb) = (norm(a), norm(b));
    a.n == b.n && ea.windows(2).all(|w| w[0] != w[1]) && ea == eb
}
