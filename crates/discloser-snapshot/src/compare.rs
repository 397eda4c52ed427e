//! Two versions of one file, compared byte for byte: where they first differ, what that costs
//! the prompt cache, what changed that a terminal would hide, and a unified diff.
//!
//! The cache model is the one prompt caches implement: a request reuses the longest prefix it
//! shares with an earlier one. The unchanged prefix is counted in whole lines, up to the start
//! of the line holding the first differing byte, because the tokens of a line are not stable up
//! to the change (a tokenizer may merge the changed bytes with the ones before them). So a
//! changed first line means nothing stays cached, and text appended at the end keeps all of the
//! old text cached.

use serde::Serialize;
use similar::{ChangeTag, TextDiff, udiff::UnifiedHunkHeader};

use crate::cost::Counter;
use crate::diagnostic::Position;

/// Lines of context around each hunk of a unified diff.
const CONTEXT: usize = 3;

/// Characters shown before the first difference in an excerpt.
const EXCERPT_BEFORE: usize = 30;

/// Characters shown from the first difference on in an excerpt.
const EXCERPT_AFTER: usize = 40;

/// Where two versions of a file first differ.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FirstDifference {
    /// 0-based offset of the first byte that differs (the length of the common prefix).
    pub byte: usize,
    /// 1-based line of that byte.
    pub line: usize,
    /// 1-based column of that byte's character, counted in characters.
    pub column: usize,
    /// The old line around the difference (`…` marks a cut), as raw text.
    pub old_excerpt: String,
    /// The new line around the difference (`…` marks a cut), as raw text.
    pub new_excerpt: String,
}

/// What a change costs the prompt cache, measured on the new bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct CacheImpact {
    /// Bytes of the prefix shared with the old version, in whole lines: they stay cached.
    pub unchanged_bytes: usize,
    /// Tokens of that prefix.
    pub unchanged_tokens: u64,
    /// Bytes from the first changed line to the end: they are processed again, uncached.
    pub changed_bytes: usize,
    /// Tokens of the whole new text minus those of the unchanged prefix.
    pub changed_tokens: u64,
}

/// A difference that does not show in an ordinary diff.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "note", rename_all = "kebab-case")]
pub enum Note {
    /// The two versions use different line endings.
    LineEndings {
        /// The old version's line endings.
        old: LineEnding,
        /// The new version's line endings.
        new: LineEnding,
    },
    /// One version ends with a newline and the other does not.
    FinalNewline {
        /// Whether the old version ends with `\n`.
        old: bool,
        /// Whether the new version ends with `\n`.
        new: bool,
    },
    /// One version starts with a UTF-8 byte-order mark and the other does not.
    ByteOrderMark {
        /// Whether the old version starts with a byte-order mark.
        old: bool,
        /// Whether the new version starts with a byte-order mark.
        new: bool,
    },
    /// The old version is not valid UTF-8 (shown with replacement characters).
    OldNotUtf8,
}

/// The line endings a text uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum LineEnding {
    /// No line break at all.
    None,
    /// `\n` only.
    Lf,
    /// `\r\n` only.
    Crlf,
    /// `\r` only.
    Cr,
    /// More than one kind.
    Mixed,
}

impl LineEnding {
    /// The line endings of `bytes`.
    pub fn of(bytes: &[u8]) -> LineEnding {
        let (mut lf, mut crlf, mut cr) = (false, false, false);
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'\r' if bytes.get(i + 1) == Some(&b'\n') => {
                    crlf = true;
                    i += 1;
                }
                b'\r' => cr = true,
                b'\n' => lf = true,
                _ => {}
            }
            i += 1;
        }
        match (lf, crlf, cr) {
            (false, false, false) => LineEnding::None,
            (true, false, false) => LineEnding::Lf,
            (false, true, false) => LineEnding::Crlf,
            (false, false, true) => LineEnding::Cr,
            _ => LineEnding::Mixed,
        }
    }

    /// How the line endings are named in messages (`LF`, `CRLF`, ...).
    pub fn label(self) -> &'static str {
        match self {
            LineEnding::None => "no line breaks",
            LineEnding::Lf => "LF",
            LineEnding::Crlf => "CRLF",
            LineEnding::Cr => "CR",
            LineEnding::Mixed => "mixed line endings",
        }
    }
}

/// The offset of the first byte where `old` and `new` differ, `None` when they are equal.
pub fn first_difference_offset(old: &[u8], new: &[u8]) -> Option<usize> {
    if old == new {
        return None;
    }
    let common = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    Some(common)
}

/// Where `old` and `new` first differ, `None` when they are equal. Line and column are those of
/// the new text (the bytes before the difference are the same in both).
pub fn first_difference(old: &[u8], new: &str) -> Option<FirstDifference> {
    let byte = first_difference_offset(old, new.as_bytes())?;
    let position = Position::of_offset(new, byte);
    let line_start = line_start(new.as_bytes(), byte);
    let skip = position.col - 1;
    Some(FirstDifference {
        byte,
        line: position.line,
        column: position.col,
        old_excerpt: excerpt(&String::from_utf8_lossy(&old[line_start..]), skip),
        new_excerpt: excerpt(&new[line_start..], skip),
    })
}

