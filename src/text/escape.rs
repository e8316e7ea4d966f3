//! One escaping function per target language, and the tera filters that apply them.
//!
//! Every string that comes from a spec or a graph file and reaches an artifact passes through
//! exactly one of these, chosen by where it lands (issue 28: a label, an id, a vertex name or an
//! output path must never change the structure of the file it is written into):
//!
//! | filter        | target                                     | what it does |
//! |---------------|--------------------------------------------|--------------|
//! | `dot_string`  | inside a DOT `"…"` string (label, tooltip, attributes) | `\` and `"` escaped, newline → `\n`, other controls → space |
//! | `dot_id`      | a whole DOT ID, quotes included            | `"…"` around `dot_string` |
//! | `dot_html`/`html` | a Graphviz HTML-like label; HTML/SVG text or attribute | `& < > " '` as entities, controls → space |
//! | `paper_html`  | a Graphviz HTML-like label in the paper's notation | `^x`, `_{..}` → `<SUP>`/`<SUB>` (nesting capped at [`MAX_LABEL_NESTING`]), the rest as `dot_html` |
//! | `latex`/`tex` | TeX text (not math)                        | `\ & % $ # _ { } ~ ^` escaped, line breaks → space |
//! | `tex_math`    | TeX math mode                              | the same characters as math-safe commands (`\{`, `\backslash{}`, …) |
//! | `tex_path`    | a file name in `\input{…}`                | only the output-path characters `A-Z a-z 0-9 _ . / -`; anything else → `?` (no such file) |
//! | `md`          | Markdown text and table cells              | Markdown punctuation backslash-escaped, `& < >` as entities, line breaks → space |
//! | `md_code`     | inside a Markdown code span `` `…` ``       | backticks → `'`, line breaks → space |
//! | `md_cell_code` | a code span in a Markdown table cell      | as `md_code`, and each pipe backslash-escaped |
//! | `url`         | a relative link target (Markdown, HTML)    | percent-encoded outside `A-Z a-z 0-9 - . _ ~ /`, so no scheme (`javascript:`) and no HTML |
//! | `tex_comment`/`dot_comment` | the rest of a `%` / `//` comment line | line breaks and control characters → space |
//! | `html_comment`/`md_comment` | inside `<!-- … -->`           | `--` broken up (so `-->` cannot occur), controls → space |
//!
//! Output paths are also restricted to [`is_path_char`] at spec validation, so `tex_path` and
//! `url` leave every real path unchanged: escaping is the second line of defence, not a rewrite.
//! `tests/adversarial.rs` (`escaping_*`) checks with random strings that each lands harmlessly:
//! the DOT parses to the same label, TeX keeps balanced braces and no active character,
//! HTML and Markdown have no tag and no link.

/// Escapes text for LaTeX (used by templates as the `latex` filter).
pub fn latex_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\textbackslash{}"),
            '&' | '%' | '$' | '#' | '_' | '{' | '}' => {
                out.push('\\');
                out.push(c);
            }
            '~' => out.push_str("\\textasciitilde{}"),
            '^' => out.push_str("\\textasciicircum{}"),
            // A thin space (digit groups: 1 006 700 565), which inputenc does not map.
            '\u{2009}' | '\u{202f}' => out.push_str("\\,"),
            c if breaks_line(c) => out.push(' '),
            _ => out.push(c),
        }
    }
    out
}

/// Control characters and the Unicode line/paragraph separators: whatever could end a
/// comment line or a one-line context.
pub fn breaks_line(c: char) -> bool {
    c.is_control() || matches!(c, '\u{2028}' | '\u{2029}' | '\u{85}')
}

/// Text for the rest of a comment line (`% …` in TeX, `// …` in DOT): one line, whatever
/// the input (the `tex_comment` and `dot_comment` filters).
pub fn comment_escape(s: &str) -> String {
    s.chars()
        .map(|c| if breaks_line(c) { ' ' } else { c })
        .collect()
}

/// The inside of a DOT double-quoted string (the `dot_string` filter): backslashes and quotes
/// escaped, so the text is shown literally; a newline becomes Graphviz's `\n` line break.
pub fn dot_string_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            c if breaks_line(c) => out.push(' '),
            _ => out.push(c),
        }
    }
    out
}

