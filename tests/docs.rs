//! The documentation against the code: every flag and argument has a description; the
//! guide's generated reference pages equal what the code generates; every shell example of
//! README.md and the user guide runs and prints what the page says; and every `grundy …`
//! command line anywhere in the docs parses with today's flags. A stale page fails here.
//!
//! Shell blocks (```` ```sh ````) run with bash in a scratch folder per page, in page order,
//! with the built `grundy` first on PATH; the folder a block ends in is where the next one
//! starts. ```` ```sh exit=1 ```` expects that exit code (default 0); ```` ```sh norun ````
//! (long runs, installs, clusters) is only parsed. A ```` ```text ```` block right after a
//! run block is its expected stdout: `[..]` matches any text within a line, a line `...` any
//! lines.

use clap::{CommandFactory, Parser};
use std::path::PathBuf;
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn every_flag_and_argument_has_a_description() {
    let mut cmd = grundy::cli::Cli::command();
    cmd.build();
    fn walk(c: &clap::Command, path: &str, blanks: &mut Vec<String>) {
        for sub in c.get_subcommands() {
            let name = format!("{path} {}", sub.get_name());
            if sub
                .get_about()
                .is_none_or(|a| a.to_string().trim().is_empty())
            {
                blanks.push(name.clone());
            }
            for a in sub.get_arguments() {
                let help = a.get_help().map(|h| h.to_string()).unwrap_or_default();
                if help.trim().is_empty() {
                    blanks.push(format!("{name} {}", a.get_id()));
                }
            }
            walk(sub, &name, blanks);
        }
    }
    let mut blanks = Vec::new();
    walk(&cmd, "grundy", &mut blanks);
    assert!(blanks.is_empty(), "no description: {blanks:?}");
    // The walk sees blanks: a command with an undocumented flag is caught.
    let bad = clap::Command::new("x").subcommand(
        clap::Command::new("y")
            .about("y")
            .arg(clap::Arg::new("z").long("z")),
    );
    let mut caught = Vec::new();
    walk(&bad, "x", &mut caught);
    assert_eq!(caught, ["x y z"]);
    let top = cmd
        .get_after_help()
        .map(|h| h.to_string())
        .unwrap_or_default();
    assert!(
        top.contains("docs/guide"),
        "top-level help names the guide: {top}"
    );
}

#[test]
fn generated_reference_pages_are_current() {
    let dir = root().join("docs/guide/src/generated");
    let bless = std::env::var_os("GRUNDY_BLESS").is_some();
    let mut stale = Vec::new();
    for (name, text) in grundy::cli::reference::pages().expect("pages") {
        let path = dir.join(name);
        if bless {
            std::fs::create_dir_all(&dir).expect("mkdir");
            std::fs::write(&path, &text).expect("write");
        } else if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
            stale.push(name);
        }
    }
    assert!(
        stale.is_empty(),
        "stale generated pages {stale:?}: run `GRUNDY_BLESS=1 cargo test --release --test docs`"
    );
}

#[test]
fn every_feature_is_documented_and_every_documented_feature_exists() {
    use grundy::game::features as doc;
    let mut seen = std::collections::BTreeSet::new();
    for (_, example) in grundy::cli::features::examples() {
        let g = grundy::expr::parse_game(example, Default::default()).expect("example parses");
        for r in grundy::cli::features::rows(&g) {
            assert_ne!(r.meaning, "(undocumented)", "{example}: `{}`", r.name);
            seen.insert(r.name);
        }
    }
    for table in [
        doc::REMOVING,
        doc::NIMBER,
        doc::OCTAL,
        doc::DAWSON,
        doc::MULTISET,
        doc::SPL,
        doc::UEG,
        doc::CLOSURE,
        grundy::game::closure::subgroup::FEATURES,
        grundy::game::closure::graph::FEATURES,
        grundy::game::closure::metric::FEATURES,
        grundy::game::closure::poset::FEATURES,
        grundy::game::closure::sets::FEATURES,
        grundy::game::node_kayles::FEATURES,
    ] {
        for d in table {
            assert!(
                seen.contains(d.name),
                "`{}` is documented but no example has it",
                d.name
            );
        }
    }
    // A name no game computes is not found: the check above can fail.
    assert!(!seen.contains("numparts"));
}

