//! Packing a description into a summary of whole sentences under a character budget.
//!
//! The pipeline: NFC and `\n` line endings; dedent (Python `inspect.cleandoc` semantics);
//! cut at the first docstring section (Google `Args:`, NumPy `Parameters` + dashes, Sphinx
//! `:param`, or a Markdown heading or list after the first paragraph); join hard-wrapped lines
//! (without a space between CJK characters); split paragraphs into sentences with Unicode
//! sentence bounds, merging back splits after abbreviations (`e.g.`, `Mr.`, initials) and after
//! a `.` with no space behind it (`config.Get`); then take whole sentences until the next would
//! exceed the budget. The first sentence is always taken; when it alone is over budget the
//! summary says so, so the caller can warn. Nothing is ever cut inside a sentence or a word.

use unicode_normalization::UnicodeNormalization;

/// A packed summary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    /// The summary text (whole sentences, single spaces).
    pub text: String,
    /// The first sentence alone is longer than the budget (and was used whole).
    pub over_budget: bool,
    /// Sentences used.
    pub sentences: usize,
    /// Sentences of the description's prose were left out (the budget was reached).
    pub dropped: bool,
}

/// Packs `description` into at most `budget` characters of whole sentences.
pub fn pack_summary(description: &str, budget: usize) -> Summary {
    let paragraphs = prose_paragraphs(description);
    // Sentences are split lazily: packing stops at the first that does not fit, so a long
    // description costs no more than its first sentences.
    let sentences = paragraphs.iter().flat_map(|p| split_sentences(p));
    let mut text = String::new();
    let mut used = 0;
    let mut chars = 0;
    let mut dropped = false;
    for sentence in sentences {
        let sep = if used == 0 || no_space_between(&text, &sentence) {
            ""
        } else {
            " "
        };
        let len = sep.chars().count() + sentence.chars().count();
        if used > 0 && (chars + len > budget || ends_with_colon(&sentence)) {
            dropped = true;
            break;
        }
        text.push_str(sep);
        text.push_str(&sentence);
        chars += len;
        used += 1;
    }
    Summary {
        over_budget: chars > budget,
        text,
        sentences: used,
        dropped,
    }
}

/// The sentences of a description's prose, normalised (the input of packing).
pub fn sentences(description: &str) -> Vec<String> {
    let prose = prose_paragraphs(description);
    prose.iter().flat_map(|p| split_sentences(p)).collect()
}

