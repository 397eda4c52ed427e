//! `discloser.yaml`: where the tools are, how the index looks, the profiles (starter sets) and
//! per-tool overrides.
//!
//! Unknown keys are errors with `file:line:col`, so a typo never silently falls back to a
//! default. Values that name tools or profiles keep their position for later errors.

use std::collections::BTreeMap;

use indexmap::IndexMap;

use serde::Deserialize;
use serde_saphyr::Spanned;

/// The file name looked for in the current directory and its parents.
pub const CONFIG_FILE: &str = "discloser.yaml";

/// The header used when `index.header` is not set.
pub const DEFAULT_HEADER: &str = "These tools are not loaded yet, but you can call any of them directly by name with the parameters shown.\n\
`a|b` lists the only accepted values; `…` means the tool also takes optional parameters.\n\
Words in [brackets] are what users say when they need that tool.";

/// The whole configuration file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// Files, directories or globs, relative to the config file.
    #[serde(default)]
    pub sources: Vec<Spanned<String>>,
    /// Rendering settings.
    #[serde(default)]
    pub index: IndexConfig,
    /// Starter sets by name, in the order written.
    #[serde(default)]
    pub profiles: IndexMap<String, ProfileDef>,
    /// Per-tool settings for tools whose files cannot carry them.
    #[serde(default)]
    pub overrides: BTreeMap<String, Spanned<Override>>,
    /// The search tool's definition (`builtin`, or `{name, description, parameters}`), bound in
    /// every profile that relies on search, so `cost` counts it.
    #[serde(default)]
    pub search_tool: Option<Spanned<SearchToolConfig>>,
}

/// `search_tool:` — the built-in definition or a custom one.
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
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
#[serde(deny_unknown_fields)]
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
#[serde(deny_unknown_fields)]
pub struct ProfileDef {
    /// Another profile whose bound tools this one starts from.
    #[serde(default)]
    pub extends: Option<Spanned<String>>,
    /// Tools bound in this profile.
    #[serde(default)]
    pub starter: Vec<Spanned<String>>,
    /// Tools added to the extended profile (same meaning as `starter`).
    #[serde(default)]
    pub add: Vec<Spanned<String>>,
    /// Tools of the extended profile that this one does not bind (core tools stay bound).
    #[serde(default)]
    pub remove: Vec<Spanned<String>>,
}

/// Settings for one tool, applied over its file.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
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
