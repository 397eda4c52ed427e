//! Tool definitions as a provider's request expects them.
//!
//! The value is exactly the request's `tools` field (for MCP, the `tools/list` result): keys in
//! the provider's documented order, tools in the order given (the catalog's, by name), schemas
//! as written with their key order. Reading the output back gives the same tools (name,
//! description, schema, MCP title and annotations); the tests check that for every target.

use serde_json::{Map, Value};

use super::provider::{Definition, Provider};
use crate::catalog::Tool;

/// The request's `tools` value for these tools (for MCP, the whole `tools/list` result).
pub fn tools_value(target: Provider, tools: &[&Tool]) -> Value {
    let definitions: Vec<Definition<'_>> = tools.iter().map(|t| Definition::of(t)).collect();
    target.tools_value(&definitions)
}

/// The document `discloser export` prints: the `tools` value alone, or with `index` as
/// `{"tools": ..., "index": "..."}` (for MCP, `tools` is then the list itself).
pub fn document(target: Provider, tools: &[&Tool], index: Option<&str>) -> Value {
    let value = tools_value(target, tools);
    let Some(index) = index else {
        return value;
    };
    let tools = match (target, value) {
        (Provider::Mcp, Value::Object(mut result)) => {
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
