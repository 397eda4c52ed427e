//! Text tables for reports: UTF-8 box drawing or Markdown. Control characters in cells are
//! shown as visible ones ([`neutralise`]).
//!
//! A table fitted to a width (a terminal's) is laid out by comfy-table, which wraps cells. The
//! fixed layout (pipes, files, snapshots: every column as wide as its widest cell) is drawn here,
//! line by line as it is written, in the same bytes as comfy-table's (a test holds the two
//! equal): comfy-table keeps every cell of a table several times over and returns it as one
//! string, and 100,000 rows of `tools` took 200 MB more than the catalog they describe.

use std::io::{self, Write};
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
    let mut out = Vec::new();
    write(&mut out, header, rows, markdown, right).expect("writing to memory cannot fail");
    String::from_utf8(out).expect("a table of text is text")
}

/// [`render`] written to `out`.
pub fn write(
    out: &mut dyn Write,
    header: &[String],
    rows: &[Vec<String>],
    markdown: bool,
    right: &[usize],
) -> io::Result<()> {
    let fitted = WIDTH.get().copied().flatten().is_some() && !markdown;
    match fixed(header, rows) {
        Some(widths) if !fitted => {
            // In blocks, not a write per line (standard output flushes at every line feed).
            let mut out = io::BufWriter::with_capacity(1 << 16, out);
            write_fixed(&mut out, header, rows, &widths, markdown, right)?;
            out.flush()
        }
        _ => out.write_all(comfy(header, rows, markdown, right).as_bytes()),
    }
}

/// The borders of a box-drawn table: left, line, between columns, right.
struct Border([char; 4]);

const TOP: Border = Border(['┌', '─', '┬', '┐']);
const UNDER_HEADER: Border = Border(['╞', '═', '╪', '╡']);
const BOTTOM: Border = Border(['└', '─', '┴', '┘']);
const MARKDOWN_UNDER_HEADER: Border = Border(['|', '-', '|', '|']);

/// The display width of every column, when this module draws the table: every row has a cell
/// for each column, and no column is wider than comfy-table measures (`u16`); else `None`,
/// for comfy-table to draw it.
fn fixed(header: &[String], rows: &[Vec<String>]) -> Option<Vec<usize>> {
    if header.is_empty() || rows.iter().any(|row| row.len() != header.len()) {
        return None;
    }
    let mut widths = vec![0; header.len()];
    for row in std::iter::once(header).chain(rows.iter().map(Vec::as_slice)) {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(display_width(cell));
        }
    }
    // comfy-table gives an empty column one character; a wider one than `u16` is its own.
    let measurable = widths
        .iter()
        .all(|&w| (1..u16::MAX as usize - 2).contains(&w));
    measurable.then_some(widths)
}

/// The columns a cell takes as shown (its control characters made visible).
fn display_width(cell: &str) -> usize {
    unicode_width::UnicodeWidthStr::width(&*neutralise(cell))
}

fn write_fixed(
    out: &mut dyn Write,
    header: &[String],
    rows: &[Vec<String>],
    widths: &[usize],
    markdown: bool,
    right: &[usize],
) -> io::Result<()> {
    let mut line = String::new();
    let mut border = |out: &mut dyn Write, border: &Border| {
        let [left, fill, between, end] = border.0;
        line.clear();
        line.push(left);
        for (i, &width) in widths.iter().enumerate() {
            if i > 0 {
                line.push(between);
            }
            line.extend(std::iter::repeat_n(fill, width + 2));
        }
        line.push(end);
        writeln!(out, "{}", line.trim_end())
    };
    let (outer, inner) = if markdown { ('|', '|') } else { ('│', '┆') };
    let mut text = String::new();
    let mut cells = |out: &mut dyn Write, row: &[String]| {
        text.clear();
        text.push(outer);
        for (i, (cell, &width)) in row.iter().zip(widths).enumerate() {
            if i > 0 {
                text.push(inner);
            }
            let cell = neutralise(cell);
            let pad = width - unicode_width::UnicodeWidthStr::width(&*cell);
            let (before, after) = if right.contains(&i) {
                (pad, 0)
            } else {
                (0, pad)
            };
            text.extend(std::iter::repeat_n(' ', 1 + before));
            text.push_str(&cell);
            text.extend(std::iter::repeat_n(' ', after + 1));
        }
        text.push(outer);
        writeln!(out, "{}", text.trim_end())
    };
    if markdown {
        cells(out, header)?;
        border(out, &MARKDOWN_UNDER_HEADER)?;
    } else {
        border(out, &TOP)?;
        cells(out, header)?;
        border(out, &UNDER_HEADER)?;
    }
    for row in rows {
        cells(out, row)?;
    }
    if !markdown {
        border(out, &BOTTOM)?;
    }
    Ok(())
}

