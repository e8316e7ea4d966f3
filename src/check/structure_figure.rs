//! The structure diagram of a closure game as a figure (`kind: figure` with `structure:`;
//! docs/closure-games.md, "The structure diagram"): the diagram Ernst–Sieben (2018) and
//! Benesh–Ernst–Sieben (2016) draw for the games of generating groups, for any closure game.
//!
//! One node per structure class I = ⌈P⌉ reachable from the start (src/solve/structure.rs;
//! the proof is docs/design.md §9), labelled with the class in the papers' notation (for groups
//! the subgroup I: `{e}`, `Z_n`, `⟨(1,2,3), (1,2)⟩`), its order |I| and its *type*
//! (pty(I), a, b): the parity of |I| and the nim-values of the positions P of the class with
//! |P| even and odd. The nim-value of a position depends only on its class and the parity of
//! |P|: in the recursion f(I, k) = mex({f(I, k−1)} ∪ S_k) of §9 the set S_k of option values
//! leaving the class depends on k only through its parity (by induction over the classes,
//! largest first, since every option J ⊋ I is read at k + |J| − |I| − 1), and then
//! f(I, k) = f(I, k − 2) for k ≥ 2 (if a = mex S_0 and b = mex(S_1 ∪ {a}), then b < a forces
//! b ∈ S_0, so mex(S_0 ∪ {b}) = a in both cases). An arrow I → J is a move from I to J
//! (selecting an element outside I); moves inside a class are not drawn. In the achievement
//! games (GEN, TER) the terminal positions form one more node (the papers' class of the
//! generating sets), drawn shaded, with an arrow from every class that can end the game.
//!
//! `up_to: conjugacy` draws one node per orbit of classes under the structure's symmetries
//! (for groups conjugation, [`ClosureOperator::symmetries`]), which keeps the diagrams of
//! Sym(n) readable (S_4: 7 nodes for 20 classes); the checker then asserts that all classes
//! of an orbit have the same type and the same moves up to the orbit (a false symmetry is an
//! error, never a quieter diagram).
//!
//! The spec's `classes:` (nodes drawn, the terminal node not counted) and `nim:` (of the
//! start) are claims: a figure that states them wrongly is refuted.

use super::Counterexample;
use crate::game::closure::{read_structure, ClosureGame, ClosureOperator, Direction, Goal, Set};
use crate::graph::Closure;
use crate::solve::structure::Diagram;
use rustc_hash::FxHashMap;
use serde::Serialize;
use std::collections::BTreeSet;

/// Most nodes a structure-diagram figure draws (past this it is not a figure anyone reads).
pub const MAX_DRAWN: usize = 80;

/// What a structure figure states and how it is drawn.
#[derive(Clone, Debug)]
pub struct StructureFigure {
    /// `GEN(Sym(4))`, `DNG(Cyc(12))`, `TER(P_4)`.
    pub game: String,
    /// One node per orbit of classes under the structure's symmetries.
    pub up_to_conjugacy: bool,
    /// The number of nodes the paper draws (classes or orbits), if stated.
    pub classes: Option<usize>,
    /// The nim-value of the game, if stated.
    pub nim: Option<u32>,
}

#[derive(Clone, Debug, Serialize)]
pub struct StructureNodeView {
    pub id: String,
    /// The class in the papers' notation, unescaped (the template escapes it per target),
    /// `S_3 (×4)` for a node that stands for four conjugate classes.
    pub label: String,
    /// |I|.
    pub size: usize,
    /// How many classes the node stands for (1 unless drawn up to conjugacy).
    pub count: usize,
    /// The type (pty(I), nim of even |P|, nim of odd |P|) as text, `(0, 1, 0)`; for the
    /// terminal node `nim 0`.
    pub kind: String,
    /// The second line of the node, in the papers' notation: `|I| = 6, (0, 0, 1)`; empty for
    /// the terminal node.
    pub note: String,
    pub start: bool,
    pub terminal: bool,
}

