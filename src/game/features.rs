//! Named features of a position (numbers, booleans, lists, vertex sets): the vocabulary in
//! which specs write predicates and formulas over positions.

use serde::Serialize;
use std::collections::BTreeMap;

/// One feature value.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Value {
    Int(i64),
    Bool(bool),
    List(Vec<i64>),
    Set(Vec<String>),
    Str(String),
}

/// Features of a position, by name (ordered, so that reports are deterministic).
pub type Features = BTreeMap<String, Value>;

impl From<i64> for Value {
    fn from(v: i64) -> Self {
        Value::Int(v)
    }
}
impl From<bool> for Value {
    fn from(v: bool) -> Self {
        Value::Bool(v)
    }
}
impl From<Vec<i64>> for Value {
    fn from(v: Vec<i64>) -> Self {
        Value::List(v)
    }
}
