//! Live MCP servers over stdio: `discloser pull --mcp` and `mcp:` sources.
//!
//! The real server is `@modelcontextprotocol/server-everything` from the npm registry, pinned
//! by `.ci/mcp/package-lock.json` and installed by `.ci/run`, which sets
//! `DISCLOSER_TEST_MCP_SERVER` to its entry point. Those tests are `#[ignore]`d, so a plain
//! `cargo test` lists them as ignored; run with `--ignored`, they fail when the server is
//! missing. Locally:
//!
//! ```sh
//! npm ci --prefix .ci/mcp
//! DISCLOSER_TEST_MCP_SERVER=$PWD/.ci/mcp/node_modules/@modelcontextprotocol/server-everything/dist/index.js cargo test --test it mcp -- --ignored
//! ```
//!
//! Every other case runs on every clone and needs no network: a server that exits at once
//! (`sh -c 'exit 3'`), one that never answers (`sleep`), a program that is not an MCP server
//! (`echo`), and a small MCP server in POSIX sh (`tests/fixtures/mcp/paged-server.sh`) that
//! pages its tools, paginates forever, or answers `tools/list` with an error: the same pull,
//! pagination and rendering code the real server goes through.

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

/// The entry point of server-everything from `DISCLOSER_TEST_MCP_SERVER`; the tests that need
/// it are ignored by a plain `cargo test`, and fail here when it is missing.
fn everything_server() -> PathBuf {
    let Some(path) = std::env::var_os("DISCLOSER_TEST_MCP_SERVER") else {
        panic!(
            "DISCLOSER_TEST_MCP_SERVER is not set: install the server with `npm ci --prefix .ci/mcp` and set it to its entry point (see the top of tests/it/mcp.rs; .ci/run does both)"
        );
    };
    let path = PathBuf::from(path);
    assert!(
        path.is_file(),
        "DISCLOSER_TEST_MCP_SERVER points to {}, which is not a file",
        path.display()
    );
    let node = Command::new("node").arg("--version").output();
    assert!(
        node.is_ok_and(|o| o.status.success()),
        "`node` does not run: server-everything is a Node.js program"
    );
    path
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
#[ignore = "needs DISCLOSER_TEST_MCP_SERVER, the npm MCP server (.ci/run installs it and runs it)"]
fn pulls_a_real_server_and_renders_its_index() {
    let server = everything_server();
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
#[ignore = "needs DISCLOSER_TEST_MCP_SERVER, the npm MCP server (.ci/run installs it and runs it)"]
fn render_cost_and_lint_run_against_a_live_server() {
    let server = everything_server();
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

#[cfg(unix)]
#[test]
fn follows_next_cursor_through_every_page() {
    let out = discloser(
        &root(),
        &[
            "pull",
            "--mcp",
            "--timeout",
            "20",
            "--",
            "sh",
            "tests/fixtures/mcp/paged-server.sh",
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

/// What the real-server tests check, on every clone: `pull --out` writes a catalog that loads
/// and renders, and an `mcp:` source serves `render`, `tools`, `cost`, `lint` and `export`.
#[cfg(unix)]
#[test]
fn pull_and_mcp_sources_work_against_the_sh_server() {
    let dir = tempfile::tempdir().unwrap();
    let server = root().join("tests/fixtures/mcp/paged-server.sh");
    let server = server.to_str().unwrap();
    let out = discloser(
        dir.path(),
        &[
            "pull",
            "--mcp",
            "--out",
            "paged.json",
            "--",
            "sh",
            server,
            "paged",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(out.stdout.is_empty());
    let text = std::fs::read_to_string(dir.path().join("paged.json")).unwrap();
    let project = Project::from_paths(&["paged.json".to_owned()], dir.path()).unwrap();
    assert_eq!(project.catalog.tools.len(), 5);
    assert!(
        project
            .catalog
            .tools
            .iter()
            .all(|t| t.origin.format == Format::Mcp)
    );
    let profile = project.profile("default").unwrap();
    let index = render(
        &build_index(&project.catalog, &profile, project.index_config()),
        Style::Text,
    );
    assert!(
        index
            .lines()
            .any(|l| l == "- tool_3(x: string) Tool number 3."),
        "{index}"
    );
    let again = discloser(dir.path(), &["pull", "--mcp", "--", "sh", server, "paged"]);
    assert_eq!(again.stdout, text.as_bytes(), "pulls are deterministic");

    let config = format!(
        "sources:\n  - mcp:\n      command: [sh, {server:?}, paged]\n      timeout: 20\noverrides:\n  tool_1:\n    triggers: [first tool]\nprofiles:\n  default:\n    starter: [tool_1]\n"
    );
    std::fs::write(dir.path().join("discloser.yaml"), config).unwrap();
    let out = discloser(dir.path(), &["render"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let index = String::from_utf8(out.stdout).unwrap();
    assert!(!index.contains("- tool_1("), "tool_1 is bound: {index}");
    assert!(
        index.contains("- tool_5(x: string) Tool number 5."),
        "{index}"
    );

    let out = discloser(dir.path(), &["tools"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let table = String::from_utf8(out.stdout).unwrap();
    assert!(table.contains("| tool_4 "), "{table}");
    assert!(table.contains("<mcp: sh "), "{table}");

    let out = discloser(
        dir.path(),
        &["cost", "--provider", "mcp", "--format", "json"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let cost: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(cost["configurations"][1]["tools_bound"], 1);

    let out = discloser(dir.path(), &["lint"]);
    assert!(matches!(out.status.code(), Some(0 | 1)), "{}", stderr(&out));

    let out = discloser(dir.path(), &["export", "--provider", "openai"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let exported: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(exported[0]["function"]["name"], "tool_1");
}

#[cfg(unix)]
#[test]
fn pagination_that_never_ends_is_an_error() {
    expect_pull_error(
        &[
            "--timeout",
            "20",
            "--",
            "sh",
            "tests/fixtures/mcp/paged-server.sh",
            "loop",
        ],
        &["answered `tools/list` with the cursor `again` twice"],
        Duration::from_secs(15),
    );
}

#[cfg(unix)]
#[test]
fn a_tools_list_error_is_reported() {
    expect_pull_error(
        &[
            "--timeout",
            "20",
            "--",
            "sh",
            "tests/fixtures/mcp/paged-server.sh",
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
