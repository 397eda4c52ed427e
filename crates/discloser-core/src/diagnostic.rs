//! Load errors with a position: `path:line:col: message`, plus an optional source line for a
//! rustc-style snippet.
//!
//! Every failure to read the project (config, tool files, referenced schema files) becomes a
//! [`LoadError`]. Its `Display` is the one-line form `path:line:col: message`; the binary adds
//! the snippet with [`LoadError::render`]. The library never prints.

use std::fmt;
use std::path::{Path, PathBuf};

/// A 1-based line and column (in characters) inside a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Position {
    /// 1-based line number.
    pub line: usize,
    /// 1-based column, counted in Unicode scalar values.
    pub col: usize,
}

impl Position {
    /// The start of a file.
    pub const START: Position = Position { line: 1, col: 1 };

    /// The position of byte `offset` in `text` (clamped to the text, snapped to a char boundary).
    pub fn of_offset(text: &str, offset: usize) -> Position {
        let mut offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let before = &text[..offset];
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        Position {
            line: before.matches('\n').count() + 1,
            col: before[line_start..].chars().count() + 1,
        }
    }
}

/// What kind of load failure happened, so callers can branch on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The file could not be read (missing, permission, not UTF-8, ...).
    Io,
    /// The text is not valid YAML or JSON.
    Syntax,
    /// Valid YAML/JSON, but not the expected shape (wrong type, unknown key, missing name).
    Shape,
    /// Two tools share a name.
    Duplicate,
    /// A `$ref` that cannot be resolved (remote, outside the project, missing target, cycle).
    Ref,
    /// The configuration is inconsistent (unknown tool or profile, profile cycle, no sources).
    Config,
}

/// A failure to load the project, with the place in the input that caused it.
///
/// Boxed so that `Result<_, LoadError>` stays one pointer wide on the happy path; the fields
/// are read through [`std::ops::Deref`] (`err.kind`, `err.position`, ...).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadError(Box<LoadErrorDetails>);

/// The fields of a [`LoadError`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadErrorDetails {
    /// What went wrong, broadly.
    pub kind: ErrorKind,
    /// The file at fault, as it should be shown to the user.
    pub path: PathBuf,
    /// Where in the file, when known.
    pub position: Option<Position>,
    /// Lowercase message without trailing period; values quoted in backticks.
    pub message: String,
    /// The text of the offending line, for a snippet.
    pub source_line: Option<String>,
    /// Extra lines of help (`help: ...`), e.g. "did you mean".
    pub help: Option<String>,
}

impl LoadError {
    /// An error about a whole file (no position).
    pub fn file(kind: ErrorKind, path: impl Into<PathBuf>, message: impl Into<String>) -> Self {
        LoadError(Box::new(LoadErrorDetails {
            kind,
            path: path.into(),
            position: None,
            message: message.into(),
            source_line: None,
            help: None,
        }))
    }

    /// An error at a position in `text`, the content of `path`.
    pub fn at(
        kind: ErrorKind,
        path: impl Into<PathBuf>,
        text: &str,
        position: Position,
        message: impl Into<String>,
    ) -> Self {
        let source_line = text
            .lines()
            .nth(position.line.saturating_sub(1))
            .map(|l| l.trim_end_matches('\r').to_owned());
        LoadError(Box::new(LoadErrorDetails {
            kind,
            path: path.into(),
            position: Some(position),
            message: message.into(),
            source_line,
            help: None,
        }))
    }

    /// Adds a `help:` line.
    #[must_use]
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.0.help = Some(help.into());
        self
    }

    /// `path:line:col` (or just `path`).
    pub fn location(&self) -> String {
        location(&self.path, self.position)
    }
}

impl std::ops::Deref for LoadError {
    type Target = LoadErrorDetails;

    fn deref(&self) -> &LoadErrorDetails {
        &self.0
    }
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.location(), self.message)?;
        if let Some(help) = &self.help {
            write!(f, "\n  help: {help}")?;
        }
        Ok(())
    }
}

impl std::error::Error for LoadError {}

/// Formats `path:line:col`, or `path` when the position is unknown.
pub fn location(path: &Path, position: Option<Position>) -> String {
    match position {
        Some(p) => format!("{}:{}:{}", path.display(), p.line, p.col),
        None => path.display().to_string(),
    }
}

/// The closest candidate to `name`, for "did you mean" help: the nearest by edit distance
/// (ignoring case) within a third of the longer name (at least 2), or else, for a name of at
/// least 3 characters, the shortest candidate it begins (`desc` for `description`). Ties go to
/// the first candidate by name, so the answer is the same on every run.
pub fn did_you_mean<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let folded = name.to_lowercase();
    let mut nearest: Option<(usize, &'a str)> = None;
    let mut prefixed: Option<(usize, &'a str)> = None;
    for candidate in candidates {
        if candidate == name {
            continue;
        }
        let other = candidate.to_lowercase();
        let distance = strsim::damerau_levenshtein(&folded, &other);
        let limit = (folded.chars().count().max(other.chars().count()) / 3).max(2);
        if distance <= limit && nearest.is_none_or(|best| (distance, candidate) < best) {
            nearest = Some((distance, candidate));
        }
        let length = other.chars().count();
        if folded.chars().count() >= 3
            && other.starts_with(&folded)
            && prefixed.is_none_or(|best| (length, candidate) < best)
        {
            prefixed = Some((length, candidate));
        }
    }
    nearest.or(prefixed).map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn position_counts_characters_not_bytes() {
        let text = "a: 1\n名字: x\n";
        assert_eq!(Position::of_offset(text, 0), Position { line: 1, col: 1 });
        let x = text.find('x').unwrap();
        assert_eq!(Position::of_offset(text, x), Position { line: 2, col: 5 });
    }

    #[test]
    fn did_you_mean_picks_close_names_only() {
        let names = ["draw_chart", "submit_form"];
        assert_eq!(did_you_mean("draw_chrat", names), Some("draw_chart"));
        assert_eq!(did_you_mean("completely_else", names), None);
    }

    #[test]
    fn did_you_mean_reaches_prefixes_and_case() {
        let keys = ["name", "description", "parameters"];
        assert_eq!(did_you_mean("desc", keys), Some("description"));
        assert_eq!(
            did_you_mean("Cabin", ["CabinClass", "Seat"]),
            Some("CabinClass")
        );
        assert_eq!(did_you_mean("dl0o1", ["DL001", "DL002"]), Some("DL001"));
        // Too short to be a prefix worth suggesting.
        assert_eq!(did_you_mean("de", ["description"]), None);
    }

    #[test]
    fn did_you_mean_breaks_ties_by_name() {
        assert_eq!(did_you_mean("ab", ["ac", "aa"]), Some("aa"));
        assert_eq!(did_you_mean("ab", ["aa", "ac"]), Some("aa"));
        assert_eq!(did_you_mean("abc", ["abcz", "abcd"]), Some("abcd"));
    }
}
