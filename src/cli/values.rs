//! Parsers for whole-number options, so that a value out of range is refused in the words every
//! other message uses (`a whole number from 1 to 64`), not in Rust's range notation.

/// `s` as a whole number from `LOW` to `HIGH` (`u64::MAX`: no upper bound), in the option's type.
pub fn whole<T: TryFrom<u64>, const LOW: u64, const HIGH: u64>(s: &str) -> Result<T, String> {
    let expected = if HIGH == u64::MAX {
        format!("a whole number of {LOW} or more")
    } else {
        format!("a whole number from {}", crate::format::span(LOW, HIGH))
    };
    let value: u64 = s.trim().parse().map_err(|_| format!("`{s}` is not {expected}"))?;
    if !(LOW..=HIGH).contains(&value) {
        return Err(format!("{value} is not {expected}"));
    }
    T::try_from(value).map_err(|_| format!("{value} is not {expected}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn out_of_range_values_are_refused_in_words() {
        assert_eq!(whole::<u16, 1, 64>("5"), Ok(5));
        assert_eq!(whole::<u16, 1, 64>("0"), Err("0 is not a whole number from 1 to 64".to_string()));
        assert_eq!(whole::<u64, 1, { u64::MAX }>("0"), Err("0 is not a whole number of 1 or more".to_string()));
        assert_eq!(whole::<u32, 1, 100>("x"), Err("`x` is not a whole number from 1 to 100".to_string()));
        assert_eq!(whole::<usize, 0, 1024>("99999"), Err("99999 is not a whole number from 0 to 1024".to_string()));
    }
}
