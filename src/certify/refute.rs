//! Refutations certified (issue 43): the certificate of a refuted verdict carries its
//! counterexample's evidence, from which `grundy-verify` re-derives that the claim fails
//! there, reading the claim from the spec itself. A `claim` spec carries the counterexample
//! instance's nim-value table (closed under options, its values by mex; the claimed value is
//! left out, since the verifier evaluates the spec's formula itself) or, for a closure game,
//! the instance's maximal legal sets and value; a `sequence` spec carries the octal
//! sequence's period proof, against which the stated numbers fail. Other kinds keep their
//! counterexample in the report only.

use super::{Body, MAX_INSTANCE_POSITIONS};
use crate::check::claim::Claim;
use crate::check::kind::SpecKind;
use crate::check::sequence::SequenceSpec;
use crate::check::{describe_instance, instances, Verdict};
use crate::game::AnyGame;
use serde_json::{json, Value};

/// The refutation certificate of a spec (its kind `spec`), refuted with the counterexample in
/// `verdict`.
pub(crate) fn certify(spec: &dyn SpecKind, verdict: &Verdict) -> Result<Body, String> {
    let Verdict::Refuted { counterexample: cx } = verdict else {
        return Err("a verdict of bad input has no certificate".into());
    };
    let any = spec.as_any();
    let evidence = if let Some(claim) = any.downcast_ref::<Claim>() {
        claim_evidence(claim, &cx.instance)?
    } else if let Some(s) = any.downcast_ref::<SequenceSpec>() {
        let b = super::octal::certify(s)?;
        with_kind(b.kind, b.data)
    } else {
        return Err(format!(
            "a refuted verdict of a `{}` spec carries its counterexample in the report only (no certificate format yet)",
            spec.kind()
        ));
    };
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
fn claim_evidence(claim: &Claim, label: &str) -> Result<Value, String> {
    let inst = instances(&claim.params)
        .into_iter()
        .find(|i| describe_instance(i) == label)
        .ok_or_else(|| format!("the counterexample {label} is not an instance of the spec"))?;
    if let Ok((_, game @ AnyGame::Closure(_))) = claim.game_of(&inst) {
        let AnyGame::Closure(g) = &game else {
            unreachable!("matched above")
        };
        let mut entry = super::closure::entry(claim, &inst, &game, g, None)?
            .ok_or("the spec's filter does not select the counterexample")?;
        if let Value::Object(m) = &mut entry {
            m.remove("claim");
        }
        return Ok(json!({ "kind": "closure-values", "instances": [entry] }));
    }
    let (mut t, _) = super::claims::table(claim, &inst, MAX_INSTANCE_POSITIONS, None)?
        .ok_or("the spec's filter does not select the counterexample")?;
    t["claims"] = json!([]);
    Ok(json!({ "kind": "nim-tables", "tables": [t] }))
}
