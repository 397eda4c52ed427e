//! The one resolving view over `$ref`s: which document a schema node lives in, what its `$ref`
//! designates, and the chain of references followed to a node without one.
//!
//! Supported: JSON pointers (`#`, `#/$defs/X`, `%`-escapes such as `%24defs` included) into the
//! node's own document, and into another document named by a relative file (`common.yaml#/$defs/X`),
//! which [`Documents::file`] finds. Refused with a [`RefError`]: remote references (never
//! fetched), `#anchor` references, pointers to nothing, and chains that loop or run longer than
//! [`MAX_CHAIN`]: following references never loops.

use serde_json::Value;

use super::Key;
use crate::diagnostic::did_you_mean;
use crate::source::{pointer_push, pointer_segments};

/// Which document a schema node lives in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum DocId {
    /// The `parameters` of the tool at this index of [`Catalog::tools`].
    ///
    /// [`Catalog::tools`]: crate::catalog::Catalog::tools
    Tool(usize),
    /// A schema file referenced from a tool.
    File(usize),
}

/// A schema node and the document it belongs to (so its own `$ref`s resolve correctly).
#[derive(Clone, Copy, Debug)]
pub struct Schema<'a> {
    /// The document `value` belongs to.
    pub doc: DocId,
    /// The schema node.
    pub value: &'a Value,
}

/// Why a reference does not resolve, and a `help:` line when one can be given (the nearest
/// existing definition or file).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefError(pub String, pub Option<String>);

impl RefError {
    /// An error without help.
    pub(crate) fn new(message: String) -> RefError {
        RefError(message, None)
    }
}

/// Longest chain of `$ref` → `$ref` → ... followed before giving up.
pub const MAX_CHAIN: usize = 64;

/// The documents references resolve in.
pub trait Documents<'a>: Copy {
    /// The whole of document `doc`.
    fn root(self, doc: DocId) -> &'a Value;
    /// The document that `file`, the file part of a `$ref` in document `from`, designates.
    fn file(self, from: DocId, file: &str) -> Result<DocId, RefError>;
}

/// One document alone: every [`DocId`] names it, and a reference into a file does not resolve.
#[derive(Clone, Copy, Debug)]
pub struct Local<'a>(pub &'a Value);

impl<'a> Documents<'a> for Local<'a> {
    fn root(self, _: DocId) -> &'a Value {
        self.0
    }

    fn file(self, _: DocId, file: &str) -> Result<DocId, RefError> {
        Err(RefError::new(format!(
            "`$ref` target `{file}` is another document"
        )))
    }
}

/// A parsed `$ref` string.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefTarget<'s> {
    /// A pointer into the referring document (`#/$defs/X`; `""` for `#`).
    Local(&'s str),
    /// A file relative to the referring one, and a pointer into it (`common.yaml#/$defs/X`).
    File(&'s str, &'s str),
}

/// Parses a `$ref`, refusing remote references and anchors.
pub fn parse_ref(reference: &str) -> Result<RefTarget<'_>, RefError> {
    if reference.contains("://") || reference.starts_with("//") {
        return Err(RefError::new(format!(
            "remote `$ref` `{reference}` is not fetched; copy the schema into the project and refer to the file"
        )));
    }
    let (file, fragment) = reference.split_once('#').unwrap_or((reference, ""));
    if !fragment.is_empty() && !fragment.starts_with('/') {
        return Err(RefError::new(format!(
            "`$ref` `{reference}` uses an anchor; only JSON pointers (`#/$defs/...`) are supported"
        )));
    }
    Ok(if file.is_empty() {
        RefTarget::Local(fragment)
    } else {
        RefTarget::File(file, fragment)
    })
}

/// Follows the `$ref` of `schema` one step (the node itself when it has none).
pub fn resolve_once<'a>(
    docs: impl Documents<'a>,
    schema: Schema<'a>,
) -> Result<Schema<'a>, RefError> {
    let Some(reference) = schema.value.key("$ref").and_then(Value::as_str) else {
        return Ok(schema);
    };
    let (doc, pointer) = match parse_ref(reference)? {
        RefTarget::Local(pointer) => (schema.doc, pointer),
        RefTarget::File(file, pointer) => (docs.file(schema.doc, file)?, pointer),
    };
    let root = docs.root(doc);
    let value = resolve_pointer(root, pointer).ok_or_else(|| {
        let help = nearest_pointer(root, pointer).map(|near| {
            let file = reference.split_once('#').map_or("", |(f, _)| f);
            format!("did you mean `{file}#{near}`?")
        });
        RefError(
            format!("`$ref` `{reference}` points to nothing: no `{pointer}` in its document"),
            help,
        )
    })?;
    Ok(Schema { doc, value })
}

/// Follows `$ref`s from `schema` to a node without one; a chain that comes back to a node it
/// passed, or runs longer than [`MAX_CHAIN`], is an error.
pub fn deref<'a>(docs: impl Documents<'a>, mut schema: Schema<'a>) -> Result<Schema<'a>, RefError> {
    let mut seen: Vec<(DocId, *const Value)> = Vec::new();
    while let Some(reference) = schema.value.key("$ref").and_then(Value::as_str) {
        let key = (schema.doc, std::ptr::from_ref(schema.value));
        if seen.contains(&key) {
            let chain = seen.len();
            return Err(RefError::new(format!(
                "`$ref` `{reference}` is part of a cycle of references ({chain} steps)"
            )));
        }
        if seen.len() >= MAX_CHAIN {
            return Err(RefError::new(format!(
                "`$ref` `{reference}` starts a chain of more than {MAX_CHAIN} references"
            )));
        }
        seen.push(key);
        schema = resolve_once(docs, schema)?;
    }
    Ok(schema)
}

