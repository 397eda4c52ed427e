//! Hostile inputs to what discloser computes and prints (issue #14, round two): a closed pipe
//! never changes the verdict; user values never reach a terminal or a CI log as control
//! characters; huge signatures stay near-linear; wrong numbers are refused.
//!
//! Each case runs the real binary in a fresh project under `RLIMIT_DATA` (memory) and
//! `RLIMIT_CPU` (a generous CPU-time bound, far above what the fixed code needs: a quadratic
//! regression is killed by `SIGXCPU` and fails the test; time itself is never asserted). The
//! runner is `support::limited`'s, shared with `hostile.rs`.

use std::os::unix::process::ExitStatusExt as _;
use std::process::{ExitStatus, Stdio};

use crate::support::limited::{Limited, Project, Run};

/// Heap and other private memory a run may use.
const MEMORY_LIMIT_MB: u64 = 600;

/// CPU seconds a run may use (debug build): the fixed code needs a small part of it.
const CPU_LIMIT_S: u64 = 30;

/// The bounds of every run.
const LIMITS: Limited = Limited::new().memory_mb(MEMORY_LIMIT_MB).cpu_s(CPU_LIMIT_S);

/// Runs under [`LIMITS`]; a run killed by a signal (a limit passed) or a panic fails the test.
fn discloser(project: &Project, args: &[&str]) -> Run {
    let run = LIMITS.run(project, args);
    assert!(
        run.status.signal().is_none(),
        "`discloser {}` was killed by signal {:?} (SIGXCPU {}: over {CPU_LIMIT_S} s of CPU; \
         SIGABRT {}: over {MEMORY_LIMIT_MB} MB)\n{}",
        args.join(" "),
        run.status.signal(),
        libc::SIGXCPU,
        libc::SIGABRT,
        run.stderr
    );
    run.expect_no_panic();
    run
}

/// Runs with standard output a pipe whose reader is gone before the output is written.
fn run_into_closed_pipe(project: &Project, args: &[&str]) -> ExitStatus {
    let mut child = LIMITS
        .command(project, args)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("run the discloser binary");
    drop(child.stdout.take());
    child.wait().expect("wait for discloser")
}

/// `n` tools, all but the first with a blank trigger list (each of those a `missing-triggers`
/// error: the first one's triggers keep them from being one finding for the file), as a JSON
/// array.
fn untriggered_tools(n: usize) -> String {
    let tools: Vec<String> = (0..n)
        .map(|i| {
            let triggers = if i == 0 {
                r#""triggers": ["thing"], "#
            } else {
                r#""triggers": [""], "#
            };
            format!(
                r#"{{"name": "tool_{i}", {triggers}"description": "Does thing {i}.", "parameters": {{"type": "object", "properties": {{"a": {{"type": "string"}}}}}}}}"#
            )
        })
        .collect();
    format!("[{}]", tools.join(",\n"))
}

// ---------------------------------------------------------------------------------------------
// A closed pipe ends the output, never changes the verdict
// ---------------------------------------------------------------------------------------------

/// Was: `discloser lint | head -1` exited 0 with errors (the broken pipe was taken for "done"),
/// so a CI step with `pipefail` passed. 2,000 findings are far more than a pipe buffer holds,
/// so every format writes after the reader is gone.
#[test]
fn lint_into_a_closed_pipe_still_exits_1() {
    let project = Project::new(&[("tools/t.json", untriggered_tools(2_000).as_bytes())]);
    for format in ["full", "concise", "json", "github", "sarif"] {
        let status = run_into_closed_pipe(&project, &["lint", "--format", format]);
        assert_eq!(status.code(), Some(1), "lint --format {format}: {status}");
    }
}

/// The same for `diff`: differences found keep exit code 1 after the reader goes away.
#[test]
fn diff_into_a_closed_pipe_still_exits_1() {
    let starter: Vec<String> = (0..2_000).map(|i| format!("tool_{i}")).collect();
    let config = format!(
        "sources:\n  - tools\nprofiles:\n  a:\n    starter: []\n  b:\n    starter: [{}]\n",
        starter.join(", ")
    );
    let project = Project::new(&[
        ("tools/t.json", untriggered_tools(2_000).as_bytes()),
        ("discloser.yaml", config.as_bytes()),
    ]);
    discloser(&project, &["diff", "--profiles", "a", "b"]).expect_code(1);
    let status = run_into_closed_pipe(&project, &["diff", "--profiles", "a", "b"]);
    assert_eq!(status.code(), Some(1), "diff --profiles a b: {status}");
}

