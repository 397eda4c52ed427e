//! The positions of a JSON document's nodes, from jsonc-parser's token scanner: one pass, no
//! syntax tree (building the tree cost more than the positions it gave).

use jsonc_parser::tokens::Token;
use jsonc_parser::{Scanner, ScannerOptions};

use super::{Kids, Loc, PosNode};

enum Frame {
    Seq(usize, Vec<PosNode>),
    // The entries so far, the key waiting for its value (and whether its colon came), and
    // whether a key comes next.
    Map(
        usize,
        Vec<(String, Loc, PosNode)>,
        Option<(String, usize, bool)>,
        bool,
    ),
}

/// The positions of the nodes of `text` at most `max_depth` levels below the root (deeper
/// collections are leaves); `None` when the text does not scan as one JSON value.
pub(super) fn json_positions(text: &str, max_depth: usize) -> Option<PosNode> {
    let mut scanner = Scanner::new(text, &ScannerOptions::default());
    let mut stack: Vec<Frame> = Vec::new();
    let mut root = None;
    // How many collections are open below `max_depth`, and where the outermost began.
    let mut skipping = 0_usize;
    let mut skipped_at = 0;
    while let Some(token) = scanner.scan().ok()? {
        let at = scanner.token_start();
        if skipping > 0 {
            match token {
                Token::OpenBrace | Token::OpenBracket => skipping += 1,
                Token::CloseBrace | Token::CloseBracket => skipping -= 1,
                _ => {}
            }
            if skipping == 0 {
                deliver(&mut stack, &mut root, leaf(skipped_at))?;
            }
            continue;
        }
        if let Some(Frame::Map(_, _, pending @ None, expect_key @ true)) = stack.last_mut() {
            let key = match &token {
                Token::String(s) => Some(s.to_string()),
                // JSON5's bare keys, as jsonc-parser reads them.
                Token::Word(w) | Token::Number(w) => Some((*w).to_owned()),
                _ => None,
            };
            if let Some(key) = key {
                *pending = Some((key, at, false));
                *expect_key = false;
                continue;
            }
        }
        let node = match token {
            Token::OpenBrace | Token::OpenBracket if stack.len() >= max_depth => {
                skipping = 1;
                skipped_at = at;
                continue;
            }
            Token::OpenBrace => {
                stack.push(Frame::Map(at, Vec::new(), None, true));
                continue;
            }
            Token::OpenBracket => {
                stack.push(Frame::Seq(at, Vec::new()));
                continue;
            }
            Token::CloseBrace => match stack.pop()? {
                Frame::Map(start, entries, None, _) => PosNode {
                    at: Loc::Offset(start),
                    kids: Kids::Map(entries),
                },
                _ => return None,
            },
            Token::CloseBracket => match stack.pop()? {
                Frame::Seq(start, items) => PosNode {
                    at: Loc::Offset(start),
                    kids: Kids::Seq(items),
                },
                Frame::Map(..) => return None,
            },
            Token::Comma => {
                match stack.last_mut() {
                    Some(Frame::Map(_, _, None, expect_key @ false)) => *expect_key = true,
                    Some(Frame::Seq(..)) => {}
                    _ => return None,
                }
                continue;
            }
            Token::Colon => match stack.last_mut() {
                Some(Frame::Map(_, _, Some((_, _, colon @ false)), _)) => {
                    *colon = true;
                    continue;
                }
                _ => return None,
            },
            Token::CommentLine(_) | Token::CommentBlock(_) => continue,
            Token::String(_)
            | Token::Word(_)
            | Token::Number(_)
            | Token::Boolean(_)
            | Token::Null => leaf(at),
        };
        deliver(&mut stack, &mut root, node)?;
    }
    if stack.is_empty() && skipping == 0 {
        root
    } else {
        None
    }
}

fn leaf(at: usize) -> PosNode {
    PosNode {
        at: Loc::Offset(at),
        kids: Kids::Leaf,
    }
}

