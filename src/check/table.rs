//! `kind: table` value tables: nim-values of a family over one row parameter and either a
//! column parameter or a list of games (e.g. TER(W_{m,n}) over m and n; DNT and TER of W_n).
//! The table is computed by exhaustive solving; rendering is `render`'s job.

use super::{describe_range, instances, instantiate, CheckError, Loc, Param};
use crate::expr::{parse_game, ParseOptions};
use crate::graph::Closure;
use rayon::prelude::*;
use serde::Serialize;

/// The columns of a value table.
#[derive(Clone, Debug)]
pub enum Columns {
    /// One column per value of a parameter; every cell is the same game template.
    Param { param: Param, game: String },
    /// One column per game template, with its header.
    Games(Vec<(String, String)>),
}

/// A validated value-table spec.
#[derive(Clone, Debug)]
pub struct ValueTable {
    pub id: String,
    pub file: String,
    pub source: String,
    pub title: String,
    pub row: Param,
    pub columns: Columns,
    pub closure: Closure,
    pub loc: Loc,
}

/// The computed table, ready for a template.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct TableView {
    pub id: String,
    pub spec: String,
    pub source: String,
    pub title: String,
    pub range: String,
    pub row_name: String,
    pub column_name: String,
    pub headers: Vec<String>,
    pub rows: Vec<RowView>,
}

#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct RowView {
    pub key: String,
    pub cells: Vec<String>,
    /// Where each cell's value comes from, `column@instance` (the column's key in `games:`,
    /// empty for a column parameter; the instance as reports name it, `m=2, n=3`): the TeX
    /// template writes them in a comment after the row, and `grundy-verify` recomputes every
    /// cell it names and checks it against the row's and column's headers.
    pub sources: Vec<String>,
}

impl ValueTable {
    fn cell(&self, template: &str, inst: &super::Instance) -> Result<String, CheckError> {
        let text = instantiate(template, inst);
        let g = parse_game(
            &text,
            ParseOptions {
                closure: self.closure,
            },
        )
        .map_err(|e| CheckError {
            loc: self.loc.clone(),
            message: format!("game `{text}`: {}", e.message),
        })?;
        if let Some(why) = g.refusal() {
            return Err(CheckError {
                loc: self.loc.clone(),
                message: format!("game `{text}`: {why}"),
            });
        }
        Ok(g.solve().nim.to_string())
    }

    pub fn compute(&self) -> Result<TableView, CheckError> {
        let rows = instances(std::slice::from_ref(&self.row));
        type Cells = Vec<(super::Instance, String, String)>;
        let (headers, column_name, cells): (Vec<String>, String, Cells) = match &self.columns {
            Columns::Param { param, game } => {
                let mut cells = Vec::new();
                for r in &rows {
                    for v in &param.values {
                        let mut inst = r.clone();
                        inst.push((param.name.clone(), v.clone()));
                        cells.push((inst, String::new(), game.clone()));
                    }
                }
                (
                    param.values.iter().map(|v| v.to_string()).collect(),
                    param.name.clone(),
                    cells,
                )
            }
            Columns::Games(games) => {
                let mut cells = Vec::new();
                for r in &rows {
                    for (h, g) in games {
                        cells.push((r.clone(), h.clone(), g.clone()));
                    }
                }
                (
                    games.iter().map(|(h, _)| h.clone()).collect(),
                    String::new(),
                    cells,
                )
            }
        };
        // The spec's folder goes along to the workers (relative `file:` graphs).
        let folder = crate::graph::io::base();
        let values: Vec<String> = cells
            .par_iter()
            .map(|(i, _, g)| crate::graph::io::with_base(folder.as_deref(), || self.cell(g, i)))
            .collect::<Result<_, _>>()?;
        let sources: Vec<String> = cells
            .iter()
            .map(|(i, h, _)| format!("{h}@{}", super::describe_instance(i)))
            .collect();
        let width = headers.len();
        let rows_view = rows
            .iter()
            .zip(values.chunks(width).zip(sources.chunks(width)))
            .map(|(r, (c, s))| RowView {
                key: r[0].1.to_string(),
                cells: c.to_vec(),
                sources: s.to_vec(),
            })
            .collect();
        let mut params = vec![self.row.clone()];
        if let Columns::Param { param, .. } = &self.columns {
            params.push(param.clone());
        }
        Ok(TableView {
            id: self.id.clone(),
            spec: self.file.clone(),
            source: self.source.clone(),
            title: self.title.clone(),
            range: describe_range(&params),
            row_name: self.row.name.clone(),
            column_name,
            headers,
            rows: rows_view,
        })
    }
}
