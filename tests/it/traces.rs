//! Traces written for the purpose: the bilingual fixture of the bundled example
//! (`tests/fixtures/trace/`, made by its `make_fixture.py`), with the user's message per turn.

use serde_json::Value;

use crate::support::{discloser_in, root};

fn trace_json(args: &[&str]) -> Value {
    let mut all = vec!["trace", "--format", "json"];
    all.extend_from_slice(args);
    let out = discloser_in(&root(), &all);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("trace --format json prints JSON")
}

/// Every turn carries `user`; the reader takes it and the counts are the fixture's own
/// (its README lists them).
#[test]
fn a_trace_with_user_messages_reads() {
    let summary = trace_json(&["tests/fixtures/trace/bilingual.jsonl"]);
    assert_eq!(summary["turns"], 231);
    assert_eq!(summary["sessions"], 54);
    let origins = &summary["origins"];
    assert_eq!(
        (
            &origins["bound"],
            &origins["catalog"],
            &origins["search"],
            &origins["unknown"]
        ),
        (
            &Value::from(116),
            &Value::from(118),
            &Value::from(10),
            &Value::from(6)
        ),
        "{origins}"
    );
}

/// A `user` that is not a string is an error at its position, like any other mistyped key.
#[test]
fn a_user_message_must_be_text() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("t.jsonl"),
        "{\"session\": \"s\", \"turn\": 1, \"user\": 3}\n",
    )
    .unwrap();
    let out = discloser_in(
        dir.path(),
        &[
            "--config",
            root().join("discloser.yaml").to_str().unwrap(),
            "trace",
            "t.jsonl",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("t.jsonl:1:"), "{stderr}");
    assert!(stderr.contains("user"), "{stderr}");
}

/// An invented name's nearest real tools come from every word of the index line, the summary
/// included: `get_forecast` shares no trigger and no name part with `city_outlook`, but its
/// summary says "weather forecast".
#[test]
fn nearest_names_use_the_summary_words() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("tools.yaml"),
        "- name: city_outlook\n  description: Show the weather forecast of a city for the week.\n  triggers: [天气]\n\
         - name: book_room\n  description: Book a meeting room.\n  triggers: [meeting]\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("discloser.yaml"), "sources: [tools.yaml]\n").unwrap();
    std::fs::write(
        dir.path().join("t.jsonl"),
        "{\"session\": \"s\", \"turn\": 1, \"tools\": [{\"name\": \"get_forecast\", \"origin\": \"unknown\"}]}\n",
    )
    .unwrap();
    let out = discloser_in(dir.path(), &["trace", "--format", "json", "t.jsonl"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
    let unknown = &summary["unknown"][0];
    assert_eq!(unknown["name"], "get_forecast", "{summary}");
    assert_eq!(unknown["nearest"][0]["name"], "city_outlook", "{summary}");
    assert_eq!(
        unknown["nearest"][0]["shared_words"],
        serde_json::json!(["forecast"]),
        "{summary}"
    );
}
