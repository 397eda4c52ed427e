//! Edits of a YAML or JSON document that leave every other byte as written: a list of strings
//! rewritten in its own style, an entry added to a mapping.
//!
//! A [`Change`] says what the document's value should become; [`plan`] turns changes into
//! [`TextEdit`]s of the text a [`SourceFile`] holds and checks them before anyone sees them:
//! the edited text must parse, and to the original value with exactly the intended change and
//! nothing else. A change this module cannot write faithfully (a node with an anchor, a tag or
//! an alias, a block scalar, a comment where the new text would go, ...) gets no edits rather
//! than approximate ones.

use std::ops::Range;

use granit_parser::{Event, Parser, ScalarStyle, StructureStyle};
use jsonc_parser::tokens::Token;
use jsonc_parser::{Scanner, ScannerOptions};
use serde_json::Value;

use super::{SourceFile, Syntax, pointer_push, pointer_segments};
use crate::source::yaml_scalar as yaml;

/// A replacement of `range` (bytes of the text) by `content`; an empty range inserts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextEdit {
    /// The bytes replaced.
    pub range: Range<usize>,
    /// What replaces them.
    pub content: String,
}

/// A change to a document's value, to be written as edits that keep the rest of the text.
#[derive(Clone, Debug, PartialEq)]
pub enum Change {
    /// The list at `pointer`, which holds the strings `expected`, becomes `items` (at most as
    /// many): items are rewritten in place, in the list's own style (flow or block, the quoting
    /// of an item kept when its value is kept), and the surplus removed from the end.
    StringList {
        /// JSON pointer to the list.
        pointer: String,
        /// What the list must hold for the change to apply.
        expected: Vec<String>,
        /// What it holds afterwards.
        items: Vec<String>,
    },
    /// The mapping at `pointer` gains `key: value`, a key it does not have: a new line at the
    /// mapping's indentation in a block mapping; right after the opening brace in a flow
    /// mapping or a JSON object, laid out like the first entry.
    Entry {
        /// JSON pointer to the mapping.
        pointer: String,
        /// The new key.
        key: String,
        /// Its value (written on one line).
        value: Value,
    },
}

impl Change {
    /// `value` as the change makes it; `false` when the change does not apply to it.
    pub fn apply_to(&self, value: &mut Value) -> bool {
        value
            .pointer_mut(self.pointer())
            .is_some_and(|node| self.apply_here(node))
    }

    /// The JSON pointer to the node the change is made in.
    fn pointer(&self) -> &str {
        match self {
            Change::StringList { pointer, .. } | Change::Entry { pointer, .. } => pointer,
        }
    }

    /// `node`, the node at the change's pointer, as the change makes it; `false` when the
    /// change does not apply to it.
    fn apply_here(&self, node: &mut Value) -> bool {
        match (self, node) {
            (Change::StringList { items, .. }, list @ Value::Array(_)) => {
                *list = Value::Array(items.iter().cloned().map(Value::String).collect());
                true
            }
            (Change::Entry { key, value, .. }, Value::Object(map)) if !map.contains_key(key) => {
                map.insert(key.clone(), value.clone());
                true
            }
            _ => false,
        }
    }

    /// The edits that make the change in `text`, unchecked; `None` when it cannot be written.
    fn edits(&self, text: &str, syntax: Syntax, tree: &Node) -> Option<Vec<TextEdit>> {
        let edits = match self {
            Change::StringList {
                pointer,
                expected,
                items,
            } => list_edits(text, syntax, tree.find(pointer)?, expected, items),
            Change::Entry {
                pointer,
                key,
                value,
            } => entry_edits(text, syntax, tree.find(pointer)?, key, value),
        }?;
        (!edits.is_empty()).then_some(edits)
    }
}

