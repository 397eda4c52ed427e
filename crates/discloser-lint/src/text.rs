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

/// A closed set of values found in prose.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProseSet {
    /// The values, as written (quotes removed).
    pub values: Vec<String>,
    /// Whether the values were quoted or backticked (stronger evidence).
    pub quoted: bool,
    /// The phrase that introduced them (`one of`, `valid values`, `either`, ...), if any.
    pub marker: Option<String>,
    /// Whether the values are exactly what a caller sends (tokens or quoted words), so a fix
    /// may declare them verbatim as an `enum`.
    pub exact: bool,
}

/// Finds a closed set of values written in prose by its list structure (see
/// [`crate::lists`]), skipping examples, open lists, formats, ranges and search qualifiers.
pub fn closed_set_in_prose(text: &str, default: Option<&str>) -> Option<ProseSet> {
    crate::lists::closed_list(text, default).map(|found| ProseSet {
        values: found.values,
        quoted: found.quoted,
        marker: Some(found.marker),
        exact: found.exact,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(text: &str) -> Option<Vec<String>> {
        closed_set_in_prose(text, None).map(|s| s.values)
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
