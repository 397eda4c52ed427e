//! The signature part of an index entry: `name(param: type, kind: a|b|c, …)`.
//!
//! Only required parameters are shown, in the order of the schema's `required` list. A closed
//! set is shown with every value; values that are not plain identifiers are JSON-quoted.
//!
//! Type spelling (documented in docs/index-entry.md):
//! - JSON Schema types as named: `string`, `integer`, `number`, `boolean`, `object`, `null`;
//!   non-standard types (`dict`, `float`, `String`) as written; no type at all: `any`;
//! - arrays: `T[]` (`(a|b)[]` when the item type is a union), `array` without `items`;
//! - unions (`type: [string, "null"]`, `anyOf`, `oneOf`): the members joined with `|`;
//! - closed sets (`enum`, `const`, `anyOf`/`oneOf` of consts, a `$ref` to an enum, nullable
//!   forms): the values joined with `|` (`null` included when allowed); above
//!   `max_enum_values`: `string (one of N values)`.

use serde_json::Value;

use crate::catalog::{Catalog, Docs, Schema};
use crate::schema::Key;
use crate::schema::closed::{self, MAX_NESTING as MAX_DEPTH};

/// One required parameter as shown in the index.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Param {
    /// The parameter name.
    pub name: String,
    /// The spelled type (`string`, `a|b`, `string (one of 30 values)`, ...).
    #[serde(rename = "type")]
    pub ty: String,
    /// The closed set of values, when the schema declares one (in declared order).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub values: Option<Vec<Value>>,
}

/// A tool's signature for the index.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Signature {
    /// The tool name.
    pub name: String,
    /// Required parameters, in `required` order.
    pub required: Vec<Param>,
    /// The tool also takes optional parameters.
    pub has_optional: bool,
}

impl Signature {
    /// `name(a: string, b: x|y, …)`.
    pub fn render(&self) -> String {
        super::line::render_signature(
            &self.name,
            self.required
                .iter()
                .map(|p| (p.name.as_str(), p.ty.as_str())),
            self.has_optional,
        )
    }
}

/// Builds the signature of `parameters` (a tool's root schema) for tool `name`.
pub fn signature(
    catalog: &Catalog,
    name: &str,
    parameters: Schema<'_>,
    max_enum_values: usize,
) -> Signature {
    // `parameters` is the root of its document: a tool's schema may be a copy unpacked for
    // this call, and its local `$ref`s resolve in that copy.
    let catalog = Docs::rooted(catalog, parameters);
    let root = catalog.deref(parameters).unwrap_or(parameters);
    let properties = root.value.key("properties").and_then(Value::as_object);
    // A set beside the list: 300,000 required names must not take 10^11 comparisons.
    let mut seen = std::collections::HashSet::new();
    let mut required: Vec<&str> = Vec::new();
    for r in root
        .value
        .key("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if let Some(r) = r.as_str()
            && seen.insert(r)
        {
            required.push(r);
        }
    }
    let has_optional = properties.is_some_and(|p| p.keys().any(|k| !seen.contains(k.as_str())));
    let required = required
        .into_iter()
        .map(|param| match properties.and_then(|p| p.get(param)) {
            Some(value) => {
                let schema = Schema {
                    doc: root.doc,
                    value,
                };
                let values = closed(catalog, schema, 0);
                let ty = match &values {
                    Some(v) if v.len() > max_enum_values => {
                        format!(
                            "{} (one of {} values)",
                            base_type(catalog, schema, v),
                            v.len()
                        )
                    }
                    Some(v) => v.iter().map(render_value).collect::<Vec<_>>().join("|"),
                    None => spell(catalog, schema, max_enum_values, 0),
                };
                Param {
                    name: param.to_owned(),
                    ty,
                    values,
                }
            }
            None => Param {
                name: param.to_owned(),
                ty: "any".to_owned(),
                values: None,
            },
        })
        .collect();
    Signature {
        name: name.to_owned(),
        required,
        has_optional,
    }
}

fn closed(catalog: Docs<'_>, schema: Schema<'_>, depth: usize) -> Option<Vec<Value>> {
    closed::closed_values(catalog, schema, depth)
}