/// The table laid out by comfy-table: fitted to the width set, if any.
fn comfy(header: &[String], rows: &[Vec<String>], markdown: bool, right: &[usize]) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Cells whose display width is easy to get wrong: wide, combining, zero-width, joined
    /// emoji, control characters (shown as visible ones), padding, separators, long ones.
    fn cells() -> Vec<String> {
        let mut cells: Vec<String> = [
            "",
            "a",
            "tool_name",
            "12,345",
            "-57,608,998 (-77.9%)",
            "中文工具",
            "ｆｕｌｌ",
            "é",
            "e\u{301}",
            "👍",
            "👨\u{200d}👩\u{200d}👧",
            "\u{200b}",
            "a\tb",
            "line\nbreak",
            "\u{1b}[31mred",
            "  padded  ",
            "|pipe|",
            "┆",
            "עברית",
            "\u{0}",
            "Δ tokens",
            "한국어",
            "\u{fe0f}",
            "\r\n",
        ]
        .map(String::from)
        .to_vec();
        cells.push("x".repeat(70));
        cells
    }

    /// The fixed layout drawn here is comfy-table's, byte for byte, in both styles, with any
    /// columns right-aligned, on 2,000 tables of one to five columns and up to six rows drawn
    /// from [`cells`] (a fixed xorshift sequence).
    #[test]
    fn the_fixed_layout_is_comfy_tables() {
        let cells = cells();
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        let mut drawn = 0;
        for _ in 0..2000 {
            let columns = 1 + next(5);
            let header: Vec<String> = (0..columns)
                .map(|_| cells[1 + next(cells.len() - 1)].clone())
                .collect();
            let rows: Vec<Vec<String>> = (0..next(7))
                .map(|_| {
                    (0..columns)
                        .map(|_| cells[next(cells.len())].clone())
                        .collect()
                })
                .collect();
            let right: Vec<usize> = (0..columns).filter(|_| next(2) == 0).collect();
            let Some(widths) = fixed(&header, &rows) else {
                continue;
            };
            for markdown in [false, true] {
                let mut ours = Vec::new();
                write_fixed(&mut ours, &header, &rows, &widths, markdown, &right).unwrap();
                assert_eq!(
                    String::from_utf8(ours).unwrap(),
                    comfy(&header, &rows, markdown, &right),
                    "{header:?} {rows:?} right {right:?} markdown {markdown}"
                );
                drawn += 1;
            }
        }
        assert!(drawn > 3000, "most tables are drawn here: {drawn}");
    }

    /// `write` draws what `fixed` accepts (empty cells under a header among them) and hands the
    /// rest to comfy-table: rows of unequal length, a column wider than comfy-table measures, an
    /// empty column. Either way, with no width set, `render` gives comfy-table's bytes.
    #[test]
    fn write_falls_back_to_comfy_table() {
        let header = ["a", "b"].map(String::from);
        let wide = "x".repeat(70_000);
        let cases: [Vec<Vec<String>>; 4] = [
            vec![vec!["1".into(), "2".into()]],
            vec![vec!["1".into()], vec!["1".into(), "2".into(), "3".into()]],
            vec![vec![String::new(), String::new()]],
            vec![vec![wide, "2".into()]],
        ];
        for (i, rows) in cases.iter().enumerate() {
            assert_eq!(fixed(&header, rows).is_some(), i == 0 || i == 2, "case {i}");
            for markdown in [false, true] {
                assert_eq!(
                    render(&header, rows, markdown, &[1]),
                    comfy(&header, rows, markdown, &[1]),
                    "case {i}"
                );
            }
        }
        let empty_header = [String::new()];
        assert!(fixed(&empty_header, &[vec![String::new()]]).is_none());
    }
}
