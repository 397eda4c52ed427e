//! The binary run under resource limits, for the hostile-input tests (`hostile.rs`,
//! `hostile_files.rs`, `hostile_compute.rs`): a project in a fresh temporary directory, the
//! limits as a value each file states once ([`Limited`]), and what a run did ([`Run`]).
//!
//! The limits are set with `setrlimit` between fork and exec, so they bind the child alone: a
//! run that needs more memory fails to allocate, one past its CPU time is killed by `SIGXCPU`,
//! a write past the file size fails or is killed by `SIGXFSZ`; a watchdog kills a run that
//! hangs and fails the test.

use std::os::unix::process::{CommandExt as _, ExitStatusExt as _};
use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use tempfile::TempDir;

/// A project in a temporary directory: `discloser.yaml` loading `tools/`, plus files.
pub struct Project {
    dir: TempDir,
}

impl Project {
    /// `discloser.yaml` is written first, so `files` may replace it.
    pub fn new(files: &[(&str, &[u8])]) -> Project {
        let project = Project {
            dir: tempfile::tempdir().expect("a temporary directory"),
        };
        project.write("discloser.yaml", "sources:\n  - tools\n");
        for (path, bytes) in files {
            project.write(path, bytes);
        }
        project
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    pub fn write(&self, path: &str, bytes: impl AsRef<[u8]>) {
        let full = self.path().join(path);
        std::fs::create_dir_all(full.parent().expect("a parent")).expect("create directories");
        std::fs::write(full, bytes).expect("write a file");
    }
}

impl AsRef<Path> for Project {
    fn as_ref(&self) -> &Path {
        self.path()
    }
}

/// Which memory limit binds the child.
#[derive(Clone, Copy)]
enum Memory {
    /// `RLIMIT_DATA` in megabytes: heap and other private memory.
    Data(u64),
    /// `RLIMIT_AS` in bytes: the whole address space.
    AddressSpace(u64),
}

/// The limits a run of the binary gets; no limit unless one is set.
#[derive(Clone, Copy, Default)]
pub struct Limited {
    memory: Option<Memory>,
    /// `RLIMIT_CPU` in seconds.
    cpu_s: Option<u64>,
    /// `RLIMIT_FSIZE` in bytes: a write past it fails (or kills the process with `SIGXFSZ`).
    file_size: Option<u64>,
    /// Ignore `SIGXFSZ`, so writes past `file_size` fail with `EFBIG` instead of killing.
    ignore_sigxfsz: bool,
    /// The child's file-mode creation mask, when the test depends on it.
    umask: Option<libc::mode_t>,
    /// A run still going after this long is a hang: killed, and the test fails.
    watchdog: Option<Duration>,
}

impl Limited {
    pub const fn new() -> Limited {
        Limited {
            memory: None,
            cpu_s: None,
            file_size: None,
            ignore_sigxfsz: false,
            umask: None,
            watchdog: None,
        }
    }

    pub const fn memory_mb(self, mb: u64) -> Limited {
        Limited {
            memory: Some(Memory::Data(mb)),
            ..self
        }
    }

    pub const fn address_space(self, bytes: u64) -> Limited {
        Limited {
            memory: Some(Memory::AddressSpace(bytes)),
            ..self
        }
    }

    pub const fn cpu_s(self, seconds: u64) -> Limited {
        Limited {
            cpu_s: Some(seconds),
            ..self
        }
    }

    pub const fn file_size(self, bytes: u64) -> Limited {
        Limited {
            file_size: Some(bytes),
            ..self
        }
    }

    pub const fn ignore_sigxfsz(self) -> Limited {
        Limited {
            ignore_sigxfsz: true,
            ..self
        }
    }

    pub const fn umask(self, mask: libc::mode_t) -> Limited {
        Limited {
            umask: Some(mask),
            ..self
        }
    }

    pub const fn watchdog(self, after: Duration) -> Limited {
        Limited {
            watchdog: Some(after),
            ..self
        }
    }

    /// The binary in `dir` with colour off, stdin empty and these limits; stdout and stderr are
    /// the caller's to set.
    pub fn command(self, dir: &(impl AsRef<Path> + ?Sized), args: &[&str]) -> Command {
        let mut command = Command::new(env!("CARGO_BIN_EXE_discloser"));
        command
            .args(args)
            .current_dir(dir.as_ref())
            .env("NO_COLOR", "1")
            .env_remove("CLICOLOR_FORCE")
            .stdin(Stdio::null());
        // SAFETY: only async-signal-safe calls (setrlimit, signal, umask) run between fork and exec.
        unsafe {
            command.pre_exec(move || self.apply());
        }
        command
    }

