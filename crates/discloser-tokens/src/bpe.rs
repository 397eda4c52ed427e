//! Exact tiktoken token counts with no construction cost.
//!
//! tiktoken counts a text by splitting it with a regular expression into pieces and merging
//! each piece's bytes pairwise by rank (`_byte_pair_merge`). This module does exactly that, with
//! the vocabulary laid out at compile time by `build.rs` as static tables (a hash table from
//! token bytes to rank), so the only start-up work is compiling the split pattern instead of
//! building a 200,000-entry map (45–150 ms in the crates we measured). The split patterns are
//! tiktoken's own, run by a lazy DFA (`regex-automata`) with their one look-ahead applied by
//! hand: the same pieces as tiktoken's backtracking engine (checked piece for piece against
//! `fancy-regex` in the tests), several times faster. Counts are checked against OpenAI's
//! Python tiktoken in `tests/cost.rs`.

use std::sync::{LazyLock, Mutex, PoisonError};

use regex_automata::hybrid::dfa::{Cache, DFA};
use regex_automata::{Anchored, Input, MatchKind};

use super::fnv::fnv1a;

/// tiktoken's `o200k_base` split pattern (`tiktoken_ext/openai_public.py`): the tests' oracle
/// for [`O200K_PATTERN_DFA`].
#[cfg(test)]
const O200K_PATTERN: &str = concat!(
    r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
    r"|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
    r"|\p{N}{1,3}",
    r"| ?[^\s\p{L}\p{N}]+[\r\n/]*",
    r"|\s*[\r\n]+",
    r"|\s+(?!\S)",
    r"|\s+",
);

/// [`O200K_PATTERN`] without its one look-ahead, `\s+(?!\S)`, which a DFA cannot run:
/// [`DfaSplit`] applies it by hand. The rest has no look-around, so a leftmost-first DFA finds
/// exactly the pieces a backtracking engine finds (checked against tiktoken's own patterns,
/// run by `fancy-regex` as tiktoken runs them, in the tests).
const O200K_PATTERN_DFA: &str = concat!(
    r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
    r"|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
    r"|\p{N}{1,3}",
    r"| ?[^\s\p{L}\p{N}]+[\r\n/]*",
    r"|\s*[\r\n]+",
    r"|\s+",
);

/// [`CL100K_PATTERN`] for a DFA: no possessive quantifiers (nothing follows them inside
/// their alternatives, so they change no match) and no `\s+(?!\S)`, applied by hand by
/// [`DfaSplit`] as for o200k (the alternative after it, `\s`, then takes what it leaves).
const CL100K_PATTERN_DFA: &str = r"'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s+$|\s*[\r\n]|\s+";

/// tiktoken's `cl100k_base` split pattern: the tests' oracle for [`CL100K_PATTERN_DFA`].
#[cfg(test)]
const CL100K_PATTERN: &str = r"'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s";

/// A vocabulary as laid out by `build.rs`.
struct Vocab {
    blob: &'static [u8],
    offs: &'static [u8],
    slots: &'static [u8],
}

fn u32_at(table: &[u8], index: usize) -> u32 {
    let bytes = &table[index * 4..index * 4 + 4];
    u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]])
}

impl Vocab {
    /// The rank of a token, if `bytes` is one.
    fn rank(&self, bytes: &[u8]) -> Option<u32> {
        let mask = self.slots.len() / 4 - 1;
        let mut h = fnv1a(bytes) as usize & mask;
        loop {
            let slot = u32_at(self.slots, h);
            if slot == 0 {
                return None;
            }
            let rank = (slot - 1) as usize;
            let (start, end) = (
                u32_at(self.offs, rank) as usize,
                u32_at(self.offs, rank + 1) as usize,
            );
            if &self.blob[start..end] == bytes {
                return Some(slot - 1);
            }
            h = (h + 1) & mask;
        }
    }

