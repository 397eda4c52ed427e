//! Hostile and broken inputs: each gets a clear error (exit code 2, a positioned message) or a
//! correct result, within bounded time and memory, never a panic or a hang.
//!
//! Every case runs the real binary in a child process, in a fresh project directory (the
//! runner of `support::limited`), and asserts three things:
//! - **the outcome**: the exit code and what the output or the first error line says;
//! - **bounded memory**: the child runs with `RLIMIT_DATA` at [`MEMORY_LIMIT_MB`] (200 MB) of
//!   heap and other private memory, so a run that needed more would fail to allocate and abort,
//!   failing the test (`ru_maxrss` is printed too, but as an upper bound only: a child forked
//!   from the test process starts with the parent's resident pages counted);
//! - **bounded time**: the child finishes before [`WATCHDOG`], after which it is killed and the
//!   test fails as a hang. The watchdog is far above the goal on purpose: speed is measured by
//!   benchmarks (`cargo bench -p discloser-bench`, `scripts/bench-scale.sh`), never asserted here. In a
//!   release build every case below finishes in well under 2 s; the times measured in a debug
//!   build are printed with `--nocapture`.
//!
//! Small inputs are committed under `tests/fixtures/hostile/`; large ones (nesting 10,000
//! levels deep, a 200 MB file, an enum of 100,000 values, a 1 MB description) are generated
//! here. The end of the file holds the regression tests of the crashes the fuzzers found
//! (`fuzz/`) and the tests of atomic writes.

use std::os::unix::process::ExitStatusExt as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::support::limited::{Limited, Project, Run};

/// The most resident memory a hostile input may make discloser use.
const MEMORY_LIMIT_MB: u64 = 200;

/// A run still going after this long is a hang.
const WATCHDOG: Duration = Duration::from_secs(60);

/// The bounds of every run; the tests of atomic writes add their own.
const LIMITS: Limited = Limited::new().memory_mb(MEMORY_LIMIT_MB).watchdog(WATCHDOG);

fn fixture(name: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/hostile")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()))
}

/// A project whose only tool file is the fixture `name`, at `tools/<name>`.
fn fixture_project(name: &str) -> Project {
    Project::new(&[(&format!("tools/{name}"), &fixture(name))])
}

fn render(project: &Project) -> Run {
    LIMITS.run(project, &["--config", "discloser.yaml", "render"])
}

fn lint(project: &Project) -> Run {
    LIMITS.run(
        project,
        &["--config", "discloser.yaml", "lint", "--format", "concise"],
    )
}

// ---------------------------------------------------------------------------------------------
// Resource exhaustion: alias bombs, deep nesting, huge files, huge enums and descriptions
// ---------------------------------------------------------------------------------------------

/// Nine levels of nine aliases: 387,420,489 nodes if expanded. Refused by the parser's budget.
#[test]
fn yaml_alias_bomb_is_refused() {
    let project = fixture_project("alias-bomb.yaml");
    let run = render(&project);
    run.expect_error_at(
        "tools/alias-bomb.yaml:",
        &["invalid YAML", "over discloser's input limits"],
    );
    lint(&project).expect_error_at("tools/alias-bomb.yaml:", &["invalid YAML"]);
}

/// One plain YAML file of 6,000 tools: over the 250,000 nodes the YAML library allows a
/// document (which stop alias bombs), but a plain document cannot expand, so it loads.
#[test]
fn yaml_file_of_6000_tools_loads() {
    let mut text = String::new();
    for i in 0..6_000 {
        text.push_str(&format!(
            "- name: tool_{i:04}\n  description: Does thing {i}. More about it.\n  triggers: [t{i}]\n  parameters:\n    type: object\n    properties:\n      a: {{type: string, enum: [x, y, z]}}\n      b: {{type: integer, description: A number.}}\n      c: {{type: array, items: {{type: string}}}}\n    required: [a, b]\n"
        ));
    }
    let project = Project::new(&[("tools/big.yaml", text.as_bytes())]);
    let run = render(&project);
    run.expect_code(0);
    assert_eq!(
        run.stdout
            .lines()
            .filter(|l| l.starts_with("- tool_"))
            .count(),
        6_000
    );
    assert!(
        run.stdout.contains(
            "- tool_5999(a: x|y|z, b: integer, …) [t5999] Does thing 5999. More about it.\n"
        ),
        "{}",
        &run.stdout[run.stdout.len().saturating_sub(300)..]
    );
}

