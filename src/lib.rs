//! # discloser
//!
//! Index-based progressive disclosure for LLM agent tools. An agent binds only a small starter
//! set of tools; every other tool appears in the system prompt as one index line — its name, its
//! required parameters with their closed values, the trigger words that say when it applies, and
//! a summary of whole sentences — and the runtime binds a tool when the model calls it by name.
//!
//! This crate is the `discloser` command (its code is the `discloser-cli` crate). As a
//! library it gathers the workspace's crates under
//! one name, so a Rust runtime can produce exactly the prompt the CLI shows; a program that
//! needs less depends on the crate it needs ([`discloser_core`] alone renders an index):
//!
//! ```no_run
//! use discloser::{index, project::Project};
//!
//! let project = Project::load("discloser.yaml".as_ref())?;
//! let profile = project.profile("default")?;
//! let idx = index::build_index(&project.catalog, &profile, project.index_config());
//! let prompt_part = index::render(&idx, index::Style::Text);
//! # Ok::<(), discloser::diagnostic::LoadError>(())
//! ```
//!
//! The libraries never print: problems come back as values ([`diagnostic::LoadError`],
//! [`index::Warning`]) and the binary decides how to show them.

#![warn(missing_docs)]

pub use discloser_core::{
    catalog, config, cost, diagnostic, fsutil, index, live, numfmt, project, schema, source,
};
pub use discloser_lint as lint;
pub use discloser_mcp as mcp;
pub use discloser_runtime as runtime;
pub use discloser_snapshot as snapshot;
pub use discloser_tokens as tokens;