/// The inverse of [`dot_string_escape`] for text read back from Graphviz's layout (the
/// `grundy*` attributes, which Graphviz passes on without interpreting escapes).
pub fn dot_string_unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut it = s.chars();
    while let Some(c) = it.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match it.next() {
            Some('n') => out.push('\n'),
            Some(d) => out.push(d),
            None => out.push('\\'),
        }
    }
    out
}

/// HTML/SVG text or attribute value, and Graphviz HTML-like labels (the `html` filter).
pub fn html_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if breaks_line(c) => out.push(' '),
            _ => out.push(c),
        }
    }
    out
}

/// The inside of an HTML/Markdown comment `<!-- … -->` (the `html_comment`/`md_comment`
/// filters): it can neither close the comment nor span lines; `<` and `>` stay readable.
pub fn html_comment_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            // `--` can never appear, so neither can `-->` nor `--!>` (which end a comment).
            '-' if out.ends_with('-') => out.push_str(" -"),
            c if breaks_line(c) => out.push(' '),
            _ => out.push(c),
        }
    }
    out
}

/// Markdown text and table cells (the `md` filter): the characters with an inline Markdown
/// meaning (emphasis, code, links, table cells, strikethrough) are backslash-escaped, `&`, `<`
/// and `>` become entities (no raw HTML), and the text stays on one line (a table row). The
/// characters that only matter at the start of a line (`#`, `-`, `+`) are left alone: the
/// templates never start a line with a value.
pub fn md_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\\' | '`' | '*' | '_' | '[' | ']' | '|' | '~' => {
                out.push('\\');
                out.push(c);
            }
            c if breaks_line(c) => out.push(' '),
            _ => out.push(c),
        }
    }
    out
}

/// The inverse of [`md_escape`], for text read back from a rendered Markdown artifact (the
/// site's tables): backslash escapes and the three entities undone.
pub fn md_unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut it = s.chars().peekable();
    while let Some(c) = it.next() {
        if c == '\\' {
            if let Some(&d) = it.peek() {
                if d.is_ascii_punctuation() {
                    out.push(d);
                    it.next();
                    continue;
                }
            }
        }
        out.push(c);
    }
    out.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

/// The inside of a one-backtick Markdown code span (the `md_code` filter).
pub fn md_code_escape(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            '`' => '\'',
            c if breaks_line(c) => ' ',
            c => c,
        })
        .collect()
}

/// The inside of a code span in a Markdown table cell (the `md_cell_code` filter): as
/// [`md_code_escape`], and `|` as `\|`, which GitHub-flavoured tables read as a pipe inside
/// the cell (a bare one would end it: `a || b` in a predicate).
pub fn md_cell_code_escape(s: &str) -> String {
    md_code_escape(s).replace('|', "\\|")
}

/// A title's LaTeX math (`$(o, \\lambda^t_1)$ for odd $o \\ge 3$`) as a preview prints it:
/// without the dollars, the few commands a title uses as their Unicode symbols (`λ`, `≥`).
fn tex_to_unicode(s: &str) -> String {
    const COMMANDS: [(&str, &str); 16] = [
        ("\\lambda", "λ"),
        ("\\Lambda", "Λ"),
        ("\\geq", "≥"),
        ("\\leq", "≤"),
        ("\\neq", "≠"),
        ("\\ge", "≥"),
        ("\\le", "≤"),
        ("\\ne", "≠"),
        ("\\infty", "∞"),
        ("\\times", "×"),
        ("\\cdot", "·"),
        ("\\to", "→"),
        ("\\{", "{"),
        ("\\}", "}"),
        ("\\,", " "),
        ("$", ""),
    ];
    let mut out = s.to_string();
    for (tex, u) in COMMANDS {
        out = out.replace(tex, u);
    }
    out
}

/// Deepest `^`/`_` nesting rendered as `<SUP>`/`<SUB>`; deeper marks stay literal text (a
/// label with 100,000 nested `^{` must neither overflow a stack here nor in Graphviz).
pub const MAX_LABEL_NESTING: usize = 8;

