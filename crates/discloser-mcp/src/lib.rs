//! A client for live MCP servers over stdio: start the server, perform the `initialize`
//! handshake, list every tool (following `nextCursor`), and shut the server down.
//!
//! The protocol is spoken by the official Rust SDK (`rmcp`); this module owns the process. It
//! guarantees:
//! - **no hang**: the whole exchange runs under one deadline; when it passes, the server is
//!   killed and the error says which step it was waiting for;
//! - **a clean shutdown**: after listing, the server's standard input is closed and it is given
//!   time to exit, then `SIGTERM`, then `SIGKILL` (the MCP stdio shutdown sequence); the server
//!   runs in its own process group so that a wrapper (`npx`, `uvx`) and the server it starts
//!   are stopped together;
//! - **clear failures**: a command that cannot start, a server that exits (with its status and
//!   the end of its standard error), a program that prints something other than JSON-RPC (its
//!   first output is quoted), a message that is not JSON or is over 64 MiB (reported at once,
//!   never waited out), a repeated pagination cursor;
//! - **no cost elsewhere**: the tokio runtime (current-thread) exists only while pulling.

use std::collections::BTreeSet;
use std::process::{ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use process_wrap::tokio::{ChildWrapper, CommandWrap, KillOnDrop};
use rmcp::ServiceExt;
use rmcp::model::{
    ClientCapabilities, ClientConfig, Implementation, PaginatedRequestParams, ProtocolVersion,
};
use serde_json::Value;

pub use discloser_core::live::{DEFAULT_TIMEOUT, Listing, Server, shown};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::time::Instant;

/// How long a server may take to exit after its input is closed, and after `SIGTERM`.
const GRACE: Duration = Duration::from_secs(2);

/// Pages of `tools/list` followed before giving up on a server that never stops paginating.
const MAX_PAGES: usize = 1000;

/// Bytes of the server's first output and of the end of its standard error kept for messages.
const KEEP: usize = 2048;

/// Why a pull failed. Every message names the command.
#[derive(Debug, thiserror::Error)]
pub enum PullError {
    /// The command is empty or the program could not be started.
    #[error("cannot start MCP server `{command}`: {reason}")]
    Start {
        /// The command as typed.
        command: String,
        /// Why.
        reason: String,
    },
    /// The server did not answer in time.
    #[error("MCP server `{command}` did not answer {waiting} within {seconds}s{details}")]
    Timeout {
        /// The command as typed.
        command: String,
        /// What was awaited (`initialize`, `tools/list`).
        waiting: String,
        /// The time limit.
        seconds: String,
        /// The server's output, for diagnosis.
        details: String,
    },
    /// The server broke the exchange: it exited, closed its output, or answered wrongly.
    #[error("MCP server `{command}` {what}{details}")]
    Failed {
        /// The command as typed.
        command: String,
        /// What happened.
        what: String,
        /// The server's status and output, for diagnosis.
        details: String,
    },
}

/// Pulls every tool of `server`. Blocks; never longer than `server.timeout` plus the time
/// needed to stop the server.
pub fn list_tools(server: &Server) -> Result<Listing, PullError> {
    let command = shown(&server.command);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| PullError::Start {
            command: command.clone(),
            reason: format!("cannot create the async runtime: {e}"),
        })?;
    runtime.block_on(session(server, &command))
}

/// The step the exchange is at, for time-out messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    Handshake,
    Listing(usize),
}

impl Step {
    fn waiting(self) -> String {
        match self {
            Step::Handshake => "the MCP `initialize` request".to_owned(),
            Step::Listing(1) => "`tools/list`".to_owned(),
            Step::Listing(page) => format!("`tools/list` (page {page})"),
        }
    }
}

/// What the server wrote, kept for messages.
#[derive(Clone, Default)]
struct Output {
    first: Arc<Mutex<Vec<u8>>>,
    stderr_tail: Arc<Mutex<Vec<u8>>>,
}

