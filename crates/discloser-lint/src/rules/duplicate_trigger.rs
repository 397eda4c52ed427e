//! DL009 `duplicate-trigger`.

use std::collections::BTreeMap;

use crate::{Context, Diagnostic, Severity};

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
    pub static DUPLICATE_TRIGGER = ("DL009", "duplicate-trigger", Severity::Warning, check);
}

fn check(ctx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let mut owners: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (i, entry) in ctx.entries().iter().enumerate() {
        for trigger in &entry.triggers {
            owners.entry(trigger.to_lowercase()).or_default().push(i);
        }
    }
    for (trigger, tools) in owners {
        let Some((&first, rest)) = tools.split_first() else {
            continue;
        };
        for &i in rest {
            let tool = &ctx.project.catalog.tools[i];
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
