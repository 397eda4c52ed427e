//! The JSON parse floor of `render`: the least a process that reads a catalog can do.
//!
//! ```sh
//! cargo build --release --example parse_floor
//! target/release/examples/parse_floor DIR_OR_FILE...   # every `*.json` file below each path
//! ```
//!
//! It reads every `.json` file under the paths given (sorted, recursively) and parses each with
//! `serde_json::from_slice::<serde_json::Value>` (the workspace's serde_json: `preserve_order`),
//! on one thread, then exits: no tool is built, nothing is rendered. `scripts/bench-floor.sh`
//! times it against `discloser render` on the same files (the shared corpora united into one
//! file, and synthetic catalogs written all-JSON by `gen_catalog --json`), in one hyperfine run.
//! A file that is not JSON is an error (exit code 2): the floor parses JSON only.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

fn json_files(path: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    if path.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(path)?
            .map(|e| e.map(|e| e.path()))
            .collect::<Result<_, _>>()?;
        entries.sort();
        for entry in entries {
            json_files(&entry, out)?;
        }
    } else if path.extension().is_some_and(|e| e == "json") {
        out.push(path.to_path_buf());
    }
    Ok(())
}

fn main() -> ExitCode {
    let mut files = Vec::new();
    for arg in std::env::args_os().skip(1) {
        if let Err(e) = json_files(Path::new(&arg), &mut files) {
            eprintln!("error: cannot list `{}`: {e}", Path::new(&arg).display());
            return ExitCode::from(2);
        }
    }
    let mut values = 0_usize;
    for file in &files {
        let parsed = std::fs::read(file)
            .map_err(|e| e.to_string())
            .and_then(|bytes| {
                serde_json::from_slice::<serde_json::Value>(&bytes).map_err(|e| e.to_string())
            });
        match parsed {
            // Counted, so the parse cannot be optimised away; dropped like any parsed file.
            Ok(value) => values += usize::from(!value.is_null()),
            Err(e) => {
                eprintln!("error: `{}`: {e}", file.display());
                return ExitCode::from(2);
            }
        }
    }
    if values == 0 && !files.is_empty() {
        eprintln!("no values");
    }
    ExitCode::SUCCESS
}
