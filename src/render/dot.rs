//! DOT → SVG/PDF. With Graphviz's `dot` installed, graphviz-rust runs it (PDF metadata dates
//! are pinned through SOURCE_DATE_EPOCH so that bytes are reproducible). Without it, SVG comes
//! from the pure-Rust layout-rs fallback with a notice, and PDF is unavailable.

use std::sync::OnceLock;
use thiserror::Error;

#[derive(Debug, Error)]
pub enum DotError {
    #[error("graphviz `dot` failed: {0}")]
    Dot(String),
    #[error("the DOT text does not parse: {0}")]
    Parse(String),
    #[error("PDF output needs Graphviz's `dot` (apt-get install graphviz)")]
    NoPdfWithoutDot,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Svg,
    Pdf,
}

/// Whether Graphviz's `dot` can be run (checked once).
pub fn dot_available() -> bool {
    static AVAILABLE: OnceLock<bool> = OnceLock::new();
    *AVAILABLE.get_or_init(|| {
        std::process::Command::new("dot")
            .arg("-V")
            .output()
            .is_ok_and(|o| o.status.success())
    })
}

/// Parses DOT text with graphviz-rust's parser (also used by tests on every artifact).
pub fn parse(dot: &str) -> Result<graphviz_rust::dot_structures::Graph, DotError> {
    graphviz_rust::parse(dot).map_err(DotError::Parse)
}

/// Lays out and renders DOT text.
pub fn render(dot: &str, format: Format) -> Result<Vec<u8>, DotError> {
    use graphviz_rust::cmd::{CommandArg, Format as GFormat};
    if dot_available() {
        let f = match format {
            Format::Svg => GFormat::Svg,
            Format::Pdf => GFormat::Pdf,
        };
        let bytes = graphviz_rust::exec_dot(dot.to_string(), vec![CommandArg::Format(f)])
            .map_err(|e| DotError::Dot(e.to_string()))?;
        return Ok(match format {
            Format::Pdf => pin_pdf_dates(bytes),
            Format::Svg => bytes,
        });
    }
    match format {
        Format::Pdf => Err(DotError::NoPdfWithoutDot),
        Format::Svg => fallback_svg(dot),
    }
}

/// Older cairo builds ignore SOURCE_DATE_EPOCH and stamp the current time: overwrite the
/// digits of `/CreationDate (D:…)` and `/ModDate (D:…)` with the epoch, in place, so that
/// the byte length (and the PDF's cross-reference offsets) stay unchanged.
fn pin_pdf_dates(mut pdf: Vec<u8>) -> Vec<u8> {
    for key in [&b"/CreationDate (D:"[..], &b"/ModDate (D:"[..]] {
        let mut from = 0;
        while let Some(k) = pdf[from..].windows(key.len()).position(|w| w == key) {
            let start = from + k + key.len();
            let epoch = b"19700101000000";
            let digits = pdf[start..]
                .iter()
                .take(epoch.len())
                .take_while(|b| b.is_ascii_digit())
                .count();
            pdf[start..start + digits].copy_from_slice(&epoch[..digits]);
            from = start;
        }
    }
    pdf
}

fn fallback_svg(dot: &str) -> Result<Vec<u8>, DotError> {
    use layout::backends::svg::SVGWriter;
    use layout::gv::{DotParser, GraphBuilder};
    let mut parser = DotParser::new(dot);
    let g = parser.process().map_err(DotError::Parse)?;
    let mut builder = GraphBuilder::new();
    builder.visit_graph(&g);
    let mut vg = builder.get();
    let mut svg = SVGWriter::new();
    vg.do_it(false, false, false, &mut svg);
    Ok(svg.finalize().into_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fallback_lays_out_a_small_graph() {
        let svg = fallback_svg("digraph { a -> b; b -> c }").unwrap();
        assert!(String::from_utf8(svg).unwrap().contains("<svg"));
    }

    #[test]
    fn pdf_dates_are_pinned_in_place() {
        let pdf = b"<< /CreationDate (D:20261130051509Z) /ModDate (D:2026) >>".to_vec();
        let pinned = pin_pdf_dates(pdf.clone());
        assert_eq!(pinned.len(), pdf.len());
        assert_eq!(
            pinned,
            b"<< /CreationDate (D:19700101000000Z) /ModDate (D:1970) >>".to_vec()
        );
    }

    #[test]
    fn dot_renders_when_installed() {
        if !dot_available() {
            eprintln!("graphviz not installed; skipping (CI installs it)");
            return;
        }
        assert!(render("digraph { a -> b }", Format::Pdf)
            .unwrap()
            .starts_with(b"%PDF"));
        assert!(render("digraph { a -> b }", Format::Svg)
            .unwrap()
            .starts_with(b"<?xml"));
    }
}
