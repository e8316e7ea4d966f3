//! Text for the languages artifacts are written in, below every layer that needs it: one
//! escaping function per target language ([`escape`]) and the validation and typesetting of
//! the paper's math in labels ([`texlabel`]). The spec reader validates captions with them
//! before anything is rendered; the renderers escape with them.

pub mod escape;
pub mod texlabel;

/// Where the operand of a `^` or `_` without braces ends, given the index just after the mark:
/// a run of digits (`Z_12` is Z_{12}, `P_10` is P_{10}: the game language's numbers are whole),
/// a letter with the digits after it (`_v1`, the vertex v_1), or else one symbol. The one rule
/// by which every label writer ([`texlabel::math`], [`escape::paper_html`]) groups a script, so
/// TeX, DOT, SVG and PDF subscript the same characters.
pub fn script_end(chars: &[char], start: usize) -> usize {
    let Some(&c) = chars.get(start) else {
        return start;
    };
    let mut j = start + 1;
    if c.is_ascii_digit() || c.is_ascii_alphabetic() {
        while j < chars.len() && chars[j].is_ascii_digit() {
            j += 1;
        }
    }
    j
}
