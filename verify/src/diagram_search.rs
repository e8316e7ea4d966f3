//! Refuted diagrams re-derived (issue 43): a case analysis diagram (grundy's docs/design.md §3)
//! that fails at a start position, shown to fail by the verifier's own search of the diagram's
//! strategy from that start.
//!
//! The search reads the spec's nodes and arrows and evaluates every node's `when` on the
//! verifier's own features of each position ([`crate::features::of_diagram_start`]). At a
//! P-node every option must satisfy the target of some single arrow of its kind and be won
//! from there; at another node some option must satisfy the target of one of its reply arrows
//! and be won from there. It is read as leniently as it can be: every target an option
//! satisfies is tried, every reply is tried, and every sink the play reaches counts as won
//! (terminal, `*0`, or another diagram's start family, unchecked). A diagram that fails under
//! this reading fails under the stricter one grundy checks, so the refutation stands without
//! the sinks' own diagrams. Move kinds (`heap`, `dehub`, `split`) are read on a splitting
//! game with nimbers: a heap move changes the nimber, a dehub the number of centres c, a split
//! neither.

use crate::derive::{all_instances, Stop};
use crate::formula::{engine, Env, Evaluator, Val};
use crate::games::{Game, Pos, Rules};
use crate::names::substitute;
use crate::spec::{formula_text, DiagramText, Raw};
use std::collections::HashMap;

/// Most (node, position) pairs searched.
const MAX_PAIRS: usize = 200_000;

struct Search<'a> {
    rules: Rules,
    ev: Evaluator,
    text: &'a DiagramText,
    names: Vec<&'a String>,
    p_node: Vec<bool>,
    sink: Vec<bool>,
    /// Per node: the single arrows (P-nodes) or replies (other nodes), as (target, kind).
    out: Vec<Vec<(usize, Option<String>)>>,
    memo: HashMap<(usize, Pos), bool>,
    features: HashMap<Pos, Env>,
}

impl Search<'_> {
    fn env(&mut self, p: &Pos) -> Env {
        if let Some(e) = self.features.get(p) {
            return e.clone();
        }
        let mut env = Env::default();
        crate::features::of_diagram_start(&mut env, &self.rules, p);
        self.features.insert(p.clone(), env.clone());
        env
    }

    fn pred(&mut self, node: usize, p: &Pos) -> Result<bool, Stop> {
        let n = &self.text.nodes[self.names[node]];
        let Some(when) = &n.when else {
            return Ok(true);
        };
        let src = formula_text(when)
            .ok_or_else(|| Stop::Not(format!("node {}'s `when`", self.names[node])))?;
        let env = self.env(p);
        Ok(env.eval_bool(&self.ev, &src)?)
    }

    /// The kind of the move p → q (a splitting game with nimbers).
    fn kind(&mut self, p: &Pos, q: &Pos) -> Result<&'static str, Stop> {
        let (a, b) = (self.env(p), self.env(q));
        let get = |e: &Env, k: &str| e.vars.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
        let (Some(Val::Int(x)), Some(Val::Int(y))) = (get(&a, "c"), get(&b, "c")) else {
            return Err(Stop::Not(
                "move kinds of a game other than a splitting game with nimbers".into(),
            ));
        };
        Ok(if get(&a, "nimber") != get(&b, "nimber") {
            "heap"
        } else if x != y {
            "dehub"
        } else {
            "split"
        })
    }

    fn kind_ok(&mut self, arrow: &Option<String>, p: &Pos, q: &Pos) -> Result<bool, Stop> {
        match arrow.as_deref() {
            None | Some("any") => Ok(true),
            Some(k) => Ok(self.kind(p, q)? == k),
        }
    }

    /// Won from `p` at `node`, read leniently (see the module's header).
    fn valid(&mut self, node: usize, p: &Pos) -> Result<bool, Stop> {
        if self.sink[node] {
            return Ok(true);
        }
        if let Some(&v) = self.memo.get(&(node, p.clone())) {
            return Ok(v);
        }
        if self.memo.len() >= MAX_PAIRS {
            return Err(Stop::Not(format!(
                "the diagram's strategy past {MAX_PAIRS} (node, position) pairs"
            )));
        }
        let opts = self.rules.options_list(p).map_err(Stop::Not)?;
        let arrows = self.out[node].clone();
        let mut won = self.p_node[node];
        if self.p_node[node] {
            for q in &opts {
                let mut covered = false;
                for (t, k) in &arrows {
                    if self.kind_ok(k, p, q)? && self.pred(*t, q)? && self.valid(*t, q)? {
                        covered = true;
                        break;
                    }
                }
                if !covered {
                    won = false;
                    break;
                }
            }
        } else {
            'replies: for (t, k) in &arrows {
                for q in &opts {
                    if self.kind_ok(k, p, q)? && self.pred(*t, q)? && self.valid(*t, q)? {
                        won = true;
                        break 'replies;
                    }
                }
            }
        }
        self.memo.insert((node, p.clone()), won);
        Ok(won)
    }
}

