//! Refutations certified (issue 43): the certificate of a refuted verdict carries its
//! counterexample's evidence, from which `grundy-verify` re-derives that the claim fails
//! there, reading the claim from the spec itself. A `claim` spec carries the counterexample
//! instance's nim-value table (closed under options, its values by mex; the claimed value is
//! left out, since the verifier evaluates the spec's formula itself) or, for a closure game,
//! the instance's maximal legal sets and value; a `sequence` spec carries the octal
//! sequence's period proof, against which the stated numbers fail; a `certificate` spec
//! whose play fails carries its counterexample instance only, the verifier walking the
//! spec's play itself; a diagram carries its counterexample start only, the verifier
//! searching the spec's strategy there; Table 5.1 carries its counterexample multiset and the condition that
//! fails there ([`signatures`]). A kind offers this through
//! [`crate::check::kind::SpecKind::certify_refutation`]; the others keep their
//! counterexample in the report only.

use super::{Body, MAX_INSTANCE_POSITIONS};
use crate::check::certificate::Certificate as KernelSpec;
use crate::check::claim::{Claim, Kept};
use crate::check::sequence::SequenceSpec;
use crate::check::{describe_instance, Counterexample, Verdict};
use crate::game::AnyGame;
use serde_json::{json, Value};

/// The refutation certificate of a `claim` spec refuted with the counterexample in `verdict`;
/// `kept` is what its check solved (the counterexample instance is then neither parsed nor
/// solved again).
pub(crate) fn claim(claim: &Claim, verdict: &Verdict, kept: Option<&Kept>) -> Result<Body, String> {
    let cx = counterexample(verdict)?;
    body(cx, claim_evidence(claim, &cx.instance, kept)?)
}

/// The refutation certificate of a `sequence` spec: its period proof.
pub(crate) fn sequence(s: &SequenceSpec, verdict: &Verdict) -> Result<Body, String> {
    let cx = counterexample(verdict)?;
    let b = super::octal::certify(s)?;
    body(cx, with_kind(b.kind, b.data))
}

/// The refutation certificate of a `certificate` spec that gives its play: the counterexample
/// instance only, since `grundy-verify` walks the spec's own play there (its moves, replies
/// and kernels) and finds where it fails. A construction that is grundy's code (`solver:`)
/// is not re-derived by the verifier, so it has no refutation certificate.
pub(crate) fn spec_play(c: &KernelSpec, verdict: &Verdict) -> Result<Body, String> {
    let cx = counterexample(verdict)?;
    match c.proof {
        crate::check::certificate::Proof::Play(_) => body(cx, json!({ "kind": "spec-play" })),
        // Thm 13's S as printed: the verifier builds it from seed 002's trail itself.
        crate::check::certificate::Proof::Trail { mirror: false } => {
            body(cx, json!({ "kind": "printed-construction" }))
        }
        _ => Err(
            "the refuted construction is one of grundy's solvers, which the verifier does not re-implement"
                .into(),
        ),
    }
}

/// The refutation certificate of a diagram: the counterexample start only, from which
/// `grundy-verify` searches the spec's strategy itself (every reply tried, every sink counted
/// as won) and finds it does not win.
pub(crate) fn diagram(verdict: &Verdict) -> Result<Body, String> {
    let cx = counterexample(verdict)?;
    body(cx, json!({ "kind": "diagram-search" }))
}

/// The refutation certificate of Table 5.1 (`table: signatures`): the counterexample multiset
/// (`U = {2}`, or a row covering none) and, when one of conditions (1)–(4) of the proof of
/// Prop 5.14 fails there, which (`(1)`); `grundy-verify` evaluates every row entry and
/// condition at U itself.
pub(crate) fn signatures(verdict: &Verdict) -> Result<Body, String> {
    let cx = counterexample(verdict)?;
    let condition = cx
        .claimed
        .strip_prefix('(')
        .and_then(|r| r.split_once(')'))
        .map(|(k, _)| format!("({})", k.trim_end_matches('\'')));
    body(cx, json!({ "kind": "signatures", "fails": condition }))
}

fn counterexample(verdict: &Verdict) -> Result<&Counterexample, String> {
    match verdict {
        Verdict::Refuted { counterexample } => Ok(counterexample),
        _ => Err("only a refuted verdict has a refutation certificate".into()),
    }
}

fn body(cx: &Counterexample, evidence: Value) -> Result<Body, String> {
    Ok(Body {
        kind: "refutation",
        certified: 1,
        data: json!({
            "counterexample": { "instance": cx.instance },
            "evidence": evidence,
        }),
        skipped: Vec::new(),
    })
}

fn with_kind(kind: &str, data: Value) -> Value {
    let mut v = json!({ "kind": kind });
    if let (Value::Object(m), Value::Object(d)) = (&mut v, data) {
        m.extend(d);
    }
    v
}

/// The counterexample instance's table (its claims left out) or closure entry.
fn claim_evidence(claim: &Claim, label: &str, kept: Option<&Kept>) -> Result<Value, String> {
    let (k, inst) = claim
        .instances()
        .into_iter()
        .enumerate()
        .find(|(_, i)| describe_instance(i) == label)
        .ok_or_else(|| format!("the counterexample {label} is not an instance of the spec"))?;
    let solved = kept.and_then(|kept| kept.get(&k));
    let parsed = match solved {
        Some(s) => Ok(s.game.clone()),
        None => claim.game_of(&inst).map(|(_, g)| g).map_err(|e| e.message),
    };
    if let Ok(game @ AnyGame::Closure(_)) = &parsed {
        let AnyGame::Closure(g) = game else {
            unreachable!("matched above")
        };
        let value = solved.and_then(|s| s.nim);
        let mut entry = super::closure::entry(claim, &inst, game, g, value)?
            .ok_or("the spec's filter does not select the counterexample")?;
        if let Value::Object(m) = &mut entry {
            m.remove("claim");
        }
        return Ok(json!({ "kind": "closure-values", "instances": [entry] }));
    }
    let (mut t, _) = super::claims::table(claim, &inst, MAX_INSTANCE_POSITIONS, solved)?
        .ok_or("the spec's filter does not select the counterexample")?;
    t["claims"] = json!([]);
    Ok(json!({ "kind": "nim-tables", "tables": [t] }))
}
