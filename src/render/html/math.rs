//! Statements, notes, ranges, captions and coverage parts in the paper's plain notation
//! ("nim(TER(C_n)) = 0 for odd n >= 5", "n in 2..=12", "case 1 `n % 4 == 0`") split into text,
//! code and math segments; a math segment is TeX that the vendored KaTeX typesets in the browser
//! (and that reads as the paper's notation when scripts are off).
//!
//! What becomes math: words with a sub- or superscript (`W_{m,n}`), formula words (`DC(n-4)`,
//! `(c,[1^c])`), and runs `operand op operand …` around the ASCII comparison and arithmetic
//! operators (`n >= 5`, `2 <= d`, `n in 2..=12`, `d := n - m`, `n = 2 (mod 4)`), with `>=`,
//! `<=`, `!=`, `..=` and `..<` turned into `\ge`, `\le`, `\ne` and the paper's `\{a,\dots,b\}`.
//! Spec ids (`prop_5_23_least`) and file names stay text; backticked rhai conditions
//! (`n % 4 == 2 && n >= 6`) are typeset as the condition they state, other backticked spans are
//! code. No ASCII `>=`, `<=` or `..=` is left in any text segment (the browser test checks the
//! rendered pages for it).

use serde::Serialize;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Seg {
    pub math: bool,
    /// Literal code (a command line, a predicate's name), shown in `<code>`.
    pub code: bool,
    pub text: String,
}

impl Seg {
    pub fn plain(s: &str) -> Seg {
        Seg {
            math: false,
            code: false,
            text: s.to_string(),
        }
    }
    pub fn math(s: &str) -> Seg {
        Seg {
            math: true,
            code: false,
            text: s.to_string(),
        }
    }
    pub fn code(s: &str) -> Seg {
        Seg {
            math: false,
            code: true,
            text: s.to_string(),
        }
    }
}

