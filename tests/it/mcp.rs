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
    assert!(table.contains("│ echo "), "{table}");
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
    assert!(table.contains("│ tool_4 "), "{table}");
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

/// Was: `python3 -m http.server` (its banner block-buffered in a pipe, then dropped by the
/// protocol layer) was reported only when the time-out passed. Now its first line ends the pull
/// at once: the time-out (20 s) is far above the test's limit, so passing proves it.
#[cfg(unix)]
#[test]
fn a_program_that_prints_a_banner_and_waits_is_reported_at_once() {
    let text = expect_pull_error(
        &[
            "--timeout",
            "20",
            "--",
            "python3",
            "-c",
            "import time; print('Serving HTTP on 0.0.0.0 port 8000'); time.sleep(60)",
        ],
        &[
            "wrote `Serving HTTP on 0.0.0.0 port 8000` on its standard output, which is not MCP's JSON-RPC: is this an MCP server over stdio?",
        ],
        Duration::from_secs(10),
    );
    assert!(!text.contains("did not answer"), "{text}");
    assert!(
        !text.contains("its first output was"),
        "quoted once: {text}"
    );
}

/// The program of the report itself, on a port the system picks, on the loopback interface.
#[cfg(unix)]
#[test]
fn python_http_server_is_not_an_mcp_server() {
    let text = expect_pull_error(
        &[
            "--timeout",
            "20",
            "--",
            "python3",
            "-m",
            "http.server",
            "0",
            "--bind",
            "127.0.0.1",
        ],
        &[
            "wrote `Serving HTTP on 127.0.0.1 port ",
            "which is not MCP's JSON-RPC: is this an MCP server over stdio?",
        ],
        Duration::from_secs(10),
    );
    assert!(!text.contains("did not answer"), "{text}");
}

/// A prompt that never ends its line counts as the first line once the grace has passed.
#[cfg(unix)]
#[test]
fn a_prompt_without_a_line_end_is_reported_at_once() {
    let text = expect_pull_error(
        &[
            "--timeout",
            "20",
            "--",
            "sh",
            "-c",
            "printf 'Password: '; sleep 60",
        ],
        &["wrote `Password:` on its standard output, which is not MCP's JSON-RPC"],
        Duration::from_secs(10),
    );
    assert!(!text.contains("did not answer"), "{text}");
}

/// Standard error is the server's to log on: it never decides anything, and a pull that works
/// writes nothing there (no status line off a terminal).
#[cfg(unix)]
#[test]
fn a_server_that_logs_on_standard_error_is_pulled() {
    let out = discloser(
        &root(),
        &[
            "pull",
            "--mcp",
            "--timeout",
            "20",
            "--",
            "sh",
            "-c",
            "echo 'starting the paged server' >&2; exec sh tests/fixtures/mcp/paged-server.sh paged",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(out.stderr.is_empty(), "{}", stderr(&out));
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(value["tools"].as_array().unwrap().len(), 5);
}

/// A banner on standard output breaks MCP's rule, but some servers print one just before their
/// first answer: the answer follows within the grace, so the pull works.
#[cfg(unix)]
#[test]
fn a_banner_just_before_the_first_answer_is_tolerated() {
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
            "banner",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(out.stderr.is_empty(), "{}", stderr(&out));
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(value["tools"].as_array().unwrap().len(), 5);
}

/// On a terminal (here a pseudo-terminal), standard error shows one status line while the pull
/// runs (the command, the step, the seconds) and clears it at the end; standard output is the
/// same JSON as ever.
#[cfg(target_os = "linux")]
#[test]
fn a_pull_on_a_terminal_shows_a_status_line_and_clears_it() {
    use std::io::Read;
    use std::os::fd::{FromRawFd, OwnedFd};
    use std::process::Stdio;

    let (mut master, slave) = {
        let (mut master, mut slave) = (-1, -1);
        let size = libc::winsize {
            ws_row: 24,
            ws_col: 120,
            ws_xpixel: 0,
            ws_ypixel: 0,
        };
        // SAFETY: the out-pointers are valid; no name or termios is asked for.
        let rc = unsafe {
            libc::openpty(
                &mut master,
                &mut slave,
                std::ptr::null_mut(),
                std::ptr::null(),
                &size,
            )
        };
        assert_eq!(rc, 0, "openpty: {}", std::io::Error::last_os_error());
        // SAFETY: openpty returned two new descriptors that nothing else owns.
        unsafe {
            (
                std::fs::File::from(OwnedFd::from_raw_fd(master)),
                OwnedFd::from_raw_fd(slave),
            )
        }
    };
    let child = {
        let mut command = Command::new(env!("CARGO_BIN_EXE_discloser"));
        command
            .args([
                "pull",
                "--mcp",
                "--timeout",
                "20",
                "--",
                "sh",
                "-c",
                // A second of start-up: the spinner is drawn in it whatever the machine's load.
                "sleep 1; exec sh tests/fixtures/mcp/paged-server.sh paged",
            ])
            .current_dir(root())
            .env("NO_COLOR", "1")
            .env("TERM", "xterm")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::from(slave));
        command.spawn().expect("the discloser binary runs")
        // `command`, and with it this process's copy of the terminal's end, is dropped here,
        // so reading the other end stops when discloser exits.
    };
    let mut screen = Vec::new();
    let mut buf = [0u8; 4096];
    // Linux answers EIO once the last descriptor of the terminal's end is closed.
    while let Ok(n) = master.read(&mut buf) {
        if n == 0 {
            break;
        }
        screen.extend_from_slice(&buf[..n]);
    }
    let out = child.wait_with_output().unwrap();
    let screen = String::from_utf8_lossy(&screen);
    assert_eq!(out.status.code(), Some(0), "{screen}");
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(value["tools"].as_array().unwrap().len(), 5);
    let line = regex::Regex::new(
        r"MCP server initialising \(MCP handshake\) \([0-9]+s\): sh -c 'sleep 1; exec sh tests/fixtures/mcp/paged-server\.sh paged'",
    )
    .unwrap();
    assert!(line.is_match(&screen), "{screen:?}");
    // Whichever step the first draw catches (a loaded machine may already be initialising),
    // the frame is whole: spinner, step, elapsed time, command.
    let frame = regex::Regex::new(
        r"^\S MCP server (starting|initialising \(MCP handshake\)|listing tools, page [0-9]+) \([0-9]+s\): sh -c 'sleep 1;",
    )
    .unwrap();
    assert!(
        screen
            .split('\r')
            .next()
            .is_some_and(|first| frame.is_match(first)),
        "the first frame is complete: {screen:?}"
    );
    assert!(
        !screen.contains("\n"),
        "one line, redrawn in place: {screen:?}"
    );
    let last = screen.rfind("MCP server").unwrap();
    assert!(
        screen[last..].ends_with("\r\x1b[2K"),
        "cleared at the end: {screen:?}"
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
