//! Tool formats: detection, the same tool rendering the same entry whatever its format, round
//! trips through every provider's export, `discloser import` and `discloser export`, and the
//! clear errors for files that mix formats or match none.
//!
//! Fixtures: `tests/fixtures/formats/same_tool/` holds one tool written in every input format
//! (native YAML, OpenAI Chat Completions request body, OpenAI Responses tools, OpenAI legacy
//! `functions` with BFCL's `type: dict`, Anthropic Messages request body, MCP JSON-RPC response,
//! Gemini request body with upper-case OpenAPI types, Gemini `function_declarations`).
//!
//! Real files come from the shared corpora beside the checkout: those tests are `#[ignore]`d
//! (`.ci/run` runs them), and each has a twin that runs the same check on every clone over
//! `tests/fixtures/corpus/`, their hand-written miniature.

use crate::support::{fixture_corpus, root, shared_corpora};
use std::path::{Path, PathBuf};
use std::process::Output;

use discloser::catalog::formats::Format;
use discloser::catalog::formats::export::tools_value;
use discloser::catalog::formats::provider::Provider as ExportTarget;
use discloser::catalog::{Catalog, Tool};
use discloser::diagnostic::ErrorKind;
use discloser::index::{Style, build_index, render};
use discloser::project::Project;
use discloser::source::SourceFile;

const TARGETS: [ExportTarget; 5] = [
    ExportTarget::Openai,
    ExportTarget::OpenaiResponses,
    ExportTarget::Anthropic,
    ExportTarget::Mcp,
    ExportTarget::Gemini,
];

/// Every fixture of the same tool and the format it must be detected as.
const SAME_TOOL: [(&str, Format); 8] = [
    ("native.yaml", Format::Native),
    ("openai.json", Format::Openai),
    ("openai-responses.json", Format::OpenaiResponses),
    ("openai-functions.json", Format::OpenaiFunctions),
    ("anthropic.json", Format::Anthropic),
    ("mcp.json", Format::Mcp),
    ("gemini.json", Format::Gemini),
    ("gemini-python.json", Format::Gemini),
];

/// The entry every one of them renders, with the triggers set in `overrides`.
const ENTRY: &str = "- view_startup_guide(kind: self_register|tax_filing|business_plan, …) [BP / 自己报税 / 商业计划书] 取内置长指南全文，据全文作答。Read the full built-in guide before answering.";

fn same_tool(file: &str) -> PathBuf {
    root().join("tests/fixtures/formats/same_tool").join(file)
}

use crate::support::discloser_in as discloser;

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A project in a temporary directory: `discloser.yaml` with this text.
fn project_with(
    config: &str,
) -> (
    tempfile::TempDir,
    Result<Project, discloser::diagnostic::LoadError>,
) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("discloser.yaml"), config).unwrap();
    let project = Project::load(&dir.path().join("discloser.yaml"));
    (dir, project)
}

fn text_index(project: &Project, profile: &str) -> String {
    let profile = project.profile(profile).unwrap();
    render(
        &build_index(&project.catalog, &profile, project.index_config()),
        Style::Text,
    )
}

/// What a catalog is, for comparisons: every tool's name, description, schema, title and
/// annotations, in order.
fn essence(catalog: &Catalog) -> Vec<String> {
    catalog.tools.iter().map(tool_essence).collect()
}

fn tool_essence(t: &Tool) -> String {
    serde_json::json!({
        "name": t.name,
        "description": t.description,
        "parameters": t.parameters,
        "title": t.title,
        "annotations": t.annotations,
    })
    .to_string()
}

fn load_text(text: &str, name: &str) -> Result<Catalog, discloser::diagnostic::LoadError> {
    Catalog::from_sources(
        vec![SourceFile::from_text(text.to_owned(), PathBuf::from(name))],
        &root(),
    )
}

// ---------------------------------------------------------------------------------------------
// The same tool in every format
// ---------------------------------------------------------------------------------------------

#[test]
fn the_same_tool_in_every_format_renders_the_identical_entry() {
    let mut outputs = Vec::new();
    for (file, _) in SAME_TOOL {
        let config = format!(
            "sources:\n  - {}\noverrides:\n  view_startup_guide:\n    triggers: [商业计划书, BP, 自己报税]\n",
            same_tool(file).display()
        );
        let (_dir, project) = project_with(&config);
        let project = project.unwrap_or_else(|e| panic!("{file}: {e}"));
        let text = text_index(&project, "default");
        assert_eq!(text.lines().last(), Some(ENTRY), "{file}");
        outputs.push((file, text));
    }
    for (file, text) in &outputs[1..] {
        assert_eq!(
            text, &outputs[0].1,
            "{file} renders other bytes than native.yaml"
        );
    }
}

