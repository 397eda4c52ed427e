//! `$ref` resolution across files: a generated graph of schema files whose `$ref`s point at
//! each other (with and without fragments, relative and up-level paths, missing files and
//! pointers, cycles), written to a scratch project and loaded. Loading never panics or hangs,
//! gives the same answer twice, and a catalog that loads renders with the index invariants.

#![no_main]

use arbitrary::{Result, Unstructured};
use discloser::project::Project;
use discloser_fuzz::{check_project, scratch_project, schema};
use libfuzzer_sys::fuzz_target;
use serde_json::{Value, json};

const FILES: &[&str] = &["schemas/a.json", "schemas/b.yaml", "schemas/sub/c.json", "tools/d.json"];

/// A `$ref` from the file at `from` to somewhere in the graph (or just outside it).
fn reference(u: &mut Unstructured<'_>, from: &str) -> Result<String> {
    let to = *u.choose(FILES)?;
    let depth = from.matches('/').count();
    let relative = match u.int_in_range(0..=4)? {
        0 => format!("{}{to}", "../".repeat(depth)),
        1 => to.rsplit('/').next().unwrap_or(to).to_owned(),
        2 => format!("./{}", to.rsplit('/').next().unwrap_or(to)),
        3 => format!("{}missing.json", "../".repeat(depth)),
        _ => format!("{}../outside.json", "../".repeat(depth)),
    };
    let fragment = match u.int_in_range(0..=4)? {
        0 => String::new(),
        1 => "#".to_owned(),
        2 => format!("#/definitions/d{}", u.int_in_range(0..=3)?),
        3 => "#/definitions".to_owned(),
        _ => format!("#/{}", u.arbitrary::<String>()?),
    };
    Ok(if u.ratio(1, 6)? {
        fragment
    } else {
        format!("{relative}{fragment}")
    })
}

/// A schema whose leaves are sometimes cross-file `$ref`s.
fn linked(u: &mut Unstructured<'_>, from: &str, depth: usize) -> Result<Value> {
    Ok(match u.int_in_range(0..=3)? {
        0 => json!({"$ref": reference(u, from)?}),
        1 if depth > 0 => json!({"type": "array", "items": linked(u, from, depth - 1)?}),
        2 if depth > 0 => {
            let a = linked(u, from, depth - 1)?;
            let b = linked(u, from, depth - 1)?;
            json!({"type": "object", "properties": {"a": a, "b": b}})
        }
        _ => schema(u, 2)?,
    })
}

fn graph(u: &mut Unstructured<'_>) -> Result<Vec<(String, String)>> {
    let mut files = vec![(
        "discloser.yaml".to_owned(),
        "sources:\n  - tools/t.json\n".to_owned(),
    )];
    for &path in FILES {
        if u.ratio(1, 5)? {
            continue;
        }
        let n = u.int_in_range(0..=3)?;
        let mut definitions = serde_json::Map::new();
        for i in 0..n {
            definitions.insert(format!("d{i}"), linked(u, path, 2)?);
        }
        let doc = json!({ "definitions": definitions });
        let text = if path.ends_with(".yaml") {
            // JSON is YAML: the YAML reader parses it, positions and all.
            serde_json::to_string_pretty(&doc)
        } else {
            serde_json::to_string(&doc)
        }
        .map_err(|_| arbitrary::Error::IncorrectFormat)?;
        files.push((path.to_owned(), text));
    }
    let properties = json!({
        "x": linked(u, "tools/t.json", 2)?,
        "y": linked(u, "tools/t.json", 1)?,
    });
    let tool = json!({
        "name": "refers",
        "description": "Refers to schemas in other files.",
        "parameters": {"type": "object", "properties": properties},
    });
    files.push(("tools/t.json".to_owned(), tool.to_string()));
    Ok(files)
}

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    let Ok(files) = graph(&mut u) else {
        return;
    };
    let dir = scratch_project(&files);
    let config = dir.join("discloser.yaml");
    let first = Project::load(&config);
    let second = Project::load(&config);
    assert_eq!(
        first.as_ref().err().map(ToString::to_string),
        second.as_ref().err().map(ToString::to_string),
        "loading is deterministic"
    );
    if let Ok(project) = first {
        check_project(&project);
    }
});
