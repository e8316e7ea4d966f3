//! Fuzzes template compilation and rendering (a user's `templates/` folder): any template text
//! must render or give an error, never a panic or a stack overflow, over a view shaped like
//! the figures' (strings with TeX, numbers, lists, nested maps). Work a template may do is
//! bounded by the build's sandbox (src/render/sandbox.rs), not here: libFuzzer's -timeout
//! reports what runs long.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut ctx = tera::Context::new();
    ctx.insert("title", "TER(C_5) and $\\frac{1}{2}$ <b>&</b>");
    ctx.insert("values", &[0u32, 1, 2, 3]);
    ctx.insert("rows", &vec![vec!["a", "b"], vec!["c", "d"]]);
    ctx.insert("n", &7);
    let _ = grundy::render::render_one_off(text, &ctx);
});
