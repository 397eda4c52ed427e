//! Arbitrary bytes as `discloser.yaml` beside a small fixed catalog: parsing and loading never
//! panic or hang, and a config that loads renders every profile with the index invariants.
//! Configs that would start a process (`mcp:` sources) or walk outside the scratch project
//! (absolute or `..` sources) are parsed but not loaded.

#![no_main]

use std::path::PathBuf;

use discloser::config::{Config, SourceSpec};
use discloser::project::Project;
use discloser::source::SourceFile;
use discloser_fuzz::{check_project, scratch_project};
use libfuzzer_sys::fuzz_target;

const TOOL: &str = "name: draw_chart\ndescription: Draw a chart from rows. Use it for plots.\ntriggers: [chart]\nparameters:\n  type: object\n  properties:\n    kind: {type: string, enum: [bar, line]}\n    data: {$ref: '../schemas/defs.yaml#/rows'}\n  required: [kind]\n";
const OTHER: &str = "- name: other_tool\n  description: Another tool.\n  core: true\n  parameters: {type: object}\n";
const DEFS: &str = "rows:\n  type: array\n  items: {type: object}\n";

fuzz_target!(|data: &[u8]| {
    let Ok(source) = SourceFile::from_bytes(data.to_vec(), PathBuf::from("discloser.yaml")) else {
        return;
    };
    let Ok(config) = Config::parse(&source) else {
        return;
    };
    let contained = |path: &str| !path.starts_with('/') && !path.split('/').any(|c| c == "..");
    let safe = config.sources.iter().all(|s| match s {
        SourceSpec::Path(path) | SourceSpec::Files { path, .. } => contained(path),
        SourceSpec::Mcp(_) => false,
    });
    if !safe || !contained(&config.snapshots.dir) {
        return;
    }
    let files = [
        ("discloser.yaml".to_owned(), source.text.clone()),
        ("tools/chart.yaml".to_owned(), TOOL.to_owned()),
        ("tools/more/other.yaml".to_owned(), OTHER.to_owned()),
        ("schemas/defs.yaml".to_owned(), DEFS.to_owned()),
    ];
    let dir = scratch_project(&files);
    if let Ok(project) = Project::load(&dir.join("discloser.yaml")) {
        check_project(&project);
    }
});
