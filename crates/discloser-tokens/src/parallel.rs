//! A small, deterministic parallel map over the machine's cores, for the per-file and per-tool
//! work of loading, rendering and linting large catalogs.
//!
//! Results come back in input order whatever the scheduling, so output bytes never depend on
//! the number of threads. Fewer than [`MIN_ITEMS`] items, or a single core, run inline.

use std::sync::{Mutex, OnceLock};

/// Below this many items, threads cost more than they save.
const MIN_ITEMS: usize = 64;

/// Most threads used: the work is memory-bound long before this.
const MAX_THREADS: usize = 8;

/// The cores this process may use, read once: the standard library's answer reads the
/// cgroup's quota from files on Linux, which cost a short run more than its lint rules did.
pub fn cores() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, usize::from))
}

/// `items.map(f)`, computed on up to [`MAX_THREADS`] threads, in input order, for many small
/// items (files, tools).
pub fn map<T, R, F>(items: Vec<T>, f: F) -> Vec<R>
where
    T: Send,
    R: Send,
    F: Fn(T) -> R + Sync,
{
    let threads = items.len() / (MIN_ITEMS / 2);
    map_on(items, threads, MIN_ITEMS, f)
}

/// [`map`] for a few large items (lint rules, each over the whole catalog).
pub fn map_coarse<T, R, F>(items: Vec<T>, f: F) -> Vec<R>
where
    T: Send,
    R: Send,
    F: Fn(T) -> R + Sync,
{
    let threads = items.len();
    map_on(items, threads, 2, f)
}

fn map_on<T, R, F>(items: Vec<T>, most: usize, min_items: usize, f: F) -> Vec<R>
where
    T: Send,
    R: Send,
    F: Fn(T) -> R + Sync,
{
    // The cores are read only for a map big enough to share.
    let threads = if items.len() < min_items || most < 2 {
        1
    } else {
        cores().min(MAX_THREADS).min(most)
    };
    if threads < 2 {
        return items.into_iter().map(f).collect();
    }
    let len = items.len();
    // Workers take the next item from a shared queue, so one large file does not hold up a
    // whole chunk of others.
    let queue = Mutex::new(items.into_iter().enumerate());
    let mut done: Vec<(usize, R)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut out = Vec::new();
                    loop {
                        let next = queue
                            .lock()
                            .unwrap_or_else(std::sync::PoisonError::into_inner)
                            .next();
                        let Some((i, item)) = next else { break };
                        out.push((i, f(item)));
                    }
                    out
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| match w.join() {
                Ok(out) => out,
                Err(panic) => std::panic::resume_unwind(panic),
            })
            .collect()
    });
    done.sort_unstable_by_key(|(i, _)| *i);
    debug_assert_eq!(done.len(), len);
    done.into_iter().map(|(_, r)| r).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_are_in_input_order() {
        let items: Vec<usize> = (0..10_000).collect();
        let out = map(items, |i| i * 2);
        assert_eq!(out, (0..10_000).map(|i| i * 2).collect::<Vec<_>>());
        assert_eq!(map(vec![1, 2, 3], |i| i + 1), [2, 3, 4]);
        assert!(map(Vec::<u8>::new(), |i| i).is_empty());
        assert_eq!(map_coarse(vec![3, 1, 2], |i| i * 10), [30, 10, 20]);
    }
}
