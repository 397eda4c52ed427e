//! DL004 `untyped-enum`.

use std::collections::HashMap;

use discloser_core::schema::{DocId, Key, Schema, closed_values};
use serde_json::Value;

use crate::lists;
use crate::source::pointer_push;
use crate::text::{ProseSet, closed_set_in_prose};
use crate::{Context, Diagnostic, Severity};

declare_rule! {
    /// ## What it does
    /// Flags a parameter whose description lists a closed set of values in prose while its
    /// schema declares no `enum` or `const`. Lists are found by their structure: items (words of
    /// any script, quoted or backticked values, CJK words, short phrases) joined by `,` `/` `|`
    /// `、` `،` `・` and a closing "or/and" in one of 30 languages (`o`, `ou`, `oder`, `или`,
    /// `或`, `أو`, `या`, `หรือ`, `hoặc`, ...), in parentheses, as bullet lines, table rows or
    /// `value: meaning` pairs; and judged by the cue words around them ("one of", "either",
    /// "valid values", "can be", "we support", 可选, 取值, 仅支持, のいずれか, "valores
    /// posibles", "mögliche Werte", and "possible values" in 25 more languages), a label's
    /// colon, or a sentence that is nothing but the list (`spam, harassment, scam, other`).
    /// Short phrases count too (`window seat, aisle seat or no preference`, `μετρητά ή κάρτα ή
    /// πιστωτικό σημείωμα`), as do CJK words after a label's colon, in brackets or after a label
    /// and a space (`出行方式 驾车、步行、骑行`, `尺寸（大、中、小）`), Japanese kana conjunctions
    /// (`冷蔵または冷凍`), a code with a CJK counter (`S席、A席`), codes that open a sentence (`AM
    /// or PM for a half day`), the answers of a question (`Answer Y or N`, `yes/no` for a string),
    /// "between a and b", rising sizes (`60/80/100/120`) and format names after "format of"
    /// (`格式为 markdown 或 html`). Also: quoted values offered as alternatives (`newest first ('desc') or oldest first
    /// ('asc')`); definitions (`VAC - vacation` lines, also in a fenced block);
    /// ASCII codes in CJK text (`产品级别 L1A 或 L2A`, `五线谱传 staff，简谱传 jianpu`); and a
    /// single allowed value (`only 'en' is supported`, `Only "standard" for now`, 仅支持 CNY,
    /// 「手渡し」のみ対応, `Type CONFIRM to place the bid`). Also: a closing "only" (`3000, 4000
    /// and 5000 only.`), a note on how many to pick (`内景、外景、旅拍，可多选`), CJK alternatives
    /// with their codes in brackets (`快充还是慢充（fast/slow）`), numbered codes (`1-一般
    /// 2-较急`) and codes glossed by "for" (`current for this month, ytd for year to date, or
    /// all for full ledger`). Also: two plain words as the alternatives of a clause they fill
    /// (`Arm used (left or right).`, `Across or down.`, `Salt or fresh water.`, `Billing cycle,
    /// monthly or yearly.`; not units, file types or kinds of input: `Feeder or substation
    /// identifier`), a column of codes before their meanings (`PM   preventive maintenance`), CJK
    /// words a bullet under a short CJK label (`经营类别：\n- 蔬菜\n- 水产`), and a verb of
    /// accepting before a list of commas alone (`Accepts ammonia, nitrite, nitrate, pH.`); the
    /// default, then what the next clause also accepts (`MLLW is default; MSL and NAVD88 also
    /// accepted.`); a list of plain words before the noun they qualify (`Bus, tram, or metro
    /// line.`); "pick one" or "are the only sizes" after a list; a switch's or a question's
    /// answers that end the text (`Ethylene injection on or off`, `… aid? yes/no`); short
    /// phrases set off by spaced slashes (`Found it / Didn't find it / Write note`). After a
    /// label's colon or dash a phrase may have up to five words and a noun phrase's prepositions
    /// (`Mode de réception : lettre suivie ou retrait en agence partenaire`, `online, at the
    /// learning center, or at the student's home`). Also: what "only" restricts the values to
    /// (`Only Zoom and Google Meet are integrated`, `We only stock white, black and gold`,
    /// `Solo disponible en español, inglés y francés`, `仅支持微信支付和支付宝`; not classes of
    /// characters or kinds of content: `Only letters and digits are allowed`, `Only SELECT and
    /// SHOW statements are allowed`), codes in capitals that open sentences saying what each
    /// does (`PASS lets the truck be used; FAIL tags it out of service`), `hot desk vs dedicated
    /// desk`, and a description that is nothing but short alternatives (`Self-install kit or
    /// professional installation`; not when one names a kind of input, an identifier standard or
    /// whose it is: `Address or nearest intersection`, `9-character CUSIP or 12-character ISIN`,
    /// `DNI o NIE del solicitante`), or a first clause of them before a note (`Passenger car or
    /// motorcycle; commercial vehicles aren't eligible`); a question that offers the choices
    /// (`Reported by: pilot, cabin crew or maintenance?`, `Które boisko: piłkarskie czy
    /// wielofunkcyjne?`, `Do you want a summary or the full breakdown?`); states or levels in their order (`new -> acknowledged -> resolved`,
    /// `info < warning < fault < critical`); a Chinese choice or count after the list (`咨询、求助、
    /// 投诉，五选一`, `喷雾、撒施、灌根三者选一`), or a note that nothing else is taken (`; no other
    /// sizes`, `，不支持其他时长`); a verb of allowing (`the state code allows 6 or 12`); codes in
    /// capitals each glossed in lower case (`(A fast, B medium, C slow)`); CJK clauses of codes
    /// (`正常填1，异常填0`); CJK words set apart by spaces after a label (`组别：男子甲组 男子乙组
    /// 女子组`, `付款方式 寄付 到付 月结`); quoted words side by side (`「高」「中」「低」の3段階`);
    /// bands named by their bounds (`Vuoro: 17–18, 18–19, 19–20 tai 20–21`, `<30万、30-100万、
    /// >100万`; one range is a bound, not a set); codes numbered without a mark (`1 普通 2 紧急 3
    /// 特急`, three at least).
    /// The parameter's description,
    /// title and an array's items' texts are read, and its own entry in the tool's description
    /// counts too, in the docstring styles authors paste there (`Args:` lines, Sphinx
    /// `:param kind:`, JSDoc `@param {'a'|'b'} kind`, NumPy `kind : {'a', 'b'}`, a Markdown
    /// table's `| kind | ... |` row, `kind 说明；` entries), as does the tool description's list
    /// when the parameter's text points to it (`Pack name as listed above`, `(see tool
    /// description)`, `见工具说明`) or a sentence of it opens with the parameter's name or its
    /// short description (`등급` and `등급은 특, 상, 중, 하 중 하나로 지정합니다.`). A number's
    /// values must be numbers, `true or false` is a boolean's type whatever the schema says,
    /// `yes or no` is a string's values but a boolean's type, a formatted string
    /// (`format: uri`) or one whose `pattern` repeats (`^[GDZTKOFS]*$`: combinable flags) is
    /// skipped, and the schema's `default` among the words marks them as the
    /// values. Not closed sets, and skipped: examples ("e.g.", "such as", "Bad:", "p. ej.",
    /// 例如, 如, and their like in 20 more languages), common values (`Growers often use 0, -2 or
    /// -4`, `常用 400 或 600`, `通常是 main 或 develop`), open lists ("etc.", "entre otros", 等,
    /// "others get resampled", "plus site-specific states", 其他), an abbreviation
    /// (`件号（P/N）`, `B/L`), kinds of input (`City, state or country`, `手机号或微信号`),
    /// which identifier is meant (`NIF o CIF del cliente`), the parts of a date or an address
    /// (`（年、月、日）`, `（省、市）`), what qualifies a file or a text (`STL/3MF/OBJ file path`,
    /// `KIF または CSA 形式`), the file
    /// types of a URL, lengths (`12 o 13 caracteres`), formats, ranges, paths, conditions on
    /// another parameter and lists of other parameters' names or values. The help spells out
    /// `enum: [...]` only when the listed words are the tokens a caller sends.
    ///
    /// Beside the list finder, a text model reads the texts it made no list of at all: a
    /// logistic regression over their character and word n-grams, trained on the labeled
    /// parameters of the evaluation set and weighed against plain descriptions of real catalogs
    /// (`scripts/train-enum-model.py`). It is asked only when the text holds a separator or an
    /// "or" word, and its finding invents no values: it says to declare the ones the
    /// description names (`Who manages the TLS certificate. - "MANUAL" – you supply it ... -
    /// "OKTA_MANAGED" – ...`, `The method of cell division, i.e., 'mitosis' or 'meiosis'.`).
    ///
    /// ## Why is this bad?
    /// A closed set described in a docstring is a comment: no tooling can read it. The index
    /// shows a parameter's values only when they are declared, so the model composes its first
    /// call to the unbound tool without them, and guesses.
    ///
    /// ## Example
    /// ```yaml tools
    /// - name: view_startup_guide
    ///   triggers: [BP]
    ///   description: Fetch the full text of a built-in guide.
    ///   parameters:
    ///     type: object
    ///     properties:
    ///       kind: {type: string, description: "Which guide: one of self_register, tax_filing, business_plan."}
    ///     required: [kind]
    /// ```
    ///
    /// ## Use instead
    /// ```yaml tools
    /// - name: view_startup_guide
    ///   triggers: [BP]
    ///   description: Fetch the full text of a built-in guide.
    ///   parameters:
    ///     type: object
    ///     properties:
    ///       kind: {type: string, enum: [self_register, tax_filing, business_plan], description: Which guide.}
    ///     required: [kind]
    /// ```
    pub static UNTYPED_ENUM = ("DL004", "untyped-enum", Severity::Warning, check, Heavy);
}

