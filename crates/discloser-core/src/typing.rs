//! Typing a parsed value (`discloser.yaml`, trace lines, reach cases) with serde, and rewording
//! serde's errors into discloser's: placed on the key or value at fault (`file:line:col`), keys
//! in backticks, what was expected, a "did you mean" for a misspelt key or value.
//!
//! The config and the runtime inputs word a few errors differently ([`Wording`]); the messages
//! are pinned by tests, so each difference is kept exactly.

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::diagnostic::{ErrorKind, LoadError, did_you_mean};
use crate::source::{SourceFile, Target, pointer_push};

/// Which kind of input is typed, for the few errors they word differently.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Wording {
    /// `discloser.yaml`: an unknown key names its section (``unknown key `x` in `index` ``);
    /// an unknown value or a missing key keeps serde's words after the path.
    Config,
    /// Trace lines and reach cases: an unknown value (`` `a.b` cannot be `x` ``) and a missing
    /// key (``missing key `k` in `a` ``) are reworded too, and a mismatch of the whole value
    /// names "the value".
    Input,
}

/// Deserialises `value`, parsed from `source`, into `T`; a mismatch becomes a [`LoadError`] of
/// kind [`ErrorKind::Shape`] at the key or value at fault.
pub fn typed<T: DeserializeOwned>(
    source: &SourceFile,
    value: Value,
    wording: Wording,
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
        reword(source, &pointer, &e.into_inner().to_string(), wording)
    })
}

/// A JSON pointer as the dotted path shown in messages: `/a/0/b` is `a.0.b`.
fn dotted(pointer: &str) -> String {
    pointer.trim_start_matches('/').replace('/', ".")
}

/// Rewrites serde's wording of the error at `pointer` into discloser's.
fn reword(source: &SourceFile, pointer: &str, message: &str, wording: Wording) -> LoadError {
    let shown = dotted(pointer);
    if let Some(rest) = message.strip_prefix("unknown field `") {
        let key = rest.split('`').next().unwrap_or_default();
        let expected: Vec<&str> = rest.split('`').skip(2).step_by(2).collect();
        let section = dotted(pointer.rsplit_once('/').map_or("", |(parent, _)| parent));
        let place = match wording {
            Wording::Config if !section.is_empty() => format!(" in `{section}`"),
            _ => String::new(),
        };
        let err = source.error_at(
            ErrorKind::Shape,
            pointer,
            Target::Key,
            format!("unknown key `{key}`{place}"),
        );
        return with_expected(err, key, &expected);
    }
    if wording == Wording::Input {
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
            let what = if shown.is_empty() && wording == Wording::Input {
                "the value".to_owned()
            } else {
                format!("`{shown}`")
            };
            let err = source.error_at(
                ErrorKind::Shape,
                pointer,
                Target::Value,
                format!("{what} must be {expected}, found {found}"),
            );
            let key = pointer.rsplit('/').next().unwrap_or_default();
            let word = found
                .strip_prefix("string \"")
                .and_then(|w| w.strip_suffix('"'));
            return match word.filter(|_| expected == "`true` or `false`") {
                Some(word) => source.syntax.with_boolean_help(err, key, word),
                None => err,
            };
        }
        None if shown.is_empty() => message.to_owned(),
        None => format!("`{shown}`: {message}"),
    };
    source.error_at(ErrorKind::Shape, pointer, Target::Value, message)
}

/// Adds "did you mean" for the nearest of `expected`, or else lists them all.
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
