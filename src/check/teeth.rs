//! Teeth (docs/design.md §2): a claim must be able to fail. A value formula (`nim:`,
//! `outcome:`) that reads its own game's value through `nim("…")` checks nothing
//! ([`solves_own_game`]). A `holds:` predicate is tested by draws: after a predicate held
//! on every selected position, it is evaluated again on random environments: every parameter
//! and feature replaced by a value drawn from its type and the range observed during the check
//! (integers: the observed values and a widened interval, nonnegative when every observed value
//! was; booleans: both; other values: the observed ones, mixed across positions), the `let`s
//! recomputed from the drawn values. A predicate true on every draw (or a top-level conjunct of
//! it true on every draw) does not depend on the game: it checks nothing, and the claim is bad
//! input. The generator is seeded from the spec's id and the formula, so the verdict is the same
//! on every run and thread count.

use super::formula::{show, Env, Formula};
use rhai::Dynamic;
use std::collections::{BTreeMap, HashMap};
use std::sync::{Mutex, OnceLock};

/// How many random environments a predicate is evaluated on.
pub const DRAWS: usize = 512;
/// Fewest draws that must evaluate (others may fail, e.g. a helper outside its domain) for the
/// predicate to be judged; below it, the predicate is not judged (a limit of the rule).
pub const MIN_EVALUATED: usize = 64;
/// Observed values kept per variable.
const KEEP: usize = 32;

/// The values one variable took during the check.
#[derive(Clone, Debug)]
enum Obs {
    Int { min: i64, max: i64, seen: Vec<i64> },
    Bool,
    Other(Vec<Dynamic>),
}

/// The observed values of every variable of a claim's environments.
#[derive(Clone, Debug, Default)]
pub struct Observed {
    vars: BTreeMap<String, Obs>,
}

impl Observed {
    /// Records the variables of one environment.
    pub fn observe(&mut self, env: &Env) {
        for (k, v) in env.vars() {
            let new = update(self.vars.get(k), v);
            self.vars.insert(k.to_string(), new);
        }
    }

    pub fn merge(&mut self, other: Observed) {
        for (k, o) in other.vars {
            match (self.vars.get_mut(&k), o) {
                (None, o) => {
                    self.vars.insert(k, o);
                }
                (
                    Some(Obs::Int { min, max, seen }),
                    Obs::Int {
                        min: m2,
                        max: x2,
                        seen: s2,
                    },
                ) => {
                    *min = (*min).min(m2);
                    *max = (*max).max(x2);
                    for i in s2 {
                        if seen.len() < KEEP && !seen.contains(&i) {
                            seen.push(i);
                        }
                    }
                }
                (Some(Obs::Other(seen)), Obs::Other(s2)) => {
                    for v in s2 {
                        if seen.len() < KEEP && !seen.iter().any(|s| show(s) == show(&v)) {
                            seen.push(v);
                        }
                    }
                }
                _ => {}
            }
        }
    }

    pub fn is_empty(&self) -> bool {
        self.vars.is_empty()
    }
}

/// `o` with the value `v` recorded.
fn update(o: Option<&Obs>, v: &Dynamic) -> Obs {
    match (o, v.as_int(), v.as_bool()) {
        (None, Ok(i), _) => Obs::Int {
            min: i,
            max: i,
            seen: vec![i],
        },
        (Some(Obs::Int { min, max, seen }), Ok(i), _) => {
            let mut seen = seen.clone();
            if seen.len() < KEEP && !seen.contains(&i) {
                seen.push(i);
            }
            Obs::Int {
                min: (*min).min(i),
                max: (*max).max(i),
                seen,
            }
        }
        (None | Some(Obs::Bool), _, Ok(_)) => Obs::Bool,
        (None, _, _) => Obs::Other(vec![v.clone()]),
        (Some(Obs::Other(seen)), _, _) => {
            let mut seen = seen.clone();
            if seen.len() < KEEP && !seen.iter().any(|s| show(s) == show(v)) {
                seen.push(v.clone());
            }
            Obs::Other(seen)
        }
        // A variable of changing type: kept as first seen.
        (Some(o), _, _) => o.clone(),
    }
}

/// The results the helpers that compute from a game (`nim`, `trail_*`) gave, by helper: the
/// "observed range" of their type, drawn from when a predicate's teeth are tested.
fn outputs() -> &'static Mutex<HashMap<&'static str, Obs>> {
    static OUT: OnceLock<Mutex<HashMap<&'static str, Obs>>> = OnceLock::new();
    OUT.get_or_init(Default::default)
}