/// The edits of each change (in order), `None` for a change that cannot be written faithfully.
///
/// Every change's edits are computed against the original text. Those that do not overlap an
/// earlier change's edits are checked together (one parse of the edited text); the others,
/// and all of them if the joint check fails, are checked one by one. A change passes when the
/// edited text parses to the original value with the change applied.
pub fn plan(file: &SourceFile, changes: &[Change]) -> Vec<Option<Vec<TextEdit>>> {
    let tree = match file.syntax {
        Syntax::Json => json_tree(&file.text),
        Syntax::Yaml => yaml_tree(&file.text),
    };
    let (Some(tree), Ok(original)) = (tree, file.parse()) else {
        return vec![None; changes.len()];
    };
    let mut out: Vec<Option<Vec<TextEdit>>> = changes
        .iter()
        .map(|c| c.edits(&file.text, file.syntax, &tree))
        .collect();
    // The tree of a large file is as large as its value: freed before the checks parse more.
    drop(tree);
    let passes = |chosen: &[usize], out: &[Option<Vec<TextEdit>>]| {
        let edits: Vec<TextEdit> = chosen
            .iter()
            .filter_map(|&i| out[i].clone())
            .flatten()
            .collect();
        let edited = SourceFile::from_text(apply(&file.text, &edits), file.path.clone());
        // A pointer that is not empty and does not start with `/` names no node.
        let Some(segments) = chosen
            .iter()
            .map(|&i| {
                let pointer = changes[i].pointer();
                (pointer.is_empty() || pointer.starts_with('/'))
                    .then(|| pointer_segments(pointer).collect::<Vec<_>>())
            })
            .collect::<Option<Vec<_>>>()
        else {
            return false;
        };
        let pending: Vec<Pending<'_>> = chosen
            .iter()
            .zip(&segments)
            .map(|(&i, s)| (&changes[i], s.as_slice()))
            .collect();
        edited
            .parse()
            .is_ok_and(|v| changed_as(&original, &v, &pending, 0))
    };
    let mut taken: Vec<Range<usize>> = Vec::new();
    let mut together = Vec::new();
    let mut alone = Vec::new();
    for (i, edits) in out.iter().enumerate() {
        let Some(edits) = edits else { continue };
        if edits
            .iter()
            .any(|e| taken.iter().any(|t| overlaps(&e.range, t)))
        {
            alone.push(i);
        } else {
            taken.extend(edits.iter().map(|e| e.range.clone()));
            together.push(i);
        }
    }
    if !passes(&together, &out) {
        alone.extend(together);
    }
    for i in alone {
        if !passes(&[i], &out) {
            out[i] = None;
        }
    }
    out
}

/// A change being checked, with the segments of its pointer.
type Pending<'a> = (&'a Change, &'a [String]);

/// Whether `edited` is `original` with `changes` made in it, where `changes` all lie below the
/// node at `depth` segments of their pointers: what applying them to a copy of `original` and
/// comparing it with `edited` says, but copying only the nodes they change (a large file's
/// whole value was copied for every check).
fn changed_as(original: &Value, edited: &Value, changes: &[Pending<'_>], depth: usize) -> bool {
    if changes.is_empty() {
        return original == edited;
    }
    // A change made here: this node as they make it, in a copy of this node only.
    if changes.iter().any(|(_, s)| s.len() == depth) {
        let mut expected = original.clone();
        let applied = changes.iter().all(|(change, s)| {
            let rest = s[depth..]
                .iter()
                .fold(String::new(), |p, seg| pointer_push(&p, seg));
            expected
                .pointer_mut(&rest)
                .is_some_and(|node| change.apply_here(node))
        });
        return applied && expected == *edited;
    }
    let below = |segment: &str| -> Vec<Pending<'_>> {
        changes
            .iter()
            .filter(|(_, s)| s[depth] == segment)
            .copied()
            .collect()
    };
    match (original, edited) {
        // Every change's next segment must name a key, or an index, here, as `pointer_mut`
        // needs.
        (Value::Object(a), Value::Object(b)) => {
            changes.iter().all(|(_, s)| a.contains_key(&s[depth]))
                && a.len() == b.len()
                && a.iter().all(|(key, va)| {
                    b.get(key)
                        .is_some_and(|vb| changed_as(va, vb, &below(key), depth + 1))
                })
        }
        (Value::Array(a), Value::Array(b)) => {
            changes
                .iter()
                .all(|(_, s)| index(&s[depth]).is_some_and(|i| i < a.len()))
                && a.len() == b.len()
                && a.iter()
                    .zip(b)
                    .enumerate()
                    .all(|(i, (va, vb))| changed_as(va, vb, &below(&i.to_string()), depth + 1))
        }
        _ => false,
    }
}

/// An array index as a JSON pointer segment names one (`serde_json`'s reading: digits, and no
/// leading zero but in `0` itself).
fn index(segment: &str) -> Option<usize> {
    if segment.starts_with('+') || (segment.len() > 1 && segment.starts_with('0')) {
        return None;
    }
    segment.parse().ok()
}

/// Whether two edits cannot both be applied: their ranges overlap, or they start at the same
/// byte (two insertions there have no order).
pub fn overlaps(a: &Range<usize>, b: &Range<usize>) -> bool {
    (a.start < b.end && b.start < a.end) || a.start == b.start
}

