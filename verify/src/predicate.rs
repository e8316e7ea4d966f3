//! `holds` predicates re-derived (issue 43): a predicate states a fact about features, not a
//! value, so the certificate lists only each instance's game and how many positions the claim
//! selects. The verifier builds each game from the spec's name ([`crate::names`]), compares
//! it with the certificate's, enumerates the positions the claim is about itself (the start,
//! or every reachable position, [`crate::exempt::explore`]), computes the features the
//! predicate reads with its own code ([`crate::features`], by way of
//! [`crate::derive::env_at`]) and evaluates the predicate on every position the `where`
//! filter selects: one false is a rejection naming the position. A predicate reading a
//! feature the verifier does not compute is not evaluated ("claim not re-derived").
//! Instances listed as not certified are evaluated the same way when within the verifier's
//! own budget, else their stated count is recounted ([`crate::exempt`]). A closure game (on
//! a group, a poset, …) is built by [`crate::closure`] from the spec's name and the predicate
//! evaluated at its start with the features and values the verifier computes for it (a
//! `nim("GEN(…)")` in it is the verifier's own value, [`crate::solve::nim_of_name`]).

use crate::checks::Certificate;
use crate::derive::{all_instances, env_at, Rederived, Stop};
use crate::exempt::{
    listed, more_positions_than, parse_reason, selected, unconfirmed, Reason, OWN_POSITIONS,
};
use crate::formula::engine;
use crate::games::{Game, Pos, Rules};
use crate::names::substitute;
use crate::spec::{formula_text, Raw};
use std::collections::BTreeMap;

