//! File-system helpers: expanding sources (without following directory symlinks) and writing
//! files (atomically where the target is a regular file).

use std::io::Write;
use std::path::{Path, PathBuf};

/// Extensions of tool files picked up from a directory source (`.snap`: github-mcp-server's
/// JSON tool snapshots; `.jsonl`: one tool per line).
const TOOL_EXTENSIONS: &[&str] = &["json", "jsonl", "snap", "yaml", "yml"];

/// Expands one source (a file, a directory, or a glob) relative to `root` into sorted paths
/// relative to `root`. A directory yields its YAML/JSON files, recursively. Neither a directory
/// nor a glob's `*` and `**` follow symbolic links to directories (no loops, no escapes), but a
/// directory named in the source itself may be one, and symbolic links to files are read.
pub fn expand(root: &Path, source: &str) -> Result<Vec<PathBuf>, String> {
    let direct = root.join(source);
    let mut found = Vec::new();
    if direct.is_dir() {
        walk(&direct, &mut found, 0, usize::MAX, &|path: &Path| {
            path.extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| TOOL_EXTENSIONS.contains(&e))
        })?;
    } else if direct.is_file() {
        found.push(direct);
    } else {
        found = expand_glob(root, source)?;
    }
    let mut relative: Vec<PathBuf> = found
        .into_iter()
        .map(|p| p.strip_prefix(root).map_or(p.clone(), Path::to_path_buf))
        .collect();
    relative.sort();
    relative.dedup();
    Ok(relative)
}

/// The files a glob matches: a walk from its literal prefix (the components before the first
/// wildcard) that matches every file below it against the whole pattern, descending only as
/// deep as the pattern can reach and never into a symbolic link.
fn expand_glob(root: &Path, source: &str) -> Result<Vec<PathBuf>, String> {
    let absolute = Path::new(source).is_absolute();
    let pattern = if absolute {
        source.to_owned()
    } else {
        format!(
            "{}/{}",
            glob::Pattern::escape(&root.to_string_lossy()),
            source
        )
    };
    let compiled = glob::Pattern::new(&pattern)
        .map_err(|e| format!("source `{source}` is not a valid glob: {}", e.msg))?;
    let components: Vec<&str> = source.split('/').collect();
    let literal = components
        .iter()
        .take_while(|c| !c.contains(['*', '?', '[']))
        .count();
    let mut base = if absolute {
        PathBuf::from("/")
    } else {
        root.to_path_buf()
    };
    for component in &components[..literal] {
        base.push(component);
    }
    let rest = &components[literal..];
    if rest.is_empty() {
        // No wildcard, and not a file or directory: a link to nothing is named as such.
        if broken_link(&base) {
            let shown = base.strip_prefix(root).unwrap_or(&base);
            return Err(format!(
                "`{}` is a symbolic link to nothing (dangling or looping)",
                shown.display()
            ));
        }
        return Ok(Vec::new());
    }
    let depth = if rest.iter().any(|c| c.contains("**")) {
        usize::MAX
    } else {
        rest.len().saturating_sub(1)
    };
    if !base.is_dir() {
        return Ok(Vec::new());
    }
    let options = glob::MatchOptions {
        require_literal_separator: true,
        ..glob::MatchOptions::new()
    };
    let mut candidates = Vec::new();
    walk(&base, &mut candidates, 0, depth, &|path: &Path| {
        compiled.matches_path_with(path, options)
    })?;
    let mut found = Vec::new();
    for path in candidates {
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
    Ok(found)
}

/// A symbolic link whose target cannot be reached.
pub fn broken_link(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
        && std::fs::metadata(path).is_err()
}

/// How deep [`walk`] descends before it calls a tree too deep.
const MAX_WALK_DEPTH: usize = 64;

/// Collects the entries under `dir` that are not directories and that `wanted` accepts,
/// descending at most `max_depth` levels; symbolic links are listed, never followed (no loops).
fn walk(
    dir: &Path,
    out: &mut Vec<PathBuf>,
    depth: usize,
    max_depth: usize,
    wanted: &dyn Fn(&Path) -> bool,
) -> Result<(), String> {
    if depth > MAX_WALK_DEPTH {
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
            if depth < max_depth {
                walk(&path, out, depth + 1, max_depth, wanted)?;
            }
        } else if wanted(&path) {
            out.push(path);
        }
    }
    Ok(())
}

