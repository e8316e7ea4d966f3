//! The validated header every spec has, whatever its kind (read from YAML by
//! `crate::spec::header`): its source, statement, the specs it rests on and the companion an
//! expected refutation is pinned to.

/// The validated header: what every spec says about itself, whatever its kind.
#[derive(Clone, Debug, Default)]
pub struct Header {
    pub source: String,
    pub statement: Option<String>,
    pub notes: Option<String>,
    /// Ids of the specs the result rests on, as the spec declares them.
    pub uses: Vec<String>,
    /// Line and column of each `uses:` entry.
    pub uses_at: Vec<(u64, u64)>,
    /// The companion of an expected refutation: its correction or the intended reading.
    pub companion: Option<Companion>,
    /// Line and column of the companion's link.
    pub companion_at: (u64, u64),
    /// `tier: long`: left out of the main job, checked with `--long`.
    pub long: bool,
    /// `sanity: <why>`: the spec cannot fail on mathematical grounds (why not); the report
    /// shows it as a sanity check and does not count it among the results.
    pub sanity: Option<String>,
}

/// The spec an expected refutation is pinned to (docs/design.md §2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Companion {
    /// `corrected_by:` the corrected claim of an erratum.
    CorrectedBy(String),
    /// `read_as:` the reading the paper means.
    ReadAs(String),
}

impl Companion {
    pub fn id(&self) -> &str {
        match self {
            Companion::CorrectedBy(id) | Companion::ReadAs(id) => id,
        }
    }
}
