//! Plots of what people would rather look at than read: the nim-value spectrum of TER and DNT
//! per vertex count (paper §6 question 3, recorded in `scale/spectrum_results.yaml`), Dawson's
//! Chess values with the least preperiod and the period marked (Prop 5.23, from the sequence
//! spec's view), Conjecture 5.5 positions and time against n (recorded in
//! `scale/conjecture_5_5_results.yaml`), and nim(TER(W_n)), nim(DNT(W_n)) against n
//! (Thms 5.24, 5.29, from the wheel table's view), and the share of graphs whose values change
//! under the geodetic closure (§6 question 2, recorded in `scale/spectrum_geodetic/`). Each plot is one typed [`Plot`], drawn as
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
    pub series: Vec<Series>,
    pub marks: Vec<Mark>,
}

/// A drawn plot, for the index.
#[derive(Debug, Clone, Serialize)]
pub struct PlotRef {
    pub id: String,
    pub group: String,
    pub title: String,
    /// The title as the site typesets statements (its caption under the plot).
    pub title_segs: Vec<super::math::Seg>,
    /// The title as the image's text alternative (one line of text, scripts in Unicode).
    pub alt: String,
    pub svg: String,
    pub tex: String,
}

fn num(v: &Value, key: &str) -> Option<f64> {
    v.get(key)?.as_f64()
}

/// Largest recorded-results file read.
const MAX_RECORDED_BYTES: u64 = 16 << 20;

/// A recorded-results file: `None` when there is none; one that cannot be read (a FIFO, a
/// device, too large, not YAML) is an error, not taken for a missing one.
fn read_yaml(dir: &Path, name: &str) -> Result<Option<Value>, String> {
    let path = dir.join(name);
    let Some(text) = read_recorded(&path)? else {
        return Ok(None);
    };
    serde_saphyr::from_str::<Value>(&text)
        .map(Some)
        .map_err(|e| format!("{}: not YAML: {e}", path.display()))
}

/// The text of a recorded-results file: `None` when there is none, an error when it is there
/// but not a regular file of bounded size.
fn read_recorded(path: &Path) -> Result<Option<String>, String> {
    match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        _ => {}
    }
    crate::files::read_regular_text(path, MAX_RECORDED_BYTES)
        .map(Some)
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// A count with thin spaces between groups of three digits (1 006 700 565).
fn grouped(x: f64) -> String {
    let digits = format!("{}", x.round() as i64);
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push('\u{2009}');
        }
        out.push(c);
    }
    out
}

/// The nim-value spectrum: how many graphs have each nim-value, against the vertex count (one
/// plot for TER, one for DNT: n = 1..11, counts from 1 to 10^9, so a log count axis), then one
/// histogram per vertex count, TER and DNT side by side (log counts too).
fn spectrum(data: &Value) -> Vec<Plot> {
    let Some(sizes) = data.get("sizes").and_then(Value::as_array) else {
        return Vec::new();
    };
    let counts = |size: &Value, key: &str| -> Vec<(f64, f64)> {
        size.get(key)
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|b| Some((num(b, "value")?, num(b, "count")?)))
                    .filter(|(_, c)| *c > 0.0)
                    .collect()
            })
            .unwrap_or_default()
    };
    let mut plots = Vec::new();
    for (key, game) in [("ter", "TER"), ("dnt", "DNT")] {
        let mut by_value: std::collections::BTreeMap<i64, Vec<(f64, f64)>> = Default::default();
        for s in sizes {
            let Some(n) = num(s, "vertices") else {
                continue;
            };
            for (v, c) in counts(s, key) {
                by_value.entry(v as i64).or_default().push((n, c));
            }
        }
        if by_value.is_empty() {
            continue;
        }
        plots.push(Plot {
            id: format!("spectrum_{key}"),
            group: "spectrum".into(),
            title: format!("Connected graphs G by nim({game}(G)) and vertex count"),
            xlabel: "vertices".into(),
            ylabel: "graphs".into(),
            log_y: true,
            series: by_value
                .into_iter()
                .map(|(v, points)| Series {
                    name: format!("nim = {v}"),
                    style: Style::Line,
                    points,
                })
                .collect(),
            marks: Vec::new(),
        });
    }
    plots.extend(sizes.iter().filter_map(|s| {
        let n = num(s, "vertices")?;
        let graphs = num(s, "graphs").unwrap_or(0.0);
        let series = vec![
            Series {
                name: "TER(G)".into(),
                style: Style::Bars,
                points: counts(s, "ter"),
            },
            Series {
                name: "DNT(G)".into(),
                style: Style::Bars,
                points: counts(s, "dnt"),
            },
        ];
        // Log counts once they span more than two decades (n = 7 on); below, a log axis
        // would only hide the differences.
        let ys = series.iter().flat_map(|s| s.points.iter().map(|p| p.1));
        let (lo, hi) = ys.fold((f64::MAX, 0f64), |(a, b), y| (a.min(y), b.max(y)));
        let (graph_s, vertex_s) = match (graphs == 1.0, n == 1.0) {
            (true, true) => ("graph", "vertex"),
            (true, false) => ("graph", "vertices"),
            _ => ("graphs", "vertices"),
        };
        Some(Plot {
            id: format!("spectrum_{n}"),
            group: "spectrum".into(),
            title: format!(
                "Nim-values over the {} connected {graph_s} on {n} {vertex_s}",
                grouped(graphs)
            ),
            xlabel: "nim-value".into(),
            ylabel: "graphs".into(),
            log_y: hi > 100.0 * lo,
            series,
            marks: Vec::new(),
        })
    }));
    plots
}

