//! Fixes (`lint --fix`, `--diff`, `--unsafe-fixes`, the `fixes` findings carry), by fix class:
//! - the bundled example with its trigger lists shuffled and repeated is given back byte for
//!   byte by `--fix` (and `--diff` shows it without writing);
//! - generated trigger lists (any order, repeats, NFC and white-space variants, flow or block,
//!   any quoting, YAML or JSON) fix to a file that loads with exactly the normalised triggers;
//! - every file of the fuzz corpus (`fuzz/corpus/`, or `DISCLOSER_FUZZ_CORPUS`, when it is
//!   there) and every YAML/JSON fixture that loads, as a tool file, and every fuzzed config
//!   beside the `config` target's catalog, still loads after all its fixes, safe and unsafe,
//!   pass after pass, and offers no further fix of the same kind;
//! - the command's contract: what it writes (only discloser's own files), exit codes, the
//!   messages on standard error.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use discloser::catalog::Input;
use discloser::index::normalize_triggers;
use discloser::lint::{Finding, Settings, fix, lint};
use discloser::project::{Project, Strictness};
use discloser::source::SourceFile;
use proptest::prelude::*;
use proptest::test_runner::{Config as ProptestConfig, RngSeed};

use crate::support::{discloser_in, root};

/// A small deterministic generator (xorshift), so a failure reproduces.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// The bundled example's config and tool files, by path relative to the root.
fn example_files() -> BTreeMap<PathBuf, Vec<u8>> {
    let mut files = BTreeMap::new();
    files.insert(
        PathBuf::from("discloser.yaml"),
        std::fs::read(root().join("discloser.yaml")).unwrap(),
    );
    for entry in std::fs::read_dir(root().join("tools")).unwrap() {
        let path = entry.unwrap().path();
        let relative = path.strip_prefix(root()).unwrap().to_path_buf();
        files.insert(relative, std::fs::read(&path).unwrap());
    }
    files
}

fn write_files(dir: &Path, files: &BTreeMap<PathBuf, Vec<u8>>) {
    for (path, bytes) in files {
        std::fs::create_dir_all(dir.join(path).parent().unwrap()).unwrap();
        std::fs::write(dir.join(path), bytes).unwrap();
    }
}

fn read_files(dir: &Path, like: &BTreeMap<PathBuf, Vec<u8>>) -> BTreeMap<PathBuf, Vec<u8>> {
    like.keys()
        .map(|p| (p.clone(), std::fs::read(dir.join(p)).unwrap()))
        .collect()
}

/// `text` with the items of every block trigger list shuffled, some repeated exactly and some
/// repeated as a variant that normalises to the same word (padded, inside quotes).
fn scramble(text: &str, rng: &mut Rng) -> String {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let mut out = String::new();
    let mut i = 0;
    while i < lines.len() {
        out.push_str(lines[i]);
        let opens = lines[i].trim_end().trim_start() == "triggers:";
        i += 1;
        if !opens {
            continue;
        }
        let mut items: Vec<String> = Vec::new();
        while i < lines.len() && lines[i].trim_start().starts_with("- ") {
            items.push(lines[i].to_owned());
            i += 1;
        }
        if items.is_empty() {
            continue;
        }
        let written = items.clone();
        for _ in 0..1 + rng.below(3) {
            let copy = written[rng.below(written.len())].clone();
            let at = rng.below(items.len() + 1);
            let variant = if rng.below(2) == 0 {
                copy
            } else {
                let (indent, word) = copy.split_once("- ").unwrap();
                let word = word.trim_end();
                assert!(!word.contains(['\'', '"', '#']), "{word}");
                format!("{indent}- '  {word} '\n")
            };
            items.insert(at, variant);
        }
        for k in (1..items.len()).rev() {
            items.swap(k, rng.below(k + 1));
        }
        // The last line of a file may have no line break: keep every item on its own line.
        for item in &mut items {
            if !item.ends_with('\n') {
                item.push('\n');
            }
        }
        out.push_str(&items.concat());
    }
    out
}

