//! Property tests (proptest) of the index's promises, over generated descriptions, triggers and
//! catalogs:
//! - a packed summary never exceeds its budget unless it is exactly one sentence, never ends
//!   inside a word, and is a prefix, by whole sentences, of the normalised description;
//! - trigger order is a total order: the same triggers in any order normalise to the same list,
//!   sorted strictly, and normalising twice changes nothing;
//! - rendering is deterministic and independent of the order and names of the source files;
//! - `render` of a catalog imported into native YAML (`discloser import`) and exported again to
//!   every provider (`discloser export`) equals `render` of the original.
//!
//! The seed is fixed, so a run is reproducible; `PROPTEST_CASES` raises the number of cases
//! locally (the defaults keep this file at a few seconds in debug builds).

use std::path::{Path, PathBuf};

use discloser::catalog::formats::export::document;
use discloser::catalog::formats::provider::Provider as ExportTarget;
use discloser::catalog::formats::yaml;
use discloser::catalog::{Catalog, Tool};
use discloser::config::IndexConfig;
use discloser::index::summary::{is_cjk, pack_summary, sentences};
use discloser::index::{Style, build_index, normalize_triggers, render};
use discloser::project::Profile;
use discloser::source::SourceFile;
use proptest::prelude::*;
use proptest::sample::select;
use proptest::test_runner::{Config as ProptestConfig, RngSeed};
use serde_json::{Map, Value, json};

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases: std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|c| c.parse().ok())
            .unwrap_or(cases),
        rng_seed: RngSeed::Fixed(0x00d1_5c10_5e12),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

// ---------------------------------------------------------------------------------------------
// Generators
// ---------------------------------------------------------------------------------------------

/// Pieces of descriptions that exercise the packer: abbreviations, CJK terminators, docstring
/// sections, Markdown, odd white space.
const FRAGMENTS: &[&str] = &[
    "Fetch the weather.",
    "Use it when asked about forecasts!",
    "Really?",
    "e.g.",
    "i.e.",
    "U.S.",
    "Dr.",
    "Mr. Li",
    "etc.",
    "vs.",
    "No. 5",
    "J. Smith",
    "client.Get",
    "1.5 million",
    "v2.0",
    "https://example.com/a.html",
    "取内置长指南全文，",
    "据全文作答。",
    "真的吗？",
    "好！",
    "(see below)",
    "（可选）",
    "Options:",
    "as follows:",
    "word",
    "another",
    "Ünïcödé",
    "cafe\u{301}",
    "\n",
    "\n\n",
    "\r\n",
    "\t",
    "  ",
    "\n\nArgs:\n    x: the x.",
    "\n\nReturns:\n    y",
    "\n# Heading\n",
    "\n- item\n",
    "\n1. first\n",
    "# Title\n\n",
    "Parameters\n----------\n",
    ":param x: the x",
    "\u{200b}",
    "\u{a0}",
];

fn description() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            6 => select(FRAGMENTS).prop_map(str::to_owned),
            2 => "[A-Za-z]{1,9}[.!?]?",
            1 => "\\PC{0,6}",
        ],
        0..24,
    )
    .prop_map(|parts| {
        let mut out = String::new();
        for (i, part) in parts.iter().enumerate() {
            if i > 0 && !part.starts_with(['\n', '\r', '\t', ' ']) {
                out.push(' ');
            }
            out.push_str(part);
        }
        out
    })
}

const TRIGGER_WORDS: &[&str] = &[
    "chart",
    "plot",
    "图表",
    "画图",
    "BP",
    "b",
    "B",
    " chart ",
    "",
    "  ",
    "café",
    "cafe\u{301}",
    "book a slot",
    "预约",
    "Z",
    "zz",
    "ä",
];

fn triggers() -> impl Strategy<Value = Vec<String>> {
    prop::collection::vec(
        prop_oneof![
            3 => select(TRIGGER_WORDS).prop_map(str::to_owned),
            1 => "\\PC{0,5}",
        ],
        0..8,
    )
}

