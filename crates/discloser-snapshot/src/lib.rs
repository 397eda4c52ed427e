//! Snapshots of the model-facing bytes, and comparisons of two versions of them.
//!
//! For every profile, two kinds of file reach the model: the rendered index (the prompt part
//! listing the unbound tools) and the definitions of the bound tools, serialised the way a
//! provider's request carries them. A snapshot folder holds exactly those bytes, one folder per
//! profile:
//!
//! ```text
//! snapshots/<profile>/index.txt                the index, text style, as `render` prints it
//! snapshots/<profile>/tools.<provider>.jsonl   the bound definitions, one compact JSON per line
//! ```
//!
//! A definitions file has one line per bound tool, in catalog order (by name), the search tool
//! last when the config declares one; each line is exactly the text `cost` counts for that
//! definition, followed by `\n` (an empty file when nothing is bound). JSON text never contains
//! a raw newline, so a line is a definition and a diff shows which one changed.
//!
//! [`write()`] replaces each file atomically ([`crate::fsutil::write_atomic`]), leaves identical
//! files alone, and deletes files only when asked to prune, and then only files it could have
//! written. [`check`] never writes. Comparisons are byte for byte ([`compare`]); the summary of
//! what changed per tool ([`changes`]) only explains them. [`diff`] compares two versions of a
//! catalog (two configs, a git revision, two profiles) with the same machinery.

// The core's modules under their usual names, so `crate::catalog` reads the same in every
// crate of the workspace.
use discloser_core::{config, cost, diagnostic, fsutil, index, project, source};

pub mod changes;
pub mod compare;
pub mod diff;
pub mod git;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::cost::{Counter, Provider};
use crate::diagnostic::LoadError;
use crate::index::{Style, build_index, render};
use crate::project::{Profile, Project};
use changes::{ProfilePair, ProfileTexts, Summary};
use compare::{CacheImpact, FirstDifference, Note};

/// The file name of a profile's rendered index.
pub const INDEX_FILE: &str = "index.txt";

/// The file that marks a folder as discloser's snapshot folder, written when `snapshot` creates
/// the folder (or finds it empty): `--prune` removes files only inside a folder that has it.
/// Hidden, so [`scan`] and `check` never see it.
pub const MARKER_FILE: &str = ".discloser-snapshots";

/// What the marker file says.
const MARKER_TEXT: &str = "This folder holds discloser's snapshots: `discloser snapshot --prune` removes files only in a folder with this file.\n";

/// How deep [`scan`] looks into a snapshot folder (snapshots use two levels).
const MAX_DEPTH: usize = 16;

/// Why snapshots could not be written or read.
#[derive(Debug, thiserror::Error)]
pub enum SnapshotError {
    /// The project could not be loaded or a profile resolved.
    #[error(transparent)]
    Load(#[from] LoadError),
    /// A profile name that cannot be a folder name.
    #[error("profile `{name}` cannot name a snapshot folder: {reason}")]
    ProfileName {
        /// The profile.
        name: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The snapshot folder is a file.
    #[error("snapshot folder `{}` is not a directory", path.display())]
    NotADirectory {
        /// The path, as shown.
        path: PathBuf,
    },
    /// A file or folder could not be read.
    #[error("cannot read `{}`", path.display())]
    Read {
        /// The path, as shown.
        path: PathBuf,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// A file or folder could not be written.
    #[error("cannot write `{}`", path.display())]
    Write {
        /// The path, as shown.
        path: PathBuf,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// A snapshot file would be written through a symbolic link that leaves the project.
    #[error(
        "refusing to write `{}`: a symbolic link leads it out of `{}`, to `{}`",
        path.display(),
        boundary.display(),
        real.display()
    )]
    Escapes {
        /// The file, as shown.
        path: PathBuf,
        /// The folder it must stay in, as shown.
        boundary: PathBuf,
        /// Where the link leads.
        real: PathBuf,
    },
    /// `--prune` in a folder discloser did not create as a snapshot folder.
    #[error(
        "refusing to prune `{}`: it has no `{MARKER_FILE}` file, so discloser cannot tell its snapshot files from others; run without `--prune`, or create `{}` if the folder holds only snapshots",
        path.display(),
        path.join(MARKER_FILE).display()
    )]
    NotASnapshotFolder {
        /// The folder, as shown.
        path: PathBuf,
    },
    /// A file or folder could not be removed.
    #[error("cannot remove `{}`", path.display())]
    Remove {
        /// The path, as shown.
        path: PathBuf,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
}

/// Which model-facing file of a profile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum ArtifactKind {
    /// `index.txt`.
    Index,
    /// `tools.<provider>.jsonl`.
    Definitions(Provider),
}

