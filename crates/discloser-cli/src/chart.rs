//! `discloser cost --chart`: the cost comparison as an SVG bar chart, for a pull request.
//!
//! One horizontal stacked bar per configuration — bound-definition tokens, then index tokens —
//! against a dashed line at `all bound`, with each profile's saving drawn as a green box up to
//! that line, so the saving shows without reading a number. With `--by-tool`, a second panel
//! gives each tool a pair of bars: its full definition against its index entry.
//!
//! The SVG is deterministic: drawn by plotters' SVG backend with its built-in text measurement
//! (no system fonts are read), integer pixel positions and no timestamps, so the same report
//! always gives the same bytes.

use plotters::coord::Shift;
use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::cost::{ConfigCost, CostReport, ToolCost};

/// Why a chart could not be drawn (a plotters error, as text).
#[derive(Debug, thiserror::Error)]
#[error("cannot draw the cost chart: {0}")]
pub struct ChartError(String);

const WIDTH: u32 = 1000;
/// A font stack, not a font: the SVG names no font file, and renderers without a font
/// configuration (resvg's default is Arial for `sans-serif`) still find a common face.
const FONT: &str = "Helvetica, Arial, DejaVu Sans, Liberation Sans, sans-serif";
/// Pixel heights: a panel's fixed part (caption, axis), one row of each panel, the legend.
const PANEL: u32 = 130;
const CONFIG_ROW: u32 = 62;
const TOOL_ROW: u32 = 44;
const LEGEND: u32 = 72;
const MARGIN: i32 = 18;
/// Wider on the right, where the last x tick label is centred on the plot's edge.
const MARGIN_RIGHT: i32 = 36;
/// Gap between a bar's end and its label, and padding around text inside a bar.
const GAP: i32 = 8;
const PADDING: i32 = 12;

/// Font sizes in plotters' unit: the SVG gets `size / 1.24` pixels (20 -> 16.1 px).
const TITLE: u32 = 28;
const LABEL: u32 = 20;
const SMALL: u32 = 18;
const NOTE: u32 = 16;

const DEFINITIONS: RGBColor = RGBColor(0x1F, 0x4E, 0x79);
const INDEX: RGBColor = RGBColor(0xF2, 0x8E, 0x2B);
const SAVED: RGBColor = RGBColor(0xD4, 0xEC, 0xCB);
const SAVED_EDGE: RGBColor = RGBColor(0x3B, 0x8A, 0x3B);
const SAVED_TEXT: RGBColor = RGBColor(0x24, 0x5E, 0x24);
const WORSE: RGBColor = RGBColor(0xC0, 0x39, 0x2B);
const TEXT: RGBColor = RGBColor(0x22, 0x22, 0x22);
const MUTED: RGBColor = RGBColor(0x55, 0x55, 0x55);
const GRID: RGBColor = RGBColor(0xE4, 0xE4, 0xE4);

/// Draws `report` as an SVG document (with a trailing newline).
pub fn svg(report: &CostReport) -> Result<String, ChartError> {
    let tools = report.tools.as_deref().unwrap_or_default();
    let config_height = PANEL + CONFIG_ROW * report.configurations.len() as u32;
    let tools_height = if tools.is_empty() {
        0
    } else {
        PANEL + TOOL_ROW * tools.len() as u32
    };
    let mut text = String::new();
    {
        let size = (WIDTH, config_height + tools_height + LEGEND);
        let root = SVGBackend::with_string(&mut text, size).into_drawing_area();
        root.fill(&WHITE).map_err(fail)?;
        // One label column for both panels, so their bars start at the same x.
        let names = report
            .configurations
            .iter()
            .map(|c| c.name.as_str())
            .chain(tools.iter().map(|t| t.name.as_str()));
        let label_area = label_width(names);
        let (configs, rest) = root.split_vertically(config_height);
        draw_configurations(&configs, report, label_area)?;
        let (tool_area, legend) = rest.split_vertically(tools_height);
        if !tools.is_empty() {
            draw_tools(&tool_area, report, tools, label_area)?;
        }
        draw_legend(&legend, report, !tools.is_empty())?;
        root.present().map_err(fail)?;
    }
    if !text.ends_with('\n') {
        text.push('\n');
    }
    Ok(text)
}

