//! `$ref` resolution inside tool parameters.
//!
//! Supported: local pointers (`#`, `#/$defs/X`, `#/definitions/X`) against the document the
//! reference sits in, and files inside the project (`common.yaml#/$defs/X`, `kind.json`),
//! relative to the referring file. Refused with an error: remote references (never fetched),
//! files outside the project root, missing files or pointers, `#anchor` references, and chains
//! of references that loop. Recursive schemas (a `$ref` under `properties` or `items` that points
//! back up) are legal and are only followed on demand, with bounded depth, by the renderer.
//!
//! [`bundle`] gives a tool's schema as it leaves discloser for a provider or a validator: every
//! definition reached through another file is copied into the tool's own `$defs` and the
//! references rewritten, so the result refers to nothing outside itself.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::{Component, Path, PathBuf};

use serde_json::Value;

use super::{Catalog, parameters_pointer};
use crate::diagnostic::{ErrorKind, LoadError, did_you_mean};
use crate::source::{SourceFile, Target, pointer_push, pointer_segments};

/// Which document a schema node lives in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum DocId {
    /// The `parameters` of the tool at this index of [`Catalog::tools`].
    Tool(usize),
    /// A schema file referenced from a tool.
    File(usize),
}

/// A schema node and the document it belongs to (so its own `$ref`s resolve correctly).
#[derive(Clone, Copy, Debug)]
pub struct Schema<'a> {
    /// The document `value` belongs to.
    pub doc: DocId,
    /// The schema node.
    pub value: &'a Value,
}

/// Why a reference does not resolve, and a `help:` line when one can be given (the nearest
/// existing definition or file).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefError(pub String, pub Option<String>);

impl RefError {
    fn new(message: String) -> RefError {
        RefError(message, None)
    }
}

/// Keywords whose value maps names to schemas.
const SCHEMA_MAPS: &[&str] = &[
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
];

/// Longest chain of `$ref` → `$ref` → ... followed before giving up.
const MAX_CHAIN: usize = 64;

#[derive(Debug, Default)]
pub(super) struct RefStore {
    root: PathBuf,
    docs: Vec<(PathBuf, SourceFile, Value)>,
    by_path: BTreeMap<PathBuf, usize>,
}

impl RefStore {
    pub(super) fn new(root: &Path) -> RefStore {
        let root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
        RefStore {
            root,
            ..RefStore::default()
        }
    }
}

/// A parsed `$ref` string.
enum RefTarget<'s> {
    Local(&'s str),
    File(&'s str, &'s str),
}

fn parse_ref(reference: &str) -> Result<RefTarget<'_>, RefError> {
    if reference.contains("://") || reference.starts_with("//") {
        return Err(RefError::new(format!(
            "remote `$ref` `{reference}` is not fetched; copy the schema into the project and refer to the file"
        )));
    }
    let (file, fragment) = reference.split_once('#').unwrap_or((reference, ""));
    if !fragment.is_empty() && !fragment.starts_with('/') {
        return Err(RefError::new(format!(
            "`$ref` `{reference}` uses an anchor; only JSON pointers (`#/$defs/...`) are supported"
        )));
    }
    Ok(if file.is_empty() {
        RefTarget::Local(fragment)
    } else {
        RefTarget::File(file, fragment)
    })
}

