//! Token counting: exact `o200k_base` / `cl100k_base` (tiktoken-compatible, vocabularies
//! compiled into the binary, nothing downloaded), and two labelled estimates.
//!
//! Encoders are built lazily on first use, so a run pays only for the tokenizer it asked for
//! and `--tokenizer chars` builds none.

use serde::Serialize;
use serde_json::Value;

use super::openai_functions;

/// Which tokenizer counts tokens.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum TokenizerKind {
    /// Exact `o200k_base` counts (GPT-4o, GPT-4.1, o-series).
    O200k,
    /// Exact `cl100k_base` counts (GPT-4, GPT-3.5).
    Cl100k,
    /// Estimate: characters / 4, rounded up.
    Chars,
    /// Estimate: OpenAI's published per-function overheads on top of o200k counts.
    OpenaiFunctions,
}

impl TokenizerKind {
    /// Whether counts are estimates rather than exact.
    pub fn is_estimate(self) -> bool {
        matches!(self, TokenizerKind::Chars | TokenizerKind::OpenaiFunctions)
    }

    /// The label shown in outputs.
    pub fn label(self) -> &'static str {
        match self {
            TokenizerKind::O200k => "o200k",
            TokenizerKind::Cl100k => "cl100k",
            TokenizerKind::Chars => "chars/4 estimate",
            TokenizerKind::OpenaiFunctions => "openai-functions estimate",
        }
    }
}

/// Counts tokens of texts and definitions with one tokenizer.
#[derive(Clone, Copy, Debug)]
pub struct Counter {
    kind: TokenizerKind,
}

impl Counter {
    /// A counter; the encoder is built on first use.
    pub fn new(kind: TokenizerKind) -> Counter {
        Counter { kind }
    }

    /// The tokenizer.
    pub fn kind(&self) -> TokenizerKind {
        self.kind
    }

    /// Tokens of plain text (an index, a definition's JSON).
    pub fn count_text(&self, text: &str) -> u64 {
        match self.kind {
            TokenizerKind::O200k | TokenizerKind::OpenaiFunctions => o200k(text),
            TokenizerKind::Cl100k => super::bpe::cl100k_base().count_chunked(text) as u64,
            TokenizerKind::Chars => text.chars().count().div_ceil(4) as u64,
        }
    }

    /// [`Counter::count_text`] of a text from the counts of its pieces, when it is cut only
    /// where counts add up (after a line feed that neither white space nor `/` follows, see
    /// `bpe::independent_chunks`), and from its size: the sum of the counts, but for the
    /// `chars` estimate, which is of the whole text. Texts that share pieces (the indexes of
    /// several profiles of one catalog, cut before each of their lines) count each piece once.
    pub fn count_pieces(&self, counts: impl IntoIterator<Item = u64>, size: super::Size) -> u64 {
        match self.kind {
            TokenizerKind::Chars => size.chars.div_ceil(4) as u64,
            _ => counts.into_iter().sum(),
        }
    }

    /// Tokens of a set of tool definitions: `parts` are `(name, description, parameters)` and
    /// `serialized` their wire texts. Exact tokenizers count each serialised definition; the
    /// `openai-functions` estimate applies OpenAI's per-function formula instead.
    pub fn count_definitions(&self, parts: &[(&str, &str, &Value)], serialized: &[String]) -> u64 {
        match self.kind {
            TokenizerKind::OpenaiFunctions => {
                let count = |t: &str| o200k(t) as usize;
                let functions: i64 = crate::catalog::parallel::map(parts.to_vec(), |(n, d, p)| {
                    openai_functions::function_tokens(n, d, p, &count)
                })
                .into_iter()
                .sum();
                let end = if parts.is_empty() {
                    0
                } else {
                    openai_functions::FUNC_END
                };
                u64::try_from(functions + end).unwrap_or(0)
            }
            // Definitions are counted one by one, so they are counted in parallel.
            _ => crate::catalog::parallel::map(serialized.iter().collect(), |s: &String| {
                self.count_text(s)
            })
            .into_iter()
            .sum(),
        }
    }
}

impl Counter {
    /// Tokens a request pays once for carrying `definitions` tool definitions, on top of
    /// their own ([`Counter::count_definition`]): the `openai-functions` estimate's closing
    /// overhead, none for exact counts.
    pub fn request_overhead(&self, definitions: usize) -> u64 {
        match self.kind {
            TokenizerKind::OpenaiFunctions if definitions > 0 => {
                u64::try_from(openai_functions::FUNC_END).unwrap_or(0)
            }
            _ => 0,
        }
    }

    /// Tokens of one tool definition on its own (without the once-per-request overhead of the
    /// `openai-functions` estimate), for per-tool comparisons.
    pub fn count_definition(
        &self,
        name: &str,
        description: &str,
        parameters: &Value,
        serialized: &str,
    ) -> u64 {
        match self.kind {
            TokenizerKind::OpenaiFunctions => {
                let count = |t: &str| o200k(t) as usize;
                u64::try_from(openai_functions::function_tokens(
                    name,
                    description,
                    parameters,
                    &count,
                ))
                .unwrap_or(0)
            }
            _ => self.count_text(serialized),
        }
    }
}

fn o200k(text: &str) -> u64 {
    super::bpe::o200k_base().count_chunked(text) as u64
}

#[cfg(test)]
mod piece_tests {
    use super::*;

    #[test]
    fn counts_of_pieces_add_up_to_the_whole() {
        // A miniature of the shared corpora's catalog, in the repository.
        assert_counts_of_pieces_add_up("tests/fixtures/corpus");
    }

    #[test]
    #[ignore = "needs ../shared/corpora beside the checkout (.ci/run runs it)"]
    fn counts_of_pieces_add_up_on_the_shared_corpora() {
        let dir = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared"));
        assert!(
            dir.join("corpora").is_dir(),
            "the shared corpora are expected beside the checkout at `{}`: this test is ignored by a plain `cargo test`; run the ignored tests where ../shared/corpora exists (as .ci/run does)",
            dir.join("corpora").display()
        );
        assert_counts_of_pieces_add_up("../shared/corpora");
    }

    /// `corpora` (relative to the repository) holds `github-mcp-server/tools.json`.
    fn assert_counts_of_pieces_add_up(corpora: &str) {
        let dir = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
        let index = std::fs::read_to_string(dir.join("snapshots/default/index.txt")).unwrap();
        let corpus =
            std::fs::read_to_string(dir.join(corpora).join("github-mcp-server/tools.json"))
                .unwrap();
        // An index, a pretty-printed catalog (indented lines: few cuts), both joined, text
        // that starts and ends with white space and `/`, and no text.
        let shared = format!("{index}{corpus}");
        let reordered = format!("\n {corpus}\n{index}  \n/tail\n");
        for kind in [
            TokenizerKind::O200k,
            TokenizerKind::Cl100k,
            TokenizerKind::Chars,
            TokenizerKind::OpenaiFunctions,
        ] {
            let counter = Counter::new(kind);
            for text in [&index, &shared, &reordered, &corpus, &String::new()] {
                let pieces = super::super::bpe::independent_chunks(text, 1);
                assert!(text.is_empty() || pieces.len() > 1 || !text.contains("\n-"));
                let counts = pieces.iter().map(|p| counter.count_text(p));
                assert_eq!(
                    counter.count_pieces(counts, super::super::Size::of(text)),
                    counter.count_text(text),
                    "{kind:?}"
                );
            }
        }
    }
}
