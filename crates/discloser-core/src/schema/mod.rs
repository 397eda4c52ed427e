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
