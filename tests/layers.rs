//! The crate's layers: graph → game → solve → check → certify → spec/kinds → render →
//! pipeline → cli (with the utilities `text`, `files` and `term` and the structures `group` at the
//! bottom, the expression language above the solvers, the diagram synthesis and `registry`,
//! which holds every extension point up to the spec kinds, above the spec reader). A file may name (`crate::…`, in a `use` line or
//! inline) only modules of its own layer or below, and no two files of different folders may
//! import each other in a circle. Test modules (`#[cfg(test)]`) are exempt.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The top-level modules by layer: a file in a layer may import only its own layer or lower.
const LAYERS: &[(&str, u32)] = &[
    ("text", 0),
    ("files", 0),
    ("term", 0),
    ("graph", 0),
    ("group", 0),
    ("game", 1),
    ("solve", 3),
    ("expr", 4),
    ("check", 5),
    ("certify", 6),
    ("spec", 7),
    ("kinds", 8),
    ("synth", 9),
    ("registry", 9),
    ("render", 10),
    ("pipeline", 11),
    ("cli", 12),
];

fn layer(module: &str) -> Option<u32> {
    LAYERS.iter().find(|(m, _)| *m == module).map(|&(_, l)| l)
}

/// Every `.rs` file under `root`, relative to it, with its text up to its test module.
fn sources(root: &Path) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p: PathBuf = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                let text = std::fs::read_to_string(&p).unwrap();
                let body = text.split("#[cfg(test)]").next().unwrap_or("").to_string();
                let rel = p
                    .strip_prefix(root)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                out.insert(rel, body);
            }
        }
    }
    out
}

/// The paths `crate::a::b::…` a file names outside comments.
fn crate_paths(text: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for line in text.lines() {
        let code = line.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(i) = rest.find("crate::") {
            let tail = &rest[i + 7..];
            let path: String = tail
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                .collect();
            let parts: Vec<String> = path
                .split("::")
                .filter(|p| !p.is_empty())
                .map(String::from)
                .collect();
            if !parts.is_empty() {
                out.push(parts);
            }
            rest = &tail[path.len()..];
        }
    }
    out
}

/// The file a path names: the longest prefix that is a file (`a/b.rs` or `a/b/mod.rs`).
fn file_of(files: &BTreeMap<String, String>, parts: &[String]) -> Option<String> {
    (1..=parts.len()).rev().find_map(|k| {
        let stem = parts[..k].join("/");
        [format!("{stem}.rs"), format!("{stem}/mod.rs")]
            .into_iter()
            .find(|c| files.contains_key(c))
    })
}

fn top(file: &str) -> &str {
    file.split('/')
        .next()
        .unwrap_or(file)
        .trim_end_matches(".rs")
}

fn folder(file: &str) -> &str {
    file.rsplit_once('/').map_or(file, |(d, _)| d)
}

/// Upward imports, as `file: from -> to`.
fn upward(files: &BTreeMap<String, String>) -> Vec<String> {
    let mut out = Vec::new();
    for (file, text) in files {
        let Some(mine) = layer(top(file)) else {
            continue;
        };
        for p in crate_paths(text) {
            if let Some(theirs) = layer(&p[0]) {
                if theirs > mine {
                    out.push(format!("{file}: {} -> {}", top(file), p.join("::")));
                }
            }
        }
    }
    out
}

/// Strongly connected sets of files spanning more than one folder (Tarjan's algorithm).
fn folder_circles(files: &BTreeMap<String, String>) -> Vec<Vec<String>> {
    let names: Vec<&String> = files.keys().collect();
    let idx: BTreeMap<&str, usize> = names
        .iter()
        .enumerate()
        .map(|(i, n)| (n.as_str(), i))
        .collect();
    let edges: Vec<BTreeSet<usize>> = names
        .iter()
        .map(|f| {
            crate_paths(&files[*f])
                .iter()
                .filter_map(|p| file_of(files, p))
                .filter(|t| t != *f)
                .map(|t| idx[t.as_str()])
                .collect()
        })
        .collect();
    struct T<'a> {
        edges: &'a [BTreeSet<usize>],
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        stack: Vec<usize>,
        on: Vec<bool>,
        next: usize,
        out: Vec<Vec<usize>>,
    }
    fn visit(t: &mut T, v: usize) {
        t.index[v] = Some(t.next);
        t.low[v] = t.next;
        t.next += 1;
        t.stack.push(v);
        t.on[v] = true;
        for w in t.edges[v].clone() {
            match t.index[w] {
                None => {
                    visit(t, w);
                    t.low[v] = t.low[v].min(t.low[w]);
                }
                Some(i) if t.on[w] => t.low[v] = t.low[v].min(i),
                _ => {}
            }
        }
        if Some(t.low[v]) == t.index[v] {
            let mut c = Vec::new();
            while let Some(w) = t.stack.pop() {
                t.on[w] = false;
                c.push(w);
                if w == v {
                    break;
                }
            }
            t.out.push(c);
        }
    }
    let n = names.len();
    let mut t = T {
        edges: &edges,
        index: vec![None; n],
        low: vec![0; n],
        stack: Vec::new(),
        on: vec![false; n],
        next: 0,
        out: Vec::new(),
    };
    for v in 0..n {
        if t.index[v].is_none() {
            visit(&mut t, v);
        }
    }
    t.out
        .into_iter()
        .map(|c| c.into_iter().map(|i| names[i].clone()).collect::<Vec<_>>())
        .filter(|c| c.iter().map(|f| folder(f)).collect::<BTreeSet<_>>().len() > 1)
        .collect()
}

fn crate_sources() -> BTreeMap<String, String> {
    sources(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"))
}

#[test]
fn no_file_imports_from_a_layer_above_its_own() {
    let files = crate_sources();
    for (file, _) in files.iter().filter(|(f, _)| f.contains('/')) {
        assert!(
            layer(top(file)).is_some(),
            "{file}: its folder has no place in LAYERS"
        );
    }
    let up = upward(&files);
    assert!(
        up.is_empty(),
        "imports against the layer order:\n{}",
        up.join("\n")
    );
}

#[test]
fn no_import_circle_spans_two_folders() {
    let circles = folder_circles(&crate_sources());
    assert!(
        circles.is_empty(),
        "import circles between folders: {circles:?}"
    );
}

/// The wrong variants: an upward import and a circle between two folders are both caught.
#[test]
fn the_checks_catch_an_upward_import_and_a_circle() {
    let mut files = BTreeMap::new();
    files.insert(
        "render/html.rs".to_string(),
        "use crate::pipeline::VerifiedCount;\n".to_string(),
    );
    files.insert(
        "pipeline/mod.rs".to_string(),
        "pub struct VerifiedCount;\n".to_string(),
    );
    assert_eq!(upward(&files).len(), 1);
    files.insert(
        "spec/mod.rs".to_string(),
        "// crate::kinds::KINDS in a comment is no import\nuse crate::kinds::KINDS;\n".to_string(),
    );
    files.insert(
        "kinds/mod.rs".to_string(),
        "use crate::spec::Spec;\n".to_string(),
    );
    let circles = folder_circles(&files);
    assert_eq!(circles.len(), 1, "{circles:?}");
    assert_eq!(circles[0].len(), 2);
}
