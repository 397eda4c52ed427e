//! What the tool definitions of each configuration cost: characters, bytes and tokens of
//! "everything bound" against "starter set + index" for every profile, and per tool.
//!
//! A configuration's cost is the sum of its bound tools' serialised definitions (see
//! [`provider`]), plus, for a profile, the rendered index (text style) and the search tool's
//! definition when the config declares one. Schemas are counted as sent, references into other
//! files bundled ([`crate::catalog::Catalog::bundled`]). Characters are Unicode scalar values of
//! exactly those bytes. Tokens come from the chosen [`tokenizer`]; `chars` and
//! `openai-functions` are estimates and say so.

pub use discloser_tokens::bpe;
pub mod openai_functions;
pub mod provider;
pub mod tokenizer;

use serde::Serialize;

use crate::index::Lines;
use crate::project::{Profile, Project};

pub use provider::Provider;
pub use tokenizer::{Counter, TokenizerKind};

/// Characters and bytes of some text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Size {
    /// Unicode scalar values.
    pub chars: usize,
    /// UTF-8 bytes.
    pub bytes: usize,
}

impl Size {
    /// The size of `text`.
    pub fn of(text: &str) -> Size {
        Size {
            chars: text.chars().count(),
            bytes: text.len(),
        }
    }

    /// The size of `line` and the line feed that ends it (a line of an index).
    fn of_line(line: &str) -> Size {
        Size {
            chars: line.chars().count() + 1,
            bytes: line.len() + 1,
        }
    }

    fn add(self, other: Size) -> Size {
        Size {
            chars: self.chars + other.chars,
            bytes: self.bytes + other.bytes,
        }
    }
}

/// The cost of one configuration (`all bound`, or a profile).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ConfigCost {
    /// `all bound` or the profile name.
    pub name: String,
    /// Tools whose full definitions are sent (the search tool included when declared).
    pub tools_bound: usize,
    /// Tools shown as index entries.
    pub tools_indexed: usize,
    /// The serialised definitions of the bound catalog tools (the starter set and core tools).
    pub definitions: Size,
    /// The rendered index.
    pub index: Size,
    /// The search tool's serialised definition (zero when the config declares none, and in
    /// `all bound`).
    pub search_tool: Size,
    /// Definitions, index and search tool.
    pub total: Size,
    /// Tokens of the total under the chosen tokenizer.
    pub tokens: u64,
    /// The part of `tokens` spent on the bound definitions (with the request's once-per-list
    /// overhead of the `openai-functions` estimate).
    pub definition_tokens: u64,
    /// The part of `tokens` spent on the index.
    pub index_tokens: u64,
    /// The part of `tokens` spent on the search tool's definition.
    pub search_tool_tokens: u64,
    /// `total.chars` minus that of `all bound`.
    pub delta_chars: i64,
    /// `delta_chars` as a percentage of `all bound` (one decimal).
    pub delta_chars_percent: f64,
    /// `tokens` minus that of `all bound`.
    pub delta_tokens: i64,
    /// `delta_tokens` as a percentage of `all bound` (one decimal).
    pub delta_tokens_percent: f64,
    /// Definition tokens paid over `--turns` turns with cached prefixes discounted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cumulative_tokens: Option<u64>,
}

/// One tool's full definition against its index entry.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ToolCost {
    /// The tool name.
    pub name: String,
    /// The serialised definition.
    pub definition: Size,
    /// Tokens of the definition.
    pub definition_tokens: u64,
    /// The index line (with its newline).
    pub entry: Size,
    /// Tokens of the index line.
    pub entry_tokens: u64,
    /// `definition_tokens / entry_tokens` (one decimal).
    pub ratio: f64,
}

/// Options of a cost computation.
#[derive(Clone, Debug)]
pub struct CostOptions {
    /// Serialisation of definitions.
    pub provider: Provider,
    /// Profiles to cost, in order (all profiles when empty).
    pub profiles: Vec<String>,
    /// Compute per-tool costs.
    pub by_tool: bool,
    /// Turns of a conversation for the cumulative column.
    pub turns: Option<u32>,
    /// Price factor of cached prefix tokens from the second turn on (e.g. 0.1).
    pub cache_read_discount: f64,
}

