//! A project: `discloser.yaml`, the catalog its sources describe, and its resolved profiles.
//!
//! [`Project::load`] is the one entry point the commands use. It finds the source files
//! (sorted, deduplicated), loads the catalog, applies overrides, and resolves every profile, so
//! any inconsistency is reported before anything is rendered.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::catalog::formats::Format;
use crate::catalog::{Catalog, Input};
use crate::config::{
    CONFIG_FILE, CONFIG_FILES, Config, IndexConfig, McpSource, ProfileDef, SearchTool,
    SearchToolConfig, SourceSpec,
};
use crate::diagnostic::{ErrorKind, LoadError, did_you_mean};
use crate::source::{SourceFile, Target, pointer_push};

/// How the "config" of paths given on the command line is named in messages.
const COMMAND_LINE: &str = "<command line>";

/// The profile used when none is named.
pub const DEFAULT_PROFILE: &str = "default";

/// A loaded, consistent project.
#[derive(Debug)]
pub struct Project {
    /// The config file, as shown in messages.
    pub config_path: PathBuf,
    /// The directory of the config file: sources and file `$ref`s are relative to it.
    pub root: PathBuf,
    /// The configuration.
    pub config: Config,
    /// Every tool.
    pub catalog: Catalog,
    /// Every profile, resolved to its bound tools.
    pub profiles: BTreeMap<String, Profile>,
    /// Problems a lenient load tolerated (always empty after a strict [`Project::load`]).
    pub problems: Vec<LoadError>,
    /// The lock file the tools of `mcp:` sources were read from, as messages show it, when
    /// there is one (see [`crate::lock`]).
    pub lock_path: Option<PathBuf>,
    /// What a front-end should say once, e.g. that a server was started because no pin holds
    /// its tools. Never an error.
    pub notes: Vec<String>,
}

/// How strictly names in the config are checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strictness {
    /// Any unknown tool named by a profile is an error (render, cost, ...).
    Strict,
    /// Unknown tools named by profiles are skipped, and of tools sharing a name only the first
    /// is kept; both are recorded in [`Project::problems`], so `lint` can report them as
    /// findings next to everything else.
    Lenient,
}

/// A resolved profile: the names of the tools bound in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Profile {
    /// The profile's name.
    pub name: String,
    /// Bound tools (starter set plus core tools), sorted.
    pub bound: BTreeSet<String>,
}

impl Profile {
    /// Whether `tool` is bound (not indexed) in this profile.
    pub fn is_bound(&self, tool: &str) -> bool {
        self.bound.contains(tool)
    }
}

/// A config file read and typed, with the directory its sources, `$ref`s and lock file are
/// relative to.
#[derive(Debug)]
pub struct ConfigFile {
    /// The file as read, named as messages show it.
    pub source: SourceFile,
    /// Its content.
    pub config: Config,
    /// Its directory, canonical when it can be.
    pub root: PathBuf,
}

impl ConfigFile {
    /// Reads the config at `path`, named `shown` in messages.
    pub fn read(path: &Path, shown: &Path) -> Result<ConfigFile, LoadError> {
        let source = SourceFile::read(path, shown.to_path_buf())?;
        let config = Config::parse(&source)?;
        let real = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
        let root = real
            .parent()
            .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
        Ok(ConfigFile {
            source,
            config,
            root,
        })
    }
}

/// The directory of a file as messages show it (`""` for a bare file name).
pub fn shown_dir(path: &Path) -> PathBuf {
    path.parent().map_or_else(PathBuf::new, Path::to_path_buf)
}

/// Looks for `discloser.yaml` (or `discloser.yml`) in `start` and its parents; in one directory
/// `discloser.yaml` wins.
pub fn find_config(start: &Path) -> Option<PathBuf> {
    start.ancestors().find_map(|dir| {
        CONFIG_FILES
            .iter()
            .map(|name| dir.join(name))
            .find(|p| p.is_file())
    })
}

/// The error when no config is found from `start` up: it says where it looked and what to do.
pub fn no_config(start: &Path) -> LoadError {
    LoadError::file(
        ErrorKind::Io,
        start,
        format!(
            "no `{CONFIG_FILE}` (or `discloser.yml`) in this directory or any parent directory"
        ),
    )
    .with_help(
        "pass tool files, folders or globs as PATH arguments (`discloser render tools/`), \
         `--config FILE`, or write a config with `discloser init PATH...`",
    )
}

