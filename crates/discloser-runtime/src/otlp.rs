//! OpenTelemetry GenAI traces exported as OTLP JSON, read as the turns of [`crate::trace`].
//!
//! A trace file is OTLP when its content says so, whatever its extension: one JSON document
//! with `resourceSpans` at the top (pretty-printed or not), or the OTLP file exporter's JSON
//! Lines, one such export per line. The spans follow the GenAI semantic conventions
//! (`gen_ai_latest_experimental`):
//!
//! - a **turn** is a `chat` span (`gen_ai.operation.name` = `chat`): `gen_ai.request.model`
//!   (else `gen_ai.response.model`), `gen_ai.usage.input_tokens`, the latency from its start and
//!   end, and the user's message: the text parts of the last `user` message of
//!   `gen_ai.input.messages` (joined by a newline), when recorded;
//! - its **calls** are the `execute_tool` spans whose `parentSpanId` is the chat span, ordered
//!   by start time, then span id: `gen_ai.tool.name` (required), `gen_ai.tool.call.arguments`
//!   (a JSON string, or a structured value), `ok` unless the status code is 2 (ERROR), the
//!   status message as the error;
//! - an `execute_tool` span whose parent is not a chat span (agent frameworks make tool and
//!   chat spans siblings under an agent span) belongs to the latest chat span of the same trace
//!   that started at or before it, and with none, is a turn of its own (no model, tokens or
//!   message);
//! - the **session** is `gen_ai.conversation.id`, else the `traceId`; sessions are ordered by
//!   their first turn's start time, then name, and turns by start time, then span id, so the
//!   turns come out the same whatever the order of the spans in the file;
//! - outside the conventions, `discloser.tool.origin` (a call's origin; absent: not recorded,
//!   as in JSON Lines, for `trace --classify`), `discloser.profile` and `discloser.turn` (else
//!   the turn's place in its session).
//!
//! Other spans are skipped. A turn is placed at the line of its span (of its export, in JSON
//! Lines). Malformed OTLP (a wrong type, arguments that are not JSON, an `execute_tool` span
//! without a tool name, an export without a single GenAI span) is a [`LoadError`] at
//! `file:line:col`.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::input::on_line;
use super::resolve::Origin;
use super::trace::{Call, MAX_COUNT, TracedTurn, Turn};
use crate::diagnostic::{ErrorKind, LoadError, Position, did_you_mean};
use crate::source::{SourceFile, Syntax, Target, json_kind, pointer_push};

/// An OTLP export found in a trace file by [`detect`].
#[derive(Debug)]
pub(crate) enum Export {
    /// The whole file is one export, parsed (`json`: a copy of the file read as JSON, when the
    /// file's own syntax is not).
    Document {
        value: Value,
        json: Option<SourceFile>,
    },
    /// One export per line; the first, parsed, and its 1-based line.
    Lines { line: usize, first: Value },
}

/// Whether `source` holds OTLP JSON. The first non-blank line is parsed on its own: an export
/// there means JSON Lines of exports, any other JSON value a trace of turns. A first line that
/// is not JSON by itself may open a document spanning lines: it is OTLP when the whole text is
/// an object with `resourceSpans` (a syntax error in a text that opens with `{` and names
/// `resourceSpans` is that document's error). `None`: read the file as turns.
pub(crate) fn detect(source: &SourceFile) -> Result<Option<Export>, LoadError> {
    let first = source
        .text
        .split('\n')
        .enumerate()
        .map(|(i, line)| (i, line.strip_suffix('\r').unwrap_or(line)))
        .find(|(_, line)| !line.trim().is_empty());
    let Some((index, line)) = first else {
        return Ok(None);
    };
    if let Ok(value) = json_source(line.to_owned(), source).parse() {
        return Ok(is_export(&value).then_some(Export::Lines {
            line: index + 1,
            first: value,
        }));
    }
    if !source.text.trim_start().starts_with('{') || !source.text.contains("\"resourceSpans\"") {
        return Ok(None);
    }
    let json = (source.syntax != Syntax::Json).then(|| json_source(source.text.clone(), source));
    let value = json.as_ref().unwrap_or(source).parse()?;
    Ok(is_export(&value).then_some(Export::Document { value, json }))
}

fn is_export(value: &Value) -> bool {
    value
        .as_object()
        .is_some_and(|map| map.contains_key("resourceSpans"))
}

fn json_source(text: String, like: &SourceFile) -> SourceFile {
    let mut source = SourceFile::from_text(text, like.path.clone());
    source.syntax = Syntax::Json;
    source
}

/// The turns of an OTLP trace file; `file` is its index in [`crate::trace::Trace::sources`].
pub(crate) fn parse(
    source: &SourceFile,
    export: Export,
    file: usize,
) -> Result<Vec<TracedTurn>, LoadError> {
    let mut spans = Vec::new();
    match export {
        Export::Document { value, json } => {
            let doc = json.as_ref().unwrap_or(source);
            read_export(doc, &value, None, &mut spans)?;
            if spans.is_empty() {
                return Err(no_spans(doc, doc.locate("/resourceSpans", Target::Value)));
            }
        }
        Export::Lines { line, first } => {
            let at = read_lines(source, line, &first, &mut spans)?;
            if spans.is_empty() {
                return Err(no_spans(source, at));
            }
        }
    }
    assemble(source, spans, file)
}

/// An export without a single GenAI span, reported at its `resourceSpans` (`at`): a trace of
/// no turns would pass every gate silently.
fn no_spans(source: &SourceFile, at: Position) -> LoadError {
    LoadError::at(
        ErrorKind::Shape,
        &source.path,
        &source.text,
        at,
        "the OTLP export has no GenAI span (`gen_ai.operation.name` `chat` or `execute_tool`): no turn to read",
    )
}

