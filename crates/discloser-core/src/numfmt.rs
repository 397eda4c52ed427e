//! Number formatting shared by every human-readable report.

/// `5268` -> `5,268`; `-2288` -> `-2,288`.
pub fn thousands(n: i64) -> String {
    let digits = n.unsigned_abs().to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    if n < 0 { format!("-{out}") } else { out }
}

/// A fraction as a percentage with one decimal: `0.25` -> `25.0%`.
pub fn percent1(fraction: f64) -> String {
    format!("{:.1}%", fraction * 100.0)
}

/// `1 tool`, `2 tools`: a count and its noun, plural by adding `s`.
pub fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

#[cfg(test)]
mod tests {
    use super::thousands;

    #[test]
    fn thousands_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(5268), "5,268");
        assert_eq!(thousands(-2288), "-2,288");
        assert_eq!(thousands(1_234_567), "1,234,567");
        assert_eq!(thousands(i64::MIN), "-9,223,372,036,854,775,808");
    }
}
