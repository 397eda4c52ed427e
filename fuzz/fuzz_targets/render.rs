//! Renders the index of an arbitrary generated catalog: every invariant holds, and the bytes do
//! not depend on the order the files are loaded in.

#![no_main]

use arbitrary::Unstructured;
use discloser_fuzz::{catalog, check_index, load_texts, profile};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    let Ok(generated) = catalog(&mut u) else {
        return;
    };
    let forward = load_texts(&generated.files);
    let mut reversed_files = generated.files.clone();
    reversed_files.reverse();
    let reversed = load_texts(&reversed_files);
    assert_eq!(
        forward.is_ok(),
        reversed.is_ok(),
        "loading does not depend on file order: {forward:?} / {reversed:?}"
    );
    let (Ok(forward), Ok(reversed)) = (forward, reversed) else {
        return;
    };
    let names: Vec<&str> = forward.names().collect();
    assert!(
        names.windows(2).all(|w| w[0] < w[1]),
        "tools sorted by name, unique"
    );
    let bound: Vec<String> = generated
        .bound
        .iter()
        .filter_map(|&i| forward.tools.get(i).map(|t| t.name.clone()))
        .collect();
    let pick = |c: &discloser::catalog::Catalog| {
        let extra: Vec<usize> = c
            .tools
            .iter()
            .enumerate()
            .filter(|(_, t)| bound.contains(&t.name))
            .map(|(i, _)| i)
            .collect();
        profile(c, &extra)
    };
    let a = check_index(&forward, &pick(&forward), &generated.config);
    let b = check_index(&reversed, &pick(&reversed), &generated.config);
    assert_eq!(a, b, "the index does not depend on file order");
});