/// The result of `discloser cost`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CostReport {
    /// The serialisation used.
    pub provider: Provider,
    /// The tokenizer used.
    pub tokenizer: TokenizerKind,
    /// Whether token counts are estimates.
    pub tokens_are_estimates: bool,
    /// `all bound`, then each profile.
    pub configurations: Vec<ConfigCost>,
    /// Per-tool costs, with `--by-tool`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tools: Option<Vec<ToolCost>>,
    /// Conversation length of `cumulative_tokens`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub turns: Option<u32>,
    /// Discount applied to cached tokens in `cumulative_tokens`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cache_read_discount: Option<f64>,
}

/// A definition to send: a catalog tool or the search tool.
#[derive(Clone, Copy)]
struct Def<'a> {
    name: &'a str,
    description: &'a str,
    schema: DefSchema<'a>,
}

/// Where a definition's schema comes from.
#[derive(Clone, Copy)]
enum DefSchema<'a> {
    /// The tool at this index of the catalog, as sent ([`crate::catalog::Catalog::bundled`]),
    /// unpacked for each use: a catalog's schemas are never all held parsed at once.
    Tool(&'a crate::catalog::Catalog, usize),
    /// A schema at hand (the search tool's).
    Given(&'a serde_json::Value),
}

impl DefSchema<'_> {
    fn with<R>(self, f: impl FnOnce(&serde_json::Value) -> R) -> R {
        match self {
            DefSchema::Tool(catalog, i) => f(&catalog.bundled(i)),
            DefSchema::Given(value) => f(value),
        }
    }
}

