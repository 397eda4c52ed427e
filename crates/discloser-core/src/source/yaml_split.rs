//! A large YAML file parsed on several threads: when its root is a block list written at column
//! 0 (a bare list of tools), or a mapping at column 0 whose `tools:` holds a block list, a scan
//! of its lines finds where each item starts, runs of items are parsed as lists of their own in
//! parallel by the fast path ([`fast_value`](super::yaml_events::fast_value)), and their items
//! and positions are put back in order. A mapping's other keys are parsed as the file with the
//! list's lines left blank and `[]` after `tools:` (the shell), beside the runs.
//!
//! This is only a faster way to the same value and outline. A line at column 0 that is neither
//! an item (`-` then a space, a tab or the line's end), a comment nor (in a mapping) a key, a
//! NUL byte (which ends the parser's input), a shell or run the fast path does not take, or a
//! cut right after an empty block scalar (placed where the next line starts) gives `None`: the
//! caller then parses the whole text on one thread, as before. Cutting at an item's `-` cannot
//! change what a run means when the run parses: an item's content is indented more than its
//! `-`, and a line inside a quoted scalar or a flow collection that looks like an item leaves
//! the run before it unterminated, which fails its parse.

use std::sync::atomic::{AtomicBool, Ordering};

use serde_json::Value;

use super::split::{MAX_ITEMS, MIN_BYTES};
use super::yaml_events::{FAST_MAX_NODES, fast_value_counted};
use super::{Kids, Loc, Outline, PosNode};

/// About this many bytes of items go to one run.
const RUN_BYTES: usize = 64 * 1024;

/// The value of `text` and its outline, parsed in parallel; `None` when the sequential parse
/// must decide.
pub(super) fn parse(text: &str) -> Option<(Value, Outline)> {
    if text.len() < MIN_BYTES || discloser_tokens::parallel::cores() < 2 {
        return None;
    }
    parse_in_runs(text, RUN_BYTES)
}

/// A run of items: its byte range in the text, and the lines before it.
type Run = ((usize, usize), usize);

/// Where a file's items are.
struct Layout {
    runs: Vec<Run>,
    /// In a root mapping, its `tools` list.
    tools: Option<ToolsList>,
}

/// A root mapping's `tools` list, as the scan found it.
#[derive(Clone, Copy)]
struct ToolsList {
    /// Where the `tools` key ends on its line.
    key_end: usize,
    /// The byte range of the list's lines.
    start: usize,
    end: usize,
    /// How many line breaks the list's lines hold.
    breaks: usize,
    /// The column of its `-`s.
    column: usize,
}

/// What one thread parses: the shell of a mapping, or a run of items.
enum Job {
    Shell(String),
    Run(Run),
}

/// [`parse`] with runs of about `run_bytes`, whatever the text's size (the tests cut small
/// texts into many runs).
fn parse_in_runs(text: &str, run_bytes: usize) -> Option<(Value, Outline)> {
    let Layout { runs, tools } = layout(text, run_bytes)?;
    // A `tools` list's items lie a level deeper in the file than in a run.
    let below = usize::from(tools.is_some());
    let mut jobs: Vec<Job> = runs.into_iter().map(Job::Run).collect();
    if let Some(list) = tools {
        // The list's lines left blank: the lines after it keep their numbers.
        let shell = [
            &text[..list.key_end],
            " []",
            &text[list.key_end..list.start],
            &"\n".repeat(list.breaks),
            &text[list.end..],
        ]
        .concat();
        jobs.insert(0, Job::Shell(shell));
    }
    let failed = AtomicBool::new(false);
    let parsed = discloser_tokens::parallel::map_coarse(jobs, |job| {
        if failed.load(Ordering::Relaxed) {
            return None;
        }
        let (parsed, line) = match job {
            Job::Shell(shell) => (fast_value_counted(&shell, 0), 0),
            Job::Run(((start, end), line)) => (fast_value_counted(&text[start..end], below), line),
        };
        if parsed.is_none() {
            failed.store(true, Ordering::Relaxed);
        }
        Some((parsed?, line))
    });
    let mut parsed = parsed.into_iter();
    let shell = match below {
        0 => None,
        _ => Some(parsed.next()??.0),
    };
    let mut items = Vec::new();
    let mut places = Vec::new();
    let mut list_at = None;
    // Each run's nodes but its own list: that list is the shell's `[]`, or the root.
    let mut nodes = shell.as_ref().map_or(1, |(_, _, count)| *count);
    for run in parsed {
        let ((value, outline, count), line) = run?;
        let (Value::Array(run_items), Kids::Seq(run_places)) = (value, outline.tree.kids) else {
            return None;
        };
        if outline.depth != 1 || run_items.len() != run_places.len() {
            return None;
        }
        list_at.get_or_insert(shifted(outline.tree.at, line));
        nodes += count - 1;
        items.extend(run_items);
        places.extend(run_places.into_iter().map(|p| PosNode {
            at: shifted(p.at, line),
            kids: p.kids,
        }));
    }
    // Past the fast path's limit, the sequential parse hands the text to serde-saphyr.
    if nodes > FAST_MAX_NODES {
        return None;
    }
    // The parser places a list at its first `-`, but a list at the column of its key where its
    // first item's line goes on after the `-` (and a first item with nothing after its `-` on
    // that line is left to the sequential parse).
    let list_at = match tools {
        Some(ToolsList {
            start, column: 0, ..
        }) => {
            let after = text[start + 1..].trim_start_matches([' ', '\t']);
            if after.starts_with(['#', '\n', '\r']) || after.is_empty() {
                return None;
            }
            let Loc::Pos(first) = list_at? else {
                return None;
            };
            Loc::Pos(super::Position {
                line: first.line,
                col: text.len() - after.len() - start + 1,
            })
        }
        _ => list_at?,
    };
    let list = PosNode {
        at: list_at,
        kids: Kids::Seq(places),
    };
    let Some((mut value, mut outline, _)) = shell else {
        return Some((
            Value::Array(items),
            Outline {
                depth: 1,
                tree: list,
            },
        ));
    };
    // The shell's `[]` becomes the list; the outline goes to the items (depth 2) as the whole
    // parse's does.
    let Kids::Map(entries) = &mut outline.tree.kids else {
        return None;
    };
    let (_, _, node) = entries.iter_mut().find(|(key, _, _)| key == "tools")?;
    if outline.depth != 2 || !matches!(&node.kids, Kids::Seq(k) if k.is_empty()) {
        return None;
    }
    *node = list;
    match value.get_mut("tools")? {
        slot @ Value::Array(_) => *slot = Value::Array(items),
        _ => return None,
    }
    Some((value, outline))
}