fn check(ctx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let catalog = &ctx.project.catalog;
    // The rule reads every text closely, and on a large catalog it is most of what `lint`
    // costs: its tools are shared by the cores (findings stay in tool order).
    let tools: Vec<usize> = (0..catalog.tools.len()).collect();
    let per_tool = crate::catalog::parallel::map(tools, |i| {
        let mut found = Vec::new();
        check_tool(ctx, i, &mut found);
        found
    });
    out.extend(per_tool.into_iter().flatten());
}

/// The findings on tool `i`.
fn check_tool(ctx: &Context<'_>, i: usize, out: &mut Vec<Diagnostic>) {
    let catalog = &ctx.project.catalog;
    let tool = &catalog.tools[i];
    // The schema unpacked (`Context::with_parameters`: kept only in a small catalog), its own
    // `$ref`s resolved in that copy (`Catalog::deref_in`, `documents_in`).
    let params = ctx.with_parameters(i, |value| {
        let own = Schema {
            doc: DocId::Tool(i),
            value,
        };
        collect_params(catalog, own, catalog.deref_in(own, own).unwrap_or(own))
    });
    let names: Vec<&str> = params.iter().map(|p| p.name.as_str()).collect();
    let sibling_values: Vec<Vec<String>> = params.iter().filter_map(|p| p.closed.clone()).collect();
    let documented = crate::docstring::parameters(&tool.description);
    // A tool's description often repeats a parameter's own text in its `Args:` entry: the list
    // finder reads each text once.
    let mut read = ProseReads::default();
    let mut unlisted: Vec<&Param> = Vec::new();
    // Per parameter: whether the list finder made out a list in its own texts, kept or not.
    let mut listed_own = vec![false; params.len()];
    for (k, p) in params.iter().enumerate() {
        if p.closed.is_some() || !p.can_be_enum {
            continue;
        }
        // Its own texts in turn: the description, the title, an array's items' ones.
        // `Type CONFIRM to place the bid` on `confirm`: one value alone may be the
        // parameter's own name (`Either vin or plate` names two parameters, itself and
        // another: a relation between them).
        let listed = &mut listed_own[k];
        let found = p.texts.iter().find_map(|(at, text)| {
            let f = read.closed_set(text, p.default.as_deref())?;
            *listed = true;
            typed(f, p)
                .filter(|f| {
                    let own = (f.values.len() == 1).then_some(p.name.as_str());
                    !refers_elsewhere(f, &names, own, &sibling_values)
                })
                .map(|f| (*at, f))
        });
        // Else what the tool's description says of it (its own entry there, if it has one, is
        // read below).
        let entry = documented.iter().any(|d| d.name == p.name);
        let found = found.or_else(|| {
            (!entry)
                .then(|| described_in_tool(&tool.description, p, &mut read))
                .flatten()
                .and_then(|f| typed(f, p))
                .filter(|f| !refers_elsewhere(f, &names, Some(p.name.as_str()), &sibling_values))
                .map(|f| ("description", f))
        });
        let Some((at, found)) = found else {
            // No list made out at all (one that was, and was set aside, stays set aside): the
            // text model is asked, below.
            if !listed_own[k] && !p.texts.is_empty() && !p.declared_in_branch {
                unlisted.push(p);
            }
            continue;
        };
        out.push(finding(
            i,
            &tool.name,
            &p.name,
            &format!("/parameters{}/{at}", p.pointer),
            &found,
        ));
    }
    let mut by_entry: Vec<&str> = Vec::new();
    // The parameters the tool description documents (`Args:`, `:param x:`, `@param`,
    // NumPy sections).
    for doc in &documented {
        let (name, rest) = (doc.name, doc.text.as_str());
        let Some(k) = params.iter().position(|p| p.name == name && p.depth == 0) else {
            continue;
        };
        let p = &params[k];
        if p.closed.is_some() || !p.can_be_enum {
            continue;
        }
        let Some(found) = read
            .closed_set(rest, p.default.as_deref())
            .and_then(|f| typed(f, p))
        else {
            continue;
        };
        // A parameter whose own text closes a set was judged by it above, reported or not.
        if refers_elsewhere(&found, &names, None, &sibling_values) || listed_own[k] {
            continue;
        }
        by_entry.push(doc.name);
        out.push(finding(i, &tool.name, &p.name, "/description", &found));
    }
    // The parameters whose texts the list finder made no list of, and no line of the tool
    // description closed: the text model's verdict.
    for p in unlisted {
        if p.depth == 0 && by_entry.contains(&p.name.as_str()) {
            continue;
        }
        let texts: Vec<&str> = p.texts.iter().map(|(_, t)| t.as_str()).collect();
        if crate::model::closed(&texts, &p.types) {
            let (at, _) = p.texts[0];
            out.push(by_model(
                i,
                &tool.name,
                &p.name,
                &format!("/parameters{}/{at}", p.pointer),
            ));
        }
    }
}

