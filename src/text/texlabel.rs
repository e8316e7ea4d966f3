//! The paper's notation as LaTeX: game expressions and labels written in grundy's game language
//! (`DNT_{v1}(W_7) + *1`, `(e, λ^{e+2l}_0)`, `(c, 𝛌^{c+2})`, `↦ ..| + *1`, `𝒢 ∋ {x, w}`) become
//! math-mode TeX (`\mathrm{DNT}_{\{v_1\}}(W_7) + {*}1`, `\boldsymbol{\lambda}^{c+2}`), and prose
//! with embedded notation (figure titles) becomes text with the notation in `$…$`.
//!
//! The output needs only LaTeX's kernel, `\boldsymbol` (amsmath/amsbsy) and the pin macros
//! `\grundypins`, `\grundypin`, `\grundynopin` of `grundy-tikz.sty` (Dawson's Chess rows, the
//! pins `|` standing and `.` removed, as in Prop 5.19). The result never contains `"`, a
//! newline or a trailing backslash, so it can sit inside a quoted DOT attribute as it is.

/// Paper notation → TeX math (without the surrounding `$`).
pub fn math(s: &str) -> String {
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::new();
    math_into(&chars, &mut out, 0);
    out
}

/// Deepest `^{…}` / `_{…}` nesting typeset as scripts; deeper ones are printed as characters
/// (`\wedge`, `\_`, `\{`, `\}`), so a label of any nesting neither overflows the stack nor costs more
/// than linear time per level (TeX itself allows far fewer levels of scripts).
const MAX_SCRIPT_DEPTH: usize = 16;

/// The TeX of one non-ASCII symbol of the paper's notation, if known: the one table of them,
/// which the report site's statements (`render::html::math`) use too.
pub fn symbol(c: char) -> Option<&'static str> {
    Some(match c {
        'λ' => "\\lambda",
        'Λ' => "\\Lambda",
        '𝛌' | '𝝀' => "\\boldsymbol{\\lambda}",
        '𝚲' | '𝜦' => "\\boldsymbol{\\Lambda}",
        'μ' => "\\mu",
        'ρ' => "\\rho",
        'σ' => "\\sigma",
        'π' => "\\pi",
        'α' => "\\alpha",
        'β' => "\\beta",
        'γ' => "\\gamma",
        'δ' => "\\delta",
        'ε' => "\\varepsilon",
        'κ' => "\\kappa",
        'Γ' => "\\Gamma",
        'Ũ' => "\\tilde{U}",
        'Δ' => "\\Delta",
        '𝒢' => "\\mathcal{G}",
        // The paper's gamegraphs 𝖦, 𝖧 (Section 5.3).
        '𝖦' => "\\mathsf{G}",
        '𝖧' => "\\mathsf{H}",
        '𝒩' => "\\mathcal{N}",
        // A multiset's double braces (Fig 5.1), as the paper typesets them.
        '⦃' => "\\{\\!\\!\\{",
        '⦄' => "\\}\\!\\!\\}",
        '𝒫' => "\\mathcal{P}",
        // The complement of a family (Prop 2.4: 𝒩 = ∁(𝒢*)).
        '∁' => "\\complement ",
        '∋' => "\\ni ",
        '∈' => "\\in ",
        '∉' => "\\notin ",
        '≥' => "\\ge ",
        '≤' => "\\le ",
        '≠' => "\\neq ",
        '↦' => "\\mapsto ",
        '→' => "\\to ",
        '←' => "\\leftarrow ",
        '⊕' => "\\oplus ",
        '∅' => "\\emptyset ",
        '⟨' => "\\langle ",
        '⟩' => "\\rangle ",
        '∪' => "\\cup ",
        '∩' => "\\cap ",
        '⊆' => "\\subseteq ",
        '×' => "\\times ",
        '·' => "\\cdot ",
        '□' => "\\mathbin{\\square}",
        '…' => "\\dots ",
        '−' | '–' => "-",
        '∗' => "*",
        '●' => "\\bullet ",
        '○' => "\\circ ",
        '̄' => "",
        _ => return None,
    })
}

/// Index of the `}` matching the `{` at `open` (or the end of the input when unmatched).
fn matching(chars: &[char], open: usize) -> usize {
    let mut depth = 0usize;
    for (j, &c) in chars.iter().enumerate().skip(open) {
        match c {
            '{' => depth += 1,
            '}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return j;
                }
            }
            _ => {}
        }
    }
    chars.len()
}

/// A run of Dawson's Chess pins (`|` standing, `.` removed) starting at `i`: its end, if the
/// run is one (at least two characters, or one `|`, and not part of a number like `3.5`).
fn pin_run(chars: &[char], i: usize) -> Option<usize> {
    let mut j = i;
    while j < chars.len() && matches!(chars[j], '|' | '.') {
        j += 1;
    }
    let run = &chars[i..j];
    let before_ok = i == 0 || !chars[i - 1].is_alphanumeric();
    let after_ok = j == chars.len() || !chars[j].is_alphanumeric();
    let long = run.len() >= 2 || run == ['|'];
    (before_ok && after_ok && long).then_some(j)
}

