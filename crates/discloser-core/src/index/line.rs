//! The grammar of an index line, written and read in one place.
//!
//! ```text
//! - name(param: type, param: a|b|"c d", …) [trigger / trigger] Summary of whole sentences.
//! ```
//!
//! [`render`] assembles a line from its parts (the text and Markdown styles differ only in how
//! the signature is shown), [`parse`] takes one apart again (for the structured diffs of
//! `check` and `diff`), and the separators are the named constants below, so the two cannot
//! drift: a property test holds `parse(render(parts)) == parts` for arbitrary catalogs.
//!
//! The grammar reads back every line except two that the model cannot tell apart either: a
//! trigger that holds `] ` or ends with `]` (it reads as the end of the list), triggers that do
//! not split back at ` / ` once joined (`a / b` reads as two triggers), and,
//! in an entry with no triggers, a summary that starts with `[` (it reads as a trigger list).

/// Starts every entry.
pub const ENTRY_PREFIX: &str = "- ";
/// Between the parameters of a signature.
pub const PARAM_SEPARATOR: &str = ", ";
/// Between a parameter's name and its spelled type.
pub const TYPE_SEPARATOR: &str = ": ";
/// Between the alternatives of a spelled type (`a|b`, `string|null`).
pub const ALTERNATIVE_SEPARATOR: &str = "|";
/// Ends the parameter list of a tool that also takes optional parameters.
pub const OPTIONAL_MARK: &str = "…";
/// Opens the trigger list (after the signature).
pub const TRIGGERS_OPEN: &str = " [";
/// Closes the trigger list.
pub const TRIGGERS_CLOSE: &str = "]";
/// Between trigger words.
pub const TRIGGER_SEPARATOR: &str = " / ";

/// `name(a: string, b: x|y, …)` from the parameters' names and spelled types.
pub fn render_signature<'a>(
    name: &str,
    params: impl IntoIterator<Item = (&'a str, &'a str)>,
    has_optional: bool,
) -> String {
    let mut parts: Vec<String> = params
        .into_iter()
        .map(|(param, ty)| format!("{param}{TYPE_SEPARATOR}{ty}"))
        .collect();
    if has_optional {
        parts.push(OPTIONAL_MARK.to_owned());
    }
    format!("{name}({})", parts.join(PARAM_SEPARATOR))
}

/// One entry line (without its newline): the shown signature, the triggers when there are
/// any, the summary when there is one. A line break or control character anywhere becomes a
/// space and the end is trimmed, so a name or parameter holding a line break cannot split the
/// entry.
pub fn render(shown_signature: &str, triggers: &[String], summary: &str) -> String {
    let mut line = format!("{ENTRY_PREFIX}{shown_signature}");
    if !triggers.is_empty() {
        line.push_str(TRIGGERS_OPEN);
        line.push_str(&triggers.join(TRIGGER_SEPARATOR));
        line.push_str(TRIGGERS_CLOSE);
    }
    if !summary.is_empty() {
        line.push(' ');
        line.push_str(summary);
    }
    one_line_owned(line)
}

/// Any line break or control character becomes a space; the end is trimmed.
pub fn one_line(text: &str) -> String {
    one_line_owned(text.to_owned())
}

/// [`one_line`] of a string already owned: a line with no control character is only trimmed.
fn one_line_owned(mut text: String) -> String {
    if may_hold_control(&text) {
        text = text
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
    }
    text.truncate(text.trim_end().len());
    text
}

/// Whether `text` may hold a control character (`char::is_control`: C0, DEL and C1, whose
/// UTF-8 starts with the byte `0xC2`); `false` means it holds none, and most lines hold none.
fn may_hold_control(text: &str) -> bool {
    text.bytes().any(|b| b < 0x20 || b == 0x7f || b == 0xc2)
}

/// An index line taken apart.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parsed {
    /// The signature as written (`name(...)`).
    pub signature: String,
    /// The required parameters: name and spelled type, in order (the `…` mark included as a
    /// parameter with an empty type).
    pub params: Vec<(String, String)>,
    /// The trigger words, in order.
    pub triggers: Vec<String>,
    /// The summary.
    pub summary: String,
}

/// The tool name of an index line (`- name(`), `None` for other lines (the header).
pub fn entry_name(line: &str) -> Option<&str> {
    let rest = line.strip_prefix(ENTRY_PREFIX)?;
    let name = &rest[..rest.find('(')?];
    (!name.is_empty() && !name.contains(char::is_whitespace)).then_some(name)
}

/// Takes a text-style entry line apart; `None` when it is not one.
pub fn parse(line: &str) -> Option<Parsed> {
    let rest = line.strip_prefix(ENTRY_PREFIX)?;
    let open = rest.find('(')?;
    let close = open + matching_paren(&rest[open..])?;
    let signature = &rest[..=close];
    let params = split_top_level(&rest[open + 1..close], PARAM_SEPARATOR)
        .into_iter()
        .map(|p| match p.split_once(TYPE_SEPARATOR) {
            Some((name, ty)) => (name.to_owned(), ty.to_owned()),
            None => (p.to_owned(), String::new()),
        })
        .collect();
    let mut after = &rest[close + 1..];
    let mut triggers = Vec::new();
    if let Some(inner) = after.strip_prefix(TRIGGERS_OPEN) {
        // The list ends at the first `]` followed by the end or a space: a trigger may hold `]`.
        let end = inner
            .match_indices(TRIGGERS_CLOSE)
            .map(|(i, _)| i)
            .find(|&i| {
                let tail = &inner[i + TRIGGERS_CLOSE.len()..];
                tail.is_empty() || tail.starts_with(' ')
            })?;
        triggers = inner[..end]
            .split(TRIGGER_SEPARATOR)
            .map(str::to_owned)
            .collect();
        after = &inner[end + TRIGGERS_CLOSE.len()..];
    }
    Some(Parsed {
        signature: signature.to_owned(),
        params,
        triggers,
        summary: after.strip_prefix(' ').unwrap_or(after).to_owned(),
    })
}

