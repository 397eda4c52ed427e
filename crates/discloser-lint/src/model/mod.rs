//! The text model beside untyped-enum's list finder: a logistic regression over hashed
//! features of a parameter's own texts that scores whether they state a closed set of values.
//!
//! The list finder ([`crate::lists`]) knows list shapes and cue words; writers it has not read
//! bring shapes it does not know (its recall on each new blind round was 0.74-0.90). The model
//! was trained on the labeled rounds (`scripts/train-enum-model.py`, which documents the
//! features and how the threshold was chosen), and is asked only about a parameter the finder
//! passed over. Its weights are `weights.bin`, written by that script; the features below are
//! the script's, computed the same way byte for byte (the test `matches_the_training_script`
//! compares the scores with the script's on a sample of texts).

/// The weights: `DLM1`, the number of hash bits (u32), the weights' scale and the bias (f64),
/// then one i16 weight per bucket, all little-endian.
static WEIGHTS: &[u8] = include_bytes!("weights.bin");

/// Where the weights start.
const HEADER: usize = 24;

/// The score above which the texts are taken to state a closed set: a probability of 0.8.
/// Chosen by the script's leave-one-round-out report (see PROTOCOL.md).
pub const THRESHOLD: f64 = 1.386_294_361_119_890_6; // ln(0.8 / 0.2)

/// What separates the items of a list (see [`closed`]).
const SEPARATORS: &[char] = &[',', '/', '|', ';', '\n', '、', '，', '；', '・', '·'];

/// The gate of [`closed`], alone (the parity test compares it with the script's).
#[cfg(test)]
fn listish(texts: &[&str]) -> bool {
    texts.iter().any(|t| t.contains(SEPARATORS)) || has_or_word(&normalise(texts))
}

/// Whether the model reads a parameter's own texts and type names (an array's: its items') as
/// a closed set: its score is above [`THRESHOLD`], and the texts hold a separator of items or a
/// word that closes alternatives (the list finder's `OR_WORDS`; one of a script written without
/// spaces, such as `或`, `还是`, `または`, anywhere). A short name of a thing ("Background Type",
/// "New task priority") holds neither: the model alone would read what kind of parameter it is,
/// not what its text says. The texts are normalised once.
pub fn closed(texts: &[&str], types: &[String]) -> bool {
    let separated = texts.iter().any(|t| t.contains(SEPARATORS));
    let norm = normalise(texts);
    (separated || has_or_word(&norm)) && score_of(&norm, types) > THRESHOLD
}

/// Whether a normalised text holds one of the list finder's "or" words.
fn has_or_word(norm: &[char]) -> bool {
    let norm: String = norm.iter().collect();
    // An ASCII text holds none of the words of other scripts: they are not looked for.
    norm.split(|c: char| c == ' ' || is_punct(c))
        .any(crate::lists::is_or_word)
        || !norm.is_ascii()
            && crate::lists::OR_WORDS
                .iter()
                .any(|w| !w.is_ascii() && (w.chars().count() > 1 || *w == "或") && norm.contains(w))
}

/// Characters the normalised text treats as space (the script's list; [`is_space`] tells them).
#[cfg(test)]
const WHITESPACE: &[char] = &[
    ' ', '\t', '\n', '\r', '\u{0b}', '\u{0c}', '\u{a0}', '\u{1680}', '\u{2000}', '\u{2001}',
    '\u{2002}', '\u{2003}', '\u{2004}', '\u{2005}', '\u{2006}', '\u{2007}', '\u{2008}', '\u{2009}',
    '\u{200a}', '\u{2028}', '\u{2029}', '\u{202f}', '\u{205f}', '\u{3000}',
];

/// Punctuation that ends a word and is a word of its own: ASCII's (`char::is_ascii_punctuation`)
/// and these, sorted (the script's `PUNCT`; a test checks they are the same).
const WIDE_PUNCT: &[char] = &[
    '¡', '«', '·', '»', '¿', '–', '—', '‘', '’', '“', '”', '…', '、', '。', '〈', '〉', '《', '》',
    '「', '」', '『', '』', '【', '】', '〜', '・', '！', '＃', '（', '）', '＊', '＋', '，', '－',
    '／', '：', '；', '＝', '？', '＠', '｜', '～',
];

/// Whether `c` is one of [`WHITESPACE`]: Unicode's `White_Space` but U+0085 (a test checks
/// every character), told without a scan of the list.
fn is_space(c: char) -> bool {
    if c.is_ascii() {
        matches!(c, ' ' | '\t'..='\r')
    } else {
        c != '\u{85}' && c.is_whitespace()
    }
}

