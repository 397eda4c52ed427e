//! `discloser lint`: the index contract as lint rules, with CI-grade output, and `--fix`.
//!
//! `--fix` works as ruff's does: it applies each finding's fix (the safe ones, and the unsafe
//! ones with `--unsafe-fixes`) to the files of discloser's own formats, the first of two
//! overlapping fixes winning, then loads and lints again and applies what the edited files
//! now offer, up to [`MAX_PASSES`] passes. A file is written atomically, and only while its
//! bytes are those the fixes were computed against. `--diff` prints the first pass as a
//! unified diff and writes nothing.

use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use anyhow::Context as _;

use super::{Outcome, for_this_run, load_quietly, load_with};
use crate::args::{Deny, Globals, LintArgs};
use crate::lint::fix::{self, Fix, FixTarget};
use crate::lint::report::{Format, Options, Writer};
use crate::lint::{Finding, RULES, Settings, Severity, lint, lint_each, rules};
use crate::project::{Project, Strictness};

/// The most passes of `--fix`: each applies the fixes that do not overlap, and a pass's
/// edits can make new fixes (or overlapping ones) appear.
pub const MAX_PASSES: usize = 10;

/// Runs the linter.
pub fn run(
    globals: &Globals,
    args: &LintArgs,
    cwd: &Path,
    out: &mut dyn Write,
    warnings: &mut dyn Write,
) -> anyhow::Result<Outcome> {
    if args.list {
        for rule in RULES {
            writeln!(
                out,
                "{}  {:<28} {:<8} {}",
                rule.code,
                rule.name,
                rule.severity.as_str(),
                rule.summary()
            )?;
        }
        return Ok(Outcome::Ok);
    }
    if let Some(code) = &args.explain {
        let rule = rules::find(code).ok_or_else(|| anyhow::anyhow!(rules::unknown(code)))?;
        writeln!(
            out,
            "{} ({}), default severity: {}\n",
            rule.name,
            rule.code,
            rule.severity.as_str()
        )?;
        writeln!(out, "{}", rule.doc_text())?;
        return Ok(Outcome::Ok);
    }
    for code in args.select.iter().chain(&args.ignore) {
        if rules::find(code).is_none() {
            anyhow::bail!(rules::unknown(code));
        }
    }
    let project = load_with(globals, &args.paths, cwd, Strictness::Lenient)?;
    if args.diff {
        return diff(&project, args, out, warnings);
    }
    let fails = |f: &Finding| f.severity == Severity::Error || args.deny == Some(Deny::Warnings);
    let mut writer = Writer::new(out, args.format, options(globals, args));
    let mut failing = false;
    if args.fix {
        let findings = fix_all(globals, args, cwd, project, warnings)?;
        failing = findings.iter().any(fails);
        writer.write(&findings)?;
    } else {
        // Written as they are made: a large catalog's findings are never all held.
        let project = for_this_run(project);
        lint_each(project, &settings(project, args)?, |batch| {
            failing |= batch.iter().any(fails);
            writer.write(&batch)
        })?;
    }
    writer.finish()?;
    Ok(if failing {
        Outcome::Findings
    } else {
        Outcome::Ok
    })
}

/// The settings of a run: the config's, with the command line's selection.
fn settings(project: &Project, args: &LintArgs) -> anyhow::Result<Settings> {
    let mut settings = Settings::from_config(&project.config.lint)
        .map_err(|e| anyhow::anyhow!("{}: {e}", project.config_path.display()))?;
    if !args.select.is_empty() {
        settings.select.clone_from(&args.select);
    }
    settings.ignore.extend(args.ignore.iter().cloned());
    Ok(settings)
}

/// How the report is rendered.
fn options(globals: &Globals, args: &LintArgs) -> Options {
    Options {
        color: args.format == Format::Full
            && globals.color.enabled(std::io::stdout().is_terminal()),
        unsafe_fixes: args.unsafe_fixes,
    }
}

/// `--fix`: passes of fixes until none applies (or [`MAX_PASSES`]); the findings of the last
/// lint, those that remain.
fn fix_all(
    globals: &Globals,
    args: &LintArgs,
    cwd: &Path,
    mut project: Project,
    warnings: &mut dyn Write,
) -> anyhow::Result<Vec<Finding>> {
    let mut fixed = 0;
    let mut pass = 0;
    loop {
        let findings = lint(&project, &settings(&project, args)?);
        let (writable, read_only) = chosen(&findings, args.unsafe_fixes);
        if pass == 0 {
            note_read_only(&read_only, warnings)?;
        }
        let applied = if pass < MAX_PASSES && !writable.is_empty() {
            write_fixes(&writable, warnings)?
        } else {
            0
        };
        if applied == 0 {
            writeln!(
                warnings,
                "Fixed {}.",
                crate::numfmt::plural(fixed, "finding")
            )?;
            for_this_run(project);
            return Ok(findings);
        }
        fixed += applied;
        pass += 1;
        project = load_quietly(globals, &args.paths, cwd, Strictness::Lenient)?;
    }
}