#[derive(Clone, Debug, Serialize)]
pub struct StructureEdgeView {
    pub from: String,
    pub to: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct StructureView {
    /// The game as written in the spec, unescaped.
    pub game: String,
    /// The game's name as grundy prints it (`DNG(Sym(4))`).
    pub name: String,
    pub nim: u32,
    /// Nodes drawn, the terminal node not counted.
    pub classes: usize,
    /// Structure classes in all (equal to `classes` unless drawn up to conjugacy).
    pub all_classes: usize,
    pub up_to_conjugacy: bool,
    pub nodes: Vec<StructureNodeView>,
    pub edges: Vec<StructureEdgeView>,
    /// Node ids by rank: the longest chain of moves from the start, the start on top.
    pub ranks: Vec<Vec<String>>,
}

/// The closure game `WORD(structure)` (any of GEN, DNG, TER, DNT, on any structure an
/// operator reads; graph games as closure games under `closure`).
pub fn closure_game(text: &str, closure: Closure) -> Result<ClosureGame, String> {
    let t = text.trim();
    let (word, rest) = t.split_at(t.find('(').unwrap_or(t.len()));
    let inner = rest
        .strip_prefix('(')
        .and_then(|r| r.strip_suffix(')'))
        .ok_or_else(|| {
            format!("a structure diagram is drawn for GEN(X), DNG(X), TER(X) or DNT(X), not `{t}`")
        })?;
    let op = read_structure(inner, closure)?;
    ClosureGame::named(word.trim(), op).ok_or_else(|| {
        format!(
            "a structure diagram is drawn for GEN, DNG, TER or DNT, not `{}`",
            word.trim()
        )
    })
}

/// Union–find root with path halving.
fn root(parent: &mut [usize], mut i: usize) -> usize {
    while parent[i] != i {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    i
}

/// The image of a set under a permutation of the ground set.
fn image(perm: &[usize], s: &Set) -> Set {
    let mut out = Set::with_capacity(s.len());
    for x in s.ones() {
        out.insert(perm[x]);
    }
    out
}

/// The type of class `i` as the papers write it: (pty(I), nim at |P| even, nim at |P| odd);
/// `–` for a parity no position of the class can have (only the empty class, |I| = 0).
fn type_text(d: &Diagram, i: usize) -> String {
    let c = &d.classes[i];
    let s = c.size();
    // k = |I ∖ P| has the parity of |I| exactly when |P| is even.
    let even = c.nim[s % 2];
    let odd = if s >= 1 {
        c.nim[(s + 1) % 2].to_string()
    } else {
        "–".into()
    };
    format!("({}, {even}, {odd})", s % 2)
}

/// Builds the diagram and checks the stated claims: the view, and the first claim refuted.
pub fn compute(
    fig: &StructureFigure,
    closure: Closure,
) -> Result<(StructureView, Option<Counterexample>), String> {
    let game = closure_game(&fig.game, closure)?;
    let op: &dyn ClosureOperator = game.operator();
    let d = crate::solve::dispatch::structure_diagram(&game)
        .map_err(|e| format!("{} has no structure diagram: {e}", game.name()))?;
    let nc = d.classes.len();
    // Orbits of classes (each class its own orbit unless drawn up to conjugacy).
    let mut parent: Vec<usize> = (0..nc).collect();
    if fig.up_to_conjugacy {
        let syms = op.symmetries();
        if syms.is_empty() {
            return Err(format!(
                "{} has no symmetries grundy knows (up_to: conjugacy is for groups)",
                op.structure()
            ));
        }
        let index: FxHashMap<&Set, usize> = d
            .classes
            .iter()
            .enumerate()
            .map(|(i, c)| (&c.set, i))
            .collect();
        for i in 0..nc {
            for p in &syms {
                let j = *index.get(&image(p, &d.classes[i].set)).ok_or_else(|| {
                    format!(
                        "a symmetry of {} maps the class {} to a set that is no class",
                        op.structure(),
                        op.class_label(&d.classes[i].set)
                    )
                })?;
                let (a, b) = (root(&mut parent, i), root(&mut parent, j));
                parent[a.max(b)] = a.min(b);
            }
        }
    }
    let orbit: Vec<usize> = (0..nc).map(|i| root(&mut parent, i)).collect();
    // Representatives in class order (the start's orbit first), numbered as drawn.
    let reps: Vec<usize> = (0..nc).filter(|&i| orbit[i] == i).collect();
    if reps.len() > MAX_DRAWN {
        return Err(format!(
            "{} has {} structure classes{}: more than the {MAX_DRAWN} a figure draws",
            game.name(),
            reps.len(),
            if fig.up_to_conjugacy {
                " up to conjugacy"
            } else {
                ""
            }
        ));
    }
    let node_of: FxHashMap<usize, usize> = reps.iter().enumerate().map(|(k, &r)| (r, k)).collect();
    let mut count = vec![0usize; reps.len()];
    for &o in &orbit {
        count[node_of[&o]] += 1;
    }
    // Every class of an orbit must look like its representative: same type, same moves.
    let moves = |i: usize| -> (String, bool, BTreeSet<usize>) {
        let c = &d.classes[i];
        (
            type_text(&d, i),
            c.ends,
            c.options.iter().map(|&j| node_of[&orbit[j]]).collect(),
        )
    };
    for (i, &o) in orbit.iter().enumerate() {
        if moves(i) != moves(o) {
            return Err(format!(
                "the classes {} and {} of {} are conjugate but differ in type or moves",
                op.class_label(&d.classes[i].set),
                op.class_label(&d.classes[o].set),
                game.name()
            ));
        }
    }
    let id = |k: usize| format!("c{k}");
    let mut nodes: Vec<StructureNodeView> = reps
        .iter()
        .enumerate()
        .map(|(k, &r)| StructureNodeView {
            id: id(k),
            label: match count[k] {
                1 => op.class_label(&d.classes[r].set),
                c => format!("{} (×{c})", op.class_label(&d.classes[r].set)),
            },
            size: d.classes[r].size(),
            count: count[k],
            kind: type_text(&d, r),
            note: format!("|I| = {}, {}", d.classes[r].size(), type_text(&d, r)),
            start: Some(r) == d.start,
            terminal: false,
        })
        .collect();
    let mut edges = Vec::new();
    let terminal = game.goal() == Goal::Achievement && reps.iter().any(|&r| d.classes[r].ends);
    for (k, &r) in reps.iter().enumerate() {
        let targets: BTreeSet<usize> = d.classes[r]
            .options
            .iter()
            .map(|&j| node_of[&orbit[j]])
            .collect();
        for t in targets {
            edges.push(StructureEdgeView {
                from: id(k),
                to: id(t),
            });
        }
        if terminal && d.classes[r].ends {
            edges.push(StructureEdgeView {
                from: id(k),
                to: "terminal".into(),
            });
        }
    }
    // Ranks: moves along the longest chain of classes from the start (every move leads to a
    // larger class, so node order by size is a topological order), the terminal node below.
    let mut by_size: Vec<usize> = (0..nodes.len()).collect();
    by_size.sort_by_key(|&k| nodes[k].size);
    let mut rank = vec![0usize; nodes.len()];
    for &k in &by_size {
        for e in edges
            .iter()
            .filter(|e| e.from == id(k) && e.to != "terminal")
        {
            let t: usize = e.to[1..].parse().unwrap_or(0);
            rank[t] = rank[t].max(rank[k] + 1);
        }
    }
    let levels = rank.iter().max().map_or(0, |&r| r + 1);
    let mut ranks: Vec<Vec<String>> = (0..levels)
        .map(|r| (0..nodes.len()).filter(|&k| rank[k] == r).map(id).collect())
        .collect();
    let drawn = nodes.len();
    if terminal {
        // Building: the generating sets, named by the structure; removing: the terminating
        // sets (their complements are the non-generating ones).
        let label = match game.direction() {
            Direction::Building => op.paper_name(),
            Direction::Removing => "terminal".into(),
        };
        nodes.push(StructureNodeView {
            id: "terminal".into(),
            label,
            size: game.size(),
            count: 1,
            kind: "nim 0".into(),
            note: String::new(),
            start: false,
            terminal: true,
        });
        ranks.push(vec!["terminal".into()]);
    }
    let nim = d.start_nim();
    let mut refuted = None;
    let wrong = |claimed: String, computed: String| Counterexample {
        instance: "figure".into(),
        game: game.name(),
        position: None,
        claimed,
        computed,
        evidence: vec![],
    };
    if let Some(c) = fig.classes.filter(|&c| c != drawn) {
        refuted = Some(wrong(
            format!("{c} structure classes drawn"),
            format!("{drawn} structure classes drawn"),
        ));
    } else if let Some(v) = fig.nim.filter(|&v| v != nim) {
        refuted = Some(wrong(format!("nim {v}"), format!("nim {nim}")));
    }
    Ok((
        StructureView {
            game: fig.game.clone(),
            name: game.name(),
            nim,
            classes: drawn,
            all_classes: nc,
            up_to_conjugacy: fig.up_to_conjugacy,
            nodes,
            edges,
            ranks,
        },
        refuted,
    ))
}
