//! DL001 `missing-triggers`.

use std::collections::{BTreeMap, BTreeSet};

use crate::{At, Context, Diagnostic, Severity};
use discloser_runtime::text_candidates::{self, TextCandidate};
use discloser_runtime::{SEARCH_LIMIT, SearchIndex};

declare_rule! {
    /// ## What it does
    /// Flags a tool that can appear in the index (it is not core and some profile leaves it
    /// unbound), has no trigger words, and whose line a search cannot single out: every word
    /// of its line (the parts of its name, the terms of its packed summary) is used by more
    /// than five tools of the catalog (the search tool's default number of results). The
    /// message names the line's words with how many tools use each, and the words of the
    /// tool's own text that would set it apart (those `discloser suggest --triggers
    /// --from-text` shows that the line lacks and that five tools or fewer use).
    ///
    /// A tool whose trigger list was written but left empty (the `triggers: []` stub
    /// `discloser init` writes in `overrides`, or only blank strings) is flagged whatever its
    /// line. Otherwise a tool whose line has a word of its own is not flagged: its name or
    /// summary already finds it. A file none of whose tools has any triggers gets one finding for the tools
    /// flagged in it. When the index holds three tools or fewer, the help also offers binding
    /// them all instead.
    ///
    /// ## Why is this bad?
    /// The index line is read by a model deciding *whether* to call the tool; trigger words say
    /// when it applies, in the words users type. A line made only of words many tools share
    /// tells this tool from none of them, and the search tool, which scores the same words,
    /// ranks it among them: the words that would find it, often further on in its
    /// description, never reach the model.
    ///
    /// ## Example
    /// ```yaml tools
    /// - name: view_guide
    ///   description: |
    ///     Retrieve the full text of a built-in guide and answer from it.
    ///     Topics: business plan, self-registration, tax filing.
    ///   summary_budget: 70
    /// - {name: view_billing_guide, description: Retrieve the full text of a built-in guide and answer from it.}
    /// - {name: view_hiring_guide, description: Retrieve the full text of a built-in guide and answer from it.}
    /// - {name: view_lease_guide, description: Retrieve the full text of a built-in guide and answer from it.}
    /// - {name: view_permit_guide, description: Retrieve the full text of a built-in guide and answer from it.}
    /// - {name: view_visa_guide, description: Retrieve the full text of a built-in guide and answer from it.}
    /// ```
    ///
    /// ## Use instead
    /// ```yaml tools
    /// - name: view_guide
    ///   description: |
    ///     Retrieve the full text of a built-in guide and answer from it.
    ///     Topics: business plan, self-registration, tax filing.
    ///   summary_budget: 70
    ///   triggers: [BP, business plan, tax filing, 商业计划书]
    /// - {name: view_billing_guide, description: Retrieve the full text of a built-in guide and answer from it.}
    /// - {name: view_hiring_guide, description: Retrieve the full text of a built-in guide and answer from it.}
    /// - {name: view_lease_guide, description: Retrieve the full text of a built-in guide and answer from it.}
    /// - {name: view_permit_guide, description: Retrieve the full text of a built-in guide and answer from it.}
    /// - {name: view_visa_guide, description: Retrieve the full text of a built-in guide and answer from it.}
    /// ```
    pub static MISSING_TRIGGERS = ("DL001", "missing-triggers", Severity::Error, check);
}

/// An index of at most this many tools is short enough to bind whole instead: the help says so.
const SMALL_INDEX: usize = 3;

/// Words named in a message, at most.
const SHOWN: usize = 6;

/// Why a tool without triggers is flagged.
enum Evidence {
    /// Its trigger list was written but is empty or blank: the stub `discloser init` writes
    /// (`triggers: []` in `overrides`), or strings that are only spaces.
    Stub,
    /// Its line cannot be told from others': every word of it, with how many tools use it
    /// (all more than [`SEARCH_LIMIT`]), most used first; and the words of the tool's own text
    /// that its line lacks and that would set it apart.
    Shared {
        shared: Vec<(String, usize)>,
        absent: Vec<String>,
    },
}

