//! Live tool sources: the MCP servers a config lists under `mcp:`.
//!
//! The core knows what a server is ([`Server`]) and what it lists ([`Listing`]), but speaks no
//! protocol and starts no process: a front-end that wants live sources installs a client once
//! ([`install_client`]; the `discloser-mcp` crate provides one). Without one, a config with an
//! `mcp:` source fails to load with a message that says so, and nothing is started.

use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::Duration;

use serde_json::Value;

/// The default time a whole pull may take.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// How to start a server.
#[derive(Clone, Debug)]
pub struct Server {
    /// The program and its arguments.
    pub command: Vec<String>,
    /// The working directory (default: the current one).
    pub cwd: Option<PathBuf>,
    /// The time the whole exchange may take.
    pub timeout: Duration,
}

/// What a server listed.
#[derive(Clone, Debug)]
pub struct Listing {
    /// The tools, as `tools/list` gave them (every page, in order).
    pub tools: Vec<Value>,
    /// The server's name and version from the handshake, when it gave them.
    pub server: Option<(String, String)>,
}

impl Listing {
    /// The tools as an MCP `tools/list` result, pretty-printed, with a trailing newline.
    pub fn to_json(&self) -> String {
        let mut result = serde_json::Map::new();
        result.insert("tools".into(), Value::Array(self.tools.clone()));
        let mut text = serde_json::to_string_pretty(&Value::Object(result))
            .expect("a JSON value always serialises");
        text.push('\n');
        text
    }
}

/// Lists every tool of a server, or says why it could not (the message names the command).
pub type ListTools = fn(&Server) -> Result<Listing, String>;

static CLIENT: OnceLock<ListTools> = OnceLock::new();

/// Installs the client used for live sources; `false` when one was installed before (that one
/// stays).
pub fn install_client(client: ListTools) -> bool {
    CLIENT.set(client).is_ok()
}

/// Lists the tools of `server` with the installed client.
pub fn list_tools(server: &Server) -> Result<Listing, String> {
    match CLIENT.get() {
        Some(client) => client(server),
        None => Err(format!(
            "cannot start MCP server `{}`: this program has no MCP client (the `discloser` \
             command has one; a library caller installs `discloser_mcp::install()`)",
            shown(&server.command)
        )),
    }
}

/// The path a live server's tools are shown under in messages: `<mcp: COMMAND>`.
pub fn live_path(command: &[String]) -> PathBuf {
    PathBuf::from(format!("<mcp: {}>", shown(command)))
}

/// Whether `path` is one [`live_path`] made.
pub fn is_live_path(path: &std::path::Path) -> bool {
    path.to_str()
        .is_some_and(|p| p.starts_with("<mcp: ") && p.ends_with('>'))
}

/// The command as one line, for messages.
pub fn shown(command: &[String]) -> String {
    command
        .iter()
        .map(|arg| {
            if !arg.is_empty()
                && arg
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_./@:=+,".contains(c))
            {
                arg.clone()
            } else {
                format!("'{}'", arg.replace('\'', r"'\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}
