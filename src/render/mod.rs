//! Rendering: every artifact is produced by a tera template from `templates/`, fed by typed,
//! serialisable view structs; nothing here computes mathematics. LaTeX templates (`*.tex`)
//! use LaTeX-safe delimiters `<< x >>`, `<% block %>`, `<# comment #>`; all others use tera's
//! defaults. Files are written atomically (temporary file in the same directory, then rename).
//!
//! Escaping: every string that reaches an artifact goes through the filter of its target
//! language, all defined in [`escape`]; spec validation refuses control characters in one-line
//! fields besides (`spec::parse_spec`).

pub mod dot;
pub use crate::text::escape;
pub mod gallery;
pub mod html;
pub mod sandbox;
pub use crate::text::texlabel;
pub mod tikz;
pub mod verdicts;

pub use escape::{
    comment_escape, dot_string_escape, html_comment_escape, html_escape, latex_escape,
    md_code_escape, md_escape, paper_html, register_filters, MAX_LABEL_NESTING,
};
use serde::Serialize;
use std::path::{Path, PathBuf};
use thiserror::Error;

#[derive(Debug, Error)]
pub enum RenderError {
    #[error("cannot read templates from {dir}: {why}")]
    Templates { dir: String, why: String },
    #[error("template {name}: {why}")]
    Template { name: String, why: String },
    #[error("unknown template `{0}` (not in templates/)")]
    Unknown(String),
    #[error("template `{name}` is not for a spec's `output:`: {why}")]
    NotForOutput { name: String, why: String },
    #[error("{path}: {source}")]
    Dot { path: String, source: dot::DotError },
    #[error("report site: {0}")]
    Site(String),
    #[error("cannot write {path}: {why}")]
    Write { path: String, why: String },
}

/// Largest template file read, and largest sum of a templates folder's files (the built-in
/// templates are a few KiB each, under 200 KiB together).
pub const MAX_TEMPLATE_BYTES: u64 = 1 << 20;
pub const MAX_TEMPLATES_BYTES: u64 = 16 << 20;

/// The loaded templates.
pub struct Renderer {
    tex: tera::Tera,
    other: tera::Tera,
    /// Set when a template differs from the ones compiled into grundy: every render then runs
    /// in the bounded worker ([`sandbox`]).
    sandbox: Option<sandbox::Sandbox>,
}

fn latex_delimiters() -> tera::Delimiters {
    tera::Delimiters {
        block_start: "<%".into(),
        block_end: "%>".into(),
        variable_start: "<<".into(),
        variable_end: ">>".into(),
        comment_start: "<#".into(),
        comment_end: "#>".into(),
    }
}

/// Renders a one-off template (the CLI's `--latex` tables) with the escaping filters.
pub fn render_one_off(template: &str, ctx: &tera::Context) -> Result<String, RenderError> {
    let mut t = tera::Tera::new();
    t.autoescape_on(Vec::<&str>::new());
    register_filters(&mut t);
    t.add_raw_template("one-off", template)
        .map_err(|e| tera_err("one-off", e))?;
    t.render("one-off", ctx).map_err(|e| tera_err("one-off", e))
}

/// The repository's `templates/` folder, compiled in (build.rs reruns the build when it
/// changes). The vendored KaTeX files are embedded separately by [`html`].
static TEMPLATES: include_dir::Dir<'static> =
    include_dir::include_dir!("$CARGO_MANIFEST_DIR/templates");

