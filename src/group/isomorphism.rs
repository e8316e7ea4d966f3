//! Whether two finite groups are isomorphic, for a spec's `is:` declaration (docs/design.md §2,
//! "What a group is"; issue 42 item 4): a claim about Dih(Z_3 × Z_3) encoded by permutations
//! that generate Sym(3) × Z_3 is refused, with the invariant that tells them apart.
//!
//! First the invariants a report prints (order, how many elements of each order, the centre's
//! order, abelian or not): groups that differ in one are not isomorphic, and the difference is
//! the reason given. Then a search for an isomorphism: a generating set of the first group
//! whose elements have few candidates (elements of the same order in the second), each
//! assignment of images extended along the Cayley graph into a map that must be a
//! well-defined bijective homomorphism. A map that passes is checked on the whole
//! multiplication table, so "isomorphic" is never said of groups that are not; past
//! [`SEARCH_BUDGET`] steps of extension (about a second) the answer is "not decided".

use super::Group;
use std::collections::BTreeMap;

/// Steps of extension (an element times a generator, summed over the assignments tried)
/// before the search gives up.
pub const SEARCH_BUDGET: u64 = 50_000_000;

/// A group's invariants, as the report prints them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invariants {
    pub order: usize,
    /// Element order ↦ how many elements have it.
    pub element_orders: BTreeMap<usize, usize>,
    pub centre: usize,
    pub abelian: bool,
}

impl Invariants {
    pub fn of(g: &Group) -> Invariants {
        let n = g.order();
        let mut element_orders = BTreeMap::new();
        for a in 0..n {
            *element_orders.entry(g.element_order(a)).or_insert(0) += 1;
        }
        let centre = (0..n)
            .filter(|&a| {
                g.generators()
                    .iter()
                    .all(|&x| g.mul(a, x as usize) == g.mul(x as usize, a))
            })
            .count();
        Invariants {
            order: n,
            element_orders,
            centre,
            abelian: centre == n,
        }
    }

    /// "order 18, non-abelian, centre of order 3; elements of order 1: 1, 2: 3, 3: 8, 6: 6".
    pub fn describe(&self) -> String {
        let orders: Vec<String> = self
            .element_orders
            .iter()
            .map(|(o, k)| format!("{o}: {k}"))
            .collect();
        format!(
            "order {}, {}, centre of order {}; elements of order {}",
            self.order,
            if self.abelian {
                "abelian"
            } else {
                "non-abelian"
            },
            self.centre,
            orders.join(", ")
        )
    }

    /// The first invariant in which `self` and `other` differ, in words.
    fn difference(&self, other: &Invariants) -> Option<String> {
        if self.order != other.order {
            return Some(format!("orders {} and {}", self.order, other.order));
        }
        if self.abelian != other.abelian {
            let word = |a: bool| if a { "abelian" } else { "non-abelian" };
            return Some(format!(
                "one is {} and the other {}",
                word(self.abelian),
                word(other.abelian)
            ));
        }
        if self.centre != other.centre {
            return Some(format!(
                "centres of orders {} and {}",
                self.centre, other.centre
            ));
        }
        let all: std::collections::BTreeSet<usize> = self
            .element_orders
            .keys()
            .chain(other.element_orders.keys())
            .copied()
            .collect();
        for o in all {
            let (a, b) = (
                self.element_orders.get(&o).copied().unwrap_or(0),
                other.element_orders.get(&o).copied().unwrap_or(0),
            );
            if a != b {
                return Some(format!("{a} and {b} elements of order {o}"));
            }
        }
        None
    }
}

/// The answer of [`isomorphic`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    Isomorphic,
    /// Not isomorphic, and why (an invariant that differs, or the exhausted search).
    Not(String),
    /// The search passed [`SEARCH_BUDGET`] steps.
    Undecided,
}

/// Whether `g` and `h` are isomorphic.
pub fn isomorphic(g: &Group, h: &Group) -> Answer {
    let (ig, ih) = (Invariants::of(g), Invariants::of(h));
    if let Some(d) = ig.difference(&ih) {
        return Answer::Not(d);
    }
    let n = g.order();
    let gens = small_generating_set(g);
    // Candidates for each generator's image: the elements of h of the same order.
    let candidates: Vec<Vec<usize>> = gens
        .iter()
        .map(|&x| {
            let o = g.element_order(x);
            (0..n).filter(|&y| h.element_order(y) == o).collect()
        })
        .collect();
    if gens.is_empty() {
        // The trivial group, and h has its order.
        return Answer::Isomorphic;
    }
    let mut images = vec![0usize; gens.len()];
    let mut tried = 0u64;
    let found = assign(g, h, &gens, &candidates, 0, &mut images, &mut tried);
    match found {
        Some(true) => Answer::Isomorphic,
        Some(false) => {
            Answer::Not("no assignment of the generators' images extends to an isomorphism".into())
        }
        None => Answer::Undecided,
    }
}

/// Tries every image of generator `i` onwards: `Some(true)` when an isomorphism is found,
/// `Some(false)` when none exists, `None` past the budget. An image is kept only when the map
/// so far extends to an injective homomorphism of the subgroup the first generators generate
/// (the restriction of an isomorphism is one), which prunes the search level by level.
fn assign(
    g: &Group,
    h: &Group,
    gens: &[usize],
    candidates: &[Vec<usize>],
    i: usize,
    images: &mut Vec<usize>,
    tried: &mut u64,
) -> Option<bool> {
    for &y in &candidates[i] {
        images[i] = y;
        let (map, steps) = phi(g, h, &gens[..=i], &images[..=i]);
        *tried += steps;
        if *tried > SEARCH_BUDGET {
            return None;
        }
        if map.is_none() {
            continue;
        }
        if i + 1 == gens.len() {
            // The generators generate g: an injective homomorphism onto as many elements.
            return Some(is_isomorphism(g, h, gens, images));
        }
        match assign(g, h, gens, candidates, i + 1, images, tried) {
            Some(false) => {}
            other => return other,
        }
    }
    Some(false)
}