/// Writes `bytes` to `path`: a regular file (or a new one) is replaced atomically, through a
/// temporary file in the same directory, flushed and synced, then renamed over the target, so
/// on any failure the old file is untouched.
///
/// What is at `path` decides how:
/// - a regular file, or nothing: replaced (created) atomically, as above;
/// - a symbolic link: its target is what gets written (resolved link by link, so the link
///   stays a link); a link to nothing creates its target;
/// - a device, FIFO or socket (`/dev/null`, `/dev/stdout` on a pipe, a named pipe), or a path
///   reached through `/proc` (`/dev/stdout`, `/dev/fd/1`): written to directly, never
///   replaced; write errors (`/dev/full`'s `ENOSPC`) are returned;
/// - a directory: an error.
///
/// On unix the file ends up with the permissions a plain write would give it: an existing
/// regular file keeps its mode, a new one gets `0o666` minus the process umask (what
/// [`std::fs::File::create`] gives), not the private `0o600` of a temporary file.
///
/// This, [`write_atomic_new`] and [`Staged`] are the only ways discloser writes a file the user
/// asked for (`render --out`, `snapshot`, `import --out`, `export --out`, `pull --out`, ...): a
/// run that fails or is killed midway leaves either the old file or the new one, never a mix,
/// and at worst a hidden `.discloser-*.tmp` beside it when the process is killed.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    match write_target(path)? {
        WriteTarget::Direct(real) => write_direct(&real, bytes),
        WriteTarget::Replace(real) => stage(&real, bytes)?.commit(),
    }
}

/// [`write_atomic`] for a file that must not exist yet: fails with
/// [`std::io::ErrorKind::AlreadyExists`], leaving the existing file untouched, even when it
/// appears while the new one is being written.
pub fn write_atomic_new(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let staged = stage(path, bytes)?;
    staged
        .tmp
        .persist_noclobber(&staged.path)
        .map_err(|e| e.error)?;
    Ok(())
}

/// A file written to a temporary file beside its destination, not yet renamed into place:
/// [`Staged::commit`] renames it; dropping it removes the temporary file. Several files are
/// made atomic as a set by staging them all before committing any.
#[derive(Debug)]
pub struct Staged {
    tmp: tempfile::NamedTempFile,
    path: PathBuf,
}

impl Staged {
    /// Renames the temporary file over the destination.
    pub fn commit(self) -> std::io::Result<()> {
        self.tmp.persist(&self.path).map_err(|e| e.error)?;
        Ok(())
    }
}

/// Writes `bytes` to a temporary file in `path`'s directory (flushed and synced, with the mode
/// [`write_atomic`] describes), to be renamed over the regular file or symlink target at `path`
/// by [`Staged::commit`]. A path that is a directory, device, FIFO or socket is refused (with
/// [`std::io::ErrorKind::InvalidInput`]).
pub fn stage_replace(path: &Path, bytes: &[u8]) -> std::io::Result<Staged> {
    match write_target(path)? {
        WriteTarget::Replace(real) => stage(&real, bytes),
        WriteTarget::Direct(_) => Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "it is not a regular file (a device, FIFO or socket), which discloser does not replace",
        )),
    }
}

/// How a path is written.
enum WriteTarget {
    /// A regular file or a new one, at this resolved path: replaced atomically.
    Replace(PathBuf),
    /// A device, FIFO, socket or `/proc` magic link: opened and written in place.
    Direct(PathBuf),
}

