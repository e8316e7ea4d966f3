//! Games given directly by their family of generating sets, as in the general impartial
//! hypergraph game: `Sets({1,2},{2,3,4})` inline, or `sets:<path>` (a file, one set per line,
//! elements separated by spaces or commas, `#` comments), or `Blocks(c,[b1,..])` (the sets V
//! minus one block of a partition of V into a core and blocks). The ground set is every element
//! named; S generates iff it contains a listed set, so cl(S) = X then and S otherwise (an
//! extensive, monotone operator whose minimal generating sets are the minimal listed sets).

use super::{ClosureOperator, Operator, Set};
use crate::game::family::FormDoc;
use crate::game::features::FeatureDoc;
use crate::game::Value;
use std::sync::Arc;

pub const OPERATOR: Operator = Operator {
    kind: "sets",
    about: "a family of generating sets, inline Sets({..},..) or a file sets:<path>",
    forms: &[
        FormDoc {
            syntax: "Sets({..},..)",
            example: "GEN(Sets({1,2},{2,3}))",
            meaning: "the structure whose minimal generating sets are those given (a hypergraph)",
        },
        FormDoc {
            syntax: "Blocks(c,[b1,..])",
            example: "TER(Blocks(1,[3,1,1]))",
            meaning: "the family of the sets V minus one block, V a core of c elements and disjoint blocks of b1, .. elements (TER: 𝒩* = the blocks)",
        },
        FormDoc {
            syntax: "sets:<path>",
            example: "GEN(sets:family.txt)",
            meaning: "the same, one generating set a line in a file",
        },
    ],
    read: |text, _| {
        let t = text.trim();
        if let Some(path) = t.strip_prefix("sets:") {
            return Some(
                // In a spec, a relative path is read from the spec's folder (as `file:`).
                crate::files::read_regular_text(
                    &crate::graph::io::resolve(std::path::Path::new(path)),
                    MAX_FILE_BYTES,
                )
                .map_err(|e| format!("generating sets file {path}: {e}"))
                .and_then(|body| {
                    let lines: Vec<Vec<String>> = body
                        .lines()
                        .map(|l| l.split('#').next().unwrap_or(""))
                        .filter(|l| !l.trim().is_empty())
                        .map(|l| {
                            l.split(|c: char| c == ',' || c.is_whitespace())
                                .filter(|x| !x.is_empty())
                                .map(str::to_string)
                                .collect()
                        })
                        .collect();
                    SetsOperator::new(t.to_string(), lines)
                })
                .map(|op| super::read_from_file(Arc::new(op))),
            );
        }
        if let Some(inner) = t.strip_prefix("Blocks(") {
            return Some(
                inner
                    .strip_suffix(')')
                    .ok_or_else(|| "Blocks(..) is never closed".to_string())
                    .and_then(blocks)
                    .and_then(|sets| SetsOperator::new(t.split_whitespace().collect(), sets))
                    .map(|op| Arc::new(op) as Arc<dyn ClosureOperator>),
            );
        }
        let inner = t.strip_prefix("Sets(")?.strip_suffix(')');
        Some(
            inner
                .ok_or_else(|| "Sets(..) is never closed".to_string())
                .and_then(parse_inline)
                .and_then(|sets| SetsOperator::new(t.split_whitespace().collect(), sets))
                .map(|op| Arc::new(op) as Arc<dyn ClosureOperator>),
        )
    },
};

/// Largest `sets:` file read (a FIFO, a device or a larger file is refused before reading).
pub const MAX_FILE_BYTES: u64 = 16 << 20;

/// Most elements and sets a family may have.
pub const MAX_ELEMENTS: usize = 64;
pub const MAX_SETS: usize = 100_000;

/// `Blocks(c,[b1,..])`: the elements 1..=c (the core) and then at least two disjoint blocks of
/// b1, .. elements; the generating sets are V minus each block, so that (removing games) 𝒩* is the
/// family of the blocks, pairwise disjoint, with the core outside their union (seed 000
/// Prop 4.4's hypotheses, with |𝒩*| the number of blocks).
fn blocks(inner: &str) -> Result<Vec<Vec<String>>, String> {
    let bad = || format!("`Blocks({inner})` is not Blocks(c,[b1,..]) with c >= 0 and blocks >= 1");
    let (c, rest) = inner.split_once(',').ok_or_else(bad)?;
    let core: usize = c.trim().parse().map_err(|_| bad())?;
    let list = rest
        .trim()
        .strip_prefix('[')
        .and_then(|r| r.strip_suffix(']'))
        .ok_or_else(bad)?;
    let sizes: Vec<usize> = list
        .split(',')
        .map(|x| x.trim().parse::<usize>().ok().filter(|&b| b >= 1))
        .collect::<Option<_>>()
        .ok_or_else(bad)?;
    if sizes.len() < 2 {
        return Err(format!(
            "`Blocks({inner})`: at least two blocks (the elements of a lone block would be in no generating set, so not in the ground set)"
        ));
    }
    let total = core + sizes.iter().sum::<usize>();
    if total > MAX_ELEMENTS {
        return Err(format!(
            "`Blocks({inner})`: more than {MAX_ELEMENTS} elements"
        ));
    }
    let mut start = core + 1;
    let mut out = Vec::new();
    for b in sizes {
        let block = start..start + b;
        out.push(
            (1..=total)
                .filter(|x| !block.contains(x))
                .map(|x| x.to_string())
                .collect(),
        );
        start += b;
    }
    Ok(out)
}

