//! The `grundy` CLI end to end: solve (text, JSON, sweeps), sets in the paper's vertex
//! names, closures, and bad input (exit 2 with a clear message, never a panic).

use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(args)
        .output()
        .expect("grundy runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn solve_prints_the_nim_value() {
    let o = run(&["solve", "TER(C_9)"]);
    assert!(o.status.success());
    assert_eq!(stdout(&o).trim(), "nim(TER(C_9)) = 0");
    // Example 3.1: TER(P_3) = *2.
    assert_eq!(
        stdout(&run(&["solve", "TER(P_3)"])).trim(),
        "nim(TER(P_3)) = 2"
    );
}

#[test]
fn solve_json_has_the_documented_keys() {
    let o = run(&["solve", "DNT(W_7)", "--json"]);
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["game"], "DNT(W_7)");
    assert_eq!(v["nim"], 1); // Prop 5.18: odd n
    assert!(v["positions"].as_u64().unwrap() > 0);
    assert!(v["seconds"].as_f64().unwrap() >= 0.0);
}

#[test]
fn sweep_gives_one_row_per_value() {
    let o = run(&["solve", "DNT(W_n)", "--param", "n=5..=12", "--json"]);
    assert!(o.status.success());
    let rows: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 8);
    // Thm 5.24: nim(DNT(W_n)) = 0 exactly for n = 8 and n = 12 in this range.
    for r in rows {
        let n = r["n"].as_i64().unwrap();
        assert_eq!(
            r["nim"].as_i64().unwrap(),
            if n == 8 || n == 12 { 0 } else { 1 },
            "n = {n}"
        );
    }
    let table = stdout(&run(&[
        "solve",
        "TER(W_{m,n})",
        "--param",
        "m=2..=3",
        "--param",
        "n=4..=5",
    ]));
    assert_eq!(table.lines().count(), 1 + 4);
}

#[test]
fn sets_in_paper_names() {
    let o = run(&["sets", "Kite", "--json"]);
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    // Example 2.6: 𝒢 = {{x,w},{x,u,v}}.
    assert_eq!(v["G"], serde_json::json!([["x", "w"], ["x", "u", "v"]]));
    assert_eq!(v["G*"], serde_json::json!([["x"], ["u", "w"], ["v", "w"]]));
    let text = stdout(&run(&["sets", "P_3"]));
    assert!(text.contains("G* = {{v1}, {v3}}"), "{text}");
}

#[test]
fn geodetic_closure_is_selectable() {
    // §6 question 2: on Q_3 the one-step geodetic closure differs from the hull, and so do
    // the families it gives.
    let hull = stdout(&run(&["sets", "Q_3"]));
    let geo = stdout(&run(&["sets", "Q_3", "--closure", "geodetic"]));
    assert_ne!(hull.lines().nth(1), geo.lines().nth(1));
    assert!(run(&["solve", "TER(Q_3)", "--closure", "geodetic"])
        .status
        .success());
}

#[test]
fn bad_input_exits_2_with_a_message() {
    for (args, needle) in [
        (vec!["solve", "TER(X_5)"], "unknown graph family"),
        (vec!["solve", "TER(graph6:Dh)"], "malformed graph6"),
        (vec!["solve", "TER(graph6:C?)"], "disconnected"),
        (vec!["solve", "TER(C_65)"], "at most 64"),
        (vec!["solve", "TER(Q_9)"], "at most 64"),
        (vec!["solve", "TER(C_9"], "never closed"),
        (vec!["solve", "DNT(W_n)", "--param", "n=9..=5"], "empty"),
        (vec!["solve", "DNT(W_n)", "--param", "n5"], "NAME=RANGE"),
        (vec!["sets", "K_{0,3}"], "every part needs"),
        (vec!["bogus"], "unrecognized subcommand"),
    ] {
        let o = run(&args);
        let all = format!("{}{}", stdout(&o), String::from_utf8_lossy(&o.stderr));
        assert_eq!(o.status.code(), Some(2), "{args:?}: {all}");
        assert!(
            all.contains(needle),
            "{args:?}: expected `{needle}` in {all}"
        );
        assert!(!all.contains("panicked"), "{args:?}: {all}");
    }
}

