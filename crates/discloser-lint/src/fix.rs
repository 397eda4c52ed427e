//! Fixes, ruff's model: a finding may carry a machine-readable [`Fix`], edits of the exact bytes
//! of a file, safe or unsafe.
//!
//! A rule only proposes: it attaches a [`Proposal`] (a change of the document's value, "this
//! list holds these items", "this schema declares these values") to its diagnostic. [`lint`]
//! resolves proposals file by file against the text that was loaded, with the core's
//! [`edit::plan`]: the edits keep every other byte, and the edited text must parse to the
//! original value with exactly the proposed change. A proposal that cannot be written that way
//! gets no fix; its finding keeps its `help`.
//!
//! A fix is *safe* when applying it cannot change what the model is shown or may send (the
//! order of trigger words, which the index normalises anyway), *unsafe* when it changes a
//! tool's contract and deserves a review (declaring an `enum`). Reporters print fixes; the
//! binary applies them, and writes only files of discloser's own formats (see [`FixTarget`]).
//!
//! [`lint`]: crate::lint

use std::collections::BTreeMap;
use std::hash::{Hash as _, Hasher as _};
use std::ops::Range;
use std::path::PathBuf;
use std::sync::OnceLock;

use serde::Serialize;
use serde::ser::SerializeStruct as _;
use serde_json::Value;

use crate::catalog::Tool;
use crate::catalog::formats::Format;
use crate::diagnostic::Position;
use crate::source::SourceFile;
use crate::source::edit::{self, Change};
use crate::{At, Context, Finding};

/// Whether a fix may be applied without review.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Applicability {
    /// Changes nothing the model sees or may send: `lint --fix` applies it.
    Safe,
    /// Changes a tool's contract: applied only with `--unsafe-fixes`.
    Unsafe,
}

/// What a rule proposes for its diagnostic: a change of the diagnostic's own document (the
/// file of the tool it is at, or the config), resolved with the other changes proposed in
/// that document. A change of another document gets no fix: the findings are reported a file
/// at a time, and that document's may have been reported already.
#[derive(Clone, Debug)]
pub struct Proposal {
    /// Safe or unsafe.
    pub applicability: Applicability,
    /// What the fix does: lowercase, no trailing period, values in backticks.
    pub message: String,
    /// The change.
    pub change: Proposed,
}

/// A change a rule proposes, in the terms of the model.
#[derive(Clone, Debug)]
pub enum Proposed {
    /// The list of strings at `at` (a tool's or the config's), which holds `expected`, becomes
    /// `items`, written in the list's own style.
    StringList {
        /// Where the list is.
        at: At,
        /// What it holds now.
        expected: Vec<String>,
        /// What it should hold.
        items: Vec<String>,
    },
    /// The schema at `schema` (a pointer relative to tool `tool`, `/parameters/...`) declares
    /// `values` as its `enum`, typed by the schema's `type` (integers as numbers); an array's
    /// values go on its `items`.
    DeclareEnum {
        /// The tool, by catalog index.
        tool: usize,
        /// The schema, relative to the tool.
        schema: String,
        /// The values, as the prose lists them.
        values: Vec<String>,
    },
}

/// One replacement in a file, against its exact bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edit {
    /// The file, as shown to the user.
    pub path: PathBuf,
    /// The bytes replaced (offsets into the file, a byte-order mark included).
    pub range: Range<usize>,
    /// Where the range starts (1-based line, column in characters).
    pub start: Position,
    /// Where it ends (exclusive: the first character after it).
    pub end: Position,
    /// The replacement.
    pub content: String,
}

impl Serialize for Edit {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct At {
            line: usize,
            column: usize,
        }
        let at = |p: Position| At {
            line: p.line,
            column: p.col,
        };
        let mut edit = s.serialize_struct("Edit", 4)?;
        edit.serialize_field("path", &self.path)?;
        edit.serialize_field("start", &at(self.start))?;
        edit.serialize_field("end", &at(self.end))?;
        edit.serialize_field("content", &self.content)?;
        edit.end()
    }
}

/// A machine-readable fix: edits of one file that resolve the finding.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Fix {
    /// Safe or unsafe.
    pub applicability: Applicability,
    /// What it does.
    pub message: String,
    /// Non-overlapping edits, in file order.
    pub edits: Vec<Edit>,
    /// Whether `lint --fix` writes it.
    #[serde(skip)]
    pub target: FixTarget,
}

/// Whether `lint --fix` may write a fix's file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FixTarget {
    /// A file of discloser's own formats (a native YAML or JSON tool file, the config): written
    /// at `real`, only while its bytes still hash to `digest` (what was loaded and linted).
    Writable {
        /// The path to write.
        real: PathBuf,
        /// [`digest`] of the bytes the fix was computed against.
        digest: u64,
    },
    /// A file discloser does not edit (a provider's or MCP server's format, the lock file):
    /// the fix is reported, never written. Says what the file is.
    ReadOnly(String),
}

