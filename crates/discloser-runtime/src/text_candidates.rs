//! Trigger candidates from a tool's own text, for a catalog that has no traces yet (the stubs
//! `discloser init` writes): the words of its name and description that set it apart from the
//! catalog's other tools.
//!
//! **Candidates.** The terms ([`crate::text::terms`]) of the tool's name parts, its description
//! and the values of its parameters' enums: words of spaced scripts of at least three characters
//! (stop words and numbers dropped), and Han or kana bigrams. A plural (`slots`, `boxes`) is
//! merged into its singular when both occur.
//!
//! **Score.** `tf × idf`: how often the tool's text uses the term, times `ln(N / df)`, where `df`
//! of the catalog's `N` tools use it; a word of the tool's name counts twice, since a name is
//! written to say what the tool is for. A term every tool uses scores zero and is left out (in
//! a catalog of at least two tools). Ties break by first appearance (name first), so the order
//! is total and the stubs are byte-stable.
//!
//! Each candidate says whether it is already in the tool's index line (its name, required
//! parameters and closed values, packed summary): the search tool matches those words anyway,
//! so the others are the ones a trigger adds most.
//!
//! These are the tool author's words, not the user's: they are proposals to edit, which is why
//! `init` writes them as a comment beside an empty list rather than as triggers.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;
use serde_json::Value;

use crate::catalog::Catalog;
use crate::config::IndexConfig;
use crate::text::{fold, name_parts, term_set, terms};

/// Candidates shown per tool when the caller gives no limit.
pub const DEFAULT_LIMIT: usize = 6;

/// One candidate word.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TextCandidate {
    /// The word (folded).
    pub word: String,
    /// It is already a word of the tool's index line.
    pub in_line: bool,
}

/// The candidates of every tool of `catalog` (by name; every tool has an entry, possibly
/// empty), best first, at most `limit` each; `config` renders the index lines they are
/// checked against.
pub fn from_text(
    catalog: &Catalog,
    config: &IndexConfig,
    limit: usize,
) -> BTreeMap<String, Vec<TextCandidate>> {
    let texts: Vec<(Vec<String>, Vec<String>)> = catalog
        .tools
        .iter()
        .map(|tool| {
            let name: Vec<String> = name_parts(&tool.name)
                .into_iter()
                .filter(|t| keep(t))
                .collect();
            let mut described: Vec<String> = terms(&fold(&tool.description))
                .into_iter()
                .filter(|t| keep(t))
                .collect();
            // Unpacked for this tool only (see `Parameters::with`).
            tool.parameters.with(|root| {
                described.extend(
                    enum_values(root)
                        .flat_map(|v| terms(&fold(v)))
                        .filter(|t| keep(t)),
                );
            });
            (name, described)
        })
        .collect();
    // A line's words are those the search tool matches in it: the terms of the signature and
    // the summary, and the parts of the name (`runJarAgent` has `run`).
    let lines: Vec<BTreeSet<String>> = crate::index::build_entries(catalog, config)
        .into_iter()
        .zip(&texts)
        .map(|(e, (name, _))| {
            let mut words = term_set(&format!("{} {}", e.signature, e.summary));
            words.extend(name.iter().cloned());
            words
        })
        .collect();
    let mut df: BTreeMap<&str, usize> = BTreeMap::new();
    for (name, described) in &texts {
        let distinct: BTreeSet<&str> = name.iter().chain(described).map(String::as_str).collect();
        for term in distinct {
            *df.entry(term).or_default() += 1;
        }
    }
    let n = texts.len() as f64;
    catalog
        .tools
        .iter()
        .zip(&texts)
        .zip(&lines)
        .map(|((tool, (name, described)), line)| {
            // (term, score, first appearance)
            let mut scored: Vec<(&str, f64, usize)> = Vec::new();
            for (i, term) in name.iter().chain(described).enumerate() {
                let weight = if i < name.len() { 2.0 } else { 1.0 };
                match scored.iter_mut().find(|(t, _, _)| *t == term) {
                    Some(entry) => entry.1 += weight,
                    None => scored.push((term, weight, i)),
                }
            }
            let mut ranked: Vec<(&str, f64, usize)> = scored
                .into_iter()
                .map(|(term, tf, first)| {
                    let idf = (n / df[term] as f64).ln();
                    (term, if texts.len() < 2 { tf } else { tf * idf }, first)
                })
                .filter(|(_, score, _)| *score > 0.0)
                .collect();
            merge_plurals(&mut ranked);
            ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.2.cmp(&b.2)));
            let words = ranked
                .into_iter()
                .take(limit)
                .map(|(term, _, _)| TextCandidate {
                    word: term.to_owned(),
                    in_line: line.contains(term),
                })
                .collect();
            (tool.name.clone(), words)
        })
        .collect()
}

