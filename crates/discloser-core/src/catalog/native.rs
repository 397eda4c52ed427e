//! The native tool format: YAML or JSON holding one tool, a list of tools, or `{tools: [...]}`.
//!
//! A tool has `name`, `description`, `parameters` (a JSON Schema object), `triggers`, and the
//! optional `core`, `summary_budget`, `lint_ignore`, `title` and `annotations` (the last two as
//! MCP defines them, so an imported MCP tool keeps them). Any other key is an error, because a
//! misspelt `trigers:` would otherwise silently produce a tool without triggers.

use serde_json::{Map, Value};

use super::formats::Format;
use super::{Origin, Tool};
use crate::diagnostic::LoadError;
use crate::diagnostic::{ErrorKind, did_you_mean};
use crate::source::{SourceFile, Target, pointer_push};

/// The keys a native tool may have.
pub const TOOL_KEYS: &[&str] = &[
    "name",
    "description",
    "parameters",
    "triggers",
    "core",
    "summary_budget",
    "lint_ignore",
    "title",
    "annotations",
];

/// Interprets a parsed file as native tools.
pub fn parse_tools(
    source: &SourceFile,
    value: &Value,
    file: usize,
) -> Result<Vec<Tool>, LoadError> {
    match value {
        Value::Array(items) => items
            .iter()
            .enumerate()
            .map(|(i, item)| parse_tool(source, item, file, pointer_push("", i)))
            .collect(),
        Value::Object(map) if map.contains_key("tools") && !map.contains_key("name") => {
            if let Some(extra) = map.keys().find(|k| *k != "tools") {
                return Err(source.error_at(
                    ErrorKind::Shape,
                    &pointer_push("", extra),
                    Target::Key,
                    format!("unknown key `{extra}` beside `tools`; a file holds one tool, a list of tools, or `{{tools: [...]}}`"),
                ));
            }
            match &map["tools"] {
                Value::Array(items) => items
                    .iter()
                    .enumerate()
                    .map(|(i, item)| parse_tool(source, item, file, format!("/tools/{i}")))
                    .collect(),
                other => Err(source.error_at(
                    ErrorKind::Shape,
                    "/tools",
                    Target::Value,
                    format!("`tools` must be a list of tools, found {}", kind_of(other)),
                )),
            }
        }
        Value::Object(_) => parse_tool(source, value, file, String::new()).map(|t| vec![t]),
        other => Err(source.error_at(
            ErrorKind::Shape,
            "",
            Target::Value,
            format!(
                "expected a tool (a mapping with `name`), a list of tools, or `{{tools: [...]}}` (in discloser's format, or OpenAI's, Anthropic's, MCP's or Gemini's), found {}",
                kind_of(other)
            ),
        )),
    }
}

/// Reads one native tool at `pointer`.
pub(super) fn parse_tool(
    source: &SourceFile,
    value: &Value,
    file: usize,
    pointer: String,
) -> Result<Tool, LoadError> {
    let shape_error = |at: &str, target: Target, message: String| {
        source.error_at(ErrorKind::Shape, &format!("{pointer}{at}"), target, message)
    };
    let Value::Object(map) = value else {
        return Err(shape_error(
            "",
            Target::Value,
            format!(
                "expected a tool (a mapping with `name`), found {}",
                kind_of(value)
            ),
        ));
    };
    let name = name_of(source, map, &pointer)?;
    if let Some(key) = map.keys().find(|k| !TOOL_KEYS.contains(&k.as_str())) {
        let mut err = shape_error(
            &pointer_push("", key),
            Target::Key,
            format!("unknown key `{key}` in tool `{name}`"),
        );
        err = match did_you_mean(key, TOOL_KEYS.iter().copied()) {
            Some(near) => err.with_help(format!("did you mean `{near}`?")),
            None => err.with_help(format!("a tool's keys are {}", backticked(TOOL_KEYS))),
        };
        return Err(err);
    }
    let field = Field {
        source,
        map,
        pointer: &pointer,
        name: &name,
    };
    Ok(Tool {
        description: field.string("description")?,
        parameters: field.parameters()?,
        triggers: field.strings("triggers")?,
        core: field.bool("core")?,
        summary_budget: field.budget("summary_budget")?,
        lint_ignore: field.strings("lint_ignore")?,
        title: field.optional_string("title")?,
        annotations: field.mapping("annotations")?,
        origin: Origin {
            file,
            pointer: pointer.clone(),
            format: Format::Native,
            schema_key: "parameters",
        },
        name,
    })
}

