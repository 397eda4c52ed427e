//! Synthetic tool catalogs of any size with realistic shapes, for benchmarks and scale tests.
//!
//! Shared by `examples/gen_catalog.rs` (which writes a project to disk), `benches/scale.rs` and
//! the tests, through `#[path]`. The output depends only on `(n, seed)`: a small xorshift
//! generator, no `rand`, no clock.
//!
//! What a catalog looks like, modelled on the shared corpora (MCP servers, BFCL, Docker's
//! catalog): tools grouped into servers of 40 tools, one file per server, written as native YAML,
//! native JSON or an MCP `tools/list` result in turn; names `verb_noun_N`; descriptions of one
//! to eight sentences (one in six in Chinese, one in eight with a Google-style `Args:` section,
//! a few over 1,000 characters); 0-8 parameters of every JSON type, with enums of 2-12 values
//! (sometimes 60+), nested objects, arrays of enums, nullable `anyOf`s and `$ref`s to `$defs`;
//! 0-6 triggers mixing English and Chinese; one tool in 50 `core`.

#![allow(dead_code)]

use std::path::Path;

use serde_json::{Map, Value, json};

/// Tools per generated file (one "server").
pub const TOOLS_PER_FILE: usize = 40;

/// A deterministic xorshift64* generator.
pub struct Rng(u64);

impl Rng {
    /// A generator for `seed` (any value, 0 included).
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// True one time in `n`.
    pub fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }

    /// One element of `items`.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

const VERBS: &[&str] = &[
    "get",
    "list",
    "create",
    "update",
    "delete",
    "search",
    "fetch",
    "send",
    "upload",
    "render",
    "query",
    "book",
    "cancel",
    "export",
    "import",
    "sync",
    "check",
    "draw",
    "translate",
    "run",
];

const NOUNS: &[&str] = &[
    "issue",
    "file",
    "page",
    "order",
    "invoice",
    "user",
    "repo",
    "chart",
    "event",
    "message",
    "ticket",
    "report",
    "dataset",
    "image",
    "appointment",
    "payment",
    "document",
    "branch",
    "comment",
    "workflow",
    "record",
    "table",
    "query",
    "note",
];

const EN_SENTENCES: &[&str] = &[
    "Returns the matching records as a JSON list.",
    "Use this when the user asks about the current state of an object, e.g. an order or a ticket.",
    "The result is paginated; pass the cursor from the previous call to continue.",
    "Requires an authenticated session with write access to the workspace.",
    "Dates are ISO 8601 strings in UTC, i.e. 2024-05-01T12:00:00Z.",
    "Call it before answering from memory, because the data changes often.",
    "Large results are truncated to the first 100 items.",
    "The operation is idempotent and safe to retry.",
    "Dr. Smith's team maintains the underlying U.S. registry.",
    "Only the fields listed in `fields` are returned, which keeps responses small.",
    "Errors are reported with a machine-readable code and a human-readable message.",
    "See client.Get for the low-level equivalent.",
    "Supports filters such as status, owner and label.",
];

const ZH_SENTENCES: &[&str] = &[
    "查询订单的当前办理进度。",
    "取内置长指南全文，据全文作答。",
    "用户询问费用时调用，不要凭记忆回答！",
    "结果按时间倒序排列。",
    "支持中文和英文关键词。",
    "需要先完成实名认证？",
];

const TRIGGERS: &[&str] = &[
    "chart",
    "plot",
    "invoice",
    "book a slot",
    "refund",
    "status",
    "upload",
    "search",
    "查询",
    "预约",
    "图表",
    "进度",
    "发票",
    "上传",
    "退款",
    "weather",
    "translate",
    "schedule",
    "report",
];

const ENUM_WORDS: &[&str] = &[
    "asc",
    "desc",
    "open",
    "closed",
    "all",
    "draft",
    "merged",
    "bar",
    "line",
    "pie",
    "daily",
    "weekly",
    "monthly",
    "low",
    "medium",
    "high",
    "json",
    "csv",
    "markdown",
    "self_register",
    "tax_filing",
    "business_plan",
    "+1",
    "-1",
    "v1.2",
];

const PARAM_NAMES: &[&str] = &[
    "query", "owner", "repo", "state", "sort", "page", "per_page", "since", "format", "kind",
    "limit", "id", "title", "body", "labels", "date", "office", "amount", "currency", "options",
];

/// The name of tool `i` (unique per `i`).
pub fn tool_name(rng: &mut Rng, i: usize) -> String {
    format!("{}_{}_{i}", rng.pick(VERBS), rng.pick(NOUNS))
}

