//! Where trigger words come from: the tool's own definition (native `triggers:`, an MCP tool's
//! `_meta`), trigger files named in `discloser.yaml`, and `overrides:` — in that order of
//! precedence, the last that names a tool winning.

use std::path::Path;
use std::process::Output;

use crate::support::discloser_in;

fn write(dir: &Path, path: &str, text: &str) {
    std::fs::write(dir.join(path), text).expect("write a fixture file");
}

fn text(out: &Output) -> (i32, String, String) {
    (
        out.status.code().expect("exited"),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

const MCP_TOOLS: &str = r#"{"tools": [{
  "name": "get_forecast",
  "description": "Get the weather forecast for a city for the next seven days.",
  "inputSchema": {"type": "object", "properties": {"city": {"type": "string", "description": "The city."}}, "required": ["city"]},
  "_meta": {"dev.discloser/triggers": ["weather", "forecast", "天气"]}
}]}
"#;

/// A server author ships triggers in `_meta`; the index shows them and lint is satisfied.
#[test]
fn mcp_meta_triggers_render_and_lint_clean() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "tools.json", MCP_TOOLS);
    let (code, out, err) = text(&discloser_in(dir.path(), &["render", "tools.json"]));
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("- get_forecast(city: string) [天气 / weather / forecast] Get the weather"),
        "{out}"
    );
    let (code, out, err) = text(&discloser_in(
        dir.path(),
        &["lint", "--format", "concise", "tools.json"],
    ));
    assert_eq!(code, 0, "{out}{err}");
}

/// Triggers in `_meta` that are not a list of strings are an error at their position.
#[test]
fn mcp_meta_triggers_must_be_strings() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "tools.json",
        &MCP_TOOLS.replace(r#"["weather", "forecast", "天气"]"#, r#"["weather", 7]"#),
    );
    let (code, _, err) = text(&discloser_in(dir.path(), &["render", "tools.json"]));
    assert_eq!(code, 2);
    assert!(err.contains("tools.json:5:"), "{err}");
    assert!(err.contains("must hold strings"), "{err}");
}

/// `export --provider mcp` writes a tool's triggers into `_meta`, and reading the export back
/// gives the same triggers.
#[test]
fn export_to_mcp_keeps_triggers_in_meta() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "tools.yaml",
        "- name: view_guide\n  description: Fetch a guide.\n  core: true\n  triggers: [BP, 商业计划书]\n",
    );
    let (code, out, err) = text(&discloser_in(
        dir.path(),
        &["export", "--provider", "mcp", "tools.yaml"],
    ));
    assert_eq!(code, 0, "{err}");
    let value: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        value["tools"][0]["_meta"]["dev.discloser/triggers"],
        serde_json::json!(["BP", "商业计划书"])
    );
    write(dir.path(), "back.json", &out);
    let (code, out, err) = text(&discloser_in(dir.path(), &["render", "back.json"]));
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("[BP / 商业计划书]"), "{out}");
}

const CONFIG: &str = "sources: [tools.yaml]\n";
const TOOL: &str = "- name: view_guide\n  description: Fetch a guide.\n  triggers: [own]\n";

fn rendered_triggers(dir: &Path) -> String {
    let (code, out, err) = text(&discloser_in(dir, &["render"]));
    assert_eq!(code, 0, "{err}");
    let line = out
        .lines()
        .find(|l| l.starts_with("- view_guide("))
        .unwrap_or_else(|| panic!("no entry in {out}"))
        .to_owned();
    line[line.find('[').unwrap()..=line.find(']').unwrap()].to_owned()
}

/// The tool's own list, then each trigger file in order, then `overrides`: the last wins.
#[test]
fn trigger_files_and_overrides_take_precedence_in_order() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "tools.yaml", TOOL);
    write(dir.path(), "discloser.yaml", CONFIG);
    assert_eq!(rendered_triggers(dir.path()), "[own]");

    write(dir.path(), "first.yaml", "view_guide: [first]\n");
    write(dir.path(), "second.yaml", "view_guide: [second]\n");
    write(
        dir.path(),
        "discloser.yaml",
        &format!("{CONFIG}triggers: [first.yaml]\n"),
    );
    assert_eq!(rendered_triggers(dir.path()), "[first]");
    write(
        dir.path(),
        "discloser.yaml",
        &format!("{CONFIG}triggers: [first.yaml, second.yaml]\n"),
    );
    assert_eq!(rendered_triggers(dir.path()), "[second]");
    write(
        dir.path(),
        "discloser.yaml",
        &format!(
            "{CONFIG}triggers: [first.yaml, second.yaml]\noverrides:\n  view_guide: {{triggers: [override]}}\n"
        ),
    );
    assert_eq!(rendered_triggers(dir.path()), "[override]");
}

