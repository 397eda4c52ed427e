//! Text tables for reports: UTF-8 box drawing or Markdown, via comfy-table. Control
//! characters in cells are shown as visible ones ([`neutralise`]).

use comfy_table::{CellAlignment, ContentArrangement, Table, presets};
use discloser_core::printable::neutralise;

/// `rows` under `header`, as Markdown when `markdown` else with box drawing; the columns in
/// `right` right-aligned; every line trimmed at the end and ended by `\n`.
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
