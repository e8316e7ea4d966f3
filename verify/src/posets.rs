//! The verifier's own list of the posets on at most 7 elements, one per isomorphism class, for
//! specs that range over them (`{posets: {elements: "1..=6"}}`), each written as the
//! certificates label instances: `Poset(1<2, 1<3, 4)`, by the convention of grundy's
//! src/game/closure/enumerate.rs (a convention like the vertex numbering of the families: a
//! mismatch is a rejection, never an acceptance):
//!
//! - a *natural labelling* numbers the elements 0..n so that x < y gives a smaller number
//!   to x; its *key* is the bit string over the pairs (i, j), i < j, in graph6's column order
//!   ((0,1), (0,2), (1,2), (0,3), …, the first pair most significant), bit 1 iff i < j;
//! - the class is written by its natural labelling of the largest key: its cover relations
//!   `a<b` (numbered from 1, sorted by a, then b), then the elements comparable to none;
//! - classes are listed by size, then by key ascending.
//!
//! Derived differently from grundy (which grows posets by a new maximal element): here every
//! upper-triangular bit pattern on n labels is tried (2^21 on 7), kept when it is transitive
//! (then it is a naturally labelled poset) and when no other natural labelling of the same
//! poset has a larger key. Every poset has a natural labelling (a linear extension), so every
//! class is found, and exactly once (the largest key of a class is unique). The counts are
//! OEIS A000112 (1, 2, 5, 16, 63, 318, 2045), which the tests check.

use std::sync::OnceLock;

/// The largest size enumerated.
pub const MAX_ELEMENTS: usize = 7;

/// `lt[j]`: the mask of labels i < j below label j, from a key.
fn relation(n: usize, key: u32) -> Vec<u32> {
    let m = n * n.saturating_sub(1) / 2;
    let mut lt = vec![0u32; n];
    let mut k = 0;
    for j in 1..n {
        for i in 0..j {
            if key >> (m - 1 - k) & 1 == 1 {
                lt[j] |= 1 << i;
            }
            k += 1;
        }
    }
    lt
}

/// i < j < k with i < j and j < k gives i < k.
fn transitive(lt: &[u32]) -> bool {
    (0..lt.len()).all(|k| (0..k).all(|j| lt[k] >> j & 1 == 0 || lt[j] & !lt[k] == 0))
}

/// Whether no natural relabelling of the poset has a larger key than the labelling given:
/// a depth-first search over the relabellings, position by position, that compares the
/// column of each position with the given one (smaller: no relabelling extending this prefix
/// is larger; larger: the given key is not the largest).
fn largest(lt: &[u32]) -> bool {
    let n = lt.len();
    // `order[p]`: the element (old label) given new label p.
    fn search(lt: &[u32], order: &mut Vec<usize>, used: u32) -> bool {
        let (n, p) = (lt.len(), order.len());
        if p == n {
            return true;
        }
        for x in 0..n {
            // New label p for x: x unused and everything below x already relabelled.
            if used >> x & 1 == 1 || lt[x] & !used != 0 {
                continue;
            }
            // Column p under the relabelling against the given column p, bit by bit from
            // row 0 (the most significant).
            let mut cmp = std::cmp::Ordering::Equal;
            for (i, &y) in order.iter().enumerate() {
                let new = lt[x] >> y & 1;
                let old = lt[p] >> i & 1;
                if new != old {
                    cmp = new.cmp(&old);
                    break;
                }
            }
            match cmp {
                std::cmp::Ordering::Greater => return false,
                std::cmp::Ordering::Less => continue,
                std::cmp::Ordering::Equal => {
                    order.push(x);
                    let ok = search(lt, order, used | 1 << x);
                    order.pop();
                    if !ok {
                        return false;
                    }
                }
            }
        }
        true
    }
    search(lt, &mut Vec::with_capacity(n), 0)
}

/// The largest keys of the classes on `n` elements, ascending.
fn keys(n: usize) -> Vec<u32> {
    let m = n * (n - 1) / 2;
    (0u32..1 << m)
        .filter(|&k| {
            let lt = relation(n, k);
            transitive(&lt) && largest(&lt)
        })
        .collect()
}

