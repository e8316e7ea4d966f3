//! The checker: decides every claim of a spec against exhaustive solving (docs/design.md §2) and
//! produces typed reports. It never reads files, YAML or templates: specs arrive as validated
//! model types from `spec`, reports leave as data for `render` and the CLI.

pub mod certificate;
pub mod claim;
pub mod diagram;
pub mod fast_expr;
pub mod figure;
pub mod formula;
pub mod header;
pub mod kind;
pub mod premises;
pub mod reduction;
pub mod sequence;
pub mod set_helpers;
pub mod sets;
pub mod signatures;
pub mod structure_figure;
pub mod table;
pub mod teeth;
pub mod trail_helpers;

use serde::{Deserialize, Serialize};
use std::fmt;
use thiserror::Error;

/// Where a spec field came from, for errors found only while checking (an instance whose game
/// does not parse, a formula that fails on some instance).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Loc {
    pub file: String,
    pub line: u64,
    pub column: u64,
}

impl fmt::Display for Loc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.column)
    }
}

/// Bad input discovered while checking: the claim cannot be decided as written.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[error("{loc}: {message}")]
pub struct CheckError {
    pub loc: Loc,
    pub message: String,
}

/// What the spec expects of a claim: the paper's errata stay as stated, marked `refuted`,
/// with the reason a statement of the paper is refuted (docs/design.md §2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(into = "ExpectView", try_from = "ExpectView")]
pub enum Expectation {
    #[default]
    Holds,
    Refuted(Because),
}

/// Why a spec is expected to be refuted: the paper is wrong (`erratum`), or the spec reads the
/// paper in a way it does not intend and the paper, read as meant, is right (`reading`: e.g.
/// Prop 5.23's preperiod 68 read as the least one).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Because {
    Erratum,
    Reading,
}

impl Because {
    pub fn parse(s: &str) -> Option<Because> {
        match s {
            "erratum" => Some(Because::Erratum),
            "reading" => Some(Because::Reading),
            _ => None,
        }
    }
}

/// How an expectation is written into report.json: `expect` and, for refuted ones, `because`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ExpectView {
    pub expect: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub because: Option<Because>,
}

impl From<Expectation> for ExpectView {
    fn from(e: Expectation) -> ExpectView {
        match e {
            Expectation::Holds => ExpectView {
                expect: "holds".into(),
                because: None,
            },
            Expectation::Refuted(b) => ExpectView {
                expect: "refuted".into(),
                because: Some(b),
            },
        }
    }
}

/// Read back from an earlier report.json (`build --only`).
impl TryFrom<ExpectView> for Expectation {
    type Error = String;
    fn try_from(v: ExpectView) -> Result<Expectation, String> {
        match (v.expect.as_str(), v.because) {
            ("holds", None) => Ok(Expectation::Holds),
            ("refuted", Some(b)) => Ok(Expectation::Refuted(b)),
            (e, b) => Err(format!("unknown expectation {e} ({b:?})")),
        }
    }
}

/// A parameter value: an integer or a list (a multiset, the parts of K_{m1,...,mk}).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(untagged)]
pub enum ParamValue {
    Int(i64),
    List(Vec<i64>),
    /// A named object (a graph6 string) with its place in the enumeration as its size.
    Name(i64, String),
}

impl ParamValue {
    /// Size used to order instances from small to large.
    pub fn size(&self) -> i64 {
        match self {
            ParamValue::Int(i) => i.abs(),
            ParamValue::List(l) => l.iter().map(|x| x.abs()).sum(),
            ParamValue::Name(order, _) => *order,
        }
    }

    pub fn to_dynamic(&self) -> rhai::Dynamic {
        match self {
            ParamValue::Int(i) => rhai::Dynamic::from_int(*i),
            ParamValue::List(l) => {
                rhai::Dynamic::from_array(l.iter().map(|&x| rhai::Dynamic::from_int(x)).collect())
            }
            ParamValue::Name(_, s) => rhai::Dynamic::from(s.clone()),
        }
    }
}

/// How a value appears when substituted into a game expression: `7`, or `1,2,2` for lists.
impl fmt::Display for ParamValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamValue::Int(i) => write!(f, "{i}"),
            ParamValue::List(l) => {
                let s: Vec<String> = l.iter().map(i64::to_string).collect();
                f.write_str(&s.join(","))
            }
            ParamValue::Name(_, s) => f.write_str(s),
        }
    }
}

/// A named parameter with its finite range, and the range as the spec wrote it.
#[derive(Clone, Debug)]
pub struct Param {
    pub name: String,
    pub values: Vec<ParamValue>,
    pub text: String,
}

/// One assignment of values to parameters.
pub type Instance = Vec<(String, ParamValue)>;

