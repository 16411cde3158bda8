//! An epoch-stamped visited set: each search takes a fresh epoch and a vertex counts as visited
//! when its stamp equals it, so starting a search never clears an array. Only when the 32-bit epoch
//! wraps (every 4G searches) is the array cleared.

/// An epoch-stamped visited set over `0..n`.
#[derive(Clone, Debug, Default)]
pub(crate) struct Stamps {
    stamp: Vec<u32>,
    epoch: u32,
}

impl Stamps {
    /// A set already sized for `n` vertices (see [`grow_zeroed`] for why that costs nothing yet).
    pub fn with_capacity(n: usize) -> Stamps {
        let mut stamps = Stamps::default();
        grow_zeroed(&mut stamps.stamp, n);
        stamps
    }

    /// Starts a new search over `n` vertices: everything becomes unvisited.
    #[inline]
    pub fn begin(&mut self, n: usize) {
        grow_zeroed(&mut self.stamp, n);
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.stamp.fill(0);
            self.epoch = 1;
        }
    }

    /// Marks `v`; returns false if it was already marked in this search.
    #[inline]
    pub fn insert(&mut self, v: u32) -> bool {
        let s = &mut self.stamp[v as usize];
        let fresh = *s != self.epoch;
        *s = self.epoch;
        fresh
    }

    #[inline]
    pub fn contains(&self, v: u32) -> bool {
        self.stamp[v as usize] == self.epoch
    }
}

/// Makes `array` hold at least `n` entries, replacing it by a fresh zeroed one if it is shorter (its
/// contents only matter within one search). A fresh `vec![0; n]` comes from the allocator already
/// zeroed, with pages mapped on first touch, so a per-thread scratch on a huge graph costs nothing
/// until the searches actually visit vertices: most queries never get past the cheap rules.
#[inline]
pub(crate) fn grow_zeroed(array: &mut Vec<u32>, n: usize) {
    if array.len() < n {
        *array = vec![0; n];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_epoch_forgets_every_mark() {
        let mut s = Stamps::default();
        s.begin(4);
        assert!(s.insert(2));
        assert!(!s.insert(2));
        assert!(s.contains(2));
        s.begin(4);
        assert!(!s.contains(2));
    }

    #[test]
    fn wrapping_epoch_clears_old_stamps() {
        let mut s = Stamps::default();
        s.begin(3);
        s.epoch = u32::MAX - 1;
        s.begin(3); // epoch u32::MAX
        s.insert(1);
        s.begin(3); // wraps: cleared, epoch 1
        assert_eq!(s.epoch, 1);
        assert!(!s.contains(1));
        assert!(s.insert(1));
    }

    #[test]
    fn grows_to_the_graph() {
        let mut s = Stamps::default();
        s.begin(10);
        assert!(s.insert(9));
    }

    #[test]
    fn with_capacity_is_sized_but_empty() {
        let mut s = Stamps::with_capacity(5);
        assert_eq!(s.stamp.len(), 5);
        s.begin(5);
        assert!(!s.contains(4));
    }
}
