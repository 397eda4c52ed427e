//! Table, Markdown and JSON renderings of the runtime reports. Every rendering ends with one
//! newline, has no trailing spaces, and depends only on the report.

use discloser_core::numfmt::{percent1, thousands};
use discloser_core::printable::neutralise;
use discloser_core::project::Profile;
use discloser_runtime::Format;
use discloser_runtime::reach::ReachReport;
use discloser_runtime::search::Hit;
use discloser_runtime::suggest::{Placement, Suggestion};
use discloser_runtime::trace::Summary;
use discloser_runtime::trigger_words::TriggerReport;
use serde::Serialize;

/// A number with one decimal and thousands separators: `3050.25` -> `3,050.3`.
fn decimal1(x: f64) -> String {
    let tenths = (x * 10.0).round() as i64;
    let sign = if tenths < 0 { "-" } else { "" };
    format!(
        "{sign}{}.{}",
        thousands((tenths / 10).abs()),
        (tenths % 10).abs()
    )
}

/// A table: UTF-8 box drawing, or Markdown; columns in `right` right-aligned; lines trimmed.
fn table(header: &[String], rows: &[Vec<String>], format: Format, right: &[usize]) -> String {
    crate::table::render(header, rows, format == Format::Markdown, right)
}

/// Text as inline code in Markdown (`` `text` ``), as is in a plain table; its control
/// characters shown (names come from catalogs and traces).
fn code_span(md: bool) -> impl Fn(&str) -> String {
    move |text| {
        let text = neutralise(text);
        if md {
            format!("`{text}`")
        } else {
            text.into_owned()
        }
    }
}

fn json<T: Serialize>(value: &T) -> String {
    let mut out =
        serde_json::to_string_pretty(value).expect("reports hold only strings, numbers and lists");
    out.push('\n');
    out
}

fn strings(header: &[&str]) -> Vec<String> {
    header.iter().map(|h| (*h).to_owned()).collect()
}

/// Joins lines into a text with one trailing newline. The reports quote names and messages
/// from catalogs and traces: every control character but the line feeds is shown.
fn finish(lines: Vec<String>) -> String {
    let mut text = lines
        .iter()
        .flat_map(|line| line.split('\n'))
        .map(|part| neutralise(part).into_owned())
        .collect::<Vec<_>>()
        .join("\n");
    while text.ends_with('\n') {
        text.pop();
    }
    text.push('\n');
    text
}

// ---------------------------------------------------------------------------------- search --

#[derive(Serialize)]
struct SearchJson<'a> {
    query: &'a str,
    profile: &'a str,
    hits: Vec<HitJson<'a>>,
}

#[derive(Serialize)]
struct HitJson<'a> {
    rank: usize,
    name: &'a str,
    state: &'static str,
    score: u32,
    matched: &'a discloser_runtime::search::Matched,
}

/// `discloser search`: the hits, with each tool's state in the profile.
pub fn render_search(query: &str, hits: &[Hit], profile: &Profile, format: Format) -> String {
    let state = |name: &str| {
        if profile.is_bound(name) {
            "bound"
        } else {
            "indexed"
        }
    };
    if format == Format::Json {
        return json(&SearchJson {
            query,
            profile: &profile.name,
            hits: hits
                .iter()
                .map(|h| HitJson {
                    rank: h.rank,
                    name: &h.name,
                    state: state(&h.name),
                    score: h.score,
                    matched: &h.matched,
                })
                .collect(),
        });
    }
    if hits.is_empty() {
        return format!("no tool matches `{}`\n", neutralise(query));
    }
    let rows: Vec<Vec<String>> = hits
        .iter()
        .map(|h| {
            vec![
                h.rank.to_string(),
                h.name.clone(),
                state(&h.name).to_owned(),
                h.score.to_string(),
                matched_text(&h.matched),
            ]
        })
        .collect();
    table(
        &strings(&["rank", "tool", "state", "score", "matched"]),
        &rows,
        format,
        &[0, 3],
    )
}