/// `[[[...]]]` and `{a: {a: ...}}` 10,000 levels deep, in YAML flow style.
#[test]
fn yaml_nested_10000_levels_is_refused() {
    let flow = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    let project = Project::new(&[("tools/deep.yaml", flow.as_bytes())]);
    render(&project).expect_error_at("tools/deep.yaml:1:", &["invalid YAML", "recursion limit"]);
    let maps = format!("{}1{}", "{a: ".repeat(10_000), "}".repeat(10_000));
    let project = Project::new(&[("tools/deep.yaml", maps.as_bytes())]);
    render(&project).expect_error_at("tools/deep.yaml:1:", &["invalid YAML"]);
}

/// Block-style YAML 1,000 levels deep (10,000 would be 100 MB of indentation).
#[test]
fn yaml_block_nesting_1000_levels_is_refused() {
    let mut text = String::from("name: deep\nparameters:\n");
    for depth in 1..1_000 {
        text.push_str(&format!("{}k{depth}:\n", "  ".repeat(depth)));
    }
    let project = Project::new(&[("tools/deep.yaml", text.as_bytes())]);
    render(&project).expect_error_at("tools/deep.yaml:", &["invalid YAML", "nesting is too deep"]);
}

/// JSON arrays and objects 10,000 levels deep.
#[test]
fn json_nested_10000_levels_is_refused() {
    let arrays = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    let project = Project::new(&[("tools/deep.json", arrays.as_bytes())]);
    render(&project).expect_error_at("tools/deep.json:1:", &["invalid JSON", "recursion limit"]);
    let objects = format!("{}1{}", r#"{"a": "#.repeat(10_000), "}".repeat(10_000));
    let project = Project::new(&[("tools/deep.json", objects.as_bytes())]);
    render(&project).expect_error_at("tools/deep.json:1:", &["invalid JSON", "recursion limit"]);
}

/// A chain of 10,000 `$ref`s (`d0 -> d1 -> ... -> d9999`): refused as longer than 64 steps.
#[test]
fn ref_chain_10000_long_is_refused() {
    let mut defs = serde_json::Map::new();
    for i in 0..10_000 {
        defs.insert(
            format!("d{i}"),
            serde_json::json!({"$ref": format!("#/$defs/d{}", i + 1)}),
        );
    }
    defs.insert("d10000".into(), serde_json::json!({"type": "string"}));
    let tool = serde_json::json!({
        "name": "chained",
        "description": "A long chain.",
        "parameters": {"type": "object", "$defs": defs,
            "properties": {"x": {"$ref": "#/$defs/d0"}}, "required": ["x"]},
    });
    let text = serde_json::to_string_pretty(&tool).expect("serialise");
    let project = Project::new(&[("tools/chain.json", text.as_bytes())]);
    render(&project).expect_error_at("tools/chain.json:", &["chain of more than 64 references"]);
}

/// A 200 MB tool file (sparse: it takes no disk space) is refused before a byte is read (reading
/// it would break the 200 MB memory bound).
#[test]
fn file_of_200_mb_is_refused_before_it_is_read() {
    let project = Project::new(&[]);
    let path = project.path().join("tools/huge.json");
    std::fs::create_dir_all(path.parent().expect("a parent")).expect("create tools/");
    let file = std::fs::File::create(&path).expect("create the file");
    file.set_len(200 * 1024 * 1024)
        .expect("extend the file to 200 MB");
    let run = render(&project);
    run.expect_error_at(
        "tools/huge.json: cannot read file: it is 200.0 MiB",
        &["over discloser's limit of 64 MiB"],
    );
}

/// An enum of 100,000 values: summarised in the signature, linted, in bounded time.
#[test]
fn enum_of_100000_values_renders_and_lints() {
    let values: Vec<String> = (0..100_000).map(|i| format!("value_{i}")).collect();
    let tool = serde_json::json!({
        "name": "pick",
        "description": "Pick one value.",
        "triggers": ["pick"],
        "parameters": {"type": "object",
            "properties": {"x": {"type": "string", "enum": values}}, "required": ["x"]},
    });
    let project = Project::new(&[("tools/pick.json", tool.to_string().as_bytes())]);
    let run = render(&project);
    run.expect_code(0);
    assert!(
        run.stdout
            .ends_with("- pick(x: string (one of 100000 values)) [pick] Pick one value.\n"),
        "{}",
        run.stdout
    );
    let run = lint(&project);
    run.expect_no_panic();
    assert!(run.stdout.contains("DL005 [warning]"), "{}", run.stdout);
    assert!(run.stdout.contains("has 100000 values"), "{}", run.stdout);
}

/// A 1 MB description with no sentence terminator: one sentence, used whole (never cut inside
/// a sentence), with a warning; the index line holds all of it.
#[test]
fn description_of_1_mb_without_a_terminator_is_one_sentence() {
    let description = "word ".repeat(200_000);
    let tool = serde_json::json!({"name": "long", "description": description, "triggers": ["x"]});
    let project = Project::new(&[("tools/long.json", tool.to_string().as_bytes())]);
    let run = render(&project);
    run.expect_code(0);
    let line = run.stdout.lines().last().unwrap_or_default();
    assert_eq!(
        line.len(),
        "- long() [x] ".len() + description.trim_end().len()
    );
    assert!(
        run.stderr
            .contains("warning: tool `long`: the first sentence"),
        "{}",
        run.stderr
    );
    lint(&project).expect_no_panic();
    // The same without a single space: one 1 MB word.
    let word = "x".repeat(1_000_000);
    let tool = serde_json::json!({"name": "long", "description": word});
    let project = Project::new(&[("tools/long.json", tool.to_string().as_bytes())]);
    let run = render(&project);
    run.expect_code(0);
    assert!(run.stdout.ends_with(&format!("- long() {word}\n")));
}

/// Tools in one line of minified JSON, each with findings. Was: every finding copied the whole
/// line for its snippet and the `full` reporter rendered all of it: 1,000 tools in 0.7 MB took
/// 19 s and over a gigabyte in a release build (now 0.2 s). Snippets keep 200 characters on
/// each side of the column, and the caret still points at the finding.
#[test]
fn lint_of_minified_json_keeps_snippets_short() {
    let tools: Vec<serde_json::Value> = (0..100)
        .map(|i| {
            // One tool with triggers: the others, whose lists are blank, are each a
            // `missing-triggers` finding (a file where none has them is one finding).
            serde_json::json!({"name": format!("tool_{i:04}"),
                "triggers": if i == 0 { vec!["fetch"] } else { vec![" "] },
                "description": "Fetch the record and return it. ".repeat(20),
                "parameters": {"type": "object", "properties": {"mode": {"type": "string",
                    "description": "One of 'fast', 'slow' or 'auto'."}}, "required": ["mode"]}})
        })
        .collect();
    let text = serde_json::to_string(&tools).expect("serialise");
    assert!(text.len() > 70_000 && !text.contains('\n'));
    let project = Project::new(&[("tools/all.json", text.as_bytes())]);
    let loaded = discloser::project::Project::from_paths_with(
        &["tools".to_owned()],
        project.path(),
        discloser::project::Strictness::Lenient,
    )
    .expect("loads");
    let findings = discloser::lint::lint(&loaded, &discloser::lint::Settings::default());
    assert!(findings.len() >= 199, "{} findings", findings.len());
    for f in &findings {
        let snippet = f.source_line.as_deref().expect("a snippet");
        assert!(
            snippet.chars().count() <= 402,
            "{} characters",
            snippet.len()
        );
        let (column, inner) = (
            f.column.expect("a column"),
            f.source_column.expect("a column"),
        );
        assert_eq!(
            snippet.chars().nth(inner - 1),
            text.chars().nth(column - 1),
            "the caret points at the same character"
        );
    }
    let run = LIMITS.run(&project, &["--config", "discloser.yaml", "lint"]);
    run.expect_no_panic();
    assert_eq!(run.status.code(), Some(1), "{}", run.first_line());
    assert!(run.stdout.matches("--> tools/all.json:1:").count() >= 199);
}

// ---------------------------------------------------------------------------------------------
// Encodings and syntax
// ---------------------------------------------------------------------------------------------

#[test]
fn invalid_utf8_is_refused_with_its_position() {
    LIMITS
        .run(
            &fixture_project("invalid-utf8.yaml"),
            &["--config", "discloser.yaml", "render"],
        )
        .expect_error_at(
            "tools/invalid-utf8.yaml:2:",
            &["not valid UTF-8", "offset 48"],
        );
    render(&fixture_project("invalid-utf8.json"))
        .expect_error_at("tools/invalid-utf8.json:1:", &["not valid UTF-8"]);
}

/// A UTF-8 byte-order mark is skipped: the index is the same as without it.
#[test]
fn byte_order_mark_is_skipped() {
    let reference = render(&fixture_project("valid.yaml"));
    reference.expect_code(0);
    let run = render(&fixture_project("bom.yaml"));
    run.expect_code(0);
    assert_eq!(run.stdout, reference.stdout);
    let run = render(&fixture_project("bom.json"));
    run.expect_code(0);
    assert!(
        run.stdout
            .ends_with("- draw_chart(kind: bar|line) Draw a chart.\n")
    );
}

/// CRLF and mixed line endings (generated from `valid.yaml`) render the same bytes as LF.
#[test]
fn crlf_and_mixed_line_endings_render_like_lf() {
    let lf = String::from_utf8(fixture("valid.yaml")).expect("UTF-8");
    let reference = render(&Project::new(&[("tools/t.yaml", lf.as_bytes())]));
    reference.expect_code(0);
    assert!(!reference.stdout.contains('\r'));
    let crlf = lf.replace('\n', "\r\n");
    let mixed: String = lf
        .split_inclusive('\n')
        .enumerate()
        .map(|(i, line)| match i % 3 {
            0 => line.replace('\n', "\r\n"),
            1 => line.to_owned(),
            _ => line.replace('\n', "\r"),
        })
        .collect();
    for text in [crlf, mixed] {
        let run = render(&Project::new(&[("tools/t.yaml", text.as_bytes())]));
        run.expect_code(0);
        assert_eq!(run.stdout, reference.stdout, "input: {text:?}");
    }
}

#[test]
fn duplicate_keys_are_refused() {
    render(&fixture_project("duplicate-keys.yaml")).expect_error_at(
        "tools/duplicate-keys.yaml:5:",
        &["invalid YAML", "duplicate"],
    );
    render(&fixture_project("duplicate-keys.json")).expect_error_at(
        "tools/duplicate-keys.json:1:",
        &["invalid JSON", "duplicate key `description`"],
    );
}

/// NaN and infinities cannot be JSON values: refused. An integer beyond 64 bits is read as the
/// nearest double, as JSON parsers do (documented under "Limits and guarantees").
#[test]
fn nan_and_huge_numbers() {
    render(&fixture_project("nan.json")).expect_error_at("tools/nan.json:1:", &["invalid JSON"]);
    render(&fixture_project("nan.yaml")).expect_error_at(
        "tools/nan.yaml:5:",
        &["invalid YAML", "`.nan` is not a finite number"],
    );
    render(&fixture_project("infinity.yaml")).expect_error_at(
        "tools/infinity.yaml:5:",
        &["`1e400` is not a finite number"],
    );
    let run = render(&fixture_project("huge-integer.json"));
    run.expect_code(0);
    assert!(
        run.stdout
            .ends_with("- pick(x: 1.2345678901234568e+29) Pick.\n"),
        "{}",
        run.stdout
    );
}

// ---------------------------------------------------------------------------------------------
// References
// ---------------------------------------------------------------------------------------------

#[test]
fn ref_cycle_is_refused() {
    render(&fixture_project("ref-cycle.yaml"))
        .expect_error_at("tools/ref-cycle.yaml:", &["cycle of references"]);
}

#[test]
fn ref_escaping_the_project_is_refused() {
    render(&fixture_project("ref-escape.yaml")).expect_error_at(
        "tools/ref-escape.yaml:6:",
        &["`../../etc/passwd`", "outside the project"],
    );
}

/// Remote references are never fetched: discloser makes no network access except `pull`.
#[test]
fn remote_ref_is_refused_not_fetched() {
    render(&fixture_project("ref-remote.yaml"))
        .expect_error_at("tools/ref-remote.yaml:", &["remote `$ref`", "not fetched"]);
}

// ---------------------------------------------------------------------------------------------
// Sources: symlink loops, files that cannot be read, globs that match nothing
// ---------------------------------------------------------------------------------------------

#[test]
fn symlink_loop_among_sources_is_refused() {
    let project = Project::new(&[("tools/a.yaml", &fixture("valid.yaml"))]);
    std::os::unix::fs::symlink("b.yaml", project.path().join("tools/b.yaml")).expect("symlink");
    render(&project).expect_error_at("tools/b.yaml", &["symbolic link to nothing"]);
    let project = Project::new(&[("tools/a.yaml", &fixture("valid.yaml"))]);
    std::os::unix::fs::symlink(".", project.path().join("tools/loop")).expect("symlink");
    // A symlinked directory is not followed, so a loop through it is harmless.
    render(&project).expect_code(0);
}

/// A FIFO among the sources would block `read` forever: refused before it is opened.
#[test]
fn fifo_among_sources_is_refused_not_waited_for() {
    let project = Project::new(&[("tools/a.yaml", &fixture("valid.yaml"))]);
    let fifo = project.path().join("tools/b.yaml");
    let c_path = std::ffi::CString::new(fifo.to_string_lossy().as_bytes()).expect("a C path");
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c_path.as_ptr(), 0o644) }, 0, "mkfifo");
    render(&project).expect_error_at("tools/b.yaml", &["not a regular file"]);
}

