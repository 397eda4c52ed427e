//! Reading the fields of a tool object, whatever its wire format: one reader, so every format
//! words a wrong type, a missing name or an unknown key the same way, at the key or value at
//! fault (`file:line:col`).

use serde_json::{Map, Value};

use super::Format;
use crate::catalog::Parameters;
use crate::diagnostic::{ErrorKind, LoadError, did_you_mean};
use crate::source::{SourceFile, Target, json_kind, pointer_push};

/// Typed access to the fields of one tool, native or foreign, with positioned errors.
pub(crate) struct Fields<'a> {
    pub(crate) source: &'a SourceFile,
    pub(crate) map: &'a Map<String, Value>,
    pub(crate) pointer: &'a str,
    pub(crate) name: &'a str,
    pub(crate) format: Format,
}

impl<'a> Fields<'a> {
    /// The fields of the tool `name` (already read), an object at `pointer` of `source`.
    pub(crate) fn new(
        source: &'a SourceFile,
        map: &'a Map<String, Value>,
        pointer: &'a str,
        name: &'a str,
        format: Format,
    ) -> Fields<'a> {
        Fields {
            source,
            map,
            pointer,
            name,
            format,
        }
    }

    /// The fields of a sub-object of the same tool (`_meta`, one of Docker's arguments).
    pub(crate) fn within<'b>(&self, map: &'b Map<String, Value>, pointer: &'b str) -> Fields<'b>
    where
        'a: 'b,
    {
        Fields::new(self.source, map, pointer, self.name, self.format)
    }

    pub(crate) fn error(&self, key: &str, target: Target, message: String) -> LoadError {
        self.source.error_at(
            ErrorKind::Shape,
            &pointer_push(self.pointer, key),
            target,
            message,
        )
    }

    /// Every key is one of `keys`, or the first that is not is an error with a suggestion.
    pub(crate) fn known_keys(&self, keys: &[&str]) -> Result<(), LoadError> {
        let Some(key) = self.map.keys().find(|k| !keys.contains(&k.as_str())) else {
            return Ok(());
        };
        let err = self.error(
            key,
            Target::Key,
            format!(
                "unknown key `{key}` in {} tool `{}`",
                self.format.label(),
                self.name
            ),
        );
        Err(match did_you_mean(key, keys.iter().copied()) {
            Some(near) => err.with_help(format!("did you mean `{near}`?")),
            None => err.with_help(format!(
                "a {} tool's keys are {}",
                self.format.label(),
                backticked(keys)
            )),
        })
    }

    /// `key` is one of `values` (absent is fine unless `required`).
    pub(crate) fn type_is(
        &self,
        key: &str,
        values: &[&str],
        required: bool,
    ) -> Result<(), LoadError> {
        match self.map.get(key) {
            None if !required => Ok(()),
            Some(Value::String(s)) if values.contains(&s.as_str()) => Ok(()),
            found => {
                let expected = values
                    .iter()
                    .map(|v| format!("`{key}: {v}`"))
                    .collect::<Vec<_>>()
                    .join(" or ");
                let message = match found {
                    Some(v) => format!(
                        "{} tool `{}` must have {expected}, found `{}`",
                        self.format.label(),
                        self.name,
                        value_text(v)
                    ),
                    None => format!(
                        "{} tool `{}` must have {expected}",
                        self.format.label(),
                        self.name
                    ),
                };
                let at = if found.is_some() { key } else { "" };
                Err(if at.is_empty() {
                    self.source
                        .error_at(ErrorKind::Shape, self.pointer, Target::Value, message)
                } else {
                    self.error(at, Target::Value, message)
                })
            }
        }
    }

    pub(crate) fn string(&self, key: &str) -> Result<String, LoadError> {
        match self.map.get(key) {
            None | Some(Value::Null) => Ok(String::new()),
            Some(Value::String(s)) => Ok(s.clone()),
            Some(other) => Err(self.error(
                key,
                Target::Value,
                format!(
                    "`{key}` of tool `{}` must be a string, found {}",
                    self.name,
                    kind_of(other)
                ),
            )),
        }
    }

    pub(crate) fn optional_string(&self, key: &str) -> Result<Option<String>, LoadError> {
        match self.map.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(_) => self.string(key).map(Some),
        }
    }

    pub(crate) fn mapping(&self, key: &str) -> Result<Option<Value>, LoadError> {
        match self.map.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(v @ Value::Object(_)) => Ok(Some(v.clone())),
            Some(other) => Err(self.error(
                key,
                Target::Value,
                format!(
                    "`{key}` of tool `{}` must be a mapping, found {}",
                    self.name,
                    kind_of(other)
                ),
            )),
        }
    }

    pub(crate) fn strings(&self, key: &str) -> Result<Vec<String>, LoadError> {
        match self.map.get(key) {
            None | Some(Value::Null) => Ok(Vec::new()),
            Some(Value::Array(items)) => items
                .iter()
                .enumerate()
                .map(|(i, item)| match item {
                    Value::String(s) => Ok(s.clone()),
                    other => Err(self.source.error_at(
                        ErrorKind::Shape,
                        &format!("{}/{i}", pointer_push(self.pointer, key)),
                        Target::Value,
                        format!(
                            "`{key}` of tool `{}` must hold strings, found {}",
                            self.name,
                            kind_of(other)
                        ),
                    )),
                })
                .collect(),
            Some(other) => Err(self.error(
                key,
                Target::Value,
                format!(
                    "`{key}` of tool `{}` must be a list of strings, found {}",
                    self.name,
                    kind_of(other)
                ),
            )),
        }
    }

    pub(crate) fn bool(&self, key: &str) -> Result<bool, LoadError> {
        match self.map.get(key) {
            None | Some(Value::Null) => Ok(false),
            Some(Value::Bool(b)) => Ok(*b),
            Some(other) => {
                let err = self.error(
                    key,
                    Target::Value,
                    format!(
                        "`{key}` of tool `{}` must be `true` or `false`, found {}",
                        self.name,
                        kind_of(other)
                    ),
                );
                Err(match other {
                    Value::String(s) => self.source.syntax.with_boolean_help(err, key, s),
                    _ => err,
                })
            }
        }
    }

    pub(crate) fn budget(&self, key: &str) -> Result<Option<usize>, LoadError> {
        match self.map.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Number(n)) if n.as_u64().is_some_and(|n| n > 0) => {
                Ok(n.as_u64().map(|n| usize::try_from(n).unwrap_or(usize::MAX)))
            }
            Some(other) => Err(self.error(
                key,
                Target::Value,
                format!(
                    "`{key}` of tool `{}` must be a positive integer, found {}",
                    self.name,
                    kind_of(other)
                ),
            )),
        }
    }

    /// The native `parameters`, packed straight from the parsed document (no copy of it).
    pub(crate) fn parameters(&self) -> Result<Parameters, LoadError> {
        match self.map.get("parameters") {
            None | Some(Value::Null) => Ok(Parameters::packed_from(&empty_schema())),
            Some(v @ Value::Object(_)) => Ok(Parameters::packed_from(v)),
            Some(other) => Err(self.error(
                "parameters",
                Target::Value,
                format!(
                    "`parameters` of tool `{}` must be a JSON Schema object, found {}",
                    self.name,
                    kind_of(other)
                ),
            )),
        }
    }

    /// The JSON Schema at `key` (an empty object schema when absent), packed straight from the
    /// parsed document.
    pub(crate) fn schema(&self, key: &str) -> Result<Parameters, LoadError> {
        match self.map.get(key) {
            Some(v @ Value::Object(_)) => Ok(Parameters::packed_from(v)),
            _ => Ok(Parameters::packed_from(
                &self.mapping(key)?.unwrap_or_else(empty_schema),
            )),
        }
    }
}

