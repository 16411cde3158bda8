// mimalloc reuses freed pages: labeling allocates and drops large arrays per dimension, and the
// system allocator hands each back to the kernel, which then zeroes fresh pages on every reuse.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    grail::cli::main()
}
