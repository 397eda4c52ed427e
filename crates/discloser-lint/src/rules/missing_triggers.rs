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
    for (i, entry) in ctx.entries.iter().enumerate() {
        if entry.triggers.is_empty() && ctx.can_be_indexed(i) {
            let tool = &ctx.project.catalog.tools[i];
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