#[test]
fn each_format_is_detected() {
    for (file, format) in SAME_TOOL {
        let project = Project::from_paths(&[same_tool(file).display().to_string()], &root())
            .unwrap_or_else(|e| panic!("{file}: {e}"));
        let tool = &project.catalog.tools[0];
        assert_eq!(tool.origin.format, format, "{file}");
        assert_eq!(
            tool.parameters.keep()["properties"]["kind"]["type"],
            "string",
            "{file}"
        );
    }
}

#[test]
fn mcp_title_and_annotations_are_kept() {
    let project =
        Project::from_paths(&[same_tool("mcp.json").display().to_string()], &root()).unwrap();
    let tool = &project.catalog.tools[0];
    assert_eq!(tool.title.as_deref(), Some("View startup guide"));
    assert_eq!(
        tool.annotations,
        Some(serde_json::json!({"readOnlyHint": true, "openWorldHint": false}))
    );
}

#[test]
fn positions_point_into_each_format() {
    // The schema of an MCP tool is under `inputSchema`, of a Chat Completions tool under
    // `function/parameters`: positions of schema nodes land there, not on the tool.
    for (file, at) in [
        ("mcp.json", "mcp.json:15:23"),
        ("openai.json", "openai.json:20:23"),
        ("anthropic.json", "anthropic.json:14:21"),
    ] {
        let project =
            Project::from_paths(&[same_tool(file).display().to_string()], &root()).unwrap();
        let catalog = &project.catalog;
        let tool = &catalog.tools[0];
        let found = catalog.locate(&tool.origin, "/parameters/properties/kind/enum");
        assert!(found.ends_with(at), "{file}: {found}");
    }
}

#[test]
fn gemini_upper_case_types_are_lowered_and_json_schema_is_kept() {
    let catalog = load_text(
        r#"{"functionDeclarations": [
            {"name": "a", "parameters": {"type": "OBJECT", "properties": {
                "type": {"type": "ARRAY", "items": {"type": "INTEGER"}, "example": {"type": "STRING"}},
                "n": {"anyOf": [{"type": "NUMBER"}, {"type": "NULL"}]}}}},
            {"name": "b", "parametersJsonSchema": {"type": "object", "properties": {"k": {"type": "STRING"}}}}
        ]}"#,
        "g.json",
    )
    .unwrap();
    let a = catalog.tools[0].parameters.keep();
    assert_eq!(a["type"], "object");
    assert_eq!(a["properties"]["type"]["type"], "array");
    assert_eq!(a["properties"]["type"]["items"]["type"], "integer");
    assert_eq!(
        a["properties"]["type"]["example"]["type"], "STRING",
        "data is not a schema"
    );
    assert_eq!(a["properties"]["n"]["anyOf"][1]["type"], "null");
    let b = catalog.tools[1].parameters.keep();
    assert_eq!(
        b["properties"]["k"]["type"], "STRING",
        "JSON Schema is kept as written"
    );
}

#[test]
fn a_format_named_on_a_source_is_used() {
    // A bare `{name, description, parameters}` list reads as native; named, it is OpenAI's
    // legacy `functions`, and strict about that format's keys.
    let file = fixture_corpus().join("bfcl/multi_turn_func_doc/unit_converter.json");
    let config = format!(
        "sources:\n  - {{path: {}, format: openai-functions}}\n",
        file.display()
    );
    let (_dir, project) = project_with(&config);
    let project = project.unwrap();
    assert!(
        project
            .catalog
            .tools
            .iter()
            .all(|t| t.origin.format == Format::OpenaiFunctions)
    );

    let config = format!(
        "sources:\n  - {{path: {}, format: mcp}}\n",
        same_tool("openai-responses.json").display()
    );
    let (_dir, project) = project_with(&config);
    let err = project.unwrap_err();
    assert_eq!(err.kind, ErrorKind::Shape);
    assert!(
        err.message.contains("unknown key `type` in MCP tool"),
        "{err}"
    );
}