/// Whether a whitespace-free word is the paper's notation with a sub- or superscript:
/// every `_`/`^` is followed by a braced group or by one letter or digit that ends the word
/// or is followed by a non-alphanumeric character.
fn is_math_word(w: &str) -> bool {
    if !(w.contains('_') || w.contains('^')) || w.contains('/') || w.contains("://") {
        return false;
    }
    // A brace group split by a space ("{v_i, v_j}") stays text: half a group is no TeX.
    if !balanced(w) {
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

/// Operator and function names of the papers, set upright.
const OPERATORS: [&str; 23] = [
    "TER", "DNT", "nim", "SPL", "DC", "Tr", "mex", "UEG", "SP", "Wd", "pty", "Corona", "DNG",
    "GEN", "Dih", "Alt", "Sym", "diam", "mod", "sum", "deg", "rho", "Opt",
];

/// TeX commands a statement may use literally (a coverage part copied from a TeX table).
const TEX_COMMANDS: [&str; 14] = [
    "leq", "geq", "le", "ge", "neq", "ne", "in", "notin", "cdot", "dots", "ldots", "infty",
    "lambda", "Lambda",
];

/// Whether every `(`, `[`, `{` is closed in order, and `|` comes in pairs.
fn balanced(w: &str) -> bool {
    let mut stack = Vec::new();
    for c in w.chars() {
        match c {
            '(' | '[' | '{' => stack.push(c),
            ')' | ']' | '}' => {
                let open = match c {
                    ')' => '(',
                    ']' => '[',
                    _ => '{',
                };
                if stack.pop() != Some(open) {
                    return false;
                }
            }
            _ => {}
        }
    }
    stack.is_empty() && w.matches('|').count().is_multiple_of(2)
}

/// TeX for a word or group of the paper's notation: operator names upright, `>=`/`<=`/`!=`
/// and ranges as symbols, `~K_n` as the complement `\overline{K_n}`, TeX specials escaped.
fn tex_of(w: &str) -> String {
    let mut out = String::new();
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        if word.is_empty() {
            return;
        }
        if word == "sum" {
            out.push_str("\\sum");
        } else if word == "lam" {
            // The specs' name for the paper's partition λ.
            out.push_str("\\lambda ");
        } else if word == "mod" {
            out.push_str("\\bmod ");
        } else if OPERATORS.contains(&word.as_str()) || word.chars().count() > 1 {
            out.push_str(&format!("\\mathrm{{{word}}}"));
        } else {
            out.push_str(word);
        }
        word.clear();
    };
    let chars: Vec<char> = w.chars().collect();
    let at = |i: usize, s: &str| {
        let s: Vec<char> = s.chars().collect();
        chars.len() >= i + s.len() && chars[i..i + s.len()] == s[..]
    };
    // Which open braces group a script (`_{..}`) and which are the paper's set braces.
    // 0: the paper's set braces, 1: a script's group, 2: a game's start set in a script.
    let mut groups: Vec<u8> = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        // A letter right after `_`/`^` is a one-letter script, not part of a word.
        let after_script = i > 0 && matches!(chars[i - 1], '_' | '^');
        let before = |k: usize| (0..k).rev().map(|j| chars[j]).find(|c| *c != ' ');
        let after = |k: usize| chars[k..].iter().copied().find(|c| *c != ' ');
        // `Cyc(2) x Dih(4)`: the product of groups is ×, not an italic x.
        if c == 'x'
            && word.is_empty()
            && i > 0
            && chars[i - 1] == ' '
            && chars.get(i + 1) == Some(&' ')
            && before(i).is_some_and(|b| matches!(b, ')' | '}') || b.is_ascii_digit())
            && after(i + 1).is_some_and(|n| n.is_ascii_uppercase())
        {
            out.push_str("\\times");
            i += 1;
            continue;
        }
        // A number in a script is grouped whole, as TeX would not (`Z_12` is Z_{12}, not
        // Z_1 followed by 2): the rule of `text::script_end`.
        if matches!(c, '_' | '^') && chars.get(i + 1).is_some_and(char::is_ascii_digit) {
            flush(&mut word, &mut out);
            let digits: String = chars[i + 1..]
                .iter()
                .take_while(|d| d.is_ascii_digit())
                .collect();
            out.push_str(&format!("{c}{{{digits}}}"));
            i += 1 + digits.len();
            continue;
        }
        // A vertex name `v1`, `c2` is the paper's v_1, c_2 (one lowercase letter, digits).
        if c.is_ascii_lowercase()
            && word.is_empty()
            && !after_script
            && (i == 0 || !(chars[i - 1].is_alphanumeric() || chars[i - 1] == '\\'))
            && chars.get(i + 1).is_some_and(char::is_ascii_digit)
        {
            let digits: String = chars[i + 1..]
                .iter()
                .take_while(|d| d.is_ascii_digit())
                .collect();
            let end = i + 1 + digits.len();
            if !chars
                .get(end)
                .is_some_and(|e| e.is_alphanumeric() || *e == '_' || *e == '.')
            {
                out.push_str(&format!("{c}_{{{digits}}}"));
                i = end;
                continue;
            }
        }
        if c.is_ascii_alphabetic() && !after_script {
            word.push(c);
            i += 1;
            continue;
        }
        flush(&mut word, &mut out);
        let two = [
            (">=", "\\ge "),
            ("<=", "\\le "),
            ("!=", "\\ne "),
            ("->", "\\to "),
            (":=", "\\coloneqq "),
        ];
        if at(i, "...") {
            out.push_str("\\dots ");
            i += 3;
            continue;
        }
        if at(i, "..=") || at(i, "..<") || at(i, "..") {
            // Inside a group a range is the list it stands for (`1..n-4`: 1, …, n-4).
            out.push_str(",\\dots,");
            i += if at(i, "..=") || at(i, "..<") { 3 } else { 2 };
            continue;
        }
        if let Some((op, tex)) = two.iter().find(|(op, _)| at(i, op)) {
            out.push_str(tex);
            i += op.len();
            continue;
        }
        match c {
            '%' | '#' | '&' | '$' => {
                out.push('\\');
                out.push(c);
            }
            '{' => {
                let group = i > 0 && matches!(chars[i - 1], '_' | '^');
                // A game's start set, DNT_{\{v_1\}}(W_7) as the paper writes it.
                let start_set = group
                    && (out.ends_with("\\mathrm{TER}_") || out.ends_with("\\mathrm{DNT}_"))
                    && chars.get(i + 1) != Some(&'{');
                groups.push(if start_set { 2 } else { u8::from(group) });
                out.push_str(match (group, start_set) {
                    (_, true) => "{\\{",
                    (true, false) => "{",
                    _ => "\\{",
                });
            }
            '}' => out.push_str(match groups.pop() {
                Some(2) => "\\}}",
                Some(1) => "}",
                _ => "\\}",
            }),
            '\\' => {
                let name: String = chars[i + 1..]
                    .iter()
                    .take_while(|c| c.is_ascii_alphabetic())
                    .collect();
                if TEX_COMMANDS.contains(&name.as_str()) {
                    out.push('\\');
                    out.push_str(&name);
                    out.push(' ');
                    i += 1 + name.len();
                    continue;
                }
                out.push_str("\\backslash ");
            }
            // `𝒩*`, `𝒢*`: the paper's starred family, a superscript (not a binary operator).
            '*' if i > 0
                && (chars[i - 1].is_alphanumeric() || matches!(chars[i - 1], ')' | '}'))
                && !chars.get(i + 1).is_some_and(|c| c.is_alphanumeric()) =>
            {
                out.push_str("^{*}");
            }
            '~' => {
                // The game language's complement `~K_n` is the paper's \overline{K_n}.
                let mut j = i + 1;
                if chars.get(j).is_some_and(|c| c.is_alphabetic()) {
                    j += 1;
                    if chars.get(j) == Some(&'_') {
                        j += 1;
                        if chars.get(j) == Some(&'{') {
                            while j < chars.len() && chars[j] != '}' {
                                j += 1;
                            }
                            j += 1;
                        } else if chars.get(j).is_some_and(|c| c.is_alphanumeric()) {
                            j += 1;
                        }
                    }
                    let inner: String = chars[i + 1..j.min(chars.len())].iter().collect();
                    out.push_str(&format!("\\overline{{{}}}", tex_of(&inner)));
                    i = j;
                    continue;
                }
                out.push_str("\\sim ");
            }
            // The paper's symbols (𝒩, ∁, λ, …) as texlabel writes them for the figures.
            _ => match crate::render::texlabel::symbol(c).filter(|_| !c.is_ascii()) {
                Some(tex) => {
                    out.push_str(tex);
                    // `λx` is \lambda x, not the undefined \lambdax.
                    if tex.ends_with(|e: char| e.is_ascii_alphabetic())
                        && chars.get(i + 1).is_some_and(|n| n.is_ascii_alphabetic())
                    {
                        out.push(' ');
                    }
                }
                None => out.push(c),
            },
        }
        i += 1;
    }
    flush(&mut word, &mut out);
    out
}

/// The paper's set `\{a,\dots,b\}` for a range word `a..=b`, `a..<b` (`b` - 1 when a number)
/// or `a..b`, and `\{3,5,7\}` for a list `3,5,7`; None for anything else.
fn range_tex(w: &str) -> Option<String> {
    let (a, b, open) = if let Some((a, b)) = w.split_once("..=") {
        (a, b, false)
    } else if let Some((a, b)) = w.split_once("..<") {
        (a, b, true)
    } else if let Some((a, b)) = w.split_once("..") {
        (a, b, false)
    } else {
        let items: Vec<&str> = w.split(',').collect();
        if items.len() > 1
            && items
                .iter()
                .all(|s| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit()))
        {
            return Some(format!("\\{{{}\\}}", items.join(", ")));
        }
        return None;
    };
    if a.is_empty() || b.is_empty() || !is_operand(a) || !is_operand(b) {
        return None;
    }
    let last = if open {
        match b.parse::<i64>() {
            Ok(n) => (n - 1).to_string(),
            Err(_) => format!("{}-1", tex_of(b)),
        }
    } else {
        tex_of(b)
    };
    if tex_of(a) == last {
        return Some(format!("\\{{{last}\\}}"));
    }
    Some(format!("\\{{{},\\dots,{last}\\}}", tex_of(a)))
}