impl ArtifactKind {
    /// The file name inside the profile folder.
    pub fn file_name(self) -> String {
        match self {
            ArtifactKind::Index => INDEX_FILE.to_owned(),
            ArtifactKind::Definitions(p) => format!("tools.{}.jsonl", p.as_str()),
        }
    }

    /// The kind of a file name, `None` for a name discloser never writes.
    pub fn from_file_name(name: &str) -> Option<ArtifactKind> {
        if name == INDEX_FILE {
            return Some(ArtifactKind::Index);
        }
        let provider = name.strip_prefix("tools.")?.strip_suffix(".jsonl")?;
        Provider::from_name(provider).map(ArtifactKind::Definitions)
    }
}

/// One model-facing file of one profile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Artifact {
    /// The profile.
    pub profile: String,
    /// Which file.
    pub kind: ArtifactKind,
    /// Its exact content.
    pub text: String,
}

impl Artifact {
    /// `<profile>/<file>`, relative to a snapshot folder.
    pub fn relative_path(&self) -> PathBuf {
        Path::new(&self.profile).join(self.kind.file_name())
    }
}

/// A snapshot folder: where it is, and how to name it in messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SnapshotDir {
    /// The folder on disk.
    pub path: PathBuf,
    /// The folder as shown to the user.
    pub shown: PathBuf,
    /// The project's root (or the working directory of a folder given on the command line):
    /// a folder inside it is written only where symbolic links keep the files inside it.
    pub root: PathBuf,
}

impl SnapshotDir {
    /// The folder a project's config names (`snapshots.dir`, relative to the config file).
    pub fn of(project: &Project) -> SnapshotDir {
        let dir = &project.config.snapshots.dir;
        SnapshotDir {
            path: project.root.join(dir),
            shown: project
                .config_path
                .parent()
                .map_or_else(|| PathBuf::from(dir), |p| p.join(dir)),
            root: project.root.clone(),
        }
    }

    /// A folder given on the command line, relative to `cwd`.
    pub fn given(path: &Path, cwd: &Path) -> SnapshotDir {
        SnapshotDir {
            path: cwd.join(path),
            shown: path.to_path_buf(),
            root: cwd.to_path_buf(),
        }
    }

    /// A file inside the folder, as shown.
    pub fn shown_file(&self, relative: &Path) -> PathBuf {
        self.shown.join(relative)
    }
}

/// The model-facing files of every profile, in config order: each profile's index, then its
/// definitions for each provider.
pub fn artifacts(
    project: &Project,
    providers: &[Provider],
) -> Result<Vec<Artifact>, SnapshotError> {
    let mut out = Vec::new();
    for name in project.profile_names() {
        if let Some(reason) = config::profile_name_problem(&name) {
            return Err(SnapshotError::ProfileName { name, reason });
        }
        let profile = project.profile(&name)?;
        out.extend(profile_artifacts(project, &profile, providers));
    }
    Ok(out)
}

/// The model-facing files of one profile: its index, then its definitions for each provider.
pub fn profile_artifacts(
    project: &Project,
    profile: &Profile,
    providers: &[Provider],
) -> Vec<Artifact> {
    let index = build_index(&project.catalog, profile, project.index_config());
    let mut out = vec![Artifact {
        profile: profile.name.clone(),
        kind: ArtifactKind::Index,
        text: render(&index, Style::Text),
    }];
    for &provider in providers {
        out.push(Artifact {
            profile: profile.name.clone(),
            kind: ArtifactKind::Definitions(provider),
            text: definitions_text(project, profile, provider),
        });
    }
    out
}

