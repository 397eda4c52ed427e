//! DL010 `core-not-bound`.

use crate::source::pointer_push;
use crate::{At, Context, Diagnostic, Severity};

declare_rule! {
    /// ## What it does
    /// Flags a profile that `remove`s a core tool.
    ///
    /// ## Why is this bad?
    /// A tool is `core: true` because the product depends on it being reached on every turn (the
    /// article's knowledge-base search: in the catalog, the model answered from general knowledge
    /// instead). discloser keeps core tools bound in every profile, so the removal is ignored, and
    /// the config says something that is not true.
    ///
    /// ## Example
    /// ```yaml tools
    /// - name: search_knowledge_base
    ///   core: true
    ///   triggers: [policy]
    ///   description: Search the policy knowledge base.
    /// - name: draw_chart
    ///   triggers: [chart]
    ///   description: Draw a chart.
    /// ```
    /// ```yaml config
    /// profiles:
    ///   default:
    ///     starter: [draw_chart]
    ///     remove: [search_knowledge_base]
    /// ```
    ///
    /// ## Use instead
    /// ```yaml tools
    /// - name: search_knowledge_base
    ///   core: true
    ///   triggers: [policy]
    ///   description: Search the policy knowledge base.
    /// - name: draw_chart
    ///   triggers: [chart]
    ///   description: Draw a chart.
    /// ```
    /// ```yaml config
    /// profiles:
    ///   default:
    ///     starter: [draw_chart]
    /// ```
    pub static CORE_NOT_BOUND = ("DL010", "core-not-bound", Severity::Error, check);
}

fn check(ctx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for (name, def) in &ctx.project.config.profiles {
        let Some(def) = def else { continue };
        for (i, tool) in def.remove.iter().enumerate() {
            if ctx.project.catalog.get(tool).is_some_and(|t| t.core) {
                let pointer =
                    pointer_push(&pointer_push(&pointer_push("/profiles", name), "remove"), i);
                out.push(Diagnostic {
                    at: At::Config(pointer),
                    message: format!("profile `{name}` removes core tool `{tool}`, which stays bound in every profile"),
                    help: Some(format!("drop `{tool}` from `remove`, or set `core: false` on it")),
                    fix: None,
                });
            }
        }
    }
}
