//! `discloser check`: compare the model-facing bytes with the snapshots; never writes.
//!
//! Exit 0 when every snapshot file holds exactly the rendered bytes, 1 on drift, a missing or an
//! orphaned file, 2 when it cannot run. Text output: the per-tool summary, then one block per
//! file that is not up to date (position of the first difference, cache impact, unified diff
//! with invisible characters made visible), then a one-line verdict. `--format json` carries the
//! same facts.

use std::io::Write;
use std::path::Path;

use serde::Serialize;

use super::Outcome;
use super::snapshot::{Prepared, prepare};
use crate::args::{CheckArgs, Globals, OutputFormat};
use crate::cost::Counter;
use crate::snapshot::changes::{ChangeKind, State, Summary, ToolChange};
use crate::snapshot::compare::{CacheImpact, FirstDifference, Note};
use crate::snapshot::{CheckReport, CheckStatus, CheckedFile, Orphan, SnapshotError, check};

/// `1187` -> `1,187`.
pub(crate) fn thousands(n: u64) -> String {
    crate::numfmt::thousands(i64::try_from(n).unwrap_or(i64::MAX))
}

/// Runs the command.
pub fn run(
    globals: &Globals,
    args: &CheckArgs,
    cwd: &Path,
    out: &mut dyn Write,
) -> anyhow::Result<Outcome> {
    let Prepared {
        dir,
        providers,
        rendered,
    } = prepare(globals, args.dir.as_deref(), &args.provider, cwd)?;
    let report =
        check(&dir, &rendered, &providers, &Counter::new(args.tokenizer)).map_err(unbox)?;
    match args.format {
        OutputFormat::Json => {
            let text = serde_json::to_string_pretty(&JsonReport::new(&report))?;
            writeln!(out, "{text}")?;
        }
        OutputFormat::Text => {
            let mut text = String::new();
            write_text(&report, &mut text);
            out.write_all(crate::report::shown_lines(&text).as_bytes())?;
        }
    }
    Ok(if report.drift() {
        Outcome::Findings
    } else {
        Outcome::Ok
    })
}

/// Load errors keep their own type, so `main` renders them with a snippet.
pub(crate) fn unbox(e: SnapshotError) -> anyhow::Error {
    match e {
        SnapshotError::Load(load) => load.into(),
        other => other.into(),
    }
}

#[derive(Serialize)]
struct JsonReport<'a> {
    ok: bool,
    counts: Counts,
    tokens_are_estimates: bool,
    #[serde(flatten)]
    report: &'a CheckReport,
}

#[derive(Serialize)]
struct Counts {
    files: usize,
    ok: usize,
    drift: usize,
    missing: usize,
    orphaned: usize,
}

impl<'a> JsonReport<'a> {
    fn new(report: &'a CheckReport) -> Self {
        JsonReport {
            ok: !report.drift(),
            counts: counts(report),
            tokens_are_estimates: report.tokenizer.is_estimate(),
            report,
        }
    }
}

fn counts(report: &CheckReport) -> Counts {
    Counts {
        files: report.files.len(),
        ok: report.count(CheckStatus::Ok),
        drift: report.count(CheckStatus::Drift),
        missing: report.count(CheckStatus::Missing),
        orphaned: report.count(CheckStatus::Orphaned),
    }
}

fn write_text(report: &CheckReport, out: &mut String) {
    if !report.summary.is_empty() {
        out.push_str("changes\n");
        for line in summary_lines(&report.summary) {
            out.push_str(&format!("  {line}\n"));
        }
        out.push('\n');
    }
    let tokens = report.tokenizer.label();
    for file in &report.files {
        match file.status {
            CheckStatus::Ok => {}
            CheckStatus::Drift => write_drift(file, tokens, out),
            CheckStatus::Missing => {
                let size = file
                    .facts
                    .cache
                    .map(|c| {
                        format!(
                            " ({} bytes, {} {tokens} tokens, all sent uncached)",
                            thousands(c.changed_bytes as u64),
                            thousands(c.changed_tokens)
                        )
                    })
                    .unwrap_or_default();
                out.push_str(&format!(
                    "{}: missing: no snapshot of this file{size}\n",
                    file.path.display()
                ));
            }
            CheckStatus::Orphaned => out.push_str(&format!(
                "{}: orphaned: {}\n",
                file.path.display(),
                orphan_reason(file)
            )),
        }
    }
    let c = counts(report);
    if !report.drift() {
        out.push_str(&format!(
            "ok: {} files in `{}` hold exactly the rendered bytes\n",
            c.files,
            report.dir.display()
        ));
        return;
    }
    let mut parts = Vec::new();
    if c.drift > 0 {
        parts.push(format!("{} drifted", c.drift));
    }
    if c.missing > 0 {
        parts.push(format!("{} missing", c.missing));
    }
    if c.orphaned > 0 {
        parts.push(format!("{} orphaned", c.orphaned));
    }
    let expected = c.files - c.orphaned;
    let prune = report
        .files
        .iter()
        .any(|f| f.orphan.is_some_and(Orphan::removable));
    out.push_str(&format!(
        "drift: {} ({} of {expected} files up to date); if the changes are intended, run `discloser snapshot{}`\n",
        parts.join(", "),
        c.ok,
        if prune { " --prune" } else { "" }
    ));
}

