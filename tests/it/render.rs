//! Rendering the bundled example: insta snapshots of every profile and style, the byte-exact
//! golden files in `snapshots/`, the index contract checked mechanically on every entry, and
//! determinism across processes and source layouts.

use crate::support::root;
use std::path::PathBuf;

use discloser::index::{Style, build_index, render};
use discloser::project::Project;
use unicode_normalization::UnicodeNormalization;

const STYLES: [(Style, &str); 3] = [
    (Style::Text, "text"),
    (Style::Markdown, "markdown"),
    (Style::Json, "json"),
];

fn example() -> Project {
    Project::load(&root().join("discloser.yaml")).expect("the bundled example loads")
}

fn rendered(project: &Project, profile: &str, style: Style) -> String {
    let profile = project.profile(profile).expect("profile exists");
    render(
        &build_index(&project.catalog, &profile, project.index_config()),
        style,
    )
}

use crate::support::discloser_in as discloser;

#[test]
fn example_has_the_profiles_the_readme_describes() {
    let project = example();
    let names: Vec<&str> = project.profiles.keys().map(String::as_str).collect();
    assert_eq!(names, ["chart_requested", "default", "filling_form"]);
    assert_eq!(project.catalog.tools.len(), 13);
    assert_eq!(project.profiles["default"].bound.len(), 5);
}

#[test]
fn insta_snapshots_of_every_profile_and_style() {
    let project = example();
    for profile in project.profiles.keys() {
        for (style, style_name) in STYLES {
            let text = rendered(&project, profile, style);
            insta::assert_snapshot!(format!("{profile}.{style_name}"), text);
        }
    }
}