const ENUM_VALUES: &[&str] = &[
    "bar",
    "line",
    "pie",
    "a b",
    "+1",
    "-1",
    "1",
    "true",
    "null",
    "x|y",
    "名字",
    "self_register",
];

fn enum_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        4 => select(ENUM_VALUES).prop_map(|s| json!(s)),
        1 => any::<i32>().prop_map(|n| json!(n)),
        1 => any::<bool>().prop_map(|b| json!(b)),
        1 => Just(Value::Null),
    ]
}

fn leaf_schema() -> impl Strategy<Value = Value> {
    prop_oneof![
        select(
            &[
                "string", "integer", "number", "boolean", "object", "dict", "float"
            ][..]
        )
        .prop_map(|t| json!({"type": t})),
        prop::collection::vec(enum_value(), 1..6)
            .prop_map(|values| json!({"type": "string", "enum": values})),
        enum_value().prop_map(|v| json!({"const": v})),
        Just(json!({"$ref": "#/$defs/Kind"})),
        Just(json!({"type": ["string", "null"]})),
        Just(json!({})),
    ]
}

fn schema() -> impl Strategy<Value = Value> {
    leaf_schema().prop_recursive(3, 12, 3, |inner| {
        prop_oneof![
            inner
                .clone()
                .prop_map(|items| json!({"type": "array", "items": items})),
            prop::collection::vec(inner.clone(), 1..3).prop_map(|v| json!({"anyOf": v})),
            inner
                .clone()
                .prop_map(|s| json!({"anyOf": [s, {"type": "null"}]})),
            prop::collection::btree_map("[a-z]{1,5}", inner, 0..3)
                .prop_map(|p| json!({"type": "object", "properties": p})),
        ]
    })
}

/// An object schema: properties, a `required` list (with a missing name sometimes) and an enum
/// definition for `$ref`s.
fn parameters() -> impl Strategy<Value = Value> {
    (
        prop::collection::vec(("[a-z][a-z_]{0,6}", schema(), any::<bool>()), 0..5),
        any::<bool>(),
    )
        .prop_map(|(props, missing)| {
            let mut properties = Map::new();
            let mut required = Vec::new();
            for (name, schema, req) in props {
                if req && !required.contains(&json!(name)) {
                    required.push(json!(name));
                }
                properties.insert(name, schema);
            }
            if missing {
                required.push(json!("not_a_property"));
            }
            json!({
                "type": "object",
                "properties": properties,
                "required": required,
                "$defs": {"Kind": {"type": "string", "enum": ["a", "b c", "d"]}},
            })
        })
}

/// Native tools with unique names.
fn tools(max: usize) -> impl Strategy<Value = Vec<Value>> {
    prop::collection::btree_map(
        "[a-z][a-z0-9_]{0,10}",
        (description(), triggers(), parameters(), any::<bool>()),
        0..max,
    )
    .prop_map(|tools| {
        tools
            .into_iter()
            .map(|(name, (description, triggers, parameters, core))| {
                json!({
                    "name": name,
                    "description": description,
                    "triggers": triggers,
                    "core": core,
                    "parameters": parameters,
                })
            })
            .collect()
    })
}

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

fn root() -> &'static Path {
    Path::new("/nonexistent-discloser-properties")
}

fn load(files: &[(String, String)]) -> Catalog {
    let sources = files
        .iter()
        .map(|(name, text)| SourceFile::from_text(text.clone(), PathBuf::from(name)))
        .collect();
    Catalog::from_sources(sources, root()).unwrap_or_else(|e| panic!("loads: {e}\n{files:?}"))
}

/// The index of the profile binding only core tools, in a style.
fn render_style(catalog: &Catalog, style: Style) -> String {
    let profile = Profile {
        name: "default".into(),
        bound: catalog
            .tools
            .iter()
            .filter(|t| t.core)
            .map(|t| t.name.clone())
            .collect(),
    };
    render(
        &build_index(catalog, &profile, &IndexConfig::default()),
        style,
    )
}

