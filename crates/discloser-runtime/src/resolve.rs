//! The reachability fallback as a library: where a tool call lands, and whether its arguments
//! are valid.
//!
//! Given a profile and a call (a name and its arguments), [`Runtime::resolve`] says how the call
//! is reached — `bound` (in the profile's starter set, or the search tool), `catalog` (unbound,
//! found by name: the runtime binds it and runs it) or `unknown` (not in the catalog: the model
//! invented the name) — validates the arguments against the tool's JSON Schema with the
//! `jsonschema` crate, and, for an unknown name, lists the nearest real tools.
//!
//! Schemas are validated as written; local `$ref`s (`#/$defs/X`) resolve inside the schema. A
//! `$ref` to another file of the project is bundled first ([`Catalog::bundled`], the schema a
//! provider receives): its target (and everything it refers to) is copied under the root's
//! `$defs` and the reference rewritten, so validation never reads a file or the network.
//! Validators are compiled once per tool, on first use.

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

use discloser_core::schema::keywords::{Holds, holds};
use serde::Serialize;
use serde_json::Value;

use super::search::SearchIndex;
use super::text::name_parts;
use crate::catalog::Catalog;
use crate::config::SearchTool;
use crate::project::{Profile, Project};

/// How a tool call was reached (the origins of the tool trace).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Origin {
    /// The tool was bound: in the starter set (or the search tool itself).
    Bound,
    /// The tool was unbound; the model called it by name and the fallback found it.
    Catalog,
    /// The search tool returned it, and it was bound for the next round.
    Search,
    /// The name is not in the catalog: the model invented it.
    Unknown,
}

impl Origin {
    /// Every origin, in report order.
    pub const ALL: [Origin; 4] = [
        Origin::Bound,
        Origin::Catalog,
        Origin::Search,
        Origin::Unknown,
    ];

    /// The origin as written in traces.
    pub fn as_str(self) -> &'static str {
        match self {
            Origin::Bound => "bound",
            Origin::Catalog => "catalog",
            Origin::Search => "search",
            Origin::Unknown => "unknown",
        }
    }

    /// Whether the tool was not bound when the call was composed (`catalog` or `search`).
    pub fn is_unbound(self) -> bool {
        matches!(self, Origin::Catalog | Origin::Search)
    }
}

impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One reason the arguments do not match the schema.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ArgumentError {
    /// JSON pointer into the arguments (`""` for the arguments object itself).
    pub pointer: String,
    /// What is wrong, e.g. "missing required property `kind`".
    pub message: String,
    /// The value is outside the parameter's `enum` (or `const`): a mistake a schema shown in
    /// full does not prevent when the index line already lists the values.
    #[serde(skip)]
    pub outside_enum: bool,
}

impl std::fmt::Display for ArgumentError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.pointer.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "`{}`: {}", self.pointer, self.message)
        }
    }
}

/// Whether arguments match a tool's schema.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ArgumentCheck {
    /// `Some(true)` valid, `Some(false)` invalid, `None` not checked (see `unchecked`).
    pub valid: Option<bool>,
    /// Why the arguments are invalid, in the validator's order.
    pub errors: Vec<ArgumentError>,
    /// Why the arguments were not checked (no arguments, unknown tool, schema not compilable).
    pub unchecked: Option<String>,
}

/// A real tool close to an invented name.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Nearest {
    /// The catalog tool.
    pub name: String,
    /// Damerau-Levenshtein distance between the two names.
    pub distance: usize,
    /// Parts of the invented name found in the tool's triggers or name.
    pub shared_words: Vec<String>,
}

/// Where a call lands and whether its arguments are valid.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Resolution {
    /// The name called.
    pub name: String,
    /// How the call is reached.
    pub origin: Origin,
    /// `Some(true)` valid, `Some(false)` invalid, `None` not checked (see `unchecked`).
    pub valid: Option<bool>,
    /// Why the arguments are invalid, in the validator's order.
    pub errors: Vec<ArgumentError>,
    /// Why the arguments were not checked (no arguments, unknown tool, schema not compilable).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unchecked: Option<String>,
    /// For `unknown`: the nearest catalog tools, best first (at most [`NEAREST`]).
    pub nearest: Vec<Nearest>,
}

/// How many nearest tools are listed for an unknown name.
pub const NEAREST: usize = 3;

/// The name of the built-in search tool, recognised in traces when the config declares none.
pub const DEFAULT_SEARCH_TOOL: &str = "search_tools";

type Compiled = Result<jsonschema::Validator, String>;

