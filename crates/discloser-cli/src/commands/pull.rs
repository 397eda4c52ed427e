//! `discloser pull`: tool definitions of a live MCP server.
//!
//! Starts `COMMAND [ARGS...]`, performs the MCP handshake over stdio, lists every tool
//! (following `nextCursor`), shuts the server down and writes the tools as an MCP `tools/list`
//! result (`{"tools": [...]}`, pretty-printed), which every discloser command reads. Any
//! failure (the program does not start, exits, speaks something else, or does not answer
//! within `--timeout`) is an error: exit code 2, nothing written.

use std::io::Write;
use std::path::Path;
use std::time::Duration;

use anyhow::Context;

use super::Outcome;
use crate::args::{Globals, PullArgs};
use crate::mcp;

/// Runs the command.
pub fn run(
    _globals: &Globals,
    args: &PullArgs,
    cwd: &Path,
    out: &mut dyn Write,
) -> anyhow::Result<Outcome> {
    if !(args.timeout.is_finite() && args.timeout > 0.0 && args.timeout <= 86_400.0) {
        anyhow::bail!(
            "`--timeout` must be a number of seconds above 0 and at most 86400 (a day), got `{}`",
            args.timeout
        );
    }
    let server = mcp::Server {
        command: args.command.clone(),
        cwd: Some(cwd.to_path_buf()),
        timeout: Duration::from_secs_f64(args.timeout),
    };
    let listing = mcp::list_tools_with(&server, mcp::Progress::StatusLine)?;
    let text = listing.to_json();
    match &args.out {
        // `-` is standard output, as for most tools that take a file to write.
        Some(path) if path.as_os_str() == "-" => out.write_all(text.as_bytes())?,
        Some(path) => {
            crate::fsutil::write_atomic(&cwd.join(path), text.as_bytes())
                .with_context(|| format!("cannot write `{}`", path.display()))?;
            super::report_written(path, text.len());
        }
        None => out.write_all(text.as_bytes())?,
    }
    Ok(Outcome::Ok)
}
