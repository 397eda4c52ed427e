//! A revision of a project, read through git without touching the work tree or the index.
//!
//! The files of the config's directory at the revision are listed with `git ls-tree` and read
//! with `git cat-file --batch` into a temporary directory, which is then loaded like any
//! project. Loading from real files keeps every rule of the loader (globs, directory sources,
//! file `$ref`s) exactly as it was at that revision. Only read-only git commands run; nothing
//! in the repository changes.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Component, Path, PathBuf};
use std::process::{Command, Stdio};

/// Why a revision could not be read.
#[derive(Debug, thiserror::Error)]
pub enum GitError {
    /// `git` could not be started.
    #[error("cannot run `git`")]
    Spawn(#[source] std::io::Error),
    /// A git command failed.
    #[error("`git {command}` failed: {stderr}")]
    Failed {
        /// The arguments.
        command: String,
        /// What git said.
        stderr: String,
    },
    /// The config is not inside a git work tree.
    #[error("`{}` is not inside a git work tree", path.display())]
    NotARepository {
        /// The directory.
        path: PathBuf,
    },
    /// The revision does not name a commit.
    #[error("`{rev}` is not a commit of the repository")]
    BadRevision {
        /// The revision as given.
        rev: String,
    },
    /// The config file does not exist at the revision.
    #[error("`{}` does not exist in `{rev}`", path.display())]
    MissingConfig {
        /// The config path, relative to the repository.
        path: PathBuf,
        /// The revision.
        rev: String,
    },
    /// Git printed something unexpected.
    #[error("unexpected output from `git {command}`")]
    Output {
        /// The arguments.
        command: String,
    },
    /// The temporary copy could not be written.
    #[error("cannot write the copy of `{rev}` in a temporary directory")]
    Io {
        /// The revision.
        rev: String,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
}

/// A revision's copy of the config's directory, in a temporary directory removed on drop.
#[derive(Debug)]
pub struct Revision {
    _dir: tempfile::TempDir,
    /// The full commit id.
    pub commit: String,
    /// The config file inside the temporary copy.
    pub config: PathBuf,
    /// How to name the config in messages (`REV:path`).
    pub shown_config: PathBuf,
    /// How to name the config's directory in messages, so files read `REV:./tools/x.yaml`.
    pub shown_root: PathBuf,
}

/// Copies the directory of `config` (a path in the work tree) as it is at `rev`.
pub fn read_revision(config: &Path, rev: &str) -> Result<Revision, GitError> {
    if rev.starts_with('-') || rev.is_empty() {
        return Err(GitError::BadRevision {
            rev: rev.to_owned(),
        });
    }
    let config_real = config.canonicalize().map_err(|source| GitError::Io {
        rev: rev.to_owned(),
        source,
    })?;
    let config_dir = config_real.parent().unwrap_or(Path::new("/")).to_path_buf();
    let top = git(&config_dir, &["rev-parse", "--show-toplevel"]).map_err(|_| {
        GitError::NotARepository {
            path: config_dir.clone(),
        }
    })?;
    let top = PathBuf::from(String::from_utf8_lossy(&top).trim_end_matches(['\n', '\r']));
    let top = top.canonicalize().unwrap_or(top);
    let relative_dir = config_dir
        .strip_prefix(&top)
        .map_err(|_| GitError::NotARepository {
            path: config_dir.clone(),
        })?
        .to_path_buf();
    let commit = git(
        &top,
        &[
            "rev-parse",
            "--verify",
            "--quiet",
            &format!("{rev}^{{commit}}"),
        ],
    )
    .map_err(|_| GitError::BadRevision {
        rev: rev.to_owned(),
    })?;
    let commit = String::from_utf8_lossy(&commit).trim().to_owned();

    let dir = tempfile::Builder::new()
        .prefix("discloser-rev-")
        .tempdir()
        .map_err(|source| GitError::Io {
            rev: rev.to_owned(),
            source,
        })?;
    let blobs = list_blobs(&top, &commit, &relative_dir)?;
    copy_blobs(&top, &blobs, dir.path()).map_err(|e| match e {
        CopyError::Git(e) => e,
        CopyError::Io(source) => GitError::Io {
            rev: rev.to_owned(),
            source,
        },
    })?;
    let file_name = config_real
        .file_name()
        .map_or_else(|| PathBuf::from(crate::config::CONFIG_FILE), PathBuf::from);
    let config_in_repo = relative_dir.join(&file_name);
    let copied_config = dir.path().join(&config_in_repo);
    if !copied_config.is_file() {
        return Err(GitError::MissingConfig {
            path: config_in_repo,
            rev: rev.to_owned(),
        });
    }
    let shown_root = if relative_dir.as_os_str().is_empty() {
        PathBuf::from(format!("{rev}:."))
    } else {
        PathBuf::from(format!("{rev}:{}", slashed(&relative_dir)))
    };
    Ok(Revision {
        _dir: dir,
        commit,
        config: copied_config,
        shown_config: shown_root.join(file_name),
        shown_root,
    })
}

/// A path with `/` separators, as git spells it.
fn slashed(path: &Path) -> String {
    path.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

/// Runs a read-only git command in `dir`, returning its standard output.
fn git(dir: &Path, args: &[&str]) -> Result<Vec<u8>, GitError> {
    let output = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .env("GIT_LITERAL_PATHSPECS", "1")
        .env("GIT_OPTIONAL_LOCKS", "0")
        .stdin(Stdio::null())
        .output()
        .map_err(GitError::Spawn)?;
    if output.status.success() {
        Ok(output.stdout)
    } else {
        Err(GitError::Failed {
            command: args.join(" "),
            stderr: String::from_utf8_lossy(&output.stderr).trim().to_owned(),
        })
    }
}

/// A file of the tree: its mode, object id and path relative to the repository.
struct Blob {
    mode: String,
    id: String,
    path: PathBuf,
}

/// The files under `relative_dir` at `commit` (submodules skipped).
fn list_blobs(top: &Path, commit: &str, relative_dir: &Path) -> Result<Vec<Blob>, GitError> {
    let mut args = vec!["ls-tree", "-r", "-z", "--full-tree", commit];
    let pathspec = slashed(relative_dir);
    if !pathspec.is_empty() {
        args.push("--");
        args.push(&pathspec);
    }
    let listing = git(top, &args)?;
    let unexpected = || GitError::Output {
        command: "ls-tree".to_owned(),
    };
    let mut blobs = Vec::new();
    for record in listing.split(|&b| b == 0).filter(|r| !r.is_empty()) {
        let tab = record
            .iter()
            .position(|&b| b == b'\t')
            .ok_or_else(unexpected)?;
        let meta = String::from_utf8_lossy(&record[..tab]);
        let mut fields = meta.split(' ');
        let (Some(mode), Some(kind), Some(id)) = (fields.next(), fields.next(), fields.next())
        else {
            return Err(unexpected());
        };
        if kind != "blob" {
            continue;
        }
        let path = path_from_bytes(&record[tab + 1..]);
        // Git refuses such paths in trees; a crafted object must still not escape the copy.
        if !path.components().all(|c| matches!(c, Component::Normal(_))) {
            return Err(unexpected());
        }
        blobs.push(Blob {
            mode: mode.to_owned(),
            id: id.to_owned(),
            path,
        });
    }
    Ok(blobs)
}

#[cfg(unix)]
fn path_from_bytes(bytes: &[u8]) -> PathBuf {
    use std::os::unix::ffi::OsStrExt;
    PathBuf::from(std::ffi::OsStr::from_bytes(bytes))
}

#[cfg(not(unix))]
fn path_from_bytes(bytes: &[u8]) -> PathBuf {
    PathBuf::from(String::from_utf8_lossy(bytes).into_owned())
}

enum CopyError {
    Git(GitError),
    Io(std::io::Error),
}

impl From<std::io::Error> for CopyError {
    fn from(e: std::io::Error) -> Self {
        CopyError::Io(e)
    }
}

/// Reads every blob with one `git cat-file --batch` and writes it under `into`.
fn copy_blobs(top: &Path, blobs: &[Blob], into: &Path) -> Result<(), CopyError> {
    if blobs.is_empty() {
        return Ok(());
    }
    let mut child = Command::new("git")
        .arg("-C")
        .arg(top)
        .args(["cat-file", "--batch"])
        .env("GIT_OPTIONAL_LOCKS", "0")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| CopyError::Git(GitError::Spawn(e)))?;
    let unexpected = || {
        CopyError::Git(GitError::Output {
            command: "cat-file --batch".to_owned(),
        })
    };
    let (Some(mut stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
        return Err(unexpected());
    };
    let ids: Vec<u8> = blobs
        .iter()
        .flat_map(|b| format!("{}\n", b.id).into_bytes())
        .collect();
    // Feed the ids from another thread so a full output pipe cannot block the input.
    let feeder = std::thread::spawn(move || stdin.write_all(&ids));
    let mut reader = BufReader::new(stdout);
    for blob in blobs {
        let mut header = String::new();
        reader.read_line(&mut header)?;
        let size: usize = header
            .trim_end()
            .rsplit(' ')
            .next()
            .and_then(|s| s.parse().ok())
            .filter(|_| header.contains(" blob "))
            .ok_or_else(unexpected)?;
        let mut content = vec![0; size + 1];
        reader.read_exact(&mut content)?;
        content.pop();
        write_blob(into, blob, &content)?;
    }
    feeder.join().map_err(|_| unexpected())??;
    child.wait()?;
    Ok(())
}

fn write_blob(into: &Path, blob: &Blob, content: &[u8]) -> std::io::Result<()> {
    let target = into.join(&blob.path);
    if let Some(parent) = target.parent() {
        std::fs::create_dir_all(parent)?;
    }
    if blob.mode == "120000" {
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(path_from_bytes(content), &target)?;
        }
        return Ok(());
    }
    std::fs::write(target, content)
}