pub use crate::fsutil::shown_path;

impl Project {
    /// Loads the project described by the config file at `config_path`.
    pub fn load(config_path: &Path) -> Result<Project, LoadError> {
        Project::load_with(config_path, Strictness::Strict)
    }

    /// Loads a project, choosing how unknown tool names in profiles are treated.
    pub fn load_with(config_path: &Path, strictness: Strictness) -> Result<Project, LoadError> {
        Project::load_shown(
            config_path,
            config_path,
            &shown_dir(config_path),
            strictness,
        )
    }

    /// Loads the config at `config_path` like [`Project::load`], but names it `shown_config`
    /// in messages and every file found through its sources `shown_root` joined with its path
    /// relative to the config's directory. For a copy of the project read from elsewhere (a
    /// git revision in a temporary directory), so errors name `REV:./tools/x.yaml`, not the
    /// temporary path.
    pub fn load_as(
        config_path: &Path,
        shown_config: &Path,
        shown_root: &Path,
    ) -> Result<Project, LoadError> {
        Project::load_shown(config_path, shown_config, shown_root, Strictness::Strict)
    }

    fn load_shown(
        config_path: &Path,
        shown_config: &Path,
        shown_root: &Path,
        strictness: Strictness,
    ) -> Result<Project, LoadError> {
        let file = ConfigFile::read(config_path, shown_config)?;
        Project::build(
            file.config,
            &file.source,
            file.root,
            shown_root,
            strictness,
            None,
        )
    }

    /// Loads the config at `config_path` with `lock` in place of the lock file beside it: the
    /// project as it would be after pinning `lock` (`discloser lock --check` compares it with
    /// the pinned one). `lock.source.path` is the path its positions are shown under.
    pub fn load_with_lock(
        config_path: &Path,
        lock: crate::lock::PinnedFile,
        strictness: Strictness,
    ) -> Result<Project, LoadError> {
        let file = ConfigFile::read(config_path, config_path)?;
        let shown_root = shown_dir(config_path);
        Project::build(
            file.config,
            &file.source,
            file.root,
            &shown_root,
            strictness,
            Some(lock),
        )
    }

    /// A project without a config file: the given files, directories or globs (relative to
    /// `cwd`) with default index settings and no profiles (so `default` binds core tools only).
    pub fn from_paths(paths: &[String], cwd: &Path) -> Result<Project, LoadError> {
        Project::from_paths_with(paths, cwd, Strictness::Strict)
    }

    /// [`Project::from_paths`], choosing how repeated tool names are treated.
    pub fn from_paths_with(
        paths: &[String],
        cwd: &Path,
        strictness: Strictness,
    ) -> Result<Project, LoadError> {
        let source = SourceFile::from_text(String::new(), PathBuf::from(COMMAND_LINE));
        let config = Config {
            sources: paths.iter().map(|p| SourceSpec::Path(p.clone())).collect(),
            ..Config::default()
        };
        let root = cwd.canonicalize().unwrap_or_else(|_| cwd.to_path_buf());
        Project::build(config, &source, root, Path::new(""), strictness, None).map_err(|e| {
            // The command line has no text worth a snippet.
            if e.path == source.path {
                LoadError::file(e.kind, &e.path, e.message.clone())
            } else {
                e
            }
        })
    }

