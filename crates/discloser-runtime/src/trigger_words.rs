//! Trigger words drawn from the words users typed: for each tool, the words and phrases of the
//! turns that needed it that are not yet among its triggers, ranked by how distinctive they are
//! for this tool against every other turn.
//!
//! **Which turns needed a tool.** A turn that called it unbound (origin `catalog` or `search`),
//! a turn whose first call to it failed, and a turn with an invented name whose nearest real
//! tool it is: the turns where the index line had to make the model choose it, and where a
//! better line would have helped. Only turns with a recorded `user` message count.
//!
//! **Candidates.** The terms of the user's message ([`crate::text::terms`]: words of spaced
//! scripts, stop words dropped), pairs of adjacent words (`business plan`), and the runs of
//! characters of unspaced scripts (Han, kana) cut into 2- to 4-character phrases (`营业执照`),
//! none starting or ending with a Chinese function word ([`CJK_STOP_BIGRAMS`],
//! [`CJK_EDGE_STOP_CHARS`]). With no spaces to say where a
//! word ends, a phrase must stand free in the tool's turns: at least two different characters
//! (or the edge of the run) before it, and two after it, across its occurrences — the
//! *accessor variety* criterion of word extraction without a dictionary (Feng et al. 2004), so
//! `营业执照` is kept and a fragment of one user's sentence (`围就是卖`) is not. A candidate
//! already a trigger of the tool, or a part of one, is left out.
//!
//! **Score.** The z-score of a smoothed log-odds ratio of turn frequencies (Monroe, Colaresi and
//! Quinn 2008, with a flat prior): `δ = ln((a + α) / (n − a + α)) − ln((b + α) / (m − b + α))`,
//! where `a` of the tool's `n` turns hold the candidate, `b` of the `m` other turns with a
//! message hold it, and `α = 0.5`, divided by its standard error `√(1/(a+α) + 1/(n−a+α) +
//! 1/(b+α) + 1/(m−b+α))`, so a word seen in eight of the tool's turns outranks one seen in two.
//! Words every turn uses score near zero or below; words of this tool's users score high. A
//! candidate needs at least [`MIN_TURNS`] of the tool's turns and a score of at least
//! [`MIN_SCORE`]. A
//! phrase that is part of a longer one found in as many of the tool's turns is dropped in
//! favour of the longer. Ties break by the candidate's text, so the order is total.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use super::resolve::{Origin, Runtime};
use super::text::{CJK_EDGE_STOP_CHARS, CJK_STOP_BIGRAMS, fold, term_set, terms};
use super::trace::Trace;
use crate::index::summary::is_cjk;

/// The smoothing of the log-odds score.
const ALPHA: f64 = 0.5;

/// A candidate must come from at least this many of the tool's turns.
pub const MIN_TURNS: usize = 2;

/// The least score a candidate needs: a z-score of 1.96 is a difference in frequency that
/// chance alone gives one time in twenty.
pub const MIN_SCORE: f64 = 1.96;

/// Candidates shown per tool when the caller gives no limit.
pub const DEFAULT_LIMIT: usize = 8;

/// Example turns kept per candidate.
const EXAMPLES: usize = 3;

/// One proposed trigger word or phrase.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Candidate {
    /// The word or phrase, folded (NFKC, lower case).
    pub text: String,
    /// The score (see the module's docs), rounded to three decimals.
    pub score: f64,
    /// Turns of the tool whose message holds it.
    pub turns: usize,
    /// Other turns (with a message) that hold it.
    pub other_turns: usize,
    /// Up to three of the tool's turns that hold it, `file:line`.
    pub examples: Vec<String>,
}

/// The proposals for one tool.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ToolProposal {
    /// The tool.
    pub tool: String,
    /// Its triggers today.
    pub triggers: Vec<String>,
    /// Turns with a message that needed it.
    pub turns: usize,
    /// The candidates, best first.
    pub candidates: Vec<Candidate>,
}

/// Every tool that some turn needed, most turns first (then by name).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TriggerReport {
    /// Turns that carry a `user` message.
    pub turns_with_message: usize,
    /// The proposals, one per tool.
    pub tools: Vec<ToolProposal>,
}

