//! DL005 `large-enum`.

use std::collections::BTreeMap;
use std::collections::btree_map::Entry;

use discloser_core::index::signature::Param;
use serde_json::Value;

use crate::source::pointer_push;
use crate::{Context, Diagnostic, Severity, Tools};

declare_rule! {
    /// ## What it does
    /// Flags a required parameter whose closed set has more values than `index.max_enum_values`.
    /// A parameter with the same values on several tools of one file is reported once, at the
    /// first tool. When every value has one shape (`en_US`, `ko_KR`), the help gives the
    /// `pattern` that describes it.
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
    pub static LARGE_ENUM = ("DL005", "large-enum", Severity::Warning, files: check);
}

fn check(ctx: &Context<'_>, tools: &Tools<'_>, out: &mut Vec<Diagnostic>) {
    let max = ctx.project.index_config().max_enum_values;
    // One finding for a parameter repeated across tools of one file with the same values (a
    // server's `lang` on each of its tools): the first tool is reported and the others
    // counted, since one fix in the server's code mends them all.
    let mut seen: BTreeMap<(usize, &str, String), usize> = BTreeMap::new();
    let mut found: Vec<(usize, &Param, usize)> = Vec::new();
    for (i, entry) in tools.entries() {
        let file = ctx.project.catalog.tools[i].origin.file;
        for param in &entry.required {
            let Some(values) = param.values.as_deref().filter(|v| v.len() > max) else {
                continue;
            };
            match seen.entry((file, param.name.as_str(), Value::from(values).to_string())) {
                Entry::Occupied(at) => found[*at.get()].2 += 1,
                Entry::Vacant(slot) => {
                    slot.insert(found.len());
                    found.push((i, param, 0));
                }
            }
        }
    }
    for (i, param, others) in found {
        let values = param.values.as_deref().unwrap_or_default();
        let tools = match others {
            0 => format!("`{}`", tools.entry(i).name),
            1 => format!("`{}` and one other tool of its file", tools.entry(i).name),
            n => format!("`{}` and {n} other tools of its file", tools.entry(i).name),
        };
        let mut help = String::new();
        if let Some(pattern) = common_shape(values) {
            help.push_str(&format!(
                "the values share one shape: describe it with `pattern: \"{pattern}\"` and an example in the description; "
            ));
        }
        help.push_str("give it a `default` and make it optional, bind the tool in the profiles that need it, or raise `index.max_enum_values`");
        out.push(
            Diagnostic::tool(
                i,
                pointer_push("/parameters/properties", &param.name),
                format!(
                    "required parameter `{}` of {tools} has {} values ({}), more than `max_enum_values` ({max}): the index shows `{}`, so the model composes its first call without seeing them",
                    param.name,
                    values.len(),
                    first_values(values),
                    param.ty,
                ),
            )
            .with_help(help),
        );
    }
}

/// The first three values, then `…`: enough to show what they look like.
fn first_values(values: &[Value]) -> String {
    let mut shown: Vec<String> = values
        .iter()
        .take(3)
        .map(|v| match v {
            Value::String(s) => format!("`{s}`"),
            other => format!("`{other}`"),
        })
        .collect();
    shown.push("…".to_owned());
    shown.join(", ")
}

/// A regular expression every value matches when all are strings of one shape: runs of
/// lowercase letters, uppercase letters and digits with fixed lengths, and the same literal
/// punctuation (`en_US`, `ko_KR` → `^[a-z]{2}_[A-Z]{2}$`). `None` for values of varying shape
/// (words of different lengths) or that are not all strings.
fn common_shape(values: &[Value]) -> Option<String> {
    let mut shapes = values.iter().map(|v| v.as_str().map(shape));
    let first = shapes.next()??;
    if shapes.any(|s| s.as_ref() != Some(&first)) {
        return None;
    }
    let mut pattern = String::from("^");
    for (class, n) in &first {
        pattern.push_str(class);
        if *n > 1 {
            pattern.push_str(&format!("{{{n}}}"));
        }
    }
    pattern.push('$');
    Some(pattern)
}

/// `en_US` → `[a-z]` ×2, `_` ×1, `[A-Z]` ×2; other characters stand for themselves (escaped).
fn shape(value: &str) -> Vec<(String, usize)> {
    let mut runs: Vec<(String, usize)> = Vec::new();
    for c in value.chars() {
        let class = if c.is_ascii_lowercase() {
            "[a-z]".to_owned()
        } else if c.is_ascii_uppercase() {
            "[A-Z]".to_owned()
        } else if c.is_ascii_digit() {
            "[0-9]".to_owned()
        } else {
            regex_syntax::escape(c.encode_utf8(&mut [0; 4]))
        };
        match runs.last_mut() {
            Some((last, n)) if *last == class => *n += 1,
            _ => runs.push((class, 1)),
        }
    }
    runs
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn values(v: serde_json::Value) -> Vec<Value> {
        v.as_array().unwrap().clone()
    }

    #[test]
    fn a_shared_shape_becomes_a_pattern() {
        let locales = values(json!(["en_US", "ko_KR", "ja_JP"]));
        assert_eq!(
            common_shape(&locales).as_deref(),
            Some("^[a-z]{2}_[A-Z]{2}$")
        );
        let codes = values(json!(["TFT14_Ekko", "TFT14_Kaisa"]));
        assert_eq!(common_shape(&codes), None, "letters of varying length");
        let countries = values(json!(["DE", "FR"]));
        assert_eq!(common_shape(&countries).as_deref(), Some("^[A-Z]{2}$"));
        let versions = values(json!(["v1.2", "v3.4"]));
        assert_eq!(
            common_shape(&versions).as_deref(),
            Some("^[a-z][0-9]\\.[0-9]$")
        );
    }

    #[test]
    fn words_of_varying_length_and_mixed_values_have_no_shape() {
        assert_eq!(common_shape(&values(json!(["red", "blue"]))), None);
        assert_eq!(common_shape(&values(json!(["a1", 2]))), None);
    }
}
