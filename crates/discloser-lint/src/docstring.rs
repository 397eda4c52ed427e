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
    let mut out = Vec::new();
    for (i, raw) in lines.iter().enumerate() {
        // A JSDoc block's lines start with ` * `.
        let line = strip_comment(raw);
        if let Some(d) = sphinx(line).or_else(|| jsdoc(line)) {
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
    fn ignores_what_is_no_parameter() {
        assert!(pairs("Returns the status : a string.\n@param").is_empty());
        assert!(pairs("{'a'} alone").is_empty());
    }
}
