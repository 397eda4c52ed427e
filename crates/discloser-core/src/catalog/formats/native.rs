//! The native tool format: YAML or JSON holding one tool, a list of tools, or `{tools: [...]}`.
//!
//! A tool has `name`, `description`, `parameters` (a JSON Schema object), `triggers`, and the
//! optional `core`, `summary_budget`, `lint_ignore`, `title` and `annotations` (the last two as
//! MCP defines them, so an imported MCP tool keeps them). Any other key is an error, because a
//! misspelt `trigers:` would otherwise silently produce a tool without triggers.

use serde_json::Value;

use super::fields::{Fields, backticked, kind_of, name_of};
use super::{Declaration, Format};
use crate::catalog::{Origin, Tool};
use crate::diagnostic::{ErrorKind, LoadError, did_you_mean};
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

/// A native tool, for detection.
pub(super) const DECLARATION: Declaration = Declaration {
    format: Format::Native,
    keys: TOOL_KEYS,
    type_tags: &[],
    claims: None,
};

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
    let field = Fields::new(source, map, &pointer, &name, Format::Native);
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
