//! The header every spec shares — `kind`, `source`, `statement`, `notes`, `expect`, `because`,
//! `uses`, `output` — read once for all kinds, with the location of every field.
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
    "output",
];

/// The common header of a spec.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
pub struct RawHeader {
    /// The spec kind: claim, table, sets, sequence, diagram, reduction, figure, certificate.
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
    /// Ids of the specs this result rests on (its proof's citations).
    #[serde(default)]
    pub uses: Vec<Sp<String>>,
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

/// The validated header: what every spec says about itself, whatever its kind.
#[derive(Clone, Debug, Default)]
pub struct Header {
    pub source: String,
    pub statement: Option<String>,
    pub notes: Option<String>,
    /// Ids of the specs the result rests on, as the spec declares them.
    pub uses: Vec<String>,
}

impl Header {
    pub fn from_raw(h: &RawHeader) -> Header {
        Header {
            source: h.source.value().clone(),
            statement: h.statement.clone(),
            notes: h.notes.clone(),
            uses: h.uses.iter().map(|u| u.value().clone()).collect(),
        }
    }
}
