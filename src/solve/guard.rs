//! The guard of exhaustive solving: budgets (positions, memory), the refusal that names the
//! estimate and a way out, and the readings of physical and resident memory it compares with.
//!
//! An exhaustive solve is refused *before* it starts when the estimate of `solve::estimate`
//! exceeds the budget, and stopped *while* it runs when the memo outgrows the position limit or
//! the process outgrows the memory limit. Either way the caller gets a [`Refusal`] (exit 2 in
//! the CLI), never an allocation abort.

use serde::Serialize;
use std::fmt;

/// Limits of one exhaustive solve.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Budget {
    /// Most distinct positions a solver may memoise (`None`: derived from memory).
    pub max_positions: Option<u64>,
    /// Most resident memory of the whole process, in bytes.
    pub max_memory: u64,
}

/// Fraction of physical memory an exhaustive solve may use by default.
pub const DEFAULT_MEMORY_FRACTION: f64 = 0.5;

impl Budget {
    /// The default: half of physical memory, at most three quarters of what is available
    /// now, and within the process's own limits (issue 28): half of the cgroup's memory limit
    /// and 40 % of the address space left under `ulimit -v` (a hash table doubling holds both
    /// tables at once, and every thread reserves address space it may never touch). No
    /// separate position limit.
    pub fn default_for_machine() -> Budget {
        let total = physical_memory().unwrap_or(4 << 30);
        let avail = available_memory().unwrap_or(total);
        let mut max_memory = ((total as f64 * DEFAULT_MEMORY_FRACTION) as u64).min(avail / 4 * 3);
        if let Some(cg) = cgroup_memory_limit() {
            max_memory = max_memory.min(cg / 2);
        }
        if let Some(cap) = address_space_limit() {
            let used = virtual_bytes().unwrap_or(0);
            max_memory = max_memory.min(cap.saturating_sub(used) / 5 * 2);
        }
        Budget {
            max_positions: None,
            max_memory: max_memory.max(64 << 20),
        }
    }

    /// No limit at all (tests and cross-checks of known-small games).
    pub fn unlimited() -> Budget {
        Budget {
            max_positions: None,
            max_memory: u64::MAX,
        }
    }

    /// The position limit for a solver that stores `bytes_per_position` per position.
    pub fn position_limit(&self, bytes_per_position: f64) -> u64 {
        let by_memory = if self.max_memory == u64::MAX {
            u64::MAX
        } else {
            (self.max_memory as f64 / bytes_per_position.max(1.0)) as u64
        };
        self.max_positions.unwrap_or(u64::MAX).min(by_memory)
    }
}

/// Why and where a solve was refused.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Refusal {
    pub game: String,
    /// `true`: stopped while running; `false`: refused from the estimate before starting.
    pub during: bool,
    /// What was estimated or observed, in words (positions, memory).
    pub estimate: String,
    /// The limit that was exceeded, in words.
    pub limit: String,
    /// A faster command or a smaller instance.
    pub hint: String,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let when = if self.during {
            "stopped while solving"
        } else {
            "refused before solving"
        };
        write!(
            f,
            "{}: {when}: {} exceeds {}. {}",
            self.game, self.estimate, self.limit, self.hint
        )
    }
}

impl std::error::Error for Refusal {}

