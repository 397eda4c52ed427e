//! `discloser cost`: the cost comparison as a table, Markdown, JSON or CSV, and optionally as
//! an SVG chart (`--chart`).

use std::io::Write;
use std::path::Path;

use anyhow::Context;

use super::{Outcome, for_this_run, load};
use crate::args::{CostArgs, Globals, ReportFormat};
use crate::cost::{ConfigCost, CostOptions, CostReport, Counter, ToolCost, cost};
use crate::numfmt::thousands;

/// Computes and prints the cost report.
pub fn run(
    globals: &Globals,
    args: &CostArgs,
    cwd: &Path,
    out: &mut dyn Write,
) -> anyhow::Result<Outcome> {
    let project = for_this_run(load(globals, &args.paths, cwd)?);
    if !(0.0..=1.0).contains(&args.cache_read_discount) {
        anyhow::bail!(
            "`--cache-read-discount` must be between 0 and 1, got {}",
            args.cache_read_discount
        );
    }
    let options = CostOptions {
        provider: args.provider,
        profiles: args.profile.clone(),
        by_tool: args.by_tool,
        turns: args.turns,
        cache_read_discount: args.cache_read_discount,
    };
    if let Some(path) = &args.chart {
        check_chart_path(path)?;
    }
    let report = cost(project, &Counter::new(args.tokenizer), &options)?;
    if let Some(path) = &args.chart {
        let svg = crate::chart::svg(&report)?;
        crate::fsutil::write_atomic(path, svg.as_bytes())
            .with_context(|| format!("cannot write the chart to `{}`", path.display()))?;
        super::report_written(path, svg.len());
    }
    match args.format {
        ReportFormat::Json => {
            // Serialise first: a closed pipe then surfaces as an io::Error (exit 0).
            let text = serde_json::to_string_pretty(&report)?;
            writeln!(out, "{text}")?;
        }
        ReportFormat::Csv => write_csv(&report, out)?,
        ReportFormat::Table => write_tables(&report, out, false)?,
        ReportFormat::Markdown => write_tables(&report, out, true)?,
    }
    Ok(Outcome::Ok)
}

/// The chart is SVG whatever the name says; a `.png` name would hold SVG text, so refuse it.
fn check_chart_path(path: &Path) -> anyhow::Result<()> {
    let svg = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("svg"));
    if !svg {
        anyhow::bail!(
            "`--chart` writes SVG: name the file `*.svg`, not `{}`",
            path.display()
        );
    }
    Ok(())
}

fn tokens_header(report: &CostReport) -> String {
    format!("tokens ({})", report.tokenizer.label())
}

/// Whether any configuration sends a search tool (its column is shown only then).
fn has_search_tool(report: &CostReport) -> bool {
    report
        .configurations
        .iter()
        .any(|c| c.search_tool.chars > 0)
}

/// `chars / tokens`, the cell of one part.
fn part(size: crate::cost::Size, tokens: u64) -> String {
    format!(
        "{} / {}",
        thousands(size.chars as i64),
        thousands(tokens as i64)
    )
}

fn config_table(report: &CostReport) -> (Vec<String>, Vec<Vec<String>>) {
    let search = has_search_tool(report);
    let mut header: Vec<String> = ["configuration", "bound", "indexed", "definitions", "index"]
        .map(String::from)
        .to_vec();
    if search {
        header.push("search tool".into());
    }
    header.push("total".into());
    header.push("Δ chars vs all bound".into());
    header.push("Δ tokens vs all bound".into());
    if let Some(turns) = report.turns {
        header.push(format!("tokens over {turns} turns"));
    }
    let rows = report
        .configurations
        .iter()
        .map(|c: &ConfigCost| {
            let mut row = vec![
                c.name.clone(),
                c.tools_bound.to_string(),
                c.tools_indexed.to_string(),
                part(c.definitions, c.definition_tokens),
                part(c.index, c.index_tokens),
            ];
            if search {
                row.push(part(c.search_tool, c.search_tool_tokens));
            }
            row.extend([
                part(c.total, c.tokens),
                delta(c.delta_chars, c.delta_chars_percent),
                delta(c.delta_tokens, c.delta_tokens_percent),
            ]);
            if let Some(total) = c.cumulative_tokens {
                row.push(thousands(total as i64));
            }
            row
        })
        .collect();
    (header, rows)
}

fn tool_table(report: &CostReport, tools: &[ToolCost]) -> (Vec<String>, Vec<Vec<String>>) {
    let label = report.tokenizer.label();
    let header = vec![
        "tool".to_owned(),
        "definition chars".to_owned(),
        format!("definition tokens ({label})"),
        "index entry chars".to_owned(),
        format!("index entry tokens ({label})"),
        "definition / entry".to_owned(),
    ];
    let rows = tools
        .iter()
        .map(|t| {
            vec![
                t.name.clone(),
                thousands(t.definition.chars as i64),
                thousands(t.definition_tokens as i64),
                thousands(t.entry.chars as i64),
                thousands(t.entry_tokens as i64),
                format!("{:.1}x", t.ratio),
            ]
        })
        .collect();
    (header, rows)
}

