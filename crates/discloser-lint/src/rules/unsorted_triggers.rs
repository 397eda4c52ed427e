//! DL014 `unsorted-triggers`.

use std::collections::BTreeSet;

use crate::catalog::formats::Format;
use crate::catalog::formats::mcp::TRIGGERS_META_KEY;
use crate::index::triggers::{normalize_trigger, sort_triggers};
use crate::source::pointer_push;
use crate::{Applicability, At, Context, Diagnostic, Proposal, Proposed, Severity, Tools};

declare_rule! {
    /// ## What it does
    /// Flags a trigger list (a native tool's `triggers`, an MCP tool's in its `_meta`, or an
    /// `overrides:` entry's in `discloser.yaml`) that is not in the order the index renders
    /// it, or that repeats a word: after NFC and trimming, shorter words first (by
    /// characters), then by code point. Only exact repeats count; `BP` and `bp` are two
    /// words. Its fix (safe) rewrites the list in that order without the repeats, in the
    /// list's own style: flow or block, each kept word quoted as it was.
    ///
    /// ## Why is this bad?
    /// The index sorts and deduplicates triggers, so the list in the file is not the list the
    /// model reads: a repeated word looks like weight it does not carry, and a reviewer who
    /// compares the file with the rendered index (or a snapshot of it) has to sort in their
    /// head. Kept in the index's order, the file reads as the prompt does. The fix changes no
    /// byte of the index.
    ///
    /// ## Example
    /// ```yaml tools
    /// - name: draw_chart
    ///   description: Draw a chart from rows of data.
    ///   triggers: [visualize, chart, plot, chart]
    /// ```
    ///
    /// ## Use instead
    /// ```yaml tools
    /// - name: draw_chart
    ///   description: Draw a chart from rows of data.
    ///   triggers: [plot, chart, visualize]
    /// ```
    pub static UNSORTED_TRIGGERS = ("DL014", "unsorted-triggers", Severity::Warning, check_overrides, files: check);
}

/// The tools' own lists.
fn check(ctx: &Context<'_>, tools: &Tools<'_>, out: &mut Vec<Diagnostic>) {
    let overrides = &ctx.project.config.overrides;
    let in_meta = pointer_push("/_meta", TRIGGERS_META_KEY);
    for (i, tool) in tools.iter() {
        // A tool's own list only when it is the one in force (a config override replaces it),
        // and only where the tool's author wrote it: a native file's `triggers`, an MCP
        // tool's `_meta` (not a server's: its lists are fixed upstream, or in `overrides`).
        let overridden = overrides
            .get(&tool.name)
            .is_some_and(|o| o.triggers.is_some());
        let at = match tool.origin.format {
            Format::Native => "/triggers",
            Format::Mcp if !ctx.project.is_from_server(tool) => in_meta.as_str(),
            _ => continue,
        };
        if overridden {
            continue;
        }
        out.extend(diagnostic(
            At::Tool(i, at.to_owned()),
            &format!("the triggers of `{}`", tool.name),
            &tool.triggers,
        ));
    }
}

/// The lists of `overrides` in the config.
fn check_overrides(ctx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for (name, over) in &ctx.project.config.overrides {
        if let Some(list) = &over.triggers {
            let pointer = pointer_push(&pointer_push("/overrides", name), "triggers");
            out.extend(diagnostic(
                At::Config(pointer),
                &format!("the triggers of `{name}` in `overrides`"),
                list,
            ));
        }
    }
}

/// The finding for a list that is not canonical, with its fix.
fn diagnostic(at: At, what: &str, list: &[String]) -> Option<Diagnostic> {
    let written: Vec<String> = list
        .iter()
        .map(|t| normalize_trigger(t))
        .filter(|t| !t.is_empty())
        .collect();
    let canonical = sort_triggers(written.iter().cloned());
    if written == canonical {
        return None;
    }
    // The words in the order they first appear, and those written again.
    let (mut seen, mut seen_twice) = (BTreeSet::new(), BTreeSet::new());
    let mut first_seen: Vec<&str> = Vec::new();
    let mut repeated: Vec<&str> = Vec::new();
    for t in &written {
        if seen.insert(t.as_str()) {
            first_seen.push(t);
        } else if seen_twice.insert(t.as_str()) {
            repeated.push(t);
        }
    }
    let unsorted = first_seen
        .iter()
        .copied()
        .ne(canonical.iter().map(String::as_str));
    let order = "are not in the index's order (shorter first, then by code point)";
    let quoted = |words: &[&str]| {
        words
            .iter()
            .map(|w| format!("`{w}`"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let message = match (repeated.is_empty(), unsorted) {
        (false, true) => format!("{what} repeat {} and {order}", quoted(&repeated)),
        (false, false) => format!("{what} repeat {}", quoted(&repeated)),
        (true, _) => format!("{what} {order}"),
    };
    let shown: Vec<&str> = canonical.iter().map(String::as_str).collect();
    Some(Diagnostic {
        at: at.clone(),
        message,
        help: Some(format!(
            "write them in the index's order, each once: `[{}]`",
            shown.join(", ")
        )),
        fix: Some(Proposal {
            applicability: Applicability::Safe,
            message: "sort the triggers shorter first and drop the repeats".to_owned(),
            change: Proposed::StringList {
                at,
                expected: list.to_vec(),
                items: canonical,
            },
        }),
    })
}
