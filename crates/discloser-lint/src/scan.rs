//! Hand-written matchers for the list patterns whose regexes cost more to compile than a whole
//! `render`: a bullet line (`- value: meaning`) and a `value: meaning` pair.
//!
//! The regexes repeated Unicode classes a counted number of times (`[\w.+-]{0,39}`,
//! `[^;；:：\n,=]{1,40}?`); the `regex` crate compiles each repetition into its own copy of the
//! class's UTF-8 automaton, forwards and backwards, which took 10 to 30 ms per pattern at the
//! start of every `lint`. Each matcher here tries the alternatives, repetitions and starts in
//! the order a backtracking engine would, so it finds the match the regex's leftmost-first
//! semantics find, with the same captures. The classes are the `regex` crate's own: `\w` from
//! `regex-syntax`'s table, `\d` and `\p{L}` as `regex-syntax` translates them (microseconds,
//! once). The tests compare every matcher with its old regex.

use std::sync::LazyLock;

use regex_automata::meta::{self, BuildError, Regex};
use regex_syntax::hir::{Class, HirKind};

/// `pattern` compiled the cheap way for a process that runs once: the patterns left as regexes
/// (short cue words, mostly `is_match` on a clause or a line) are searched with the NFA engines
/// only.
/// `regex::Regex::new` also compiles a reverse NFA for its lazy DFA and extracts a literal
/// prefilter, which tripled the compile time of these patterns (about 9 ms for twelve, against
/// 3 ms) for searches of a few dozen characters. The same `regex-automata` engine and
/// syntax defaults that `regex::Regex` wraps, so a match is the same match.
pub fn compile(pattern: &str) -> Result<Regex, Box<BuildError>> {
    Regex::builder()
        .configure(
            meta::Config::new()
                .hybrid(false)
                .dfa(false)
                .auto_prefilter(false),
        )
        .build(pattern)
        .map_err(Box::new)
}

/// `pattern` compiled as `regex::Regex::new` compiles it (lazy DFA, literal prefilter), for the
/// few patterns searched over whole descriptions (links, examples, `仅支持 X`): there, the NFA
/// engines of [`compile`] made `lint` of the 2,963 BFCL tools 40% slower.
pub fn compile_for_long_texts(pattern: &str) -> Result<Regex, Box<BuildError>> {
    Regex::new(pattern).map_err(Box::new)
}

/// The ranges of a one-class pattern (`\d`, `\p{L}`), exactly as `regex` understands it.
fn class_ranges(pattern: &str) -> Vec<(char, char)> {
    let hir = regex_syntax::parse(pattern).expect("a class pattern parses");
    match hir.kind() {
        HirKind::Class(Class::Unicode(class)) => class
            .ranges()
            .iter()
            .map(|r| (r.start(), r.end()))
            .collect(),
        other => unreachable!("`{pattern}` is one Unicode class, not {other:?}"),
    }
}

