//! Findability: do user utterances reach the tools they should?
//!
//! A cases file (YAML or JSON) lists utterances and the tools each should lead to:
//!
//! ```yaml
//! profile: default            # optional; `--profile` overrides it
//! cases:
//!   - utterance: 我想写商业计划书
//!     tools: [view_startup_guide]
//! ```
//!
//! For each expected tool: is it **bound** in the profile; does its **index** entry (when it is
//! not bound) share a trigger, a trigger word or a name part with the utterance (the words a
//! model would connect, [`Matched::shares_index_words`]); and where does **search** rank it for
//! the utterance. A tool is reached when it is bound, its index entry shares a word, or search
//! ranks it within `reach.search_limit` (default 5). Recall@k is the share of expected tools
//! (over all cases) that search ranks within the first k. The gate fails when a recall is below
//! its `reach.min_recall_at_k`, or more cases than `reach.max_unreachable` (default 0) have a
//! tool no path reaches.

use serde::{Deserialize, Serialize};

use super::Runtime;
use super::input::{require_mappings, typed};
use super::resolve::Origin;
use super::search::Matched;
use super::trace::Trace;
use crate::config::ReachConfig;
use crate::diagnostic::{ErrorKind, LoadError, did_you_mean};
use crate::project::Profile;
use crate::source::{SourceFile, Target, pointer_push};

/// A cases file.
#[derive(Clone, Debug, Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "a mapping with `cases` (and `profile`)"
)]
pub struct CasesFile {
    /// The profile to check (default: `default`).
    #[serde(default)]
    pub profile: Option<String>,
    /// The cases.
    pub cases: Vec<Case>,
}

/// One utterance and the tools it should reach.
#[derive(Clone, Debug, Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "a mapping with `utterance` and `tools`"
)]
pub struct Case {
    /// What the user says.
    pub utterance: String,
    /// The tools it should lead to.
    pub tools: Vec<String>,
}

/// A parsed cases file with the position of each case.
#[derive(Debug)]
pub struct Cases {
    /// The file's content.
    pub file: CasesFile,
    /// `path:line:col` of each case's utterance.
    pub locations: Vec<String>,
}

impl Cases {
    /// Parses and checks a cases file: at least one case, non-empty utterances, at least one
    /// tool per case, every tool in the catalog.
    pub fn parse(source: &SourceFile, runtime: &Runtime<'_>) -> Result<Cases, LoadError> {
        let value = source.parse()?;
        require_mappings(
            source,
            &value,
            "a mapping with `cases` (a list of `{utterance, tools}`) and an optional `profile`",
            Some(("cases", "a mapping with `utterance` and `tools`")),
        )?;
        let file: CasesFile = typed(source, value)?;
        let fail = |pointer: &str, message: String| {
            source.error_at(ErrorKind::Shape, pointer, Target::Value, message)
        };
        if file.cases.is_empty() {
            return Err(fail(
                "/cases",
                "`cases` is empty: list at least one case".into(),
            ));
        }
        let catalog = runtime.catalog();
        let mut locations = Vec::with_capacity(file.cases.len());
        for (i, case) in file.cases.iter().enumerate() {
            let at = pointer_push("/cases", i);
            if case.utterance.trim().is_empty() {
                return Err(fail(
                    &pointer_push(&at, "utterance"),
                    "the utterance is empty".into(),
                ));
            }
            if case.tools.is_empty() {
                return Err(fail(
                    &pointer_push(&at, "tools"),
                    "`tools` is empty: name the tool(s) the utterance should reach".into(),
                ));
            }
            for (j, tool) in case.tools.iter().enumerate() {
                if catalog.get(tool).is_none() {
                    let err = fail(
                        &pointer_push(&pointer_push(&at, "tools"), j),
                        format!("tool `{tool}` is not in the catalog"),
                    );
                    return Err(match did_you_mean(tool, catalog.names()) {
                        Some(near) => err.with_help(format!("did you mean `{near}`?")),
                        None => err,
                    });
                }
            }
            let pos = source.locate(&pointer_push(&at, "utterance"), Target::Value);
            locations.push(crate::diagnostic::location(&source.path, Some(pos)));
        }
        Ok(Cases { file, locations })
    }
}

impl Cases {
    /// The cases of a trace: each turn with the user's message (`user`) and a call reached
    /// unbound (origin `catalog` or `search`) to a tool of the catalog is a case, the message
    /// its utterance and those tools what it should reach, placed at `file:line` of the turn.
    /// `None` when no turn qualifies.
    pub fn from_trace(trace: &Trace, runtime: &Runtime<'_>) -> Option<Cases> {
        let catalog = runtime.catalog();
        let mut cases = Vec::new();
        let mut locations = Vec::new();
        for traced in &trace.turns {
            let Some(user) = traced.turn.user.as_deref().filter(|u| !u.trim().is_empty()) else {
                continue;
            };
            let mut tools: Vec<String> = Vec::new();
            for call in &traced.turn.tools {
                let unbound = matches!(call.origin, Some(Origin::Catalog | Origin::Search));
                if unbound && catalog.get(&call.name).is_some() && !tools.contains(&call.name) {
                    tools.push(call.name.clone());
                }
            }
            if tools.is_empty() {
                continue;
            }
            cases.push(Case {
                utterance: user.to_owned(),
                tools,
            });
            locations.push(traced.location());
        }
        (!cases.is_empty()).then_some(Cases {
            file: CasesFile {
                profile: None,
                cases,
            },
            locations,
        })
    }
}