/// The schema of a tool that declares none.
pub(crate) fn empty_schema() -> Value {
    serde_json::json!({"type": "object", "properties": {}})
}

/// The `name` of the tool object `map` at `pointer`: a non-empty string, whatever the format.
pub(crate) fn name_of(
    source: &SourceFile,
    map: &Map<String, Value>,
    pointer: &str,
) -> Result<String, LoadError> {
    let error = |at: &str, message: String| {
        source.error_at(
            ErrorKind::Shape,
            &format!("{pointer}{at}"),
            Target::Value,
            message,
        )
    };
    match map.get("name") {
        Some(Value::String(s)) if !s.trim().is_empty() => Ok(s.clone()),
        Some(Value::String(_)) => Err(error("/name", "tool `name` is empty".into())),
        Some(other) => Err(error(
            "/name",
            format!("tool `name` must be a string, found {}", kind_of(other)),
        )),
        None => Err(error("", "tool has no `name`".into())),
    }
}

/// "a string", "a list", ... for messages: [`json_kind`], with an object called "a mapping", as
/// a catalog may be YAML.
pub fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Object(_) => "a mapping",
        other => json_kind(other),
    }
}

/// `a`, `b`, `c`, for help lines.
pub(crate) fn backticked(keys: &[&str]) -> String {
    keys.iter()
        .map(|k| format!("`{k}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

pub(crate) fn value_text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}