/// Loads every file reachable through `$ref`s and checks that every reference resolves.
pub(super) fn check(catalog: &mut Catalog) -> Result<(), LoadError> {
    // Phase 1: load the closure of referenced files, failing at the referring `$ref`.
    let mut queue: Vec<DocId> = (0..catalog.tools.len()).map(DocId::Tool).collect();
    // Where each document's `$ref`s are, found once (walking every schema three times was a
    // tenth of `render` on large catalogs); documents without any are not listed.
    let mut refs_of: BTreeMap<DocId, Vec<String>> = BTreeMap::new();
    let refs_in = |value: &Value| {
        let mut found = Vec::new();
        for_each_ref(value, |pointer, reference| {
            found.push((pointer, reference.to_owned()));
        });
        found
    };
    // The tools' own schemas were walked when they were packed (in parallel, file by file),
    // and the references that stay inside their tool and resolve there were checked then: only
    // the others are listed. The order in which documents are checked (and so which error
    // comes first) is unchanged.
    let tools: Vec<&super::Parameters> = catalog.tools.iter().map(|t| &t.parameters).collect();
    let mut in_tools: Vec<Option<Vec<(String, String)>>> =
        super::parallel::map(tools, |parameters| Some(parameters.refs_to_check()));
    while let Some(doc) = queue.pop() {
        let wanted = match doc {
            DocId::Tool(i) => in_tools[i].take().unwrap_or_default(),
            DocId::File(_) => refs_in(doc_value(catalog, doc)),
        };
        if !wanted.is_empty() {
            refs_of.insert(doc, wanted.iter().map(|(p, _)| p.clone()).collect());
        }
        for (pointer, reference) in wanted {
            let target = parse_ref(&reference).map_err(|e| ref_error(catalog, doc, &pointer, e))?;
            if let RefTarget::File(file, _) = target {
                let path = target_path(catalog, doc, file)
                    .map_err(|e| ref_error(catalog, doc, &pointer, e))?;
                if !catalog.refs.by_path.contains_key(&path) {
                    if !path.is_file() {
                        let shown = crate::fsutil::shown_path(&path);
                        let what = match std::fs::metadata(&path) {
                            Err(_) => "does not exist",
                            Ok(meta) if meta.is_dir() => "is a directory, not a schema file",
                            Ok(_) => {
                                "is not a regular file (a FIFO, socket or device), which discloser does not read"
                            }
                        };
                        let message = format!("`$ref` target `{}` {what}", shown.display());
                        let help = missing_file_help(&path, file, &reference);
                        return Err(ref_error(catalog, doc, &pointer, RefError(message, help)));
                    }
                    // A file that cannot be read at all (too large, a pseudo-file) is reported
                    // where the `$ref` is; a file read but not parsed, where its text is wrong.
                    let loaded = load_doc(&path).map_err(|e| {
                        if e.kind == ErrorKind::Io && e.position.is_none() {
                            let shown = crate::fsutil::shown_path(&path);
                            let message =
                                format!("`$ref` target `{}`: {}", shown.display(), e.message);
                            ref_error(catalog, doc, &pointer, RefError::new(message))
                        } else {
                            e
                        }
                    })?;
                    let index = catalog.refs.docs.len();
                    catalog.refs.docs.push(loaded);
                    catalog.refs.by_path.insert(path, index);
                    queue.push(DocId::File(index));
                }
            }
        }
    }
    // Phase 2: every reference points at an existing node (reported where the `$ref` is), and,
    // every single step being valid, no chain of references loops or runs on forever.
    let docs: Vec<DocId> = (0..catalog.refs.docs.len())
        .map(DocId::File)
        .chain((0..catalog.tools.len()).map(DocId::Tool))
        .collect();
    // Each document's first failure of either step, with its schema unpacked once; then the
    // first document failing the first step, else the first failing the second, as when every
    // document was checked step by step.
    let mut failures: [Option<(DocId, String, RefError)>; 2] = [None, None];
    for &doc in &docs {
        let Some(refs) = refs_of.get(&doc) else {
            continue;
        };
        let check = |docs: Docs<'_>, root: &Value| {
            let mut first: [Option<(String, RefError)>; 2] = [None, None];
            for (slot, step) in first.iter_mut().zip([resolve_once_in, deref_in]) {
                *slot = refs.iter().find_map(|pointer| {
                    let node = root.pointer(pointer).unwrap_or(&Value::Null);
                    step(docs, Schema { doc, value: node })
                        .err()
                        .map(|e| (pointer.clone(), e))
                });
            }
            first
        };
        let first = match doc {
            DocId::Tool(i) => catalog.tools[i].parameters.with(|root| {
                let docs = Docs {
                    catalog,
                    tool: Some((i, root)),
                };
                check(docs, root)
            }),
            DocId::File(_) => check(Docs::of(catalog), doc_value(catalog, doc)),
        };
        for (failure, found) in failures.iter_mut().zip(first) {
            if failure.is_none()
                && let Some((pointer, e)) = found
            {
                *failure = Some((doc, pointer, e));
            }
        }
    }
    match failures {
        [Some((doc, pointer, e)), _] | [None, Some((doc, pointer, e))] => {
            Err(ref_error(catalog, doc, &pointer, e))
        }
        [None, None] => Ok(()),
    }
}