#[test]
fn bad_source_mappings_are_config_errors() {
    for (config, words) in [
        (
            "sources:\n  - {path: x.json, format: opnai}\n",
            "unknown variant `opnai`",
        ),
        ("sources:\n  - {paht: x.json}\n", "unknown key `paht`"),
        (
            "sources:\n  - {path: x.json, mcp: {command: [a]}}\n",
            "either `path` or `mcp`",
        ),
        ("sources:\n  - {format: openai}\n", "needs `path`"),
        (
            "sources:\n  - {mcp: {command: []}}\n",
            "`command` must name a program",
        ),
        (
            "sources:\n  - {mcp: {command: [x], timeout: 0}}\n",
            "`timeout` must be",
        ),
        (
            "sources:\n  - {mcp: {command: [x], cwd: y}}\n",
            "unknown key `cwd`",
        ),
    ] {
        let (_dir, project) = project_with(config);
        let err = project.unwrap_err();
        assert!(err.message.contains(words), "{config}: {err}");
        assert!(err.position.is_some_and(|p| p.line == 2), "{config}: {err}");
    }
}

// ---------------------------------------------------------------------------------------------
// Errors: mixed formats, unknown shapes, things that are not function tools
// ---------------------------------------------------------------------------------------------

/// Loads `text` as a file named `name` and returns the error's `line:col` and message.
#[track_caller]
fn error_of(name: &str, text: &str) -> (String, String) {
    let err = load_text(text, name).expect_err("should not load");
    assert_eq!(err.kind, ErrorKind::Shape, "{err}");
    let pos = err.position.expect("a position");
    (format!("{}:{}", pos.line, pos.col), err.to_string())
}

#[test]
fn a_file_mixing_formats_is_an_error_naming_both() {
    let (at, message) = error_of(
        "mixed.json",
        "[\n  {\"type\": \"function\", \"function\": {\"name\": \"a\"}},\n  {\"name\": \"b\", \"inputSchema\": {}}\n]\n",
    );
    assert_eq!(at, "3:17");
    assert!(message.contains("mixed tool formats"), "{message}");
    assert!(message.contains("`inputSchema` (MCP)"), "{message}");
    assert!(
        message.contains("mixed.json:2:3 has `function` (OpenAI Chat Completions)"),
        "{message}"
    );

    let (at, message) = error_of(
        "one.json",
        r#"{"name": "a", "inputSchema": {}, "parameters": {}}"#,
    );
    assert_eq!(at, "1:34");
    assert!(
        message.contains("mixed tool formats: `parameters`"),
        "{message}"
    );

    let (_, message) = error_of(
        "both.json",
        r#"{"tools": [], "functions": [{"name": "a"}]}"#,
    );
    assert!(
        message.contains("both `tools` and `functions`"),
        "{message}"
    );

    // A MCP key beside discloser's own `triggers`: not silently read as either.
    let (at, message) = error_of("native.yaml", "name: a\ntriggers: [x]\ninputSchema: {}\n");
    assert_eq!(at, "3:1");
    assert!(
        message.contains("`triggers` to discloser tools"),
        "{message}"
    );
}

#[test]
fn native_files_stay_strict() {
    let err = load_text("name: a\ntrigers: [x]\n", "a.yaml").unwrap_err();
    assert!(
        err.message.contains("unknown key `trigers` in tool `a`"),
        "{err}"
    );
    assert_eq!(err.help.as_deref(), Some("did you mean `triggers`?"));
    // Keys of a foreign format are checked as strictly.
    let err = load_text(
        r#"[{"name": "a", "inputSchema": {}, "anotations": {}}]"#,
        "a.json",
    )
    .unwrap_err();
    assert!(
        err.message
            .contains("unknown key `anotations` in MCP tool `a`"),
        "{err}"
    );
    assert_eq!(err.help.as_deref(), Some("did you mean `annotations`?"));
}

