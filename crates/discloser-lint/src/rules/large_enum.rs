//! DL005 `large-enum`.

use crate::source::pointer_push;
use crate::{Context, Diagnostic, Severity};

declare_rule! {
    /// ## What it does
    /// Flags a required parameter whose closed set has more values than `index.max_enum_values`.
    ///
    /// ## Why is this bad?
    /// The index shows such a parameter as `string (one of N values)` instead of its values, so
    /// the model composes its first call to the unbound tool without knowing them and may guess.
    ///
    /// ## Example
    /// ```yaml tools
    /// - name: set_country
    ///   triggers: [country]
    ///   description: Set the customer's country.
    ///   parameters:
    ///     type: object
    ///     properties:
    ///       country: {type: string, enum: [AD, AE, AF, AG, AI, AL, AM, AO, AQ, AR, AS, AT, AU, AW, AX, AZ, BA, BB, BD, BE, BF]}
    ///     required: [country]
    /// ```
    ///
    /// ## Use instead
    /// ```yaml tools
    /// - name: set_country
    ///   triggers: [country]
    ///   description: Set the customer's country.
    ///   parameters:
    ///     type: object
    ///     properties:
    ///       country: {type: string, pattern: "^[A-Z]{2}$", description: "ISO 3166-1 alpha-2 code, e.g. DE."}
    ///     required: [country]
    /// ```
    pub static LARGE_ENUM = ("DL005", "large-enum", Severity::Warning, check);
}

fn check(ctx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let max = ctx.project.index_config().max_enum_values;
    for (i, entry) in ctx.entries.iter().enumerate() {
        for param in &entry.required {
            if let Some(values) = param.values.as_ref().filter(|v| v.len() > max) {
                out.push(
                    Diagnostic::tool(
                        i,
                        pointer_push("/parameters/properties", &param.name),
                        format!(
                            "required parameter `{}` of `{}` has {} values, more than `max_enum_values` ({max}); the index cannot show them",
                            param.name,
                            entry.name,
                            values.len()
                        ),
                    )
                    .with_help("bind the tool in the profiles that need it, describe the format with `pattern`, or raise `index.max_enum_values`"),
                );
            }
        }
    }
}
