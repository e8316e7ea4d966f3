//! Stage one of reading a spec: raw serde structs that mirror the YAML exactly
//! (`deny_unknown_fields`), with source locations kept for every field that can be wrong.
//! Stage two (validation into model types) is in the sibling modules.

use indexmap::IndexMap;
use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::Deserialize;
use std::borrow::Cow;

/// A value with the line and column it came from.
#[derive(Debug, Clone, Deserialize)]
#[serde(transparent)]
pub struct Sp<T>(pub serde_saphyr::Spanned<T>);

impl<T> Sp<T> {
    pub fn value(&self) -> &T {
        &self.0.value
    }
    pub fn line(&self) -> u64 {
        self.0.referenced.line()
    }
    pub fn column(&self) -> u64 {
        self.0.referenced.column()
    }
    pub fn byte_offset(&self) -> Option<usize> {
        self.0.referenced.span().byte_offset().map(|b| b as usize)
    }
}

impl<T: JsonSchema> JsonSchema for Sp<T> {
    fn schema_name() -> Cow<'static, str> {
        T::schema_name()
    }
    fn schema_id() -> Cow<'static, str> {
        T::schema_id()
    }
    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        T::json_schema(generator)
    }
    fn inline_schema() -> bool {
        T::inline_schema()
    }
}

/// Only the `kind` of a spec: read first, to choose the raw struct for the whole document.
#[derive(Debug, Deserialize)]
pub struct KindOnly {
    pub kind: Sp<String>,
}

/// A finite parameter range: `7`, `"2..=8"` (inclusive), `"4..<9"` (exclusive; a bare `4..9` is refused), `"3,5,7"`, `[3, 5, 7]`, or all
/// multisets (partitions) in a window of sums: `{multisets: {max_sum: 16}}`, all connected graphs
/// `{graphs: {vertices: "1..=6"}}` or all posets `{posets: {elements: "1..=6"}}`.
// Read by its own `Deserialize` (the schema is the untagged one): an untagged enum's error is
// "data did not match any variant", which names no range kind; here a mapping is read by its
// one key, so `{graphs: {vertex: 3}}` is refused as a `graphs` range with the field it lacks,
// and an unknown kind is named.
#[derive(Debug, Clone, JsonSchema)]
#[serde(untagged)]
pub enum RawRange {
    Int(i64),
    Text(String),
    List(Vec<i64>),
    Multisets {
        multisets: RawMultisets,
    },
    /// Every connected graph (up to isomorphism, as graph6) with a number of vertices in the
    /// range: `{graphs: {vertices: "1..=6"}}`.
    Graphs {
        graphs: RawGraphs,
    },
    /// Every poset (up to isomorphism, as `Poset(1<2, 1<3)`) with a number of elements in the
    /// range: `{posets: {elements: "1..=6"}}`.
    Posets {
        posets: RawPosets,
    },
}

impl<'de> Deserialize<'de> for RawRange {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::{Error, MapAccess, SeqAccess, Visitor};
        struct Range;
        impl<'de> Visitor<'de> for Range {
            type Value = RawRange;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a range: an integer, \"2..=8\", \"4..<9\", \"3,5,7\", [3, 5, 7], {multisets: {..}}, {graphs: {..}} or {posets: {..}}")
            }
            fn visit_i64<E: Error>(self, v: i64) -> Result<RawRange, E> {
                Ok(RawRange::Int(v))
            }
            fn visit_u64<E: Error>(self, v: u64) -> Result<RawRange, E> {
                i64::try_from(v)
                    .map(RawRange::Int)
                    .map_err(|_| E::custom(format!("{v} is too large for a parameter value")))
            }
            fn visit_str<E: Error>(self, v: &str) -> Result<RawRange, E> {
                Ok(RawRange::Text(v.to_string()))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<RawRange, A::Error> {
                let mut out = Vec::new();
                while let Some(ListInt(x)) = seq.next_element()? {
                    out.push(x);
                }
                Ok(RawRange::List(out))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawRange, A::Error> {
                let kind: String = map.next_key()?.ok_or_else(|| {
                    A::Error::custom("an empty mapping is not a range: expected {multisets: ..}, {graphs: ..} or {posets: ..}")
                })?;
                // The inner error's location moves before its message: the report's caret
                // is at the range.
                let within = |e: A::Error| {
                    let e = e.to_string();
                    match e.rsplit_once(" at line ") {
                        Some((m, at)) => {
                            A::Error::custom(format!("the `{kind}` range at line {at}: {m}"))
                        }
                        None => A::Error::custom(format!("the `{kind}` range: {e}")),
                    }
                };
                let range = match kind.as_str() {
                    "multisets" => RawRange::Multisets {
                        multisets: map.next_value().map_err(within)?,
                    },
                    "graphs" => RawRange::Graphs {
                        graphs: map.next_value().map_err(within)?,
                    },
                    "posets" => RawRange::Posets {
                        posets: map.next_value().map_err(within)?,
                    },
                    other => {
                        return Err(A::Error::custom(format!(
                            "unknown range kind `{}`: expected multisets, graphs or posets",
                            crate::term::excerpt(&other.escape_debug().to_string())
                        )))
                    }
                };
                if let Some(more) = map.next_key::<String>()? {
                    return Err(A::Error::custom(format!(
                        "a range is one kind: `{kind}` and `{}` are both given",
                        crate::term::excerpt(&more.escape_debug().to_string())
                    )));
                }
                Ok(range)
            }
        }
        d.deserialize_any(Range)
    }
}