/// The prose of a description: dedented, sections cut, wrapped lines joined, one string per
/// paragraph, whitespace collapsed.
pub fn prose_paragraphs(description: &str) -> Vec<String> {
    let text = nfc(description);
    let text = if text.contains('\r') {
        std::borrow::Cow::Owned(text.replace("\r\n", "\n").replace('\r', "\n"))
    } else {
        text
    };
    let lines = dedent(&text);
    let mut paragraphs: Vec<String> = Vec::new();
    let mut current: Vec<&str> = Vec::new();
    let mut seen_prose = false;
    let mut title = None;
    let mut skip_underline = false;
    // A first line `Product | Title` is a title line: the product name goes.
    let mut titled = false;
    for (i, line) in lines.iter().enumerate() {
        if std::mem::take(&mut skip_underline) {
            continue;
        }
        let mut trimmed = line.trim();
        if !seen_prose
            && current.is_empty()
            && paragraphs.is_empty()
            && let Some(rest) = product_prefix(trimmed)
        {
            trimmed = rest;
            titled = true;
        }
        let next = lines.get(i + 1).map_or("", |l| l.trim());
        // A Markdown heading before any prose is a title, not a sentence about the tool:
        // `# Title`, or a Setext `Title` underlined with `===`/`---` (unless it names a
        // docstring section, like NumPy's `Parameters`).
        if !seen_prose && trimmed.starts_with('#') {
            title.get_or_insert_with(|| trimmed.trim_start_matches('#').trim().to_owned());
            continue;
        }
        if !seen_prose && !trimmed.is_empty() && is_underline(next) && !is_section_name(trimmed) {
            title.get_or_insert_with(|| trimmed.to_owned());
            skip_underline = true;
            continue;
        }
        if is_section_start(trimmed, next, seen_prose) {
            break;
        }
        // An RST directive (`.. deprecated::`, `.. note::`) starts structure, also after a
        // sentence on the same line (a docstring whose line breaks were lost).
        if let Some(at) = rst_directive(trimmed).filter(|&at| at > 0 || seen_prose) {
            let before = trimmed[..at].trim_end();
            if !before.is_empty() {
                current.push(before);
            }
            break;
        }
        if trimmed.is_empty() {
            if !current.is_empty() {
                paragraphs.push(join_lines(&current));
                current.clear();
            }
            continue;
        }
        current.push(trimmed);
        seen_prose = true;
        // The title line is a paragraph of its own: it is never joined to what follows.
        if std::mem::take(&mut titled) && !ends_in_terminator(trimmed) {
            paragraphs.push(join_lines(&current));
            current.clear();
        }
    }
    if !current.is_empty() {
        paragraphs.push(join_lines(&current));
    }
    paragraphs.retain(|p| !p.is_empty());
    drop_title_line(&mut paragraphs);
    if paragraphs.is_empty() {
        paragraphs.extend(
            title
                .filter(|t| !t.is_empty())
                .map(|t| collapse_whitespace(&t)),
        );
    }
    paragraphs
}

/// `text` in NFC; borrowed when it already is (the common case, and a quick check), because
/// normalising every description and signature was a tenth of `render`'s time.
pub(crate) fn nfc(text: &str) -> std::borrow::Cow<'_, str> {
    // ASCII is NFC, and is told without a look-up per character.
    if text.is_ascii()
        || unicode_normalization::is_nfc_quick(text.chars())
            == unicode_normalization::IsNormalized::Yes
    {
        std::borrow::Cow::Borrowed(text)
    } else {
        std::borrow::Cow::Owned(text.nfc().collect())
    }
}

/// Removes the common indentation of lines after the first (the first line's own leading
/// whitespace is stripped separately), like Python's `inspect.cleandoc`.
fn dedent(text: &str) -> Vec<&str> {
    let lines: Vec<&str> = text.split('\n').collect();
    let indent = lines
        .iter()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    lines
        .iter()
        .enumerate()
        .map(|(i, l)| {
            if i == 0 {
                l.trim_start()
            } else {
                l.get(indent..).unwrap_or_else(|| l.trim_start())
            }
        })
        .collect()
}

/// Google-style section headers (the line is exactly the header and a colon).
const GOOGLE_SECTIONS: &[&str] = &[
    "Args",
    "Arguments",
    "Parameters",
    "Params",
    "Returns",
    "Return",
    "Yields",
    "Yield",
    "Raises",
    "Exceptions",
    "Example",
    "Examples",
    "Note",
    "Notes",
    "Attributes",
    "Keyword Args",
    "Keyword Arguments",
    "Other Parameters",
    "See Also",
    "Warning",
    "Warnings",
    "Warns",
    "References",
    "Todo",
    "Usage",
    "Output",
    "Input",
    "Inputs",
    "Outputs",
    "Response",
    "Responses",
    "Error Responses",
    "Errors",
    "Throws",
    "Status Codes",
];

fn is_section_name(line: &str) -> bool {
    let head = line.trim_end_matches([':', '：']).trim();
    GOOGLE_SECTIONS.iter().any(|s| s.eq_ignore_ascii_case(head))
}

/// `Notion | Retrieve a user` → `Retrieve a user`: a short product name (at most three words,
/// no terminator) before ` | `.
fn product_prefix(line: &str) -> Option<&str> {
    let (product, rest) = line.split_once(" | ")?;
    let words = product.split_whitespace().count();
    let rest = rest.trim();
    ((1..=3).contains(&words)
        && !ends_in_terminator(product)
        && !product.contains(['|', '`'])
        && !rest.is_empty()
        && !rest.contains(" | "))
    .then_some(rest)
}

