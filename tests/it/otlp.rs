//! OpenTelemetry GenAI traces as OTLP JSON: the bilingual fixture's `bilingual.otlp.json` holds
//! the same turns as its `bilingual.jsonl`, so everything that reads traces (`trace`,
//! `trace --classify`, `reach --trace`, `suggest`, `suggest --triggers`) must print the same
//! bytes for both; and malformed OTLP is an error at `file:line:col`, exit 2.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::{Map, Value, json};

use crate::support::{discloser_in, root};

fn fixture(name: &str) -> PathBuf {
    root().join("tests/fixtures/trace").join(name)
}

fn read(name: &str) -> String {
    std::fs::read_to_string(fixture(name)).unwrap()
}

fn run(dir: &Path, args: &[&str]) -> Output {
    let config = root().join("discloser.yaml");
    let mut all = vec!["--config", config.to_str().unwrap()];
    all.extend_from_slice(args);
    discloser_in(dir, &all)
}

/// Every command that reads traces, in every format, with `{}` for the trace file.
fn commands() -> Vec<Vec<&'static str>> {
    let mut all = Vec::new();
    for format in ["table", "markdown", "json"] {
        all.push(vec!["trace", "--format", format, "{}"]);
        all.push(vec!["trace", "--classify", "--format", format, "{}"]);
        all.push(vec!["reach", "--format", format, "--trace", "{}"]);
        all.push(vec!["suggest", "--format", format, "--trace", "{}"]);
        all.push(vec![
            "suggest",
            "--triggers",
            "--format",
            format,
            "--trace",
            "{}",
        ]);
    }
    all
}

fn with_file<'a>(command: &[&'a str], file: &'a str) -> Vec<&'a str> {
    command
        .iter()
        .map(|a| if *a == "{}" { file } else { a })
        .collect()
}

/// Runs `command` on `a` and on `b` (each in its own directory, under the same name) and
/// requires the same exit code, stdout and stderr, byte for byte; returns the exit code and
/// stdout.
fn same_output(a: &str, b: &str, command: &[&str]) -> (Option<i32>, String) {
    let (dir_a, dir_b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    std::fs::write(dir_a.path().join("turns.trace"), a).unwrap();
    std::fs::write(dir_b.path().join("turns.trace"), b).unwrap();
    let args = with_file(command, "turns.trace");
    let (out_a, out_b) = (run(dir_a.path(), &args), run(dir_b.path(), &args));
    let stdout = String::from_utf8(out_a.stdout).unwrap();
    let stderr = String::from_utf8(out_a.stderr).unwrap();
    assert!(!stderr.contains("panicked"), "{command:?}: {stderr}");
    assert_eq!(out_a.status.code(), out_b.status.code(), "{command:?}");
    assert_eq!(
        stdout,
        String::from_utf8(out_b.stdout).unwrap(),
        "{command:?}"
    );
    assert_eq!(
        stderr,
        String::from_utf8(out_b.stderr).unwrap(),
        "{command:?}"
    );
    (out_a.status.code(), stdout)
}

/// [`same_output`] for a command that must run (exit 0 or 1, something printed).
fn same_run(a: &str, b: &str, command: &[&str]) -> String {
    let (code, stdout) = same_output(a, b, command);
    assert!(matches!(code, Some(0 | 1)), "{command:?}: exit {code:?}");
    assert!(!stdout.is_empty(), "{command:?}");
    stdout
}

fn attribute<'a>(span: &'a Value, key: &str) -> Option<&'a Value> {
    span["attributes"]
        .as_array()?
        .iter()
        .find(|a| a["key"] == key)
        .map(|a| &a["value"])
}

