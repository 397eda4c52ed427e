//! The `discloser` binary: everything is in the `discloser-cli` crate.

fn main() -> std::process::ExitCode {
    discloser_cli::main(std::env::args_os())
}
