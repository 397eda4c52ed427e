//! DL009 `duplicate-trigger`.

use std::collections::BTreeSet;

use crate::{Context, Diagnostic, Severity, Tools};

declare_rule! {
    /// ## What it does
    /// Flags a trigger word that several tools share (compared case-insensitively after NFC).
    ///
    /// ## Why is this bad?
    /// Triggers tell the model, and the search tool, which tool a word leads to. A word on two
    /// tools makes both the index and search ambiguous: the model picks one at random, and search
    /// ranks them by accident.
    ///
    /// ## Example
    /// ```yaml tools
    /// - name: check_order_progress
    ///   triggers: [status, order]
    ///   description: Show the progress of a registration order.
    /// - name: check_company_name
    ///   triggers: [status, company name]
    ///   description: Check whether a company name is available.
    /// ```
    ///
    /// ## Use instead
    /// ```yaml tools
    /// - name: check_order_progress
    ///   triggers: [order status, order]
    ///   description: Show the progress of a registration order.
    /// - name: check_company_name
    ///   triggers: [name available, company name]
    ///   description: Check whether a company name is available.
    /// ```
    pub static DUPLICATE_TRIGGER = ("DL009", "duplicate-trigger", Severity::Warning, files: check);
}

fn check(ctx: &Context<'_>, tools: &Tools<'_>, out: &mut Vec<Diagnostic>) {
    for (i, entry) in tools.entries() {
        let tool = &ctx.project.catalog.tools[i];
        // The first tool's first use of a word is the original; every other use repeats it,
        // the first tool's own in another case too.
        let mut original = BTreeSet::new();
        for trigger in &entry.triggers {
            let trigger = trigger.to_lowercase();
            let Some(first) = ctx.first_with_trigger(&trigger) else {
                continue;
            };
            if first == i && original.insert(trigger.clone()) {
                continue;
            }
            let index = tool
                .triggers
                .iter()
                .position(|t| t.trim().to_lowercase() == trigger)
                .map_or_else(|| "/triggers".to_owned(), |p| format!("/triggers/{p}"));
            out.push(
                Diagnostic::tool(
                    i,
                    index,
                    format!(
                        "trigger `{trigger}` of `{}` is also a trigger of `{}`",
                        tool.name, ctx.project.catalog.tools[first].name
                    ),
                )
                .with_help("keep each trigger on the one tool it should lead to"),
            );
        }
    }
}