/// Computes the cost of every configuration of `project`.
pub fn cost(
    project: &Project,
    counter: &Counter,
    options: &CostOptions,
) -> Result<CostReport, crate::diagnostic::LoadError> {
    let provider = options.provider;
    let catalog = &project.catalog;
    let profiles: Vec<Profile> = if options.profiles.is_empty() {
        project
            .profile_names()
            .iter()
            .map(|n| project.profile(n))
            .collect::<Result<_, _>>()?
    } else {
        options
            .profiles
            .iter()
            .map(|n| project.profile(n))
            .collect::<Result<_, _>>()?
    };
    let all_defs: Vec<Def<'_>> = catalog
        .tools
        .iter()
        .enumerate()
        .map(|(i, t)| Def {
            name: &t.name,
            description: &t.description,
            schema: DefSchema::Tool(catalog, i),
        })
        .collect();
    let search = project.search_tool();
    let search_def = search.as_ref().map(|s| Def {
        name: &s.name,
        description: &s.description,
        schema: DefSchema::Given(&s.parameters),
    });

    // Each tool's line (and its line feed) is the same in every profile's index: packed and
    // counted once, shared. An index's text is cut where counts add up before each of its lines
    // (a line feed, then the `- ` every line starts with), so a profile's count is its header's
    // and its lines' (`Counter::count_pieces`).
    let lines = (!profiles.is_empty() || options.by_tool).then(|| {
        let lines = Lines::build(catalog, project.index_config());
        let all: Vec<usize> = (0..catalog.tools.len()).collect();
        let tokens = crate::catalog::parallel::map(all, |i| {
            counter.count_text(&format!("{}\n", lines.line(i)))
        });
        (lines, tokens)
    });
    let mut rows = vec![configuration(
        "all bound",
        &all_defs,
        None,
        None,
        0,
        provider,
        counter,
    )];
    for profile in &profiles {
        let defs: Vec<Def<'_>> = catalog
            .tools
            .iter()
            .zip(&all_defs)
            .filter(|(t, _)| profile.is_bound(&t.name))
            .map(|(_, d)| *d)
            .collect();
        let search = search_def;
        let (lines, line_tokens) = lines.as_ref().expect("built when there are profiles");
        let (header, entries) = lines.parts(catalog, profile, project.index_config());
        // The text, `header\n` (when there is a header) and each `line\n`, is never built.
        let header = (!header.is_empty()).then(|| header + "\n");
        let header = header.as_deref().unwrap_or("");
        let size = entries.iter().fold(Size::of(header), |acc, &i| {
            acc.add(Size::of_line(lines.line(i)))
        });
        let header_tokens = (!header.is_empty()).then(|| counter.count_text(header));
        let tokens = counter.count_pieces(
            header_tokens
                .into_iter()
                .chain(entries.iter().map(|&i| line_tokens[i])),
            size,
        );
        rows.push(configuration(
            &profile.name,
            &defs,
            search.as_ref(),
            Some((size, tokens)),
            entries.len(),
            provider,
            counter,
        ));
    }
    let base = rows[0].clone();
    for row in &mut rows {
        row.delta_chars = row.total.chars as i64 - base.total.chars as i64;
        row.delta_chars_percent = percent(row.delta_chars, base.total.chars as i64);
        row.delta_tokens = row.tokens as i64 - base.tokens as i64;
        row.delta_tokens_percent = percent(row.delta_tokens, base.tokens as i64);
        if let Some(turns) = options.turns {
            row.cumulative_tokens =
                Some(cumulative(row.tokens, turns, options.cache_read_discount));
        }
    }
    let tools = options.by_tool.then(|| {
        let (lines, line_tokens) = lines.as_ref().expect("built with --by-tool");
        let tools: Vec<(&crate::catalog::Tool, &Def<'_>, &str, u64)> = catalog
            .tools
            .iter()
            .zip(&all_defs)
            .enumerate()
            .map(|(i, (t, d))| (t, d, lines.line(i), line_tokens[i]))
            .collect();
        crate::catalog::parallel::map(tools, |(tool, def, line, entry_tokens)| {
            let (definition, definition_tokens) = def.schema.with(|parameters| {
                let definition = provider.serialize(&tool.name, &tool.description, parameters);
                let tokens = counter.count_definition(
                    &tool.name,
                    &tool.description,
                    parameters,
                    &definition,
                );
                (definition, tokens)
            });
            ToolCost {
                name: tool.name.clone(),
                definition: Size::of(&definition),
                definition_tokens,
                entry: Size::of_line(line),
                entry_tokens,
                ratio: round1(definition_tokens as f64 / entry_tokens.max(1) as f64),
            }
        })
    });
    Ok(CostReport {
        provider,
        tokenizer: counter.kind(),
        tokens_are_estimates: counter.kind().is_estimate(),
        configurations: rows,
        tools,
        turns: options.turns,
        cache_read_discount: options.turns.map(|_| options.cache_read_discount),
    })
}

/// The cost of binding `defs` and the search tool, and showing `index` (its text's size and
/// token count).
fn configuration(
    name: &str,
    defs: &[Def<'_>],
    search: Option<&Def<'_>>,
    index: Option<(Size, u64)>,
    indexed: usize,
    provider: Provider,
    counter: &Counter,
) -> ConfigCost {
    let measure = |d: &Def<'_>| {
        d.schema.with(|parameters| {
            let text = provider.serialize(d.name, d.description, parameters);
            let tokens = counter.count_definition(d.name, d.description, parameters, &text);
            (Size::of(&text), tokens)
        })
    };
    // Each definition is serialised, measured and counted on its own (in parallel), and its
    // text dropped at once: a catalog's wire text is never held whole.
    let measured: Vec<(Size, u64)> = crate::catalog::parallel::map(defs.iter().collect(), measure);
    let definitions = measured
        .iter()
        .fold(Size::default(), |acc, (size, _)| acc.add(*size));
    let (search_size, search_tokens) = search.map_or((Size::default(), 0), measure);
    let index_size = index.map_or(Size::default(), |(size, _)| size);
    let sent = defs.len() + usize::from(search.is_some());
    let definition_tokens =
        measured.iter().map(|(_, t)| t).sum::<u64>() + counter.request_overhead(sent);
    let index_tokens = index.map_or(0, |(_, tokens)| tokens);
    ConfigCost {
        name: name.to_owned(),
        tools_bound: sent,
        tools_indexed: indexed,
        definitions,
        index: index_size,
        search_tool: search_size,
        total: definitions.add(index_size).add(search_size),
        tokens: definition_tokens + index_tokens + search_tokens,
        definition_tokens,
        index_tokens,
        search_tool_tokens: search_tokens,
        delta_chars: 0,
        delta_chars_percent: 0.0,
        delta_tokens: 0,
        delta_tokens_percent: 0.0,
        cumulative_tokens: None,
    }
}

/// Tokens paid over `turns` turns when every turn after the first reads the unchanged prefix
/// from the cache at `discount` of the normal price.
pub fn cumulative(tokens: u64, turns: u32, discount: f64) -> u64 {
    if turns == 0 {
        return 0;
    }
    let later = f64::from(turns - 1) * tokens as f64 * discount;
    tokens + later.round() as u64
}

fn percent(delta: i64, base: i64) -> f64 {
    if base == 0 {
        0.0
    } else {
        round1(delta as f64 * 100.0 / base as f64)
    }
}

fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}
