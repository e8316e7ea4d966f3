//! The one trait every spec kind implements for the checker: what it is called, which other
//! specs it rests on, how it is checked, and the view its templates render. The build pipeline
//! (`crate::pipeline`) sees specs only through this trait, so adding a kind never touches the
//! pipeline or the CLI (the kinds themselves are registered in `crate::kinds`).

use crate::check::diagram::Family;
use crate::check::{CheckError, Report};
use serde::Serialize;
use std::any::Any;
use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

/// What checking one spec produced: its report, the view its templates render (a table, a
/// diagram, a gamegraph…) already serialised, and what it vouches for to specs that refer to
/// it (the start family of a valid diagram, docs/design.md §3 (d)).
#[derive(Clone, Debug)]
pub struct Checked {
    pub report: Report,
    pub view: Option<serde_json::Value>,
    pub family: Option<Arc<Family>>,
    /// What the check computed that the kind's certificate lists again (the pairs of a
    /// scripted map), kept so that certifying does not recompute it.
    pub kept: Option<Kept>,
    /// The certificate of the verdict, or why there is none, when made with the check
    /// (`crate::pipeline::check_certified`).
    pub certificate: Option<Arc<Result<Made, String>>>,
}

/// Results of a check kept for its certificate; only the kind that stored them reads them.
#[derive(Clone)]
pub struct Kept(pub Arc<dyn Any + Send + Sync>);

impl fmt::Debug for Kept {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Kept(..)")
    }
}

impl Checked {
    pub fn new(report: Report) -> Checked {
        Checked {
            report,
            view: None,
            family: None,
            kept: None,
            certificate: None,
        }
    }

    pub fn with_view<T: Serialize>(report: Report, view: &T) -> Checked {
        Checked {
            report,
            // Views are plain data (strings, numbers, vectors): serialising cannot fail.
            view: serde_json::to_value(view).ok(),
            family: None,
            kept: None,
            certificate: None,
        }
    }
}

/// The results of the specs a spec refers to, by id, checked before it.
#[derive(Default)]
pub struct Context {
    pub families: HashMap<String, Arc<Family>>,
    /// The certificate is made right after the check (`grundy build`): a kind may keep what
    /// its check solved in [`Checked::kept`] for it, so nothing is solved twice.
    pub certify: bool,
}

/// A spec kind as the pipeline sees it.
pub trait SpecKind: Send + Sync + fmt::Debug + Any {
    /// The `kind:` of the YAML, e.g. `claim`.
    fn kind(&self) -> &'static str;
    /// The spec's id (its file stem).
    fn id(&self) -> &str;
    /// The file the spec was read from.
    fn file(&self) -> &str;
    /// The numbered result of the paper, e.g. "Thm 5.43".
    fn source(&self) -> &str;
    /// The paper's figure number the spec draws, e.g. "5.11".
    fn figure(&self) -> Option<&str> {
        None
    }
    /// Ids of specs that must be checked first (diagrams referenced by sinks).
    fn references(&self) -> Vec<String> {
        Vec::new()
    }
    /// When to start checking the spec, larger first: a hint for the scheduler, which starts
    /// the long checks early so that they do not run alone at the end. Never changes a result.
    fn start_early(&self) -> u64 {
        0
    }
    /// What the spec claims at one instance of its range, given as the instance is described
    /// in counterexamples ("n=3"), as a value's text (`*2`, `P`): how an erratum's correction
    /// is held to disagree with the printed claim at its counterexample (docs/design.md §2).
    /// `None` when the kind cannot say; `Err` when the instance is not one the spec covers.
    fn claimed_at(&self, _instance: &str) -> Option<Result<String, String>> {
        None
    }
    /// The question the spec answers, in its own formal terms, with its parameters renamed by
    /// their order (`nim(DNG(Cyc(#1))) under the hull`): an erratum and its companion must ask
    /// the same one (docs/design.md §2). `None` when the kind cannot say.
    fn question(&self) -> Option<String> {
        None
    }
    /// The parameters and their ranges, for kinds that have them: an erratum's correction must
    /// cover at least the erratum's range (docs/design.md §2).
    fn params(&self) -> Option<&[crate::check::Param]> {
        None
    }
    /// Decides the spec. A refuted claim is an `Ok` report; `Err` is bad input.
    fn check(&self, ctx: &Context) -> Result<Checked, CheckError>;
    /// The certificate of a holding verdict for the independent checker `grundy-verify`
    /// (docs/design.md §6), or why the kind has none. `ctx` holds the start families of every
    /// diagram checked valid; `checked` is what this spec's check gave.
    fn certify(&self, _ctx: &Context, _checked: &Checked) -> Result<Body, String> {
        Err(format!("{} specs are not certified", self.kind()))
    }
    /// The certificate of a refuted verdict: the counterexample's evidence, from which
    /// `grundy-verify` re-derives that the spec's claim fails there (src/certify/refute.rs), or
    /// why the kind has none. `checked` is this spec's check, refuted.
    fn certify_refutation(&self, _ctx: &Context, _checked: &Checked) -> Result<Body, String> {
        Err(format!(
            "a refuted verdict of a `{}` spec carries its counterexample in the report only (no certificate format yet)",
            self.kind()
        ))
    }
    /// `--explain`: how the checker saw the spec, when the kind has more to say than its report.
    fn explain(&self, _checked: &Checked) -> Option<String> {
        None
    }
    fn as_any(&self) -> &dyn Any;
}

/// What certifying one spec gave: the certificate's JSON body (kind and data), the instances
/// left out with their reasons; or why the spec is not certified at all.
pub struct Body {
    pub kind: &'static str,
    pub data: serde_json::Value,
    pub certified: usize,
    pub skipped: Vec<(String, String)>,
}

/// A certificate file made: its bytes, and what its status line says.
#[derive(Debug)]
pub struct Made {
    pub bytes: Vec<u8>,
    pub certified: usize,
    pub skipped: usize,
    /// The reason the first instance left out was left out.
    pub first_skipped: Option<String>,
}
