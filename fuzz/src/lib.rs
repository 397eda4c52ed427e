//! Shared pieces of discloser's fuzz targets: loading text as a catalog, a generator of
//! arbitrary-but-plausible catalogs, and the invariants every rendered index must hold.
//!
//! The invariants are the README's promises about the index (one line per entry, `\n` endings,
//! one trailing newline, no trailing spaces, bytes independent of the order of the sources), so
//! a violation is a bug even when nothing panics.

use std::path::{Path, PathBuf};

use arbitrary::{Result, Unstructured};
use discloser::catalog::formats::Format;
use discloser::catalog::{Catalog, Input};
use discloser::config::IndexConfig;
use discloser::index::{Style, build_index, render};
use discloser::project::Profile;
use discloser::source::SourceFile;
use serde_json::{Map, Value, json};

/// A project root that does not exist, so file `$ref`s never reach real files.
pub fn root() -> &'static Path {
    Path::new("/nonexistent-discloser-fuzz-root")
}

/// Loads bytes as one tool file called `name`, in `format` (detected when `None`).
pub fn load_bytes(bytes: &[u8], name: &str, format: Option<Format>) -> Option<Catalog> {
    let source = SourceFile::from_bytes(bytes.to_vec(), PathBuf::from(name)).ok()?;
    let input = Input::Text {
        real: root().join(name),
        source,
        format,
    };
    Catalog::load_inputs(vec![input], root()).ok()
}

/// In-memory files (name, text) as catalog inputs under [`root`], formats detected.
pub fn inputs(files: &[(String, String)]) -> Vec<Input> {
    files
        .iter()
        .map(|(name, text)| Input::Text {
            real: root().join(name),
            source: SourceFile::from_text(text.clone(), PathBuf::from(name)),
            format: None,
        })
        .collect()
}

/// Loads several in-memory files (name, text) in the given order.
pub fn load_texts(files: &[(String, String)]) -> Result<Catalog, String> {
    Catalog::load_inputs(inputs(files), root()).map_err(|e| e.to_string())
}

/// The profile binding the core tools and those whose index in the catalog is in `extra`.
pub fn profile(catalog: &Catalog, extra: &[usize]) -> Profile {
    let bound = catalog
        .tools
        .iter()
        .enumerate()
        .filter(|(i, t)| t.core || extra.contains(i))
        .map(|(_, t)| t.name.clone())
        .collect();
    Profile {
        name: "default".to_owned(),
        bound,
    }
}

/// Renders every style and checks the index's invariants; returns the text style.
pub fn check_index(catalog: &Catalog, profile: &Profile, config: &IndexConfig) -> String {
    let index = build_index(catalog, profile, config);
    let text = render(&index, Style::Text);
    let again = render(&build_index(catalog, profile, config), Style::Text);
    assert_eq!(text, again, "rendering is deterministic");
    check_lines(&text, "text");
    let header_lines = if index.header.is_empty() {
        0
    } else {
        index.header.lines().count()
    };
    assert_eq!(
        text.lines().count(),
        header_lines + index.entries.len(),
        "one line per entry: {text:?}"
    );
    for entry in &index.entries {
        assert!(
            entry.line.starts_with("- "),
            "an entry starts with `- `: {:?}",
            entry.line
        );
        if !entry.summary_over_budget {
            assert!(
                entry.summary.chars().count() <= entry.summary_budget,
                "summary within budget: {entry:?}"
            );
        }
    }
    let markdown = render(&index, Style::Markdown);
    check_lines(&markdown, "markdown");
    let entry_lines = markdown.lines().filter(|l| l.starts_with("- ")).count();
    assert!(
        entry_lines >= index.entries.len(),
        "markdown has a list item per entry: {markdown:?}"
    );
    let json = render(&index, Style::Json);
    serde_json::from_str::<Value>(&json).expect("the JSON style is JSON");
    text
}

/// `\n` endings, exactly one trailing newline (or nothing), no trailing white space.
fn check_lines(text: &str, style: &str) {
    if text.is_empty() {
        return;
    }
    assert!(text.ends_with('\n'), "{style}: ends with a newline");
    assert!(!text.contains('\r'), "{style}: no carriage return");
    for line in text.lines() {
        assert_eq!(line, line.trim_end(), "{style}: no trailing white space");
    }
}

