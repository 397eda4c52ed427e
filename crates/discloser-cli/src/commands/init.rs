//! `discloser init`: a working `discloser.yaml` from tool files and MCP servers.
//!
//! Loads what it is given (files, folders or globs, and servers after `--mcp --`, several
//! separated by `--`), and writes a config that `render`, `lint`, `cost` and `check` accept at
//! once: the sources with their detected formats, a `default` profile with an empty starter set
//! and the seed's rule for filling it, and for every tool without trigger words an `overrides:`
//! stub with an empty list and candidate words from the tool's own text as a comment, so the
//! user edits one file. The servers' tools are pinned in `discloser.lock.json` beside it, so no
//! command starts them again. Both files are written atomically; an existing config is never
//! replaced without `--force`, and a lock file that is not discloser's never.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Context;

use super::Outcome;
use crate::args::{Globals, InitArgs};
use crate::catalog::formats::Format;
use crate::catalog::formats::yaml::scalar as yaml_scalar;
use crate::config::{CONFIG_FILE, CONFIG_FILES};
use crate::live::Server;
use crate::lock::{LOCK_FILE, LOCK_VERSION, Lock, PinnedServer};
use crate::numfmt::plural;
use crate::project::{Project, Strictness};

/// The seed's rule for the starter set, written above `starter:`.
const STARTER_RULE: &str = "\
# The starter set: tools bound in every turn of this profile, with their full definitions.
# A tool belongs here if the user's very first sentence might need it; every other tool is
# one line of the index and is bound when the model calls it by name.";

/// Runs the command.
pub fn run(
    globals: &Globals,
    args: &InitArgs,
    cwd: &Path,
    out: &mut dyn Write,
) -> anyhow::Result<Outcome> {
    let servers = servers(args)?;
    if args.paths.is_empty() && servers.is_empty() {
        anyhow::bail!(
            "nothing to describe: give tool files, folders or globs (`discloser init tools/`) \
             and/or MCP servers (`discloser init --mcp -- npx -y SERVER`)"
        );
    }
    if !(args.timeout.is_finite() && args.timeout > 0.0 && args.timeout <= 86_400.0) {
        anyhow::bail!(
            "`--timeout` must be a number of seconds above 0 and at most 86400 (a day), got `{}`",
            args.timeout
        );
    }
    let config_path = match &globals.config {
        Some(path) => cwd.join(path),
        None => cwd.join(CONFIG_FILE),
    };
    let dir = config_path
        .parent()
        .map_or_else(|| cwd.to_path_buf(), Path::to_path_buf);
    if !args.force {
        for name in CONFIG_FILES {
            let existing = dir.join(name);
            if existing.exists() {
                anyhow::bail!(
                    "`{}` exists: edit it, or pass `--force` to replace it",
                    crate::fsutil::shown_path(&existing).display()
                );
            }
        }
    }
    let lock_path = dir.join(LOCK_FILE);
    if !servers.is_empty() && lock_path.exists() {
        // Only ever replace a lock file of ours.
        let shown = crate::fsutil::shown_path(&lock_path);
        let source = crate::source::SourceFile::read(&lock_path, shown)?;
        crate::lock::parse(&source)?;
    }

    // What the files hold: loaded as `render PATH...` would, repeated names tolerated (lint
    // reports them).
    let files = if args.paths.is_empty() {
        None
    } else {
        Some(Project::from_paths_with(
            &args.paths,
            &dir,
            Strictness::Lenient,
        )?)
    };
    let timeout = std::time::Duration::from_secs_f64(args.timeout);
    let mut pins = Vec::new();
    for command in &servers {
        let listing = crate::live::list_tools(&Server {
            command: command.clone(),
            cwd: Some(dir.clone()),
            timeout,
        })
        .map_err(anyhow::Error::msg)?;
        pins.push(PinnedServer::new(command.clone(), listing));
    }
    let lock = Lock {
        lock_version: LOCK_VERSION,
        servers: pins,
    };

    let sources = sources(args, files.as_ref(), &dir)?;
    let mut text = String::new();
    writeln!(
        text,
        "# discloser config, written by `discloser init`. Reference: docs/configuration.md"
    )?;
    text.push_str("sources:\n");
    for source in &sources {
        writeln!(text, "  - {source}")?;
    }
    for command in &servers {
        let listed: Vec<String> = command.iter().map(|a| yaml_scalar(a)).collect();
        writeln!(text, "  - mcp: {{command: [{}]}}", listed.join(", "))?;
    }
    if !servers.is_empty() {
        writeln!(
            text,
            "# The servers' tools are pinned in {LOCK_FILE}: commands start no server. After a \
             server\n# update, `discloser lock --check` shows what changed and `discloser lock` \
             pins it."
        )?;
    }
    text.push_str("\nprofiles:\n  default:\n");
    for line in STARTER_RULE.lines() {
        writeln!(text, "    {line}")?;
    }
    text.push_str("    starter: []\n");

    // The stubs: every tool the files or servers give without trigger words.
    let lock_file = crate::lock::PinnedFile::of(&lock, PathBuf::from(LOCK_FILE));
    let inputs = (0..lock.servers.len())
        .map(|i| lock_file.input(i, &dir))
        .collect();
    let pinned = crate::catalog::Catalog::load_inputs_lenient(inputs, &dir)?.0;
    let mut candidates = BTreeMap::new();
    let mut untriggered = Vec::new();
    for catalog in files.iter().map(|p| &p.catalog).chain([&pinned]) {
        let index_config = files
            .as_ref()
            .map_or_else(crate::config::IndexConfig::default, |p| {
                p.config.index.clone()
            });
        let words = crate::runtime::text_candidates::from_text(
            catalog,
            &index_config,
            crate::runtime::text_candidates::DEFAULT_LIMIT,
        );
        for tool in &catalog.tools {
            if tool.triggers.is_empty() && !tool.core {
                untriggered.push(tool.name.clone());
                candidates.insert(tool.name.clone(), words[&tool.name].clone());
            }
        }
    }
    untriggered.sort();
    untriggered.dedup();
    if !untriggered.is_empty() {
        text.push_str(
            "\n# Trigger words: what users type when they need the tool, in their own words and \
             languages\n# (see docs/index-entry.md). The comments are candidates from each \
             tool's own text:\n# keep the ones users would say, add theirs. `discloser lint` \
             flags every list left empty.\noverrides:\n",
        );
        for name in &untriggered {
            writeln!(text, "  {}:", yaml_scalar(name))?;
            if let Some(line) = candidate_comment(&candidates[name]) {
                writeln!(text, "    # {line}")?;
            }
            text.push_str("    triggers: []\n");
        }
    }

    // Check the config loads exactly as written before anything is written.
    let staged_config = crate::source::SourceFile::from_text(text.clone(), config_path.clone());
    crate::config::Config::parse(&staged_config)?;

    if !lock.servers.is_empty() {
        crate::fsutil::write_atomic(&lock_path, lock.to_json().as_bytes()).with_context(|| {
            format!(
                "cannot write `{}`",
                crate::fsutil::shown_path(&lock_path).display()
            )
        })?;
    }
    let shown_config = crate::fsutil::shown_path(&config_path);
    let written = if args.force {
        crate::fsutil::write_atomic(&config_path, text.as_bytes())
    } else {
        crate::fsutil::write_atomic_new(&config_path, text.as_bytes())
    };
    written.with_context(|| format!("cannot write `{}`", shown_config.display()))?;
    let project = Project::load_with(&shown_config, Strictness::Lenient)
        .context("the config `init` wrote does not load")?;

    let mut report = String::new();
    writeln!(
        report,
        "wrote `{}`: {} from {}{}",
        shown_config.display(),
        plural(project.catalog.tools.len(), "tool"),
        plural(sources.len() + servers.len(), "source"),
        if lock.servers.is_empty() {
            String::new()
        } else {
            format!(
                ", the servers' tools pinned in `{}`",
                crate::fsutil::shown_path(&lock_path).display()
            )
        }
    )?;
    if untriggered.is_empty() {
        writeln!(report, "next: `discloser lint`, then `discloser snapshot`")?;
    } else {
        writeln!(
            report,
            "next: fill the {} under `overrides:` (candidates are in the comments), then `discloser lint`",
            plural(untriggered.len(), "empty `triggers:` list")
        )?;
    }
    out.write_all(report.as_bytes())?;
    Ok(Outcome::Ok)
}

