//! The spec kinds, one module each: the `kind:` name, how a document of that kind is read
//! (stage two of the spec reader), and its [`SpecKind`](crate::check::kind::SpecKind)
//! implementation. [`KINDS`] is the one list a new kind is added to.

// Spec errors carry their source text for snippets; they are rare, so their size is no cost.
#![allow(clippy::result_large_err)]

/// The accessors every kind's model type has in the same shape (`id`, `file`, `source`
/// fields): the YAML name, and the type as `Any` for code that handles one kind.
macro_rules! header_accessors {
    ($name:literal) => {
        fn kind(&self) -> &'static str {
            $name
        }
        fn id(&self) -> &str {
            &self.id
        }
        fn file(&self) -> &str {
            &self.file
        }
        fn source(&self) -> &str {
            &self.source
        }
        fn as_any(&self) -> &dyn std::any::Any {
            self
        }
    };
}

pub mod certificate;
pub mod claim;
pub mod diagram;
pub mod figure;
pub mod game;
pub mod reduction;
pub mod sequence;
pub mod sets;
pub mod table;

use crate::spec::{Source, Spec, SpecError};
use std::path::Path;

pub use crate::spec::KindEntry;

/// Every spec kind, in the order the schema, the guide and error messages list them: the one
/// list (nothing else names the kinds).
pub static KINDS: &[KindEntry] = &[
    claim::ENTRY,
    table::ENTRY,
    sets::ENTRY,
    diagram::ENTRY,
    sequence::ENTRY,
    reduction::ENTRY,
    figure::ENTRY,
    certificate::ENTRY,
    game::ENTRY,
];

/// Kinds registered at run time, from outside the crate ([`register`]).
static EXTRA: std::sync::RwLock<Vec<KindEntry>> = std::sync::RwLock::new(Vec::new());

/// Every spec kind: the built-ins ([`KINDS`]), then those registered at run time.
pub fn all() -> Vec<KindEntry> {
    let extra = EXTRA.read().unwrap_or_else(|e| e.into_inner());
    KINDS.iter().chain(extra.iter()).copied().collect()
}

/// Registers a spec kind defined outside the crate; refused when its name is taken or not a
/// word (registering the same name again with the same reader is a no-op).
pub fn register(k: KindEntry) -> Result<(), String> {
    let mut extra = EXTRA.write().unwrap_or_else(|e| e.into_inner());
    if extra
        .iter()
        .any(|e| e.name == k.name && std::ptr::fn_addr_eq(e.parse, k.parse))
    {
        return Ok(());
    }
    let word = k.name.starts_with(|c: char| c.is_ascii_lowercase())
        && k.name.chars().all(|c| c.is_ascii_lowercase() || c == '_');
    if !word || KINDS.iter().chain(extra.iter()).any(|e| e.name == k.name) {
        return Err(format!("the spec kind `{}` is taken or not a word", k.name));
    }
    extra.push(k);
    Ok(())
}

/// Reads one spec file, of any registered kind.
pub fn load_file(path: &Path) -> Result<Spec, SpecError> {
    crate::spec::load_file(path, &all())
}

/// Reads one spec from its text, of any registered kind.
pub fn parse_spec(src: &Source, id: &str) -> Result<Spec, SpecError> {
    crate::spec::parse_spec(src, id, &all())
}

/// JSON Schema of the spec format: one of the registered kinds.
pub fn schema() -> serde_json::Value {
    crate::spec::schema(&all())
}
