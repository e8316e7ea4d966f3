//! Rendering: every artifact is produced by a tera template from `templates/`, fed by typed,
//! serialisable view structs; nothing here computes mathematics. LaTeX templates (`*.tex`)
//! use LaTeX-safe delimiters `<< x >>`, `<% block %>`, `<# comment #>`; all others use tera's
//! defaults. Files are written atomically (temporary file in the same directory, then rename).

pub mod dot;
pub mod html;
pub mod gallery;
pub mod texlabel;
pub mod tikz;

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
    #[error("{path}: {source}")]
    Dot { path: String, source: dot::DotError },
    #[error("report site: {0}")]
    Site(String),
    #[error("cannot write {path}: {why}")]
    Write { path: String, why: String },
}

/// The loaded templates.
pub struct Renderer {
    tex: tera::Tera,
    other: tera::Tera,
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

/// Escapes text for LaTeX (used by templates as the `latex` filter).
pub fn latex_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\textbackslash{}"),
            '&' | '%' | '$' | '#' | '_' | '{' | '}' => {
                out.push('\\');
                out.push(c);
            }
            '~' => out.push_str("\\textasciitilde{}"),
            '^' => out.push_str("\\textasciicircum{}"),
            _ => out.push(c),
        }
    }
    out
}

/// A label in the paper's notation (`λ^{c+2}_0`, `[1^c]`, `*k`) as the body of a Graphviz
/// HTML-like label: `^x`/`^{..}` become superscripts, `_x`/`_{..}` subscripts, and `&`, `<`,
/// `>`, `"` are escaped (used by `templates/diagram.dot` as the `paper_html` filter).
pub fn paper_html(s: &str) -> String {
    fn go(chars: &[char], out: &mut String) {
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            if (c == '^' || c == '_') && i + 1 < chars.len() {
                let (inner, next) = if chars[i + 1] == '{' {
                    let mut depth = 0;
                    let mut j = i + 1;
                    while j < chars.len() {
                        match chars[j] {
                            '{' => depth += 1,
                            '}' => {
                                depth -= 1;
                                if depth == 0 {
                                    break;
                                }
                            }
                            _ => {}
                        }
                        j += 1;
                    }
                    (&chars[i + 2..j.min(chars.len())], j + 1)
                } else {
                    (&chars[i + 1..i + 2], i + 2)
                };
                let tag = if c == '^' { "SUP" } else { "SUB" };
                out.push_str(&format!("<{tag}>"));
                go(inner, out);
                out.push_str(&format!("</{tag}>"));
                i = next;
                continue;
            }
            match c {
                '&' => out.push_str("&amp;"),
                '<' => out.push_str("&lt;"),
                '>' => out.push_str("&gt;"),
                '"' => out.push_str("&quot;"),
                '\n' => out.push_str("<BR/>"),
                _ => out.push(c),
            }
            i += 1;
        }
    }
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::new();
    go(&chars, &mut out);
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
        why,
    }
}

impl Renderer {
    /// Loads every file of `dir` (recursively) as a template named by its relative path.
    pub fn load(dir: &Path) -> Result<Renderer, RenderError> {
        let mut tex = tera::Tera::new();
        tex.set_delimiters(latex_delimiters())
            .map_err(|e| tera_err("<delimiters>", e))?;
        tex.autoescape_on(Vec::<&str>::new());
        tex.register_filter("latex", |s: &str, _: tera::Kwargs, _: &tera::State| {
            latex_escape(s)
        });
        let mut other = tera::Tera::new();
        // HTML pages (templates/html/) escape every value; no other kind of template does.
        other.autoescape_on([".html"]);
        other.register_filter("paper_html", |s: &str, _: tera::Kwargs, _: &tera::State| {
            paper_html(s)
        });
        // The paper's notation as TeX math / as text with math (src/render/texlabel.rs).
        for t in [&mut tex, &mut other] {
            t.register_filter("paper_tex", |s: &str, _: tera::Kwargs, _: &tera::State| {
                texlabel::math(s)
            });
            t.register_filter("paper_text", |s: &str, _: tera::Kwargs, _: &tera::State| {
                texlabel::text(s)
            });
        }
        let files = crate::spec::collect_all_files(dir).map_err(|e| RenderError::Templates {
            dir: dir.display().to_string(),
            why: e.to_string(),
        })?;
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
            let text = std::fs::read_to_string(&f).map_err(|e| RenderError::Templates {
                dir: dir.display().to_string(),
                why: format!("{name}: {e}"),
            })?;
            let t = if name.ends_with(".tex") {
                &mut tex
            } else {
                &mut other
            };
            t.add_raw_template(&name, &text)
                .map_err(|e| tera_err(&name, e))?;
        }
        Ok(Renderer { tex, other })
    }

    pub fn render<T: Serialize>(&self, template: &str, view: &T) -> Result<String, RenderError> {
        let t = if template.ends_with(".tex") {
            &self.tex
        } else {
            &self.other
        };
        if !t.contains_template(template) {
            return Err(RenderError::Unknown(template.to_string()));
        }
        let ctx = tera::Context::from_serialize(view).map_err(|e| tera_err(template, e))?;
        t.render(template, &ctx).map_err(|e| tera_err(template, e))
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
    use super::paper_html;

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
    }
}
