//! Hostile file systems, round two: what is at a path discloser reads or writes is not always a
//! regular file. Writers must write into a device, FIFO or `/proc` link (never replace it) and
//! replace a symlink's target, not the link; globs must not follow directory symlinks; reads
//! must not block on pseudo-files; `snapshot` must own what it prunes, replace its files as a
//! set, and stay inside the project; `$ref` targets that cannot be read are reported at the
//! `$ref`; profile names follow one rule everywhere they are made.
//!
//! Every case runs the real binary in a fresh directory under an address-space limit and a
//! watchdog (the runner of `support::limited`, as in `hostile.rs`): a hang fails the test
//! instead of blocking the run.
//! Cases that need root (`mknod`) say so and check what they can without it.

use std::os::unix::fs::{FileTypeExt as _, PermissionsExt as _};
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::support::limited::{Limited, Project, Run};

/// The address space a run may use (the review's bound).
const ADDRESS_SPACE: u64 = 4 << 30;

/// A run still going after this long is a hang (a loop of symlinks, a blocking read).
const WATCHDOG: Duration = Duration::from_secs(60);

/// The bounds of every run.
const LIMITS: Limited = Limited::new()
    .address_space(ADDRESS_SPACE)
    .watchdog(WATCHDOG);

const TOOL: &str = "name: draw_chart\ndescription: Draw a chart from rows.\nparameters:\n  type: object\n  properties:\n    kind: {type: string}\n";

fn run(dir: &(impl AsRef<Path> + ?Sized), args: &[&str]) -> Run {
    LIMITS.run(dir, args)
}

/// A project: `discloser.yaml` with `config`, and one tool at `tools/chart.yaml`.
fn project(config: &str) -> Project {
    Project::new(&[
        ("discloser.yaml", config.as_bytes()),
        ("tools/chart.yaml", TOOL.as_bytes()),
    ])
}

fn kind(path: &Path) -> &'static str {
    let Ok(meta) = std::fs::symlink_metadata(path) else {
        return "missing";
    };
    let t = meta.file_type();
    if t.is_symlink() {
        "symlink"
    } else if t.is_file() {
        "file"
    } else if t.is_dir() {
        "directory"
    } else if t.is_char_device() {
        "char device"
    } else if t.is_fifo() {
        "fifo"
    } else {
        "other"
    }
}

/// Makes a character device like `/dev/<name>` at `path`; `false` when not allowed (not root).
fn mknod(path: &Path, major: u32, minor: u32) -> bool {
    let c = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).expect("no NUL");
    // SAFETY: a valid C string and plain integers.
    let made = unsafe {
        libc::mknod(
            c.as_ptr(),
            libc::S_IFCHR | 0o666,
            libc::makedev(major, minor),
        )
    };
    if made != 0 {
        eprintln!(
            "skipped: mknod `{}`: {} (needs root)",
            path.display(),
            std::io::Error::last_os_error()
        );
    }
    made == 0
}

fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).expect("no NUL");
    // SAFETY: a valid C string.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0, "mkfifo");
}

const CONFIG: &str = "sources:\n  - tools\n";

/// The writers of a file the user names, with `{}` for the path.
fn writers(out: &str) -> Vec<Vec<String>> {
    let svg = format!("{out}.svg");
    [
        vec!["render", "--out", out],
        vec!["export", "--provider", "openai", "--out", out],
        vec!["import", "tools/chart.yaml", "--force", "--out", out],
        vec!["cost", "--chart", &svg],
    ]
    .into_iter()
    .map(|args| args.into_iter().map(str::to_owned).collect())
    .collect()
}

fn args(words: &[String]) -> Vec<&str> {
    words.iter().map(String::as_str).collect()
}

