//! Loads arbitrary bytes as a JSON tool file, detected or in each named format (the first byte
//! picks it); a file that loads must render with every invariant.

#![no_main]

use discloser::catalog::formats::Format;
use discloser::config::IndexConfig;
use discloser_fuzz::{check_index, load_bytes, profile};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let format = Format::ALL.get(usize::from(first % 9)).copied();
    let name = if first & 0x80 == 0 {
        "fuzz.json"
    } else {
        "fuzz.jsonl"
    };
    if let Some(catalog) = load_bytes(rest, name, format) {
        let profile = profile(&catalog, &[]);
        check_index(&catalog, &profile, &IndexConfig::default());
    }
});
