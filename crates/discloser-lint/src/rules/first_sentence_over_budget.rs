//! DL003 `first-sentence-over-budget`.

use crate::{Context, Diagnostic, Severity, Tools};

declare_rule! {
    /// ## What it does
    /// Flags a description whose first sentence alone is more than 30% longer than the summary
    /// budget (over 130 characters at the default budget of 100). A few characters over cost
    /// the line little: in two blind reviews of the findings, one reviewer agreed with none
    /// within 15 characters of the budget; the next disagreed with 7 of the 9 within 27 (the
    /// other two were boilerplate) and agreed with every one beyond 30.
    ///
    /// ## Why is this bad?
    /// The index never cuts a sentence, so such a summary is used whole and the index line grows
    /// past its budget on every turn. It is a defect of the description, not something the index
    /// should paper over: a first sentence should say what the tool does in a few words.
    ///
    /// ## Example
    /// ```yaml tools
    /// - name: list_notifications
    ///   triggers: [notifications]
    ///   description: Lists all GitHub notifications for the authenticated user, including unread notifications, mentions, review requests, assignments, and updates on issues or pull requests you are watching or participating in.
    /// ```
    ///
    /// ## Use instead
    /// ```yaml tools
    /// - name: list_notifications
    ///   triggers: [notifications]
    ///   description: List the authenticated user's GitHub notifications. Includes mentions, review requests and assignments.
    /// ```
    pub static FIRST_SENTENCE_OVER_BUDGET = ("DL003", "first-sentence-over-budget", Severity::Warning, files: check);
}

/// How far past the budget a first sentence may run before it is a finding.
const TOLERANCE_PERCENT: usize = 30;

fn check(_: &Context<'_>, tools: &Tools<'_>, out: &mut Vec<Diagnostic>) {
    for (i, entry) in tools.entries() {
        if entry.summary_over_budget
            && entry.summary.chars().count()
                > entry.summary_budget + entry.summary_budget * TOLERANCE_PERCENT / 100
        {
            out.push(
                Diagnostic::tool(
                    i,
                    "/description",
                    format!(
                        "the first sentence of `{}`'s description is {} characters, over the summary budget of {}",
                        entry.name,
                        entry.summary.chars().count(),
                        entry.summary_budget
                    ),
                )
                .with_help("shorten the first sentence to what the tool does; move details to later sentences"),
            );
        }
    }
}
