//! Cross-file `$ref`s bundled wherever bytes leave discloser ([`Catalog::bundled`]): `export`
//! to every provider, `snapshot`, `cost` and the validator see one schema that refers to
//! nothing outside itself, and that schema accepts exactly the instances the schema as written
//! (its files resolved) accepts.

use std::path::Path;
use std::sync::Arc;

use discloser::catalog::Catalog;
use discloser::cost::{CostOptions, Counter, Provider, TokenizerKind, cost};
use discloser::project::Project;
use proptest::prelude::*;
use serde_json::{Value, json};

use crate::support::discloser_in;

/// Writes `files` (path, text) under a new temporary folder.
fn project(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temporary directory");
    write_all(dir.path(), files);
    dir
}

fn write_all(root: &Path, files: &[(&str, &str)]) {
    for (path, text) in files {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().expect("a file has a folder")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    }
}

fn load(dir: &Path) -> Project {
    Project::load(&dir.join("discloser.yaml")).unwrap_or_else(|e| panic!("{e}"))
}

/// Every `$ref` string in `value` (data keywords included: a stray one would be found too).
fn refs(value: &Value) -> Vec<String> {
    let mut found = Vec::new();
    let mut stack = vec![value];
    while let Some(node) = stack.pop() {
        match node {
            Value::Object(map) => {
                if let Some(Value::String(r)) = map.get("$ref") {
                    found.push(r.clone());
                }
                stack.extend(map.values());
            }
            Value::Array(items) => stack.extend(items),
            _ => {}
        }
    }
    found
}

fn assert_all_local(value: &Value, what: &str) {
    let refs = refs(value);
    assert!(!refs.is_empty(), "{what}: expected references, found none");
    for r in &refs {
        assert!(r.starts_with('#'), "{what}: `$ref: {r}` leaves the tool");
    }
}

// ------------------------------------------------------ the docs' example (`formats.md`) --

/// The example of docs/formats.md: `common.yaml#/$defs/Kind`, relative to the referring file.
const DOCS_EXAMPLE: &[(&str, &str)] = &[
    (
        "discloser.yaml",
        "sources: [tools/guide.yaml, tools/flight.yaml]\nprofiles:\n  default:\n    starter: [view_guide, book_flight]\n",
    ),
    (
        "tools/guide.yaml",
        "name: view_guide\ndescription: Show a guide.\ntriggers: [guide]\nparameters:\n  type: object\n  properties:\n    kind: {$ref: 'common.yaml#/$defs/Kind'}\n  required: [kind]\n",
    ),
    (
        "tools/flight.yaml",
        "name: book_flight\ndescription: Book a flight.\ntriggers: [flight]\nparameters:\n  type: object\n  properties:\n    cabin: {$ref: 'common.yaml#/$defs/CabinClass'}\n    kind: {$ref: 'common.yaml#/$defs/Kind'}\n",
    ),
    (
        "tools/common.yaml",
        "$defs:\n  Kind: {type: string, enum: [short, long]}\n  CabinClass: {type: string, enum: [economy, business]}\n",
    ),
];

