//! Reporters: every output format of `discloser lint`, as text. Findings arrive sorted.
//!
//! Fixes: `full` and `concise` mark a finding that `--fix` would fix with `[*]` (ruff's mark)
//! and count them after the summary; `json` carries each finding's `fixes`, `sarif` its
//! `fixes[].artifactChanges[].replacements[]`.
//!
//! Paths and messages quote user input: the text formats show its control characters as
//! visible ones ([`neutralise`]), so a name holding a line feed or an escape sequence never
//! starts a line of its own (a GitHub workflow command) nor drives the terminal; `github`
//! escapes values by GitHub's rules; SARIF's URIs are percent-encoded.

use discloser_core::printable::neutralise;
use serde_json::json;

use super::{Finding, RULES, Severity};

/// Output formats of `lint`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum Format {
    /// rustc-style: header, `--> path:line:col`, the source line with a caret, help.
    Full,
    /// One line per finding: `path:line:col: CODE [severity] message`.
    Concise,
    /// A JSON array of findings (documented in docs/commands.md).
    Json,
    /// GitHub Actions workflow commands (`::error file=...,line=...,col=...::...`).
    Github,
    /// SARIF 2.1.0, for GitHub code scanning.
    Sarif,
}

/// How findings are rendered.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options {
    /// Colour `full` output.
    pub color: bool,
    /// `--unsafe-fixes`: unsafe fixes count as fixable (`[*]`, the fixable count).
    pub unsafe_fixes: bool,
}

/// Renders findings in a format. `color` only affects `full`.
pub fn render(findings: &[Finding], format: Format, color: bool) -> String {
    let options = Options {
        color,
        unsafe_fixes: false,
    };
    render_with(findings, format, options)
}

/// [`render`] with every option.
pub fn render_with(findings: &[Finding], format: Format, options: Options) -> String {
    let mut out = Vec::new();
    write_with(&mut out, findings, format, options).expect("writing to memory cannot fail");
    String::from_utf8(out).expect("a report is text")
}

/// [`render_with`] written to `out`.
pub fn write_with(
    out: &mut dyn std::io::Write,
    findings: &[Finding],
    format: Format,
    options: Options,
) -> std::io::Result<()> {
    let mut writer = Writer::new(out, format, options);
    writer.write(findings)?;
    writer.finish()
}

/// A report written as the findings arrive, in sorted batches ([`crate::lint_each`]): the bytes
/// [`write_with`] writes for all of them, without holding them. What comes after the findings
/// (`full`'s and `concise`'s summary, the end of the JSON) needs only their counts.
pub struct Writer<'a> {
    // Serialising writes a few bytes at a time, and a line-buffered standard output would
    // make a system call of every line.
    out: std::io::BufWriter<&'a mut dyn std::io::Write>,
    format: Format,
    options: Options,
    counts: Counts,
    /// `sarif`: the log's text after its results, once the text before them is written.
    sarif_tail: Option<String>,
    /// One finding serialised, before it is indented into place (`json`, `sarif`).
    scratch: Vec<u8>,
}

/// What the summary lines say: how many findings, errors, and fixable ones.
#[derive(Default)]
struct Counts {
    findings: usize,
    errors: usize,
    /// Fixed by `--fix` (with `--unsafe-fixes` when it is given).
    fixable: usize,
    /// Fixed only with `--unsafe-fixes`, which is not given.
    unsafe_only: usize,
}

impl Counts {
    fn add(&mut self, findings: &[Finding], unsafe_fixes: bool) {
        for f in findings {
            self.findings += 1;
            self.errors += usize::from(f.severity == Severity::Error);
            if fixed_by_fix(f, unsafe_fixes) {
                self.fixable += 1;
            } else if fixed_by_fix(f, true) {
                self.unsafe_only += 1;
            }
        }
    }

    /// `Found 3 errors and 2 warnings.` / `All checks passed.`
    fn summary(&self) -> String {
        let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
        if self.findings == 0 {
            "All checks passed.\n".to_owned()
        } else {
            format!(
                "Found {} and {}.\n",
                plural(self.errors, "error"),
                plural(self.findings - self.errors, "warning")
            )
        }
    }

    /// `2 fixable with --fix (1 more with --unsafe-fixes).`, or nothing.
    fn fixable(&self) -> String {
        match (self.fixable, self.unsafe_only) {
            (0, 0) => String::new(),
            (now, 0) => format!("{now} fixable with --fix.\n"),
            (now, more) => format!("{now} fixable with --fix ({more} more with --unsafe-fixes).\n"),
        }
    }
}

