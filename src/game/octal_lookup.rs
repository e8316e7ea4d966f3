//! The one call site through which every solver asks for the value of an octal heap: a thin
//! wrapper over [`OctalCode::values_of`] (the nim sequence below `DIRECT_LIMIT`, the proved
//! Guy–Smith period beyond). Kept as a single function so a faster lookup can replace it.

use super::octal::{OctalCode, OctalError};

/// `G(h)` for each heap `h` of the octal game `code`.
pub fn heap_values(code: &OctalCode, heaps: &[u32]) -> Result<Vec<u32>, OctalError> {
    code.values_of(heaps)
}

/// `G(n)` of the octal game `code`.
pub fn heap_value(code: &OctalCode, n: u32) -> Result<u32, OctalError> {
    Ok(heap_values(code, &[n])?[0])
}

/// Dawson's Chess is the octal game 0.137.
pub fn dawson_code() -> OctalCode {
    OctalCode::parse("0.137").expect("0.137 is an octal code")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dawson_values_known_from_the_literature() {
        // 0.137: 0 1 1 2 0 3 1 1 0 3 3 2 2 4 (Winning Ways).
        let c = dawson_code();
        let want = [0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4];
        for (n, &w) in want.iter().enumerate() {
            assert_eq!(heap_value(&c, n as u32).unwrap(), w, "G({n})");
        }
    }
}
