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

use serde::Serialize;

use crate::config::LintConfig;
use crate::diagnostic::{LoadError, Position};
use crate::index::{Entry, build_entries};
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
    /// The index entry of every tool, by catalog index, for the rules (emptied once they have
    /// run).
    pub entries: Vec<Entry>,
    /// The settings in force.
    pub settings: &'a Settings,
    /// Per tool: whether some profile leaves it unbound (so it appears in an index).
    indexable: Vec<bool>,
}

impl Context<'_> {
    /// Whether a tool can appear in some index: not core, and not bound in every profile.
    pub fn can_be_indexed(&self, tool: usize) -> bool {
        self.indexable[tool]
    }
}

/// Runs every enabled rule over the project and returns sorted findings.
pub fn lint(project: &Project, settings: &Settings) -> Vec<Finding> {
    let entries = build_entries(&project.catalog, project.index_config());
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
        entries,
        settings,
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
        diagnostics
            .into_iter()
            .filter(|d| match &d.at {
                At::Tool(i, _) | At::ToolKey(i, _) => {
                    !catalog.tools[*i].lint_ignore.iter().any(|c| rule.is(c))
                }
                At::Config(_) | At::Problem(_) => true,
            })
            .map(|d| (rule, d))
            .collect::<Vec<_>>()
    };
    // A small catalog is checked on this thread: starting threads, and their page faults on
    // a shared address space, cost more than the rules they would share.
    let per_rule: Vec<_> = if catalog.tools.len() < PARALLEL_RULES_FROM {
        enabled.into_iter().map(check).collect()
    } else {
        crate::catalog::parallel::map_coarse(enabled, check)
    };
    let diagnostics: Vec<(&Rule, Diagnostic)> = per_rule.into_iter().flatten().collect();
    // Only the rules read the entries: they are freed before the findings are made (100,000
    // tools' entries take about 120 MB).
    ctx.entries = Vec::new();
    // Positions are found file by file (one parse of each file's positions, freed after), not
    // finding by finding: a large catalog's findings touch every file.
    let requests: Vec<(usize, String, Target)> = diagnostics
        .iter()
        .filter_map(|(_, d)| match &d.at {
            At::Tool(i, suffix) => Some((i, suffix, Target::Value)),
            At::ToolKey(i, suffix) => Some((i, suffix, Target::Key)),
            At::Config(_) | At::Problem(_) => None,
        })
        .map(|(i, suffix, target)| {
            let origin = &catalog.tools[*i].origin;
            (origin.file, origin.pointer_to(suffix), target)
        })
        .collect();
    let mut positions = catalog.locate_many(&requests).into_iter();
    let mut requests = requests.into_iter();
    let located: Vec<_> = diagnostics
        .into_iter()
        .map(|(rule, d)| {
            let located = match &d.at {
                // One request, and one position, per tool finding, in order.
                At::Tool(..) | At::ToolKey(..) => requests
                    .next()
                    .zip(positions.next())
                    .map(|((_, pointer, _), pos)| (pointer, pos)),
                At::Config(_) | At::Problem(_) => None,
            };
            (rule, d, located)
        })
        .collect();
    let config = std::sync::OnceLock::new();
    let (mut findings, proposals): (Vec<Finding>, Vec<Option<Proposal>>) =
        crate::catalog::parallel::map(located, |(rule, mut d, located)| {
            let proposal = d.fix.take();
            let finding = finding(&ctx, &config, rule, settings.severity_of(rule), d, located);
            (finding, proposal)
        })
        .into_iter()
        .unzip();
    let proposals: Vec<(usize, Proposal)> = proposals
        .into_iter()
        .enumerate()
        .filter_map(|(i, p)| p.map(|p| (i, p)))
        .collect();
    if !proposals.is_empty() {
        fix::resolve(&ctx, &config, &mut findings, proposals);
    }
    findings.sort_by(|a, b| {
        (&a.path, a.line, a.column, a.code, &a.message)
            .cmp(&(&b.path, b.line, b.column, b.code, &b.message))
    });
    findings.dedup();
    findings
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

/// A diagnostic with its position: `located` is the file pointer and position of a tool
/// finding; `config` is the config file, read once for all config findings.
fn finding(
    ctx: &Context<'_>,
    config: &std::sync::OnceLock<crate::source::SourceFile>,
    rule: &Rule,
    severity: Severity,
    d: Diagnostic,
    located: Option<(String, Position)>,
) -> Finding {
    let catalog = &ctx.project.catalog;
    let (tool, path, pos, pointer, source_line) = match (&d.at, located) {
        (At::Tool(i, _) | At::ToolKey(i, _), located) => {
            let (pointer, pos) = located.unwrap_or_else(|| (String::new(), Position::START));
            let tool = &catalog.tools[*i];
            let file = catalog.file_of(tool);
            // In the window's time, not the line's: one minified line may hold every finding.
            let line = file.line_window(pos.line, pos.col, SNIPPET_CONTEXT);
            (
                Some(tool.name.clone()),
                file.path.clone(),
                Some(pos),
                pointer,
                line,
            )
        }
        (At::Config(pointer), _) => {
            let path = &ctx.project.config_path;
            let file = config_source(ctx, config);
            let pos = file.locate(pointer, Target::Value);
            let line = file.line_text(pos.line).map(|l| snippet(l, pos.col));
            (None, path.clone(), Some(pos), pointer.clone(), line)
        }
        (At::Problem(e), _) => (
            None,
            e.path.clone(),
            e.position,
            String::new(),
            e.source_line
                .as_deref()
                .zip(e.position)
                .map(|(l, p)| snippet(l, p.col)),
        ),
    };
    let (source_line, source_column) = source_line.unzip();
    Finding {
        code: rule.code,
        rule: rule.name,
        severity,
        tool,
        path,
        line: pos.map(|p| p.line),
        column: pos.map(|p| p.col),
        pointer,
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