/// The byte offset of an RST directive (`.. name::`) at the start of `line` or after a
/// sentence's terminator in it.
fn rst_directive(line: &str) -> Option<usize> {
    line.match_indices(".. ").map(|(at, _)| at).find(|&at| {
        let starts = at == 0
            || (line[..at].ends_with(' ') && line[..at].trim_end().ends_with(['.', '!', '?', ':']));
        let name = &line[at + 3..];
        let word = name
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
            .unwrap_or(name.len());
        starts && word > 0 && name[word..].starts_with("::")
    })
}

/// A short head of CJK characters (at most eight, no punctuation): `适用场景` in `适用场景：`.
fn is_cjk_label(head: &str) -> bool {
    let n = head.chars().count();
    (1..=8).contains(&n)
        && head
            .chars()
            .all(|c| is_cjk(c) && !matches!(c as u32, 0x3000..=0x303F | 0xFF00..=0xFF60))
}

/// A line that is only a label: at most four words, capitalised, ending with a colon
/// (`Error Responses:`, `Status codes:`), or a short CJK head and a colon (`适用场景：`).
fn is_label_line(line: &str) -> bool {
    let head = line.trim_end_matches([':', '：']).trim();
    if is_cjk_label(head) {
        return true;
    }
    let words: Vec<&str> = head.split_whitespace().collect();
    !words.is_empty()
        && words.len() <= 4
        && head.chars().next().is_some_and(char::is_uppercase)
        && !head.contains(['.', '!', '?', ',', ';', '(', '`'])
}

/// `400: 400`, `404 - Not found`, `200 OK`.
fn is_status_line(line: &str) -> bool {
    let digits = line.chars().take_while(char::is_ascii_digit).count();
    digits == 3
        && matches!(line.as_bytes()[0], b'1'..=b'5')
        && line[3..]
            .trim_start()
            .chars()
            .next()
            .is_none_or(|c| matches!(c, ':' | '：' | '-' | '–') || c.is_uppercase())
}

/// `Returns: the URL.`, `Note: ...`, `Error Responses: 400`, `注意：只支持……`.
fn starts_with_section_label(line: &str) -> bool {
    let Some((head, _)) = line.split_once([':', '：']) else {
        return false;
    };
    is_section_name(head) || is_cjk_label(head.trim())
}

fn ends_in_terminator(text: &str) -> bool {
    text.trim_end_matches(['"', '\'', ')', ']', '」', '”', '’'])
        .ends_with(['.', '!', '?', '。', '！', '？', '…', ':', '：'])
}

/// A title line without a terminator (the first paragraph, at most 80 characters) gives way
/// to the prose after it when the prose's first sentence is longer: the title only names what
/// the prose says. Otherwise the title stands alone: nothing is joined to a sentence that has
/// no terminator.
fn drop_title_line(paragraphs: &mut Vec<String>) {
    let [title, prose, ..] = paragraphs.as_slice() else {
        return;
    };
    if ends_in_terminator(title) || title.chars().count() > 80 {
        return;
    }
    let first = split_sentences(prose).next().unwrap_or_default();
    if first.chars().count() > title.chars().count() {
        paragraphs.remove(0);
    } else {
        paragraphs.truncate(1);
    }
}

fn is_underline(line: &str) -> bool {
    line.len() >= 3 && (line.chars().all(|c| c == '-') || line.chars().all(|c| c == '='))
}