/// The fixes of one pass: those `--fix` writes, by file, and those it does not write.
#[allow(clippy::type_complexity)]
fn chosen(
    findings: &[Finding],
    unsafe_fixes: bool,
) -> (BTreeMap<&PathBuf, (u64, Vec<&Fix>)>, Vec<&Fix>) {
    let mut writable: BTreeMap<&PathBuf, (u64, Vec<&Fix>)> = BTreeMap::new();
    let mut read_only = Vec::new();
    for fix in fix::select(findings, unsafe_fixes) {
        match &fix.target {
            FixTarget::Writable { real, digest } => {
                writable
                    .entry(real)
                    .or_insert((*digest, Vec::new()))
                    .1
                    .push(fix);
            }
            FixTarget::ReadOnly(_) => read_only.push(fix),
        }
    }
    (writable, read_only)
}

/// Says once that fixes in files discloser does not write were left alone, and which files.
fn note_read_only(read_only: &[&Fix], warnings: &mut dyn Write) -> anyhow::Result<()> {
    if read_only.is_empty() {
        return Ok(());
    }
    let mut kinds: Vec<&str> = read_only
        .iter()
        .filter_map(|f| match &f.target {
            FixTarget::ReadOnly(kind) => Some(kind.as_str()),
            FixTarget::Writable { .. } => None,
        })
        .collect();
    kinds.sort_unstable();
    kinds.dedup();
    writeln!(
        warnings,
        "note: {} not applied: `--fix` writes only discloser's own files (native tool files and the config), not {}",
        crate::numfmt::plural(read_only.len(), "fix"),
        kinds.join(", ")
    )?;
    Ok(())
}

/// The bytes of `real` with its fixes applied, or why not: the file cannot be read, or it
/// changed since it was linted.
fn fixed_bytes(real: &Path, digest: u64, fixes: &[&Fix]) -> Result<(Vec<u8>, Vec<u8>), String> {
    let shown = || crate::printable::neutralise(&real.display().to_string()).into_owned();
    let bytes = std::fs::read(real).map_err(|e| format!("cannot read `{}`: {e}", shown()))?;
    if fix::digest(&bytes) != digest {
        return Err(format!(
            "`{}` changed since it was linted; its fixes are not applied",
            shown()
        ));
    }
    let edits: Vec<&fix::Edit> = fixes.iter().flat_map(|f| &f.edits).collect();
    let new = fix::apply(&bytes, &edits);
    Ok((bytes, new))
}

/// Writes each file's fixes; the number of fixes applied. A file that changed since it was
/// linted is left alone (with a warning); one that cannot be written is an error.
fn write_fixes(
    files: &BTreeMap<&PathBuf, (u64, Vec<&Fix>)>,
    warnings: &mut dyn Write,
) -> anyhow::Result<usize> {
    let mut applied = 0;
    for (real, (digest, fixes)) in files {
        let (old, new) = match fixed_bytes(real, *digest, fixes) {
            Ok(bytes) => bytes,
            Err(why) => {
                writeln!(warnings, "warning: {why}")?;
                continue;
            }
        };
        let staged = crate::fsutil::stage_replace(real, &new)
            .with_context(|| format!("cannot write `{}`", real.display()))?;
        // Read again just before the rename: an editor's save in between is never lost.
        if std::fs::read(real).ok().as_deref() != Some(old.as_slice()) {
            writeln!(
                warnings,
                "warning: `{}` changed while it was being fixed; its fixes are not applied",
                crate::printable::neutralise(&real.display().to_string())
            )?;
            continue;
        }
        staged
            .commit()
            .with_context(|| format!("cannot write `{}`", real.display()))?;
        applied += fixes.len();
    }
    Ok(applied)
}

/// `--diff`: the first pass of fixes as unified diffs, nothing written; exit 1 when there is
/// something to fix.
fn diff(
    project: &Project,
    args: &LintArgs,
    out: &mut dyn Write,
    warnings: &mut dyn Write,
) -> anyhow::Result<Outcome> {
    let findings = lint(project, &settings(project, args)?);
    let (writable, read_only) = chosen(&findings, args.unsafe_fixes);
    note_read_only(&read_only, warnings)?;
    let mut would = 0;
    for (real, (digest, fixes)) in &writable {
        let (old, new) = match fixed_bytes(real, *digest, fixes) {
            Ok(bytes) => bytes,
            Err(why) => {
                writeln!(warnings, "warning: {why}")?;
                continue;
            }
        };
        let shown = fixes.first().and_then(|f| f.edits.first()).map_or_else(
            || real.display().to_string(),
            |e| e.path.display().to_string(),
        );
        let shown = crate::printable::neutralise(&shown).into_owned();
        out.write_all(
            crate::snapshot::compare::unified_diff(
                &String::from_utf8_lossy(&old),
                &String::from_utf8_lossy(&new),
                &format!("a/{shown}"),
                &format!("b/{shown}"),
                false,
            )
            .as_bytes(),
        )?;
        would += fixes.len();
    }
    writeln!(
        warnings,
        "Would fix {}.",
        crate::numfmt::plural(would, "finding")
    )?;
    Ok(if would > 0 {
        Outcome::Findings
    } else {
        Outcome::Ok
    })
}
