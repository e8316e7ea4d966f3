//! Templates a user wrote, rendered in a child process with limits (issue 44 item 5).
//!
//! Tera has no budget of its own: a loop of 10^10 iterations, three nested `range()` loops or
//! a string doubled in a `{% set %}` loop run until the machine gives out, and an allocation
//! that fails aborts the process. So when a templates folder holds any file that differs from
//! the templates compiled into grundy, every render of the build goes to one child process,
//! `grundy render-worker DIR`, which loads the same folder and answers one request a line:
//!
//! - each render has [`render_limit`] seconds (10, or less under `GRUNDY_TOOL_SECONDS`); past
//!   them the child is killed and the render fails with that reason;
//! - the child's address space is limited to [`WORKER_MEMORY`] (or the parent's own limit,
//!   if lower): an allocation past it ends the child, and the render fails with that reason;
//! - one artifact may have [`MAX_OUTPUT`] bytes, all of a build's sandboxed renders
//!   [`MAX_TOTAL_OUTPUT`] together.
//!
//! Nothing is written while templates render (the build writes `output/` in one transaction
//! afterwards), so a failed render leaves `output/` as it was. The templates compiled into
//! grundy, and a folder identical to them (`grundy init`'s copy), render in-process.

use serde::{Deserialize, Serialize};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::{mpsc, Arc, Mutex};
use std::time::Duration;

/// Bytes one sandboxed render may produce.
pub const MAX_OUTPUT: usize = 64 << 20;
/// Bytes all sandboxed renders of one build may produce together.
pub const MAX_TOTAL_OUTPUT: usize = 512 << 20;
/// The worker's address-space limit.
pub const WORKER_MEMORY: u64 = 2 << 30;
/// The default of [`render_limit`].
pub const RENDER_SECONDS: u64 = 10;

/// Seconds one sandboxed render may take: [`RENDER_SECONDS`], or `GRUNDY_TOOL_SECONDS` when
/// that is lower.
pub fn render_limit() -> Duration {
    super::dot::tool_limit().min(Duration::from_secs(RENDER_SECONDS))
}

