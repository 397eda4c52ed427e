//! The `discloser` binary: everything is in the `discloser-cli` crate.

/// mimalloc instead of the system allocator: loading a large catalog allocates and frees
/// millions of small values on several threads, which glibc's malloc spent a third of `render`
/// on. (The Python wheel runs the same code under Python's allocator.)
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    return_memory_at_once();
    discloser_cli::main(std::env::args_os())
}

/// mimalloc's `purge_delay` (v3's option number; checked by its default in the version of
/// Cargo.lock, 1,000 ms, so another numbering is left alone).
const PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// Returns freed memory to the system after 1 ms instead of a second: the parsed values a load
/// frees then leave the process's resident memory while the catalog lives, and the pages a
/// file's parse frees are still reused by the next file's. `MIMALLOC_PURGE_DELAY` overrides it.
fn return_memory_at_once() {
    if std::env::var_os("MIMALLOC_PURGE_DELAY").is_some() {
        return;
    }
    // SAFETY: mimalloc's option getter and setter, called before any other thread exists.
    unsafe {
        if libmimalloc_sys::mi_option_get(PURGE_DELAY) == 1000 {
            libmimalloc_sys::mi_option_set(PURGE_DELAY, 1);
        }
    }
}
