//! One consistent command surface: files written are reported on stderr, flags mean the same
//! thing everywhere, and the index explains only what it shows.

use std::process::Output;

use crate::support::{discloser_in as discloser, root};

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[track_caller]
fn code(out: &Output) -> i32 {
    let stderr = text(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    out.status.code().unwrap_or(-1)
}

const TOOL: &str = "- name: get_weather\n  description: Current weather for a city.\n  parameters:\n    type: object\n    properties:\n      city: {type: string}\n    required: [city]\n";

#[test]
fn every_out_says_what_it_wrote_on_stderr() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("tools.yaml"), TOOL).unwrap();
    for (args, file) in [
        (
            &["render", "tools.yaml", "--out", "index.txt"][..],
            "index.txt",
        ),
        (
            &[
                "export",
                "tools.yaml",
                "--provider",
                "openai",
                "--out",
                "tools.json",
            ],
            "tools.json",
        ),
        (
            &["import", "tools.json", "--out", "imported.yaml"],
            "imported.yaml",
        ),
        (&["cost", "tools.yaml", "--chart", "cost.svg"], "cost.svg"),
    ] {
        let out = discloser(dir.path(), args);
        assert_eq!(code(&out), 0, "{args:?}: {}", text(&out.stderr));
        let bytes = std::fs::metadata(dir.path().join(file)).unwrap().len();
        let said = text(&out.stderr);
        assert!(
            said.starts_with(&format!("wrote `{file}` (")),
            "{args:?}: {said}"
        );
        assert!(
            said.contains(&format!(
                "{} bytes)",
                discloser::numfmt::thousands(bytes as i64)
            )),
            "{said}"
        );
        if args[0] != "cost" {
            assert!(out.stdout.is_empty(), "{args:?}");
        }
    }
}

#[test]
fn import_names_its_input_format_with_from_and_still_takes_format() {
    let dir = tempfile::tempdir().unwrap();
    let openai = r#"[{"type": "function", "function": {"name": "f", "description": "Does f.", "parameters": {"type": "object"}}}]"#;
    std::fs::write(dir.path().join("tools.json"), openai).unwrap();
    let from = discloser(dir.path(), &["import", "tools.json", "--from", "openai"]);
    assert_eq!(code(&from), 0, "{}", text(&from.stderr));
    let old = discloser(dir.path(), &["import", "tools.json", "--format", "openai"]);
    assert_eq!(code(&old), 0, "{}", text(&old.stderr));
    assert_eq!(from.stdout, old.stdout);
    let help = text(&discloser(dir.path(), &["import", "--help"]).stdout);
    assert!(help.contains("--from <FORMAT>"), "{help}");
    assert!(!help.contains("--format"), "the old name is hidden: {help}");
    let wrong = discloser(dir.path(), &["import", "tools.json", "--from", "anthropic"]);
    assert_eq!(code(&wrong), 2);
}

#[test]
fn pull_needs_no_mcp_flag_and_turns_start_at_one() {
    let server = root().join("tests/fixtures/mcp/paged-server.sh");
    let server = server.to_str().unwrap();
    let with = discloser(&root(), &["pull", "--mcp", "--", "sh", server]);
    let without = discloser(&root(), &["pull", "--", "sh", server]);
    assert_eq!(code(&with), 0, "{}", text(&with.stderr));
    assert_eq!(code(&without), 0, "{}", text(&without.stderr));
    assert_eq!(with.stdout, without.stdout);

    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("tools.yaml"), TOOL).unwrap();
    let zero = discloser(dir.path(), &["cost", "tools.yaml", "--turns", "0"]);
    assert_eq!(code(&zero), 2);
    assert!(
        text(&zero.stderr).contains("--turns"),
        "{}",
        text(&zero.stderr)
    );
    let one = discloser(dir.path(), &["cost", "tools.yaml", "--turns", "1"]);
    assert_eq!(code(&one), 0, "{}", text(&one.stderr));
}

#[test]
fn the_default_header_explains_brackets_only_when_an_entry_has_triggers() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("tools.yaml"), TOOL).unwrap();
    let bare = text(&discloser(dir.path(), &["render", "tools.yaml"]).stdout);
    assert!(!bare.contains("[brackets]"), "{bare}");
    assert!(
        bare.contains("`a|b` lists the only accepted values"),
        "{bare}"
    );
    std::fs::write(
        dir.path().join("tools.yaml"),
        format!("{TOOL}  triggers: [weather]\n"),
    )
    .unwrap();
    let triggered = text(&discloser(dir.path(), &["render", "tools.yaml"]).stdout);
    assert!(
        triggered.contains("Words in [brackets] are what users say"),
        "{triggered}"
    );
    // A header the config sets is the config's, triggers or not.
    std::fs::write(dir.path().join("tools.yaml"), TOOL).unwrap();
    std::fs::write(
        dir.path().join("discloser.yaml"),
        "sources: [tools.yaml]\nindex:\n  header: \"Tools. Words in [brackets] say when.\"\n",
    )
    .unwrap();
    let own = text(&discloser(dir.path(), &["render"]).stdout);
    assert!(
        own.starts_with("Tools. Words in [brackets] say when.\n"),
        "{own}"
    );
}

#[test]
fn tables_fit_the_width_asked_for_by_wrapping_cells_not_rows() {
    let root = root();
    for args in [
        &["cost", "--turns", "10", "--width", "100"][..],
        &["cost", "--by-tool", "--width", "100"],
        &["tools", "--width", "100"],
        &[
            "search",
            "register a company and the fees",
            "--width",
            "100",
        ],
        &[
            "trace",
            "tests/fixtures/runtime/trace.jsonl",
            "--width",
            "100",
        ],
    ] {
        let out = discloser(&root, args);
        assert_eq!(code(&out), 0, "{args:?}: {}", text(&out.stderr));
        let stdout = text(&out.stdout);
        let table: Vec<&str> = stdout
            .lines()
            .filter(|l| l.starts_with(['┌', '│', '╞', '├', '└']))
            .collect();
        assert!(!table.is_empty(), "{args:?}: no table in\n{stdout}");
        for line in &table {
            assert!(
                line.chars().count() <= 100,
                "{args:?}: {} columns: {line}",
                line.chars().count()
            );
        }
        // Every row of cells keeps its table's column separators: no row broke out of the box.
        let mut columns = 0;
        for line in &table {
            if line.starts_with('┌') {
                columns = line.matches('┬').count();
            } else if line.starts_with('│') {
                assert_eq!(line.matches('┆').count(), columns, "{args:?}: {line}");
            }
        }
    }
    // Not a terminal and no `--width`: the fixed layout, as wide as its cells.
    let fixed = text(&discloser(&root, &["cost", "--turns", "10"]).stdout);
    assert!(fixed.lines().any(|l| l.chars().count() > 100), "{fixed}");
    // `tools` draws the same boxes as every other table.
    let tools = text(&discloser(&root, &["tools"]).stdout);
    assert!(tools.starts_with("┌"), "{tools}");
}
