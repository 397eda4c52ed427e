//! discloser for the runtime on the bundled example: search (English, Chinese, ties, empty and
//! unmatched queries), resolution (the seed's `view_startup_guide args={}`), a generated trace
//! with known usage whose summary numbers are asserted exactly, `suggest` on it (and
//! `--write-profile` keeping every other byte of the config), and `reach` as a CI gate.
//!
//! The sample trace `tests/fixtures/runtime/trace.jsonl` is produced by [`sample_trace`]; a test
//! keeps the committed file equal to it (regenerate with `DISCLOSER_WRITE_FIXTURES=1 cargo test
//! --test runtime`).

use crate::support::root;
use std::path::{Path, PathBuf};
use std::process::Command;

use discloser::project::Project;
use discloser::runtime::trace::{Trace, classify, summarize, turn_profiles};
use discloser::runtime::{Origin, Runtime};
use discloser::source::SourceFile;
use serde_json::{Value, json};

fn fixtures() -> PathBuf {
    root().join("tests/fixtures/runtime")
}

fn example() -> Project {
    Project::load(&root().join("discloser.yaml")).expect("the bundled example loads")
}

use crate::support::discloser_in as run;

/// Runs discloser and returns its standard output, asserting the exit code.
fn stdout(dir: &Path, args: &[&str], code: i32) -> String {
    let out = run(dir, args);
    assert_eq!(
        out.status.code(),
        Some(code),
        "{args:?}\nstdout:\n{}\nstderr:\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

fn stderr(dir: &Path, args: &[&str], code: i32) -> String {
    let out = run(dir, args);
    assert_eq!(out.status.code(), Some(code), "{args:?}");
    String::from_utf8(out.stderr).expect("UTF-8")
}

// ------------------------------------------------------------------------ the sample trace --

/// One call: name, recorded origin, arguments, and the tool's error when it failed.
struct Call(&'static str, &'static str, Value, Option<&'static str>);

const KIND_MISSING: &str = "missing 1 required positional argument: 'kind'";

fn ok(name: &'static str, origin: &'static str, arguments: Value) -> Call {
    Call(name, origin, arguments, None)
}

fn failed(name: &'static str, origin: &'static str, arguments: Value, error: &'static str) -> Call {
    Call(name, origin, arguments, Some(error))
}

/// Six sessions of four turns on the bundled example. Five sessions run in profile `default`,
/// where `view_startup_guide` is indexed: it is used in 5 of their 20 turns and its first call
/// fails in 3 of them (the seed's `args={}`); `check_company_name` is bound and never used. One
/// session runs in `filling_form` and reaches `book_appointment` through the search tool. Two
/// calls use invented names. Input tokens alternate 2,800 / 3,200 in `default` turns (mean
/// 3,000) and are 3,600 in `filling_form` turns.
fn sessions() -> Vec<(&'static str, &'static str, Vec<Vec<Call>>)> {
    vec![
        (
            "s01",
            "default",
            vec![
                vec![ok(
                    "start_registration",
                    "bound",
                    json!({"company_type": "limited_liability", "city": "上海"}),
                )],
                vec![
                    failed("view_startup_guide", "catalog", json!({}), KIND_MISSING),
                    ok(
                        "view_startup_guide",
                        "catalog",
                        json!({"kind": "business_plan"}),
                    ),
                ],
                vec![ok(
                    "calculate_fees",
                    "catalog",
                    json!({"package": "standard"}),
                )],
                vec![],
            ],
        ),
        (
            "s02",
            "default",
            vec![
                vec![ok(
                    "start_registration",
                    "bound",
                    json!({"company_type": "sole_proprietorship", "city": "Shenzhen"}),
                )],
                vec![
                    failed("view_startup_guide", "catalog", json!({}), KIND_MISSING),
                    ok(
                        "view_startup_guide",
                        "catalog",
                        json!({"kind": "self_register"}),
                    ),
                ],
                vec![ok(
                    "check_order_progress",
                    "bound",
                    json!({"order_id": "REG-2024-000123"}),
                )],
                vec![
                    failed(
                        "view_guide",
                        "unknown",
                        json!({"kind": "tax_filing"}),
                        "unknown tool: view_guide",
                    ),
                    ok(
                        "view_startup_guide",
                        "catalog",
                        json!({"kind": "tax_filing"}),
                    ),
                ],
            ],
        ),
        (
            "s03",
            "default",
            vec![
                vec![ok(
                    "view_startup_guide",
                    "catalog",
                    json!({"kind": "tax_filing"}),
                )],
                vec![ok(
                    "search_knowledge_base",
                    "bound",
                    json!({"query": "注册公司需要什么材料", "city": "深圳"}),
                )],
                vec![ok(
                    "transfer_to_human",
                    "bound",
                    json!({"reason": "用户要求人工客服"}),
                )],
                vec![ok(
                    "start_registration",
                    "bound",
                    json!({"company_type": "partnership", "city": "杭州"}),
                )],
            ],
        ),
        (
            "s04",
            "default",
            vec![
                vec![ok(
                    "start_registration",
                    "bound",
                    json!({"company_type": "limited_liability", "city": "北京"}),
                )],
                vec![
                    failed("view_startup_guide", "catalog", json!({}), KIND_MISSING),
                    ok(
                        "view_startup_guide",
                        "catalog",
                        json!({"kind": "business_plan"}),
                    ),
                ],
                vec![
                    failed(
                        "calculate_fee",
                        "unknown",
                        json!({"package": "basic"}),
                        "unknown tool: calculate_fee",
                    ),
                    ok("calculate_fees", "catalog", json!({"package": "basic"})),
                ],
                vec![ok(
                    "check_order_progress",
                    "bound",
                    json!({"phone": "13800000000"}),
                )],
            ],
        ),
        (
            "s05",
            "filling_form",
            vec![
                vec![ok(
                    "fill_form_field",
                    "bound",
                    json!({"field": "company_name", "value": "上海云帆信息科技有限公司"}),
                )],
                vec![
                    ok(
                        "fill_form_field",
                        "bound",
                        json!({"field": "registered_capital", "value": "100000"}),
                    ),
                    ok(
                        "upload_document",
                        "catalog",
                        json!({"file_url": "https://files.example.com/id.jpg", "order_id": "REG-2024-000124"}),
                    ),
                ],
                vec![ok(
                    "submit_form",
                    "bound",
                    json!({"form_id": "F-2024-0042", "confirm": true}),
                )],
                vec![
                    ok(
                        "search_tools",
                        "bound",
                        json!({"query": "book a slot at the service hall"}),
                    ),
                    ok(
                        "book_appointment",
                        "search",
                        json!({"office": "浦东新区市民中心", "date": "2025-03-03"}),
                    ),
                ],
            ],
        ),
        (
            "s06",
            "default",
            vec![
                vec![
                    failed(
                        "draw_chart",
                        "catalog",
                        json!({"chart_type": "pie"}),
                        "missing 1 required positional argument: 'data'",
                    ),
                    ok(
                        "draw_chart",
                        "catalog",
                        json!({"chart_type": "pie", "data": [{"label": "注册", "value": 12}, {"label": "报税", "value": 5}]}),
                    ),
                ],
                vec![ok(
                    "lookup_business_scope",
                    "catalog",
                    json!({"activity": "卖咖啡和甜点"}),
                )],
                vec![ok(
                    "transfer_to_human",
                    "bound",
                    json!({"reason": "用户投诉办理太慢"}),
                )],
                vec![],
            ],
        ),
    ]
}

/// The sample trace as JSON Lines; with `origins: false`, without any recorded origin.
fn sample_trace(origins: bool) -> String {
    let mut out = String::new();
    for (s, (session, profile, turns)) in sessions().into_iter().enumerate() {
        for (t, calls) in turns.into_iter().enumerate() {
            let number = t + 1;
            let input_tokens = match (profile, number % 2) {
                ("default", 1) => 2800,
                ("default", _) => 3200,
                _ => 3600,
            };
            let tools: Vec<Value> = calls
                .into_iter()
                .map(|Call(name, origin, arguments, error)| {
                    let mut call = json!({"name": name});
                    if origins {
                        call["origin"] = json!(origin);
                    }
                    call["arguments"] = arguments;
                    call["ok"] = json!(error.is_none());
                    if let Some(error) = error {
                        call["error"] = json!(error);
                    }
                    call
                })
                .collect();
            let line = json!({
                "session": session,
                "turn": number,
                "model": "gpt-4o-mini",
                "profile": profile,
                "input_tokens": input_tokens,
                "latency_ms": 1200 + 150 * number + 10 * s,
                "tools": tools,
            });
            out.push_str(&line.to_string());
            out.push('\n');
        }
    }
    out
}

#[test]
fn the_committed_sample_trace_is_the_generated_one() {
    let path = fixtures().join("trace.jsonl");
    let generated = sample_trace(true);
    if std::env::var_os("DISCLOSER_WRITE_FIXTURES").is_some() && std::env::var_os("CI").is_none() {
        std::fs::write(&path, &generated).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "{} differs from `sample_trace`; regenerate it with `DISCLOSER_WRITE_FIXTURES=1 cargo test --test runtime`",
        path.display()
    );
}

fn sample(origins: bool) -> Trace {
    let mut trace = Trace::default();
    let text = sample_trace(origins);
    trace
        .add(SourceFile::from_text(
            text,
            PathBuf::from("tests/fixtures/runtime/trace.jsonl"),
        ))
        .expect("the sample trace parses");
    trace
}

// ------------------------------------------------------------------------------------ trace --

#[test]
fn trace_summary_numbers_are_exact() {
    let project = example();
    let runtime = Runtime::new(&project);
    let s = summarize(&sample(true), &runtime, 0);
    assert_eq!((s.turns, s.sessions, s.calls), (24, 6, 30));
    let o = s.origins;
    assert_eq!(
        (o.bound, o.catalog, o.search, o.unknown, o.unclassified),
        (13, 14, 1, 2, 0)
    );
    assert_eq!(s.turns_with_catalog, 10);
    assert_eq!(s.turns_with_catalog_percent, 41.7);
    assert_eq!(s.mean_input_tokens, Some(3100.0));
    assert_eq!(s.mean_latency_ms, Some(1600.0));

    let tool = |name: &str| s.tools.iter().find(|t| t.name == name).unwrap();
    let guide = tool("view_startup_guide");
    assert_eq!((guide.calls, guide.turns, guide.turn_percent), (8, 5, 20.8));
    assert_eq!((guide.origins.catalog, guide.origins.bound), (8, 0));
    assert_eq!(
        (guide.unbound_first_calls, guide.first_call_failures),
        (5, 3)
    );
    let chart = tool("draw_chart");
    assert_eq!(
        (
            chart.calls,
            chart.turns,
            chart.unbound_first_calls,
            chart.first_call_failures
        ),
        (2, 1, 1, 1)
    );
    let booking = tool("book_appointment");
    assert_eq!(
        (
            booking.origins.search,
            booking.search_first_calls,
            booking.first_call_failures
        ),
        (1, 1, 0)
    );
    let start = tool("start_registration");
    assert_eq!((start.calls, start.turns, start.turn_percent), (4, 4, 16.7));
    assert_eq!(tool("check_company_name").calls, 0);
    assert_eq!(tool("search_tools").origins.bound, 1);
    // Most called first, then by name; every catalog tool is listed.
    assert_eq!(s.tools[0].name, "view_startup_guide");
    assert_eq!(s.tools.last().unwrap().name, "check_company_name");
    assert_eq!(s.tools.len(), 14);

    let failures: Vec<(String, &str, &str)> = s
        .first_call_failures
        .iter()
        .map(|f| (f.at.clone(), f.tool.as_str(), f.errors[0].as_str()))
        .collect();
    let at = |line: usize| format!("tests/fixtures/runtime/trace.jsonl:{line}");
    assert_eq!(
        failures,
        [
            (
                at(2),
                "view_startup_guide",
                "missing required property `kind`"
            ),
            (
                at(6),
                "view_startup_guide",
                "missing required property `kind`"
            ),
            (
                at(14),
                "view_startup_guide",
                "missing required property `kind`"
            ),
            (at(21), "draw_chart", "missing required property `data`"),
        ]
    );

    let unknown: Vec<(&str, usize, &str, &str)> = s
        .unknown
        .iter()
        .map(|u| {
            (
                u.name.as_str(),
                u.calls,
                u.first_at.as_str(),
                u.nearest[0].name.as_str(),
            )
        })
        .collect();
    assert_eq!(
        unknown,
        [
            (
                "calculate_fee",
                1,
                "tests/fixtures/runtime/trace.jsonl:15",
                "calculate_fees"
            ),
            (
                "view_guide",
                1,
                "tests/fixtures/runtime/trace.jsonl:8",
                "view_startup_guide"
            ),
        ]
    );
    assert_eq!(s.unknown[1].nearest[0].shared_words, ["guide", "view"]);
    assert_eq!(s.unknown[0].nearest[0].distance, 1);
    assert!(s.contradictions.is_empty());
}

/// `--classify` on the trace without origins gives every call the origin the runtime recorded,
/// including `search` for the tool an earlier search-tool call of the turn returned.
#[test]
fn classify_recovers_every_recorded_origin() {
    let project = example();
    let runtime = Runtime::new(&project);
    let recorded = sample(true);
    let mut raw = sample(false);
    let profiles = turn_profiles(&raw, &project, "default").unwrap();
    assert_eq!(classify(&mut raw, &runtime, &profiles), 30);
    for (a, b) in recorded.turns.iter().zip(&raw.turns) {
        let want: Vec<_> = a.turn.tools.iter().map(|c| (&c.name, c.origin)).collect();
        let got: Vec<_> = b.turn.tools.iter().map(|c| (&c.name, c.origin)).collect();
        assert_eq!(got, want, "line {}", a.line);
    }
    let summary = summarize(&raw, &runtime, 30);
    assert_eq!(summary.origins.search, 1);
    assert_eq!(summary.classified, 30);
}

#[test]
fn trace_outputs() {
    let dir = root();
    let file = "tests/fixtures/runtime/trace.jsonl";
    insta::assert_snapshot!("trace.table", stdout(&dir, &["trace", file], 0));
    insta::assert_snapshot!(
        "trace.markdown",
        stdout(&dir, &["trace", file, "--format", "markdown"], 0)
    );
    insta::assert_snapshot!(
        "trace.json",
        stdout(&dir, &["trace", file, "--format", "json"], 0)
    );
}

#[test]
fn recorded_origins_the_catalog_contradicts_are_reported() {
    let project = example();
    let runtime = Runtime::new(&project);
    let mut trace = Trace::default();
    let text = concat!(
        r#"{"session": "a", "turn": 1, "tools": [{"name": "get_guide", "origin": "catalog"}]}"#,
        "\n",
        r#"{"session": "a", "turn": 2, "tools": [{"name": "draw_chart", "origin": "unknown"}, {"name": "draw_chart"}]}"#,
        "\n"
    );
    trace
        .add(SourceFile::from_text(text, PathBuf::from("t.jsonl")))
        .unwrap();
    let s = summarize(&trace, &runtime, 0);
    let messages: Vec<String> = s
        .contradictions
        .iter()
        .map(|c| format!("{}: {}", c.at, c.message))
        .collect();
    assert_eq!(
        messages,
        [
            "t.jsonl:1: recorded `catalog`, but `get_guide` is not in the catalog: an invented name counted as reached",
            "t.jsonl:2: recorded `unknown`, but `draw_chart` is in the catalog",
        ]
    );
    assert_eq!(s.origins.unclassified, 1);
    assert_eq!(s.unknown[0].nearest[0].name, "view_startup_guide");
}

#[test]
fn bad_trace_lines_are_errors_at_file_line_col() {
    let tmp = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| std::fs::write(tmp.path().join(name), text).unwrap();
    write(
        "typo.jsonl",
        "{\"session\": \"a\", \"turn\": 1}\n\n{\"session\": \"a\", \"turn\": 2, \"tools\": [{\"name\": \"x\", \"orign\": \"bound\"}]}\n",
    );
    write("broken.jsonl", "{\"session\": \"a\", \"turn\": 1,\n");
    write(
        "origin.jsonl",
        "{\"session\": \"a\", \"turn\": 1, \"tools\": [{\"name\": \"x\", \"origin\": \"catalogue\"}]}\n",
    );
    write("array.jsonl", "[1, 2]\n");
    write(
        "call.jsonl",
        "{\"session\": \"a\", \"turn\": 1, \"tools\": [\"draw_chart\"]}\n",
    );
    write(
        "profile.jsonl",
        "{\"session\": \"a\", \"turn\": 1, \"profile\": \"defualt\", \"tools\": [{\"name\": \"x\"}]}\n",
    );
    let config = root().join("discloser.yaml");
    let config = config.to_str().unwrap();
    let err = |args: &[&str]| {
        let mut all = vec!["--config", config];
        all.extend_from_slice(args);
        let out = Command::new(env!("CARGO_BIN_EXE_discloser"))
            .args(&all)
            .current_dir(tmp.path())
            .env("NO_COLOR", "1")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let text = String::from_utf8(out.stderr).unwrap();
        let help = text
            .lines()
            .find_map(|l| l.trim().strip_prefix("= help: "))
            .map(|h| format!(" (help: {h})"))
            .unwrap_or_default();
        format!("{}{help}", text.lines().next().unwrap_or_default())
    };
    assert_eq!(
        err(&["trace", "typo.jsonl"]),
        "error: typo.jsonl:3:53: unknown key `orign` (help: did you mean `origin`?)"
    );
    assert_eq!(
        err(&["trace", "broken.jsonl"]),
        "error: broken.jsonl:1:27: invalid JSON: EOF while parsing a value"
    );
    assert_eq!(
        err(&["trace", "origin.jsonl"]),
        "error: origin.jsonl:1:63: `tools.0.origin` cannot be `catalogue` (help: did you mean `catalog`?)"
    );
    assert_eq!(
        err(&["trace", "array.jsonl"]),
        "error: array.jsonl:1:1: expected a JSON object (one turn) on every line"
    );
    assert_eq!(
        err(&["trace", "call.jsonl"]),
        "error: call.jsonl:1:39: `tools.0` must be a call: an object with `name`"
    );
    assert_eq!(
        err(&["trace", "--classify", "profile.jsonl"]),
        "error: profile.jsonl:1:40: the turn names profile `defualt`, which the config does not define (help: did you mean `default`?)"
    );
    assert_eq!(
        err(&["trace", "missing.jsonl"]),
        "error: missing.jsonl: cannot read file: no such file"
    );
}

// ----------------------------------------------------------------------------------- search --

fn ranking(runtime: &Runtime<'_>, query: &str) -> Vec<(String, u32)> {
    runtime
        .search(query)
        .into_iter()
        .map(|h| (h.name, h.score))
        .collect()
}

#[test]
fn search_chinese_without_spaces_finds_the_trigger() {
    let project = example();
    let runtime = Runtime::new(&project);
    let hits = runtime.search("我想写商业计划书");
    assert_eq!(hits.len(), 1);
    assert_eq!(hits[0].name, "view_startup_guide");
    assert_eq!(hits[0].matched.triggers, ["商业计划书"]);
    assert_eq!(hits[0].score, 10);
    // Full-width letters fold to ASCII; a trigger of a spaced script is not found inside a word.
    assert_eq!(runtime.search("写个ＢＰ")[0].name, "view_startup_guide");
    assert!(ranking(&runtime, "my heart rate is 120 bpm").is_empty());
    // Chinese terms of triggers (bigrams) count as trigger words.
    assert_eq!(
        runtime.search("公司能做哪些业务")[0].name,
        "lookup_business_scope"
    );
}

#[test]
fn search_english_weighs_triggers_then_name_parts_then_description() {
    let project = example();
    let runtime = Runtime::new(&project);
    let hits = runtime.search("please draw a pie chart of the data");
    assert_eq!(hits[0].name, "draw_chart");
    assert_eq!(hits[0].matched.triggers, ["chart"]);
    assert_eq!(hits[0].matched.name_parts, ["draw"]);
    // `pie` is in a later sentence of the description, which the summary does not show.
    assert_eq!(hits[0].matched.description_words, ["data"]);
    assert_eq!(hits[0].score, 10 + 3 + 1);
    // A name part alone.
    assert_eq!(
        ranking(&runtime, "startup"),
        [("view_startup_guide".to_owned(), 3)]
    );
    // Description words alone: the summary packed as the index shows it.
    assert_eq!(
        ranking(&runtime, "engraving"),
        [("calculate_fees".to_owned(), 1)]
    );
}

#[test]
fn search_ties_are_broken_by_longest_trigger_then_name() {
    let project = example();
    let runtime = Runtime::new(&project);
    // Both find one whole trigger (10): the longer trigger is more specific.
    let ranked = ranking(&runtime, "how much does it cost to register a company");
    assert_eq!(ranked[0], ("calculate_fees".to_owned(), 10));
    assert_eq!(ranked[1], ("start_registration".to_owned(), 10));
    // Equal on every count: by name.
    let ranked = ranking(&runtime, "company");
    assert_eq!(
        ranked,
        [
            ("lookup_business_scope".to_owned(), 4),
            ("start_registration".to_owned(), 4),
            ("check_company_name".to_owned(), 3),
        ]
    );
    let hits = runtime.search("company");
    assert_eq!(hits.iter().map(|h| h.rank).collect::<Vec<_>>(), [1, 2, 3]);
}

#[test]
fn search_empty_and_unmatched_queries() {
    let project = example();
    let runtime = Runtime::new(&project);
    for query in ["", "   ", "xyzzy", "how do I do it?", "。！"] {
        assert!(runtime.search(query).is_empty(), "{query:?}");
    }
    let dir = root();
    assert_eq!(
        stdout(&dir, &["search", "xyzzy"], 1),
        "no tool matches `xyzzy`\n"
    );
    assert_eq!(
        stdout(&dir, &["search", "xyzzy", "--format", "json"], 1),
        "{\n  \"query\": \"xyzzy\",\n  \"profile\": \"default\",\n  \"hits\": []\n}\n"
    );
    assert_eq!(
        stderr(&dir, &["search", " "], 2),
        "error: the query is empty: give the words a user would say\n"
    );
    assert_eq!(
        stderr(&dir, &["search", "chart", "--limit", "0"], 2),
        "error: `--limit` must be at least 1\n"
    );
}

#[test]
fn search_outputs() {
    let dir = root();
    let table = stdout(
        &dir,
        &["search", "I want to register a company and need the fees"],
        0,
    );
    insta::assert_snapshot!("search.table", table);
    let reference = std::fs::read_to_string(root().join("docs/commands.md")).unwrap();
    assert!(
        reference.contains(&table),
        "the search example of docs/commands.md is stale"
    );
    insta::assert_snapshot!(
        "search.json",
        stdout(
            &dir,
            &[
                "search",
                "我想写商业计划书",
                "--format",
                "json",
                "--limit",
                "1"
            ],
            0
        )
    );
    let limited = stdout(&dir, &["search", "company", "--limit", "2"], 0);
    assert_eq!(limited.lines().filter(|l| l.contains("┆")).count(), 3);
}

// ------------------------------------------------------------------------------- resolution --

#[test]
fn the_seeds_first_call_is_catalog_with_a_missing_kind() {
    let project = example();
    let runtime = Runtime::new(&project);
    let default = project.profile("default").unwrap();
    let call = runtime.resolve(&default, "view_startup_guide", Some(&json!({})));
    assert_eq!(call.origin, Origin::Catalog);
    assert_eq!(call.valid, Some(false));
    assert_eq!(call.errors.len(), 1);
    assert_eq!(call.errors[0].pointer, "");
    assert_eq!(call.errors[0].message, "missing required property `kind`");
    assert!(call.nearest.is_empty());

    // The second call, with the enum value the index line shows, is valid.
    let retry = runtime.resolve(
        &default,
        "view_startup_guide",
        Some(&json!({"kind": "self_register"})),
    );
    assert_eq!((retry.origin, retry.valid), (Origin::Catalog, Some(true)));
    assert!(retry.errors.is_empty());

    // A value outside the enum (reached through the schema's local `$ref`).
    let wrong = runtime.resolve(&default, "view_startup_guide", Some(&json!({"kind": "bp"})));
    assert_eq!(
        wrong.errors[0].to_string(),
        "`/kind`: `\"bp\"` is not one of `self_register`, `tax_filing`, `business_plan`"
    );
}

#[test]
fn resolution_of_bound_unknown_and_search_calls() {
    let project = example();
    let runtime = Runtime::new(&project);
    let default = project.profile("default").unwrap();
    let form = project.profile("filling_form").unwrap();

    let bound = runtime.resolve(
        &default,
        "start_registration",
        Some(&json!({"company_type": "branch", "city": "上海", "extra": 1})),
    );
    assert_eq!((bound.origin, bound.valid), (Origin::Bound, Some(true)));
    assert_eq!(
        runtime.resolve(&default, "fill_form_field", None).origin,
        Origin::Catalog
    );
    let field = runtime.resolve(&form, "fill_form_field", None);
    assert_eq!((field.origin, field.valid), (Origin::Bound, None));
    assert_eq!(field.unchecked.as_deref(), Some("no arguments recorded"));

    let typed = runtime.resolve(
        &default,
        "calculate_fees",
        Some(&json!({"package": "basic", "registered_capital": "lots"})),
    );
    assert_eq!(
        typed.errors[0].to_string(),
        "`/registered_capital`: `\"lots\"` is not of type `integer`"
    );

    // Arguments recorded as a JSON string (as OpenAI sends them).
    let text = runtime.resolve(&default, "view_startup_guide", Some(&json!("{}")));
    assert_eq!(text.errors[0].message, "missing required property `kind`");
    let broken = runtime.resolve(&default, "view_startup_guide", Some(&json!("{kind")));
    assert!(
        broken.errors[0]
            .message
            .starts_with("the arguments string is not JSON")
    );

    let invented = runtime.resolve(&default, "get_startup_guide", Some(&json!({})));
    assert_eq!(invented.origin, Origin::Unknown);
    assert_eq!(invented.valid, None);
    assert_eq!(invented.nearest[0].name, "view_startup_guide");
    assert_eq!(invented.nearest[0].distance, 3);
    let far = runtime.resolve(&default, "weather_forecast", None);
    assert!(far.nearest.is_empty());

    let search = runtime.resolve(&default, "search_tools", Some(&json!({"limit": 3})));
    assert_eq!((search.origin, search.valid), (Origin::Bound, Some(false)));
    assert_eq!(
        search.errors[0].message,
        "missing required property `query`"
    );
}

#[test]
fn file_refs_are_bundled_for_validation() {
    let tmp = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| {
        let path = tmp.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write("discloser.yaml", "sources: [tools/*.yaml]\n");
    write(
        "tools/guide.yaml",
        "name: view_guide\ndescription: Show a guide.\ntriggers: [guide]\nparameters:\n  type: object\n  properties:\n    kind: {$ref: '../schemas/common.yaml#/$defs/Kind'}\n    pages: {$ref: '../schemas/common.yaml#/$defs/Pages'}\n  required: [kind]\n",
    );
    write(
        "schemas/common.yaml",
        "$defs:\n  Kind: {$ref: '#/$defs/Base'}\n  Base: {type: string, enum: [short, long]}\n  Pages: {type: array, items: {$ref: '#/$defs/Pages/$defs/Page'}, $defs: {Page: {type: integer, minimum: 1}}}\n",
    );
    let project = Project::load(&tmp.path().join("discloser.yaml")).unwrap();
    let runtime = Runtime::new(&project);
    let profile = project.profile("default").unwrap();
    let check = |args: Value| runtime.check_arguments("view_guide", Some(&args));
    assert_eq!(
        check(json!({"kind": "long", "pages": [1, 2]})).valid,
        Some(true)
    );
    let wrong = check(json!({"kind": "medium", "pages": [0]}));
    let errors: Vec<String> = wrong.errors.iter().map(ToString::to_string).collect();
    assert_eq!(
        errors,
        [
            "`/kind`: `\"medium\"` is not one of `short`, `long`",
            "`/pages/0`: 0 is less than the minimum of 1",
        ]
    );
    assert_eq!(
        runtime.resolve(&profile, "view_guide", None).origin,
        Origin::Catalog
    );
}

// ---------------------------------------------------------------------------------- suggest --

#[test]
fn suggest_binds_the_failing_guide_and_drops_the_unused_name_check() {
    use discloser::cost::{Provider, TokenizerKind};
    use discloser::runtime::suggest::{Placement, SuggestOptions, suggest};
    let project = example();
    let runtime = Runtime::new(&project);
    let trace = sample(false);
    let options = SuggestOptions {
        profile: "default".into(),
        round_trip: None,
        provider: Provider::Raw,
        tokenizer: TokenizerKind::O200k,
    };
    let s = suggest(&project, &runtime, &trace, &options).unwrap();
    assert_eq!(
        (s.turns, s.round_trip, s.round_trip_source),
        (20, 3000, "trace")
    );
    assert_eq!(s.pooled_failure_rate, 0.444);
    assert_eq!(
        s.starter,
        [
            "check_order_progress",
            "start_registration",
            "transfer_to_human",
            "view_startup_guide"
        ]
    );
    let moved: Vec<(&str, Placement, Placement)> = s
        .tools
        .iter()
        .filter(|t| t.current != t.suggested)
        .map(|t| (t.tool.as_str(), t.current, t.suggested))
        .collect();
    assert_eq!(
        moved,
        [
            ("view_startup_guide", Placement::Indexed, Placement::Bound),
            ("check_company_name", Placement::Bound, Placement::Indexed),
        ]
    );
    let guide = &s.tools[0];
    assert_eq!((guide.turns_used, guide.usage), (5, 0.25));
    assert_eq!(
        (
            guide.unbound_first_calls,
            guide.first_call_failures,
            guide.failure_rate
        ),
        (5, 3, 0.6)
    );
    assert_eq!((guide.definition_tokens, guide.entry_tokens), (180, 98));
    assert_eq!(guide.indexed_cost, 548.0);
    assert_eq!(
        guide.reason,
        "used in 5 of 20 turns (25.0%); 3 of 5 first calls from the index failed: indexed = 98 + 25.0% × 3,000 × 60.0% = 548; indexed 548 > bound 180 tokens per turn (low evidence: 5 turns, fewer than 10)"
    );
    assert!(guide.low_evidence);
    assert_eq!(
        guide.preventable_failures, 3,
        "each failure missed the required `kind`"
    );
    let name_check = &s.tools[1];
    assert_eq!(
        name_check.reason,
        "never used in 20 turns: indexed 52 < bound 149 tokens per turn"
    );
    // A failing but rare tool stays indexed; a bound tool never reached unbound gets the
    // pooled failure rate.
    let chart = s.tools.iter().find(|t| t.tool == "draw_chart").unwrap();
    assert_eq!(
        (chart.suggested, chart.indexed_cost),
        (Placement::Indexed, 212.0)
    );
    let start = s
        .tools
        .iter()
        .find(|t| t.tool == "start_registration")
        .unwrap();
    assert!(!start.failure_rate_observed);
    assert_eq!(start.failure_rate, 0.444);
    assert_eq!(start.suggested, Placement::Bound);

    let sets: Vec<(&str, usize, usize, u64, f64, f64)> = s
        .sets
        .iter()
        .map(|c| {
            (
                c.name.as_str(),
                c.bound,
                c.indexed,
                c.definition_tokens,
                c.round_trip_tokens,
                c.expected_tokens,
            )
        })
        .collect();
    assert_eq!(
        sets,
        [
            ("current (default)", 5, 8, 1405, 600.0, 2005.0),
            ("suggested", 5, 8, 1390, 150.0, 1540.0),
        ]
    );
}

#[test]
fn suggest_outputs_and_options() {
    let dir = root();
    let file = "tests/fixtures/runtime/trace.jsonl";
    insta::assert_snapshot!(
        "suggest.table",
        stdout(&dir, &["suggest", "--trace", file], 0)
    );
    insta::assert_snapshot!(
        "suggest.markdown",
        stdout(
            &dir,
            &["suggest", "--trace", file, "--format", "markdown"],
            0
        )
    );
    let json: Value = serde_json::from_str(&stdout(
        &dir,
        &["suggest", "--trace", file, "--format", "json"],
        0,
    ))
    .unwrap();
    assert_eq!(json["starter"].as_array().unwrap().len(), 4);
    assert_eq!(json["sets"][1]["expected_tokens"], json!(1540.0));

    // A cheap round trip makes failed first calls cheap: the guide stays indexed.
    let cheap: Value = serde_json::from_str(&stdout(
        &dir,
        &[
            "suggest",
            "--trace",
            file,
            "--round-trip",
            "100",
            "--format",
            "json",
        ],
        0,
    ))
    .unwrap();
    assert_eq!(cheap["round_trip"], json!(100));
    assert_eq!(cheap["round_trip_source"], json!("option"));
    assert!(
        !cheap["starter"]
            .as_array()
            .unwrap()
            .contains(&json!("view_startup_guide"))
    );

    // `filling_form` turns are counted on their own.
    let form: Value = serde_json::from_str(&stdout(
        &dir,
        &[
            "suggest",
            "--trace",
            file,
            "-p",
            "filling_form",
            "--format",
            "json",
        ],
        0,
    ))
    .unwrap();
    assert_eq!(
        (form["turns"].clone(), form["round_trip"].clone()),
        (json!(4), json!(3600))
    );

    assert_eq!(
        stderr(
            &dir,
            &["suggest", "--trace", file, "-p", "chart_requested"],
            2
        ),
        "error: the trace has no turn of profile `chart_requested` (profiles in the trace: `default`, `filling_form`)\n"
    );
    let tmp = tempfile::tempdir().unwrap();
    let bare = tmp.path().join("bare.jsonl");
    std::fs::write(&bare, "{\"session\": \"a\", \"turn\": 1}\n").unwrap();
    assert_eq!(
        stderr(&dir, &["suggest", "--trace", bare.to_str().unwrap()], 2),
        "error: no turn of profile `default` records `input_tokens`, so a round trip has no cost: pass `--round-trip N`\n"
    );
}

/// Copies the bundled example (config and tools) into a temporary directory.
fn copy_example() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::copy(
        root().join("discloser.yaml"),
        tmp.path().join("discloser.yaml"),
    )
    .unwrap();
    std::fs::create_dir(tmp.path().join("tools")).unwrap();
    for entry in std::fs::read_dir(root().join("tools")).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(
            &path,
            tmp.path().join("tools").join(path.file_name().unwrap()),
        )
        .unwrap();
    }
    tmp
}

/// A suggestion resting on few turns is not written without `--force`; a first call that only
/// sent a value outside an enum the index line lists is not a failure binding prevents.
#[test]
fn suggest_knows_what_binding_fixes_and_how_sure_it_is() {
    let tmp = copy_example();
    let dir = tmp.path();
    let trace = fixtures().join("trace.jsonl");
    let trace = trace.to_str().unwrap();
    let before = std::fs::read_to_string(dir.join("discloser.yaml")).unwrap();
    let err = stderr(
        dir,
        &["suggest", "--trace", trace, "--write-profile", "from_trace"],
        2,
    );
    assert!(
        err.contains(
            "the suggestion moves `view_startup_guide` on fewer than 10 turns of evidence"
        ),
        "{err}"
    );
    assert!(err.contains("`--force`"), "{err}");
    assert_eq!(
        std::fs::read_to_string(dir.join("discloser.yaml")).unwrap(),
        before
    );

    // Twelve turns of `calculate_fees` called from the index with a package outside the enum
    // its line shows (`package: basic|standard|premium`): no failure binding would prevent.
    let mut lines = String::new();
    for turn in 1..=12 {
        lines.push_str(&format!(
            "{{\"session\": \"s{turn}\", \"turn\": 1, \"input_tokens\": 3000, \"tools\": [{{\"name\": \"calculate_fees\", \"origin\": \"catalog\", \"arguments\": {{\"package\": \"gold\"}}, \"ok\": false}}]}}\n"
        ));
    }
    std::fs::write(dir.join("enum.jsonl"), lines).unwrap();
    let json = stdout(
        dir,
        &["suggest", "--trace", "enum.jsonl", "--format", "json"],
        0,
    );
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let fees = v["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["tool"] == "calculate_fees")
        .unwrap();
    assert_eq!(fees["first_call_failures"], 12, "{fees}");
    assert_eq!(fees["preventable_failures"], 0, "{fees}");
    assert_eq!(fees["failure_rate"], 0.0, "{fees}");
    assert_eq!(fees["suggested"], "indexed", "{fees}");
    assert!(
        fees["reason"]
            .as_str()
            .unwrap()
            .contains("(0 preventable by binding: the others sent a value outside an enum the index line lists)"),
        "{fees}"
    );
}

#[test]
fn write_profile_inserts_text_and_keeps_every_other_byte() {
    let tmp = copy_example();
    let dir = tmp.path();
    let trace = fixtures().join("trace.jsonl");
    let trace = trace.to_str().unwrap();
    let before = std::fs::read_to_string(dir.join("discloser.yaml")).unwrap();
    let out = stdout(
        dir,
        &[
            "suggest",
            "--trace",
            trace,
            "--write-profile",
            "from_trace",
            "--force",
        ],
        0,
    );
    assert!(
        out.contains(
            "wrote profile from_trace to discloser.yaml; compare: discloser cost -p default -p from_trace"
        ),
        "{out}"
    );
    let after = std::fs::read_to_string(dir.join("discloser.yaml")).unwrap();
    let inserted = "  # suggested by `discloser suggest` from 20 turns of `default`: 1,540 expected tokens per turn (was 2,005)\n  from_trace:\n    starter: [check_order_progress, start_registration, transfer_to_human, view_startup_guide]\n";
    let at = before.find("    add: [draw_chart]\n").unwrap() + "    add: [draw_chart]\n".len();
    assert_eq!(
        after,
        format!("{}{inserted}{}", &before[..at], &before[at..])
    );

    // The new profile costs exactly what `suggest` said.
    let cost = stdout(
        dir,
        &[
            "cost",
            "-p",
            "default",
            "-p",
            "from_trace",
            "--format",
            "csv",
        ],
        0,
    );
    let tokens: Vec<&str> = cost
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(9).unwrap())
        .collect();
    assert_eq!(tokens, ["2486", "1405", "1390"]);
    assert!(stdout(dir, &["render", "-p", "from_trace"], 0).contains("- check_company_name("));

    // The name is taken now: nothing is written.
    let err = stderr(
        dir,
        &[
            "suggest",
            "--trace",
            trace,
            "--write-profile",
            "from_trace",
            "--force",
        ],
        2,
    );
    assert!(
        err.starts_with("error: discloser.yaml: profile `from_trace` already exists"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("discloser.yaml")).unwrap(),
        after
    );
    let err = stderr(
        dir,
        &[
            "suggest",
            "--trace",
            trace,
            "--write-profile",
            "a/b",
            "--force",
        ],
        2,
    );
    assert!(err.contains("cannot be a profile name"), "{err}");
}

#[test]
fn write_profile_refuses_what_it_cannot_insert_as_a_line() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::create_dir(dir.join("tools")).unwrap();
    for name in [
        "registration.yaml",
        "guides.yaml",
        "charts.yaml",
        "forms.yaml",
        "support.yaml",
    ] {
        std::fs::copy(
            root().join("tools").join(name),
            dir.join("tools").join(name),
        )
        .unwrap();
    }
    let config = "sources: [tools/*.yaml]\nprofiles: {default: {starter: [start_registration]}}\n";
    std::fs::write(dir.join("discloser.yaml"), config).unwrap();
    let trace = fixtures().join("trace.jsonl");
    let err = stderr(
        dir,
        &[
            "suggest",
            "--trace",
            trace.to_str().unwrap(),
            "--write-profile",
            "new",
            "--force",
        ],
        2,
    );
    assert!(err.contains("`profiles` is written inline"), "{err}");
    assert_eq!(
        std::fs::read_to_string(dir.join("discloser.yaml")).unwrap(),
        config
    );

    // Without profiles, the block is appended with an explicit `default` (core tools only).
    let config = "# no profiles yet\nsources: [tools/*.yaml]\n";
    std::fs::write(dir.join("discloser.yaml"), config).unwrap();
    stdout(
        dir,
        &[
            "suggest",
            "--trace",
            trace.to_str().unwrap(),
            "--write-profile",
            "new",
            "--force",
        ],
        0,
    );
    let after = std::fs::read_to_string(dir.join("discloser.yaml")).unwrap();
    assert!(after.starts_with(config));
    assert!(after.contains("\nprofiles:\n  # binds the core tools only, as it did while the config had no profiles\n  default:\n    starter: []\n"));
    let project = Project::load(&dir.join("discloser.yaml")).unwrap();
    assert_eq!(
        project
            .profile("default")
            .unwrap()
            .bound
            .into_iter()
            .collect::<Vec<_>>(),
        ["search_knowledge_base"]
    );
    assert!(
        project
            .profile("new")
            .unwrap()
            .is_bound("view_startup_guide")
    );
}

// ------------------------------------------------------------------------------------ reach --

#[test]
fn reach_reports_recall_and_the_unreachable_case() {
    let dir = root();
    let cases = "tests/fixtures/runtime/cases.yaml";
    insta::assert_snapshot!("reach.table", stdout(&dir, &["reach", cases], 1));
    let json: Value =
        serde_json::from_str(&stdout(&dir, &["reach", cases, "--format", "json"], 1)).unwrap();
    assert_eq!(
        (json["cases"].clone(), json["expected"].clone()),
        (json!(12), json!(13))
    );
    let recall: Vec<(u64, u64)> = json["recall"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["k"].as_u64().unwrap(), r["found"].as_u64().unwrap()))
        .collect();
    assert_eq!(recall, [(1, 11), (3, 12), (5, 12)]);
    assert_eq!(json["recall"][0]["recall"], json!(0.846));
    assert_eq!(json["unreachable"], json!(1));
    let last = &json["results"][11];
    assert_eq!(last["at"], json!("tests/fixtures/runtime/cases.yaml:28:16"));
    assert_eq!(last["tools"][0]["paths"], json!([]));
    assert_eq!(
        json["failures"],
        json!(["1 case no path reaches, more than `reach.max_unreachable` (0)"])
    );
}