/// An integer of a list range; anything else is named ("`x` is not an integer", where the
/// integer reader said "invalid i64").
struct ListInt(i64);

impl<'de> Deserialize<'de> for ListInt {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::{Error, Visitor};
        struct Int;
        impl Visitor<'_> for Int {
            type Value = ListInt;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an integer (a list range holds integers)")
            }
            fn visit_i64<E: Error>(self, v: i64) -> Result<ListInt, E> {
                Ok(ListInt(v))
            }
            fn visit_u64<E: Error>(self, v: u64) -> Result<ListInt, E> {
                i64::try_from(v)
                    .map(ListInt)
                    .map_err(|_| E::custom(format!("{v} is too large for a parameter value")))
            }
            fn visit_str<E: Error>(self, v: &str) -> Result<ListInt, E> {
                Err(E::custom(format!(
                    "`{}` is not an integer (a list range holds integers)",
                    crate::term::excerpt(&v.escape_debug().to_string())
                )))
            }
        }
        d.deserialize_any(Int)
    }
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawPosets {
    /// A range of element counts (`"1..=6"`, `"2..<5"` or one count), at most 1..=7.
    pub elements: RawVertexRange,
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawGraphs {
    /// A range of vertex counts (`"1..=6"`, `"2..<5"` or one count), at most 1..=7.
    pub vertices: RawVertexRange,
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum RawVertexRange {
    Int(i64),
    Text(String),
}

/// An element or vertex name: a string, or an integer used as a name.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum RawName {
    Int(i64),
    Str(String),
}

impl RawName {
    pub fn name(&self) -> String {
        match self {
            RawName::Int(i) => i.to_string(),
            RawName::Str(s) => s.clone(),
        }
    }
}

/// All multisets of positive integers with the given bounds (each multiset nonincreasing).
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawMultisets {
    pub max_sum: i64,
    #[serde(default)]
    pub min_sum: Option<i64>,
    #[serde(default)]
    pub min_parts: Option<i64>,
    #[serde(default)]
    pub max_parts: Option<i64>,
    #[serde(default)]
    pub min_part: Option<i64>,
    #[serde(default)]
    pub max_part: Option<i64>,
}

/// A value: an integer, an expression, or a list of cases (the paper's case formulas).
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum RawFormula {
    Int(i64),
    Expr(String),
    Cases { cases: Vec<RawCase> },
}

/// One case: `when` a predicate holds, the value is `value`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawCase {
    pub when: String,
    pub value: RawScalar,
    /// Why no instance of the range reaches this case (docs/design.md §2); without it, a case no
    /// instance reaches makes the claim fail.
    #[serde(default)]
    pub unreached: Option<String>,
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum RawScalar {
    Int(i64),
    Expr(String),
}

/// An artifact to write: a template from `templates/` and a path under `output/`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawOutput {
    pub template: Sp<String>,
    pub path: Sp<String>,
}

/// `kind: claim`: a value stated for every instance of a family.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawClaim {
    /// Game expression with parameters, e.g. "TER(W_{m,n})".
    pub game: Sp<String>,
    /// `hull` (default) or `geodetic`.
    #[serde(default)]
    pub closure: Option<Sp<String>>,
    /// Finite ranges of the parameters.
    #[serde(default)]
    pub params: IndexMap<String, Sp<RawRange>>,
    /// Predicate selecting instances (or positions): parameters and features.
    #[serde(default, rename = "where")]
    pub filter: Option<Sp<String>>,
    /// Named auxiliary values, in order: `d: "n - m"`.
    #[serde(default, rename = "let")]
    pub lets: IndexMap<String, Sp<String>>,
    /// `start` (default) or `reachable` (every reachable position selected by `where`).
    #[serde(default)]
    pub positions: Option<Sp<String>>,
    /// The claimed nim-value.
    #[serde(default)]
    pub nim: Option<Sp<RawFormula>>,
    /// The claimed outcome, "P" or "N".
    #[serde(default)]
    pub outcome: Option<Sp<RawFormula>>,
    /// A statement that is not a value: a predicate over parameters and features that must be
    /// true at every selected instance or position (no game value is computed).
    #[serde(default)]
    pub holds: Option<Sp<String>>,
    /// The group the statement names, with the parameters (`Dih(Cyc(3) x Cyc(3))`,
    /// `Dih(n)`): the game's group must be isomorphic to it at every instance.
    #[serde(default, rename = "is")]
    pub is_group: Option<Sp<String>>,
}

