//! `discloser suggest`: a starter set chosen from real usage (cost model:
//! [`crate::runtime::suggest`]).

use std::io::Write;
use std::path::Path;

use anyhow::Context as _;

use super::{Outcome, load};
use crate::args::{Globals, SuggestArgs};
use crate::numfmt::thousands;
use crate::report::runtime as report;
use crate::runtime::suggest::{SuggestOptions, WrittenProfile, suggest};
use crate::runtime::trigger_words::{TriggerReport, suggest_triggers};
use crate::runtime::write_profile::write_profile;
use crate::runtime::{Format, Runtime};

/// Suggests the starter set, prints why, and writes it when asked.
pub fn run(
    globals: &Globals,
    args: &SuggestArgs,
    cwd: &Path,
    out: &mut dyn Write,
) -> anyhow::Result<Outcome> {
    let project = load(globals, &[], cwd)?;
    project.profile(&args.profile)?;
    if args.from_text {
        let text = from_text(&project, args.limit, args.format);
        out.write_all(text.as_bytes())?;
        return Ok(Outcome::Ok);
    }
    let trace = super::trace::read_traces(&args.traces, cwd)?;
    let runtime = Runtime::new(&project);
    if args.triggers {
        let report = suggest_triggers(&runtime, &trace, args.limit);
        if report.turns_with_message == 0 {
            anyhow::bail!(
                "no turn of the trace records the user's message (`user`): trigger words are drawn from it"
            );
        }
        if let Some(path) = &args.write_triggers {
            match crate::fsutil::write_atomic_new(&cwd.join(path), trigger_file(&report).as_bytes())
            {
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => anyhow::bail!(
                    "`{}` exists: `--write-triggers` writes a new file only (review and merge by hand, or name another file)",
                    path.display()
                ),
                other => other.with_context(|| format!("cannot write `{}`", path.display()))?,
            }
        }
        let mut text = report::render_trigger_report(&report, args.format);
        if args.write {
            let lists: std::collections::BTreeMap<String, Vec<String>> = report
                .tools
                .iter()
                .filter(|t| !t.candidates.is_empty())
                .map(|t| {
                    let mut words = t.triggers.clone();
                    words.extend(t.candidates.iter().map(|c| c.text.clone()));
                    (t.tool.clone(), words)
                })
                .collect();
            let path = crate::runtime::write_triggers::write_triggers(&project, &lists)?;
            if args.format != Format::Json {
                text.push_str(&format!(
                    "\nwrote the candidates of {} into `overrides:` of `{}`\n",
                    match lists.len() {
                        1 => "1 tool".to_owned(),
                        n => format!("{n} tools"),
                    },
                    path.display()
                ));
            }
        }
        out.write_all(text.as_bytes())?;
        return Ok(Outcome::Ok);
    }
    let options = SuggestOptions {
        profile: args.profile.clone(),
        round_trip: args.round_trip,
        provider: args.provider,
        tokenizer: args.tokenizer,
    };
    let mut suggestion = suggest(&project, &runtime, &trace, &options)?;
    if let Some(name) = &args.write_profile {
        let thin: Vec<String> = suggestion
            .tools
            .iter()
            .filter(|p| p.low_evidence)
            .map(|p| format!("`{}`", p.tool))
            .collect();
        if !thin.is_empty() && !args.force {
            anyhow::bail!(
                "not writing profile `{name}`: the suggestion moves {} on fewer than {} turns of evidence; record more turns, or pass `--force` to write it anyway",
                thin.join(", "),
                crate::runtime::suggest::MIN_EVIDENCE_TURNS
            );
        }
        let (current, suggested) = (&suggestion.sets[0], &suggestion.sets[1]);
        let comment = format!(
            "suggested by `discloser suggest` from {} turns of `{}`: {} expected tokens per turn (was {})",
            suggestion.turns,
            suggestion.profile,
            thousands(suggested.expected_tokens.round() as i64),
            thousands(current.expected_tokens.round() as i64),
        );
        let path = write_profile(&project, name, &suggestion.starter, &comment)?;
        suggestion.written = Some(WrittenProfile {
            name: name.clone(),
            path: path.display().to_string(),
        });
    }
    let files: Vec<String> = args
        .traces
        .iter()
        .map(|f| f.display().to_string())
        .collect();
    out.write_all(report::render_suggestion(&suggestion, &files, args.format).as_bytes())?;
    Ok(Outcome::Ok)
}

/// Candidates from each tool's own text, every tool of the catalog in name order.
fn from_text(project: &crate::project::Project, limit: usize, format: Format) -> String {
    let words =
        crate::runtime::text_candidates::from_text(&project.catalog, project.index_config(), limit);
    report::render_text_candidates(&project.catalog, &words, format)
}

/// A trigger file of the proposals: each tool's triggers today, then its candidates, for a
/// person to prune before adding the file to `triggers:` in `discloser.yaml`.
fn trigger_file(report: &TriggerReport) -> String {
    let mut text = String::from(
        "# Trigger words proposed by `discloser suggest --triggers` from the words users typed.\n\
         # Review each list (keep what users of that tool really say), then add this file to\n\
         # `triggers:` in discloser.yaml. Each list replaces the tool's own triggers.\n",
    );
    for tool in &report.tools {
        if tool.candidates.is_empty() {
            continue;
        }
        let words: Vec<String> = tool
            .triggers
            .iter()
            .cloned()
            .chain(tool.candidates.iter().map(|c| c.text.clone()))
            .map(|w| serde_json::Value::String(w).to_string())
            .collect();
        text.push_str(&format!(
            "{}: [{}]\n",
            serde_json::Value::String(tool.tool.clone()),
            words.join(", ")
        ));
    }
    text
}
