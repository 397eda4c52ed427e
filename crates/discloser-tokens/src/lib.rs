//! # discloser-tokens
//!
//! Exact `o200k_base` and `cl100k_base` token counts (OpenAI's tiktoken encodings) with no
//! construction cost: the vocabularies are laid out at compile time by `build.rs` as static
//! tables, the split patterns run on a lazy DFA, and long texts are cut at provably independent
//! points and counted on several cores. Usable alone:
//!
//! ```
//! let n = discloser_tokens::o200k_base().count("Hello, world!");
//! assert_eq!(n, 4);
//! ```
//!
//! Counts are checked against OpenAI's Python tiktoken in the workspace's tests.

#![warn(missing_docs)]

pub mod bpe;
mod fnv;
pub mod parallel;

pub use bpe::{Encoding, cl100k_base, independent_chunks, o200k_base};
