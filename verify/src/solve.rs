//! The verifier's own nim-values for formulas that name a game, such as `nim("TER(W_6)")`
//! (Prop 5.26) or `nim("DC(7)")` (Prop 5.22): the Sprague–Grundy recursion
//! nim(p) = mex nim(Opt(p)) over the game built by [`crate::names`] from its name, memoised
//! with an explicit stack and bounded in positions. Dawson's Chess is solved run by run: a
//! knocked-down pin separates the row into runs no move crosses, so a position is the
//! disjoint sum of its runs (nim-sum of their values), and a run of k pins has the options
//! "knock pin i" leaving runs of i − 2 and k − i − 1 pins (fewer at the ends).

use crate::games::{mex, Pos, Rules};
use crate::names::parse_game;
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

/// Most positions solved for one named game.
const MAX_POSITIONS: usize = 200_000;
/// Longest Dawson's Chess row solved.
const MAX_PINS: usize = 100_000;

/// nim(DC(k)) for a run of k standing pins, by the rule of the game.
fn dawson_runs(k: usize) -> Vec<u32> {
    let mut g = vec![0u32; k + 1];
    for n in 1..=k {
        let mut seen = Vec::with_capacity(n);
        for i in 1..=n {
            // Pin i falls with its neighbours i − 1 and i + 1 (where they stand).
            let left = i.saturating_sub(2);
            let right = n.saturating_sub(i + 1);
            seen.push(g[left] ^ g[right]);
        }
        g[n] = mex(&seen);
    }
    g
}

fn solve(rules: &Rules) -> Result<u32, String> {
    let start = rules.start();
    let mut memo: HashMap<Pos, u32> = HashMap::new();
    let mut stack = vec![(start.clone(), false)];
    while let Some((p, expanded)) = stack.pop() {
        if memo.contains_key(&p) {
            continue;
        }
        let opts = rules.options(&p);
        if expanded {
            // Every option was solved above this entry on the stack.
            let vals: Vec<u32> = opts.iter().map(|q| memo[q]).collect();
            memo.insert(p, mex(&vals));
            if memo.len() > MAX_POSITIONS {
                return Err(format!("more than {MAX_POSITIONS} positions"));
            }
        } else {
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
    if let Some(v) = cache.lock().unwrap_or_else(|e| e.into_inner()).get(name) {
        return Ok(*v);
    }
    let row = name
        .trim()
        .strip_prefix("DC(")
        .and_then(|r| r.strip_suffix(')'))
        .and_then(|k| k.trim().parse::<usize>().ok());
    let v = match row {
        Some(p) => dawson(p)?,
        None => {
            let game = parse_game(name)?;
            solve(&Rules::new(&game)?).map_err(|e| format!("nim({name}): {e}"))?
        }
    };
    cache
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(name.to_string(), v);
    Ok(v)
}

/// nim(DC(p)) for long rows, which the bitmask positions of [`Rules`] cannot hold.
pub fn dawson(p: usize) -> Result<u32, String> {
    if p > MAX_PINS {
        return Err(format!("DC({p}) is longer than the verifier solves"));
    }
    Ok(dawson_runs(p)[p])
}

#[cfg(test)]
mod tests {
    /// Dawson's Chess is the octal game 0.137 (before Prop 5.23): its values from the rule are
    /// A002187, 0112031103322405223301130211045274 for n = 0..33.
    #[test]
    fn dawson_from_the_rule_is_a002187() {
        let known = "0112031103322405223301130211045274";
        let g = super::dawson_runs(33);
        let got: String = g
            .iter()
            .map(|v| char::from_digit(*v, 10).unwrap())
            .collect();
        assert_eq!(got, known);
        // The generic solver on the pin-row game agrees where both apply.
        for n in 1..=12 {
            assert_eq!(super::nim_of_name(&format!("DC({n})")).unwrap(), g[n]);
            let game = crate::names::parse_game(&format!("DC({n})")).unwrap();
            let rules = crate::games::Rules::new(&game).unwrap();
            assert_eq!(super::solve(&rules).unwrap(), g[n], "DC({n})");
        }
        // nim(TER(P_3)) = 2 (worked in tests/corruption.rs).
        assert_eq!(super::nim_of_name("TER(P_3)").unwrap(), 2);
    }
}