/// Symbolic links followed before a path is declared a loop (Linux's own limit).
const MAX_LINK_HOPS: usize = 40;

/// Resolves `path` link by link, without ever replacing a link itself.
fn write_target(path: &Path) -> std::io::Result<WriteTarget> {
    let mut current = path.to_path_buf();
    for _ in 0..MAX_LINK_HOPS {
        let Some(name) = current.file_name().map(std::ffi::OsStr::to_os_string) else {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                "it names no file",
            ));
        };
        let parent = match current.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let full = std::fs::canonicalize(&parent)?.join(name);
        // `/proc/self/fd/N` and its kin are magic links to open files and pipes: the kernel,
        // not the link text, knows what they designate.
        if full.starts_with("/proc") {
            return Ok(WriteTarget::Direct(full));
        }
        let meta = match std::fs::symlink_metadata(&full) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok(WriteTarget::Replace(full));
            }
            other => other?,
        };
        let kind = meta.file_type();
        if kind.is_symlink() {
            let link = std::fs::read_link(&full)?;
            current = full.parent().map_or(link.clone(), |p| p.join(&link));
            continue;
        }
        return if kind.is_file() {
            Ok(WriteTarget::Replace(full))
        } else if kind.is_dir() {
            Err(std::io::Error::new(
                std::io::ErrorKind::IsADirectory,
                "it is a directory",
            ))
        } else {
            Ok(WriteTarget::Direct(full))
        };
    }
    Err(std::io::Error::new(
        std::io::ErrorKind::InvalidInput,
        format!("it is a chain of more than {MAX_LINK_HOPS} symbolic links (a loop?)"),
    ))
}

/// Writes into a device, FIFO or socket as it is: no temporary file, no truncation, no sync.
fn write_direct(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut file = std::fs::OpenOptions::new().write(true).open(path)?;
    file.write_all(bytes)?;
    file.flush()
}

fn stage(path: &Path, bytes: &[u8]) -> std::io::Result<Staged> {
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
    Ok(Staged {
        tmp,
        path: path.to_path_buf(),
    })
}

/// A `help:` line for a source that matches no file: the nearest path that exists.
///
/// A path without wildcards is corrected component by component, each missing name replaced
/// by the nearest name in its directory (`tool/flight.yaml` → `tools/flights.yaml`). A glob
/// whose literal directories do not exist is corrected the same way; one whose directories
/// exist suggests the glob one character away that matches the nearest file below them
/// (`tools/*.yml` → `tools/*.yaml`). Ties go to the first by name: the same on every run.
pub fn nearest_source(root: &Path, source: &str) -> Option<String> {
    if Path::new(source).is_absolute() {
        return None;
    }
    let components: Vec<&str> = source.split('/').collect();
    let literal = components
        .iter()
        .take_while(|c| !c.contains(['*', '?', '[']))
        .count();
    let glob = literal < components.len();
    let mut dir = root.to_path_buf();
    let mut fixed = Vec::new();
    let mut changed = false;
    for (i, component) in components[..literal].iter().enumerate() {
        let last = i + 1 == components.len();
        let next = dir.join(component);
        let exists = if last { next.exists() } else { next.is_dir() };
        let name = if exists || component.is_empty() || matches!(*component, "." | "..") {
            (*component).to_owned()
        } else {
            changed = true;
            nearest_entry(&dir, component, !last)?
        };
        dir.push(&name);
        fixed.push(name);
    }
    if changed {
        fixed.extend(components[literal..].iter().map(|c| (*c).to_owned()));
        let near = fixed.join("/");
        let matches = expand(root, &near).is_ok_and(|found| !found.is_empty());
        return matches.then(|| format!("did you mean `{near}`?"));
    }
    if !glob || !dir.is_dir() {
        return None;
    }
    let rest = components[literal..].join("/");
    let depth = if rest.contains("**") {
        MAX_WALK_DEPTH
    } else {
        components.len() - literal - 1
    };
    let mut files = Vec::new();
    walk(&dir, &mut files, 0, depth, &|path: &Path| path.is_file()).ok()?;
    let tokens = glob_tokens(&rest)?;
    let mut near = Vec::new();
    for file in &files {
        let Some(below) = file.strip_prefix(&dir).ok().and_then(Path::to_str) else {
            continue;
        };
        let below = below.replace('\\', "/");
        let Some(edited) = one_edit_glob(&tokens, &below) else {
            continue;
        };
        let shown = |tail: &str| {
            let mut all: Vec<&str> = components[..literal].to_vec();
            all.push(tail);
            all.join("/")
        };
        near.push((shown(&below), shown(&edited)));
    }
    near.sort();
    // The walk above is looser than the glob crate (`**` anywhere): keep what really matches.
    let (file, pattern) = near
        .into_iter()
        .find(|(_, pattern)| expand(root, pattern).is_ok_and(|found| !found.is_empty()))?;
    Some(format!("did you mean `{pattern}`? it matches `{file}`"))
}

