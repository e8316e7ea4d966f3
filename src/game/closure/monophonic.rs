//! The monophonic hull of a graph: induced-path intervals J[u, v]
//! ([`crate::graph::monophonic`]) iterated to a fixed point. Shares
//! [`super::hull::GraphOperator`].

use super::Operator;
use crate::graph::Closure;

pub const OPERATOR: Operator = Operator {
    kind: "monophonic",
    about: "graphs: the monophonic hull, induced-path intervals iterated",
    read: |text, closure| super::hull::read(text, closure, Closure::Monophonic),
};
