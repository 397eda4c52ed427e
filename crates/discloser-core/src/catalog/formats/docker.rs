//! Docker's MCP catalog tools: `{name, description, arguments: [{name, type, desc, optional,
//! items}], annotations}` (docker/mcp-registry `tools.json`).
//!
//! The arguments become a JSON Schema the way the catalog's own tooling reads them: each
//! argument a property `{type, description: desc, items}`, every argument not marked
//! `optional: true` (or marked `required: true`) required. A tool without `arguments` gets the
//! empty object schema: the catalog says nothing about its parameters.

use serde_json::{Map, Value};

use super::{Declaration, Fields, Format};
use super::{kind_of, name_of};
use crate::catalog::{Origin, Tool};
use crate::diagnostic::LoadError;
use crate::source::{SourceFile, Target, pointer_push};

const KEYS: &[&str] = &["name", "description", "arguments", "annotations", "enabled"];

/// A catalog tool, for detection.
pub(super) const DECLARATION: Declaration = Declaration {
    format: Format::Docker,
    keys: KEYS,
    type_tags: &[],
    claims: None,
};

const ARGUMENT_KEYS: &[&str] = &["name", "type", "desc", "optional", "required", "items"];

/// Reads one Docker catalog tool.
pub(super) fn read(
    source: &SourceFile,
    map: &Map<String, Value>,
    pointer: &str,
    file: usize,
) -> Result<Tool, LoadError> {
    let name = name_of(source, map, pointer)?;
    let fields = Fields::new(source, map, pointer, &name, Format::Docker);
    fields.known_keys(KEYS)?;
    let parameters = match map.get("arguments") {
        None | Some(Value::Null) => super::empty_schema(),
        Some(Value::Array(arguments)) => schema(&fields, arguments)?,
        Some(other) => {
            return Err(fields.error(
                "arguments",
                Target::Value,
                format!(
                    "`arguments` of tool `{name}` must be a list of `{{name, type, desc}}`, found {}",
                    kind_of(other)
                ),
            ));
        }
    };
    Ok(Tool {
        description: fields.string("description")?,
        parameters: parameters.into(),
        triggers: Vec::new(),
        core: false,
        summary_budget: None,
        lint_ignore: Vec::new(),
        title: None,
        annotations: fields.mapping("annotations")?,
        origin: Origin {
            file,
            pointer: pointer.to_owned(),
            format: Format::Docker,
            schema_key: "arguments",
        },
        name,
    })
}

fn schema(fields: &Fields<'_>, arguments: &[Value]) -> Result<Value, LoadError> {
    let mut properties = Map::new();
    let mut required = Vec::new();
    for (i, argument) in arguments.iter().enumerate() {
        let at = pointer_push(&pointer_push(fields.pointer, "arguments"), i);
        let Value::Object(map) = argument else {
            return Err(fields.source.error_at(
                crate::diagnostic::ErrorKind::Shape,
                &at,
                Target::Value,
                format!(
                    "an argument of tool `{}` must be a mapping `{{name, type, desc}}`, found {}",
                    fields.name,
                    kind_of(argument)
                ),
            ));
        };
        let arg_name = name_of(fields.source, map, &at)?;
        let arg = fields.within(map, &at);
        if let Some(key) = map.keys().find(|k| !ARGUMENT_KEYS.contains(&k.as_str())) {
            return Err(arg
                .error(
                    key,
                    Target::Key,
                    format!(
                        "unknown key `{key}` in argument `{arg_name}` of Docker MCP catalog tool `{}`",
                        fields.name
                    ),
                )
                .with_help(format!(
                    "an argument's keys are {}",
                    super::backticked(ARGUMENT_KEYS)
                )));
        }
        let mut property = Map::new();
        if let Some(kind) = map.get("type") {
            property.insert("type".into(), kind.clone());
        }
        if map.get("desc").is_some_and(|d| !d.is_null()) {
            property.insert("description".into(), Value::String(arg.string("desc")?));
        }
        if let Some(items) = arg.mapping("items")? {
            property.insert("items".into(), items);
        }
        let optional = flag(&arg, "optional")?.unwrap_or(false);
        let is_required = flag(&arg, "required")?.unwrap_or(!optional);
        if is_required {
            required.push(Value::String(arg_name.clone()));
        }
        properties.insert(arg_name, Value::Object(property));
    }
    let mut schema = Map::new();
    schema.insert("type".into(), "object".into());
    schema.insert("properties".into(), Value::Object(properties));
    if !required.is_empty() {
        schema.insert("required".into(), Value::Array(required));
    }
    Ok(Value::Object(schema))
}

fn flag(arg: &Fields<'_>, key: &str) -> Result<Option<bool>, LoadError> {
    match arg.map.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Bool(b)) => Ok(Some(*b)),
        Some(other) => Err(arg.error(
            key,
            Target::Value,
            format!(
                "`{key}` of an argument of tool `{}` must be `true` or `false`, found {}",
                arg.name,
                kind_of(other)
            ),
        )),
    }
}
