//! `--coq DIR`: the export of accepted nim-value tables as Coq files (issue 48, docs/formal.md).
//!
//! For every certificate the verifier accepts with its claim re-derived, each table of a game
//! the Coq development in `formal/` defines — TER and DNT on graphs of at most 62 vertices,
//! Dawson's Chess, nimbers, two-component disjoint and ordinal sums of games with bitmask
//! or heap positions, and the multiset game TER(U) — with at most [`MAX_COQ_ENTRIES`] entries becomes, in `DIR/<spec>.v`,
//! the game's data (the graph as adjacency lists, from the certificate's edges), the table
//! (positions and values exactly as the certificate lists them, in the Coq encoding: the same
//! bitmasks, pairs for sums) and one theorem per instance, `grundy G start = v`, proved by the
//! soundness theorem `check_value` of `formal/Game.v` and the kernel's virtual machine. The Coq
//! side recomputes every option itself, so a wrong table cannot be proved. The bytes depend
//! only on the certificate.
//!
//! This module only translates; what it writes is checked by `coqc`, not trusted.

use crate::checks::{Body, Certificate, Octal, Table};
use serde::Deserialize;

/// The games the Coq development defines, read from a certificate's JSON by the export itself
/// (`{"TER": {"graph": …, "start": …}}` …): the export supports these and no others, so its
/// list is its own (a game the verifier adds is not exported until `formal/` defines it).
#[derive(Deserialize)]
enum Game {
    #[serde(rename = "TER")]
    Ter {
        graph: crate::games::Graph,
        start: u64,
        /// Another closure than the hull: `formal/` defines the hull only.
        #[serde(default)]
        closure: Option<String>,
    },
    #[serde(rename = "DNT")]
    Dnt {
        graph: crate::games::Graph,
        start: u64,
        #[serde(default)]
        closure: Option<String>,
    },
    #[serde(rename = "nim")]
    Nim(u32),
    #[serde(rename = "DC")]
    Dawson { pins: u32, start: u64 },
    #[serde(rename = "multiset")]
    Multiset(Vec<u32>),
    #[serde(rename = "sum")]
    Sum(Vec<Game>),
    #[serde(rename = "ordinal")]
    Ordinal(Box<Game>, Box<Game>),
}

impl Game {
    /// The game of a certificate's table, if the Coq development defines it.
    fn of(g: &crate::games::Game) -> Option<Game> {
        let game: Game = serde_json::from_value(g.json()?.clone()).ok()?;
        game.hull_only().then_some(game)
    }

    /// Every removing game in it is played under the hull, the one closure `formal/` defines.
    fn hull_only(&self) -> bool {
        match self {
            Game::Ter { closure, .. } | Game::Dnt { closure, .. } => closure.is_none(),
            Game::Sum(parts) => parts.iter().all(Game::hull_only),
            Game::Ordinal(a, b) => a.hull_only() && b.hull_only(),
            Game::Nim(_) | Game::Dawson { .. } | Game::Multiset(_) => true,
        }
    }
}
use serde_json::Value;
use std::collections::BTreeSet;
use std::fmt::Write;

/// Most entries of a table exported (larger tables are counted as over the cap).
pub const MAX_COQ_ENTRIES: usize = 10_000;
/// Most vertices of a graph (positions are 62-bit machine integers in the hull computation).
const MAX_COQ_VERTICES: usize = 62;

/// What the export of one certificate produced.
pub struct Export {
    /// The file name (`<spec>.v`) and its text; `None` when no table was exported.
    pub file: Option<(String, String)>,
    /// Instances (theorems) written, the largest table written, tables over the cap, tables of
    /// games the Coq development does not define.
    pub theorems: usize,
    pub largest: usize,
    pub over_cap: usize,
    pub unsupported: usize,
}

#[derive(Clone, Copy)]
enum Shape {
    Number,
    Pair,
    List,
}

/// A game as a Coq term, with its position equality, the proof of it, and the hash.
struct CoqGame {
    term: String,
    eqb: String,
    eqb_ok: String,
    key: String,
    /// The graph definitions the term refers to (name, text).
    graphs: Vec<String>,
    /// How positions are written: a number, a pair of numbers, a list of numbers.
    shape: Shape,
    /// Boolean facts the theorem states and the kernel computes: each graph is well formed,
    /// and a DNT start is nonterminating (a position of DNT).
    /// Each is `term = b` for the boolean b.
    facts: Vec<(String, bool)>,
}