/// Hands a finished node to the enclosing collection, or makes it the root; `None` when the
/// text is not one JSON value.
fn deliver(stack: &mut [Frame], root: &mut Option<PosNode>, node: PosNode) -> Option<()> {
    match stack.last_mut() {
        None if root.is_none() => *root = Some(node),
        None => return None,
        Some(Frame::Seq(_, items)) => items.push(node),
        Some(Frame::Map(_, entries, pending, _)) => {
            let (key, key_at, true) = pending.take()? else {
                return None;
            };
            entries.push((key, Loc::Offset(key_at), node));
        }
    }
    Some(())
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// The positions jsonc-parser's syntax tree gives: the reference.
    fn ast_positions(text: &str) -> Option<PosNode> {
        use jsonc_parser::ast::Value as J;
        use jsonc_parser::common::Ranged;
        fn build(node: &J<'_>) -> PosNode {
            let kids = match node {
                J::Object(obj) => Kids::Map(
                    obj.properties
                        .iter()
                        .map(|p| {
                            (
                                p.name.as_str().to_owned(),
                                Loc::Offset(p.name.range().start),
                                build(&p.value),
                            )
                        })
                        .collect(),
                ),
                J::Array(arr) => Kids::Seq(arr.elements.iter().map(build).collect()),
                _ => Kids::Leaf,
            };
            PosNode {
                at: Loc::Offset(node.range().start),
                kids,
            }
        }
        let collect = jsonc_parser::CollectOptions::default();
        let parsed =
            jsonc_parser::parse_to_ast(text, &collect, &jsonc_parser::ParseOptions::default())
                .ok()?;
        parsed.value.as_ref().map(build)
    }

    /// `node` with everything more than `depth` levels below it made a leaf.
    pub(crate) fn truncated(node: &PosNode, depth: usize) -> PosNode {
        let kids = match &node.kids {
            _ if depth == 0 => Kids::Leaf,
            Kids::Leaf => Kids::Leaf,
            Kids::Seq(items) => Kids::Seq(items.iter().map(|n| truncated(n, depth - 1)).collect()),
            Kids::Map(entries) => Kids::Map(
                entries
                    .iter()
                    .map(|(k, at, n)| (k.clone(), *at, truncated(n, depth - 1)))
                    .collect(),
            ),
        };
        PosNode { at: node.at, kids }
    }

    /// `../shared/corpora` beside the checkout (relative to the repository): real catalogs, not
    /// in the repository. The tests that read it are `#[ignore]`d (`.ci/run` runs them) and fail
    /// here when it is missing, rather than pass without looking.
    pub(crate) fn shared_corpora() -> &'static str {
        let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
        let dir = root.join("../shared/corpora");
        assert!(
            dir.is_dir(),
            "the shared corpora are expected beside the checkout at `{}`: this test is ignored by a plain `cargo test`; run the ignored tests where ../shared/corpora exists (as .ci/run does)",
            dir.display()
        );
        "../shared/corpora"
    }

    /// Every file under `dirs` (relative to the repository) whose extension is one of
    /// `extensions`.
    pub(crate) fn files(dirs: &[&str], extensions: &[&str]) -> Vec<std::path::PathBuf> {
        let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
        let mut found = Vec::new();
        let mut stack: Vec<_> = dirs.iter().map(|d| root.join(d)).collect();
        while let Some(dir) = stack.pop() {
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            for entry in entries.flatten() {
                let path = entry.path();
                if path.is_dir() {
                    stack.push(path);
                } else if path
                    .extension()
                    .and_then(|e| e.to_str())
                    .is_some_and(|e| extensions.contains(&e))
                {
                    found.push(path);
                }
            }
        }
        found.sort();
        found
    }

    /// Every JSON file under `dirs` that jsonc-parser reads (at least `at_least` of them): the
    /// positions from tokens are the syntax tree's, whole and cut at every depth.
    fn assert_positions_equal_syntax_tree_positions(dirs: &[&str], at_least: usize) {
        let files = files(dirs, &["json", "snap"]);
        let mut compared = 0;
        for path in &files {
            let Ok(text) = std::fs::read_to_string(path) else {
                continue;
            };
            let reference = ast_positions(&text);
            let scanned = json_positions(&text, usize::MAX);
            if reference.is_none() {
                continue;
            }
            compared += 1;
            let reference = reference.unwrap();
            let same = format!("{:?}", scanned.as_ref()) == format!("{:?}", Some(&reference));
            assert!(same, "{} differs", path.display());
            for depth in 0..3 {
                let same = format!("{:?}", json_positions(&text, depth))
                    == format!("{:?}", Some(truncated(&reference, depth)));
                assert!(same, "{} differs at depth {depth}", path.display());
            }
        }
        assert!(
            compared >= at_least,
            "only {compared} JSON files under {dirs:?}"
        );
    }

    #[test]
    #[ignore = "needs ../shared/corpora beside the checkout (.ci/run runs it)"]
    fn token_positions_equal_syntax_tree_positions_on_the_shared_corpora() {
        assert_positions_equal_syntax_tree_positions(&[shared_corpora()], 100);
    }

    #[test]
    fn token_positions_equal_syntax_tree_positions() {
        // The repository's fixtures, among them `tests/fixtures/corpus/`, a miniature of the
        // shared corpora.
        assert_positions_equal_syntax_tree_positions(&["tests", "examples"], 30);
        for odd in [
            "",
            "[",
            "{\"a\" 1}",
            "[1,]",
            "{\"a\": 1,}",
            "// c\n{a: 1}",
            "1 2",
            "}",
        ] {
            assert_eq!(
                format!("{:?}", json_positions(odd, usize::MAX)),
                format!("{:?}", ast_positions(odd)),
                "{odd:?}"
            );
        }
    }
}
