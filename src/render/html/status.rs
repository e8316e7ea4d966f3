//! The blueprint status of a checked result, from its report alone: verified on a range,
//! erratum or reading (refuted as expected), reconstructed (holds; the paper's figure or
//! definition was rebuilt from the text), computed data (tables and figures), unchecked (zero
//! instances prove nothing), or unexpected (the verdict disagrees with the spec's expectation).

use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Verified,
    Erratum,
    Reading,
    Reconstructed,
    Computed,
    Unchecked,
    Unexpected,
}

impl Status {
    /// The badge text.
    pub fn label(self) -> &'static str {
        match self {
            Status::Verified => "verified",
            Status::Erratum => "erratum",
            Status::Reading => "reading",
            Status::Reconstructed => "reconstructed",
            Status::Computed => "computed data",
            Status::Unchecked => "unchecked",
            Status::Unexpected => "unexpected",
        }
    }
    /// The CSS class (and the `data-status` attribute the browser test reads).
    pub fn class(self) -> &'static str {
        match self {
            Status::Verified => "verified",
            Status::Erratum => "erratum",
            Status::Reading => "reading",
            Status::Reconstructed => "reconstructed",
            Status::Computed => "computed",
            Status::Unchecked => "unchecked",
            Status::Unexpected => "unexpected",
        }
    }
    /// Fill colour in the dependency graph.
    pub fn colour(self) -> &'static str {
        match self {
            Status::Verified => "#b7e4c7",
            Status::Erratum => "#f8c4b4",
            Status::Reading => "#fde2a7",
            Status::Reconstructed => "#c6dbef",
            Status::Computed => "#e5e5e5",
            Status::Unchecked => "#ffffff",
            Status::Unexpected => "#e03131",
        }
    }
    pub const ALL: [Status; 7] = [
        Status::Verified,
        Status::Erratum,
        Status::Reading,
        Status::Reconstructed,
        Status::Computed,
        Status::Unchecked,
        Status::Unexpected,
    ];
}

/// What the status is decided from.
pub struct Facts<'a> {
    pub kind: &'a str,
    pub holds: bool,
    pub as_expected: bool,
    pub instances: u64,
    /// `because:` of a refuted spec (`erratum` or `reading`), when the spec or report says.
    pub because: Option<&'a str>,
    pub notes: Option<&'a str>,
}

pub fn status(f: &Facts) -> Status {
    if !f.as_expected {
        return Status::Unexpected;
    }
    let notes = f.notes.unwrap_or("").to_lowercase();
    if !f.holds {
        return match f.because.map(str::to_lowercase).as_deref() {
            Some("reading") => Status::Reading,
            Some(_) => Status::Erratum,
            // Without `because:`, the spec's own notes say which.
            None if notes.contains("read literally") || notes.contains("reading") => {
                Status::Reading
            }
            None => Status::Erratum,
        };
    }
    if f.instances == 0 {
        return Status::Unchecked;
    }
    if matches!(f.kind, "table" | "figure") {
        return Status::Computed;
    }
    if notes.starts_with("reconstruct")
        || notes.contains("reconstructed from")
        || notes.contains("reconstruction of")
    {
        return Status::Reconstructed;
    }
    Status::Verified
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts<'a>(holds: bool, as_expected: bool, notes: &'a str) -> Facts<'a> {
        Facts {
            kind: "claim",
            holds,
            as_expected,
            instances: 3,
            because: None,
            notes: Some(notes),
        }
    }

    #[test]
    fn statuses_from_reports() {
        assert_eq!(status(&facts(true, true, "")), Status::Verified);
        assert_eq!(
            status(&facts(false, true, "Erratum: L = …")),
            Status::Erratum
        );
        assert_eq!(
            status(&facts(false, true, "Read literally, V is …")),
            Status::Reading
        );
        assert_eq!(
            status(&facts(true, true, "Reconstructed from the proof.")),
            Status::Reconstructed
        );
        // A verdict against the expectation is never dressed up as a success.
        assert_eq!(status(&facts(true, false, "")), Status::Unexpected);
        assert_eq!(status(&facts(false, false, "Erratum")), Status::Unexpected);
        let mut f = facts(false, true, "read literally");
        f.because = Some("erratum");
        assert_eq!(status(&f), Status::Erratum);
        let mut f = facts(true, true, "");
        f.instances = 0;
        assert_eq!(status(&f), Status::Unchecked);
        f.instances = 2;
        f.kind = "table";
        assert_eq!(status(&f), Status::Computed);
    }
}
