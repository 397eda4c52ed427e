//! A large JSON file parsed on several threads: the items of its top-level list (or of the
//! `tools` list of its top-level mapping) are found by a byte scan, then parsed in batches in
//! parallel, each exactly as the whole-file parse would, and put back in order.
//!
//! This is only a faster way to the same value. Whenever the result could differ from the
//! sequential parse's, or that parse would fail (a syntax error, a repeated key, nesting near the
//! limit, more values than [`super::MAX_JSON_VALUES`]), it gives `None` and the caller parses the
//! whole text on one thread, which gives the value or the positioned error as before.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use serde_json::Value;

use super::{JSON_VALUES, Kids, Loc, MAX_JSON_VALUES, Outline, PosNode, StrictValue};

/// Files (JSON here, YAML in `yaml_split`) smaller than this are parsed on one thread: the threads
/// would cost more than they save.
pub(super) const MIN_BYTES: usize = 512 * 1024;

/// About this many bytes of items go to one batch.
const BATCH_BYTES: usize = 64 * 1024;

/// Lists of more items than this are left to the sequential parse: a catalog file holds at
/// most [`super::MAX_TOOLS_PER_FILE`] tools, and the outline of millions of
/// tiny values (a hostile file) would take memory of its own.
pub(super) const MAX_ITEMS: usize = 2 * super::MAX_TOOLS_PER_FILE;

/// Items nested deeper than this (from the root) are left to the sequential parse, which
/// enforces serde_json's nesting limit of 128 itself.
const MAX_SPLIT_DEPTH: usize = 100;

/// The value of `text`, parsed in parallel, with the [`Outline`] of its items the scan found;
/// `None` when the sequential parse must decide.
pub(super) fn parse(text: &str) -> Option<(Value, Outline)> {
    if text.len() < MIN_BYTES || discloser_tokens::parallel::cores() < 2 {
        return None;
    }
    let (root, shell) = scan(text.as_bytes())?;
    let mut chunks: Vec<&str> = Vec::new();
    let mut batches: Vec<(usize, usize)> = Vec::new();
    let mut batch_start = 0;
    let mut batch_bytes = 0;
    for &(start, end) in shell.items() {
        chunks.push(&text[start..end]);
        batch_bytes += end - start;
        if batch_bytes >= BATCH_BYTES {
            batches.push((batch_start, chunks.len()));
            batch_start = chunks.len();
            batch_bytes = 0;
        }
    }
    if batch_start < chunks.len() {
        batches.push((batch_start, chunks.len()));
    }
    // The root and the `tools` list are values too.
    let values = AtomicUsize::new(shell.containers());
    let failed = AtomicBool::new(false);
    let parsed = discloser_tokens::parallel::map_coarse(batches, |(from, to)| {
        let mut out = Vec::with_capacity(to - from);
        for chunk in &chunks[from..to] {
            if failed.load(Ordering::Relaxed) {
                return None;
            }
            JSON_VALUES.with(|n| n.set(0));
            let value = serde_json::from_str::<StrictValue>(chunk).ok();
            let count = JSON_VALUES.with(std::cell::Cell::get);
            // Past the limit, stop everywhere: the sequential parse reports it.
            if value.is_none()
                || values.fetch_add(count, Ordering::Relaxed) + count > MAX_JSON_VALUES
            {
                failed.store(true, Ordering::Relaxed);
                return None;
            }
            out.extend(value.map(|v| v.0));
        }
        Some(out)
    });
    let mut items = Vec::with_capacity(chunks.len());
    for batch in parsed {
        items.extend(batch?);
    }
    let outline = shell.outline(text, root)?;
    Some((shell.assemble(text, items)?, outline))
}

/// The outline of a document: where its items are.
enum Shell {
    /// A top-level list: the byte ranges of its items.
    List(Vec<(usize, usize)>),
    /// A top-level mapping: each key (its byte range, quotes included) and how many of the
    /// ranges are its value: 1, or the number of items of the `tools` list, split (`Some`).
    Map {
        keys: Vec<((usize, usize), Option<usize>)>,
        ranges: Vec<(usize, usize)>,
    },
}

impl Shell {
    fn items(&self) -> &[(usize, usize)] {
        match self {
            Shell::List(items) => items,
            Shell::Map { ranges, .. } => ranges,
        }
    }

    /// The values the outline itself holds (the root, and a split `tools` list).
    fn containers(&self) -> usize {
        match self {
            Shell::List(_) => 1,
            Shell::Map { keys, .. } => 1 + keys.iter().filter(|(_, n)| n.is_some()).count(),
        }
    }

