//! Live MCP servers over stdio: `discloser pull --mcp` and `mcp:` sources.
//!
//! The real server is `@modelcontextprotocol/server-everything` from the npm registry, pinned
//! by `.ci/mcp/package-lock.json` and installed by `.ci/run`, which sets
//! `DISCLOSER_TEST_MCP_SERVER` to its entry point. In CI (`CI` set) a missing server fails the
//! test; elsewhere the test says how to install it and passes. Locally:
//!
//! ```sh
//! npm ci --prefix .ci/mcp
//! DISCLOSER_TEST_MCP_SERVER=$PWD/.ci/mcp/node_modules/@modelcontextprotocol/server-everything/dist/index.js cargo test --test mcp
//! ```
//!
//! The failure cases need no network: a server that exits at once (`sh -c 'exit 3'`), one that
//! never answers (`sleep`), a program that is not an MCP server (`echo`), and a small Node.js
//! server (`tests/fixtures/mcp/paged-server.mjs`) that pages its tools, paginates forever, or
//! answers `tools/list` with an error.

use crate::support::root;
use std::path::PathBuf;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use discloser::catalog::formats::Format;
use discloser::index::{Style, build_index, render};
use discloser::project::Project;

use crate::support::discloser_in as discloser;

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The entry point of server-everything, or `None` (after saying why) outside CI.
fn everything_server() -> Option<PathBuf> {
    match std::env::var_os("DISCLOSER_TEST_MCP_SERVER") {
        Some(path) => {
            let path = PathBuf::from(path);
            assert!(
                path.is_file(),
                "DISCLOSER_TEST_MCP_SERVER points to {}, which is not a file",
                path.display()
            );
            Some(path)
        }
        None if std::env::var_os("CI").is_some() => panic!(
            "DISCLOSER_TEST_MCP_SERVER is not set: .ci/run installs the MCP test server with `npm ci --prefix .ci/mcp` and sets it"
        ),
        None => {
            eprintln!(
                "skipped: set DISCLOSER_TEST_MCP_SERVER (see the top of tests/mcp.rs) to test against a real MCP server"
            );
            None
        }
    }
}

/// Whether `node` runs here (it does in CI, which installs the npm server with it).
fn node_available() -> bool {
    let found = Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        found || std::env::var_os("CI").is_none(),
        "node is needed by tests/mcp.rs in CI"
    );
    found
}

/// Asserts a failed pull: exit code 2, nothing on stdout, the message on stderr, in time.
#[track_caller]
fn expect_pull_error(args: &[&str], words: &[&str], within: Duration) -> String {
    let start = Instant::now();
    let mut all = vec!["pull", "--mcp"];
    all.extend_from_slice(args);
    let out = discloser(&root(), &all);
    let took = start.elapsed();
    let text = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{text}");
    assert!(out.stdout.is_empty());
    assert!(!text.contains("panicked"), "{text}");
    assert!(text.starts_with("error: "), "{text}");
    for word in words {
        assert!(text.contains(word), "expected {word:?} in: {text}");
    }
    assert!(took < within, "took {took:?}: {text}");
    text
}