/// Reads JSON Lines of exports, the first (at `line`) already parsed; returns where the first
/// export's `resourceSpans` is.
fn read_lines(
    source: &SourceFile,
    line: usize,
    first: &Value,
    spans: &mut Vec<Span>,
) -> Result<Position, LoadError> {
    let one = json_source(
        source.line_text(line).unwrap_or_default().to_owned(),
        source,
    );
    read_export(&one, first, Some((source, line)), spans)?;
    let at = Position {
        line,
        col: one.locate("/resourceSpans", Target::Value).col,
    };
    for (i, text) in source.text.split('\n').enumerate().skip(line) {
        let text = text.strip_suffix('\r').unwrap_or(text);
        if text.trim().is_empty() {
            continue;
        }
        let one = json_source(text.to_owned(), source);
        let value = one.parse().map_err(|e| on_line(&e, source, i + 1))?;
        if !is_export(&value) {
            let e = one.error_at(
                ErrorKind::Shape,
                "",
                Target::Value,
                "expected an OTLP export (an object with `resourceSpans`) on every line, as on the first",
            );
            return Err(on_line(&e, source, i + 1));
        }
        read_export(&one, &value, Some((source, i + 1)), spans)?;
    }
    Ok(at)
}

/// A positioned fault found while decoding, turned into a [`LoadError`] by the caller, who
/// knows the file (and line) the pointer is in.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Fault {
    pointer: String,
    message: String,
    help: Option<String>,
}

impl Fault {
    fn new(pointer: &str, message: impl Into<String>) -> Fault {
        Fault {
            pointer: pointer.to_owned(),
            message: message.into(),
            help: None,
        }
    }

    fn with_help(mut self, help: impl Into<String>) -> Fault {
        self.help = Some(help.into());
        self
    }

    fn into_error(self, doc: &SourceFile, line: Option<(&SourceFile, usize)>) -> LoadError {
        let mut e = doc.error_at(ErrorKind::Shape, &self.pointer, Target::Value, self.message);
        if let Some(help) = self.help {
            e = e.with_help(help);
        }
        match line {
            Some((whole, line)) => on_line(&e, whole, line),
            None => e,
        }
    }
}

/// One GenAI span, decoded.
#[derive(Clone, Debug)]
struct Span {
    trace_id: String,
    span_id: String,
    parent: String,
    start: u64,
    /// Where the span is written (in the whole file).
    at: Position,
    /// Where its `discloser.profile` is written.
    profile_at: Option<Position>,
    conversation: Option<String>,
    profile: Option<String>,
    turn: Option<u64>,
    what: What,
}

#[derive(Clone, Debug)]
enum What {
    Chat {
        model: Option<String>,
        input_tokens: Option<u64>,
        latency_ms: Option<u64>,
        user: Option<String>,
    },
    Tool(Call),
}

/// Reads the GenAI spans of one export (`doc`, parsed as `value`); `line`: the whole file and
/// the line `doc` is, for JSON Lines.
fn read_export(
    doc: &SourceFile,
    value: &Value,
    line: Option<(&SourceFile, usize)>,
    out: &mut Vec<Span>,
) -> Result<(), LoadError> {
    let fail = |f: Fault| f.into_error(doc, line);
    let mut found: Vec<(Span, String, Option<String>)> = Vec::new();
    walk(value, |span, pointer| {
        if let Some((decoded, profile_pointer)) = read_span(span, pointer)? {
            found.push((decoded, pointer.to_owned(), profile_pointer));
        }
        Ok(())
    })
    .map_err(fail)?;
    let requests: Vec<&str> = found
        .iter()
        .flat_map(|(_, span, profile)| std::iter::once(span.as_str()).chain(profile.as_deref()))
        .collect();
    let mut positions = doc
        .locate_all(requests.into_iter().map(|p| (p, Target::Value)))
        .into_iter()
        .map(|p| match line {
            Some((_, line)) => Position { line, col: p.col },
            None => p,
        });
    for (mut span, _, profile) in found {
        span.at = positions.next().expect("one position per span");
        if profile.is_some() {
            span.profile_at = positions.next();
        }
        out.push(span);
    }
    Ok(())
}

/// Calls `each(span, pointer)` for every span of an export, checking the shape around them.
fn walk(
    value: &Value,
    mut each: impl FnMut(&Value, &str) -> Result<(), Fault>,
) -> Result<(), Fault> {
    let root = object(value, "", "an OTLP export")?;
    let resources = list(root, "", "resourceSpans", "a list of resource spans")?;
    for (r, resource) in resources.iter().enumerate() {
        let at = pointer_push("/resourceSpans", r);
        let resource = object(resource, &at, "a resource's spans")?;
        let scopes = list(resource, &at, "scopeSpans", "a list of scope spans")?;
        for (s, scope) in scopes.iter().enumerate() {
            let at = pointer_push(&pointer_push(&at, "scopeSpans"), s);
            let scope = object(scope, &at, "a scope's spans")?;
            let spans = list(scope, &at, "spans", "a list of spans")?;
            for (k, span) in spans.iter().enumerate() {
                each(span, &pointer_push(&pointer_push(&at, "spans"), k))?;
            }
        }
    }
    Ok(())
}

fn object<'a>(
    value: &'a Value,
    pointer: &str,
    what: &str,
) -> Result<&'a Map<String, Value>, Fault> {
    value.as_object().ok_or_else(|| {
        Fault::new(
            pointer,
            format!("expected {what} (an object), found {}", json_kind(value)),
        )
    })
}

/// `map[key]` as a list; absent (or `null`) is empty.
fn list<'a>(
    map: &'a Map<String, Value>,
    pointer: &str,
    key: &str,
    what: &str,
) -> Result<&'a [Value], Fault> {
    match map.get(key) {
        None | Some(Value::Null) => Ok(&[]),
        Some(Value::Array(items)) => Ok(items),
        Some(other) => Err(Fault::new(
            &pointer_push(pointer, key),
            format!("`{key}` must be {what}, found {}", json_kind(other)),
        )),
    }
}

