//! `discloser snapshot`: write the model-facing bytes of every profile into the snapshot folder.
//!
//! Each file is written atomically and only when its bytes change. Files of profiles (or
//! providers) that are no longer rendered are reported and kept, unless `--prune` is given;
//! files discloser does not write are never removed.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::Outcome;
use super::check::unbox;
use crate::cli::Cli;
use crate::cost::Provider;
use crate::snapshot::{Orphan, SnapshotDir, artifacts, select_providers, write};

/// `discloser snapshot`.
#[derive(Debug, clap::Args)]
pub struct SnapshotArgs {
    /// Providers whose definitions are written (repeatable; default: those already in the
    /// snapshot folder, else `raw`).
    #[arg(long, value_enum)]
    pub provider: Vec<Provider>,
    /// Remove snapshot files of profiles and providers that are no longer rendered.
    #[arg(long)]
    pub prune: bool,
    /// The snapshot folder (default: `snapshots.dir` of the config, relative to the config).
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

/// Runs the command.
pub fn run(
    cli: &Cli,
    args: &SnapshotArgs,
    cwd: &Path,
    out: &mut dyn Write,
) -> anyhow::Result<Outcome> {
    let project = super::load(cli, &[], cwd)?;
    let dir = match &args.dir {
        Some(dir) => SnapshotDir::given(dir, cwd),
        None => SnapshotDir::of(&project),
    };
    let providers = select_providers(&args.provider, &dir).map_err(unbox)?;
    let rendered = artifacts(&project, &providers).map_err(unbox)?;
    let report = write(&dir, &rendered, args.prune).map_err(unbox)?;
    let mut text = String::new();
    for path in &report.written {
        text.push_str(&format!("wrote {}\n", path.display()));
    }
    for path in &report.removed {
        text.push_str(&format!("removed {}\n", path.display()));
    }
    for (path, why) in &report.kept {
        let reason = match why {
            Orphan::UnknownProfile => "no profile renders it; `--prune` removes it",
            Orphan::UnselectedProvider => "its provider was not selected; `--prune` removes it",
            Orphan::NotASnapshotFile => "not a file discloser writes; remove it by hand",
        };
        text.push_str(&format!("kept {}: {reason}\n", path.display()));
    }
    text.push_str(&format!(
        "{} written, {} unchanged, {} removed in `{}`\n",
        report.written.len(),
        report.unchanged.len(),
        report.removed.len(),
        dir.shown.display()
    ));
    out.write_all(text.as_bytes())?;
    Ok(Outcome::Ok)
}
