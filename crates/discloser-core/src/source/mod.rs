//! A source file read into memory, parsed into a JSON value, with positions found on demand.
//!
//! Tool definitions are interpreted as `serde_json::Value` whatever their syntax, so every loader
//! and rule works on one model and reports problems as JSON pointers. Turning a pointer into
//! `line:col` needs the spans of the original text; that is done lazily, by a second, span-aware
//! parse, only when an error or finding needs a position: the happy path pays nothing for it.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

use crate::diagnostic::{ErrorKind, LoadError, Position};

pub mod edit;
mod json_tokens;
mod split;
mod yaml_events;
pub mod yaml_scalar;
mod yaml_split;

/// The most tools one input file may hold. A loaded tool takes about 1.7 KB besides its schema
/// (its name, description, pointers, positions), so 3.6 million tiny tools in a 61 MB file took
/// 85 times the file in memory and aborted: such a file is refused before a tool is built.
pub const MAX_TOOLS_PER_FILE: usize = 100_000;
use json_tokens::json_positions;
use yaml_events::yaml_positions;

/// The largest file discloser reads (a tool file, a referenced schema or the config): 64 MiB,
/// about 50,000 tools of a typical MCP server's size. A catalog may span many files.
pub const MAX_FILE_BYTES: u64 = 64 * 1024 * 1024;

/// Why a file of this kind is not read, `None` for a regular file discloser reads.
pub fn unreadable_kind(path: &Path, meta: &std::fs::Metadata) -> Option<&'static str> {
    if meta.is_dir() {
        Some("is a directory")
    } else if !meta.is_file() {
        Some("it is not a regular file (a FIFO, socket or device), which discloser does not read")
    } else if is_pseudo_file(path) {
        Some("it is a pseudo-file of `/proc` or `/sys`, which discloser does not read")
    } else {
        None
    }
}

/// A path under `/proc` or `/sys` (after resolving symbolic links): files that report a size of
/// 0 (`/proc`) or 4096 (`/sys`) whatever they hold, and may block (`/proc/kmsg`) or change the
/// system when read. No tool catalog lives there.
fn is_pseudo_file(path: &Path) -> bool {
    let real = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    real.starts_with("/proc") || real.starts_with("/sys")
}

/// Opens for reading without waiting: a FIFO without a writer opens at once (and is then
/// refused by its type) instead of blocking in `open(2)`.
fn open_nonblocking(path: &Path) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        options.custom_flags(libc::O_NONBLOCK);
    }
    options.open(path)
}

fn too_large(shown: &Path, bytes: u64) -> LoadError {
    let mib = |b: u64| b as f64 / (1024.0 * 1024.0);
    LoadError::file(
        ErrorKind::Io,
        shown,
        format!(
            "cannot read file: it is {:.1} MiB, over discloser's limit of {:.0} MiB for one file; split the catalog into several files",
            mib(bytes),
            mib(MAX_FILE_BYTES)
        ),
    )
}

/// Which grammar a file is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Syntax {
    /// YAML 1.2 (booleans are only `true`/`false`).
    Yaml,
    /// JSON.
    Json,
}

impl Syntax {
    /// Adds help to `err`, about `key` holding the string `found` where a boolean belongs,
    /// when `found` is a YAML 1.1 boolean word (`yes`, `no`, `on`, `off`, `y`, `n`, any case)
    /// or a quoted `true`/`false`: YAML 1.2, which discloser reads, takes a bare `yes` for a
    /// string.
    pub fn with_boolean_help(self, err: LoadError, key: &str, found: &str) -> LoadError {
        let meant = match found.to_ascii_lowercase().as_str() {
            "yes" | "y" | "on" | "true" => true,
            "no" | "n" | "off" | "false" => false,
            _ => return err,
        };
        let quoted = err
            .position
            .zip(err.source_line.as_deref())
            .and_then(|(p, line)| line.chars().nth(p.col - 1))
            .is_some_and(|c| c == '"' || c == '\'');
        let help = match self {
            Syntax::Yaml if !quoted => {
                format!(
                    "YAML 1.2 reads `{found}` as a string, not a boolean; write `{key}: {meant}`"
                )
            }
            Syntax::Yaml => {
                format!("a quoted `{found}` is a string; write `{key}: {meant}`, without quotes")
            }
            Syntax::Json => {
                format!("a quoted `{found}` is a string; write `{meant}`, without quotes")
            }
        };
        err.with_help(help)
    }
}

/// Whether a pointer should resolve to a mapping key or to its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// The key of the last pointer segment (for "unknown key" errors).
    Key,
    /// The value the pointer designates.
    Value,
}

/// A file's text, its syntax and the path to show in messages.
#[derive(Debug)]
pub struct SourceFile {
    /// The path as shown to the user (relative where possible).
    pub path: PathBuf,
    /// The full text, without a UTF-8 byte-order mark.
    pub text: String,
    /// The grammar used to parse `text`.
    pub syntax: Syntax,
    /// Positions of every key and value, built on the first [`SourceFile::locate`].
    positions: OnceLock<Option<PosNode>>,
    /// Positions near the root, as deep as the file's tools, recorded by the parse that read
    /// the value (YAML's fast path), so locating a tool costs no second parse.
    /// (Boxed: a file that has none, JSON, pays one pointer for it.)
    outline: OnceLock<Box<Outline>>,
    /// Byte offset of the start of every line, built on first use.
    line_starts: OnceLock<Vec<usize>>,
    /// Character counts at every [`CHAR_MARK_STEP`] bytes, built on the first position in a
    /// long line (see [`SourceFile::chars_before`]).
    char_marks: OnceLock<Vec<(usize, usize)>>,
    /// Whether the file's bytes began with a UTF-8 byte-order mark (not part of `text`).
    bom: bool,
}

