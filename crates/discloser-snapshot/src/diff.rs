//! Two versions of a catalog's model-facing files: two projects (two configs, or a git
//! revision against the working tree) or two profiles of one project.
//!
//! Each version is rendered into the files a snapshot holds (see [`super`]); the files are
//! compared byte for byte like `check` does, the per-tool summary is read from them, and the
//! token delta is the one `cost` reports for each configuration.

use serde::Serialize;

use super::changes::{ProfilePair, ProfileTexts, Summary, summarize};
use super::{Artifact, ArtifactKind, FileFacts, compare_file, profile_artifacts};
use crate::cost::{CostOptions, CostReport, Counter, Provider, TokenizerKind, cost};
use crate::diagnostic::LoadError;
use crate::project::Project;

/// One version: a project and how to name it.
#[derive(Clone, Copy, Debug)]
pub struct Version<'a> {
    /// The name shown for this version (`HEAD~1`, `working tree`, a path).
    pub label: &'a str,
    /// The loaded project.
    pub project: &'a Project,
}

/// The state of one file in the comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum DiffStatus {
    /// The same bytes.
    Identical,
    /// Different bytes.
    Changed,
    /// Only in the new version (a new profile).
    Added,
    /// Only in the old version (a removed profile).
    Removed,
}

/// One file compared.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DiffFile {
    /// The file in the old version (`<profile>/<file>`), when it exists.
    pub old_path: Option<String>,
    /// The file in the new version, when it exists.
    pub new_path: Option<String>,
    /// The outcome.
    pub status: DiffStatus,
    /// The comparison.
    #[serde(flatten)]
    pub facts: FileFacts,
}

/// The tokens of one configuration in both versions, as `cost` counts them.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TokenDelta {
    /// `all bound`, a profile, or `a -> b`.
    pub configuration: String,
    /// Tokens in the old version.
    pub old: Option<u64>,
    /// Tokens in the new version.
    pub new: Option<u64>,
    /// `new - old`.
    pub delta: Option<i64>,
    /// `delta` as a percentage of `old` (one decimal).
    pub delta_percent: Option<f64>,
}

/// The result of a diff.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DiffReport {
    /// The old version's name.
    pub old: String,
    /// The new version's name.
    pub new: String,
    /// The serialisation of definitions.
    pub provider: Provider,
    /// The tokenizer of cache figures and token deltas.
    pub tokenizer: TokenizerKind,
    /// Whether token counts are estimates.
    pub tokens_are_estimates: bool,
    /// Whether every file has the same bytes in both versions.
    pub identical: bool,
    /// What changed, per tool.
    pub summary: Summary,
    /// Every file, profile by profile (new order, then removed profiles).
    pub files: Vec<DiffFile>,
    /// Token totals per configuration.
    pub tokens: Vec<TokenDelta>,
}

/// Compares every profile of two projects.
pub fn diff_projects(
    old: Version<'_>,
    new: Version<'_>,
    provider: Provider,
    counter: &Counter,
) -> Result<DiffReport, LoadError> {
    let old_artifacts = all_artifacts(old.project, provider)?;
    let new_artifacts = all_artifacts(new.project, provider)?;
    let old_names = old.project.profile_names();
    let new_names = new.project.profile_names();
    let mut order = new_names.clone();
    order.extend(old_names.iter().filter(|n| !new_names.contains(n)).cloned());
    let kinds = [ArtifactKind::Index, ArtifactKind::Definitions(provider)];
    let mut files = Vec::new();
    let mut pairs = Vec::new();
    for profile in &order {
        let mut pair = ProfilePair {
            label: profile.clone(),
            old: ProfileTexts::default(),
            new: ProfileTexts::default(),
        };
        for kind in kinds {
            let o = find(&old_artifacts, profile, kind);
            let n = find(&new_artifacts, profile, kind);
            let path = format!("{profile}/{}", kind.file_name());
            files.push(file(
                kind,
                (o, n),
                (&path, &path),
                (Some(old.label), Some(new.label)),
                counter,
            ));
            let (o, n) = (o.map(|a| a.text.as_str()), n.map(|a| a.text.as_str()));
            match kind {
                ArtifactKind::Index => (pair.old.index, pair.new.index) = (o, n),
                ArtifactKind::Definitions(_) => {
                    (pair.old.definitions, pair.new.definitions) = (o, n);
                }
            }
        }
        pairs.push(pair);
    }
    let added: Vec<String> = new_names
        .iter()
        .filter(|n| !old_names.contains(n))
        .cloned()
        .collect();
    let removed: Vec<String> = old_names
        .iter()
        .filter(|n| !new_names.contains(n))
        .cloned()
        .collect();
    let summary = summarize(&pairs, added, removed);

    let old_cost = cost(old.project, counter, &options(provider, old_names))?;
    let new_cost = cost(new.project, counter, &options(provider, new_names))?;
    let tokens = token_deltas(&old_cost, &new_cost);
    Ok(report(
        old.label, new.label, provider, counter, summary, files, tokens,
    ))
}

