//! Certificates for `grundy-verify` (issue: an independent verifier): for every holding verdict
//! that can be certified within budget, a compact deterministic JSON file under
//! `output/certificates/` from which the small checker in `verify/` re-derives the verdict
//! from the definitions alone, sharing no code with the solver.
//!
//! Kinds: nim-value tables closed under options (claims), the Guy–Smith period data of octal
//! sequences, strategies of case analysis diagrams, and even-kernel play trees for edge
//! geography. Tables list literal positions (no symmetry reduction, which the checker would
//! have to trust), so large instances exceed the per-instance budget and are listed in the
//! certificate as not certified, with the reason; a spec none of whose instances fits is
//! reported "not certified" with the reason.

pub(crate) mod claims;
pub(crate) mod closure;
pub mod encode;
pub(crate) mod kernels;
pub(crate) mod maps;
pub(crate) mod octal;
pub(crate) mod strategy;

use crate::check::diagram::Family;
use crate::check::kind::{Checked, Context};
use crate::game::{AnyGame, AnyPos, Game};
use crate::solve::Solver;
use crate::spec::Spec;
use rayon::prelude::*;
use rustc_hash::FxHashSet;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

/// Most positions listed for one instance.
pub const MAX_INSTANCE_POSITIONS: usize = 10_000;
/// Most positions listed for one spec, over all its instances.
pub const MAX_SPEC_POSITIONS: usize = 100_000;
/// All certificates together.
pub const MAX_TOTAL_BYTES: usize = 50_000_000;

/// What certifying one spec gave: the certificate's JSON body (kind and data), the instances
/// left out with their reasons; or why the spec is not certified at all.
pub struct Body {
    pub kind: &'static str,
    pub data: Value,
    pub certified: usize,
    pub skipped: Vec<(String, String)>,
}

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
    };
    // Certificates made with the check are taken as they are.
    let computed: Vec<Option<Result<Made, String>>> = checked
        .par_iter()
        .map(|(s, c)| c.certificate.is_none().then(|| make(s, c, &ctx)))
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

/// A certificate file made: its bytes, and what its status line says.
#[derive(Debug)]
pub struct Made {
    pub bytes: Vec<u8>,
    pub certified: usize,
    pub skipped: usize,
    /// The reason the first instance left out was left out.
    pub first_skipped: Option<String>,
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
        return Err("a refuted verdict carries its counterexample instead".into());
    }
    spec.body.certify(ctx, checked)
}

/// Every position reachable from `start`, breadth-first, unsplit; `Err` past `cap`.
pub(crate) fn reachable_within(
    game: &AnyGame,
    start: &AnyPos,
    cap: usize,
) -> Result<Vec<AnyPos>, String> {
    breadth_first(game, std::slice::from_ref(start), cap, false)
}

/// The roots, then every position reached from them breadth-first (a deterministic order);
/// with `split`, an option the game splits into a disjoint sum ([`Game::components`]) is
/// reached as its parts instead. `Err` past `cap` positions.
fn breadth_first(
    game: &AnyGame,
    roots: &[AnyPos],
    cap: usize,
    split: bool,
) -> Result<Vec<AnyPos>, String> {
    let mut seen: FxHashSet<AnyPos> = FxHashSet::default();
    let mut order: Vec<AnyPos> = Vec::new();
    for r in roots {
        if seen.insert(r.clone()) {
            order.push(r.clone());
        }
    }
    let mut i = 0;
    while i < order.len() {
        for o in game.options(&order[i]) {
            let parts = if split {
                game.components(&o)
            } else {
                Vec::new()
            };
            let reached = if parts.len() >= 2 { parts } else { vec![o] };
            for q in reached {
                if seen.insert(q.clone()) {
                    if order.len() >= cap {
                        return Err(format!(
                            "more than {cap} positions (the budget left for the instance)"
                        ));
                    }
                    order.push(q);
                }
            }
        }
        i += 1;
    }
    Ok(order)
}

/// Every position reachable from `roots` with its nim-value, breadth-first (a deterministic
/// order), as certificate entries; `Err` past `cap` positions. An option the game splits into
/// a disjoint sum ([`Game::components`], Node Kayles) is listed as its parts, not itself: the
/// verifier splits it by its own rules and takes the XOR of the parts' listed values.
pub(crate) fn nim_table(
    game: &AnyGame,
    roots: &[AnyPos],
    cap: usize,
) -> Result<Vec<(Value, u32)>, String> {
    let order = breadth_first(game, roots, cap, true)?;
    let mut solver = Solver::new(game);
    Ok(order
        .iter()
        .map(|p| (encode::pos(p), solver.nim(p)))
        .collect())
}
