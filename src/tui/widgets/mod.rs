//! Small widgets the views share.

pub mod columns;
pub mod hbars;
pub mod number_line;
pub mod picture;
pub mod stacked_bars;

/// Sums `values` into at most `width` buckets of consecutive entries (for charts narrower than
/// their data). Returns the buckets and how many entries each holds.
pub fn resample(values: &[u64], width: usize) -> (Vec<u64>, usize) {
    if width == 0 || values.is_empty() {
        return (Vec::new(), 1);
    }
    let per = values.len().div_ceil(width);
    (values.chunks(per).map(|c| c.iter().sum()).collect(), per)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resample_sums_neighbours() {
        assert_eq!(resample(&[1, 2, 3, 4, 5], 2), (vec![6, 9], 3));
        assert_eq!(resample(&[1, 2], 10), (vec![1, 2], 1));
        assert_eq!(resample(&[], 10).0, Vec::<u64>::new());
    }
}