#[test]
fn example_with_shuffled_and_repeated_triggers_is_given_back_by_fix() {
    let original = example_files();
    // The example's lists are in the index's order, so `--fix` leaves it as it is, and gives
    // it back from any shuffled, repeated copy.
    let tmp = tempfile::tempdir().unwrap();
    write_files(tmp.path(), &original);
    let pristine = discloser_in(tmp.path(), &["lint", "--select", "unsorted-triggers"]);
    let out = discloser_in(
        tmp.path(),
        &["lint", "--fix", "--select", "unsorted-triggers"],
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let canonical = read_files(tmp.path(), &original);
    assert_eq!(
        String::from_utf8_lossy(&pristine.stdout),
        "All checks passed.\n",
        "the example's trigger lists are in the index's order"
    );
    assert_eq!(
        canonical, original,
        "--fix changed an example already in order"
    );
    for seed in [0x5eed_u64, 0xfeed_f00d, 0x0dd5_eed5] {
        let mut rng = Rng(seed);
        let scrambled: BTreeMap<PathBuf, Vec<u8>> = canonical
            .iter()
            .map(|(path, bytes)| {
                let text = String::from_utf8(bytes.clone()).unwrap();
                let text = if path.starts_with("tools") {
                    scramble(&text, &mut rng)
                } else {
                    text
                };
                (path.clone(), text.into_bytes())
            })
            .collect();
        assert_ne!(scrambled, canonical);
        let tmp = tempfile::tempdir().unwrap();
        write_files(tmp.path(), &scrambled);
        let lists = canonical
            .values()
            .map(|b| {
                String::from_utf8_lossy(b)
                    .lines()
                    .filter(|l| l.trim() == "triggers:")
                    .count()
            })
            .sum::<usize>();

        let diff = discloser_in(tmp.path(), &["lint", "--diff"]);
        assert_eq!(
            diff.status.code(),
            Some(1),
            "{}",
            String::from_utf8_lossy(&diff.stderr)
        );
        let shown = String::from_utf8_lossy(&diff.stdout);
        assert!(
            shown.contains("--- a/tools/") && shown.contains("\n+"),
            "{shown}"
        );
        assert_eq!(
            String::from_utf8_lossy(&diff.stderr),
            format!("Would fix {lists} findings.\n")
        );
        assert_eq!(
            read_files(tmp.path(), &scrambled),
            scrambled,
            "--diff wrote"
        );

        let fixed = discloser_in(tmp.path(), &["lint", "--fix", "--deny", "warnings"]);
        let stderr = String::from_utf8_lossy(&fixed.stderr);
        assert_eq!(
            fixed.status.code(),
            Some(0),
            "{}{stderr}",
            String::from_utf8_lossy(&fixed.stdout)
        );
        assert_eq!(
            String::from_utf8_lossy(&fixed.stdout),
            "All checks passed.\n"
        );
        assert_eq!(stderr, format!("Fixed {lists} findings.\n"));
        let after = read_files(tmp.path(), &canonical);
        for (path, bytes) in &canonical {
            assert_eq!(
                String::from_utf8_lossy(&after[path]),
                String::from_utf8_lossy(bytes),
                "{} (seed {seed:#x})",
                path.display()
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Generated trigger lists
// ---------------------------------------------------------------------------------------------

/// Words that sort, normalise and quote in every way that matters: case pairs, NFC and NFD,
/// white space to trim, text a plain YAML scalar cannot carry, CJK.
const WORDS: &[&str] = &[
    "chart",
    "Chart",
    "plot",
    "BP",
    "bp",
    "图表",
    "画图",
    "café",
    "cafe\u{301}",
    " padded ",
    "a, b",
    "yes",
    "1",
    "#tag",
    "- dash",
    "key: value",
    "it's",
    "say \"hi\"",
    "[x]",
    "é",
];

#[derive(Clone, Copy, Debug)]
enum Quote {
    Plain,
    Single,
    Double,
}

#[derive(Clone, Copy, Debug)]
enum Layout {
    YamlFlow,
    YamlBlock,
    JsonOneLine,
    JsonPretty,
}

fn yaml_item(word: &str, quote: Quote) -> String {
    let plain = discloser::catalog::formats::yaml::scalar(word);
    match quote {
        Quote::Plain => plain,
        Quote::Single if !word.contains('\'') => format!("'{word}'"),
        Quote::Single | Quote::Double => serde_json::Value::from(word).to_string(),
    }
}

/// A JSON string with every non-ASCII character escaped (`\u00e9`), as some writers do.
fn json_ascii(word: &str) -> String {
    let mut out = String::from("\"");
    for unit in word.encode_utf16() {
        match char::from_u32(u32::from(unit)) {
            Some(c) if c.is_ascii() && c != '"' && c != '\\' && !c.is_control() => out.push(c),
            _ => out.push_str(&format!("\\u{unit:04x}")),
        }
    }
    out.push('"');
    out
}

/// A native tool file holding a tool `t` with `words` as its triggers, and a tool after it:
/// the text before the list, the list, the text after it, and the file's name.
fn tool_file(words: &[(usize, Quote)], layout: Layout) -> (String, String, String, &'static str) {
    let json_item = |(w, q): &(usize, Quote)| match q {
        Quote::Single => json_ascii(WORDS[*w]),
        Quote::Plain | Quote::Double => serde_json::Value::from(WORDS[*w]).to_string(),
    };
    let yaml_items = || words.iter().map(|(w, q)| yaml_item(WORDS[*w], *q));
    match layout {
        Layout::YamlFlow => (
            "- name: t\n  description: A tool.\n  triggers: ".to_owned(),
            format!("[{}]", yaml_items().collect::<Vec<_>>().join(", ")),
            "  # the list\n- name: u\n  description: Another.\n".to_owned(),
            "t.yaml",
        ),
        Layout::YamlBlock => (
            "- name: t\n  triggers:\n".to_owned(),
            words
                .iter()
                .zip(yaml_items())
                .map(|((w, _), item)| format!("    - {item}  # {w}\n"))
                .collect(),
            "  description: A tool.\n- name: u\n  description: Another.\n".to_owned(),
            "t.yaml",
        ),
        Layout::JsonOneLine => (
            "[{\"name\": \"t\", \"description\": \"A tool.\", \"triggers\": ".to_owned(),
            format!(
                "[{}]",
                words.iter().map(json_item).collect::<Vec<_>>().join(", ")
            ),
            "}, {\"name\": \"u\", \"description\": \"Another.\"}]".to_owned(),
            "t.json",
        ),
        Layout::JsonPretty => (
            "[\n  {\n    \"name\": \"t\",\n    \"triggers\": ".to_owned(),
            format!(
                "[\n{}\n    ]",
                words
                    .iter()
                    .map(|w| format!("      {}", json_item(w)))
                    .collect::<Vec<_>>()
                    .join(",\n")
            ),
            ",\n    \"description\": \"A tool.\"\n  }\n]\n".to_owned(),
            "t.json",
        ),
    }
}

/// A project of one in-memory tool file (`None` when it does not load).
fn project_of(text: &str, name: &str) -> Option<Project> {
    let root = PathBuf::from("/nonexistent/discloser-fix-test");
    let config = SourceFile::from_text(String::new(), root.join("discloser.yaml"));
    let input = Input::Text {
        source: SourceFile::from_text(text.to_owned(), PathBuf::from(name)),
        real: root.join(name),
        format: None,
    };
    Project::from_inputs(&config, vec![input], root).ok()
}

fn only(code: &str) -> Settings {
    Settings {
        select: vec![code.to_owned()],
        ..Settings::default()
    }
}

/// `text` with every fix of `findings` (safe and unsafe) that one pass of `--fix` applies.
fn fixed_text(text: &str, findings: &[Finding]) -> Option<String> {
    let chosen = fix::select(findings, true);
    if chosen.is_empty() {
        return None;
    }
    let edits: Vec<&fix::Edit> = chosen.iter().flat_map(|f| &f.edits).collect();
    Some(String::from_utf8(fix::apply(text.as_bytes(), &edits)).expect("edits keep UTF-8"))
}

fn proptest_config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases: std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|c| c.parse().ok())
            .unwrap_or(cases),
        rng_seed: RngSeed::Fixed(0xf1_0e5),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

fn quote() -> impl Strategy<Value = Quote> {
    prop_oneof![Just(Quote::Plain), Just(Quote::Single), Just(Quote::Double)]
}

fn layout() -> impl Strategy<Value = Layout> {
    prop_oneof![
        Just(Layout::YamlFlow),
        Just(Layout::YamlBlock),
        Just(Layout::JsonOneLine),
        Just(Layout::JsonPretty),
    ]
}

proptest! {
    #![proptest_config(proptest_config(200))]

    #[test]
    fn a_fixed_trigger_list_loads_with_exactly_the_normalised_triggers(
        words in proptest::collection::vec((0..WORDS.len(), quote()), 1..9),
        layout in layout(),
    ) {
        let (before, list, after, name) = tool_file(&words, layout);
        let text = format!("{before}{list}{after}");
        let input: Vec<&str> = words.iter().map(|(w, _)| WORDS[*w]).collect();
        let project = project_of(&text, name).expect("the generated file loads");
        prop_assert_eq!(&project.catalog.get("t").unwrap().triggers, &input);
        let findings = lint(&project, &only("unsorted-triggers"));
        let canonical = normalize_triggers(&input);
        let Some(fixed) = fixed_text(&text, &findings) else {
            // No fix: the list was in order already, each word once.
            prop_assert!(findings.is_empty(), "{:?}", findings);
            let mut written: Vec<String> =
                input.iter().map(|t| normalize_triggers(&[t]).concat()).collect();
            written.retain(|t| !t.is_empty());
            prop_assert_eq!(written, canonical);
            return Ok(());
        };
        let again = project_of(&fixed, name);
        prop_assert!(again.is_some(), "the fixed file does not load:\n{}\n--- from ---\n{}", fixed, text);
        let again = again.unwrap();
        prop_assert_eq!(&again.catalog.get("t").unwrap().triggers, &canonical, "{}", fixed);
        prop_assert!(lint(&again, &only("unsorted-triggers")).is_empty());
        // Nothing but the list changed.
        prop_assert!(fixed.starts_with(&before) && fixed.ends_with(&after), "{}", fixed);
    }
}

// ---------------------------------------------------------------------------------------------
// Every file that loads: the fuzz corpus and the fixtures
// ---------------------------------------------------------------------------------------------

/// Files under `dir`, recursively, sorted.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

/// Applies every fix (safe and unsafe) of `text`, pass after pass as `--fix` does: each pass's
/// result must load, and after the last no finding of a kind that was fixed offers a fix.
/// Returns the number of fixes applied.
fn fix_until_done(text: &str, name: &str, what: &str) -> usize {
    let Some(project) = project_of(text, name) else {
        return 0;
    };
    let mut findings = lint(&project, &Settings::default());
    let mut text = text.to_owned();
    let mut fixed_codes = std::collections::BTreeSet::new();
    let mut applied = 0;
    for _ in 0..discloser_cli_max_passes() {
        let chosen = fix::select(&findings, true);
        if chosen.is_empty() {
            break;
        }
        for f in &findings {
            if f.fixes
                .iter()
                .any(|x| chosen.iter().any(|c| std::ptr::eq(*c, x)))
            {
                fixed_codes.insert(f.code);
            }
        }
        applied += chosen.len();
        text = fixed_text(&text, &findings).expect("fixes were chosen");
        let Some(project) = project_of(&text, name) else {
            panic!("{what}: a fix made the file fail to load:\n{text}");
        };
        findings = lint(&project, &Settings::default());
    }
    let left: Vec<&Finding> = findings
        .iter()
        .filter(|f| fixed_codes.contains(f.code) && !f.fixes.is_empty())
        .collect();
    assert!(
        left.is_empty(),
        "{what}: fixes again after fixing: {left:#?}\n{text}"
    );
    applied
}

/// `lint --fix`'s limit on passes.
fn discloser_cli_max_passes() -> usize {
    10
}

#[test]
fn every_file_that_loads_still_loads_after_its_fixes() {
    let corpus = std::env::var_os("DISCLOSER_FUZZ_CORPUS")
        .map_or_else(|| root().join("fuzz/corpus"), PathBuf::from);
    let mut inputs: Vec<(PathBuf, Vec<u8>)> = Vec::new();
    for path in files_under(&corpus) {
        let bytes = std::fs::read(&path).unwrap();
        // `load_json` inputs start with a byte that picks the format.
        let target = path
            .parent()
            .and_then(Path::file_name)
            .and_then(|n| n.to_str());
        if target == Some("load_json") && !bytes.is_empty() {
            inputs.push((path.clone(), bytes[1..].to_vec()));
        }
        inputs.push((path, bytes));
    }
    let corpus_files = inputs.len();
    for dir in ["tests/fixtures", "tools", "examples"] {
        for path in files_under(&root().join(dir)) {
            let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
            if matches!(ext, "yaml" | "yml" | "json" | "jsonl" | "snap") {
                let bytes = std::fs::read(&path).unwrap();
                inputs.push((path, bytes));
            }
        }
    }
    let (mut loaded, mut fixed) = (0, 0);
    for (path, bytes) in &inputs {
        let Ok(text) = String::from_utf8(bytes.clone()) else {
            continue;
        };
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        let names: &[&str] = match ext {
            "yaml" | "yml" => &["t.yaml"],
            "json" | "snap" => &["t.json"],
            "jsonl" => &["t.jsonl"],
            _ => &["t.yaml", "t.json"],
        };
        for name in names {
            if project_of(&text, name).is_none() {
                continue;
            }
            loaded += 1;
            fixed += fix_until_done(&text, name, &path.display().to_string());
        }
    }
    eprintln!(
        "{} inputs ({corpus_files} from `{}`), {loaded} loaded, {fixed} fixes applied",
        inputs.len(),
        corpus.display()
    );
    assert!(loaded >= 40, "only {loaded} files loaded");
    assert!(fixed >= 5, "only {fixed} fixes applied");
}

/// The fixed catalog the `config` fuzz target puts beside each config it is given.
const FUZZ_CONFIG_CATALOG: [(&str, &str); 3] = [
    (
        "tools/chart.yaml",
        "name: draw_chart\ndescription: Draw a chart from rows. Use it for plots.\ntriggers: [chart]\nparameters:\n  type: object\n  properties:\n    kind: {type: string, enum: [bar, line]}\n    data: {$ref: '../schemas/defs.yaml#/rows'}\n  required: [kind]\n",
    ),
    (
        "tools/more/other.yaml",
        "- name: other_tool\n  description: Another tool.\n  core: true\n  parameters: {type: object}\n",
    ),
    (
        "schemas/defs.yaml",
        "rows:\n  type: array\n  items: {type: object}\n",
    ),
];

/// `--fix` on a project on disk, pass after pass, through the library: each pass's files must
/// load, and after the last no finding of a fixed kind offers a fix. The fixes applied.
fn fix_project_until_done(dir: &Path, what: &str) -> usize {
    let config = dir.join("discloser.yaml");
    let load = || Project::load_with(&config, Strictness::Lenient);
    let Ok(mut project) = load() else {
        return 0;
    };
    let mut fixed_codes = std::collections::BTreeSet::new();
    let mut applied = 0;
    for _ in 0..discloser_cli_max_passes() {
        let findings = lint(&project, &Settings::default());
        let mut by_file: BTreeMap<PathBuf, Vec<&fix::Edit>> = BTreeMap::new();
        for chosen in fix::select(&findings, true) {
            if let fix::FixTarget::Writable { real, digest } = &chosen.target {
                assert_eq!(
                    *digest,
                    fix::digest(&std::fs::read(real).unwrap()),
                    "{what}"
                );
                by_file
                    .entry(real.clone())
                    .or_default()
                    .extend(&chosen.edits);
                applied += 1;
                let f = findings.iter().find(|f| f.fixes.contains(chosen)).unwrap();
                fixed_codes.insert(f.code);
            }
        }
        if by_file.is_empty() {
            let left: Vec<&Finding> = findings
                .iter()
                .filter(|f| fixed_codes.contains(f.code) && !f.fixes.is_empty())
                .collect();
            assert!(
                left.is_empty(),
                "{what}: fixes again after fixing: {left:#?}"
            );
            return applied;
        }
        for (real, edits) in by_file {
            let bytes = std::fs::read(&real).unwrap();
            std::fs::write(&real, fix::apply(&bytes, &edits)).unwrap();
        }
        project =
            load().unwrap_or_else(|e| panic!("{what}: a fix made the project fail to load: {e}"));
    }
    applied
}

/// Every config of the `config` fuzz corpus that sets triggers in `overrides` (the only fix a
/// config can offer beside that catalog), and two written here, fixed beside the fuzz target's
/// catalog.
#[test]
fn every_fuzzed_config_still_loads_after_its_fixes() {
    let corpus = std::env::var_os("DISCLOSER_FUZZ_CORPUS")
        .map_or_else(|| root().join("fuzz/corpus"), PathBuf::from)
        .join("config");
    let mut configs: Vec<(String, Vec<u8>)> = vec![
        (
            "flow".to_owned(),
            b"sources: [tools/*.yaml, tools/more]\noverrides: {draw_chart: {triggers: [plot, chart, plot, 'a']}}\n".to_vec(),
        ),
        (
            "block".to_owned(),
            "sources:\n  - tools\noverrides:\n  draw_chart:\n    triggers:\n      - 画图\n      - chart   # the word\n      - \" chart\"\n".as_bytes().to_vec(),
        ),
    ];
    for path in files_under(&corpus) {
        configs.push((path.display().to_string(), std::fs::read(&path).unwrap()));
    }
    let (mut tried, mut fixed) = (0, 0);
    for (what, bytes) in &configs {
        let Ok(source) = SourceFile::from_bytes(bytes.clone(), PathBuf::from("discloser.yaml"))
        else {
            continue;
        };
        let Ok(config) = discloser::config::Config::parse(&source) else {
            continue;
        };
        let contained = |p: &str| !p.starts_with('/') && !p.split('/').any(|c| c == "..");
        let safe = config.sources.iter().all(|s| match s {
            discloser::config::SourceSpec::Path(p)
            | discloser::config::SourceSpec::Files { path: p, .. } => contained(p),
            discloser::config::SourceSpec::Mcp(_) => false,
        });
        if !safe || !config.overrides.values().any(|o| o.triggers.is_some()) {
            continue;
        }
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("discloser.yaml"), bytes).unwrap();
        for (path, text) in FUZZ_CONFIG_CATALOG {
            std::fs::create_dir_all(dir.path().join(path).parent().unwrap()).unwrap();
            std::fs::write(dir.path().join(path), text).unwrap();
        }
        tried += 1;
        fixed += fix_project_until_done(dir.path(), what);
    }
    assert!(
        tried >= 2 && fixed >= 2,
        "{tried} configs tried, {fixed} fixes"
    );
}

#[test]
#[ignore = "needs ../shared/corpora beside the checkout (.ci/run runs it)"]
fn every_shared_corpus_file_still_loads_after_its_fixes() {
    let (mut loaded, mut fixed) = (0, 0);
    for path in files_under(&crate::support::shared_corpora()) {
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        let name = match ext {
            "json" | "snap" => "t.json",
            "jsonl" => "t.jsonl",
            "yaml" | "yml" => "t.yaml",
            _ => continue,
        };
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        if project_of(&text, name).is_some() {
            loaded += 1;
            fixed += fix_until_done(&text, name, &path.display().to_string());
        }
    }
    eprintln!("{loaded} files loaded, {fixed} fixes applied");
    assert!(
        loaded >= 100 && fixed >= 50,
        "{loaded} loaded, {fixed} fixed"
    );
}

// ---------------------------------------------------------------------------------------------
// The command
// ---------------------------------------------------------------------------------------------

fn project_dir(files: &[(&str, &str)]) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    for (path, text) in files {
        std::fs::create_dir_all(tmp.path().join(path).parent().unwrap()).unwrap();
        std::fs::write(tmp.path().join(path), text).unwrap();
    }
    tmp
}

const UNTYPED: &str = "- name: pick\n  triggers: [pick]\n  description: Pick a mode.\n  parameters:\n    type: object\n    properties:\n      mode: {type: string, description: \"The mode: one of fast, slow.\"}\n      level:\n        type: integer\n        description: \"The level: one of 1, 2, 3.\"\n";

#[test]
fn unsafe_fixes_are_applied_only_with_unsafe_fixes() {
    let dir = project_dir(&[
        ("tools.yaml", UNTYPED),
        ("discloser.yaml", "sources: [tools.yaml]\n"),
    ]);
    let run = |args: &[&str]| discloser_in(dir.path(), args);
    let listed = run(&["lint"]);
    let text = String::from_utf8_lossy(&listed.stdout);
    assert!(
        text.ends_with(
            "Found 0 errors and 2 warnings.\n0 fixable with --fix (2 more with --unsafe-fixes).\n"
        ),
        "{text}"
    );
    assert!(!text.contains("[*]"), "{text}");
    let marked = run(&["lint", "--unsafe-fixes", "--format", "concise"]);
    let text = String::from_utf8_lossy(&marked.stdout);
    assert!(
        text.contains("DL004 [warning] [*] parameter `mode`"),
        "{text}"
    );
    assert!(text.ends_with("2 fixable with --fix.\n"), "{text}");

    let safe_only = run(&["lint", "--fix"]);
    assert_eq!(
        String::from_utf8_lossy(&safe_only.stderr),
        "Fixed 0 findings.\n"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("tools.yaml")).unwrap(),
        UNTYPED
    );
    let all = run(&["lint", "--fix", "--unsafe-fixes", "--deny", "warnings"]);
    assert_eq!(
        all.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&all.stdout)
    );
    assert_eq!(String::from_utf8_lossy(&all.stderr), "Fixed 2 findings.\n");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("tools.yaml")).unwrap(),
        UNTYPED
            .replace("mode: {type", "mode: {enum: [fast, slow], type")
            .replace(
                "type: integer\n",
                "type: integer\n        enum: [1, 2, 3]\n"
            )
    );
}