/// A position in a run, moved down by the `line` lines before the run.
fn shifted(at: Loc, line: usize) -> Loc {
    match at {
        Loc::Pos(mut pos) => {
            pos.line += line;
            Loc::Pos(pos)
        }
        at @ Loc::Offset(_) => at,
    }
}

/// Where the scan of [`layout`] is.
#[derive(Clone, Copy, PartialEq)]
enum At {
    /// Before the first line with content.
    Start,
    /// In a root list.
    List,
    /// In a root mapping, before its `tools:` line.
    Keys,
    /// Just after `tools:`, where its list's first item must come.
    Tools,
    /// In the `tools` list, whose `-`s are at this column.
    InTools(usize),
    /// In the mapping, after its `tools` list.
    After,
}

/// Where `text`'s items are: runs of about `run_bytes` of whole items (a root list's first run
/// from the start of the text, its leading comments); `None` when the text is neither shape, or
/// would be one run.
fn layout(text: &str, run_bytes: usize) -> Option<Layout> {
    let bytes = text.as_bytes();
    // The parser reads a NUL as the end of its input.
    if memchr::memchr(0, bytes).is_some() {
        return None;
    }
    let mut state = At::Start;
    let (mut key_end, mut list_start, mut list_end, mut column) = (0, 0, None, 0);
    // The line the list starts on, and the one it ends before.
    let (mut list_line, mut end_line) = (0, 0);
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
        // A comment or blank line is part of whatever is around it.
        if content.is_empty() || content.starts_with('#') {
            at = end;
            line += 1;
            continue;
        }
        let indent = text[at..end].len() - text[at..end].trim_start_matches(' ').len();
        let item = bytes[at + indent] == b'-'
            && matches!(
                bytes.get(at + indent + 1),
                None | Some(b' ' | b'\t' | b'\n' | b'\r')
            );
        let mut new_item = false;
        state = match state {
            At::Start | At::List if item && indent == 0 => {
                new_item = true;
                At::List
            }
            At::List if indent > 0 => At::List,
            At::Start | At::Keys if indent == 0 && !item => {
                // `tools:` alone, or with a comment after a space.
                let rest = content.strip_prefix("tools:");
                if rest.is_some_and(|r| {
                    r.is_empty() || r.starts_with([' ', '\t']) && r.trim_start().starts_with('#')
                }) {
                    key_end = at + "tools:".len();
                    At::Tools
                } else {
                    At::Keys
                }
            }
            At::Keys if indent > 0 => At::Keys,
            At::Tools if item => {
                (list_start, run_start, run_line, column) = (at, at, line, indent);
                list_line = line;
                new_item = true;
                At::InTools(indent)
            }
            At::InTools(column) if item && indent == column => {
                new_item = true;
                state
            }
            At::InTools(column) if indent > column => state,
            // The list ends at the mapping's next key, where the last item ends in the whole
            // text only if it is no empty block scalar (placed where the next line starts).
            At::InTools(_) if indent == 0 && !item && !opens_block => {
                list_end = Some(at);
                end_line = line;
                At::After
            }
            At::After if !(item && indent == 0) => At::After,
            _ => return None,
        };
        if new_item {
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
        opens_block = may_open_block(content);
        at = end;
        line += 1;
    }
    let (end, end_line) = match state {
        At::List => (bytes.len(), line),
        // A last line with no break after it holds no break.
        At::InTools(_) if !opens_block => (
            bytes.len(),
            line - usize::from(!bytes.ends_with(b"\n") && !bytes.ends_with(b"\r")),
        ),
        At::After => (list_end?, end_line),
        _ => return None,
    };
    let tools = (state != At::List).then_some(ToolsList {
        key_end,
        start: list_start,
        end,
        breaks: end_line - list_line,
        column,
    });
    runs.push(((run_start, end), run_line));
    (runs.len() > 1).then_some(Layout { runs, tools })
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
        let runs = layout(text, 1).unwrap().runs;
        assert_eq!(runs.len(), 4);
        assert_eq!(runs[0], ((0, text.find("- name: b").unwrap()), 0));
        assert_eq!(runs[1].1, 7);
    }

    #[test]
    fn leaves_other_texts_to_the_sequential_parse() {
        for text in [
            "- a\n",                        // one run only
            "---\n- a\n- b\n",              // a document marker
            "%YAML 1.2\n---\n- a\n- b\n",   // a directive
            "- a\n- b\n...\n",              // a document end
            "- a\n- b\0- c\n",              // a NUL
            "- a\nb\n- c\n",                // a line at column 0 that is no item
            "- &x a\n- *x\n",               // an alias across runs: the run refuses it
            "- \"a\n- b\"\n- c\n",          // a quoted scalar across the cut
            "- [a,\n- b]\n- c\n",           // a flow list across the cut
            "-a\n- b\n",                    // `-a` is a scalar, not an item
            "- a\n- a: 1\n  a: 2\n",        // a repeated key
            "tools:\n- a\n",                // one run only
            "tools: [a, b]\n",              // no block list
            "tools:#x\n- a\n- b\n",         // no `tools` key
            "tools:\n- a\n- b\ntools: 1\n", // a repeated key
            "tools:\n  - a\n - b\n",        // an item out of the list's column
            "a: 1\n- b\n- c\n",             // a list after a key
            "tools:\n- a\n- |\nb: 1\n",     // an empty block scalar before the next key
        ] {
            assert!(!agrees(text), "{text:?}");
        }
    }

    #[test]
    fn splits_a_tools_list_in_a_mapping() {
        for text in [
            "tools:\n- a\n- b: 1\n",
            "# c\nname: x\ntools:  # the tools\n\n  - a\n  - b\n# c\n_meta:\n  k: [1, 2]\n",
            "tools:\n    - - x\n    - y\nz: |\n  text\n",
        ] {
            assert!(agrees(text), "{text:?}");
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
            assert!(layout(text, 1).is_none(), "{text:?}");
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

    /// Keys of a root mapping around its `tools` list, some of them not the fast path's (or
    /// not YAML's).
    fn key() -> impl Strategy<Value = &'static str> {
        prop::sample::select(vec![
            "name: x",
            "_meta:\n  a: 1\n  b: [1, 2]",
            "desc: |\n  text",
            "desc: |",
            "k: \"multi\n  line\"",
            "other: [1,\n  2]",
            "# comment",
            "",
            "tools: []",
            "n: 1.5",
            "- stray",
            "  indented: 1",
        ])
    }

    /// Whether the split parse of `text` in runs of about `run_bytes`, where it takes it, gives
    /// the sequential fast path's value and outline.
    fn same_as_whole(text: &str, run_bytes: usize) -> Result<(), TestCaseError> {
        if let Some((value, outline)) = parse_in_runs(text, run_bytes) {
            let whole = fast_value(text);
            prop_assert!(whole.is_some(), "{:?}", text);
            let (whole, whole_outline) = whole.unwrap();
            prop_assert_eq!(&value, &whole, "{:?}", text);
            prop_assert_eq!(
                format!("{outline:?}"),
                format!("{whole_outline:?}"),
                "{:?}",
                text
            );
        }
        Ok(())
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
            same_as_whole(&text, run_bytes)?;
        }

        /// The same of a root mapping whose `tools:` holds the list, at column 0 or indented,
        /// with other keys before and after it.
        #[test]
        fn split_and_whole_agree_on_a_mapping(
            before in prop::collection::vec(key(), 0..4),
            pieces in prop::collection::vec(piece(), 1..16),
            after in prop::collection::vec(key(), 0..4),
            column in prop::sample::select(vec![0_usize, 2, 4]),
            comment in any::<bool>(),
            run_bytes in 1_usize..64,
        ) {
            let indent = " ".repeat(column);
            let mut text: String = before.iter().map(|k| format!("{k}\n")).collect();
            text.push_str(if comment { "tools:  # the tools\n" } else { "tools:\n" });
            for p in &pieces {
                for l in p.split('\n') {
                    text.push_str(&indent);
                    text.push_str(l);
                    text.push('\n');
                }
            }
            text.extend(after.iter().map(|k| format!("{k}\n")));
            same_as_whole(&text, run_bytes)?;
        }
    }
}
