//! Tool definition formats: which one a file is written in, and reading every tool of it into
//! discloser's model.
//!
//! A file is read in three steps.
//! 1. **Containers** are unwrapped into tool items: a bare list, `{tools: [...]}` (native, an MCP
//!    `tools/list` result, or any provider's request body with other keys beside `tools`), the
//!    JSON-RPC envelope of a `tools/list` response, `{functions: [...]}` (OpenAI's legacy
//!    request), Gemini `{functionDeclarations: [...]}` tool objects, LiveMCPBench's list of
//!    servers, a single tool, and JSON Lines (one tool per line, as in BFCL).
//! 2. **The format** is the one named for the source (`format:` in `discloser.yaml`), or else the
//!    one every item agrees on: each key of a tool says which formats it can belong to
//!    (`inputSchema` only MCP, `input_schema` only Anthropic, `triggers` only native, ...), and
//!    the sets of all items are intersected. An empty intersection is an error that names both
//!    sides ("mixed tool formats"); several survivors are equivalent readings and the first in
//!    [`Format`] order wins, so a native file is always read as native.
//! 3. **Each item** is read strictly in that format: a key the format does not define is an
//!    error with a "did you mean", exactly as in native files.
//!
//! Nothing is guessed silently: a file whose shape matches no format gets the native loader's
//! error (what a tool file may hold), hosted/built-in provider tools (web search, code
//! execution) are refused rather than skipped, and a `tools/list` page with a `nextCursor` is
//! refused because the rest of the server's tools are not in it.

pub mod anthropic;
pub mod docker;
pub mod export;
pub mod gemini;
pub mod mcp;
pub mod openai;
pub mod provider;
pub mod yaml;

use serde_json::{Map, Value};

mod fields;
pub mod native;

use super::{Origin, Tool};
use crate::diagnostic::{ErrorKind, LoadError};
use crate::source::{SourceFile, Syntax, Target, pointer_push};
pub(crate) use fields::{Fields, backticked, empty_schema, kind_of, name_of, value_text};

/// A tool definition format, in order of preference when a file reads the same in several.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// discloser's own format: `{name, description, parameters, triggers, ...}`.
    Native,
    /// OpenAI's legacy `functions`: `{name, description, parameters}` (BFCL adds `response`).
    OpenaiFunctions,
    /// MCP: `{name, title, description, inputSchema, annotations, ...}`.
    Mcp,
    /// Anthropic Messages: `{name, description, input_schema}`.
    Anthropic,
    /// Gemini function declarations: `{name, description, parameters | parametersJsonSchema}`,
    /// `parameters` in OpenAPI style (`type: STRING`).
    Gemini,
    /// Docker's MCP catalog: `{name, description, arguments: [{name, type, desc, optional}]}`.
    Docker,
    /// OpenAI Responses: `{type: function, name, description, parameters}`.
    OpenaiResponses,
    /// OpenAI Chat Completions: `{type: function, function: {name, description, parameters}}`.
    Openai,
}

impl Format {
    /// Every format, in order of preference.
    pub const ALL: [Format; 8] = [
        Format::Native,
        Format::OpenaiFunctions,
        Format::Mcp,
        Format::Anthropic,
        Format::Gemini,
        Format::Docker,
        Format::OpenaiResponses,
        Format::Openai,
    ];

    /// The name used in `discloser.yaml` and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Format::Native => "native",
            Format::OpenaiFunctions => "openai-functions",
            Format::Mcp => "mcp",
            Format::Anthropic => "anthropic",
            Format::Gemini => "gemini",
            Format::Docker => "docker",
            Format::OpenaiResponses => "openai-responses",
            Format::Openai => "openai",
        }
    }

    /// The name used in messages.
    pub fn label(self) -> &'static str {
        match self {
            Format::Native => "discloser",
            Format::OpenaiFunctions => "OpenAI legacy `functions`",
            Format::Mcp => "MCP",
            Format::Anthropic => "Anthropic",
            Format::Gemini => "Gemini",
            Format::Docker => "Docker MCP catalog",
            Format::OpenaiResponses => "OpenAI Responses",
            Format::Openai => "OpenAI Chat Completions",
        }
    }
}

/// A set of formats (a bit per format, in [`Format::ALL`] order).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FormatSet(u16);

impl FormatSet {
    /// Every format.
    pub const ALL: FormatSet = FormatSet((1 << Format::ALL.len()) - 1);
    /// No format.
    pub const NONE: FormatSet = FormatSet(0);