/// The name in `dir` nearest to `name` (directories only when `dir_only`).
fn nearest_entry(dir: &Path, name: &str, dir_only: bool) -> Option<String> {
    let names: Vec<String> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(Result::ok)
        .filter(|entry| !dir_only || entry.path().is_dir())
        .filter_map(|entry| entry.file_name().into_string().ok())
        .collect();
    crate::diagnostic::did_you_mean(name, names.iter().map(String::as_str)).map(str::to_owned)
}

/// One element of a glob, with its text in the pattern.
#[derive(Debug)]
enum GlobToken<'a> {
    /// A character matched as itself.
    Char(char),
    /// `?`: any character but `/`.
    One,
    /// `*`: any run of characters without `/`.
    Star,
    /// `**`: any run of characters.
    Stars,
    /// `[...]`: one character of a class, matched by the glob crate.
    Class(&'a str, glob::Pattern),
}

impl GlobToken<'_> {
    fn matches(&self, c: char) -> bool {
        match self {
            GlobToken::Char(own) => *own == c,
            GlobToken::One | GlobToken::Star => c != '/',
            GlobToken::Stars => true,
            GlobToken::Class(_, pattern) => c != '/' && pattern.matches(&c.to_string()),
        }
    }

    fn text(&self) -> String {
        match self {
            GlobToken::Char(c) => literal(*c),
            GlobToken::One => "?".to_owned(),
            GlobToken::Star => "*".to_owned(),
            GlobToken::Stars => "**".to_owned(),
            GlobToken::Class(text, _) => (*text).to_owned(),
        }
    }
}

/// A character as a glob matches it literally.
fn literal(c: char) -> String {
    if matches!(c, '*' | '?' | '[' | ']') {
        format!("[{c}]")
    } else {
        c.to_string()
    }
}

/// The tokens of a glob, `None` for one the glob crate would refuse.
fn glob_tokens(pattern: &str) -> Option<Vec<GlobToken<'_>>> {
    let mut tokens = Vec::new();
    let mut rest = pattern;
    while let Some(c) = rest.chars().next() {
        let (token, len) = match c {
            '*' if rest.starts_with("**") => (GlobToken::Stars, 2),
            '*' => (GlobToken::Star, 1),
            '?' => (GlobToken::One, 1),
            '[' => {
                // `]` right after `[` or `[!` is a member, not the end.
                let skip = if rest.starts_with("[!]") || rest.starts_with("[]") {
                    rest.find(']').map_or(1, |i| i + 1)
                } else {
                    1
                };
                let end = skip + rest[skip..].find(']')? + 1;
                let text = &rest[..end];
                (GlobToken::Class(text, glob::Pattern::new(text).ok()?), end)
            }
            other => (GlobToken::Char(other), other.len_utf8()),
        };
        tokens.push(token);
        rest = &rest[len..];
    }
    Some(tokens)
}