fn graph_def(name: &str, g: &crate::games::Graph) -> Option<String> {
    if g.n > MAX_COQ_VERTICES {
        return None;
    }
    let mut adj = vec![Vec::new(); g.n];
    for &(a, b) in &g.edges {
        adj[a].push(b);
        adj[b].push(a);
    }
    let lists: Vec<String> = adj
        .iter_mut()
        .map(|l| {
            l.sort_unstable();
            let items: Vec<String> = l.iter().map(|v| v.to_string()).collect();
            format!("[{}]", items.join("; "))
        })
        .collect();
    Some(format!(
        "Definition {name} : graph := Graph {} ([{}])%nat.\n",
        g.n,
        lists.join("; ")
    ))
}

/// Games whose positions are one number (a bitmask or a heap).
fn simple(game: &Game, name: &str) -> Option<CoqGame> {
    let n = |term: String, graphs: Vec<String>, facts: Vec<(String, bool)>| CoqGame {
        term,
        eqb: "N.eqb".into(),
        eqb_ok: "N_eqb_ok".into(),
        key: "N_key".into(),
        shape: Shape::Number,
        graphs,
        facts,
    };
    let ok = (format!("graph_ok {name}"), true);
    match game {
        Game::Ter { graph, .. } => Some(n(
            format!("(TER {name})"),
            vec![graph_def(name, graph)?],
            vec![ok],
        )),
        Game::Dnt { graph, start, .. } => Some(n(
            format!("(DNT {name})"),
            vec![graph_def(name, graph)?],
            vec![
                ok,
                (
                    format!("terminating (order {name}) (intervals_int {name}) {start}"),
                    false,
                ),
            ],
        )),
        Game::Dawson { pins, .. } if *pins <= 64 => Some(n(format!("(DC {pins})"), vec![], vec![])),
        Game::Nim(_) => Some(n("Nimber".into(), vec![], vec![])),
        _ => None,
    }
}

/// The start position of a one-number game, as a number.
fn simple_start(game: &Game) -> Option<u64> {
    match game {
        Game::Ter { start, .. } | Game::Dnt { start, .. } | Game::Dawson { start, .. } => {
            Some(*start)
        }
        Game::Nim(k) => Some(u64::from(*k)),
        _ => None,
    }
}

/// The game as a Coq term, and its start position as a Coq term.
fn coq_game(game: &Game, name: &str) -> Option<(CoqGame, String)> {
    if let Some(g) = simple(game, name) {
        return Some((g, simple_start(game)?.to_string()));
    }
    if let Game::Multiset(u) = game {
        let mut u = u.clone();
        u.sort_unstable();
        let g = CoqGame {
            term: "TERU".into(),
            eqb: "list_eqb".into(),
            eqb_ok: "list_eqb_ok".into(),
            key: "list_key".into(),
            shape: Shape::List,
            graphs: vec![],
            facts: vec![],
        };
        let items: Vec<String> = u.iter().map(|x| x.to_string()).collect();
        return Some((g, format!("[{}]", items.join("; "))));
    }
    let (a, b, ordinal) = match game {
        Game::Sum(parts) if parts.len() == 2 => (&parts[0], &parts[1], false),
        Game::Ordinal(a, b) => (a.as_ref(), b.as_ref(), true),
        _ => return None,
    };
    let (ga, gb) = (
        simple(a, &format!("{name}_1"))?,
        simple(b, &format!("{name}_2"))?,
    );
    let (sa, sb) = (simple_start(a)?, simple_start(b)?);
    let term = if ordinal {
        format!("(Ordinal {} {} N.eqb {sa})", ga.term, gb.term)
    } else {
        format!("(Sum {} {})", ga.term, gb.term)
    };
    Some((
        CoqGame {
            term,
            eqb: "(pair_eqb N.eqb N.eqb)".into(),
            eqb_ok: "(pair_eqb_ok _ _ N.eqb N.eqb N_eqb_ok N_eqb_ok)".into(),
            key: "N2_key".into(),
            shape: Shape::Pair,
            graphs: ga.graphs.into_iter().chain(gb.graphs).collect(),
            facts: ga.facts.into_iter().chain(gb.facts).collect(),
        },
        format!("({sa}, {sb})"),
    ))
}

/// A position of the table in the Coq encoding of its game: a number, a pair of numbers, or
/// a list of numbers.
fn coq_pos(v: &Value, shape: Shape) -> Option<String> {
    match (shape, v) {
        (Shape::Number, Value::Number(x)) => x.as_u64().map(|x| x.to_string()),
        (Shape::Pair, Value::Array(a)) if a.len() == 2 => {
            Some(format!("({}, {})", a[0].as_u64()?, a[1].as_u64()?))
        }
        (Shape::List, Value::Array(a)) => {
            let items: Option<Vec<String>> = a
                .iter()
                .map(|x| x.as_u64().map(|x| x.to_string()))
                .collect();
            Some(format!("[{}]", items?.join("; ")))
        }
        _ => None,
    }
}

