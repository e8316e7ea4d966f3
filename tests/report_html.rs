//! The browsable report (output/index.html, output/site/): results listed per paper in the
//! paper's numeric order with the status their reports give, HTML escaping of spec text, the
//! dependency graph from `uses:`, and refusal of a `uses:` naming no spec.

use std::path::Path;
use std::process::{Command, Output};

fn build(specs: &Path, out: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_grundy"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["build", "--specs"])
        .arg(specs)
        .arg("--output")
        .arg(out)
        .output()
        .expect("grundy runs")
}

fn copy_spec(paper: &Path, name: &str) {
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("specs/paper000/{name}.yaml"));
    std::fs::copy(from, paper.join(format!("{name}.yaml"))).unwrap();
}

/// `(id, status)` of every result row of index.html, in page order.
fn rows(index: &str) -> Vec<(String, String)> {
    index
        .split("<tr id=\"")
        .skip(1)
        .map(|r| {
            let id = r.split('"').next().unwrap().to_string();
            let status = r
                .split("data-status=\"")
                .nth(1)
                .and_then(|s| s.split('"').next())
                .unwrap()
                .to_string();
            (id, status)
        })
        .collect()
}

const K_N: &str = "game: TER(K_n)\nparams:\n  n: 1..=4\nnim: 1\n";