/// The bound definitions of `profile` as sent: one compact JSON definition per line, in
/// catalog order, the search tool last; references into other files are bundled into the
/// tool's `$defs` ([`discloser_core::catalog::Catalog::bundled`]), as `export` and `cost` do.
pub fn definitions_text(project: &Project, profile: &Profile, provider: Provider) -> String {
    let mut out = String::new();
    let catalog = &project.catalog;
    for (i, tool) in catalog.tools.iter().enumerate() {
        if profile.is_bound(&tool.name) {
            let parameters = catalog.bundled(i);
            out.push_str(&provider.serialize(&tool.name, &tool.description, &parameters));
            out.push('\n');
        }
    }
    if let Some(search) = project.search_tool() {
        out.push_str(&provider.serialize(&search.name, &search.description, &search.parameters));
        out.push('\n');
    }
    out
}

/// The files under a snapshot folder, relative to it, sorted. Entries whose name starts with
/// `.` are skipped (editor and OS files, and the temporary files of an interrupted write);
/// symbolic links are listed, never followed. A missing folder has no files.
pub fn scan(dir: &SnapshotDir) -> Result<Vec<PathBuf>, SnapshotError> {
    match std::fs::metadata(&dir.path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(source) => {
            return Err(SnapshotError::Read {
                path: dir.shown.clone(),
                source,
            });
        }
        Ok(meta) if !meta.is_dir() => {
            return Err(SnapshotError::NotADirectory {
                path: dir.shown.clone(),
            });
        }
        Ok(_) => {}
    }
    let mut out = Vec::new();
    walk(dir, Path::new(""), 0, &mut out)?;
    out.sort();
    Ok(out)
}

fn walk(
    dir: &SnapshotDir,
    relative: &Path,
    depth: usize,
    out: &mut Vec<PathBuf>,
) -> Result<(), SnapshotError> {
    let read_error = |source| SnapshotError::Read {
        path: dir.shown_file(relative),
        source,
    };
    let entries = std::fs::read_dir(dir.path.join(relative)).map_err(read_error)?;
    for entry in entries {
        let entry = entry.map_err(read_error)?;
        let name = entry.file_name();
        if name.to_string_lossy().starts_with('.') {
            continue;
        }
        let path = relative.join(&name);
        let kind = entry.file_type().map_err(|source| SnapshotError::Read {
            path: dir.shown_file(&path),
            source,
        })?;
        if kind.is_dir() && depth < MAX_DEPTH {
            walk(dir, &path, depth + 1, out)?;
        } else {
            out.push(path);
        }
    }
    Ok(())
}

/// The providers to snapshot or check: those requested, else those whose definitions files
/// are already in the folder, else `raw`. Sorted, without duplicates.
pub fn select_providers(
    requested: &[Provider],
    dir: &SnapshotDir,
) -> Result<Vec<Provider>, SnapshotError> {
    let mut providers: BTreeSet<Provider> = requested.iter().copied().collect();
    if providers.is_empty() {
        providers = scan(dir)?
            .iter()
            .filter_map(|p| match snapshot_file(p) {
                Some((_, ArtifactKind::Definitions(provider))) => Some(provider),
                _ => None,
            })
            .collect();
    }
    if providers.is_empty() {
        providers.insert(Provider::Raw);
    }
    Ok(providers.into_iter().collect())
}

/// `(profile, kind)` of a path shaped like a snapshot file (`<profile>/<known file name>`).
fn snapshot_file(relative: &Path) -> Option<(String, ArtifactKind)> {
    let mut components = relative.components();
    let profile = components.next()?.as_os_str().to_str()?;
    let file = components.next()?.as_os_str().to_str()?;
    if components.next().is_some() {
        return None;
    }
    Some((profile.to_owned(), ArtifactKind::from_file_name(file)?))
}

