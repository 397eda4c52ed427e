//! The `discloser` binary: everything is in the `discloser-cli` crate.

use std::alloc::{GlobalAlloc, Layout, System};

/// mimalloc for small blocks, the system allocator for large ones (see [`Allocator`]).
#[global_allocator]
static ALLOCATOR: Allocator = Allocator;

fn main() -> std::process::ExitCode {
    return_memory_soon();
    discloser_cli::main(std::env::args_os())
}

/// Blocks of at least this many bytes go to the system allocator.
const LARGE: usize = 1 << 20;

/// Loading a large catalog allocates and frees millions of small values on several threads,
/// which glibc's malloc spent a third of `render` on: mimalloc serves those. Large blocks (file
/// texts, long lists) stay with the system allocator, whose `realloc` of a mapped block moves
/// pages instead of copying them: a list growing to hundreds of megabytes (a hostile file of
/// millions of values, refused at the limit) never needs its old and new copies at once. (The
/// Python wheel runs the same code under Python's allocator.)
struct Allocator;

// SAFETY: every block is freed or resized by the allocator that made it, known from its size,
// which Rust passes unchanged to `dealloc` and `realloc`.
unsafe impl GlobalAlloc for Allocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded as given.
        unsafe {
            if layout.size() >= LARGE {
                System.alloc(layout)
            } else {
                mimalloc::MiMalloc.alloc(layout)
            }
        }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded as given.
        unsafe {
            if layout.size() >= LARGE {
                System.alloc_zeroed(layout)
            } else {
                mimalloc::MiMalloc.alloc_zeroed(layout)
            }
        }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was made by the allocator its size selects.
        unsafe {
            if layout.size() >= LARGE {
                System.dealloc(ptr, layout);
            } else {
                mimalloc::MiMalloc.dealloc(ptr, layout);
            }
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: `ptr` was made by the allocator its size selects; a block that changes sides
        // is copied into a new one of the other allocator (the new layout is valid: the
        // caller guarantees `new_size` rounded to `layout.align()` does not overflow).
        unsafe {
            match (layout.size() >= LARGE, new_size >= LARGE) {
                (true, true) => System.realloc(ptr, layout, new_size),
                (false, false) => mimalloc::MiMalloc.realloc(ptr, layout, new_size),
                _ => {
                    let new_layout = Layout::from_size_align_unchecked(new_size, layout.align());
                    let new = self.alloc(new_layout);
                    if !new.is_null() {
                        std::ptr::copy_nonoverlapping(ptr, new, layout.size().min(new_size));
                        self.dealloc(ptr, layout);
                    }
                    new
                }
            }
        }
    }
}

/// mimalloc's `purge_delay` (v3's option number; checked by its default in the version of
/// Cargo.lock, 1,000 ms, so another numbering is left alone).
const PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// Returns freed memory to the system after 1 ms instead of a second: the parsed values a load
/// frees then leave the process's resident memory while the catalog lives, and the pages a
/// file's parse frees are still reused by the next file's. `MIMALLOC_PURGE_DELAY` overrides it.
fn return_memory_soon() {
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
