//! `untyped-enum` (DL004) measured on the labeled evaluation set in
//! `tests/fixtures/lint/untyped_enum_eval/` (741 parameters, blind labels, see its
//! `PROTOCOL.md`).
//!
//! The set is split in two by a seeded hash of each item's id: the **development** half is the
//! one the rule was tuned on (its errors are printed with `DISCLOSER_EVAL_ERRORS=1`), the
//! **held-out** half was only measured. Each item becomes one tool with the item's own schema
//! as its only parameter; the rule runs over all of them at once. An item labeled `closed` is a
//! positive; every other item (open, and declared enums, on which the rule must stay silent)
//! is a negative. Only findings that point into the parameter's schema count: the question the
//! labels answer is about the parameter's own text.
//!
//! Beside the list finder, a text model (`crates/discloser-lint/src/model`) judges parameters
//! the finder made no list of; it is trained on every round but those whose tests say
//! "unseen" (`scripts/train-enum-model.py`). A round it was trained on measures what it
//! learned, not what it would do on a writer it has not read: that is the unseen rounds' and
//! the script's leave-one-round-out report's to say.
//!
//! Print the figures:
//!
//! ```sh
//! cargo test --test it lint_eval -- --nocapture
//! ```

use std::collections::BTreeMap;

use serde_json::{Value, json};

use crate::support::root;
use discloser::lint::{Settings, lint};
use discloser::project::{Project, Strictness};

/// The seed of the split. Changing it re-deals the halves: never do it to move a figure.
const SPLIT_SEED: u64 = 0x5eed_2026_0801;

/// Round 1's floor, a little below its figures once it had become development data.
const ROUND_1_FLOOR: f64 = 0.9;

/// Floors for the held-out halves of rounds 2 and 3, a little below the figures measured when
/// the rule was last changed (round 2: precision 0.964, recall 0.844; round 3: 0.975, 0.823).
/// The goal is 0.9 for both; recall does not reach it.
const FLOOR_PRECISION: f64 = 0.94;
const FLOOR_RECALL: f64 = 0.80;

/// Floors for round 4, development data since its first measurement (precision 0.908, recall
/// 0.672): a little below its figures once the rule was worked on it (0.994, 0.960).
const ROUND_4_FLOOR_PRECISION: f64 = 0.95;
const ROUND_4_FLOOR_RECALL: f64 = 0.92;

/// Floors for round 5, development data since its first measurement (precision 0.943, recall
/// 0.829): a little below its figures once the rule was worked on it (0.984, 0.925).
const ROUND_5_FLOOR_PRECISION: f64 = 0.95;
const ROUND_5_FLOOR_RECALL: f64 = 0.89;

/// Floors for round 6, development data since its first measurement (precision 0.988, recall
/// 0.794): a little below its figures once the rule was worked on it (0.989, 0.863).
const ROUND_6_FLOOR_PRECISION: f64 = 0.95;
const ROUND_6_FLOOR_RECALL: f64 = 0.83;

/// Floors for round 7, development data since its measurement unseen (precision 0.963, recall
/// 0.861): a little below its figures once the rule was worked on it (0.983, 0.943), and on
/// round 8 (0.992, 0.984).
const ROUND_7_FLOOR_PRECISION: f64 = 0.95;
const ROUND_7_FLOOR_RECALL: f64 = 0.96;