/// Bytes between two [`SourceFile`] character marks: a column in a long line (a minified JSON
/// file is one line) costs at most this many steps, not the length of the line before it.
const CHAR_MARK_STEP: usize = 1024;

/// A file's line starts for a batch of lookups ([`SourceFile::lines`]).
pub struct Lines<'a> {
    file: &'a SourceFile,
    starts: std::borrow::Cow<'a, [usize]>,
}

impl Lines<'_> {
    /// [`SourceFile::position_of`].
    pub fn position_of(&self, offset: usize) -> Position {
        self.file.position_in(&self.starts, offset)
    }

    /// [`SourceFile::line_window`].
    pub fn window(&self, line: usize, col: usize, context: usize) -> Option<(String, usize)> {
        self.file.window_in(&self.starts, line, col, context)
    }
}

impl SourceFile {
    /// Reads `path` from disk; `shown` is the path used in messages.
    ///
    /// Only regular files of at most [`MAX_FILE_BYTES`] are read: a FIFO would block forever,
    /// `/dev/zero` would never end, and a huge file would exhaust memory (a parsed catalog
    /// takes several times its text), so each is refused with a clear error before a byte is read.
    /// The file is opened without blocking and its type checked on the open file (`fstat`), so
    /// a FIFO swapped in after a check cannot block either. Pseudo-files of `/proc` and `/sys`
    /// (`/proc/kmsg` blocks, and reading it consumes the kernel's log) are refused too.
    pub fn read(path: &Path, shown: PathBuf) -> Result<SourceFile, LoadError> {
        let fail = |reason: String| {
            LoadError::file(
                ErrorKind::Io,
                shown.clone(),
                format!("cannot read file: {reason}"),
            )
        };
        let io_fail = |e: std::io::Error| {
            fail(if crate::fsutil::broken_link(path) {
                "it is a symbolic link to nothing (dangling or looping)".to_owned()
            } else {
                io_reason(&e)
            })
        };
        let file = open_nonblocking(path).map_err(io_fail)?;
        let meta = file.metadata().map_err(io_fail)?;
        if let Some(reason) = unreadable_kind(path, &meta) {
            return Err(fail(reason.to_owned()));
        }
        if meta.len() > MAX_FILE_BYTES {
            return Err(too_large(&shown, meta.len()));
        }
        // Sized from the metadata: a vector grown while reading keeps up to half its memory
        // unused, for as long as the text is kept (the whole run).
        let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).map_or(0, |n| n + 1));
        {
            use std::io::Read;
            // The file may have grown since `fstat`: never read past the limit.
            file.take(MAX_FILE_BYTES + 1)
                .read_to_end(&mut bytes)
                .map_err(io_fail)?;
        }
        if bytes.len() as u64 > MAX_FILE_BYTES {
            return Err(too_large(&shown, bytes.len() as u64));
        }
        SourceFile::from_bytes(bytes, shown)
    }

    /// Builds a source from bytes (checked to be UTF-8); the syntax comes from the extension,
    /// or from the first character when the extension says nothing.
    pub fn from_bytes(bytes: Vec<u8>, shown: PathBuf) -> Result<SourceFile, LoadError> {
        let mut text = match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(e) => {
                let valid = e.utf8_error().valid_up_to();
                let bytes = e.into_bytes();
                let prefix = String::from_utf8_lossy(&bytes[..valid]).into_owned();
                let pos = Position::of_offset(&prefix, valid);
                return Err(LoadError::at(
                    ErrorKind::Io,
                    shown,
                    &prefix,
                    pos,
                    format!("file is not valid UTF-8 (invalid byte at offset {valid})"),
                ));
            }
        };
        let bom = text.starts_with('\u{feff}');
        if bom {
            text.drain(..'\u{feff}'.len_utf8());
        }
        let syntax = Syntax::guess(&shown, &text);
        Ok(SourceFile {
            path: shown,
            text,
            syntax,
            positions: OnceLock::new(),
            outline: OnceLock::new(),
            line_starts: OnceLock::new(),
            char_marks: OnceLock::new(),
            bom,
        })
    }

    /// Builds a source from text already in memory.
    pub fn from_text(text: impl Into<String>, shown: PathBuf) -> SourceFile {
        let text = text.into();
        let syntax = Syntax::guess(&shown, &text);
        SourceFile {
            path: shown,
            text,
            syntax,
            positions: OnceLock::new(),
            outline: OnceLock::new(),
            line_starts: OnceLock::new(),
            char_marks: OnceLock::new(),
            bom: false,
        }
    }

    /// The bytes before `text` in the file it was read from: 3 for a UTF-8 byte-order mark,
    /// else 0. A byte offset into `text` plus this is an offset into the file.
    pub fn bytes_before_text(&self) -> usize {
        if self.bom { '\u{feff}'.len_utf8() } else { 0 }
    }

    /// Parses the whole text into a JSON value (object key order preserved).
    pub fn parse(&self) -> Result<Value, LoadError> {
        match self.syntax {
            Syntax::Json => {
                // A large file's items on several threads; any doubt, and the whole text below.
                if let Some((value, outline)) = split::parse(&self.text) {
                    // A second parse of the same text records the same outline: keep the first.
                    let _ = self.outline.set(Box::new(outline));
                    return Ok(value);
                }
                JSON_VALUES.with(|n| n.set(0));
                serde_json::from_str::<StrictValue>(&self.text)
            }
            .map(|v| v.0)
            .map_err(|e| {
                let mut pos = json_position(&self.text, e.line(), e.column());
                if e.to_string().starts_with("duplicate key") {
                    pos = key_start(&self.text, pos);
                }
                LoadError::at(
                    ErrorKind::Syntax,
                    &self.path,
                    &self.text,
                    pos,
                    json_message(&e),
                )
            }),
            // A large file's items on several threads; any doubt, and the whole text on one.
            Syntax::Yaml => match yaml_split::parse(&self.text)
                .or_else(|| yaml_events::fast_value(&self.text))
            {
                Some((value, outline)) => {
                    // A second parse of the same text records the same outline: keep the first.
                    let _ = self.outline.set(Box::new(outline));
                    Ok(value)
                }
                None => serde_saphyr::from_str_with_options(&self.text, yaml_options())
                    .map_err(|e| self.yaml_error(ErrorKind::Syntax, &e)),
            },
        }
    }

    /// [`SourceFile::parse`] without the YAML fast path: serde-saphyr alone (JSON is parsed as
    /// by `parse`). For differential tests and fuzzing, which check that the two always agree.
    #[doc(hidden)]
    pub fn parse_reference(&self) -> Result<Value, LoadError> {
        match self.syntax {
            Syntax::Json => self.parse(),
            Syntax::Yaml => serde_saphyr::from_str_with_options(&self.text, yaml_options())
                .map_err(|e| self.yaml_error(ErrorKind::Syntax, &e)),
        }
    }

    /// Turns a serde-saphyr error into a positioned [`LoadError`].
    pub fn yaml_error(&self, kind: ErrorKind, e: &serde_saphyr::Error) -> LoadError {
        let message = yaml_message(e);
        match e.location().filter(|l| l.line() > 0) {
            Some(l) => {
                let mut pos = Position {
                    line: l.line() as usize,
                    col: (l.column() as usize).max(1),
                };
                if message.contains("found a tab") {
                    pos = self.indenting_tab_after(pos).unwrap_or(pos);
                }
                let err = LoadError::at(kind, &self.path, &self.text, pos, message);
                match yaml_help(&err.message, err.source_line.as_deref(), pos.col) {
                    Some(help) => err.with_help(help),
                    None => err,
                }
            }
            None => LoadError::file(kind, &self.path, message),
        }
    }

    /// The parser reports a tab where the enclosing scalar starts; the fault is the first tab
    /// used for indentation at or after that line.
    fn indenting_tab_after(&self, from: Position) -> Option<Position> {
        self.text
            .lines()
            .enumerate()
            .skip(from.line - 1)
            .find_map(|(i, line)| {
                let indent = &line[..line.len() - line.trim_start().len()];
                indent.find('\t').map(|byte| Position {
                    line: i + 1,
                    col: indent[..byte].chars().count() + 1,
                })
            })
    }

    /// The position of a byte offset (binary search over line starts: cheap for many lookups
    /// in a large file).
    pub fn position_of(&self, offset: usize) -> Position {
        self.position_in(self.line_starts(), offset)
    }

    /// [`SourceFile::position_of`] with the file's line starts at hand.
    fn position_in(&self, starts: &[usize], offset: usize) -> Position {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = starts.partition_point(|&s| s <= offset).max(1);
        let start = starts[line - 1];
        Position {
            line,
            col: self.chars_between(start, offset) + 1,
        }
    }

    /// The byte offset of a position (the inverse of [`SourceFile::position_of`]); a position
    /// past the end of its line or of the text is clamped to it.
    pub fn offset_of(&self, pos: Position) -> usize {
        let starts = self.line_starts();
        let Some(&start) = starts.get(pos.line.saturating_sub(1)) else {
            return self.text.len();
        };
        let end = starts.get(pos.line).map_or(self.text.len(), |&e| e);
        self.text[start..end]
            .char_indices()
            .nth(pos.col.saturating_sub(1))
            .map_or(end, |(i, _)| start + i)
    }

    /// The number of characters in `text[from..to]` (both char boundaries), in at most about
    /// [`CHAR_MARK_STEP`] steps however far apart they are: a file with 100,000 findings on one
    /// 10 MB line must not count 10^12 characters.
    fn chars_between(&self, from: usize, to: usize) -> usize {
        if to - from <= CHAR_MARK_STEP {
            return self.text[from..to].chars().count();
        }
        self.chars_before(to) - self.chars_before(from)
    }

    /// The number of characters before byte `offset` (a char boundary).
    fn chars_before(&self, offset: usize) -> usize {
        let marks = self.char_marks();
        let (byte, chars) = marks[marks.partition_point(|m| m.0 <= offset) - 1];
        chars + self.text[byte..offset].chars().count()
    }

    /// The byte offset of the character numbered `n` (0-based) of the whole text.
    fn byte_of_char(&self, n: usize) -> usize {
        let marks = self.char_marks();
        let (byte, chars) = marks[marks.partition_point(|m| m.1 <= n) - 1];
        self.text[byte..]
            .char_indices()
            .nth(n - chars)
            .map_or(self.text.len(), |(i, _)| byte + i)
    }

    fn char_marks(&self) -> &[(usize, usize)] {
        self.char_marks.get_or_init(|| {
            let mut marks = vec![(0, 0)];
            let mut next = CHAR_MARK_STEP;
            for (chars, (i, _)) in self.text.char_indices().enumerate() {
                if i >= next {
                    marks.push((i, chars));
                    next = i + CHAR_MARK_STEP;
                }
            }
            marks
        })
    }

    /// Line `line` cut to at most `context` characters either side of column `col`, with `…`
    /// where it was cut, and the column inside the cut line; a line of at most `2 * context`
    /// characters whole. Costs the window, not the line: a long line is measured with the
    /// character marks.
    ///
    /// Keeps the file's line starts; for many windows in many files, see [`SourceFile::lines`].
    pub fn line_window(&self, line: usize, col: usize, context: usize) -> Option<(String, usize)> {
        self.window_in(self.line_starts(), line, col, context)
    }

    /// [`SourceFile::line_window`] with the file's line starts at hand.
    fn window_in(
        &self,
        starts: &[usize],
        line: usize,
        col: usize,
        context: usize,
    ) -> Option<(String, usize)> {
        let start = *starts.get(line.checked_sub(1)?)?;
        let text = self.line_in(starts, line)?;
        let end = start + text.len();
        if text.len() <= 2 * context {
            return Some((text.to_owned(), col));
        }
        let total = self.chars_between(start, end);
        if total <= 2 * context {
            return Some((text.to_owned(), col));
        }
        let first = col.saturating_sub(1).saturating_sub(context).min(total);
        let last = (col.saturating_sub(1) + context).min(total);
        if first == 0 && last == total {
            return Some((text.to_owned(), col));
        }
        let before = self.chars_before(start);
        let from = self.byte_of_char(before + first);
        let to = self.byte_of_char(before + last).min(end);
        let mut window = String::new();
        if first > 0 {
            window.push('…');
        }
        window.push_str(&self.text[from..to]);
        if last < total {
            window.push('…');
        }
        Some((window, col - first + usize::from(first > 0)))
    }

    /// The text of a 1-based line, without its line ending.
    pub fn line_text(&self, line: usize) -> Option<&str> {
        self.line_in(self.line_starts(), line)
    }

    /// [`SourceFile::line_text`] with the file's line starts at hand.
    fn line_in<'s>(&'s self, starts: &[usize], line: usize) -> Option<&'s str> {
        let start = *starts.get(line.checked_sub(1)?)?;
        let end = starts.get(line).map_or(self.text.len(), |&e| e);
        Some(self.text[start..end].trim_end_matches(['\n', '\r']))
    }

    /// The file's line starts for a batch of positions and windows: the kept ones, else found
    /// for this batch only and dropped with it. A run that positions findings in thousands of
    /// files holds one file's line starts at a time (8 bytes a line: 40 MB for 100,000 tools'
    /// files, were they all kept).
    pub fn lines(&self) -> Lines<'_> {
        let starts = match self.line_starts.get() {
            Some(kept) => std::borrow::Cow::Borrowed(kept.as_slice()),
            None => std::borrow::Cow::Owned(self.find_line_starts()),
        };
        Lines { file: self, starts }
    }

    /// The byte offset where each line starts, found once and kept.
    fn line_starts(&self) -> &[usize] {
        self.line_starts.get_or_init(|| self.find_line_starts())
    }

    fn find_line_starts(&self) -> Vec<usize> {
        std::iter::once(0)
            .chain(self.text.match_indices('\n').map(|(i, _)| i + 1))
            .collect()
    }

    /// An error located at the value (or key) a JSON pointer designates.
    pub fn error_at(
        &self,
        kind: ErrorKind,
        pointer: &str,
        target: Target,
        message: impl Into<String>,
    ) -> LoadError {
        let pos = self.locate(pointer, target);
        LoadError::at(kind, &self.path, &self.text, pos, message)
    }

    /// The position of the value (or key) at `pointer`; the nearest enclosing node that exists
    /// when the pointer goes further than the text; the file start when nothing is known.
    ///
    /// The positions of the whole file are parsed once and kept; to locate many pointers and
    /// free that memory afterwards, use [`SourceFile::locate_all`].
    pub fn locate(&self, pointer: &str, target: Target) -> Position {
        let tree = self.positions.get_or_init(|| self.build_positions());
        match self.locate_in(tree.as_ref(), pointer, target) {
            Loc::Offset(offset) => self.position_of(offset),
            Loc::Pos(pos) => pos,
        }
    }

    /// [`SourceFile::locate`] for many pointers at once, in order. The positions (and the line
    /// starts) are found for this call only (unless kept already) and dropped on return, so a
    /// run that positions findings in thousands of files holds one file's positions at a time.
    /// Only as many levels are built as the deepest pointer asked for has segments; none when
    /// the parse that read the file recorded them that deep (a YAML file's tools).
    pub fn locate_all<'p>(
        &self,
        requests: impl IntoIterator<Item = (&'p str, Target)>,
    ) -> Vec<Position> {
        let requests: Vec<(&str, Target)> = requests.into_iter().collect();
        let built;
        let depth = || {
            requests
                .iter()
                .map(|(pointer, _)| pointer.matches('/').count())
                .max()
                .unwrap_or(0)
        };
        let tree = match (self.positions.get(), self.outline.get()) {
            (Some(kept), _) => kept.as_ref(),
            (None, Some(outline)) if depth() <= outline.depth => Some(&outline.tree),
            (None, _) => {
                built = self.build_positions_to(depth());
                built.as_ref()
            }
        };
        let locs: Vec<Loc> = requests
            .into_iter()
            .map(|(pointer, target)| self.locate_in(tree, pointer, target))
            .collect();
        // Like the positions, the line starts are found for this call only, unless kept already
        // (a file's line starts take 8 bytes a line: 40 MB for 100,000 tools' files), and only
        // when an offset is to be turned into a position (a YAML file's tools have positions).
        let found;
        let starts = match self.line_starts.get() {
            Some(kept) => kept.as_slice(),
            None if locs.iter().any(|loc| matches!(loc, Loc::Offset(_))) => {
                found = self.find_line_starts();
                found.as_slice()
            }
            None => &[],
        };
        locs.into_iter()
            .map(|loc| match loc {
                Loc::Offset(offset) => self.position_in(starts, offset),
                Loc::Pos(pos) => pos,
            })
            .collect()
    }

    fn build_positions(&self) -> Option<PosNode> {
        self.build_positions_to(usize::MAX)
    }

    /// The positions of the nodes at most `depth` levels below the root (deeper collections
    /// are leaves).
    fn build_positions_to(&self, depth: usize) -> Option<PosNode> {
        match self.syntax {
            Syntax::Json => json_positions(&self.text, depth),
            Syntax::Yaml => yaml_positions(&self.text, depth),
        }
    }

    /// Where the value (or key) at `pointer` is, in `tree` (the file start when nothing is
    /// known).
    fn locate_in(&self, tree: Option<&PosNode>, pointer: &str, target: Target) -> Loc {
        let Some(mut node) = tree else {
            return Loc::Pos(Position::START);
        };
        let mut at = node.at;
        let segments: Vec<String> = pointer_segments(pointer).collect();
        for (i, seg) in segments.iter().enumerate() {
            let last = i + 1 == segments.len();
            match &node.kids {
                Kids::Map(entries) => {
                    let Some((_, key_at, child)) = entries.iter().rev().find(|(k, _, _)| k == seg)
                    else {
                        break;
                    };
                    at = if last && target == Target::Key {
                        *key_at
                    } else {
                        child.at
                    };
                    node = child;
                }
                Kids::Seq(items) => {
                    let Some(child) = seg.parse::<usize>().ok().and_then(|i| items.get(i)) else {
                        break;
                    };
                    at = child.at;
                    node = child;
                }
                Kids::Leaf => break,
            }
        }
        at
    }
}

