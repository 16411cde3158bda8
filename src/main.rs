fn main() -> std::process::ExitCode {
    grail::cli::main()
}
