//! A schema that is surely valid against the JSON Schema 2020-12 meta-schema, found without
//! building the meta-validator.
//!
//! `invalid-schema` checks every tool's schema against its draft's meta-schema with the
//! `jsonschema` crate, which builds that validator once per process (about a millisecond, as
//! long as a whole `render` of a small project). Nearly every tool schema uses a handful of
//! keywords with values of the obvious type: [`surely_valid`] accepts exactly those, and says
//! nothing (`false`) about anything else, which the meta-validator then decides. So it only
//! ever skips a check whose verdict is "valid"; a test holds it to the meta-validator on
//! generated schemas and on the corpora.
//!
//! Formats are annotations in 2020-12 (`jsonschema` does not assert them on meta-schemas): a
//! `pattern` or `$ref` is valid as any string.

use discloser_core::schema::keywords::Draft;
use discloser_core::schema::{Holds, KEYWORDS};
use serde_json::{Map, Value};

/// The `type` names the meta-schema allows.
const SIMPLE_TYPES: &[&str] = &[
    "array", "boolean", "integer", "null", "number", "object", "string",
];

/// Keywords whose value is any string.
const STRINGS: &[&str] = &[
    "$comment",
    "$ref",
    "title",
    "description",
    "format",
    "pattern",
    "contentEncoding",
    "contentMediaType",
];

/// Keywords whose value is a boolean.
const BOOLEANS: &[&str] = &["deprecated", "readOnly", "writeOnly", "uniqueItems"];

/// Keywords whose value is a number.
const NUMBERS: &[&str] = &["maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum"];

/// Keywords whose value is a non-negative integer.
const COUNTS: &[&str] = &[
    "maxLength",
    "minLength",
    "maxItems",
    "minItems",
    "maxContains",
    "minContains",
    "maxProperties",
    "minProperties",
];

/// What the value of 2020-12 keyword `key` holds when it holds schemas: discloser-core's table
/// of keywords ([`discloser_core::schema::KEYWORDS`], the drafts that define each), and two
/// keywords it has no use for but the 2020-12 meta-schemas constrain: `definitions` (deprecated,
/// still a map of schemas) and `contentSchema` (content vocabulary).
fn holds_schemas(key: &str) -> Option<Holds> {
    match key {
        "definitions" => Some(Holds::Map),
        "contentSchema" => Some(Holds::Schema),
        _ => KEYWORDS
            .iter()
            .find(|k| k.name == key && k.defined_in(Draft::Draft2020_12))
            .map(|k| k.holds)
            .filter(|h| *h != Holds::Data),
    }
}

/// Keywords whose value is anything.
const ANY: &[&str] = &["const", "default"];

/// The other keywords the 2020-12 meta-schemas constrain: a schema using one is left to the
/// meta-validator.
const OTHERS: &[&str] = &[
    "$id",
    "$schema",
    "$anchor",
    "$dynamicRef",
    "$dynamicAnchor",
    "$vocabulary",
    "$recursiveAnchor",
    "$recursiveRef",
    "dependencies",
    "dependentRequired",
    "multipleOf",
    "type",
    "enum",
    "required",
    "examples",
];

/// Deeper than this, the meta-validator decides.
const MAX_DEPTH: usize = 64;

/// Whether `schema` (a tool's `parameters`, without `$schema`) is surely valid against the
/// 2020-12 meta-schema. `false` means "not known", never "invalid".
pub fn surely_valid(schema: &Value) -> bool {
    match schema {
        Value::Object(map) => !map.contains_key("$schema") && object(map, 0),
        Value::Bool(_) => true,
        _ => false,
    }
}

fn subschema(schema: &Value, depth: usize) -> bool {
    match schema {
        Value::Object(map) => depth < MAX_DEPTH && object(map, depth + 1),
        Value::Bool(_) => true,
        _ => false,
    }
}

fn object(map: &Map<String, Value>, depth: usize) -> bool {
    map.iter().all(|(key, value)| {
        let key = key.as_str();
        if STRINGS.contains(&key) {
            value.is_string()
        } else if BOOLEANS.contains(&key) {
            value.is_boolean()
        } else if NUMBERS.contains(&key) {
            value.is_number()
        } else if COUNTS.contains(&key) {
            value.is_u64()
        } else if let Some(holds) = holds_schemas(key) {
            match holds {
                Holds::Schema => subschema(value, depth),
                Holds::Map => value
                    .as_object()
                    .is_some_and(|m| m.values().all(|s| subschema(s, depth))),
                Holds::List => value
                    .as_array()
                    .is_some_and(|l| !l.is_empty() && l.iter().all(|s| subschema(s, depth))),
                // Left out by `holds_schemas`: data is anything.
                Holds::Data => true,
            }
        } else if ANY.contains(&key) {
            true
        } else if key == "type" {
            match value {
                Value::String(t) => SIMPLE_TYPES.contains(&t.as_str()),
                Value::Array(ts) => {
                    !ts.is_empty()
                        && ts
                            .iter()
                            .all(|t| t.as_str().is_some_and(|t| SIMPLE_TYPES.contains(&t)))
                        && unique_strings(ts)
                }
                _ => false,
            }
        } else if key == "enum" || key == "examples" {
            value.is_array()
        } else if key == "required" {
            value
                .as_array()
                .is_some_and(|names| names.iter().all(Value::is_string) && unique_strings(names))
        } else {
            // Not a keyword of 2020-12: the meta-schema allows anything under it.
            !OTHERS.contains(&key)
        }
    })
}

