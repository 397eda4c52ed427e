//! MCP tools: `{name, title, description, inputSchema, outputSchema, annotations, icons, _meta,
//! execution}`, as a `tools/list` result (`{tools: [...]}`), the JSON-RPC response around it,
//! a list, a single tool (github-mcp-server's `.snap` files), a capture with server details
//! beside `tools`, or LiveMCPBench's list of servers (`{name, config, tools: {KEY: {tools:
//! [...]}}}`). `title` and `annotations` are kept (an export to MCP gives them back);
//! `outputSchema`, `icons`, `_meta` and `execution` do not reach the model and are not kept,
//! except the tool author's trigger words: a list of strings under [`TRIGGERS_META_KEY`] in
//! `_meta` (namespaced, so every other MCP client ignores it) becomes the tool's triggers, and
//! an export to MCP writes them back there.

use serde_json::{Map, Value};

use super::provider::Definition;
use super::{Declaration, Fields, Format, Shape};
use crate::diagnostic::LoadError;
use crate::source::pointer_push;

/// The `_meta` key of a tool's trigger words.
pub const TRIGGERS_META_KEY: &str = "dev.discloser/triggers";

/// The trigger words in the tool's `_meta` (none when absent); a `_meta` that is not a mapping,
/// or triggers that are not a list of strings, are errors at their position.
pub(super) fn meta_triggers(fields: &Fields<'_>) -> Result<Vec<String>, LoadError> {
    let Some(Value::Object(meta)) = fields.mapping("_meta")? else {
        return Ok(Vec::new());
    };
    let pointer = pointer_push(fields.pointer, "_meta");
    fields.within(&meta, &pointer).strings(TRIGGERS_META_KEY)
}

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

/// An MCP tool, for detection.
pub(super) const DECLARATION: Declaration = Declaration::of(&SHAPE);

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
/// "annotations"?,"_meta"?}` (`_meta` holds the trigger words, when there are any).
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
    if !tool.triggers.is_empty() {
        let mut meta = Map::new();
        meta.insert(TRIGGERS_META_KEY.into(), tool.triggers.into());
        map.insert("_meta".into(), Value::Object(meta));
    }
    Value::Object(map)
}
