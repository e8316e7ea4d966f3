//! The verifier's own posets, families of generating sets and digraphs for the closure games
//! (grundy's docs/design.md §9 "More closures"), each read from its name and built from its
//! definition, never from grundy's shortcuts:
//!
//! - *posets* `Bool(n)` (the subsets of {1..n} under inclusion, named `{}`, `{1,3}`),
//!   `Div(n)` (the divisors of n under divisibility), `Chain(n)` (1 < 2 < … < n) and products
//!   `P x Q x …` (componentwise order, elements `(p,q,…)`), and inline posets
//!   `Poset(1<2, 2<3<4, 5)` (chains and lone elements, closed reflexively and transitively;
//!   the names of [`crate::posets`]), with the order-convex hull
//!   cl(S) = {z : x ≤ z ≤ y for some x, y ∈ S}, computed from the order relation (iterated to
//!   a fixed point, so its idempotence is not assumed);
//! - *families of sets* `Sets({1,2},{2,3,4})`: the ground set is every element named and S
//!   generates iff it contains a listed set;
//! - *digraphs* `Digraph(a->b, b->c)` with directed geodesics: distances by breadth-first
//!   search along the arcs, I[x, y] = {z : d(x, z) + d(z, y) = d(x, y) < ∞} ∪ {x, y}, the hull
//!   (iterated, closure `hull`) or one step (closure `geodetic`).
//!
//! - *weighted graphs* `Weighted(a-b:2, b-c, a-c:3)` (undirected edges with positive integer
//!   weights, 1 when absent) with weighted geodesics: least total weights by Dijkstra's
//!   algorithm from each vertex, I[x, y] = {z : d(x, z) + d(z, y) = d(x, y) < ∞} ∪ {x, y},
//!   the hull (closure `hull`) or one step (closure `geodetic`).
//!
//! Elements are indexed in the certificates' convention-free order: by their names as text
//! (byte order), whatever order the structure lists them in.
//!
//! The maximal non-generating sets 𝓜 come from [`crate::graph_closure`]'s searches for the
//! interval closures (over the closed sets for the hulls, vertex by vertex for one step) and,
//! for families of sets, as the complements of the minimal transversals of the listed sets
//! (S contains no listed set iff X ∖ S meets every one). When a search is past its budget,
//! [`check_listed`] checks a certificate's list instead, by an argument given there that uses
//! only the closure itself. Structures read from files (`poset:`, `sets:`, `digraph:`,
//! `weighted:`) are not read here.

use crate::graph_closure::{GraphClosure, Kind, FAMILY_BUDGET};

/// Most elements (positions are 64-bit masks).
pub const MAX_ELEMENTS: usize = 64;

/// Most elements of an interval closure whose 𝓜 the verifier searches for itself.
pub const SEARCH_LIMIT: usize = 24;

/// How a structure decides generation.
pub enum Closure {
    /// An interval closure (posets: order intervals; digraphs: directed geodesics).
    Intervals(GraphClosure),
    /// S generates iff it contains one of these masks (the inclusion-minimal listed sets).
    Family(Vec<u64>),
}

