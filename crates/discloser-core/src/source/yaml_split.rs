//! A large YAML file parsed on several threads: when its root is a block list written at column
//! 0 (a bare list of tools), a scan of its lines finds where each item starts, runs of items are
//! parsed as lists of their own in parallel by the fast path ([`fast_value`]), and their items
//! and positions are put back in order.
//!
//! This is only a faster way to the same value and outline. A line at column 0 that starts
//! neither an item (`-` then a space, a tab or the line's end) nor a comment, a NUL byte (which
//! ends the parser's input), or any run the fast path does not take, gives `None`: the caller
//! then parses the whole text on one thread, as before. Cutting at an item's `-` cannot change
//! what a run means when the run parses: an item's content is indented, and a line at column 0
//! inside a quoted scalar or a flow collection leaves the run before it unterminated, which
//! fails its parse.

use std::sync::atomic::{AtomicBool, Ordering};

use serde_json::Value;

use super::yaml_events::{FAST_MAX_NODES, fast_value_counted};
use super::{Kids, Loc, Outline, PosNode};

/// Files smaller than this are parsed on one thread: the threads would cost more than they save.
const MIN_BYTES: usize = 512 * 1024;

/// About this many bytes of items go to one run.
const RUN_BYTES: usize = 64 * 1024;

/// Lists of more items than this are left to the sequential parse (see `split::MAX_ITEMS`).
const MAX_ITEMS: usize = 2 * super::MAX_TOOLS_PER_FILE;

/// The value of `text` and its outline, parsed in parallel; `None` when the sequential parse
/// must decide.
pub(super) fn parse(text: &str) -> Option<(Value, Outline)> {
    if text.len() < MIN_BYTES || discloser_tokens::parallel::cores() < 2 {
        return None;
    }
    parse_in_runs(text, RUN_BYTES)
}

/// [`parse`] with runs of about `run_bytes`, whatever the text's size (the tests cut small
/// texts into many runs).
fn parse_in_runs(text: &str, run_bytes: usize) -> Option<(Value, Outline)> {
    let runs = runs(text, run_bytes)?;
    let failed = AtomicBool::new(false);
    let parsed = discloser_tokens::parallel::map_coarse(runs, |(start, line)| {
        if failed.load(Ordering::Relaxed) {
            return None;
        }
        let parsed = fast_value_counted(&text[start.0..start.1]);
        if parsed.is_none() {
            failed.store(true, Ordering::Relaxed);
        }
        Some((parsed?, line))
    });
    let mut items = Vec::new();
    let mut places = Vec::new();
    let mut root_at = None;
    // The root, and each run's nodes but its own list.
    let mut nodes = 1_usize;
    for run in parsed {
        let ((value, outline, count), line) = run?;
        let (Value::Array(run_items), Kids::Seq(run_places)) = (value, outline.tree.kids) else {
            return None;
        };
        if outline.depth != 1 || run_items.len() != run_places.len() {
            return None;
        }
        root_at.get_or_insert(outline.tree.at);
        nodes += count - 1;
        items.extend(run_items);
        places.extend(run_places.into_iter().map(|p| shifted(p, line)));
    }
    // Past the fast path's limit, the sequential parse hands the text to serde-saphyr.
    if nodes > FAST_MAX_NODES {
        return None;
    }
    let tree = PosNode {
        at: root_at?,
        kids: Kids::Seq(places),
    };
    Some((Value::Array(items), Outline { depth: 1, tree }))
}

/// An item's place in its run, moved down by the `line` lines before the run (an item's
/// outline is its position alone: the root list's outline is one level deep).
fn shifted(place: PosNode, line: usize) -> PosNode {
    let at = match place.at {
        Loc::Pos(mut pos) => {
            pos.line += line;
            Loc::Pos(pos)
        }
        at @ Loc::Offset(_) => at,
    };
    PosNode {
        at,
        kids: place.kids,
    }
}

/// A run of items: its byte range in the text, and the lines before it.
type Run = ((usize, usize), usize);