/// `candidates: a, b; in its index line already: c` (the words the line lacks first), or
/// `None` without candidates.
fn candidate_comment(found: &[crate::runtime::text_candidates::TextCandidate]) -> Option<String> {
    let (new, known) = crate::runtime::text_candidates::split(found);
    match (new.is_empty(), known.is_empty()) {
        (true, true) => None,
        (false, true) => Some(format!("candidates: {}", new.join(", "))),
        (true, false) => Some(format!(
            "candidates (all in its index line already): {}",
            known.join(", ")
        )),
        (false, false) => Some(format!(
            "candidates: {}; in its index line already: {}",
            new.join(", "),
            known.join(", ")
        )),
    }
}

/// The server commands after `--mcp --`, split at each further `--`.
fn servers(args: &InitArgs) -> anyhow::Result<Vec<Vec<String>>> {
    if args.commands.is_empty() {
        if args.mcp {
            anyhow::bail!(
                "`--mcp` needs the server's command after `--`: `--mcp -- npx -y SERVER`"
            );
        }
        return Ok(Vec::new());
    }
    if !args.mcp {
        anyhow::bail!(
            "the command after `--` starts an MCP server: say so with `--mcp` (`discloser init --mcp -- {}`)",
            crate::live::shown(&args.commands)
        );
    }
    let servers: Vec<Vec<String>> = args
        .commands
        .split(|arg| arg == "--")
        .map(<[String]>::to_vec)
        .collect();
    if servers.iter().any(Vec::is_empty) {
        anyhow::bail!("an empty server command between `--` separators");
    }
    Ok(servers)
}

/// The `sources:` entries for the paths: `{path: P, format: F}` when every file a path reaches
/// is in one detected format, the path alone otherwise. Paths are made relative to `dir` when
/// they are inside it.
fn sources(args: &InitArgs, files: Option<&Project>, dir: &Path) -> anyhow::Result<Vec<String>> {
    let mut formats: BTreeMap<PathBuf, Format> = BTreeMap::new();
    if let Some(project) = files {
        for tool in &project.catalog.tools {
            let file = project.catalog.file_of(tool);
            formats.insert(file.path.clone(), tool.origin.format);
        }
    }
    let mut out = Vec::new();
    for path in &args.paths {
        let relative = Path::new(path)
            .strip_prefix(dir)
            .map_or_else(|_| path.clone(), |p| p.to_string_lossy().into_owned());
        let reached: Vec<Format> = crate::fsutil::expand(dir, path)
            .map_err(anyhow::Error::msg)?
            .iter()
            .filter_map(|file| formats.get(file).copied())
            .collect();
        let one = reached.first().filter(|f| reached.iter().all(|g| g == *f));
        out.push(match one {
            Some(format) => format!(
                "{{path: {}, format: {}}}",
                yaml_scalar(&relative),
                format.name()
            ),
            None => yaml_scalar(&relative),
        });
    }
    Ok(out)
}
