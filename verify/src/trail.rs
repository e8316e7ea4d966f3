//! Seed 002's 45° trail (Lemma 9, Lemma 10, Remark 12), written afresh for the formula
//! helpers its specs call (`trail_corner`, `trail_missed`, `trail_outside`, `trail_visits`,
//! `trail_reaches`, `trail_labelling_proper`; their meaning is grundy's guide's):
//!
//! - the trail runs from (m, 0) in direction (+1, +1) inside the rectangle [m, 2m] × [0, n+1],
//!   turning back along an axis at each side it meets, until it first meets a corner again;
//! - T (Lemma 9) = the points with i + j ≡ m or i − j ≡ m (mod 2d'), d' = gcd(m, n + 1);
//! - τ' (Lemma 10, for a token (m, b)) runs the same way, in the rows reflected j ↦ n+1−j when
//!   b ≢ 0 (mod 2d'), until it first meets (m, b); it fails if it meets a corner first;
//! - Remark 12's labelling gives each cell (a lattice point of the other parity) the parity of
//!   the trail segments crossed on a way through cells to the right side. It is *proper* when
//!   that parity does not depend on the way and the cells on the top, bottom and right sides
//!   are all labelled 0.
//!
//! Independence from the way is decided here by a cycle condition instead of comparing ways:
//! the cells form a simply connected grid whose elementary cycles go round one interior trail
//! point, crossing the four unit segments at it. So the labelling is well defined iff every
//! interior trail point meets an even number of segments traversed an odd number of times.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

type Pt = (i64, i64);

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 {
        a.abs()
    } else {
        gcd(b, a % b)
    }
}

/// Sides at most this long (the walk is at most about 4m(n+2) steps).
const MAX_SIDE: i64 = 10_000;

/// The bouncing walk from (m, 0), point by point, until `stop` says so or a corner is met;
/// `(points, Some(corner))` when it met a corner, `(points, None)` when `stop` held.
fn walk(m: i64, n: i64, stop: impl Fn(Pt) -> bool) -> (Vec<Pt>, Option<Pt>) {
    let corner = |p: Pt| (p.0 == m || p.0 == 2 * m) && (p.1 == 0 || p.1 == n + 1);
    let (mut p, mut d) = ((m, 0), (1, 1));
    let mut out = vec![p];
    for _ in 0..(4 * m * (n + 2) + 8) {
        p = (p.0 + d.0, p.1 + d.1);
        out.push(p);
        if stop(p) {
            return (out, None);
        }
        if corner(p) {
            return (out, Some(p));
        }
        if p.0 == m || p.0 == 2 * m {
            d.0 = -d.0;
        }
        if p.1 == 0 || p.1 == n + 1 {
            d.1 = -d.1;
        }
    }
    (out, None)
}

fn domain(m: i64, n: i64) -> Result<(), String> {
    if (1..=MAX_SIDE).contains(&m) && (0..=MAX_SIDE).contains(&n) {
        Ok(())
    } else {
        Err(format!("no trail for m = {m}, n = {n}"))
    }
}

/// Lemma 9's trail: its points and the corner where it ends.
pub fn trail(m: i64, n: i64) -> Result<(BTreeSet<Pt>, Pt), String> {
    domain(m, n)?;
    match walk(m, n, |_| false) {
        (pts, Some(c)) => Ok((pts.into_iter().collect(), c)),
        (_, None) => Err(format!("the trail for m = {m}, n = {n} meets no corner")),
    }
}

/// Lemma 9's set T.
pub fn lemma_9_t(m: i64, n: i64) -> BTreeSet<Pt> {
    let w = 2 * gcd(m, n + 1);
    let mut t = BTreeSet::new();
    for i in m..=2 * m {
        for j in 0..=n + 1 {
            if (i + j - m).rem_euclid(w) == 0 || (i - j - m).rem_euclid(w) == 0 {
                t.insert((i, j));
            }
        }
    }
    t
}

/// τ' for the token (m, b), in the construction's rows; `None` when it meets a corner first.
pub fn tau(m: i64, n: i64, b: i64) -> Result<Option<Vec<Pt>>, String> {
    domain(m, n)?;
    if n < 1 || !(1..=n).contains(&b) {
        return Err(format!(
            "no token (m, b) = ({m}, {b}) of SP({}, {n})",
            2 * m
        ));
    }
    let w = 2 * gcd(m, n + 1);
    let target = (m, if b % w != 0 { n + 1 - b } else { b });
    Ok(match walk(m, n, |p| p == target) {
        (pts, None) if pts.last() == Some(&target) => Some(pts),
        _ => None,
    })
}