fn in_ranges(ranges: &[(char, char)], c: char) -> bool {
    ranges
        .binary_search_by(|&(lo, hi)| {
            if hi < c {
                std::cmp::Ordering::Less
            } else if lo > c {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

static DIGIT: LazyLock<Vec<(char, char)>> = LazyLock::new(|| class_ranges(r"\d"));
static LETTER: LazyLock<Vec<(char, char)>> = LazyLock::new(|| class_ranges(r"\p{L}"));

/// `\w`.
fn is_w(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || (!c.is_ascii() && regex_syntax::is_word_character(c))
}

/// `\s`: the `White_Space` property, as `char::is_whitespace`.
fn is_s(c: char) -> bool {
    c.is_whitespace()
}

/// `\d`.
fn is_d(c: char) -> bool {
    c.is_ascii_digit() || (!c.is_ascii() && in_ranges(&DIGIT, c))
}

/// `\p{L}`.
fn is_l(c: char) -> bool {
    c.is_ascii_alphabetic() || (!c.is_ascii() && in_ranges(&LETTER, c))
}

/// `[A-Za-z0-9_]`.
fn is_ascii_w(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

fn is_quote(c: char) -> bool {
    matches!(c, '"' | '\'' | '`')
}

/// The char at byte `at`, if any.
fn at(s: &str, at: usize) -> Option<char> {
    s[at..].chars().next()
}

/// The end of `c` at `i` when it is in the class.
fn one(s: &str, i: usize, class: impl Fn(char) -> bool) -> Option<usize> {
    at(s, i).filter(|&c| class(c)).map(|c| i + c.len_utf8())
}

/// A run of up to `max` chars of `class` from `i`: a repetition, whose positions (after 0, 1, ...
/// chars) the matchers try in the order a backtracking engine would, without collecting them
/// (the pair matchers try one at every character of a description).
#[derive(Clone, Copy)]
struct Run<'a> {
    s: &'a str,
    start: usize,
    end: usize,
}

fn span<'a>(s: &'a str, i: usize, max: usize, class: impl Fn(char) -> bool) -> Run<'a> {
    let len: usize = s[i..]
        .chars()
        .take(max)
        .take_while(|&c| class(c))
        .map(char::len_utf8)
        .sum();
    Run {
        s,
        start: i,
        end: i + len,
    }
}

impl<'a> Run<'a> {
    /// How many chars the run holds.
    fn chars(self) -> usize {
        self.s[self.start..self.end].chars().count()
    }

    /// The positions after `end - start`, ..., 1, 0 chars: a greedy repetition's order.
    fn longest_first(self) -> impl Iterator<Item = usize> + 'a {
        let start = self.start;
        std::iter::once(self.end).chain(
            self.s[self.start..self.end]
                .char_indices()
                .rev()
                .map(move |(k, _)| start + k),
        )
    }

    /// The positions after 1, 2, ... chars: a lazy repetition of at least one.
    fn shortest_first_from_one(self) -> impl Iterator<Item = usize> + 'a {
        let start = self.start;
        self.s[self.start..self.end]
            .char_indices()
            .map(move |(k, c)| start + k + c.len_utf8())
    }

    /// The positions after the longest run, ..., 2, 1 chars: a greedy repetition of at least
    /// one.
    fn longest_first_from_one(self) -> impl Iterator<Item = usize> + 'a {
        let start = self.start;
        self.s[self.start..self.end]
            .char_indices()
            .rev()
            .map(move |(k, c)| start + k + c.len_utf8())
    }
}

/// `^\s*(?:[-*•·]|\d+[.)])\s+["'`]?([A-Za-z0-9_][\w.+-]{0,39})["'`]?(?:\s\s+\S|\s*(?:$|[:：=—–(（]|\s-\s))`
/// on `line`: the value a bullet line names (group 1).
pub fn bullet(line: &str) -> Option<&str> {
    // Every repetition before the value is followed by something it cannot match, so it only
    // ever matches its longest run; the value is followed by what `[\w.+-]` cannot match, so it
    // is its longest run too (at most 40 chars), and what follows it decides.
    let mut i = span(line, 0, usize::MAX, is_s).end;
    i = match at(line, i)? {
        c @ ('-' | '*' | '•' | '·') => i + c.len_utf8(),
        c if is_d(c) => {
            let j = span(line, i, usize::MAX, is_d).end;
            one(line, j, |c| matches!(c, '.' | ')'))?
        }
        _ => return None,
    };
    let spaces = span(line, i, usize::MAX, is_s);
    if spaces.end == spaces.start {
        return None;
    }
    i = spaces.end;
    i = one(line, i, is_quote).unwrap_or(i);
    let start = i;
    i = one(line, i, is_ascii_w)?;
    span(line, i, 39, |c| is_w(c) || matches!(c, '.' | '+' | '-'))
        .longest_first()
        .find(|&end| follows_bullet_value(line, end))
        .map(|end| &line[start..end])
}

