//! YAML read straight from the parser's events (granit-parser, the parser under serde-saphyr):
//! the positions of every node, and a fast path to a JSON value for the plain documents tool
//! files are. Both skip serde's machinery, which costs more than the parsing itself.

use granit_parser::{Event, Parser, ScalarStyle};
use serde_json::Value;

use super::{Kids, Loc, Outline, PosNode};
use crate::diagnostic::Position;

/// The most nodes copied to place the insides of YAML aliases (see [`yaml_positions`]).
const ALIAS_POSITION_NODES: usize = 1_000_000;

/// The positions of a YAML document, from one pass over the parser's events (no values are
/// built, aliases are not expanded, and the explicit stack makes depth cost no recursion).
/// Keys are matched by their scalar text; a complex key (a mapping or sequence) matches
/// nothing. An alias is placed where it is used, and what is inside it where the anchored node
/// defines it (up to [`ALIAS_POSITION_NODES`] copied nodes in all; a merged mapping's keys are
/// not found, the pointer stops at the mapping).
/// Collections more than `max_depth` levels below the root are leaves.
pub(super) fn yaml_positions(text: &str, max_depth: usize) -> Option<PosNode> {
    enum Frame {
        // The anchor ID (0: none), the position and the items so far.
        Seq(usize, Loc, Vec<PosNode>),
        // ... the entries so far and the key waiting for its value.
        Map(
            usize,
            Loc,
            Vec<(String, Loc, PosNode)>,
            Option<(String, Loc)>,
        ),
    }
    /// Copies a node for an alias, spending one unit of `budget` per node: an alias bomb
    /// that loaded within the parser's limits cannot make positions explode either.
    fn copy(node: &PosNode, budget: &mut usize) -> PosNode {
        let kids = if *budget == 0 {
            Kids::Leaf
        } else {
            *budget -= 1;
            match &node.kids {
                Kids::Leaf => Kids::Leaf,
                Kids::Seq(items) => Kids::Seq(items.iter().map(|n| copy(n, budget)).collect()),
                Kids::Map(entries) => Kids::Map(
                    entries
                        .iter()
                        .map(|(k, at, n)| (k.clone(), *at, copy(n, budget)))
                        .collect(),
                ),
            }
        };
        PosNode { at: node.at, kids }
    }
    /// Hands a finished node (and its text, when it is a scalar) to the enclosing collection;
    /// returns it when it is the document's root.
    fn deliver(stack: &mut [Frame], node: PosNode, scalar: Option<String>) -> Option<PosNode> {
        match stack.last_mut() {
            None => return Some(node),
            Some(Frame::Seq(_, _, items)) => items.push(node),
            Some(Frame::Map(_, _, entries, pending)) => match pending.take() {
                Some((key, key_at)) => entries.push((key, key_at, node)),
                None => *pending = Some((scalar.unwrap_or_default(), node.at)),
            },
        }
        None
    }
    let mut stack: Vec<Frame> = Vec::new();
    let mut anchors: std::collections::HashMap<usize, PosNode> = std::collections::HashMap::new();
    let mut budget = ALIAS_POSITION_NODES;
    // How many collections are open below `max_depth`, and where the outermost began.
    let mut skipping = 0_usize;
    let mut skipped_at = Loc::Offset(0);
    for event in Parser::new_from_str(text) {
        let (event, span) = event.ok()?;
        let at = Loc::Pos(Position {
            line: span.start.line(),
            col: span.start.col() + 1,
        });
        if skipping > 0 {
            match event {
                Event::SequenceStart(..) | Event::MappingStart(..) => skipping += 1,
                Event::SequenceEnd | Event::MappingEnd => skipping -= 1,
                _ => {}
            }
            if skipping == 0 {
                let leaf = PosNode {
                    at: skipped_at,
                    kids: Kids::Leaf,
                };
                if let Some(root) = deliver(&mut stack, leaf, None) {
                    return Some(root);
                }
            }
            continue;
        }
        if matches!(event, Event::SequenceStart(..) | Event::MappingStart(..))
            && stack.len() >= max_depth
        {
            skipping = 1;
            skipped_at = at;
            continue;
        }
        let done = match event {
            Event::Scalar(value, _, anchor, _) => {
                let leaf = PosNode {
                    at,
                    kids: Kids::Leaf,
                };
                if anchor != 0 {
                    anchors.insert(anchor, copy(&leaf, &mut budget));
                }
                deliver(&mut stack, leaf, Some(value.into_owned()))
            }
            Event::Alias(anchor) => {
                let node = match anchors.get(&anchor) {
                    Some(anchored) => PosNode {
                        at,
                        kids: copy(anchored, &mut budget).kids,
                    },
                    None => PosNode {
                        at,
                        kids: Kids::Leaf,
                    },
                };
                deliver(&mut stack, node, None)
            }
            Event::SequenceStart(_, anchor, _) => {
                stack.push(Frame::Seq(anchor, at, Vec::new()));
                None
            }
            Event::MappingStart(_, anchor, _) => {
                stack.push(Frame::Map(anchor, at, Vec::new(), None));
                None
            }
            Event::SequenceEnd | Event::MappingEnd => {
                let (anchor, node) = match stack.pop()? {
                    Frame::Seq(anchor, at, items) => (
                        anchor,
                        PosNode {
                            at,
                            kids: Kids::Seq(items),
                        },
                    ),
                    Frame::Map(anchor, at, entries, _) => (
                        anchor,
                        PosNode {
                            at,
                            kids: Kids::Map(entries),
                        },
                    ),
                };
                if anchor != 0 {
                    anchors.insert(anchor, copy(&node, &mut budget));
                }
                deliver(&mut stack, node, None)
            }
            _ => None,
        };
        if done.is_some() {
            // The first document is the file (a second one is a load error).
            return done;
        }
    }
    None
}

