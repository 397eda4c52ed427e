//! `discloser import`: foreign tool definitions into the native YAML format.
//!
//! Every input file is read in its detected (or named) format, exactly as a source of
//! `discloser.yaml` would be, and the tools are written as one native YAML list, sorted by name,
//! each with `triggers: []` for the team to fill in. Descriptions and schemas are kept exactly
//! (multi-line descriptions as literal block scalars); before anything is written, the YAML is
//! read back and compared with the imported tools, so a conversion that would change a single
//! character fails instead. An existing `--out` file is never replaced without `--force`, and
//! is written atomically.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Context;

use super::Outcome;
use crate::args::{Globals, ImportArgs};
use crate::catalog::formats::{self, Format, yaml};
use crate::catalog::{Catalog, Input, Tool};
use crate::project::shown_path;
use crate::source::SourceFile;

/// Runs the command.
pub fn run(
    _globals: &Globals,
    args: &ImportArgs,
    cwd: &Path,
    out: &mut dyn Write,
) -> anyhow::Result<Outcome> {
    let inputs = args
        .files
        .iter()
        .map(|file| Input::File {
            real: cwd.join(file),
            shown: file.clone(),
            format: args.format,
        })
        .collect();
    // The files are named explicitly, so `$ref`s may reach anywhere they point.
    let root = cwd.ancestors().last().unwrap_or(cwd);
    let catalog = Catalog::load_inputs(inputs, root)?;
    let tools: Vec<&Tool> = catalog.tools.iter().collect();
    let text = format!("{}{}", header(&catalog), yaml::native_tools(&tools));
    verify(&text, &tools)?;
    match &args.out {
        // `-` is standard output, as for most tools that take a file to write.
        Some(path) if path.as_os_str() == "-" => out.write_all(text.as_bytes())?,
        Some(path) => {
            write_new(&cwd.join(path), path, text.as_bytes(), args.force)?;
            super::report_written(path, text.len());
        }
        None => out.write_all(text.as_bytes())?,
    }
    Ok(Outcome::Ok)
}

/// Comment lines naming the inputs and their formats, and what to do next.
fn header(catalog: &Catalog) -> String {
    let mut sources: Vec<(String, &str)> = Vec::new();
    for tool in &catalog.tools {
        let path = catalog.file_of(tool).path.display().to_string();
        let entry = (path, tool.origin.format.label());
        if !sources.contains(&entry) {
            sources.push(entry);
        }
    }
    sources.sort();
    let mut text = String::from("# Imported by `discloser import` from:\n");
    for (path, format) in &sources {
        text.push_str(&format!("#   {path} ({format})\n"));
    }
    text.push_str("# Fill in each tool's `triggers`: the words users say when they need it.\n");
    text
}

/// Reads `text` back as native YAML and checks every tool is exactly what was imported.
fn verify(text: &str, tools: &[&Tool]) -> anyhow::Result<()> {
    let source = SourceFile::from_text(text.to_owned(), PathBuf::from("import.yaml"));
    let reread: Vec<Tool> = formats::read(source, Some(Format::Native), 0)
        .context("the YAML written by `discloser import` does not read back; please report this")?
        .into_iter()
        .flat_map(|(_, tools)| tools)
        .collect();
    for (written, original) in reread.iter().zip(tools) {
        let same = written.name == original.name
            && written.description == original.description
            && written.parameters == original.parameters
            && written.title == original.title
            && written.annotations == original.annotations
            && written.triggers == original.triggers
            && written.core == original.core
            && written.summary_budget == original.summary_budget
            && written.lint_ignore == original.lint_ignore;
        anyhow::ensure!(
            same,
            "the YAML written for tool `{}` does not read back identically; please report this",
            original.name
        );
    }
    anyhow::ensure!(
        reread.len() == tools.len(),
        "the YAML written by `discloser import` lost tools; please report this"
    );
    Ok(())
}

/// Writes atomically; without `force`, an existing file is an error and is left untouched,
/// even if it appears while writing.
fn write_new(path: &Path, shown: &Path, bytes: &[u8], force: bool) -> anyhow::Result<()> {
    let cannot = || format!("cannot write `{}`", shown_path(shown).display());
    if force {
        return crate::fsutil::write_atomic(path, bytes).with_context(cannot);
    }
    let exists = || anyhow::anyhow!("`{}` exists; pass `--force` to replace it", shown.display());
    if path.exists() || path.is_symlink() {
        return Err(exists());
    }
    crate::fsutil::write_atomic_new(path, bytes).map_err(|e| {
        if e.kind() == std::io::ErrorKind::AlreadyExists {
            exists()
        } else {
            anyhow::Error::new(e).context(cannot())
        }
    })
}
