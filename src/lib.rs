//! # discloser
//!
//! Index-based progressive disclosure for LLM agent tools. An agent binds only a small starter
//! set of tools; every other tool appears in the system prompt as one index line — its name, its
//! required parameters with their closed values, the trigger words that say when it applies, and
//! a summary of whole sentences — and the runtime binds a tool when the model calls it by name.
//!
//! This crate loads tool catalogs ([`project`], [`catalog`]) and renders that index byte-stably
//! ([`index`]), so a Rust runtime can produce exactly the prompt the CLI shows:
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
//! The library never prints: problems come back as values ([`diagnostic::LoadError`],
//! [`index::Warning`]) and the binary decides how to show them.

#![warn(
    clippy::print_stdout,
    clippy::print_stderr,
    clippy::iter_over_hash_type,
    missing_docs
)]

pub mod catalog;
pub mod cli;
pub mod commands;
pub mod config;
pub mod cost;
pub mod diagnostic;
pub mod fsutil;
pub mod index;
pub mod lint;
pub mod mcp;
pub mod numfmt;
pub mod project;
pub mod runtime;
pub mod snapshot;
pub mod source;
pub mod table;
mod typing;
