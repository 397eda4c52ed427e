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
use crate::schema::resolve::{self, Documents, Local, RefTarget, decode_fragment, parse_ref};
use crate::schema::walk::{Reach, Walk, walk_mut};
use crate::source::{SourceFile, Target, pointer_push};

pub use crate::schema::resolve::{DocId, RefError, Schema};

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
    // comes first) is unchanged. A packed schema's list is ready (a copy, most often empty):
    // only unpacked ones are walked, and only then on several threads.
    let tools: Vec<&super::Parameters> = catalog.tools.iter().map(|t| &t.parameters).collect();
    let list = |parameters: &super::Parameters| Some(parameters.refs_to_check());
    let mut in_tools: Vec<Option<Vec<(String, String)>>> =
        if tools.iter().all(|parameters| parameters.is_packed()) {
            tools.into_iter().map(list).collect()
        } else {
            super::parallel::map(tools, list)
        };
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
            for (slot, step) in first.iter_mut().zip([Docs::resolve_once, Docs::deref]) {
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
/// the chain it starts, which ends within [`resolve::MAX_CHAIN`] steps without a cycle: what
/// both steps of [`check`] verify, for a reference that never leaves its document.
fn local_chain_resolves(root: &Value, pointer: &str) -> bool {
    root.pointer(pointer).is_some_and(|node| {
        // `Local` takes every document for `root`: the id is not looked at.
        let schema = Schema {
            doc: DocId::Tool(0),
            value: node,
        };
        resolve::deref(Local(root), schema).is_ok()
    })
}

fn load_doc(path: &Path) -> Result<(PathBuf, SourceFile, Value), LoadError> {
    let source = SourceFile::read(path, crate::fsutil::shown_path(path))?;
    let value = source.parse()?;
    Ok((path.to_path_buf(), source, value))
}

fn doc_value(catalog: &Catalog, doc: DocId) -> &Value {
    match doc {
        DocId::Tool(i) => catalog.tools[i].parameters.keep(),
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
        resolve::deref(self, schema)
    }

    /// Follows the `$ref` of `schema` one step in these documents.
    fn resolve_once(self, schema: Schema<'a>) -> Result<Schema<'a>, RefError> {
        resolve::resolve_once(self, schema)
    }
}

impl<'a> Documents<'a> for Docs<'a> {
    fn root(self, doc: DocId) -> &'a Value {
        match (doc, self.tool) {
            (DocId::Tool(i), Some((j, root))) if i == j => root,
            _ => doc_value(self.catalog, doc),
        }
    }

    /// A file loaded with the catalog, relative to the file of `from`.
    fn file(self, from: DocId, file: &str) -> Result<DocId, RefError> {
        let path = target_path(self.catalog, from, file)?;
        let index = self
            .catalog
            .refs
            .by_path
            .get(&path)
            .ok_or_else(|| RefError::new(format!("`$ref` target `{file}` was not loaded")))?;
        Ok(DocId::File(*index))
    }
}

/// The catalog's documents as kept.
impl<'a> Documents<'a> for &'a Catalog {
    fn root(self, doc: DocId) -> &'a Value {
        Docs::of(self).root(doc)
    }

    fn file(self, from: DocId, file: &str) -> Result<DocId, RefError> {
        Docs::of(self).file(from, file)
    }
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

/// Calls `f(pointer, reference)` for every `$ref` string in `root`, in document order,
/// wherever a schema could be ([`Reach::NonData`]: a `$ref` under an unknown keyword is one the
/// loader checks and the bundler rewrites). The walk spells a pointer only for the nodes
/// holding a `$ref`: a schema without references costs a walk, not a string per node.
fn for_each_ref(root: &Value, mut f: impl FnMut(String, &str)) {
    let mut walk = Walk::new(root, Reach::NonData);
    while let Some(node) = walk.next() {
        if let Some(Value::String(reference)) = node.value.get("$ref") {
            f(walk.pointer(&node), reference);
        }
    }
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
    let root: &Value = parameters.keep();
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
        let target = Docs::of(self.catalog).resolve_once(holder).ok()?;
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
    let decoded = decode_fragment(segment);
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
/// `definitions`) and the keywords that would rebase its references (`$id`, `$schema`): in
/// every node [`for_each_ref`] would walk.
fn prune(copy: &mut Value) {
    walk_mut(copy, Reach::NonData, |node| {
        if let Value::Object(map) = node {
            for key in ["$defs", "definitions", "$id", "$schema"] {
                map.shift_remove(key);
            }
        }
    });
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