#[test]
fn index_lists_results_in_numeric_order_with_statuses() {
    let dir = tempfile::tempdir().unwrap();
    let specs = dir.path().join("specs");
    let paper = specs.join("paper000");
    let seed = specs.join("seedx");
    std::fs::create_dir_all(&paper).unwrap();
    std::fs::create_dir_all(&seed).unwrap();
    // Example 4.10 as printed (an erratum) and corrected, Example 4.7, 4.9: 4.7 < 4.9 < 4.10.
    for s in [
        "example_4_10_ter",
        "example_4_10_ter_corrected",
        "example_4_7_ter",
        "example_4_9_ter",
    ] {
        copy_spec(&paper, s);
    }
    // A literal reading, refuted as expected (nim(TER(K_n)) is 1, not 2).
    std::fs::write(
        paper.join("prop_4_8_literal.yaml"),
        format!(
            "kind: claim\nsource: Prop 4.8\nnotes: Read literally, the claim is about K_n.\n{}expect: refuted\nread_as: prop_4_8_meant\n",
            K_N.replace("nim: 1", "nim: 2")
        ),
    )
    .unwrap();
    std::fs::write(
        paper.join("prop_4_8_meant.yaml"),
        format!("kind: claim\nsource: Prop 4.8\n{K_N}"),
    )
    .unwrap();
    // Thm 16 rests on Thm 6 (declared); Thm 6's statement carries markup that must be escaped.
    std::fs::write(
        seed.join("thm_16.yaml"),
        format!("kind: claim\nsource: Thm 16\nuses: [thm_6]\n{K_N}"),
    )
    .unwrap();
    std::fs::write(
        seed.join("thm_6.yaml"),
        format!("kind: claim\nsource: Thm 6\nstatement: \"<script>x</script> & nim(TER(K_n)) = 1\"\n{K_N}"),
    )
    .unwrap();
    let out = dir.path().join("out");
    let o = build(&specs, &out);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // The verifier's verdicts on that build, as `grundy-verify --write` leaves them; the next
    // build reads them.
    std::fs::create_dir_all(out.join("certificates")).unwrap();
    std::fs::write(
        out.join("certificates/VERIFIED.json"),
        r#"{"specs": {
            "example_4_7_ter": "verified (claim re-derived): 5 of 5 instances (40 entries)",
            "prop_4_8_meant": "verified (claim re-derived): 2 of 4 instances (9 entries)",
            "thm_6": "evidence checked, claim not re-derived: the verifier has no family `K`",
            "example_4_9_ter": "not certified: a `holds` claim states a fact about features"
        }}"#,
    )
    .unwrap();
    let o = build(&specs, &out);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));

    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    let got = rows(&index);
    let want = [
        ("example_4_7_ter", "holds"),
        ("prop_4_8_literal", "reading"),
        ("prop_4_8_meant", "holds"),
        ("example_4_9_ter", "holds"),
        ("example_4_10_ter", "erratum"),
        ("example_4_10_ter_corrected", "holds"),
        ("thm_6", "holds"),
        ("thm_16", "holds"),
    ];
    let got_ref: Vec<(&str, &str)> = got.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
    assert_eq!(got_ref, want);
    // The badge is the checker's verdict; what the verifier did is a mark of its own, in the
    // verifier's words, and only where VERIFIED.json says (thm_16 has no line: no mark).
    let row = |id: &str| {
        let r = index.split(&format!("<tr id=\"{id}\"")).nth(1).unwrap();
        r.split("</tr>").next().unwrap().to_string()
    };
    for (id, class, mark) in [
        (
            "example_4_7_ter",
            "verified",
            Some("re-derived by grundy-verify"),
        ),
        (
            "prop_4_8_meant",
            "partly-verified",
            Some("partly re-derived"),
        ),
        ("thm_6", "evidence", Some("evidence checked")),
        ("example_4_9_ter", "not-certified", Some("not certified")),
        ("thm_16", "not-run", None),
    ] {
        let r = row(id);
        assert!(
            r.contains(&format!("data-verified=\"{class}\"")),
            "{id}: {r}"
        );
        assert!(r.contains(">holds</span>"), "{id}: {r}");
        match mark {
            Some(m) => assert!(r.contains(&format!("\">{m}</span>")), "{id}: {r}"),
            None => assert!(!r.contains("class=\"mark"), "{id}: {r}"),
        }
    }
    assert!(!index.contains(">verified</span>"));
    let page = std::fs::read_to_string(out.join("site/seedx/thm_6.html")).unwrap();
    assert!(page.contains(">evidence checked</span>"), "{page}");
    // The verdict line is typeset: its backticked name is code, no backtick is printed.
    assert!(page.contains("no family <code>K</code>"), "{page}");

    // Anchors by paper number: the first result of a number takes the bare anchor, every
    // paper its own prefixed one; the spec ids stay anchors too.
    for a in [
        " id=\"ex-4.10\"",
        " id=\"paper000-ex-4.10\"",
        " id=\"thm-16\"",
        " id=\"seedx-thm-16\"",
        " id=\"example_4_10_ter_corrected\"",
    ] {
        assert_eq!(index.matches(a).count(), 1, "{a}");
    }
    // ASCII operators and ranges are typeset: `1..=4` is the set {1,…,4}, not raw text.
    assert!(
        index.contains("n \\in \\{1,\\dots,4\\}"),
        "range not typeset"
    );
    assert!(!index.contains("1..=4"));

    // Spec text is escaped on the index and on the spec page (YAML listing included).
    assert!(!index.contains("<script>x"));
    assert!(
        index.contains("&lt;script&gt;x&lt;&#x2F;script&gt;")
            || index.contains("&lt;script&gt;x&lt;/script&gt;")
    );
    let page = std::fs::read_to_string(out.join("site/seedx/thm_6.html")).unwrap();
    assert!(!page.contains("<script>x"));
    assert!(page.contains("<td class=\"ln\">3</td>"));

    // The declared dependency and the correction are edges of the graphs.
    let deps = std::fs::read_to_string(out.join("site/deps_seedx.dot")).unwrap();
    assert!(deps.contains("\"thm_16\" -> \"thm_6\""), "{deps}");
    let deps = std::fs::read_to_string(out.join("site/deps_paper000.dot")).unwrap();
    assert!(deps.contains("\"example_4_10_ter_corrected\" -> \"example_4_10_ter\""));
    // The erratum's page shows its counterexample and the options drawn as a gamegraph.
    let page = std::fs::read_to_string(out.join("site/paper000/example_4_10_ter.html")).unwrap();
    assert!(page.contains("Counterexample"));
    assert!(out
        .join("site/paper000/example_4_10_ter_counterexample.svg")
        .exists());
    // KaTeX is copied with its licence, so the site works offline.
    for f in [
        "katex.min.js",
        "katex.min.css",
        "LICENSE",
        "fonts/KaTeX_Main-Regular.woff2",
    ] {
        assert!(out.join("site/vendor/katex").join(f).exists(), "{f}");
    }

    // The plots of the recorded data, as SVG for the page and pgfplots for papers.
    let plots = out.join("site/plots");
    for p in ["spectrum_10", "conjecture_5_5_positions"] {
        let svg = std::fs::read_to_string(plots.join(format!("{p}.svg"))).unwrap();
        assert!(svg.starts_with("<svg") && svg.contains("<rect"), "{p}");
        assert!(index.contains(&format!("site/plots/{p}.svg")), "{p}");
    }
    let pgfplots = Command::new("kpsewhich")
        .arg("pgfplots.sty")
        .output()
        .is_ok_and(|o| o.status.success());
    if pgfplots {
        let mut doc = String::from("\\documentclass{article}\n\\usepackage{pgfplots}\n\\pgfplotsset{compat=1.16}\n\\begin{document}\n");
        for p in ["spectrum_10", "conjecture_5_5_seconds"] {
            doc.push_str(&format!(
                "\\input{{{}}}\n\n",
                plots.join(format!("{p}.tex")).display()
            ));
        }
        doc.push_str("\\end{document}\n");
        std::fs::write(dir.path().join("plots.tex"), doc).unwrap();
        let o = Command::new("pdflatex")
            .args(["-interaction=nonstopmode", "-halt-on-error", "plots.tex"])
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stdout));
    } else {
        eprintln!("pgfplots not installed: plot .tex files not compiled (apt-get install texlive-pictures)");
    }

    // A `uses:` naming no spec is bad input: exit 2, nothing written.
    std::fs::write(
        seed.join("thm_16.yaml"),
        format!("kind: claim\nsource: Thm 16\nuses: [thm_99]\n{K_N}"),
    )
    .unwrap();
    let out2 = dir.path().join("out2");
    let o = build(&specs, &out2);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("thm_99"));
    assert!(!out2.join("index.html").exists());
}