    fn build(
        config: Config,
        source: &SourceFile,
        root: PathBuf,
        shown_root: &Path,
        strictness: Strictness,
        given_lock: Option<crate::lock::PinnedFile>,
    ) -> Result<Project, LoadError> {
        let snapshot_dir: PathBuf = Path::new(&config.snapshots.dir)
            .components()
            .filter(|c| !matches!(c, std::path::Component::CurDir))
            .collect();
        let lock = match given_lock {
            Some(lock) => Some(lock),
            None if source.path == Path::new(COMMAND_LINE) => None,
            None => crate::lock::read(&root, shown_root)?,
        };
        let mut notes = Vec::new();
        let inputs = expand_sources(
            &config.sources,
            &Places {
                root: &root,
                shown_root,
                snapshot_dir: &snapshot_dir,
            },
            source,
            lock.as_ref(),
            &mut notes,
        )?;
        let (mut catalog, mut problems) = match strictness {
            Strictness::Strict => (Catalog::load_inputs(inputs, &root)?, Vec::new()),
            Strictness::Lenient => Catalog::load_inputs_lenient(inputs, &root)?,
        };
        apply_trigger_files(&mut catalog, &config, source, &root, shown_root)?;
        apply_overrides(&mut catalog, &config, source)?;
        let profiles = resolve_profiles(&catalog, &config, source, &mut problems)?;
        if strictness == Strictness::Strict
            && let Some(first) = problems.drain(..).next()
        {
            return Err(first);
        }
        Ok(Project {
            config_path: source.path.clone(),
            root,
            config,
            catalog,
            profiles,
            problems,
            lock_path: lock.map(|l| l.source.path),
            notes,
        })
    }
    /// Finds the config from `start` upwards and loads it.
    pub fn discover(start: &Path) -> Result<Project, LoadError> {
        match find_config(start) {
            Some(path) => Project::load(&shown_path(&path)),
            None => Err(no_config(start)),
        }
    }

    /// Whether `tool` was read from a live server or its pin in the lock file: its definition
    /// cannot be edited here, so fixes go in the config's `overrides`.
    pub fn is_from_server(&self, tool: &crate::catalog::Tool) -> bool {
        let path = &self.catalog.file_of(tool).path;
        self.lock_path.as_ref() == Some(path) || crate::live::is_live_path(path)
    }

    /// Index settings.
    pub fn index_config(&self) -> &IndexConfig {
        &self.config.index
    }

    /// Profile names in the order the config declares them (`default` alone without profiles).
    pub fn profile_names(&self) -> Vec<String> {
        if self.config.profiles.is_empty() {
            return vec![DEFAULT_PROFILE.to_owned()];
        }
        self.config.profiles.keys().cloned().collect()
    }

    /// The search tool's definition, when the config declares one.
    pub fn search_tool(&self) -> Option<SearchTool> {
        self.config.search_tool.as_ref().map(|s| match s {
            SearchToolConfig::Builtin(_) => SearchTool::builtin(),
            SearchToolConfig::Custom(tool) => tool.clone(),
        })
    }

    /// The profile called `name`. Without any profile in the config, `default` binds the core
    /// tools only.
    pub fn profile(&self, name: &str) -> Result<Profile, LoadError> {
        if let Some(profile) = self.profiles.get(name) {
            return Ok(profile.clone());
        }
        if self.profiles.is_empty() && name == DEFAULT_PROFILE {
            return Ok(Profile {
                name: name.to_owned(),
                bound: core_tools(&self.catalog),
            });
        }
        let known: Vec<&str> = self.profiles.keys().map(String::as_str).collect();
        let err = LoadError::file(
            ErrorKind::Config,
            &self.config_path,
            format!("no profile `{name}`"),
        );
        Err(match did_you_mean(name, known.iter().copied()) {
            Some(near) => err.with_help(format!("did you mean `{near}`?")),
            None if known.is_empty() => err.with_help("the config defines no profiles"),
            None => err.with_help(format!("profiles: {}", known.join(", "))),
        })
    }
}

fn core_tools(catalog: &Catalog) -> BTreeSet<String> {
    catalog
        .tools
        .iter()
        .filter(|t| t.core)
        .map(|t| t.name.clone())
        .collect()
}

/// An error at a JSON pointer of the config (`/profiles/default/starter/2`).
fn config_error(source: &SourceFile, pointer: &str, target: Target, message: String) -> LoadError {
    if source.path == Path::new(COMMAND_LINE) {
        return LoadError::file(ErrorKind::Config, &source.path, message);
    }
    source.error_at(ErrorKind::Config, pointer, target, message)
}

fn with_suggestion<'a>(
    err: LoadError,
    name: &str,
    names: impl IntoIterator<Item = &'a str>,
) -> LoadError {
    match did_you_mean(name, names) {
        Some(near) => err.with_help(format!("did you mean `{near}`?")),
        None => err,
    }
}

