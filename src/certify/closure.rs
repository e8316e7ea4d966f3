//! Certificates of closure games (GEN, DNG, TER, DNT; docs/design.md §9) for `kind: claim`
//! specs: per instance the game's word, its structure as named, the maximal legal sets 𝓜 and
//! the value at the start. A nim table is no option here (DNG(Sym(5)) has more legal
//! positions than any file holds), so `grundy-verify` recomputes 𝓜 and the value with its own
//! group, closure and solver code and compares; the lists are evidence that a mismatch is
//! caught where it arises (a missing maximal subgroup, not only a wrong value).
//!
//! Elements are written in a convention-free order: group elements ranked by their cycle
//! notation as text (byte order, `()` the identity), the elements of posets (`Bool(n)`,
//! `Div(n)`, `Chain(n)`, `P x Q`), of families of sets (`Sets(..)`), of inline digraphs
//! (`Digraph(..)`) and of inline weighted graphs (`Weighted(..)`) by their names as text too
//! (`{1,2}` < `{}`, `12` < `2`, `(1,2)` < `(2,1)`), so that the verifier, which builds them
//! with its own element order, needs only the names; vertices of graphs by their index.
//! Structures read from files (`poset:`, `sets:`, `digraph:`, `weighted:`; the operator says
//! so, [`crate::game::closure::ClosureOperator::is_from_file`]) are refused: the verifier reads
//! no files besides the specs.
//! Structures solved by count vectors (complete multipartite graphs past 64 vertices,
//! [`crate::game::closure::Counted`]) list 𝓜 up to their automorphisms instead: the maximal
//! legal count vectors, part by part in the order the parts are written (`maximal_counts`),
//! and the value of the symmetric solver; grundy-verify recomputes both by its own counts.

use super::claims::{claimed, env};
use crate::check::claim::{Claim, Positions};
use crate::check::{describe_instance, Instance};
use crate::game::closure::{CertificateOrder, ClosureGame, Counted, Direction};
use crate::game::AnyGame;
use crate::game::Game;
use serde_json::{json, Value};

/// TER or DNT on a graph under a closure defined in a spec (issue 45), from the empty
/// selection: the same game read as a closure game on the graph's closure operator (as the
/// structure-class solver reads it, `crate::solve::dispatch::removing_by_classes`), so that it
/// is certified by its maximal sets like GEN and DNG, and grundy-verify recomputes them with
/// its own interpreter of the closure's rule. Under the built-in closures (the hull, the
/// geodetic and monophonic closures) removing games are certified by their nim tables
/// (encode.rs names the closure); a started game is not a closure game's start.
pub(super) fn removing_as_closure(game: &AnyGame) -> Option<(AnyGame, ClosureGame)> {
    use crate::game::closure::{graph::GraphOperator, Goal};
    use crate::game::removing::Rule;
    let AnyGame::Removing(r) = game else {
        return None;
    };
    if r.convexity().closure_kind().spec_sha256().is_none() || r.start_set() != 0 {
        return None;
    }
    let op = GraphOperator::with_convexity(
        r.graph().clone(),
        r.convexity().clone(),
        r.families().cloned(),
    );
    let goal = match r.rule() {
        Rule::Ter => Goal::Achievement,
        Rule::Dnt => Goal::Avoidance,
    };
    let cg = ClosureGame::new(std::sync::Arc::new(op), Direction::Removing, goal);
    Some((AnyGame::Closure(cg.clone()), cg))
}

/// Element i's rank in the certificate's order.
fn ranks(g: &ClosureGame) -> Result<Vec<usize>, String> {
    let op = g.operator();
    let n = op.size();
    if op.is_from_file() {
        return Err(format!(
            "closure games on structures read from files (`{}`) are not certified: the verifier reads no files besides the specs",
            op.structure()
        ));
    }
    match op.certificate_order() {
        Some(CertificateOrder::ByName) => {
            let names: Vec<String> = (0..n).map(|i| op.element_name(i)).collect();
            let mut order: Vec<usize> = (0..n).collect();
            order.sort_by(|&a, &b| names[a].cmp(&names[b]));
            let mut rank = vec![0; n];
            for (r, &i) in order.iter().enumerate() {
                rank[i] = r;
            }
            Ok(rank)
        }
        Some(CertificateOrder::Index) => Ok((0..n).collect()),
        None => Err(format!(
            "closure games on `{}` structures are not certified",
            op.kind()
        )),
    }
}

