//! Anthropic's tool shape: `{name, description, input_schema}`, as in a Messages request's
//! `tools` (a whole request body, with `model`, `messages` and the rest beside `tools`, reads
//! too). `cache_control`, `strict`, `input_examples` and `defer_loading` are accepted and not
//! kept; server tools (`type: web_search_20250305`, ...) are refused, not skipped.

use serde_json::{Map, Value};

use super::provider::Definition;
use super::{Declaration, Format, Shape};

/// An Anthropic tool.
pub(super) const SHAPE: Shape = Shape {
    format: Format::Anthropic,
    keys: &[
        "type",
        "name",
        "description",
        "input_schema",
        "cache_control",
        "strict",
        "input_examples",
        "defer_loading",
        "eager_input_streaming",
    ],
    schema_keys: &["input_schema"],
};

/// An Anthropic tool, for detection: `type: custom` marks one.
pub(super) const DECLARATION: Declaration = Declaration {
    type_tags: &["custom"],
    ..Declaration::of(&SHAPE)
};

/// An Anthropic tool: `{"name","description","input_schema"}`.
pub(super) fn tool(tool: &Definition<'_>) -> Value {
    let mut map = Map::new();
    map.insert("name".into(), tool.name.into());
    map.insert("description".into(), tool.description.into());
    map.insert("input_schema".into(), tool.parameters.clone());
    Value::Object(map)
}
