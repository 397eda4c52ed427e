//! The cue patterns of `untyped-enum`'s list judge, written once for two engines: the build
//! script compiles each into DFAs (`build.rs`), and [`super`] falls back to a regex of the same
//! text in the rare case the DFAs cannot decide.
//!
//! A pattern is `regex` syntax with two markers in place of `\b`, which no DFA can evaluate for
//! Unicode text: `\<` starts a word (it may open an alternative, before a word character) and
//! `\>` ends one (it may close an alternative, after a word character). A `\b` that its
//! neighbours already imply (after `^\s*`, before `\s*:`) is left out. [`Pattern::expand`] turns
//! each marker into a character the match may consume: the exact `\W`, a smaller set that only
//! implies it ([`Boundary::Under`]) and a larger one that it implies ([`Boundary::Over`]). Each
//! expansion changes the match's extent by that one character, never whether there is a match.
//!
//! This file is plain `std` code: `build.rs` includes it as a module of its own.

/// How a pattern is searched, which decides how its DFAs are built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Anchored at the end (`...$`): does a match end where the text ends? A reverse DFA,
    /// anchored at the end, reads only the cue's own bytes.
    End,
    /// Anchored at the start (`^...`): a forward DFA, anchored.
    Start,
    /// Anywhere: a forward DFA, unanchored.
    Anywhere,
    /// Anywhere, and where the leftmost match starts: a reverse DFA, unanchored, reporting
    /// every match.
    Leftmost,
}

/// One cue pattern.
#[derive(Clone, Copy, Debug)]
pub struct Pattern {
    /// Its name, the stem of its DFA files.
    pub name: &'static str,
    /// How it is searched.
    pub kind: Kind,
    /// The pattern, with `\<` and `\>` markers.
    pub text: &'static str,
}

/// What a word boundary marker becomes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Boundary {
    /// `\b`: what the pattern means, for the regex.
    Exact,
    /// A character that is surely not a word character (ASCII punctuation and spaces, the CJK
    /// and typographic punctuation most often next to a cue word): a match of this expansion
    /// is a match of the pattern.
    Under,
    /// A character that may not be a word character (anything but an ASCII letter, digit or
    /// `_`): a match of the pattern is a match of this expansion.
    Over,
}

/// The characters [`Boundary::Under`] accepts beside a word: ASCII non-word characters, and
/// these. Every one is outside `\w` (a test checks it).
pub const UNDER_EXTRA: &[char] = &[
    '\u{a0}', '\u{3000}', '，', '。', '、', '：', '；', '（', '）', '「', '」', '『', '』', '【',
    '】', '《', '》', '“', '”', '‘', '’', '…', '—', '–', '！', '？', '«', '»', '¿', '¡',
];

impl Pattern {
    /// Whether the pattern holds the marker `\<` (`closing` false) or `\>` (true); computed
    /// at compile time for each cue.
    pub const fn has_marker(&self, closing: bool) -> bool {
        let bytes = self.text.as_bytes();
        let want = if closing { b'>' } else { b'<' };
        let mut i = 0;
        while i + 1 < bytes.len() {
            if bytes[i] == b'\\' && bytes[i + 1] == want {
                return true;
            }
            i += 1;
        }
        false
    }

    /// The pattern with its markers expanded for `boundary`.
    pub fn expand(&self, boundary: Boundary) -> String {
        let class = match boundary {
            Boundary::Exact => None,
            Boundary::Under => {
                let mut class = String::from(r"(?-i:[\x00-\x2F\x3A-\x40\x5B-\x5E\x60\x7B-\x7F");
                for c in UNDER_EXTRA {
                    class.push_str(&format!(r"\u{{{:x}}}", u32::from(*c)));
                }
                class.push_str("])");
                Some(class)
            }
            Boundary::Over => Some(r"(?-i:[^0-9A-Za-z_])".to_owned()),
        };
        match class {
            None => self.text.replace(r"\<", r"\b").replace(r"\>", r"\b"),
            Some(class) => self
                .text
                .replace(r"\<", &format!("(?:^|{class})"))
                .replace(r"\>", &format!("(?:$|{class})")),
        }
    }
}

