//! The cue patterns of the list judge ([`patterns`]), searched with DFAs built at compile time.
//!
//! Each cue has two DFAs (see `build.rs`, which minimises them and writes the small ones dense,
//! the large ones sparse): `under`, whose matches are all matches of the pattern, and `over`,
//! which matches whatever the pattern matches. A search asks `over` first (no match is no
//! match: most texts have no cue), then `under` (a match is a match); only when they disagree,
//! which needs a cue word right beside a non-ASCII character that is not common punctuation,
//! does the regex of the pattern decide. It is compiled then, once: a run whose texts never
//! need it compiles no regex at all.

// `Boundary::Under`/`Over` and `ALL` are for build.rs and the tests.
#[allow(dead_code)]
pub mod patterns;

use std::sync::LazyLock;

use regex_automata::dfa::{Automaton, dense, sparse};
use regex_automata::meta::Regex;
use regex_automata::{Anchored, Input};

use patterns::{Boundary, Kind, Pattern};

/// One cue: its pattern, its two DFAs and the regex they fall back to.
pub struct Cue {
    pattern: &'static Pattern,
    under: LazyLock<Dfa>,
    over: LazyLock<Dfa>,
    exact: LazyLock<Regex>,
    /// The pattern holds `\<` (a match may start by consuming the character before a word).
    opens_words: bool,
    /// The pattern holds a marker: its two DFAs differ from the pattern at word boundaries.
    markers: bool,
}

