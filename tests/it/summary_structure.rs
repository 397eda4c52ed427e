//! Summaries cut at structure, on the Notion MCP server's 24 tools (captured with `discloser
//! pull --mcp` from `@notionhq/notion-mcp-server@2.5.2`, see
//! `tests/fixtures/lint/untyped_enum_eval/SOURCES.md`): every one of them used to render as
//! `Notion | Retrieve a user Error Responses: 400: 400`.

use crate::support::{discloser_in, root};

use discloser::lint::{Settings, lint};
use discloser::project::{Project, Strictness};

fn notion() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::copy(
        root().join("tests/fixtures/lint/untyped_enum_eval/npm_pulls/notion.json"),
        tmp.path().join("notion.json"),
    )
    .unwrap();
    std::fs::write(
        tmp.path().join("discloser.yaml"),
        "sources: [notion.json]\n",
    )
    .unwrap();
    tmp
}

#[test]
fn notion_tools_render_as_prose_without_product_or_error_responses() {
    let tmp = notion();
    let out = discloser_in(tmp.path(), &["render"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let entries: Vec<&str> = text.lines().filter(|l| l.starts_with("- API-")).collect();
    assert_eq!(entries.len(), 24, "{text}");
    for entry in &entries {
        assert!(
            !entry.contains("Notion |")
                && !entry.contains("Error Responses")
                && !entry.contains("400:"),
            "{entry}"
        );
    }
    let get_user = entries
        .iter()
        .find(|e| e.starts_with("- API-get-user("))
        .unwrap();
    assert!(get_user.ends_with(" Retrieve a user"), "{get_user}");
}

#[test]
fn boilerplate_in_summary_is_silent_on_the_notion_tools_once_packed() {
    let tmp = notion();
    let project =
        Project::load_with(&tmp.path().join("discloser.yaml"), Strictness::Lenient).unwrap();
    let settings = Settings {
        select: vec!["DL013".to_owned()],
        ..Settings::default()
    };
    let findings = lint(&project, &settings);
    assert!(findings.is_empty(), "{findings:#?}");
}
