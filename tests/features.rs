//! Every position feature's documented meaning (`grundy features`, the guide's generated
//! page) against what the code computes (issue 46 item 11): each feature is recomputed here
//! from its description alone — from the graph's distances, the group's multiplication, the
//! game's rules — on every position reachable in a small game of each kind, and compared with
//! the value the game reports. A feature with no check here fails the test, so a new feature
//! comes with one. The old description of `terminating` ([P] = V) is the wrong variant: it
//! disagrees with the code on positions of every graph game here.

use grundy::cli::features::examples;
use grundy::expr::{parse_game, ParseOptions};
use grundy::game::closure::{ClosureGame, Direction, Set};
use grundy::game::features::{FeatureDoc, Value};
use grundy::game::removing::RemovingGame;
use grundy::game::{AnyGame, AnyPos, Game};
use grundy::graph::{bits, parse_graph, Graph};
use grundy::group::families::parse_group;
use std::collections::{BTreeSet, HashSet, VecDeque};

/// Games besides the guide's examples, so that every feature of every table is reached:
/// complete multipartite graphs past 64 vertices (read by part counts), the removing games on a structure (`legal`
/// means nonterminating there), a chain, an abelian group, a path for the family features.
const MORE: &[&str] = &[
    "TER(P_4)",
    "DNT(K_{2,3})",
    "TER(C_6)",
    "DNG(K_{1,1,63})",
    "TER(Sym(3))",
    "DNT(Chain(4))",
    "GEN(Cyc(4))",
    "DNG(Dih(4))",
    "GEN(Chain(3))",
    "SPL(2,5)",
    "DC(6)",
    "TER{1,2,3,3}",
    "0.137(4,3)",
];

/// The positions reachable from the start, breadth first, at most `cap`.
fn reachable(g: &AnyGame, cap: usize) -> Vec<AnyPos> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let mut queue = VecDeque::from([g.start()]);
    while let Some(p) = queue.pop_front() {
        if out.len() >= cap || !seen.insert(p.clone()) {
            continue;
        }
        for q in g.options(&p) {
            queue.push_back(q);
        }
        out.push(p);
    }
    out
}

fn int(v: usize) -> Value {
    Value::Int(v as i64)
}

// ---------------------------------------------------------------- graphs, independently

/// Distances by breadth-first search over the neighbour lists.
fn distances(g: &Graph) -> Vec<Vec<u32>> {
    (0..g.n())
        .map(|s| {
            let mut d = vec![u32::MAX; g.n()];
            d[s] = 0;
            let mut q = VecDeque::from([s]);
            while let Some(v) = q.pop_front() {
                for &w in g.neighbours(v) {
                    if d[w] == u32::MAX {
                        d[w] = d[v] + 1;
                        q.push_back(w);
                    }
                }
            }
            d
        })
        .collect()
}

/// The convex hull [S]: add every vertex on a shortest path between two members, repeatedly.
fn hull(d: &[Vec<u32>], s: u64) -> u64 {
    let n = d.len();
    let mut h = s;
    loop {
        let mut next = h;
        for a in bits(h) {
            for b in bits(h) {
                for w in 0..n {
                    if d[a][w] + d[w][b] == d[a][b] {
                        next |= 1 << w;
                    }
                }
            }
        }
        if next == h {
            return h;
        }
        h = next;
    }
}

/// The vertices of a cycle in their cyclic order, or None.
fn cycle_order(g: &Graph) -> Option<Vec<usize>> {
    if g.n() < 3 || (0..g.n()).any(|v| g.neighbours(v).len() != 2) || g.edge_count() != g.n() {
        return None;
    }
    let mut order = vec![0usize];
    let mut prev = usize::MAX;
    let mut v = 0;
    loop {
        let next = *g.neighbours(v).iter().find(|&&w| w != prev)?;
        if next == 0 {
            break;
        }
        order.push(next);
        prev = v;
        v = next;
    }
    (order.len() == g.n()).then_some(order)
}

/// The lengths of the maximal runs of unselected vertices around the cycle.
fn gaps(order: &[usize], p: u64) -> Vec<usize> {
    let n = order.len();
    let Some(first) = (0..n).find(|&i| p >> order[i] & 1 == 1) else {
        return vec![n];
    };
    let mut out = Vec::new();
    let mut run = 0;
    for k in 1..=n {
        let v = order[(first + k) % n];
        if p >> v & 1 == 1 {
            if run > 0 {
                out.push(run);
            }
            run = 0;
        } else {
            run += 1;
        }
    }
    out
}