fn is_punct(c: char) -> bool {
    c.is_ascii_punctuation() || !c.is_ascii() && WIDE_PUNCT.binary_search(&c).is_ok()
}

fn header_u32(at: usize) -> u32 {
    u32::from_le_bytes(WEIGHTS[at..at + 4].try_into().expect("4 bytes"))
}

fn header_f64(at: usize) -> f64 {
    f64::from_le_bytes(WEIGHTS[at..at + 8].try_into().expect("8 bytes"))
}

fn weight(bucket: u32) -> i64 {
    let at = HEADER + 2 * bucket as usize;
    i64::from(i16::from_le_bytes([WEIGHTS[at], WEIGHTS[at + 1]]))
}

/// FNV-1a (32 bits), fed a byte at a time.
#[derive(Clone, Copy)]
struct Fnv(u32);

impl Fnv {
    fn new(kind: u8) -> Fnv {
        Fnv(0x811c_9dc5).bytes(&[kind])
    }

    fn bytes(mut self, bytes: &[u8]) -> Fnv {
        for &b in bytes {
            self.0 ^= u32::from(b);
            self.0 = self.0.wrapping_mul(0x0100_0193);
        }
        self
    }

    fn chars(self, chars: &[char]) -> Fnv {
        let mut buf = [0; 4];
        chars
            .iter()
            .fold(self, |h, c| h.bytes(c.encode_utf8(&mut buf).as_bytes()))
    }
}

/// The most characters of a parameter's texts the model reads: its training texts are all
/// shorter, and a hostile megabyte costs no more than this.
const MAX_CHARS: usize = 2000;

/// The texts joined by a line feed, lowercased, each run of whitespace one space, trimmed, and
/// cut after [`MAX_CHARS`] characters.
fn normalise(texts: &[&str]) -> Vec<char> {
    let mut out = Vec::new();
    let mut space = false;
    let joined: String = texts.join("\n").chars().take(4 * MAX_CHARS).collect();
    for c in joined.to_lowercase().chars() {
        if out.len() >= MAX_CHARS {
            break;
        }
        if is_space(c) {
            space = true;
            continue;
        }
        if space && !out.is_empty() {
            out.push(' ');
        }
        space = false;
        out.push(c);
    }
    out.truncate(MAX_CHARS);
    out
}

/// The buckets of a parameter's texts and type names, a bucket as often as a feature falls in
/// it.
#[cfg(test)]
fn features(texts: &[&str], types: &[String]) -> Vec<u32> {
    features_of(&normalise(texts), types)
}

/// The buckets of a normalised text and type names, a bucket as often as a feature falls in it.
fn features_of(norm: &[char], types: &[String]) -> Vec<u32> {
    let mask = (1u32 << header_u32(4)) - 1;
    let mut buckets = Vec::new();
    let mut padded = Vec::with_capacity(norm.len() + 2);
    padded.push(' ');
    padded.extend_from_slice(norm);
    padded.push(' ');
    // Each n-gram from each start, its hash extended a character at a time (the 4-gram's hash
    // passes through its 1-, 2- and 3-grams').
    for start in 0..padded.len() {
        let mut h = Fnv::new(b'c');
        for &c in padded[start..].iter().take(4) {
            h = h.chars(&[c]);
            buckets.push(h.0 & mask);
        }
    }
    let mut words: Vec<&[char]> = Vec::new();
    let mut start = 0;
    for (i, c) in norm.iter().enumerate() {
        if *c == ' ' || is_punct(*c) {
            if start < i {
                words.push(&norm[start..i]);
            }
            if *c != ' ' {
                words.push(&norm[i..=i]);
            }
            start = i + 1;
        }
    }
    if start < norm.len() {
        words.push(&norm[start..]);
    }
    for w in &words {
        buckets.push(Fnv::new(b'w').chars(w).0 & mask);
    }
    for pair in words.windows(2) {
        let h = Fnv::new(b'b').chars(pair[0]).bytes(b" ").chars(pair[1]);
        buckets.push(h.0 & mask);
    }
    for t in types {
        buckets.push(Fnv::new(b't').bytes(t.as_bytes()).0 & mask);
    }
    buckets
}

/// The model's score (a logit) for a parameter's own texts and its type names (an array's:
/// its items'): above [`THRESHOLD`], they state a closed set.
#[cfg(test)]
fn score(texts: &[&str], types: &[String]) -> f64 {
    score_of(&normalise(texts), types)
}