/// Cue words right before a list that make it a closed set whatever its length.
pub const STRONG_BEFORE: Pattern = Pattern {
    name: "strong_before",
    kind: Kind::End,
    text: r#"(?ix)(?:
          \<one\s+of(?:\s+the\s+following)?(?:\s+values?)?
        | \<(?:valid|possible|allowed|accepted|acceptable|permitted|supported|available|legal)\s+(?:[0-9A-Za-z_\u{c0}-\u{24f}]+\s+)?(?:values?|options?|choices?|types?|modes?|formats?|periods?|intervals?|units?|kinds?|levels?|statuses|states|currencies|etapas|tipos)(?:\s+(?:are|is|include|includes))?(?:\s+only)?
        | \<(?:valid|possible|allowed|accepted|acceptable|permitted|supported|available)\s+(?:[[0-9A-Za-z_\u{c0}-\u{24f}]-]+\s+){0,2}?[[0-9A-Za-z_\u{c0}-\u{24f}]-]+\s*(?:are|is|include|includes|[:：])
        | \<(?:options|choices|values|modes|types|kinds|levels)(?:\s+(?:are|is|include|includes))?\s*[:：]
        | \<(?:allowed|accepted|supported|valid|possible|enum)\s*\]?\s*[:：]
        | \<(?:values|options|choices)\s+(?:are|is|include|includes)
        | \<(?:choose|select|pick)\s+(?:one\s+)?(?:from|between)(?:\s+the\s+following)?
        | \<(?:either|entweder|antingen|enten|buď)
        | \<(?:uno|una)\s+de(?:\s+(?:los|las)\s+(?:siguientes\s+)?(?:valores|opciones))?
        | \<(?:valores|opciones)\s+(?:posibles|válidos|validos|permitidos|admitidos|disponibles)(?:\s+(?:son|es))?
        | \<o\s+bien
        | \<soit
        | \<l['’]une?\s+(?:de|des)
        | \<valeurs\s+(?:possibles|autorisées|valides)(?:\s+sont)?
        | \<(?:einer|eine|eines)\s+von
        | \<(?:mögliche|gültige|erlaubte)\s+werte(?:\s+sind)?
        | 可选值?(?:项|的值)?(?:为|是|有|包括)?
        | 候选集(?:为|是)?
        | 取值(?:范围)?(?:为|是|只能是|可以是|有)?
        | 只能(?:是|为|取|填)?
        | 枚举值?(?:为|是)?
        | 支持的?[\p{Han}]{0,4}(?:有|为|是|包括)
        | 可选标志
        | (?:目前|当前|暂时?)?(?:仅|只)(?:支持|开放|接受|限)
        | (?:가능한|허용되는|허용된|유효한|지원되는)\s*값(?:은|는)?
        | (?:使用|指定|設定|選択)?可能な値(?:は)?
        | 有効な値(?:は)?
        | 選択肢
        | \<(?:valori|valore)\s+(?:possibili|consentiti|ammessi|validi|supportati)(?:\s+sono)?
        | \<valores\s+(?:possíveis|permitidos|aceitos|válidos|suportados)(?:\s+são)?
        | \<(?:mogelijke|geldige|toegestane)\s+waarden(?:\s+zijn)?
        | \<(?:möjliga|giltiga|tillåtna)\s+värden(?:\s+är)?
        | \<(?:mulige|gyldige|tilladte|tillatte)\s+værdier
        | \<(?:mahdolliset|sallitut|kelvolliset)\s+arvot(?:\s+ovat)?
        | \<(?:možné|povolené|platné)\s+hodnoty(?:\s+jsou)?
        | \<(?:możliwe|dozwolone|dopuszczalne|prawidłowe)\s+wartości(?:\s+to)?
        | \<(?:olası|geçerli|izin\s+verilen|kabul\s+edilen)\s+değerler
        | \<(?:lehetséges|megengedett|érvényes)\s+értékek
        | \<valori\s+(?:posibile|permise|acceptate|valide)(?:\s+sunt)?
        | \<(?:допустимые|возможные|допустимі|можливі)\s+(?:значения|значення)
        | \<(?:πιθανές|επιτρεπτές|έγκυρες)\s+τιμές
        | \<giá\s+trị\s+(?:hợp\s+lệ|có\s+thể|cho\s+phép)
        | \<nilai\s+yang\s+(?:valid|diizinkan|dibenarkan|didukung|mungkin)
        | القيم\s+(?:المسموح\s+بها|المسموحة|الممكنة|الصالحة)
        | ערכים\s+(?:אפשריים|מותרים)
        | مقادیر\s+(?:مجاز|ممکن)
        | (?:संभावित|मान्य|अनुमत)\s+मान
        | ค่าที่(?:เป็นไปได้|รองรับ|อนุญาต)
        | (?:সম্ভাব্য|অনুমোদিত)\s+মান
        | \<(?:we|currently|only)\s+(?:support|accept|offer|handle)s?(?:\s+only)?
        )\s*[:：]?\s*(?:\[\s*)?$"#,
};

