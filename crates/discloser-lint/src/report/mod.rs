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
    match format {
        Format::Full => {
            let mut out = Vec::new();
            write_full(&mut out, findings, options).expect("writing to memory cannot fail");
            String::from_utf8(out).expect("a report is text")
        }
        Format::Concise => concise(findings, options),
        Format::Json => json(findings),
        Format::Github => github(findings),
        Format::Sarif => sarif(findings),
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
    let now = findings
        .iter()
        .filter(|f| fixed_by_fix(f, unsafe_fixes))
        .count();
    let more = findings
        .iter()
        .filter(|f| !fixed_by_fix(f, unsafe_fixes) && fixed_by_fix(f, true))
        .count();
    match (now, more) {
        (0, 0) => String::new(),
        (now, 0) => format!("{now} fixable with --fix.\n"),
        (now, more) => format!("{now} fixable with --fix ({more} more with --unsafe-fixes).\n"),
    }
}

fn location(f: &Finding) -> String {
    match (f.line, f.column) {
        (Some(l), Some(c)) => format!("{}:{l}:{c}", f.path.display()),
        _ => f.path.display().to_string(),
    }
}

/// [`render_with`] written to `out`. The `full` format is written as it is rendered, a batch
/// at a time (226,000 findings make 74 MB of it, never held whole), and `json` as it is
/// serialised (140 MB for those findings); the others are rendered whole first.
pub fn write_with(
    out: &mut dyn std::io::Write,
    findings: &[Finding],
    format: Format,
    options: Options,
) -> std::io::Result<()> {
    match format {
        Format::Full => write_full(out, findings, options),
        Format::Json => write_json(out, findings),
        _ => out.write_all(render_with(findings, format, options).as_bytes()),
    }
}

/// [`json`] written to `out` as it is serialised: the same bytes.
fn write_json(out: &mut dyn std::io::Write, findings: &[Finding]) -> std::io::Result<()> {
    use std::io::Write as _;
    // Serialising writes a few bytes at a time, and a line-buffered standard output would
    // make a system call of every line.
    let mut out = std::io::BufWriter::with_capacity(1 << 16, out);
    serde_json::to_writer_pretty(&mut out, findings)?;
    out.write_all(b"\n")?;
    out.flush()
}

fn write_full(
    out: &mut dyn std::io::Write,
    findings: &[Finding],
    options: Options,
) -> std::io::Result<()> {
    /// Chunks rendered at once (in parallel), then written in order and dropped.
    const CHUNKS_AT_ONCE: usize = 64;
    // Each finding renders alone, so chunks of them render on several threads; the chunks are
    // written in order.
    // Chunks of 16 to 256 findings: enough chunks to share out, few enough to be cheap.
    let size = (findings.len() / 256).clamp(16, 256);
    let chunks: Vec<&[Finding]> = findings.chunks(size).collect();
    for batch in chunks.chunks(CHUNKS_AT_ONCE) {
        let rendered =
            crate::catalog::parallel::map(batch.to_vec(), |chunk| full_chunk(chunk, options));
        for text in rendered {
            out.write_all(text.as_bytes())?;
        }
    }
    out.write_all(summary(findings).as_bytes())?;
    out.write_all(fixable(findings, options.unsafe_fixes).as_bytes())
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
    let errors = findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .count();
    let warnings = findings.len() - errors;
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    if findings.is_empty() {
        "All checks passed.\n".to_owned()
    } else {
        format!(
            "Found {} and {}.\n",
            plural(errors, "error"),
            plural(warnings, "warning")
        )
    }
}

fn concise(findings: &[Finding], options: Options) -> String {
    let mut out = String::new();
    for f in findings {
        out.push_str(&format!(
            "{}: {} [{}] {}{}\n",
            neutralise(&location(f)),
            f.code,
            f.severity.as_str(),
            mark(f, options.unsafe_fixes),
            neutralise(&f.message)
        ));
    }
    out.push_str(&summary(findings));
    out.push_str(&fixable(findings, options.unsafe_fixes));
    out
}

fn json(findings: &[Finding]) -> String {
    let mut out = serde_json::to_string_pretty(findings).expect("findings serialise");
    out.push('\n');
    out
}

/// GitHub workflow commands; `%`, CR, LF (and in properties `:` and `,`) are escaped, other
/// control characters shown as visible ones.
fn github(findings: &[Finding]) -> String {
    let data = |s: &str| {
        let escaped = s
            .replace('%', "%25")
            .replace('\r', "%0D")
            .replace('\n', "%0A");
        neutralise(&escaped).into_owned()
    };
    let prop = |s: &str| data(s).replace(':', "%3A").replace(',', "%2C");
    let mut out = String::new();
    for f in findings {
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
        out.push_str(&format!("::{level} {props}::{}\n", data(&f.message)));
    }
    out
}

fn sarif(findings: &[Finding]) -> String {
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
    let results: Vec<_> = findings
        .iter()
        .map(|f| {
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
        })
        .collect();
    let log = json!({
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
    });
    let mut out = serde_json::to_string_pretty(&log).expect("SARIF serialises");
    out.push('\n');
    out
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