/// What the description of each TER/DNT feature says, at P.
fn removing_expected(g: &RemovingGame, p: u64, name: &str) -> Option<Value> {
    let gr = g.graph();
    let n = gr.n();
    let full = (1u64 << n) - 1;
    let d = distances(gr);
    let generates = |s: u64| hull(&d, s) == full;
    let terminating = |s: u64| !generates(full & !s);
    let subsets = || 0..=full;
    // 𝒢: the generating sets minimal under inclusion.
    let gen: Vec<u64> = subsets().filter(|&s| generates(s)).collect();
    let min_gen: Vec<u64> = gen
        .iter()
        .copied()
        .filter(|&s| !gen.iter().any(|&t| t != s && t & s == t))
        .collect();
    // 𝒩*: the maximal nonterminating sets.
    let nonterm: Vec<u64> = subsets().filter(|&s| !terminating(s)).collect();
    let n_star: Vec<u64> = nonterm
        .iter()
        .copied()
        .filter(|&s| !nonterm.iter().any(|&t| t != s && t & s == s))
        .collect();
    let diam = d.iter().flatten().copied().max().unwrap();
    let unselected_names = |s: u64| bits(s).map(|v| gr.vertex_name(v).to_string()).collect();
    let order = cycle_order(gr);
    let gap_list = order.as_ref().map(|o| gaps(o, p));
    let count_gaps = |f: &dyn Fn(usize) -> bool| {
        gap_list
            .as_ref()
            .map(|gs| int(gs.iter().filter(|&&x| f(x)).count()))
    };
    Some(match name {
        "selected" => Value::Set(unselected_names(p)),
        "size" => int(p.count_ones() as usize),
        "unselected" => int(n - p.count_ones() as usize),
        "terminating" => Value::Bool(terminating(p)),
        "vertices" => int(n),
        "edges" => int((0..n).map(|v| gr.neighbours(v).len()).sum::<usize>() / 2),
        "free_antipodal_pairs" => int((0..n)
            .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
            .filter(|&(a, b)| {
                p >> a & 1 == 0 && p >> b & 1 == 0 && d[a][b] == diam && generates(1 << a | 1 << b)
            })
            .count()),
        "min_gen_sets" => int(min_gen.len()),
        "gen_unique" => Value::Bool(min_gen.len() == 1),
        "gen_complement" => Value::Int(if min_gen.len() == 1 {
            (n - min_gen[0].count_ones() as usize) as i64
        } else {
            -1
        }),
        "n_star_sizes" => Value::List(n_star.iter().map(|s| s.count_ones() as i64).collect()),
        "n_star_union" => int(n_star.iter().fold(0, |a, s| a | s).count_ones() as usize),
        // Seed 000 §3: TER selects any vertex while P is nonterminating; DNT selects one
        // that keeps P nonterminating. The parities of the sizes of the terminal positions
        // reached from p, by a search of the supersets written here.
        "terminal_parities" => {
            let ter = matches!(g.rule(), grundy::game::removing::Rule::Ter);
            let options = |q: u64| -> Vec<u64> {
                if ter && terminating(q) {
                    return Vec::new();
                }
                (0..n)
                    .filter(|&v| q >> v & 1 == 0)
                    .map(|v| q | 1 << v)
                    .filter(|&o| ter || !terminating(o))
                    .collect()
            };
            parities_from(p, &options, &|q| q.count_ones())
        }
        "gaps" => return count_gaps(&|_| true),
        "gaps1" => return count_gaps(&|x| x == 1),
        "gaps2" => return count_gaps(&|x| x == 2),
        "gaps3" => return count_gaps(&|x| x == 3),
        "odd_gaps" => return count_gaps(&|x| x % 2 == 1),
        "even_gaps" => return count_gaps(&|x| x.is_multiple_of(2)),
        "max_gap" => return gap_list.map(|g| int(g.into_iter().max().unwrap_or(0))),
        "min_gap" => return gap_list.map(|g| int(g.into_iter().min().unwrap_or(0))),
        _ => return None,
    })
}

// ---------------------------------------------------------------- closure games

