//! The `sets` spec kind. Set families 𝒢, 𝒩, 𝒢*, 𝒩* and transversals (paper §2.2, Prop 2.4).

use super::KindEntry;
use crate::check::kind::{Checked, Context, Kept, SpecKind};
use crate::check::sets::{CertifiedFamily, SetsClaim};
use crate::check::CheckError;

pub const ENTRY: KindEntry = KindEntry {
    name: "sets",
    parse: |src, id| crate::spec::parse_with(src, id, crate::spec::validate_sets),
    schema: |g| g.subschema_for::<crate::spec::header::WithHeader<crate::spec::raw::RawSets>>(),
};

impl SpecKind for SetsClaim {
    header_accessors!("sets");
    fn check(&self, _ctx: &Context) -> Result<Checked, CheckError> {
        let (report, families) = self.check_keeping()?;
        let mut checked = Checked::new(report);
        checked.kept = Some(Kept(std::sync::Arc::new(families)));
        Ok(checked)
    }
    /// The certificate lists the families the check computed.
    fn certify(&self, _ctx: &Context, checked: &Checked) -> Result<crate::certify::Body, String> {
        let families = checked
            .kept
            .as_ref()
            .and_then(|k| k.0.downcast_ref::<Vec<CertifiedFamily>>())
            .ok_or("the check kept no families")?;
        crate::certify::families::certify(families)
    }
}
