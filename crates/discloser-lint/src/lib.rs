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
//!
//! A rule reads the project as a whole ([`Rule::check`]: the config, load problems, every tool
//! at once) or one file's tools at a time ([`Rule::check_files`]). [`lint_each`] runs the
//! second kind as it takes the files in path order, and hands the findings on in sorted
//! batches as they are made: the memory a run takes beyond the catalog is that of a batch (and
//! of the first kind's diagnostics), not of all its findings.

// The core's modules under their usual names, so `crate::catalog` reads the same in every
// crate of the workspace.
use discloser_core::{catalog, config, diagnostic, index, project, source};

mod cues;
mod docstring;
pub mod fix;
mod lists;
mod model;
pub mod report;
pub mod rules;
mod scan;
mod surely_valid;
pub mod text;

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::path::PathBuf;
use std::sync::OnceLock;

use serde::Serialize;

use crate::catalog::Tool;
use crate::config::LintConfig;
use crate::diagnostic::{LoadError, Position};
use crate::index::{Entry, entry_with_config, normalize_triggers};
use crate::project::Project;
use crate::source::Target;

pub use fix::{Applicability, Edit, Fix, FixTarget, Proposal, Proposed};
pub use rules::{RULES, Rule};

/// From how many tools [`lint`] runs its rules on several threads (2 cores, synthetic
/// catalogs: the same time either way at 128 tools, 8% less on threads at 512, 6% at 2,000;
/// on the 13-tool example the threads cost 0.2 ms of a 3.9 ms run).
const PARALLEL_RULES_FROM: usize = 256;

/// Below how many tools a tool's schema, once unpacked by a rule, is kept for the next
/// ([`Context::with_parameters`]): at most a few MB, where a large catalog's would all be held
/// to the end of the run.
const KEEP_PARAMETERS_BELOW: usize = 256;

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

/// What rules look at: the project, and what several rules read of it, computed once.
pub struct Context<'a> {
    /// The project (catalog, config, profiles).
    pub project: &'a Project,
    /// The settings in force.
    pub settings: &'a Settings,
    /// Per tool: whether some profile leaves it unbound (so it appears in an index).
    indexable: Vec<bool>,
    /// How many tools can appear in an index.
    indexable_count: usize,
    /// Per lowercase trigger word, the first tool (in catalog order) that has it: built by the
    /// first rule that asks ([`Context::first_with_trigger`]).
    trigger_owners: OnceLock<HashMap<String, usize>>,
}

impl<'a> Context<'a> {
    fn new(project: &'a Project, settings: &'a Settings) -> Context<'a> {
        let profiles: Vec<_> = project
            .profile_names()
            .iter()
            .filter_map(|n| project.profile(n).ok())
            .collect();
        let indexable: Vec<bool> = project
            .catalog
            .tools
            .iter()
            .map(|t| !t.core && profiles.iter().any(|p| !p.is_bound(&t.name)))
            .collect();
        Context {
            project,
            settings,
            indexable_count: indexable.iter().filter(|&&t| t).count(),
            indexable,
            trigger_owners: OnceLock::new(),
        }
    }

    /// Whether a tool can appear in some index: not core, and not bound in every profile.
    pub fn can_be_indexed(&self, tool: usize) -> bool {
        self.indexable[tool]
    }

    /// How many tools can appear in some index.
    pub fn indexable_count(&self) -> usize {
        self.indexable_count
    }

    /// Runs `f` on tool `i`'s parameters schema. Two rules read every tool's schema
    /// (`untyped-enum` and `invalid-schema`): in a small catalog the first keeps it unpacked
    /// for the second ([`Parameters::keep`](discloser_core::catalog::Parameters::keep)); in a
    /// large one each unpacks its own copy and drops it
    /// ([`Parameters::with`](discloser_core::catalog::Parameters::with)), as every tool's
    /// parsed value held to the end of the run would take 1.1 GB at 100,000 tools.
    pub fn with_parameters<R>(&self, i: usize, f: impl FnOnce(&serde_json::Value) -> R) -> R {
        let tools = &self.project.catalog.tools;
        if tools.len() < KEEP_PARAMETERS_BELOW {
            f(tools[i].parameters.keep())
        } else {
            tools[i].parameters.with(f)
        }
    }

    /// The first tool, in catalog order, with the trigger word `word` (lowercase) among its
    /// triggers as the index writes them (normalised, then lowercased), if any.
    pub fn first_with_trigger(&self, word: &str) -> Option<usize> {
        /// Tools whose words are normalised on one thread at once.
        const CHUNK: usize = 256;
        let owners = self.trigger_owners.get_or_init(|| {
            let tools = &self.project.catalog.tools;
            let mut owners = HashMap::new();
            // Normalised on the threads, a round of chunks of tools at a time (each round's
            // words only are held); each word's first tool is then taken in catalog order.
            let chunks: Vec<usize> = (0..tools.len()).step_by(CHUNK).collect();
            for round in chunks.chunks(64) {
                let words = crate::catalog::parallel::map(round.to_vec(), |start| {
                    let mut words = Vec::new();
                    for (i, tool) in tools.iter().enumerate().skip(start).take(CHUNK) {
                        for trigger in normalize_triggers(&tool.triggers) {
                            words.push((trigger.to_lowercase(), i));
                        }
                    }
                    words
                });
                for (word, i) in words.into_iter().flatten() {
                    owners.entry(word).or_insert(i);
                }
            }
            owners
        });
        owners.get(word).copied()
    }
}

