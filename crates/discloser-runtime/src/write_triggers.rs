//! Writing trigger words into `overrides:` of `discloser.yaml` without disturbing the rest of
//! the file (`suggest --triggers --write`).
//!
//! As for [`crate::write_profile`], the YAML is never re-serialised. For each tool, the place is
//! found from the parsed file's positions, not by scanning text:
//! - its override has `triggers:` — the value (a one-line flow list `[a, b]`, or a block list
//!   of `- a` lines) is replaced by a one-line flow list;
//! - its override has no `triggers:` — a `triggers:` line is inserted under the tool's key,
//!   indented like the entry's other keys;
//! - it has no override — `TOOL: {triggers: [...]}` lines are appended to the `overrides:`
//!   block, or a new block is appended to the file.
//!
//! The edited text is parsed again and checked — the same config with exactly the new trigger
//! lists — before the file is replaced atomically; on any failure the file is untouched.

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::catalog::formats::yaml::scalar;
use crate::config::{CONFIG_FILE, Config};
use crate::diagnostic::{ErrorKind, LoadError};
use crate::project::Project;
use crate::source::{SourceFile, Target, pointer_push};

/// Sets the triggers of each tool of `triggers` in the project's config file (its `overrides`),
/// leaving every other byte as it was. Returns the path written.
pub fn write_triggers(
    project: &Project,
    triggers: &BTreeMap<String, Vec<String>>,
) -> Result<PathBuf, LoadError> {
    let path = &project.config_path;
    let fail = |message: String| LoadError::file(ErrorKind::Config, path, message);
    if !path.is_file() {
        return Err(fail(format!(
            "there is no `{CONFIG_FILE}` to write trigger words into: run with a config, not tool paths"
        )));
    }
    let source = SourceFile::read(path, path.clone())?;
    let text = set_triggers(&source, &project.config, triggers).map_err(fail)?;
    verify(&source, &text, triggers).map_err(fail)?;
    if text != source.text {
        let real = path.canonicalize().unwrap_or_else(|_| path.clone());
        crate::fsutil::write_atomic(&real, text.as_bytes())
            .map_err(|e| fail(format!("cannot write the config: {e}")))?;
    }
    Ok(path.clone())
}

/// One edit of the text: replace `range` by `with`.
struct Edit {
    range: std::ops::Range<usize>,
    with: String,
}

/// `source`'s text with every tool's triggers set in its `overrides`.
fn set_triggers(
    source: &SourceFile,
    config: &Config,
    triggers: &BTreeMap<String, Vec<String>>,
) -> Result<String, String> {
    let text = &source.text;
    let nl = if text.contains("\r\n") { "\r\n" } else { "\n" };
    let mut edits = Vec::new();
    let mut appended = Vec::new();
    for (tool, words) in triggers {
        let list = flow_list(words);
        let entry = pointer_push("/overrides", tool);
        match config.overrides.get(tool) {
            Some(over) if over.triggers.is_some() => {
                let key =
                    source.offset_of(source.locate(&pointer_push(&entry, "triggers"), Target::Key));
                let value = source
                    .offset_of(source.locate(&pointer_push(&entry, "triggers"), Target::Value));
                edits.push(replace_value(text, key, value, &list, tool)?);
            }
            Some(_) => {
                let key = source.offset_of(source.locate(&entry, Target::Key));
                let value = source.offset_of(source.locate(&entry, Target::Value));
                let line_end = line_end(text, key);
                if value < line_end {
                    return Err(format!(
                        "the override of `{tool}` is written inline, so `triggers:` cannot be inserted as a line; add it by hand"
                    ));
                }
                let indent = indentation(text, value);
                let at = line_end + nl.len().min(text.len() - line_end);
                let mut line = format!("{indent}triggers: {list}{nl}");
                if at == text.len() && !text.ends_with('\n') {
                    line.insert_str(0, nl);
                }
                edits.push(Edit {
                    range: at..at,
                    with: line,
                });
            }
            None => appended.push(format!("{}: {{triggers: {list}}}", scalar(tool))),
        }
    }
    if !appended.is_empty() {
        edits.push(append_overrides(source, config, &appended, nl)?);
    }
    edits.sort_by_key(|e| e.range.start);
    let mut out = String::with_capacity(text.len() + 256);
    let mut at = 0;
    for edit in edits {
        out.push_str(&text[at..edit.range.start]);
        out.push_str(&edit.with);
        at = edit.range.end;
    }
    out.push_str(&text[at..]);
    Ok(out)
}

