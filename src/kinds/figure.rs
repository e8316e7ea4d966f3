//! The `figure` spec kind: gamegraph panels and graph drawings, computed (and their maps
//! checked) before they are rendered.

use super::KindEntry;
use crate::check::kind::{Checked, Context, SpecKind};
use crate::check::CheckError;
use std::any::Any;

pub const ENTRY: KindEntry = KindEntry {
    name: "figure",
    parse: |src, id| crate::spec::parse_with(src, id, crate::spec::figure::validate_figure),
    schema: |g| {
        g.subschema_for::<crate::spec::header::WithHeader<crate::spec::figure::RawFigure>>()
    },
};

pub use crate::check::figure::FigureSpec;

impl SpecKind for FigureSpec {
    fn kind(&self) -> &'static str {
        "figure"
    }
    fn id(&self) -> &str {
        &self.figure.id
    }
    fn file(&self) -> &str {
        &self.figure.file
    }
    fn source(&self) -> &str {
        &self.figure.source
    }
    fn check(&self, _ctx: &Context) -> Result<Checked, CheckError> {
        let (report, view) = self.figure.compute(self.closure)?;
        Ok(Checked::with_view(report, &view))
    }
    fn certify(&self, _ctx: &Context, _checked: &Checked) -> Result<crate::certify::Body, String> {
        Err("figures draw, they state nothing to certify".into())
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}