#[test]
fn reach_gates_on_the_config_thresholds() {
    let tmp = copy_example();
    let dir = tmp.path();
    let cases = fixtures().join("cases.yaml");
    let cases = cases.to_str().unwrap();
    let base = std::fs::read_to_string(dir.join("discloser.yaml")).unwrap();
    let with = |reach: &str| {
        std::fs::write(dir.join("discloser.yaml"), format!("{base}{reach}")).unwrap();
    };
    with("reach:\n  max_unreachable: 1\n  min_recall_at_1: 0.8\n  min_recall_at_5: 0.9\n");
    let out = stdout(dir, &["reach", cases], 0);
    assert!(out.ends_with("ok: every gate passes\n"), "{out}");
    assert!(
        out.contains("recall@1 84.6% (11 of 13, minimum 80.0%)"),
        "{out}"
    );

    with("reach:\n  max_unreachable: 1\n  min_recall_at_1: 0.9\n");
    let out = stdout(dir, &["reach", cases], 1);
    assert!(
        out.ends_with("fail: recall@1 is 84.6% (11 of 13), below `reach.min_recall_at_1` 90.0%\n"),
        "{out}"
    );

    // The profile binding the guide reaches it by `bound`.
    with("reach:\n  search_limit: 1\n");
    let out = stdout(dir, &["reach", cases, "--profile", "filling_form"], 1);
    assert!(out.contains("profile `filling_form`"), "{out}");

    with("reach:\n  min_recall_at_3: 1.5\n");
    let err = stderr(dir, &["reach", cases], 2);
    assert!(
        err.starts_with(
            "error: discloser.yaml:44:20: `reach.min_recall_at_3`: must be a fraction between 0 and 1, found 1.5"
        ),
        "{err}"
    );
    with("reach:\n  min_recall_at_2: 0.5\n");
    let err = stderr(dir, &["reach", cases], 2);
    assert!(
        err.contains("unknown key `min_recall_at_2` in `reach`"),
        "{err}"
    );
}

