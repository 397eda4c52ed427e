//! OpenAI's three shapes of a function tool.
//!
//! - Chat Completions: `{"type": "function", "function": {name, description, parameters,
//!   strict}}`, as in a request's `tools`.
//! - Responses: the same fields flat, `{"type": "function", name, description, parameters,
//!   strict}`.
//! - The legacy `functions` array: `{name, description, parameters}`, as in BFCL, whose files
//!   also carry a `response` schema and use `"type": "dict"` (kept as written: the index shows
//!   such types as they are).
//!
//! `strict` and `response` do not change what the index shows and are not kept.

use serde_json::{Map, Value};

use super::name_of;
use super::provider::Definition;
use super::{Declaration, Fields, Format, Shape};
use crate::catalog::Tool;
use crate::diagnostic::{ErrorKind, LoadError};
use crate::source::{SourceFile, Target, pointer_push};

/// A legacy `functions` entry.
pub(super) const FUNCTIONS: Shape = Shape {
    format: Format::OpenaiFunctions,
    keys: &["name", "description", "parameters", "response"],
    schema_keys: &["parameters"],
};

/// A Responses API function tool.
const RESPONSES: Shape = Shape {
    format: Format::OpenaiResponses,
    keys: &[
        "type",
        "name",
        "description",
        "parameters",
        "strict",
        "defer_loading",
    ],
    schema_keys: &["parameters"],
};

/// A legacy `functions` entry, for detection.
pub(super) const FUNCTIONS_DECLARATION: Declaration = Declaration::of(&FUNCTIONS);

/// A Responses API tool, for detection: `type: function` and flat keys.
pub(super) const RESPONSES_DECLARATION: Declaration = Declaration {
    type_tags: &["function"],
    ..Declaration::of(&RESPONSES)
};

/// The keys of a Chat Completions tool; its name and schema are in `function`.
const CHAT_KEYS: &[&str] = &["type", "function"];

/// A Chat Completions tool, for detection: `{type: function, function: {...}}`.
pub(super) const CHAT_DECLARATION: Declaration = Declaration {
    format: Format::Openai,
    keys: CHAT_KEYS,
    type_tags: &["function"],
    claims: None,
};

/// The `function` object of a Chat Completions tool.
const CHAT_FUNCTION: Shape = Shape {
    format: Format::Openai,
    keys: &["name", "description", "parameters", "strict"],
    schema_keys: &["parameters"],
};

/// Reads a Responses API tool.
pub(super) fn read_responses(
    source: &SourceFile,
    map: &Map<String, Value>,
    pointer: &str,
    file: usize,
) -> Result<Tool, LoadError> {
    let name = name_of(source, map, pointer)?;
    let fields = Fields::new(source, map, pointer, &name, Format::OpenaiResponses);
    fields.type_is("type", &["function"], true)?;
    RESPONSES.read(source, map, pointer, file)
}

/// Reads a Chat Completions tool; its origin is the inner `function` object.
pub(super) fn read_chat(
    source: &SourceFile,
    map: &Map<String, Value>,
    pointer: &str,
    file: usize,
) -> Result<Tool, LoadError> {
    let error = |at: &str, target: Target, message: String| {
        source.error_at(
            ErrorKind::Shape,
            &pointer_push(pointer, at),
            target,
            message,
        )
    };
    if let Some(key) = map.keys().find(|k| !CHAT_KEYS.contains(&k.as_str())) {
        return Err(error(
            key,
            Target::Key,
            format!("unknown key `{key}` in an OpenAI Chat Completions tool")
        )
        .with_help("a Chat Completions tool is `{type: function, function: {name, description, parameters}}`; \
                    for the flat Responses shape, name the source's `format: openai-responses`"));
    }
    match map.get("type") {
        Some(Value::String(t)) if t == "function" => {}
        Some(other) => {
            return Err(error(
                "type",
                Target::Value,
                format!(
                    "an OpenAI Chat Completions tool has `type: function`, found `{}`",
                    super::value_text(other)
                ),
            ));
        }
        None => {
            return Err(source.error_at(
                ErrorKind::Shape,
                pointer,
                Target::Value,
                "an OpenAI Chat Completions tool has `type: function` and a `function` mapping"
                    .to_owned(),
            ));
        }
    }
    let inner = pointer_push(pointer, "function");
    match map.get("function") {
        Some(Value::Object(function)) => CHAT_FUNCTION.read(source, function, &inner, file),
        Some(other) => Err(error(
            "function",
            Target::Value,
            format!(
                "`function` must be a mapping with `name`, `description` and `parameters`, found {}",
                super::kind_of(other)
            ),
        )),
        None => Err(source.error_at(
            ErrorKind::Shape,
            pointer,
            Target::Value,
            "an OpenAI Chat Completions tool has no `function`".to_owned(),
        )),
    }
}

/// A Chat Completions tool: `{"type":"function","function":{"name","description","parameters"}}`.
pub(super) fn chat_tool(tool: &Definition<'_>) -> Value {
    let mut function = Map::new();
    function.insert("name".into(), tool.name.into());
    function.insert("description".into(), tool.description.into());
    function.insert("parameters".into(), tool.parameters.clone());
    let mut outer = Map::new();
    outer.insert("type".into(), "function".into());
    outer.insert("function".into(), Value::Object(function));
    Value::Object(outer)
}

/// A Responses tool: `{"type":"function","name","description","parameters","strict":false}`.
///
/// `strict` defaults to `true` in the Responses API, which rejects schemas with optional
/// properties; `false` keeps the meaning the definition has everywhere else.
pub(super) fn responses_tool(tool: &Definition<'_>) -> Value {
    let mut map = Map::new();
    map.insert("type".into(), "function".into());
    map.insert("name".into(), tool.name.into());
    map.insert("description".into(), tool.description.into());
    map.insert("parameters".into(), tool.parameters.clone());
    map.insert("strict".into(), false.into());
    Value::Object(map)
}