/// `text` with non-overlapping `edits` applied (in any order given; applied back to front).
pub fn apply(text: &str, edits: &[TextEdit]) -> String {
    let mut sorted: Vec<&TextEdit> = edits.iter().collect();
    sorted.sort_by_key(|e| (e.range.start, e.range.end));
    let mut out = text.to_owned();
    for edit in sorted.into_iter().rev() {
        out.replace_range(edit.range.clone(), &edit.content);
    }
    out
}

/// A node of the document as written: where it is and what it holds.
#[derive(Debug)]
struct Node {
    /// The node's bytes (a block collection's end is where the next token starts).
    span: Range<usize>,
    kind: Kind,
    /// False for a node with an anchor or a tag, or an alias: editing it (or what is inside
    /// it) would change more than one place, or its meaning.
    editable: bool,
}

#[derive(Debug)]
enum Kind {
    Scalar {
        value: String,
        style: Style,
    },
    Seq {
        flow: bool,
        items: Vec<Node>,
    },
    Map {
        flow: bool,
        /// Key text (`None` for a complex key), key node, value node.
        entries: Vec<(Option<String>, Node, Node)>,
    },
    /// An alias.
    Other,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Style {
    Plain,
    SingleQuoted,
    DoubleQuoted,
    /// A literal or folded block scalar.
    Block,
    /// A JSON string.
    JsonString,
    /// A JSON number, boolean or null.
    JsonOther,
}

impl Node {
    /// The node at `pointer`, if every node on the way is editable.
    fn find(&self, pointer: &str) -> Option<&Node> {
        let mut node = self;
        for segment in pointer_segments(pointer) {
            if !node.editable {
                return None;
            }
            node = match &node.kind {
                Kind::Seq { items, .. } => items.get(segment.parse::<usize>().ok()?)?,
                Kind::Map { entries, .. } => entries
                    .iter()
                    .rev()
                    .find(|(k, _, _)| k.as_deref() == Some(segment.as_str()))
                    .map(|(_, _, v)| v)?,
                Kind::Scalar { .. } | Kind::Other => return None,
            };
        }
        node.editable.then_some(node)
    }
}

/// Whether the next node is a mapping key.
fn expects_key(stack: &[Frame]) -> bool {
    matches!(stack.last(), Some(Frame::Map { pending: None, .. }))
}

/// A collection being built.
enum Frame {
    Seq {
        start: usize,
        flow: bool,
        editable: bool,
        items: Vec<Node>,
    },
    Map {
        start: usize,
        flow: bool,
        editable: bool,
        entries: Vec<(Option<String>, Node, Node)>,
        pending: Option<(Option<String>, Node)>,
    },
}

/// Hands a finished node to the collection being built; returns it when it is the root.
fn deliver(stack: &mut [Frame], node: Node) -> Option<Node> {
    match stack.last_mut() {
        None => return Some(node),
        Some(Frame::Seq { items, .. }) => items.push(node),
        Some(Frame::Map {
            entries, pending, ..
        }) => match pending.take() {
            Some((key, key_node)) => entries.push((key, key_node, node)),
            None => {
                let key = match &node.kind {
                    Kind::Scalar { value, .. } => Some(value.clone()),
                    _ => None,
                };
                *pending = Some((key, node));
            }
        },
    }
    None
}

fn close(frame: Frame, end: usize) -> Node {
    match frame {
        Frame::Seq {
            start,
            flow,
            editable,
            items,
        } => Node {
            span: start..end.max(start),
            kind: Kind::Seq { flow, items },
            editable,
        },
        Frame::Map {
            start,
            flow,
            editable,
            entries,
            ..
        } => Node {
            span: start..end.max(start),
            kind: Kind::Map { flow, entries },
            editable,
        },
    }
}

/// The first document of a YAML text as nodes; `None` when it does not parse.
fn yaml_tree(text: &str) -> Option<Node> {
    let mut stack: Vec<Frame> = Vec::new();
    for event in Parser::new_from_str(text) {
        let (event, span) = event.ok()?;
        let range = span.byte_range()?;
        let node = match event {
            Event::Scalar(value, style, anchor, tag) => Node {
                span: range,
                kind: Kind::Scalar {
                    value: value.into_owned(),
                    style: match style {
                        ScalarStyle::Plain => Style::Plain,
                        ScalarStyle::SingleQuoted => Style::SingleQuoted,
                        ScalarStyle::DoubleQuoted => Style::DoubleQuoted,
                        _ => Style::Block,
                    },
                },
                editable: anchor == 0 && tag.is_none(),
            },
            Event::Alias(_) => Node {
                span: range,
                kind: Kind::Other,
                editable: false,
            },
            Event::SequenceStart(style, anchor, tag) => {
                stack.push(Frame::Seq {
                    start: range.start,
                    flow: style == StructureStyle::Flow,
                    editable: anchor == 0 && tag.is_none(),
                    items: Vec::new(),
                });
                continue;
            }
            Event::MappingStart(style, anchor, tag) => {
                stack.push(Frame::Map {
                    start: range.start,
                    flow: style == StructureStyle::Flow,
                    editable: anchor == 0 && tag.is_none(),
                    entries: Vec::new(),
                    pending: None,
                });
                continue;
            }
            Event::SequenceEnd | Event::MappingEnd => close(stack.pop()?, range.end),
            _ => continue,
        };
        if let Some(root) = deliver(&mut stack, node) {
            return Some(root);
        }
    }
    None
}

/// A JSON text as nodes; `None` when it does not scan as one value.
fn json_tree(text: &str) -> Option<Node> {
    let mut scanner = Scanner::new(text, &ScannerOptions::default());
    let mut stack: Vec<Frame> = Vec::new();
    let mut root = None;
    while let Some(token) = scanner.scan().ok()? {
        let span = scanner.token_start()..scanner.token_end();
        let scalar = |value: String, style| Node {
            span: span.clone(),
            kind: Kind::Scalar { value, style },
            editable: true,
        };
        let node = match token {
            Token::OpenBrace => {
                stack.push(Frame::Map {
                    start: span.start,
                    flow: true,
                    editable: true,
                    entries: Vec::new(),
                    pending: None,
                });
                continue;
            }
            Token::OpenBracket => {
                stack.push(Frame::Seq {
                    start: span.start,
                    flow: true,
                    editable: true,
                    items: Vec::new(),
                });
                continue;
            }
            Token::CloseBrace | Token::CloseBracket => close(stack.pop()?, span.end),
            Token::Comma | Token::Colon | Token::CommentLine(_) | Token::CommentBlock(_) => {
                continue;
            }
            Token::String(s) => scalar(s.into_owned(), Style::JsonString),
            Token::Word(w) | Token::Number(w) if expects_key(&stack) => {
                scalar(w.to_owned(), Style::JsonOther)
            }
            Token::Word(_) | Token::Number(_) | Token::Boolean(_) | Token::Null => {
                scalar(String::new(), Style::JsonOther)
            }
        };
        if let Some(node) = deliver(&mut stack, node) {
            if root.is_some() {
                return None;
            }
            root = Some(node);
        }
    }
    root.filter(|_| stack.is_empty())
}

/// The byte where the line holding `at` starts.
fn line_start(text: &str, at: usize) -> usize {
    text[..at].rfind('\n').map_or(0, |i| i + 1)
}

/// The byte of the line break ending the line holding `at` (`\r\n` counts from its `\r`), or
/// the end of the text.
fn line_end(text: &str, at: usize) -> usize {
    let end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    if end > at && text[..end].ends_with('\r') {
        end - 1
    } else {
        end
    }
}

/// The line break the text uses.
fn newline(text: &str) -> &'static str {
    if text.contains("\r\n") { "\r\n" } else { "\n" }
}