/// A trigger file naming a tool the catalog lacks is an error in that file, with the nearest
/// name; a missing trigger file is an error at its entry in the config.
#[test]
fn trigger_file_errors_are_placed() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "tools.yaml", TOOL);
    write(dir.path(), "words.yaml", "# words\nview_gide: [x]\n");
    write(
        dir.path(),
        "discloser.yaml",
        &format!("{CONFIG}triggers: [words.yaml]\n"),
    );
    let (code, _, err) = text(&discloser_in(dir.path(), &["render"]));
    assert_eq!(code, 2);
    assert!(err.contains("words.yaml:2:1"), "{err}");
    assert!(err.contains("did you mean `view_guide`?"), "{err}");

    write(
        dir.path(),
        "discloser.yaml",
        &format!("{CONFIG}triggers: [nowhere.yaml]\n"),
    );
    let (code, _, err) = text(&discloser_in(dir.path(), &["render"]));
    assert_eq!(code, 2);
    assert!(err.contains("discloser.yaml:2:"), "{err}");
    assert!(err.contains("nowhere.yaml"), "{err}");
}

/// `suggest --triggers` on the bilingual fixture: for the three tools with the most unbound
/// calls, the words their users typed most are proposed; stop words and words every tool's
/// users type are not; the proposals, written as a trigger file, raise `reach --trace`'s
/// recall@3.
#[test]
fn words_users_typed_become_trigger_candidates_and_raise_recall() {
    let dir = tempfile::tempdir().unwrap();
    let root = crate::support::root();
    std::fs::copy(
        root.join("discloser.yaml"),
        dir.path().join("discloser.yaml"),
    )
    .unwrap();
    std::fs::create_dir(dir.path().join("tools")).unwrap();
    for entry in std::fs::read_dir(root.join("tools")).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(
            &path,
            dir.path().join("tools").join(path.file_name().unwrap()),
        )
        .unwrap();
    }
    std::fs::copy(
        root.join("tests/fixtures/trace/bilingual.jsonl"),
        dir.path().join("t.jsonl"),
    )
    .unwrap();
    let recall3 = |dir: &Path| -> f64 {
        let (_, out, err) = text(&discloser_in(
            dir,
            &["reach", "--trace", "t.jsonl", "--format", "json"],
        ));
        let v: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|_| panic!("{err}"));
        v["recall"]
            .as_array()
            .and_then(|r| r.iter().find(|x| x["k"] == 3))
            .and_then(|x| x["recall"].as_f64())
            .unwrap_or_else(|| panic!("no recall@3 in {v}"))
    };
    let before = recall3(dir.path());
    let (code, out, err) = text(&discloser_in(
        dir.path(),
        &[
            "suggest",
            "--triggers",
            "--trace",
            "t.jsonl",
            "--format",
            "json",
            "--write-triggers",
            "suggested.yaml",
        ],
    ));
    assert_eq!(code, 0, "{err}");
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    let words = |tool: &str| -> Vec<String> {
        report["tools"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["tool"] == tool)
            .unwrap_or_else(|| panic!("no {tool} in {report}"))["candidates"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["text"].as_str().unwrap().to_owned())
            .collect()
    };
    // The fixture's README: 营业执照 in 8 upload turns, "invoice" in 5 fee turns, guide users
    // say "guide".
    assert_eq!(words("upload_document")[0], "营业执照");
    assert_eq!(words("calculate_fees")[0], "invoice");
    assert!(words("view_startup_guide").contains(&"guide".to_owned()));
    for tool in ["upload_document", "calculate_fees", "view_startup_guide"] {
        for common in [
            "帮我", "怎么", "注册", "公司", "company", "the", "please", "我想",
        ] {
            assert!(
                !words(tool).contains(&common.to_owned()),
                "{tool}: {common}"
            );
        }
    }
    let config = std::fs::read_to_string(dir.path().join("discloser.yaml")).unwrap();
    std::fs::write(
        dir.path().join("discloser.yaml"),
        format!("{config}triggers: [suggested.yaml]\n"),
    )
    .unwrap();
    let after = recall3(dir.path());
    assert!(after > before, "recall@3 {before} -> {after}");
    // A second run never replaces the file it wrote.
    let (code, _, err) = text(&discloser_in(
        dir.path(),
        &[
            "suggest",
            "--triggers",
            "--trace",
            "t.jsonl",
            "--write-triggers",
            "suggested.yaml",
        ],
    ));
    assert_eq!(code, 2);
    assert!(err.contains("`suggested.yaml` exists"), "{err}");
}