    /// The set of these formats.
    pub fn of(formats: &[Format]) -> FormatSet {
        FormatSet(formats.iter().fold(0, |bits, f| bits | FormatSet::bit(*f)))
    }

    fn bit(format: Format) -> u16 {
        let index = Format::ALL
            .iter()
            .position(|f| *f == format)
            .expect("every format is in Format::ALL");
        1 << index
    }

    /// Whether `format` is in the set.
    pub fn contains(self, format: Format) -> bool {
        self.0 & FormatSet::bit(format) != 0
    }

    /// The formats in both sets.
    #[must_use]
    pub fn and(self, other: FormatSet) -> FormatSet {
        FormatSet(self.0 & other.0)
    }

    /// The formats in either set.
    #[must_use]
    pub fn or(self, other: FormatSet) -> FormatSet {
        FormatSet(self.0 | other.0)
    }

    /// The formats of `self` not in `other`.
    #[must_use]
    pub fn without(self, other: FormatSet) -> FormatSet {
        FormatSet(self.0 & !other.0)
    }

    /// Whether the set is empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The formats in the set, in order of preference.
    pub fn iter(self) -> impl Iterator<Item = Format> {
        Format::ALL.into_iter().filter(move |f| self.contains(*f))
    }

    /// The preferred format of the set.
    pub fn first(self) -> Option<Format> {
        self.iter().next()
    }

    /// `MCP`, `discloser or OpenAI legacy `functions``, for messages.
    pub fn describe(self) -> String {
        let labels: Vec<&str> = self.iter().map(Format::label).collect();
        match labels.as_slice() {
            [] => "no known format".to_owned(),
            [one] => (*one).to_owned(),
            [init @ .., last] => format!("{} or {last}", init.join(", ")),
        }
    }
}

/// Formats a tool object without a `type` key can be in.
const UNTYPED: FormatSet = FormatSet::ALL.without_typed();

impl FormatSet {
    /// The set without the formats whose tools require a `type` key.
    const fn without_typed(self) -> FormatSet {
        // Openai and OpenaiResponses are the last two of Format::ALL.
        FormatSet(self.0 & !(0b11 << (Format::ALL.len() - 2)))
    }
}

/// Reads one source: its tools, in the named format or the detected one. A JSON Lines file gives
/// one document per line (padded with the lines before it, so positions stay exact); every
/// other file gives itself. `first_file` is the catalog index the first document will get.
pub fn read(
    source: SourceFile,
    forced: Option<Format>,
    first_file: usize,
) -> Result<Vec<(SourceFile, Vec<Tool>)>, LoadError> {
    let docs = match source.parse() {
        Ok(value) => vec![(source, value)],
        Err(error) => json_lines(&source).ok_or(error)??,
    };
    if let Some(error) = too_many_tools(&docs) {
        return Err(error);
    }
    let mut tools = read_documents(&docs, forced, first_file)?;
    // Packed as soon as the file is read (files load in parallel): a catalog never holds every
    // tool's schema parsed at once.
    for tool in &mut tools {
        tool.parameters.pack();
    }
    // Every vector of tools at its exact size: a whole catalog's of them are held at once
    // while the catalog gathers them.
    if docs.len() == 1 {
        tools.shrink_to_fit();
        let (source, _) = docs.into_iter().next().expect("one document");
        return Ok(vec![(source, tools)]);
    }
    let mut counts = vec![0_usize; docs.len()];
    for tool in &tools {
        counts[tool.origin.file - first_file] += 1;
    }
    let mut out: Vec<(SourceFile, Vec<Tool>)> = docs
        .into_iter()
        .zip(counts)
        .map(|((source, _), n)| (source, Vec::with_capacity(n)))
        .collect();
    for tool in tools {
        out[tool.origin.file - first_file].1.push(tool);
    }
    Ok(out)
}

pub use crate::source::MAX_TOOLS_PER_FILE;

