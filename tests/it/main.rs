//! The integration tests: one binary (one link, one process start per `cargo test`), one
//! module per area, shared helpers in [`support`].
//!
//! Tests that need inputs from outside the repository (the shared corpora beside the checkout,
//! a Node MCP server, pre-commit) are `#[ignore]`d with the reason; `.ci/run` runs them too.

mod support;

mod bundle;
mod chart;
mod check;
mod corpora;
mod cost;
mod errors;
mod fix;
mod formats;
#[cfg(unix)]
mod hostile;
#[cfg(unix)]
mod hostile_compute;
#[cfg(unix)]
mod hostile_files;
mod lint;
mod lint_corpora;
mod lint_eval;
mod lint_review;
mod mcp;
mod otlp;
mod packaging;
mod pins;
mod properties;
mod render;
mod runtime;
mod summary_structure;
mod surface;
mod traces;
mod triggers;
