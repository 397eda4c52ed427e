//! How a tool definition is serialised for a provider, because that is what is paid for: the
//! one enum of wire shapes, owned by the catalog's formats.

pub use crate::catalog::formats::provider::{Definition, Provider};
