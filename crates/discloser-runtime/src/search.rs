//! Keyword search over the one vocabulary the index renders: trigger words, name parts and the
//! summary.
//!
//! A tool's vocabulary is built from exactly what its index entry shows: its triggers
//! (normalised as the index renders them), the parts of its name, and the terms of its packed
//! summary. A query scores each tool (weights: [`TRIGGER_WEIGHT`] 10, [`TRIGGER_WORD_WEIGHT`] 4,
//! [`NAME_PART_WEIGHT`] 3, [`DESCRIPTION_WORD_WEIGHT`] 1):
//!
//! - every trigger found whole in the query ([`contains_phrase`]: a substring of the folded
//!   query, so `我想写商业计划书` finds `商业计划书`; a trigger of a spaced script must not start
//!   or end inside a word, so `bp` is not found in `bpm`);
//! - every other query term that is a term of one of the tool's triggers (`slot` of `book a
//!   slot`, `业务` of `能做什么业务`), not counting the terms of triggers already found whole;
//! - every remaining query term that is a part of the tool's name;
//! - every remaining query term that is a term of the tool's summary.
//!
//! Each query term counts once per tool, in the highest tier it matches. Tools scoring 0 are not
//! hits. Ranking: higher score first; then more whole triggers; then the longest whole trigger
//! (more specific); then more name parts; then the name in code-point order. The order is total,
//! so the same catalog and query always give the same ranking.

use std::collections::BTreeSet;

use serde::Serialize;

use super::text::{contains_phrase, fold, name_parts, term_set, terms};
use crate::catalog::Catalog;
use crate::config::IndexConfig;
use crate::index::{normalize_triggers, pack_summary};

/// Points for a trigger found whole in the query.
pub const TRIGGER_WEIGHT: u32 = 10;
/// Points for a query term that is a term of a trigger not found whole.
pub const TRIGGER_WORD_WEIGHT: u32 = 4;
/// Points for a query term that is a part of the tool's name.
pub const NAME_PART_WEIGHT: u32 = 3;
/// Points for a query term that is a term of the tool's summary.
pub const DESCRIPTION_WORD_WEIGHT: u32 = 1;

/// The searchable vocabulary of one tool.
#[derive(Clone, Debug)]
struct Vocabulary {
    name: String,
    /// `(as rendered, folded)`, in the index's order.
    triggers: Vec<(String, String)>,
    trigger_terms: BTreeSet<String>,
    name_parts: BTreeSet<String>,
    description_terms: BTreeSet<String>,
}

/// The vocabularies of every tool of a catalog, built once and searched many times.
#[derive(Clone, Debug)]
pub struct SearchIndex {
    tools: Vec<Vocabulary>,
}

/// What a query matched in one tool.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Matched {
    /// Triggers found whole in the query, as the index renders them.
    pub triggers: Vec<String>,
    /// Query terms that are terms of the tool's other triggers.
    pub trigger_words: Vec<String>,
    /// Query terms that are parts of the tool's name.
    pub name_parts: Vec<String>,
    /// Query terms that are terms of the tool's summary.
    pub description_words: Vec<String>,
}

impl Matched {
    /// Whether the query shares a trigger, a trigger word or a name part with the tool: the
    /// words a model reading the index line would connect with the request.
    pub fn shares_index_words(&self) -> bool {
        !self.triggers.is_empty() || !self.trigger_words.is_empty() || !self.name_parts.is_empty()
    }

    /// Whether the query shares any word of the tool's index line: its triggers, name or
    /// summary (an invented `get_forecast` is near a tool whose summary says "weather
    /// forecast").
    pub fn shares_line_words(&self) -> bool {
        self.shares_index_words() || !self.description_words.is_empty()
    }
}

/// One ranked tool.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Hit {
    /// 1-based rank.
    pub rank: usize,
    /// The tool name.
    pub name: String,
    /// The score (see [`TRIGGER_WEIGHT`] and the other weights).
    pub score: u32,
    /// What matched.
    pub matched: Matched,
}

