//! Premises and companions (docs/design.md §2): a verdict is only as good as what it rests on.
//!
//! After every spec of a run is checked, this pass decides, in the order of the `uses:` graph:
//! - **premises**: every `uses:` target is a spec of the run that holds (and is expected to);
//!   a spec resting on a refuted premise is refuted, on a missing or bad one bad input, and a
//!   cycle of `uses:` (or of companion links) is bad input for every spec on it. A spec that
//!   holds records what it rests on (`Report::rests_on`), transitively decided first;
//! - **companions** of expected refutations: `corrected_by: C` (an erratum) needs C to be a spec
//!   of the same kind that is expected to hold and holds, on the same range, and — where the
//!   kind can say what C claims at an instance — C's claim at the erratum's counterexample must
//!   be the computed value there, so the printed and the corrected claim disagree exactly where
//!   the printed one fails; `read_as: R` (a reading) needs R to be expected to hold and to hold.
//!   Both must ask the same question where the kind can say which
//!   ([`SpecKind::question`]: for claims the game, parameters renamed, and the closure).
//!   A broken pin is never "as expected".
//!
//! Nothing here reads files: the pipeline hands over the validated specs and their results.

use super::kind::{Checked, SpecKind};
use super::{CheckError, Counterexample, Expectation, Loc, Report, Verdict};
use crate::check::header::{Companion, Header};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::Arc;

/// One spec a verdict rests on, as the report shows it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Premise {
    pub id: String,
    pub source: String,
    /// "holds" (a premise that does not hold makes the report's own verdict fail).
    pub verdict: String,
    pub range: String,
    pub instances: u64,
    /// `uses`, `corrected_by` or `read_as`.
    pub link: String,
}

impl Premise {
    fn of(r: &Report, link: &str) -> Premise {
        Premise {
            id: r.id.clone(),
            source: r.source.clone(),
            verdict: if r.verdict.holds() {
                "holds"
            } else {
                "refuted"
            }
            .into(),
            range: r.range.clone(),
            instances: r.instances,
            link: link.into(),
        }
    }
}

/// "prop_5_22 (Prop 5.22, holds: n in 4..=34, 31 instances)".
pub fn describe(p: &Premise) -> String {
    let range = if p.range.is_empty() {
        String::new()
    } else {
        format!(": {}", p.range)
    };
    format!(
        "{} ({}, {}{range}, {} instance{})",
        p.id,
        p.source,
        p.verdict,
        p.instances,
        if p.instances == 1 { "" } else { "s" }
    )
}

/// What the pass needs of one spec of the run.
pub struct Node<'a> {
    pub header: &'a Header,
    pub body: &'a dyn SpecKind,
}

fn error_at(n: &Node, at: (u64, u64), message: String) -> CheckError {
    CheckError {
        loc: Loc {
            file: n.body.file().to_string(),
            line: at.0,
            column: at.1,
        },
        message,
    }
}

