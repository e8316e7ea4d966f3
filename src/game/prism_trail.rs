//! The construction behind seed 002, Theorem 13 (N-positions of SP(2m,n) at (a,b) with
//! d = gcd(2m, n+1) dividing b), as reconstructed from the fragment (Lemma 9, Lemma 10,
//! Remark 12; the definitions are missing from the text):
//!
//! - Token v = (m, b) (rotate the cylinder for other columns). If b ≢ 0 (mod 2d'),
//!   d' = gcd(m, n+1), reflect rows j ↦ n+1−j (Lemma 10: then n+1−b ≡ 0 (mod 2d')).
//! - The 45° trail τ' starts at (m, 0) in direction (+1, +1) and reflects off the sides of the
//!   rectangle [m, 2m] × [0, n+1]; it stops on first reaching (m, b) (Lemma 10 says it does,
//!   before any other corner: Lemma 9).
//! - Remark 12's labelling: the cells of the rectangle (lattice points of the parity opposite
//!   to the trail's) are labelled by the parity of the number of trail segments crossed on a
//!   path of cells to the right side. Remark 12's induction (XOR of the labellings of the
//!   pieces of τ' between visits of the left side) gives exactly this labelling; it must be
//!   consistent, with every cell at the top, bottom or right side negative.
//! - S: the positive cells with 1 ≤ j ≤ n **and their mirror images under i ↦ 2m − i** (the
//!   half [0, m] of the cylinder mirrors [m, 2m]: without it a vertex of column 2m sees one
//!   vertex of S, so the fragment's case analysis only closes with the mirror).
//! - Player 1 moves from v to any neighbour u ∈ S; S is then claimed to be an even kernel of
//!   G − uv containing u.
//!
//! This module only builds the sets; [`crate::check::certificate`] checks them.

use rustc_hash::FxHashMap as HashMap;
use std::collections::VecDeque;

/// The construction for one token: every candidate first move and the set S, as
/// coordinates (i, j) with 1 ≤ i ≤ 2m, 1 ≤ j ≤ n.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrailCertificate {
    pub token: (i64, i64),
    pub moves: Vec<(i64, i64)>,
    pub kernel: Vec<(i64, i64)>,
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 {
        a.abs()
    } else {
        gcd(b, a % b)
    }
}

type Seg = ((i64, i64), (i64, i64));

fn seg(p: (i64, i64), q: (i64, i64)) -> Seg {
    if p <= q {
        (p, q)
    } else {
        (q, p)
    }
}

/// A lattice point (i, j) of the rectangle.
pub type Point = (i64, i64);

/// The points a trail visits, in order, and the corner where it ends.
pub type Trail = (Vec<Point>, Point);

/// Lemma 9's trail: the 45° trail from the corner (m, 0) of the rectangle [m, 2m] × [0, n+1],
/// reflecting off its sides, until it first reaches a corner again. Returns every lattice
/// point visited (start and end included) and that corner; `None` for m < 1, n < 0 or a
/// rectangle too large to walk (the walk is at most lcm(m, n+1) steps).
pub fn diagonal_trail(m: i64, n: i64) -> Option<Trail> {
    if m < 1 || n < 0 || m > 10_000 || n > 10_000 {
        return None;
    }
    let corners = [(m, 0), (m, n + 1), (2 * m, 0), (2 * m, n + 1)];
    let (mut x, mut y, mut dx, mut dy) = (m, 0i64, 1i64, 1i64);
    let mut visited = vec![(x, y)];
    loop {
        (x, y) = (x + dx, y + dy);
        visited.push((x, y));
        if corners.contains(&(x, y)) {
            return Some((visited, (x, y)));
        }
        if x == 2 * m {
            dx = -1;
        }
        if x == m {
            dx = 1;
        }
        if y == n + 1 {
            dy = -1;
        }
        if y == 0 {
            dy = 1;
        }
    }
}

