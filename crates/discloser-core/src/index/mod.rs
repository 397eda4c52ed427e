//! The index: one line per tool that is not bound in a profile, rendered byte-stably.
//!
//! An entry is `- signature [triggers] summary`: the signature with every required parameter and
//! its closed set ([`signature`]), the trigger words sorted shorter first ([`triggers`]), and a
//! summary packed from whole sentences ([`summary`]). The output is a prompt prefix, so it is
//! the same bytes for the same catalog: entries sorted by name, NFC text, `\n` line endings, one
//! trailing newline, no trailing spaces, and nothing from the environment (paths, times,
//! versions).

pub mod line;
mod sentence_bounds;
pub mod signature;
pub mod summary;
pub mod triggers;

use serde::Serialize;

use crate::catalog::Catalog;
use crate::config::IndexConfig;
use crate::project::Profile;

pub use signature::{Param, Signature};
pub use summary::{Summary, pack_summary};
pub use triggers::{normalize_trigger, normalize_triggers};

/// Output styles of `render`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum Style {
    /// Plain text lines, as injected into a system prompt.
    Text,
    /// Markdown: the header as a paragraph, entries as a list with code-formatted signatures.
    Markdown,
    /// The structured entries as JSON, for runtimes that assemble their own prompt.
    Json,
}

/// One index entry.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Entry {
    /// The tool name.
    pub name: String,
    /// The rendered signature (`name(kind: a|b, …)`).
    pub signature: String,
    /// Required parameters with their spelled types and closed sets.
    pub required: Vec<Param>,
    /// The tool also takes optional parameters.
    pub has_optional: bool,
    /// Normalised, sorted trigger words.
    pub triggers: Vec<String>,
    /// The packed summary.
    pub summary: String,
    /// The description's first sentence alone exceeds the budget (used whole).
    pub summary_over_budget: bool,
    /// The budget the summary was packed under.
    pub summary_budget: usize,
    /// Whether the summary left sentences of the description out (not in the JSON style; lint
    /// reads it instead of packing the summary a second time).
    #[serde(skip)]
    pub summary_dropped_sentences: bool,
    /// The entry as a text line (without the newline).
    pub line: String,
}

/// A problem noticed while building the index; the index is still produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    /// The tool concerned.
    pub tool: String,
    /// What is wrong.
    pub message: String,
}

/// The index of one profile.
#[derive(Clone, Debug, PartialEq)]
pub struct Index {
    /// The header text (NFC, trimmed lines).
    pub header: String,
    /// Tools bound in the profile, sorted.
    pub bound: Vec<String>,
    /// Entries for the unbound tools, sorted by name.
    pub entries: Vec<Entry>,
    /// Problems worth telling the user about (e.g. a first sentence over budget).
    pub warnings: Vec<Warning>,
}

/// Builds the index of `profile`: an entry for every tool the profile does not bind.
pub fn build_index(catalog: &Catalog, profile: &Profile, config: &IndexConfig) -> Index {
    let unbound = unbound(catalog, profile);
    // Entries are independent: built in parallel, collected in catalog order.
    let entries =
        crate::catalog::parallel::map(unbound.clone(), |i| entry_with_config(catalog, i, config));
    assemble(catalog, profile, config, &unbound, entries)
}

/// The entry of every tool of the catalog, in catalog order (built in parallel).
pub fn build_entries(catalog: &Catalog, config: &IndexConfig) -> Vec<Entry> {
    let all: Vec<usize> = (0..catalog.tools.len()).collect();
    crate::catalog::parallel::map(all, |i| entry_with_config(catalog, i, config))
}

/// Tools per batch when entries are built and dropped batch by batch: enough to amortise a
/// batch, few enough to spread over the threads.
const BATCH: usize = 256;

/// Every tool's text-style line, in catalog order, and whether its entry has triggers: what
/// the text style of any profile's index is made of, so several profiles' indexes are measured
/// and counted ([`Lines::parts`]) without packing each summary again. Built in parallel
/// batches, each entry turned into its line at once and dropped: a line is about a tenth of
/// the memory of its entry (which keeps its closed sets as values).
pub struct Lines {
    lines: Vec<Box<str>>,
    triggers: Vec<bool>,
}