impl Syntax {
    fn guess(path: &Path, text: &str) -> Syntax {
        match path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase)
            .as_deref()
        {
            Some("yaml" | "yml") => Syntax::Yaml,
            Some("json" | "snap") => Syntax::Json,
            _ if matches!(text.trim_start().chars().next(), Some('{' | '[')) => Syntax::Json,
            _ => Syntax::Yaml,
        }
    }
}

fn yaml_options() -> serde_saphyr::Options {
    serde_saphyr::options! {
        strict_booleans: true,
        with_snippet: false,
    }
}

fn io_reason(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file".to_owned(),
        std::io::ErrorKind::PermissionDenied => "permission denied".to_owned(),
        std::io::ErrorKind::IsADirectory => "is a directory".to_owned(),
        _ => e.to_string(),
    }
}

/// serde_json's message without its " at line N column M" suffix.
fn json_message(e: &serde_json::Error) -> String {
    let text = e.to_string();
    let text = match text.rfind(" at line ") {
        Some(i) => text[..i].to_owned(),
        None => text,
    };
    format!("invalid JSON: {text}")
}

/// serde-saphyr's message in discloser's words: no location suffix (the position is reported
/// separately), no advice about the library's options, resource limits explained.
fn yaml_message(e: &serde_saphyr::Error) -> String {
    let full = e.without_snippet().to_string();
    if full.contains("budget breached") {
        let what = if full.contains("Depth") {
            "nesting is too deep"
        } else if full.contains("lias") {
            "too many alias expansions"
        } else {
            "the document expands to too many nodes (an alias bomb?)"
        };
        return format!("invalid YAML: over discloser's input limits: {what}");
    }
    if let Some(rest) = full.split("non-finite float ").nth(1) {
        // Was: "non-finite float `.nan` rejected by the configured policy" (the library's
        // option, not the user's problem).
        let value = rest.split(" rejected").next().unwrap_or(rest);
        return format!(
            "invalid YAML: {value} is not a finite number; JSON, and so a tool definition, cannot hold NaN or infinity"
        );
    }
    if full.contains("multiple YAML documents") {
        return "invalid YAML: the file holds several YAML documents (`---`); a file holds one"
            .to_owned();
    }
    let text = match full.find(" at line ") {
        Some(i) => &full[..i],
        None => &full[..],
    };
    let text = text.replace(", set DuplicateKeyPolicy in Options if acceptable", "");
    format!("invalid YAML: {text}")
}

