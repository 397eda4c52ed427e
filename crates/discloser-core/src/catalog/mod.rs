//! The catalog: every tool of the project, loaded from its source files, sorted by name.
//!
//! A [`Catalog`] is built once per run from the sources of `discloser.yaml` (see
//! [`crate::project`]) or from explicit files. Each file may be in discloser's native format or
//! in a provider's format (OpenAI, Anthropic, MCP, Gemini, ...): [`formats`] detects which, or
//! takes the format a source names, and reads every tool into the same model. It guarantees:
//! - tool names are unique (a duplicate is a [`LoadError`] naming both places);
//! - tools are sorted by name (code-point order), whatever the order of the files;
//! - every `$ref` inside `parameters` resolves (local pointers, or files inside the project),
//!   with no remote fetch and no cycle of references.

pub mod formats;
pub use discloser_tokens::parallel;
mod parameters;
mod refs;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::Value;

use crate::diagnostic::{ErrorKind, LoadError};
use crate::source::{SourceFile, Target};

pub use parameters::Parameters;
pub(crate) use refs::Docs;
use refs::RefStore;
pub use refs::{DocId, RefError, Schema};

/// One tool definition, as written, with discloser's own settings applied.
#[derive(Clone, Debug)]
pub struct Tool {
    /// The name the model calls.
    pub name: String,
    /// The description exactly as written (the index packs a summary from it).
    pub description: String,
    /// The JSON Schema of the arguments, as written (`$ref`s not inlined); packed once the
    /// catalog is loaded (see [`Parameters`]: `*parameters` is the value, kept from then on;
    /// [`Parameters::with`] borrows a copy for one use).
    pub parameters: Parameters,
    /// Trigger words as written (the index normalises and sorts them).
    pub triggers: Vec<String>,
    /// Bound in every profile.
    pub core: bool,
    /// A per-tool summary budget, overriding the index's.
    pub summary_budget: Option<usize>,
    /// Lint codes suppressed for this tool.
    pub lint_ignore: Vec<String>,
    /// A human-readable title (MCP `title`), kept so that an export to MCP gives it back.
    pub title: Option<String>,
    /// MCP tool annotations (`readOnlyHint`, ...) as written, kept for the same reason.
    pub annotations: Option<Value>,
    /// Where the tool was defined.
    pub origin: Origin,
}

/// Where a tool was defined: a file of the catalog and a JSON pointer into it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Origin {
    /// Index into [`Catalog::files`].
    pub file: usize,
    /// JSON pointer to the object holding the tool's `name` inside the file (`""` when the file
    /// is the tool; `/0/function` for an OpenAI Chat Completions tool).
    pub pointer: String,
    /// The format the tool was read in.
    pub format: formats::Format,
    /// The key of that object holding the JSON Schema (`parameters`, `inputSchema`,
    /// `input_schema`, `parametersJsonSchema`, or `arguments` for a Docker catalog tool).
    pub schema_key: &'static str,
}

impl Origin {
    /// The JSON pointer into the file of `suffix`, a pointer relative to the tool as discloser
    /// models it (`/name`, `/parameters/properties/kind`): `/parameters` becomes the key the
    /// tool's format uses. Use this (or [`Catalog::locate`]) rather than concatenating
    /// `pointer` and `suffix`, or positions inside MCP or Anthropic schemas are lost.
    pub fn pointer_to(&self, suffix: &str) -> String {
        let rest = suffix
            .strip_prefix("/parameters")
            .filter(|rest| rest.is_empty() || rest.starts_with('/'));
        match rest {
            Some(rest) if self.schema_key != "parameters" => {
                format!("{}/{}{rest}", self.pointer, self.schema_key)
            }
            _ => format!("{}{suffix}", self.pointer),
        }
    }
}

/// One document to load into a catalog, and the format it is in (`None`: detect it).
#[derive(Debug)]
pub enum Input {
    /// A file on disk, read when the catalog loads.
    File {
        /// Where to read it.
        real: PathBuf,
        /// The path shown in messages.
        shown: PathBuf,
        /// The format named for it, if any.
        format: Option<formats::Format>,
    },
    /// Text already in memory (e.g. pulled from a live MCP server).
    Text {
        /// The text and the path shown in messages.
        source: SourceFile,
        /// The path relative `$ref`s are resolved against.
        real: PathBuf,
        /// The format named for it, if any.
        format: Option<formats::Format>,
    },
}

