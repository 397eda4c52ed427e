//! `discloser lint`: the index contract as lint rules.
//!
//! A rule is one file in [`rules`] with a permanent code (`DL001`), a kebab-case name that names
//! the problem, a default severity and docs in the "What it does / Why is this bad? / Example /
//! Use instead" template. A rule only detects: it reports [`Diagnostic`]s pointing into a tool
//! (a JSON pointer relative to the tool) or into the config, and may propose a fix as a change
//! of the value ([`Proposal`]). [`lint`] turns them into positioned [`Finding`]s, resolves the
//! proposals into edits of the files' bytes ([`fix`]), applies selection, severities and
//! per-tool suppressions, and sorts them; the reporters in [`report`] own every output format.
//! Nothing here prints or writes.

// The core's modules under their usual names, so `crate::catalog` reads the same in every
// crate of the workspace.
use discloser_core::{catalog, config, diagnostic, index, project, source};

mod cues;
mod docstring;
pub mod fix;
mod lists;
pub mod report;
pub mod rules;
mod scan;
mod surely_valid;
pub mod text;

use std::path::PathBuf;
use std::sync::OnceLock;

use serde::Serialize;

use crate::config::LintConfig;
use crate::diagnostic::{LoadError, Position};
use crate::index::{Entry, build_entries_then};
use crate::project::Project;
use crate::source::Target;

pub use fix::{Applicability, Edit, Fix, FixTarget, Proposal, Proposed};
pub use rules::{RULES, Rule};

/// From how many tools [`lint`] runs its rules on several threads (2 cores, synthetic
/// catalogs: the same time either way at 128 tools, 8% less on threads at 512, 6% at 2,000;
/// on the 13-tool example the threads cost 0.2 ms of a 3.9 ms run).
const PARALLEL_RULES_FROM: usize = 256;

/// How serious a finding is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Fails `lint` (exit 1).
    Error,
    /// Reported; fails `lint` only under `--deny warnings`.
    Warning,
}

impl Severity {
    /// `error` or `warning`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// Where a diagnostic points.
#[derive(Clone, Debug)]
pub enum At {
    /// A JSON pointer relative to the tool (`""` is the tool itself, `/name`, `/parameters/...`).
    Tool(usize, String),
    /// A key (not its value) relative to the tool.
    ToolKey(usize, String),
    /// A JSON pointer into the config file.
    Config(String),
    /// An already positioned load problem (from a lenient project load).
    Problem(LoadError),
}

/// What a rule reports.
#[derive(Clone, Debug)]
pub struct Diagnostic {
    /// Where.
    pub at: At,
    /// The message: lowercase, no trailing period, values in backticks.
    pub message: String,
    /// An optional fix suggestion.
    pub help: Option<String>,
    /// A machine-readable fix, when the rule knows one (resolved by [`lint`] into a [`Fix`]).
    pub fix: Option<Proposal>,
}

impl Diagnostic {
    /// A diagnostic at a pointer relative to tool `tool`.
    pub fn tool(tool: usize, pointer: impl Into<String>, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            at: At::Tool(tool, pointer.into()),
            message: message.into(),
            help: None,
            fix: None,
        }
    }

    /// Adds a help line.
    #[must_use]
    pub fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(help.into());
        self
    }

    /// Adds a fix proposal.
    #[must_use]
    pub fn with_fix(mut self, fix: Proposal) -> Diagnostic {
        self.fix = Some(fix);
        self
    }
}

/// A positioned, rule-attributed problem.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// The rule's permanent code (`DL001`).
    pub code: &'static str,
    /// The rule's name (`missing-triggers`).
    pub rule: &'static str,
    /// Effective severity.
    pub severity: Severity,
    /// The tool concerned, if any.
    pub tool: Option<String>,
    /// The file at fault, as shown to the user.
    pub path: PathBuf,
    /// 1-based line, when known.
    pub line: Option<usize>,
    /// 1-based column in characters, when known.
    pub column: Option<usize>,
    /// JSON pointer into the file (`""` when the finding concerns a whole tool file).
    pub pointer: String,
    /// What is wrong.
    pub message: String,
    /// How to fix it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub help: Option<String>,
    /// Machine-readable fixes (edits of the file's bytes), when the rule has one.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub fixes: Vec<Fix>,
    /// The offending source line, for snippets: at most [`SNIPPET_CONTEXT`] characters on each
    /// side of the column, `…` marking a cut.
    #[serde(skip)]
    pub source_line: Option<String>,
    /// The 1-based column of the finding inside `source_line` (`column` unless the line was cut).
    #[serde(skip)]
    pub source_column: Option<usize>,
}

