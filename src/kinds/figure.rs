//! The `figure` spec kind: gamegraph panels and graph drawings, computed (and their maps
//! checked) before they are rendered.

use super::KindEntry;
use crate::check::figure::CertifiedFigure;
use crate::check::kind::{Checked, Context, Kept, SpecKind};
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
        let (report, view, certified) = self.figure.compute(self.closure)?;
        let mut checked = Checked::with_view(report, &view);
        if let Some(c) = certified {
            checked.kept = Some(Kept(std::sync::Arc::new(c)));
        }
        Ok(checked)
    }
    /// A gamegraph figure's certificate lists what the check drew (its nodes, values, arrows
    /// and map); the verifier also reads the rendered DOT and TikZ files.
    fn certify(&self, _ctx: &Context, checked: &Checked) -> Result<crate::certify::Body, String> {
        let figure = checked
            .kept
            .as_ref()
            .and_then(|k| k.0.downcast_ref::<CertifiedFigure>())
            .ok_or("the check kept nothing to certify")?;
        crate::certify::figures::certify(figure)
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}
