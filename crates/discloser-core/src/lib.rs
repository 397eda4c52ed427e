//! # discloser-core
//!
//! The model of index-based progressive disclosure for LLM agent tools. An agent binds only a
//! small starter set of tools; every other tool appears in the system prompt as one index line
//! — its name, its required parameters with their closed values, the trigger words that say
//! when it applies, and a summary of whole sentences — and the runtime binds a tool when the
//! model calls it by name.
//!
//! This crate loads tool catalogs ([`project`], [`catalog`]) in every wire format, and renders
//! that index byte-stably ([`index`]), so a runtime can produce exactly the prompt the CLI
//! shows:
//!
//! ```no_run
//! use discloser_core::{index, project::Project};
//!
//! let project = Project::load("discloser.yaml".as_ref())?;
//! let profile = project.profile("default")?;
//! let idx = index::build_index(&project.catalog, &profile, project.index_config());
//! let prompt_part = index::render(&idx, index::Style::Text);
//! # Ok::<(), discloser_core::diagnostic::LoadError>(())
//! ```
//!
//! The library never prints: problems come back as values ([`diagnostic::LoadError`],
//! [`index::Warning`]) and the front-end decides how to show them. It knows no command line:
//! with the `clap` feature, the enums a command line offers as values derive `clap::ValueEnum`.

#![warn(missing_docs)]

pub mod catalog;
pub mod config;
pub mod cost;
pub mod diagnostic;
pub mod fsutil;
pub mod index;
pub mod live;
pub mod lock;
pub mod numfmt;
pub mod printable;
pub mod project;
pub mod schema;
pub mod source;
pub mod typing;
