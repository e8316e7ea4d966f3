//! Extending grundy from outside the crate (docs/guide "Extending grundy"): a graph closure,
//! a game family with a feature, a graph family and a spec kind defined here, registered
//! through [`Registry`], then solved, checked by specs (a true claim holds, a wrong variant
//! is refuted) and certified by the pipeline, and compared with brute force or hand counts
//! written here from the definitions.
//!
//! The closure is the P3-convexity (a set is closed when no outside vertex has two neighbours
//! inside): intervals I(u, v) = {u, v} ∪ (N(u) ∩ N(v)), iterated. It is not geodesic, so no
//! geodesic fast path may be used for it: on K_3 = K_{1,1,1} the geodesic hull of two vertices
//! is the two, the P3 hull is all three (a solver that took part counts for any closure but
//! the one-step one gave wrong values here). The game is the subtraction game with
//! subtraction set {1, 3, 4}, whose nim sequence has period 7: 0, 1, 0, 1, 2, 3, 2.

// Spec errors carry their source text for snippets, as in the crate's own kinds.
#![allow(clippy::result_large_err)]

use grundy::expr::{parse_game, ParseOptions};
use grundy::game::family::{Family, FamilyGame, FormDoc, Registered};
use grundy::game::features::{FeatureDoc, Features, Value};
use grundy::game::Game;
use grundy::graph::closures::GraphClosure;
use grundy::graph::families::{FamilyDoc, GraphFamily};
use grundy::graph::{parse_graph, Closure, Graph};
use grundy::pipeline::{build_with, BuildOptions, Selection};
use grundy::registry::Registry;
use grundy::solve::dispatch::{nim, Options};
use std::collections::HashMap;

/// The P3-convexity.
struct P3;

impl GraphClosure for P3 {
    fn name(&self) -> &'static str {
        "p3"
    }
    fn about(&self) -> &'static str {
        "the P3 hull: add a vertex with two neighbours inside, repeatedly"
    }
    fn intervals(&self, g: &Graph, _budget: u64) -> Option<Vec<u64>> {
        let n = g.n();
        let mut out = vec![0u64; n * n];
        for u in 0..n {
            for v in 0..n {
                out[u * n + v] = if u == v {
                    1 << u
                } else {
                    1 << u | 1 << v | (g.adj(u) & g.adj(v))
                };
            }
        }
        Some(out)
    }
    fn iterated(&self) -> bool {
        true
    }
}

static P3_CLOSURE: P3 = P3;

/// The subtraction game S(1, 3, 4) as a family, `TAKE(n)`.
struct TakeFamily;

const FORMS: &[FormDoc] = &[FormDoc {
    syntax: "TAKE(n)",
    example: "TAKE(9)",
    meaning: "a heap of n; a move takes 1, 3 or 4",
}];

impl Family for TakeFamily {
    fn heads(&self) -> &'static [&'static str] {
        &["TAKE"]
    }
    fn forms(&self) -> &'static [FormDoc] {
        FORMS
    }
    fn title(&self) -> &'static str {
        "The subtraction game S(1,3,4)"
    }
    fn parse(&self, _head: &str, args: &str, _closure: Closure) -> Result<Registered, String> {
        let n: u32 = args
            .trim()
            .parse()
            .map_err(|_| format!("`{args}` is not a heap size"))?;
        if n > 100_000 {
            return Err(format!("a heap of {n} is more than this example takes"));
        }
        Ok(Registered::new(Take(n)))
    }
}

static TAKE_FAMILY: TakeFamily = TakeFamily;

#[derive(Debug)]
struct Take(u32);

impl Game for Take {
    type Pos = u32;
    fn start(&self) -> u32 {
        self.0
    }
    fn options(&self, &p: &u32) -> Vec<u32> {
        [1, 3, 4]
            .iter()
            .filter(|&&k| k <= p)
            .map(|k| p - k)
            .collect()
    }
}

const TAKE_FEATURES: &[FeatureDoc] = &[FeatureDoc {
    name: "heap",
    meaning: "the heap size",
}];