/// A catalog ready to answer a runtime in-process: search, resolution and validation.
///
/// ```no_run
/// use discloser_core::project::Project;
/// use discloser_runtime::Runtime;
///
/// let project = Project::load("discloser.yaml".as_ref())?;
/// let runtime = Runtime::new(&project);
/// let profile = project.profile("default")?;
/// let call = runtime.resolve(&profile, "view_startup_guide", Some(&serde_json::json!({})));
/// assert_eq!(call.origin.as_str(), "catalog");
/// let hits = runtime.search("我想写商业计划书");
/// # Ok::<(), discloser_core::diagnostic::LoadError>(())
/// ```
pub struct Runtime<'a> {
    catalog: &'a Catalog,
    state: RuntimeState,
}

/// What a [`Runtime`] builds from its catalog and keeps — the search index, the search tool,
/// and each tool's validator, compiled the first time a call of it is checked — held apart from
/// the borrow of the catalog, so an owner of the catalog (the Python module's `Project`) keeps
/// one state for its lifetime and every runtime made from it ([`Runtime::with_state`]) shares
/// the compiled validators. Cloning shares, it does not copy.
#[derive(Clone)]
pub struct RuntimeState {
    index: Arc<SearchIndex>,
    search_tool: Arc<SearchTool>,
    validators: Arc<[OnceLock<Compiled>]>,
    search_validator: Arc<OnceLock<Compiled>>,
}

impl RuntimeState {
    /// The state of a runtime over `catalog`, with its search index and search tool; no
    /// validator is compiled yet.
    pub fn new(catalog: &Catalog, index: SearchIndex, search_tool: SearchTool) -> RuntimeState {
        RuntimeState {
            index: Arc::new(index),
            search_tool: Arc::new(search_tool),
            validators: (0..catalog.tools.len()).map(|_| OnceLock::new()).collect(),
            search_validator: Arc::new(OnceLock::new()),
        }
    }

    /// The search index.
    pub fn index(&self) -> &SearchIndex {
        &self.index
    }

    /// The search tool's definition.
    pub fn search_tool(&self) -> &SearchTool {
        &self.search_tool
    }
}

impl std::fmt::Debug for Runtime<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Runtime")
            .field("tools", &self.catalog.tools.len())
            .field("search_tool", &self.state.search_tool.name)
            .finish_non_exhaustive()
    }
}

impl<'a> Runtime<'a> {
    /// The runtime of a project: its catalog, index settings and search tool (the built-in one
    /// when the config declares none).
    pub fn new(project: &'a Project) -> Runtime<'a> {
        Runtime::from_parts(
            &project.catalog,
            SearchIndex::new(&project.catalog, project.index_config()),
            project.search_tool().unwrap_or_else(SearchTool::builtin),
        )
    }

    /// A runtime over a catalog and a search index built from it.
    pub fn from_parts(catalog: &'a Catalog, index: SearchIndex, search_tool: SearchTool) -> Self {
        Runtime::with_state(catalog, RuntimeState::new(catalog, index, search_tool))
    }

    /// A runtime over `catalog` with a state built for it by [`RuntimeState::new`] (and shared
    /// with the runtimes made from it before). A state built for another catalog is a
    /// programming error: its validators would not match the tools.
    pub fn with_state(catalog: &'a Catalog, state: RuntimeState) -> Self {
        assert_eq!(
            state.validators.len(),
            catalog.tools.len(),
            "a runtime state belongs to the catalog it was built for"
        );
        Runtime { catalog, state }
    }

    /// The state this runtime keeps, to make more runtimes that share it.
    pub fn state(&self) -> &RuntimeState {
        &self.state
    }

    /// The catalog.
    pub fn catalog(&self) -> &'a Catalog {
        self.catalog
    }

    /// The search index.
    pub fn index(&self) -> &SearchIndex {
        &self.state.index
    }

    /// The search tool's definition.
    pub fn search_tool(&self) -> &SearchTool {
        &self.state.search_tool
    }

    /// Every tool matching `query`, best first ([`SearchIndex::search`]).
    pub fn search(&self, query: &str) -> Vec<super::search::Hit> {
        self.state.index.search(query)
    }

    /// How a call of `name` is reached in `profile`: `bound` (in the starter set, or the search
    /// tool), `catalog` (in the catalog, unbound) or `unknown`.
    pub fn origin(&self, profile: &Profile, name: &str) -> Origin {
        if self.catalog.get(name).is_some() {
            if profile.is_bound(name) {
                Origin::Bound
            } else {
                Origin::Catalog
            }
        } else if name == self.state.search_tool.name {
            Origin::Bound
        } else {
            Origin::Unknown
        }
    }