/// Seed 000 §6 question 2: the share of the connected graphs on n vertices whose nim-value
/// under the geodetic closure differs from the hull's, for TER and DNT (recorded by
/// `tests/long/spectrum-geodetic.sh` in `scale/spectrum_geodetic/N.json`).
fn geodetic(runs: &[Value]) -> Option<Plot> {
    let share = |key: &str| -> Vec<(f64, f64)> {
        runs.iter()
            .filter_map(|r| {
                let n = r.get("vertices")?.as_array()?.first()?.as_f64()?;
                let graphs = num(r, "graphs")?;
                let changed: f64 = r
                    .get(key)?
                    .as_array()?
                    .iter()
                    .filter_map(|d| num(d, "count"))
                    .sum();
                (graphs > 0.0).then_some((n, 100.0 * changed / graphs))
            })
            .collect()
    };
    let series = |key, name: &str| Series {
        name: name.into(),
        style: Style::Line,
        points: share(key),
    };
    let ter = series("ter_vs_hull", "TER(G)");
    if ter.points.is_empty() {
        return None;
    }
    Some(Plot {
        id: "spectrum_geodetic".into(),
        group: "spectrum".into(),
        title: "Connected graphs whose nim-value under the geodetic closure differs from the hull's (percent, §6 question 2)".into(),
        xlabel: "vertices".into(),
        ylabel: "percent of graphs".into(),
        log_y: false,
        series: vec![ter, series("dnt_vs_hull", "DNT(G)")],
        marks: Vec::new(),
    })
}

/// The recorded geodetic spectrum runs `scale/spectrum_geodetic/N.json`, N = 1..=16, in order
/// of N (a missing N is skipped; one that is there but unreadable is an error).
fn read_geodetic(dir: &Path) -> Result<Vec<Value>, String> {
    let mut runs = Vec::new();
    for n in 1..=crate::solve::spectrum::DENSE_MAX {
        let path = dir.join(format!("scale/spectrum_geodetic/{n}.json"));
        let Some(text) = read_recorded(&path)? else {
            continue;
        };
        runs.push(
            serde_json::from_str(&text)
                .map_err(|e| format!("{}: not JSON: {e}", path.display()))?,
        );
    }
    Ok(runs)
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
        series: vec![series(ter, "TER(W_n)"), series(dnt, "DNT(W_n)")],
        marks: Vec::new(),
    })
}

