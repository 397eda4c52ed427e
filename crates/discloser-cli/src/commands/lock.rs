//! `discloser lock`: pin the tools of the config's `mcp:` sources in `discloser.lock.json`.
//!
//! Starts every server the config lists, lists its tools and writes them, with the command and
//! the server's name and version, next to the config (atomically; a file there that is not a
//! discloser lock is never replaced). Every other command then reads the pins and starts no
//! server. `--check` starts the servers and compares without writing: exit 1 when a server now
//! lists other tools, or changed the description or schema of a pinned one, naming each tool.

use std::fmt::Write as _;
use std::io::Write;
use std::path::Path;

use anyhow::Context;

use super::Outcome;
use crate::args::{Globals, LockArgs};
use crate::live::shown;
use crate::lock::{LOCK_FILE, LOCK_VERSION, Lock, PinnedServer, ToolChange, changes};
use crate::numfmt::plural;

/// Runs the command.
pub fn run(
    globals: &Globals,
    args: &LockArgs,
    cwd: &Path,
    out: &mut dyn Write,
) -> anyhow::Result<Outcome> {
    let config_path = super::config_path(globals, cwd)?;
    let crate::project::ConfigFile {
        source,
        config,
        root,
    } = crate::project::ConfigFile::read(&cwd.join(&config_path), &config_path)?;
    let shown_root = crate::project::shown_dir(&config_path);
    let old = crate::lock::read(&root, &shown_root)?;
    let lock_shown = shown_root.join(LOCK_FILE);
    let pulled = crate::project::pull_servers(&config, &source, &root)?;
    if pulled.is_empty() {
        anyhow::bail!(
            "`{}` has no `mcp:` source: there is nothing to pin",
            config_path.display()
        );
    }
    let new = Lock {
        lock_version: LOCK_VERSION,
        servers: pulled
            .into_iter()
            .map(|(command, listing)| PinnedServer::new(command, listing))
            .collect(),
    };
    let old_lock = old.as_ref().map(|f| f.lock()).transpose()?;
    let old_lock = old_lock.as_ref();
    let (report, differs) = report(old_lock, &new, args.check);
    if args.check {
        let mut text = report;
        match old_lock {
            None => {
                writeln!(
                    text,
                    "no `{}`: run `discloser lock` to pin the servers' tools",
                    lock_shown.display()
                )?;
            }
            Some(_) if differs => {
                text.push_str(&model_facing_diff(&config_path, &new, &lock_shown));
                writeln!(
                    text,
                    "the servers differ from `{}`: review the changes, then run `discloser lock`",
                    lock_shown.display()
                )?;
            }
            Some(_) => writeln!(
                text,
                "every server lists exactly the tools pinned in `{}`",
                lock_shown.display()
            )?,
        }
        out.write_all(text.as_bytes())?;
        return Ok(if differs || old_lock.is_none() {
            Outcome::Findings
        } else {
            Outcome::Ok
        });
    }
    let text = new.to_json();
    let path = root.join(LOCK_FILE);
    if old.as_ref().is_none_or(|f| f.source.text != text) {
        crate::fsutil::write_atomic(&path, text.as_bytes())
            .with_context(|| format!("cannot write `{}`", lock_shown.display()))?;
    }
    let mut report = report;
    writeln!(
        report,
        "{} `{}`",
        if differs || old.is_none() {
            "wrote"
        } else {
            "unchanged:"
        },
        lock_shown.display()
    )?;
    out.write_all(report.as_bytes())?;
    Ok(Outcome::Ok)
}