fn description(rng: &mut Rng) -> String {
    let chinese = rng.one_in(6);
    let sentences = if rng.one_in(40) {
        20 + rng.below(20)
    } else {
        1 + rng.below(8)
    };
    let mut out = String::new();
    for s in 0..sentences {
        if chinese {
            out.push_str(rng.pick::<&str>(ZH_SENTENCES));
        } else {
            if s > 0 {
                out.push(if rng.one_in(5) { '\n' } else { ' ' });
            }
            out.push_str(rng.pick::<&str>(EN_SENTENCES));
        }
    }
    if rng.one_in(8) {
        out.push_str("\n\nArgs:\n    query: what to look for.\n    limit: how many results.\n");
    }
    out
}

fn enum_values(rng: &mut Rng) -> Vec<Value> {
    let n = if rng.one_in(30) {
        60 + rng.below(60)
    } else {
        2 + rng.below(11)
    };
    (0..n)
        .map(|k| {
            let word = ENUM_WORDS[(k + rng.below(3)) % ENUM_WORDS.len()];
            if n > ENUM_WORDS.len() {
                json!(format!("{word}_{k}"))
            } else {
                json!(format!(
                    "{word}{}",
                    if k >= ENUM_WORDS.len() { "x" } else { "" }
                ))
            }
        })
        .fold(Vec::new(), |mut acc: Vec<Value>, v| {
            if !acc.contains(&v) {
                acc.push(v);
            }
            acc
        })
}

fn property(rng: &mut Rng, depth: usize, defs: &mut Map<String, Value>) -> Value {
    match rng.below(if depth == 0 { 10 } else { 7 }) {
        0 | 1 => json!({"type": "string", "description": "A free-text value."}),
        2 => json!({"type": "integer", "minimum": 1, "maximum": 100}),
        3 => json!({"type": "boolean", "default": false}),
        4 => json!({"type": "string", "enum": enum_values(rng)}),
        5 => json!({"type": "array", "items": {"type": "string"}}),
        6 => json!({"anyOf": [{"type": "string"}, {"type": "null"}], "default": null}),
        7 => {
            let name = format!("Kind{}", defs.len());
            defs.insert(
                name.clone(),
                json!({"type": "string", "enum": enum_values(rng)}),
            );
            json!({"$ref": format!("#/$defs/{name}")})
        }
        8 => json!({"type": "array", "items": {"type": "string", "enum": enum_values(rng)}}),
        _ => {
            let mut props = Map::new();
            for _ in 0..1 + rng.below(4) {
                props.insert(
                    (*rng.pick(PARAM_NAMES)).to_owned(),
                    property(rng, depth + 1, defs),
                );
            }
            json!({"type": "object", "properties": props})
        }
    }
}

fn parameters(rng: &mut Rng) -> Value {
    let mut props = Map::new();
    let mut defs = Map::new();
    for _ in 0..rng.below(9) {
        let name = (*rng.pick(PARAM_NAMES)).to_owned();
        let value = property(rng, 0, &mut defs);
        props.insert(name, value);
    }
    let required: Vec<&String> = props.keys().filter(|_| rng.one_in(2)).collect();
    let required = json!(required);
    let mut schema = Map::new();
    schema.insert("type".into(), json!("object"));
    schema.insert("properties".into(), Value::Object(props));
    schema.insert("required".into(), required);
    if !defs.is_empty() {
        schema.insert("$defs".into(), Value::Object(defs));
    }
    Value::Object(schema)
}

/// Tool `i` of the catalog of `seed`, in discloser's native shape.
pub fn native_tool(seed: u64, i: usize) -> Value {
    let mut rng = Rng::new(seed ^ (i as u64).wrapping_mul(0xA24B_AED4_963E_E407));
    let name = tool_name(&mut rng, i);
    let description = description(&mut rng);
    let triggers: Vec<&str> = (0..rng.below(7)).map(|_| *rng.pick(TRIGGERS)).collect();
    let core = rng.one_in(50);
    let parameters = parameters(&mut rng);
    let mut tool = Map::new();
    tool.insert("name".into(), json!(name));
    tool.insert("description".into(), json!(description));
    tool.insert("triggers".into(), json!(triggers));
    if core {
        tool.insert("core".into(), json!(true));
    }
    tool.insert("parameters".into(), parameters);
    Value::Object(tool)
}