fn meminfo(key: &str) -> Option<u64> {
    let s = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = s.lines().find(|l| l.starts_with(key))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Physical memory in bytes (Linux `/proc/meminfo`), read once: it does not change while we
/// run, and budgets are taken per instance (thousands of times in a build).
pub fn physical_memory() -> Option<u64> {
    static TOTAL: std::sync::OnceLock<Option<u64>> = std::sync::OnceLock::new();
    *TOTAL.get_or_init(|| meminfo("MemTotal:"))
}

/// Memory available to new allocations, in bytes: a reading at most a quarter of a second
/// old (reading `/proc/meminfo` for every instance of a build cost 7 % of its time).
pub fn available_memory() -> Option<u64> {
    use std::sync::Mutex;
    use std::time::{Duration, Instant};
    static LAST: Mutex<Option<(Instant, Option<u64>)>> = Mutex::new(None);
    let mut last = LAST.lock().unwrap_or_else(|e| e.into_inner());
    match *last {
        Some((at, v)) if at.elapsed() < Duration::from_millis(250) => v,
        _ => {
            let v = meminfo("MemAvailable:");
            *last = Some((Instant::now(), v));
            v
        }
    }
}

/// The address-space limit of this process (`ulimit -v`, RLIMIT_AS), if it has one.
pub fn address_space_limit() -> Option<u64> {
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit only writes the struct it is given.
    if unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut lim) } != 0
        || lim.rlim_cur == libc::RLIM_INFINITY
    {
        return None;
    }
    #[allow(clippy::unnecessary_cast)] // rlim_t is not u64 everywhere
    Some(lim.rlim_cur as u64)
}

/// The memory limit of this process's cgroup: `memory.max` (cgroup v2) or
/// `memory.limit_in_bytes` (v1), read once; `None` when unlimited or unreadable.
pub fn cgroup_memory_limit() -> Option<u64> {
    static LIMIT: std::sync::OnceLock<Option<u64>> = std::sync::OnceLock::new();
    *LIMIT.get_or_init(|| {
        let read = |p: &str| -> Option<u64> {
            let t = std::fs::read_to_string(p).ok()?;
            let v: u64 = t.trim().parse().ok()?;
            // v1 reports "unlimited" as a huge page-aligned number.
            (v < 1 << 60).then_some(v)
        };
        let groups = std::fs::read_to_string("/proc/self/cgroup").unwrap_or_default();
        let mut best: Option<u64> = None;
        for line in groups.lines() {
            let mut f = line.splitn(3, ':');
            let (_, controllers, path) = (f.next(), f.next().unwrap_or(""), f.next().unwrap_or(""));
            let v = if controllers.is_empty() {
                read(&format!("/sys/fs/cgroup{path}/memory.max"))
                    .or_else(|| read("/sys/fs/cgroup/memory.max"))
            } else if controllers.split(',').any(|c| c == "memory") {
                read(&format!(
                    "/sys/fs/cgroup/memory{path}/memory.limit_in_bytes"
                ))
                .or_else(|| read("/sys/fs/cgroup/memory/memory.limit_in_bytes"))
            } else {
                None
            };
            if let Some(v) = v {
                best = Some(best.map_or(v, |b| b.min(v)));
            }
        }
        best
    })
}

/// Virtual size of this process in bytes (`/proc/self/statm`, first field).
pub fn virtual_bytes() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = s.split_whitespace().next()?.parse().ok()?;
    // SAFETY: sysconf has no preconditions.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    Some(pages * page.max(4096) as u64)
}

/// Resident memory of this process in bytes (`/proc/self/statm`).
pub fn rss_bytes() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = s.split_whitespace().nth(1)?.parse().ok()?;
    // SAFETY: sysconf has no preconditions.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    Some(pages * page.max(4096) as u64)
}

/// `12.3 GiB`, `512 MiB`.
pub fn human_bytes(b: f64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut v = b;
    let mut i = 0;
    while v >= 1024.0 && i + 1 < UNITS.len() {
        v /= 1024.0;
        i += 1;
    }
    if i == UNITS.len() - 1 && v >= 1024.0 {
        return format!("{b:.1e} B");
    }
    format!("{v:.1} {}", UNITS[i])
}

/// `3.2e9`-style counts for huge estimates, plain digits below a million.
pub fn human_count(x: f64) -> String {
    if !x.is_finite() {
        "more than 1e300".to_string()
    } else if x < 1e6 {
        format!("{}", x.round() as u64)
    } else {
        format!("{x:.1e}")
    }
}