/// Every plot there is data for, and a note for each that is missing; a recorded file that
/// is there but cannot be read is an error.
pub fn all(
    views: &[(&Report, Option<&Value>)],
    recorded: Option<&Path>,
) -> Result<(Vec<Plot>, Vec<String>), String> {
    let mut plots = Vec::new();
    let mut notes = Vec::new();
    let dir = recorded.unwrap_or(Path::new("output"));
    match read_yaml(dir, "scale/spectrum_results.yaml")? {
        Some(v) => plots.extend(spectrum(&v)),
        None => notes.push(
            "No recorded spectrum (scale/spectrum_results.yaml): run `grundy spectrum`."
                .to_string(),
        ),
    }
    match geodetic(&read_geodetic(dir)?) {
        Some(p) => plots.push(p),
        None => notes.push("No recorded geodetic spectrum (scale/spectrum_geodetic/): run `tests/long/spectrum-geodetic.sh`.".to_string()),
    }
    match read_yaml(dir, "scale/conjecture_5_5_results.yaml")? {
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
    Ok((plots, notes))
}

/// The series colours (Tableau 10), then round again.
const COLOURS: [RGBColor; 10] = [
    RGBColor(0x1f, 0x77, 0xb4),
    RGBColor(0xd6, 0x27, 0x28),
    RGBColor(0x2c, 0xa0, 0x2c),
    RGBColor(0xff, 0x7f, 0x0e),
    RGBColor(0x94, 0x67, 0xbd),
    RGBColor(0x8c, 0x56, 0x4b),
    RGBColor(0xe3, 0x77, 0xc2),
    RGBColor(0x17, 0xbe, 0xcf),
    RGBColor(0x7f, 0x7f, 0x7f),
    RGBColor(0xbc, 0xbd, 0x22),
];

/// The drawing's size, and the width kept right of the axes for the legend (outside the
/// data, so that no legend hides a point).
const SIZE: (u32, u32) = (640, 340);
const LEGEND_WIDTH: u32 = 132;

/// The axes' ranges: x from 0 (bars centred on their value, so from -0.5 with no tick there),
/// y from 0 on a linear axis and from just below the least power of ten on a log axis.
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
        return (0.0, 1.0, if p.log_y { 0.5 } else { 0.0 }, 10.0);
    }
    let bars = p.series.iter().any(|s| s.style == Style::Bars);
    let (x0, x1) = if bars {
        (x0.min(0.0) - 0.5, x1 + 0.5)
    } else {
        (x0.min(0.0), x1 + (x1 - x0.min(0.0)) * 0.02 + 0.5)
    };
    if p.log_y {
        let lo = 10f64.powf(y0.max(1e-6).log10().floor());
        // A decade's headroom above a count that is a power of ten (or close under one).
        let hi = 10f64
            .powf((y1.max(1.0) * 1.5).log10().ceil())
            .max(lo * 10.0);
        // Half a decade below the least count, so that a bar of count 1 still shows.
        (x0, x1, lo / 2.0, hi)
    } else {
        (x0, x1, 0.0, (y1 * 1.08).max(1.0))
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
    let root = SVGBackend::with_string(buf, SIZE).into_drawing_area();
    root.fill(&WHITE).map_err(|x| e(&x))?;
    // No title inside the drawing: the site typesets it under the plot, as its caption, with
    // the statements' math (an SVG text would print `W_n` raw).
    let (plot_area, legend_area) = root.split_horizontally(SIZE.0 - LEGEND_WIDTH);
    let mut chart = ChartBuilder::on(&plot_area)
        .margin(10)
        .margin_top(18)
        .x_label_area_size(52)
        .y_label_area_size(if p.log_y { 70 } else { 62 })
        .build_cartesian_2d(x, y)
        .map_err(|x| e(&x))?;
    let (xdesc, ydesc) = (unicode_scripts(&p.xlabel), unicode_scripts(&p.ylabel));
    chart
        .configure_mesh()
        .label_style(("sans-serif", TICK_PX))
        .axis_desc_style(("sans-serif", AXIS_PX))
        .x_desc(xdesc.as_str())
        .y_desc(ydesc.as_str())
        .x_label_formatter(&|v| integer_label(*v))
        .y_label_formatter(&|v| {
            if p.log_y {
                log_label(*v)
            } else {
                integer_label(*v)
            }
        })
        .y_labels(if p.log_y { 30 } else { 8 })
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
        match s.style {
            Style::Bars => {
                let off = -0.4 + width * i as f64;
                chart
                    .draw_series(s.points.iter().map(|&(x, y)| {
                        Rectangle::new([(x + off, ylo), (x + off + width, y)], colour.filled())
                    }))
                    .map_err(|x| e(&x))?;
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
                    .map_err(|x| e(&x))?;
            }
            Style::Points => {
                chart
                    .draw_series(
                        s.points
                            .iter()
                            .map(|&pt| Circle::new(pt, 2, colour.filled())),
                    )
                    .map_err(|x| e(&x))?;
            }
        }
    }
    for m in &p.marks {
        chart
            .draw_series(LineSeries::new(
                vec![(m.x, ylo), (m.x, yhi)],
                BLACK.stroke_width(1),
            ))
            .map_err(|x| e(&x))?;
    }
    // The legend, right of the axes: a swatch per series, a rule per mark.
    let font = ("sans-serif", LEGEND_PX).into_font();
    let mut y = 16;
    for (i, s) in p.series.iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        legend_area
            .draw(&Rectangle::new([(4, y - 6), (16, y + 6)], colour.filled()))
            .map_err(|x| e(&x))?;
        legend_area
            .draw(&Text::new(
                unicode_scripts(&s.name),
                (22, y - 9),
                font.clone(),
            ))
            .map_err(|x| e(&x))?;
        y += 23;
    }
    for m in &p.marks {
        legend_area
            .draw(&PathElement::new(vec![(10, y - 8), (10, y + 8)], BLACK))
            .map_err(|x| e(&x))?;
        legend_area
            .draw(&Text::new(
                unicode_scripts(&m.label),
                (22, y - 9),
                font.clone(),
            ))
            .map_err(|x| e(&x))?;
        y += 23;
    }
    root.present().map_err(|x| e(&x))?;
    Ok(())
}