/// A poset, a family of sets or a digraph, with its closure.
pub struct Structure {
    /// The closure's name as certificates write it (grundy's operator kinds).
    pub kind: &'static str,
    /// Element names, in certificate order (byte order of the names).
    pub names: Vec<String>,
    pub closure: Closure,
    /// The features a spec's formula may read (`minimal_elements`, …).
    pub features: Vec<(&'static str, i64)>,
}

/// `Blocks(c,[b1,..])` written out as the `Sets(..)` it stands for: the ground set is a core
/// 1..=c followed by at least two disjoint blocks of b1, .. elements, and the generating sets are the ground
/// set minus each block.
fn blocks(inner: &str) -> Result<String, String> {
    let bad = || format!("`Blocks({inner})` is not Blocks(c,[b1,..])");
    let (c, rest) = inner.split_once(',').ok_or_else(bad)?;
    let core: usize = c.trim().parse().map_err(|_| bad())?;
    let list = rest
        .trim()
        .strip_prefix('[')
        .and_then(|r| r.strip_suffix(']'))
        .ok_or_else(bad)?;
    let mut sizes = Vec::new();
    for x in list.split(',') {
        match x.trim().parse::<usize>() {
            Ok(b) if b >= 1 => sizes.push(b),
            _ => return Err(bad()),
        }
    }
    let n = core + sizes.iter().sum::<usize>();
    if n > 64 || sizes.len() < 2 {
        return Err(bad());
    }
    let mut first = core + 1;
    let mut sets = Vec::new();
    for b in sizes {
        let rest: Vec<String> = (1..=n)
            .filter(|x| *x < first || *x >= first + b)
            .map(|x| x.to_string())
            .collect();
        sets.push(format!("{{{}}}", rest.join(",")));
        first += b;
    }
    Ok(sets.join(","))
}

/// Whether `arg` names a structure of this module (or a file-based one, refused).
pub fn looks_like(arg: &str) -> bool {
    let t = arg.trim();
    [
        "poset:",
        "sets:",
        "digraph:",
        "weighted:",
        "Sets(",
        "Blocks(",
        "Digraph(",
        "Weighted(",
    ]
    .iter()
    .any(|p| t.starts_with(p))
        || t.split(" x ").all(|f| {
            let f = f.trim();
            ["Bool(", "Div(", "Chain(", "Poset("]
                .iter()
                .any(|p| f.starts_with(p))
        })
}

/// The structure named `arg` under the spec's `closure:`.
pub fn parse(arg: &str, kind: Kind) -> Result<Structure, String> {
    let t = arg.trim();
    if ["poset:", "sets:", "digraph:", "weighted:"]
        .iter()
        .any(|p| t.starts_with(p))
    {
        return Err(format!(
            "`{t}` is read from a file, which the verifier does not read"
        ));
    }
    if let Some(inner) = t.strip_prefix("Blocks(") {
        let inner = inner
            .strip_suffix(')')
            .ok_or("Blocks(..) is never closed")?;
        return sets(&blocks(inner)?);
    }
    if let Some(inner) = t.strip_prefix("Sets(") {
        let inner = inner.strip_suffix(')').ok_or("Sets(..) is never closed")?;
        return sets(inner);
    }
    if let Some(inner) = t.strip_prefix("Digraph(") {
        let inner = inner
            .strip_suffix(')')
            .ok_or("Digraph(..) is never closed")?;
        return digraph(inner, kind);
    }
    if let Some(inner) = t.strip_prefix("Weighted(") {
        let inner = inner
            .strip_suffix(')')
            .ok_or("Weighted(..) is never closed")?;
        return weighted(inner, kind);
    }
    if !kind.is_geodesic_hull() {
        return Err(format!(
            "posets have the order-convex hull only, not the {} closure",
            kind.text()
        ));
    }
    poset(t)
}

/// Element order as certificates write it: sorted by name; `perm[i]` is the rank of the i-th
/// element as listed.
fn by_name(names: &[String]) -> (Vec<String>, Vec<usize>) {
    let mut order: Vec<usize> = (0..names.len()).collect();
    order.sort_by(|&a, &b| names[a].cmp(&names[b]));
    let mut rank = vec![0; names.len()];
    for (r, &i) in order.iter().enumerate() {
        rank[i] = r;
    }
    (order.iter().map(|&i| names[i].clone()).collect(), rank)
}

/// A poset as names and its order relation `le[a][b]` (a ≤ b).
struct Order {
    names: Vec<String>,
    le: Vec<Vec<bool>>,
}

fn positive(s: &str, t: &str) -> Result<u64, String> {
    s.trim()
        .parse::<u64>()
        .ok()
        .filter(|&n| n >= 1)
        .ok_or_else(|| format!("`{t}`: expected a positive integer"))
}

/// `1<2, 2<3<4, 5`: items separated by commas, each a chain of elements or one element; the
/// order is the reflexive-transitive closure of the chains' steps, refused if it has a cycle.
fn inline_order(t: &str, inner: &str) -> Result<Order, String> {
    let mut names: Vec<String> = Vec::new();
    let mut steps: Vec<(usize, usize)> = Vec::new();
    for item in inner.split(',') {
        let mut prev: Option<usize> = None;
        for e in item.split('<') {
            let e = e.trim();
            // A name as the inline digraphs write them: `Poset(1>2)` is no poset named
            // "1>2", nor `Poset(1<=2)` 1 < "=2".
            if !identifier(e) {
                return Err(format!(
                    "`{t}`: `{}` is not a chain of names (`{e}` is not an element name)",
                    item.trim()
                ));
            }
            let i = match names.iter().position(|x| x == e) {
                Some(i) => i,
                None => {
                    if names.len() >= MAX_ELEMENTS {
                        return Err(format!("`{t}` has more than {MAX_ELEMENTS} elements"));
                    }
                    names.push(e.to_string());
                    names.len() - 1
                }
            };
            if let Some(p) = prev {
                steps.push((p, i));
            }
            prev = Some(i);
        }
    }
    let n = names.len();
    let mut le: Vec<Vec<bool>> = (0..n).map(|a| (0..n).map(|b| a == b).collect()).collect();
    for &(a, b) in &steps {
        le[a][b] = true;
    }
    // Warshall's closure: after round k, paths through elements < k are edges.
    for k in 0..n {
        for a in 0..n {
            for b in 0..n {
                le[a][b] = le[a][b] || (le[a][k] && le[k][b]);
            }
        }
    }
    if (0..n).any(|a| (0..n).any(|b| a != b && le[a][b] && le[b][a])) {
        return Err(format!("`{t}` has a cycle: not a partial order"));
    }
    Ok(Order { names, le })
}

/// The order relation of a poset named `t` (one factor), in its own element order.
#[cfg(test)]
pub fn order_of(t: &str) -> Result<Vec<Vec<bool>>, String> {
    factor(t).map(|o| o.le)
}

fn factor(t: &str) -> Result<Order, String> {
    let (family, arg) = t
        .strip_suffix(')')
        .and_then(|r| r.split_once('('))
        .ok_or_else(|| format!("`{t}` is not a poset the verifier builds"))?;
    if family.trim() == "Poset" {
        return inline_order(t, arg);
    }
    let n = positive(arg, t)?;
    let too_many = || format!("`{t}` has more than {MAX_ELEMENTS} elements");
    match family.trim() {
        "Chain" => {
            if n as usize > MAX_ELEMENTS {
                return Err(too_many());
            }
            let names = (1..=n).map(|i| i.to_string()).collect();
            let le = (1..=n).map(|a| (1..=n).map(|b| a <= b).collect()).collect();
            Ok(Order { names, le })
        }
        "Bool" => {
            if n > 6 {
                return Err(too_many());
            }
            // A subset of {1..n} as the mask of its members.
            let subsets: Vec<u64> = (0..1u64 << n).collect();
            let names = subsets
                .iter()
                .map(|&s| {
                    let members: Vec<String> = (0..n)
                        .filter(|i| s >> i & 1 == 1)
                        .map(|i| (i + 1).to_string())
                        .collect();
                    format!("{{{}}}", members.join(","))
                })
                .collect();
            let le = subsets
                .iter()
                .map(|&a| subsets.iter().map(|&b| a & b == a).collect())
                .collect();
            Ok(Order { names, le })
        }
        "Div" => {
            if n > 1 << 40 {
                return Err(format!("`{t}`: n is too large"));
            }
            // Divisors by trial division up to √n, each d with n / d.
            let mut divisors = Vec::new();
            let mut d = 1u64;
            while d * d <= n {
                if n % d == 0 {
                    divisors.push(d);
                    if d * d != n {
                        divisors.push(n / d);
                    }
                }
                if divisors.len() > MAX_ELEMENTS {
                    return Err(too_many());
                }
                d += 1;
            }
            divisors.sort_unstable();
            let names = divisors.iter().map(u64::to_string).collect();
            let le = divisors
                .iter()
                .map(|&a| divisors.iter().map(|&b| b % a == 0).collect())
                .collect();
            Ok(Order { names, le })
        }
        _ => Err(format!("`{t}` is not a poset the verifier builds")),
    }
}

fn poset(t: &str) -> Result<Structure, String> {
    let factors: Vec<Order> = t
        .split(" x ")
        .map(|f| factor(f.trim()))
        .collect::<Result<_, _>>()?;
    let order = if factors.len() == 1 {
        factors.into_iter().next().expect("one factor")
    } else {
        let size = factors.iter().try_fold(1usize, |a, f| {
            a.checked_mul(f.names.len())
                .filter(|&s| s <= MAX_ELEMENTS)
                .ok_or_else(|| format!("`{t}` has more than {MAX_ELEMENTS} elements"))
        })?;
        // Tuples in mixed radix; their order here is irrelevant (elements are re-sorted by
        // name below).
        let tuples: Vec<Vec<usize>> = (0..size)
            .map(|mut i| {
                let mut c = vec![0; factors.len()];
                for (k, f) in factors.iter().enumerate().rev() {
                    c[k] = i % f.names.len();
                    i /= f.names.len();
                }
                c
            })
            .collect();
        let names = tuples
            .iter()
            .map(|c| {
                let shown: Vec<&str> = c
                    .iter()
                    .zip(&factors)
                    .map(|(&x, f)| f.names[x].as_str())
                    .collect();
                format!("({})", shown.join(","))
            })
            .collect();
        let le = tuples
            .iter()
            .map(|a| {
                tuples
                    .iter()
                    .map(|b| factors.iter().enumerate().all(|(k, f)| f.le[a[k]][b[k]]))
                    .collect()
            })
            .collect();
        Order { names, le }
    };
    let n = order.names.len();
    let (names, rank) = by_name(&order.names);
    if names.windows(2).any(|w| w[0] == w[1]) {
        return Err(format!("`{t}`: two elements of one name"));
    }
    let mut le = vec![vec![false; n]; n];
    for a in 0..n {
        for b in 0..n {
            le[rank[a]][rank[b]] = order.le[a][b];
        }
    }
    // The order interval [x, y] = {z : x ≤ z ≤ y} (empty unless x ≤ y), with x and y.
    let mut interval = vec![vec![0u64; n]; n];
    for x in 0..n {
        for y in 0..n {
            interval[x][y] = (1 << x) | (1 << y);
            if le[x][y] {
                for z in 0..n {
                    if le[x][z] && le[z][y] {
                        interval[x][y] |= 1 << z;
                    }
                }
            }
        }
    }
    let minimal = (0..n)
        .filter(|&a| (0..n).all(|b| b == a || !le[b][a]))
        .count();
    let maximal = (0..n)
        .filter(|&a| (0..n).all(|b| b == a || !le[a][b]))
        .count();
    // Minimal or maximal: an element comparable to none is both, and counted once.
    let extremal = (0..n)
        .filter(|&a| (0..n).all(|b| b == a || !le[b][a]) || (0..n).all(|b| b == a || !le[a][b]))
        .count();
    let relations = (0..n)
        .flat_map(|a| (0..n).map(move |b| (a, b)))
        .filter(|&(a, b)| a != b && le[a][b])
        .count();
    Ok(Structure {
        kind: "poset",
        names,
        closure: Closure::Intervals(GraphClosure::from_intervals(
            n,
            Kind::HULL,
            relations,
            interval,
        )),
        features: vec![
            ("minimal_elements", minimal as i64),
            ("maximal_elements", maximal as i64),
            ("extremal_elements", extremal as i64),
            ("relations", relations as i64),
        ],
    })
}

/// `{1,2},{2,3,4}`: sets in braces, elements separated by commas, the sets by commas.
fn sets(inner: &str) -> Result<Structure, String> {
    let mut listed: Vec<Vec<String>> = Vec::new();
    let mut rest = inner.trim();
    while !rest.is_empty() {
        let body = rest
            .strip_prefix('{')
            .ok_or_else(|| format!("expected a set such as {{1,2}} at `{rest}`"))?;
        let close = body.find('}').ok_or("a set is never closed")?;
        listed.push(
            body[..close]
                .split(',')
                .map(str::trim)
                .filter(|x| !x.is_empty())
                .map(str::to_string)
                .collect(),
        );
        rest = body[close + 1..].trim_start();
        rest = rest.strip_prefix(',').unwrap_or(rest).trim_start();
    }
    if listed.is_empty() {
        return Err("Sets(): no generating sets".into());
    }
    let mut all: Vec<String> = listed.iter().flatten().cloned().collect();
    all.sort();
    all.dedup();
    if all.len() > MAX_ELEMENTS {
        return Err(format!("more than {MAX_ELEMENTS} elements"));
    }
    let index = |x: &String| all.binary_search(x).expect("every element is named");
    let masks: Vec<u64> = listed
        .iter()
        .map(|s| s.iter().fold(0u64, |m, x| m | 1 << index(x)))
        .collect();
    let mut minimal: Vec<u64> = masks
        .iter()
        .copied()
        .filter(|&s| !masks.iter().any(|&t| t != s && t & s == t))
        .collect();
    minimal.sort_unstable();
    minimal.dedup();
    Ok(Structure {
        kind: "sets",
        names: all,
        features: vec![("generating_sets", minimal.len() as i64)],
        closure: Closure::Family(minimal),
    })
}

/// A DOT identifier as the inline digraphs write vertices: letters, digits and `_`, either a
/// number or starting with a letter or `_` (quoted or other identifiers are refused, so the
/// names read here are the names grundy reads).
fn identifier(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'_')
        && (b.iter().all(u8::is_ascii_digit) || !b[0].is_ascii_digit())
}