/// The runs of `text`: the first from the start of the text (its leading comments), each of
/// about `run_bytes` and made of whole items; `None` when the text is not a root list at column
/// 0 of more than one run.
fn runs(text: &str, run_bytes: usize) -> Option<Vec<Run>> {
    let bytes = text.as_bytes();
    // The parser reads a NUL as the end of its input.
    if memchr::memchr(0, bytes).is_some() {
        return None;
    }
    let mut runs = Vec::new();
    let (mut run_start, mut run_line) = (0, 0);
    let mut items = 0_usize;
    let mut line = 0_usize;
    // Whether the last line with content may open a block scalar.
    let mut opens_block = false;
    let mut at = 0;
    while at < bytes.len() {
        let end = line_end(bytes, at);
        let content = text[at..end].trim_matches([' ', '\t', '\n', '\r']);
        match bytes[at] {
            b'-' if matches!(bytes.get(at + 1), None | Some(b' ' | b'\t' | b'\n' | b'\r')) => {
                items += 1;
                if items > MAX_ITEMS {
                    return None;
                }
                // An empty block scalar is placed where the next line starts: no cut after one.
                if items > 1 && at - run_start >= run_bytes && !opens_block {
                    runs.push(((run_start, at), run_line));
                    (run_start, run_line) = (at, line);
                }
            }
            // Inside an item, a comment, or a blank line.
            b' ' | b'\t' if items > 0 => {}
            b'#' | b'\n' | b'\r' => {}
            b' ' | b'\t' if content.is_empty() => {}
            _ => return None,
        }
        if !content.is_empty() && !content.starts_with('#') {
            opens_block = may_open_block(content);
        }
        at = end;
        line += 1;
    }
    if items == 0 {
        return None;
    }
    runs.push(((run_start, bytes.len()), run_line));
    (runs.len() > 1).then_some(runs)
}

/// Whether a line (trimmed) may end in a block scalar's header (`|`, `>-`, `|2+`), a comment
/// after it or not. It may say so of a line that does not (a plain scalar ending in `|`): that
/// only costs a cut.
fn may_open_block(line: &str) -> bool {
    let ends_in_header = |l: &str| {
        l.trim_end()
            .trim_end_matches(|c: char| c.is_ascii_digit() || matches!(c, '+' | '-'))
            .ends_with(['|', '>'])
    };
    ends_in_header(line)
        || line
            .split_once('#')
            .is_some_and(|(before, _)| ends_in_header(before))
}