/// Words the generator draws descriptions, names and triggers from, chosen to hit the summary
/// packer's and the signature speller's special cases.
const WORDS: &[&str] = &[
    "Fetch",
    "the",
    "weather",
    "e.g.",
    "i.e.",
    "U.S.",
    "Dr.",
    "etc.",
    "Mr.",
    "vs.",
    "No.",
    "J.",
    "client.Get",
    "1.5",
    "。",
    "！",
    "？",
    "：",
    ":",
    "Args:",
    "Returns:",
    "Parameters",
    "----",
    "# Title",
    "===",
    "- item",
    "1. first",
    "```",
    "| a | b |",
    "> quote",
    ":param x:",
    "@param",
    "取内置长指南全文",
    "据全文作答",
    "\n",
    "\n\n",
    "\r\n",
    "\t",
    " ",
    "  ",
    ".",
    "!",
    "?",
    "(",
    ")",
    "（",
    "「",
    "…",
    "\u{301}",
    "\u{feff}",
    "\u{200b}",
    "\u{0}",
    "\u{85}",
    "\u{2028}",
    "https://example.com/a.b",
    "Hello.World",
    "x",
    "Ü",
    "ß",
    "İ",
    "한국어",
    "😀",
];

/// A string built from [`WORDS`] and arbitrary text.
pub fn text(u: &mut Unstructured<'_>, max_words: usize) -> Result<String> {
    let n = u.int_in_range(0..=max_words)?;
    let mut out = String::new();
    for _ in 0..n {
        if u.ratio(1, 6)? {
            out.push_str(&String::arbitrary_take(u, 12)?);
        } else {
            out.push_str(u.choose(WORDS)?);
        }
        if u.ratio(2, 3)? {
            out.push(' ');
        }
    }
    Ok(out)
}