/// The tools a per-file rule ([`Rule::check_files`]) checks in one call: every tool of the
/// catalog's documents with one path (a file, or a JSON Lines file's documents), with their
/// index entries.
pub struct Tools<'a> {
    project: &'a Project,
    /// Their catalog indexes, ascending.
    indexes: &'a [usize],
    /// Their index entries, in the same order, built by the first rule that reads them.
    entries: OnceLock<Vec<Entry>>,
}

impl<'a> Tools<'a> {
    fn new(project: &'a Project, indexes: &'a [usize]) -> Tools<'a> {
        Tools {
            project,
            indexes,
            entries: OnceLock::new(),
        }
    }

    /// The tools with their catalog indexes, in catalog order.
    pub fn iter(&self) -> impl Iterator<Item = (usize, &'a Tool)> + use<'a, '_> {
        let tools = &self.project.catalog.tools;
        self.indexes.iter().map(move |&i| (i, &tools[i]))
    }

    /// The index entry of each tool, with its catalog index, in catalog order: built on the
    /// first call, for these tools only.
    pub fn entries(&self) -> impl Iterator<Item = (usize, &Entry)> {
        self.indexes.iter().copied().zip(self.built())
    }

    /// The index entry of `tool` (a catalog index), one of these tools.
    pub fn entry(&self, tool: usize) -> &Entry {
        let at = self
            .indexes
            .binary_search(&tool)
            .expect("a rule asks for the entries of the tools it checks");
        &self.built()[at]
    }

    fn built(&self) -> &[Entry] {
        self.entries.get_or_init(|| {
            let catalog = &self.project.catalog;
            let config = self.project.index_config();
            crate::catalog::parallel::map(self.indexes.to_vec(), |i| {
                entry_with_config(catalog, i, config)
            })
        })
    }
}

/// Runs every enabled rule over the project and returns sorted findings.
pub fn lint(project: &Project, settings: &Settings) -> Vec<Finding> {
    let mut findings = Vec::new();
    let Ok(()) = lint_each(project, settings, |batch| {
        findings.extend(batch);
        Ok::<(), std::convert::Infallible>(())
    });
    findings
}