#[test]
fn the_docs_ref_example_exports_to_every_provider_with_only_local_refs() {
    let dir = project(DOCS_EXAMPLE);
    for provider in Provider::ALL {
        let out = discloser_in(dir.path(), &["export", "--provider", provider.as_str()]);
        assert!(
            out.status.success(),
            "{}: {}",
            provider.as_str(),
            String::from_utf8_lossy(&out.stderr)
        );
        let value: Value = serde_json::from_slice(&out.stdout).expect("export prints JSON");
        assert_all_local(&value, provider.as_str());
        let text = value.to_string();
        assert!(
            text.contains(r#""$defs":{"CabinClass":{"type":"string","enum":["economy","business"]},"Kind":{"type":"string","enum":["short","long"]}}"#),
            "{}: {text}",
            provider.as_str()
        );
    }
    // Gemini's OpenAPI `parameters` has no `$ref`: a bundled schema goes in
    // `parametersJsonSchema`, as one with local references always did.
    let out = discloser_in(dir.path(), &["export", "--provider", "gemini", "--compact"]);
    let value: Value = serde_json::from_slice(&out.stdout).unwrap();
    let declarations = value[0]["functionDeclarations"].as_array().unwrap();
    assert!(declarations.iter().all(|d| d.get("parameters").is_none()));
    assert_eq!(
        declarations[1]["parametersJsonSchema"],
        json!({"type": "object", "properties": {"kind": {"$ref": "#/$defs/Kind"}},
               "required": ["kind"], "$defs": {"Kind": {"type": "string", "enum": ["short", "long"]}}})
    );
}

#[test]
fn the_docs_ref_example_snapshots_with_only_local_refs_and_checks_clean() {
    let dir = project(DOCS_EXAMPLE);
    let mut args = vec!["snapshot"];
    for provider in Provider::ALL {
        args.extend(["--provider", provider.as_str()]);
    }
    let out = discloser_in(dir.path(), &args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for provider in Provider::ALL {
        let path = dir.path().join(format!(
            "snapshots/default/tools.{}.jsonl",
            provider.as_str()
        ));
        let text = std::fs::read_to_string(&path).expect("the snapshot is written");
        assert_eq!(text.lines().count(), 2, "{text}");
        for line in text.lines() {
            let value: Value = serde_json::from_str(line).expect("a line is a definition");
            assert_all_local(&value, provider.as_str());
        }
    }
    let openai =
        std::fs::read_to_string(dir.path().join("snapshots/default/tools.openai.jsonl")).unwrap();
    assert_eq!(
        openai.lines().next().unwrap(),
        r##"{"type":"function","function":{"name":"book_flight","description":"Book a flight.","parameters":{"type":"object","properties":{"cabin":{"$ref":"#/$defs/CabinClass"},"kind":{"$ref":"#/$defs/Kind"}},"$defs":{"CabinClass":{"type":"string","enum":["economy","business"]},"Kind":{"type":"string","enum":["short","long"]}}}}}"##
    );
    let check = discloser_in(dir.path(), &["check"]);
    assert_eq!(
        check.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&check.stdout)
    );
}

#[test]
fn cost_counts_the_bundled_definition_bytes() {
    let dir = project(DOCS_EXAMPLE);
    let project = load(dir.path());
    let catalog = &project.catalog;
    let options = CostOptions {
        provider: Provider::Openai,
        profiles: Vec::new(),
        by_tool: true,
        turns: None,
        cache_read_discount: 0.1,
    };
    let report = cost(&project, &Counter::new(TokenizerKind::Chars), &options).unwrap();
    let per_tool = report.tools.as_ref().expect("by tool");
    let mut total = 0;
    for (i, tool) in catalog.tools.iter().enumerate() {
        let bundled = catalog.bundled(i);
        let text = Provider::Openai.serialize(&tool.name, &tool.description, &bundled);
        let written =
            Provider::Openai.serialize(&tool.name, &tool.description, tool.parameters.keep());
        // The copied definitions are what the bundled text adds, and what is counted.
        let defs = bundled["$defs"].to_string();
        assert_eq!(
            text.len(),
            written.len() + r#","$defs":"#.len() + defs.len()
                - refs(tool.parameters.keep())
                    .iter()
                    .map(|r| r.len() - r.trim_start_matches("common.yaml").len())
                    .sum::<usize>(),
            "{}",
            tool.name
        );
        assert_eq!(per_tool[i].definition.bytes, text.len(), "{}", tool.name);
        assert_eq!(
            per_tool[i].definition_tokens,
            Counter::new(TokenizerKind::Chars).count_text(&text)
        );
        let o200k = Counter::new(TokenizerKind::O200k);
        let exact = cost(&project, &o200k, &options).unwrap();
        assert_eq!(
            exact.tools.as_ref().unwrap()[i].definition_tokens,
            o200k.count_text(&text),
            "{}",
            tool.name
        );
        total += text.len();
    }
    let all_bound = &report.configurations[0];
    assert_eq!(all_bound.definitions.bytes, total);
    // Every tool is bound in `default`: the same definitions, no index entry.
    assert_eq!(report.configurations[1].definitions.bytes, total);
}

/// (Its schema was once borrowed from the catalog; schemas are kept packed now, so it is a copy
/// unpacked for the call, equal to the schema as written.)
#[test]
fn a_tool_without_file_refs_is_sent_as_written() {
    let dir = project(&[
        ("discloser.yaml", "sources: [t.yaml]\n"),
        (
            "t.yaml",
            "name: t\ndescription: T.\nparameters:\n  type: object\n  properties:\n    k: {$ref: '#/$defs/K'}\n  $defs:\n    K: {type: string}\n",
        ),
    ]);
    let project = load(dir.path());
    let sent = project.catalog.bundled(0);
    assert_eq!(*sent, project.catalog.tools[0].parameters.to_value());
    assert_eq!(
        sent.to_string(),
        r##"{"type":"object","properties":{"k":{"$ref":"#/$defs/K"}},"$defs":{"K":{"type":"string"}}}"##
    );
}

// --------------------------------------------------------------------- names and shapes --

#[test]
fn bundled_names_keep_the_definition_name_then_add_the_file_then_a_number() {
    let dir = project(&[
        ("discloser.yaml", "sources: [tools/t.yaml]\n"),
        (
            "tools/t.yaml",
            r##"name: t
description: T.
parameters:
  type: object
  properties:
    own: {$ref: '#/$defs/Kind'}
    a: {$ref: '../a/common.yaml#/$defs/Kind'}
    b: {$ref: '../b/common.yaml#/$defs/Kind'}
    again: {$ref: '../a/common.yaml#/%24defs/Kind'}
    spaced: {$ref: '../a/common.yaml#/$defs/My%20Kind'}
    whole: {$ref: '../kind.json'}
  $defs:
    Kind: {type: integer}
"##,
        ),
        (
            "a/common.yaml",
            "$id: https://example.com/a\n$defs:\n  Kind: {type: string, $id: inner}\n  My Kind: {const: x}\n",
        ),
        ("b/common.yaml", "$defs:\n  Kind: {type: boolean}\n"),
        (
            "kind.json",
            r##"{"$schema": "https://json-schema.org/draft/2020-12/schema", "anyOf": [{"$ref": "#/$defs/Leaf"}, {"type": "null"}], "$defs": {"Leaf": {"type": "number"}, "Unused": {"$ref": "a/common.yaml#/$defs/Kind"}}}"##,
        ),
    ]);
    let project = load(dir.path());
    let bundled = project.catalog.bundled(0);
    assert_eq!(
        bundled.as_ref(),
        &json!({
            "type": "object",
            "properties": {
                "own": {"$ref": "#/$defs/Kind"},
                "a": {"$ref": "#/$defs/Kind_common"},
                "b": {"$ref": "#/$defs/Kind_common_2"},
                "again": {"$ref": "#/$defs/Kind_common"},
                "spaced": {"$ref": "#/$defs/My_Kind"},
                "whole": {"$ref": "#/$defs/kind"},
            },
            "$defs": {
                "Kind": {"type": "integer"},
                "Kind_common": {"type": "string"},
                "Kind_common_2": {"type": "boolean"},
                "My_Kind": {"const": "x"},
                "kind": {"anyOf": [{"$ref": "#/$defs/Leaf"}, {"type": "null"}]},
                "Leaf": {"type": "number"},
            },
        })
    );
    // Key order is part of the bytes: the tool's own definitions first, then the copies in
    // the order they were first met.
    let keys: Vec<&String> = bundled["$defs"].as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        [
            "Kind",
            "Kind_common",
            "Kind_common_2",
            "My_Kind",
            "kind",
            "Leaf"
        ]
    );
}