fn write_tables(report: &CostReport, out: &mut dyn Write, markdown: bool) -> anyhow::Result<()> {
    let (header, rows) = config_table(report);
    write_table(out, &header, &rows, markdown)?;
    if let Some(tools) = &report.tools {
        writeln!(out)?;
        let (header, rows) = tool_table(report, tools);
        write_table(out, &header, &rows, markdown)?;
    }
    writeln!(out)?;
    writeln!(out, "{}", footnote(report))?;
    Ok(())
}

fn footnote(report: &CostReport) -> String {
    let mut note = format!(
        "Each part as characters / {}. Definitions serialised as `{}` JSON; characters are Unicode scalar values; tokens: {}.",
        tokens_header(report),
        report.provider.as_str(),
        match report.tokenizer {
            crate::cost::TokenizerKind::O200k => "exact o200k_base counts",
            crate::cost::TokenizerKind::Cl100k => "exact cl100k_base counts",
            crate::cost::TokenizerKind::Chars => "ESTIMATE, characters / 4",
            crate::cost::TokenizerKind::OpenaiFunctions =>
                "ESTIMATE, OpenAI's published per-function overheads (gpt-4o class) on o200k counts",
        }
    );
    if let (Some(turns), Some(discount)) = (report.turns, report.cache_read_discount) {
        note.push_str(&format!(
            " Over {turns} turns, turns after the first pay {discount} of the price for the unchanged (cached) prefix."
        ));
    }
    note
}

fn write_table(
    out: &mut dyn Write,
    header: &[String],
    rows: &[Vec<String>],
    markdown: bool,
) -> anyhow::Result<()> {
    let numbers: Vec<usize> = (1..header.len()).collect();
    crate::table::write(out, header, rows, markdown, &numbers)?;
    Ok(())
}

fn write_csv(report: &CostReport, out: &mut dyn Write) -> anyhow::Result<()> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    match &report.tools {
        Some(tools) => {
            writer.write_record([
                "tool",
                "definition_chars",
                "definition_bytes",
                "definition_tokens",
                "entry_chars",
                "entry_bytes",
                "entry_tokens",
                "ratio",
                "tokenizer",
            ])?;
            for t in tools {
                writer.write_record([
                    t.name.clone(),
                    t.definition.chars.to_string(),
                    t.definition.bytes.to_string(),
                    t.definition_tokens.to_string(),
                    t.entry.chars.to_string(),
                    t.entry.bytes.to_string(),
                    t.entry_tokens.to_string(),
                    t.ratio.to_string(),
                    report.tokenizer.label().to_owned(),
                ])?;
            }
        }
        None => {
            writer.write_record([
                "configuration",
                "tools_bound",
                "tools_indexed",
                "definition_chars",
                "definition_bytes",
                "index_chars",
                "index_bytes",
                "total_chars",
                "total_bytes",
                "tokens",
                "tokenizer",
                "delta_chars",
                "delta_chars_percent",
                "delta_tokens",
                "delta_tokens_percent",
                "cumulative_tokens",
                "definition_tokens",
                "index_tokens",
                "search_tool_chars",
                "search_tool_bytes",
                "search_tool_tokens",
            ])?;
            for c in &report.configurations {
                writer.write_record([
                    c.name.clone(),
                    c.tools_bound.to_string(),
                    c.tools_indexed.to_string(),
                    c.definitions.chars.to_string(),
                    c.definitions.bytes.to_string(),
                    c.index.chars.to_string(),
                    c.index.bytes.to_string(),
                    c.total.chars.to_string(),
                    c.total.bytes.to_string(),
                    c.tokens.to_string(),
                    report.tokenizer.label().to_owned(),
                    c.delta_chars.to_string(),
                    c.delta_chars_percent.to_string(),
                    c.delta_tokens.to_string(),
                    c.delta_tokens_percent.to_string(),
                    c.cumulative_tokens
                        .map(|t| t.to_string())
                        .unwrap_or_default(),
                    c.definition_tokens.to_string(),
                    c.index_tokens.to_string(),
                    c.search_tool.chars.to_string(),
                    c.search_tool.bytes.to_string(),
                    c.search_tool_tokens.to_string(),
                ])?;
            }
        }
    }
    out.write_all(&writer.into_inner()?)?;
    Ok(())
}

fn delta(n: i64, percent: f64) -> String {
    if n == 0 {
        return "0".to_owned();
    }
    let sign = if n > 0 { "+" } else { "" };
    format!("{sign}{} ({sign}{percent:.1}%)", thousands(n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deltas_are_signed_with_separators() {
        assert_eq!(delta(-2288, -43.44), "-2,288 (-43.4%)");
        assert_eq!(delta(12, 1.0), "+12 (+1.0%)");
    }
}