/// Runs every enabled rule over the project and hands the findings to `each` as they are made,
/// in batches: together, the batches are what [`lint`] returns (sorted, equal neighbours
/// dropped). An error of `each` ends the run.
///
/// The rules that read the project as a whole ([`Rule::check`]) run first, and the findings of
/// their diagnostics at the config and at load problems are made then (they are few). Then
/// the catalog's files are taken in path order, a batch of paths at a time (in parallel): the
/// per-file rules ([`Rule::check_files`]) check each path's tools, the diagnostics at them
/// become findings (with their fixes), sorted; the batch, merged with the findings made first,
/// goes to `each`. A large catalog's findings, and the diagnostics and index entries they are
/// made of, are never all held. When there are several batches, they are made on a thread of
/// their own while `each` takes the one before on the calling thread.
pub fn lint_each<E>(
    project: &Project,
    settings: &Settings,
    mut each: impl FnMut(Vec<Finding>) -> Result<(), E>,
) -> Result<(), E> {
    let ctx = Context::new(project, settings);
    // The rules' order, which decides between overlapping fixes and orders a rule's findings
    // at one place: the costly ones first (they start first on the threads), then by code.
    let mut enabled: Vec<&'static Rule> = RULES
        .iter()
        .copied()
        .filter(|r| settings.enabled(r))
        .collect();
    enabled.sort_by_key(|r| r.cost);
    let paths = Paths::of(&project.catalog);
    let config = OnceLock::new();
    let (held, elsewhere) = whole_project(&ctx, &enabled, &paths);
    let elsewhere = placed_elsewhere(&ctx, &config, elsewhere).into();
    let per_file = enabled
        .iter()
        .enumerate()
        .filter(|(_, r)| r.check_files.is_some())
        .map(|(rank, r)| (rank, *r))
        .collect();
    let batches = Batches {
        ctx: &ctx,
        per_file,
        paths,
        held,
        elsewhere,
        dedup: Dedup::default(),
    };
    if batches.paths.len() <= PATHS_AT_ONCE {
        return batches.each(&mut each);
    }
    // The batches are made on a thread of their own while this one hands the last on: making
    // and reporting each take every core in turn, and together they keep them busy at the
    // turns.
    std::thread::scope(|scope| {
        let (send, made) = std::sync::mpsc::sync_channel(0);
        // When `each` fails, `made` is dropped, the next batch is not taken, and the thread
        // stops.
        scope.spawn(move || batches.each(&mut |batch| send.send(batch)));
        made.into_iter().try_for_each(&mut each)
    })
}

/// The findings at the catalog's tools, made a batch of paths at a time, and merged with those
/// made before (at the config, load problems).
struct Batches<'c> {
    ctx: &'c Context<'c>,
    /// The per-file rules, with their places in the rules' order.
    per_file: Vec<(usize, &'static Rule)>,
    paths: Paths,
    held: Held,
    /// Findings at the config and of load problems, sorted, merged in as their turn comes.
    elsewhere: VecDeque<Placed>,
    dedup: Dedup,
}

impl Batches<'_> {
    /// Hands every batch to `each`, in order, and what is left of `elsewhere` last; stops at
    /// `each`'s first error.
    fn each<E>(mut self, each: &mut dyn FnMut(Vec<Finding>) -> Result<(), E>) -> Result<(), E> {
        let mut next = 0;
        while next < self.paths.len() {
            let batch = next..(next + PATHS_AT_ONCE).min(self.paths.len());
            next = batch.end;
            let work: Vec<PathWork<'_>> = batch
                .map(|path| PathWork {
                    files: self.paths.files(path),
                    tools: self.paths.tools(path),
                    held: self.held.take(path),
                })
                .collect();
            let (ctx, per_file) = (self.ctx, &self.per_file);
            let made =
                crate::catalog::parallel::map(work, |work| path_findings(ctx, per_file, work));
            let mut merged = Vec::with_capacity(made.iter().map(Vec::len).sum());
            for placed in made.into_iter().flatten() {
                while self.elsewhere.front().is_some_and(|e| before(e, &placed)) {
                    merged.extend(self.elsewhere.pop_front().map(|(f, _)| f));
                }
                merged.push(placed.0);
            }
            let batch = self.dedup.pass(merged);
            if !batch.is_empty() {
                each(batch)?;
            }
        }
        let elsewhere = std::mem::take(&mut self.elsewhere);
        let mut rest = self
            .dedup
            .pass(elsewhere.into_iter().map(|(f, _)| f).collect());
        rest.extend(self.dedup.last);
        if !rest.is_empty() {
            each(rest)?;
        }
        Ok(())
    }
}

/// Paths whose findings are made at once (in parallel) before they are handed on.
const PATHS_AT_ONCE: usize = 64;

/// A diagnostic's place in the order the rules reported them: among findings of one rule at
/// one place (same path, position and message), the order they were reported in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Seq {
    /// The rule's place among the enabled rules.
    rule: usize,
    /// Reported by the rule's whole-project detector (after its per-file one).
    whole: bool,
    /// The diagnostic's place among those of that detector (per path, for a per-file one).
    n: usize,
}

