//! FNV-1a (64-bit), shared by `build.rs` (which lays out the vocabulary hash tables) and the
//! run-time lookup in `bpe.rs`: both sides must hash identically.

/// The FNV-1a hash of `bytes`.
#[inline]
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}