/// The sentences joined as the packer joins them: a space, except next to CJK.
fn joined(sentences: &[String]) -> String {
    let mut out = String::new();
    for s in sentences {
        let cjk =
            out.chars().next_back().is_some_and(is_cjk) || s.chars().next().is_some_and(is_cjk);
        if !out.is_empty() && !cjk {
            out.push(' ');
        }
        out.push_str(s);
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Summary packing
// ---------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(config(512))]

    #[test]
    fn summary_never_exceeds_the_budget_unless_it_is_one_sentence(
        d in description(),
        budget in 0usize..300,
    ) {
        let s = pack_summary(&d, budget);
        let chars = s.text.chars().count();
        if chars > budget {
            prop_assert_eq!(s.sentences, 1, "over budget with several sentences: {:?}", s);
            prop_assert!(s.over_budget);
        } else {
            prop_assert!(!s.over_budget);
        }
    }

    #[test]
    fn summary_is_a_prefix_of_the_description_by_whole_sentences(
        d in description(),
        budget in 0usize..300,
    ) {
        let s = pack_summary(&d, budget);
        let all = sentences(&d);
        prop_assert_eq!(s.dropped, s.sentences < all.len());
        prop_assert_eq!(&s.text, &joined(&all[..s.sentences]));
        // The whole normalised description starts with the summary.
        let whole = joined(&all);
        prop_assert!(whole.starts_with(&s.text), "{:?} is not a prefix of {:?}", s.text, whole);
        prop_assert!(!all.is_empty() || s.text.is_empty());
        prop_assert!(all.is_empty() || s.sentences >= 1, "the first sentence is always taken");
    }

    #[test]
    fn summary_never_ends_inside_a_word(d in description(), budget in 0usize..300) {
        let s = pack_summary(&d, budget);
        let whole = joined(&sentences(&d));
        let rest = &whole[s.text.len()..];
        let last = s.text.chars().next_back();
        let next = rest.chars().next();
        let inside = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() && !is_cjk(c));
        prop_assert!(
            !(inside(last) && inside(next)),
            "cut inside a word: {:?} | {:?}", s.text, rest
        );
        prop_assert_eq!(s.text.trim(), s.text.as_str(), "no edge white space");
        prop_assert!(!s.text.contains(['\n', '\r', '\t']), "one line: {:?}", s.text);
    }
}

// ---------------------------------------------------------------------------------------------
// Triggers
// ---------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(config(512))]

    #[test]
    fn trigger_order_is_a_total_order(
        (list, shuffled) in triggers().prop_flat_map(|t| (Just(t.clone()), Just(t).prop_shuffle())),
    ) {
        let a = normalize_triggers(&list);
        let b = normalize_triggers(&shuffled);
        prop_assert_eq!(&a, &b, "the order written does not matter");
        let key = |t: &String| (t.chars().count(), t.clone());
        prop_assert!(
            a.windows(2).all(|w| key(&w[0]) < key(&w[1])),
            "strictly sorted, shorter first, then by code point: {:?}", a
        );
        prop_assert_eq!(normalize_triggers(&a), a.clone(), "idempotent");
        prop_assert!(a.iter().all(|t| !t.is_empty() && t.trim() == t));
    }
}

// ---------------------------------------------------------------------------------------------
// Rendering
// ---------------------------------------------------------------------------------------------

/// Splits tools into 1-4 files with generated names, in a shuffled order.
/// Files as (name, text).
type Files = Vec<(String, String)>;