/// A diagnostic with its place in the rules' order and its rule.
type Numbered = (Seq, &'static Rule, Diagnostic);

/// A finding with its place in the rules' order and the fix its rule proposed.
type Made = (Seq, Finding, Option<Proposal>);

/// A finding with its place in the rules' order, for sorting.
type Placed = (Finding, Seq);

/// Whether `a` comes before `b` in the findings' order: by path, position, code and message,
/// then in the rules' order.
fn before(a: &Placed, b: &Placed) -> bool {
    order(a, b) == std::cmp::Ordering::Less
}

fn order((fa, sa): &Placed, (fb, sb): &Placed) -> std::cmp::Ordering {
    (&fa.path, fa.line, fa.column, fa.code, &fa.message, sa).cmp(&(
        &fb.path,
        fb.line,
        fb.column,
        fb.code,
        &fb.message,
        sb,
    ))
}

/// Hands batches of sorted findings on without a finding equal to the one before it: the last
/// finding of each batch is kept back until the next batch shows it is not repeated.
#[derive(Default)]
struct Dedup {
    last: Option<Finding>,
}

impl Dedup {
    fn pass(&mut self, findings: Vec<Finding>) -> Vec<Finding> {
        let mut out = Vec::with_capacity(findings.len() + 1);
        out.extend(self.last.take());
        out.extend(findings);
        out.dedup();
        self.last = out.pop();
        out
    }
}

/// The catalog's documents by path, in path order: findings are made, sorted and handed on a
/// path at a time (a JSON Lines file is several documents with one path). Whatever order the
/// catalog's files were loaded in (a project's sorted files, then its MCP servers' documents;
/// the command line's files as given).
struct Paths {
    /// Document (file) indexes, by path (stably: a JSON Lines file's in their order).
    files: Vec<usize>,
    /// Where each path's documents end in `files`.
    file_ends: Vec<usize>,
    /// Tool indexes, by path, each path's in catalog order.
    tools: Vec<usize>,
    /// Where each path's tools end in `tools`.
    tool_ends: Vec<usize>,
    /// The path (by place in path order) of each document.
    path_of_file: Vec<usize>,
}

impl Paths {
    fn of(catalog: &crate::catalog::Catalog) -> Paths {
        let mut files: Vec<usize> = (0..catalog.files.len()).collect();
        files.sort_by(|&a, &b| catalog.files[a].path.cmp(&catalog.files[b].path));
        let mut file_ends = Vec::new();
        let mut path_of_file = vec![0; files.len()];
        for (k, &file) in files.iter().enumerate() {
            if k > 0 && catalog.files[files[k - 1]].path != catalog.files[file].path {
                file_ends.push(k);
            }
            path_of_file[file] = file_ends.len();
        }
        if !files.is_empty() {
            file_ends.push(files.len());
        }
        // The tools, sorted by path by counting: each path's stay in catalog order.
        let mut tool_ends = vec![0; file_ends.len()];
        for tool in &catalog.tools {
            tool_ends[path_of_file[tool.origin.file]] += 1;
        }
        let mut end = 0;
        for n in &mut tool_ends {
            end += *n;
            *n = end;
        }
        let mut next: Vec<usize> = (0..tool_ends.len())
            .map(|path| if path == 0 { 0 } else { tool_ends[path - 1] })
            .collect();
        let mut tools = vec![0; catalog.tools.len()];
        for (i, tool) in catalog.tools.iter().enumerate() {
            let path = path_of_file[tool.origin.file];
            tools[next[path]] = i;
            next[path] += 1;
        }
        Paths {
            files,
            file_ends,
            tools,
            tool_ends,
            path_of_file,
        }
    }

    /// How many paths.
    fn len(&self) -> usize {
        self.file_ends.len()
    }

    /// The documents of the `path`-th path.
    fn files(&self, path: usize) -> &[usize] {
        let start = if path == 0 {
            0
        } else {
            self.file_ends[path - 1]
        };
        &self.files[start..self.file_ends[path]]
    }

    /// The tools of the `path`-th path, in catalog order.
    fn tools(&self, path: usize) -> &[usize] {
        let start = if path == 0 {
            0
        } else {
            self.tool_ends[path - 1]
        };
        &self.tools[start..self.tool_ends[path]]
    }
}

/// The whole-project rules' diagnostics at tools, by path, taken a path at a time in path
/// order.
struct Held {
    /// `(path, diagnostic)`, sorted by path (stably: each path's in the rules' order).
    diagnostics: VecDeque<(usize, Numbered)>,
}

impl Held {
    /// The diagnostics of the `path`-th path (paths are taken in order).
    fn take(&mut self, path: usize) -> Vec<Numbered> {
        let mut taken = Vec::new();
        while let Some((p, _)) = self.diagnostics.front() {
            debug_assert!(*p >= path, "paths are taken in order");
            if *p != path {
                break;
            }
            taken.extend(self.diagnostics.pop_front().map(|(_, d)| d));
        }
        taken
    }
}

/// Runs the rules that read the project as a whole ([`Rule::check`]), each on its own thread
/// when the catalog is large: their diagnostics at tools, by path, and the others (at the
/// config, load problems).
fn whole_project(
    ctx: &Context<'_>,
    enabled: &[&'static Rule],
    paths: &Paths,
) -> (Held, Vec<Numbered>) {
    type Check = fn(&Context<'_>, &mut Vec<Diagnostic>);
    let rules: Vec<(usize, &'static Rule, Check)> = enabled
        .iter()
        .enumerate()
        .filter_map(|(rank, r)| r.check.map(|check| (rank, *r, check)))
        .collect();
    let run = |(rank, rule, check): (usize, &'static Rule, Check)| {
        let mut diagnostics = Vec::new();
        check(ctx, &mut diagnostics);
        numbered(ctx, rank, true, rule, diagnostics)
    };
    // A small catalog is checked on this thread: starting threads, and their page faults on
    // a shared address space, cost more than the rules they would share.
    let per_rule: Vec<Vec<Numbered>> = if ctx.project.catalog.tools.len() < PARALLEL_RULES_FROM {
        rules.into_iter().map(run).collect()
    } else {
        crate::catalog::parallel::map_coarse(rules, run)
    };
    let mut at_tools = Vec::new();
    let mut elsewhere = Vec::new();
    for numbered in per_rule.into_iter().flatten() {
        match &numbered.2.at {
            At::Tool(i, _) | At::ToolKey(i, _) => {
                let file = ctx.project.catalog.tools[*i].origin.file;
                at_tools.push((paths.path_of_file[file], numbered));
            }
            At::Config(_) | At::Problem(_) => elsewhere.push(numbered),
        }
    }
    at_tools.sort_by_key(|(path, _)| *path);
    let held = Held {
        diagnostics: at_tools.into(),
    };
    (held, elsewhere)
}

/// A rule's diagnostics, but those at tools that suppress the rule, numbered in the rules'
/// order.
fn numbered(
    ctx: &Context<'_>,
    rank: usize,
    whole: bool,
    rule: &'static Rule,
    diagnostics: Vec<Diagnostic>,
) -> Vec<Numbered> {
    let catalog = &ctx.project.catalog;
    diagnostics
        .into_iter()
        .filter(|d| match &d.at {
            At::Tool(i, _) | At::ToolKey(i, _) => {
                !catalog.tools[*i].lint_ignore.iter().any(|c| rule.is(c))
            }
            At::Config(_) | At::Problem(_) => true,
        })
        .enumerate()
        .map(|(n, d)| {
            (
                Seq {
                    rule: rank,
                    whole,
                    n,
                },
                rule,
                d,
            )
        })
        .collect()
}

/// The findings of diagnostics at the config and of load problems, with their fixes (of the
/// config), sorted.
fn placed_elsewhere(
    ctx: &Context<'_>,
    config: &OnceLock<crate::source::SourceFile>,
    diagnostics: Vec<Numbered>,
) -> Vec<Placed> {
    let made = diagnostics
        .into_iter()
        .map(|(seq, rule, mut d)| {
            let proposal = d.fix.take();
            let severity = ctx.settings.severity_of(rule);
            let place = place_elsewhere(ctx, config, &d);
            (seq, finding(rule, severity, d, place), proposal)
        })
        .collect();
    with_fixes(ctx, made, |doc| match doc {
        fix::Doc::Config => Some(fix::config_document(ctx, config)),
        // A rule's change of another document than its diagnostic's gets no fix (see
        // [`Proposal`]); debug builds, the tests', fail on it.
        fix::Doc::Tool(_) => {
            debug_assert!(
                false,
                "a diagnostic at the config proposes a change to a tool file"
            );
            None
        }
    })
}

/// The work of one path: its documents, its tools, and the whole-project rules' diagnostics at
/// them.
struct PathWork<'a> {
    files: &'a [usize],
    tools: &'a [usize],
    held: Vec<Numbered>,
}

/// The findings at the tools of one path, with their fixes, sorted: the whole-project rules'
/// and those of the per-file rules (`rules`, with their places in the rules' order), run on
/// the path's tools now.
fn path_findings(
    ctx: &Context<'_>,
    rules: &[(usize, &'static Rule)],
    work: PathWork<'_>,
) -> Vec<Placed> {
    let PathWork {
        files,
        tools,
        mut held,
    } = work;
    if !rules.is_empty() && !tools.is_empty() {
        let scope = Tools::new(ctx.project, tools);
        let run = |&(rank, rule): &(usize, &'static Rule)| {
            let check = rule.check_files.expect("only per-file rules run per file");
            let mut diagnostics = Vec::new();
            check(ctx, &scope, &mut diagnostics);
            numbered(ctx, rank, false, rule, diagnostics)
        };
        // The tools of one large file are shared by the rules as a whole catalog's are.
        if tools.len() < PARALLEL_RULES_FROM {
            held.extend(rules.iter().flat_map(run));
        } else {
            let rules: Vec<_> = rules.iter().collect();
            held.extend(
                crate::catalog::parallel::map_coarse(rules, run)
                    .into_iter()
                    .flatten(),
            );
        }
    }
    if held.is_empty() {
        return Vec::new();
    }
    // Each document's diagnostics are positioned together.
    let catalog = &ctx.project.catalog;
    let mut by_file: BTreeMap<usize, Vec<Numbered>> = BTreeMap::new();
    for numbered in held {
        match &numbered.2.at {
            At::Tool(i, _) | At::ToolKey(i, _) => by_file
                .entry(catalog.tools[*i].origin.file)
                .or_default()
                .push(numbered),
            // Dropped (see `Rule::check_files`); debug builds, the tests', fail on it.
            At::Config(_) | At::Problem(_) => {
                debug_assert!(false, "a per-file rule reports at its tools only");
            }
        }
    }
    let made = by_file
        .into_iter()
        .flat_map(|(file, diagnostics)| file_findings(ctx, file, diagnostics))
        .collect();
    with_fixes(ctx, made, |doc| match doc {
        // A JSON Lines file is several documents with one path: its byte offsets are not the
        // documents'. It is not fixed.
        fix::Doc::Tool(_) if files.len() > 1 => None,
        fix::Doc::Tool(file) if files.contains(&file) => {
            let first = tools
                .iter()
                .map(|&i| &catalog.tools[i])
                .find(|t| t.origin.file == file);
            Some(fix::tool_document(ctx, file, first))
        }
        fix::Doc::Tool(_) | fix::Doc::Config => {
            debug_assert!(
                false,
                "a diagnostic at a tool proposes a change to another document"
            );
            None
        }
    })
}

/// Findings with the fixes their rules proposed (resolved in the rules' order, in the documents
/// `document` gives), sorted.
fn with_fixes<'d>(
    ctx: &Context<'_>,
    made: Vec<Made>,
    document: impl Fn(fix::Doc) -> Option<fix::Document<'d>> + Sync,
) -> Vec<Placed> {
    let mut findings = Vec::with_capacity(made.len());
    let mut seqs = Vec::with_capacity(made.len());
    let mut proposals = Vec::new();
    for (seq, finding, proposal) in made {
        if let Some(proposal) = proposal {
            proposals.push((findings.len(), proposal));
        }
        findings.push(finding);
        seqs.push(seq);
    }
    if !proposals.is_empty() {
        // In the order the rules proposed them, which decides between overlapping fixes.
        proposals.sort_by_key(|(i, _)| seqs[*i]);
        fix::resolve(ctx, &mut findings, proposals, document);
    }
    let mut placed: Vec<Placed> = findings.into_iter().zip(seqs).collect();
    placed.sort_unstable_by(order);
    placed
}

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
