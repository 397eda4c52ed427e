//! Tool traces: one JSON line per turn, which tools ran and how each was reached.
//!
//! The format (JSON Lines, UTF-8; blank lines are skipped):
//!
//! ```json
//! {"session": "s01", "turn": 2, "model": "gpt-4o-mini", "profile": "default",
//!  "input_tokens": 3200, "latency_ms": 1840, "user": "我想写商业计划书",
//!  "tools": [{"name": "view_startup_guide", "origin": "catalog", "arguments": {},
//!             "ok": false, "error": "missing 1 required positional argument: 'kind'"}]}
//! ```
//!
//! `session` (string) and `turn` (non-negative integer) are required; `model`, `profile`
//! (default: the command's `--profile`, else `default`), `input_tokens`, `latency_ms`, `user`
//! (the user's message of the turn, the words trigger suggestions are drawn from) and `tools`
//! (default: none) are optional. A call needs `name`; `origin` is `bound`, `catalog`,
//! `search` or `unknown` (absent: not recorded, see [`classify`]); `arguments` is the object the
//! model sent (or the JSON string of it); `ok` and `error` are the tool's outcome. Any other key
//! is an error (`path:line:col`, with a "did you mean"), so a misspelt `orign` never silently
//! drops data.
//!
//! A file whose content is an OTLP JSON export (`resourceSpans` at the top, or one export per
//! line) is read as OpenTelemetry GenAI spans instead, into the same turns: a `chat` span is a
//! turn, its `execute_tool` child spans its calls ([`crate::otlp`] has the whole mapping).
//!
//! [`summarize`] counts turns, calls by origin and, per tool, calls, the share of turns it
//! appears in, its origins and its **first-call failures**: a tool's first call in a turn,
//! reached unbound (`catalog` or `search`), whose recorded arguments fail its schema (or, with no
//! arguments recorded, whose `ok` is `false`) — the seed's `view_startup_guide args={}` case,
//! a round trip wasted because the index line did not say enough. Names not in the catalog are
//! listed with their nearest real tools (a sign that an index entry is unclear), and a recorded
//! origin that contradicts the catalog (`catalog` for a name the catalog lacks counts a
//! hallucination as a success) is reported.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::input::{on_line, require_mappings, typed};
use super::resolve::{Nearest, Origin, Runtime};
use crate::diagnostic::{ErrorKind, LoadError, Position, did_you_mean};
use crate::project::{DEFAULT_PROFILE, Profile, Project};
use crate::source::{SourceFile, Syntax, Target};

/// One turn of a trace.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Turn {
    /// The conversation.
    pub session: String,
    /// The turn's number in the conversation.
    pub turn: u64,
    /// The model that answered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// The profile (starter set) bound on this turn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile: Option<String>,
    /// Input tokens of the turn's request.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_tokens: Option<u64>,
    /// The turn's latency.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub latency_ms: Option<u64>,
    /// The user's message of the turn, when recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user: Option<String>,
    /// The tool calls, in order.
    #[serde(default)]
    pub tools: Vec<Call>,
}

/// One tool call of a turn.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Call {
    /// The name the model called.
    pub name: String,
    /// How the call was reached, if recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin: Option<Origin>,
    /// The arguments the model sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arguments: Option<Value>,
    /// Whether the tool succeeded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ok: Option<bool>,
    /// The tool's error message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// A turn and where it was read.
#[derive(Clone, Debug)]
pub struct TracedTurn {
    /// The trace file, as shown in messages.
    pub path: PathBuf,
    /// The 1-based line.
    pub line: usize,
    /// Index into [`Trace::sources`] (for positioned errors found later, e.g. an unknown
    /// profile).
    pub file: usize,
    /// The turn.
    pub turn: Turn,
    /// Where the turn's profile is written when that is not the `profile` key of a JSON Lines
    /// turn (an OTLP span's `discloser.profile`), for the error of an unknown profile.
    pub profile_at: Option<Position>,
}

impl TracedTurn {
    /// `path:line`.
    pub fn location(&self) -> String {
        format!("{}:{}", self.path.display(), self.line)
    }

    /// The profile of the turn: its own, else `default_profile`.
    pub fn profile_name<'a>(&'a self, default_profile: &'a str) -> &'a str {
        self.turn.profile.as_deref().unwrap_or(default_profile)
    }
}

/// The turns of one or more trace files, in file order.
#[derive(Clone, Debug, Default)]
pub struct Trace {
    /// The files read.
    pub sources: Vec<Arc<SourceFile>>,
    /// Every turn.
    pub turns: Vec<TracedTurn>,
}