impl FamilyGame for Take {
    fn name(&self) -> String {
        format!("TAKE({})", self.0)
    }
    fn label(&self, p: &u32) -> String {
        p.to_string()
    }
    fn parse_pos(&self, text: &str) -> Result<u32, String> {
        text.trim().parse().map_err(|_| format!("`{text}`"))
    }
    fn features(&self, p: &u32) -> Features {
        let mut f = Features::new();
        f.insert("heap".into(), Value::Int(i64::from(*p)));
        f
    }
    fn feature_docs(&self) -> &'static [FeatureDoc] {
        TAKE_FEATURES
    }
    fn distinct_bound(&self) -> Option<f64> {
        Some(f64::from(self.0) + 1.0)
    }
}

/// The fan F_n: a path v1 … vn and a hub h adjacent to every vertex of it.
fn fan(ps: &[u64]) -> Result<Graph, String> {
    let &[n] = ps else {
        return Err("a fan has one parameter".into());
    };
    if !(1..=40).contains(&n) {
        return Err(format!(
            "a fan of {n} path vertices is more than this example takes"
        ));
    }
    let n = n as usize;
    let mut names: Vec<String> = (1..=n).map(|i| format!("v{i}")).collect();
    names.push("h".into());
    let mut edges: Vec<(usize, usize)> = (1..n).map(|i| (i - 1, i)).collect();
    edges.extend((0..n).map(|i| (i, n)));
    Graph::new(format!("Fan_{n}"), names, &edges).map_err(|e| e.to_string())
}

static FAN_FAMILY: GraphFamily = GraphFamily {
    head: "Fan",
    doc: FamilyDoc {
        syntax: "Fan_n",
        example: "Fan_4",
        meaning: "fan: path v1..vn and a hub h adjacent to all",
    },
    build: fan,
};

// ---- a spec kind: `kind: positions` states how many positions a game has ----

/// Its raw form (stage one of the reader: serde, unknown keys refused).
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct RawPositions {
    /// The game, in the expression language.
    game: String,
    /// How many positions are reachable from its start (the start included).
    count: u64,
}

/// Its model (stage two: the game parsed and the count kept).
#[derive(Debug)]
struct Positions {
    id: String,
    file: String,
    source: String,
    expect: grundy::check::Expectation,
    game: String,
    count: u64,
}

fn validate_positions(
    src: &grundy::spec::Source,
    id: &str,
    h: &grundy::spec::header::RawHeader,
    raw: RawPositions,
) -> Result<grundy::spec::Spec, grundy::spec::SpecError> {
    parse_game(&raw.game, ParseOptions::default())
        .map_err(|e| src.error_at(0, 0, 1, format!("`{}`: {e}", raw.game), None))?;
    let positions = Positions {
        id: id.to_string(),
        file: src.file.to_string(),
        source: h.source.value().clone(),
        expect: grundy::spec::expectation(src, h)?,
        game: raw.game,
        count: raw.count,
    };
    Ok(grundy::spec::Spec::new(positions, Vec::new()))
}

impl grundy::check::kind::SpecKind for Positions {
    fn kind(&self) -> &'static str {
        "positions"
    }
    fn id(&self) -> &str {
        &self.id
    }
    fn file(&self) -> &str {
        &self.file
    }
    fn source(&self) -> &str {
        &self.source
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn check(
        &self,
        _ctx: &grundy::check::kind::Context,
    ) -> Result<grundy::check::kind::Checked, grundy::check::CheckError> {
        use grundy::check::{Counterexample, Report, Verdict};
        let game = parse_game(&self.game, ParseOptions::default()).expect("read at validation");
        let n = grundy::solve::reachable_order(&game, &[game.start()], 1 << 20, false)
            .map_err(|message| grundy::check::CheckError {
                loc: grundy::check::Loc {
                    file: self.file.clone(),
                    line: 0,
                    column: 0,
                },
                message,
            })?
            .len() as u64;
        let verdict = if n == self.count {
            Verdict::Holds
        } else {
            Verdict::Refuted {
                counterexample: Counterexample {
                    instance: String::new(),
                    game: self.game.clone(),
                    position: None,
                    claimed: format!("{} positions", self.count),
                    computed: format!("{n} positions"),
                    evidence: Vec::new(),
                },
            }
        };
        let report = Report {
            id: self.id.clone(),
            kind: "positions".into(),
            source: self.source.clone(),
            file: self.file.clone(),
            instances: 1,
            positions: n,
            range: String::new(),
            expect: self.expect,
            as_expected: verdict.matches(self.expect),
            verdict,
            notes: None,
            coverage: Vec::new(),
            rests_on: Vec::new(),
            companion: None,
            excused: None,
            identity: None,
            laws: None,
            seconds: 0.0,
        };
        Ok(grundy::check::kind::Checked::new(report))
    }
}

