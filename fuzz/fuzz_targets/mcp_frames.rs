//! Feeds arbitrary bytes to the MCP client as a server's answer to `tools/list`: a fake server
//! (`tests/fixtures/mcp/bad-frames-server.py replay FILE`, needs `python3`) completes the
//! handshake, then writes the bytes (`{ID}` replaced by the request's id) and exits. The client
//! must return, with the tools or an error, at once: never panic, never wait for the deadline; the tools it returns are objects with a string `name`.
//!
//! Each input starts a process, so this target runs slowly (tens of inputs a second): seed it
//! with real answers (`{"jsonrpc":"2.0","id":{ID},"result":{"tools":[]}}` and a line feed).

#![no_main]

use std::path::Path;
use std::time::Duration;

use discloser::mcp::{Server, list_tools};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let answer = dir.path().join("answer");
    std::fs::write(&answer, data).expect("write the answer");
    let script = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/mcp/bad-frames-server.py");
    let server = Server {
        command: vec![
            "python3".into(),
            script.to_string_lossy().into_owned(),
            "replay".into(),
            answer.to_string_lossy().into_owned(),
        ],
        cwd: None,
        timeout: Duration::from_secs(10),
    };
    match list_tools(&server) {
        Ok(listing) => {
            for tool in &listing.tools {
                assert!(tool.get("name").is_some_and(serde_json::Value::is_string));
            }
        }
        Err(e) => {
            let message = e.to_string();
            // The server exits after its answer, so nothing is ever waited out.
            assert!(!message.contains("did not answer"), "{message}");
        }
    }
});