/// The same tool as MCP writes it (no triggers, `inputSchema`).
fn mcp_tool(native: &Value) -> Value {
    json!({
        "name": native["name"],
        "description": native["description"],
        "inputSchema": native["parameters"],
    })
}

/// The files of a catalog of `n` tools: `(path relative to the project, text)`.
pub fn files(n: usize, seed: u64) -> Vec<(String, String)> {
    files_in(n, seed, false)
}

/// [`files`], or with `all_json` the same tools with the YAML third written as native JSON
/// (the same lists, the same names): the catalog the JSON parse floor reads
/// (`examples/parse_floor.rs`), for comparing `render` with serde_json on identical files.
pub fn files_in(n: usize, seed: u64, all_json: bool) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut file = 0;
    while start < n {
        let end = (start + TOOLS_PER_FILE).min(n);
        let tools: Vec<Value> = (start..end).map(|i| native_tool(seed, i)).collect();
        let (path, text) = match file % 3 {
            0 if all_json => (
                format!("tools/server{file:05}.json"),
                serde_json::to_string_pretty(&Value::Array(tools)).expect("JSON serialises"),
            ),
            0 => (
                format!("tools/server{file:05}.yaml"),
                discloser::catalog::formats::yaml::document(&Value::Array(tools)),
            ),
            1 => (
                format!("tools/server{file:05}.json"),
                serde_json::to_string_pretty(&Value::Array(tools)).expect("JSON serialises"),
            ),
            _ => {
                let list: Vec<Value> = tools.iter().map(mcp_tool).collect();
                (
                    format!("tools/server{file:05}.json"),
                    serde_json::to_string_pretty(&json!({"tools": list})).expect("serialises"),
                )
            }
        };
        out.push((path, text));
        start = end;
        file += 1;
    }
    out
}

/// A `discloser.yaml` for a generated catalog: three profiles binding a few tools each.
pub fn config(n: usize, seed: u64) -> String {
    let names: Vec<String> = (0..n.min(8))
        .map(|i| {
            native_tool(seed, i)["name"]
                .as_str()
                .unwrap_or("")
                .to_owned()
        })
        .collect();
    let list = |from: usize, to: usize| -> String {
        let picked = names.get(from..to.min(names.len())).unwrap_or(&[]);
        format!("[{}]", picked.join(", "))
    };
    format!(
        "sources:\n  - tools\nindex:\n  summary_budget: 120\n  max_enum_values: 20\n\
         profiles:\n  default:\n    starter: {}\n  support:\n    extends: default\n    add: {}\n\
         \x20 minimal:\n    starter: []\n",
        list(0, 5),
        list(5, 8),
    )
}

/// Writes a whole project (config and tool files) for `n` tools into `dir`.
pub fn write_project(dir: &Path, n: usize, seed: u64) -> std::io::Result<()> {
    write_project_in(dir, n, seed, false)
}

/// [`write_project`], every file JSON when `all_json` (see [`files_in`]).
pub fn write_project_in(dir: &Path, n: usize, seed: u64, all_json: bool) -> std::io::Result<()> {
    std::fs::create_dir_all(dir.join("tools"))?;
    std::fs::write(dir.join("discloser.yaml"), config(n, seed))?;
    for (path, text) in files_in(n, seed, all_json) {
        std::fs::write(dir.join(path), text)?;
    }
    Ok(())
}

/// Every `tools.json` of the shared corpora (`corpora`, i.e. `../shared/corpora`) concatenated
/// into `dir/tools.json`, keeping the first tool of each name (the unions repeat names across
/// catalogs, which one catalog may not), with a `discloser.yaml` loading it.
pub fn write_corpora(corpora: &Path, dir: &Path) -> std::io::Result<usize> {
    let mut folders: Vec<std::path::PathBuf> = std::fs::read_dir(corpora)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("tools.json").is_file())
        .collect();
    folders.sort();
    let mut seen = std::collections::BTreeSet::new();
    let mut tools = Vec::new();
    for folder in folders {
        let text = std::fs::read_to_string(folder.join("tools.json"))?;
        let list: Vec<Value> = serde_json::from_str(&text)?;
        for tool in list {
            let name = tool["name"].as_str().unwrap_or_default().to_owned();
            if seen.insert(name) {
                tools.push(tool);
            }
        }
    }
    std::fs::create_dir_all(dir)?;
    std::fs::write(
        dir.join("tools.json"),
        serde_json::to_string_pretty(&tools).expect("JSON serialises"),
    )?;
    std::fs::write(dir.join("discloser.yaml"), "sources:\n  - tools.json\n")?;
    Ok(tools.len())
}