fn is_section_start(line: &str, next: &str, seen_prose: bool) -> bool {
    if line.ends_with([':', '：']) && is_section_name(line) {
        return true;
    }
    // After some prose: a label alone on its line (`Error Responses:`), an HTTP status list
    // (`400: Bad request`), or a section label with its text on the same line (`Returns: the
    // URL.`).
    if seen_prose
        && ((line.ends_with([':', '：']) && is_label_line(line))
            || is_status_line(line)
            || starts_with_section_label(line))
    {
        return true;
    }
    // NumPy: a header underlined with dashes (or a Setext heading after the prose).
    if !line.is_empty() && is_underline(next) {
        return true;
    }
    // Sphinx / Epydoc / Javadoc field lists.
    const FIELDS: &[&str] = &[
        ":param", ":type", ":return", ":rtype", ":raise", ":arg", ":key", ":ivar", "@param",
        "@return", "@throws",
    ];
    if FIELDS.iter().any(|f| line.starts_with(f)) {
        return true;
    }
    // Markdown structure ends the prose once some prose has been read.
    seen_prose && is_markdown_block(line)
}

fn is_markdown_block(line: &str) -> bool {
    if line.starts_with('#')
        || line.starts_with("```")
        || line.starts_with('|')
        || line.starts_with('>')
    {
        return true;
    }
    if let Some(rest) = line.strip_prefix(['-', '*', '+', '•']) {
        return rest.starts_with(' ');
    }
    let digits = line.chars().take_while(char::is_ascii_digit).count();
    digits > 0 && (line[digits..].starts_with(". ") || line[digits..].starts_with(") "))
}

/// Joins wrapped lines with one space, or none between CJK characters; collapses whitespace.
fn join_lines(lines: &[&str]) -> String {
    let mut out = String::with_capacity(lines.iter().map(|l| l.len() + 1).sum());
    for line in lines {
        // Each line's whitespace collapsed as it is copied (`collapse_whitespace` without a
        // string of its own): its first word is what the join looks at.
        let first = line.split_whitespace().next().unwrap_or("");
        if !out.is_empty() && !no_space_between(&out, first) {
            out.push(' ');
        }
        for (i, word) in line.split_whitespace().enumerate() {
            if i > 0 {
                out.push(' ');
            }
            out.push_str(word);
        }
    }
    out
}

fn collapse_whitespace(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Whether two pieces of text join without a space (CJK on either side of the join).
fn no_space_between(left: &str, right: &str) -> bool {
    let l = left.chars().next_back();
    let r = right.chars().next();
    l.is_some_and(is_cjk) || r.is_some_and(is_cjk)
}

/// Han, kana, Hangul syllables and CJK punctuation: scripts written without spaces between words
/// (Hangul uses spaces, but never across a wrapped line in practice) .
pub fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x3000..=0x303F   // CJK symbols and punctuation (。、「」)
        | 0x3040..=0x30FF // Hiragana, Katakana
        | 0x3400..=0x4DBF // CJK Extension A
        | 0x4E00..=0x9FFF // CJK Unified Ideographs
        | 0xF900..=0xFAFF // CJK Compatibility Ideographs
        | 0xFF00..=0xFF60 // Fullwidth forms (，！？：)
        | 0x20000..=0x2FA1F)
}

/// Words that end with a period but do not end a sentence.
const ABBREVIATIONS: &[&str] = &[
    "e.g", "i.e", "vs", "cf", "mr", "mrs", "ms", "dr", "prof", "sr", "jr", "st", "no", "nos",
    "fig", "figs", "approx", "al", "eq", "vol", "pp", "sec", "ch", "resp", "incl", "esp", "est",
    "viz", "w.r.t", "a.k.a", "u.s", "u.k", "e.u",
];

