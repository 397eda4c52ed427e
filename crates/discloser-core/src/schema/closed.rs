//! The closed set of values a schema declares, read through the resolving view: an `enum`, a
//! `const`, an `anyOf`/`oneOf` whose branches all are closed sets or `type: null`, a single
//! `allOf`, each possibly behind `$ref`s. The index shows these values in a signature, and lint
//! tells a parameter that declares its values from one that only describes them.

use serde_json::Value;

use super::Key;
use super::resolve::{Documents, Schema, deref};

/// How deep the reader follows nested schemas (unions of refs, a single `allOf`); the index's
/// type speller stops at the same depth.
pub const MAX_NESTING: usize = 8;

/// The closed set of values `schema` allows, if it declares one, without repeats, in declared
/// order; `depth` is how deep `schema` already is (0 for a parameter's own schema).
pub fn closed_values<'a>(
    docs: impl Documents<'a>,
    schema: Schema<'a>,
    depth: usize,
) -> Option<Vec<Value>> {
    if depth > MAX_NESTING {
        return None;
    }
    let schema = deref(docs, schema).ok()?;
    let v = schema.value;
    if let Some(values) = v.key("enum").and_then(Value::as_array) {
        return Some(dedup(values.iter().cloned()));
    }
    if let Some(value) = v.key("const") {
        return Some(vec![value.clone()]);
    }
    if let Some(branches) = v
        .key("anyOf")
        .or_else(|| v.key("oneOf"))
        .and_then(Value::as_array)
    {
        let mut values = Vec::new();
        for branch in branches {
            let branch = Schema {
                doc: schema.doc,
                value: branch,
            };
            if is_null_type(docs, branch) {
                values.push(Value::Null);
            } else {
                values.extend(closed_values(docs, branch, depth + 1)?);
            }
        }
        return (!values.is_empty()).then(|| dedup(values.into_iter()));
    }
    match v.key("allOf").and_then(Value::as_array).map(Vec::as_slice) {
        Some([only]) => closed_values(
            docs,
            Schema {
                doc: schema.doc,
                value: only,
            },
            depth + 1,
        ),
        _ => None,
    }
}

fn is_null_type<'a>(docs: impl Documents<'a>, schema: Schema<'a>) -> bool {
    deref(docs, schema).is_ok_and(|s| {
        s.value.key("type").and_then(Value::as_str) == Some("null") && s.value.key("enum").is_none()
    })
}

/// The values without repeats, in first-seen order, in linear time (an enum of 100,000 values,
/// scalars or lists, must not take 10^10 comparisons).
fn dedup(values: impl Iterator<Item = Value>) -> Vec<Value> {
    let mut seen = std::collections::HashSet::new();
    let mut out: Vec<Value> = Vec::new();
    for value in values {
        let fresh = match &value {
            Value::Array(_) | Value::Object(_) => {
                let mut key = String::new();
                composite_key(&value, &mut key);
                seen.insert(key)
            }
            scalar => seen.insert(scalar_key(scalar)),
        };
        if fresh {
            out.push(value);
        }
    }
    out
}

/// A key equal for two values exactly when `Value`'s equality has them equal: canonical JSON
/// with object keys sorted (maps compare regardless of order) and `-0.0` as `0.0`. It starts
/// with `[` or `{`, so it never equals a [`scalar_key`]. Nesting is bounded by the loader's
/// depth limit.
fn composite_key(value: &Value, out: &mut String) {
    match value {
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                composite_key(item, out);
            }
            out.push(']');
        }
        Value::Object(map) => {
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            entries.sort_unstable_by(|a, b| a.0.cmp(b.0));
            out.push('{');
            for (i, (k, v)) in entries.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(k.clone()).to_string());
                out.push(':');
                composite_key(v, out);
            }
            out.push('}');
        }
        Value::Number(n) if n.as_f64() == Some(0.0) && n.is_f64() => out.push_str("0.0"),
        other => out.push_str(&other.to_string()),
    }
}

/// A key equal for two scalars exactly when the values are equal (`0.0 == -0.0`, but `1 != 1.0`,
/// as `Value`'s own equality has it).
fn scalar_key(value: &Value) -> String {
    match value {
        Value::Number(n) if n.as_f64() == Some(0.0) && n.is_f64() => "0.0".to_owned(),
        Value::String(s) => format!("s{s}"),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::resolve::{DocId, Local};
    use serde_json::json;

    fn closed(root: &Value, pointer: &str) -> Option<Vec<Value>> {
        let value = root.pointer(pointer).expect(pointer);
        let schema = Schema {
            doc: DocId::Tool(0),
            value,
        };
        closed_values(Local(root), schema, 0)
    }

    #[test]
    fn closed_sets_through_references_unions_and_nullable_forms() {
        let root = json!({"$defs": {"K": {"enum": ["a", "b", "a"]}, "Loop": {"$ref": "#/$defs/Loop"}},
        "properties": {
            "k": {"$ref": "#/$defs/K"},
            "n": {"anyOf": [{"$ref": "#/$defs/K"}, {"type": "null"}]},
            "c": {"oneOf": [{"const": 1}, {"const": 1.0}]},
            "w": {"allOf": [{"const": "x"}]},
            "open": {"anyOf": [{"const": "x"}, {"type": "string"}]},
            "loop": {"$ref": "#/$defs/Loop"}
        }});
        assert_eq!(
            closed(&root, "/properties/k"),
            Some(vec![json!("a"), json!("b")])
        );
        assert_eq!(
            closed(&root, "/properties/n"),
            Some(vec![json!("a"), json!("b"), json!(null)])
        );
        assert_eq!(
            closed(&root, "/properties/c"),
            Some(vec![json!(1), json!(1.0)])
        );
        assert_eq!(closed(&root, "/properties/w"), Some(vec![json!("x")]));
        assert_eq!(closed(&root, "/properties/open"), None);
        assert_eq!(closed(&root, "/properties/loop"), None);
    }
}