fn math_into(chars: &[char], out: &mut String, depth: usize) {
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_ascii_alphabetic() {
            let mut j = i;
            while j < chars.len() && chars[j].is_ascii_alphabetic() {
                j += 1;
            }
            let word: String = chars[i..j].iter().collect();
            let mut k = j;
            while k < chars.len() && chars[k].is_ascii_digit() {
                k += 1;
            }
            let digits: String = chars[j..k].iter().collect();
            // The letter of a diagram: `(A.1)` (its start 1), `(B)`.
            let reference = word.len() == 1
                && word.chars().all(|c| c.is_ascii_uppercase())
                && ((chars.get(k) == Some(&'.')
                    && chars.get(k + 1).is_some_and(char::is_ascii_digit))
                    || (i > 0
                        && chars[i - 1] == '('
                        && chars.get(k) == Some(&')')
                        && (i < 2 || !chars[i - 2].is_alphanumeric())));
            if word.len() >= 2 || reference {
                // A name (`DNT`, `terminal`), or the letter of a diagram in `(A.1)`.
                out.push_str(&format!("\\mathrm{{{word}}}"));
                if !digits.is_empty() {
                    out.push_str(&format!("_{{{digits}}}"));
                }
                // Words keep the space after them (`Lemma 5.37`).
                if chars.get(k) == Some(&' ')
                    && chars.get(k + 1).is_some_and(|c| c.is_alphanumeric())
                    && word.len() >= 2
                {
                    out.push_str("\\ ");
                    i = k + 1;
                    continue;
                }
            } else {
                out.push_str(&word);
                if !digits.is_empty() {
                    // `v12` is the paper's v_{12}.
                    out.push_str(&format!("_{{{digits}}}"));
                }
            }
            i = k;
            continue;
        }
        if (c == '^' || c == '_') && i + 1 < chars.len() {
            if depth >= MAX_SCRIPT_DEPTH {
                // Too deep to typeset: the script mark as a character, the braces escaped
                // by the plain path below.
                out.push_str(if c == '^' { "\\wedge " } else { "\\_" });
                i += 1;
                continue;
            }
            // The start set of TER_P(G), DNT_P(G) is a set: the paper writes
            // DNT_{\{v_1\}}(W_7) (Example 5.21, Figs 5.2 and 5.5), not DNT_{v_1}.
            let start_set = c == '_'
                && (out.ends_with("\\mathrm{TER}") || out.ends_with("\\mathrm{DNT}"))
                && chars.get(i + 2) != Some(&'{');
            out.push(c);
            if chars[i + 1] == '{' {
                let close = matching(chars, i + 1);
                out.push_str(if start_set { "{\\{" } else { "{" });
                math_into(&chars[i + 2..close.min(chars.len())], out, depth + 1);
                out.push_str(if start_set { "\\}}" } else { "}" });
                i = close + 1;
            } else if start_set {
                let j = super::script_end(chars, i + 1);
                out.push_str("{\\{");
                math_into(&chars[i + 1..j], out, depth + 1);
                out.push_str("\\}}");
                i = j;
            } else {
                // A number (`Z_12`), a name with its digits (`_v1`) or one symbol.
                let j = super::script_end(chars, i + 1);
                out.push('{');
                math_into(&chars[i + 1..j], out, depth + 1);
                out.push('}');
                i = j;
            }
            continue;
        }
        // 𝒢*, 𝒩*: the starred families.
        if matches!(c, '𝒢' | '𝒩') && chars.get(i + 1) == Some(&'*') {
            out.push_str(symbol(c).unwrap_or_default());
            out.push_str("^{*}");
            i += 2;
            continue;
        }
        if matches!(c, '|' | '.') {
            if let Some(j) = pin_run(chars, i) {
                out.push_str("\\grundypins{");
                for &p in &chars[i..j] {
                    out.push_str(if p == '|' {
                        "\\grundypin"
                    } else {
                        "\\grundynopin"
                    });
                }
                out.push('}');
                i = j;
                continue;
            }
        }
        // `~K_2`: the complement of a graph, \overline{K_2} as the paper writes it.
        if c == '~' && chars.get(i + 1).is_some_and(char::is_ascii_alphabetic) {
            let mut j = i + 1;
            while j < chars.len() && chars[j].is_ascii_alphabetic() {
                j += 1;
            }
            if chars.get(j) == Some(&'_') && j + 1 < chars.len() {
                j = if chars[j + 1] == '{' {
                    matching(chars, j + 1) + 1
                } else {
                    super::script_end(chars, j + 1)
                };
            }
            let j = j.min(chars.len());
            out.push_str("\\overline{");
            math_into(&chars[i + 1..j], out, depth + 1);
            out.push('}');
            i = j;
            continue;
        }
        // `TER({1,2,2})` and `TER{1,2,2}`: a multiset, in the paper's double braces.
        if c == '{' && (out.ends_with("\\mathrm{TER}(") || out.ends_with("\\mathrm{TER}")) {
            let close = matching(chars, i);
            let bare = out.ends_with("\\mathrm{TER}");
            out.push_str(if bare {
                "(\\{\\!\\!\\{"
            } else {
                "\\{\\!\\!\\{"
            });
            math_into(&chars[i + 1..close.min(chars.len())], out, depth + 1);
            out.push_str(if bare {
                "\\}\\!\\!\\})"
            } else {
                "\\}\\!\\!\\}"
            });
            i = close + 1;
            continue;
        }
        // `<=`, `>=` in titles written in ASCII: the paper's ≤, ≥.
        if matches!(c, '<' | '>') && chars.get(i + 1) == Some(&'=') {
            out.push_str(if c == '<' { "\\le " } else { "\\ge " });
            i += 2;
            continue;
        }
        match c {
            '{' => out.push_str("\\{"),
            '}' => out.push_str("\\}"),
            '^' | '_' => out.push_str("\\hat{}"),
            '#' | '$' | '%' | '&' => {
                out.push('\\');
                out.push(c);
            }
            '~' => out.push_str("\\sim "),
            '\\' => out.push_str("\\backslash "),
            '"' => out.push_str("{''}"),
            '\n' | '\r' | '\t' => out.push(' '),
            '<' | '>' | '=' | '+' | '-' | '*' | '(' | ')' | '[' | ']' | ',' | ';' | ':' | '!'
            | '?' | '/' | '\'' | '|' | '.' | '@' | '`' => out.push(c),
            c if c.is_ascii_digit() || c == ' ' => out.push(c),
            c => match symbol(c) {
                Some(t) => out.push_str(t),
                None if c.is_ascii() => {}
                None => out.push_str(&format!("\\mbox{{U+{:04X}}}", c as u32)),
            },
        }
        i += 1;
    }
}

/// Whether a word of a title is notation rather than prose.
fn is_math_word(w: &str) -> bool {
    let core = w.trim_matches(|c: char| matches!(c, ',' | ';' | '.' | '(' | ')' | ':'));
    if core.is_empty() {
        return false;
    }
    // Names joined by en dashes (`Benesh–Ernst–Sieben`) are prose.
    if core.contains('–') && core.chars().all(|c| c.is_alphabetic() || c == '–') {
        return false;
    }
    if core.chars().any(|c| {
        matches!(c, '_' | '^' | '*' | '=' | '<' | '>' | '|' | '+' | '~') || symbol(c).is_some()
    }) {
        return true;
    }
    // `(i,4)`, `(i,[4])`: a tuple written without spaces.
    let bare = w.trim_end_matches([',', ';', '.', ':']);
    if bare.len() > 2 && bare.starts_with('(') && bare.ends_with(')') && bare.contains(',') {
        return true;
    }
    // `DC(3)`, `TER(K)`, `nim(U)`: a name applied to arguments with a capital (not prose
    // such as `set(s)`); `U`, `G`: one capital letter other than the words `A` and `I`.
    let first_upper = core.chars().next().is_some_and(|c| c.is_ascii_uppercase());
    let word = w.trim_end_matches([',', ';', '.', ':']);
    let applied = word.contains('(') && !word.starts_with('(') && word.ends_with(')');
    let capital_arg = word
        .split_once('(')
        .is_some_and(|(_, args)| args.chars().any(|c| c.is_ascii_uppercase()));
    // `TER{1,2,2}`: a game of a multiset (Fig 5.1), a name in capitals applied to braces.
    let braced = word.contains('{')
        && !word.starts_with('{')
        && word.ends_with('}')
        && word
            .split_once('{')
            .is_some_and(|(name, _)| name.chars().all(|c| c.is_ascii_uppercase()));
    (applied && (first_upper || capital_arg))
        || braced
        || (word == core && core.chars().count() == 1 && first_upper && core != "A" && core != "I")
}

