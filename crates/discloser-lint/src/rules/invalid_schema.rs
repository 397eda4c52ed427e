//! DL006 `invalid-schema`.

use discloser_core::schema::Key;
use discloser_core::schema::walk::{Reach, Walk};
use serde_json::Value;

use crate::source::pointer_push;
use crate::{Context, Diagnostic, Severity, Tools};

declare_rule! {
    /// ## What it does
    /// Flags `parameters` that are not a valid JSON Schema: invalid against the draft's
    /// meta-schema (checked with the `jsonschema` crate), a root that is not an object schema, a
    /// non-standard `type` (`dict`, `float`, `any`, `String`, ...), or a `required` entry that is
    /// not in `properties`.
    ///
    /// ## Why is this bad?
    /// Providers validate tool schemas: an invalid one fails the whole request, or is silently
    /// loosened so the model's arguments are never checked. A required parameter with no schema
    /// cannot be described in the index, and the first call guesses.
    ///
    /// ## Example
    /// ```yaml tools
    /// - name: calculate_bmi
    ///   triggers: [bmi]
    ///   description: Calculate the body mass index.
    ///   parameters:
    ///     type: dict
    ///     properties:
    ///       weight: {type: float}
    ///     required: [weight, height]
    /// ```
    ///
    /// ## Use instead
    /// ```yaml tools
    /// - name: calculate_bmi
    ///   triggers: [bmi]
    ///   description: Calculate the body mass index.
    ///   parameters:
    ///     type: object
    ///     properties:
    ///       weight: {type: number}
    ///       height: {type: number}
    ///     required: [weight, height]
    /// ```
    pub static INVALID_SCHEMA = ("DL006", "invalid-schema", Severity::Error, files: check);
}

const STANDARD_TYPES: &[&str] = &[
    "string", "number", "integer", "boolean", "object", "array", "null",
];

/// The standard type a common non-standard spelling means.
fn standard_for(ty: &str) -> Option<&'static str> {
    Some(match ty.to_ascii_lowercase().as_str() {
        "dict" | "map" | "hashmap" | "object" | "record" => "object",
        "float" | "double" | "decimal" | "number" | "bigdecimal" => "number",
        "int" | "integer" | "long" | "short" | "byte" | "biginteger" => "integer",
        "str" | "string" | "char" | "character" | "text" => "string",
        "list" | "tuple" | "array" | "arraylist" | "set" | "sequence" => "array",
        "bool" | "boolean" => "boolean",
        "none" | "null" => "null",
        _ => return None,
    })
}

/// Known meta-schema URIs; any other `$schema` is ignored for validation (never fetched).
const KNOWN_DRAFTS: &[&str] = &[
    "draft-04",
    "draft-06",
    "draft-07",
    "draft/2019-09",
    "draft/2020-12",
];

fn check(ctx: &Context<'_>, tools: &Tools<'_>, out: &mut Vec<Diagnostic>) {
    for (i, tool) in tools.iter() {
        ctx.with_parameters(i, |params| check_tool(i, tool, params, out));
    }
}

