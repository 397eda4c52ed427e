//! Unicode sentence bounds (UAX #29) as unicode-segmentation's `split_sentence_bounds` gives
//! them, in linear time.
//!
//! unicode-segmentation looks every character up in its tables and, after a full stop, scans
//! ahead once per following character (SB8): on a long run of closing marks or spaces after a
//! full stop that is quadratic, seconds for a hostile description of a few hundred kilobytes.
//! The same state machine is run here (rules SB1 to SB11 as that crate applies them) over the
//! crate's classes (`classes.rs`, generated from its table; ASCII is classified by a `match`),
//! and SB8's look-ahead keeps its last answer. A property test compares the pieces with the
//! crate's on arbitrary text, and a test on every character of planes 0-3 and 14.

#[rustfmt::skip]
mod classes;

/// The pieces of `text` between sentence bounds, as `text.split_sentence_bounds()` gives them.
pub(crate) fn sentence_bounds(text: &str) -> Bounds<'_> {
    Bounds {
        text,
        pos: 0,
        state: [Part::Sot; 4],
        start: None,
        ahead: None,
    }
}

/// The sentence-break classes (unicode-segmentation's `SentenceCat`; `Other` is its `Any`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Class {
    Other,
    Cr,
    Lf,
    Sep,
    Sp,
    STerm,
    ATerm,
    Close,
    SContinue,
    Numeric,
    Upper,
    Lower,
    OLetter,
    Extend,
    Format,
}

/// The class of an ASCII byte (ASCII holds no `Sep`, `Extend`, `Format` or `OLetter`
/// character).
fn ascii_class(b: u8) -> Class {
    match b {
        b'\t' | 0x0b | 0x0c | b' ' => Class::Sp,
        b'\n' => Class::Lf,
        b'\r' => Class::Cr,
        b'!' | b'?' => Class::STerm,
        b'.' => Class::ATerm,
        b'"' | b'\'' | b'(' | b')' | b'[' | b']' | b'{' | b'}' => Class::Close,
        b',' | b'-' | b':' | b';' => Class::SContinue,
        b'0'..=b'9' => Class::Numeric,
        b'A'..=b'Z' => Class::Upper,
        b'a'..=b'z' => Class::Lower,
        _ => Class::Other,
    }
}

