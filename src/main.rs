//! The `grundy` binary: everything lives in the library's thin `cli` module.

fn main() -> std::process::ExitCode {
    grundy::cli::main()
}
