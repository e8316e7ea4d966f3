//! Graph closures defined in specs (`kind: game` with `closure:` and `interval:`;
//! docs/user-games.md): the intervals are the spec's rule, evaluated by the verifier's own
//! interpreter ([`crate::user`]) for every pair u < v and used symmetrically, I(u, u) = {u};
//! an interval that does not hold u and v, has a bit outside the graph, or a rule that fails
//! is an error naming the spec file and the pair. `iterated:` as the spec states it. A user
//! closure declares no capability (not geodesic): the closure games use only its intervals.
//! Its registry entry is filled when the specs are read (`Kind::parse` finds it by name after
//! the built-in ones); certificates name it as they name `hull`, with the spec file's sha256
//! in `closure_sha256` ([`crate::checks`]).

use super::Rule;
use crate::games::Graph;
use crate::user::{self, GraphData, UserClosure};
use rhai::INT;
use std::sync::Arc;

/// Every error of a user closure's rule says so (a rejection, not a closure the verifier
/// cannot build).
pub const FAILED: &str = "the interval rule of";

impl Rule for UserClosure {
    fn name(&self) -> &'static str {
        self.name
    }

    fn intervals(&self, g: &Graph) -> Result<Vec<Vec<u64>>, String> {
        let d = Arc::new(GraphData::new(g)?);
        let n = d.n;
        let all = user::low_bits(n);
        let engine = user::engine(Some(d.clone()));
        let mut interval = super::pairs(n);
        for u in 0..n {
            for v in u + 1..n {
                let err = |e: String| {
                    format!(
                        "{}: {FAILED} {} at (u, v) = ({u}, {v}): {e}",
                        self.path, self.name
                    )
                };
                let mut scope = user::graph_scope(&d, all);
                scope.push_constant("u", u as INT);
                scope.push_constant("v", v as INT);
                let s = user::run(&engine, &mut scope, &self.interval)
                    .and_then(|x| user::mask(&x, all))
                    .map_err(err)?;
                if s >> u & 1 == 0 || s >> v & 1 == 0 {
                    return Err(err(format!("the interval {s} does not hold u and v")));
                }
                interval[u][v] = s;
                interval[v][u] = s;
            }
        }
        Ok(interval)
    }

    fn iterated(&self) -> bool {
        self.iterated
    }

    fn spec_sha256(&self) -> Option<&'static str> {
        Some(self.sha256)
    }
}
