//! DL001 `missing-triggers`.

use std::collections::{BTreeMap, BTreeSet};

use crate::{At, Context, Diagnostic, Severity, Tools};

declare_rule! {
    /// ## What it does
    /// Flags a tool that can appear in the index (it is not core and some profile leaves it
    /// unbound) whose trigger list was written but left empty: the `triggers: []` stub
    /// `discloser init` writes in `overrides` for every tool it has no words for, or a list of
    /// strings that are only spaces. A file none of whose tools has any triggers gets one
    /// finding for its stubs. When the index holds three tools or fewer, the help also offers
    /// binding them all instead.
    ///
    /// A tool with no trigger list at all is flagged only under `lint: {require_triggers:
    /// true}`, the contract that every tool of the index has trigger words. Whether its name
    /// and summary already hold the words users type is a judgment lint cannot make from the
    /// catalog: two versions that guessed it (a line all of whose words many tools share; a
    /// line with the same words as another tool's) were each judged by a blind reviewer on the
    /// shared corpora, and fewer than nine in ten of their findings were agreed with. `discloser
    /// suggest --triggers --from-text` lists the words of a tool's text its line lacks, and
    /// `discloser reach` checks, on utterances users typed, that search finds each tool.
    ///
    /// ## Why is this bad?
    /// The index line is read by a model deciding *whether* to call the tool; trigger words say
    /// when it applies, in the words users type. An empty stub is a list somebody meant to
    /// fill: until then the tool's line has only its name and summary, the words further on in
    /// its description never reach the model, and the search tool, which scores the same
    /// words, cannot find the tool by the words users type.
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
    pub static MISSING_TRIGGERS = ("DL001", "missing-triggers", Severity::Error, files: check);
}

/// An index of at most this many tools is short enough to bind whole instead: the help says so.
const SMALL_INDEX: usize = 3;

/// Whether tool `i` has a trigger list that was written, in its file or in `overrides`.
fn written(ctx: &Context<'_>, i: usize) -> bool {
    !ctx.project.catalog.tools[i].triggers.is_empty() || in_overrides(ctx, i)
}

/// Whether `overrides` gives tool `i` a trigger list (possibly the empty stub).
fn in_overrides(ctx: &Context<'_>, i: usize) -> bool {
    let name = &ctx.project.catalog.tools[i].name;
    ctx.project
        .config
        .overrides
        .get(name)
        .is_some_and(|o| o.triggers.is_some())
}

fn check(ctx: &Context<'_>, tools: &Tools<'_>, out: &mut Vec<Diagnostic>) {
    let config = std::sync::OnceLock::new();
    let catalog = &ctx.project.catalog;
    // The stubs, and under `require_triggers` every tool of the index without trigger words.
    let flagged: Vec<usize> = tools
        .entries()
        .filter(|&(i, entry)| entry.triggers.is_empty() && ctx.can_be_indexed(i))
        .map(|(i, _)| i)
        .filter(|&i| ctx.settings.require_triggers || written(ctx, i))
        .collect();
    if flagged.is_empty() {
        return;
    }
    // A file where no tool has trigger words, nor an `overrides:` entry for them, has not
    // started on them: its blank lists are one finding, where one per tool would repeat it.
    let started: BTreeSet<usize> = tools
        .entries()
        .filter(|&(i, entry)| !entry.triggers.is_empty() || in_overrides(ctx, i))
        .map(|(i, _)| catalog.tools[i].origin.file)
        .collect();
    let mut untouched: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for &i in &flagged {
        let file = catalog.tools[i].origin.file;
        if !started.contains(&file) {
            untouched.entry(file).or_default().push(i);
        }
    }
    untouched.retain(|_, blank| blank.len() >= 2);
    let indexed = ctx.indexable_count();
    // A catalog this small costs little bound whole: binding it is the other way out.
    let small = indexed <= SMALL_INDEX;
    let bind = if small {
        " (or, since the index is this small, bind them all in the starter set)"
    } else {
        ""
    };
    for blank in untouched.values() {
        let first = blank[0];
        let of_file = tools
            .iter()
            .filter(|(_, t)| t.origin.file == catalog.tools[first].origin.file)
            .count();
        out.push(Diagnostic {
            at: At::Tool(first, String::new()),
            message: format!(
                "none of the {of_file} tools of this file has trigger words: {} of them {} (the first: `{}`)",
                blank.len(),
                if blank.iter().all(|&i| written(ctx, i)) {
                    "have a trigger list of blank strings, still to be filled"
                } else {
                    "can appear in the index, and `lint.require_triggers` asks each for some"
                },
                catalog.tools[first].name,
            ),
            help: Some(format!(
                "fill each list with the words users type when they need the tool{bind}; `discloser suggest --triggers --from-text` proposes words from the descriptions"
            )),
            fix: None,
        });
    }
    for &i in &flagged {
        let tool = &catalog.tools[i];
        if untouched.contains_key(&tool.origin.file) {
            continue;
        }
        let stub = written(ctx, i);
        let help = if ctx.project.is_from_server(tool) {
            server_help(ctx, &config, &tool.name)
        } else if stub {
            "fill it with the words users type when they need this tool (in the tool's file or in `overrides`)".to_owned()
        } else {
            "add `triggers:` with the words users type when they need this tool (in the tool's file or in `overrides`)".to_owned()
        };
        let help = if small {
            format!("{help}, or bind it in the starter set: the index is this small")
        } else {
            help
        };
        // Blank strings in the tool's file are pointed at where they are; an `overrides:` stub
        // at the tool (its help names the entry).
        let at = if tool.triggers.is_empty() {
            At::Tool(i, "/name".into())
        } else {
            At::Tool(i, "/triggers".into())
        };
        out.push(Diagnostic {
            at,
            message: if stub {
                format!(
                    "tool `{}` has no trigger words: its trigger list is empty, still to be filled",
                    tool.name
                )
            } else {
                format!(
                    "tool `{}` has no trigger words, and `lint.require_triggers` asks every tool of the index for some",
                    tool.name
                )
            },
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