/// Remark 12's labelling by τ' is proper (see the module's comment).
pub fn labelling_proper(m: i64, n: i64, b: i64) -> Result<bool, String> {
    Ok(labelling(m, n, b)?.is_some())
}

/// Remark 12's labelling by τ' of every cell (`true`: positive), when τ' reaches the token
/// and the labelling is proper; `None` otherwise.
pub fn labelling(m: i64, n: i64, b: i64) -> Result<Option<BTreeMap<Pt, bool>>, String> {
    let Some(pts) = tau(m, n, b)? else {
        return Ok(None);
    };
    // Unit segments traversed an odd number of times.
    let mut odd: BTreeSet<(Pt, Pt)> = BTreeSet::new();
    for w in pts.windows(2) {
        let s = (w[0].min(w[1]), w[0].max(w[1]));
        if !odd.remove(&s) {
            odd.insert(s);
        }
    }
    let inside = |p: Pt| (m..=2 * m).contains(&p.0) && (0..=n + 1).contains(&p.1);
    // The cycle condition at every interior trail point.
    let mut degree: BTreeMap<Pt, u32> = BTreeMap::new();
    for (a, b) in &odd {
        *degree.entry(*a).or_default() += 1;
        *degree.entry(*b).or_default() += 1;
    }
    let interior = |p: Pt| {
        [(1, 0), (-1, 0), (0, 1), (0, -1)]
            .iter()
            .all(|d| inside((p.0 + d.0, p.1 + d.1)))
    };
    if degree.iter().any(|(&p, &d)| interior(p) && d % 2 == 1) {
        return Ok(None);
    }
    // Labels by a search of the cells from one on the right side (labelled 0 there).
    let parity = m.rem_euclid(2);
    let start = (
        2 * m,
        if (2 * m).rem_euclid(2) == parity {
            1
        } else {
            0
        },
    );
    let mut label: BTreeMap<Pt, bool> = BTreeMap::from([(start, false)]);
    let mut queue = VecDeque::from([start]);
    while let Some(c) = queue.pop_front() {
        for (ex, ey) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
            let next = (c.0 + ex, c.1 + ey);
            if !inside(next) || label.contains_key(&next) {
                continue;
            }
            let (a, b) = ((c.0 + ex, c.1), (c.0, c.1 + ey));
            let crossed = odd.contains(&(a.min(b), a.max(b)));
            label.insert(next, label[&c] ^ crossed);
            queue.push_back(next);
        }
    }
    let proper = !label
        .iter()
        .any(|(c, &l)| l && (c.0 == 2 * m || c.1 == 0 || c.1 == n + 1));
    Ok(proper.then_some(label))
}

/// Thm 13's construction as the fragment prints it, for the token v = (m, b) of SP(2m, n):
/// S is the positive cells of the labelling with 1 ≤ j ≤ n (in the rows of the graph: τ' ran
/// in the reflected rows j ↦ n+1−j when b ≢ 0 mod 2d'), without their mirror images in the
/// columns [0, m]; the first moves are to the neighbours of v in S. `None` when there is no
/// labelling (τ' meets a corner first, or it is not proper).
pub fn printed_construction(m: i64, n: i64, b: i64) -> Result<Option<Construction>, String> {
    let Some(label) = labelling(m, n, b)? else {
        return Ok(None);
    };
    let reflected = b % (2 * gcd(m, n + 1)) != 0;
    let col = |i: i64| (i - 1).rem_euclid(2 * m) + 1;
    let row = |j: i64| if reflected { n + 1 - j } else { j };
    let set: BTreeSet<Pt> = label
        .iter()
        .filter(|(c, &l)| l && (1..=n).contains(&c.1))
        .map(|(c, _)| (col(c.0), row(c.1)))
        .collect();
    let moves = [(m, b - 1), (m, b + 1), (m + 1, b), (m - 1, b)]
        .into_iter()
        .filter(|u| set.contains(u))
        .collect();
    Ok(Some(Construction { set, moves }))
}

/// The set S and the first moves of Thm 13's construction.
pub struct Construction {
    pub set: BTreeSet<Pt>,
    pub moves: Vec<Pt>,
}