/// Why a file in a snapshot folder is not expected.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Orphan {
    /// A snapshot file of a profile that no longer exists (`--prune` removes it).
    UnknownProfile,
    /// A definitions file of a provider not selected (`--prune` removes it).
    UnselectedProvider,
    /// Not a file discloser writes: never removed automatically.
    NotASnapshotFile,
}

impl Orphan {
    /// Whether `snapshot --prune` removes it.
    pub fn removable(self) -> bool {
        !matches!(self, Orphan::NotASnapshotFile)
    }
}

/// The files of a folder that `artifacts` does not produce, with the reason.
fn orphans(files: &[PathBuf], artifacts: &[Artifact]) -> Vec<(PathBuf, Orphan)> {
    let expected: BTreeSet<PathBuf> = artifacts.iter().map(Artifact::relative_path).collect();
    let profiles: BTreeSet<&str> = artifacts.iter().map(|a| a.profile.as_str()).collect();
    files
        .iter()
        .filter(|f| !expected.contains(*f))
        .map(|f| {
            let why = match snapshot_file(f) {
                Some((profile, _)) if !profiles.contains(profile.as_str()) => {
                    Orphan::UnknownProfile
                }
                Some(_) => Orphan::UnselectedProvider,
                None => Orphan::NotASnapshotFile,
            };
            (f.clone(), why)
        })
        .collect()
}

/// What [`write()`] did. Paths are as shown.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct WriteReport {
    /// Files written (new or changed).
    pub written: Vec<PathBuf>,
    /// Files already holding the right bytes, left alone.
    pub unchanged: Vec<PathBuf>,
    /// Orphaned snapshot files removed (`--prune`).
    pub removed: Vec<PathBuf>,
    /// Files left in place that do not belong: orphaned snapshot files without `--prune`, and
    /// files discloser does not write.
    pub kept: Vec<(PathBuf, Orphan)>,
}

/// Writes every artifact into the folder, atomically as a set: every changed file is first
/// written to a temporary file beside it, and only when all are written are they renamed into
/// place, so a failure (a full disk) leaves every old file; identical files are not rewritten.
/// A file that a symbolic link would put outside the project is refused before anything is
/// written. With `prune`, removes orphaned snapshot files and the profile folders they leave
/// empty, only in a folder marked as discloser's ([`MARKER_FILE`]).
pub fn write(
    dir: &SnapshotDir,
    artifacts: &[Artifact],
    prune: bool,
) -> Result<WriteReport, SnapshotError> {
    let mut report = WriteReport::default();
    let existing = scan(dir)?;
    let marker = dir.path.join(MARKER_FILE);
    let marked = std::fs::symlink_metadata(&marker).is_ok_and(|m| m.is_file());
    if prune && !marked && !existing.is_empty() {
        return Err(SnapshotError::NotASnapshotFolder {
            path: dir.shown.clone(),
        });
    }
    let confine = Confinement::of(dir);
    let mut planned: Vec<(PathBuf, PathBuf, &[u8])> = Vec::new();
    if !marked && existing.is_empty() {
        planned.push((
            marker,
            dir.shown_file(Path::new(MARKER_FILE)),
            MARKER_TEXT.as_bytes(),
        ));
    }
    for artifact in artifacts {
        let relative = artifact.relative_path();
        let (path, shown) = (dir.path.join(&relative), dir.shown_file(&relative));
        confine.check(&path, &shown)?;
        if read_optional(&path, &shown)?.as_deref() == Some(artifact.text.as_bytes()) {
            report.unchanged.push(shown);
            continue;
        }
        planned.push((path, shown, artifact.text.as_bytes()));
    }
    let mut staged = Vec::new();
    for (path, shown, bytes) in planned {
        confine.check(&path, &shown)?;
        let write_error = |source| SnapshotError::Write {
            path: shown.clone(),
            source,
        };
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(write_error)?;
        }
        // On an error here the temporary files staged so far are removed when dropped.
        let file = crate::fsutil::stage_replace(&path, bytes).map_err(write_error)?;
        staged.push((file, shown));
    }
    for (file, shown) in staged {
        let is_marker = shown.file_name() == Some(std::ffi::OsStr::new(MARKER_FILE));
        file.commit().map_err(|source| SnapshotError::Write {
            path: shown.clone(),
            source,
        })?;
        if !is_marker {
            report.written.push(shown);
        }
    }
    let mut emptied = BTreeSet::new();
    for (relative, why) in orphans(&scan(dir)?, artifacts) {
        let shown = dir.shown_file(&relative);
        if !(prune && why.removable()) {
            report.kept.push((shown, why));
            continue;
        }
        std::fs::remove_file(dir.path.join(&relative)).map_err(|source| SnapshotError::Remove {
            path: shown.clone(),
            source,
        })?;
        report.removed.push(shown);
        if why == Orphan::UnknownProfile
            && let Some(parent) = relative.parent()
        {
            emptied.insert(parent.to_path_buf());
        }
    }
    for folder in emptied {
        let path = dir.path.join(&folder);
        let empty = std::fs::read_dir(&path)
            .map(|mut entries| entries.next().is_none())
            .unwrap_or(false);
        if empty {
            std::fs::remove_dir(&path).map_err(|source| SnapshotError::Remove {
                path: dir.shown_file(&folder),
                source,
            })?;
        }
    }
    Ok(report)
}

