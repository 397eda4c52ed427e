//! Text that is safe to print on a terminal or into a CI log.
//!
//! Tool names, file names and descriptions are user input: a line feed in a name would start a
//! line of its own (`::error file=...::` is a GitHub workflow command), and ESC, OSC or BEL
//! sequences would drive the terminal (colours, the window title). Every text report passes the
//! user's values through [`neutralise`], which shows each control character as a visible one,
//! the way the `full` lint format's renderer shows ESC as `␛`.

use std::borrow::Cow;

/// `text` with every control character replaced by a visible one: C0 characters (line feed,
/// carriage return, tab, ESC, BEL, ...) by their Unicode control pictures (`␊`, `␍`, `␉`, `␛`,
/// `␇`), DEL by `␡`, and C1 characters (`U+0080` to `U+009F`, which some terminals read as
/// escape sequences) by `⟨U+009B⟩`. Text without any is returned as it is.
pub fn neutralise(text: &str) -> Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match u32::from(c) {
            code @ 0..=0x1f => out.push(char::from_u32(0x2400 + code).unwrap_or('\u{fffd}')),
            0x7f => out.push('␡'),
            code @ 0x80..=0x9f => out.push_str(&format!("⟨U+{code:04X}⟩")),
            _ => out.push(c),
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::neutralise;

    #[test]
    fn control_characters_become_visible() {
        assert_eq!(neutralise("plain `name` 名字"), "plain `name` 名字");
        assert_eq!(
            neutralise("a\n::error file=x::y\r\t\x1b]0;t\x07\x7f\u{9b}"),
            "a␊::error file=x::y␍␉␛]0;t␇␡⟨U+009B⟩"
        );
    }
}