#[test]
fn bad_cases_are_errors_at_their_position() {
    let tmp = copy_example();
    let dir = tmp.path();
    let write = |text: &str| std::fs::write(dir.join("cases.yaml"), text).unwrap();
    write("cases:\n  - utterance: 画个图\n    tools: [draw_chrat]\n");
    let err = stderr(dir, &["reach", "cases.yaml"], 2);
    assert!(
        err.starts_with("error: cases.yaml:3:13: tool `draw_chrat` is not in the catalog"),
        "{err}"
    );
    assert!(err.contains("help: did you mean `draw_chart`?"), "{err}");
    write("cases:\n  - utterance: 画个图\n    tool: [draw_chart]\n");
    let err = stderr(dir, &["reach", "cases.yaml"], 2);
    assert!(
        err.starts_with("error: cases.yaml:3:5: unknown key `tool`"),
        "{err}"
    );
    write("- utterance: 画个图\n  tools: [draw_chart]\n");
    let err = stderr(dir, &["reach", "cases.yaml"], 2);
    assert!(
        err.starts_with("error: cases.yaml:1:1: expected a mapping with `cases`"),
        "{err}"
    );
    write("cases:\n  - [画个图, draw_chart]\n");
    let err = stderr(dir, &["reach", "cases.yaml"], 2);
    assert!(
        err.starts_with(
            "error: cases.yaml:2:5: `cases.0` must be a mapping with `utterance` and `tools`"
        ),
        "{err}"
    );
    write("cases: []\n");
    let err = stderr(dir, &["reach", "cases.yaml"], 2);
    assert!(err.contains("`cases` is empty"), "{err}");
    write("cases:\n  - utterance: ' '\n    tools: [draw_chart]\n");
    let err = stderr(dir, &["reach", "cases.yaml"], 2);
    assert!(
        err.starts_with("error: cases.yaml:2:16: the utterance is empty"),
        "{err}"
    );
}