/// `["'`]?(?:\s\s+\S|\s*(?:$|[:：=—–(（]|\s-\s))` at `i`.
fn follows_bullet_value(s: &str, i: usize) -> bool {
    let mut quotes = vec![i];
    if let Some(q) = one(s, i, is_quote) {
        quotes.insert(0, q);
    }
    quotes.into_iter().any(|q| {
        // `- HO  homeowners`: a column of codes, two spaces or more before the meaning.
        let spaces = span(s, q, usize::MAX, is_s);
        if spaces.chars() >= 2 && one(s, spaces.end, |c| !is_s(c)).is_some() {
            return true;
        }
        spaces.longest_first().any(|j| {
            j == s.len()
                || one(s, j, |c| {
                    matches!(c, ':' | '：' | '=' | '—' | '–' | '(' | '（')
                })
                .is_some()
                || one(s, j, is_s)
                    .and_then(|k| one(s, k, |c| c == '-'))
                    .and_then(|k| one(s, k, is_s))
                    .is_some()
        })
    })
}

/// ``^\s*(?:[-*•]\s*)?`?([A-Za-z_][\w-]*)`?\s*(?:\([^)]*\))?\s*[:：-]\s+(.+)$`` on `line`: a
/// documented parameter line of a tool description (`name: ...`, `- name (type): ...`), its
/// name and the rest.
pub fn param_line(line: &str) -> Option<(&str, &str)> {
    // Before the name every step is forced: what follows each optional part or repetition is
    // something it cannot match. The name is tried from its longest run down (`foo- x` is the
    // name `foo` and the separator `-`); what follows the name is forced again.
    let mut i = span(line, 0, usize::MAX, is_s).end;
    if let Some(j) = one(line, i, |c| matches!(c, '-' | '*' | '•')) {
        i = span(line, j, usize::MAX, is_s).end;
    }
    i = one(line, i, |c| c == '`').unwrap_or(i);
    let start = i;
    let first = one(line, i, |c| c.is_ascii_alphabetic() || c == '_')?;
    span(line, first, usize::MAX, |c| is_w(c) || c == '-')
        .longest_first()
        .find_map(|end| param_line_rest(line, end).map(|rest| (&line[start..end], rest)))
}

/// ```?\s*(?:\([^)]*\))?\s*(?:[:-]\s+|：\s*)(.+)$`` at `i`: the rest (group 2).
fn param_line_rest(line: &str, i: usize) -> Option<&str> {
    let mut i = one(line, i, |c| c == '`').unwrap_or(i);
    i = span(line, i, usize::MAX, is_s).end;
    if at(line, i) == Some('(')
        && let Some(close) = line[i + 1..].find(')')
    {
        i += 1 + close + 1;
    }
    i = span(line, i, usize::MAX, is_s).end;
    let sep = i;
    i = one(line, i, |c| matches!(c, ':' | '：' | '-'))?;
    // `\s+` as long as it leaves `.+` a character that is not a line feed; after a full-width
    // colon `\s*`, as CJK text puts no space there (`- format：导出格式`).
    let spaces = span(line, i, usize::MAX, is_s);
    let rest = |j: usize| {
        let rest = &line[j..];
        (!rest.is_empty() && !rest.contains('\n')).then_some(rest)
    };
    if at(line, sep) == Some('：') {
        spaces.longest_first().find_map(rest)
    } else {
        spaces.longest_first_from_one().find_map(rest)
    }
}

/// A `value: meaning` pair found by [`pair_at`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pair<'a> {
    /// Where the whole match starts and ends (bytes).
    pub start: usize,
    pub end: usize,
    /// The value (whichever of the three groups matched).
    pub value: &'a str,
}

