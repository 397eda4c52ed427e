//! `discloser cost --chart` on the bundled example: the SVG's bytes (insta snapshots), its
//! determinism, that it renders (rasterised with resvg), that each profile's saving against
//! `all bound` is drawn, and the errors of a bad `--chart` path.
//!
//! Set `DISCLOSER_CHART_PNG=/tmp/discloser-chart.png` to also save the rasterised charts of the
//! example (and `/tmp/discloser-chart.by-tool.png`), to look at them.

use crate::support::root;
use std::path::PathBuf;
use std::process::Output;

use discloser::cost::{CostOptions, Counter, Provider, TokenizerKind, cost};
use discloser::project::Project;
use discloser_cli::chart;

fn discloser(args: &[&str]) -> Output {
    crate::support::discloser_in(&root(), args)
}

/// Runs `discloser cost ARGS --chart DIR/chart.svg` and returns the chart.
fn chart_of(args: &[&str]) -> String {
    let dir = tempfile::tempdir().expect("temporary directory");
    let path = dir.path().join("chart.svg");
    let mut all = vec!["cost"];
    all.extend_from_slice(args);
    let path_text = path.to_str().expect("UTF-8 path");
    all.extend_from_slice(&["--chart", path_text]);
    let out = discloser(&all);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!out.stdout.is_empty(), "the report still goes to stdout");
    std::fs::read_to_string(&path).expect("the chart is written")
}

/// The chart rasterised at its own size: its shapes only (resvg is built without text, so the
/// labels are not drawn and no font of the machine is read).
fn rasterise(svg: &str) -> resvg::tiny_skia::Pixmap {
    let options = resvg::usvg::Options::default();
    let tree = resvg::usvg::Tree::from_str(svg, &options).expect("the chart is valid SVG");
    let size = tree.size().to_int_size();
    let mut pixmap =
        resvg::tiny_skia::Pixmap::new(size.width(), size.height()).expect("a non-empty chart");
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::default(),
        &mut pixmap.as_mut(),
    );
    pixmap
}

fn count_color(pixmap: &resvg::tiny_skia::Pixmap, rgb: (u8, u8, u8)) -> usize {
    pixmap
        .pixels()
        .iter()
        .filter(|p| (p.red(), p.green(), p.blue()) == rgb && p.alpha() == 255)
        .count()
}

const DEFINITIONS: (u8, u8, u8) = (0x1F, 0x4E, 0x79);
const INDEX: (u8, u8, u8) = (0xF2, 0x8E, 0x2B);
const SAVED: (u8, u8, u8) = (0xD4, 0xEC, 0xCB);

/// `<rect>`s filled with `fill`, as `(x, y, width, height)`.
fn rects(svg: &str, fill: &str) -> Vec<(i64, i64, i64, i64)> {
    let number = |line: &str, key: &str| -> i64 {
        let start = line.find(&format!(" {key}=\"")).expect("attribute") + key.len() + 3;
        let end = start + line[start..].find('"').expect("closing quote");
        line[start..end].parse().expect("an integer")
    };
    svg.lines()
        .filter(|l| l.starts_with("<rect") && l.contains(&format!("fill=\"{fill}\"")))
        .map(|l| {
            (
                number(l, "x"),
                number(l, "y"),
                number(l, "width"),
                number(l, "height"),
            )
        })
        .collect()
}

#[test]
fn chart_snapshots() {
    insta::assert_snapshot!("chart.example", chart_of(&[]));
    insta::assert_snapshot!("chart.by_tool", chart_of(&["--by-tool"]));
}

/// The README shows `examples/cost-chart.svg`: it must be what discloser draws now.
#[test]
fn readme_chart_is_current() {
    let committed = std::fs::read_to_string(root().join("examples/cost-chart.svg"))
        .expect("examples/cost-chart.svg");
    assert!(
        committed == chart_of(&[]),
        "examples/cost-chart.svg is stale: run `cargo run -- cost --chart examples/cost-chart.svg`"
    );
}