/// Whether a word is a formula of the notation: only letters, digits and `+-*/()[]{},|^_'`,
/// balanced, with a bracket, an operator or a script, and every run of letters one letter or
/// an operator name (so `n+m`, `DC(n-4)`, `(2,1)` and `TER{1,2,2}` are formulae, `Guy-Smith`
/// and `P-position` are not).
fn is_formula(w: &str) -> bool {
    if w.is_empty()
        || !w
            .chars()
            .all(|c| c.is_alphanumeric() || "+-*/()[]{},|^_'".contains(c) || paper_symbol(c))
        || !balanced(w)
        || !w.chars().any(|c| "+-*/()[]{}|^_".contains(c))
    {
        return false;
    }
    if w.chars().all(|c| "+-*/()[]{},|".contains(c)) {
        return false;
    }
    // `1-5` (a span of cases) and `(i)` stay text; a formula has a letter or a bracket pair.
    let mut run = String::new();
    for c in w.chars().chain(std::iter::once(' ')) {
        if c.is_alphabetic() {
            run.push(c);
        } else {
            if run.chars().count() > 1 && !OPERATORS.contains(&run.as_str()) {
                return false;
            }
            run.clear();
        }
    }
    true
}

/// A symbol of the paper's notation that names something (`∁` of a family), not a relation:
/// a formula may contain it (`∁(𝒢*)`).
fn paper_symbol(c: char) -> bool {
    matches!(c, '∁' | '∅')
}

/// Whether a word can stand beside an operator: a number, one letter (possibly primed or
/// starred), a math word, a formula, a nimber `*n`, a range or a set.
fn is_operand(w: &str) -> bool {
    let letters = w.chars().filter(|c| c.is_alphabetic()).count();
    (!w.is_empty() && w.chars().all(|c| c.is_ascii_digit()))
        || (letters == 1
            && w.chars().count() <= 2
            && w.chars().next().is_some_and(|c| c.is_alphabetic())
            && w.chars().skip(1).all(|c| "'*".contains(c)))
        || (w.starts_with('*') && w.len() > 1 && is_operand(&w[1..]))
        // A vertex or node name: one letter and a number (`N1`, `v3`, `S0`).
        || (w.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
            && w.len() <= 3
            && w.len() > 1
            && w[1..].chars().all(|c| c.is_ascii_digit()))
        || is_math_word(w)
        || is_formula(w)
        || range_tex(w).is_some()
        || (w.chars().count() <= 2 && w.chars().all(|c| c.is_alphabetic()) && letters == 1)
}

/// TeX of an operator word, if it is one.
fn op_tex(w: &str) -> Option<&'static str> {
    Some(match w {
        ">=" | "≥" => "\\ge",
        "<=" | "≤" => "\\le",
        "==" | "=" => "=",
        "!=" | "≠" => "\\ne",
        "<" => "<",
        ">" => ">",
        ":=" => "\\coloneqq",
        "->" | "→" => "\\to",
        "↦" => "\\mapsto",
        // Remark 2.5's diagram: arrows both ways, labelled with the map.
        "←∁→" => "\\overset{\\complement}{\\longleftrightarrow}",
        "←Tr→" => "\\overset{\\mathrm{Tr}}{\\longleftrightarrow}",
        "+" => "+",
        "-" | "−" => "-",
        "∪" => "\\cup",
        "∩" => "\\cap",
        "×" | "x" => "\\times",
        ":" => ":",
        "mod" => "\\bmod",
        "in" | "∈" => "\\in",
        _ => return None,
    })
}

/// A word of prose, or a group of words joined to close its brackets.
struct Unit<'a> {
    /// Leading whitespace, kept as text.
    space: &'a str,
    /// The unit without trailing punctuation.
    core: String,
    /// Trailing punctuation and unmatched closers, kept as text.
    tail: String,
    /// A group of words that contained prose words (only in a `{…}` set builder).
    prose: bool,
}

/// Splits prose into words with their leading whitespace, joining the words of a bracket group
/// that a space splits (`{18, 38}`, `(n - 1)/2`, `|i - j|`) when the group closes within a few
/// words: a `( )`/`[ ]`/`| |` group only when no prose word is inside, a `{ }` set builder also
/// around prose (`{{c_i, c_j}^c | i != j}`).
fn units(text: &str) -> Vec<Unit<'_>> {
    let mut words: Vec<(&str, &str)> = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        let ws = rest.len() - rest.trim_start().len();
        let space = &rest[..ws];
        rest = &rest[ws..];
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        words.push((space, &rest[..end]));
        rest = &rest[end..];
    }
    let mut out = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let (space, w) = words[i];
        // `(Q_1 = K_2 has 1)`: a parenthesis opening on notation is text, the notation after
        // it a word of its own (it stayed text whole, `Q_1` unsubscripted).
        if let Some(rest) = w.strip_prefix('(') {
            let (core, _) = trim_punct(w);
            if !balanced(core) && balanced(trim_punct(rest).0) && is_math_word(trim_punct(rest).0) {
                out.push(Unit {
                    space,
                    core: "(".into(),
                    tail: String::new(),
                    prose: false,
                });
                words[i] = ("", rest);
                continue;
            }
        }
        let mut joined = w.to_string();
        let mut j = i;
        let mut prose = false;
        if !balanced(trim_punct(w).0)
            && w.chars()
                .next()
                .is_some_and(|c| "({[|".contains(c) || c.is_alphanumeric())
        {
            let set = w.starts_with('{');
            let mut k = i + 1;
            let mut acc = w.to_string();
            // `(and 𝒢 = ∁(𝒩*))`: a parenthesis opening on prose is prose, the formula after
            // it a run of its own.
            let mut saw_prose = is_prose(w);
            if saw_prose && !set {
                k = words.len();
            }
            // A set builder of the papers runs to 25 words (Prop 5.1's 𝒢 for odd cycles).
            while k < words.len() && k < i + 40 {
                acc.push_str(words[k].0);
                acc.push_str(words[k].1);
                if is_prose(words[k].1) {
                    saw_prose = true;
                    if !set {
                        break;
                    }
                }
                if balanced(trim_punct(&acc).0) {
                    if !saw_prose || set {
                        joined = acc.clone();
                        j = k;
                        prose = saw_prose;
                    }
                    break;
                }
                k += 1;
            }
        }
        let (core, tail) = trim_punct(&joined);
        out.push(Unit {
            space,
            core: core.to_string(),
            tail: tail.to_string(),
            prose,
        });
        i = j + 1;
    }
    out
}