#[test]
fn fixes_in_files_of_other_formats_are_reported_not_written() {
    let mcp = "{\"tools\": [{\"name\": \"pick\", \"description\": \"Pick a mode.\", \"inputSchema\": {\"type\": \"object\", \"properties\": {\"mode\": {\"type\": \"string\", \"description\": \"The mode: one of fast, slow.\"}}}}]}\n";
    let config = "# the config\nsources: [mcp.json]\noverrides:\n  pick:\n    triggers:\n      - pick\n      - 选择\n      - pick  # again\n";
    let dir = project_dir(&[("mcp.json", mcp), ("discloser.yaml", config)]);
    let json = discloser_in(dir.path(), &["lint", "--format", "json"]);
    let findings: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let fixes: Vec<&str> = findings
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|f| f["fixes"][0]["applicability"].as_str())
        .collect();
    assert_eq!(fixes, ["safe", "unsafe"], "{findings:#}");
    let edit = &findings[1]["fixes"][0]["edits"][0];
    assert_eq!(edit["path"], "mcp.json");
    assert_eq!(edit["start"], edit["end"], "an insertion");
    assert_eq!(edit["content"], "\"enum\": [\"fast\", \"slow\"], ");

    let out = discloser_in(dir.path(), &["lint", "--fix", "--unsafe-fixes"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "note: 1 fix not applied: `--fix` writes only discloser's own files (native tool files and the config), not a file in MCP's format\nFixed 1 finding.\n"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("mcp.json")).unwrap(),
        mcp
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("discloser.yaml")).unwrap(),
        "# the config\nsources: [mcp.json]\noverrides:\n  pick:\n    triggers:\n      - 选择\n      - pick\n"
    );
    // What remains is not marked fixable: `--fix` cannot write it.
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!text.contains("[*]") && !text.contains("fixable"), "{text}");
}