/// Every embedded template file but the vendored ones, by path relative to `templates/`,
/// sorted (what `grundy init` copies and [`Renderer::embedded`] loads).
pub fn embedded_templates() -> Vec<(String, &'static [u8])> {
    fn walk(d: &'static include_dir::Dir<'static>, out: &mut Vec<(String, &'static [u8])>) {
        for f in d.files() {
            out.push((f.path().to_string_lossy().replace('\\', "/"), f.contents()));
        }
        for sub in d.dirs() {
            walk(sub, out);
        }
    }
    let mut out = Vec::new();
    walk(&TEMPLATES, &mut out);
    out.retain(|(name, _)| !name.starts_with("html/vendor/"));
    out.sort();
    out
}

fn tera_err(name: &str, e: tera::Error) -> RenderError {
    let mut why = e.to_string();
    let mut src = std::error::Error::source(&e);
    while let Some(s) = src {
        why.push_str(&format!(": {s}"));
        src = s.source();
    }
    RenderError::Template {
        name: name.to_string(),
        why: excerpt_lines(&why),
    }
}

/// Each line of an error's text as a bounded excerpt: Tera quotes the template's line (a 480 KB
/// line of nested `{% if %}` was echoed whole, issue 49 R18), and so may the worker's answer.
fn excerpt_lines(why: &str) -> String {
    why.lines()
        .map(|l| crate::term::excerpt(l.trim_end()).into_owned())
        .collect::<Vec<_>>()
        .join("\n")
}

impl Renderer {
    /// Loads every file of `dir` (recursively) as a template named by its relative path. If
    /// any differs from the templates compiled into grundy, renders run in the bounded worker.
    pub fn load(dir: &Path) -> Result<Renderer, RenderError> {
        let texts = Renderer::read_folder(dir)?;
        let embedded: std::collections::HashMap<String, &[u8]> =
            embedded_templates().into_iter().collect();
        let own = texts
            .iter()
            .any(|(name, text)| embedded.get(name) != Some(&text.as_bytes()));
        let mut r = Renderer::from_texts(texts)?;
        if own {
            r.sandbox = Some(sandbox::Sandbox::new(dir));
        }
        Ok(r)
    }

    /// [`Renderer::load`] rendering in this process, whatever the templates: the worker's own.
    pub fn load_in_process(dir: &Path) -> Result<Renderer, RenderError> {
        Renderer::from_texts(Renderer::read_folder(dir)?)
    }

    fn read_folder(dir: &Path) -> Result<Vec<(String, String)>, RenderError> {
        let files = crate::spec::collect_all_files(dir).map_err(|e| RenderError::Templates {
            dir: dir.display().to_string(),
            why: e.to_string(),
        })?;
        let mut texts = Vec::new();
        let mut total = 0u64;
        for f in files {
            let name = f
                .strip_prefix(dir)
                .unwrap_or(&f)
                .to_string_lossy()
                .replace('\\', "/");
            // Vendored static files (KaTeX) are copied as they are, not templates.
            if name.starts_with("html/vendor/") {
                continue;
            }
            let err = |why: String| RenderError::Templates {
                dir: dir.display().to_string(),
                why: format!("{name}: {why}"),
            };
            let text = crate::files::read_regular_text(&f, MAX_TEMPLATE_BYTES)
                .map_err(|e| err(e.to_string()))?;
            total += text.len() as u64;
            if total > MAX_TEMPLATES_BYTES {
                return Err(err(format!(
                    "the templates come to more than {} MiB; templates are small text files",
                    MAX_TEMPLATES_BYTES >> 20
                )));
            }
            texts.push((name, text));
        }
        Ok(texts)
    }

    /// The templates compiled into the binary (the repository's `templates/` at build time),
    /// so that an installed `grundy` renders in any folder without a templates copy.
    pub fn embedded() -> Result<Renderer, RenderError> {
        Renderer::from_texts(
            embedded_templates()
                .into_iter()
                .map(|(name, bytes)| (name, String::from_utf8_lossy(bytes).into_owned())),
        )
    }

    /// [`Renderer::load`] of `dir`, or [`Renderer::embedded`] when no folder is given.
    pub fn load_or_embedded(dir: Option<&Path>) -> Result<Renderer, RenderError> {
        match dir {
            Some(d) => Renderer::load(d),
            None => Renderer::embedded(),
        }
    }

    fn from_texts(
        texts: impl IntoIterator<Item = (String, String)>,
    ) -> Result<Renderer, RenderError> {
        let mut tex = tera::Tera::new();
        tex.set_delimiters(latex_delimiters())
            .map_err(|e| tera_err("<delimiters>", e))?;
        tex.autoescape_on(Vec::<&str>::new());
        register_filters(&mut tex);
        let mut other = tera::Tera::new();
        // HTML pages (templates/html/) escape every value; no other kind of template does.
        other.autoescape_on([".html"]);
        register_filters(&mut other);
        // The paper's notation as TeX math / as text with math (src/text/texlabel.rs).
        for t in [&mut tex, &mut other] {
            t.register_filter("paper_tex", |s: &str, _: tera::Kwargs, _: &tera::State| {
                texlabel::math(s)
            });
            t.register_filter("paper_text", |s: &str, _: tera::Kwargs, _: &tera::State| {
                texlabel::text(s)
            });
            t.register_filter("paper_dot", |s: &str, _: tera::Kwargs, _: &tera::State| {
                texlabel::dot_html(s)
            });
        }
        for (name, text) in texts {
            let t = if name.ends_with(".tex") {
                &mut tex
            } else {
                &mut other
            };
            t.add_raw_template(&name, &text)
                .map_err(|e| tera_err(&name, e))?;
        }
        Ok(Renderer {
            tex,
            other,
            sandbox: None,
        })
    }

    /// The Tera instance holding `template` (LaTeX delimiters for `.tex`), or `Unknown`.
    fn tera_for(&self, template: &str) -> Result<&tera::Tera, RenderError> {
        let t = if template.ends_with(".tex") {
            &self.tex
        } else {
            &self.other
        };
        if !t.contains_template(template) {
            return Err(RenderError::Unknown(template.to_string()));
        }
        Ok(t)
    }

    pub fn render<T: Serialize>(&self, template: &str, view: &T) -> Result<String, RenderError> {
        let t = self.tera_for(template)?;
        if let Some(sandbox) = &self.sandbox {
            let value = serde_json::to_value(view).map_err(|e| RenderError::Template {
                name: template.to_string(),
                why: e.to_string(),
            })?;
            return sandbox
                .render(template, value)
                .map_err(|why| RenderError::Template {
                    name: template.to_string(),
                    why: excerpt_lines(&why),
                });
        }
        let ctx = tera::Context::from_serialize(view).map_err(|e| tera_err(template, e))?;
        t.render(template, &ctx).map_err(|e| tera_err(template, e))
    }

    /// Renders over a view already in JSON, at most [`sandbox::MAX_OUTPUT`] bytes (the
    /// worker's side of [`sandbox::Sandbox::render`]).
    pub fn render_json(
        &self,
        template: &str,
        view: &serde_json::Value,
    ) -> Result<String, RenderError> {
        let t = self.tera_for(template)?;
        let ctx = tera::Context::from_serialize(view).map_err(|e| tera_err(template, e))?;
        sandbox::render_bounded(t, template, &ctx, sandbox::MAX_OUTPUT)
            .map_err(|e| tera_err(template, e))
    }
}

/// The templates grundy renders itself, for every build or beside every figure, which a
/// spec's `output:` cannot name (their views are not a spec's), with what to name instead.
const NOT_FOR_OUTPUT: [(&str, &str); 7] = [
    (
        "figure.tikz.tex",
        "every `.dot` output of a figure or diagram comes with its TikZ drawing `<name>.tikz.tex`; name the figure's own template with a `.dot` path (`gamegraph.dot`, `graph.dot`, `structure.dot`, `diagram.dot`)",
    ),
    (
        "figure.caption.tex",
        "every figure and table comes with its caption `<name>.caption.tex`; name the figure's or table's own template (`gamegraph.dot`, `value_table.tex`, …)",
    ),
    (
        "figures.tex",
        "every build writes the gallery of all figures, output/figures.tex",
    ),
    (
        "tables.tex",
        "every build writes the gallery of all tables, output/tables.tex",
    ),
    (
        "grundy-tikz.sty.tex",
        "every build writes the figures' style file, output/grundy-tikz.sty",
    ),
    (
        "index.md",
        "every build writes output/README.md, the index of all artifacts",
    ),
    (
        "report.md",
        "every build writes output/report.md, the report of all specs",
    ),
];

impl Renderer {
    /// Renders the template a spec's `output:` names, refusing one grundy renders itself
    /// (`figure.tikz.tex`, the galleries, the site's `html/…`) with what to name instead, rather
    /// than failing inside it on a view it was not written for.
    pub fn render_output<T: Serialize>(
        &self,
        template: &str,
        view: &T,
    ) -> Result<String, RenderError> {
        let why = NOT_FOR_OUTPUT
            .iter()
            .find(|(n, _)| *n == template)
            .map(|(_, why)| why.to_string())
            .or_else(|| {
                template.starts_with("html/").then(|| {
                    "the report site's pages are written by every build (output/index.html, output/site/)".to_string()
                })
            });
        if let Some(why) = why {
            return Err(RenderError::NotForOutput {
                name: template.to_string(),
                why,
            });
        }
        self.render(template, view)
    }
}

/// Writes `bytes` to `path` atomically: a temporary file in the same directory, then rename.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), RenderError> {
    let err = |why: String| RenderError::Write {
        path: path.display().to_string(),
        why,
    };
    let dir = path
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."));
    crate::files::writable_target(path).map_err(|e| err(e.to_string()))?;
    std::fs::create_dir_all(&dir).map_err(|e| err(e.to_string()))?;
    let mut tmp = tempfile::NamedTempFile::new_in(&dir).map_err(|e| err(e.to_string()))?;
    std::io::Write::write_all(&mut tmp, bytes).map_err(|e| err(e.to_string()))?;
    tmp.persist(path).map_err(|e| err(e.to_string()))?;
    Ok(())
}