/// `a->b, b->c->d, e`: arcs (chains of them) and lone vertices, separated by commas.
fn digraph(inner: &str, kind: Kind) -> Result<Structure, String> {
    if !kind.geodesic() {
        return Err(format!(
            "the {} closure is defined for undirected graphs only",
            kind.text()
        ));
    }
    let iterate = kind.iterated();
    let mut names: Vec<String> = Vec::new();
    let mut arcs: Vec<(usize, usize)> = Vec::new();
    for item in inner.split(',') {
        let chain: Vec<&str> = item.split("->").map(str::trim).collect();
        if chain.len() == 1 && chain[0].is_empty() {
            continue;
        }
        let mut ids = Vec::new();
        for v in chain {
            if !identifier(v) {
                return Err(format!("`{v}` is not a vertex name the verifier reads"));
            }
            let i = match names.iter().position(|x| x == v) {
                Some(i) => i,
                None => {
                    names.push(v.to_string());
                    names.len() - 1
                }
            };
            ids.push(i);
        }
        arcs.extend(ids.windows(2).map(|w| (w[0], w[1])));
    }
    let n = names.len();
    if n == 0 || n > MAX_ELEMENTS {
        return Err(format!(
            "{n} vertices; between 1 and {MAX_ELEMENTS} are read"
        ));
    }
    let (names, rank) = by_name(&names);
    let mut out = vec![0u64; n];
    for &(a, b) in &arcs {
        if a != b {
            out[rank[a]] |= 1 << rank[b];
        }
    }
    // d[x][y]: directed distance by breadth-first search from x.
    let dist: Vec<Vec<Option<usize>>> = (0..n)
        .map(|s| {
            let mut d = vec![None; n];
            d[s] = Some(0);
            let mut queue = std::collections::VecDeque::from([s]);
            while let Some(u) = queue.pop_front() {
                let du = d[u].expect("queued vertices are reached");
                for v in 0..n {
                    if out[u] >> v & 1 == 1 && d[v].is_none() {
                        d[v] = Some(du + 1);
                        queue.push_back(v);
                    }
                }
            }
            d
        })
        .collect();
    let mut interval = vec![vec![0u64; n]; n];
    for x in 0..n {
        for y in 0..n {
            interval[x][y] = (1 << x) | (1 << y);
            let Some(dxy) = dist[x][y] else { continue };
            for z in 0..n {
                if let (Some(a), Some(b)) = (dist[x][z], dist[z][y]) {
                    if a + b == dxy {
                        interval[x][y] |= 1 << z;
                    }
                }
            }
        }
    }
    let k = if iterate { Kind::HULL } else { Kind::GEODETIC };
    Ok(Structure {
        kind: if iterate {
            "digraph"
        } else {
            "digraph-geodetic"
        },
        names,
        closure: Closure::Intervals(GraphClosure::from_intervals(n, k, arcs.len(), interval)),
        features: vec![("vertices", n as i64), ("edges", arcs.len() as i64)],
    })
}