/// Characters of a long source line kept on each side of a finding's column (a line of at most
/// twice this is kept whole). A minified JSON file is one huge line: copying all of it into
/// every finding (and rendering it in every snippet) made `lint` quadratic, 19 s for 1,000
/// tools in 0.7 MB of minified JSON.
pub const SNIPPET_CONTEXT: usize = 200;

/// The part of `line` around the 1-based character column `col`, and `col` inside that part.
fn snippet(line: &str, col: usize) -> (String, usize) {
    let total = line.chars().count();
    if total <= 2 * SNIPPET_CONTEXT {
        return (line.to_owned(), col);
    }
    let first = col
        .saturating_sub(1)
        .saturating_sub(SNIPPET_CONTEXT)
        .min(total);
    let last = (col.saturating_sub(1) + SNIPPET_CONTEXT).min(total);
    if first == 0 && last == total {
        return (line.to_owned(), col);
    }
    let mut text = String::new();
    if first > 0 {
        text.push('…');
    }
    text.extend(line.chars().skip(first).take(last - first));
    if last < total {
        text.push('…');
    }
    (text, col - first + usize::from(first > 0))
}

/// Rule selection and limits, from `discloser.yaml` and the command line.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Rules to run (codes or names; empty = all).
    pub select: Vec<String>,
    /// Rules not to run.
    pub ignore: Vec<String>,
    /// Severity overrides by code or name.
    pub severity: Vec<(String, Severity)>,
    /// Description lengths at which clients cut descriptions.
    pub description_limits: Vec<(usize, &'static str)>,
    /// Every tool of the index must have trigger words (`lint.require_triggers`).
    pub require_triggers: bool,
}

/// Client limits on description length checked when the config names none: none. A blind
/// review of the findings at OpenAI's 1,024 and Claude Code's 2,048 characters on the shared
/// corpora agreed with half of them (the text past the cut was mostly examples, return-value
/// lists and boilerplate), so the check runs only for the limits a project sets
/// (`lint.description_limits`).
pub const DEFAULT_DESCRIPTION_LIMITS: [(usize, &str); 0] = [];

impl Settings {
    /// Settings from the config's `lint:` section (severity names already validated).
    pub fn from_config(config: &LintConfig) -> Result<Settings, String> {
        let mut severity = Vec::new();
        for (rule, level) in &config.severity {
            let level = match level.as_str() {
                "error" => Severity::Error,
                "warning" => Severity::Warning,
                other => {
                    return Err(format!(
                        "`lint.severity.{rule}` must be `error` or `warning`, found `{other}`"
                    ));
                }
            };
            severity.push((rule.clone(), level));
        }
        let settings = Settings {
            select: config.select.clone(),
            ignore: config.ignore.clone(),
            severity,
            description_limits: match &config.description_limits {
                Some(limits) => limits.iter().map(|&l| (l, "configured")).collect(),
                None => DEFAULT_DESCRIPTION_LIMITS.to_vec(),
            },
            require_triggers: config.require_triggers,
        };
        for code in settings
            .select
            .iter()
            .chain(&settings.ignore)
            .chain(settings.severity.iter().map(|(c, _)| c))
        {
            if rules::find(code).is_none() {
                return Err(rules::unknown(code));
            }
        }
        Ok(settings)
    }

    fn enabled(&self, rule: &Rule) -> bool {
        let named = |list: &[String]| list.iter().any(|c| rule.is(c));
        (self.select.is_empty() || named(&self.select)) && !named(&self.ignore)
    }

    fn severity_of(&self, rule: &Rule) -> Severity {
        self.severity
            .iter()
            .rev()
            .find(|(c, _)| rule.is(c))
            .map_or(rule.severity, |(_, s)| *s)
    }
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            select: Vec::new(),
            ignore: Vec::new(),
            severity: Vec::new(),
            description_limits: DEFAULT_DESCRIPTION_LIMITS.to_vec(),
            require_triggers: false,
        }
    }
}