/// Prose with notation (a title or caption) → TeX text: words of notation, with the words
/// between them that belong to the same formula (`{u, v, w}`, `(c, λ^{c+2})`), go into `$…$`;
/// the rest is escaped as text.
pub fn text(s: &str) -> String {
    let words: Vec<&str> = s.split_whitespace().collect();
    let mut math_at: Vec<bool> = words.iter().map(|w| is_math_word(w)).collect();
    // An operator standing alone takes its operands (`c ≥ 1`, `L = {u, v, w}`).
    let operator = |w: &str| {
        w.chars().all(|c| {
            matches!(
                c,
                '=' | '<' | '>' | '+' | ':' | '≥' | '≤' | '≠' | '→' | '↦' | '∋' | '∈'
            )
        })
    };
    for k in 0..words.len() {
        if operator(words[k]) {
            math_at[k] = true;
            if k > 0 {
                math_at[k - 1] = true;
            }
            if k + 1 < words.len() {
                math_at[k + 1] = true;
            }
        }
    }
    // Extend formulas over brackets opened in one word and closed in another.
    let balance = |w: &str| -> i64 {
        w.chars()
            .map(|c| match c {
                '(' | '[' | '{' => 1,
                ')' | ']' | '}' => -1,
                _ => 0,
            })
            .sum()
    };
    // A word of prose (`the`, `second`): brackets around it are the sentence's, not a
    // formula's (`0 ≤ a < b (the second player wins *n + *n)`).
    let prose = |w: &str| {
        let core = w.trim_matches(|c: char| !c.is_alphanumeric());
        core.len() >= 3 && core.chars().all(|c| c.is_ascii_lowercase())
    };
    for i in 0..words.len() {
        if !math_at[i] {
            continue;
        }
        let mut depth = balance(words[i]);
        let mut j = i;
        while depth > 0 && j + 1 < words.len() {
            j += 1;
            depth += balance(words[j]);
        }
        if !words[i + 1..=j].iter().any(|w| prose(w)) {
            math_at[i..=j].iter_mut().for_each(|m| *m = true);
        }
        let mut k = i;
        let mut back = balance(words[i]);
        while back < 0 && k > 0 {
            k -= 1;
            back += balance(words[k]);
        }
        if !words[k..i].iter().any(|w| prose(w)) {
            math_at[k..=i].iter_mut().for_each(|m| *m = true);
        }
    }
    // `c, k ≥ 0`: letters listed before a formula that starts with a letter belong to it.
    for k in (1..words.len()).rev() {
        let letter = |w: &str| w.len() == 1 && w.chars().all(|c| c.is_ascii_alphabetic());
        let listed = |w: &str| w.len() == 2 && w.ends_with(',') && letter(&w[..1]);
        if math_at[k] && (letter(words[k]) || listed(words[k])) && listed(words[k - 1]) {
            math_at[k - 1] = true;
        }
    }
    let mut out = String::new();
    let mut k = 0;
    while k < words.len() {
        if !out.is_empty() {
            out.push(' ');
        }
        if math_at[k] {
            let mut j = k;
            while j + 1 < words.len() && math_at[j + 1] {
                j += 1;
            }
            // `e ≥ 4, l ≥ 2`: two formulas, the comma between them text.
            let relation = |w: &&str| {
                w.chars()
                    .any(|c| matches!(c, '=' | '<' | '>' | '≥' | '≤' | '≠' | '∈'))
            };
            // A semicolon always ends a formula (`k ≥ 3; (i,4) stands for`).
            if let Some(m) = (k..j).find(|&m| {
                balance(&words[k..=m].join(" ")) == 0
                    && (words[m].ends_with(';')
                        || (words[m].ends_with(',')
                            && words[k..=m].iter().any(relation)
                            && words[m + 1..=j].iter().any(relation)))
            }) {
                j = m;
            }
            let mut formula = words[k..=j].join(" ");
            // Punctuation that ends the sentence stays outside the formula; a bracket that
            // the formula never opened does too.
            let mut tail = String::new();
            while let Some(last) = formula.chars().last() {
                let unbalanced_close = matches!(last, ')' | ']') && balance(&formula) < 0;
                if matches!(last, ',' | ';' | '.' | ':') || unbalanced_close {
                    tail.insert(0, last);
                    formula.pop();
                } else {
                    break;
                }
            }
            let mut head = String::new();
            while formula.starts_with('(') && balance(&formula) > 0 {
                head.push('(');
                formula.remove(0);
            }
            out.push_str(&head);
            out.push('$');
            out.push_str(math(&formula).trim());
            out.push('$');
            out.push_str(&crate::text::escape::latex_escape(&tail));
            k = j + 1;
        } else {
            out.push_str(&crate::text::escape::latex_escape(words[k]));
            k += 1;
        }
    }
    out
}

/// Prose with notation (a figure or panel title) as the body of a Graphviz HTML-like label,
/// typeset as [`text`] typesets it for LaTeX: the notation's sub- and superscripts as
/// `<SUB>`/`<SUP>` (`DNT_{v1}(W_7)` → DNT<SUB>{v<SUB>1</SUB>}</SUB>(W<SUB>7</SUB>)), its
/// variables in italics, operator names upright and TeX's symbols as their characters (`×`,
/// `≥`, `𝒢`), so the DOT/SVG/PDF previews print the titles the TikZ figures and the report
/// site print (the `paper_dot` filter).
pub fn dot_html(s: &str) -> String {
    // A multiset's double braces as the paper's characters.
    let tex = text(s)
        .replace("\\{\\!\\!\\{", "⦃")
        .replace("\\}\\!\\!\\}", "⦄");
    let chars: Vec<char> = tex.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] == '$' {
            let end = (i + 1..chars.len())
                .find(|&j| chars[j] == '$' && chars[j - 1] != '\\')
                .unwrap_or(chars.len());
            html_math(&chars[i + 1..end], &mut out, 0);
            i = end + 1;
            continue;
        }
        if chars[i] == '\\' {
            let (word, next) = command_at(&chars, i);
            match word.as_str() {
                "textbackslash" => out.push('\\'),
                "textasciitilde" => out.push('~'),
                "textasciicircum" => out.push('^'),
                "," => out.push(' '),
                "&" => out.push_str("&amp;"),
                w if w.chars().count() == 1 => out.push_str(w),
                _ => {}
            }
            i = next;
            // `\textbackslash{}`: the empty group after a command.
            if chars.get(i) == Some(&'{') && chars.get(i + 1) == Some(&'}') {
                i += 2;
            }
            continue;
        }
        push_html(chars[i], &mut out);
        i += 1;
    }
    out
}

/// A character in a Graphviz HTML-like label.
fn push_html(c: char, out: &mut String) {
    match c {
        '&' => out.push_str("&amp;"),
        '<' => out.push_str("&lt;"),
        '>' => out.push_str("&gt;"),
        '"' => out.push_str("&quot;"),
        c if crate::text::escape::breaks_line(c) => out.push(' '),
        c => out.push(c),
    }
}

/// The command starting at `chars[i]` (a backslash): its name (letters, or the one
/// character after the backslash) and the index after it.
fn command_at(chars: &[char], i: usize) -> (String, usize) {
    let mut j = i + 1;
    while j < chars.len() && chars[j].is_ascii_alphabetic() {
        j += 1;
    }
    if j == i + 1 && j < chars.len() {
        j += 1;
    }
    (chars[i + 1..j].iter().collect(), j)
}

/// The group or single token starting at `chars[i]` (after spaces): its inside and the index
/// after it.
fn argument(chars: &[char], mut i: usize) -> (&[char], usize) {
    while i < chars.len() && chars[i] == ' ' {
        i += 1;
    }
    if i >= chars.len() {
        return (&chars[chars.len()..], chars.len());
    }
    if chars[i] == '{' {
        let end = matching(chars, i);
        (
            &chars[i + 1..end.min(chars.len())],
            (end + 1).min(chars.len()),
        )
    } else if chars[i] == '\\' {
        let (_, next) = command_at(chars, i);
        (&chars[i..next], next)
    } else {
        (&chars[i..i + 1], i + 1)
    }
}

/// The character of a TeX math command of the notation (the inverse of [`symbol`]).
fn command_char(word: &str) -> Option<&'static str> {
    Some(match word {
        "lambda" => "λ",
        "Lambda" => "Λ",
        "mu" => "μ",
        "rho" => "ρ",
        "sigma" => "σ",
        "pi" => "π",
        "tau" => "τ",
        "alpha" => "α",
        "beta" => "β",
        "gamma" => "γ",
        "delta" => "δ",
        "varepsilon" | "epsilon" => "ε",
        "kappa" => "κ",
        "Gamma" => "Γ",
        "Delta" => "Δ",
        "complement" => "∁",
        "ni" => "∋",
        "in" => "∈",
        "notin" => "∉",
        "ge" | "geq" => "≥",
        "le" | "leq" => "≤",
        "ne" | "neq" => "≠",
        "equiv" => "≡",
        "pm" => "±",
        "mapsto" => "↦",
        "to" => "→",
        "leftarrow" => "←",
        "oplus" => "⊕",
        "emptyset" => "∅",
        "langle" => "⟨",
        "rangle" => "⟩",
        "cup" => "∪",
        "cap" => "∩",
        "subseteq" => "⊆",
        "times" => "×",
        "cdot" => "·",
        "square" => "□",
        "dots" | "ldots" | "cdots" => "…",
        "bullet" => "●",
        "circ" => "○",
        "infty" => "∞",
        "mid" => "|",
        "colon" => ":",
        "{" => "{",
        "}" => "}",
        "," | ";" | " " | "quad" => " ",
        "!" => "",
        "gcd" => "gcd",
        "grundypin" => "|",
        "grundynopin" => ".",
        _ => return None,
    })
}