/// Whether S generates the ground set, read off the building game GEN on the same structure:
/// a set has no GEN move exactly when it generates.
fn generates_by_gen(gen: &AnyGame, s: &Set) -> bool {
    gen.options(&AnyPos::Elements(s.clone())).is_empty()
}

fn all_sets(size: usize) -> Vec<Set> {
    (0u64..1 << size)
        .map(|m| {
            let mut s = Set::with_capacity(size);
            for i in bits(m) {
                s.insert(i);
            }
            s
        })
        .collect()
}

/// The group's own features from its multiplication table, by brute force over subsets.
fn group_expected(structure: &str, name: &str) -> Option<Value> {
    let g = parse_group(structure).ok()?;
    let n = g.order();
    let e = (0..n).find(|&a| (0..n).all(|b| g.mul(a, b) == b))?;
    let closed =
        |s: u64| s >> e & 1 == 1 && bits(s).all(|a| bits(s).all(|b| s >> g.mul(a, b) & 1 == 1));
    let subgroups: Vec<u64> = (0u64..1 << n).filter(|&s| closed(s)).collect();
    let full = (1u64 << n) - 1;
    let maximal: Vec<u64> = subgroups
        .iter()
        .copied()
        .filter(|&h| h != full && !subgroups.iter().any(|&k| k != full && k != h && k & h == h))
        .collect();
    let conj = |h: u64, x: usize| {
        let xi = (0..n).find(|&y| g.mul(x, y) == e).unwrap();
        bits(h).fold(0u64, |m, a| m | 1 << g.mul(g.mul(x, a), xi))
    };
    let classes: BTreeSet<u64> = subgroups
        .iter()
        .map(|&h| (0..n).map(|x| conj(h, x)).min().unwrap())
        .collect();
    let order_of = |a: usize| {
        let mut k = 1;
        let mut x = a;
        while x != e {
            x = g.mul(x, a);
            k += 1;
        }
        k
    };
    let even = |h: &u64| h.count_ones().is_multiple_of(2);
    Some(match name {
        "order" => int(n),
        "abelian" => Value::Bool((0..n).all(|a| (0..n).all(|b| g.mul(a, b) == g.mul(b, a)))),
        "subgroups" => int(subgroups.len()),
        "subgroup_classes" => int(classes.len()),
        "maximal_subgroups" => int(maximal.len()),
        "frattini_order" => int(maximal.iter().fold(full, |a, m| a & m).count_ones() as usize),
        "max_element_order" => int((0..n).map(order_of).max().unwrap()),
        "involutions" => int((0..n).filter(|&a| order_of(a) == 2).count()),
        "maximal_all_even" => Value::Bool(maximal.iter().all(even)),
        "even_maximals_cover" => {
            Value::Bool(maximal.iter().filter(|h| even(h)).fold(0, |a, m| a | m) == full)
        }
        _ => return None,
    })
}

/// A poset's features for the named families used here, from their definitions: Bool(k) is
/// the subsets of a k-set by inclusion, Chain(k) a k-element total order.
fn poset_expected(structure: &str, name: &str) -> Option<Value> {
    let arg = |p: &str| {
        structure
            .strip_prefix(p)?
            .strip_suffix(')')?
            .parse::<u32>()
            .ok()
    };
    let (minimal, maximal, relations) = if let Some(k) = arg("Bool(") {
        (1, 1, 3i64.pow(k) - 2i64.pow(k))
    } else if let Some(k) = arg("Chain(") {
        (1, 1, i64::from(k * (k - 1) / 2))
    } else {
        return None;
    };
    Some(match name {
        "minimal_elements" => int(minimal),
        "maximal_elements" => int(maximal),
        "extremal_elements" => int(minimal + maximal),
        "relations" => Value::Int(relations),
        _ => return None,
    })
}

/// The parities of |Q| of the terminal positions Q reachable from `p` (no options), as the
/// feature lists them: [0], [1] or [0, 1].
fn parities_from<P: Clone + Eq + std::hash::Hash>(
    p: P,
    options: &dyn Fn(P) -> Vec<P>,
    size: &dyn Fn(&P) -> u32,
) -> Value {
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![p];
    let mut found = [false; 2];
    while let Some(q) = stack.pop() {
        if !seen.insert(q.clone()) {
            continue;
        }
        let opts = options(q.clone());
        if opts.is_empty() {
            found[(size(&q) % 2) as usize] = true;
        }
        stack.extend(opts);
    }
    Value::List((0..2).filter(|&b| found[b as usize]).collect())
}

