//! A graph closure defined in a spec (`closure:` and `interval:`) as a registered
//! [`GraphClosure`]: I(u, v) is the rule evaluated for u < v, used symmetrically, with
//! I(u, u) = {u}. A rule error or an interval that misses u or v (or holds a bit past the
//! graph) makes the intervals fail; the message is kept for [`GraphClosure::failure`], which
//! the closure games quote (exit 2). The closure declares no capability.

use super::{leak, ClosureDef, Evaluator, GraphData};
use crate::graph::closures::GraphClosure;
use crate::graph::Graph;
use rhai::{Dynamic, INT};
use std::sync::{Arc, Mutex};

/// A closure spec's registration.
pub struct UserClosure {
    def: ClosureDef,
    name: &'static str,
    about: &'static str,
    failure: Mutex<Option<String>>,
}

impl UserClosure {
    pub fn new(def: ClosureDef) -> UserClosure {
        UserClosure {
            name: leak(def.name.clone()),
            about: leak(format!("{} (defined in {})", def.title, def.file)),
            def,
            failure: Mutex::new(None),
        }
    }

    /// The intervals of `g`, or what is wrong with the rule there.
    pub fn try_intervals(&self, g: &Graph) -> Result<Vec<u64>, String> {
        let n = g.n();
        if n > 64 {
            return Err(format!(
                "{} has {n} vertices; closures hold at most 64",
                g.name()
            ));
        }
        let data = Arc::new(GraphData::new(g));
        let all = data.all_vertices();
        let mut eval = Evaluator::new(Some((data, all)));
        let mut interval = vec![0u64; n * n];
        for u in 0..n {
            interval[u * n + u] = 1 << u;
            for v in u + 1..n {
                let at = || {
                    format!(
                        "{}: the closure `{}` on {} at u = {}, v = {}",
                        self.def.file,
                        self.def.name,
                        g.name(),
                        g.vertex_name(u),
                        g.vertex_name(v)
                    )
                };
                let r = eval
                    .eval(
                        &self.def.interval,
                        &[
                            ("u", Dynamic::from_int(u as INT)),
                            ("v", Dynamic::from_int(v as INT)),
                        ],
                    )
                    .map_err(|e| format!("{}: the rule `interval`: {e}", at()))?;
                let m = r.as_int().map_err(|t| {
                    format!(
                        "{}: the rule `interval` returned {t}, not a vertex mask",
                        at()
                    )
                })?;
                let m = m as u64;
                if m & !all != 0 || (m as INT) < 0 {
                    return Err(format!(
                        "{}: the rule `interval` returned {m}, which holds a bit past the graph's vertices",
                        at()
                    ));
                }
                if m & (1 << u) == 0 || m & (1 << v) == 0 {
                    return Err(format!(
                        "{}: the rule `interval` returned {}, which misses u or v (an interval holds both)",
                        at(),
                        g.format_set(m)
                    ));
                }
                interval[u * n + v] = m;
                interval[v * n + u] = m;
            }
        }
        Ok(interval)
    }
}

impl GraphClosure for UserClosure {
    fn name(&self) -> &'static str {
        self.name
    }
    fn about(&self) -> &'static str {
        self.about
    }
    fn intervals(&self, g: &Graph, _budget: u64) -> Option<Vec<u64>> {
        match self.try_intervals(g) {
            Ok(i) => Some(i),
            Err(e) => {
                *self.failure.lock().unwrap_or_else(|e| e.into_inner()) = Some(e);
                None
            }
        }
    }
    fn iterated(&self) -> bool {
        self.def.iterated
    }
    fn failure(&self) -> Option<String> {
        self.failure
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }
    fn spec_sha256(&self) -> Option<&str> {
        Some(&self.def.sha256)
    }
}
