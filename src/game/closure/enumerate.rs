//! All posets on a few elements, one per isomorphism class (OEIS A000112: 1, 2, 5, 16, 63,
//! 318, 2045 on 1..=7 elements), for specs that range over them
//! (`{posets: {elements: "1..=6"}}`), each written inline as `Poset(1<2, 1<3, 4)`.
//!
//! *Canonical form* (a convention shared with `grundy-verify`, which derives it by its own
//! code, so it is stated exactly): a poset is labelled `0..n` by a *natural* labelling (a
//! linear extension: x < y gives label(x) < label(y)); its *key* is the bit string over the
//! pairs (i, j), i < j, ordered column by column as graph6 orders them ((0,1), (0,2), (1,2),
//! (0,3), …; the first pair most significant), bit 1 iff element i < element j. Under a
//! natural labelling the key determines the order, so the labelling with the *largest* key is
//! canonical. The name lists that labelling's cover relations `a<b` (elements 1..n, sorted by
//! a, then b), then the elements comparable to none, ascending: the chain of three is
//! `Poset(1<2, 2<3)`, the antichain of two `Poset(1, 2)`. The classes are listed by size,
//! then by key ascending (the antichain first, the chain last).
//!
//! *Generation*: every poset on n + 1 elements has a maximal element (the last of a linear
//! extension), so it is a poset on n elements with a new maximal element above a down-set;
//! each poset on n is extended by each of its down-sets (the empty one included) and the
//! result reduced to its canonical key. The largest key is found column by column: the
//! element placed at position j must be minimal among those not yet placed, its column
//! (which of positions 0..j lie below it) is compared, and only the partial labellings with
//! the largest column so far are kept — lexicographic order lets ties alone branch, so
//! 2045 posets on 7 take milliseconds.

use std::collections::BTreeSet;
use std::sync::OnceLock;

/// The largest size enumerated.
pub const MAX_ENUMERATED: usize = 7;

/// A naturally labelled poset on `0..below.len()`: `below[j]` is the mask of the labels
/// i < j whose elements are below element j (transitively closed).
type Below = Vec<u8>;

/// The key of a naturally labelled poset (the module's bit order).
#[cfg(test)]
fn key(below: &[u8]) -> u32 {
    let mut k = 0u32;
    for (j, &b) in below.iter().enumerate() {
        for i in 0..j {
            k = k << 1 | u32::from(b >> i & 1);
        }
    }
    k
}

/// The poset of `n` elements whose key is `k`.
fn from_key(n: usize, k: u32) -> Below {
    let bits = n * n.saturating_sub(1) / 2;
    let mut below = vec![0u8; n];
    let mut at = bits;
    for (j, b) in below.iter_mut().enumerate() {
        for i in 0..j {
            at -= 1;
            if k >> at & 1 == 1 {
                *b |= 1 << i;
            }
        }
    }
    below
}

/// The largest key over the natural labellings of the poset whose strict down-sets are
/// `down` (any labelling, transitively closed).
fn canonical_key(down: &[u8]) -> u32 {
    let n = down.len();
    // Partial labellings: the elements placed at positions 0..len, and their mask.
    let mut partial: Vec<(Vec<usize>, u8)> = vec![(Vec::new(), 0)];
    let mut k = 0u32;
    for pos in 0..n {
        let mut best: Option<u32> = None;
        let mut next: Vec<(Vec<usize>, u8)> = Vec::new();
        for (order, placed) in &partial {
            for (x, &dx) in down.iter().enumerate() {
                // x must be unplaced with everything below it placed (a linear extension).
                if placed >> x & 1 == 1 || dx & !placed != 0 {
                    continue;
                }
                let col = order
                    .iter()
                    .fold(0u32, |c, &y| c << 1 | u32::from(dx >> y & 1));
                if best.is_some_and(|b| col < b) {
                    continue;
                }
                if best.is_none_or(|b| col > b) {
                    best = Some(col);
                    next.clear();
                }
                let mut o = order.clone();
                o.push(x);
                next.push((o, placed | 1 << x));
            }
        }
        k = k << pos | best.expect("a finite poset has a minimal element");
        partial = next;
    }
    k
}

