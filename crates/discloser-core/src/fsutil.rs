//! File-system helpers: expanding sources and writing files atomically.

use std::io::Write;
use std::path::{Path, PathBuf};

/// Extensions of tool files picked up from a directory source (`.snap`: github-mcp-server's
/// JSON tool snapshots; `.jsonl`: one tool per line).
const TOOL_EXTENSIONS: &[&str] = &["json", "jsonl", "snap", "yaml", "yml"];

/// Expands one source (a file, a directory, or a glob) relative to `root` into sorted paths
/// relative to `root`. A directory yields its YAML/JSON files, recursively.
pub fn expand(root: &Path, source: &str) -> Result<Vec<PathBuf>, String> {
    let direct = root.join(source);
    let mut found = Vec::new();
    if direct.is_dir() {
        walk(&direct, &mut found, 0)?;
    } else if direct.is_file() {
        found.push(direct);
    } else {
        let pattern = if Path::new(source).is_absolute() {
            source.to_owned()
        } else {
            format!(
                "{}/{}",
                glob::Pattern::escape(&root.to_string_lossy()),
                source
            )
        };
        let paths = glob::glob(&pattern)
            .map_err(|e| format!("source `{source}` is not a valid glob: {}", e.msg))?;
        for entry in paths {
            let path = entry
                .map_err(|e| format!("cannot read `{}`: {}", e.path().display(), e.error()))?;
            if path.is_file() {
                found.push(path);
            } else if broken_link(&path) {
                let shown = path.strip_prefix(root).unwrap_or(&path);
                return Err(format!(
                    "`{}` is a symbolic link to nothing (dangling or looping)",
                    shown.display()
                ));
            }
        }
    }
    let mut relative: Vec<PathBuf> = found
        .into_iter()
        .map(|p| p.strip_prefix(root).map_or(p.clone(), Path::to_path_buf))
        .collect();
    relative.sort();
    relative.dedup();
    Ok(relative)
}

/// A symbolic link whose target cannot be reached.
pub fn broken_link(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
        && std::fs::metadata(path).is_err()
}

/// Collects tool files under `dir`; symlinked directories are not followed (no loops).
fn walk(dir: &Path, out: &mut Vec<PathBuf>, depth: usize) -> Result<(), String> {
    if depth > 64 {
        return Err(format!("`{}` is nested too deeply", dir.display()));
    }
    let entries = std::fs::read_dir(dir)
        .map_err(|e| format!("cannot read directory `{}`: {e}", dir.display()))?;
    for entry in entries {
        let entry = entry.map_err(|e| format!("cannot read directory `{}`: {e}", dir.display()))?;
        let path = entry.path();
        let kind = entry
            .file_type()
            .map_err(|e| format!("cannot read `{}`: {e}", path.display()))?;
        if kind.is_dir() {
            walk(&path, out, depth + 1)?;
        } else if path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| TOOL_EXTENSIONS.contains(&e))
        {
            out.push(path);
        }
    }
    Ok(())
}

/// Writes `bytes` to `path` atomically: a temporary file in the same directory, flushed and
/// synced, then renamed over the target. On any failure the old file is untouched.
///
/// On unix the file ends up with the permissions a plain write would give it: an existing
/// regular file keeps its mode, a new one gets `0o666` minus the process umask (what
/// [`std::fs::File::create`] gives), not the private `0o600` of a temporary file.
///
/// This and [`write_atomic_new`] are the only ways discloser writes a file the user asked for
/// (`render --out`, `snapshot`, `import --out`, `export --out`, `pull --out`, ...): a run that
/// fails or is killed midway leaves either the old file or the new one, never a mix, and at
/// worst a hidden `.discloser-*.tmp` beside it when the process is killed.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_via_temp(path, bytes, true)
}

/// [`write_atomic`] for a file that must not exist yet: fails with
/// [`std::io::ErrorKind::AlreadyExists`], leaving the existing file untouched, even when it
/// appears while the new one is being written.
pub fn write_atomic_new(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_via_temp(path, bytes, false)
}

fn write_via_temp(path: &Path, bytes: &[u8], replace: bool) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let mut builder = tempfile::Builder::new();
    builder.prefix(".discloser-").suffix(".tmp");
    // An existing file's mode is copied below; until then the temporary file stays private.
    #[cfg(unix)]
    let existing = std::fs::metadata(path)
        .ok()
        .filter(std::fs::Metadata::is_file);
    #[cfg(unix)]
    if existing.is_none() {
        use std::os::unix::fs::PermissionsExt as _;
        // Passed to `open(2)`, which applies the umask: no need to read it (racy) here.
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    let mut tmp = builder.tempfile_in(dir)?;
    #[cfg(unix)]
    if let Some(meta) = existing {
        // Before any byte is written, so the content is never more exposed than the old file.
        tmp.as_file().set_permissions(meta.permissions())?;
    }
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    if replace {
        tmp.persist(path).map_err(|e| e.error)?;
    } else {
        tmp.persist_noclobber(path).map_err(|e| e.error)?;
    }
    Ok(())
}

#[cfg(all(test, unix))]
mod tests {
    use std::os::unix::fs::PermissionsExt as _;
    use std::path::Path;

    fn mode(path: &Path) -> u32 {
        std::fs::metadata(path)
            .expect("metadata")
            .permissions()
            .mode()
            & 0o7777
    }

    /// Regression: files were left with the temporary file's private `0o600`.
    #[test]
    fn new_file_gets_the_mode_file_create_gives() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        // Whatever the umask of the test process, a plain `File::create` is the reference.
        let reference = dir.path().join("reference");
        std::fs::File::create(&reference).expect("create the reference file");
        let expected = mode(&reference);
        for (name, write) in [
            (
                "atomic",
                super::write_atomic as fn(&Path, &[u8]) -> std::io::Result<()>,
            ),
            ("atomic-new", super::write_atomic_new),
        ] {
            let path = dir.path().join(name);
            write(&path, b"new\n").expect("write");
            assert_eq!(mode(&path), expected, "{name}: {:o}", mode(&path));
            assert_eq!(std::fs::read(&path).expect("read"), b"new\n");
        }
    }

    #[test]
    fn existing_file_keeps_its_mode() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        for wanted in [0o640, 0o600, 0o664, 0o755] {
            let path = dir.path().join(format!("file-{wanted:o}"));
            std::fs::write(&path, b"old\n").expect("write the old file");
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(wanted))
                .expect("chmod");
            super::write_atomic(&path, b"new\n").expect("overwrite");
            assert_eq!(mode(&path), wanted, "{:o}", mode(&path));
            assert_eq!(std::fs::read(&path).expect("read"), b"new\n");
        }
    }
}

/// The path to show for `path`: relative to the current directory when inside it.
pub fn shown_path(path: &Path) -> PathBuf {
    let cwd = std::env::current_dir()
        .ok()
        .and_then(|c| c.canonicalize().ok());
    match cwd {
        Some(cwd) if path.is_absolute() => path
            .strip_prefix(&cwd)
            .map_or_else(|_| path.to_path_buf(), Path::to_path_buf),
        _ => path.to_path_buf(),
    }
}
