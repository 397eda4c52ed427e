//! The starter set chosen from real usage: which tools to bind so that the expected tokens per
//! turn are lowest.
//!
//! **The cost model.** Over the trace's turns of profile `P` (a turn without `profile` counts as
//! `default`), for each catalog tool `t`:
//!
//! - `u` — its usage: the share of those turns with a call of `t`;
//! - `f` — its first-call failure rate: *preventable* failed first calls over first calls
//!   reached unbound (see [`super::trace`]); for a tool never reached unbound in the trace
//!   (always bound, or unused), the pooled rate of every tool's unbound first calls (0 when
//!   there are none). A failure is preventable when binding the full schema would have avoided
//!   it: a missing required parameter, a wrong type, an unknown parameter, a value outside the
//!   enum of a parameter the index line does not list. A value outside an enum whose values
//!   the line already shows (`kind: a|b`) is not: the model saw them and chose another, and the
//!   full schema would have shown it the same list;
//! - `s` — its search share: of its unbound first calls, those that came through the search tool
//!   (0 when it has none);
//! - `R` — a round trip: about one turn's input tokens, the mean `input_tokens` of those turns,
//!   or `--round-trip N`;
//! - `D` and `E` — the tokens of its full definition and of its index line, counted exactly as
//!   `discloser cost --by-tool` counts them.
//!
//! Kept bound, `t` costs `D` every turn. Indexed, it costs `E` every turn plus, on the turns that
//! use it, a round trip for a failed first call and one for every search: `E + u·R·(f + s)`.
//! Core tools stay bound. The suggested set binds every tool whose bound cost is lower (a tie
//! keeps the current placement); as the costs are per tool, that set minimises the expected
//! tokens per turn. The totals of a set are its definition tokens exactly as `discloser cost`
//! counts the profile (bound definitions, the rendered index, the search tool when configured)
//! plus the expected round-trip tokens of its indexed tools.
//!
//! **Evidence.** A tool whose placement changes on fewer than [`MIN_EVIDENCE_TURNS`] turns —
//! the turns that use it, or the profile's turns for a tool never used — is marked
//! low-evidence: five turns say little about next week's. `--write-profile` refuses a
//! suggestion with such a change unless `--force` is given.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use super::Runtime;
use super::trace::{Tally, Trace, classify, tally};
use crate::cost::{Counter, Provider, TokenizerKind};
use crate::diagnostic::LoadError;
use crate::index::{Style, build_entry, build_index, render};
use crate::project::{DEFAULT_PROFILE, Profile, Project};

/// A placement changed on fewer turns than this is low-evidence.
pub const MIN_EVIDENCE_TURNS: usize = 10;

/// Where a tool is in a starter set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Placement {
    /// Bound: its full definition is sent.
    Bound,
    /// Indexed: one line in the index.
    Indexed,
}

impl Placement {
    /// The placement as written in reports.
    pub fn as_str(self) -> &'static str {
        match self {
            Placement::Bound => "bound",
            Placement::Indexed => "indexed",
        }
    }
}

/// Options of a suggestion.
#[derive(Clone, Debug)]
pub struct SuggestOptions {
    /// The profile whose starter set is replaced.
    pub profile: String,
    /// The round-trip cost in tokens (default: the trace's mean input tokens per turn).
    pub round_trip: Option<u64>,
    /// How definitions are serialised.
    pub provider: Provider,
    /// How tokens are counted.
    pub tokenizer: TokenizerKind,
}