/// The canonical keys of the posets on 1..=7 elements, index n − 1.
fn all() -> &'static [BTreeSet<u32>] {
    static ALL: OnceLock<Vec<BTreeSet<u32>>> = OnceLock::new();
    ALL.get_or_init(|| {
        let mut out = vec![BTreeSet::from([0u32])];
        for n in 2..=MAX_ENUMERATED {
            let mut next = BTreeSet::new();
            for &k in &out[n - 2] {
                let below = from_key(n - 1, k);
                for d in 0u8..1 << (n - 1) {
                    // A down-set: everything below a member is a member.
                    if crate::graph::bits(u64::from(d)).any(|y| below[y] & !d != 0) {
                        continue;
                    }
                    let mut p = below.clone();
                    p.push(d);
                    next.insert(canonical_key(&p));
                }
            }
            out.push(next);
        }
        out
    })
}

/// `Poset(1<2, 1<3, 4)`: the cover relations of a naturally labelled poset, then the elements
/// comparable to none.
fn name(below: &[u8]) -> String {
    let n = below.len();
    let mut items = Vec::new();
    for a in 0..n {
        for b in a + 1..n {
            // a < b is a cover when no c lies strictly between.
            if below[b] >> a & 1 == 1
                && !(a + 1..b).any(|c| below[c] >> a & 1 == 1 && below[b] >> c & 1 == 1)
            {
                items.push(format!("{}<{}", a + 1, b + 1));
            }
        }
    }
    for a in 0..n {
        if below[a] == 0 && below.iter().all(|&m| m >> a & 1 == 0) {
            items.push((a + 1).to_string());
        }
    }
    format!("Poset({})", items.join(", "))
}

/// The posets on exactly `n` elements up to isomorphism, as canonical `Poset(..)` names in
/// the module's order; `None` when `n` is 0 or above [`MAX_ENUMERATED`].
pub fn posets(n: usize) -> Option<Vec<String>> {
    if !(1..=MAX_ENUMERATED).contains(&n) {
        return None;
    }
    Some(
        all()[n - 1]
            .iter()
            .map(|&k| name(&from_key(n, k)))
            .collect(),
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

    /// The names of the small classes, in the stated order (key ascending).
    #[test]
    fn small_names() {
        assert_eq!(posets(1).unwrap(), ["Poset(1)"]);
        assert_eq!(posets(2).unwrap(), ["Poset(1, 2)", "Poset(1<2)"]);
        // Keys over (0,1), (0,2), (1,2), each class's largest: 000 the antichain, 011 the ∧
        // (its only natural labellings), 100 a chain of two and a point (not 010 or 001),
        // 110 the V, 111 the chain.
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

    /// Every listed key is the largest over *all* natural labellings of its poset (checked by
    /// trying every permutation, not the column-by-column search), and every poset on 5
    /// elements given by a transitive relation on labels (all 2^10 upper triangles tried)
    /// reduces to a listed key.
    #[test]
    fn keys_are_largest_and_complete() {
        fn perms(n: usize) -> Vec<Vec<usize>> {
            let mut out = vec![vec![]];
            for k in 0..n {
                out = out
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
            out
        }
        let n = 5;
        let ps = perms(n);
        let listed = &all()[n - 1];
        let brute = |down: &[u8]| -> u32 {
            ps.iter()
                .filter_map(|p| {
                    // p[label] = element; natural when everything below is labelled earlier.
                    let mut lab = [0usize; 8];
                    for (l, &x) in p.iter().enumerate() {
                        lab[x] = l;
                    }
                    let below: Vec<u8> = p
                        .iter()
                        .map(|&x| {
                            crate::graph::bits(u64::from(down[x])).fold(0u8, |m, y| m | 1 << lab[y])
                        })
                        .collect();
                    below
                        .iter()
                        .enumerate()
                        .all(|(j, &b)| u32::from(b) >> j == 0)
                        .then(|| key(&below))
                })
                .max()
                .unwrap()
        };
        for &k in listed {
            assert_eq!(brute(&from_key(n, k)), k);
        }
        let mut found = BTreeSet::new();
        for k in 0u32..1 << 10 {
            let b = from_key(n, k);
            let transitive =
                (0..n).all(|j| crate::graph::bits(u64::from(b[j])).all(|i| b[i] & !b[j] == 0));
            if transitive {
                found.insert(canonical_key(&b));
            }
        }
        assert_eq!(&found, listed);
    }
}
