//! Paper-ready companions of the artifacts `build` writes: for every figure (every DOT file)
//! a TikZ drawing `<figure>.tikz.tex` (laid out by Graphviz, see [`super::tikz`]) and its
//! caption `<figure>.caption.tex` (a spec may instead draw its figure with a TikZ template of
//! its own, an output ending in `.tikz.tex`, for drawings with exact coordinates such as seed
//! 002's Figures 2-5 and the schematic Fig 5.3; its DOT, if any, is then a preview only); the
//! style file `grundy-tikz.sty` shared by all drawings;
//! and two gallery documents, `figures.tex` and `tables.tex`, that `\input` every figure and
//! every table with its caption (CI compiles both with pdflatex).
//!
//! Captions come from a certificate spec's `caption` (LaTeX, checked for balanced braces),
//! the spec's title (without the paper's "Figure 5.9:" prefix: LaTeX numbers the figure), or,
//! for certificates without either, from the graph and the moves drawn; the paper's
//! notation in them is set in math mode by [`super::texlabel`].

use super::{texlabel, tikz, RenderError, Renderer};
use crate::term::errln;
use serde::Serialize;
use serde_json::Value;
use std::path::PathBuf;

/// What the gallery needs to know of one spec: the paths it writes, its numbered source and
/// its view (for the title).
pub struct Entry {
    pub paths: Vec<PathBuf>,
    pub source: String,
    pub view: Option<Value>,
    /// What every companion's header comment names besides the file it is drawn from: the
    /// grundy version, the spec and its sha256 (`version 0.1.0; spec specs/x.yaml, sha256 …`).
    pub header: String,
    /// What the spec checked in its own formal terms ([`super::html::checked_as`]), written
    /// into every caption file as TeX comments: the file says what was checked, the printed
    /// caption keeps the paper's words (issue 42 item 4).
    pub checked_as: Vec<String>,
}

/// Templates see their view as `view`.
#[derive(Serialize)]
struct Ctx<T: Serialize> {
    view: T,
}

#[derive(Serialize)]
struct CaptionView<'a> {
    from: &'a str,
    /// Where the caption file goes: a figure's after its drawing, a table's above it (LaTeX's
    /// convention), each inside its float.
    place: &'a str,
    caption: &'a str,
    label: &'a str,
    /// Where the figure comes from (the paper's result, the spec's source): a TeX comment,
    /// never printed.
    provenance: &'a str,
    /// What the spec checked ([`Entry::checked_as`]), TeX comments.
    checked_as: &'a [String],
}

#[derive(Serialize, Clone)]
struct Item {
    source: String,
    /// The artifact to \input, relative to output/, without extension (`.tikz` for figures
    /// and `.caption` are appended by the template).
    input: String,
}

#[derive(Serialize)]
struct Section {
    title: String,
    items: Vec<Item>,
}

#[derive(Serialize)]
struct GalleryView {
    sections: Vec<Section>,
    /// Figures not drawn in TikZ (no Graphviz on this machine).
    skipped: usize,
}

fn unhtml(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&amp;", "&")
}

/// The caption of an artifact, as TeX text, and its provenance (for a TeX comment: a paper
/// prints the caption, not where the build took it from).
fn caption_of(e: &Entry) -> (String, String) {
    let v = e.view.as_ref();
    let get = |k: &str| v.and_then(|v| v.get(k)).and_then(Value::as_str);
    // A caption the spec writes in LaTeX (checked for balanced braces when it was read).
    if let Some(c) = get("caption").filter(|c| !c.is_empty()) {
        // The title still says where the figure comes from (`(Example 5.21)`).
        let provenance = get("title")
            .and_then(|t| texlabel::caption_and_provenance(&unhtml(t)).1)
            .filter(|p| *p != e.source)
            .map_or_else(|| e.source.clone(), |p| format!("{}; {p}", e.source));
        return (c.trim().to_string(), provenance);
    }
    if let Some(t) = get("title").filter(|t| !t.is_empty()) {
        let (mut caption, provenance) = texlabel::caption_and_provenance(&unhtml(t));
        if let Some(more) = v.and_then(|v| sequence_rows(v).or_else(|| move_legend(v))) {
            caption.push(' ');
            caption.push_str(&more);
        }
        let provenance = match provenance {
            Some(p) if p != e.source => format!("{}; {p}", e.source),
            _ => e.source.clone(),
        };
        return (caption, provenance);
    }
    if let Some(v) = v.filter(|v| v.get("graph").is_some()) {
        return (kernel_caption(v), e.source.clone());
    }
    (
        format!("{}.", super::latex_escape(&e.source)),
        e.source.clone(),
    )
}

