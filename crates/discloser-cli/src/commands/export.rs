//! `discloser export`: a profile's bound definitions as a provider's request expects them.
//!
//! The output is the request's `tools` value (for MCP, the `tools/list` result), pretty-printed
//! JSON with keys in the provider's order and tools sorted by name; `--index` wraps it as
//! `{"tools": ..., "index": "..."}` with the rendered index (text style) of the same profile,
//! so a runtime takes both halves of the prompt from one command. A reference into another
//! file is bundled into the tool's `$defs`: a provider receives a schema that refers to
//! nothing outside itself.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Context;

use super::Outcome;
use crate::catalog::formats::export;
use crate::cli::Cli;
use crate::cost::Provider;
use crate::index::{Style, build_index, render};

/// `discloser export`.
#[derive(Debug, clap::Args)]
pub struct ExportArgs {
    /// Tool files, directories or globs to load instead of the config's sources.
    #[arg(value_name = "PATH")]
    pub paths: Vec<String>,
    /// The profile whose bound tools (starter set and core tools) are exported.
    #[arg(long, short, default_value = crate::project::DEFAULT_PROFILE)]
    pub profile: String,
    /// The request format.
    #[arg(long, value_enum)]
    pub provider: Provider,
    /// Also emit the rendered index: `{"tools": ..., "index": "..."}`.
    #[arg(long)]
    pub index: bool,
    /// Compact JSON on one line instead of pretty-printed.
    #[arg(long)]
    pub compact: bool,
    /// Write to this file (atomically) instead of standard output.
    #[arg(long, short, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// Runs the command.
pub fn run(
    cli: &Cli,
    args: &ExportArgs,
    cwd: &Path,
    out: &mut dyn Write,
) -> anyhow::Result<Outcome> {
    let project = super::load(cli, &args.paths, cwd)?;
    let profile = project.profile(&args.profile)?;
    let catalog = &project.catalog;
    let tools: Vec<usize> = (0..catalog.tools.len())
        .filter(|&i| profile.is_bound(&catalog.tools[i].name))
        .collect();
    let index = args.index.then(|| {
        let built = build_index(catalog, &profile, project.index_config());
        render(&built, Style::Text)
    });
    let document = export::document(args.provider, catalog, &tools, index.as_deref());
    let mut text = if args.compact {
        serde_json::to_string(&document)?
    } else {
        serde_json::to_string_pretty(&document)?
    };
    text.push('\n');
    match &args.out {
        // `-` is standard output, as for most tools that take a file to write.
        Some(path) if path.as_os_str() == "-" => out.write_all(text.as_bytes())?,
        Some(path) => {
            crate::fsutil::write_atomic(&cwd.join(path), text.as_bytes())
                .with_context(|| format!("cannot write `{}`", path.display()))?;
            super::report_written(path, text.len());
        }
        None => out.write_all(text.as_bytes())?,
    }
    Ok(Outcome::Ok)
}
