//! Certificates of gamegraph figures (issue 43, figures): per panel its game, every drawn
//! node with the position it shows and its nim-value, and every arrow; a map's pairs on every
//! position of its source, the dashed arrows from a play to its image, and the boxed fibres.
//! `grundy-verify` builds each panel's game from the spec's name, solves every node itself,
//! checks every arrow is a move (up to the game's automorphisms in a quotient) and that no
//! move between drawn nodes is missing, checks the map option-preserving, and then reads the
//! rendered DOT and TikZ files: every node's printed value and miniature, and every arrow, must
//! be the certificate's. A graph figure (Figs 2.1, 4.1, 4.2) lists its copies, one per member
//! of each family drawn; the verifier computes the families itself and reads the drawings. A
//! structure diagram lists nothing: the verifier computes the classes and reads the DOT.

use super::{encode, Body};
use crate::check::figure::CertifiedFigure;
use serde_json::json;

pub(crate) fn certify(f: &CertifiedFigure) -> Result<Body, String> {
    let mut panels = Vec::new();
    for p in &f.panels {
        let nodes: Vec<_> = p
            .nodes
            .iter()
            .map(|(id, pos, nim)| json!([id, encode::pos(pos), nim]))
            .collect();
        panels.push(json!({
            "game": encode::game(&p.game)?,
            "nodes": nodes,
            "arrows": p.arrows,
        }));
    }
    let map = match &f.map {
        None => serde_json::Value::Null,
        Some(m) => {
            let pairs = m.pairs.as_ref().map_err(Clone::clone)?;
            json!({
                "instance": "figure",
                "from": encode::game(&m.from)?,
                "to": encode::game(&m.to)?,
                "pairs": pairs
                    .iter()
                    .map(|(p, q)| json!([encode::pos(p), encode::pos(q)]))
                    .collect::<Vec<_>>(),
                "start_to_start": true,
            })
        }
    };
    Ok(Body {
        kind: "figure",
        certified: 1,
        data: json!({
            "panels": panels,
            "map": map,
            "map_edges": f.map_edges,
            "fibres": f.fibres,
            "copies": f.copies,
        }),
        skipped: Vec::new(),
    })
}
