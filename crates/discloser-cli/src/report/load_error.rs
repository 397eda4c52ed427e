//! Load errors as people read them: rustc-style, with the source line and a caret.

use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet};
use discloser_core::diagnostic::LoadError;

/// The full, rustc-style rendering: the one-line header, a source snippet with a caret at
/// the column, and the help line.
pub fn render(err: &LoadError, color: bool) -> String {
    let renderer = if color {
        Renderer::styled()
    } else {
        Renderer::plain()
    };
    let path = err.path.display().to_string();
    // Messages quote user values: control characters shown, never sent to the terminal.
    let title =
        discloser_core::printable::neutralise(&format!("{}: {}", err.location(), err.message))
            .into_owned();
    let mut group = Group::with_title(Level::ERROR.primary_title(&title));
    if let (Some(pos), Some(line)) = (err.position, &err.source_line) {
        let start: usize = line.chars().take(pos.col - 1).map(char::len_utf8).sum();
        let width = line[start..].chars().next().map_or(0, char::len_utf8);
        group = group.element(
            Snippet::source(line.as_str())
                .line_start(pos.line)
                .path(&path)
                .annotation(AnnotationKind::Primary.span(start..start + width)),
        );
    }
    if let Some(help) = &err.help {
        group = group.element(Level::HELP.message(discloser_core::printable::neutralise(help)));
    }
    renderer.render(&[group]).to_string()
}