/// Largest edge weight read (grundy's bound too): 63 edges of it stay far below 2^64.
pub const MAX_WEIGHT: u64 = 1 << 32;

/// `a-b:2, b-c-d, e`: undirected edges (chains of them, each edge of a chain of the chain's
/// weight, 1 without `:k`) and lone vertices, separated by commas. Refused: an empty item, a
/// weight that is not a decimal integer in 1..=[`MAX_WEIGHT`], a weight on a lone vertex, a
/// self-loop, an edge given twice with different weights, more than 64 vertices.
fn weighted(inner: &str, kind: Kind) -> Result<Structure, String> {
    if !kind.geodesic() {
        return Err(format!(
            "the {} closure is not defined on weighted graphs",
            kind.text()
        ));
    }
    let iterate = kind.iterated();
    let mut names: Vec<String> = Vec::new();
    // (u, v, weight) with u < v in the order listed, each edge once.
    let mut edges: Vec<(usize, usize, u64)> = Vec::new();
    let mut seen: std::collections::HashMap<(usize, usize), u64> = Default::default();
    for item in inner.split(',') {
        let item = item.trim();
        if item.is_empty() {
            return Err("an empty item in Weighted(..)".into());
        }
        let (chain, weight) = match item.split_once(':') {
            None => (item, None),
            Some((c, w)) => {
                let w = w.trim();
                if w.is_empty() || !w.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(format!("`{w}` is not a weight the verifier reads"));
                }
                let w: u64 = w
                    .parse()
                    .ok()
                    .filter(|x| (1..=MAX_WEIGHT).contains(x))
                    .ok_or_else(|| format!("the weight `{w}` is not in 1..={MAX_WEIGHT}"))?;
                (c, Some(w))
            }
        };
        let mut ids = Vec::new();
        for v in chain.split('-').map(str::trim) {
            if !identifier(v) {
                return Err(format!("`{v}` is not a vertex name the verifier reads"));
            }
            let i = match names.iter().position(|x| x == v) {
                Some(i) => i,
                None => {
                    if names.len() == MAX_ELEMENTS {
                        return Err(format!("more than {MAX_ELEMENTS} vertices"));
                    }
                    names.push(v.to_string());
                    names.len() - 1
                }
            };
            ids.push(i);
        }
        if ids.len() == 1 && weight.is_some() {
            return Err(format!("`{item}`: a weight on a lone vertex"));
        }
        let w = weight.unwrap_or(1);
        for p in ids.windows(2) {
            let (a, b) = (p[0].min(p[1]), p[0].max(p[1]));
            if a == b {
                return Err(format!("a self-loop at `{}`", names[a]));
            }
            match seen.get(&(a, b)) {
                Some(&old) if old != w => {
                    return Err(format!(
                        "the edge {}-{} has the weights {old} and {w}",
                        names[a], names[b]
                    ))
                }
                Some(_) => {}
                None => {
                    seen.insert((a, b), w);
                    edges.push((a, b, w));
                }
            }
        }
    }
    let n = names.len();
    if n == 0 {
        return Err("Weighted(..) has no vertices".into());
    }
    let (names, rank) = by_name(&names);
    // adj[x][y]: the weight of the edge x–y, in certificate order.
    let mut adj = vec![vec![None; n]; n];
    for &(a, b, w) in &edges {
        adj[rank[a]][rank[b]] = Some(w);
        adj[rank[b]][rank[a]] = Some(w);
    }
    // d[s][x]: least total weight from s, by Dijkstra's algorithm (array form, n ≤ 64).
    let dist: Vec<Vec<Option<u64>>> = (0..n)
        .map(|s| {
            let mut d: Vec<Option<u64>> = vec![None; n];
            let mut done = vec![false; n];
            d[s] = Some(0);
            while let Some(u) = (0..n)
                .filter(|&u| !done[u] && d[u].is_some())
                .min_by_key(|&u| d[u])
            {
                done[u] = true;
                let du = d[u].expect("picked vertices are reached");
                for v in 0..n {
                    if let Some(w) = adj[u][v] {
                        let via = du + w;
                        if d[v].is_none_or(|dv| via < dv) {
                            d[v] = Some(via);
                        }
                    }
                }
            }
            d
        })
        .collect();
    let mut interval = vec![vec![0u64; n]; n];
    for x in 0..n {
        for y in 0..n {
            interval[x][y] = (1 << x) | (1 << y);
            let Some(dxy) = dist[x][y] else { continue };
            for z in 0..n {
                if let (Some(a), Some(b)) = (dist[x][z], dist[z][y]) {
                    if a + b == dxy {
                        interval[x][y] |= 1 << z;
                    }
                }
            }
        }
    }
    let k = if iterate { Kind::HULL } else { Kind::GEODETIC };
    Ok(Structure {
        kind: if iterate {
            "weighted"
        } else {
            "weighted-geodetic"
        },
        names,
        closure: Closure::Intervals(GraphClosure::from_intervals(n, k, edges.len(), interval)),
        features: vec![("vertices", n as i64), ("edges", edges.len() as i64)],
    })
}

