//! The registry: every extension point of grundy as one value a program hands to the
//! pipeline. The built-ins are registered by default, one list each, one line per entry:
//!
//! | concept | the list | one file per entry in |
//! |---|---|---|
//! | graph closure (hull, geodetic, monophonic) | [`crate::graph::closures::BUILTIN`] | `src/graph/closures/` |
//! | closure structure (groups, posets, set families, digraphs, …) | [`crate::game::closure::OPERATORS`] | `src/game/closure/` |
//! | game family (Node Kayles) | [`crate::game::family::FAMILIES`] | `src/game/` |
//! | graph family (P_n, C_n, W_n, GP_{n,k}, Petersen, …) | [`crate::graph::families::FAMILIES`] | `src/graph/families.rs` (named graphs: `src/graph/named.rs`) |
//! | spec kind (claim, table, …) | [`crate::kinds::KINDS`] | `src/kinds/` |
//!
//! Every other list (the spec reader's closures, `--closure` and its help, `grundy schema`,
//! `grundy features`, the language help, the guide's generated pages) is read from these.
//! A Rust program adds a closure, a game family or a graph family from outside the crate
//! without forking it: `Registry::builtin().with_closure(&MINE).with_family(&OURS)
//! .with_graph_family(&FANS)`, then
//! [`crate::pipeline::build_with`] (or [`Registry::install`] before any other call); the
//! docs' "Extending grundy" page and tests/extension.rs do exactly that.

use crate::game::family::Family;
use crate::graph::closures::GraphClosure;
use crate::graph::families::GraphFamily;

/// The extension points beyond the built-ins.
#[derive(Default)]
pub struct Registry {
    closures: Vec<&'static dyn GraphClosure>,
    families: Vec<&'static dyn Family>,
    graph_families: Vec<&'static GraphFamily>,
    kinds: Vec<crate::kinds::KindEntry>,
}

impl Registry {
    /// The built-ins only.
    pub fn builtin() -> Registry {
        Registry::default()
    }

    /// With a graph closure of one's own (its name must be new).
    pub fn with_closure(mut self, c: &'static dyn GraphClosure) -> Registry {
        self.closures.push(c);
        self
    }

    /// With a game family of one's own (its heads must be new).
    pub fn with_family(mut self, f: &'static dyn Family) -> Registry {
        self.families.push(f);
        self
    }

    /// With a graph family of one's own (`HEAD_n`; its head must be new).
    pub fn with_graph_family(mut self, f: &'static GraphFamily) -> Registry {
        self.graph_families.push(f);
        self
    }

    /// With a spec kind of one's own (its `kind:` name must be new): its entry names the
    /// reader (`crate::spec::parse_with` and a validation into a `SpecKind`) and the schema.
    pub fn with_kind(mut self, k: crate::kinds::KindEntry) -> Registry {
        self.kinds.push(k);
        self
    }

    /// Makes the registry the process's: the expression language, the spec reader, the
    /// solvers and the pipeline then know its entries. Refused (and nothing more added) at the
    /// first entry whose name or head is taken by another; installing the same entries again
    /// is a no-op.
    pub fn install(&self) -> Result<(), String> {
        for &c in &self.closures {
            crate::graph::closures::register(c)?;
        }
        for &f in &self.families {
            crate::game::family::register(f)?;
        }
        for &f in &self.graph_families {
            crate::graph::families::register(f)?;
        }
        for &k in &self.kinds {
            crate::kinds::register(k)?;
        }
        Ok(())
    }
}