/// A word of prose: letters only, two or more, not an operator name.
fn is_prose(w: &str) -> bool {
    let w = w.trim_matches(|c: char| !c.is_alphanumeric());
    w.chars().count() > 1 && w.chars().all(|c| c.is_alphabetic()) && !OPERATORS.contains(&w)
}

/// A word without its trailing punctuation and without closers it does not open.
fn trim_punct(w: &str) -> (&str, &str) {
    let mut end = w.len();
    loop {
        let core = &w[..end];
        let Some(last) = core.chars().last() else {
            break;
        };
        let strip = match last {
            '.' | ',' | ';' | ':' | '!' | '?' => !core.ends_with("..") || core.len() < 3,
            ')' | ']' | '}' => {
                let open = match last {
                    ')' => '(',
                    ']' => '[',
                    _ => '{',
                };
                core.matches(open).count() < core.matches(last).count()
            }
            _ => false,
        };
        if !strip || end <= 1 {
            break;
        }
        end -= last.len_utf8();
    }
    (&w[..end], &w[end..])
}

/// TeX of one operand unit.
fn operand_tex(u: &Unit) -> String {
    if u.prose {
        // A set builder around prose: the prose words as text inside the math.
        let mut out = String::new();
        for w in u.core.split(' ') {
            let letters = w.trim_end_matches(|c: char| !c.is_alphabetic());
            if w == "|" {
                out.push_str("\\mid ");
            } else if is_prose(letters) && letters.chars().all(|c| c.is_alphabetic()) {
                out.push_str(&format!("\\text{{ {letters} }}"));
                out.push_str(&tex_of(&w[letters.len()..]));
            } else {
                out.push_str(&tex_of(w));
                out.push(' ');
            }
        }
        return out.trim_end().to_string();
    }
    if let Some(r) = range_tex(&u.core) {
        return r;
    }
    tex_of(&u.core)
}

/// Whether a unit can be an operand (a joined group always can).
fn unit_operand(u: &Unit) -> bool {
    u.core.contains(' ') || is_operand(&u.core)
}

/// Appends a segment, merging neighbouring text.
fn push(out: &mut Vec<Seg>, seg: Seg) {
    if seg.text.is_empty() {
        return;
    }
    match out.last_mut() {
        Some(last) if !last.math && !last.code && !seg.math && !seg.code => {
            last.text.push_str(&seg.text)
        }
        _ => out.push(seg),
    }
}

/// Text with any ASCII operator left over written as its symbol, so that no `>=` is printed.
pub fn text_symbols(s: &str) -> String {
    s.replace(">=", "≥")
        .replace("<=", "≤")
        .replace("!=", "≠")
        .replace("..=", "–")
        .replace("..<", "–")
}

/// Typesets prose without backticks into `out`.
fn prose(text: &str, out: &mut Vec<Seg>) {
    let us = units(text);
    let mut i = 0;
    while i < us.len() {
        let u = &us[i];
        push(out, Seg::plain(u.space));
        // A run: operand (op operand)*, with `in` only before a range or set.
        let starts_run = |k: usize| {
            k + 2 < us.len() + 1
                && unit_operand(&us[k])
                && us[k].tail.is_empty()
                && us.get(k + 1).is_some_and(|o| {
                    op_tex(&o.core).is_some()
                        && o.tail.is_empty()
                        && (o.core != "in"
                            || us.get(k + 2).is_some_and(|r| {
                                range_tex(&r.core).is_some()
                                    || r.core.starts_with('{')
                                    || number_list_tex(&r.core).is_some()
                            }))
                })
                && us.get(k + 2).is_some_and(unit_operand)
        };
        if starts_run(i) || (u.prose && unit_operand(u)) {
            let mut tex = operand_tex(u);
            let mut k = i;
            while starts_run(k) {
                let op = op_tex(&us[k + 1].core).unwrap_or("");
                let right = match number_list_tex(&us[k + 2].core) {
                    Some(set) if op == "\\in" => set,
                    _ => operand_tex(&us[k + 2]),
                };
                tex.push_str(&format!(" {op} {right}"));
                k += 2;
            }
            // `n = 2 (mod 4)`: the congruence's modulus (a unit, its words joined).
            let mut tail = us[k].tail.clone();
            if let Some(m) = us
                .get(k + 1)
                .filter(|_| tail.is_empty())
                .and_then(|m| Some((m, m.core.strip_prefix("(mod ")?.strip_suffix(')')?)))
            {
                tex.push_str(&format!(" \\pmod{{{}}}", tex_of(m.1)));
                tail = m.0.tail.clone();
                k += 1;
            }
            push(out, Seg::math(&tex));
            push(out, Seg::plain(&text_symbols(&tail)));
            i = k + 1;
            continue;
        }
        let core = &u.core;
        if let Some(op) =
            op_tex(core).filter(|_| matches!(core.as_str(), ">=" | "<=" | "!=" | ":="))
        {
            // An operator after a word of prose (`with sum <= 20`): the operator and its
            // right operand as math.
            match us
                .get(i + 1)
                .filter(|r| u.tail.is_empty() && unit_operand(r))
            {
                Some(r) => {
                    push(out, Seg::math(&format!("{op} {}", operand_tex(r))));
                    push(out, Seg::plain(&text_symbols(&r.tail)));
                    i += 2;
                    continue;
                }
                None => push(out, Seg::math(op)),
            }
        } else if is_math_word(core)
            || (is_formula(core) && core.chars().any(|c| c.is_alphabetic()))
        {
            push(out, Seg::math(&tex_of(core)));
        } else if (core.contains("..=") || core.contains("..<")) && range_tex(core).is_some() {
            let r = range_tex(core).unwrap_or_default();
            push(
                out,
                Seg::math(r.trim_start_matches("\\{").trim_end_matches("\\}")),
            );
        } else {
            push(out, Seg::plain(&text_symbols(core)));
        }
        push(out, Seg::plain(&text_symbols(&u.tail)));
        i += 1;
    }
}

