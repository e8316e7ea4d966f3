//! Plots of what people would rather look at than read: the nim-value spectrum of TER and DNT
//! per vertex count (paper §6 question 3, recorded in `scale/spectrum_results.yaml`), Dawson's
//! Chess values with the least preperiod and the period marked (Prop 5.23, from the sequence
//! spec's view), Conjecture 5.5 positions and time against n (recorded in
//! `scale/conjecture_5_5_results.yaml`), and nim(TER(W_n)), nim(DNT(W_n)) against n
//! (Thms 5.24, 5.29, from the wheel table's view). Each plot is one typed [`Plot`], drawn as
//! SVG by `plotters` (SVG backend only, no fonts needed) and as pgfplots by
//! `templates/html/plot.tex`.

use crate::check::Report;
use plotters::coord::ranged1d::{AsRangedCoord, ValueFormatter};
use plotters::prelude::*;
use serde::Serialize;
use serde_json::Value;
use std::path::Path;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Style {
    Bars,
    Line,
    Points,
}

#[derive(Debug, Clone, Serialize)]
pub struct Series {
    pub name: String,
    pub style: Style,
    pub points: Vec<(f64, f64)>,
}

/// A vertical line at `x` with a label (a preperiod, a period boundary).
#[derive(Debug, Clone, Serialize)]
pub struct Mark {
    pub x: f64,
    pub label: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct Plot {
    pub id: String,
    /// Plots of one group are shown together ("spectrum", …).
    pub group: String,
    pub title: String,
    pub xlabel: String,
    pub ylabel: String,
    pub log_y: bool,
    /// Legend in the upper left (data that rises to the right) rather than the upper right.
    pub legend_left: bool,
    pub series: Vec<Series>,
    pub marks: Vec<Mark>,
}

/// A drawn plot, for the index.
#[derive(Debug, Clone, Serialize)]
pub struct PlotRef {
    pub id: String,
    pub group: String,
    pub title: String,
    pub svg: String,
    pub tex: String,
}

fn num(v: &Value, key: &str) -> Option<f64> {
    v.get(key)?.as_f64()
}

fn read_yaml(dir: &Path, name: &str) -> Option<Value> {
    let text = std::fs::read_to_string(dir.join(name)).ok()?;
    serde_saphyr::from_str::<Value>(&text).ok()
}

/// The nim-value spectrum: one histogram per vertex count, TER and DNT side by side.
fn spectrum(data: &Value) -> Vec<Plot> {
    let Some(sizes) = data.get("sizes").and_then(Value::as_array) else {
        return Vec::new();
    };
    let series = |size: &Value, key: &str, name: &str| Series {
        name: name.into(),
        style: Style::Bars,
        points: size
            .get(key)
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|b| Some((num(b, "value")?, num(b, "count")?)))
                    .collect()
            })
            .unwrap_or_default(),
    };
    sizes
        .iter()
        .filter_map(|s| {
            let n = num(s, "vertices")?;
            let graphs = num(s, "graphs").unwrap_or(0.0);
            Some(Plot {
                id: format!("spectrum_{n}"),
                group: "spectrum".into(),
                title: format!(
                    "Nim-values of TER(G), DNT(G) over the {graphs} connected graphs G on {n} vertices"
                ),
                xlabel: "nim-value".into(),
                ylabel: "graphs".into(),
                log_y: false,
                legend_left: false,
                series: vec![
                    series(s, "ter", "TER(G)"),
                    series(s, "dnt", "DNT(G)"),
                ],
                marks: Vec::new(),
            })
        })
        .collect()
}

