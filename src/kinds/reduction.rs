//! The `reduction` spec kind. Option-preserving maps between games (paper §2.4, docs/design.md §4).

use super::KindEntry;
use crate::check::kind::{Checked, Context, SpecKind};
use crate::check::reduction::Reduction;
use crate::check::CheckError;
use std::any::Any;

pub const ENTRY: KindEntry = KindEntry {
    name: "reduction",
    parse: |src, id| crate::spec::parse_with(src, id, crate::spec::reduction::validate_reduction),
};

impl SpecKind for Reduction {
    fn kind(&self) -> &'static str {
        "reduction"
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
    fn check(&self, _ctx: &Context) -> Result<Checked, CheckError> {
        Ok(Checked::new(self.check()?))
    }
    fn certify(&self, _ctx: &Context) -> Result<crate::certify::Body, String> {
        crate::certify::maps::certify(self)
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}