/// `value`, the field `key` of the object at `pointer`, as a string; `whose` names the object
/// in the message ("an attribute's").
fn expect_str<'a>(
    value: &'a Value,
    pointer: &str,
    whose: &str,
    key: &str,
) -> Result<&'a str, Fault> {
    value.as_str().ok_or_else(|| {
        Fault::new(
            &pointer_push(pointer, key),
            format!(
                "{whose} `{key}` must be a string, found {}",
                json_kind(value)
            ),
        )
    })
}

/// An attribute: its value and the pointer to it.
type Attributes = BTreeMap<String, (AnyValue, String)>;

/// Decodes a span; `None` for a span that is neither `chat` nor `execute_tool`. The second
/// value is the pointer to its `discloser.profile`.
fn read_span(span: &Value, pointer: &str) -> Result<Option<(Span, Option<String>)>, Fault> {
    let map = object(span, pointer, "a span")?;
    let attributes = attributes(map, pointer)?;
    let Some(operation) = string(&attributes, "gen_ai.operation.name")? else {
        return Ok(None);
    };
    if operation != "chat" && operation != "execute_tool" {
        return Ok(None);
    }
    let id = |key: &str, required: bool| -> Result<String, Fault> {
        match map.get(key) {
            Some(Value::String(id)) if !id.is_empty() || !required => Ok(id.clone()),
            None if !required => Ok(String::new()),
            Some(Value::String(_)) | None => Err(Fault::new(
                pointer,
                format!("a `{operation}` span needs its `{key}`"),
            )),
            Some(other) => Err(Fault::new(
                &pointer_push(pointer, key),
                format!("`{key}` must be a hex string, found {}", json_kind(other)),
            )),
        }
    };
    let (trace_id, span_id, parent) = (
        id("traceId", true)?,
        id("spanId", true)?,
        id("parentSpanId", false)?,
    );
    let start = nanos(map, pointer, "startTimeUnixNano")?;
    let end = nanos(map, pointer, "endTimeUnixNano")?;
    let what = match operation.as_str() {
        "chat" => What::Chat {
            model: match string(&attributes, "gen_ai.request.model")? {
                Some(model) => Some(model),
                None => string(&attributes, "gen_ai.response.model")?,
            },
            input_tokens: count(&attributes, "gen_ai.usage.input_tokens")?,
            latency_ms: latency(pointer, start, end)?,
            user: user_message(&attributes)?,
        },
        _ => What::Tool(call(map, pointer, &attributes)?),
    };
    let profile_pointer = attributes
        .get("discloser.profile")
        .map(|(_, at)| pointer_push(at, "stringValue"));
    let decoded = Span {
        trace_id,
        span_id,
        parent,
        start: start.unwrap_or(0),
        at: Position::START,
        profile_at: None,
        conversation: string(&attributes, "gen_ai.conversation.id")?,
        profile: string(&attributes, "discloser.profile")?,
        turn: count(&attributes, "discloser.turn")?,
        what,
    };
    Ok(Some((decoded, profile_pointer)))
}

/// The span's attributes by key (every value decoded, so a malformed one is an error even
/// where it is not read).
fn attributes(span: &Map<String, Value>, pointer: &str) -> Result<Attributes, Fault> {
    let mut out = Attributes::new();
    let at = pointer_push(pointer, "attributes");
    let items = list(span, pointer, "attributes", "a list of attributes")?;
    for (i, item) in items.iter().enumerate() {
        let at = pointer_push(&at, i);
        let map = object(item, &at, "an attribute (`key` and `value`)")?;
        let Some(key) = map.get("key") else {
            return Err(Fault::new(&at, "an attribute needs a `key`"));
        };
        let key = expect_str(key, &at, "an attribute's", "key")?;
        let value_at = pointer_push(&at, "value");
        let value = match map.get("value") {
            None | Some(Value::Null) => AnyValue::Empty,
            Some(value) => decode(value, &value_at)?,
        };
        if out.insert(key.to_owned(), (value, value_at)).is_some() {
            return Err(Fault::new(
                &at,
                format!("attribute `{key}` appears twice in the span"),
            ));
        }
    }
    Ok(out)
}

/// A time in nanoseconds since the epoch (`fixed64`: a decimal string, or a number); absent or
/// `0` is not recorded.
fn nanos(span: &Map<String, Value>, pointer: &str, key: &str) -> Result<Option<u64>, Fault> {
    let value = match span.get(key) {
        None | Some(Value::Null) => return Ok(None),
        Some(Value::String(text)) => text.parse::<u64>().ok(),
        Some(Value::Number(n)) => n.as_u64(),
        Some(_) => None,
    };
    match value {
        Some(0) => Ok(None),
        Some(n) => Ok(Some(n)),
        None => Err(Fault::new(
            &pointer_push(pointer, key),
            format!(
                "`{key}` must be nanoseconds since the epoch (a decimal string), found `{}`",
                span[key]
            ),
        )),
    }
}

fn latency(pointer: &str, start: Option<u64>, end: Option<u64>) -> Result<Option<u64>, Fault> {
    let (Some(start), Some(end)) = (start, end) else {
        return Ok(None);
    };
    let at = pointer_push(pointer, "endTimeUnixNano");
    let Some(nanos) = end.checked_sub(start) else {
        return Err(Fault::new(
            &at,
            format!("the span ends (`{end}`) before it starts (`{start}`)"),
        ));
    };
    let ms = nanos / 1_000_000 + u64::from(nanos % 1_000_000 >= 500_000);
    if ms > MAX_COUNT {
        return Err(Fault::new(
            &at,
            format!("the span lasts `{ms}` ms, out of range: at most 1000000000000 (10^12)"),
        ));
    }
    Ok(Some(ms))
}

