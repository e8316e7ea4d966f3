//! Certificates of closure games (GEN, DNG, TER, DNT; docs/design.md §9) for `kind: claim`
//! specs: per instance the game's word, its structure as named, the maximal legal sets 𝓜 and
//! the value at the start. A nim table is no option here (DNG(Sym(5)) has more legal
//! positions than any file holds), so `grundy-verify` recomputes 𝓜 and the value with its own
//! group, closure and solver code and compares; the lists are evidence that a mismatch is
//! caught where it arises (a missing maximal subgroup, not only a wrong value).
//!
//! Elements are written in a convention-free order: group elements ranked by their cycle
//! notation as text (byte order, `()` the identity), vertices of graphs by their index.

use super::claims::{claimed, env};
use crate::check::claim::{Claim, Positions};
use crate::check::{describe_instance, Instance};
use crate::game::closure::ClosureGame;
use crate::game::AnyGame;
use crate::game::Game;
use serde_json::{json, Value};

/// Element i's rank in the certificate's order.
fn ranks(g: &ClosureGame) -> Result<Vec<usize>, String> {
    let op = g.operator();
    let n = op.size();
    match op.kind() {
        "subgroup" => {
            let names: Vec<String> = (0..n).map(|i| op.element_name(i)).collect();
            let mut order: Vec<usize> = (0..n).collect();
            order.sort_by(|&a, &b| names[a].cmp(&names[b]));
            let mut rank = vec![0; n];
            for (r, &i) in order.iter().enumerate() {
                rank[i] = r;
            }
            Ok(rank)
        }
        "hull" | "geodetic" | "monophonic" => Ok((0..n).collect()),
        k => Err(format!(
            "closure games on `{k}` structures are not certified"
        )),
    }
}

/// The instance's entry, `None` if the spec's filter does not select it.
pub(super) fn entry(
    claim: &Claim,
    inst: &Instance,
    game: &AnyGame,
    g: &ClosureGame,
) -> Result<Option<Value>, String> {
    if claim.positions != Positions::Start {
        return Err("closure games are certified at the start only".into());
    }
    let rank = ranks(g)?;
    let start = game.start();
    let e = env(claim, inst, game, &start)?;
    let Some(c) = claimed(claim, &e, &start, true)? else {
        return Ok(None);
    };
    let d = crate::solve::dispatch::structure_diagram(g)?;
    let facets = g
        .facets()
        .ok_or("the maximal legal sets are too many to list")?;
    let mut sets: Vec<Vec<usize>> = facets
        .iter()
        .map(|m| {
            let mut v: Vec<usize> = m.ones().map(|i| rank[i]).collect();
            v.sort_unstable();
            v
        })
        .collect();
    sets.sort();
    let op = g.operator();
    Ok(Some(json!({
        "instance": describe_instance(inst),
        "game": g.word(),
        "structure": op.structure(),
        "closure": op.kind(),
        "elements": op.size(),
        "maximal_sets": sets,
        "value": d.start_nim(),
        "claim": c,
    })))
}