/// TeX math of the notation (as [`math`] writes it) → Graphviz HTML: scripts as
/// `<SUB>`/`<SUP>`, letters in italics outside `\mathrm`, commands as their characters.
fn html_math(chars: &[char], out: &mut String, depth: usize) {
    html_math_in(chars, out, depth, true)
}

fn html_math_in(chars: &[char], out: &mut String, depth: usize, italic: bool) {
    // Deeper groups than any title has: the characters as they are (no recursion).
    if depth > 4 * MAX_SCRIPT_DEPTH {
        chars.iter().for_each(|&c| push_html(c, out));
        return;
    }
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '_' | '^' if depth < crate::text::escape::MAX_LABEL_NESTING => {
                let (arg, next) = argument(chars, i + 1);
                let tag = if c == '_' { "SUB" } else { "SUP" };
                out.push_str(&format!("<{tag}>"));
                html_math_in(arg, out, depth + 1, italic);
                out.push_str(&format!("</{tag}>"));
                i = next;
            }
            '{' => {
                let end = matching(chars, i).min(chars.len());
                html_math_in(&chars[i + 1..end], out, depth + 1, italic);
                i = (end + 1).min(chars.len());
            }
            '}' => i += 1,
            '\\' => {
                let (word, next) = command_at(chars, i);
                i = next;
                // TeX skips the space after a control word (`\to DC`).
                if word.chars().all(|c| c.is_ascii_alphabetic()) && chars.get(i) == Some(&' ') {
                    i += 1;
                }
                match word.as_str() {
                    "mathrm" | "text" | "operatorname" | "mathbin" | "mbox" | "grundypins" => {
                        let (arg, next) = argument(chars, i);
                        html_math_in(arg, out, depth + 1, false);
                        i = next;
                    }
                    "mathbf" | "boldsymbol" => {
                        let (arg, next) = argument(chars, i);
                        out.push_str("<B>");
                        html_math_in(arg, out, depth + 1, italic);
                        out.push_str("</B>");
                        i = next;
                    }
                    "mathcal" | "mathsf" => {
                        let (arg, next) = argument(chars, i);
                        let letter: String = arg.iter().collect();
                        out.push_str(match (word.as_str(), letter.as_str()) {
                            ("mathcal", "G") => "𝒢",
                            ("mathcal", "N") => "𝒩",
                            ("mathcal", "P") => "𝒫",
                            ("mathsf", "G") => "𝖦",
                            ("mathsf", "H") => "𝖧",
                            _ => &letter,
                        });
                        i = next;
                    }
                    // A bar or tilde over its argument: the combining character after its
                    // first letter (`\overline{K_{2}}`: K̄ then the subscript).
                    "overline" | "bar" | "tilde" => {
                        let (arg, next) = argument(chars, i);
                        let mark = if word == "tilde" {
                            '\u{303}'
                        } else {
                            '\u{304}'
                        };
                        match arg.first() {
                            Some(&c) if c.is_alphanumeric() => {
                                let mut first = String::new();
                                html_math_in(&arg[..1], &mut first, depth + 1, italic);
                                match first.strip_suffix("</I>") {
                                    Some(f) => {
                                        out.push_str(f);
                                        out.push(mark);
                                        out.push_str("</I>");
                                    }
                                    None => {
                                        out.push_str(&first);
                                        out.push(mark);
                                    }
                                }
                                html_math_in(&arg[1..], out, depth + 1, italic);
                            }
                            _ => {
                                html_math_in(arg, out, depth + 1, italic);
                                out.push(mark);
                            }
                        }
                        i = next;
                    }
                    "not" => {
                        let (arg, next) = argument(chars, i);
                        let mut inner = String::new();
                        html_math_in(arg, &mut inner, depth + 1, italic);
                        out.push_str(&inner);
                        out.push('\u{338}');
                        i = next;
                    }
                    "pmod" => {
                        let (arg, next) = argument(chars, i);
                        out.push_str(" (mod ");
                        html_math_in(arg, out, depth + 1, italic);
                        out.push(')');
                        i = next;
                    }
                    w => match command_char(w) {
                        Some(u) => out.push_str(u),
                        None if w.chars().count() == 1 => {
                            push_html(w.chars().next().unwrap_or(' '), out)
                        }
                        None => out.push_str(w),
                    },
                }
            }
            c if c.is_ascii_alphabetic() && italic => {
                let mut j = i;
                while j < chars.len() && chars[j].is_ascii_alphabetic() {
                    j += 1;
                }
                out.push_str("<I>");
                out.extend(&chars[i..j]);
                out.push_str("</I>");
                i = j;
            }
            c => {
                push_html(c, out);
                i += 1;
            }
        }
    }
}

/// A caption from a figure's title: the paper's "Figure 5.9: " prefix dropped (LaTeX numbers
/// the figure), the rest as [`text`], ending with a full stop.
pub fn caption(title: &str) -> String {
    caption_and_provenance(title).0
}

/// Whether a trailing parenthetical of a title names where the figure comes from (`Example
/// 5.21`, `Thms 5.24, 5.29`, `no figure in the paper`) rather than saying something about it.
fn is_provenance(p: &str) -> bool {
    const WORDS: [&str; 14] = [
        "Example",
        "Examples",
        "Prop",
        "Proposition",
        "Thm",
        "Thms",
        "Theorem",
        "Lemma",
        "Cor",
        "Corollary",
        "Remark",
        "Table",
        "Fig",
        "Figure",
    ];
    let mut it = p.split_whitespace();
    let first = it.next().unwrap_or("");
    let number = it
        .next()
        .is_some_and(|w| w.starts_with(|c: char| c.is_ascii_digit()));
    (WORDS.contains(&first) && number) || p.contains("the paper")
}

/// [`caption`], and the provenance taken out of it (a trailing `(Example 5.21)`), which a
/// paper would not print: the caption file keeps it in a TeX comment.
pub fn caption_and_provenance(title: &str) -> (String, Option<String>) {
    let mut t = title.trim();
    let mut provenance = None;
    if let Some(open) = t.strip_suffix(')').and_then(|r| r.rfind('(')) {
        let inner = &t[open + 1..t.len() - 1];
        if !inner.contains(['(', ')']) && is_provenance(inner) {
            provenance = Some(inner.to_string());
            t = t[..open].trim_end();
        }
    }
    (caption_text(t), provenance)
}

/// [`text`], with the spans a spec writes in `$…$` passed through as its own LaTeX math
/// (checked by [`validate_text`] when the spec was read): a diagram titled
/// `Case 4 for odd $m$` prints m in math italic, not `\$m\$`.
fn with_math(t: &str) -> String {
    if !t.contains('$') {
        return text(t);
    }
    let mut out = String::new();
    for (k, part) in t.split('$').enumerate() {
        if k % 2 == 1 {
            out.push('$');
            out.push_str(part);
            out.push('$');
            continue;
        }
        if part.starts_with(char::is_whitespace) && !out.is_empty() {
            out.push(' ');
        }
        out.push_str(&text(part));
        if part.ends_with(char::is_whitespace) && !part.trim().is_empty() {
            out.push(' ');
        }
    }
    out
}