async fn session(server: &Server, command: &str) -> Result<Listing, PullError> {
    let start_error = |reason: String| PullError::Start {
        command: command.to_owned(),
        reason,
    };
    let Some((program, args)) = server.command.split_first() else {
        return Err(start_error("the command is empty".to_owned()));
    };
    let mut wrap = CommandWrap::with_new(program, |cmd| {
        cmd.args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(cwd) = &server.cwd {
            cmd.current_dir(cwd);
        }
    });
    #[cfg(unix)]
    wrap.wrap(process_wrap::tokio::ProcessGroup::leader());
    wrap.wrap(KillOnDrop);
    let mut child = wrap.spawn().map_err(|e| {
        start_error(match e.kind() {
            std::io::ErrorKind::NotFound => format!("`{program}` not found"),
            std::io::ErrorKind::PermissionDenied => format!("`{program}` is not executable"),
            _ => e.to_string(),
        })
    })?;
    let (Some(stdin), Some(stdout), Some(stderr)) = (
        child.stdin().take(),
        child.stdout().take(),
        child.stderr().take(),
    ) else {
        kill(&mut *child).await;
        return Err(start_error(
            "its standard streams could not be connected".to_owned(),
        ));
    };
    let output = Output::default();
    let drain = tokio::spawn(drain(stderr, output.stderr_tail.clone()));
    // The server's output goes through a pump, which keeps its first bytes even when the
    // protocol layer gives up before reading them (e.g. on a broken pipe).
    let (reader, writer) = tokio::io::duplex(64 * 1024);
    let bad_frame = Arc::new(Mutex::new(None));
    let pump = tokio::spawn(pump(
        stdout,
        writer,
        output.first.clone(),
        bad_frame.clone(),
    ));
    let step = Mutex::new(Step::Handshake);
    let deadline = Instant::now() + server.timeout;
    let exchange = async {
        let client = client_config()
            .serve((reader, stdin))
            .await
            .map_err(|e| (Step::Handshake, handshake_failure(&e)))?;
        let listed = list_all(&client, &step).await;
        let peer = client.peer_info();
        // Closing the service closes the server's input: the polite way to ask it to stop.
        let _ = tokio::time::timeout(GRACE, client.cancel()).await;
        let server = peer
            .and_then(|p| p.server_info.clone())
            .map(|i| (i.name, i.version));
        listed.map(|tools| Listing { tools, server })
    };
    let outcome = tokio::time::timeout_at(deadline, exchange).await;
    let status = match &outcome {
        Ok(Ok(_)) => stop(&mut *child).await,
        // It failed: give it a moment to exit by itself, so the message can say how it ended.
        Ok(Err(_)) => match tokio::time::timeout(Duration::from_millis(300), child.wait()).await {
            Ok(Ok(status)) => Some(status),
            _ => {
                kill(&mut *child).await;
                None
            }
        },
        Err(_) => {
            kill(&mut *child).await;
            None
        }
    };
    // The server is gone, so its output ends now.
    let _ = tokio::time::timeout(Duration::from_millis(500), pump).await;
    let _ = tokio::time::timeout(Duration::from_millis(500), drain).await;
    // A message that could not be parsed ended the exchange: that is the reason.
    let bad_frame = bad_frame.lock().ok().and_then(|mut slot| slot.take());
    let outcome = match (outcome, bad_frame) {
        (Ok(Ok(listing)), _) => Ok(Ok(listing)),
        (Ok(Err((step, _))), Some(reason)) => Ok(Err((step, reason))),
        (Err(_), Some(reason)) => Ok(Err((Step::Listing(0), reason))),
        (other, None) => other,
    };
    match outcome {
        Ok(Ok(listing)) => Ok(listing),
        Ok(Err((failed_at, reason))) => Err(PullError::Failed {
            command: command.to_owned(),
            what: match (failed_at, status) {
                (Step::Handshake, Some(status)) if !reason.starts_with("sent a message") => {
                    format!(
                        "exited ({}) before completing the MCP handshake",
                        describe_status(status)
                    )
                }
                _ => reason,
            },
            details: details(&output),
        }),
        Err(_) => Err(PullError::Timeout {
            command: command.to_owned(),
            waiting: step.lock().map(|s| s.waiting()).unwrap_or_default(),
            seconds: format_seconds(server.timeout),
            details: details(&output),
        }),
    }
}

/// What went wrong in the handshake, in words (rmcp's messages name its internal types).
fn handshake_failure(error: &rmcp::service::ClientInitializeError) -> String {
    use rmcp::service::ClientInitializeError as E;
    match error {
        E::ConnectionClosed(_) => "closed its output during the MCP handshake".to_owned(),
        E::TransportError { context, .. } => {
            format!("failed the MCP handshake: the connection broke ({context})")
        }
        E::JsonRpcError(data) => format!("refused the MCP `initialize` request: {}", data.message),
        E::ExpectedInitResponse(Some(message)) => format!(
            "answered the MCP `initialize` request with something else: `{}`",
            clip(&serde_json::to_string(message).unwrap_or_default(), 200)
        ),
        E::ExpectedInitResult(_) | E::ExpectedInitResponse(None) => {
            "answered the MCP `initialize` request with something else".to_owned()
        }
        other => format!("failed the MCP handshake: {other}"),
    }
}

