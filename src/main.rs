// mimalloc reuses freed pages: labeling allocates and drops large arrays per dimension, and the
// system allocator hands each back to the kernel, which then zeroes fresh pages on every reuse.
//
// Its default purge (freed memory goes back to the kernel after a short delay) is kept. Never
// purging was tried: it kept the freed memory of every dimension's thread, and the peak of labeling
// the 150M-edge DAG on 16 threads rose to 1.60-2.01x its CSR (pipeline) and 1.37-1.90x (DFS),
// against 1.54-1.59x and 1.28-1.31x with the default, for no measurable gain on a million-vertex
// chain (README, issue 13).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    grail::main()
}
