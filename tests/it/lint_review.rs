//! The blind per-rule review's sample (issue 17): up to 30 findings per rule from the shared
//! corpora and the npm captures, drawn in a seeded order, written (with
//! `DISCLOSER_WRITE_REVIEW=1`; otherwise checked) to `tests/fixtures/lint/review/sample.jsonl`
//! with the tool's name and description, the parameter concerned (if any) and the finding's
//! message, but not the rule's code, name or help; `key.jsonl` beside it maps each sample id to its
//! rule, for scoring after the reviewer has judged. Without the variable the test fails when
//! the committed sample is not what the rules find today (the verdicts would be about other
//! findings). Ignored: it needs the corpora beside the checkout.
//!
//! ```sh
//! cargo test --test it lint_review -- --ignored                           # check
//! DISCLOSER_WRITE_REVIEW=1 cargo test --test it lint_review -- --ignored  # write
//! ```

use std::collections::BTreeMap;

use serde_json::{Value, json};

use crate::support::root;
use discloser::lint::{Settings, lint};
use discloser::project::{Project, Strictness};

const SEED: u64 = 0x5eed_2026_1201;
const PER_RULE: usize = 30;

fn rank(key: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ SEED;
    for b in key.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h = (h ^ (h >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    h ^ (h >> 27)
}

/// The parameter a pointer names: `/…/parameters/properties/<name>/…`.
fn parameter(pointer: &str) -> Option<String> {
    let rest = pointer.split("/parameters/properties/").nth(1)?;
    let name = rest.split('/').next()?;
    Some(name.replace("~1", "/").replace("~0", "~"))
}

/// Every tool definition in the project's files, as written (a second tool of a name already
/// taken is not in the catalog, but it is in its file's text).
fn written_tools(project: &Project) -> Vec<Value> {
    project
        .catalog
        .files
        .iter()
        .filter_map(|file| serde_json::from_str::<Value>(&file.text).ok())
        .flat_map(|value| {
            let tools = value.get("tools").cloned().unwrap_or(value);
            match tools {
                Value::Array(tools) => tools,
                _ => Vec::new(),
            }
        })
        .collect()
}

/// The definitions named `name` (up to three): a reviewer needs to see each.
fn definitions_named(tools: &[Value], name: &str) -> Vec<Value> {
    tools
        .iter()
        .filter(|t| t.get("name").and_then(Value::as_str) == Some(name))
        .take(3)
        .map(|t| {
            json!({
                "name": t.get("name"),
                "description": t.get("description"),
                "parameters": t.get("parameters").or_else(|| t.get("inputSchema")),
            })
        })
        .collect()
}

#[test]
#[ignore = "needs ../shared/corpora beside the checkout (.ci/run runs it)"]
fn write_the_blind_review_sample() {
    let corpora = root().join("../shared/corpora");
    assert!(corpora.is_dir(), "no corpora at {}", corpora.display());
    let pulls = root().join("tests/fixtures/lint/untyped_enum_eval/npm_pulls");
    let mut by_rule: BTreeMap<&str, Vec<(u64, Value)>> = BTreeMap::new();
    // The shared corpora, and the captures of real MCP servers from npm (Notion's tools are
    // where boilerplate summaries come from). Docker's registry and LiveMCPBench are loaded as
    // the projects an agent with all their servers would have, one file per server (their
    // union `tools.json` files hold the same tools); BFCL has no such split.
    let mut sources: Vec<(String, std::path::PathBuf, Vec<String>)> =
        ["bfcl", "github-mcp-server", "mcp-reference-snapshots"]
            .into_iter()
            .map(|c| {
                (
                    c.to_owned(),
                    corpora.clone(),
                    vec![format!("{c}/tools.json")],
                )
            })
            .collect();
    for c in ["docker-mcp-registry", "livemcpbench"] {
        let mut files: Vec<String> = std::fs::read_dir(corpora.join(c).join("catalogs"))
            .unwrap()
            .map(|e| format!("{c}/catalogs/{}", e.unwrap().file_name().to_string_lossy()))
            .filter(|f| f.ends_with(".json"))
            .collect();
        files.sort();
        sources.push((c.to_owned(), corpora.clone(), files));
    }
    for pull in [
        "context7",
        "everything",
        "filesystem",
        "memory",
        "notion",
        "playwright",
        "seqthink",
    ] {
        sources.push((
            format!("npm:{pull}"),
            pulls.clone(),
            vec![format!("{pull}.json")],
        ));
    }
    for (corpus, dir, targets) in &sources {
        let corpus = corpus.as_str();
        let Ok(project) = Project::from_paths_with(targets, dir, Strictness::Lenient) else {
            continue;
        };
        // Parsed once for the project, and only when a finding needs it.
        let written = std::cell::OnceCell::new();
        let entries = discloser::index::build_entries(&project.catalog, &project.config.index);
        let line_of = |name: &str| {
            entries
                .iter()
                .find(|e| e.name == name)
                .map(|e| e.line.clone())
        };
        let tools: BTreeMap<&str, usize> = project
            .catalog
            .tools
            .iter()
            .enumerate()
            .map(|(i, t)| (t.name.as_str(), i))
            .collect();
        for f in lint(&project, &Settings::default()) {
            let tool = f.tool.as_deref().and_then(|t| tools.get(t).copied());
            // The other tools the message names (`... is also a trigger of `b``): a reviewer
            // needs to see them, and every finding gets the field, so it tells no rule apart.
            let related: Vec<Value> = f
                .message
                .split('`')
                .skip(1)
                .step_by(2)
                .filter(|n| Some(*n) != f.tool.as_deref())
                .flat_map(|n| {
                    project
                        .catalog
                        .tools
                        .iter()
                        .enumerate()
                        .filter(move |(_, t)| t.name == n)
                })
                .chain(
                    // Another tool of the same name: the finding's own name.
                    project.catalog.tools.iter().enumerate().filter(|(j, t)| {
                        Some(t.name.as_str()) == f.tool.as_deref() && Some(*j) != tool
                    }),
                )
                .take(3)
                .map(|(j, t)| {
                    json!({
                        "name": t.name,
                        "description": t.description,
                        "parameters": project.catalog.parameters(j).value,
                    })
                })
                .collect();
            // A finding without a tool (a name defined twice): the definitions from the file.
            let related = match f.message.split('`').nth(1) {
                Some(name) if f.tool.is_none() => {
                    definitions_named(written.get_or_init(|| written_tools(&project)), name)
                }
                _ => related,
            };
            let (name, description, param) = match tool {
                Some(i) => {
                    let t = &project.catalog.tools[i];
                    let param = parameter(&f.pointer).map(|p| {
                        let schema = project.catalog.parameters(i).value["properties"][&p].clone();
                        json!({"name": p, "schema": schema})
                    });
                    (t.name.clone(), t.description.clone(), param)
                }
                None => (String::new(), String::new(), None),
            };
            let key = format!("{corpus}\u{0}{name}\u{0}{}\u{0}{}", f.pointer, f.message);
            by_rule.entry(f.rule).or_default().push((
                rank(&key),
                json!({
                    "corpus": corpus,
                    "tool": name,
                    "description": description,
                    "parameter": param,
                    "index_line": f.tool.as_deref().and_then(line_of),
                    "other_tools": related,
                    "finding": f.message,
                }),
            ));
        }
    }
    // One shuffled list over all rules, so neither order nor position gives the rule away.
    let mut picked: Vec<(u64, &str, Value)> = Vec::new();
    for (rule, mut findings) in by_rule {
        findings.sort_by(|a, b| {
            a.0.cmp(&b.0)
                .then_with(|| a.1.to_string().cmp(&b.1.to_string()))
        });
        findings.dedup_by(|a, b| a.1 == b.1);
        for (r, v) in findings.into_iter().take(PER_RULE) {
            picked.push((rank(&format!("{r}{rule}")), rule, v));
        }
    }
    picked.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.cmp(b.1)));
    let (mut sample, mut key) = (String::new(), String::new());
    for (n, (_, rule, mut v)) in picked.into_iter().enumerate() {
        let id = format!("r{:04}", n + 1);
        v["id"] = json!(id);
        sample.push_str(&serde_json::to_string(&v).unwrap());
        sample.push('\n');
        key.push_str(&serde_json::to_string(&json!({"id": id, "rule": rule})).unwrap());
        key.push('\n');
    }
    let dir = root().join("tests/fixtures/lint/review");
    if std::env::var_os("DISCLOSER_WRITE_REVIEW").is_some() {
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("sample.jsonl"), sample).unwrap();
        std::fs::write(dir.join("key.jsonl"), key).unwrap();
        return;
    }
    // The verdicts in `judgments.jsonl` are about these findings: the rules' findings today must
    // be the ones reviewed.
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap_or_default();
    assert!(
        read("sample.jsonl") == sample && read("key.jsonl") == key,
        "the review sample is not what the rules find today: rerun the blind review \
         (DISCLOSER_WRITE_REVIEW=1 cargo test --test it lint_review -- --ignored, then a reviewer)"
    );
}