impl Trace {
    /// Reads trace files (`path`, shown as `shown`).
    pub fn load(files: &[(PathBuf, PathBuf)]) -> Result<Trace, LoadError> {
        let mut trace = Trace::default();
        for (path, shown) in files {
            trace.add(SourceFile::read(path, shown.clone())?)?;
        }
        Ok(trace)
    }

    /// Adds the turns of a trace file already in memory.
    pub fn add(&mut self, source: SourceFile) -> Result<(), LoadError> {
        let turns = parse(&source, self.sources.len())?;
        self.turns.extend(turns);
        self.sources.push(Arc::new(source));
        Ok(())
    }
}

/// The largest `input_tokens` and `latency_ms` of a turn (and `--round-trip`): 10^12, far
/// above any context window, so every sum, mean and product stays exact and in range.
pub const MAX_COUNT: u64 = 1_000_000_000_000;

/// Parses a trace file, JSON Lines of turns or OTLP JSON (by its content); `file` is its index
/// in [`Trace::sources`].
pub fn parse(source: &SourceFile, file: usize) -> Result<Vec<TracedTurn>, LoadError> {
    match super::otlp::detect(source)? {
        Some(export) => super::otlp::parse(source, export, file),
        None => parse_lines(source, file),
    }
}

/// Parses the lines of a JSON Lines trace file.
fn parse_lines(source: &SourceFile, file: usize) -> Result<Vec<TracedTurn>, LoadError> {
    let mut turns = Vec::new();
    for (i, line) in source.text.split('\n').enumerate() {
        let text = line.strip_suffix('\r').unwrap_or(line);
        if text.trim().is_empty() {
            continue;
        }
        let mut one = SourceFile::from_text(text.to_owned(), source.path.clone());
        one.syntax = Syntax::Json;
        let fail = |e: LoadError| on_line(&e, source, i + 1);
        let value = one.parse().map_err(fail)?;
        require_mappings(
            &one,
            &value,
            "a JSON object (one turn) on every line",
            Some(("tools", "a call: an object with `name`")),
        )
        .map_err(fail)?;
        let turn: Turn = typed(&one, value).map_err(fail)?;
        for (key, count) in [
            ("input_tokens", turn.input_tokens),
            ("latency_ms", turn.latency_ms),
        ] {
            if let Some(n) = count.filter(|&n| n > MAX_COUNT) {
                let e = one.error_at(
                    ErrorKind::Shape,
                    &format!("/{key}"),
                    Target::Value,
                    format!("`{key}` of `{n}` is out of range: at most 1000000000000 (10^12)"),
                );
                return Err(fail(e));
            }
        }
        turns.push(TracedTurn {
            path: source.path.clone(),
            line: i + 1,
            file,
            turn,
            profile_at: None,
        });
    }
    Ok(turns)
}

/// Resolves the profile of every turn (its own, else `default_profile`), failing at the first
/// turn naming a profile the config does not define.
pub fn turn_profiles(
    trace: &Trace,
    project: &Project,
    default_profile: &str,
) -> Result<Vec<Profile>, LoadError> {
    let mut cache: BTreeMap<&str, Profile> = BTreeMap::new();
    let mut out = Vec::with_capacity(trace.turns.len());
    for turn in &trace.turns {
        let name = turn.profile_name(default_profile);
        if let Some(profile) = cache.get(name) {
            out.push(profile.clone());
            continue;
        }
        let profile = match project.profile(name) {
            Ok(profile) => profile,
            Err(_) if turn.turn.profile.is_some() => {
                return Err(unknown_profile(trace, turn, project));
            }
            Err(e) => return Err(e),
        };
        cache.insert(name, profile.clone());
        out.push(profile);
    }
    Ok(out)
}

fn unknown_profile(trace: &Trace, turn: &TracedTurn, project: &Project) -> LoadError {
    let name = turn.turn.profile.as_deref().unwrap_or(DEFAULT_PROFILE);
    let whole = &trace.sources[turn.file];
    let message = format!("the turn names profile `{name}`, which the config does not define");
    let err = match turn.profile_at {
        Some(at) => LoadError::at(ErrorKind::Config, &whole.path, &whole.text, at, message),
        None => {
            let text = whole.line_text(turn.line).unwrap_or_default();
            let one = SourceFile::from_text(text.to_owned(), turn.path.clone());
            let line_err = one.error_at(ErrorKind::Config, "/profile", Target::Value, message);
            on_line(&line_err, whole, turn.line)
        }
    };
    let names = project.profile_names();
    match did_you_mean(name, names.iter().map(String::as_str)) {
        Some(near) => err.with_help(format!("did you mean `{near}`?")),
        None => err.with_help(format!("profiles: {}", names.join(", "))),
    }
}

