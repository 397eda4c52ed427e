//! Text heuristics shared by rules: sentence ends, and closed sets of values written in prose.

/// Whether `text` ends a sentence: a terminator, optionally followed by closing quotes or
/// brackets.
pub fn ends_sentence(text: &str) -> bool {
    let trimmed = text.trim_end().trim_end_matches([
        '"', '\'', ')', ']', '}', '»', '」', '』', '”', '’', '*', '`',
    ]);
    trimmed.ends_with(['.', '!', '?', '。', '！', '？', '…'])
}

/// The last `n` words of `text`, prefixed with `…` when shortened (for messages).
pub fn last_words(text: &str, n: usize) -> String {
    let words: Vec<&str> = text.split_whitespace().collect();
    if words.len() <= n {
        return words.join(" ");
    }
    format!("…{}", words[words.len() - n..].join(" "))
}

use std::sync::LazyLock;

use regex::Regex;

/// A closed set of values found in prose.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProseSet {
    /// The values, as written (quotes removed).
    pub values: Vec<String>,
    /// Whether the values were quoted or backticked (stronger evidence).
    pub quoted: bool,
    /// The phrase that introduced them (`one of`, `valid values`, `either`, ...), if any.
    pub marker: Option<String>,
}

/// Phrases that introduce a closed set and accept bare (unquoted) values.
static STRONG_MARKER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?ix)
        \b(?:must\s+be\s+|should\s+be\s+|can\s+be\s+|is\s+|are\s+)?one\s+of\b\s*(?:the\s+following\s*)?(?:values?\s*)?[:：]?
      | \b(?:valid|possible|allowed|accepted|acceptable|permitted|supported|available|legal)\s+(?:values?|options?|choices?|types?|modes?|formats?|periods?|intervals?|freq\w*|units?|kinds?|levels?|statuses|states)\b\s*(?:are|is|include|includes)?\s*[:：]?
      | \b(?:options|choices)\s*(?:are|include|includes)?\s*[:：]
      | \b(?:options|choices)\s+(?:are|include|includes)\b\s*[:：]?
      | \bchoose\s+(?:one\s+)?from\b\s*[:：]?
      | \beither\b
      | 可选值(?:为|是|有|包括)?[:：]?
      | 可选(?:项|的值)?(?:为|是|有|包括)?[:：]
      | 候选集(?:为|是)?[:：]?
      | 取值(?:范围)?(?:为|是|只能是)[:：]?
      | 只能(?:是|为|取)[:：]?
      | 枚举值?(?:为|是)?[:：]
      | 支持的?(?:值|选项|类型|模式)(?:有|为|是|包括)?[:：]?
        ",
    )
    .expect("the marker pattern compiles")
});

/// "can be", "must be", ...: a list follows only if it is clearly one (see [`find_set`]).
static MODAL_MARKER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:can|could|must|should|may)\s+(?:only\s+)?be\b\s*[:：]?")
        .expect("compiles")
});

/// Phrases that introduce a set only when the values are quoted.
static WEAK_MARKER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:must\s+be|should\s+be|can\s+be|may\s+be|set\s+to|supports?|accepts?|values?\s*[:：]|e\.g\.)").expect("compiles")
});

/// Phrases after which a list is an example or an open list, not a closed set.
static EXAMPLE_BEFORE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)(?:\be\.?\s?g\b\.?|\bfor\s+(?:example|instance)\b|\bsuch\s+as\b|\blike\b|\bincluding\b|\bexamples?\b|\bi\.e\b|例如|比如|如[:：]|诸如|像)").expect("compiles")
});

/// Phrases after which quoted alternatives describe a format or a prefix, not values.
static FORMAT_BEFORE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:format(?:ted|s)?|in\s+the\s+form|pattern|syntax|qualifiers?|prefix(?:ed)?|suffix(?:ed)?|(?:start|begin|end)(?:s|ing)?\s+with|contain(?:s|ing)?)\b|格式").expect("compiles")
});

static OPEN_AFTER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^\s*(?:,\s*)?(?:etc\b|\.\.\.|…|and\s+(?:so\s+on|more|others)|or\s+(?:other|any|similar|more)\b|(?:or|and)\s+(?:\w+\s+){0,3}(?:like|such\s+as|e\.g)\b|等)").expect("compiles")
});