/// The refutation at the start named `label` (`SPL(3,6) + *1 (m=3, n=6)`): no start node whose
/// predicate the start satisfies is won from there.
pub fn refuted(raw: &Raw, label: &str) -> Result<String, Stop> {
    let text = raw
        .diagram
        .as_ref()
        .ok_or_else(|| Stop::Not("a diagram the verifier did not read".into()))?;
    let families = raw
        .starts
        .as_ref()
        .ok_or_else(|| Stop::Not("a diagram without `starts`".into()))?;
    let ev = engine();
    let mut found = None;
    for fam in families {
        let sub: Raw = serde_json::from_value(fam.clone())
            .map_err(|e| Stop::Not(format!("a start family the verifier does not read: {e}")))?;
        if !sub.lets.is_empty() || fam.get("positions").is_some() {
            return Err(Stop::Not("start families with `let` or `positions`".into()));
        }
        let template = sub
            .game
            .as_ref()
            .ok_or_else(|| Stop::Not("a start family without `game`".into()))?;
        for i in all_instances(&sub)? {
            let name = substitute(template, &i.names);
            let shown = if i.label.is_empty() {
                name.clone()
            } else {
                format!("{name} ({})", i.label)
            };
            if shown != label {
                continue;
            }
            let game = Game::parse(&name).map_err(Stop::Not)?;
            let rules = Rules::new(&game).map_err(|e| Stop::Not(format!("{name}: {e}")))?;
            let mut env = i.env.clone();
            crate::features::of_diagram_start(&mut env, &rules, &rules.start());
            if let Some(f) = &sub.filter {
                let src = formula_text(f).ok_or_else(|| Stop::Not("`where`".into()))?;
                if !env.eval_bool(&ev, &src)? {
                    return Err(Stop::Reject(format!(
                        "the counterexample {label} is not selected by its start family's `where`"
                    )));
                }
            }
            found = Some((name, rules));
            break;
        }
        if found.is_some() {
            break;
        }
    }
    let (name, rules) = found.ok_or_else(|| {
        Stop::Reject(format!(
            "the counterexample {label} is not a start the spec generates"
        ))
    })?;
    if rules.misere() {
        return Err(Stop::Not("a diagram of a game played misère".into()));
    }
    let names: Vec<&String> = text.nodes.keys().collect();
    let index = |n: &str| -> Result<usize, Stop> {
        names
            .iter()
            .position(|x| *x == n)
            .ok_or_else(|| Stop::Not(format!("an arrow to or from `{n}`, not a node")))
    };
    let mut out = vec![Vec::new(); names.len()];
    let mut replied = vec![false; names.len()];
    let mut single = vec![Vec::new(); names.len()];
    let mut reply = vec![Vec::new(); names.len()];
    for a in &text.arrows {
        let (f, t) = (index(&a.from)?, index(&a.to)?);
        match a.style.as_deref().unwrap_or("single") {
            "single" => single[f].push((t, a.kind.clone())),
            "double" | "dashed" | "dotted" => {
                replied[t] = true;
                reply[f].push((t, a.kind.clone()));
            }
            s => return Err(Stop::Not(format!("arrows of style `{s}`"))),
        }
    }
    let sink: Vec<bool> = names
        .iter()
        .map(|n| text.nodes[*n].sink.is_some())
        .collect();
    let starts: Vec<usize> = (0..names.len())
        .filter(|&i| text.nodes[names[i]].start.is_some())
        .collect();
    // §3: P-nodes are start nodes, sinks and targets of replies; they leave by single arrows.
    let p_node: Vec<bool> = (0..names.len())
        .map(|i| starts.contains(&i) || sink[i] || replied[i])
        .collect();
    for i in 0..names.len() {
        out[i] = if p_node[i] {
            single[i].clone()
        } else {
            reply[i].clone()
        };
    }
    let mut s = Search {
        rules,
        ev,
        text,
        names,
        p_node,
        sink,
        out,
        memo: HashMap::new(),
        features: HashMap::new(),
    };
    let start = s.rules.start();
    let mut entered = Vec::new();
    for &n in &starts {
        if s.pred(n, &start)? {
            if s.valid(n, &start)? {
                return Err(Stop::Reject(format!(
                    "the diagram's strategy wins from {name} at its start node {} (the verifier's search, every sink counted as won): the counterexample does not refute it",
                    s.names[n]
                )));
            }
            entered.push(s.names[n].clone());
        }
    }
    Ok(if entered.is_empty() {
        format!("the start of {name} satisfies no start node's predicate")
    } else {
        format!(
            "from the start of {name} at {} the diagram's strategy does not win: the verifier's search, every sink counted as won and every reply tried, finds a first-player move it does not answer ({} (node, position) pairs)",
            entered.join(", "),
            s.memo.len()
        )
    })
}
