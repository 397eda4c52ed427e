//! Packs an arbitrary description under an arbitrary budget: whole sentences only, a prefix of
//! the description's sentences, within budget unless it is the first sentence alone.

#![no_main]

use arbitrary::Unstructured;
use discloser::index::summary::{pack_summary, sentences};
use discloser_fuzz::text;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    let (Ok(budget), Ok(description)) = (u.int_in_range(0..=400usize), text(&mut u, 80)) else {
        return;
    };
    let description = if u.arbitrary().unwrap_or(false) {
        String::from_utf8_lossy(u.take_rest()).into_owned()
    } else {
        description
    };
    let summary = pack_summary(&description, budget);
    let all = sentences(&description);
    assert_eq!(summary.dropped, summary.sentences < all.len());
    assert!(summary.sentences <= all.len());
    let used = &all[..summary.sentences];
    let chars = summary.text.chars().count();
    if summary.sentences > 1 {
        assert!(
            chars <= budget,
            "over budget with several sentences: {summary:?}"
        );
    }
    assert_eq!(summary.over_budget, chars > budget);
    // The text is the used sentences joined with single spaces (none next to CJK).
    let compact = |s: &str| s.split_whitespace().collect::<String>();
    assert_eq!(
        compact(&summary.text),
        compact(&used.concat()),
        "{summary:?}"
    );
    assert!(
        summary
            .text
            .starts_with(used.first().map_or("", String::as_str))
    );
    assert_eq!(summary.text, summary.text.trim(), "no edge white space");
    assert!(!summary.text.contains('\n'), "one line");
    if all.is_empty() {
        assert!(summary.text.is_empty());
    } else {
        assert!(summary.sentences >= 1, "the first sentence is always used");
    }
});
