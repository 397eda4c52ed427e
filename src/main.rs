//! The `discloser` binary: parse arguments, run the command, map the result to an exit code
//! (0 ok, 1 findings, 2 could not run). A closed pipe is not an error.

mod cli;
mod commands;
mod report;
mod table;

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

// The libraries' modules under their usual names, so `crate::catalog` reads the same in every
// crate of the workspace.
use discloser::{
    catalog, chart, config, cost, diagnostic, fsutil, index, lint, mcp, numfmt, project, runtime,
    snapshot, source,
};

use cli::Cli;
use diagnostic::LoadError;

fn main() -> ExitCode {
    mcp::install();
    let cli = match Cli::try_parse_args(std::env::args_os()) {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    let cwd = std::env::current_dir().unwrap_or_else(|_| ".".into());
    let mut stdout = std::io::stdout().lock();
    let mut stderr = std::io::stderr();
    let result = commands::run(&cli, &cwd, &mut stdout, &mut stderr);
    let _ = stdout.flush();
    match result {
        Ok(outcome) => ExitCode::from(outcome.exit_code() as u8),
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            let color = cli.color.enabled(std::io::stderr().is_terminal());
            let text = match e.downcast_ref::<LoadError>() {
                Some(load) => report::load_error::render(load, color),
                None if color => format!("{ERROR_STYLED}: {e:#}"),
                None => format!("error: {e:#}"),
            };
            let _ = writeln!(stderr, "{}", text.trim_end());
            ExitCode::from(2)
        }
    }
}

/// `error` as annotate-snippets styles it in load errors (bold bright red), so every error
/// looks the same.
const ERROR_STYLED: &str = "\x1b[1m\x1b[91merror\x1b[0m";

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain()
        .filter_map(|c| c.downcast_ref::<std::io::Error>())
        .any(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
}
