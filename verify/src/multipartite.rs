//! Closure games on complete multipartite graphs K_{n1,…,nk} (k ≥ 2) of any size, by count
//! vectors: the verifier's own derivation, for graphs past the 64 vertices of its vertex
//! masks (seed 000 Prop 5.15 on hundreds of vertices).
//!
//! **The closures by counts.** Two vertices of different parts are adjacent, so their
//! geodetic interval is {u, v}. Two vertices u ≠ v of one part are not adjacent and have every
//! vertex outside their part as a common neighbour, so d(u, v) = 2 and I[u, v] = {u, v} ∪
//! (V ∖ part(u)). Induced paths add nothing: an induced u–v path leaves u's part at its second
//! vertex w, its third vertex is not adjacent to u, so lies in u's part, and is then adjacent
//! to nothing that could follow it without a chord — it is v. So the monophonic hull is the
//! convex hull. For a set with c_i vertices in part i, one step (the geodetic closure) fills
//! every part j for which some other part i ≠ j has c_i ≥ 2; the hull repeats the step.
//!
//! **Positions up to symmetry.** Permuting the vertices of a part is an automorphism of the
//! graph, it commutes with the closures, so whether a set is legal, and its nim-value, depend
//! only on its count vector; selecting any unselected vertex of part i leads to c + e_i. The
//! games are therefore solved over the Π (n_i + 1) count vectors (in one array, from the
//! fullest down, since a move raises the mixed-radix index). The unit tests compare this with
//! the verifier's graph closures and exhaustive solver on small K_{a,b,c}.

use crate::closure::Word;

/// Most count vectors solved (the product of the n_i + 1).
pub const MAX_STATES: u64 = 1 << 22;

/// The parts of `K_{n1,…,nk}` when `text` names a complete multipartite graph of at least two
/// parts (sizes as written).
pub fn parts(text: &str) -> Option<Vec<u64>> {
    let inner = text.trim().strip_prefix("K_{")?.strip_suffix('}')?;
    if !inner.contains(',') {
        return None;
    }
    inner.split(',').map(|p| p.trim().parse().ok()).collect()
}

/// The closure of a set with `c[i]` vertices in part i (the module header): one step, or
/// repeated when `iterate` (the convex and monophonic hulls).
pub fn close_counts(parts: &[u32], c: &[u32], iterate: bool) -> Vec<u32> {
    let mut cur = c.to_vec();
    loop {
        let next: Vec<u32> = (0..parts.len())
            .map(|j| {
                let other_pair = (0..parts.len()).any(|i| i != j && cur[i] >= 2);
                if other_pair {
                    parts[j]
                } else {
                    cur[j]
                }
            })
            .collect();
        if next == cur || !iterate {
            return next;
        }
        cur = next;
    }
}

/// A closure game on K_{n1,…,nk} by count vectors.
pub struct CountGame {
    pub word: Word,
    pub parts: Vec<u32>,
    pub iterate: bool,
}

/// What the count recursion found.
pub struct Solved {
    pub value: u32,
    /// The maximal legal count vectors, ascending (lexicographically).
    pub maximal: Vec<Vec<u32>>,
}

impl CountGame {
    pub fn new(word: Word, parts: &[u64], iterate: bool) -> Result<CountGame, String> {
        if parts.len() < 2 || parts.contains(&0) || parts.iter().any(|&p| p > u32::MAX as u64) {
            return Err("a complete multipartite graph of at least two nonempty parts".into());
        }
        Ok(CountGame {
            word,
            parts: parts.iter().map(|&p| p as u32).collect(),
            iterate,
        })
    }

    pub fn vertices(&self) -> u64 {
        self.parts.iter().map(|&p| p as u64).sum()
    }

    fn generates(&self, c: &[u32]) -> bool {
        close_counts(&self.parts, c, self.iterate) == self.parts
    }

    /// Legal: non-generating (building), or the unselected vertices generate (removing).
    pub fn legal(&self, c: &[u32]) -> bool {
        if self.word.building() {
            !self.generates(c)
        } else {
            let rest: Vec<u32> = self.parts.iter().zip(c).map(|(n, x)| n - x).collect();
            self.generates(&rest)
        }
    }

