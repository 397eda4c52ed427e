//! Real tool definitions written by others (`../shared/corpora/`): every file loads and renders
//! deterministically, or fails with a positioned, non-panicking error of an expected kind.
//!
//! The shared corpora are beside the checkout, not in it: those tests are `#[ignore]`d (`.ci/run`
//! runs them) and fail when the folder is missing. The same checks run on every clone over
//! `tests/fixtures/corpus/`, a hand-written miniature with the same layout and shapes.
//!
//! Every raw file loads in its own format (github-mcp-server `.snap` files, MCP `tools/list`
//! captures, Docker catalog `arguments` lists, BFCL JSON Lines); the only files rejected are the
//! ones that unite several catalogs and so repeat tool names across them (`Duplicate`, naming
//! where the name is first defined): the `tools.json` unions and LiveMCPBench's list of 70
//! servers.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::support::{fixture_corpus, shared_corpora};
use discloser::diagnostic::ErrorKind;
use discloser::index::{Style, build_index, render};
use discloser::project::Project;

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

/// The folder of a corpus file: `github-mcp-server/raw/x.snap` -> `github-mcp-server/raw`.
fn corpus_of(rel: &str) -> String {
    rel.rsplit_once('/').map_or(rel, |(dir, _)| dir).to_owned()
}

#[test]
#[ignore = "needs ../shared/corpora beside the checkout (.ci/run runs it)"]
fn every_corpus_file_loads_and_renders_or_fails_clearly() {
    every_file_loads_and_renders_or_fails_clearly(
        &shared_corpora(),
        200,
        &[
            "bfcl/tools.json",
            "bfcl/tools.variants.json",
            "docker-mcp-registry/tools.json",
            "livemcpbench/raw/tools.json",
            "livemcpbench/tools.json",
        ],
    );
}

#[test]
fn every_fixture_corpus_file_loads_and_renders_or_fails_clearly() {
    every_file_loads_and_renders_or_fails_clearly(
        &fixture_corpus(),
        15,
        &[
            "bfcl/tools.json",
            "livemcpbench/raw/tools.json",
            "livemcpbench/tools.json",
        ],
    );
}

/// Every file under `dir` loads and renders deterministically, except `unions` (sorted), which
/// are rejected as duplicates with a position.
fn every_file_loads_and_renders_or_fails_clearly(dir: &Path, at_least: usize, unions: &[&str]) {
    let dir = dir.canonicalize().unwrap();
    let files = corpus_files(&dir);
    assert!(
        files.len() > at_least,
        "found only {} corpus files",
        files.len()
    );
    let mut loaded_files = 0;
    let mut loaded_tools = 0;
    let mut failures: BTreeMap<String, Vec<String>> = BTreeMap::new();
    // corpus -> (files loaded, tools, files rejected)
    let mut per_corpus: BTreeMap<String, (usize, usize, usize)> = BTreeMap::new();
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
                let corpus = per_corpus.entry(corpus_of(&rel)).or_default();
                corpus.0 += 1;
                corpus.1 += project.catalog.tools.len();
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
                per_corpus.entry(corpus_of(&rel)).or_default().2 += 1;
                failures.entry(reason).or_default().push(rel);
            }
        }
    }
    let failed: usize = failures.values().map(Vec::len).sum();
    eprintln!(
        "corpora: {} files, {loaded_files} loaded ({loaded_tools} tools), {failed} rejected",
        files.len()
    );
    for (corpus, (loaded, tools, rejected)) in &per_corpus {
        eprintln!("  {corpus}: {loaded} loaded ({tools} tools), {rejected} rejected");
    }
    for (reason, files) in &failures {
        eprintln!("  {} x {reason} ({})", files.len(), files.join(", "));
    }
    let rejected: Vec<&str> = failures.values().flatten().map(String::as_str).collect();
    let mut rejected = rejected;
    rejected.sort_unstable();
    assert_eq!(
        rejected, unions,
        "only the unions of several catalogs are rejected"
    );
    assert!(
        failures
            .keys()
            .all(|reason| reason.starts_with("Duplicate")),
        "{failures:?}"
    );
    assert_eq!(loaded_files, files.len() - unions.len());
}

#[test]
#[ignore = "needs ../shared/corpora beside the checkout (.ci/run runs it)"]
fn union_catalogs_with_repeated_names_are_rejected_as_duplicates() {
    unions_are_rejected_as_duplicates(
        &shared_corpora(),
        &[
            "bfcl/tools.json",
            "docker-mcp-registry/tools.json",
            "livemcpbench/tools.json",
            "livemcpbench/raw/tools.json",
        ],
    );
}

#[test]
fn fixture_unions_with_repeated_names_are_rejected_as_duplicates() {
    unions_are_rejected_as_duplicates(
        &fixture_corpus(),
        &[
            "bfcl/tools.json",
            "livemcpbench/tools.json",
            "livemcpbench/raw/tools.json",
        ],
    );
}

fn unions_are_rejected_as_duplicates(dir: &Path, unions: &[&str]) {
    for union in unions {
        let err = Project::from_paths(&[(*union).to_owned()], dir).unwrap_err();
        assert_eq!(err.kind, ErrorKind::Duplicate, "{union}: {err}");
        assert!(
            err.help
                .as_deref()
                .is_some_and(|h| h.contains("first defined at")),
            "{err}"
        );
    }
}

#[test]
#[ignore = "needs ../shared/corpora beside the checkout (.ci/run runs it)"]
fn raw_files_are_read_in_their_own_format() {
    assert_eq!(
        formats_of_raw_files(&shared_corpora()),
        [
            ("bfcl/multi_turn_func_doc", "openai-functions", 162),
            ("docker-mcp-registry/raw", "docker", 293 + 17),
            ("docker-mcp-registry/raw", "mcp", 143),
            ("docker-mcp-registry/raw", "native", 302),
            ("github-mcp-server/raw", "mcp", 117),
            ("mcp-reference-snapshots/raw", "mcp", 83),
        ]
    );
}

#[test]
fn fixture_raw_files_are_read_in_their_own_format() {
    assert_eq!(
        formats_of_raw_files(&fixture_corpus()),
        [
            ("bfcl/multi_turn_func_doc", "openai-functions", 3),
            ("docker-mcp-registry/raw", "docker", 4),
            ("docker-mcp-registry/raw", "mcp", 2),
            ("github-mcp-server/raw", "mcp", 3),
            ("mcp-reference-snapshots/raw", "mcp", 3),
        ]
    );
}

/// (folder, format, tools) of every raw file of each corpus, in order.
fn formats_of_raw_files(dir: &Path) -> Vec<(&'static str, &'static str, usize)> {
    let mut seen: BTreeMap<(&str, &str), usize> = BTreeMap::new();
    for folder in [
        "github-mcp-server/raw",
        "mcp-reference-snapshots/raw",
        "docker-mcp-registry/raw",
        "bfcl/multi_turn_func_doc",
    ] {
        for file in corpus_files(&dir.join(folder)) {
            let project = Project::from_paths(&[file.to_string_lossy().into_owned()], dir)
                .unwrap_or_else(|e| panic!("{e}"));
            for tool in &project.catalog.tools {
                *seen.entry((folder, tool.origin.format.name())).or_default() += 1;
            }
        }
    }
    seen.into_iter()
        .map(|((folder, format), n)| (folder, format, n))
        .collect()
}
