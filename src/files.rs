//! Opening files named by the user or found in `output/` without blocking, following planted
//! links or reading without bound (issue 28, items 3, 4 and 16).
//!
//! - [`read_regular`]: a FIFO, a device, a socket or a directory is refused before a byte is
//!   read (the open is non-blocking, so a FIFO without a writer does not hang, and `fstat` on
//!   the open descriptor says what it is), and at most `max` bytes are read.
//! - [`writable_target`]: a path a command replaces (`--latex PATH`, `--output FILE`) must be
//!   a regular file or not exist; renaming a temporary file over `/dev/full` or a FIFO would
//!   replace it.
//! - [`open_private`]: grundy's own files in a folder (locks, checkpoints' temporary files)
//!   are opened with `O_NOFOLLOW`, so a symbolic link planted under that name is refused
//!   instead of followed.

use std::io::{self, Read};
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::Path;

fn what(t: std::fs::FileType) -> &'static str {
    if t.is_dir() {
        "a directory"
    } else if t.is_fifo() {
        "a FIFO"
    } else if t.is_char_device() || t.is_block_device() {
        "a device"
    } else if t.is_socket() {
        "a socket"
    } else if t.is_symlink() {
        "a symbolic link"
    } else {
        "not a regular file"
    }
}

fn refuse(t: std::fs::FileType) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("{}, not a regular file", what(t)),
    )
}

/// Opens a regular file for reading (links followed), refusing anything else without
/// blocking.
pub fn open_regular(path: &Path) -> io::Result<std::fs::File> {
    let f = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)?;
    let t = f.metadata()?.file_type();
    if !t.is_file() {
        return Err(refuse(t));
    }
    Ok(f)
}

/// The bytes of a regular file of at most `max` bytes.
pub fn read_regular(path: &Path, max: u64) -> io::Result<Vec<u8>> {
    let f = open_regular(path)?;
    let mut bytes = Vec::new();
    f.take(max + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("larger than {}", size(max)),
        ));
    }
    Ok(bytes)
}

/// [`read_regular`] as UTF-8 text.
pub fn read_regular_text(path: &Path, max: u64) -> io::Result<String> {
    String::from_utf8(read_regular(path, max)?)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "not UTF-8 text"))
}

fn size(b: u64) -> String {
    if b >= 1 << 20 {
        format!("{} MiB", b >> 20)
    } else {
        format!("{b} bytes")
    }
}

/// A file a command is about to replace must be a regular file or a new path (links are
/// refused too: the rename would replace the link, not what it points to).
pub fn writable_target(path: &Path) -> io::Result<()> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_file() => Ok(()),
        Ok(m) => Err(refuse(m.file_type())),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e),
    }
}

/// Opens (creating it if asked) one of grundy's own files for writing without following a
/// link in its last component and without blocking on a FIFO; anything but a regular file
/// is refused. `new`: the file must not exist yet (`O_EXCL`).
pub fn open_private(path: &Path, new: bool) -> io::Result<std::fs::File> {
    let mut o = std::fs::OpenOptions::new();
    o.write(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    if new {
        o.create_new(true);
    } else {
        o.create(true);
    }
    let f = o.open(path).map_err(|e| {
        if e.raw_os_error() == Some(libc::ELOOP) {
            io::Error::new(
                io::ErrorKind::InvalidInput,
                "a symbolic link; grundy does not write through links",
            )
        } else {
            e
        }
    })?;
    let t = f.metadata()?.file_type();
    if !t.is_file() {
        return Err(refuse(t));
    }
    Ok(f)
}