/// A `help:` line for the common causes of a YAML syntax error, read from the parser's message
/// and the offending line (`col`, 1-based, is where the parser stopped): an unquoted `: ` in a
/// value, a tab in the indentation, an unclosed or misplaced quote, a value starting with a
/// character YAML reserves, and keys or items out of line.
fn yaml_help(message: &str, line: Option<&str>, col: usize) -> Option<String> {
    let line = line.unwrap_or_default();
    let at = line.chars().nth(col.saturating_sub(1));
    if message.contains("found a tab") || message.contains("tabs disallowed") {
        return Some("YAML forbids tabs for indentation; indent with spaces".to_owned());
    }
    if message.contains("mapping values are not allowed") {
        let key_end = line.find(": ").map(|i| line[..i].chars().count() + 1);
        return Some(if key_end.is_some_and(|end| col > end) {
            let (key, value) = split_entry(line)?;
            format!(
                "a value holding `: ` must be quoted: `{key}{}`",
                double_quoted(value)
            )
        } else {
            "this key is indented deeper than the keys before it; keys of one mapping line up"
                .to_owned()
        });
    }
    if message.contains("unclosed quote") {
        return Some(match at {
            Some('\'') => "the `'` opened here is never closed; end the value with `'` (a `'` inside it is written `''`)",
            _ => "the `\"` opened here is never closed; end the value with `\"` (a `\"` inside it is written `\\\"`)",
        }.to_owned());
    }
    if message.contains("trailing content after") {
        let (key, value) = split_entry(line)?;
        // `'It's here'`: the quotes around the whole value were meant, the one inside not.
        let quoted = match value.chars().next() {
            Some(q @ ('"' | '\'')) if value.len() > 2 && value.ends_with(q) => {
                let inner = &value[1..value.len() - 1];
                if q == '"' {
                    single_quoted(inner)
                } else {
                    double_quoted(inner)
                }
            }
            Some('"') => single_quoted(value),
            _ => double_quoted(value),
        };
        return Some(format!(
            "a quoted value ends at its closing quote; quote the whole value: `{key}{quoted}`"
        ));
    }
    if message.contains("unexpected character") || message.contains("unknown anchor") {
        let (key, value) = split_entry(line)?;
        let first = value.chars().next()?;
        let why = match first {
            '*' => "starts an alias",
            '&' => "starts an anchor",
            '!' => "starts a tag",
            '@' | '`' => "is reserved",
            '%' => "starts a directive",
            _ => return None,
        };
        return Some(format!(
            "in YAML `{first}` at the start of a value {why}; quote the value: `{key}{}`",
            double_quoted(value)
        ));
    }
    if message.contains("unclosed bracket") {
        return Some(
            "the list or mapping opened here is never closed; a value that is text and starts with `[` or `{` must be quoted"
                .to_owned(),
        );
    }
    if message.contains("did not find expected") {
        return Some(
            "check the indentation: the keys of one mapping, and the `-` items of one list, line up in one column"
                .to_owned(),
        );
    }
    None
}

