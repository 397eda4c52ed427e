//! The `discloser` binary: everything is in the `discloser-cli` crate.

mod alloc;

#[global_allocator]
static GLOBAL: alloc::Allocator = alloc::Allocator;

fn main() -> std::process::ExitCode {
    alloc::Allocator::configure();
    discloser_cli::main(std::env::args_os())
}