/// Conjecture 5.5: positions and sweep time against odd n.
fn conjecture(data: &Value) -> Vec<Plot> {
    let Some(rows) = data.get("results").and_then(Value::as_array) else {
        return Vec::new();
    };
    let pts = |key: &str| -> Vec<(f64, f64)> {
        rows.iter()
            .filter_map(|r| Some((num(r, "n")?, num(r, key)?)))
            .filter(|(_, y)| *y > 0.0)
            .collect()
    };
    vec![
        Plot {
            id: "conjecture_5_5_positions".into(),
            group: "conjecture".into(),
            title: "Conjecture 5.5: nonterminal positions of TER(C_n)".into(),
            xlabel: "n".into(),
            ylabel: "positions".into(),
            log_y: true,
            legend_left: true,
            series: vec![Series {
                name: "positions".into(),
                style: Style::Line,
                points: pts("positions"),
            }],
            marks: Vec::new(),
        },
        Plot {
            id: "conjecture_5_5_seconds".into(),
            group: "conjecture".into(),
            title: "Conjecture 5.5: sweep time (2-core machine, shared)".into(),
            xlabel: "n".into(),
            ylabel: "seconds".into(),
            log_y: true,
            legend_left: true,
            series: vec![Series {
                name: "seconds".into(),
                style: Style::Line,
                points: pts("seconds"),
            }],
            marks: Vec::new(),
        },
    ]
}

/// Dawson's Chess (octal 0.137): G(n) for n below the least preperiod plus two periods.
fn dawson(view: &Value) -> Option<Plot> {
    let period = num(view, "period")?;
    let preperiod = num(view, "preperiod")?;
    let upto = preperiod + 2.0 * period;
    let points: Vec<(f64, f64)> = view
        .get("rows")?
        .as_array()?
        .iter()
        .filter_map(|r| r.get("cells")?.as_array())
        .flatten()
        .filter_map(|c| Some((num(c, "n")?, num(c, "value")?)))
        .filter(|(n, _)| *n < upto)
        .collect();
    Some(Plot {
        id: "dawsons_chess".into(),
        group: "sequences".into(),
        title: format!("Dawson's Chess: G(n), period {period}, least preperiod {preperiod}"),
        xlabel: "n".into(),
        ylabel: "G(n)".into(),
        log_y: false,
        legend_left: false,
        series: vec![Series {
            name: "G(n)".into(),
            style: Style::Points,
            points,
        }],
        marks: vec![
            Mark {
                x: preperiod,
                label: format!("preperiod {preperiod}"),
            },
            Mark {
                x: preperiod + period,
                label: format!("+ period {period}"),
            },
        ],
    })
}

/// nim(TER(W_n)) and nim(DNT(W_n)) against n, from a table with a column for each.
fn wheels(view: &Value) -> Option<Plot> {
    let headers: Vec<String> = view
        .get("headers")?
        .as_array()?
        .iter()
        .filter_map(|h| h.as_str().map(str::to_string))
        .collect();
    let col = |name: &str| headers.iter().position(|h| h == name);
    let (ter, dnt) = (col("TER(W_n)")?, col("DNT(W_n)")?);
    let rows = view.get("rows")?.as_array()?;
    let series = |c: usize, name: &str| Series {
        name: name.into(),
        style: Style::Line,
        points: rows
            .iter()
            .filter_map(|r| {
                let n: f64 = r.get("key")?.as_str()?.parse().ok()?;
                let v: f64 = r
                    .get("cells")?
                    .get(c)?
                    .as_str()?
                    .trim_start_matches('*')
                    .parse()
                    .ok()?;
                Some((n, v))
            })
            .collect(),
    };
    Some(Plot {
        id: "wheels".into(),
        group: "sequences".into(),
        title: "Wheels: nim(TER(W_n)) and nim(DNT(W_n))".into(),
        xlabel: "n".into(),
        ylabel: "nim-value".into(),
        log_y: false,
        legend_left: false,
        series: vec![series(ter, "TER(W_n)"), series(dnt, "DNT(W_n)")],
        marks: Vec::new(),
    })
}