/// The `name` of the tool object `map` at `pointer`: a non-empty string, whatever the format.
pub(super) fn name_of(
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

/// Typed access to one tool's fields, with positioned errors.
struct Field<'a> {
    source: &'a SourceFile,
    map: &'a Map<String, Value>,
    pointer: &'a str,
    name: &'a str,
}

impl Field<'_> {
    fn error(&self, key: &str, message: String) -> LoadError {
        self.source.error_at(
            ErrorKind::Shape,
            &pointer_push(self.pointer, key),
            Target::Value,
            message,
        )
    }

    fn string(&self, key: &str) -> Result<String, LoadError> {
        match self.map.get(key) {
            None | Some(Value::Null) => Ok(String::new()),
            Some(Value::String(s)) => Ok(s.clone()),
            Some(other) => Err(self.error(
                key,
                format!(
                    "`{key}` of tool `{}` must be a string, found {}",
                    self.name,
                    kind_of(other)
                ),
            )),
        }
    }

    fn optional_string(&self, key: &str) -> Result<Option<String>, LoadError> {
        match self.map.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(_) => self.string(key).map(Some),
        }
    }

    fn mapping(&self, key: &str) -> Result<Option<Value>, LoadError> {
        match self.map.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(v @ Value::Object(_)) => Ok(Some(v.clone())),
            Some(other) => Err(self.error(
                key,
                format!(
                    "`{key}` of tool `{}` must be a mapping, found {}",
                    self.name,
                    kind_of(other)
                ),
            )),
        }
    }

    fn strings(&self, key: &str) -> Result<Vec<String>, LoadError> {
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
                format!(
                    "`{key}` of tool `{}` must be a list of strings, found {}",
                    self.name,
                    kind_of(other)
                ),
            )),
        }
    }

    fn bool(&self, key: &str) -> Result<bool, LoadError> {
        match self.map.get(key) {
            None | Some(Value::Null) => Ok(false),
            Some(Value::Bool(b)) => Ok(*b),
            Some(other) => Err(self.error(
                key,
                format!(
                    "`{key}` of tool `{}` must be `true` or `false`, found {}",
                    self.name,
                    kind_of(other)
                ),
            )),
        }
    }

    fn budget(&self, key: &str) -> Result<Option<usize>, LoadError> {
        match self.map.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Number(n)) if n.as_u64().is_some_and(|n| n > 0) => {
                Ok(n.as_u64().map(|n| usize::try_from(n).unwrap_or(usize::MAX)))
            }
            Some(other) => Err(self.error(
                key,
                format!(
                    "`{key}` of tool `{}` must be a positive integer, found {}",
                    self.name,
                    kind_of(other)
                ),
            )),
        }
    }

    fn parameters(&self) -> Result<Value, LoadError> {
        match self.map.get("parameters") {
            None | Some(Value::Null) => Ok(serde_json::json!({"type": "object", "properties": {}})),
            Some(v @ Value::Object(_)) => Ok(v.clone()),
            Some(other) => Err(self.error(
                "parameters",
                format!(
                    "`parameters` of tool `{}` must be a JSON Schema object, found {}",
                    self.name,
                    kind_of(other)
                ),
            )),
        }
    }
}

/// "a string", "a list", ... for messages.
pub fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "a mapping",
    }
}

/// `a`, `b`, `c`, for help lines.
pub(super) fn backticked(keys: &[&str]) -> String {
    keys.iter()
        .map(|k| format!("`{k}`"))
        .collect::<Vec<_>>()
        .join(", ")
}