impl Structure {
    pub fn n(&self) -> usize {
        self.names.len()
    }

    pub fn all(&self) -> u64 {
        if self.n() == 64 {
            u64::MAX
        } else {
            (1u64 << self.n()) - 1
        }
    }

    /// Whether [`Structure::maximal_nongenerating`] is tried: families always (Berge's
    /// algorithm is cheap on few sets), interval closures up to [`SEARCH_LIMIT`] elements (the
    /// closed sets of Bool(6) are far more than the search's budget, and reaching the budget
    /// costs minutes); past it the certificate's list is checked ([`check_listed`]).
    pub fn searchable(&self) -> bool {
        matches!(self.closure, Closure::Family(_)) || self.n() <= SEARCH_LIMIT
    }

    pub fn generates(&self, s: u64) -> bool {
        match &self.closure {
            Closure::Intervals(op) => op.generates(s),
            Closure::Family(f) => f.iter().any(|&m| m & !s == 0),
        }
    }

    /// 𝓜 of the building games, ascending as masks; `None` past the search budget.
    pub fn maximal_nongenerating(&self) -> Option<Vec<u64>> {
        match &self.closure {
            Closure::Intervals(op) => op.maximal_nongenerating(),
            Closure::Family(f) => {
                let mut out: Vec<u64> = minimal_transversals(self.n(), f)?
                    .into_iter()
                    .map(|t| self.all() & !t)
                    .collect();
                out.sort_unstable();
                Some(out)
            }
        }
    }

    /// 𝓜 of the removing games (the complements of the minimal generating sets), from the
    /// building games' 𝓜: S generates iff S lies in no member of 𝓜, i.e. meets every
    /// complement X ∖ M, so the minimal generating sets are the minimal transversals of
    /// those complements.
    pub fn maximal_nonterminating(&self) -> Option<Vec<u64>> {
        let all = self.all();
        let complements: Vec<u64> = self
            .maximal_nongenerating()?
            .into_iter()
            .map(|m| all & !m)
            .collect();
        let mut out: Vec<u64> = minimal_transversals(self.n(), &complements)?
            .into_iter()
            .map(|t| all & !t)
            .collect();
        out.sort_unstable();
        Some(out)
    }
}

/// The inclusion-minimal sets meeting every set of `edges` (Berge's algorithm, edge by
/// edge), ascending; `None` past [`FAMILY_BUDGET`] sets. With no edges, ∅ alone; an empty
/// edge has no transversal.
pub fn minimal_transversals(n: usize, edges: &[u64]) -> Option<Vec<u64>> {
    debug_assert!(n <= 64);
    let mut tr: Vec<u64> = vec![0];
    for &e in edges {
        let mut next: Vec<u64> = Vec::new();
        for &t in &tr {
            if t & e != 0 {
                next.push(t);
            } else {
                let mut rest = e;
                while rest != 0 {
                    let x = rest.trailing_zeros();
                    rest &= rest - 1;
                    next.push(t | 1 << x);
                }
            }
            if next.len() > FAMILY_BUDGET {
                return None;
            }
        }
        next.sort_unstable();
        next.dedup();
        let keep: Vec<u64> = next
            .iter()
            .copied()
            .filter(|&s| !next.iter().any(|&t| t != s && t & s == t))
            .collect();
        tr = keep;
    }
    tr.sort_unstable();
    Some(tr)
}

