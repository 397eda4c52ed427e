//! `discloser._native`: the small native half of the `discloser` Python package.
//!
//! It owns no Pythonic surface: the pure-Python package (`python/discloser/`) gives names,
//! keyword arguments, defaults and docstrings, and calls these functions. What this module
//! guarantees: the bytes and values are the ones the Rust libraries (and so the CLI) produce;
//! long work (loading, linting, counting, costing) runs with the GIL released; no Rust panic
//! reaches Python (each call is guarded and a panic becomes `discloser.Error`); load errors
//! become `discloser.LoadError` carrying `path`, `line`, `column`, `message` and `help`.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyList, PyString};

use discloser_core::catalog::Input;
use discloser_core::catalog::formats::export;
use discloser_core::catalog::formats::provider::Definition;
use discloser_core::config::SearchTool;
use discloser_core::cost::{CostOptions, Counter, Provider, TokenizerKind};
use discloser_core::diagnostic::{ErrorKind, LoadError};
use discloser_core::index::{Style, build_index, render};
use discloser_core::project::{Profile, Project};
use discloser_core::source::SourceFile;
use discloser_runtime::search::SearchIndex;
use discloser_runtime::trace::{Trace, classify, summarize, turn_profiles};
use discloser_runtime::{Format, Runtime, RuntimeState};
use serde_json::Value;

/// What a native call can fail with, before it becomes a Python exception.
enum Failure {
    /// Bad input with a place: `discloser.LoadError`.
    Load(LoadError),
    /// Bad arguments or any other failure: `discloser.Error`.
    Other(String),
}

impl From<LoadError> for Failure {
    fn from(e: LoadError) -> Self {
        Failure::Load(e)
    }
}

type Outcome<T> = Result<T, Failure>;

fn other(message: impl Into<String>) -> Failure {
    Failure::Other(message.into())
}

/// Runs `work` without the GIL and with panics caught, then turns a failure into the package's
/// exceptions.
fn guarded<T: Send>(py: Python<'_>, work: impl FnOnce() -> Outcome<T> + Send) -> PyResult<T> {
    let result = py.detach(|| {
        catch_unwind(AssertUnwindSafe(work)).unwrap_or_else(|panic| {
            let why = panic
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown cause".to_owned());
            Err(other(format!(
                "internal error in discloser (please report it): {why}"
            )))
        })
    });
    result.map_err(|failure| raise(py, failure))
}

/// The Python exception of a failure: the classes live in `discloser._errors`, so they are
/// ordinary Python classes with documented attributes.
fn raise(py: Python<'_>, failure: Failure) -> PyErr {
    let made = (|| -> PyResult<PyErr> {
        let errors = py.import("discloser._errors")?;
        let instance = match failure {
            Failure::Load(e) => {
                let kwargs = PyDict::new(py);
                kwargs.set_item("path", e.path.to_string_lossy().into_owned())?;
                kwargs.set_item("line", e.position.map(|p| p.line))?;
                kwargs.set_item("column", e.position.map(|p| p.col))?;
                kwargs.set_item("kind", kind_name(e.kind))?;
                kwargs.set_item("help", e.help.clone())?;
                kwargs.set_item("location", e.location())?;
                errors
                    .getattr("LoadError")?
                    .call((e.message.clone(),), Some(&kwargs))?
            }
            Failure::Other(message) => errors.getattr("Error")?.call1((message,))?,
        };
        Ok(PyErr::from_value(instance))
    })();
    made.unwrap_or_else(|e| e)
}

fn kind_name(kind: ErrorKind) -> &'static str {
    match kind {
        ErrorKind::Io => "io",
        ErrorKind::Syntax => "syntax",
        ErrorKind::Shape => "shape",
        ErrorKind::Duplicate => "duplicate",
        ErrorKind::Ref => "ref",
        ErrorKind::Config => "config",
        _ => "other",
    }
}

