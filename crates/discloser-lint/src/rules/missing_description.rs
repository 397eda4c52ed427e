//! DL007 `missing-description`.

use crate::{At, Context, Diagnostic, Severity, Tools};

declare_rule! {
    /// ## What it does
    /// Flags a tool with no description, or one that is only whitespace or docstring sections.
    ///
    /// ## Why is this bad?
    /// The index line's summary comes from the description: without one the model sees only a
    /// name and must guess what the tool does; bound, its schema explains nothing either.
    ///
    /// ## Example
    /// ```yaml tools
    /// - name: get_rates
    ///   triggers: [exchange rate]
    ///   description: ""
    /// ```
    ///
    /// ## Use instead
    /// ```yaml tools
    /// - name: get_rates
    ///   triggers: [exchange rate]
    ///   description: Get today's exchange rates for a currency.
    /// ```
    pub static MISSING_DESCRIPTION = ("DL007", "missing-description", Severity::Error, files: check);
}

fn check(ctx: &Context<'_>, tools: &Tools<'_>, out: &mut Vec<Diagnostic>) {
    for (i, entry) in tools.entries() {
        if entry.summary.is_empty() {
            let tool = &ctx.project.catalog.tools[i];
            let (at, message) = if tool.description.trim().is_empty() {
                (
                    At::Tool(i, "/name".into()),
                    format!("tool `{}` has no description", tool.name),
                )
            } else {
                (
                    At::Tool(i, "/description".into()),
                    format!(
                        "the description of `{}` has no prose before its first section, so its summary is empty",
                        tool.name
                    ),
                )
            };
            out.push(Diagnostic {
                at,
                message,
                help: Some(
                    "start the description with one sentence saying what the tool does".into(),
                ),
                fix: None,
            });
        }
    }
}