/// The call of an `execute_tool` span.
fn call(span: &Map<String, Value>, pointer: &str, attributes: &Attributes) -> Result<Call, Fault> {
    let Some(name) = string(attributes, "gen_ai.tool.name")? else {
        return Err(Fault::new(
            &pointer_push(pointer, "attributes"),
            "an `execute_tool` span needs `gen_ai.tool.name`, the tool called",
        ));
    };
    let arguments = match attributes.get("gen_ai.tool.call.arguments") {
        None | Some((AnyValue::Empty, _)) => None,
        Some((AnyValue::String(text), at)) => {
            Some(json_text(text, at, "gen_ai.tool.call.arguments")?)
        }
        Some((structured @ (AnyValue::KvList(_) | AnyValue::Array(_)), _)) => {
            Some(structured.to_json())
        }
        Some((other, at)) => {
            return Err(wrong_type(
                "gen_ai.tool.call.arguments",
                other,
                at,
                "a JSON string (`stringValue`)",
            ));
        }
    };
    let origin = match attributes.get("discloser.tool.origin") {
        None | Some((AnyValue::Empty, _)) => None,
        Some((AnyValue::String(text), at)) => Some(origin(text, at)?),
        Some((other, at)) => {
            return Err(wrong_type(
                "discloser.tool.origin",
                other,
                at,
                "a string (`stringValue`)",
            ));
        }
    };
    let (ok, error) = status(span, pointer)?;
    Ok(Call {
        name,
        origin,
        arguments,
        ok: Some(ok),
        error,
    })
}

fn origin(text: &str, at: &str) -> Result<Origin, Fault> {
    let names = Origin::ALL.map(Origin::as_str);
    match Origin::ALL.into_iter().find(|o| o.as_str() == text) {
        Some(origin) => Ok(origin),
        None => {
            let fault = Fault::new(
                &pointer_push(at, "stringValue"),
                format!("`discloser.tool.origin` cannot be `{text}`"),
            );
            Err(match did_you_mean(text, names) {
                Some(near) => fault.with_help(format!("did you mean `{near}`?")),
                None => fault.with_help(format!("expected one of {}", backticked(&names))),
            })
        }
    }
}

fn backticked(names: &[&str]) -> String {
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `ok` (the status code is not 2, ERROR) and the error (the status message, when not empty).
fn status(span: &Map<String, Value>, pointer: &str) -> Result<(bool, Option<String>), Fault> {
    let at = pointer_push(pointer, "status");
    let status = match span.get("status") {
        None | Some(Value::Null) => return Ok((true, None)),
        Some(status) => object(status, &at, "a status")?,
    };
    let code = match status.get("code") {
        None | Some(Value::Null) => 0,
        Some(Value::Number(n)) => n.as_u64().filter(|&c| c <= 2).unwrap_or(u64::MAX),
        Some(Value::String(name)) => ["STATUS_CODE_UNSET", "STATUS_CODE_OK", "STATUS_CODE_ERROR"]
            .iter()
            .position(|known| known == name)
            .map_or(u64::MAX, |c| c as u64),
        Some(_) => u64::MAX,
    };
    if code == u64::MAX {
        return Err(Fault::new(
            &pointer_push(&at, "code"),
            format!(
                "the status `code` must be 0 (unset), 1 (ok) or 2 (error), found `{}`",
                status["code"]
            ),
        ));
    }
    let message = match status.get("message") {
        None | Some(Value::Null) => None,
        Some(message) => {
            let text = expect_str(message, &at, "the status", "message")?;
            Some(text.to_owned()).filter(|t| !t.is_empty())
        }
    };
    Ok((code != 2, message))
}

/// The user's message of a chat span: the text parts of the last `user` message of
/// `gen_ai.input.messages`, joined by a newline.
fn user_message(attributes: &Attributes) -> Result<Option<String>, Fault> {
    const KEY: &str = "gen_ai.input.messages";
    let (messages, at) = match attributes.get(KEY) {
        None | Some((AnyValue::Empty, _)) => return Ok(None),
        Some((AnyValue::String(text), at)) => {
            (json_text(text, at, KEY)?, pointer_push(at, "stringValue"))
        }
        Some((structured @ AnyValue::Array(_), at)) => (structured.to_json(), at.clone()),
        Some((other, at)) => {
            return Err(wrong_type(KEY, other, at, "a JSON string (`stringValue`)"));
        }
    };
    let Value::Array(messages) = messages else {
        return Err(Fault::new(
            &at,
            format!(
                "`{KEY}` must be a JSON list of messages, found {}",
                json_kind(&messages)
            ),
        ));
    };
    let Some(last) = messages
        .iter()
        .rev()
        .find(|m| m.get("role").and_then(Value::as_str) == Some("user"))
    else {
        return Ok(None);
    };
    let texts: Vec<&str> = match last.get("parts") {
        Some(Value::Array(parts)) => parts
            .iter()
            .filter(|p| p.get("type").and_then(Value::as_str) == Some("text"))
            .filter_map(|p| p.get("content").and_then(Value::as_str))
            .collect(),
        // A message recorded in the providers' shape, `{"role": "user", "content": "..."}`.
        _ => last
            .get("content")
            .and_then(Value::as_str)
            .into_iter()
            .collect(),
    };
    Ok((!texts.is_empty()).then(|| texts.join("\n")))
}

/// A string attribute holding JSON, parsed (strictly, as trace lines are).
fn json_text(text: &str, at: &str, key: &str) -> Result<Value, Fault> {
    let mut inner = SourceFile::from_text(text.to_owned(), std::path::PathBuf::new());
    inner.syntax = Syntax::Json;
    inner.parse().map_err(|e| {
        let place = e.position.map_or(String::new(), |p| {
            format!(" at {}:{} of the string", p.line, p.col)
        });
        Fault::new(
            &pointer_push(at, "stringValue"),
            format!(
                "`{key}` is not JSON: {}{place}",
                e.message
                    .strip_prefix("invalid JSON: ")
                    .unwrap_or(&e.message)
            ),
        )
    })
}

fn wrong_type(key: &str, value: &AnyValue, at: &str, expected: &str) -> Fault {
    Fault::new(
        &pointer_push(at, value.kind()),
        format!("`{key}` must be {expected}, found a `{}`", value.kind()),
    )
}

/// A string attribute.
fn string(attributes: &Attributes, key: &str) -> Result<Option<String>, Fault> {
    match attributes.get(key) {
        None | Some((AnyValue::Empty, _)) => Ok(None),
        Some((AnyValue::String(text), _)) => Ok(Some(text.clone())),
        Some((other, at)) => Err(wrong_type(key, other, at, "a string (`stringValue`)")),
    }
}

/// A non-negative integer attribute of at most [`MAX_COUNT`].
fn count(attributes: &Attributes, key: &str) -> Result<Option<u64>, Fault> {
    match attributes.get(key) {
        None | Some((AnyValue::Empty, _)) => Ok(None),
        Some((AnyValue::Int(n), at)) => match u64::try_from(*n) {
            Ok(n) if n <= MAX_COUNT => Ok(Some(n)),
            Ok(n) => Err(Fault::new(
                &pointer_push(at, "intValue"),
                format!("`{key}` of `{n}` is out of range: at most 1000000000000 (10^12)"),
            )),
            Err(_) => Err(Fault::new(
                &pointer_push(at, "intValue"),
                format!("`{key}` must not be negative, found `{n}`"),
            )),
        },
        Some((other, at)) => Err(wrong_type(key, other, at, "an integer (`intValue`)")),
    }
}

/// An OTLP `AnyValue`: what an attribute holds.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum AnyValue {
    /// No value (`{}`).
    Empty,
    /// `stringValue`.
    String(String),
    /// `boolValue`.
    Bool(bool),
    /// `intValue` (an `int64`: a decimal string in OTLP JSON, a number accepted).
    Int(i64),
    /// `doubleValue`.
    Double(f64),
    /// `bytesValue`, as written (base64).
    Bytes(String),
    /// `arrayValue`.
    Array(Vec<AnyValue>),
    /// `kvlistValue`, in order.
    KvList(Vec<(String, AnyValue)>),
}

