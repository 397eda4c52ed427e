//! Loads arbitrary bytes as a YAML tool file; a file that loads must render with every invariant.

#![no_main]

use discloser::config::IndexConfig;
use discloser_fuzz::{check_index, load_bytes, profile};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Some(catalog) = load_bytes(data, "fuzz.yaml", None) {
        let profile = profile(&catalog, &[]);
        check_index(&catalog, &profile, &IndexConfig::default());
    }
});
