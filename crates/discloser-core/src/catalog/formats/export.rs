//! Tool definitions as a provider's request expects them.
//!
//! The value is exactly the request's `tools` field (for MCP, the `tools/list` result): keys in
//! the provider's documented order, tools in the order given (the catalog's, by name), schemas
//! as written with their key order. Reading the output back gives the same tools (name,
//! description, schema, MCP title and annotations); the tests check that for every target.

use serde_json::{Map, Value};

use super::{anthropic, gemini, mcp, openai};
use crate::catalog::Tool;

/// A provider's request format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum ExportTarget {
    /// OpenAI Chat Completions `tools`: `[{"type":"function","function":{...}}]`.
    Openai,
    /// OpenAI Responses `tools`: `[{"type":"function","name",...,"strict":false}]`.
    OpenaiResponses,
    /// Anthropic Messages `tools`: `[{"name","description","input_schema"}]`.
    Anthropic,
    /// An MCP `tools/list` result: `{"tools":[{"name","title"?,"description","inputSchema","annotations"?}]}`.
    Mcp,
    /// Gemini `tools`: `[{"functionDeclarations":[...]}]`.
    Gemini,
}

impl ExportTarget {
    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            ExportTarget::Openai => "openai",
            ExportTarget::OpenaiResponses => "openai-responses",
            ExportTarget::Anthropic => "anthropic",
            ExportTarget::Mcp => "mcp",
            ExportTarget::Gemini => "gemini",
        }
    }
}

/// The request's `tools` value for these tools (for MCP, the whole `tools/list` result).
pub fn tools_value(target: ExportTarget, tools: &[&Tool]) -> Value {
    let list = |f: fn(&Tool) -> Value| Value::Array(tools.iter().map(|t| f(t)).collect());
    match target {
        ExportTarget::Openai => list(openai::chat_tool),
        ExportTarget::OpenaiResponses => list(openai::responses_tool),
        ExportTarget::Anthropic => list(anthropic::tool),
        ExportTarget::Mcp => {
            let mut result = Map::new();
            result.insert("tools".into(), list(mcp::tool));
            Value::Object(result)
        }
        ExportTarget::Gemini if tools.is_empty() => Value::Array(Vec::new()),
        ExportTarget::Gemini => {
            let mut tool = Map::new();
            tool.insert("functionDeclarations".into(), list(gemini::declaration));
            Value::Array(vec![Value::Object(tool)])
        }
    }
}

/// The document `discloser export` prints: the `tools` value alone, or with `index` as
/// `{"tools": ..., "index": "..."}` (for MCP, `tools` is then the list itself).
pub fn document(target: ExportTarget, tools: &[&Tool], index: Option<&str>) -> Value {
    let value = tools_value(target, tools);
    let Some(index) = index else {
        return value;
    };
    let tools = match (target, value) {
        (ExportTarget::Mcp, Value::Object(mut result)) => {
            result.remove("tools").unwrap_or(Value::Array(Vec::new()))
        }
        (_, value) => value,
    };
    let mut map = Map::new();
    map.insert("tools".into(), tools);
    map.insert("index".into(), index.into());
    Value::Object(map)
}

/// The first `$ref` of `schema` that points into another file (a provider cannot follow it).
pub fn file_ref(schema: &Value) -> Option<&str> {
    let mut stack = vec![schema];
    while let Some(node) = stack.pop() {
        match node {
            Value::Object(map) => {
                if let Some(Value::String(reference)) = map.get("$ref")
                    && !reference.starts_with('#')
                {
                    return Some(reference);
                }
                for (key, child) in map {
                    if !matches!(
                        key.as_str(),
                        "enum" | "const" | "default" | "examples" | "example"
                    ) {
                        stack.push(child);
                    }
                }
            }
            Value::Array(items) => stack.extend(items),
            _ => {}
        }
    }
    None
}
