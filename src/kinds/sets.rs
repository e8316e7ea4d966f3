//! The `sets` spec kind. Set families 𝒢, 𝒩, 𝒢*, 𝒩* and transversals (paper §2.2, Prop 2.4).

use super::KindEntry;
use crate::check::kind::{Checked, Context, SpecKind};
use crate::check::sets::SetsClaim;
use crate::check::CheckError;

pub const ENTRY: KindEntry = KindEntry {
    name: "sets",
    parse: |src, id| crate::spec::parse_with(src, id, crate::spec::validate_sets),
    schema: |g| g.subschema_for::<crate::spec::header::WithHeader<crate::spec::raw::RawSets>>(),
};

impl SpecKind for SetsClaim {
    header_accessors!("sets");
    fn check(&self, _ctx: &Context) -> Result<Checked, CheckError> {
        Ok(Checked::new(self.check()?))
    }
    fn certify(&self, _ctx: &Context, _checked: &Checked) -> Result<crate::certify::Body, String> {
        crate::certify::families::certify(self)
    }
}
