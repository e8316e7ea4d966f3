//! Fuzzes the game-expression parser (`grundy solve`, spec `game:` fields): any text must give
//! a game or an error, never a panic or a stack overflow. Only parsing is fuzzed, not solving.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        // `file:` would read arbitrary paths of the fuzzing machine; the graph readers have
        // their own target.
        if text.contains("file:") {
            return;
        }
        let _ = grundy::expr::parse_game(text, grundy::expr::ParseOptions::default());
    }
});
