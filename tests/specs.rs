//! Specs, `grundy check`, `grundy build`. Bad specs are rejected with file:line:column
//! and exit 2 with nothing written; wrong variants of paper claims are refuted (exit 1) with an
//! exact counterexample; builds are deterministic whatever the thread count; every generated
//! LaTeX include compiles.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn grundy() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_grundy"));
    c.current_dir(env!("CARGO_MANIFEST_DIR"));
    c
}

fn run(args: &[&str]) -> Output {
    grundy().args(args).output().expect("grundy runs")
}

/// `grundy build` of a specs directory into an output directory.
fn build(specs: &Path, out: &Path) -> Output {
    run(&[
        "build",
        "--specs",
        specs.to_str().unwrap(),
        "--output",
        out.to_str().unwrap(),
    ])
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn write(dir: &Path, name: &str, body: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, body).unwrap();
    p
}

fn tmp() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

/// A spec file that must be rejected as bad input: exit 2, a message naming `file:line:col`
/// and containing `needle`; `grundy build` over it writes nothing.
fn rejected(name: &str, body: &str, line_col: &str, needle: &str) {
    let d = tmp();
    let specs = d.path().join("specs");
    std::fs::create_dir(&specs).unwrap();
    let p = write(&specs, name, body);
    let o = run(&["check", p.to_str().unwrap()]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(2), "{name}: {t}");
    assert!(
        t.contains(&format!("{name}:{line_col}")),
        "{name}: expected location {line_col} in {t}"
    );
    // The message as one line (miette wraps a headline at 80 columns).
    let flat = t.replace("\n  │ ", " ");
    assert!(flat.contains(needle), "{name}: expected `{needle}` in {t}");
    let out = d.path().join("output");
    let o = build(&specs, &out);
    assert_eq!(o.status.code(), Some(2), "build {name}: {}", text(&o));
    assert!(
        !out.exists() || std::fs::read_dir(&out).unwrap().next().is_none(),
        "{name}: build wrote output"
    );
}

#[test]
fn unknown_key() {
    rejected(
        "unknown.yaml",
        "kind: claim\nsource: X\ngame: TER(C_n)\nparams:\n  n: 5..=9\nnim: 0\nbogus: 1\n",
        "7:1",
        "unknown field `bogus`",
    );
}

#[test]
fn wrong_type() {
    rejected(
        "type.yaml",
        "kind: claim\nsource: X\ngame: TER(C_n)\nparams:\n  n: [5, \"x\"]\nnim: 0\n",
        "5:10",
        "`x` is not an integer (a list range holds integers)",
    );
}

#[test]
fn unknown_family() {
    rejected(
        "family.yaml",
        "kind: claim\nsource: X\ngame: TER(X_n)\nparams:\n  n: 5..=9\nnim: 0\n",
        "3:7",
        "unknown graph family",
    );
}

#[test]
fn bad_expression() {
    rejected(
        "expr.yaml",
        "kind: claim\nsource: X\ngame: TER(C_n)\nparams:\n  n: 5..=9\nwhere: \"n + * 2\"\nnim: 0\n",
        "6:13",
        "bad expression",
    );
}

#[test]
fn empty_range() {
    rejected(
        "empty.yaml",
        "kind: claim\nsource: X\ngame: TER(C_n)\nparams:\n  n: 9..=5\nnim: 0\n",
        "5:6",
        "is empty",
    );
}

#[test]
fn output_outside() {
    rejected(
        "outside.yaml",
        "kind: table\nsource: X\ntitle: t\nrows:\n  n: 5..=6\ngames:\n  a: TER(C_n)\noutput:\n  - { template: value_table.md, path: ../evil.md }\n",
        "9:39",
        "outside output/",
    );
}

#[test]
fn unknown_kind_and_absurd_size() {
    rejected("kind.yaml", "kind: clam\n", "1:7", "unknown spec kind");
    rejected(
        "big.yaml",
        "kind: claim\nsource: X\ngame: TER(C_n)\nparams:\n  n: 1..=99999999\nnim: 0\n",
        "5:6",
        "99999999 values",
    );
    rejected(
        "huge.yaml",
        "kind: claim\nsource: X\ngame: TER(C_n)\nparams:\n  n: 99..=99\nnim: 0\n",
        "3:7",
        "at most 64 are supported",
    );
}