// ----------------------------------------------------------------------------------- README --

/// The fenced blocks of the README's walkthrough, in order (`…` marks an abridged line).
fn walkthrough_blocks() -> Vec<String> {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let start = readme
        .find("\n## The loop on the bundled example\n")
        .expect("the README has the walkthrough")
        + 1;
    // The walkthrough runs to the README's next section.
    let end = start
        + 1
        + readme[start + 1..]
            .find("\n## ")
            .expect("the walkthrough ends");
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    for line in readme[start..end].lines() {
        match (&mut current, line.starts_with("```")) {
            (None, true) => current = Some(String::new()),
            (Some(block), true) => {
                blocks.push(std::mem::take(block));
                current = None;
            }
            (Some(block), false) => {
                block.push_str(line);
                block.push('\n');
            }
            (None, false) if line.starts_with('|') => {
                // The cost table is Markdown, outside a fence.
                blocks.push(format!("{line}\n"));
            }
            (None, false) => {}
        }
    }
    blocks
}

fn assert_lines_in(block: &str, output: &str) {
    let lines: Vec<&str> = output.lines().collect();
    for line in block.lines().filter(|l| *l != "…") {
        assert!(
            lines.contains(&line),
            "README line not in the output:\n{line}\n--- output:\n{output}"
        );
    }
}

