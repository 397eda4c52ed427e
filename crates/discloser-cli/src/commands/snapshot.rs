//! `discloser snapshot`: write the model-facing bytes of every profile into the snapshot folder.
//!
//! Each file is written atomically and only when its bytes change. Files of profiles (or
//! providers) that are no longer rendered are reported and kept, unless `--prune` is given;
//! files discloser does not write are never removed.

use std::io::Write;
use std::path::Path;

use super::Outcome;
use super::check::unbox;
use crate::args::{Globals, SnapshotArgs};
use crate::cost::Provider;
use crate::snapshot::{Artifact, Orphan, SnapshotDir, artifacts, select_providers, write};

/// Runs the command.
pub fn run(
    globals: &Globals,
    args: &SnapshotArgs,
    cwd: &Path,
    out: &mut dyn Write,
) -> anyhow::Result<Outcome> {
    let Prepared { dir, rendered, .. } =
        prepare(globals, args.dir.as_deref(), &args.provider, cwd)?;
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

/// What `snapshot` writes and `check` compares against the folder.
pub(crate) struct Prepared {
    /// The snapshot folder.
    pub(crate) dir: SnapshotDir,
    /// The providers whose definitions files are written or checked.
    pub(crate) providers: Vec<Provider>,
    /// The model-facing files of every profile, as rendered now.
    pub(crate) rendered: Vec<Artifact>,
}

/// The prologue of `snapshot` and `check`: loads the project, picks the snapshot folder
/// (`dir`, else `snapshots.dir` of the config) and the providers ([`select_providers`]), and
/// renders every profile's files.
pub(crate) fn prepare(
    globals: &Globals,
    dir: Option<&Path>,
    providers: &[Provider],
    cwd: &Path,
) -> anyhow::Result<Prepared> {
    let project = super::load(globals, &[], cwd)?;
    let dir = match dir {
        Some(dir) => SnapshotDir::given(dir, cwd),
        None => SnapshotDir::of(&project),
    };
    let providers = select_providers(providers, &dir).map_err(unbox)?;
    let rendered = artifacts(&project, &providers).map_err(unbox)?;
    Ok(Prepared {
        dir,
        providers,
        rendered,
    })
}