/// The words of `found` its tool's index line lacks, then those it already has, each in
/// `found`'s order.
pub fn split(found: &[TextCandidate]) -> (Vec<&str>, Vec<&str>) {
    let words = |in_line: bool| {
        found
            .iter()
            .filter(|c| c.in_line == in_line)
            .map(|c| c.word.as_str())
            .collect()
    };
    (words(false), words(true))
}

/// Folds `slots` into `slot` and `boxes` into `box` when both are candidates: the singular
/// keeps the earlier appearance and the sum of the scores.
fn merge_plurals(ranked: &mut Vec<(&str, f64, usize)>) {
    let mut i = 0;
    while i < ranked.len() {
        let word = ranked[i].0;
        let singular = [word.strip_suffix("es"), word.strip_suffix('s')]
            .into_iter()
            .flatten()
            .find_map(|stem| ranked.iter().position(|(t, _, _)| *t == stem));
        match singular {
            Some(j) if j != i => {
                let (_, score, first) = ranked.remove(i);
                let j = if j > i { j - 1 } else { j };
                ranked[j].1 += score;
                ranked[j].2 = ranked[j].2.min(first);
            }
            _ => i += 1,
        }
    }
}

/// The string values of the enums of the tool's top-level parameters.
fn enum_values(parameters: &Value) -> impl Iterator<Item = &str> {
    parameters
        .get("properties")
        .and_then(Value::as_object)
        .into_iter()
        .flat_map(|props| props.values())
        .filter_map(|p| p.get("enum").and_then(Value::as_array))
        .flatten()
        .filter_map(Value::as_str)
}

/// A candidate says something: not a number, and a word of a spaced script has at least three
/// characters (`id`, `db` are too short to be what users type about a tool).
fn keep(term: &str) -> bool {
    let spaced = term.chars().all(crate::text::is_spaced_word_char);
    !term.chars().all(|c| c.is_numeric()) && (!spaced || term.chars().count() >= 3)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::SourceFile;

    fn catalog(yaml: &str) -> Catalog {
        Catalog::from_sources(
            vec![SourceFile::from_text(yaml, "tools.yaml".into())],
            std::path::Path::new("/"),
        )
        .unwrap()
    }

    #[test]
    fn distinctive_words_first_and_shared_words_out() {
        let catalog = catalog(
            "- name: read_file\n  description: Read the complete contents of a file from the file system.\n\
             - name: write_file\n  description: Create a new file or overwrite a file with new content.\n\
             - name: search_files\n  description: Recursively search for a file or directory matching a pattern.\n",
        );
        let found = words(&catalog, 4);
        assert_eq!(
            found["read_file"],
            ["read", "complete", "contents", "system"]
        );
        assert_eq!(
            found["write_file"][..2],
            ["write".to_owned(), "new".to_owned()]
        );
        assert!(
            found
                .values()
                .all(|words| !words.iter().any(|w| w == "file"))
        );
    }

    #[test]
    fn a_lone_tool_keeps_its_words_and_cjk_gives_bigrams() {
        let catalog = catalog("- name: 商业计划\n  description: 写商业计划书 for 2024.\n");
        let found = words(&catalog, 10);
        assert!(found["商业计划"].contains(&"商业".to_owned()));
        assert!(!found["商业计划"].contains(&"2024".to_owned()));
    }

    #[test]
    fn the_parts_of_a_camel_case_name_are_words_of_its_line() {
        let catalog = catalog(
            "- name: runJarAgent\n  description: Start the packaged program.\n\
             - name: other\n  description: Something else entirely.\n",
        );
        let found = &from_text(&catalog, &IndexConfig::default(), 10)["runJarAgent"];
        let run = found.iter().find(|c| c.word == "run").expect("a candidate");
        assert!(
            run.in_line,
            "the search matches `run` in the name: {found:?}"
        );
    }

    fn words(catalog: &Catalog, limit: usize) -> BTreeMap<String, Vec<String>> {
        from_text(catalog, &IndexConfig::default(), limit)
            .into_iter()
            .map(|(tool, found)| (tool, found.into_iter().map(|c| c.word).collect()))
            .collect()
    }

    #[test]
    fn plurals_merge_enum_values_count_and_words_of_the_line_are_marked() {
        let catalog = catalog(
            "- name: book_slot\n  description: Book one of the free slots at the office for an in-person visit with an advisor. Slots open at nine at the reception desk.\n  parameters:\n    type: object\n    properties:\n      cabin: {type: string, enum: [economy, business]}\n    required: [cabin]\n\
             - name: other\n  description: Something else entirely.\n",
        );
        let found = &from_text(&catalog, &IndexConfig::default(), 20)["book_slot"];
        let word = |w: &str| found.iter().find(|c| c.word == w);
        assert!(word("slots").is_none(), "{found:?}");
        assert_eq!(
            found[0].word, "slot",
            "name words weigh twice, the plural adds"
        );
        assert!(word("slot").unwrap().in_line);
        assert!(
            word("economy").unwrap().in_line,
            "closed values are in the line"
        );
        assert!(
            !word("reception").unwrap().in_line,
            "beyond the packed summary"
        );
    }
}
