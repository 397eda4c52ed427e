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
    for (i, entry) in ctx.entries.iter().enumerate() {
        if entry.triggers.is_empty() && ctx.can_be_indexed(i) {
            let tool = &ctx.project.catalog.tools[i];
            let at = if tool.triggers.is_empty() {
                At::Tool(i, "/name".into())
            } else {
                At::Tool(i, "/triggers".into())
            };
            out.push(Diagnostic {
                at,
                message: format!("tool `{}` has no trigger words: its index line and the search tool have only its name and summary to match the words users type", tool.name),
                help: Some("add `triggers:` with the words users type when they need this tool (or set them in `overrides`)".into()),
            });
        }
    }
}
