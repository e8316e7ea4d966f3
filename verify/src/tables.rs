//! Value tables bound to their values (issue 43, tables): a `table` spec's cells are
//! re-derived and its rendered TeX files read.
//!
//! The verifier reads the spec's row parameter and its columns (a column parameter with one
//! game, or the `games:` list), enumerates the cells itself, and solves each cell's game with
//! its own solver ([`crate::solve::nim_of_name`], under the spec's closure).
//!
//! It then reads every file the spec renders through the built-in `value_table.tex` from the
//! output folder; its first comment must name the sha256 of the spec's bytes. Each row of values carries its cells' sources in the comment line after it
//! (`% sources: DNT(W_n)@n=5 ; …`, the column's key in `games:` and the instance). Every
//! source must name a cell of the spec, each exactly once per file. Each cell's printed number
//! must be the verifier's own value there. The row's first cell and the cell above in the
//! nearest header row (a row without sources) must show the cell's parameter values and its
//! column, with TeX markup ignored. A row of numbers with no sources that no value takes its
//! header from is a number from nowhere: rejected.
//!
//! A cell past the verifier's own budget is counted as not re-derived, never as verified. The
//! Markdown renderings are previews and are not read.

use crate::derive::{all_instances, Rederived, Stop};
use crate::names::substitute;
use crate::spec::Raw;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};
use std::sync::OnceLock;

/// The output folder the certificates' folder sits in (set once by `main`).
pub static OUTPUT_ROOT: OnceLock<PathBuf> = OnceLock::new();

/// Most bytes of a rendered table read.
const MAX_TABLE_BYTES: u64 = 1 << 20;

/// One cell of the spec: its column key, its instance label, its game, and its value when the
/// verifier solved it.
struct Cell {
    game: String,
    value: Result<u32, String>,
    row_value: String,
    column: Column,
    seen: bool,
}

/// What the column header shows: a column parameter's value or a game's key.
enum Column {
    Param(String),
    Game(String),
}

/// TeX markup dropped, for comparing a header with what it should show.
fn bare(t: &str) -> String {
    t.replace("\\mathrm", "")
        .replace("\\backslash", "")
        .chars()
        .filter(|c| !matches!(c, '$' | '{' | '}' | '_' | '\\' | ' '))
        .collect()
}

pub fn derive(raw: &Raw) -> Result<Rederived, Stop> {
    let rows = raw
        .rows
        .as_ref()
        .and_then(Value::as_object)
        .filter(|r| r.len() == 1)
        .ok_or_else(|| Stop::Not("a table without one row parameter".into()))?;
    let (row_name, _) = rows.iter().next().expect("one row parameter");
    let mut params = indexmap::IndexMap::new();
    for (k, v) in rows {
        params.insert(k.clone(), v.clone());
    }
    let mut columns: Vec<(String, String)> = Vec::new();
    let mut column_param = None;
    match (raw.columns.as_ref().and_then(Value::as_object), &raw.games) {
        (Some(c), None) if c.len() == 1 => {
            let (k, v) = c.iter().next().expect("one column parameter");
            params.insert(k.clone(), v.clone());
            column_param = Some(k.clone());
            let game = raw
                .game
                .clone()
                .ok_or_else(|| Stop::Not("a table with columns but no `game`".into()))?;
            columns.push((String::new(), game));
        }
        (None, Some(Value::Object(g))) => {
            for (k, v) in g {
                let t = v
                    .as_str()
                    .ok_or_else(|| Stop::Not(format!("the game of column `{k}` is not a name")))?;
                columns.push((k.clone(), t.to_string()));
            }
        }
        _ => {
            return Err(Stop::Not(
                "a table whose columns the verifier does not read".into(),
            ))
        }
    }
    let shape = Raw {
        params,
        ..Raw::default()
    };
    // Every cell of the spec, by its source `column@label`.
    let mut cells: BTreeMap<String, Cell> = BTreeMap::new();
    for i in all_instances(&shape)? {
        let values: BTreeMap<String, String> = i.names.iter().cloned().collect();
        for (key, template) in &columns {
            let game = substitute(template, &i.names);
            let value = crate::solve::nim_of_name(&game);
            let column = match &column_param {
                Some(p) => Column::Param(values[p].clone()),
                None => Column::Game(key.clone()),
            };
            cells.insert(
                format!("{key}@{}", i.label),
                Cell {
                    game,
                    value,
                    row_value: values[row_name].clone(),
                    column,
                    seen: false,
                },
            );
        }
    }
    let files = tex_outputs(raw)?;
    if files.is_empty() {
        return Err(Stop::Not(
            "the table is rendered through no `value_table.tex`, so no file binds its values"
                .into(),
        ));
    }
    for f in &files {
        read_file(f, &raw.sha256, &mut cells).map_err(|m| Stop::Reject(format!("{f}: {m}")))?;
        for c in cells.values_mut() {
            c.seen = false;
        }
    }
    let total = cells.len();
    let solved = cells.values().filter(|c| c.value.is_ok()).count();
    Ok(Rederived {
        certified: solved,
        total,
    })
}