/// `kind: table`: a computed table rendered through templates.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawTable {
    pub title: String,
    /// `values` (default), `signatures` (Table 5.1) or `sequence`.
    #[serde(default)]
    pub table: Option<Sp<String>>,
    #[serde(default)]
    pub closure: Option<Sp<String>>,
    /// One row parameter.
    #[serde(default)]
    pub rows: IndexMap<String, Sp<RawRange>>,
    /// One column parameter (with `game`), or none (with `games`).
    #[serde(default)]
    pub columns: IndexMap<String, Sp<RawRange>>,
    #[serde(default)]
    pub game: Option<Sp<String>>,
    /// Column header → game template.
    #[serde(default)]
    pub games: IndexMap<String, String>,
    /// Data of the built-in table kinds (`signatures`: `max_sum` and `rows`).
    #[serde(default)]
    pub data: Option<Sp<serde_json::Value>>,
}

/// `kind: sets`: a claim about 𝒢, 𝒩, 𝒢* or 𝒩* of a graph family, or about `Tr` of a family.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawSets {
    /// Graph with parameters, e.g. "W_{m,n}" (omit for `transversal_of`).
    #[serde(default)]
    pub graph: Option<Sp<String>>,
    #[serde(default)]
    pub closure: Option<Sp<String>>,
    #[serde(default)]
    pub params: IndexMap<String, Sp<RawRange>>,
    #[serde(default, rename = "where")]
    pub filter: Option<Sp<String>>,
    /// `G`, `N`, `G*` or `N*`.
    #[serde(default)]
    pub family: Option<Sp<String>>,
    /// The family exactly, as lists of vertex names.
    #[serde(default)]
    pub members: Option<Sp<Vec<Vec<RawName>>>>,
    /// Membership predicate over `S` (also `comp`, `size`, `V`, `adj`).
    #[serde(default)]
    pub rule: Option<Sp<String>>,
    /// The claim is `Tr(transversal_of) = members`.
    #[serde(default)]
    pub transversal_of: Option<Sp<Vec<Vec<RawName>>>>,
}

/// `kind: sequence`: an octal game's nim sequence with its proved period, checked against
/// stated values, period and preperiod.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawSequence {
    pub title: String,
    /// Octal code, e.g. "0.137" (Dawson's Chess).
    pub octal: Sp<String>,
    /// Values to compute (default 1000).
    #[serde(default)]
    pub length: Option<Sp<u64>>,
    /// Stated values G(0), G(1), …: digits (one per character) or comma-separated numbers.
    #[serde(default)]
    pub values: Option<Sp<String>>,
    #[serde(default)]
    pub period: Option<Sp<u64>>,
    #[serde(default)]
    pub preperiod: Option<Sp<u64>>,
    /// Whether the stated preperiod is claimed to be the least one.
    #[serde(default)]
    pub least_preperiod: Option<bool>,
}

/// `data` of a `table: signatures` spec (Table 5.1).
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawSigData {
    /// Every nonterminal multiset with sum up to this is checked against the rows.
    pub max_sum: u32,
    /// Check conditions (1)-(4) of the proof of Prop 5.14: `none` (default), `paper` (as stated)
    /// or `corrected`.
    #[serde(default)]
    pub conditions: Option<String>,
    pub rows: Vec<RawSigRow>,
}

/// One row of Table 5.1: `d` is `"<=-1"`, `"0"` or `">=4"`; `same`, `up`, `down`, `inf` are
/// nim(Ũ) for d̃ = d (σ > 0), d + 1 (λ > 1), d − 1 (ν = 0), ∞ (λ = 1, m = 2); omitted = blank.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawSigRow {
    pub p: u32,
    pub d: String,
    #[serde(default)]
    pub same: Option<u32>,
    #[serde(default)]
    pub up: Option<u32>,
    #[serde(default)]
    pub down: Option<u32>,
    #[serde(default)]
    pub inf: Option<u32>,
    pub subset: Vec<u32>,
    pub superset: Vec<u32>,
    pub mex: u32,
    /// The paper's boxes: columns (`same`, `up`, `down`, `inf`) one of whose d̃ must occur.
    #[serde(default)]
    pub boxed: Vec<String>,
}