#[test]
fn a_file_matching_no_format_says_what_was_expected() {
    let (at, message) = error_of("x.json", r#"{"servers": [{"url": "https://example.com"}]}"#);
    assert_eq!(at, "1:1");
    assert!(
        message.contains("no tools here: expected a tool"),
        "{message}"
    );
    assert!(
        message.contains("found a mapping with `servers`"),
        "{message}"
    );
}

#[test]
fn built_in_provider_tools_are_refused_not_skipped() {
    let (at, message) = error_of(
        "responses.json",
        r#"{"model": "m", "input": "x", "tools": [{"type": "function", "name": "a"}, {"type": "web_search"}]}"#,
    );
    assert_eq!(at, "1:84");
    assert!(
        message.contains("`type: web_search` marks a provider's built-in tool"),
        "{message}"
    );
    let (_, message) = error_of(
        "gemini.json",
        r#"[{"functionDeclarations": [{"name": "a"}], "googleSearch": {}}]"#,
    );
    assert!(
        message.contains("`googleSearch` beside `functionDeclarations`"),
        "{message}"
    );
}

#[test]
fn a_partial_tools_list_page_is_refused() {
    let (_, message) = error_of(
        "page.json",
        r#"{"tools": [{"name": "a", "inputSchema": {}}], "nextCursor": "c2"}"#,
    );
    assert!(message.contains("has `nextCursor` \"c2\""), "{message}");
    let (_, message) = error_of(
        "rpc.json",
        r#"{"jsonrpc": "2.0", "id": 1, "result": {"tools": [], "nextCursor": "c2"}}"#,
    );
    assert!(message.contains("discloser pull --mcp"), "{message}");
    let (_, message) = error_of(
        "err.json",
        r#"{"jsonrpc": "2.0", "id": 1, "error": {"code": 1, "message": "x"}}"#,
    );
    assert!(
        message.contains("an error response, not a `tools/list` result"),
        "{message}"
    );
}

#[test]
#[ignore = "needs ../shared/corpora beside the checkout (.ci/run runs it)"]
fn json_lines_of_a_real_catalog_load_one_tool_per_line() {
    json_lines_load_one_tool_per_line(
        &shared_corpora().join("bfcl/multi_turn_func_doc/gorilla_file_system.json"),
        "cd",
        "gorilla_file_system.json:2:10",
    );
}

/// `file` holds one tool per line; the name of `second`, on line 2, is found at `at`.
fn json_lines_load_one_tool_per_line(file: &Path, second: &str, at: &str) {
    let project = Project::from_paths(&[file.display().to_string()], &root()).unwrap();
    let lines = std::fs::read_to_string(file).unwrap().lines().count();
    assert_eq!(project.catalog.tools.len(), lines);
    let tool = project.catalog.get(second).unwrap();
    let found = project.catalog.locate(&tool.origin, "/name");
    assert!(found.ends_with(at), "{found}");
}

#[test]
fn json_lines_load_one_tool_per_line_with_exact_positions() {
    json_lines_load_one_tool_per_line(
        &fixture_corpus().join("bfcl/multi_turn_func_doc/unit_converter.json"),
        "convert_temperature",
        "unit_converter.json:2:10",
    );

    let err = load_text(
        "{\"name\": \"a\", \"parameters\": {}, \"response\": {}}\n{\"name\": \"b\", \"parameters\": {},, }\n",
        "t.jsonl",
    )
    .unwrap_err();
    assert_eq!(err.kind, ErrorKind::Syntax);
    assert_eq!(err.position.map(|p| p.line), Some(2), "{err}");
}

// ---------------------------------------------------------------------------------------------
// Real files: raw shapes read like their normalised copies
// ---------------------------------------------------------------------------------------------

fn render_paths(paths: &[PathBuf]) -> String {
    let paths: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    let project = Project::from_paths(&paths, &root()).unwrap_or_else(|e| panic!("{e}"));
    text_index(&project, "default")
}

/// `raw/*.snap` of `dir` (one MCP tool per file) render like `tools.json`, their normalised copy.
fn snap_files_render_like_the_normalised_catalog(dir: &Path) {
    assert_eq!(
        render_paths(&[dir.join("raw")]),
        render_paths(&[dir.join("tools.json")])
    );
}

#[test]
#[ignore = "needs ../shared/corpora beside the checkout (.ci/run runs it)"]
fn github_mcp_server_snap_files_render_like_the_normalised_catalog() {
    snap_files_render_like_the_normalised_catalog(&shared_corpora().join("github-mcp-server"));
}

#[test]
fn fixture_snap_files_render_like_the_normalised_catalog() {
    snap_files_render_like_the_normalised_catalog(&fixture_corpus().join("github-mcp-server"));
}

#[test]
#[ignore = "needs ../shared/corpora beside the checkout (.ci/run runs it)"]
fn docker_catalog_arguments_render_like_the_normalised_catalogs() {
    docker_raw_files_render_like_the_normalised_catalogs(
        &shared_corpora().join("docker-mcp-registry"),
        28,
    );
}

#[test]
fn fixture_docker_arguments_render_like_the_normalised_catalogs() {
    docker_raw_files_render_like_the_normalised_catalogs(
        &fixture_corpus().join("docker-mcp-registry"),
        2,
    );
}

/// Each `catalogs/<server>.json` of `dir` renders like `raw/<server>.tools.json`.
fn docker_raw_files_render_like_the_normalised_catalogs(dir: &Path, servers: usize) {
    let mut compared = 0;
    for entry in std::fs::read_dir(dir.join("catalogs")).unwrap() {
        let catalog = entry.unwrap().path();
        let server = catalog.file_stem().unwrap().to_string_lossy().into_owned();
        let raw = dir.join(format!("raw/{server}.tools.json"));
        assert_eq!(render_paths(&[raw]), render_paths(&[catalog]), "{server}");
        compared += 1;
    }
    assert_eq!(compared, servers);
}

#[test]
#[ignore = "needs ../shared/corpora beside the checkout (.ci/run runs it)"]
fn livemcpbench_server_list_reads_every_server_and_reports_the_clash() {
    server_list_reports_the_clash(&shared_corpora(), "add_table");
}

#[test]
fn fixture_server_list_reads_every_server_and_reports_the_clash() {
    server_list_reports_the_clash(&fixture_corpus(), "search");
}

/// LiveMCPBench's list of servers reads every server's tools: two define `clash`.
fn server_list_reports_the_clash(corpora: &Path, clash: &str) {
    let err = Project::from_paths(
        &[corpora
            .join("livemcpbench/raw/tools.json")
            .display()
            .to_string()],
        &root(),
    )
    .unwrap_err();
    assert_eq!(err.kind, ErrorKind::Duplicate);
    assert!(
        err.message
            .contains(&format!("duplicate tool name `{clash}`")),
        "{err}"
    );
    assert!(
        err.help
            .as_deref()
            .is_some_and(|h| h.contains("first defined at")),
        "{err}"
    );
}

// ---------------------------------------------------------------------------------------------
// Round trips: catalog -> export(provider) -> read -> the same catalog
// ---------------------------------------------------------------------------------------------

fn round_trip(catalog: &Catalog, what: &str) {
    let tools: Vec<usize> = (0..catalog.tools.len()).collect();
    for target in TARGETS {
        let text = serde_json::to_string_pretty(&tools_value(target, catalog, &tools)).unwrap();
        let back = load_text(&text, &format!("export.{}.json", target.as_str()))
            .unwrap_or_else(|e| panic!("{what} via {}: {e}", target.as_str()));
        let expected: Vec<String> = essence(catalog)
            .into_iter()
            .map(|e| strip_mcp_fields(&e, target))
            .collect();
        assert_eq!(essence(&back), expected, "{what} via {}", target.as_str());
    }
}

/// Only MCP carries `title` and `annotations`; other providers drop them.
fn strip_mcp_fields(essence: &str, target: ExportTarget) -> String {
    if target == ExportTarget::Mcp {
        return essence.to_owned();
    }
    let mut value: serde_json::Value = serde_json::from_str(essence).unwrap();
    value["title"] = serde_json::Value::Null;
    value["annotations"] = serde_json::Value::Null;
    value.to_string()
}

#[test]
fn native_round_trips_through_every_provider() {
    let project = Project::load(&root().join("discloser.yaml")).unwrap();
    round_trip(&project.catalog, "the bundled example");
}

#[test]
#[ignore = "needs ../shared/corpora beside the checkout (.ci/run runs it)"]
fn real_catalogs_round_trip_through_every_provider() {
    let c = shared_corpora();
    catalogs_round_trip_through_every_provider(&[
        c.join("github-mcp-server/raw"),
        c.join("mcp-reference-snapshots/raw/server-filesystem.json"),
        c.join("mcp-reference-snapshots/raw/cloudflare-radar.json"),
        c.join("docker-mcp-registry/raw/zscaler-mcp-server.tools.json"),
        c.join("livemcpbench/catalogs/Office-PowerPoint-MCP-Server.json"),
        c.join("bfcl/multi_turn_func_doc/travel_booking.json"),
        same_tool("gemini.json"),
    ]);
}

#[test]
fn fixture_catalogs_round_trip_through_every_provider() {
    let c = fixture_corpus();
    catalogs_round_trip_through_every_provider(&[
        c.join("github-mcp-server/raw"),
        c.join("mcp-reference-snapshots/raw/team-memos.json"),
        c.join("mcp-reference-snapshots/raw/server-time.json"),
        c.join("docker-mcp-registry/raw/recipes.tools.json"),
        c.join("livemcpbench/catalogs/Bookshelf_MCP.json"),
        c.join("bfcl/multi_turn_func_doc/unit_converter.json"),
        same_tool("gemini.json"),
    ]);
}

fn catalogs_round_trip_through_every_provider(paths: &[PathBuf]) {
    for path in paths {
        if !path.exists() {
            panic!("missing corpus file {}", path.display());
        }
        let project = Project::from_paths(&[path.display().to_string()], &root()).unwrap();
        round_trip(&project.catalog, &path.display().to_string());
    }
}

#[test]
fn gemini_export_uses_parameters_only_when_the_schema_fits() {
    let catalog = load_text(
        r##"[
          {"name": "fits", "parameters": {"type": "object", "properties": {"k": {"type": "string", "enum": ["a", "b"]}}, "required": ["k"]}},
          {"name": "json_schema", "parameters": {"type": "object", "properties": {"k": {"$ref": "#/$defs/K"}}, "$defs": {"K": {"const": 1}}}}
        ]"##,
        "t.json",
    )
    .unwrap();
    let tools: Vec<&Tool> = catalog.tools.iter().collect();
    let value = tools_value(ExportTarget::Gemini, &catalog, &[0, 1]);
    let declarations = &value[0]["functionDeclarations"];
    assert_eq!(
        declarations[0]["parameters"]["properties"]["k"]["type"],
        "STRING"
    );
    assert!(declarations[0].get("parametersJsonSchema").is_none());
    assert_eq!(declarations[1]["parametersJsonSchema"], tools[1].parameters);
}