/// A JSON value as plain Python objects (dict, list, str, int, float, bool, None).
fn to_py(py: Python<'_>, value: &Value) -> PyResult<Py<PyAny>> {
    Ok(match value {
        Value::Null => py.None(),
        Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any().unbind(),
        Value::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => i.into_pyobject(py)?.into_any().unbind(),
            (None, Some(u)) => u.into_pyobject(py)?.into_any().unbind(),
            _ => PyFloat::new(py, n.as_f64().unwrap_or(f64::NAN))
                .into_any()
                .unbind(),
        },
        Value::String(s) => PyString::new(py, s).into_any().unbind(),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(to_py(py, item)?)?;
            }
            list.into_any().unbind()
        }
        Value::Object(map) => {
            let dict = PyDict::new(py);
            for (k, v) in map {
                dict.set_item(k, to_py(py, v)?)?;
            }
            dict.into_any().unbind()
        }
    })
}

fn parse_json(text: &str, what: &str) -> Outcome<Value> {
    serde_json::from_str(text).map_err(|e| other(format!("{what} is not JSON: {e}")))
}

fn serialize(value: &impl serde::Serialize) -> Outcome<Value> {
    serde_json::to_value(value).map_err(|e| other(e.to_string()))
}

/// A loaded catalog: the project, its search index and search tool, built once.
#[pyclass(frozen, module = "discloser._native", name = "Project")]
struct PyProject {
    project: Project,
    /// The search index, search tool and compiled validators, built once and shared by every
    /// call: an agent resolving a call each turn compiles a tool's validator once.
    state: RuntimeState,
}

impl PyProject {
    fn new(project: Project) -> PyProject {
        let index = SearchIndex::new(&project.catalog, project.index_config());
        let search_tool = project.search_tool().unwrap_or_else(SearchTool::builtin);
        let state = RuntimeState::new(&project.catalog, index, search_tool);
        PyProject { project, state }
    }

    fn runtime(&self) -> Runtime<'_> {
        Runtime::with_state(&self.project.catalog, self.state.clone())
    }

    fn profile(&self, name: &str, extra: &[String]) -> Outcome<Profile> {
        Ok(self.project.profile_with(name, extra)?)
    }
}

fn style_of(name: &str) -> Outcome<Style> {
    match name {
        "text" => Ok(Style::Text),
        "markdown" => Ok(Style::Markdown),
        "json" => Ok(Style::Json),
        _ => Err(other(format!(
            "unknown style `{name}`: expected `text`, `markdown` or `json`"
        ))),
    }
}

/// A provider whose request shape an API takes (`raw` is discloser's own, not an API's).
fn target_of(name: &str) -> Outcome<Provider> {
    const ALL: [Provider; 5] = [
        Provider::Openai,
        Provider::OpenaiResponses,
        Provider::Anthropic,
        Provider::Mcp,
        Provider::Gemini,
    ];
    ALL.into_iter().find(|t| t.as_str() == name).ok_or_else(|| {
        other(format!(
            "unknown provider `{name}`: expected `openai`, `openai-responses`, `anthropic`, `mcp` or `gemini`"
        ))
    })
}

fn format_of(name: &str) -> Outcome<Format> {
    match name {
        "table" => Ok(Format::Table),
        "markdown" => Ok(Format::Markdown),
        "json" => Ok(Format::Json),
        _ => Err(other(format!(
            "unknown format `{name}`: expected `table`, `markdown` or `json`"
        ))),
    }
}

#[pymethods]
impl PyProject {
    /// Loads `discloser.yaml` (or another config) from `path`.
    #[staticmethod]
    fn from_config(py: Python<'_>, path: PathBuf) -> PyResult<PyProject> {
        guarded(py, || Ok(PyProject::new(Project::load(&path)?)))
    }

    /// Loads tool files, directories or globs relative to `cwd`, without a config.
    #[staticmethod]
    fn from_files(py: Python<'_>, paths: Vec<String>, cwd: PathBuf) -> PyResult<PyProject> {
        guarded(py, || {
            Ok(PyProject::new(Project::from_paths(&paths, &cwd)?))
        })
    }

