//! Where discloser meets its users' tooling: `--version`, `--color`, shell completions and man
//! pages generated from the clap definitions, the pre-commit hooks (their entry commands on the
//! bundled example, and `pre-commit run --all-files` with the README's configuration), the
//! GitHub Actions workflow, and the Python wheel's `pyproject.toml`.
//!
//! The pre-commit run needs `pre-commit` (from PyPI): `.ci/run` installs it into a virtual
//! environment and sets `DISCLOSER_TEST_PRE_COMMIT` to the executable. That test is
//! `#[ignore]`d, so a plain `cargo test` lists it as ignored; run with `--ignored`, it fails when
//! pre-commit is missing. The hooks' entry commands run on every clone
//! (`pre_commit_hook_entries_pass_on_the_example`). Locally:
//!
//! ```sh
//! python3 -m venv /tmp/pc && /tmp/pc/bin/pip install pre-commit
//! DISCLOSER_TEST_PRE_COMMIT=/tmp/pc/bin/pre-commit cargo test --test it pre_commit -- --ignored
//! ```
//!
//! The wheel itself is built and installed by `.ci/run` (it needs maturin and a release build).

use crate::support::root;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn discloser_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_discloser"))
        .args(args)
        .current_dir(dir)
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .output()
        .expect("runs")
}

fn discloser(args: &[&str]) -> Output {
    discloser_in(&root(), args)
}