/// What the change means for the model: the project with the pins against the project with
/// the fresh listings, compared as `discloser diff` compares two versions (every profile's index
/// and bound definitions, and the tokens per turn). When the fresh tools do not load with the
/// config (an override names a tool the server dropped), that error is the news.
fn model_facing_diff(config_path: &Path, new: &Lock, lock_shown: &Path) -> String {
    use crate::project::{Project, Strictness};
    let pinned = Project::load_with(config_path, Strictness::Lenient);
    let fresh = crate::lock::PinnedFile::of(new, lock_shown.to_path_buf());
    let live = Project::load_with_lock(config_path, fresh, Strictness::Lenient);
    let (pinned, live) = match (pinned, live) {
        (Ok(pinned), Ok(live)) => (pinned, live),
        (_, Err(e)) | (Err(e), _) => {
            return format!(
                "\nwith the servers' tools as they are now, the project does not load: {}: {}\n",
                e.location(),
                e.message
            );
        }
    };
    let counter = crate::cost::Counter::new(crate::cost::TokenizerKind::O200k);
    let report = crate::snapshot::diff::diff_projects(
        crate::snapshot::diff::Version {
            label: "pinned",
            project: &pinned,
        },
        crate::snapshot::diff::Version {
            label: "live",
            project: &live,
        },
        crate::cost::Provider::Raw,
        &counter,
    );
    match report {
        Ok(report) => {
            let mut text =
                String::from("\nwhat the model would see (as `discloser diff` shows it):\n");
            super::diff::write_text(&report, &mut text);
            text.push('\n');
            text
        }
        Err(e) => format!("\ncannot compare what the model sees: {}\n", e.message),
    }
}

/// One paragraph per server: its tools against its pin. Returns whether anything differs
/// (a server not pinned, a pin no source starts, a tool added, removed or changed).
fn report(old: Option<&Lock>, new: &Lock, check: bool) -> (String, bool) {
    let mut text = String::new();
    let mut differs = false;
    for server in &new.servers {
        let command = shown(&server.command);
        let count = plural(server.tools.len(), "tool");
        let pin = old.and_then(|l| l.server(&server.command)).map(|(_, p)| p);
        let Some(pin) = pin else {
            differs = true;
            let verb = if check { "lists" } else { "pinned" };
            let _ = writeln!(
                text,
                "`{command}` ({}): {verb} {count}, not pinned before",
                server.label()
            );
            continue;
        };
        let found = changes(&pin.tools, &server.tools);
        if found.is_empty() && pin.server == server.server {
            let _ = writeln!(text, "`{command}` ({}): {count}, as pinned", server.label());
            continue;
        }
        differs = true;
        let _ = writeln!(
            text,
            "`{command}` ({}): {count}, {} since the pin",
            server.label(),
            plural(found.len(), "change")
        );
        if pin.server != server.server {
            let _ = writeln!(text, "  server: {} -> {}", pin.label(), server.label());
        }
        for change in &found {
            match change {
                ToolChange::Added(name) => {
                    let _ = writeln!(text, "  + {name}: new tool");
                }
                ToolChange::Removed(name) => {
                    let _ = writeln!(text, "  - {name}: no longer listed");
                }
                ToolChange::Changed {
                    name,
                    keys,
                    description,
                } => {
                    let keys: Vec<String> = keys.iter().map(|k| format!("`{k}`")).collect();
                    let _ = writeln!(text, "  ~ {name}: {} changed", keys.join(", "));
                    if let Some((before, after)) = description {
                        let _ = writeln!(text, "      was: {}", one_line(before));
                        let _ = writeln!(text, "      now: {}", one_line(after));
                    }
                }
            }
        }
    }
    if let Some(old) = old {
        for stale in &old.servers {
            if new.server(&stale.command).is_none() {
                differs = true;
                let _ = writeln!(
                    text,
                    "`{}`: pinned, but no source of the config starts it any more{}",
                    shown(&stale.command),
                    if check { "" } else { " (removed)" }
                );
            }
        }
    }
    (text, differs)
}

/// A description on one line, for the report (control characters, line breaks included,
/// neutralised).
fn one_line(text: &str) -> String {
    crate::printable::neutralise(text).into_owned()
}
