//! Text tables for reports: UTF-8 box drawing or Markdown, via comfy-table. Control
//! characters in cells are shown as visible ones ([`neutralise`]).

use std::sync::OnceLock;

use comfy_table::{CellAlignment, ContentArrangement, Table, presets};
use discloser_core::printable::neutralise;

static WIDTH: OnceLock<Option<u16>> = OnceLock::new();

/// Sets, once per process, the width tables fit: `None` is the fixed layout (every column as
/// wide as its widest cell), the one for pipes, files and snapshots.
pub fn set_width(width: Option<u16>) {
    let _ = WIDTH.set(width);
}

/// The width for tables: `--width`, else on a terminal `COLUMNS` or the terminal's width,
/// else `None`.
pub fn width_for(flag: Option<u16>, stdout_is_terminal: bool) -> Option<u16> {
    if flag.is_some() {
        return flag;
    }
    if !stdout_is_terminal {
        return None;
    }
    let columns = std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.trim().parse::<u16>().ok())
        .filter(|&c| c > 0);
    columns.or_else(|| {
        let (_, cols) = console::Term::stdout().size_checked()?;
        (cols > 0).then_some(cols)
    })
}

/// `rows` under `header`, as Markdown when `markdown` else with box drawing; the columns in
/// `right` right-aligned; every line trimmed at the end and ended by `\n`. With a width set
/// ([`set_width`]), a box-drawn table wider than it wraps its cells (never its rows) to fit.
pub fn render(header: &[String], rows: &[Vec<String>], markdown: bool, right: &[usize]) -> String {
    let mut table = Table::new();
    table
        .load_style(if markdown {
            presets::ASCII_MARKDOWN
        } else {
            presets::UTF8_FULL_CONDENSED
        })
        .set_content_arrangement(ContentArrangement::Disabled)
        .set_header(header.iter().map(|h| neutralise(h)));
    // Cells quote user values (tool names, queries): control characters are shown, never sent.
    for row in rows {
        table.add_row(row.iter().map(|cell| neutralise(cell)));
    }
    // A Markdown cell cannot hold a line break: Markdown tables keep their layout.
    if let Some(width) = WIDTH.get().copied().flatten().filter(|_| !markdown) {
        table
            .set_content_arrangement(ContentArrangement::Dynamic)
            .set_width(width);
    }
    for &i in right {
        if let Some(column) = table.column_mut(i) {
            column.set_cell_alignment(CellAlignment::Right);
        }
    }
    let mut out = String::new();
    for line in table.to_string().lines() {
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}