/// A `$ref` fragment with the `%`-escapes commonly found in them (`%24`, `%25`, `%20`) decoded.
pub(crate) fn decode_fragment(pointer: &str) -> String {
    pointer
        .replace("%24", "$")
        .replace("%25", "%")
        .replace("%20", " ")
}

/// `Value::pointer`, also accepting `%25`-style escapes commonly found in `$ref` fragments.
pub fn resolve_pointer<'a>(root: &'a Value, pointer: &str) -> Option<&'a Value> {
    root.pointer(pointer)
        .or_else(|| root.pointer(&decode_fragment(pointer)))
}

/// The existing pointer nearest to `pointer` in `root`: each segment that names nothing is
/// replaced by the nearest key of its mapping (`Cabin` by `CabinClass`). `None` when some
/// segment has no near key, or leaves a mapping.
fn nearest_pointer(root: &Value, pointer: &str) -> Option<String> {
    let decoded = decode_fragment(pointer);
    let mut node = root;
    let mut near = String::new();
    let mut changed = false;
    for segment in pointer_segments(&decoded) {
        let next = match node {
            Value::Object(map) => match map.get_key_value(segment.as_str()) {
                Some(found) => found,
                None => {
                    let key = did_you_mean(&segment, map.keys().map(String::as_str))?;
                    changed = true;
                    map.get_key_value(key)?
                }
            },
            Value::Array(items) => {
                let item = items.get(segment.parse::<usize>().ok()?)?;
                near = pointer_push(&near, &segment);
                node = item;
                continue;
            }
            _ => return None,
        };
        near = pointer_push(&near, next.0);
        node = next.1;
    }
    changed.then_some(near)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn at<'a>(root: &'a Value, pointer: &str) -> Schema<'a> {
        Schema {
            doc: DocId::Tool(0),
            value: root.pointer(pointer).expect(pointer),
        }
    }

    #[test]
    fn a_chain_of_local_references_is_followed_to_its_end() {
        let root = json!({"$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/%24defs/C"}, "C": {"type": "string"}},
            "properties": {"x": {"$ref": "#/$defs/A"}}});
        let found = deref(Local(&root), at(&root, "/properties/x")).unwrap();
        assert_eq!(found.value, &json!({"type": "string"}));
        let once = resolve_once(Local(&root), at(&root, "/properties/x")).unwrap();
        assert!(std::ptr::eq(once.value, &root["$defs"]["A"]));
        let plain = at(&root, "/$defs/C");
        assert!(std::ptr::eq(
            deref(Local(&root), plain).unwrap().value,
            plain.value
        ));
    }

    #[test]
    fn a_self_referencing_ref_is_an_error_not_a_loop() {
        let root = json!({"$defs": {"A": {"$ref": "#/$defs/A"}}, "$ref": "#"});
        let e = deref(Local(&root), at(&root, "/$defs/A")).unwrap_err();
        assert!(
            e.0.contains("part of a cycle of references (1 steps)"),
            "{e:?}"
        );
        let e = deref(Local(&root), at(&root, "")).unwrap_err();
        assert!(e.0.contains("cycle"), "{e:?}");
        let two = json!({"$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}}});
        let e = deref(Local(&two), at(&two, "/$defs/A")).unwrap_err();
        assert!(e.0.contains("(2 steps)"), "{e:?}");
    }

    #[test]
    fn a_chain_longer_than_the_bound_is_an_error() {
        let mut defs = serde_json::Map::new();
        for i in 0..=MAX_CHAIN {
            defs.insert(
                format!("d{i}"),
                json!({"$ref": format!("#/$defs/d{}", i + 1)}),
            );
        }
        defs.insert(format!("d{}", MAX_CHAIN + 1), json!({}));
        let root = json!({"$defs": defs});
        let e = deref(Local(&root), at(&root, "/$defs/d0")).unwrap_err();
        assert!(e.0.contains("chain of more than 64"), "{e:?}");
        assert!(deref(Local(&root), at(&root, "/$defs/d1")).is_ok());
    }

    #[test]
    fn unresolvable_references_say_why_and_suggest_the_nearest() {
        let root = json!({"$defs": {"CabinClass": {}}, "properties": {
            "a": {"$ref": "#/$defs/Cabin"}, "b": {"$ref": "https://x.org/s.json"},
            "c": {"$ref": "#anchor"}, "d": {"$ref": "other.json#/$defs/X"}}});
        let e = deref(Local(&root), at(&root, "/properties/a")).unwrap_err();
        assert_eq!(e.1.as_deref(), Some("did you mean `#/$defs/CabinClass`?"));
        for (p, says) in [
            ("b", "is not fetched"),
            ("c", "anchor"),
            ("d", "another document"),
        ] {
            let e = deref(Local(&root), at(&root, &format!("/properties/{p}"))).unwrap_err();
            assert!(e.0.contains(says), "{p}: {e:?}");
        }
    }
}