/// Splits one paragraph into trimmed sentences.
fn split_sentences(paragraph: &str) -> impl Iterator<Item = String> + '_ {
    let mut bounds = super::sentence_bounds::sentence_bounds(paragraph);
    let mut pending = String::new();
    let mut ended = false;
    std::iter::from_fn(move || {
        while !ended {
            let Some(piece) = bounds.next() else {
                ended = true;
                let rest = pending.trim();
                return (!rest.is_empty()).then(|| rest.to_owned());
            };
            pending.push_str(piece);
            if !continues_sentence(&pending) {
                // Unicode counts opening brackets after a terminator as part of the sentence
                // that ends (`…位置。(`): they open the next one.
                let sentence = pending.trim_end();
                let body = sentence.trim_end_matches(OPENING);
                let opening = sentence[body.len()..].to_owned();
                let body = body.trim().to_owned();
                pending = opening;
                if !body.is_empty() {
                    return Some(body);
                }
            }
        }
        None
    })
}

/// Opening brackets and quotes, which belong to the sentence they open.
const OPENING: &[char] = &['(', '[', '{', '（', '【', '「', '『', '“', '‘', '《', '〈'];

/// Whether a Unicode sentence bound after `text` is a false break to merge back.
fn continues_sentence(text: &str) -> bool {
    // A `.` directly followed by the next piece, with no space (`config.Get`, `v1.Two`).
    if text.ends_with(['.', '!', '?']) {
        return true;
    }
    let trimmed = text.trim_end();
    let Some(body) = trimmed.strip_suffix('.') else {
        return false;
    };
    let word = body
        .rsplit(|c: char| c.is_whitespace() || c == '(' || c == '"' || c == '\'' || c == '[')
        .next()
        .unwrap_or("");
    let lower = word.to_lowercase();
    if ABBREVIATIONS.contains(&lower.as_str()) {
        return true;
    }
    // Initials and dotted acronyms: "J.", "U.S.", "e.g" already covered above.
    word.chars().count() == 1 && word.chars().all(char::is_alphabetic)
        || (word.contains('.')
            && word
                .split('.')
                .all(|p| p.chars().count() == 1 && p.chars().all(char::is_alphabetic)))
}