/// The keys of an `AnyValue` object, in the JSON mapping's lowerCamelCase (the proto's
/// snake_case names are accepted too, as protobuf's JSON parsers do).
const VALUE_KEYS: [(&str, &str); 7] = [
    ("stringValue", "string_value"),
    ("boolValue", "bool_value"),
    ("intValue", "int_value"),
    ("doubleValue", "double_value"),
    ("arrayValue", "array_value"),
    ("kvlistValue", "kvlist_value"),
    ("bytesValue", "bytes_value"),
];

impl AnyValue {
    /// The OTLP key of this kind of value.
    fn kind(&self) -> &'static str {
        match self {
            AnyValue::Empty => "empty value",
            AnyValue::String(_) => "stringValue",
            AnyValue::Bool(_) => "boolValue",
            AnyValue::Int(_) => "intValue",
            AnyValue::Double(_) => "doubleValue",
            AnyValue::Bytes(_) => "bytesValue",
            AnyValue::Array(_) => "arrayValue",
            AnyValue::KvList(_) => "kvlistValue",
        }
    }

    /// The value as plain JSON (a key-value list becomes an object; a non-finite double,
    /// which JSON cannot hold, `null`).
    pub(crate) fn to_json(&self) -> Value {
        match self {
            AnyValue::Empty => Value::Null,
            AnyValue::String(text) | AnyValue::Bytes(text) => Value::String(text.clone()),
            AnyValue::Bool(b) => Value::Bool(*b),
            AnyValue::Int(n) => Value::from(*n),
            AnyValue::Double(x) => {
                serde_json::Number::from_f64(*x).map_or(Value::Null, Value::Number)
            }
            AnyValue::Array(items) => Value::Array(items.iter().map(AnyValue::to_json).collect()),
            AnyValue::KvList(pairs) => Value::Object(
                pairs
                    .iter()
                    .map(|(k, v)| (k.clone(), v.to_json()))
                    .collect(),
            ),
        }
    }
}

/// Decodes an OTLP JSON `AnyValue` object found at `pointer`.
pub(crate) fn decode(value: &Value, pointer: &str) -> Result<AnyValue, Fault> {
    let map = object(
        value,
        pointer,
        "an attribute value (`stringValue`, `intValue`, ...)",
    )?;
    let mut found: Option<(&str, &Value)> = None;
    for (key, inner) in map {
        let Some((camel, _)) = VALUE_KEYS.iter().find(|(c, s)| key == c || key == s) else {
            let fault = Fault::new(
                &pointer_push(pointer, key),
                format!("an attribute value cannot hold `{key}`"),
            );
            let names = VALUE_KEYS.map(|(c, _)| c);
            return Err(match did_you_mean(key, names) {
                Some(near) => fault.with_help(format!("did you mean `{near}`?")),
                None => fault.with_help(format!("expected one of {}", backticked(&names))),
            });
        };
        if let Some((other, _)) = found {
            return Err(Fault::new(
                &pointer_push(pointer, key),
                format!("an attribute value holds one value, not both `{other}` and `{camel}`"),
            ));
        }
        found = Some((camel, inner));
    }
    let Some((kind, inner)) = found else {
        return Ok(AnyValue::Empty);
    };
    let at = pointer_push(pointer, kind);
    let wrong =
        |expected: &str| Fault::new(&at, format!("`{kind}` must be {expected}, found `{inner}`"));
    match kind {
        "stringValue" => inner
            .as_str()
            .map(|s| AnyValue::String(s.to_owned()))
            .ok_or_else(|| wrong("a string")),
        "bytesValue" => inner
            .as_str()
            .map(|s| AnyValue::Bytes(s.to_owned()))
            .ok_or_else(|| wrong("a base64 string")),
        "boolValue" => inner
            .as_bool()
            .map(AnyValue::Bool)
            .ok_or_else(|| wrong("`true` or `false`")),
        "intValue" => match inner {
            Value::String(text) => text.parse::<i64>().ok(),
            Value::Number(n) => n.as_i64(),
            _ => None,
        }
        .map(AnyValue::Int)
        .ok_or_else(|| wrong("a 64-bit integer (a decimal string in OTLP JSON)")),
        "doubleValue" => match inner {
            Value::Number(n) => n.as_f64(),
            Value::String(text) => match text.as_str() {
                "NaN" => Some(f64::NAN),
                "Infinity" => Some(f64::INFINITY),
                "-Infinity" => Some(f64::NEG_INFINITY),
                other => other.parse::<f64>().ok().filter(|x| x.is_finite()),
            },
            _ => None,
        }
        .map(AnyValue::Double)
        .ok_or_else(|| wrong("a number")),
        "arrayValue" => {
            let values = values(inner, &at, kind)?;
            values
                .iter()
                .enumerate()
                .map(|(i, v)| decode(v, &pointer_push(&pointer_push(&at, "values"), i)))
                .collect::<Result<Vec<_>, _>>()
                .map(AnyValue::Array)
        }
        _ => {
            let values = values(inner, &at, kind)?;
            let mut pairs = Vec::with_capacity(values.len());
            for (i, pair) in values.iter().enumerate() {
                let pair_at = pointer_push(&pointer_push(&at, "values"), i);
                let map = object(pair, &pair_at, "a key-value pair (`key` and `value`)")?;
                let Some(Value::String(key)) = map.get("key") else {
                    return Err(Fault::new(
                        &pair_at,
                        "a key-value pair needs a string `key`",
                    ));
                };
                let value = match map.get("value") {
                    None | Some(Value::Null) => AnyValue::Empty,
                    Some(v) => decode(v, &pointer_push(&pair_at, "value"))?,
                };
                pairs.push((key.clone(), value));
            }
            Ok(AnyValue::KvList(pairs))
        }
    }
}