/// One tool's placement and why.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ToolPlacement {
    /// The tool.
    pub tool: String,
    /// A core tool (always bound).
    pub core: bool,
    /// Its placement in the profile now.
    pub current: Placement,
    /// Its suggested placement.
    pub suggested: Placement,
    /// Turns of the profile that use it.
    pub turns_used: usize,
    /// `u`: `turns_used` over the profile's turns.
    pub usage: f64,
    /// First calls reached unbound.
    pub unbound_first_calls: usize,
    /// Of those, failed.
    pub first_call_failures: usize,
    /// Of those failures, the ones binding the schema would have prevented (the others sent
    /// a value outside an enum the index line already lists).
    pub preventable_failures: usize,
    /// Of those, reached through search.
    pub search_first_calls: usize,
    /// `f`: the failure rate used.
    pub failure_rate: f64,
    /// Whether `f` was observed for this tool (else pooled).
    pub failure_rate_observed: bool,
    /// `s`: the search share used.
    pub search_rate: f64,
    /// `D`: tokens of its definition.
    pub definition_tokens: u64,
    /// `E`: tokens of its index line.
    pub entry_tokens: u64,
    /// Expected tokens per turn indexed: `E + u·R·(f + s)` (one decimal).
    pub indexed_cost: f64,
    /// The placement changes on fewer than [`MIN_EVIDENCE_TURNS`] turns of evidence.
    pub low_evidence: bool,
    /// One line explaining the placement.
    pub reason: String,
}

/// The cost of one starter set.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SetCost {
    /// `current (P)` or `suggested`.
    pub name: String,
    /// Tools bound (catalog tools; the search tool is counted in the tokens, not here).
    pub bound: usize,
    /// Tools indexed.
    pub indexed: usize,
    /// Definition tokens per turn, as `discloser cost` counts the profile.
    pub definition_tokens: u64,
    /// Expected round-trip tokens per turn of its indexed tools (one decimal).
    pub round_trip_tokens: f64,
    /// The sum (one decimal).
    pub expected_tokens: f64,
}

/// The suggestion.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Suggestion {
    /// The profile.
    pub profile: String,
    /// The profile's turns in the trace.
    pub turns: usize,
    /// `R`.
    pub round_trip: u64,
    /// Where `R` came from: `trace` (mean input tokens) or `option`.
    pub round_trip_source: &'static str,
    /// The pooled first-call failure rate.
    pub pooled_failure_rate: f64,
    /// The serialisation of definitions.
    pub provider: Provider,
    /// The tokenizer.
    pub tokenizer: TokenizerKind,
    /// The suggested starter set: bound tools that are not core, by name.
    pub starter: Vec<String>,
    /// Every tool the suggested set binds (core included), by name.
    pub bound: Vec<String>,
    /// The current set, then the suggested one.
    pub sets: Vec<SetCost>,
    /// Every catalog tool: moved ones first (into the starter set, then out), then by name.
    pub tools: Vec<ToolPlacement>,
    /// The profile written to the config (`--write-profile`), once it is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub written: Option<WrittenProfile>,
}

/// A suggested profile written to the config.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct WrittenProfile {
    /// The profile name.
    pub name: String,
    /// The config file, as shown.
    pub path: String,
}

impl Suggestion {
    /// Whether the suggested set differs from the current one.
    pub fn changes(&self) -> bool {
        self.tools.iter().any(|t| t.current != t.suggested)
    }
}

