//! The report site shows each figure as a paper prints it: the TikZ drawing typeset by LaTeX
//! (`site/<paper>/<figure>.tikz.svg`, one pdflatex run, pages converted by pdftocairo) when TeX
//! is installed, and the Graphviz preview when it is not, saying so on the page and listing the
//! figure as skipped in the build's summary.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A directory of symlinks to every program on PATH except `missing`.
fn path_without(dir: &Path, missing: &[&str]) -> PathBuf {
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let path = std::env::var_os("PATH").unwrap_or_default();
    for d in std::env::split_paths(&path) {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let name = e.file_name();
            let target = bin.join(&name);
            if missing.iter().any(|m| name == *m) || target.exists() {
                continue;
            }
            #[cfg(unix)]
            let _ = std::os::unix::fs::symlink(e.path(), &target);
        }
    }
    bin
}

fn build(specs: &Path, out: &Path, path: Option<&Path>) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_grundy"));
    c.current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["build", "--specs"])
        .arg(specs)
        .arg("--output")
        .arg(out);
    if let Some(p) = path {
        c.env("PATH", p);
    }
    c.output().expect("grundy runs")
}

fn has(program: &str, arg: &str) -> bool {
    Command::new(program)
        .arg(arg)
        .output()
        .is_ok_and(|o| o.status.success())
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[test]
fn figures_are_typeset_with_tex_and_previewed_without() {
    if !(has("dot", "-V") && has("pdflatex", "--version") && has("pdftocairo", "-v")) {
        eprintln!("dot, pdflatex or pdftocairo missing: the typeset figures are not tested here");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let specs = tmp.path().join("specs/paper000/figures");
    std::fs::create_dir_all(&specs).unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::fs::copy(
        root.join("specs/paper000/figures/fig_2_1.yaml"),
        specs.join("fig_2_1.yaml"),
    )
    .unwrap();
    let specs = tmp.path().join("specs");

    // With TeX: the typeset SVG is written and shown; the preview is linked.
    let out = tmp.path().join("out");
    let o = build(&specs, &out, None);
    assert!(o.status.success(), "{}", text(&o));
    let svg = std::fs::read_to_string(out.join("site/paper000/fig_2_1_kite.tikz.svg")).unwrap();
    assert!(svg.contains("<svg") && svg.contains("</svg>"));
    let page = std::fs::read_to_string(out.join("site/paper000/fig_2_1.html")).unwrap();
    assert!(
        page.contains("src=\"../../site/paper000/fig_2_1_kite.tikz.svg\""),
        "{page}"
    );
    assert!(page.contains("Typeset by LaTeX"));
    assert!(page.contains("href=\"../../paper000/fig_2_1_kite.svg\""));

    // Without pdflatex: the preview, the reason on the page, the figure listed as skipped.
    let bin = path_without(tmp.path(), &["pdflatex"]);
    let out2 = tmp.path().join("out2");
    let o = build(&specs, &out2, Some(&bin));
    assert!(o.status.success(), "{}", text(&o));
    assert!(!out2.join("site/paper000/fig_2_1_kite.tikz.svg").exists());
    let page = std::fs::read_to_string(out2.join("site/paper000/fig_2_1.html")).unwrap();
    assert!(
        page.contains("src=\"../../paper000/fig_2_1_kite.svg\""),
        "{page}"
    );
    assert!(page.contains("Graphviz preview (the TikZ figure was not typeset: pdflatex not found)"));
    assert!(!page.contains("Typeset by LaTeX"));
    let t = text(&o);
    assert!(t.contains("site/paper000/fig_2_1_kite.tikz.svg"), "{t}");
    assert!(t.contains("texlive-latex-recommended"), "{t}");
}