/// Deeper documents are left to serde-saphyr, which enforces discloser's limits and explains
/// them; well below its own depth limit, so the two never disagree near the boundary.
const FAST_MAX_DEPTH: usize = 48;

/// The most nodes the fast path builds. serde-saphyr refuses documents over 250,000 nodes,
/// since with anchors and aliases a small file can expand to billions (an alias bomb); a plain
/// document has no aliases, so its size is bounded by the file's (64 MiB): a catalog of 6,000
/// tools in one YAML file loads. Past this, serde-saphyr decides (and refuses).
pub(super) const FAST_MAX_NODES: usize = 20_000_000;

/// The JSON value of a YAML document when it is plain enough to be sure of it without
/// serde-saphyr: one document; no tags, anchors, aliases or merge keys; string keys; no
/// repeated key; scalars that are quoted or block strings, or plain scalars that are clearly
/// strings, `true`/`false`, null, or small decimal integers. Anything else (and any syntax
/// error) gives `None`, and the caller parses the text with serde-saphyr, whose result and
/// error messages are the reference; the tests check both agree wherever this gives a value.
///
/// Maps are allocated at their exact size, so the value also takes less memory.
///
/// With the value comes the document's [`Outline`], recorded in the same pass: where its tools
/// are, so that listing them costs no second parse of the file.
pub(super) fn fast_value(text: &str) -> Option<(Value, Outline)> {
    fast_value_counted(text, 0).map(|(value, outline, _)| (value, outline))
}