fn fail(e: impl std::fmt::Display) -> ChartError {
    ChartError(e.to_string())
}

type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;

/// `tokens (o200k)`; the labels of estimates say so (`tokens (chars/4 estimate)`).
fn unit(report: &CostReport) -> String {
    format!("tokens ({})", report.tokenizer.label())
}

fn font(size: u32, color: RGBColor, h: HPos) -> TextStyle<'static> {
    (FONT, size)
        .into_font()
        .color(&color)
        .pos(Pos::new(h, VPos::Center))
}

fn bold(size: u32, color: RGBColor, h: HPos) -> TextStyle<'static> {
    (FONT, size, FontStyle::Bold)
        .into_font()
        .color(&color)
        .pos(Pos::new(h, VPos::Center))
}

/// Rows are listed top to bottom; row `r` of `n` is centred at `y = n - 1 - r`, and the y key
/// points are exactly those centres, so every row gets its label and nothing else does.
fn row_y(row: usize, n: usize) -> f64 {
    (n - 1 - row) as f64
}

fn label_of(names: &[String], y: f64) -> String {
    let n = names.len();
    let rounded = y.round();
    if (y - rounded).abs() > 1e-6 || rounded < 0.0 || rounded as usize >= n {
        return String::new();
    }
    names[n - 1 - rounded as usize].clone()
}

/// A bar segment from `x0` to `x1`, reaching `half` a row above and below `y`.
fn bar(x0: f64, x1: f64, y: f64, half: f64, style: ShapeStyle) -> Rectangle<(f64, f64)> {
    Rectangle::new([(x0, y + half), (x1, y - half)], style)
}

fn draw_configurations(
    area: &Area<'_>,
    report: &CostReport,
    label_area: i32,
) -> Result<(), ChartError> {
    let rows = &report.configurations;
    let n = rows.len();
    let base = rows.first().map_or(0, |c| c.tokens) as f64;
    let names: Vec<String> = rows.iter().map(|c| c.name.clone()).collect();
    let labels = config_labels(rows, base, plot_width(label_area));
    let x_max = x_extent(
        rows.iter()
            .zip(&labels)
            .map(|(c, l)| (base.max(c.tokens as f64), estimated_width(&l.text, LABEL))),
        plot_width(label_area),
    );
    let panel = Panel {
        caption: format!("Tool definitions sent on every turn, in {}", unit(report)),
        title_size: TITLE,
        x_desc: format!("{} per turn", unit(report)),
        label_size: LABEL,
    };
    let mut chart = panel.draw(area, label_area, x_max, &names)?;

    for (r, (c, label)) in rows.iter().zip(&labels).enumerate() {
        draw_configuration(&mut chart, c, label, row_y(r, n), base)?;
    }
    // The reference every profile is measured against.
    let top = n as f64 - 0.5;
    chart
        .draw_series(DashedLineSeries::new(
            [(base, -0.5), (base, top)],
            6,
            4,
            MUTED.stroke_width(2),
        ))
        .map_err(fail)?;
    Ok(())
}

/// What is written beside (and into) a configuration's bar.
struct ConfigLabel {
    /// Beside the bar: the tokens, and the change when it is not inside the saving box.
    text: String,
    /// The change against `all bound`, e.g. `−1,081 (−43.5%)`.
    delta: String,
    /// Whether `delta` is written inside the saving box (it fits there).
    delta_inside: bool,
}