/// The class of a non-ASCII character: a binary search of the generated ranges.
fn unicode_class(c: char) -> Class {
    let c = u32::from(c);
    classes::RANGES
        .binary_search_by(|&(lo, hi, _)| {
            if hi < c {
                std::cmp::Ordering::Less
            } else if lo > c {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .map_or(Class::Other, |i| classes::RANGES[i].2)
}

/// The class of the character at byte `at` of `text` (a character boundary before its end),
/// and the character's length in bytes.
fn class_at(text: &str, at: usize) -> (Class, usize) {
    let b = text.as_bytes()[at];
    if b.is_ascii() {
        return (ascii_class(b), 1);
    }
    text[at..]
        .chars()
        .next()
        .map_or((Class::Other, 1), |c| (unicode_class(c), c.len_utf8()))
}

/// What the last characters were, runs of closing marks and of spaces collapsed (the
/// unicode-segmentation state, newest last).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Part {
    Sot,
    Eot,
    Other,
    Cr,
    Lf,
    Sep,
    ATerm,
    UpperLower,
    ClosePlus,
    SpPlus,
    STerm,
}

type State = [Part; 4];

fn advance(parts: State, class: Class) -> State {
    match (parts[3], class) {
        (Part::ClosePlus, Class::Close) | (Part::SpPlus, Class::Sp) => parts,
        _ => [
            parts[1],
            parts[2],
            parts[3],
            match class {
                Class::Cr => Part::Cr,
                Class::Lf => Part::Lf,
                Class::Sep => Part::Sep,
                Class::ATerm => Part::ATerm,
                Class::Upper | Class::Lower => Part::UpperLower,
                Class::Close => Part::ClosePlus,
                Class::Sp => Part::SpPlus,
                Class::STerm => Part::STerm,
                Class::Other
                | Class::SContinue
                | Class::Numeric
                | Class::OLetter
                | Class::Extend
                | Class::Format => Part::Other,
            },
        ],
    }
}

fn is_saterm(part: Part) -> bool {
    matches!(part, Part::STerm | Part::ATerm)
}

fn is_para_sep(class: Class) -> bool {
    matches!(class, Class::Sep | Class::Cr | Class::Lf)
}

/// SB8: `ATerm Close* Sp*` before, and ahead `( ¬(OLetter | Upper | Lower | ParaSep |
/// SATerm) )* Lower` (from byte `at` on). `ahead` keeps the last scan's answer: the first
/// character at or after where it started that decides (its byte index, and whether it is
/// lower case), so a long run of closing marks or spaces after a full stop is scanned once, not
/// once per character.
fn sb8(parts: &State, text: &str, at: usize, ahead: &mut Option<(usize, bool)>) -> bool {
    let mut idx = if parts[3] == Part::SpPlus { 2 } else { 3 };
    if parts[idx] == Part::ClosePlus {
        idx -= 1;
    }
    if parts[idx] != Part::ATerm {
        return false;
    }
    if let Some((decider, lower)) = *ahead
        && decider >= at
    {
        return lower;
    }
    let mut pos = at;
    let found = loop {
        if pos >= text.len() {
            break (text.len(), false);
        }
        let (class, len) = class_at(text, pos);
        match class {
            Class::Lower => break (pos, true),
            Class::OLetter | Class::Upper | Class::STerm | Class::ATerm => break (pos, false),
            _ if is_para_sep(class) => break (pos, false),
            _ => pos += len,
        }
    };
    *ahead = Some(found);
    found.1
}

/// `SATerm Close* Sp*` before.
fn sb8a(parts: &State) -> bool {
    let mut idx = if parts[3] == Part::SpPlus { 2 } else { 3 };
    if parts[idx] == Part::ClosePlus {
        idx -= 1;
    }
    is_saterm(parts[idx])
}

/// `SATerm Close*` before.
fn sb9(parts: &State) -> bool {
    let idx = if parts[3] == Part::ClosePlus { 2 } else { 3 };
    is_saterm(parts[idx])
}

/// `SATerm Close* Sp* ParaSep?` before.
fn sb11(parts: &State) -> bool {
    let mut idx = if matches!(parts[3], Part::Sep | Part::Cr | Part::Lf) {
        2
    } else {
        3
    };
    if parts[idx] == Part::SpPlus {
        idx -= 1;
    }
    if parts[idx] == Part::ClosePlus {
        idx -= 1;
    }
    is_saterm(parts[idx])
}

/// The iterator of [`sentence_bounds`].
pub(crate) struct Bounds<'a> {
    text: &'a str,
    pos: usize,
    state: State,
    start: Option<usize>,
    /// [`sb8`]'s last look ahead.
    ahead: Option<(usize, bool)>,
}

impl Bounds<'_> {
    /// The byte offset of the next sentence break.
    fn next_break(&mut self) -> Option<usize> {
        while self.pos < self.text.len() {
            let at = self.pos;
            let before = self.state;
            let (class, len) = class_at(self.text, at);
            self.pos += len;
            self.state = advance(before, class);
            // The rules in order; the first that applies decides.
            let breaks = if before[3] == Part::Sot {
                true // SB1
            } else if matches!(before[3], Part::Cr | Part::Lf | Part::Sep) {
                // SB3: CR × LF; SB4: a break after any other paragraph separator.
                !(class == Class::Lf && before[3] == Part::Cr)
            } else if matches!(class, Class::Extend | Class::Format) {
                // SB5: extending and format characters are transparent.
                self.state = before;
                false
            } else {
                let kept = (class == Class::Numeric && before[3] == Part::ATerm) // SB6
                    || (class == Class::Upper
                        && before[2] == Part::UpperLower
                        && before[3] == Part::ATerm) // SB7
                    || sb8(&before, self.text, at, &mut self.ahead)
                    || (matches!(class, Class::SContinue | Class::STerm | Class::ATerm)
                        && sb8a(&before))
                    || ((class == Class::Close || class == Class::Sp || is_para_sep(class))
                        && sb9(&before))
                    || ((class == Class::Sp || is_para_sep(class)) && sb8a(&before)); // SB10
                !kept && sb11(&before)
            };
            if breaks {
                return Some(at);
            }
        }
        // SB2
        if matches!(self.state[3], Part::Sot | Part::Eot) {
            None
        } else {
            self.state = [self.state[1], self.state[2], self.state[3], Part::Eot];
            Some(self.pos)
        }
    }
}