fn stdout(out: &Output) -> String {
    assert!(
        out.status.success(),
        "exit {:?}: {}",
        out.status.code(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).expect("UTF-8")
}

fn read(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Every subcommand `--help` lists (clap's own `help` aside).
fn subcommands() -> Vec<String> {
    let help = stdout(&discloser(&["--help"]));
    help.lines()
        .skip_while(|line| *line != "Commands:")
        .skip(1)
        .take_while(|line| !line.trim().is_empty())
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_owned)
        .collect()
}

#[test]
fn version_is_the_crate_version() {
    let expected = format!("discloser {}\n", env!("CARGO_PKG_VERSION"));
    assert_eq!(stdout(&discloser(&["--version"])), expected);
    assert_eq!(stdout(&discloser(&["-V"])), expected);
}

#[test]
fn completions_mention_every_subcommand() {
    let names = subcommands();
    assert!(names.len() >= 16, "{names:?}");
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let script = stdout(&discloser(&["completions", shell]));
        assert!(!script.trim().is_empty(), "{shell}: empty");
        for name in &names {
            assert!(script.contains(name.as_str()), "{shell}: no `{name}`");
        }
        for flag in ["color", "chart", "by-tool", "format"] {
            let spelled = match shell {
                "fish" => format!("-l {flag}"),
                _ => format!("--{flag}"),
            };
            assert!(script.contains(&spelled), "{shell}: no `{spelled}`");
        }
    }
    let out = discloser(&["completions", "tcsh"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("invalid value 'tcsh'"));
}

#[test]
fn bash_completion_script_is_valid_bash() {
    let script = stdout(&discloser(&["completions", "bash"]));
    let out = Command::new("bash")
        .args(["-n", "-c", &script])
        .output()
        .expect("bash runs (it checks the bash completion script)");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn man_page_mentions_every_subcommand() {
    let page = stdout(&discloser(&["man"]));
    assert!(page.contains(".TH discloser 1"), "{page}");
    assert!(page.contains(&format!("discloser {}", env!("CARGO_PKG_VERSION"))));
    for name in subcommands() {
        assert!(
            page.contains(&format!("discloser\\-{}", name.replace('-', "\\-"))),
            "no `{name}` in the man page"
        );
    }
    assert_eq!(page, stdout(&discloser(&["man"])), "byte-stable");
}

#[test]
fn man_dir_writes_one_page_per_subcommand() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let out = stdout(&discloser_in(dir.path(), &["man", "--dir", "man1"]));
    let names = subcommands();
    assert_eq!(out.lines().count(), names.len() + 1, "{out}");
    assert!(out.starts_with("wrote man1/discloser.1\n"), "{out}");
    let main = std::fs::read_to_string(dir.path().join("man1/discloser.1")).expect("main page");
    assert_eq!(main, stdout(&discloser(&["man"])));
    for name in names {
        let path = dir.path().join(format!("man1/discloser-{name}.1"));
        let page = std::fs::read_to_string(&path).expect("a page per subcommand");
        assert!(page.contains(&format!(".TH discloser-{name} 1")), "{page}");
        // Global flags are on every page, as the command line accepts them everywhere.
        assert!(page.contains("\\-\\-color"), "{name}: no --color");
    }
}

/// A catalog with lint findings, so `lint`'s full format has something to color.
const WITH_FINDINGS: &str = "tests/fixtures/lint/missing-description/tools.yaml";

fn has_ansi(text: &[u8]) -> bool {
    text.windows(2).any(|w| w == b"\x1b[")
}

#[test]
fn color_flag_decides_lint_colors() {
    let lint = |args: &[&str], no_color: Option<&str>| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_discloser"));
        command
            .args(args)
            .current_dir(root())
            .env_remove("NO_COLOR")
            .env_remove("CLICOLOR_FORCE");
        if let Some(value) = no_color {
            command.env("NO_COLOR", value);
        }
        let out = command.output().expect("runs");
        assert_eq!(out.status.code(), Some(1), "findings");
        out.stdout
    };
    // `auto` (the default): standard output is a pipe here, so no color.
    assert!(!has_ansi(&lint(&["lint", WITH_FINDINGS], None)));
    assert!(has_ansi(&lint(
        &["--color", "always", "lint", WITH_FINDINGS],
        None
    )));
    // Global: accepted after the subcommand too, and `--color=WHEN`.
    assert!(has_ansi(&lint(
        &["lint", "--color=always", WITH_FINDINGS],
        None
    )));
    assert!(!has_ansi(&lint(
        &["lint", "--color", "never", WITH_FINDINGS],
        None
    )));
    // An explicit `always` wins over NO_COLOR; NO_COLOR only quiets `auto`.
    assert!(has_ansi(&lint(
        &["--color", "always", "lint", WITH_FINDINGS],
        Some("1")
    )));
    // Machine formats are never colored.
    let concise = lint(
        &[
            "--color",
            "always",
            "lint",
            "--format",
            "concise",
            WITH_FINDINGS,
        ],
        None,
    );
    assert!(!has_ansi(&concise));
}

#[test]
fn color_flag_decides_error_colors() {
    let dir = tempfile::tempdir().expect("temporary directory");
    std::fs::write(dir.path().join("bad.yaml"), "name: [unclosed\n").expect("written");
    let run = |args: &[&str]| {
        let out = discloser_in(dir.path(), args);
        assert_eq!(out.status.code(), Some(2));
        out.stderr
    };
    // A load error (with a snippet) and a plain error.
    for args in [
        &["render", "bad.yaml"][..],
        &["render", "missing.yaml"][..],
        &["cost", "--chart", "x.png"][..],
    ] {
        let always = [&["--color", "always"][..], args].concat();
        let never = [&["--color", "never"][..], args].concat();
        assert!(has_ansi(&run(&always)), "{args:?}");
        assert!(!has_ansi(&run(&never)), "{args:?}");
        assert!(!has_ansi(&run(args)), "{args:?}: auto into a pipe");
        let plain = String::from_utf8(run(&never)).expect("UTF-8");
        assert!(plain.starts_with("error: "), "{plain}");
    }
    // clap's own errors follow the flag too, although they happen while it is being parsed.
    assert!(has_ansi(&run(&["--color", "always", "rendr"])));
    assert!(!has_ansi(&run(&["--color", "never", "rendr"])));
    assert!(!has_ansi(&run(&["rendr"])));
    let bad = String::from_utf8(run(&["--color", "sometimes", "render"])).expect("UTF-8");
    assert!(bad.contains("invalid value 'sometimes'"), "{bad}");
}

/// One hook of `.pre-commit-hooks.yaml`.
#[derive(Debug, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
struct Hook {
    id: String,
    entry: String,
    language: String,
    files: String,
    pass_filenames: bool,
}

fn hooks() -> Vec<Hook> {
    serde_saphyr::from_str(&read(".pre-commit-hooks.yaml")).expect("valid hooks file")
}

#[test]
fn pre_commit_hook_entries_pass_on_the_example() {
    let hooks = hooks();
    let ids: Vec<&str> = hooks.iter().map(|h| h.id.as_str()).collect();
    assert_eq!(ids, ["discloser-lint", "discloser-check"]);
    for hook in &hooks {
        assert_eq!(hook.language, "system", "{}", hook.id);
        assert!(
            !hook.pass_filenames,
            "{}: would bypass discloser.yaml",
            hook.id
        );
        let mut words = hook.entry.split_whitespace();
        assert_eq!(words.next(), Some("discloser"), "{}", hook.id);
        let args: Vec<&str> = words.collect();
        let out = discloser(&args);
        assert!(
            out.status.success(),
            "{}: `{}` failed on the example: {}{}",
            hook.id,
            hook.entry,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        // pre-commit searches (`re.search`) each path relative to the repository root.
        let files = regex::Regex::new(&hook.files).expect("a valid pattern");
        for path in [
            "discloser.yaml",
            "tools/charts.yaml",
            "sub/dir/discloser.yml",
        ] {
            assert!(
                files.is_match(path),
                "{}: {path} does not trigger it",
                hook.id
            );
        }
        for path in ["src/main.rs", "Cargo.toml", "README.md"] {
            assert!(!files.is_match(path), "{}: {path} triggers it", hook.id);
        }
    }
    let check = regex::Regex::new(&hooks[1].files).expect("a valid pattern");
    assert!(check.is_match("snapshots/default/index.txt"));
    assert!(check.is_match("snapshots/default/tools.raw.jsonl"));
}

/// The command reference shows the example files verbatim, so what users paste is what is
/// tested.
#[test]
fn command_reference_shows_the_example_files() {
    let reference = read("docs/commands.md");
    for (path, lang) in [
        ("examples/pre-commit-config.yaml", "yaml"),
        ("examples/github-workflow.yml", "yaml"),
    ] {
        let block = format!("```{lang}\n{}```\n", read(path));
        assert!(
            reference.contains(&block),
            "docs/commands.md does not show {path} as is"
        );
    }
}

/// Every relative link of the README, CONTRIBUTING.md and `docs/` names a file or directory of
/// the repository, and every `#anchor` into a Markdown file names one of its headings (as
/// GitHub spells them). Links inside code are not links; URLs are not checked.
#[test]
fn relative_links_in_the_docs_resolve() {
    fn markdown_files(dir: &Path, files: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                markdown_files(&path, files);
            } else if path.extension().is_some_and(|e| e == "md") {
                files.push(path);
            }
        }
    }
    /// The text outside fenced blocks, with code spans blanked.
    fn prose(text: &str) -> String {
        let mut out = String::new();
        let mut fenced = false;
        for line in text.lines() {
            let trimmed = line.trim_start();
            if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
                fenced = !fenced;
            } else if !fenced {
                out.push_str(line);
            }
            out.push('\n');
        }
        let mut kept = String::new();
        let mut rest = out.as_str();
        while let Some(open) = rest.find('`') {
            kept.push_str(&rest[..open]);
            let ticks = rest[open..].len() - rest[open..].trim_start_matches('`').len();
            let after = &rest[open + ticks..];
            match after.find(&rest[open..open + ticks]) {
                Some(close) => rest = &after[close + ticks..],
                None => {
                    kept.push_str(&rest[open..open + ticks]);
                    rest = after;
                }
            }
        }
        kept.push_str(rest);
        kept
    }
    /// The anchors of a Markdown file's headings, as GitHub makes them.
    fn anchors(text: &str) -> Vec<String> {
        let mut seen: Vec<String> = Vec::new();
        for line in prose(text).lines().filter(|l| l.starts_with('#')) {
            let slug: String = line
                .trim_start_matches('#')
                .trim()
                .chars()
                .filter_map(|c| match c {
                    ' ' => Some('-'),
                    c if c.is_alphanumeric() || c == '-' || c == '_' => c.to_lowercase().next(),
                    _ => None,
                })
                .collect();
            let repeats = seen.iter().filter(|s| **s == slug).count();
            seen.push(slug.clone());
            if repeats > 0 {
                seen.push(format!("{slug}-{repeats}"));
            }
        }
        seen
    }
    let root = root();
    let mut files = vec![root.join("README.md"), root.join("CONTRIBUTING.md")];
    markdown_files(&root.join("docs"), &mut files);
    let mut broken = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let shown = file.strip_prefix(&root).unwrap().display().to_string();
        let prose = prose(&text);
        let targets = prose
            .split("](")
            .skip(1)
            .filter_map(|s| s.split(')').next());
        for target in targets {
            let target = target.split_whitespace().next().unwrap_or("");
            if target.is_empty() || target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (path, anchor) = target.split_once('#').unwrap_or((target, ""));
            let resolved = match path {
                "" => file.clone(),
                _ => file.parent().unwrap().join(path),
            };
            let inside = resolved
                .canonicalize()
                .is_ok_and(|p| p.starts_with(root.canonicalize().unwrap()));
            if !inside {
                broken.push(format!(
                    "{shown}: `{target}` is not a file of the repository"
                ));
            } else if !anchor.is_empty() && resolved.extension().is_some_and(|e| e == "md") {
                let headings = anchors(&std::fs::read_to_string(&resolved).unwrap());
                if !headings.iter().any(|h| h == anchor) {
                    broken.push(format!("{shown}: `{target}`: no heading `#{anchor}` there"));
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn github_workflow_runs_lint_check_and_uploads_sarif() {
    let text = read("examples/github-workflow.yml");
    let workflow: serde_json::Value = serde_saphyr::from_str(&text).expect("valid YAML");
    let steps = workflow["jobs"]["discloser"]["steps"]
        .as_array()
        .expect("steps");
    let runs: Vec<&str> = steps.iter().filter_map(|s| s["run"].as_str()).collect();
    assert!(runs.contains(&"discloser lint --format github"), "{runs:?}");
    assert!(runs.contains(&"discloser check"), "{runs:?}");
    assert!(
        runs.iter()
            .any(|r| r.starts_with("discloser lint --format sarif > discloser.sarif")),
        "{runs:?}"
    );
    let upload = steps
        .iter()
        .find(|s| {
            s["uses"]
                .as_str()
                .is_some_and(|u| u.starts_with("github/codeql-action/upload-sarif@"))
        })
        .expect("an upload-sarif step");
    assert_eq!(upload["with"]["sarif_file"], "discloser.sarif");
    assert_eq!(
        workflow["jobs"]["discloser"]["permissions"]["security-events"],
        "write"
    );
    // The commands it runs work, and the SARIF step's exit-code rule holds: 0 or 1, never 2.
    let sarif = discloser(&["lint", "--format", "sarif"]);
    assert!(matches!(sarif.status.code(), Some(0 | 1)));
    let _: serde_json::Value = serde_json::from_slice(&sarif.stdout).expect("SARIF is JSON");
    assert!(matches!(
        discloser(&["lint", "--format", "github"]).status.code(),
        Some(0 | 1)
    ));
}

#[test]
fn pyproject_builds_the_package_with_the_crate_version() {
    let text = read("pyproject.toml");
    assert!(text.contains("build-backend = \"maturin\""));
    // The Python package over the native module, and the command as its entry point (the same
    // code as the binary: `discloser_cli::main`).
    assert!(text.contains("manifest-path = \"crates/discloser-py/Cargo.toml\""));
    assert!(text.contains("module-name = \"discloser._native\""));
    assert!(text.contains("discloser = \"discloser._cli:main\""));
    // The version comes from Cargo.toml, so the wheel's can never drift from `--version`.
    assert!(text.contains("dynamic = [\"version\"]"));
    assert!(!text.lines().any(|l| l.starts_with("version")));
}

/// `pre-commit` from DISCLOSER_TEST_PRE_COMMIT; the test that needs it is ignored by a plain
/// `cargo test`, and fails here when it is missing.
fn pre_commit() -> PathBuf {
    let Some(path) = std::env::var_os("DISCLOSER_TEST_PRE_COMMIT") else {
        panic!(
            "DISCLOSER_TEST_PRE_COMMIT is not set: install pre-commit from PyPI and set it to the executable (see the top of tests/it/packaging.rs; .ci/run does both)"
        );
    };
    PathBuf::from(path)
}

fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .args([
            "-c",
            "user.name=discloser tests",
            "-c",
            "user.email=tests@discloser.invalid",
            "-c",
            "commit.gpgsign=false",
            "-c",
            "init.defaultBranch=main",
        ])
        .args(args)
        .current_dir(dir)
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("directory created");
    for entry in std::fs::read_dir(from).expect("readable") {
        let entry = entry.expect("an entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("a type").is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copied");
        }
    }
}

/// The acceptance test: a repository holding the bundled example, with the README's
/// `.pre-commit-config.yaml` (its `repo:` pointed at a local copy of this repository's hooks,
/// since tests run offline), passes `pre-commit run --all-files`; a drifted tool fails it.
#[test]
#[ignore = "needs DISCLOSER_TEST_PRE_COMMIT, pre-commit from PyPI (.ci/run installs it and runs it)"]
fn pre_commit_run_all_files_passes_on_the_example() {
    let pre_commit = pre_commit();
    let tmp = tempfile::tempdir().expect("temporary directory");

    let hooks_repo = tmp.path().join("discloser-hooks");
    std::fs::create_dir_all(&hooks_repo).expect("created");
    std::fs::copy(
        root().join(".pre-commit-hooks.yaml"),
        hooks_repo.join(".pre-commit-hooks.yaml"),
    )
    .expect("copied");
    git(&hooks_repo, &["init", "-q"]);
    git(&hooks_repo, &["add", "."]);
    git(&hooks_repo, &["commit", "-q", "-m", "hooks"]);
    git(&hooks_repo, &["tag", "v0.1.0"]);

    let project = tmp.path().join("project");
    copy_dir(&root().join("tools"), &project.join("tools"));
    copy_dir(&root().join("snapshots"), &project.join("snapshots"));
    std::fs::copy(
        root().join("discloser.yaml"),
        project.join("discloser.yaml"),
    )
    .expect("copied");
    let config = read("examples/pre-commit-config.yaml");
    let documented = "https://github.com/OWNER/discloser";
    assert!(config.contains(documented), "{config}");
    let local = config.replace(documented, hooks_repo.to_str().expect("UTF-8 path"));
    std::fs::write(project.join(".pre-commit-config.yaml"), local).expect("written");
    git(&project, &["init", "-q"]);
    git(&project, &["add", "."]);

    let bin_dir = Path::new(env!("CARGO_BIN_EXE_discloser"))
        .parent()
        .expect("a directory");
    let path = std::env::join_paths(std::iter::once(bin_dir.to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .expect("a PATH");
    let run = || {
        Command::new(&pre_commit)
            .args(["run", "--all-files", "--color", "never"])
            .current_dir(&project)
            .env("PATH", &path)
            .env("PRE_COMMIT_HOME", tmp.path().join("cache"))
            .env_remove("NO_COLOR")
            .output()
            .expect("pre-commit runs")
    };
    let out = run();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("discloser lint") && text.contains("discloser check"),
        "{text}"
    );
    assert_eq!(text.matches("Passed").count(), 2, "{text}");

    // A trigger edited without `discloser snapshot` is drift: the check hook fails the commit.
    let charts = project.join("tools/charts.yaml");
    let edited = std::fs::read_to_string(&charts)
        .expect("readable")
        .replacen("- plot\n", "- plotting\n", 1);
    std::fs::write(&charts, edited).expect("written");
    let out = run();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("drift"), "{text}");
}
