// mimalloc reuses freed pages: labeling allocates and drops large arrays per dimension, and the
// system allocator hands each back to the kernel, which then zeroes fresh pages on every reuse.
//
// Its default purge (freed memory goes back to the kernel after a short delay) stays on: every
// dimension labels on its own thread, and a thread that never purged would keep all it freed,
// raising the peak of labeling a dense graph with nothing gained in time (docs/BENCHMARKS.md,
// "Measurements behind design choices").
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    grail::main()
}