/// Where a project's files are: the config's directory, as messages show it, and the snapshot
/// folder relative to it.
struct Places<'a> {
    root: &'a Path,
    shown_root: &'a Path,
    snapshot_dir: &'a Path,
}

/// Expands sources into the documents to load: matched files sorted by shown path (a file
/// reached twice, by two globs or a symlinked directory, is loaded once, in the format of the
/// first source that reached it), then the tools of each MCP server in config order — read from
/// its pin in the lock file when there is one, pulled now otherwise. A directory or glob never
/// yields files of the snapshot folder (`snapshots.dir`, relative to the root): they are
/// discloser's own output, the same tools again. A source written `!GLOB` excludes the files
/// it matches (or the files below a folder it matches) from every other source.
fn expand_sources(
    sources: &[SourceSpec],
    places: &Places<'_>,
    config: &SourceFile,
    lock: Option<&crate::lock::PinnedFile>,
    notes: &mut Vec<String>,
) -> Result<Vec<Input>, LoadError> {
    let Places {
        root,
        shown_root,
        snapshot_dir,
    } = *places;
    if sources.iter().all(|s| exclusion(s).is_some()) {
        return Err(config_error(
            config,
            "",
            Target::Value,
            "no `sources`: list the tool files, directories or globs to load".to_owned(),
        ));
    }
    let mut excluded = Vec::new();
    for (i, source) in sources.iter().enumerate() {
        if let Some(pattern) = exclusion(source) {
            let at = pointer_push("/sources", i);
            excluded.push(
                glob::Pattern::new(pattern.trim_start_matches("./")).map_err(|e| {
                    config_error(
                        config,
                        &at,
                        Target::Value,
                        format!("exclusion `!{pattern}` is not a valid glob: {}", e.msg),
                    )
                })?,
            );
        }
    }
    let is_excluded = |relative: &Path| {
        relative
            .ancestors()
            .filter(|a| !a.as_os_str().is_empty())
            .any(|a| excluded.iter().any(|p| p.matches_path(a)))
    };
    let mut files = BTreeMap::new();
    let mut servers = Vec::new();
    let mut seen = BTreeSet::new();
    let mut pinned = BTreeSet::new();
    for (i, source) in sources.iter().enumerate() {
        let pointer = pointer_push("/sources", i);
        let (pattern, format) = match source {
            _ if exclusion(source).is_some() => continue,
            SourceSpec::Path(path) => (path, None),
            SourceSpec::Files { path, format } => (path, *format),
            SourceSpec::Mcp(server) => {
                let pin = lock.and_then(|l| l.find(&server.command).map(|n| (l, n)));
                servers.push(match pin {
                    Some((file, n)) => {
                        pinned.insert(n);
                        file.input(n, root)
                    }
                    None => {
                        let input = pull_source(server, root, config, &pointer)?;
                        notes.push(format!(
                            "started MCP server `{}` to list its tools: `discloser lock` pins them in `{}`, so that commands start no server",
                            crate::live::shown(&server.command),
                            crate::lock::LOCK_FILE
                        ));
                        input
                    }
                });
                continue;
            }
        };
        let at = if matches!(source, SourceSpec::Path(_)) {
            pointer.clone()
        } else {
            pointer_push(&pointer, "path")
        };
        let fail = |message: String| config_error(config, &at, Target::Value, message);
        let mut matched = crate::fsutil::expand(root, pattern).map_err(fail)?;
        let named = root.join(pattern).is_file();
        let before = matched.len();
        if !named && !snapshot_dir.as_os_str().is_empty() {
            matched.retain(|relative| !relative.starts_with(snapshot_dir));
        }
        let outside_snapshots = matched.len();
        matched.retain(|relative| !is_excluded(relative));
        if matched.is_empty() {
            let skipped = if outside_snapshots > 0 {
                " that no `!` source excludes".to_owned()
            } else if before > 0 {
                format!(
                    " outside the snapshot folder `{}`, whose files are discloser's output",
                    snapshot_dir.display()
                )
            } else {
                String::new()
            };
            let err = fail(format!("source `{pattern}` matches no file{skipped}"));
            // Only when nothing at all matched: a file left out by an exclusion is not a typo.
            let help = (before == 0)
                .then(|| crate::fsutil::nearest_source(root, pattern))
                .flatten();
            return Err(match help {
                Some(help) => err.with_help(help),
                None => err,
            });
        }
        for relative in matched {
            let real = root.join(&relative);
            let identity = real.canonicalize().unwrap_or_else(|_| real.clone());
            if seen.insert(identity) {
                let shown = shown_root.join(&relative);
                files.insert(
                    relative,
                    Input::File {
                        real,
                        shown,
                        format,
                    },
                );
            }
        }
    }
    if let Some(file) = lock {
        for (n, stale) in file.commands().enumerate() {
            if !pinned.contains(&n) {
                notes.push(format!(
                    "`{}` pins MCP server `{}`, which no source of the config starts any more: `discloser lock` removes it",
                    file.source.path.display(),
                    crate::live::shown(stale)
                ));
            }
        }
    }
    Ok(files.into_values().chain(servers).collect())
}

