//! Disjoint sums `G + H` (move in exactly one component) and ordinal sums `G : H`
//! (paper, before Prop 5.26: a move in `G` discards `H`; `H` may be played only while `G`
//! is at its start position).

use super::Game;

/// Disjoint sum of two games, solved directly on pairs (the XOR law is a test, not an input).
pub struct Sum<G, H>(pub G, pub H);

impl<G: Game, H: Game> Game for Sum<G, H> {
    type Pos = (G::Pos, H::Pos);
    fn start(&self) -> Self::Pos {
        (self.0.start(), self.1.start())
    }
    fn options(&self, p: &Self::Pos) -> Vec<Self::Pos> {
        let mut out: Vec<Self::Pos> = self
            .0
            .options(&p.0)
            .into_iter()
            .map(|a| (a, p.1.clone()))
            .collect();
        out.extend(self.1.options(&p.1).into_iter().map(|b| (p.0.clone(), b)));
        out
    }
    fn canonical(&self, p: &Self::Pos) -> Self::Pos {
        (self.0.canonical(&p.0), self.1.canonical(&p.1))
    }
}

/// Ordinal sum `G : H` with the paper's position set `G × H`: once `p` leaves `G`'s start,
/// `q` is frozen (kept, so that drawn gamegraphs match the paper's Figure 5.4).
pub struct Ordinal<G, H>(pub G, pub H);

impl<G: Game, H: Game> Game for Ordinal<G, H> {
    type Pos = (G::Pos, H::Pos);
    fn start(&self) -> Self::Pos {
        (self.0.start(), self.1.start())
    }
    fn options(&self, p: &Self::Pos) -> Vec<Self::Pos> {
        let g0 = self.0.start();
        let mut out: Vec<Self::Pos> = self
            .0
            .options(&p.0)
            .into_iter()
            .map(|a| (a, p.1.clone()))
            .collect();
        if p.0 == g0 {
            out.extend(self.1.options(&p.1).into_iter().map(|b| (p.0.clone(), b)));
        }
        out
    }
}