/// The type name of a large closed set: the schema's own type, else inferred from the values.
fn base_type(catalog: Docs<'_>, schema: Schema<'_>, values: &[Value]) -> String {
    let declared = catalog.deref(schema).ok().and_then(|s| {
        s.value
            .key("type")
            .and_then(Value::as_str)
            .map(str::to_owned)
    });
    if let Some(t) = declared.filter(|t| !t.is_empty()) {
        return t;
    }
    let non_null: Vec<&Value> = values.iter().filter(|v| !v.is_null()).collect();
    let all = |f: fn(&Value) -> bool| non_null.iter().all(|v| f(v));
    if all(Value::is_string) {
        "string".into()
    } else if all(|v| v.is_i64() || v.is_u64()) {
        "integer".into()
    } else if all(Value::is_number) {
        "number".into()
    } else {
        "value".into()
    }
}

/// Spells the type of a schema that is not a closed set.
fn spell(catalog: Docs<'_>, schema: Schema<'_>, max: usize, depth: usize) -> String {
    if depth > MAX_DEPTH {
        return "any".into();
    }
    let Ok(schema) = catalog.deref(schema) else {
        return "any".into();
    };
    if let Some(values) = closed(catalog, schema, depth) {
        return if values.len() > max {
            format!(
                "{} (one of {} values)",
                base_type(catalog, schema, &values),
                values.len()
            )
        } else {
            values
                .iter()
                .map(render_value)
                .collect::<Vec<_>>()
                .join("|")
        };
    }
    let v = schema.value;
    let doc = schema.doc;
    let sub = |value| Schema { doc, value };
    if let Some(branches) = v
        .key("anyOf")
        .or_else(|| v.key("oneOf"))
        .and_then(Value::as_array)
    {
        let parts: Vec<String> = branches
            .iter()
            .map(|b| spell(catalog, sub(b), max, depth + 1))
            .collect();
        return union(parts);
    }
    if let Some([only]) = v.key("allOf").and_then(Value::as_array).map(Vec::as_slice) {
        return spell(catalog, sub(only), max, depth + 1);
    }
    match v.key("type") {
        Some(Value::String(t)) => spell_type(catalog, schema, t, max, depth),
        Some(Value::Array(types)) => {
            let parts = types
                .iter()
                .filter_map(Value::as_str)
                .map(|t| spell_type(catalog, schema, t, max, depth))
                .collect();
            union(parts)
        }
        _ if v.key("properties").is_some() => "object".into(),
        _ if v.key("items").is_some() => spell_type(catalog, schema, "array", max, depth),
        _ => "any".into(),
    }
}

fn spell_type(catalog: Docs<'_>, schema: Schema<'_>, ty: &str, max: usize, depth: usize) -> String {
    if ty.trim().is_empty() {
        return "any".into();
    }
    if ty != "array" {
        return ty.to_owned();
    }
    match schema.value.key("items") {
        Some(items @ Value::Object(_)) => {
            let inner = spell(
                catalog,
                Schema {
                    doc: schema.doc,
                    value: items,
                },
                max,
                depth + 1,
            );
            if inner.contains(['|', ' ']) {
                format!("({inner})[]")
            } else {
                format!("{inner}[]")
            }
        }
        _ => "array".into(),
    }
}

fn union(parts: Vec<String>) -> String {
    // A set beside the list: an `anyOf` of 100,000 types must stay linear.
    let mut seen = std::collections::HashSet::new();
    let mut out: Vec<String> = Vec::new();
    for part in parts {
        if seen.insert(part.clone()) {
            out.push(part);
        }
    }
    if out.is_empty() {
        "any".into()
    } else {
        out.join(super::line::ALTERNATIVE_SEPARATOR)
    }
}