/// Suggests the starter set of `options.profile` from the turns of `trace` in that profile (a
/// turn without `profile` counts as `default`); calls without a recorded origin are classified
/// first ([`classify`]).
pub fn suggest(
    project: &Project,
    runtime: &Runtime<'_>,
    trace: &Trace,
    options: &SuggestOptions,
) -> Result<Suggestion, SuggestError> {
    let profile = project.profile(&options.profile)?;
    // Only the profile's turns count; calls without a recorded origin are classified in it.
    let mut own = Trace {
        sources: trace.sources.clone(),
        turns: trace
            .turns
            .iter()
            .filter(|turn| turn.profile_name(DEFAULT_PROFILE) == profile.name)
            .cloned()
            .collect(),
    };
    let profiles = vec![profile.clone(); own.turns.len()];
    classify(&mut own, runtime, &profiles);
    let t = tally(&own, runtime, |_| true);
    if t.turns == 0 {
        let found: BTreeSet<&str> = trace
            .turns
            .iter()
            .map(|turn| turn.profile_name(DEFAULT_PROFILE))
            .collect();
        return Err(SuggestError::NoTurns {
            profile: profile.name.clone(),
            found: found
                .into_iter()
                .map(|p| format!("`{p}`"))
                .collect::<Vec<_>>()
                .join(", "),
        });
    }
    let (round_trip, round_trip_source) = match options.round_trip {
        // Beyond it the tokens stop being exact as `f64` and `i64` (was: `-1` tokens).
        Some(r) if r > super::trace::MAX_COUNT => {
            return Err(SuggestError::RoundTripOutOfRange { round_trip: r });
        }
        Some(r) => (r, "option"),
        None => match super::trace::mean(&t.input_tokens) {
            Some(mean) => (mean.round() as u64, "trace"),
            None => {
                return Err(SuggestError::NoRoundTrip {
                    profile: profile.name.clone(),
                });
            }
        },
    };
    let counter = Counter::new(options.tokenizer);
    let preventable = preventable_failures(project, &t);
    let pooled = pooled_rate(project, &t, &preventable);
    let mut tools = Vec::with_capacity(project.catalog.tools.len());
    let mut extras = Vec::with_capacity(project.catalog.tools.len());
    for i in 0..project.catalog.tools.len() {
        let (placement, extra) = place(
            project,
            i,
            &profile,
            &t,
            &preventable,
            round_trip,
            pooled,
            &counter,
            options.provider,
        );
        tools.push(placement);
        extras.push(extra);
    }
    let suggested_bound: BTreeSet<String> = tools
        .iter()
        .filter(|p| p.suggested == Placement::Bound)
        .map(|p| p.tool.clone())
        .collect();
    let suggested = Profile {
        name: profile.name.clone(),
        bound: suggested_bound.clone(),
    };
    let sets = vec![
        set_cost(
            &format!("current ({})", profile.name),
            project,
            &profile,
            &extras,
            &counter,
            options.provider,
        ),
        set_cost(
            "suggested",
            project,
            &suggested,
            &extras,
            &counter,
            options.provider,
        ),
    ];
    let core: BTreeSet<&str> = tools
        .iter()
        .filter(|p| p.core)
        .map(|p| p.tool.as_str())
        .collect();
    let starter = suggested_bound
        .iter()
        .filter(|n| !core.contains(n.as_str()))
        .cloned()
        .collect();
    tools.sort_by_key(|p| {
        let order = match (p.current, p.suggested) {
            (Placement::Indexed, Placement::Bound) => 0,
            (Placement::Bound, Placement::Indexed) => 1,
            _ => 2,
        };
        (order, p.tool.clone())
    });
    Ok(Suggestion {
        profile: profile.name.clone(),
        turns: t.turns,
        round_trip,
        round_trip_source,
        pooled_failure_rate: round(pooled, 3),
        provider: options.provider,
        tokenizer: options.tokenizer,
        starter,
        bound: suggested_bound.into_iter().collect(),
        sets,
        tools,
        written: None,
    })
}

/// Why no suggestion can be made.
#[derive(Debug, thiserror::Error)]
pub enum SuggestError {
    /// The profile does not exist.
    #[error(transparent)]
    Load(#[from] LoadError),
    /// No turn of the trace is of the profile.
    #[error("the trace has no turn of profile `{profile}` (profiles in the trace: {found})")]
    NoTurns {
        /// The profile asked for.
        profile: String,
        /// The profiles the trace's turns name.
        found: String,
    },
    /// No round-trip cost is known.
    #[error(
        "no turn of profile `{profile}` records `input_tokens`, so a round trip has no cost: pass `--round-trip N`"
    )]
    NoRoundTrip {
        /// The profile.
        profile: String,
    },
    /// The round-trip cost given is beyond [`crate::trace::MAX_COUNT`].
    #[error("a round trip of `{round_trip}` tokens is out of range: at most 1000000000000 (10^12)")]
    RoundTripOutOfRange {
        /// The cost given.
        round_trip: u64,
    },
}

