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
