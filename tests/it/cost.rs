//! `discloser cost` on the bundled example: snapshots of every output format, the `all bound`
//! arithmetic checked against an independent serialisation, and token counts checked against
//! OpenAI's own tiktoken (expected numbers committed in `tests/fixtures/tiktoken_counts.json`).

use crate::support::root;
use std::path::Path;

use discloser::cost::{CostOptions, Counter, Provider, TokenizerKind, cost};
use discloser::project::Project;

fn example() -> Project {
    Project::load(&root().join("discloser.yaml")).expect("the bundled example loads")
}

fn discloser(dir: &Path, args: &[&str]) -> String {
    let out = crate::support::discloser_in(dir, args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

fn options(provider: Provider) -> CostOptions {
    CostOptions {
        provider,
        profiles: Vec::new(),
        by_tool: false,
        turns: None,
        cache_read_discount: 1.0,
    }
}

#[test]
fn table_markdown_json_and_csv_snapshots() {
    let dir = root();
    insta::assert_snapshot!("cost.table", discloser(&dir, &["cost"]));
    insta::assert_snapshot!(
        "cost.markdown",
        discloser(&dir, &["cost", "--format", "markdown"])
    );
    insta::assert_snapshot!("cost.json", discloser(&dir, &["cost", "--format", "json"]));
    insta::assert_snapshot!("cost.csv", discloser(&dir, &["cost", "--format", "csv"]));
    insta::assert_snapshot!(
        "cost.by_tool.turns",
        discloser(
            &dir,
            &[
                "cost",
                "--by-tool",
                "--turns",
                "10",
                "--cache-read-discount",
                "0.1",
                "--tokenizer",
                "cl100k"
            ]
        )
    );
    insta::assert_snapshot!(
        "cost.openai_functions.anthropic",
        discloser(
            &dir,
            &[
                "cost",
                "--tokenizer",
                "openai-functions",
                "--provider",
                "anthropic",
                "-p",
                "default"
            ]
        )
    );
}

/// Every provider `cost` takes counts exactly the definitions `export` writes for it (one wire
/// shape, one writer): the `all bound` bytes are the sum of the exported definitions' compact
/// JSON.
#[test]
fn cost_counts_what_export_writes() {
    use discloser::catalog::formats::export::tools_value;
    let project = example();
    let tools: Vec<_> = project.catalog.tools.iter().collect();
    for provider in Provider::ALL {
        let report = cost(
            &project,
            &Counter::new(TokenizerKind::Chars),
            &options(provider),
        )
        .unwrap();
        let all: Vec<usize> = (0..tools.len()).collect();
        let value = tools_value(provider, &project.catalog, &all);
        let definitions = match provider {
            Provider::Mcp => value["tools"].as_array().unwrap().clone(),
            Provider::Gemini => value[0]["functionDeclarations"].as_array().unwrap().clone(),
            _ => value.as_array().unwrap().clone(),
        };
        assert_eq!(definitions.len(), tools.len(), "{provider:?}");
        // MCP's `_meta` (the trigger words) is for clients, never sent to a model: not counted.
        let bytes: usize = definitions
            .iter()
            .map(|d| {
                let mut d = d.clone();
                if let Some(map) = d.as_object_mut() {
                    map.remove("_meta");
                }
                d.to_string().len()
            })
            .sum();
        assert_eq!(
            report.configurations[0].definitions.bytes, bytes,
            "{provider:?}"
        );
    }
}

/// The `all bound` characters are the sum of every tool's definition serialised by hand here,
/// independently of `Provider::serialize`.
#[test]
fn all_bound_characters_equal_the_independent_serialisation() {
    let project = example();
    for provider in [
        Provider::Raw,
        Provider::Openai,
        Provider::OpenaiResponses,
        Provider::Anthropic,
        Provider::Mcp,
    ] {
        let report = cost(
            &project,
            &Counter::new(TokenizerKind::Chars),
            &options(provider),
        )
        .unwrap();
        let mut chars = 0;
        let mut bytes = 0;
        for tool in &project.catalog.tools {
            let (name, desc, params) = (
                serde_json::to_string(&tool.name).unwrap(),
                serde_json::to_string(&tool.description).unwrap(),
                serde_json::to_string(&tool.parameters).unwrap(),
            );
            let text = match provider {
                Provider::Raw => {
                    format!(r#"{{"name":{name},"description":{desc},"parameters":{params}}}"#)
                }
                Provider::Openai => format!(
                    r#"{{"type":"function","function":{{"name":{name},"description":{desc},"parameters":{params}}}}}"#
                ),
                Provider::Anthropic => {
                    format!(r#"{{"name":{name},"description":{desc},"input_schema":{params}}}"#)
                }
                Provider::Mcp => {
                    format!(r#"{{"name":{name},"description":{desc},"inputSchema":{params}}}"#)
                }
                Provider::OpenaiResponses => format!(
                    r#"{{"type":"function","name":{name},"description":{desc},"parameters":{params},"strict":false}}"#
                ),
                // Gemini rewrites the schema (upper-case types): its serialisation is checked
                // against the export writer in `cost_counts_what_export_writes`.
                Provider::Gemini => unreachable!("not in this list"),
            };
            chars += text.chars().count();
            bytes += text.len();
        }
        let all = &report.configurations[0];
        assert_eq!(all.name, "all bound");
        assert_eq!(all.tools_bound, project.catalog.tools.len());
        assert_eq!(
            (all.definitions.chars, all.definitions.bytes),
            (chars, bytes),
            "{provider:?}"
        );
        assert_eq!(all.total.chars, chars);
        assert_eq!(all.index.chars, 0);
    }
}

/// A profile's total is its bound definitions plus exactly the bytes `render` prints.
#[test]
fn profile_rows_add_the_rendered_index() {
    let project = example();
    let report = cost(
        &project,
        &Counter::new(TokenizerKind::O200k),
        &options(Provider::Raw),
    )
    .unwrap();
    let names: Vec<&str> = report
        .configurations
        .iter()
        .map(|c| c.name.as_str())
        .collect();
    assert_eq!(
        names,
        ["all bound", "default", "filling_form", "chart_requested"]
    );
    for row in &report.configurations[1..] {
        let rendered = discloser(&root(), &["render", "--profile", &row.name]);
        assert_eq!(row.index.chars, rendered.chars().count(), "{}", row.name);
        assert_eq!(row.index.bytes, rendered.len(), "{}", row.name);
        assert_eq!(row.total.chars, row.definitions.chars + row.index.chars);
        assert_eq!(
            row.tools_bound + row.tools_indexed,
            project.catalog.tools.len()
        );
        assert!(
            row.delta_tokens < 0,
            "{}: an index must be cheaper than binding everything",
            row.name
        );
    }
}

/// A profile's index is measured and counted from its lines (each counted once for every
/// profile), never rendered whole: its size and tokens are those of the rendered text, with
/// every tokenizer, for the example's profiles and for a header of several lines, an empty
/// header, and a profile that binds every tool (an empty index).
#[test]
fn index_counts_are_those_of_the_rendered_text() {
    use discloser::index::{Style, build_index, render};
    let tmp = tempfile::tempdir().unwrap();
    let names: Vec<String> = example()
        .catalog
        .tools
        .iter()
        .map(|t| t.name.clone())
        .collect();
    let headers = [
        "Other tools:\n\n  - call them by name\n/ even this line".to_owned(),
        String::new(),
    ];
    let mut projects = vec![example()];
    for header in headers {
        let config = format!(
            "sources: [{}/*.yaml]\nindex:\n  header: {}\nprofiles:\n  default:\n    starter: [start_registration]\n  everything:\n    starter: [{}]\n",
            root().join("tools").display(),
            serde_json::to_string(&header).unwrap(),
            names.join(", ")
        );
        let path = tmp.path().join("discloser.yaml");
        std::fs::write(&path, config).unwrap();
        projects.push(Project::load(&path).unwrap_or_else(|e| panic!("{e}")));
    }
    for project in &projects {
        for kind in [
            TokenizerKind::O200k,
            TokenizerKind::Cl100k,
            TokenizerKind::Chars,
            TokenizerKind::OpenaiFunctions,
        ] {
            let counter = Counter::new(kind);
            let report = cost(project, &counter, &options(Provider::Raw)).unwrap();
            for row in &report.configurations[1..] {
                let profile = project.profile(&row.name).unwrap();
                let text = render(
                    &build_index(&project.catalog, &profile, project.index_config()),
                    Style::Text,
                );
                assert_eq!(row.index.bytes, text.len(), "{} {kind:?}", row.name);
                assert_eq!(
                    row.index.chars,
                    text.chars().count(),
                    "{} {kind:?}",
                    row.name
                );
                assert_eq!(
                    row.index_tokens,
                    counter.count_text(&text),
                    "{} {kind:?}",
                    row.name
                );
            }
        }
    }
}

#[test]
fn a_declared_search_tool_is_counted_in_every_profile() {
    let tmp = tempfile::tempdir().unwrap();
    let config = std::fs::read_to_string(root().join("discloser.yaml")).unwrap();
    let tools = root().join("tools");
    let config = config.replace(
        "  - tools/*.yaml",
        &format!("  - {}/*.yaml", tools.display()),
    );
    std::fs::write(
        tmp.path().join("discloser.yaml"),
        format!("{config}\nsearch_tool: builtin\n"),
    )
    .unwrap();
    let with = Project::load(&tmp.path().join("discloser.yaml")).unwrap();
    let without = example();
    let counter = Counter::new(TokenizerKind::Chars);
    let a = cost(&with, &counter, &options(Provider::Raw)).unwrap();
    let b = cost(&without, &counter, &options(Provider::Raw)).unwrap();
    let search = discloser::config::SearchTool::builtin();
    let search_chars = Provider::Raw
        .serialize(&search.name, &search.description, &search.parameters)
        .chars()
        .count();
    assert_eq!(
        a.configurations[0], b.configurations[0],
        "`all bound` has no search tool"
    );
    for (x, y) in a.configurations[1..].iter().zip(&b.configurations[1..]) {
        assert_eq!(x.tools_bound, y.tools_bound + 1);
        // Reported as its own part, beside the starter definitions and the index.
        assert_eq!(x.definitions, y.definitions);
        assert_eq!(x.definition_tokens, y.definition_tokens);
        assert_eq!(x.search_tool.chars, search_chars);
        assert_eq!(x.search_tool_tokens, search_chars.div_ceil(4) as u64);
        assert_eq!(x.total.chars, y.total.chars + search_chars);
        assert_eq!(
            x.tokens,
            x.definition_tokens + x.index_tokens + x.search_tool_tokens
        );
    }
}

#[test]
fn cumulative_tokens_apply_the_cache_discount_after_the_first_turn() {
    assert_eq!(discloser::cost::cumulative(1000, 1, 0.1), 1000);
    assert_eq!(discloser::cost::cumulative(1000, 10, 0.1), 1000 + 900);
    assert_eq!(discloser::cost::cumulative(1000, 10, 1.0), 10_000);
    assert_eq!(discloser::cost::cumulative(1000, 0, 0.1), 0);
}

/// Token counts of fixture strings equal those of OpenAI's `tiktoken` (see the fixture's
/// `how` field for how the numbers were produced; the test itself needs no Python).
#[test]
fn token_counts_match_tiktoken() {
    let text = std::fs::read_to_string(root().join("tests/fixtures/tiktoken_counts.json"))
        .expect("fixture");
    let fixture: serde_json::Value = serde_json::from_str(&text).unwrap();
    let cases = fixture["cases"].as_array().expect("cases");
    assert!(cases.len() >= 8);
    let o200k = Counter::new(TokenizerKind::O200k);
    let cl100k = Counter::new(TokenizerKind::Cl100k);
    for case in cases {
        let text = case["text"].as_str().unwrap();
        assert_eq!(
            o200k.count_text(text),
            case["o200k_base"].as_u64().unwrap(),
            "o200k: {:?}",
            case["name"]
        );
        assert_eq!(
            cl100k.count_text(text),
            case["cl100k_base"].as_u64().unwrap(),
            "cl100k: {:?}",
            case["name"]
        );
    }
}