/// The map generators ↦ images extended along the Cayley graph of the subgroup they generate
/// (φ(x · s) = φ(x) · φ(s)), or `None` when it is not consistent and injective (then no
/// injective homomorphism extends it); with the steps it took either way, for the budget.
fn phi(g: &Group, h: &Group, gens: &[usize], images: &[usize]) -> (Option<Vec<usize>>, u64) {
    let n = g.order();
    let mut phi = vec![usize::MAX; n];
    let mut used = vec![false; h.order()];
    phi[0] = 0;
    used[0] = true;
    let mut steps = 0u64;
    let mut queue = std::collections::VecDeque::from([0usize]);
    while let Some(x) = queue.pop_front() {
        for (&s, &t) in gens.iter().zip(images) {
            steps += 1;
            let (y, fy) = (g.mul(x, s), h.mul(phi[x], t));
            if phi[y] == usize::MAX {
                if used[fy] {
                    return (None, steps);
                }
                phi[y] = fy;
                used[fy] = true;
                queue.push_back(y);
            } else if phi[y] != fy {
                return (None, steps);
            }
        }
    }
    (Some(phi), steps)
}

/// Whether generators ↦ images is an isomorphism g → h, checked on the whole multiplication
/// table (so a map accepted here is one, whatever the search before it).
fn is_isomorphism(g: &Group, h: &Group, gens: &[usize], images: &[usize]) -> bool {
    let n = g.order();
    let (Some(phi), _) = phi(g, h, gens, images) else {
        return false;
    };
    h.order() == n
        && phi.iter().all(|&v| v != usize::MAX)
        && (0..n).all(|a| (0..n).all(|b| phi[g.mul(a, b)] == h.mul(phi[a], phi[b])))
}

/// A generating set of g, chosen greedily by largest element order (few generators, each with
/// few candidate images).
fn small_generating_set(g: &Group) -> Vec<usize> {
    let n = g.order();
    let mut by_order: Vec<usize> = (1..n).collect();
    by_order.sort_by_key(|&a| std::cmp::Reverse(g.element_order(a)));
    let mut gens = Vec::new();
    let mut span = g.generate(std::iter::empty());
    for a in by_order {
        if span.count_ones(..) == n {
            break;
        }
        if !span.contains(a) {
            gens.push(a);
            span = g.generate(gens.iter().copied());
        }
    }
    gens
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::group::families::parse_group;

    fn answer(a: &str, b: &str) -> Answer {
        isomorphic(&parse_group(a).unwrap(), &parse_group(b).unwrap())
    }

    #[test]
    fn presentations_of_one_group_are_isomorphic() {
        for (a, b) in [
            ("Sym(3)", "Dih(3)"),
            ("Cyc(6)", "Cyc(2) x Cyc(3)"),
            ("Dih(Cyc(5))", "Dih(5)"),
            ("Dih(2)", "Cyc(2) x Cyc(2)"),
            ("Dic(1)", "Cyc(4)"),
            ("Sym(3) x Cyc(3)", "Perm((1,2),(1,2,3),(4,5,6))"),
            ("Dih(Cyc(3) x Cyc(3))", "Perm((1,2,3),(4,5,6),(2,3)(5,6))"),
            ("Dih(6)", "Sym(3) x Cyc(2)"),
            ("Alt(4)", "Perm((1,2,3),(1,2)(3,4))"),
            ("Sym(4)", "Perm((1,2,3,4),(1,2))"),
            // Eight generators with 255 candidates each: found by pruning level by level.
            (
                "Cyc(2) x Cyc(2) x Cyc(2) x Cyc(2) x Cyc(2) x Cyc(2) x Cyc(2) x Cyc(2)",
                "Dih(2) x Dih(2) x Dih(2) x Dih(2)",
            ),
        ] {
            assert_eq!(answer(a, b), Answer::Isomorphic, "{a} ≅ {b}");
        }
    }

    #[test]
    fn different_groups_are_told_apart_with_the_reason() {
        // Sym(3) × Z_3 and Dih(Z_3 × Z_3) (order 18): the centre Z_3 against the trivial one
        // (and 3 involutions against 9).
        assert_eq!(
            answer("Sym(3) x Cyc(3)", "Dih(Cyc(3) x Cyc(3))"),
            Answer::Not("centres of orders 3 and 1".into())
        );
        for (a, b) in [
            ("Dic(2)", "Dih(4)"),
            ("Dic(3)", "Dih(6)"),
            ("Cyc(4)", "Cyc(2) x Cyc(2)"),
            ("Sym(4)", "Alt(4) x Cyc(2)"),
            ("Cyc(8)", "Cyc(4) x Cyc(2)"),
        ] {
            assert!(matches!(answer(a, b), Answer::Not(_)), "{a} ≇ {b}");
        }
    }

    #[test]
    fn invariants_are_described() {
        let g = parse_group("Dih(Cyc(3) x Cyc(3))").unwrap();
        assert_eq!(
            Invariants::of(&g).describe(),
            "order 18, non-abelian, centre of order 1; elements of order 1: 1, 2: 9, 3: 8"
        );
    }
}