/// The `$ref`s of a tool's schema (pointer, reference) that the catalog must check: none when
/// every one is local and it, and the chain of references it starts, resolve inside the
/// schema (checked here, while the schema is parsed); else all of them.
pub(super) fn refs_to_check(root: &Value) -> Vec<(String, String)> {
    let mut found = Vec::new();
    for_each_ref(root, |pointer, reference| {
        found.push((pointer, reference.to_owned()));
    });
    if found
        .iter()
        .all(|(pointer, _)| local_chain_resolves(root, pointer))
    {
        found.clear();
    }
    found
}

/// Whether the `$ref` at `pointer` in `root` resolves in `root`, and so does every `$ref` of
/// the chain it starts, which ends within [`MAX_CHAIN`] steps without a cycle: what both steps
/// of [`check`] verify, for a reference that never leaves its document.
fn local_chain_resolves(root: &Value, pointer: &str) -> bool {
    let Some(mut node) = root.pointer(pointer) else {
        return false;
    };
    let mut seen: Vec<*const Value> = Vec::new();
    while let Some(reference) = node.get("$ref").and_then(Value::as_str) {
        let key = std::ptr::from_ref(node);
        if seen.contains(&key) || seen.len() >= MAX_CHAIN {
            return false;
        }
        seen.push(key);
        let Ok(RefTarget::Local(target)) = parse_ref(reference) else {
            return false;
        };
        let Some(next) = resolve_pointer(root, target) else {
            return false;
        };
        node = next;
    }
    true
}

fn load_doc(path: &Path) -> Result<(PathBuf, SourceFile, Value), LoadError> {
    let source = SourceFile::read(path, crate::fsutil::shown_path(path))?;
    let value = source.parse()?;
    Ok((path.to_path_buf(), source, value))
}

fn doc_value(catalog: &Catalog, doc: DocId) -> &Value {
    match doc {
        DocId::Tool(i) => &catalog.tools[i].parameters,
        DocId::File(i) => &catalog.refs.docs[i].2,
    }
}

fn doc_path(catalog: &Catalog, doc: DocId) -> &Path {
    match doc {
        DocId::Tool(i) => &catalog.file_paths[catalog.tools[i].origin.file],
        DocId::File(i) => &catalog.refs.docs[i].0,
    }
}

/// The absolute, normalised path a file reference designates; it must stay inside the root.
fn target_path(catalog: &Catalog, doc: DocId, file: &str) -> Result<PathBuf, RefError> {
    let base = doc_path(catalog, doc).parent().unwrap_or(Path::new("."));
    let joined = normalize(&base.join(file));
    let resolved = joined.canonicalize().unwrap_or(joined);
    if !resolved.starts_with(&catalog.refs.root) {
        return Err(RefError::new(format!(
            "`$ref` `{file}` points outside the project (`{}`)",
            catalog.refs.root.display()
        )));
    }
    Ok(resolved)
}

/// Removes `.` and `..` components lexically (the path may not exist yet).
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// The documents references resolve in: the catalog's, with one tool's schema possibly given
/// as a value unpacked for one use (so that following its local `$ref`s does not unpack and
/// keep the catalog's copy).
#[derive(Clone, Copy)]
pub(crate) struct Docs<'a> {
    /// The catalog (its tools and referenced files).
    pub(crate) catalog: &'a Catalog,
    /// The root of the tool at this index of [`Catalog::tools`], to use instead of its kept one.
    pub(crate) tool: Option<(usize, &'a Value)>,
}

impl<'a> Docs<'a> {
    /// The catalog's documents as kept.
    pub(crate) fn of(catalog: &'a Catalog) -> Docs<'a> {
        Docs {
            catalog,
            tool: None,
        }
    }

    /// The catalog's documents, with `root` (a tool's whole schema) standing for its document.
    pub(crate) fn rooted(catalog: &'a Catalog, root: Schema<'a>) -> Docs<'a> {
        Docs {
            catalog,
            tool: match root.doc {
                DocId::Tool(i) => Some((i, root.value)),
                DocId::File(_) => None,
            },
        }
    }

