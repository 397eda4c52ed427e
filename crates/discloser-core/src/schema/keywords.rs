//! The one table of JSON Schema keywords whose value discloser looks into or must not look
//! into: which hold a subschema, a map of named subschemas or a list of them, and which hold
//! data (an `enum`'s values are never schemas, even when they look like one).
//!
//! Keywords outside the table (`type`, `description`, `required`, `x-...`) hold neither: a walk
//! by keywords never enters them, a walk of everything that is not data does (see
//! [`super::walk::Reach`]).

/// The drafts of JSON Schema, in order, for the table's `since` and `until` columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Draft {
    /// Draft 4 (2013).
    Draft4,
    /// Draft 6 (2017).
    Draft6,
    /// Draft 7 (2018).
    Draft7,
    /// Draft 2019-09.
    Draft2019_09,
    /// Draft 2020-12.
    Draft2020_12,
}

/// What a keyword's value holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Holds {
    /// One subschema (`not`, `additionalProperties`): an object, or `true`/`false`.
    Schema,
    /// A map from names (property names, patterns, definition names) to subschemas.
    Map,
    /// A list of subschemas (`anyOf`, `prefixItems`).
    List,
    /// Data, not schemas (`enum`, `const`, `default`): never walked into, whatever it holds.
    Data,
}

/// One row of [`KEYWORDS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Keyword {
    /// The keyword as written.
    pub name: &'static str,
    /// What its value holds.
    pub holds: Holds,
    /// The first draft that defines it; `None` for OpenAPI's `example`, which is no draft's but
    /// is data wherever it appears.
    pub since: Option<Draft>,
    /// The last draft that defines it; `None` while the newest draft still has it.
    pub until: Option<Draft>,
}

impl Keyword {
    /// Whether `draft` defines this keyword.
    pub fn defined_in(&self, draft: Draft) -> bool {
        self.since.is_some_and(|since| since <= draft) && self.until.is_none_or(|u| draft <= u)
    }
}

/// Declares [`KEYWORDS`] and [`holds`] from one list, so that the lookup every walk makes per
/// key is a `match`, not a scan of the table, and the two cannot disagree.
macro_rules! keywords {
    ($($name:literal => $holds:ident, $since:expr, $until:expr;)*) => {
        /// Every keyword whose value is a subschema, a map or list of subschemas, or data, with
        /// the drafts that define it. `items` is listed as one subschema: its list form (tuple
        /// validation, drafts 4 to 2019-09; `prefixItems` since 2020-12) is not followed by a
        /// walk by keywords, as no caller ever did. `dependencies` (drafts 4 to 7: a subschema
        /// or a list of names per property) is not listed: no caller ever walked it.
        pub const KEYWORDS: &[Keyword] = &[$(Keyword {
            name: $name,
            holds: Holds::$holds,
            since: $since,
            until: $until,
        }),*];

        /// What the value of keyword `name` holds; `None` for a keyword outside [`KEYWORDS`].
        pub fn holds(name: &str) -> Option<Holds> {
            match name {
                $($name => Some(Holds::$holds),)*
                _ => None,
            }
        }
    };
}

use Draft::{Draft4, Draft6, Draft7, Draft2019_09, Draft2020_12};

keywords! {
    "properties" => Map, Some(Draft4), None;
    "patternProperties" => Map, Some(Draft4), None;
    "$defs" => Map, Some(Draft2019_09), None;
    // Renamed `$defs` in 2019-09; later drafts still resolve pointers into it.
    "definitions" => Map, Some(Draft4), Some(Draft7);
    "dependentSchemas" => Map, Some(Draft2019_09), None;
    "items" => Schema, Some(Draft4), None;
    "additionalItems" => Schema, Some(Draft4), Some(Draft2019_09);
    "additionalProperties" => Schema, Some(Draft4), None;
    "not" => Schema, Some(Draft4), None;
    "if" => Schema, Some(Draft7), None;
    "then" => Schema, Some(Draft7), None;
    "else" => Schema, Some(Draft7), None;
    "contains" => Schema, Some(Draft6), None;
    "propertyNames" => Schema, Some(Draft6), None;
    "unevaluatedItems" => Schema, Some(Draft2019_09), None;
    "unevaluatedProperties" => Schema, Some(Draft2019_09), None;
    "anyOf" => List, Some(Draft4), None;
    "oneOf" => List, Some(Draft4), None;
    "allOf" => List, Some(Draft4), None;
    "prefixItems" => List, Some(Draft2020_12), None;
    "enum" => Data, Some(Draft4), None;
    "const" => Data, Some(Draft6), None;
    "default" => Data, Some(Draft4), None;
    "examples" => Data, Some(Draft6), None;
    "example" => Data, None, None;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lookup_and_the_table_agree_and_names_are_unique() {
        for (i, keyword) in KEYWORDS.iter().enumerate() {
            assert_eq!(holds(keyword.name), Some(keyword.holds), "{}", keyword.name);
            assert!(
                KEYWORDS[..i].iter().all(|k| k.name != keyword.name),
                "{} is listed twice",
                keyword.name
            );
        }
        assert_eq!(holds("type"), None);
        assert_eq!(holds("required"), None);
    }

    #[test]
    fn drafts_say_where_a_keyword_is_defined() {
        let row = |name: &str| KEYWORDS.iter().find(|k| k.name == name).expect(name);
        assert!(row("prefixItems").defined_in(Draft2020_12));
        assert!(!row("prefixItems").defined_in(Draft2019_09));
        assert!(row("definitions").defined_in(Draft4));
        assert!(!row("definitions").defined_in(Draft2019_09));
        assert!(row("additionalItems").defined_in(Draft2019_09));
        assert!(!row("additionalItems").defined_in(Draft2020_12));
        assert!(!row("example").defined_in(Draft2020_12));
    }
}