    /// Resolves a call of `name` with `arguments` (`None`: not recorded) in `profile`.
    pub fn resolve(&self, profile: &Profile, name: &str, arguments: Option<&Value>) -> Resolution {
        let origin = self.origin(profile, name);
        let check = self.check_arguments(name, arguments);
        Resolution {
            name: name.to_owned(),
            origin,
            valid: check.valid,
            errors: check.errors,
            unchecked: check.unchecked,
            nearest: if origin == Origin::Unknown {
                self.nearest(name)
            } else {
                Vec::new()
            },
        }
    }

    /// Validates `arguments` against the schema of the tool (or search tool) called `name`.
    /// Arguments given as a JSON string (as OpenAI sends them) are parsed first.
    pub fn check_arguments(&self, name: &str, arguments: Option<&Value>) -> ArgumentCheck {
        let unchecked = |why: &str| ArgumentCheck {
            valid: None,
            errors: Vec::new(),
            unchecked: Some(why.to_owned()),
        };
        let position = self
            .catalog
            .tools
            .binary_search_by(|t| t.name.as_str().cmp(name))
            .ok();
        let compiled = match position {
            Some(i) => self.state.validators[i].get_or_init(|| compile_tool(self.catalog, i)),
            None if name == self.state.search_tool.name => self
                .state
                .search_validator
                .get_or_init(|| compile(&self.state.search_tool.parameters)),
            None => return unchecked("the tool is not in the catalog"),
        };
        let Some(arguments) = arguments else {
            return unchecked("no arguments recorded");
        };
        let parsed;
        let arguments = match arguments {
            Value::String(text) => match serde_json::from_str::<Value>(text) {
                Ok(value) => {
                    parsed = value;
                    &parsed
                }
                Err(e) => {
                    return ArgumentCheck {
                        valid: Some(false),
                        errors: vec![ArgumentError {
                            pointer: String::new(),
                            message: format!("the arguments string is not JSON: {e}"),
                            outside_enum: false,
                        }],
                        unchecked: None,
                    };
                }
            },
            other => other,
        };
        match compiled {
            Ok(validator) => {
                let errors: Vec<ArgumentError> =
                    validator.iter_errors(arguments).map(describe).collect();
                ArgumentCheck {
                    valid: Some(errors.is_empty()),
                    errors,
                    unchecked: None,
                }
            }
            Err(problem) => unchecked(problem),
        }
    }

    /// The catalog tools nearest to an invented name: those within a small edit distance
    /// (the same bound as "did you mean": a third of the longer name, at least 2) come first,
    /// closest first; then tools whose triggers or name share a part of the invented name
    /// (searched with the name's parts as the query), most shared parts first.
    pub fn nearest(&self, name: &str) -> Vec<Nearest> {
        let query = name_parts(name).join(" ");
        let shared: BTreeMap<String, Vec<String>> = self
            .state
            .index
            .search(&query)
            .into_iter()
            .filter(|hit| hit.matched.shares_line_words())
            .map(|hit| {
                let m = hit.matched;
                let mut words: Vec<String> = m
                    .triggers
                    .into_iter()
                    .chain(m.trigger_words)
                    .chain(m.name_parts)
                    .chain(m.description_words)
                    .collect();
                words.sort();
                words.dedup();
                (hit.name, words)
            })
            .collect();
        let folded = name.to_lowercase();
        let mut candidates: Vec<(usize, std::cmp::Reverse<usize>, usize, Nearest)> = self
            .catalog
            .tools
            .iter()
            .filter_map(|tool| {
                let distance = strsim::damerau_levenshtein(&folded, &tool.name.to_lowercase());
                let bound = (name.chars().count().max(tool.name.chars().count()) / 3).max(2);
                let close = distance <= bound;
                let words = shared.get(&tool.name).cloned().unwrap_or_default();
                if !close && words.is_empty() {
                    return None;
                }
                let tier = if close { distance } else { usize::MAX };
                Some((
                    tier,
                    std::cmp::Reverse(words.len()),
                    distance,
                    Nearest {
                        name: tool.name.clone(),
                        distance,
                        shared_words: words,
                    },
                ))
            })
            .collect();
        candidates.sort_by(|a, b| (a.0, a.1, a.2, &a.3.name).cmp(&(b.0, b.1, b.2, &b.3.name)));
        candidates.into_iter().take(NEAREST).map(|c| c.3).collect()
    }
}

/// Compiles the validator of the tool at `index`, bundling file `$ref`s first.
fn compile_tool(catalog: &Catalog, index: usize) -> Compiled {
    compile(&catalog.bundled(index))
}