/// What rules look at: the project and each tool's index entry, computed once.
pub struct Context<'a> {
    /// The project (catalog, config, profiles).
    pub project: &'a Project,
    /// The settings in force.
    pub settings: &'a Settings,
    /// The index entries, built by the first rule that reads them ([`Context::entries`]) and
    /// freed once the rules have run.
    entries: OnceLock<Vec<Entry>>,
    /// Per tool: whether some profile leaves it unbound (so it appears in an index).
    indexable: Vec<bool>,
}

impl Context<'_> {
    /// Whether a tool can appear in some index: not core, and not bound in every profile.
    pub fn can_be_indexed(&self, tool: usize) -> bool {
        self.indexable[tool]
    }

    /// The index entry of every tool, by catalog index, as far as the rules read it: without
    /// its `signature` and `line` (empty), and with a required parameter's closed set only
    /// when it has more than `max_enum_values` values (what `large-enum` reports; no other
    /// rule reads the sets). Built on the first call, so a run whose rules read no entry
    /// builds none (100,000 tools' whole entries take about 120 MB).
    pub fn entries(&self) -> &[Entry] {
        self.entries.get_or_init(|| {
            let config = self.project.index_config();
            let max = config.max_enum_values;
            build_entries_then(&self.project.catalog, config, |mut entry| {
                entry.signature = String::new();
                entry.line = String::new();
                for param in &mut entry.required {
                    if param.values.as_ref().is_some_and(|v| v.len() <= max) {
                        param.values = None;
                    }
                }
                entry
            })
        })
    }
}

/// Runs every enabled rule over the project and returns sorted findings.
pub fn lint(project: &Project, settings: &Settings) -> Vec<Finding> {
    let profiles: Vec<_> = project
        .profile_names()
        .iter()
        .filter_map(|n| project.profile(n).ok())
        .collect();
    let indexable = project
        .catalog
        .tools
        .iter()
        .map(|t| !t.core && profiles.iter().any(|p| !p.is_bound(&t.name)))
        .collect();
    let mut ctx = Context {
        project,
        settings,
        entries: OnceLock::new(),
        indexable,
    };
    // Rules are independent: each runs on its own thread when there are cores to spare.
    let mut enabled: Vec<&Rule> = RULES
        .iter()
        .copied()
        .filter(|r| settings.enabled(r))
        .collect();
    // The rules run on a queue shared by the threads: the costly ones (`Cost::Heavy`, the list
    // judge of `untyped-enum`) start first, and the others fill in beside them. Findings are
    // sorted below.
    enabled.sort_by_key(|r| r.cost);
    let catalog = &project.catalog;
    let check = |rule: &'static Rule| {
        let mut diagnostics = Vec::new();
        (rule.check)(&ctx, &mut diagnostics);
        // In place, and no more room kept than they take: one rule may report 183,000
        // diagnostics (40 MB), and they are kept until every rule has run.
        diagnostics.retain(|d| match &d.at {
            At::Tool(i, _) | At::ToolKey(i, _) => {
                !catalog.tools[*i].lint_ignore.iter().any(|c| rule.is(c))
            }
            At::Config(_) | At::Problem(_) => true,
        });
        diagnostics.shrink_to_fit();
        (rule, diagnostics)
    };
    // A small catalog is checked on this thread: starting threads, and their page faults on
    // a shared address space, cost more than the rules they would share.
    let per_rule: Vec<_> = if catalog.tools.len() < PARALLEL_RULES_FROM {
        enabled.into_iter().map(check).collect()
    } else {
        crate::catalog::parallel::map_coarse(enabled, check)
    };
    // Only the rules read the entries: they are freed before the findings are made.
    ctx.entries = OnceLock::new();
    let config = OnceLock::new();
    let (mut findings, seqs, mut proposals) = findings_of(&ctx, &config, per_rule);
    if !proposals.is_empty() {
        // In the order the rules proposed them, which decides between overlapping fixes.
        proposals.sort_by_key(|(i, _)| seqs[*i]);
        fix::resolve(&ctx, &config, &mut findings, proposals);
    }
    // Sorted by their indexes, ties in the order the rules reported them, then moved into
    // place: no second list of the findings (a stable sort's scratch would be half of them).
    let mut order: Vec<usize> = (0..findings.len()).collect();
    order.sort_unstable_by(|&a, &b| {
        let (fa, fb) = (&findings[a], &findings[b]);
        (&fa.path, fa.line, fa.column, fa.code, &fa.message, seqs[a]).cmp(&(
            &fb.path,
            fb.line,
            fb.column,
            fb.code,
            &fb.message,
            seqs[b],
        ))
    });
    crate::catalog::apply_order(&mut findings, order);
    findings.dedup();
    findings
}

