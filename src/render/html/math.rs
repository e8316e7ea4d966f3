//! Statements in the paper's plain notation ("nim(TER(C_n)) = 0 for odd n") split into text and
//! math segments; a math segment is TeX that the vendored KaTeX typesets in the browser (and
//! that reads as the paper's notation when scripts are off). Only words with a sub- or
//! superscript are math, so spec ids (`prop_5_23_least`) and file names stay text.

use serde::Serialize;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Seg {
    pub math: bool,
    pub text: String,
}

/// Whether a whitespace-free word is the paper's notation with a sub- or superscript:
/// every `_`/`^` is followed by a braced group or by one letter or digit that ends the word
/// or is followed by a non-alphanumeric character.
fn is_math_word(w: &str) -> bool {
    if !(w.contains('_') || w.contains('^')) || w.contains('/') || w.contains("://") {
        return false;
    }
    // A brace group split by a space ("{v_i, v_j}") stays text: half a group is no TeX.
    if w.matches('{').count() != w.matches('}').count() {
        return false;
    }
    let chars: Vec<char> = w.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if c == '_' || c == '^' {
            match chars.get(i + 1) {
                Some('{') => {}
                Some(d) if d.is_alphanumeric() => {
                    // `x_1y` is an id, and `x_1_2` a double subscript (an id such as
                    // `prop_2_4_n`), which TeX refuses.
                    if chars
                        .get(i + 2)
                        .is_some_and(|&e| e.is_alphanumeric() || e == c)
                    {
                        return false;
                    }
                }
                _ => return false,
            }
        }
    }
    true
}

const OPERATORS: [&str; 12] = [
    "TER", "DNT", "nim", "SPL", "DC", "Tr", "mex", "UEG", "SP", "Wd", "pty", "Corona",
];

/// TeX for a word of the paper's notation: operator names upright, TeX specials escaped.
fn tex_of(w: &str) -> String {
    let mut out = String::new();
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        if word.is_empty() {
            return;
        }
        if OPERATORS.contains(&word.as_str()) || word.chars().count() > 1 {
            out.push_str(&format!("\\mathrm{{{word}}}"));
        } else {
            out.push_str(word);
        }
        word.clear();
    };
    let chars: Vec<char> = w.chars().collect();
    // Which open braces group a script (`_{..}`) and which are the paper's set braces.
    let mut groups: Vec<bool> = Vec::new();
    for (i, &c) in chars.iter().enumerate() {
        // A letter right after `_`/`^` is a one-letter script, not part of a word.
        let after_script = i > 0 && matches!(chars[i - 1], '_' | '^');
        if c.is_ascii_alphabetic() && !after_script {
            word.push(c);
            continue;
        }
        flush(&mut word, &mut out);
        match c {
            '%' | '#' | '&' | '$' => {
                out.push('\\');
                out.push(c);
            }
            '{' => {
                let group = i > 0 && matches!(chars[i - 1], '_' | '^');
                groups.push(group);
                out.push_str(if group { "{" } else { "\\{" });
            }
            '}' => out.push_str(if groups.pop() == Some(true) {
                "}"
            } else {
                "\\}"
            }),
            '\\' => out.push_str("\\backslash "),
            '~' => out.push_str("\\sim "),
            _ => out.push(c),
        }
    }
    flush(&mut word, &mut out);
    out
}

/// Splits text into segments; neighbouring math words (joined by single spaces) form one
/// segment, trailing punctuation stays text.
pub fn segments(text: &str) -> Vec<Seg> {
    let mut out: Vec<Seg> = Vec::new();
    let push = |out: &mut Vec<Seg>, math: bool, s: &str| {
        if s.is_empty() {
            return;
        }
        match out.last_mut() {
            Some(last) if last.math == math && !math => last.text.push_str(s),
            _ => out.push(Seg {
                math,
                text: s.to_string(),
            }),
        }
    };
    let mut rest = text;
    while !rest.is_empty() {
        let ws = rest.len() - rest.trim_start().len();
        push(&mut out, false, &rest[..ws]);
        rest = &rest[ws..];
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let word = &rest[..end];
        rest = &rest[end..];
        if is_math_word(word) {
            let core = word.trim_end_matches(['.', ',', ';', ':']);
            push(&mut out, true, &tex_of(core));
            push(&mut out, false, &word[core.len()..]);
        } else {
            push(&mut out, false, word);
        }
    }
    out
}

/// The whole text as one math segment (a game expression such as `TER(W_{m,n})`).
pub fn math(text: &str) -> Vec<Seg> {
    vec![Seg {
        math: true,
        text: tex_of(text),
    }]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_becomes_math_and_ids_stay_text() {
        let s = segments("For cycle graphs with odd n, nim(TER(C_n)) = 0.");
        assert_eq!(s.len(), 3);
        assert_eq!(s[0].text, "For cycle graphs with odd n, ");
        assert!(s[1].math);
        assert_eq!(s[1].text, "\\mathrm{nim}(\\mathrm{TER}(C_n))");
        assert_eq!(s[2].text, " = 0.");
        for word in [
            "prop_5_23_least_corrected",
            "g0_heap",
            "src/solve/cycle.rs",
            "(prop_2_4_n).",
        ] {
            assert!(segments(word).iter().all(|s| !s.math), "{word}");
        }
        assert!(segments("TER(W_{m,n})")[0].math);
        assert_eq!(tex_of("λ^{c+2}_0"), "λ^{c+2}_0");
        assert_eq!(tex_of("50%_x"), "50\\%_x");
        assert_eq!(tex_of("{v_{i}}"), "\\{v_{i}\\}");
        assert!(segments("{{v_i, v_j}}").iter().all(|s| !s.math));
        assert!(segments("v_{(k+t)").iter().all(|s| !s.math));
    }
}
