//! Trigger candidates from a tool's own text, for a catalog that has no traces yet (the stubs
//! `discloser init` writes): the words of its name and description that set it apart from the
//! catalog's other tools.
//!
//! **Candidates.** The terms ([`crate::text::terms`]) of the tool's name parts and description:
//! words of spaced scripts of at least three characters (stop words and numbers dropped), and
//! Han or kana bigrams.
//!
//! **Score.** `tf × idf`: how often the tool's text uses the term, times `ln(N / df)`, where `df`
//! of the catalog's `N` tools use it; a word of the tool's name counts twice, since a name is
//! written to say what the tool is for. A term every tool uses scores zero and is left out (in
//! a catalog of at least two tools). Ties break by first appearance (name first), so the order
//! is total and the stubs are byte-stable.
//!
//! These are the tool author's words, not the user's: they are proposals to edit, which is why
//! `init` writes them as a comment beside an empty list rather than as triggers.

use std::collections::{BTreeMap, BTreeSet};

use crate::catalog::Catalog;
use crate::text::{fold, name_parts, terms};

/// Candidates shown per tool when the caller gives no limit.
pub const DEFAULT_LIMIT: usize = 6;

/// The candidates of every tool of `catalog` (by name; every tool has an entry, possibly
/// empty), best first, at most `limit` each.
pub fn from_text(catalog: &Catalog, limit: usize) -> BTreeMap<String, Vec<String>> {
    let texts: Vec<(Vec<String>, Vec<String>)> = catalog
        .tools
        .iter()
        .map(|tool| {
            let name: Vec<String> = name_parts(&tool.name)
                .into_iter()
                .filter(|t| keep(t))
                .collect();
            let described: Vec<String> = terms(&fold(&tool.description))
                .into_iter()
                .filter(|t| keep(t))
                .collect();
            (name, described)
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
        .map(|(tool, (name, described))| {
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
            ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.2.cmp(&b.2)));
            let words = ranked
                .into_iter()
                .take(limit)
                .map(|(term, _, _)| term.to_owned())
                .collect();
            (tool.name.clone(), words)
        })
        .collect()
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
        let found = from_text(&catalog, 4);
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
        let found = from_text(&catalog, 10);
        assert!(found["商业计划"].contains(&"商业".to_owned()));
        assert!(!found["商业计划"].contains(&"2024".to_owned()));
    }
}