/// Turns rendered template text into the artifact's bytes: `.svg` and `.pdf` artifacts are
/// rendered from DOT text by Graphviz; a PDF without Graphviz is skipped and recorded
/// ([`dot::note_skipped`]; the build lists what it skipped once at the end) (the DOT and SVG
/// are always written). `None`: skipped.
pub fn finish(path: &Path, text: String) -> Result<Option<Vec<u8>>, RenderError> {
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    let format = match ext {
        "svg" => dot::Format::Svg,
        "pdf" => dot::Format::Pdf,
        _ => return Ok(Some(text.into_bytes())),
    };
    match dot::render(&text, format) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(dot::DotError::NoPdfWithoutDot) => {
            dot::note_skipped(&path.display().to_string(), "Graphviz `dot`", "graphviz");
            Ok(None)
        }
        Err(e) => Err(RenderError::Dot {
            path: path.display().to_string(),
            source: e,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paper_notation_to_html_labels() {
        assert_eq!(
            paper_html("(c, λ^{c+2}_0)"),
            "(c, λ<SUP>c+2</SUP><SUB>0</SUB>)"
        );
        assert_eq!(paper_html("(c,[1^c])"), "(c,[1<SUP>c</SUP>])");
        assert_eq!(
            paper_html("(o, Λ^{o+2k}) + *1"),
            "(o, Λ<SUP>o+2k</SUP>) + *1"
        );
        assert_eq!(paper_html("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
        assert_eq!(paper_html("λ^{x_{1}}"), "λ<SUP>x<SUB>1</SUB></SUP>");
        // An unclosed brace is taken to the end rather than lost.
        assert_eq!(paper_html("λ^{c"), "λ<SUP>c</SUP>");
        assert_eq!(paper_html("a^{b}c_d e"), "a<SUP>b</SUP>c<SUB>d</SUB> e");
        assert_eq!(paper_html("x^^a"), "x<SUP>^</SUP>a");
        // A number is subscripted whole, as TeX typesets the same label (`Z_{12}`), and a
        // name with its digits: the one grouping rule of `text::script_end`.
        assert_eq!(paper_html("Z_12"), "Z<SUB>12</SUB>");
        assert_eq!(paper_html("Z_2 × Z_12"), "Z<SUB>2</SUB> × Z<SUB>12</SUB>");
        assert_eq!(paper_html("λ^{x_12}y"), "λ<SUP>x<SUB>12</SUB></SUP>y");
        assert_eq!(paper_html("DNT_v1(W_7)"), "DNT<SUB>v1</SUB>(W<SUB>7</SUB>)");
        assert_ne!(paper_html("Z_12"), "Z<SUB>1</SUB>2");
    }

    #[test]
    fn deep_labels_neither_overflow_nor_nest_without_bound() {
        let deep = format!("x{}y", "^{".repeat(100_000));
        let h = paper_html(&deep);
        assert_eq!(h.matches("<SUP>").count(), MAX_LABEL_NESTING);
        assert_eq!(h.matches("</SUP>").count(), MAX_LABEL_NESTING);
        assert!(h.ends_with("y</SUP></SUP></SUP></SUP></SUP></SUP></SUP></SUP>"));
    }

    #[test]
    fn escaping_filters_keep_text_in_its_context() {
        // A newline can end neither a comment line nor a one-line context.
        let evil = "Thm 1\n\\input{x} <a href=\"javascript:1\"> -->\u{2028}";
        for f in [
            comment_escape,
            html_comment_escape,
            md_escape,
            md_code_escape,
            html_escape,
        ] {
            let e = f(evil);
            assert!(!e.contains('\n') && !e.contains('\u{2028}'), "{e}");
        }
        assert!(!html_comment_escape(evil).contains("-->"));
        assert!(!html_escape(evil).contains('<'));
        assert_eq!(dot_string_escape("a\"b\\c\nd"), "a\\\"b\\\\c\\nd");
        assert_eq!(
            latex_escape("50% of $x_1$\n\\"),
            "50\\% of \\$x\\_1\\$ \\textbackslash{}"
        );
        assert_eq!(md_escape("a|b*c_[d](e)"), "a\\|b\\*c\\_\\[d\\](e)");
        assert_eq!(html_comment_escape("a--b--->"), "a- -b- - ->");
    }
}
