//! The structure diagram as a figure (`kind: figure` with `structure:`, src/check/structure_figure.rs):
//! the types it prints are the nim-values of the positions of each class (against the memo
//! solver, position by position), the lemma that a class's values depend only on the parity
//! of |P|, the diagram of DNG(Sym(4)) by hand, DOT snapshots of the committed figures, and
//! wrong figure specs refused.

use grundy::check::structure_figure::{closure_game, compute, StructureFigure};
use grundy::game::closure::Set;
use grundy::game::Game;
use grundy::graph::Closure;
use grundy::pipeline::{self, render_all, Selection};
use grundy::render::{dot, Renderer};
use grundy::solve::dispatch::structure_diagram;
use grundy::solve::Solver;
use std::path::PathBuf;
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Closure games small enough for the memo solver, of every kind of structure.
const GAMES: &[&str] = &[
    "GEN(Sym(3))",
    "DNG(Sym(3))",
    "GEN(Dih(4))",
    "DNG(Dih(5))",
    "GEN(Cyc(12))",
    "DNG(Cyc(12))",
    "TER(Dih(3))",
    "DNT(Cyc(8))",
    "GEN(Alt(4))",
    "DNG(Dic(2))",
    "GEN(P_5)",
    "DNG(C_6)",
    "TER(P_6)",
    "DNT(W_6)",
    "GEN(Sets({1,2},{2,3,4},{1,4}))",
];

#[test]
fn class_values_depend_only_on_the_parity_of_the_position() {
    // The lemma of src/check/structure_figure.rs: f(I, k) = f(I, k − 2) for k ≥ 2.
    for text in GAMES {
        let g = closure_game(text, Closure::HULL).unwrap();
        let d = structure_diagram(&g).unwrap();
        for c in &d.classes {
            for k in 2..c.nim.len() {
                assert_eq!(c.nim[k], c.nim[k - 2], "{text}: class of size {}", c.size());
            }
        }
    }
}

/// Every legal position, by the memo solver: its class (located in the diagram) and its
/// nim-value, which must be the type's value for the parity of |P|.
#[test]
fn the_types_drawn_are_the_values_of_every_position() {
    for text in GAMES {
        let g = closure_game(text, Closure::HULL).unwrap();
        let d = structure_diagram(&g).unwrap();
        let mut solver = Solver::new(&g);
        let n = g.size();
        assert!(n <= 16, "{text}");
        let mut checked = 0;
        for mask in 0u32..1 << n {
            let mut p = Set::with_capacity(n);
            for x in 0..n {
                if mask >> x & 1 == 1 {
                    p.insert(x);
                }
            }
            if !g.legal(&p) {
                continue;
            }
            // Classes not reachable from ∅ are not drawn (the position is then no position of
            // the game from its start).
            let Some((i, _)) = d.locate(&p) else { continue };
            let c = &d.classes[i];
            let s = c.size();
            let even = p.count_ones(..).is_multiple_of(2);
            let typed = if even {
                c.nim[s % 2]
            } else {
                c.nim[(s + 1) % 2]
            };
            assert_eq!(solver.nim(&p), typed, "{text} at {}", g.label(&p));
            checked += 1;
        }
        assert!(checked > 0, "{text}");
    }
}

