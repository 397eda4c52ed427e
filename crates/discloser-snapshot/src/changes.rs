//! What changed, tool by tool, between two versions of the model-facing files.
//!
//! The summary is read back from the bytes themselves (index lines and definition lines), so
//! `check` (snapshot files against a fresh render) and `diff` (two renders) explain a change in
//! the same words. An index line is parsed as `- name(params) [triggers] summary`; a definition
//! line as the provider's JSON. The bytes decide whether anything drifted; this module only
//! names what did, and when a line cannot be parsed it says the line changed.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;
use serde_json::Value;

use super::ArtifactKind;
use crate::index::line::{Parsed, TRIGGER_SEPARATOR, closed_set, entry_name, parse};

/// Where a tool is in one profile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum State {
    /// Shown as an index line.
    Indexed,
    /// Sent as a full definition.
    Bound,
}

impl State {
    /// `indexed` or `bound`.
    pub fn as_str(self) -> &'static str {
        match self {
            State::Indexed => "indexed",
            State::Bound => "bound",
        }
    }
}

/// A part of a tool that reaches the model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Part {
    /// The index signature: parameter names, types, optional marker.
    Signature,
    /// The values of a closed set (in the index signature or a definition's `enum`).
    EnumValues,
    /// The trigger words of the index line.
    Triggers,
    /// The summary of the index line.
    Summary,
    /// The description sent in a definition.
    Description,
    /// The parameter schema sent in a definition (other than enum values).
    Parameters,
    /// Object keys of a definition in another order: equal JSON, different bytes.
    KeyOrder,
    /// The line changed in a way the parser cannot name.
    Line,
}

impl Part {
    /// The part as shown in text (`enum values`, `key order`, ...).
    pub fn label(self) -> &'static str {
        match self {
            Part::Signature => "signature",
            Part::EnumValues => "enum values",
            Part::Triggers => "triggers",
            Part::Summary => "summary",
            Part::Description => "description",
            Part::Parameters => "parameters",
            Part::KeyOrder => "key order",
            Part::Line => "line",
        }
    }
}

/// How a tool changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ChangeKind {
    /// Only in the new version.
    Added,
    /// Only in the old version.
    Removed,
    /// In both, with different bytes or a different state.
    Changed,
}

/// A tool that moved between bound and indexed in one profile.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Move {
    /// The profile; empty when only one pair of profiles was compared.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub profile: String,
    /// Its state in the old version.
    pub from: State,
    /// Its state in the new version.
    pub to: State,
}

/// A tool's state in one profile.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ProfileState {
    /// The profile.
    pub profile: String,
    /// The state.
    pub state: State,
}

/// One tool that changed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ToolChange {
    /// The tool name.
    pub tool: String,
    /// Added, removed or changed.
    pub change: ChangeKind,
    /// Which parts changed (for `changed`), in a fixed order.
    pub parts: Vec<PartChange>,
    /// Profiles where it moved between bound and indexed.
    pub moves: Vec<Move>,
    /// Where it is (new version for `added`, old version for `removed`).
    pub states: Vec<ProfileState>,
}

/// One part of a tool that changed, with specifics where they can be named.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PartChange {
    /// The part.
    pub part: Part,
    /// Specifics: enum values added, removed or reordered; triggers added or removed; the
    /// schema pointers that changed; ...
    pub details: Vec<String>,
}

/// The changes between two versions, for every tool.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// Profiles only in the new version.
    pub profiles_added: Vec<String>,
    /// Profiles only in the old version.
    pub profiles_removed: Vec<String>,
    /// Profiles whose index header changed.
    pub header_changed: Vec<String>,
    /// Changed tools, sorted by name.
    pub tools: Vec<ToolChange>,
}

impl Summary {
    /// Whether the summary names no change.
    pub fn is_empty(&self) -> bool {
        self.profiles_added.is_empty()
            && self.profiles_removed.is_empty()
            && self.header_changed.is_empty()
            && self.tools.is_empty()
    }
}

/// One profile's files in one version: the index and one provider's definitions.
#[derive(Clone, Copy, Debug, Default)]
pub struct ProfileTexts<'a> {
    /// The index text.
    pub index: Option<&'a str>,
    /// The definitions text.
    pub definitions: Option<&'a str>,
}

/// One profile in two versions (or two profiles of one catalog).
#[derive(Clone, Debug)]
pub struct ProfilePair<'a> {
    /// The profile name, or `a -> b`.
    pub label: String,
    /// The old version's files.
    pub old: ProfileTexts<'a>,
    /// The new version's files.
    pub new: ProfileTexts<'a>,
}