/// The `values` list of an `arrayValue` or a `kvlistValue` (absent: empty).
fn values<'a>(inner: &'a Value, at: &str, kind: &str) -> Result<&'a [Value], Fault> {
    let map = object(inner, at, &format!("`{kind}` (an object with `values`)"))?;
    list(map, at, "values", "a list of values")
}

/// A turn being built from a chat span (or from an `execute_tool` span without one).
struct Building {
    span: Span,
    session: String,
    calls: Vec<(u64, String, Call)>,
}

/// Orders the spans into turns (see the module's documentation).
fn assemble(
    source: &SourceFile,
    mut spans: Vec<Span>,
    file: usize,
) -> Result<Vec<TracedTurn>, LoadError> {
    spans.sort_by(|a, b| {
        (a.start, &a.span_id, &a.trace_id).cmp(&(b.start, &b.span_id, &b.trace_id))
    });
    let mut seen: BTreeMap<(&str, &str), Position> = BTreeMap::new();
    for span in &spans {
        if let Some(first) = seen.insert((&span.trace_id, &span.span_id), span.at) {
            let (later, earlier) = if span.at > first {
                (span.at, first)
            } else {
                (first, span.at)
            };
            return Err(LoadError::at(
                ErrorKind::Shape,
                &source.path,
                &source.text,
                later,
                format!(
                    "span `{}` of trace `{}` appears twice (first at line {})",
                    span.span_id, span.trace_id, earlier.line
                ),
            ));
        }
    }
    let (chats, tools): (Vec<Span>, Vec<Span>) = spans
        .into_iter()
        .partition(|s| matches!(s.what, What::Chat { .. }));
    let mut turns: Vec<Building> = Vec::new();
    let mut by_id: BTreeMap<(String, String), usize> = BTreeMap::new();
    // Per trace, its chat turns in start order (the spans are sorted).
    let mut by_trace: BTreeMap<String, Vec<(u64, usize)>> = BTreeMap::new();
    for chat in chats {
        let index = turns.len();
        by_id.insert((chat.trace_id.clone(), chat.span_id.clone()), index);
        by_trace
            .entry(chat.trace_id.clone())
            .or_default()
            .push((chat.start, index));
        turns.push(Building {
            session: chat
                .conversation
                .clone()
                .unwrap_or_else(|| chat.trace_id.clone()),
            span: chat,
            calls: Vec::new(),
        });
    }
    for tool in tools {
        let What::Tool(call) = tool.what.clone() else {
            unreachable!("partitioned by kind");
        };
        let parent = by_id
            .get(&(tool.trace_id.clone(), tool.parent.clone()))
            .copied();
        let preceding = || {
            let chats = by_trace.get(&tool.trace_id)?;
            let before = chats.partition_point(|&(start, _)| start <= tool.start);
            before.checked_sub(1).map(|i| chats[i].1)
        };
        match parent.or_else(preceding) {
            Some(index) => turns[index]
                .calls
                .push((tool.start, tool.span_id.clone(), call)),
            None => {
                let entry = (tool.start, tool.span_id.clone(), call);
                turns.push(Building {
                    session: tool
                        .conversation
                        .clone()
                        .unwrap_or_else(|| tool.trace_id.clone()),
                    span: tool,
                    calls: vec![entry],
                });
            }
        }
    }
    let mut sessions: BTreeMap<String, Vec<Building>> = BTreeMap::new();
    for turn in turns {
        sessions.entry(turn.session.clone()).or_default().push(turn);
    }
    let mut sessions: Vec<(String, Vec<Building>)> = sessions.into_iter().collect();
    for (_, turns) in &mut sessions {
        turns.sort_by(|a, b| {
            (a.span.start, &a.span.span_id, &a.span.trace_id).cmp(&(
                b.span.start,
                &b.span.span_id,
                &b.span.trace_id,
            ))
        });
    }
    sessions.sort_by(|(a, at), (b, bt)| (at[0].span.start, a).cmp(&(bt[0].span.start, b)));
    let mut out = Vec::new();
    for (session, turns) in sessions {
        for (i, mut building) in turns.into_iter().enumerate() {
            building.calls.sort_by(|a, b| (a.0, &a.1).cmp(&(b.0, &b.1)));
            out.push(traced(source, file, &session, i, building));
        }
    }
    Ok(out)
}