/// The leftmost match at or after byte `from` of
///
/// ```text
///   (?:^|[\s。；;，,：:(（])(?:传)?([A-Za-z0-9_][\w.-]{0,30})\s*(?:[:：]\s*[^;；:：\n,=]{1,40}?(?:[;；。.]|$)|表示)
/// | ["'`]([\w.-]{1,30})["'`]\s*(?:for|to|means|=|[:：]|\s-\s|–|—)
/// | (?:^|[\s,;(])([A-Za-z0-9_]{1,20})\s*=\s*\p{L}[^,;=]{0,30}(?:[,;.)]|$)
/// ```
///
/// as `Regex::captures_at` finds it: `^` is the start of `text`, not `from`.
pub fn pair_at(text: &str, from: usize) -> Option<Pair<'_>> {
    // Each alternative needs a colon, `表示`, a quote or `=` at or after `from`: a text with
    // none is passed over before any position is tried.
    if !text[from..].contains([':', '：', '表', '"', '\'', '`', '=']) {
        return None;
    }
    let mut p = from;
    loop {
        let found = glossed(text, p)
            .or_else(|| quoted_gloss(text, p))
            .or_else(|| assigned(text, p));
        if let Some((end, value)) = found {
            return Some(Pair {
                start: p,
                end,
                value,
            });
        }
        p += at(text, p)?.len_utf8();
    }
}

/// `(?:^|P)` at `p`: where what follows may start, in the order the regex tries them.
fn start_or(s: &str, p: usize, class: impl Fn(char) -> bool) -> impl Iterator<Item = usize> {
    (p == 0).then_some(0).into_iter().chain(one(s, p, class))
}

/// The first alternative: `value：meaning；`, `传 x 表示 ...`. Its end and value.
fn glossed(s: &str, p: usize) -> Option<(usize, &str)> {
    let open =
        |c: char| is_s(c) || matches!(c, '。' | '；' | ';' | '，' | ',' | '：' | ':' | '(' | '（');
    for q in start_or(s, p, open) {
        let after_chuan = s[q..].starts_with('传').then(|| q + '传'.len_utf8());
        for r in after_chuan.into_iter().chain([q]) {
            let Some(r1) = one(s, r, is_ascii_w) else {
                continue;
            };
            let value = span(s, r1, 30, |c| is_w(c) || matches!(c, '.' | '-'));
            // What may follow the value: a colon after the spaces after the longest value, or
            // `表示` there or at any of the value's own positions (its characters are `\w`, so
            // a shorter value may end right before it). Neither: no match from here.
            let spaces = span(s, value.end, usize::MAX, is_s).end;
            if !s[spaces..].starts_with([':', '：', '表'])
                && !value.longest_first().any(|g| s[g..].starts_with("表示"))
            {
                continue;
            }
            for g in value.longest_first() {
                for t in span(s, g, usize::MAX, is_s).longest_first() {
                    if let Some(end) = gloss_tail(s, t) {
                        return Some((end, &s[r..g]));
                    }
                }
            }
        }
    }
    None
}

/// `(?:[:：]\s*[^;；:：\n,=]{1,40}?(?:[;；。.]|$)|表示)` at `t`.
fn gloss_tail(s: &str, t: usize) -> Option<usize> {
    if let Some(u) = one(s, t, |c| matches!(c, ':' | '：')) {
        let meaning = |c: char| !matches!(c, ';' | '；' | ':' | '：' | '\n' | ',' | '=');
        for v in span(s, u, usize::MAX, is_s).longest_first() {
            for w in span(s, v, 40, meaning).shortest_first_from_one() {
                if let Some(end) = one(s, w, |c| matches!(c, ';' | '；' | '。' | '.')) {
                    return Some(end);
                }
                if w == s.len() {
                    return Some(w);
                }
            }
        }
    }
    s[t..].starts_with("表示").then(|| t + "表示".len())
}