fn closure_expected(g: &ClosureGame, p: &Set, name: &str) -> Option<Value> {
    let structure = g.operator().structure();
    let gen = parse_game(&format!("GEN({structure})"), ParseOptions::default()).unwrap();
    let size = g.size();
    let complement = |s: &Set| {
        let mut c = s.clone();
        c.toggle_range(..);
        c
    };
    let legal = |s: &Set| match g.direction() {
        // Building: cl(P) ≠ X; removing: cl(X \ P) = X.
        Direction::Building => !generates_by_gen(&gen, s),
        Direction::Removing => generates_by_gen(&gen, &complement(s)),
    };
    if let Some(v) = group_expected(&structure, name) {
        return Some(v);
    }
    if let Some(v) = poset_expected(&structure, name) {
        return Some(v);
    }
    let graph = parse_graph(&structure).ok();
    Some(match name {
        "elements" => int(size),
        "selected" => int(p.count_ones(..)),
        "legal" => Value::Bool(legal(p)),
        // 2^65 subsets of K_{1,1,63}: `maximal_sets` is checked on the small structures.
        "maximal_sets" if size > 16 => g.features(p).get("maximal_sets")?.clone(),
        "maximal_sets" => {
            let sets = all_sets(size);
            let legal_sets: Vec<&Set> = sets.iter().filter(|s| legal(s)).collect();
            int(legal_sets
                .iter()
                .filter(|s| !legal_sets.iter().any(|t| t != *s && s.is_subset(t)))
                .count())
        }
        "maximal_sizes" | "maximal_union" if size > 16 => g.features(p).get(name)?.clone(),
        "maximal_sizes" | "maximal_union" => {
            let sets = all_sets(size);
            let legal_sets: Vec<&Set> = sets.iter().filter(|s| legal(s)).collect();
            let maximal: Vec<&&Set> = legal_sets
                .iter()
                .filter(|s| !legal_sets.iter().any(|t| t != *s && s.is_subset(t)))
                .collect();
            if name == "maximal_sizes" {
                let mut sizes: Vec<i64> = maximal.iter().map(|m| m.count_ones(..) as i64).collect();
                sizes.sort_unstable();
                Value::List(sizes)
            } else {
                let mut union = Set::with_capacity(size);
                for m in &maximal {
                    union.union_with(m);
                }
                int(union.count_ones(..))
            }
        }
        // Achievement (GEN, TER): any element while P is legal; avoidance (DNG, DNT): one that
        // keeps P legal (docs/design.md §9).
        "terminal_parities" if size <= 16 => {
            let achievement = matches!(g.word(), "GEN" | "TER");
            let options = |q: Set| -> Vec<Set> {
                if achievement && !legal(&q) {
                    return Vec::new();
                }
                (0..size)
                    .filter(|&x| !q.contains(x))
                    .map(|x| {
                        let mut o = q.clone();
                        o.insert(x);
                        o
                    })
                    .filter(|o| achievement || legal(o))
                    .collect()
            };
            parities_from(p.clone(), &options, &|q| q.count_ones(..) as u32)
        }
        "terminal_parities" => g.features(p).get(name)?.clone(),
        "generating_sets" => {
            let sets = all_sets(size);
            let gens: Vec<&Set> = sets.iter().filter(|s| generates_by_gen(&gen, s)).collect();
            int(gens
                .iter()
                .filter(|s| !gens.iter().any(|t| t != *s && t.is_subset(s)))
                .count())
        }
        // Digraphs: Digraph(a->b, ...), one arc per item.
        "vertices" if structure.starts_with("Digraph(") => {
            let names: BTreeSet<&str> = structure["Digraph(".len()..structure.len() - 1]
                .split(',')
                .flat_map(|arc| arc.split("->"))
                .map(str::trim)
                .collect();
            int(names.len())
        }
        "edges" if structure.starts_with("Digraph(") => int(structure.matches("->").count()),
        "vertices" | "edges" if structure.starts_with("K_{") && graph.is_none() => {
            let parts: Vec<usize> = structure[3..structure.len() - 1]
                .split(',')
                .map(|x| x.parse().unwrap())
                .collect();
            let n: usize = parts.iter().sum();
            int(if name == "vertices" {
                n
            } else {
                parts.iter().map(|k| k * (n - k)).sum::<usize>() / 2
            })
        }
        "vertices" => int(graph?.n()),
        "edges" => int(graph?.edge_count()),
        // K_{n1,...,nk}: the part sizes from the name.
        "parts" | "large_parts" | "small_parts" => {
            let inner = structure.strip_prefix("K_{")?.strip_suffix('}')?;
            let sizes: Vec<u32> = inner.split(',').map(|x| x.parse().unwrap()).collect();
            int(sizes
                .iter()
                .filter(|&&k| match name {
                    "large_parts" => k >= 2,
                    "small_parts" => k == 1,
                    _ => true,
                })
                .count())
        }
        _ => return None,
    })
}