/// Splits text into segments: backticked spans are a rhai condition typeset as math or code,
/// the rest prose (see the module header).
pub fn segments(text: &str) -> Vec<Seg> {
    // `$…$` (a diagram title's LaTeX math, issue 46): math as written.
    if text.contains('$') && text.matches('$').count().is_multiple_of(2) {
        let mut out = Vec::new();
        for (k, part) in text.split('$').enumerate() {
            if k % 2 == 1 {
                push(&mut out, Seg::math(part));
            } else {
                for seg in segments(part) {
                    push(&mut out, seg);
                }
            }
        }
        return out;
    }
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find('`') {
        let Some(j) = rest[i + 1..].find('`') else {
            break;
        };
        prose(&rest[..i], &mut out);
        let code = &rest[i + 1..i + 1 + j];
        match rhai_tex(code) {
            Some(tex) => push(&mut out, Seg::math(&tex)),
            None => push(&mut out, Seg::code(code)),
        }
        rest = &rest[i + 2 + j..];
    }
    prose(rest, &mut out);
    out
}

/// The whole text as one math segment (a game expression such as `TER(W_{m,n})`).
pub fn math(text: &str) -> Vec<Seg> {
    vec![Seg::math(&tex_of(text))]
}

/// A checked range as the report writes it ("m in 2..=8, n in 4..=10", "SPL(h,[lam]) for h in
/// 1..=20, lam in multisets with sum <= 20 where size == h; …"): bindings and games as math,
/// `where` conditions as the rhai they are, the rest prose.
pub fn range(text: &str) -> Vec<Seg> {
    let mut out = Vec::new();
    for (n, clause) in text.split("; ").enumerate() {
        if n > 0 {
            push(&mut out, Seg::plain("; "));
        }
        let (body, cond) = match clause.split_once(" where ") {
            Some((b, c)) if rhai_tex(c).is_some() => (b, Some(c)),
            _ => (clause, None),
        };
        let (game, binds) = match body.split_once(" for ") {
            Some((g, b)) if !g.contains(' ') || is_formula_expr(g) => (Some(g), b),
            _ => (None, body),
        };
        if let Some(g) = game {
            push(&mut out, Seg::math(&tex_of(g)));
            push(&mut out, Seg::plain(" for "));
        }
        for (k, b) in split_outside_brackets(binds, ", ").into_iter().enumerate() {
            if k > 0 {
                push(&mut out, Seg::plain(", "));
            }
            match b.split_once(" in ") {
                Some((x, r))
                    if is_operand(x)
                        && (range_tex(r).is_some() || number_list_tex(r).is_some()) =>
                {
                    let r = number_list_tex(r)
                        .or_else(|| range_tex(r))
                        .unwrap_or_default();
                    push(&mut out, Seg::math(&format!("{} \\in {r}", tex_of(x))));
                }
                // `lam in multisets with sum <= 18`: the variable as math, the set in words.
                Some((x, r)) if is_operand(x) || x == "lam" => {
                    push(&mut out, Seg::math(&tex_of(x)));
                    push(&mut out, Seg::plain(" in "));
                    prose(r, &mut out);
                }
                _ => prose(b, &mut out),
            }
        }
        if let Some(c) = cond {
            push(&mut out, Seg::plain(" where "));
            push(&mut out, Seg::math(&rhai_tex(c).unwrap_or_default()));
        }
    }
    out
}

/// `text` split at `sep` where no bracket is open (`a in [1, 2], b in 3..=5` is two bindings).
fn split_outside_brackets<'a>(text: &'a str, sep: &str) -> Vec<&'a str> {
    let mut out = Vec::new();
    let (mut depth, mut start, mut i) = (0i32, 0usize, 0usize);
    while i < text.len() {
        let rest = &text[i..];
        if depth == 0 && rest.starts_with(sep) {
            out.push(&text[start..i]);
            i += sep.len();
            start = i;
            continue;
        }
        let c = rest.chars().next().unwrap_or(' ');
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            _ => {}
        }
        i += c.len_utf8();
    }
    out.push(&text[start..]);
    out
}

/// The set `\{1, 2, 7\}` of a parameter's list of values `[1, 2, 7]` (after `in`: a list of
/// numbers there is the values taken, not a partition); None for anything else.
fn number_list_tex(w: &str) -> Option<String> {
    let inner = w.trim().strip_prefix('[')?.strip_suffix(']')?;
    let items: Vec<&str> = inner.split(',').map(str::trim).collect();
    items
        .iter()
        .all(|s| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit()))
        .then(|| format!("\\{{{}\\}}", items.join(", ")))
}

/// Whether a game expression with spaces (`*n + *n`, `SPL(h,[h]) + *1`) is all notation.
fn is_formula_expr(g: &str) -> bool {
    g.split(' ')
        .all(|w| op_tex(w).is_some() || is_operand(w) || is_formula(w))
}

/// A coverage part ("case 1 `n == 3`", "start generator 1 (SPL(h,[lam]) where size == h)",
/// "arrow S -> M (single, heap)", "row 1 (p = 0, d \leq -1)") typeset.
pub fn part(text: &str) -> Vec<Seg> {
    if let Some(open) = text.find(" (") {
        let inner = &text[open + 2..];
        if let Some(inner) = inner.strip_suffix(')') {
            if let Some((game, cond)) = inner.split_once(" where ") {
                if let Some(c) = rhai_tex(cond) {
                    let mut out = segments(&text[..open]);
                    push(&mut out, Seg::plain(" ("));
                    push(&mut out, Seg::math(&game_tex(game)));
                    push(&mut out, Seg::plain(" where "));
                    push(&mut out, Seg::math(&c));
                    push(&mut out, Seg::plain(")"));
                    return out;
                }
            }
            if is_formula_expr(inner) || inner.contains('\\') {
                let mut out = segments(&text[..open]);
                push(&mut out, Seg::plain(" ("));
                let mut tex = String::new();
                for w in inner.split(' ') {
                    match op_tex(w) {
                        Some(op) => tex.push_str(op),
                        None => tex.push_str(&tex_of(w)),
                    }
                    tex.push(' ');
                }
                push(&mut out, Seg::math(tex.trim_end()));
                push(&mut out, Seg::plain(")"));
                return out;
            }
        }
    }
    segments(text)
}

