//! Writing the certificates of a build: one file per spec whose verdict can be certified
//! (each kind's [`crate::check::kind::SpecKind::certify`] makes its body with the
//! [`crate::certify`] encoders), and a status line per spec.

use crate::certify::{Body, Made, MAX_TOTAL_BYTES};
use crate::check::diagram::Family;
use crate::check::kind::{Checked, Context};
use crate::spec::Spec;
use rayon::prelude::*;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

/// The certificates of all specs (paths relative to output/) and one status per spec, in
/// the order of `specs`: "certificate written: certificates/<id>.json" (with the instances
/// left out, if any) or "not certified: <reason>".
pub fn certificates(
    checked: &[(&Spec, &Checked)],
    dependencies: &HashMap<String, Arc<Family>>,
) -> (Vec<(PathBuf, Vec<u8>)>, Vec<String>) {
    // The start families of the diagrams checked valid, for sinks that refer to them (with
    // `--only`, also those checked only as references of the rebuilt specs).
    let ctx = Context {
        families: checked
            .iter()
            .filter_map(|(s, c)| Some((s.id().to_string(), c.family.clone()?)))
            .chain(dependencies.iter().map(|(k, f)| (k.clone(), f.clone())))
            .filter(|(_, f)| f.valid)
            .collect(),
        certify: true,
    };
    // Certificates made with the check are taken as they are.
    let computed: Vec<Option<Result<Made, String>>> = checked
        .par_iter()
        .map(|(s, c)| {
            c.certificate
                .is_none()
                .then(|| crate::graph::io::in_folder_of(s.body.file(), || make(s, c, &ctx)))
        })
        .collect();
    let mut files = Vec::new();
    let mut status = Vec::new();
    let mut total = 0usize;
    for ((spec, c), now) in checked.iter().zip(&computed) {
        let made = match (now, &c.certificate) {
            (Some(r), _) => r,
            (None, Some(m)) => m.as_ref(),
            (None, None) => unreachable!("computed above when not made with the check"),
        };
        let r = made.as_ref().map_err(Clone::clone).and_then(|m| {
            let path = PathBuf::from("certificates").join(format!("{}.json", spec.id()));
            if total + m.bytes.len() > MAX_TOTAL_BYTES {
                return Err(format!(
                    "the certificate ({} bytes) would take all certificates past {MAX_TOTAL_BYTES} bytes",
                    m.bytes.len()
                ));
            }
            total += m.bytes.len();
            let mut s = format!("certificate written: {}", path.display());
            if let Some(first) = &m.first_skipped {
                s.push_str(&format!(
                    " ({} instances certified; {} not: {first})",
                    m.certified, m.skipped
                ));
            }
            files.push((path, m.bytes.clone()));
            Ok(s)
        });
        status.push(r.unwrap_or_else(|why| format!("not certified: {why}")));
    }
    (files, status)
}

/// The certificate file of one spec's verdict, or why it has none. `ctx` must hold the start
/// families of the diagrams the spec refers to.
pub fn make(spec: &Spec, checked: &Checked, ctx: &Context) -> Result<Made, String> {
    let b = body(spec, checked, ctx)?;
    let skipped: Vec<Value> = b
        .skipped
        .iter()
        .map(|(i, why)| json!({ "instance": i, "reason": why }))
        .collect();
    let mut doc = json!({
        "format": "grundy-certificate/1",
        "spec": spec.id(),
        "spec_sha256": spec.sha256,
        "source": checked.report.source,
        // What the spec checked, in its own formal terms, for a reader of the certificate
        // (issue 42 item 4); the verifier re-derives the claim from the spec, not from this.
        "checked_as": crate::render::html::checked_as_file(&checked.report.kind, &checked.report.file),
        "kind": b.kind,
        "not_certified": skipped,
    });
    if let (Value::Object(m), Value::Object(d)) = (&mut doc, b.data) {
        m.extend(d);
    }
    Ok(Made {
        bytes: serde_json::to_vec(&doc).expect("certificates serialise"),
        certified: b.certified,
        skipped: b.skipped.len(),
        first_skipped: b.skipped.first().map(|(_, why)| why.clone()),
    })
}

fn body(spec: &Spec, checked: &Checked, ctx: &Context) -> Result<Body, String> {
    if !checked.report.verdict.holds() {
        return spec.body.certify_refutation(ctx, checked);
    }
    spec.body.certify(ctx, checked)
}
