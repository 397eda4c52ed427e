//! OpenAI's published estimate of what function definitions cost on gpt-4o-class models.
//!
//! This follows `num_tokens_for_tools` from the OpenAI cookbook ("How to count tokens with
//! tiktoken"): per function 7 tokens, the o200k tokens of `name:description` (one trailing period
//! dropped), 3 tokens to open the properties, per property 3 tokens plus the tokens of
//! `name:type:description`, for an enum -3 plus per value 3 plus the value's tokens, and 12 tokens
//! once at the end. It is an **estimate** — OpenAI does not document the real serialisation —
//! and is labelled as such in every output.

use serde_json::Value;

const FUNC_INIT: i64 = 7;
const PROP_INIT: i64 = 3;
const PROP_KEY: i64 = 3;
const ENUM_INIT: i64 = -3;
const ENUM_ITEM: i64 = 3;
/// Added once per list of functions.
pub const FUNC_END: i64 = 12;

/// The estimated tokens of one function (without [`FUNC_END`]), given an o200k counter.
pub fn function_tokens(
    name: &str,
    description: &str,
    parameters: &Value,
    count: &dyn Fn(&str) -> usize,
) -> i64 {
    let tokens = |text: &str| i64::try_from(count(text)).unwrap_or(i64::MAX);
    let mut total = FUNC_INIT;
    total += tokens(&format!(
        "{name}:{}",
        description.strip_suffix('.').unwrap_or(description)
    ));
    let properties = parameters.get("properties").and_then(Value::as_object);
    if let Some(properties) = properties.filter(|p| !p.is_empty()) {
        total += PROP_INIT;
        for (key, schema) in properties {
            total += PROP_KEY;
            if let Some(values) = schema.get("enum").and_then(Value::as_array) {
                total += ENUM_INIT;
                for value in values {
                    total += ENUM_ITEM;
                    total += tokens(
                        &value
                            .as_str()
                            .map_or_else(|| value.to_string(), str::to_owned),
                    );
                }
            }
            let ty = match schema.get("type") {
                Some(Value::String(t)) => t.clone(),
                Some(other) => other.to_string(),
                None => String::new(),
            };
            let desc = schema
                .get("description")
                .and_then(Value::as_str)
                .unwrap_or("");
            let desc = desc.strip_suffix('.').unwrap_or(desc);
            total += tokens(&format!("{key}:{ty}:{desc}"));
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn follows_the_cookbook_arithmetic() {
        // Count words instead of tokens to make the arithmetic visible.
        let words = |t: &str| t.split([' ', ':']).filter(|w| !w.is_empty()).count();
        let p = json!({"properties": {"unit": {"type": "string", "description": "The unit.", "enum": ["c", "f"]}}});
        // 7 + "get:Get weather"(3) + 3 + 3 + (-3 + 3+1 + 3+1) + "unit:string:The unit"(4)
        assert_eq!(
            function_tokens("get", "Get weather.", &p, &words),
            7 + 3 + 3 + 3 + 5 + 4
        );
        assert_eq!(function_tokens("f", "", &json!({}), &words), 7 + 1);
    }
}
