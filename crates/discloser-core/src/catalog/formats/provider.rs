//! The provider wire shapes: one enum, taken by every command that writes tool definitions for
//! a provider (`cost`, `export`, `snapshot`, `check`, `diff`, `suggest`), and one writer per
//! shape, owned by that format's module.
//!
//! A definition is compact JSON, keys in the provider's documented order, the tool's own text
//! and schema as written (object key order preserved), so the same catalog always gives the
//! same bytes.

use serde_json::{Map, Value};

use super::{anthropic, gemini, mcp, openai};
use crate::catalog::Tool;

/// A provider's wire format for tool definitions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum Provider {
    /// `{"name","description","parameters"}`.
    Raw,
    /// OpenAI Chat Completions: `{"type":"function","function":{"name","description","parameters"}}`.
    Openai,
    /// OpenAI Responses: `{"type":"function","name","description","parameters","strict":false}`.
    OpenaiResponses,
    /// Anthropic Messages: `{"name","description","input_schema"}`.
    Anthropic,
    /// MCP `tools/list`: `{"name","title"?,"description","inputSchema","annotations"?,"_meta"?}`.
    Mcp,
    /// Gemini function declarations: `{"name","description","parameters"}` with Gemini's
    /// OpenAPI-subset schema, or `parametersJsonSchema` when the schema does not fit it.
    Gemini,
}

/// What a definition is made of.
#[derive(Clone, Copy, Debug)]
pub struct Definition<'a> {
    /// The tool's name.
    pub name: &'a str,
    /// The tool's description, as written.
    pub description: &'a str,
    /// The input schema.
    pub parameters: &'a Value,
    /// MCP's `title`, written by the MCP shape only.
    pub title: Option<&'a str>,
    /// MCP's `annotations`, written by the MCP shape only.
    pub annotations: Option<&'a Value>,
    /// The trigger words, written by the MCP shape only (in `_meta`, which no model sees).
    pub triggers: &'a [String],
}

impl<'a> Definition<'a> {
    /// Everything the catalog knows of `tool`, with `parameters` for its schema (the one
    /// [`crate::catalog::Catalog::bundled`] gives, or a copy from `Parameters::with`: a tool
    /// keeps its schema packed).
    pub fn of(tool: &'a Tool, parameters: &'a Value) -> Definition<'a> {
        Definition {
            name: &tool.name,
            description: &tool.description,
            parameters,
            title: tool.title.as_deref(),
            annotations: tool.annotations.as_ref(),
            triggers: &tool.triggers,
        }
    }

    /// A name, a description and a schema, nothing else.
    pub fn bare(name: &'a str, description: &'a str, parameters: &'a Value) -> Definition<'a> {
        Definition {
            name,
            description,
            parameters,
            title: None,
            annotations: None,
            triggers: &[],
        }
    }
}

impl Provider {
    /// Every provider, in order.
    pub const ALL: [Provider; 6] = [
        Provider::Raw,
        Provider::Openai,
        Provider::OpenaiResponses,
        Provider::Anthropic,
        Provider::Mcp,
        Provider::Gemini,
    ];

    /// The provider's name as given on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            Provider::Raw => "raw",
            Provider::Openai => "openai",
            Provider::OpenaiResponses => "openai-responses",
            Provider::Anthropic => "anthropic",
            Provider::Mcp => "mcp",
            Provider::Gemini => "gemini",
        }
    }

    /// The provider named `name` (as [`Provider::as_str`] gives it).
    pub fn from_name(name: &str) -> Option<Provider> {
        Provider::ALL.into_iter().find(|p| p.as_str() == name)
    }

    /// One tool's definition as a JSON value in this provider's shape.
    pub fn definition(self, def: &Definition<'_>) -> Value {
        match self {
            Provider::Raw => raw(def),
            Provider::Openai => openai::chat_tool(def),
            Provider::OpenaiResponses => openai::responses_tool(def),
            Provider::Anthropic => anthropic::tool(def),
            Provider::Mcp => mcp::tool(def),
            Provider::Gemini => gemini::declaration(def),
        }
    }

    /// A bare definition ([`Definition::bare`]) as the compact JSON text that is sent.
    pub fn serialize(self, name: &str, description: &str, parameters: &Value) -> String {
        self.definition(&Definition::bare(name, description, parameters))
            .to_string()
    }

    /// The request's `tools` value for these definitions: a list of them, except for MCP (the
    /// whole `tools/list` result, `{"tools": [...]}`) and Gemini (one tool object holding
    /// `functionDeclarations`, or no tool object for no declarations).
    pub fn tools_value(self, definitions: &[Definition<'_>]) -> Value {
        let list = || Value::Array(definitions.iter().map(|d| self.definition(d)).collect());
        match self {
            Provider::Mcp => {
                let mut result = Map::new();
                result.insert("tools".into(), list());
                Value::Object(result)
            }
            Provider::Gemini if definitions.is_empty() => Value::Array(Vec::new()),
            Provider::Gemini => {
                let mut tool = Map::new();
                tool.insert("functionDeclarations".into(), list());
                Value::Array(vec![Value::Object(tool)])
            }
            _ => list(),
        }
    }
}

/// discloser's own minimal shape: `{"name","description","parameters"}`.
fn raw(def: &Definition<'_>) -> Value {
    let mut map = Map::new();
    map.insert("name".into(), def.name.into());
    map.insert("description".into(), def.description.into());
    map.insert("parameters".into(), def.parameters.clone());
    Value::Object(map)
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
            Provider::OpenaiResponses.serialize("t", "D.", &json!({})),
            r#"{"type":"function","name":"t","description":"D.","parameters":{},"strict":false}"#
        );
        assert_eq!(
            Provider::Anthropic.serialize("t", "", &json!({})),
            r#"{"name":"t","description":"","input_schema":{}}"#
        );
        assert_eq!(
            Provider::Mcp.serialize("t", "", &json!({})),
            r#"{"name":"t","description":"","inputSchema":{}}"#
        );
        assert_eq!(
            Provider::Gemini.serialize("t", "", &json!({"type": "object"})),
            r#"{"name":"t","description":"","parameters":{"type":"OBJECT"}}"#
        );
    }

    #[test]
    fn names_round_trip() {
        for p in Provider::ALL {
            assert_eq!(Provider::from_name(p.as_str()), Some(p));
        }
        assert_eq!(Provider::from_name("claude"), None);
    }
}