/// Floors for round 8, development data since its measurement unseen after the work on round 7
/// (precision 0.974, recall 0.799; 0.982 / 0.777 before it; see PROTOCOL.md): a little below
/// its figures once the rule was worked on it (0.993, 0.978).
const ROUND_8_FLOOR_PRECISION: f64 = 0.95;
const ROUND_8_FLOOR_RECALL: f64 = 0.95;
/// Floors for round 9 (unseen until round 20's pass, training data of the text model since), a
/// little below its measurement after the work on round 8: precision 0.991, recall 0.821 (0.991 /
/// 0.786 before it; see PROTOCOL.md). The goal is 0.9 for both; recall does not reach it.
const ROUND_9_FLOOR_PRECISION: f64 = 0.95;
const ROUND_9_FLOOR_RECALL: f64 = 0.80;
/// Floors for round 10, development data since its measurement unseen (precision 0.971,
/// recall 0.899, with the rule as it stood after the work on round 8; see PROTOCOL.md): a
/// little below its figures once the rule was worked on it (0.986, 0.919).
const ROUND_10_FLOOR_PRECISION: f64 = 0.95;
const ROUND_10_FLOOR_RECALL: f64 = 0.89;
/// Floors for round 11, development data since its measurement unseen (precision 0.951, recall
/// 0.854, with the rule as it stood after the work on round 10; see PROTOCOL.md): a little below
/// its figures once the rule was worked on it (0.980, 0.949).
const ROUND_11_FLOOR_PRECISION: f64 = 0.95;
const ROUND_11_FLOOR_RECALL: f64 = 0.93;
/// Floors for round 12, development data since its measurement unseen (precision 0.969, recall
/// 0.772 with the rule as it stood after the work on round 11; 0.967 / 0.735 before it; see
/// PROTOCOL.md): a little below its figures once the rule was worked on it (0.980, 0.914).
const ROUND_12_FLOOR_PRECISION: f64 = 0.95;
const ROUND_12_FLOOR_RECALL: f64 = 0.88;
/// Floors for round 13, development data since its measurement unseen (precision 0.971, recall
/// 0.827 with the rule as it stood after the work on round 12; see PROTOCOL.md): a little below
/// its figures once the rule was worked on it (0.974, 0.932).
const ROUND_13_FLOOR_PRECISION: f64 = 0.95;
const ROUND_13_FLOOR_RECALL: f64 = 0.90;
/// Floors for round 14, development data since its measurements unseen (precision 0.919, recall
/// 0.834 with the rule of `68a518d`; 0.921 / 0.853 after the work on round 13; see
/// PROTOCOL.md): a little below its figures once the rule was worked on it (0.981, 0.939).
const ROUND_14_FLOOR_PRECISION: f64 = 0.95;
const ROUND_14_FLOOR_RECALL: f64 = 0.91;
/// Floors for round 15 (unseen until round 20's pass, training data of the text model since), a
/// little below its third measurement, with the rule after the work on rounds 16 and 17: precision
/// 0.961, recall 0.902 (0.960 / 0.884 at its first; see PROTOCOL.md).
const ROUND_15_FLOOR_PRECISION: f64 = 0.94;
const ROUND_15_FLOOR_RECALL: f64 = 0.88;
/// Floors for round 16, development data since its measurements unseen (precision 0.977, recall
/// 0.784 at its first; see PROTOCOL.md): a little below its figures once the rule was worked on
/// it (0.980, 0.895).
const ROUND_16_FLOOR_PRECISION: f64 = 0.96;
const ROUND_16_FLOOR_RECALL: f64 = 0.87;
/// Floors for round 17, development data since its measurement unseen (precision 0.924, recall
/// 0.766; see PROTOCOL.md): a little below its figures once the rule was worked on it (0.964,
/// 0.854).
const ROUND_17_FLOOR_PRECISION: f64 = 0.94;
const ROUND_17_FLOOR_RECALL: f64 = 0.83;
/// Floors for round 18 (unseen until round 20's pass, training data of the text model since), a
/// little below its second measurement, with the rule after the work on rounds 16 and 17: precision
/// 0.945, recall 0.764 (0.943 / 0.739 at its first; see PROTOCOL.md). Far from the goal of 0.9;
/// English 0.722.
const ROUND_18_FLOOR_PRECISION: f64 = 0.92;
const ROUND_18_FLOOR_RECALL: f64 = 0.74;
/// Floors for round 19 (unseen until round 20's pass, training data of the text model since), a
/// little below its only measurement, with the rule after the work on rounds 16 and 17: precision
/// 0.939, recall 0.778 (see PROTOCOL.md). Far from the goal of 0.9; Chinese 0.707.
const ROUND_19_FLOOR_PRECISION: f64 = 0.91;
const ROUND_19_FLOOR_RECALL: f64 = 0.75;

/// Round 20's floors: below its measurement with the text model beside the list finder (145 /
/// 17 / 16; precision 0.895, recall 0.901). The list finder alone, measured first, gave 130 /
/// 9 / 31 (0.935, 0.807).
const ROUND_20_FLOOR_PRECISION: f64 = 0.88;
const ROUND_20_FLOOR_RECALL: f64 = 0.88;

/// Round 21's floors: a little below its only measurement, with the list finder and the text
/// model (138 / 9 / 12; precision 0.939, recall 0.920).
const ROUND_21_FLOOR_PRECISION: f64 = 0.92;
const ROUND_21_FLOOR_RECALL: f64 = 0.90;