/// Text that stands for the SARIF results while the log around them is laid out.
const SARIF_RESULTS: &str = "discloser:results";

impl<'a> Writer<'a> {
    /// A report in `format` to `out`.
    pub fn new(out: &'a mut dyn std::io::Write, format: Format, options: Options) -> Writer<'a> {
        Writer {
            out: std::io::BufWriter::with_capacity(1 << 16, out),
            format,
            options,
            counts: Counts::default(),
            sarif_tail: None,
            scratch: Vec::new(),
        }
    }

    /// Writes findings that come after those already written (sorted).
    pub fn write(&mut self, findings: &[Finding]) -> std::io::Result<()> {
        use std::io::Write as _;
        let first = self.counts.findings == 0;
        self.counts.add(findings, self.options.unsafe_fixes);
        match self.format {
            Format::Full => self.full(findings),
            Format::Concise => {
                for f in findings {
                    self.out
                        .write_all(concise_line(f, self.options.unsafe_fixes).as_bytes())?;
                }
                Ok(())
            }
            Format::Json => {
                for (k, f) in findings.iter().enumerate() {
                    self.out
                        .write_all(if first && k == 0 { b"[" } else { b"," })?;
                    serde_json::to_writer_pretty(&mut self.scratch, f)?;
                    self.element(1)?;
                }
                Ok(())
            }
            Format::Github => {
                for f in findings {
                    self.out.write_all(github_line(f).as_bytes())?;
                }
                Ok(())
            }
            Format::Sarif => {
                for (k, f) in findings.iter().enumerate() {
                    if first && k == 0 {
                        let (head, tail) = sarif_around_results();
                        self.out.write_all(head.as_bytes())?;
                        self.sarif_tail = Some(tail);
                    } else {
                        self.out.write_all(b",")?;
                    }
                    serde_json::to_writer_pretty(&mut self.scratch, &sarif_result(f))?;
                    self.element(4)?;
                }
                Ok(())
            }
        }
    }

    /// Writes what comes after the findings, and flushes.
    pub fn finish(mut self) -> std::io::Result<()> {
        use std::io::Write as _;
        let none = self.counts.findings == 0;
        match self.format {
            Format::Full | Format::Concise => {
                self.out.write_all(self.counts.summary().as_bytes())?;
                self.out.write_all(self.counts.fixable().as_bytes())?;
            }
            Format::Json if none => self.out.write_all(b"[]\n")?,
            Format::Json => self.out.write_all(b"\n]\n")?,
            Format::Github => {}
            Format::Sarif => match self.sarif_tail.take() {
                Some(tail) => self.out.write_all(tail.as_bytes())?,
                None => self.out.write_all(sarif(&[]).as_bytes())?,
            },
        }
        self.out.flush()
    }

    /// Writes the value serialised in `scratch` (pretty, at the top level) as an element of an
    /// array `depth` levels down, as pretty-printing the whole document would: on a new line,
    /// each line indented by `depth` more levels. A JSON text holds a line feed only between
    /// tokens (never inside a string), so every line feed starts such a line.
    fn element(&mut self, depth: usize) -> std::io::Result<()> {
        use std::io::Write as _;
        let indent = &b"                "[..2 * depth];
        for (k, line) in self.scratch.split(|&b| b == b'\n').enumerate() {
            if k > 0 || depth > 0 {
                self.out.write_all(b"\n")?;
                self.out.write_all(indent)?;
            }
            self.out.write_all(line)?;
        }
        self.scratch.clear();
        Ok(())
    }

    /// `full`: each finding renders alone, so chunks of them render on several threads, and
    /// are written in order.
    fn full(&mut self, findings: &[Finding]) -> std::io::Result<()> {
        use std::io::Write as _;
        /// Chunks rendered at once (in parallel), then written in order and dropped.
        const CHUNKS_AT_ONCE: usize = 64;
        // Chunks of 16 to 256 findings: enough chunks to share out, few enough to be cheap.
        let size = (findings.len() / CHUNKS_AT_ONCE).clamp(16, 256);
        let chunks: Vec<&[Finding]> = findings.chunks(size).collect();
        let options = self.options;
        for batch in chunks.chunks(CHUNKS_AT_ONCE) {
            let rendered =
                crate::catalog::parallel::map(batch.to_vec(), |chunk| full_chunk(chunk, options));
            for text in rendered {
                self.out.write_all(text.as_bytes())?;
            }
        }
        Ok(())
    }
}

/// Whether `--fix` fixes `f` (with `--unsafe-fixes` when `unsafe_fixes`): a fix that applies,
/// in a file `--fix` writes.
fn fixed_by_fix(f: &Finding, unsafe_fixes: bool) -> bool {
    f.fixes
        .iter()
        .any(|x| x.applies(unsafe_fixes) && matches!(x.target, crate::FixTarget::Writable { .. }))
}

/// `[*] ` before the message of a finding `--fix` fixes.
fn mark(f: &Finding, unsafe_fixes: bool) -> &'static str {
    if fixed_by_fix(f, unsafe_fixes) {
        "[*] "
    } else {
        ""
    }
}

