//! `discloser search`: keyword scoring over the shared trigger vocabulary, exactly as a runtime's
//! search tool ranks tools (see [`crate::runtime::search`]).

use std::io::Write;
use std::path::Path;

use super::{Outcome, load};
use crate::args::{Globals, SearchArgs};
use crate::report::runtime as report;
use crate::runtime::Runtime;

/// Ranks the catalog for the query. Exit 0 when a tool matches, 1 when none does (like grep).
pub fn run(
    globals: &Globals,
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
    let project = load(globals, &args.paths, cwd)?;
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
