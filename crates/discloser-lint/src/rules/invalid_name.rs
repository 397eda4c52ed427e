//! DL008 `invalid-name`.

use crate::{Context, Diagnostic, Severity, Tools};

declare_rule! {
    /// ## What it does
    /// Flags a tool name that providers reject: anything but ASCII letters, digits, `_` and `-`,
    /// or longer than 64 characters (`^[a-zA-Z0-9_-]{1,64}$`).
    ///
    /// ## Why is this bad?
    /// OpenAI and Anthropic refuse the whole request when one tool name does not match, so the
    /// tool can neither be bound nor called by name from the index.
    ///
    /// ## Example
    /// ```yaml tools
    /// - name: calendar.create event
    ///   triggers: [meeting]
    ///   description: Create a calendar event.
    /// ```
    ///
    /// ## Use instead
    /// ```yaml tools
    /// - name: calendar_create_event
    ///   triggers: [meeting]
    ///   description: Create a calendar event.
    /// ```
    pub static INVALID_NAME = ("DL008", "invalid-name", Severity::Error, files: check);
}

/// Whether providers accept `name` as a tool name.
pub fn is_valid_name(name: &str) -> bool {
    (1..=64).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

fn check(_: &Context<'_>, tools: &Tools<'_>, out: &mut Vec<Diagnostic>) {
    for (i, tool) in tools.iter() {
        if !is_valid_name(&tool.name) {
            let why = if tool.name.chars().count() > 64 {
                format!(
                    "is {} characters long (at most 64)",
                    tool.name.chars().count()
                )
            } else {
                let mut bad: Vec<char> = tool
                    .name
                    .chars()
                    .filter(|c| !(c.is_ascii_alphanumeric() || *c == '_' || *c == '-'))
                    .collect();
                bad.sort_unstable();
                bad.dedup();
                let shown: Vec<String> = bad.iter().map(|c| format!("`{c:?}`")).collect();
                format!("contains characters providers reject: {}", shown.join(", "))
            };
            out.push(
                Diagnostic::tool(i, "/name", format!("tool name `{}` {why}", tool.name)).with_help(
                    "use only ASCII letters, digits, `_` and `-` (`^[a-zA-Z0-9_-]{1,64}$`)",
                ),
            );
        }
    }
}