/// All tools of a project, sorted by name, with the files they came from.
#[derive(Debug, Default)]
pub struct Catalog {
    /// Tool files, in the (sorted) order they were loaded.
    pub files: Vec<Arc<SourceFile>>,
    /// Real paths of `files`, for resolving relative `$ref`s.
    file_paths: Vec<PathBuf>,
    /// The tools, sorted by name.
    pub tools: Vec<Tool>,
    refs: RefStore,
}

impl Catalog {
    /// Loads tool files (paths are `(real path, path shown in messages)`) into a catalog.
    ///
    /// `root` bounds file `$ref`s: a reference that leaves it is an error. Files are loaded in
    /// the given order, which callers sort, so "first defined" is deterministic.
    /// The format of each file is detected (see [`formats`]).
    pub fn load(files: &[(PathBuf, PathBuf)], root: &Path) -> Result<Catalog, LoadError> {
        let inputs = files
            .iter()
            .map(|(real, shown)| Input::File {
                real: real.clone(),
                shown: shown.clone(),
                format: None,
            })
            .collect();
        Catalog::load_inputs(inputs, root)
    }

    /// Builds a catalog from in-memory sources (`(text, path)`), e.g. for tests or runtimes.
    pub fn from_sources(sources: Vec<SourceFile>, root: &Path) -> Result<Catalog, LoadError> {
        let inputs = sources
            .into_iter()
            .map(|source| Input::Text {
                real: root.join(&source.path),
                source,
                format: None,
            })
            .collect();
        Catalog::load_inputs(inputs, root)
    }

    /// Loads documents in the given order, each in its named format or a detected one.
    pub fn load_inputs(inputs: Vec<Input>, root: &Path) -> Result<Catalog, LoadError> {
        let (catalog, duplicates) = Catalog::load_inputs_keeping_first(inputs, root, false)?;
        debug_assert!(duplicates.is_empty());
        Ok(catalog)
    }

    /// Like [`Catalog::load_inputs`], but a repeated tool name is not an error: the first
    /// definition (in input order) is kept and each later one comes back as a
    /// [`ErrorKind::Duplicate`] problem, so `lint` can report it next to other findings.
    pub fn load_inputs_lenient(
        inputs: Vec<Input>,
        root: &Path,
    ) -> Result<(Catalog, Vec<LoadError>), LoadError> {
        Catalog::load_inputs_keeping_first(inputs, root, true)
    }

    fn load_inputs_keeping_first(
        inputs: Vec<Input>,
        root: &Path,
        keep_first: bool,
    ) -> Result<(Catalog, Vec<LoadError>), LoadError> {
        let mut catalog = Catalog {
            refs: RefStore::new(root),
            ..Catalog::default()
        };
        // Files are read and parsed in parallel, each as if it were the first of the catalog;
        // they are then added in input order, so the first error, file indices and "first
        // defined" are exactly those of a sequential load.
        let read = parallel::map(inputs, |input| {
            let (source, real, format) = match input {
                Input::File {
                    real,
                    shown,
                    format,
                } => (SourceFile::read(&real, shown)?, real, format),
                Input::Text {
                    source,
                    real,
                    format,
                } => (source, real, format),
            };
            // A JSON Lines file becomes one document per line, so positions stay exact.
            formats::read(source, format, 0).map(|documents| (documents, real))
        });
        let mut loaded = Vec::with_capacity(read.len());
        for result in read {
            loaded.push(result?);
        }
        // Sized once: a vector of tools grown by doubling keeps up to half of it unused.
        let total = loaded
            .iter()
            .flat_map(|(documents, _)| documents)
            .map(|(_, tools)| tools.len())
            .sum();
        catalog.tools.reserve_exact(total);
        for (documents, real) in loaded {
            catalog.add_documents(documents, &real);
        }
        catalog.finish(keep_first)
    }

    /// Adds the documents of one source, read as if its first document were file 0.
    fn add_documents(&mut self, documents: Vec<(SourceFile, Vec<Tool>)>, real: &Path) {
        let offset = self.files.len();
        for (document, mut tools) in documents {
            for tool in &mut tools {
                tool.origin.file += offset;
            }
            self.files.push(Arc::new(document));
            self.file_paths.push(real.to_path_buf());
            self.tools.extend(tools);
        }
    }