const POSITIONS_KIND: grundy::kinds::KindEntry = grundy::kinds::KindEntry {
    name: "positions",
    parse: |src, id| grundy::spec::parse_with(src, id, validate_positions),
    schema: |g| g.subschema_for::<grundy::spec::header::WithHeader<RawPositions>>(),
};

fn registry() -> Registry {
    let r = Registry::builtin()
        .with_closure(&P3_CLOSURE)
        .with_family(&TAKE_FAMILY)
        .with_graph_family(&FAN_FAMILY)
        .with_kind(POSITIONS_KIND);
    r.install().expect("the names are new");
    r
}

fn solve(text: &str, closure: Closure) -> u32 {
    let game = parse_game(text, ParseOptions { closure }).unwrap_or_else(|e| panic!("{text}: {e}"));
    nim(&game, &Options::quiet()).unwrap_or_else(|_| panic!("{text} is solved"))
}

// ---- brute force, from the definitions only ----

/// The P3 hull of `s`: add every vertex with two neighbours inside until none is left.
fn p3_hull(g: &Graph, s: u64) -> u64 {
    let mut cur = s;
    loop {
        let add = (0..g.n())
            .filter(|&v| cur >> v & 1 == 0 && (g.adj(v) & cur).count_ones() >= 2)
            .fold(0u64, |m, v| m | 1 << v);
        if add == 0 {
            return cur;
        }
        cur |= add;
    }
}

fn mex(values: impl IntoIterator<Item = u32>) -> u32 {
    let v: Vec<u32> = values.into_iter().collect();
    (0..).find(|k| !v.contains(k)).unwrap_or(0)
}

/// The four closure games by their definitions (docs/design.md, "Closure games"): positions
/// are the selected sets; building selects a vertex, removing one; legal sets are the
/// non-generating (building) or the nonterminating ones (removing: the unselected generate).
/// Achievement games (GEN, TER) allow a move to an illegal set, which ends the game with the
/// mover winning; avoidance games (DNG, DNT) do not.
fn brute(g: &Graph, word: &str) -> u32 {
    let full = g.full();
    let generates = |s: u64| p3_hull(g, s) == full;
    let building = matches!(word, "GEN" | "DNG");
    let achievement = matches!(word, "GEN" | "TER");
    let legal = |p: u64| {
        if building {
            !generates(p)
        } else {
            generates(full & !p)
        }
    };
    fn rec(
        p: u64,
        n: usize,
        legal: &dyn Fn(u64) -> bool,
        achievement: bool,
        memo: &mut HashMap<u64, u32>,
    ) -> u32 {
        if let Some(&v) = memo.get(&p) {
            return v;
        }
        let mut vals = Vec::new();
        for v in 0..n {
            if p >> v & 1 == 1 {
                continue;
            }
            let q = p | 1 << v;
            if legal(q) {
                vals.push(rec(q, n, legal, achievement, memo));
            } else if achievement {
                vals.push(0);
            }
        }
        let m = mex(vals);
        memo.insert(p, m);
        m
    }
    if !legal(0) {
        return 0;
    }
    rec(0, g.n(), &legal, achievement, &mut HashMap::new())
}

fn take_brute(n: u32) -> u32 {
    let mut g = vec![0u32; n as usize + 1];
    for k in 1..=n as usize {
        g[k] = mex([1, 3, 4].iter().filter(|&&t| t <= k).map(|&t| g[k - t]));
    }
    g[n as usize]
}