fn list_edits(
    text: &str,
    syntax: Syntax,
    node: &Node,
    expected: &[String],
    items: &[String],
) -> Option<Vec<TextEdit>> {
    let Kind::Seq { flow, items: old } = &node.kind else {
        return None;
    };
    if items.is_empty() || items.len() > old.len() || old.len() != expected.len() {
        return None;
    }
    // A block list whose items each have a line of their own is rewritten line by line, so
    // a comment after an item moves with it; otherwise item by item.
    let by_line = !*flow
        && syntax == Syntax::Yaml
        && old.iter().all(|item| {
            text[line_start(text, item.span.start)..item.span.start].trim() == "-"
                && !text[item.span.clone()].contains('\n')
        });
    let unit = |item: &Node| {
        if by_line {
            line_start(text, item.span.start)..line_end(text, item.span.end)
        } else {
            item.span.clone()
        }
    };
    let mut written: Vec<(&str, Style, &str)> = Vec::with_capacity(old.len());
    for (item, want) in old.iter().zip(expected) {
        match &item.kind {
            Kind::Scalar { value, style }
                if item.editable
                    && value == want
                    && !matches!(style, Style::Block | Style::JsonOther) =>
            {
                written.push((value, *style, &text[unit(item)]));
            }
            _ => return None,
        }
    }
    let mut edits = Vec::new();
    for (k, new) in items.iter().enumerate() {
        let content = match written.iter().find(|(value, _, _)| value == new) {
            Some((_, _, src)) => (*src).to_owned(),
            None if by_line => format!(
                "{}{}",
                &text[line_start(text, old[k].span.start)..old[k].span.start],
                string_text(new, written[k].1)
            ),
            None => string_text(new, written[k].1),
        };
        if content != written[k].2 {
            edits.push(TextEdit {
                range: unit(&old[k]),
                content,
            });
        }
    }
    if items.len() < old.len() {
        let (kept, last) = (&old[items.len() - 1], &old[old.len() - 1]);
        let range = if by_line {
            // Whole lines go, with any comment lines among them.
            line_end(text, kept.span.end)..line_end(text, last.span.end)
        } else if *flow || syntax == Syntax::Json {
            kept.span.end..last.span.end
        } else {
            return None;
        };
        edits.push(TextEdit {
            range,
            content: String::new(),
        });
    }
    Some(edits)
}

