//! Everything grundy prints passes through here (issue 44 item 7, issue 49 R18): text read
//! from a spec, a file name or a game can carry an escape sequence (set the terminal's title,
//! move the cursor, hide a line) or a line of 480 KB; printed raw, it reaches the terminal as
//! it is. [`clean`] escapes control characters (and the bidirectional overrides that reorder
//! what a reader sees) as `\u001b`, the escape JSON uses, so `--json` output stays valid JSON
//! with the same value; [`message`] also bounds a message for stderr: each line at
//! [`MAX_LINE_CHARS`] characters, the whole at [`MAX_MESSAGE_BYTES`]. [`excerpt`] is the bound
//! for one quoted piece of input inside a message.
//!
//! The macros [`outln!`], [`out!`] and [`errln!`] replace `println!`, `print!` and `eprintln!`
//! everywhere in the binary: printing is done once, here. Diagnostics are rendered without
//! colour or hyperlinks ([`init`]), so every escape byte that reaches the terminal would have
//! come from the input, and none does.

use std::borrow::Cow;

/// Longest line of a message on stderr, in characters (a quoted input longer than that is cut).
pub const MAX_LINE_CHARS: usize = 1000;
/// Largest message on stderr, in bytes.
pub const MAX_MESSAGE_BYTES: usize = 8 << 10;
/// Longest excerpt of an input that a message quotes, in characters.
pub const MAX_EXCERPT_CHARS: usize = 200;

/// Whether `c` is escaped on output: C0 and C1 control characters but newline and tab, and the
/// bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069).
fn escaped(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || ('\u{202a}'..='\u{202e}').contains(&c)
        || ('\u{2066}'..='\u{2069}').contains(&c)
}

/// `text` with every escaped character written `\u` and four hex digits (`\u001b`).
pub fn clean(text: &str) -> Cow<'_, str> {
    if !text.chars().any(escaped) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if escaped(c) {
            out.push_str(&format!("\\u{:04x}", c as u32));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// At most `max` characters of `text`, cut with `… (N more characters)`.
fn cut(text: &str, max: usize) -> Cow<'_, str> {
    match text.char_indices().nth(max) {
        None => Cow::Borrowed(text),
        Some((i, _)) => {
            let rest = text[i..].chars().count();
            Cow::Owned(format!("{}… ({rest} more characters)", &text[..i]))
        }
    }
}

/// A piece of input quoted in a message: at most [`MAX_EXCERPT_CHARS`] characters.
pub fn excerpt(text: &str) -> Cow<'_, str> {
    cut(text, MAX_EXCERPT_CHARS)
}

/// A message for stderr: [`clean`], each line at most [`MAX_LINE_CHARS`] characters, the whole
/// at most [`MAX_MESSAGE_BYTES`] bytes.
pub fn message(text: &str) -> String {
    let mut out = String::new();
    let mut lines = text.split('\n').peekable();
    while let Some(line) = lines.next() {
        let line = clean(line);
        let line = cut(&line, MAX_LINE_CHARS);
        if out.len() + line.len() > MAX_MESSAGE_BYTES {
            let left: usize = line.len() + lines.map(|l| l.len() + 1).sum::<usize>();
            out.push_str(&format!("… (the message goes on for {left} more bytes)"));
            break;
        }
        out.push_str(&line);
        if lines.peek().is_some() {
            out.push('\n');
        }
    }
    out
}

/// Renders diagnostics without colour or terminal hyperlinks (their escapes would be
/// indistinguishable from the input's, which [`message`] escapes). Called once at start.
pub fn init() {
    let _ = miette::set_hook(Box::new(|_| {
        Box::new(
            miette::MietteHandlerOpts::new()
                .color(false)
                .terminal_links(false)
                .build(),
        )
    }));
}

/// `println!` through [`clean`].
macro_rules! outln {
    () => {
        println!()
    };
    ($($arg:tt)*) => {
        println!("{}", $crate::term::clean(&format!($($arg)*)))
    };
}

/// `print!` through [`clean`].
macro_rules! out {
    ($($arg:tt)*) => {
        print!("{}", $crate::term::clean(&format!($($arg)*)))
    };
}

/// `eprintln!` through [`message`].
macro_rules! errln {
    ($($arg:tt)*) => {
        eprintln!("{}", $crate::term::message(&format!($($arg)*)))
    };
}

pub(crate) use {errln, out, outln};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_are_shown_not_sent() {
        assert_eq!(clean("a\u{1b}]0;x\u{7}b"), "a\\u001b]0;x\\u0007b");
        assert_eq!(clean("csi \u{9b}31m"), "csi \\u009b31m");
        assert_eq!(clean("\u{202e}abc"), "\\u202eabc");
        assert_eq!(clean("a\r\nb"), "a\\u000d\nb");
        // Newline and tab stay; plain text is not copied.
        assert!(matches!(clean("a\tb\nc ×"), Cow::Borrowed(_)));
        // A JSON string with a C1 character stays JSON, with the same value.
        let j = serde_json::to_string(&"x\u{85}y").unwrap();
        let back: String = serde_json::from_str(&clean(&j)).unwrap();
        assert_eq!(back, "x\u{85}y");
    }

    #[test]
    fn messages_are_bounded() {
        let long = "x".repeat(500_000);
        let m = message(&format!("error: {long}\nnext"));
        assert!(m.len() < MAX_LINE_CHARS + 100, "{}", m.len());
        assert!(m.contains("more characters)\nnext"));
        let many = "y\n".repeat(100_000);
        let m = message(&many);
        assert!(m.len() <= MAX_MESSAGE_BYTES + 100);
        assert!(m.ends_with("more bytes)"));
        assert_eq!(message("short\nlines"), "short\nlines");
        let text = "é".repeat(300);
        let e = excerpt(&text);
        assert!(e.starts_with(&"é".repeat(200)) && e.ends_with("é… (100 more characters)"));
        assert_eq!(excerpt("ok"), "ok");
    }
}