fn ends_with_colon(sentence: &str) -> bool {
    sentence.ends_with(':') || sentence.ends_with('：')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pack(text: &str, budget: usize) -> String {
        pack_summary(text, budget).text
    }

    #[test]
    fn wrapped_lines_are_joined() {
        let d = "Fetch the full text of a built-in guide\n    and answer from it. Then cite it.";
        assert_eq!(
            pack(d, 100),
            "Fetch the full text of a built-in guide and answer from it. Then cite it."
        );
    }

    #[test]
    fn docstring_indentation_is_removed() {
        let d = "Do one thing.\n\n    Longer explanation here.\n    Args:\n        x: the x.\n";
        assert_eq!(sentences(d), ["Do one thing.", "Longer explanation here."]);
    }

    #[test]
    fn packs_whole_sentences_under_budget() {
        let d = "First sentence here. Second one is longer than the rest. Third.";
        assert_eq!(pack(d, 20), "First sentence here.");
        assert_eq!(
            pack(d, 56),
            "First sentence here. Second one is longer than the rest."
        );
        assert_eq!(pack(d, 55), "First sentence here.");
        // A later short sentence is not taken after a skipped one: the summary is a prefix.
        assert_eq!(pack(d, 30), "First sentence here.");
    }

    #[test]
    fn first_sentence_over_budget_is_used_whole_and_flagged() {
        let s = pack_summary(
            "This first sentence is definitely longer than ten. Short.",
            10,
        );
        assert_eq!(s.text, "This first sentence is definitely longer than ten.");
        assert!(s.over_budget);
        assert!(!pack_summary("Fits. Short.", 10).over_budget);
    }

    #[test]
    fn abbreviations_do_not_end_sentences() {
        let d = "Use a city name, e.g. Shenzhen or Beijing. Then stop.";
        assert_eq!(
            sentences(d),
            ["Use a city name, e.g. Shenzhen or Beijing.", "Then stop."]
        );
        let d = "Ask Mr. Wang or Dr. Li about U.S. Filings first. Done.";
        assert_eq!(
            sentences(d),
            ["Ask Mr. Wang or Dr. Li about U.S. Filings first.", "Done."]
        );
        let d = "Pick one, i.e. The first. Next.";
        assert_eq!(sentences(d), ["Pick one, i.e. The first.", "Next."]);
    }

    #[test]
    fn urls_and_decimals_do_not_split() {
        let d =
            "See https://example.gov.cn/guide.html for details. The fee is 0.5% of 1.25 million.";
        assert_eq!(
            sentences(d),
            [
                "See https://example.gov.cn/guide.html for details.",
                "The fee is 0.5% of 1.25 million."
            ]
        );
        let d = "Call client.Get first. Then go.";
        assert_eq!(sentences(d), ["Call client.Get first.", "Then go."]);
    }

    #[test]
    fn cjk_terminators_end_sentences_and_lines_join_without_spaces() {
        let d = "取内置长指南全文，\n据全文作答。指南由顾问维护！真的吗？好。";
        assert_eq!(
            sentences(d),
            [
                "取内置长指南全文，据全文作答。",
                "指南由顾问维护！",
                "真的吗？",
                "好。"
            ]
        );
        assert_eq!(pack(d, 16), "取内置长指南全文，据全文作答。");
        assert_eq!(
            pack(d, 24),
            "取内置长指南全文，据全文作答。指南由顾问维护！"
        );
    }

    #[test]
    fn opening_brackets_start_the_next_sentence() {
        assert_eq!(
            sentences("插入图像。(支持 PNG)"),
            ["插入图像。", "(支持 PNG)"]
        );
        assert_eq!(
            sentences("Insert it. (Only PNG.)"),
            ["Insert it.", "(Only PNG.)"]
        );
    }

    #[test]
    fn no_terminator_at_all_is_one_sentence() {
        assert_eq!(
            pack("Fetch a URL and return its text", 100),
            "Fetch a URL and return its text"
        );
        let s = pack_summary(
            "Fetch a URL and return its text as markdown for the model",
            10,
        );
        assert_eq!(
            s.text,
            "Fetch a URL and return its text as markdown for the model"
        );
        assert!(s.over_budget);
    }

    #[test]
    fn empty_description_gives_empty_summary() {
        let s = pack_summary("", 100);
        assert_eq!(s.text, "");
        assert_eq!((s.sentences, s.dropped, s.over_budget), (0, false, false));
        assert_eq!(pack("   \n\t\n", 100), "");
    }

    #[test]
    fn sections_are_excluded() {
        let google =
            "Start a registration.\n\nArgs:\n    kind: what. Long text.\nReturns:\n    id.";
        assert_eq!(sentences(google), ["Start a registration."]);
        let numpy = "Compute fees.\n\nParameters\n----------\nx : int\n    The x.";
        assert_eq!(sentences(numpy), ["Compute fees."]);
        let sphinx = "Read a guide.\n:param kind: which guide.\n:returns: text.";
        assert_eq!(sentences(sphinx), ["Read a guide."]);
        let markdown = "Search the base.\n\n- policies change\n- cite passages\n\n## More\nText.";
        assert_eq!(sentences(markdown), ["Search the base."]);
        let list_after_line = "Options are:\n1. one\n2. two";
        assert_eq!(sentences(list_after_line), ["Options are:"]);
    }

    #[test]
    fn a_leading_heading_is_a_title_not_a_sentence() {
        assert_eq!(
            sentences("# Weather\nGet the weather."),
            ["Get the weather."]
        );
        assert_eq!(sentences("## Weather tool"), ["Weather tool"]);
    }

    #[test]
    fn a_setext_title_is_skipped_but_numpy_sections_are_not_titles() {
        assert_eq!(
            sentences("Weather Tool\n============\nGets the weather."),
            ["Gets the weather."]
        );
        assert_eq!(
            sentences("Parameters\n----------\nx : int"),
            Vec::<String>::new()
        );
        assert_eq!(sentences("Gets it.\n\nMore\n----\nText."), ["Gets it."]);
    }

    #[test]
    fn paragraph_breaks_are_sentence_breaks() {
        let d = "Fetches a URL.\n\nIt returns markdown";
        assert_eq!(sentences(d), ["Fetches a URL.", "It returns markdown"]);
        // A one-line title without a terminator gives way to the longer prose after it.
        let d = "Fetch URL\n\nFetches a URL from the internet.";
        assert_eq!(sentences(d), ["Fetches a URL from the internet."]);
    }

    #[test]
    fn a_trailing_colon_sentence_is_not_packed_after_the_first() {
        assert_eq!(
            pack("Do the thing. It supports:\n\n- a\n- b", 100),
            "Do the thing."
        );
    }

    #[test]
    fn rewrapping_does_not_change_the_summary() {
        let a = "Fetch the full text of a built-in guide and answer from it.\nThen cite it.";
        let b = "Fetch the full text\n  of a built-in   guide and answer\nfrom it. Then cite it.";
        assert_eq!(pack(a, 100), pack(b, 100));
    }

    #[test]
    fn notion_title_and_error_responses_are_not_joined_into_prose() {
        assert_eq!(
            pack("Notion | Retrieve a user\nError Responses:\n400: 400", 100),
            "Retrieve a user"
        );
        assert_eq!(
            pack(
                "Notion | Search by title\nError Responses:\n400: Bad request",
                100
            ),
            "Search by title"
        );
    }

    #[test]
    fn label_lines_and_status_lists_end_the_prose() {
        assert_eq!(
            pack("Get a page.\nReturns: the page object.\nMore text.", 100),
            "Get a page."
        );
        assert_eq!(
            pack("Get a page.\n404: Not found\n500: Server error", 100),
            "Get a page."
        );
        assert_eq!(
            pack("Get a page.\nStatus codes:\n- 404", 100),
            "Get a page."
        );
        assert_eq!(pack("Get a page.\n## Details\nMore.", 100), "Get a page.");
    }

    #[test]
    fn a_title_line_gives_way_to_longer_prose() {
        assert_eq!(
            pack("Weather\n\nGet the weather forecast for a city.", 100),
            "Get the weather forecast for a city."
        );
        assert_eq!(
            pack("Acme | Get the weather forecast for a city\nShows it.", 100),
            "Get the weather forecast for a city"
        );
        // A wrapped sentence is not a title.
        assert_eq!(
            pack("Create an issue in the\nGitHub repository given.", 100),
            "Create an issue in the GitHub repository given."
        );
    }

    #[test]
    fn cjk_label_lines_end_the_prose() {
        assert_eq!(
            pack(
                "获取 Ant Design 特定组件的详细文档\n适用场景：\n1. 用户询问如何使用特定组件",
                100
            ),
            "获取 Ant Design 特定组件的详细文档"
        );
        assert_eq!(
            pack("查询天气。\n注意：只支持中国城市。", 100),
            "查询天气。"
        );
        // Not a label: a sentence that has a colon in it.
        assert_eq!(
            pack("查询天气。\n支持的城市很多，例如：北京。", 100),
            "查询天气。支持的城市很多，例如：北京。"
        );
    }

    #[test]
    fn rst_directives_end_the_prose() {
        assert_eq!(
            pack(
                "Confirm the deletion. .. deprecated:: Use `delete` instead. More.",
                100
            ),
            "Confirm the deletion."
        );
        assert_eq!(
            pack("Confirm the deletion.\n\n.. note::\n   Slow.", 100),
            "Confirm the deletion."
        );
        // An ellipsis is not a directive.
        assert_eq!(
            pack("Wait for it.. then go.", 100),
            "Wait for it.. then go."
        );
    }

    #[test]
    fn crlf_is_normalized() {
        assert_eq!(
            pack("One line\r\ncontinues. Two.\r\n", 100),
            "One line continues. Two."
        );
    }
}
