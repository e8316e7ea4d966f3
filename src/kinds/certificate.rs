//! The `certificate` spec kind. Even-kernel and win certificates for edge geography (seed 002, docs/design.md §5).

use super::KindEntry;
use crate::check::certificate::Certificate;
use crate::check::kind::{Checked, Context, SpecKind};
use crate::check::CheckError;

pub const ENTRY: KindEntry = KindEntry {
    name: "certificate",
    parse: |src, id| {
        crate::spec::parse_with(src, id, crate::spec::certificate::validate_certificate)
    },
    schema: |g| {
        g.subschema_for::<crate::spec::header::WithHeader<crate::spec::certificate::RawCertificate>>()
    },
};

impl SpecKind for Certificate {
    header_accessors!("certificate");
    fn params(&self) -> Option<&[crate::check::Param]> {
        Some(&self.params)
    }
    fn start_early(&self) -> u64 {
        // Kernels are checked on thousands of stacked prisms.
        1
    }
    fn figure(&self) -> Option<&str> {
        self.figure.as_deref()
    }
    fn check(&self, _ctx: &Context) -> Result<Checked, CheckError> {
        let (report, view) = self.check()?;
        Ok(match view {
            Some(v) => Checked::with_view(report, &v),
            None => Checked::new(report),
        })
    }
    fn certify(&self, _ctx: &Context, _checked: &Checked) -> Result<crate::certify::Body, String> {
        crate::certify::kernels::certify(self)
    }
    fn certify_refutation(
        &self,
        _ctx: &Context,
        checked: &Checked,
    ) -> Result<crate::certify::Body, String> {
        crate::certify::refute::spec_play(self, &checked.report.verdict)
    }
}
