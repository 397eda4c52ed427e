//! A tool's JSON Schema as the catalog keeps it: packed into compact bytes once loading is done,
//! unpacked into a `serde_json::Value` when it is needed.
//!
//! A parsed `Value` takes several times the size of its text (a map entry is over 100 bytes
//! before its key and value), so keeping every tool's schema parsed made a catalog of 100,000
//! tools take a gigabyte. Packed, a schema takes about its compact JSON size. Two ways in, and
//! every caller says which (there is no `Deref` to borrow the value without choosing):
//! - [`Parameters::with`] (and [`Parameters::to_value`]) unpack a copy for one use and drop it,
//!   for the passes that visit every tool (`render`, `tools`, `cost`, `lint`, snapshots);
//! - [`Parameters::keep`] unpacks once and keeps the value, for a pass that comes back to one
//!   schema many times, and for a `$ref` into a tool resolved from another document.
//!
//! The packing is exact: numbers keep their kind and bits (`1`, `-1`, `1.0`, `-0.0`), strings
//! their bytes and maps their key order, so an unpacked value equals the parsed one and every
//! output byte stays the same.

use std::sync::OnceLock;

use serde_json::{Map, Number, Value};

/// A tool's schema: the parsed value while the catalog loads, packed bytes afterwards (see the
/// module docs).
pub struct Parameters {
    /// The packed value; `None` until [`Parameters::pack`] (the value is then in `value`).
    packed: Option<Box<[u8]>>,
    /// The `$ref`s the catalog still has to check, found when the value was packed (see
    /// `refs::refs_to_check`).
    refs: Box<[(String, String)]>,
    /// The value, while loading, or once [`Parameters::keep`] kept it (boxed: a tool
    /// is smaller without 72 bytes of `Value` inline).
    value: OnceLock<Box<Value>>,
}

impl Parameters {
    /// Parameters holding `value` as parsed (not packed yet).
    pub fn new(value: Value) -> Parameters {
        Parameters {
            packed: None,
            refs: Box::default(),
            value: OnceLock::from(Box::new(value)),
        }
    }

    /// Parameters packed from `value`, borrowed (a loader packs the schema of the document it
    /// parsed, with no copy of it in between).
    pub(crate) fn packed_from(value: &Value) -> Parameters {
        let (packed, refs) = pack_value(value);
        Parameters {
            packed: Some(packed),
            refs,
            value: OnceLock::new(),
        }
    }

    /// Packs the value and drops the parsed one (a no-op once packed).
    pub fn pack(&mut self) {
        if self.packed.is_none()
            && let Some(value) = self.value.take().map(|boxed| *boxed)
        {
            let (packed, refs) = pack_value(&value);
            self.packed = Some(packed);
            self.refs = refs;
        }
    }

    /// Whether the value is packed (see [`Parameters::pack`]).
    pub fn is_packed(&self) -> bool {
        self.packed.is_some()
    }

    /// The `$ref`s (pointer, reference) the catalog must check (see `refs::refs_to_check`).
    pub(super) fn refs_to_check(&self) -> Vec<(String, String)> {
        match (&self.packed, self.value.get()) {
            (Some(_), _) => self.refs.to_vec(),
            (None, Some(value)) => super::refs::refs_to_check(value),
            (None, None) => unreachable!("parameters hold a value or its packed bytes"),
        }
    }

    /// `f` of the value: the kept one when there is one, else a copy unpacked for this call
    /// only (nothing is kept).
    pub fn with<R>(&self, f: impl FnOnce(&Value) -> R) -> R {
        self.with_unpacked(unpack, f)
    }

    /// `f` of the schema as far as its required parameters go: what a signature reads. From
    /// packed bytes with no `$ref` in them (nothing can lead elsewhere), only the root's
    /// `required` and `properties` are unpacked, and of the properties only those `required`
    /// names; the others' schemas are `null` and the root's other keys left out. Otherwise the
    /// whole value, as [`Parameters::with`] gives it. Most of a schema's bytes are the
    /// descriptions and optional parameters a signature never reads.
    pub fn with_required<R>(&self, f: impl FnOnce(&Value) -> R) -> R {
        self.with_unpacked(unpack_required, f)
    }

