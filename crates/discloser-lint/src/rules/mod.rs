//! The rule registry: one file per rule, registered by one line in the sorted [`RULES`] slice.

use super::{Context, Diagnostic, Severity, Tools};

/// A lint rule.
pub struct Rule {
    /// Permanent code, e.g. `DL001`.
    pub code: &'static str,
    /// Kebab-case name of the problem, e.g. `missing-triggers`.
    pub name: &'static str,
    /// Default severity.
    pub severity: Severity,
    /// Markdown docs: `## What it does`, `## Why is this bad?`, `## Example`, `## Use instead`.
    pub docs: &'static str,
    /// The detector of what the rule reads of the project as a whole (the config, the load
    /// problems, or every tool at once): run once, before any finding is reported, and its
    /// diagnostics kept until their files are.
    pub check: Option<fn(&Context<'_>, &mut Vec<Diagnostic>)>,
    /// The detector of tools a file at a time: run on the tools of each file (of each path: a
    /// JSON Lines file's documents together) as the files are reported, so a large catalog's
    /// diagnostics are never all held. It reports at those tools only, and proposes changes to
    /// their file only: a diagnostic elsewhere is dropped, and a change elsewhere gets no fix
    /// (debug builds fail on either).
    pub check_files: Option<fn(&Context<'_>, &Tools<'_>, &mut Vec<Diagnostic>)>,
    /// What a run of the detector costs, beside the others: on a large catalog the rules run on
    /// a queue shared by threads, and the costly ones start first.
    pub cost: Cost,
}

/// What a rule's detector costs, as a hint for ordering the rules' work.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Cost {
    /// Reads every text of every tool closely (the list judge of `untyped-enum`).
    Heavy,
    /// A pass over the tools or the configuration.
    Light,
}

impl Rule {
    /// Whether `code_or_name` designates this rule (case-insensitive).
    pub fn is(&self, code_or_name: &str) -> bool {
        self.code.eq_ignore_ascii_case(code_or_name) || self.name.eq_ignore_ascii_case(code_or_name)
    }

    /// The docs as Markdown (the one space after `///` removed from each line).
    pub fn doc_text(&self) -> String {
        let lines: Vec<&str> = self
            .docs
            .lines()
            .map(|l| l.strip_prefix(' ').unwrap_or(l))
            .collect();
        lines.join("\n").trim().to_owned()
    }

    /// The one-paragraph summary: the first paragraph of "What it does", on one line.
    pub fn summary(&self) -> String {
        let docs = self.doc_text();
        let paragraph = docs
            .split("## What it does")
            .nth(1)
            .and_then(|s| s.trim_start().split("\n\n").next())
            .unwrap_or("");
        paragraph.split_whitespace().collect::<Vec<_>>().join(" ")
    }
}

/// Declares a rule: its `///` docs become both rustdoc and the text `--explain` prints. The
/// detectors: `check` ([`Rule::check`], the project as a whole), `files: check` ([`Rule::
/// check_files`], a file at a time), or both (`check, files: check_files`).
macro_rules! declare_rule {
    (
        $(#[doc = $doc:literal])+
        pub static $ident:ident = ($code:literal, $name:literal, $severity:expr, files: $files:path);
    ) => {
        declare_rule! {
            @rule $(#[doc = $doc])+
            pub static $ident = ($code, $name, $severity, None, Some($files), Light);
        }
    };
    (
        $(#[doc = $doc:literal])+
        pub static $ident:ident = ($code:literal, $name:literal, $severity:expr, $check:path, files: $files:path);
    ) => {
        declare_rule! {
            @rule $(#[doc = $doc])+
            pub static $ident = ($code, $name, $severity, Some($check), Some($files), Light);
        }
    };
    (
        $(#[doc = $doc:literal])+
        pub static $ident:ident = ($code:literal, $name:literal, $severity:expr, $check:path);
    ) => {
        declare_rule! {
            @rule $(#[doc = $doc])+
            pub static $ident = ($code, $name, $severity, Some($check), None, Light);
        }
    };
    (
        $(#[doc = $doc:literal])+
        pub static $ident:ident = ($code:literal, $name:literal, $severity:expr, $check:path, $cost:ident);
    ) => {
        declare_rule! {
            @rule $(#[doc = $doc])+
            pub static $ident = ($code, $name, $severity, Some($check), None, $cost);
        }
    };
    (
        @rule $(#[doc = $doc:literal])+
        pub static $ident:ident = ($code:literal, $name:literal, $severity:expr, $check:expr, $files:expr, $cost:ident);
    ) => {
        $(#[doc = $doc])+
        pub static $ident: $crate::rules::Rule = $crate::rules::Rule {
            code: $code,
            name: $name,
            severity: $severity,
            docs: concat!($($doc, "\n"),+),
            check: $check,
            check_files: $files,
            cost: $crate::rules::Cost::$cost,
        };
    };
}

pub mod boilerplate_in_summary;
pub mod core_not_bound;
pub mod duplicate_tool_name;
pub mod duplicate_trigger;
pub mod first_sentence_over_budget;
pub mod invalid_name;
pub mod invalid_schema;
pub mod large_enum;
pub mod mid_sentence_cut;
pub mod missing_description;
pub mod missing_triggers;
pub mod unknown_starter_tool;
pub mod unsorted_triggers;
pub mod untyped_enum;

/// Every rule, sorted by code.
pub static RULES: &[&Rule] = &[
    &missing_triggers::MISSING_TRIGGERS,
    &mid_sentence_cut::MID_SENTENCE_CUT,
    &first_sentence_over_budget::FIRST_SENTENCE_OVER_BUDGET,
    &untyped_enum::UNTYPED_ENUM,
    &large_enum::LARGE_ENUM,
    &invalid_schema::INVALID_SCHEMA,
    &missing_description::MISSING_DESCRIPTION,
    &invalid_name::INVALID_NAME,
    &duplicate_trigger::DUPLICATE_TRIGGER,
    &core_not_bound::CORE_NOT_BOUND,
    &unknown_starter_tool::UNKNOWN_STARTER_TOOL,
    &duplicate_tool_name::DUPLICATE_TOOL_NAME,
    &boilerplate_in_summary::BOILERPLATE_IN_SUMMARY,
    &unsorted_triggers::UNSORTED_TRIGGERS,
];

/// The rule with this code or name.
pub fn find(code_or_name: &str) -> Option<&'static Rule> {
    RULES.iter().copied().find(|r| r.is(code_or_name))
}

/// The rule whose code or name is nearest to `code_or_name` (`DL0O1` → `DL001`), with the
/// spelling that is nearest, if one is close; ties go to the first by name, so the answer is
/// the same on every run.
pub fn nearest(code_or_name: &str) -> Option<(&'static Rule, &'static str)> {
    let spellings = RULES.iter().flat_map(|r| [r.code, r.name]);
    let near = discloser_core::diagnostic::did_you_mean(code_or_name, spellings)?;
    find(near).map(|rule| (rule, near))
}

/// The error for a code or name that is no rule, with the nearest rule when one is close.
pub fn unknown(code_or_name: &str) -> String {
    let near = match nearest(code_or_name) {
        Some((rule, spelt)) if spelt == rule.code => {
            format!(" did you mean `{}` (`{}`)?", rule.code, rule.name)
        }
        Some((rule, _)) => format!(" did you mean `{}` (`{}`)?", rule.name, rule.code),
        None => String::new(),
    };
    format!("unknown lint rule `{code_or_name}`;{near} see `discloser lint --list`")
}