/// Every spec's page shows what was checked in the spec's own terms beside the typeset
/// statement (issue 42 item 4): a claim's compared value with its cases, the positions, the
/// `let`s and the filter, escaped; a diagram's starts and predicates; a family's members;
/// a wrong reading (the filter dropped, `<` unescaped, `y` read as `true`) fails.
#[test]
fn claim_pages_show_the_formal_claim_beside_the_statement() {
    let dir = tempfile::tempdir().unwrap();
    let specs = dir.path().join("specs");
    let paper = specs.join("paper000");
    std::fs::create_dir_all(&paper).unwrap();
    std::fs::write(
        paper.join("cases.yaml"),
        "kind: claim\nsource: Prop 9.1\nstatement: \"nim(TER(C_n)) is 1 or 0.\"\ngame: TER(C_n)\nparams:\n  n: 4..=9\nwhere: \"n != 5\"\nnim:\n  cases:\n    - { when: \"n % 4 == 0\", value: 0 }\n    - { when: \"n % 4 != 0\", value: 1 }\n",
    )
    .unwrap();
    std::fs::write(
        paper.join("reach.yaml"),
        "kind: claim\nsource: Prop 9.2\ngame: DNT(P_n)\nparams:\n  n: 3..=6\npositions: reachable\nlet:\n  m: \"n - 2\"\nholds: \"selected < m + 1\"\n",
    )
    .unwrap();
    std::fs::write(
        paper.join("parity.yaml"),
        "kind: diagram\nsource: Prop 9.3\ntitle: parity\nstarts:\n  - game: \"DNG(Cyc(2) x Cyc(n))\"\n    params: {n: \"2,4\"}\nnodes:\n  E: {label: even, when: \"selected % 2 == 0\", start: 1}\n  O: {label: odd, when: \"selected % 2 == 1 || !legal\"}\narrows:\n  - {from: E, to: O, style: single, move: any}\n  - {from: O, to: E, style: double, move: any}\n",
    )
    .unwrap();
    std::fs::write(
        paper.join("leaves.yaml"),
        "kind: sets\nsource: Prop 9.4\ngraph: P_3\nfamily: \"G\"\nmembers: [[v1, v3]]\n",
    )
    .unwrap();
    std::fs::write(
        paper.join("tail.yaml"),
        "kind: sets\nsource: Prop 9.5\ngraph: Kite\nfamily: \"N\"\nmembers: [[x, y, u], [x, y, v], [y, u, v, w]]\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    let o = build(&specs, &out);
    let page = |id: &str| std::fs::read_to_string(out.join(format!("site/paper000/{id}.html")));
    let cases = page("cases").unwrap_or_default();
    let formal = |p: &str| -> Vec<String> {
        let Some(dd) = p
            .split("<dt>Checked as</dt><dd class=\"formal\">")
            .nth(1)
            .and_then(|t| t.split("</dd>").next())
        else {
            return Vec::new();
        };
        dd.split("<br>")
            .map(|l| l.replace("<code>", "").replace("</code>", ""))
            .collect()
    };
    assert_eq!(
        formal(&cases),
        [
            "nim(TER(C_n)) = 0  when n % 4 == 0",
            "nim(TER(C_n)) = 1  when n % 4 != 0",
            "for the instances where n != 5",
        ],
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let reach = page("reach").unwrap();
    assert_eq!(
        formal(&reach),
        [
            "selected &lt; m + 1  at every position reachable in DNT(P_n)",
            "let m = n - 2",
        ]
    );
    // Other kinds: a diagram's starts and node predicates, a family's members (a vertex `y`,
    // which YAML could read as `true`, is not printed as one).
    assert_eq!(
        formal(&page("parity").unwrap()),
        [
            "the start of DNG(Cyc(2) x Cyc(n)) is a P-position for n in 2,4",
            "node E: selected % 2 == 0  (start)",
            "node O: selected % 2 == 1 || !legal",
        ]
    );
    assert_eq!(formal(&page("leaves").unwrap()), ["G of P_3 = {{v1, v3}}"]);
    let tail = page("tail").unwrap();
    assert_eq!(
        formal(&tail),
        ["N of Kite = the 3 sets of the spec&#39;s list"]
    );
    // report.md has the same in a column, a predicate's `||` escaped so the row keeps its
    // cells (a bare pipe would end the cell).
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    let row = md.lines().find(|l| l.contains("`parity`")).unwrap();
    assert!(
        row.contains("node O: selected % 2 == 1 \\|\\| !legal") && row.matches(" | ").count() == 8,
        "{row}"
    );
}
