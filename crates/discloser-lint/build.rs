//! Compiles the cue patterns of `untyped-enum` (`src/cues/patterns.rs`) into DFAs at build
//! time, so `lint` builds no regex at start-up (compiling them took longer than a whole
//! `render` of a small project).
//!
//! For each pattern two minimised DFAs are written to `OUT_DIR`: `NAME.under.dfa` and
//! `NAME.over.dfa`, the pattern with its word-boundary markers expanded the two ways (see
//! `Boundary`), in the target's byte order, after a 4-byte header whose first byte says how:
//! `1` dense, when that takes at most [`DENSE_UP_TO`] bytes (a search then reads one
//! transition a byte), else `0` sparse (a state's transitions are searched, but the DFA is
//! many times smaller). `src/cues/mod.rs` embeds them.

use std::path::Path;

use regex_automata::MatchKind;
use regex_automata::dfa::{StartKind, dense};
use regex_automata::nfa::thompson;

#[path = "src/cues/patterns.rs"]
#[allow(dead_code)]
mod patterns;

use patterns::{Boundary, Kind};

/// The largest dense DFA written as such (see the module docs): the small cues' (a few tens of
/// KB), not the large ones' (up to 8 MB dense, 0.8 MB sparse).
const DENSE_UP_TO: usize = 160 * 1024;

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
                .configure(
                    dense::Config::new()
                        .start_kind(start)
                        .match_kind(kind)
                        .minimize(true),
                )
                .thompson(thompson::Config::new().reverse(reverse))
                .build(&text)
                .unwrap_or_else(|e| panic!("cue pattern `{}` ({suffix}): {e}", pattern.name));
            let (dense, padding) = if big_endian {
                dfa.to_bytes_big_endian()
            } else {
                dfa.to_bytes_little_endian()
            };
            // The padding aligned the bytes in `dense`'s own allocation; the header keeps them
            // aligned where they are embedded.
            let dense = &dense[padding..];
            let mut bytes = Vec::new();
            if dense.len() <= DENSE_UP_TO {
                bytes.extend([1, 0, 0, 0]);
                bytes.extend(dense);
            } else {
                let sparse = dfa
                    .to_sparse()
                    .unwrap_or_else(|e| panic!("cue pattern `{}` ({suffix}): {e}", pattern.name));
                bytes.extend([0, 0, 0, 0]);
                bytes.extend(if big_endian {
                    sparse.to_bytes_big_endian()
                } else {
                    sparse.to_bytes_little_endian()
                });
            }
            let path = Path::new(&out).join(format!("{}.{suffix}.dfa", pattern.name));
            std::fs::write(&path, bytes)
                .unwrap_or_else(|e| panic!("writing {}: {e}", path.display()));
        }
    }
}
