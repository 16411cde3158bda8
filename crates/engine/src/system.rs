//! What the operating system says about memory: the process's resident set now and at its peak,
//! and the machine's physical memory.

/// The process's peak resident memory so far, in bytes (None where the OS does not say).
pub fn peak_memory_bytes() -> Option<u64> {
    // SAFETY: getrusage only writes the struct we hand it.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let ok = unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } == 0;
    // Linux reports ru_maxrss in KiB.
    ok.then(|| usage.ru_maxrss as u64 * 1024)
}

/// The process's resident set now, in bytes (None where the OS does not say). From
/// `/proc/self/statm`, not `smaps`: reading smaps walks every page table entry, and a labeling run
/// samples memory after every phase (on a 1M-vertex chain, smaps samples took 8% of the CPU
/// pipeline's time).
pub fn resident_bytes() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * page_size()?)
}

fn page_size() -> Option<u64> {
    // SAFETY: sysconf reads a system constant.
    let size = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    (size > 0).then_some(size as u64)
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
    let pages = unsafe { libc::sysconf(libc::_SC_PHYS_PAGES) };
    Some((pages > 0).then_some(pages as u64)? * page_size()?)
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

    #[test]
    fn the_resident_set_is_reported_on_linux() {
        if cfg!(target_os = "linux") {
            let (now, peak) = (resident_bytes().unwrap(), peak_memory_bytes().unwrap());
            assert!(now > 0 && now <= peak, "now {now}, peak {peak}");
        }
    }
}
