//! DL012 `duplicate-tool-name`.

use crate::diagnostic::ErrorKind;
use crate::{At, Context, Diagnostic, Severity};

declare_rule! {
    /// ## What it does
    /// Flags a tool whose name is already used by another tool of the catalog (the first
    /// definition, in source order, is linted; later ones are reported here).
    ///
    /// ## Why is this bad?
    /// The model calls tools by name, so two tools with one name cannot both be reached: the
    /// runtime binds whichever it finds first, and the index shows one entry for two
    /// behaviours. Providers reject requests whose tools repeat a name. Catalogs merged from
    /// several servers hit this most (the BFCL union repeats 910 names).
    ///
    /// ## Example
    /// ```yaml tools
    /// - name: search
    ///   triggers: [docs]
    ///   description: Search the documentation.
    /// - name: search
    ///   triggers: [issues]
    ///   description: Search the issue tracker.
    /// ```
    ///
    /// ## Use instead
    /// ```yaml tools
    /// - name: search_docs
    ///   triggers: [docs]
    ///   description: Search the documentation.
    /// - name: search_issues
    ///   triggers: [issues]
    ///   description: Search the issue tracker.
    /// ```
    pub static DUPLICATE_TOOL_NAME = ("DL012", "duplicate-tool-name", Severity::Error, check);
}

fn check(ctx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for problem in ctx
        .project
        .problems
        .iter()
        .filter(|p| p.kind == ErrorKind::Duplicate)
    {
        out.push(Diagnostic {
            at: At::Problem(problem.clone()),
            message: problem.message.clone(),
            help: problem
                .help
                .clone()
                .map(|h| format!("rename one of them; {h}")),
            fix: None,
        });
    }
}