fn string_attribute(span: &Value, key: &str) -> String {
    attribute(span, key).unwrap()["stringValue"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// The fixture's export, with its spans.
fn export() -> (Value, Vec<Value>) {
    let doc: Value = serde_json::from_str(&read("bilingual.otlp.json")).unwrap();
    let spans = doc["resourceSpans"][0]["scopeSpans"][0]["spans"]
        .as_array()
        .unwrap()
        .clone();
    (doc, spans)
}

/// `(session, turn)` of a chat span.
fn turn_key(span: &Value) -> Option<(String, u64)> {
    (attribute(span, "gen_ai.operation.name")?["stringValue"] == "chat").then(|| {
        let turn = attribute(span, "discloser.turn").unwrap()["intValue"]
            .as_str()
            .unwrap();
        (
            string_attribute(span, "gen_ai.conversation.id"),
            turn.parse().unwrap(),
        )
    })
}

fn without_origin_attribute(mut span: Value) -> Value {
    span["attributes"]
        .as_array_mut()
        .unwrap()
        .retain(|a| a["key"] != "discloser.tool.origin");
    span
}

fn without_origin_keys(jsonl: &str) -> String {
    jsonl
        .lines()
        .map(|line| {
            let mut turn: Value = serde_json::from_str(line).unwrap();
            for call in turn["tools"].as_array_mut().unwrap() {
                call.as_object_mut().unwrap().remove("origin");
            }
            format!("{turn}\n")
        })
        .collect()
}

/// The fixture's export written so that line `k` holds the chat span of the JSON Lines
/// trace's line `k` (and that turn's tool spans): a turn's `file:line` is then the same in both
/// files, and every output can be compared byte for byte.
fn otlp_on_the_jsonl_lines(origins: bool) -> String {
    let (doc, spans) = export();
    let mut children: BTreeMap<String, Vec<Value>> = BTreeMap::new();
    let mut chats: BTreeMap<(String, u64), Value> = BTreeMap::new();
    for span in spans {
        let span = if origins {
            span
        } else {
            without_origin_attribute(span)
        };
        match turn_key(&span) {
            Some(key) => {
                chats.insert(key, span);
            }
            None => children
                .entry(span["parentSpanId"].as_str().unwrap().to_owned())
                .or_default()
                .push(span),
        }
    }
    let resource = &doc["resourceSpans"][0]["resource"];
    let scope = &doc["resourceSpans"][0]["scopeSpans"][0]["scope"];
    let mut out = format!(
        "{{\"resourceSpans\":[{{\"resource\":{resource},\"scopeSpans\":[{{\"scope\":{scope},\"spans\":["
    );
    for (k, line) in read("bilingual.jsonl").lines().enumerate() {
        let turn: Value = serde_json::from_str(line).unwrap();
        let key = (
            turn["session"].as_str().unwrap().to_owned(),
            turn["turn"].as_u64().unwrap(),
        );
        let chat = chats.remove(&key).expect("a chat span per turn");
        if k > 0 {
            out.push_str("\n,");
        }
        out.push_str(&chat.to_string());
        let id = chat["spanId"].as_str().unwrap();
        for tool in children.remove(id).unwrap_or_default() {
            out.push(',');
            out.push_str(&tool.to_string());
        }
    }
    assert!(chats.is_empty() && children.is_empty());
    out.push_str("]}]}]}\n");
    out
}

/// `discloser trace` (every format, and `--classify` on the files without their origins),
/// `reach --trace`, `suggest` and `suggest --triggers` print the same bytes for the OTLP
/// export as for the JSON Lines of the same turns.
#[test]
fn every_command_prints_the_same_for_otlp_and_json_lines() {
    let jsonl = read("bilingual.jsonl");
    let otlp = otlp_on_the_jsonl_lines(true);
    let (jsonl_bare, otlp_bare) = (without_origin_keys(&jsonl), otlp_on_the_jsonl_lines(false));
    for command in commands() {
        same_run(&jsonl, &otlp, &command);
        // Without origins, `reach --trace` has no case and both runs fail alike (exit 2).
        same_output(&jsonl_bare, &otlp_bare, &command);
    }
    let summary: Value = serde_json::from_str(&same_run(
        &jsonl_bare,
        &otlp_bare,
        &["trace", "--classify", "--format", "json", "{}"],
    ))
    .unwrap();
    assert_eq!(summary["classified"], 250, "{summary}");
    assert_eq!(summary["origins"]["search"], 10, "{summary}");
}

/// The committed OTLP fixture itself, at its own path: the same summary as the JSON Lines
/// (`trace --format json`), each turn placed at the line of its chat span.
#[test]
fn the_otlp_fixture_summarises_as_its_json_lines() {
    let mut jsonl_line: BTreeMap<(String, u64), usize> = BTreeMap::new();
    for (i, line) in read("bilingual.jsonl").lines().enumerate() {
        let turn: Value = serde_json::from_str(line).unwrap();
        let key = (
            turn["session"].as_str().unwrap().to_owned(),
            turn["turn"].as_u64().unwrap(),
        );
        jsonl_line.insert(key, i + 1);
    }
    let mut chat_line: BTreeMap<usize, usize> = BTreeMap::new();
    for (i, line) in read("bilingual.otlp.json").lines().enumerate() {
        let text = line.trim().trim_end_matches(',');
        if let Ok(span) = serde_json::from_str::<Value>(text)
            && let Some(key) = turn_key(&span)
        {
            chat_line.insert(i + 1, jsonl_line[&key]);
        }
    }
    assert_eq!(chat_line.len(), 231);
    let dir = root();
    let (jsonl_path, otlp_path) = (
        "tests/fixtures/trace/bilingual.jsonl",
        "tests/fixtures/trace/bilingual.otlp.json",
    );
    let at = regex::Regex::new(r"bilingual\.otlp\.json(:(\d+))?").unwrap();
    for command in [
        vec!["trace", "--format", "json", "{}"],
        vec!["reach", "--format", "json", "--trace", "{}"],
        vec!["suggest", "--triggers", "--format", "json", "--trace", "{}"],
    ] {
        let jsonl = run(&dir, &with_file(&command, jsonl_path));
        let otlp = run(&dir, &with_file(&command, otlp_path));
        assert_eq!(jsonl.status.code(), otlp.status.code(), "{command:?}");
        let otlp = String::from_utf8(otlp.stdout).unwrap();
        let moved = at.replace_all(&otlp, |c: &regex::Captures<'_>| match c.get(2) {
            Some(line) => format!(
                "bilingual.jsonl:{}",
                chat_line[&line.as_str().parse::<usize>().unwrap()]
            ),
            None => "bilingual.jsonl".to_owned(),
        });
        assert_eq!(
            moved,
            String::from_utf8(jsonl.stdout).unwrap(),
            "{command:?}"
        );
    }
}

/// A deterministic shuffle (a linear congruential generator; no dependency).
fn shuffled(mut items: Vec<Value>, seed: u64) -> Vec<Value> {
    let mut state = seed;
    for i in (1..items.len()).rev() {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let j = usize::try_from((state >> 33) % (i as u64 + 1)).unwrap();
        items.swap(i, j);
    }
    items
}

fn one_line_export(spans: Vec<Value>) -> String {
    let (mut doc, _) = export();
    doc["resourceSpans"][0]["scopeSpans"][0]["spans"] = Value::Array(spans);
    format!("{doc}\n")
}

/// The order of the spans in the file does not matter: sessions, turns and calls are ordered
/// by start time, then ids. (On one line, every turn is at line 1 in both files.)
#[test]
fn span_order_does_not_change_the_output() {
    let (_, spans) = export();
    let in_order = one_line_export(spans.clone());
    let mut reversed = spans.clone();
    reversed.reverse();
    for other in [
        one_line_export(shuffled(spans.clone(), 7)),
        one_line_export(shuffled(spans, 2026)),
        one_line_export(reversed),
    ] {
        assert_ne!(other, in_order);
        for command in commands() {
            same_run(&in_order, &other, &command);
        }
    }
}

/// The OTLP file exporter's JSON Lines (one export per line; here one per session, the spans
/// of each reversed) read as the single document does, turn for turn.
#[test]
fn one_export_per_line_reads_as_one_document() {
    let (doc, spans) = export();
    let mut by_trace: BTreeMap<String, Vec<Value>> = BTreeMap::new();
    for span in spans {
        by_trace
            .entry(span["traceId"].as_str().unwrap().to_owned())
            .or_default()
            .insert(0, span);
    }
    let mut lines = String::new();
    for spans in by_trace.into_values() {
        let mut one = doc.clone();
        one["resourceSpans"][0]["scopeSpans"][0]["spans"] = Value::Array(spans);
        lines.push_str(&format!("{one}\n\n"));
    }
    let turns = |text: &str| {
        let source = discloser::source::SourceFile::from_text(text.to_owned(), "t".into());
        discloser::runtime::trace::parse(&source, 0)
            .unwrap()
            .into_iter()
            .map(|t| t.turn)
            .collect::<Vec<_>>()
    };
    let expected = turns(&read("bilingual.jsonl"));
    assert_eq!(expected.len(), 231);
    assert_eq!(turns(&lines), expected);
}

/// An OTLP export of one session: a chat span and its tool spans, each on its own line, with
/// `edit` applied to the spans (`[chat, tool]`) first.
fn small_export(edit: impl FnOnce(&mut Vec<Value>)) -> String {
    let chat = json!({"traceId": "aa", "spanId": "c1", "name": "chat gpt-4o-mini",
        "startTimeUnixNano": "1000000000", "endTimeUnixNano": "3000000000",
        "attributes": [
            {"key": "gen_ai.operation.name", "value": {"stringValue": "chat"}},
            {"key": "gen_ai.conversation.id", "value": {"stringValue": "s1"}},
            {"key": "gen_ai.usage.input_tokens", "value": {"intValue": "2800"}},
            {"key": "gen_ai.input.messages", "value": {"stringValue": "[{\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"content\":\"hi\"}]}]"}}
        ], "status": {}});
    let tool = json!({"traceId": "aa", "spanId": "t1", "parentSpanId": "c1",
        "name": "execute_tool view_startup_guide",
        "startTimeUnixNano": "1500000000", "endTimeUnixNano": "1600000000",
        "attributes": [
            {"key": "gen_ai.operation.name", "value": {"stringValue": "execute_tool"}},
            {"key": "gen_ai.tool.name", "value": {"stringValue": "view_startup_guide"}},
            {"key": "gen_ai.tool.call.arguments", "value": {"stringValue": "{}"}},
            {"key": "discloser.tool.origin", "value": {"stringValue": "catalog"}}
        ], "status": {"code": 2, "message": "boom"}});
    let mut spans = vec![chat, tool];
    edit(&mut spans);
    let lines: Vec<String> = spans.iter().map(Value::to_string).collect();
    format!(
        "{{\n  \"resourceSpans\": [{{\n    \"scopeSpans\": [{{\n      \"spans\": [\n{}\n      ]\n    }}]\n  }}]\n}}\n",
        lines.join(",\n")
    )
}

fn set_attribute(span: &mut Value, key: &str, value: Value) {
    let attributes = span["attributes"].as_array_mut().unwrap();
    attributes.retain(|a| a["key"] != key);
    attributes.push(json!({"key": key, "value": value}));
}

fn remove(span: &mut Value, key: &str) {
    span.as_object_mut().unwrap().shift_remove(key);
}

/// Runs `trace` on `text` and requires exit 2 and an error at the first occurrence of `at` in
/// the text (its line and column), whose message has every one of `words`.
fn fails_at(text: &str, args: &[&str], at: &str, words: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("t.json"), text).unwrap();
    let mut all = vec!["trace"];
    all.extend_from_slice(args);
    all.push("t.json");
    let out = run(dir.path(), &all);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{at}: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    let offset = text
        .find(at)
        .unwrap_or_else(|| panic!("`{at}` in the text"));
    let line = text[..offset].matches('\n').count() + 1;
    let col = text[..offset].rsplit('\n').next().unwrap().chars().count() + 1;
    let location = format!("error: t.json:{line}:{col}: ");
    assert!(stderr.starts_with(&location), "want {location}\n{stderr}");
    for word in words {
        assert!(stderr.contains(word), "want {word:?}\n{stderr}");
    }
}