impl SearchIndex {
    /// Builds the vocabularies of every tool, summaries packed as the index packs them.
    pub fn new(catalog: &Catalog, config: &IndexConfig) -> SearchIndex {
        let tools = catalog
            .tools
            .iter()
            .map(|tool| {
                let triggers: Vec<(String, String)> = normalize_triggers(&tool.triggers)
                    .into_iter()
                    .map(|t| {
                        let folded = fold(&t);
                        (t, folded)
                    })
                    .collect();
                let trigger_terms = triggers
                    .iter()
                    .flat_map(|(_, folded)| terms(folded))
                    .collect();
                let budget = tool.summary_budget.unwrap_or(config.summary_budget);
                let summary = pack_summary(&tool.description, budget);
                Vocabulary {
                    name: tool.name.clone(),
                    triggers,
                    trigger_terms,
                    name_parts: name_parts(&tool.name).into_iter().collect(),
                    description_terms: term_set(&summary.text),
                }
            })
            .collect();
        SearchIndex { tools }
    }

    /// Every tool matching `query`, best first (see the module docs for the order). An empty
    /// query matches nothing.
    pub fn search(&self, query: &str) -> Vec<Hit> {
        let folded = fold(query);
        if folded.trim().is_empty() {
            return Vec::new();
        }
        let query_terms: BTreeSet<String> = terms(&folded).into_iter().collect();
        let mut scored: Vec<(Key, Hit)> = self
            .tools
            .iter()
            .filter_map(|tool| score(tool, &folded, &query_terms))
            .collect();
        scored.sort_by(|a, b| a.0.cmp(&b.0));
        scored
            .into_iter()
            .enumerate()
            .map(|(i, (_, mut hit))| {
                hit.rank = i + 1;
                hit
            })
            .collect()
    }

    /// The best `limit` hits.
    pub fn top(&self, query: &str, limit: usize) -> Vec<Hit> {
        let mut hits = self.search(query);
        hits.truncate(limit);
        hits
    }

    /// The 1-based rank of `tool` for `query`, if it matches at all.
    pub fn rank_of(&self, query: &str, tool: &str) -> Option<usize> {
        self.search(query)
            .iter()
            .find(|h| h.name == tool)
            .map(|h| h.rank)
    }

    /// What `query` matches in `tool` (empty when nothing, or when the tool is unknown).
    pub fn matched(&self, query: &str, tool: &str) -> Matched {
        let folded = fold(query);
        let query_terms: BTreeSet<String> = terms(&folded).into_iter().collect();
        self.tools
            .iter()
            .find(|v| v.name == tool)
            .and_then(|v| score(v, &folded, &query_terms))
            .map(|(_, hit)| hit.matched)
            .unwrap_or_default()
    }
}

/// The sort key: ascending order is best first.
type Key = (
    std::cmp::Reverse<u32>,
    std::cmp::Reverse<usize>,
    std::cmp::Reverse<usize>,
    std::cmp::Reverse<usize>,
    String,
);

fn score(tool: &Vocabulary, folded: &str, query_terms: &BTreeSet<String>) -> Option<(Key, Hit)> {
    let mut matched = Matched::default();
    let mut covered: BTreeSet<String> = BTreeSet::new();
    for (shown, trigger) in &tool.triggers {
        if contains_phrase(folded, trigger) {
            matched.triggers.push(shown.clone());
            covered.extend(terms(trigger));
        }
    }
    for term in query_terms.iter().filter(|t| !covered.contains(*t)) {
        if tool.trigger_terms.contains(term) {
            matched.trigger_words.push(term.clone());
        } else if tool.name_parts.contains(term) {
            matched.name_parts.push(term.clone());
        } else if tool.description_terms.contains(term) {
            matched.description_words.push(term.clone());
        }
    }
    let count = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
    let score = TRIGGER_WEIGHT * count(matched.triggers.len())
        + TRIGGER_WORD_WEIGHT * count(matched.trigger_words.len())
        + NAME_PART_WEIGHT * count(matched.name_parts.len())
        + DESCRIPTION_WORD_WEIGHT * count(matched.description_words.len());
    if score == 0 {
        return None;
    }
    let longest = matched
        .triggers
        .iter()
        .map(|t| t.chars().count())
        .max()
        .unwrap_or(0);
    let key = (
        std::cmp::Reverse(score),
        std::cmp::Reverse(matched.triggers.len()),
        std::cmp::Reverse(longest),
        std::cmp::Reverse(matched.name_parts.len()),
        tool.name.clone(),
    );
    let hit = Hit {
        rank: 0,
        name: tool.name.clone(),
        score,
        matched,
    };
    Some((key, hit))
}