#[test]
fn a_fix_remembers_the_bytes_it_was_computed_against() {
    let dir = project_dir(&[
        (
            "tools.yaml",
            "- name: a\n  description: Does a.\n  triggers: [b, a]\n",
        ),
        ("discloser.yaml", "sources: [tools.yaml]\n"),
    ]);
    let project =
        Project::load_with(&dir.path().join("discloser.yaml"), Strictness::Lenient).unwrap();
    let findings = lint(&project, &Settings::default());
    let fix = &findings[0].fixes[0];
    let discloser::lint::FixTarget::Writable { real, digest } = &fix.target else {
        panic!("a native file is writable: {fix:?}");
    };
    assert_eq!(*digest, fix::digest(&std::fs::read(real).unwrap()));
    std::fs::write(
        real,
        "- name: a\n  description: Does a.\n  triggers: [b, a, c]\n",
    )
    .unwrap();
    assert_ne!(*digest, fix::digest(&std::fs::read(real).unwrap()));
}

#[test]
fn diff_writes_nothing_and_exits_0_when_there_is_nothing_to_fix() {
    let dir = project_dir(&[
        (
            "tools.yaml",
            "- name: a\n  description: Does a.\n  triggers: [a, bb]\n",
        ),
        ("discloser.yaml", "sources: [tools.yaml]\n"),
    ]);
    let out = discloser_in(dir.path(), &["lint", "--diff"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "");
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "Would fix 0 findings.\n"
    );
    std::fs::write(
        dir.path().join("tools.yaml"),
        "- name: a\n  description: Does a.\n  triggers: [bb, a]\n",
    )
    .unwrap();
    let out = discloser_in(dir.path(), &["lint", "--diff"]);
    assert_eq!(out.status.code(), Some(1));
    insta::assert_snapshot!("fix.diff", String::from_utf8_lossy(&out.stdout));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("tools.yaml")).unwrap(),
        "- name: a\n  description: Does a.\n  triggers: [bb, a]\n"
    );
}

