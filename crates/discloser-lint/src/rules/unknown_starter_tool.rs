//! DL011 `unknown-starter-tool`.

use crate::diagnostic::ErrorKind;
use crate::{At, Context, Diagnostic, Severity};

declare_rule! {
    /// ## What it does
    /// Flags a profile whose `starter`, `add` or `remove` names a tool that is not in the catalog.
    ///
    /// ## Why is this bad?
    /// The profile binds less than its author thinks: usually a tool was renamed and the profile
    /// not updated, so a tool meant to stay bound silently moved into the index.
    ///
    /// ## Example
    /// ```yaml tools
    /// - name: draw_chart
    ///   triggers: [chart]
    ///   description: Draw a chart.
    /// ```
    /// ```yaml config
    /// profiles:
    ///   default:
    ///     starter: [draw_charts]
    /// ```
    ///
    /// ## Use instead
    /// ```yaml tools
    /// - name: draw_chart
    ///   triggers: [chart]
    ///   description: Draw a chart.
    /// ```
    /// ```yaml config
    /// profiles:
    ///   default:
    ///     starter: [draw_chart]
    /// ```
    pub static UNKNOWN_STARTER_TOOL = ("DL011", "unknown-starter-tool", Severity::Error, check);
}

fn check(ctx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for problem in ctx
        .project
        .problems
        .iter()
        .filter(|p| p.kind == ErrorKind::Config)
    {
        out.push(Diagnostic {
            at: At::Problem(problem.clone()),
            message: problem.message.clone(),
            help: problem.help.clone(),
            fix: None,
        });
    }
}