/// A symbolic link to `/dev/zero` would be read forever: refused as not a regular file.
#[test]
fn device_among_sources_is_refused() {
    let project = Project::new(&[("tools/a.yaml", &fixture("valid.yaml"))]);
    std::os::unix::fs::symlink("/dev/zero", project.path().join("tools/zero.yaml"))
        .expect("symlink");
    render(&project).expect_error_at("tools/zero.yaml", &["not a regular file"]);
}

/// A file without read permission. Root reads it anyway, so then it must simply load.
#[test]
fn unreadable_file_among_sources() {
    use std::os::unix::fs::PermissionsExt;
    let project = Project::new(&[("tools/a.yaml", &fixture("valid.yaml"))]);
    let path = project.path().join("tools/a.yaml");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o000)).expect("chmod");
    let run = render(&project);
    if std::fs::read(&path).is_ok() {
        run.expect_code(0);
    } else {
        run.expect_error_at("tools/a.yaml", &["cannot read file", "permission denied"]);
    }
}

#[test]
fn source_glob_matching_nothing_is_refused() {
    let project = Project::new(&[("tools/a.yaml", &fixture("valid.yaml"))]);
    project.write("discloser.yaml", b"sources:\n  - tools/*.json\n");
    render(&project).expect_error_at("discloser.yaml:2:", &["`tools/*.json` matches no file"]);
}

