//! Confidence intervals of a proportion estimated from independent trials.

/// The normal quantile of a two-sided 95% interval.
pub const Z_95: f64 = 1.959_963_984_540_054;

/// The Wilson score interval of a proportion, `hits` of `trials`, at normal quantile `z`. Unlike
/// the normal ("Wald") interval it stays inside `[0, 1]` and is not empty at 0 or `trials` hits,
/// which matters here: false positives are often rare. `(0, 1)` without trials.
pub fn wilson(hits: u64, trials: u64, z: f64) -> (f64, f64) {
    if trials == 0 {
        return (0.0, 1.0);
    }
    let n = trials as f64;
    let p = hits as f64 / n;
    let z2 = z * z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = z / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_a_worked_value_and_stays_in_range() {
        // 10 of 100 at 95%: [0.0552, 0.1744] (Wilson's score interval, tabulated).
        let (lo, hi) = wilson(10, 100, Z_95);
        assert!((lo - 0.0552).abs() < 1e-4 && (hi - 0.1744).abs() < 1e-4, "{lo} {hi}");
        let (lo, hi) = wilson(0, 50, Z_95);
        assert!(lo < 1e-12 && hi > 0.05 && hi < 0.08, "{hi}");
        let (lo, hi) = wilson(50, 50, Z_95);
        assert!(hi > 1.0 - 1e-12 && lo > 0.92 && lo < 0.95, "{lo}");
        assert_eq!(wilson(0, 0, Z_95), (0.0, 1.0));
    }
}