    /// `f` of the kept value, else of what `unpack` makes of the packed bytes for this call.
    fn with_unpacked<R>(&self, unpack: fn(&[u8]) -> Value, f: impl FnOnce(&Value) -> R) -> R {
        match (self.value.get(), &self.packed) {
            (Some(value), _) => f(value),
            (None, Some(packed)) => f(&unpack(packed)),
            (None, None) => unreachable!("parameters hold a value or its packed bytes"),
        }
    }

    /// The value, owned (unpacked, or a copy of the kept one).
    pub fn to_value(&self) -> Value {
        match (self.value.get(), &self.packed) {
            (Some(value), _) => Value::clone(value),
            (None, Some(packed)) => unpack(packed),
            (None, None) => unreachable!("parameters hold a value or its packed bytes"),
        }
    }

    /// The value to change in place (unpacked first when packed; packed again by the next
    /// [`Parameters::pack`]).
    pub fn value_mut(&mut self) -> &mut Value {
        if let Some(packed) = self.packed.take()
            && self.value.get().is_none()
        {
            self.value = OnceLock::from(Box::new(unpack(&packed)));
        }
        self.refs = Box::default();
        self.value
            .get_mut()
            .expect("parameters hold a value or its packed bytes")
    }

    /// The value, unpacked on first use and kept for the rest of the run: for a pass that
    /// comes back to one schema many times (a runtime's validators). A pass over every tool
    /// uses [`Parameters::with`] instead, or the catalog ends up holding every schema parsed.
    pub fn keep(&self) -> &Value {
        self.value.get_or_init(|| {
            Box::new(unpack(
                self.packed
                    .as_deref()
                    .expect("parameters hold a value or its packed bytes"),
            ))
        })
    }

    /// The value if it is kept parsed (while loading, or after [`Parameters::keep`]).
    pub fn kept(&self) -> Option<&Value> {
        self.value.get().map(|boxed| &**boxed)
    }
}

impl From<Value> for Parameters {
    fn from(value: Value) -> Parameters {
        Parameters::new(value)
    }
}

impl Clone for Parameters {
    fn clone(&self) -> Parameters {
        Parameters {
            packed: self.packed.clone(),
            refs: self.refs.clone(),
            value: self.value.clone(),
        }
    }
}

impl PartialEq for Parameters {
    fn eq(&self, other: &Parameters) -> bool {
        self.with(|a| other.with(|b| a == b))
    }
}

impl PartialEq<Value> for Parameters {
    fn eq(&self, other: &Value) -> bool {
        self.with(|a| a == other)
    }
}

impl PartialEq<Parameters> for Value {
    fn eq(&self, other: &Parameters) -> bool {
        other == self
    }
}

impl serde::Serialize for Parameters {
    /// As the value.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.with(|value| value.serialize(serializer))
    }
}

impl std::fmt::Debug for Parameters {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.with(|value| value.fmt(f))
    }
}

// The packed form: a first byte that says whether any map in the value has a `$ref` key
// ([`HAS_REF`] or [`NO_REF`]), then the value: a tag byte per value, lengths and counts as
// LEB128 varints, numbers as their 8 bytes. The words every schema repeats (keywords, type
// names) are one byte: a string of [`WORDS`] is tag `WORD` and its index, and a key is the
// varint `2 * len` before its bytes, or `2 * index + 1` for a word. Depth is bounded by the
// loaders (JSON 128, YAML 64 levels), so the recursion below is too.
const NULL: u8 = 0;
const FALSE: u8 = 1;
const TRUE: u8 = 2;
const POS_INT: u8 = 3;
const NEG_INT: u8 = 4;
const FLOAT: u8 = 5;
const STRING: u8 = 6;
const ARRAY: u8 = 7;
const OBJECT: u8 = 8;
const WORD: u8 = 9;

/// The first byte of a packed value with a `$ref` key somewhere in it.
const HAS_REF: u8 = 1;
/// The first byte of a packed value without one.
const NO_REF: u8 = 0;