#[test]
fn the_readme_walkthrough_shows_the_real_outputs() {
    let tmp = copy_example();
    let dir = tmp.path();
    std::fs::create_dir_all(dir.join("tests/fixtures/runtime")).unwrap();
    std::fs::copy(
        fixtures().join("trace.jsonl"),
        dir.join("tests/fixtures/runtime/trace.jsonl"),
    )
    .unwrap();
    let blocks = walkthrough_blocks();
    let file = "tests/fixtures/runtime/trace.jsonl";
    assert_lines_in(&blocks[0], &stdout(dir, &["trace", file], 0));
    assert_lines_in(
        &blocks[1],
        &stdout(
            dir,
            &[
                "suggest",
                "--trace",
                file,
                "--write-profile",
                "from_trace",
                "--force",
            ],
            0,
        ),
    );
    assert_lines_in(
        &blocks[2],
        &std::fs::read_to_string(dir.join("discloser.yaml")).unwrap(),
    );
    let cost = stdout(
        dir,
        &[
            "cost",
            "-p",
            "default",
            "-p",
            "from_trace",
            "--format",
            "markdown",
        ],
        0,
    );
    let table: String = blocks[3..].concat();
    assert_eq!(table.lines().count(), 5);
    assert_lines_in(&table, &cost);
}

