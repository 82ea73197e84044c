// The interface's words in the reader's language. Every text the client shows comes from a message
// catalog, `i18n/<language>.json`: a key's text with `{name}` placeholders, or, for a text that
// depends on a count, one text per plural category (`{"one": …, "other": …}`, chosen by the
// language's own plural rules). English is the reference: a key another catalog lacks is shown in
// English. The language is the one chosen here (kept per browser), else the first of the browser's
// languages that has a catalog, else English.

// The interface's languages, each named in itself: those of the lands where tafl is played
// (Scandinavia, Iceland, Germany, France, Russia) and English.
export const LANGUAGES = {
  en: "English", sv: "Svenska", nb: "Norsk bokmål", da: "Dansk", is: "Íslenska", de: "Deutsch", fr: "Français", ru: "Русский",
};

// Browser languages read as one of ours: Norwegian in general and Nynorsk read Bokmål.
const ALIASES = { no: "nb", nn: "nb" };

const KEY = "tafl.language";

let english = {};
let messages = {};
let plurals = new Intl.PluralRules("en");
export let language = "en";

// The language to show: the chosen one, else the browser's, else English.
function preferred() {
  const chosen = localStorage.getItem(KEY);
  if (chosen in LANGUAGES) return chosen;
  const browser = (navigator.languages ?? [navigator.language])
    .map((tag) => String(tag).toLowerCase().split("-")[0])
    .map((code) => ALIASES[code] ?? code)
    .find((code) => code in LANGUAGES);
  return browser ?? "en";
}

async function catalog(code) {
  // Beside this module, so the catalogs share its versioned path and long cache.
  const response = await fetch(new URL(`./i18n/${code}.json`, import.meta.url));
  if (!response.ok) throw new Error(`the ${code} messages: ${response.status}`);
  return response.json();
}

// Loads the catalogs (once before the first page renders, and again when the language changes).
export async function loadLanguage(code = preferred()) {
  const reference = Object.keys(english).length ? english : await catalog("en");
  // A catalog that cannot be had (an old cache offline) leaves the interface in English.
  useMessages(code, code === "en" ? reference : await catalog(code).catch(() => reference), reference);
  document.documentElement.lang = code;
}

// Puts catalogs in use: `own`, the language's, and `reference`, the English one that fills its
// gaps. Apart from the loading, so that the Node tests (web-tests/) use the catalogs as they are.
export function useMessages(code, own, reference = own) {
  english = reference;
  messages = own;
  language = code;
  plurals = new Intl.PluralRules(code);
}

// Keeps the choice for this browser and loads its catalog.
export async function chooseLanguage(code) {
  localStorage.setItem(KEY, code);
  await loadLanguage(code);
}

// The text of `key` with `params` put in its placeholders; a count picks the plural form. A key
// no catalog has gives `fallback` when there is one (a name only some games have, a reason code
// from a newer server), else the key itself.
export function t(key, params = {}, fallback) {
  let text = messages[key] ?? english[key];
  if (text === undefined) {
    if (fallback !== undefined) return fallback;
    console.warn(`no message '${key}'`);
    return key;
  }
  if (typeof text === "object") text = text[plurals.select(params.count ?? 0)] ?? text.other;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

// Texts written into index.html (the header) carry their key in `data-i18n`.
export function translateStatic(root = document) {
  for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
}