/// `suggest --triggers --write` puts the proposals into `overrides:` of `discloser.yaml`,
/// keeping every other byte of the file, and `reach --trace` recall@3 rises; `--from-text`
/// lists candidates from the tools' own text and never writes.
#[test]
fn suggested_triggers_are_written_into_overrides_keeping_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let root = crate::support::root();
    let config = std::fs::read_to_string(root.join("discloser.yaml")).unwrap();
    write(dir.path(), "discloser.yaml", &config);
    std::fs::create_dir(dir.path().join("tools")).unwrap();
    for entry in std::fs::read_dir(root.join("tools")).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(
            &path,
            dir.path().join("tools").join(path.file_name().unwrap()),
        )
        .unwrap();
    }
    std::fs::copy(
        root.join("tests/fixtures/trace/bilingual.jsonl"),
        dir.path().join("t.jsonl"),
    )
    .unwrap();
    let recall3 = || -> f64 {
        let (_, out, err) = text(&discloser_in(
            dir.path(),
            &["reach", "--trace", "t.jsonl", "--format", "json"],
        ));
        let v: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|_| panic!("{err}"));
        v["recall"]
            .as_array()
            .and_then(|r| r.iter().find(|x| x["k"] == 3))
            .and_then(|x| x["recall"].as_f64())
            .unwrap()
    };
    let before = recall3();
    let (code, out, err) = text(&discloser_in(
        dir.path(),
        &["suggest", "--triggers", "--trace", "t.jsonl", "--write"],
    ));
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("into `overrides:` of `discloser.yaml`"),
        "{out}"
    );
    let written = std::fs::read_to_string(dir.path().join("discloser.yaml")).unwrap();
    let added = written.strip_prefix(config.as_str()).unwrap_or_else(|| {
        panic!("the config's own bytes are kept, the block appended:\n{written}")
    });
    assert!(added.starts_with("overrides:\n  "), "{added}");
    assert!(
        added.contains("upload_document: {triggers: [上传, "),
        "{added}"
    );
    assert!(added.contains("营业执照"), "{added}");
    let after = recall3();
    assert!(after > before, "recall@3 {before} -> {after}");

    // Again: the lists are now in `overrides:`, replaced in place.
    let (code, _, err) = text(&discloser_in(
        dir.path(),
        &["suggest", "--triggers", "--trace", "t.jsonl", "--write"],
    ));
    assert_eq!(code, 0, "{err}");
    let again = std::fs::read_to_string(dir.path().join("discloser.yaml")).unwrap();
    assert!(again.starts_with(config.as_str()), "{again}");
    assert_eq!(again.matches("overrides:").count(), 1, "{again}");

    let (code, out, err) = text(&discloser_in(
        dir.path(),
        &["suggest", "--triggers", "--from-text"],
    ));
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("book_appointment (triggers today: "), "{out}");
    assert!(
        out.contains("  candidates: slots, published, released, days; in its index line already: appointment, book, hall, office"),
        "{out}"
    );
    let (code, _, err) = text(&discloser_in(
        dir.path(),
        &["suggest", "--triggers", "--from-text", "--write"],
    ));
    assert_eq!(code, 2, "{err}");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("discloser.yaml")).unwrap(),
        again,
        "--from-text never writes"
    );
}
