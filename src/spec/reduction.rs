//! `kind: reduction` specs (docs/design.md §4): the raw YAML form and its validation into
//! [`crate::check::reduction::Reduction`].
//!
//! ```yaml
//! kind: reduction
//! source: Prop 5.19
//! from: "DNT_{vk}(W_n)"          # source game template
//! to: "DC(pins) + *1"            # target game template (omit with `quotient:`)
//! params: { n: "5..=16", k: "1..=15" }
//! where: "k <= n - 1"
//! let: { vk: '"v" + k', pins: "n - 4" }   # also substituted into the templates
//! map: |                          # rhai script over the source position's features
//!   ...                           # → target position text, e.g. "|.|| + *1"
//! claims: [option_preserving, surjective, start_to_start]
//! ```
//!
//! Instead of `map`, `quotient: automorphisms | terminal` is the canonical quotient map of
//! `from`. `from_quotient` / `to_quotient` replace a side by its quotient gamegraph.

use super::header::RawHeader;
use super::raw::{RawRange, Sp};
use super::{
    closure_of, expectation, formula, outputs, params, probe_game, Source, Spec, SpecError,
};
use crate::check::reduction::{Claims, MapKind, QuotientKind, Reduction, Script, Side};
use indexmap::IndexMap;
use schemars::JsonSchema;
use serde::Deserialize;

/// `kind: reduction`: an option-preserving map between two game families.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawReduction {
    /// Source game template, e.g. "DNT_{vk}(W_n)".
    pub from: Sp<String>,
    /// `automorphisms` or `terminal`: the source side is that quotient gamegraph.
    #[serde(default)]
    pub from_quotient: Option<Sp<String>>,
    /// Target game template, e.g. "DC(pins) + *1" (omitted with `quotient`).
    #[serde(default)]
    pub to: Option<Sp<String>>,
    /// `automorphisms` or `terminal`: the target side is that quotient gamegraph.
    #[serde(default)]
    pub to_quotient: Option<Sp<String>>,
    /// The map: a rhai script over the source position's features (`selected`, `size`,
    /// `terminating`, …), `label` (the position's text), `marked` (vertex name → selected),
    /// the parameters and `let` values. It yields the target position as text (as the target
    /// game labels it: `|.|| + *1`, `{0,1,2}`, `(2,[3,1])`, `(*1, {v1, c})`) or, for sums,
    /// an array with one entry per component.
    #[serde(default)]
    pub map: Option<Sp<String>>,
    /// Built-in map: the canonical quotient map of `from` by `automorphisms` or `terminal`.
    #[serde(default)]
    pub quotient: Option<Sp<String>>,
    #[serde(default)]
    pub closure: Option<Sp<String>>,
    #[serde(default)]
    pub params: IndexMap<String, Sp<RawRange>>,
    #[serde(default, rename = "where")]
    pub filter: Option<Sp<String>>,
    #[serde(default, rename = "let")]
    pub lets: IndexMap<String, Sp<String>>,
    /// Any of `option_preserving`, `surjective`, `start_to_start`, `injective`.
    pub claims: Sp<Vec<String>>,
}

fn quotient(src: &Source, q: &Option<Sp<String>>) -> Result<Option<QuotientKind>, SpecError> {
    q.as_ref()
        .map(|s| {
            QuotientKind::parse(s.value()).ok_or_else(|| {
                src.error(
                    s,
                    format!("unknown quotient `{}`", s.value()),
                    Some("expected `automorphisms` or `terminal`".into()),
                )
            })
        })
        .transpose()
}

pub fn validate_reduction(
    src: &Source,
    id: &str,
    h: &RawHeader,
    r: RawReduction,
) -> Result<Spec, SpecError> {
    let closure = closure_of(src, &r.closure)?;
    super::closure_as_stated(src, h, closure, &r.closure)?;
    let ps = params(src, &r.params)?;
    if r.lets.is_empty() {
        probe_game(src, &r.from, &ps, closure)?;
        if let Some(to) = &r.to {
            probe_game(src, to, &ps, closure)?;
        }
    }
    let lets = r
        .lets
        .iter()
        .map(|(k, v)| Ok((k.clone(), formula(src, v)?, src.loc(v))))
        .collect::<Result<Vec<_>, SpecError>>()?;
    let filter = r.filter.as_ref().map(|f| formula(src, f)).transpose()?;
    let filter_loc = r
        .filter
        .as_ref()
        .map(|f| src.loc(f))
        .unwrap_or_else(|| src.loc(&r.from));
    let from = Side {
        game: r.from.value().clone(),
        loc: src.loc(&r.from),
        quotient: quotient(src, &r.from_quotient)?,
    };
    let (map, map_loc, to) = match (&r.map, &r.quotient, &r.to) {
        (Some(m), None, Some(to)) => {
            let script = Script::compile(m.value())
                .map_err(|(msg, off)| src.error_inside(m, off, format!("bad map script: {msg}")))?;
            let side = Side {
                game: to.value().clone(),
                loc: src.loc(to),
                quotient: quotient(src, &r.to_quotient)?,
            };
            (MapKind::Script(script), src.loc(m), side)
        }
        (None, Some(q), None) => {
            if r.to_quotient.is_some() || r.from_quotient.is_some() {
                return Err(src.error(
                    q,
                    "the built-in `quotient` map goes from `from` to its quotient: give no `from_quotient` or `to_quotient`",
                    None,
                ));
            }
            let side = Side {
                game: r.from.value().clone(),
                loc: src.loc(&r.from),
                quotient: quotient(src, &r.quotient)?,
            };
            (MapKind::Identity, src.loc(q), side)
        }
        (Some(m), None, None) => {
            return Err(src.error(m, "a `map` needs a target game `to`", None))
        }
        (None, Some(q), Some(_)) => {
            return Err(src.error(
                q,
                "the built-in `quotient` map has no `to`: its target is the quotient of `from`",
                None,
            ))
        }
        (Some(m), Some(_), _) => {
            return Err(src.error(m, "give either `map` or `quotient`, not both", None))
        }
        (None, None, _) => {
            return Err(src.error(
                &h.kind,
                "a reduction needs a `map` (a script) or a built-in `quotient`",
                Some("e.g. `quotient: automorphisms`".into()),
            ))
        }
    };
    let mut claims = Claims::default();
    for c in r.claims.value() {
        match c.as_str() {
            "option_preserving" => claims.option_preserving = true,
            "surjective" => claims.surjective = true,
            "start_to_start" => claims.start_to_start = true,
            "injective" => claims.injective = true,
            other => {
                return Err(src.error(
                    &r.claims,
                    format!("unknown claim `{other}`"),
                    Some(
                        "expected option_preserving, surjective, start_to_start or injective"
                            .into(),
                    ),
                ))
            }
        }
    }
    if claims == Claims::default() {
        return Err(src.error(&r.claims, "a reduction claims at least one property", None));
    }
    let reduction = Reduction {
        id: id.to_string(),
        file: src.file.to_string(),
        source: h.source.value().clone(),
        notes: h.notes.clone(),
        closure,
        params: ps,
        lets,
        filter,
        filter_loc,
        from,
        to,
        map,
        map_loc,
        claims,
        expect: expectation(src, h)?,
    };
    Ok(Spec::new(reduction, outputs(src, &h.output)?))
}