    fn finish(mut self, keep_first: bool) -> Result<(Catalog, Vec<LoadError>), LoadError> {
        // A stable sort keeps file order among equal names, so the duplicate error names the
        // earlier definition as the original.
        // The order is sorted (stably, so file order stays among equal names), not the tools
        // themselves: a stable sort of the tools would need a scratch copy of half of them.
        let mut order: Vec<usize> = (0..self.tools.len()).collect();
        order.sort_by(|&a, &b| self.tools[a].name.cmp(&self.tools[b].name));
        apply_order(&mut self.tools, order);
        // Repeats are found and removed in place: a second vector of every tool would double
        // the catalog's largest allocation.
        let mut duplicates = Vec::new();
        let mut repeated = vec![false; self.tools.len()];
        let mut first = 0;
        for (i, repeat) in repeated.iter_mut().enumerate().skip(1) {
            let (original, tool) = (&self.tools[first], &self.tools[i]);
            if original.name != tool.name {
                first = i;
                continue;
            }
            let first_at = self.locate(&original.origin, "/name");
            let err = self
                .error_at(
                    &tool.origin,
                    "/name",
                    ErrorKind::Duplicate,
                    format!("duplicate tool name `{}`", tool.name),
                )
                .with_help(format!(
                    "`{}` is first defined at {first_at}",
                    original.name
                ));
            if !keep_first {
                return Err(err);
            }
            duplicates.push(err);
            *repeat = true;
        }
        if !duplicates.is_empty() {
            let mut flags = repeated.into_iter();
            self.tools.retain(|_| !flags.next().unwrap_or(false));
        }
        refs::check(&mut self)?;
        self.pack_parameters();
        Ok((self, duplicates))
    }

    /// Packs every tool's schema (see [`Parameters`]), in parallel: a parsed schema takes
    /// several times the memory of its packed bytes.
    fn pack_parameters(&mut self) {
        // Loaders pack a file's schemas as they read it: only tools made otherwise are left,
        // and most runs start no thread here.
        let tools: Vec<&mut Tool> = self
            .tools
            .iter_mut()
            .filter(|tool| !tool.parameters.is_packed())
            .collect();
        parallel::map(tools, |tool| tool.parameters.pack());
    }

    /// The tool called `name`.
    pub fn get(&self, name: &str) -> Option<&Tool> {
        self.index_of(name).map(|i| &self.tools[i])
    }