// ---------------------------------------------------------------------------------------------
// Output injection: control characters in names
// ---------------------------------------------------------------------------------------------

/// A name that would start a GitHub workflow command line, set the terminal title (OSC),
/// ring the bell and turn the text red.
const EVIL_NAME: &str = "a\n::error file=README.md,line=1::X\u{1b}]0;TITLE\u{7}\u{1b}[31m";

fn evil_project() -> Project {
    let tool = serde_json::json!([{
        "name": EVIL_NAME,
        "triggers": [" "],
        "description": "Does x.",
        "parameters": {"type": "object", "properties": {"k": {"type": "string"}}}
    }]);
    Project::new(&[
        ("tools/t.json", tool.to_string().as_bytes()),
        // A file name with a line feed, a space and a `#`, for SARIF's URI (its tool's
        // trigger list is blank, so a finding names the file).
        (
            "tools/odd\n #name.json",
            br#"[{"name": "odd", "triggers": [""], "description": "Does odd.", "parameters": {"type": "object"}}]"#,
        ),
    ])
}

#[track_caller]
fn assert_no_raw_controls(what: &str, text: &str) {
    for line in text.lines() {
        assert!(
            !line.trim_start().starts_with("::error file=README"),
            "{what}: a name became a workflow command line: {line:?}"
        );
    }
    assert!(
        !text.chars().any(|c| c.is_control() && c != '\n'),
        "{what}: raw control characters reach the output: {text:?}"
    );
}

/// Was: the name's line feed started its own `::error` line in `lint --format concise`, and
/// ESC, OSC and BEL reached the terminal raw in concise, full, github and the `tools` table.
#[test]
fn control_characters_in_names_are_shown_not_sent() {
    let project = evil_project();
    for format in ["full", "concise", "github"] {
        let run = discloser(&project, &["lint", "--format", format]);
        run.expect_code(1);
        assert_no_raw_controls(&format!("lint --format {format}"), &run.stdout);
    }
    let concise = discloser(&project, &["lint", "--format", "concise"]);
    assert!(
        concise
            .stdout
            .contains("tool `a␊::error file=README.md,line=1::X␛]0;TITLE␇␛[31m` has no trigger"),
        "{}",
        concise.stdout
    );
    let github = discloser(&project, &["lint", "--format", "github"]);
    assert!(
        github.stdout.contains("tool `a%0A::error file=README.md"),
        "{}",
        github.stdout
    );
    let tools = discloser(&project, &["tools"]);
    tools.expect_code(0);
    assert_no_raw_controls("tools", &tools.stdout);
    assert!(tools.stdout.contains("│ a␊::error"), "{}", tools.stdout);
    let search = discloser(&project, &["search", "does x"]);
    assert_no_raw_controls("search", &search.stdout);
}

