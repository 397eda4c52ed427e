//! The catalog: every tool of the project, loaded from its source files, sorted by name.
//!
//! A [`Catalog`] is built once per run from the sources of `discloser.yaml` (see
//! [`crate::project`]) or from explicit files. It guarantees:
//! - tool names are unique (a duplicate is a [`LoadError`] naming both places);
//! - tools are sorted by name (code-point order), whatever the order of the files;
//! - every `$ref` inside `parameters` resolves (local pointers, or files inside the project),
//!   with no remote fetch and no cycle of references.

mod native;
mod refs;

use std::path::PathBuf;
use std::sync::Arc;

use serde_json::Value;

use crate::diagnostic::{ErrorKind, LoadError};
use crate::source::{SourceFile, Target, pointer_push};

use refs::RefStore;
pub use refs::{DocId, RefError, Schema};

/// One tool definition, as written, with discloser's own settings applied.
#[derive(Clone, Debug)]
pub struct Tool {
    /// The name the model calls.
    pub name: String,
    /// The description exactly as written (the index packs a summary from it).
    pub description: String,
    /// The JSON Schema of the arguments, as written (`$ref`s not inlined).
    pub parameters: Value,
    /// Trigger words as written (the index normalises and sorts them).
    pub triggers: Vec<String>,
    /// Bound in every profile.
    pub core: bool,
    /// A per-tool summary budget, overriding the index's.
    pub summary_budget: Option<usize>,
    /// Lint codes suppressed for this tool.
    pub lint_ignore: Vec<String>,
    /// Where the tool was defined.
    pub origin: Origin,
}

/// Where a tool was defined: a file of the catalog and a JSON pointer into it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Origin {
    /// Index into [`Catalog::files`].
    pub file: usize,
    /// JSON pointer to the tool object inside the file (`""` when the file is the tool).
    pub pointer: String,
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
    pub fn load(
        files: &[(PathBuf, PathBuf)],
        root: &std::path::Path,
    ) -> Result<Catalog, LoadError> {
        let mut catalog = Catalog {
            refs: RefStore::new(root),
            ..Catalog::default()
        };
        for (real, shown) in files {
            let source = SourceFile::read(real, shown.clone())?;
            catalog.add_source(source, real.clone())?;
        }
        catalog.finish()
    }

    /// Builds a catalog from in-memory sources (`(text, path)`), e.g. for tests or runtimes.
    pub fn from_sources(
        sources: Vec<SourceFile>,
        root: &std::path::Path,
    ) -> Result<Catalog, LoadError> {
        let mut catalog = Catalog {
            refs: RefStore::new(root),
            ..Catalog::default()
        };
        for source in sources {
            let real = root.join(&source.path);
            catalog.add_source(source, real)?;
        }
        catalog.finish()
    }

    fn add_source(&mut self, source: SourceFile, real: PathBuf) -> Result<(), LoadError> {
        let value = source.parse()?;
        let file = self.files.len();
        let tools = native::parse_tools(&source, &value, file)?;
        self.files.push(Arc::new(source));
        self.file_paths.push(real);
        self.tools.extend(tools);
        Ok(())
    }

    fn finish(mut self) -> Result<Catalog, LoadError> {
        // A stable sort keeps file order among equal names, so the duplicate error names the
        // earlier definition as the original.
        self.tools.sort_by(|a, b| a.name.cmp(&b.name));
        if let Some(pair) = self.tools.windows(2).find(|w| w[0].name == w[1].name) {
            let (first, second) = (&pair[0], &pair[1]);
            let first_at = self.locate(&first.origin, "/name");
            return Err(self
                .error_at(
                    &second.origin,
                    "/name",
                    ErrorKind::Duplicate,
                    format!("duplicate tool name `{}`", second.name),
                )
                .with_help(format!("`{}` is first defined at {first_at}", first.name)));
        }
        refs::check(&mut self)?;
        Ok(self)
    }

    /// The tool called `name`.
    pub fn get(&self, name: &str) -> Option<&Tool> {
        self.tools
            .binary_search_by(|t| t.name.as_str().cmp(name))
            .ok()
            .map(|i| &self.tools[i])
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

    /// The source file a tool came from.
    pub fn file_of(&self, tool: &Tool) -> &SourceFile {
        &self.files[tool.origin.file]
    }

    /// `path:line:col` of a JSON pointer relative to a tool (e.g. `"/parameters/properties/x"`).
    pub fn locate(&self, origin: &Origin, suffix: &str) -> String {
        let file = &self.files[origin.file];
        let pos = file.locate(&format!("{}{suffix}", origin.pointer), Target::Value);
        crate::diagnostic::location(&file.path, Some(pos))
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
        file.error_at(
            kind,
            &format!("{}{suffix}", origin.pointer),
            Target::Value,
            message,
        )
    }

    /// The root schema of the parameters of the tool at `index` of [`Catalog::tools`].
    pub fn parameters(&self, index: usize) -> Schema<'_> {
        Schema {
            doc: DocId::Tool(index),
            value: &self.tools[index].parameters,
        }
    }

    /// Follows `$ref`s from `schema` until a schema without one (bounded, cycle-checked).
    pub fn deref<'a>(&'a self, schema: Schema<'a>) -> Result<Schema<'a>, RefError> {
        refs::deref(self, schema)
    }
}

/// A JSON pointer to `parameters` of a tool, for error positions.
pub(crate) fn parameters_pointer(origin: &Origin, inner: &str) -> String {
    format!("{}{inner}", pointer_push(&origin.pointer, "parameters"))
}