/// Proposes trigger words for every tool from the turns that needed it (at most `limit` per
/// tool).
pub fn suggest_triggers(runtime: &Runtime<'_>, trace: &Trace, limit: usize) -> TriggerReport {
    let catalog = runtime.catalog();
    // Per turn with a message: its candidates, and the tools it needed.
    let mut turn_candidates: Vec<BTreeSet<String>> = Vec::new();
    let mut turn_contexts: Vec<BTreeMap<String, Vec<Context>>> = Vec::new();
    let mut turn_location: Vec<String> = Vec::new();
    let mut needed: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for traced in &trace.turns {
        let Some(user) = traced.turn.user.as_deref().filter(|u| !u.trim().is_empty()) else {
            continue;
        };
        let index = turn_candidates.len();
        let (set, contexts) = candidates(user);
        turn_candidates.push(set);
        turn_contexts.push(contexts);
        turn_location.push(traced.location());
        let mut tools: BTreeSet<String> = BTreeSet::new();
        let mut seen: BTreeSet<&str> = BTreeSet::new();
        for call in &traced.turn.tools {
            let first = seen.insert(call.name.as_str());
            let in_catalog = catalog.get(&call.name).is_some();
            let unbound = matches!(call.origin, Some(Origin::Catalog | Origin::Search));
            let failed_first = first && call.ok == Some(false);
            if in_catalog && (unbound || failed_first) {
                tools.insert(call.name.clone());
            } else if !in_catalog
                && call.origin != Some(Origin::Search)
                && let Some(near) = runtime.nearest(&call.name).into_iter().next()
            {
                tools.insert(near.name);
            }
        }
        for tool in tools {
            needed.entry(tool).or_default().push(index);
        }
    }
    let total = turn_candidates.len();
    let mut document_frequency: BTreeMap<&str, usize> = BTreeMap::new();
    for set in &turn_candidates {
        for c in set {
            *document_frequency.entry(c.as_str()).or_default() += 1;
        }
    }
    let mut tools: Vec<ToolProposal> = needed
        .into_iter()
        .filter_map(|(name, turns)| {
            let tool = catalog.get(&name)?;
            let known: BTreeSet<String> = tool.triggers.iter().map(|t| fold(t)).collect();
            let known_terms: BTreeSet<String> =
                tool.triggers.iter().flat_map(|t| term_set(t)).collect();
            let mut holding: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
            for &t in &turns {
                for c in &turn_candidates[t] {
                    holding.entry(c.as_str()).or_default().push(t);
                }
            }
            let n = turns.len() as f64;
            let m = (total - turns.len()) as f64;
            let mut scored: Vec<Candidate> = holding
                .into_iter()
                .filter(|(c, ts)| {
                    ts.len() >= MIN_TURNS
                        && !known_terms.contains(*c)
                        && !known.iter().any(|k| k.contains(*c))
                        && stands_free(c, ts, &turn_contexts)
                })
                .filter_map(|(c, ts)| {
                    let a = ts.len() as f64;
                    let b = (document_frequency[c] - ts.len()) as f64;
                    let delta =
                        ((a + ALPHA) / (n - a + ALPHA)).ln() - ((b + ALPHA) / (m - b + ALPHA)).ln();
                    let variance = 1.0 / (a + ALPHA)
                        + 1.0 / (n - a + ALPHA)
                        + 1.0 / (b + ALPHA)
                        + 1.0 / (m - b + ALPHA);
                    let score = delta / variance.sqrt();
                    (score >= MIN_SCORE).then(|| Candidate {
                        text: c.to_owned(),
                        score: (score * 1000.0).round() / 1000.0,
                        turns: ts.len(),
                        other_turns: document_frequency[c] - ts.len(),
                        examples: ts
                            .iter()
                            .take(EXAMPLES)
                            .map(|&t| turn_location[t].clone())
                            .collect(),
                    })
                })
                .collect();
            // A phrase inside a longer candidate of as many turns says less: keep the longer.
            let longer: Vec<(String, usize)> =
                scored.iter().map(|c| (c.text.clone(), c.turns)).collect();
            scored.retain(|c| {
                !longer.iter().any(|(other, turns)| {
                    other.len() > c.text.len() && *turns >= c.turns && other.contains(&c.text)
                })
            });
            scored.sort_by(|a, b| {
                b.score
                    .total_cmp(&a.score)
                    .then(b.turns.cmp(&a.turns))
                    .then(a.text.cmp(&b.text))
            });
            scored.truncate(limit);
            Some(ToolProposal {
                tool: name,
                triggers: tool.triggers.clone(),
                turns: turns.len(),
                candidates: scored,
            })
        })
        .collect();
    tools.sort_by(|a, b| b.turns.cmp(&a.turns).then(a.tool.cmp(&b.tool)));
    TriggerReport {
        turns_with_message: total,
        tools,
    }
}

