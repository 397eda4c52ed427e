//! Tool definitions as a provider's request expects them.
//!
//! The value is exactly the request's `tools` field (for MCP, the `tools/list` result): keys in
//! the provider's documented order, tools in the order given (the catalog's, by name), schemas
//! as written with their key order, except that references into other files are bundled into
//! the tool's `$defs` ([`Catalog::bundled`]). Reading the output back gives the same tools (name,
//! description, schema, MCP title and annotations); the tests check that for every target.

use serde_json::{Map, Value};

use super::provider::{Definition, Provider};
use crate::catalog::Catalog;

/// The request's `tools` value for the tools at these positions of [`Catalog::tools`] (for
/// MCP, the whole `tools/list` result). Each schema is the one [`Catalog::bundled`] gives:
/// references into other files are bundled into the tool's `$defs`, since no provider can
/// follow them.
pub fn tools_value(target: Provider, catalog: &Catalog, tools: &[usize]) -> Value {
    let schemas: Vec<_> = tools.iter().map(|&i| catalog.bundled(i)).collect();
    let definitions: Vec<Definition<'_>> = tools
        .iter()
        .zip(&schemas)
        .map(|(&i, schema)| Definition::of(&catalog.tools[i], schema))
        .collect();
    target.tools_value(&definitions)
}

/// The document `discloser export` prints: the `tools` value alone, or with `index` as
/// `{"tools": ..., "index": "..."}` (for MCP, `tools` is then the list itself).
pub fn document(
    target: Provider,
    catalog: &Catalog,
    tools: &[usize],
    index: Option<&str>,
) -> Value {
    let value = tools_value(target, catalog, tools);
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