/// A cue's DFA as `build.rs` wrote it: dense when that is small, else sparse.
enum Dfa {
    Sparse(sparse::DFA<&'static [u8]>),
    Dense(dense::DFA<&'static [u32]>),
}

/// Bytes embedded at an address aligned to 4 bytes: a dense DFA's transitions are read in
/// place as `u32`s.
#[repr(C)]
struct Aligned<B: ?Sized> {
    _align: [u32; 0],
    bytes: B,
}

/// A DFA written by `build.rs`: its 4-byte header (`1` dense, `0` sparse), then its bytes.
///
/// Outside of tests the bytes are not validated again: they were written by this crate's own
/// build script with the `regex-automata` version it is linked with, and checking every
/// transition of the largest (400 KB) took 1.5 ms, as long as compiling its regex. The test
/// `every_dfa_is_valid` validates each with the checked constructor.
fn load(bytes: &'static Aligned<[u8]>) -> Dfa {
    let (header, bytes) = bytes.bytes.split_at(4);
    if header[0] == 1 {
        #[cfg(test)]
        let dfa = dense::DFA::from_bytes(bytes);
        // SAFETY: `bytes` is the serialisation of a dense DFA by `DFA::to_bytes_*_endian` of
        // the same `regex-automata` (build.rs, in the target's byte order, its padding left
        // out), embedded unchanged by `include_bytes!` 4 bytes after an address aligned to 4
        // (`Aligned`), as dense DFAs need.
        #[cfg(not(test))]
        let dfa = unsafe { dense::DFA::from_bytes_unchecked(bytes) };
        Dfa::Dense(dfa.expect("build.rs wrote a valid DFA").0)
    } else {
        #[cfg(test)]
        let dfa = sparse::DFA::from_bytes(bytes);
        // SAFETY: as above, for a sparse DFA, which needs no alignment.
        #[cfg(not(test))]
        let dfa = unsafe { sparse::DFA::from_bytes_unchecked(bytes) };
        Dfa::Sparse(dfa.expect("build.rs wrote a valid DFA").0)
    }
}

/// `$body` with `$dfa` bound to the DFA of a [`Dfa`], whichever its representation (the search
/// is compiled for each, with no call through a vtable per byte).
macro_rules! on_dfa {
    ($of:expr, |$dfa:ident| $body:expr) => {
        match $of {
            Dfa::Sparse($dfa) => $body,
            Dfa::Dense($dfa) => $body,
        }
    };
}

/// One of the DFAs `build.rs` wrote for a cue: `$stem.$boundary.dfa` in `OUT_DIR`.
macro_rules! dfa {
    ($stem:literal, $boundary:literal) => {
        LazyLock::new(|| {
            static BYTES: &Aligned<[u8]> = &Aligned {
                _align: [],
                bytes: *include_bytes!(concat!(
                    env!("OUT_DIR"),
                    "/",
                    $stem,
                    ".",
                    $boundary,
                    ".dfa"
                )),
            };
            load(BYTES)
        })
    };
}

macro_rules! cue {
    ($name:ident, $stem:literal) => {
        pub static $name: Cue = Cue {
            pattern: &patterns::$name,
            under: dfa!($stem, "under"),
            over: dfa!($stem, "over"),
            exact: LazyLock::new(|| patterns::$name.regex()),
            opens_words: patterns::$name.has_marker(false),
            markers: patterns::$name.has_marker(false) || patterns::$name.has_marker(true),
        };
    };
}

cue!(STRONG_BEFORE, "strong_before");
cue!(WEAK_BEFORE, "weak_before");
cue!(MODAL_BEFORE, "modal_before");
cue!(STRONG_AFTER, "strong_after");
cue!(EXAMPLE_WORDS, "example_words");
cue!(EXAMPLE_SIGNS, "example_signs");
cue!(OPEN_AFTER, "open_after");
cue!(DEFAULT_BEFORE, "default_before");
cue!(OTHER_TOOLS_AFTER, "other_tools_after");
cue!(CONDITIONAL, "conditional");
cue!(RANGE_BEFORE, "range_before");
cue!(OPEN_LATER, "open_later");
cue!(CONTENT_AFTER, "content_after");
cue!(POINTS_TO_TOOL, "points_to_tool");

/// How many searches the regex decided (tests show that both ways are exercised).
#[cfg(test)]
static FALLBACKS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

fn fell_back() {
    #[cfg(test)]
    FALLBACKS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
}

impl Pattern {
    /// The pattern as a regex, with `\b` for its markers.
    pub fn regex(&self) -> Regex {
        crate::scan::compile_for_long_texts(&self.expand(Boundary::Exact))
            .unwrap_or_else(|e| panic!("cue pattern `{}` compiles: {e}", self.name))
    }
}

impl Cue {
    /// Whether the pattern matches `text` (for an `End` pattern: a match ending where `text`
    /// ends; `Start`: one starting where it starts).
    pub fn is_match(&self, text: &str) -> bool {
        // `over` first: most texts have no cue at all, and one search says so.
        match self.search(&self.over, text) {
            Some(false) => return false,
            // Without markers the two expansions are the pattern itself.
            Some(true) if self.exact_dfas() => return true,
            _ => {}
        }
        if self.search(&self.under, text) == Some(true) {
            return true;
        }
        fell_back();
        self.exact.is_match(text)
    }

    /// Where the leftmost match starts (a `Leftmost` pattern).
    pub fn leftmost_start(&self, text: &str) -> Option<usize> {
        debug_assert_eq!(self.pattern.kind, Kind::Leftmost);
        let start = |of: &Dfa| {
            on_dfa!(of, |dfa| dfa
                .try_search_rev(&Input::new(text))
                .map(|m| m.map(|m| m.offset())))
        };
        let over = start(&self.over);
        match over {
            Ok(None) => return None,
            Ok(Some(at)) if self.exact_dfas() => return Some(at),
            _ => {}
        }
        match (start(&self.under), over) {
            (Ok(Some(under)), Ok(Some(over))) if under == over => {
                Some(self.word_start(text, under))
            }
            _ => {
                fell_back();
                self.exact.find(text).map(|m| m.start())
            }
        }
    }

    /// Where the word starts whose match starts at `at` in the `Under` expansion of a pattern
    /// whose every alternative starts with `\<`: at `at` itself when the match began at the
    /// start of the text with the word, else after the one character the marker consumed. A
    /// pattern without markers starts where it matched.
    fn word_start(&self, text: &str, at: usize) -> usize {
        if !self.opens_words {
            return at;
        }
        let Some(c) = text[at..].chars().next() else {
            return at;
        };
        let consumed = c.is_ascii() && !(c.is_ascii_alphanumeric() || c == '_')
            || patterns::UNDER_EXTRA.contains(&c);
        if at == 0 && !consumed {
            at
        } else {
            at + c.len_utf8()
        }
    }

    /// Whether the pattern has no markers: then both DFAs are exactly the pattern.
    fn exact_dfas(&self) -> bool {
        !self.markers
    }

    /// Whether `dfa` matches `text` the way this cue is searched (`None`: it could not say).
    fn search(&self, of: &Dfa, text: &str) -> Option<bool> {
        let input = Input::new(text).earliest(true);
        let found = on_dfa!(of, |dfa| match self.pattern.kind {
            Kind::End => dfa.try_search_rev(&input.anchored(Anchored::Yes)),
            Kind::Start => dfa.try_search_fwd(&input.anchored(Anchored::Yes)),
            Kind::Anywhere => dfa.try_search_fwd(&input),
            Kind::Leftmost => dfa.try_search_rev(&input),
        });
        found.ok().map(|m| m.is_some())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every cue, by its pattern.
    fn cues() -> Vec<&'static Cue> {
        let cues = vec![
            &STRONG_BEFORE,
            &WEAK_BEFORE,
            &MODAL_BEFORE,
            &STRONG_AFTER,
            &EXAMPLE_WORDS,
            &EXAMPLE_SIGNS,
            &OPEN_AFTER,
            &DEFAULT_BEFORE,
            &OTHER_TOOLS_AFTER,
            &CONDITIONAL,
            &RANGE_BEFORE,
            &OPEN_LATER,
            &CONTENT_AFTER,
            &POINTS_TO_TOOL,
        ];
        assert_eq!(cues.len(), patterns::ALL.len());
        cues
    }

    #[test]
    fn markers_are_found_at_compile_time() {
        for cue in cues() {
            let text = cue.pattern.text;
            assert_eq!(
                cue.opens_words,
                text.contains(r"\<"),
                "{}",
                cue.pattern.name
            );
            assert_eq!(
                cue.markers,
                text.contains(r"\<") || text.contains(r"\>"),
                "{}",
                cue.pattern.name
            );
        }
    }

    #[test]
    fn every_dfa_is_valid() {
        // `load` validates under `cfg(test)`.
        for cue in cues() {
            LazyLock::force(&cue.under);
            LazyLock::force(&cue.over);
        }
    }

    #[test]
    fn under_characters_are_not_word_characters() {
        for &c in patterns::UNDER_EXTRA {
            assert!(!regex_syntax::is_word_character(c), "{c:?}");
        }
    }

    /// `word_start` relies on it: in a `Leftmost` pattern with markers, every alternative
    /// starts with `\<`, before a word character.
    #[test]
    fn leftmost_patterns_start_every_alternative_with_a_word() {
        for pattern in patterns::ALL.iter().filter(|p| p.kind == Kind::Leftmost) {
            if !pattern.text.contains(r"\<") {
                continue;
            }
            let inner = pattern
                .text
                .strip_prefix("(?ix)(?:")
                .and_then(|t| t.strip_suffix(')'))
                .expect("a group of alternatives");
            for alternative in top_level_alternatives(inner) {
                let rest = alternative.trim().strip_prefix(r"\<").unwrap_or_else(|| {
                    panic!("`{alternative}` of {} starts with a word", pattern.name)
                });
                let first = rest.trim_start_matches("(?:").chars().next().unwrap();
                assert!(first.is_alphanumeric(), "{alternative}");
            }
        }
    }

    fn top_level_alternatives(text: &str) -> Vec<&str> {
        let (mut out, mut depth, mut class, mut start) = (Vec::new(), 0, false, 0);
        let mut chars = text.char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                '\\' => {
                    chars.next();
                }
                ']' if class => class = false,
                _ if class => {}
                '[' => class = true,
                '(' => depth += 1,
                ')' => depth -= 1,
                '|' if depth == 0 => {
                    out.push(&text[start..i]);
                    start = i + 1;
                }
                _ => {}
            }
        }
        out.push(&text[start..]);
        out
    }

