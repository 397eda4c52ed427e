//! `discloser lint`: one fixture per rule with a snapshot of its findings, every output format
//! on the same findings, registry meta-tests (codes unique and sorted, docs in the four-heading
//! template, every rule has a fixture, each doc's Example fires and its Use instead does not,
//! the README's rule table equals the registry), SARIF validated against the SARIF 2.1.0 JSON
//! schema, and the bundled example linting clean.

use crate::support::root;
use std::path::PathBuf;
use std::process::Command;

use discloser::lint::report::{Format, render};
use discloser::lint::{Finding, RULES, Rule, Settings, lint};
use discloser::project::{Project, Strictness};

fn fixtures() -> PathBuf {
    root().join("tests/fixtures/lint")
}

/// Lints a project made of a tools file and an optional config body, in a temp dir.
fn lint_texts(tools: &str, config: &str) -> Vec<Finding> {
    lint_loaded(tools, config, |_| Settings::default())
}

/// [`lint_texts`] with the settings of the config's `lint:` section.
fn lint_configured(tools: &str, config: &str) -> Vec<Finding> {
    lint_loaded(tools, config, |project| {
        Settings::from_config(&project.config.lint).unwrap()
    })
}

fn lint_loaded(tools: &str, config: &str, settings: impl Fn(&Project) -> Settings) -> Vec<Finding> {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("tools.yaml"), tools).unwrap();
    std::fs::write(
        tmp.path().join("discloser.yaml"),
        format!("sources: [tools.yaml]\n{config}"),
    )
    .unwrap();
    let project = Project::load_with(&tmp.path().join("discloser.yaml"), Strictness::Lenient)
        .unwrap_or_else(|e| panic!("fixture loads: {e}\n{tools}\n{config}"));
    lint(&project, &settings(&project))
}

/// The fixture of a rule: `tests/fixtures/lint/<name>/tools.yaml` (+ optional `config.yaml`),
/// good and bad tools side by side.
fn rule_fixture(rule: &Rule) -> (PathBuf, String, String) {
    let dir = fixtures().join(rule.name);
    let tools = std::fs::read_to_string(dir.join("tools.yaml"))
        .unwrap_or_else(|_| panic!("rule {} has no fixture in {}", rule.code, dir.display()));
    let config = std::fs::read_to_string(dir.join("config.yaml")).unwrap_or_default();
    (dir, tools, config)
}