/// A Coq identifier from the spec id and the instance (`m=3, n=10` → `m3_n10`).
fn ident(spec: &str, instance: &str, used: &mut BTreeSet<String>) -> String {
    let mut s = String::new();
    for c in format!("{spec}__{instance}").chars() {
        if c.is_ascii_alphanumeric() || c == '_' {
            s.push(c);
        } else if c == '-' {
            s.push('m');
        } else if matches!(c, ',' | ' ' | ':' | '+') && !s.ends_with('_') {
            s.push('_');
        }
    }
    let s = s.trim_end_matches('_').to_string();
    // The theorem's name and the names derived from it (graph, table, sum components) must
    // all be new in the file.
    let derived = |n: &str| {
        [
            n.to_string(),
            format!("{n}_g"),
            format!("{n}_t"),
            format!("{n}_g_1"),
            format!("{n}_g_2"),
            format!("{n}_values"),
        ]
    };
    let mut name = format!("v_{s}");
    let mut k = 2;
    while derived(&name).iter().any(|d| used.contains(d)) {
        name = format!("v_{s}_{k}");
        k += 1;
    }
    used.extend(derived(&name));
    name
}

/// A file name coqc accepts (a Coq module name: letters, digits, `_`, starting with a letter).
fn module_name(spec: &str) -> String {
    let s: String = spec
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    if s.starts_with(|c: char| c.is_ascii_alphabetic()) {
        s
    } else {
        format!("s_{s}")
    }
}

/// Text from a certificate made safe inside a Coq comment (no nested comment, no string).
fn comment_text(text: &str) -> String {
    crate::io::shown(text)
        .replace("(*", "( *")
        .replace("*)", "* )")
        .replace('"', "'")
}

/// Writes one table's data and theorem; false when it is not exported (unsupported game or
/// position encoding).
fn table(out: &mut String, spec: &str, t: &Table, used: &mut BTreeSet<String>) -> bool {
    let id = ident(spec, &t.instance, used);
    let Some((g, start)) = Game::of(&t.game).and_then(|game| coq_game(&game, &format!("{id}_g")))
    else {
        return false;
    };
    let Some(positions) = t
        .entries
        .iter()
        .map(|(p, _)| coq_pos(p, g.shape))
        .collect::<Option<Vec<String>>>()
    else {
        return false;
    };
    // The value the table lists at the start (the verifier has checked it is the claim's).
    let Some(value) = t
        .entries
        .iter()
        .zip(&positions)
        .find(|(_, p)| **p == start)
        .map(|((_, v), _)| *v)
    else {
        return false;
    };
    let game_name = comment_text(&t.instance);
    let _ = writeln!(
        out,
        "(** Instance {game_name}: {} entries. *)",
        t.entries.len()
    );
    for d in &g.graphs {
        out.push_str(d);
    }
    let _ = write!(out, "Definition {id}_t : list (pos {} * N) := [", g.term);
    for (i, ((_, v), p)) in t.entries.iter().zip(&positions).enumerate() {
        if i % 8 == 0 {
            out.push_str("\n ");
        }
        let _ = write!(
            out,
            " ({p}, {v}){}",
            if i + 1 < positions.len() { ";" } else { "" }
        );
    }
    out.push_str("].\n");
    let facts: String = g
        .facts
        .iter()
        .map(|(f, b)| format!("{f} = {b} /\\ "))
        .collect();
    let proofs: String = g
        .facts
        .iter()
        .map(|(_, b)| format!("split; [vm_cast_no_check (eq_refl {b})|]. "))
        .collect();
    let _ = writeln!(
        out,
        "Theorem {id} : {}grundy {} {start} = {value}.\nProof.\n  {}apply (check_value {} {} {} {} {id}_t); vm_cast_no_check (eq_refl true).\nQed.\n",
        facts,
        g.term,
        proofs,
        g.term,
        g.eqb,
        g.eqb_ok,
        g.key,
    );
    true
}

/// The Coq file of an accepted certificate (its claim re-derived): every supported table within
/// the cap.
pub fn export(cert: &Certificate) -> Export {
    let mut e = Export {
        file: None,
        theorems: 0,
        largest: 0,
        over_cap: 0,
        unsupported: 0,
    };
    let tables = match &cert.body {
        Body::NimTables { tables } => tables,
        Body::OctalPeriod(o) => return sequence(cert, o),
        _ => return e,
    };
    let mut out = format!(
        "(* Generated by grundy-verify --coq from the accepted certificate of spec {}.\n   \
         Each theorem: the Grundy value of the instance's start position, proved by the\n   \
         checker's soundness theorem (formal/Game.v, check_value) and the kernel's VM. *)\n\
         From Coq Require Import NArith List.\n\
         From Grundy Require Import Game Bits Removing Classic Multiset.\n\
         Import ListNotations.\nOpen Scope N_scope.\n\n",
        comment_text(&cert.spec)
    );
    let mut used = BTreeSet::new();
    for t in tables {
        if t.entries.len() > MAX_COQ_ENTRIES {
            e.over_cap += 1;
        } else if table(&mut out, &cert.spec, t, &mut used) {
            e.theorems += 1;
            e.largest = e.largest.max(t.entries.len());
        } else {
            e.unsupported += 1;
        }
    }
    if e.theorems > 0 {
        e.file = Some((format!("{}.v", module_name(&cert.spec)), out));
    }
    e
}

