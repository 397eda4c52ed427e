//! Real tool definitions written by others (`../shared/corpora/`): every file loads and renders
//! deterministically, or fails with a positioned, non-panicking error of an expected kind.
//!
//! Files in shapes the native loader does not read yet (MCP `inputSchema`, LiveMCPBench server
//! lists, BFCL JSON Lines) must fail as `Shape`/`Syntax` errors with a position; the union
//! `tools.json` files that repeat names across catalogs must fail as `Duplicate`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use discloser::diagnostic::ErrorKind;
use discloser::index::{Style, build_index, render};
use discloser::project::Project;

fn corpora() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpora");
    assert!(
        dir.is_dir(),
        "the shared corpora are expected beside the checkout at {} (CI provides them)",
        dir.display()
    );
    dir.canonicalize().unwrap()
}

/// Every JSON/YAML/snap file under the corpora, sorted, except metadata.
fn corpus_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let name = path.file_name().unwrap().to_string_lossy().into_owned();
                let ext = path
                    .extension()
                    .map(|e| e.to_string_lossy().into_owned())
                    .unwrap_or_default();
                let metadata = matches!(name.as_str(), "analysis.json" | "servers_meta.json");
                if !metadata && matches!(ext.as_str(), "json" | "snap" | "yaml" | "yml") {
                    out.push(path);
                }
            }
        }
    }
    out.sort();
    out
}

#[test]
fn every_corpus_file_loads_and_renders_or_fails_clearly() {
    let dir = corpora();
    let files = corpus_files(&dir);
    assert!(files.len() > 200, "found only {} corpus files", files.len());
    let mut loaded_files = 0;
    let mut loaded_tools = 0;
    let mut failures: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for file in &files {
        let rel = file
            .strip_prefix(&dir)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        match Project::from_paths(&[file.to_string_lossy().into_owned()], &dir) {
            Ok(project) => {
                loaded_files += 1;
                loaded_tools += project.catalog.tools.len();
                let profile = project.profile("default").unwrap();
                let index = build_index(&project.catalog, &profile, project.index_config());
                assert_eq!(index.entries.len(), project.catalog.tools.len(), "{rel}");
                for style in [Style::Text, Style::Markdown, Style::Json] {
                    let once = render(&index, style);
                    let again = render(
                        &build_index(&project.catalog, &profile, project.index_config()),
                        style,
                    );
                    assert_eq!(once, again, "{rel}: rendering is not deterministic");
                    assert!(once.ends_with('\n') && !once.ends_with("\n\n"), "{rel}");
                    assert!(
                        once.lines().all(|l| l == l.trim_end()),
                        "{rel}: trailing spaces"
                    );
                }
            }
            Err(e) => {
                assert!(
                    matches!(
                        e.kind,
                        ErrorKind::Duplicate | ErrorKind::Shape | ErrorKind::Syntax
                    ),
                    "{rel}: unexpected error kind {:?}: {e}",
                    e.kind
                );
                assert!(e.position.is_some(), "{rel}: error without a position: {e}");
                assert!(
                    e.to_string()
                        .contains(&*file.file_name().unwrap().to_string_lossy()),
                    "{e}"
                );
                let reason = format!(
                    "{:?}: {}",
                    e.kind,
                    e.message.split('`').next().unwrap_or("")
                );
                failures.entry(reason).or_default().push(rel);
            }
        }
    }
    let failed: usize = failures.values().map(Vec::len).sum();
    eprintln!(
        "corpora: {} files, {loaded_files} loaded ({loaded_tools} tools), {failed} rejected",
        files.len()
    );
    for (reason, files) in &failures {
        eprintln!("  {} x {reason} (e.g. {})", files.len(), files[0]);
    }
    // The per-server catalogs and the single-catalog unions are native-shaped and must load.
    for must in [
        "github-mcp-server/tools.json",
        "mcp-reference-snapshots/tools.json",
    ] {
        assert!(
            !failures.values().flatten().any(|f| f == must),
            "{must} must load"
        );
    }
    assert!(
        !failures
            .values()
            .flatten()
            .any(|f| f.contains("/catalogs/")),
        "every per-server catalog must load"
    );
    assert!(loaded_files >= 98, "only {loaded_files} files loaded");
}

#[test]
fn union_catalogs_with_repeated_names_are_rejected_as_duplicates() {
    let dir = corpora();
    for union in [
        "bfcl/tools.json",
        "docker-mcp-registry/tools.json",
        "livemcpbench/tools.json",
    ] {
        let err = Project::from_paths(&[union.to_owned()], &dir).unwrap_err();
        assert_eq!(err.kind, ErrorKind::Duplicate, "{union}: {err}");
        assert!(
            err.help
                .as_deref()
                .is_some_and(|h| h.contains("first defined at")),
            "{err}"
        );
    }
}