/// Compares two profiles of one project: what changes for the model when the turn switches
/// from profile `old` to profile `new`.
pub fn diff_profiles(
    project: &Project,
    old: &str,
    new: &str,
    provider: Provider,
    counter: &Counter,
) -> Result<DiffReport, LoadError> {
    let (old_profile, new_profile) = (project.profile(old)?, project.profile(new)?);
    let old_artifacts = profile_artifacts(project, &old_profile, &[provider]);
    let new_artifacts = profile_artifacts(project, &new_profile, &[provider]);
    let mut files = Vec::new();
    let label = format!("{old} -> {new}");
    let mut pair = ProfilePair {
        label: label.clone(),
        old: ProfileTexts::default(),
        new: ProfileTexts::default(),
    };
    for (o, n) in old_artifacts.iter().zip(&new_artifacts) {
        let name = o.kind.file_name();
        let (old_path, new_path) = (format!("{old}/{name}"), format!("{new}/{name}"));
        files.push(file(
            o.kind,
            (Some(o), Some(n)),
            (&old_path, &new_path),
            (None, None),
            counter,
        ));
        let (ot, nt) = (Some(o.text.as_str()), Some(n.text.as_str()));
        match o.kind {
            ArtifactKind::Index => (pair.old.index, pair.new.index) = (ot, nt),
            ArtifactKind::Definitions(_) => (pair.old.definitions, pair.new.definitions) = (ot, nt),
        }
    }
    let summary = summarize(&[pair], Vec::new(), Vec::new());
    let costs = cost(
        project,
        counter,
        &options(provider, vec![old.to_owned(), new.to_owned()]),
    )?;
    let row = |name: &str| {
        costs
            .configurations
            .iter()
            .find(|c| c.name == name)
            .map(|c| c.tokens)
    };
    let tokens = vec![delta(label, row(old), row(new))];
    Ok(report(old, new, provider, counter, summary, files, tokens))
}

fn find<'a>(artifacts: &'a [Artifact], profile: &str, kind: ArtifactKind) -> Option<&'a Artifact> {
    artifacts
        .iter()
        .find(|a| a.profile == profile && a.kind == kind)
}

fn all_artifacts(project: &Project, provider: Provider) -> Result<Vec<Artifact>, LoadError> {
    let mut out = Vec::new();
    for name in project.profile_names() {
        out.extend(profile_artifacts(
            project,
            &project.profile(&name)?,
            &[provider],
        ));
    }
    Ok(out)
}

fn file(
    kind: ArtifactKind,
    (old, new): (Option<&Artifact>, Option<&Artifact>),
    (old_path, new_path): (&str, &str),
    (old_label, new_label): (Option<&str>, Option<&str>),
    counter: &Counter,
) -> DiffFile {
    let header = |path: &str, label: Option<&str>| match label {
        Some(label) => format!("{path} ({label})"),
        None => path.to_owned(),
    };
    let facts = compare_file(
        kind,
        old.map(|a| a.text.as_bytes()),
        new.map(|a| a.text.as_str()),
        (&header(old_path, old_label), &header(new_path, new_label)),
        counter,
    );
    let status = match (old, new) {
        (Some(o), Some(n)) if o.text == n.text => DiffStatus::Identical,
        (Some(_), Some(_)) => DiffStatus::Changed,
        (None, _) => DiffStatus::Added,
        (Some(_), None) => DiffStatus::Removed,
    };
    DiffFile {
        old_path: old.map(|_| old_path.to_owned()),
        new_path: new.map(|_| new_path.to_owned()),
        status,
        facts,
    }
}

fn options(provider: Provider, profiles: Vec<String>) -> CostOptions {
    CostOptions {
        provider,
        profiles,
        by_tool: false,
        turns: None,
        cache_read_discount: 1.0,
    }
}

/// Rows of both reports matched by configuration name: new order, then old-only rows.
fn token_deltas(old: &CostReport, new: &CostReport) -> Vec<TokenDelta> {
    let find = |report: &CostReport, name: &str| {
        report
            .configurations
            .iter()
            .find(|c| c.name == name)
            .map(|c| c.tokens)
    };
    let mut names: Vec<&str> = new.configurations.iter().map(|c| c.name.as_str()).collect();
    for c in &old.configurations {
        if !names.contains(&c.name.as_str()) {
            names.push(&c.name);
        }
    }
    names
        .into_iter()
        .map(|name| delta(name.to_owned(), find(old, name), find(new, name)))
        .collect()
}

fn delta(configuration: String, old: Option<u64>, new: Option<u64>) -> TokenDelta {
    let difference = match (old, new) {
        (Some(o), Some(n)) => Some(n as i64 - o as i64),
        _ => None,
    };
    let percent = match (difference, old) {
        (Some(d), Some(o)) if o > 0 => Some((d as f64 * 1000.0 / o as f64).round() / 10.0),
        (Some(_), Some(_)) => Some(0.0),
        _ => None,
    };
    TokenDelta {
        configuration,
        old,
        new,
        delta: difference,
        delta_percent: percent,
    }
}

fn report(
    old: &str,
    new: &str,
    provider: Provider,
    counter: &Counter,
    summary: Summary,
    files: Vec<DiffFile>,
    tokens: Vec<TokenDelta>,
) -> DiffReport {
    let identical = files.iter().all(|f| f.status == DiffStatus::Identical)
        && summary.profiles_added.is_empty()
        && summary.profiles_removed.is_empty();
    DiffReport {
        old: old.to_owned(),
        new: new.to_owned(),
        provider,
        tokenizer: counter.kind(),
        tokens_are_estimates: counter.kind().is_estimate(),
        identical,
        summary,
        files,
        tokens,
    }
}