impl Fix {
    /// Whether `--fix` applies this fix (with `--unsafe-fixes` when `unsafe_fixes`).
    pub fn applies(&self, unsafe_fixes: bool) -> bool {
        self.applicability == Applicability::Safe || unsafe_fixes
    }
}

/// A file's fingerprint, to tell whether it changed since it was linted.
pub fn digest(bytes: &[u8]) -> u64 {
    let mut hasher = std::hash::DefaultHasher::new();
    bytes.hash(&mut hasher);
    hasher.finish()
}

/// `bytes` with non-overlapping `edits` (of that file) applied, back to front.
pub fn apply(bytes: &[u8], edits: &[&Edit]) -> Vec<u8> {
    let mut sorted: Vec<&&Edit> = edits.iter().collect();
    sorted.sort_by_key(|e| (e.range.start, e.range.end));
    let mut out = bytes.to_vec();
    for edit in sorted.into_iter().rev() {
        out.splice(edit.range.clone(), edit.content.bytes());
    }
    out
}

/// The fixes one pass of `--fix` applies: each finding's first fix that applies (safe, or
/// unsafe too with `unsafe_fixes`), in finding order, leaving out one whose edits overlap an
/// edit already taken in the same file (ruff's rule: the first wins, the others wait for the
/// next pass, computed against the fixed file).
pub fn select(findings: &[Finding], unsafe_fixes: bool) -> Vec<&Fix> {
    let mut taken: BTreeMap<&PathBuf, Vec<Range<usize>>> = BTreeMap::new();
    let mut out = Vec::new();
    for fix in findings
        .iter()
        .filter_map(|f| f.fixes.iter().find(|x| x.applies(unsafe_fixes)))
    {
        let clashes = fix.edits.iter().any(|e| {
            taken
                .get(&e.path)
                .is_some_and(|ranges| ranges.iter().any(|r| edit::overlaps(&e.range, r)))
        });
        if clashes {
            continue;
        }
        for e in &fix.edits {
            taken.entry(&e.path).or_default().push(e.range.clone());
        }
        out.push(fix);
    }
    out
}

/// The document a change is made in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Doc {
    /// A catalog file, by index.
    Tool(usize),
    Config,
}

/// A document changes are resolved against: its text as loaded, and whether `--fix` may
/// write it.
pub(crate) struct Document<'a> {
    file: &'a SourceFile,
    target: FixTarget,
}

/// The config as a [`Document`] (`config` holds it once read).
pub(crate) fn config_document<'a>(
    ctx: &Context<'_>,
    config: &'a OnceLock<SourceFile>,
) -> Document<'a> {
    let file = crate::config_source(ctx, config);
    Document {
        file,
        target: writable(file, &ctx.project.config_path),
    }
}

/// Catalog file `file` as a [`Document`]; `tool` is one of its tools, which says what the file
/// is.
pub(crate) fn tool_document<'a>(
    ctx: &Context<'a>,
    file: usize,
    tool: Option<&Tool>,
) -> Document<'a> {
    let catalog = &ctx.project.catalog;
    let source: &'a SourceFile = &catalog.files[file];
    let target = match tool {
        None => FixTarget::ReadOnly("a file without tools".to_owned()),
        Some(tool) if ctx.project.is_from_server(tool) => {
            FixTarget::ReadOnly("a pin of an MCP server's tools".to_owned())
        }
        Some(tool) if tool.origin.format != Format::Native => {
            FixTarget::ReadOnly(format!("a file in {}'s format", tool.origin.format.label()))
        }
        Some(_) => writable(source, catalog.real_path(file)),
    };
    Document {
        file: source,
        target,
    }
}

/// `file`, written at `real` while it holds the bytes it was loaded with.
fn writable(file: &SourceFile, real: &std::path::Path) -> FixTarget {
    let mut bytes = Vec::with_capacity(file.bytes_before_text() + file.text.len());
    if file.bytes_before_text() > 0 {
        bytes.extend_from_slice("\u{feff}".as_bytes());
    }
    bytes.extend_from_slice(file.text.as_bytes());
    FixTarget::Writable {
        real: real.to_path_buf(),
        digest: digest(&bytes),
    }
}

/// A proposal of a finding (by index), its change in the terms of its document.
struct Wanted {
    finding: usize,
    applicability: Applicability,
    message: String,
    change: Change,
}