// ---------------------------------------------------------------------------------------------
// Regressions found by the fuzzers (`fuzz/`)
// ---------------------------------------------------------------------------------------------

/// `fuzz/load_json` (a Docker catalog whose tool name holds `\n\n`) and `fuzz/render` (a name
/// holding `\r`): the Markdown style put the signature on the page unsanitised, so one entry
/// spanned several lines and left trailing spaces and carriage returns. The text style maps
/// control characters to spaces; the Markdown style now does too.
#[test]
fn markdown_entry_of_a_name_with_a_line_break_stays_on_one_line() {
    const MARKDOWN: &[&str] = &[
        "--config",
        "discloser.yaml",
        "render",
        "--style",
        "markdown",
    ];
    let project = fixture_project("fuzz/markdown-line-break.json");
    let text = render(&project);
    text.expect_code(0);
    let markdown = LIMITS.run(&project, MARKDOWN);
    markdown.expect_code(0);
    let entries = |out: &str| out.lines().filter(|l| l.starts_with("- ")).count();
    assert_eq!(entries(&markdown.stdout), entries(&text.stdout));
    assert!(entries(&text.stdout) > 0);
    for line in markdown.stdout.lines() {
        assert_eq!(line, line.trim_end(), "trailing white space: {line:?}");
    }
    assert!(markdown.stdout.contains("- `rt from a URL and converts it"));
    let tool = serde_json::json!({"name": "a\rb", "description": "X.", "parameters":
        {"properties": {"p\nq": {"type": "string"}}, "required": ["p\nq"]}});
    let project = Project::new(&[("tools/t.json", tool.to_string().as_bytes())]);
    let run = LIMITS.run(&project, MARKDOWN);
    run.expect_code(0);
    assert!(!run.stdout.contains('\r'));
    assert!(
        run.stdout.ends_with("- `a b(p q: string)` X.\n"),
        "{}",
        run.stdout
    );
}