/// Why a listed family is not 𝓜.
pub enum ListCheck {
    /// It is wrong: the reason names the set.
    Wrong(String),
    /// Past the budget of the check.
    Budget,
}

/// Checks that `listed` (masks over `n` ≤ 64 elements) is exactly the family of maximal
/// legal sets of a monotone `generates`, building (legal = non-generating) or removing
/// (legal = the complement generates), without listing the legal sets.
///
/// Building: (a) every listed M is non-generating, (b) M ∪ {x} generates for every x ∉ M, and
/// (c) every minimal transversal T of {X ∖ M : M listed} generates. Then a non-generating S
/// lies in some listed M (else S meets every X ∖ M, so contains some T, and generates), so
/// every maximal non-generating set is listed; and each listed M is non-generating with every
/// proper superset generating (it contains some M ∪ {x}): maximal. Removing: the same with the
/// complements G = X ∖ M as the candidate minimal generating sets: (a) G generates, (b)
/// G ∖ {x} does not, (c) X ∖ T is non-generating for every minimal transversal T of the G's
/// (a generating S containing no G has X ∖ S meeting every G).
pub fn check_listed(
    n: usize,
    listed: &[u64],
    building: bool,
    generates: impl Fn(u64) -> bool,
) -> Result<(), ListCheck> {
    let all = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
    let show = |m: u64| {
        format!(
            "{:?}",
            (0..n).filter(|&i| m >> i & 1 == 1).collect::<Vec<_>>()
        )
    };
    let mut sorted = listed.to_vec();
    sorted.sort_unstable();
    if sorted.windows(2).any(|w| w[0] == w[1]) {
        return Err(ListCheck::Wrong(
            "the certificate lists a maximal legal set twice".into(),
        ));
    }
    for &m in listed {
        if m & !all != 0 {
            return Err(ListCheck::Wrong(format!(
                "the listed set {} is not within the ground set",
                show(m)
            )));
        }
        let legal = |s: u64| {
            if building {
                !generates(s)
            } else {
                generates(all & !s)
            }
        };
        if !legal(m) {
            return Err(ListCheck::Wrong(format!(
                "the listed set {} is not legal",
                show(m)
            )));
        }
        if let Some(x) = (0..n).find(|&x| m >> x & 1 == 0 && legal(m | 1 << x)) {
            return Err(ListCheck::Wrong(format!(
                "the listed set {} is not maximal: adding element {x} keeps it legal",
                show(m)
            )));
        }
    }
    let complements: Vec<u64> = listed.iter().map(|&m| all & !m).collect();
    let tr = minimal_transversals(n, &complements).ok_or(ListCheck::Budget)?;
    for t in tr {
        let (ok, s) = if building {
            (generates(t), t)
        } else {
            (!generates(all & !t), all & !t)
        };
        if !ok {
            return Err(ListCheck::Wrong(format!(
                "the list is incomplete: the legal set {} lies in no listed set",
                show(s)
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build(name: &str, kind: Kind) -> Structure {
        parse(name, kind).unwrap_or_else(|e| panic!("{name}: {e}"))
    }

    #[test]
    fn blocks_are_the_sets_they_stand_for() {
        assert_eq!(blocks("1,[2,1]").unwrap(), "{1,4},{1,2,3}");
        assert_eq!(blocks("0,[1,1,1]").unwrap(), "{2,3},{1,3},{1,2}");
        assert!(blocks("1,[3]").is_err());
        assert!(blocks("1,[0,2]").is_err());
        assert!(parse("Blocks(2,[1,1])", Kind::HULL).is_ok());
    }

    /// Every subset, listed: the maximal legal sets by definition.
    fn listed(s: &Structure, building: bool) -> Vec<u64> {
        let n = s.n();
        assert!(n <= 16);
        let all = s.all();
        let legal = |p: u64| {
            if building {
                !s.generates(p)
            } else {
                s.generates(all & !p)
            }
        };
        let mut out: Vec<u64> = (0..1u64 << n)
            .filter(|&p| legal(p) && (0..n).all(|x| p >> x & 1 == 1 || !legal(p | 1 << x)))
            .collect();
        out.sort_unstable();
        out
    }

    const SMALL: &[(&str, Kind)] = &[
        ("Bool(1)", Kind::HULL),
        ("Bool(3)", Kind::HULL),
        ("Bool(4)", Kind::HULL),
        ("Div(1)", Kind::HULL),
        ("Div(12)", Kind::HULL),
        ("Div(30)", Kind::HULL),
        ("Chain(1)", Kind::HULL),
        ("Chain(5)", Kind::HULL),
        ("Chain(2) x Chain(3)", Kind::HULL),
        ("Bool(1) x Div(6) x Chain(2)", Kind::HULL),
        ("Sets({1,2},{2,3,4})", Kind::HULL),
        ("Sets({1},{2},{3})", Kind::HULL),
        ("Sets({1,2,3},{1,2},{4,5},{2,5})", Kind::HULL),
        ("Sets({})", Kind::HULL),
        ("Digraph(1->2, 2->3, 3->1)", Kind::HULL),
        ("Digraph(1->2, 2->3, 3->1)", Kind::GEODETIC),
        ("Digraph(a->b->c->d, a->c, d->a)", Kind::HULL),
        ("Digraph(a->b->c->d, a->c, d->a)", Kind::GEODETIC),
        ("Digraph(1->2, 1->3, 2->4, 3->4, 5)", Kind::HULL),
        ("Digraph(1->2, 1->3, 2->4, 3->4, 5)", Kind::GEODETIC),
        (
            "Digraph(0->1, 1->2, 2->3, 3->4, 4->5, 5->0, 0->3)",
            Kind::GEODETIC,
        ),
        ("Weighted(a-b, b-c, a-c:2)", Kind::HULL),
        ("Weighted(a-b, b-c, a-c:2)", Kind::GEODETIC),
        (
            "Weighted(x1-y1, x1-y2, x2-y1, x2-y2, x3-y1, x3-y2:2)",
            Kind::HULL,
        ),
        (
            "Weighted(x1-y1, x1-y2, x2-y1, x2-y2, x3-y1, x3-y2:2)",
            Kind::GEODETIC,
        ),
        ("Weighted(a-b:3, b-c:1, c-d:1, d-a:1, e)", Kind::HULL),
        ("Weighted(v1-v2-v3-v4-v5-v6, v6-v1:3)", Kind::GEODETIC),
    ];

    /// The searches (closed sets, one step vertex by vertex, transversals) find exactly the
    /// maximal legal sets that listing every subset finds, both directions; and the check of a
    /// listed family accepts the right one and rejects it with a set dropped, a set added or
    /// a set shrunk.
    #[test]
    fn maximal_sets_are_the_listed_ones_and_the_check_agrees() {
        for &(name, kind) in SMALL {
            let s = build(name, kind);
            let b = listed(&s, true);
            assert_eq!(s.maximal_nongenerating().unwrap(), b, "{name}");
            let r = listed(&s, false);
            assert_eq!(s.maximal_nonterminating().unwrap(), r, "{name} removing");
            for (fam, building) in [(&b, true), (&r, false)] {
                let gen = |p: u64| s.generates(p);
                assert!(check_listed(s.n(), fam, building, gen).is_ok(), "{name}");
                if !fam.is_empty() {
                    let dropped = &fam[1..];
                    assert!(
                        matches!(
                            check_listed(s.n(), dropped, building, gen),
                            Err(ListCheck::Wrong(_))
                        ),
                        "{name}: a dropped set"
                    );
                    let m = fam[0];
                    if m != 0 {
                        let shrunk = [&[m & (m - 1)], &fam[1..]].concat();
                        assert!(
                            matches!(
                                check_listed(s.n(), &shrunk, building, gen),
                                Err(ListCheck::Wrong(_))
                            ),
                            "{name}: a shrunk set"
                        );
                    }
                }
                let extra = [&fam[..], &[s.all()]].concat();
                assert!(
                    matches!(
                        check_listed(s.n(), &extra, building, gen),
                        Err(ListCheck::Wrong(_))
                    ),
                    "{name}: the whole ground set added"
                );
            }
        }
    }

    /// Posets by definition: the order-convex hull generates iff it holds every minimal and
    /// every maximal element (the shortcut grundy uses, a cross-check here on every subset),
    /// and the families have their known sizes and extremal counts.
    #[test]
    fn posets_are_the_textbook_ones() {
        for (name, size, min, max, ext, rel) in [
            ("Bool(3)", 8, 1, 1, 2, 19),
            ("Div(12)", 6, 1, 1, 2, 12),
            ("Chain(4)", 4, 1, 1, 2, 6),
            ("Chain(2) x Chain(3)", 6, 1, 1, 2, 12),
            ("Div(1)", 1, 1, 1, 1, 0),
            // Inline: a V, a point comparable to none (minimal and maximal, once extremal),
            // a chain written in one item (1<3 by transitivity).
            ("Poset(a<b, a<c, d)", 4, 2, 3, 4, 2),
            ("Poset(1<2<3)", 3, 1, 1, 2, 3),
            ("Poset(x)", 1, 1, 1, 1, 0),
        ] {
            let s = build(name, Kind::HULL);
            assert_eq!(s.n(), size, "{name}");
            assert_eq!(
                s.features,
                vec![
                    ("minimal_elements", min),
                    ("maximal_elements", max),
                    ("extremal_elements", ext),
                    ("relations", rel)
                ],
                "{name}"
            );
        }
        // The shortcut as a cross-check on every subset: with the least and the greatest
        // element named, S generates iff it holds both.
        for (name, least, greatest) in [
            ("Bool(3)", "{}", "{1,2,3}"),
            ("Div(12)", "1", "12"),
            ("Chain(4)", "1", "4"),
            ("Chain(2) x Chain(3)", "(1,1)", "(2,3)"),
            ("Bool(1) x Div(6)", "({},1)", "({1},6)"),
        ] {
            let s = build(name, Kind::HULL);
            let at = |x: &str| s.names.iter().position(|y| y == x).expect(x);
            let both = 1u64 << at(least) | 1u64 << at(greatest);
            for p in 0..1u64 << s.n() {
                assert_eq!(s.generates(p), p & both == both, "{name} {p:b}");
            }
        }
        // Bool(2): {} < {1}, {2} < {1,2}; the hull of {1} and {2} is just them (incomparable),
        // of {} and {1,2} everything.
        let s = build("Bool(2)", Kind::HULL);
        assert_eq!(s.names, ["{1,2}", "{1}", "{2}", "{}"]);
        let Closure::Intervals(op) = &s.closure else {
            panic!()
        };
        assert_eq!(op.close(0b0110), 0b0110);
        assert_eq!(op.close(0b1001), 0b1111);
        assert!(s.generates(0b1001) && !s.generates(0b0111) && !s.generates(0b1110));
        // Names sort as text: Div(12)'s elements are 1, 12, 2, 3, 4, 6.
        assert_eq!(
            build("Div(12)", Kind::HULL).names,
            ["1", "12", "2", "3", "4", "6"]
        );
        assert!(parse("Bool(7)", Kind::HULL).is_err());
        assert!(parse("Chain(0)", Kind::HULL).is_err());
        assert!(parse("Chain(3)", Kind::GEODETIC).is_err());
        assert!(parse("poset:x.txt", Kind::HULL).is_err());
        // Inline posets: a cycle, an empty element, an unclosed bracket are refused.
        assert!(parse("Poset(1<2, 2<1)", Kind::HULL).is_err());
        assert!(parse("Poset(1<, 2)", Kind::HULL).is_err());
        assert!(parse("Poset()", Kind::HULL).is_err());
        assert!(parse("Poset(1<2", Kind::HULL).is_err());
        // Element names are names: no other relation sign is read as part of one.
        for bad in [
            "Poset(1>2)",
            "Poset(1<=2)",
            "Poset(a<b-c)",
            "Poset(2x)",
            "Poset(a b)",
        ] {
            let e = parse(bad, Kind::HULL)
                .err()
                .unwrap_or_else(|| panic!("{bad} read"));
            assert!(e.contains("not an element name"), "{bad}: {e}");
        }
        assert_eq!(build("Poset(a_1<b2, 10)", Kind::HULL).n(), 3);
        // Poset(1<2, 1<3) x Chain(2): a product with an inline factor, 6 elements.
        assert_eq!(build("Poset(1<2, 1<3) x Chain(2)", Kind::HULL).n(), 6);
    }

    /// Digraphs: in the directed triangle 1→2→3→1 the only shortest path from 1 to 3 is
    /// 1→2→3, so {1, 3} generates in one step; {1, 2} spans only the arc 1→2 (from 2 to 1 the
    /// path is 2→3→1, which holds 3): {1, 2} generates too; the one-step closure of {1} is
    /// {1}.
    #[test]
    fn digraph_intervals_are_directed() {
        let s = build("Digraph(1->2, 2->3, 3->1)", Kind::GEODETIC);
        assert_eq!(s.names, ["1", "2", "3"]);
        assert!(s.generates(0b101) && s.generates(0b011) && !s.generates(0b001));
        // A directed path a→b→c: from c nothing is reachable, so {b, c} stays {b, c}.
        let p = build("Digraph(a->b->c)", Kind::HULL);
        assert!(!p.generates(0b110) && p.generates(0b101));
        assert_eq!(p.features, vec![("vertices", 3), ("edges", 2)]);
        assert!(parse("Digraph(a->\"b\")", Kind::HULL).is_err());
        assert!(parse("Digraph(a->b)", Kind::MONOPHONIC).is_err());
        assert!(parse("digraph:x.dot", Kind::HULL).is_err());
    }

    /// Weighted graphs, by hand. On K_{3,2} (x1, x2, x3 | y1, y2) with x3-y2 of weight 2, the
    /// only least-weight y1-y2 paths pass x1 or x2 (via x3 it weighs 3), so the hull of
    /// {y1, y2} is {x1, x2, y1, y2}, where on the unweighted K_{3,2} it is everything; and
    /// {x1, x3, y2} generates under the hull (one step gives {x1, x3, y1, y2}, the next adds
    /// x2 from I[y1, y2]) but not in one step. Names rank x1, x2, x3, y1, y2 as 0..4.
    #[test]
    fn weighted_intervals_by_hand() {
        let name = "Weighted(x1-y1, x1-y2, x2-y1, x2-y2, x3-y1, x3-y2:2)";
        let Closure::Intervals(hull) = build(name, Kind::HULL).closure else {
            panic!("an interval closure")
        };
        assert_eq!(hull.close(0b11000), 0b11011);
        assert_eq!(hull.close(0b10101), 0b11111);
        let Closure::Intervals(step) = build(name, Kind::GEODETIC).closure else {
            panic!("an interval closure")
        };
        assert_eq!(step.close(0b10101), 0b11101);
        let unweighted = build(&name.replace(":2", ""), Kind::HULL);
        assert!(unweighted.generates(0b11000));
        assert_eq!(
            build(name, Kind::HULL).features,
            vec![("vertices", 5), ("edges", 6)]
        );
        // Unit weights are the graph's own geodesics: the inline 5-cycle against C_5 (the
        // names v1..v5 sort as the family's vertex order).
        let c5 = GraphClosure::new(&crate::names::parse_graph("C_5").unwrap(), Kind::HULL).unwrap();
        let w5 = build("Weighted(v1-v2-v3-v4-v5-v1)", Kind::HULL);
        for s in 0..1u64 << 5 {
            assert_eq!(c5.generates(s), w5.generates(s), "{s:05b}");
        }
        // A heavy chord: I[a, c] holds b when a-c weighs 2 (both routes) or more, not at 1.
        assert!(build("Weighted(a-b, b-c, a-c:2)", Kind::GEODETIC).generates(0b101));
        assert!(build("Weighted(a-b, b-c, a-c:9)", Kind::GEODETIC).generates(0b101));
        assert!(!build("Weighted(a-b, b-c, a-c)", Kind::GEODETIC).generates(0b101));
        for bad in [
            "Weighted()",
            "Weighted(a-b,)",
            "Weighted(a-a)",
            "Weighted(a-b:0)",
            "Weighted(a-b:-1)",
            "Weighted(a-b:+2)",
            "Weighted(a-b:4294967297)",
            "Weighted(a-b:2, b-a:3)",
            "Weighted(a:2)",
            "Weighted(a--b)",
            "Weighted(\"a\"-b)",
            "Weighted(a-b",
        ] {
            assert!(parse(bad, Kind::HULL).is_err(), "{bad}");
        }
        assert!(parse("Weighted(a-b:2, b-a:2)", Kind::HULL).is_ok());
        assert!(parse("Weighted(a-b)", Kind::MONOPHONIC).is_err());
        assert!(parse("weighted:x.dot", Kind::HULL).is_err());
        let many: Vec<String> = (0..65).map(|i| format!("v{i}")).collect();
        assert!(parse(&format!("Weighted({})", many.join(", ")), Kind::HULL).is_err());
    }

    #[test]
    fn transversals_are_minimal() {
        assert_eq!(minimal_transversals(3, &[]), Some(vec![0]));
        assert_eq!(
            minimal_transversals(3, &[0b011, 0b110]),
            Some(vec![0b010, 0b101])
        );
        assert_eq!(minimal_transversals(3, &[0]), Some(vec![]));
    }
}
