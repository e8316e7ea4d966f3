//! The paper's order of results: by the numbers of their labels compared as numbers (4.7 before
//! 4.10, Thm 6 before Thm 16), whatever the word (Example 4.7 before Prop 4.8, as papers number
//! them in one sequence). Labels without a number ("data (seed 002)") come last. The same
//! labels give the index its anchors by paper number (`#thm-5.43`, `#fig-5.2`).

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

/// The anchor prefix of a label's word ("Thms" → `thm`, "Example" → `ex`), if it is one.
fn anchor_kind(word: &str) -> Option<&'static str> {
    Some(
        match word.trim_end_matches('.').to_ascii_lowercase().as_str() {
            "thm" | "thms" | "theorem" | "theorems" => "thm",
            "prop" | "props" | "proposition" | "propositions" => "prop",
            "lemma" | "lemmas" => "lemma",
            "cor" | "cors" | "corollary" => "cor",
            "conj" | "conjecture" => "conj",
            "example" | "examples" | "ex" => "ex",
            "fig" | "figs" | "figure" | "figures" => "fig",
            "table" | "tables" => "table",
            "remark" | "remarks" => "remark",
            "def" | "definition" => "def",
            _ => return None,
        },
    )
}

/// The anchors by paper number of a source label: "Thm 5.43 case 1" → `thm-5.43`,
/// "Thms 5.24, 5.29" → `thm-5.24`, `thm-5.29`, "Thms 14-16" → `thm-14` … `thm-16`, "§5.3" →
/// `sec-5.3`; and of a spec id naming a figure or table (`fig_5_8_nim_sum` → `fig-5.8`).
pub fn anchors(source: &str, id: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut add = |a: String| {
        if !out.contains(&a) {
            out.push(a);
        }
    };
    let s = source.trim();
    if let Some(num) = s.strip_prefix('§') {
        let n = num.split_whitespace().next().unwrap_or("");
        if n.starts_with(|c: char| c.is_ascii_digit()) {
            add(format!("sec-{n}"));
        }
    } else {
        let mut words = s.split_whitespace();
        if let Some(kind) = words.next().and_then(anchor_kind) {
            for w in words {
                let w = w.trim_end_matches([',', ';', ')']);
                let is_num = |x: &str| {
                    !x.is_empty()
                        && x.starts_with(|c: char| c.is_ascii_digit())
                        && x.chars().all(|c| c.is_ascii_digit() || c == '.')
                };
                if let Some((a, b)) = w.split_once(['-', '–']) {
                    match (a.parse::<u32>(), b.parse::<u32>()) {
                        (Ok(a), Ok(b)) if a <= b && b - a < 20 => {
                            for n in a..=b {
                                add(format!("{kind}-{n}"));
                            }
                            continue;
                        }
                        _ => break,
                    }
                }
                if !is_num(w) {
                    break;
                }
                add(format!("{kind}-{}", w.trim_end_matches('.')));
            }
        }
    }
    let parts: Vec<&str> = id.split('_').collect();
    if let [kind @ ("fig" | "table"), a, b, ..] = parts[..] {
        if a.chars().all(|c| c.is_ascii_digit()) && b.chars().all(|c| c.is_ascii_digit()) {
            add(format!("{kind}-{a}.{b}"));
        }
    }
    out
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

    #[test]
    fn anchors_by_paper_number() {
        assert_eq!(anchors("Thm 5.43 case 1", "x"), ["thm-5.43"]);
        assert_eq!(anchors("Thms 5.24, 5.29", "x"), ["thm-5.24", "thm-5.29"]);
        assert_eq!(anchors("Thms 14-16", "x"), ["thm-14", "thm-15", "thm-16"]);
        assert_eq!(anchors("Example 4.11", "x"), ["ex-4.11"]);
        assert_eq!(anchors("Prop 5.23", "prop_5_23_least"), ["prop-5.23"]);
        assert_eq!(anchors("Table 5.1", "table_5_1"), ["table-5.1"]);
        assert_eq!(anchors("§5.5", "x"), ["sec-5.5"]);
        assert_eq!(anchors("Thm 5.43", "fig_5_13_x"), ["thm-5.43", "fig-5.13"]);
        assert!(anchors("data (seed 002)", "table_sp_3_n").is_empty());
        assert!(anchors("Benesh–Ernst–Sieben 2016, DNG of dihedral groups", "x").is_empty());
    }
}