    /// [`Catalog::deref`] in these documents.
    pub(crate) fn deref(self, schema: Schema<'a>) -> Result<Schema<'a>, RefError> {
        deref_in(self, schema)
    }

    fn root(self, doc: DocId) -> &'a Value {
        match (doc, self.tool) {
            (DocId::Tool(i), Some((j, root))) if i == j => root,
            _ => doc_value(self.catalog, doc),
        }
    }
}

/// Follows `$ref`s from `schema` to a node without one.
pub(super) fn deref<'a>(catalog: &'a Catalog, schema: Schema<'a>) -> Result<Schema<'a>, RefError> {
    deref_in(Docs::of(catalog), schema)
}

fn deref_in<'a>(docs: Docs<'a>, mut schema: Schema<'a>) -> Result<Schema<'a>, RefError> {
    let mut seen: Vec<(DocId, *const Value)> = Vec::new();
    while let Some(reference) = schema.value.get("$ref").and_then(Value::as_str) {
        let key = (schema.doc, std::ptr::from_ref(schema.value));
        if seen.contains(&key) {
            let chain = seen.len();
            return Err(RefError::new(format!(
                "`$ref` `{reference}` is part of a cycle of references ({chain} steps)"
            )));
        }
        if seen.len() >= MAX_CHAIN {
            return Err(RefError::new(format!(
                "`$ref` `{reference}` starts a chain of more than {MAX_CHAIN} references"
            )));
        }
        seen.push(key);
        schema = resolve_once_in(docs, schema)?;
    }
    Ok(schema)
}

/// Follows the `$ref` of `schema` one step (the node itself when it has none).
fn resolve_once<'a>(catalog: &'a Catalog, schema: Schema<'a>) -> Result<Schema<'a>, RefError> {
    resolve_once_in(Docs::of(catalog), schema)
}

fn resolve_once_in<'a>(docs: Docs<'a>, schema: Schema<'a>) -> Result<Schema<'a>, RefError> {
    let catalog = docs.catalog;
    let Some(reference) = schema.value.get("$ref").and_then(Value::as_str) else {
        return Ok(schema);
    };
    let (doc, pointer) = match parse_ref(reference)? {
        RefTarget::Local(pointer) => (schema.doc, pointer),
        RefTarget::File(file, pointer) => {
            let path = target_path(catalog, schema.doc, file)?;
            let index =
                catalog.refs.by_path.get(&path).ok_or_else(|| {
                    RefError::new(format!("`$ref` target `{file}` was not loaded"))
                })?;
            (DocId::File(*index), pointer)
        }
    };
    let root = docs.root(doc);
    let value = resolve_pointer(root, pointer).ok_or_else(|| {
        let help = nearest_pointer(root, pointer).map(|near| {
            let file = reference.split_once('#').map_or("", |(f, _)| f);
            format!("did you mean `{file}#{near}`?")
        });
        RefError(
            format!("`$ref` `{reference}` points to nothing: no `{pointer}` in its document"),
            help,
        )
    })?;
    Ok(Schema { doc, value })
}

/// The existing pointer nearest to `pointer` in `root`: each segment that names nothing is
/// replaced by the nearest key of its mapping (`Cabin` by `CabinClass`). `None` when some
/// segment has no near key, or leaves a mapping.
fn nearest_pointer(root: &Value, pointer: &str) -> Option<String> {
    let decoded = pointer
        .replace("%24", "$")
        .replace("%25", "%")
        .replace("%20", " ");
    let mut node = root;
    let mut near = String::new();
    let mut changed = false;
    for segment in pointer_segments(&decoded) {
        let next = match node {
            Value::Object(map) => match map.get_key_value(segment.as_str()) {
                Some(found) => found,
                None => {
                    let key = did_you_mean(&segment, map.keys().map(String::as_str))?;
                    changed = true;
                    map.get_key_value(key)?
                }
            },
            Value::Array(items) => {
                let item = items.get(segment.parse::<usize>().ok()?)?;
                near = pointer_push(&near, &segment);
                node = item;
                continue;
            }
            _ => return None,
        };
        near = pointer_push(&near, next.0);
        node = next.1;
    }
    changed.then_some(near)
}

