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
//!   first line is quoted, within [`FOREIGN_GRACE`] of it, never waited out), a message that is
//!   not JSON or is over 64 MiB (reported at once), a repeated pagination cursor;
//! - **silence unless asked**: [`list_tools`] writes nothing; [`list_tools_with`] and the client
//!   [`install`] puts in place show one status line on standard error while the pull runs, when
//!   that is a terminal, and clear it when the pull ends;
//! - **no cost elsewhere**: the tokio runtime (current-thread) exists only while pulling.

mod status;

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

/// How long a program whose output opens with something other than a JSON object (a banner, a
/// log line, a prompt without a line end) is given to send a JSON-RPC message after it, before
/// the pull fails quoting it. MCP forbids anything but messages on standard output, yet some
/// servers print a banner just before their first answer: that answer follows within
/// milliseconds, while a program that is not an MCP server never sends one.
pub const FOREIGN_GRACE: Duration = Duration::from_millis(500);

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

/// Whether a pull shows its progress.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Progress {
    /// Nothing is written.
    #[default]
    Silent,
    /// While the pull runs, one status line on standard error (a spinner, the command, the step
    /// and the seconds elapsed), cleared when it ends; nothing when standard error is not a
    /// terminal (or `TERM` is `dumb`). The line has no colors.
    StatusLine,
}

/// Pulls every tool of `server`, writing nothing. Blocks; never longer than `server.timeout`
/// plus the time needed to stop the server.
pub fn list_tools(server: &Server) -> Result<Listing, PullError> {
    list_tools_with(server, Progress::Silent)
}

/// [`list_tools`], showing its progress as `progress` says.
pub fn list_tools_with(server: &Server, progress: Progress) -> Result<Listing, PullError> {
    let command = shown(&server.command);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| PullError::Start {
            command: command.clone(),
            reason: format!("cannot create the async runtime: {e}"),
        })?;
    // Dropped (so cleared) before the result is returned, and so before any message is printed.
    let status = match progress {
        Progress::Silent => status::StatusLine::hidden(),
        Progress::StatusLine => status::StatusLine::on_stderr(&command),
    };
    runtime.block_on(session(server, &command, &status))
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

    /// The step as the status line shows it.
    fn doing(self) -> String {
        match self {
            Step::Handshake => "initialising (MCP handshake)".to_owned(),
            Step::Listing(page) => format!("listing tools, page {page}"),
        }
    }
}

/// The step the exchange is at: kept for time-out messages, shown on the status line.
struct Tracker<'a> {
    step: Mutex<Step>,
    status: &'a status::StatusLine,
}

impl Tracker<'_> {
    fn set(&self, step: Step) {
        if let Ok(mut s) = self.step.lock() {
            *s = step;
        }
        self.status.show(step);
    }

    fn get(&self) -> Option<Step> {
        self.step.lock().ok().map(|s| *s)
    }
}

/// Why the pump ended the exchange.
#[derive(Debug, PartialEq, Eq)]
enum Broken {
    /// A line that starts as a JSON object is not one, or is too long: why.
    Frame(String),
    /// The output opened with this line (or the start of it), and no message followed.
    Foreign(String),
}

/// What the server wrote, kept for messages.
#[derive(Clone, Default)]
struct Output {
    first: Arc<Mutex<Vec<u8>>>,
    stderr_tail: Arc<Mutex<Vec<u8>>>,
}

