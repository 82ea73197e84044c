//! The browser client's message catalogs (`web/i18n/<language>.json`), read from the source
//! tree: every language has every English key, in English's order, with the same placeholders
//! and its own plural forms; every key the client asks for exists; no English key is left that
//! nothing asks for; every language names every game, variant, time control and AI level the
//! server has; every language words every error reason the server sends (as
//! `docs/protocol.md` lists them), with the reason's parameters; and English words every reason
//! the engine gives for an illegal action (`why.<code>`), with parameters the engine sets.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde_json::Value;

/// The catalogs checked against English, each with the plural categories its language's rules
/// (`Intl.PluralRules`) pick from for whole numbers.
const LANGUAGES: [(&str, &[&str]); 7] = [
    ("sv", &["one", "other"]),
    ("nb", &["one", "other"]),
    ("da", &["one", "other"]),
    ("is", &["one", "other"]),
    ("de", &["one", "other"]),
    ("fr", &["one", "other"]),
    ("ru", &["one", "few", "many", "other"]),
];

/// The client's own catalogs.
const ALL_LANGUAGES: [&str; 8] = ["en", "sv", "nb", "da", "is", "de", "fr", "ru"];

fn web() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../web")
}

fn catalog_text(language: &str) -> String {
    let path = web().join(format!("i18n/{language}.json"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn catalog(language: &str) -> BTreeMap<String, Value> {
    serde_json::from_str(&catalog_text(language)).unwrap_or_else(|e| panic!("{language}: {e}"))
}

/// A catalog's keys in the file's order, read from its lines (one message a line, indented by
/// two spaces): merging other branches' new keys relies on every catalog keeping English's order.
fn key_order(language: &str) -> Vec<String> {
    catalog_text(language)
        .lines()
        .filter_map(|line| line.strip_prefix("  \""))
        .filter_map(|rest| rest.split_once("\":").map(|(key, _)| key.to_string()))
        .collect()
}

/// The `{name}` placeholders of a message, over all its plural forms.
fn placeholders(message: &Value) -> BTreeSet<String> {
    let texts: Vec<&str> = match message {
        Value::String(text) => vec![text],
        Value::Object(forms) => forms.values().filter_map(Value::as_str).collect(),
        other => panic!("a message is a text or plural forms, not {other}"),
    };
    texts
        .iter()
        .flat_map(|text| text.split('{').skip(1))
        .filter_map(|rest| rest.split_once('}').map(|(name, _)| name.to_string()))
        .collect()
}

/// The client's own source: every JavaScript file and the page, but not the vendored libraries.
fn sources() -> Vec<(PathBuf, String)> {
    fn walk(dir: &Path, out: &mut Vec<(PathBuf, String)>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                if !path.ends_with("vendor") {
                    walk(&path, out);
                }
            } else if path.extension().is_some_and(|e| e == "js" || e == "html") {
                out.push((path.clone(), std::fs::read_to_string(&path).unwrap()));
            }
        }
    }
    let mut out = Vec::new();
    walk(&web(), &mut out);
    out
}

/// The text after each call `t(` + `quote` in `source` (not `sort(`, `.t(`), up to the quote or,
/// in a template, the first `${`.
fn calls(source: &str, quote: char) -> Vec<String> {
    let opening = format!("t({quote}");
    source
        .match_indices(&opening)
        .filter(|(at, _)| {
            let before = source[..*at].chars().next_back();
            !before.is_some_and(|c| c.is_alphanumeric() || "_$.".contains(c))
        })
        .map(|(at, _)| {
            let rest = &source[at + opening.len()..];
            let end = rest.find([quote, '$']).unwrap_or(rest.len());
            rest[..end].to_string()
        })
        .collect()
}

#[test]
fn every_language_has_every_message_with_the_same_placeholders() {
    let english = catalog("en");
    assert!(english.len() > 100, "{} English messages", english.len());
    assert_eq!(
        key_order("en").len(),
        english.len(),
        "one English message a line"
    );
    for (language, categories) in LANGUAGES {
        let other = catalog(language);
        let missing: Vec<_> = english.keys().filter(|k| !other.contains_key(*k)).collect();
        let extra: Vec<_> = other.keys().filter(|k| !english.contains_key(*k)).collect();
        assert!(missing.is_empty(), "{language} lacks {missing:?}");
        assert!(
            extra.is_empty(),
            "{language} has keys English has not: {extra:?}"
        );
        for (key, message) in &english {
            assert_eq!(
                placeholders(&other[key]),
                placeholders(message),
                "{language}: the placeholders of {key}"
            );
            if let Value::Object(forms) = &other[key] {
                let names: BTreeSet<&str> = forms.keys().map(String::as_str).collect();
                let expected: BTreeSet<&str> = categories.iter().copied().collect();
                assert_eq!(names, expected, "{language}: the plural forms of {key}");
            }
        }
        assert_eq!(
            key_order(language),
            key_order("en"),
            "{language}: the keys in English's order"
        );
    }
}

#[test]
fn every_message_the_client_asks_for_exists_and_every_message_is_asked_for() {
    let english = catalog("en");
    let sources = sources();
    let mut prefixes = BTreeSet::new();
    for (path, source) in &sources {
        for key in calls(source, '"') {
            assert!(
                english.contains_key(&key),
                "{} asks for '{key}'",
                path.display()
            );
        }
        prefixes.extend(calls(source, '`'));
        for key in source.split("data-i18n=\"").skip(1) {
            let key = key.split('"').next().unwrap();
            assert!(
                english.contains_key(key),
                "{} names '{key}'",
                path.display()
            );
        }
    }
    assert!(
        prefixes.iter().all(|p| !p.is_empty()),
        "a key made whole at run time: {prefixes:?}"
    );
    let unused: Vec<_> = english
        .keys()
        .filter(|key| {
            let quoted = format!("\"{key}\"");
            !sources.iter().any(|(_, source)| source.contains(&quoted))
                && !prefixes.iter().any(|p| key.starts_with(p.as_str()))
        })
        .collect();
    assert!(unused.is_empty(), "messages nothing asks for: {unused:?}");
}

/// Every id the server shows a player has its name in every catalog: each game (`game.tafl`),
/// each variant of the engine's catalog (`variant.copenhagen-13`), each queue time control
/// (`time.blitz`) and the AI's levels (`ai.level`, with the level in it), so that no page falls
/// back to showing an id.
#[test]
fn every_language_names_every_game_variant_time_control_and_ai_level() {
    let mut keys = BTreeSet::from(["ai.level".to_string()]);
    for game in server::matches::hosted::catalog() {
        keys.insert(format!("game.{}", game.id));
        keys.extend(game.variants.iter().map(|v| format!("variant.{}", v.name)));
    }
    for control in protocol::TimeControl::ALL {
        let id = serde_json::to_value(control).unwrap();
        keys.insert(format!("time.{}", id.as_str().unwrap()));
    }
    assert!(keys.contains("variant.hnefatafl-weaponless"), "{keys:?}");
    for language in ALL_LANGUAGES {
        let messages = catalog(language);
        let missing: Vec<_> = keys.iter().filter(|k| !messages.contains_key(*k)).collect();
        assert!(missing.is_empty(), "{language} names none of {missing:?}");
        assert_eq!(
            placeholders(&messages["ai.level"]),
            BTreeSet::from(["level".to_string()]),
            "{language}: ai.level"
        );
    }
}

/// Every error reason of `docs/protocol.md`'s table (which `protocol/tests/error_reasons.rs`
/// checks against the protocol), with its parameters.
fn error_reasons() -> Vec<(String, BTreeSet<String>)> {
    let doc = std::fs::read_to_string(web().join("../docs/protocol.md")).unwrap();
    let section = doc.split("\n## Error reasons\n").nth(1).unwrap();
    let section = section.split("\n## ").next().unwrap();
    let cell = |text: &str| text.trim().trim_matches('`').to_string();
    section
        .lines()
        .filter_map(|line| line.strip_prefix("| `"))
        .map(|row| {
            let cells: Vec<&str> = row.split(" | ").collect();
            let params = cells[1].split(',').map(cell).filter(|p| !p.is_empty());
            (cell(cells[0]), params.collect())
        })
        .collect()
}

/// Every language words every error reason the server sends (`error.<reason>`), with the
/// reason's parameters and no others (but the English `{message}`, which the client gives too, for
/// the reasons named after the codes), so that no error reaches a player in English.
#[test]
fn every_language_words_every_error_reason_with_its_params() {
    let reasons = error_reasons();
    assert!(reasons.len() > 50, "{reasons:?}");
    assert!(reasons.contains(&(
        "seat_taken".to_string(),
        BTreeSet::from(["seat".to_string()])
    )));
    for language in ALL_LANGUAGES {
        let messages = catalog(language);
        for (reason, params) in &reasons {
            let key = format!("error.{reason}");
            let message = messages
                .get(&key)
                .unwrap_or_else(|| panic!("{language} has no {key}"));
            let mut words = placeholders(message);
            words.remove("message");
            assert_eq!(&words, params, "{language}: the parameters of {key}");
        }
    }
}

/// Every reason the engine gives for an illegal action (`Why::new("code")` in `engine/src`),
/// with the names of the parameters each use of it sets (its chained `.with("name", ..)` calls,
/// up to the next reason or the end of the `why` function).
fn engine_reasons() -> Vec<(String, BTreeSet<String>)> {
    fn walk(dir: &Path, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(std::fs::read_to_string(&path).unwrap());
            }
        }
    }
    let mut sources = Vec::new();
    walk(&web().join("../engine/src"), &mut sources);
    let quoted = |text: &str| text.split_once('"').map(|(name, _)| name.to_string());
    let mut reasons = Vec::new();
    for source in &sources {
        for use_ in source.split("Why::new(\"").skip(1) {
            let code = quoted(use_).unwrap();
            // `fn why` closes at four spaces' indent, after its last reason.
            let use_ = use_.split("\n    }").next().unwrap();
            let params = use_.split(".with(\"").skip(1).filter_map(quoted);
            reasons.push((code, params.collect()));
        }
    }
    reasons
}

/// Every reason the engine gives for an illegal action has its words in English (`why.<code>`),
/// so that the client shows none of the server's English sentences, and those words use only
/// parameters that every game giving the reason sets.
#[test]
fn every_engine_reason_has_its_words_with_params_the_engine_sets() {
    let reasons = engine_reasons();
    assert!(reasons.len() > 50, "{reasons:?}");
    assert!(reasons.contains(&(
        "no_piece".to_string(),
        BTreeSet::from(["square".to_string()])
    )));
    let english = catalog("en");
    let missing: BTreeSet<_> = reasons
        .iter()
        .map(|(code, _)| format!("why.{code}"))
        .filter(|key| !english.contains_key(key))
        .collect();
    assert!(missing.is_empty(), "English words none of {missing:?}");
    for (code, params) in &reasons {
        let words = placeholders(&english[&format!("why.{code}")]);
        let unset: Vec<_> = words.difference(params).collect();
        assert!(
            unset.is_empty(),
            "why.{code} uses {unset:?}, which not every game sets"
        );
    }
}