    /// Runs in the child between fork and exec: async-signal-safe calls only.
    fn apply(self) -> std::io::Result<()> {
        let limit = |resource, value: u64| {
            let bound = libc::rlimit {
                rlim_cur: value as libc::rlim_t,
                rlim_max: value as libc::rlim_t,
            };
            // SAFETY: `bound` is a valid `rlimit` for the duration of the call.
            if unsafe { libc::setrlimit(resource, &bound) } == 0 {
                Ok(())
            } else {
                Err(std::io::Error::last_os_error())
            }
        };
        match self.memory {
            Some(Memory::Data(mb)) => limit(libc::RLIMIT_DATA, mb * 1024 * 1024)?,
            Some(Memory::AddressSpace(bytes)) => limit(libc::RLIMIT_AS, bytes)?,
            None => {}
        }
        if let Some(seconds) = self.cpu_s {
            limit(libc::RLIMIT_CPU, seconds)?;
        }
        if let Some(bytes) = self.file_size {
            limit(libc::RLIMIT_FSIZE, bytes)?;
        }
        // SAFETY: `signal` and `umask` are async-signal-safe and take plain values.
        unsafe {
            if self.ignore_sigxfsz {
                libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            }
            if let Some(mask) = self.umask {
                libc::umask(mask);
            }
        }
        Ok(())
    }

    /// Runs the binary in `dir`, waits (with the watchdog, if set), and measures its peak
    /// memory. Output goes to files, not pipes, so a child never blocks on a full pipe.
    #[expect(
        clippy::zombie_processes,
        reason = "the child is reaped with `wait4`, which also reports its resource usage"
    )]
    pub fn run(self, dir: &(impl AsRef<Path> + ?Sized), args: &[&str]) -> Run {
        let logs = tempfile::tempdir().expect("a temporary directory for output");
        let (out_path, err_path) = (logs.path().join("stdout"), logs.path().join("stderr"));
        let mut command = self.command(dir, args);
        command
            .stdout(std::fs::File::create(&out_path).expect("create stdout file"))
            .stderr(std::fs::File::create(&err_path).expect("create stderr file"));
        let started = Instant::now();
        let mut child = command.spawn().expect("run the discloser binary");
        let pid = child.id() as libc::pid_t;
        let (raw_status, usage) = loop {
            let mut status = 0;
            // SAFETY: `rusage` is plain data, fully written by `wait4` when it returns the pid.
            let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
            // SAFETY: waits for our own child only; `status` and `usage` are valid for writes.
            let reaped = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
            if reaped == pid {
                break (status, usage);
            }
            assert!(
                reaped == 0,
                "wait4 failed: {}",
                std::io::Error::last_os_error()
            );
            if let Some(watchdog) = self.watchdog.filter(|w| started.elapsed() > *w) {
                let _ = child.kill();
                let _ = child.wait();
                panic!(
                    "`discloser {}` hung: still running after {watchdog:?}",
                    args.join(" ")
                );
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        let elapsed = started.elapsed();
        // Linux reports `ru_maxrss` in kilobytes; an upper bound of the child's own peak (a
        // child forked from the test process starts with the parent's resident pages counted).
        let peak_mb = (usage.ru_maxrss as u64).div_ceil(1024);
        let read = |path: &Path| {
            String::from_utf8_lossy(&std::fs::read(path).unwrap_or_default()).into_owned()
        };
        let (stdout, stderr) = (read(&out_path), read(&err_path));
        eprintln!(
            "discloser {}: {:.0} ms, at most {peak_mb} MB resident",
            args.join(" "),
            elapsed.as_secs_f64() * 1000.0
        );
        let status = ExitStatus::from_raw(raw_status);
        if let Some(memory) = self.memory {
            let bound = match memory {
                Memory::Data(mb) => format!("{mb} MB"),
                Memory::AddressSpace(bytes) => format!("{bytes} bytes of address space"),
            };
            assert!(
                !stderr.contains("memory allocation of"),
                "`discloser {}` needed more than {bound}: {status}\n{stderr}",
                args.join(" ")
            );
        }
        Run {
            status,
            stdout,
            stderr,
        }
    }
}

/// What a run did.
pub struct Run {
    pub status: ExitStatus,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    pub fn first_line(&self) -> &str {
        self.stderr.lines().next().unwrap_or_default()
    }

    #[track_caller]
    pub fn expect_no_panic(&self) {
        assert!(!self.stderr.contains("panicked"), "panic:\n{}", self.stderr);
    }

    /// No panic, and exit code `code`.
    #[track_caller]
    pub fn expect_code(&self, code: i32) -> &Run {
        self.expect_no_panic();
        let shown = (0..=self.stdout.len().min(2000))
            .rev()
            .find(|&i| self.stdout.is_char_boundary(i))
            .unwrap_or_default();
        assert_eq!(
            self.status.code(),
            Some(code),
            "exit code; stdout:\n{}\nstderr:\n{}",
            &self.stdout[..shown],
            self.stderr
        );
        self
    }

    /// Exit code 2, nothing on stdout, no panic, and a first line `error: ...` containing
    /// every word.
    #[track_caller]
    pub fn expect_error(&self, words: &[&str]) {
        self.expect_error_at("", words);
    }

    /// [`Run::expect_error`], with a first line that starts `error: <location>`.
    #[track_caller]
    pub fn expect_error_at(&self, location: &str, words: &[&str]) {
        self.expect_code(2);
        assert!(self.stdout.is_empty(), "stdout: {}", self.stdout);
        let first = self.first_line();
        assert!(
            first.starts_with(&format!("error: {location}")),
            "first line should start with `error: {location}`: {first}"
        );
        for word in words {
            assert!(first.contains(word), "{first:?} should contain {word:?}");
        }
    }
}