/// A parameter whose texts the text model reads as a closed set where the list finder made out
/// no list: what to declare is said, no value is invented.
fn by_model(i: usize, tool: &str, param: &str, pointer: &str) -> Diagnostic {
    Diagnostic::tool(
        i,
        pointer,
        format!(
            "parameter `{param}` of `{tool}` seems to name its values in prose but declares no `enum`"
        ),
    )
    .with_help(
        "if it takes only the values its description names, declare them as an `enum`, so the \
         index can show them (the text model read a closed set where no list was made out)"
            .to_owned(),
    )
}

/// The closed set the tool's description gives a parameter whose own text has none: the
/// parameter's text points to it (`Pack name as listed above`, `场次（见工具说明）`), or one of its
/// sentences opens with the parameter's name or with its whole (short) description (`등급` and
/// `등급은 특, 상, 중, 하 중 하나로 지정합니다.`).
fn described_in_tool<'t>(
    tool_description: &'t str,
    p: &'t Param,
    read: &mut ProseReads<'t>,
) -> Option<ProseSet> {
    if tool_description.is_empty() {
        return None;
    }
    let own = p.texts.iter().find(|(at, _)| *at == "description");
    let points = own.is_some_and(|(_, t)| crate::cues::POINTS_TO_TOOL.is_match(t));
    if points {
        return read.closed_set(tool_description, p.default.as_deref());
    }
    // A short term: a few words, or a CJK noun of a few characters.
    let term = own
        .map(|(_, t)| t.trim().trim_end_matches(['.', '。']))
        .filter(|t| !t.is_empty() && t.split_whitespace().count() <= 3 && t.chars().count() <= 24);
    // Most tool descriptions name none of their parameters: they are not split.
    if !tool_description.contains(p.name.as_str())
        && !term.is_some_and(|t| tool_description.contains(t))
    {
        return None;
    }
    let opens = |sentence: &str| {
        let sentence = sentence
            .trim_start()
            .trim_start_matches(['-', '*', '•', '`', '\'', '"'])
            .trim_start();
        // `genes=["BRAF", "NRAS"]` is a call in an example, not the parameter's set.
        let after_name = sentence.strip_prefix(p.name.as_str()).is_some_and(|rest| {
            !rest.starts_with(|c: char| c.is_alphanumeric() || matches!(c, '_' | '=' | '('))
        });
        after_name || term.is_some_and(|t| sentence.starts_with(t))
    };
    sentences(tool_description)
        .filter(|s| opens(s))
        .find_map(|s| read.closed_set(s, p.default.as_deref()))
}