/// Regression: `render --out devs/null` (as root) replaced the device with a regular file.
#[test]
fn writers_write_into_a_device_and_leave_it_a_device() {
    let dir = project(CONFIG);
    std::fs::create_dir(dir.path().join("devs")).expect("mkdir");
    for (name, minor) in [("null", 3), ("null.svg", 3)] {
        if !mknod(&dir.path().join("devs").join(name), 1, minor) {
            return;
        }
    }
    for writer in writers("devs/null") {
        let run = run(dir.path(), &args(&writer));
        run.expect_code(0);
        for name in ["null", "null.svg"] {
            assert_eq!(
                kind(&dir.path().join("devs").join(name)),
                "char device",
                "{writer:?}"
            );
        }
    }
}

/// Regression: `render --out /dev/full` exited 0 (the device was replaced, `ENOSPC` never seen).
#[test]
fn a_full_device_is_reported_by_every_writer() {
    let dir = project(CONFIG);
    std::fs::create_dir(dir.path().join("devs")).expect("mkdir");
    for name in ["full", "full.svg"] {
        if !mknod(&dir.path().join("devs").join(name), 1, 7) {
            return;
        }
    }
    for writer in writers("devs/full") {
        let run = run(dir.path(), &args(&writer));
        run.expect_error(&["cannot write", "devs/full", "No space left on device"]);
        assert_eq!(
            kind(&dir.path().join("devs/full")),
            "char device",
            "{writer:?}"
        );
    }
}

/// Regression: `render --out /dev/stdout` replaced the `/dev/stdout` symlink and printed
/// nothing. A link into `/proc/self/fd` is written through, to whatever stdout is.
#[test]
fn a_link_to_standard_output_prints_and_stays_a_link() {
    let dir = project(CONFIG);
    std::os::unix::fs::symlink("/proc/self/fd/1", dir.path().join("stdout")).expect("symlink");
    let expected = run(dir.path(), &["render"]).expect_code(0).stdout.clone();
    let through_link = run(dir.path(), &["render", "--out", "stdout"]);
    through_link.expect_code(0);
    assert_eq!(through_link.stdout, expected);
    assert_eq!(kind(&dir.path().join("stdout")), "symlink");
    // `-` is standard output too, for every `--out`.
    let dash = run(dir.path(), &["render", "--out", "-"]);
    dash.expect_code(0);
    assert_eq!(dash.stdout, expected);
    assert_eq!(kind(&dir.path().join("-")), "missing");
    for words in [
        vec!["export", "--provider", "openai", "--out", "-"],
        vec!["import", "tools/chart.yaml", "--out", "-"],
    ] {
        let plain = run(dir.path(), &words[..words.len() - 2]);
        let run = run(dir.path(), &words);
        run.expect_code(0);
        assert_eq!(run.stdout, plain.expect_code(0).stdout, "{words:?}");
        assert!(!run.stdout.is_empty(), "{words:?}");
        assert_eq!(kind(&dir.path().join("-")), "missing");
    }
}

/// A symlink to a regular file: the target is replaced (atomically) and the link stays; a link
/// to nothing creates its target.
#[test]
fn a_symlink_is_written_through_to_its_target() {
    let dir = project(CONFIG);
    let expected = run(dir.path(), &["render"]).expect_code(0).stdout.clone();
    dir.write("out/real.txt", "old\n");
    std::os::unix::fs::symlink("out/real.txt", dir.path().join("link.txt")).expect("symlink");
    std::os::unix::fs::symlink("out/new.txt", dir.path().join("dangling.txt")).expect("symlink");
    std::fs::set_permissions(
        dir.path().join("out/real.txt"),
        std::fs::Permissions::from_mode(0o640),
    )
    .expect("chmod");
    for link in ["link.txt", "dangling.txt"] {
        run(dir.path(), &["render", "--out", link]).expect_code(0);
        assert_eq!(kind(&dir.path().join(link)), "symlink", "{link}");
    }
    for target in ["out/real.txt", "out/new.txt"] {
        let text = std::fs::read_to_string(dir.path().join(target)).expect("read");
        assert_eq!(text, expected, "{target}");
    }
    let mode = std::fs::metadata(dir.path().join("out/real.txt"))
        .expect("metadata")
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o640, "the target keeps its mode");
    // A directory is refused, and left a directory.
    std::fs::create_dir(dir.path().join("folder")).expect("mkdir");
    run(dir.path(), &["render", "--out", "folder"]).expect_error(&["cannot write", "folder"]);
    assert_eq!(kind(&dir.path().join("folder")), "directory");
}