fn caption_text(title: &str) -> String {
    let t = title.trim();
    let t = match t.split_once(": ") {
        Some((head, rest))
            if (head.starts_with("Figure ") || head.starts_with("Fig ") || head == "Lemma")
                && head.len() < 24 =>
        {
            rest
        }
        _ => t,
    };
    let mut s = with_math(t);
    if let Some(first) = s.chars().next() {
        if first.is_lowercase() {
            let up: String = first.to_uppercase().collect();
            s = up + &s[first.len_utf8()..];
        }
    }
    if !s.ends_with('.') {
        s.push('.');
    }
    s
}

/// The control words a spec's `tex:` label may use: math symbols and fonts, nothing that
/// reads or writes files, defines macros, changes category codes or leaves math mode.
const TEX_LABEL_WORDS: &[&str] = &[
    "alpha",
    "beta",
    "gamma",
    "delta",
    "epsilon",
    "varepsilon",
    "zeta",
    "eta",
    "theta",
    "vartheta",
    "iota",
    "kappa",
    "lambda",
    "mu",
    "nu",
    "xi",
    "pi",
    "varpi",
    "rho",
    "varrho",
    "sigma",
    "varsigma",
    "tau",
    "upsilon",
    "phi",
    "varphi",
    "chi",
    "psi",
    "omega",
    "Gamma",
    "Delta",
    "Theta",
    "Lambda",
    "Xi",
    "Pi",
    "Sigma",
    "Upsilon",
    "Phi",
    "Psi",
    "Omega",
    "mathrm",
    "mathit",
    "mathbf",
    "mathsf",
    "mathtt",
    "mathcal",
    "mathbb",
    "mathfrak",
    "boldsymbol",
    "operatorname",
    "mbox",
    "hat",
    "tilde",
    "bar",
    "overline",
    "underline",
    "widehat",
    "widetilde",
    "vec",
    "dot",
    "ddot",
    "prime",
    "ast",
    "star",
    "circ",
    "bullet",
    "cdot",
    "cdots",
    "ldots",
    "dots",
    "times",
    "oplus",
    "otimes",
    "ominus",
    "pm",
    "mp",
    "cup",
    "cap",
    "setminus",
    "wedge",
    "vee",
    "in",
    "ni",
    "notin",
    "subset",
    "subseteq",
    "supset",
    "supseteq",
    "emptyset",
    "varnothing",
    "infty",
    "leq",
    "le",
    "geq",
    "ge",
    "neq",
    "ne",
    "equiv",
    "sim",
    "simeq",
    "approx",
    "to",
    "mapsto",
    "leftarrow",
    "rightarrow",
    "Leftarrow",
    "Rightarrow",
    "leftrightarrow",
    "langle",
    "rangle",
    "lfloor",
    "rfloor",
    "lceil",
    "rceil",
    "left",
    "right",
    "big",
    "Big",
    "mid",
    "vert",
    "Vert",
    "backslash",
    "frac",
    "tfrac",
    "sqrt",
    "sum",
    "prod",
    "min",
    "max",
    "gcd",
    "mathbin",
    "mathrel",
    "mathop",
    "quad",
    "qquad",
    "square",
    "Box",
    "triangle",
    "partial",
    "nabla",
    "forall",
    "exists",
    "neg",
    "lnot",
    "land",
    "lor",
    "grundypins",
    "grundypin",
    "grundynopin",
    "pmod",
    "bmod",
    "not",
    "emph",
    "textit",
    "textbf",
    "textrm",
];

/// Checks a spec's `tex:` label, which is copied into DOT attributes and TikZ math as it is:
/// balanced braces, no `"`, line break or trailing backslash, no `%` (it would comment out the
/// rest of the TikZ line), `#`, `$`, `&` or `^^` (category-code tricks), and control words
/// only from [`TEX_LABEL_WORDS`] (issue 28: a label cannot `\input` a file). `Err` says what
/// is wrong.
pub fn validate(tex: &str) -> Result<(), String> {
    check_label(tex, false)
}

/// Checks a spec's caption (TeX text with math in `$…$`): as [`validate`], with `$` allowed
/// in pairs.
pub fn validate_text(tex: &str) -> Result<(), String> {
    check_label(tex, true)
}

fn check_label(tex: &str, text: bool) -> Result<(), String> {
    if tex.contains(['"', '\n', '\r']) || tex.chars().any(char::is_control) {
        return Err("a tex label cannot contain `\"`, a line break or a control character".into());
    }
    if tex.contains("^^") {
        return Err("a tex label cannot contain `^^` (TeX's character-code notation)".into());
    }
    let chars: Vec<char> = tex.chars().collect();
    let mut i = 0;
    let mut dollars = 0usize;
    while i < chars.len() {
        if chars[i] == '\\' && chars.get(i + 1).is_some_and(|c| c.is_ascii_alphabetic()) {
            let mut j = i + 1;
            while j < chars.len() && chars[j].is_ascii_alphabetic() {
                j += 1;
            }
            let word: String = chars[i + 1..j].iter().collect();
            if !TEX_LABEL_WORDS.contains(&word.as_str()) {
                return Err(format!(
                    "a tex label may use math commands only; `\\{word}` is not one of them"
                ));
            }
            i = j;
            continue;
        }
        if chars[i] == '\\' {
            i += 2;
            continue;
        }
        if chars[i] == '$' && text {
            dollars += 1;
        } else if matches!(chars[i], '%' | '#' | '$' | '&') {
            return Err(format!(
                "a tex label cannot contain an unescaped `{}` (write `\\{}`)",
                chars[i], chars[i]
            ));
        }
        i += 1;
    }
    if dollars % 2 == 1 {
        return Err("an unmatched `$` in the tex text".into());
    }
    let mut depth = 0i64;
    let mut escaped = false;
    for c in tex.chars() {
        if escaped {
            escaped = false;
            continue;
        }
        match c {
            '\\' => escaped = true,
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth < 0 {
                    return Err("unbalanced `}` in the tex label".into());
                }
            }
            _ => {}
        }
    }
    if escaped {
        return Err("a tex label cannot end with a backslash".into());
    }
    if depth != 0 {
        return Err("unbalanced `{` in the tex label".into());
    }
    check_structure(tex, text)
}

/// How a control word of [`TEX_LABEL_WORDS`] is used: in which modes, with what arguments.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Arity {
    /// A symbol, math only (`\alpha`, `\leq`).
    MathSymbol,
    /// A symbol in text and math (`\ldots`, `\quad`, `\grundypin`).
    AnySymbol,
    /// One argument, math only (`\hat`, `\mathrm`).
    MathOne,
    /// One argument read as text, in text and math (`\emph`, `\mbox`).
    TextOne,
    /// Two arguments, math only (`\frac`).
    MathTwo,
    /// `\sqrt[k]{x}`: an optional argument, then one.
    Root,
    /// A delimiter follows, math only (`\big`, `\left`, `\right`).
    Delimited,
    /// A relation or symbol follows, math only (`\not`).
    Prefix,
}

fn arity(word: &str) -> Arity {
    match word {
        "ldots" | "dots" | "quad" | "qquad" | "grundypin" | "grundynopin" => Arity::AnySymbol,
        "emph" | "textit" | "textbf" | "textrm" | "mbox" | "grundypins" => Arity::TextOne,
        "mathrm" | "mathit" | "mathbf" | "mathsf" | "mathtt" | "mathcal" | "mathbb"
        | "mathfrak" | "boldsymbol" | "operatorname" | "mathbin" | "mathrel" | "mathop" | "hat"
        | "tilde" | "bar" | "overline" | "underline" | "widehat" | "widetilde" | "vec" | "dot"
        | "ddot" | "pmod" => Arity::MathOne,
        "frac" | "tfrac" => Arity::MathTwo,
        "sqrt" => Arity::Root,
        "left" | "right" | "big" | "Big" => Arity::Delimited,
        "not" => Arity::Prefix,
        _ => Arity::MathSymbol,
    }
}