// ---------------------------------------------------------------------------------------------
// Atomic writes
// ---------------------------------------------------------------------------------------------

/// A project whose index is about 200 KB, so writing it crosses a small file-size limit.
fn big_project() -> Project {
    let tools: Vec<serde_json::Value> = (0..2_000)
        .map(|i| {
            serde_json::json!({"name": format!("tool_{i:04}"), "triggers": ["t"],
                "description": "A tool with a description long enough to make the index big."})
        })
        .collect();
    let text = serde_json::to_string(&tools).expect("serialise");
    Project::new(&[("tools/all.json", text.as_bytes())])
}

const OLD: &[u8] = b"the old file, which must survive\n";

/// Files in `dir` other than the expected ones (leftover temporary files).
fn leftovers(dir: &Path, expected: &[&str]) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("read the directory")
        .map(|e| e.expect("an entry").path())
        .filter(|p| {
            let name = p.file_name().map(|n| n.to_string_lossy().into_owned());
            !expected.iter().any(|e| name.as_deref() == Some(e))
        })
        .collect();
    found.sort();
    found
}

/// A process killed midway through writing (`SIGXFSZ` at a 16 KB file-size limit) leaves the
/// old file intact: the bytes went to a temporary file that was never renamed.
#[test]
fn write_killed_midway_leaves_the_old_file_intact() {
    let project = big_project();
    project.write("out/index.txt", OLD);
    let run = LIMITS.file_size(16 * 1024).run(
        &project,
        &[
            "--config",
            "discloser.yaml",
            "render",
            "--out",
            "out/index.txt",
        ],
    );
    assert_eq!(
        run.status.signal(),
        Some(libc::SIGXFSZ),
        "killed by SIGXFSZ"
    );
    let now = std::fs::read(project.path().join("out/index.txt")).expect("the old file");
    assert_eq!(now, OLD, "the old file is intact");
    // Killed, it could not clean up: at most its hidden temporary file is left beside it.
    for path in leftovers(&project.path().join("out"), &["index.txt"]) {
        let name = path
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        assert!(
            name.starts_with(".discloser-") && name.ends_with(".tmp"),
            "{name}"
        );
    }
}