/// Every combination of parameter values, smallest first (by total size, then values).
pub fn instances(params: &[Param]) -> Vec<Instance> {
    let mut out: Vec<Instance> = vec![vec![]];
    for p in params {
        out = out
            .into_iter()
            .flat_map(|prefix| {
                p.values.iter().map(move |v| {
                    let mut i = prefix.clone();
                    i.push((p.name.clone(), v.clone()));
                    i
                })
            })
            .collect();
    }
    out.sort_by(|a, b| {
        let sa: i64 = a.iter().map(|(_, v)| v.size()).sum();
        let sb: i64 = b.iter().map(|(_, v)| v.size()).sum();
        sa.cmp(&sb)
            .then_with(|| a.iter().map(|(_, v)| v).cmp(b.iter().map(|(_, v)| v)))
    });
    out
}

/// "m in 2..=8, n in 4..=12".
pub fn describe_range(params: &[Param]) -> String {
    if params.is_empty() {
        return "single instance".into();
    }
    params
        .iter()
        .map(|p| format!("{} in {}", p.name, p.text))
        .collect::<Vec<_>>()
        .join(", ")
}

/// "m=2, n=5".
/// `instance n=2, m=3: ` to begin a message about one instance, or nothing for a spec
/// without parameters (its one instance has no name: the messages read `instance : …`).
pub fn at_instance(i: &Instance) -> String {
    if i.is_empty() {
        String::new()
    } else {
        format!("instance {}: ", describe_instance(i))
    }
}

pub fn describe_instance(i: &Instance) -> String {
    i.iter()
        .map(|(k, v)| format!("{k}={}", v_show(v)))
        .collect::<Vec<_>>()
        .join(", ")
}

fn v_show(v: &ParamValue) -> String {
    match v {
        ParamValue::Int(i) => i.to_string(),
        ParamValue::List(_) => format!("[{v}]"),
        ParamValue::Name(_, s) => s.clone(),
    }
}

/// Substitutes an instance into a game template (whole words only).
pub fn instantiate(template: &str, inst: &Instance) -> String {
    crate::expr::substitute(template, inst)
}

/// An exact counterexample to a claim.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Counterexample {
    /// The instance, e.g. "n=3".
    pub instance: String,
    /// The game of the instance, e.g. "TER(K_{1,3})".
    pub game: String,
    /// The position, when the claim is about positions rather than the start.
    pub position: Option<String>,
    pub claimed: String,
    pub computed: String,
    /// The options of the position with their values (the evidence for the computed value).
    pub evidence: Vec<String>,
}

impl fmt::Display for Counterexample {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // A single instance has no label of its own: the game names it.
        if self.instance.is_empty() {
            write!(f, "{}", self.game)?;
        } else {
            write!(f, "{}: {}", self.instance, self.game)?;
        }
        if let Some(p) = &self.position {
            write!(f, " at position {p}")?;
        }
        write!(f, ": claimed {}, computed {}", self.claimed, self.computed)?;
        if !self.evidence.is_empty() {
            write!(f, "; evidence: {}", self.evidence.join(", "))?;
        }
        Ok(())
    }
}

/// What one instance of a spec gave.
pub enum InstanceResult {
    /// Not selected by the spec's predicate.
    Skipped,
    /// Agreed, after examining this many positions (or tokens).
    Agreed(u64),
    Refuted(Counterexample),
}

/// Folds per-instance results given smallest first: the instances and positions checked, and
/// the verdict, which names the first (smallest) counterexample. An error of any instance
/// before it is bad input. Zero selected instances would make the claim hold vacuously, so
/// `vacuous` turns that into an error.
pub fn tally(
    results: impl IntoIterator<Item = Result<InstanceResult, CheckError>>,
    vacuous: impl FnOnce() -> CheckError,
) -> Result<(u64, u64, Verdict), CheckError> {
    let (mut checked, mut positions) = (0u64, 0u64);
    for r in results {
        match r? {
            InstanceResult::Skipped => {}
            InstanceResult::Agreed(p) => {
                checked += 1;
                positions += p;
            }
            InstanceResult::Refuted(cx) => {
                return Ok((
                    checked + 1,
                    positions + 1,
                    Verdict::Refuted { counterexample: cx },
                ));
            }
        }
    }
    if checked == 0 {
        return Err(vacuous());
    }
    Ok((checked, positions, Verdict::Holds))
}

/// The verdict on one spec.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(tag = "verdict", rename_all = "lowercase")]
pub enum Verdict {
    Holds,
    Refuted {
        counterexample: Counterexample,
    },
    /// The spec cannot be decided as written (exit 2); the other specs are still checked.
    #[serde(rename = "bad input")]
    BadInput {
        error: String,
    },
}