/// The folder snapshot files must stay in, symbolic links resolved: the project's root for a
/// folder inside it, else the snapshot folder itself.
struct Confinement {
    /// The folder, lexically normalised (no `.` or `..`).
    anchor: PathBuf,
    /// The folder as shown.
    shown: PathBuf,
}

impl Confinement {
    fn of(dir: &SnapshotDir) -> Confinement {
        let path = lexical(&dir.path);
        let root = lexical(&dir.root);
        if path.starts_with(&root) {
            Confinement {
                shown: root.clone(),
                anchor: root,
            }
        } else {
            Confinement {
                anchor: path,
                shown: dir.shown.clone(),
            }
        }
    }

    /// Fails when the deepest existing part of `path` (at or below the anchor) resolves outside
    /// the anchor, or is a symbolic link to nothing (whose target would be created anywhere).
    fn check(&self, path: &Path, shown: &Path) -> Result<(), SnapshotError> {
        let Ok(anchor) = std::fs::canonicalize(&self.anchor) else {
            // Nothing exists yet: everything below is created now, as plain folders.
            return Ok(());
        };
        let mut at = lexical(path);
        while at.starts_with(&self.anchor) && std::fs::symlink_metadata(&at).is_err() {
            if !at.pop() {
                return Ok(());
            }
        }
        if !at.starts_with(&self.anchor) {
            return Ok(());
        }
        let real = std::fs::canonicalize(&at).unwrap_or_else(|_| {
            std::fs::read_link(&at).unwrap_or_else(|_| PathBuf::from("nothing"))
        });
        if real.starts_with(&anchor) && std::fs::metadata(&at).is_ok() {
            return Ok(());
        }
        Err(SnapshotError::Escapes {
            path: shown.to_path_buf(),
            boundary: self.shown.clone(),
            real,
        })
    }
}

/// `path` with `.` dropped and `..` applied to the components before it, without touching the
/// file system.
fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// The bytes of `path`, `None` when it does not exist.
fn read_optional(path: &Path, shown: &Path) -> Result<Option<Vec<u8>>, SnapshotError> {
    match std::fs::read(path) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(source) => Err(SnapshotError::Read {
            path: shown.to_path_buf(),
            source,
        }),
    }
}

/// The facts about one file in two versions. All empty when the versions are equal.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct FileFacts {
    /// Where the versions first differ (both versions exist and differ).
    pub first_difference: Option<FirstDifference>,
    /// The prompt-cache impact on the new version (it exists and is not equal to the old).
    pub cache: Option<CacheImpact>,
    /// Differences a diff hides: line endings, final newline, byte-order mark.
    pub notes: Vec<Note>,
    /// Tools whose line differs, or is in one version only.
    pub tools: Vec<String>,
    /// The unified diff (both versions exist and differ), plain.
    pub diff: Option<String>,
    /// The same diff with invisible characters made visible, for terminals.
    #[serde(skip)]
    pub visible_diff: Option<String>,
}

