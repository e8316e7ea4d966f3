//! Maps between quotient gamegraphs (issue 43, quotient maps; paper 000 §3, Example 3.4 and
//! Prop 5.27): the canonical quotient map identifying congruent positions, or a map between
//! the terminal quotients of two games.
//!
//! A side's classes are found by the verifier itself: under `automorphisms`, the orbits of the
//! game's automorphisms ([`crate::games::Rules::symmetries`], each class named by its least
//! image); under `terminal`, all terminal positions are one class and every other position is
//! its own. A quotient map is option-preserving only if the quotient is a congruence (congruent
//! positions have options in the same classes), which is checked on every position reached.
//! The map is then read on classes: it must send congruent positions to one class, and
//! {class f(o) : o ∈ Opt(p)} must be the classes of Opt(f(p)) at every listed p. Start to
//! start, onto (every class reachable in the target is an image) and one to one are read on
//! classes too.

use crate::checks::{Map, MapFact};
use crate::games::{Pos, Rules};
use std::collections::{BTreeSet, HashMap, HashSet};

/// Most target positions explored.
const MAX_TARGET: usize = 1_000_000;

/// A class: `None` is the class of all terminal positions of a terminal quotient.
type Class = Option<Pos>;

enum Quotient {
    None,
    Automorphisms(Vec<Vec<usize>>),
    Terminal,
}

impl Quotient {
    fn read(name: Option<&str>, rules: &Rules) -> Result<Quotient, String> {
        match name {
            None => Ok(Quotient::None),
            Some("terminal") => Ok(Quotient::Terminal),
            Some("automorphisms") => {
                rules
                    .symmetries()
                    .map(Quotient::Automorphisms)
                    .ok_or_else(|| {
                        "a quotient by automorphisms of a game the verifier finds none of".into()
                    })
            }
            Some(q) => Err(format!("unknown quotient `{q}`")),
        }
    }

    fn class(&self, rules: &Rules, p: &Pos) -> Result<Class, String> {
        Ok(match self {
            Quotient::None => Some(p.clone()),
            Quotient::Terminal => (!rules.options(p)?.is_empty()).then(|| p.clone()),
            Quotient::Automorphisms(perms) => {
                let Pos::Set(s) = p else {
                    return Err("automorphisms of a game without vertex sets".into());
                };
                Some(Pos::Set(crate::games::least_image(perms, *s)))
            }
        })
    }

    /// The classes of Opt(p).
    fn option_classes(&self, rules: &Rules, p: &Pos) -> Result<BTreeSet<String>, String> {
        rules
            .options(p)?
            .iter()
            .map(|o| self.class(rules, o).map(|c| format!("{c:?}")))
            .collect()
    }
}

/// Checks that `positions`' classes are a congruence: congruent positions, options in the same
/// classes.
fn congruence(
    q: &Quotient,
    rules: &Rules,
    positions: &[Pos],
    side: &str,
) -> Result<HashMap<Class, BTreeSet<String>>, String> {
    let mut seen: HashMap<Class, (Pos, BTreeSet<String>)> = HashMap::new();
    for p in positions {
        let c = q.class(rules, p)?;
        let opts = q.option_classes(rules, p)?;
        match seen.get(&c) {
            Some((first, o)) if *o != opts => {
                return Err(format!(
                    "the quotient of `{side}` is not a congruence: {first:?} and {p:?} are identified, their options are not"
                ))
            }
            Some(_) => {}
            None => {
                seen.insert(c, (p.clone(), opts));
            }
        }
    }
    Ok(seen.into_iter().map(|(c, (_, o))| (c, o)).collect())
}

pub fn check(m: &Map, g: &Rules, h: &Rules) -> Result<(u64, MapFact), String> {
    let fq = Quotient::read(m.from_quotient.as_deref(), g)?;
    let tq = Quotient::read(m.to_quotient.as_deref(), h)?;
    let mut f: HashMap<Pos, Pos> = HashMap::new();
    let mut domain = Vec::new();
    for (i, (p, q)) in m.pairs.iter().enumerate() {
        let (p, q) = (
            g.pos(p).map_err(|e| format!("pair {i}: {e}"))?,
            h.pos(q).map_err(|e| format!("pair {i}: {e}"))?,
        );
        if f.insert(p.clone(), q).is_some() {
            return Err(format!("pair {i}: position listed twice"));
        }
        domain.push(p);
    }
    if !f.contains_key(&g.start()) {
        return Err("the start position is not mapped".into());
    }
    // The domain is closed under options, so it is every position reachable from the start.
    for p in &domain {
        for o in g.options(p)? {
            if !f.contains_key(&o) {
                return Err(format!("option {o:?} of {p:?} is not mapped"));
            }
        }
    }
    congruence(&fq, g, &domain, "from")?;
    // The target from its start and from every image.
    let mut order: Vec<Pos> = vec![h.start()];
    let mut seen: HashSet<Pos> = order.iter().cloned().collect();
    for q in f.values() {
        if seen.insert(q.clone()) {
            order.push(q.clone());
        }
    }
    let mut i = 0;
    while i < order.len() {
        for r in h.options(&order[i])? {
            if seen.insert(r.clone()) {
                if order.len() >= MAX_TARGET {
                    return Err(format!("more than {MAX_TARGET} target positions"));
                }
                order.push(r);
            }
        }
        i += 1;
    }
    let target_options = congruence(&tq, h, &order, "to")?;
    // The map on classes.
    let mut on_classes: HashMap<Class, Class> = HashMap::new();
    for p in &domain {
        let (c, image) = (fq.class(g, p)?, tq.class(h, &f[p])?);
        match on_classes.get(&c) {
            Some(other) if *other != image => {
                return Err(format!(
                    "f sends congruent positions to different classes (at {p:?})"
                ))
            }
            _ => {
                on_classes.insert(c, image);
            }
        }
    }
    for p in &domain {
        let mut image = BTreeSet::new();
        for o in g.options(p)? {
            image.insert(format!("{:?}", on_classes[&fq.class(g, &o)?]));
        }
        let want = &target_options[&tq.class(h, &f[p])?];
        if image != *want {
            return Err(format!(
                "Opt(f({p:?})) ≠ f(Opt({p:?})) on classes: {want:?} against {image:?}"
            ));
        }
    }
    let start_to_start = tq.class(h, &f[&g.start()])? == tq.class(h, &h.start())?;
    // Onto: every class reachable from the target's start is an image.
    let images: HashSet<&Class> = on_classes.values().collect();
    let mut surjective = true;
    let mut reached: HashSet<Pos> = HashSet::from([h.start()]);
    let mut stack = vec![h.start()];
    while let Some(q) = stack.pop() {
        if !images.contains(&tq.class(h, &q)?) {
            surjective = false;
            break;
        }
        for r in h.options(&q)? {
            if reached.insert(r.clone()) {
                stack.push(r);
            }
        }
    }
    let fact = MapFact {
        instance: m.instance.clone(),
        from_quotient: m.from_quotient.clone(),
        to_quotient: m.to_quotient.clone(),
        from: m.from.clone(),
        to: m.to.clone(),
        start_to_start,
        surjective,
        injective: images.len() == on_classes.len(),
        pairs: m.pairs.len() as u64,
    };
    Ok((m.pairs.len() as u64, fact))
}