/// A write that fails midway (`EFBIG`) is an error (exit 2) naming the file, the old file is
/// intact and the temporary file is removed: for every command that writes.
#[test]
fn write_failing_midway_leaves_the_old_file_intact_for_every_writer() {
    let project = big_project();
    let commands: [&[&str]; 4] = [
        &[
            "--config",
            "discloser.yaml",
            "render",
            "--out",
            "out/index.txt",
        ],
        &[
            "export",
            "tools",
            "--provider",
            "openai",
            "--profile",
            "default",
            "--index",
            "--out",
            "out/index.txt",
        ],
        &[
            "import",
            "tools/all.json",
            "--force",
            "--out",
            "out/index.txt",
        ],
        &["--config", "discloser.yaml", "snapshot"],
    ];
    for args in commands {
        project.write("out/index.txt", OLD);
        let snapshot_dir = project.path().join("snapshots/default");
        let _ = std::fs::remove_dir_all(project.path().join("snapshots"));
        std::fs::create_dir_all(&snapshot_dir).expect("create snapshots/default");
        std::fs::write(snapshot_dir.join("index.txt"), OLD).expect("an old snapshot");
        let run = LIMITS
            .file_size(16 * 1024)
            .ignore_sigxfsz()
            .run(&project, args);
        run.expect_no_panic();
        assert_eq!(run.status.code(), Some(2), "{args:?}: {}", run.stderr);
        assert!(
            run.first_line().starts_with("error: "),
            "{args:?}: {}",
            run.stderr
        );
        assert!(run.stderr.contains("too large"), "{args:?}: {}", run.stderr);
        let (dir, name) = if args.contains(&"snapshot") {
            (snapshot_dir, "index.txt")
        } else {
            (project.path().join("out"), "index.txt")
        };
        assert_eq!(
            std::fs::read(dir.join(name)).expect("the old file"),
            OLD,
            "{args:?}"
        );
        assert_eq!(leftovers(&dir, &[name]), Vec::<PathBuf>::new(), "{args:?}");
    }
}