/// A game with its operators (`SPL(h,[lam]) + *1`, `SPL(h,Λ^n)`).
fn game_tex(g: &str) -> String {
    g.split(' ')
        .map(|w| op_tex(w).map(String::from).unwrap_or_else(|| tex_of(w)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A rhai condition (`n % 4 == 2 && n >= 6`, `![5, 6].contains(n % 34)`, `pty(h - size) == 1`)
/// as the paper would typeset it (`n \bmod 4 = 2 \land n \ge 6`, `n \bmod 34 \notin \{5, 6\}`);
/// None when the text is not such a condition (a command line, a name, a binding).
pub fn rhai_tex(code: &str) -> Option<String> {
    if !code
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || " _()[],.=!<>&|%+-*/".contains(c))
        || !["==", "!=", "<=", ">=", "&&", "||", "<", ">", "contains"]
            .iter()
            .any(|op| code.contains(op))
        || !balanced(&code.replace('|', ""))
    {
        return None;
    }
    let toks = rhai_tokens(code)?;
    rhai_expr(&toks)
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Ident(String),
    Num(String),
    Op(&'static str),
}

fn rhai_tokens(code: &str) -> Option<Vec<Tok>> {
    const OPS: [&str; 20] = [
        "==", "!=", "<=", ">=", "&&", "||", "<", ">", "!", "%", "+", "-", "*", "/", "(", ")", "[",
        "]", ",", ".",
    ];
    let b = code.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i] as char;
        if c == ' ' {
            i += 1;
        } else if c.is_ascii_alphabetic() || c == '_' {
            let s: String = code[i..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            i += s.len();
            out.push(Tok::Ident(s));
        } else if c.is_ascii_digit() {
            let s: String = code[i..]
                .chars()
                .take_while(|c| c.is_ascii_digit())
                .collect();
            i += s.len();
            out.push(Tok::Num(s));
        } else {
            let op = OPS.iter().find(|op| code[i..].starts_with(**op))?;
            i += op.len();
            out.push(Tok::Op(op));
        }
    }
    Some(out)
}

/// The index of the bracket closing the one at `open`.
fn closing(toks: &[Tok], open: usize) -> Option<usize> {
    let (o, c) = match toks.get(open)? {
        Tok::Op("(") => ("(", ")"),
        Tok::Op("[") => ("[", "]"),
        _ => return None,
    };
    let mut depth = 0;
    for (k, t) in toks.iter().enumerate().skip(open) {
        if *t == Tok::Op(o) {
            depth += 1;
        } else if *t == Tok::Op(c) {
            depth -= 1;
            if depth == 0 {
                return Some(k);
            }
        }
    }
    None
}

fn rhai_expr(toks: &[Tok]) -> Option<String> {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        // `[a, b].contains(x)` is x ∈ {a, b}; `!` before it makes it ∉.
        let negated = toks[i] == Tok::Op("!") && toks.get(i + 1) == Some(&Tok::Op("["));
        let at = if negated { i + 1 } else { i };
        if toks[at] == Tok::Op("[") {
            let close = closing(toks, at)?;
            if toks.get(close + 1) == Some(&Tok::Op("."))
                && toks.get(close + 2) == Some(&Tok::Ident("contains".into()))
                && toks.get(close + 3) == Some(&Tok::Op("("))
            {
                let end = closing(toks, close + 3)?;
                let list = rhai_expr(&toks[at + 1..close])?;
                let x = rhai_expr(&toks[close + 4..end])?;
                let rel = if negated { "\\notin" } else { "\\in" };
                out.push(format!("{x} {rel} \\{{{list}\\}}"));
                i = end + 1;
                continue;
            }
            return None;
        }
        let piece = match &toks[i] {
            Tok::Ident(s) if s.chars().count() == 1 => s.clone(),
            Tok::Ident(s) if OPERATORS.contains(&s.as_str()) => format!("\\mathrm{{{s}}}"),
            Tok::Ident(s) => format!("\\mathit{{{}}}", s.replace('_', "\\_")),
            Tok::Num(n) => n.clone(),
            Tok::Op(op) => match *op {
                "==" => "=".into(),
                "!=" => "\\ne".into(),
                "<=" => "\\le".into(),
                ">=" => "\\ge".into(),
                "&&" => "\\land".into(),
                "||" => "\\lor".into(),
                "!" => "\\lnot".into(),
                "%" => "\\bmod".into(),
                "*" => "\\cdot".into(),
                "." => return None,
                other => other.to_string(),
            },
        };
        out.push(piece);
        i += 1;
    }
    // Function application and brackets hug their neighbours; everything else is spaced.
    let mut s = String::new();
    for (k, p) in out.iter().enumerate() {
        let prev = if k > 0 { out[k - 1].as_str() } else { "(" };
        if !(p == "("
            && k > 0
            && (prev.ends_with('}') || prev.chars().all(|c| c.is_alphanumeric()))
            && !prev.chars().all(|c| c.is_ascii_digit()))
            && !matches!(p.as_str(), ")" | "," | "]")
            && !matches!(prev, "(" | "[")
            && k > 0
        {
            s.push(' ');
        }
        s.push_str(p);
    }
    Some(s)
}

/// TeX of a figure or table caption file (`\caption{…}` with `$…$` math): the caption's text
/// and math as segments; None when the file has no caption.
pub fn caption_tex(tex: &str) -> Option<Vec<Seg>> {
    let start = tex.find("\\caption{")? + "\\caption{".len();
    let mut depth = 1;
    let mut end = None;
    let mut prev = ' ';
    for (k, c) in tex[start..].char_indices() {
        match c {
            '{' if prev != '\\' => depth += 1,
            '}' if prev != '\\' => {
                depth -= 1;
                if depth == 0 {
                    end = Some(start + k);
                    break;
                }
            }
            _ => {}
        }
        prev = c;
    }
    let body = &tex[start..end?];
    let mut out = Vec::new();
    for (k, part) in body.split('$').enumerate() {
        if k % 2 == 1 {
            push(&mut out, Seg::math(part.trim()));
        } else {
            let t = part
                .replace("~", "\u{a0}")
                .replace("---", "—")
                .replace("--", "–")
                .replace("\\%", "%")
                .replace("\\&", "&")
                .replace("\\_", "_");
            push(&mut out, Seg::plain(&t));
        }
    }
    Some(out)
}

/// The ASCII operators a rendered text must not show (`>=`, `<=`, `..=`, `..<`), in order of
/// appearance; used by the tests on every segment a page prints as text.
pub fn raw_operators(text: &str) -> Vec<&'static str> {
    let mut found = Vec::new();
    for op in [">=", "<=", "..=", "..<"] {
        if text.contains(op) {
            found.push(op);
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tex(s: &[Seg]) -> Vec<(bool, &str)> {
        s.iter().map(|s| (s.math, s.text.as_str())).collect()
    }

    /// Issue 46 item 10: notation right after an opening parenthesis is typeset (the index
    /// printed `(Q_1 = K_2 has 1)` with Q_1 as text).
    #[test]
    fn notation_after_a_parenthesis_is_math() {
        let s = segments("(Q_1 = K_2 has 1).");
        assert_eq!(
            tex(&s),
            [(false, "("), (true, "Q_{1} = K_{2}"), (false, " has 1).")]
        );
        assert!(segments("(prop_2_4_n).").iter().all(|s| !s.math));
    }

    /// Issue 46 item 10: a vertex name in notation is subscripted (`DNT_{v1}` printed an
    /// italic v1 on Fig 5.2's page), and the product of groups is × (was an italic x).
    #[test]
    fn vertex_names_are_subscripted_and_products_are_times() {
        assert_eq!(
            tex_of("DNT_{v1}(W_7)"),
            "\\mathrm{DNT}_{\\{v_{1}\\}}(W_{7})"
        );
        assert_eq!(
            tex_of("GEN(Cyc(m) x Dih(n))"),
            "\\mathrm{GEN}(\\mathrm{Cyc}(m) \\times \\mathrm{Dih}(n))"
        );
        // Ids and words are left alone: x as a variable, a number with a point.
        assert_eq!(tex_of("x + y"), "x + y");
        assert_eq!(tex_of("Z_12 x Z_4"), "Z_{12} \\times Z_{4}");
        assert_eq!(tex_of("f(x) x"), "f(x) x");
    }

    #[test]
    fn notation_becomes_math_and_ids_stay_text() {
        let s = segments("For cycle graphs with odd n, nim(TER(C_n)) = 0.");
        assert_eq!(
            tex(&s),
            [
                (false, "For cycle graphs with odd n, "),
                (true, "\\mathrm{nim}(\\mathrm{TER}(C_n)) = 0"),
                (false, ".")
            ]
        );
        for word in [
            "prop_5_23_least_corrected",
            "g0_heap",
            "src/solve/cycle.rs",
            "(prop_2_4_n).",
            "Guy-Smith",
            "P-position",
            "§5.5",
        ] {
            assert!(segments(word).iter().all(|s| !s.math), "{word}");
        }
        assert!(segments("TER(W_{m,n})")[0].math);
        assert_eq!(tex_of("λ^{c+2}_0"), "\\lambda^{c+2}_{0}");
        assert_eq!(tex_of("λx"), "\\lambda x");
        assert_eq!(tex_of("50%_x"), "50\\%_x");
        assert_eq!(tex_of("{v_{i}}"), "\\{v_{i}\\}");
        assert_eq!(tex_of("K_m+~K_n"), "K_m+\\overline{K_n}");
        assert_eq!(tex_of("𝒩*"), "\\mathcal{N}^{*}");
        // Remark 2.5: the diagram of maps, and a formula inside a parenthesis of prose.
        let s = segments("𝒩* ←∁→ 𝒢 ←Tr→ 𝒢* ←∁→ 𝒩: each arrow (and 𝒢 = ∁(𝒩*)).");
        assert_eq!(
            tex(&s),
            [
                (
                    true,
                    "\\mathcal{N}^{*} \\overset{\\complement}{\\longleftrightarrow} \\mathcal{G} \\overset{\\mathrm{Tr}}{\\longleftrightarrow} \\mathcal{G}^{*} \\overset{\\complement}{\\longleftrightarrow} \\mathcal{N}"
                ),
                (false, ": each arrow (and "),
                (true, "\\mathcal{G} = \\complement (\\mathcal{N}^{*})"),
                (false, ").")
            ]
        );
        // Prop 2.4: the complement of a family is notation, not a stray symbol in prose.
        let s = segments("For all graphs, 𝒩 = ∁(𝒢*).");
        assert_eq!(
            tex(&s),
            [
                (false, "For all graphs, "),
                (true, "\\mathcal{N} = \\complement (\\mathcal{G}^{*})"),
                (false, ".")
            ]
        );
        assert_eq!(tex_of("*1"), "*1");
        let s = segments("arrow S -> N1 (single, dehub)");
        assert_eq!(s[1].text, "S \\to N1");
        assert!(segments("v_{(k+t)").iter().all(|s| !s.math));
    }

    #[test]
    fn ascii_operators_and_ranges_become_math() {
        let s = segments("nim(DNG(S_n)) is 1 for n = 2, 3 for n = 3 and 0 for n >= 4.");
        assert_eq!(
            tex(&s),
            [
                (true, "\\mathrm{nim}(\\mathrm{DNG}(S_n))"),
                (false, " is 1 for "),
                (true, "n = 2"),
                (false, ", 3 for "),
                (true, "n = 3"),
                (false, " and 0 for "),
                (true, "n \\ge 4"),
                (false, ".")
            ]
        );
        let s = segments("3 if n = 2 (mod 4) and n >= 6.");
        assert_eq!(s[1].text, "n = 2 \\pmod{4}");
        let s = segments("2 if p = 1 and d in {1,2}; 0 if p = 1 and 3 <= d.");
        assert!(
            s.iter().any(|s| s.math && s.text == "d \\in \\{1,2\\}"),
            "{s:?}"
        );
        assert!(s.iter().any(|s| s.math && s.text == "3 \\le d"), "{s:?}");
        let s = segments("nim(DNT(W_n)) = 0 if n in {18, 38} or n mod 34 in {8, 12}, and 1");
        assert!(
            s.iter().any(|s| s.math && s.text == "n \\in \\{18, 38\\}"),
            "{s:?}"
        );
        assert!(
            s.iter()
                .any(|s| s.math && s.text == "n \\bmod 34 \\in \\{8, 12\\}"),
            "{s:?}"
        );
        let s = segments("If G = K_m + ~K_n and n >= 2, then");
        assert_eq!(s[1].text, "G = K_m + \\overline{K_n}");
        let s = segments("for every 5 <= n <= 200 through");
        assert_eq!(s[1].text, "5 \\le n \\le 200");
        let s = segments("for all 1 <= k <= n-1.");
        assert_eq!(s[1].text, "1 \\le k \\le n-1");
        let s = segments("where d := n - m");
        assert_eq!(s[1].text, "d \\coloneqq n - m");
        let s = segments("pin p_i is down iff |i - j| <= 1, with");
        assert!(
            s.iter().any(|s| s.math && s.text == "|i - j| \\le 1"),
            "{s:?}"
        );
        // A set builder around prose words.
        let s = segments(
            "𝒩* = {{c_i, c_j}^c | i != j} ∪ {{v_k, v_l}^c | k != l and v_k, v_l nonadjacent}.",
        );
        assert!(
            s.iter().any(|s| s.math && s.text.contains("\\text{ and }")),
            "{s:?}"
        );
        assert!(
            s.iter()
                .any(|s| s.math && s.text.contains("\\text{ nonadjacent }\\}")),
            "{s:?}"
        );
        assert!(
            s.iter().any(|s| s.math && s.text.contains("\\mid")),
            "{s:?}"
        );
        assert_eq!(range_tex("2..=12").as_deref(), Some("\\{2,\\dots,12\\}"));
        assert_eq!(range_tex("2..<12").as_deref(), Some("\\{2,\\dots,11\\}"));
        assert_eq!(range_tex("a..<b").as_deref(), Some("\\{a,\\dots,b-1\\}"));
        assert_eq!(range_tex("38..=38").as_deref(), Some("\\{38\\}"));
        assert_eq!(range_tex("3,5,7").as_deref(), Some("\\{3, 5, 7\\}"));
    }

    #[test]
    fn ranges_coverage_and_rhai_are_typeset() {
        let r = range("m in 2..=8, n in 4..=10");
        assert_eq!(
            tex(&r),
            [
                (true, "m \\in \\{2,\\dots,8\\}"),
                (false, ", "),
                (true, "n \\in \\{4,\\dots,10\\}")
            ]
        );
        // A parameter's list of values is the set of them; its commas do not split bindings.
        let r = range("a in [1, 2, 7, 40, 41], b in [2, 5, 31, 40], c in [70, 101, 150]");
        assert_eq!(
            tex(&r),
            [
                (true, "a \\in \\{1, 2, 7, 40, 41\\}"),
                (false, ", "),
                (true, "b \\in \\{2, 5, 31, 40\\}"),
                (false, ", "),
                (true, "c \\in \\{70, 101, 150\\}")
            ]
        );
        let s = segments("for a in [1,2,7] and λ = [1,1]");
        assert!(
            s.iter().any(|s| s.math && s.text == "a \\in \\{1, 2, 7\\}"),
            "{s:?}"
        );
        // Outside `in`, a bracketed list is a partition and stays one.
        assert!(s.iter().all(|s| !s.text.contains("\\{1, 1\\}")), "{s:?}");
        let r =
            range("SPL(h,[lam]) for h in 1..=20, lam in multisets with sum <= 20 where size == h");
        assert!(
            r.iter().any(|s| s.math && s.text == "\\mathit{size} = h"),
            "{r:?}"
        );
        assert!(r.iter().any(|s| s.math && s.text == "\\le 20"), "{r:?}");
        assert_eq!(r[0].text, "\\mathrm{SPL}(h,[\\lambda ])");
        assert!(r.iter().any(|s| s.math && s.text == "\\lambda "), "{r:?}");
        assert_eq!(
            rhai_tex("n % 4 == 2 && n >= 6").as_deref(),
            Some("n \\bmod 4 = 2 \\land n \\ge 6")
        );
        assert_eq!(
            rhai_tex("![5, 6, 10].contains(n % 34)").as_deref(),
            Some("n \\bmod 34 \\notin \\{5, 6, 10\\}")
        );
        assert_eq!(
            rhai_tex("pty(h - size) == 1").as_deref(),
            Some("\\mathrm{pty}(h - \\mathit{size}) = 1")
        );
        assert_eq!(rhai_tex("grundy solve 'DNG(Alt(7))'"), None);
        assert_eq!(rhai_tex("free_antipodal_pairs"), None);
        let p = part("case 3 `n % 4 == 2 && n >= 6`");
        assert_eq!(
            tex(&p),
            [(false, "case 3 "), (true, "n \\bmod 4 = 2 \\land n \\ge 6")]
        );
        let p = part("start generator 1 (SPL(h,[lam]) where size == h)");
        assert!(p.iter().all(|s| !s.text.contains("==")), "{p:?}");
        let p = part("row 1 (p = 0, d \\leq -1)");
        assert!(
            p.iter().any(|s| s.math && s.text.contains("\\leq")),
            "{p:?}"
        );
        let c = caption_tex(
            "% x\n\\caption{Values of $\\mathrm{SP}(M,n)$ for $n \\le 3$.}\\label{a}%\n",
        )
        .unwrap();
        assert_eq!(c.len(), 5);
        assert!(c[1].math && c[3].math);
    }

    /// Every text segment of every statement shape the specs use is free of ASCII operators,
    /// and the check itself catches one that is not.
    #[test]
    fn no_ascii_operator_is_left_in_text() {
        for s in [
            "For n >= 2, nim(DNG(Z_n)) is 1 if n is odd or n = 2, 0 if n is divisible by 4",
            "For a generalized windmill Wd(n_1,...,n_l) with l >= 2 and every n_i >= 2, nim(DNT(G)) = 1 - pty(V).",
            "For cycle graphs with odd n, 𝒢 = {{v_i, v_j, v_k} | i < j < k and j - i, k - j, i + n - k <= (n - 1)/2}.",
            "nim(TER(K_{m_1,...,m_k})) = 0 if |V| even and d <= 1, where d := m_k - sum_{i<k} (m_i - 1).",
            "G in connected graphs with 1..=7 vertices",
            "a = nim(DC(n-4) + *1) + 1 (Props 5.19, 5.26, 5.27) and",
            "t = 0..n-2 and G(51) = 2 ≠ G(85) = 9 and G(n + 34) = G(n) for every n >= 52",
        ] {
            for seg in segments(s).iter().chain(range(s).iter()) {
                if !seg.math && !seg.code {
                    assert!(raw_operators(&seg.text).is_empty(), "{s}: {seg:?}");
                }
            }
        }
        assert_eq!(raw_operators("for n >= 4"), [">="]);
        assert_eq!(raw_operators("n in 2..=12"), ["..="]);
    }
}
