//! Matching text: the folding and the terms every runtime function compares.
//!
//! Text is folded for matching only (never for rendering): NFKC, so full-width `ＢＰ` is `bp`,
//! then lower-cased. A folded text splits into *terms*: words of space-separated scripts (runs
//! of letters and digits; `_`, `-` and punctuation separate them), and overlapping character
//! bigrams of runs written without spaces (Han, kana), so `商业计划书` yields `商业`, `业计`,
//! `计划`, `划书`. One-character words, the function words of English, Spanish, French and
//! German ([`STOP_WORDS`]) and the bigrams that are Chinese function words ([`CJK_STOP_BIGRAMS`])
//! are dropped.

use std::collections::BTreeSet;

use unicode_normalization::UnicodeNormalization;

use crate::index::summary::is_cjk;

/// Words too common to say anything about a tool, in the spaced languages search supports
/// (English, Spanish, French, German); never terms. Sorted, for a binary search.
pub const STOP_WORDS: &[&str] = &[
    "about", "all", "als", "also", "am", "an", "and", "any", "are", "as", "at", "au", "auch",
    "auf", "aus", "aux", "be", "been", "bei", "bitte", "but", "by", "can", "ce", "ces", "cette",
    "como", "con", "could", "dans", "das", "de", "dein", "del", "dem", "den", "der", "des", "did",
    "die", "do", "does", "du", "ein", "eine", "einen", "el", "en", "es", "est", "et", "etwas",
    "for", "from", "für", "get", "give", "had", "has", "have", "hay", "here", "how", "ich", "if",
    "il", "im", "in", "into", "is", "ist", "it", "its", "je", "just", "kann", "know", "la", "las",
    "le", "les", "let", "like", "lo", "los", "me", "mein", "meine", "mes", "mi", "mis", "mit",
    "mon", "my", "möchte", "ne", "need", "nicht", "no", "not", "nous", "now", "oder", "of", "on",
    "one", "or", "our", "para", "pas", "pero", "please", "por", "pour", "puedo", "qu", "que",
    "qui", "quiero", "se", "should", "sie", "so", "some", "su", "sur", "sus", "tell", "than",
    "that", "the", "their", "them", "then", "there", "these", "this", "those", "to", "too", "tu",
    "un", "una", "und", "une", "uno", "up", "us", "use", "very", "veux", "von", "vous", "want",
    "was", "we", "what", "when", "where", "which", "who", "will", "with", "would", "yes", "you",
    "your", "zu", "zum", "zur",
];

/// Characters of Chinese that a trigger phrase never starts or ends with: particles,
/// pronouns, auxiliaries and conjunctions (`吗`, `的`, `我`, `要`, `和`). Sorted.
pub const CJK_EDGE_STOP_CHARS: &[char] = &[
    '与', '么', '也', '了', '他', '会', '你', '吗', '吧', '呢', '和', '啊', '在', '她', '它', '就',
    '想', '我', '或', '把', '是', '的', '给', '能', '被', '要', '还', '这', '那', '都',
];

/// Two-character Chinese function words ("I want", "help me", "how", "what", "can",
/// "a bit"): bigrams that say nothing about a tool; never terms. Sorted, for a binary search.
pub const CJK_STOP_BIGRAMS: &[&str] = &[
    "一下", "一个", "一些", "什么", "他们", "但是", "你们", "可以", "因为", "如何", "就是", "已经",
    "帮我", "怎么", "想要", "我们", "我想", "我要", "所以", "是否", "有没", "没有", "现在", "给你",
    "请问", "还是", "这个", "这里", "那个", "那里", "需要",
];

/// NFKC, then lower case.
pub fn fold(text: &str) -> String {
    text.nfkc().flat_map(char::to_lowercase).collect()
}

/// A character of a script written with spaces between words (a letter or digit that is not
/// CJK): a match must not start or end inside a run of these.
pub fn is_spaced_word_char(c: char) -> bool {
    c.is_alphanumeric() && !is_cjk(c)
}

/// A character of a script written without spaces (Han, kana), excluding CJK punctuation.
fn is_unspaced_word_char(c: char) -> bool {
    is_cjk(c) && c.is_alphanumeric()
}

/// The terms of already folded text, in order of appearance, stop words and one-character
/// words dropped (duplicates kept).
pub fn terms(folded: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut run: Vec<char> = Vec::new();
    for c in folded.chars().chain(std::iter::once(' ')) {
        if is_spaced_word_char(c) {
            flush_run(&mut run, &mut out);
            word.push(c);
        } else if is_unspaced_word_char(c) {
            flush_word(&mut word, &mut out);
            run.push(c);
        } else {
            flush_word(&mut word, &mut out);
            flush_run(&mut run, &mut out);
        }
    }
    out
}

/// The distinct terms of `text` (folded here).
pub fn term_set(text: &str) -> BTreeSet<String> {
    terms(&fold(text)).into_iter().collect()
}

