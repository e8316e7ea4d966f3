//! The `reduction` spec kind. Option-preserving maps between games (paper §2.4, docs/design.md §4).

use super::KindEntry;
use crate::check::kind::{Checked, Context, Kept, SpecKind};
use crate::check::reduction::{MapPairs, Reduction};
use crate::check::CheckError;

pub const ENTRY: KindEntry = KindEntry {
    name: "reduction",
    parse: |src, id| crate::spec::parse_with(src, id, crate::spec::reduction::validate_reduction),
    schema: |g| {
        g.subschema_for::<crate::spec::header::WithHeader<crate::spec::reduction::RawReduction>>()
    },
};

impl SpecKind for Reduction {
    header_accessors!("reduction");
    fn start_early(&self) -> u64 {
        // The map is a script evaluated at every reachable position: the slowest kind.
        2
    }
    fn check(&self, _ctx: &Context) -> Result<Checked, CheckError> {
        // The pairs of instances small enough to certify are kept for the certificate.
        let (report, pairs) =
            self.check_keeping_pairs(Some(crate::certify::MAX_INSTANCE_POSITIONS))?;
        let mut checked = Checked::new(report);
        checked.kept = pairs.map(|p| Kept(std::sync::Arc::new(p)));
        Ok(checked)
    }
    fn certify(&self, _ctx: &Context, checked: &Checked) -> Result<crate::certify::Body, String> {
        let kept = checked
            .kept
            .as_ref()
            .and_then(|k| k.0.downcast_ref::<Vec<MapPairs>>());
        crate::certify::maps::certify(self, kept)
    }
}