/// The error for a file with more than [`MAX_TOOLS_PER_FILE`] tools (a list of tools, a
/// `tools` list, or JSON Lines), at the first tool over the limit.
fn too_many_tools(docs: &[(SourceFile, Value)]) -> Option<LoadError> {
    let message = || {
        format!(
            "more than {MAX_TOOLS_PER_FILE} tools in one file, more than discloser loads: split the catalog into several files"
        )
    };
    if docs.len() > MAX_TOOLS_PER_FILE {
        let (source, _) = &docs[MAX_TOOLS_PER_FILE];
        let pos = source.position_of(source.text.len() - source.text.trim_start().len());
        return Some(LoadError::at(
            ErrorKind::Shape,
            &source.path,
            &source.text,
            pos,
            message(),
        ));
    }
    let (source, value) = docs.first()?;
    let (list, pointer) = match value {
        Value::Array(list) => (list, format!("/{MAX_TOOLS_PER_FILE}")),
        Value::Object(map) => match map.get("tools") {
            Some(Value::Array(list)) => (list, format!("/tools/{MAX_TOOLS_PER_FILE}")),
            _ => return None,
        },
        _ => return None,
    };
    if list.len() <= MAX_TOOLS_PER_FILE {
        return None;
    }
    // Positions only as deep as the pointer: the whole file's would cost more than its tools.
    let pos = source
        .locate_all([(pointer.as_str(), Target::Value)])
        .pop()
        .unwrap_or(crate::diagnostic::Position::START);
    Some(LoadError::at(
        ErrorKind::Shape,
        &source.path,
        &source.text,
        pos,
        message(),
    ))
}

/// A JSON Lines file (several JSON objects, one per line) as one document per line; `None` when
/// the text is not JSON Lines (then the whole-file parse error stands).
#[allow(clippy::type_complexity)]
fn json_lines(source: &SourceFile) -> Option<Result<Vec<(SourceFile, Value)>, LoadError>> {
    if source.syntax != Syntax::Json {
        return None;
    }
    let lines: Vec<(usize, &str)> = source
        .text
        .lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .collect();
    let padded = |i: usize, line: &str| {
        SourceFile::from_text(format!("{}{line}", "\n".repeat(i)), source.path.clone())
    };
    // It is JSON Lines only if the first line is a whole JSON object on its own.
    let (first, first_line) = *lines.first()?;
    if lines.len() < 2
        || !first_line.trim_start().starts_with('{')
        || padded(first, first_line).parse().is_err()
    {
        return None;
    }
    let docs = lines
        .into_iter()
        .map(|(i, line)| {
            let doc = padded(i, line);
            doc.parse().map(|value| (doc, value))
        })
        .collect();
    Some(docs)
}

/// A tool object found in a document, and the formats its container allows.
struct Item<'a> {
    doc: usize,
    pointer: String,
    value: &'a Value,
    allowed: FormatSet,
}

/// How a document holds its tools.
enum Layout<'a> {
    /// Tool items; `beside_tools` when keys sit next to `tools`, which a native file may not
    /// have (a request body or a capture may).
    Items {
        items: Vec<Item<'a>>,
        beside_tools: bool,
    },
    /// No known container: the native loader reads it (and explains what a tool file holds).
    Native,
}

fn read_documents(
    docs: &[(SourceFile, Value)],
    forced: Option<Format>,
    first_file: usize,
) -> Result<Vec<Tool>, LoadError> {
    let lines = docs.len() > 1;
    let mut items = Vec::new();
    let mut beside_tools = false;
    for (doc, (source, value)) in docs.iter().enumerate() {
        let layout = if lines {
            Layout::Items {
                items: vec![Item {
                    doc,
                    pointer: String::new(),
                    value,
                    allowed: FormatSet::ALL,
                }],
                beside_tools: false,
            }
        } else {
            layout(source, value, doc)?
        };
        match layout {
            Layout::Items {
                items: found,
                beside_tools: beside,
            } => {
                items.extend(found);
                beside_tools |= beside;
            }
            Layout::Native => {
                return match forced {
                    None | Some(Format::Native) => {
                        native::parse_tools(source, value, first_file + doc)
                    }
                    Some(format) => Err(source.error_at(
                        ErrorKind::Shape,
                        "",
                        Target::Value,
                        format!(
                            "expected {} tools (a tool, a list of tools, or `{{tools: [...]}}`), found {}",
                            format.label(),
                            what_is(value)
                        ),
                    )),
                };
            }
        }
    }
    let format = match forced {
        Some(format) => format,
        None => detect(docs, &items)?,
    };
    if format == Format::Native && beside_tools {
        // Read as native, the keys beside `tools` are unknown: let the native loader say so.
        let (source, value) = &docs[0];
        return native::parse_tools(source, value, first_file);
    }
    items
        .iter()
        .map(|item| {
            let source = &docs[item.doc].0;
            read_item(source, item, format, first_file + item.doc)
        })
        .collect()
}

/// "a mapping with `a`, `b`", "a list", ... for messages about a whole document.
fn what_is(value: &Value) -> String {
    match value {
        Value::Object(map) if !map.is_empty() => {
            let keys: Vec<&str> = map.keys().map(String::as_str).take(6).collect();
            format!("a mapping with {}", backticked(&keys))
        }
        other => kind_of(other).to_owned(),
    }
}

