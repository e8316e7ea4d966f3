//! Integer ranges as a mathematician reads them: `a..=b` is a, …, b (inclusive) and `a..<b`
//! is a, …, b − 1 (exclusive). A bare `a..b` is refused with a hint: read as Rust reads it,
//! `2..12` silently stopped at 11, which a reader of the spec takes for 12. Shared by spec
//! parameters, certificate kernel families and `grundy solve --param`.

use thiserror::Error;

/// The two ends of a range as written (integers or formulas), and whether `to` is included.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RangeText<'a> {
    pub from: &'a str,
    pub to: &'a str,
    pub inclusive: bool,
}

/// A range written `a..b`: which end is meant cannot be told.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[error("`{from}..{to}` is ambiguous: write `{from}..={to}` for {from} to {to} inclusive, or `{from}..<{to}` to leave out {to}")]
pub struct AmbiguousRange {
    pub from: String,
    pub to: String,
}

/// Splits `a..=b` or `a..<b`; `Ok(None)` when `text` is not a range (a list, a single value).
pub fn split(text: &str) -> Result<Option<RangeText<'_>>, AmbiguousRange> {
    if let Some((from, to)) = text.split_once("..=") {
        return Ok(Some(RangeText {
            from: from.trim(),
            to: to.trim(),
            inclusive: true,
        }));
    }
    if let Some((from, to)) = text.split_once("..<") {
        return Ok(Some(RangeText {
            from: from.trim(),
            to: to.trim(),
            inclusive: false,
        }));
    }
    match text.split_once("..") {
        Some((from, to)) => Err(AmbiguousRange {
            from: from.trim().to_string(),
            to: to.trim().to_string(),
        }),
        None => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inclusive_exclusive_and_the_refused_bare_form() {
        let r = split("2..=12").unwrap().unwrap();
        assert_eq!((r.from, r.to, r.inclusive), ("2", "12", true));
        let r = split(" 0 ..< k ").unwrap().unwrap();
        assert_eq!((r.from, r.to, r.inclusive), ("0", "k", false));
        let e = split("2..12").unwrap_err().to_string();
        assert!(e.contains("`2..=12`") && e.contains("`2..<12`"), "{e}");
        assert_eq!(split("3,5,7"), Ok(None));
    }
}
