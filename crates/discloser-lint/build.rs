//! Compiles the cue patterns of `untyped-enum` (`src/cues/patterns.rs`) into DFAs at build
//! time, so `lint` builds no regex at start-up (compiling them took longer than a whole
//! `render` of a small project).
//!
//! For each pattern two sparse DFAs are written to `OUT_DIR`: `NAME.under.dfa` and
//! `NAME.over.dfa`, the pattern with its word-boundary markers expanded the two ways (see
//! `Boundary`), in the target's byte order. `src/cues/mod.rs` embeds them.

use std::path::Path;

use regex_automata::MatchKind;
use regex_automata::dfa::{StartKind, dense};
use regex_automata::nfa::thompson;

#[path = "src/cues/patterns.rs"]
#[allow(dead_code)]
mod patterns;

use patterns::{Boundary, Kind};

fn main() {
    println!("cargo::rerun-if-changed=src/cues/patterns.rs");
    let out = std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR");
    let big_endian = std::env::var("CARGO_CFG_TARGET_ENDIAN").is_ok_and(|e| e == "big");
    for pattern in patterns::ALL {
        for (suffix, boundary) in [("under", Boundary::Under), ("over", Boundary::Over)] {
            let text = pattern.expand(boundary);
            let (reverse, start, kind) = match pattern.kind {
                Kind::End => (true, StartKind::Anchored, MatchKind::All),
                Kind::Start => (false, StartKind::Anchored, MatchKind::LeftmostFirst),
                Kind::Anywhere => (false, StartKind::Unanchored, MatchKind::LeftmostFirst),
                Kind::Leftmost => (true, StartKind::Unanchored, MatchKind::All),
            };
            let dfa = dense::Builder::new()
                .configure(dense::Config::new().start_kind(start).match_kind(kind))
                .thompson(thompson::Config::new().reverse(reverse))
                .build(&text)
                .unwrap_or_else(|e| panic!("cue pattern `{}` ({suffix}): {e}", pattern.name));
            let sparse = dfa
                .to_sparse()
                .unwrap_or_else(|e| panic!("cue pattern `{}` ({suffix}): {e}", pattern.name));
            let bytes = if big_endian {
                sparse.to_bytes_big_endian()
            } else {
                sparse.to_bytes_little_endian()
            };
            let path = Path::new(&out).join(format!("{}.{suffix}.dfa", pattern.name));
            std::fs::write(&path, bytes)
                .unwrap_or_else(|e| panic!("writing {}: {e}", path.display()));
        }
    }
}