#[test]
fn a_tool_with_definitions_gets_its_copies_there() {
    let dir = project(&[
        ("discloser.yaml", "sources: [t.yaml]\n"),
        (
            "t.yaml",
            "name: t\ndescription: T.\nparameters:\n  type: object\n  properties:\n    k: {$ref: 'k.yaml#/definitions/K'}\n    own: {$ref: '#/definitions/Own'}\n  definitions:\n    Own: {type: string}\n",
        ),
        ("k.yaml", "definitions:\n  K: {type: integer}\n"),
    ]);
    let project = load(dir.path());
    assert_eq!(
        project.catalog.bundled(0).as_ref(),
        &json!({"type": "object", "properties": {"k": {"$ref": "#/definitions/K"}, "own": {"$ref": "#/definitions/Own"}},
                "definitions": {"Own": {"type": "string"}, "K": {"type": "integer"}}})
    );
}

// ------------------------------------------------------------- validation equivalence --

/// Reads `file:///p/<path>` from the project folder (JSON or YAML), as a validator resolving
/// the files themselves would.
struct FolderRetriever(Arc<std::path::PathBuf>);

impl jsonschema::Retrieve for FolderRetriever {
    fn retrieve(
        &self,
        uri: &jsonschema::Uri<String>,
    ) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
        let path = uri
            .as_str()
            .strip_prefix("file:///p/")
            .ok_or_else(|| format!("unexpected uri `{}`", uri.as_str()))?;
        let path = path.split('#').next().unwrap_or(path);
        let text = std::fs::read_to_string(self.0.join(path))?;
        Ok(serde_saphyr::from_str(&text)?)
    }
}