async fn session(
    server: &Server,
    command: &str,
    status: &status::StatusLine,
) -> Result<Listing, PullError> {
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
        // Python block-buffers a pipe: a program that is not an MCP server (`python3 -m
        // http.server`) would show its first line only when it exits, so it could not be told
        // from a slow server. MCP servers flush every message anyway; a value the user set stays.
        if std::env::var_os("PYTHONUNBUFFERED").is_none() {
            cmd.env("PYTHONUNBUFFERED", "1");
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
    let broken = Arc::new(Mutex::new(None));
    let pump = tokio::spawn(pump(stdout, writer, output.first.clone(), broken.clone()));
    let step = Tracker {
        step: Mutex::new(Step::Handshake),
        status,
    };
    step.set(Step::Handshake);
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
    let foreign = broken
        .lock()
        .is_ok_and(|slot| matches!(*slot, Some(Broken::Foreign(_))));
    let status = match &outcome {
        Ok(Ok(_)) => stop(&mut *child).await,
        // Not an MCP server: how it would end says nothing more.
        Ok(Err(_)) if foreign => {
            kill(&mut *child).await;
            None
        }
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
    let failed = |what: String, quote_first: bool| PullError::Failed {
        command: command.to_owned(),
        what,
        details: details(&output, quote_first),
    };
    // What the pump saw ended the exchange: that is the reason.
    let broken = broken.lock().ok().and_then(|mut slot| slot.take());
    match (outcome, broken, status) {
        (Ok(Ok(listing)), _, _) => Ok(listing),
        (_, Some(Broken::Foreign(line)), _) => Err(failed(
            format!(
                "wrote `{line}` on its standard output, which is not MCP's JSON-RPC: is this an \
                 MCP server over stdio?"
            ),
            false,
        )),
        (_, Some(Broken::Frame(reason)), _) => Err(failed(reason, true)),
        (Ok(Err((Step::Handshake, _))), None, Some(status)) => Err(failed(
            format!(
                "exited ({}) before completing the MCP handshake",
                describe_status(status)
            ),
            true,
        )),
        (Ok(Err((_, reason))), None, _) => Err(failed(reason, true)),
        (Err(_), None, _) => Err(PullError::Timeout {
            command: command.to_owned(),
            waiting: step.get().map(Step::waiting).unwrap_or_default(),
            seconds: format_seconds(server.timeout),
            details: details(&output, true),
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
    step: &Tracker<'_>,
) -> Result<Vec<Value>, (Step, String)> {
    let fail = |page: usize, reason: String| (Step::Listing(page), reason);
    let mut tools = Vec::new();
    let mut cursor: Option<String> = None;
    let mut seen = BTreeSet::new();
    for page in 1..=MAX_PAGES {
        step.set(Step::Listing(page));
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

/// "; its first output was `hello`, which is not MCP's JSON-RPC: is this an MCP server over
/// stdio?; its standard error ended with: `...`", or "" when it wrote nothing. The first part
/// only with `quote_first` (a message that already quotes the first line leaves it out).
fn details(output: &Output, quote_first: bool) -> String {
    let mut out = String::new();
    let first = output.first.lock().map(|b| b.clone()).unwrap_or_default();
    let first_line = first
        .split(|&b| b == b'\n')
        .find(|line| kind(line) != Kind::Blank)
        .unwrap_or_default();
    if quote_first && kind(first_line) == Kind::Other {
        out.push_str(&format!(
            "; its first output was `{}`, which is not MCP's JSON-RPC: is this an MCP server over stdio?",
            quote(first_line)
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

/// A line of the server's output as a message quotes it: trimmed, at most 120 characters,
/// control characters (a banner's colors) escaped so that they reach no terminal.
fn quote(line: &[u8]) -> String {
    let text = String::from_utf8_lossy(line.trim_ascii());
    let shown: String = text
        .chars()
        .map(|c| {
            if c.is_control() {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect();
    clip(&shown, 120)
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
/// The protocol layer drops a message it cannot parse, and any line that is not a message, and
/// waits on, so the user would wait for the deadline. The pump ends the exchange at once (it
/// records why in `broken` and closes the protocol layer's input):
/// - at the first line that starts as a JSON object (`{`) but is not JSON (a number out of
///   range, nesting too deep) or is longer than [`MAX_FRAME`];
/// - when the output opens with something else (a banner, a log line, a prompt without a line
///   end) and no message follows within [`FOREIGN_GRACE`]: MCP's stdio transport allows only
///   messages on standard output, so this is no MCP server (or one that cannot work).
///
/// Later lines that are not JSON are left to the protocol layer, which skips them.
async fn pump(
    mut stdout: tokio::process::ChildStdout,
    to_client: tokio::io::DuplexStream,
    first: Arc<Mutex<Vec<u8>>>,
    broken: Arc<Mutex<Option<Broken>>>,
) {
    let mut buf = [0u8; 8192];
    let mut to_client = Some(to_client);
    let mut frames = Frames::default();
    let mut grace = Grace::NotStarted;
    let record = |why: Broken| {
        if let Ok(mut slot) = broken.lock() {
            slot.get_or_insert(why);
        }
    };
    loop {
        let read = match grace {
            Grace::Until(until) if to_client.is_some() => {
                tokio::time::timeout_at(until, stdout.read(&mut buf)).await
            }
            _ => Ok(stdout.read(&mut buf).await),
        };
        let n = match read {
            Ok(Ok(0) | Err(_)) => break,
            Ok(Ok(n)) => n,
            Err(_elapsed) => {
                grace = Grace::Over;
                // A message after the banner is still arriving: it decides.
                if let Some(line) = frames.unanswered()
                    && !frames.in_object()
                {
                    record(Broken::Foreign(quote(line)));
                    to_client = None;
                }
                continue;
            }
        };
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
        if grace == Grace::NotStarted && frames.unanswered().is_some() {
            grace = Grace::Until(Instant::now() + FOREIGN_GRACE);
        }
        if writer.write_all(&buf[..n]).await.is_err() {
            to_client = None;
        }
        if let Some(reason) = problem {
            record(Broken::Frame(reason));
            to_client = None;
        }
    }
}

/// The wait for a message after output that opened with something else.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Grace {
    NotStarted,
    Until(Instant),
    Over,
}

/// The longest message accepted from a server, in bytes.
const MAX_FRAME: usize = 64 * 1024 * 1024;

/// How a line of a server's output opens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// Nothing but white space (so far).
    Blank,
    /// `{`: a JSON-RPC message, or meant to be one.
    Object,
    /// Anything else: never a message of MCP's stdio transport.
    Other,
}

fn kind(line: &[u8]) -> Kind {
    match line.iter().find(|b| !b.is_ascii_whitespace()) {
        None => Kind::Blank,
        Some(b'{') => Kind::Object,
        Some(_) => Kind::Other,
    }
}

/// The lines of a server's output: those that start as JSON objects are checked as they
/// complete; the first line that is not blank tells whether the program speaks JSON-RPC.
#[derive(Default)]
struct Frames {
    /// The current line, while it is a JSON object candidate.
    line: Vec<u8>,
    /// The current line started with something other than `{`: not checked.
    skipping: bool,
    /// Bytes of the current line so far.
    length: usize,
    /// A line that is not blank has begun.
    opened: bool,
    /// The first line that is not blank, when it is [`Kind::Other`] (at most [`KEEP`] bytes).
    foreign: Option<Vec<u8>>,
    /// That first line has ended.
    foreign_ended: bool,
    /// A complete line was a JSON object.
    answered: bool,
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
                        self.opens(&chunk[start..]);
                    }
                }
                if !self.skipping {
                    self.line.extend_from_slice(chunk);
                }
            } else if let Some(foreign) = self.foreign.as_mut()
                && !self.foreign_ended
            {
                let room = KEEP.saturating_sub(foreign.len());
                foreign.extend_from_slice(&chunk[..chunk.len().min(room)]);
            }
            if self.length > MAX_FRAME {
                return Some(format!(
                    "sent a message of over {} MiB, more than discloser accepts",
                    MAX_FRAME / (1024 * 1024)
                ));
            }
            if ended {
                let problem = self.check();
                if !self.skipping && kind(&self.line) == Kind::Object && problem.is_none() {
                    self.answered = true;
                }
                if self.foreign.is_some() {
                    self.foreign_ended = true;
                }
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

    /// A line that is not blank starts with `text`: when it is the output's first, it tells
    /// whether the program speaks JSON-RPC.
    fn opens(&mut self, text: &[u8]) {
        if self.opened {
            return;
        }
        self.opened = true;
        if kind(text) == Kind::Other {
            self.foreign = Some(text[..text.len().min(KEEP)].to_vec());
        }
    }

    /// The output opened with a line that is not a JSON object, and no message has followed:
    /// that line (or its start, when it has not ended).
    fn unanswered(&self) -> Option<&[u8]> {
        self.foreign.as_deref().filter(|_| !self.answered)
    }

    /// A line that starts as a JSON object is arriving.
    fn in_object(&self) -> bool {
        !self.skipping && kind(&self.line) == Kind::Object
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
/// sources; a front-end calls it once at start. Its pulls show their progress
/// ([`Progress::StatusLine`]: only on a terminal). Returns `false` when a client was already
/// installed (that one stays).
pub fn install() -> bool {
    discloser_core::live::install_client(|server| {
        list_tools_with(server, Progress::StatusLine).map_err(|e| e.to_string())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Feeds `chunks` to a fresh [`Frames`]; the first problem, and the unanswered first line.
    fn fed(chunks: &[&str]) -> (Option<String>, Option<String>) {
        let mut frames = Frames::default();
        let mut problem = None;
        for chunk in chunks {
            if let Some(p) = frames.feed(chunk.as_bytes()) {
                problem.get_or_insert(p);
            }
        }
        let foreign = frames
            .unanswered()
            .map(|line| String::from_utf8_lossy(line).into_owned());
        (problem, foreign)
    }

    #[test]
    fn lines_are_told_apart_by_their_first_character() {
        assert_eq!(kind(b""), Kind::Blank);
        assert_eq!(kind(b" \t\r"), Kind::Blank);
        assert_eq!(kind(b"{\"jsonrpc\":\"2.0\"}"), Kind::Object);
        assert_eq!(kind(b"  {"), Kind::Object);
        assert_eq!(kind(b"Serving HTTP on 0.0.0.0 port 8000"), Kind::Other);
        assert_eq!(kind(b"[{\"jsonrpc\":\"2.0\"}]"), Kind::Other);
        assert_eq!(kind(b"\x1b[32mready\x1b[0m"), Kind::Other);
    }

    #[test]
    fn messages_open_the_output_of_a_server() {
        let message = "{\"jsonrpc\":\"2.0\",\"id\":0,\"result\":{}}\n";
        assert_eq!(fed(&[message]), (None, None));
        assert_eq!(
            fed(&["\n  \r\n", message]),
            (None, None),
            "blank lines first"
        );
        assert_eq!(fed(&["{\"jsonrpc\":", "\"2.0\"}\n"]), (None, None), "split");
        assert_eq!(fed(&["{\"json"]), (None, None), "a message still arriving");
    }

    #[test]
    fn a_first_line_that_is_not_a_json_object_is_foreign() {
        let banner = "Serving HTTP on 0.0.0.0 port 8000 (http://0.0.0.0:8000/) ...";
        assert_eq!(
            fed(&[&format!("{banner}\n")]),
            (None, Some(banner.to_owned()))
        );
        assert_eq!(
            fed(&["\n\n", "Serving HTTP", " on 0.0.0.0 port 8000", "\nmore\n"]),
            (None, Some("Serving HTTP on 0.0.0.0 port 8000".to_owned())),
            "the first line that is not blank, across reads, without the next"
        );
        assert_eq!(
            fed(&["Password: "]),
            (None, Some("Password: ".to_owned())),
            "a line without its end"
        );
    }

    #[test]
    fn a_banner_followed_by_a_message_is_answered() {
        let (problem, foreign) = fed(&[
            "MCP server running on stdio\n",
            "{\"jsonrpc\":\"2.0\",\"id\":0,\"result\":{}}\n",
        ]);
        assert_eq!((problem, foreign), (None, None));
        // A line after a message is the protocol layer's to skip.
        let (problem, foreign) = fed(&["{\"jsonrpc\":\"2.0\",\"id\":0}\n", "a log line\n"]);
        assert_eq!((problem, foreign), (None, None));
    }

    #[test]
    fn a_banner_followed_by_broken_json_is_a_bad_frame() {
        let (problem, foreign) = fed(&["banner\n", "{\"a\":1e999}\n"]);
        assert!(problem.is_some_and(|p| p.contains("is not valid JSON")));
        assert_eq!(foreign.as_deref(), Some("banner"), "no message answered");
    }

    #[test]
    fn a_quoted_line_is_trimmed_clipped_and_shows_no_control_characters() {
        assert_eq!(quote(b"  hello \r"), "hello");
        assert_eq!(quote(b"\x1b[32mready\x1b[0m"), "\\u{1b}[32mready\\u{1b}[0m");
        let long = "x".repeat(200);
        assert_eq!(quote(long.as_bytes()), format!("{}…", "x".repeat(120)));
        assert_eq!(quote(b"caf\xc3"), "caf\u{fffd}");
    }

    #[test]
    fn the_status_line_names_each_step() {
        assert_eq!(Step::Handshake.doing(), "initialising (MCP handshake)");
        assert_eq!(Step::Listing(3).doing(), "listing tools, page 3");
    }
}
