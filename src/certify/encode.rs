//! Games and positions in the certificates' self-describing encoding, which `grundy-verify`
//! reads without any of grundy's code: a graph is its vertex count and edge list (a removing
//! game under another closure than the default hull names it, `"closure": "geodetic"`), a vertex set
//! a bitmask (bit i = vertex i), a pin row the bitmask of standing pins, a multiset an
//! ascending list, an SPL position `{"c":…, "parts":[…]}` or `{"c":…, "Lambda": n}`, an edge
//! geography position `[token, "remaining edges as hex"]`, a sum or ordinal sum the list of
//! its components' positions; a registered family's game as its `FamilyGame::certificate`
//! says (Node Kayles: `{"NK": {"graph": …}}`, a position the bitmask of vertices in play).

use crate::game::spl::Partition;
use crate::game::{AnyGame, AnyPos, Game};
use crate::graph::Graph;
use serde_json::{json, Value};

fn graph(g: &Graph) -> Value {
    json!({ "n": g.n(), "edges": g.edges() })
}

/// The game's description, or why it cannot be certified.
pub fn game(g: &AnyGame) -> Result<Value, String> {
    Ok(match g {
        AnyGame::Removing(r) => {
            let closure = r.convexity().closure_kind();
            // A closure defined in a spec is certified as a closure game, bound to its spec's
            // bytes (certify/closure.rs), not by tables.
            if closure.spec_sha256().is_some() {
                return Err(format!(
                    "games under the {closure} closure are certified as closure games, from the empty selection"
                ));
            }
            let rule = r.rule().to_string();
            if closure == crate::graph::Closure::default() {
                json!({ rule: { "graph": graph(r.graph()), "start": r.start_set() } })
            } else {
                json!({ rule: { "graph": graph(r.graph()), "start": r.start_set(), "closure": closure.name() } })
            }
        }
        AnyGame::Nimber(k) => json!({ "nim": k }),
        AnyGame::Dawson(d) => json!({ "DC": { "pins": d.pins(), "start": d.start() } }),
        AnyGame::Multiset(m) => json!({ "multiset": m.start() }),
        AnyGame::Spl(s) => json!({ "SPL": spl(s.start_pos()) }),
        AnyGame::Ueg(u) => {
            let start = u.start();
            let all = if u.edges().len() >= 128 {
                u128::MAX
            } else {
                (1u128 << u.edges().len()) - 1
            };
            if start.edges != all {
                return Err("edge geography started with edges deleted is not certified".into());
            }
            json!({ "UEG": { "graph": graph(u.graph()), "token": start.token } })
        }
        AnyGame::Octal(_) => {
            return Err("octal heap games are certified by their sequence, not by tables".into())
        }
        AnyGame::Sum(parts) => {
            json!({ "sum": parts.iter().map(game).collect::<Result<Vec<_>, _>>()? })
        }
        AnyGame::Ordinal(a, b) => json!({ "ordinal": [game(a)?, game(b)?] }),
        AnyGame::Closure(c) => return Err(format!("closure games ({c}) are not certified yet")),
        AnyGame::Family(g) => g.certificate()?,
    })
}

fn spl(p: &crate::game::spl::SplPos) -> Value {
    match &p.lambda {
        Partition::Lambda(n) => json!({ "c": p.c, "Lambda": n }),
        Partition::Parts(parts) => json!({ "c": p.c, "parts": parts }),
    }
}

pub fn pos(p: &AnyPos) -> Value {
    match p {
        AnyPos::Set(s) | AnyPos::Pins(s) => json!(s),
        AnyPos::Nim(k) => json!(k),
        AnyPos::Heaps(h) | AnyPos::Multiset(h) => json!(h),
        AnyPos::Spl(s) => spl(s),
        AnyPos::Ueg(u) => json!([u.token, format!("{:x}", u.edges)]),
        AnyPos::Sum(ps) => Value::Array(ps.iter().map(pos).collect()),
        AnyPos::Ordinal(a, b) => json!([pos(a), pos(b)]),
        AnyPos::Elements(e) => json!(e.ones().collect::<Vec<_>>()),
        AnyPos::Family(p) => p.to_json(),
    }
}
