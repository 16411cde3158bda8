// mimalloc reuses freed pages: labeling allocates and drops large arrays per dimension, and the
// system allocator hands each back to the kernel, which then zeroes fresh pages on every reuse.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// mimalloc's `mi_option_purge_delay` (the same place in its option list in versions 2 and 3; the
/// Rust bindings do not name it).
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

fn main() -> std::process::ExitCode {
    // Freed memory goes back to the kernel at once rather than after mimalloc's delay (a second):
    // the index's arrays and the build's buffers freed on other threads would otherwise stay
    // resident beside the next ones, 30-45 MiB more at the peak of building citeseer.scc's index,
    // for about 2% of the time (docs/BENCHMARKS.md, "Measurements behind design choices"). A
    // `MIMALLOC_PURGE_DELAY` in the environment still decides.
    if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
        // SAFETY: sets one of mimalloc's option values; any value of this option is valid.
        unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, 0) };
    }
    // SAFETY: mi_collect only walks mimalloc's own free lists.
    grail::system::set_return_freed_memory(|| unsafe { libmimalloc_sys::mi_collect(true) });
    grail::main()
}