    /// Loads in-memory documents `(shown name, JSON text)` with a config given as JSON text
    /// (named `config_name` in messages); `root` bounds relative `$ref`s.
    #[staticmethod]
    fn from_documents(
        py: Python<'_>,
        documents: Vec<(String, String)>,
        config: String,
        config_name: String,
        root: PathBuf,
    ) -> PyResult<PyProject> {
        guarded(py, || {
            let inputs = documents
                .into_iter()
                .map(|(name, text)| Input::Text {
                    real: root.join("<memory>.json"),
                    source: SourceFile::from_text(text, PathBuf::from(name)),
                    format: None,
                })
                .collect();
            let config = SourceFile::from_text(config, PathBuf::from(config_name));
            Ok(PyProject::new(Project::from_inputs(&config, inputs, root)?))
        })
    }

    /// Tool names, sorted.
    fn tool_names(&self) -> Vec<String> {
        self.project.catalog.names().map(str::to_owned).collect()
    }

    /// Profile names in config order.
    fn profile_names(&self) -> Vec<String> {
        self.project.profile_names()
    }

    /// The tools bound in the profile (grown by `extra`), sorted.
    fn bound_names(
        &self,
        py: Python<'_>,
        profile: String,
        extra: Vec<String>,
    ) -> PyResult<Vec<String>> {
        guarded(py, || {
            Ok(self.profile(&profile, &extra)?.bound.into_iter().collect())
        })
    }

    /// The rendered index: exactly the bytes `discloser render` prints.
    fn index(
        &self,
        py: Python<'_>,
        profile: String,
        style: String,
        extra: Vec<String>,
    ) -> PyResult<String> {
        guarded(py, || {
            let profile = self.profile(&profile, &extra)?;
            let style = style_of(&style)?;
            let built = build_index(&self.project.catalog, &profile, self.project.index_config());
            Ok(render(&built, style))
        })
    }

    /// The index's warnings (`(tool, message)`), as `discloser render` prints them on stderr.
    fn warnings(
        &self,
        py: Python<'_>,
        profile: String,
        extra: Vec<String>,
    ) -> PyResult<Vec<(String, String)>> {
        guarded(py, || {
            let profile = self.profile(&profile, &extra)?;
            let built = build_index(&self.project.catalog, &profile, self.project.index_config());
            Ok(built
                .warnings
                .into_iter()
                .map(|w| (w.tool, w.message))
                .collect())
        })
    }

    /// The bound tools' definitions in a provider's request shape (`discloser export`).
    fn bound(
        &self,
        py: Python<'_>,
        profile: String,
        provider: String,
        extra: Vec<String>,
    ) -> PyResult<Py<PyAny>> {
        let value = guarded(py, || {
            let profile = self.profile(&profile, &extra)?;
            let target = target_of(&provider)?;
            let catalog = &self.project.catalog;
            let tools: Vec<usize> = (0..catalog.tools.len())
                .filter(|&i| profile.is_bound(&catalog.tools[i].name))
                .collect();
            Ok(export::tools_value(target, catalog, &tools))
        })?;
        to_py(py, &value)
    }

    /// One tool's definition in a provider's request shape, or `None` for an unknown name.
    fn definition(&self, py: Python<'_>, name: String, provider: String) -> PyResult<Py<PyAny>> {
        let value = guarded(py, || {
            let target = target_of(&provider)?;
            let catalog = &self.project.catalog;
            Ok(catalog.index_of(&name).map(|tool| {
                match export::tools_value(target, catalog, &[tool]) {
                    Value::Array(mut items) if target != Provider::Gemini => items.remove(0),
                    Value::Object(mut result) => match result.remove("tools") {
                        Some(Value::Array(mut items)) if !items.is_empty() => items.remove(0),
                        _ => Value::Null,
                    },
                    value => value,
                }
            }))
        })?;
        match value {
            Some(value) => to_py(py, &value),
            None => Ok(py.None()),
        }
    }