/// Cue words right before a list that need a longer list, a closing "or" or quotes.
pub const WEAK_BEFORE: Pattern = Pattern {
    name: "weak_before",
    kind: Kind::End,
    text: r#"(?ix)(?:
          \<(?:can|could|must)\s+(?:only\s+)?be
        | \<(?:is|are|offers?|accepts?|supports?|allows?|permits?)
        | \<(?:puede|debe)\s+ser | \<(?:son|es)
        | \<(?:peut|doit)\s+être | \<sont
        | \<(?:kann|muss)\s+(?:[0-9A-Za-z_\u{c0}-\u{24f}]+\s+)? | \<sind
        | (?:填写|传入?|选择|为|是|有|限)
        | \<only
        | \<(?:answer|reply|respond|enter|type|choose|pick|select)(?:\s+(?:with|either))?
        | \<(?:group|sort|order|aggregate|bucket|split)(?:ed)?\s+(?:the\s+)?(?:results?\s+)?by
        | は
        )\s*[:：]?\s*$"#,
};

/// "can be", "must be", "puede ser": a modal cue, stronger than "is".
pub const MODAL_BEFORE: Pattern = Pattern {
    name: "modal_before",
    kind: Kind::End,
    text: r#"(?i)(?:\<(?:can|could|must)\s+(?:only\s+)?be|\<(?:puede|debe)\s+ser|\<(?:peut|doit)\s+être)\s*[:：]?\s*$"#,
};

/// Cue words right after a list that close it: "之一", "三种", "三者选一", "のいずれか",
/// "から選択" (a Chinese choice or count may follow a comma: `，五选一`, `，共七项`; so may a
/// note that nothing else is taken, `，不支持其他时长`, `; no other sizes`, or that any of them
/// may be combined, `; any combination`), a
/// restriction that ends the clause (`3000, 4000 and 5000 only.`, `csv ou json uniquement`, `Dog
/// or cat only - exotic patients …`; not
/// `only if ...`, a condition), and "are the kinds/values" (`customs and usda are the kinds the
/// terminal reports`).
pub const STRONG_AFTER: Pattern = Pattern {
    name: "strong_after",
    kind: Kind::Start,
    text: r#"^\s*(?:[)）\]]\s*)?(?:[，,;；]\s*(?:不支持其他|不接受其他|其他(?:的)?(?:值|选项)?(?:均|都)?不(?:支持|接受)|no\s+other\>|nothing\s+else\>|any\s+combination\>|[二两三四五六七八九十]选[一1]|(?:四者|三者|两者|二者)[选择]一|任选其一|共[二两三四五六七八九十]+(?:项|种|类))|(?:四者|三者|两者|二者|其中)?之一|(?:四者|三者|两者|二者)[选择]一|[二两三四五六七八九十几]种|[二两三四五六七八九十]选[一1]|中(?:任)?选(?:一个|一种|其一|择一个?)|中的一(?:个|种|项)|任选其一|の\s*[0-9０-９一二三四五六七八九十]+\s*(?:種類|段階|通り)|[0-9]+\s*种(?:之一|中)?|のいずれか|のどれか|から(?:一つ)?選択|から選ぶ|중\s*하나|중에서|중\s*(?:선택|택\s*1|택일)|are\s+(?:supported|accepted|allowed)|right\s+now\>|for\s+now\>|at\s+the\s+moment\>|for\s+the\s+time\s+being\>|por\s+ahora\>|por\s+el\s+momento\>|pour\s+l['’]instant\>|vorerst\>|[二两三四五六七八九十]个(?:选项|值|项目|级别|等级)|(?:두|세|네|다섯|여섯|일곱|여덟|아홉|열|[0-9]+)\s*가지|(?:only|uniquement|seulement|únicamente|solamente|apenas|somente|soltanto)\s*(?:[,;)）]|[—–-]\s|$)|are\s+the\s+(?:only\s+)?(?:kinds|values|options|types|choices|modes)\>|are\s+the\s+only\s+[a-z]+\>|(?:[—–-]\s*)?(?:pick|choose|select)\s+(?:only\s+)?one\>)"#,
};

