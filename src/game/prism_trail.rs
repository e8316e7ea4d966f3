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
//! [`thm13_drawing`] exports what seed 002's Figures 4 and 5 draw (the trail, its visits of
//! the left side, the regions with their labels; in the induction step of Remark 12 the split
//! into τ'' and τ' − τ'' with the labellings L'' and L''' whose XOR is L'), as a serialisable
//! view for `templates/seed002/trail.tikz.tex`.

use rustc_hash::FxHashMap as HashMap;
use serde::Serialize;
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
pub type Lattice = (i64, i64);

/// The points a trail visits, in order, and the corner where it ends.
pub type Trail = (Vec<Lattice>, Lattice);

/// The direction after reaching (x, y): reversed along an axis at a side of the rectangle
/// [m, 2m] × [0, n+1] (both at a corner).
fn reflect((x, y): Lattice, (mut dx, mut dy): Lattice, m: i64, n: i64) -> Lattice {
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
    (dx, dy)
}

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
        (dx, dy) = reflect((x, y), (dx, dy), m, n);
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

/// The first unnumbered lemma after Lemma 9 of seed 002, as the construction uses it: for
/// SP(2m, n) and a row b, the trail τ' from (m, 0) — or from (m, n+1), i.e. from (m, 0) in the
/// reflected rows, when b ≢ 0 (mod 2d') — visits (m, b) before it reaches another corner.
/// `Ok(false)` when it reaches a corner first; `Err` outside the domain (m ≥ 1, 1 ≤ b ≤ n,
/// both sides at most 10000). The lemma claims `Ok(true)` whenever gcd(2m, n+1) | b.
pub fn trail_reaches_token(m: i64, n: i64, b: i64) -> Result<bool, String> {
    trail_to_token(m, n, b).map(|t| t.is_some())
}

/// The second unnumbered lemma (Remark 12's labelling is proper, the induction with
/// L' = L'' xor L'''): the labelling by τ' is the same along every path of cells (consistent),
/// and every cell on the top, bottom or right side is negative. `Ok(false)` when either fails
/// or when τ' does not reach (m, b) (no labelling then); `Err` outside the domain.
pub fn trail_labelling_proper(m: i64, n: i64, b: i64) -> Result<bool, String> {
    Ok(match trail_to_token(m, n, b)? {
        None => false,
        Some(points) => label_cells(m, n, &segments(&points)).is_ok(),
    })
}

