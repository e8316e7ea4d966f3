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

/// Older cairo versions ignore SOURCE_DATE_EPOCH and stamp the wall clock into the PDF's
/// `/CreationDate` and `/ModDate`; the 14 digits are overwritten in place with the epoch
/// (same length, so the cross-reference offsets stay valid) to keep artifacts reproducible.
fn pin_pdf_dates(mut bytes: Vec<u8>) -> Vec<u8> {
    for tag in [&b"/CreationDate (D:"[..], &b"/ModDate (D:"[..]] {
        let mut from = 0;
        while let Some(i) = bytes[from..]
            .windows(tag.len())
            .position(|w| w == tag)
            .map(|i| from + i + tag.len())
        {
            if bytes.len() >= i + 14 && bytes[i..i + 14].iter().all(u8::is_ascii_digit) {
                bytes[i..i + 14].copy_from_slice(b"19700101000000");
            }
            from = i;
        }
    }
    bytes
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
    fn issue5_pdf_dates_are_pinned() {
        let pdf =
            b"%PDF-1.5 /CreationDate (D:20261130052046Z) /ModDate (D:20261130052046Z)".to_vec();
        let pinned = pin_pdf_dates(pdf.clone());
        assert_eq!(pinned.len(), pdf.len());
        assert_eq!(
            pinned,
            b"%PDF-1.5 /CreationDate (D:19700101000000Z) /ModDate (D:19700101000000Z)".to_vec()
        );
        if dot_available() {
            let a = render("digraph { a -> b }", Format::Pdf).unwrap();
            std::thread::sleep(std::time::Duration::from_millis(1100));
            let b = render("digraph { a -> b }", Format::Pdf).unwrap();
            assert_eq!(a, b, "PDF bytes must not depend on the clock");
        }
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