/// How one expected tool is reached from one utterance.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ToolReach {
    /// The tool.
    pub tool: String,
    /// Bound in the profile.
    pub bound: bool,
    /// Triggers, trigger words and name parts of its entry found in the utterance (empty for a
    /// bound tool, which has no index entry).
    pub index_words: Vec<String>,
    /// Its rank in the search results, if search finds it at all.
    pub search_rank: Option<usize>,
    /// The paths that reach it: `bound`, `index`, `search`.
    pub paths: Vec<&'static str>,
}

impl ToolReach {
    /// Whether any path reaches the tool.
    pub fn reached(&self) -> bool {
        !self.paths.is_empty()
    }
}

/// One case's result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CaseResult {
    /// `path:line:col` of the utterance.
    pub at: String,
    /// The utterance.
    pub utterance: String,
    /// Each expected tool.
    pub tools: Vec<ToolReach>,
}

impl CaseResult {
    /// Whether every expected tool is reached.
    pub fn reachable(&self) -> bool {
        self.tools.iter().all(ToolReach::reached)
    }
}

/// Recall of search at one cut-off.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Recall {
    /// The cut-off.
    pub k: usize,
    /// Expected tools ranked within the first `k`.
    pub found: usize,
    /// `found / expected`, rounded to three decimals.
    pub recall: f64,
    /// The configured minimum, if any.
    pub minimum: Option<f64>,
    /// Whether the recall is at least the minimum (or there is none).
    pub ok: bool,
}

/// The findability report.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReachReport {
    /// The profile checked.
    pub profile: String,
    /// Cases.
    pub cases: usize,
    /// Expected tools over all cases.
    pub expected: usize,
    /// How deep search must rank a tool to reach it.
    pub search_limit: usize,
    /// Recall@1, @3 and @5.
    pub recall: Vec<Recall>,
    /// Cases with a tool no path reaches.
    pub unreachable: usize,
    /// The configured maximum of unreachable cases.
    pub max_unreachable: usize,
    /// Every case.
    pub results: Vec<CaseResult>,
    /// Why the gate fails (empty when it passes).
    pub failures: Vec<String>,
}

/// The cut-offs of recall@k.
pub const CUTOFFS: [usize; 3] = [1, 3, 5];

/// Checks every case in `profile`.
pub fn reach(
    cases: &Cases,
    runtime: &Runtime<'_>,
    profile: &Profile,
    config: &ReachConfig,
) -> ReachReport {
    let mut results = Vec::with_capacity(cases.file.cases.len());
    let mut ranks = Vec::new();
    for (case, at) in cases.file.cases.iter().zip(&cases.locations) {
        let hits = runtime.search(&case.utterance);
        let tools = case
            .tools
            .iter()
            .map(|tool| {
                let bound = profile.is_bound(tool);
                let matched = hits
                    .iter()
                    .find(|h| &h.name == tool)
                    .map(|h| h.matched.clone())
                    .unwrap_or_default();
                let index_words = if bound {
                    Vec::new()
                } else {
                    index_words(&matched)
                };
                let search_rank = hits.iter().find(|h| &h.name == tool).map(|h| h.rank);
                ranks.push(search_rank);
                let mut paths = Vec::new();
                if bound {
                    paths.push("bound");
                }
                if !index_words.is_empty() {
                    paths.push("index");
                }
                if search_rank.is_some_and(|r| r <= config.search_limit) {
                    paths.push("search");
                }
                ToolReach {
                    tool: tool.clone(),
                    bound,
                    index_words,
                    search_rank,
                    paths,
                }
            })
            .collect();
        results.push(CaseResult {
            at: at.clone(),
            utterance: case.utterance.clone(),
            tools,
        });
    }
    let expected = ranks.len();
    let minimums = [
        config.min_recall_at_1,
        config.min_recall_at_3,
        config.min_recall_at_5,
    ];
    let recall: Vec<Recall> = CUTOFFS
        .iter()
        .zip(minimums)
        .map(|(&k, minimum)| {
            let found = ranks.iter().filter(|r| r.is_some_and(|r| r <= k)).count();
            let exact = if expected == 0 {
                1.0
            } else {
                found as f64 / expected as f64
            };
            Recall {
                k,
                found,
                recall: (exact * 1000.0).round() / 1000.0,
                minimum,
                ok: minimum.is_none_or(|m| exact >= m),
            }
        })
        .collect();
    let unreachable = results.iter().filter(|r| !r.reachable()).count();
    let mut failures: Vec<String> = recall
        .iter()
        .filter(|r| !r.ok)
        .map(|r| {
            format!(
                "recall@{} is {:.1}% ({} of {expected}), below `reach.min_recall_at_{}` {:.1}%",
                r.k,
                r.recall * 100.0,
                r.found,
                r.k,
                r.minimum.unwrap_or(0.0) * 100.0
            )
        })
        .collect();
    if unreachable > config.max_unreachable {
        failures.push(format!(
            "{unreachable} {} no path reaches, more than `reach.max_unreachable` ({})",
            if unreachable == 1 { "case" } else { "cases" },
            config.max_unreachable
        ));
    }
    ReachReport {
        profile: profile.name.clone(),
        cases: results.len(),
        expected,
        search_limit: config.search_limit,
        recall,
        unreachable,
        max_unreachable: config.max_unreachable,
        results,
        failures,
    }
}

fn index_words(matched: &Matched) -> Vec<String> {
    matched
        .triggers
        .iter()
        .chain(&matched.trigger_words)
        .chain(&matched.name_parts)
        .cloned()
        .collect()
}