/// "did you mean" the nearest file beside `path`, the missing target of `reference` (whose file
/// part is `file`), spelt as the reference spells it.
fn missing_file_help(path: &Path, file: &str, reference: &str) -> Option<String> {
    if std::fs::symlink_metadata(path).is_ok() {
        return None;
    }
    let near = nearest_file(path)?;
    let dir = file
        .rsplit_once('/')
        .map_or(String::new(), |(dir, _)| format!("{dir}/"));
    let fragment = reference
        .split_once('#')
        .map_or(String::new(), |(_, f)| format!("#{f}"));
    Some(format!("did you mean `{dir}{near}{fragment}`?"))
}

/// The file beside `path` whose name is nearest to its name, for a `$ref` to a missing file.
fn nearest_file(path: &Path) -> Option<String> {
    let name = path.file_name()?.to_str()?;
    let names: Vec<String> = std::fs::read_dir(path.parent()?)
        .ok()?
        .filter_map(Result::ok)
        .filter(|entry| entry.file_type().is_ok_and(|t| t.is_file()))
        .filter_map(|entry| entry.file_name().into_string().ok())
        .collect();
    did_you_mean(name, names.iter().map(String::as_str)).map(str::to_owned)
}

/// `Value::pointer`, also accepting `%25`-style escapes commonly found in `$ref` fragments.
fn resolve_pointer<'a>(root: &'a Value, pointer: &str) -> Option<&'a Value> {
    root.pointer(pointer).or_else(|| {
        let decoded = pointer
            .replace("%24", "$")
            .replace("%25", "%")
            .replace("%20", " ");
        root.pointer(&decoded)
    })
}