/// The instance's entry, `None` if the spec's filter does not select it.
pub(super) fn entry(
    claim: &Claim,
    inst: &Instance,
    game: &AnyGame,
    g: &ClosureGame,
    value: Option<u32>,
) -> Result<Option<Value>, String> {
    if claim.positions != Positions::Start {
        return Err("closure games are certified at the start only".into());
    }
    // Count vectors only for structures that have no element order to certify by (read by
    // part counts, past 64 vertices): a graph that happens to be complete multipartite is
    // solved by them too, but certified by its vertex sets, which the verifier checks as it
    // does for any graph.
    let counted = g
        .operator()
        .counted()
        .filter(|_| g.operator().certificate_order().is_none());
    let rank = if counted.is_some() {
        Vec::new()
    } else {
        ranks(g)?
    };
    let start = game.start();
    let e = env(claim, inst, game, &start)?;
    let Some(c) = claimed(claim, &e, &start, true)? else {
        return Ok(None);
    };
    // The value the check found, or solved now (a certificate made apart from its check).
    let solve = || {
        crate::solve::dispatch::nim(game, &crate::solve::dispatch::Options::quiet())
            .map_err(|r| format!("{} ({})", r.estimate, r.limit))
    };
    if let Some(k) = counted {
        let value = value.map_or_else(solve, Ok)?;
        let op = g.operator();
        return Ok(Some(with_closure_hash(json!({
            "instance": describe_instance(inst),
            "game": g.word(),
            "structure": op.structure(),
            "closure": op.kind(),
            "elements": op.size(),
            "maximal_counts": maximal_counts(k, g.direction())?,
            "value": value,
            "claim": c,
        }))));
    }
    let value = match value {
        Some(v) => v,
        None => crate::solve::dispatch::structure_diagram(g)?.start_nim(),
    };
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
    Ok(Some(with_closure_hash(json!({
        "instance": describe_instance(inst),
        "game": g.word(),
        "structure": op.structure(),
        "closure": op.kind(),
        "elements": op.size(),
        "maximal_sets": sets,
        "value": value,
        "claim": c,
    }))))
}

/// A closure defined in a spec (issue 45) is named with its spec's hash, `closure_sha256`,
/// next to its name (docs/user-games.md); the built-in closures are named only.
fn with_closure_hash(mut entry: serde_json::Value) -> serde_json::Value {
    let sha = entry["closure"]
        .as_str()
        .and_then(crate::graph::closures::Closure::named)
        .and_then(|c| c.spec_sha256());
    if let Some(sha) = sha {
        entry["closure_sha256"] = json!(sha);
    }
    entry
}

/// Most count vectors listed to find the maximal legal ones (the verifier's bound too).
const MAX_COUNT_VECTORS: u64 = 1 << 22;

/// The maximal legal count vectors of a counted structure, ascending: legal (building: not
/// generating; removing: the unselected counts generate) with every one-vertex extension
/// illegal. Every vector is listed, so `Err` past [`MAX_COUNT_VECTORS`].
fn maximal_counts(k: &dyn Counted, direction: Direction) -> Result<Vec<Vec<u32>>, String> {
    let parts = k.parts();
    let total = parts
        .iter()
        .try_fold(1u64, |t, &p| t.checked_mul(p as u64 + 1))
        .filter(|&t| t <= MAX_COUNT_VECTORS)
        .ok_or(format!(
            "more than {MAX_COUNT_VECTORS} count vectors to list the maximal legal ones"
        ))?;
    let legal = |c: &[u32]| match direction {
        Direction::Building => !k.generates_counts(c),
        Direction::Removing => {
            let rest: Vec<u32> = parts.iter().zip(c).map(|(n, x)| n - x).collect();
            k.generates_counts(&rest)
        }
    };
    let mut out = Vec::new();
    let mut c = vec![0u32; parts.len()];
    for _ in 0..total {
        if legal(&c) {
            let maximal = (0..c.len()).all(|i| {
                c[i] == parts[i] || {
                    let mut d = c.clone();
                    d[i] += 1;
                    !legal(&d)
                }
            });
            if maximal {
                out.push(c.clone());
            }
        }
        // The next vector in mixed radix, the last part fastest.
        for i in (0..c.len()).rev() {
            if c[i] < parts[i] {
                c[i] += 1;
                break;
            }
            c[i] = 0;
        }
    }
    out.sort();
    Ok(out)
}
