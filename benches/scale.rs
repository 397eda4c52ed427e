//! Scale benchmarks: load, render, lint and cost at 1,000 / 10,000 / 100,000 synthetic tools
//! and on the shared corpora concatenated (first tool of each name kept, ~4,000 tools).
//!
//! ```sh
//! cargo bench -p discloser-bench                                  # every size
//! DISCLOSER_BENCH_SIZES=1000,10000 cargo bench -p discloser-bench # a subset (`corpora` is a size)
//! ```
//!
//! In-process, through the library, so each phase is measured alone; `scripts/bench-scale.sh`
//! measures whole processes (wall time and peak memory). Catalogs come from
//! `benches/support/synth.rs`, written once into a temporary directory.

#[path = "support/synth.rs"]
mod synth;

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use discloser::cost::{CostOptions, Counter, Provider, TokenizerKind, cost};
use discloser::index::{Style, build_index, render};
use discloser::lint::{Settings, lint};
use discloser::project::{Project, Strictness};

/// The sizes to run: `DISCLOSER_BENCH_SIZES` (comma-separated numbers and `corpora`), or all.
fn sizes() -> Vec<String> {
    std::env::var("DISCLOSER_BENCH_SIZES")
        .unwrap_or_else(|_| "1000,10000,100000,corpora".to_owned())
        .split(',')
        .map(|s| s.trim().to_owned())
        .filter(|s| !s.is_empty())
        .collect()
}

/// Writes the project of `size` under `dir` and returns its config path.
fn project(dir: &Path, size: &str) -> PathBuf {
    let root = dir.join(size);
    if size == "corpora" {
        let corpora = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpora");
        synth::write_corpora(&corpora, &root).expect("the shared corpora beside the checkout");
    } else {
        let n = size.parse().expect("a size is a number or `corpora`");
        synth::write_project(&root, n, 1).expect("write the synthetic project");
    }
    root.join("discloser.yaml")
}

fn scale(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    for size in sizes() {
        let config = project(dir.path(), &size);
        let loaded = Project::load_with(&config, Strictness::Lenient).expect("the project loads");
        let profile = loaded.profile("default").expect("the default profile");
        let mut group = c.benchmark_group(format!("scale/{size}"));
        if size == "100000" {
            group
                .sample_size(10)
                .measurement_time(Duration::from_secs(30));
        } else {
            group.sample_size(20);
        }
        group.bench_function(BenchmarkId::from_parameter("load"), |b| {
            b.iter(|| Project::load_with(black_box(&config), Strictness::Lenient));
        });
        group.bench_function(BenchmarkId::from_parameter("render"), |b| {
            b.iter(|| {
                let index = build_index(&loaded.catalog, &profile, loaded.index_config());
                render(black_box(&index), Style::Text)
            });
        });
        group.bench_function(BenchmarkId::from_parameter("lint"), |b| {
            b.iter(|| lint(black_box(&loaded), &Settings::default()));
        });
        let counter = Counter::new(TokenizerKind::O200k);
        let options = CostOptions {
            provider: Provider::Raw,
            profiles: Vec::new(),
            by_tool: false,
            turns: None,
            cache_read_discount: 1.0,
        };
        group.bench_function(BenchmarkId::from_parameter("cost"), |b| {
            b.iter(|| cost(black_box(&loaded), &counter, &options));
        });
        group.finish();
    }
}

criterion_group!(benches, scale);
criterion_main!(benches);