/// A vertex of a stacked prism as seed 002 names it: on SP(m,2) vertex (i,1) is i and (i,2)
/// is ī, as the drawing labels them (Thms 14-16); on taller prisms its coordinates (i,j).
fn prism_vertex(name: &str, two_rows: bool) -> String {
    let ij = name
        .strip_prefix('(')
        .and_then(|r| r.strip_suffix(')'))
        .and_then(|r| r.split_once(','));
    match ij {
        Some((i, "1")) if two_rows => i.to_string(),
        Some((i, "2")) if two_rows => format!("\\overline{{{i}}}"),
        _ => texlabel::math(name),
    }
}

/// The caption of an even kernel of seed 002 (a certificate's drawing), in the seed's
/// notation: the graph SP(m,n), the edges the moves deleted as the seed writes G - {(1,2), …},
/// the token the kernel contains and the walk that led there, `1 → 2 → 2̄`.
fn kernel_caption(v: &Value) -> String {
    let get = |k: &str| v.get(k).and_then(Value::as_str).unwrap_or_default();
    let two_rows = v.get("rows").and_then(Value::as_i64) == Some(2);
    let name = |n: &str| prism_vertex(n, two_rows);
    // Seed 002 writes its prisms SP(m,n) (the game language SP_{m,n}).
    let g = get("graph");
    let g = match g.strip_prefix("SP_{").and_then(|r| r.strip_suffix('}')) {
        Some(mn) => format!("\\mathrm{{SP}}({mn})"),
        None => texlabel::math(g),
    };
    let mut walk: Vec<String> = Vec::new();
    if !get("start").is_empty() {
        walk.push(get("start").to_string());
    }
    walk.extend(
        v.get("moves")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .map(str::to_string),
    );
    let token = walk
        .last()
        .map(|t| format!(" containing ${}$ (double circle)", name(t)));
    if walk.len() < 2 {
        return format!(
            "An even kernel (filled) of ${g}${}.",
            token.unwrap_or_default()
        );
    }
    let deleted: Vec<String> = walk
        .windows(2)
        .map(|w| format!("({},{})", name(&w[0]), name(&w[1])))
        .collect();
    let path: Vec<String> = walk.iter().map(|t| name(t)).collect();
    format!(
        "An even kernel (filled) of ${g}-\\{{{}\\}}${}, after the moves ${}$ (their edges dotted).",
        deleted.join(","),
        token.unwrap_or_default(),
        path.join("\\to ")
    )
}

/// What the arrows of a case analysis diagram look like by the kind of move (the styles
/// `grundy dehub`, `grundy split`, `grundy heap` of `grundy-tikz.sty`: colour and line, so
/// they part in greyscale too), for the kinds its arrows have; `None` for a view without
/// such arrows. The paper's Fig 5.10 says only "Arrow colors distinguish between dehub and
/// split moves".
fn move_legend(v: &Value) -> Option<String> {
    let kinds: Vec<&str> = v
        .get("arrows")?
        .as_array()?
        .iter()
        .filter_map(|a| a.get("move")?.as_str())
        .collect();
    let parts: Vec<String> = [
        ("dehub", "Dehubs", "blue and thick"),
        ("split", "splits", "red and thin"),
        ("heap", "moves in $*k$", "green and double"),
    ]
    .into_iter()
    .filter(|(k, ..)| kinds.contains(k))
    .enumerate()
    .map(|(i, (_, what, how))| match i {
        0 => format!("{what} are drawn {how}"),
        _ => format!("{what} {how}"),
    })
    .collect();
    let first = parts.first()?;
    let mut s = parts.join(", ");
    if !first.starts_with('D') {
        s.replace_range(..1, &s[..1].to_uppercase());
    }
    s.push('.');
    Some(s)
}

