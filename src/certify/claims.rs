//! Nim-value tables for `kind: claim` (design.md §2): per instance, every position reachable
//! from the start with its value, and the claimed value (evaluated from the spec's formula,
//! as the checker does) at each position the claim is about.

use super::{encode, nim_table_with, Body, MAX_INSTANCE_POSITIONS, MAX_SPEC_POSITIONS};
use crate::check::claim::{Claim, Claimed, Kept, Positions, Solved};
use crate::check::formula::Env;
use crate::check::{describe_instance, Instance};
use crate::game::{AnyGame, AnyPos, Game};
use serde_json::{json, Value};

/// The environment the checker evaluates the claim in at a position ([`Claim::env`]: the
/// same bindings, the spec's closure included).
pub(super) fn env(
    claim: &Claim,
    inst: &Instance,
    game: &AnyGame,
    pos: &AnyPos,
) -> Result<Env, String> {
    claim.env(inst, game, pos).map_err(|e| e.message)
}

/// The claim at one position: `None` if the spec's filter does not select it.
pub(super) fn claimed(
    claim: &Claim,
    env: &Env,
    pos: &AnyPos,
    start: bool,
) -> Result<Option<Value>, String> {
    if let Some(f) = &claim.filter {
        if !f.eval_bool(env)? {
            return Ok(None);
        }
    }
    let mut c = json!({ "pos": encode::pos(pos), "start": start });
    match &claim.claimed {
        Claimed::Nim(f) => {
            let v = f.eval(env).map_err(|e| format!("{e:?}"))?;
            c["nim"] = json!(v.as_int().map_err(|t| t.to_string())?);
        }
        Claimed::Outcome(f) => {
            let v = f.eval(env).map_err(|e| format!("{e:?}"))?;
            c["outcome"] = json!(v.into_string().map_err(|t| t.to_string())?);
        }
        Claimed::Holds(_) => return Err("a `holds` claim has no value to certify".into()),
    }
    Ok(Some(c))
}

/// The instance's table; `solved` is what its check solved (the game as parsed and the
/// memo), so that nothing is parsed or solved again.
pub(super) fn table(
    claim: &Claim,
    inst: &Instance,
    cap: usize,
    solved: Option<&Solved>,
) -> Result<Option<(Value, usize)>, String> {
    let parsed;
    let (game, memo) = match solved {
        Some(s) => (&s.game, s.memo.clone()),
        None => {
            parsed = claim.game_of(inst).map_err(|e| e.message)?.1;
            (&parsed, Default::default())
        }
    };
    let desc = encode::game(game)?;
    let start = game.start();
    // Selection first: an instance the filter drops was not checked, so it is not listed.
    let start_env = env(claim, inst, game, &start)?;
    if claim.positions == Positions::Start && claimed(claim, &start_env, &start, true)?.is_none() {
        return Ok(None);
    }
    let mut claims = Vec::new();
    // The positions the claims are about are listed even where the table lists a split
    // option by its parts (nim_table): the verifier looks each claim up.
    let mut roots = vec![start.clone()];
    match claim.positions {
        Positions::Start => claims.extend(claimed(claim, &start_env, &start, true)?),
        Positions::Reachable => {
            roots = super::reachable_within(game, &start, cap)?;
            // The misère transform's ⊥ is in the table, but no position a claim is about.
            for p in roots.iter().filter(|p| !game.hidden(p)) {
                let e = env(claim, inst, game, p)?;
                claims.extend(claimed(claim, &e, p, *p == start)?);
            }
            if claims.is_empty() {
                return Ok(None);
            }
        }
    }
    let mut solver = crate::solve::Solver::with_memo(game, memo);
    let entries = match solved.and_then(|s| s.order.as_ref()) {
        // The check listed the start's table already (the same order, the same budget rule).
        Some(order) if claim.positions == Positions::Start => {
            if order.len() > cap {
                return Err(format!(
                    "more than {cap} positions (the budget left for the instance)"
                ));
            }
            super::table_of(&mut solver, order)
        }
        _ => nim_table_with(&mut solver, &roots, cap)?,
    };
    let n = entries.len();
    Ok(Some((
        json!({
            "instance": describe_instance(inst),
            "game": desc,
            "entries": entries,
            "claims": claims,
        }),
        n,
    )))
}

