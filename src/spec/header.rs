//! The header every spec shares — `kind`, `source`, `statement`, `notes`, `expect`, `because`,
//! `uses`, `corrected_by`, `read_as`, `tier`, `sanity`, `output` — read once for all kinds, with the location of every field.
//!
//! A document is read twice from the same text: once as [`RawHeader`] (which ignores the
//! body's keys), once as the raw body of its kind through [`Body`], which skips the header's
//! keys and hands every other key to the body struct. The body structs keep
//! `deny_unknown_fields`, so a misspelt key — in the header or the body — is still an error at
//! its line and column, and no body struct repeats the header's fields.

use super::raw::{RawOutput, Sp};
use schemars::JsonSchema;
use serde::de::{
    value::MapAccessDeserializer, DeserializeSeed, IgnoredAny, IntoDeserializer, MapAccess, Visitor,
};
use serde::{Deserialize, Deserializer};
use std::fmt;
use std::marker::PhantomData;

/// The keys of the header; a body struct never declares them.
pub const HEADER_KEYS: &[&str] = &[
    "kind",
    "source",
    "statement",
    "notes",
    "expect",
    "because",
    "uses",
    "corrected_by",
    "read_as",
    "tier",
    "sanity",
    "output",
];

/// The common header of a spec.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
pub struct RawHeader {
    /// The spec kind (the schema lists the registered kinds here).
    pub kind: Sp<String>,
    /// The numbered result of the paper, e.g. "Thm 5.43".
    pub source: Sp<String>,
    /// The statement as the paper words it.
    #[serde(default)]
    pub statement: Option<String>,
    #[serde(default)]
    pub notes: Option<String>,
    /// `holds` (default) or `refuted` (the paper's statement kept as printed).
    #[serde(default)]
    pub expect: Option<Sp<String>>,
    /// Why a spec is expected refuted: `erratum` (false as printed) or `reading` (false only
    /// under a reading the paper does not intend).
    #[serde(default)]
    pub because: Option<Sp<String>>,
    /// Ids of the specs this result rests on (its proof's citations): each must be loaded in
    /// the run and hold, else this spec does not hold either (docs/design.md §2, premises).
    #[serde(default)]
    pub uses: Vec<Sp<String>>,
    /// For `expect: refuted`, an erratum: the id of the corrected claim, which must hold on the
    /// same range and disagree with this one at its counterexample (docs/design.md §2).
    #[serde(default)]
    pub corrected_by: Option<Sp<String>>,
    /// For `expect: refuted`, a reading: the id of the spec stating the reading the paper
    /// means, which must hold (docs/design.md §2).
    #[serde(default)]
    pub read_as: Option<Sp<String>>,
    /// `long`: a check too slow for the main job (seconds to minutes), run by `grundy build
    /// --long` / `grundy check --long` (docs/design.md §2, tiers). Absent: the main tier.
    #[serde(default)]
    pub tier: Option<Sp<String>>,
    /// Why the spec cannot fail on mathematical grounds (an arithmetic identity, a fact true by
    /// definition, two implementations of one game): it is a sanity check of the code, shown
    /// as such in the report and not counted among the results.
    #[serde(default)]
    pub sanity: Option<Sp<String>>,
    /// Artifacts to write: a template from `templates/` and a path under `output/`.
    #[serde(default)]
    pub output: Vec<RawOutput>,
}

/// The body of a spec of kind `T`: every key but the header's.
pub struct Body<T>(pub T);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Body<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = T;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a spec: a mapping of keys to values")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
                T::deserialize(MapAccessDeserializer::new(SkipHeader(map)))
            }
        }
        d.deserialize_map(V(PhantomData)).map(Body)
    }
}

/// A map with the header's keys (and their values) left out.
struct SkipHeader<A>(A);

impl<'de, A: MapAccess<'de>> MapAccess<'de> for SkipHeader<A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        loop {
            let Some(key) = self.0.next_key::<String>()? else {
                return Ok(None);
            };
            if HEADER_KEYS.contains(&key.as_str()) {
                self.0.next_value::<IgnoredAny>()?;
                continue;
            }
            return seed.deserialize(key.into_deserializer()).map(Some);
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        self.0.next_value_seed(seed)
    }
}

/// A whole spec as the JSON Schema describes it: the header and the body of one kind.
#[derive(JsonSchema)]
pub struct WithHeader<T: JsonSchema> {
    #[serde(flatten)]
    pub header: RawHeader,
    #[serde(flatten)]
    pub body: T,
}

pub use crate::check::header::{Companion, Header};

impl Header {
    pub fn from_raw(h: &RawHeader) -> Header {
        Header {
            source: h.source.value().clone(),
            statement: h.statement.clone(),
            notes: h.notes.clone(),
            uses: h.uses.iter().map(|u| u.value().clone()).collect(),
            uses_at: h.uses.iter().map(|u| (u.line(), u.column())).collect(),
            companion_at: h
                .corrected_by
                .as_ref()
                .or(h.read_as.as_ref())
                .map_or((0, 0), |l| (l.line(), l.column())),
            companion: match (&h.corrected_by, &h.read_as) {
                (Some(c), _) => Some(Companion::CorrectedBy(c.value().clone())),
                (None, Some(r)) => Some(Companion::ReadAs(r.value().clone())),
                (None, None) => None,
            },
            long: h.tier.as_ref().is_some_and(|t| t.value() == "long"),
            sanity: h.sanity.as_ref().map(|s| s.value().trim().to_string()),
        }
    }
}