/// Keys that hold tools; two of them in one mapping is a mix of formats.
const TOOL_LISTS: &[&str] = &[
    "tools",
    "functions",
    "functionDeclarations",
    "function_declarations",
];

fn layout<'a>(source: &SourceFile, value: &'a Value, doc: usize) -> Result<Layout<'a>, LoadError> {
    let error = |pointer: &str, target: Target, message: String| {
        source.error_at(ErrorKind::Shape, pointer, target, message)
    };
    let map = match value {
        Value::Array(list) => {
            return Ok(Layout::Items {
                items: list_items(source, list, "", doc, FormatSet::ALL)?,
                beside_tools: false,
            });
        }
        Value::Object(map) => map,
        _ => return Ok(Layout::Native),
    };
    let lists: Vec<&str> = TOOL_LISTS
        .iter()
        .copied()
        .filter(|k| map.contains_key(*k))
        .collect();
    if let [first, second, ..] = lists.as_slice() {
        return Err(error(
            &pointer_push("", second),
            Target::Key,
            format!(
                "mixed tool formats: both `{first}` and `{second}` hold tools; a file holds tools of one format"
            ),
        ));
    }
    if map.contains_key("jsonrpc") {
        return json_rpc(source, map, doc);
    }
    match lists.first().copied() {
        Some("tools") => {
            let Value::Array(list) = &map["tools"] else {
                return Ok(Layout::Native);
            };
            let others: Vec<&String> = map.keys().filter(|k| *k != "tools").collect();
            if let Some(cursor) = map.get("nextCursor").filter(|c| !is_empty(c)) {
                return Err(error(
                    "/nextCursor",
                    Target::Value,
                    format!(
                        "this MCP `tools/list` page has `nextCursor` {cursor}: the server has more tools than the file holds; capture every page with `discloser pull --mcp`"
                    ),
                ));
            }
            let mcp_result = others.iter().all(|k| MCP_RESULT_KEYS.contains(&k.as_str()));
            let allowed = if !others.is_empty() && mcp_result {
                FormatSet::of(&[Format::Mcp])
            } else {
                FormatSet::ALL
            };
            Ok(Layout::Items {
                items: list_items(source, list, "/tools", doc, allowed)?,
                // An MCP result's own keys are fine even when it lists no tool.
                beside_tools: !others.is_empty() && !mcp_result,
            })
        }
        Some("functions") => match &map["functions"] {
            Value::Array(list) => Ok(Layout::Items {
                items: plain_items(
                    list,
                    "/functions",
                    doc,
                    FormatSet::of(&[Format::OpenaiFunctions]),
                ),
                beside_tools: false,
            }),
            other => Err(error(
                "/functions",
                Target::Value,
                format!(
                    "`functions` must be a list of functions, found {}",
                    kind_of(other)
                ),
            )),
        },
        Some(key) => Ok(Layout::Items {
            items: gemini::declarations(source, map, key, "")?
                .into_iter()
                .map(|(pointer, value)| Item {
                    doc,
                    pointer,
                    value,
                    allowed: FormatSet::of(&[Format::Gemini]),
                })
                .collect(),
            beside_tools: false,
        }),
        None if map.contains_key("name") || map.contains_key("function") => Ok(Layout::Items {
            items: vec![Item {
                doc,
                pointer: String::new(),
                value,
                allowed: FormatSet::ALL,
            }],
            beside_tools: false,
        }),
        // A definitions file: schemas that tools of other files reference (`common.yaml#/$defs/Kind`).
        None if is_definitions_file(map) => Ok(Layout::Items {
            items: Vec::new(),
            beside_tools: false,
        }),
        None if map
            .iter()
            .any(|(k, v)| k == "description" || key_formats(k, v).is_some()) =>
        {
            // Tool keys without a name: the native loader says what is missing.
            Ok(Layout::Native)
        }
        None => Err(error(
            "",
            Target::Value,
            format!(
                "no tools here: expected a tool (a mapping with `name`), a list of tools, `{{tools: [...]}}` (native, MCP `tools/list`, or a request body), a JSON-RPC response to `tools/list`, `{{functions: [...]}}` or Gemini `{{functionDeclarations: [...]}}`; found {}",
                what_is(value)
            ),
        )),
    }
}