/// Compares two versions of one file. `old` may be any bytes; `new` is rendered text.
pub fn compare_file(
    kind: ArtifactKind,
    old: Option<&[u8]>,
    new: Option<&str>,
    labels: (&str, &str),
    counter: &Counter,
) -> FileFacts {
    match (old, new) {
        (Some(old), Some(new)) if old == new.as_bytes() => FileFacts::default(),
        (Some(old), Some(new)) => {
            let old_text = String::from_utf8_lossy(old);
            let first = compare::first_difference(old, new);
            FileFacts {
                cache: Some(compare::cache_impact(
                    new,
                    first.as_ref().map(|f| f.byte),
                    counter,
                )),
                first_difference: first,
                notes: compare::notes(old, new.as_bytes()),
                tools: changes::tools_touched(kind, &old_text, new),
                diff: Some(compare::unified_diff(
                    &old_text, new, labels.0, labels.1, false,
                )),
                visible_diff: Some(compare::unified_diff(
                    &old_text, new, labels.0, labels.1, true,
                )),
            }
        }
        (None, Some(new)) => FileFacts {
            cache: Some(compare::cache_impact(new, None, counter)),
            tools: changes::tools_touched(kind, "", new),
            ..FileFacts::default()
        },
        (Some(old), None) => FileFacts {
            tools: changes::tools_touched(kind, &String::from_utf8_lossy(old), ""),
            ..FileFacts::default()
        },
        (None, None) => FileFacts::default(),
    }
}

/// The state of one file after `check`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CheckStatus {
    /// The snapshot holds exactly the rendered bytes.
    Ok,
    /// The snapshot differs from the rendered bytes.
    Drift,
    /// No snapshot file for a rendered file.
    Missing,
    /// A file in the snapshot folder that nothing renders.
    Orphaned,
}

/// One file checked.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CheckedFile {
    /// The snapshot file, as shown.
    pub path: PathBuf,
    /// The profile it belongs to (`None` for a file outside a profile folder).
    pub profile: Option<String>,
    /// The outcome.
    pub status: CheckStatus,
    /// Why an orphaned file does not belong.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub orphan: Option<Orphan>,
    /// The comparison.
    #[serde(flatten)]
    pub facts: FileFacts,
}

/// The result of [`check()`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CheckReport {
    /// The snapshot folder, as shown.
    pub dir: PathBuf,
    /// The providers whose definitions were checked.
    pub providers: Vec<Provider>,
    /// The tokenizer of the cache figures.
    pub tokenizer: crate::cost::TokenizerKind,
    /// Every expected file (in profile order), then the orphaned ones (sorted).
    pub files: Vec<CheckedFile>,
    /// What changed, per tool (profiles whose files all exist on both sides).
    pub summary: Summary,
}

impl CheckReport {
    /// Whether any file is not `ok`.
    pub fn drift(&self) -> bool {
        self.files.iter().any(|f| f.status != CheckStatus::Ok)
    }

    /// How many files have `status`.
    pub fn count(&self, status: CheckStatus) -> usize {
        self.files.iter().filter(|f| f.status == status).count()
    }
}