/// A value as shown in a closed set: plain identifiers bare, everything else as JSON.
pub fn render_value(value: &Value) -> String {
    match value {
        Value::String(s) if is_plain_identifier(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Letters, digits, `_` and `-`, starting with a letter or `_`, and not a JSON keyword.
fn is_plain_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    let first_ok = chars.next().is_some_and(|c| c.is_alphabetic() || c == '_');
    first_ok
        && s.chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
        && !matches!(s, "true" | "false" | "null")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::SourceFile;
    use serde_json::json;

    fn sig(parameters: Value) -> String {
        sig_max(parameters, 20)
    }

    fn sig_max(parameters: Value, max: usize) -> String {
        let tool = json!({"name": "t", "parameters": parameters});
        let file = SourceFile::from_text(tool.to_string(), "t.json".into());
        let catalog = Catalog::from_sources(vec![file], std::path::Path::new(".")).unwrap();
        signature(&catalog, "t", catalog.parameters(0), max).render()
    }

    #[test]
    fn no_parameters() {
        assert_eq!(sig(json!({"type": "object", "properties": {}})), "t()");
        assert_eq!(sig(json!({})), "t()");
    }

    #[test]
    fn only_optional_parameters() {
        assert_eq!(
            sig(json!({"type": "object", "properties": {"x": {"type": "string"}}})),
            "t(…)"
        );
    }

    #[test]
    fn required_in_required_order_with_optional_marker() {
        let p = json!({"type": "object",
            "properties": {"a": {"type": "string"}, "b": {"type": "integer"}, "c": {"type": "boolean"}},
            "required": ["b", "a"]});
        assert_eq!(sig(p), "t(b: integer, a: string, …)");
    }

    #[test]
    fn enum_values_are_all_shown_and_quoted_when_needed() {
        let p = json!({"properties": {"chart_type": {"type": "string", "enum": ["bar", "line", "area", "pie", "donut"]},
            "v": {"enum": ["a b", "1", 2, true, null, "x|y", "ok-1", "名字"]}}, "required": ["chart_type", "v"]});
        assert_eq!(
            sig(p),
            r#"t(chart_type: bar|line|area|pie|donut, v: "a b"|"1"|2|true|null|"x|y"|ok-1|名字)"#
        );
    }

    #[test]
    fn large_enums_are_summarised() {
        let values: Vec<String> = (0..30).map(|i| format!("v{i}")).collect();
        let p = json!({"properties": {"x": {"type": "string", "enum": values}}, "required": ["x"]});
        assert_eq!(sig(p.clone()), "t(x: string (one of 30 values))");
        assert!(sig_max(p, 30).contains("v29"));
    }

    #[test]
    fn refs_to_enum_definitions_and_nullable_forms() {
        let p = json!({
            "$defs": {"Kind": {"type": "string", "enum": ["self_register", "tax_filing", "business_plan"]}},
            "properties": {
                "kind": {"$ref": "#/$defs/Kind"},
                "maybe": {"anyOf": [{"$ref": "#/$defs/Kind"}, {"type": "null"}]},
                "title": {"type": ["string", "null"]},
                "one": {"oneOf": [{"const": "x"}, {"const": "y"}]},
                "wrapped": {"allOf": [{"$ref": "#/$defs/Kind"}]}
            },
            "required": ["kind", "maybe", "title", "one", "wrapped"]});
        assert_eq!(
            sig(p),
            "t(kind: self_register|tax_filing|business_plan, maybe: self_register|tax_filing|business_plan|null, \
             title: string|null, one: x|y, wrapped: self_register|tax_filing|business_plan)"
        );
    }

    #[test]
    fn arrays_objects_unions_and_odd_types() {
        let p = json!({"properties": {
            "tags": {"type": "array", "items": {"type": "string"}},
            "modes": {"type": "array", "items": {"enum": ["a", "b"]}},
            "grid": {"type": "array", "items": {"type": "array", "items": {"type": "number"}}},
            "raw": {"type": "array"},
            "obj": {"type": "object", "properties": {"x": {}}},
            "u": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
            "d": {"type": "dict"}, "f": {"type": "float"}, "j": {"type": "HashMap"}, "e": {"type": ""}, "n": {}
        }, "required": ["tags", "modes", "grid", "raw", "obj", "u", "d", "f", "j", "e", "n", "missing"]});
        assert_eq!(
            sig(p),
            "t(tags: string[], modes: (a|b)[], grid: number[][], raw: array, obj: object, u: string|integer, \
             d: dict, f: float, j: HashMap, e: any, n: any, missing: any)"
        );
    }

    #[test]
    fn repeated_enum_values_are_shown_once_as_value_equality_has_it() {
        let p = json!({"properties": {"x": {"enum": ["a", "a", 1, 1.0, 1, 0.0, -0.0, "1", true, "true", null, null, [1], [1]]}},
            "required": ["x"]});
        assert_eq!(sig(p), r#"t(x: a|1|1.0|0.0|"1"|true|"true"|null|[1])"#);
    }

    #[test]
    fn enum_of_100000_values_is_summarised_without_quadratic_dedup() {
        // Was: every value compared with every earlier one, 5 * 10^9 comparisons (23 s in a
        // release build for `render`, 53 s for `lint`).
        let values: Vec<String> = (0..100_000).map(|i| format!("v{i}")).collect();
        let p = json!({"properties": {"x": {"type": "string", "enum": values}}, "required": ["x"]});
        assert_eq!(sig(p), "t(x: string (one of 100000 values))");
    }

    #[test]
    fn recursive_schemas_do_not_loop() {
        let p = json!({"$defs": {"Node": {"type": "array", "items": {"$ref": "#/$defs/Node"}}},
            "properties": {"tree": {"$ref": "#/$defs/Node"}}, "required": ["tree"]});
        let s = sig(p);
        assert!(s.starts_with("t(tree: "), "{s}");
        assert!(s.contains("any"), "{s}");
    }

    /// The signature of the whole schema and of what `Parameters::with_required` unpacks.
    fn both_ways(parameters: Value) -> (Signature, Signature) {
        let tool = json!({"name": "t", "parameters": parameters});
        let file = SourceFile::from_text(tool.to_string(), "t.json".into());
        let catalog = Catalog::from_sources(vec![file], std::path::Path::new(".")).unwrap();
        let sign = |root: &Value| {
            let root = Schema {
                doc: crate::catalog::DocId::Tool(0),
                value: root,
            };
            signature(&catalog, "t", root, 3)
        };
        let parameters = &catalog.tools[0].parameters;
        assert!(parameters.kept().is_none(), "packed");
        (parameters.with(sign), parameters.with_required(sign))
    }

    #[test]
    fn the_required_part_of_a_schema_signs_as_the_whole() {
        let schemas = [
            json!({"type": "object", "description": "Root.", "properties": {
                "a": {"type": "string", "description": "Optional."},
                "b": {"enum": [1, 2], "description": "B."}}, "required": ["b"]}),
            // `required` first, repeated, with names that are not strings or not properties.
            json!({"required": ["b", 1, "b", "zz", "type"], "properties": {
                "type": {"type": "integer"}, "b": {"anyOf": [{"const": "x"}, {"type": "null"}]},
                "required": {"type": "array", "items": {"enum": ["p", "q", "r", "s"]}},
                "properties": {"type": "object"}}}),
            json!({"properties": {"required": {"type": ["string", "null"]}},
                "required": ["required", "properties"]}),
            json!({"properties": [1, 2], "required": ["a"]}),
            json!({"required": "a", "properties": {"a": {}}}),
            json!({"properties": {"a": {"type": "string"}}}),
            json!({"required": ["a"]}),
            json!({}),
            // With a `$ref` anywhere, the whole schema is unpacked.
            json!({"$defs": {"K": {"enum": ["x", "y"]}}, "required": ["k"],
                "properties": {"k": {"$ref": "#/$defs/K"}, "o": {"$ref": "#/properties/k"}}}),
            json!({"required": ["k"], "properties": {
                "k": {"$ref": "#/properties/o"}, "o": {"enum": ["u", "v"]}}}),
            json!({"$ref": "#/$defs/R", "$defs": {"R": {"required": ["a"],
                "properties": {"a": {"type": "boolean"}}}}}),
        ];
        for schema in schemas {
            let (whole, part) = both_ways(schema.clone());
            assert_eq!(whole, part, "{schema}");
        }
    }

    proptest::proptest! {
        #[test]
        fn any_generated_schema_signs_the_same_from_its_required_part(
            names in proptest::collection::vec("[a-c]|type|items|enum|required|properties", 0..5),
            required in proptest::collection::vec("[a-d]|type|required", 0..4),
            kinds in proptest::collection::vec(0..6_usize, 5),
            first in proptest::bool::ANY,
        ) {
            let schema_of = |k: usize| match k {
                0 => json!({"type": "string", "description": "A."}),
                1 => json!({"enum": ["x", "y", "z", "w"]}),
                2 => json!({"type": "array", "items": {"enum": [1, 2]}}),
                3 => json!({"anyOf": [{"const": true}, {"type": "null"}]}),
                4 => json!({"properties": {"in": {"type": "integer"}}, "required": ["in"]}),
                _ => json!(7),
            };
            let properties: serde_json::Map<String, Value> = names
                .iter()
                .zip(&kinds)
                .map(|(n, &k)| (n.clone(), schema_of(k)))
                .collect();
            let schema = if first {
                json!({"required": required, "properties": properties, "title": "T"})
            } else {
                json!({"properties": properties, "description": "D.", "required": required})
            };
            let (whole, part) = both_ways(schema);
            proptest::prop_assert_eq!(whole, part);
        }
    }
}
