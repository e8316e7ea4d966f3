//! The `game` spec kind (issue 45, docs/user-games.md): a move game (`name`, `position`,
//! `start`, `options`, `features`, the laws `components`/`symmetric`, `play`) or a graph closure (`closure`, `interval`, `iterated`)
//! defined by rhai rules in the spec. Reading the spec compiles its rules once and registers
//! the game as a family or the closure in the registry (`crate::game::user`); [`register_near`]
//! reads the game specs of a run first, so that the other specs can name them. Checking a game
//! spec has nothing left to decide: it holds once it is read.

use super::KindEntry;
use crate::check::kind::{Checked, Context, SpecKind};
use crate::check::{CheckError, Expectation, Report, Verdict};
use crate::game::user::{self, ClosureDef, GameDef, PositionKind, Rule};
use crate::spec::header::RawHeader;
use crate::spec::raw::Sp;
use crate::spec::{Source, Spec, SpecError};
use indexmap::IndexMap;
use schemars::JsonSchema;
use serde::Deserialize;
use std::path::{Path, PathBuf};

pub const ENTRY: KindEntry = KindEntry {
    name: "game",
    parse: |src, id| crate::spec::parse_with(src, id, validate),
    schema: |g| g.subschema_for::<crate::spec::header::WithHeader<RawGame>>(),
};

/// `kind: game`: a move game or a graph closure given by rhai rules (docs/user-games.md).
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawGame {
    /// A move game's head in the game language, e.g. `UNK` for `UNK(P_5)`.
    #[serde(default)]
    pub name: Option<Sp<String>>,
    /// A closure's name: `closure: p3` in specs, `--closure p3`.
    #[serde(default)]
    pub closure: Option<Sp<String>>,
    /// One line saying what the game or closure is.
    #[serde(default)]
    pub title: Option<Sp<String>>,
    /// `vertices`, `edges` or `integers`.
    #[serde(default)]
    pub position: Option<Sp<String>>,
    /// The start position (rhai; default `all`).
    #[serde(default)]
    pub start: Option<Sp<String>>,
    /// The options of the position `p` (rhai): an array of positions.
    #[serde(default)]
    pub options: Option<Sp<String>>,
    /// Features of `p`: name → rhai expression (an integer or a boolean).
    #[serde(default)]
    pub features: IndexMap<String, Sp<String>>,
    /// I(u, v) as a vertex mask (rhai), for u < v.
    #[serde(default)]
    pub interval: Option<Sp<String>>,
    /// Repeat the interval step to a fixed point (a hull), or take it once.
    #[serde(default)]
    pub iterated: Option<Sp<bool>>,
    /// A move game's declared law: a position is the sum of its components (graph positions).
    #[serde(default)]
    pub components: Option<Sp<bool>>,
    /// A move game's declared law: the rule commutes with the graph's automorphisms.
    #[serde(default)]
    pub symmetric: Option<Sp<bool>>,
    /// A move game's play convention: `normal` (the default; the player who cannot move
    /// loses) or `misere` (`misère`; the player who cannot move wins).
    #[serde(default)]
    pub play: Option<Sp<String>>,
}

/// A game spec once read: what it defined.
#[derive(Debug, Clone)]
pub struct GameSpec {
    pub id: String,
    pub file: String,
    pub source: String,
    /// `game UNK` or `closure p3`.
    pub defines: String,
}