fn orphan_reason(file: &CheckedFile) -> String {
    match (file.orphan, &file.profile) {
        (Some(Orphan::UnknownProfile), Some(profile)) => format!(
            "no profile `{profile}` renders it; `discloser snapshot --prune` removes it"
        ),
        (Some(Orphan::UnselectedProvider), _) => {
            "its provider is not checked (see `--provider`); `discloser snapshot --prune` removes it"
                .to_owned()
        }
        _ => "not a file discloser writes; remove it by hand".to_owned(),
    }
}

fn write_drift(file: &CheckedFile, tokens: &str, out: &mut String) {
    let path = file.path.display();
    match &file.facts.first_difference {
        Some(first) => out.push_str(&format!(
            "{path}:{}:{}: drift: first difference at byte {}\n",
            first.line,
            first.column,
            thousands(first.byte as u64)
        )),
        None => out.push_str(&format!("{path}: drift\n")),
    }
    if !file.facts.tools.is_empty() {
        out.push_str(&format!("  tools: {}\n", quoted_list(&file.facts.tools)));
    }
    for note in &file.facts.notes {
        out.push_str(&format!(
            "  {}\n",
            note_text(note, "the snapshot", "the rendered file")
        ));
    }
    if let Some(first) = &file.facts.first_difference {
        out.push_str(&excerpt_lines(first, "snapshot", "now"));
    }
    if let Some(cache) = &file.facts.cache {
        out.push_str(&format!("  cache: {}\n", cache_sentence(cache, tokens)));
    }
    if let Some(diff) = &file.facts.visible_diff {
        out.push_str(diff);
        if let Some(legend) = legend(diff) {
            out.push_str(&format!("  ({legend})\n"));
        }
    }
    out.push('\n');
}

/// `snapshot: …` / `now: …` lines around the first difference, aligned, visible.
pub(crate) fn excerpt_lines(first: &FirstDifference, old: &str, new: &str) -> String {
    let width = old.chars().count().max(new.chars().count()) + 1;
    let shown = |excerpt: &str| {
        if excerpt.is_empty() {
            "(end of file)".to_owned()
        } else {
            crate::snapshot::compare::visible(excerpt)
        }
    };
    format!(
        "  {:<width$} {}\n  {:<width$} {}\n",
        format!("{old}:"),
        shown(&first.old_excerpt),
        format!("{new}:"),
        shown(&first.new_excerpt),
    )
}

/// What a change costs the cache, in one sentence.
pub(crate) fn cache_sentence(cache: &CacheImpact, tokens: &str) -> String {
    let (ub, ut) = (
        thousands(cache.unchanged_bytes as u64),
        thousands(cache.unchanged_tokens),
    );
    let (cb, ct) = (
        thousands(cache.changed_bytes as u64),
        thousands(cache.changed_tokens),
    );
    match (cache.unchanged_bytes, cache.changed_bytes) {
        (0, _) => format!(
            "nothing stays cached (the first line changed); all {cb} bytes ({ct} {tokens} tokens) are sent uncached"
        ),
        (_, 0) => format!(
            "all {ub} bytes ({ut} {tokens} tokens) stay cached (text was only removed at the end)"
        ),
        _ => format!(
            "the first {ub} bytes ({ut} {tokens} tokens) stay cached; the remaining {cb} bytes ({ct} {tokens} tokens) are sent uncached"
        ),
    }
}

/// A note in words; `old` and `new` name the two versions.
pub(crate) fn note_text(note: &Note, old: &str, new: &str) -> String {
    let side = |in_old: bool| if in_old { old } else { new };
    match note {
        Note::LineEndings { old: o, new: n } => {
            format!(
                "line endings: {} in {old}, {} in {new}",
                o.label(),
                n.label()
            )
        }
        Note::FinalNewline { old: has_old, .. } => {
            format!("final newline: missing in {}", side(!has_old))
        }
        Note::ByteOrderMark { old: in_old, .. } => {
            format!("byte-order mark: only in {}", side(*in_old))
        }
        Note::OldNotUtf8 => format!("{old} is not valid UTF-8"),
    }
}

