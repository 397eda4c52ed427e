//! DL001 `missing-triggers`.

use crate::{At, Context, Diagnostic, Severity};

declare_rule! {
    /// ## What it does
    /// Flags a tool that can appear in the index (it is not core and some profile leaves it
    /// unbound) but has no trigger words.
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
    for (file, tools) in &untouched {
        if started.contains(file) || tools.len() < 2 {
            continue;
        }
        let first = tools[0];
        out.push(Diagnostic {
            at: At::Tool(first, String::new()),
            message: format!(
                "none of the {} tools of this file has trigger words: their index lines and the search tool have only names and summaries to match the words users type",
                tools.len()
            ),
            help: Some(
                "add `triggers:` to each tool (or set them in `overrides`); `discloser suggest --triggers --from-text` proposes words from the descriptions".to_owned(),
            ),
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
        out.push(Diagnostic {
            at,
            message: format!("tool `{}` has no trigger words: its index line and the search tool have only its name and summary to match the words users type", tool.name),
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
