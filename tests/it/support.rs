//! Helpers shared by the integration tests.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

#[cfg(unix)]
pub mod limited;

/// The repository's root (the `discloser` package).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs the `discloser` binary in `dir` with colour off.
pub fn discloser_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_discloser"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env_remove("CLICOLOR_FORCE")
        .output()
        .expect("the discloser binary runs")
}

/// `../shared/corpora` beside the checkout: real catalogs written by others, not in the
/// repository. The tests that read it are `#[ignore]`d (`.ci/run` runs them), and fail here
/// when it is missing rather than pass without looking.
pub fn shared_corpora() -> PathBuf {
    let dir = root().join("../shared/corpora");
    assert!(
        dir.is_dir(),
        "the shared corpora are expected beside the checkout at `{}`: this test is ignored by a plain `cargo test`; run the ignored tests where ../shared/corpora exists (as .ci/run does)",
        dir.display()
    );
    dir
}

/// `tests/fixtures/corpus/`: a hand-written miniature of the shared corpora (same layout, same
/// shapes), so every clone runs what the corpus tests run.
pub fn fixture_corpus() -> PathBuf {
    root().join("tests/fixtures/corpus")
}
