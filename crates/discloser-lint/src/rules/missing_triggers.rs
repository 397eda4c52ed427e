//! DL001 `missing-triggers`.

use std::collections::{BTreeMap, BTreeSet};

use crate::{At, Context, Diagnostic, Severity};
use discloser_runtime::text_candidates::{self, TextCandidate};
use discloser_runtime::{SEARCH_LIMIT, SearchIndex};

declare_rule! {
    /// ## What it does
    /// Flags a tool that can appear in the index (it is not core and some profile leaves it
    /// unbound) and has no trigger words, when lint has evidence that its line needs them:
    ///
    /// - its trigger list was written but left empty: the `triggers: []` stub `discloser init`
    ///   writes in `overrides` for every tool of a server, or strings that are only spaces; or
    /// - its line has the same words as another tool's line (the parts of its name and the
    ///   terms of its packed summary; typically a shared boilerplate first sentence, `This tool
    ///   belongs to the ... system`), while its own description has words that would tell them
    ///   apart, missing from the line and used by five tools or fewer. The message names the
    ///   other tool, the shared words and the telling ones.
    ///
    /// Without such evidence a tool without triggers is not flagged: its name and summary are
    /// what its line and the search tool have, and lint cannot tell whether they hold the
    /// words users type. Two tools whose texts say the same (copies of one function) are not
    /// flagged either: triggers would not tell them apart. A file none of whose tools has any
    /// triggers gets one finding for the tools flagged in it. When the index holds three tools
    /// or fewer, the help also offers binding them all instead.
    ///
    /// ## Why is this bad?
    /// The index line is read by a model deciding *whether* to call the tool; trigger words say
    /// when it applies, in the words users type. An empty stub is a list somebody meant to
    /// fill; a line with another tool's words tells the model and the search tool (which scores
    /// the same words) nothing that sets this tool apart, while the words that would, further on
    /// in its description, never reach the model.
    ///
    /// ## Example
    /// ```yaml tools
    /// - name: view_startup_guide
    ///   description: |
    ///     Retrieve the full text of a built-in guide and answer from it.
    ///     Topics: business plan, self-registration, tax filing.
    /// ```
    /// ```yaml config
    /// overrides:
    ///   view_startup_guide: {triggers: []}
    /// ```
    ///
    /// ## Use instead
    /// ```yaml tools
    /// - name: view_startup_guide
    ///   description: |
    ///     Retrieve the full text of a built-in guide and answer from it.
    ///     Topics: business plan, self-registration, tax filing.
    /// ```
    /// ```yaml config
    /// overrides:
    ///   view_startup_guide: {triggers: [BP, business plan, tax filing, 商业计划书]}
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
    /// Its line cannot be told from another's: `twin` (a catalog index) has the same words in
    /// its line; `absent` are words of the tool's own text, missing from its line, that five
    /// tools or fewer use (what would tell them apart).
    Twin {
        twin: usize,
        words: Vec<String>,
        absent: Vec<String>,
    },
}

impl Evidence {
    /// The clause after "has no trigger words": what the evidence is.
    fn clause(&self, ctx: &Context<'_>) -> String {
        match self {
            Evidence::Stub => "its trigger list is empty, still to be filled".to_owned(),
            Evidence::Twin {
                twin,
                words,
                absent,
            } => format!(
                "its line has the same words as the line of `{}` ({}), so their summaries say the same and a search cannot tell them apart; its definition has words that would: {}",
                ctx.project.catalog.tools[*twin].name,
                quoted(words),
                quoted(absent)
            ),
        }
    }
}

/// Words as `` `a`, `b` ``, at most [`SHOWN`] of them.
fn quoted(words: &[String]) -> String {
    words
        .iter()
        .take(SHOWN)
        .map(|w| format!("`{w}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The evidence for each tool of `tools` (catalog indexes) that has some.
fn evidence(ctx: &Context<'_>, tools: &BTreeSet<usize>) -> BTreeMap<usize, Evidence> {
    let catalog = &ctx.project.catalog;
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
        .filter(|&&i| stub(i))
        .map(|&i| (i, Evidence::Stub))
        .collect();
    let rest: Vec<usize> = tools.iter().copied().filter(|i| !stub(*i)).collect();
    if rest.is_empty() {
        return found;
    }
    let search = SearchIndex::from_entries(catalog, &ctx.entries);
    let postings = search.postings();
    // Computed only when some line has a twin (rarely all of them).
    let candidates = std::cell::OnceCell::new();
    for i in rest {
        let words: Vec<&str> = search.words(i).into_iter().collect();
        let Some(twin) = twin(i, &words, &search, &postings) else {
            continue;
        };
        let candidates = candidates.get_or_init(|| {
            text_candidates::from_entries(catalog, &ctx.entries, text_candidates::DEFAULT_LIMIT)
        });
        let absent: Vec<String> = candidates[i]
            .iter()
            // An optional parameter's enum values (`asc`, `desc`) are values, not what the
            // tool is for; a word more than a search's worth of tools use would not find it.
            .filter(|c: &&TextCandidate| {
                !c.in_line && !c.only_enum_value && c.tools <= SEARCH_LIMIT
            })
            .map(|c| c.word.clone())
            .collect();
        // Without such words the two tools say the same (BFCL's copies of one function):
        // triggers would not tell them apart either.
        if absent.is_empty() {
            continue;
        }
        found.insert(
            i,
            Evidence::Twin {
                twin,
                words: words.iter().map(|w| (*w).to_owned()).collect(),
                absent,
            },
        );
    }
    found
}

/// Another tool (the first in catalog order) whose line has the same words as `words`, the
/// line of tool `tool`; `None` for a line with no words (nothing to compare).
fn twin(
    tool: usize,
    words: &[&str],
    search: &SearchIndex,
    postings: &BTreeMap<&str, Vec<usize>>,
) -> Option<usize> {
    let mut lists: Vec<&[usize]> = words.iter().map(|w| postings[w].as_slice()).collect();
    lists.sort_by_key(|l| l.len());
    let (shortest, others) = lists.split_first()?;
    shortest.iter().copied().find(|&t| {
        t != tool
            && others.iter().all(|l| l.binary_search(&t).is_ok())
            && search.words(t).len() == words.len()
    })
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
                evidence[&first].clause(ctx)
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
                found.clause(ctx)
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