/// All files under `dir` (relative paths) with their bytes, except Graphviz/cairo output.
fn snapshot(dir: &std::path::Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    let mut out = std::collections::BTreeMap::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).expect("a folder") {
            let p = e.expect("an entry").path();
            if p.is_dir() {
                todo.push(p);
            } else if !p.extension().is_some_and(|x| x == "svg" || x == "pdf") {
                let rel = p
                    .strip_prefix(dir)
                    .expect("inside")
                    .to_string_lossy()
                    .into_owned();
                if !rel.starts_with(".grundy-lock") {
                    out.insert(rel, std::fs::read(&p).expect("readable"));
                }
            }
        }
    }
    out
}

/// `build --only` rebuilds one spec and leaves every other file as the full build wrote it:
/// the galleries' captions and the report's plots (drawn from the views of all specs), and
/// the certificate of a diagram whose sinks refer to diagrams checked only as its references.
#[test]
fn build_only_leaves_the_other_files_as_the_full_build_wrote_them() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().expect("a temp dir");
    let specs = dir.path().join("specs/paper000");
    std::fs::create_dir_all(&specs).expect("mkdir");
    for f in [
        "diagrams/lemma_5_41_diagram_C.yaml",
        "diagrams/lemma_5_38_diagram_B.yaml",
        "diagrams/lemma_5_37_diagram.yaml",
        "table_wheels.yaml",
        "prop_5_23.yaml",
        "prop_5_6.yaml",
        // Of the long tier: the main job leaves it out, and so must a build --only after it.
        "prop_5_6_q5.yaml",
    ] {
        let name = std::path::Path::new(f).file_name().expect("a name");
        std::fs::copy(root.join("specs/paper000").join(f), specs.join(name)).expect("copy");
    }
    // A contents file naming the long-tier spec (as docs/contents/paper000.yaml does).
    std::fs::create_dir_all(dir.path().join("docs/contents")).expect("mkdir");
    std::fs::write(
        dir.path().join("docs/contents/paper000.yaml"),
        "- { item: Proposition 5.6, specs: [prop_5_6, prop_5_6_q5] }\n",
    )
    .expect("write");
    let templates = root.join("templates");
    let build = |extra: &[&str]| {
        let mut args = vec![
            "build",
            "--specs",
            "specs",
            "--templates",
            templates.to_str().expect("utf-8"),
            "--output",
            "out",
        ];
        args.extend_from_slice(extra);
        let o = Command::new(env!("CARGO_BIN_EXE_grundy"))
            .args(&args)
            .current_dir(dir.path())
            .output()
            .expect("grundy runs");
        assert!(
            o.status.success(),
            "build {extra:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    };
    build(&[]);
    let full = snapshot(&dir.path().join("out"));
    assert!(full.contains_key("certificates/lemma_5_41_diagram_C.json"));
    assert!(full.keys().any(|k| k.starts_with("site/plots/")));
    for only in ["5.11", "table_wheels", "prop_5_23", "prop_5_6"] {
        build(&["--only", only]);
        let after = snapshot(&dir.path().join("out"));
        let changed: Vec<&String> = full
            .keys()
            .chain(after.keys())
            .filter(|k| full.get(*k) != after.get(*k))
            .collect();
        assert!(changed.is_empty(), "--only {only} changed {changed:?}");
    }
}

/// A misspelt feature in a formula: the diagnostic names the location once and puts the caret
/// under the misspelt name (not at the start of the formula), before the summary line, which
/// counts the spec it could not check.
#[test]
fn a_bad_formula_points_at_its_token_and_says_where_once() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let spec = dir.path().join("a.yaml");
    std::fs::write(
        &spec,
        "kind: claim\nsource: Test\nstatement: test\ngame: TER(C_n)\nparams:\n  n: 4..=6\nholds: \"gaps + numprts == 1\"\n",
    )
    .unwrap();
    let o = run(&["check", spec.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(2), "{err}");
    // The location once, in the snippet's header, at the token's column (16, not 8).
    assert_eq!(err.matches("a.yaml:").count(), 1, "{err}");
    assert!(err.contains("a.yaml:7:16]"), "{err}");
    assert!(!err.contains("(line 1, position"), "{err}");
    // A cycle has no `num_parts` near the misspelling: every name of its positions is listed.
    assert!(
        err.replace("\n  │ ", " ")
            .contains("the names here are edges, even_gaps"),
        "{err}"
    );
    let caret = err
        .lines()
        .find(|l| l.contains('▲') || l.contains('┬'))
        .expect("a caret");
    let code = err
        .lines()
        .find(|l| l.contains("holds: "))
        .expect("the line");
    let col = |l: &str, c: &str| l.find(c).map(|b| l[..b].chars().count());
    assert_eq!(
        col(caret, if caret.contains('▲') { "▲" } else { "┬" }),
        col(code, "numprts"),
        "{err}"
    );
    assert!(
        stdout(&o).contains("1 spec: 0 as expected, 0 not, 1 bad input"),
        "{}",
        stdout(&o)
    );
}

/// What a `solve --help` text (or the language page) leaves out of the closure games: their
/// forms and the structures they are played on.
fn structures_omitted(help: &str) -> Vec<&'static str> {
    let mut words = vec![
        "GEN(X), DNG(X)",
        "TER(X), DNT(X)",
        "Sym(n)",
        "Alt(n)",
        "Cyc(n)",
        "Dih(n)",
        "Dic(n)",
        "Perm(",
        "G x H",
        "Bool(n)",
        "Sets(",
        "Digraph(",
        "Weighted(",
    ];
    words.extend(
        grundy::game::closure::structure_forms()
            .iter()
            .map(|f| f.syntax),
    );
    words.retain(|w| !help.contains(w));
    words
}

