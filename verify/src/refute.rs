//! Refutations re-derived (issue 43): a refuted verdict's certificate names its counterexample
//! instance and carries the evidence there, checked entry by entry like any certificate
//! ([`crate::checks`]: a nim table by mex, a closure game's value, an octal period proof).
//! Here the verifier re-derives, from the spec itself, that the claim fails there: the
//! instance is one the spec names (after `let` and `where`), its game is the one the spec's
//! name builds, and the spec's formula, evaluated by the verifier, differs from the value the
//! evidence establishes (at the start, or at some position the claim selects). A refutation
//! whose counterexample satisfies the claim is rejected. For a sequence, the numbers the spec
//! states are checked against the proved sequence and must fail. A play of a `certificate`
//! spec is walked from the spec ([`crate::plays`]) and must fail at the counterexample.

use crate::checks::{ClosureEntry, Evidence, OctalFact, TableFact};
use crate::derive::{all_instances, claimed, env_at, show, Inst, Stop};
use crate::exempt::{agrees, explore, selected, stated};
use crate::formula::engine;
use crate::games::Game;
use crate::games::Rules;
use crate::names::substitute;
use crate::spec::Raw;

/// Re-derives that the spec's claim fails at `instance`: what fails, or why not.
pub fn derive(raw: &Raw, instance: &str, ev: &Evidence) -> Result<String, Stop> {
    match (raw.kind.as_str(), ev) {
        ("claim", Evidence::Tables(t)) => table(raw, instance, t),
        ("claim", Evidence::Closures(c)) => closure(raw, instance, c),
        ("sequence", Evidence::Octal(o)) => sequence(raw, o),
        ("certificate", Evidence::SpecPlay) => spec_play(raw, instance),
        ("certificate", Evidence::PrintedConstruction) => printed_construction(raw, instance),
        ("diagram", Evidence::DiagramSearch) => crate::diagram_search::refuted(raw, instance),
        ("table", Evidence::Signatures(_, c)) => {
            crate::signatures::refuted(raw, instance, c.as_deref())
        }
        (kind, _) => Err(Stop::Reject(format!(
            "a refutation with this evidence does not answer a `kind: {kind}` spec"
        ))),
    }
}

/// The counterexample as an instance of the spec (by its label, as grundy writes it).
fn instance_of(raw: &Raw, label: &str) -> Result<Inst, Stop> {
    all_instances(raw)?
        .into_iter()
        .find(|i| i.label == label)
        .ok_or_else(|| {
            Stop::Reject(format!(
                "the counterexample {label} is not an instance of the spec"
            ))
        })
}

/// The one item a refutation carries (a table, a closure entry), which must be of the
/// counterexample's instance.
fn the_counterexamples<'a, T>(
    items: &'a [T],
    what: &str,
    label: &str,
    instance: impl Fn(&T) -> &String,
) -> Result<&'a T, Stop> {
    let [item] = items else {
        return Err(Stop::Reject(format!(
            "a refutation carries the {what} of its counterexample only ({} given)",
            items.len()
        )));
    };
    if instance(item) != label {
        return Err(Stop::Reject(format!(
            "the {what} is of instance {}, the counterexample is {label}",
            instance(item)
        )));
    }
    Ok(item)
}

/// The counterexample's instance and the spec's game named there.
fn game_at(raw: &Raw, label: &str) -> Result<(Inst, String), Stop> {
    let template = raw
        .game
        .as_ref()
        .ok_or_else(|| Stop::Not("no `game`".into()))?;
    let inst = instance_of(raw, label)?;
    let name = substitute(template, &inst.names);
    Ok((inst, name))
}

fn holds_there(label: &str, what: String) -> Stop {
    Stop::Reject(format!(
        "the claim holds at the counterexample {label}: {what}"
    ))
}