/// The start of the line holding byte `offset`.
fn line_start(bytes: &[u8], offset: usize) -> usize {
    let end = offset.min(bytes.len());
    bytes[..end]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1)
}

/// The first line of `text` (with its `\n`, if any), cut to the characters around character
/// `at`.
fn excerpt(text: &str, at: usize) -> String {
    let line = text.split_inclusive('\n').next().unwrap_or_default();
    let chars: Vec<char> = line.chars().collect();
    let start = at.saturating_sub(EXCERPT_BEFORE);
    let end = (at + EXCERPT_AFTER).min(chars.len());
    let mut out = String::new();
    if start > 0 {
        out.push('…');
    }
    out.extend(&chars[start.min(end)..end]);
    if end < chars.len() {
        out.push('…');
    }
    out
}

/// The cache impact of replacing an old version by `new`, whose first difference from it is at
/// byte `first_difference` (`None`: there was no old version, nothing is cached).
pub fn cache_impact(new: &str, first_difference: Option<usize>, counter: &Counter) -> CacheImpact {
    let keep = first_difference.map_or(0, |byte| line_start(new.as_bytes(), byte));
    let total = counter.count_text(new);
    let unchanged_tokens = counter.count_text(&new[..keep]);
    CacheImpact {
        unchanged_bytes: keep,
        unchanged_tokens,
        changed_bytes: new.len() - keep,
        changed_tokens: total.saturating_sub(unchanged_tokens),
    }
}

/// The differences between `old` and `new` that an ordinary diff hides.
pub fn notes(old: &[u8], new: &[u8]) -> Vec<Note> {
    let mut notes = Vec::new();
    let (old_endings, new_endings) = (LineEnding::of(old), LineEnding::of(new));
    if old_endings != new_endings
        && old_endings != LineEnding::None
        && new_endings != LineEnding::None
    {
        notes.push(Note::LineEndings {
            old: old_endings,
            new: new_endings,
        });
    }
    let (old_nl, new_nl) = (old.ends_with(b"\n"), new.ends_with(b"\n"));
    if old_nl != new_nl && !old.is_empty() && !new.is_empty() {
        notes.push(Note::FinalNewline {
            old: old_nl,
            new: new_nl,
        });
    }
    const BOM: &[u8] = "\u{feff}".as_bytes();
    let (old_bom, new_bom) = (old.starts_with(BOM), new.starts_with(BOM));
    if old_bom != new_bom {
        notes.push(Note::ByteOrderMark {
            old: old_bom,
            new: new_bom,
        });
    }
    if std::str::from_utf8(old).is_err() {
        notes.push(Note::OldNotUtf8);
    }
    notes
}

/// A unified diff of `old` and `new` by lines (3 lines of context), headed by the two labels.
/// With `visible`, characters a terminal hides are replaced by symbols (see [`visible`]); a
/// version without a final newline gets the usual `\ No newline at end of file` line. Empty
/// when the texts are equal.
pub fn unified_diff(
    old: &str,
    new: &str,
    old_label: &str,
    new_label: &str,
    visible_chars: bool,
) -> String {
    let diff = TextDiff::from_lines(old, new);
    let groups = diff.grouped_ops(CONTEXT);
    if groups.is_empty() {
        return String::new();
    }
    let mut out = format!("--- {old_label}\n+++ {new_label}\n");
    for group in &groups {
        out.push_str(&format!("{}\n", UnifiedHunkHeader::new(group)));
        for op in group {
            for change in diff.iter_changes(op) {
                out.push(match change.tag() {
                    ChangeTag::Delete => '-',
                    ChangeTag::Insert => '+',
                    ChangeTag::Equal => ' ',
                });
                let line = change.value();
                let body = line.strip_suffix('\n').unwrap_or(line);
                if visible_chars {
                    out.push_str(&visible(body));
                } else {
                    out.push_str(body.strip_suffix('\r').unwrap_or(body));
                }
                out.push('\n');
                if change.missing_newline() {
                    out.push_str("\\ No newline at end of file\n");
                }
            }
        }
    }
    out
}

/// `line` with the characters a terminal hides made visible: `␍` for a carriage return, `⏎`
/// for a line feed, `␉` for a tab, `␠` for each trailing space, `⟨U+XXXX⟩` for other control,
/// zero-width and non-breaking space characters.
pub fn visible(line: &str) -> String {
    let content_end = line.trim_end_matches([' ', '\r', '\n']).len();
    let mut out = String::with_capacity(line.len());
    for (i, c) in line.char_indices() {
        match c {
            '\r' => out.push('␍'),
            '\n' => out.push('⏎'),
            '\t' => out.push('␉'),
            ' ' if i >= content_end => out.push('␠'),
            c if is_invisible(c) => out.push_str(&format!("⟨U+{:04X}⟩", u32::from(c))),
            c => out.push(c),
        }
    }
    out
}