/// A figure's `layout` is `rows`, and only for graph figures.
#[test]
fn figure_layouts_are_checked() {
    let kite = "kind: figure\nsource: Fig 2.1\ntitle: t\ngraph: Kite\nfamilies:\n  G: []\n";
    rejected(
        "columns.yaml",
        &format!("{kite}layout: columns\n"),
        "7:9",
        "unknown layout `columns`",
    );
    rejected(
        "panels.yaml",
        "kind: figure\nsource: Fig 3.1\ntitle: t\nlayout: rows\npanels:\n  - { game: TER(P_3) }\n",
        "4:9",
        "applies to graph figures",
    );
}

/// A wrong variant of a paper spec: exit 1 and a counterexample containing `needle`.
fn refuted(name: &str, body: &str, needle: &str) {
    let d = tmp();
    let p = write(d.path(), name, body);
    let o = run(&["check", p.to_str().unwrap()]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(1), "{name}: {t}");
    assert!(t.contains("counterexample: "), "{name}: {t}");
    assert!(t.contains(needle), "{name}: expected `{needle}` in {t}");
}

fn paper_spec(name: &str) -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("specs/paper000")
            .join(name),
    )
    .unwrap()
}

#[test]
fn wrong_thm_5_43_is_refuted() {
    let s = paper_spec("thm_5_43.yaml").replace(
        "{ when: \"d == 1\", value: 2 }",
        "{ when: \"d == 1\", value: 1 }",
    );
    refuted(
        "thm_5_43_wrong.yaml",
        &s,
        "m=3, n=4: TER(W_{3,4}): claimed *1, computed *2",
    );
}

#[test]
fn wrong_prop_5_15_is_refuted() {
    let s = paper_spec("prop_5_15.yaml").replace(
        "pty(v) == 0 && d <= 1\", value: 0",
        "pty(v) == 0 && d <= 0\", value: 0",
    );
    refuted(
        "prop_5_15_wrong.yaml",
        &s,
        "parts=[2,2]: TER(K_{2,2}): claimed no case applies, computed *0",
    );
}

#[test]
fn wrong_thm_5_24_is_refuted() {
    // Without its premises (`uses:`), which live in specs/ and not in the temp dir.
    let s = paper_spec("thm_5_24.yaml")
        .replace("uses: [prop_5_22, prop_5_23]\n", "")
        .replace("n == 18 || n == 38 || ", "n == 38 || ")
        .replace("!(n == 18 || n == 38 || ", "!(n == 38 || ");
    refuted(
        "thm_5_24_wrong.yaml",
        &s,
        "n=18: DNT(W_18): claimed *1, computed *0",
    );
}

#[test]
fn wrong_prop_5_14_is_refuted() {
    let s = paper_spec("prop_5_14.yaml").replace(
        "{ when: \"p == 1 && 3 <= d\", value: 0 }",
        "{ when: \"p == 1 && 3 <= d\", value: 2 }",
    );
    refuted(
        "prop_5_14_wrong.yaml",
        &s,
        "U=[3]: TER{3}: claimed *2, computed *0",
    );
}

#[test]
fn wrong_table_5_1_is_refuted() {
    let s = paper_spec("table_5_1.yaml").replace(
        "{ p: 1, d: \"1\", same: 0, up: 1,",
        "{ p: 1, d: \"1\", same: 0, up: 2,",
    );
    refuted("table_5_1_wrong.yaml", &s, "nim(Ũ) = 2 when d̃ = d+1");
}

#[test]
fn wrong_prop_5_23_digit_is_refuted() {
    let s = paper_spec("prop_5_23.yaml").replace(
        "0112031103322405223301130211045274 0112",
        "0112031103322405223301130211045274 0113",
    );
    refuted(
        "prop_5_23_wrong.yaml",
        &s,
        "claimed G(37) = 3, computed G(37) = 2",
    );
}

#[test]
fn wrong_prop_5_9_rule_is_refuted() {
    let s =
        paper_spec("prop_5_9.yaml").replace("comp[0][0] == comp[1][0]", "comp[0][0] != comp[1][0]");
    refuted("prop_5_9_wrong.yaml", &s, "not in N*");
}

