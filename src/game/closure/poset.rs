//! Finite posets with order-convexity (seed 000 §6 question 4; issue 31 item 2): a set is
//! order-convex when x ≤ z ≤ y with x, y in it puts z in it, so the hull of S is
//! cl(S) = ↑S ∩ ↓S = {z : x ≤ z ≤ y for some x, y ∈ S} (already convex: x ≤ a ≤ w ≤ b ≤ y).
//! Hence S generates iff it contains every minimal and every maximal element: the maximal
//! non-generating sets are X ∖ {e} for the extremal elements e, and the games depend only on
//! |X| and the number of extremal elements — which the tests check against the memo solver.
//!
//! Written `Bool(n)` (the Boolean lattice B_n of subsets of {1..n}, elements named by their
//! members, `{}` the empty set), `Div(n)` (the divisors of n under divisibility), `Chain(n)`
//! (1 < 2 < … < n), products `P x Q` (componentwise order, elements `(p,q)`), inline
//! `Poset(1<2, 1<3, 4)` (relations `a<b` or chains `a<b<c`, and lone elements, separated by
//! commas, closed transitively: the form [`super::enumerate`] names every small poset by), and
//! `poset:<path>` (a file of relations `a < b`, one per line, closed transitively; `#`
//! comments). At most 64 elements.

use super::{from_mask, to_mask, ClosureOperator, Operator, Set};
use crate::game::family::FormDoc;
use crate::game::features::FeatureDoc;
use crate::game::Value;
use std::sync::Arc;

pub const MAX_ELEMENTS: usize = 64;

pub const OPERATOR: Operator = Operator {
    kind: "poset",
    about:
        "posets (Bool(n), Div(n), Chain(n), Poset(1<2, ..), P x Q, poset:<path>): order-convex hull",
    forms: &[
        FormDoc {
            syntax: "Bool(n)",
            example: "GEN(Bool(3))",
            meaning: "the subsets of an n-set by inclusion, under the order-convex hull",
        },
        FormDoc {
            syntax: "Div(n)",
            example: "DNG(Div(12))",
            meaning: "the divisors of n by divisibility",
        },
        FormDoc {
            syntax: "Chain(n)",
            example: "GEN(Chain(5))",
            meaning: "a chain of n elements",
        },
        FormDoc {
            syntax: "Poset(a<b,..)",
            example: "GEN(Poset(1<2, 1<3))",
            meaning: "the poset of the relations given (and their transitive closure)",
        },
        FormDoc {
            syntax: "P x Q",
            example: "GEN(Chain(2) x Chain(3))",
            meaning: "the product order of posets",
        },
        FormDoc {
            syntax: "poset:<path>",
            example: "GEN(poset:order.dot)",
            meaning: "a poset read from a file",
        },
    ],
    read: |text, _| {
        let t = text.trim();
        if !looks_like_poset(t) {
            return None;
        }
        let op = parse(t).map(|p| Arc::new(p) as Arc<dyn ClosureOperator>);
        // `poset:<path>` is the one form read from a file (parse's branch for it).
        Some(if t.starts_with("poset:") {
            op.map(super::read_from_file)
        } else {
            op
        })
    },
};

fn looks_like_poset(t: &str) -> bool {
    t.starts_with("poset:")
        || t.split(" x ").all(|f| {
            let f = f.trim();
            ["Bool(", "Div(", "Chain(", "Poset("]
                .iter()
                .any(|p| f.starts_with(p))
        })
}

/// A poset on `0..n`: `up[x]` = the mask of elements ≥ x, `down[x]` of elements ≤ x.
#[derive(Debug)]
pub struct Poset {
    name: String,
    names: Vec<String>,
    up: Vec<u64>,
    down: Vec<u64>,
}

fn number(s: &str, family: &str) -> Result<u64, String> {
    s.trim()
        .parse::<u64>()
        .ok()
        .filter(|&n| n >= 1)
        .ok_or_else(|| format!("{family}({s}): expected a positive integer"))
}