fn is_word(s: &str) -> bool {
    s.starts_with(|c: char| c.is_ascii_alphabetic())
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn rule(src: &Source, at: &Sp<String>, field: &str) -> Result<Rule, SpecError> {
    user::compile(at.value()).map_err(|e| {
        src.error(
            at,
            format!("the rule `{field}` does not compile: {e}"),
            None,
        )
    })
}

fn validate(src: &Source, id: &str, h: &RawHeader, r: RawGame) -> Result<Spec, SpecError> {
    let sha256 = crate::spec::sha256_hex(src.text.as_bytes());
    let title = r.title.as_ref().map(|t| t.value().clone());
    let defines = match (&r.name, &r.closure) {
        (Some(name), None) => {
            for (field, present) in [
                ("interval", r.interval.is_some()),
                ("iterated", r.iterated.is_some()),
            ] {
                if present {
                    return Err(src.error(
                        name,
                        format!("a move game (`name:`) has no `{field}:` (that is a closure's)"),
                        None,
                    ));
                }
            }
            if !is_word(name.value()) {
                return Err(src.error(
                    name,
                    format!("`{}` is not a word ([A-Za-z][A-Za-z0-9_]*)", name.value()),
                    None,
                ));
            }
            let options = r.options.as_ref().ok_or_else(|| {
                src.error(
                    name,
                    "a move game needs `options:`, the rule giving the options of `p`",
                    None,
                )
            })?;
            let position = match &r.position {
                None => PositionKind::Vertices,
                Some(p) => PositionKind::parse(p.value()).ok_or_else(|| {
                    src.error(
                        p,
                        format!("unknown position `{}`", p.value()),
                        Some("expected `vertices`, `edges` or `integers`".into()),
                    )
                })?,
            };
            if let (PositionKind::Integers, Some(s)) = (position, &r.start) {
                return Err(src.error(
                    s,
                    "an integer game has no `start:`: its start is the tuple written NAME(a, b, …)",
                    None,
                ));
            }
            for law in [&r.components, &r.symmetric].into_iter().flatten() {
                if position == PositionKind::Integers && *law.value() {
                    return Err(src.error(
                        law,
                        "`components:` and `symmetric:` are laws of games on graphs (`position: vertices` or `edges`), not of integer games",
                        None,
                    ));
                }
            }
            let misere = match &r.play {
                None => false,
                Some(p) => match p.value().as_str() {
                    "normal" => false,
                    "misere" | "misère" => true,
                    other => {
                        return Err(src.error(
                            p,
                            format!("unknown play `{other}`"),
                            Some("expected `normal` (the player who cannot move loses) or `misere` (the player who cannot move wins)".into()),
                        ))
                    }
                },
            };
            if let (true, Some(c)) = (misere, &r.components) {
                if *c.value() {
                    return Err(src.error(
                        c,
                        "`components: true` does not hold under misère play: the outcome of a sum is not given by its components' (nim-values do not add under misère play); drop it, or play normal",
                        None,
                    ));
                }
            }
            let mut features = Vec::new();
            for (fname, f) in &r.features {
                if !is_word(fname) {
                    return Err(src.error(
                        f,
                        format!("the feature name `{fname}` is not a word"),
                        None,
                    ));
                }
                features.push((fname.clone(), rule(src, f, fname)?));
            }
            let def = GameDef {
                name: name.value().clone(),
                title: title.unwrap_or_else(|| name.value().clone()),
                file: src.file.to_string(),
                sha256,
                position,
                start: r
                    .start
                    .as_ref()
                    .map(|s| rule(src, s, "start"))
                    .transpose()?,
                options: rule(src, options, "options")?,
                features,
                components: r.components.as_ref().is_some_and(|c| *c.value()),
                symmetric: r.symmetric.as_ref().is_some_and(|c| *c.value()),
                misere,
            };
            user::register_game(def).map_err(|e| src.error(name, e, None))?;
            let laws: Vec<&str> = [
                ("components", r.components.as_ref()),
                ("symmetric", r.symmetric.as_ref()),
            ]
            .into_iter()
            .filter(|(_, l)| l.is_some_and(|l| *l.value()))
            .map(|(w, _)| w)
            .collect();
            let play = if misere { ", played misère" } else { "" };
            if laws.is_empty() {
                format!("game {}{play}", name.value())
            } else {
                format!("game {}{play} (declares {})", name.value(), laws.join(", "))
            }
        }
        (None, Some(closure)) => {
            if let Some(p) = &r.play {
                return Err(src.error(
                    p,
                    "a closure (`closure:`) has no `play:`: its games GEN, DNG, TER and DNT are played normal (`play:` is a move game's)",
                    None,
                ));
            }
            for (field, present) in [
                ("position", r.position.is_some()),
                ("start", r.start.is_some()),
                ("options", r.options.is_some()),
                ("features", !r.features.is_empty()),
                ("components", r.components.is_some()),
                ("symmetric", r.symmetric.is_some()),
            ] {
                if present {
                    return Err(src.error(
                        closure,
                        format!("a closure (`closure:`) has no `{field}:` (that is a move game's)"),
                        None,
                    ));
                }
            }
            if !is_word(closure.value()) {
                return Err(src.error(
                    closure,
                    format!(
                        "`{}` is not a word ([A-Za-z][A-Za-z0-9_]*)",
                        closure.value()
                    ),
                    None,
                ));
            }
            let interval = r.interval.as_ref().ok_or_else(|| {
                src.error(
                    closure,
                    "a closure needs `interval:`, the rule giving I(u, v)",
                    None,
                )
            })?;
            let iterated = r.iterated.as_ref().ok_or_else(|| {
                src.error(
                    closure,
                    "a closure needs `iterated:`: `true` repeats the interval step to a fixed point (a hull), `false` takes it once",
                    None,
                )
            })?;
            let def = ClosureDef {
                name: closure.value().clone(),
                title: title.unwrap_or_else(|| closure.value().clone()),
                file: src.file.to_string(),
                sha256,
                interval: rule(src, interval, "interval")?,
                iterated: *iterated.value(),
            };
            user::register_closure(def).map_err(|e| src.error(closure, e, None))?;
            format!("closure {}", closure.value())
        }
        (Some(name), Some(_)) => {
            return Err(src.error(
                name,
                "a game spec defines a move game (`name:`) or a closure (`closure:`), not both",
                None,
            ))
        }
        (None, None) => {
            return Err(src.error_at(
                1,
                1,
                1,
                "a game spec needs `name:` (a move game) or `closure:` (a graph closure)",
                Some("see docs/user-games.md".into()),
            ))
        }
    };
    Ok(Spec::new(
        GameSpec {
            id: id.to_string(),
            file: src.file.to_string(),
            source: h.source.value().clone(),
            defines,
        },
        Vec::new(),
    ))
}

impl SpecKind for GameSpec {
    header_accessors!("game");
    fn check(&self, _ctx: &Context) -> Result<Checked, CheckError> {
        Ok(Checked::new(Report {
            id: self.id.clone(),
            kind: "game".into(),
            source: self.source.clone(),
            file: self.file.clone(),
            instances: 1,
            positions: 0,
            range: "single instance".into(),
            expect: Expectation::Holds,
            verdict: Verdict::Holds,
            as_expected: true,
            notes: Some(format!("defines the {}", self.defines)),
            coverage: Vec::new(),
            rests_on: Vec::new(),
            companion: None,
            excused: None,
            identity: None,
            laws: None,
            seconds: 0.0,
        }))
    }
}

/// Whether the file's text is a `kind: game` spec (a top-level `kind: game` line).
fn is_game_spec(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.len() <= crate::spec::MAX_SPEC_BYTES)
        && std::fs::read_to_string(path).is_ok_and(|t| {
            t.lines().any(|l| {
                let l = l.split('#').next().unwrap_or("").trim_end();
                l == "kind: game" || l == "kind: \"game\"" || l == "kind: 'game'"
            })
        })
}