fn concise(findings: &[Finding]) -> String {
    findings
        .iter()
        .map(|f| {
            format!(
                "{}:{}: {} {} `{}` {}",
                f.line.unwrap_or(0),
                f.column.unwrap_or(0),
                f.code,
                f.severity.as_str(),
                f.tool.as_deref().unwrap_or("-"),
                f.message
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn one_fixture_and_snapshot_per_rule() {
    for rule in RULES {
        let (_, tools, config) = rule_fixture(rule);
        let findings: Vec<Finding> = lint_texts(&tools, &config)
            .into_iter()
            .filter(|f| f.code == rule.code)
            .collect();
        assert!(
            !findings.is_empty(),
            "{}: its fixture's bad tools raise nothing",
            rule.name
        );
        // Good tools are named `good_*` in fixtures: they must never be flagged by their rule.
        for f in &findings {
            assert!(
                !f.tool.as_deref().unwrap_or("").starts_with("good"),
                "{}: flagged a good tool: {}",
                rule.name,
                f.message
            );
        }
        insta::assert_snapshot!(format!("rule.{}", rule.name), concise(&findings));
    }
}

#[test]
fn registry_codes_are_unique_sorted_and_documented() {
    let codes: Vec<&str> = RULES.iter().map(|r| r.code).collect();
    let mut sorted = codes.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(codes, sorted, "codes unique and sorted");
    let mut names: Vec<&str> = RULES.iter().map(|r| r.name).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), RULES.len(), "names unique");
    for rule in RULES {
        assert!(
            rule.code.starts_with("DL") && rule.code.len() == 5,
            "{}",
            rule.code
        );
        assert!(
            rule.name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c == '-'),
            "{} is kebab-case",
            rule.name
        );
        let docs = rule.doc_text();
        let headings: Vec<&str> = docs.lines().filter(|l| l.starts_with("## ")).collect();
        assert_eq!(
            headings,
            [
                "## What it does",
                "## Why is this bad?",
                "## Example",
                "## Use instead"
            ],
            "{}",
            rule.name
        );
        assert!(!rule.summary().is_empty());
    }
}

/// The ```yaml tools``` and ```yaml config``` blocks of a doc section.
fn doc_blocks(rule: &Rule, section: &str) -> (String, String) {
    let docs = rule.doc_text();
    let start = docs
        .find(section)
        .unwrap_or_else(|| panic!("{}: no {section}", rule.name));
    let rest = &docs[start + section.len()..];
    let rest = &rest[..rest.find("\n## ").unwrap_or(rest.len())];
    let block = |kind: &str| {
        let open = format!("```yaml {kind}\n");
        rest.find(&open).map_or_else(String::new, |i| {
            let body = &rest[i + open.len()..];
            body[..body.find("```").expect("closed block")].to_owned()
        })
    };
    (block("tools"), block("config"))
}

#[test]
fn each_docs_example_fires_and_its_use_instead_does_not() {
    for rule in RULES {
        let (tools, config) = doc_blocks(rule, "## Example");
        assert!(
            !tools.is_empty(),
            "{}: Example has no ```yaml tools``` block",
            rule.name
        );
        let fired = lint_texts(&tools, &config);
        assert!(
            fired.iter().any(|f| f.code == rule.code),
            "{}: Example does not fire: {}",
            rule.name,
            concise(&fired)
        );
        let (tools, config) = doc_blocks(rule, "## Use instead");
        let clean = lint_texts(&tools, &config);
        assert!(
            !clean.iter().any(|f| f.code == rule.code),
            "{}: Use instead fires: {}",
            rule.name,
            concise(&clean)
        );
    }
}

#[test]
fn readme_rule_table_equals_the_registry() {
    let path = "docs/rules/README.md";
    let readme = std::fs::read_to_string(root().join(path)).unwrap();
    let rows: Vec<String> = readme
        .lines()
        .filter(|l| l.starts_with("| DL"))
        .map(|l| {
            l.split('|')
                .map(str::trim)
                .filter(|c| !c.is_empty())
                .take(3)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    let expected: Vec<String> = RULES
        .iter()
        .map(|r| {
            let (code, name) = (r.code, r.name);
            format!(
                "{code} [`{name}`]({code}-{name}.md) {}",
                r.severity.as_str()
            )
        })
        .collect();
    assert_eq!(
        rows, expected,
        "{path}'s rule table (| CODE | [`name`](CODE-name.md) | severity | ...) must list the registry in order"
    );
}

/// `docs/rules/<CODE>-<name>.md` is a `# CODE name` line, a blank line, then exactly what
/// `discloser lint --explain CODE` prints, for every rule of the registry and nothing else.
/// `DISCLOSER_BLESS_DOCS=1` rewrites the pages (and removes those of rules that are gone),
/// except in CI.
#[test]
fn rule_docs_pages_equal_the_explain_text() {
    let dir = root().join("docs/rules");
    let blessing = std::env::var_os("DISCLOSER_BLESS_DOCS").is_some_and(|v| v == "1");
    let bless = blessing && std::env::var_os("CI").is_none();
    let mut pages = Vec::new();
    let mut stale = Vec::new();
    for rule in RULES {
        let out = Command::new(env!("CARGO_BIN_EXE_discloser"))
            .args(["lint", "--explain", rule.code])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "--explain {}: {}",
            rule.code,
            String::from_utf8_lossy(&out.stderr)
        );
        let explain = String::from_utf8(out.stdout).expect("UTF-8");
        let page = format!("# {} {}\n\n{explain}", rule.code, rule.name);
        let file = format!("{}-{}.md", rule.code, rule.name);
        if std::fs::read_to_string(dir.join(&file)).ok().as_deref() != Some(page.as_str()) {
            if bless {
                std::fs::create_dir_all(&dir).unwrap();
                std::fs::write(dir.join(&file), page).unwrap();
            } else {
                stale.push(file.clone());
            }
        }
        pages.push(file);
    }
    for entry in std::fs::read_dir(&dir).unwrap() {
        let file = entry.unwrap().file_name().to_string_lossy().into_owned();
        if file.starts_with("DL") && file.ends_with(".md") && !pages.contains(&file) {
            if bless {
                std::fs::remove_file(dir.join(&file)).unwrap();
            } else {
                stale.push(format!("{file} (no such rule)"));
            }
        }
    }
    let ci = if blessing {
        " (CI is set: pages are never written in CI)"
    } else {
        ""
    };
    assert!(
        stale.is_empty(),
        "docs/rules/ does not match `discloser lint --explain`: {}{ci}; regenerate the pages with \
         `DISCLOSER_BLESS_DOCS=1 cargo test --test lint docs` and review the diff",
        stale.join(", ")
    );
}

fn mixed_findings() -> Vec<Finding> {
    let tools = std::fs::read_to_string(fixtures().join("formats/tools.yaml")).unwrap();
    lint_texts(&tools, "profiles:\n  default:\n    starter: [nope]\n")
}

#[test]
fn every_output_format_is_snapshotted() {
    let findings = mixed_findings();
    assert!(findings.len() >= 3);
    for (format, name) in [
        (Format::Full, "full"),
        (Format::Concise, "concise"),
        (Format::Json, "json"),
        (Format::Github, "github"),
        (Format::Sarif, "sarif"),
    ] {
        let text = render(&findings, format, false);
        // Temp dir paths differ per run: make them stable for the snapshot.
        let text = text.replace(&findings_dir(&findings), "<tmp>");
        insta::assert_snapshot!(format!("format.{name}"), text);
    }
}

fn findings_dir(findings: &[Finding]) -> String {
    findings[0]
        .path
        .parent()
        .map(|p| p.display().to_string())
        .unwrap_or_default()
}

#[test]
fn sarif_validates_against_the_sarif_2_1_0_schema() {
    // The official schema (tests/fixtures/lint/sarif-schema-2.1.0.json, from npm
    // @microsoft/jest-sarif 1.0.0-beta.0, MIT) has one pattern, for `run.language`, with a stray
    // `]` that ECMAScript tolerates and Rust's regex does not; it is corrected here (discloser
    // emits no `language`). Everything else is validated as published.
    let text = std::fs::read_to_string(fixtures().join("sarif-schema-2.1.0.json")).unwrap();
    let text = text.replace(
        r#"^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$"#,
        r#"^[a-zA-Z]{2}(-[a-zA-Z]{2})?$"#,
    );
    let schema: serde_json::Value = serde_json::from_str(&text).unwrap();
    let validator = jsonschema::validator_for(&schema).expect("the SARIF schema compiles");
    let (_, tools, config) =
        rule_fixture(discloser::lint::rules::find("unsorted-triggers").unwrap());
    let with_fixes = lint_texts(&tools, &config);
    assert!(with_fixes.iter().any(|f| !f.fixes.is_empty()));
    for findings in [mixed_findings(), with_fixes, Vec::new()] {
        let sarif: serde_json::Value =
            serde_json::from_str(&render(&findings, Format::Sarif, false)).unwrap();
        let errors: Vec<String> = validator
            .iter_errors(&sarif)
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{errors:#?}");
        assert_eq!(
            sarif["runs"][0]["results"].as_array().unwrap().len(),
            findings.len()
        );
        let fixes = sarif["runs"][0]["results"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r.get("fixes").is_some())
            .count();
        assert_eq!(
            fixes,
            findings.iter().filter(|f| !f.fixes.is_empty()).count()
        );
    }
}

#[test]
fn bundled_example_lints_clean() {
    let out = Command::new(env!("CARGO_BIN_EXE_discloser"))
        .args(["lint", "--deny", "warnings"])
        .current_dir(root())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(stdout, "All checks passed.\n");
}

#[test]
fn exit_codes_selection_and_explain() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::write(dir.join("tools.yaml"), "- name: a\n  triggers: ['']\n  description: Does a.\n- name: b\n  triggers: [b]\n  description: A first sentence that is far too long for the summary budget of this tiny index configuration here.\n").unwrap();
    std::fs::write(
        dir.join("discloser.yaml"),
        "sources: [tools.yaml]\nindex: {summary_budget: 40}\n",
    )
    .unwrap();
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_discloser"))
            .args(args)
            .current_dir(dir)
            .output()
            .unwrap()
    };
    let code = |args: &[&str]| run(args).status.code();
    assert_eq!(code(&["lint"]), Some(1), "missing-triggers is an error");
    assert_eq!(
        code(&["lint", "--ignore", "missing-triggers"]),
        Some(0),
        "only a warning left"
    );
    assert_eq!(
        code(&["lint", "--ignore", "DL001", "--deny", "warnings"]),
        Some(1)
    );
    assert_eq!(code(&["lint", "--select", "DL003"]), Some(0));
    assert_eq!(code(&["lint", "--select", "nope"]), Some(2));
    let explain = run(&["lint", "--explain", "untyped-enum"]);
    assert!(String::from_utf8_lossy(&explain.stdout).contains("## Use instead"));
    // Config severity and per-tool suppression.
    std::fs::write(dir.join("discloser.yaml"), "sources: [tools.yaml]\nindex: {summary_budget: 40}\nlint: {severity: {missing-triggers: warning}}\n").unwrap();
    assert_eq!(code(&["lint"]), Some(0));
    std::fs::write(
        dir.join("discloser.yaml"),
        "sources: [tools.yaml]\noverrides: {a: {lint_ignore: [DL001]}}\n",
    )
    .unwrap();
    let out = run(&["lint", "--format", "concise"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    std::fs::write(
        dir.join("discloser.yaml"),
        "sources: [tools.yaml]\nlint: {ignore: [no-such-rule]}\n",
    )
    .unwrap();
    assert_eq!(code(&["lint"]), Some(2));
}

#[test]
fn findings_are_sorted_and_deterministic() {
    let a = mixed_findings();
    let b = mixed_findings();
    assert_eq!(concise(&a), concise(&b));
    let keys: Vec<_> = a
        .iter()
        .map(|f| (f.path.clone(), f.line, f.column, f.code))
        .collect();
    let mut sorted = keys.clone();
    sorted.sort();
    assert_eq!(keys, sorted);
}

/// A description cut by a client's limit is checked only at the limits a project names: the
/// blind review agreed with half of the findings at OpenAI's and Claude Code's limits.
#[test]
fn description_limits_are_checked_only_when_configured() {
    let tools = std::fs::read_to_string(fixtures().join("mid-sentence-cut/tools.yaml")).unwrap();
    let cut = |config: &str| {
        lint_configured(&tools, config)
            .into_iter()
            .filter(|f| f.message.contains("a client that cuts at"))
            .map(|f| f.tool.unwrap_or_default())
            .collect::<Vec<_>>()
    };
    assert_eq!(cut(""), Vec::<String>::new());
    assert_eq!(
        cut("lint: {description_limits: [1024]}\n"),
        ["bad_openai_cut"]
    );
}

/// `lint.require_triggers` asks every tool of the index for trigger words: the bare one is
/// flagged with it, not without it; a core tool never.
#[test]
fn require_triggers_flags_every_tool_of_the_index_without_them() {
    let tools = "- name: with_words\n  triggers: [weather]\n  description: Get the weather.\n\
                 - name: bare\n  description: Convert a currency amount.\n\
                 - name: kept\n  core: true\n  description: Search the knowledge base.\n";
    let flagged = |config: &str| -> Vec<String> {
        lint_configured(tools, config)
            .into_iter()
            .filter(|f| f.rule == "missing-triggers")
            .map(|f| format!("{}: {}", f.tool.unwrap_or_default(), f.message))
            .collect()
    };
    assert_eq!(flagged(""), Vec::<String>::new());
    assert_eq!(
        flagged("lint: {require_triggers: true}\n"),
        [
            "bare: tool `bare` has no trigger words, and `lint.require_triggers` asks every tool of the index for some"
        ]
    );
}

/// A project of in-memory documents, given in `order` (the Python module's `from_tools` takes
/// them in the caller's order): `n` YAML files whose tools share trigger words (DL009) and
/// write them unsorted (DL014, with a fix), a JSON Lines file of two documents, and a config
/// whose `overrides` list is unsorted (a finding at the config, whose path sorts among the
/// tool files').
fn project_of_documents(n: usize, reversed: bool) -> Project {
    use discloser::catalog::Input;
    use discloser::source::SourceFile;
    let root = PathBuf::from("/nonexistent-discloser-root");
    let mut inputs: Vec<Input> = (0..n)
        .map(|i| {
            let text = format!(
                "- name: tool_{i:03}_a\n  description: Look up item {i}.\n  triggers: [look, find, look]\n- name: tool_{i:03}_b\n  description: 'Plot: item {i}'\n  triggers: [plot]\n"
            );
            SourceFile::from_text(text, PathBuf::from(format!("tools/f{i:03}.yaml")))
        })
        .chain(std::iter::once(SourceFile::from_text(
            "{\"name\": \"line_a\", \"description\": \"Find a line.\", \"triggers\": [\"find\"]}\n{\"name\": \"line_b\", \"description\": \"Find another line.\", \"triggers\": [\"look\"]}\n".to_owned(),
            PathBuf::from("tools/lines.jsonl"),
        )))
        .map(|source| Input::Text {
            real: root.join(&source.path),
            source,
            format: None,
        })
        .collect();
    if reversed {
        inputs.reverse();
    }
    let config = SourceFile::from_text(
        "sources: []\noverrides:\n  tool_000_b:\n    triggers: [chart, map]\n".to_owned(),
        PathBuf::from(format!("tools/f{:03}.yaml.config", n / 2)),
    );
    Project::from_inputs(&config, inputs, root).expect("the documents load")
}

/// Findings come out in one order (path, position, code, message), without repeats, whatever
/// the order the catalog's documents were loaded in; across the batches `lint` makes them in
/// (more paths than a batch holds), and with the findings at the config merged in where their
/// path sorts.
#[test]
fn findings_are_in_path_order_whatever_the_order_of_the_documents() {
    let settings = Settings::default();
    let sorted = lint(&project_of_documents(150, false), &settings);
    let reversed = lint(&project_of_documents(150, true), &settings);
    assert_eq!(concise(&sorted), concise(&reversed));
    assert_eq!(sorted, reversed);
    let keys: Vec<_> = sorted
        .iter()
        .map(|f| (f.path.clone(), f.line, f.column, f.code, f.message.clone()))
        .collect();
    assert!(keys.windows(2).all(|w| w[0] <= w[1]), "sorted");
    assert!(sorted.windows(2).all(|w| w[0] != w[1]), "no repeats");
    let codes = |code: &str| sorted.iter().filter(|f| f.code == code).count();
    assert!(
        codes("DL009") > 300 && codes("DL014") == 151,
        "{}",
        concise(&sorted)
    );
    let config = sorted
        .iter()
        .position(|f| f.path.ends_with("f075.yaml.config"))
        .expect("a finding at the config");
    assert!(config > 0 && config < sorted.len() - 1, "merged mid-stream");
    assert!(
        sorted
            .iter()
            .filter(|f| f.code == "DL014" && f.path.extension().is_some_and(|e| e == "yaml"))
            .all(|f| !f.fixes.is_empty()),
        "each YAML file's unsorted list has its fix"
    );
}

/// A report written a batch of findings at a time (as `lint` makes them) is the report of all
/// of them at once, in every format, and with no finding.
#[test]
fn a_report_written_in_batches_is_the_report_of_all_the_findings() {
    use discloser::lint::report::{Options, Writer};
    let findings = mixed_findings();
    for format in [
        Format::Full,
        Format::Concise,
        Format::Json,
        Format::Github,
        Format::Sarif,
    ] {
        for all in [&findings[..], &[]] {
            let whole = render(all, format, false);
            let mut out = Vec::new();
            let mut writer = Writer::new(&mut out, format, Options::default());
            for batch in all.chunks(2) {
                writer.write(batch).unwrap();
                writer.write(&[]).unwrap();
            }
            writer.finish().unwrap();
            assert_eq!(String::from_utf8(out).unwrap(), whole, "{format:?}");
        }
    }
}

/// An error of the receiver of the batches ends `lint_each` at once, with that error: the
/// batches are made on a thread of their own when there are several, and it stops too.
#[test]
fn lint_each_stops_at_the_first_error_of_its_receiver() {
    let project = project_of_documents(150, false);
    let mut batches = 0;
    let result = discloser::lint::lint_each(&project, &Settings::default(), |batch| {
        assert!(!batch.is_empty());
        batches += 1;
        if batches == 2 { Err("stop") } else { Ok(()) }
    });
    assert_eq!(result, Err("stop"));
    assert_eq!(batches, 2);
}