/// A label in the paper's notation (`λ^{c+2}_0`, `[1^c]`, `*k`) as the body of a Graphviz
/// HTML-like label: `^x`/`^{..}` become superscripts, `_x`/`_{..}` subscripts, and `&`, `<`,
/// `>`, `"` are escaped (used by `templates/diagram.dot` as the `paper_html` filter).
/// Iterative: open scripts live on an explicit stack of `(tag, end of its text, resume)`.
pub fn paper_html(s: &str) -> String {
    let unicode;
    let s = if s.contains(['$', '\\']) {
        unicode = tex_to_unicode(s);
        unicode.as_str()
    } else {
        s
    };
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::new();
    let mut stack: Vec<(&str, usize, usize)> = Vec::new();
    let mut i = 0;
    loop {
        let limit = stack.last().map_or(chars.len(), |&(_, end, _)| end);
        if i >= limit {
            match stack.pop() {
                Some((tag, _, next)) => {
                    out.push_str(&format!("</{tag}>"));
                    i = next;
                    continue;
                }
                None => break,
            }
        }
        let c = chars[i];
        if (c == '^' || c == '_') && i + 1 < limit && stack.len() < MAX_LABEL_NESTING {
            let (from, end, next) = if chars[i + 1] == '{' {
                let mut depth = 0usize;
                let mut j = i + 1;
                while j < limit {
                    match chars[j] {
                        '{' => depth += 1,
                        '}' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                    j += 1;
                }
                (i + 2, j.min(limit), j + 1)
            } else {
                // A number (`Z_12`), a name with its digits (`_v1`) or one symbol: as TeX.
                let end = super::script_end(&chars[..limit], i + 1);
                (i + 1, end, end)
            };
            let tag = if c == '^' { "SUP" } else { "SUB" };
            out.push_str(&format!("<{tag}>"));
            stack.push((tag, end, next));
            i = from;
            continue;
        }
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\n' => out.push_str("<BR/>"),
            c if breaks_line(c) => out.push(' '),
            _ => out.push(c),
        }
        i += 1;
    }
    out
}

/// TeX math mode (the `tex_math` filter): the characters with a meaning in math (`\ { } % #
/// & $ _ ^ ~`) become commands that print them, so the text neither ends the formula nor
/// opens a group, and line breaks become spaces.
pub fn tex_math_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\backslash{}"),
            '&' | '%' | '$' | '#' | '_' | '{' | '}' => {
                out.push('\\');
                out.push(c);
            }
            '~' => out.push_str("\\sim{}"),
            '^' => out.push_str("\\wedge{}"),
            c if breaks_line(c) => out.push(' '),
            _ => out.push(c),
        }
    }
    out
}

/// The characters an output path may contain (checked at spec validation): letters, digits,
/// `_ . / -`. None of them has a meaning in `\input{…}`, a URL path or a Markdown link.
pub fn is_path_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '/' | '-')
}

/// A file name inside `\input{…}` (the `tex_path` filter): an output path passes unchanged;
/// any other character becomes `?`, which names no file grundy writes, so pdflatex stops
/// with "file not found" instead of reading what the text asks for.
pub fn tex_path_escape(s: &str) -> String {
    s.chars()
        .map(|c| if is_path_char(c) { c } else { '?' })
        .collect()
}

/// A relative link target (the `url` filter): every byte outside the unreserved characters
/// and `/` is percent-encoded, so the result has no scheme (`javascript:` becomes
/// `javascript%3A`, a relative path), no quote and no markup; a leading `/` gets `./` so the
/// link cannot leave the folder as a network-path reference (`//host`).
pub fn url_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    if s.starts_with('/') {
        out.push_str("./");
    }
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'/') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// A Graphviz HTML-like label's text (the `dot_html` filter): the same as [`html_escape`],
/// named for its target so templates say where the text lands.
pub fn dot_html_escape(s: &str) -> String {
    html_escape(s)
}

/// Registers every filter of the module header on a tera instance.
pub fn register_filters(t: &mut tera::Tera) {
    type F = fn(&str) -> String;
    let filters: [(&str, F); 17] = [
        ("latex", latex_escape),
        ("tex", latex_escape),
        ("tex_math", tex_math_escape),
        ("tex_path", tex_path_escape),
        ("tex_comment", comment_escape),
        ("dot_comment", comment_escape),
        ("dot_string", dot_string_escape),
        ("dot_id", |s| format!("\"{}\"", dot_string_escape(s))),
        ("dot_html", dot_html_escape),
        ("html", html_escape),
        ("html_comment", html_comment_escape),
        ("md_comment", html_comment_escape),
        ("md", md_escape),
        ("md_code", md_code_escape),
        ("md_cell_code", md_cell_code_escape),
        ("url", url_escape),
        ("paper_html", paper_html),
    ];
    for (name, f) in filters {
        t.register_filter(name, move |s: &str, _: tera::Kwargs, _: &tera::State| f(s));
    }
}