/// The certificate of a claim; `kept` is what its check solved, by instance index.
pub(crate) fn certify(claim: &Claim, kept: Option<&Kept>) -> Result<Body, String> {
    if matches!(claim.claimed, Claimed::Holds(_)) {
        return predicates(claim);
    }
    let mut tables = Vec::new();
    let mut closures = Vec::new();
    let mut skipped = Vec::new();
    let mut budget = MAX_SPEC_POSITIONS;
    // Instances come smallest first; once two in a row exceed the budget, larger ones are
    // not tried (their tables would only be built to be thrown away).
    let mut misses = 0;
    for (k, inst) in claim.instances().into_iter().enumerate() {
        let name = describe_instance(&inst);
        let solved = kept.and_then(|kept| kept.get(&k));
        // Closure games carry their maximal sets and value, not a table (super::closure).
        let parsed = match solved {
            Some(s) => Ok(s.game.clone()),
            None => claim.game_of(&inst).map(|(_, g)| g),
        };
        let as_closure = parsed
            .as_ref()
            .ok()
            .and_then(super::closure::removing_as_closure);
        if let Some((game, g)) = &as_closure {
            let value = solved.and_then(|s| s.nim);
            match super::closure::entry(claim, &inst, game, g, value) {
                Ok(Some(v)) => closures.push(v),
                Ok(None) => {}
                Err(why) => skipped.push((name, why)),
            }
            continue;
        }
        if let Ok(game @ AnyGame::Closure(_)) = &parsed {
            let AnyGame::Closure(g) = game else {
                unreachable!("matched above")
            };
            let value = solved.and_then(|s| s.nim);
            match super::closure::entry(claim, &inst, game, g, value) {
                Ok(Some(v)) => closures.push(v),
                Ok(None) => {}
                Err(why) => skipped.push((name, why)),
            }
            continue;
        }
        if misses >= 2 {
            skipped.push((
                name,
                "not tried: two smaller instances exceeded the budget".into(),
            ));
            continue;
        }
        if budget == 0 {
            skipped.push((
                name,
                format!("past the per-spec budget of {MAX_SPEC_POSITIONS} positions"),
            ));
            continue;
        }
        match table(claim, &inst, MAX_INSTANCE_POSITIONS.min(budget), solved) {
            Ok(Some((t, n))) => {
                budget -= n;
                misses = 0;
                tables.push(t);
            }
            Ok(None) => {}
            Err(why) => {
                misses += 1;
                skipped.push((name, why));
            }
        }
    }
    if !closures.is_empty() {
        if !tables.is_empty() {
            return Err("a spec mixing closure games and other games is not certified".into());
        }
        return Ok(Body {
            kind: "closure-values",
            certified: closures.len(),
            data: json!({ "instances": closures }),
            skipped,
        });
    }
    if tables.is_empty() {
        let why = skipped
            .first()
            .map_or("no instance".to_string(), |(i, w)| format!("{i}: {w}"));
        return Err(format!(
            "no instance fits ({} instances; first: {why})",
            skipped.len()
        ));
    }
    Ok(Body {
        kind: "nim-tables",
        certified: tables.len(),
        data: json!({ "tables": tables }),
        skipped,
    })
}

/// A `holds` claim (issue 43): no value to table, so the certificate lists, per instance, its
/// game (a closure game by its name) and how many positions the claim selects; `grundy-verify` builds each game from the
/// spec, enumerates the positions itself, computes the features the predicate reads with its
/// own code and evaluates the predicate on every one. Instances past the per-instance budget
/// are listed as not certified, with the count the verifier recounts.
fn predicates(claim: &Claim) -> Result<Body, String> {
    let mut listed = Vec::new();
    let mut skipped = Vec::new();
    for inst in claim.instances() {
        let name = describe_instance(&inst);
        let (_, game) = claim.game_of(&inst).map_err(|e| e.message)?;
        // A closure game is named, not tabled: the verifier builds it from the spec and
        // evaluates the predicate at its start with its own values and features.
        if let AnyGame::Closure(c) = &game {
            if claim.positions != Positions::Start {
                return Err(
                    "a `holds` claim on closure games at positions other than the start is not certified"
                        .into(),
                );
            }
            let start = game.start();
            let e = env(claim, &inst, &game, &start)?;
            if let Some(f) = &claim.filter {
                if !f.eval_bool(&e)? {
                    continue;
                }
            }
            listed.push(json!({ "instance": name, "closure_game": c.to_string(), "positions": 1 }));
            continue;
        }
        let desc = match encode::game(&game) {
            Ok(d) => d,
            Err(why) => {
                skipped.push((name, why));
                continue;
            }
        };
        let start = game.start();
        let positions = match claim.positions {
            Positions::Start => vec![start],
            Positions::Reachable => {
                match super::reachable_within(&game, &start, MAX_INSTANCE_POSITIONS) {
                    Ok(p) => p,
                    Err(why) => {
                        skipped.push((name, why));
                        continue;
                    }
                }
            }
        };
        let mut selected = 0usize;
        for p in &positions {
            let e = env(claim, &inst, &game, p)?;
            if let Some(f) = &claim.filter {
                if !f.eval_bool(&e)? {
                    continue;
                }
            }
            selected += 1;
        }
        if selected > 0 {
            listed.push(json!({ "instance": name, "game": desc, "positions": selected }));
        }
    }
    if listed.is_empty() {
        return Err(format!("no instance fits ({} instances)", skipped.len()));
    }
    Ok(Body {
        kind: "predicates",
        certified: listed.len(),
        data: json!({ "instances": listed }),
        skipped,
    })
}
