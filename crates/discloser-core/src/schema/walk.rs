//! The one walk over the subschemas of a JSON Schema, with their JSON pointers.
//!
//! [`Walk`] yields every subschema (an object, or `true`/`false` where [`KEYWORDS`] puts a
//! schema) of a root, the root first, then depth-first in document order: keys in the order
//! written, the entries of a map and the items of a list in order. It guarantees:
//! - it never recurses, so a deeply nested schema cannot overflow the stack;
//! - a node's pointer (RFC 6901: `~` as `~0`, `/` as `~1`) is spelled only when asked for
//!   ([`Walk::pointer`]): a walk that looks at every node costs no string per node;
//! - it follows no `$ref`: a walk is of a tree, so a recursive schema is walked once (following
//!   references is [`super::resolve`]'s).
//!
//! [`walk_mut`] visits the same nodes, mutably, for rewrites (no pointers).
//!
//! [`KEYWORDS`]: super::keywords::KEYWORDS

use serde_json::{Map, Value};

use super::keywords::{Holds, holds};

/// Which values a walk enters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach {
    /// Only the subschemas of the keywords of [`KEYWORDS`] that hold schemas, in the shape the
    /// table gives them (a list keyword's value that is not a list holds nothing, `items`'s
    /// list form included): what a validator of the newest draft applies.
    ///
    /// [`KEYWORDS`]: super::keywords::KEYWORDS
    Keywords,
    /// As [`Reach::Keywords`], without the subschemas of these keywords.
    KeywordsExcept(&'static [&'static str]),
    /// Every value that is not data (`enum`, `const`, `default`, `examples`, `example`): unknown
    /// keywords and wrongly shaped ones too, each object met there being taken for a schema and
    /// each list for a list of them. The keys of a map of names (`properties`, `$defs`, ...)
    /// are names, never keywords: a property called `enum` is a schema. For finding every
    /// `$ref` a resolver could be asked to follow.
    NonData,
}

/// How one key of a schema is entered.
enum Step {
    /// Not entered.
    Skip,
    /// Its value is one subschema.
    One,
    /// Its value maps names to subschemas.
    Names,
    /// Its value lists subschemas.
    Items,
    /// Its value is entered as a value that may hold schemas ([`Reach::NonData`] only).
    Any,
}

fn step(reach: Reach, key: &str, value: &Value) -> Step {
    let by_table = |holds: Option<Holds>| match (holds, value) {
        (Some(Holds::Schema), Value::Object(_) | Value::Bool(_)) => Some(Step::One),
        (Some(Holds::Map), Value::Object(_)) => Some(Step::Names),
        (Some(Holds::List), Value::Array(_)) => Some(Step::Items),
        _ => None,
    };
    match reach {
        Reach::KeywordsExcept(skipped) if skipped.contains(&key) => Step::Skip,
        Reach::Keywords | Reach::KeywordsExcept(_) => by_table(holds(key)).unwrap_or(Step::Skip),
        Reach::NonData => match holds(key) {
            Some(Holds::Data) => Step::Skip,
            known => by_table(known).unwrap_or(Step::Any),
        },
    }
}

/// One subschema met by a [`Walk`].
#[derive(Clone, Copy, Debug)]
pub struct Node<'v> {
    /// The subschema.
    pub value: &'v Value,
    /// How many schemas enclose it (the root is at 0, the schemas of its `properties` at 1).
    pub depth: usize,
    /// 1 + its index in [`Walk::path`], or 0 for the root.
    at: usize,
}

/// One step of a path through the document.
#[derive(Clone, Copy, Debug)]
enum Segment<'v> {
    Key(&'v str),
    Index(usize),
}

/// A value still to visit.
struct Frame<'v> {
    value: &'v Value,
    at: usize,
    depth: usize,
    /// Whether the table puts a schema here (then `true`/`false` is a schema too).
    schema: bool,
}

/// The subschemas of a root, as an iterator of [`Node`]s (see the module docs).
pub struct Walk<'v> {
    reach: Reach,
    max_depth: usize,
    last_first: bool,
    stack: Vec<Frame<'v>>,
    /// `path[i]` is (1 + the index of its parent here, or 0 for the root; its segment).
    path: Vec<(usize, Segment<'v>)>,
}