/// A string as an item of a list whose replaced item was written in `style`: that style when
/// it can carry the string exactly, else the safest YAML scalar (a JSON string in JSON).
fn string_text(s: &str, style: Style) -> String {
    let one_line = !s.contains(['\n', '\r', '\t']) && s.chars().all(yaml::printable);
    match style {
        Style::JsonString | Style::JsonOther => Value::from(s).to_string(),
        Style::SingleQuoted if one_line => format!("'{}'", s.replace('\'', "''")),
        Style::DoubleQuoted => yaml::double_quoted(s),
        Style::Plain | Style::SingleQuoted | Style::Block => yaml::scalar(s),
    }
}

/// A value on one line: a YAML flow scalar or list, or compact JSON (`spaced`: `", "` between
/// items, as the file writes them).
fn value_text(value: &Value, syntax: Syntax, spaced: bool) -> Option<String> {
    let sep = if spaced { ", " } else { "," };
    Some(match (value, syntax) {
        (Value::Array(items), _) => {
            let parts: Option<Vec<String>> = items
                .iter()
                .map(|v| match v {
                    Value::Array(_) | Value::Object(_) => None,
                    other => value_text(other, syntax, spaced),
                })
                .collect();
            format!("[{}]", parts?.join(sep))
        }
        (Value::String(s), Syntax::Yaml) => yaml::scalar(s),
        (Value::Object(_), _) => return None,
        (other, _) => other.to_string(),
    })
}

fn entry_edits(
    text: &str,
    syntax: Syntax,
    node: &Node,
    key: &str,
    value: &Value,
) -> Option<Vec<TextEdit>> {
    let Kind::Map { flow, entries } = &node.kind else {
        return None;
    };
    if entries
        .iter()
        .any(|(k, _, _)| k.as_deref().is_none_or(|k| k == key))
    {
        return None;
    }
    let edit = if syntax == Syntax::Yaml && !*flow {
        block_entry(text, entries, key, value)?
    } else {
        flow_entry(text, syntax, node, entries, key, value)?
    };
    Some(vec![edit])
}

/// A new line before the entry after `type` (so the new key follows it), else before the first
/// entry that starts its own line, at that entry's indentation.
fn block_entry(
    text: &str,
    entries: &[(Option<String>, Node, Node)],
    key: &str,
    value: &Value,
) -> Option<TextEdit> {
    let after_type = entries
        .iter()
        .position(|(k, _, _)| k.as_deref() == Some("type"))
        .map_or(0, |i| i + 1);
    let own_line = |(_, k, _): &&(Option<String>, Node, Node)| {
        let start = line_start(text, k.span.start);
        text[start..k.span.start]
            .chars()
            .all(|c| c == ' ')
            .then_some((start, &text[start..k.span.start]))
    };
    let (at, indent) = entries[after_type.min(entries.len())..]
        .iter()
        .chain(entries)
        .find_map(|e| own_line(&e))?;
    let content = format!(
        "{indent}{}: {}{}",
        yaml::scalar(key),
        value_text(value, Syntax::Yaml, true)?,
        newline(text)
    );
    Some(TextEdit {
        range: at..at,
        content,
    })
}

