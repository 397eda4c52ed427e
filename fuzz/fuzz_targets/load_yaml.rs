//! Loads arbitrary bytes as a YAML tool file; a file that loads must render with every invariant,
//! and the YAML fast path must read exactly what serde-saphyr reads.

#![no_main]

use std::path::PathBuf;

use discloser::config::IndexConfig;
use discloser::source::SourceFile;
use discloser_fuzz::{check_index, load_bytes, profile};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(source) = SourceFile::from_bytes(data.to_vec(), PathBuf::from("fuzz.yaml")) {
        match (source.parse(), source.parse_reference()) {
            (Ok(fast), Ok(reference)) => assert_eq!(
                serde_json::to_string(&fast).unwrap(),
                serde_json::to_string(&reference).unwrap()
            ),
            (Err(fast), Err(reference)) => assert_eq!(fast.to_string(), reference.to_string()),
            (fast, reference) => panic!("fast path {fast:?} but serde-saphyr {reference:?}"),
        }
    }
    if let Some(catalog) = load_bytes(data, "fuzz.yaml", None) {
        let profile = profile(&catalog, &[]);
        check_index(&catalog, &profile, &IndexConfig::default());
    }
});