/// Phrases after which a list is an example, not the set of values: the words (`e.g.`, `such
/// as`, `por ejemplo`), each starting a word.
pub const EXAMPLE_WORDS: Pattern = Pattern {
    name: "example_words",
    kind: Kind::Leftmost,
    text: r#"(?ix)(?:
          \<e\.?\s?g\>
        | \<for\s+(?:example|instance)\>
        | \<such\s+as\>
        | \<like\>
        | \<including\>
        | \<examples?\>
        | \<i\.e\>
        | \<(?:bad|good|bien|mal|wrong|right|correct|incorrect)\s*(?:\([^)]*\))?\s*[:：]
        | \<p\.\s?ej\>
        | \<por\s+ejemplo\>
        | \<ejemplos?\>
        | \<como\>
        | \<par\s+exemple\>
        | \<exemples?\>
        | \<comme\>
        | \<z\.\s?b\>
        | \<zum\s+beispiel\>
        | \<beispiel
        | \<wie\>
        | \<por\s+exemplo\>
        | \<exemplos?\>
        | \<ex\.\s*:?
        | \<ex\s*:
        | \<p\.\s?ex\>
        | \<ad\s+es(?:empio|\.)
        | \<per\s+esempio\>
        | \<ví\s+dụ\>
        | \<chẳng\s+hạn\>
        | \<contoh\>
        | \<misalnya\>
        | \<örneğin\>
        | \<np\.
        | \<au\s+format\>
        | \<im\s+format\>
        | \<(?:no|en|em)\s+formato\>
        | \<định\s+dạng\>
        | \<(?:typical|typically|common|commonly|usual|usually|often\s+(?:use|used|set|pick|picked|choose|chosen|send|sent)|popular|habituales|comunes|frecuentes|suggested|recommended)\>
        | \<(?:in\s+the\s+format|formatted\s+as|format\s+of|pattern|syntax|qualifiers?)\>
        | \<entre\s+otros\>
        | \<bijvoorbeeld\> | \<zoals\> | \<t\.\s?ex\> | \<till\s+exempel\> | \<např\> | \<de\s+exemplu\>
        | \<cum\s+ar\s+fi\> | \<például\> | \<esimerkiksi\> | \<esim\> | \<f\.\s?eks\> | \<seperti\>
        | \<contohnya\> | \<mesela\> | \<til\s+dæmis\> | \<for\s+eksempel\>
        )"#,
};

