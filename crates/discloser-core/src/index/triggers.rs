//! Trigger words: the one vocabulary shared by the index and the search tool.

/// Normalises triggers for rendering: NFC, trimmed, empty ones dropped, deduplicated, sorted
/// shorter first (by characters), ties by code point. The order is total, so the rendered line
/// is the same whatever order the triggers were written or stored in.
pub fn normalize_triggers<S: AsRef<str>>(triggers: &[S]) -> Vec<String> {
    sort_triggers(
        triggers
            .iter()
            .map(|t| normalize_trigger(t.as_ref()))
            .filter(|t| !t.is_empty()),
    )
}

/// Triggers already normalised ([`normalize_trigger`], none empty) in the index's order,
/// deduplicated: what [`normalize_triggers`] makes of them.
pub fn sort_triggers(normalized: impl IntoIterator<Item = String>) -> Vec<String> {
    let mut out: Vec<(usize, String)> = normalized
        .into_iter()
        .map(|t| (t.chars().count(), t))
        .collect();
    out.sort();
    out.dedup();
    out.into_iter().map(|(_, t)| t).collect()
}

/// One trigger as the index writes it: NFC, trimmed (empty when nothing is left). Most triggers
/// are NFC already, which a quick check tells without normalising them.
pub fn normalize_trigger(trigger: &str) -> String {
    super::summary::nfc(trigger).trim().to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shorter_first_then_code_point() {
        let got = normalize_triggers(&["商业计划书", "自己注册", "BP", "自己报税"]);
        assert_eq!(got, ["BP", "自己报税", "自己注册", "商业计划书"]);
    }

    #[test]
    fn trims_dedupes_and_normalizes() {
        // "é" precomposed and decomposed are the same trigger after NFC.
        let got = normalize_triggers(&[" caf\u{e9} ", "cafe\u{301}", "", "  ", "b", "b"]);
        assert_eq!(got, ["b", "caf\u{e9}"]);
    }
}