fn compile(schema: &Value) -> Compiled {
    refers_outside(schema, false, 0)?;
    ref_chain_within(schema, MAX_REF_CHAIN)?;
    jsonschema::validator_for(schema)
        .map_err(|e| format!("the tool's schema cannot be compiled for validation: {e}"))
}

/// A validation error in discloser's wording: lowercase, names and values in backticks.
fn describe(error: jsonschema::ValidationError<'_>) -> ArgumentError {
    use jsonschema::error::ValidationErrorKind as Kind;
    let pointer = error.instance_path().as_str().to_owned();
    let outside_enum = matches!(error.kind(), Kind::Enum { .. } | Kind::Constant { .. });
    let message = match error.kind() {
        Kind::Required { property } => {
            format!("missing required property `{}`", plain(property))
        }
        Kind::AdditionalProperties { unexpected } => format!(
            "unexpected {} {}",
            if unexpected.len() == 1 {
                "property"
            } else {
                "properties"
            },
            unexpected
                .iter()
                .map(|p| format!("`{p}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Kind::Enum { options } => format!(
            "`{}` is not one of {}",
            error.instance(),
            match options.as_ref() {
                Value::Array(values) => values
                    .iter()
                    .map(|v| format!("`{}`", plain(v)))
                    .collect::<Vec<_>>()
                    .join(", "),
                other => format!("`{other}`"),
            }
        ),
        Kind::Constant { expected_value } => {
            format!("`{}` is not `{}`", error.instance(), expected_value)
        }
        Kind::Type { kind } => {
            let expected: Vec<String> = match kind {
                jsonschema::error::TypeKind::Single(t) => vec![format!("`{t}`")],
                jsonschema::error::TypeKind::Multiple(set) => {
                    set.iter().map(|t| format!("`{t}`")).collect()
                }
            };
            format!(
                "`{}` is not of type {}",
                error.instance(),
                expected.join(" or ")
            )
        }
        _ => error.to_string(),
    };
    ArgumentError {
        pointer,
        message,
        outside_enum,
    }
}

/// A JSON string without its quotes; other values as JSON.
fn plain(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// How deep a schema may nest (bundled files included) to be validated.
const MAX_DEPTH: usize = 128;

/// Whether a schema holds a `$ref` that is not local (`#...`). `named` says `value` maps
/// names to schemas (its keys are not keywords). Too deep a schema is an error, so that neither
/// this walk nor the validator's can exhaust the stack.
fn refers_outside(value: &Value, named: bool, depth: usize) -> Result<bool, String> {
    if depth > MAX_DEPTH {
        return Err(too_deep());
    }
    match value {
        Value::Object(map) => {
            let here = !named
                && map
                    .get("$ref")
                    .and_then(Value::as_str)
                    .is_some_and(|r| !r.starts_with('#'));
            let mut found = here;
            for (key, child) in map {
                if !is_data_keyword(key, !named) {
                    found |= refers_outside(child, !named && is_schema_map(key), depth + 1)?;
                }
            }
            Ok(found)
        }
        Value::Array(items) => {
            let mut found = false;
            for item in items {
                found |= refers_outside(item, false, depth + 1)?;
            }
            Ok(found)
        }
        _ => Ok(false),
    }
}

/// How many local `$ref`s, each inside the target of the one before (`anyOf: [{$ref: ...}]`),
/// a schema may chain to be validated. The validator follows them recursively: 20,000 of them
/// overflowed its stack, 10,000 took 10 s and 1.3 GB. Recursive schemas (a cycle) are fine.
const MAX_REF_CHAIN: usize = 64;

/// Refuses a schema whose longest chain of local `$ref`s (cycles not counted) is longer than
/// `max`. Iterative, and each target is measured once, so it is linear in the schema.
fn ref_chain_within(schema: &Value, max: usize) -> Result<(), String> {
    use std::collections::HashMap;
    /// The local `$ref` targets found under `node` (without following them).
    fn targets<'v>(root: &'v Value, node: &'v Value) -> Vec<&'v Value> {
        let mut found = Vec::new();
        let mut stack = vec![node];
        while let Some(value) = stack.pop() {
            match value {
                Value::Object(map) => {
                    if let Some(target) = map
                        .get("$ref")
                        .and_then(Value::as_str)
                        .and_then(|r| r.strip_prefix('#'))
                        .and_then(|pointer| root.pointer(pointer))
                    {
                        found.push(target);
                    }
                    stack.extend(map.values());
                }
                Value::Array(items) => stack.extend(items),
                _ => {}
            }
        }
        found
    }
    let key = |v: &Value| std::ptr::from_ref(v) as usize;
    // The longest chain from each target measured; `None` while it is being measured (a
    // reference back to it closes a cycle and counts nothing).
    let mut chain: HashMap<usize, Option<usize>> = HashMap::new();
    let mut stack: Vec<(&Value, Vec<&Value>, usize)> = vec![(schema, targets(schema, schema), 0)];
    chain.insert(key(schema), None);
    while let Some((node, next, longest)) = stack.last_mut() {
        match next.pop() {
            Some(target) => match chain.get(&key(target)) {
                Some(Some(known)) => *longest = (*longest).max(known + 1),
                Some(None) => {}
                None => {
                    chain.insert(key(target), None);
                    let below = targets(schema, target);
                    stack.push((target, below, 0));
                    if stack.len() > max + 1 {
                        return Err(format!(
                            "the schema chains more than {max} `$ref`s, too many to validate"
                        ));
                    }
                }
            },
            None => {
                let (done, longest) = (key(node), *longest);
                if longest > max {
                    return Err(format!(
                        "the schema chains more than {max} `$ref`s, too many to validate"
                    ));
                }
                chain.insert(done, Some(longest));
                stack.pop();
                if let Some((_, _, parent)) = stack.last_mut() {
                    *parent = (*parent).max(longest + 1);
                }
            }
        }
    }
    Ok(())
}

fn too_deep() -> String {
    format!("the schema is nested more than {MAX_DEPTH} levels deep, too deep to validate")
}

/// Keywords whose values are data, not schemas (only when they are keywords): the table's, and
/// `required`, whose names this depth guard has never counted.
fn is_data_keyword(key: &str, keyword_position: bool) -> bool {
    keyword_position && (key == "required" || holds(key) == Some(Holds::Data))
}

/// Keywords whose value maps user names to schemas.
fn is_schema_map(key: &str) -> bool {
    holds(key) == Some(Holds::Map)
}

#[cfg(test)]
mod tests {
    use super::ref_chain_within;
    use serde_json::json;

    #[test]
    fn runtimes_made_from_one_state_share_its_compiled_validators() {
        use super::{Runtime, RuntimeState, SearchIndex, SearchTool};
        use crate::catalog::Catalog;
        use crate::source::SourceFile;
        let catalog = Catalog::from_sources(
            vec![SourceFile::from_text(
                "- name: f\n  description: Does f.\n  parameters: {type: object, properties: {x: {type: string}}, required: [x]}\n",
                "t.yaml".into(),
            )],
            std::path::Path::new("/"),
        )
        .unwrap();
        let index = SearchIndex::new(&catalog, &crate::config::IndexConfig::default());
        let state = RuntimeState::new(&catalog, index, SearchTool::builtin());
        let first = Runtime::with_state(&catalog, state.clone());
        let check = first.check_arguments("f", Some(&json!({})));
        assert_eq!(check.valid, Some(false));
        drop(first);
        assert!(
            state.validators[0].get().is_some(),
            "compiled once, kept in the state"
        );
        let second = Runtime::with_state(&catalog, state.clone());
        assert!(std::sync::Arc::ptr_eq(
            &second.state().validators,
            &state.validators
        ));
        assert_eq!(
            second.check_arguments("f", Some(&json!({"x": "y"}))).valid,
            Some(true)
        );
    }

    fn chain(n: usize) -> serde_json::Value {
        let mut defs = serde_json::Map::new();
        for i in 0..n {
            defs.insert(
                format!("d{i}"),
                json!({"anyOf": [{"$ref": format!("#/$defs/d{}", i + 1)}, {"type": "null"}]}),
            );
        }
        defs.insert(format!("d{n}"), json!({"type": "string"}));
        json!({"properties": {"x": {"$ref": "#/$defs/d0"}}, "$defs": defs})
    }

    #[test]
    fn ref_chains_are_bounded_and_cycles_are_not_chains() {
        assert!(ref_chain_within(&chain(60), 64).is_ok());
        let long = ref_chain_within(&chain(20_000), 64).expect_err("too long");
        assert_eq!(
            long,
            "the schema chains more than 64 `$ref`s, too many to validate"
        );
        let tree = json!({"$defs": {"Node": {"type": "object", "properties": {
            "kids": {"type": "array", "items": {"$ref": "#/$defs/Node"}}}}},
            "properties": {"root": {"$ref": "#/$defs/Node"}}});
        assert!(ref_chain_within(&tree, 64).is_ok());
    }
}
