//! Writes a synthetic discloser project of N tools, for scale tests and benchmarks.
//!
//! ```sh
//! cargo run --release --example gen_catalog -- 100000 /tmp/cat100k [SEED]
//! cargo run --release --example gen_catalog -- corpora /tmp/corpora  # ../shared/corpora, united
//! cargo run --release --example gen_catalog -- --json 100000 /tmp/cat100k-json  # no YAML
//! cargo run --release -- --config /tmp/cat100k/discloser.yaml render > /dev/null
//! ```
//!
//! The project is `DIR/discloser.yaml` (three profiles) and `DIR/tools/serverNNNNN.{yaml,json}`,
//! 40 tools per file in native YAML, native JSON and MCP `tools/list` JSON in turn. The output
//! depends only on N and SEED (default 1); see `benches/support/synth.rs` for the shapes. With
//! `--json` the YAML third is written as native JSON (the same tools): the input of the JSON
//! parse floor, `examples/parse_floor.rs`.

#[path = "../benches/support/synth.rs"]
mod synth;

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let all_json = args.first().is_some_and(|a| a == "--json");
    if all_json {
        args.remove(0);
    }
    if let [what, dir] = args.as_slice()
        && what == "corpora"
    {
        let corpora = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpora");
        return match synth::write_corpora(&corpora, &PathBuf::from(dir)) {
            Ok(n) => {
                eprintln!("{n} tools");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("error: cannot concatenate `{}`: {e}", corpora.display());
                ExitCode::from(2)
            }
        };
    }
    let parsed = match args.as_slice() {
        [n, dir] => n.parse().ok().map(|n| (n, PathBuf::from(dir), 1)),
        [n, dir, seed] => n
            .parse()
            .ok()
            .zip(seed.parse().ok())
            .map(|(n, seed)| (n, PathBuf::from(dir), seed)),
        _ => None,
    };
    let Some((n, dir, seed)) = parsed else {
        eprintln!("usage: gen_catalog [--json] N DIR [SEED] | gen_catalog corpora DIR");
        return ExitCode::from(2);
    };
    match synth::write_project_in(&dir, n, seed, all_json) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: cannot write `{}`: {e}", dir.display());
            ExitCode::from(2)
        }
    }
}
