//! discloser for the runtime: keyword search over the shared vocabulary, the reachability
//! fallback, tool traces, findability gates and a starter set chosen from real usage.
//!
//! One [`Runtime`] holds a catalog's search index and compiled validators; every command of this
//! module goes through it, so `discloser search`, `trace --classify`, `reach` and `suggest` rank
//! and resolve exactly as a Rust agent runtime calling the library in-process would:
//!
//! - [`search`]: the keyword scoring behind a search tool ([`SearchIndex::search`]);
//! - [`resolve`]: where a call lands (`bound`, `catalog`, `unknown`), its arguments validated
//!   against the tool's schema, and the nearest real tools for an invented name;
//! - [`trace`]: the trace formats (JSON Lines, and OpenTelemetry GenAI spans as OTLP JSON),
//!   classification of unrecorded origins, summaries;
//! - [`reach`]: utterances that must reach their tools, recall@k of search, a CI gate;
//! - [`suggest`]: the starter set that minimises expected tokens per turn, and writing it to
//!   `discloser.yaml` without disturbing the rest of the file;
//!
//! Nothing here prints. Every output is deterministic: no hash-order iteration, ties broken by
//! name.

// The core's modules under their usual names, so `crate::catalog` reads the same in every
// crate of the workspace.
use discloser_core::{
    catalog, config, cost, diagnostic, fsutil, index, numfmt, project, source, typing,
};

mod input;
mod otlp;
pub mod reach;
pub mod resolve;
pub mod search;
pub mod suggest;
pub mod text;
pub mod text_candidates;
pub mod trace;
pub mod trigger_words;
pub mod write_profile;
pub mod write_triggers;

pub use resolve::{
    ArgumentCheck, ArgumentError, Nearest, Origin, Resolution, Runtime, RuntimeState,
};
pub use search::{Hit, Matched, SearchIndex};

/// How many tools a search returns when the caller gives no limit (the built-in search tool's
/// default).
pub const SEARCH_LIMIT: usize = 5;

/// Output formats of the runtime reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum Format {
    /// Aligned text tables.
    Table,
    /// Markdown tables, for a pull request.
    Markdown,
    /// JSON, with documented field names.
    Json,
}