#[test]
fn pulls_a_real_server_and_renders_its_index() {
    let Some(server) = everything_server() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let server = server.to_str().unwrap();
    let out = discloser(
        dir.path(),
        &[
            "pull",
            "--mcp",
            "--out",
            "everything.json",
            "--",
            "node",
            server,
            "stdio",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(out.stdout.is_empty());
    let text = std::fs::read_to_string(dir.path().join("everything.json")).unwrap();
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    let tools = value["tools"].as_array().unwrap();
    assert!(tools.len() >= 5, "{text}");

    let project = Project::from_paths(&["everything.json".to_owned()], dir.path()).unwrap();
    assert!(
        project
            .catalog
            .tools
            .iter()
            .all(|t| t.origin.format == Format::Mcp)
    );
    let echo = project
        .catalog
        .get("echo")
        .expect("server-everything has `echo`");
    assert_eq!(echo.title.as_deref(), Some("Echo Tool"));
    assert!(echo.annotations.is_some());
    let profile = project.profile("default").unwrap();
    let index = render(
        &build_index(&project.catalog, &profile, project.index_config()),
        Style::Text,
    );
    assert!(
        index
            .lines()
            .any(|l| l == "- echo(message: string) Echoes back the input string"),
        "{index}"
    );

    // A second pull gives the same bytes: the output is deterministic.
    let again = discloser(
        dir.path(),
        &["pull", "--mcp", "--", "node", server, "stdio"],
    );
    assert_eq!(again.stdout, text.as_bytes());
}

#[test]
fn render_cost_and_lint_run_against_a_live_server() {
    let Some(server) = everything_server() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let config = format!(
        "sources:\n  - mcp:\n      command: [node, {:?}, stdio]\n      timeout: 60\noverrides:\n  echo:\n    triggers: [repeat after me]\nprofiles:\n  default:\n    starter: [echo]\n",
        server.to_str().unwrap()
    );
    std::fs::write(dir.path().join("discloser.yaml"), config).unwrap();

    let out = discloser(dir.path(), &["render"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let index = String::from_utf8(out.stdout).unwrap();
    assert!(
        !index.contains("- echo("),
        "echo is bound in `default`: {index}"
    );
    assert!(index.lines().count() > 5, "{index}");

    let out = discloser(dir.path(), &["tools"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let table = String::from_utf8(out.stdout).unwrap();
    assert!(table.contains("| echo "), "{table}");
    assert!(
        table.contains("<mcp: node "),
        "tools name the server as their source: {table}"
    );

    let out = discloser(
        dir.path(),
        &["cost", "--provider", "mcp", "--format", "json"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let cost: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(cost["configurations"][1]["tools_bound"], 1);

    // lint runs (exit 0 or 1, findings or none) rather than failing to load (exit 2).
    let out = discloser(dir.path(), &["lint"]);
    assert!(matches!(out.status.code(), Some(0 | 1)), "{}", stderr(&out));

    let out = discloser(dir.path(), &["export", "--provider", "openai"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let exported: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(exported[0]["function"]["name"], "echo");
}

#[test]
fn follows_next_cursor_through_every_page() {
    if !node_available() {
        return;
    }
    let out = discloser(
        &root(),
        &[
            "pull",
            "--mcp",
            "--timeout",
            "20",
            "--",
            "node",
            "tests/fixtures/mcp/paged-server.mjs",
            "paged",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let names: Vec<&str> = value["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["tool_1", "tool_2", "tool_3", "tool_4", "tool_5"]);
}

#[test]
fn pagination_that_never_ends_is_an_error() {
    if !node_available() {
        return;
    }
    expect_pull_error(
        &[
            "--timeout",
            "20",
            "--",
            "node",
            "tests/fixtures/mcp/paged-server.mjs",
            "loop",
        ],
        &["answered `tools/list` with the cursor `again` twice"],
        Duration::from_secs(15),
    );
}

#[test]
fn a_tools_list_error_is_reported() {
    if !node_available() {
        return;
    }
    expect_pull_error(
        &[
            "--timeout",
            "20",
            "--",
            "node",
            "tests/fixtures/mcp/paged-server.mjs",
            "error",
        ],
        &[
            "answered `tools/list` with an error",
            "the tool registry is offline",
        ],
        Duration::from_secs(15),
    );
}

#[cfg(unix)]
#[test]
fn a_server_that_exits_at_once() {
    expect_pull_error(
        &["--", "sh", "-c", "echo 'cannot open database' >&2; exit 3"],
        &[
            "MCP server `sh -c 'echo '\\''cannot open database'\\'' >&2; exit 3'` exited (status 3) before completing the MCP handshake",
            "its standard error ended with: `cannot open database`",
        ],
        Duration::from_secs(10),
    );
}

#[cfg(unix)]
#[test]
fn a_server_that_never_answers_times_out() {
    let text = expect_pull_error(
        &["--timeout", "1", "--", "sleep", "100"],
        &["MCP server `sleep 100` did not answer the MCP `initialize` request within 1s"],
        Duration::from_secs(10),
    );
    assert_eq!(text.lines().count(), 1, "{text}");
}

#[cfg(unix)]
#[test]
fn a_program_that_is_not_an_mcp_server() {
    expect_pull_error(
        &["--timeout", "5", "--", "echo", "hello"],
        &["its first output was `hello`, which is not MCP's JSON-RPC"],
        Duration::from_secs(10),
    );
}

#[test]
fn a_program_that_does_not_exist() {
    expect_pull_error(
        &["--", "discloser-no-such-program"],
        &[
            "cannot start MCP server `discloser-no-such-program`: `discloser-no-such-program` not found",
        ],
        Duration::from_secs(10),
    );
}

#[test]
fn pull_needs_a_command_and_a_sane_timeout() {
    let out = discloser(&root(), &["pull", "--mcp"]);
    assert_eq!(out.status.code(), Some(2));
    let out = discloser(&root(), &["pull", "--mcp", "--timeout", "0", "--", "x"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("`--timeout` must be a number of seconds above 0"));
}

#[cfg(unix)]
#[test]
fn a_failing_mcp_source_is_reported_at_the_source() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("discloser.yaml"),
        "sources:\n  - mcp:\n      command: [sh, -c, 'exit 7']\n",
    )
    .unwrap();
    let out = discloser(dir.path(), &["render"]);
    assert_eq!(out.status.code(), Some(2));
    let text = stderr(&out);
    assert!(
        text.starts_with(
            "error: discloser.yaml:3:7: MCP server `sh -c 'exit 7'` exited (status 7)"
        ),
        "{text}"
    );
}
