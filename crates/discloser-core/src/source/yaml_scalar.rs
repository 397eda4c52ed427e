//! YAML scalars that read back as the same string anywhere: for every writer of YAML text
//! (the catalog writer, `import`, `init`, and edits of `discloser.yaml`).

use std::fmt::Write as _;

/// A string as one YAML scalar that reads back as the same string anywhere, in a block or a
/// flow collection: plain, single-quoted or double-quoted, whichever is safe first. For every
/// writer of YAML text (`import`, `init`, `suggest --triggers --write`).
pub fn scalar(s: &str) -> String {
    string_scalar(s)
}

/// A one-line string: plain, single-quoted or double-quoted, whichever is safe first.
pub(crate) fn string_scalar(s: &str) -> String {
    if is_plain_safe(s) {
        s.to_owned()
    } else if !s.contains('\n') && s.chars().all(|c| c != '\t' && printable(c)) {
        format!("'{}'", s.replace('\'', "''"))
    } else {
        double_quoted(s)
    }
}

/// Words some YAML reader takes for a null, a boolean or a merge key.
const RESERVED: &[&str] = &[
    "null", "~", "true", "false", "yes", "no", "on", "off", "y", "n", "=", "<<",
];

fn is_plain_safe(s: &str) -> bool {
    let Some(first) = s.chars().next() else {
        return false;
    };
    let last = s.chars().last().unwrap_or(first);
    !first.is_whitespace()
        && !last.is_whitespace()
        && !"-?:,[]{}#&*!|>'\"%@`<=.+0123456789".contains(first)
        && last != ':'
        && !s.contains(": ")
        && !s.contains(" #")
        && s.chars()
            .all(|c| printable(c) && !c.is_whitespace() || c == ' ')
        && !s.contains(['[', ']', '{', '}', ','])
        && !RESERVED.contains(&s.to_lowercase().as_str())
}

/// Characters YAML allows unescaped, minus the ones some readers treat as line breaks or marks.
pub(crate) fn printable(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\u{20}'..='\u{7e}' | '\u{a0}'..='\u{d7ff}' | '\u{e000}'..='\u{fffd}' | '\u{10000}'..)
        && !matches!(c, '\u{2028}' | '\u{2029}' | '\u{feff}')
}

/// A double-quoted scalar with every non-printable character escaped.
pub(crate) fn double_quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if printable(c) => out.push(c),
            c if (c as u32) <= 0xff => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c if (c as u32) <= 0xffff => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => {
                let _ = write!(out, "\\U{:08x}", c as u32);
            }
        }
    }
    out.push('"');
    out
}
