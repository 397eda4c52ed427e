//! The `discloser` binary: everything is in the `discloser-cli` crate.

/// mimalloc rather than the system allocator: loading and rendering a catalog is mostly small
/// allocations made and freed on several threads (docs/limits.md, "Measured scale").
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// mimalloc's `mi_option_purge_delay` (include/mimalloc.h; the same number in its v2 and v3, and
/// not among `libmimalloc-sys`'s constants).
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

fn main() -> std::process::ExitCode {
    // Freed memory goes back to the system after 10 ms, not mimalloc's default second: a run
    // lasts about that long, and the peak memory of a large catalog stays below the system
    // allocator's. `MIMALLOC_PURGE_DELAY` in the environment still decides.
    // SAFETY: sets an option before any thread but this one exists; no pointer is involved.
    unsafe { libmimalloc_sys::mi_option_set_default(MI_OPTION_PURGE_DELAY, 10) };
    discloser_cli::main(std::env::args_os())
}