/// A token of a TeX label: a control word, a control symbol (`\{`, `\,`, `\\`) or a character.
#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Word(String),
    Symbol(char),
    Char(char),
}

fn tokens(tex: &str) -> Vec<Tok> {
    let chars: Vec<char> = tex.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] == '\\' {
            let mut j = i + 1;
            while j < chars.len() && chars[j].is_ascii_alphabetic() {
                j += 1;
            }
            if j > i + 1 {
                out.push(Tok::Word(chars[i + 1..j].iter().collect()));
                i = j;
            } else {
                // A trailing backslash is refused before parsing.
                out.push(Tok::Symbol(chars.get(i + 1).copied().unwrap_or('\\')));
                i += 2;
            }
        } else {
            out.push(Tok::Char(chars[i]));
            i += 1;
        }
    }
    out
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Text,
    Math,
}

/// Where a list of tokens ends: at the end of the label, at the `}` of its group, or at the
/// `$` that closes its math.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Until {
    End,
    Brace,
    Dollar,
}

/// The structure TeX needs of a label or caption, found by parsing it as TeX would read it:
/// groups and math nest properly (a `$…$` begun inside `{…}` ends there), `^` and `_` stand
/// in math and have an argument, no double script, every command has its arguments and is
/// used in a mode it works in, `\left` and `\right` pair within one group, `\big`, `\left`
/// and `\right` are followed by a delimiter, and no `\\` (issue 44 item 8: `$x^$`,
/// `$\left($`, `\frac`, `\emph{$}$` were accepted and broke output/figures.tex).
struct Parser {
    toks: Vec<Tok>,
    at: usize,
    /// Groups, math and arguments open (each a recursion), bounded so a label of a million
    /// `{` or `\hat` cannot exhaust the stack.
    depth: usize,
}

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.at)
    }

    fn skip_spaces(&mut self) {
        while self.peek() == Some(&Tok::Char(' ')) {
            self.at += 1;
        }
    }

    fn enter(&mut self) -> Result<(), String> {
        self.depth += 1;
        if self.depth > MAX_TEX_DEPTH {
            return Err(format!(
                "a tex label may nest groups and arguments at most {MAX_TEX_DEPTH} deep"
            ));
        }
        Ok(())
    }

    fn list(&mut self, mode: Mode, until: Until) -> Result<(), String> {
        self.enter()?;
        let r = self.list_inner(mode, until);
        self.depth -= 1;
        r
    }

    fn list_inner(&mut self, mode: Mode, until: Until) -> Result<(), String> {
        let mut lefts = 0usize;
        loop {
            let Some(t) = self.peek().cloned() else {
                return match until {
                    Until::End if lefts == 0 => Ok(()),
                    Until::End => Err("a `\\left` without its `\\right`".into()),
                    Until::Brace => Err("unbalanced `{` in the tex label".into()),
                    Until::Dollar => Err("an unmatched `$` in the tex text".into()),
                };
            };
            self.at += 1;
            match t {
                Tok::Char('}') => {
                    return match until {
                        Until::Brace if lefts == 0 => Ok(()),
                        Until::Brace => Err("a `\\left` without its `\\right` in a group".into()),
                        Until::Dollar => {
                            Err("math begun by `$` inside a group `{…}` must end in it".into())
                        }
                        Until::End => Err("unbalanced `}` in the tex label".into()),
                    };
                }
                Tok::Char('{') => self.list(mode, Until::Brace)?,
                Tok::Char('$') => match (mode, until) {
                    (Mode::Text, _) => self.list(Mode::Math, Until::Dollar)?,
                    (Mode::Math, Until::Dollar) if lefts == 0 => return Ok(()),
                    (Mode::Math, Until::Dollar) => {
                        return Err("a `\\left` without its `\\right` in the math".into())
                    }
                    (Mode::Math, _) => {
                        return Err("a `$` inside math that began outside its group `{…}`".into())
                    }
                },
                Tok::Char(c @ ('^' | '_')) => {
                    if mode == Mode::Text {
                        return Err(format!("`{c}` outside math (write `$x{c}1$`)"));
                    }
                    self.argument(mode, &c.to_string())?;
                    self.skip_spaces();
                    if self.peek() == Some(&Tok::Char(c)) {
                        return Err(format!("a double `{c}` (write `{{x{c}a}}{c}b`)"));
                    }
                }
                Tok::Symbol('\\') => {
                    return Err("a tex label cannot contain a line break `\\\\`".into())
                }
                Tok::Symbol(_) | Tok::Char(_) => {}
                Tok::Word(w) => match w.as_str() {
                    "left" => {
                        self.math_only(mode, &w)?;
                        self.delimiter(&w)?;
                        lefts += 1;
                    }
                    "right" => {
                        self.math_only(mode, &w)?;
                        if lefts == 0 {
                            return Err("a `\\right` without its `\\left` in the same group".into());
                        }
                        self.delimiter(&w)?;
                        lefts -= 1;
                    }
                    _ => self.command(mode, &w)?,
                },
            }
        }
    }

    fn math_only(&self, mode: Mode, word: &str) -> Result<(), String> {
        if mode == Mode::Text {
            return Err(format!(
                "`\\{word}` works in math only (write `$\\{word}…$`)"
            ));
        }
        Ok(())
    }

    fn command(&mut self, mode: Mode, word: &str) -> Result<(), String> {
        self.enter()?;
        let r = self.command_inner(mode, word);
        self.depth -= 1;
        r
    }

    fn command_inner(&mut self, mode: Mode, word: &str) -> Result<(), String> {
        let a = arity(word);
        if !matches!(a, Arity::AnySymbol | Arity::TextOne) {
            self.math_only(mode, word)?;
        }
        match a {
            Arity::MathSymbol | Arity::AnySymbol => Ok(()),
            Arity::MathOne => self.argument(mode, &format!("\\{word}")),
            Arity::TextOne => self.argument(Mode::Text, &format!("\\{word}")),
            Arity::MathTwo => {
                self.argument(mode, &format!("\\{word}"))?;
                self.argument(mode, &format!("\\{word}"))
            }
            Arity::Root => {
                self.skip_spaces();
                if self.peek() == Some(&Tok::Char('[')) {
                    self.at += 1;
                    loop {
                        match self.peek().cloned() {
                            None => return Err("`\\sqrt[` without its `]`".into()),
                            Some(Tok::Char(']')) => {
                                self.at += 1;
                                break;
                            }
                            Some(Tok::Char('{')) => {
                                self.at += 1;
                                self.list(mode, Until::Brace)?;
                            }
                            Some(Tok::Char('}' | '$')) | Some(Tok::Symbol('\\')) => {
                                return Err("`\\sqrt[` without its `]`".into())
                            }
                            Some(_) => self.at += 1,
                        }
                    }
                }
                self.argument(mode, &format!("\\{word}"))
            }
            Arity::Delimited => self.delimiter(word),
            Arity::Prefix => {
                self.skip_spaces();
                match self.peek() {
                    None | Some(Tok::Char('}' | '$' | '^' | '_')) => {
                        Err(format!("`\\{word}` needs a symbol after it"))
                    }
                    _ => Ok(()),
                }
            }
        }
    }

    /// One argument: a group, a command with its own arguments, or one character. `of` names
    /// what takes it in the message (`^`, `_`, `\frac`).
    fn argument(&mut self, mode: Mode, of: &str) -> Result<(), String> {
        self.skip_spaces();
        let what = format!("`{of}`");
        match self.peek().cloned() {
            None | Some(Tok::Char('}' | '$' | '^' | '_' | '&' | '#')) => Err(format!(
                "{what} without its argument (write `{{…}}` after it)"
            )),
            Some(Tok::Symbol('\\')) => Err("a tex label cannot contain a line break `\\\\`".into()),
            Some(Tok::Char('{')) => {
                self.at += 1;
                self.list(mode, Until::Brace)
            }
            Some(Tok::Word(w)) => {
                self.at += 1;
                if matches!(w.as_str(), "left" | "right") {
                    return Err(format!("`\\{w}` cannot be an argument"));
                }
                self.command(mode, &w)
            }
            Some(_) => {
                self.at += 1;
                Ok(())
            }
        }
    }

    fn delimiter(&mut self, word: &str) -> Result<(), String> {
        self.skip_spaces();
        let ok = match self.peek() {
            Some(Tok::Char(c)) => "()[]|./<>".contains(*c),
            Some(Tok::Symbol(c)) => "{}|".contains(*c),
            Some(Tok::Word(w)) => matches!(
                w.as_str(),
                "langle"
                    | "rangle"
                    | "lfloor"
                    | "rfloor"
                    | "lceil"
                    | "rceil"
                    | "vert"
                    | "Vert"
                    | "backslash"
                    | "mid"
            ),
            None => false,
        };
        if !ok {
            return Err(format!(
                "`\\{word}` needs a delimiter after it, such as `(`, `|` or `\\langle`"
            ));
        }
        self.at += 1;
        Ok(())
    }
}

