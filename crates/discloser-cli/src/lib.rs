//! # discloser-cli
//!
//! The `discloser` command: every flag (`args`), the commands that run on a small globals struct
//! (`commands`), and the printers of the reports the libraries return as data (`report`,
//! `table`, `chart`). [`main`] is all a binary needs: the Rust binary and the Python package's
//! `discloser` command both call it, so they behave byte for byte alike.
//!
//! Exit codes: 0 ok, 1 findings, 2 could not run. A closed pipe is not an error, and it
//! never changes the verdict: findings after it still exit 1.

mod args;
pub mod chart;
mod commands;
pub mod report;
mod table;

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

// The libraries' modules under their usual names, so `crate::catalog` reads the same in every
// crate of the workspace.
use discloser_core::{
    catalog, config, cost, diagnostic, fsutil, index, live, lock, numfmt, printable, project,
    source,
};
use discloser_lint as lint;
use discloser_mcp as mcp;
use discloser_runtime as runtime;
use discloser_snapshot as snapshot;

use args::Cli;
use diagnostic::LoadError;

/// Runs the command line `args` (the program name first) in the current directory, with the
/// process's standard output and error, and returns the exit code.
pub fn main(args: impl IntoIterator<Item = std::ffi::OsString>) -> ExitCode {
    mcp::install();
    let (globals, command) = match Cli::try_parse_args(args) {
        Ok(cli) => cli.into_parts(),
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    table::set_width(table::width_for(
        globals.width,
        std::io::stdout().is_terminal(),
    ));
    let cwd = std::env::current_dir().unwrap_or_else(|_| ".".into());
    let mut stdout = UntilClosed::new(std::io::stdout().lock());
    let mut stderr = std::io::stderr();
    let result = commands::run(&command, &globals, &cwd, &mut stdout, &mut stderr);
    let _ = stdout.flush();
    match result {
        Ok(outcome) => ExitCode::from(outcome.exit_code() as u8),
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            let color = globals.color.enabled(std::io::stderr().is_terminal());
            let text = match e.downcast_ref::<LoadError>() {
                Some(load) => report::load_error::render(load, color),
                None if color => format!("{ERROR_STYLED}: {}", shown(&e)),
                None => format!("error: {}", shown(&e)),
            };
            let _ = writeln!(stderr, "{}", text.trim_end());
            ExitCode::from(2)
        }
    }
}

/// `error` as annotate-snippets styles it in load errors (bold bright red), so every error
/// looks the same.
const ERROR_STYLED: &str = "\x1b[1m\x1b[91merror\x1b[0m";

/// An error and its causes joined with `: ` (as `{e:#}` does), each with its control
/// characters shown, since messages quote user values.
fn shown(e: &anyhow::Error) -> String {
    e.chain()
        .map(|cause| discloser_core::printable::neutralise(&cause.to_string()).into_owned())
        .collect::<Vec<_>>()
        .join(": ")
}

/// Standard output that a closed pipe ends without changing the verdict: after the reader
/// goes away (`discloser lint | head -1`), writes are dropped and the command runs to its end,
/// so findings still exit 1 and a CI step with `pipefail` still fails.
struct UntilClosed<W> {
    inner: W,
    closed: bool,
}

impl<W: Write> UntilClosed<W> {
    fn new(inner: W) -> Self {
        UntilClosed {
            inner,
            closed: false,
        }
    }

    fn absorb<T>(&mut self, result: std::io::Result<T>, done: T) -> std::io::Result<T> {
        match result {
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
                self.closed = true;
                Ok(done)
            }
            other => other,
        }
    }
}

impl<W: Write> Write for UntilClosed<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.closed {
            return Ok(buf.len());
        }
        let result = self.inner.write(buf);
        self.absorb(result, buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if self.closed {
            return Ok(());
        }
        let result = self.inner.flush();
        self.absorb(result, ())
    }
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain()
        .filter_map(|c| c.downcast_ref::<std::io::Error>())
        .any(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
}