/// The symbols a visible diff uses, explained; `None` when it uses none.
pub(crate) fn legend(diff: &str) -> Option<String> {
    const SYMBOLS: [(&str, &str); 4] = [
        ("␍", "␍ carriage return"),
        ("␉", "␉ tab"),
        ("␠", "␠ trailing space"),
        ("⟨U+", "⟨U+…⟩ invisible character"),
    ];
    let mut used: Vec<&str> = SYMBOLS
        .iter()
        .filter(|(symbol, _)| diff.contains(symbol))
        .map(|(_, meaning)| *meaning)
        .collect();
    if diff.contains("\n\\ No newline at end of file\n") {
        used.push("`\\ No newline at end of file`: the line above has no final newline");
    }
    (!used.is_empty()).then(|| used.join(", "))
}

/// The per-tool summary as lines (`+` added, `-` removed, `~` changed).
pub(crate) fn summary_lines(summary: &Summary) -> Vec<String> {
    let mut lines = Vec::new();
    for p in &summary.profiles_added {
        lines.push(format!("+ profile `{p}`"));
    }
    for p in &summary.profiles_removed {
        lines.push(format!("- profile `{p}`"));
    }
    if !summary.header_changed.is_empty() {
        lines.push(format!(
            "~ index header (in {})",
            quoted_list(&summary.header_changed)
        ));
    }
    for tool in &summary.tools {
        lines.push(tool_line(tool));
    }
    lines
}

fn tool_line(tool: &ToolChange) -> String {
    let name = &tool.tool;
    match tool.change {
        ChangeKind::Added => format!("+ {name}: added ({})", states(tool)),
        ChangeKind::Removed => format!("- {name}: removed (was {})", states(tool)),
        ChangeKind::Changed => {
            let mut parts: Vec<String> = tool
                .parts
                .iter()
                .map(|p| match p.details.as_slice() {
                    [] => p.part.label().to_owned(),
                    details => format!("{} ({})", p.part.label(), details.join("; ")),
                })
                .collect();
            let mut moves: Vec<(State, State, Vec<String>)> = Vec::new();
            for m in &tool.moves {
                match moves
                    .iter_mut()
                    .find(|(f, t, _)| (*f, *t) == (m.from, m.to))
                {
                    Some((_, _, profiles)) => profiles.push(m.profile.clone()),
                    None => moves.push((m.from, m.to, vec![m.profile.clone()])),
                }
            }
            for (from, to, profiles) in moves {
                let named: Vec<String> = profiles.into_iter().filter(|p| !p.is_empty()).collect();
                let place = if named.is_empty() {
                    String::new()
                } else {
                    format!(" in {}", quoted_list(&named))
                };
                parts.push(format!("moved {} -> {}{place}", from.as_str(), to.as_str()));
            }
            format!("~ {name}: {}", parts.join(", "))
        }
    }
}

/// `indexed in `a`, `b`; bound in `c``.
fn states(tool: &ToolChange) -> String {
    let mut groups = Vec::new();
    for state in [State::Indexed, State::Bound] {
        let profiles: Vec<String> = tool
            .states
            .iter()
            .filter(|s| s.state == state)
            .map(|s| s.profile.clone())
            .collect();
        if !profiles.is_empty() {
            groups.push(format!("{} in {}", state.as_str(), quoted_list(&profiles)));
        }
    }
    groups.join("; ")
}

/// `` `a`, `b` ``.
pub(crate) fn quoted_list(items: &[String]) -> String {
    items
        .iter()
        .map(|i| format!("`{i}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(1187), "1,187");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }

    #[test]
    fn cache_sentences() {
        let cache = |u, c| CacheImpact {
            unchanged_bytes: u,
            unchanged_tokens: u as u64 / 4,
            changed_bytes: c,
            changed_tokens: c as u64 / 4,
        };
        assert!(cache_sentence(&cache(0, 4000), "o200k").starts_with("nothing stays cached"));
        assert_eq!(
            cache_sentence(&cache(1200, 400), "o200k"),
            "the first 1,200 bytes (300 o200k tokens) stay cached; the remaining 400 bytes (100 o200k tokens) are sent uncached"
        );
        assert!(cache_sentence(&cache(1200, 0), "o200k").starts_with("all 1,200 bytes"));
    }

    #[test]
    fn legend_names_only_the_symbols_used() {
        assert_eq!(legend("-a␍\n+a\n"), Some("␍ carriage return".to_owned()));
        assert_eq!(legend("-a\n+b\n"), None);
    }
}