/// Every plot there is data for, and a note for each that is missing.
pub fn all(
    views: &[(&Report, Option<&Value>)],
    recorded: Option<&Path>,
) -> (Vec<Plot>, Vec<String>) {
    let mut plots = Vec::new();
    let mut notes = Vec::new();
    let dir = recorded.unwrap_or(Path::new("output"));
    match read_yaml(dir, "scale/spectrum_results.yaml") {
        Some(v) => plots.extend(spectrum(&v)),
        None => notes.push(
            "No recorded spectrum (scale/spectrum_results.yaml): run `grundy spectrum`."
                .to_string(),
        ),
    }
    match read_yaml(dir, "scale/conjecture_5_5_results.yaml") {
        Some(v) => plots.extend(conjecture(&v)),
        None => notes.push("No recorded Conjecture 5.5 runs (scale/conjecture_5_5_results.yaml): run `grundy cycle`.".to_string()),
    }
    let dc = views.iter().find_map(|(r, v)| {
        let v = (*v)?;
        (r.kind == "sequence" && r.verdict.holds() && v.get("code")?.as_str()? == "0.137")
            .then(|| dawson(v))
            .flatten()
    });
    match dc {
        Some(p) => plots.push(p),
        None => notes.push("No Dawson's Chess sequence spec (octal 0.137) that holds.".to_string()),
    }
    match views
        .iter()
        .find_map(|(r, v)| (r.kind == "table").then(|| wheels((*v)?)).flatten())
    {
        Some(p) => plots.push(p),
        None => notes.push("No table with columns TER(W_n) and DNT(W_n).".to_string()),
    }
    // The paper's sequences first, then the scale runs, then the spectrum (stable sort).
    plots.sort_by_key(|p| match p.group.as_str() {
        "sequences" => 0,
        "conjecture" => 1,
        _ => 2,
    });
    (plots, notes)
}

const COLOURS: [RGBColor; 3] = [
    RGBColor(0x1f, 0x77, 0xb4),
    RGBColor(0xd6, 0x27, 0x28),
    RGBColor(0x2c, 0xa0, 0x2c),
];

fn bounds(p: &Plot) -> (f64, f64, f64, f64) {
    let pts = p.series.iter().flat_map(|s| s.points.iter());
    let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for &(x, y) in pts {
        x0 = x0.min(x);
        x1 = x1.max(x);
        y0 = y0.min(y);
        y1 = y1.max(y);
    }
    for m in &p.marks {
        x0 = x0.min(m.x);
        x1 = x1.max(m.x);
    }
    if x0 > x1 {
        return (0.0, 1.0, 0.0, 1.0);
    }
    if p.log_y {
        (x0 - 1.0, x1 + 1.0, y0.max(1e-6) / 2.0, y1 * 2.0)
    } else {
        // Headroom for the legend.
        (x0 - 1.0, x1 + 1.0, 0.0, (y1 * 1.4).max(1.0))
    }
}

fn draw<Y>(
    p: &Plot,
    buf: &mut String,
    x: std::ops::Range<f64>,
    y: Y,
    ylo: f64,
    yhi: f64,
) -> Result<(), String>
where
    Y: AsRangedCoord<Value = f64>,
    Y::CoordDescType: ValueFormatter<f64>,
{
    let e = |e: &dyn std::fmt::Display| e.to_string();
    let root = SVGBackend::with_string(buf, (560, 320)).into_drawing_area();
    root.fill(&WHITE).map_err(|x| e(&x))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(&p.title, ("sans-serif", 16))
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(60)
        .build_cartesian_2d(x, y)
        .map_err(|x| e(&x))?;
    chart
        .configure_mesh()
        .x_desc(p.xlabel.as_str())
        .y_desc(p.ylabel.as_str())
        .x_label_formatter(&|v| integer_label(*v))
        .y_label_formatter(&|v| {
            if p.log_y {
                log_label(*v)
            } else {
                integer_label(*v)
            }
        })
        .light_line_style(WHITE)
        .draw()
        .map_err(|x| e(&x))?;
    let bars = p
        .series
        .iter()
        .filter(|s| s.style == Style::Bars)
        .count()
        .max(1) as f64;
    let width = 0.8 / bars;
    for (i, s) in p.series.iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        let anno = match s.style {
            Style::Bars => {
                let off = -0.4 + width * i as f64;
                chart
                    .draw_series(s.points.iter().map(|&(x, y)| {
                        Rectangle::new([(x + off, ylo), (x + off + width, y)], colour.filled())
                    }))
                    .map_err(|x| e(&x))?
            }
            Style::Line => {
                chart
                    .draw_series(
                        s.points
                            .iter()
                            .map(|&pt| Circle::new(pt, 3, colour.filled())),
                    )
                    .map_err(|x| e(&x))?;
                chart
                    .draw_series(LineSeries::new(s.points.iter().copied(), colour))
                    .map_err(|x| e(&x))?
            }
            Style::Points => chart
                .draw_series(
                    s.points
                        .iter()
                        .map(|&pt| Circle::new(pt, 2, colour.filled())),
                )
                .map_err(|x| e(&x))?,
        };
        anno.label(s.name.as_str())
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 10, y + 5)], colour.filled()));
    }
    for m in &p.marks {
        chart
            .draw_series(LineSeries::new(
                vec![(m.x, ylo), (m.x, yhi)],
                BLACK.stroke_width(1),
            ))
            .map_err(|x| e(&x))?
            .label(m.label.as_str())
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 10, y)], BLACK));
    }
    chart
        .configure_series_labels()
        .position(if p.legend_left {
            SeriesLabelPosition::UpperLeft
        } else {
            SeriesLabelPosition::UpperRight
        })
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()
        .map_err(|x| e(&x))?;
    root.present().map_err(|x| e(&x))?;
    Ok(())
}