/// A `key: value` line as its key part (`description: `, without indentation, `- ` kept) and
/// its value (trimmed); `None` when the line holds no `: `.
fn split_entry(line: &str) -> Option<(&str, &str)> {
    let line = line.trim_start();
    let colon = line.find(": ")?;
    let value = line[colon + 2..].trim();
    (!value.is_empty()).then(|| (&line[..colon + 2], value))
}

fn double_quoted(value: &str) -> String {
    format!("\"{}\"", value.replace('\\', "\\\\").replace('"', "\\\""))
}

fn single_quoted(value: &str) -> String {
    format!("'{}'", value.replace('\'', "''"))
}

/// serde_json reports a byte column; positions count characters.
fn json_position(text: &str, line: usize, byte_col: usize) -> Position {
    let line = line.max(1);
    let start: usize = text
        .split_inclusive('\n')
        .take(line - 1)
        .map(str::len)
        .sum();
    Position::of_offset(text, start + byte_col.saturating_sub(1))
}

/// serde_json stops just after a key's closing quote; point at its opening quote instead.
fn key_start(text: &str, after: Position) -> Position {
    let Some(line) = text.lines().nth(after.line - 1) else {
        return after;
    };
    let before: Vec<char> = line.chars().take(after.col.saturating_sub(1)).collect();
    let mut i = before.len();
    // Skip the closing quote, then find the unescaped opening one.
    i = i.saturating_sub(1);
    while i > 0 {
        i -= 1;
        if before[i] == '"' && (i == 0 || before[i - 1] != '\\') {
            return Position {
                line: after.line,
                col: i + 1,
            };
        }
    }
    after
}