    /// Where a call lands (`bound` / `catalog` / `unknown`), whether its arguments (JSON text,
    /// or `None` when not sent) match the schema, and the nearest names of an unknown one.
    #[pyo3(signature = (name, arguments, profile, extra))]
    fn resolve(
        &self,
        py: Python<'_>,
        name: String,
        arguments: Option<String>,
        profile: String,
        extra: Vec<String>,
    ) -> PyResult<Py<PyAny>> {
        let value = guarded(py, || {
            let profile = self.profile(&profile, &extra)?;
            let arguments = match arguments {
                Some(text) => Some(parse_json(&text, "the arguments")?),
                None => None,
            };
            let resolution = self.runtime().resolve(&profile, &name, arguments.as_ref());
            serialize(&resolution)
        })?;
        to_py(py, &value)
    }

    /// The ranked tools for a query, as `discloser search --format json` lists them.
    fn search(&self, py: Python<'_>, query: String, limit: usize) -> PyResult<Py<PyAny>> {
        let value = guarded(py, || serialize(&self.state.index().top(&query, limit)))?;
        to_py(py, &value)
    }

    /// The search tool's definition in a provider's shape (`raw`, `openai`, `anthropic`, `mcp`).
    fn search_tool(&self, py: Python<'_>, provider: String) -> PyResult<Py<PyAny>> {
        let value = guarded(py, || {
            let provider = Provider::from_name(&provider).ok_or_else(|| {
                other(format!(
                    "unknown provider `{provider}`: expected `raw`, `openai`, `openai-responses`, `anthropic`, `mcp` or `gemini`"
                ))
            })?;
            let tool = self.state.search_tool();
            Ok(provider.definition(&Definition::bare(
                &tool.name,
                &tool.description,
                &tool.parameters,
            )))
        })?;
        to_py(py, &value)
    }

    /// Lint findings in one of the lint reporters' formats, and the number of findings.
    fn lint(&self, py: Python<'_>, format: String) -> PyResult<(String, usize)> {
        guarded(py, || {
            use discloser_lint::report::Format as LintFormat;
            let format = match format.as_str() {
                "full" => LintFormat::Full,
                "concise" => LintFormat::Concise,
                "json" => LintFormat::Json,
                "github" => LintFormat::Github,
                "sarif" => LintFormat::Sarif,
                _ => {
                    return Err(other(format!(
                        "unknown format `{format}`: expected `full`, `concise`, `json`, `github` or `sarif`"
                    )));
                }
            };
            let settings =
                discloser_lint::Settings::from_config(&self.project.config.lint).map_err(other)?;
            let findings = discloser_lint::lint(&self.project, &settings);
            Ok((
                discloser_lint::report::render(&findings, format, false),
                findings.len(),
            ))
        })
    }

    /// The cost report (`discloser cost --format json`'s fields) for a provider and tokenizer.
    #[pyo3(signature = (provider, tokenizer, profiles, by_tool, turns, cache_read_discount))]
    #[allow(clippy::too_many_arguments)]
    fn cost(
        &self,
        py: Python<'_>,
        provider: String,
        tokenizer: String,
        profiles: Vec<String>,
        by_tool: bool,
        turns: Option<u32>,
        cache_read_discount: f64,
    ) -> PyResult<Py<PyAny>> {
        let value = guarded(py, || {
            let provider = Provider::from_name(&provider).ok_or_else(|| {
                other(format!(
                    "unknown provider `{provider}`: expected `raw`, `openai`, `openai-responses`, `anthropic`, `mcp` or `gemini`"
                ))
            })?;
            let kind = match tokenizer.as_str() {
                "o200k" => TokenizerKind::O200k,
                "cl100k" => TokenizerKind::Cl100k,
                "chars" => TokenizerKind::Chars,
                "openai-functions" => TokenizerKind::OpenaiFunctions,
                _ => {
                    return Err(other(format!(
                        "unknown tokenizer `{tokenizer}`: expected `o200k`, `cl100k`, `chars` or `openai-functions`"
                    )));
                }
            };
            let options = CostOptions {
                provider,
                profiles,
                by_tool,
                turns,
                cache_read_discount,
            };
            let report = discloser_core::cost::cost(&self.project, &Counter::new(kind), &options)?;
            serialize(&report)
        })?;
        to_py(py, &value)
    }