/// The second alternative: `'asc' for ascending`. Its end and value.
fn quoted_gloss(s: &str, p: usize) -> Option<(usize, &str)> {
    let q = one(s, p, is_quote)?;
    for g in span(s, q, 30, |c| is_w(c) || matches!(c, '.' | '-')).longest_first_from_one() {
        let Some(h) = one(s, g, is_quote) else {
            continue;
        };
        for t in span(s, h, usize::MAX, is_s).longest_first() {
            let rest = &s[t..];
            let word = ["for", "to", "means", "="]
                .into_iter()
                .find(|w| rest.starts_with(w))
                .map(|w| t + w.len());
            let end = word
                .or_else(|| one(s, t, |c| matches!(c, ':' | '：')))
                .or_else(|| {
                    one(s, t, is_s)
                        .and_then(|k| one(s, k, |c| c == '-'))
                        .and_then(|k| one(s, k, is_s))
                })
                .or_else(|| one(s, t, |c| matches!(c, '–' | '—')));
            if let Some(end) = end {
                return Some((end, &s[q..g]));
            }
        }
    }
    None
}

/// The third alternative: `1=low,`. Its end and value.
fn assigned(s: &str, p: usize) -> Option<(usize, &str)> {
    let open = |c: char| is_s(c) || matches!(c, ',' | ';' | '(');
    for q in start_or(s, p, open) {
        let name = span(s, q, 20, is_ascii_w);
        // The `=` can only follow the longest name and its spaces: a shorter name is followed
        // by a word character.
        if !s[span(s, name.end, usize::MAX, is_s).end..].starts_with('=') {
            continue;
        }
        for g in name.longest_first_from_one() {
            for t in span(s, g, usize::MAX, is_s).longest_first() {
                let Some(u) = one(s, t, |c| c == '=') else {
                    continue;
                };
                for v in span(s, u, usize::MAX, is_s).longest_first() {
                    let Some(w) = one(s, v, is_l) else {
                        continue;
                    };
                    for x in span(s, w, 30, |c| !matches!(c, ',' | ';' | '=')).longest_first() {
                        if let Some(end) = one(s, x, |c| matches!(c, ',' | ';' | '.' | ')')) {
                            return Some((end, &s[q..g]));
                        }
                        if x == s.len() {
                            return Some((x, &s[q..g]));
                        }
                    }
                }
            }
        }
    }
    None
}

#[cfg(test)]
pub(crate) mod tests {
    //! Each matcher against the regex it replaces, on the corpora's texts and on generated
    //! strings built to reach every branch: scripts whose letters and digits are `\w` but not
    //! ASCII, marks, connector punctuation and joiners (`\w` but not alphanumeric), `²` and `Ⅷ`
    //! (numeric but not `\d`), every separator the patterns name, and values right at the
    //! counted limits (20/21, 30/31, 39/40/41 chars).

    use std::path::Path;

    use regex::Regex;

    use super::*;

    const BULLET: &str = r#"^\s*(?:[-*•·]|\d+[.)])\s+["'`]?([A-Za-z0-9_][\w.+-]{0,39})["'`]?(?:\s\s+\S|\s*(?:$|[:：=—–(（]|\s-\s))"#;
    const PARAM_LINE: &str =
        r"^\s*(?:[-*•]\s*)?`?([A-Za-z_][\w-]*)`?\s*(?:\([^)]*\))?\s*(?:[:-]\s+|：\s*)(.+)$";
    const PAIR: &str = r#"(?:^|[\s。；;，,：:(（])(?:传)?([A-Za-z0-9_][\w.-]{0,30})\s*(?:[:：]\s*[^;；:：\n,=]{1,40}?(?:[;；。.]|$)|表示)|["'`]([\w.-]{1,30})["'`]\s*(?:for|to|means|=|[:：]|\s-\s|–|—)|(?:^|[\s,;(])([A-Za-z0-9_]{1,20})\s*=\s*\p{L}[^,;=]{0,30}(?:[,;.)]|$)"#;

    struct Old {
        bullet: Regex,
        pair: Regex,
        param_line: Regex,
    }

    impl Old {
        fn new() -> Old {
            Old {
                bullet: Regex::new(BULLET).expect("compiles"),
                pair: Regex::new(PAIR).expect("compiles"),
                param_line: Regex::new(PARAM_LINE).expect("compiles"),
            }
        }