#[test]
fn wrong_conjecture_outcome_is_refuted() {
    let s = paper_spec("conjecture_5_5_fast.yaml")
        .replace("outcome: P", "outcome: N")
        .replace("5..=31", "5..=9");
    refuted(
        "conj_wrong.yaml",
        &s,
        "n=5: TER(C_5): claimed N, computed P (nim *0)",
    );
}

#[test]
fn erratum_that_holds_is_unexpected() {
    // An `expect: refuted` claim that actually holds must fail the run too (its companion,
    // the same claim, holds).
    let d = tmp();
    let c = paper_spec("example_4_11_star_ter_corrected.yaml");
    write(d.path(), "c.yaml", &c);
    let s = c + "expect: refuted\ncorrected_by: c\n";
    let o = run(&["check", write(d.path(), "e.yaml", &s).to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("HOLDS (expected refuted)"));
}

fn small_specs(dir: &Path) {
    for f in [
        "thm_5_43.yaml",
        "table_ter_wmn.yaml",
        "table_5_1.yaml",
        "prop_5_23.yaml",
        "example_4_11_star_ter.yaml",
        "example_4_11_star_ter_corrected.yaml",
        "prop_5_15.yaml",
    ] {
        std::fs::copy(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("specs/paper000")
                .join(f),
            dir.join(f),
        )
        .unwrap();
    }
}

fn files(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push((
                    p.strip_prefix(dir).unwrap().to_path_buf(),
                    std::fs::read(&p).unwrap(),
                ));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn build_is_deterministic_across_thread_counts() {
    let d = tmp();
    let specs = d.path().join("specs");
    std::fs::create_dir(&specs).unwrap();
    small_specs(&specs);
    let mut results = Vec::new();
    for threads in ["1", "2", "3"] {
        let out = d.path().join(format!("out{threads}"));
        let o = grundy()
            .env("RAYON_NUM_THREADS", threads)
            .args([
                "build",
                "--specs",
                specs.to_str().unwrap(),
                "--output",
                out.to_str().unwrap(),
            ])
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0), "{}", text(&o));
        results.push(files(&out));
    }
    assert!(!results[0].is_empty());
    assert_eq!(results[0], results[1]);
    assert_eq!(results[0], results[2]);
}

#[test]
fn tables_render_as_latex_snapshots() {
    let d = tmp();
    let specs = d.path().join("specs");
    std::fs::create_dir(&specs).unwrap();
    small_specs(&specs);
    let out = d.path().join("out");
    let o = build(&specs, &out);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let tex = |p: &str| {
        std::fs::read_to_string(out.join(p))
            .unwrap()
            .replace(specs.to_str().unwrap(), "specs")
    };
    insta::assert_snapshot!("table_5_1_tex", tex("paper000/table_5_1.tex"));
    insta::assert_snapshot!("table_ter_wmn_tex", tex("paper000/table_ter_wmn.tex"));
    insta::assert_snapshot!("dc_sequence_tex", tex("paper000/dc_sequence.tex"));
    // Prop 5.23's hats: the same five columns in each of the three rows, and a caption that
    // says what the rows and the hats are.
    let dc = tex("paper000/dc_sequence.tex");
    assert_eq!(dc.matches("\\hat{").count(), 15, "{dc}");
    for row in dc
        .lines()
        .filter(|l| l.ends_with("$ \\\\") && !l.starts_with("$n$"))
    {
        assert_eq!(row.matches("\\hat{").count(), 5, "{row}");
    }
    let cap = tex("paper000/dc_sequence.caption.tex");
    for says in [
        "the rows of $n=0$ and $n=34$ are a preperiod of length 68",
        "the row of $n=68$ is the period of length 34",
        "a hat marks a column in which the rows differ",
    ] {
        assert!(cap.contains(says), "{says}: {cap}");
    }
}