    /// The nim-value of the start and the maximal legal count vectors; `Err` past
    /// [`MAX_STATES`] count vectors.
    pub fn solve(&self) -> Result<Solved, String> {
        let k = self.parts.len();
        let total = self
            .parts
            .iter()
            .try_fold(1u64, |t, &p| t.checked_mul(p as u64 + 1))
            .filter(|&t| t <= MAX_STATES)
            .ok_or_else(|| {
                format!(
                    "more than {MAX_STATES} count vectors (the product of the part sizes plus one)"
                )
            })? as usize;
        let mut stride = vec![1usize; k];
        for i in 1..k {
            stride[i] = stride[i - 1] * (self.parts[i - 1] as usize + 1);
        }
        let mut value = vec![0u32; total];
        let mut legal = vec![false; total];
        let mut maximal = Vec::new();
        let mut c = vec![0u32; k];
        let mut seen = Vec::with_capacity(k + 1);
        for idx in (0..total).rev() {
            let mut r = idx;
            for i in (0..k).rev() {
                c[i] = (r / stride[i]) as u32;
                r %= stride[i];
            }
            if !self.legal(&c) {
                continue;
            }
            legal[idx] = true;
            seen.clear();
            let mut is_maximal = true;
            for i in 0..k {
                if c[i] == self.parts[i] {
                    continue;
                }
                let j = idx + stride[i];
                if legal[j] {
                    is_maximal = false;
                    seen.push(value[j]);
                } else if self.word.achievement() {
                    // The move makes the position illegal: the game ends, the mover wins.
                    seen.push(0);
                }
            }
            value[idx] = (0..).find(|v| !seen.contains(v)).unwrap_or(0);
            if is_maximal {
                maximal.push(c.clone());
            }
        }
        maximal.sort();
        Ok(Solved {
            value: value[0],
            maximal,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph_closure::{GraphClosure, Kind};
    use crate::names::parse_graph;

    fn counts_of(parts: &[u32], s: u64) -> Vec<u32> {
        let mut c = vec![0u32; parts.len()];
        let mut v = 0;
        for (i, &p) in parts.iter().enumerate() {
            for _ in 0..p {
                if s >> v & 1 == 1 {
                    c[i] += 1;
                }
                v += 1;
            }
        }
        c
    }

    const SMALL: &[&[u32]] = &[
        &[1, 1],
        &[1, 3],
        &[2, 2],
        &[2, 3],
        &[1, 1, 1],
        &[1, 1, 3],
        &[1, 2, 2],
        &[2, 2, 3],
        &[1, 4, 2],
        &[3, 3, 1, 1],
        &[2, 1, 1, 1],
    ];

    fn name(parts: &[u32]) -> String {
        let p: Vec<String> = parts.iter().map(u32::to_string).collect();
        format!("K_{{{}}}", p.join(","))
    }

    /// The closure by counts is the graph's own (BFS intervals, induced paths) on every
    /// subset, for the hull, the geodetic closure and the monophonic hull.
    #[test]
    fn closure_by_counts_is_the_graphs() {
        for parts in SMALL {
            let g = parse_graph(&name(parts)).unwrap();
            for (kind, iterate) in [
                (Kind::HULL, true),
                (Kind::GEODETIC, false),
                (Kind::MONOPHONIC, true),
            ] {
                let op = GraphClosure::new(&g, kind).unwrap();
                for s in 0..1u64 << g.n {
                    let closed = op.close(s);
                    let by_counts = close_counts(parts, &counts_of(parts, s), iterate);
                    // The closure only ever fills whole parts.
                    assert_eq!(
                        counts_of(parts, closed),
                        by_counts,
                        "{parts:?} {kind:?} {s:b}"
                    );
                }
            }
        }
    }

    /// All four games by counts against the verifier's exhaustive recursion over vertex sets.
    #[test]
    fn count_vectors_agree_with_vertex_sets() {
        for parts in SMALL {
            let g = parse_graph(&name(parts)).unwrap();
            for (kind, iterate) in [(Kind::HULL, true), (Kind::GEODETIC, false)] {
                let op = GraphClosure::new(&g, kind).unwrap();
                for word in [Word::Gen, Word::Dng, Word::Ter, Word::Dnt] {
                    let p64: Vec<u64> = parts.iter().map(|&p| p as u64).collect();
                    let game = CountGame::new(word, &p64, iterate).unwrap();
                    let by_counts = game.solve().unwrap().value;
                    let by_sets = crate::closure::exhaustive_sets(g.n, word, |s| {
                        if word.building() {
                            !op.generates(s)
                        } else {
                            op.generates(op.all() & !s)
                        }
                    })
                    .unwrap();
                    assert_eq!(by_counts, by_sets, "{word:?}({}) {kind:?}", name(parts));
                }
            }
        }
    }

    /// Seed 000 on graphs past 64 vertices (where only the counts reach): DNT of a complete
    /// multipartite graph has the parity of |V| (Prop 5.10), TER follows Prop 5.15's cases.
    #[test]
    fn known_values_past_64_vertices() {
        for parts in [[30u64, 40, 1], [50, 51, 2], [70, 1, 1]] {
            let v: u64 = parts.iter().sum();
            let g = CountGame::new(Word::Dnt, &parts, true).unwrap();
            assert_eq!(g.solve().unwrap().value as u64, v % 2, "DNT(K_{parts:?})");
        }
        // Prop 5.15, |V| even and d ≤ 1 gives 0: K_{40,40,70}, d = 70 − 78 < 1.
        let g = CountGame::new(Word::Ter, &[40, 40, 70], true).unwrap();
        assert_eq!(g.solve().unwrap().value, 0);
        // |V| odd and 3 ≤ d: K_{1,2,150}, d = 150 − 1 = 149: 0; |V| odd, d ≤ 0: K_{41,40,70}: 1.
        let g = CountGame::new(Word::Ter, &[1, 2, 150], true).unwrap();
        assert_eq!(g.solve().unwrap().value, 0);
        let g = CountGame::new(Word::Ter, &[41, 40, 70], true).unwrap();
        assert_eq!(g.solve().unwrap().value, 1);
        // Past the bound: refused, not guessed.
        let g = CountGame::new(Word::Ter, &[300, 300, 300], true).unwrap();
        assert!(g.solve().is_err());
    }
}