impl Lines {
    /// The lines of every tool of `catalog`.
    pub fn build(catalog: &Catalog, config: &IndexConfig) -> Lines {
        let all: Vec<usize> = (0..catalog.tools.len()).collect();
        let batches: Vec<&[usize]> = all.chunks(BATCH).collect();
        let parts = crate::catalog::parallel::map_coarse(batches, |batch| {
            batch
                .iter()
                .map(|&i| {
                    let entry = entry_with_config(catalog, i, config);
                    (entry.line.into_boxed_str(), !entry.triggers.is_empty())
                })
                .collect::<Vec<_>>()
        });
        let (lines, triggers) = parts.into_iter().flatten().unzip();
        Lines { lines, triggers }
    }

    /// The line of the tool at `index` of the catalog (without its newline).
    pub fn line(&self, index: usize) -> &str {
        &self.lines[index]
    }

    /// The text style's index of `profile` in parts, for these lines (built with the same
    /// catalog and config): its header (empty when there is none) and the catalog indices of
    /// its entries, whose lines ([`Lines::line`]) follow it. The index's text is each part
    /// (the header only when there is one) followed by a line feed:
    /// `render(&build_index(catalog, profile, config), Style::Text)`, the same bytes.
    pub fn parts(
        &self,
        catalog: &Catalog,
        profile: &Profile,
        config: &IndexConfig,
    ) -> (String, Vec<usize>) {
        let unbound = unbound(catalog, profile);
        let any_triggers = unbound.iter().any(|&i| self.triggers[i]);
        (clean_header(header_text(config, any_triggers)), unbound)
    }
}

/// `render(&build_index(catalog, profile, config), style)` as pieces to write one after the
/// other, and the index's warnings, without holding every entry: for the text and Markdown
/// styles, entries are built in parallel batches, each turned into its lines at once and
/// dropped (an entry keeps its closed sets as values, and took more memory than the tool's
/// packed schema). The pieces joined are the same bytes, and the warnings the same.
pub fn render_index(
    catalog: &Catalog,
    profile: &Profile,
    config: &IndexConfig,
    style: Style,
) -> (Vec<String>, Vec<Warning>) {
    if style == Style::Json {
        let index = build_index(catalog, profile, config);
        return (vec![render(&index, style)], index.warnings);
    }
    let unbound = unbound(catalog, profile);
    let batches: Vec<&[usize]> = unbound.chunks(BATCH).collect();
    let parts = crate::catalog::parallel::map_coarse(batches, |batch| {
        let mut lines = String::new();
        let mut triggers = false;
        let mut warnings = Vec::new();
        for &i in batch {
            let entry = entry_with_config(catalog, i, config);
            if let Some(warning) = over_budget(catalog, i, &entry) {
                warnings.push(warning);
            }
            triggers |= !entry.triggers.is_empty();
            match style {
                Style::Markdown => lines.push_str(&line::render(
                    &code_span(&entry.signature),
                    &entry.triggers,
                    &entry.summary,
                )),
                _ => lines.push_str(&entry.line),
            }
            lines.push('\n');
        }
        (lines, triggers, warnings)
    });
    let any_triggers = parts.iter().any(|(_, triggers, _)| *triggers);
    let header = clean_header(header_text(config, any_triggers));
    let mut out = Vec::with_capacity(parts.len() + 1);
    if !header.is_empty() {
        // An empty Markdown index ends after its header, with one newline.
        let end = match style {
            Style::Markdown if !unbound.is_empty() => "\n\n",
            _ => "\n",
        };
        out.push(header + end);
    }
    let mut warnings = Vec::new();
    for (lines, _, found) in parts {
        out.push(lines);
        warnings.extend(found);
    }
    (out, warnings)
}

/// The warning for an entry whose first sentence is over its budget.
fn over_budget(catalog: &Catalog, i: usize, entry: &Entry) -> Option<Warning> {
    entry.summary_over_budget.then(|| Warning {
        tool: catalog.tools[i].name.clone(),
        message: format!(
            "the first sentence of the description is {} characters, over the summary budget of {}; it is used whole",
            entry.summary.chars().count(),
            entry.summary_budget
        ),
    })
}

/// The configured header, except that the default one's sentence about `[brackets]` goes
/// when no entry has any.
fn header_text(config: &IndexConfig, any_triggers: bool) -> &str {
    if config.header == crate::config::DEFAULT_HEADER && !any_triggers {
        crate::config::DEFAULT_HEADER_WITHOUT_TRIGGERS
    } else {
        config.header.as_str()
    }
}

/// Catalog indices of the tools `profile` does not bind.
fn unbound(catalog: &Catalog, profile: &Profile) -> Vec<usize> {
    (0..catalog.tools.len())
        .filter(|&i| !profile.is_bound(&catalog.tools[i].name))
        .collect()
}

