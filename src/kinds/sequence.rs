//! The `sequence` spec kind. Octal nim sequences with their period proved by the Guy–Smith theorem (Prop 5.23).

use super::KindEntry;
use crate::check::kind::{Checked, Context, SpecKind};
use crate::check::sequence::SequenceSpec;
use crate::check::CheckError;

pub const ENTRY: KindEntry = KindEntry {
    name: "sequence",
    parse: |src, id| crate::spec::parse_with(src, id, crate::spec::validate_sequence),
    schema: |g| g.subschema_for::<crate::spec::header::WithHeader<crate::spec::raw::RawSequence>>(),
};

impl SpecKind for SequenceSpec {
    header_accessors!("sequence");
    fn check(&self, _ctx: &Context) -> Result<Checked, CheckError> {
        let (report, view) = self.check()?;
        Ok(Checked::with_view(report, &view))
    }
    fn certify(&self, _ctx: &Context, _checked: &Checked) -> Result<crate::certify::Body, String> {
        crate::certify::octal::certify(self)
    }
    fn certify_refutation(
        &self,
        _ctx: &Context,
        checked: &Checked,
    ) -> Result<crate::certify::Body, String> {
        crate::certify::refute::sequence(self, &checked.report.verdict)
    }
}
