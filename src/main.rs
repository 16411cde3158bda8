// mimalloc reuses freed pages: labeling allocates and drops large arrays per dimension, and the
// system allocator hands each back to the kernel, which then zeroes fresh pages on every reuse.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// `mi_option_purge_delay` (the 16th option of mimalloc 2 and 3; libmimalloc-sys names no constant
/// for it).
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

fn main() -> std::process::ExitCode {
    // mimalloc returns freed memory to the kernel after a delay, so each dimension's and phase's
    // arrays came back as fresh pages that the kernel zeroed again: on a chain of a million vertices
    // that zeroing was 40% of the CPU pipeline's time. Never purging keeps freed memory for the next
    // arrays (the peak is the same; the explorer keeps what it freed for the next graph).
    // SAFETY: setting an option is a plain store, valid at any time.
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, -1) };
    grail::cli::main()
}
