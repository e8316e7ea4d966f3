//! Text for the languages artifacts are written in, below every layer that needs it: one
//! escaping function per target language ([`escape`]) and the validation and typesetting of
//! the paper's math in labels ([`texlabel`]). The spec reader validates captions with them
//! before anything is rendered; the renderers escape with them.

pub mod escape;
pub mod texlabel;
