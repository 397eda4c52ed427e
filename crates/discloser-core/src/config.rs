//! `discloser.yaml`: where the tools are, how the index looks, the profiles (starter sets) and
//! per-tool overrides.
//!
//! Unknown keys are errors with `file:line:col`, so a typo never silently falls back to a
//! default. The file is parsed into a JSON value first and then typed with the path of any
//! mismatch recorded, so every error is placed on the exact key or value; later errors about
//! names (unknown tools, profiles) locate their value the same way, by JSON pointer.

use std::collections::BTreeMap;

use indexmap::IndexMap;

use serde::Deserialize;
use serde_json::Value;

use crate::catalog::formats::Format;
use crate::diagnostic::LoadError;
use crate::source::SourceFile;
use crate::typing::Wording;

/// The file name looked for in the current directory and its parents.
pub const CONFIG_FILE: &str = "discloser.yaml";

/// Every config file name looked for, in order of preference within one directory.
pub const CONFIG_FILES: &[&str] = &[CONFIG_FILE, "discloser.yml"];

/// The header used when `index.header` is not set.
pub const DEFAULT_HEADER: &str = "These tools are not loaded yet, but you can call any of them directly by name with the parameters shown.\n\
`a|b` lists the only accepted values; `…` means the tool also takes optional parameters.\n\
Words in [brackets] are what users say when they need that tool.";

/// The default header of an index whose entries have no trigger words: without the sentence
/// about `[brackets]`.
pub const DEFAULT_HEADER_WITHOUT_TRIGGERS: &str = "These tools are not loaded yet, but you can call any of them directly by name with the parameters shown.\n\
`a|b` lists the only accepted values; `…` means the tool also takes optional parameters.";

/// The whole configuration file.
#[derive(Debug, Default, Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "a mapping with `sources`, `index`, `profiles`, `triggers`, `overrides`"
)]
pub struct Config {
    /// Files, directories or globs (relative to the config file), each optionally with its
    /// format, or live MCP servers.
    #[serde(default)]
    pub sources: Vec<SourceSpec>,
    /// Rendering settings.
    #[serde(default)]
    pub index: IndexConfig,
    /// Starter sets by name, in the order written.
    #[serde(default)]
    pub profiles: IndexMap<String, Option<ProfileDef>>,
    /// Trigger files (relative to the config file): each maps tool names to trigger words
    /// (`tool: [word, ...]`), for tools whose format cannot carry them (OpenAI, Anthropic and
    /// Gemini definitions reject unknown keys). A file's list replaces the tool's own; a later
    /// file wins over an earlier one, and `overrides` over every file.
    #[serde(default)]
    pub triggers: Vec<String>,
    /// Per-tool settings for tools whose files cannot carry them.
    #[serde(default)]
    pub overrides: BTreeMap<String, Override>,
    /// The search tool's definition (`builtin`, or `{name, description, parameters}`), bound in
    /// every profile that relies on search, so `cost` counts it.
    #[serde(default)]
    pub search_tool: Option<SearchToolConfig>,
    /// Where `snapshot` writes and `check` reads the model-facing bytes.
    #[serde(default)]
    pub snapshots: SnapshotConfig,
    /// Lint rule selection and severities.
    #[serde(default)]
    pub lint: LintConfig,
    /// Findability thresholds of `discloser reach`.
    #[serde(default)]
    pub reach: ReachConfig,
}

/// One entry of `sources`: `tools/*.yaml`, `{path: tools/*.json, format: openai}` or
/// `{mcp: {command: [npx, -y, server], timeout: 30}}`.
#[derive(Clone, Debug, PartialEq)]
pub enum SourceSpec {
    /// Files, a directory or a glob, each file in its detected format.
    Path(String),
    /// Files, a directory or a glob, all in the named format (detected when `None`).
    Files {
        /// The file, directory or glob.
        path: String,
        /// The format every matched file is in.
        format: Option<Format>,
    },
    /// A live MCP server started over stdio; its tools are pulled on every load.
    Mcp(McpSource),
}

/// `mcp:` of a source: how to start the server.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(
    deny_unknown_fields,
    expecting = "a mapping with `command` (a list) and `timeout`"
)]
pub struct McpSource {
    /// The program and its arguments; the program is looked up in `PATH`, and runs in the
    /// directory of the config file.
    pub command: Vec<String>,
    /// Seconds the whole exchange (start, handshake, every page of `tools/list`) may take.
    #[serde(default)]
    pub timeout: Option<f64>,
}

impl From<&str> for SourceSpec {
    fn from(path: &str) -> SourceSpec {
        SourceSpec::Path(path.to_owned())
    }
}

/// The mapping form of a source, before its keys are checked against each other.
#[derive(Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "a path or glob, `{path, format}`, or `{mcp: {command: [...]}}`"
)]
struct SourceMap {
    #[serde(default)]
    path: Option<String>,
    #[serde(default)]
    format: Option<Format>,
    #[serde(default)]
    mcp: Option<McpSource>,
}