#[test]
fn the_unsorted_triggers_fixture_after_fix() {
    let dir = root().join("tests/fixtures/lint/unsorted-triggers");
    let tools = std::fs::read_to_string(dir.join("tools.yaml")).unwrap();
    let config = format!(
        "sources: [tools.yaml]\n{}",
        std::fs::read_to_string(dir.join("config.yaml")).unwrap()
    );
    let project = project_dir(&[("tools.yaml", &tools), ("discloser.yaml", &config)]);
    let out = discloser_in(
        project.path(),
        &["lint", "--fix", "--select", "unsorted-triggers"],
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert_eq!(String::from_utf8_lossy(&out.stderr), "Fixed 4 findings.\n");
    let read = |name: &str| std::fs::read_to_string(project.path().join(name)).unwrap();
    insta::assert_snapshot!(
        "fix.unsorted-triggers",
        format!(
            "# tools.yaml\n{}# discloser.yaml\n{}",
            read("tools.yaml"),
            read("discloser.yaml")
        )
    );
}

/// The `enum` lands on the schema the prose describes, typed by it: a string's, an integer's
/// (numbers), an array's `items`; a reference gets no fix. In YAML block and flow mappings and
/// in JSON objects, compact or pretty.
#[test]
fn untyped_enum_fixes_declare_typed_values_on_the_right_schema() {
    let yaml = "- name: pick\n  triggers: [pick]\n  description: Pick things.\n  parameters:\n    type: object\n    $defs:\n      Mode: {type: string}\n    properties:\n      tags:\n        type: array\n        items: {type: string}\n        description: \"Tags: one of red, green, blue.\"\n      level: {type: integer, description: \"The level: one of 1, 2, 3.\"}\n      ratio:\n        type: number\n        description: \"The ratio: one of 0.5, 1, 2.\"\n      mode: {$ref: '#/$defs/Mode', description: \"The mode: one of fast, slow.\"}\n";
    let project = project_of(yaml, "t.yaml").unwrap();
    let findings = lint(&project, &only("untyped-enum"));
    let fixed = fixed_text(yaml, &findings).expect("fixes");
    let again = project_of(&fixed, "t.yaml").unwrap_or_else(|| panic!("{fixed}"));
    let params = &again.catalog.get("pick").unwrap().parameters.keep()["properties"];
    assert_eq!(
        params["tags"]["items"]["enum"],
        serde_json::json!(["red", "green", "blue"]),
        "{fixed}"
    );
    assert_eq!(params["level"]["enum"], serde_json::json!([1, 2, 3]));
    assert_eq!(params["ratio"]["enum"], serde_json::json!([0.5, 1, 2]));
    assert!(
        params["mode"].get("enum").is_none(),
        "a `$ref` is not edited: {fixed}"
    );
    assert!(
        lint(&again, &only("untyped-enum"))
            .iter()
            .all(|f| f.fixes.is_empty())
    );

    let tool = serde_json::json!([{"name": "pick", "triggers": ["pick"], "description": "Pick.", "parameters": {"type": "object", "properties": {"level": {"type": "integer", "description": "The level: one of 1, 2, 3."}}}}]);
    for text in [
        serde_json::to_string(&tool).unwrap(),
        serde_json::to_string_pretty(&tool).unwrap(),
    ] {
        let project = project_of(&text, "t.json").unwrap();
        let fixed = fixed_text(&text, &lint(&project, &only("untyped-enum"))).expect("a fix");
        let again = project_of(&fixed, "t.json").unwrap_or_else(|| panic!("{fixed}"));
        assert_eq!(
            again.catalog.get("pick").unwrap().parameters.keep()["properties"]["level"]["enum"],
            serde_json::json!([1, 2, 3])
        );
        // Laid out like the file: one line stays one line, a pretty file gets a line.
        assert_eq!(
            fixed.lines().count(),
            text.lines().count() + usize::from(text.contains('\n'))
        );
    }
}