/// Files whose findings are made at once (in parallel) before they join the others.
const FILES_AT_ONCE: usize = 64;

/// The rules' diagnostics as findings, in file order (the config's and the load problems'
/// last); each finding's place in the rules' order (the rules', each rule's diagnostics in the
/// order it reported them); and the fixes proposed, by finding index.
///
/// Each file's diagnostics are positioned together (one parse of the file's positions, one
/// pass for its line starts, both freed after), a batch of files at a time, and each
/// diagnostic is consumed as its finding is made: a large catalog's findings never coexist
/// with all of its diagnostics, nor with a second list of themselves.
fn findings_of(
    ctx: &Context<'_>,
    config: &OnceLock<crate::source::SourceFile>,
    per_rule: Vec<(&'static Rule, Vec<Diagnostic>)>,
) -> (Vec<Finding>, Vec<usize>, Vec<(usize, Proposal)>) {
    let catalog = &ctx.project.catalog;
    // The group of a diagnostic: its tool's file, or one past the files.
    let group_of = |d: &Diagnostic| match &d.at {
        At::Tool(i, _) | At::ToolKey(i, _) => catalog.tools[*i].origin.file,
        At::Config(_) | At::Problem(_) => catalog.files.len(),
    };
    let mut sizes = vec![0; catalog.files.len() + 1];
    for d in per_rule.iter().flat_map(|(_, diagnostics)| diagnostics) {
        sizes[group_of(d)] += 1;
    }
    let total = sizes.iter().sum();
    let mut groups: Vec<Vec<Numbered>> = sizes.into_iter().map(Vec::with_capacity).collect();
    let numbered = per_rule
        .into_iter()
        .flat_map(|(rule, diagnostics)| diagnostics.into_iter().map(move |d| (rule, d)));
    for (seq, (rule, d)) in numbered.enumerate() {
        groups[group_of(&d)].push((seq, rule, d));
    }
    let mut findings = Vec::with_capacity(total);
    let mut seqs = Vec::with_capacity(total);
    let mut proposals = Vec::new();
    let mut groups = groups
        .into_iter()
        .enumerate()
        .filter(|(_, g)| !g.is_empty());
    loop {
        let batch: Vec<_> = groups.by_ref().take(FILES_AT_ONCE).collect();
        if batch.is_empty() {
            break;
        }
        let made = crate::catalog::parallel::map(batch, |(group, diagnostics)| {
            if group < catalog.files.len() {
                file_findings(ctx, group, diagnostics)
            } else {
                diagnostics
                    .into_iter()
                    .map(|(seq, rule, mut d)| {
                        let proposal = d.fix.take();
                        let severity = ctx.settings.severity_of(rule);
                        let place = place_elsewhere(ctx, config, &d);
                        (seq, finding(rule, severity, d, place), proposal)
                    })
                    .collect()
            }
        });
        for (seq, finding, proposal) in made.into_iter().flatten() {
            if let Some(proposal) = proposal {
                proposals.push((findings.len(), proposal));
            }
            findings.push(finding);
            seqs.push(seq);
        }
    }
    (findings, seqs, proposals)
}

/// A diagnostic with its rule and its place in the rules' order.
type Numbered = (usize, &'static Rule, Diagnostic);

/// A finding with its place in the rules' order and the fix its rule proposed.
type Made = (usize, Finding, Option<Proposal>);

/// The findings of the diagnostics of tools of catalog file `file`, with their proposals.
fn file_findings(ctx: &Context<'_>, file: usize, diagnostics: Vec<Numbered>) -> Vec<Made> {
    let catalog = &ctx.project.catalog;
    let source = &catalog.files[file];
    let requests: Vec<(String, Target)> = diagnostics
        .iter()
        .map(|(_, _, d)| match &d.at {
            At::Tool(i, suffix) => (catalog.tools[*i].origin.pointer_to(suffix), Target::Value),
            At::ToolKey(i, suffix) => (catalog.tools[*i].origin.pointer_to(suffix), Target::Key),
            At::Config(_) | At::Problem(_) => unreachable!("only tool diagnostics have a file"),
        })
        .collect();
    let positions = source.locate_all(requests.iter().map(|(p, t)| (p.as_str(), *t)));
    let lines = source.lines();
    diagnostics
        .into_iter()
        .zip(requests)
        .zip(positions)
        .map(|(((seq, rule, mut d), (pointer, _)), pos)| {
            let proposal = d.fix.take();
            let severity = ctx.settings.severity_of(rule);
            let tool = match &d.at {
                At::Tool(i, _) | At::ToolKey(i, _) => &catalog.tools[*i],
                At::Config(_) | At::Problem(_) => unreachable!("only tool diagnostics have a file"),
            };
            let place = Place {
                tool: Some(tool.name.clone()),
                path: source.path.clone(),
                pos: Some(pos),
                pointer,
                // In the window's time, not the line's: one minified line may hold every
                // finding.
                window: lines.window(pos.line, pos.col, SNIPPET_CONTEXT),
            };
            (seq, finding(rule, severity, d, place), proposal)
        })
        .collect()
}

/// The config file as it is on disk, read once for all config findings and fixes (empty when
/// it cannot be read, or is not UTF-8).
fn config_source<'a>(
    ctx: &Context<'_>,
    config: &'a std::sync::OnceLock<crate::source::SourceFile>,
) -> &'a crate::source::SourceFile {
    config.get_or_init(|| {
        let path = &ctx.project.config_path;
        std::fs::read(path)
            .ok()
            .and_then(|bytes| crate::source::SourceFile::from_bytes(bytes, path.clone()).ok())
            .unwrap_or_else(|| crate::source::SourceFile::from_text(String::new(), path.clone()))
    })
}

