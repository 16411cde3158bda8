//! Number formatting shared by every table and report, so they all read the same.

/// `1234567` → `1,234,567`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// A count with its noun, singular only for one: `plural(1, "vertex", "vertices")` is `1 vertex`,
/// `plural(1234, "edge", "edges")` is `1,234 edges`.
pub fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{} {}", thousands(n), if n == 1 { one } else { many })
}

/// The whole numbers `low..=high` as a reader says them: `0 to 9`, or `5` for one, or `none` when
/// `high < low`; so that no message uses Rust's half-open `0..10`. No thousands separators: these
/// are ids, and a comma would read as a list.
pub fn span(low: u64, high: u64) -> String {
    match high.cmp(&low) {
        std::cmp::Ordering::Less => "none".to_string(),
        std::cmp::Ordering::Equal => low.to_string(),
        std::cmp::Ordering::Greater => format!("{low} to {high}"),
    }
}

/// The ids of `n` vertices: `0 to 9` for ten, `none` for zero.
pub fn ids(n: u64) -> String {
    if n == 0 { "none".to_string() } else { span(0, n - 1) }
}

/// A measured number with at most four decimals and no trailing zeros (`3.2667`, `7`), in
/// scientific notation when four decimals would show a small one as 0 (`1.000e-9`).
pub fn decimal(x: f64) -> String {
    if x != 0.0 && x.abs() < 1e-3 {
        return format!("{x:.3e}");
    }
    let text = format!("{x:.4}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// Seconds in the unit that reads best: `812 µs`, `45.3 ms`, `2.41 s`.
pub fn duration(seconds: f64) -> String {
    if seconds < 1e-3 {
        format!("{:.0} µs", seconds * 1e6)
    } else if seconds < 1.0 {
        format!("{:.1} ms", seconds * 1e3)
    } else {
        format!("{seconds:.2} s")
    }
}

/// How many of `total` items a list of at most `limit` shows before a "+N" marker for the rest:
/// all of them when only one would be left out, so that a marker never stands for a single name
/// the list could show instead.
pub fn listed(total: usize, limit: usize) -> usize {
    if total <= limit.saturating_add(1) { total } else { limit }
}

/// Bytes as `12.3 MiB`.
pub fn bytes(n: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut value = n as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 { format!("{n} B") } else { format!("{value:.1} {}", UNITS[unit]) }
}

/// A share (0 to 1) as a percentage with two significant digits at most (`45%`, `3.2%`, `0.047%`),
/// so that a small share never reads as `0%`.
pub fn percent(share: f64) -> String {
    let p = 100.0 * share;
    let decimals = if p >= 10.0 || p == 0.0 { 0 } else { (1.0 - p.log10().floor()) as usize };
    format!("{p:.decimals$}%")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(span(0, 9), "0 to 9");
        assert_eq!(span(3, 3), "3");
        assert_eq!(span(4, 3), "none");
        assert_eq!(ids(10), "0 to 9");
        assert_eq!(ids(0), "none");
        assert_eq!(
            (decimal(3.26666), decimal(7.0), decimal(1e-9), decimal(0.0)),
            ("3.2667".into(), "7".into(), "1.000e-9".into(), "0".into())
        );
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1_595_444), "1,595,444");
        assert_eq!(duration(0.0452), "45.2 ms");
        assert_eq!(bytes(1536), "1.5 KiB");
        assert_eq!(plural(1, "vertex", "vertices"), "1 vertex");
        assert_eq!(plural(0, "thread", "threads"), "0 threads");
        assert_eq!(plural(2048, "box", "boxes"), "2,048 boxes");
        assert_eq!((listed(3, 4), listed(5, 4), listed(6, 4), listed(0, 0), listed(2, 0)), (3, 5, 4, 0, 0));
    }

    #[test]
    fn small_shares_keep_their_digits() {
        assert_eq!(percent(0.45), "45%");
        assert_eq!(percent(0.032), "3.2%");
        assert_eq!(percent(3.0 / 6345.0), "0.047%");
        assert_eq!((percent(1.0), percent(0.0)), ("100%".to_string(), "0%".to_string()));
    }
}