/// The set T of Lemma 9: the points (i, j) of [m, 2m] × [0, n+1] with i + j ≡ m or
/// i − j ≡ m (mod 2d'), d' = gcd(m, n+1).
pub fn lemma_9_t(m: i64, n: i64) -> Vec<(i64, i64)> {
    let dp = gcd(m, n + 1);
    (m..=2 * m)
        .flat_map(|i| (0..=n + 1).map(move |j| (i, j)))
        .filter(|&(i, j)| {
            (i + j - m).rem_euclid(2 * dp) == 0 || (i - j - m).rem_euclid(2 * dp) == 0
        })
        .collect()
}

/// Builds the certificate of Theorem 13 for SP(2m, n) at (m, b). `Err` says which step of
/// the reconstruction fails.
pub fn thm13_certificate(m: i64, n: i64, b: i64) -> Result<TrailCertificate, String> {
    construction(m, n, b, true)
}

/// The same with S as the fragment prints it: the positive cells of [m, 2m] × [1, n] only,
/// without their mirror images (refuted: spec thm_13_printed).
pub fn thm13_certificate_as_printed(m: i64, n: i64, b: i64) -> Result<TrailCertificate, String> {
    construction(m, n, b, false)
}

fn construction(m: i64, n: i64, b: i64, mirror: bool) -> Result<TrailCertificate, String> {
    if m < 2 || n < 1 || !(1..=n).contains(&b) {
        return Err(format!("no token (m,b) = ({m},{b}) in SP({},{n})", 2 * m));
    }
    let d = gcd(2 * m, n + 1);
    let dp = gcd(m, n + 1);
    if b % d != 0 {
        return Err(format!("d = {d} does not divide b = {b}"));
    }
    let reflect = b % (2 * dp) != 0;
    let bb = if reflect { n + 1 - b } else { b };
    // The trail, as unit segments with the parity of their traversals.
    let mut trail: HashMap<Seg, u8> = HashMap::default();
    let (mut x, mut y, mut dx, mut dy) = (m, 0i64, 1i64, 1i64);
    let corners = [(m, 0), (m, n + 1), (2 * m, 0), (2 * m, n + 1)];
    // A billiard path in an m × (n+1) box closes within 2m(n+1) steps.
    let limit = 4 * m * (n + 2) + 8;
    let mut steps = 0;
    loop {
        let (nx, ny) = (x + dx, y + dy);
        *trail.entry(seg((x, y), (nx, ny))).or_insert(0) ^= 1;
        (x, y) = (nx, ny);
        steps += 1;
        if (x, y) == (m, bb) {
            break;
        }
        if corners.contains(&(x, y)) || steps > limit {
            return Err(format!(
                "the trail from (m,0) reaches ({x},{y}) before visiting (m,{bb}) (Lemma 10)"
            ));
        }
        if x == 2 * m {
            dx = -1;
        }
        if x == m {
            dx = 1;
        }
        if y == n + 1 {
            dy = -1;
        }
        if y == 0 {
            dy = 1;
        }
    }
    // Cells: lattice points of the rectangle off the trail's parity.
    let tp = m.rem_euclid(2);
    let in_rect = |(i, j): (i64, i64)| (m..=2 * m).contains(&i) && (0..=n + 1).contains(&j);
    let start = (2 * m, if (2 * m + 1) % 2 != tp { 1 } else { 0 });
    let mut label: HashMap<(i64, i64), u8> = HashMap::default();
    label.insert(start, 0);
    let mut queue = VecDeque::from([start]);
    while let Some(c) = queue.pop_front() {
        for (ex, ey) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
            let nb = (c.0 + ex, c.1 + ey);
            if !in_rect(nb) {
                continue;
            }
            // Cells c and c + (ex, ey) share the segment from c + (ex, 0) to c + (0, ey).
            let crossed = trail
                .get(&seg((c.0 + ex, c.1), (c.0, c.1 + ey)))
                .copied()
                .unwrap_or(0);
            let l = label[&c] ^ crossed;
            match label.get(&nb) {
                Some(&old) if old != l => {
                    return Err(format!(
                        "Remark 12's labelling is inconsistent at the cell ({},{})",
                        nb.0, nb.1
                    ))
                }
                Some(_) => {}
                None => {
                    label.insert(nb, l);
                    queue.push_back(nb);
                }
            }
        }
    }
    if let Some((c, _)) = label
        .iter()
        .find(|(c, &l)| l == 1 && (c.0 == 2 * m || c.1 == 0 || c.1 == n + 1))
    {
        return Err(format!(
            "the cell ({},{}) on the top, bottom or right side is positive (Remark 12)",
            c.0, c.1
        ));
    }
    let col = |i: i64| {
        let r = i.rem_euclid(2 * m);
        if r == 0 {
            2 * m
        } else {
            r
        }
    };
    let row = |j: i64| if reflect { n + 1 - j } else { j };
    let mut kernel: Vec<(i64, i64)> = label
        .iter()
        .filter(|(c, &l)| l == 1 && (1..=n).contains(&c.1))
        .flat_map(|(c, _)| {
            let own = (col(c.0), row(c.1));
            let image = (col(2 * m - c.0), row(c.1));
            if mirror {
                vec![own, image]
            } else {
                vec![own]
            }
        })
        .collect();
    kernel.sort_unstable();
    kernel.dedup();
    let v = (m, b);
    let mut moves: Vec<(i64, i64)> = [(m, b - 1), (m, b + 1), (m + 1, b), (m - 1, b)]
        .into_iter()
        .filter(|u| (1..=n).contains(&u.1) && kernel.binary_search(u).is_ok())
        .collect();
    moves.sort_unstable();
    if moves.is_empty() {
        return Err(format!(
            "no neighbour of ({},{}) lies in a positive region",
            v.0, v.1
        ));
    }
    Ok(TrailCertificate {
        token: v,
        moves,
        kernel,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lemma_9_trail_by_hand() {
        // m = 2, n = 2: rectangle [2,4] x [0,3]; from (2,0): (3,1), (4,2), (3,3), (2,2);
        // at (2,2) it turns right, still going down: (3,1) again, then the corner (4,0).
        let (v, c) = diagonal_trail(2, 2).unwrap();
        assert_eq!(
            v,
            vec![(2, 0), (3, 1), (4, 2), (3, 3), (2, 2), (3, 1), (4, 0)]
        );
        assert_eq!(c, (4, 0));
        // d' = gcd(2, 3) = 1: T is every point with i + j or i - j even, i.e. i + j even.
        let mut t = lemma_9_t(2, 2);
        t.sort_unstable();
        let mut seen = v.clone();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(t, seen);
        assert!(diagonal_trail(0, 3).is_none());
    }

    #[test]
    fn thm13_small_case_by_hand() {
        // SP(4,1) = C_4, m = 2, n = 1: d = gcd(4, 2) = 2 ∤ 1, so no N-token.
        assert!(thm13_certificate(2, 1, 1).is_err());
        // SP(4,3), m = 2, n = 3, b = 2: d = gcd(4,4) = 4 ∤ 2. SP(6,2), m = 3, n = 2: d = 3 ∤ b.
        assert!(thm13_certificate(3, 2, 1).is_err());
        // SP(4,2), m = 2, n = 2: d = gcd(4,3) = 1, d' = 1; b = 2 ≡ 0 (mod 2): trail from
        // (2,0): (3,1), (4,2), (3,3), (2,2): stops. Enclosed with the left side: the cells (3,2)
        // and (2,1); with the mirror image (1,2) of (3,2), S = {(1,2), (2,1), (3,2)}, and every
        // neighbour of v = (2,2) in S is a first move (v has three: the fragment's "one or
        // three"). By hand, after (2,2) → (3,2): (1,1), (3,1), (2,2), (4,2) see two of S.
        let c = thm13_certificate(2, 2, 2).unwrap();
        assert_eq!(c.kernel, vec![(1, 2), (2, 1), (3, 2)]);
        assert_eq!(c.moves, vec![(1, 2), (2, 1), (3, 2)]);
    }
}
