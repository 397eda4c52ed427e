//! `discloser render`: the index of a profile, to standard output or a file.

use std::fmt::Write as _;
use std::io::Write;
use std::path::Path;

use anyhow::Context;

use super::{Outcome, for_this_run, load};
use crate::args::{Globals, RenderArgs};
use crate::index::render_index;

/// Renders the index of `args.profile`.
pub fn run(
    globals: &Globals,
    args: &RenderArgs,
    cwd: &Path,
    out: &mut dyn Write,
    warnings: &mut dyn Write,
) -> anyhow::Result<Outcome> {
    let project = for_this_run(load(globals, &args.paths, cwd)?);
    let profile = project.profile(&args.profile)?;
    // Rendered batch by batch: the entries of a large catalog are never all held at once.
    let (pieces, index_warnings) = render_index(
        &project.catalog,
        &profile,
        project.index_config(),
        args.style,
    );
    // One write for all of them: standard error is unbuffered, and a catalog may have
    // many (the shared corpora's 711 took five `write` calls each, written one by one).
    let mut text = String::new();
    for warning in &index_warnings {
        let _ = writeln!(
            text,
            "warning: tool `{}`: {}",
            warning.tool, warning.message
        );
    }
    warnings.write_all(text.as_bytes())?;
    let write_pieces = |out: &mut dyn Write| -> std::io::Result<()> {
        pieces
            .iter()
            .try_for_each(|piece| out.write_all(piece.as_bytes()))
    };
    match &args.out {
        Some(path) if path.as_os_str() == "-" => write_pieces(out)?,
        Some(path) => {
            let text = pieces.concat();
            crate::fsutil::write_atomic(path, text.as_bytes())
                .with_context(|| format!("cannot write `{}`", path.display()))?;
            super::report_written(path, text.len());
        }
        None => write_pieces(out)?,
    }
    Ok(Outcome::Ok)
}