pub fn derive(
    raw: &Raw,
    c: &Certificate,
    listed_: &[(String, Option<Game>, u64)],
) -> Result<Rederived, Stop> {
    let pred = raw
        .holds
        .as_ref()
        .and_then(formula_text)
        .ok_or_else(|| Stop::Not("no `holds` predicate".into()))?;
    let reach = match raw.positions.as_deref() {
        None | Some("start") => false,
        Some("reachable") => true,
        Some(p) => return Err(Stop::Not(format!("positions `{p}`"))),
    };
    let template = raw
        .game
        .as_ref()
        .ok_or_else(|| Stop::Not("no `game`".into()))?;
    let e = engine();
    let reasons = listed(c).map_err(Stop::Reject)?;
    let mut by_label: BTreeMap<&str, Option<&Game>> = BTreeMap::new();
    for (l, g, _) in listed_ {
        if by_label.insert(l.as_str(), g.as_ref()).is_some() {
            return Err(Stop::Reject(format!("instance {l} is certified twice")));
        }
    }
    let insts = all_instances(raw)?;
    let mut seen = 0;
    let (mut certified, mut total) = (0, 0);
    for i in &insts {
        let listed_game = by_label.get(i.label.as_str());
        let exempt = reasons.get(&i.label);
        if listed_game.is_some() {
            seen += 1;
        }
        let name = substitute(template, &i.names);
        // A closure game (on a group, a poset, …): the predicate at its start, with the
        // features the verifier computes for it.
        if let Some(built) = crate::closure::parse(&name, raw.closure.as_deref()) {
            if reach {
                return Err(Stop::Not(
                    "closure games at positions other than the start".into(),
                ));
            }
            let game = built.map_err(|w| Stop::Not(format!("{name}: {w}")))?;
            if listed_game.is_some_and(|g| g.is_some()) {
                return Err(Stop::Reject(format!(
                    "instance {}: the certificate lists a game by its rules where the spec names the closure game {name}",
                    i.label
                )));
            }
            let env = crate::derive::closure_env(&e, raw, &i.env, &game)?;
            if !selected(&e, raw, &env)? {
                if listed_game.is_some() {
                    return Err(Stop::Reject(format!(
                        "instance {}: the claim selects no position of it",
                        i.label
                    )));
                }
                continue;
            }
            if !env.eval_bool(&e, &pred)? {
                let what = format!("the predicate is false at the start of {name} by the verifier's own values and features");
                return Err(Stop::Reject(match exempt {
                    Some(why) => unconfirmed(&i.label, why, &what),
                    None => format!("instance {}: {what}", i.label),
                }));
            }
            if listed_game.is_some() && exempt.is_some() {
                return Err(Stop::Reject(format!(
                    "instance {} is both certified and listed as not certified",
                    i.label
                )));
            }
            if listed_game.is_none() && exempt.is_none() {
                return Err(Stop::Reject(format!(
                    "instance {} of the spec is neither certified nor listed as not certified",
                    i.label
                )));
            }
            certified += 1;
            total += 1;
            continue;
        }
        let game = Game::parse(&name).map_err(Stop::Not)?;
        let rules = Rules::new(&game).map_err(|w| Stop::Not(format!("{name}: {w}")))?;
        let listed_game = match listed_game {
            Some(None) => {
                return Err(Stop::Reject(format!(
                    "instance {}: the certificate lists a closure game where the spec names {name}",
                    i.label
                )))
            }
            Some(Some(g)) => Some(g),
            None => None,
        };
        if let Some(g) = listed_game {
            if !game.same(g) {
                return Err(Stop::Reject(format!(
                    "instance {}: the certificate's game is not the spec's {name}",
                    i.label
                )));
            }
        }
        let order = if reach {
            crate::exempt::explore(&rules, OWN_POSITIONS, false)
                .map_err(|e| Stop::Reject(format!("instance {}: {name}: {e}", i.label)))?
        } else {
            Some(vec![rules.start()])
        };
        let Some(order) = order else {
            // Past the verifier's own budget.
            if listed_game.is_some() {
                return Err(Stop::Not(format!(
                    "{name} has more than {OWN_POSITIONS} positions"
                )));
            }
            if let Some(why) = exempt {
                match parse_reason(why) {
                    Reason::Positions(n) if more_positions_than(&rules, n, false, None) => {
                        total += 1;
                        continue;
                    }
                    _ => {
                        return Err(Stop::Reject(unconfirmed(
                            &i.label,
                            why,
                            &format!("{name} has more than {OWN_POSITIONS} positions, and the reason is not one the verifier recounts"),
                        )))
                    }
                }
            }
            return Err(Stop::Not(format!(
                "instance {} is not listed and too large to confirm it is vacuous",
                i.label
            )));
        };
        let mut n = 0;
        for p in &order {
            let env = env_at(&e, raw, i, &rules, p)?;
            if !selected(&e, raw, &env)? {
                continue;
            }
            n += 1;
            if !env.eval_bool(&e, &pred)? {
                return Err(Stop::Reject(false_at(&i.label, &name, p, exempt)));
            }
        }
        match (listed_game, exempt, n) {
            (Some(_), _, 0) => {
                return Err(Stop::Reject(format!(
                    "instance {}: the claim selects no position of it",
                    i.label
                )))
            }
            (Some(_), Some(_), _) => {
                return Err(Stop::Reject(format!(
                    "instance {} is both certified and listed as not certified",
                    i.label
                )))
            }
            (_, _, 0) => {}
            (Some(_), None, _) | (None, Some(_), _) => {
                // Certified, or exempt but within the verifier's budget: evaluated here.
                certified += 1;
                total += 1;
            }
            (None, None, _) => {
                return Err(Stop::Reject(format!(
                    "instance {} of the spec is neither certified nor listed as not certified (the claim selects {n} of its positions)",
                    i.label
                )))
            }
        }
    }
    if let Some(l) = reasons
        .keys()
        .find(|l| !insts.iter().any(|i| &i.label == *l))
    {
        return Err(Stop::Reject(format!(
            "the certificate lists instance {l} as not certified, which is not an instance of the spec"
        )));
    }
    if seen != by_label.len() {
        let named: Vec<&str> = insts.iter().map(|i| i.label.as_str()).collect();
        let stray = by_label
            .keys()
            .find(|l| !named.contains(l))
            .copied()
            .unwrap_or_default();
        return Err(Stop::Reject(format!(
            "the certificate certifies instance {stray}, which is not an instance of the spec"
        )));
    }
    Ok(Rederived { certified, total })
}

fn false_at(label: &str, name: &str, p: &Pos, exempt: Option<&String>) -> String {
    let what = format!("the predicate is false at {p:?} of {name} by the verifier's own features");
    match exempt {
        Some(why) => unconfirmed(label, why, &what),
        None => format!("instance {label}: {what}"),
    }
}