    /// The names of all tools, sorted.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.tools.iter().map(|t| t.name.as_str())
    }

    /// A mutable tool, for applying configuration overrides.
    pub(crate) fn get_mut(&mut self, name: &str) -> Option<&mut Tool> {
        let i = self
            .tools
            .binary_search_by(|t| t.name.as_str().cmp(name))
            .ok()?;
        Some(&mut self.tools[i])
    }

    /// The path file `file` (an index into [`Catalog::files`]) was read from, for writing it
    /// back; relative `$ref`s resolve against it too.
    pub fn real_path(&self, file: usize) -> &Path {
        &self.file_paths[file]
    }

    /// The source file a tool came from.
    pub fn file_of(&self, tool: &Tool) -> &SourceFile {
        &self.files[tool.origin.file]
    }

    /// `path:line:col` of a JSON pointer relative to a tool (e.g. `"/parameters/properties/x"`).
    pub fn locate(&self, origin: &Origin, suffix: &str) -> String {
        let file = &self.files[origin.file];
        let pos = file.locate(&origin.pointer_to(suffix), Target::Value);
        crate::diagnostic::location(&file.path, Some(pos))
    }

    /// The positions of many `(file, pointer, target)` requests, in order: each file's
    /// positions are parsed once, files in parallel, and freed as soon as its requests are
    /// answered (see [`SourceFile::locate_all`]).
    pub fn locate_many(
        &self,
        requests: &[(usize, String, Target)],
    ) -> Vec<crate::diagnostic::Position> {
        let mut by_file: Vec<Vec<usize>> = vec![Vec::new(); self.files.len()];
        for (i, (file, _, _)) in requests.iter().enumerate() {
            by_file[*file].push(i);
        }
        let groups: Vec<(usize, Vec<usize>)> = by_file
            .into_iter()
            .enumerate()
            .filter(|(_, wanted)| !wanted.is_empty())
            .collect();
        let located = parallel::map(groups, |(file, wanted)| {
            let positions = self.files[file].locate_all(
                wanted
                    .iter()
                    .map(|&i| (requests[i].1.as_str(), requests[i].2)),
            );
            wanted.into_iter().zip(positions).collect::<Vec<_>>()
        });
        let mut out = vec![crate::diagnostic::Position::START; requests.len()];
        for (i, pos) in located.into_iter().flatten() {
            out[i] = pos;
        }
        out
    }

    /// An error positioned at a JSON pointer relative to a tool.
    pub fn error_at(
        &self,
        origin: &Origin,
        suffix: &str,
        kind: ErrorKind,
        message: String,
    ) -> LoadError {
        let file = &self.files[origin.file];
        file.error_at(kind, &origin.pointer_to(suffix), Target::Value, message)
    }

    /// The root schema of the parameters of the tool at `index` of [`Catalog::tools`], unpacked
    /// and kept for the rest of the run ([`Parameters::keep`]): not for a pass over every tool,
    /// which unpacks each schema for one use with [`Parameters::with`].
    pub fn parameters(&self, index: usize) -> Schema<'_> {
        Schema {
            doc: DocId::Tool(index),
            value: self.tools[index].parameters.keep(),
        }
    }

    /// The parameters of the tool at `index` as they leave discloser (for a provider, a
    /// snapshot, a cost or a validator): references into other files bundled into the tool's
    /// `$defs`, so the schema refers to nothing outside itself; a tool without such a reference
    /// is borrowed as written. Every path that writes or counts a tool's schema goes through
    /// this one function, so they never disagree. Copies are named after the definition
    /// (`Kind`), or, when that name is taken, after it and its file (`Kind_common`,
    /// `Kind_common_2`): the same catalog always gives the same bytes.
    pub fn bundled(&self, index: usize) -> std::borrow::Cow<'_, Value> {
        refs::bundle(self, index)
    }

    /// The position in [`Catalog::tools`] of the tool called `name`.
    pub fn index_of(&self, name: &str) -> Option<usize> {
        self.tools
            .binary_search_by(|t| t.name.as_str().cmp(name))
            .ok()
    }

    /// Follows `$ref`s from `schema` until a schema without one (bounded, cycle-checked).
    pub fn deref<'a>(&'a self, schema: Schema<'a>) -> Result<Schema<'a>, RefError> {
        crate::schema::deref(self, schema)
    }

    /// [`Catalog::deref`] with `root`, a tool's whole schema the caller holds (unpacked with
    /// [`Parameters::with`]), standing for that tool's document: its own references resolve in
    /// it, and the catalog keeps no parsed copy of it.
    pub fn deref_in<'a>(
        &'a self,
        root: Schema<'a>,
        schema: Schema<'a>,
    ) -> Result<Schema<'a>, RefError> {
        refs::Docs::rooted(self, root).deref(schema)
    }

    /// The catalog's documents with `root` standing for its tool's document, as in
    /// [`Catalog::deref_in`], for the readers that take any [`crate::schema::Documents`]
    /// ([`crate::schema::closed_values`]).
    pub fn documents_in<'a>(&'a self, root: Schema<'a>) -> impl crate::schema::Documents<'a> {
        refs::Docs::rooted(self, root)
    }
}

/// Rearranges `items` so that item `i` is the one that was at `order[i]` (a permutation), in
/// place, by following its cycles: sorting a list of large items by their indexes, then moving
/// them so, needs no second list of them.
pub fn apply_order<T>(items: &mut [T], mut order: Vec<usize>) {
    const DONE: usize = usize::MAX;
    for start in 0..items.len() {
        if order[start] == DONE {
            continue;
        }
        let mut at = start;
        loop {
            let from = order[at];
            order[at] = DONE;
            if from == start {
                break;
            }
            items.swap(at, from);
            at = from;
        }
    }
}

/// A JSON pointer to `parameters` of a tool, for error positions.
pub(crate) fn parameters_pointer(origin: &Origin, inner: &str) -> String {
    origin.pointer_to(&format!("/parameters{inner}"))
}

#[cfg(test)]
mod tests {
    #[test]
    fn apply_order_permutes_in_place() {
        let mut items = vec!['a', 'b', 'c', 'd', 'e'];
        super::apply_order(&mut items, vec![3, 0, 4, 1, 2]);
        assert_eq!(items, ['d', 'a', 'e', 'b', 'c']);
        let mut same = vec![1, 2, 3];
        super::apply_order(&mut same, vec![0, 1, 2]);
        assert_eq!(same, [1, 2, 3]);
    }
}
