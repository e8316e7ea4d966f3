//! A fresh machine without Graphviz, TeX or nauty (simulated by a PATH of symlinks to every
//! program except `dot`, `pdflatex` and `geng`): the build still writes every artifact that
//! needs none of them, draws SVGs with the layout-rs fallback, and lists what it skipped once
//! with the Debian package that brings it; a spectrum run says which package brings geng.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const MISSING: [&str; 4] = ["dot", "pdflatex", "nauty-geng", "geng"];

/// A directory of symlinks to every program on PATH except [`MISSING`].
fn bare_path(dir: &Path) -> PathBuf {
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
            if MISSING.iter().any(|m| name == *m) || target.exists() {
                continue;
            }
            #[cfg(unix)]
            let _ = std::os::unix::fs::symlink(e.path(), &target);
        }
    }
    bin
}

fn grundy(path: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(args)
        .env("PATH", path)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap()
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[test]
fn build_without_system_tools_writes_svgs_and_lists_the_skipped_pdfs() {
    let tmp = tempfile::tempdir().unwrap();
    let bin = bare_path(tmp.path());
    // Self-contained specs whose DOT uses HTML labels, clusters and edge styles (figure 5.8 is
    // the one the layout-rs parser rejected), a graph figure and a seed-002 prism.
    let specs = tmp.path().join("specs");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (from, to) in [
        (
            "specs/paper000/diagrams/fig_5_8_nim_sum.yaml",
            "paper000/diagrams",
        ),
        ("specs/paper000/figures/fig_2_1.yaml", "paper000/figures"),
        ("specs/seed002/thm_14_case_4.yaml", "seed002"),
    ] {
        let dir = specs.join(to);
        std::fs::create_dir_all(&dir).unwrap();
        let name = Path::new(from).file_name().unwrap();
        std::fs::copy(root.join(from), dir.join(name)).unwrap();
    }
    let out = tmp.path().join("out");
    let o = grundy(
        &bin,
        &[
            "build",
            "--specs",
            specs.to_str().unwrap(),
            "--output",
            out.to_str().unwrap(),
        ],
    );
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    for svg in [
        "paper000/fig_5_8_nim_sum.svg",
        "paper000/fig_2_1_kite.svg",
        "seed002/fig_sp_7_2_case_4.svg",
    ] {
        let bytes = std::fs::read(out.join(svg)).unwrap_or_else(|e| panic!("{svg}: {e}\n{t}"));
        assert!(String::from_utf8_lossy(&bytes).contains("<svg"), "{svg}");
    }
    assert!(!out.join("paper000/fig_5_8_nim_sum.pdf").exists());
    // Listed once, with the package.
    assert_eq!(t.matches("item(s) that need Graphviz").count(), 1, "{t}");
    assert!(
        t.contains("skipped 3 item(s) that need Graphviz `dot` (Debian package `graphviz`"),
        "{t}"
    );
    assert!(t.contains("paper000/fig_2_1_kite.pdf"), "{t}");
}

#[test]
fn spectrum_without_geng_names_the_package() {
    let tmp = tempfile::tempdir().unwrap();
    let bin = bare_path(tmp.path());
    let o = grundy(&bin, &["spectrum", "--vertices", "5"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("Debian package `nauty`"), "{}", text(&o));
}
