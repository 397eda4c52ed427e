//! The parameters a tool's own description documents, in the docstring styles authors paste
//! into it: Google (`Args:` then `name (type): text`), Sphinx (`:param name: text`), JSDoc
//! (`@param {type} [name] - text`) and NumPy (`name : type` then indented text). Each yields the
//! parameter's name and the text that documents it.
//!
//! A type that is itself a closed set (JSDoc `{'main'|'second'}`, NumPy `{'DB', 'B'}`) is
//! turned into the words `one of ...`, so the list judge reads it as the set it declares.

/// One documented parameter: its name and its text.
#[derive(Debug, PartialEq, Eq)]
pub struct Documented<'a> {
    pub name: &'a str,
    pub text: String,
}

/// The parameters `description` documents, in order (a name may repeat).
pub fn parameters(description: &str) -> Vec<Documented<'_>> {
    let lines: Vec<&str> = description.lines().collect();
    let tabled = lines.iter().any(|l| is_table_rule(l));
    let mut out = Vec::new();
    // The previous line held `name 说明；` entries: this one may go on with one.
    let mut entries_above = false;
    for (i, raw) in lines.iter().enumerate() {
        // A JSDoc block's lines start with ` * `.
        let line = strip_comment(raw);
        let entries = cjk_entries(line, entries_above);
        entries_above = !entries.is_empty();
        if let Some(d) = tabled.then(|| table_row(line)).flatten() {
            out.push(d);
        } else if entries_above {
            out.extend(entries);
        } else if let Some(d) = sphinx(line).or_else(|| jsdoc(line)) {
            out.push(d);
        } else if let Some(d) = numpy(line, &lines[i + 1..]) {
            out.push(d);
        } else if let Some((name, rest)) = crate::scan::param_line(line) {
            out.push(Documented {
                name,
                text: literal_set(rest).map_or_else(
                    || rest.to_owned(),
                    |(set, after)| format!("{set} {after}").trim_end().to_owned(),
                ),
            });
        }
    }
    out
}

/// A Markdown table's rule under its header: `|---|---|`, `| :-- | --- |`.
fn is_table_rule(line: &str) -> bool {
    let t = line.trim();
    t.starts_with('|') && t.contains("---") && t.chars().all(|c| matches!(c, '|' | '-' | ':' | ' '))
}

/// A row of a Markdown table of parameters, `` | `name` | text | ``: the name in its first cell,
/// the other cells its text. A pipe inside backticks (`` `a|b` ``) is no cell's end.
fn table_row(line: &str) -> Option<Documented<'_>> {
    let inner = line.trim().strip_prefix('|')?;
    let mut cells = Vec::new();
    let (mut start, mut ticked) = (0, false);
    for (i, c) in inner.char_indices() {
        match c {
            '`' => ticked = !ticked,
            '|' if !ticked => {
                cells.push(inner[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    let rest = inner[start..].trim();
    if !rest.is_empty() {
        cells.push(rest);
    }
    let (first, others) = cells.split_first()?;
    let name = first.trim_matches('`');
    let text = others.join(" ");
    (is_name(name) && !others.is_empty() && !text.trim().is_empty()).then(|| Documented {
        name,
        text: text.trim().to_owned(),
    })
}

/// `doctor_id 医生编号；date 就诊日期；visit 初诊/复诊；`: parameters documented one after another
/// on a line of CJK text, each its name, a space and its text, the entries ended by `；`. One
/// entry alone counts only on a line that goes on from such a line (`decoct 是否代煎，填 Y 或 N`);
/// a text that is not CJK after the name is prose (`foo bar; baz qux`).
fn cjk_entries(line: &str, continues: bool) -> Vec<Documented<'_>> {
    // An entry's text starts with a letter outside ASCII: an ASCII line holds none.
    if line.is_ascii() {
        return Vec::new();
    }
    let pieces: Vec<&str> = line
        .split(['；', ';'])
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect();
    let entries: Vec<Documented<'_>> = pieces
        .iter()
        .filter_map(|p| {
            let (name, text) = p.split_once(' ')?;
            let text = text.trim();
            (is_name(name) && text.starts_with(|c: char| !c.is_ascii() && c.is_alphabetic())).then(
                || Documented {
                    name,
                    text: text.to_owned(),
                },
            )
        })
        .collect();
    let enough = entries.len() >= 2 || (continues && entries.len() == 1);
    if enough && entries.len() == pieces.len() {
        entries
    } else {
        Vec::new()
    }
}

fn strip_comment(line: &str) -> &str {
    let t = line.trim_start();
    match t.strip_prefix('*') {
        Some(rest) if !rest.starts_with('*') => rest.trim_start(),
        _ => line,
    }
}

fn is_name(s: &str) -> bool {
    s.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// `:param name: text`, `:param str name: text`.
fn sphinx(line: &str) -> Option<Documented<'_>> {
    let rest = line.trim_start().strip_prefix(":param ")?;
    let (head, text) = rest.split_once(':')?;
    let name = head.split_whitespace().last()?;
    is_name(name).then(|| Documented {
        name,
        text: text.trim().to_owned(),
    })
}

/// `@param {type} name - text`, `@param {type} [name=default] text`, `@param name text`.
fn jsdoc(line: &str) -> Option<Documented<'_>> {
    let rest = line.trim_start().strip_prefix("@param")?;
    let rest = rest.trim_start();
    let (ty, rest) = match rest.strip_prefix('{') {
        Some(r) => {
            let close = r.find('}')?;
            (Some(&r[..close]), r[close + 1..].trim_start())
        }
        None => (None, rest),
    };
    let (name, text) = match rest.strip_prefix('[') {
        Some(r) => {
            let close = r.find(']')?;
            let name = r[..close].split('=').next()?.trim();
            (name, &r[close + 1..])
        }
        None => {
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            (&rest[..end], &rest[end..])
        }
    };
    if !is_name(name) {
        return None;
    }
    let text = text.trim_start();
    let text = text.strip_prefix("- ").unwrap_or(text).trim();
    // A union of quoted literals is the type of a closed set.
    let set = ty.filter(|t| t.contains('|') && t.contains(['\'', '"']));
    Some(Documented {
        name,
        text: match set {
            Some(t) => format!("One of {}. {text}", t.trim()),
            None => text.to_owned(),
        },
    })
}

/// NumPy: `name : type` on its own line, the text indented below it. A type written as a set,
/// `{'a', 'b'}`, or a set on the first line of the text, is the closed set.
fn numpy<'a>(line: &'a str, below: &[&str]) -> Option<Documented<'a>> {
    if line.starts_with(char::is_whitespace) {
        return None;
    }
    let (name, ty) = line.split_once(" : ")?;
    let name = name.trim();
    if !is_name(name) {
        return None;
    }
    let body: Vec<&str> = below
        .iter()
        .take_while(|l| l.starts_with(char::is_whitespace) && !l.trim().is_empty())
        .map(|l| l.trim())
        .collect();
    let text = body.join(" ");
    let text = match (literal_set(ty.trim()), literal_set(&text)) {
        (Some((set, _)), _) => format!("{set} {text}").trim_end().to_owned(),
        (None, Some((set, rest))) => format!("{set} {rest}").trim_end().to_owned(),
        (None, None) => text,
    };
    Some(Documented { name, text })
}