/// Whether a document holds only shared schemas: `$defs` or `definitions` (a mapping), with at
/// most the keys a schema document has besides them.
fn is_definitions_file(map: &Map<String, Value>) -> bool {
    const KEYS: &[&str] = &[
        "$defs",
        "definitions",
        "$schema",
        "$id",
        "$comment",
        "title",
        "description",
    ];
    ["$defs", "definitions"]
        .iter()
        .any(|k| matches!(map.get(*k), Some(Value::Object(_))))
        && map.keys().all(|k| KEYS.contains(&k.as_str()))
}

/// Keys of an MCP `tools/list` result besides `tools`.
const MCP_RESULT_KEYS: &[&str] = &["nextCursor", "_meta", "ttlMs", "cacheScope", "resultType"];

fn is_empty(value: &Value) -> bool {
    match value {
        Value::Null => true,
        Value::String(s) => s.is_empty(),
        _ => false,
    }
}

/// The tools of a JSON-RPC response to `tools/list`.
fn json_rpc<'a>(
    source: &SourceFile,
    map: &'a Map<String, Value>,
    doc: usize,
) -> Result<Layout<'a>, LoadError> {
    let error = |pointer: &str, message: String| {
        source.error_at(ErrorKind::Shape, pointer, Target::Key, message)
    };
    let result = match (map.get("result"), map.get("error")) {
        (Some(Value::Object(result)), _) => result,
        (_, Some(_)) => {
            return Err(error(
                "/error",
                "this JSON-RPC message is an error response, not a `tools/list` result".into(),
            ));
        }
        (Some(other), _) => {
            return Err(source.error_at(
                ErrorKind::Shape,
                "/result",
                Target::Value,
                format!(
                    "expected the `result` of `tools/list` (a mapping with `tools`), found {}",
                    kind_of(other)
                ),
            ));
        }
        (None, None) => {
            let what = match map.get("method").and_then(Value::as_str) {
                Some(method) => format!("a `{method}` request or notification"),
                None => "a JSON-RPC message without `result`".to_owned(),
            };
            return Err(error(
                "/jsonrpc",
                format!("expected a JSON-RPC response to `tools/list`, found {what}"),
            ));
        }
    };
    let Some(Value::Array(list)) = result.get("tools") else {
        return Err(error(
            "/result",
            "the JSON-RPC `result` has no `tools` list: is it the response to `tools/list`?".into(),
        ));
    };
    if let Some(cursor) = result.get("nextCursor").filter(|c| !is_empty(c)) {
        return Err(source.error_at(
            ErrorKind::Shape,
            "/result/nextCursor",
            Target::Value,
            format!(
                "this MCP `tools/list` page has `nextCursor` {cursor}: the server has more tools than the file holds; capture every page with `discloser pull --mcp`"
            ),
        ));
    }
    Ok(Layout::Items {
        items: plain_items(list, "/result/tools", doc, FormatSet::of(&[Format::Mcp])),
        beside_tools: false,
    })
}

fn plain_items<'a>(list: &'a [Value], at: &str, doc: usize, allowed: FormatSet) -> Vec<Item<'a>> {
    list.iter()
        .enumerate()
        .map(|(i, value)| Item {
            doc,
            pointer: pointer_push(at, i),
            value,
            allowed,
        })
        .collect()
}

/// The items of a list of tools, unwrapping Gemini tool objects and LiveMCPBench servers.
fn list_items<'a>(
    source: &SourceFile,
    list: &'a [Value],
    at: &str,
    doc: usize,
    allowed: FormatSet,
) -> Result<Vec<Item<'a>>, LoadError> {
    let mut items = Vec::new();
    for (i, value) in list.iter().enumerate() {
        let pointer = pointer_push(at, i);
        let Value::Object(map) = value else {
            items.push(Item {
                doc,
                pointer,
                value,
                allowed,
            });
            continue;
        };
        if let Some(key) = ["functionDeclarations", "function_declarations"]
            .into_iter()
            .find(|k| map.contains_key(*k))
        {
            let gemini = FormatSet::of(&[Format::Gemini]);
            for (pointer, value) in gemini::declarations(source, map, key, &pointer)? {
                items.push(Item {
                    doc,
                    pointer,
                    value,
                    allowed: allowed.and(gemini),
                });
            }
        } else if let Some(servers) = mcp::server_catalogs(map) {
            let only_mcp = allowed.and(FormatSet::of(&[Format::Mcp]));
            for (key, tools) in servers {
                let at = pointer_push(
                    &pointer_push(&pointer_push(&pointer, "tools"), key),
                    "tools",
                );
                items.extend(plain_items(tools, &at, doc, only_mcp));
            }
        } else {
            items.push(Item {
                doc,
                pointer,
                value,
                allowed,
            });
        }
    }
    Ok(items)
}

