//! The verifier's own input and output (it shares no code with grundy, so it has its own):
//! every file it reads goes through [`read_regular`], and everything it prints through
//! [`shown`] (the macros [`outln!`] and [`errln!`]).
//!
//! - [`read_regular`]: a FIFO, a device (`/dev/zero`), standard input (`/dev/stdin`), a socket
//!   or a directory is refused before a byte is read: the file is opened without blocking
//!   (`O_NONBLOCK`, so a FIFO without a writer does not hang) and `fstat` on the open
//!   descriptor says what it is; at most `max` bytes are read, so an oversize file is refused
//!   without filling memory.
//! - [`shown`]: text from a certificate or a spec (an id, a reason) can carry an escape sequence
//!   that would reach the terminal raw; control characters (and the bidirectional overrides)
//!   are written `\u001b`, each line is cut at [`MAX_LINE_CHARS`] characters.

use std::io::Read;
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::Path;

/// The bytes of the regular file `path` (links followed), of at most `max` bytes; anything else
/// is refused with what it is.
pub fn read_regular(path: &Path, max: u64) -> Result<Vec<u8>, String> {
    let err = |why: String| format!("cannot read {}: {why}", path.display());
    let f = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
        .map_err(|e| err(e.to_string()))?;
    let t = f.metadata().map_err(|e| err(e.to_string()))?.file_type();
    if !t.is_file() {
        let what = if t.is_dir() {
            "a directory"
        } else if t.is_fifo() {
            "a FIFO"
        } else if t.is_char_device() || t.is_block_device() {
            "a device"
        } else if t.is_socket() {
            "a socket"
        } else {
            "a special file"
        };
        return Err(err(format!("{what}, not a regular file")));
    }
    let mut bytes = Vec::new();
    f.take(max + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| err(e.to_string()))?;
    if bytes.len() as u64 > max {
        return Err(err(format!("larger than {max} bytes")));
    }
    Ok(bytes)
}

/// [`read_regular`] as UTF-8 text.
pub fn read_regular_text(path: &Path, max: u64) -> Result<String, String> {
    String::from_utf8(read_regular(path, max)?)
        .map_err(|_| format!("cannot read {}: not UTF-8 text", path.display()))
}

/// Longest line printed, in characters.
pub const MAX_LINE_CHARS: usize = 1000;

/// `text` as printed: control characters but newline and tab, and the bidirectional
/// embeddings, overrides and isolates, written `\uXXXX`; each line cut at [`MAX_LINE_CHARS`].
pub fn shown(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        for (k, c) in line.chars().enumerate() {
            if k == MAX_LINE_CHARS {
                let rest = line.chars().count() - k;
                out.push_str(&format!("… ({rest} more characters)"));
                break;
            }
            let bidi =
                ('\u{202a}'..='\u{202e}').contains(&c) || ('\u{2066}'..='\u{2069}').contains(&c);
            if (c.is_control() && c != '\t') || bidi {
                out.push_str(&format!("\\u{:04x}", c as u32));
            } else {
                out.push(c);
            }
        }
    }
    out
}

/// `println!` through [`shown`].
macro_rules! outln {
    ($($arg:tt)*) => {
        println!("{}", $crate::io::shown(&format!($($arg)*)))
    };
}

/// `eprintln!` through [`shown`].
macro_rules! errln {
    ($($arg:tt)*) => {
        eprintln!("{}", $crate::io::shown(&format!($($arg)*)))
    };
}

pub(crate) use {errln, outln};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn special_files_are_refused_without_blocking() {
        for p in ["/dev/zero", "/dev/null", "/"] {
            let e = read_regular(Path::new(p), 1 << 20).unwrap_err();
            assert!(e.contains("not a regular file"), "{p}: {e}");
        }
        let dir = std::env::temp_dir().join(format!("grundy-verify-io-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let big = dir.join("big.json");
        std::fs::write(&big, vec![b' '; 2000]).unwrap();
        assert!(read_regular(&big, 1000)
            .unwrap_err()
            .contains("larger than 1000 bytes"));
        assert_eq!(read_regular(&big, 2000).unwrap().len(), 2000);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn escapes_are_shown_not_sent() {
        assert_eq!(shown("a\u{1b}[31mb\u{9b}c"), "a\\u001b[31mb\\u009bc");
        assert_eq!(shown("x\r\ny\t\u{202e}"), "x\\u000d\ny\t\\u202e");
        let long = shown(&"z".repeat(5000));
        assert!(long.ends_with("… (4000 more characters)"), "{long}");
        assert_eq!(shown("plain text"), "plain text");
    }
}
