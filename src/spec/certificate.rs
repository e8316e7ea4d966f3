//! `kind: certificate` specs (seed 002): the raw YAML structs and their validation into
//! [`crate::check::certificate::Certificate`].
//!
//! ```yaml
//! kind: certificate
//! source: Thm 6
//! graph: "SP_{M,n}"            # parameters and `let` values are substituted
//! params: {m: "2..=60", n: "1..=60"}
//! let: {M: "2*m", d: "gcd(2*m, n+1)", dp: "gcd(m, n+1)"}
//! where: "d == dp"
//! tokens: "!divides(d, b)"      # or `token: "(1,1)"`
//! cover: rotation               # or `each` (default)
//! play:
//!   kernel: "divides(2*dp, i+j) != divides(2*dp, i-j)"
//! ```
//!
//! A play is `kernel` (P), `replies` (P: every opponent move answered), or `move` followed by
//! `kernel` or `replies` (N). A kernel is a predicate over (i, j) or
//! `{vertices: [...], family: {index: i, range: "0..k", vertices: [...]}}`. Vertices are
//! written `(e1,e2)` with formulas for the coordinates.

use super::header::RawHeader;
use super::raw::{RawRange, Sp};
use super::{expectation, formula, nested_formula, outputs, params, Source, Spec, SpecError};
use crate::check::certificate::{
    After, Certificate, Cover, CrossCheck, CrossSolver, KernelFamily, KernelRule, Node, Proof,
    Reply, Tokens, VertexTemplate,
};
use indexmap::IndexMap;
use schemars::JsonSchema;
use serde::Deserialize;

/// `kind: certificate`: an even-kernel or play-tree certificate over a range of instances.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawCertificate {
    /// The graph, e.g. "SP_{M,n}" (stacked prisms of any size; other graphs up to 64 vertices).
    pub graph: Sp<String>,
    #[serde(default)]
    pub params: IndexMap<String, Sp<RawRange>>,
    /// Named values, in order: `d: "gcd(2*m, n+1)"`.
    #[serde(default, rename = "let")]
    pub lets: IndexMap<String, Sp<String>>,
    /// Predicate selecting instances.
    #[serde(default, rename = "where")]
    pub filter: Option<Sp<String>>,
    /// One token vertex, e.g. "(1,1)".
    #[serde(default)]
    pub token: Option<Sp<String>>,
    /// Every vertex (a, b) satisfying this predicate is a token.
    #[serde(default)]
    pub tokens: Option<Sp<String>>,
    /// `each` (default) or `rotation`.
    #[serde(default)]
    pub cover: Option<Sp<String>>,
    /// The certificate: a kernel, or a tree of moves ending in kernels.
    #[serde(default)]
    pub play: Option<Sp<RawNode>>,
    /// `gf2`: the certificate is computed by the GF(2) criterion (and checked); `trail`: by
    /// the reconstructed construction of Thm 13 (and checked); `trail_printed`: the same with S
    /// as printed, without the mirror images.
    #[serde(default)]
    pub solver: Option<Sp<String>>,
    /// With `solver`: the claimed outcome, P or N.
    #[serde(default)]
    pub outcome: Option<Sp<String>>,
    #[serde(default)]
    pub cross_check: Option<Sp<RawCrossCheck>>,
    /// Predicate over the parameters choosing the instance drawn by the templates.
    #[serde(default)]
    pub draw: Option<Sp<String>>,
    /// The paper's number of the figure the spec draws, e.g. "4".
    #[serde(default)]
    pub figure: Option<Sp<String>>,
    /// The figure's caption, as LaTeX text (math in `$…$`); default: one derived from the
    /// graph and the moves drawn.
    #[serde(default)]
    pub caption: Option<Sp<String>>,
}

/// A node of a play tree.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawNode {
    /// Our move: the vertex the token goes to.
    #[serde(default, rename = "move")]
    pub mv: Option<String>,
    #[serde(default)]
    pub kernel: Option<RawKernel>,
    /// Every move of the opponent, each answered.
    #[serde(default)]
    pub replies: Option<Vec<RawReply>>,
}

