//! The `reduction` spec kind. Option-preserving maps between games (paper §2.4, docs/design.md §4).

use super::KindEntry;
use crate::check::kind::{Checked, Context, SpecKind};
use crate::check::reduction::Reduction;
use crate::check::CheckError;

pub const ENTRY: KindEntry = KindEntry {
    name: "reduction",
    parse: |src, id| crate::spec::parse_with(src, id, crate::spec::reduction::validate_reduction),
};

impl SpecKind for Reduction {
    header_accessors!("reduction");
    fn check(&self, _ctx: &Context) -> Result<Checked, CheckError> {
        Ok(Checked::new(self.check()?))
    }
    fn certify(&self, _ctx: &Context) -> Result<crate::certify::Body, String> {
        crate::certify::maps::certify(self)
    }
}