fn check_tool(
    i: usize,
    tool: &discloser_core::catalog::Tool,
    params: &Value,
    out: &mut Vec<Diagnostic>,
) {
    let mut bad_types = Vec::new();
    walk_types(params, &mut bad_types);
    for (pointer, ty) in &bad_types {
        let help = match standard_for(ty) {
            Some(std) => format!("use `{std}`"),
            None => "use one of `string`, `number`, `integer`, `boolean`, `object`, `array`, `null`, or omit `type` for any value".to_owned(),
        };
        out.push(
            Diagnostic::tool(
                i,
                format!("/parameters{pointer}"),
                format!("`{ty}` is not a JSON Schema type (in `{}`)", tool.name),
            )
            .with_help(help),
        );
    }
    let root_type = params.key("type").and_then(Value::as_str);
    if let Some(ty) = root_type.filter(|t| *t != "object" && standard_for(t) != Some("object")) {
        out.push(Diagnostic::tool(
            i,
            "/parameters/type",
            format!(
                "`parameters` of `{}` must be an object schema, found `type: {ty}`",
                tool.name
            ),
        ));
    }
    let properties = params.key("properties").and_then(Value::as_object);
    for (j, name) in params
        .key("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
    {
        if let Some(name) = name.as_str()
            && !properties.is_some_and(|p| p.contains_key(name))
        {
            out.push(
                Diagnostic::tool(
                    i,
                    format!("/parameters/required/{j}"),
                    format!(
                        "`required` names `{name}`, which is not in `properties` of `{}`",
                        tool.name
                    ),
                )
                .with_help(format!(
                    "add a schema for `{name}` under `properties`, or remove it from `required`"
                )),
            );
        }
    }
    meta_validate(i, &tool.name, params, &bad_types, out);
}

/// Records every `type` whose value is not a standard JSON Schema type, in the subschemas the
/// keywords hold, at most 64 deep (in the order this rule has always reported them).
fn walk_types(schema: &Value, out: &mut Vec<(String, String)>) {
    let mut walk = Walk::new(schema, Reach::Keywords)
        .max_depth(64)
        .last_first();
    while let Some(node) = walk.next() {
        match node.value.key("type") {
            Some(Value::String(t)) if !STANDARD_TYPES.contains(&t.as_str()) => {
                out.push((pointer_push(&walk.pointer(&node), "type"), t.clone()));
            }
            Some(Value::Array(ts)) => {
                for (k, t) in ts.iter().enumerate() {
                    if let Some(t) = t.as_str().filter(|t| !STANDARD_TYPES.contains(t)) {
                        let at = pointer_push(&walk.pointer(&node), "type");
                        out.push((pointer_push(&at, k), t.to_owned()));
                    }
                }
            }
            _ => {}
        }
    }
}

fn meta_validate(
    i: usize,
    name: &str,
    params: &Value,
    bad_types: &[(String, String)],
    out: &mut Vec<Diagnostic>,
) {
    let known = |uri: &str| KNOWN_DRAFTS.iter().any(|d| uri.contains(d));
    let mut schema = params.clone();
    // An unknown (or non-string) `$schema` would make the meta-schema undetectable: validate
    // against the default draft instead; nothing is ever fetched.
    if let Some(map) = schema.as_object_mut()
        && map
            .get("$schema")
            .is_some_and(|s| !s.as_str().is_some_and(known))
    {
        map.remove("$schema");
    }
    // Most schemas are plainly valid: no meta-validator needs to be built for them.
    if crate::surely_valid::surely_valid(&schema) {
        return;
    }
    let Ok(validator) = jsonschema::meta::validator_for(&schema) else {
        return;
    };
    // Sorted, so "some pointer starts with this prefix" is one binary search: an `anyOf` of
    // 100,000 non-standard types gives as many errors, each checked against every type.
    let mut bad: Vec<&str> = bad_types.iter().map(|(p, _)| p.as_str()).collect();
    bad.sort_unstable();
    let any_starts_with = |prefix: &str| {
        bad.get(bad.partition_point(|p| *p < prefix))
            .is_some_and(|p| p.starts_with(prefix))
    };
    let mut reported = 0;
    for error in validator.iter_errors(&schema) {
        let pointer = error.instance_path().to_string();
        // Non-standard types are reported above with a better message.
        if bad.binary_search(&pointer.as_str()).is_ok()
            || any_starts_with(&format!("{pointer}/"))
            || pointer.ends_with("/type") && any_starts_with(&pointer)
        {
            continue;
        }
        if reported == 3 {
            break;
        }
        reported += 1;
        out.push(Diagnostic::tool(
            i,
            format!("/parameters{pointer}"),
            format!("`parameters` of `{name}` is not a valid JSON Schema: {error}"),
        ));
    }
}