/// Whether the strings of `values` (all strings) are all different: sorted, so that a hostile
/// list of 100,000 names costs what sorting them costs.
fn unique_strings(values: &[Value]) -> bool {
    let mut strings: Vec<&str> = values.iter().filter_map(Value::as_str).collect();
    strings.sort_unstable();
    strings.windows(2).all(|w| w[0] != w[1])
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use serde_json::json;

    use super::*;

    fn meta_valid(schema: &Value) -> bool {
        jsonschema::meta::is_valid(schema)
    }

    #[test]
    fn known_cases() {
        for valid in [
            json!({"type": "object", "properties": {"a": {"type": "string", "enum": ["x"]}}, "required": ["a"]}),
            json!({"type": ["string", "null"], "pattern": "(", "minLength": 0}),
            json!({"anyOf": [{"type": "integer"}, true]}),
            json!({"x-vendor": {"type": 5}}),
        ] {
            assert!(surely_valid(&valid), "{valid}");
            assert!(meta_valid(&valid), "{valid}");
        }
        for unknown in [
            json!({"type": "dict"}),
            json!({"type": []}),
            json!({"required": ["a", "a"]}),
            json!({"items": [{}]}),
            json!({"minLength": 1.0}),
            json!({"anyOf": []}),
            json!({"$schema": "http://json-schema.org/draft-07/schema#"}),
            json!({"$id": "x"}),
            json!("string"),
        ] {
            assert!(!surely_valid(&unknown), "{unknown}");
        }
    }

    /// Keywords of every kind, with values of every JSON type.
    fn schema() -> impl Strategy<Value = Value> {
        let keys = prop::sample::select(
            [STRINGS, BOOLEANS, NUMBERS, COUNTS, ANY, OTHERS]
                .concat()
                .into_iter()
                .chain(
                    KEYWORDS
                        .iter()
                        .map(|k| k.name)
                        .filter(|k| holds_schemas(k).is_some()),
                )
                .chain(["definitions", "contentSchema", "x-other", "name"])
                .collect::<Vec<_>>(),
        );
        let leaf = prop_oneof![
            Just(json!(null)),
            any::<bool>().prop_map(Value::from),
            (-3i64..5).prop_map(Value::from),
            Just(json!(1.5)),
            Just(json!(-0.0)),
            prop::sample::select(vec!["string", "object", "dict", "", "a"]).prop_map(Value::from),
            Just(json!([])),
            Just(json!(["a", "a"])),
            Just(json!(["string", "null"])),
            Just(json!({})),
        ];
        leaf.prop_recursive(4, 48, 6, move |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
                prop::collection::btree_map(keys.clone(), inner, 0..5).prop_map(|m| {
                    Value::Object(m.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
                }),
            ]
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 4_000, ..ProptestConfig::default() })]

        #[test]
        fn surely_valid_schemas_are_valid(schema in schema()) {
            if surely_valid(&schema) {
                prop_assert!(meta_valid(&schema), "{schema}");
            }
        }
    }

    /// Every tool schema of the shared corpora: a surely valid one is valid, and nearly every
    /// valid one is found so.
    #[test]
    #[ignore = "needs ../shared/corpora beside the checkout (CI runs it)"]
    fn surely_valid_schemas_of_the_corpora_are_valid() {
        let mut schemas = Vec::new();
        for text in crate::scan::tests::corpus_documents() {
            collect_schemas(&text, &mut schemas);
        }
        assert!(schemas.len() > 3_000, "{} schemas", schemas.len());
        let (mut sure, mut valid) = (0, 0);
        for schema in &schemas {
            let is_valid = meta_valid(schema);
            valid += usize::from(is_valid);
            if surely_valid(schema) {
                sure += 1;
                assert!(is_valid, "{schema}");
            }
        }
        // When this was written: 3,629 of the 3,632 valid schemas (the invalid ones are BFCL's
        // 6,651 `type: dict`, which the meta-validator must see).
        assert!(sure * 100 >= valid * 95, "{sure} of {valid} valid schemas");
    }

    /// The values of `parameters`, `inputSchema`, `input_schema` and `parametersJsonSchema`
    /// keys anywhere in `value`.
    fn collect_schemas(value: &Value, out: &mut Vec<Value>) {
        match value {
            Value::Object(map) => {
                for (key, v) in map {
                    if matches!(
                        key.as_str(),
                        "parameters" | "inputSchema" | "input_schema" | "parametersJsonSchema"
                    ) && v.is_object()
                    {
                        let mut v = v.clone();
                        v.as_object_mut().expect("an object").remove("$schema");
                        out.push(v);
                    } else {
                        collect_schemas(v, out);
                    }
                }
            }
            Value::Array(items) => items.iter().for_each(|v| collect_schemas(v, out)),
            _ => {}
        }
    }
}
