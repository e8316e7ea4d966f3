//! The `claim` spec kind. Claims: a value or outcome stated over parameter ranges (docs/design.md §2).

use super::KindEntry;
use crate::check::claim::Claim;
use crate::check::kind::{Checked, Context, Kept, SpecKind};
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
    fn check(&self, ctx: &Context) -> Result<Checked, CheckError> {
        // For a build, what the check solves within the certificate's budgets is kept for it.
        let limits = ctx.certify.then_some(crate::check::claim::KeepLimits {
            per_instance: crate::certify::MAX_INSTANCE_POSITIONS,
            per_spec: crate::certify::MAX_SPEC_POSITIONS,
            certifiable: |g| crate::certify::encode::game(g).is_ok(),
        });
        let (report, kept) = self.check_keeping(limits)?;
        let mut checked = Checked::new(report);
        if limits.is_some() {
            checked.kept = Some(Kept(std::sync::Arc::new(kept)));
        }
        Ok(checked)
    }
    fn certify(&self, _ctx: &Context, checked: &Checked) -> Result<crate::certify::Body, String> {
        let kept = checked
            .kept
            .as_ref()
            .and_then(|k| k.0.downcast_ref::<crate::check::claim::Kept>());
        crate::certify::claims::certify(self, kept)
    }
    fn certify_refutation(
        &self,
        _ctx: &Context,
        checked: &Checked,
    ) -> Result<crate::certify::Body, String> {
        let kept = checked
            .kept
            .as_ref()
            .and_then(|k| k.0.downcast_ref::<crate::check::claim::Kept>());
        crate::certify::refute::claim(self, &checked.report.verdict, kept)
    }
}
