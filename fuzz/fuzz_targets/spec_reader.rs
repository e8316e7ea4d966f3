//! Fuzzes the spec reader (both stages: YAML into raw structs, validation into model types):
//! any input must give a spec or an error, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let src = grundy::spec::Source { file: "fuzz.yaml", text };
        let _ = grundy::kinds::parse_spec(&src, "fuzz");
    }
});