impl<'a> Iterator for Bounds<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        let start = match self.start {
            Some(start) => start,
            None => {
                let start = self.next_break()?;
                self.start = Some(start);
                start
            }
        };
        let end = self.next_break()?;
        self.start = Some(end);
        Some(&self.text[start..end])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use unicode_segmentation::UnicodeSegmentation as _;

    fn unicode(text: &str) -> Vec<&str> {
        text.split_sentence_bounds().collect()
    }

    fn ours(text: &str) -> Vec<&str> {
        sentence_bounds(text).collect()
    }

    /// Text dense in what the rules look at: terminators, closing marks, spaces, line ends,
    /// cases, digits, continuations, and non-ASCII characters of the same classes.
    fn tricky() -> impl Strategy<Value = String> {
        const PIECES: &[&str] = &[
            "a",
            "b",
            "Z",
            "Mr",
            "e.g",
            "1",
            "9",
            ".",
            ".",
            "!",
            "?",
            " ",
            " ",
            "  ",
            "\t",
            "\n",
            "\r",
            "\r\n",
            "\u{b}",
            "\u{c}",
            "\"",
            "'",
            "(",
            ")",
            "[",
            "]",
            "{",
            "}",
            ",",
            "-",
            ":",
            ";",
            "_",
            "#",
            "~",
            "\u{0}",
            "\u{7f}",
            "é",
            "É",
            "。",
            "！",
            "\u{85}",
            "\u{a0}",
            "\u{ad}",
            "\u{301}",
            "中",
            "»",
            "«",
            "\u{2029}",
            "…",
            "\u{200d}",
            "\u{3000}",
            "）",
            "」",
            "．",
            "١",
            "ß",
            "ǅ",
            "\u{feff}",
            "︒",
            "\u{e0100}",
        ];
        proptest::collection::vec(proptest::sample::select(PIECES), 0..40)
            .prop_map(|pieces| pieces.concat())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2_000))]

        #[test]
        fn ascii_text_splits_as_unicode_segmentation_does(text in "[\\x00-\\x7f]{0,80}") {
            prop_assert_eq!(ours(&text), unicode(&text));
        }

        #[test]
        fn tricky_text_splits_as_unicode_segmentation_does(text in tricky()) {
            prop_assert_eq!(ours(&text), unicode(&text));
        }

        #[test]
        fn any_text_splits_as_unicode_segmentation_does(text in any::<String>()) {
            prop_assert_eq!(ours(&text), unicode(&text));
        }
    }

    #[test]
    fn the_table_is_of_the_pinned_crates_unicode_version() {
        assert_eq!(
            classes::UNICODE_VERSION,
            unicode_segmentation::UNICODE_VERSION,
            "regenerate classes.rs: python3 scripts/gen-sentence-classes.py"
        );
    }

    /// Every character of the planes that have sentence classes, in the places where each class
    /// decides something (after a full stop, before lower or upper case, between spaces and
    /// closing marks, after a terminator), splits as unicode-segmentation splits it: a class
    /// that differs from the crate's changes one of these.
    #[test]
    fn every_character_splits_as_unicode_segmentation_does() {
        const TEMPLATES: &[(&str, &str)] = &[
            ("a.", "b"),
            ("a. ", " b"),
            ("a.", "B"),
            ("a", ". b"),
            ("A.", ""),
            ("a?", " b"),
            ("a.)", "x"),
            ("", "\n"),
            ("a.\r", ""),
            ("ab", " Cd."),
        ];
        let planes = (0..=0x3_FFFF).chain(0xE_0000..=0xE_FFFF);
        let mut text = String::new();
        for c in planes.filter_map(char::from_u32) {
            for (before, after) in TEMPLATES {
                text.clear();
                text.push_str(before);
                text.push(c);
                text.push_str(after);
                assert_eq!(
                    ours(&text),
                    unicode(&text),
                    "U+{:04X} in {text:?}",
                    c as u32
                );
            }
        }
    }

    #[test]
    fn prose_splits_as_unicode_segmentation_does() {
        for text in [
            "",
            "One. Two! Three? four",
            "Use e.g. this. U.S. law (see 1.5). \"Quoted.\" Next",
            "Ends with a stop.",
            "a.B c.d. E.  (x) ... ?! ;: ok\r\nnew line\n\nthere",
            "Café. Ünïcödé! 中文。下一句？ «Oui.» ok",
        ] {
            assert_eq!(ours(text), unicode(text), "{text:?}");
        }
    }

    /// A long run of closing marks or spaces after a full stop splits as the crate splits it
    /// (the run's cost is `hostile_compute`'s test: the crate's own scan is quadratic).
    #[test]
    fn a_long_run_after_a_full_stop_splits_as_unicode_segmentation_does() {
        for lead in [
            "Start here. a.",
            "Start here é. a.",
            "中文. a.",
            "x.",
            "x. ",
        ] {
            for run in [")", " ", "）", "\u{3000}", "\u{301}", ")\u{301}"] {
                for tail in ["", "b", "B", "中", "\n"] {
                    let text = format!("{lead}{}{tail}", run.repeat(300));
                    assert_eq!(ours(&text), unicode(&text), "{lead:?} {run:?} {tail:?}");
                }
            }
        }
    }
}