    /// Tokens of one piece: tiktoken's `_byte_pair_merge` (quadratic, fast for the short pieces
    /// of real text) or its heap-based variant for long pieces.
    fn piece_tokens(&self, piece: &[u8]) -> usize {
        if piece.len() <= 1 || self.rank(piece).is_some() {
            return piece.len().min(1);
        }
        if piece.len() >= 100 {
            return self.piece_tokens_large(piece);
        }
        let rank = |a: usize, b: usize| self.rank(&piece[a..b]).unwrap_or(u32::MAX);
        let mut parts: Vec<(usize, u32)> =
            (0..piece.len() - 1).map(|i| (i, rank(i, i + 2))).collect();
        parts.push((piece.len() - 1, u32::MAX));
        parts.push((piece.len(), u32::MAX));
        let rank_after_merge = |parts: &[(usize, u32)], i: usize| {
            if i + 3 < parts.len() {
                rank(parts[i].0, parts[i + 3].0)
            } else {
                u32::MAX
            }
        };
        loop {
            let (mut min_i, mut min_rank) = (0, u32::MAX);
            for (i, &(_, r)) in parts[..parts.len() - 1].iter().enumerate() {
                if r < min_rank {
                    (min_i, min_rank) = (i, r);
                }
            }
            if min_rank == u32::MAX {
                break;
            }
            parts[min_i].1 = rank_after_merge(&parts, min_i);
            if min_i > 0 {
                parts[min_i - 1].1 = rank_after_merge(&parts, min_i - 1);
            }
            parts.remove(min_i + 1);
        }
        parts.len() - 1
    }

    /// tiktoken's `_byte_pair_merge_large`: the same merge order with a heap, O(n log n).
    fn piece_tokens_large(&self, piece: &[u8]) -> usize {
        use std::cmp::Reverse;
        use std::collections::BinaryHeap;
        struct State {
            prev: usize,
            end: usize,
            next_end: usize,
            next_rank: u32,
        }
        let n = piece.len();
        let mut state: Vec<State> = Vec::with_capacity(n);
        state.push(State {
            prev: usize::MAX,
            end: 1,
            next_end: 2,
            next_rank: u32::MAX,
        });
        let mut heap = BinaryHeap::with_capacity(n);
        for i in 0..n - 1 {
            if let Some(r) = self.rank(&piece[i..i + 2]) {
                heap.push(Reverse((r, i)));
                state[i].next_rank = r;
            }
            state.push(State {
                prev: i,
                end: i + 2,
                next_end: i + 3,
                next_rank: u32::MAX,
            });
        }
        let potential_merge = |state: &mut Vec<State>,
                               heap: &mut BinaryHeap<Reverse<(u32, usize)>>,
                               start: usize,
                               next_end: usize| {
            state[start].next_end = next_end;
            state[start].next_rank = u32::MAX;
            if next_end <= n
                && let Some(r) = self.rank(&piece[start..next_end])
            {
                heap.push(Reverse((r, start)));
                state[start].next_rank = r;
            }
        };
        while let Some(Reverse((rank, left))) = heap.pop() {
            if rank != state[left].next_rank {
                continue;
            }
            let right = state[left].end;
            let right_end = state[left].next_end;
            let right_next_end = state[right].next_end;
            state[left].end = right_end;
            potential_merge(&mut state, &mut heap, left, right_next_end);
            if right_end < state.len() {
                state[right_end].prev = left;
            }
            if left > 0 {
                let prev = state[left].prev;
                potential_merge(&mut state, &mut heap, prev, right_end);
            }
            state[right].next_rank = u32::MAX;
        }
        let (mut i, mut count) = (0, 0);
        while i < n {
            count += 1;
            i = state[i].end;
        }
        count
    }
}

/// How an encoding cuts text into pieces: a lazy DFA over its pattern without the one
/// look-ahead (`\s+(?!\S)`), which [`DfaSplit::piece_end`] applies by hand.
struct DfaSplit {
    dfa: DFA,
    /// Spare search caches: one is taken for each counted text, so threads never share one.
    caches: Mutex<Vec<Cache>>,
}

impl DfaSplit {
    fn new(pattern: &str) -> DfaSplit {
        let dfa = DFA::builder()
            .configure(DFA::config().match_kind(MatchKind::LeftmostFirst))
            .build(pattern)
            .expect("the split pattern compiles to a lazy DFA");
        DfaSplit {
            dfa,
            caches: Mutex::new(Vec::new()),
        }
    }

    /// The end of the piece starting at `at` (a character boundary before the end of `text`);
    /// `None` if the search failed.
    fn piece_end(&self, cache: &mut Cache, text: &str, at: usize) -> Option<usize> {
        let input = Input::new(text).range(at..).anchored(Anchored::Yes);
        let end = self.dfa.try_search_fwd(cache, &input).ok()??.offset();
        let piece = text.get(at..end).filter(|p| !p.is_empty())?;
        // `\s+(?!\S)`: white space without line breaks (`\s*[\r\n]` takes any run holding
        // one), followed by more text, leaves its last character to the next piece when it has
        // two or more. At the end of the text it is taken whole (in cl100k by `\s+$`, which
        // comes first).
        if end < text.len()
            && piece.chars().all(char::is_whitespace)
            && !piece.contains(['\r', '\n'])
            && let Some(last) = piece.chars().next_back()
            && piece.len() > last.len_utf8()
        {
            return Some(end - last.len_utf8());
        }
        Some(end)
    }
}