/// `snapshots/<profile>/index.txt` holds the exact bytes `render` must produce. Regenerate with
/// `cargo run -- render --profile P --out snapshots/P/index.txt` after a deliberate change.
#[test]
fn golden_files_match_rendered_bytes_exactly() {
    let project = example();
    let dir = root().join("snapshots");
    for profile in project.profiles.keys() {
        let path = dir.join(profile).join("index.txt");
        let golden = std::fs::read(&path)
            .unwrap_or_else(|e| panic!("missing golden file {}: {e}", path.display()));
        let now = rendered(&project, profile, Style::Text);
        assert!(
            golden == now.as_bytes(),
            "{} differs from the rendered index; if the change is deliberate, run\n  cargo run -- render --profile {profile} --out snapshots/{profile}/index.txt\n--- golden\n{}\n--- rendered\n{now}",
            path.display(),
            String::from_utf8_lossy(&golden)
        );
    }
    let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
        .expect("snapshots/ exists")
        .map(|e| {
            e.expect("readable")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    on_disk.sort();
    let expected: Vec<&String> = project.profiles.keys().collect();
    assert_eq!(
        on_disk.iter().collect::<Vec<_>>(),
        expected,
        "snapshots/ has a folder per profile and nothing else"
    );
}

/// The rules of an index entry, checked on every entry of every profile.
#[test]
fn every_entry_meets_the_index_contract() {
    let project = example();
    for profile_name in project.profiles.keys() {
        let profile = project.profile(profile_name).unwrap();
        let index = build_index(&project.catalog, &profile, project.index_config());
        let text = render(&index, Style::Text);
        assert!(
            text.ends_with('\n') && !text.ends_with("\n\n"),
            "exactly one trailing newline"
        );
        assert!(!text.contains('\r'));
        assert_eq!(text, text.nfc().collect::<String>(), "NFC");
        for line in text.lines() {
            assert_eq!(line, line.trim_end(), "no trailing spaces: {line:?}");
        }
        let names: Vec<&str> = index.entries.iter().map(|e| e.name.as_str()).collect();
        let mut sorted = names.clone();
        sorted.sort_unstable();
        assert_eq!(names, sorted, "entries sorted by name");
        for entry in &index.entries {
            assert!(!profile.is_bound(&entry.name));
            let tool = project.catalog.get(&entry.name).unwrap();
            // Every required parameter is in the signature, and every enum value whole.
            let schema = tool.parameters.keep();
            for required in schema["required"].as_array().into_iter().flatten() {
                let param = required.as_str().unwrap();
                assert!(
                    entry.signature.contains(&format!("{param}: ")),
                    "{}: {param} missing",
                    entry.name
                );
            }
            for param in &entry.required {
                for value in param.values.iter().flatten() {
                    let shown = value
                        .as_str()
                        .map_or_else(|| value.to_string(), str::to_owned);
                    assert!(
                        param.ty.split('|').any(|v| v.trim_matches('"') == shown),
                        "{}: value {shown} not whole in {}",
                        entry.name,
                        param.ty
                    );
                }
            }
            // Triggers: present, deduplicated, shorter first then code point.
            assert!(!entry.triggers.is_empty(), "{} has no triggers", entry.name);
            let keys: Vec<(usize, &str)> = entry
                .triggers
                .iter()
                .map(|t| (t.chars().count(), t.as_str()))
                .collect();
            assert!(
                keys.windows(2).all(|w| w[0] < w[1]),
                "{}: triggers not sorted: {:?}",
                entry.name,
                entry.triggers
            );
            // The summary: whole sentences within budget, ending with a terminator.
            assert!(!entry.summary_over_budget, "{}", entry.name);
            assert!(
                entry.summary.chars().count() <= entry.summary_budget,
                "{}",
                entry.name
            );
            assert!(
                entry.summary.ends_with(['.', '。', '!', '?', '！', '？']),
                "{} ends mid-sentence: {}",
                entry.name,
                entry.summary
            );
            assert!(
                tool_description_prose(&tool.description).starts_with(&entry.summary),
                "{}: summary is not a prefix",
                entry.name
            );
        }
    }
}

/// The description's prose as the summary packer sees it: every sentence, joined.
fn tool_description_prose(description: &str) -> String {
    discloser::index::pack_summary(description, usize::MAX).text
}

#[test]
fn the_seed_entry_renders_as_specified() {
    let text = rendered(&example(), "default", Style::Text);
    let line = text
        .lines()
        .find(|l| l.starts_with("- view_startup_guide("))
        .expect("entry present");
    assert!(line.starts_with("- view_startup_guide(kind: self_register|tax_filing|business_plan) [BP / 自己报税 / 自己注册 / 商业计划书] "), "{line}");
    let chart = text
        .lines()
        .find(|l| l.starts_with("- draw_chart("))
        .expect("entry present");
    assert!(
        chart.contains("chart_type: bar|line|area|pie|donut"),
        "{chart}"
    );
}

#[test]
fn twenty_processes_render_identical_bytes() {
    let first = discloser(&root(), &["render"]);
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    assert!(!first.stdout.is_empty());
    for _ in 1..20 {
        let again = discloser(&root(), &["render"]);
        assert_eq!(again.stdout, first.stdout);
    }
}

/// Copies the example into a temp dir with the tool files renamed (their sort order reversed)
/// and the sources listed one by one in reverse order: the bytes must not change.
#[test]
fn renamed_and_reordered_sources_render_identical_bytes() {
    let project = example();
    let tmp = tempfile::tempdir().unwrap();
    std::fs::create_dir(tmp.path().join("defs")).unwrap();
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("tools"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    files.sort();
    let count = files.len();
    let mut sources = Vec::new();
    for (i, file) in files.iter().enumerate() {
        // Reverse order by name: the first file becomes the last.
        let renamed = format!(
            "{:02}_{}",
            count - i,
            file.file_name()
                .unwrap()
                .to_string_lossy()
                .replace(".yaml", ".yml")
        );
        std::fs::copy(file, tmp.path().join("defs").join(&renamed)).unwrap();
        sources.push(format!("  - defs/{renamed}"));
    }
    let config = std::fs::read_to_string(root().join("discloser.yaml")).unwrap();
    let config = config.replace(
        "sources:\n  - tools/*.yaml",
        &format!("sources:\n{}", sources.join("\n")),
    );
    assert!(config.contains("defs/"), "the sources were replaced");
    std::fs::write(tmp.path().join("discloser.yaml"), config).unwrap();
    let moved = Project::load(&tmp.path().join("discloser.yaml")).unwrap();
    for profile in project.profiles.keys() {
        for (style, _) in STYLES {
            assert_eq!(
                rendered(&moved, profile, style),
                rendered(&project, profile, style),
                "{profile}"
            );
        }
    }
    let out = discloser(tmp.path(), &["render"]);
    assert_eq!(
        out.stdout,
        rendered(&project, "default", Style::Text).as_bytes()
    );
}

#[test]
fn render_out_writes_the_same_bytes_atomically() {
    let tmp = tempfile::tempdir().unwrap();
    let target = tmp.path().join("index.txt");
    std::fs::write(&target, "old").unwrap();
    let out = discloser(
        &root(),
        &[
            "render",
            "--profile",
            "filling_form",
            "--out",
            target.to_str().unwrap(),
        ],
    );
    assert!(out.status.success());
    assert!(out.stdout.is_empty());
    assert_eq!(
        std::fs::read_to_string(&target).unwrap(),
        rendered(&example(), "filling_form", Style::Text)
    );
    let leftovers = std::fs::read_dir(tmp.path()).unwrap().count();
    assert_eq!(leftovers, 1, "no temporary file left behind");
}

#[test]
fn render_out_into_a_missing_directory_fails_without_writing() {
    let tmp = tempfile::tempdir().unwrap();
    let target = tmp.path().join("no/such/dir/index.txt");
    let out = discloser(&root(), &["render", "--out", target.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("error: cannot write"));
    assert!(!target.exists());
}

#[test]
fn tools_table_lists_every_tool_with_its_state() {
    let out = discloser(&root(), &["tools", "--profile", "chart_requested"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    insta::assert_snapshot!("tools.chart_requested", text);
}
