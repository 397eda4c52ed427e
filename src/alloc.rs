//! The binary's allocator: mimalloc for small blocks, the system's for large ones.
//!
//! Loading and rendering a catalog is mostly small allocations (parsed values, strings) made and
//! freed on several threads, where mimalloc takes about half the time of glibc's. A large block
//! (a file's text, a list of 100,000 tools or of 5 million parsed values) is better left to
//! glibc: it maps such a block on its own and grows it in place (`mremap`), where mimalloc
//! copies it into a new one, holding both at once (a refused file of 5 million values peaked at
//! 670 MB instead of 375 MB).

use std::alloc::{GlobalAlloc, Layout, System};

use mimalloc::MiMalloc;

/// From this size a block is the system allocator's (glibc maps blocks of 128 KiB and more).
const LARGE: usize = 256 * 1024;

/// mimalloc's `mi_option_purge_delay` (include/mimalloc.h; the same number in its v2 and v3, and
/// not among `libmimalloc-sys`'s constants).
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

// In the header's enum (v2 and v3) it comes right before `use_numa_nodes`, which
// `libmimalloc-sys` does export: a release that renumbers them fails to build here instead of
// setting another option.
const _: () = assert!(MI_OPTION_PURGE_DELAY + 1 == libmimalloc_sys::mi_option_use_numa_nodes);

/// Small blocks from mimalloc, large ones from the system (see the module docs). Which one
/// owns a block follows from its size, which every call that frees or resizes it is given.
pub struct Allocator;

impl Allocator {
    /// Sets mimalloc's options, before the threads start: freed memory goes back to the system
    /// after 10 ms, not mimalloc's default second (a run of 10,000 tools lasts about that
    /// long). `MIMALLOC_PURGE_DELAY` in the environment still decides.
    pub fn configure() {
        // SAFETY: sets an option of mimalloc's; no pointer is involved.
        unsafe { libmimalloc_sys::mi_option_set_default(MI_OPTION_PURGE_DELAY, 10) };
    }
}

fn large(size: usize) -> bool {
    size >= LARGE
}

// SAFETY: every call goes to the allocator that owns the block (decided by its size, the same
// at allocation and at every later call), or, for a resize across the threshold, allocates in
// the other one, copies and frees in the first, as `GlobalAlloc::realloc`'s default does.
unsafe impl GlobalAlloc for Allocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        unsafe {
            if large(layout.size()) {
                System.alloc(layout)
            } else {
                MiMalloc.alloc(layout)
            }
        }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        unsafe {
            if large(layout.size()) {
                System.alloc_zeroed(layout)
            } else {
                MiMalloc.alloc_zeroed(layout)
            }
        }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated with `layout`, so by the allocator its size names.
        unsafe {
            if large(layout.size()) {
                System.dealloc(ptr, layout);
            } else {
                MiMalloc.dealloc(ptr, layout);
            }
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's contract; a block stays with its allocator while its size stays
        // on the same side of `LARGE`, else it moves as `GlobalAlloc::realloc`'s default does.
        unsafe {
            match (large(layout.size()), large(new_size)) {
                (true, true) => System.realloc(ptr, layout, new_size),
                (false, false) => MiMalloc.realloc(ptr, layout, new_size),
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
