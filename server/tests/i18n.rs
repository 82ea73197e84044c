//! The browser client's message catalogs (`web/i18n/<language>.json`), read from the source
//! tree: every language has every English key, with the same placeholders and its own plural
//! forms; every key the client asks for exists; no English key is left that nothing asks for;
//! and every language names every game, variant, time control and AI level the server has.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde_json::Value;

const LANGUAGES: [&str; 2] = ["sv", "de"];

/// The client's own catalogs.
const ALL_LANGUAGES: [&str; 3] = ["en", "sv", "de"];

fn web() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../web")
}

fn catalog(language: &str) -> BTreeMap<String, Value> {
    let path = web().join(format!("i18n/{language}.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
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
    for language in LANGUAGES {
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
                // Swedish and German count as English does.
                let names: BTreeSet<&str> = forms.keys().map(String::as_str).collect();
                assert_eq!(names, BTreeSet::from(["one", "other"]), "{language}: {key}");
            }
        }
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