/// The glob of a source written `!GLOB`.
fn exclusion(source: &SourceSpec) -> Option<&str> {
    match source {
        SourceSpec::Path(path) => path.strip_prefix('!'),
        _ => None,
    }
}

/// How to start the server of an `mcp:` source, or the error at its `command` or `timeout`.
fn server_of(
    server: &McpSource,
    root: &Path,
    config: &SourceFile,
    pointer: &str,
) -> Result<crate::live::Server, LoadError> {
    let fail = |at: &str, message: String| {
        config_error(config, &pointer_push(pointer, at), Target::Value, message)
    };
    if server.command.first().is_none_or(|p| p.trim().is_empty()) {
        return Err(fail(
            "mcp/command",
            "`command` must name a program and its arguments, e.g. `[npx, -y, SERVER]`".into(),
        ));
    }
    let timeout = match server.timeout {
        None => crate::live::DEFAULT_TIMEOUT,
        Some(secs) if secs.is_finite() && secs > 0.0 && secs <= 86_400.0 => {
            std::time::Duration::from_secs_f64(secs)
        }
        Some(secs) => {
            return Err(fail(
                "mcp/timeout",
                format!(
                    "`timeout` must be a number of seconds above 0 and at most 86400 (a day), found `{secs}`"
                ),
            ));
        }
    };
    Ok(crate::live::Server {
        command: server.command.clone(),
        cwd: Some(root.to_path_buf()),
        timeout,
    })
}

/// Lists the tools of the `mcp:` source at `pointer`; a failure is an error at that source.
fn pull(
    server: &McpSource,
    root: &Path,
    config: &SourceFile,
    pointer: &str,
) -> Result<crate::live::Listing, LoadError> {
    crate::live::list_tools(&server_of(server, root, config, pointer)?)
        .map_err(|e| config_error(config, &pointer_push(pointer, "mcp"), Target::Value, e))
}

/// Starts an MCP server of the config and reads its tools into a document named
/// `<mcp: COMMAND>`; a failure is reported at the source in the config.
fn pull_source(
    server: &McpSource,
    root: &Path,
    config: &SourceFile,
    pointer: &str,
) -> Result<Input, LoadError> {
    let listing = pull(server, root, config, pointer)?;
    Ok(Input::Text {
        real: root.join("discloser.mcp.json"),
        source: SourceFile::from_text(listing.to_json(), crate::live::live_path(&server.command)),
        format: Some(Format::Mcp),
    })
}

/// Every `mcp:` source of a config, started and listed now (for `discloser lock`): each with
/// its command and listing, in config order; the first failure is an error at its source.
pub fn pull_servers(
    config: &Config,
    source: &SourceFile,
    root: &Path,
) -> Result<Vec<(Vec<String>, crate::live::Listing)>, LoadError> {
    let mut out = Vec::new();
    for (i, spec) in config.sources.iter().enumerate() {
        if let SourceSpec::Mcp(server) = spec {
            let listing = pull(server, root, source, &pointer_push("/sources", i))?;
            out.push((server.command.clone(), listing));
        }
    }
    Ok(out)
}