/// The score (a logit) of a normalised text.
fn score_of(norm: &[char], types: &[String]) -> f64 {
    let buckets = features_of(norm, types);
    let bias = header_f64(16);
    // The sum of the distinct buckets' weights, and their number: integers, whatever the order.
    // Distinct by a small open-addressing set sized to the text (a bitset of every bucket was
    // 32 KB to clear and fault in, for the hundreds a text reaches).
    let slots = (buckets.len() * 2).next_power_of_two().max(64);
    let mut seen = vec![EMPTY; slots];
    let (mut sum, mut distinct) = (0i64, 0usize);
    for &b in &buckets {
        // A bucket is a hash already: its low bits are a slot.
        let mut i = b as usize & (slots - 1);
        loop {
            if seen[i] == b {
                break;
            }
            if seen[i] == EMPTY {
                seen[i] = b;
                sum += weight(b);
                distinct += 1;
                break;
            }
            i = (i + 1) & (slots - 1);
        }
    }
    if distinct == 0 {
        return bias;
    }
    // The script's order of operations, so the same double comes out.
    bias + sum as f64 * header_f64(8) / (distinct as f64).sqrt()
}

/// No bucket: buckets are below `1 << header_u32(4)`, far below this.
const EMPTY: u32 = u32::MAX;

#[cfg(test)]
mod tests {
    use super::*;

    /// The script's `PUNCT`, as it is written there.
    const SCRIPT_PUNCT: &str = concat!(
        "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~",
        "，。、：；（）「」『』【】《》〈〉“”‘’…—–！？«»¿¡·・｜／～〜＝＋－＊＃＠",
    );

    #[test]
    fn punctuation_is_the_scripts() {
        let script = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../scripts/train-enum-model.py"
        ))
        .unwrap();
        let line = script
            .lines()
            .skip_while(|l| !l.starts_with("PUNCT = "))
            .take(2)
            .collect::<String>();
        for c in SCRIPT_PUNCT.chars() {
            assert!(is_punct(c), "{c:?}");
            assert!(
                c == '"' || c == '\\' || line.contains(c),
                "{c:?} is in the script"
            );
        }
        let wide: Vec<char> = SCRIPT_PUNCT.chars().filter(|c| !c.is_ascii()).collect();
        assert_eq!(wide.len(), WIDE_PUNCT.len());
        assert!(WIDE_PUNCT.is_sorted());
        assert!(
            (0..=127u8).all(|b| is_punct(char::from(b)) == SCRIPT_PUNCT.contains(char::from(b)))
        );
    }

    #[test]
    fn the_weights_are_whole() {
        assert_eq!(&WEIGHTS[..4], b"DLM1");
        let bits = header_u32(4);
        assert!((10..=24).contains(&bits));
        assert_eq!(WEIGHTS.len(), HEADER + 2 * (1 << bits));
        assert!(header_f64(8) > 0.0 && header_f64(16).is_finite());
    }

    #[test]
    fn is_space_is_the_whitespace_list() {
        for c in (0..=u32::from(char::MAX)).filter_map(char::from_u32) {
            assert_eq!(is_space(c), WHITESPACE.contains(&c), "{c:?}");
        }
    }

    #[test]
    fn normalises_like_the_script() {
        let norm: String = normalise(&["  One\u{3000}of  ", "A\tB "])
            .into_iter()
            .collect();
        assert_eq!(norm, "one of a b");
        let long = "a, b or c ".repeat(100_000);
        assert_eq!(normalise(&[&long]).len(), MAX_CHARS);
        assert!(listish(&[&long]) && score(&[&long], &[]).is_finite());
    }

    /// The scores of the script's sample (`tests/fixtures/lint/enum_model_parity.jsonl`),
    /// computed from the same quantised weights: equal to the last bit.
    #[test]
    fn matches_the_training_script() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/fixtures/lint/enum_model_parity.jsonl"
        );
        let text = std::fs::read_to_string(path).unwrap();
        let mut n = 0;
        for line in text.lines() {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            let texts: Vec<&str> = v["texts"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t.as_str().unwrap())
                .collect();
            let types: Vec<String> = v["types"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t.as_str().unwrap().to_owned())
                .collect();
            let mut distinct = features(&texts, &types);
            distinct.sort_unstable();
            distinct.dedup();
            assert_eq!(
                distinct.len() as u64,
                v["buckets"].as_u64().unwrap(),
                "{texts:?}"
            );
            assert_eq!(
                listish(&texts),
                v["listish"].as_bool().unwrap(),
                "{texts:?}"
            );
            let want = v["logit"].as_f64().unwrap();
            let got = score(&texts, &types);
            assert!((got - want).abs() < 1e-8, "{texts:?}: {got} against {want}");
            n += 1;
        }
        assert!(n > 1000, "the sample is there ({n} texts)");
    }
}