/// The edit replacing the value of `triggers:` (key at `key`, value at `value`) by `list`.
fn replace_value(
    text: &str,
    key: usize,
    value: usize,
    list: &str,
    tool: &str,
) -> Result<Edit, String> {
    let key_end = line_end(text, key);
    if value < key_end {
        // On the key's line: a flow list, closed on that line.
        let rest = &text[value..key_end];
        let close = if rest.starts_with('[') {
            flow_end(rest)
        } else {
            None
        };
        return match close {
            Some(len) => Ok(Edit {
                range: value..value + len,
                with: list.to_owned(),
            }),
            None => Err(format!(
                "the triggers of `{tool}` are not a one-line `[...]` list; edit them by hand"
            )),
        };
    }
    // A block list below the key: every following line indented deeper than the key, or blank.
    let key_indent = indentation(text, key).len();
    let mut end = key_end;
    let mut cursor = key_end;
    while cursor < text.len() {
        let next = cursor + 1;
        let line_stop = line_end(text, next.min(text.len()));
        let line = &text[next.min(text.len())..line_stop];
        let indent = line.len() - line.trim_start().len();
        if line.trim().is_empty() {
            cursor = line_stop;
            continue;
        }
        if indent <= key_indent && !line.trim_start().starts_with('-') {
            break;
        }
        if indent < key_indent {
            break;
        }
        end = line_stop;
        cursor = line_stop;
    }
    // The key's line keeps `triggers:`; its value becomes the flow list.
    let colon = text[key..key_end]
        .find(':')
        .map_or(key_end, |i| key + i + 1);
    Ok(Edit {
        range: colon..end,
        with: format!(" {list}"),
    })
}

/// The length of a flow list at the start of `text` up to its closing `]`, or `None` when it
/// is not closed on this line. Quoted scalars may hold brackets.
fn flow_end(text: &str) -> Option<usize> {
    let mut depth = 0usize;
    let mut quote: Option<char> = None;
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match (quote, c) {
            (Some('"'), '\\') => {
                chars.next();
            }
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '[') => depth += 1,
            (None, ']') => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            (None, '\n') => return None,
            _ => {}
        }
    }
    None
}

/// The edit appending `entries` to the `overrides:` block, or a new block at the end.
fn append_overrides(
    source: &SourceFile,
    config: &Config,
    entries: &[String],
    nl: &str,
) -> Result<Edit, String> {
    let text = &source.text;
    if config.overrides.is_empty() && !has_top_level_key(text, "overrides") {
        let mut block = String::new();
        if !text.is_empty() && !text.ends_with('\n') {
            block.push_str(nl);
        }
        block.push_str("overrides:");
        block.push_str(nl);
        for entry in entries {
            block.push_str(&format!("  {entry}{nl}"));
        }
        return Ok(Edit {
            range: text.len()..text.len(),
            with: block,
        });
    }
    if config.overrides.is_empty() {
        return Err(
            "`overrides` is written without entries (or inline), so entries cannot be added as lines; add them by hand"
                .to_owned(),
        );
    }
    // After the last line of the block: the end of the last entry's value.
    let last = config
        .overrides
        .keys()
        .map(|name| {
            let pointer = pointer_push("/overrides", name);
            let key = source.offset_of(source.locate(&pointer, Target::Key));
            (key, pointer)
        })
        .max()
        .expect("overrides has entries");
    let first_key = config
        .overrides
        .keys()
        .map(|name| source.offset_of(source.locate(&pointer_push("/overrides", name), Target::Key)))
        .min()
        .expect("overrides has entries");
    let indent = indentation(text, first_key).to_owned();
    if indent.is_empty() {
        return Err(
            "`overrides` is written inline, so entries cannot be added as lines; add them by hand"
                .to_owned(),
        );
    }
    // The block ends at the first later non-blank, non-comment line indented no deeper than
    // `overrides:` itself (column 0).
    let mut end = line_end(text, last.0);
    let mut cursor = end;
    while cursor < text.len() {
        let next = cursor + 1;
        let stop = line_end(text, next.min(text.len()));
        let line = &text[next.min(text.len())..stop];
        if !line.trim().is_empty() && !line.starts_with([' ', '\t']) && !line.starts_with('#') {
            break;
        }
        if !line.trim().is_empty() && line.starts_with([' ', '\t']) {
            end = stop;
        }
        cursor = stop;
    }
    let mut with = String::new();
    if end == text.len() && !text.ends_with('\n') {
        with.push_str(nl);
    }
    let at = if end < text.len() { end + 1 } else { end };
    for entry in entries {
        with.push_str(&format!("{indent}{entry}{nl}"));
    }
    Ok(Edit {
        range: at..at,
        with,
    })
}

fn has_top_level_key(text: &str, key: &str) -> bool {
    text.lines().any(|l| {
        l.strip_prefix(key)
            .is_some_and(|rest| rest.trim_start().starts_with(':'))
    })
}

/// The byte offset of the end of the line holding `offset` (its `\n`, or the text's end); a
/// `\r` before the `\n` is part of the line's end.
fn line_end(text: &str, offset: usize) -> usize {
    let end = text[offset..].find('\n').map_or(text.len(), |i| offset + i);
    if end > offset && text.as_bytes()[end - 1] == b'\r' {
        end - 1
    } else {
        end
    }
}