/// Summarises the changes of every pair whose four files all exist (a missing file is reported
/// on its own, and guessing its tools would mislabel them as added or removed).
pub fn summarize(
    pairs: &[ProfilePair<'_>],
    profiles_added: Vec<String>,
    profiles_removed: Vec<String>,
) -> Summary {
    let mut summary = Summary {
        profiles_added,
        profiles_removed,
        ..Summary::default()
    };
    let mut views = Vec::new();
    for pair in pairs {
        let (Some(oi), Some(od), Some(ni), Some(nd)) = (
            pair.old.index,
            pair.old.definitions,
            pair.new.index,
            pair.new.definitions,
        ) else {
            continue;
        };
        let old = ProfileView::parse(oi, od);
        let new = ProfileView::parse(ni, nd);
        if old.header != new.header {
            summary.header_changed.push(pair.label.clone());
        }
        views.push((pair.label.as_str(), old, new));
    }
    let names: BTreeSet<&str> = views
        .iter()
        .flat_map(|(_, old, new)| old.names().chain(new.names()))
        .collect();
    let single = views.len() == 1;
    for name in names {
        if let Some(change) = tool_change(name, &views, single) {
            summary.tools.push(change);
        }
    }
    summary
}

/// The names of the tools whose line differs (or exists on one side only) in one file.
pub fn tools_touched(kind: ArtifactKind, old: &str, new: &str) -> Vec<String> {
    let (old, new) = (normalize(old), normalize(new));
    let lines = |text: &str| -> BTreeMap<String, String> {
        match kind {
            ArtifactKind::Index => parse_index(text)
                .1
                .into_iter()
                .map(|(name, entry)| (name, entry.line))
                .collect(),
            ArtifactKind::Definitions(_) => parse_definitions(text)
                .into_iter()
                .map(|(name, def)| (name, def.line))
                .collect(),
        }
    };
    let (old, new) = (lines(&old), lines(&new));
    let names: BTreeSet<&String> = old.keys().chain(new.keys()).collect();
    names
        .into_iter()
        .filter(|n| old.get(*n) != new.get(*n))
        .cloned()
        .collect()
}

/// Line endings and the final newline are reported on their own (see
/// [`super::compare::notes`]); the parser compares content.
fn normalize(text: &str) -> String {
    text.replace("\r\n", "\n")
}

/// One profile's tools, parsed from its files.
struct ProfileView {
    header: String,
    entries: BTreeMap<String, EntryView>,
    definitions: BTreeMap<String, DefinitionView>,
}

impl ProfileView {
    fn parse(index: &str, definitions: &str) -> ProfileView {
        let (header, entries) = parse_index(&normalize(index));
        ProfileView {
            header,
            entries,
            definitions: parse_definitions(&normalize(definitions)),
        }
    }

    fn names(&self) -> impl Iterator<Item = &str> {
        self.entries
            .keys()
            .chain(self.definitions.keys())
            .map(String::as_str)
    }

    fn state(&self, name: &str) -> Option<State> {
        if self.definitions.contains_key(name) {
            Some(State::Bound)
        } else if self.entries.contains_key(name) {
            Some(State::Indexed)
        } else {
            None
        }
    }
}

/// Collects parts and their details without duplicates, keeping the first-seen order of
/// details (the same change seen in several profiles is named once).
#[derive(Default)]
struct Found {
    parts: BTreeMap<Part, Vec<String>>,
}

impl Found {
    fn part(&mut self, part: Part) {
        self.parts.entry(part).or_default();
    }

    fn detail(&mut self, part: Part, detail: String) {
        let details = self.parts.entry(part).or_default();
        if !details.contains(&detail) {
            details.push(detail);
        }
    }

    fn into_parts(self) -> Vec<PartChange> {
        self.parts
            .into_iter()
            .map(|(part, details)| PartChange { part, details })
            .collect()
    }
}

fn tool_change(
    name: &str,
    views: &[(&str, ProfileView, ProfileView)],
    single: bool,
) -> Option<ToolChange> {
    let states = |pick_old: bool| -> Vec<ProfileState> {
        views
            .iter()
            .filter_map(|(label, old, new)| {
                let view = if pick_old { old } else { new };
                view.state(name).map(|state| ProfileState {
                    profile: (*label).to_owned(),
                    state,
                })
            })
            .collect()
    };
    let (old_states, new_states) = (states(true), states(false));
    let base = ToolChange {
        tool: name.to_owned(),
        change: ChangeKind::Changed,
        parts: Vec::new(),
        moves: Vec::new(),
        states: Vec::new(),
    };
    match (old_states.is_empty(), new_states.is_empty()) {
        (true, false) => {
            return Some(ToolChange {
                change: ChangeKind::Added,
                states: new_states,
                ..base
            });
        }
        (false, true) => {
            return Some(ToolChange {
                change: ChangeKind::Removed,
                states: old_states,
                ..base
            });
        }
        _ => {}
    }
    let mut found = Found::default();
    let mut moves = Vec::new();
    for (label, old, new) in views {
        match (old.state(name), new.state(name)) {
            (Some(from), Some(to)) if from != to => moves.push(Move {
                profile: if single {
                    String::new()
                } else {
                    (*label).to_owned()
                },
                from,
                to,
            }),
            (Some(State::Bound), Some(State::Bound)) => {
                if let (Some(o), Some(n)) = (old.definitions.get(name), new.definitions.get(name)) {
                    compare_definitions(o, n, &mut found);
                }
            }
            _ => {
                if let (Some(o), Some(n)) = (old.entries.get(name), new.entries.get(name)) {
                    compare_entries(o, n, &mut found);
                }
            }
        }
    }
    if found.parts.is_empty() && moves.is_empty() {
        return None;
    }
    Some(ToolChange {
        parts: found.into_parts(),
        moves,
        ..base
    })
}

/// An index line, taken apart.
#[derive(Clone, Debug, PartialEq, Eq)]
struct EntryView {
    line: String,
    /// `None` when the line cannot be parsed past the name.
    parsed: Option<Parsed>,
}

/// The header (lines before the first entry) and the entries by tool name.
fn parse_index(text: &str) -> (String, BTreeMap<String, EntryView>) {
    let mut header = Vec::new();
    let mut entries = BTreeMap::new();
    for line in text.lines() {
        match entry_name(line) {
            Some(name) => {
                entries.entry(name.to_owned()).or_insert_with(|| EntryView {
                    line: line.to_owned(),
                    parsed: parse(line),
                });
            }
            None if entries.is_empty() => header.push(line),
            None => {}
        }
    }
    (header.join("\n"), entries)
}

fn compare_entries(old: &EntryView, new: &EntryView, found: &mut Found) {
    if old.line == new.line {
        return;
    }
    let (Some(o), Some(n)) = (&old.parsed, &new.parsed) else {
        found.part(Part::Line);
        return;
    };
    let mut named = false;
    if o.signature != n.signature {
        compare_signatures(o, n, found);
        named = true;
    }
    if o.triggers != n.triggers {
        found.detail(Part::Triggers, list_change(&o.triggers, &n.triggers));
        named = true;
    }
    if o.summary != n.summary {
        found.part(Part::Summary);
        named = true;
    }
    if !named {
        found.part(Part::Line);
    }
}

fn compare_signatures(old: &Parsed, new: &Parsed, found: &mut Found) {
    let names = |e: &Parsed| -> Vec<String> { e.params.iter().map(|p| p.0.clone()).collect() };
    let mut only_values = names(old) == names(new);
    let mut details = Vec::new();
    if only_values {
        for ((name, o), (_, n)) in old.params.iter().zip(&new.params) {
            if o == n {
                continue;
            }
            match (closed_set(o), closed_set(n)) {
                (Some(ov), Some(nv)) => {
                    details.push(format!("`{name}`: {}", values_change(&ov, &nv)))
                }
                _ => only_values = false,
            }
        }
    }
    if only_values && !details.is_empty() {
        for detail in details {
            found.detail(Part::EnumValues, detail);
        }
    } else {
        found.detail(
            Part::Signature,
            format!("`{}` -> `{}`", old.signature, new.signature),
        );
    }
}

/// `reordered `a|b` -> `b|a``, or `added `x`; removed `y``.
fn values_change<T: AsRef<str> + Ord>(old: &[T], new: &[T]) -> String {
    let (o, n): (BTreeSet<&str>, BTreeSet<&str>) = (
        old.iter().map(AsRef::as_ref).collect(),
        new.iter().map(AsRef::as_ref).collect(),
    );
    if o == n {
        return format!("reordered `{}` -> `{}`", join(old, "|"), join(new, "|"));
    }
    added_removed(old, new)
}

/// Trigger lists: `added `x``, `removed `y``, or `reordered`.
fn list_change(old: &[String], new: &[String]) -> String {
    let (o, n): (BTreeSet<&String>, BTreeSet<&String>) =
        (old.iter().collect(), new.iter().collect());
    if o == n {
        return format!(
            "reordered `{}` -> `{}`",
            old.join(TRIGGER_SEPARATOR),
            new.join(TRIGGER_SEPARATOR)
        );
    }
    added_removed(old, new)
}

fn added_removed<T: AsRef<str>>(old: &[T], new: &[T]) -> String {
    let quoted = |items: Vec<&str>| -> String {
        items
            .iter()
            .map(|v| format!("`{v}`"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let added: Vec<&str> = new
        .iter()
        .map(AsRef::as_ref)
        .filter(|v| !old.iter().any(|o| o.as_ref() == *v))
        .collect();
    let removed: Vec<&str> = old
        .iter()
        .map(AsRef::as_ref)
        .filter(|v| !new.iter().any(|n| n.as_ref() == *v))
        .collect();
    let mut parts = Vec::new();
    if !added.is_empty() {
        parts.push(format!("added {}", quoted(added)));
    }
    if !removed.is_empty() {
        parts.push(format!("removed {}", quoted(removed)));
    }
    parts.join("; ")
}

fn join<T: AsRef<str>>(items: &[T], separator: &str) -> String {
    items
        .iter()
        .map(AsRef::as_ref)
        .collect::<Vec<_>>()
        .join(separator)
}

/// A definition line, taken apart.
#[derive(Clone, Debug, PartialEq)]
struct DefinitionView {
    line: String,
    /// `None` when the line is not JSON.
    value: Option<Value>,
}

impl DefinitionView {
    /// The object holding `name`, `description` and the schema (`function` for OpenAI).
    fn body(&self) -> Option<&serde_json::Map<String, Value>> {
        let object = self.value.as_ref()?.as_object()?;
        match object.get("function") {
            Some(Value::Object(inner)) => Some(inner),
            _ => Some(object),
        }
    }

    fn field(&self, key: &str) -> Option<&Value> {
        self.body()?.get(key)
    }

    fn schema(&self) -> Option<&Value> {
        ["parameters", "input_schema", "inputSchema"]
            .iter()
            .find_map(|k| self.field(k))
    }
}

/// Definitions by tool name; lines that are not JSON with a name are named `line N`.
fn parse_definitions(text: &str) -> BTreeMap<String, DefinitionView> {
    let mut out = BTreeMap::new();
    for (i, line) in text.lines().enumerate() {
        let view = DefinitionView {
            line: line.to_owned(),
            value: serde_json::from_str(line).ok(),
        };
        let name = view
            .field("name")
            .and_then(Value::as_str)
            .map_or_else(|| format!("line {}", i + 1), str::to_owned);
        out.entry(name).or_insert(view);
    }
    out
}

fn compare_definitions(old: &DefinitionView, new: &DefinitionView, found: &mut Found) {
    if old.line == new.line {
        return;
    }
    if old.value.is_none() || new.value.is_none() {
        found.part(Part::Line);
        return;
    }
    let text = |v: &DefinitionView| {
        v.field("description")
            .and_then(Value::as_str)
            .map(str::to_owned)
    };
    let (od, nd) = (text(old), text(new));
    let mut named = od != nd;
    if od != nd {
        let same_words = match (&od, &nd) {
            (Some(o), Some(n)) => o.split_whitespace().eq(n.split_whitespace()),
            _ => false,
        };
        if same_words {
            found.detail(
                Part::Description,
                "re-wrapped: same words, other whitespace".to_owned(),
            );
        } else {
            found.part(Part::Description);
        }
    }
    let (os, ns) = (old.schema(), new.schema());
    if os != ns {
        named = true;
        let mut differences = Vec::new();
        json_differences(
            os.unwrap_or(&Value::Null),
            ns.unwrap_or(&Value::Null),
            String::new(),
            &mut differences,
        );
        let shown = differences.len().min(5);
        for difference in &differences[..shown] {
            match difference {
                JsonDifference::Enum { pointer, old, new } => {
                    let (o, n) = (enum_values(old), enum_values(new));
                    found.detail(
                        Part::EnumValues,
                        format!("`{}`: {}", enum_place(pointer), values_change(&o, &n)),
                    );
                }
                JsonDifference::Other { pointer } => {
                    let at = if pointer.is_empty() { "/" } else { pointer };
                    found.detail(Part::Parameters, format!("`{at}` changed"));
                }
            }
        }
        if differences.len() > shown {
            found.detail(
                Part::Parameters,
                format!("and {} more schema changes", differences.len() - shown),
            );
        }
    } else if old.value == new.value
        && let Some(pointer) = key_order_difference(
            old.value.as_ref().unwrap_or(&Value::Null),
            new.value.as_ref().unwrap_or(&Value::Null),
            String::new(),
        )
    {
        let at = if pointer.is_empty() { "/" } else { &pointer };
        found.detail(Part::KeyOrder, format!("keys of `{at}` reordered"));
        named = true;
    }
    if !named {
        found.part(Part::Line);
    }
}

/// Enum values as the index spells them: plain identifiers bare, anything else as JSON.
fn enum_values(values: &[Value]) -> Vec<String> {
    values
        .iter()
        .map(crate::index::signature::render_value)
        .collect()
}

/// A top-level parameter's enum is named by the parameter, like in the index; any other by its
/// JSON pointer.
fn enum_place(pointer: &str) -> &str {
    pointer
        .strip_prefix("/properties/")
        .and_then(|rest| rest.strip_suffix("/enum"))
        .filter(|name| !name.contains('/'))
        .unwrap_or(pointer)
}

/// A place where two JSON schemas differ.
enum JsonDifference {
    Enum {
        pointer: String,
        old: Vec<Value>,
        new: Vec<Value>,
    },
    Other {
        pointer: String,
    },
}

fn json_differences(old: &Value, new: &Value, pointer: String, out: &mut Vec<JsonDifference>) {
    if old == new {
        return;
    }
    match (old, new) {
        (Value::Object(o), Value::Object(n)) => {
            let keys: Vec<&String> = o
                .keys()
                .chain(n.keys().filter(|k| !o.contains_key(*k)))
                .collect();
            for key in keys {
                let at = crate::source::pointer_push(&pointer, key);
                match (o.get(key), n.get(key)) {
                    (Some(Value::Array(a)), Some(Value::Array(b))) if key == "enum" && a != b => {
                        out.push(JsonDifference::Enum {
                            pointer: at,
                            old: a.clone(),
                            new: b.clone(),
                        });
                    }
                    (Some(a), Some(b)) => json_differences(a, b, at, out),
                    _ => out.push(JsonDifference::Other { pointer: at }),
                }
            }
        }
        (Value::Array(o), Value::Array(n)) if o.len() == n.len() => {
            for (i, (a, b)) in o.iter().zip(n).enumerate() {
                json_differences(a, b, crate::source::pointer_push(&pointer, i), out);
            }
        }
        _ => out.push(JsonDifference::Other { pointer }),
    }
}

/// The first object (by pointer) whose keys are in another order, for equal values.
fn key_order_difference(old: &Value, new: &Value, pointer: String) -> Option<String> {
    match (old, new) {
        (Value::Object(o), Value::Object(n)) => {
            if !o.keys().eq(n.keys()) {
                return Some(pointer);
            }
            o.iter().find_map(|(key, value)| {
                let other = n.get(key)?;
                key_order_difference(value, other, crate::source::pointer_push(&pointer, key))
            })
        }
        (Value::Array(o), Value::Array(n)) => {
            o.iter().zip(n).enumerate().find_map(|(i, (a, b))| {
                key_order_difference(a, b, crate::source::pointer_push(&pointer, i))
            })
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEADER: &str = "Header line.\n";

    fn pair<'a>(oi: &'a str, od: &'a str, ni: &'a str, nd: &'a str) -> ProfilePair<'a> {
        ProfilePair {
            label: "default".to_owned(),
            old: ProfileTexts {
                index: Some(oi),
                definitions: Some(od),
            },
            new: ProfileTexts {
                index: Some(ni),
                definitions: Some(nd),
            },
        }
    }

    fn change(part: Part, details: &[&str]) -> PartChange {
        PartChange {
            part,
            details: details.iter().map(|d| (*d).to_owned()).collect(),
        }
    }

    fn one(oi: &str, od: &str, ni: &str, nd: &str) -> Summary {
        summarize(&[pair(oi, od, ni, nd)], Vec::new(), Vec::new())
    }

    #[test]
    fn parses_an_index_line() {
        let line = r#"- f(kind: a|"b)"|c, x: (s|t)[], …) [BP / 自己 报税] Does f. Really [x]."#;
        let e = parse(line).unwrap();
        assert_eq!(e.signature, r#"f(kind: a|"b)"|c, x: (s|t)[], …)"#);
        assert_eq!(
            e.params,
            [
                ("kind".to_owned(), r#"a|"b)"|c"#.to_owned()),
                ("x".to_owned(), "(s|t)[]".to_owned()),
                ("…".to_owned(), String::new())
            ]
        );
        assert_eq!(e.triggers, ["BP", "自己 报税"]);
        assert_eq!(e.summary, "Does f. Really [x].");
        assert_eq!(closed_set(r#"a|"b)"|c"#), Some(vec!["a", r#""b)""#, "c"]));
        assert_eq!(closed_set("(s|t)[]"), None);
        let bare = parse("- g()").unwrap();
        assert_eq!(
            (bare.signature.as_str(), bare.summary.as_str()),
            ("g()", "")
        );
    }

    #[test]
    fn reordered_enum_values_are_named() {
        let old = format!("{HEADER}- f(kind: a|b|c) [x] S.\n");
        let new = format!("{HEADER}- f(kind: b|a|c) [x] S.\n");
        let s = one(&old, "", &new, "");
        assert_eq!(
            s.tools[0].parts,
            [change(
                Part::EnumValues,
                &["`kind`: reordered `a|b|c` -> `b|a|c`"]
            )]
        );
    }

    #[test]
    fn triggers_added_and_moves_are_named() {
        let old = format!("{HEADER}- f() [x] S.\n- g() G.\n");
        let new = format!("{HEADER}- f() [x / yy] S.\n");
        let defs = r#"{"name":"g","description":"G.","parameters":{}}"#.to_owned() + "\n";
        let s = one(&old, "", &new, &defs);
        assert_eq!(s.tools.len(), 2);
        assert_eq!(s.tools[0].parts, [change(Part::Triggers, &["added `yy`"])]);
        assert_eq!(s.tools[1].tool, "g");
        assert_eq!(s.tools[1].parts, []);
        assert_eq!(
            s.tools[1].moves,
            [Move {
                profile: String::new(),
                from: State::Indexed,
                to: State::Bound
            }]
        );
    }

    #[test]
    fn definition_changes_are_named() {
        let old = r#"{"name":"g","description":"One two\nthree.","parameters":{"type":"object","properties":{"k":{"enum":["a","b"]},"n":{"type":"string"}}}}"#;
        let new = r#"{"name":"g","description":"One\ntwo three.","parameters":{"type":"object","properties":{"k":{"enum":["b","a"]},"n":{"type":"integer"}}}}"#;
        let s = one(HEADER, &format!("{old}\n"), HEADER, &format!("{new}\n"));
        let t = &s.tools[0];
        assert_eq!(
            t.parts,
            [
                change(Part::EnumValues, &["`k`: reordered `a|b` -> `b|a`"]),
                change(
                    Part::Description,
                    &["re-wrapped: same words, other whitespace"]
                ),
                change(Part::Parameters, &["`/properties/n/type` changed"]),
            ]
        );
    }

    #[test]
    fn key_order_is_a_change_of_bytes() {
        let old = r#"{"name":"g","description":"","parameters":{"properties":{"a":{},"b":{}}}}"#;
        let new = r#"{"name":"g","description":"","parameters":{"properties":{"b":{},"a":{}}}}"#;
        let s = one(HEADER, &format!("{old}\n"), HEADER, &format!("{new}\n"));
        assert_eq!(
            s.tools[0].parts,
            [change(
                Part::KeyOrder,
                &["keys of `/parameters/properties` reordered"]
            )]
        );
    }

    #[test]
    fn added_removed_and_header_changes() {
        let old = format!("{HEADER}- a() A.\n");
        let new = "Other header.\n- b() B.\n".to_owned();
        let s = one(&old, "", &new, "");
        assert_eq!(s.header_changed, ["default"]);
        assert_eq!(s.tools[0].change, ChangeKind::Removed);
        assert_eq!(s.tools[1].tool, "b");
        assert_eq!(s.tools[1].change, ChangeKind::Added);
        assert_eq!(s.tools[1].states[0].state, State::Indexed);
    }

    #[test]
    fn crlf_alone_changes_no_tool() {
        let old = format!("{HEADER}- a() A.\n").replace('\n', "\r\n");
        let new = format!("{HEADER}- a() A.\n");
        assert!(one(&old, "", &new, "").is_empty());
        assert!(tools_touched(ArtifactKind::Index, &old, &new).is_empty());
    }
}