    /// The positions of the root (at byte `root`), its items and a mapping's keys, as
    /// `json_positions` gives them: to depth 1 for a list, and for a mapping to depth 2 (its
    /// split `tools` list's items) when every other value is a scalar, else 1.
    fn outline(&self, text: &str, root: usize) -> Option<Outline> {
        let leaf = |at: usize| PosNode {
            at: Loc::Offset(at),
            kids: Kids::Leaf,
        };
        let (kids, depth) = match self {
            Shell::List(items) => (
                Kids::Seq(items.iter().map(|&(at, _)| leaf(at)).collect()),
                1,
            ),
            Shell::Map { keys, ranges } => {
                let mut ranges = ranges.iter();
                let mut entries = Vec::with_capacity(keys.len());
                let mut scalars = true;
                for &((start, end), split) in keys {
                    let key: String = serde_json::from_str(&text[start..end]).ok()?;
                    let node = match split {
                        Some(n) => {
                            // The list starts at its `[`, the first non-space after the colon.
                            let colon = end + text[end..].find(':')?;
                            let at = skip_space(text.as_bytes(), colon + 1);
                            PosNode {
                                at: Loc::Offset(at),
                                kids: Kids::Seq(
                                    ranges.by_ref().take(n).map(|&(at, _)| leaf(at)).collect(),
                                ),
                            }
                        }
                        None => {
                            let &(at, _) = ranges.next()?;
                            scalars &= !matches!(text.as_bytes()[at], b'[' | b'{');
                            leaf(at)
                        }
                    };
                    entries.push((key, Loc::Offset(start), node));
                }
                if !scalars {
                    // Depth 1: the `tools` list is a leaf too.
                    for (_, _, node) in &mut entries {
                        node.kids = Kids::Leaf;
                    }
                }
                (Kids::Map(entries), if scalars { 2 } else { 1 })
            }
        };
        Some(Outline {
            depth,
            tree: PosNode {
                at: Loc::Offset(root),
                kids,
            },
        })
    }

    /// The document from the parsed items of `text`; `None` when a key repeats (the
    /// sequential parse reports it, where it is).
    fn assemble(self, text: &str, items: Vec<Value>) -> Option<Value> {
        match self {
            Shell::List(_) => Some(Value::Array(items)),
            Shell::Map { keys, .. } => {
                let mut items = items.into_iter();
                let mut map = serde_json::Map::with_capacity(keys.len());
                for ((start, end), split) in keys {
                    let key: String = serde_json::from_str(&text[start..end]).ok()?;
                    let value = match split {
                        Some(n) => Value::Array(items.by_ref().take(n).collect()),
                        None => items.next()?,
                    };
                    if map.insert(key, value).is_some() {
                        return None;
                    }
                }
                Some(Value::Object(map))
            }
        }
    }
}

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

fn skip_space(bytes: &[u8], mut i: usize) -> usize {
    while i < bytes.len() && is_space(bytes[i]) {
        i += 1;
    }
    i
}

/// The end of the string starting at `i` (an opening quote): just after its closing quote.
fn skip_string(bytes: &[u8], mut i: usize) -> Option<usize> {
    i += 1;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => return Some(i + 1),
            b'\\' => i += 2,
            _ => i += 1,
        }
    }
    None
}

