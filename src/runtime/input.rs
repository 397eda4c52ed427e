//! Typing parsed input (trace lines, reach cases) with errors placed on the offending key or
//! value, worded like the config's: keys in backticks, what was expected, a "did you mean" for a
//! misspelt key or value.

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::diagnostic::{ErrorKind, LoadError, Position, did_you_mean};
use crate::source::{SourceFile, Target, pointer_push};

/// Deserialises `value`, parsed from `source`, into `T`; a mismatch becomes a [`LoadError`] at
/// the key or value at fault.
pub(crate) fn typed<T: DeserializeOwned>(
    source: &SourceFile,
    value: Value,
) -> Result<T, LoadError> {
    serde_path_to_error::deserialize::<_, T>(value).map_err(|e| {
        let pointer = e
            .path()
            .iter()
            .fold(String::new(), |p, segment| match segment {
                serde_path_to_error::Segment::Seq { index } => pointer_push(&p, index),
                serde_path_to_error::Segment::Map { key } => pointer_push(&p, key),
                _ => p,
            });
        reword(source, &pointer, &e.into_inner().to_string())
    })
}

fn reword(source: &SourceFile, pointer: &str, message: &str) -> LoadError {
    let shown = pointer.trim_start_matches('/').replace('/', ".");
    if let Some(rest) = message.strip_prefix("unknown field `") {
        let key = rest.split('`').next().unwrap_or_default();
        let expected: Vec<&str> = rest.split('`').skip(2).step_by(2).collect();
        let err = source.error_at(
            ErrorKind::Shape,
            pointer,
            Target::Key,
            format!("unknown key `{key}`"),
        );
        return with_expected(err, key, &expected);
    }
    if let Some(rest) = message.strip_prefix("unknown variant `") {
        let value = rest.split('`').next().unwrap_or_default();
        let expected: Vec<&str> = rest.split('`').skip(2).step_by(2).collect();
        let err = source.error_at(
            ErrorKind::Shape,
            pointer,
            Target::Value,
            format!("`{shown}` cannot be `{value}`"),
        );
        return with_expected(err, value, &expected);
    }
    if let Some(rest) = message.strip_prefix("missing field `") {
        let key = rest.split('`').next().unwrap_or_default();
        let place = if shown.is_empty() {
            String::new()
        } else {
            format!(" in `{shown}`")
        };
        return source.error_at(
            ErrorKind::Shape,
            pointer,
            Target::Value,
            format!("missing key `{key}`{place}"),
        );
    }
    let message = match message.strip_prefix("invalid type: ") {
        Some(rest) => {
            let (found, expected) = rest
                .split_once(", expected ")
                .unwrap_or((rest, "another type"));
            let expected = match expected {
                "usize" | "u64" | "u32" => "a non-negative integer",
                "a sequence" => "a list",
                "a boolean" => "`true` or `false`",
                other => other,
            };
            let what = if shown.is_empty() {
                "the value".to_owned()
            } else {
                format!("`{shown}`")
            };
            format!("{what} must be {expected}, found {found}")
        }
        None if shown.is_empty() => message.to_owned(),
        None => format!("`{shown}`: {message}"),
    };
    source.error_at(ErrorKind::Shape, pointer, Target::Value, message)
}

fn with_expected(err: LoadError, found: &str, expected: &[&str]) -> LoadError {
    match did_you_mean(found, expected.iter().copied()) {
        Some(near) => err.with_help(format!("did you mean `{near}`?")),
        None if expected.is_empty() => err,
        None => err.with_help(format!(
            "expected one of {}",
            expected
                .iter()
                .map(|k| format!("`{k}`"))
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

/// Checks that the value at `pointer` is a mapping and, when `items` is given, that every
/// element of its list `items` is one too: serde would otherwise read a list as a struct's
/// fields in order, and a misplaced list would be read silently or reported in terms of field
/// numbers. `what` and `item` name the expected shapes in the message.
pub(crate) fn require_mappings(
    source: &SourceFile,
    value: &Value,
    what: &str,
    items: Option<(&str, &str)>,
) -> Result<(), LoadError> {
    let fail = |pointer: &str, message: String| {
        source.error_at(ErrorKind::Shape, pointer, Target::Value, message)
    };
    let Some(map) = value.as_object() else {
        return Err(fail("", format!("expected {what}")));
    };
    let Some((key, item)) = items else {
        return Ok(());
    };
    if let Some(Value::Array(list)) = map.get(key) {
        for (i, element) in list.iter().enumerate() {
            if !element.is_object() {
                let at = pointer_push(&pointer_push("", key), i);
                return Err(fail(&at, format!("`{key}.{i}` must be {item}")));
            }
        }
    }
    Ok(())
}

/// Moves an error found in a one-line source (a JSON Lines record) to its line of the whole
/// file: `path:LINE:col`, with that line as the snippet.
pub(crate) fn on_line(err: &LoadError, whole: &SourceFile, line: usize) -> LoadError {
    let col = err.position.map_or(1, |p| p.col);
    let moved = LoadError::at(
        err.kind,
        &whole.path,
        &whole.text,
        Position { line, col },
        err.message.clone(),
    );
    match &err.help {
        Some(help) => moved.with_help(help.clone()),
        None => moved,
    }
}