/// A FIFO is written into, for whoever reads it; it stays a FIFO.
#[test]
fn a_fifo_is_written_into_not_replaced() {
    let dir = project(CONFIG);
    let expected = run(dir.path(), &["render"]).expect_code(0).stdout.clone();
    let fifo = dir.path().join("pipe");
    mkfifo(&fifo);
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).expect("read the FIFO"))
    };
    run(dir.path(), &["render", "--out", "pipe"]).expect_code(0);
    // Checked before joining: a FIFO replaced by a file would leave the reader waiting forever.
    assert_eq!(kind(&fifo), "fifo");
    assert_eq!(reader.join().expect("the reader"), expected);
}

/// The tools of `tools` as `name file` lines.
fn tool_files(dir: &Path, config: &str) -> Run {
    run(dir, &["--config", config, "tools", "--format", "json"])
}

fn files_of(run: &Run) -> Vec<String> {
    let tools: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON");
    let mut files: Vec<String> = tools
        .as_array()
        .expect("a list of tools")
        .iter()
        .map(|t| {
            let source = t["source"].as_str().expect("a source");
            source.split(':').next().unwrap_or_default().to_owned()
        })
        .collect();
    files.sort();
    files
}

/// Regression: `ln -s . tools/l1; ln -s . tools/l2` with `tools/**/*.yaml` ran forever (2^40
/// paths), and one loop named sources `tools/l1/l1/…` 40 levels deep.
#[test]
fn double_star_does_not_follow_directory_symlinks() {
    let dir = project("sources:\n  - \"tools/**/*.yaml\"\n");
    dir.write(
        "tools/deeper/more/other.yaml",
        TOOL.replace("draw_chart", "other_tool"),
    );
    std::os::unix::fs::symlink(".", dir.path().join("tools/l1")).expect("symlink");
    let one = tool_files(dir.path(), "discloser.yaml");
    one.expect_code(0);
    assert_eq!(
        files_of(&one),
        ["tools/chart.yaml", "tools/deeper/more/other.yaml"]
    );
    std::os::unix::fs::symlink(".", dir.path().join("tools/l2")).expect("symlink");
    std::os::unix::fs::symlink("..", dir.path().join("tools/deeper/up")).expect("symlink");
    let loops = tool_files(dir.path(), "discloser.yaml");
    loops.expect_code(0);
    assert_eq!(
        files_of(&loops),
        ["tools/chart.yaml", "tools/deeper/more/other.yaml"]
    );
    // `*` does not cross into a symlinked directory either.
    dir.write("star.yaml", "sources:\n  - \"tools/*/*.yaml\"\n");
    let star = run(dir.path(), &["--config", "star.yaml", "tools"]);
    star.expect_error(&["matches no file"]);
}

/// Regression: a glob over a directory holding a link like `/usr/bin/X11 -> .` never returned.
#[test]
fn a_glob_over_a_self_link_like_x11_returns() {
    let dir = project("sources:\n  - \"bin/**/*.yaml\"\n");
    dir.write("bin/chart.yaml", TOOL);
    std::os::unix::fs::symlink(".", dir.path().join("bin/X11")).expect("symlink");
    let run = tool_files(dir.path(), "discloser.yaml");
    run.expect_code(0);
    assert_eq!(files_of(&run), ["bin/chart.yaml"]);
    // A link to a file is still read when a glob matches it.
    std::os::unix::fs::symlink("chart.yaml", dir.path().join("bin/alias.yaml")).expect("symlink");
    let run = tool_files(dir.path(), "discloser.yaml");
    run.expect_code(0);
    assert_eq!(files_of(&run).len(), 1, "the same file, loaded once");
}

