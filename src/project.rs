//! A project: `discloser.yaml`, the catalog its sources describe, and its resolved profiles.
//!
//! [`Project::load`] is the one entry point the commands use. It finds the source files
//! (sorted, deduplicated), loads the catalog, applies overrides, and resolves every profile, so
//! any inconsistency is reported before anything is rendered.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde_saphyr::Spanned;

use crate::catalog::Catalog;
use crate::config::{CONFIG_FILE, Config, IndexConfig, SearchTool, SearchToolConfig};
use crate::diagnostic::{ErrorKind, LoadError, Position, did_you_mean};
use crate::source::SourceFile;

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

/// Looks for `discloser.yaml` in `start` and its parents.
pub fn find_config(start: &Path) -> Option<PathBuf> {
    start
        .ancestors()
        .map(|dir| dir.join(CONFIG_FILE))
        .find(|p| p.is_file())
}

/// The path to show for `path`: relative to the current directory when inside it.
pub fn shown_path(path: &Path) -> PathBuf {
    let cwd = std::env::current_dir()
        .ok()
        .and_then(|c| c.canonicalize().ok());
    match cwd {
        Some(cwd) if path.is_absolute() => path
            .strip_prefix(&cwd)
            .map_or_else(|_| path.to_path_buf(), Path::to_path_buf),
        _ => path.to_path_buf(),
    }
}

impl Project {
    /// Loads the project described by the config file at `config_path`.
    pub fn load(config_path: &Path) -> Result<Project, LoadError> {
        let source = SourceFile::read(config_path, config_path.to_path_buf())?;
        let config: Config = serde_saphyr::from_str_with_options(
            &source.text,
            serde_saphyr::options! { with_snippet: false },
        )
        .map_err(|e| source.yaml_error(ErrorKind::Shape, &e))?;
        let real = config_path
            .canonicalize()
            .unwrap_or_else(|_| config_path.to_path_buf());
        let root = real
            .parent()
            .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
        let shown_root = config_path
            .parent()
            .map_or_else(PathBuf::new, Path::to_path_buf);
        Project::build(config, &source, root, &shown_root)
    }