/// Phrases after which a list is an example: those not starting with a word boundary (`例如`,
/// `например`, `，如`).
pub const EXAMPLE_SIGNS: Pattern = Pattern {
    name: "example_signs",
    kind: Kind::Leftmost,
    text: r#"(?ix)(?:
          예[:：]
        | 예를\s*들어
        | 예시
        | например
        | напр\.
        | в\s+формате
        | 格式为
        | [，,、\s]如\s*[\[（(“\x22'「]?\s*$
        | 例如
        | 比如
        | 例[:：]
        | 如[:：]
        | 诸如
        | 像
        | 好的写法
        | 不好的写法
        | など
        | たとえば
        | 例えば
        | 例[)）]
        | (?:^|[，,、：:\s])如(?:[^下果何此今]|$)
        | 常见(?:的)?(?:有|为|是)?\s*[:：]?\s*$
        | 常用
        | 通常(?:是|为|用)
        | 参考值
        | 仅供参考
        | जैसे | उदाहरण | مثلاً | مثلا | مثل | เช่น | ตัวอย่าง | למשל | مانند | যেমন | наприклад | π\.χ\.
        )"#,
};

/// What right after a list says it is open.
pub const OPEN_AFTER: Pattern = Pattern {
    name: "open_after",
    kind: Kind::Start,
    text: r#"(?i)^\s*(?:,\s*)?(?:etc\>|\.\.\.|…|and\s+(?:so\s+on|more|others)|plus\s+(?:other|any|more|custom|site|user|your|their|own)|among\s+others|or\s+(?:(?:other|similar|more|a\s+custom)\>|any\s+\p{L})|(?:or|and)\s+(?:[0-9A-Za-z_\u{c0}-\u{24f}]+\s+){0,3}(?:like|such\s+as|e\.g)\>|entre\s+otros|u\s+otros|y\s+más|等|など|之类|可自定义|et\s+c(?:etera)?\>|и\s+т\.\s?д|и\s+др\.|v\.v\.|dll\>|dsb\>|ecc\>|usw\>|등)"#,
};

/// A default right before a list: `(default: `/tmp` or `/var/tmp`; ...)` says what is used when
/// nothing is sent, not what may be sent.
pub const DEFAULT_BEFORE: Pattern = Pattern {
    name: "default_before",
    kind: Kind::End,
    text: r#"(?i)(?:\<defaults?(?:\s+(?:is|are|to|value))?|默认(?:值)?(?:为|是)?|既定値)\s*[:：]?\s*[\[(（]?\s*$"#,
};

/// Right after a list: its items name other tools (`通过 `a` 或 `b` 接口查询`).
pub const OTHER_TOOLS_AFTER: Pattern = Pattern {
    name: "other_tools_after",
    kind: Kind::Start,
    text: r#"(?i)^\s*(?:[)）]\s*)?(?:接口|工具|(?:tools?|endpoints?|apis?|functions?|commands?)\>)"#,
};

/// A condition on another parameter before the list.
pub const CONDITIONAL: Pattern = Pattern {
    name: "conditional",
    kind: Kind::Anywhere,
    text: r#"(?i)\<(?:when|if|unless|only\s+for|cuando|si|sólo\s+si|lorsque|wenn)\>|当|仅在|若|如果|场合|場合"#,
};

/// A range or a count right before a list: `6-32 位字母、数字或下划线` names characters.
pub const RANGE_BEFORE: Pattern = Pattern {
    name: "range_before",
    kind: Kind::End,
    text: r#"\d\s*(?:-|~|〜|–|到|至)\s*\d+\s*\S*\s*$"#,
};

/// Anywhere after a list: the text goes on to say that other values work too (`others get
/// resampled`, `其他颜色需人工确认`). `Any attribute in the lot record works` is found by hand
/// (`lists::accepts_any`): its words between `any` and `works`, as a counted repetition, made
/// this pattern's DFAs 9 MB each.
pub const OPEN_LATER: Pattern = Pattern {
    name: "open_later",
    kind: Kind::Anywhere,
    text: r#"(?ix)(?:
          \<others?(?:\s+values?)?\s+(?:get|are|will\s+be|can\s+be|may\s+be|is)\s+(?:also\s+)?(?:resampled|accepted|allowed|converted|mapped|rounded|used|fine|ok|supported|possible)\>
        | \<(?:or|and)\s+any\s+other\>
        | 其他 | 其它 | 以外も | 등\s*기타
        )"#,
};

/// Right after a list: it qualifies the kind of a file or text (`STL/3MF/OBJ file path`,
/// `KIF または CSA 形式のテキスト`), not a value.
pub const CONTENT_AFTER: Pattern = Pattern {
    name: "content_after",
    kind: Kind::Start,
    text: r#"(?i)^\s*(?:形式の|格式的|文件|ファイル|檔案|(?:files?|paths?|documents?|notation)\>)"#,
};

/// Words of a parameter's text that send the reader to the tool's description: `(see tool
/// description)`, `as listed above`, `(see table)`, `见工具说明`, `上記参照`.
pub const POINTS_TO_TOOL: Pattern = Pattern {
    name: "points_to_tool",
    kind: Kind::Anywhere,
    text: r#"(?ix)(?:
          tool(?:'s)?\ description
        | see\ (?:above|table|the\ table|the\ list)
        | (?:listed|as|shown|described|mentioned|machine|table|list)\ above
        | one\ of\ the\ above
        | siehe\ (?:beschreibung|tool)
        | voir\ (?:la\ )?description
        | ver\ (?:la\ )?descripción
        | vedi\ (?:la\ )?descrizione
        | ver\ descrição
        | 见工具说明 | 见工具描述 | 见说明 | 见上 | 如上 | 上述 | 上記 | ツールの説明
        | 위\ 설명 | 설명\ 참조
        )"#,
};

/// Every pattern, for the build script.
pub const ALL: &[Pattern] = &[
    STRONG_BEFORE,
    WEAK_BEFORE,
    MODAL_BEFORE,
    STRONG_AFTER,
    EXAMPLE_WORDS,
    EXAMPLE_SIGNS,
    OPEN_AFTER,
    DEFAULT_BEFORE,
    OTHER_TOOLS_AFTER,
    CONDITIONAL,
    RANGE_BEFORE,
    OPEN_LATER,
    CONTENT_AFTER,
    POINTS_TO_TOOL,
];
