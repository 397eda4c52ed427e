//! `discloser man`: man pages in roff, generated from the clap definitions in [`crate::args`].
//!
//! Without `--dir`, `discloser.1` goes to standard output (it lists every subcommand). With
//! `--dir`, that page and one page per subcommand (`discloser-render.1`, ...) are written there
//! atomically, for packagers. The pages hold no date, so they are byte-stable per version.

use std::io::Write;
use std::path::Path;

use anyhow::Context;

use super::Outcome;
use crate::args::{Globals, ManArgs};

/// Writes the man page to `out`, or every page to `--dir`.
pub fn run(
    _globals: &Globals,
    args: &ManArgs,
    cwd: &Path,
    out: &mut dyn Write,
) -> anyhow::Result<Outcome> {
    let command = crate::args::command();
    match &args.dir {
        None => out.write_all(&page(command)?)?,
        Some(dir) => {
            std::fs::create_dir_all(cwd.join(dir))
                .with_context(|| format!("cannot create `{}`", dir.display()))?;
            for (name, bytes) in pages(command)? {
                let shown = dir.join(&name);
                crate::fsutil::write_atomic(&cwd.join(&shown), &bytes)
                    .with_context(|| format!("cannot write `{}`", shown.display()))?;
                writeln!(out, "wrote {}", shown.display())?;
            }
        }
    }
    Ok(Outcome::Ok)
}

/// Every page: `discloser.1`, then `discloser-SUBCOMMAND.1` in the order of `--help`.
pub fn pages(command: clap::Command) -> anyhow::Result<Vec<(String, Vec<u8>)>> {
    let mut command = command.disable_help_subcommand(true);
    // Building propagates the global flags and names subcommands `discloser-render`, ...
    command.build();
    let source = format!(
        "{} {}",
        command.get_name(),
        command.get_version().unwrap_or_default()
    );
    let mut pages = Vec::new();
    for cmd in
        std::iter::once(&command).chain(command.get_subcommands().filter(|s| !s.is_hide_set()))
    {
        let man = clap_mangen::Man::new(cmd.clone()).source(source.clone());
        pages.push((man.get_filename(), render(&man)?));
    }
    Ok(pages)
}

/// The main page, `discloser.1`.
pub fn page(command: clap::Command) -> anyhow::Result<Vec<u8>> {
    let (_, bytes) = pages(command)?.swap_remove(0);
    Ok(bytes)
}

fn render(man: &clap_mangen::Man) -> anyhow::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    man.render(&mut bytes)?;
    Ok(bytes)
}
