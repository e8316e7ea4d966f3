//! Nimbers `*k`: `Opt(*k) = {*0, …, *(k-1)}`.

use super::Game;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Nimber(pub u32);

impl Game for Nimber {
    type Pos = u32;
    fn start(&self) -> u32 {
        self.0
    }
    fn options(&self, p: &u32) -> Vec<u32> {
        (0..*p).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::Solver;

    #[test]
    fn nimber_value_is_its_size() {
        for k in 0..12 {
            assert_eq!(Solver::new(&Nimber(k)).nim_of_start(), k);
        }
    }
}