fn client_config() -> ClientConfig {
    ClientConfig::new(
        ClientCapabilities::default(),
        Implementation::new("discloser", env!("CARGO_PKG_VERSION")),
    )
    .with_protocol_version(ProtocolVersion::LATEST_WITH_INITIALIZE)
}

/// Every page of `tools/list`, refusing a cursor that repeats (a server paginating forever).
async fn list_all(
    client: &rmcp::Peer<rmcp::RoleClient>,
    step: &Mutex<Step>,
) -> Result<Vec<Value>, (Step, String)> {
    let fail = |page: usize, reason: String| (Step::Listing(page), reason);
    let mut tools = Vec::new();
    let mut cursor: Option<String> = None;
    let mut seen = BTreeSet::new();
    for page in 1..=MAX_PAGES {
        if let Ok(mut s) = step.lock() {
            *s = Step::Listing(page);
        }
        let params = PaginatedRequestParams::default().with_cursor(cursor.clone());
        let result = client
            .list_tools(Some(params))
            .await
            .map_err(|e| fail(page, format!("answered `tools/list` with an error: {e}")))?;
        for tool in result.tools {
            let value = serde_json::to_value(&tool)
                .map_err(|e| fail(page, format!("sent a tool discloser cannot represent: {e}")))?;
            tools.push(value);
        }
        match result.next_cursor {
            None => return Ok(tools),
            Some(next) if next.is_empty() => return Ok(tools),
            Some(next) if !seen.insert(next.clone()) => {
                return Err(fail(
                    page,
                    format!(
                        "answered `tools/list` with the cursor `{next}` twice: its pagination never ends"
                    ),
                ));
            }
            Some(next) => cursor = Some(next),
        }
    }
    Err(fail(
        MAX_PAGES,
        format!("answered more than {MAX_PAGES} pages of `tools/list`"),
    ))
}

/// Waits for the server to exit after its input was closed; then `SIGTERM`; then kills it.
async fn stop(child: &mut dyn ChildWrapper) -> Option<ExitStatus> {
    if let Ok(Ok(status)) = tokio::time::timeout(GRACE, child.wait()).await {
        return Some(status);
    }
    #[cfg(unix)]
    if child.signal(libc::SIGTERM).is_ok()
        && let Ok(Ok(status)) = tokio::time::timeout(GRACE, child.wait()).await
    {
        return Some(status);
    }
    kill(child).await;
    None
}

/// Kills the server (its whole process group) and reaps it.
async fn kill(child: &mut dyn ChildWrapper) {
    let _ = child.start_kill();
    let _ = tokio::time::timeout(GRACE, child.wait()).await;
}

fn describe_status(status: ExitStatus) -> String {
    if let Some(code) = status.code() {
        return format!("status {code}");
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return format!("killed by signal {signal}");
        }
    }
    status.to_string()
}

fn format_seconds(d: Duration) -> String {
    let secs = d.as_secs_f64();
    if secs.fract() == 0.0 {
        format!("{secs:.0}")
    } else {
        format!("{secs}")
    }
}

/// "; its first output was `hello`, which is not MCP's JSON-RPC; its standard error ended with:
/// `...`", or "" when it wrote nothing.
fn details(output: &Output) -> String {
    let mut out = String::new();
    let first = output.first.lock().map(|b| b.clone()).unwrap_or_default();
    let text = String::from_utf8_lossy(&first);
    let first_line = text
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .trim();
    if !first_line.is_empty() && !first_line.starts_with('{') {
        out.push_str(&format!(
            "; its first output was `{}`, which is not MCP's JSON-RPC: is this an MCP server over stdio?",
            clip(first_line, 120)
        ));
    }
    let tail = output
        .stderr_tail
        .lock()
        .map(|b| b.clone())
        .unwrap_or_default();
    let tail = String::from_utf8_lossy(&tail);
    let lines: Vec<&str> = tail.lines().filter(|l| !l.trim().is_empty()).collect();
    if !lines.is_empty() {
        let last: Vec<&str> = lines[lines.len().saturating_sub(3)..].to_vec();
        out.push_str(&format!(
            "; its standard error ended with: `{}`",
            clip(&last.join(" | "), 300)
        ));
    }
    out
}

fn clip(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let cut: String = text.chars().take(max).collect();
    format!("{cut}…")
}