/// One encoding: its split pattern and vocabulary.
pub struct Encoding {
    split: DfaSplit,
    vocab: Vocab,
}

impl Encoding {
    /// Tokens of `text`, special-token text counted as ordinary text (tiktoken's
    /// `encode(text, disallowed_special=())`).
    pub fn count(&self, text: &str) -> usize {
        let split = &self.split;
        let spare = split
            .caches
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop();
        let mut cache = spare.unwrap_or_else(|| split.dfa.create_cache());
        let total = self.count_pieces(text, |at| split.piece_end(&mut cache, text, at));
        split
            .caches
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(cache);
        total
    }

    /// Sums the tokens of the pieces of `text`; `piece_end(at)` is the end of the piece
    /// starting at `at`.
    fn count_pieces(&self, text: &str, mut piece_end: impl FnMut(usize) -> Option<usize>) -> usize {
        let mut total = 0;
        let mut at = 0;
        while at < text.len() {
            // The patterns always match at least one character from any position, so a failed
            // or empty match can only mean the engine gave up (backtrack limit): count the rest
            // as one piece rather than loop or panic.
            match piece_end(at) {
                Some(end) if end > at => {
                    total += self.vocab.piece_tokens(&text.as_bytes()[at..end]);
                    at = end;
                }
                _ => {
                    total += self.vocab.piece_tokens(&text.as_bytes()[at..]);
                    break;
                }
            }
        }
        total
    }
}

/// The smallest chunk [`Encoding::count_chunked`] hands to one thread.
const CHUNK_BYTES: usize = 64 * 1024;

impl Encoding {
    /// [`Encoding::count`] of a large text, split by [`independent_chunks`] and counted on
    /// several threads: the same number, sooner.
    pub fn count_chunked(&self, text: &str) -> usize {
        let chunks = independent_chunks(text, CHUNK_BYTES);
        if chunks.len() < 2 {
            return self.count(text);
        }
        crate::parallel::map(chunks, |chunk| self.count(chunk))
            .into_iter()
            .sum()
    }
}

/// Splits `text` into consecutive chunks, each at least `min` bytes but the last, whose token
/// counts add up to the count of the whole: every cut is just after a line feed followed by a
/// character that is neither white space nor `/`.
///
/// Why such a cut changes nothing, for both split patterns: no piece can contain the line
/// feed and the character after it. Letter and number pieces exclude line feeds; a
/// punctuation piece may end in line feeds (and, in o200k, slashes) but cannot continue with
/// the next character; a white-space piece stops before a non-space. The pieces before the
/// cut are also the same as in the text cut there: the run of white space ending at the cut
/// ends with a line feed, so `\s*[\r\n]` (cl100k) or `\s*[\r\n]+` (o200k) takes it whole
/// whether or not text follows, just as cl100k's `\s++$` does at the end of the text; and no
/// pattern looks behind, so the pieces after the cut are those of the rest alone. BPE merges
/// never cross pieces. (Checked against whole-text counts in the tests below.)
pub fn independent_chunks(text: &str, min: usize) -> Vec<&str> {
    let mut chunks = Vec::new();
    let mut start = 0;
    let mut from = min;
    while from < text.len() {
        let Some(newline) = text.as_bytes()[from..].iter().position(|&b| b == b'\n') else {
            break;
        };
        let cut = from + newline + 1;
        match text[cut..].chars().next() {
            Some(next) if !next.is_whitespace() && next != '/' => {
                chunks.push(&text[start..cut]);
                start = cut;
                from = cut + min;
            }
            _ => from = cut,
        }
    }
    chunks.push(&text[start..]);
    chunks
}

macro_rules! vocab {
    ($name:literal) => {
        Vocab {
            blob: include_bytes!(concat!(env!("OUT_DIR"), "/", $name, ".blob")),
            offs: include_bytes!(concat!(env!("OUT_DIR"), "/", $name, ".offs")),
            slots: include_bytes!(concat!(env!("OUT_DIR"), "/", $name, ".slots")),
        }
    };
}