#[test]
fn schemas_that_cannot_be_validated_fall_back_to_the_recorded_outcome() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(
        tmp.path().join("discloser.yaml"),
        "sources: [tools.yaml]\nsearch_tool: {name: find_tools, parameters: {type: object, properties: {query: {type: string}}, required: [query]}}\n",
    )
    .unwrap();
    std::fs::write(
        tmp.path().join("tools.yaml"),
        "- name: bfcl_tool\n  description: A BFCL tool.\n  triggers: [bfcl]\n  parameters: {type: dict, properties: {x: {type: integer}}, required: [x]}\n",
    )
    .unwrap();
    let project = Project::load(&tmp.path().join("discloser.yaml")).unwrap();
    let runtime = Runtime::new(&project);
    let check = runtime.check_arguments("bfcl_tool", Some(&json!({})));
    assert_eq!(check.valid, None);
    assert!(
        check
            .unchecked
            .unwrap()
            .starts_with("the tool's schema cannot be compiled for validation"),
    );
    let mut trace = Trace::default();
    let text = concat!(
        r#"{"session": "a", "turn": 1, "tools": [{"name": "bfcl_tool", "origin": "catalog", "arguments": {}, "ok": false, "error": "boom"}]}"#,
        "\n",
        r#"{"session": "a", "turn": 2, "tools": [{"name": "bfcl_tool", "origin": "catalog", "arguments": {}, "ok": true}]}"#,
        "\n",
        r#"{"session": "a", "turn": 3, "tools": [{"name": "find_tools", "arguments": {"query": "bfcl"}}, {"name": "bfcl_tool", "arguments": {"x": 1}}]}"#,
        "\n",
    );
    trace
        .add(SourceFile::from_text(text, PathBuf::from("t.jsonl")))
        .unwrap();
    let profiles = turn_profiles(&trace, &project, "default").unwrap();
    assert_eq!(classify(&mut trace, &runtime, &profiles), 2);
    let s = summarize(&trace, &runtime, 2);
    assert_eq!(s.first_call_failures.len(), 1);
    assert_eq!(s.first_call_failures[0].errors, ["boom"]);
    // The configured search tool is recognised, and what it returned is reached by `search`.
    assert_eq!(s.origins.search, 1);
    assert_eq!(
        s.tools
            .iter()
            .find(|t| t.name == "find_tools")
            .unwrap()
            .calls,
        1
    );
}

/// A runtime serves concurrent turns: the search index and compiled validators can be shared.
#[test]
fn the_runtime_can_be_shared_across_threads() {
    fn shareable<T: Send + Sync>() {}
    shareable::<Runtime<'static>>();
    let project = example();
    let runtime = Runtime::new(&project);
    let profile = project.profile("default").unwrap();
    std::thread::scope(|scope| {
        for _ in 0..4 {
            scope.spawn(|| {
                let call = runtime.resolve(&profile, "view_startup_guide", Some(&json!({})));
                assert_eq!(call.valid, Some(false));
            });
        }
    });
}