/// What the rows and hats of a sequence table mean (Prop 5.23's table, the caption's second
/// sentence): which rows are preperiod and which the period, and that a hat marks a column in
/// which the rows differ. `None` for a view that is no sequence table.
fn sequence_rows(v: &Value) -> Option<String> {
    let period = v.get("period")?.as_u64()?;
    let least = v.get("preperiod")?.as_u64()?;
    let from = v.get("period_start")?.as_u64()?;
    let starts: Vec<u64> = v
        .get("rows")?
        .as_array()?
        .iter()
        .filter_map(|r| r.get("start")?.as_u64())
        .collect();
    let last = period.checked_sub(1)?;
    let mut s = format!("The row of $n$ lists $G(n), \\dots, G(n+{last})$; ");
    let mut before: Vec<String> = starts
        .iter()
        .filter(|&&n| n < from)
        .map(|n| format!("$n={n}$"))
        .collect();
    match before.len() {
        0 => {}
        1 => s.push_str(&format!(
            "the row of {} is a preperiod of length {from} and ",
            before[0]
        )),
        _ => {
            let last = before.pop().unwrap_or_default();
            s.push_str(&format!(
                "the rows of {} and {last} are a preperiod of length {from} and ",
                before.join(", ")
            ))
        }
    }
    s.push_str(&format!(
        "the row of $n={from}$ is the period of length {period}"
    ));
    if least != from {
        s.push_str(&format!(" (the least preperiod is {least})"));
    }
    s.push_str("; a hat marks a column in which the rows differ.");
    Some(s)
}

/// A name-and-numbers key, so that fig_5_10 sorts after fig_5_9.
fn natural(s: &str) -> Vec<(String, u64)> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut num = String::new();
    for c in s.chars() {
        if c.is_ascii_digit() {
            num.push(c);
        } else {
            if !num.is_empty() {
                out.push((std::mem::take(&mut word), num.parse().unwrap_or(u64::MAX)));
                num.clear();
            }
            word.push(c);
        }
    }
    out.push((word, num.parse().unwrap_or(0)));
    out
}

fn sectioned(mut items: Vec<(String, Item)>) -> Vec<Section> {
    items.sort_by_key(|(dir, i)| (dir.clone(), natural(&i.input)));
    let mut sections: Vec<Section> = Vec::new();
    for (dir, item) in items {
        let title = match dir.as_str() {
            "paper000" => "Impartial geodetic removing games on graphs (paper 000)".to_string(),
            "seed002" => "Edge geography on stacked prisms (seed 002)".to_string(),
            "es2018" => "Structure diagrams of the games of generating groups".to_string(),
            other => super::latex_escape(other),
        };
        match sections.last_mut() {
            Some(s) if s.title == title => s.items.push(item),
            _ => sections.push(Section {
                title,
                items: vec![item],
            }),
        }
    }
    sections
}

/// `<stem>.caption.tex` of the figure drawn from `from`.
fn caption_file(
    renderer: &Renderer,
    from: &str,
    stem: &str,
    (caption, provenance): &(String, String),
    checked_as: &[String],
    table: bool,
) -> Result<(PathBuf, Vec<u8>), RenderError> {
    let label = stem.replace(['/', '\\'], ":");
    let place = if table {
        "\\input it before the table, inside the table environment (a table's caption goes above it)"
    } else {
        "\\input it after the drawing, inside the figure"
    };
    let cap = renderer.render(
        "figure.caption.tex",
        &Ctx {
            view: CaptionView {
                from,
                place,
                caption,
                label: &label,
                provenance,
                checked_as,
            },
        },
    )?;
    Ok((
        PathBuf::from(format!("{stem}.caption.tex")),
        cap.into_bytes(),
    ))
}