impl<'de> Deserialize<'de> for SourceSpec {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = SourceSpec;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a path or glob, `{path, format}`, or `{mcp: {command: [...]}}`")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<SourceSpec, E> {
                Ok(SourceSpec::Path(v.to_owned()))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                map: A,
            ) -> Result<SourceSpec, A::Error> {
                use serde::de::Error;
                let raw =
                    SourceMap::deserialize(serde::de::value::MapAccessDeserializer::new(map))?;
                match raw {
                    SourceMap {
                        path: Some(path),
                        format,
                        mcp: None,
                    } => Ok(SourceSpec::Files { path, format }),
                    SourceMap {
                        path: None,
                        format: None,
                        mcp: Some(mcp),
                    } => Ok(SourceSpec::Mcp(mcp)),
                    SourceMap {
                        path: Some(_),
                        mcp: Some(_),
                        ..
                    } => Err(A::Error::custom(
                        "a source has either `path` or `mcp`, not both",
                    )),
                    SourceMap {
                        mcp: Some(_),
                        format: Some(_),
                        ..
                    } => Err(A::Error::custom(
                        "an `mcp` source needs no `format`: its tools are MCP tools",
                    )),
                    SourceMap { .. } => Err(A::Error::custom(
                        "a source mapping needs `path` (with an optional `format`) or `mcp`",
                    )),
                }
            }
        }
        d.deserialize_any(V)
    }
}

/// `snapshots:` settings.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, expecting = "a mapping of snapshot settings")]
pub struct SnapshotConfig {
    /// The snapshot folder, relative to the config file.
    #[serde(default = "default_snapshot_dir")]
    pub dir: String,
}

impl Default for SnapshotConfig {
    fn default() -> Self {
        SnapshotConfig {
            dir: default_snapshot_dir(),
        }
    }
}

fn default_snapshot_dir() -> String {
    "snapshots".to_owned()
}

/// `lint:` settings.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, expecting = "a mapping of lint settings")]
pub struct LintConfig {
    /// Rule codes or names to run (default: all).
    #[serde(default)]
    pub select: Vec<String>,
    /// Rule codes or names not to run.
    #[serde(default)]
    pub ignore: Vec<String>,
    /// Severity overrides by rule code or name: `error`, `warning`.
    #[serde(default)]
    pub severity: BTreeMap<String, String>,
    /// Description lengths at which clients cut descriptions (default: OpenAI 1024, Claude
    /// Code 2048), for `mid-sentence-cut`.
    #[serde(default)]
    pub description_limits: Option<Vec<usize>>,
    /// Every tool of the index must have trigger words (`missing-triggers` flags each one
    /// without, not only the lists left empty).
    #[serde(default)]
    pub require_triggers: bool,
}

/// `reach:` settings: the findability gate of `discloser reach`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, expecting = "a mapping of reach settings")]
pub struct ReachConfig {
    /// Minimum recall@1 of search over the cases (a fraction, 0 to 1).
    #[serde(default, deserialize_with = "fraction")]
    pub min_recall_at_1: Option<f64>,
    /// Minimum recall@3.
    #[serde(default, deserialize_with = "fraction")]
    pub min_recall_at_3: Option<f64>,
    /// Minimum recall@5.
    #[serde(default, deserialize_with = "fraction")]
    pub min_recall_at_5: Option<f64>,
    /// Cases allowed to have a tool no path reaches (default 0).
    #[serde(default)]
    pub max_unreachable: usize,
    /// How deep search must rank a tool for the search path to reach it (default 5).
    #[serde(default = "default_search_limit", deserialize_with = "positive")]
    pub search_limit: usize,
}

impl Default for ReachConfig {
    fn default() -> Self {
        ReachConfig {
            min_recall_at_1: None,
            min_recall_at_3: None,
            min_recall_at_5: None,
            max_unreachable: 0,
            search_limit: default_search_limit(),
        }
    }
}

fn default_search_limit() -> usize {
    5
}

fn fraction<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    let value = Option::<f64>::deserialize(d)?;
    match value {
        Some(v) if !(0.0..=1.0).contains(&v) => Err(serde::de::Error::custom(format!(
            "must be a fraction between 0 and 1, found {v}"
        ))),
        other => Ok(other),
    }
}

fn positive<'de, D: serde::Deserializer<'de>>(d: D) -> Result<usize, D::Error> {
    match usize::deserialize(d)? {
        0 => Err(serde::de::Error::custom("must be at least 1, found 0")),
        n => Ok(n),
    }
}

/// `search_tool:` — the built-in definition or a custom one.
#[derive(Clone, Debug, Deserialize)]
#[serde(
    untagged,
    expecting = "`builtin` or a mapping with `name`, `description` and `parameters`"
)]
pub enum SearchToolConfig {
    /// `search_tool: builtin`.
    Builtin(Builtin),
    /// `search_tool: {name, description, parameters}`.
    Custom(SearchTool),
}

