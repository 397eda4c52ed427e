//! Lints an arbitrary generated catalog (leniently loaded, as `discloser lint` does) and renders
//! the findings in every reporter format: no panic, sorted findings, JSON formats are JSON.

#![no_main]

use std::collections::BTreeMap;

use arbitrary::Unstructured;
use discloser::catalog::Catalog;
use discloser::config::Config;
use discloser::lint::report::{Format, render};
use discloser::lint::{Settings, lint};
use discloser::project::Project;
use discloser_fuzz::{catalog, inputs, root};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    let Ok(generated) = catalog(&mut u) else {
        return;
    };
    let Ok((catalog, problems)) = Catalog::load_inputs_lenient(inputs(&generated.files), root())
    else {
        return;
    };
    let mut config = Config::default();
    config.index = generated.config;
    let project = Project {
        config_path: root().join("discloser.yaml"),
        root: root().to_path_buf(),
        config,
        catalog,
        profiles: BTreeMap::new(),
        problems,
    };
    let findings = lint(&project, &Settings::default());
    assert!(
        findings
            .windows(2)
            .all(|w| (&w[0].path, w[0].line, w[0].column) <= (&w[1].path, w[1].line, w[1].column)),
        "findings are sorted"
    );
    for format in [
        Format::Full,
        Format::Concise,
        Format::Json,
        Format::Github,
        Format::Sarif,
    ] {
        let text = render(&findings, format, false);
        if matches!(format, Format::Json | Format::Sarif) {
            serde_json::from_str::<serde_json::Value>(&text).expect("JSON reporters print JSON");
        }
    }
});
