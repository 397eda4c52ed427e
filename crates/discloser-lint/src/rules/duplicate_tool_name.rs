//! DL012 `duplicate-tool-name`.

use std::collections::BTreeMap;
use std::path::Path;

use crate::diagnostic::{ErrorKind, LoadError};
use crate::{At, Context, Diagnostic, Severity};

declare_rule! {
    /// ## What it does
    /// Flags a tool whose name is already used by another tool of the catalog (the first
    /// definition, in source order, is linted; later ones are reported here). A file that repeats
    /// more than five of its own names gets one finding for them, at its first repeat: it
    /// reads as several catalogs joined into one (a benchmark's union of its questions' tool
    /// lists), and one finding per definition would bury every other finding.
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

/// More repeats than this of names first defined in the same file, and the file reads as
/// several catalogs joined (BFCL's union of its questions' tool lists repeats 910): one
/// finding for the file says so, where one per definition would bury every other finding.
const JOINED_FILE_REPEATS: usize = 5;

fn check(ctx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let catalog = &ctx.project.catalog;
    // Repeats of a name first defined in the same file, by file; a repeat of another file's
    // name (two servers' `search`) is always reported on its own.
    let mut within: BTreeMap<&Path, Vec<&LoadError>> = BTreeMap::new();
    let mut single = Vec::new();
    for problem in ctx
        .project
        .problems
        .iter()
        .filter(|p| p.kind == ErrorKind::Duplicate)
    {
        let first_file = catalog
            .get(repeated_name(problem))
            .map(|t| catalog.files[t.origin.file].path.as_path());
        if first_file == Some(problem.path.as_path()) {
            within.entry(&problem.path).or_default().push(problem);
        } else {
            single.push(problem);
        }
    }
    for problems in within.into_values() {
        if problems.len() > JOINED_FILE_REPEATS {
            out.push(joined_file(&problems));
        } else {
            single.extend(problems);
        }
    }
    out.extend(single.into_iter().map(|problem| {
        Diagnostic {
            at: At::Problem(problem.clone()),
            message: problem.message.clone(),
            help: problem
                .help
                .clone()
                .map(|h| format!("rename one of them; {h}")),
            fix: None,
        }
    }));
}

/// The name a duplicate problem is about (core words it `duplicate tool name `x``).
fn repeated_name(problem: &LoadError) -> &str {
    problem
        .message
        .strip_prefix("duplicate tool name `")
        .and_then(|m| m.strip_suffix('`'))
        .unwrap_or(&problem.message)
}

/// One finding, at the file's first repeat, for a file that repeats many names.
fn joined_file(problems: &[&LoadError]) -> Diagnostic {
    let mut repeats: BTreeMap<&str, usize> = BTreeMap::new();
    for problem in problems {
        *repeats.entry(repeated_name(problem)).or_default() += 1;
    }
    let mut most: Vec<(&str, usize)> = repeats.iter().map(|(&n, &c)| (n, c)).collect();
    most.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let shown: Vec<String> = most
        .iter()
        .take(3)
        .map(|(name, n)| format!("`{name}` {} more time{}", n, if *n == 1 { "" } else { "s" }))
        .collect();
    let first = problems
        .iter()
        .min_by_key(|p| p.position.map(|pos| (pos.line, pos.col)))
        .expect("a joined file has repeats");
    Diagnostic {
        at: At::Problem((*first).clone()),
        message: format!(
            "{} definitions in this file repeat a tool name it already defines ({} names, among them {}): it reads as several catalogs joined, and the model can reach one tool of each name",
            problems.len(),
            repeats.len(),
            shown.join(", ")
        ),
        help: Some(
            "split the file into one file per catalog, or rename the repeats; only the first definition of each name is kept".to_owned(),
        ),
        fix: None,
    }
}