static QUOTED_ITEM: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"^(?:'([^'\n]{1,48})'|"([^"\n]{1,48})"|`([^`\n]{1,48})`|“([^”\n]{1,48})”|‘([^’\n]{1,48})’|「([^」\n]{1,48})」)"#).expect("compiles")
});

static BARE_ITEM: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^[\p{L}\p{N}_][\p{L}\p{N}_.+:-]{0,40}").expect("compiles"));

static SEPARATOR: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^(?:\s*,\s*(?:or\s+|and\s+)?|\s+or\s+|\s*\|\s*|\s*/\s*|\s*、\s*|\s*或者?\s*|\s*和\s*|\s*及\s*|\s*，\s*(?:或者?)?\s*|\s*;\s*)").expect("compiles")
});

/// A run of at least two pipe-separated identifiers, like `asc|desc` or `a | b | c`.
static PIPE_LIST: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:^|[\s(:：\[])([A-Za-z_][\w.-]*(?:\s?\|\s?[A-Za-z_][\w.-]*)+)(?:$|[\s).,;\]])")
        .expect("compiles")
});

/// Two or more quoted values joined by `or` (`'asc' or 'desc'`, `"a", "b", or "c"`).
static QUOTED_ALTERNATIVES: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?i)(?:'[^'\n]{1,48}'|"[^"\n]{1,48}"|`[^`\n]{1,48}`|“[^”\n]{1,48}”)(?:\s*,\s*(?:'[^'\n]{1,48}'|"[^"\n]{1,48}"|`[^`\n]{1,48}`|“[^”\n]{1,48}”))*\s*,?\s*(?:or|\|)\s+(?:'[^'\n]{1,48}'|"[^"\n]{1,48}"|`[^`\n]{1,48}`|“[^”\n]{1,48}”)"#).expect("compiles")
});

/// A Chinese list with a final "or": `驾车、公交或步行`.
static CJK_OR_LIST: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"([\p{Han}A-Za-z0-9_]{1,12}(?:、[\p{Han}A-Za-z0-9_]{1,12})+(?:或者?|还是)[\p{Han}A-Za-z0-9_]{1,12})").expect("compiles")
});

/// Where the clause containing the end of `head` starts: after the last `;`, CJK terminator,
/// or `.`/`!`/`?` followed by a space that is not part of an abbreviation like `e.g.`.
fn clause_start(head: &str) -> usize {
    let mut start = 0;
    for (i, c) in head.char_indices() {
        let next = head[i + c.len_utf8()..].chars().next();
        let boundary = match c {
            ';' | '。' | '；' | '！' | '？' => true,
            '.' | '!' | '?' => {
                let word = head[..i].rsplit(char::is_whitespace).next().unwrap_or("");
                let abbreviation =
                    word.chars().filter(|c| *c == '.').count() >= 1 && word.len() <= 4;
                next.is_none_or(char::is_whitespace)
                    && !abbreviation
                    && !matches!(
                        word.to_lowercase().as_str(),
                        "e.g" | "i.e" | "eg" | "ie" | "etc" | "vs"
                    )
            }
            _ => false,
        };
        if boundary {
            start = i + c.len_utf8();
        }
    }
    start
}

/// Parses a list of at least two values at the start of `text`.
fn parse_list(text: &str, bare: bool) -> Option<(Vec<String>, bool, usize)> {
    let mut values = Vec::new();
    let mut quoted_all = true;
    let mut at = 0;
    let mut last_end = 0;
    loop {
        let rest = &text[at..];
        let trimmed = rest.trim_start_matches([' ', '[', '(', '{']);
        let skip = rest.len() - trimmed.len();
        if let Some(m) = QUOTED_ITEM.captures(trimmed) {
            if !quoted_all && !values.is_empty() {
                break;
            }
            let value = m.iter().skip(1).flatten().next().map_or("", |g| g.as_str());
            values.push(value.to_owned());
            at += skip + m.get(0).map_or(0, |g| g.end());
        } else if bare
            && (values.is_empty() || !quoted_all)
            && let Some(m) = BARE_ITEM.find(trimmed)
        {
            let value = m.as_str().trim_end_matches(['.', ':']);
            if matches!(
                value.to_lowercase().as_str(),
                "etc" | "others" | "more" | "等"
            ) {
                return None;
            }
            values.push(value.to_owned());
            quoted_all = false;
            at += skip + m.end();
        } else {
            break;
        }
        last_end = at;
        // A bare item followed by more words is prose, not a value.
        let after = &text[at..];
        if let Some(sep) = SEPARATOR.find(after) {
            at += sep.end();
        } else {
            break;
        }
    }
    (values.len() >= 2).then_some((values, quoted_all, last_end))
}

/// Finds a closed set of values written in prose, skipping examples, open lists, formats and
/// search qualifiers (`repo:`, `org:`).
pub fn closed_set_in_prose(text: &str) -> Option<ProseSet> {
    find_set(text).filter(|set| {
        !set.values
            .iter()
            .any(|v| v.ends_with(':') || v.contains(": "))
    })
}