#[test]
fn chart_is_deterministic_and_matches_the_library() {
    let first = chart_of(&["--by-tool"]);
    assert_eq!(first, chart_of(&["--by-tool"]));
    let project = Project::load(&root().join("discloser.yaml")).expect("the example loads");
    let options = CostOptions {
        provider: Provider::Raw,
        profiles: Vec::new(),
        by_tool: true,
        turns: None,
        cache_read_discount: 1.0,
    };
    let report = cost(&project, &Counter::new(TokenizerKind::O200k), &options).expect("costs");
    assert_eq!(first, chart::svg(&report).expect("draws"));
    assert!(first.ends_with("</svg>\n"));
    assert!(!first.contains("/work/") && !first.contains("/tmp/"));
}

#[test]
fn chart_renders() {
    let svg = chart_of(&[]);
    let pixmap = rasterise(&svg);
    assert_eq!((pixmap.width(), pixmap.height()), (1000, 450));
    // Four bars of definitions, three of index, three savings: thousands of pixels each.
    assert!(count_color(&pixmap, DEFINITIONS) > 20_000);
    assert!(count_color(&pixmap, INDEX) > 5_000);
    assert!(count_color(&pixmap, SAVED) > 10_000);
    let by_tool = rasterise(&chart_of(&["--by-tool"]));
    assert!(by_tool.height() > pixmap.height());
    if let Some(path) = std::env::var_os("DISCLOSER_CHART_PNG") {
        let path = PathBuf::from(path);
        pixmap.save_png(&path).expect("PNG written");
        by_tool
            .save_png(path.with_extension("by-tool.png"))
            .expect("PNG written");
    }
}

/// The acceptance criterion: the saving of each profile against `all bound` is visible without
/// reading numbers. Every profile gets a green box from the end of its bar to the `all bound`
/// line, as wide as its saving, and in the same row as its bar.
#[test]
fn each_profile_saving_is_drawn_to_scale() {
    let svg = chart_of(&[]);
    let definitions = rects(&svg, "#1F4E79");
    let index = rects(&svg, "#F28E2B");
    let saved = rects(&svg, "#D4ECCB");
    // Legend swatches are 18x16: leave them out.
    let bars = |r: &Vec<(i64, i64, i64, i64)>| -> Vec<(i64, i64, i64, i64)> {
        r.iter()
            .copied()
            .filter(|&(_, _, w, h)| (w, h) != (18, 16))
            .collect()
    };
    let (definitions, index, saved) = (bars(&definitions), bars(&index), bars(&saved));
    assert_eq!(definitions.len(), 4, "all bound and three profiles");
    assert_eq!(index.len(), 4, "all bound has an empty index segment");
    assert_eq!(saved.len(), 3, "one saving per profile");
    let all_bound_end = definitions[0].0 + definitions[0].2;
    let all_bound_width = definitions[0].2;
    for (profile, saving) in index[1..].iter().zip(&saved) {
        let profile_end = profile.0 + profile.2;
        assert_eq!(profile.1, saving.1, "the saving is in the profile's row");
        assert!(
            (saving.0 - profile_end).abs() <= 1,
            "it starts where the bar ends"
        );
        assert!(
            (saving.0 + saving.2 - all_bound_end).abs() <= 1,
            "it ends at all bound"
        );
        // The example's profiles save 34-44% of the tokens: a third of the bar or more.
        assert!(
            saving.2 * 3 >= all_bound_width,
            "{saving:?} against {all_bound_width}"
        );
    }
}

#[test]
fn chart_path_errors() {
    let out = discloser(&["cost", "--chart", "chart.png"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("`--chart` writes SVG: name the file `*.svg`, not `chart.png`"),
        "{stderr}"
    );
    let out = discloser(&["cost", "--chart", "no/such/dir/chart.svg"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("cannot write the chart to `no/such/dir/chart.svg`"),
        "{stderr}"
    );
    assert!(
        out.stdout.is_empty(),
        "nothing is printed when the chart fails"
    );
}
