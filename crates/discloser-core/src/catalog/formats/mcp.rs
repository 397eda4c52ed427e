//! MCP tools: `{name, title, description, inputSchema, outputSchema, annotations, icons, _meta,
//! execution}`, as a `tools/list` result (`{tools: [...]}`), the JSON-RPC response around it,
//! a list, a single tool (github-mcp-server's `.snap` files), a capture with server details
//! beside `tools`, or LiveMCPBench's list of servers (`{name, config, tools: {KEY: {tools:
//! [...]}}}`). `title` and `annotations` are kept (an export to MCP gives them back);
//! `outputSchema`, `icons`, `_meta` and `execution` do not reach the model and are not kept.

use serde_json::{Map, Value};

use super::provider::Definition;
use super::{Format, Shape};

/// An MCP tool.
pub(super) const SHAPE: Shape = Shape {
    format: Format::Mcp,
    keys: &[
        "name",
        "title",
        "description",
        "inputSchema",
        "outputSchema",
        "annotations",
        "icons",
        "_meta",
        "execution",
    ],
    schema_keys: &["inputSchema"],
};

/// The per-server tool lists of a LiveMCPBench server entry (`tools` maps a server key to
/// `{server_name, version, tools: [...]}`), or `None` when `map` is not such an entry.
pub(super) fn server_catalogs(map: &Map<String, Value>) -> Option<Vec<(&String, &Vec<Value>)>> {
    let Some(Value::Object(servers)) = map.get("tools") else {
        return None;
    };
    if servers.is_empty() {
        return None;
    }
    servers
        .iter()
        .map(|(key, server)| match server.get("tools") {
            Some(Value::Array(tools)) => Some((key, tools)),
            _ => None,
        })
        .collect()
}

/// An MCP tool as `tools/list` gives it: `{"name","title"?,"description","inputSchema",
/// "annotations"?}`.
pub(super) fn tool(tool: &Definition<'_>) -> Value {
    let mut map = Map::new();
    map.insert("name".into(), tool.name.into());
    if let Some(title) = tool.title {
        map.insert("title".into(), title.into());
    }
    map.insert("description".into(), tool.description.into());
    map.insert("inputSchema".into(), tool.parameters.clone());
    if let Some(annotations) = tool.annotations {
        map.insert("annotations".into(), annotations.clone());
    }
    Value::Object(map)
}