/// Was: SARIF's `artifactLocation.uri` kept a raw line feed (only `%` and spaces were encoded).
#[test]
fn sarif_uris_are_percent_encoded() {
    let project = evil_project();
    let run = discloser(&project, &["lint", "--format", "sarif"]);
    run.expect_code(1);
    let log: serde_json::Value = serde_json::from_str(&run.stdout).expect("SARIF is JSON");
    let uris: Vec<&str> = log["runs"][0]["results"]
        .as_array()
        .expect("results")
        .iter()
        .filter_map(|r| r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].as_str())
        .collect();
    assert!(uris.contains(&"tools/t.json"), "{uris:?}");
    assert!(uris.contains(&"tools/odd%0A%20%23name.json"), "{uris:?}");
    for uri in &uris {
        assert!(
            uri.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-._~/%".contains(&b)),
            "not a percent-encoded URI: {uri:?}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Near-linear signatures
// ---------------------------------------------------------------------------------------------

fn one_tool(parameters: serde_json::Value) -> Project {
    let tool = serde_json::json!([{
        "name": "big",
        "description": "Does a big thing.",
        "triggers": ["big"],
        "parameters": parameters,
    }]);
    Project::new(&[("tools/big.json", tool.to_string().as_bytes())])
}

fn render_lint_and_cost(project: &Project) -> String {
    let render = discloser(project, &["render"]);
    render.expect_code(0);
    discloser(project, &["lint", "--format", "concise"]);
    discloser(project, &["cost"]).expect_code(0);
    render.stdout
}

/// Was: every required name looked up in the list of those before it (`Vec::contains`):
/// 100,000 required properties took about 5 * 10^9 comparisons.
#[test]
fn signature_of_100000_required_properties_is_near_linear() {
    let names: Vec<String> = (0..100_000).map(|i| format!("p{i}")).collect();
    let properties: serde_json::Map<String, serde_json::Value> = names
        .iter()
        .map(|n| (n.clone(), serde_json::json!({"type": "string"})))
        .collect();
    let mut required = names.clone();
    required.push("p0".into());
    let project = one_tool(serde_json::json!({
        "type": "object", "properties": properties, "required": required
    }));
    let out = render_lint_and_cost(&project);
    assert!(
        out.contains("- big(p0: string, p1: string, ") && out.contains(", p99999: string) [big]"),
        "{}",
        &out[out.len().saturating_sub(300)..]
    );
}

/// Was: an enum of lists was deduplicated by comparing each value with every earlier one.
#[test]
fn enum_of_100000_arrays_is_near_linear() {
    let mut values: Vec<serde_json::Value> =
        (0..100_000).map(|i| serde_json::json!([i, "x"])).collect();
    values.push(serde_json::json!([0, "x"]));
    let project = one_tool(serde_json::json!({
        "type": "object",
        "properties": {"v": {"enum": values}},
        "required": ["v"]
    }));
    let out = render_lint_and_cost(&project);
    assert!(
        out.contains("- big(v: value (one of 100000 values)) [big]"),
        "{out}"
    );
}

/// Was: the members of a union were deduplicated with `Vec::contains`.
#[test]
fn any_of_100000_types_is_near_linear() {
    let branches: Vec<serde_json::Value> = (0..100_000)
        .map(|i| serde_json::json!({"type": format!("t{i}")}))
        .collect();
    let project = one_tool(serde_json::json!({
        "type": "object",
        "properties": {"u": {"anyOf": branches}},
        "required": ["u"]
    }));
    let out = render_lint_and_cost(&project);
    assert!(
        out.contains("- big(u: t0|t1|t2|"),
        "{}",
        &out[..out.len().min(300)]
    );
    assert!(
        out.contains("|t99999) [big]"),
        "{}",
        &out[out.len().saturating_sub(300)..]
    );
}

#[test]
fn enums_of_lists_keep_value_equality() {
    // Lists and maps as `Value`'s equality has them: maps regardless of key order, 0.0 == -0.0,
    // but 1 != 1.0.
    let project = one_tool(serde_json::json!({
        "type": "object",
        "properties": {"v": {"enum": [[1], [1.0], [1], {"a": 1, "b": 2}, {"b": 2, "a": 1}, [0.0], [-0.0], ["1"]]}},
        "required": ["v"]
    }));
    let run = discloser(&project, &["render"]);
    run.expect_code(0);
    assert!(
        run.stdout
            .contains(r#"- big(v: [1]|[1.0]|{"a":1,"b":2}|[0.0]|["1"]) [big]"#),
        "{}",
        run.stdout
    );
}

/// A project of one tool, `big`, with this description and these properties.
fn described_tool(description: &str, properties: serde_json::Value) -> Project {
    let tool = serde_json::json!([{
        "name": "big",
        "description": description,
        "triggers": ["big"],
        "parameters": {"type": "object", "properties": properties},
    }]);
    Project::new(&[("tools/big.json", tool.to_string().as_bytes())])
}

/// A tool whose description is `lead`, then `run` 200,000 times, then a word: after a full stop, UAX #29's
/// SB8 looks ahead for a lower-case letter at every closing mark of the run (runs of spaces
/// are collapsed before sentences are split).
fn long_run_after_a_full_stop(lead: &str, run: &str) -> Project {
    let description = format!("{lead}{}end", run.repeat(200_000));
    described_tool(&description, serde_json::json!({}))
}

/// Was: the summary's sentence splitter scanned ahead once per character of a run of closing
/// marks or spaces after a full stop (unicode-segmentation's SB8, and at first the ASCII fast
/// path's too): 100,000 `)` took 17 s to render, 20,000 after a non-ASCII paragraph 4 s, and
/// the time grew with the square of the run.
#[test]
fn a_long_run_of_closing_marks_after_a_full_stop_is_near_linear() {
    for (lead, run) in [
        ("Start here. Then a.", ")"),
        ("Start with é here. Then a.", ")"),
        ("Démarrer ici. Puis a.", "»"),
        ("从这里开始。然后 a.", "）"),
        ("从这里开始。然后 a.", "」"),
    ] {
        let project = long_run_after_a_full_stop(lead, run);
        let render = discloser(&project, &["render"]);
        render.expect_code(0);
        // The first sentence is the summary; the second, 200,000 characters, is over budget.
        let first = lead.split_inclusive(['.', '。']).next().unwrap_or(lead);
        assert!(
            render.stdout.ends_with(&format!("- big() [big] {first}\n")),
            "{lead:?} then {run:?}: {}",
            &render.stdout[..render.stdout.len().min(600)]
        );
        discloser(&project, &["lint", "--format", "concise"]);
        discloser(&project, &["cost"]).expect_code(0);
    }
}

/// Was: untyped-enum read, for every place a list might start, the whole rest of the text
/// (its clause, what follows, a quoted value's closing mark, a run of `!`), and for every line
/// the lines after it: a 20,000-character run of `(` took 8.6 s to lint, and 200,000 newlines
/// over a minute. Each case here is a parameter's and its tool's description.
#[test]
fn untyped_enum_reads_a_long_description_in_near_linear_time() {
    for run in [
        "(",
        "!",
        "«",
        "\n",
        "\r\n",
        "Returns:\n",
        "(a, b) ",
        "1 = x, ",
        "a, ",
        "a/",
        "「a」或",
        "only ",
        "Only a, b or c. ",
        "e.g. a, b or c. ",
        "can be a, b or c. ",
        "1: a, ",
        "x vs y. ",
        "PASS lets it; ",
        "a -> ",
        "a < ",
        "a or b? ",
        "v: a or b - ",
        "see above. v ",
        "1-2, ",
        "1 a ",
        "A b, ",
        "a 填1，",
    ] {
        let text = format!("Start here. {} end.", run.repeat(50_000 / run.len()));
        let project = described_tool(
            &text,
            serde_json::json!({"v": {"type": "string", "description": text}}),
        );
        let lint = discloser(&project, &["lint", "--format", "concise"]);
        assert!(
            matches!(lint.status.code(), Some(0 | 1)),
            "{run:?}: {}",
            lint.stderr
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Out-of-range numbers: a clear error, never a wrong number
// ---------------------------------------------------------------------------------------------

/// The bundled example's config and tools, in a fresh directory, with a trace file.
fn example_with_trace(trace: &str) -> Project {
    let root = crate::support::root();
    let project = Project::new(&[("trace.jsonl", trace.as_bytes())]);
    project.write(
        "discloser.yaml",
        std::fs::read(root.join("discloser.yaml")).expect("the example's config"),
    );
    for entry in std::fs::read_dir(root.join("tools")).expect("the example's tools") {
        let path = entry.expect("a directory entry").path();
        let name = path.file_name().expect("a file name").to_string_lossy();
        project.write(
            &format!("tools/{name}"),
            std::fs::read(&path).expect("a tool file"),
        );
    }
    project
}

/// Was: "a round trip costs -1 tokens", and a different suggestion.
#[test]
fn suggest_refuses_a_round_trip_out_of_range() {
    let project = example_with_trace(
        "{\"session\":\"s\",\"turn\":1,\"input_tokens\":3000,\"tools\":[{\"name\":\"view_startup_guide\",\"origin\":\"catalog\"}]}\n",
    );
    let run = discloser(
        &project,
        &[
            "suggest",
            "--trace",
            "trace.jsonl",
            "--round-trip",
            "18446744073709551615",
        ],
    );
    run.expect_code(2);
    assert!(run.stdout.is_empty(), "{}", run.stdout);
    assert!(
        run.stderr.starts_with(
            "error: a round trip of `18446744073709551615` tokens is out of range: at most 1000000000000"
        ),
        "{}",
        run.stderr
    );
    discloser(
        &project,
        &[
            "suggest",
            "--trace",
            "trace.jsonl",
            "--round-trip",
            "1000000000000",
        ],
    )
    .expect_code(0);
}

/// Was: the trace table printed a mean of 9.2e18 tokens as 922,337,203,685,477,580.7.
#[test]
fn trace_refuses_counts_out_of_range_at_their_position() {
    let project = example_with_trace(
        "{\"session\":\"s\",\"turn\":1,\"input_tokens\":1}\n{\"session\":\"s\",\"turn\":2,\"input_tokens\":9223372036854775807}\n",
    );
    let run = discloser(&project, &["trace", "trace.jsonl"]);
    run.expect_code(2);
    assert!(
        run.stderr.starts_with(
            "error: trace.jsonl:2:40: `input_tokens` of `9223372036854775807` is out of range"
        ),
        "{}",
        run.stderr
    );
    let project =
        example_with_trace("{\"session\":\"s\",\"turn\":1,\"latency_ms\":1000000000001}\n");
    let run = discloser(&project, &["trace", "trace.jsonl"]);
    run.expect_code(2);
    assert!(
        run.stderr.starts_with(
            "error: trace.jsonl:1:38: `latency_ms` of `1000000000001` is out of range"
        ),
        "{}",
        run.stderr
    );
}

/// Was: "must be a number of seconds above 0" for 86401, when the maximum is 86400.
#[test]
fn timeouts_out_of_range_say_the_real_range() {
    let project = Project::new(&[]);
    let run = discloser(
        &project,
        &["pull", "--mcp", "--timeout", "86401", "--", "true"],
    );
    run.expect_code(2);
    assert!(
        run.stderr
            .contains("above 0 and at most 86400 (a day), got `86401`"),
        "{}",
        run.stderr
    );
    project.write(
        "discloser.yaml",
        b"sources:\n  - mcp:\n      command: [\"true\"]\n      timeout: 86401\n",
    );
    let run = discloser(&project, &["render"]);
    run.expect_code(2);
    assert!(
        run.stderr
            .contains("above 0 and at most 86400 (a day), found `86401`"),
        "{}",
        run.stderr
    );
}

// ---------------------------------------------------------------------------------------------
// MCP: a message that cannot be parsed is reported at once
// ---------------------------------------------------------------------------------------------

fn pull_from_fake_server(mode: &str) -> Run {
    let server = crate::support::root().join("tests/fixtures/mcp/bad-frames-server.py");
    let server = server.to_str().expect("a UTF-8 path");
    let project = Project::new(&[]);
    discloser(
        &project,
        &[
            "pull",
            "--mcp",
            "--timeout",
            "60",
            "--",
            "python3",
            server,
            mode,
        ],
    )
}

/// Was: the protocol layer dropped the unparsable answer and `pull` waited for "did not answer
/// `tools/list` within 60s".
#[test]
fn an_mcp_answer_that_cannot_be_parsed_is_reported_at_once() {
    pull_from_fake_server("ok").expect_code(0);
    for (mode, words) in [
        ("huge-number", "is not valid JSON (number out of range"),
        ("deep", "is not valid JSON (recursion limit exceeded"),
        ("huge", "sent a message of over 64 MiB"),
    ] {
        let run = pull_from_fake_server(mode);
        run.expect_code(2);
        assert!(
            run.stderr.contains(words) && !run.stderr.contains("did not answer"),
            "{mode}: {}",
            run.stderr
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Deep `$ref` chains under the argument validator
// ---------------------------------------------------------------------------------------------

/// A tool whose parameter is a chain of `n` `anyOf -> $ref` steps, and a trace calling it.
fn ref_chain_project(n: usize) -> Project {
    let mut defs = serde_json::Map::new();
    for i in 0..n {
        defs.insert(
            format!("d{i}"),
            serde_json::json!({"anyOf": [{"$ref": format!("#/$defs/d{}", i + 1)}, {"type": "null"}]}),
        );
    }
    defs.insert(format!("d{n}"), serde_json::json!({"type": "string"}));
    let tools = serde_json::json!([{
        "name": "deep", "description": "Deep.", "triggers": ["deep"],
        "parameters": {"type": "object", "properties": {"x": {"$ref": "#/$defs/d0"}},
            "required": ["x"], "$defs": defs}
    }]);
    let trace = serde_json::json!({"session": "s", "turn": 1, "input_tokens": 100,
        "tools": [{"name": "deep", "origin": "catalog", "arguments": {"x": "a"}, "ok": false}]});
    Project::new(&[
        ("tools/t.json", tools.to_string().as_bytes()),
        ("trace.jsonl", format!("{trace}\n").as_bytes()),
    ])
}

/// Was: 20,000 steps overflowed the stack inside the validator (rc 134 after 47 s). Now the
/// schema is left unchecked (too many `$ref`s to validate) and the recorded `ok: false` counts.
#[test]
fn trace_and_suggest_survive_a_chain_of_20000_refs() {
    let project = ref_chain_project(20_000);
    let trace = discloser(&project, &["trace", "trace.jsonl"]);
    trace.expect_code(0);
    assert!(
        trace
            .stdout
            .contains("deep (catalog): the call failed (`ok: false`)"),
        "{}",
        trace.stdout
    );
    discloser(&project, &["suggest", "--trace", "trace.jsonl"]).expect_code(0);
}

// ---------------------------------------------------------------------------------------------
// Memory bounded by the input: too many tools or values in one file are refused early
// ---------------------------------------------------------------------------------------------

/// Was: 3.6 million tiny tools in a 61 MB file aborted on a 1.4 GB allocation under 4 GiB
/// (about 1.7 KB per loaded tool). 600,000 of them (11 MB) needed about 1 GB: over this
/// runner's limit. Now refused at the first tool over 100,000, before a tool is built.
#[test]
fn a_file_of_600000_tiny_tools_is_refused_at_the_first_over_the_limit() {
    let tools: Vec<String> = (0..600_000)
        .map(|i| format!("{{\"name\":\"t{i}\"}}"))
        .collect();
    let text = format!("[{}]", tools.join(",\n"));
    let project = Project::new(&[("tools/t.json", text.as_bytes())]);
    let run = discloser(&project, &["render"]);
    run.expect_code(2);
    assert!(
        run.stderr.starts_with(
            "error: tools/t.json:100001:1: more than 100000 tools in one file, more than discloser loads"
        ),
        "{}",
        &run.stderr[..run.stderr.len().min(500)]
    );
}

/// A file of more than 5,000,000 values (here numbers, 10 MB) is refused where the limit is
/// passed: parsed values take 30 to 100 bytes each however short their text.
#[test]
fn a_file_of_too_many_json_values_is_refused_at_its_position() {
    let text = format!("[{}0]", "0,\n".repeat(5_000_000));
    let project = Project::new(&[("tools/t.json", text.as_bytes())]);
    let run = discloser(&project, &["render"]);
    run.expect_code(2);
    assert!(
        run.stderr.starts_with("error: tools/t.json:5000000:")
            && run.stderr.contains("more than 5000000 values in one file"),
        "{}",
        &run.stderr[..run.stderr.len().min(500)]
    );
}

// ---------------------------------------------------------------------------------------------
// Near-linear profiles and duplicate triggers
// ---------------------------------------------------------------------------------------------

/// Was: each step of the chain searched the whole chain for a cycle (33 s in a release build
/// for 100,000 profiles, and a recursion as deep). Same bytes as a one-step profile.
#[test]
fn an_extends_chain_of_100000_profiles_is_near_linear() {
    let mut config = String::from("sources:\n  - tools\nprofiles:\n");
    for i in 0..100_000 {
        config.push_str(&format!("  p{i}:\n    extends: p{}\n", i + 1));
    }
    config.push_str("  p100000:\n    starter: [tool_1]\n  short:\n    starter: [tool_1]\n");
    let project = Project::new(&[
        ("tools/t.json", untriggered_tools(3).as_bytes()),
        ("discloser.yaml", config.as_bytes()),
    ]);
    let chained = discloser(&project, &["render", "--profile", "p0"]);
    chained.expect_code(0);
    let short = discloser(&project, &["render", "--profile", "short"]);
    short.expect_code(0);
    assert_eq!(chained.stdout, short.stdout);
    assert!(!chained.stdout.contains("- tool_1("), "{}", chained.stdout);
}

/// Was: 40,000 tools sharing a trigger took 11.4 s in a release build (20,000: 3.2 s): each
/// finding's column was counted from the start of the (one-line) file.
#[test]
fn duplicate_trigger_on_40000_tools_is_near_linear() {
    let tools: Vec<serde_json::Value> = (0..40_000)
        .map(|i| serde_json::json!({"name": format!("t{i}"), "description": format!("Does {i}."), "triggers": ["same"]}))
        .collect();
    let text = serde_json::Value::Array(tools).to_string();
    let project = Project::new(&[("tools/t.json", text.as_bytes())]);
    let run = discloser(
        &project,
        &[
            "lint",
            "--format",
            "concise",
            "--select",
            "duplicate-trigger",
        ],
    );
    run.expect_code(0);
    assert!(
        run.stdout.ends_with("Found 0 errors and 39999 warnings.\n"),
        "{}",
        &run.stdout[run.stdout.len().saturating_sub(300)..]
    );
}