static O200K: LazyLock<Encoding> = LazyLock::new(|| Encoding {
    split: DfaSplit::new(O200K_PATTERN_DFA),
    vocab: vocab!("o200k"),
});

static CL100K: LazyLock<Encoding> = LazyLock::new(|| Encoding {
    split: DfaSplit::new(CL100K_PATTERN_DFA),
    vocab: vocab!("cl100k"),
});

/// The `o200k_base` encoding (built on first use).
pub fn o200k_base() -> &'static Encoding {
    &O200K
}

/// The `cl100k_base` encoding (built on first use).
pub fn cl100k_base() -> &'static Encoding {
    &CL100K
}

#[cfg(test)]
mod tests {
    use super::*;
    use fancy_regex::Regex;

    #[test]
    fn known_counts() {
        assert_eq!(o200k_base().count(""), 0);
        assert_eq!(o200k_base().count("hello world"), 2);
        assert_eq!(cl100k_base().count("hello world"), 2);
        // A long run of one letter exercises the heap-based merge.
        assert_eq!(o200k_base().count(&"a".repeat(3000)), 375);
        assert_eq!(cl100k_base().count(&"a".repeat(3000)), 375);
    }

    /// `count` texts of 1 to `max_len` fragments each, drawn by a fixed xorshift sequence.
    fn random_texts(fragments: &[&str], seed: u64, count: usize, max_len: u64) -> Vec<String> {
        let mut state = seed;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        (0..count)
            .map(|_| {
                let len = 1 + next() % max_len;
                (0..len)
                    .map(|_| fragments[(next() % fragments.len() as u64) as usize])
                    .collect()
            })
            .collect()
    }

    /// Counting chunk by chunk equals counting the whole, with a cut at every place
    /// `independent_chunks` allows (minimum length 1).
    fn assert_chunks_add_up(text: &str) {
        let chunks = independent_chunks(text, 1);
        assert_eq!(chunks.concat(), text);
        for encoding in [o200k_base(), cl100k_base()] {
            let parts: usize = chunks.iter().map(|c| encoding.count(c)).sum();
            assert_eq!(parts, encoding.count(text), "{text:?} cut into {chunks:?}");
        }
    }

    #[test]
    fn chunked_counts_equal_whole_counts_on_adversarial_texts() {
        // Fragments chosen to meet at a cut: line endings, white space of every kind, slashes,
        // punctuation runs that swallow line feeds, contractions, digits, CJK, emoji.
        const FRAGMENTS: [&str; 26] = [
            "\n", "\r\n", "\r", " ", "  ", "\t", "\u{a0}", "\u{3000}", "/", "//", "}", "})", "- ",
            "a", "Hello", "WORLD", "'s", "'LL", "123", "45678", "é", "中文", "。", "🙂",
            "\u{200b}", "x.y",
        ];
        for text in random_texts(&FRAGMENTS, 0x2545_f491_4f6c_dd1d, 5_000, 24) {
            assert_chunks_add_up(&text);
        }
    }

    /// The ends of the pieces `split` cuts `text` into.
    fn piece_ends(text: &str, mut piece_end: impl FnMut(usize) -> Option<usize>) -> Vec<usize> {
        let mut ends = Vec::new();
        let mut at = 0;
        while at < text.len() {
            let end = piece_end(at).expect("a piece at every position");
            assert!(end > at);
            ends.push(end);
            at = end;
        }
        ends
    }

    /// The DFA splitters cut exactly where tiktoken's own patterns, run by fancy-regex, cut.
    fn assert_dfa_pieces_equal_fancy_pieces(text: &str) {
        static FANCY: LazyLock<[Regex; 2]> = LazyLock::new(|| {
            [
                Regex::new(O200K_PATTERN).unwrap(),
                Regex::new(CL100K_PATTERN).unwrap(),
            ]
        });
        static SPLIT: LazyLock<[DfaSplit; 2]> = LazyLock::new(|| {
            [
                DfaSplit::new(O200K_PATTERN_DFA),
                DfaSplit::new(CL100K_PATTERN_DFA),
            ]
        });
        for (fancy, split) in FANCY.iter().zip(SPLIT.iter()) {
            let expected = piece_ends(text, |at| {
                fancy.find_from_pos(text, at).unwrap().map(|m| m.end())
            });
            let mut cache = split.dfa.create_cache();
            let found = piece_ends(text, |at| split.piece_end(&mut cache, text, at));
            assert_eq!(found, expected, "{text:?}");
        }
    }