    /// The summary of trace files, exactly as `discloser trace` prints it.
    fn trace_summary(
        &self,
        py: Python<'_>,
        files: Vec<PathBuf>,
        profile: String,
        classify_calls: bool,
        format: String,
    ) -> PyResult<String> {
        guarded(py, || {
            let format = format_of(&format)?;
            self.project.profile(&profile)?;
            let pairs: Vec<(PathBuf, PathBuf)> =
                files.iter().map(|f| (f.clone(), f.clone())).collect();
            let mut trace = Trace::load(&pairs)?;
            let runtime = self.runtime();
            let classified = if classify_calls {
                let profiles = turn_profiles(&trace, &self.project, &profile)?;
                classify(&mut trace, &runtime, &profiles)
            } else {
                0
            };
            let summary = summarize(&trace, &runtime, classified);
            Ok(discloser_cli::report::runtime::render_trace(
                &summary, format,
            ))
        })
    }
}

fn encoding(name: &str) -> Outcome<&'static discloser_tokens::Encoding> {
    match name {
        "o200k_base" => Ok(discloser_tokens::o200k_base()),
        "cl100k_base" => Ok(discloser_tokens::cl100k_base()),
        _ => Err(other(format!(
            "unknown encoding `{name}`: expected `o200k_base` or `cl100k_base`"
        ))),
    }
}

/// Exact tiktoken token count of `text`.
#[pyfunction]
fn count_tokens(py: Python<'_>, text: String, encoding_name: String) -> PyResult<usize> {
    guarded(py, || Ok(encoding(&encoding_name)?.count_chunked(&text)))
}

/// Exact token counts of many texts, counted in parallel.
#[pyfunction]
fn count_tokens_batch(
    py: Python<'_>,
    texts: Vec<String>,
    encoding_name: String,
) -> PyResult<Vec<usize>> {
    guarded(py, || {
        let encoding = encoding(&encoding_name)?;
        Ok(discloser_tokens::parallel::map(texts, |t| {
            encoding.count(&t)
        }))
    })
}

/// Runs the `discloser` command line in-process (the program name first) and returns its exit
/// code: the same code as the Rust binary, printing to this process's stdout and stderr.
#[pyfunction]
fn run_cli(py: Python<'_>, argv: Vec<String>) -> PyResult<u8> {
    // Python buffers its own streams; flush them so the command's output follows in order.
    let sys = py.import("sys")?;
    for stream in ["stdout", "stderr"] {
        if let Ok(s) = sys.getattr(stream)
            && !s.is_none()
        {
            let _ = s.call_method0("flush");
        }
    }
    guarded(py, || {
        let code = discloser_cli::main(argv.into_iter().map(Into::into));
        Ok(exit_code_value(code))
    })
}

/// `ExitCode` hides its value; the CLI only returns 0, 1 or 2.
fn exit_code_value(code: std::process::ExitCode) -> u8 {
    [0u8, 1, 2]
        .into_iter()
        .find(|&c| std::process::ExitCode::from(c) == code)
        .unwrap_or(2)
}

/// The package version (the workspace's).
const VERSION: &str = env!("CARGO_PKG_VERSION");

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", VERSION)?;
    m.add_class::<PyProject>()?;
    m.add_function(wrap_pyfunction!(count_tokens, m)?)?;
    m.add_function(wrap_pyfunction!(count_tokens_batch, m)?)?;
    m.add_function(wrap_pyfunction!(run_cli, m)?)?;
    Ok(())
}
