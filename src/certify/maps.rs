//! Option-preserving maps (design.md §4, paper §2.4) given by a spec's script, or the
//! canonical quotient map: on each instance within budget, the pairs (p, f(p)) for every
//! reachable position p of the source. The checker recomputes both games' options and
//! compares Opt(f(p)) with f(Opt(p)); on a quotient side (named in the entry) it compares
//! classes, which it finds itself, after checking the quotient is a congruence.

use super::{encode, Body, MAX_INSTANCE_POSITIONS, MAX_SPEC_POSITIONS};
use crate::check::reduction::{MapPairs, Reduction};
use serde_json::json;

/// `kept`: the pairs the check computed (the map is evaluated again only without them).
pub(crate) fn certify(r: &Reduction, kept: Option<&Vec<MapPairs>>) -> Result<Body, String> {
    let computed;
    let all: &[MapPairs] = match kept {
        Some(k) => k,
        None => {
            computed = r
                .map_pairs(MAX_INSTANCE_POSITIONS)
                .map_err(|e| e.to_string())?
                .ok_or("the map is not certified")?;
            &computed
        }
    };
    let mut maps = Vec::new();
    let mut skipped = Vec::new();
    let mut budget = MAX_SPEC_POSITIONS;
    for m in all {
        let described = encode::game(&m.from).and_then(|f| Ok((f, encode::game(&m.to)?)));
        match (&m.pairs, described) {
            (Ok(pairs), Ok((from, to))) if pairs.len() <= budget => {
                budget -= pairs.len();
                let pairs: Vec<_> = pairs
                    .iter()
                    .map(|(p, q)| json!([encode::pos(p), encode::pos(q)]))
                    .collect();
                let mut entry = json!({
                    "instance": &m.instance,
                    "from": from,
                    "to": to,
                    "pairs": pairs,
                    "start_to_start": r.claims.start_to_start,
                });
                // Written only for quotients, so that every other certificate stays as it was.
                for (key, q) in [
                    ("from_quotient", m.from_quotient),
                    ("to_quotient", m.to_quotient),
                ] {
                    if let Some(q) = q {
                        entry[key] = json!(q.name());
                    }
                }
                maps.push(entry);
            }
            (Ok(_), Ok(_)) => skipped.push((
                m.instance.clone(),
                format!("past the per-spec budget of {MAX_SPEC_POSITIONS} pairs"),
            )),
            (Err(why), _) => skipped.push((m.instance.clone(), why.clone())),
            (_, Err(why)) => skipped.push((m.instance.clone(), why)),
        }
    }
    if maps.is_empty() {
        return Err(format!("no instance fits ({} instances)", skipped.len()));
    }
    Ok(Body {
        kind: "maps",
        certified: maps.len(),
        data: json!({ "maps": maps }),
        skipped,
    })
}