#[test]
fn dng_sym4_by_hand() {
    let fig = StructureFigure {
        game: "DNG(Sym(4))".into(),
        up_to_conjugacy: true,
        classes: Some(7),
        nim: Some(0),
    };
    let (v, refuted) = compute(&fig, Closure::HULL).unwrap();
    assert!(refuted.is_none());
    assert_eq!((v.classes, v.all_classes, v.nim), (7, 20, 0));
    let by_size: Vec<(usize, &str, &str)> = {
        let mut x: Vec<_> = v
            .nodes
            .iter()
            .map(|n| (n.size, n.label.as_str(), n.kind.as_str()))
            .collect();
        x.sort();
        x
    };
    // S_4: {e}; ⟨transposition⟩ (6 conjugates), ⟨3-cycle⟩ (4), the normal Klein group; S_3 (4),
    // D_8 (3), A_4. Maximal classes of an avoidance game are Nim heaps of |I| − |P| counters:
    // type (pty(I), 0, 1) for |I| even. Z_3 and {e}: a = mex{b, 1} and b = mex{a, 0}, so (·, 0, 1).
    assert_eq!(
        by_size,
        vec![
            (1, "{e}", "(1, 0, 1)"),
            (2, "Z_2 (×6)", "(0, 0, 1)"),
            (3, "Z_3 (×4)", "(1, 0, 1)"),
            (4, "Z_2 × Z_2", "(0, 0, 1)"),
            (6, "S_3 (×4)", "(0, 0, 1)"),
            (8, "⟨(1,2,3,4), (1,2)(3,4)⟩ (×3)", "(0, 0, 1)"),
            (12, "⟨(1,2,3), (1,2,4)⟩", "(0, 0, 1)"),
        ]
    );
    // The counts are the conjugacy classes' sizes: 20 classes in all.
    assert_eq!(v.nodes.iter().map(|n| n.count).sum::<usize>(), 20);
    // No terminal node in an avoidance game; the Klein group moves to D_8 and A_4 only.
    assert!(v.nodes.iter().all(|n| !n.terminal));
    let klein = v.nodes.iter().find(|n| n.size == 4).unwrap();
    let mut to: Vec<usize> = v
        .edges
        .iter()
        .filter(|e| e.from == klein.id)
        .map(|e| v.nodes.iter().find(|n| n.id == e.to).unwrap().size)
        .collect();
    to.sort();
    assert_eq!(to, vec![8, 12]);
}

#[test]
fn achievement_diagrams_end_in_the_terminal_class() {
    let fig = StructureFigure {
        game: "GEN(Cyc(12))".into(),
        up_to_conjugacy: false,
        classes: None,
        nim: None,
    };
    let (v, _) = compute(&fig, Closure::HULL).unwrap();
    // Frattini subgroup Z_2, maximal subgroups Z_4 and Z_6, then Z_12 itself (as the papers
    // name it, not Cyc(12)); every class can end the game (a generator of Z_12 is outside
    // every proper subgroup).
    let labels: Vec<&str> = v.nodes.iter().map(|n| n.label.as_str()).collect();
    assert_eq!(labels, vec!["Z_2", "Z_6", "Z_4", "Z_12"]);
    assert_eq!(v.nim, 1, "GEN(Z_n) = 1 when 4 | n (Ernst–Sieben 2018)");
    assert_eq!(
        v.edges.iter().filter(|e| e.to == "terminal").count(),
        3,
        "{:?}",
        v.edges
    );
    // A wrong claim is refuted, never drawn quietly.
    let wrong = StructureFigure {
        nim: Some(2),
        ..fig
    };
    let (_, refuted) = compute(&wrong, Closure::HULL).unwrap();
    let c = refuted.expect("nim 2 is refuted");
    assert_eq!(
        (c.claimed.as_str(), c.computed.as_str()),
        ("nim 2", "nim 1")
    );
}

fn check(text: &str) -> (i32, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.yaml");
    std::fs::write(&path, text).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .arg("check")
        .arg(&path)
        .output()
        .unwrap();
    let mut s = String::from_utf8(out.stdout).unwrap();
    s.push_str(&String::from_utf8(out.stderr).unwrap());
    (out.status.code().unwrap_or(-1), s)
}

