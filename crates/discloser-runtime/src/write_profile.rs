//! Adding a profile to `discloser.yaml` without disturbing the rest of the file.
//!
//! The YAML is never re-serialised: the new profile is inserted as text after the last line of
//! the top-level `profiles:` block (or appended with a new `profiles:` block), indented like the
//! profiles already there, with the file's line endings. Every other byte — comments, key
//! order, quoting, blank lines — stays as it was. The result is parsed again and checked (the
//! same sources, the same profiles in the same order plus the new one, with exactly the new
//! starter set) before the file is replaced atomically; on any failure the file is untouched.

use std::path::PathBuf;

use crate::config::{CONFIG_FILE, Config};
use crate::diagnostic::{ErrorKind, LoadError};
use crate::project::{DEFAULT_PROFILE, Project};
use crate::source::SourceFile;

/// Adds profile `name` with `starter` to the project's config file, after a comment line.
/// Returns the path written.
pub fn write_profile(
    project: &Project,
    name: &str,
    starter: &[String],
    comment: &str,
) -> Result<PathBuf, LoadError> {
    let path = &project.config_path;
    let fail = |message: String| LoadError::file(ErrorKind::Config, path, message);
    if !path.is_file() {
        return Err(fail(format!(
            "there is no `{CONFIG_FILE}` to add profile `{name}` to: run with a config, not tool paths"
        )));
    }
    check_name(name).map_err(fail)?;
    if project.config.profiles.contains_key(name) {
        return Err(fail(format!(
            "profile `{name}` already exists; choose another name for the suggested profile"
        )));
    }
    let source = SourceFile::read(path, path.clone())?;
    let text = insert_profile(&source.text, name, starter, comment).map_err(fail)?;
    verify(project, &source, &text, name, starter).map_err(fail)?;
    let real = path.canonicalize().unwrap_or_else(|_| path.clone());
    crate::fsutil::write_atomic(&real, text.as_bytes())
        .map_err(|e| fail(format!("cannot write the config: {e}")))?;
    Ok(path.clone())
}

/// A profile name must also work as a folder name (`snapshot` writes one per profile).
fn check_name(name: &str) -> Result<(), String> {
    match crate::config::profile_name_problem(name) {
        Some(reason) => Err(format!("`{name}` cannot be a profile name: {reason}")),
        None => Ok(()),
    }
}

/// Re-reads the edited text and checks that it says what the old one said, plus the profile.
fn verify(
    project: &Project,
    old: &SourceFile,
    text: &str,
    name: &str,
    starter: &[String],
) -> Result<(), String> {
    let edited = SourceFile::from_text(text.to_owned(), old.path.clone());
    let config = Config::parse(&edited).map_err(|e| {
        format!("adding the profile as text would break the file ({e}); add it by hand")
    })?;
    let unchanged =
        |what: &str| format!("adding the profile as text would change {what}; add it by hand");
    if config.sources != project.config.sources {
        return Err(unchanged("`sources`"));
    }
    let mut expected: Vec<&str> = project.config.profiles.keys().map(String::as_str).collect();
    if expected.is_empty() && name != DEFAULT_PROFILE {
        expected.push(DEFAULT_PROFILE);
    }
    expected.push(name);
    let found: Vec<&str> = config.profiles.keys().map(String::as_str).collect();
    if found != expected {
        return Err(unchanged("the other profiles"));
    }
    let def = config.profiles.get(name).and_then(Option::as_ref);
    let exact = def.is_some_and(|d| {
        d.starter == starter && d.extends.is_none() && d.add.is_empty() && d.remove.is_empty()
    });
    if exact {
        Ok(())
    } else {
        Err(unchanged("the new profile"))
    }
}

/// `text` with profile `name` (binding `starter`) inserted into its top-level `profiles:` block,
/// or appended in a new block (then with an explicit `default` binding the core tools only, as
/// the implicit one did).
pub fn insert_profile(
    text: &str,
    name: &str,
    starter: &[String],
    comment: &str,
) -> Result<String, String> {
    let nl = if text.contains("\r\n") { "\r\n" } else { "\n" };
    let lines: Vec<(usize, &str)> = line_spans(text);
    let Some(key_line) = lines.iter().position(|(_, l)| is_profiles_key(l)) else {
        return Ok(append_block(text, name, starter, comment, nl));
    };
    let value = after_colon(lines[key_line].1);
    if !value.is_empty() {
        return Err(format!(
            "`profiles` is written inline (`{value}`), so a profile cannot be inserted as a line; add it by hand"
        ));
    }
    let mut last = key_line;
    let mut indent = None;
    for (i, (_, line)) in lines.iter().enumerate().skip(key_line + 1) {
        let content = line.trim_end_matches(['\n', '\r']);
        if content.trim().is_empty() {
            continue;
        }
        if !content.starts_with([' ', '\t']) {
            if content.starts_with('#') {
                continue;
            }
            break;
        }
        last = i;
        let trimmed = content.trim_start();
        if indent.is_none() && !trimmed.starts_with('#') {
            indent = Some(content.len() - trimmed.len());
        }
    }
    let indent = " ".repeat(indent.unwrap_or(2));
    let (start, line) = lines[last];
    let end = start + line.len();
    let mut out = String::with_capacity(text.len() + 128);
    out.push_str(&text[..end]);
    if !line.ends_with('\n') {
        out.push_str(nl);
    }
    out.push_str(&entry(&indent, name, starter, comment, nl));
    out.push_str(&text[end..]);
    Ok(out)
}