        fn param_line<'a>(&self, line: &'a str) -> Option<(&'a str, &'a str)> {
            self.param_line.captures(line).map(|c| {
                (
                    c.get(1).expect("group 1").as_str(),
                    c.get(2).expect("group 2").as_str(),
                )
            })
        }

        fn bullet<'a>(&self, line: &'a str) -> Option<&'a str> {
            self.bullet
                .captures(line)
                .map(|c| c.get(1).expect("group 1").as_str())
        }

        fn pair_at<'a>(&self, text: &'a str, from: usize) -> Option<Pair<'a>> {
            self.pair.captures_at(text, from).map(|c| {
                let whole = c.get(0).expect("a match");
                Pair {
                    start: whole.start(),
                    end: whole.end(),
                    value: c
                        .get(1)
                        .or_else(|| c.get(2))
                        .or_else(|| c.get(3))
                        .expect("one group matches")
                        .as_str(),
                }
            })
        }
    }

    /// Compares both matchers on `text` (and each of its lines for bullets, and its flattened
    /// form for pairs, as `closed_list` calls them); `all_starts` tries `pair_at` from every
    /// char boundary, else from each match's end as `pairs` does. Returns the comparisons made.
    fn compare(old: &Old, text: &str, all_starts: bool) -> usize {
        let mut n = 0;
        for line in std::iter::once(text).chain(text.lines()) {
            assert_eq!(bullet(line), old.bullet(line), "bullet on {line:?}");
            assert_eq!(
                param_line(line),
                old.param_line(line),
                "param line {line:?}"
            );
            n += 2;
        }
        let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
        for t in [text, flat.as_str()] {
            if all_starts {
                for (from, _) in t.char_indices().chain([(t.len(), ' ')]) {
                    assert_eq!(
                        pair_at(t, from),
                        old.pair_at(t, from),
                        "pair in {t:?} from {from}"
                    );
                    n += 1;
                }
            } else {
                let mut from = 0;
                loop {
                    let found = pair_at(t, from);
                    assert_eq!(found, old.pair_at(t, from), "pair in {t:?} from {from}");
                    n += 1;
                    let Some(found) = found else { break };
                    from = found.end.max(found.start + 1);
                    while !t.is_char_boundary(from) {
                        from += 1;
                    }
                }
            }
        }
        n
    }

    fn strings(value: &serde_json::Value, out: &mut Vec<String>) {
        match value {
            serde_json::Value::String(s) => out.push(s.clone()),
            serde_json::Value::Array(a) => a.iter().for_each(|v| strings(v, out)),
            serde_json::Value::Object(o) => {
                for (k, v) in o {
                    out.push(k.clone());
                    strings(v, out);
                }
            }
            _ => {}
        }
    }

    /// Every JSON document under `dir`; a `.snap` file's JSON starts after its header, a
    /// JSON-lines file is one document a line.
    fn documents(dir: &Path, out: &mut Vec<serde_json::Value>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .expect("a readable folder")
            .map(|e| e.expect("an entry").path())
            .collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                documents(&path, out);
                continue;
            }
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            let body = match text.find(['{', '[']) {
                Some(i) if path.extension().is_some_and(|e| e == "snap") => &text[i..],
                _ => text.as_str(),
            };
            if let Ok(v) = serde_json::from_str::<serde_json::Value>(body) {
                out.push(v);
            } else {
                for line in body.lines() {
                    if let Ok(v) = serde_json::from_str::<serde_json::Value>(line) {
                        out.push(v);
                    }
                }
            }
        }
    }

    /// The shared corpora (`../shared/corpora` beside the checkout).
    fn corpora_dir() -> std::path::PathBuf {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpora");
        assert!(
            dir.is_dir(),
            "the shared corpora are expected at `{}`",
            dir.display()
        );
        dir
    }

    /// Every JSON document of the shared corpora.
    pub(crate) fn corpus_documents() -> Vec<serde_json::Value> {
        let mut out = Vec::new();
        documents(&corpora_dir(), &mut out);
        out
    }

    /// A small deterministic generator (xorshift), so a failure reproduces.
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }
    }

    fn pieces() -> Vec<String> {
        let mut p: Vec<String> = [
            "",
            " ",
            "  ",
            "\t",
            "\r",
            "\n",
            "\u{3000}",
            "\u{a0}",
            "\u{2028}",
            "-",
            "*",
            "•",
            "·",
            "+",
            ".",
            ")",
            "(",
            "（",
            "'",
            "\"",
            "`",
            ":",
            "：",
            ";",
            "；",
            "。",
            ",",
            "，",
            "=",
            "—",
            "–",
            " - ",
            "传",
            "表示",
            "for",
            "to",
            "means",
            "a",
            "Z",
            "_",
            "9",
            "42",
            "é",
            "ñ",
            "ß",
            "中",
            "文",
            "ж",
            "ا",
            "क",
            "ไ",
            "\u{301}",
            "\u{903}",
            "‿",
            "⁀",
            "＿",
            "\u{200c}",
            "\u{200d}",
            "²",
            "½",
            "Ⅷ",
            "٣",
            "५",
            "３",
            "௫",
            "low",
            "asc",
            "P1",
            "1=low",
            "x: y",
            "is",
            "e.g.",
            "#",
            "/",
            "|",
            "、",
            "\u{1F600}",
            "𝔘",
            "ǅ",
            "ʰ",
        ]
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
        for n in [1, 19, 20, 21, 29, 30, 31, 38, 39, 40, 41, 42] {
            for unit in ["a", "é", "中", "٣", "a\u{301}", "_-.", "+"] {
                let word: String = unit.chars().cycle().take(n).collect();
                p.push(word);
            }
        }
        p
    }

    #[test]
    fn matchers_equal_their_regexes_on_generated_strings() {
        let old = Old::new();
        let pieces = pieces();
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let mut n = 0;
        for round in 0..1_500 {
            let len = 1 + rng.below(10);
            let mut text = String::new();
            // Half the strings open like a bullet, so the deep branches are reached.
            if round % 2 == 0 {
                text.push_str(["- ", "* ", "  • ", "1. ", "12) ", "٣. ", "· "][rng.below(7)]);
            }
            for _ in 0..len {
                text.push_str(&pieces[rng.below(pieces.len())]);
            }
            n += compare(&old, &text, true);
        }
        assert!(n > 20_000, "{n} comparisons");
    }

    #[test]
    fn matchers_equal_their_regexes_at_the_limits() {
        let old = Old::new();
        let mut n = 0;
        for len in 0..=45 {
            for unit in ["a", "é", "中", "٣", "²", "a\u{301}", "_", ".", "+", "-"] {
                let word: String = unit.chars().cycle().take(len).collect();
                for text in [
                    format!("- {word}"),
                    format!("- a{word}: x"),
                    format!("1. `a{word}` - x"),
                    format!("a{word}: meaning."),
                    format!("x: {word};"),
                    format!("'{word}' for x"),
                    format!("a{word}=b"),
                    format!("k = é{word}."),
                    format!("，传a{word}表示"),
                    String::new(),
                ] {
                    n += compare(&old, &text, true);
                }
            }
        }
        assert!(n > 10_000, "{n} comparisons");
    }

    /// Every string of the shared corpora (`../shared/corpora` beside the checkout), sorted,
    /// without duplicates.
    pub(crate) fn corpus_texts() -> Vec<String> {
        let mut texts = Vec::new();
        for document in corpus_documents() {
            strings(&document, &mut texts);
        }
        texts.sort();
        texts.dedup();
        texts
    }

    #[test]
    #[ignore = "needs ../shared/corpora beside the checkout (.ci/run runs it)"]
    fn matchers_equal_their_regexes_on_the_corpora() {
        let texts = corpus_texts();
        assert!(texts.len() > 10_000, "{} strings", texts.len());
        let old = Old::new();
        let n: usize = texts.iter().map(|t| compare(&old, t, t.len() <= 40)).sum();
        assert!(n > 20_000, "{n} comparisons");
    }
}