/// The validator of the tool at `index` as written, its files fetched by a retriever.
fn original_validator(
    dir: &Path,
    catalog: &Catalog,
    index: usize,
    file: &str,
) -> jsonschema::Validator {
    jsonschema::options()
        .with_base_uri(format!("file:///p/{file}"))
        .with_retriever(FolderRetriever(Arc::new(dir.to_path_buf())))
        .build(catalog.tools[index].parameters.keep())
        .unwrap_or_else(|e| panic!("the original compiles: {e}"))
}

/// The validator of the bundled schema, which must need no retriever at all.
fn bundled_validator(catalog: &Catalog, index: usize) -> jsonschema::Validator {
    let bundled = catalog.bundled(index);
    assert_all_local(&bundled, &catalog.tools[index].name);
    jsonschema::options()
        .offline()
        .build(&bundled)
        .unwrap_or_else(|e| panic!("the bundled schema compiles offline: {e}"))
}

/// Same verdict from both validators on every instance; both verdicts occur.
fn assert_same_verdicts(files: &[(&str, &str)], tool_file: &str, instances: &[Value]) {
    let dir = project(files);
    let project = load(dir.path());
    let catalog = &project.catalog;
    let original = original_validator(dir.path(), catalog, 0, tool_file);
    let bundled = bundled_validator(catalog, 0);
    let mut verdicts = Vec::new();
    for instance in instances {
        let expected = original.is_valid(instance);
        assert_eq!(
            bundled.is_valid(instance),
            expected,
            "{instance} against {}",
            catalog.bundled(0)
        );
        verdicts.push(expected);
    }
    assert!(
        verdicts.contains(&true) && verdicts.contains(&false),
        "{verdicts:?}"
    );
}

#[test]
fn bundled_nested_and_transitive_refs_validate_the_same() {
    let files = [
        ("discloser.yaml", "sources: [tools/*.yaml]\n"),
        (
            "tools/order.yaml",
            "name: order\ndescription: O.\nparameters:\n  type: object\n  properties:\n    to: {$ref: '../schemas/address.yaml#/$defs/Address'}\n    pages: {$ref: '../schemas/address.yaml#/$defs/Pages'}\n  required: [to]\n  additionalProperties: false\n",
        ),
        (
            "schemas/address.yaml",
            "$defs:\n  Address:\n    type: object\n    properties:\n      zip: {$ref: '#/$defs/Zip'}\n      country: {$ref: 'geo/country.yaml#/$defs/Country'}\n    required: [zip]\n  Zip: {type: string, pattern: '^[0-9]{5}$'}\n  Pages: {type: array, items: {$ref: '#/$defs/Pages/$defs/Page'}, $defs: {Page: {type: integer, minimum: 1}}}\n",
        ),
        (
            "schemas/geo/country.yaml",
            "$defs:\n  Country: {$ref: '#/$defs/Code', description: 'Two letters.', maxLength: 2}\n  Code: {type: string, enum: [de, fr, usa]}\n",
        ),
    ];
    let instances = [
        json!({"to": {"zip": "12345"}}),
        json!({"to": {"zip": "12345", "country": "de"}, "pages": [1, 2]}),
        json!({"to": {"zip": "1234"}}),
        json!({"to": {"zip": 12345}}),
        json!({"to": {"country": "de"}}),
        json!({"to": {"zip": "12345", "country": "it"}}),
        // In the enum, but longer than the sibling `maxLength` beside the `$ref`.
        json!({"to": {"zip": "12345", "country": "usa"}}),
        json!({"to": {"zip": "12345"}, "pages": [0]}),
        json!({"to": {"zip": "12345"}, "pages": ["1"]}),
        json!({"to": {"zip": "12345"}, "extra": true}),
        json!({}),
    ];
    assert_same_verdicts(&files, "tools/order.yaml", &instances);
}

