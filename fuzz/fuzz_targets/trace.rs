//! Reads arbitrary bytes as a trace of the bundled example (`discloser.yaml` at the repository
//! root: 13 tools, `$ref`s, three profiles), the first byte choosing whether calls are classified
//! and the profile; then summarises it and suggests a starter set, as `discloser trace` and
//! `discloser suggest` do. Nothing may panic or overflow the stack (argument validation runs on
//! every recorded call), and the summary's counts must add up.

#![no_main]

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use discloser::cost::{Provider, TokenizerKind};
use discloser::project::Project;
use discloser::runtime::Runtime;
use discloser::runtime::suggest::{SuggestOptions, suggest};
use discloser::runtime::trace::{Trace, classify, summarize, turn_profiles};
use discloser::source::SourceFile;
use libfuzzer_sys::fuzz_target;

fn example() -> &'static Project {
    static PROJECT: OnceLock<Project> = OnceLock::new();
    PROJECT.get_or_init(|| {
        let config = Path::new(env!("CARGO_MANIFEST_DIR")).join("../discloser.yaml");
        Project::load(&config).expect("the bundled example loads")
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let Ok(source) = SourceFile::from_bytes(rest.to_vec(), PathBuf::from("fuzz.jsonl")) else {
        return;
    };
    let mut trace = Trace::default();
    if trace.add(source).is_err() {
        return;
    }
    let project = example();
    let runtime = Runtime::new(project);
    let names = project.profile_names();
    let profile = &names[usize::from(first >> 1) % names.len()];
    let classified = if first & 1 == 1 {
        match turn_profiles(&trace, project, profile) {
            Ok(profiles) => classify(&mut trace, &runtime, &profiles),
            Err(_) => return,
        }
    } else {
        0
    };
    let summary = summarize(&trace, &runtime, classified);
    assert_eq!(summary.turns, trace.turns.len());
    let options = SuggestOptions {
        profile: profile.clone(),
        round_trip: None,
        provider: Provider::Raw,
        tokenizer: TokenizerKind::O200k,
    };
    let _ = suggest(project, &runtime, &trace, &options);
});