    /// A project without a config file: the given files, directories or globs (relative to
    /// `cwd`) with default index settings and no profiles (so `default` binds core tools only).
    pub fn from_paths(paths: &[String], cwd: &Path) -> Result<Project, LoadError> {
        let listing: String = paths
            .iter()
            .map(|p| format!("  - {}\n", serde_json::Value::from(p.as_str())))
            .collect();
        let source = SourceFile::from_text(
            format!("sources:\n{listing}"),
            PathBuf::from("<command line>"),
        );
        let config: Config = serde_saphyr::from_str(&source.text)
            .map_err(|e| source.yaml_error(ErrorKind::Config, &e))?;
        let root = cwd.canonicalize().unwrap_or_else(|_| cwd.to_path_buf());
        Project::build(config, &source, root, Path::new("")).map_err(|e| {
            // The synthetic config has no text worth a snippet.
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
    ) -> Result<Project, LoadError> {
        let files = expand_sources(&config.sources, &root, shown_root, source)?;
        let mut catalog = Catalog::load(&files, &root)?;
        apply_overrides(&mut catalog, &config, source)?;
        let profiles = resolve_profiles(&catalog, &config, source)?;
        Ok(Project {
            config_path: source.path.clone(),
            root,
            config,
            catalog,
            profiles,
        })
    }

    /// Finds the config from `start` upwards and loads it.
    pub fn discover(start: &Path) -> Result<Project, LoadError> {
        match find_config(start) {
            Some(path) => Project::load(&shown_path(&path)),
            None => Err(LoadError::file(
                ErrorKind::Io,
                start.join(CONFIG_FILE),
                format!("no `{CONFIG_FILE}` here or in any parent directory; pass `--config PATH`"),
            )),
        }
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
        self.config.search_tool.as_ref().map(|s| match &s.value {
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

fn spanned_error(
    config: &SourceFile,
    at: &serde_saphyr::Location,
    kind: ErrorKind,
    message: String,
) -> LoadError {
    if at.line() == 0 {
        return LoadError::file(kind, &config.path, message);
    }
    let pos = Position {
        line: at.line() as usize,
        col: (at.column() as usize).max(1),
    };
    LoadError::at(kind, &config.path, &config.text, pos, message)
}

/// Expands sources into `(real path, shown path)` of files, sorted by shown path, deduplicated.
fn expand_sources(
    sources: &[Spanned<String>],
    root: &Path,
    shown_root: &Path,
    config: &SourceFile,
) -> Result<Vec<(PathBuf, PathBuf)>, LoadError> {
    if sources.is_empty() {
        return Err(LoadError::at(
            ErrorKind::Config,
            &config.path,
            &config.text,
            Position::START,
            "no `sources`: list the tool files or globs to load",
        ));
    }
    let mut files = BTreeMap::new();
    for source in sources {
        let fail =
            |message: String| spanned_error(config, &source.referenced, ErrorKind::Config, message);
        let matched = crate::fsutil::expand(root, &source.value).map_err(fail)?;
        if matched.is_empty() {
            return Err(fail(format!("source `{}` matches no file", source.value)));
        }
        for relative in matched {
            files
                .entry(relative.clone())
                .or_insert_with(|| (root.join(&relative), shown_root.join(&relative)));
        }
    }
    Ok(files.into_values().collect())
}

fn apply_overrides(
    catalog: &mut Catalog,
    config: &Config,
    source: &SourceFile,
) -> Result<(), LoadError> {
    for (name, over) in &config.overrides {
        let Some(tool) = catalog.get_mut(name) else {
            let names: Vec<String> = catalog.names().map(str::to_owned).collect();
            let err = spanned_error(
                source,
                &over.referenced,
                ErrorKind::Config,
                format!("override for unknown tool `{name}`"),
            );
            return Err(with_suggestion(err, name, &names));
        };
        let over = &over.value;
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

fn with_suggestion(err: LoadError, name: &str, names: &[String]) -> LoadError {
    match did_you_mean(name, names.iter().map(String::as_str)) {
        Some(near) => err.with_help(format!("did you mean `{near}`?")),
        None => err,
    }
}

fn resolve_profiles(
    catalog: &Catalog,
    config: &Config,
    source: &SourceFile,
) -> Result<BTreeMap<String, Profile>, LoadError> {
    let mut done = BTreeMap::new();
    for name in config.profiles.keys() {
        resolve_profile(name, catalog, config, source, &mut done, &mut Vec::new())?;
    }
    Ok(done)
}

fn resolve_profile(
    name: &str,
    catalog: &Catalog,
    config: &Config,
    source: &SourceFile,
    done: &mut BTreeMap<String, Profile>,
    stack: &mut Vec<String>,
) -> Result<BTreeSet<String>, LoadError> {
    if let Some(profile) = done.get(name) {
        return Ok(profile.bound.clone());
    }
    let def = &config.profiles[name];
    stack.push(name.to_owned());
    let mut bound = BTreeSet::new();
    if let Some(parent) = &def.extends {
        let fail =
            |message: String| spanned_error(source, &parent.referenced, ErrorKind::Config, message);
        if stack.contains(&parent.value) {
            return Err(fail(format!(
                "profile `{name}` extends `{}`, which leads back to `{name}`: {} -> {}",
                parent.value,
                stack.join(" -> "),
                parent.value
            )));
        }
        if !config.profiles.contains_key(&parent.value) {
            let names: Vec<String> = config.profiles.keys().cloned().collect();
            return Err(with_suggestion(
                fail(format!(
                    "profile `{name}` extends unknown profile `{}`",
                    parent.value
                )),
                &parent.value,
                &names,
            ));
        }
        bound = resolve_profile(&parent.value, catalog, config, source, done, stack)?;
    }
    for tool in def.starter.iter().chain(&def.add).chain(&def.remove) {
        if catalog.get(&tool.value).is_none() {
            let names: Vec<String> = catalog.names().map(str::to_owned).collect();
            let err = spanned_error(
                source,
                &tool.referenced,
                ErrorKind::Config,
                format!(
                    "profile `{name}` names tool `{}`, which is not in the catalog",
                    tool.value
                ),
            );
            return Err(with_suggestion(err, &tool.value, &names));
        }
    }
    bound.extend(def.starter.iter().chain(&def.add).map(|t| t.value.clone()));
    for tool in &def.remove {
        bound.remove(&tool.value);
    }
    bound.extend(core_tools(catalog));
    stack.pop();
    done.insert(
        name.to_owned(),
        Profile {
            name: name.to_owned(),
            bound: bound.clone(),
        },
    );
    Ok(bound)
}
