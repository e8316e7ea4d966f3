//! The geodetic closure I[S] of a graph: one step of geodesic intervals, not iterated (seed
//! 000 §6 question 2; the closure of Buckley–Harary's and Haynes et al.'s geodetic games). It
//! is extensive and monotone but not idempotent, which the games allow. Shares
//! [`super::hull::GraphOperator`].

use super::Operator;
use crate::graph::Closure;

pub const OPERATOR: Operator = Operator {
    kind: "geodetic",
    about: "graphs: the geodetic closure I[S], one step",
    read: |text, closure| super::hull::read(text, closure, Closure::Geodetic),
};