/// What the list finder made of each text of one tool it was asked about, by text and default
/// value: [`closed_set_in_prose`] is a function of the two, and the same text is often asked
/// about twice (a parameter's description and its entry in the tool's `Args:` section). Looked
/// up by hash: a tool of many parameters stays linear.
#[derive(Default)]
struct ProseReads<'t> {
    read: HashMap<(&'t str, Option<&'t str>), Option<ProseSet>>,
}

impl<'t> ProseReads<'t> {
    fn closed_set(&mut self, text: &'t str, default: Option<&'t str>) -> Option<ProseSet> {
        self.read
            .entry((text, default))
            .or_insert_with(|| closed_set_in_prose(text, default))
            .clone()
    }
}

/// The sentences of a text: its lines, cut after a full stop and a space, `。`, `；`, `;`, `!`
/// or `?`.
fn sentences(text: &str) -> impl Iterator<Item = &str> {
    text.lines().flat_map(|line| {
        let mut out = Vec::new();
        let mut start = 0;
        for (k, c) in line.char_indices() {
            let end = k + c.len_utf8();
            let stop = match c {
                '。' | '；' | ';' | '!' | '?' | '！' | '？' => true,
                '.' => line[end..].starts_with(' '),
                _ => false,
            };
            if stop {
                out.push(&line[start..end]);
                start = end;
            }
        }
        out.push(&line[start..]);
        out.into_iter().filter(|s| !s.trim().is_empty())
    })
}

