//! Gemini function declarations: `{name, description, parameters | parametersJsonSchema,
//! response, responseJsonSchema, behavior}`, inside `{functionDeclarations: [...]}` (or
//! `function_declarations`, as the Python SDK writes it), a request's `tools` list of such
//! objects, or a whole `generateContent` request body.
//!
//! `parameters` is an OpenAPI 3.0 schema whose types are upper-case enum names (`STRING`,
//! `OBJECT`): they are lower-cased when read, so the index shows `kind: string` whatever the
//! source. `parametersJsonSchema` is JSON Schema and is kept as written.
//!
//! An export writes `parameters` with upper-case types when the schema stays inside the subset
//! that field accepts, and `parametersJsonSchema` (the schema as written) otherwise, so nothing
//! is lost either way.

use serde_json::{Map, Value};

use super::kind_of;
use super::provider::Definition;
use super::{Declaration, Format, Shape};
use crate::catalog::Tool;
use crate::diagnostic::{ErrorKind, LoadError};
use crate::schema::walk::{Reach, Walk, walk_mut};
use crate::source::{SourceFile, Target, pointer_push};

/// A function declaration.
const SHAPE: Shape = Shape {
    format: Format::Gemini,
    keys: &[
        "name",
        "description",
        "parameters",
        "parametersJsonSchema",
        "response",
        "responseJsonSchema",
        "behavior",
    ],
    schema_keys: &["parameters", "parametersJsonSchema"],
};

/// A function declaration, for detection: `parameters` written with OpenAPI types is Gemini's
/// alone.
pub(super) const DECLARATION: Declaration = Declaration {
    claims: Some(|key, value| key == "parameters" && has_openapi_types(value)),
    ..Declaration::of(&SHAPE)
};

/// OpenAPI type names and their JSON Schema spelling.
const TYPES: &[(&str, &str)] = &[
    ("STRING", "string"),
    ("NUMBER", "number"),
    ("INTEGER", "integer"),
    ("BOOLEAN", "boolean"),
    ("ARRAY", "array"),
    ("OBJECT", "object"),
    ("NULL", "null"),
];

/// The keywords of Gemini's `Schema` object.
const SCHEMA_KEYWORDS: &[&str] = &[
    "type",
    "format",
    "title",
    "description",
    "nullable",
    "enum",
    "maxItems",
    "minItems",
    "properties",
    "required",
    "minProperties",
    "maxProperties",
    "minLength",
    "maxLength",
    "pattern",
    "example",
    "anyOf",
    "propertyOrdering",
    "default",
    "items",
    "minimum",
    "maximum",
];

/// The declarations listed under `key` of a Gemini tool object at `at`; any other key of the
/// tool object (a built-in tool such as `googleSearch`) is an error, not skipped.
pub(super) fn declarations<'a>(
    source: &SourceFile,
    map: &'a Map<String, Value>,
    key: &str,
    at: &str,
) -> Result<Vec<(String, &'a Value)>, LoadError> {
    if let Some(other) = map.keys().find(|k| *k != key) {
        let message = if other == "functionDeclarations" || other == "function_declarations" {
            format!("both `{key}` and `{other}`: write the declarations in one list")
        } else {
            format!(
                "`{other}` beside `{key}`: discloser reads function declarations only; a built-in Gemini tool (`googleSearch`, `codeExecution`, ...) goes in a tool object of its own, outside the files discloser reads"
            )
        };
        return Err(source.error_at(
            ErrorKind::Shape,
            &pointer_push(at, other),
            Target::Key,
            message,
        ));
    }
    let list_at = pointer_push(at, key);
    match &map[key] {
        Value::Array(list) => Ok(list
            .iter()
            .enumerate()
            .map(|(i, value)| (pointer_push(&list_at, i), value))
            .collect()),
        other => Err(source.error_at(
            ErrorKind::Shape,
            &list_at,
            Target::Value,
            format!(
                "`{key}` must be a list of function declarations, found {}",
                kind_of(other)
            ),
        )),
    }
}

/// Whether a schema uses OpenAPI's upper-case type names anywhere (then it is Gemini's).
pub(super) fn has_openapi_types(schema: &Value) -> bool {
    Walk::new(schema, READ).any(|node| match node.value.get("type") {
        Some(Value::String(t)) => TYPES.iter().any(|(upper, _)| upper == t),
        _ => false,
    })
}

/// Reads one function declaration, lower-casing the OpenAPI types of `parameters`.
pub(super) fn read(
    source: &SourceFile,
    map: &Map<String, Value>,
    pointer: &str,
    file: usize,
) -> Result<Tool, LoadError> {
    let mut tool = SHAPE.read(source, map, pointer, file)?;
    if tool.origin.schema_key == "parameters" {
        lower_types(tool.parameters.value_mut());
    }
    Ok(tool)
}

/// Rewrites `type: STRING` to `type: string` in every schema node.
fn lower_types(schema: &mut Value) {
    walk_mut(schema, READ, |node| {
        if let Some(Value::String(t)) = node.get_mut("type")
            && let Some((_, lower)) = TYPES.iter().find(|(upper, _)| upper == t)
        {
            *t = (*lower).to_owned();
        }
    });
}

/// The subschemas whose types reading lowers (and detection looks at): every keyword's but
/// these, which the reader has never entered. Gemini's `Schema` has none of them; entering them
/// too would change how such a file reads (a one-line change, left for its own decision).
const READ: Reach = Reach::KeywordsExcept(&[
    "if",
    "then",
    "else",
    "propertyNames",
    "additionalItems",
    "unevaluatedItems",
    "unevaluatedProperties",
    "dependentSchemas",
]);

/// A function declaration: `parameters` in OpenAPI style when the schema fits Gemini's
/// `Schema`, else `parametersJsonSchema` as written.
pub(super) fn declaration(tool: &Definition<'_>) -> Value {
    let mut map = Map::new();
    map.insert("name".into(), tool.name.into());
    map.insert("description".into(), tool.description.into());
    match openapi_schema(tool.parameters) {
        Some(schema) => map.insert("parameters".into(), schema),
        None => map.insert("parametersJsonSchema".into(), tool.parameters.clone()),
    };
    Value::Object(map)
}

/// The schema with upper-case types, or `None` when it uses anything Gemini's `Schema` lacks
/// (`$ref`, `oneOf`, `const`, `additionalProperties`, type lists, non-string enums, ...) or
/// types that would not read back as written.
fn openapi_schema(schema: &Value) -> Option<Value> {
    // Every subschema a keyword holds: one under a keyword Gemini's `Schema` lacks is never
    // reached, its parent failing first on that keyword.
    let fits = Walk::new(schema, Reach::Keywords).all(|node| {
        let Value::Object(node) = node.value else {
            return true;
        };
        node.keys().all(|k| SCHEMA_KEYWORDS.contains(&k.as_str()))
            && match node.get("type") {
                None => true,
                Some(Value::String(t)) => TYPES.iter().any(|(_, lower)| lower == t),
                Some(_) => false,
            }
            && match node.get("enum") {
                None => true,
                Some(Value::Array(values)) => values.iter().all(Value::is_string),
                Some(_) => false,
            }
    });
    if !fits || !schema.is_object() {
        return None;
    }
    let mut upper = schema.clone();
    walk_mut(&mut upper, Reach::Keywords, |node| {
        if let Some(Value::String(t)) = node.get_mut("type")
            && let Some((up, _)) = TYPES.iter().find(|(_, lower)| lower == t)
        {
            *t = (*up).to_owned();
        }
    });
    Some(upper)
}