/// Parses `8G`, `512M`, `2GiB`, `1000000` (bytes) into bytes.
pub fn parse_bytes(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let x: f64 = num
        .parse()
        .map_err(|_| format!("`{text}` is not a size such as 8G, 512M or 1000000"))?;
    let mult = match unit.trim().to_ascii_uppercase().as_str() {
        "" | "B" => 1u64,
        "K" | "KB" | "KIB" => 1 << 10,
        "M" | "MB" | "MIB" => 1 << 20,
        "G" | "GB" | "GIB" => 1 << 30,
        "T" | "TB" | "TIB" => 1 << 40,
        _ => return Err(format!("`{text}`: unknown unit (use K, M, G or T)")),
    };
    let v = x * mult as f64;
    if !(1.0..1.8e19).contains(&v) {
        return Err(format!("`{text}` is out of range"));
    }
    Ok(v as u64)
}

/// Checks, every [`Monitor::EVERY`] new positions, the position count and the resident memory
/// against a budget. Shared by the solvers.
#[derive(Clone, Debug)]
pub struct Monitor {
    pub game: String,
    pub max_positions: u64,
    pub max_memory: u64,
    pub hint: String,
}

impl Monitor {
    pub const EVERY: u64 = 1 << 16;

    pub fn new(game: String, budget: &Budget, bytes_per_position: f64, hint: String) -> Monitor {
        Monitor {
            game,
            max_positions: budget.position_limit(bytes_per_position),
            max_memory: budget.max_memory,
            hint,
        }
    }

    /// A monitor that never stops anything.
    pub fn unlimited(game: String) -> Monitor {
        Monitor {
            game,
            max_positions: u64::MAX,
            max_memory: u64::MAX,
            hint: String::new(),
        }
    }

    pub fn is_unlimited(&self) -> bool {
        self.max_positions == u64::MAX && self.max_memory == u64::MAX
    }

    /// `Err` once `positions` or the process's memory is past the limit.
    pub fn check(&self, positions: u64) -> Result<(), Refusal> {
        if positions > self.max_positions {
            return Err(Refusal {
                game: self.game.clone(),
                during: true,
                estimate: format!("more than {} positions", human_count(positions as f64)),
                limit: format!(
                    "the limit of {} positions",
                    human_count(self.max_positions as f64)
                ),
                hint: self.hint.clone(),
            });
        }
        if self.max_memory != u64::MAX {
            if let Some(rss) = rss_bytes() {
                if rss > self.max_memory {
                    return Err(Refusal {
                        game: self.game.clone(),
                        during: true,
                        estimate: format!(
                            "resident memory {} after {} positions",
                            human_bytes(rss as f64),
                            human_count(positions as f64)
                        ),
                        limit: format!("the memory limit {}", human_bytes(self.max_memory as f64)),
                        hint: self.hint.clone(),
                    });
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse() {
        assert_eq!(parse_bytes("8G").unwrap(), 8 << 30);
        assert_eq!(parse_bytes("512M").unwrap(), 512 << 20);
        assert_eq!(parse_bytes("2GiB").unwrap(), 2 << 30);
        assert_eq!(parse_bytes("1000").unwrap(), 1000);
        assert!(parse_bytes("lots").is_err());
        assert!(parse_bytes("5X").is_err());
        assert!(parse_bytes("0").is_err());
    }

    #[test]
    fn limits_follow_memory() {
        let b = Budget {
            max_positions: None,
            max_memory: 1000,
        };
        assert_eq!(b.position_limit(10.0), 100);
        let b = Budget {
            max_positions: Some(7),
            max_memory: 1000,
        };
        assert_eq!(b.position_limit(10.0), 7);
        assert!(Budget::default_for_machine().max_memory >= 256 << 20);
        let b = Budget {
            max_positions: Some(7),
            max_memory: u64::MAX,
        };
        let m = Monitor::new("x".into(), &b, 10.0, "smaller".into());
        assert!(m.check(7).is_ok());
        let r = m.check(8).unwrap_err();
        assert!(r.during && r.to_string().contains("smaller"));
    }
}