impl Poset {
    /// From names and the order relation `le(a, b)` (reflexive, antisymmetric, transitive).
    fn from_relation(
        name: String,
        names: Vec<String>,
        le: impl Fn(usize, usize) -> bool,
    ) -> Result<Poset, String> {
        let n = names.len();
        if n > MAX_ELEMENTS {
            return Err(format!(
                "{name} has {n} elements; at most {MAX_ELEMENTS} are supported"
            ));
        }
        let up: Vec<u64> = (0..n)
            .map(|a| (0..n).filter(|&b| le(a, b)).fold(0, |m, b| m | 1 << b))
            .collect();
        let down: Vec<u64> = (0..n)
            .map(|b| (0..n).filter(|&a| le(a, b)).fold(0, |m, a| m | 1 << a))
            .collect();
        Ok(Poset {
            name,
            names,
            up,
            down,
        })
    }

    fn le(&self, a: usize, b: usize) -> bool {
        self.up[a] >> b & 1 == 1
    }

    /// Minimal and maximal elements (the extremal ones).
    fn extremal(&self) -> (usize, usize, u64) {
        let n = self.names.len();
        let min: Vec<usize> = (0..n).filter(|&a| self.down[a] == 1 << a).collect();
        let max: Vec<usize> = (0..n).filter(|&a| self.up[a] == 1 << a).collect();
        let mask = min.iter().chain(&max).fold(0u64, |m, &a| m | 1 << a);
        (min.len(), max.len(), mask)
    }
}

fn parse(t: &str) -> Result<Poset, String> {
    let factors: Vec<&str> = t.split(" x ").map(str::trim).collect();
    if factors.len() > 1 {
        let parts: Vec<Poset> = factors.iter().map(|f| parse(f)).collect::<Result<_, _>>()?;
        let size: usize = parts.iter().try_fold(1usize, |a, p| {
            a.checked_mul(p.names.len())
                .filter(|&s| s <= MAX_ELEMENTS)
                .ok_or_else(|| format!("{t} has more than {MAX_ELEMENTS} elements"))
        })?;
        // Element i as its coordinates (mixed radix, the first factor most significant).
        let coords = |mut i: usize| -> Vec<usize> {
            let mut c = vec![0; parts.len()];
            for (k, p) in parts.iter().enumerate().rev() {
                c[k] = i % p.names.len();
                i /= p.names.len();
            }
            c
        };
        let names = (0..size)
            .map(|i| {
                let c = coords(i);
                let shown: Vec<&str> = c
                    .iter()
                    .zip(&parts)
                    .map(|(&x, p)| p.names[x].as_str())
                    .collect();
                format!("({})", shown.join(","))
            })
            .collect();
        return Poset::from_relation(t.to_string(), names, |a, b| {
            let (ca, cb) = (coords(a), coords(b));
            parts.iter().enumerate().all(|(k, p)| p.le(ca[k], cb[k]))
        });
    }
    if let Some(path) = t.strip_prefix("poset:") {
        return from_file(t, &super::metric::read_file(path)?);
    }
    if let Some(inner) = t.strip_prefix("Poset(") {
        let inner = inner
            .strip_suffix(')')
            .ok_or_else(|| format!("`{t}`: Poset(..) is never closed"))?;
        return inline(t, inner);
    }
    let (family, arg) = t
        .strip_suffix(')')
        .and_then(|r| r.split_once('('))
        .ok_or_else(|| format!("`{t}` is not a poset"))?;
    let n = number(arg, family)?;
    match family {
        "Chain" => {
            if n as usize > MAX_ELEMENTS {
                return Err(format!("{t}: at most {MAX_ELEMENTS} elements"));
            }
            let names = (1..=n).map(|i| i.to_string()).collect();
            Poset::from_relation(t.to_string(), names, |a, b| a <= b)
        }
        "Bool" => {
            if n > 6 {
                return Err(format!(
                    "{t} has 2^{n} elements; at most {MAX_ELEMENTS} are supported"
                ));
            }
            let names = (0..1u32 << n)
                .map(|s| {
                    let m: Vec<String> = (0..n)
                        .filter(|i| s >> i & 1 == 1)
                        .map(|i| (i + 1).to_string())
                        .collect();
                    format!("{{{}}}", m.join(","))
                })
                .collect();
            Poset::from_relation(t.to_string(), names, |a, b| a & !b == 0)
        }
        "Div" => {
            if n > 1 << 40 {
                return Err(format!("{t}: n is too large"));
            }
            let divs: Vec<u64> = (1..=n)
                .filter(|d| n % d == 0)
                .take(MAX_ELEMENTS + 1)
                .collect();
            let names = divs.iter().map(u64::to_string).collect();
            Poset::from_relation(t.to_string(), names, |a, b| divs[b].is_multiple_of(divs[a]))
        }
        _ => Err(format!("`{t}` is not a poset")),
    }
}