/// `2 fixable with --fix (1 more with --unsafe-fixes).`, or nothing when nothing is fixable.
/// Fixes in files `--fix` does not write (a provider's format, a lock file) do not count.
pub fn fixable(findings: &[Finding], unsafe_fixes: bool) -> String {
    let mut counts = Counts::default();
    counts.add(findings, unsafe_fixes);
    counts.fixable()
}

fn location(f: &Finding) -> String {
    match (f.line, f.column) {
        (Some(l), Some(c)) => format!("{}:{l}:{c}", f.path.display()),
        _ => f.path.display().to_string(),
    }
}

fn full_chunk(findings: &[Finding], options: Options) -> String {
    use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet};
    let renderer = if options.color {
        Renderer::styled()
    } else {
        Renderer::plain()
    };
    let mut out = String::new();
    for f in findings {
        let level = match f.severity {
            Severity::Error => Level::ERROR,
            Severity::Warning => Level::WARNING,
        };
        // The location is shown once: on the snippet's `-->` line, or in the title when there
        // is no snippet.
        let snippet = f.line.is_some() && f.source_column.is_some() && f.source_line.is_some();
        let mark = mark(f, options.unsafe_fixes);
        let title = if snippet {
            format!("{mark}{}", neutralise(&f.message))
        } else {
            format!(
                "{mark}{}",
                neutralise(&format!("{}: {}", location(f), f.message))
            )
        };
        let path = f.path.display().to_string();
        let mut group = Group::with_title(level.primary_title(&title).id(f.code));
        if let (Some(line), Some(col), Some(text)) = (f.line, f.source_column, &f.source_line) {
            let start: usize = text.chars().take(col - 1).map(char::len_utf8).sum();
            let width = text[start..].chars().next().map_or(0, char::len_utf8);
            group = group.element(
                Snippet::source(text.as_str())
                    .line_start(line)
                    .path(&path)
                    .annotation(
                        AnnotationKind::Primary
                            .span(start..start + width)
                            .label(f.rule),
                    ),
            );
        }
        if let Some(help) = &f.help {
            group = group.element(Level::HELP.message(neutralise(help)));
        }
        out.push_str(renderer.render(&[group]).to_string().trim_end());
        out.push_str("\n\n");
    }
    out
}

/// `Found 3 errors and 2 warnings.` / `All checks passed.`
pub fn summary(findings: &[Finding]) -> String {
    let mut counts = Counts::default();
    counts.add(findings, false);
    counts.summary()
}

/// `path:line:col: CODE [severity] message`, and a line feed.
fn concise_line(f: &Finding, unsafe_fixes: bool) -> String {
    format!(
        "{}: {} [{}] {}{}\n",
        neutralise(&location(f)),
        f.code,
        f.severity.as_str(),
        mark(f, unsafe_fixes),
        neutralise(&f.message)
    )
}

/// A GitHub workflow command; `%`, CR, LF (and in properties `:` and `,`) are escaped, other
/// control characters shown as visible ones.
fn github_line(f: &Finding) -> String {
    let data = |s: &str| {
        let escaped = s
            .replace('%', "%25")
            .replace('\r', "%0D")
            .replace('\n', "%0A");
        neutralise(&escaped).into_owned()
    };
    let prop = |s: &str| data(s).replace(':', "%3A").replace(',', "%2C");
    let level = match f.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    };
    let mut props = format!("file={}", prop(&f.path.display().to_string()));
    if let Some(line) = f.line {
        props.push_str(&format!(",line={line}"));
    }
    if let Some(col) = f.column {
        props.push_str(&format!(",col={col}"));
    }
    props.push_str(&format!(
        ",title={}",
        prop(&format!("{} {}", f.code, f.rule))
    ));
    format!("::{level} {props}::{}\n", data(&f.message))
}

/// The SARIF log of `results`, as text.
fn sarif(results: &[serde_json::Value]) -> String {
    let mut out = serde_json::to_string_pretty(&sarif_log(results)).expect("SARIF serialises");
    out.push('\n');
    out
}