/// Labels for every row. A change goes inside its saving box when it fits there. Moving one
/// beside its bar takes room from every bar, so boxes shrink and others may stop fitting:
/// repeat until nothing moves (at most once per row, since changes only ever move out).
fn config_labels(rows: &[ConfigCost], base: f64, plot_width: i32) -> Vec<ConfigLabel> {
    let label = |c: &ConfigCost, delta_inside: bool| {
        let delta = format!(
            "{} ({}%)",
            signed(c.delta_tokens),
            signed_percent(c.delta_tokens_percent)
        );
        let mut text = format!("{} tokens", thousands(c.tokens as i64));
        if !delta_inside && c.delta_tokens != 0 {
            text.push_str(&format!(", {delta}"));
        }
        ConfigLabel {
            text,
            delta,
            delta_inside,
        }
    };
    let mut labels: Vec<ConfigLabel> = rows
        .iter()
        .map(|c| label(c, (c.tokens as f64) < base))
        .collect();
    loop {
        let x_max = x_extent(
            rows.iter()
                .zip(&labels)
                .map(|(c, l)| (base.max(c.tokens as f64), estimated_width(&l.text, LABEL))),
            plot_width,
        );
        let mut moved = false;
        for (c, l) in rows.iter().zip(labels.iter_mut()) {
            let box_width = (base - c.tokens as f64) / x_max * f64::from(plot_width);
            if l.delta_inside && box_width < f64::from(estimated_width(&l.delta, LABEL) + PADDING) {
                *l = label(c, false);
                moved = true;
            }
        }
        if !moved {
            return labels;
        }
    }
}

/// The x range that fits every bar (ending at `end`) with its label (`label` pixels wide)
/// into `plot_width` pixels; at least a third of the width goes to the bars.
fn x_extent(rows: impl Iterator<Item = (f64, i32)>, plot_width: i32) -> f64 {
    let width = f64::from(plot_width);
    rows.map(|(end, label)| {
        let bars = (width - f64::from(label + GAP + PADDING)).max(width / 3.0);
        end.max(1.0) * width / bars
    })
    .fold(1.0, f64::max)
}

/// Pixels of the plotting area: the width less the margins and the row labels.
fn plot_width(label_area: i32) -> i32 {
    WIDTH as i32 - MARGIN - MARGIN_RIGHT - label_area
}

type Chart<'a, 'b> =
    ChartContext<'a, SVGBackend<'b>, Cartesian2d<plotters::coord::types::RangedCoordf64, Rows>>;

/// One panel of horizontal bars: its caption, axis description and label size.
struct Panel {
    caption: String,
    title_size: u32,
    x_desc: String,
    label_size: u32,
}

impl Panel {
    /// The panel's chart on `area`, one row per name, `0..x_max` across, its mesh drawn.
    fn draw<'a, 'b>(
        &self,
        area: &'a Area<'b>,
        label_area: i32,
        x_max: f64,
        names: &[String],
    ) -> Result<Chart<'a, 'b>, ChartError> {
        let mut chart = ChartBuilder::on(area)
            .caption(
                &self.caption,
                (FONT, self.title_size, FontStyle::Bold)
                    .into_font()
                    .color(&TEXT),
            )
            .margin(MARGIN)
            .margin_right(MARGIN_RIGHT)
            .x_label_area_size(58)
            .y_label_area_size(label_area)
            .build_cartesian_2d(0f64..x_max, Rows(names.len()))
            .map_err(fail)?;
        chart
            .configure_mesh()
            .disable_y_mesh()
            .max_light_lines(0)
            .bold_line_style(GRID)
            .x_labels(8)
            .x_label_formatter(&|x| thousands(x.round() as i64))
            .y_label_formatter(&|y| label_of(names, *y))
            .x_desc(&self.x_desc)
            .label_style((FONT, self.label_size).into_font().color(&TEXT))
            .axis_desc_style((FONT, SMALL).into_font().color(&MUTED))
            .draw()
            .map_err(fail)?;
        Ok(chart)
    }
}

/// The y axis: `n` rows from top to bottom, row `r` centred at `y = n - 1 - r`, with key points
/// (and so labels) exactly at the row centres.
struct Rows(usize);

impl Ranged for Rows {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        let share = (value + 0.5) / self.0.max(1) as f64;
        limit.0 + (f64::from(limit.1 - limit.0) * share).round() as i32
    }

    fn key_points<Hint: KeyPointHint>(&self, _hint: Hint) -> Vec<f64> {
        (0..self.0).map(|i| i as f64).collect()
    }

    fn range(&self) -> std::ops::Range<f64> {
        -0.5..self.0 as f64 - 0.5
    }
}