/// Reads the server's standard error to the end (so it never blocks on a full pipe), keeping
/// the last [`KEEP`] bytes.
async fn drain(mut stderr: tokio::process::ChildStderr, tail: Arc<Mutex<Vec<u8>>>) {
    let mut buf = [0u8; 4096];
    while let Ok(n) = stderr.read(&mut buf).await {
        if n == 0 {
            break;
        }
        if let Ok(mut tail) = tail.lock() {
            tail.extend_from_slice(&buf[..n]);
            let excess = tail.len().saturating_sub(KEEP);
            tail.drain(..excess);
        }
    }
}

/// Copies the server's standard output to the protocol layer, keeping the first [`KEEP`] bytes;
/// reads to the end even when nobody listens any more.
///
/// The protocol layer drops a message it cannot parse and waits on, so the user would wait for
/// the deadline: the pump checks every line that starts as a JSON object (`{`), and at the first
/// one that is not JSON (a number out of range, nesting too deep) or is longer than
/// [`MAX_FRAME`] it records why in `bad_frame` and closes the protocol layer's input, which ends
/// the exchange at once. Other lines (a banner, a log line) are left to the protocol layer.
async fn pump(
    mut stdout: tokio::process::ChildStdout,
    to_client: tokio::io::DuplexStream,
    first: Arc<Mutex<Vec<u8>>>,
    bad_frame: Arc<Mutex<Option<String>>>,
) {
    let mut buf = [0u8; 8192];
    let mut to_client = Some(to_client);
    let mut frames = Frames::default();
    while let Ok(n) = stdout.read(&mut buf).await {
        if n == 0 {
            break;
        }
        if let Ok(mut first) = first.lock()
            && first.len() < KEEP
        {
            let room = KEEP - first.len();
            first.extend_from_slice(&buf[..n.min(room)]);
        }
        let Some(writer) = to_client.as_mut() else {
            continue;
        };
        let problem = frames.feed(&buf[..n]);
        if writer.write_all(&buf[..n]).await.is_err() {
            to_client = None;
        }
        if let Some(reason) = problem {
            if let Ok(mut slot) = bad_frame.lock() {
                slot.get_or_insert(reason);
            }
            to_client = None;
        }
    }
}

/// The longest message accepted from a server, in bytes.
const MAX_FRAME: usize = 64 * 1024 * 1024;

/// The lines of a server's output that start as JSON objects, checked as they complete.
#[derive(Default)]
struct Frames {
    /// The current line, while it is a JSON object candidate.
    line: Vec<u8>,
    /// The current line started with something other than `{`: not checked.
    skipping: bool,
    /// Bytes of the current line so far.
    length: usize,
}

impl Frames {
    /// Takes more output; returns why a complete (or too long) line is not a message.
    fn feed(&mut self, bytes: &[u8]) -> Option<String> {
        let mut rest = bytes;
        while !rest.is_empty() {
            let (chunk, ended) = match rest.iter().position(|&b| b == b'\n') {
                Some(i) => (&rest[..i], true),
                None => (rest, false),
            };
            rest = &rest[(chunk.len() + usize::from(ended)).min(rest.len())..];
            self.length += chunk.len();
            if !self.skipping {
                if self.line.iter().all(u8::is_ascii_whitespace) {
                    let start = chunk.iter().position(|b| !b.is_ascii_whitespace());
                    if let Some(start) = start {
                        self.skipping = chunk[start] != b'{';
                    }
                }
                if !self.skipping {
                    self.line.extend_from_slice(chunk);
                }
            }
            if self.length > MAX_FRAME {
                return Some(format!(
                    "sent a message of over {} MiB, more than discloser accepts",
                    MAX_FRAME / (1024 * 1024)
                ));
            }
            if ended {
                let problem = self.check();
                self.line.clear();
                self.skipping = false;
                self.length = 0;
                if problem.is_some() {
                    return problem;
                }
            }
        }
        None
    }

    fn check(&self) -> Option<String> {
        let text = self.line.trim_ascii();
        if self.skipping || text.is_empty() {
            return None;
        }
        // Parsed as the protocol layer parses it (numbers in range, at most 128 levels deep),
        // not merely scanned.
        serde_json::from_slice::<Value>(text).err().map(|e| {
            format!(
                "sent a message that is not valid JSON ({e}): `{}`",
                clip(&String::from_utf8_lossy(text), 80)
            )
        })
    }
}

/// Installs this client as the one [`discloser_core::project::Project`] uses for `mcp:`
/// sources; a front-end calls it once at start. Returns `false` when a client was already
/// installed (that one stays).
pub fn install() -> bool {
    discloser_core::live::install_client(|server| list_tools(server).map_err(|e| e.to_string()))
}