fn split_files() -> impl Strategy<Value = (Files, Files)> {
    (tools(10), 1usize..5, prop::collection::vec("[a-z]{1,6}", 4)).prop_flat_map(
        |(tools, nfiles, names)| {
            let mut files: Vec<Vec<Value>> = vec![Vec::new(); nfiles];
            for (i, tool) in tools.into_iter().enumerate() {
                files[i % nfiles].push(tool);
            }
            let files: Vec<(String, String)> = files
                .into_iter()
                .enumerate()
                .map(|(i, tools)| {
                    let text = if i % 2 == 0 {
                        serde_json::to_string_pretty(&tools).expect("serialise")
                    } else {
                        yaml::document(&Value::Array(tools))
                    };
                    let ext = if i % 2 == 0 { "json" } else { "yaml" };
                    (format!("{i}-{}.{ext}", names[i]), text)
                })
                .collect();
            let renamed: Vec<(String, String)> = files
                .iter()
                .enumerate()
                .map(|(i, (name, text))| (format!("z{}-{}", 9 - i, name), text.clone()))
                .collect();
            (Just(files), Just(renamed).prop_shuffle())
        },
    )
}

proptest! {
    #![proptest_config(config(96))]

    #[test]
    fn rendering_is_deterministic_and_independent_of_source_order((files, shuffled) in split_files()) {
        let a = load(&files);
        let b = load(&shuffled);
        for style in [Style::Text, Style::Markdown, Style::Json] {
            let first = render_style(&a, style);
            prop_assert_eq!(&first, &render_style(&a, style), "deterministic");
            prop_assert_eq!(&first, &render_style(&b, style), "independent of file order and names");
            prop_assert!(first.is_empty() || (first.ends_with('\n') && !first.ends_with("\n\n")));
            prop_assert!(first.lines().all(|l| l == l.trim_end()), "no trailing spaces");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Import, then export
// ---------------------------------------------------------------------------------------------

const TARGETS: [(ExportTarget, &str); 5] = [
    (ExportTarget::Openai, "openai.json"),
    (ExportTarget::OpenaiResponses, "responses.json"),
    (ExportTarget::Anthropic, "anthropic.json"),
    (ExportTarget::Mcp, "mcp.json"),
    (ExportTarget::Gemini, "gemini.json"),
];

/// Tools without discloser-only settings, as a foreign format carries them.
fn foreign_tools(max: usize) -> impl Strategy<Value = Vec<Value>> {
    tools(max).prop_map(|tools| {
        tools
            .into_iter()
            .map(|mut t| {
                let map = t.as_object_mut().expect("a tool is an object");
                map.remove("triggers");
                map.remove("core");
                t
            })
            .collect()
    })
}

proptest! {
    #![proptest_config(config(48))]

    #[test]
    fn render_of_an_imported_then_exported_catalog_equals_the_original(
        tools in foreign_tools(8),
        from in 0usize..5,
        to in 0usize..5,
    ) {
        // The original: the tools in a provider's format, as a team would have them.
        let native = load(&[("tools.json".to_owned(), serde_json::to_string(&tools).expect("json"))]);
        let natives: Vec<usize> = (0..native.tools.len()).collect();
        let (from_target, from_name) = TARGETS[from];
        let original_text = serde_json::to_string_pretty(&document(from_target, &native, &natives, None))
            .expect("serialise");
        let original = load(&[(from_name.to_owned(), original_text)]);
        // `discloser import`: native YAML of the original's tools.
        let originals: Vec<&Tool> = original.tools.iter().collect();
        let imported = load(&[("imported.yaml".to_owned(), yaml::native_tools(&originals))]);
        // `discloser export`: the imported tools in a (possibly other) provider's format.
        let imports: Vec<usize> = (0..imported.tools.len()).collect();
        let (to_target, to_name) = TARGETS[to];
        let exported_text = serde_json::to_string_pretty(&document(to_target, &imported, &imports, None))
            .expect("serialise");
        let exported = load(&[(to_name.to_owned(), exported_text)]);
        for style in [Style::Text, Style::Json] {
            prop_assert_eq!(
                render_style(&exported, style),
                render_style(&original, style),
                "{} -> import -> {}", from_name, to_name
            );
        }
    }
}