/// A fenced block of a Markdown page.
struct Block {
    info: String,
    body: String,
    line: usize,
}

fn blocks(text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut cur: Option<Block> = None;
    for (i, l) in text.lines().enumerate() {
        let t = l.trim_start();
        match (&mut cur, t.strip_prefix("```")) {
            (None, Some(info)) => {
                cur = Some(Block {
                    info: info.trim().to_string(),
                    body: String::new(),
                    line: i + 1,
                })
            }
            (Some(_), Some(_)) => out.extend(cur.take()),
            (Some(b), None) => {
                b.body.push_str(l);
                b.body.push('\n');
            }
            (None, None) => {}
        }
    }
    out
}

/// The pages whose examples run: README and the guide.
fn run_pages() -> Vec<PathBuf> {
    let mut v = vec![root().join("README.md")];
    let mut stack = vec![root().join("docs/guide/src")];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("docs/guide/src") {
            let p = e.expect("entry").path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "md") {
                v.push(p);
            }
        }
    }
    v.sort();
    v
}

/// Every Markdown page of the repository's documentation (their command lines are parsed).
fn all_pages() -> Vec<PathBuf> {
    let mut v = run_pages();
    for d in ["docs", "docs/results"] {
        for e in std::fs::read_dir(root().join(d)).expect("docs") {
            let p = e.expect("entry").path();
            if p.extension().is_some_and(|x| x == "md") {
                v.push(p);
            }
        }
    }
    v.sort();
    v
}

fn line_matches(pattern: &str, line: &str) -> bool {
    let parts: Vec<&str> = pattern.split("[..]").collect();
    if parts.len() == 1 {
        return pattern == line;
    }
    let mut rest = line;
    for (i, p) in parts.iter().enumerate() {
        if i == 0 {
            let Some(r) = rest.strip_prefix(p) else {
                return false;
            };
            rest = r;
        } else if i == parts.len() - 1 {
            return rest.ends_with(p);
        } else {
            let Some(k) = rest.find(p) else { return false };
            rest = &rest[k + p.len()..];
        }
    }
    true
}

/// `expected` (with `[..]` and `...`) against `actual`, line by line.
fn output_matches(expected: &[&str], actual: &[&str]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((&"...", rest)) => (0..=actual.len()).any(|k| output_matches(rest, &actual[k..])),
        Some((e, rest)) => actual
            .split_first()
            .is_some_and(|(a, arest)| line_matches(e, a) && output_matches(rest, arest)),
    }
}

fn trimmed(s: &str) -> Vec<&str> {
    let v: Vec<&str> = s.lines().map(str::trim_end).collect();
    let end = v.iter().rposition(|l| !l.is_empty()).map_or(0, |i| i + 1);
    v[..end].to_vec()
}

#[test]
fn output_patterns_match_as_documented() {
    assert!(output_matches(&["a [..] c", "..."], &["a b c", "x", "y"]));
    assert!(output_matches(&["...", "z"], &["x", "z"]));
    assert!(!output_matches(&["a [..] c"], &["a b d"]));
    assert!(!output_matches(&["a"], &["a", "b"]));
}

