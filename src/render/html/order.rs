//! The paper's order of results: by the numbers of their labels compared as numbers (4.7 before
//! 4.10, Thm 6 before Thm 16), whatever the word (Example 4.7 before Prop 4.8, as papers number
//! them in one sequence). Labels without a number ("data (seed 002)") come last.

use std::cmp::Ordering;

/// The sort key of a source label such as "Prop 5.23", "Thm 5.43 case 1", "Thms 5.24, 5.29",
/// "§5.3" or "Thm 16".
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct SourceKey {
    /// 0 when the label carries a number, 1 when not (such results follow all numbered ones).
    unnumbered: u8,
    /// The label's number, component by component.
    number: Vec<u64>,
    /// Numbers later in the label ("case 1"), as a tie-break.
    rest: Vec<u64>,
    /// The label's text, as a last tie-break.
    text: String,
}

fn numbers(s: &str) -> Vec<u64> {
    s.split(|c: char| !c.is_ascii_digit())
        .filter(|x| !x.is_empty())
        .filter_map(|x| x.parse().ok())
        .collect()
}

pub fn source_key(source: &str) -> SourceKey {
    let trimmed = source.trim().trim_start_matches('§');
    let mut tokens = trimmed.split_whitespace();
    let first = tokens.next().unwrap_or("");
    // "Prop 5.23 …": the number is the second token; "§5.3" or "5.3": the first.
    let (number_token, rest): (&str, Vec<&str>) = if first.starts_with(|c: char| c.is_ascii_digit())
    {
        (first, tokens.collect())
    } else {
        let second = tokens.next().unwrap_or("");
        (second, tokens.collect())
    };
    let number = if number_token.starts_with(|c: char| c.is_ascii_digit()) {
        numbers(number_token)
    } else {
        Vec::new()
    };
    SourceKey {
        unnumbered: u8::from(number.is_empty()),
        rest: numbers(&rest.join(" ")),
        number,
        text: source.to_string(),
    }
}

/// Compares two results by their source labels, then by id.
pub fn by_source(a: (&str, &str), b: (&str, &str)) -> Ordering {
    source_key(a.0)
        .cmp(&source_key(b.0))
        .then_with(|| a.1.cmp(b.1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sorted(mut v: Vec<&str>) -> Vec<&str> {
        v.sort_by(|a, b| by_source((a, ""), (b, "")));
        v
    }

    #[test]
    fn numbers_compare_as_numbers() {
        assert_eq!(
            sorted(vec!["Prop 4.10", "Example 4.7", "Prop 4.8", "Example 2.1"]),
            vec!["Example 2.1", "Example 4.7", "Prop 4.8", "Prop 4.10"]
        );
        assert_eq!(
            sorted(vec!["Thm 16", "Thm 6", "Thms 14-16", "Thm 13"]),
            vec!["Thm 6", "Thm 13", "Thms 14-16", "Thm 16"]
        );
        assert_eq!(
            sorted(vec![
                "Thm 5.43 case 2",
                "Thm 5.43",
                "Thm 5.43 case 1",
                "§5.3"
            ]),
            vec!["§5.3", "Thm 5.43", "Thm 5.43 case 1", "Thm 5.43 case 2"]
        );
        assert_eq!(
            sorted(vec!["data (seed 002)", "Thm 6"]),
            vec!["Thm 6", "data (seed 002)"]
        );
    }
}
