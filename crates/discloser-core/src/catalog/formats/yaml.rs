//! Writing tools as native YAML (`discloser import`), keeping every string exactly.
//!
//! The emitter is small and conservative, because the output is edited by people and read back
//! by a YAML 1.2 parser (and by other tools that may still speak YAML 1.1):
//! - a string with line breaks is a literal block scalar (`|`, `|-` or `|+` by its trailing line
//!   breaks, with an indentation indicator when it starts with white space), unless it holds
//!   characters a block cannot carry (`\r`, control characters), then it is double-quoted;
//! - a one-line string is plain only when no YAML 1.1 or 1.2 reading could take it for anything
//!   else (`yes`, `1e3`, `- x`, `a: b` are quoted), else single-quoted, else double-quoted with
//!   escapes;
//! - short lists of scalars are written in flow style (`[a, b]`), everything else in block style;
//! - mapping keys keep their order.
//!
//! `discloser import` reads the text back and compares it with what it converted, so a case this
//! module gets wrong is an error, never a silently changed tool.

use std::fmt::Write as _;

use serde_json::{Map, Value};

use crate::catalog::Tool;
pub use crate::source::yaml_scalar::scalar;
use crate::source::yaml_scalar::{double_quoted, printable, string_scalar};

/// Lists of scalars longer than this (in characters, flow style) are written in block style.
const FLOW_WIDTH: usize = 80;

/// The tools as a native YAML list: each with its `triggers` (`[]` to fill in when it has none),
/// and `core`, `summary_budget` and `lint_ignore` when set.
pub fn native_tools(tools: &[&Tool]) -> String {
    let mut out = String::new();
    for (i, tool) in tools.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let mut map = Map::new();
        map.insert("name".into(), tool.name.clone().into());
        if let Some(title) = &tool.title {
            map.insert("title".into(), title.clone().into());
        }
        map.insert("description".into(), tool.description.clone().into());
        let strings =
            |list: &[String]| Value::Array(list.iter().cloned().map(Value::String).collect());
        map.insert("triggers".into(), strings(&tool.triggers));
        if tool.core {
            map.insert("core".into(), true.into());
        }
        if let Some(budget) = tool.summary_budget {
            map.insert("summary_budget".into(), budget.into());
        }
        if !tool.lint_ignore.is_empty() {
            map.insert("lint_ignore".into(), strings(&tool.lint_ignore));
        }
        map.insert("parameters".into(), tool.parameters.to_value());
        if let Some(annotations) = &tool.annotations {
            map.insert("annotations".into(), annotations.clone());
        }
        out.push_str("- ");
        write_map_body(&mut out, &map, 2, true);
    }
    if tools.is_empty() {
        out.push_str("[]\n");
    }
    out
}

/// Any JSON value as a YAML document.
pub fn document(value: &Value) -> String {
    let mut out = String::new();
    match value {
        Value::Object(map) if !map.is_empty() => write_map_body(&mut out, map, 0, false),
        Value::Array(items) if !items.is_empty() && flow(items).is_none() => {
            write_list_body(&mut out, items, 0, false);
        }
        other => {
            out.push_str(&inline(other).unwrap_or_else(|| double_quoted(&other.to_string())));
            out.push('\n');
        }
    }
    out
}

/// Writes `key: value` lines at `indent`; with `continued`, the first line continues a `- `.
fn write_map_body(out: &mut String, map: &Map<String, Value>, indent: usize, continued: bool) {
    for (i, (key, value)) in map.iter().enumerate() {
        if i > 0 || !continued {
            pad(out, indent);
        }
        out.push_str(&key_text(key));
        out.push(':');
        write_nested(out, value, indent);
    }
}

/// Writes `- item` lines at `indent`.
fn write_list_body(out: &mut String, items: &[Value], indent: usize, continued: bool) {
    for (i, item) in items.iter().enumerate() {
        if i > 0 || !continued {
            pad(out, indent);
        }
        out.push('-');
        match item {
            Value::Object(map) if !map.is_empty() => {
                out.push(' ');
                write_map_body(out, map, indent + 2, true);
            }
            _ => write_nested(out, item, indent),
        }
    }
}

/// Writes the value of a key or list entry whose line is open at `indent` (after `:` or `-`).
fn write_nested(out: &mut String, value: &Value, indent: usize) {
    match value {
        Value::Object(map) if !map.is_empty() => {
            out.push('\n');
            write_map_body(out, map, indent + 2, false);
        }
        Value::Array(items) if !items.is_empty() => match flow(items) {
            Some(text) => {
                let _ = writeln!(out, " {text}");
            }
            None => {
                out.push('\n');
                write_list_body(out, items, indent + 2, false);
            }
        },
        Value::String(s) => match block(s, indent + 2) {
            Some(text) => {
                out.push(' ');
                out.push_str(&text);
            }
            None => {
                let _ = writeln!(out, " {}", string_scalar(s));
            }
        },
        other => {
            let text = inline(other).unwrap_or_default();
            let _ = writeln!(out, " {text}");
        }
    }
}

fn pad(out: &mut String, indent: usize) {
    out.extend(std::iter::repeat_n(' ', indent));
}

