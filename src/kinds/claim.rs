//! The `claim` spec kind. Claims: a value or outcome stated over parameter ranges (docs/design.md §2).

use super::KindEntry;
use crate::check::claim::Claim;
use crate::check::kind::{Checked, Context, SpecKind};
use crate::check::CheckError;

pub const ENTRY: KindEntry = KindEntry {
    name: "claim",
    parse: |src, id| crate::spec::parse_with(src, id, crate::spec::validate_claim),
    schema: |g| g.subschema_for::<crate::spec::header::WithHeader<crate::spec::raw::RawClaim>>(),
};

impl SpecKind for Claim {
    header_accessors!("claim");
    fn params(&self) -> Option<&[crate::check::Param]> {
        Some(&self.params)
    }
    fn claimed_at(&self, instance: &str) -> Option<Result<String, String>> {
        self.claimed_at(instance)
    }
    fn question(&self) -> Option<String> {
        Some(self.question())
    }
    fn check(&self, _ctx: &Context) -> Result<Checked, CheckError> {
        Ok(Checked::new(self.check()?))
    }
    fn certify(&self, _ctx: &Context, _checked: &Checked) -> Result<crate::certify::Body, String> {
        crate::certify::claims::certify(self)
    }
}