/// Where the line starting at `at` ends: after its line break (`\n`, `\r\n` or a lone `\r`,
/// the breaks the parser counts), or at the end of the text.
fn line_end(bytes: &[u8], at: usize) -> usize {
    match memchr::memchr2(b'\n', b'\r', &bytes[at..]) {
        None => bytes.len(),
        Some(i) => {
            let i = at + i;
            if bytes[i] == b'\r' && bytes.get(i + 1) == Some(&b'\n') {
                i + 2
            } else {
                i + 1
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::super::yaml_events::fast_value;
    use super::*;

    /// The split parse of `text`, in runs of one item each, when it takes it: then it must be
    /// the sequential fast path's value and outline.
    fn agrees(text: &str) -> bool {
        let Some((value, outline)) = parse_in_runs(text, 1) else {
            return false;
        };
        let (whole, whole_outline) = fast_value(text)
            .unwrap_or_else(|| panic!("split took what the fast path refuses\n{text}"));
        assert_eq!(value, whole, "{text}");
        assert_eq!(
            format!("{outline:?}"),
            format!("{whole_outline:?}"),
            "{text}"
        );
        true
    }

    /// A file of tools large enough to be split by [`parse`]: its value is serde-saphyr's, and
    /// its outline what a second parse for positions gives.
    #[test]
    fn a_large_file_parses_as_serde_saphyr_reads_it() {
        let text: String = (0..4000)
            .map(|i| {
                format!(
                    "- name: t{i}\n  description: |\n    D \"{i}\" [x] {{y}}, \u{e9}.\n\n    - not an item\n  \
                     triggers: [a, 'b c']\n  parameters:\n    type: object\n    properties:\n      \
                     a: {{enum: [1, -2, x]}}\n# between\n"
                )
            })
            .collect();
        assert!(text.len() > MIN_BYTES);
        let Some((value, outline)) = parse(&text) else {
            assert_eq!(discloser_tokens::parallel::cores(), 1, "not split");
            return;
        };
        let slow: Value =
            serde_saphyr::from_str_with_options(&text, super::super::yaml_options()).unwrap();
        assert_eq!(value, slow);
        assert_eq!(
            format!("{:?}", Some(&outline.tree)),
            format!("{:?}", super::super::yaml_positions(&text, outline.depth))
        );
    }

    #[test]
    fn splits_a_root_list_at_its_items() {
        let text = "# tools\n\n- name: a\n  description: |\n    one\n\n    two\n- name: b\r\n  n: 1\r\n\n# end\n-\n- [x, y]\n";
        assert!(agrees(text));
        let runs = runs(text, 1).unwrap();
        assert_eq!(runs.len(), 4);
        assert_eq!(runs[0], ((0, text.find("- name: b").unwrap()), 0));
        assert_eq!(runs[1].1, 7);
    }

    #[test]
    fn leaves_other_texts_to_the_sequential_parse() {
        for text in [
            "- a\n",                      // one run only
            "tools:\n- a\n- b\n",         // a mapping
            "---\n- a\n- b\n",            // a document marker
            "%YAML 1.2\n---\n- a\n- b\n", // a directive
            "- a\n- b\n...\n",            // a document end
            "- a\n- b\0- c\n",            // a NUL
            "- a\nb\n- c\n",              // a line at column 0 that is no item
            "- &x a\n- *x\n",             // an alias across runs: the run refuses it
            "- \"a\n- b\"\n- c\n",        // a quoted scalar across the cut
            "- [a,\n- b]\n- c\n",         // a flow list across the cut
            "-a\n- b\n",                  // `-a` is a scalar, not an item
            "- a\n- a: 1\n  a: 2\n",      // a repeated key
        ] {
            assert!(!agrees(text), "{text:?}");
        }
    }

    #[test]
    fn no_cut_after_an_empty_block_scalar() {
        // The whole parse places it where the next line starts: its run takes the next item.
        for text in [
            "- |\n- x\n",
            "- >-\n\n- x\n",
            "- |1 # c\n- x\n",
            "- k: >\n# c\n- x\n",
        ] {
            assert!(fast_value(text).is_some(), "{text:?}");
            assert!(runs(text, 1).is_none(), "{text:?}");
        }
        for text in [
            "- |\n  a\n- x\n",
            "- |2-\n   a\n- x\n",
            "- |+\n  a\n\n- x\n",
            "- a\n  b\n- c\n",
        ] {
            assert!(agrees(text), "{text:?}");
        }
    }

    /// Pieces a generated list is made of: mostly whole items, in every scalar style, with
    /// comments and blank lines; now and then a line that makes the text no root list, or that
    /// is no whole item (an unterminated quote or flow list, closed by a later piece or not).
    fn piece() -> impl Strategy<Value = &'static str> {
        let items = prop::sample::select(vec![
            "- a",
            "- name: x\n  description: z",
            "-",
            "- - nested\n  - more",
            "- \"quoted\n  still quoted\"",
            "- 'single\n  still single'",
            "- [a,\n  b]",
            "- {k: v,\n  j: w}",
            "- |\n  block line\n    deeper line",
            "- >-\n  folded\n\n  more",
            "- |",
            "- >+",
            "- |2\n   text",
            "- key: |\n    text\n  other: 1",
            "- key: >\n  other: 2",
            "- key: |-",
            "- k:\n  j: 1",
            "- a |",
            "- k: v\n  # indented comment",
            "- |\n  # hash content",
            "- 1.5",
            "- 007",
            "- a # comment",
            "-\tb",
            "# comment",
            "",
            "   ",
        ]);
        let lines = prop::sample::select(vec![
            "- \"open",
            "  still quoted\"",
            "- [a,",
            "  b]",
            "---",
            "...",
            "key: value",
            "? c",
            "- &x a",
            "- *x",
            "- !t a",
            "\t",
            "-a",
        ]);
        prop_oneof![29 => items, 1 => lines]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// Wherever the split parse gives a value, it is the sequential fast path's, positions
        /// included, whatever the lines, their breaks (`\n`, `\r\n`, `\r`) and where runs are cut.
        #[test]
        fn split_and_whole_agree(
            pieces in prop::collection::vec((piece(), prop::sample::select(vec!["\n", "\r\n", "\r"])), 1..24),
            run_bytes in 1_usize..64,
        ) {
            let text: String = pieces.iter().map(|(p, b)| p.replace('\n', b) + b).collect();
            if let Some((value, outline)) = parse_in_runs(&text, run_bytes) {
                let whole = fast_value(&text);
                prop_assert!(whole.is_some(), "{:?}", text);
                let (whole, whole_outline) = whole.unwrap();
                prop_assert_eq!(&value, &whole, "{:?}", text);
                prop_assert_eq!(format!("{outline:?}"), format!("{whole_outline:?}"), "{:?}", text);
            }
        }
    }
}
