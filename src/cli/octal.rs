//! `grundy octal CODE --len N`: the nim sequence of an octal game and its eventual period,
//! proved by the Guy–Smith periodicity theorem (see `game::octal`).

use crate::game::octal::{Engine, OctalCode};
use crate::term::{errln, outln};
use std::process::ExitCode;

/// Above this many values the sequence would not be worth printing or computing here.
const MAX_LEN: usize = 1 << 22;

pub fn run(code: &str, len: usize, json: bool) -> ExitCode {
    let c = match OctalCode::parse(code) {
        Ok(c) => c,
        Err(e) => return super::report(miette::Report::msg(e.to_string())),
    };
    if len == 0 || len > MAX_LEN {
        return super::report(miette::Report::msg(format!(
            "--len {len}: expected a length between 1 and {MAX_LEN}"
        )));
    }
    let t0 = std::time::Instant::now();
    let mut engine = Engine::new(&c, true);
    let g = engine.sequence(len);
    let seconds = t0.elapsed().as_secs_f64();
    let per = crate::game::octal::periodicity_of(&g, c.max_removal());
    let stats = engine.stats();
    let method = method_summary(stats, engine.computed().len(), len);
    if json {
        let obj = serde_json::json!({
            "code": c.text(),
            "len": len,
            "sequence": g,
            "periodicity": per,
            "seconds": seconds,
            "method": method,
            "engine": stats,
        });
        outln!("{obj}");
        return ExitCode::SUCCESS;
    }
    outln!(
        "octal game {} (a move removes at most t = {} tokens)",
        c.text(),
        c.max_removal()
    );
    outln!("G(0..{len}):");
    for chunk in g.chunks(34) {
        let line: Vec<String> = chunk.iter().map(u32::to_string).collect();
        outln!("  {}", line.join(" "));
    }
    match &per.proof {
        Some(p) => {
            outln!(
                "period {}, least preperiod {}{}",
                p.period,
                p.preperiod,
                match p.last_exception {
                    Some(n) => format!(" (last exceptional value at n = {n})"),
                    None => " (purely periodic)".to_string(),
                }
            );
            outln!(
                "proved (Guy–Smith): G(n+{}) = G(n) for {} <= n < 2*{}+{}+{} = {}, checked on values up to n = {}",
                p.cert_period,
                p.cert_preperiod,
                p.cert_preperiod,
                p.cert_period,
                per.max_removal,
                p.cert_bound,
                per.checked_to - 1
            );
        }
        None => outln!("no period certified from the first {len} values (try a larger --len)"),
    }
    errln!("{seconds:.3} s ({method})");
    ExitCode::SUCCESS
}

/// Which methods produced the sequence, in words.
pub fn method_summary(
    stats: &crate::game::octal::EngineStats,
    computed: usize,
    len: usize,
) -> String {
    let mut parts = Vec::new();
    if stats.rare_common > 0 {
        parts.push(format!("rare/common for {} heaps", stats.rare_common));
    }
    if stats.definition > 0 {
        parts.push(format!("definition for {} heaps", stats.definition));
    }
    if computed < len {
        parts.push(format!(
            "proved period from heap {computed} on ({} values)",
            len - computed
        ));
    }
    if parts.is_empty() {
        parts.push("single moves only".into());
    }
    parts.join(", ")
}
