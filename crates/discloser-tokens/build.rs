//! Builds the o200k_base and cl100k_base vocabularies into static tables at compile time, so
//! counting tokens needs no construction at run time (see `src/cost/bpe.rs`).
//!
//! The vocabularies come from the `tiktoken-rs` crate (a build dependency only: it is not linked
//! into discloser), which embeds OpenAI's `.tiktoken` files; nothing is downloaded. For each
//! encoding three little-endian files are written to `OUT_DIR`:
//! - `NAME.blob`: the bytes of every token, concatenated in rank order;
//! - `NAME.offs`: `u32` offsets into the blob, one per rank plus an end offset;
//! - `NAME.slots`: an open-addressing hash table (FNV-1a, load factor <= 0.5) of `rank + 1`
//!   (`0` = empty slot), looked up by token bytes.

use std::path::Path;

#[path = "src/fnv.rs"]
mod fnv;

fn write_tables(name: &str, bpe: &tiktoken_rs::CoreBPE, out: &Path) {
    let specials = bpe.special_tokens();
    let mut by_rank: Vec<Option<Vec<u8>>> = Vec::new();
    // Mergeable ranks are dense from 0; special tokens follow them. Stop after a long gap.
    let mut rank: u32 = 0;
    let mut misses = 0;
    while misses < 1024 {
        match bpe.decode_bytes(&[rank]) {
            Ok(bytes) if !std::str::from_utf8(&bytes).is_ok_and(|s| specials.contains(s)) => {
                by_rank.resize(rank as usize + 1, None);
                by_rank[rank as usize] = Some(bytes);
                misses = 0;
            }
            _ => misses += 1,
        }
        rank += 1;
    }
    let mut blob = Vec::new();
    let mut offs = Vec::with_capacity(by_rank.len() + 1);
    for bytes in &by_rank {
        offs.push(u32::try_from(blob.len()).expect("blob under 4 GiB"));
        if let Some(bytes) = bytes {
            blob.extend_from_slice(bytes);
        }
    }
    offs.push(u32::try_from(blob.len()).expect("blob under 4 GiB"));
    let count = by_rank.iter().flatten().count();
    let cap = (count * 2).next_power_of_two();
    let mut slots = vec![0u32; cap];
    for (rank, bytes) in by_rank.iter().enumerate() {
        let Some(bytes) = bytes else { continue };
        let mut h = fnv::fnv1a(bytes) as usize & (cap - 1);
        while slots[h] != 0 {
            h = (h + 1) & (cap - 1);
        }
        slots[h] = u32::try_from(rank).expect("rank fits u32") + 1;
    }
    let le = |v: &[u32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    std::fs::write(out.join(format!("{name}.blob")), blob).expect("write blob");
    std::fs::write(out.join(format!("{name}.offs")), le(&offs)).expect("write offsets");
    std::fs::write(out.join(format!("{name}.slots")), le(&slots)).expect("write slots");
}

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=src/cost/fnv.rs");
    let out = std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR");
    let out = Path::new(&out);
    write_tables(
        "o200k",
        &tiktoken_rs::o200k_base().expect("o200k_base builds"),
        out,
    );
    write_tables(
        "cl100k",
        &tiktoken_rs::cl100k_base().expect("cl100k_base builds"),
        out,
    );
}