    /// The words of a pattern, in the order they are written (`one`, `of`, `the`, ...).
    fn pattern_words(pattern: &Pattern) -> Vec<String> {
        let mut words = Vec::new();
        let mut word = String::new();
        for c in pattern.text.chars().chain([' ']) {
            if c.is_alphabetic() {
                word.push(c);
            } else if !word.is_empty() {
                words.push(std::mem::take(&mut word));
            }
        }
        words
    }

    /// What may stand beside a cue's words.
    const SIGNS: &[&str] = &[
        " ", " ", " ", "  ", ":", "：", ",", ".", "(", ")", "[", "]", "é", "中", "，", "_", "1",
        "42", "-", "~", "到", "\n", "e.g.", "i.e.", "'", "\"", "`", "ß", "K", "ſ", "İ", "\u{a0}",
        "\u{3000}", "©", "ñ", "Ü", "a", "or", "etc", "…", "x", "6-32", "1 ~ 9 ", "3到8",
    ];

    /// splitmix64: deterministic strings on every platform.
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            ((z ^ (z >> 31)) % n as u64) as usize
        }
    }

    /// A cue's answers equal its regex's on `text`; whether it matched.
    fn check(cue: &Cue, regex: &Regex, text: &str) -> bool {
        let matched = regex.is_match(text);
        assert_eq!(
            cue.is_match(text),
            regex.is_match(text),
            "{} on {text:?}",
            cue.pattern.name
        );
        if cue.pattern.kind == Kind::Leftmost {
            assert_eq!(
                cue.leftmost_start(text),
                regex.find(text).map(|m| m.start()),
                "{} on {text:?}",
                cue.pattern.name
            );
        }
        matched
    }

    #[test]
    fn cues_equal_their_regexes_on_generated_strings() {
        const ROUNDS: usize = 20_000;
        let all: Vec<String> = patterns::ALL.iter().flat_map(pattern_words).collect();
        for cue in cues() {
            let own = pattern_words(cue.pattern);
            let regex = cue.pattern.regex();
            let mut rng = Rng(0x5eed);
            let mut matched = 0;
            for _ in 0..ROUNDS {
                let mut text = String::new();
                for _ in 0..1 + rng.below(6) {
                    match rng.below(4) {
                        // A run of the cue's own words, in order.
                        0 | 1 => {
                            let from = rng.below(own.len());
                            for word in own.iter().skip(from).take(1 + rng.below(4)) {
                                text.push_str(word);
                                text.push_str(SIGNS[rng.below(4)]);
                            }
                        }
                        2 => text.push_str(&all[rng.below(all.len())]),
                        _ => text.push_str(SIGNS[rng.below(SIGNS.len())]),
                    }
                    if rng.below(6) == 0 {
                        text = text.to_uppercase();
                    }
                }
                // End with the cue's words half the time: `End` patterns match only there.
                if rng.below(2) == 0 {
                    let from = rng.below(own.len());
                    let run: Vec<&str> = own
                        .iter()
                        .skip(from)
                        .take(1 + rng.below(4))
                        .map(String::as_str)
                        .collect();
                    text.push_str(&run.join(" "));
                }
                matched += usize::from(check(cue, &regex, &text));
                matched += usize::from(check(cue, &regex, text.trim()));
            }
            // Both answers are reached: the strings are made of the patterns' own words.
            assert!(
                (20..2 * ROUNDS - 20).contains(&matched),
                "{}: {matched} of {} matched",
                cue.pattern.name,
                2 * ROUNDS
            );
        }
        // Some strings put a cue word right beside `é` or `中`: the regex decided those.
        let fallbacks = FALLBACKS.load(std::sync::atomic::Ordering::Relaxed);
        assert!(fallbacks > 100, "{fallbacks} fallbacks");
    }

    /// Every description and title of the shared corpora, whole and as the windows the list
    /// judge searches (each suffix and prefix at a space).
    #[test]
    #[ignore = "needs ../shared/corpora beside the checkout (CI runs it)"]
    fn cues_equal_their_regexes_on_the_corpora() {
        let texts = crate::scan::tests::corpus_texts();
        assert!(texts.len() > 1_000, "the corpora are there");
        for cue in cues() {
            let regex = cue.pattern.regex();
            let mut matched = 0;
            for text in &texts {
                matched += usize::from(check(cue, &regex, text));
                for (i, _) in text.match_indices(' ').take(40) {
                    matched += usize::from(check(cue, &regex, &text[i + 1..]));
                    matched += usize::from(check(cue, &regex, &text[..i]));
                }
            }
            assert!(matched > 0, "{} never matched", cue.pattern.name);
        }
    }
}
