//! `discloser diff`: compare two versions of a catalog's model-facing bytes.
//!
//! The versions are two configs or directories, a git revision against the working tree, or two
//! profiles of one config. Text output: the per-tool summary, the unified diffs, the cache
//! impact of each file, and the token delta per configuration as `cost` counts it. Exit 0 when
//! identical, 1 when different, 2 when it cannot run.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::Outcome;
use super::check::{cache_sentence, legend, summary_lines, thousands};
use crate::args::{DiffArgs, Globals, OutputFormat};
use crate::config::CONFIG_FILES;
use crate::cost::{Counter, Provider};
use crate::project::Project;
use crate::snapshot::diff::{
    DiffReport, DiffStatus, TokenDelta, Version, diff_profiles, diff_projects,
};
use crate::snapshot::git::read_revision;
use crate::source::SourceFile;

/// Runs the command.
pub fn run(
    globals: &Globals,
    args: &DiffArgs,
    cwd: &Path,
    out: &mut dyn Write,
) -> anyhow::Result<Outcome> {
    let counter = Counter::new(args.tokenizer);
    let versions = (args.old.as_deref(), args.new.as_deref());
    let report = match (&args.git, &args.profiles, versions) {
        (Some(rev), None, (None, None)) => git_diff(globals, rev, cwd, args.provider, &counter)?,
        (None, Some(profiles), (None, None)) => {
            let project = super::load(globals, &[], cwd)?;
            let [old, new] = profiles.as_slice() else {
                anyhow::bail!("`--profiles` takes two profile names");
            };
            diff_profiles(&project, old, new, args.provider, &counter)?
        }
        (None, None, (Some(old), Some(new))) => {
            if globals.config.is_some() {
                anyhow::bail!("give either `--config` or two versions to compare, not both");
            }
            let (old_label, new_label) = (old.display().to_string(), new.display().to_string());
            let old = load_version(old, cwd)?;
            let new = load_version(new, cwd)?;
            diff_projects(
                Version {
                    label: &old_label,
                    project: &old,
                },
                Version {
                    label: &new_label,
                    project: &new,
                },
                args.provider,
                &counter,
            )?
        }
        _ => anyhow::bail!(
            "nothing to compare: give two configs or directories (`discloser diff OLD NEW`), a git revision (`--git REV`) or two profiles (`--profiles A B`)"
        ),
    };
    match args.format {
        OutputFormat::Json => {
            let text = serde_json::to_string_pretty(&report)?;
            writeln!(out, "{text}")?;
        }
        OutputFormat::Text => {
            let mut text = String::new();
            write_text(&report, &mut text);
            out.write_all(crate::report::shown_lines(&text).as_bytes())?;
        }
    }
    Ok(if report.identical {
        Outcome::Ok
    } else {
        Outcome::Findings
    })
}

/// The config at `rev` against the working tree.
fn git_diff(
    globals: &Globals,
    rev: &str,
    cwd: &Path,
    provider: Provider,
    counter: &Counter,
) -> anyhow::Result<DiffReport> {
    let config = cwd.join(super::config_path(globals, cwd)?);
    let new = super::load(globals, &[], cwd)?;
    let revision = read_revision(&config, rev)?;
    let old = Project::load_as(
        &revision.config,
        &revision.shown_config,
        &revision.shown_root,
    )?;
    Ok(diff_projects(
        Version {
            label: rev,
            project: &old,
        },
        Version {
            label: "working tree",
            project: &new,
        },
        provider,
        counter,
    )?)
}

/// A version given as a path: a config file, a directory with a config, or tool files.
fn load_version(path: &Path, cwd: &Path) -> anyhow::Result<Project> {
    let full = cwd.join(path);
    let config = if full.is_dir() {
        CONFIG_FILES
            .iter()
            .find(|name| full.join(name).is_file())
            .map(|name| path.join(name))
    } else if is_config(&full) {
        Some(path.to_path_buf())
    } else {
        None
    };
    Ok(match config {
        Some(shown) => {
            let shown_root = shown.parent().map_or_else(PathBuf::new, Path::to_path_buf);
            Project::load_as(&cwd.join(&shown), &shown, &shown_root)?
        }
        None => Project::from_paths(&[path.to_string_lossy().into_owned()], cwd)?,
    })
}