impl Evidence {
    /// The clause after "has no trigger words": what the evidence is.
    fn clause(&self) -> String {
        let (shared, absent) = match self {
            Evidence::Stub => return "its trigger list is empty, still to be filled".to_owned(),
            Evidence::Shared { shared, absent } => (shared, absent),
        };
        let mut clause = if shared.is_empty() {
            "its line has no word a search can match".to_owned()
        } else {
            format!(
                "its line has only words that more than {SEARCH_LIMIT} tools use, alone and in every pair ({}), so a search for them finds it only among more than {SEARCH_LIMIT} others",
                shared
                    .iter()
                    .take(SHOWN)
                    .map(|(word, n)| format!("`{word}` {n}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        if !absent.is_empty() {
            clause.push_str(&format!(
                "; its definition has words that would: {}",
                absent
                    .iter()
                    .take(SHOWN)
                    .map(|w| format!("`{w}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        clause
    }
}

/// The evidence for each tool of `tools` (catalog indexes) that has some.
fn evidence(ctx: &Context<'_>, tools: &BTreeSet<usize>) -> BTreeMap<usize, Evidence> {
    let catalog = &ctx.project.catalog;
    let search = SearchIndex::from_entries(catalog, &ctx.entries);
    let postings = search.postings();
    let stub = |i: usize| {
        let tool = &catalog.tools[i];
        !tool.triggers.is_empty()
            || ctx
                .project
                .config
                .overrides
                .get(&tool.name)
                .is_some_and(|o| o.triggers.is_some())
    };
    let mut found: BTreeMap<usize, Evidence> = tools
        .iter()
        .filter_map(|&i| {
            if stub(i) {
                return Some((i, Evidence::Stub));
            }
            let words: Vec<&str> = search.words(i).into_iter().collect();
            let lists: Vec<&[usize]> = words.iter().map(|w| postings[w].as_slice()).collect();
            let common = lists.iter().all(|l| l.len() > SEARCH_LIMIT)
                && (0..lists.len()).all(|a| {
                    (a + 1..lists.len()).all(|b| shared_by_more(lists[a], lists[b], SEARCH_LIMIT))
                });
            common.then(|| {
                let mut shared: Vec<(String, usize)> = words
                    .iter()
                    .zip(&lists)
                    .map(|(&w, l)| (w.to_owned(), l.len()))
                    .collect();
                shared.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
                (
                    i,
                    Evidence::Shared {
                        shared,
                        absent: Vec::new(),
                    },
                )
            })
        })
        .collect();
    if !found.values().any(|e| matches!(e, Evidence::Shared { .. })) {
        return found;
    }
    let candidates =
        text_candidates::from_entries(catalog, &ctx.entries, text_candidates::DEFAULT_LIMIT);
    for (&i, evidence) in &mut found {
        let Evidence::Shared { absent, .. } = evidence else {
            continue;
        };
        *absent = candidates[i]
            .iter()
            // An optional parameter's enum values (`asc`, `desc`) are values, not what the
            // tool is for; a word more than a search's worth of tools use would not find it.
            .filter(|c: &&TextCandidate| {
                !c.in_line && !c.only_enum_value && c.tools <= SEARCH_LIMIT
            })
            .map(|c| c.word.clone())
            .collect();
    }
    found
}

/// Whether more than `limit` tools are in both sorted lists.
fn shared_by_more(a: &[usize], b: &[usize], limit: usize) -> bool {
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    short
        .iter()
        .filter(|t| long.binary_search(t).is_ok())
        .nth(limit)
        .is_some()
}

fn check(ctx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let config = std::sync::OnceLock::new();
    let catalog = &ctx.project.catalog;
    let bare: BTreeSet<usize> = (0..ctx.entries.len())
        .filter(|&i| ctx.entries[i].triggers.is_empty() && ctx.can_be_indexed(i))
        .collect();
    if bare.is_empty() {
        return;
    }
    let evidence = evidence(ctx, &bare);
    // A file none of whose tools has triggers, nor an `overrides:` entry for them, has not
    // started on them: one finding for the file says so, where one per tool would repeat it
    // for every tool (hundreds of times for BFCL) and tell no tool from another.
    let mut untouched: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    let mut started = BTreeSet::new();
    for (i, tool) in catalog.tools.iter().enumerate() {
        let stub = ctx
            .project
            .config
            .overrides
            .get(&tool.name)
            .is_some_and(|o| o.triggers.is_some());
        if !ctx.entries[i].triggers.is_empty() || stub {
            started.insert(tool.origin.file);
        } else if evidence.contains_key(&i) {
            untouched.entry(tool.origin.file).or_default().push(i);
        }
    }
    untouched.retain(|file, tools| !started.contains(file) && tools.len() >= 2);
    let indexed = ctx.indexable.iter().filter(|&&t| t).count();
    // A catalog this small costs little bound whole: binding it is the other way out.
    let small = indexed <= SMALL_INDEX;
    let bind = if small {
        " (or, since the index is this small, bind them all in the starter set)"
    } else {
        ""
    };
    for tools in untouched.values() {
        let first = tools[0];
        let of_file = catalog
            .tools
            .iter()
            .filter(|t| t.origin.file == catalog.tools[first].origin.file)
            .count();
        out.push(Diagnostic {
            at: At::Tool(first, String::new()),
            message: format!(
                "none of the {of_file} tools of this file has trigger words, and {} of them cannot be told from other tools: `{}` has no trigger words, and {}",
                tools.len(),
                catalog.tools[first].name,
                evidence[&first].clause()
            ),
            help: Some(format!(
                "add `triggers:` to each tool (or set them in `overrides`){bind}; `discloser suggest --triggers --from-text` proposes words from the descriptions"
            )),
            fix: None,
        });
    }
    for (&i, found) in &evidence {
        let tool = &catalog.tools[i];
        if untouched.contains_key(&tool.origin.file) {
            continue;
        }
        let help = if ctx.project.is_from_server(tool) {
            server_help(ctx, &config, &tool.name)
        } else {
            "add `triggers:` with the words users type when they need this tool (or set them in `overrides`)".to_owned()
        };
        let help = if small {
            format!("{help}, or bind it in the starter set: the index is this small")
        } else {
            help
        };
        // Triggers that normalise to nothing (blank strings) are pointed at where they are.
        let at = if tool.triggers.is_empty() {
            At::Tool(i, "/name".into())
        } else {
            At::Tool(i, "/triggers".into())
        };
        out.push(Diagnostic {
            at,
            message: format!(
                "tool `{}` has no trigger words, and {}",
                tool.name,
                found.clause()
            ),
            help: Some(help),
            fix: None,
        });
    }
}

/// Where the triggers of a server's tool go: the server owns its definition, so they go in the
/// config's `overrides` — at the tool's entry when there is one (with its line), else the
/// entry to add.
fn server_help(
    ctx: &Context<'_>,
    config: &std::sync::OnceLock<Option<crate::source::SourceFile>>,
    name: &str,
) -> String {
    let path = &ctx.project.config_path;
    let shown = path.display();
    let entry = ctx.project.config.overrides.get(name);
    let file = config.get_or_init(|| {
        std::fs::read_to_string(path)
            .ok()
            .map(|text| crate::source::SourceFile::from_text(text, path.clone()))
    });
    let pointer = crate::source::pointer_push("/overrides", name);
    match (entry, file) {
        (Some(over), Some(file)) => {
            let (pointer, target, what) = if over.triggers.is_some() {
                let at = crate::source::pointer_push(&pointer, "triggers");
                (at, crate::source::Target::Value, "fill the list of")
            } else {
                (
                    pointer,
                    crate::source::Target::Key,
                    "add `triggers: [...]` to",
                )
            };
            let pos = file.locate(&pointer, target);
            format!(
                "the tool comes from an MCP server, which owns its definition: {what} `overrides: {name}:` at {}:{}",
                shown, pos.line
            )
        }
        _ => format!(
            "the tool comes from an MCP server, which owns its definition: add its words to `{shown}` as `overrides: {{{name}: {{triggers: [...]}}}}`"
        ),
    }
}
