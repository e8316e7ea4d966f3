//! `grundy init DIR`: a starter project that works with an installed grundy anywhere —
//! specs/ with a claim, a table and a figure; templates/ (a copy of the built-in templates, to
//! edit and pass with `--templates templates`); paper/ with a LaTeX stub that inputs what
//! `grundy build` writes to output/.

use std::path::Path;
use std::process::ExitCode;

/// A claim that holds (Example 4.11 of the main paper, corrected: nim(TER(P_n)) = 1 + pty(n)).
const CLAIM: &str = "\
# A claim: grundy solves every instance and compares it with the formula.
# `grundy check specs/example/paths.yaml`; the kinds and fields: the user guide, `grundy schema`.
kind: claim
source: Example 4.11
statement: nim(TER(P_n)) = 1 + pty(n)
game: TER(P_n)
params: { n: 2..=12 }
nim: 1 + pty(n)
";

/// A table of nim-values, rendered through `value_table.tex`.
const TABLE: &str = "\
kind: table
source: Example 4.11
title: nim(TER(P_n)) and nim(DNT(P_n))
rows: { n: 2..=12 }
games:
  TER(P_n): TER(P_n)
  DNT(P_n): DNT(P_n)
output:
  - { template: value_table.tex, path: example/paths.tex }
";

/// A gamegraph figure: DOT, and with Graphviz a PDF preview and the TikZ drawing.
const FIGURE: &str = "\
kind: figure
source: Example 4.11
title: The gamegraph of TER(P_4)
panels:
  - { game: \"TER(P_4)\", shade_terminal: true }
output:
  - { template: gamegraph.dot, path: example/ter_p4.dot }
  - { template: gamegraph.dot, path: example/ter_p4.pdf }
";

/// The paper stub: compile in paper/ with `TEXINPUTS=../output//: pdflatex paper.tex`.
const PAPER: &str = "\
% A paper that inputs grundy's artifacts. Build them first (`grundy build` in the project
% folder), then compile here with the outputs on TeX's search path:
%   TEXINPUTS=../output//: pdflatex paper.tex
\\documentclass{article}
\\usepackage[T1]{fontenc}\\usepackage{lmodern}   % vector fonts: T1 alone makes bitmaps
\\usepackage{booktabs,amsmath}
\\usepackage{grundy-tikz}   % output/grundy-tikz.sty: the figures' styles
\\begin{document}
\\begin{table}[ht]\\centering
  \\caption{Nim-values of the removing games on paths.}
  \\input{example/paths.tex}
\\end{table}
% The figure's TikZ drawing needs Graphviz when `grundy build` runs (it lays the graph out).
\\IfFileExists{example/ter_p4.tikz.tex}{%
\\begin{figure}[ht]\\centering
  \\input{example/ter_p4.tikz}\\input{example/ter_p4.caption}
\\end{figure}}{}
\\end{document}
";

const README: &str = "\
# A grundy project

    grundy check                           # check every spec in specs/ (exit 0, 1 refuted, 2 bad input)
    grundy build                           # check, then write output/ (LaTeX, figures, report)
    grundy build --templates templates     # the same, with your edited copy of the templates
    cd paper && TEXINPUTS=../output//: pdflatex paper.tex

The features a formula can read: `grundy features 'TER(P_n)'` (with n given, e.g. `TER(P_5)`).
";

/// Writes the project; refuses a `dir` that exists and is not empty.
pub fn run(dir: &Path) -> ExitCode {
    match write(dir) {
        Ok(n) => {
            println!(
                "wrote {n} files to {}: specs/, templates/, paper/. Next: cd {} && grundy check",
                dir.display(),
                dir.display()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: grundy init {}: {e}", dir.display());
            ExitCode::from(2)
        }
    }
}

fn write(dir: &Path) -> Result<usize, String> {
    if dir.exists() {
        let mut entries = std::fs::read_dir(dir).map_err(|e| e.to_string())?;
        if entries.next().is_some() {
            return Err("the folder exists and is not empty".into());
        }
    }
    let mut files: Vec<(String, &[u8])> = vec![
        ("README.md".into(), README.as_bytes()),
        ("specs/example/paths.yaml".into(), CLAIM.as_bytes()),
        ("specs/example/paths_table.yaml".into(), TABLE.as_bytes()),
        ("specs/example/p4_figure.yaml".into(), FIGURE.as_bytes()),
        ("paper/paper.tex".into(), PAPER.as_bytes()),
    ];
    for (name, bytes) in crate::render::embedded_templates() {
        files.push((format!("templates/{name}"), bytes));
    }
    for (name, bytes) in &files {
        let path = dir.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        }
        std::fs::write(&path, bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(files.len())
}