/// Records a result of a game helper (called by the helpers on every real evaluation).
pub fn record(helper: &'static str, v: &Dynamic) {
    if FAKE.with(|f| f.borrow().is_some()) {
        return;
    }
    if let Ok(mut m) = outputs().lock() {
        let new = update(m.get(helper), v);
        m.insert(helper, new);
    }
}

/// While a predicate's teeth are tested: the generator and the results drawn in this draw,
/// so that one call (one helper, one argument list) gives one result within a draw.
struct Fake {
    rng: Rng,
    memo: HashMap<String, Dynamic>,
    /// The games `nim` was asked for in this draw, with the spelling first used for each: two
    /// spellings of one game ([`crate::game::identity`]) draw one value, so that
    /// `nim("TER(C_5)") == nim("TER(C_5) + *0")` is seen to hold whatever the game.
    games: Vec<(crate::game::AnyGame, String)>,
}

thread_local! {
    static FAKE: std::cell::RefCell<Option<Fake>> = const { std::cell::RefCell::new(None) };
}

/// In a teeth test, the drawn result of `helper(args)` instead of the computed one (the game
/// helpers are features of the game too); `None` outside teeth tests.
pub fn fake_call(helper: &'static str, args: &str) -> Option<Result<Dynamic, String>> {
    FAKE.with(|f| {
        let mut f = f.borrow_mut();
        let fake = f.as_mut()?;
        let key = format!("{helper}({args})");
        if let Some(v) = fake.memo.get(&key) {
            return Some(Ok(v.clone()));
        }
        let obs = outputs().lock().ok().and_then(|m| m.get(helper).cloned());
        let v = match obs {
            Some(o) => draw(&o, &mut fake.rng),
            None => return Some(Err(format!("no result of {helper} observed"))),
        };
        fake.memo.insert(key, v.clone());
        Some(Ok(v))
    })
}

/// In a teeth test, the drawn value of `nim(arg)`, the same for every spelling of one game
/// (`parse` reads `arg` as a game; an argument that does not parse fails, as it would);
/// `None` outside teeth tests.
pub fn fake_nim(
    arg: &str,
    parse: impl FnOnce() -> Option<crate::game::AnyGame>,
) -> Option<Result<Dynamic, String>> {
    if FAKE.with(|f| f.borrow().is_none()) {
        return None;
    }
    let spelling = match parse() {
        // The real helper fails there too: the draw is not judged (not drawn apart from the
        // other calls, which made `nim("C_" + n) == nim("C_" + n + " + *0")` look falsifiable
        // at every n that names no game).
        None => return Some(Err(format!("nim(\"{arg}\"): not a game"))),
        Some(g) => FAKE.with(|f| {
            let mut f = f.borrow_mut();
            let games = &mut f.as_mut()?.games;
            let first = games
                .iter()
                .find(|(h, _)| crate::game::identity::same_game(&g, h))
                .map(|(_, s)| s.clone());
            Some(first.unwrap_or_else(|| {
                games.push((g, arg.to_string()));
                arg.to_string()
            }))
        })?,
    };
    fake_call("nim", &spelling)
}

/// While a value formula's teeth are tested: the game the claim is about and the value
/// `nim("…")` of that very game, in any spelling ([`crate::game::identity`]), is made to
/// return, so that a formula reading its own game's value shows it (docs/design.md §2, teeth).
struct OwnGame {
    game: crate::game::AnyGame,
    replacement: i64,
    /// The argument of the first call that asked for the game itself.
    called: Option<String>,
}

thread_local! {
    static OWN: std::cell::RefCell<Option<OwnGame>> = const { std::cell::RefCell::new(None) };
}

/// Whether a value formula is being tested for solving its own game (the nim helper then
/// parses every argument, to compare it with the game, instead of reading its cache first).
pub fn own_game_active() -> bool {
    OWN.with(|o| o.borrow().is_some())
}

/// In a value formula's teeth test, the replacement value when `game` (parsed from `arg`) is
/// the claim's own game; `None` otherwise.
pub fn own_game_call(arg: &str, game: &crate::game::AnyGame) -> Option<i64> {
    OWN.with(|o| {
        let mut o = o.borrow_mut();
        let own = o.as_mut()?;
        if !crate::game::identity::same_game(game, &own.game) {
            return None;
        }
        own.called.get_or_insert_with(|| arg.to_string());
        Some(own.replacement)
    })
}