/// The white space before the first character of the line holding `offset`.
fn indentation(text: &str, offset: usize) -> &str {
    let start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let line = &text[start..];
    &line[..line.len() - line.trim_start_matches([' ', '\t']).len()]
}

fn flow_list(words: &[String]) -> String {
    let items: Vec<String> = words.iter().map(|w| scalar(w)).collect();
    format!("[{}]", items.join(", "))
}

/// Re-reads the edited text: it must be the same config but for the new trigger lists.
fn verify(
    old: &SourceFile,
    text: &str,
    triggers: &BTreeMap<String, Vec<String>>,
) -> Result<(), String> {
    let before = Config::parse(old).map_err(|e| e.message.clone())?;
    let edited = SourceFile::from_text(text.to_owned(), old.path.clone());
    let after = Config::parse(&edited).map_err(|e| {
        format!(
            "writing the triggers as text would break the file ({}); add them by hand",
            e.message
        )
    })?;
    let changed =
        |what: &str| format!("writing the triggers as text would change {what}; add them by hand");
    if after.sources != before.sources
        || after.triggers != before.triggers
        || after.profiles.keys().ne(before.profiles.keys())
    {
        return Err(changed("the rest of the config"));
    }
    for (name, over) in &after.overrides {
        let old = before.overrides.get(name);
        let expected = match triggers.get(name) {
            Some(words) => Some(words.clone()),
            None => old.and_then(|o| o.triggers.clone()),
        };
        if over.triggers != expected
            || over.core != old.and_then(|o| o.core)
            || over.summary_budget != old.and_then(|o| o.summary_budget)
            || over.lint_ignore != old.and_then(|o| o.lint_ignore.clone())
        {
            return Err(changed(&format!("the override of `{name}`")));
        }
    }
    if before
        .overrides
        .keys()
        .any(|k| !after.overrides.contains_key(k))
        || triggers.keys().any(|k| !after.overrides.contains_key(k))
    {
        return Err(changed("the overrides"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edit(text: &str, triggers: &[(&str, &[&str])]) -> Result<String, String> {
        let source = SourceFile::from_text(text, "discloser.yaml".into());
        let config = Config::parse(&source).unwrap();
        let map: BTreeMap<String, Vec<String>> = triggers
            .iter()
            .map(|(t, w)| ((*t).to_owned(), w.iter().map(|s| (*s).to_owned()).collect()))
            .collect();
        let out = set_triggers(&source, &config, &map)?;
        verify(&source, &out, &map)?;
        Ok(out)
    }

    #[test]
    fn every_place_a_list_can_be() {
        let text = "sources: [tools/*.yaml]   # the tools\n\
                    overrides:\n\
                    \x20 # the form\n\
                    \x20 a: {core: true}\n\
                    \x20 b:\n\
                    \x20   triggers: [old, \"x]y\"]  # keep this comment\n\
                    \x20 c:\n\
                    \x20   core: false\n\
                    \x20 d:\n\
                    \x20   triggers:\n\
                    \x20     - one\n\
                    \x20     - two\n\
                    \x20   core: true\n\
                    lint:\n\
                    \x20 ignore: []\n";
        let out = edit(
            text,
            &[
                ("b", &["new", "商业计划书"]),
                ("c", &["c word"]),
                ("d", &["d1"]),
                ("e", &["yes", "e"]),
            ],
        )
        .unwrap();
        assert_eq!(
            out,
            "sources: [tools/*.yaml]   # the tools\n\
             overrides:\n\
             \x20 # the form\n\
             \x20 a: {core: true}\n\
             \x20 b:\n\
             \x20   triggers: [new, 商业计划书]  # keep this comment\n\
             \x20 c:\n\
             \x20   triggers: [c word]\n\
             \x20   core: false\n\
             \x20 d:\n\
             \x20   triggers: [d1]\n\
             \x20   core: true\n\
             \x20 e: {triggers: ['yes', e]}\n\
             lint:\n\
             \x20 ignore: []\n"
        );
    }

    #[test]
    fn a_config_without_overrides_gets_a_block_and_crlf_is_kept() {
        let out = edit("sources: [t.yaml]\r\n", &[("a", &["w"])]).unwrap();
        assert_eq!(
            out,
            "sources: [t.yaml]\r\noverrides:\r\n  a: {triggers: [w]}\r\n"
        );
        let out = edit("sources: [t.yaml]", &[("a", &["w"])]).unwrap();
        assert_eq!(out, "sources: [t.yaml]\noverrides:\n  a: {triggers: [w]}\n");
    }

    #[test]
    fn what_cannot_be_edited_as_a_line_is_refused() {
        let inline = edit(
            "sources: [t.yaml]\noverrides: {a: {core: true}}\n",
            &[("a", &["w"])],
        );
        assert!(inline.is_err(), "{inline:?}");
        let inline = edit(
            "sources: [t.yaml]\noverrides:\n  a: {core: true}\n",
            &[("a", &["w"])],
        );
        assert!(inline.unwrap_err().contains("inline"));
    }
}