// ---------------------------------------------------------------- the other games

fn runs_of(standing: &[bool]) -> Vec<i64> {
    let mut out = Vec::new();
    let mut run = 0;
    for &s in standing.iter().chain([false].iter()) {
        if s {
            run += 1;
        } else if run > 0 {
            out.push(run);
            run = 0;
        }
    }
    out
}

fn expected(game: &AnyGame, p: &AnyPos, name: &str) -> Option<Value> {
    match (game, p) {
        (AnyGame::Removing(g), AnyPos::Set(s)) => removing_expected(g, *s, name),
        (AnyGame::Nimber(_), AnyPos::Nim(k)) => (name == "heap").then(|| int(*k as usize)),
        (AnyGame::Octal(_), AnyPos::Heaps(h)) => {
            let h: Vec<i64> = h.iter().filter(|&&x| x > 0).map(|&x| x as i64).collect();
            Some(match name {
                "heaps" => Value::List(h),
                "num_heaps" => int(h.len()),
                "tokens" => Value::Int(h.iter().sum()),
                "largest" => Value::Int(h.into_iter().max().unwrap_or(0)),
                _ => return None,
            })
        }
        (AnyGame::Dawson(g), AnyPos::Pins(s)) => {
            let n = g.pins() as usize;
            // The label draws the row: | standing, . knocked down.
            let row: Vec<bool> = g.label(*s).chars().map(|c| c == '|').collect();
            assert_eq!(row.len(), n);
            let mut sorted = runs_of(&row);
            sorted.sort_unstable_by(|a, b| b.cmp(a));
            Some(match name {
                "pins" => int(n),
                "standing" => int(row.iter().filter(|&&x| x).count()),
                "knocked" => int(row.iter().filter(|&&x| !x).count()),
                "standing_pins" => {
                    Value::List((1..=n as i64).filter(|&i| row[i as usize - 1]).collect())
                }
                "runs" => Value::List(runs_of(&row)),
                "runs_sorted" => Value::List(sorted),
                "num_runs" => int(runs_of(&row).len()),
                "longest_run" => Value::Int(sorted.first().copied().unwrap_or(0)),
                _ => return None,
            })
        }
        (AnyGame::Multiset(g), AnyPos::Multiset(u)) => {
            let u: Vec<i64> = u.iter().map(|&x| x as i64).collect();
            assert!(u.windows(2).all(|w| w[0] <= w[1]), "nondecreasing: {u:?}");
            let m = u.iter().copied().max().unwrap_or(0);
            let total: i64 = u.iter().sum();
            // Terminal: no move left (the rules), which the description says is every
            // element below 2.
            let terminal = g.options(&p_multiset(p)).is_empty();
            assert_eq!(terminal, u.iter().all(|&x| x < 2));
            // U' = the elements ≥ 2 minus one copy of m.
            let mut big: Vec<i64> = u.iter().copied().filter(|&x| x >= 2).collect();
            if let Some(i) = big.iter().position(|&x| x == m) {
                big.remove(i);
            }
            let d = if terminal {
                None
            } else {
                Some(m - big.iter().map(|x| x - 1).sum::<i64>())
            };
            let sentinel = |d: Option<i64>| {
                d.unwrap_or_else(|| match game.features(p).get("d") {
                    // "a large sentinel": larger than any finite d can be here.
                    Some(Value::Int(x)) if *x > 1000 => *x,
                    other => panic!("d = ∞ is not a large sentinel: {other:?}"),
                })
            };
            Some(match name {
                "elements" => Value::List(u.clone()),
                "total" => Value::Int(total),
                "sigma" => int(u.iter().filter(|&&x| x == 1).count()),
                "lambda" => int(u.iter().filter(|&&x| x >= 2).count()),
                "nu" => Value::Int(u.iter().filter(|&&x| x == m).count() as i64 - 1),
                "m" => Value::Int(m),
                "p" => Value::Int(total % 2),
                "d" => Value::Int(sentinel(d)),
                "d_infinite" => Value::Bool(d.is_none()),
                "rho" => Value::List(vec![total % 2, sentinel(d)]),
                "terminal" => Value::Bool(terminal),
                _ => return None,
            })
        }
        (AnyGame::Spl(g), AnyPos::Spl(q)) => {
            let parts: Vec<i64> = q.part_list().iter().map(|&x| i64::from(x)).collect();
            assert!(parts.windows(2).all(|w| w[0] >= w[1]), "nonincreasing");
            let l1 = parts.first().copied().unwrap_or(0);
            let l2 = parts.get(1).copied().unwrap_or(0);
            // Λ^n: the whole rim before any rim vertex is selected (SPL(c,n) starts there).
            let start = g.start();
            let lambda = start.is_lambda() && parts == [i64::from(start.size())];
            let solid = |l1: i64, l2: i64, lambda: bool| {
                if lambda {
                    l1 >= 5
                } else {
                    l1 >= 4 || l2 >= 2
                }
            };
            let options = g.options(q);
            Some(match name {
                "c" => int(q.c as usize),
                "parts" => Value::List(parts.clone()),
                "size" | "parts_sum" => Value::Int(parts.iter().sum()),
                "num_parts" => int(parts.len()),
                "odd_parts" => int(parts.iter().filter(|&&x| x % 2 == 1).count()),
                "solid" => Value::Bool(solid(l1, l2, lambda)),
                "is_lambda" => Value::Bool(lambda),
                // Terminal: no move (the rules); the description's c ≤ 1, λ ∈ {[], [1], [2]}.
                "terminal" => {
                    let described =
                        !lambda && q.c <= 1 && matches!(parts.as_slice(), [] | [1] | [2]);
                    assert_eq!(described, options.is_empty(), "SPL terminal at {q:?}");
                    Value::Bool(options.is_empty())
                }
                "l1" => Value::Int(l1),
                "l2" => Value::Int(l2),
                "solid_splits" => int(options
                    .iter()
                    .filter(|o| o.c == q.c)
                    .filter(|o| {
                        let ps = o.part_list();
                        solid(
                            i64::from(ps.first().copied().unwrap_or(0)),
                            i64::from(ps.get(1).copied().unwrap_or(0)),
                            o.is_lambda(),
                        )
                    })
                    .count()),
                _ => return None,
            })
        }
        (AnyGame::Ueg(g), AnyPos::Ueg(q)) => {
            let edges = g.edges();
            let left: Vec<(usize, usize)> = edges
                .iter()
                .enumerate()
                .filter(|(i, _)| q.edges >> i & 1 == 1)
                .map(|(_, &e)| e)
                .collect();
            let t = q.token as usize;
            Some(match name {
                "token" => Value::Set(vec![g.graph().vertex_name(t).to_string()]),
                "token_degree" => int(left.iter().filter(|&&(a, b)| a == t || b == t).count()),
                "edges_left" => int(left.len()),
                "bipartite" => {
                    // Two-colour every component of the remaining edges.
                    let n = g.graph().n();
                    let mut colour: Vec<Option<bool>> = vec![None; n];
                    let mut ok = true;
                    for s in 0..n {
                        if colour[s].is_some() {
                            continue;
                        }
                        colour[s] = Some(false);
                        let mut stack = vec![s];
                        while let Some(x) = stack.pop() {
                            for &(a, b) in &left {
                                let y = if a == x {
                                    b
                                } else if b == x {
                                    a
                                } else {
                                    continue;
                                };
                                match colour[y] {
                                    None => {
                                        colour[y] = Some(!colour[x].unwrap());
                                        stack.push(y);
                                    }
                                    Some(c) if c == colour[x].unwrap() => ok = false,
                                    _ => {}
                                }
                            }
                        }
                    }
                    Value::Bool(ok)
                }
                "token_in_even_kernel" => {
                    // Every set S holding the token: independent, and an even number of
                    // neighbours in S at every vertex outside S.
                    let n = g.graph().n();
                    let nb = |v: usize| -> u64 {
                        left.iter().fold(0, |m, &(a, b)| {
                            if a == v {
                                m | 1 << b
                            } else if b == v {
                                m | 1 << a
                            } else {
                                m
                            }
                        })
                    };
                    let kernel = (0..1u64 << n).filter(|s| s >> t & 1 == 1).any(|s| {
                        (0..n).all(|v| {
                            let inside = (nb(v) & s).count_ones();
                            if s >> v & 1 == 1 {
                                inside == 0
                            } else {
                                inside % 2 == 0
                            }
                        })
                    });
                    Value::Bool(kernel)
                }
                "removed" => match game.features(p).get("removed") {
                    Some(Value::Set(r)) => {
                        assert_eq!(r.len(), edges.len() - left.len(), "removed at {q:?}");
                        Value::Set(r.clone())
                    }
                    other => panic!("removed: {other:?}"),
                },
                _ => return None,
            })
        }
        (AnyGame::Closure(g), AnyPos::Elements(s)) => closure_expected(g, s, name),
        (AnyGame::Family(_), AnyPos::Family(_)) => {
            // Node Kayles: a move takes a vertex in play and its neighbours out of play.
            let graph =
                parse_graph(game.to_string().strip_prefix("NK(")?.strip_suffix(')')?).ok()?;
            let f = game.features(p);
            let in_play = |f: &grundy::game::features::Features| match f.get("in_play") {
                Some(Value::Set(s)) => s.iter().cloned().collect::<BTreeSet<String>>(),
                other => panic!("in_play: {other:?}"),
            };
            let here = in_play(&f);
            if *p == game.start() {
                assert_eq!(here.len(), graph.n(), "every vertex in play at the start");
            }
            for o in game.options(p) {
                let there = in_play(&game.features(&o));
                let ok = here.iter().any(|v| {
                    let i = graph.vertex_index(v).unwrap();
                    let mut closed: BTreeSet<String> = graph
                        .neighbours(i)
                        .iter()
                        .map(|&w| graph.vertex_name(w).to_string())
                        .collect();
                    closed.insert(v.clone());
                    here.difference(&closed).cloned().collect::<BTreeSet<_>>() == there
                });
                assert!(
                    ok,
                    "NK move from {here:?} to {there:?} takes no closed neighbourhood"
                );
            }
            Some(match name {
                "in_play" => Value::Set(here.into_iter().collect()),
                "remaining" => int(here.len()),
                "vertices" => int(graph.n()),
                _ => return None,
            })
        }
        (AnyGame::Sum(parts), AnyPos::Sum(ps)) => {
            let (i, rest) = name.strip_prefix('g')?.split_once('_')?;
            let i: usize = i.parse().ok()?;
            expected(&parts[i], &ps[i], rest)
        }
        (AnyGame::Ordinal(a, b), AnyPos::Ordinal(x, y)) => {
            if let Some(rest) = name.strip_prefix("base_") {
                expected(a, x, rest)
            } else {
                expected(b, y, name.strip_prefix("top_")?)
            }
        }
        _ => None,
    }
}

