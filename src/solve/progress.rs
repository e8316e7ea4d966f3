//! Progress of long solves: an indicatif line on stderr (positions, rate, resident memory,
//! level), shown only once a solve has run for about a second and only when stderr is a
//! terminal. Solvers call [`Progress::update`] often; it is cheap until the bar exists.

use super::guard::{human_bytes, human_count, rss_bytes};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// A lazily shown progress line.
pub struct Progress {
    enabled: bool,
    what: String,
    t0: Instant,
    bar: Mutex<Option<ProgressBar>>,
}

/// Delay before a bar appears: quick solves stay silent.
const DELAY: Duration = Duration::from_secs(1);

impl Progress {
    /// A progress line for `what`, drawn on stderr if it is a terminal.
    pub fn stderr(what: impl Into<String>) -> Progress {
        Progress {
            enabled: std::io::stderr().is_terminal(),
            what: what.into(),
            t0: Instant::now(),
            bar: Mutex::new(None),
        }
    }

    /// Never shown.
    pub fn hidden() -> Progress {
        Progress {
            enabled: false,
            what: String::new(),
            t0: Instant::now(),
            bar: Mutex::new(None),
        }
    }

    /// Reports `positions` so far, at `level` (or depth).
    pub fn update(&self, level: u64, positions: u64) {
        if !self.enabled || self.t0.elapsed() < DELAY {
            return;
        }
        let Ok(mut guard) = self.bar.lock() else {
            return;
        };
        let bar = guard.get_or_insert_with(|| {
            let b = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
            b.set_style(
                ProgressStyle::with_template("{spinner} {elapsed} {prefix} {msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            );
            b.set_prefix(self.what.clone());
            b.enable_steady_tick(Duration::from_millis(200));
            b
        });
        let secs = self.t0.elapsed().as_secs_f64().max(1e-9);
        let mem = rss_bytes().map_or(String::new(), |b| human_bytes(b as f64));
        bar.set_message(format!(
            "level {level}: {} positions, {}/s, {mem}",
            human_count(positions as f64),
            human_count(positions as f64 / secs)
        ));
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        if let Ok(mut g) = self.bar.lock() {
            if let Some(b) = g.take() {
                b.finish_and_clear();
            }
        }
    }
}