/// `{'a', 'b'}` at the start of `text`, a set literal of quoted values: the sentence `One of
/// 'a', 'b'.` and what follows the set.
fn literal_set(text: &str) -> Option<(String, &str)> {
    let inner = text.strip_prefix('{')?;
    let close = inner.find('}')?;
    let items: Vec<&str> = inner[..close].split(',').map(str::trim).collect();
    let quoted = |i: &&str| {
        i.len() >= 2
            && ((i.starts_with('\'') && i.ends_with('\''))
                || (i.starts_with('"') && i.ends_with('"')))
    };
    let rest = inner[close + 1..].trim_start_matches([',', ';']).trim();
    (items.len() >= 2 && items.iter().all(quoted))
        .then(|| (format!("One of {}.", items.join(", ")), rest))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(description: &str) -> Vec<(String, String)> {
        parameters(description)
            .into_iter()
            .map(|d| (d.name.to_owned(), d.text))
            .collect()
    }

    #[test]
    fn reads_each_style() {
        assert_eq!(
            pairs(":param chart: chart type, one of ``xbar-r``, ``ewma``\n:returns: points"),
            [(
                "chart".into(),
                "chart type, one of ``xbar-r``, ``ewma``".into()
            )]
        );
        assert_eq!(
            pairs(
                "/**\n * @param {'main'|'second'} unit - which unit\n * @param {string} [distribution] - all | cast_only\n */"
            ),
            [
                ("unit".into(), "One of 'main'|'second'. which unit".into()),
                ("distribution".into(), "all | cast_only".into())
            ]
        );
        assert_eq!(
            pairs(
                "Parameters\n----------\nsite : str\n    {'DB', 'B', 'MB'}\ndepth : int\n    Depth in mm.\n"
            ),
            [
                ("site".into(), "One of 'DB', 'B', 'MB'.".into()),
                ("depth".into(), "Depth in mm.".into())
            ]
        );
        assert_eq!(
            pairs("kind : {'fast', 'full'}, optional\n    Render quality."),
            [(
                "kind".into(),
                "One of 'fast', 'full'. Render quality.".into()
            )]
        );
        assert_eq!(
            pairs("Args:\n    assembly: Reference build. GRCh37 or GRCh38."),
            [(
                "assembly".into(),
                "Reference build. GRCh37 or GRCh38.".into()
            )]
        );
    }

    #[test]
    fn reads_a_markdown_table_of_parameters() {
        assert_eq!(
            pairs(
                "Request time.\n\n| param | meaning |\n|---|---|\n| target | object name |\n| `priority` | `low` / `high` |\n| mode | `a|b` or c |"
            ),
            [
                ("param".into(), "meaning".into()),
                ("target".into(), "object name".into()),
                ("priority".into(), "`low` / `high`".into()),
                ("mode".into(), "`a|b` or c".into())
            ]
        );
        // Without a rule under a header, pipes are only text.
        assert!(pairs("| target | object name |").is_empty());
    }

    #[test]
    fn reads_cjk_entries_ended_by_semicolons() {
        assert_eq!(
            pairs(
                "挂号。\n\n参数：\ndoctor_id 医生编号；visit 初诊/复诊；\ndecoct 是否代煎，填 Y 或 N"
            ),
            [
                ("doctor_id".into(), "医生编号".into()),
                ("visit".into(), "初诊/复诊".into()),
                ("decoct".into(), "是否代煎，填 Y 或 N".into())
            ]
        );
        // Alone, or in prose that is not CJK, a name and a text are no entry.
        assert!(pairs("decoct 是否代煎").is_empty());
        assert!(pairs("Use foo bar; then baz qux").is_empty());
    }

    #[test]
    fn ignores_what_is_no_parameter() {
        assert!(pairs("Returns the status : a string.\n@param").is_empty());
        assert!(pairs("{'a'} alone").is_empty());
    }
}