/// Writes the files of `exports` into `dir` (created if needed) and prints what was written.
pub fn write_all(dir: &std::path::Path, exports: &[&Export]) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let (mut files, mut theorems, mut largest, mut over, mut unsupported) = (0, 0, 0, 0, 0);
    let mut names = BTreeSet::new();
    for e in exports {
        if let Some((name, text)) = &e.file {
            // Two spec ids with one module name (`a-b`, `a_b`): the later gets a suffix.
            let stem = name.trim_end_matches(".v");
            let mut file = name.clone();
            let mut k = 2;
            while !names.insert(file.clone()) {
                file = format!("{stem}_{k}.v");
                k += 1;
            }
            let path = dir.join(&file);
            std::fs::write(&path, text)
                .map_err(|err| format!("cannot write {}: {err}", path.display()))?;
            files += 1;
        }
        theorems += e.theorems;
        largest = largest.max(e.largest);
        over += e.over_cap;
        unsupported += e.unsupported;
    }
    crate::io::outln!(
        "coq: {files} files, {theorems} theorems (largest table {largest} entries) in {}; {over} tables over the cap of {MAX_COQ_ENTRIES} entries, {unsupported} of games formal/ does not define",
        dir.display()
    );
    Ok(())
}

/// Most values of an octal sequence exported.
pub const MAX_COQ_VALUES: usize = 2_000;

/// An octal sequence certificate (kind `sequence`): one theorem, every listed value G(n) is the
/// Grundy value of a single heap of n in the octal game of the code (formal/Octal.v,
/// `check_sequence_sound`). The period proved by Guy–Smith is grundy-verify's, not Coq's.
fn sequence(cert: &Certificate, o: &Octal) -> Export {
    let mut e = Export {
        file: None,
        theorems: 0,
        largest: 0,
        over_cap: 0,
        unsupported: 0,
    };
    let digits: Option<Vec<String>> = o.code.strip_prefix("0.").and_then(|d| {
        d.chars()
            .map(|c| c.to_digit(8).map(|x| x.to_string()))
            .collect()
    });
    let Some(digits) = digits.filter(|d| !d.is_empty()) else {
        e.unsupported += 1;
        return e;
    };
    if o.values.len() > MAX_COQ_VALUES {
        e.over_cap += 1;
        return e;
    }
    let mut used = BTreeSet::new();
    let id = ident(&cert.spec, &o.code, &mut used);
    let code = format!("[{}]", digits.join("; "));
    let mut out = format!(
        "(* Generated by grundy-verify --coq from the accepted certificate of spec {}.\n   \
         The theorem: every listed value G(n) is the Grundy value of a heap of n in the octal\n   \
         game {}, proved by the checker's soundness theorem (formal/Octal.v,\n   \
         check_sequence_sound) and the kernel's VM. *)\n\
         From Coq Require Import NArith List Lia.\n\
         From Grundy Require Import Game Octal.\n\
         Import ListNotations.\nOpen Scope N_scope.\n\n",
        comment_text(&cert.spec),
        comment_text(&o.code)
    );
    let _ = write!(
        out,
        "(** The octal game {}: G(0) .. G({}). *)\nDefinition {id}_values : list N := [",
        o.code,
        o.values.len().saturating_sub(1)
    );
    for (i, v) in o.values.iter().enumerate() {
        if i % 20 == 0 {
            out.push_str("\n ");
        }
        let _ = write!(out, " {v}{}", if i + 1 < o.values.len() { ";" } else { "" });
    }
    out.push_str("].\n");
    let _ = writeln!(
        out,
        "Theorem {id} : forall n, n < {} -> grundy (Octal {code}) [n] = nth (N.to_nat n) {id}_values 0.\nProof.\n  intros n Hn. apply (check_sequence_sound {code} {id}_values); [vm_cast_no_check (eq_refl true)|].\n  change (length {id}_values) with {}%nat. lia.\nQed.",
        o.values.len(),
        o.values.len(),
    );
    e.theorems = 1;
    e.largest = o.values.len();
    e.file = Some((format!("{}.v", module_name(&cert.spec)), out));
    e
}
