//! One module per subcommand: load the project, compute, write to the given writer.
//!
//! Commands return an [`Outcome`] (mapped to the exit code by `main`) or an error (exit 2).
//! Warnings go to the `warnings` writer (standard error in the binary).

pub mod check;
pub mod completions;
pub mod cost;
pub mod diff;
pub mod export;
pub mod import;
pub mod init;
pub mod lint;
pub mod lock;
pub mod man;
pub mod pull;
pub mod reach;
pub mod render;
pub mod search;
pub mod snapshot;
pub mod suggest;
pub mod tools;
pub mod trace;

use std::io::Write;
use std::path::Path;

use crate::args::{Command, Globals};
use crate::project::{Project, Strictness};

/// What a successful run found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Nothing to report: exit 0.
    Ok,
    /// Findings, drift or differences: exit 1.
    Findings,
}

impl Outcome {
    /// The process exit code.
    pub fn exit_code(self) -> i32 {
        match self {
            Outcome::Ok => 0,
            Outcome::Findings => 1,
        }
    }
}

/// Runs a subcommand with the global flags. `cwd` is where the config search starts.
pub fn run(
    command: &Command,
    globals: &Globals,
    cwd: &Path,
    out: &mut dyn Write,
    warnings: &mut dyn Write,
) -> anyhow::Result<Outcome> {
    match command {
        Command::Render(args) => render::run(globals, args, cwd, out, warnings),
        Command::Tools(args) => tools::run(globals, args, cwd, out),
        Command::Cost(args) => cost::run(globals, args, cwd, out),
        Command::Lint(args) => lint::run(globals, args, cwd, out, warnings),
        Command::Snapshot(args) => snapshot::run(globals, args, cwd, out),
        Command::Check(args) => check::run(globals, args, cwd, out),
        Command::Diff(args) => diff::run(globals, args, cwd, out),
        Command::Import(args) => import::run(globals, args, cwd, out),
        Command::Export(args) => export::run(globals, args, cwd, out),
        Command::Pull(args) => pull::run(globals, args, cwd, out),
        Command::Lock(args) => lock::run(globals, args, cwd, out),
        Command::Init(args) => init::run(globals, args, cwd, out),
        Command::Search(args) => search::run(globals, args, cwd, out),
        Command::Trace(args) => trace::run(globals, args, cwd, out),
        Command::Reach(args) => reach::run(globals, args, cwd, out),
        Command::Suggest(args) => suggest::run(globals, args, cwd, out),
        Command::Completions(args) => completions::run(globals, args, cwd, out),
        Command::Man(args) => man::run(globals, args, cwd, out),
    }
}

/// A command's project, never freed: [`run`] serves one command line and the process ends
/// with it, and the operating system reclaims a large catalog's millions of small allocations
/// at once, sooner than freeing them one by one (about 5% of a run at 100,000 tools). A
/// library caller loads with [`Project::load`] and owns what it gets.
pub(crate) fn for_this_run(project: Project) -> &'static Project {
    Box::leak(Box::new(project))
}

/// The project of a command: explicit paths, else `--config`, else the discovered config.
pub fn load(globals: &Globals, paths: &[String], cwd: &Path) -> anyhow::Result<Project> {
    load_with(globals, paths, cwd, Strictness::Strict)
}

/// [`load`], choosing how unknown tool names in profiles are treated.
pub fn load_with(
    globals: &Globals,
    paths: &[String],
    cwd: &Path,
    strictness: Strictness,
) -> anyhow::Result<Project> {
    let project = load_quietly(globals, paths, cwd, strictness)?;
    // Said once per run on standard error, as `main` says errors, whatever the command writes
    // to its output.
    let mut stderr = std::io::stderr();
    for note in &project.notes {
        let _ = writeln!(stderr, "note: {}", crate::printable::neutralise(note));
    }
    Ok(project)
}

/// [`load_with`] without the notes on standard error, for a command that loads the same
/// project again (`lint --fix`, after each pass of fixes).
pub(crate) fn load_quietly(
    globals: &Globals,
    paths: &[String],
    cwd: &Path,
    strictness: Strictness,
) -> anyhow::Result<Project> {
    Ok(match (&globals.config, paths) {
        (Some(_), [_, ..]) => anyhow::bail!("give either `--config` or paths, not both"),
        (None, [_, ..]) => Project::from_paths_with(paths, cwd, strictness)?,
        (Some(path), []) => Project::load_with(path, strictness)?,
        (None, []) => Project::load_with(&config_path(globals, cwd)?, strictness)?,
    })
}

/// Says on standard error what a command wrote to a file it was asked to write (`--out`,
/// `--chart`), as `snapshot` says what it wrote: `wrote `FILE` (N bytes)`. Standard output
/// stays free for what the command prints.
pub(crate) fn report_written(path: &Path, bytes: usize) {
    let _ = writeln!(
        std::io::stderr(),
        "wrote `{}` ({} bytes)",
        crate::printable::neutralise(&path.display().to_string()),
        crate::numfmt::thousands(bytes as i64)
    );
}

/// The config file of a command: `--config`, else the one found from `cwd` up (as shown in
/// messages), else the error that says none was found and what to do.
pub fn config_path(globals: &Globals, cwd: &Path) -> anyhow::Result<std::path::PathBuf> {
    match &globals.config {
        Some(path) => Ok(path.clone()),
        None => match crate::project::find_config(cwd) {
            Some(path) => Ok(crate::project::shown_path(&path)),
            None => Err(crate::project::no_config(cwd).into()),
        },
    }
}