fn append_block(text: &str, name: &str, starter: &[String], comment: &str, nl: &str) -> String {
    let mut out = text.to_owned();
    if !out.is_empty() && !out.ends_with('\n') {
        out.push_str(nl);
    }
    if !out.is_empty() {
        out.push_str(nl);
    }
    out.push_str("profiles:");
    out.push_str(nl);
    if name != DEFAULT_PROFILE {
        out.push_str(&entry(
            "  ",
            DEFAULT_PROFILE,
            &[],
            "binds the core tools only, as it did while the config had no profiles",
            nl,
        ));
    }
    out.push_str(&entry("  ", name, starter, comment, nl));
    out
}

fn entry(indent: &str, name: &str, starter: &[String], comment: &str, nl: &str) -> String {
    let items: Vec<String> = starter.iter().map(|s| scalar(s)).collect();
    let mut out = String::new();
    for line in comment.lines() {
        out.push_str(&format!("{indent}# {line}{nl}"));
    }
    out.push_str(&format!("{indent}{}:{nl}", scalar(name)));
    out.push_str(&format!(
        "{indent}{indent}starter: [{}]{nl}",
        items.join(", ")
    ));
    out
}

/// A plain YAML scalar when it reads back as the same string, else a JSON-quoted one.
fn scalar(value: &str) -> String {
    let plain = value
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && value
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
        && !matches!(
            value.to_ascii_lowercase().as_str(),
            "true" | "false" | "null" | "yes" | "no" | "on" | "off" | "y" | "n"
        );
    if plain {
        value.to_owned()
    } else {
        serde_json::Value::String(value.to_owned()).to_string()
    }
}

/// Each line with its byte offset, line endings kept.
fn line_spans(text: &str) -> Vec<(usize, &str)> {
    let mut offset = 0;
    text.split_inclusive('\n')
        .map(|line| {
            let at = offset;
            offset += line.len();
            (at, line)
        })
        .collect()
}

/// A top-level `profiles:` key (plain or quoted), at column 0.
fn is_profiles_key(line: &str) -> bool {
    ["profiles", "\"profiles\"", "'profiles'"]
        .iter()
        .any(|key| {
            line.strip_prefix(key)
                .is_some_and(|rest| rest.trim_start_matches(' ').starts_with(':'))
        })
}

/// What follows the key's colon, without a trailing comment.
fn after_colon(line: &str) -> &str {
    let rest = line.split_once(':').map_or("", |(_, r)| r);
    let rest = rest.trim_end_matches(['\n', '\r']);
    let value = match rest.find(" #") {
        Some(i) => &rest[..i],
        None if rest.trim_start().starts_with('#') => "",
        None => rest,
    };
    value.trim()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn starter() -> Vec<String> {
        vec!["a_tool".into(), "b-tool".into()]
    }

    #[test]
    fn inserts_after_the_last_line_of_the_block_keeping_everything_else() {
        let text = "sources: [t.yaml]\nprofiles:\n    # the usual\n    default:\n        starter: [x]\n\n# overrides\noverrides: {}\n";
        let got = insert_profile(text, "new", &starter(), "suggested").unwrap();
        assert_eq!(
            got,
            "sources: [t.yaml]\nprofiles:\n    # the usual\n    default:\n        starter: [x]\n    # suggested\n    new:\n        starter: [a_tool, b-tool]\n\n# overrides\noverrides: {}\n"
        );
    }

    #[test]
    fn keeps_crlf_and_a_missing_final_newline() {
        let text = "profiles:\r\n  default:\r\n    starter: []";
        let got = insert_profile(text, "new", &[], "c").unwrap();
        assert_eq!(
            got,
            "profiles:\r\n  default:\r\n    starter: []\r\n  # c\r\n  new:\r\n    starter: []\r\n"
        );
    }

    #[test]
    fn appends_a_block_with_an_explicit_default() {
        let got = insert_profile("sources: [t.yaml]", "new", &starter(), "c").unwrap();
        assert_eq!(
            got,
            "sources: [t.yaml]\n\nprofiles:\n  # binds the core tools only, as it did while the config had no profiles\n  default:\n    starter: []\n  # c\n  new:\n    starter: [a_tool, b-tool]\n"
        );
    }

    #[test]
    fn refuses_inline_profiles_and_quotes_odd_scalars() {
        assert!(insert_profile("profiles: {}\n", "n", &[], "c").is_err());
        assert_eq!(scalar("yes"), "\"yes\"");
        assert_eq!(scalar("n"), "\"n\"");
        assert_eq!(scalar("a b"), "\"a b\"");
        assert_eq!(scalar("view_startup_guide"), "view_startup_guide");
    }
}