    #[test]
    fn dfa_pieces_equal_fancy_regex_pieces() {
        const FRAGMENTS: [&str; 30] = [
            "\n",
            "\r\n",
            "\r",
            " ",
            "  ",
            "\t",
            "\u{a0}",
            "\u{3000}",
            "\u{2028}",
            "/",
            "}",
            "- ",
            "a",
            "Hello",
            "WORLD",
            "'s",
            "'LL",
            "'t",
            "123",
            "45678",
            "é",
            "e\u{301}",
            "中文",
            "。",
            "🙂",
            "\u{200b}",
            "x.y",
            "ǅ",
            "\u{1f1e9}\u{1f1ea}",
            "\"",
        ];
        for text in random_texts(&FRAGMENTS, 0x9e37_79b9_7f4a_7c15, 20_000, 16) {
            assert_dfa_pieces_equal_fancy_pieces(&text);
        }
        for text in repository_texts() {
            assert_dfa_pieces_equal_fancy_pieces(&text);
        }
    }

    #[test]
    #[ignore = "needs ../shared/corpora beside the checkout (.ci/run runs it)"]
    fn dfa_pieces_equal_fancy_regex_pieces_on_the_shared_corpora() {
        for text in shared_catalogs(&[
            "github-mcp-server",
            "livemcpbench",
            "docker-mcp-registry",
            "bfcl",
        ]) {
            assert_dfa_pieces_equal_fancy_pieces(&text);
        }
    }

    /// The repository's root.
    fn repository() -> &'static std::path::Path {
        std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
    }

    /// Catalogs and indexes of the repository: the bundled example's tools and index, and the
    /// unions of `tests/fixtures/corpus/`, a miniature of the shared corpora.
    fn repository_texts() -> Vec<String> {
        let dir = repository();
        let mut paths = vec![dir.join("snapshots/default/index.txt")];
        for name in ["charts", "forms", "guides", "registration", "support"] {
            paths.push(dir.join(format!("tools/{name}.yaml")));
        }
        for name in [
            "github-mcp-server",
            "livemcpbench",
            "docker-mcp-registry",
            "bfcl",
            "mcp-reference-snapshots",
        ] {
            paths.push(dir.join(format!("tests/fixtures/corpus/{name}/tools.json")));
        }
        paths
            .iter()
            .map(|p| std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display())))
            .collect()
    }

    /// The union `tools.json` of each named corpus of `../shared/corpora` beside the checkout
    /// (not in the repository; the tests that read it are `#[ignore]`d and fail without it).
    fn shared_catalogs(names: &[&str]) -> Vec<String> {
        let corpora = repository().join("../shared/corpora");
        assert!(
            corpora.is_dir(),
            "the shared corpora are expected beside the checkout at `{}`: this test is ignored by a plain `cargo test`; run the ignored tests where ../shared/corpora exists (as .ci/run does)",
            corpora.display()
        );
        names
            .iter()
            .map(|name| std::fs::read_to_string(corpora.join(name).join("tools.json")).unwrap())
            .collect()
    }

    /// Each text, cut anywhere a chunk may end, counts as a whole; and the threaded path, at
    /// its real chunk size, on the texts repeated past three chunks.
    fn assert_chunked_counts_equal_whole_counts(texts: &[String]) {
        for text in texts {
            assert_chunks_add_up(text);
        }
        let all = texts.concat();
        let big = all.repeat(3 * CHUNK_BYTES / all.len() + 1);
        assert!(independent_chunks(&big, CHUNK_BYTES).len() > 2);
        assert_eq!(o200k_base().count_chunked(&big), o200k_base().count(&big));
    }

    #[test]
    fn chunked_counts_equal_whole_counts_on_repository_catalogs() {
        assert_chunked_counts_equal_whole_counts(&repository_texts());
    }

    #[test]
    #[ignore = "needs ../shared/corpora beside the checkout (.ci/run runs it)"]
    fn chunked_counts_equal_whole_counts_on_real_catalogs() {
        let mut texts = vec![
            std::fs::read_to_string(repository().join("snapshots/default/index.txt")).unwrap(),
        ];
        texts.extend(shared_catalogs(&[
            "github-mcp-server",
            "livemcpbench",
            "docker-mcp-registry",
        ]));
        assert_chunked_counts_equal_whole_counts(&texts);
    }
}