/// The most values (objects, lists, strings, numbers, ...) one JSON file may hold. Parsed, a
/// value takes 50 to 100 bytes however short its text (`{}` is 2 bytes), so a 64 MiB file of
/// tiny values would need gigabytes: it is refused at the first value over the limit, which
/// bounds a parse to a few hundred megabytes. A realistic catalog holds about one value per
/// 20 bytes of text: 64 MiB of it is about 3.4 million values.
pub const MAX_JSON_VALUES: usize = 5_000_000;

thread_local! {
    /// Values parsed so far by the current [`SourceFile::parse`] of JSON on this thread.
    static JSON_VALUES: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// A JSON value whose objects must not repeat a key (serde_json keeps the last silently), and
/// whose file holds at most [`MAX_JSON_VALUES`] values.
struct StrictValue(Value);

impl<'de> Deserialize<'de> for StrictValue {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let count = JSON_VALUES.with(|n| {
            n.set(n.get() + 1);
            n.get()
        });
        if count > MAX_JSON_VALUES {
            return Err(de::Error::custom(format_args!(
                "more than {MAX_JSON_VALUES} values in one file, more than discloser loads: split the catalog into several files"
            )));
        }
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = StrictValue;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<StrictValue, E> {
                Ok(StrictValue(Value::Bool(v)))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<StrictValue, E> {
                Ok(StrictValue(Value::from(v)))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<StrictValue, E> {
                Ok(StrictValue(Value::from(v)))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<StrictValue, E> {
                Ok(StrictValue(Value::from(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<StrictValue, E> {
                Ok(StrictValue(Value::String(v.to_owned())))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<StrictValue, E> {
                Ok(StrictValue(Value::String(v)))
            }
            fn visit_unit<E: de::Error>(self) -> Result<StrictValue, E> {
                Ok(StrictValue(Value::Null))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<StrictValue, A::Error> {
                let mut items = Vec::new();
                while let Some(StrictValue(item)) = seq.next_element()? {
                    if items.len() == items.capacity() && items.len() >= 1 << 16 {
                        // A long list grows at most to what the value limit leaves room for:
                        // doubling 4 million items would ask for 600 MB to refuse the file.
                        let left = MAX_JSON_VALUES.saturating_sub(JSON_VALUES.with(|n| n.get()));
                        items.reserve_exact(items.len().min(left + 1));
                    }
                    items.push(item);
                }
                Ok(StrictValue(Value::Array(items)))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<StrictValue, A::Error> {
                let mut out = serde_json::Map::new();
                while let Some(key) = map.next_key::<String>()? {
                    // One hash per key: the entry is looked up once, before its value is read.
                    match out.entry(key) {
                        serde_json::map::Entry::Occupied(seen) => {
                            return Err(de::Error::custom(format_args!(
                                "duplicate key `{}`",
                                seen.key()
                            )));
                        }
                        serde_json::map::Entry::Vacant(slot) => {
                            let StrictValue(value) = map.next_value()?;
                            slot.insert(value);
                        }
                    }
                }
                Ok(StrictValue(Value::Object(out)))
            }
        }
        d.deserialize_any(V)
    }
}

/// What a JSON value is, for messages: "null", "a boolean", "a number", "a string", "a list"
/// or "an object". Catalogs, which may be YAML, call an object "a mapping" (their `kind_of`).
pub fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// Splits an RFC 6901 JSON pointer into unescaped segments.
pub fn pointer_segments(pointer: &str) -> impl Iterator<Item = String> + '_ {
    pointer
        .split('/')
        .skip(1)
        .map(|s| s.replace("~1", "/").replace("~0", "~"))
}

/// Appends one segment to a JSON pointer, escaping it.
pub fn pointer_push(pointer: &str, segment: impl std::fmt::Display) -> String {
    use std::fmt::Write as _;
    // One allocation in the common case: lint builds a pointer for every schema node it visits.
    let mut out = String::with_capacity(pointer.len() + 16);
    out.push_str(pointer);
    out.push('/');
    let start = out.len();
    write!(out, "{segment}").expect("writing to a String cannot fail");
    if out[start..].contains(['~', '/']) {
        let escaped = out[start..].replace('~', "~0").replace('/', "~1");
        out.truncate(start);
        out.push_str(&escaped);
    }
    out
}

/// Where a node is: a byte offset (JSON; turned into a position only when asked, so huge
/// one-line files stay linear) or a position (YAML, as the parser reports it).
#[derive(Clone, Copy, Debug)]
enum Loc {
    Offset(usize),
    Pos(Position),
}

/// The positions of a document's nodes down to `depth` levels below the root (deeper
/// collections are leaves), as a second parse for positions to that depth gives them
/// (`yaml_positions`, `json_positions`): recorded by the parse that read the value, as deep as
/// the file's tools (the items of a root list, or of the lists in a root mapping), so that
/// positioning a tool costs no second parse. YAML's fast path records one
/// (`yaml_events::fast_value`), and so does a large JSON file's split parse (`split::parse`).
#[derive(Debug)]
struct Outline {
    depth: usize,
    tree: PosNode,
}

/// The positions of a document's nodes, by JSON pointer segment.
#[derive(Debug)]
struct PosNode {
    at: Loc,
    kids: Kids,
}

#[derive(Debug)]
enum Kids {
    Leaf,
    Seq(Vec<PosNode>),
    Map(Vec<(String, Loc, PosNode)>),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn yaml(text: &str) -> SourceFile {
        SourceFile::from_text(text, PathBuf::from("t.yaml"))
    }

    fn json(text: &str) -> SourceFile {
        SourceFile::from_text(text, PathBuf::from("t.json"))
    }

    #[test]
    fn locates_yaml_keys_and_values() {
        let f = yaml("- name: a\n  parameters:\n    type: object\n    bogus: 1\n");
        assert_eq!(
            f.locate("/0/parameters/bogus", Target::Key),
            Position { line: 4, col: 5 }
        );
        assert_eq!(
            f.locate("/0/parameters/bogus", Target::Value),
            Position { line: 4, col: 12 }
        );
        assert_eq!(
            f.locate("/0/name", Target::Value),
            Position { line: 1, col: 9 }
        );
    }

    #[test]
    fn locates_json_keys_and_values() {
        let f = json("[\n  {\"name\": \"a\",\n   \"x~y/z\": [1, 2]}\n]");
        assert_eq!(
            f.locate("/0/x~0y~1z/1", Target::Value),
            Position { line: 3, col: 17 }
        );
        assert_eq!(
            f.locate("/0/x~0y~1z", Target::Key),
            Position { line: 3, col: 4 }
        );
    }

    #[test]
    fn missing_pointer_falls_back_to_nearest_node() {
        let f = yaml("a:\n  b: 1\n");
        assert_eq!(
            f.locate("/a/zzz", Target::Key),
            Position { line: 2, col: 3 }
        );
    }

    #[test]
    fn yaml_booleans_are_yaml_1_2() {
        let v = yaml("x: yes\ny: true\n").parse().unwrap();
        assert_eq!(v["x"], Value::String("yes".into()));
        assert_eq!(v["y"], Value::Bool(true));
    }

    #[test]
    fn syntax_errors_have_positions() {
        let e = json("{\n  \"a\": [1,\n}").parse().unwrap_err();
        assert_eq!(e.kind, ErrorKind::Syntax);
        assert_eq!(e.position.map(|p| p.line), Some(3));
        let e = yaml("a: 1\na: 2\n").parse().unwrap_err();
        assert!(e.message.contains("duplicate"), "{}", e.message);
        assert_eq!(e.position, Some(Position { line: 2, col: 1 }));
    }

    #[test]
    fn json_duplicate_keys_are_errors() {
        let e = json("{\n  \"name\": \"a\",\n  \"name\": \"b\"\n}")
            .parse()
            .unwrap_err();
        assert!(e.message.contains("duplicate key `name`"), "{}", e.message);
        assert_eq!(e.position.map(|p| p.line), Some(3));
    }

    #[test]
    fn json_error_columns_count_characters() {
        let text = "{\"d\": \"日本語\", \"x\": 1,,}";
        let pos = json(text).parse().unwrap_err().position.unwrap();
        assert_eq!(pos.line, 1);
        assert_eq!(text.chars().nth(pos.col - 1), Some(','));
    }

    #[test]
    fn yaml_positions_follow_keys_items_and_aliases() {
        let text = "base: &b\n  type: string\nuse: *b\nlist:\n  - a\n  - {k: v, 'q': \"w\"}\n? [complex]\n: x\n";
        let file = SourceFile::from_text(text, PathBuf::from("t.yaml"));
        let at = |pointer: &str, target| {
            let p = file.locate(pointer, target);
            (p.line, p.col)
        };
        assert_eq!(at("/base/type", Target::Value), (2, 9));
        assert_eq!(at("/base/type", Target::Key), (2, 3));
        assert_eq!(at("/list/1/q", Target::Key), (6, 12));
        assert_eq!(at("/list/1/q", Target::Value), (6, 17));
        // An alias is where it is used; what is inside it, where the anchor defines it.
        assert_eq!(at("/use", Target::Value), (3, 6));
        assert_eq!(at("/use/type", Target::Key), (2, 3));
        // A pointer that goes further than the text stops at the last node found.
        assert_eq!(at("/list/7", Target::Value), (5, 3));
        assert_eq!(at("/list/1/missing", Target::Value), (6, 5));
        // Many pointers at once give the same answers, and nothing is kept.
        let many = file.locate_all([("/base/type", Target::Value), ("/use", Target::Value)]);
        assert_eq!(
            many,
            [Position { line: 2, col: 9 }, Position { line: 3, col: 6 }]
        );
        let fresh = SourceFile::from_text(text, PathBuf::from("t.yaml"));
        assert_eq!(
            fresh.locate_all([("/list/0", Target::Value)]),
            [Position { line: 5, col: 5 }]
        );
        assert!(fresh.positions.get().is_none());
    }

    #[test]
    fn pointer_segments_are_escaped_both_ways() {
        assert_eq!(pointer_push("/a", "b"), "/a/b");
        assert_eq!(pointer_push("", 3), "/3");
        assert_eq!(pointer_push("/p", "x~y/z"), "/p/x~0y~1z");
        let segments: Vec<String> = pointer_segments("/p/x~0y~1z/~01").collect();
        assert_eq!(segments, ["p", "x~y/z", "~1"]);
    }

    #[test]
    fn non_finite_yaml_number_message_is_readable() {
        for (text, value) in [("x: .nan\n", "`.nan`"), ("x: [1e400]\n", "`1e400`")] {
            let e = yaml(text).parse().unwrap_err();
            assert!(!e.message.contains("policy"), "{}", e.message);
            assert!(e.message.contains(value), "{}", e.message);
            assert!(e.message.contains("not a finite number"), "{}", e.message);
        }
    }

    #[test]
    fn invalid_utf8_is_an_error_with_position() {
        let e = SourceFile::from_bytes(b"a: 1\nb: \xff\n".to_vec(), "x.yaml".into()).unwrap_err();
        assert_eq!(e.position, Some(Position { line: 2, col: 4 }));
    }
}

#[cfg(test)]
mod long_line_tests {
    use super::{CHAR_MARK_STEP, SourceFile};

    /// The marks give the same columns and windows as counting from the line start.
    #[test]
    fn positions_and_windows_in_a_long_line_match_counting() {
        let line = format!(
            "x\n{}X{}\n",
            "é".repeat(3 * CHAR_MARK_STEP),
            "ab".repeat(CHAR_MARK_STEP)
        );
        let file = SourceFile::from_text(line.clone(), "t.json".into());
        let second = &line[2..line.len() - 1];
        for (offset, _) in line.char_indices().step_by(997) {
            let pos = file.position_of(offset);
            let start = if offset < 2 { 0 } else { 2 };
            assert_eq!(pos.col, line[start..offset].chars().count() + 1);
        }
        let x = 3 * CHAR_MARK_STEP + 1;
        let (window, col) = file.line_window(2, x, 60).expect("a line");
        assert_eq!(window.chars().count(), 122);
        assert_eq!(window.chars().nth(col - 1), Some('X'));
        assert_eq!(
            file.line_window(2, 1, 60)
                .expect("a line")
                .0
                .chars()
                .count(),
            61
        );
        assert_eq!(file.line_window(2, 1, 1_000_000).expect("a line").0, second);
    }

    #[test]
    fn lines_for_a_batch_answer_as_the_file_does_and_are_not_kept() {
        let text = format!(
            "a: 1\nb: {}X\n\nc: [é, ü]\n",
            "é".repeat(3 * CHAR_MARK_STEP)
        );
        let batch = SourceFile::from_text(text.clone(), "t.yaml".into());
        let lines = batch.lines();
        let kept = SourceFile::from_text(text.clone(), "t.yaml".into());
        for (offset, _) in text.char_indices().step_by(97) {
            assert_eq!(lines.position_of(offset), kept.position_of(offset));
        }
        for (line, col) in [
            (1, 1),
            (2, 4),
            (2, 3 * CHAR_MARK_STEP + 4),
            (3, 1),
            (4, 5),
            (9, 1),
        ] {
            for context in [2, 60, 1_000_000] {
                assert_eq!(
                    lines.window(line, col, context),
                    kept.line_window(line, col, context)
                );
            }
        }
        drop(lines);
        assert!(batch.line_starts.get().is_none());
        assert!(kept.line_starts.get().is_some());
    }
}
