//! The blueprint status of a checked result, from its report alone: holds (grundy's checker
//! found the claim true on its range), erratum or reading (refuted as expected), reconstructed
//! (holds; the paper's figure or definition was rebuilt from the text), computed data (tables
//! and figures), unchecked (zero instances prove nothing), or unexpected (the verdict disagrees
//! with the spec's expectation). What the independent verifier `grundy-verify` made of the
//! result's certificate is a separate mark ([`verifier_mark`]): the status never says
//! "verified", which would read as re-derived by the verifier where only the checker ran.

use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Holds,
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
            Status::Holds => "holds",
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
            Status::Holds => "holds",
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
            Status::Holds => "#b7e4c7",
            Status::Erratum => "#f8c4b4",
            Status::Reading => "#fde2a7",
            Status::Reconstructed => "#c6dbef",
            Status::Computed => "#e5e5e5",
            Status::Unchecked => "#ffffff",
            Status::Unexpected => "#e03131",
        }
    }
    pub const ALL: [Status; 7] = [
        Status::Holds,
        Status::Erratum,
        Status::Reading,
        Status::Reconstructed,
        Status::Computed,
        Status::Unchecked,
        Status::Unexpected,
    ];
}

/// The mark of `grundy-verify`'s verdict on a result, in certificates/VERIFIED.json's words,
/// by the class [`crate::render::verdicts::VerifierVerdicts::class`] gives a verdict line: none when the
/// verifier has not run on this build (the page says so in its facts).
pub fn verifier_mark(class: &str) -> Option<&'static str> {
    Some(match class {
        "verified" => "re-derived by grundy-verify",
        "partly-verified" => "partly re-derived",
        "refuted" => "refutation re-derived by grundy-verify",
        "evidence" => "evidence checked",
        "not-certified" => "not certified",
        "rejected" => "rejected by grundy-verify",
        _ => return None,
    })
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
    Status::Holds
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
        assert_eq!(status(&facts(true, true, "")), Status::Holds);
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
        // No status claims the verifier's work: "verified" is the verifier's word only.
        for s in Status::ALL {
            assert!(!s.label().contains("verif"), "{}", s.label());
        }
    }

    #[test]
    fn verifier_marks_say_what_the_verifier_did() {
        use crate::render::verdicts::VerifierVerdicts;
        let mark = |line: Option<&str>| verifier_mark(VerifierVerdicts::class(line).0);
        assert_eq!(
            mark(Some(
                "verified (claim re-derived): 14 of 14 instances (910 entries)"
            )),
            Some("re-derived by grundy-verify")
        );
        // Re-derived on fewer instances than checked is not a full re-derivation.
        assert_eq!(
            mark(Some(
                "verified (claim re-derived): 3 of 14 instances (90 entries)"
            )),
            Some("partly re-derived")
        );
        assert_eq!(
            mark(Some(
                "evidence checked, claim not re-derived: DNG(Spider_{1,1,12}): …"
            )),
            Some("evidence checked")
        );
        assert_eq!(
            mark(Some("not certified: sets specs are not certified")),
            Some("not certified")
        );
        assert_eq!(
            mark(Some("REJECTED: entry 3 disagrees")),
            Some("rejected by grundy-verify")
        );
        assert_eq!(mark(None), None);
    }
}
