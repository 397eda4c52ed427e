//! Every flag of the command line (clap derive): [`Cli`] with the global flags and the
//! [`Command`] enum here, one struct per subcommand in a file per group of commands.
//!
//! This module knows no command: `commands` imports its arguments from here, never the other
//! way round. The commands see the global flags as [`Globals`], which the dispatcher takes
//! from [`Cli`] once; nothing else knows [`Cli`].

mod catalog;
mod lint;
mod meta;
mod runtime;
mod snapshot;
mod sources;

use std::ffi::{OsStr, OsString};
use std::path::PathBuf;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

pub use catalog::{CostArgs, ExportArgs, RenderArgs, ReportFormat, TableFormat, ToolsArgs};
pub use lint::{Deny, LintArgs};
pub use meta::{CompletionsArgs, ManArgs};
pub use runtime::{ReachArgs, SearchArgs, SuggestArgs, TraceArgs};
pub use snapshot::{CheckArgs, DiffArgs, OutputFormat, SnapshotArgs};
pub use sources::{ImportArgs, InitArgs, LockArgs, PullArgs};

/// Render, diff, cost and lint the tool index of an LLM agent.
#[derive(Debug, Parser)]
#[command(name = "discloser", version, about, long_about = None)]
pub struct Cli {
    /// The config file (default: `discloser.yaml` in the current directory or a parent).
    #[arg(long, global = true, value_name = "PATH")]
    pub config: Option<PathBuf>,

    /// Tables fit this many columns, wrapping cells (default: the terminal's width when
    /// standard output is a terminal, `COLUMNS` overriding it; otherwise a fixed layout).
    #[arg(long, global = true, value_name = "COLUMNS", value_parser = clap::value_parser!(u16).range(20..))]
    pub width: Option<u16>,

    /// When to use colors: `auto` colors only a terminal and honours `NO_COLOR`.
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto, value_name = "WHEN")]
    pub color: ColorChoice,

    /// The subcommand.
    #[command(subcommand)]
    pub command: Command,
}

impl Cli {
    /// Parses a command line (the program name first), styling clap's own help and error
    /// messages by `--color` as well: clap prints them before [`Cli::color`] exists.
    pub fn try_parse_args<I, T>(args: I) -> Result<Cli, clap::Error>
    where
        I: IntoIterator<Item = T>,
        T: Into<OsString>,
    {
        let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
        let color = match requested_color(&args) {
            Some(ColorChoice::Always) => clap::ColorChoice::Always,
            Some(ColorChoice::Never) => clap::ColorChoice::Never,
            Some(ColorChoice::Auto) | None => clap::ColorChoice::Auto,
        };
        let mut command = Cli::command().color(color);
        let matches = command.try_get_matches_from_mut(args)?;
        Cli::from_arg_matches(&matches).map_err(|e| e.format(&mut command))
    }

    /// Splits the command line into its global flags and its subcommand.
    pub fn into_parts(self) -> (Globals, Command) {
        let Cli {
            config,
            width,
            color,
            command,
        } = self;
        (
            Globals {
                config,
                width,
                color,
            },
            command,
        )
    }
}

/// The global flags, as every command reads them.
#[derive(Clone, Debug, Default)]
pub struct Globals {
    /// `--config`: the config file, else the one discovered from the current directory up.
    pub config: Option<PathBuf>,
    /// `--width`: the columns tables fit, else the terminal's or a fixed layout.
    pub width: Option<u16>,
    /// `--color`: when output is colored.
    pub color: ColorChoice,
}

/// The whole command line as clap describes it, for the commands that print it in another
/// form (`completions`, `man`).
pub fn command() -> clap::Command {
    Cli::command()
}

/// The last `--color WHEN` or `--color=WHEN` before a `--`, read ahead of clap.
fn requested_color(args: &[OsString]) -> Option<ColorChoice> {
    let mut found = None;
    let mut rest = args.iter().skip(1).map(OsString::as_os_str);
    while let Some(arg) = rest.next() {
        let value = match arg.to_str() {
            Some("--") => break,
            Some("--color") => rest.next().and_then(OsStr::to_str),
            Some(arg) => arg.strip_prefix("--color="),
            None => None,
        };
        if let Some(value) = value {
            found = <ColorChoice as clap::ValueEnum>::from_str(value, false).ok();
        }
    }
    found
}

/// When output is colored (`--color`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    /// Color when writing to a terminal and `NO_COLOR` is unset or empty.
    #[default]
    Auto,
    /// Always color, even into a pipe or a file and despite `NO_COLOR`.
    Always,
    /// Never color.
    Never,
}

impl ColorChoice {
    /// Whether to color a stream, given whether it is a terminal; reads `NO_COLOR`.
    pub fn enabled(self, terminal: bool) -> bool {
        self.decide(terminal, std::env::var_os("NO_COLOR").as_deref())
    }

