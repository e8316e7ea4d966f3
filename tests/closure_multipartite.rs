//! TER, DNT, GEN and DNG of complete multipartite graphs far past 64 vertices, solved over
//! count vectors, the positions up to the graph's automorphisms (method `symmetry-classes`,
//! src/solve/structure_symmetric.rs; the closures by counts in
//! src/game/closure/multipartite.rs). Checked against the graph's own intervals on every
//! subset, against the exhaustive solver (the same operator on subsets, the graph's hull
//! operator, seed 000's removing games) where the graph is small, and against seed 000 §5.3 on
//! instances of hundreds of vertices: TER(K_{m1,…,mk}) = TER({m1,…,mk}) (the multiset game,
//! solved by its own memo and by Prop 5.14) for λ ≥ 2, nim(DNT) = pty(|V|) (Prop 5.10), and
//! for λ = 1 Prop 5.8.

use grundy::game::closure::multipartite::Multipartite;
use grundy::game::closure::{read_structure, ClosureGame, ClosureOperator, Counted, Set, GAMES};
use grundy::game::multiset::{prop_5_14, MultisetGame};
use grundy::game::removing::{RemovingGame, Rule};
use grundy::game::AnyGame;
use grundy::graph::{families, Closure, Convexity};
use grundy::solve::dispatch::{self, Options};
use grundy::solve::guard::{Budget, Monitor};
use grundy::solve::structure_symmetric::{estimate, solve};
use grundy::solve::Solver;
use std::process::Command;
use std::sync::Arc;

fn op(parts: &[u64], closure: Closure) -> Arc<Multipartite> {
    Arc::new(Multipartite::new(parts, closure).unwrap())
}

fn by_symmetry(parts: &[u64], word: &str, closure: Closure) -> (u32, u64) {
    let o = op(parts, closure);
    let g = ClosureGame::named(word, o.clone()).unwrap();
    let s = solve(
        o.as_ref(),
        g.direction(),
        g.goal(),
        &Monitor::unlimited(g.name()),
    )
    .unwrap();
    (s.nim, s.states)
}

/// Every part list with k parts of sizes 1..=max, nondecreasing, at most `total` vertices.
fn part_lists(k: usize, max: u64, total: u64) -> Vec<Vec<u64>> {
    let mut out = vec![vec![]];
    for _ in 0..k {
        let mut next = Vec::new();
        for p in &out {
            let from = p.last().copied().unwrap_or(1);
            for m in from..=max {
                let mut q = p.clone();
                q.push(m);
                if q.iter().sum::<u64>() <= total {
                    next.push(q);
                }
            }
        }
        out = next;
    }
    out
}

const CLOSURES: [Closure; 3] = [Closure::HULL, Closure::GEODETIC, Closure::MONOPHONIC];

#[test]
fn closure_by_counts_is_the_graphs_own_on_every_subset() {
    for k in 2..=4 {
        for parts in part_lists(k, 4, 9) {
            let g = families::multipartite(&parts).unwrap();
            for closure in CLOSURES {
                let conv = Convexity::new(&g, closure);
                let o = op(&parts, closure);
                let n = g.n();
                for mask in 0u64..1 << n {
                    let mut s = Set::with_capacity(n);
                    (0..n)
                        .filter(|v| mask >> v & 1 == 1)
                        .for_each(|v| s.insert(v));
                    let mine: u64 = o.close(&s).ones().map(|v| 1u64 << v).sum();
                    assert_eq!(mine, conv.close(mask), "{} {closure:?} {mask:b}", g.name());
                }
                // The solver's shortcut is the closure reaching every part, on every vector.
                let n32: Vec<u32> = parts.iter().map(|&p| p as u32).collect();
                let mut c = vec![0u32; k];
                loop {
                    assert_eq!(
                        o.generates_counts(&c),
                        o.close_counts(&c) == n32,
                        "{} {closure:?} {c:?}",
                        g.name()
                    );
                    let Some(i) = (0..k).find(|&i| c[i] < n32[i]) else {
                        break;
                    };
                    c[i] += 1;
                    for x in c.iter_mut().take(i) {
                        *x = 0;
                    }
                }
                // Vertex names as the graph's.
                for v in 0..n {
                    assert_eq!(o.element_name(v), g.vertex_name(v));
                }
            }
        }
    }
}

#[test]
fn symmetry_classes_agree_with_exhaustive_search() {
    let mut compared = 0;
    for k in 2..=4 {
        for parts in part_lists(k, 4, 10) {
            let name = families::multipartite(&parts).unwrap().name().to_string();
            for closure in CLOSURES {
                for &(word, ..) in GAMES {
                    let (v, _) = by_symmetry(&parts, word, closure);
                    // The same count closure on all subsets …
                    let same = ClosureGame::named(word, op(&parts, closure)).unwrap();
                    assert_eq!(
                        v,
                        Solver::new(&same).nim_of_start(),
                        "{word}({name}) {closure:?}"
                    );
                    // … and the graph's own closure operator on all subsets.
                    let graph =
                        ClosureGame::named(word, read_structure(&name, closure).unwrap()).unwrap();
                    assert_eq!(
                        v,
                        Solver::new(&graph).nim_of_start(),
                        "{word}({name}) {closure:?}"
                    );
                    compared += 1;
                }
                // Seed 000's removing games on the graph, by the level solver.
                for (word, rule) in [("TER", Rule::Ter), ("DNT", Rule::Dnt)] {
                    let g = families::multipartite(&parts).unwrap();
                    let old = RemovingGame::new(rule, g, closure, 0).unwrap();
                    let quiet = Options {
                        budget: Budget::unlimited(),
                        progress: false,
                    };
                    let w = dispatch::nim(&AnyGame::Removing(old), &quiet).unwrap();
                    assert_eq!(by_symmetry(&parts, word, closure).0, w, "{word}({name})");
                }
            }
        }
    }
    assert!(compared > 500, "{compared}");
}

