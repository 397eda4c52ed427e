//! The printers of the reports the libraries return as data: tables, Markdown and text.
//! (Lint's reporters live with the lint crate, because SARIF, JSON and GitHub annotations are
//! data formats a library caller wants too.)

pub mod load_error;
pub mod runtime;

/// `text` with every control character but its line feeds shown as a visible one: for the
/// text reports built line by line from names and index lines (check, diff).
pub fn shown_lines(text: &str) -> String {
    text.split('\n')
        .map(|line| discloser_core::printable::neutralise(line).into_owned())
        .collect::<Vec<_>>()
        .join("\n")
}
