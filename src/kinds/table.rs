//! The `table` spec kind: value tables computed over a grid (`table: values`, e.g. the wheel
//! tables) and Table 5.1 verified row by row against every multiset (`table: signatures`).

use super::KindEntry;
use crate::check::kind::{Checked, Context, SpecKind};
use crate::check::signatures::SignatureTable;
use crate::check::table::ValueTable;
use crate::check::{CheckError, Expectation, Report, Verdict};

pub const ENTRY: KindEntry = KindEntry {
    name: "table",
    parse: |src, id| crate::spec::parse_with(src, id, crate::spec::validate_table),
    schema: |g| g.subschema_for::<crate::spec::header::WithHeader<crate::spec::raw::RawTable>>(),
};

impl SpecKind for ValueTable {
    header_accessors!("table");
    /// A value table states nothing that could be refuted: it holds once every cell is solved.
    fn check(&self, _ctx: &Context) -> Result<Checked, CheckError> {
        let t0 = std::time::Instant::now();
        let view = self.compute()?;
        let cells: u64 = view.rows.iter().map(|r| r.cells.len() as u64).sum();
        let report = Report {
            id: self.id.clone(),
            kind: "table".into(),
            source: self.source.clone(),
            file: self.file.clone(),
            instances: cells,
            positions: cells,
            range: view.range.clone(),
            expect: Expectation::Holds,
            verdict: Verdict::Holds,
            as_expected: true,
            notes: None,
            coverage: Vec::new(),
            rests_on: Vec::new(),
            companion: None,
            excused: None,
            identity: None,
            laws: None,
            seconds: t0.elapsed().as_secs_f64(),
        };
        Ok(Checked::with_view(report, &view))
    }
    /// The certificate names the cells only: `grundy-verify` reads the spec's instances and
    /// games, solves every cell itself, and reads each rendered `value_table.tex` file, whose
    /// rows carry their cells' sources in a comment (`% sources: DNT(W_n)@n=5 ; …`).
    fn certify(&self, _ctx: &Context, checked: &Checked) -> Result<crate::certify::Body, String> {
        if let crate::check::table::Columns::Games(games) = &self.columns {
            if let Some((h, _)) = games.iter().find(|(h, _)| h.contains(['@', ';'])) {
                return Err(format!(
                    "the column `{h}` holds `@` or `;`, which a row's sources comment cannot name"
                ));
            }
        }
        let cells = checked.report.instances as usize;
        Ok(crate::certify::Body {
            kind: "value-table",
            data: serde_json::json!({ "cells": cells }),
            certified: cells,
            skipped: Vec::new(),
        })
    }
}

impl SpecKind for SignatureTable {
    header_accessors!("table");
    fn check(&self, _ctx: &Context) -> Result<Checked, CheckError> {
        let (report, view) = SignatureTable::check(self)?;
        Ok(Checked::with_view(report, &view))
    }
    /// The certificate counts the multisets of each row, a cross-check only: `grundy-verify`
    /// enumerates every multiset, re-derives every row from the spec, and reads the rendered
    /// `table_5_1.tex` (verify/src/signatures.rs).
    fn certify(&self, _ctx: &Context, checked: &Checked) -> Result<crate::certify::Body, String> {
        let rows: Vec<u64> = checked
            .view
            .as_ref()
            .and_then(|v| v["rows"].as_array())
            .ok_or("the check kept no table")?
            .iter()
            .map(|r| r["multisets"].as_u64().unwrap_or(0))
            .collect();
        Ok(crate::certify::Body {
            kind: "signatures",
            data: serde_json::json!({ "rows": rows }),
            certified: checked.report.instances as usize,
            skipped: Vec::new(),
        })
    }
    fn certify_refutation(
        &self,
        _ctx: &Context,
        checked: &Checked,
    ) -> Result<crate::certify::Body, String> {
        crate::certify::refute::signatures(&checked.report.verdict)
    }
}