/// Per tool, the failed first calls that binding its schema would have prevented: all but
/// those whose only errors are values outside enums the tool's index line lists.
fn preventable_failures(project: &Project, t: &Tally) -> BTreeMap<String, usize> {
    let catalog = &project.catalog;
    let config = project.index_config();
    let mut shown: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
    let mut out = BTreeMap::new();
    for failure in &t.failures {
        let Some(index) = catalog.index_of(&failure.tool) else {
            continue;
        };
        let listed = shown.entry(&catalog.tools[index].name).or_insert_with(|| {
            let tool = &catalog.tools[index];
            let budget = tool.summary_budget.unwrap_or(config.summary_budget);
            build_entry(catalog, index, budget, config.max_enum_values)
                .required
                .into_iter()
                .filter(|p| p.values.is_some() && p.ty.contains('|'))
                .map(|p| p.name)
                .collect()
        });
        let seen_values = !failure.outside_enum_only.is_empty()
            && failure.outside_enum_only.iter().all(|p| listed.contains(p));
        *out.entry(failure.tool.clone()).or_default() += usize::from(!seen_values);
    }
    out
}

/// Preventable failures over unbound first calls of every catalog tool (0 when there are
/// none).
fn pooled_rate(project: &Project, t: &Tally, preventable: &BTreeMap<String, usize>) -> f64 {
    let (failures, calls) = project
        .catalog
        .tools
        .iter()
        .filter_map(|tool| t.tools.get(&tool.name))
        .fold((0, 0), |(f, c), u| {
            (
                f + preventable.get(&u.name).copied().unwrap_or(0),
                c + u.unbound_first_calls,
            )
        });
    if calls == 0 {
        0.0
    } else {
        failures as f64 / calls as f64
    }
}

#[allow(clippy::too_many_arguments)]
fn place(
    project: &Project,
    index: usize,
    profile: &Profile,
    t: &Tally,
    preventable: &BTreeMap<String, usize>,
    round_trip: u64,
    pooled: f64,
    counter: &Counter,
    provider: Provider,
) -> (ToolPlacement, f64) {
    let catalog = &project.catalog;
    let config = project.index_config();
    let tool = &catalog.tools[index];
    let parameters = catalog.bundled(index);
    let serialized = provider.serialize(&tool.name, &tool.description, &parameters);
    let definition_tokens =
        counter.count_definition(&tool.name, &tool.description, &parameters, &serialized);
    let budget = tool.summary_budget.unwrap_or(config.summary_budget);
    let entry = build_entry(catalog, index, budget, config.max_enum_values);
    let entry_tokens = counter.count_text(&format!("{}\n", entry.line));
    let usage = t.tools.get(&tool.name);
    let turns_used = usage.map_or(0, |u| u.turns);
    let first_calls = usage.map_or(0, |u| u.unbound_first_calls);
    let failures = usage.map_or(0, |u| u.first_call_failures);
    let prevented = preventable.get(&tool.name).copied().unwrap_or(0);
    let searches = usage.map_or(0, |u| u.search_first_calls);
    let observed = first_calls > 0;
    let (failure_rate, search_rate) = if observed {
        (
            prevented as f64 / first_calls as f64,
            searches as f64 / first_calls as f64,
        )
    } else {
        (pooled, 0.0)
    };
    let u = turns_used as f64 / t.turns as f64;
    let extra = u * round_trip as f64 * (failure_rate + search_rate);
    let indexed_cost = entry_tokens as f64 + extra;
    let current = if profile.is_bound(&tool.name) {
        Placement::Bound
    } else {
        Placement::Indexed
    };
    let bound_cost = definition_tokens as f64;
    let suggested = if tool.core || bound_cost < indexed_cost {
        Placement::Bound
    } else if bound_cost > indexed_cost {
        Placement::Indexed
    } else {
        current
    };
    let evidence = if turns_used > 0 { turns_used } else { t.turns };
    let low_evidence = suggested != current && evidence < MIN_EVIDENCE_TURNS;
    let mut placement = ToolPlacement {
        tool: tool.name.clone(),
        core: tool.core,
        current,
        suggested,
        turns_used,
        usage: round(u, 3),
        unbound_first_calls: first_calls,
        first_call_failures: failures,
        preventable_failures: prevented,
        search_first_calls: searches,
        failure_rate: round(failure_rate, 3),
        failure_rate_observed: observed,
        search_rate: round(search_rate, 3),
        definition_tokens,
        entry_tokens,
        indexed_cost: round(indexed_cost, 1),
        low_evidence,
        reason: String::new(),
    };
    placement.reason = reason(&placement, t.turns, round_trip, indexed_cost);
    if low_evidence {
        placement.reason.push_str(&format!(
            " (low evidence: {evidence} turns, fewer than {MIN_EVIDENCE_TURNS})"
        ));
    }
    (placement, extra)
}