/// The word `builtin`.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Builtin {
    /// The built-in search tool definition.
    Builtin,
}

/// A search tool definition.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct SearchTool {
    /// The tool name.
    pub name: String,
    /// Its description.
    #[serde(default)]
    pub description: String,
    /// Its JSON Schema.
    #[serde(default = "empty_object_schema")]
    pub parameters: serde_json::Value,
}

fn empty_object_schema() -> serde_json::Value {
    serde_json::json!({"type": "object", "properties": {}})
}

impl SearchTool {
    /// The built-in definition: a keyword search over the catalog's trigger words, names and
    /// descriptions.
    pub fn builtin() -> SearchTool {
        SearchTool {
            name: "search_tools".to_owned(),
            description:
                "Search the tool catalog by keywords and bind the best matches for the next step. \
Use it only when no bound tool and no tool in the index fits the request."
                    .to_owned(),
            parameters: serde_json::json!({
                "type": "object",
                "properties": {
                    "query": {"type": "string", "description": "Words describing the capability you need, in the user's language."},
                    "limit": {"type": "integer", "minimum": 1, "maximum": 10, "description": "How many tools to return (default 5)."}
                },
                "required": ["query"]
            }),
        }
    }
}

/// `index:` settings.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, expecting = "a mapping of index settings")]
pub struct IndexConfig {
    /// Text above the entries.
    #[serde(default = "default_header")]
    pub header: String,
    /// Characters available for an entry's summary.
    #[serde(default = "default_summary_budget")]
    pub summary_budget: usize,
    /// Above this many values, an enum is summarised as `type (one of N values)`.
    #[serde(default = "default_max_enum_values")]
    pub max_enum_values: usize,
}

impl Default for IndexConfig {
    fn default() -> Self {
        IndexConfig {
            header: default_header(),
            summary_budget: default_summary_budget(),
            max_enum_values: default_max_enum_values(),
        }
    }
}

fn default_header() -> String {
    DEFAULT_HEADER.to_owned()
}

fn default_summary_budget() -> usize {
    100
}

fn default_max_enum_values() -> usize {
    20
}

/// A profile: the tools bound in one kind of turn.
#[derive(Debug, Default, Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "a profile (a mapping with `starter`, `extends`, `add` or `remove`)"
)]
pub struct ProfileDef {
    /// Another profile whose bound tools this one starts from.
    #[serde(default)]
    pub extends: Option<String>,
    /// Tools bound in this profile.
    #[serde(default)]
    pub starter: Vec<String>,
    /// Tools added to the extended profile (same meaning as `starter`).
    #[serde(default)]
    pub add: Vec<String>,
    /// Tools of the extended profile that this one does not bind (core tools stay bound).
    #[serde(default)]
    pub remove: Vec<String>,
}

/// Settings for one tool, applied over its file.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, expecting = "a mapping of tool settings")]
pub struct Override {
    /// Replaces the tool's triggers.
    #[serde(default)]
    pub triggers: Option<Vec<String>>,
    /// Replaces the tool's `core` flag.
    #[serde(default)]
    pub core: Option<bool>,
    /// Replaces the tool's summary budget.
    #[serde(default)]
    pub summary_budget: Option<usize>,
    /// Replaces the tool's suppressed lint codes.
    #[serde(default)]
    pub lint_ignore: Option<Vec<String>>,
}

/// The longest profile name, in bytes: a profile names a snapshot folder, and file systems
/// allow 255 bytes per name; the rest is headroom for the paths built around it.
pub const MAX_PROFILE_NAME_BYTES: usize = 100;

/// Why `name` cannot be a profile name, `None` when it can. The one rule for every place a
/// profile name is made: the config, `suggest --write-profile`, and `snapshot`, which writes a
/// folder per profile, so a name must be a portable folder name.
pub fn profile_name_problem(name: &str) -> Option<String> {
    if name.is_empty() {
        Some("it is empty".to_owned())
    } else if name.trim().is_empty() {
        Some("it is blank".to_owned())
    } else if name.starts_with('.') {
        Some("it starts with `.`".to_owned())
    } else if name.chars().any(|c| {
        c.is_control() || matches!(c, '/' | '\\' | ':' | '*' | '?' | '"' | '<' | '>' | '|')
    }) {
        Some("it contains a path separator or a character not allowed in file names".to_owned())
    } else if name.len() > MAX_PROFILE_NAME_BYTES {
        Some(format!(
            "it is {} bytes long, over the limit of {MAX_PROFILE_NAME_BYTES}",
            name.len()
        ))
    } else {
        None
    }
}

impl Config {
    /// Parses a config file. Errors are placed on the offending key or value.
    pub fn parse(source: &SourceFile) -> Result<Config, LoadError> {
        let value = match source.parse()? {
            Value::Null => Value::Object(serde_json::Map::new()),
            value => value,
        };
        crate::typing::typed(source, value, Wording::Config)
    }
}