/// Most groups, math and arguments a label may have open at once.
const MAX_TEX_DEPTH: usize = 64;

/// [`Parser`] over a label (math: the template puts it in `$…$`) or a caption (text).
fn check_structure(tex: &str, text: bool) -> Result<(), String> {
    let mode = if text { Mode::Text } else { Mode::Math };
    let mut p = Parser {
        toks: tokens(tex),
        at: 0,
        depth: 0,
    };
    p.list(mode, Until::End)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 44 item 8: TeX that breaks the document is refused by the structural parse, each
    /// with a near-miss that is accepted (the rule, and its wrong variant beside it).
    #[test]
    fn tex_that_breaks_the_document_is_refused_and_its_correct_form_accepted() {
        for (bad, good) in [
            ("$x^$", "$x^2$"),
            ("$x_$", "$x_{1}$"),
            ("$\\left($", "$\\left( x \\right)$"),
            ("\\frac", "$\\frac{1}{2}$"),
            ("$\\frac{1}$", "$\\tfrac12$"),
            ("$\\sqrt$", "$\\sqrt[3]{x}$"),
            ("\\emph{$}$", "\\emph{a $x$ b}"),
            ("$\\big$", "$\\big| \\langle a \\rangle$"),
            ("$x^a^b$", "${x^a}^b$"),
            ("\\alpha", "$\\alpha$"),
            ("x^2", "$x^2$"),
            ("$\\right)$", "$\\left. x \\right|$"),
            ("${\\left( x} \\right)$", "${\\left( x \\right)}$"),
            ("a \\\\ b", "a \\, b"),
            ("$\\not$", "$\\not\\in$"),
        ] {
            assert!(validate_text(bad).is_err(), "accepted {bad}");
            assert!(
                validate_text(good).is_ok(),
                "refused {good}: {:?}",
                validate_text(good)
            );
        }
        // Labels are math already: scripts need no `$`, `\\\\` is still refused.
        assert!(validate("x^{2}_1").is_ok());
        assert!(validate("x^").is_err());
        assert!(validate("a \\\\ b").is_err());
        // Deep nesting ends in a message, not a stack overflow.
        assert!(validate(&"\\hat".repeat(100_000)).is_err());
        assert!(validate(&format!("{}x{}", "{".repeat(100_000), "}".repeat(100_000))).is_err());
    }

    /// Issue 46 item 9: a game's start set is a set, DNT_{\{v_1\}}(W_7) as the paper writes
    /// it (Figs 5.2, 5.5 printed DNT_{v_1}); other scripts are untouched.
    #[test]
    fn start_sets_are_set_braced() {
        assert_eq!(math("DNT_{v1}(W_7)"), "\\mathrm{DNT}_{\\{v_{1}\\}}(W_{7})");
        assert_eq!(
            math("TER_{c,v1}(W_7)"),
            "\\mathrm{TER}_{\\{c,v_{1}\\}}(W_{7})"
        );
        assert!(!math("DNT_{v1}(W_7)").contains("DNT}_{v"));
        assert_eq!(math("W_{2,4}"), "W_{2,4}");
    }

    /// Issue 46 item 13: a title's `$…$` is LaTeX math in the caption (it was escaped to
    /// `\$n\$`), the prose around it set as before.
    #[test]
    fn dollar_math_in_a_title_passes_through() {
        let (c, p) = caption_and_provenance("Case 4 for odd $m$ and $n \\ge 2$ (Thm 5.43)");
        assert_eq!(c, "Case 4 for odd $m$ and $n \\ge 2$.");
        assert_eq!(p.as_deref(), Some("Thm 5.43"));
        assert!(!c.contains("\\$"));
        assert_eq!(caption_and_provenance("no math here").0, "No math here.");
    }

    #[test]
    fn deep_scripts_are_flattened_without_recursion() {
        let deep = format!("{}a{}", "x^{".repeat(100_000), "}".repeat(100_000));
        let t = math(&deep);
        assert!(t.starts_with("x^{x^{"), "{}", &t[..40]);
        assert!(t.contains("x\\wedge \\{x"));
        assert_eq!(t.matches("^{").count(), MAX_SCRIPT_DEPTH);
    }

    #[test]
    fn games_in_the_papers_notation() {
        assert_eq!(math("DNT_{v1}(W_7)"), "\\mathrm{DNT}_{\\{v_{1}\\}}(W_{7})");
        assert_eq!(math("DNT_v1(W_7)"), "\\mathrm{DNT}_{\\{v_{1}\\}}(W_{7})");
        assert_eq!(math("TER(K_{1,2,2})"), "\\mathrm{TER}(K_{1,2,2})");
        assert_eq!(
            math("DNT_{c,v1}(W_7) + *1"),
            "\\mathrm{DNT}_{\\{c,v_{1}\\}}(W_{7}) + *1"
        );
        assert_eq!(math("*2 : DNT(P_4)"), "*2 : \\mathrm{DNT}(P_{4})");
        assert_eq!(math("SP_{12,8}"), "\\mathrm{SP}_{12,8}");
        assert_eq!(math("W_{2,4}"), "W_{2,4}");
    }

    /// A script without braces takes a whole number, as the game language reads it (`Z_12` is
    /// the cyclic group of order 12): typeset with braces, so TeX does not take only the first
    /// digit (`Z_12` in TeX is Z₁2).
    #[test]
    fn multi_digit_scripts_are_grouped_whole() {
        assert_eq!(math("Z_12"), "Z_{12}");
        assert_eq!(math("Z_2 × Z_12"), "Z_{2} \\times  Z_{12}");
        assert_eq!(math("GEN(Z_12)"), "\\mathrm{GEN}(Z_{12})");
        assert_eq!(math("P_10 + C_7"), "P_{10} + C_{7}");
        assert_eq!(math("x^10"), "x^{10}");
        assert_eq!(math("~K_12"), "\\overline{K_{12}}");
        assert_eq!(math("DNT_v12(W_7)"), "\\mathrm{DNT}_{\\{v_{12}\\}}(W_{7})");
        // Braces and one-symbol scripts as before.
        assert_eq!(math("Z_{12}"), "Z_{12}");
        assert_eq!(math("λ^e_0"), "\\lambda^{e}_{0}");
        assert_eq!(math("Z_1 2"), "Z_{1} 2");
        // The wrong grouping, one digit, is what TeX makes of `Z_12` itself.
        assert_ne!(math("Z_12"), "Z_{1}2");
    }

    #[test]
    fn lambda_takes_both_scripts_on_itself() {
        // λ₀^{e+2l}, not λ^{e+2l₀}: both scripts attach to λ.
        assert_eq!(math("(e, λ^{e+2l}_0)"), "(e, \\lambda^{e+2l}_{0})");
        assert_eq!(math("(c, 𝛌^{c+2})"), "(c, \\boldsymbol{\\lambda}^{c+2})");
        assert_eq!(math("(o, Λ^{o+2k})"), "(o, \\Lambda^{o+2k})");
        assert_eq!(math("(c,[1^{c-1}])"), "(c,[1^{c-1}])");
        assert_eq!(math("λ^e_0"), "\\lambda^{e}_{0}");
        assert_eq!(math("*a + *a, a ≥ 1"), "*a + *a, a \\ge  1");
    }

    #[test]
    fn words_sets_and_pins() {
        assert_eq!(math("terminal"), "\\mathrm{terminal}");
        assert_eq!(math("Lemma 5.37"), "\\mathrm{Lemma}\\ 5.37");
        assert_eq!(math("(A.2)"), "(\\mathrm{A}.2)");
        assert_eq!(math("(B)"), "(\\mathrm{B})");
        assert_eq!(math("(W)"), "(\\mathrm{W})");
        assert_eq!(math("f(W_7)"), "f(W_{7})");
        assert_eq!(math("nim(U)"), "\\mathrm{nim}(U)");
        assert_eq!(math("𝒢* ∋ {x}"), "\\mathcal{G}^{*} \\ni  \\{x\\}");
        assert_eq!(math("𝒢 ∋ {x, w}"), "\\mathcal{G} \\ni  \\{x, w\\}");
        assert_eq!(
            math("↦ ..| + *1"),
            "\\mapsto  \\grundypins{\\grundynopin\\grundynopin\\grundypin} + *1"
        );
        assert_eq!(math("|"), "\\grundypins{\\grundypin}");
        // Not pins: a decimal point, a lone full stop after a word.
        assert_eq!(math("0.137"), "0.137");
        assert_eq!(math("a & b % c $ # ~"), "a \\& b \\% c \\$ \\# \\sim ");
        assert_eq!(math("say \"x\""), "\\mathrm{say} {''}x{''}");
    }

    #[test]
    fn titles_put_notation_in_math_mode() {
        assert_eq!(
            text("The surjective option-preserving map DNT_{v1}(W_7) → DC(3) + *1 (Example 5.21)"),
            "The surjective option-preserving map $\\mathrm{DNT}_{\\{v_{1}\\}}(W_{7}) \\to  \\mathrm{DC}(3) + *1$ (Example 5.21)"
        );
        assert_eq!(
            text("with unique minimal generating set L = {u, v, w} of simplicial vertices"),
            "with unique minimal generating set $L = \\{u, v, w\\}$ of simplicial vertices"
        );
        assert_eq!(
            text("the second player wins (c,[1^c]) for c ≥ 1 (no figure)"),
            "the second player wins $(c,[1^{c}])$ for $c \\ge  1$ (no figure)"
        );
        assert_eq!(text("100% of P_3."), "100\\% of $P_{3}$.");
        assert_eq!(
            text("A play: nim(U) based on the signatures of U and Ũ"),
            "A play: $\\mathrm{nim}(U)$ based on the signatures of $U$ and $\\tilde{U}$"
        );
    }

    #[test]
    fn captions_drop_the_figure_number() {
        assert_eq!(
            caption("Figure 5.11: case analysis diagram (C) for a strategy with c ≥ 3"),
            "Case analysis diagram (C) for a strategy with $c \\ge  3$."
        );
    }

    #[test]
    fn the_papers_notation_for_complements_multisets_and_gamegraphs() {
        assert_eq!(math("K_2 + ~K_2"), "K_{2} + \\overline{K_{2}}");
        assert_eq!(math("~K_{m,n}"), "\\overline{K_{m,n}}");
        // Not a complement: a tilde before a space stays the relation.
        assert_eq!(math("a ~ b"), "a \\sim  b");
        assert_eq!(
            math("TER({1,2,2})"),
            "\\mathrm{TER}(\\{\\!\\!\\{1,2,2\\}\\!\\!\\})"
        );
        assert_eq!(
            math("TER{1,2,2}"),
            "\\mathrm{TER}(\\{\\!\\!\\{1,2,2\\}\\!\\!\\})"
        );
        // In a title (prose with notation) too: the DOT preview of Fig 5.1's panel.
        assert_eq!(
            text("TER{1,2,2} (nim-value 2)"),
            "$\\mathrm{TER}(\\{\\!\\!\\{1,2,2\\}\\!\\!\\})$ (nim-value 2)"
        );
        assert_eq!(dot_html("TER{1,2,2}"), "TER(⦃1,2,2⦄)");
        // A set elsewhere keeps single braces.
        assert_eq!(math("L = {x, y}"), "L = \\{x, y\\}");
        assert_eq!(math("*2 : 𝖦"), "*2 : \\mathsf{G}");
        assert_eq!(math("n <= 6, m >= 2"), "n \\le  6, m \\ge  2");
    }

    #[test]
    fn captions_keep_prose_out_of_math_and_provenance_out_of_the_caption() {
        assert_eq!(
            caption("Figure 5.8: case analysis diagram for a strategy with 0 ≤ a < b (the second player wins *n + *n)"),
            "Case analysis diagram for a strategy with $0 \\le  a < b$ (the second player wins $*n + *n$)."
        );
        assert_eq!(
            caption("Figure 5.13: case analysis diagram (E) for Case 1 with odd o ≥ 3, even e ≥ 4, l ≥ 2, and k ≥ 1"),
            "Case analysis diagram (E) for Case 1 with odd $o \\ge  3$, even $e \\ge  4$, $l \\ge  2$, and $k \\ge  1$."
        );
        assert_eq!(
            caption("Figure 5.12: case analysis diagram (D) for a strategy with c, k ≥ 0"),
            "Case analysis diagram (D) for a strategy with $c, k \\ge  0$."
        );
        assert_eq!(
            caption("Figure 5.10: diagram (B) for k ≥ 3; (i,4) stands for (i,Λ^4) or (i,[4])"),
            "Diagram (B) for $k \\ge  3$; $(i,4)$ stands for $(i,\\Lambda^{4})$ or $(i,[4])$."
        );
        assert_eq!(
            caption_and_provenance("A play in TER(K_{1,2,2}) (Example 5.11)"),
            (
                "A play in $\\mathrm{TER}(K_{1,2,2})$.".to_string(),
                Some("Example 5.11".to_string())
            )
        );
        assert_eq!(
            caption_and_provenance("Wins (c,[1^c]) for c ≥ 1 (no figure in the paper)")
                .1
                .as_deref(),
            Some("no figure in the paper")
        );
        // A parenthetical that says something about the figure stays.
        assert_eq!(
            caption_and_provenance("The diamond (the complete split graph)"),
            ("The diamond (the complete split graph).".to_string(), None)
        );
    }

    #[test]
    fn tex_labels_are_checked() {
        assert!(validate("\\mathrm{DNT}_{v_1}(W_7)").is_ok());
        assert!(validate("\\{a\\}").is_ok());
        assert!(validate("x_{1").is_err());
        assert!(validate("x}").is_err());
        assert!(validate("a\"b").is_err());
        assert!(validate("a\\").is_err());
    }
}