#[test]
fn wrong_structure_figures_are_refused() {
    let spec = std::fs::read_to_string(root().join("specs/es2018/figures/structure_dng_sym4.yaml"))
        .unwrap();
    assert_eq!(check(&spec).0, 0);
    for (from, to, says) in [
        (
            "classes: 7",
            "classes: 20",
            "computed 7 structure classes drawn",
        ),
        (
            "up_to: conjugacy\n",
            "",
            "computed 20 structure classes drawn",
        ),
    ] {
        let (code, out) = check(&spec.replace(from, to));
        assert_eq!(code, 1, "{out}");
        assert!(out.contains(says), "{out}");
    }
    for (from, to, says) in [
        ("DNG(Sym(4))\n", "DNG(P_5)\n", "no symmetries"),
        (
            "conjugacy",
            "automorphisms",
            "unknown `up_to: automorphisms`",
        ),
        (
            "structure: DNG(Sym(4))",
            "structure: DNG_{v1}(W_7)",
            "not `DNG_{v1}`",
        ),
        (
            "structure: DNG(Sym(4))",
            "structure: NIM(Sym(4))",
            "GEN, DNG, TER or DNT",
        ),
        (
            "structure: DNG(Sym(4))\n",
            "",
            "belong to a structure diagram",
        ),
        (
            "structure: DNG(Sym(4))",
            "structure: DNG(Sym(4))\ngraph: Kite",
            "one of them",
        ),
    ] {
        let (code, out) = check(&spec.replace(from, to));
        let flat = out.replace(['│', '\n'], " ");
        let flat = flat.split_whitespace().collect::<Vec<_>>().join(" ");
        assert_eq!(code, 2, "{from} -> {to}: {out}");
        assert!(flat.contains(says), "{from} -> {to}: {out}");
    }
    // DNG(Sym(5)) has 119 classes (14 up to conjugacy): too many to draw one by one.
    let big = spec
        .replace("DNG(Sym(4))\n", "DNG(Sym(5))\n")
        .replace("up_to: conjugacy\n", "");
    let (code, out) = check(&big);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("119 structure classes"), "{out}");
}

#[test]
fn structure_figure_dot_snapshots() {
    let run = pipeline::check(&[PathBuf::from("specs/es2018/figures")], &Selection::All);
    assert_eq!(run.exit_code(), 0, "the structure figures hold");
    let checked: Vec<_> = run.checked().collect();
    let index: Vec<_> = checked.iter().map(|(s, c)| (*s, &c.report)).collect();
    let renderer = Renderer::load(&root().join("templates")).unwrap();
    let files = render_all(
        &checked,
        &index,
        &Default::default(),
        &Default::default(),
        &renderer,
    )
    .unwrap();
    let dots: Vec<(String, String)> = files
        .into_iter()
        .filter(|(p, _)| p.extension().is_some_and(|e| e == "dot"))
        .map(|(p, b)| {
            (
                p.file_stem().unwrap().to_string_lossy().to_string(),
                String::from_utf8(b).unwrap(),
            )
        })
        .collect();
    assert_eq!(dots.len(), 3);
    for (name, text) in dots {
        dot::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        insta::assert_snapshot!(name, text);
    }
}

#[test]
fn structure_game_start_is_the_frattini_class() {
    // ⌈∅⌉ = Φ(G): Z_2 for Z_12, trivial for S_4; the start's nim-value is the even value of
    // its type.
    for (text, frattini) in [("GEN(Cyc(12))", 2), ("DNG(Sym(4))", 1), ("GEN(Cyc(8))", 4)] {
        let g = closure_game(text, Closure::HULL).unwrap();
        let d = structure_diagram(&g).unwrap();
        let c = &d.classes[d.start.unwrap()];
        assert_eq!(c.size(), frattini, "{text}");
        assert_eq!(
            Solver::new(&g).nim(&g.start()),
            c.nim[c.size() % 2],
            "{text}"
        );
    }
}

#[test]
fn graph_games_have_structure_diagrams_too() {
    // TER(P_4): 𝒩* = {{v2, v3}} (the ends v1, v4 form the one minimal generating set), so one
    // class, from which selecting an end terminates: nim(∅) = mex{nim({v2}), 0} with
    // nim({v2}) = mex{nim({v2, v3}) = 1, 0} = 2, so 1, the value of seed 000's TER(P_4).
    let fig = StructureFigure {
        game: "TER(P_4)".into(),
        up_to_conjugacy: false,
        classes: Some(1),
        nim: Some(1),
    };
    let (v, refuted) = compute(&fig, Closure::HULL).unwrap();
    assert!(refuted.is_none());
    let labels: Vec<(&str, &str)> = v
        .nodes
        .iter()
        .map(|n| (n.label.as_str(), n.kind.as_str()))
        .collect();
    assert_eq!(
        labels,
        vec![("{v2, v3}", "(0, 1, 2)"), ("terminal", "nim 0")]
    );
    let ter = grundy::expr::parse_game("TER(P_4)", Default::default()).unwrap();
    let quiet = grundy::solve::dispatch::Options {
        budget: grundy::solve::guard::Budget::unlimited(),
        progress: false,
    };
    assert_eq!(grundy::solve::dispatch::nim(&ter, &quiet).unwrap(), v.nim);
}