fn finding(i: usize, tool: &str, param: &str, pointer: &str, found: &ProseSet) -> Diagnostic {
    let shown: Vec<String> = found.values.iter().map(|v| format!("`{v}`")).collect();
    let listed: Vec<String> = found.values.iter().map(|v| yaml_item(v)).collect();
    // The schema the values belong to: the one whose description lists them, or, for a line
    // of the tool's description, the top-level property of that name. Declaring them changes
    // what a caller may send: an unsafe fix, and only when the words are the tokens.
    let schema = pointer
        .strip_suffix("/description")
        .filter(|s| s.starts_with("/parameters/"))
        .map_or_else(
            || pointer_push(&pointer_push("/parameters", "properties"), param),
            str::to_owned,
        );
    let fix = found.exact.then(|| crate::Proposal {
        applicability: crate::Applicability::Unsafe,
        message: format!("declare `enum: [{}]`", listed.join(", ")),
        change: crate::Proposed::DeclareEnum {
            tool: i,
            schema,
            values: found.values.clone(),
        },
    });
    let diagnostic = Diagnostic::tool(
        i,
        pointer,
        format!(
            "parameter `{param}` of `{tool}` lists its values in prose ({}) but declares no `enum`",
            shown.join(", ")
        ),
    )
    .with_help(if found.exact {
        format!(
            "declare them: `enum: [{}]`, so the index can show them",
            listed.join(", ")
        )
    } else {
        // The words in the prose may not be the tokens a caller sends (`上午`, `P1 (outage)`):
        // say what to declare, invent nothing.
        "declare the values a caller may send as an `enum`, so the index can show them".to_owned()
    });
    match fix {
        Some(fix) => diagnostic.with_fix(fix),
        None => diagnostic,
    }
}