impl Verdict {
    pub fn holds(&self) -> bool {
        matches!(self, Verdict::Holds)
    }
    pub fn matches(&self, e: Expectation) -> bool {
        match self {
            Verdict::BadInput { .. } => false,
            _ => self.holds() == (e == Expectation::Holds),
        }
    }
}

/// The result of checking one spec.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Report {
    pub id: String,
    pub kind: String,
    pub source: String,
    pub file: String,
    /// Instances (parameter assignments) checked.
    pub instances: u64,
    /// Positions examined (for claims over positions; equals instances otherwise).
    pub positions: u64,
    pub range: String,
    #[serde(flatten)]
    pub expect: Expectation,
    #[serde(flatten)]
    pub verdict: Verdict,
    pub as_expected: bool,
    pub notes: Option<String>,
    /// How many instances and positions reached each part of the claim (docs/design.md §2).
    #[serde(default)]
    pub coverage: Vec<PartCoverage>,
    /// The specs the verdict rests on (`uses:`), each holding (docs/design.md §2, premises).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rests_on: Vec<premises::Premise>,
    /// The companion an expected refutation is pinned to (`corrected_by` or `read_as`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub companion: Option<premises::Premise>,
    /// The parts of a holding claim excused as unreached (`unreached:`), said with the
    /// verdict: "2 of 5 cases excused as unreached" (issue 42 item 2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub excused: Option<String>,
    /// What the spec's structure was checked to be (`is:`): "its group is Dih(Z_3 x Z_3),
    /// checked by isomorphism (order 18, …)" (issue 42 item 4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub identity: Option<String>,
    /// The laws a game spec declares and the verdict rests on, checked but not proved
    /// (docs/user-games.md, "Declared laws"): "rests on UNKS's declared laws (…)".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub laws: Option<String>,
    /// Wall-clock seconds (not written into artifacts, which must be deterministic).
    #[serde(skip, default)]
    pub seconds: f64,
}

impl Report {
    /// The report of a spec that could not be checked: `e` is its bad input (exit 2). The
    /// caller keeps checking the other specs, so one bad spec never hides the others.
    pub fn bad_input(id: &str, kind: &str, source: &str, file: &str, e: &CheckError) -> Report {
        Report {
            id: id.to_string(),
            kind: kind.to_string(),
            source: source.to_string(),
            file: file.to_string(),
            instances: 0,
            positions: 0,
            range: String::new(),
            expect: Expectation::Holds,
            verdict: Verdict::BadInput {
                error: e.to_string(),
            },
            as_expected: false,
            notes: None,
            coverage: Vec::new(),
            rests_on: Vec::new(),
            companion: None,
            excused: None,
            identity: None,
            laws: None,
            seconds: 0.0,
        }
    }

    /// 0 as expected, 1 refuted (or an erratum unexpectedly held, or a part unreached),
    /// 2 bad input.
    pub fn exit_code(&self) -> u8 {
        match (&self.verdict, self.as_expected) {
            (Verdict::BadInput { .. }, _) => 2,
            (_, true) => 0,
            (_, false) => 1,
        }
    }

    /// Applies docs/design.md §2 to a finished report: a part of the claim reached by no instance
    /// (and not marked `unreached:` with a reason) makes a claim that otherwise holds fail
    /// (exit 1), and so does a part marked unreached that some instance reaches (the mark is
    /// stale). A refuted claim keeps its counterexample: its check stopped early, so its
    /// coverage is partial.
    pub fn with_coverage(mut self, coverage: Vec<PartCoverage>) -> Report {
        self.coverage = coverage;
        if !self.verdict.holds() {
            return self;
        }
        let bad = self.coverage.iter().find(|c| match &c.unreached {
            None => c.instances == 0,
            Some(_) => c.instances > 0,
        });
        if let Some(c) = bad {
            let computed = match &c.unreached {
                None => format!("{} is reached by no instance", c.part),
                Some(why) => format!(
                    "{} is marked unreached ({why}) but {} instances reach it{}",
                    c.part,
                    c.instances,
                    c.first
                        .as_ref()
                        .map_or(String::new(), |f| format!(", the first {f}"))
                ),
            };
            self.verdict = Verdict::Refuted {
                counterexample: Counterexample {
                    instance: self.range.clone(),
                    game: self.source.clone(),
                    position: None,
                    claimed: "every part of the claim is exercised (docs/design.md §2)".into(),
                    computed,
                    evidence: Vec::new(),
                },
            };
            // Not the refutation an erratum expects: a coverage gap is never as expected.
            self.as_expected = false;
            return self;
        }
        let excused = self
            .coverage
            .iter()
            .filter(|c| c.unreached.is_some())
            .count();
        if excused > 0 {
            let all = self.coverage.len();
            let noun = if self.coverage.iter().all(|c| c.part.starts_with("case ")) {
                "cases"
            } else {
                "parts"
            };
            self.excused = Some(format!("{excused} of {all} {noun} excused as unreached"));
        }
        self
    }
}