/// An opponent's move and our answer.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawReply {
    pub reply: String,
    #[serde(rename = "move")]
    pub mv: String,
    #[serde(default)]
    pub kernel: Option<RawKernel>,
    #[serde(default)]
    pub replies: Option<Vec<RawReply>>,
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum RawKernel {
    /// Predicate over the coordinates i, j.
    Rule(String),
    List(RawKernelList),
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawKernelList {
    #[serde(default)]
    pub vertices: Vec<String>,
    #[serde(default)]
    pub family: Option<RawFamily>,
}

/// `{index: i, range: "0..k", vertices: ["(6*i+1,1)", ...]}`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawFamily {
    pub index: String,
    /// `from..to` (exclusive) or `from..=to`, both formulas.
    pub range: String,
    pub vertices: Vec<String>,
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawCrossCheck {
    /// `exhaustive` or `gf2`.
    pub solver: String,
    pub max_vertices: usize,
}

fn vertex<T>(src: &Source, at: &Sp<T>, text: &str) -> Result<VertexTemplate, SpecError> {
    let t = text.trim();
    if let Some(inner) = t.strip_prefix('(').and_then(|r| r.strip_suffix(')')) {
        let parts = crate::graph::split_top_level(inner, ',');
        if let [a, b] = parts.as_slice() {
            return Ok(VertexTemplate::Coords(
                nested_formula(src, at, a.trim())?,
                nested_formula(src, at, b.trim())?,
            ));
        }
    }
    Ok(VertexTemplate::Name(t.to_string()))
}

fn kernel<T>(src: &Source, at: &Sp<T>, k: &RawKernel) -> Result<KernelRule, SpecError> {
    Ok(match k {
        RawKernel::Rule(r) => KernelRule::Predicate(nested_formula(src, at, r)?),
        RawKernel::List(l) => {
            let family = match &l.family {
                None => None,
                Some(f) => {
                    let r = match super::range::split(&f.range) {
                        Ok(Some(r)) => r,
                        Ok(None) => {
                            return Err(src.error(
                                at,
                                format!("bad family range `{}`", f.range),
                                Some("expected from..<to or from..=to, e.g. 0..<k".into()),
                            ))
                        }
                        Err(e) => return Err(src.error(at, e.to_string(), None)),
                    };
                    let (a, b, inclusive) = (r.from, r.to, r.inclusive);
                    let to = if inclusive {
                        format!("({}) + 1", b.trim())
                    } else {
                        b.trim().to_string()
                    };
                    Some(KernelFamily {
                        index: f.index.clone(),
                        from: nested_formula(src, at, a.trim())?,
                        to: nested_formula(src, at, &to)?,
                        vertices: f
                            .vertices
                            .iter()
                            .map(|v| vertex(src, at, v))
                            .collect::<Result<_, _>>()?,
                    })
                }
            };
            KernelRule::List {
                vertices: l
                    .vertices
                    .iter()
                    .map(|v| vertex(src, at, v))
                    .collect::<Result<_, _>>()?,
                family,
            }
        }
    })
}

fn after<T>(
    src: &Source,
    at: &Sp<T>,
    k: &Option<RawKernel>,
    r: &Option<Vec<RawReply>>,
) -> Result<After, SpecError> {
    match (k, r) {
        (Some(k), None) => Ok(After::Kernel(kernel(src, at, k)?)),
        (None, Some(rs)) => Ok(After::Replies(
            rs.iter()
                .map(|r| {
                    Ok(Reply {
                        reply: vertex(src, at, &r.reply)?,
                        node: Node {
                            mv: Some(vertex(src, at, &r.mv)?),
                            after: after(src, at, &r.kernel, &r.replies)?,
                        },
                    })
                })
                .collect::<Result<_, SpecError>>()?,
        )),
        _ => Err(src.error(
            at,
            "after a move (or at the start) give either `kernel` or `replies`",
            Some("`replies: []` states that the opponent has no move".into()),
        )),
    }
}

pub(crate) fn validate_certificate(
    src: &Source,
    id: &str,
    h: &RawHeader,
    r: RawCertificate,
) -> Result<Spec, SpecError> {
    let ps = params(src, &r.params)?;
    let lets = r
        .lets
        .iter()
        .map(|(k, v)| Ok((k.clone(), formula(src, v)?, src.loc(v))))
        .collect::<Result<Vec<_>, SpecError>>()?;
    let filter = r.filter.as_ref().map(|f| formula(src, f)).transpose()?;
    let cover = match &r.cover {
        None => Cover::Each,
        Some(c) => match c.value().as_str() {
            "each" => Cover::Each,
            "rotation" => Cover::Rotation,
            other => {
                return Err(src.error(
                    c,
                    format!("unknown cover `{other}`"),
                    Some("expected `each` or `rotation`".into()),
                ))
            }
        },
    };
    let tokens = match (&r.token, &r.tokens) {
        (Some(t), None) => {
            if cover == Cover::Rotation {
                return Err(src.error(
                    r.cover.as_ref().expect("cover was given"),
                    "`cover: rotation` needs `tokens` (a predicate over a, b)",
                    None,
                ));
            }
            Tokens::One(vertex(src, t, t.value())?)
        }
        (None, Some(t)) => Tokens::Rule(formula(src, t)?, cover),
        _ => return Err(src.error(
            &h.kind,
            "a certificate names either `token` (one vertex) or `tokens` (a predicate over a, b)",
            None,
        )),
    };
    let proof = match (&r.play, &r.solver) {
        (Some(p), None) => {
            if let Some(o) = &r.outcome {
                return Err(src.error(
                    o,
                    "the outcome of a play certificate follows from its root",
                    Some(
                        "a root `move` certifies N; a root `kernel` or `replies` certifies P"
                            .into(),
                    ),
                ));
            }
            let node = Node {
                mv: p
                    .value()
                    .mv
                    .as_ref()
                    .map(|m| vertex(src, p, m))
                    .transpose()?,
                after: after(src, p, &p.value().kernel, &p.value().replies)?,
            };
            if cover == Cover::Rotation
                && (node.mv.is_some() || !matches!(node.after, After::Kernel(_)))
            {
                return Err(src.error(
                    p,
                    "`cover: rotation` rotates one kernel: the play must be a `kernel`",
                    None,
                ));
            }
            Proof::Play(Box::new(node))
        }
        (None, Some(s)) if s.value() == "trail" || s.value() == "trail_printed" => {
            if r.outcome.as_ref().is_some_and(|o| o.value() != "N") {
                return Err(src.error(
                    r.outcome.as_ref().expect("given"),
                    "the trail construction of Thm 13 certifies N-positions",
                    None,
                ));
            }
            Proof::Trail {
                mirror: s.value() == "trail",
            }
        }
        (None, Some(s)) => {
            if s.value() != "gf2" {
                return Err(src.error(
                    s,
                    format!("unknown solver `{}`", s.value()),
                    Some("expected `gf2`, `trail` or `trail_printed`".into()),
                ));
            }
            let claimed_p = match r.outcome.as_ref().map(|o| (o, o.value().as_str())) {
                Some((_, "P")) => true,
                Some((_, "N")) => false,
                Some((o, other)) => {
                    return Err(src.error(
                        o,
                        format!("unknown outcome `{other}`"),
                        Some("expected P or N".into()),
                    ))
                }
                None => {
                    return Err(src.error(s, "`solver` needs the claimed `outcome`", None));
                }
            };
            Proof::Gf2 { claimed_p }
        }
        _ => return Err(src.error(&h.kind, "a certificate has either `play` or `solver`", None)),
    };
    let cross_check = match &r.cross_check {
        None => None,
        Some(c) => Some(CrossCheck {
            solver: match c.value().solver.as_str() {
                "exhaustive" => CrossSolver::Exhaustive,
                "gf2" => CrossSolver::Gf2,
                other => {
                    return Err(src.error(
                        c,
                        format!("unknown solver `{other}`"),
                        Some("expected `exhaustive` or `gf2`".into()),
                    ))
                }
            },
            max_vertices: c.value().max_vertices,
        }),
    };
    if let Some(CrossCheck {
        solver: CrossSolver::Exhaustive,
        max_vertices,
    }) = cross_check
    {
        if max_vertices > 64 {
            return Err(src.error(
                r.cross_check.as_ref().expect("given"),
                "the exhaustive solver handles graphs with at most 64 vertices",
                None,
            ));
        }
    }
    let draw = r.draw.as_ref().map(|f| formula(src, f)).transpose()?;
    if let Some(c) = &r.caption {
        crate::text::texlabel::validate_text(c.value())
            .map_err(|why| src.error(c, format!("caption: {why}"), None))?;
        // An unescaped `%` would comment out the end of the \caption line.
        if c.value()
            .match_indices('%')
            .any(|(k, _)| !c.value()[..k].ends_with('\\'))
        {
            return Err(src.error(c, "caption: write `\\%` for a percent sign", None));
        }
    }
    let cert = Certificate {
        id: id.to_string(),
        file: src.file.to_string(),
        source: h.source.value().clone(),
        notes: h.notes.clone(),
        graph: r.graph.value().clone(),
        loc: src.loc(&r.graph),
        params: ps,
        lets,
        filter,
        tokens,
        proof,
        cross_check,
        draw,
        figure: r.figure.as_ref().map(|f| f.value().clone()),
        caption: r.caption.as_ref().map(|c| c.value().clone()),
        expect: expectation(src, h)?,
    };
    Ok(Spec::new(cert, outputs(src, &h.output)?))
}