/// The targets of a spec's links: (id, link name, location).
fn links<'a>(n: &'a Node) -> Vec<(&'a str, &'static str, (u64, u64))> {
    let mut out: Vec<(&str, &'static str, (u64, u64))> = n
        .header
        .uses
        .iter()
        .enumerate()
        .map(|(i, u)| {
            (
                u.as_str(),
                "uses",
                n.header.uses_at.get(i).copied().unwrap_or((0, 0)),
            )
        })
        .collect();
    if let Some(c) = &n.header.companion {
        let link = match c {
            Companion::CorrectedBy(_) => "corrected_by",
            Companion::ReadAs(_) => "read_as",
        };
        out.push((c.id(), link, n.header.companion_at));
    }
    out
}

/// Applies premises and companions to the results of a run, in place (`results[i]` is the
/// result of `nodes[i]`).
pub fn apply(nodes: &[Node], results: &mut [Result<Checked, CheckError>]) {
    let index: HashMap<&str, usize> = nodes
        .iter()
        .enumerate()
        .map(|(i, n)| (n.body.id(), i))
        .collect();
    let mut state = vec![State::New; nodes.len()];
    for i in 0..nodes.len() {
        visit(i, nodes, &index, results, &mut state, &mut Vec::new());
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    New,
    Busy,
    Done,
}

fn visit(
    i: usize,
    nodes: &[Node],
    index: &HashMap<&str, usize>,
    results: &mut [Result<Checked, CheckError>],
    state: &mut [State],
    path: &mut Vec<usize>,
) {
    if state[i] != State::New {
        return;
    }
    state[i] = State::Busy;
    path.push(i);
    let n = &nodes[i];
    let mut failure: Option<Result<Counterexample, CheckError>> = None;
    let mut rests_on = Vec::new();
    let mut companion_of: Option<(usize, &'static str, (u64, u64))> = None;
    for (target, link, at) in links(n) {
        if target == n.body.id() {
            failure.get_or_insert(Err(error_at(
                n,
                at,
                format!("`{link}: {target}` names the spec itself"),
            )));
            continue;
        }
        let Some(&j) = index.get(target) else {
            failure.get_or_insert(Err(error_at(
                n,
                at,
                format!(
                    "`{link}: {target}`: no spec `{target}` in the specs folder of this run, so {} cannot rest on it",
                    n.body.id()
                ),
            )));
            continue;
        };
        if let Some(at_cycle) = path.iter().position(|&k| k == j) {
            let mut names: Vec<&str> = path[at_cycle..]
                .iter()
                .map(|&k| nodes[k].body.id())
                .collect();
            names.push(target);
            failure.get_or_insert(Err(error_at(
                n,
                at,
                format!(
                    "the links between specs form a cycle: {} (a result cannot rest on itself)",
                    names.join(" -> ")
                ),
            )));
            continue;
        }
        visit(j, nodes, index, results, state, path);
        if link != "uses" {
            companion_of = Some((j, link, at));
            continue;
        }
        match &results[j] {
            Err(e) => {
                failure.get_or_insert(Err(error_at(
                    n,
                    at,
                    format!(
                        "{} rests on `{target}`, which is bad input: {}",
                        n.body.id(),
                        e.message
                    ),
                )));
            }
            Ok(c)
                if !c.report.verdict.holds()
                    || !c.report.as_expected
                    || c.report.expect != Expectation::Holds =>
            {
                let mut why = match &c.report.verdict {
                    Verdict::Refuted { counterexample } => counterexample.to_string(),
                    _ => "it does not hold as expected".into(),
                };
                if c.report.expect != Expectation::Holds {
                    why = format!("a paper statement kept as printed, expected refuted: {why}");
                }
                failure.get_or_insert(Ok(Counterexample {
                    instance: format!("premise {target}"),
                    game: c.report.source.clone(),
                    position: None,
                    claimed: format!("every premise of {} holds", n.body.id()),
                    computed: format!("its premise {target} is refuted ({why})"),
                    evidence: Vec::new(),
                }));
            }
            Ok(c) => rests_on.push(Premise::of(&c.report, "uses")),
        }
    }
    // The companion of an expected refutation.
    if failure.is_none() {
        if let Some((j, link, at)) = companion_of {
            if let Some(f) = companion_failure(n, &nodes[j], &results[j], link, at, results, i) {
                failure = Some(f);
            }
        }
    }
    let companion = companion_of.and_then(|(j, link, _)| {
        results[j]
            .as_ref()
            .ok()
            .map(|cc| Premise::of(&cc.report, link))
    });
    if let Ok(c) = &mut results[i] {
        c.report.rests_on = rests_on;
        c.report.companion = companion;
    }
    match failure {
        None => {}
        Some(Err(e)) => results[i] = Err(e),
        Some(Ok(cx)) => {
            if let Ok(c) = &mut results[i] {
                // A spec expected to hold that is refuted on its own keeps its own
                // counterexample; otherwise the failed premise or pin is the reason shown.
                if c.report.verdict.holds() || c.report.expect != Expectation::Holds {
                    if c.report.verdict.holds() {
                        c.certificate = Some(Arc::new(Err(
                            "the verdict rests on a premise that does not hold".into(),
                        )));
                    }
                    c.report.verdict = Verdict::Refuted { counterexample: cx };
                }
                c.report.as_expected = false;
            }
        }
    }
    path.pop();
    state[i] = State::Done;
}

/// Why an expected refutation's companion does not pin it, if it does not.
fn companion_failure(
    n: &Node,
    c: &Node,
    cr: &Result<Checked, CheckError>,
    link: &str,
    at: (u64, u64),
    results: &[Result<Checked, CheckError>],
    i: usize,
) -> Option<Result<Counterexample, CheckError>> {
    let id = c.body.id();
    let bad = |m: String| Some(Err(error_at(n, at, m)));
    let cc = match cr {
        Err(e) => return bad(format!("`{link}: {id}` is bad input: {}", e.message)),
        Ok(cc) => cc,
    };
    if cc.report.expect != Expectation::Holds || c.header.companion.is_some() {
        return bad(format!(
            "`{link}: {id}` names a spec that is itself expected refuted: the companion states what holds"
        ));
    }
    if c.body.source() != n.body.source() {
        return bad(format!(
            "`{link}: {id}` is about {}, this spec about {}: a companion states the same numbered result, corrected or read as meant",
            c.body.source(),
            n.body.source()
        ));
    }
    if link == "corrected_by" && c.body.kind() != n.body.kind() {
        return bad(format!(
            "`corrected_by: {id}` is a {} spec; the correction of a {} spec is a {} spec on the same range",
            c.body.kind(),
            n.body.kind(),
            n.body.kind()
        ));
    }
    if let (Some(q), Some(theirs)) = (n.body.question(), c.body.question()) {
        if q != theirs {
            return bad(format!(
                "`{link}: {id}` asks about {theirs}, this spec about {q}: a companion answers the same question (the same game, parameters renamed, under the same closure)"
            ));
        }
    }
    let Ok(own) = &results[i] else {
        return None;
    };
    if link == "corrected_by" && !covers(c.body, n.body, &cc.report, &own.report) {
        return bad(format!(
            "`corrected_by: {id}` is checked on {}, this erratum on {}: the corrected claim must hold on (at least) the same range",
            show_range(&cc.report.range),
            show_range(&own.report.range)
        ));
    }
    let unpinned = |why: String| {
        Some(Ok(Counterexample {
            instance: format!("{link} {id}"),
            game: own.report.source.clone(),
            position: None,
            claimed: format!("{} is pinned by `{link}: {id}`", n.body.id()),
            computed: why,
            evidence: Vec::new(),
        }))
    };
    if !cc.report.verdict.holds() || !cc.report.as_expected {
        let why = match &cc.report.verdict {
            Verdict::Refuted { counterexample } => counterexample.to_string(),
            _ => "it does not hold as expected".into(),
        };
        return unpinned(format!("its companion {id} does not hold: {why}"));
    }
    if link != "corrected_by" {
        return None;
    }
    // The printed and the corrected claim must disagree at the counterexample, and the
    // correction must claim there what was computed.
    let Verdict::Refuted { counterexample: cx } = &own.report.verdict else {
        return None;
    };
    if cx.position.is_some() {
        return None;
    }
    match c.body.claimed_at(&cx.instance) {
        None => None,
        Some(Err(why)) => unpinned(format!(
            "the correction {id} says nothing at the counterexample {}: {why}",
            cx.instance
        )),
        Some(Ok(said)) => {
            let computed = cx.computed.split_whitespace().next().unwrap_or("");
            if said == computed {
                None
            } else {
                unpinned(format!(
                    "at the counterexample {} the correction {id} claims {said}, but {computed} was computed there: the printed and the corrected claim must disagree where the printed one fails, and the correction must be right there",
                    cx.instance
                ))
            }
        }
    }
}

fn show_range(r: &str) -> String {
    if r.is_empty() {
        "its single instance".into()
    } else {
        format!("`{r}`")
    }
}

/// Whether the correction `c` is checked on at least the range of the erratum `e`: the same
/// parameters, each with a superset of the values; for kinds without parameters, the same
/// range as described.
fn covers(c: &dyn SpecKind, e: &dyn SpecKind, cr: &Report, er: &Report) -> bool {
    match (c.params(), e.params()) {
        (Some(cp), Some(ep)) => {
            cp.len() == ep.len()
                && ep.iter().all(|p| {
                    cp.iter()
                        .find(|q| q.name == p.name)
                        .is_some_and(|q| p.values.iter().all(|v| q.values.contains(v)))
                })
        }
        _ => cr.range == er.range,
    }
}