#[test]
fn a_graph_family_from_outside_is_named_solved_and_listed() {
    registry();
    // The fan by name is the graph built here by hand, and its games agree with brute force
    // under the registered closure and the hull alike.
    for n in 1..=6u64 {
        let name = format!("Fan_{n}");
        let g = parse_graph(&name).unwrap();
        assert_eq!(g.n(), n as usize + 1, "{name}");
        assert_eq!(g.edges().len(), 2 * n as usize - 1, "{name}");
        for word in ["GEN", "DNG", "TER", "DNT"] {
            let p3 = Closure::named("p3").unwrap();
            assert_eq!(
                solve(&format!("{word}({name})"), p3),
                brute(&g, word),
                "{word}({name})"
            );
        }
    }
    // Listed where the built-in families are (solve --help, the guide's language page);
    // refused as the built-ins refuse bad parameters; a taken head is refused.
    assert!(grundy::expr::language_help().contains("Fan_n"));
    assert!(parse_graph("Fan_0").is_err());
    assert!(parse_graph("Fan_{1,2}").is_err());
    static TAKEN: GraphFamily = GraphFamily {
        head: "W",
        doc: FamilyDoc {
            syntax: "W_n",
            example: "W_5",
            meaning: "a second wheel",
        },
        build: fan,
    };
    assert!(Registry::builtin()
        .with_graph_family(&TAKEN)
        .install()
        .is_err());
}

#[test]
fn a_closure_from_outside_agrees_with_brute_force() {
    registry();
    let p3 = Closure::named("p3").expect("registered");
    assert!(!p3.geodesic() && !p3.geodesic_on_complete_multipartite());
    // K_3, K_4, K_{2,3} and K_{1,1,2} are complete multipartite: the part-count fast path
    // would be wrong here, since P3 intervals are not geodesic ones.
    let graphs = [
        "K_3",
        "K_4",
        "K_{2,3}",
        "K_{1,1,2}",
        "C_5",
        "C_6",
        "P_5",
        "W_5",
        "Kite",
        "Q_3",
        "Grid_{2,3}",
        "Spider_{1,2,2}",
    ];
    let mut compared = 0;
    for name in graphs {
        let g = parse_graph(name).unwrap();
        for word in ["GEN", "DNG", "TER", "DNT"] {
            let want = brute(&g, word);
            let got = solve(&format!("{word}({name})"), p3);
            assert_eq!(got, want, "{word}({name}) under p3");
            compared += 1;
        }
    }
    assert_eq!(compared, 48);
    // The wrong variant: the same games under the convex hull differ somewhere (so the
    // comparison above could fail had the solver ignored the closure).
    let differs = graphs.iter().any(|name| {
        let g = parse_graph(name).unwrap();
        ["GEN", "DNG", "TER", "DNT"]
            .iter()
            .any(|w| solve(&format!("{w}({name})"), Closure::HULL) != brute(&g, w))
    });
    assert!(
        differs,
        "the hull and the P3 hull agree on every game tried"
    );
}

#[test]
fn a_game_family_from_outside_agrees_with_brute_force() {
    registry();
    for n in 0..60 {
        assert_eq!(
            solve(&format!("TAKE({n})"), Closure::HULL),
            take_brute(n),
            "TAKE({n})"
        );
    }
    assert_eq!(
        (0..7).map(take_brute).collect::<Vec<_>>(),
        [0, 1, 0, 1, 2, 3, 2]
    );
    // Sums and ordinal sums take it like any game.
    assert_eq!(solve("TAKE(5) + TAKE(4)", Closure::HULL), 3 ^ 2);
    // Its head is taken now: registering another family under it is refused.
    struct Again;
    impl Family for Again {
        fn heads(&self) -> &'static [&'static str] {
            &["TAKE"]
        }
        fn forms(&self) -> &'static [FormDoc] {
            FORMS
        }
        fn title(&self) -> &'static str {
            "again"
        }
        fn parse(&self, _: &str, _: &str, _: Closure) -> Result<Registered, String> {
            Err("never".into())
        }
    }
    static AGAIN: Again = Again;
    assert!(Registry::builtin().with_family(&AGAIN).install().is_err());
}

const CLAIMS: &str = r#"kind: claim
source: "Extension test"
statement: "Under the P3 hull, GEN(K_n) is a second-player win for n >= 3"
closure: p3
game: GEN(K_n)
params:
  n: 3..=8
nim: 0
"#;

const TAKE_CLAIM: &str = r#"kind: claim
source: "Extension test"
statement: "S(1,3,4) has the nim sequence 0,1,0,1,2,3,2 repeated"
game: TAKE(n)
params:
  n: 0..=40
nim: '[0, 1, 0, 1, 2, 3, 2][n % 7]'
"#;

