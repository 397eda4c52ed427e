//! How a tool definition is serialised for a provider, because that is what is paid for.
//!
//! Compact JSON, keys in a fixed order, the tool's own text and schema as written (object key
//! order preserved), so the same catalog always gives the same bytes.

use serde_json::{Map, Value};

/// A provider's wire format for one tool definition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum Provider {
    /// `{"name","description","parameters"}`.
    Raw,
    /// OpenAI Chat Completions: `{"type":"function","function":{"name","description","parameters"}}`.
    Openai,
    /// Anthropic Messages: `{"name","description","input_schema"}`.
    Anthropic,
    /// MCP `tools/list`: `{"name","description","inputSchema"}`.
    Mcp,
}

impl Provider {
    /// Every provider, in order.
    pub const ALL: [Provider; 4] = [
        Provider::Raw,
        Provider::Openai,
        Provider::Anthropic,
        Provider::Mcp,
    ];

    /// The provider named `name` (as [`Provider::as_str`] gives it).
    pub fn from_name(name: &str) -> Option<Provider> {
        Provider::ALL.into_iter().find(|p| p.as_str() == name)
    }

    /// The provider's name as given on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            Provider::Raw => "raw",
            Provider::Openai => "openai",
            Provider::Anthropic => "anthropic",
            Provider::Mcp => "mcp",
        }
    }

    /// The definition as a JSON value in this provider's shape.
    pub fn definition(self, name: &str, description: &str, parameters: &Value) -> Value {
        let mut map = Map::new();
        map.insert("name".into(), name.into());
        map.insert("description".into(), description.into());
        let schema_key = match self {
            Provider::Raw | Provider::Openai => "parameters",
            Provider::Anthropic => "input_schema",
            Provider::Mcp => "inputSchema",
        };
        map.insert(schema_key.into(), parameters.clone());
        match self {
            Provider::Openai => {
                let mut outer = Map::new();
                outer.insert("type".into(), "function".into());
                outer.insert("function".into(), Value::Object(map));
                Value::Object(outer)
            }
            _ => Value::Object(map),
        }
    }

    /// The definition as the compact JSON text that is sent.
    pub fn serialize(self, name: &str, description: &str, parameters: &Value) -> String {
        self.definition(name, description, parameters).to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn shapes_are_exact_and_compact() {
        let p = json!({"type": "object", "properties": {"b": {"type": "string"}, "a": {}}});
        assert_eq!(
            Provider::Raw.serialize("t", "D.", &p),
            r#"{"name":"t","description":"D.","parameters":{"type":"object","properties":{"b":{"type":"string"},"a":{}}}}"#
        );
        assert_eq!(
            Provider::Openai.serialize("t", "D.", &json!({})),
            r#"{"type":"function","function":{"name":"t","description":"D.","parameters":{}}}"#
        );
        assert_eq!(
            Provider::Anthropic.serialize("t", "", &json!({})),
            r#"{"name":"t","description":"","input_schema":{}}"#
        );
        assert_eq!(
            Provider::Mcp.serialize("t", "", &json!({})),
            r#"{"name":"t","description":"","inputSchema":{}}"#
        );
    }
}