impl<'v> Walk<'v> {
    /// A walk of `root` and the subschemas `reach` enters.
    pub fn new(root: &'v Value, reach: Reach) -> Walk<'v> {
        Walk {
            reach,
            max_depth: usize::MAX,
            last_first: false,
            stack: vec![Frame {
                value: root,
                at: 0,
                depth: 0,
                schema: true,
            }],
            path: Vec::new(),
        }
    }

    /// Yields no node deeper than `depth` (nor anything under it).
    pub fn max_depth(self, depth: usize) -> Walk<'v> {
        Walk {
            max_depth: depth,
            ..self
        }
    }

    /// Visits the children of each node last first (the order of a plain stack), for a caller
    /// whose output has always come in that order.
    pub fn last_first(self) -> Walk<'v> {
        Walk {
            last_first: true,
            ..self
        }
    }

    /// The JSON pointer of `node` from the root (`""` for the root itself).
    pub fn pointer(&self, node: &Node<'v>) -> String {
        let mut segments = Vec::new();
        let mut at = node.at;
        while at > 0 {
            let (parent, segment) = self.path[at - 1];
            segments.push(segment);
            at = parent;
        }
        let mut pointer = String::new();
        for segment in segments.into_iter().rev() {
            pointer.push('/');
            match segment {
                Segment::Key(key) if key.contains(['~', '/']) => {
                    pointer.push_str(&key.replace('~', "~0").replace('/', "~1"));
                }
                Segment::Key(key) => pointer.push_str(key),
                Segment::Index(i) => pointer.push_str(&i.to_string()),
            }
        }
        pointer
    }

    /// Records `segment` under the node at `parent`; what its children take as their parent.
    fn segment(&mut self, parent: usize, segment: Segment<'v>) -> usize {
        self.path.push((parent, segment));
        self.path.len()
    }

    fn push(&mut self, value: &'v Value, at: usize, depth: usize, schema: bool) {
        self.stack.push(Frame {
            value,
            at,
            depth,
            schema,
        });
    }

    /// Puts the subschemas of the schema `map` (at `at`, `depth`) on the stack.
    fn push_children(&mut self, map: &'v Map<String, Value>, at: usize, depth: usize) {
        let start = self.stack.len();
        for (key, value) in map {
            let step = step(self.reach, key, value);
            if matches!(step, Step::Skip) {
                continue;
            }
            let here = self.segment(at, Segment::Key(key));
            match (step, value) {
                (Step::One, _) => self.push(value, here, depth + 1, true),
                (Step::Any, _) => self.push(value, here, depth + 1, false),
                (Step::Names, Value::Object(names)) => {
                    for (name, value) in names {
                        let at = self.segment(here, Segment::Key(name));
                        self.push(value, at, depth + 1, true);
                    }
                }
                (Step::Items, Value::Array(items)) => {
                    for (i, value) in items.iter().enumerate() {
                        let at = self.segment(here, Segment::Index(i));
                        self.push(value, at, depth + 1, true);
                    }
                }
                _ => {}
            }
        }
        self.order(start);
    }

    /// Puts the items of a list met by [`Reach::NonData`] on the stack.
    fn push_items(&mut self, items: &'v [Value], at: usize, depth: usize) {
        let start = self.stack.len();
        for (i, value) in items.iter().enumerate() {
            let at = self.segment(at, Segment::Index(i));
            self.push(value, at, depth, false);
        }
        self.order(start);
    }

    /// Orders the frames pushed since `start` so that the first written is popped first (or,
    /// with [`Walk::last_first`], last).
    fn order(&mut self, start: usize) {
        if !self.last_first {
            self.stack[start..].reverse();
        }
    }
}

impl<'v> Iterator for Walk<'v> {
    type Item = Node<'v>;

    fn next(&mut self) -> Option<Node<'v>> {
        loop {
            let Frame {
                value,
                at,
                depth,
                schema,
            } = self.stack.pop()?;
            let node = Node { value, depth, at };
            match value {
                _ if depth > self.max_depth => {}
                Value::Object(map) => {
                    self.push_children(map, at, depth);
                    return Some(node);
                }
                Value::Bool(_) if schema => return Some(node),
                Value::Array(items) if self.reach == Reach::NonData => {
                    self.push_items(items, at, depth);
                }
                _ => {}
            }
        }
    }
}