/// [`fast_value`] of a text whose root lies `below` levels under the document's root (a run of
/// a `tools` list's items, parsed as a list of its own: 1), with the number of nodes it built
/// (the root's included), which [`FAST_MAX_NODES`] bounds: a file parsed in runs
/// (`yaml_split`) adds up its runs'.
pub(super) fn fast_value_counted(text: &str, below: usize) -> Option<(Value, Outline, usize)> {
    /// A collection's position, and its children's when the outline goes below it.
    struct Place {
        at: Loc,
        kids: Option<Kids>,
    }
    enum Frame {
        Seq(Vec<Value>, Place),
        /// The entries, the key awaiting its value (and where it is), and the keys as a set
        /// once the map is large (a linear search per key made 100,000 keys quadratic).
        Map(
            Vec<(String, Value)>,
            Option<(String, Loc)>,
            Option<std::collections::HashSet<String>>,
            Place,
        ),
    }
    /// Maps up to this many entries are searched for a repeated key one by one.
    const SMALL_MAP: usize = 16;
    let mut stack: Vec<Frame> = Vec::new();
    let mut root = None;
    let mut documents = 0;
    let mut nodes = 0;
    // Set by the root: a list's items, or a mapping's entries and their items.
    let mut depth = 0;
    for event in Parser::new_from_str(text) {
        let (event, span) = event.ok()?;
        let at = Loc::Pos(Position {
            line: span.start.line(),
            col: span.start.col() + 1,
        });
        let (node, kids) = match event {
            Event::StreamStart | Event::StreamEnd | Event::DocumentEnd => continue,
            Event::DocumentStart(..) => {
                documents += 1;
                if documents > 1 {
                    return None;
                }
                continue;
            }
            Event::Scalar(value, style, 0, None) => {
                // A mapping key must be a string, not a plain scalar read as something else.
                let is_key = matches!(stack.last(), Some(Frame::Map(_, None, _, _)));
                if is_key {
                    // A plain key counts only when it reads as a string; `<<` merges.
                    let key = match style {
                        ScalarStyle::Plain => match plain_scalar(&value)? {
                            Value::String(s) if s != "<<" => s,
                            _ => return None,
                        },
                        _ => value.into_owned(),
                    };
                    let Some(Frame::Map(entries, pending, keys, _)) = stack.last_mut() else {
                        return None;
                    };
                    let repeated = match keys {
                        Some(keys) => !keys.insert(key.clone()),
                        None if entries.len() < SMALL_MAP => entries.iter().any(|(k, _)| *k == key),
                        None => {
                            let mut set: std::collections::HashSet<String> =
                                entries.iter().map(|(k, _)| k.clone()).collect();
                            let repeated = !set.insert(key.clone());
                            *keys = Some(set);
                            repeated
                        }
                    };
                    if repeated {
                        return None;
                    }
                    *pending = Some((key, at));
                    continue;
                }
                let value = match style {
                    ScalarStyle::Plain => plain_scalar(&value)?,
                    _ => Value::String(value.into_owned()),
                };
                (value, Kids::Leaf)
            }
            Event::SequenceStart(_, 0, None) => {
                if stack.is_empty() {
                    depth = 1;
                }
                // Whether this list records its items' positions.
                let kids = (stack.len() < depth).then(|| Kids::Seq(Vec::new()));
                stack.push(Frame::Seq(Vec::new(), Place { at, kids }));
                if stack.len() + below > FAST_MAX_DEPTH {
                    return None;
                }
                continue;
            }
            Event::MappingStart(_, 0, None) => {
                if stack.is_empty() {
                    depth = 2;
                }
                let kids = (stack.len() < depth).then(|| Kids::Map(Vec::new()));
                stack.push(Frame::Map(Vec::new(), None, None, Place { at, kids }));
                if stack.len() + below > FAST_MAX_DEPTH {
                    return None;
                }
                continue;
            }
            Event::SequenceEnd => match stack.pop()? {
                Frame::Seq(items, place) => {
                    let Place { at: start, kids } = place;
                    let node = Value::Array(items);
                    deliver_place(&mut stack, &mut root, node, start, kids, &mut nodes)?;
                    continue;
                }
                Frame::Map(..) => return None,
            },
            Event::MappingEnd => match stack.pop()? {
                Frame::Map(entries, None, _, place) => {
                    let mut map = serde_json::Map::with_capacity(entries.len());
                    map.extend(entries);
                    let Place { at: start, kids } = place;
                    let node = Value::Object(map);
                    deliver_place(&mut stack, &mut root, node, start, kids, &mut nodes)?;
                    continue;
                }
                _ => return None,
            },
            // Tags, anchors, aliases and anything else: serde-saphyr's business.
            _ => return None,
        };
        deliver_place(&mut stack, &mut root, node, at, Some(kids), &mut nodes)?;
    }
    /// Hands a finished node to the enclosing collection (with its position, when that
    /// collection records them), or makes it the root; `None` when the fast path gives up.
    fn deliver_place(
        stack: &mut [Frame],
        root: &mut Option<(Value, PosNode)>,
        node: Value,
        at: Loc,
        kids: Option<Kids>,
        nodes: &mut usize,
    ) -> Option<()> {
        *nodes += 1;
        if *nodes > FAST_MAX_NODES {
            return None;
        }
        let place = || PosNode {
            at,
            kids: kids.unwrap_or(Kids::Leaf),
        };
        match stack.last_mut() {
            None => {
                if root.is_some() {
                    return None;
                }
                *root = Some((node, place()));
            }
            Some(Frame::Seq(items, parent)) => {
                items.push(node);
                if let Some(Kids::Seq(outline)) = &mut parent.kids {
                    outline.push(place());
                }
            }
            Some(Frame::Map(entries, pending, _, parent)) => {
                let (key, key_at) = pending.take()?;
                if let Some(Kids::Map(outline)) = &mut parent.kids {
                    outline.push((key.clone(), key_at, place()));
                }
                entries.push((key, node));
            }
        }
        Some(())
    }
    if !stack.is_empty() {
        return None;
    }
    let (value, tree) = root?;
    Some((value, Outline { depth, tree }, nodes))
}