fn multiset(parts: &[u64]) -> u32 {
    let g = MultisetGame::new(parts.iter().map(|&p| p as u32).collect());
    Solver::new(&g).nim_of_start()
}

#[test]
fn hundreds_of_vertices_agree_with_seed_000_section_5_3() {
    let sizes = [1u64, 2, 3, 7, 20, 41, 64, 100];
    let mut instances: Vec<Vec<u64>> = Vec::new();
    for (i, &a) in sizes.iter().enumerate() {
        for &b in &sizes[i..] {
            instances.push(vec![a, b, 100]);
            instances.push(vec![a, b]);
        }
    }
    instances.extend([
        vec![100, 100, 100],
        vec![200, 200],
        vec![1, 1, 1, 150],
        vec![2, 2, 2, 2, 60],
        vec![33, 34, 35],
        vec![1, 299],
    ]);
    let mut checked = 0;
    for parts in instances.iter().filter(|p| p.iter().sum::<u64>() > 64) {
        let large = parts.iter().filter(|&&p| p >= 2).count();
        let sigma = parts.len() - large;
        let total: u64 = parts.iter().sum();
        let (ter, _) = by_symmetry(parts, "TER", Closure::HULL);
        let (dnt, _) = by_symmetry(parts, "DNT", Closure::HULL);
        if large >= 2 {
            let u: Vec<u32> = parts.iter().map(|&p| p as u32).collect();
            assert_eq!(ter, multiset(parts), "TER(K_{parts:?}) against TER(U)");
            assert_eq!(
                Some(ter),
                prop_5_14(&u),
                "TER(K_{parts:?}) against Prop 5.14"
            );
            assert_eq!(dnt as u64, total % 2, "DNT(K_{parts:?}), Prop 5.10");
        } else {
            assert_eq!(ter as usize, 1 + sigma % 2, "TER(K_{parts:?}), Prop 5.8");
            assert_eq!(dnt as usize, sigma % 2, "DNT(K_{parts:?}), Prop 5.8");
        }
        checked += 1;
    }
    assert!(checked >= 40, "{checked}");
}

#[test]
fn count_vectors_are_estimated_exactly() {
    // Multisets of m counts in 0..=n per class of equal parts.
    for parts in [
        vec![100u64, 100, 100],
        vec![3, 5, 5, 7],
        vec![2, 2, 2, 2, 2],
    ] {
        let o = op(&parts, Closure::HULL);
        let (_, states) = by_symmetry(&parts, "GEN", Closure::HULL);
        let est = estimate(o.as_ref());
        // GEN visits the legal count vectors only, never more than the estimate.
        assert!(states as f64 <= est, "{parts:?}: {states} > {est}");
    }
    assert_eq!(
        estimate(op(&[100, 100, 100], Closure::HULL).as_ref()),
        176_851.0
    );
    assert_eq!(
        estimate(op(&[3, 5, 5, 7], Closure::HULL).as_ref()),
        4.0 * 21.0 * 8.0
    );
}

fn grundy(args: &[&str]) -> (i32, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(args)
        .output()
        .unwrap();
    let mut s = String::from_utf8(o.stdout).unwrap();
    s.push_str(&String::from_utf8(o.stderr).unwrap());
    (o.status.code().unwrap_or(-1), s)
}

#[test]
fn the_cli_answers_with_the_method_and_the_guard_refuses_explosions() {
    let want = multiset(&[100, 100, 100]);
    let (code, out) = grundy(&["solve", "TER(K_{100,100,100})"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains(&format!("nim(TER(K_{{100,100,100}})) = {want}")),
        "{out}"
    );
    assert!(out.contains("method symmetry-classes"), "{out}");
    let (code, out) = grundy(&["solve", "DNT(K_{100,100,100})"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("= 0"), "{out}");
    // 21! count vectors: refused from the estimate, at once.
    let parts: Vec<String> = (1..=20).map(|i| i.to_string()).collect();
    let big = format!("TER(K_{{{}}})", parts.join(","));
    let (code, out) = grundy(&["solve", &big, "--max-positions", "1000000"]);
    assert_eq!(code, 2, "{out}");
    let flat = out.replace(['│', '\n'], " ");
    let flat = flat.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains("refused before solving: an estimated 5.1e19 positions"),
        "{out}"
    );
    // Stopped while running: the estimate fits, the monitor's limit does not.
    let o = op(&[150, 150, 150], Closure::HULL);
    let g = ClosureGame::named("TER", o.clone()).unwrap();
    let budget = Budget {
        max_positions: Some(70_000),
        max_memory: u64::MAX,
    };
    let monitor = Monitor::new(g.name(), &budget, 1.0, String::new());
    let r = solve(o.as_ref(), g.direction(), g.goal(), &monitor);
    assert!(
        r.is_err_and(|e| e.during),
        "stopped past 70,000 count vectors"
    );
}