#[derive(Serialize, Deserialize)]
struct Request {
    template: String,
    context: serde_json::Value,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Response {
    Ok(String),
    Err(String),
}

struct Worker {
    child: Arc<Mutex<Child>>,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Drop for Worker {
    fn drop(&mut self) {
        if let Ok(mut c) = self.child.lock() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

/// The child process that renders a user's templates, started at the first render.
pub struct Sandbox {
    dir: PathBuf,
    worker: Mutex<(Option<Worker>, usize)>,
}

impl Sandbox {
    pub fn new(dir: &Path) -> Sandbox {
        Sandbox {
            dir: dir.to_path_buf(),
            worker: Mutex::new((None, 0)),
        }
    }

    fn spawn(&self) -> Result<Worker, String> {
        let exe = std::env::current_exe()
            .map_err(|e| format!("cannot find grundy's own executable: {e}"))?;
        let mut child = Command::new(exe)
            .arg("render-worker")
            .arg(&self.dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            // The worker's own last words (an allocation that failed) are not the user's.
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start the template worker: {e}"))?;
        let stdin = child
            .stdin
            .take()
            .ok_or("the template worker has no input")?;
        let stdout = child
            .stdout
            .take()
            .ok_or("the template worker has no output")?;
        Ok(Worker {
            child: Arc::new(Mutex::new(child)),
            stdin,
            stdout: BufReader::new(stdout),
        })
    }

    /// Renders `template` over `context` in the worker, within the limits.
    pub fn render(&self, template: &str, context: serde_json::Value) -> Result<String, String> {
        let mut guard = self
            .worker
            .lock()
            .map_err(|_| "the template worker failed")?;
        let (slot, total) = &mut *guard;
        if slot.is_none() {
            *slot = Some(self.spawn()?);
        }
        let worker = slot.as_mut().expect("just started");
        let request = serde_json::to_string(&Request {
            template: template.to_string(),
            context,
        })
        .map_err(|e| format!("cannot pass the view to the template worker: {e}"))?;
        let limit = render_limit();
        // A watchdog kills the worker past the limit, which ends the read below.
        let (done, wait) = mpsc::channel::<()>();
        let child = Arc::clone(&worker.child);
        let watchdog = std::thread::spawn(move || {
            if let Err(mpsc::RecvTimeoutError::Timeout) = wait.recv_timeout(limit) {
                if let Ok(mut c) = child.lock() {
                    let _ = c.kill();
                }
                return true;
            }
            false
        });
        let mut line = String::new();
        let sent = worker
            .stdin
            .write_all(request.as_bytes())
            .and_then(|_| worker.stdin.write_all(b"\n"))
            .and_then(|_| worker.stdin.flush());
        // JSON escapes at most six bytes per byte of output.
        let read = sent.and_then(|_| {
            (&mut worker.stdout)
                .take(6 * MAX_OUTPUT as u64 + 64)
                .read_line(&mut line)
        });
        let _ = done.send(());
        let killed = watchdog.join().unwrap_or(false);
        let answer = match read {
            Ok(n) if n > 0 && line.ends_with('\n') => serde_json::from_str::<Response>(&line).ok(),
            _ => None,
        };
        if killed {
            // The limit passed as the answer arrived: the answer stands, the worker is gone.
            *slot = None;
        }
        let Some(answer) = answer else {
            // The worker is gone or out of step: the next render starts a new one.
            *slot = None;
            return Err(if killed {
                format!(
                    "rendering did not finish within {} s and was stopped (a template's loops are \
                     bounded by time)",
                    limit.as_secs()
                )
            } else {
                format!(
                    "the template worker stopped while rendering: it ran out of memory (its \
                     limit is {} MiB, or this process's own if lower) or was killed",
                    WORKER_MEMORY >> 20
                )
            });
        };
        match answer {
            Response::Ok(text) => {
                *total += text.len();
                if *total > MAX_TOTAL_OUTPUT {
                    return Err(format!(
                        "the build's templates rendered more than {} MiB together",
                        MAX_TOTAL_OUTPUT >> 20
                    ));
                }
                Ok(text)
            }
            Response::Err(why) => Err(why),
        }
    }
}

/// A writer that refuses bytes past its limit (the render then fails with that reason).
struct Bounded {
    out: Vec<u8>,
    limit: usize,
}

impl Write for Bounded {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.out.len() + buf.len() > self.limit {
            return Err(std::io::Error::other(format!(
                "the template rendered more than {} MiB",
                self.limit >> 20
            )));
        }
        self.out.extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Renders into memory, at most `limit` bytes.
pub fn render_bounded(
    tera: &tera::Tera,
    template: &str,
    ctx: &tera::Context,
    limit: usize,
) -> Result<String, tera::Error> {
    let mut w = Bounded {
        out: Vec::new(),
        limit,
    };
    tera.render_to(template, ctx, &mut w)?;
    Ok(String::from_utf8_lossy(&w.out).into_owned())
}

/// `grundy render-worker DIR`: loads the templates of DIR and answers render requests, one
/// JSON line each, until its input ends. Its address space is limited first.
pub fn worker_main(dir: &Path) -> std::process::ExitCode {
    limit_address_space(WORKER_MEMORY);
    let renderer = match super::Renderer::load_in_process(dir) {
        Ok(r) => r,
        Err(e) => {
            let _ = writeln!(
                std::io::stdout(),
                "{}",
                serde_json::to_string(&Response::Err(e.to_string())).unwrap_or_default()
            );
            return std::process::ExitCode::from(2);
        }
    };
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let answer = match serde_json::from_str::<Request>(&line) {
            Ok(r) => match renderer.render_json(&r.template, &r.context) {
                Ok(text) => Response::Ok(text),
                // The parent names the template itself.
                Err(super::RenderError::Template { why, .. }) => Response::Err(why),
                Err(e) => Response::Err(e.to_string()),
            },
            Err(e) => Response::Err(format!("a request the worker cannot read: {e}")),
        };
        let text = serde_json::to_string(&answer).unwrap_or_else(|_| "{\"err\":\"\"}".into());
        if writeln!(stdout, "{text}")
            .and_then(|_| stdout.flush())
            .is_err()
        {
            break;
        }
    }
    std::process::ExitCode::SUCCESS
}

/// Lowers the soft RLIMIT_AS to `bytes` (never raises it).
fn limit_address_space(bytes: u64) {
    // SAFETY: getrlimit/setrlimit only read and write the struct passed.
    unsafe {
        let mut r = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        if libc::getrlimit(libc::RLIMIT_AS, &mut r) == 0 {
            let want = bytes as libc::rlim_t;
            if r.rlim_cur == libc::RLIM_INFINITY || r.rlim_cur > want {
                r.rlim_cur = want.min(r.rlim_max);
                let _ = libc::setrlimit(libc::RLIMIT_AS, &r);
            }
        }
    }
}
