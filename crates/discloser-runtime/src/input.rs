//! Typing parsed input (trace lines, reach cases) with errors placed on the offending key or
//! value, worded like the config's: keys in backticks, what was expected, a "did you mean" for a
//! misspelt key or value. The typing itself is shared with the config ([`crate::typing`]); this
//! module adds the checks serde cannot make and moves a record's errors to its line.

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::diagnostic::{ErrorKind, LoadError, Position};
use crate::source::{SourceFile, Target, pointer_push};
use crate::typing::Wording;

/// Deserialises `value`, parsed from `source`, into `T`; a mismatch becomes a [`LoadError`] at
/// the key or value at fault, worded as [`Wording::Input`].
pub(crate) fn typed<T: DeserializeOwned>(
    source: &SourceFile,
    value: Value,
) -> Result<T, LoadError> {
    crate::typing::typed(source, value, Wording::Input)
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