fn table(raw: &Raw, label: &str, facts: &[TableFact]) -> Result<String, Stop> {
    if raw.holds.is_some() {
        return Err(Stop::Not("a `holds` predicate reads game features".into()));
    }
    if raw.closure.as_deref().is_some_and(|c| c != "hull") {
        return Err(Stop::Not(
            "games under another closure than the hull".into(),
        ));
    }
    let f = the_counterexamples(facts, "table", label, |f| &f.instance)?;
    let e = engine();
    let (value, outcome) = stated(raw)?;
    let (inst, name) = game_at(raw, label)?;
    let game = Game::parse(&name).map_err(Stop::Not)?;
    let rules = Rules::new(&game).map_err(Stop::Not)?;
    if rules.misere() && !outcome {
        return Err(Stop::Reject(format!(
            "{name} is played misère, whose nim-values do not add and are not claimed: only `outcome:` claims are re-derived for it"
        )));
    }
    if !game.same(&f.game) {
        return Err(Stop::Reject(format!(
            "the table's game is not the spec's {name}"
        )));
    }
    let positions = match raw.positions.as_deref() {
        None | Some("start") => vec![rules.start()],
        Some("reachable") => explore(&rules, f.values.len() + 1, false)
            .map_err(|e| Stop::Reject(format!("{name}: {e}")))?
            .ok_or_else(|| Stop::Reject(format!("the table of {name} is not closed")))?,
        Some(p) => return Err(Stop::Not(format!("positions `{p}`"))),
    };
    let mut selected_any = false;
    // The misère transform's ⊥ is no position of the game.
    for p in positions.iter().filter(|p| !rules.hidden(p)) {
        let env = env_at(&e, raw, &inst, &rules, p)?;
        if !selected(&e, raw, &env)? {
            continue;
        }
        selected_any = true;
        let v = *f
            .values
            .get(p)
            .ok_or_else(|| Stop::Reject(format!("{p:?} is not in the table of {name}")))?;
        let want = claimed(&e, &env, &value, outcome)?;
        if !agrees(&want, outcome, v)? {
            let at = if positions.len() == 1 {
                String::new()
            } else {
                format!(" at {p:?}")
            };
            // Played misère, the table's value is the transform's: only its outcome is the game's.
            let has = match rules.misere() {
                true => format!("the misère outcome {}", if v == 0 { "P" } else { "N" }),
                false => format!("nim-value {v}"),
            };
            return Ok(format!(
                "the claim fails at {label}: {name} has {has}{at} by the table, the spec states {}",
                show(&want)
            ));
        }
    }
    Err(if selected_any {
        holds_there(
            label,
            format!("{name} has the value the spec states at every position it selects"),
        )
    } else {
        Stop::Reject(format!(
            "the claim selects no position of the counterexample {label}"
        ))
    })
}

fn closure(raw: &Raw, label: &str, entries: &[ClosureEntry]) -> Result<String, Stop> {
    use crate::closure::Ground;
    if raw.holds.is_some() {
        return Err(Stop::Not("a `holds` predicate".into()));
    }
    let entry = the_counterexamples(entries, "entry", label, |e| &e.instance)?;
    let e = engine();
    let (value, outcome) = stated(raw)?;
    let (inst, name) = game_at(raw, label)?;
    let mut game = match crate::closure::parse(&name, raw.closure.as_deref()) {
        None => {
            return Err(Stop::Not(format!(
                "{name} is not a closure game the verifier builds"
            )))
        }
        Some(Err(why)) => return Err(Stop::Not(format!("{name}: {why}"))),
        Some(Ok(g)) => g,
    };
    if game.maximal.is_none() {
        if let Err(Some(why)) = game.adopt_checked(&entry.maximal_sets) {
            return Err(Stop::Reject(format!("{name}: {why}")));
        }
    }
    // The value is the verifier's own; the entry's must agree.
    let v = match &game.ground {
        Ground::Counts(c) => c.solve().map(|s| s.value),
        _ if game.maximal.is_some() => game.value().map(|v| v.0),
        _ => Err("past the verifier's budget".into()),
    }
    .map_err(|why| Stop::Not(format!("{name}: {why}")))?;
    if entry.value != v {
        return Err(Stop::Reject(format!(
            "the certificate states nim({name}) = {}, the verifier computes {v}",
            entry.value
        )));
    }
    let env = crate::derive::closure_env(&e, raw, &inst.env, &game)?;
    if !selected(&e, raw, &env)? {
        return Err(Stop::Reject(format!(
            "the spec's `where` does not select the counterexample {label}"
        )));
    }
    let want = claimed(&e, &env, &value, outcome)?;
    if agrees(&want, outcome, v)? {
        return Err(holds_there(
            label,
            format!("nim({name}) = {v} by the verifier, as the spec states"),
        ));
    }
    Ok(format!(
        "the claim fails at {label}: nim({name}) = {v} by the verifier, the spec states {}",
        show(&want)
    ))
}