/// Whether `s` is an element name of the inline and file forms: ASCII letters, digits and `_`,
/// either a number or not starting with a digit (the names the weighted and directed forms take,
/// and grundy-verify reads).
fn element_name(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'_')
        && (b.iter().all(u8::is_ascii_digit) || !b[0].is_ascii_digit())
}

/// Element names in order of first appearance, and the relations between them.
#[derive(Default)]
struct Relations {
    names: Vec<String>,
    rel: Vec<(usize, usize)>,
}

impl Relations {
    /// The index of element `s` (trimmed), added if new; `whence` says where, for errors.
    fn element(&mut self, s: &str, whence: &dyn Fn() -> String) -> Result<usize, String> {
        let s = s.trim();
        if s.is_empty() {
            return Err(format!("{}: an empty element", whence()));
        }
        // `Poset(1>2)` was one element named "1>2", `Poset(1<=2)` 1 < "=2" (issue 49).
        if !element_name(s) {
            return Err(format!(
                "{}: `{}` is not an element name (letters, digits and `_`, a number or not starting with a digit; relations are written `a < b`)",
                whence(),
                crate::term::excerpt(s)
            ));
        }
        if let Some(i) = self.names.iter().position(|x| x == s) {
            return Ok(i);
        }
        if self.names.len() >= MAX_ELEMENTS {
            return Err(format!("{}: more than {MAX_ELEMENTS} elements", whence()));
        }
        self.names.push(s.to_string());
        Ok(self.names.len() - 1)
    }

    /// Closed reflexively and transitively; a cycle is refused.
    fn poset(self, name: &str) -> Result<Poset, String> {
        let Relations { names, rel } = self;
        let n = names.len();
        if n == 0 {
            return Err(format!("{name}: no elements"));
        }
        let mut le = vec![vec![false; n]; n];
        for (x, row) in le.iter_mut().enumerate() {
            row[x] = true;
        }
        for &(a, b) in &rel {
            le[a][b] = true;
        }
        for k in 0..n {
            for i in 0..n {
                for j in 0..n {
                    if le[i][k] && le[k][j] {
                        le[i][j] = true;
                    }
                }
            }
        }
        if let Some((a, b)) = (0..n)
            .flat_map(|a| (0..n).map(move |b| (a, b)))
            .find(|&(a, b)| a != b && le[a][b] && le[b][a])
        {
            return Err(format!(
                "{name}: {} < {} and {} < {}: not a partial order",
                names[a], names[b], names[b], names[a]
            ));
        }
        Poset::from_relation(name.to_string(), names, |a, b| le[a][b])
    }
}

/// `a < b` lines, closed reflexively and transitively; a cycle is refused.
fn from_file(name: &str, body: &str) -> Result<Poset, String> {
    let mut r = Relations::default();
    for (ln, line) in body.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let whence = || format!("{name}: line {}", ln + 1);
        let (a, b) = line
            .split_once('<')
            .ok_or_else(|| format!("{}: expected `a < b`", whence()))?;
        let (a, b) = (r.element(a, &whence)?, r.element(b, &whence)?);
        r.rel.push((a, b));
    }
    r.poset(name)
}