/// The name of the poset on `n` labels with the given key.
fn name(n: usize, key: u32) -> String {
    let lt = relation(n, key);
    let less = |a: usize, b: usize| a < b && lt[b] >> a & 1 == 1;
    let mut items: Vec<String> = Vec::new();
    for a in 0..n {
        for b in 0..n {
            if less(a, b) && !(0..n).any(|c| less(a, c) && less(c, b)) {
                items.push(format!("{}<{}", a + 1, b + 1));
            }
        }
    }
    for a in 0..n {
        if (0..n).all(|b| !less(a, b) && !less(b, a)) {
            items.push(format!("{}", a + 1));
        }
    }
    format!("Poset({})", items.join(", "))
}

/// The posets on `n` elements up to isomorphism, named and ordered as the module says;
/// `None` outside 1..=[`MAX_ELEMENTS`].
pub fn posets(n: usize) -> Option<Vec<String>> {
    if !(1..=MAX_ELEMENTS).contains(&n) {
        return None;
    }
    static ALL: OnceLock<Vec<OnceLock<Vec<String>>>> = OnceLock::new();
    let all = ALL.get_or_init(|| (0..=MAX_ELEMENTS).map(|_| OnceLock::new()).collect());
    Some(
        all[n]
            .get_or_init(|| keys(n).into_iter().map(|k| name(n, k)).collect())
            .clone(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// OEIS A000112: posets on n unlabelled elements.
    #[test]
    fn counts_are_a000112() {
        let counts: Vec<usize> = (1..=7).map(|n| posets(n).unwrap().len()).collect();
        assert_eq!(counts, [1, 2, 5, 16, 63, 318, 2045]);
        assert!(posets(0).is_none() && posets(8).is_none());
    }

    /// The classes on three elements by hand: keys over (0,1), (0,2), (1,2) are 000 (the
    /// antichain), 011 (the ∧: 1, 2 < 3), 100 (a chain of two and a point; 010 and 001 are
    /// the same poset, smaller), 110 (the V: 1 < 2, 3) and 111 (the chain).
    #[test]
    fn three_elements_by_hand() {
        assert_eq!(posets(1).unwrap(), ["Poset(1)"]);
        assert_eq!(posets(2).unwrap(), ["Poset(1, 2)", "Poset(1<2)"]);
        assert_eq!(
            posets(3).unwrap(),
            [
                "Poset(1, 2, 3)",
                "Poset(1<3, 2<3)",
                "Poset(1<2, 3)",
                "Poset(1<2, 1<3)",
                "Poset(1<2, 2<3)",
            ]
        );
    }

    /// Every name on 5 elements reads back (by the verifier's own `Poset(..)` reader) as a
    /// poset with 5 elements, and no two names are the same poset: the number of linear
    /// extensions and the sorted (down, up) degree pairs are invariants, and classes that
    /// share them are compared by brute force over all 120 bijections.
    #[test]
    fn names_read_back_as_distinct_posets() {
        let list = posets(5).unwrap();
        let orders: Vec<Vec<Vec<bool>>> = list
            .iter()
            .map(|p| {
                let s = crate::structures::parse(p, crate::graph_closure::Kind::HULL).unwrap();
                assert_eq!(s.names.len(), 5, "{p}");
                crate::structures::order_of(p).unwrap()
            })
            .collect();
        let mut perms = vec![vec![]];
        for k in 0..5usize {
            perms = perms
                .into_iter()
                .flat_map(|p: Vec<usize>| {
                    (0..=k).map(move |i| {
                        let mut q = p.clone();
                        q.insert(i, k);
                        q
                    })
                })
                .collect();
        }
        for a in 0..orders.len() {
            for b in a + 1..orders.len() {
                let iso = perms.iter().any(|p| {
                    (0..5).all(|x| (0..5).all(|y| orders[a][x][y] == orders[b][p[x]][p[y]]))
                });
                assert!(!iso, "{} and {} are isomorphic", list[a], list[b]);
            }
        }
    }
}
