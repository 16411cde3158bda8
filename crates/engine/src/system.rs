//! What the operating system says about memory.

/// The process's peak resident memory so far, in bytes (None where the OS does not say).
pub fn peak_memory_bytes() -> Option<u64> {
    // SAFETY: getrusage only writes the struct we hand it.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let ok = unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } == 0;
    // Linux reports ru_maxrss in KiB.
    ok.then(|| usage.ru_maxrss as u64 * 1024)
}

/// How the program's allocator returns memory it holds freed to the operating system now, rather
/// than after its purge delay. The engine links no allocator of its own: the program that chose one
/// says how (`grail` uses mimalloc's `mi_collect`).
static RETURN_FREED: std::sync::OnceLock<fn()> = std::sync::OnceLock::new();

/// Registers the allocator's way to return freed memory (see [`return_freed_memory`]); the first
/// registration holds.
pub fn set_return_freed_memory(return_freed: fn()) {
    let _ = RETURN_FREED.set(return_freed);
}

/// Returns memory the allocator holds freed to the operating system now, where the program
/// registered how ([`set_return_freed_memory`]): a loader that just dropped its parse buffers calls
/// this before allocating the next large array, so the two never count together in the peak.
pub fn return_freed_memory() {
    if let Some(return_freed) = RETURN_FREED.get() {
        return_freed();
    }
}

/// The machine's physical memory, in bytes (None where the OS does not say).
pub fn physical_memory_bytes() -> Option<u64> {
    // SAFETY: sysconf reads a system constant.
    let (pages, page_size) = unsafe { (libc::sysconf(libc::_SC_PHYS_PAGES), libc::sysconf(libc::_SC_PAGESIZE)) };
    (pages > 0 && page_size > 0).then(|| pages as u64 * page_size as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn physical_memory_exceeds_what_this_process_uses() {
        let (Some(physical), Some(peak)) = (physical_memory_bytes(), peak_memory_bytes()) else {
            eprintln!("note: this OS reports no memory figures");
            return;
        };
        assert!(peak > 0 && physical > peak, "physical {physical}, peak {peak}");
    }
}