/// Font sizes of the plots' tick labels, axis descriptions and legend, as `plotters` takes
/// them (its SVG prints 0.81 of the size asked: 20 is 16px): the SVG is shown at its size
/// (640px) beside the site's 16px text, so none is below 16px (the tests check 14px).
const TICK_PX: u32 = 20;
const AXIS_PX: u32 = 21;
const LEGEND_PX: u32 = 20;

/// The notation's scripts in an SVG text of a plot (one font, no markup): `W_n` as `Wₙ`,
/// `10^9` as `10⁹`, where Unicode has every character of the script; else as written.
pub fn unicode_scripts(s: &str) -> String {
    fn sub(c: char) -> Option<char> {
        let i = "0123456789+-=()aehijklmnoprstuvx".find(c)?;
        "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ".chars().nth(i)
    }
    fn sup(c: char) -> Option<char> {
        let i = "0123456789+-=()in".find(c)?;
        "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁱⁿ".chars().nth(i)
    }
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if (c == '_' || c == '^') && i + 1 < chars.len() {
            let (body, next): (Vec<char>, usize) = if chars[i + 1] == '{' {
                match chars[i + 2..].iter().position(|&d| d == '}') {
                    Some(k) => (chars[i + 2..i + 2 + k].to_vec(), i + 3 + k),
                    None => (Vec::new(), i + 1),
                }
            } else {
                // A number or one letter, as TeX groups it.
                let mut j = i + 1;
                if chars[j].is_ascii_digit() {
                    while j < chars.len() && chars[j].is_ascii_digit() {
                        j += 1;
                    }
                } else {
                    j += 1;
                }
                (chars[i + 1..j].to_vec(), j)
            };
            let map = if c == '_' { sub } else { sup };
            let mapped: Option<String> = body.iter().map(|&d| map(d)).collect();
            if let Some(m) = mapped.filter(|m| !m.is_empty()) {
                out.push_str(&m);
                i = next;
                continue;
            }
        }
        out.push(c);
        i += 1;
    }
    out
}

/// Axis labels of counts and nim-values are integers from 0; other ticks get no label.
fn integer_label(v: f64) -> String {
    if (v - v.round()).abs() < 1e-9 && v > -0.5 {
        format!("{}", v.round() as i64)
    } else {
        String::new()
    }
}