/// Assigns an origin to every call that has none, with [`Runtime::resolve`] in the turn's
/// profile: `bound`, `catalog` or `unknown`; a `catalog` call that an earlier search-tool call of
/// the same turn returned (its `query` searched again, top `limit`, default 5) becomes `search`.
/// Returns how many calls were assigned. Recorded origins are kept.
pub fn classify(trace: &mut Trace, runtime: &Runtime<'_>, profiles: &[Profile]) -> usize {
    let mut assigned = 0;
    for (turn, profile) in trace.turns.iter_mut().zip(profiles) {
        let mut found_by_search: BTreeSet<String> = BTreeSet::new();
        for call in &mut turn.turn.tools {
            if call.origin.is_none() {
                let origin = match runtime.origin(profile, &call.name) {
                    Origin::Catalog if found_by_search.contains(&call.name) => Origin::Search,
                    other => other,
                };
                call.origin = Some(origin);
                assigned += 1;
            }
            if call.name == runtime.search_tool().name {
                found_by_search.extend(searched(runtime, call.arguments.as_ref()));
            }
        }
    }
    assigned
}

/// The tools a search-tool call returned: its `query` searched again with its `limit`.
fn searched(runtime: &Runtime<'_>, arguments: Option<&Value>) -> Vec<String> {
    let parsed;
    let arguments = match arguments {
        Some(Value::String(text)) => {
            parsed = serde_json::from_str::<Value>(text).unwrap_or(Value::Null);
            Some(&parsed)
        }
        other => other,
    };
    let Some(query) = arguments
        .and_then(|a| a.get("query"))
        .and_then(Value::as_str)
    else {
        return Vec::new();
    };
    let limit = arguments
        .and_then(|a| a.get("limit"))
        .and_then(Value::as_u64)
        .and_then(|l| usize::try_from(l).ok())
        .unwrap_or(super::SEARCH_LIMIT);
    runtime
        .index()
        .top(query, limit)
        .into_iter()
        .map(|h| h.name)
        .collect()
}

/// Calls counted by origin.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct OriginCounts {
    /// `bound` calls.
    pub bound: usize,
    /// `catalog` calls.
    pub catalog: usize,
    /// `search` calls.
    pub search: usize,
    /// `unknown` calls.
    pub unknown: usize,
    /// Calls without a recorded origin (run with `--classify`).
    pub unclassified: usize,
}

impl OriginCounts {
    fn add(&mut self, origin: Option<Origin>) {
        match origin {
            Some(Origin::Bound) => self.bound += 1,
            Some(Origin::Catalog) => self.catalog += 1,
            Some(Origin::Search) => self.search += 1,
            Some(Origin::Unknown) => self.unknown += 1,
            None => self.unclassified += 1,
        }
    }

    /// Every call counted.
    pub fn total(&self) -> usize {
        self.bound + self.catalog + self.search + self.unknown + self.unclassified
    }
}

/// One tool's usage.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ToolUsage {
    /// The tool name.
    pub name: String,
    /// Calls of it.
    pub calls: usize,
    /// Turns with at least one call of it.
    pub turns: usize,
    /// `turns` as a percentage of all turns (one decimal).
    pub turn_percent: f64,
    /// Its calls by origin.
    pub origins: OriginCounts,
    /// Turns whose first call of it was reached unbound (`catalog` or `search`).
    pub unbound_first_calls: usize,
    /// Of those, the turns reached through the search tool.
    pub search_first_calls: usize,
    /// Of those, the first calls that failed.
    pub first_call_failures: usize,
}

/// A failed first call of an unbound tool.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FirstCallFailure {
    /// `path:line` of the turn.
    pub at: String,
    /// The tool.
    pub tool: String,
    /// How it was reached.
    pub origin: Origin,
    /// The session.
    pub session: String,
    /// The turn number.
    pub turn: u64,
    /// The validation errors of the recorded arguments, or the recorded error.
    pub errors: Vec<String>,
    /// When every error is a value outside an `enum` of a top-level parameter: those
    /// parameters (`suggest` asks whether the index line already showed their values).
    /// Empty when any error is of another kind.
    #[serde(skip)]
    pub outside_enum_only: Vec<String>,
}