/// A scalar or empty container on one line; `None` for non-empty containers.
fn inline(value: &Value) -> Option<String> {
    Some(match value {
        Value::Null => "null".to_owned(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => string_scalar(s),
        Value::Array(items) if items.is_empty() => "[]".to_owned(),
        Value::Object(map) if map.is_empty() => "{}".to_owned(),
        _ => return None,
    })
}

/// `[a, b, c]` when every item is a one-line scalar and the whole fits [`FLOW_WIDTH`].
fn flow(items: &[Value]) -> Option<String> {
    let mut parts = Vec::with_capacity(items.len());
    for item in items {
        match item {
            Value::Array(_) | Value::Object(_) => return None,
            Value::String(s) if s.contains('\n') => return None,
            other => parts.push(inline(other)?),
        }
    }
    let text = format!("[{}]", parts.join(", "));
    (text.chars().count() <= FLOW_WIDTH).then_some(text)
}

fn key_text(key: &str) -> String {
    string_scalar(key)
}

/// A literal block scalar (header and content lines, indented by `indent`), or `None` when the
/// string is one line or holds characters a block cannot carry exactly.
fn block(s: &str, indent: usize) -> Option<String> {
    if !s.contains('\n') || !s.chars().all(printable) {
        return None;
    }
    let body = s.trim_end_matches('\n');
    if body.trim().is_empty() {
        return None;
    }
    let chomp = match s.len() - body.len() {
        0 => "-",
        1 => "",
        _ => "+",
    };
    // Auto-detection of the indentation would eat leading spaces (or fail on a blank first
    // line), so say it explicitly; it is relative to the enclosing node's indentation.
    let indicator = if s.starts_with([' ', '\t', '\n']) {
        "2"
    } else {
        ""
    };
    let mut out = format!("|{indicator}{chomp}\n");
    for line in body.split('\n') {
        if !line.is_empty() {
            pad(&mut out, indent);
            out.push_str(line);
        }
        out.push('\n');
    }
    for _ in 1..s.len() - body.len() {
        out.push('\n');
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn reparse(text: &str) -> Value {
        let source = crate::source::SourceFile::from_text(
            text.to_owned(),
            std::path::PathBuf::from("t.yaml"),
        );
        source
            .parse()
            .unwrap_or_else(|e| panic!("{e}\n--- text ---\n{text}"))
    }

    const TRICKY: &[&str] = &[
        "",
        " ",
        "plain words",
        "yes",
        "No",
        "null",
        "~",
        "1.0",
        "0x1F",
        "1e3",
        "2024-01-01",
        "12:30",
        "- item",
        "key: value",
        "a #comment",
        "trailing:",
        "'quoted'",
        "\"double\"",
        "it's",
        "tab\there",
        "  leading spaces",
        "trailing spaces  ",
        "line one\nline two",
        "line one\nline two\n",
        "line one\nline two\n\n\n",
        "\nstarts with a newline",
        "\n    Indented docstring.\n\n    More.\n    ",
        "  indented first\nsecond",
        "   \nspaces-only first line",
        "a\n  b\n\tc\n",
        "carriage\r\nreturn",
        "bell\u{7}",
        "del\u{7f}",
        "nel\u{85}",
        "sep\u{2028}x",
        "bom\u{feff}",
        "中文描述。\n第二行",
        "emoji 🎉",
        "--- not a document",
        "...",
        "&anchor",
        "*alias",
        "!tag",
        "%directive",
        "@at",
        "`tick`",
        "<< merge",
        "[flow]",
        "{flow}",
        "a, b",
        "| pipe",
        "> fold",
        "x\n---\ny",
        "x\n...\ny",
        "only\n\n\n",
        "\n\n",
        "\n",
    ];

    #[test]
    fn every_tricky_string_reads_back_exactly_in_every_position() {
        for s in TRICKY {
            let value = json!({
                "key": s,
                "list": [s, "x"],
                "nested": {"deeper": {"key": s}},
                "items": [{"a": s, "b": [s]}],
                s.to_string(): 1,
            });
            let text = document(&value);
            assert_eq!(reparse(&text), value, "string {s:?}:\n{text}");
        }
    }

    #[test]
    fn multi_line_descriptions_are_block_scalars() {
        let value = json!({"description": "Draw a chart.\n\nArgs:\n    kind: the kind.\n"});
        assert_eq!(
            document(&value),
            "description: |\n  Draw a chart.\n\n  Args:\n      kind: the kind.\n"
        );
        let value = json!({"d": "\n    Indented.\n    "});
        assert_eq!(document(&value), "d: |2-\n\n      Indented.\n      \n");
        assert_eq!(reparse(&document(&value)), value);
    }

    #[test]
    fn scalars_keep_their_types() {
        let value = json!({
            "n": null, "t": true, "i": -3, "u": 18446744073709551615u64, "f": 1.5, "e": 1e100,
            "s": "true", "empty_list": [], "empty_map": {}, "enum": ["a", "b", 1, null, "yes"],
        });
        assert_eq!(reparse(&document(&value)), value);
    }
}
