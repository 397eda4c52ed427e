//! DL001 `missing-triggers`.

use crate::{At, Context, Diagnostic, Severity};

declare_rule! {
    /// ## What it does
    /// Flags a tool that can appear in the index (it is not core and some profile leaves it
    /// unbound) but has no trigger words. A file none of whose tools has any gets one finding
    /// for the file. The message says how many tools the index holds; when it holds three or
    /// fewer, the help also offers binding them all instead.
    ///
    /// ## Why is this bad?
    /// The index line is read by a model deciding *whether* to call the tool; trigger words say
    /// when it applies, in the words users type. Without them the tool appears as a bare name and
    /// a summary, and in practice the model does not reach for it. The search tool scores the same
    /// words, so the tool is also hard to find by search.
    ///
    /// ## Example
    /// ```yaml tools
    /// - name: view_startup_guide
    ///   description: Fetch the full text of a built-in guide and answer from it.
    /// ```
    ///
    /// ## Use instead
    /// ```yaml tools
    /// - name: view_startup_guide
    ///   description: Fetch the full text of a built-in guide and answer from it.
    ///   triggers: [BP, business plan, 商业计划书]
    /// ```
    pub static MISSING_TRIGGERS = ("DL001", "missing-triggers", Severity::Error, check);
}

/// An index of at most this many tools is short enough to bind whole instead: the help says so.
const SMALL_INDEX: usize = 3;

fn check(ctx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let config = std::sync::OnceLock::new();
    let catalog = &ctx.project.catalog;
    let missing: std::collections::BTreeSet<usize> = (0..ctx.entries.len())
        .filter(|&i| ctx.entries[i].triggers.is_empty() && ctx.can_be_indexed(i))
        .collect();
    // A file none of whose tools has triggers, nor an `overrides:` entry for them, has not
    // started on them: one finding for the file says so, where one per tool would repeat it
    // for every tool (2,053 times for BFCL) and tell no tool from another.
    let mut untouched: std::collections::BTreeMap<usize, Vec<usize>> = Default::default();
    let mut started = std::collections::BTreeSet::new();
    for (i, tool) in catalog.tools.iter().enumerate() {
        let stub = ctx
            .project
            .config
            .overrides
            .get(&tool.name)
            .is_some_and(|o| o.triggers.is_some());
        if !ctx.entries[i].triggers.is_empty() || stub {
            started.insert(tool.origin.file);
        } else if missing.contains(&i) {
            untouched.entry(tool.origin.file).or_default().push(i);
        }
    }
    let indexed = ctx.indexable.iter().filter(|&&t| t).count();
    // A catalog this small costs little bound whole: binding it is the other way out.
    let small = indexed <= SMALL_INDEX;
    let among = if indexed > 1 {
        format!("among the {indexed} tools of the index, ")
    } else {
        String::new()
    };
    let bind = if small {
        " (or, since the index is this small, bind them all in the starter set)"
    } else {
        ""
    };
    for (file, tools) in &untouched {
        if started.contains(file) || tools.len() < 2 {
            continue;
        }
        let first = tools[0];
        out.push(Diagnostic {
            at: At::Tool(first, String::new()),
            message: format!(
                "none of the {} tools of this file has trigger words: {among}their lines and the search tool have only names and summaries to match the words users type",
                tools.len()
            ),
            help: Some(format!(
                "add `triggers:` to each tool (or set them in `overrides`){bind}; `discloser suggest --triggers --from-text` proposes words from the descriptions"
            )),
            fix: None,
        });
    }
    for &i in &missing {
        let tool = &catalog.tools[i];
        if untouched
            .get(&tool.origin.file)
            .is_some_and(|t| t.len() >= 2 && !started.contains(&tool.origin.file))
        {
            continue;
        }
        let at = if tool.triggers.is_empty() {
            At::Tool(i, "/name".into())
        } else {
            At::Tool(i, "/triggers".into())
        };
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
        out.push(Diagnostic {
            at,
            message: format!("tool `{}` has no trigger words: {among}its line and the search tool have only its name and summary to match the words users type", tool.name),
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
