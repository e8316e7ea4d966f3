//! Fuzzes the user-graph readers: DOT, edge lists and graph6 (the first byte chooses which).
//! Any text must give a graph or an error, never a panic or a stack overflow.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    if let Ok(text) = std::str::from_utf8(rest) {
        let _ = match which % 3 {
            0 => grundy::graph::io::from_dot("fuzz", text),
            1 => grundy::graph::io::from_edge_list("fuzz", text),
            _ => grundy::graph::io::from_graph6(text),
        };
    }
});