fn yaml_item(value: &str) -> String {
    if value
        .chars()
        .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
        && !value.is_empty()
    {
        value.to_owned()
    } else {
        serde_json::Value::from(value).to_string()
    }
}

/// Values that are parameter names ("either after_id or before_id"), or another parameter's
/// declared values ("required for 'add' and 'reply' methods"), describe a relation between
/// parameters, not this parameter's own set. The name `own` (if any) is not counted.
fn refers_elsewhere(
    found: &ProseSet,
    names: &[&str],
    own: Option<&str>,
    sibling_values: &[Vec<String>],
) -> bool {
    let all_in = |pool: &[String]| {
        found
            .values
            .iter()
            .all(|v| pool.iter().any(|p| p.eq_ignore_ascii_case(v)))
    };
    let named = found
        .values
        .iter()
        .filter(|v| {
            names
                .iter()
                .any(|n| Some(*n) != own && n.eq_ignore_ascii_case(v))
        })
        .count();
    if named * 2 >= found.values.len() {
        return true;
    }
    sibling_values.iter().any(|pool| all_in(pool))
}

/// The values as the parameter's type allows them, if they could be its own: a number's values
/// are numbers (`m/s` after a velocity is its unit; of `1`, `2`, `00-23` the numbers are kept),
/// a formatted string's (`format: uri`, `(http/https)`) are parts of the format.
fn typed(found: ProseSet, p: &Param) -> Option<ProseSet> {
    if p.formatted {
        return None;
    }
    // `yes or no` names the values of a string (`Veteran? Y/N`), not of a boolean; `true or
    // false` is a boolean's, whatever the declared type (the fix is the type, not an enum).
    let truth = found.values.iter().all(|v| lists::is_truth_word(v));
    let answers = found.values.iter().all(|v| lists::is_answer_word(v));
    let string = p
        .types
        .iter()
        .any(|t| matches!(t.as_str(), "string" | "str"));
    if truth || (answers && !string) {
        return None;
    }
    let numeric = !p.types.is_empty()
        && p.types
            .iter()
            .all(|t| matches!(t.as_str(), "integer" | "number" | "float" | "int"));
    if !numeric {
        return Some(found);
    }
    let numbers: Vec<String> = found
        .values
        .iter()
        .filter(|v| v.parse::<f64>().is_ok())
        .cloned()
        .collect();
    let enough = numbers.len() == found.values.len()
        || (numbers.len() >= 2 && numbers.len() * 2 > found.values.len());
    enough.then_some(ProseSet {
        values: numbers,
        ..found
    })
}

