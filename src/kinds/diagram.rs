//! The `diagram` spec kind: case analysis diagrams checked as second-player strategies
//! (paper Remark 5.34, docs/design.md §3). A diagram's sinks may refer to other diagrams, which the
//! pipeline checks first and hands over as start families.

use super::KindEntry;
use crate::check::diagram::{explain, Diagram, DiagramView};
use crate::check::kind::{Checked, Context, SpecKind};
use crate::check::{CheckError, Loc};

pub const ENTRY: KindEntry = KindEntry {
    name: "diagram",
    parse: |src, id| crate::spec::parse_with(src, id, crate::spec::diagram::validate_diagram),
    schema: |g| {
        g.subschema_for::<crate::spec::header::WithHeader<crate::spec::diagram::RawDiagram>>()
    },
};

impl SpecKind for Diagram {
    header_accessors!("diagram");
    fn figure(&self) -> Option<&str> {
        self.figure.as_deref()
    }
    fn references(&self) -> Vec<String> {
        Diagram::references(self)
    }
    fn check(&self, ctx: &Context) -> Result<Checked, CheckError> {
        let mut families = std::collections::HashMap::new();
        for r in Diagram::references(self) {
            let f = ctx.families.get(&r).ok_or_else(|| CheckError {
                loc: Loc {
                    file: self.file.clone(),
                    ..self.loc.clone()
                },
                message: format!("a sink refers to diagram `{r}`, which was not checked"),
            })?;
            families.insert(r, f.clone());
        }
        let c = Diagram::check(self, &families)?;
        let mut out = Checked::with_view(c.report, &c.view);
        out.family = Some(c.family);
        Ok(out)
    }
    fn explain(&self, checked: &Checked) -> Option<String> {
        let v: DiagramView = serde_json::from_value(checked.view.clone()?).ok()?;
        Some(explain(&v))
    }
    fn certify(&self, ctx: &Context, _checked: &Checked) -> Result<crate::certify::Body, String> {
        crate::certify::strategy::certify(self, &ctx.families)
    }
    fn certify_refutation(
        &self,
        _ctx: &Context,
        checked: &Checked,
    ) -> Result<crate::certify::Body, String> {
        crate::certify::refute::diagram(&checked.report.verdict)
    }
}
