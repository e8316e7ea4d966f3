//! Certificates of `sets` specs (issue 43, families of sets): per instance the `where` filter
//! selects, the claimed family (𝒢, 𝒩, 𝒢* or 𝒩*) by its members' vertex names, or the one
//! transversal family Tr of Example 2.1's kind. `grundy-verify` builds each graph and its
//! vertex names from the spec, computes the closure of every subset with its own code, the four
//! families from their definitions, and the claim (the listed members or the membership rule
//! on every subset) with its own interpreter; the listed members only make a mismatch name the
//! set that differs.

use super::Body;
use crate::check::sets::CertifiedFamily;
use serde_json::json;

/// `listed`: the families the check computed, per selected instance.
pub(crate) fn certify(listed: &[CertifiedFamily]) -> Result<Body, String> {
    if listed.is_empty() {
        return Err("no instance is selected".into());
    }
    let instances: Vec<_> = listed
        .iter()
        .map(|(instance, family, members)| {
            json!({ "instance": instance, "family": family, "members": members })
        })
        .collect();
    Ok(Body {
        kind: "families",
        certified: instances.len(),
        data: json!({ "instances": instances }),
        skipped: Vec::new(),
    })
}