/// Every `.tex` include that `grundy build` writes compiles in one document with pdflatex.
#[test]
fn every_latex_include_compiles() {
    if Command::new("pdflatex").arg("--version").output().is_err() {
        eprintln!("pdflatex not installed; skipping (CI installs texlive-latex-recommended)");
        return;
    }
    let d = tmp();
    let out = d.path().join("out");
    let o = run(&["build", "--output", out.to_str().unwrap()]);
    assert!(matches!(o.status.code(), Some(0)), "{}", text(&o));
    let includes: Vec<PathBuf> = files(&out)
        .into_iter()
        .map(|(p, _)| p)
        .filter(|p| p.extension().is_some_and(|e| e == "tex"))
        // Tables only: TikZ drawings, captions and the two gallery documents are compiled by
        // tests/figures.rs and .ci/check-output (they need grundy-tikz.sty and a float).
        .filter(|p| {
            let s = p.to_string_lossy();
            !s.ends_with(".tikz.tex")
                && !s.ends_with(".caption.tex")
                && s != "figures.tex"
                && s != "tables.tex"
        })
        .collect();
    assert!(includes.len() >= 3, "{includes:?}");
    let mut doc = String::from("\\documentclass{article}\n\\usepackage[a4paper,margin=1.5cm,landscape]{geometry}\n\\usepackage{booktabs,amsmath,amssymb,graphicx}\n\\begin{document}\n");
    for p in &includes {
        doc.push_str(&format!("\\section*{{\\detokenize{{{}}}}}\n\\resizebox{{\\linewidth}}{{!}}{{\\input{{{}}}}}\n\n", p.display(), out.join(p).display()));
    }
    doc.push_str("\\end{document}\n");
    let main = write(d.path(), "all.tex", &doc);
    let o = Command::new("pdflatex")
        .args(["-interaction=nonstopmode", "-halt-on-error"])
        .arg(&main)
        .current_dir(d.path())
        .output()
        .unwrap();
    assert!(o.status.success(), "pdflatex failed:\n{}", text(&o));
    assert!(d.path().join("all.pdf").exists());
}

/// The fonts of a PDF that are bitmaps (`Type 3` in `pdffonts`): what pdflatex embeds when T1
/// is loaded without `lmodern` (or cm-super), after METAFONT has filled the terminal.
fn bitmap_fonts(pdf: &Path) -> Option<Vec<String>> {
    let o = Command::new("pdffonts").arg(pdf).output().ok()?;
    Some(
        String::from_utf8_lossy(&o.stdout)
            .lines()
            .filter(|l| l.contains("Type 3"))
            .map(str::to_string)
            .collect(),
    )
}

/// The five-minute example: `grundy init`'s paper stub typesets in vector fonts (it loads
/// lmodern with T1), so pdflatex neither runs METAFONT nor embeds Type 3 bitmap fonts; the
/// stub without lmodern, its wrong variant, embeds them.
#[test]
fn the_init_paper_stub_typesets_in_vector_fonts() {
    let have = |c: &str, a: &str| {
        Command::new(c)
            .arg(a)
            .output()
            .is_ok_and(|o| o.status.success())
    };
    if !have("pdflatex", "--version") || !have("pdffonts", "-v") {
        eprintln!(
            "pdflatex or pdffonts not installed; skipping (CI installs TeX and poppler-utils)"
        );
        return;
    }
    let d = tmp();
    let project = d.path().join("p");
    let o = run(&["init", project.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));
    let o = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .arg("build")
        .current_dir(&project)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
    let paper = project.join("paper");
    let stub = std::fs::read_to_string(paper.join("paper.tex")).unwrap();
    assert!(
        stub.contains("\\usepackage[T1]{fontenc}\\usepackage{lmodern}"),
        "{stub}"
    );
    let typeset = |tex: &str| -> Vec<String> {
        std::fs::write(paper.join("t.tex"), tex).unwrap();
        let o = Command::new("pdflatex")
            .args(["-interaction=batchmode", "t.tex"])
            .env("TEXINPUTS", "../output//:")
            .current_dir(&paper)
            .output()
            .unwrap();
        assert!(o.status.success(), "pdflatex: {}", text(&o));
        bitmap_fonts(&paper.join("t.pdf")).unwrap()
    };
    assert_eq!(
        typeset(&stub),
        Vec::<String>::new(),
        "the stub embeds bitmap fonts"
    );
    let without = stub.replace("\\usepackage{lmodern}", "");
    let bitmaps = typeset(&without);
    if bitmaps.is_empty() {
        // cm-super is installed: T1 without lmodern is in vector fonts here too.
        eprintln!("T1 without lmodern typesets in vector fonts on this machine (cm-super)");
    } else {
        assert!(bitmaps.iter().all(|l| l.contains("Type 3")));
    }
}