/// docs/design.md §2, teeth of value formulas: whether `eval` (a value formula at the start of
/// an instance whose game prints as `game`) reads the value of that very game through
/// `nim("…")`. It is evaluated once as is and once per replacement value of the game's own
/// `nim`; a call on the game itself that changes the result means the formula computes the
/// value it is compared with: it checks nothing. Returns the offending call's argument.
pub fn solves_own_game<T: PartialEq>(
    game: &crate::game::AnyGame,
    eval: impl Fn() -> T,
) -> Option<String> {
    let plain = eval();
    for replacement in [0, 1, 2, 3, 1 << 20] {
        OWN.with(|o| {
            *o.borrow_mut() = Some(OwnGame {
                game: game.clone(),
                replacement,
                called: None,
            })
        });
        let v = eval();
        let called = OWN.with(|o| o.borrow_mut().take()).and_then(|o| o.called);
        match called {
            // The game itself is never asked for: nothing to perturb.
            None => return None,
            Some(arg) if v != plain => return Some(arg),
            Some(_) => {}
        }
    }
    None
}

/// splitmix64: a small deterministic generator (the draws need no cryptographic quality,
/// only the same sequence on every run).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            0
        } else {
            self.next() % n
        }
    }
}

fn seed(id: &str, src: &str) -> u64 {
    // FNV-1a: stable across runs and platforms (std's hasher is randomly keyed).
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in id.bytes().chain([0]).chain(src.bytes()) {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

fn draw(o: &Obs, rng: &mut Rng) -> Dynamic {
    match o {
        Obs::Int { min, max, seen } => {
            if rng.below(2) == 0 && !seen.is_empty() {
                return Dynamic::from_int(seen[rng.below(seen.len() as u64) as usize]);
            }
            let width = max.saturating_sub(*min).clamp(0, 1 << 20);
            let lo = if *min >= 0 {
                0
            } else {
                min.saturating_sub(width + 2)
            };
            let hi = max.saturating_add(width + 2);
            let span = hi.saturating_sub(lo).saturating_add(1).max(1) as u64;
            Dynamic::from_int(lo.saturating_add(rng.below(span) as i64))
        }
        Obs::Bool => Dynamic::from_bool(rng.below(2) == 1),
        Obs::Other(seen) => {
            let v = seen[rng.below(seen.len() as u64) as usize].clone();
            if rng.below(2) == 0 {
                return v;
            }
            // A list of integers (a pair ρ, a partition): its entries drawn like integers of
            // the range of all observed entries, so that one observed list is not a constant.
            let Some(list) = v.clone().try_cast::<rhai::Array>() else {
                return v;
            };
            let entries: Vec<i64> = seen
                .iter()
                .filter_map(|s| s.clone().try_cast::<rhai::Array>())
                .flatten()
                .filter_map(|d| d.as_int().ok())
                .collect();
            let (Some(&min), Some(&max)) = (entries.iter().min(), entries.iter().max()) else {
                return v;
            };
            let ints = Obs::Int {
                min,
                max,
                seen: Vec::new(),
            };
            Dynamic::from_array(
                list.iter()
                    .map(|d| {
                        if d.is_int() {
                            draw(&ints, rng)
                        } else {
                            d.clone()
                        }
                    })
                    .collect(),
            )
        }
    }
}

/// The top-level conjuncts of a predicate's text (split at `&&` outside brackets and strings).
fn conjuncts(src: &str) -> Vec<&str> {
    let (mut depth, mut in_str, mut prev) = (0i32, false, '\0');
    let mut parts = Vec::new();
    let mut start = 0;
    let bytes: Vec<(usize, char)> = src.char_indices().collect();
    let mut i = 0;
    while i < bytes.len() {
        let (at, c) = bytes[i];
        if in_str {
            if c == '"' && prev != '\\' {
                in_str = false;
            }
        } else {
            match c {
                '"' => in_str = true,
                '(' | '[' | '{' => depth += 1,
                ')' | ']' | '}' => depth -= 1,
                '&' if depth == 0 && bytes.get(i + 1).is_some_and(|(_, d)| *d == '&') => {
                    parts.push(src[start..at].trim());
                    start = at + 2;
                    i += 1;
                }
                _ => {}
            }
        }
        prev = c;
        i += 1;
    }
    parts.push(src[start..].trim());
    parts.retain(|p| !p.is_empty());
    parts
}

/// Whether `pred` is true on every random environment drawn from `obs`: `Some(draws)` (the
/// number that evaluated) when it is, `None` when some draw makes it false or too few draws
/// evaluate to judge.
fn always_true(
    pred: &Formula,
    lets: &[(String, Formula)],
    recompute_lets: bool,
    obs: &Observed,
    rng: &mut Rng,
) -> Option<usize> {
    let mut evaluated = 0;
    for _ in 0..DRAWS {
        let mut env = Env::new();
        for (k, o) in &obs.vars {
            if !recompute_lets || !lets.iter().any(|(n, _)| n == k) {
                env.set(k, draw(o, rng));
            }
        }
        let seed = rng.next();
        FAKE.with(|f| {
            *f.borrow_mut() = Some(Fake {
                rng: Rng(seed),
                memo: HashMap::new(),
                games: Vec::new(),
            })
        });
        if recompute_lets {
            for (name, f) in lets {
                match f.eval(&env) {
                    Ok(v) => env.set(name, v),
                    Err(_) => {
                        if let Some(o) = obs.vars.get(name) {
                            env.set(name, draw(o, rng));
                        }
                    }
                }
            }
        }
        let r = pred.eval_bool(&env);
        FAKE.with(|f| *f.borrow_mut() = None);
        match r {
            Ok(true) => evaluated += 1,
            Ok(false) => return None,
            Err(_) => {}
        }
    }
    (evaluated >= MIN_EVALUATED).then_some(evaluated)
}

/// The part of `pred` (the whole predicate, or one of its top-level conjuncts) that is true
/// whatever the game, with the number of draws it was true on; `None` when every part can fail.
///
/// `recompute_lets`: the `let`s are definitions over the drawn parameters and features (a
/// claim about a game); else they are drawn too (a claim of arithmetic over a fixed
/// placeholder game, whose `let`s are what it checks).
pub fn toothless(
    id: &str,
    pred: &Formula,
    lets: &[(String, Formula)],
    recompute_lets: bool,
    obs: &Observed,
) -> Option<(String, usize)> {
    if obs.is_empty() {
        return None;
    }
    let mut rng = Rng(seed(id, &pred.src));
    if let Some(n) = always_true(pred, lets, recompute_lets, obs, &mut rng) {
        return Some((pred.src.clone(), n));
    }
    let parts = conjuncts(&pred.src);
    if parts.len() < 2 {
        return None;
    }
    for p in parts {
        let Ok(f) = Formula::compile(p) else {
            continue;
        };
        if let Some(n) = always_true(&f, lets, recompute_lets, obs, &mut rng) {
            return Some((p.to_string(), n));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn obs(vars: &[(&str, &[i64])]) -> Observed {
        let mut o = Observed::default();
        for (k, vals) in vars {
            for v in *vals {
                let mut e = Env::new();
                e.set(k, Dynamic::from_int(*v));
                o.observe(&e);
            }
        }
        o
    }

    fn f(s: &str) -> Formula {
        Formula::compile(s).expect("compiles")
    }

    #[test]
    fn tautologies_are_found_and_real_predicates_pass() {
        let o = obs(&[("pairs", &[0, 1, 2, 3]), ("m", &[2, 3, 4]), ("n", &[1, 5])]);
        // Example 3.4 written as a tautology: a count is never negative.
        assert!(toothless("x", &f("pairs >= 0"), &[], true, &o).is_some());
        // x == x, alone or as a conjunct beside a real condition.
        let t = toothless("x", &f("m == m && pairs >= 1"), &[], true, &o).expect("a tautology");
        assert_eq!(t.0, "m == m");
        // Predicates that some draw falsifies.
        for p in ["pairs >= 1", "pairs == 0", "m + n > 4", "m == 3 && n == 5"] {
            assert!(toothless("x", &f(p), &[], true, &o).is_none(), "{p}");
        }
        // A `let` recomputed from the drawn values: d == m - n always.
        let lets = vec![("d".to_string(), f("m - n"))];
        assert!(toothless("x", &f("d == m - n"), &lets, true, &o).is_some());
        assert!(toothless("x", &f("d == 1"), &lets, true, &o).is_none());
        // Drawn, not recomputed (arithmetic over a placeholder game): d == m - n can fail.
        assert!(toothless(
            "x",
            &f("d == m - n"),
            &lets,
            false,
            &obs(&[("m", &[2, 3]), ("n", &[1]), ("d", &[1, 2])])
        )
        .is_none());
    }

    #[test]
    fn conjuncts_split_at_top_level_only() {
        assert_eq!(
            conjuncts("a && (b && c) && f(\"&&\", [x && y])"),
            ["a", "(b && c)", "f(\"&&\", [x && y])"]
        );
        assert_eq!(conjuncts("solid"), ["solid"]);
    }

    #[test]
    fn draws_are_deterministic() {
        let o = obs(&[("k", &[0, 7])]);
        let a = toothless("id", &f("k != 3"), &[], true, &o);
        let b = toothless("id", &f("k != 3"), &[], true, &o);
        assert_eq!(a, b);
    }
}