/// τ' for the token (m, b) in the construction's rows, `None` when it meets a corner first.
fn trail_to_token(m: i64, n: i64, b: i64) -> Result<Option<Vec<(i64, i64)>>, String> {
    if m < 1 || n < 1 || m > 10_000 || n > 10_000 || !(1..=n).contains(&b) {
        return Err(format!(
            "no token (m,b) = ({m},{b}) of SP({},{n}) (needs 1 <= m, 1 <= b <= n, m and n at most 10000)",
            2 * m
        ));
    }
    let dp = gcd(m, n + 1);
    let bb = if b % (2 * dp) != 0 { n + 1 - b } else { b };
    Ok(trail_points(m, n, bb).ok())
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
    let trail = segments(&trail_points(m, n, bb)?);
    let label = label_cells(m, n, &trail)?;
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

/// The trail τ' of Lemma 10 in the construction's rows: from (m, 0) in direction (+1, +1),
/// reflecting off the sides of [m, 2m] × [0, n+1], up to its first visit of (m, bb); every
/// lattice point in order. `Err` when it meets a corner first (Lemma 9 says it cannot).
fn trail_points(m: i64, n: i64, bb: i64) -> Result<Vec<(i64, i64)>, String> {
    let (mut x, mut y, mut dx, mut dy) = (m, 0i64, 1i64, 1i64);
    let corners = [(m, 0), (m, n + 1), (2 * m, 0), (2 * m, n + 1)];
    // A billiard path in an m × (n+1) box closes within 2m(n+1) steps.
    let limit = 4 * m * (n + 2) + 8;
    let mut points = vec![(x, y)];
    loop {
        (x, y) = (x + dx, y + dy);
        points.push((x, y));
        if (x, y) == (m, bb) {
            return Ok(points);
        }
        if corners.contains(&(x, y)) || points.len() as i64 > limit {
            return Err(format!(
                "the trail from (m,0) reaches ({x},{y}) before visiting (m,{bb}) (Lemma 10)"
            ));
        }
        (dx, dy) = reflect((x, y), (dx, dy), m, n);
    }
}

/// The unit segments of a piece of trail, each with the parity of its traversals.
fn segments(points: &[(i64, i64)]) -> HashMap<Seg, u8> {
    let mut trail: HashMap<Seg, u8> = HashMap::default();
    for w in points.windows(2) {
        *trail.entry(seg(w[0], w[1])).or_insert(0) ^= 1;
    }
    trail
}

/// Remark 12's labelling by the segments `trail`: every cell of [m, 2m] × [0, n+1] (lattice
/// points off the trail's parity) gets the parity of the segments crossed on a path of cells
/// to the right side. `Err` if that parity depends on the path, or if a cell on the top,
/// bottom or right side is positive.
fn label_cells(
    m: i64,
    n: i64,
    trail: &HashMap<Seg, u8>,
) -> Result<HashMap<(i64, i64), u8>, String> {
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
        .filter(|(c, &l)| l == 1 && (c.0 == 2 * m || c.1 == 0 || c.1 == n + 1))
        .min()
    {
        return Err(format!(
            "the cell ({},{}) on the top, bottom or right side is positive (Remark 12)",
            c.0, c.1
        ));
    }
    Ok(label)
}

/// A point of a drawing, in the construction's coordinates (column i, row j).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Point {
    pub i: i64,
    pub j: i64,
}

/// A region of a labelling (cells not separated by the trail), where its label is written.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Region {
    pub i: i64,
    pub j: i64,
    pub positive: bool,
    pub cells: usize,
}

/// One labelling of the regions of [m, 2m] × [0, n+1] by a piece of trail (Remark 12).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Labelling {
    /// `whole` (L', by τ'), `first` (L'', by τ'') or `rest` (L''', by τ' − τ'').
    pub role: &'static str,
    /// The piece of trail, by its turning points (first and last included).
    pub trail: Vec<Point>,
    /// Every cell labelled positive.
    pub positive: Vec<Point>,
    /// One entry per region, at a cell near its middle.
    pub regions: Vec<Region>,
}

/// What Figures 4 and 5 of seed 002 draw for one token (m, b) of SP(2m, n): the trail τ',
/// its visits of the left side, and the labelling of Remark 12; when (m, b) is not the first
/// visit of the left side (the induction step), also the split at the last visit (m, b')
/// before it into τ'' and τ' − τ'' with their labellings L'' and L''' (L' = L'' xor L''').
/// Coordinates are the construction's: rows reflected (j ↦ n+1−j) when `reflected`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TrailDrawing {
    pub m: i64,
    pub n: i64,
    /// The token's row in the construction (n+1−b when reflected).
    pub b: i64,
    pub reflected: bool,
    /// Rows where τ' meets the left side, in order, from 0 to b.
    pub left_visits: Vec<i64>,
    /// b', the last visit of the left side before (m, b), in the induction step.
    pub split: Option<i64>,
    /// L' (of τ'); in the induction step first L'' (of τ'') and L''' (of τ' − τ''), then L'.
    pub labellings: Vec<Labelling>,
    /// The vertices of S in the half [m, 2m] (positive cells in rows 1..=n; S also holds
    /// their mirror images i ↦ 2m − i).
    pub kernel: Vec<Point>,
    /// The first moves: neighbours of (m, b) in S, in the construction's coordinates.
    pub moves: Vec<Point>,
}

