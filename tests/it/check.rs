//! `discloser snapshot`, `check` and `diff`: edits of each kind against a small catalog
//! (`tests/fixtures/check/`), with the summaries, first differing offsets and cache figures
//! snapshotted; edits that must not change a byte (a re-wrapped description, a renamed or
//! CRLF source file) checked to produce no drift at all; the snapshot folder's housekeeping
//! (missing, orphaned, pruned files, providers); atomic writes under a failing disk; `diff`
//! between directories, profiles and git revisions of a throw-away repository.
//!
//! Every case copies the fixture into a fresh temporary directory, writes its snapshots with the
//! real binary, edits a file and runs the binary there, so paths in the output are short and
//! stable (`snapshots/default/index.txt`).

use crate::support::root;
use std::path::{Path, PathBuf};
use std::process::Command;

use tempfile::TempDir;

/// What a run of the binary gave.
struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

impl Run {
    /// The exit code and standard output, for a snapshot.
    fn shown(&self) -> String {
        format!("exit {}\n{}", self.code, self.stdout)
    }
}

fn run_in(dir: &Path, args: &[&str]) -> Run {
    let out = crate::support::discloser_in(dir, args);
    Run {
        code: out.status.code().expect("exited, not killed"),
        stdout: String::from_utf8(out.stdout).expect("UTF-8 output"),
        stderr: String::from_utf8(out.stderr).expect("UTF-8 errors"),
    }
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// A copy of a project in a temporary directory.
struct Fixture {
    dir: TempDir,
}

impl Fixture {
    /// The check fixture, with its snapshots written.
    fn new() -> Fixture {
        let fixture = Fixture::copy_of(&root().join("tests/fixtures/check"));
        let run = fixture.run(&["snapshot"]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        fixture
    }

    /// The bundled example (config, tools and snapshots), without the rest of the repository.
    fn example() -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        std::fs::copy(
            root().join("discloser.yaml"),
            dir.path().join("discloser.yaml"),
        )
        .unwrap();
        for folder in ["tools", "snapshots"] {
            copy_dir(&root().join(folder), &dir.path().join(folder));
        }
        Fixture { dir }
    }

    fn copy_of(from: &Path) -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        copy_dir(from, dir.path());
        Fixture { dir }
    }

    fn path(&self, relative: &str) -> PathBuf {
        self.dir.path().join(relative)
    }

    fn read(&self, relative: &str) -> String {
        std::fs::read_to_string(self.path(relative)).unwrap()
    }

    fn write(&self, relative: &str, text: &str) {
        let path = self.path(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    /// Replaces the one occurrence of `from` in a file.
    fn edit(&self, relative: &str, from: &str, to: &str) {
        let text = self.read(relative);
        assert_eq!(text.matches(from).count(), 1, "{from:?} once in {relative}");
        self.write(relative, &text.replacen(from, to, 1));
    }

    fn run(&self, args: &[&str]) -> Run {
        run_in(self.dir.path(), args)
    }

    /// `check --format json`, parsed.
    fn check_json(&self) -> serde_json::Value {
        let run = self.run(&["check", "--format", "json"]);
        assert!(run.code == 0 || run.code == 1, "{}", run.stderr);
        serde_json::from_str(&run.stdout).unwrap()
    }

    /// Every file under `snapshots/` with its bytes.
    fn snapshot_files(&self) -> Vec<(PathBuf, Vec<u8>)> {
        fn walk(dir: &Path, base: &Path, out: &mut Vec<(PathBuf, Vec<u8>)>) {
            for entry in std::fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    walk(&path, base, out);
                } else {
                    let bytes = std::fs::read(&path).unwrap();
                    out.push((path.strip_prefix(base).unwrap().to_path_buf(), bytes));
                }
            }
        }
        let mut out = Vec::new();
        walk(&self.path("snapshots"), self.dir.path(), &mut out);
        out.sort();
        out
    }
}

/// The JSON facts of one checked file.
fn file<'a>(report: &'a serde_json::Value, path: &str) -> &'a serde_json::Value {
    report["files"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["path"] == path)
        .unwrap_or_else(|| panic!("{path} in {report:#}"))
}