fn find_set(text: &str) -> Option<ProseSet> {
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let is_example = |start: usize| {
        // Look back within the clause for "e.g.", "such as", ...
        let head = &text[..start];
        EXAMPLE_BEFORE.is_match(&head[clause_start(head)..])
    };
    for m in STRONG_MARKER.find_iter(&text) {
        if is_example(m.start()) {
            continue;
        }
        let marker = m.as_str().trim().to_lowercase();
        let after = &text[m.end()..];
        let after = after.trim_start_matches([':', '：', ' ']);
        if let Some((values, quoted, end)) = parse_list(after, true)
            && !OPEN_AFTER.is_match(&after[end..])
        {
            // "either X or Y": exactly two values joined by "or".
            if marker == "either"
                && (values.len() != 2 || !after[..end].to_lowercase().contains(" or "))
            {
                continue;
            }
            return Some(ProseSet {
                values,
                quoted,
                marker: Some(marker),
            });
        }
    }
    // "can be 'a', 'b', 'c'" or "could be breakfast, lunch or dinner": two quoted values, or
    // three bare single words ending in "or".
    for m in MODAL_MARKER.find_iter(&text) {
        if is_example(m.start()) {
            continue;
        }
        let after = text[m.end()..].trim_start_matches([':', '：', ' ']);
        if let Some((values, quoted, end)) = parse_list(after, true)
            && !OPEN_AFTER.is_match(&after[end..])
        {
            let listed = &after[..end];
            let bare_ok = values.len() >= 3 && listed.to_lowercase().contains(" or ");
            if (quoted && values.len() >= 2) || (!quoted && bare_ok) {
                let marker = m.as_str().trim().to_lowercase();
                return Some(ProseSet {
                    values,
                    quoted,
                    marker: Some(marker),
                });
            }
        }
    }
    for m in QUOTED_ALTERNATIVES.find_iter(&text) {
        if is_example(m.start()) || OPEN_AFTER.is_match(&text[m.end()..]) {
            continue;
        }
        let head = &text[..m.start()];
        if FORMAT_BEFORE.is_match(&head[clause_start(head)..]) {
            continue;
        }
        if let Some((values, _, _)) = parse_list(m.as_str(), false) {
            let marker = WEAK_MARKER
                .find(&text[..m.start()])
                .map(|w| w.as_str().to_lowercase());
            return Some(ProseSet {
                values,
                quoted: true,
                marker,
            });
        }
    }
    for c in PIPE_LIST.captures_iter(&text) {
        let Some(list) = c.get(1) else { continue };
        if is_example(list.start()) || OPEN_AFTER.is_match(&text[list.end()..]) {
            continue;
        }
        let values: Vec<String> = list
            .as_str()
            .split('|')
            .map(|v| v.trim().trim_end_matches(['.', ',', ';', ':']).to_owned())
            .collect();
        return Some(ProseSet {
            values,
            quoted: false,
            marker: Some("|".to_owned()),
        });
    }
    for c in CJK_OR_LIST.captures_iter(&text) {
        let Some(list) = c.get(1) else { continue };
        if is_example(list.start()) || OPEN_AFTER.is_match(&text[list.end()..]) {
            continue;
        }
        let values: Vec<String> = list
            .as_str()
            .split(['、', '或', '者'])
            .filter(|v| !v.is_empty() && *v != "还是")
            .map(str::to_owned)
            .collect();
        return Some(ProseSet {
            values,
            quoted: false,
            marker: Some("、…或".to_owned()),
        });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(text: &str) -> Option<Vec<String>> {
        closed_set_in_prose(text).map(|s| s.values)
    }

    #[test]
    fn finds_closed_sets() {
        let v = |xs: &[&str]| Some(xs.iter().map(|x| (*x).to_owned()).collect::<Vec<_>>());
        assert_eq!(
            values("Sort order, one of 'asc', 'desc'."),
            v(&["asc", "desc"])
        );
        assert_eq!(
            values("Must be one of: cpp, python, go, js, java"),
            v(&["cpp", "python", "go", "js", "java"])
        );
        assert_eq!(
            values("Unit for calculation, either metric or imperial. Default is metric"),
            v(&["metric", "imperial"])
        );
        assert_eq!(
            values("The resolution, 'High', 'Medium', or 'Low'. Default is 'Medium'."),
            v(&["High", "Medium", "Low"])
        );
        assert_eq!(
            values("Valid periods: \"1d\", \"5d\", \"1mo\"."),
            v(&["1d", "5d", "1mo"])
        );
        assert_eq!(
            values("Kind of activity: increase | decrease | self_transfer."),
            v(&["increase", "decrease", "self_transfer"])
        );
        assert_eq!(values("Order: asc|desc"), v(&["asc", "desc"]));
        assert_eq!(
            values("分类。可选值: Africa, Americas, Asia"),
            v(&["Africa", "Americas", "Asia"])
        );
        assert_eq!(
            values("出行方式，驾车、公交或步行"),
            v(&["驾车", "公交", "步行"])
        );
        assert_eq!(
            values("Options include 'easy', 'medium', 'hard'."),
            v(&["easy", "medium", "hard"])
        );
    }

    #[test]
    fn skips_examples_open_lists_and_prose() {
        assert_eq!(
            values("A city name, e.g. 'Paris', 'Tokyo' or 'Lima'."),
            None
        );
        assert_eq!(values("Formats such as 'png', 'jpg' or 'gif'."), None);
        assert_eq!(values("One of 'png', 'jpg', etc."), None);
        assert_eq!(values("支持的格式例如 png、jpg或gif"), None);
        assert_eq!(values("The path of a file or directory to read."), None);
        assert_eq!(values("It can be a file or a directory."), None);
        assert_eq!(
            values("Could be 'small', 'medium', 'large', or specific sizes like 'S', 'M'."),
            None
        );
        assert_eq!(values("Can be used with search, list or get."), None);
        assert_eq!(
            values("Either use this parameter together with `dateEnd`, or use `dateRange`."),
            None
        );
        assert_eq!(values("The repository owner."), None);
    }
}