/// The glob one edit (a character added, removed or replaced) from `tokens` that matches
/// `text`, or `None` when `tokens` is further from it (or matches it already).
fn one_edit_glob(tokens: &[GlobToken<'_>], text: &str) -> Option<String> {
    #[derive(Clone, Copy)]
    enum Step {
        Keep,
        Replace,
        Remove,
        Add,
        Widen,
    }
    let text: Vec<char> = text.chars().collect();
    let (n, m) = (tokens.len(), text.len());
    // cost[i][j]: the fewest edits for tokens[..i] to match text[..j].
    let mut cost = vec![vec![usize::MAX; m + 1]; n + 1];
    let mut step = vec![vec![Step::Keep; m + 1]; n + 1];
    for j in 0..=m {
        cost[0][j] = j;
        step[0][j] = Step::Add;
    }
    for i in 1..=n {
        let token = &tokens[i - 1];
        let wild = matches!(token, GlobToken::Star | GlobToken::Stars);
        for j in 0..=m {
            let mut best = (
                cost[i - 1][j].saturating_add(usize::from(!wild)),
                Step::Remove,
            );
            if j > 0 {
                let c = text[j - 1];
                if wild && token.matches(c) && cost[i][j - 1] < best.0 {
                    best = (cost[i][j - 1], Step::Widen);
                }
                if !wild {
                    let replace = cost[i - 1][j - 1] + usize::from(!token.matches(c));
                    if replace < best.0 {
                        best = (
                            replace,
                            if token.matches(c) {
                                Step::Keep
                            } else {
                                Step::Replace
                            },
                        );
                    }
                }
                if cost[i][j - 1].saturating_add(1) < best.0 {
                    best = (cost[i][j - 1] + 1, Step::Add);
                }
            }
            cost[i][j] = best.0;
            step[i][j] = best.1;
        }
    }
    if cost[n][m] != 1 {
        return None;
    }
    let mut out: Vec<String> = Vec::new();
    let (mut i, mut j) = (n, m);
    while i > 0 || j > 0 {
        match step[i][j] {
            Step::Keep => {
                out.push(tokens[i - 1].text());
                i -= 1;
                j -= 1;
            }
            Step::Replace => {
                out.push(literal(text[j - 1]));
                i -= 1;
                j -= 1;
            }
            Step::Remove => {
                if matches!(tokens[i - 1], GlobToken::Star | GlobToken::Stars) {
                    out.push(tokens[i - 1].text());
                }
                i -= 1;
            }
            Step::Add => {
                out.push(literal(text[j - 1]));
                j -= 1;
            }
            Step::Widen => j -= 1,
        }
    }
    out.reverse();
    Some(out.concat())
}

#[cfg(test)]
mod glob_edit_tests {
    use super::{glob_tokens, one_edit_glob};

    fn edited(pattern: &str, text: &str) -> Option<String> {
        one_edit_glob(&glob_tokens(pattern).expect("a valid glob"), text)
    }

    #[test]
    fn one_edit_globs_add_remove_or_replace_one_character() {
        assert_eq!(edited("*.yml", "a.yaml").as_deref(), Some("*.yaml"));
        assert_eq!(edited("*.yamll", "a.yaml").as_deref(), Some("*.yaml"));
        assert_eq!(
            edited("fli*.jsom", "flights.json").as_deref(),
            Some("fli*.json")
        );
        assert_eq!(
            edited("[ab]*.yml", "a1.yaml").as_deref(),
            Some("[ab]*.yaml")
        );
        assert_eq!(
            edited("sub/*.yml", "sub/x.yaml").as_deref(),
            Some("sub/*.yaml")
        );
    }

    #[test]
    fn globs_further_away_or_matching_already_give_nothing() {
        assert_eq!(edited("*.jsn", "a.yaml"), None);
        assert_eq!(edited("*.yaml", "a.yaml"), None);
        // `*` does not cross a `/`.
        assert_eq!(edited("*.yml", "sub/a.yaml"), None);
    }
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
