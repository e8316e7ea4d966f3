//! Fuzzes the inline structures of the closure games: posets, digraphs, weighted graphs,
//! families of sets, blocks and permutation groups written in a game's name (the first byte
//! chooses which and which game word). Any text must give a game or an error, never a panic
//! or a stack overflow; a game that parses has its maximal legal sets searched within a small
//! budget (the dispatcher's route for it), which must end too.
#![no_main]

use libfuzzer_sys::fuzz_target;

const HEADS: [&str; 6] = ["Poset", "Digraph", "Weighted", "Sets", "Blocks", "Perm"];
const WORDS: [&str; 4] = ["GEN", "DNG", "TER", "DNT"];

fuzz_target!(|data: &[u8]| {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let Ok(body) = std::str::from_utf8(rest) else {
        return;
    };
    let head = HEADS[which as usize % HEADS.len()];
    let word = WORDS[(which as usize / HEADS.len()) % WORDS.len()];
    let text = format!("{word}({head}({body}))");
    if let Ok(grundy::game::AnyGame::Closure(g)) =
        grundy::expr::parse_game(&text, grundy::expr::ParseOptions::default())
    {
        if g.size() <= 24 {
            let _ = g.facets();
        }
    }
});