fn parse_inline(inner: &str) -> Result<Vec<Vec<String>>, String> {
    let mut out = Vec::new();
    let mut rest = inner.trim();
    while !rest.is_empty() {
        let body = rest
            .strip_prefix('{')
            .ok_or_else(|| format!("expected a set such as {{1,2}} at `{rest}`"))?;
        let close = body.find('}').ok_or("a set is never closed")?;
        out.push(
            body[..close]
                .split(',')
                .map(str::trim)
                .filter(|x| !x.is_empty())
                .map(str::to_string)
                .collect(),
        );
        rest = body[close + 1..].trim_start();
        rest = rest.strip_prefix(',').unwrap_or(rest).trim_start();
    }
    Ok(out)
}

#[derive(Debug)]
pub struct SetsOperator {
    name: String,
    names: Vec<String>,
    /// The inclusion-minimal listed sets.
    minimal: Vec<Set>,
}

impl SetsOperator {
    pub fn new(name: String, sets: Vec<Vec<String>>) -> Result<SetsOperator, String> {
        if sets.is_empty() {
            return Err(format!("{name}: no generating sets"));
        }
        if sets.len() > MAX_SETS {
            return Err(format!("{name}: more than {MAX_SETS} sets"));
        }
        let mut names: Vec<String> = sets.iter().flatten().cloned().collect();
        // Numbers in numeric order, then names.
        names.sort_by(|a, b| match (a.parse::<u64>(), b.parse::<u64>()) {
            (Ok(x), Ok(y)) => x.cmp(&y),
            _ => a.cmp(b),
        });
        names.dedup();
        if names.len() > MAX_ELEMENTS {
            return Err(format!("{name}: more than {MAX_ELEMENTS} elements"));
        }
        let n = names.len();
        let mut all: Vec<Set> = sets
            .iter()
            .map(|s| {
                let mut b = Set::with_capacity(n);
                for x in s {
                    b.insert(names.iter().position(|y| y == x).unwrap_or(0));
                }
                b
            })
            .collect();
        all.sort_by_key(|s| s.count_ones(..));
        let mut minimal: Vec<Set> = Vec::new();
        for s in all {
            if !minimal.iter().any(|m| m.is_subset(&s)) {
                minimal.push(s);
            }
        }
        minimal.sort();
        Ok(SetsOperator {
            name,
            names,
            minimal,
        })
    }
}

/// The features of a hypergraph game given by its generating sets.
pub const FEATURES: &[FeatureDoc] = &[FeatureDoc {
    name: "generating_sets",
    meaning: "the number of minimal generating sets given",
}];

impl ClosureOperator for SetsOperator {
    fn feature_docs(&self) -> &'static [FeatureDoc] {
        FEATURES
    }
    fn certificate_order(&self) -> Option<super::CertificateOrder> {
        Some(super::CertificateOrder::ByName)
    }
    fn kind(&self) -> &'static str {
        "sets"
    }
    fn structure(&self) -> String {
        self.name.clone()
    }
    fn size(&self) -> usize {
        self.names.len()
    }
    fn element_name(&self, i: usize) -> String {
        self.names[i].clone()
    }
    fn close(&self, s: &Set) -> Set {
        if self.generates(s) {
            let mut all = Set::with_capacity(self.size());
            all.insert_range(..);
            all
        } else {
            s.clone()
        }
    }
    fn generates(&self, s: &Set) -> bool {
        self.minimal.iter().any(|m| m.is_subset(s))
    }
    fn minimal_generating(&self, _budget: u64) -> Option<Vec<Set>> {
        Some(self.minimal.clone())
    }
    fn features(&self) -> Vec<(String, Value)> {
        vec![(
            "generating_sets".into(),
            Value::Int(self.minimal.len() as i64),
        )]
    }
}
