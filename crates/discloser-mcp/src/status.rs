//! The status line a pull shows on a terminal, on standard error, redrawn in place and cleared
//! when the pull ends:
//!
//! ```text
//! ⠙ MCP server initialising (MCP handshake) (27s): npx -y @modelcontextprotocol/server-everything
//! ```
//!
//! It exists only when asked for ([`crate::Progress::StatusLine`]) and standard error is a
//! terminal whose `TERM` is set and not `dumb`: into a pipe or a file, in tests and in CI, not
//! one byte is written. It has no colors, so `NO_COLOR` has nothing to turn off. The command
//! comes last and is cut at the terminal's width, so the line never wraps.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::Step;

/// The line, or nothing.
pub(crate) struct StatusLine(Option<ProgressBar>);

impl StatusLine {
    /// A status line that shows nothing.
    pub(crate) fn hidden() -> Self {
        Self(None)
    }

    /// The status line of a pull of `command` (as [`crate::shown`] gives it), on standard error
    /// when that is a terminal; it starts at "starting".
    pub(crate) fn on_stderr(command: &str) -> Self {
        if !std::io::stderr().is_terminal() {
            return Self::hidden();
        }
        let style =
            ProgressStyle::with_template("{spinner} MCP server {prefix} ({elapsed}): {wide_msg}")
                .expect("the template is valid");
        // The texts before the style, so that the first frame drawn is complete.
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr())
            .with_message(command.to_owned())
            .with_prefix("starting")
            .with_style(style);
        if bar.is_hidden() {
            return Self::hidden();
        }
        bar.enable_steady_tick(Duration::from_millis(100));
        Self(Some(bar))
    }

    /// Shows the step the pull is at.
    pub(crate) fn show(&self, step: Step) {
        if let Some(bar) = &self.0 {
            bar.set_prefix(step.doing());
        }
    }
}

impl Drop for StatusLine {
    fn drop(&mut self) {
        if let Some(bar) = &self.0 {
            bar.finish_and_clear();
        }
    }
}
