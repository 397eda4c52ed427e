//! Flags of `discloser lint`.

use crate::lint::report::Format;

/// `discloser lint`.
#[derive(Debug, clap::Args)]
pub struct LintArgs {
    /// Tool files, directories or globs to lint instead of the config's sources.
    #[arg(value_name = "PATH")]
    pub paths: Vec<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Full)]
    pub format: Format,
    /// Run only these rules (codes or names, comma-separated or repeated); replaces the config's.
    #[arg(long, value_delimiter = ',', value_name = "RULES")]
    pub select: Vec<String>,
    /// Do not run these rules (codes or names); added to the config's.
    #[arg(long, value_delimiter = ',', value_name = "RULES")]
    pub ignore: Vec<String>,
    /// Treat warnings as errors for the exit code (`--deny warnings`).
    #[arg(long, value_name = "warnings")]
    pub deny: Option<Deny>,
    /// Apply the fixes to discloser's own files (native tool files, the config), then report
    /// what remains.
    #[arg(long)]
    pub fix: bool,
    /// Print the fixes as a unified diff instead of applying them; writes nothing.
    #[arg(long)]
    pub diff: bool,
    /// Also apply (and count as fixable) the unsafe fixes, which change a tool's contract.
    #[arg(long)]
    pub unsafe_fixes: bool,
    /// Print a rule's documentation and exit.
    #[arg(long, value_name = "CODE")]
    pub explain: Option<String>,
    /// List every rule and exit.
    #[arg(long)]
    pub list: bool,
}

/// What `--deny` applies to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Deny {
    /// Warnings fail the run too.
    Warnings,
}