#[test]
fn bundled_colliding_names_validate_the_same() {
    let files = [
        ("discloser.yaml", "sources: [tools/*.yaml]\n"),
        (
            "tools/t.yaml",
            "name: t\ndescription: T.\nparameters:\n  type: object\n  properties:\n    own: {$ref: '#/$defs/Kind'}\n    a: {$ref: '../a/common.yaml#/$defs/Kind'}\n    b: {$ref: '../b/common.yaml#/$defs/Kind'}\n  $defs:\n    Kind: {type: integer}\n    Kind_common: {type: 'null'}\n",
        ),
        (
            "a/common.yaml",
            "$defs:\n  Kind: {type: string, minLength: 2}\n",
        ),
        (
            "b/common.yaml",
            "$defs:\n  Kind: {type: array, items: {$ref: '#/$defs/Item'}}\n  Item: {$ref: '../a/common.yaml#/$defs/Kind'}\n",
        ),
    ];
    let instances = [
        json!({"own": 1, "a": "xy", "b": ["ab", "cd"]}),
        json!({"own": "1"}),
        json!({"a": "x"}),
        json!({"a": null}),
        json!({"b": ["a"]}),
        json!({"b": [1]}),
        json!({"b": []}),
    ];
    assert_same_verdicts(&files, "tools/t.yaml", &instances);
}

#[test]
fn bundled_cycles_validate_the_same() {
    let files = [
        ("discloser.yaml", "sources: [tools/*.yaml]\n"),
        (
            "tools/tree.yaml",
            "name: tree\ndescription: T.\nparameters:\n  type: object\n  properties:\n    root: {$ref: '../tree.yaml#/$defs/Node'}\n    ping: {$ref: '../ping.yaml'}\n",
        ),
        (
            "tree.yaml",
            "$defs:\n  Node:\n    type: object\n    properties:\n      value: {type: integer}\n      children: {type: array, items: {$ref: '#/$defs/Node'}}\n    required: [value]\n",
        ),
        (
            "ping.yaml",
            "type: object\nproperties:\n  pong: {$ref: 'pong.yaml'}\n  n: {type: integer, maximum: 3}\n",
        ),
        (
            "pong.yaml",
            "type: object\nproperties:\n  ping: {$ref: 'ping.yaml'}\n  s: {type: string}\n",
        ),
    ];
    let instances = [
        json!({"root": {"value": 1, "children": [{"value": 2}, {"value": 3, "children": []}]}}),
        json!({"root": {"value": 1, "children": [{"value": "2"}]}}),
        json!({"root": {"children": []}}),
        json!({"root": {"value": 1, "children": [{"value": 2, "children": [{}]}]}}),
        json!({"ping": {"n": 1, "pong": {"s": "x", "ping": {"n": 3, "pong": {}}}}}),
        json!({"ping": {"pong": {"ping": {"n": 4}}}}),
        json!({"ping": {"pong": {"s": 1}}}),
    ];
    assert_same_verdicts(&files, "tools/tree.yaml", &instances);
    let dir = project(&files);
    let project = load(dir.path());
    let bundled = project.catalog.bundled(0);
    assert_eq!(
        bundled["$defs"]["Node"]["properties"]["children"]["items"],
        json!({"$ref": "#/$defs/Node"})
    );
    assert_eq!(
        bundled["$defs"]["pong"]["properties"]["ping"],
        json!({"$ref": "#/$defs/ping"})
    );
}

// A small random catalog of files whose definitions refer to each other (with cycles and
// repeated names), and random instances: the bundled schema agrees with the original on each.

/// One definition: what it checks, and which definitions (file, def) it refers to.
#[derive(Clone, Debug)]
enum Def {
    Int(i64),
    Text(usize),
    AnyOf((usize, usize), usize),
    Items((usize, usize)),
    Object((usize, usize), bool),
}

const NAMES: [&str; 3] = ["Kind", "Item", "Kind_f1"];