/// Compares the snapshot folder with `artifacts`, byte for byte. Never writes.
pub fn check(
    dir: &SnapshotDir,
    artifacts: &[Artifact],
    providers: &[Provider],
    counter: &Counter,
) -> Result<CheckReport, SnapshotError> {
    let files_on_disk = scan(dir)?;
    let mut olds = Vec::new();
    for artifact in artifacts {
        let relative = artifact.relative_path();
        olds.push(read_optional(
            &dir.path.join(&relative),
            &dir.shown_file(&relative),
        )?);
    }
    let mut files = Vec::new();
    for (artifact, old) in artifacts.iter().zip(&olds) {
        let shown = dir.shown_file(&artifact.relative_path());
        let shown_text = shown.display().to_string();
        let labels = (
            format!("{shown_text} (snapshot)"),
            format!("{shown_text} (now)"),
        );
        let facts = compare_file(
            artifact.kind,
            old.as_deref(),
            Some(&artifact.text),
            (&labels.0, &labels.1),
            counter,
        );
        let status = match old {
            None => CheckStatus::Missing,
            Some(bytes) if bytes == artifact.text.as_bytes() => CheckStatus::Ok,
            Some(_) => CheckStatus::Drift,
        };
        files.push(CheckedFile {
            path: shown,
            profile: Some(artifact.profile.clone()),
            status,
            orphan: None,
            facts,
        });
    }
    for (relative, why) in orphans(&files_on_disk, artifacts) {
        files.push(CheckedFile {
            path: dir.shown_file(&relative),
            profile: snapshot_file(&relative).map(|(profile, _)| profile),
            status: CheckStatus::Orphaned,
            orphan: Some(why),
            facts: FileFacts::default(),
        });
    }
    let old_texts: Vec<Option<String>> = olds
        .iter()
        .map(|o| {
            o.as_deref()
                .map(|b| String::from_utf8_lossy(b).into_owned())
        })
        .collect();
    let summary = changes::summarize(
        &profile_pairs(artifacts, &old_texts, providers.first().copied()),
        Vec::new(),
        Vec::new(),
    );
    Ok(CheckReport {
        dir: dir.shown.clone(),
        providers: providers.to_vec(),
        tokenizer: counter.kind(),
        files,
        summary,
    })
}

/// Per profile: the old and new index and definitions (of `provider`) for the summary.
fn profile_pairs<'a>(
    artifacts: &'a [Artifact],
    olds: &'a [Option<String>],
    provider: Option<Provider>,
) -> Vec<ProfilePair<'a>> {
    let mut pairs: Vec<ProfilePair<'a>> = Vec::new();
    for (artifact, old) in artifacts.iter().zip(olds) {
        if pairs.last().is_none_or(|p| p.label != artifact.profile) {
            pairs.push(ProfilePair {
                label: artifact.profile.clone(),
                old: ProfileTexts::default(),
                new: ProfileTexts::default(),
            });
        }
        let Some(pair) = pairs.last_mut() else {
            continue;
        };
        let old = old.as_deref();
        let new = Some(artifact.text.as_str());
        match artifact.kind {
            ArtifactKind::Index => (pair.old.index, pair.new.index) = (old, new),
            ArtifactKind::Definitions(p) if Some(p) == provider => {
                (pair.old.definitions, pair.new.definitions) = (old, new);
            }
            ArtifactKind::Definitions(_) => {}
        }
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_round_trip() {
        let kinds = Provider::ALL.map(ArtifactKind::Definitions);
        for kind in std::iter::once(ArtifactKind::Index).chain(kinds) {
            assert_eq!(ArtifactKind::from_file_name(&kind.file_name()), Some(kind));
        }
        assert_eq!(ArtifactKind::from_file_name("tools.claude.jsonl"), None);
        assert_eq!(ArtifactKind::from_file_name("notes.md"), None);
    }

    #[test]
    fn profile_names_must_be_folder_names() {
        assert!(config::profile_name_problem("default").is_none());
        assert!(config::profile_name_problem("中文 profile").is_none());
        for bad in ["", ".", "..", ".hidden", "a/b", "a\\b", "a:b"] {
            assert!(config::profile_name_problem(bad).is_some(), "{bad:?}");
        }
    }

    #[test]
    fn snapshot_file_shapes() {
        assert_eq!(
            snapshot_file(Path::new("p/index.txt")),
            Some(("p".to_owned(), ArtifactKind::Index))
        );
        assert_eq!(snapshot_file(Path::new("index.txt")), None);
        assert_eq!(snapshot_file(Path::new("p/q/index.txt")), None);
    }
}