fn matched_text(m: &discloser_runtime::search::Matched) -> String {
    let parts = [
        ("triggers", &m.triggers),
        ("trigger words", &m.trigger_words),
        ("name", &m.name_parts),
        ("description", &m.description_words),
    ];
    parts
        .iter()
        .filter(|(_, words)| !words.is_empty())
        .map(|(label, words)| format!("{label}: {}", words.join(", ")))
        .collect::<Vec<_>>()
        .join("; ")
}

// ----------------------------------------------------------------------------------- trace --

/// `discloser trace`: the summary.
pub fn render_trace(summary: &Summary, format: Format) -> String {
    match format {
        Format::Json => json(summary),
        Format::Table | Format::Markdown => trace_text(summary, format),
    }
}

fn trace_text(s: &Summary, format: Format) -> String {
    let md = format == Format::Markdown;
    let code = code_span(md);
    let mut lines = Vec::new();
    let item = |label: &str, text: String| {
        if md {
            format!("- **{label}:** {text}")
        } else {
            format!("{label}: {text}")
        }
    };
    if md {
        lines.push("## Tool trace".to_owned());
        lines.push(String::new());
    }
    lines.push(item(
        "turns",
        format!(
            "{} in {} {} ({})",
            thousands(s.turns as i64),
            s.sessions,
            if s.sessions == 1 {
                "session"
            } else {
                "sessions"
            },
            s.files
                .iter()
                .map(|f| code(f))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    ));
    let o = &s.origins;
    let mut calls = format!(
        "{}: bound {}, catalog {}, search {}, unknown {}",
        thousands(s.calls as i64),
        o.bound,
        o.catalog,
        o.search,
        o.unknown
    );
    if o.unclassified > 0 {
        calls.push_str(&format!(", no origin {}", o.unclassified));
    }
    if s.classified > 0 {
        calls.push_str(&format!(
            " ({} origins assigned by --classify)",
            s.classified
        ));
    }
    lines.push(item("tool calls", calls));
    lines.push(item(
        "turns with a catalog call",
        format!(
            "{} of {} ({}): the model called an unbound tool by name from the index",
            s.turns_with_catalog,
            s.turns,
            percent1(s.turns_with_catalog_percent / 100.0)
        ),
    ));
    if let Some(tokens) = s.mean_input_tokens {
        lines.push(item("mean input tokens per turn", decimal1(tokens)));
    }
    if let Some(ms) = s.mean_latency_ms {
        lines.push(item("mean latency", format!("{} ms", decimal1(ms))));
    }
    if o.unclassified > 0 {
        lines.push(String::new());
        lines.push(format!(
            "note: {} {} no recorded origin; run with `--classify` to assign them",
            o.unclassified,
            if o.unclassified == 1 {
                "call has"
            } else {
                "calls have"
            }
        ));
    }
    lines.push(String::new());
    if md {
        lines.push("### Tools".to_owned());
        lines.push(String::new());
    }
    let header = strings(&[
        "tool",
        "calls",
        "turns",
        "share of turns",
        "bound",
        "catalog",
        "search",
        "first calls unbound",
        "failed",
    ]);
    let rows: Vec<Vec<String>> = s
        .tools
        .iter()
        .map(|t| {
            vec![
                t.name.clone(),
                t.calls.to_string(),
                t.turns.to_string(),
                percent1(t.turn_percent / 100.0),
                t.origins.bound.to_string(),
                t.origins.catalog.to_string(),
                t.origins.search.to_string(),
                t.unbound_first_calls.to_string(),
                t.first_call_failures.to_string(),
            ]
        })
        .collect();
    lines.push(
        table(&header, &rows, format, &[1, 2, 3, 4, 5, 6, 7, 8])
            .trim_end()
            .to_owned(),
    );
    section(
        &mut lines,
        md,
        "First-call failures",
        "unbound tools whose first call in a turn failed: the index line did not say enough",
        s.first_call_failures
            .iter()
            .map(|f| {
                format!(
                    "{}: {} ({}): {}",
                    f.at,
                    code(&f.tool),
                    f.origin,
                    f.errors.join("; ")
                )
            })
            .collect(),
    );
    section(
        &mut lines,
        md,
        "Unknown names",
        "names the model invented: the index entries of the nearest real tools may be unclear",
        s.unknown
            .iter()
            .map(|u| {
                let nearest = if u.nearest.is_empty() {
                    "no catalog tool is close".to_owned()
                } else {
                    u.nearest
                        .iter()
                        .map(|n| nearest_text(n, &code))
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                format!(
                    "{}: {} {}, first at {}; nearest: {nearest}",
                    code(&u.name),
                    u.calls,
                    if u.calls == 1 { "call" } else { "calls" },
                    u.first_at
                )
            })
            .collect(),
    );
    section(
        &mut lines,
        md,
        "Contradicted origins",
        "recorded origins the catalog contradicts",
        s.contradictions
            .iter()
            .map(|c| format!("{}: {}", c.at, c.message))
            .collect(),
    );
    finish(lines)
}

fn nearest_text(n: &discloser_runtime::Nearest, code: &dyn Fn(&str) -> String) -> String {
    let mut why = vec![format!("edit distance {}", n.distance)];
    if !n.shared_words.is_empty() {
        why.push(format!("shares {}", n.shared_words.join(", ")));
    }
    format!("{} ({})", code(&n.name), why.join("; "))
}

fn section(lines: &mut Vec<String>, md: bool, title: &str, explanation: &str, items: Vec<String>) {
    if items.is_empty() {
        return;
    }
    lines.push(String::new());
    if md {
        lines.push(format!("### {title}"));
        lines.push(String::new());
        lines.push(format!("{}.", capitalise(explanation)));
        lines.push(String::new());
        lines.extend(items.into_iter().map(|i| format!("- {i}")));
    } else {
        lines.push(format!("{} ({explanation}):", title.to_lowercase()));
        lines.extend(items.into_iter().map(|i| format!("  {i}")));
    }
}

fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

// ----------------------------------------------------------------------------------- reach --

/// `discloser reach`: recall, each case, the unreachable ones and the verdict.
pub fn render_reach(report: &ReachReport, format: Format) -> String {
    if format == Format::Json {
        return json(report);
    }
    let md = format == Format::Markdown;
    let mut lines = Vec::new();
    if md {
        lines.push("## Findability".to_owned());
        lines.push(String::new());
    }
    lines.push(format!(
        "{} cases, {} expected tools, profile `{}`; search reaches a tool ranked within {}",
        report.cases, report.expected, report.profile, report.search_limit
    ));
    lines.push(
        report
            .recall
            .iter()
            .map(|r| {
                let minimum = r
                    .minimum
                    .map(|m| format!(", minimum {}", percent1(m)))
                    .unwrap_or_default();
                format!(
                    "recall@{} {} ({} of {}{minimum})",
                    r.k,
                    percent1(r.recall),
                    r.found,
                    report.expected
                )
            })
            .collect::<Vec<_>>()
            .join("; "),
    );
    lines.push(String::new());
    let mut rows = Vec::new();
    for (i, case) in report.results.iter().enumerate() {
        for tool in &case.tools {
            rows.push(vec![
                (i + 1).to_string(),
                case.utterance.clone(),
                tool.tool.clone(),
                if tool.reached() {
                    tool.paths.join(", ")
                } else {
                    "UNREACHABLE".to_owned()
                },
                tool.search_rank.map_or("-".to_owned(), |r| r.to_string()),
                tool.index_words.join(", "),
            ]);
        }
    }
    lines.push(
        table(
            &strings(&[
                "case",
                "utterance",
                "tool",
                "reached by",
                "search rank",
                "index words",
            ]),
            &rows,
            format,
            &[0, 4],
        )
        .trim_end()
        .to_owned(),
    );
    let unreachable: Vec<String> = report
        .results
        .iter()
        .filter(|c| !c.reachable())
        .flat_map(|c| {
            c.tools.iter().filter(|t| !t.reached()).map(move |t| {
                let search = match t.search_rank {
                    Some(rank) => format!("search ranks it {rank}"),
                    None => "search does not find it".to_owned(),
                };
                format!(
                    "{}: {:?} -> {}: not bound, no trigger or name word of its index entry in the utterance, {search}",
                    c.at, c.utterance, t.tool
                )
            })
        })
        .collect();
    section(
        &mut lines,
        md,
        "Unreachable",
        "no path leads from the utterance to the tool",
        unreachable,
    );
    lines.push(String::new());
    if report.failures.is_empty() {
        lines.push("ok: every gate passes".to_owned());
    } else {
        for failure in &report.failures {
            lines.push(format!("fail: {failure}"));
        }
    }
    finish(lines)
}

// --------------------------------------------------------------------------------- suggest --

/// `discloser suggest`: the suggested set, the two sets' expected tokens, one line per tool.
pub fn render_suggestion(s: &Suggestion, files: &[String], format: Format) -> String {
    if format == Format::Json {
        return json(s);
    }
    let md = format == Format::Markdown;
    let code = code_span(md);
    let mut lines = Vec::new();
    if md {
        lines.push("## Suggested starter set".to_owned());
        lines.push(String::new());
    }
    let source = match s.round_trip_source {
        "trace" => "the mean input tokens per turn",
        _ => "--round-trip",
    };
    lines.push(format!(
        "profile `{}`: {} turns of {}; a round trip costs {} tokens ({source}); pooled first-call failure rate {}",
        s.profile,
        s.turns,
        files.iter().map(|f| code(f)).collect::<Vec<_>>().join(", "),
        thousands(s.round_trip as i64),
        percent1(s.pooled_failure_rate)
    ));
    let core: Vec<String> = s
        .tools
        .iter()
        .filter(|t| t.core)
        .map(|t| code(&t.tool))
        .collect();
    let mut starter = if s.starter.is_empty() {
        "(none)".to_owned()
    } else {
        s.starter
            .iter()
            .map(|t| code(t))
            .collect::<Vec<_>>()
            .join(", ")
    };
    if !core.is_empty() {
        starter.push_str(&format!(" (plus core: {})", core.join(", ")));
    }
    lines.push(format!("suggested starter set: {starter}"));
    lines.push(String::new());
    let label = s.tokenizer.label();
    let header = vec![
        "configuration".to_owned(),
        "bound".to_owned(),
        "indexed".to_owned(),
        format!("definition tokens ({label})"),
        "expected round-trip tokens".to_owned(),
        "expected tokens per turn".to_owned(),
    ];
    let rows: Vec<Vec<String>> = s
        .sets
        .iter()
        .map(|c| {
            vec![
                c.name.clone(),
                c.bound.to_string(),
                c.indexed.to_string(),
                thousands(c.definition_tokens as i64),
                decimal1(c.round_trip_tokens),
                decimal1(c.expected_tokens),
            ]
        })
        .collect();
    lines.push(
        table(&header, &rows, format, &[1, 2, 3, 4, 5])
            .trim_end()
            .to_owned(),
    );
    lines.push(String::new());
    if md {
        lines.push("### Placement".to_owned());
        lines.push(String::new());
    }
    for t in &s.tools {
        let (mark, verdict) = match (t.current, t.suggested) {
            (Placement::Indexed, Placement::Bound) => ("+", "indexed -> bound".to_owned()),
            (Placement::Bound, Placement::Indexed) => ("-", "bound -> indexed".to_owned()),
            (_, placement) => ("=", format!("stays {}", placement.as_str())),
        };
        lines.push(if md {
            format!("- {}: **{verdict}**: {}", code(&t.tool), t.reason)
        } else {
            format!("{mark} {}: {verdict}: {}", t.tool, t.reason)
        });
    }
    if let Some(w) = &s.written {
        lines.push(String::new());
        lines.push(format!(
            "wrote profile {} to {}; compare: discloser cost -p {} -p {}",
            code(&w.name),
            code(&w.path),
            s.profile,
            w.name
        ));
    }
    lines.push(String::new());
    lines.push(format!(
        "Cost model: bound, a tool costs its definition every turn; indexed, its index line plus, on the turns that use it, a round trip for a failed first call and for every search (u × R × (f + s)). Definitions serialised as `{}` JSON; tokens: {}.",
        s.provider.as_str(),
        label
    ));
    finish(lines)
}

/// `a, b` through `code`, or `none`.
fn word_list<'a>(words: impl Iterator<Item = &'a str>, code: &impl Fn(&str) -> String) -> String {
    let words: Vec<String> = words.map(code).collect();
    if words.is_empty() {
        "none".to_owned()
    } else {
        words.join(", ")
    }
}

/// `suggest --triggers --from-text`: every tool, its triggers today, and the candidates from
/// its own text, those its index line lacks first.
pub fn render_text_candidates(
    catalog: &crate::catalog::Catalog,
    words: &std::collections::BTreeMap<String, Vec<crate::runtime::text_candidates::TextCandidate>>,
    format: Format,
) -> String {
    if format == Format::Json {
        let tools: Vec<serde_json::Value> = catalog
            .tools
            .iter()
            .map(|t| {
                serde_json::json!({
                    "tool": t.name,
                    "triggers": t.triggers,
                    "candidates": words[&t.name],
                })
            })
            .collect();
        return json(&serde_json::json!({ "tools": tools }));
    }
    let md = format == Format::Markdown;
    let code = code_span(md);
    let mut lines = Vec::new();
    if md {
        lines.push("## Trigger candidates from the tools' own text".to_owned());
        lines.push(String::new());
    }
    lines.push("candidates from each tool's name and description (the words the other tools use least): the author's words, not the users' — keep the ones users would type".to_owned());
    for tool in &catalog.tools {
        let today = word_list(tool.triggers.iter().map(String::as_str), &code);
        let (new, known) = crate::runtime::text_candidates::split(&words[&tool.name]);
        let candidates = match (new.is_empty(), known.is_empty()) {
            (true, true) => "none".to_owned(),
            (false, true) => word_list(new.into_iter(), &code),
            (true, false) => format!(
                "none beyond its index line, which has {}",
                word_list(known.into_iter(), &code)
            ),
            (false, false) => format!(
                "{}; in its index line already: {}",
                word_list(new.into_iter(), &code),
                word_list(known.into_iter(), &code)
            ),
        };
        lines.push(String::new());
        lines.push(format!("{} (triggers today: {today})", code(&tool.name)));
        lines.push(format!(
            "{}candidates: {candidates}",
            if md { "- " } else { "  " }
        ));
    }
    let mut text = lines.join("\n");
    text.push('\n');
    text
}

/// `discloser suggest --triggers`: per tool, the proposed words with their evidence.
pub fn render_trigger_report(r: &TriggerReport, format: Format) -> String {
    if format == Format::Json {
        return json(r);
    }
    let md = format == Format::Markdown;
    let code = code_span(md);
    let mut lines = Vec::new();
    if md {
        lines.push("## Suggested trigger words".to_owned());
        lines.push(String::new());
    }
    lines.push(format!(
        "{} turns with the user's message; per tool, the words of the turns that needed it (reached unbound, a failed first call, or an invented name nearest to it), most distinctive first",
        thousands(r.turns_with_message as i64)
    ));
    for tool in &r.tools {
        lines.push(String::new());
        let triggers = word_list(tool.triggers.iter().map(String::as_str), &code);
        lines.push(format!(
            "{} ({} turns; triggers today: {triggers})",
            code(&tool.tool),
            thousands(tool.turns as i64)
        ));
        if tool.candidates.is_empty() {
            lines.push("  no word comes from two or more of its turns and few others".to_owned());
            continue;
        }
        let rows: Vec<Vec<String>> = tool
            .candidates
            .iter()
            .map(|c| {
                vec![
                    code(&c.text),
                    format!("{:.2}", c.score),
                    thousands(c.turns as i64),
                    thousands(c.other_turns as i64),
                    c.examples.join(", "),
                ]
            })
            .collect();
        let header = strings(&["word", "score", "its turns", "other turns", "examples"]);
        let table = table(&header, &rows, format, &[1, 2, 3]);
        lines.extend(table.lines().map(str::to_owned));
    }
    finish(lines)
}