/// The terminal class of a building game is named as the papers print the structure: a group
/// in their notation (S_4, not Sym(4)), any other structure as the user named it (Bool(2), not
/// the list of its elements).
#[test]
fn the_terminal_class_is_named_by_the_structure() {
    for (game, terminal) in [("GEN(Sym(4))", "S_4"), ("GEN(Bool(2))", "Bool(2)")] {
        let fig = StructureFigure {
            game: game.into(),
            up_to_conjugacy: false,
            classes: None,
            nim: None,
        };
        let (v, _) = compute(&fig, Closure::HULL).unwrap();
        let last = v.nodes.last().unwrap();
        assert!(last.terminal, "{game}");
        assert_eq!(last.label, terminal, "{game}");
    }
}

/// The pieces of a label where a script splits a number, as TeX groups `Z_12` (Z₁2: a
/// subscript of one digit, then a digit): in TeX `_{1}2` or an unbraced `_12`, in a Graphviz
/// HTML label `<SUB>1</SUB>2`. `tex`: the text is TeX (where `_12` itself is wrong).
fn split_numbers(text: &str, tex: bool) -> Vec<String> {
    let c: Vec<char> = text.chars().collect();
    let piece = |a: usize, b: usize| c[a.saturating_sub(2)..b.min(c.len())].iter().collect();
    let digit = |i: usize| c.get(i).is_some_and(char::is_ascii_digit);
    let mut bad = Vec::new();
    for i in 0..c.len() {
        if matches!(c[i], '_' | '^') {
            if c.get(i + 1) == Some(&'{') {
                let close = (i + 2..c.len()).find(|&j| c[j] == '}');
                if let Some(j) = close.filter(|&j| j > i + 2 && (i + 2..j).all(digit)) {
                    if digit(j + 1) {
                        bad.push(piece(i, j + 2));
                    }
                }
            } else if tex && digit(i + 1) && digit(i + 2) {
                bad.push(piece(i, i + 3));
            }
        }
        for close in ["</SUB>", "</SUP>"] {
            let n = close.len();
            if c[i..].starts_with(&close.chars().collect::<Vec<_>>())
                && i > 0
                && digit(i - 1)
                && digit(i + n)
            {
                bad.push(piece(i.saturating_sub(6), i + n + 1));
            }
        }
    }
    bad
}

/// The TeX and HTML labels of a DOT file (`grundytex`, `grundynote`, `label=<…>`), and of its
/// TikZ drawing every line but comments, each with whether it is TeX.
fn labels(path: &str, text: &str) -> Vec<(String, bool)> {
    if path.ends_with(".tex") {
        return text
            .lines()
            .filter(|l| !l.trim_start().starts_with('%'))
            .map(|l| (l.to_string(), true))
            .collect();
    }
    let mut out = Vec::new();
    for line in text.lines().filter(|l| !l.trim_start().starts_with("//")) {
        for key in ["grundytex=\"", "grundynote=\""] {
            for part in line.split(key).skip(1) {
                let end = part
                    .find("\", ")
                    .or_else(|| part.find("\"]"))
                    .unwrap_or(part.len());
                out.push((part[..end].replace("\\\\", "\\"), true));
            }
        }
        if let Some(at) = line.find("label=<") {
            out.push((line[at..].to_string(), false));
        }
    }
    out
}

/// In Graphviz's SVG, where a script is its own `<text baseline-shift="sub">`: a subscript
/// ending in a digit and, on the same line, a text going on with digits (`Z`, `1`, `2`).
fn svg_split_numbers(svg: &str) -> Vec<String> {
    let texts: Vec<&str> = svg.lines().filter(|l| l.starts_with("<text")).collect();
    let inner = |l: &str| {
        l.split_once('>')
            .map(|(_, r)| r.trim_end_matches("</text>").to_string())
            .unwrap_or_default()
    };
    let y = |l: &str| {
        l.split(" y=\"")
            .nth(1)
            .and_then(|r| r.split('"').next())
            .map(str::to_string)
    };
    texts
        .windows(2)
        .filter(|w| {
            let (a, b) = (inner(w[0]), inner(w[1]));
            w[0].contains("baseline-shift=\"sub\"")
                && !w[1].contains("baseline-shift")
                && y(w[0]) == y(w[1])
                && a.ends_with(|c: char| c.is_ascii_digit())
                && b.starts_with(|c: char| c.is_ascii_digit())
        })
        .map(|w| format!("{} {}", inner(w[0]), inner(w[1])))
        .collect()
}

