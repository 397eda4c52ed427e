//! DL013 `boilerplate-in-summary`.

use std::sync::LazyLock;

use regex_automata::meta::Regex;

use crate::{Context, Diagnostic, Severity, Tools};

declare_rule! {
    /// ## What it does
    /// Flags an index summary that contains documentation structure instead of prose: a
    /// section label (`Returns:`, `Raises:`, `Error Responses:`, `Example:`, `Note:`), an HTTP
    /// status list (`400: Bad request`), a Markdown heading (`## Usage`), or a leading product
    /// name (`Notion | ...`). The summary packer stops at such structure when it stands on a line
    /// of its own; written on one line with the prose, it is packed as if it were a sentence.
    ///
    /// ## Why is this bad?
    /// The summary is the one line that tells the model what an unbound tool does. A label and a
    /// status code there are characters of every prompt that say nothing about the tool: the
    /// index once showed all 24 of Notion's tools as `Notion | Retrieve a user Error Responses:
    /// 400: 400`.
    ///
    /// ## Example
    /// ```yaml tools
    /// - name: get_user
    ///   triggers: [user]
    ///   description: "Retrieve a user by their ID. Error Responses: 400: Bad request."
    /// ```
    ///
    /// ## Use instead
    /// ```yaml tools
    /// - name: get_user
    ///   triggers: [user]
    ///   description: "Retrieve a user by their ID.\nError Responses:\n400: Bad request"
    /// ```
    pub static BOILERPLATE_IN_SUMMARY = ("DL013", "boilerplate-in-summary", Severity::Warning, files: check);
}

/// Section labels, HTTP status entries, Markdown headings and a leading `Product |`.
static BOILERPLATE: LazyLock<Regex> = LazyLock::new(|| {
    crate::scan::compile(
        r"(?x)
          \b(?:Returns?|Raises|Throws|Error\s+Responses?|Errors|Responses?|Status\s+codes|Examples?|Notes?|Args|Arguments|Parameters|Params|Usage|See\s+also)\s*[:：]
        | (?:^|\s)[1-5][0-9]{2}\s*[:：]\s*\S
        | (?:^|\s)\#{1,6}\s+\S
        | ^[^|.!?]{1,40}?\s\|\s
        ",
    )
    .expect("the boilerplate pattern compiles")
});

fn check(ctx: &Context<'_>, tools: &Tools<'_>, out: &mut Vec<Diagnostic>) {
    for (i, entry) in tools.entries() {
        let summary = entry.summary.as_str();
        // Every alternative of the pattern needs one of these: a summary without them (most)
        // needs no search, and a run whose summaries have none compiles no regex.
        if !summary.contains([':', '：', '#', '|']) {
            continue;
        }
        let Some(m) = BOILERPLATE.find(summary) else {
            continue;
        };
        // A product prefix has at most three words.
        let matched = summary[m.range()].trim();
        if matched.ends_with('|') && matched.split_whitespace().count() > 4 {
            continue;
        }
        // Quote the label and the words it starts, not half a word.
        let words: Vec<&str> = summary[m.start()..].split_whitespace().take(4).collect();
        let found = words.join(" ");
        out.push(
            Diagnostic::tool(
                i,
                "/description",
                format!(
                    "the index summary of `{}` contains boilerplate, not prose: `{found}`",
                    ctx.project.catalog.tools[i].name
                ),
            )
            .with_help(
                "put labels, status codes and headings on lines of their own after the prose, \
                 where the summary stops, or remove them",
            ),
        );
    }
}