fn draw_configuration(
    chart: &mut Chart<'_, '_>,
    c: &ConfigCost,
    label: &ConfigLabel,
    y: f64,
    base: f64,
) -> Result<(), ChartError> {
    const HALF: f64 = 0.3;
    // The search tool is a definition sent with the others: one segment.
    let definition_tokens = c.definition_tokens + c.search_tool_tokens;
    let defs = definition_tokens as f64;
    let total = c.tokens as f64;
    if total < base {
        chart
            .draw_series([
                bar(total, base, y, HALF, SAVED.filled()),
                bar(total, base, y, HALF, SAVED_EDGE.stroke_width(1)),
            ])
            .map_err(fail)?;
    }
    chart
        .draw_series([
            bar(0.0, defs, y, HALF, DEFINITIONS.filled()),
            bar(defs, total, y, HALF, INDEX.filled()),
        ])
        .map_err(fail)?;

    // Numbers inside the segments when they fit, so the split can be read as well as seen.
    let inside = [
        (0.0, defs, definition_tokens, WHITE),
        (defs, total, c.index_tokens, TEXT),
    ];
    for (x0, x1, tokens, color) in inside {
        let text = thousands(tokens as i64);
        if tokens > 0 && fits(chart, x0, x1, y, &text, SMALL) {
            centred_text(
                chart,
                text,
                (x0 + x1) / 2.0,
                y,
                font(SMALL, color, HPos::Center),
            )?;
        }
    }
    if label.delta_inside {
        centred_text(
            chart,
            label.delta.clone(),
            (total + base) / 2.0,
            y,
            bold(LABEL, SAVED_TEXT, HPos::Center),
        )?;
    }
    let color = if c.delta_tokens > 0 { WORSE } else { TEXT };
    chart
        .draw_series(std::iter::once(
            EmptyElement::at((total.max(base), y))
                + Text::new(label.text.clone(), (GAP, 0), font(LABEL, color, HPos::Left)),
        ))
        .map_err(fail)?;
    Ok(())
}

fn draw_tools(
    area: &Area<'_>,
    report: &CostReport,
    tools: &[ToolCost],
    label_area: i32,
) -> Result<(), ChartError> {
    let n = tools.len();
    let names: Vec<String> = tools.iter().map(|t| t.name.clone()).collect();
    let labels: Vec<String> = tools
        .iter()
        .map(|t| {
            format!(
                "{} → {}  ({:.1}x)",
                thousands(t.definition_tokens as i64),
                thousands(t.entry_tokens as i64),
                t.ratio
            )
        })
        .collect();
    let end = |t: &ToolCost| t.definition_tokens.max(t.entry_tokens) as f64;
    let x_max = x_extent(
        tools
            .iter()
            .zip(&labels)
            .map(|(t, l)| (end(t), estimated_width(l, SMALL))),
        plot_width(label_area),
    );
    let panel = Panel {
        caption: format!(
            "Per tool: full definition against index entry, in {}",
            unit(report)
        ),
        title_size: TITLE - 2,
        x_desc: unit(report).to_string(),
        label_size: SMALL,
    };
    let mut chart = panel.draw(area, label_area, x_max, &names)?;
    for (r, (t, label)) in tools.iter().zip(labels).enumerate() {
        let y = row_y(r, n);
        chart
            .draw_series([
                bar(
                    0.0,
                    t.definition_tokens as f64,
                    y + 0.18,
                    0.16,
                    DEFINITIONS.filled(),
                ),
                bar(0.0, t.entry_tokens as f64, y - 0.18, 0.16, INDEX.filled()),
            ])
            .map_err(fail)?;
        chart
            .draw_series(std::iter::once(
                EmptyElement::at((end(t), y))
                    + Text::new(label, (GAP, 0), font(SMALL, TEXT, HPos::Left)),
            ))
            .map_err(fail)?;
    }
    Ok(())
}