/// Issue 46 item 12: `grundy solve --help` and the guide's language page list the closure
/// games and every structure they are played on (the groups Sym(n), Alt(n), Cyc(n), Dih(n),
/// Dic(n), Perm(..) and their products, posets, set families, digraphs, weighted graphs), each
/// example of a structure not read from a file solves, and the `--closure` help lists every
/// registered graph closure (monophonic was missing). The wrong variant: the help as it was,
/// without the structures, is caught.
#[test]
fn solve_help_lists_the_closure_games_their_structures_and_every_closure() {
    let help = stdout(&run(&["solve", "--help"]));
    assert_eq!(
        structures_omitted(&help),
        Vec::<&str>::new(),
        "solve --help:\n{help}"
    );
    let page = grundy::cli::reference::language_markdown();
    assert_eq!(
        structures_omitted(&page),
        Vec::<&str>::new(),
        "the language page"
    );
    let old = help.split("Structures X").next().unwrap().to_string()
        + help.split("Graph families").nth(1).unwrap();
    assert!(structures_omitted(&old.replace("GEN(X), DNG(X)", "")).contains(&"Sym(n)"));
    for f in grundy::game::closure::structure_forms() {
        if f.syntax.contains(':') {
            continue; // read from a file
        }
        let o = run(&["solve", f.example]);
        assert!(
            o.status.success(),
            "{} does not solve: {}",
            f.example,
            String::from_utf8_lossy(&o.stderr)
        );
    }
    let closure_help = help
        .split("--closure")
        .nth(1)
        .unwrap()
        .split("--json")
        .next()
        .unwrap();
    for name in grundy::graph::closures::names() {
        assert!(
            closure_help.contains(name),
            "--closure help omits {name}:\n{closure_help}"
        );
    }
}

/// A message about the one instance of a spec without parameters names no instance (it read
/// `instance : …`, an empty name); with parameters it names the instance.
#[test]
fn a_spec_without_parameters_names_no_instance_in_its_messages() {
    let dir = tempfile::tempdir().unwrap();
    let one = dir.path().join("one.yaml");
    std::fs::write(
        &one,
        "kind: claim\nsource: Example 4.11\ngame: TER(P_4)\nnim: nim(\"TER(Q_99)\")\n",
    )
    .unwrap();
    let o = run(&["check", one.to_str().unwrap()]);
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(o.status.code(), Some(2), "{text}");
    assert!(!text.contains("instance :"), "{text}");
    let many = dir.path().join("many.yaml");
    std::fs::write(
        &many,
        "kind: claim\nsource: Example 4.11\ngame: TER(P_n)\nparams: { n: 2..=3 }\nnim: nim(\"TER(Q_99)\")\n",
    )
    .unwrap();
    let o = run(&["check", many.to_str().unwrap()]);
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(text.contains("instance n=2: "), "{text}");
}
