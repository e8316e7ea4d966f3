//! The verifier's own nim-values for formulas that name a game, such as `nim("TER(W_6)")`
//! (Prop 5.26) or `nim("DC(7)")` (Prop 5.22): the Sprague–Grundy recursion
//! nim(p) = mex nim(Opt(p)) over the game built by [`crate::games`] from its name, memoised
//! with an explicit stack and bounded in positions. A game family may solve its named games
//! by a rule of its own instead ([`crate::games::Family::nim_of_name`]: Dawson's Chess run by
//! run, for rows longer than positions hold); a closure game is solved by
//! [`crate::closure`].

use crate::games::{mex, nim_by_family, Game, Pos, Rules};
use std::collections::{HashMap, HashSet};
use std::sync::{Mutex, OnceLock};

/// Most positions solved for one named game.
const MAX_POSITIONS: usize = 200_000;

/// nim of the start of `rules`, by the recursion. A position reached again while its own
/// options are still being solved lies on a cycle (a game written as a rule in a spec need not
/// be acyclic): an error, as is a rule that fails.
pub fn solve(rules: &Rules) -> Result<u32, String> {
    solve_at(rules, &rules.start(), &mut HashMap::new())
}

/// nim of `start` in `rules`, by the same recursion, adding to `memo` (shared between the
/// positions of one game, e.g. the nodes of a figure).
pub fn solve_at(rules: &Rules, start: &Pos, memo: &mut HashMap<Pos, u32>) -> Result<u32, String> {
    let start = start.clone();
    let mut open: HashSet<Pos> = HashSet::new();
    let mut stack = vec![(start.clone(), false)];
    while let Some((p, expanded)) = stack.pop() {
        if memo.contains_key(&p) {
            continue;
        }
        let opts = rules.options(&p)?;
        if expanded {
            // Every option was solved above this entry on the stack.
            let vals: Vec<u32> = opts.iter().map(|q| memo[q]).collect();
            open.remove(&p);
            memo.insert(p, mex(&vals));
            if memo.len() > MAX_POSITIONS {
                return Err(format!("more than {MAX_POSITIONS} positions"));
            }
        } else {
            if !open.insert(p.clone()) {
                return Err(format!(
                    "{p:?} is reached again from its own options (the game is not acyclic)"
                ));
            }
            if open.len() > MAX_POSITIONS {
                return Err(format!("more than {MAX_POSITIONS} positions"));
            }
            stack.push((p, true));
            stack.extend(
                opts.into_iter()
                    .filter(|q| !memo.contains_key(q))
                    .map(|q| (q, false)),
            );
        }
    }
    Ok(memo[&start])
}

/// The nim-value of the game `name`, or why the verifier does not compute it.
pub fn nim_of_name(name: &str) -> Result<u32, String> {
    static CACHE: OnceLock<Mutex<HashMap<String, u32>>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    // A graph game's value depends on the closure it is played under (the spec's).
    let key = format!("{name} under {}", crate::closures::spec_closure().text());
    if let Some(v) = cache.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return Ok(*v);
    }
    let closure_game = crate::closure::parse(name, Some(crate::closures::spec_closure().text()));
    let v = match (nim_by_family(name), closure_game) {
        (Some(v), _) => v?,
        // A closure game (GEN(Cyc(4)), DNG of a group, a poset, …): its own solvers.
        (None, Some(g)) => {
            g.and_then(|g| g.value())
                .map_err(|e| format!("nim({name}): {e}"))?
                .0
        }
        (None, None) => {
            let game = Game::parse(name)?;
            let rules = Rules::new(&game)?;
            if rules.misere() {
                return Err(format!("nim({name}): {name} is played misère, whose nim-values do not add (only its outcome is claimed)"));
            }
            solve(&rules).map_err(|e| format!("nim({name}): {e}"))?
        }
    };
    cache
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(key, v);
    Ok(v)
}