fn mode(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::metadata(path)
        .expect("the written file")
        .permissions()
        .mode()
        & 0o7777
}

/// Regression: written files got the temporary file's private `0o600`. A new file gets what a
/// plain create gives (`0o644` under umask `022`); an overwritten file keeps its own mode.
#[test]
fn written_files_get_the_usual_mode_not_the_temporary_files() {
    let project = Project::new(&[("tools/a.yaml", b"name: a\ndescription: A tool.\n")]);
    let under_022 = LIMITS.umask(0o022);
    let render_out = ["--config", "discloser.yaml", "render", "--out", "out.txt"];
    let snapshot = ["--config", "discloser.yaml", "snapshot"];

    let written = [
        project.path().join("out.txt"),
        project.path().join("snapshots/default/index.txt"),
    ];

    under_022.run(&project, &render_out).expect_code(0);
    under_022.run(&project, &snapshot).expect_code(0);
    for path in &written {
        assert_eq!(mode(path), 0o644, "{}: {:o}", path.display(), mode(path));
    }

    for path in &written {
        std::fs::write(path, OLD).expect("make the file stale");
        std::fs::set_permissions(path, std::os::unix::fs::PermissionsExt::from_mode(0o640))
            .expect("chmod 0640");
    }
    under_022.run(&project, &render_out).expect_code(0);
    under_022.run(&project, &snapshot).expect_code(0);
    for path in &written {
        assert_ne!(
            std::fs::read(path).expect("read"),
            OLD,
            "{}",
            path.display()
        );
        assert_eq!(mode(path), 0o640, "{}: {:o}", path.display(), mode(path));
    }
}

/// Every file discloser writes goes through `fsutil::write_atomic` (or `write_atomic_new`): no
/// other code in `src/` creates or writes files directly. `snapshot/git.rs` materialises a git
/// revision into a temporary directory of its own, which is not an output.
#[test]
fn every_writer_goes_through_the_atomic_write_helper() {
    const ALLOWED: &[&str] = &["src/fsutil.rs", "src/snapshot/git.rs"];
    const DIRECT: &[&str] = &[
        "fs::write(",
        "File::create(",
        "OpenOptions::new(",
        ".persist(",
        "persist_noclobber(",
    ];
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut stack = vec![root.join("src")];
    let mut offenders = Vec::new();
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("read src/") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let relative = path.strip_prefix(root).expect("under the root");
            let relative = relative.to_string_lossy().replace('\\', "/");
            if ALLOWED.contains(&relative.as_str()) || !relative.ends_with(".rs") {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("read a source file");
            for (i, line) in text.lines().enumerate() {
                if DIRECT.iter().any(|d| line.contains(d)) {
                    offenders.push(format!("{relative}:{}: {}", i + 1, line.trim()));
                }
            }
        }
    }
    assert!(
        offenders.is_empty(),
        "write files with `crate::fsutil::write_atomic`:\n{}",
        offenders.join("\n")
    );
}
