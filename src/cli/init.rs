//! `grundy init DIR`: a starter project that works with an installed grundy anywhere —
//! specs/ with a claim, a table, a figure, and a claim on an edge-list file in
//! specs/example/graphs/ named by a path relative to the spec; templates/ (a copy of the built-in templates, to
//! edit and pass with `--templates templates`); paper/ with a LaTeX stub that inputs what
//! `grundy build` writes to output/.

use crate::term::{errln, outln};
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

/// A graph of one's own: an edge list in `specs/example/graphs/`, beside the spec naming it.
const HOUSE: &str = "\
# The house: the square a b c d with the roof e on its side a b. One edge `u v` a line;
# a spec names this file `file:graphs/house.txt`, relative to the spec's own folder.
a b
b c
c d
d a
a e
b e
";

/// A claim on the graph file above (a relative `file:` path: the folder travels with it).
const HOUSE_CLAIM: &str = "\
kind: claim
source: A graph of one's own
statement: nim(TER(house)) = 1
game: TER(file:graphs/house.txt)
nim: 1
";

/// A game of your own (issue 45): Node Kayles written as a rule, and a claim about it. Game
/// specs in a folder are read before its other specs.
const OWN_GAME: &str = "\
# A game defined here, not in grundy: Node Kayles. A position is the set of vertices still in
# play (a bit mask); a move takes a vertex and its neighbours out. The format and the functions
# a rule may call: the user guide's page \"Your own game\".
kind: game
source: Node Kayles written as a rule (Schaefer 1978)
name: UNK
title: Node Kayles, by its rule
position: vertices
options: |
  let out = [];
  for v in members(p) { out.push(minus(p, bit(v) | adj(v))); }
  out
features:
  available: count(p)
";

/// A claim on the game of [`OWN_GAME`]: it agrees with the built-in Node Kayles.
const OWN_CLAIM: &str = "\
kind: claim
source: Node Kayles by its rule
statement: UNK on a cycle has the value of the built-in NK
game: UNK(C_n)
params: { n: 3..=12 }
nim: nim(\"NK(C_\" + n + \")\")
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
specs/own/unk.yaml defines a game of your own (Node Kayles by its rule):
`grundy solve --games specs/own 'UNK(C_7)'`.
";

/// Writes the project; refuses a `dir` that exists and is not empty.
pub fn run(dir: &Path) -> ExitCode {
    match write(dir) {
        Ok(n) => {
            outln!(
                "wrote {n} files to {}: specs/, templates/, paper/. Next: cd {} && grundy check",
                dir.display(),
                dir.display()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            errln!("error: grundy init {}: {e}", dir.display());
            ExitCode::from(2)
        }
    }
}

fn write(dir: &Path) -> Result<usize, String> {
    // `e/` or `e/.` would have lstat follow a link `e`: the path without them.
    let dir: &Path = &dir.components().collect::<std::path::PathBuf>();
    // The folder itself must be a real folder (or new): a symbolic link to an empty folder
    // elsewhere would have the project written there (issue 44 item 6).
    match std::fs::symlink_metadata(dir) {
        Ok(m) if m.file_type().is_symlink() => {
            return Err(
                "a symbolic link; grundy init writes only into a real folder (give the folder it points to, or a new name)"
                    .into(),
            )
        }
        Ok(m) if !m.is_dir() => return Err("exists and is not a folder".into()),
        Ok(_) => {
            let mut entries = std::fs::read_dir(dir).map_err(|e| e.to_string())?;
            if entries.next().is_some() {
                return Err("the folder exists and is not empty".into());
            }
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
        }
        Err(e) => return Err(e.to_string()),
    }
    let mut files: Vec<(String, &[u8])> = vec![
        ("README.md".into(), README.as_bytes()),
        ("specs/example/paths.yaml".into(), CLAIM.as_bytes()),
        ("specs/example/paths_table.yaml".into(), TABLE.as_bytes()),
        ("specs/example/p4_figure.yaml".into(), FIGURE.as_bytes()),
        ("specs/example/graphs/house.txt".into(), HOUSE.as_bytes()),
        ("specs/example/house.yaml".into(), HOUSE_CLAIM.as_bytes()),
        ("specs/own/unk.yaml".into(), OWN_GAME.as_bytes()),
        ("specs/own/unk_cycles.yaml".into(), OWN_CLAIM.as_bytes()),
        ("paper/paper.tex".into(), PAPER.as_bytes()),
    ];
    for (name, bytes) in crate::render::embedded_templates() {
        files.push((format!("templates/{name}"), bytes));
    }
    for (name, bytes) in &files {
        write_inside(dir, name, bytes)?;
    }
    Ok(files.len())
}

/// Writes `dir/name`, creating its folders one by one: a folder already there must be a real
/// folder and the file must be new, so a symbolic link planted inside the project (a folder or
/// a file) is refused, never written through.
fn write_inside(dir: &Path, name: &str, bytes: &[u8]) -> Result<(), String> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let parts: Vec<&str> = name.split('/').collect();
    let (file, folders) = parts.split_last().expect("a file name");
    let mut at = dir.to_path_buf();
    for f in folders {
        at.push(f);
        match std::fs::create_dir(&at) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                let m =
                    std::fs::symlink_metadata(&at).map_err(|e| format!("{}: {e}", at.display()))?;
                if !m.is_dir() {
                    return Err(format!(
                        "{}: not a folder (a symbolic link or a file is in the way)",
                        at.display()
                    ));
                }
            }
            Err(e) => return Err(format!("{}: {e}", at.display())),
        }
    }
    at.push(file);
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .custom_flags(libc::O_NOFOLLOW)
        .open(&at)
        .map_err(|e| format!("{}: {e}", at.display()))?;
    f.write_all(bytes)
        .map_err(|e| format!("{}: {e}", at.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A symbolic link planted inside the project (a folder or a file, e.g. while `init`
    /// runs) is refused, not written through; a real folder is written.
    #[test]
    fn links_inside_the_project_are_not_written_through() {
        let t = tempfile::tempdir().unwrap();
        let (proj, outside) = (t.path().join("p"), t.path().join("outside"));
        std::fs::create_dir_all(&proj).unwrap();
        std::fs::create_dir_all(&outside).unwrap();
        std::os::unix::fs::symlink(&outside, proj.join("specs")).unwrap();
        let e = write_inside(&proj, "specs/example/paths.yaml", b"x").unwrap_err();
        assert!(e.contains("not a folder"), "{e}");
        std::os::unix::fs::symlink(outside.join("r.md"), proj.join("README.md")).unwrap();
        assert!(write_inside(&proj, "README.md", b"x").is_err());
        assert_eq!(std::fs::read_dir(&outside).unwrap().count(), 0);
        write_inside(&proj, "paper/paper.tex", b"x").unwrap();
        assert_eq!(std::fs::read(proj.join("paper/paper.tex")).unwrap(), b"x");
    }
}