fn assert_no_drift(fixture: &Fixture) {
    let run = fixture.run(&["check"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(
        run.stdout,
        "ok: 4 files in `snapshots` hold exactly the rendered bytes\n"
    );
}

#[test]
fn check_on_an_unchanged_tree_exits_0() {
    let fixture = Fixture::new();
    assert_no_drift(&fixture);
    let files: Vec<PathBuf> = fixture.snapshot_files().into_iter().map(|f| f.0).collect();
    assert_eq!(
        files,
        [
            // The marker that lets `snapshot --prune` remove files here.
            "snapshots/.discloser-snapshots",
            "snapshots/charts/index.txt",
            "snapshots/charts/tools.raw.jsonl",
            "snapshots/default/index.txt",
            "snapshots/default/tools.raw.jsonl",
        ]
        .map(PathBuf::from)
    );
}

/// The repository dogfoods its own snapshots (`.ci/run` runs the same check).
#[test]
fn the_repository_snapshots_are_up_to_date() {
    let run = run_in(&root(), &["check"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
}

#[test]
fn snapshot_writes_only_what_changed() {
    let fixture = Fixture::new();
    let again = fixture.run(&["snapshot"]);
    assert_eq!(
        again.stdout,
        "0 written, 4 unchanged, 0 removed in `snapshots`\n"
    );
    fixture.edit("tools/charts.yaml", "[chart, plot]", "[chart, plot, graph]");
    let run = fixture.run(&["snapshot"]);
    insta::assert_snapshot!("snapshot_after_a_trigger_edit", run.shown());
}

#[test]
fn definitions_are_one_compact_json_line_per_bound_tool() {
    let fixture = Fixture::new();
    let charts = fixture.read("snapshots/charts/tools.raw.jsonl");
    let names: Vec<String> = charts
        .lines()
        .map(|line| {
            let value: serde_json::Value = serde_json::from_str(line).unwrap();
            assert_eq!(value.to_string(), line, "compact, as written");
            value["name"].as_str().unwrap().to_owned()
        })
        .collect();
    assert_eq!(names, ["draw_chart", "get_weather"]);
    assert!(charts.ends_with("}\n"));
    assert_eq!(
        fixture.read("snapshots/default/index.txt"),
        run_in(fixture.dir.path(), &["render"]).stdout,
        "index.txt is exactly what `render` prints"
    );
}

#[test]
fn reordered_enum_values() {
    let fixture = Fixture::new();
    fixture.edit("tools/charts.yaml", "[bar, line, pie]", "[line, bar, pie]");
    let run = fixture.run(&["check"]);
    assert_eq!(run.code, 1);
    insta::assert_snapshot!("enum_reordered", run.shown());
    // `draw_chart` is the first entry: only the header line stays cached.
    let report = fixture.check_json();
    let index = file(&report, "snapshots/default/index.txt");
    assert_eq!(index["first_difference"]["line"], 2);
    assert_eq!(
        index["cache"]["unchanged_bytes"],
        "Tools you can call by name:\n".len()
    );
    let definitions = file(&report, "snapshots/charts/tools.raw.jsonl");
    assert_eq!(definitions["status"], "drift");
    assert_eq!(definitions["first_difference"]["line"], 1);
    assert_eq!(definitions["cache"]["unchanged_bytes"], 0);
}

#[test]
fn a_trigger_added() {
    let fixture = Fixture::new();
    fixture.edit("tools/charts.yaml", "[chart, plot]", "[chart, plot, graph]");
    let run = fixture.run(&["check"]);
    assert_eq!(run.code, 1);
    insta::assert_snapshot!("trigger_added", run.shown());
    insta::assert_snapshot!(
        "trigger_added.json",
        fixture.run(&["check", "--format", "json"]).stdout
    );
}

/// The summary joins wrapped lines, so a re-wrap of an indexed tool's description cannot move
/// a byte: not luck, the renderer.
#[test]
fn a_rewrapped_description_of_an_indexed_tool_is_no_drift() {
    let fixture = Fixture::new();
    fixture.edit(
        "tools/office.yaml",
        "    Fetch a guide by topic and answer from its full text. Guides are\n    kept up to date by our advisers.\n",
        "    Fetch a guide by topic and answer\n    from its full text.   Guides are kept\n    up to date by our advisers.\n",
    );
    assert_no_drift(&fixture);
}

/// A bound tool's description is sent as written: a re-wrap changes what the model receives,
/// and the summary says the words are the same.
#[test]
fn a_rewrapped_description_of_a_bound_tool_changes_only_its_definition() {
    let fixture = Fixture::new();
    fixture.edit(
        "tools/weather.yaml",
        "  Get the current weather for a city. Use it whenever the user asks\n  about the weather,",
        "  Get the current weather for a city.\n  Use it whenever the user asks about the weather,",
    );
    let run = fixture.run(&["check"]);
    assert_eq!(run.code, 1);
    insta::assert_snapshot!("rewrapped_bound_description", run.shown());
    let report = fixture.check_json();
    assert_eq!(file(&report, "snapshots/default/index.txt")["status"], "ok");
}

const NEW_TOOL: &str = "\
name: NAME
description: A tool added by the test. It has one parameter.
parameters:
  type: object
  properties:
    q: {type: string}
  required: [q]
triggers: [new]
";

#[test]
fn a_tool_added_at_the_end_keeps_the_old_index_cached() {
    let fixture = Fixture::new();
    let old = fixture.read("snapshots/default/index.txt");
    fixture.write("tools/zoom.yaml", &NEW_TOOL.replace("NAME", "zoom_map"));
    let run = fixture.run(&["check"]);
    assert_eq!(run.code, 1);
    insta::assert_snapshot!("tool_added_at_the_end", run.shown());
    let report = fixture.check_json();
    let index = file(&report, "snapshots/default/index.txt");
    assert_eq!(index["first_difference"]["byte"], old.len());
    assert_eq!(index["cache"]["unchanged_bytes"], old.len());
}

#[test]
fn a_tool_added_at_the_start_keeps_only_the_header_cached() {
    let fixture = Fixture::new();
    fixture.write("tools/add.yaml", &NEW_TOOL.replace("NAME", "add_note"));
    let run = fixture.run(&["check"]);
    assert_eq!(run.code, 1);
    insta::assert_snapshot!("tool_added_at_the_start", run.shown());
    let report = fixture.check_json();
    let index = file(&report, "snapshots/default/index.txt");
    assert_eq!(index["first_difference"]["line"], 2);
    assert_eq!(index["first_difference"]["column"], 3);
    assert_eq!(
        index["cache"]["unchanged_bytes"],
        "Tools you can call by name:\n".len()
    );
}

/// YAML reads CRLF line breaks as `\n`: a tool file saved on Windows changes nothing.
#[test]
fn a_crlf_tool_file_is_no_drift() {
    let fixture = Fixture::new();
    for file in ["tools/charts.yaml", "tools/weather.yaml"] {
        let text = fixture.read(file);
        fixture.write(file, &text.replace('\n', "\r\n"));
    }
    assert_no_drift(&fixture);
}

/// A snapshot converted to CRLF (e.g. by `core.autocrlf`) drifts from its first line; the
/// carriage returns are shown, and nothing stays cached.
#[test]
fn a_crlf_snapshot_drifts_from_the_first_line() {
    let fixture = Fixture::new();
    let text = fixture.read("snapshots/default/index.txt");
    fixture.write("snapshots/default/index.txt", &text.replace('\n', "\r\n"));
    let run = fixture.run(&["check"]);
    assert_eq!(run.code, 1);
    assert!(run.stdout.contains('␍'), "{}", run.stdout);
    insta::assert_snapshot!("crlf_snapshot", run.shown());
    let report = fixture.check_json();
    let index = file(&report, "snapshots/default/index.txt");
    assert_eq!(index["first_difference"]["line"], 1);
    assert_eq!(index["cache"]["unchanged_bytes"], 0);
    assert_eq!(index["notes"][0]["note"], "line-endings");
}

#[test]
fn a_missing_final_newline_is_named() {
    let fixture = Fixture::new();
    let text = fixture.read("snapshots/charts/index.txt");
    fixture.write("snapshots/charts/index.txt", text.trim_end_matches('\n'));
    let run = fixture.run(&["check"]);
    assert_eq!(run.code, 1);
    insta::assert_snapshot!("missing_final_newline", run.shown());
}

#[test]
fn a_renamed_source_file_is_no_drift() {
    let fixture = Fixture::new();
    std::fs::rename(
        fixture.path("tools/charts.yaml"),
        fixture.path("tools/zz_renamed.yml"),
    )
    .unwrap();
    std::fs::rename(
        fixture.path("tools/office.yaml"),
        fixture.path("tools/a.yaml"),
    )
    .unwrap();
    assert_no_drift(&fixture);
}

#[test]
fn missing_and_orphaned_files_then_prune() {
    let fixture = Fixture::new();
    std::fs::remove_file(fixture.path("snapshots/charts/tools.raw.jsonl")).unwrap();
    fixture.write("snapshots/retired/index.txt", "old\n");
    fixture.write("snapshots/retired/tools.raw.jsonl", "");
    fixture.write("snapshots/default/tools.openai.jsonl", "{}\n");
    fixture.write("snapshots/README.md", "notes\n");
    fixture.write("snapshots/.DS_Store", "ignored");
    let run = fixture.run(&["check", "--provider", "raw"]);
    assert_eq!(run.code, 1);
    insta::assert_snapshot!("missing_and_orphaned", run.shown());

    let run = fixture.run(&["snapshot", "--provider", "raw", "--prune"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    insta::assert_snapshot!("prune", run.shown());
    assert!(!fixture.path("snapshots/retired").exists());
    assert!(
        fixture.path("snapshots/README.md").exists(),
        "never removed"
    );

    let run = fixture.run(&["check"]);
    assert_eq!(run.code, 1, "README.md is still an orphan");
    std::fs::remove_file(fixture.path("snapshots/README.md")).unwrap();
    assert_no_drift(&fixture);
}

#[test]
fn without_prune_orphans_are_kept() {
    let fixture = Fixture::new();
    fixture.write("snapshots/retired/index.txt", "old\n");
    let run = fixture.run(&["snapshot"]);
    assert_eq!(
        run.stdout,
        "kept snapshots/retired/index.txt: no profile renders it; `--prune` removes it\n0 written, 4 unchanged, 0 removed in `snapshots`\n"
    );
    assert!(fixture.path("snapshots/retired/index.txt").exists());
}

/// `check` compares the providers already snapshotted, so a team that snapshots OpenAI's shape
/// does not repeat `--provider` on every check.
#[test]
fn providers_are_read_from_the_snapshot_folder() {
    let fixture = Fixture::new();
    let run = fixture.run(&["snapshot", "--provider", "anthropic"]);
    assert_eq!(run.code, 0);
    assert!(
        fixture
            .read("snapshots/charts/tools.anthropic.jsonl")
            .contains(r#""input_schema":"#)
    );
    let report = fixture.check_json();
    assert_eq!(report["providers"], serde_json::json!(["raw", "anthropic"]));
    assert_eq!(report["counts"]["files"], 6);
    assert_eq!(report["ok"], true);
}

#[test]
fn check_never_writes() {
    let fixture = Fixture::new();
    std::fs::remove_file(fixture.path("snapshots/default/index.txt")).unwrap();
    fixture.edit("tools/charts.yaml", "[chart, plot]", "[chart]");
    let before = fixture.snapshot_files();
    for format in ["text", "json"] {
        assert_eq!(fixture.run(&["check", "--format", format]).code, 1);
    }
    assert_eq!(fixture.snapshot_files(), before);
}

/// A write that fails half-way (the file size limit stops it after the first block) leaves the
/// old snapshot byte for byte, and no temporary file behind.
#[cfg(unix)]
#[test]
fn an_interrupted_snapshot_leaves_the_old_file_intact() {
    let fixture = Fixture::example();
    fixture.edit("tools/charts.yaml", "  - plot\n", "  - plotting\n");
    let before = fixture.snapshot_files();
    let old = fixture.read("snapshots/default/index.txt");
    assert!(old.len() > 1024, "larger than the size limit below");
    let out = Command::new("sh")
        .arg("-c")
        .arg("trap '' XFSZ; ulimit -f 1; exec \"$0\" snapshot")
        .arg(env!("CARGO_BIN_EXE_discloser"))
        .current_dir(fixture.dir.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.starts_with("error: cannot write `snapshots/default/index.txt`: "),
        "{stderr}"
    );
    assert_eq!(fixture.read("snapshots/default/index.txt"), old);
    assert_eq!(
        fixture.snapshot_files(),
        before,
        "no file changed, none left behind"
    );
}

#[test]
fn a_profile_name_that_cannot_be_a_folder_is_an_error() {
    let fixture = Fixture::new();
    fixture.edit("discloser.yaml", "  charts:\n", "  ../charts:\n");
    let run = fixture.run(&["snapshot"]);
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        // Refused where the config names it, by the rule every command loads with.
        "error: discloser.yaml:12:3: profile `../charts` cannot name a snapshot folder: it starts with `.`\n  --> discloser.yaml:12:3\n   |\n12 |   ../charts:\n   |   ^\n"
    );
    assert!(!fixture.path("charts").exists());
}

#[test]
fn a_snapshot_folder_that_is_a_file_is_an_error() {
    let fixture = Fixture::new();
    std::fs::remove_dir_all(fixture.path("snapshots")).unwrap();
    fixture.write("snapshots", "not a folder");
    for command in ["snapshot", "check"] {
        let run = fixture.run(&[command]);
        assert_eq!(run.code, 2);
        assert_eq!(
            run.stderr,
            "error: snapshot folder `snapshots` is not a directory\n"
        );
    }
}

/// Acceptance: one trigger changed in the bundled example is named with its tool, the first
/// changed byte and the cache impact; `snapshot` then makes `check` pass.
#[test]
fn bundled_example_trigger_change_then_snapshot() {
    let fixture = Fixture::example();
    fixture.edit("tools/charts.yaml", "  - plot\n", "  - plotting\n");
    let run = fixture.run(&["check"]);
    assert_eq!(run.code, 1);
    assert!(
        run.stdout
            .contains("~ draw_chart: triggers (added `plotting`; removed `plot`)")
    );
    assert!(
        run.stdout
            .contains("snapshots/default/index.txt:6:81: drift: first difference at byte 834"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains(
        "cache: the first 744 bytes (174 o200k tokens) stay cached; the remaining 1,501 bytes"
    ));
    assert_eq!(fixture.run(&["snapshot"]).code, 0);
    let run = fixture.run(&["check"]);
    assert_eq!(run.code, 0, "{}", run.stdout);
}

#[test]
fn diff_of_two_directories() {
    let work = tempfile::tempdir().unwrap();
    copy_dir(
        &root().join("tests/fixtures/check"),
        &work.path().join("old"),
    );
    copy_dir(
        &root().join("tests/fixtures/check"),
        &work.path().join("new"),
    );
    let edit = |file: &str, from: &str, to: &str| {
        let path = work.path().join("new").join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.matches(from).count(), 1, "{from:?}");
        std::fs::write(path, text.replacen(from, to, 1)).unwrap();
    };
    edit("tools/charts.yaml", "[bar, line, pie]", "[line, bar, pie]");
    edit("tools/charts.yaml", "[chart, plot]", "[chart, plot, graph]");
    edit(
        "discloser.yaml",
        "starter: [get_weather]",
        "starter: [get_weather, send_email]",
    );
    std::fs::write(
        work.path().join("new/tools/zoom.yaml"),
        NEW_TOOL.replace("NAME", "zoom_map"),
    )
    .unwrap();
    let run = run_in(work.path(), &["diff", "old", "new"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    insta::assert_snapshot!("diff_directories", run.shown());

    let json = run_in(work.path(), &["diff", "old", "new", "--format", "json"]);
    let report: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(report["identical"], false);
    let tools: Vec<&str> = report["summary"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["tool"].as_str().unwrap())
        .collect();
    assert_eq!(tools, ["draw_chart", "send_email", "zoom_map"]);

    let same = run_in(work.path(), &["diff", "old", "old/discloser.yaml"]);
    assert_eq!(same.code, 0, "{}", same.stderr);
    assert_eq!(
        same.stdout,
        "identical: `old` and `old/discloser.yaml` render the same bytes for every profile\n"
    );
}

#[test]
fn diff_of_two_profiles() {
    let fixture = Fixture::new();
    let run = fixture.run(&["diff", "--profiles", "default", "charts"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    insta::assert_snapshot!("diff_profiles", run.shown());
    let same = fixture.run(&["diff", "--profiles", "charts", "charts"]);
    assert_eq!(same.code, 0);
}

/// Tool files without a config: a directory and a single file.
#[test]
fn diff_of_tool_files_without_a_config() {
    let fixture = Fixture::new();
    let run = fixture.run(&["diff", "tools", "tools/charts.yaml"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stdout
            .contains("- get_weather: removed (was indexed in `default`)"),
        "{}",
        run.stdout
    );
}

fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args([
            "-c",
            "user.name=discloser tests",
            "-c",
            "user.email=tests@example.invalid",
            "-c",
            "commit.gpgsign=false",
            "-c",
            "init.defaultBranch=main",
        ])
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// `--git REV` reads the revision through git: the work tree, the index and HEAD are exactly
/// as before, and the config may sit in a subdirectory of the repository.
#[test]
fn diff_against_a_git_revision_touches_nothing() {
    let repo = tempfile::tempdir().unwrap();
    let project = repo.path().join("agent");
    copy_dir(&root().join("tests/fixtures/check"), &project);
    std::fs::write(repo.path().join("README.md"), "outside the project\n").unwrap();
    git(repo.path(), &["init", "-q"]);
    git(repo.path(), &["add", "-A"]);
    git(repo.path(), &["commit", "-q", "-m", "base"]);
    let charts = project.join("tools/charts.yaml");
    let text = std::fs::read_to_string(&charts).unwrap();
    std::fs::write(
        &charts,
        text.replace("[chart, plot]", "[chart, plot, graph]"),
    )
    .unwrap();
    git(repo.path(), &["commit", "-q", "-a", "-m", "a trigger"]);
    std::fs::write(
        project.join("tools/zoom.yaml"),
        NEW_TOOL.replace("NAME", "zoom_map"),
    )
    .unwrap();

    let status = git(
        repo.path(),
        &["status", "--porcelain", "--untracked-files=all"],
    );
    let index = std::fs::read(repo.path().join(".git/index")).unwrap();
    let head = git(repo.path(), &["rev-parse", "HEAD"]);

    let run = run_in(&project, &["diff", "--git", "HEAD~1"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    insta::assert_snapshot!("diff_git", run.shown());
    let committed_only = run_in(&project, &["diff", "--git", "HEAD"]);
    assert!(!committed_only.stdout.contains("~ draw_chart"));
    assert!(committed_only.stdout.contains("+ zoom_map: added"));

    assert_eq!(
        git(
            repo.path(),
            &["status", "--porcelain", "--untracked-files=all"]
        ),
        status
    );
    assert_eq!(
        std::fs::read(repo.path().join(".git/index")).unwrap(),
        index
    );
    assert_eq!(git(repo.path(), &["rev-parse", "HEAD"]), head);

    let bad = run_in(&project, &["diff", "--git", "no-such-rev"]);
    assert_eq!(bad.code, 2);
    assert_eq!(
        bad.stderr,
        "error: `no-such-rev` is not a commit of the repository\n"
    );
}

#[test]
fn diff_errors_exit_2() {
    let fixture = Fixture::new();
    let cases: [(&[&str], &str); 3] = [
        (
            &["diff"],
            "error: nothing to compare: give two configs or directories (`discloser diff OLD NEW`), a git revision (`--git REV`) or two profiles (`--profiles A B`)\n",
        ),
        (&["diff", "--git", "HEAD"], ""),
        (&["diff", "--profiles", "default", "chart"], ""),
    ];
    for (args, expected) in cases {
        let run = fixture.run(args);
        assert_eq!(run.code, 2, "{args:?}: {}", run.stdout);
        assert!(run.stdout.is_empty());
        if !expected.is_empty() {
            assert_eq!(run.stderr, expected);
        }
    }
    let run = fixture.run(&["diff", "--profiles", "default", "chart"]);
    assert!(run.stderr.contains("no profile `chart`"), "{}", run.stderr);
    assert!(
        run.stderr.contains("did you mean `charts`?"),
        "{}",
        run.stderr
    );
}