/// Where a finding is: what [`finding`] adds to a diagnostic.
struct Place {
    tool: Option<String>,
    path: PathBuf,
    pos: Option<Position>,
    /// JSON pointer into the file.
    pointer: String,
    /// The source line's window around the column, and the column inside it.
    window: Option<(String, usize)>,
}

/// The place of a diagnostic that is not a tool's (the config's, a load problem's); `config` is
/// the config file, read once for all config findings.
fn place_elsewhere(
    ctx: &Context<'_>,
    config: &OnceLock<crate::source::SourceFile>,
    d: &Diagnostic,
) -> Place {
    match &d.at {
        At::Config(pointer) => {
            let file = config_source(ctx, config);
            let pos = file.locate(pointer, Target::Value);
            Place {
                tool: None,
                path: ctx.project.config_path.clone(),
                pos: Some(pos),
                pointer: pointer.clone(),
                window: file.line_text(pos.line).map(|l| snippet(l, pos.col)),
            }
        }
        At::Problem(e) => Place {
            tool: None,
            path: e.path.clone(),
            pos: e.position,
            pointer: String::new(),
            window: e
                .source_line
                .as_deref()
                .zip(e.position)
                .map(|(l, p)| snippet(l, p.col)),
        },
        At::Tool(..) | At::ToolKey(..) => {
            unreachable!("a tool diagnostic is placed with its file's others")
        }
    }
}

/// A diagnostic at its place.
fn finding(rule: &Rule, severity: Severity, d: Diagnostic, place: Place) -> Finding {
    let (source_line, source_column) = place.window.unzip();
    Finding {
        code: rule.code,
        rule: rule.name,
        severity,
        tool: place.tool,
        path: place.path,
        line: place.pos.map(|p| p.line),
        column: place.pos.map(|p| p.col),
        pointer: place.pointer,
        message: d.message,
        help: d.help,
        fixes: Vec::new(),
        source_line,
        source_column,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snippet_of_a_short_line_is_the_line() {
        assert_eq!(snippet("  name: x", 3), ("  name: x".to_owned(), 3));
    }

    #[test]
    fn snippet_of_a_huge_line_keeps_the_column_inside_a_window() {
        let line = format!("{}X{}", "a".repeat(5_000), "é".repeat(5_000));
        let (text, col) = snippet(&line, 5_001);
        assert_eq!(text.chars().count(), 2 * SNIPPET_CONTEXT + 2);
        assert_eq!(text.chars().nth(col - 1), Some('X'));
        assert!(text.starts_with('…') && text.ends_with('…'));
        let (text, col) = snippet(&line, 1);
        assert_eq!(text.chars().next(), Some('a'));
        assert_eq!(col, 1);
        let (_, col) = snippet("abc", 9);
        assert_eq!(col, 9);
    }
}