/// Resolves the proposals of findings (`(finding, proposal)`, in the order the rules proposed
/// them) into fixes attached to them. `document` gives each document changes may be made in
/// here; a proposal for another gets no fix.
pub(crate) fn resolve<'d>(
    ctx: &Context<'_>,
    findings: &mut [Finding],
    proposals: Vec<(usize, Proposal)>,
    document: impl Fn(Doc) -> Option<Document<'d>> + Sync,
) {
    let mut by_doc: BTreeMap<Doc, Vec<Wanted>> = BTreeMap::new();
    for (finding, proposal) in proposals {
        let Some((doc, change)) = change_of(ctx, proposal.change) else {
            continue;
        };
        by_doc.entry(doc).or_default().push(Wanted {
            finding,
            applicability: proposal.applicability,
            message: proposal.message,
            change,
        });
    }
    let groups: Vec<(Doc, Vec<Wanted>)> = by_doc.into_iter().collect();
    let fixes = crate::catalog::parallel::map(groups, |(doc, wanted)| {
        let Some(Document { file, target }) = document(doc) else {
            return Vec::new();
        };
        let changes: Vec<Change> = wanted.iter().map(|w| w.change.clone()).collect();
        let planned = edit::plan(file, &changes);
        // The file's line starts for these edits only, not kept for the rest of the run.
        let lines = file.lines();
        wanted
            .into_iter()
            .zip(planned)
            .filter_map(|(wanted, edits)| {
                let edits = edits?
                    .into_iter()
                    .map(|e| Edit {
                        path: file.path.clone(),
                        range: e.range.start + file.bytes_before_text()
                            ..e.range.end + file.bytes_before_text(),
                        start: lines.position_of(e.range.start),
                        end: lines.position_of(e.range.end),
                        content: e.content,
                    })
                    .collect();
                let fix = Fix {
                    applicability: wanted.applicability,
                    message: wanted.message,
                    edits,
                    target: target.clone(),
                };
                Some((wanted.finding, fix))
            })
            .collect::<Vec<_>>()
    });
    for (finding, fix) in fixes.into_iter().flatten() {
        findings[finding].fixes.push(fix);
    }
}

/// The document and the value change of a proposal.
fn change_of(ctx: &Context<'_>, proposed: Proposed) -> Option<(Doc, Change)> {
    let catalog = &ctx.project.catalog;
    match proposed {
        Proposed::StringList {
            at,
            expected,
            items,
        } => {
            let (doc, pointer) = match at {
                At::Tool(i, suffix) => {
                    let origin = &catalog.tools[i].origin;
                    (Doc::Tool(origin.file), origin.pointer_to(&suffix))
                }
                At::Config(pointer) => (Doc::Config, pointer),
                At::ToolKey(..) | At::Problem(_) => return None,
            };
            Some((
                doc,
                Change::StringList {
                    pointer,
                    expected,
                    items,
                },
            ))
        }
        Proposed::DeclareEnum {
            tool,
            schema,
            values,
        } => {
            let tool_def = &catalog.tools[tool];
            let (schema, value) = typed_enum(tool_def, &schema, &values)?;
            Some((
                Doc::Tool(tool_def.origin.file),
                Change::Entry {
                    pointer: tool_def.origin.pointer_to(&schema),
                    key: "enum".to_owned(),
                    value,
                },
            ))
        }
    }
}

/// The schema that gets the `enum` (the one at `schema`, or its `items` when it is an array)
/// and the values typed by its `type`; `None` when the schema is a reference, already closed,
/// or a value does not read as its type.
fn typed_enum(tool: &Tool, schema: &str, values: &[String]) -> Option<(String, Value)> {
    let at = schema.strip_prefix("/parameters")?.to_owned();
    if !at.is_empty() && !at.starts_with('/') {
        return None;
    }
    // Unpacked for this finding only (see `Parameters::with`).
    tool.parameters.with(|root| typed_enum_in(root, at, values))
}

/// [`typed_enum`] in the tool's schema `root`, at the pointer `at` below it.
fn typed_enum_in(root: &Value, mut at: String, values: &[String]) -> Option<(String, Value)> {
    let mut node = root.pointer(&at)?;
    for _ in 0..2 {
        let object = node.as_object()?;
        if ["$ref", "enum", "const"]
            .iter()
            .any(|k| object.contains_key(*k))
        {
            return None;
        }
        let types: Vec<String> = match object.get("type") {
            Some(Value::String(t)) => vec![t.to_lowercase()],
            Some(Value::Array(ts)) => ts
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_lowercase)
                .collect(),
            _ => Vec::new(),
        };
        let has = |t: &str| types.iter().any(|x| x == t);
        if has("array") && !has("string") && !has("integer") && !has("number") {
            node = object.get("items")?;
            at.push_str("/items");
            continue;
        }
        let typed: Option<Vec<Value>> = if types.is_empty() || has("string") {
            Some(values.iter().map(|v| Value::from(v.as_str())).collect())
        } else if has("integer") {
            values
                .iter()
                .map(|v| v.parse::<i64>().ok().map(Value::from))
                .collect()
        } else if has("number") {
            values
                .iter()
                .map(|v| {
                    serde_json::from_str::<serde_json::Number>(v)
                        .ok()
                        .map(Value::Number)
                })
                .collect()
        } else {
            None
        };
        return Some((format!("/parameters{at}"), Value::Array(typed?)));
    }
    None
}