fn turning_points(points: &[(i64, i64)]) -> Vec<Point> {
    let mut out: Vec<Point> = Vec::new();
    for (k, &(i, j)) in points.iter().enumerate() {
        let turn = k == 0
            || k + 1 == points.len()
            || (points[k + 1].0 - i, points[k + 1].1 - j)
                != (i - points[k - 1].0, j - points[k - 1].1);
        if turn {
            out.push(Point { i, j });
        }
    }
    out
}

fn labelling(
    role: &'static str,
    m: i64,
    n: i64,
    points: &[(i64, i64)],
) -> Result<Labelling, String> {
    let segs = segments(points);
    let label = label_cells(m, n, &segs)?;
    let mut positive: Vec<Point> = label
        .iter()
        .filter(|(_, &l)| l == 1)
        .map(|(&(i, j), _)| Point { i, j })
        .collect();
    positive.sort_by_key(|p| (p.j, p.i));
    // Regions: cells joined when the segment between them is not on the trail.
    let mut cells: Vec<(i64, i64)> = label.keys().copied().collect();
    cells.sort_unstable();
    let mut seen: HashMap<(i64, i64), ()> = HashMap::default();
    let mut regions = Vec::new();
    for &c0 in &cells {
        if seen.contains_key(&c0) {
            continue;
        }
        seen.insert(c0, ());
        let mut members = vec![c0];
        let mut queue = VecDeque::from([c0]);
        while let Some(c) = queue.pop_front() {
            for (ex, ey) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
                let nb = (c.0 + ex, c.1 + ey);
                let crossed = segs
                    .get(&seg((c.0 + ex, c.1), (c.0, c.1 + ey)))
                    .copied()
                    .unwrap_or(0);
                if crossed == 0 && label.contains_key(&nb) && !seen.contains_key(&nb) {
                    seen.insert(nb, ());
                    members.push(nb);
                    queue.push_back(nb);
                }
            }
        }
        // The label sits at the member nearest the region's centre, inside the rectangle
        // rather than on its sides when the region has such a cell.
        let k = members.len() as f64;
        let (cx, cy) = members.iter().fold((0.0, 0.0), |(x, y), &(i, j)| {
            (x + i as f64 / k, y + j as f64 / k)
        });
        let inner = |&(i, j): &(i64, i64)| i > m && i < 2 * m && j > 0 && j < n + 1;
        let pool: Vec<(i64, i64)> = if members.iter().any(inner) {
            members.iter().copied().filter(inner).collect()
        } else {
            members.clone()
        };
        let dist = |p: &(i64, i64)| (p.0 as f64 - cx).powi(2) + (p.1 as f64 - cy).powi(2);
        let at = pool
            .iter()
            .min_by(|a, b| dist(a).total_cmp(&dist(b)).then(a.cmp(b)))
            .copied()
            .unwrap_or(c0);
        regions.push(Region {
            i: at.0,
            j: at.1,
            positive: label[&c0] == 1,
            cells: members.len(),
        });
    }
    regions.sort_by_key(|r| (r.j, r.i));
    Ok(Labelling {
        role,
        trail: turning_points(points),
        positive,
        regions,
    })
}