fn build(dir: &std::path::Path, specs: &[(&str, String)]) -> u8 {
    let spec_dir = dir.join("specs");
    std::fs::create_dir_all(&spec_dir).unwrap();
    for (name, text) in specs {
        std::fs::write(spec_dir.join(format!("{name}.yaml")), text).unwrap();
    }
    let opts = BuildOptions {
        specs: spec_dir,
        templates: None,
        output: dir.join("out"),
        selection: Selection::All,
    };
    let (run, written) = build_with(&registry(), &opts).unwrap();
    if run.exit_code() == 0 {
        written.expect("the build writes its files");
    }
    run.exit_code()
}

/// The registered kind, about the registered game on the registered graph family: TER(Fan_3)
/// has 12 positions. By hand: I[v1, v3] is every vertex (paths v1 v2 v3 and v1 h v3), the
/// other pairs are adjacent, so a set generates iff it holds v1 and v3; the nonterminating
/// sets are the 4 subsets of {v2, h}, and one move past each of them lie the 8 terminating
/// sets {v1}, {v3}, {v1,v2}, {v2,v3}, {v1,h}, {v3,h}, {v1,v2,h}, {v2,v3,h}.
const POSITIONS_SPEC: &str = r#"kind: positions
source: Example
statement: TER(Fan_3) has 12 positions.
game: TER(Fan_3)
count: 12
"#;

/// The registered game's feature read by a predicate: at every reachable position of
/// TAKE(20), a heap that is a multiple of 7 plus 0 or 2 is a P-position.
const FEATURE_CLAIM: &str = r#"kind: claim
source: Example
statement: The P-positions of S(1,3,4) are the heaps 0 and 2 mod 7.
game: TAKE(20)
positions: reachable
outcome: 'if heap % 7 == 0 || heap % 7 == 2 { "P" } else { "N" }'
"#;

#[test]
fn a_spec_kind_and_a_feature_from_outside() {
    registry();
    // TER(Fan_3): the 12 positions counted by hand above.
    let g = parse_graph("Fan_3").unwrap();
    let game = parse_game("TER(Fan_3)", ParseOptions::default()).unwrap();
    let n = grundy::solve::reachable_order(&game, &[game.start()], 1000, false)
        .unwrap()
        .len();
    assert_eq!(g.n(), 4);
    assert_eq!(n, 12);
    let dir = tempfile::tempdir().unwrap();
    let specs = [
        ("fan_positions", POSITIONS_SPEC.to_string()),
        ("take_p_positions", FEATURE_CLAIM.to_string()),
    ];
    assert_eq!(build(dir.path(), &specs), 0);
    // `grundy schema` lists the kind.
    assert!(grundy::kinds::schema()
        .to_string()
        .contains("\"positions\""));
    // The wrong variants are refuted: 11 positions; the P-positions as 0 and 3 mod 7.
    for (name, wrong) in [
        (
            "fan_wrong",
            POSITIONS_SPEC.replace("count: 12", "count: 11"),
        ),
        (
            "take_wrong",
            FEATURE_CLAIM.replace("heap % 7 == 2", "heap % 7 == 3"),
        ),
    ] {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(build(dir.path(), &[(name, wrong)]), 1, "{name}");
    }
}

#[test]
fn specs_check_and_certify_the_registered_entries() {
    let dir = tempfile::tempdir().unwrap();
    let code = build(
        dir.path(),
        &[
            ("p3_complete", CLAIMS.to_string()),
            ("take", TAKE_CLAIM.to_string()),
        ],
    );
    assert_eq!(code, 0);
    // The closure game's certificate names the registered closure and lists its values.
    let cert: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("out/certificates/p3_complete.json")).unwrap(),
    )
    .unwrap();
    let instances = cert["instances"].as_array().expect("closure values");
    assert_eq!(instances.len(), 6);
    for i in instances {
        assert_eq!(i["closure"], "p3");
        assert_eq!(i["value"], 0);
        assert_eq!(i["claim"]["nim"], 0);
    }
    // The wrong variants are refuted: GEN(K_n) = 1 (the hull's answer for n = 3 does not
    // hold under P3) and S(1,3,4) with period 6.
    let dir = tempfile::tempdir().unwrap();
    let wrong = CLAIMS.replace("nim: 0", "nim: 1");
    assert_eq!(build(dir.path(), &[("p3_wrong", wrong)]), 1);
    let dir = tempfile::tempdir().unwrap();
    let wrong = TAKE_CLAIM.replace("[n % 7]", "[n % 6]");
    assert_eq!(build(dir.path(), &[("take_wrong", wrong)]), 1);
}