/// The end of the value starting at `i`, when it nests at most `room` levels.
fn skip_value(bytes: &[u8], i: usize, room: usize) -> Option<usize> {
    match *bytes.get(i)? {
        b'"' => skip_string(bytes, i),
        b'[' | b'{' => {
            let mut depth = 0_usize;
            let mut j = i;
            while j < bytes.len() {
                match bytes[j] {
                    b'"' => {
                        j = skip_string(bytes, j)?;
                        continue;
                    }
                    b'[' | b'{' => {
                        depth += 1;
                        if depth > room {
                            return None;
                        }
                    }
                    b']' | b'}' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(j + 1);
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
            None
        }
        _ => {
            let mut j = i;
            while j < bytes.len() && !is_space(bytes[j]) && !matches!(bytes[j], b',' | b']' | b'}')
            {
                j += 1;
            }
            (j > i).then_some(j)
        }
    }
}

/// The items of the list whose `[` is at `i` (nested `level` levels below the root), and the
/// position after its `]`.
fn list_items(bytes: &[u8], i: usize, level: usize) -> Option<(Vec<(usize, usize)>, usize)> {
    let mut items = Vec::new();
    let mut j = skip_space(bytes, i + 1);
    if bytes.get(j) == Some(&b']') {
        return Some((items, j + 1));
    }
    loop {
        let end = skip_value(bytes, j, MAX_SPLIT_DEPTH - level)?;
        if items.len() == MAX_ITEMS {
            return None;
        }
        items.push((j, end));
        j = skip_space(bytes, end);
        match bytes.get(j)? {
            b',' => j = skip_space(bytes, j + 1),
            b']' => return Some((items, j + 1)),
            _ => return None,
        }
    }
}

/// The outline of `bytes`, and where its root starts, when it is a list or a mapping followed
/// by nothing but whitespace.
fn scan(bytes: &[u8]) -> Option<(usize, Shell)> {
    let start = skip_space(bytes, 0);
    let (shell, end) = match *bytes.get(start)? {
        b'[' => {
            let (items, end) = list_items(bytes, start, 1)?;
            (Shell::List(items), end)
        }
        b'{' => scan_map(bytes, start)?,
        _ => return None,
    };
    (skip_space(bytes, end) == bytes.len()).then_some((start, shell))
}

/// The outline of the mapping whose `{` is at `start`, its `tools` list split into items, and
/// the position after its `}`.
fn scan_map(bytes: &[u8], start: usize) -> Option<(Shell, usize)> {
    let mut keys = Vec::new();
    let mut ranges = Vec::new();
    let mut j = skip_space(bytes, start + 1);
    if bytes.get(j) == Some(&b'}') {
        return Some((Shell::Map { keys, ranges }, j + 1));
    }
    loop {
        if bytes.get(j) != Some(&b'"') {
            return None;
        }
        let key_end = skip_string(bytes, j)?;
        let key = (j, key_end);
        j = skip_space(bytes, key_end);
        if bytes.get(j) != Some(&b':') {
            return None;
        }
        j = skip_space(bytes, j + 1);
        if &bytes[key.0..key.1] == b"\"tools\"" && bytes.get(j) == Some(&b'[') {
            let (items, end) = list_items(bytes, j, 2)?;
            keys.push((key, Some(items.len())));
            ranges.extend(items);
            j = end;
        } else {
            let end = skip_value(bytes, j, MAX_SPLIT_DEPTH - 1)?;
            if ranges.len() >= MAX_ITEMS {
                return None;
            }
            keys.push((key, None));
            ranges.push((j, end));
            j = end;
        }
        j = skip_space(bytes, j);
        match bytes.get(j)? {
            b',' => j = skip_space(bytes, j + 1),
            b'}' => return Some((Shell::Map { keys, ranges }, j + 1)),
            _ => return None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sequential(text: &str) -> Option<Value> {
        JSON_VALUES.with(|n| n.set(0));
        serde_json::from_str::<StrictValue>(text).ok().map(|v| v.0)
    }

    /// A list of `n` tools, large enough to be split.
    fn tools(n: usize) -> Vec<String> {
        (0..n)
            .map(|i| {
                format!(
                    r#"{{"name": "t{i}", "description": "D \"{i}\" [x] {{y}}, \u00e9.", "parameters": {{"type": "object", "properties": {{"a": {{"enum": [1, -2, 3.5, null, true, "]"]}}}}}}, "n": 1e3}}"#
                )
            })
            .collect()
    }

    #[test]
    fn split_parse_equals_the_sequential_one() {
        let items = tools(6000);
        let list = format!("\n[\n  {}\n]\n", items.join(",\n  "));
        assert!(list.len() > MIN_BYTES);
        let (_, split) = scan(list.as_bytes()).expect("a list outline");
        assert_eq!(split.items().len(), 6000);
        assert_eq!(parse(&list).map(|(v, _)| v), sequential(&list));
        assert!(parse(&list).is_some() || discloser_tokens::parallel::cores() < 2);
        let wrapped = format!(
            r#"{{"_meta": {{"x": [1, 2]}}, "tools": [{}], "nextCursor": ""}}"#,
            items.join(",")
        );
        assert_eq!(parse(&wrapped).map(|(v, _)| v), sequential(&wrapped));
        let Some((_, Shell::Map { keys, ranges })) = scan(wrapped.as_bytes()) else {
            panic!("a mapping outline");
        };
        assert_eq!((keys.len(), ranges.len()), (3, 6002));
    }

    #[test]
    fn anything_doubtful_is_left_to_the_sequential_parse() {
        let items = tools(6000);
        let body = items.join(",");
        for text in [
            format!("[{body}] x"),
            format!("[{body},]"),
            format!("[{body} {{}}]"),
            format!(r#"{{"tools": [{body}], "tools": []}}"#),
            format!(r#"{{"tools": [{body}], "a": 1,}}"#),
            format!("[{body}, {{\"a\": 1, \"a\": 2}}]"),
            format!("[{body}, {}1{}]", "[".repeat(120), "]".repeat(120)),
            format!("[{body}, \"open]"),
        ] {
            assert!(parse(&text).is_none(), "{}", &text[text.len() - 40..]);
        }
    }

    /// The outline the scan records is what a second parse for positions gives at its depth,
    /// for a list and for mappings with and without other containers beside `tools`.
    #[test]
    fn the_outline_is_the_positions_of_a_second_parse() {
        let items = tools(5).join(",\n  ");
        for text in [
            format!("\n[\n  {items}\n]\n"),
            "[]".to_owned(),
            format!(r#"{{"tools" :  [{items}], "nextCursor": "", "n": 1}}"#),
            format!("{{\n  \"tools\": [\n{items}],\n  \"_meta\": {{\"x\": [1, 2]}}\n}}"),
            r#"{"a": [1], "tools": []}"#.to_owned(),
        ] {
            let (root, shell) = scan(text.as_bytes()).expect("an outline");
            let outline = shell.outline(&text, root).expect("an outline");
            assert_eq!(
                format!("{:?}", Some(&outline.tree)),
                format!("{:?}", super::super::json_positions(&text, outline.depth)),
                "{text}"
            );
        }
    }
}