/// The TikZ drawings, captions, style file and galleries for the artifacts in `files`.
pub fn artifacts(
    renderer: &Renderer,
    files: &[(PathBuf, Vec<u8>)],
    entries: &[Entry],
) -> Result<Vec<(PathBuf, Vec<u8>)>, RenderError> {
    let mut out = Vec::new();
    let mut figures = Vec::new();
    let mut tables = Vec::new();
    let mut skipped = 0;
    let have_dot = super::dot::dot_available();
    for e in entries {
        let caption = caption_of(e);
        for p in &e.paths {
            let Some((_, bytes)) = files.iter().find(|(q, _)| q == p) else {
                continue;
            };
            let dir = p
                .components()
                .next()
                .map(|c| c.as_os_str().to_string_lossy().to_string())
                .unwrap_or_default();
            let name = p.to_string_lossy();
            let figure = |stem: &str| Item {
                source: super::latex_escape(&e.source),
                input: stem.to_string(),
            };
            let from = format!("{name} ({})", e.header);
            // A spec not checked in this run (`build --only`) has no view to caption from:
            // its caption stays as the build that checked it wrote it (among `files`).
            let caption_for = |stem: &str| -> Result<(PathBuf, Vec<u8>), RenderError> {
                let cap = PathBuf::from(format!("{stem}.caption.tex"));
                match files.iter().find(|(q, _)| *q == cap) {
                    Some(kept) if e.view.is_none() => Ok(kept.clone()),
                    _ => caption_file(renderer, &from, stem, &caption, &e.checked_as, false),
                }
            };
            let table_caption = |stem: &str| -> Result<(PathBuf, Vec<u8>), RenderError> {
                let cap = PathBuf::from(format!("{stem}.caption.tex"));
                match files.iter().find(|(q, _)| *q == cap) {
                    Some(kept) if e.view.is_none() => Ok(kept.clone()),
                    _ => caption_file(renderer, &from, stem, &caption, &e.checked_as, true),
                }
            };
            // A figure drawn in TikZ by its own template (exact coordinates, no layout).
            if let Some(stem) = name.strip_suffix(".tikz.tex") {
                out.push(caption_for(stem)?);
                figures.push((dir, figure(stem)));
                continue;
            }
            if let Some(stem) = name.strip_suffix(".dot") {
                // Its DOT is then a preview only.
                let own = PathBuf::from(format!("{stem}.tikz.tex"));
                if e.paths.contains(&own) {
                    continue;
                }
                out.push(caption_for(stem)?);
                if !have_dot {
                    skipped += 1;
                    continue;
                }
                let text = String::from_utf8_lossy(bytes);
                let fitted = tikz::fitted(&text, &name).map_err(|why| RenderError::Dot {
                    path: name.to_string(),
                    source: super::dot::DotError::Dot(why),
                })?;
                let Some(mut view) = fitted else {
                    continue;
                };
                view.from = from;
                let t = renderer.render("figure.tikz.tex", &Ctx { view })?;
                out.push((PathBuf::from(format!("{stem}.tikz.tex")), t.into_bytes()));
                figures.push((dir, figure(stem)));
            } else if let Some(stem) = name.strip_suffix(".tex") {
                // A table: its caption file beside it, \input above the table.
                out.push(table_caption(stem)?);
                tables.push((dir, figure(stem)));
            }
        }
    }
    if !have_dot && skipped > 0 {
        errln!("notice: TikZ figures take their layout from Graphviz's `dot`, which is not installed: {skipped} drawings skipped (captions written)");
    }
    out.push((
        PathBuf::from("grundy-tikz.sty"),
        renderer
            .render("grundy-tikz.sty.tex", &Ctx { view: () })?
            .into_bytes(),
    ));
    out.push((
        PathBuf::from("figures.tex"),
        renderer
            .render(
                "figures.tex",
                &Ctx {
                    view: GalleryView {
                        sections: sectioned(figures),
                        skipped,
                    },
                },
            )?
            .into_bytes(),
    ));
    out.push((
        PathBuf::from("tables.tex"),
        renderer
            .render(
                "tables.tex",
                &Ctx {
                    view: GalleryView {
                        sections: sectioned(tables),
                        skipped: 0,
                    },
                },
            )?
            .into_bytes(),
    ));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_sort_by_their_numbers() {
        let mut v = vec!["fig_5_10_b", "fig_5_9_a", "fig_2_1"];
        v.sort_by_key(|s| natural(s));
        assert_eq!(v, vec!["fig_2_1", "fig_5_9_a", "fig_5_10_b"]);
    }

    #[test]
    fn captions_from_titles_and_certificates() {
        let e = Entry {
            checked_as: Vec::new(),
            header: String::new(),
            paths: vec![],
            source: "Thm 6".into(),
            view: Some(
                serde_json::json!({"graph": "SP_{12,8}", "rows": 8, "start": "(1,1)", "moves": [], "instance": "m=12"}),
            ),
        };
        assert_eq!(
            caption_of(&e),
            (
                "An even kernel (filled) of $\\mathrm{SP}(12,8)$ containing $(1,1)$ (double circle)."
                    .to_string(),
                "Thm 6".to_string()
            )
        );
        let e = Entry {
            checked_as: Vec::new(),
            header: String::new(),
            paths: vec![],
            source: "Thm 16".into(),
            view: Some(
                serde_json::json!({"graph": "SP_{12,2}", "rows": 2, "start": "(1,1)", "moves": []}),
            ),
        };
        assert_eq!(
            caption_of(&e).0,
            "An even kernel (filled) of $\\mathrm{SP}(12,2)$ containing $1$ (double circle)."
        );
        // Thm 14, Case 4.1 on SP(7,2): the seed's vertex names 1, 2̄ as the drawing labels
        // them, its G - {(1,2),(2,2̄),(2̄,1̄)}, never the spec's coordinates or its instance.
        let e = Entry {
            checked_as: Vec::new(),
            header: String::new(),
            paths: vec![],
            source: "Thm 14".into(),
            view: Some(
                serde_json::json!({"graph": "SP_{7,2}", "rows": 2, "start": "(1,1)",
                "moves": ["(2,1)", "(2,2)", "(1,2)"], "instance": "k=1"}),
            ),
        };
        let c = caption_of(&e).0;
        assert_eq!(
            c,
            "An even kernel (filled) of $\\mathrm{SP}(7,2)-\\{(1,2),(2,\\overline{2}),\
             (\\overline{2},\\overline{1})\\}$ containing $\\overline{1}$ (double circle), after \
             the moves $1\\to 2\\to \\overline{2}\\to \\overline{1}$ (their edges dotted)."
        );
        for spec_wording in ["(2,1)", "(2,2)", "instance", "k=1"] {
            assert!(!c.contains(spec_wording), "{spec_wording} in {c}");
        }
        let e = Entry {
            checked_as: Vec::new(),
            header: String::new(),
            paths: vec![],
            source: "Fig 3.1".into(),
            view: Some(serde_json::json!({"title": "Gamegraphs for P_3 &amp; more"})),
        };
        assert_eq!(caption_of(&e).0, "Gamegraphs for $P_{3}$ \\& more.");
        // A sequence table says which rows are preperiod and period, and what a hat means.
        let rows = |starts: &[u64]| -> Vec<serde_json::Value> {
            starts
                .iter()
                .map(|s| serde_json::json!({"start": s}))
                .collect()
        };
        let dc = serde_json::json!({"title": "Nim sequence of DC(n)", "period": 34,
            "preperiod": 52, "period_start": 68, "rows": rows(&[0, 34, 68])});
        let e = Entry {
            checked_as: Vec::new(),
            header: String::new(),
            paths: vec![],
            source: "Prop 5.23".into(),
            view: Some(dc),
        };
        assert_eq!(
            caption_of(&e).0,
            "Nim sequence of $\\mathrm{DC}(n)$. The row of $n$ lists $G(n), \\dots, G(n+33)$; the \
             rows of $n=0$ and $n=34$ are a preperiod of length 68 and the row of $n=68$ is the \
             period of length 34 (the least preperiod is 52); a hat marks a column in which the \
             rows differ."
        );
        let pure = serde_json::json!({"period": 3, "preperiod": 0, "period_start": 0,
            "rows": rows(&[0])});
        assert_eq!(
            sequence_rows(&pure).unwrap(),
            "The row of $n$ lists $G(n), \\dots, G(n+2)$; the row of $n=0$ is the period of \
             length 3; a hat marks a column in which the rows differ."
        );
        assert_eq!(sequence_rows(&serde_json::json!({"title": "x"})), None);
        // A case analysis diagram's caption says how each kind of move is drawn, for the
        // kinds it has.
        let arrows = |kinds: &[&str]| -> serde_json::Value {
            let a: Vec<_> = kinds
                .iter()
                .map(|k| serde_json::json!({"move": k}))
                .collect();
            serde_json::json!({"title": "Diagram (B) for k ≥ 3", "arrows": a})
        };
        let e = Entry {
            checked_as: Vec::new(),
            header: String::new(),
            paths: vec![],
            source: "Lemma 5.38".into(),
            view: Some(arrows(&["split", "dehub", "any", "split"])),
        };
        assert_eq!(
            caption_of(&e).0,
            "Diagram (B) for $k \\ge  3$. Dehubs are drawn blue and thick, splits red and thin."
        );
        assert_eq!(
            move_legend(&arrows(&["heap"])).as_deref(),
            Some("Moves in $*k$ are drawn green and double.")
        );
        assert_eq!(
            move_legend(&arrows(&["heap", "split", "dehub"])).as_deref(),
            Some("Dehubs are drawn blue and thick, splits red and thin, moves in $*k$ green and double.")
        );
        assert_eq!(move_legend(&arrows(&["any"])), None);
        // The paper's result named in a title goes to the comment, not into the caption.
        let e = Entry {
            checked_as: Vec::new(),
            header: String::new(),
            paths: vec![],
            source: "Fig 5.2".into(),
            view: Some(
                serde_json::json!({"title": "The map DNT_{v1}(W_7) → DC(3) + *1 (Example 5.21)"}),
            ),
        };
        assert_eq!(
            caption_of(&e),
            (
                "The map $\\mathrm{DNT}_{\\{v_{1}\\}}(W_{7}) \\to  \\mathrm{DC}(3) + *1$."
                    .to_string(),
                "Fig 5.2; Example 5.21".to_string()
            )
        );
    }
}