/// How many instances and positions reached one part of a claim: a `cases` branch, a start
/// generator, a diagram node or arrow, a reduction claim, a certificate rule, a table row.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct PartCoverage {
    pub part: String,
    pub instances: u64,
    pub positions: u64,
    /// The spec's reason why no instance reaches this part (`unreached: <reason>`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unreached: Option<String>,
    /// The first instance (in the range's order: smallest first) that reaches this part, named
    /// by a stale `unreached:` mark's refutation (docs/design.md §2, excused parts).
    #[serde(skip)]
    pub first: Option<String>,
}

impl PartCoverage {
    pub fn new(part: impl Into<String>, unreached: Option<String>) -> PartCoverage {
        PartCoverage {
            part: part.into(),
            instances: 0,
            positions: 0,
            unreached,
            first: None,
        }
    }
}

/// Whether the memo solver ([`crate::solve::Solver`]), which the checkers run on every
/// position they compare, can solve `game`: the solver's budget estimate, and for edge
/// geography the exhaustive solver's own limits (its position encoding holds at most 128
/// edges). [`crate::solve::dispatch::precheck`] alone is not enough: it passes an edge
/// geography game whose outcome GF(2) decides, and the memo solver then answers a game its
/// encoding does not hold (a wrong "holds" at UEG(SP_{44,2}, (1,1)) before this guard).
pub fn memo_guard(game: &crate::game::AnyGame) -> Result<(), String> {
    memo_guard_within(game, &crate::solve::guard::Budget::default_for_machine())
}

/// [`memo_guard`] under another budget.
pub fn memo_guard_within(
    game: &crate::game::AnyGame,
    budget: &crate::solve::guard::Budget,
) -> Result<(), String> {
    crate::solve::dispatch::precheck(game, budget).map_err(|r| r.to_string())?;
    game.positions_refusal().map_or(Ok(()), Err)
}

/// [`memo_guard`] for checks that list every reachable position whole: a game that splits
/// positions into components (Node Kayles) memoises few of them but may reach many.
/// Most positions a walk over the reachable positions may visit: the machine's memory
/// budget (which follows RLIMIT_AS and cgroups) over [`crate::solve::REACHABLE_BYTES`].
pub fn reachable_cap() -> usize {
    crate::solve::guard::Budget::default_for_machine()
        .position_limit(crate::solve::REACHABLE_BYTES)
        .min(usize::MAX as u64) as usize
}

pub fn reachable_guard(game: &crate::game::AnyGame) -> Result<(), String> {
    let budget = crate::solve::guard::Budget::default_for_machine();
    crate::solve::dispatch::precheck_reachable(game, &budget).map_err(|r| r.to_string())?;
    game.positions_refusal().map_or(Ok(()), Err)
}

/// The worst exit code of a run: 2 if any spec is bad input, else 1 if any verdict is not as
/// expected, else 0.
pub fn worst_exit(reports: &[&Report]) -> u8 {
    reports.iter().map(|r| r.exit_code()).max().unwrap_or(0)
}

/// The per-spec check call of a run: a spec whose check fails with bad input becomes a
/// "bad input" report (exit 2) instead of stopping the run, so one bad spec never hides the
/// others. `check` is the kind's own check; `header` is (id, kind, source, file).
pub fn check_or_report<T>(
    header: (&str, &str, &str, &str),
    check: impl FnOnce() -> Result<T, CheckError>,
    report_of: impl FnOnce(Report) -> T,
) -> T {
    match check() {
        Ok(t) => t,
        Err(e) => report_of(Report::bad_input(
            header.0, header.1, header.2, header.3, &e,
        )),
    }
}

/// A report with its certificate status (see `crate::certify`): "certificate written: <path>"
/// or "not certified: <reason>". Whether the certificate verifies is for the independent
/// checker `grundy-verify` to say (it records its verdicts in certificates/VERIFIED.json).
#[derive(Clone, Debug, Serialize)]
pub struct CertifiedReport<'a> {
    #[serde(flatten)]
    pub report: &'a Report,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub certificate: Option<&'a str>,
    /// The independent checker's verdict on it, as certificates/VERIFIED.json records it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verified: Option<&'a str>,
    /// The spec's `sanity:` reason: it cannot fail on mathematical grounds, so the report
    /// shows it as a sanity check and does not count it among the results.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sanity: Option<&'a str>,
    /// What the spec checked in its own formal terms (`crate::render::html::checked_as`),
    /// for report.md's column beside the verdict and report.json.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub checked_as: String,
}

impl std::ops::Deref for CertifiedReport<'_> {
    type Target = Report;
    fn deref(&self) -> &Report {
        self.report
    }
}