/// A file is a config when it is named `discloser.yaml` or its top level has `sources`.
fn is_config(path: &Path) -> bool {
    if path
        .file_name()
        .is_some_and(|n| CONFIG_FILES.iter().any(|c| n == *c))
    {
        return true;
    }
    SourceFile::read(path, path.to_path_buf())
        .and_then(|source| source.parse())
        .is_ok_and(|value| value.get("sources").is_some())
}

pub(crate) fn write_text(report: &DiffReport, out: &mut String) {
    if report.identical {
        out.push_str(&format!(
            "identical: `{}` and `{}` render the same bytes for every profile\n",
            report.old, report.new
        ));
        return;
    }
    out.push_str(&format!("summary: {} -> {}\n", report.old, report.new));
    let lines = summary_lines(&report.summary);
    if lines.is_empty() {
        out.push_str("  no tool changed; the bytes differ elsewhere (see the diff)\n");
    }
    for line in lines {
        out.push_str(&format!("  {line}\n"));
    }
    for file in &report.files {
        if let Some(diff) = &file.facts.visible_diff {
            out.push('\n');
            out.push_str(diff);
            if let Some(legend) = legend(diff) {
                out.push_str(&format!("  ({legend})\n"));
            }
        }
    }
    let tokens = report.tokenizer.label();
    out.push_str(&format!("\ncache ({tokens} tokens)\n"));
    for file in &report.files {
        let path = file
            .new_path
            .as_deref()
            .or(file.old_path.as_deref())
            .unwrap_or_default();
        let line = match (
            &file.status,
            &file.facts.first_difference,
            &file.facts.cache,
        ) {
            (DiffStatus::Identical, _, _) => format!("{path}: identical"),
            (DiffStatus::Removed, _, _) => format!("{path}: removed"),
            (DiffStatus::Changed, Some(first), Some(cache)) => format!(
                "{path}:{}:{}: first difference at byte {}; {}",
                first.line,
                first.column,
                thousands(first.byte as u64),
                cache_sentence(cache, tokens)
            ),
            (_, _, Some(cache)) => format!("{path}: {}", cache_sentence(cache, tokens)),
            (_, _, None) => format!("{path}: changed"),
        };
        out.push_str(&format!("  {line}\n"));
    }
    out.push_str(&format!(
        "\ntokens per turn (as `discloser cost` counts them: `{}` definitions + index, {})\n",
        report.provider.as_str(),
        if report.tokens_are_estimates {
            format!("{tokens}, estimated")
        } else {
            tokens.to_owned()
        }
    ));
    out.push_str(&token_table(report));
}

/// An aligned table of token totals: configuration, old, new, delta.
fn token_table(report: &DiffReport) -> String {
    let header = [
        "configuration".to_owned(),
        report.old.clone(),
        report.new.clone(),
        "Δ tokens".to_owned(),
    ];
    let rows: Vec<[String; 4]> = report.tokens.iter().map(token_row).collect();
    let width = |i: usize| {
        rows.iter()
            .map(|r| r[i].chars().count())
            .chain([header[i].chars().count()])
            .max()
            .unwrap_or(0)
    };
    let widths = [width(0), width(1), width(2), width(3)];
    let mut out = String::new();
    for row in std::iter::once(&header).chain(&rows) {
        let line = format!(
            "  {:<w0$}  {:>w1$}  {:>w2$}  {:>w3$}",
            row[0],
            row[1],
            row[2],
            row[3],
            w0 = widths[0],
            w1 = widths[1],
            w2 = widths[2],
            w3 = widths[3],
        );
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

fn token_row(t: &TokenDelta) -> [String; 4] {
    let count = |n: Option<u64>| n.map_or_else(|| "-".to_owned(), thousands);
    let delta = match (t.delta, t.delta_percent) {
        (Some(0), _) => "0".to_owned(),
        (Some(d), Some(p)) => {
            let sign = if d > 0 { "+" } else { "-" };
            format!(
                "{sign}{} ({sign}{:.1}%)",
                thousands(d.unsigned_abs()),
                p.abs()
            )
        }
        _ => "-".to_owned(),
    };
    [t.configuration.clone(), count(t.old), count(t.new), delta]
}