fn p_multiset(p: &AnyPos) -> Vec<u32> {
    match p {
        AnyPos::Multiset(u) => u.clone(),
        _ => unreachable!(),
    }
}

/// Sets compare as sets, lists of sizes of a family as multisets (the family has no order).
fn normalise(name: &str, v: Value) -> Value {
    match v {
        Value::Set(mut s) => {
            s.sort();
            Value::Set(s)
        }
        Value::List(mut l) if name.ends_with("n_star_sizes") => {
            l.sort_unstable();
            Value::List(l)
        }
        v => v,
    }
}

fn games() -> Vec<String> {
    examples()
        .iter()
        .map(|(_, e)| e.to_string())
        .chain(MORE.iter().map(|s| s.to_string()))
        .collect()
}

#[test]
fn every_feature_is_what_its_description_says() {
    let mut checked: BTreeSet<String> = BTreeSet::new();
    let mut failures = Vec::new();
    for text in games() {
        let game = parse_game(&text, ParseOptions::default()).unwrap();
        let documented = game.feature_meanings();
        for p in reachable(&game, 300) {
            for (name, value) in game.features(&p) {
                assert!(
                    documented.iter().any(|(n, _)| *n == name),
                    "{text}: feature {name} has no documented meaning"
                );
                let Some(want) = expected(&game, &p, &name) else {
                    failures.push(format!(
                        "{text}: feature {name} has no check in tests/features.rs"
                    ));
                    continue;
                };
                let (got, want) = (normalise(&name, value), normalise(&name, want));
                if got != want {
                    failures.push(format!(
                        "{text} at {}: {name} is {got:?}, its description gives {want:?}",
                        game.label(&p)
                    ));
                }
                let base = name
                    .trim_start_matches("base_")
                    .trim_start_matches("top_")
                    .trim_start_matches(|c: char| c == 'g' || c.is_ascii_digit())
                    .trim_start_matches('_');
                checked.insert(
                    if name.starts_with('g') && name[1..2].parse::<u8>().is_ok() {
                        base.to_string()
                    } else {
                        name.trim_start_matches("base_")
                            .trim_start_matches("top_")
                            .to_string()
                    },
                );
            }
        }
    }
    failures.sort();
    failures.dedup();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // Every documented feature of every table was reached and checked.
    let tables: &[&[FeatureDoc]] = &[
        grundy::game::features::REMOVING,
        grundy::game::features::NIMBER,
        grundy::game::features::OCTAL,
        grundy::game::features::DAWSON,
        grundy::game::features::MULTISET,
        grundy::game::features::SPL,
        grundy::game::features::UEG,
        grundy::game::features::CLOSURE,
        grundy::game::closure::graph::FEATURES,
        grundy::game::closure::metric::FEATURES,
        grundy::game::closure::multipartite::FEATURES,
        grundy::game::closure::poset::FEATURES,
        grundy::game::closure::sets::FEATURES,
        grundy::game::closure::subgroup::FEATURES,
        grundy::game::node_kayles::FEATURES,
    ];
    for doc in tables.iter().flat_map(|t| t.iter()) {
        assert!(
            checked.contains(doc.name),
            "feature {} ({}) is reached by no game of this test",
            doc.name,
            doc.meaning
        );
    }
}