/// What a format's module declares about its tool objects. Detection is derived from these
/// declarations alone ([`key_formats`]): a format added with its declaration is detected.
pub(crate) struct Declaration {
    format: Format,
    /// The keys a tool object of this format may have.
    keys: &'static [&'static str],
    /// The values of `type` that mark a tool of this format (`function`, `custom`); empty when
    /// the format has no `type` key.
    type_tags: &'static [&'static str],
    /// Whether one key's value alone says the tool is of this format (Gemini's `parameters`
    /// written with OpenAPI types).
    claims: Option<fn(&str, &Value) -> bool>,
}

impl Declaration {
    /// The declaration of a format read through `shape`: its keys, no `type` tag.
    const fn of(shape: &Shape) -> Declaration {
        Declaration {
            format: shape.format,
            keys: shape.keys,
            type_tags: &[],
            claims: None,
        }
    }
}

/// Every format's declaration, one for each of [`Format::ALL`].
const DECLARATIONS: [Declaration; Format::ALL.len()] = [
    native::DECLARATION,
    openai::FUNCTIONS_DECLARATION,
    mcp::DECLARATION,
    anthropic::DECLARATION,
    gemini::DECLARATION,
    docker::DECLARATION,
    openai::RESPONSES_DECLARATION,
    openai::CHAT_DECLARATION,
];

/// Keys every tool has whatever its format: they say nothing about it.
const COMMON_KEYS: &[&str] = &["name", "description"];