/// Axis labels of counts and nim-values are integers; other ticks get no label.
fn integer_label(v: f64) -> String {
    if (v - v.round()).abs() < 1e-9 {
        format!("{}", v.round() as i64)
    } else {
        String::new()
    }
}

/// Ticks of a log axis: plain below 10^4, else as 1e6.
fn log_label(v: f64) -> String {
    if (1.0..1e4).contains(&v) {
        integer_label(v)
    } else {
        format!("{v:.0e}")
    }
}

/// The plot as SVG text.
pub fn svg(p: &Plot) -> Result<String, String> {
    let (x0, x1, y0, y1) = bounds(p);
    let mut buf = String::new();
    if p.log_y {
        draw(p, &mut buf, x0..x1, (y0..y1).log_scale(), y0, y1)?;
    } else {
        draw(p, &mut buf, x0..x1, y0..y1, y0, y1)?;
    }
    Ok(buf)
}

/// A number as pgfplots reads it, the same on every machine.
fn fmt(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        format!("{x}")
    }
}

#[derive(Serialize)]
pub struct TexSeries {
    pub name: String,
    pub style: Style,
    pub coordinates: String,
}

#[derive(Serialize)]
pub struct TexMark {
    pub x: String,
    pub label: String,
}

#[derive(Serialize)]
pub struct TexView {
    pub id: String,
    pub title: String,
    pub xlabel: String,
    pub ylabel: String,
    pub log_y: bool,
    pub legend_left: bool,
    pub bars: bool,
    pub ymin: String,
    pub ymax: String,
    pub series: Vec<TexSeries>,
    pub marks: Vec<TexMark>,
}

/// The view of `templates/html/plot.tex` (text fields are escaped by the template).
pub fn tex_view(p: &Plot) -> TexView {
    let (_, _, y0, y1) = bounds(p);
    TexView {
        id: p.id.clone(),
        title: p.title.clone(),
        xlabel: p.xlabel.clone(),
        ylabel: p.ylabel.clone(),
        log_y: p.log_y,
        legend_left: p.legend_left,
        bars: p.series.iter().any(|s| s.style == Style::Bars),
        ymin: fmt(y0),
        ymax: fmt(y1),
        series: p
            .series
            .iter()
            .map(|s| TexSeries {
                name: s.name.clone(),
                style: s.style,
                coordinates: s
                    .points
                    .iter()
                    .map(|&(x, y)| format!("({},{})", fmt(x), fmt(y)))
                    .collect::<Vec<_>>()
                    .join(" "),
            })
            .collect(),
        marks: p
            .marks
            .iter()
            .map(|m| TexMark {
                x: fmt(m.x),
                label: m.label.clone(),
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dawson_plot_marks_preperiod_and_period() {
        let cells: Vec<Value> = (0..200)
            .map(|n| serde_json::json!({"n": n, "value": n % 5, "exceptional": false}))
            .collect();
        let view = serde_json::json!({"code": "0.137", "period": 34, "preperiod": 52,
            "rows": [{"start": 0, "cells": cells}]});
        let p = dawson(&view).unwrap();
        assert_eq!(p.series[0].points.len(), 52 + 68);
        assert_eq!(p.marks[0].x, 52.0);
        assert_eq!(p.marks[1].x, 86.0);
        let s = svg(&p).unwrap();
        assert!(s.starts_with("<svg"));
        assert_eq!(s, svg(&p).unwrap(), "deterministic bytes");
        assert_eq!(fmt(3.0), "3");
        assert_eq!(fmt(0.25), "0.25");
    }
}