#[test]
fn every_shell_example_runs_as_shown() {
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_grundy"));
    let bin_dir = bin.parent().expect("bin dir").to_path_buf();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut failures = Vec::new();
    let mut ran = 0;
    for page in run_pages() {
        let text = std::fs::read_to_string(&page).expect("page");
        let bs = blocks(&text);
        let scratch = tempfile::tempdir().expect("tempdir");
        let cwd_file = scratch.path().join(".cwd");
        std::fs::write(&cwd_file, scratch.path().display().to_string()).expect("cwd");
        for (i, b) in bs.iter().enumerate() {
            let mut words = b.info.split_whitespace();
            if words.next() != Some("sh") {
                continue;
            }
            let flags: Vec<&str> = words.collect();
            if flags.contains(&"norun") {
                continue;
            }
            let want: i32 = flags
                .iter()
                .find_map(|f| f.strip_prefix("exit="))
                .map_or(0, |n| n.parse().expect("exit=N"));
            let script = format!(
                "cd \"$(cat '{cwd}')\" || exit 99\n{body}\nrc=$?\npwd > '{cwd}'\nexit $rc\n",
                cwd = cwd_file.display(),
                body = b.body
            );
            let out = Command::new("bash")
                .args(["-c", &script])
                .env("PATH", &path)
                .env("NO_COLOR", "1")
                .env("COLUMNS", "100")
                .output()
                .expect("bash");
            ran += 1;
            let where_ = format!(
                "{}:{}",
                page.strip_prefix(root()).unwrap_or(&page).display(),
                b.line
            );
            let stdout = String::from_utf8_lossy(&out.stdout);
            let stderr = String::from_utf8_lossy(&out.stderr);
            let code = out.status.code().unwrap_or(-1);
            if code != want {
                failures.push(format!(
                    "{where_}: exit {code}, the page says {want}\n{stdout}{stderr}"
                ));
                continue;
            }
            if let Some(next) = bs.get(i + 1).filter(|n| n.info == "text") {
                if !output_matches(&trimmed(&next.body), &trimmed(&stdout)) {
                    failures.push(format!(
                        "{where_}: printed\n{stdout}\nthe page shows\n{}",
                        next.body
                    ));
                }
            }
        }
    }
    assert!(ran > 5, "only {ran} examples ran");
    assert!(failures.is_empty(), "{}", failures.join("\n---\n"));
}

/// The `grundy …` invocations of a shell block: continuation lines joined, a `$ ` prompt and
/// comments dropped, cut at the first pipe, redirection or `&&`.
fn invocations(body: &str) -> Vec<Vec<String>> {
    let joined = body.replace("\\\n", " ");
    joined
        .lines()
        .filter_map(|l| {
            let l = l.trim().trim_start_matches("$ ");
            let l = match l.strip_prefix("cargo run --release -- ") {
                Some(r) => format!("grundy {r}"),
                None => l.to_string(),
            };
            l.starts_with("grundy ").then(|| words_of(&l)).flatten()
        })
        .collect()
}

fn words_of(line: &str) -> Option<Vec<String>> {
    let words = shell_words::split(line).ok()?;
    let mut v = Vec::new();
    for w in words {
        if w.starts_with('#')
            || matches!(w.as_str(), "|" | ">" | "2>" | "&&" | ";" | "||" | "<")
            || w.starts_with('>')
        {
            break;
        }
        v.push(w);
    }
    Some(v)
}

#[test]
fn every_documented_command_line_parses() {
    let mut bad = Vec::new();
    let mut seen = 0;
    for page in all_pages() {
        let text = std::fs::read_to_string(&page).expect("page");
        for b in blocks(&text) {
            if !matches!(
                b.info.split_whitespace().next(),
                Some("sh" | "bash" | "console")
            ) {
                continue;
            }
            for words in invocations(&b.body) {
                // `$SLURM_…` and other variables stand for values the page explains.
                if words.iter().any(|w| w.contains('$')) {
                    continue;
                }
                seen += 1;
                if let Err(e) = grundy::cli::Cli::try_parse_from(&words) {
                    if e.use_stderr() {
                        bad.push(format!(
                            "{}:{}: {}\n{e}",
                            page.strip_prefix(root()).unwrap_or(&page).display(),
                            b.line,
                            words.join(" ")
                        ));
                    }
                }
            }
        }
    }
    assert!(seen > 10, "only {seen} command lines found");
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
