//! The printers of the reports the libraries return as data: tables, Markdown and text.
//! (Lint's reporters live with the lint crate, because SARIF, JSON and GitHub annotations are
//! data formats a library caller wants too.)

pub mod load_error;
pub mod runtime;