/// Why S is not an even kernel of SP(2m, n) − uv containing u (independent, every vertex
/// outside with an even number of neighbours in it), or `None` when it is one.
pub fn not_even_kernel(m: i64, n: i64, set: &BTreeSet<Pt>, v: Pt, u: Pt) -> Option<String> {
    if !set.contains(&u) {
        return Some(format!("{u:?} is not in S"));
    }
    let removed = |p: Pt, q: Pt| (p == u && q == v) || (p == v && q == u);
    let neighbours = |p: Pt| {
        let mut out = vec![
            ((p.0 % (2 * m)) + 1, p.1),
            ((p.0 - 2).rem_euclid(2 * m) + 1, p.1),
        ];
        if p.1 > 1 {
            out.push((p.0, p.1 - 1));
        }
        if p.1 < n {
            out.push((p.0, p.1 + 1));
        }
        out.into_iter().filter(move |&q| !removed(p, q))
    };
    for i in 1..=2 * m {
        for j in 1..=n {
            let p = (i, j);
            let inside = neighbours(p).filter(|q| set.contains(q)).count();
            if set.contains(&p) && inside > 0 {
                return Some(format!("{p:?} in S has a neighbour in S"));
            }
            if !set.contains(&p) && inside % 2 == 1 {
                return Some(format!(
                    "{p:?} is outside S and has {inside} neighbours in it (odd)"
                ));
            }
        }
    }
    None
}

pub fn register(e: &mut rhai::Engine) {
    use rhai::{Dynamic, INT};
    type R<T> = Result<T, Box<rhai::EvalAltResult>>;
    e.register_fn(
        "trail_visits",
        |m: INT, n: INT, i: INT, j: INT| -> R<bool> { Ok(trail(m, n)?.0.contains(&(i, j))) },
    );
    e.register_fn("trail_corner", |m: INT, n: INT| -> R<rhai::Array> {
        let (_, (i, j)) = trail(m, n)?;
        Ok(vec![Dynamic::from_int(i), Dynamic::from_int(j)])
    });
    e.register_fn("trail_missed", |m: INT, n: INT| -> R<INT> {
        let (v, _) = trail(m, n)?;
        Ok(lemma_9_t(m, n).iter().filter(|p| !v.contains(p)).count() as INT)
    });
    e.register_fn("trail_outside", |m: INT, n: INT| -> R<INT> {
        let (v, _) = trail(m, n)?;
        let t = lemma_9_t(m, n);
        Ok(v.iter().filter(|p| !t.contains(p)).count() as INT)
    });
    e.register_fn("trail_reaches", |m: INT, n: INT, b: INT| -> R<bool> {
        Ok(tau(m, n, b)?.is_some())
    });
    e.register_fn(
        "trail_labelling_proper",
        |m: INT, n: INT, b: INT| -> R<bool> { Ok(labelling_proper(m, n, b)?) },
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_trails() {
        // m = 3, n = 2: d' = 3, the trail (3,0) (4,1) (5,2) (6,3) ends at a corner at once and
        // visits T = {i ± j ≡ 3 (mod 6)} exactly.
        let (v, c) = trail(3, 2).unwrap();
        assert_eq!(c, (6, 3));
        assert_eq!(v, lemma_9_t(3, 2));
        // m = 2, n = 2 ends at (4, 0).
        assert_eq!(trail(2, 2).unwrap().1, (4, 0));
        // Wrong variant: a trail that stopped at the first side would end at (4, 2), no corner.
        assert!(!v.contains(&(4, 2)));
    }

    #[test]
    fn the_printed_set_fails_and_its_mirror_closure_holds() {
        // SP(4, 2), token (2, 1): S as printed fails for both first moves (a vertex of
        // column 1 sees one vertex of S); with the mirror images i ↦ 2m − i added (the
        // reading thm_13_trail certifies) S is an even kernel after each of them.
        let c = printed_construction(2, 2, 1).unwrap().unwrap();
        assert_eq!(c.moves, vec![(2, 2), (3, 1)]);
        for &u in &c.moves {
            assert!(not_even_kernel(2, 2, &c.set, (2, 1), u).is_some());
        }
        let mirrored: BTreeSet<Pt> = c
            .set
            .iter()
            .flat_map(|&(i, j)| [(i, j), ((4 - i - 1).rem_euclid(4) + 1, j)])
            .collect();
        for &u in &c.moves {
            assert_eq!(not_even_kernel(2, 2, &mirrored, (2, 1), u), None);
        }
    }

    #[test]
    fn tau_reaches_the_token_when_d_divides_b() {
        // SP(4, 2): d = gcd(4, 3) = 1, every row b. For b = 1 (odd, d' = 1) the rows are
        // reflected and τ' runs (2,0) (3,1) (4,2) (3,3) (2,2).
        assert_eq!(
            tau(2, 2, 1).unwrap(),
            Some(vec![(2, 0), (3, 1), (4, 2), (3, 3), (2, 2)])
        );
        assert!(labelling_proper(2, 2, 1).unwrap());
        assert!(tau(2, 2, 3).is_err());
        // Wrong variant: SP(4, 3), d = 4 does not divide b = 1; τ' meets the corner (2, 4)
        // before (2, 3), so there is no labelling.
        assert_eq!(tau(2, 3, 1).unwrap(), None);
        assert!(!labelling_proper(2, 3, 1).unwrap());
    }
}