// ---------------------------------------------------------------------------------------------
// `discloser export`
// ---------------------------------------------------------------------------------------------

#[test]
fn export_prints_the_starter_set_for_every_provider() {
    for target in TARGETS {
        let out = discloser(
            &root(),
            &[
                "export",
                "--profile",
                "default",
                "--provider",
                target.as_str(),
            ],
        );
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let text = String::from_utf8(out.stdout).unwrap();
        insta::assert_snapshot!(format!("export.default.{}", target.as_str()), text);
    }
}

#[test]
fn export_with_index_carries_both_halves_of_the_prompt() {
    let out = discloser(
        &root(),
        &[
            "export",
            "--profile",
            "chart_requested",
            "--provider",
            "anthropic",
            "--index",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let keys: Vec<&String> = value.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["tools", "index"]);
    let project = Project::load(&root().join("discloser.yaml")).unwrap();
    assert_eq!(value["index"], text_index(&project, "chart_requested"));
    let names: Vec<&str> = value["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    let bound: Vec<&str> = project.profiles["chart_requested"]
        .bound
        .iter()
        .map(String::as_str)
        .collect();
    assert_eq!(names, bound, "the bound tools, sorted by name");
}

#[test]
fn export_is_deterministic_and_compact_on_request() {
    let args = [
        "export",
        "--provider",
        "openai",
        "--profile",
        "filling_form",
        "--compact",
    ];
    let once = discloser(&root(), &args);
    let again = discloser(&root(), &args);
    assert_eq!(once.stdout, again.stdout);
    let text = String::from_utf8(once.stdout).unwrap();
    assert_eq!(text.lines().count(), 1);
    assert!(
        text.starts_with(r#"[{"type":"function","function":{"name":""#),
        "{text}"
    );
}

/// A regression test: `export` refused every tool with a `$ref` into another file (one tool
/// per run); the reference is now bundled into the tool's `$defs`.
#[test]
fn export_bundles_a_file_ref_instead_of_refusing_the_tool() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("discloser.yaml"),
        "sources: [a.yaml]\nprofiles:\n  p:\n    starter: [a]\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("kinds.yaml"),
        "$defs:\n  K: {enum: [x, y]}\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("a.yaml"),
        "name: a\nparameters:\n  type: object\n  properties:\n    k: {$ref: 'kinds.yaml#/$defs/K'}\n",
    )
    .unwrap();
    let out = discloser(
        dir.path(),
        &["export", "--profile", "p", "--provider", "mcp", "--compact"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "{\"tools\":[{\"name\":\"a\",\"description\":\"\",\"inputSchema\":{\"type\":\"object\",\"properties\":{\"k\":{\"$ref\":\"#/$defs/K\"}},\"$defs\":{\"K\":{\"enum\":[\"x\",\"y\"]}}}}]}\n"
    );
}

// ---------------------------------------------------------------------------------------------
// `discloser import`
// ---------------------------------------------------------------------------------------------

#[test]
fn import_writes_native_yaml_that_reads_back_identically() {
    for (file, _) in SAME_TOOL {
        let out = discloser(&root(), &["import", same_tool(file).to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(0), "{file}: {}", stderr(&out));
        let yaml = String::from_utf8(out.stdout).unwrap();
        let imported = load_text(&yaml, "imported.yaml").unwrap();
        let original =
            Project::from_paths(&[same_tool(file).display().to_string()], &root()).unwrap();
        assert_eq!(essence(&imported), essence(&original.catalog), "{file}");
        assert!(
            imported
                .tools
                .iter()
                .all(|t| t.origin.format == Format::Native)
        );
        assert!(yaml.contains("  triggers: []\n"), "{yaml}");
        assert!(
            yaml.contains("  description: |-\n    取内置长指南全文"),
            "{file}: a block scalar\n{yaml}"
        );
    }
}

#[test]
fn import_of_an_mcp_capture() {
    let out = discloser(
        &root(),
        &["import", "tests/fixtures/formats/same_tool/mcp.json"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    insta::assert_snapshot!("import.mcp", String::from_utf8(out.stdout).unwrap());
}

#[test]
#[ignore = "needs ../shared/corpora beside the checkout (.ci/run runs it)"]
fn import_of_real_catalogs_reads_back_identically() {
    let c = shared_corpora();
    import_reads_back_identically(&[
        c.join("github-mcp-server/raw/projects_write.snap"),
        c.join("livemcpbench/catalogs/Desktop_Commander_MCP.json"),
        c.join("mcp-reference-snapshots/raw/mcp-server-fetch.json"),
        c.join("bfcl/multi_turn_func_doc/vehicle_control.json"),
    ]);
}

#[test]
fn import_of_fixture_catalogs_reads_back_identically() {
    let c = fixture_corpus();
    import_reads_back_identically(&[
        c.join("github-mcp-server/raw/update_pull_request_branch.snap"),
        c.join("livemcpbench/catalogs/Bookshelf_MCP.json"),
        c.join("mcp-reference-snapshots/raw/team-memos.json"),
        c.join("bfcl/multi_turn_func_doc/unit_converter.json"),
    ]);
}

fn import_reads_back_identically(paths: &[PathBuf]) {
    for path in paths {
        let out = discloser(&root(), &["import", path.to_str().unwrap()]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}: {}",
            path.display(),
            stderr(&out)
        );
        let imported = load_text(&String::from_utf8(out.stdout).unwrap(), "i.yaml").unwrap();
        let original = Project::from_paths(&[path.display().to_string()], &root()).unwrap();
        assert_eq!(
            essence(&imported),
            essence(&original.catalog),
            "{}",
            path.display()
        );
    }
}

#[test]
fn import_never_overwrites_without_force() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("tools.yaml");
    let source = same_tool("anthropic.json");
    let out = discloser(
        dir.path(),
        &["import", source.to_str().unwrap(), "--out", "tools.yaml"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(out.stdout.is_empty());
    let written = std::fs::read_to_string(&target).unwrap();
    assert!(written.contains("name: view_startup_guide"));

    std::fs::write(&target, "hand-edited\n").unwrap();
    let out = discloser(
        dir.path(),
        &["import", source.to_str().unwrap(), "--out", "tools.yaml"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("`tools.yaml` exists; pass `--force` to replace it"),
        "{}",
        stderr(&out)
    );
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "hand-edited\n");

    let out = discloser(
        dir.path(),
        &[
            "import",
            source.to_str().unwrap(),
            "--out",
            "tools.yaml",
            "--force",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&target).unwrap(), written);
    let files = std::fs::read_dir(dir.path()).unwrap().count();
    assert_eq!(files, 1, "no temporary file left behind");
}

#[test]
fn import_of_a_bad_file_fails_with_its_position() {
    let out = discloser(
        &root(),
        &[
            "import",
            "tests/fixtures/formats/same_tool/native.yaml",
            "Cargo.toml",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).starts_with("error: Cargo.toml:"),
        "{}",
        stderr(&out)
    );
    assert!(out.stdout.is_empty());
}
