//! JSON Schema as discloser reads it, in one place: the table of keywords that hold subschemas
//! or data ([`keywords`]), the walk over subschemas with their JSON pointers ([`walk`]), the
//! view that follows `$ref`s across documents without looping ([`resolve`]), and the closed set
//! of values a schema declares, read through that view ([`closed`]).
//!
//! It knows no catalog: documents are whatever implements [`resolve::Documents`] (the catalog's
//! tools and referenced files, or one schema alone with [`resolve::Local`]).

pub mod closed;
pub mod keywords;
pub mod resolve;
pub mod walk;

pub use closed::closed_values;
pub use keywords::{Holds, KEYWORDS, Keyword};
pub use resolve::{DocId, Documents, Local, RefError, Schema, deref};
pub use walk::{Node, Reach, Walk, walk_mut};

use serde_json::Value;

/// One key of a JSON object, read as [`Value::get`] reads it (`None` for a value that is not
/// an object), with no hash for a small object.
pub trait Key {
    /// The value at `key`, if this is an object that has it.
    fn key(&self, key: &str) -> Option<&Value>;
}

/// Objects up to this many keys are searched key by key: a schema's objects hold a handful,
/// and hashing the key (SipHash, the map's hasher) cost more than comparing them all.
const SCAN_KEYS_UP_TO: usize = 16;

impl Key for Value {
    #[inline]
    fn key(&self, key: &str) -> Option<&Value> {
        let map = self.as_object()?;
        if map.len() <= SCAN_KEYS_UP_TO {
            map.iter().find_map(|(k, v)| (k == key).then_some(v))
        } else {
            map.get(key)
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::Key;

    /// `key` reads what `get` reads, in objects below and above the size it stops scanning at.
    #[test]
    fn key_is_get() {
        for size in [
            0,
            1,
            super::SCAN_KEYS_UP_TO,
            super::SCAN_KEYS_UP_TO + 1,
            100,
        ] {
            let object: serde_json::Map<String, serde_json::Value> =
                (0..size).map(|i| (format!("k{i}"), json!(i))).collect();
            let value = serde_json::Value::Object(object);
            for key in ["k0", "k15", "k16", "k99", "k", "", "K0"] {
                assert_eq!(value.key(key), value.get(key), "{size} {key}");
            }
        }
        for other in [json!(null), json!([1, 2]), json!("k0"), json!(1)] {
            assert_eq!(other.key("k0"), None);
        }
    }
}
