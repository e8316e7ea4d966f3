//! Option-preserving maps (design.md §4, paper §2.4) given by a spec's script: on each
//! instance within budget, the pairs (p, f(p)) for every reachable position p of the source.
//! The checker recomputes both games' options and compares Opt(f(p)) with f(Opt(p)).

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
                .ok_or("quotient maps send positions to classes, which are not certified")?;
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
                maps.push(json!({
                    "instance": &m.instance,
                    "from": from,
                    "to": to,
                    "pairs": pairs,
                    "start_to_start": r.claims.start_to_start,
                }));
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