/// Regression: a source or `--config` that is `/proc/kmsg` (or a link to it) waited forever,
/// consuming the kernel's log as root. Zero-sized pseudo-files are refused before a read.
#[test]
fn pseudo_files_of_proc_are_refused_not_read() {
    let dir = project(CONFIG);
    for target in [
        "/proc/kmsg",
        "/proc/self/status",
        "/sys/kernel/uevent_seqnum",
    ] {
        if !Path::new(target).exists() {
            eprintln!("skipped: no `{target}`");
            continue;
        }
        let link = dir.path().join("tools/pseudo.yaml");
        let _ = std::fs::remove_file(&link);
        std::os::unix::fs::symlink(target, &link).expect("symlink");
        run(dir.path(), &["render"]).expect_error(&["tools/pseudo.yaml", "pseudo-file"]);
        dir.write("direct.yaml", format!("sources:\n  - {target}\n"));
        run(dir.path(), &["--config", "direct.yaml", "render"])
            .expect_error(&[target, "pseudo-file"]);
        run(dir.path(), &["--config", target, "render"]).expect_error(&[target, "pseudo-file"]);
        std::fs::remove_file(&link).expect("remove the link");
    }
}

/// A FIFO given as `--config` is refused at once (opened without blocking, typed by `fstat`).
#[test]
fn a_fifo_config_is_refused_not_waited_for() {
    let dir = project(CONFIG);
    mkfifo(&dir.path().join("fifo.yaml"));
    run(dir.path(), &["--config", "fifo.yaml", "render"])
        .expect_error(&["fifo.yaml", "not a regular file"]);
}

/// Regression: `snapshot --dir . --prune` removed `website/index.txt` and its folder.
#[test]
fn prune_never_removes_files_outside_a_snapshot_folder() {
    let dir = project(CONFIG);
    dir.write("website/index.txt", "<html>\n");
    let run1 = run(dir.path(), &["snapshot", "--dir", ".", "--prune"]);
    run1.expect_error(&["refusing to prune", ".discloser-snapshots"]);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("website/index.txt")).expect("kept"),
        "<html>\n"
    );
    assert_eq!(
        kind(&dir.path().join("default")),
        "missing",
        "nothing written"
    );
    // A folder discloser created is its own: pruning there works.
    run(dir.path(), &["snapshot"]).expect_code(0);
    dir.write("snapshots/retired/index.txt", "old\n");
    let pruned = run(dir.path(), &["snapshot", "--prune"]);
    pruned.expect_code(0);
    assert!(
        pruned
            .stdout
            .contains("removed snapshots/retired/index.txt"),
        "{}",
        pruned.stdout
    );
    assert_eq!(kind(&dir.path().join("snapshots/retired")), "missing");
    assert_eq!(
        kind(&dir.path().join("snapshots/.discloser-snapshots")),
        "file"
    );
}

