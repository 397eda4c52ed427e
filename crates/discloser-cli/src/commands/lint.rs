//! `discloser lint`: the index contract as lint rules, with CI-grade output.

use std::io::{IsTerminal, Write};
use std::path::Path;

use super::{Outcome, for_this_run, load_with};
use crate::cli::Cli;
use crate::lint::report::{Format, render};
use crate::lint::{RULES, Settings, Severity, lint, rules};
use crate::project::Strictness;

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

/// Runs the linter.
pub fn run(cli: &Cli, args: &LintArgs, cwd: &Path, out: &mut dyn Write) -> anyhow::Result<Outcome> {
    if args.list {
        for rule in RULES {
            writeln!(
                out,
                "{}  {:<28} {:<8} {}",
                rule.code,
                rule.name,
                rule.severity.as_str(),
                rule.summary()
            )?;
        }
        return Ok(Outcome::Ok);
    }
    if let Some(code) = &args.explain {
        let rule = rules::find(code).ok_or_else(|| anyhow::anyhow!(rules::unknown(code)))?;
        writeln!(
            out,
            "{} ({}), default severity: {}\n",
            rule.name,
            rule.code,
            rule.severity.as_str()
        )?;
        writeln!(out, "{}", rule.doc_text())?;
        return Ok(Outcome::Ok);
    }
    let project = for_this_run(load_with(cli, &args.paths, cwd, Strictness::Lenient)?);
    let mut settings = Settings::from_config(&project.config.lint)
        .map_err(|e| anyhow::anyhow!("{}: {e}", project.config_path.display()))?;
    if !args.select.is_empty() {
        settings.select.clone_from(&args.select);
    }
    settings.ignore.extend(args.ignore.iter().cloned());
    for code in args.select.iter().chain(&args.ignore) {
        if rules::find(code).is_none() {
            anyhow::bail!(rules::unknown(code));
        }
    }
    let findings = lint(project, &settings);
    let color = args.format == Format::Full && cli.color.enabled(std::io::stdout().is_terminal());
    out.write_all(render(&findings, args.format, color).as_bytes())?;
    let failing = findings
        .iter()
        .any(|f| f.severity == Severity::Error || args.deny == Some(Deny::Warnings));
    Ok(if failing {
        Outcome::Findings
    } else {
        Outcome::Ok
    })
}