/// Keys and values that JSON Schemas repeat (at most 128, so an index is one byte).
const WORDS: &[&str] = &[
    "type",
    "description",
    "properties",
    "required",
    "enum",
    "items",
    "string",
    "object",
    "integer",
    "number",
    "boolean",
    "array",
    "null",
    "default",
    "title",
    "anyOf",
    "oneOf",
    "allOf",
    "$ref",
    "$defs",
    "definitions",
    "format",
    "minimum",
    "maximum",
    "additionalProperties",
    "const",
    "examples",
    "pattern",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "$schema",
    "http://json-schema.org/draft-07/schema#",
    "https://json-schema.org/draft/2020-12/schema",
    "uri",
    "date-time",
];

/// The index of `$ref` in [`WORDS`].
const REF_WORD: usize = 18;

fn word(s: &str) -> Option<usize> {
    if s.len() > 44 {
        return None;
    }
    WORDS.iter().position(|w| *w == s)
}

fn write_len(mut n: usize, out: &mut Vec<u8>) {
    while n >= 0x80 {
        out.push((n as u8) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

fn write_str(s: &str, out: &mut Vec<u8>) {
    write_len(s.len(), out);
    out.extend_from_slice(s.as_bytes());
}

/// `$ref`s to check: (pointer, reference) pairs.
type Refs = Box<[(String, String)]>;

/// `value` packed, and the `$ref`s the catalog must check in it (see `refs::refs_to_check`;
/// none without a `$ref` key, which the packing notices, so most schemas are not walked twice).
fn pack_value(value: &Value) -> (Box<[u8]>, Refs) {
    thread_local! {
        /// Grown once per thread, so a schema's bytes take one allocation of their exact size.
        static SCRATCH: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    let (packed, has_ref) = SCRATCH.with_borrow_mut(|out| {
        out.clear();
        out.push(NO_REF);
        let has_ref = write(value, out);
        if has_ref {
            out[0] = HAS_REF;
        }
        let packed = Box::<[u8]>::from(out.as_slice());
        // A rare huge schema does not keep its scratch for the rest of the run.
        if out.capacity() > 1 << 20 {
            *out = Vec::new();
        }
        (packed, has_ref)
    });
    let refs = if has_ref {
        super::refs::refs_to_check(value).into_boxed_slice()
    } else {
        Box::default()
    };
    (packed, refs)
}

/// Writes `value` packed; whether any map in it has a `$ref` key.
fn write(value: &Value, out: &mut Vec<u8>) -> bool {
    match value {
        Value::Null => out.push(NULL),
        Value::Bool(false) => out.push(FALSE),
        Value::Bool(true) => out.push(TRUE),
        Value::Number(n) => {
            if let Some(u) = n.as_u64() {
                out.push(POS_INT);
                out.extend_from_slice(&u.to_le_bytes());
            } else if let Some(i) = n.as_i64() {
                out.push(NEG_INT);
                out.extend_from_slice(&i.to_le_bytes());
            } else {
                out.push(FLOAT);
                let f = n.as_f64().expect("a number that is no integer is a float");
                out.extend_from_slice(&f.to_bits().to_le_bytes());
            }
        }
        Value::String(s) => match word(s) {
            Some(i) => {
                out.push(WORD);
                out.push(i as u8);
            }
            None => {
                out.push(STRING);
                write_str(s, out);
            }
        },
        Value::Array(items) => {
            out.push(ARRAY);
            write_len(items.len(), out);
            let mut has_ref = false;
            for item in items {
                has_ref |= write(item, out);
            }
            return has_ref;
        }
        Value::Object(map) => {
            out.push(OBJECT);
            write_len(map.len(), out);
            let mut has_ref = false;
            for (key, item) in map {
                match word(key) {
                    Some(i) => {
                        has_ref |= i == REF_WORD;
                        write_len(2 * i + 1, out);
                    }
                    None => {
                        write_len(2 * key.len(), out);
                        out.extend_from_slice(key.as_bytes());
                    }
                }
                has_ref |= write(item, out);
            }
            return has_ref;
        }
    }
    false
}

/// The value packed in `bytes` (by [`pack_value`], so well-formed).
fn unpack(bytes: &[u8]) -> Value {
    let mut reader = Reader { bytes, at: 1 };
    reader.value()
}

/// What [`Parameters::with_required`] reads of the value packed in `bytes`: without a `$ref`,
/// a map of the root's `required` and `properties` (in their order), the properties not named
/// in `required` as `null`; with one, or a root that is not a map, the whole value.
fn unpack_required(bytes: &[u8]) -> Value {
    let mut reader = Reader { bytes, at: 1 };
    if bytes[0] == HAS_REF || reader.byte() != OBJECT {
        return unpack(bytes);
    }
    let n = reader.len();
    let keys = reader.at;
    // `required` first (it may follow `properties`).
    let mut required = None;
    for _ in 0..n {
        if reader.key_is("required") {
            required = Some(reader.value());
            break;
        }
        reader.skip();
    }
    let names: std::collections::HashSet<String> = required
        .iter()
        .filter_map(Value::as_array)
        .flatten()
        .filter_map(Value::as_str)
        .map(str::to_owned)
        .collect();
    reader.at = keys;
    let mut root = Map::new();
    for _ in 0..n {
        let key = reader.key();
        match key.as_str() {
            "required" => {
                reader.skip();
                root.insert(key, required.take().unwrap_or_default());
            }
            "properties" if reader.bytes[reader.at] == OBJECT => {
                reader.at += 1;
                let count = reader.len();
                let mut properties = Map::with_capacity(count);
                for _ in 0..count {
                    let name = reader.key();
                    let schema = if names.contains(&name) {
                        reader.value()
                    } else {
                        reader.skip();
                        Value::Null
                    };
                    properties.insert(name, schema);
                }
                root.insert(key, Value::Object(properties));
            }
            "properties" => {
                let value = reader.value();
                root.insert(key, value);
            }
            _ => reader.skip(),
        }
    }
    Value::Object(root)
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn byte(&mut self) -> u8 {
        let b = self.bytes[self.at];
        self.at += 1;
        b
    }

    fn len(&mut self) -> usize {
        let mut n = 0_usize;
        let mut shift = 0;
        loop {
            let b = self.byte();
            n |= usize::from(b & 0x7f) << shift;
            if b < 0x80 {
                return n;
            }
            shift += 7;
        }
    }

    fn eight(&mut self) -> [u8; 8] {
        let bytes: [u8; 8] = self.bytes[self.at..self.at + 8]
            .try_into()
            .expect("eight bytes");
        self.at += 8;
        bytes
    }

    /// A key: a word, or its length and bytes.
    fn key(&mut self) -> String {
        let n = self.len();
        if n % 2 == 1 {
            return WORDS[n / 2].to_owned();
        }
        self.text(n / 2)
    }

    /// Reads a key; whether it is `key`.
    fn key_is(&mut self, key: &str) -> bool {
        let n = self.len();
        if n % 2 == 1 {
            return WORDS[n / 2] == key;
        }
        let len = n / 2;
        let is = &self.bytes[self.at..self.at + len] == key.as_bytes();
        self.at += len;
        is
    }

    /// Passes over a value without reading it into one.
    fn skip(&mut self) {
        match self.byte() {
            NULL | FALSE | TRUE => {}
            POS_INT | NEG_INT | FLOAT => self.at += 8,
            STRING => {
                let len = self.len();
                self.at += len;
            }
            WORD => self.at += 1,
            ARRAY => {
                for _ in 0..self.len() {
                    self.skip();
                }
            }
            OBJECT => {
                for _ in 0..self.len() {
                    let n = self.len();
                    if n.is_multiple_of(2) {
                        self.at += n / 2;
                    }
                    self.skip();
                }
            }
            tag => unreachable!("packed values have no tag {tag}"),
        }
    }

    fn string(&mut self) -> String {
        let len = self.len();
        self.text(len)
    }

    fn text(&mut self, len: usize) -> String {
        let text =
            std::str::from_utf8(&self.bytes[self.at..self.at + len]).expect("packed from a String");
        self.at += len;
        text.to_owned()
    }

    fn value(&mut self) -> Value {
        match self.byte() {
            NULL => Value::Null,
            FALSE => Value::Bool(false),
            TRUE => Value::Bool(true),
            POS_INT => Value::Number(Number::from(u64::from_le_bytes(self.eight()))),
            NEG_INT => Value::Number(Number::from(i64::from_le_bytes(self.eight()))),
            FLOAT => {
                let f = f64::from_bits(u64::from_le_bytes(self.eight()));
                Value::Number(Number::from_f64(f).expect("packed from a finite number"))
            }
            STRING => Value::String(self.string()),
            WORD => Value::String(WORDS[usize::from(self.byte())].to_owned()),
            ARRAY => {
                let n = self.len();
                let mut items = Vec::with_capacity(n);
                for _ in 0..n {
                    items.push(self.value());
                }
                Value::Array(items)
            }
            OBJECT => {
                let n = self.len();
                let mut map = Map::with_capacity(n);
                for _ in 0..n {
                    let key = self.key();
                    let item = self.value();
                    map.insert(key, item);
                }
                Value::Object(map)
            }
            tag => unreachable!("packed values have no tag {tag}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn round_trip(value: Value) {
        let mut params = Parameters::new(value.clone());
        params.pack();
        assert!(params.kept().is_none());
        let back = params.to_value();
        assert_eq!(back, value);
        // Equal is not enough: the same text (key order, number kinds, `-0.0`).
        assert_eq!(back.to_string(), value.to_string());
        assert_eq!(*params.keep(), value);
        assert!(params.kept().is_some());
    }

    #[test]
    fn packing_keeps_every_value_exactly() {
        round_trip(json!({
            "type": "object",
            "z": 1, "a": -1, "m": 1.0, "n": -0.0, "big": u64::MAX, "small": i64::MIN,
            "f": 1.5e300, "tiny": 5e-324,
            "s": "日本語 \u{0} \"q\"", "empty": "", "list": [null, true, false, [], {}],
            "long": "x".repeat(300),
        }));
        round_trip(
            json!({"type": "string", "enum": ["type", "typ", "string"], "$ref": "#/$defs/a"}),
        );
        round_trip(json!(null));
        round_trip(json!([1, [2, [3, [4]]]]));
        let many: Map<String, Value> = (0..1000).map(|i| (format!("k{i}"), json!(i))).collect();
        round_trip(Value::Object(many));
    }

    fn required_part(value: Value) -> Value {
        let mut params = Parameters::new(value);
        params.pack();
        params.with_required(Value::clone)
    }

    #[test]
    fn the_required_part_keeps_only_what_required_names() {
        assert_eq!(
            required_part(
                json!({"type": "object", "properties": {"a": {"type": "string"},
                "b": {"enum": [1]}}, "description": "D.", "required": ["b", 3]})
            ),
            json!({"properties": {"a": null, "b": {"enum": [1]}}, "required": ["b", 3]})
        );
        // Key order kept, whichever comes first.
        let part = required_part(json!({"required": ["a"], "properties": {"a": {}, "z": {}}}));
        assert_eq!(
            part.to_string(),
            r#"{"required":["a"],"properties":{"a":{},"z":null}}"#
        );
        assert_eq!(
            required_part(json!({"properties": "x", "required": "x", "title": "T"})),
            json!({"properties": "x", "required": "x"})
        );
        // A `$ref` anywhere, or a root that is no map: the whole value.
        let with_ref = json!({"properties": {"a": {"items": {"$ref": "#/x"}}}, "x": 1});
        assert_eq!(required_part(with_ref.clone()), with_ref);
        assert_eq!(required_part(json!([1, {"a": 2}])), json!([1, {"a": 2}]));
    }

    #[test]
    fn words_fit_in_a_byte_and_are_unique() {
        assert!(WORDS.len() <= 128);
        assert_eq!(WORDS[REF_WORD], "$ref");
        for (i, w) in WORDS.iter().enumerate() {
            assert_eq!(word(w), Some(i), "{w}");
        }
    }

    #[test]
    fn with_does_not_keep_the_unpacked_value() {
        let mut params = Parameters::new(json!({"type": "object"}));
        params.pack();
        assert_eq!(params.with(|v| v["type"].clone()), json!("object"));
        assert!(params.kept().is_none());
        let copy = params.clone();
        assert_eq!(copy, params);
    }
}