/// What stands before and after one occurrence of a phrase of an unspaced script (`None`: the
/// edge of the run).
type Context = (Option<char>, Option<char>);

/// Whether a phrase of an unspaced script has at least two different characters (an edge of a
/// run counting as a new one each time) before it and two after it across the turns `ts` (see
/// the module's docs); words of spaced scripts always stand free.
fn stands_free(phrase: &str, ts: &[usize], contexts: &[BTreeMap<String, Vec<Context>>]) -> bool {
    let seen: Vec<&Context> = ts
        .iter()
        .filter_map(|&t| contexts[t].get(phrase))
        .flatten()
        .collect();
    if seen.is_empty() {
        return true;
    }
    let variety = |side: &dyn Fn(&Context) -> Option<char>| {
        let edges = seen.iter().filter(|c| side(c).is_none()).count();
        let chars: BTreeSet<char> = seen.iter().filter_map(|c| side(c)).collect();
        edges + chars.len()
    };
    variety(&|c| c.0) >= 2 && variety(&|c| c.1) >= 2
}

/// The candidate phrases of one message (see the module's docs), and the contexts of its
/// phrases of unspaced scripts.
fn candidates(user: &str) -> (BTreeSet<String>, BTreeMap<String, Vec<Context>>) {
    let folded = fold(user);
    let mut out = BTreeSet::new();
    let mut contexts: BTreeMap<String, Vec<Context>> = BTreeMap::new();
    let words = terms(&folded);
    let spaced: Vec<&String> = words.iter().filter(|w| !w.chars().any(is_cjk)).collect();
    out.extend(spaced.iter().map(|w| (*w).clone()));
    // Adjacent words of the message itself (terms drop stop words, so pairs come from the
    // folded text: `business plan`, not `plan for`).
    let tokens: Vec<&str> = folded
        .split(|c: char| !super::text::is_spaced_word_char(c))
        .collect();
    for pair in tokens.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        if spaced.iter().any(|w| w.as_str() == a) && spaced.iter().any(|w| w.as_str() == b) {
            out.insert(format!("{a} {b}"));
        }
    }
    for run in folded
        .split(|c: char| !(is_cjk(c) && c.is_alphanumeric()))
        .filter(|r| r.chars().count() >= 2)
    {
        let chars: Vec<char> = run.chars().collect();
        for n in 2..=4.min(chars.len()) {
            for start in 0..=chars.len() - n {
                let window = &chars[start..start + n];
                let phrase: String = window.iter().collect();
                let head: String = window[..2].iter().collect();
                let tail: String = window[n - 2..].iter().collect();
                let stop = |s: &str| CJK_STOP_BIGRAMS.binary_search(&s).is_ok();
                let edge = |c: char| CJK_EDGE_STOP_CHARS.binary_search(&c).is_ok();
                if !stop(&head) && !stop(&tail) && !edge(window[0]) && !edge(window[n - 1]) {
                    let before = start.checked_sub(1).map(|i| chars[i]);
                    let after = chars.get(start + n).copied();
                    contexts
                        .entry(phrase.clone())
                        .or_default()
                        .push((before, after));
                    out.insert(phrase);
                }
            }
        }
    }
    (out, contexts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn candidates_are_words_pairs_and_cjk_phrases() {
        let got: Vec<String> = candidates("我想办营业执照 for my Business Plan")
            .0
            .into_iter()
            .collect();
        assert!(got.contains(&"营业执照".to_owned()), "{got:?}");
        assert!(got.contains(&"business plan".to_owned()), "{got:?}");
        assert!(got.contains(&"business".to_owned()), "{got:?}");
        assert!(!got.iter().any(|c| c.starts_with("我想")), "{got:?}");
        assert!(!got.contains(&"for".to_owned()), "{got:?}");
        assert!(!got.contains(&"plan for".to_owned()), "{got:?}");
    }
}
