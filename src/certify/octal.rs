//! The period proof of an octal game's nim sequence (design.md §1, Prop 5.23): the computed
//! values, the period and preperiod whose Guy–Smith inequalities the checker verifies, and
//! what the spec states.

use super::Body;
use crate::check::sequence::SequenceSpec;
use serde_json::json;

pub(crate) fn certify(s: &SequenceSpec) -> Result<Body, String> {
    let per = s.code.periodicity(s.length);
    let proof = per
        .proof
        .ok_or("no period is proved within the computed values")?;
    let values = s.code.nim_sequence(s.length);
    let per_least = proof.period;
    Ok(Body {
        kind: "octal-period",
        certified: 1,
        data: json!({
            "code": s.code.text(),
            "values": values,
            "period": proof.cert_period,
            "preperiod": proof.cert_preperiod,
            "stated_values": s.stated.values,
            // A preperiod stated without a period is read as a preperiod of the least period
            // (the checker's reading): that period is written, so the preperiod is checked.
            "stated_period": s.stated.period.or(s.stated.preperiod.map(|_| per_least)),
            "stated_preperiod": s.stated.preperiod,
            "stated_least": s.stated.least,
        }),
        skipped: Vec::new(),
    })
}