/// `key: value, ` right after the opening brace, laid out like the first entry (on the brace's
/// line, or on a line of its own at the first entry's indentation).
fn flow_entry(
    text: &str,
    syntax: Syntax,
    node: &Node,
    entries: &[(Option<String>, Node, Node)],
    key: &str,
    value: &Value,
) -> Option<TextEdit> {
    let open = node.span.start;
    if text.as_bytes().get(open) != Some(&b'{') {
        return None;
    }
    let (colon, spaced) = match (entries.first(), syntax) {
        (Some((_, k, v)), Syntax::Json) => {
            let between = &text[k.span.end..v.span.start];
            let spaced = between.contains(' ') || text[node.span.clone()].contains(", ");
            (if between.contains(' ') { ": " } else { ":" }, spaced)
        }
        (None, Syntax::Json) => (": ", true),
        (_, Syntax::Yaml) => (": ", true),
    };
    let key_text = match syntax {
        Syntax::Json => Value::from(key).to_string(),
        Syntax::Yaml => yaml::scalar(key),
    };
    let entry = format!("{key_text}{colon}{}", value_text(value, syntax, spaced)?);
    let Some((_, first, _)) = entries.first() else {
        let close = node.span.end.checked_sub(1)?;
        if text.as_bytes().get(close) != Some(&b'}') || !text[open + 1..close].trim().is_empty() {
            return None;
        }
        return Some(TextEdit {
            range: open + 1..open + 1,
            content: entry,
        });
    };
    let gap = &text[open + 1..first.span.start];
    if !gap.trim().is_empty() {
        return None;
    }
    let separator = match gap.rfind('\n') {
        Some(i) => format!("{}{}", newline(gap), &gap[i + 1..]),
        None if spaced => " ".to_owned(),
        None => String::new(),
    };
    Some(TextEdit {
        range: first.span.start..first.span.start,
        content: format!("{entry},{separator}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(name: &str, text: &str) -> SourceFile {
        SourceFile::from_text(text, name.into())
    }

    fn list(pointer: &str, expected: &[&str], items: &[&str]) -> Change {
        Change::StringList {
            pointer: pointer.into(),
            expected: expected.iter().map(|s| (*s).to_owned()).collect(),
            items: items.iter().map(|s| (*s).to_owned()).collect(),
        }
    }

    fn entry(pointer: &str, value: Value) -> Change {
        Change::Entry {
            pointer: pointer.into(),
            key: "enum".into(),
            value,
        }
    }

    /// The text after the one change, or `None` when it gets no edits.
    fn changed(name: &str, text: &str, change: Change) -> Option<String> {
        let f = file(name, text);
        let edits = plan(&f, std::slice::from_ref(&change)).pop().flatten()?;
        Some(apply(text, &edits))
    }

    #[test]
    fn a_flow_list_is_rewritten_in_place_with_its_quoting() {
        let text = "triggers: [c, 'a', \"b\", a]  # keep\nnext: 1\n";
        let got = changed(
            "t.yaml",
            text,
            list("/triggers", &["c", "a", "b", "a"], &["a", "b", "c"]),
        );
        assert_eq!(
            got.as_deref(),
            Some("triggers: ['a', \"b\", c]  # keep\nnext: 1\n")
        );
    }

    #[test]
    fn a_block_list_moves_whole_lines_with_their_comments() {
        let text = "- name: x\n  triggers:\n    - b   # first\n    - a\n    - b\n    # gone\n    - a\n  description: d\n";
        let got = changed(
            "t.yaml",
            text,
            list("/0/triggers", &["b", "a", "b", "a"], &["a", "b"]),
        );
        assert_eq!(
            got.as_deref(),
            Some("- name: x\n  triggers:\n    - a\n    - b   # first\n  description: d\n")
        );
    }

    #[test]
    fn the_last_list_of_a_file_without_a_final_newline() {
        let got = changed(
            "t.yaml",
            "k:\n- b\n- a\n- a",
            list("/k", &["b", "a", "a"], &["a", "b"]),
        );
        assert_eq!(got.as_deref(), Some("k:\n- a\n- b"));
        let got = changed(
            "t.yaml",
            "k:\r\n- b\r\n- a\r\n- a\r\n",
            list("/k", &["b", "a", "a"], &["a", "b"]),
        );
        assert_eq!(got.as_deref(), Some("k:\r\n- a\r\n- b\r\n"));
    }

    #[test]
    fn a_json_list_is_rewritten_in_place() {
        let text = "{\n  \"triggers\": [\n    \"b\",\n    \"a\",\n    \"b\"\n  ]\n}\n";
        let got = changed(
            "t.json",
            text,
            list("/triggers", &["b", "a", "b"], &["a", "b"]),
        );
        assert_eq!(
            got.as_deref(),
            Some("{\n  \"triggers\": [\n    \"a\",\n    \"b\"\n  ]\n}\n")
        );
    }

    #[test]
    fn new_item_text_is_quoted_when_it_must_be() {
        // ` yes ` becomes `yes`, which a plain scalar would turn into a word some readers take
        // for a boolean; `a, b` cannot be plain in a flow list.
        let got = changed(
            "t.yaml",
            "k: [' yes ', 'a, b']\n",
            list("/k", &[" yes ", "a, b"], &["yes", "a, b"]),
        );
        assert_eq!(got.as_deref(), Some("k: ['yes', 'a, b']\n"));
        let got = changed(
            "t.yaml",
            "k: [\" x\", y]\n",
            list("/k", &[" x", "y"], &["x", "y"]),
        );
        assert_eq!(got.as_deref(), Some("k: [\"x\", y]\n"));
    }

    #[test]
    fn what_cannot_be_written_faithfully_gets_no_edits() {
        let none = |text: &str, change: Change| {
            assert_eq!(changed("t.yaml", text, change), None, "{text}")
        };
        // Anchored list, aliased item, tagged item, block scalar item.
        none("k: &x [b, a]\n", list("/k", &["b", "a"], &["a", "b"]));
        none(
            "a: &v b\nk: [*v, a]\n",
            list("/k", &["b", "a"], &["a", "b"]),
        );
        none("k: [!!str b, a]\n", list("/k", &["b", "a"], &["a", "b"]));
        none(
            "k:\n- |\n  b\n- a\n",
            list("/k", &["b\n", "a"], &["a", "b\n"]),
        );
        // The list does not hold what the rule saw.
        none("k: [b, a]\n", list("/k", &["c", "a"], &["a", "c"]));
        // Not a list, no such node, nothing to change.
        none("k: b\n", list("/k", &["b"], &["b"]));
        none("k: [b]\n", list("/j", &["b"], &["b"]));
        none("k: [a, b]\n", list("/k", &["a", "b"], &["a", "b"]));
        // An existing key, or a mapping inside an anchored one.
        none("m: {enum: [a]}\n", entry("/m", serde_json::json!(["a"])));
        none(
            "m: &x {t: {}}\nn: *x\n",
            entry("/m/t", serde_json::json!(["a"])),
        );
    }

    #[test]
    fn an_entry_goes_after_type_in_a_block_mapping() {
        let text = "p:\n  kind:\n    type: string\n    description: d\n";
        let got = changed(
            "t.yaml",
            text,
            entry("/p/kind", serde_json::json!(["a", "b c", 1])),
        );
        assert_eq!(
            got.as_deref(),
            Some("p:\n  kind:\n    type: string\n    enum: [a, b c, 1]\n    description: d\n")
        );
        // `type` last: before the first entry; a first key after `- `: before the next.
        let got = changed(
            "t.yaml",
            "m:\n  d: x\n  type: string\n",
            entry("/m", serde_json::json!(["a"])),
        );
        assert_eq!(
            got.as_deref(),
            Some("m:\n  enum: [a]\n  d: x\n  type: string\n")
        );
        let got = changed(
            "t.yaml",
            "- type: string\n  d: x\n",
            entry("/0", serde_json::json!(["a"])),
        );
        assert_eq!(
            got.as_deref(),
            Some("- type: string\n  enum: [a]\n  d: x\n")
        );
        assert_eq!(
            changed(
                "t.yaml",
                "- type: string\n",
                entry("/0", serde_json::json!(["a"]))
            ),
            None
        );
    }

    #[test]
    fn an_entry_goes_after_the_brace_of_a_flow_mapping_or_json_object() {
        let got = changed(
            "t.yaml",
            "k: {type: string, d: x}\n",
            entry("/k", serde_json::json!(["a", "yes"])),
        );
        assert_eq!(
            got.as_deref(),
            Some("k: {enum: [a, 'yes'], type: string, d: x}\n")
        );
        let got = changed("t.yaml", "k: { }\n", entry("/k", serde_json::json!([1, 2])));
        assert_eq!(got.as_deref(), Some("k: {enum: [1, 2] }\n"));
        let got = changed("t.yaml", "k: {}\n", entry("/k", serde_json::json!([1, 2])));
        assert_eq!(got.as_deref(), Some("k: {enum: [1, 2]}\n"));
        let text = "{\n  \"p\": {\n    \"type\": \"integer\",\n    \"x\": 1\n  }\n}\n";
        let got = changed("t.json", text, entry("/p", serde_json::json!([1, 2])));
        assert_eq!(
            got.as_deref(),
            Some(
                "{\n  \"p\": {\n    \"enum\": [1, 2],\n    \"type\": \"integer\",\n    \"x\": 1\n  }\n}\n"
            )
        );
        let got = changed(
            "t.json",
            "{\"p\":{\"type\":\"string\"}}",
            entry("/p", serde_json::json!(["a", "b"])),
        );
        assert_eq!(
            got.as_deref(),
            Some("{\"p\":{\"enum\":[\"a\",\"b\"],\"type\":\"string\"}}")
        );
    }

    #[test]
    fn changes_that_overlap_are_checked_alone() {
        let text = "k: [b, a]\nm: {}\n";
        let f = file("t.yaml", text);
        let changes = [
            list("/k", &["b", "a"], &["a", "b"]),
            list("/k", &["b", "a"], &["a", "b"]),
            entry("/m", serde_json::json!(["x"])),
        ];
        let planned = plan(&f, &changes);
        assert!(planned.iter().all(Option::is_some));
        let first: Vec<TextEdit> = [&planned[0], &planned[2]]
            .into_iter()
            .flatten()
            .flatten()
            .cloned()
            .collect();
        assert_eq!(apply(text, &first), "k: [a, b]\nm: {enum: [x]}\n");
        assert!(overlaps(
            &planned[0].as_ref().unwrap()[0].range,
            &planned[1].as_ref().unwrap()[0].range
        ));
    }

    /// `changed_as` says what the copy-and-compare it replaced said: `changes` applied to a
    /// copy of `original`, compared with `edited`.
    mod changed_as_is_copy_and_compare {
        use super::*;
        use proptest::prelude::*;

        fn value() -> impl Strategy<Value = Value> {
            let leaf = prop_oneof![
                Just(Value::Null),
                "[ab]{0,2}".prop_map(Value::String),
                (0u8..3).prop_map(Value::from),
            ];
            leaf.prop_recursive(3, 24, 3, |inner| {
                prop_oneof![
                    prop::collection::vec(inner.clone(), 0..3).prop_map(Value::Array),
                    prop::collection::vec(("[ab/~]{0,2}", inner), 0..3)
                        .prop_map(|kv| Value::Object(kv.into_iter().collect())),
                ]
            })
        }

        /// Every node's pointer, and a few that name none.
        fn pointers(v: &Value, at: String, out: &mut Vec<String>) {
            out.push(at.clone());
            match v {
                Value::Array(a) => {
                    out.push(format!("{at}/0{}", a.len()));
                    for (i, item) in a.iter().enumerate() {
                        pointers(item, crate::source::pointer_push(&at, i), out);
                    }
                }
                Value::Object(m) => {
                    out.push(format!("{at}/c"));
                    for (k, item) in m {
                        pointers(item, crate::source::pointer_push(&at, k), out);
                    }
                }
                _ => {}
            }
        }

        fn change(pointer: String, kind: u8) -> Change {
            match kind {
                0 => list(&pointer, &[], &["x", "y"]),
                1 => Change::Entry {
                    pointer,
                    key: "a".into(),
                    value: Value::from(7),
                },
                _ => Change::Entry {
                    pointer,
                    key: "b/".into(),
                    value: Value::Null,
                },
            }
        }

        proptest! {
            #[test]
            fn same_answer(
                original in value(),
                picks in prop::collection::vec((any::<prop::sample::Index>(), 0u8..3), 0..4),
                perturb in any::<Option<prop::sample::Index>>(),
            ) {
                let mut all = Vec::new();
                pointers(&original, String::new(), &mut all);
                all.push("x".into());
                let changes: Vec<Change> = picks
                    .iter()
                    .map(|(i, kind)| change(i.get(&all).clone(), *kind))
                    .collect();
                let mut edited = original.clone();
                let applies = changes.iter().all(|c| c.apply_to(&mut edited));
                // Sometimes the right result, sometimes one with a node replaced.
                if let Some(at) = perturb {
                    let mut nodes = Vec::new();
                    pointers(&edited, String::new(), &mut nodes);
                    let pointer: &String = at.get(&nodes);
                    if let Some(node) = edited.pointer_mut(pointer) {
                        *node = Value::from("changed");
                    }
                }
                let mut expected = original.clone();
                let reference = changes.iter().all(|c| c.apply_to(&mut expected)) && expected == edited;
                prop_assert_eq!(reference, applies && expected == edited);
                let segments: Option<Vec<Vec<String>>> = changes
                    .iter()
                    .map(|c| {
                        let p = c.pointer();
                        (p.is_empty() || p.starts_with('/')).then(|| pointer_segments(p).collect())
                    })
                    .collect();
                let ours = segments.is_some_and(|segments| {
                    let pending: Vec<Pending<'_>> = changes
                        .iter()
                        .zip(&segments)
                        .map(|(c, s)| (c, s.as_slice()))
                        .collect();
                    changed_as(&original, &edited, &pending, 0)
                });
                prop_assert_eq!(ours, reference);
            }
        }
    }
}
