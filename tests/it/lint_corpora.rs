//! `discloser lint` over every real catalog in `../shared/corpora/`: it never fails to run,
//! its findings are deterministic, and the count of findings per rule and corpus is pinned in a
//! snapshot, so a change to a rule shows up as a reviewed diff of real-world effects.
//!
//! The shared corpora are not in the repository: that test is `#[ignore]`d (`.ci/run` runs it);
//! the same pass runs on every clone over `tests/fixtures/corpus/`, their hand-written miniature.

use std::collections::BTreeMap;
use std::path::Path;

use crate::support::{fixture_corpus, shared_corpora};
use discloser::lint::{Settings, lint};
use discloser::project::{Project, Strictness};

/// Each corpus's union `tools.json` (repeated names become `duplicate-tool-name` findings),
/// and every per-server catalog and raw capture.
fn targets(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for corpus in [
        "bfcl",
        "docker-mcp-registry",
        "github-mcp-server",
        "livemcpbench",
        "mcp-reference-snapshots",
    ] {
        out.push(format!("{corpus}/tools.json"));
        for sub in ["catalogs", "raw", "multi_turn_func_doc"] {
            let folder = dir.join(corpus).join(sub);
            if folder.is_dir() {
                out.push(format!("{corpus}/{sub}"));
            }
        }
    }
    out
}

#[test]
#[ignore = "needs ../shared/corpora beside the checkout (.ci/run runs it)"]
fn lint_runs_on_every_corpus_with_stable_counts() {
    insta::assert_snapshot!("lint_counts", lint_counts(&shared_corpora()));
}

#[test]
fn lint_runs_on_every_fixture_corpus_with_stable_counts() {
    insta::assert_snapshot!("lint_counts_fixture_corpus", lint_counts(&fixture_corpus()));
}

/// One line per target: its tool count and the findings per rule.
fn lint_counts(dir: &Path) -> String {
    let mut table = String::new();
    for target in targets(dir) {
        let project =
            Project::from_paths_with(std::slice::from_ref(&target), dir, Strictness::Lenient)
                .unwrap_or_else(|e| panic!("{target}: lint could not run: {e}"));
        let findings = lint(&project, &Settings::default());
        let again = lint(&project, &Settings::default());
        assert_eq!(findings, again, "{target}: findings are deterministic");
        assert!(
            findings.iter().all(|f| f.line.is_some()),
            "{target}: every finding has a position"
        );
        let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
        for f in &findings {
            *counts.entry(f.rule).or_default() += 1;
        }
        let counts: Vec<String> = counts
            .iter()
            .map(|(rule, n)| format!("{rule}={n}"))
            .collect();
        let counts = if counts.is_empty() {
            "no findings".to_owned()
        } else {
            counts.join(", ")
        };
        table.push_str(&format!(
            "{target}: {} tools; {counts}\n",
            project.catalog.tools.len(),
        ));
    }
    table
}