fn def_strategy() -> impl Strategy<Value = Def> {
    let target = (0usize..3, 0usize..3);
    prop_oneof![
        (-2i64..3).prop_map(Def::Int),
        (0usize..3).prop_map(Def::Text),
        (target.clone(), 0usize..3).prop_map(|(t, n)| Def::AnyOf(t, n)),
        target.clone().prop_map(Def::Items),
        (target, any::<bool>()).prop_map(|(t, r)| Def::Object(t, r)),
    ]
}

/// The `$ref` from file `from` to definition `to`.
fn ref_to(from: usize, (file, def): (usize, usize)) -> String {
    if file == from {
        format!("#/$defs/{}", NAMES[def])
    } else {
        format!("f{file}.json#/$defs/{}", NAMES[def])
    }
}

fn def_schema(from: usize, def: &Def) -> Value {
    match def {
        Def::Int(min) => json!({"type": "integer", "minimum": min}),
        Def::Text(max) => json!({"type": "string", "maxLength": max}),
        // Every reference sits under `items` or `properties`, so a cycle of them consumes the
        // instance and validation ends.
        Def::AnyOf(t, max) => json!({"anyOf": [
            {"type": "array", "maxItems": max, "items": {"$ref": ref_to(from, *t)}},
            {"type": "integer", "maximum": max},
        ]}),
        Def::Items(t) => json!({"type": "array", "items": {"$ref": ref_to(from, *t)}}),
        Def::Object(t, required) => {
            let mut schema =
                json!({"type": "object", "properties": {"x": {"$ref": ref_to(from, *t)}}});
            if *required {
                schema["required"] = json!(["x"]);
            }
            schema
        }
    }
}

fn instance_strategy() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        (-3i64..4).prop_map(Value::from),
        "[ab]{0,3}".prop_map(Value::from),
        Just(Value::Null),
    ];
    leaf.prop_recursive(3, 12, 3, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..3).prop_map(Value::Array),
            inner.prop_map(|x| json!({"x": x})),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn bundled_random_ref_graphs_validate_the_same(
        defs in prop::collection::vec(prop::collection::vec(def_strategy(), 3), 3),
        uses in prop::collection::vec((0usize..3, 0usize..3), 1..4),
        own in any::<bool>(),
        instances in prop::collection::vec(instance_strategy(), 12),
    ) {
        let mut files: Vec<(String, String)> = vec![("discloser.yaml".into(), "sources: [t.json]\n".into())];
        for (f, file_defs) in defs.iter().enumerate() {
            let map: serde_json::Map<String, Value> = file_defs
                .iter()
                .enumerate()
                .map(|(d, def)| (NAMES[d].to_owned(), def_schema(f, def)))
                .collect();
            files.push((format!("f{f}.json"), json!({"$defs": map}).to_string()));
        }
        let mut properties = serde_json::Map::new();
        for (i, &(file, def)) in uses.iter().enumerate() {
            properties.insert(format!("p{i}"), json!({"$ref": format!("f{file}.json#/$defs/{}", NAMES[def])}));
        }
        let mut parameters = json!({"type": "object", "properties": properties});
        if own {
            parameters["$defs"] = json!({"Kind": {"type": "boolean"}});
            parameters["properties"]["own"] = json!({"$ref": "#/$defs/Kind"});
        }
        files.push(("t.json".into(), json!({"name": "t", "description": "T.", "parameters": parameters}).to_string()));
        let borrowed: Vec<(&str, &str)> = files.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
        let dir = project(&borrowed);
        let project = load(dir.path());
        let catalog = &project.catalog;
        let original = jsonschema::options()
            .with_base_uri("file:///p/t.json")
            .with_retriever(FolderRetriever(Arc::new(dir.path().to_path_buf())))
            .build(catalog.tools[0].parameters.keep())
            .expect("the original compiles");
        let bundled = bundled_validator(catalog, 0);
        let keys: Vec<String> = uses.iter().enumerate().map(|(i, _)| format!("p{i}")).collect();
        for instance in &instances {
            // Each instance under every property, and as the whole object.
            let whole: serde_json::Map<String, Value> =
                keys.iter().map(|k| (k.clone(), instance.clone())).collect();
            for value in [Value::Object(whole), instance.clone()] {
                prop_assert_eq!(
                    bundled.is_valid(&value),
                    original.is_valid(&value),
                    "{} against {}", value, catalog.bundled(0)
                );
            }
        }
    }
}