/// `String::arbitrary` limited to `max` characters.
trait TakeString {
    fn arbitrary_take(u: &mut Unstructured<'_>, max: usize) -> Result<String>;
}

impl TakeString for String {
    fn arbitrary_take(u: &mut Unstructured<'_>, max: usize) -> Result<String> {
        let s: String = u.arbitrary()?;
        Ok(s.chars().take(max).collect())
    }
}

const NAMES: &[&str] = &[
    "a",
    "b",
    "draw_chart",
    "Draw_Chart",
    "é",
    "e\u{301}",
    "名字",
    "x y",
    "-",
    "_",
    "a.b",
];

/// A tool name: short, often repeated, sometimes odd.
pub fn name(u: &mut Unstructured<'_>) -> Result<String> {
    if u.ratio(1, 4)? {
        let s = String::arbitrary_take(u, 8)?;
        if !s.trim().is_empty() {
            return Ok(s);
        }
    }
    Ok(u.choose(NAMES)?.to_string())
}

const TYPES: &[&str] = &[
    "string", "integer", "number", "boolean", "object", "array", "null", "dict", "float", "any",
    "", "STRING", "HashMap",
];

const REFS: &[&str] = &[
    "#",
    "#/$defs/A",
    "#/$defs/B",
    "#/definitions/A",
    "#/properties/x",
    "#/$defs/missing",
    "#anchor",
    "other.json#/$defs/A",
    "../../etc/passwd",
    "https://example.com/s.json",
    "//example.com/s",
    "#/%24defs/A",
    "#/$defs/A/items",
];

/// A scalar JSON value (an enum member or a const).
pub fn scalar(u: &mut Unstructured<'_>) -> Result<Value> {
    Ok(match u.int_in_range(0..=6)? {
        0 => Value::Null,
        1 => Value::Bool(u.arbitrary()?),
        2 => json!(u.arbitrary::<i64>()?),
        3 => json!(u.arbitrary::<u64>()?),
        4 => serde_json::Number::from_f64(u.arbitrary()?).map_or(Value::Null, Value::Number),
        5 => Value::String(u.choose(NAMES)?.to_string()),
        _ => Value::String(text(u, 3)?),
    })
}

/// A JSON Schema, often valid, sometimes not, nested at most `depth` levels.
pub fn schema(u: &mut Unstructured<'_>, depth: usize) -> Result<Value> {
    if depth == 0 || u.is_empty() {
        return Ok(json!({"type": u.choose(TYPES)?}));
    }
    let d = depth - 1;
    Ok(match u.int_in_range(0..=13)? {
        0 => json!({"type": u.choose(TYPES)?, "description": text(u, 4)?}),
        1 => {
            let n = u.int_in_range(0..=30)?;
            let values: Vec<Value> = (0..n).map(|_| scalar(u)).collect::<Result<_>>()?;
            json!({"type": u.choose(TYPES)?, "enum": values})
        }
        2 => json!({"const": scalar(u)?}),
        3 | 4 => {
            let key = if u.arbitrary()? { "anyOf" } else { "oneOf" };
            let n = u.int_in_range(0..=4)?;
            let branches: Vec<Value> = (0..n).map(|_| schema(u, d)).collect::<Result<_>>()?;
            json!({ key: branches })
        }
        5 => {
            let n = u.int_in_range(0..=2)?;
            let members: Vec<Value> = (0..n).map(|_| schema(u, d)).collect::<Result<_>>()?;
            json!({ "allOf": members })
        }
        6 => json!({"$ref": u.choose(REFS)?}),
        7 => json!({"type": "array", "items": schema(u, d)?}),
        8 => object(u, d)?,
        9 => {
            let n = u.int_in_range(0..=3)?;
            let types: Vec<Value> = (0..n)
                .map(|_| u.choose(TYPES).map(|t| json!(t)))
                .collect::<Result<_>>()?;
            json!({ "type": types })
        }
        10 => scalar(u)?,
        11 => json!({"anyOf": [schema(u, d)?, {"type": "null"}]}),
        12 => json!({"items": schema(u, d)?}),
        _ => json!({"properties": {"x": schema(u, d)?}}),
    })
}

/// An object schema with properties, a `required` list and `$defs`.
pub fn object(u: &mut Unstructured<'_>, depth: usize) -> Result<Value> {
    let mut properties = Map::new();
    let n = u.int_in_range(0..=5)?;
    for _ in 0..n {
        let key = if u.ratio(1, 5)? {
            text(u, 2)?
        } else {
            u.choose(&["x", "kind", "query", "a|b", "名字", "with space"])?
                .to_string()
        };
        properties.insert(key, schema(u, depth)?);
    }
    let mut required = Vec::new();
    for key in properties.keys() {
        if u.arbitrary()? {
            required.push(json!(key));
        }
    }
    if u.ratio(1, 5)? {
        required.push(json!("missing"));
    }
    if u.ratio(1, 8)? {
        required.push(json!(3));
    }
    let mut map = Map::new();
    map.insert("type".into(), json!("object"));
    map.insert("properties".into(), Value::Object(properties));
    map.insert("required".into(), Value::Array(required));
    if u.arbitrary()? {
        map.insert(
            "$defs".into(),
            json!({"A": schema(u, depth)?, "B": schema(u, depth)?}),
        );
    }
    Ok(Value::Object(map))
}

/// A native tool.
pub fn tool(u: &mut Unstructured<'_>) -> Result<Value> {
    let mut map = Map::new();
    map.insert("name".into(), json!(name(u)?));
    map.insert("description".into(), json!(text(u, 40)?));
    if u.arbitrary()? {
        let n = u.int_in_range(0..=6)?;
        let triggers: Vec<String> = (0..n).map(|_| text(u, 2)).collect::<Result<_>>()?;
        map.insert("triggers".into(), json!(triggers));
    }
    if u.ratio(1, 5)? {
        map.insert("core".into(), json!(true));
    }
    if u.ratio(1, 5)? {
        map.insert("summary_budget".into(), json!(u.int_in_range(1..=200u32)?));
    }
    let depth = u.int_in_range(0..=4)?;
    map.insert("parameters".into(), object(u, depth)?);
    Ok(Value::Object(map))
}

/// A generated catalog: files (name, JSON text), an index configuration and the indices of
/// tools the profile binds beyond the core ones.
pub struct Generated {
    /// The files, in load order.
    pub files: Vec<(String, String)>,
    /// Index settings.
    pub config: IndexConfig,
    /// Extra bound tools, by catalog index.
    pub bound: Vec<usize>,
}

/// Up to three files of up to six tools each, with arbitrary index settings.
pub fn catalog(u: &mut Unstructured<'_>) -> Result<Generated> {
    let nfiles = u.int_in_range(1..=3)?;
    let mut files = Vec::new();
    for f in 0..nfiles {
        let ntools = u.int_in_range(0..=6)?;
        let tools: Vec<Value> = (0..ntools).map(|_| tool(u)).collect::<Result<_>>()?;
        let text = if u.arbitrary()? {
            serde_json::to_string_pretty(&tools)
        } else {
            serde_json::to_string(&json!({ "tools": tools }))
        }
        .map_err(|_| arbitrary::Error::IncorrectFormat)?;
        files.push((format!("f{f}.json"), text));
    }
    let config = IndexConfig {
        summary_budget: u.int_in_range(1..=300)?,
        max_enum_values: u.int_in_range(0..=25)?,
        ..IndexConfig::default()
    };
    let n = u.int_in_range(0..=3)?;
    let bound = (0..n)
        .map(|_| u.int_in_range(0..=17usize))
        .collect::<Result<_>>()?;
    Ok(Generated {
        files,
        config,
        bound,
    })
}

/// A scratch project directory of this process, emptied and filled with `files` (relative
/// path, text): the targets that need real files (`config`, `refs`) load from it.
pub fn scratch_project(files: &[(String, String)]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("discloser-fuzz-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for (path, text) in files {
        let full = dir.join(path);
        if let Some(parent) = full.parent() {
            std::fs::create_dir_all(parent).expect("create the scratch project");
        }
        std::fs::write(full, text).expect("write the scratch project");
    }
    dir
}

/// Every profile of a loaded project renders with the index invariants.
pub fn check_project(project: &discloser::project::Project) {
    for name in project.profile_names() {
        let profile = project
            .profile(&name)
            .expect("a profile named by the project resolves");
        check_index(&project.catalog, &profile, project.index_config());
    }
}