    /// [`ColorChoice::enabled`] with the value of `NO_COLOR` given: only a non-empty value
    /// turns color off (<https://no-color.org>), and only in `auto`.
    pub fn decide(self, terminal: bool, no_color: Option<&OsStr>) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => terminal && no_color.is_none_or(OsStr::is_empty),
        }
    }
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print the index of the tools a profile does not bind.
    Render(RenderArgs),
    /// List the catalog: each tool, bound or indexed in a profile, and where it comes from.
    Tools(ToolsArgs),
    /// Compare what tool definitions cost: everything bound against each profile's starter set
    /// plus index, in characters and tokens.
    Cost(CostArgs),
    /// Check tool definitions against the index contract (missing triggers, cut sentences,
    /// untyped enums, ...).
    Lint(LintArgs),
    /// Write the model-facing bytes of every profile (index and bound definitions) to the
    /// snapshot folder.
    Snapshot(SnapshotArgs),
    /// Compare the model-facing bytes with the snapshots, byte for byte, and report the prompt
    /// cache impact of any drift. Never writes.
    Check(CheckArgs),
    /// Compare two versions of a catalog's index (two configs, a git revision, or two profiles).
    Diff(DiffArgs),
    /// Convert OpenAI, Anthropic, MCP or Gemini tool definitions into discloser's YAML format.
    Import(ImportArgs),
    /// Print a profile's bound tool definitions exactly as a provider's request expects them.
    Export(ExportArgs),
    /// Fetch the tool definitions of a live MCP server over stdio.
    Pull(PullArgs),
    /// Pin the tools of the config's MCP servers in `discloser.lock.json`, so that commands
    /// start no server; `--check` reports what a server changed since.
    Lock(LockArgs),
    /// Write a `discloser.yaml` for tool files and MCP servers, with a trigger stub per tool.
    Init(InitArgs),
    /// Rank catalog tools for a query with the keyword scoring a runtime's search tool uses.
    Search(SearchArgs),
    /// Summarise tool traces: how each tool was reached, first-call failures, invented names.
    Trace(TraceArgs),
    /// Check that user utterances reach the tools they should (findability gate for CI).
    Reach(ReachArgs),
    /// Suggest the starter set that minimises expected tokens per turn from real usage.
    Suggest(SuggestArgs),
    /// Print a shell completion script.
    Completions(CompletionsArgs),
    /// Print the man page.
    Man(ManArgs),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn requested(args: &[&str]) -> Option<ColorChoice> {
        let args: Vec<OsString> = args.iter().map(OsString::from).collect();
        requested_color(&args)
    }

    #[test]
    fn color_is_read_ahead_of_clap() {
        assert_eq!(requested(&["discloser", "render"]), None);
        assert_eq!(
            requested(&["discloser", "--color", "never", "render"]),
            Some(ColorChoice::Never)
        );
        assert_eq!(
            requested(&["discloser", "lint", "--color=always"]),
            Some(ColorChoice::Always)
        );
        assert_eq!(requested(&["discloser", "--color=sometimes"]), None);
        assert_eq!(requested(&["discloser", "--color"]), None);
        // After `--`, arguments belong to someone else (`pull -- COMMAND`).
        assert_eq!(
            requested(&["discloser", "pull", "--", "srv", "--color", "never"]),
            None
        );
    }

    #[test]
    fn no_color_only_quiets_auto() {
        let set = Some(OsStr::new("1"));
        let empty = Some(OsStr::new(""));
        assert!(ColorChoice::Auto.decide(true, None));
        assert!(ColorChoice::Auto.decide(true, empty));
        assert!(!ColorChoice::Auto.decide(true, set));
        assert!(!ColorChoice::Auto.decide(false, None));
        assert!(ColorChoice::Always.decide(false, set));
        assert!(!ColorChoice::Never.decide(true, None));
    }

    #[test]
    fn global_flags_are_split_off_wherever_they_stand() {
        let cli = Cli::try_parse_args([
            "discloser",
            "lint",
            "--config",
            "x.yaml",
            "--width",
            "40",
            "--color",
            "never",
        ])
        .expect("a valid command line");
        let (globals, command) = cli.into_parts();
        assert_eq!(globals.config, Some(PathBuf::from("x.yaml")));
        assert_eq!(globals.width, Some(40));
        assert_eq!(globals.color, ColorChoice::Never);
        assert!(matches!(command, Command::Lint(_)));
    }

    #[test]
    fn every_command_accepts_color() {
        for args in [
            &["discloser", "--color", "never", "render"][..],
            &["discloser", "cost", "--color", "always", "--chart", "x.svg"][..],
            &["discloser", "man", "--color=auto"][..],
        ] {
            assert!(Cli::try_parse_args(args).is_ok(), "{args:?}");
        }
    }
}