/// The paths the spec renders through the built-in `value_table.tex`.
fn tex_outputs(raw: &Raw) -> Result<Vec<String>, Stop> {
    let mut out = Vec::new();
    for o in raw
        .output
        .as_ref()
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let (Some(t), Some(p)) = (
            o.get("template").and_then(Value::as_str),
            o.get("path").and_then(Value::as_str),
        ) else {
            continue;
        };
        if t == "value_table.tex" {
            out.push(p.to_string());
        } else if t.ends_with(".tex") {
            return Err(Stop::Not(format!(
                "`{p}` is rendered through the project's own template `{t}`, which the verifier does not read"
            )));
        }
    }
    Ok(out)
}

/// A path inside the output folder (relative, no `..`).
pub(crate) fn output_file(rel: &str) -> Result<PathBuf, String> {
    let p = Path::new(rel);
    if p.components().any(|c| !matches!(c, Component::Normal(_))) {
        return Err("not a path inside the output folder".into());
    }
    let root = OUTPUT_ROOT.get().ok_or("the output folder is not known")?;
    Ok(root.join(p))
}

/// A rendered file of the output folder, whose first comment must name the spec's `sha256`.
pub fn read_output(rel: &str, sha256: &str) -> Result<String, String> {
    let path = output_file(rel)?;
    let text = crate::io::read_regular_text(&path, MAX_TABLE_BYTES)?;
    // The file names the spec bytes it was rendered from in its first comment.
    let named = text
        .lines()
        .next()
        .and_then(|l| l.split_once("(sha256 "))
        .and_then(|(_, r)| r.split_once(')'))
        .map(|(h, _)| h);
    if named != Some(sha256) {
        return Err(format!(
            "the file was not rendered from the spec's bytes (its first line names sha256 {}, the spec's is {sha256})",
            named.unwrap_or("none")
        ));
    }
    Ok(text)
}

/// The row's cells (`&`-separated, before `\\`) and its sources, if the next line gives them.
fn read_file(rel: &str, sha256: &str, cells: &mut BTreeMap<String, Cell>) -> Result<(), String> {
    let text = read_output(rel, sha256)?;
    let lines: Vec<&str> = text.lines().collect();
    // Rows: (line number, cells, sources if any).
    let mut rows: Vec<(usize, Vec<String>, Option<Vec<String>>)> = Vec::new();
    for (k, line) in lines.iter().enumerate() {
        let t = line.trim_start();
        if t.starts_with('%') {
            if let Some(s) = t
                .strip_prefix('%')
                .map(str::trim)
                .and_then(|s| s.strip_prefix("sources:"))
            {
                let Some(last) = rows.last_mut().filter(|r| r.0 + 1 == k && r.2.is_none()) else {
                    return Err(format!("line {}: sources with no row before them", k + 1));
                };
                last.2 = Some(
                    s.split(';')
                        .map(str::trim)
                        .filter(|x| !x.is_empty())
                        .map(String::from)
                        .collect(),
                );
            }
            continue;
        }
        let body = t.split('%').next().unwrap_or("");
        let Some((row, _)) = body.split_once("\\\\") else {
            continue;
        };
        let row = row
            .replace("\\toprule", "")
            .replace("\\bottomrule", "")
            .replace("\\midrule[\\heavyrulewidth]", "")
            .replace("\\midrule", "");
        rows.push((
            k,
            row.split('&').map(|c| c.trim().to_string()).collect(),
            None,
        ));
    }
    let mut header: Option<usize> = None;
    let mut used = vec![false; rows.len()];
    for r in 0..rows.len() {
        let (line, row, sources) = &rows[r];
        let Some(sources) = sources else {
            header = Some(r);
            continue;
        };
        let at = |m: String| format!("line {}: {m}", line + 1);
        if sources.len() + 1 != row.len() {
            return Err(at(format!(
                "{} cells after the row's header, {} sources",
                row.len().saturating_sub(1),
                sources.len()
            )));
        }
        let h = header.ok_or_else(|| at("values before any header row".into()))?;
        used[h] = true;
        let head = &rows[h].1;
        for (j, src) in sources.iter().enumerate() {
            let printed = &row[j + 1];
            let cell = cells
                .get_mut(src)
                .ok_or_else(|| at(format!("`{src}` is no cell of the spec")))?;
            if cell.seen {
                return Err(at(format!("`{src}` is printed twice")));
            }
            cell.seen = true;
            let col_head = head.get(j + 1).map(String::as_str).unwrap_or("");
            let heads = [bare(&row[0]), bare(col_head)];
            let want = match &cell.column {
                Column::Param(v) => [cell.row_value.clone(), v.clone()],
                Column::Game(key) => [cell.row_value.clone(), bare(key)],
            };
            let shows = heads == want
                || (matches!(cell.column, Column::Game(_))
                    && heads == [want[1].clone(), want[0].clone()]);
            if !shows {
                return Err(at(format!(
                    "the value of `{src}` sits under the headers `{}` and `{col_head}`",
                    row[0]
                )));
            }
            if let Ok(v) = &cell.value {
                if printed.parse::<u32>().ok() != Some(*v) {
                    return Err(at(format!(
                        "`{src}` prints {printed}, but nim({}) = {v} by the verifier",
                        cell.game
                    )));
                }
            }
        }
    }
    for (r, (line, row, sources)) in rows.iter().enumerate() {
        if sources.is_none() && !used[r] && row.iter().any(|c| c.parse::<i64>().is_ok()) {
            return Err(format!("line {}: numbers with no source", line + 1));
        }
    }
    if let Some((src, _)) = cells.iter().find(|(_, c)| !c.seen) {
        return Err(format!("the cell `{src}` of the spec is not printed"));
    }
    Ok(())
}
