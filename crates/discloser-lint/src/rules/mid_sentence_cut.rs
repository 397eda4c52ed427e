//! DL002 `mid-sentence-cut`.

use crate::text::{ends_sentence, last_words};
use crate::{Context, Diagnostic, Severity, Tools};

declare_rule! {
    /// ## What it does
    /// Flags an index summary that ends mid-sentence (sentences were dropped after a fragment,
    /// or it ends with a colon that introduced a list), and, for the clients a project names in
    /// `lint.description_limits` (e.g. `[1024]` for a client that cuts descriptions at 1,024
    /// characters; none by default), a longer description whose cut at that limit falls inside
    /// a sentence.
    ///
    /// ## Why is this bad?
    /// A line that stops mid-thought is what the article's first index did (`bar/line/area/pie/
    /// don`): the model reads half a sentence, or half an enum value, and acts on it. Clients
    /// that cut long descriptions do it by character count, not at sentence ends.
    ///
    /// ## Example
    /// ```yaml tools
    /// - name: run_query
    ///   triggers: [sql]
    ///   description: "Run one of these queries:\n\n- a read-only SQL query\n- a saved report"
    /// ```
    ///
    /// ## Use instead
    /// ```yaml tools
    /// - name: run_query
    ///   triggers: [sql]
    ///   description: "Run a read-only SQL query or a saved report."
    /// ```
    pub static MID_SENTENCE_CUT = ("DL002", "mid-sentence-cut", Severity::Error, files: check);
}

fn check(ctx: &Context<'_>, tools: &Tools<'_>, out: &mut Vec<Diagnostic>) {
    for (i, entry) in tools.entries() {
        let tool = &ctx.project.catalog.tools[i];
        let dropped = entry.summary_dropped_sentences;
        let summary = entry.summary.trim_end();
        if summary.ends_with([':', '：'])
            || (dropped && !summary.is_empty() && !ends_sentence(summary))
        {
            out.push(
                Diagnostic::tool(
                    i,
                    "/description",
                    format!(
                        "the index summary of `{}` ends mid-sentence: `{}`",
                        tool.name,
                        last_words(summary, 8)
                    ),
                )
                .with_help(
                    "end the first sentence with a full stop; put lists after a complete sentence",
                ),
            );
        }
        let length = tool.description.chars().count();
        let mut limits = ctx.settings.description_limits.clone();
        limits.sort_unstable();
        if let Some(&(limit, client)) = limits.iter().find(|&&(limit, _)| length > limit) {
            let cut: String = tool.description.chars().take(limit).collect();
            if !ends_sentence(cut.trim_end()) {
                let by = if client == "configured" {
                    String::new()
                } else {
                    format!(" ({client})")
                };
                out.push(
                    Diagnostic::tool(
                        i,
                        "/description",
                        format!(
                            "the description of `{}` is {length} characters; a client that cuts at {limit}{by} ends it mid-sentence: `{}`",
                            tool.name,
                            last_words(&cut, 8)
                        ),
                    )
                    .with_help(format!("keep the description under {limit} characters, or end a sentence before character {limit}")),
                );
            }
        }
    }
}
