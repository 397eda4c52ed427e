//! Unicode sentence bounds (UAX #29) as unicode-segmentation's `split_sentence_bounds` gives
//! them, with a fast path for ASCII text.
//!
//! unicode-segmentation looks every character up in its tables (a binary search) and rescans
//! ahead after a full stop; that was the larger part of packing a summary, and most
//! descriptions are ASCII. An ASCII text is split here by the same state machine (rules SB1 to
//! SB11 as that crate applies them) over a byte classification; anything else goes to the
//! crate. The result is the same pieces either way: a property test compares the two on
//! arbitrary text.

use unicode_segmentation::{USentenceBounds, UnicodeSegmentation};

/// The pieces of `text` between sentence bounds, as `text.split_sentence_bounds()` gives them.
pub(crate) fn sentence_bounds(text: &str) -> Bounds<'_> {
    if text.is_ascii() {
        Bounds::Ascii(Ascii {
            text,
            pos: 0,
            state: [Part::Sot; 4],
            start: None,
            ahead: None,
        })
    } else {
        Bounds::Unicode(text.split_sentence_bounds())
    }
}

/// The iterator of [`sentence_bounds`].
pub(crate) enum Bounds<'a> {
    Ascii(Ascii<'a>),
    Unicode(USentenceBounds<'a>),
}

impl<'a> Iterator for Bounds<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        match self {
            Bounds::Ascii(ascii) => ascii.next(),
            Bounds::Unicode(unicode) => unicode.next(),
        }
    }
}

/// The sentence-break classes of ASCII characters (unicode-segmentation's table: ASCII holds no
/// `Sep`, `Extend`, `Format` or `OLetter` character).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    Other,
    Cr,
    Lf,
    Sp,
    STerm,
    ATerm,
    Close,
    SContinue,
    Numeric,
    Upper,
    Lower,
}

fn class(b: u8) -> Class {
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

/// What the last characters were, runs of closing marks and of spaces collapsed (the
/// unicode-segmentation state, newest last).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Part {
    Sot,
    Eot,
    Other,
    Cr,
    Lf,
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
                Class::ATerm => Part::ATerm,
                Class::Upper | Class::Lower => Part::UpperLower,
                Class::Close => Part::ClosePlus,
                Class::Sp => Part::SpPlus,
                Class::STerm => Part::STerm,
                Class::Other | Class::SContinue | Class::Numeric => Part::Other,
            },
        ],
    }
}

fn is_saterm(part: Part) -> bool {
    matches!(part, Part::STerm | Part::ATerm)
}

/// SB8: `ATerm Close* Sp*` before, and ahead `( ¬(OLetter | Upper | Lower | ParaSep |
/// SATerm) )* Lower` (from byte `at` on). `ahead` keeps the last scan's answer: the first byte
/// at or after where it started that decides (its index, and whether it is lower case), so a
/// long run of closing marks or spaces after a full stop is scanned once, not once per byte.
fn sb8(parts: &State, bytes: &[u8], at: usize, ahead: &mut Option<(usize, bool)>) -> bool {
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
    let found = bytes[at..]
        .iter()
        .position(|&b| {
            matches!(
                class(b),
                Class::Lower | Class::Upper | Class::Cr | Class::Lf | Class::STerm | Class::ATerm
            )
        })
        .map_or((bytes.len(), false), |i| {
            (at + i, class(bytes[at + i]) == Class::Lower)
        });
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
    let mut idx = if matches!(parts[3], Part::Cr | Part::Lf) {
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

/// The ASCII path of [`sentence_bounds`].
pub(crate) struct Ascii<'a> {
    text: &'a str,
    pos: usize,
    state: State,
    start: Option<usize>,
    /// [`sb8`]'s last look ahead.
    ahead: Option<(usize, bool)>,
}

impl Ascii<'_> {
    /// The byte offset of the next sentence break.
    fn next_break(&mut self) -> Option<usize> {
        let bytes = self.text.as_bytes();
        while self.pos < bytes.len() {
            let at = self.pos;
            let before = self.state;
            let class = class(bytes[at]);
            self.pos += 1;
            self.state = advance(before, class);
            // The rules in order; the first that applies decides.
            let breaks = if before[3] == Part::Sot {
                true // SB1
            } else if matches!(before[3], Part::Cr | Part::Lf) {
                // SB3: CR × LF; SB4: a break after any other paragraph separator.
                !(class == Class::Lf && before[3] == Part::Cr)
            } else {
                let kept = (class == Class::Numeric && before[3] == Part::ATerm) // SB6
                    || (class == Class::Upper
                        && before[2] == Part::UpperLower
                        && before[3] == Part::ATerm) // SB7
                    || sb8(&before, bytes, at, &mut self.ahead)
                    || (matches!(class, Class::SContinue | Class::STerm | Class::ATerm)
                        && sb8a(&before))
                    || (matches!(class, Class::Close | Class::Sp | Class::Cr | Class::Lf)
                        && sb9(&before))
                    || (matches!(class, Class::Sp | Class::Cr | Class::Lf) && sb8a(&before)); // SB10
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

impl<'a> Iterator for Ascii<'a> {
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

    fn unicode(text: &str) -> Vec<&str> {
        text.split_sentence_bounds().collect()
    }

    fn ascii(text: &str) -> Vec<&str> {
        Ascii {
            text,
            pos: 0,
            state: [Part::Sot; 4],
            start: None,
            ahead: None,
        }
        .collect()
    }

    /// Text dense in what the rules look at: terminators, closing marks, spaces, line ends,
    /// cases, digits, continuations, and non-ASCII characters of the same classes.
    fn tricky() -> impl Strategy<Value = String> {
        const PIECES: &[&str] = &[
            "a", "b", "Z", "Mr", "e.g", "1", "9", ".", ".", "!", "?", " ", " ", "  ", "\t", "\n",
            "\r", "\r\n", "\u{b}", "\u{c}", "\"", "'", "(", ")", "[", "]", "{", "}", ",", "-", ":",
            ";", "_", "#", "~", "\u{0}", "\u{7f}", "é", "É", "。", "！", "\u{85}", "\u{a0}",
            "\u{ad}", "\u{301}", "中", "»", "«", "\u{2029}", "…",
        ];
        proptest::collection::vec(proptest::sample::select(PIECES), 0..40)
            .prop_map(|pieces| pieces.concat())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2_000))]

        #[test]
        fn ascii_text_splits_as_unicode_segmentation_does(text in "[\\x00-\\x7f]{0,80}") {
            prop_assert_eq!(ascii(&text), unicode(&text));
        }

        #[test]
        fn tricky_text_splits_as_unicode_segmentation_does(text in tricky()) {
            prop_assert_eq!(sentence_bounds(&text).collect::<Vec<_>>(), unicode(&text));
            let ascii_only: String = text.chars().filter(char::is_ascii).collect();
            prop_assert_eq!(ascii(&ascii_only), unicode(&ascii_only));
        }

        #[test]
        fn any_text_splits_as_unicode_segmentation_does(text in any::<String>()) {
            prop_assert_eq!(sentence_bounds(&text).collect::<Vec<_>>(), unicode(&text));
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
        ] {
            assert_eq!(ascii(text), unicode(text), "{text:?}");
        }
    }
}