/// Round 22's floors: a little below its only measurement, with the list finder and the text
/// model (143 / 10 / 7; precision 0.935, recall 0.953).
const ROUND_22_FLOOR_PRECISION: f64 = 0.92;
const ROUND_22_FLOOR_RECALL: f64 = 0.94;

struct Item {
    id: String,
    lang: String,
    tool: String,
    param: String,
    description: String,
    schema: Value,
    closed: bool,
    declared: bool,
}

fn eval_dir() -> std::path::PathBuf {
    root().join("tests/fixtures/lint/untyped_enum_eval")
}

fn read_jsonl(dir: &std::path::Path, name: &str) -> Vec<Value> {
    let text = std::fs::read_to_string(dir.join(name)).unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The items of one round: `params.jsonl` joined with its `labels.jsonl`.
fn items(dir: &std::path::Path) -> Vec<Item> {
    let labels: BTreeMap<String, Value> = read_jsonl(dir, "labels.jsonl")
        .into_iter()
        .map(|l| (l["id"].as_str().unwrap().to_owned(), l))
        .collect();
    read_jsonl(dir, "params.jsonl")
        .into_iter()
        .map(|p| {
            let id = p["id"].as_str().unwrap().to_owned();
            let label = &labels[&id];
            Item {
                lang: p["lang"].as_str().unwrap().to_owned(),
                tool: p["tool"].as_str().unwrap().to_owned(),
                param: p["param"].as_str().unwrap().to_owned(),
                description: p["tool_description"].as_str().unwrap_or("").to_owned(),
                schema: p["schema"].clone(),
                closed: label["label"] == "closed",
                declared: label["declared"] == true,
                id,
            }
        })
        .collect()
}

/// FNV-1a over the seed and the id: stable across platforms and Rust versions.
fn held_out(id: &str) -> bool {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ SPLIT_SEED;
    for b in id.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    // splitmix64's finaliser: FNV's high bits mix poorly over ids that differ in one digit.
    h = (h ^ (h >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    h = (h ^ (h >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (h ^ (h >> 31)) & 1 == 1
}

/// The ids of the items the rule fires on: findings pointing into the parameter's schema and,
/// with `args_lines`, findings on the tool's description (its `Args:` line for the parameter,
/// the only parameter of the item's tool).
fn fired(items: &[Item], args_lines: bool) -> BTreeMap<String, String> {
    let tools: Vec<Value> = items
        .iter()
        .map(|it| {
            let mut defs = serde_json::Map::new();
            dangling_defs(&it.schema, &mut defs);
            json!({
                "name": it.id,
                "description": it.description,
                "parameters": {
                    "type": "object",
                    "properties": {it.param.clone(): it.schema},
                    "$defs": defs,
                },
            })
        })
        .collect();
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(
        tmp.path().join("tools.json"),
        serde_json::to_string_pretty(&json!({ "tools": tools })).unwrap(),
    )
    .unwrap();
    std::fs::write(
        tmp.path().join("discloser.yaml"),
        "sources: [tools.json]\nlint:\n  select: [DL004]\n",
    )
    .unwrap();
    let project = Project::load_with(&tmp.path().join("discloser.yaml"), Strictness::Lenient)
        .unwrap_or_else(|e| panic!("the evaluation set loads: {e}"));
    let settings = Settings {
        select: vec!["DL004".to_owned()],
        ..Settings::default()
    };
    let own: BTreeMap<&str, String> = items
        .iter()
        .enumerate()
        .map(|(i, it)| {
            let param = it.param.replace('~', "~0").replace('/', "~1");
            (
                it.id.as_str(),
                format!("/tools/{i}/parameters/properties/{param}/"),
            )
        })
        .collect();
    // A finding on a nested property is about that property, not the item's own text.
    let out: BTreeMap<String, String> = lint(&project, &settings)
        .into_iter()
        .filter_map(|f| {
            let tool = f.tool?;
            let own = own.get(tool.as_str())?;
            if args_lines
                && f.pointer.ends_with("/description")
                && !f.pointer.contains("/parameters")
            {
                return Some((tool, f.message));
            }
            let rest = f.pointer.strip_prefix(own.as_str())?;
            matches!(
                rest,
                "description" | "title" | "items/description" | "items/title"
            )
            .then_some((tool, f.message))
        })
        .collect();
    // The ids the rule fired on, appended to a file, for `scripts/train-enum-model.py`'s
    // report of the rule beside the model.
    if let Some(path) = std::env::var_os("DISCLOSER_EVAL_FIRED") {
        use std::io::Write as _;
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .unwrap();
        for id in out.keys() {
            writeln!(file, "{id}").unwrap();
        }
    }
    out
}

/// The corpora's schemas keep `$ref`s into `$defs` that were not copied with them: an empty
/// definition for each keeps the item's schema as it is and the tool loadable.
fn dangling_defs(schema: &Value, defs: &mut serde_json::Map<String, Value>) {
    match schema {
        Value::Object(map) => {
            if let Some(name) = map
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(|r| r.strip_prefix("#/$defs/"))
            {
                defs.insert(name.to_owned(), json!({}));
            }
            map.values().for_each(|v| dangling_defs(v, defs));
        }
        Value::Array(vs) => vs.iter().for_each(|v| dangling_defs(v, defs)),
        _ => {}
    }
}

#[derive(Default, Clone, Copy)]
struct Counts {
    tp: usize,
    fp: usize,
    fn_: usize,
    tn: usize,
}

impl Counts {
    fn precision(self) -> f64 {
        ratio(self.tp, self.tp + self.fp)
    }
    fn recall(self) -> f64 {
        ratio(self.tp, self.tp + self.fn_)
    }
    fn line(self, label: &str) -> String {
        let (pl, ph) = wilson(self.tp, self.tp + self.fp);
        let (rl, rh) = wilson(self.tp, self.tp + self.fn_);
        format!(
            "{label:<10} n={:>3} TP={:>3} FP={:>2} FN={:>2}  precision {:.3} [{pl:.3}, {ph:.3}]  recall {:.3} [{rl:.3}, {rh:.3}]",
            self.tp + self.fp + self.fn_ + self.tn,
            self.tp,
            self.fp,
            self.fn_,
            self.precision(),
            self.recall(),
        )
    }
}

fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 { 1.0 } else { a as f64 / b as f64 }
}

/// The Wilson score interval at 95% for `k` successes out of `n`.
fn wilson(k: usize, n: usize) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let (z, n, p) = (1.96_f64, n as f64, k as f64 / n as f64);
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z / (1.0 + z * z / n) * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

#[test]
fn wilson_interval_matches_a_known_value() {
    // 81 of 100: the textbook interval is [0.722, 0.874].
    let (lo, hi) = wilson(81, 100);
    assert!(
        (lo - 0.722).abs() < 0.001 && (hi - 0.874).abs() < 0.001,
        "{lo} {hi}"
    );
}

/// Counts of one half of one round, by language and in all.
fn measure<'a>(
    items: impl Iterator<Item = &'a Item>,
    fired: &BTreeMap<String, String>,
    show_errors: bool,
) -> (String, Counts) {
    let mut by_lang: BTreeMap<&str, Counts> = BTreeMap::new();
    let mut total = Counts::default();
    let mut declared_fired = 0;
    for it in items {
        let hit = fired.get(&it.id);
        let c = by_lang.entry(it.lang.as_str()).or_default();
        for c in [c, &mut total] {
            match (it.closed, hit.is_some()) {
                (true, true) => c.tp += 1,
                (false, true) => c.fp += 1,
                (true, false) => c.fn_ += 1,
                (false, false) => c.tn += 1,
            }
        }
        declared_fired += usize::from(it.declared && hit.is_some());
        if show_errors && it.closed != hit.is_some() {
            let kind = if it.closed { "FN" } else { "FP" };
            eprintln!(
                "{kind} {} [{}] {}.{}: {}\n   {}",
                it.id,
                it.lang,
                it.tool,
                it.param,
                it.schema,
                hit.map_or("", String::as_str)
            );
        }
    }
    assert_eq!(declared_fired, 0, "the rule fires on a declared enum");
    let mut report = String::new();
    for (lang, c) in &by_lang {
        report.push_str(&format!("  {}\n", c.line(lang)));
    }
    report.push_str(&format!("  {}\n", total.line("all")));
    (report, total)
}

/// Round 1 (`p` ids, 741 items): measured on its held-out half once (precision 0.879, recall
/// 0.850), then both halves were used to develop the rule. It is development data now, kept
/// as a regression floor.
#[test]
fn untyped_enum_on_round_1_development_data() {
    let items = items(&eval_dir());
    assert_eq!(items.len(), 741, "the set and its labels are complete");
    let fired = fired(&items, false);
    let show = std::env::var_os("DISCLOSER_EVAL_ERRORS").is_some();
    let (report, total) = measure(items.iter(), &fired, show);
    println!("untyped-enum (DL004) on round 1 (development data)\n{report}");
    assert!(
        total.precision() >= ROUND_1_FLOOR && total.recall() >= ROUND_1_FLOOR,
        "round 1 fell below {ROUND_1_FLOOR}:\n{report}"
    );
}

/// Round 3 (`r` ids, 514 items, `round3/`): written and labeled blind after round 2, in 13
/// languages, measured once before the rule was changed for it (see `round3/SOURCES.md`).
#[test]
fn untyped_enum_on_round_3() {
    let items = items(&eval_dir().join("round3"));
    assert_eq!(items.len(), 514, "the set and its labels are complete");
    let fired = fired(&items, false);
    let show = std::env::var_os("DISCLOSER_EVAL_ERRORS").is_some();
    let (dev, _) = measure(items.iter().filter(|it| !held_out(&it.id)), &fired, show);
    let (held, held_total) = measure(items.iter().filter(|it| held_out(&it.id)), &fired, false);
    let (all, _) = measure(items.iter(), &fired, false);
    println!(
        "untyped-enum (DL004) on round 3\ndevelopment half\n{dev}held-out half\n{held}both halves\n{all}"
    );
    assert!(
        held_total.precision() >= FLOOR_PRECISION && held_total.recall() >= FLOOR_RECALL,
        "round 3's held-out half fell below the floors ({FLOOR_PRECISION}, {FLOOR_RECALL}):\n{held}"
    );
}

/// Round 2 (`q` ids, 475 items, `round2/`): written and labeled blind after round 1 (see
/// `round2/SOURCES.md` and `round2/LABELING.md`). Split in two by the seeded hash: errors are
/// only ever printed for the development half; the held-out half is only measured.
#[test]
fn untyped_enum_on_round_2() {
    let items = items(&eval_dir().join("round2"));
    assert_eq!(items.len(), 475, "the set and its labels are complete");
    let fired = fired(&items, false);
    let show = std::env::var_os("DISCLOSER_EVAL_ERRORS").is_some();
    let (dev, _) = measure(items.iter().filter(|it| !held_out(&it.id)), &fired, show);
    let (held, held_total) = measure(items.iter().filter(|it| held_out(&it.id)), &fired, false);
    let (all, _) = measure(items.iter(), &fired, false);
    println!(
        "untyped-enum (DL004) on round 2\ndevelopment half\n{dev}held-out half\n{held}both halves\n{all}"
    );
    assert!(
        held_total.precision() >= FLOOR_PRECISION && held_total.recall() >= FLOOR_RECALL,
        "round 2's held-out half fell below the floors ({FLOOR_PRECISION}, {FLOOR_RECALL}):\n{held}"
    );
}

/// Measures a round whole (the rounds from 4 on), its tool descriptions' parameter lines
/// counted: prints its figures, its errors too with `DISCLOSER_EVAL_ERRORS=1` when it is
/// development data (`show_errors`), and fails below the floors.
fn whole_round(folder: &str, expected: usize, kind: &str, show_errors: bool, floors: (f64, f64)) {
    let items = items(&eval_dir().join(folder));
    assert_eq!(items.len(), expected, "the set and its labels are complete");
    let fired = fired(&items, true);
    let show = show_errors && std::env::var_os("DISCLOSER_EVAL_ERRORS").is_some();
    let (all, total) = measure(items.iter(), &fired, show);
    println!("untyped-enum (DL004) on {folder} ({kind})\n{all}");
    let (precision, recall) = floors;
    assert!(
        total.precision() >= precision && total.recall() >= recall,
        "{folder} fell below the floors ({precision}, {recall}):\n{all}"
    );
}

/// Round 4 (`s` ids, 626 items, `round4/`): written and labeled blind after round 3 was
/// worked, in 19 languages, measured whole once with the rule as it stood (precision 0.908,
/// recall 0.672; see `round4/SOURCES.md` and `round4/LABELING.md`), then used to develop the
/// rule (its errors print with `DISCLOSER_EVAL_ERRORS=1`). Its labeler also judged a parameter
/// by its own line of the tool description's `Args:` section, so findings there count.
#[test]
fn untyped_enum_on_round_4_development_data() {
    whole_round(
        "round4",
        626,
        "development data",
        true,
        (ROUND_4_FLOOR_PRECISION, ROUND_4_FLOOR_RECALL),
    );
}

/// Round 5 (`t` ids, 715 items, `round5/`): written and labeled blind while round 4 was being
/// worked, in 31 languages, measured whole once with the rule as it then stood (precision
/// 0.943, recall 0.829; see `round5/SOURCES.md` and `round5/LABELING.md`), then used to develop
/// the rule (its errors print with `DISCLOSER_EVAL_ERRORS=1`). As in round 4, a parameter's own
/// line of the tool description counts.
#[test]
fn untyped_enum_on_round_5_development_data() {
    whole_round(
        "round5",
        715,
        "development data",
        true,
        (ROUND_5_FLOOR_PRECISION, ROUND_5_FLOOR_RECALL),
    );
}

/// Round 6 (`u` ids, 382 items, `round6/`): written and labeled blind while round 5 was being
/// worked, in 33 languages, and measured whole, once, with the rule as it then stood (see
/// `round6/SOURCES.md` and `round6/LABELING.md`: precision 0.988, recall 0.794), then, once
/// round 7 stood unseen, used to develop the rule (its errors print with
/// `DISCLOSER_EVAL_ERRORS=1`). As in rounds 4 and 5, a parameter's own line of the tool
/// description counts.
#[test]
fn untyped_enum_on_round_6_development_data() {
    whole_round(
        "round6",
        382,
        "development data",
        true,
        (ROUND_6_FLOOR_PRECISION, ROUND_6_FLOOR_RECALL),
    );
}

/// Round 7 (`v` ids, 460 items, `round7/`): written and labeled blind while round 6 was being
/// worked, weighted to English (49%) and Chinese (23%) like the issue's own held-out set, and
/// measured whole with the rule as it stood before and after that work (see
/// `round7/SOURCES.md` and `round7/LABELING.md`: precision 0.963, recall 0.861), then, once
/// round 8 stood unseen, used to develop the rule (its errors print with
/// `DISCLOSER_EVAL_ERRORS=1`).
#[test]
fn untyped_enum_on_round_7_development_data() {
    whole_round(
        "round7",
        460,
        "development data",
        true,
        (ROUND_7_FLOOR_PRECISION, ROUND_7_FLOOR_RECALL),
    );
}

/// Round 8 (`w` ids, 488 items, `round8/`): written and labeled blind while round 7 was unseen
/// (see `round8/SOURCES.md` and `round8/LABELING.md`), weighted to English and Chinese, and
/// measured whole with the rule as it stood before and after the work on round 7 (precision
/// 0.974, recall 0.799), then, once round 9 stood unseen, used to develop the rule (its errors
/// print with `DISCLOSER_EVAL_ERRORS=1`).
#[test]
fn untyped_enum_on_round_8_development_data() {
    whole_round(
        "round8",
        488,
        "development data",
        true,
        (ROUND_8_FLOOR_PRECISION, ROUND_8_FLOOR_RECALL),
    );
}

/// Round 9 (`x` ids, 483 items, `round9/`): written and labeled blind while round 8 was unseen
/// (see `round9/SOURCES.md` and `round9/LABELING.md`), weighted to English and Chinese, and
/// measured whole with the rule as it stood before and after the work on round 8. Nothing of
/// it was used to change the list finder; since round 20's pass it is training data of the text
/// model (`scripts/train-enum-model.py`), and its errors print.
#[test]
fn untyped_enum_on_round_9_training_data() {
    whole_round(
        "round9",
        483,
        "the text model's training data",
        true,
        (ROUND_9_FLOOR_PRECISION, ROUND_9_FLOOR_RECALL),
    );
}

/// Round 10 (`y` ids, 478 items, `round10/`): written and labeled blind while round 9 was
/// worked on for the scorer experiment (see `round10/SOURCES.md` and `round10/LABELING.md`),
/// and measured whole, once, with the rule as it stood (precision 0.971, recall 0.899), then
/// used to develop the rule (its errors print with `DISCLOSER_EVAL_ERRORS=1`).
#[test]
fn untyped_enum_on_round_10_development_data() {
    whole_round(
        "round10",
        478,
        "development data",
        true,
        (ROUND_10_FLOOR_PRECISION, ROUND_10_FLOOR_RECALL),
    );
}

/// Round 11 (`z` ids, 483 items, `round11/`): written and labeled blind while round 10 was
/// worked on (see `round11/SOURCES.md` and `round11/LABELING.md`), weighted to English and
/// Chinese, and measured whole with the rule as it stood after that work (precision 0.951,
/// recall 0.854), then used to develop the rule (its errors print with
/// `DISCLOSER_EVAL_ERRORS=1`).
#[test]
fn untyped_enum_on_round_11_development_data() {
    whole_round(
        "round11",
        483,
        "development data",
        true,
        (ROUND_11_FLOOR_PRECISION, ROUND_11_FLOOR_RECALL),
    );
}

/// Round 12 (`o` ids, 496 items, `round12/`): written and labeled blind while the rule was
/// worked on round 11, in 21 languages, a quarter of it Chinese, and measured whole with the rule
/// as it stood after that work (precision 0.969, recall 0.772), then used to develop the rule
/// (its errors print with `DISCLOSER_EVAL_ERRORS=1`).
#[test]
fn untyped_enum_on_round_12_development_data() {
    whole_round(
        "round12",
        496,
        "development data",
        true,
        (ROUND_12_FLOOR_PRECISION, ROUND_12_FLOOR_RECALL),
    );
}

/// Round 13 (`n` ids, 495 items, `round13/`): written and labeled blind while the rule was
/// worked on round 12, in 17 languages, a quarter of it Chinese, and measured whole with the rule
/// as it stood after that work (precision 0.971, recall 0.827), then used to develop the rule
/// (its errors print with `DISCLOSER_EVAL_ERRORS=1`).
#[test]
fn untyped_enum_on_round_13_development_data() {
    whole_round(
        "round13",
        495,
        "development data",
        true,
        (ROUND_13_FLOOR_PRECISION, ROUND_13_FLOOR_RECALL),
    );
}

/// Round 14 (`m` ids, 490 items, `round14/`): written and labeled blind while the rule was
/// worked on performance only, in 19 languages, a quarter of it Chinese, and measured whole with
/// the rule as it stood (precision 0.919, recall 0.834) and again after the work on round 13
/// (0.921, 0.853), then used to develop the rule (its errors print with
/// `DISCLOSER_EVAL_ERRORS=1`).
#[test]
fn untyped_enum_on_round_14_development_data() {
    whole_round(
        "round14",
        490,
        "development data",
        true,
        (ROUND_14_FLOOR_PRECISION, ROUND_14_FLOOR_RECALL),
    );
}

/// Round 15 (`l` ids, 508 items, `round15/`): written and labeled blind while the rule was
/// worked on round 13, in 21 languages, a quarter of it Chinese, and measured whole with the rule
/// as it stood after that work. Nothing of it was used to change the list finder; since round
/// 20's pass it is training data of the text model, and its errors print.
#[test]
fn untyped_enum_on_round_15_training_data() {
    whole_round(
        "round15",
        508,
        "the text model's training data",
        true,
        (ROUND_15_FLOOR_PRECISION, ROUND_15_FLOOR_RECALL),
    );
}

/// Round 16 (`k` ids, 503 items, `round16/`): written and labeled blind while the rule was
/// worked on round 13, in 24 languages, a quarter of it Chinese, and measured whole with the rule
/// as it stood after that work, then used to develop the rule (its errors print with
/// `DISCLOSER_EVAL_ERRORS=1`).
#[test]
fn untyped_enum_on_round_16_development_data() {
    whole_round(
        "round16",
        503,
        "development data",
        true,
        (ROUND_16_FLOOR_PRECISION, ROUND_16_FLOOR_RECALL),
    );
}

/// Round 17 (`j` ids, 510 items, `round17/`): written and labeled blind while the rule was
/// worked on round 14, in 29 languages, a quarter of it Chinese, and measured whole with the rule
/// as it stood after that work, then used to develop the rule (its errors print with
/// `DISCLOSER_EVAL_ERRORS=1`).
#[test]
fn untyped_enum_on_round_17_development_data() {
    whole_round(
        "round17",
        510,
        "development data",
        true,
        (ROUND_17_FLOOR_PRECISION, ROUND_17_FLOOR_RECALL),
    );
}

/// Round 18 (`i` ids, 509 items, `round18/`): written and labeled blind while the rule was
/// worked on rounds 16 and 17, in 26 languages, a quarter of it Chinese, and measured whole with
/// the rule as it stood then. Nothing of it was used to change the list finder; since round 20's
/// pass it is training data of the text model, and its errors print.
#[test]
fn untyped_enum_on_round_18_training_data() {
    whole_round(
        "round18",
        509,
        "the text model's training data",
        true,
        (ROUND_18_FLOOR_PRECISION, ROUND_18_FLOOR_RECALL),
    );
}

/// Round 19 (`h` ids, 508 items, `round19/`): written and labeled blind while the rule was
/// worked on rounds 16 and 17, in 25 languages, a quarter of it Chinese, and measured whole with
/// the rule at the end of that work. Nothing of it was used to change the list finder; since
/// round 20's pass it is training data of the text model, and its errors print.
#[test]
fn untyped_enum_on_round_19_training_data() {
    whole_round(
        "round19",
        508,
        "the text model's training data",
        true,
        (ROUND_19_FLOOR_PRECISION, ROUND_19_FLOOR_RECALL),
    );
}

/// The untyped-enum fixture's findings by parameter: (message, help).
fn fixture_findings() -> BTreeMap<String, Option<String>> {
    let dir = root().join("tests/fixtures/lint/untyped-enum");
    let tmp = tempfile::tempdir().unwrap();
    std::fs::copy(dir.join("tools.yaml"), tmp.path().join("tools.yaml")).unwrap();
    std::fs::write(tmp.path().join("discloser.yaml"), "sources: [tools.yaml]\n").unwrap();
    let project =
        Project::load_with(&tmp.path().join("discloser.yaml"), Strictness::Lenient).unwrap();
    lint(&project, &Settings::default())
        .into_iter()
        .filter(|f| f.code == "DL004")
        .map(|f| {
            (
                format!("{}{}", f.tool.unwrap_or_default(), f.pointer),
                f.help,
            )
        })
        .collect()
}

#[test]
fn context7_query_docs_bad_example_queries_are_not_an_enum() {
    let findings = fixture_findings();
    assert!(
        !findings.keys().any(|k| k.starts_with("good_query_docs")),
        "{findings:#?}"
    );
}

#[test]
fn untyped_enum_help_declares_only_unambiguous_values() {
    let findings = fixture_findings();
    let help = |tool: &str, param: &str| {
        findings
            .iter()
            .find(|(k, _)| k.starts_with(tool) && k.contains(&format!("/{param}/")))
            .and_then(|(_, h)| h.clone())
            .unwrap_or_else(|| panic!("no finding on {tool}.{param}: {findings:#?}"))
    };
    assert!(help("bad_structure", "order").contains("`enum: [asc, desc]`"));
    assert!(help("bad_structure", "state").contains("`enum: [open, closed, all]`"));
    let words = help("bad_words_not_tokens", "half_day");
    assert!(!words.contains("enum: ["), "{words}");
    assert!(words.contains("declare the values"), "{words}");
}

/// Round 20 (`g` ids, 512 items, `round20/`): written and labeled blind (labels agree with the
/// writer's intent on 471 of 472 items) in 28 languages, a quarter of it Chinese, and measured
/// whole, with the list finder alone, then once with the text model (trained without it)
/// beside it. Nothing of it has been used to change the rule or train the model: its errors
/// are not printed.
#[test]
fn untyped_enum_on_round_20_unseen() {
    whole_round(
        "round20",
        512,
        "unseen",
        false,
        (ROUND_20_FLOOR_PRECISION, ROUND_20_FLOOR_RECALL),
    );
}

/// Round 21 (`f` ids, 512 items, `round21/`): written and labeled blind (labels agree with the
/// writer's intent on 471 of 472 items) in 31 languages, a quarter of it Chinese, while the
/// text model was built, and measured whole once, with the list finder and the text model
/// (trained without it) together. Nothing of it has been used to change the rule or train the
/// model: its errors are not printed.
#[test]
fn untyped_enum_on_round_21_unseen() {
    whole_round(
        "round21",
        512,
        "unseen",
        false,
        (ROUND_21_FLOOR_PRECISION, ROUND_21_FLOOR_RECALL),
    );
}

/// Round 22 (`e` ids, 512 items, `round22/`): written and labeled blind (labels agree with the
/// writer's intent on all 472 hand-written items) in 35 languages, a quarter of it Chinese, and
/// measured whole once, with the list finder and the text model (trained without it) together.
/// Nothing of it has been used to change the rule or train the model: its errors are not
/// printed.
#[test]
fn untyped_enum_on_round_22_unseen() {
    whole_round(
        "round22",
        512,
        "unseen",
        false,
        (ROUND_22_FLOOR_PRECISION, ROUND_22_FLOOR_RECALL),
    );
}
