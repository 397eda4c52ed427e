//! `discloser search`: keyword scoring over the shared trigger vocabulary, exactly as a runtime's
//! search tool ranks tools (see [`crate::runtime::search`]).

use std::io::Write;
use std::path::Path;

use super::{Outcome, load};
use crate::cli::Cli;
use crate::report::runtime as report;
use crate::runtime::{Format, Runtime, SEARCH_LIMIT};

/// `discloser search`.
#[derive(Debug, clap::Args)]
pub struct SearchArgs {
    /// What the user said, in any language.
    #[arg(value_name = "QUERY")]
    pub query: String,
    /// Tool files, directories or globs to search instead of the config's sources.
    #[arg(value_name = "PATH")]
    pub paths: Vec<String>,
    /// How many tools to show.
    #[arg(long, value_name = "K", default_value_t = SEARCH_LIMIT)]
    pub limit: usize,
    /// The profile that decides which tools show as bound or indexed.
    #[arg(long, short, default_value = crate::project::DEFAULT_PROFILE)]
    pub profile: String,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
}

/// Ranks the catalog for the query. Exit 0 when a tool matches, 1 when none does (like grep).
pub fn run(
    cli: &Cli,
    args: &SearchArgs,
    cwd: &Path,
    out: &mut dyn Write,
) -> anyhow::Result<Outcome> {
    if args.query.trim().is_empty() {
        anyhow::bail!("the query is empty: give the words a user would say");
    }
    if args.limit == 0 {
        anyhow::bail!("`--limit` must be at least 1");
    }
    let project = load(cli, &args.paths, cwd)?;
    let profile = project.profile(&args.profile)?;
    let runtime = Runtime::new(&project);
    let hits = runtime.index().top(&args.query, args.limit);
    let text = report::render_search(&args.query, &hits, &profile, args.format);
    out.write_all(text.as_bytes())?;
    Ok(if hits.is_empty() {
        Outcome::Findings
    } else {
        Outcome::Ok
    })
}