/// Each declared key (but `type` and the common ones) with the formats declaring it, sorted by
/// key: derived once from [`DECLARATIONS`].
static KEY_FORMATS: std::sync::LazyLock<Vec<(&'static str, FormatSet)>> =
    std::sync::LazyLock::new(|| {
        let mut table: Vec<(&'static str, FormatSet)> = Vec::new();
        for declaration in &DECLARATIONS {
            for &key in declaration.keys {
                if key == "type" || COMMON_KEYS.contains(&key) {
                    continue;
                }
                let set = FormatSet::of(&[declaration.format]);
                match table.iter_mut().find(|(k, _)| *k == key) {
                    Some((_, formats)) => *formats = formats.or(set),
                    None => table.push((key, set)),
                }
            }
        }
        table.sort_unstable_by_key(|&(key, _)| key);
        table
    });

/// What one key of a tool object says about its format (`None`: nothing): the formats that
/// declare it; for `type`, those whose tag its value is (none for another value: a provider's
/// built-in tool); a key a format claims by its value, that format alone.
fn key_formats(key: &str, value: &Value) -> Option<FormatSet> {
    if let Some(declaration) = DECLARATIONS
        .iter()
        .find(|d| d.claims.is_some_and(|claims| claims(key, value)))
    {
        return Some(FormatSet::of(&[declaration.format]));
    }
    if key == "type" {
        let tag = value.as_str();
        return Some(
            DECLARATIONS
                .iter()
                .filter(|d| tag.is_some_and(|t| d.type_tags.contains(&t)))
                .fold(FormatSet::NONE, |set, d| set.or(FormatSet::of(&[d.format]))),
        );
    }
    let table = &*KEY_FORMATS;
    table
        .binary_search_by_key(&key, |&(k, _)| k)
        .ok()
        .map(|i| table[i].1)
}

/// The formats one tool object can be in, and the key that narrows it most (for messages).
fn classify<'a>(
    source: &SourceFile,
    item: &Item<'a>,
) -> Result<(FormatSet, Option<&'a str>), LoadError> {
    let Value::Object(map) = item.value else {
        return Ok((item.allowed, None));
    };
    let mut set = item.allowed;
    let mut narrowest: Option<(&str, FormatSet)> = None;
    for (key, value) in map {
        let Some(formats) = key_formats(key, value) else {
            continue;
        };
        if key == "type" && formats.is_empty() {
            return Err(source.error_at(
                ErrorKind::Shape,
                &pointer_push(&item.pointer, "type"),
                Target::Value,
                format!(
                    "`type: {}` marks a provider's built-in tool (web search, code execution, ...), not a function definition; discloser reads function tools only, so remove it from this file",
                    value_text(value)
                ),
            ));
        }
        let next = set.and(formats);
        if next.is_empty() {
            let message = match narrowest {
                Some((earlier, earlier_set)) => format!(
                    "mixed tool formats: `{key}` belongs to {} tools, but `{earlier}` to {} tools",
                    formats.describe(),
                    earlier_set.describe()
                ),
                None => format!(
                    "`{key}` belongs to {} tools, which this file cannot hold here (it holds {} tools)",
                    formats.describe(),
                    set.describe()
                ),
            };
            return Err(source.error_at(
                ErrorKind::Shape,
                &pointer_push(&item.pointer, key),
                Target::Key,
                message,
            ));
        }
        if narrowest.is_none_or(|(_, n)| count(formats) < count(n)) {
            narrowest = Some((key, formats));
        }
        set = next;
    }
    if !map.contains_key("type") {
        if set.and(UNTYPED).is_empty() {
            return Err(source.error_at(
                ErrorKind::Shape,
                &item.pointer,
                Target::Value,
                format!(
                    "expected {} tools here, but this tool has no `type: function`",
                    set.describe()
                ),
            ));
        }
        set = set.and(UNTYPED);
    }
    Ok((set, narrowest.map(|(key, _)| key)))
}

fn count(set: FormatSet) -> u32 {
    set.0.count_ones()
}

/// The format every item agrees on.
fn detect(docs: &[(SourceFile, Value)], items: &[Item<'_>]) -> Result<Format, LoadError> {
    let mut set = FormatSet::ALL;
    let mut first: Option<(usize, Option<&str>, FormatSet)> = None;
    for (i, item) in items.iter().enumerate() {
        let source = &docs[item.doc].0;
        let (formats, key) = classify(source, item)?;
        let next = set.and(formats);
        if next.is_empty() {
            let (earlier, earlier_key, earlier_set) =
                first.expect("an empty intersection needs an earlier item");
            let earlier_item = &items[earlier];
            let earlier_at = crate::diagnostic::location(
                &docs[earlier_item.doc].0.path,
                Some(
                    docs[earlier_item.doc]
                        .0
                        .locate(&earlier_item.pointer, Target::Value),
                ),
            );
            let this = match key {
                Some(key) => format!("this tool has `{key}` ({})", formats.describe()),
                None => format!("this tool can only be {}", formats.describe()),
            };
            let that = match earlier_key {
                Some(key) => format!(
                    "the tool at {earlier_at} has `{key}` ({})",
                    earlier_set.describe()
                ),
                None => format!("the tool at {earlier_at} is {}", earlier_set.describe()),
            };
            let pointer = match key {
                Some(key) => pointer_push(&item.pointer, key),
                None => item.pointer.clone(),
            };
            return Err(source
                .error_at(
                    ErrorKind::Shape,
                    &pointer,
                    if key.is_some() { Target::Key } else { Target::Value },
                    format!("mixed tool formats: {this}, but {that}"),
                )
                .with_help(
                    "a file holds tools of one format; split it, or name the format with `format:` on its source",
                ));
        }
        if first.is_none_or(|(_, k, _)| k.is_none() && key.is_some()) {
            first = Some((i, key, formats));
        }
        set = next;
    }
    Ok(set.first().unwrap_or(Format::Native))
}

fn read_item(
    source: &SourceFile,
    item: &Item<'_>,
    format: Format,
    file: usize,
) -> Result<Tool, LoadError> {
    let map = match item.value {
        Value::Object(map) => map,
        other => {
            return Err(source.error_at(
                ErrorKind::Shape,
                &item.pointer,
                Target::Value,
                format!(
                    "expected a tool (a mapping with `name`), found {}",
                    kind_of(other)
                ),
            ));
        }
    };
    match format {
        Format::Native => native::parse_tool(source, item.value, file, item.pointer.clone()),
        Format::OpenaiFunctions => openai::FUNCTIONS.read(source, map, &item.pointer, file),
        Format::OpenaiResponses => openai::read_responses(source, map, &item.pointer, file),
        Format::Openai => openai::read_chat(source, map, &item.pointer, file),
        Format::Anthropic => anthropic::SHAPE.read(source, map, &item.pointer, file),
        Format::Mcp => mcp::SHAPE.read(source, map, &item.pointer, file),
        Format::Gemini => gemini::read(source, map, &item.pointer, file),
        Format::Docker => docker::read(source, map, &item.pointer, file),
    }
}

/// The keys of one foreign tool format and where its schema is.
pub(crate) struct Shape {
    format: Format,
    keys: &'static [&'static str],
    /// Keys that may hold the JSON Schema (at most one may be present).
    schema_keys: &'static [&'static str],
}