#[test]
fn a_small_export_reads() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("t.json"), small_export(|_| {})).unwrap();
    let out = run(dir.path(), &["trace", "--format", "json", "t.json"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary["turns"], 1);
    assert_eq!(summary["origins"]["catalog"], 1);
    assert_eq!(summary["mean_input_tokens"], 2800.0);
    assert_eq!(summary["mean_latency_ms"], 2000.0);
    assert_eq!(
        summary["first_call_failures"][0]["at"], "t.json:5",
        "{summary}"
    );
}

/// Arguments that are not JSON, an `intValue` that is not a number, missing attributes and
/// ids, wrong types, an empty export: exit 2 at the offending value, never a panic.
#[test]
fn malformed_otlp_is_an_error_at_its_position() {
    let arguments = |text: &str| {
        let text = text.to_owned();
        small_export(move |s| {
            set_attribute(
                &mut s[1],
                "gen_ai.tool.call.arguments",
                json!({ "stringValue": text }),
            );
        })
    };
    fails_at(
        &arguments("{kind: bp}"),
        &[],
        "\"{kind: bp}\"",
        &["`gen_ai.tool.call.arguments` is not JSON", "of the string"],
    );
    fails_at(
        &small_export(|s| {
            set_attribute(
                &mut s[0],
                "gen_ai.usage.input_tokens",
                json!({"intValue": "lots"}),
            );
        }),
        &[],
        "\"lots\"",
        &["`intValue` must be a 64-bit integer", "`\"lots\"`"],
    );
    fails_at(
        &small_export(|s| {
            set_attribute(
                &mut s[0],
                "gen_ai.usage.input_tokens",
                json!({"stringValue": "2800"}),
            );
        }),
        &[],
        "\"2800\"",
        &["`gen_ai.usage.input_tokens` must be an integer (`intValue`)"],
    );
    fails_at(
        &small_export(|s| {
            s[1]["attributes"]
                .as_array_mut()
                .unwrap()
                .retain(|a| a["key"] != "gen_ai.tool.name");
        }),
        &[],
        "[{\"key\":\"gen_ai.operation.name\",\"value\":{\"stringValue\":\"execute_tool\"",
        &["an `execute_tool` span needs `gen_ai.tool.name`"],
    );
    fails_at(
        &small_export(|s| {
            set_attribute(&mut s[1], "gen_ai.tool.name", json!({"intValue": "3"}));
        }),
        &[],
        "\"3\"}}",
        &["`gen_ai.tool.name` must be a string"],
    );
    fails_at(
        &small_export(|s| remove(&mut s[1], "spanId")),
        &[],
        "{\"traceId\":\"aa\",\"parentSpanId\"",
        &["needs its `spanId`"],
    );
    fails_at(
        &small_export(|s| s[0]["traceId"] = json!(7)),
        &[],
        "7,",
        &["`traceId` must be a hex string"],
    );
    fails_at(
        &small_export(|s| s[0]["attributes"] = json!({})),
        &[],
        "{},",
        &["`attributes` must be a list of attributes"],
    );
    fails_at(
        &small_export(|s| {
            set_attribute(
                &mut s[1],
                "discloser.tool.origin",
                json!({"stringValue": "bond"}),
            );
        }),
        &[],
        "\"bond\"",
        &[
            "`discloser.tool.origin` cannot be `bond`",
            "did you mean `bound`?",
        ],
    );
    fails_at(
        &small_export(|s| s[1]["status"] = json!({"code": 7})),
        &[],
        "7}",
        &["the status `code` must be 0 (unset), 1 (ok) or 2 (error)"],
    );
    fails_at(
        &small_export(|s| s[0]["endTimeUnixNano"] = json!("10")),
        &[],
        "\"10\"",
        &["ends (`10`) before it starts (`1000000000`)"],
    );
    fails_at(
        &small_export(|s| s[1]["startTimeUnixNano"] = json!("soon")),
        &[],
        "\"soon\"",
        &["`startTimeUnixNano` must be nanoseconds since the epoch"],
    );
    fails_at(
        &small_export(|s| {
            set_attribute(
                &mut s[0],
                "gen_ai.input.messages",
                json!({"stringValue": "hi there"}),
            );
        }),
        &[],
        "\"hi there\"",
        &["`gen_ai.input.messages` is not JSON"],
    );
    fails_at(
        &small_export(|s| {
            // The same span, its keys in another order (so that the text can find it).
            let mut copy = Map::new();
            copy.insert("spanId".to_owned(), s[1]["spanId"].clone());
            for (key, value) in s[1].as_object().unwrap() {
                copy.entry(key.clone()).or_insert_with(|| value.clone());
            }
            s.push(Value::Object(copy));
        }),
        &[],
        "{\"spanId\":\"t1\"",
        &["span `t1` of trace `aa` appears twice (first at line 6)"],
    );
    fails_at(
        "{\"resourceSpans\": []}\n",
        &[],
        "[]",
        &["no GenAI span", "no turn to read"],
    );
    fails_at(
        "{\n  \"resourceSpans\": []\n}\n",
        &[],
        "[]",
        &["no GenAI span"],
    );
    fails_at(
        "{\"resourceSpans\": {}}\n",
        &[],
        "{}",
        &["`resourceSpans` must be a list of resource spans"],
    );
    // A syntax error in a pretty-printed export is that document's error, not line 1's.
    let broken = small_export(|_| {}).replacen("\"spans\": [\n", "\"spans\": [\n,", 1);
    fails_at(&broken, &[], ",{\"traceId\"", &["expected value"]);
    // JSON Lines of exports: every line must be one.
    let first = small_export(|_| {}).replace('\n', "");
    fails_at(
        &format!("{first}\n{{\"session\": \"s\", \"turn\": 1}}\n"),
        &[],
        "{\"session\"",
        &["expected an OTLP export (an object with `resourceSpans`) on every line"],
    );
    // A profile the config does not define, at its attribute.
    fails_at(
        &small_export(|s| {
            set_attribute(
                &mut s[0],
                "discloser.profile",
                json!({"stringValue": "defualt"}),
            );
        }),
        &["--classify"],
        "\"defualt\"",
        &["names profile `defualt`", "did you mean `default`?"],
    );
}