/// A called name that is not in the catalog.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct UnknownName {
    /// The invented name.
    pub name: String,
    /// Calls of it.
    pub calls: usize,
    /// `path:line` of its first call.
    pub first_at: String,
    /// The nearest catalog tools.
    pub nearest: Vec<Nearest>,
}

/// A recorded origin the catalog contradicts.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Contradiction {
    /// `path:line` of the turn.
    pub at: String,
    /// The name called.
    pub name: String,
    /// The recorded origin.
    pub recorded: Origin,
    /// Why it cannot be right.
    pub message: String,
}

/// The summary of a trace (`discloser trace`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    /// The files read.
    pub files: Vec<String>,
    /// Turns.
    pub turns: usize,
    /// Distinct sessions.
    pub sessions: usize,
    /// Tool calls.
    pub calls: usize,
    /// Calls by origin.
    pub origins: OriginCounts,
    /// Origins assigned by `--classify`.
    pub classified: usize,
    /// Turns with at least one `catalog` call: direct evidence that the index works.
    pub turns_with_catalog: usize,
    /// `turns_with_catalog` as a percentage of turns (one decimal).
    pub turns_with_catalog_percent: f64,
    /// Mean input tokens over the turns that record them (one decimal).
    pub mean_input_tokens: Option<f64>,
    /// Mean latency over the turns that record it (one decimal).
    pub mean_latency_ms: Option<f64>,
    /// Per tool: every catalog tool (and the search tool when called), most called first.
    pub tools: Vec<ToolUsage>,
    /// First calls of unbound tools that failed, in trace order.
    pub first_call_failures: Vec<FirstCallFailure>,
    /// Names not in the catalog, most called first.
    pub unknown: Vec<UnknownName>,
    /// Recorded origins the catalog contradicts, in trace order.
    pub contradictions: Vec<Contradiction>,
}

/// Usage counted over some turns of a trace; what [`summarize`] and the starter-set suggestion
/// share.
#[derive(Clone, Debug, Default)]
pub(crate) struct Tally {
    pub turns: usize,
    pub sessions: BTreeSet<String>,
    pub origins: OriginCounts,
    pub turns_with_catalog: usize,
    pub input_tokens: Vec<u64>,
    pub latency_ms: Vec<u64>,
    pub tools: BTreeMap<String, ToolUsage>,
    pub failures: Vec<FirstCallFailure>,
    pub unknown: BTreeMap<String, UnknownName>,
    pub contradictions: Vec<Contradiction>,
}

/// Counts the turns of `trace` for which `keep(turn index)` holds.
pub(crate) fn tally(trace: &Trace, runtime: &Runtime<'_>, keep: impl Fn(usize) -> bool) -> Tally {
    let catalog = runtime.catalog();
    let search_tool = runtime.search_tool().name.as_str();
    let known = |name: &str| catalog.get(name).is_some() || name == search_tool;
    let mut t = Tally::default();
    for tool in &catalog.tools {
        t.tools.insert(tool.name.clone(), usage(&tool.name));
    }
    for (index, traced) in trace.turns.iter().enumerate() {
        if !keep(index) {
            continue;
        }
        let turn = &traced.turn;
        t.turns += 1;
        t.sessions.insert(turn.session.clone());
        t.input_tokens.extend(turn.input_tokens);
        t.latency_ms.extend(turn.latency_ms);
        if turn.tools.iter().any(|c| c.origin == Some(Origin::Catalog)) {
            t.turns_with_catalog += 1;
        }
        let mut seen: BTreeSet<&str> = BTreeSet::new();
        for call in &turn.tools {
            t.origins.add(call.origin);
            if !known(&call.name) {
                record_unknown(&mut t, traced, call, runtime);
                continue;
            }
            if call.origin == Some(Origin::Unknown) {
                t.contradictions.push(Contradiction {
                    at: traced.location(),
                    name: call.name.clone(),
                    recorded: Origin::Unknown,
                    message: format!("recorded `unknown`, but `{}` is in the catalog", call.name),
                });
            }
            let entry = t
                .tools
                .entry(call.name.clone())
                .or_insert_with(|| usage(&call.name));
            entry.calls += 1;
            entry.origins.add(call.origin);
            if !seen.insert(&call.name) {
                continue;
            }
            entry.turns += 1;
            let Some(origin) = call.origin.filter(|o| o.is_unbound()) else {
                continue;
            };
            entry.unbound_first_calls += 1;
            if origin == Origin::Search {
                entry.search_first_calls += 1;
            }
            if let Some((errors, outside_enum_only)) = first_call_errors(runtime, call) {
                entry.first_call_failures += 1;
                t.failures.push(FirstCallFailure {
                    at: traced.location(),
                    tool: call.name.clone(),
                    origin,
                    session: turn.session.clone(),
                    turn: turn.turn,
                    errors,
                    outside_enum_only,
                });
            }
        }
    }
    for usage in t.tools.values_mut() {
        usage.turn_percent = percent(usage.turns, t.turns);
    }
    t
}