/// Characters that do not show, or show as an ordinary space.
fn is_invisible(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{00a0}'
                | '\u{00ad}'
                | '\u{180e}'
                | '\u{200b}'..='\u{200f}'
                | '\u{2028}'..='\u{202f}'
                | '\u{205f}'..='\u{2064}'
                | '\u{feff}'
        )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cost::TokenizerKind;

    fn chars() -> Counter {
        Counter::new(TokenizerKind::Chars)
    }

    #[test]
    fn first_difference_has_line_column_and_excerpts() {
        let old = "header\n- a(x: 1|2) first\n";
        let new = "header\n- a(x: 2|1) first\n";
        let d = first_difference(old.as_bytes(), new).unwrap();
        assert_eq!((d.byte, d.line, d.column), (14, 2, 8));
        assert_eq!(d.old_excerpt, "- a(x: 1|2) first\n");
        assert_eq!(d.new_excerpt, "- a(x: 2|1) first\n");
        assert!(first_difference(b"same", "same").is_none());
    }

    #[test]
    fn columns_count_characters_and_excerpts_cut_long_lines() {
        let old = format!("{}中x", "a".repeat(50));
        let new = format!("{}中y", "a".repeat(50));
        let d = first_difference(old.as_bytes(), &new).unwrap();
        assert_eq!((d.byte, d.line, d.column), (53, 1, 52));
        assert_eq!(d.new_excerpt, format!("…{}中y", "a".repeat(29)));
    }

    #[test]
    fn a_change_inside_a_multibyte_character_points_at_that_character() {
        // 报 (E6 8A A5) and 把 (E6 8A 8A) share their first two bytes.
        let d = first_difference("ab报".as_bytes(), "ab把").unwrap();
        assert_eq!((d.byte, d.line, d.column), (4, 1, 3));
    }

    #[test]
    fn cache_keeps_whole_lines_before_the_first_difference() {
        let new = "aaaa\nbbbb\ncccc\n";
        let first = first_difference_offset(b"aaaa\nbbXb\ncccc\n", new.as_bytes());
        let impact = cache_impact(new, first, &chars());
        assert_eq!((impact.unchanged_bytes, impact.changed_bytes), (5, 10));
        assert_eq!((impact.unchanged_tokens, impact.changed_tokens), (2, 2));
    }

    #[test]
    fn a_changed_first_line_keeps_nothing_and_an_append_keeps_everything() {
        let first = first_difference_offset(b"aXaa\nbbbb\n", b"aaaa\nbbbb\n");
        assert_eq!(
            cache_impact("aaaa\nbbbb\n", first, &chars()).unchanged_bytes,
            0
        );
        let first = first_difference_offset(b"aaaa\n", b"aaaa\nbbbb\n");
        let impact = cache_impact("aaaa\nbbbb\n", first, &chars());
        assert_eq!((impact.unchanged_bytes, impact.changed_bytes), (5, 5));
        // Text removed at the end: what is left is all cached.
        let first = first_difference_offset(b"aaaa\nbbbb\n", b"aaaa\n");
        let impact = cache_impact("aaaa\n", first, &chars());
        assert_eq!((impact.unchanged_bytes, impact.changed_bytes), (5, 0));
        // No old version at all.
        assert_eq!(cache_impact("aaaa\n", None, &chars()).changed_bytes, 5);
    }

    #[test]
    fn invisible_characters_become_visible() {
        assert_eq!(visible("a\tb  \r"), "a␉b␠␠␍");
        assert_eq!(visible("a b"), "a b");
        assert_eq!(visible("\u{feff}x\u{200b}"), "⟨U+FEFF⟩x⟨U+200B⟩");
        assert_eq!(visible("   "), "␠␠␠");
        assert_eq!(visible("a \r\n"), "a␠␍⏎");
    }

    #[test]
    fn unified_diff_marks_crlf_and_a_missing_final_newline() {
        let diff = unified_diff("a\r\nb\n", "a\nb", "old", "new", true);
        assert_eq!(
            diff,
            "--- old\n+++ new\n@@ -1,2 +1,2 @@\n-a␍\n-b\n+a\n+b\n\\ No newline at end of file\n"
        );
        assert_eq!(unified_diff("same\n", "same\n", "o", "n", true), "");
    }

    #[test]
    fn notes_name_what_a_diff_hides() {
        assert_eq!(
            notes(b"a\r\nb\r\n", b"a\nb\n"),
            [Note::LineEndings {
                old: LineEnding::Crlf,
                new: LineEnding::Lf
            }]
        );
        assert_eq!(
            notes(b"a\nb", b"a\nb\n"),
            [Note::FinalNewline {
                old: false,
                new: true
            }]
        );
        assert_eq!(notes(b"\xff\n", b"a\n"), [Note::OldNotUtf8]);
    }
}