/// Registers the game specs among `files` and in the folders holding them (not recursively),
/// before any other spec is read; the errors of the game specs not among `files` (those among
/// them are reported when they are read in turn).
pub fn register_near(files: &[PathBuf]) -> Vec<SpecError> {
    let mut dirs: Vec<PathBuf> = Vec::new();
    let mut candidates: Vec<(PathBuf, bool)> = files.iter().map(|f| (f.clone(), true)).collect();
    for f in files {
        let dir = match f.parent() {
            Some(d) if d.as_os_str().is_empty() => PathBuf::from("."),
            Some(d) => d.to_path_buf(),
            None => continue,
        };
        if dirs.contains(&dir) {
            continue;
        }
        if let Ok(rd) = std::fs::read_dir(&dir) {
            let mut sib: Vec<PathBuf> = rd
                .flatten()
                .map(|e| e.path())
                .filter(|p| matches!(p.extension().and_then(|e| e.to_str()), Some("yaml" | "yml")))
                .filter(|p| !files.contains(p))
                .collect();
            sib.sort();
            candidates.extend(sib.into_iter().map(|p| (p, false)));
        }
        dirs.push(dir);
    }
    let mut errors = Vec::new();
    for (path, listed) in candidates {
        if !is_game_spec(&path) {
            continue;
        }
        if let Err(e) = super::load_file(&path) {
            if !listed {
                errors.push(e);
            }
        }
    }
    errors
}

/// Registers the game specs at `path`: one spec, or every game spec in a folder (recursively);
/// for `--games`.
pub fn register_path(path: &Path) -> Result<usize, SpecError> {
    let files = crate::spec::collect_files(&[path.to_path_buf()]).map_err(|e| SpecError {
        file: path.display().to_string(),
        line: 0,
        column: 0,
        message: format!("cannot list game specs: {e}"),
        src: miette::NamedSource::new(path.display().to_string(), String::new()),
        span: None,
        label: String::new(),
        help: None,
    })?;
    let mut count = 0;
    for f in files {
        if path.is_file() || is_game_spec(&f) {
            let spec = super::load_file(&f)?;
            if spec.kind() != "game" {
                return Err(SpecError {
                    file: f.display().to_string(),
                    line: 0,
                    column: 0,
                    message: format!(
                        "--games: this is a `{}` spec, not a `game` spec",
                        spec.kind()
                    ),
                    src: miette::NamedSource::new(f.display().to_string(), String::new()),
                    span: None,
                    label: String::new(),
                    help: None,
                });
            }
            count += 1;
        }
    }
    Ok(count)
}
