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
pub mod reduction;
pub mod sequence;
pub mod sets;
pub mod table;

use crate::spec::{Source, Spec, SpecError};

/// A registered spec kind: its YAML name and its reader.
pub struct KindEntry {
    pub name: &'static str,
    pub parse: fn(&Source, &str) -> Result<Spec, SpecError>,
}

/// Every spec kind, in the order the schema and error messages list them.
pub static KINDS: &[KindEntry] = &[
    claim::ENTRY,
    table::ENTRY,
    sets::ENTRY,
    sequence::ENTRY,
    diagram::ENTRY,
    reduction::ENTRY,
    figure::ENTRY,
    certificate::ENTRY,
];