fn flush_word(word: &mut String, out: &mut Vec<String>) {
    if word.chars().count() > 1 && STOP_WORDS.binary_search(&word.as_str()).is_err() {
        out.push(std::mem::take(word));
    }
    word.clear();
}

fn flush_run(run: &mut Vec<char>, out: &mut Vec<String>) {
    out.extend(
        run.windows(2)
            .map(|pair| pair.iter().collect::<String>())
            .filter(|bigram| CJK_STOP_BIGRAMS.binary_search(&bigram.as_str()).is_err()),
    );
    run.clear();
}

/// The parts of a tool name: split at `_`, `-`, `.`, other punctuation and camelCase
/// boundaries, folded, as terms (`view_startup_guide` -> `view`, `startup`, `guide`;
/// `getHTTPStatus` -> `http`, `status`, `get` being a stop word).
pub fn name_parts(name: &str) -> Vec<String> {
    terms(&fold(&split_camel(name)))
}

/// Inserts a space at camelCase boundaries: `aB` -> `a B`, `HTTPServer` -> `HTTP Server`.
fn split_camel(name: &str) -> String {
    let chars: Vec<char> = name.chars().collect();
    let mut out = String::with_capacity(name.len() + 4);
    for (i, &c) in chars.iter().enumerate() {
        if i > 0 && c.is_uppercase() {
            let prev = chars[i - 1];
            let next_lower = chars.get(i + 1).is_some_and(|n| n.is_lowercase());
            if prev.is_lowercase() || prev.is_ascii_digit() || (prev.is_uppercase() && next_lower) {
                out.push(' ');
            }
        }
        out.push(c);
    }
    out
}

/// Whether folded `needle` occurs in folded `haystack` at a place where it does not start or
/// end inside a word of a spaced script (`bp` is found in `写bp`, not in `bpm`; `商业计划书`
/// anywhere in `我想写商业计划书`).
pub fn contains_phrase(haystack: &str, needle: &str) -> bool {
    if needle.is_empty() {
        return false;
    }
    let starts_word = needle.chars().next().is_some_and(is_spaced_word_char);
    let ends_word = needle.chars().next_back().is_some_and(is_spaced_word_char);
    haystack.match_indices(needle).any(|(at, _)| {
        let before = haystack[..at].chars().next_back();
        let after = haystack[at + needle.len()..].chars().next();
        let cuts_start = starts_word && before.is_some_and(is_spaced_word_char);
        let cuts_end = ends_word && after.is_some_and(is_spaced_word_char);
        !(cuts_start || cuts_end)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_and_bigrams() {
        assert_eq!(
            terms(&fold("Draw me a CHART of 商业计划书, e.g. bar")),
            ["draw", "chart", "商业", "业计", "计划", "划书", "bar"]
        );
        assert_eq!(terms(&fold("我")), Vec::<String>::new());
    }

    #[test]
    fn stop_word_lists_are_sorted_for_binary_search() {
        assert!(STOP_WORDS.windows(2).all(|w| w[0] < w[1]), "STOP_WORDS");
        assert!(
            CJK_STOP_BIGRAMS.windows(2).all(|w| w[0] < w[1]),
            "CJK_STOP_BIGRAMS"
        );
        assert!(
            CJK_EDGE_STOP_CHARS.windows(2).all(|w| w[0] < w[1]),
            "CJK_EDGE_STOP_CHARS"
        );
    }

    #[test]
    fn function_words_of_other_languages_are_not_terms() {
        assert_eq!(
            terms(&fold("Quiero el plan de negocio para mi empresa")),
            ["plan", "negocio", "empresa"]
        );
        assert_eq!(
            terms(&fold("Je veux le guide pour les impôts")),
            ["guide", "impôts"]
        );
        assert_eq!(
            terms(&fold("Ich möchte bitte den Businessplan")),
            ["businessplan"]
        );
        assert_eq!(terms(&fold("我想")), Vec::<String>::new());
        assert_eq!(terms(&fold("帮我写")), ["我写"]);
    }

    #[test]
    fn full_width_folds_to_ascii() {
        assert_eq!(fold("ＢＰ"), "bp");
    }

    #[test]
    fn name_parts_split_snake_kebab_and_camel() {
        assert_eq!(
            name_parts("view_startup_guide"),
            ["view", "startup", "guide"]
        );
        assert_eq!(name_parts("transfer_to_human"), ["transfer", "human"]);
        assert_eq!(name_parts("getHTTPStatus-v2"), ["http", "status", "v2"]);
    }

    #[test]
    fn phrases_respect_word_edges_of_spaced_scripts_only() {
        assert!(contains_phrase("我想写bp", "bp"));
        assert!(contains_phrase("my bp, please", "bp"));
        assert!(!contains_phrase("120 bpm", "bp"));
        assert!(contains_phrase("我想写商业计划书", "商业计划书"));
        assert!(contains_phrase(
            "how much does it cost?",
            "how much does it cost"
        ));
        assert!(!contains_phrase("anything", ""));
    }
}