/// Calls `f` on every node a [`Walk`] of `root` with `reach` would yield, each before the
/// subschemas it holds once `f` is done with it (so `f` may remove keys it does not want
/// walked).
pub fn walk_mut(root: &mut Value, reach: Reach, mut f: impl FnMut(&mut Value)) {
    let mut stack: Vec<(&mut Value, bool)> = vec![(root, true)];
    while let Some((value, schema)) = stack.pop() {
        let start = stack.len();
        match value {
            Value::Object(_) => {
                f(value);
                let Value::Object(map) = value else {
                    continue;
                };
                for (key, value) in map.iter_mut() {
                    match (step(reach, key, value), value) {
                        (Step::One, value) => stack.push((value, true)),
                        (Step::Any, value) => stack.push((value, false)),
                        (Step::Names, Value::Object(names)) => {
                            stack.extend(names.values_mut().map(|v| (v, true)));
                        }
                        (Step::Items, Value::Array(items)) => {
                            stack.extend(items.iter_mut().map(|v| (v, true)));
                        }
                        _ => {}
                    }
                }
            }
            Value::Bool(_) if schema => f(value),
            Value::Array(items) if reach == Reach::NonData => {
                stack.extend(items.iter_mut().map(|v| (v, false)));
            }
            _ => {}
        }
        stack[start..].reverse();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// (pointer, depth) of every node of the walk.
    fn nodes(root: &Value, reach: Reach) -> Vec<(String, usize)> {
        let mut walk = Walk::new(root, reach);
        let mut out = Vec::new();
        while let Some(node) = walk.next() {
            out.push((walk.pointer(&node), node.depth));
        }
        out
    }

    fn pointers(root: &Value, reach: Reach) -> Vec<String> {
        nodes(root, reach).into_iter().map(|(p, _)| p).collect()
    }

    #[test]
    fn every_kind_of_keyword_is_walked_in_document_order() {
        let schema = json!({
            "type": "object",
            "properties": {"a": {"type": "string"}, "b": {"items": {"type": "integer"}}},
            "anyOf": [{"required": ["a"]}, {"required": ["b"]}],
            "not": {"const": 1},
            "$defs": {"D": {"prefixItems": [{}, {}]}},
            "additionalProperties": {"type": "number"}
        });
        assert_eq!(
            nodes(&schema, Reach::Keywords),
            [
                ("", 0),
                ("/properties/a", 1),
                ("/properties/b", 1),
                ("/properties/b/items", 2),
                ("/anyOf/0", 1),
                ("/anyOf/1", 1),
                ("/not", 1),
                ("/$defs/D", 1),
                ("/$defs/D/prefixItems/0", 2),
                ("/$defs/D/prefixItems/1", 2),
                ("/additionalProperties", 1),
            ]
            .map(|(p, d)| (p.to_owned(), d))
        );
    }

    #[test]
    fn every_schema_keyword_of_the_table_is_entered() {
        use super::super::keywords::KEYWORDS;
        for keyword in KEYWORDS {
            let (value, expected) = match keyword.holds {
                Holds::Schema => (json!({}), format!("/{}", keyword.name)),
                Holds::Map => (json!({"n": {}}), format!("/{}/n", keyword.name)),
                Holds::List => (json!([{}]), format!("/{}/0", keyword.name)),
                Holds::Data => (json!({}), String::new()),
            };
            let mut schema = Map::new();
            schema.insert(keyword.name.to_owned(), value);
            let schema = Value::Object(schema);
            let found = pointers(&schema, Reach::Keywords);
            match keyword.holds {
                Holds::Data => assert_eq!(found, [""], "{}", keyword.name),
                _ => assert_eq!(found, ["".to_owned(), expected], "{}", keyword.name),
            }
        }
    }

    #[test]
    fn pointers_escape_tilde_and_slash() {
        let schema = json!({"properties": {"a/b": {}, "c~d": {}, "~/": {"$defs": {"x~1": {}}}}});
        assert_eq!(
            pointers(&schema, Reach::Keywords),
            [
                "",
                "/properties/a~1b",
                "/properties/c~0d",
                "/properties/~0~1",
                "/properties/~0~1/$defs/x~01"
            ]
        );
        for pointer in pointers(&schema, Reach::Keywords) {
            assert!(schema.pointer(&pointer).is_some(), "{pointer}");
        }
    }

    #[test]
    fn boolean_schemas_are_nodes_where_a_schema_goes_and_nowhere_else() {
        let schema = json!({
            "properties": {"a": true, "b": false},
            "additionalProperties": false,
            "items": true,
            "anyOf": [true],
            "x-flag": true,
            "uniqueItems": true
        });
        let expected = [
            "",
            "/properties/a",
            "/properties/b",
            "/additionalProperties",
            "/items",
            "/anyOf/0",
        ];
        assert_eq!(pointers(&schema, Reach::Keywords), expected);
        assert_eq!(pointers(&schema, Reach::NonData), expected);
        assert_eq!(pointers(&json!(true), Reach::Keywords), [""]);
    }

    #[test]
    fn wrong_shapes_hold_no_schema_by_keywords_but_are_entered_by_non_data() {
        let schema = json!({
            "anyOf": {"$ref": "#/x"},
            "properties": [{"type": "string"}],
            "items": [{"type": "string"}, [{"type": "integer"}]],
            "x-extension": {"nested": {"type": "string"}},
            "enum": [{"type": "string"}],
            "const": {"type": "string"},
            "default": {"type": "string"},
            "examples": [{}],
            "example": {},
            "required": ["a"]
        });
        assert_eq!(pointers(&schema, Reach::Keywords), [""]);
        assert_eq!(
            pointers(&schema, Reach::NonData),
            [
                "",
                "/anyOf",
                "/properties/0",
                "/items/0",
                "/items/1/0",
                "/x-extension",
                "/x-extension/nested",
            ]
        );
    }

    #[test]
    fn names_in_a_map_are_names_not_keywords() {
        let schema =
            json!({"properties": {"enum": {"type": "string"}, "properties": {}, "$ref": {}}});
        let expected = [
            "",
            "/properties/enum",
            "/properties/properties",
            "/properties/$ref",
        ];
        assert_eq!(pointers(&schema, Reach::Keywords), expected);
        assert_eq!(pointers(&schema, Reach::NonData), expected);
    }

    #[test]
    fn skipped_keywords_are_not_entered() {
        let schema = json!({"if": {}, "then": {"not": {}}, "not": {}});
        assert_eq!(
            pointers(&schema, Reach::KeywordsExcept(&["then"])),
            ["", "/if", "/not"]
        );
    }

    #[test]
    fn depth_is_bounded_and_order_can_be_last_first() {
        let schema =
            json!({"properties": {"a": {"properties": {"b": {"properties": {"c": {}}}}}, "z": {}}});
        let mut walk = Walk::new(&schema, Reach::Keywords)
            .max_depth(2)
            .last_first();
        let mut found = Vec::new();
        while let Some(node) = walk.next() {
            found.push(walk.pointer(&node));
        }
        assert_eq!(
            found,
            [
                "",
                "/properties/z",
                "/properties/a",
                "/properties/a/properties/b"
            ]
        );
    }

    #[test]
    fn a_recursive_schema_is_walked_once_as_the_tree_it_is() {
        let schema =
            json!({"$defs": {"Node": {"items": {"$ref": "#/$defs/Node"}}}, "$ref": "#/$defs/Node"});
        assert_eq!(
            pointers(&schema, Reach::NonData),
            ["", "/$defs/Node", "/$defs/Node/items"]
        );
    }

    #[test]
    fn a_deep_schema_does_not_overflow_the_stack() {
        let mut schema = json!({});
        for _ in 0..100_000 {
            // Not `json!`, which would serialise `schema` recursively.
            let mut map = Map::new();
            map.insert("items".to_owned(), schema);
            schema = Value::Object(map);
        }
        assert_eq!(Walk::new(&schema, Reach::Keywords).count(), 100_001);
        let mut count = 0;
        walk_mut(&mut schema, Reach::NonData, |_| count += 1);
        assert_eq!(count, 100_001);
        // Dropping a value this deep recurses in serde_json; take it apart iteratively.
        let mut next = Some(schema);
        while let Some(mut value) = next.take() {
            next = value.as_object_mut().and_then(|m| m.remove("items"));
        }
    }

    #[test]
    fn walk_mut_visits_what_walk_yields_and_sees_its_own_removals() {
        let schema = json!({
            "properties": {"a": {"type": "string", "$defs": {"gone": {}}}, "b": true},
            "x-extension": {"type": "string"},
            "anyOf": [{"not": {}}]
        });
        for reach in [Reach::Keywords, Reach::NonData] {
            let mut copy = schema.clone();
            let mut seen = 0;
            walk_mut(&mut copy, reach, |_| seen += 1);
            assert_eq!(seen, Walk::new(&schema, reach).count(), "{reach:?}");
        }
        let mut copy = schema.clone();
        let mut types = Vec::new();
        walk_mut(&mut copy, Reach::NonData, |node| {
            if let Value::Object(map) = node {
                map.shift_remove("$defs");
                types.extend(map.get("type").cloned());
            }
        });
        assert_eq!(types, [json!("string"), json!("string")]);
        assert!(copy["properties"]["a"].get("$defs").is_none());
    }
}