fn draw_legend(area: &Area<'_>, report: &CostReport, by_tool: bool) -> Result<(), ChartError> {
    let (definitions, index) = if by_tool {
        ("definitions", "index / index entry")
    } else {
        ("bound definitions", "index")
    };
    let entries = [
        (definitions, DEFINITIONS, DEFINITIONS),
        (index, INDEX, INDEX),
        ("saved against all bound", SAVED, SAVED_EDGE),
    ];
    let (mut x, y) = (MARGIN * 2, 18);
    for (label, fill, edge) in entries {
        let swatch = [(x, y - 8), (x + 18, y + 8)];
        area.draw(&Rectangle::new(swatch, fill.filled()))
            .map_err(fail)?;
        area.draw(&Rectangle::new(swatch, edge.stroke_width(1)))
            .map_err(fail)?;
        let text_x = x + 18 + GAP;
        area.draw(&Text::new(
            label,
            (text_x, y),
            font(SMALL, TEXT, HPos::Left),
        ))
        .map_err(fail)?;
        x = text_x + estimated_width(label, SMALL) + 2 * PADDING;
    }
    for dash in 0..3 {
        let start = x + dash * 8;
        area.draw(&PathElement::new(
            [(start, y), (start + 5, y)],
            MUTED.stroke_width(2),
        ))
        .map_err(fail)?;
    }
    area.draw(&Text::new(
        "all bound",
        (x + 24 + GAP, y),
        font(SMALL, TEXT, HPos::Left),
    ))
    .map_err(fail)?;
    let note = format!(
        "Definitions serialised as `{}` JSON; {} counted by discloser cost.",
        report.provider.as_str(),
        unit(report)
    );
    area.draw(&Text::new(
        note,
        (MARGIN * 2, y + 32),
        font(NOTE, MUTED, HPos::Left),
    ))
    .map_err(fail)?;
    Ok(())
}

fn centred_text(
    chart: &mut Chart<'_, '_>,
    text: String,
    x: f64,
    y: f64,
    style: TextStyle<'static>,
) -> Result<(), ChartError> {
    chart
        .draw_series(std::iter::once(Text::new(text, (x, y), style)))
        .map_err(fail)?;
    Ok(())
}

/// Whether `text` at `size` fits between `x0` and `x1` with some padding.
fn fits(chart: &Chart<'_, '_>, x0: f64, x1: f64, y: f64, text: &str, size: u32) -> bool {
    let left = chart.backend_coord(&(x0, y)).0;
    let right = chart.backend_coord(&(x1, y)).0;
    right - left >= estimated_width(text, size) + PADDING
}

/// A generous estimate of rendered text width in pixels (no font is read: see the module docs).
fn estimated_width(text: &str, size: u32) -> i32 {
    let pixels = f64::from(size) / 1.24;
    let wide = text.chars().filter(|c| !c.is_ascii()).count();
    let narrow = text.chars().count() - wide;
    ((narrow as f64 * 0.62 + wide as f64 * 1.05) * pixels).ceil() as i32
}

/// The y label area: the longest name, within bounds.
fn label_width<'a>(names: impl Iterator<Item = &'a str>) -> i32 {
    let widest = names.map(|n| estimated_width(n, LABEL)).max().unwrap_or(0);
    (widest + 20).clamp(80, 320)
}

/// `5268` -> `5,268`.
fn thousands(n: i64) -> String {
    // A typographic minus reads better in the chart's labels.
    let plain = crate::numfmt::thousands(n);
    match plain.strip_prefix('-') {
        Some(rest) => format!("−{rest}"),
        None => plain,
    }
}

fn signed(n: i64) -> String {
    if n > 0 {
        format!("+{}", thousands(n))
    } else {
        thousands(n)
    }
}

fn signed_percent(p: f64) -> String {
    let text = format!("{:.1}", p.abs());
    if p > 0.0 {
        format!("+{text}")
    } else if p < 0.0 {
        format!("−{text}")
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_only_on_row_centres() {
        let names = vec!["all bound".to_owned(), "default".to_owned()];
        assert_eq!(label_of(&names, 1.0), "all bound");
        assert_eq!(label_of(&names, 0.0), "default");
        assert_eq!(label_of(&names, 0.5), "");
        assert_eq!(label_of(&names, 2.0), "");
        assert_eq!(label_of(&names, -1.0), "");
    }

    #[test]
    fn signed_numbers_use_a_real_minus() {
        assert_eq!(signed(-1081), "−1,081");
        assert_eq!(signed(12), "+12");
        assert_eq!(signed(0), "0");
        assert_eq!(signed_percent(-43.46), "−43.5");
        assert_eq!(signed_percent(0.0), "0.0");
    }
}