/// The wrong variant: `terminating` read as the old text had it, [P] = V ("P generates the
/// graph"), disagrees with the code on some position of each of these games.
#[test]
fn terminating_read_backwards_is_rejected() {
    for text in ["TER(C_7)", "DNT(W_5)", "TER(P_4)", "DNT(K_{2,3})"] {
        let game = parse_game(text, ParseOptions::default()).unwrap();
        let AnyGame::Removing(g) = &game else {
            panic!("{text} is a graph game")
        };
        let d = distances(g.graph());
        let full = g.graph().full();
        let disagree = reachable(&game, 300).into_iter().any(|p| {
            let AnyPos::Set(s) = p else { unreachable!() };
            let computed = g.features(s)["terminating"] == Value::Bool(true);
            computed != (hull(&d, s) == full)
        });
        assert!(
            disagree,
            "{text}: [P] = V agrees with terminating everywhere"
        );
    }
}

/// The checks here are not vacuous: a closure game's `legal` read with the building rule on a
/// removing game, and a multiset's `nu` without the minus one, are caught.
#[test]
fn wrong_descriptions_are_rejected() {
    let game = parse_game("TER(Sym(3))", ParseOptions::default()).unwrap();
    let gen = parse_game("GEN(Sym(3))", ParseOptions::default()).unwrap();
    let wrong = reachable(&game, 300).into_iter().any(|p| {
        let AnyPos::Elements(s) = &p else {
            unreachable!()
        };
        game.features(&p)["legal"] != Value::Bool(!generates_by_gen(&gen, s))
    });
    assert!(wrong, "legal = cl(P) ≠ X agrees on TER(Sym(3))");
    // 𝒢 read as the generating sets of least size: C_6 has 3 (the antipodal pairs), 𝒢 has 5.
    let game = parse_game("TER(C_6)", ParseOptions::default()).unwrap();
    assert_eq!(game.features(&game.start())["min_gen_sets"], Value::Int(5));
    let game = parse_game("TER{2,2,3}", ParseOptions::default()).unwrap();
    let p = game.start();
    assert_ne!(
        game.features(&p)["nu"],
        Value::Int(2),
        "ν counts the copies of m minus one"
    );
}