fn usage(name: &str) -> ToolUsage {
    ToolUsage {
        name: name.to_owned(),
        calls: 0,
        turns: 0,
        turn_percent: 0.0,
        origins: OriginCounts::default(),
        unbound_first_calls: 0,
        search_first_calls: 0,
        first_call_failures: 0,
    }
}

fn record_unknown(t: &mut Tally, traced: &TracedTurn, call: &Call, runtime: &Runtime<'_>) {
    if let Some(recorded) = call.origin.filter(|o| *o != Origin::Unknown) {
        t.contradictions.push(Contradiction {
            at: traced.location(),
            name: call.name.clone(),
            recorded,
            message: format!(
                "recorded `{recorded}`, but `{}` is not in the catalog: an invented name counted as reached",
                call.name
            ),
        });
    }
    t.unknown
        .entry(call.name.clone())
        .or_insert_with(|| UnknownName {
            name: call.name.clone(),
            calls: 0,
            first_at: traced.location(),
            nearest: runtime.nearest(&call.name),
        })
        .calls += 1;
}

/// Why a first call failed, or `None` when it did not: the validation errors of its recorded
/// arguments; without arguments (or a schema that cannot be compiled), its recorded `ok: false`.
fn first_call_errors(runtime: &Runtime<'_>, call: &Call) -> Option<(Vec<String>, Vec<String>)> {
    let check = runtime.check_arguments(&call.name, call.arguments.as_ref());
    match check.valid {
        Some(false) => {
            let top_level = |pointer: &str| {
                let name = pointer.strip_prefix('/')?;
                (!name.contains('/')).then(|| name.replace("~1", "/").replace("~0", "~"))
            };
            let enum_params: Option<Vec<String>> = check
                .errors
                .iter()
                .map(|e| e.outside_enum.then(|| top_level(&e.pointer)).flatten())
                .collect();
            Some((
                check.errors.iter().map(ToString::to_string).collect(),
                enum_params.unwrap_or_default(),
            ))
        }
        Some(true) => None,
        None if call.ok == Some(false) => Some((
            vec![
                call.error
                    .clone()
                    .unwrap_or_else(|| "the call failed (`ok: false`)".to_owned()),
            ],
            Vec::new(),
        )),
        None => None,
    }
}

/// Summarises a (classified or not) trace.
pub fn summarize(trace: &Trace, runtime: &Runtime<'_>, classified: usize) -> Summary {
    let t = tally(trace, runtime, |_| true);
    let search_tool = &runtime.search_tool().name;
    let mut tools: Vec<ToolUsage> = t
        .tools
        .into_values()
        .filter(|u| u.calls > 0 || &u.name != search_tool)
        .collect();
    tools.sort_by(|a, b| b.calls.cmp(&a.calls).then_with(|| a.name.cmp(&b.name)));
    let mut unknown: Vec<UnknownName> = t.unknown.into_values().collect();
    unknown.sort_by(|a, b| b.calls.cmp(&a.calls).then_with(|| a.name.cmp(&b.name)));
    Summary {
        files: trace.sources.iter().map(|f| display(&f.path)).collect(),
        turns: t.turns,
        sessions: t.sessions.len(),
        calls: t.origins.total(),
        origins: t.origins,
        classified,
        turns_with_catalog: t.turns_with_catalog,
        turns_with_catalog_percent: percent(t.turns_with_catalog, t.turns),
        mean_input_tokens: mean(&t.input_tokens),
        mean_latency_ms: mean(&t.latency_ms),
        tools,
        first_call_failures: t.failures,
        unknown,
        contradictions: t.contradictions,
    }
}

fn display(path: &Path) -> String {
    path.display().to_string()
}

/// `part / whole` as a percentage with one decimal (0 when `whole` is 0).
pub(crate) fn percent(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        0.0
    } else {
        (part as f64 * 1000.0 / whole as f64).round() / 10.0
    }
}

/// The mean with one decimal, `None` for no values.
pub(crate) fn mean(values: &[u64]) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    let sum: u128 = values.iter().map(|&v| u128::from(v)).sum();
    Some((sum as f64 * 10.0 / values.len() as f64).round() / 10.0)
}