/// A plain scalar's value when it is unambiguous (YAML 1.2 core schema with the strict
/// booleans discloser asks serde-saphyr for); `None` for anything numeric-looking but a small
/// decimal integer, and for text serde-saphyr might read otherwise.
fn plain_scalar(text: &str) -> Option<Value> {
    match text {
        "" | "~" | "null" | "Null" | "NULL" => return Some(Value::Null),
        "true" | "True" | "TRUE" => return Some(Value::Bool(true)),
        "false" | "False" | "FALSE" => return Some(Value::Bool(false)),
        _ => {}
    }
    let first = text.chars().next()?;
    if first.is_ascii_digit() || matches!(first, '+' | '-' | '.') {
        let digits = text.strip_prefix('-').unwrap_or(text);
        let decimal = !digits.is_empty()
            && digits.len() <= 18
            && digits.bytes().all(|b| b.is_ascii_digit())
            && (digits == "0" || !digits.starts_with('0'));
        return if decimal && text != "-0" {
            text.parse::<i64>().ok().map(Value::from)
        } else {
            None
        };
    }
    // Words Rust's float parser accepts (`NaN`, `inf`, `Infinity`), case variants of the
    // core schema's words, and `${...}` are left to serde-saphyr.
    let lower = text.to_ascii_lowercase();
    if text.parse::<f64>().is_ok()
        || matches!(lower.as_str(), "null" | "true" | "false")
        || text.contains("${")
    {
        return None;
    }
    Some(Value::String(text.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether the fast path took `text`; where it did, serde-saphyr must give the same value,
    /// keys in the same order.
    fn agrees(text: &str) -> bool {
        let Some((fast, outline)) = fast_value(text) else {
            return false;
        };
        // The outline is the positions of a second parse, to its depth.
        assert_eq!(
            format!("{:?}", Some(&outline.tree)),
            format!("{:?}", yaml_positions(text, outline.depth).as_ref()),
            "{text}"
        );
        let slow: Value = serde_saphyr::from_str_with_options(text, super::super::yaml_options())
            .unwrap_or_else(|e| {
                panic!("serde-saphyr refuses what the fast path read: {e}\n{text}")
            });
        assert_eq!(
            serde_json::to_string(&fast).unwrap(),
            serde_json::to_string(&slow).unwrap(),
            "{text}"
        );
        true
    }

    #[test]
    fn fast_path_takes_plain_documents_and_leaves_the_rest() {
        let taken = [
            "a: 1\nb: -2\nc: 0\nd: 123456789012345678\n",
            "a: yes\nb: no\nc: on\nd: y\ne: True\nf: FALSE\n",
            "a: ~\nb:\nc: null\nd: NULL\n",
            "'1': a\n\"true\": b\n",
            "a: [1, {b: c}, [], {}]\n",
            "a: |\n  x\n  y\nb: >-\n  folded\n  text\n",
            "- 'quoted: yes'\n- \"esc\\u00e9\\n\"\n- plain text, with: colon\n",
            "---\nname: t # a comment\ndescription: x\n...\n",
            "just a scalar",
            "[a, b]",
        ];
        for text in taken {
            assert!(agrees(text), "the fast path should take {text:?}");
        }
        let left = [
            "a: 01\n",
            "a: 1.5\n",
            "a: 1e3\n",
            "a: .inf\n",
            "a: NaN\n",
            "a: -0\n",
            "a: 0x10\n",
            "a: +1\n",
            "a: 1234567890123456789\n",
            "a: tRue\n",
            "a: &x 1\nb: *x\n",
            "a: !!str 1\n",
            "<<: {a: 1}\n",
            "1: a\n",
            "~: a\n",
            "true: a\n",
            "? [a]\n: b\n",
            "a: 1\na: 2\n",
            "--- a\n--- b\n",
            "a: ${HOME}\n",
            "a: b: c\n",
            "a:\n\tb: 1\n",
            "",
        ];
        for text in left {
            assert!(
                !agrees(text),
                "the fast path should leave {text:?} to serde-saphyr"
            );
        }
        let deep = format!(
            "{}1{}",
            "[".repeat(FAST_MAX_DEPTH + 1),
            "]".repeat(FAST_MAX_DEPTH + 1)
        );
        assert!(!agrees(&deep));
        let shallow = format!(
            "{}1{}",
            "[".repeat(FAST_MAX_DEPTH),
            "]".repeat(FAST_MAX_DEPTH)
        );
        assert!(agrees(&shallow));
    }

    /// Every YAML file of the repository. (The shared corpora beside the checkout hold no YAML.)
    #[test]
    fn depth_limited_positions_are_the_full_positions_cut() {
        use crate::source::json_tokens::tests::{files, truncated};
        let files = files(&["tests", "tools", "examples"], &["yaml", "yml"]);
        assert!(files.len() >= 30, "only {} YAML files", files.len());
        for path in files {
            // (Some fixtures are not UTF-8 on purpose.)
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            let Some(full) = yaml_positions(&text, usize::MAX) else {
                continue;
            };
            for depth in 0..4 {
                // (What an alias copies is not cut: compare what a pointer that deep can reach.)
                let limited = yaml_positions(&text, depth).map(|t| truncated(&t, depth));
                let same = format!("{limited:?}") == format!("{:?}", Some(truncated(&full, depth)));
                assert!(same, "{} differs at depth {depth}", path.display());
            }
        }
    }

    /// Random documents from scalars of every kind the fast path must judge.
    #[test]
    fn fast_path_agrees_with_serde_saphyr_on_random_documents() {
        const SCALARS: [&str; 34] = [
            "1",
            "-2",
            "0",
            "01",
            "-0",
            "+1",
            "1.5",
            "1e3",
            "0x1F",
            "0o7",
            "123456789012345678",
            "1234567890123456789",
            ".inf",
            "NaN",
            "inf",
            "yes",
            "No",
            "true",
            "True",
            "tRue",
            "FALSE",
            "~",
            "null",
            "Null",
            "",
            "'q: x'",
            "\"d\\n\"",
            "a b",
            "中文",
            "${X}",
            "[a, 1]",
            "{k: v, k2: 2}",
            "!!str 5",
            "<<",
        ];
        let mut state = 0x51_7cc1_b727_220a_u64;
        let mut next = |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        let mut taken = 0;
        for _ in 0..3_000 {
            let mut text = String::new();
            for line in 0..1 + next(6) {
                let key = if next(4) == 0 {
                    SCALARS[next(SCALARS.len())].to_owned()
                } else {
                    format!("k{line}")
                };
                let indent = if line > 0 && next(3) == 0 { "  " } else { "" };
                match next(4) {
                    0 => text.push_str(&format!(
                        "{indent}{key}:\n{indent}  - {}\n",
                        SCALARS[next(SCALARS.len())]
                    )),
                    1 => text.push_str(&format!(
                        "{indent}{key}: |\n{indent}  {}\n",
                        SCALARS[next(SCALARS.len())]
                    )),
                    _ => text.push_str(&format!(
                        "{indent}{key}: {}\n",
                        SCALARS[next(SCALARS.len())]
                    )),
                }
            }
            taken += usize::from(agrees(&text));
        }
        assert!(
            taken > 300,
            "the fast path took only {taken} of 3,000 documents"
        );
    }

    /// Every YAML file of the repository (the test fixtures, the bundled example, and the
    /// fuzzer's YAML corpus when it is there; the shared corpora beside the checkout hold no
    /// YAML): where the fast path gives a value, it is serde-saphyr's; and it is taken for most
    /// of them.
    #[test]
    fn fast_path_agrees_with_serde_saphyr_on_every_yaml_file() {
        let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
        let mut files = Vec::new();
        for (dir, any_name) in [
            ("tests", false),
            ("tools", false),
            ("examples", false),
            ("fuzz/corpus/load_yaml", true),
        ] {
            let fuzz = any_name;
            let mut stack = vec![root.join(dir)];
            while let Some(dir) = stack.pop() {
                let Ok(entries) = std::fs::read_dir(&dir) else {
                    continue;
                };
                for entry in entries.flatten() {
                    let path = entry.path();
                    let yaml = matches!(
                        path.extension().and_then(|e| e.to_str()),
                        Some("yaml" | "yml")
                    );
                    if path.is_dir() {
                        stack.push(path);
                    } else if yaml || any_name {
                        files.push((path, fuzz));
                    }
                }
            }
        }
        // Tool files and fixtures are mostly plain: most take the fast path. The fuzzer's
        // inputs are mostly odd: they test that what it takes, it takes right.
        let (mut read, mut taken) = (0, 0);
        for (path, fuzz) in &files {
            let Ok(text) = std::fs::read_to_string(path) else {
                continue;
            };
            let took = usize::from(agrees(&text));
            if !*fuzz {
                read += 1;
                taken += took;
            }
        }
        assert!(read >= 30, "only {read} YAML files found");
        assert!(
            taken * 2 > read,
            "the fast path took {taken} of {read} files"
        );
    }
}