/// The values of a spelled closed set (`a|b|"c d"`), `None` for other types.
pub fn closed_set(ty: &str) -> Option<Vec<&str>> {
    let values = split_top_level(ty, ALTERNATIVE_SEPARATOR);
    (values.len() > 1).then_some(values)
}

/// The characters of `text` outside JSON strings (a string's quotes included in what is
/// skipped), with their byte index: closed sets quote values that hold separators.
fn outside_strings(text: &str) -> impl Iterator<Item = (usize, char)> + '_ {
    let (mut in_string, mut escaped) = (false, false);
    text.char_indices().filter(move |&(_, c)| {
        if in_string {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
            return false;
        }
        in_string = c == '"';
        !in_string
    })
}

/// The byte index of the `)` closing the `(` that `text` starts with, skipping JSON strings.
fn matching_paren(text: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (i, c) in outside_strings(text) {
        match c {
            '(' => depth += 1,
            ')' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// Splits `text` at `separator`, outside parentheses, brackets and JSON strings.
fn split_top_level<'a>(text: &'a str, separator: &str) -> Vec<&'a str> {
    if text.is_empty() {
        return Vec::new();
    }
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0usize, 0);
    for (i, c) in outside_strings(text) {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth = depth.saturating_sub(1),
            _ if depth == 0 && i >= start && text[i..].starts_with(separator) => {
                parts.push(&text[start..i]);
                start = i + separator.len();
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use serde_json::{Value, json};

    use super::*;
    use crate::catalog::Catalog;
    use crate::source::SourceFile;

    /// Text with the characters that matter to the grammar: separators, brackets, quotes,
    /// backslashes, line breaks, CJK.
    fn tricky() -> impl Strategy<Value = String> {
        proptest::string::string_regex(r#"[a-z0-9 _\-/|,:()\[\]"\\\n…商业]{0,12}"#)
            .expect("a valid pattern")
    }

    fn name() -> impl Strategy<Value = String> {
        proptest::string::string_regex("[a-z_][a-z0-9_]{0,10}").expect("a valid pattern")
    }

    /// A property schema: a closed set of tricky strings, a plain type, or a union.
    fn property() -> impl Strategy<Value = Value> {
        prop_oneof![
            proptest::collection::vec(tricky(), 1..5).prop_map(|values| json!({"enum": values})),
            Just(json!({"type": "string"})),
            Just(json!({"type": ["integer", "null"]})),
            Just(json!({"type": "array", "items": {"type": "string"}})),
        ]
    }

    fn tool() -> impl Strategy<Value = Value> {
        (
            name(),
            proptest::collection::btree_map(name(), property(), 0..4),
            proptest::collection::vec(tricky(), 0..4),
            tricky(),
            any::<bool>(),
        )
            .prop_map(|(name, properties, triggers, description, optional)| {
                let required: Vec<&String> = properties.keys().collect();
                let mut properties: serde_json::Map<String, Value> =
                    properties.clone().into_iter().collect();
                if optional {
                    properties.insert("zz_optional".into(), json!({"type": "string"}));
                }
                json!({
                    "name": name,
                    "description": description,
                    "triggers": triggers,
                    "parameters": {"type": "object", "properties": properties, "required": required},
                })
            })
    }

    proptest! {
        #[test]
        fn one_line_maps_every_control_character(text in "(\\PC|\\p{Cc}|\u{a0}|\u{85}| ){0,40}") {
            let mapped: String = text
                .chars()
                .map(|c| if c.is_control() { ' ' } else { c })
                .collect();
            prop_assert_eq!(one_line(&text), mapped.trim_end());
            prop_assert_eq!(render(&text, &[], ""), one_line(&format!("- {text}")));
        }

        #[test]
        fn parse_gives_back_what_render_wrote(tool in tool()) {
            let file = SourceFile::from_text(tool.to_string(), "t.json".into());
            let catalog = Catalog::from_sources(vec![file], std::path::Path::new("."))
                .expect("a generated tool loads");
            let entry = crate::index::build_entry(&catalog, 0, 120, 20);
            // The two lines the grammar cannot read back (see the module's docs).
            let shown: Vec<String> = entry.triggers.iter().map(|t| one_line(t)).collect();
            prop_assume!(!shown.iter().any(|t| t.contains("] ") || t.ends_with(']')));
            let joined = shown.join(TRIGGER_SEPARATOR);
            prop_assume!(shown.is_empty() || joined.split(TRIGGER_SEPARATOR).eq(shown.iter().map(String::as_str)));
            prop_assume!(!(shown.is_empty() && entry.summary.starts_with('[')));
            let parsed = parse(&entry.line).expect("an entry line parses");
            prop_assert_eq!(entry_name(&entry.line), Some(entry.name.as_str()));
            // Rendering maps control characters to spaces; parsing reads that line back.
            prop_assert_eq!(&parsed.signature, &one_line(&entry.signature));
            prop_assert_eq!(parsed.triggers, shown);
            prop_assert_eq!(parsed.summary, one_line(&entry.summary));
            let mut expected: Vec<(String, String)> = entry
                .required
                .iter()
                .map(|p| (p.name.clone(), one_line(&p.ty)))
                .collect();
            if entry.has_optional {
                expected.push((OPTIONAL_MARK.to_owned(), String::new()));
            }
            prop_assert_eq!(parsed.params, expected);
        }
    }
}