/// The data of Figures 4 and 5 of seed 002 for SP(2m, n) at (m, b) (see [`TrailDrawing`]).
pub fn thm13_drawing(m: i64, n: i64, b: i64) -> Result<TrailDrawing, String> {
    let cert = thm13_certificate(m, n, b)?;
    let dp = gcd(m, n + 1);
    let reflect = b % (2 * dp) != 0;
    let bb = if reflect { n + 1 - b } else { b };
    let points = trail_points(m, n, bb)?;
    let visits: Vec<usize> = (0..points.len()).filter(|&k| points[k].0 == m).collect();
    let left_visits = visits.iter().map(|&k| points[k].1).collect();
    let whole = labelling("whole", m, n, &points)?;
    // The last visit of the left side before (m, bb), if (m, bb) is not the first.
    let (split, labellings) = match visits.len() {
        0..=2 => (None, vec![whole]),
        k => {
            let at = visits[k - 2];
            let first = labelling("first", m, n, &points[..=at])?;
            let rest = labelling("rest", m, n, &points[at..])?;
            (Some(points[at].1), vec![first, rest, whole])
        }
    };
    let row = |j: i64| if reflect { n + 1 - j } else { j };
    let mut kernel: Vec<Point> = cert
        .kernel
        .iter()
        .filter(|&&(i, _)| i >= m)
        .map(|&(i, j)| Point { i, j: row(j) })
        .collect();
    kernel.sort_by_key(|p| (p.j, p.i));
    let moves = cert
        .moves
        .iter()
        .map(|&(i, j)| Point { i, j: row(j) })
        .collect();
    Ok(TrailDrawing {
        m,
        n,
        b: bb,
        reflected: reflect,
        left_visits,
        split,
        labellings,
        kernel,
        moves,
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

    #[test]
    fn figure_4_base_case_on_sp_12_8() {
        // SP(12,8), m = 6, n = 8, v = (6,6): d = d' = 3, 6 ≡ 0 (mod 6), no reflection. The
        // trail (6,0) → (12,6) → (9,9) → (6,6) meets the left side first at (6,6): the base
        // case, one region bounded by τ' and the left side, positive.
        let f = thm13_drawing(6, 8, 6).unwrap();
        assert!(!f.reflected);
        assert_eq!(f.left_visits, vec![0, 6]);
        assert_eq!(f.split, None);
        assert_eq!(f.labellings.len(), 1);
        let l = &f.labellings[0];
        let corners: Vec<(i64, i64)> = l.trail.iter().map(|p| (p.i, p.j)).collect();
        assert_eq!(corners, vec![(6, 0), (12, 6), (9, 9), (6, 6)]);
        assert_eq!(l.regions.iter().filter(|r| r.positive).count(), 1);
        // Positive cells (i + j odd) inside the quadrilateral, none outside it.
        assert!(l.positive.contains(&Point { i: 6, j: 1 }));
        assert!(l.positive.contains(&Point { i: 9, j: 6 }));
        assert!(!l.positive.contains(&Point { i: 11, j: 2 }));
        // S in the half [m, 2m] is the positive cells of rows 1..=n.
        let inner: Vec<Point> = l
            .positive
            .iter()
            .copied()
            .filter(|p| (1..=8).contains(&p.j))
            .collect();
        assert_eq!(f.kernel, inner);
    }

    #[test]
    fn figure_5_induction_step_is_the_xor_of_its_pieces() {
        // SP(12,9), m = 6, n = 9, v = (6,4): d = d' = 2, no reflection. τ' meets the left
        // side at (6,8) before (6,4): τ'' = (6,0) → (12,6) → (8,10) → (6,8), τ' − τ'' =
        // (6,8) → (12,2) → (10,0) → (6,4).
        let f = thm13_drawing(6, 9, 4).unwrap();
        assert_eq!(f.left_visits, vec![0, 8, 4]);
        assert_eq!(f.split, Some(8));
        let roles: Vec<&str> = f.labellings.iter().map(|l| l.role).collect();
        assert_eq!(roles, vec!["first", "rest", "whole"]);
        let pts = |k: usize| -> Vec<(i64, i64)> {
            f.labellings[k].trail.iter().map(|p| (p.i, p.j)).collect()
        };
        assert_eq!(pts(0), vec![(6, 0), (12, 6), (8, 10), (6, 8)]);
        assert_eq!(pts(1), vec![(6, 8), (12, 2), (10, 0), (6, 4)]);
        // The whole labelling is positive exactly where the two pieces' labellings differ.
        let set = |k: usize| -> std::collections::BTreeSet<(i64, i64)> {
            f.labellings[k]
                .positive
                .iter()
                .map(|p| (p.i, p.j))
                .collect()
        };
        let xor: std::collections::BTreeSet<_> =
            set(0).symmetric_difference(&set(1)).copied().collect();
        assert_eq!(set(2), xor);
        assert!(!set(0).is_empty() && !set(1).is_empty() && !set(0).is_subset(&set(2)));
    }
}