/// A parameter of a tool, possibly nested under an object or array property.
struct Param {
    name: String,
    pointer: String,
    closed: Option<Vec<String>>,
    can_be_enum: bool,
    depth: usize,
    /// Its (or its items') type names, lowercased.
    types: Vec<String>,
    /// Its (or its items') schema has a `format`.
    formatted: bool,
    /// Its `default`, as text.
    default: Option<String>,
    /// A branch of its `anyOf`/`oneOf`/`allOf` (or its items') declares values: its set, if
    /// it has one, is declared (`on`, `off`, or a JSON payload).
    declared_in_branch: bool,
    /// Where its texts are (relative to it) and what they say: `description`, `title`,
    /// `items/description`, `items/title`.
    texts: Vec<(&'static str, String)>,
}

/// The parameters under `root`, with `whole` (the tool's schema) standing for its document.
fn collect_params<'a>(
    catalog: &'a crate::catalog::Catalog,
    whole: Schema<'a>,
    root: Schema<'a>,
) -> Vec<Param> {
    let mut out = Vec::new();
    let mut stack = vec![(root, String::new(), 0usize)];
    while let Some((schema, pointer, depth)) = stack.pop() {
        if depth > 6 {
            continue;
        }
        let Some(props) = schema.value.key("properties").and_then(Value::as_object) else {
            continue;
        };
        for (name, value) in props {
            let here = pointer_push(&pointer_push(&pointer, "properties"), name);
            let own = Schema {
                doc: schema.doc,
                value,
            };
            let resolved = catalog.deref_in(whole, own).unwrap_or(own);
            let items = resolved
                .value
                .key("items")
                .filter(|v| v.is_object())
                .map(|v| Schema {
                    doc: resolved.doc,
                    value: v,
                });
            let docs = catalog.documents_in(whole);
            let closed = closed_values(docs, own, 0)
                .or_else(|| items.and_then(|it| closed_values(docs, it, 0)))
                .map(|vs| {
                    vs.iter()
                        .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_owned))
                        .collect()
                });
            let mut types = type_names(resolved.value);
            if types.iter().any(|t| t == "array") {
                types = items.map(|it| type_names(it.value)).unwrap_or_default();
            }
            // A `pattern` that repeats (`^[GDZTKOFS]*$`) admits combinations of the listed
            // letters: they are flags, and the pattern already constrains them.
            let repeats = |v: &Value| {
                v.key("pattern")
                    .and_then(Value::as_str)
                    .is_some_and(|p| p.contains(['*', '+', '{']))
            };
            let formatted = resolved.value.key("format").is_some()
                || repeats(resolved.value)
                || items.is_some_and(|it| it.value.key("format").is_some() || repeats(it.value));
            let can_be_enum = !types
                .iter()
                // `dict` is how BFCL writes `object`.
                .any(|t| matches!(t.as_str(), "boolean" | "object" | "dict"))
                || types
                    .iter()
                    .any(|t| matches!(t.as_str(), "string" | "integer" | "number"));
            let text_of =
                |v: &Value, key: &str| v.key(key).and_then(Value::as_str).map(str::to_owned);
            let mut texts: Vec<(&'static str, String)> = Vec::new();
            if let Some(t) =
                text_of(value, "description").or_else(|| text_of(resolved.value, "description"))
            {
                texts.push(("description", t));
            }
            if let Some(t) = text_of(value, "title").or_else(|| text_of(resolved.value, "title")) {
                texts.push(("title", t));
            }
            if let Some(it) = items {
                for (at, key) in [
                    ("items/description", "description"),
                    ("items/title", "title"),
                ] {
                    if let Some(t) = text_of(it.value, key) {
                        texts.push((at, t));
                    }
                }
            }
            let declared_in_branch = [Some(resolved), items].into_iter().flatten().any(|s| {
                ["anyOf", "oneOf", "allOf"].iter().any(|k| {
                    s.value
                        .get(*k)
                        .and_then(Value::as_array)
                        .is_some_and(|branches| {
                            branches
                                .iter()
                                .any(|b| b.key("enum").is_some() || b.key("const").is_some())
                        })
                })
            });
            out.push(Param {
                declared_in_branch,
                texts,
                name: name.clone(),
                pointer: here.clone(),
                closed,
                can_be_enum,
                depth,
                types: types.clone(),
                formatted,
                default: resolved.value.key("default").and_then(|d| match d {
                    Value::String(s) => Some(s.clone()),
                    Value::Number(n) => Some(n.to_string()),
                    _ => None,
                }),
            });
            if resolved.value.key("properties").is_some() {
                stack.push((resolved, here.clone(), depth + 1));
            }
            if let Some(items) = items.map(|it| catalog.deref_in(whole, it).unwrap_or(it))
                && items.value.key("properties").is_some()
            {
                stack.push((items, pointer_push(&here, "items"), depth + 1));
            }
        }
    }
    out
}

fn type_names(schema: &Value) -> Vec<String> {
    match schema.key("type") {
        Some(Value::String(t)) => vec![t.to_lowercase()],
        Some(Value::Array(ts)) => ts
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_lowercase)
            .collect(),
        _ => Vec::new(),
    }
}
