//! The verdicts of grundy-verify as the report shows them (`VERIFIED.json`, read by the
//! pipeline): each spec's verdict line, its class and the counts per class.

use serde::Serialize;
use std::collections::BTreeMap;

/// The verdicts of the independent checker `grundy-verify`, as its last `--write` recorded
/// them in certificates/VERIFIED.json. The build does not run the verifier (it shares no code
/// with grundy); CI runs it after the build and compares VERIFIED.json with the committed one,
/// so the committed report shows the verdicts on the committed certificates.
#[derive(Default, Clone)]
pub struct VerifierVerdicts {
    pub by_id: BTreeMap<String, String>,
}

/// One verdict class of `grundy-verify` and how many specs have it.
#[derive(Serialize, Clone, Debug)]
pub struct VerifiedCount {
    pub class: &'static str,
    pub label: &'static str,
    pub count: usize,
}

impl VerifierVerdicts {
    /// The verdicts of a `VERIFIED.json` document; none if it is not one.
    pub fn from_json(bytes: &[u8]) -> VerifierVerdicts {
        let by_id = serde_json::from_slice::<serde_json::Value>(bytes)
            .ok()
            .and_then(|v| {
                let specs = v.get("specs")?.as_object()?;
                Some(
                    specs
                        .iter()
                        .filter_map(|(k, v)| Some((k.clone(), v.as_str()?.to_string())))
                        .collect(),
                )
            })
            .unwrap_or_default();
        VerifierVerdicts { by_id }
    }

    /// The class of a verdict line: fully verified, verified on some instances, a refutation
    /// re-derived, evidence checked only, not certified, rejected.
    pub fn class(line: Option<&str>) -> (&'static str, &'static str) {
        let Some(l) = line else {
            return ("not-run", "verifier not run");
        };
        if let Some(rest) = l.strip_prefix("verified (claim re-derived): ") {
            let mut w = rest.split_whitespace();
            let (n, m) = (w.next(), w.nth(1));
            return if n.is_some() && n == m {
                ("verified", "verified (claim re-derived)")
            } else {
                ("partly-verified", "verified on some instances")
            };
        }
        if l.starts_with("refuted (re-derived)") {
            ("refuted", "refutation re-derived")
        } else if l.starts_with("evidence checked") {
            ("evidence", "evidence checked, claim not re-derived")
        } else if l.starts_with("REJECTED") {
            ("rejected", "rejected")
        } else {
            ("not-certified", "not certified")
        }
    }

    /// The counts of each class over `ids` (classes with no spec left out).
    pub fn counts<'a>(&self, ids: impl Iterator<Item = &'a str>) -> Vec<VerifiedCount> {
        let mut out: Vec<VerifiedCount> = Vec::new();
        for id in ids {
            let (class, label) = Self::class(self.by_id.get(id).map(String::as_str));
            match out.iter_mut().find(|c| c.class == class) {
                Some(c) => c.count += 1,
                None => out.push(VerifiedCount {
                    class,
                    label,
                    count: 1,
                }),
            }
        }
        let order = [
            "verified",
            "partly-verified",
            "refuted",
            "evidence",
            "not-certified",
            "rejected",
            "not-run",
        ];
        out.sort_by_key(|c| order.iter().position(|o| *o == c.class));
        out
    }
}