/// The config's trigger files, in order: each tool they name gets their list (the precedence:
/// the tool's own triggers, then each file, then `overrides`).
fn apply_trigger_files(
    catalog: &mut Catalog,
    config: &Config,
    source: &SourceFile,
    root: &Path,
    shown_root: &Path,
) -> Result<(), LoadError> {
    for (i, path) in config.triggers.iter().enumerate() {
        let file = match SourceFile::read(&root.join(path), shown_root.join(path)) {
            Ok(file) => file,
            Err(e) => {
                let pointer = format!("/triggers/{i}");
                return Err(config_error(
                    source,
                    &pointer,
                    Target::Value,
                    format!("cannot read trigger file `{path}`: {}", e.message),
                ));
            }
        };
        let value = file.parse()?;
        let shape = |pointer: &str, message: String| {
            file.error_at(ErrorKind::Shape, pointer, Target::Value, message)
        };
        let Value::Object(map) = &value else {
            return Err(shape(
                "",
                "a trigger file maps tool names to lists of trigger words (`tool: [word, ...]`)"
                    .into(),
            ));
        };
        for (name, words) in map {
            let pointer = pointer_push("", name);
            let list = match words {
                Value::Array(items) if items.iter().all(Value::is_string) => items
                    .iter()
                    .filter_map(|w| w.as_str().map(str::to_owned))
                    .collect(),
                _ => {
                    return Err(shape(
                        &pointer,
                        format!("the triggers of `{name}` must be a list of strings"),
                    ));
                }
            };
            let Some(tool) = catalog.get_mut(name) else {
                let err = file.error_at(
                    ErrorKind::Config,
                    &pointer,
                    Target::Key,
                    format!("triggers for unknown tool `{name}`"),
                );
                return Err(with_suggestion(err, name, catalog.names()));
            };
            tool.triggers = list;
        }
    }
    Ok(())
}

fn apply_overrides(
    catalog: &mut Catalog,
    config: &Config,
    source: &SourceFile,
) -> Result<(), LoadError> {
    for (name, over) in &config.overrides {
        let Some(tool) = catalog.get_mut(name) else {
            let pointer = pointer_push("/overrides", name);
            let err = config_error(
                source,
                &pointer,
                Target::Key,
                format!("override for unknown tool `{name}`"),
            );
            return Err(with_suggestion(err, name, catalog.names()));
        };
        if let Some(triggers) = &over.triggers {
            tool.triggers.clone_from(triggers);
        }
        if let Some(core) = over.core {
            tool.core = core;
        }
        if let Some(budget) = over.summary_budget {
            tool.summary_budget = Some(budget);
        }
        if let Some(codes) = &over.lint_ignore {
            tool.lint_ignore.clone_from(codes);
        }
    }
    Ok(())
}

/// Resolves every profile. Broken `extends` are errors; unknown tools are pushed to `problems`
/// and skipped.
fn resolve_profiles(
    catalog: &Catalog,
    config: &Config,
    source: &SourceFile,
    problems: &mut Vec<LoadError>,
) -> Result<BTreeMap<String, Profile>, LoadError> {
    let mut done = BTreeMap::new();
    for name in config.profiles.keys() {
        if let Some(reason) = crate::config::profile_name_problem(name) {
            return Err(config_error(
                source,
                &pointer_push("/profiles", name),
                Target::Key,
                format!("profile `{name}` cannot name a snapshot folder: {reason}"),
            ));
        }
        resolve_profile(name, catalog, config, source, &mut done, problems)?;
    }
    Ok(done)
}