/// Every math label of the structure figures (TikZ, DOT, and Graphviz's SVG) subscripts a
/// number whole, as TeX typesets `Z_{12}`: the terminal class of GEN(Z_12) printed as Z₁2 is
/// caught, in each language.
#[test]
fn every_math_label_is_subscripted_as_tex_groups_it() {
    let run = pipeline::check(&[PathBuf::from("specs/es2018/figures")], &Selection::All);
    assert_eq!(run.exit_code(), 0, "the structure figures hold");
    let checked: Vec<_> = run.checked().collect();
    let index: Vec<_> = checked.iter().map(|(s, c)| (*s, &c.report)).collect();
    let renderer = Renderer::load(&root().join("templates")).unwrap();
    let files = render_all(
        &checked,
        &index,
        &Default::default(),
        &Default::default(),
        &renderer,
    )
    .unwrap();
    let mut seen = 0;
    let mut twelve = false;
    for (p, bytes) in &files {
        let p = p.to_string_lossy().to_string();
        let text = String::from_utf8_lossy(bytes);
        if p.ends_with(".svg") {
            let bad = svg_split_numbers(&text);
            assert!(bad.is_empty(), "{p}: {bad:?}");
            twelve |= text.contains("baseline-shift=\"sub\" font-size=\"10.00\">12</text>");
            continue;
        }
        if !(p.ends_with(".dot") || p.ends_with(".tikz.tex")) {
            continue;
        }
        for (label, tex) in labels(&p, &text) {
            seen += 1;
            twelve |= label.contains("Z_{12}") || label.contains("Z<SUB>12</SUB>");
            let bad = split_numbers(&label, tex);
            assert!(bad.is_empty(), "{p}: {bad:?} in {label}");
        }
    }
    assert!(seen > 20, "{seen} labels");
    assert!(twelve, "GEN(Z_12)'s terminal class is drawn");
    // Wrong variants: the labels as they were written, Z₁2, in TeX, DOT's HTML and TeX.
    for (label, tex) in [
        (
            "{\\begin{tabular}{@{}c@{}}$Z_{1}2$\\\\$\\mathbf{0}$\\end{tabular}}",
            true,
        ),
        ("$Z_12$", true),
        ("label=<Z<SUB>1</SUB>2<BR/><B>0</B>>];", false),
        ("$x^{1}0$", true),
    ] {
        assert!(!split_numbers(label, tex).is_empty(), "{label} caught");
    }
    let old_svg = "<text text-anchor=\"start\" x=\"248.43\" y=\"-21\" font-size=\"10.00\">Z</text>
<text text-anchor=\"start\" x=\"255.43\" y=\"-21\" baseline-shift=\"sub\" font-size=\"10.00\">1</text>
<text text-anchor=\"start\" x=\"261.43\" y=\"-21\" font-size=\"10.00\">2</text>
<text text-anchor=\"start\" x=\"261.43\" y=\"-9\" font-size=\"10.00\">0</text>";
    assert_eq!(svg_split_numbers(old_svg), ["1 2"]);
    assert!(svg_split_numbers(&old_svg.replace(
        ">1</text>\n<text text-anchor=\"start\" x=\"261.43\" y=\"-21\" font-size=\"10.00\">2",
        ">12"
    ))
    .is_empty());
    // A digit after a finished script is no split number, nor an HTML label's `_12` (text).
    for (label, tex) in [
        ("$Z_{12} + 2$", true),
        ("$(0, \\lambda^{2k}_{0})$", true),
        ("label=<Z<SUB>12</SUB><BR/><B>0</B>>", false),
        ("tooltip=\"Z_12\"", false),
    ] {
        assert!(split_numbers(label, tex).is_empty(), "{label}");
    }
}