/// The entry of the tool at `i` of the catalog, with the tool's own summary budget, or the
/// index's.
pub fn entry_with_config(catalog: &Catalog, i: usize, config: &IndexConfig) -> Entry {
    let budget = catalog.tools[i]
        .summary_budget
        .unwrap_or(config.summary_budget);
    build_entry(catalog, i, budget, config.max_enum_values)
}

fn assemble(
    catalog: &Catalog,
    profile: &Profile,
    config: &IndexConfig,
    unbound: &[usize],
    entries: Vec<Entry>,
) -> Index {
    let warnings = unbound
        .iter()
        .zip(&entries)
        .filter_map(|(&i, entry)| over_budget(catalog, i, entry))
        .collect();
    // The default header's sentence about `[brackets]` explains nothing when no entry has any.
    let any_triggers = entries.iter().any(|e| !e.triggers.is_empty());
    Index {
        header: clean_header(header_text(config, any_triggers)),
        bound: profile.bound.iter().cloned().collect(),
        entries,
        warnings,
    }
}

/// Builds the entry of the tool at `index` of the catalog.
pub fn build_entry(
    catalog: &Catalog,
    index: usize,
    budget: usize,
    max_enum_values: usize,
) -> Entry {
    let tool = &catalog.tools[index];
    let name = nfc(&tool.name);
    // The schema unpacked for this entry only, as far as a signature reads (see
    // `catalog::Parameters`): the index of a large catalog never holds every schema parsed.
    let sig = tool.parameters.with_required(|root| {
        let root = crate::catalog::Schema {
            doc: crate::catalog::DocId::Tool(index),
            value: root,
        };
        signature::signature(catalog, &name, root, max_enum_values)
    });
    let signature = nfc(&sig.render());
    let triggers = normalize_triggers(&tool.triggers);
    let summary = pack_summary(&tool.description, budget);
    let line = line::render(&signature, &triggers, &summary.text);
    Entry {
        name,
        signature,
        required: sig.required,
        has_optional: sig.has_optional,
        triggers,
        summary: summary.text,
        summary_over_budget: summary.over_budget,
        summary_budget: budget,
        summary_dropped_sentences: summary.dropped,
        line,
    }
}

/// Renders the index in a style. Every style ends with exactly one newline; an index with no
/// entries and no header renders as empty text.
pub fn render(index: &Index, style: Style) -> String {
    match style {
        Style::Text => render_text(index),
        Style::Markdown => render_markdown(index),
        Style::Json => render_json(index),
    }
}

fn render_text(index: &Index) -> String {
    let mut out = String::new();
    if !index.header.is_empty() {
        out.push_str(&index.header);
        out.push('\n');
    }
    for entry in &index.entries {
        out.push_str(&entry.line);
        out.push('\n');
    }
    out
}

fn render_markdown(index: &Index) -> String {
    let mut out = String::new();
    if !index.header.is_empty() {
        out.push_str(&index.header);
        out.push_str("\n\n");
    }
    for entry in &index.entries {
        // The text style's line with the signature as code.
        let shown = code_span(&entry.signature);
        out.push_str(&line::render(&shown, &entry.triggers, &entry.summary));
        out.push('\n');
    }
    if index.entries.is_empty() && out.ends_with("\n\n") {
        out.pop();
    }
    out
}

#[derive(Serialize)]
struct JsonIndex<'a> {
    header: &'a str,
    bound: &'a [String],
    entries: &'a [Entry],
}

fn render_json(index: &Index) -> String {
    let doc = JsonIndex {
        header: &index.header,
        bound: &index.bound,
        entries: &index.entries,
    };
    let mut out = serde_json::to_string_pretty(&doc)
        .expect("the index serialises: it holds only strings, numbers and lists");
    out.push('\n');
    out
}

/// A Markdown code span that survives backticks inside the text.
fn code_span(text: &str) -> String {
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    let pad = if text.starts_with('`') || text.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{text}{pad}{fence}")
}

fn nfc(text: &str) -> String {
    summary::nfc(text).into_owned()
}

/// The header in NFC with `\n` line endings, trailing spaces removed and no blank edges.
fn clean_header(header: &str) -> String {
    let text = nfc(&header.replace("\r\n", "\n").replace('\r', "\n"));
    let lines: Vec<&str> = text.lines().map(str::trim_end).collect();
    lines.join("\n").trim_matches('\n').to_owned()
}