/// The SARIF log's text before its first result and after its last (with the rules, which
/// come before the results in it or after them), laid out around a stand-in result.
fn sarif_around_results() -> (String, String) {
    let text = sarif(&[serde_json::Value::from(SARIF_RESULTS)]);
    let stand_in = format!("\"{SARIF_RESULTS}\"");
    let at = text
        .find(&stand_in)
        .expect("the stand-in result is in the log");
    // The result is written on its own line, indented: what the stand-in's line holds before it
    // is written with each result.
    let head = text[..at].trim_end_matches(' ').trim_end_matches('\n');
    (head.to_owned(), text[at + stand_in.len()..].to_owned())
}

/// The SARIF log of `results`: the run, its tool and rules.
fn sarif_log(results: &[serde_json::Value]) -> serde_json::Value {
    let rules: Vec<_> = RULES
        .iter()
        .map(|r| {
            json!({
                "id": r.code,
                "name": r.name,
                "shortDescription": {"text": r.summary()},
                "fullDescription": {"text": r.summary()},
                "help": {"text": r.doc_text(), "markdown": r.doc_text()},
                "defaultConfiguration": {"level": r.severity.as_str()},
            })
        })
        .collect();
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "discloser",
                "informationUri": "https://github.com/discloser/discloser",
                "semanticVersion": env!("CARGO_PKG_VERSION"),
                "rules": rules,
            }},
            "results": results,
            // Columns count characters, as everywhere in discloser (SARIF's default is UTF-16).
            "columnKind": "unicodeCodePoints",
        }],
    })
}

/// A finding as a SARIF result.
fn sarif_result(f: &Finding) -> serde_json::Value {
    let rule_index = RULES.iter().position(|r| r.code == f.code).unwrap_or(0);
    let mut region = serde_json::Map::new();
    if let Some(line) = f.line {
        region.insert("startLine".into(), line.into());
    }
    if let Some(col) = f.column {
        region.insert("startColumn".into(), col.into());
    }
    let mut physical = json!({"artifactLocation": {"uri": uri(&f.path)}});
    if !region.is_empty() {
        physical["region"] = serde_json::Value::Object(region);
    }
    let mut message = f.message.clone();
    if let Some(help) = &f.help {
        message.push_str(&format!("\nhelp: {help}"));
    }
    let mut result = json!({
        "ruleId": f.code,
        "ruleIndex": rule_index,
        "level": f.severity.as_str(),
        "message": {"text": message},
        "locations": [{"physicalLocation": physical}],
    });
    if !f.fixes.is_empty() {
        result["fixes"] = f.fixes.iter().map(sarif_fix).collect();
    }
    result
}

/// A SARIF `fix`: its edits grouped by file, each a replacement of a region (`endColumn` is
/// the column after the region; an empty region inserts).
fn sarif_fix(fix: &crate::Fix) -> serde_json::Value {
    let mut changes: Vec<(&std::path::Path, Vec<serde_json::Value>)> = Vec::new();
    for e in &fix.edits {
        let replacement = json!({
            "deletedRegion": {
                "startLine": e.start.line,
                "startColumn": e.start.col,
                "endLine": e.end.line,
                "endColumn": e.end.col,
            },
            "insertedContent": {"text": e.content},
        });
        match changes.iter_mut().find(|(p, _)| *p == e.path.as_path()) {
            Some((_, replacements)) => replacements.push(replacement),
            None => changes.push((&e.path, vec![replacement])),
        }
    }
    json!({
        "description": {"text": fix.message},
        "artifactChanges": changes
            .into_iter()
            .map(|(path, replacements)| json!({
                "artifactLocation": {"uri": uri(path)},
                "replacements": replacements,
            }))
            .collect::<Vec<_>>(),
        "properties": {"applicability": fix.applicability},
    })
}

/// A relative URI reference with `/` separators, as code scanning expects: every byte but the
/// unreserved characters of RFC 3986 and `/` is percent-encoded (spaces, `%`, control
/// characters, `#`, `?`, non-ASCII UTF-8).
fn uri(path: &std::path::Path) -> String {
    use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};
    const PATH: &AsciiSet = &NON_ALPHANUMERIC
        .remove(b'-')
        .remove(b'.')
        .remove(b'_')
        .remove(b'~')
        .remove(b'/');
    let text = path.to_string_lossy().replace('\\', "/");
    let text = text.trim_start_matches("./");
    utf8_percent_encode(text, PATH).to_string()
}