/// `Poset(1<2, 2<3<4, 5)`: items separated by commas, each a chain `a<b<…` or one element.
fn inline(name: &str, inner: &str) -> Result<Poset, String> {
    let mut r = Relations::default();
    for item in inner.split(',') {
        let whence = || format!("`{name}`: item `{}`", item.trim());
        let chain: Vec<usize> = item
            .split('<')
            .map(|e| {
                if e.contains(['(', ')', '{', '}']) {
                    return Err(format!("{}: elements are names without brackets", whence()));
                }
                r.element(e, &whence)
            })
            .collect::<Result<_, _>>()?;
        r.rel.extend(chain.windows(2).map(|w| (w[0], w[1])));
    }
    r.poset(name)
}

/// The features of a poset under order-convexity.
pub const FEATURES: &[FeatureDoc] = &[
    FeatureDoc {
        name: "minimal_elements",
        meaning: "the number of minimal elements of the poset",
    },
    FeatureDoc {
        name: "maximal_elements",
        meaning: "the number of maximal elements of the poset",
    },
    FeatureDoc {
        name: "extremal_elements",
        meaning: "the number of elements that are minimal or maximal (an element comparable to none counts once)",
    },
    FeatureDoc {
        name: "relations",
        meaning: "the number of pairs a < b",
    },
];

impl ClosureOperator for Poset {
    fn feature_docs(&self) -> &'static [FeatureDoc] {
        FEATURES
    }
    fn certificate_order(&self) -> Option<super::CertificateOrder> {
        Some(super::CertificateOrder::ByName)
    }
    fn kind(&self) -> &'static str {
        "poset"
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
        let m = to_mask(s).unwrap_or(0);
        let (mut up, mut down) = (0u64, 0u64);
        for x in crate::graph::bits(m) {
            up |= self.up[x];
            down |= self.down[x];
        }
        from_mask(up & down, self.size())
    }
    /// X ∖ {e} for each extremal e: S generates iff it holds every extremal element.
    fn maximal_nongenerating(&self, _budget: u64) -> Option<Vec<Set>> {
        let n = self.size();
        let full = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        let (_, _, ext) = self.extremal();
        Some(
            crate::graph::bits(ext)
                .map(|e| from_mask(full & !(1 << e), n))
                .collect(),
        )
    }
    /// The one minimal generating set, the extremal elements: S generates iff it holds every
    /// extremal element (a minimal z is in cl(S) only if z ∈ S, likewise a maximal one), and
    /// they generate (every element lies between a minimal and a maximal one). So TER and
    /// DNT have a single maximal legal set, X minus the extremal elements.
    fn minimal_generating(&self, _budget: u64) -> Option<Vec<Set>> {
        let (_, _, ext) = self.extremal();
        Some(vec![from_mask(ext, self.size())])
    }
    /// `minimal_elements`, `maximal_elements`, `extremal_elements` (minimal or maximal: the
    /// e of Theorem 1, docs/results/closures.md), `relations` (pairs a < b).
    fn features(&self) -> Vec<(String, Value)> {
        let (min, max, ext) = self.extremal();
        let relations: u32 = self.up.iter().map(|m| m.count_ones() - 1).sum();
        vec![
            ("minimal_elements".into(), Value::Int(min as i64)),
            ("maximal_elements".into(), Value::Int(max as i64)),
            (
                "extremal_elements".into(),
                Value::Int(i64::from(ext.count_ones())),
            ),
            ("relations".into(), Value::Int(relations as i64)),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::super::{generic_minimal_generating, read_structure};
    use crate::graph::Closure;

    /// The extremal elements are the one minimal generating set: the generic search over
    /// non-generating sets (the default every operator had) finds exactly it on small posets.
    #[test]
    fn the_extremal_elements_are_the_one_minimal_generating_set() {
        for name in [
            "Chain(3) x Chain(3)",
            "Bool(3)",
            "Div(12)",
            "Chain(4)",
            "Poset(a<b, a<c, d)",
        ] {
            let op = read_structure(name, Closure::default()).unwrap();
            let want = generic_minimal_generating(op.as_ref(), 1 << 20).unwrap();
            assert_eq!(op.minimal_generating(1 << 20).unwrap(), want, "{name}");
        }
    }
}