/// Regression: on a full disk midway, `index.txt` was new and `tools.raw.jsonl` old. Every file
/// is staged before any is renamed, so a failure leaves the whole old set and no temporary file.
#[test]
fn a_snapshot_failing_midway_leaves_the_whole_old_set() {
    let dir = project("sources:\n  - tools\nprofiles:\n  default:\n    starter: [draw_chart]\n");
    run(dir.path(), &["snapshot"]).expect_code(0);
    let files = [
        "snapshots/default/index.txt",
        "snapshots/default/tools.raw.jsonl",
    ];
    let read = |f: &str| std::fs::read(dir.path().join(f)).expect("read a snapshot file");
    let old: Vec<Vec<u8>> = files.iter().map(|f| read(f)).collect();
    // A longer description changes both files; the index (short) fits under the limit, the
    // definitions (long) do not.
    let long = "Draw a chart from rows. ".to_owned() + &"It plots bars and lines. ".repeat(60);
    dir.write(
        "tools/chart.yaml",
        TOOL.replace("Draw a chart from rows.", &long),
    );
    dir.write("tools/other.yaml", TOOL.replace("draw_chart", "other_tool"));
    let run = LIMITS
        .file_size(1024)
        .ignore_sigxfsz()
        .run(&dir, &["snapshot"]);
    run.expect_error(&["cannot write"]);
    let new: Vec<Vec<u8>> = files.iter().map(|f| read(f)).collect();
    assert_eq!(new, old, "every old file is left");
    let leftovers: Vec<PathBuf> = std::fs::read_dir(dir.path().join("snapshots/default"))
        .expect("list")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.to_string_lossy().contains(".discloser-"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    // Without the limit the same run writes both.
    LIMITS.run(&dir, &["snapshot"]).expect_code(0);
    assert_ne!(read(files[0]), old[0]);
    assert_ne!(read(files[1]), old[1]);
}

/// Regression: with `snapshots/default -> /outside`, `snapshot` wrote there and exited 0.
#[test]
fn snapshot_refuses_symlinks_that_leave_the_project() {
    let outside = tempfile::tempdir().expect("a directory outside the project");
    for link in ["snapshots/default", "snapshots"] {
        let dir = project(CONFIG);
        let at = dir.path().join(link);
        std::fs::create_dir_all(at.parent().expect("a parent")).expect("mkdir");
        std::os::unix::fs::symlink(outside.path(), &at).expect("symlink");
        let run = run(dir.path(), &["snapshot"]);
        run.expect_error(&["refusing to write", "symbolic link", "snapshots/"]);
        let written: Vec<_> = std::fs::read_dir(outside.path()).expect("list").collect();
        assert!(written.is_empty(), "{link}: wrote outside: {written:?}");
    }
    // A file inside that is a link out of the project, or to nothing, is refused too.
    let dir = project(CONFIG);
    run(dir.path(), &["snapshot"]).expect_code(0);
    let index = dir.path().join("snapshots/default/index.txt");
    std::fs::remove_file(&index).expect("remove");
    std::os::unix::fs::symlink(outside.path().join("index.txt"), &index).expect("symlink");
    run(dir.path(), &["snapshot"]).expect_error(&["refusing to write", "index.txt"]);
    assert_eq!(kind(&outside.path().join("index.txt")), "missing");
    // A link that stays inside the project is fine.
    let dir = project("sources:\n  - tools\nsnapshots:\n  dir: snaps\n");
    std::fs::create_dir_all(dir.path().join("build/snaps")).expect("mkdir");
    std::os::unix::fs::symlink("build/snaps", dir.path().join("snaps")).expect("symlink");
    run(dir.path(), &["snapshot"]).expect_code(0);
    assert_eq!(
        kind(&dir.path().join("build/snaps/default/index.txt")),
        "file"
    );
}

/// Regression: a source glob that also matched the snapshot folder made every command fail
/// after one `snapshot` ("duplicate tool name … snapshots/default/tools.mcp.jsonl").
#[test]
fn source_globs_skip_the_snapshot_folder() {
    let dir = Project::new(&[]);
    dir.write("tools/t.jsonl",
        "{\"name\":\"draw_chart\",\"description\":\"Draw a chart from rows.\",\"inputSchema\":{\"type\":\"object\",\"properties\":{\"kind\":{\"type\":\"string\"}}}}\n",
    );
    dir.write(
        "discloser.yaml",
        "sources:\n  - \"**/*.jsonl\"\nprofiles:\n  default:\n    starter: [draw_chart]\n",
    );
    run(dir.path(), &["render"]).expect_code(0);
    run(
        dir.path(),
        &["snapshot", "--provider", "mcp", "--provider", "raw"],
    )
    .expect_code(0);
    for command in ["render", "lint", "check"] {
        let run = run(dir.path(), &[command]);
        run.expect_code(0);
    }
    // A glob that reaches nothing but the snapshot folder says why it matches nothing.
    dir.write("only.yaml", "sources:\n  - \"snapshots/**/*.jsonl\"\n");
    run(dir.path(), &["--config", "only.yaml", "render"])
        .expect_error(&["matches no file", "snapshot folder"]);
}

const REF_TOOL: &str = "name: referring\ndescription: Refers to a schema file.\nparameters:\n  type: object\n  properties:\n    x: {$ref: '../schemas/schema.json'}\n";

/// Regression: a `$ref` to a FIFO, device or socket said "does not exist"; one to a file over
/// 64 MiB named the file but not where the `$ref` is.
#[test]
fn unreadable_ref_targets_say_what_they_are_and_where_the_ref_is() {
    let dir = project(CONFIG);
    dir.write("tools/chart.yaml", REF_TOOL);
    std::fs::create_dir(dir.path().join("schemas")).expect("mkdir");
    let schema = dir.path().join("schemas/schema.json");
    mkfifo(&schema);
    run(dir.path(), &["render"]).expect_error(&[
        "tools/chart.yaml:6:",
        "`$ref` target",
        "not a regular file",
    ]);
    std::fs::remove_file(&schema).expect("remove");
    let socket = std::os::unix::net::UnixListener::bind(&schema).expect("bind a socket");
    run(dir.path(), &["render"]).expect_error(&[
        "tools/chart.yaml:6:",
        "`$ref` target",
        "not a regular file",
    ]);
    drop(socket);
    std::fs::remove_file(&schema).expect("remove");
    // Sparse: 65 MiB that take no disk space.
    let big = std::fs::File::create(&schema).expect("create");
    big.set_len(65 * 1024 * 1024).expect("set the length");
    run(dir.path(), &["render"]).expect_error(&[
        "tools/chart.yaml:6:",
        "`$ref` target",
        "schema.json",
        "MiB",
    ]);
}

/// Regression: `suggest --write-profile` accepted a 300-character name that `snapshot` could
/// not use as a folder. One rule checks names where they are made and in the config.
#[test]
fn a_profile_name_too_long_for_a_folder_is_refused_everywhere() {
    let long = "p".repeat(300);
    let dir = project(&format!(
        "sources:\n  - tools\nprofiles:\n  {long}:\n    starter: [draw_chart]\n"
    ));
    for command in ["render", "snapshot"] {
        run(dir.path(), &[command]).expect_error(&[
            "discloser.yaml:4:3",
            "cannot name a snapshot folder",
            "300 bytes",
        ]);
    }
    assert_eq!(kind(&dir.path().join("snapshots")), "missing");
    // The bundled example, whose tools the trace fixture calls.
    let example = tempfile::tempdir().expect("a temporary directory");
    let root = crate::support::root();
    std::fs::copy(
        root.join("discloser.yaml"),
        example.path().join("discloser.yaml"),
    )
    .expect("copy");
    std::fs::create_dir(example.path().join("tools")).expect("mkdir");
    for entry in std::fs::read_dir(root.join("tools")).expect("list") {
        let path = entry.expect("entry").path();
        std::fs::copy(
            &path,
            example
                .path()
                .join("tools")
                .join(path.file_name().expect("a name")),
        )
        .expect("copy");
    }
    let trace = root.join("tests/fixtures/runtime/trace.jsonl");
    let before = std::fs::read(example.path().join("discloser.yaml")).expect("read");
    let run = run(
        example.path(),
        &[
            "suggest",
            "--trace",
            trace.to_str().expect("UTF-8"),
            "--write-profile",
            &long,
            "--force",
        ],
    );
    run.expect_error(&["cannot be a profile name", "300 bytes"]);
    assert_eq!(
        std::fs::read(example.path().join("discloser.yaml")).expect("read"),
        before
    );
}