/// One line: the evidence, the formula with its numbers, the comparison that decides.
fn reason(p: &ToolPlacement, turns: usize, round_trip: u64, indexed_cost: f64) -> String {
    use crate::numfmt::{percent1, thousands};
    if p.core {
        return "a core tool, bound in every profile".to_owned();
    }
    let comparison = format!(
        "indexed {} {} bound {} tokens per turn",
        thousands(indexed_cost.round() as i64),
        match indexed_cost.partial_cmp(&(p.definition_tokens as f64)) {
            Some(std::cmp::Ordering::Less) => "<",
            Some(std::cmp::Ordering::Greater) => ">",
            _ => "=",
        },
        thousands(p.definition_tokens as i64)
    );
    if p.turns_used == 0 {
        return format!("never used in {turns} turns: {comparison}");
    }
    let mut evidence = format!(
        "used in {} of {turns} turns ({})",
        p.turns_used,
        percent1(p.usage)
    );
    if p.failure_rate_observed {
        evidence.push_str(&format!(
            "; {} of {} first calls from the index failed",
            p.first_call_failures, p.unbound_first_calls
        ));
        if p.preventable_failures < p.first_call_failures {
            evidence.push_str(&format!(
                " ({} preventable by binding: the others sent a value outside an enum the index line lists)",
                p.preventable_failures
            ));
        }
        if p.search_first_calls > 0 {
            evidence.push_str(&format!(
                ", {} came through search (a round trip each)",
                p.search_first_calls
            ));
        }
    } else {
        evidence.push_str(&format!(
            "; never reached from the index, so the pooled failure rate {} applies",
            percent1(p.failure_rate)
        ));
    }
    let rate = p.failure_rate + p.search_rate;
    format!(
        "{evidence}: indexed = {} + {} × {} × {} = {}; {comparison}",
        thousands(p.entry_tokens as i64),
        percent1(p.usage),
        thousands(round_trip as i64),
        percent1(rate),
        thousands(indexed_cost.round() as i64),
    )
}

fn set_cost(
    name: &str,
    project: &Project,
    profile: &Profile,
    extras: &[f64],
    counter: &Counter,
    provider: Provider,
) -> SetCost {
    let catalog = &project.catalog;
    let search = project.search_tool();
    // The schemas as sent, as `cost` counts them (file references bundled).
    let schemas: Vec<_> = (0..catalog.tools.len())
        .filter(|&i| profile.is_bound(&catalog.tools[i].name))
        .map(|i| (i, catalog.bundled(i)))
        .collect();
    let mut parts: Vec<(&str, &str, &serde_json::Value)> = schemas
        .iter()
        .map(|(i, schema)| {
            let t = &catalog.tools[*i];
            (t.name.as_str(), t.description.as_str(), schema.as_ref())
        })
        .collect();
    let bound = parts.len();
    if let Some(s) = &search {
        parts.push((&s.name, &s.description, &s.parameters));
    }
    let serialized: Vec<String> = parts
        .iter()
        .map(|(n, d, p)| provider.serialize(n, d, p))
        .collect();
    let index = build_index(catalog, profile, project.index_config());
    let definition_tokens = counter.count_definitions(&parts, &serialized)
        + counter.count_text(&render(&index, Style::Text));
    let round_trip_tokens: f64 = catalog
        .tools
        .iter()
        .zip(extras)
        .filter(|(t, _)| !profile.is_bound(&t.name))
        .map(|(_, extra)| extra)
        .sum();
    SetCost {
        name: name.to_owned(),
        bound,
        indexed: index.entries.len(),
        definition_tokens,
        round_trip_tokens: round(round_trip_tokens, 1),
        expected_tokens: round(definition_tokens as f64 + round_trip_tokens, 1),
    }
}

fn round(x: f64, decimals: i32) -> f64 {
    let factor = 10f64.powi(decimals);
    (x * factor).round() / factor
}