/// Resolves profile `name` and every profile it extends, into `done`. Iterative, with the
/// chain kept in a set as well as in order: a chain of 100,000 `extends` took 33 s (each step
/// searched the whole chain) and a recursion as deep.
fn resolve_profile(
    name: &str,
    catalog: &Catalog,
    config: &Config,
    source: &SourceFile,
    done: &mut BTreeMap<String, Profile>,
    problems: &mut Vec<LoadError>,
) -> Result<(), LoadError> {
    let empty = ProfileDef::default();
    let def_of = |name: &str| config.profiles[name].as_ref().unwrap_or(&empty);
    // The chain from `name` up to the first profile already resolved, or one extending none.
    let mut chain: Vec<&str> = Vec::new();
    let mut on_chain: std::collections::HashSet<&str> = std::collections::HashSet::new();
    let mut current: &str = name;
    let mut bound = loop {
        if let Some(profile) = done.get(current) {
            break profile.bound.clone();
        }
        chain.push(current);
        on_chain.insert(current);
        let Some(parent) = &def_of(current).extends else {
            break BTreeSet::new();
        };
        let pointer = pointer_push(&pointer_push("/profiles", current), "extends");
        let fail = |message: String| config_error(source, &pointer, Target::Value, message);
        if on_chain.contains(parent.as_str()) {
            return Err(fail(format!(
                "profile `{current}` extends `{parent}`, which leads back to it: {} -> {parent}",
                chain.join(" -> "),
            )));
        }
        let Some((parent, _)) = config.profiles.get_key_value(parent) else {
            let err = fail(format!(
                "profile `{current}` extends unknown profile `{parent}`"
            ));
            return Err(with_suggestion(
                err,
                parent,
                config.profiles.keys().map(String::as_str),
            ));
        };
        current = parent;
    };
    // From the farthest ancestor down, each on its parent's bound set.
    for &name in chain.iter().rev() {
        let def = def_of(name);
        let at = pointer_push("/profiles", name);
        let lists = [
            ("starter", &def.starter),
            ("add", &def.add),
            ("remove", &def.remove),
        ];
        for (key, list) in lists {
            for (i, tool) in list.iter().enumerate() {
                if catalog.get(tool).is_some() {
                    if key == "remove" {
                        bound.remove(tool);
                    } else {
                        bound.insert(tool.clone());
                    }
                    continue;
                }
                let pointer = pointer_push(&pointer_push(&at, key), i);
                let err = config_error(
                    source,
                    &pointer,
                    Target::Value,
                    format!("profile `{name}` names tool `{tool}`, which is not in the catalog"),
                );
                problems.push(with_suggestion(err, tool, catalog.names()));
            }
        }
        bound.extend(core_tools(catalog));
        done.insert(
            name.to_owned(),
            Profile {
                name: name.to_owned(),
                bound: bound.clone(),
            },
        );
    }
    Ok(())
}

/// In-memory projects, for runtimes that hold their tools as values (the Python module's
/// `Catalog.from_tools`): the same loaders, overrides and profiles as a config file.
impl Project {
    /// A project from documents already in memory and a config given as text (`config`, whose
    /// `sources` are ignored: `inputs` are the sources). Every error names the document or the
    /// config by its shown path with a position, exactly as for files.
    pub fn from_inputs(
        config: &SourceFile,
        inputs: Vec<Input>,
        root: PathBuf,
    ) -> Result<Project, LoadError> {
        let parsed = Config::parse(config)?;
        let catalog = Catalog::load_inputs(inputs, &root)?;
        Project::assemble(parsed, config, catalog, root)
    }

    fn assemble(
        config: Config,
        source: &SourceFile,
        mut catalog: Catalog,
        root: PathBuf,
    ) -> Result<Project, LoadError> {
        apply_overrides(&mut catalog, &config, source)?;
        let mut problems = Vec::new();
        let profiles = resolve_profiles(&catalog, &config, source, &mut problems)?;
        if let Some(first) = problems.into_iter().next() {
            return Err(first);
        }
        Ok(Project {
            config_path: source.path.clone(),
            root,
            config,
            catalog,
            profiles,
            problems: Vec::new(),
            lock_path: None,
            notes: Vec::new(),
        })
    }

    /// The profile called `name`, grown for one turn by the tools in `extra` (the seed's "a
    /// form is open" or "the user asked for a chart"): they are bound, so they leave the index.
    /// An unknown name in `extra` is an error with a "did you mean".
    pub fn profile_with(&self, name: &str, extra: &[String]) -> Result<Profile, LoadError> {
        let mut profile = self.profile(name)?;
        for tool in extra {
            if self.catalog.get(tool).is_none() {
                let err = LoadError::file(
                    ErrorKind::Config,
                    &self.config_path,
                    format!("cannot add `{tool}` to profile `{name}`: no such tool"),
                );
                return Err(with_suggestion(err, tool, self.catalog.names()));
            }
            profile.bound.insert(tool.clone());
        }
        Ok(profile)
    }
}