fn traced(
    source: &SourceFile,
    file: usize,
    session: &str,
    index: usize,
    building: Building,
) -> TracedTurn {
    let span = building.span;
    let (model, input_tokens, latency_ms, user) = match span.what {
        What::Chat {
            model,
            input_tokens,
            latency_ms,
            user,
        } => (model, input_tokens, latency_ms, user),
        What::Tool(_) => (None, None, None, None),
    };
    TracedTurn {
        path: source.path.clone(),
        line: span.at.line,
        file,
        profile_at: span.profile_at,
        turn: Turn {
            session: session.to_owned(),
            turn: span.turn.unwrap_or(index as u64 + 1),
            model,
            profile: span.profile,
            input_tokens,
            latency_ms,
            user,
            tools: building
                .calls
                .into_iter()
                .map(|(_, _, call)| call)
                .collect(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decoded(json: &str) -> Result<AnyValue, Fault> {
        decode(&serde_json::from_str(json).expect("test JSON"), "/v")
    }

    #[test]
    fn attribute_values_decode() {
        assert_eq!(
            decoded(r#"{"stringValue": "chat"}"#),
            Ok(AnyValue::String("chat".into()))
        );
        assert_eq!(decoded(r#"{"intValue": "2800"}"#), Ok(AnyValue::Int(2800)));
        assert_eq!(decoded(r#"{"intValue": 2800}"#), Ok(AnyValue::Int(2800)));
        assert_eq!(decoded(r#"{"intValue": "-3"}"#), Ok(AnyValue::Int(-3)));
        assert_eq!(decoded(r#"{"boolValue": true}"#), Ok(AnyValue::Bool(true)));
        assert_eq!(
            decoded(r#"{"doubleValue": 0.5}"#),
            Ok(AnyValue::Double(0.5))
        );
        assert_eq!(
            decoded(r#"{"doubleValue": "1.5"}"#),
            Ok(AnyValue::Double(1.5))
        );
        assert_eq!(
            decoded(r#"{"bytesValue": "AQI="}"#),
            Ok(AnyValue::Bytes("AQI=".into()))
        );
        assert_eq!(
            decoded(r#"{"string_value": "x"}"#),
            Ok(AnyValue::String("x".into()))
        );
        assert_eq!(decoded("{}"), Ok(AnyValue::Empty));
        assert_eq!(
            decoded(r#"{"arrayValue": {"values": [{"stringValue": "a"}, {"intValue": "1"}, {}]}}"#),
            Ok(AnyValue::Array(vec![
                AnyValue::String("a".into()),
                AnyValue::Int(1),
                AnyValue::Empty
            ]))
        );
        assert_eq!(
            decoded(r#"{"arrayValue": {}}"#),
            Ok(AnyValue::Array(vec![]))
        );
        let kv = decoded(
            r#"{"kvlistValue": {"values": [{"key": "k", "value": {"boolValue": false}}]}}"#,
        );
        assert_eq!(
            kv,
            Ok(AnyValue::KvList(vec![("k".into(), AnyValue::Bool(false))]))
        );
        assert_eq!(kv.unwrap().to_json(), serde_json::json!({"k": false}));
    }

    #[test]
    fn malformed_attribute_values_are_faults_at_the_value() {
        for (json, pointer, words) in [
            (r#"{"intValue": "many"}"#, "/v/intValue", "64-bit integer"),
            (r#"{"intValue": "1.5"}"#, "/v/intValue", "64-bit integer"),
            (
                r#"{"intValue": "99999999999999999999"}"#,
                "/v/intValue",
                "64-bit integer",
            ),
            (
                r#"{"boolValue": "yes"}"#,
                "/v/boolValue",
                "`true` or `false`",
            ),
            (r#"{"stringValue": 3}"#, "/v/stringValue", "a string"),
            (r#"{"doubleValue": "fast"}"#, "/v/doubleValue", "a number"),
            (
                r#"{"stringValue": "a", "intValue": "1"}"#,
                "/v/intValue",
                "not both",
            ),
            (r#"{"intvalue": "1"}"#, "/v/intvalue", "cannot hold"),
            (
                r#"{"arrayValue": {"values": [3]}}"#,
                "/v/arrayValue/values/0",
                "an object",
            ),
            (
                r#"{"arrayValue": {"values": {}}}"#,
                "/v/arrayValue/values",
                "a list",
            ),
            (
                r#"{"kvlistValue": {"values": [{"value": {}}]}}"#,
                "/v/kvlistValue/values/0",
                "`key`",
            ),
            (r#""chat""#, "/v", "an object"),
        ] {
            let fault = decoded(json).expect_err(json);
            assert_eq!(fault.pointer, pointer, "{json}");
            assert!(fault.message.contains(words), "{json}: {}", fault.message);
        }
        assert_eq!(
            decoded(r#"{"intvalue": "1"}"#).unwrap_err().help.as_deref(),
            Some("did you mean `intValue`?")
        );
    }

    /// The wrong type of an attribute's `key` or of the status `message`, said at the field.
    #[test]
    fn span_fields_of_the_wrong_type_are_faults_at_the_field() {
        let span = |json: Value| json.as_object().expect("a span").clone();
        for (key, kind) in [
            (serde_json::json!(3), "a number"),
            (Value::Null, "null"),
            (serde_json::json!({}), "an object"),
        ] {
            let fault = attributes(
                &span(serde_json::json!({"attributes": [{"key": key}]})),
                "/s",
            )
            .expect_err("a key that is not a string");
            assert_eq!(fault.pointer, "/s/attributes/0/key");
            assert_eq!(
                fault.message,
                format!("an attribute's `key` must be a string, found {kind}")
            );
        }
        let fault = status(&span(serde_json::json!({"status": {"message": [1]}})), "/s")
            .expect_err("a message that is not a string");
        assert_eq!(fault.pointer, "/s/status/message");
        assert_eq!(
            fault.message,
            "the status `message` must be a string, found a list"
        );
        let ok = |json: Value| status(&span(json), "/s").expect("a status");
        assert_eq!(
            ok(serde_json::json!({"status": {"message": ""}})),
            (true, None)
        );
        assert_eq!(
            ok(serde_json::json!({"status": {"code": 2, "message": "boom"}})),
            (false, Some("boom".to_owned()))
        );
    }

    /// The turns of an export of `spans`, each given as `(trace, span, parent, start,
    /// attributes)`.
    fn turns(spans: &[(&str, &str, &str, u64, Value)]) -> Vec<TracedTurn> {
        let spans: Vec<Value> = spans
            .iter()
            .map(|(trace, span, parent, start, attributes)| {
                let attributes: Vec<Value> = attributes
                    .as_object()
                    .expect("attributes as an object")
                    .iter()
                    .map(|(k, v)| match v {
                        Value::Number(n) => {
                            serde_json::json!({"key": k, "value": {"intValue": n.to_string()}})
                        }
                        v => serde_json::json!({"key": k, "value": {"stringValue": v}}),
                    })
                    .collect();
                serde_json::json!({"traceId": trace, "spanId": span, "parentSpanId": parent,
                    "startTimeUnixNano": start.to_string(), "attributes": attributes})
            })
            .collect();
        let doc = serde_json::json!({"resourceSpans": [{"scopeSpans": [{"spans": spans}]}]});
        let source = SourceFile::from_text(doc.to_string(), "t.json".into());
        crate::trace::parse(&source, 0).expect("the export reads")
    }

    fn chat(conversation: &str) -> Value {
        serde_json::json!({"gen_ai.operation.name": "chat", "gen_ai.conversation.id": conversation})
    }

    fn tool(name: &str) -> Value {
        serde_json::json!({"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": name})
    }

    fn names(turn: &TracedTurn) -> Vec<&str> {
        turn.turn.tools.iter().map(|c| c.name.as_str()).collect()
    }

    /// Tool spans beside the chat spans (children of an agent span) belong to the chat span
    /// before them in the trace; one before any chat span is a turn of its own.
    #[test]
    fn tool_spans_without_a_chat_parent() {
        let got = turns(&[
            (
                "t",
                "agent",
                "",
                1,
                serde_json::json!({"gen_ai.operation.name": "invoke_agent"}),
            ),
            ("t", "early", "agent", 2, tool("lookup")),
            ("t", "c1", "agent", 10, chat("s")),
            ("t", "x1", "agent", 20, tool("draw_chart")),
            ("t", "c2", "agent", 30, chat("s")),
            ("t", "x2", "agent", 40, tool("submit_form")),
            ("t", "x3", "c1", 50, tool("fill_form_field")),
            ("u", "lonely", "", 5, tool("book_appointment")),
        ]);
        let summary: Vec<(&str, u64, Vec<&str>)> = got
            .iter()
            .map(|t| (t.turn.session.as_str(), t.turn.turn, names(t)))
            .collect();
        assert_eq!(
            summary,
            [
                ("t", 1, vec!["lookup"]),
                ("u", 1, vec!["book_appointment"]),
                ("s", 1, vec!["draw_chart", "fill_form_field"]),
                ("s", 2, vec!["submit_form"]),
            ]
        );
    }

    /// Sessions by their first turn's start, turns by start then span id, calls likewise;
    /// `discloser.turn` wins over the place in the session.
    #[test]
    fn turns_and_calls_are_ordered_by_start_then_id() {
        let got = turns(&[
            ("b", "c9", "", 100, chat("late")),
            ("a", "cb", "", 10, chat("early")),
            ("a", "ca", "", 10, chat("early")),
            ("a", "t2", "ca", 12, tool("second")),
            ("a", "t1", "ca", 12, tool("first")),
            ("a", "t0", "ca", 11, tool("zeroth")),
            (
                "b",
                "c8",
                "",
                200,
                serde_json::json!({"gen_ai.operation.name": "chat", "gen_ai.conversation.id": "late", "discloser.turn": 7}),
            ),
        ]);
        let summary: Vec<(&str, u64, Vec<&str>)> = got
            .iter()
            .map(|t| (t.turn.session.as_str(), t.turn.turn, names(t)))
            .collect();
        assert_eq!(
            summary,
            [
                ("early", 1, vec!["zeroth", "first", "second"]),
                ("early", 2, vec![]),
                ("late", 1, vec![]),
                ("late", 7, vec![]),
            ]
        );
    }

    /// The user's message: the text parts of the last `user` message, joined by a newline;
    /// the providers' `content` string is read too.
    #[test]
    fn the_user_message_is_the_last_user_message() {
        let messages = |json: Value| {
            let mut attributes = chat("s");
            attributes["gen_ai.input.messages"] = Value::String(json.to_string());
            turns(&[("t", "c", "", 1, attributes)])[0].turn.user.clone()
        };
        assert_eq!(
            messages(serde_json::json!([
                {"role": "system", "parts": [{"type": "text", "content": "be brief"}]},
                {"role": "user", "parts": [{"type": "text", "content": "old"}]},
                {"role": "assistant", "parts": [{"type": "text", "content": "ok"}]},
                {"role": "user", "parts": [
                    {"type": "text", "content": "look"},
                    {"type": "blob", "modality": "image", "content": "AAAA"},
                    {"type": "text", "content": "at this"}]}
            ])),
            Some("look\nat this".to_owned())
        );
        assert_eq!(
            messages(serde_json::json!([{"role": "user", "content": "plain"}])),
            Some("plain".to_owned())
        );
        assert_eq!(
            messages(serde_json::json!([{"role": "assistant", "parts": []}])),
            None
        );
    }

    fn fixture(name: &str) -> SourceFile {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/fixtures/trace")
            .join(name);
        SourceFile::read(&path, name.into()).expect("the fixture reads")
    }

    /// The fixture's two files hold the same turns, call for call.
    #[test]
    fn the_otlp_fixture_reads_as_its_json_lines() {
        let jsonl = crate::trace::parse(&fixture("bilingual.jsonl"), 0).expect("jsonl");
        let otlp = crate::trace::parse(&fixture("bilingual.otlp.json"), 0).expect("otlp");
        assert_eq!(otlp.len(), 231);
        for (j, o) in jsonl.iter().zip(&otlp) {
            assert_eq!(j.turn, o.turn, "{} vs {}", j.location(), o.location());
        }
        assert_eq!(jsonl.len(), otlp.len());
    }
}