/// Calls `f(pointer, reference)` for every `$ref` string in `root`, depth-first, iteratively
/// (so deeply nested input cannot overflow the stack). The path to each node is kept as a
/// parent link and a borrowed segment, and spelled as a pointer only for nodes holding a `$ref`:
/// a schema without references costs a walk, not a string per node.
fn for_each_ref(root: &Value, mut f: impl FnMut(String, &str)) {
    // `path[i]` is (1 + index of the parent in `path`, or 0 for the root; the segment).
    let mut path: Vec<(usize, Segment<'_>)> = Vec::new();
    // The flag says whether `value` is a map from names to schemas (`properties`, `$defs`, ...),
    // whose keys are user names, not keywords.
    let mut stack: Vec<(usize, &Value, bool)> = vec![(0, root, false)];
    while let Some((at, value, named)) = stack.pop() {
        match value {
            Value::Object(map) => {
                if !named && let Some(Value::String(reference)) = map.get("$ref") {
                    f(spell_pointer(&path, at), reference);
                }
                for (key, child) in map.iter().rev() {
                    // `enum`, `const`, `default` and `examples` hold data, not schemas.
                    let data = matches!(
                        key.as_str(),
                        "enum" | "const" | "default" | "examples" | "example"
                    );
                    if named || !data {
                        let child_named = !named && SCHEMA_MAPS.contains(&key.as_str());
                        path.push((at, Segment::Key(key)));
                        stack.push((path.len(), child, child_named));
                    }
                }
            }
            Value::Array(items) => {
                for (i, child) in items.iter().enumerate().rev() {
                    path.push((at, Segment::Index(i)));
                    stack.push((path.len(), child, false));
                }
            }
            _ => {}
        }
    }
}

/// One step of a path through a JSON document.
enum Segment<'a> {
    Key(&'a str),
    Index(usize),
}

/// The JSON pointer of the node at `at` (see [`for_each_ref`]).
fn spell_pointer(path: &[(usize, Segment<'_>)], mut at: usize) -> String {
    let mut segments = Vec::new();
    while at > 0 {
        let (parent, segment) = &path[at - 1];
        segments.push(segment);
        at = *parent;
    }
    let mut pointer = String::new();
    for segment in segments.into_iter().rev() {
        pointer = match segment {
            Segment::Key(key) => pointer_push(&pointer, key),
            Segment::Index(i) => pointer_push(&pointer, i),
        };
    }
    pointer
}

/// The schema of the tool at `index` with every reference into another file bundled: each
/// definition reached through a file `$ref` (and, transitively, everything it refers to, in its
/// own file or another) is copied into the tool's `$defs` (its `definitions` when the tool uses
/// that and not `$defs`), and every reference to it rewritten to `#/$defs/<name>`. The result
/// holds only local references and validates the same instances as the schema as written.
///
/// - A tool without a file reference is returned as is (borrowed): its bytes never change.
/// - A copy is named after the definition (the last segment of its pointer, or the file's stem
///   for a whole file), in ASCII letters, digits, `_`, `-` and `.`; when that name is taken (by
///   the tool's own definitions or another copy), the file's stem is appended (`Kind_common`),
///   then a number (`Kind_common_2`). Names and order follow the order the references are first
///   met, so the same catalog always gives the same bytes.
/// - Each target is copied once, however often and however spelled it is referred to, so a
///   recursive definition (a cycle through files) becomes a cycle of local references.
/// - Inside a copy, the nested `$defs`/`definitions` are dropped (every reference into them now
///   points at a copy of its own), and so are `$id` and `$schema`, which discloser's resolver
///   ignores and which would otherwise change how a validator resolves the rewritten references.
/// - The tool's own references and definitions are kept as written.
pub(super) fn bundle(catalog: &Catalog, index: usize) -> Cow<'_, Value> {
    let parameters = &catalog.tools[index].parameters;
    // A packed schema is unpacked for this one use (a copy), not kept: `cost` and snapshots
    // visit every tool once.
    let own = match parameters.kept() {
        Some(kept) => Cow::Borrowed(kept),
        None => Cow::Owned(parameters.to_value()),
    };
    let mut external = Vec::new();
    for_each_ref(&own, |pointer, reference| {
        if !reference.starts_with('#') {
            external.push((pointer, reference.to_owned()));
        }
    });
    let Some(container) = defs_container(&own).filter(|_| !external.is_empty()) else {
        return own;
    };
    // References into other files (rare): the bundler resolves through the catalog, which
    // keeps this tool's value.
    let root: &Value = parameters;
    let taken: BTreeSet<String> = root
        .get(container)
        .and_then(Value::as_object)
        .map(|defs| defs.keys().cloned().collect())
        .unwrap_or_default();
    let mut bundler = Bundler {
        catalog,
        container,
        names: BTreeMap::new(),
        taken,
        queue: VecDeque::new(),
    };
    let mut schema = root.clone();
    bundler.rewrite(&mut schema, catalog.parameters(index), external);
    let mut copies = Vec::new();
    while let Some((name, target)) = bundler.queue.pop_front() {
        let mut copy = target.value.clone();
        prune(&mut copy);
        let mut found = Vec::new();
        for_each_ref(&copy, |pointer, reference| {
            found.push((pointer, reference.to_owned()));
        });
        bundler.rewrite(&mut copy, target, found);
        copies.push((name, copy));
    }
    if let Value::Object(map) = &mut schema
        && let Value::Object(defs) = map
            .entry(container)
            .or_insert_with(|| Value::Object(serde_json::Map::new()))
    {
        defs.extend(copies);
    }
    Cow::Owned(schema)
}

/// Where a tool's bundled definitions go: `$defs`, or `definitions` when the tool has that and
/// no `$defs`; `None` when neither can hold them (a root that is not an object, or both keys
/// holding something other than a mapping), and then nothing is bundled.
fn defs_container(root: &Value) -> Option<&'static str> {
    let map = root.as_object()?;
    let usable = |key: &str| map.get(key).is_none_or(Value::is_object);
    match (map.get("$defs"), map.get("definitions")) {
        (None, Some(Value::Object(_))) => Some("definitions"),
        _ if usable("$defs") => Some("$defs"),
        _ if usable("definitions") => Some("definitions"),
        _ => None,
    }
}

/// The state of one [`bundle`]: which targets have a name, and which copies are still to make.
struct Bundler<'c> {
    catalog: &'c Catalog,
    /// `$defs` or `definitions`.
    container: &'static str,
    /// The name given to each target, by identity: its document and its address in the catalog.
    names: BTreeMap<(DocId, usize), String>,
    /// Names in use: the tool's own definitions and the copies.
    taken: BTreeSet<String>,
    /// Targets named but not yet copied.
    queue: VecDeque<(String, Schema<'c>)>,
}

impl<'c> Bundler<'c> {
    /// Points each `$ref` of `refs` (at its pointer in `value`, a copy of `original` with at most
    /// keys removed, so the pointers hold in both) at the copy of its target.
    fn rewrite(&mut self, value: &mut Value, original: Schema<'c>, refs: Vec<(String, String)>) {
        for (pointer, reference) in refs {
            let Some(node) = original.value.pointer(&pointer) else {
                continue;
            };
            let holder = Schema {
                doc: original.doc,
                value: node,
            };
            let Some(name) = self.name_of(holder, &reference) else {
                continue;
            };
            if let Some(Value::Object(node)) = value.pointer_mut(&pointer) {
                let local = format!("#/{}/{name}", self.container);
                node.insert("$ref".into(), Value::String(local));
            }
        }
    }

    /// The name of the copy of what `reference` (the `$ref` of `holder`) designates, naming it
    /// and queueing its copy on first sight. `None` only for a reference the loader would have
    /// refused (every reference of a loaded catalog resolves).
    fn name_of(&mut self, holder: Schema<'c>, reference: &str) -> Option<String> {
        let target = resolve_once(self.catalog, holder).ok()?;
        let identity = (target.doc, std::ptr::from_ref(target.value) as usize);
        if let Some(name) = self.names.get(&identity) {
            return Some(name.clone());
        }
        let stem = doc_path(self.catalog, target.doc)
            .file_stem()
            .map(|s| plain_name(&s.to_string_lossy()))
            .unwrap_or_default();
        let own = match parse_ref(reference).ok()? {
            RefTarget::Local(pointer) | RefTarget::File(_, pointer) => last_segment(pointer),
        };
        let base = own.map_or_else(|| stem.clone(), |own| plain_name(&own));
        let base = if base.is_empty() {
            "def".to_owned()
        } else {
            base
        };
        let name = [base.clone(), format!("{base}_{stem}")]
            .into_iter()
            .chain((2..).map(|n| format!("{base}_{stem}_{n}")))
            .find(|name| !self.taken.contains(name))
            .expect("an unbounded list of names has a free one");
        self.taken.insert(name.clone());
        self.names.insert(identity, name.clone());
        self.queue.push_back((name.clone(), target));
        Some(name)
    }
}

/// The last segment of a JSON pointer, unescaped (`None` for the whole document).
fn last_segment(pointer: &str) -> Option<String> {
    let segment = pointer.rsplit('/').next().filter(|_| !pointer.is_empty())?;
    let decoded = segment
        .replace("%24", "$")
        .replace("%25", "%")
        .replace("%20", " ");
    Some(decoded.replace("~1", "/").replace("~0", "~"))
}

/// `name` in the characters a definition name keeps: ASCII letters, digits, `_`, `-`, `.`
/// (anything else becomes `_`), so a rewritten `$ref` needs no escaping of any kind.
fn plain_name(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Removes from a copy, wherever they are keywords, the definitions it carried (`$defs`,
/// `definitions`) and the keywords that would rebase its references (`$id`, `$schema`).
/// Iterative, like [`for_each_ref`], and with the same idea of where keywords are.
fn prune(copy: &mut Value) {
    let mut stack: Vec<(&mut Value, bool)> = vec![(copy, false)];
    while let Some((value, named)) = stack.pop() {
        match value {
            Value::Object(map) => {
                if !named {
                    for key in ["$defs", "definitions", "$id", "$schema"] {
                        map.shift_remove(key);
                    }
                }
                for (key, child) in map.iter_mut() {
                    let data = matches!(
                        key.as_str(),
                        "enum" | "const" | "default" | "examples" | "example"
                    );
                    if named || !data {
                        let child_named = !named && SCHEMA_MAPS.contains(&key.as_str());
                        stack.push((child, child_named));
                    }
                }
            }
            Value::Array(items) => stack.extend(items.iter_mut().map(|item| (item, false))),
            _ => {}
        }
    }
}

fn ref_error(catalog: &Catalog, doc: DocId, pointer: &str, error: RefError) -> LoadError {
    let RefError(message, help) = error;
    let at = pointer_push(pointer, "$ref");
    let err = match doc {
        DocId::Tool(i) => {
            let origin = &catalog.tools[i].origin;
            catalog.files[origin.file].error_at(
                ErrorKind::Ref,
                &parameters_pointer(origin, &at),
                Target::Value,
                message,
            )
        }
        DocId::File(i) => {
            catalog.refs.docs[i]
                .1
                .error_at(ErrorKind::Ref, &at, Target::Value, message)
        }
    };
    match help {
        Some(help) => err.with_help(help),
        None => err,
    }
}