impl Shape {
    /// Reads one tool object of this shape at `pointer`.
    fn read(
        &self,
        source: &SourceFile,
        map: &Map<String, Value>,
        pointer: &str,
        file: usize,
    ) -> Result<Tool, LoadError> {
        let name = name_of(source, map, pointer)?;
        let fields = Fields::new(source, map, pointer, &name, self.format);
        fields.known_keys(self.keys)?;
        if self.format == Format::Anthropic {
            fields.type_is("type", &["custom"], false)?;
        }
        let present: Vec<&str> = self
            .schema_keys
            .iter()
            .copied()
            .filter(|k| map.get(*k).is_some_and(|v| !v.is_null()))
            .collect();
        if let [first, second, ..] = present.as_slice() {
            return Err(fields.error(
                second,
                Target::Key,
                format!(
                    "tool `{name}` has both `{first}` and `{second}`; they are mutually exclusive"
                ),
            ));
        }
        let schema_key = present
            .first()
            .or(self.schema_keys.first())
            .copied()
            .unwrap_or("parameters");
        Ok(Tool {
            description: fields.string("description")?,
            parameters: fields.schema(schema_key)?,
            triggers: if self.format == Format::Mcp {
                mcp::meta_triggers(&fields)?
            } else {
                Vec::new()
            },
            core: false,
            summary_budget: None,
            lint_ignore: Vec::new(),
            title: if self.keys.contains(&"title") {
                fields.optional_string("title")?
            } else {
                None
            },
            annotations: if self.keys.contains(&"annotations") {
                fields.mapping("annotations")?
            } else {
                None
            },
            origin: Origin {
                file,
                pointer: pointer.to_owned(),
                format: self.format,
                schema_key,
            },
            name,
        })
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use Format::*;

    /// The sets detection derives from the formats' declarations, written out by hand.
    #[test]
    fn key_formats_follow_the_declarations() {
        let plain = json!({"type": "object"});
        let cases: &[(&str, &Value, &[Format])] = &[
            (
                "parameters",
                &plain,
                &[Native, OpenaiFunctions, Gemini, OpenaiResponses],
            ),
            ("parameters", &json!({"type": "OBJECT"}), &[Gemini]),
            ("triggers", &plain, &[Native]),
            ("core", &plain, &[Native]),
            ("summary_budget", &plain, &[Native]),
            ("lint_ignore", &plain, &[Native]),
            ("title", &plain, &[Native, Mcp]),
            ("annotations", &plain, &[Native, Mcp, Docker]),
            ("inputSchema", &plain, &[Mcp]),
            ("outputSchema", &plain, &[Mcp]),
            ("icons", &plain, &[Mcp]),
            ("_meta", &plain, &[Mcp]),
            ("execution", &plain, &[Mcp]),
            ("input_schema", &plain, &[Anthropic]),
            ("cache_control", &plain, &[Anthropic]),
            ("input_examples", &plain, &[Anthropic]),
            ("eager_input_streaming", &plain, &[Anthropic]),
            ("defer_loading", &plain, &[Anthropic, OpenaiResponses]),
            ("strict", &plain, &[Anthropic, OpenaiResponses]),
            ("function", &plain, &[Openai]),
            ("type", &json!("function"), &[Openai, OpenaiResponses]),
            ("type", &json!("custom"), &[Anthropic]),
            ("type", &json!("web_search"), &[]),
            ("type", &json!(1), &[]),
            ("arguments", &plain, &[Docker]),
            ("enabled", &plain, &[Docker]),
            ("parametersJsonSchema", &plain, &[Gemini]),
            ("responseJsonSchema", &plain, &[Gemini]),
            ("behavior", &plain, &[Gemini]),
            ("response", &plain, &[OpenaiFunctions, Gemini]),
        ];
        for &(key, value, formats) in cases {
            assert_eq!(
                key_formats(key, value),
                Some(FormatSet::of(formats)),
                "{key}: {value}"
            );
        }
        for key in ["name", "description", "x-vendor", ""] {
            assert_eq!(key_formats(key, &plain), None, "{key}");
        }
        // Every declared key says something, and every format is declared once, in order.
        let formats: Vec<Format> = DECLARATIONS.iter().map(|d| d.format).collect();
        assert_eq!(formats, Format::ALL);
        for d in &DECLARATIONS {
            for key in d.keys.iter().filter(|k| !COMMON_KEYS.contains(k)) {
                let said = key_formats(key, &plain).expect("a declared key says something");
                assert!(
                    said.contains(d.format) || *key == "type",
                    "{key} of {}",
                    d.format.name()
                );
            }
        }
    }
}