/// Ticks of a log axis: powers of ten only (1, 10, 100, 10³ … 10⁹), so labels never crowd.
fn log_label(v: f64) -> String {
    let k = v.log10().round();
    if v <= 0.0 || (v - 10f64.powf(k)).abs() > 1e-6 * v {
        return String::new();
    }
    match k as i64 {
        0 => "1".into(),
        1 => "10".into(),
        2 => "100".into(),
        k => {
            const SUP: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
            let digits: String = k
                .to_string()
                .chars()
                .map(|d| match d {
                    '-' => '⁻',
                    d => SUP[d.to_digit(10).unwrap_or(0) as usize],
                })
                .collect();
            format!("10{digits}")
        }
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

    /// Issue 46 item 4: the plots' texts print the notation's scripts, at readable sizes, and
    /// the title is left to the site's typeset caption.
    #[test]
    fn plot_texts_are_typeset_and_readable() {
        assert_eq!(unicode_scripts("TER(W_n)"), "TER(Wₙ)");
        assert_eq!(unicode_scripts("DNT(W_{12}) and 10^9"), "DNT(W₁₂) and 10⁹");
        // No Unicode form for every character: left as written.
        assert_eq!(unicode_scripts("K_{b,c}"), "K_{b,c}");
        let view = serde_json::json!({"headers": ["n", "TER(W_n)", "DNT(W_n)"],
            "rows": [{"key": "4", "cells": ["4", "*2", "*1"]}, {"key": "5", "cells": ["5", "*1", "*0"]}]});
        let p = wheels(&view).unwrap();
        let s = svg(&p).unwrap();
        assert!(s.contains("TER(Wₙ)") && !s.contains("W_n"), "{s}");
        assert!(!s.contains(&p.title), "the title is the site's caption");
        // Every text of the SVG at 14px or more.
        for size in s.split("font-size=\"").skip(1) {
            let px: f64 = size
                .split(|c: char| !(c.is_ascii_digit() || c == '.'))
                .next()
                .unwrap()
                .parse()
                .unwrap();
            assert!(px >= 14.0, "{px}px in {}", &size[..size.len().min(80)]);
        }
    }

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
        // Axes from 0, and the legend right of the data (the plot area stops before it).
        let (x0, _, y0, _) = bounds(&p);
        assert_eq!((x0, y0), (0.0, 0.0));
        assert!(s.contains("preperiod 52"));
        assert_eq!(fmt(0.25), "0.25");
    }

    #[test]
    fn spectrum_plots_have_log_counts_from_one_to_a_billion() {
        let data = serde_json::json!({"sizes": [
            {"vertices": 1, "graphs": 1, "ter": [{"value": 1, "count": 1}], "dnt": [{"value": 0, "count": 1}]},
            {"vertices": 11, "graphs": 1006700565u64,
             "ter": [{"value": 0, "count": 22000000}, {"value": 1, "count": 750000000u64}, {"value": 9, "count": 47}],
             "dnt": [{"value": 0, "count": 380000000u64}]}]});
        let plots = spectrum(&data);
        let ids: Vec<&str> = plots.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(
            ids,
            ["spectrum_ter", "spectrum_dnt", "spectrum_1", "spectrum_11"]
        );
        assert!(plots[0].log_y && plots[1].log_y && plots[3].log_y);
        let (x0, _, y0, y1) = bounds(&plots[0]);
        assert_eq!(x0, 0.0);
        assert_eq!((y0, y1), (0.5, 1e10));
        assert!(!plots[2].log_y, "one graph: a linear axis");
        // Bars centred on nim-value 0: the axis starts half a bar left of 0, with no -1 label.
        let (x0, _, _, _) = bounds(&plots[3]);
        assert_eq!(x0, -0.5);
        assert_eq!(integer_label(-1.0), "");
        assert_eq!(log_label(1e9), "10⁹");
        assert_eq!(log_label(2e3), "");
        assert!(plots[3]
            .title
            .contains("1\u{2009}006\u{2009}700\u{2009}565"));
        for p in &plots {
            let s = svg(p).unwrap();
            assert!(s.starts_with("<svg"), "{}", p.id);
        }
    }
}