fn sequence(raw: &Raw, o: &OctalFact) -> Result<String, Stop> {
    let code = raw
        .octal
        .as_deref()
        .ok_or_else(|| Stop::Not("a sequence spec without `octal`".into()))?;
    if code != o.code {
        return Err(Stop::Reject(format!(
            "the certificate is for the octal game {}, the spec states {code}",
            o.code
        )));
    }
    let values = raw
        .values
        .as_ref()
        .map(crate::derive::listed_values)
        .transpose()?;
    match o.check_stated(
        values.as_deref(),
        raw.period,
        raw.preperiod,
        raw.least_preperiod.unwrap_or(false),
    ) {
        Ok(()) => Err(Stop::Reject(format!(
            "every number the spec states holds for {code} (values, period, preperiod)"
        ))),
        Err(why) => Ok(format!("the statement fails for {code}: {why}")),
    }
}

/// A `certificate` spec's play at the counterexample, walked by [`crate::plays`]: it must fail
/// there.
fn spec_play(raw: &Raw, label: &str) -> Result<String, Stop> {
    let (e, inst) = selected_instance(raw, label)?;
    match crate::plays::first_failure(&e, raw, &inst)? {
        Some(why) => Ok(format!("at {label}: {why}")),
        None => Err(holds_there(
            label,
            "every move, reply and kernel of the play holds".into(),
        )),
    }
}

/// The counterexample as an instance the spec selects, its `let` values set.
fn selected_instance(raw: &Raw, label: &str) -> Result<(crate::formula::Evaluator, Inst), Stop> {
    let e = engine();
    let mut inst = instance_of(raw, label)?;
    crate::derive::with_lets(&e, raw, &mut inst, true)?;
    if !selected(&e, raw, &inst.env)? {
        return Err(Stop::Reject(format!(
            "the counterexample {label} is not selected by the spec's `where`"
        )));
    }
    Ok((e, inst))
}

/// Thm 13's construction as printed (`solver: trail_printed`), re-derived by the verifier's
/// own trail and labelling ([`crate::trail::printed_construction`]): at the counterexample
/// instance some token (m, b) the spec's `tokens` selects has no first move u for which S is
/// an even kernel of G − uv containing u (every candidate move fails, or there is none). A
/// token where the labelling is missing is not read.
fn printed_construction(raw: &Raw, label: &str) -> Result<String, Stop> {
    if raw.solver.as_deref() != Some("trail_printed") {
        return Err(Stop::Not(
            "a refuted construction other than Thm 13's as printed".into(),
        ));
    }
    let (e, inst) = selected_instance(raw, label)?;
    let graph = raw
        .graph
        .as_deref()
        .map(|g| substitute(g, &inst.names))
        .ok_or_else(|| Stop::Not("a construction without `graph`".into()))?;
    let (big_m, n) = crate::names::prism_size(&graph)
        .filter(|(mm, _)| mm % 2 == 0)
        .ok_or_else(|| Stop::Not(format!("Thm 13 on {graph}, not SP(2m, n)")))?;
    let m = big_m / 2;
    let pred = raw
        .tokens
        .as_deref()
        .ok_or_else(|| Stop::Not("a construction without `tokens`".into()))?;
    for b in 1..=n {
        let mut env = inst.env.clone();
        env.set("a", crate::formula::Val::Int(m));
        env.set("b", crate::formula::Val::Int(b));
        if !env.eval_bool(&e, pred)? {
            continue;
        }
        let Some(c) = crate::trail::printed_construction(m, n, b).map_err(Stop::Not)? else {
            continue;
        };
        let fails: Vec<String> = c
            .moves
            .iter()
            .filter_map(|&u| {
                crate::trail::not_even_kernel(m, n, &c.set, (m, b), u)
                    .map(|why| format!("after ({m},{b}) → {u:?}: {why}"))
            })
            .collect();
        if fails.len() == c.moves.len() {
            return Ok(if fails.is_empty() {
                format!("at {label}, token ({m},{b}): no neighbour of the token lies in S")
            } else {
                format!(
                    "at {label}, token ({m},{b}), S as printed by the verifier's labelling: {}",
                    fails.join("; ")
                )
            });
        }
    }
    Err(holds_there(
        label,
        "at every token some first move leaves S an even kernel".into(),
    ))
}
