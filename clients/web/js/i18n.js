// The pages' words in zh-CN and en: the language choice, the lookup and its formatting. The
// strings are data, one file per area and language in js/strings/<language>/<area>.js (plain
// objects; values are plain text, always set with textContent, never parsed as HTML).

import enCommon from "./strings/en/common.js";
import enMatch from "./strings/en/match.js";
import enTablet from "./strings/en/tablet.js";
import enScreens from "./strings/en/screens.js";
import enNotes from "./strings/en/notes.js";
import enDesk from "./strings/en/desk.js";
import enCorrections from "./strings/en/corrections.js";
import enFans from "./strings/en/fans.js";
import enFollow from "./strings/en/follow.js";
import enEntry from "./strings/en/entry.js";
import enRatings from "./strings/en/ratings.js";
import enPeople from "./strings/en/people.js";
import zhCommon from "./strings/zh-CN/common.js";
import zhMatch from "./strings/zh-CN/match.js";
import zhTablet from "./strings/zh-CN/tablet.js";
import zhScreens from "./strings/zh-CN/screens.js";
import zhNotes from "./strings/zh-CN/notes.js";
import zhDesk from "./strings/zh-CN/desk.js";
import zhCorrections from "./strings/zh-CN/corrections.js";
import zhFans from "./strings/zh-CN/fans.js";
import zhFollow from "./strings/zh-CN/follow.js";
import zhEntry from "./strings/zh-CN/entry.js";
import zhRatings from "./strings/zh-CN/ratings.js";
import zhPeople from "./strings/zh-CN/people.js";
import enTeams from "./strings/en/teams.js";
import zhTeams from "./strings/zh-CN/teams.js";
import NOTE_ARGS from "./strings/note-args.js";
import enSeries from "./strings/en/series.js";
import zhSeries from "./strings/zh-CN/series.js";

// A key is in one area of each language (tests/web/test_strings.py), so the order does not matter.
const STRINGS = {
  en: Object.assign({}, enCommon, enMatch, enTablet, enScreens, enNotes, enDesk, enCorrections, enFans, enFollow, enEntry,
    enRatings, enPeople, enTeams),
  "zh-CN": Object.assign({}, zhCommon, zhMatch, zhTablet, zhScreens, zhNotes, zhDesk, zhCorrections, zhFans, zhFollow, zhEntry,
    zhRatings, zhPeople, zhTeams),
};
Object.assign(STRINGS.en, enSeries);
Object.assign(STRINGS["zh-CN"], zhSeries);

const KEY = "cuehub.lang";

function detect() {
  const q = new URLSearchParams(location.search).get("lang");
  if (q && STRINGS[normalize(q)]) return normalize(q);
  try {
    const saved = localStorage.getItem(KEY);
    if (saved && STRINGS[saved]) return saved;
  } catch (_) { /* storage may be blocked */ }
  const nav = (navigator.languages && navigator.languages[0]) || navigator.language || "en";
  return nav.toLowerCase().startsWith("zh") ? "zh-CN" : "en";
}

function normalize(code) {
  return String(code).toLowerCase().startsWith("zh") ? "zh-CN" : "en";
}

let current = detect();
const listeners = new Set();

export function lang() { return current; }

export function setLang(code) {
  current = normalize(code);
  try { localStorage.setItem(KEY, current); } catch (_) { /* ignore */ }
  document.documentElement.lang = current;
  applyI18n(document);
  for (const fn of listeners) fn(current);
}

export function onLangChange(fn) { listeners.add(fn); }

/** Translate `key`, filling `{name}` placeholders from `vars`. Unknown keys fall back
 * to English, then to `fallback` (or the key itself). */
export function t(key, vars = {}, fallback) {
  let s = STRINGS[current][key];
  if (s === undefined) s = STRINGS.en[key];
  if (s === undefined) s = fallback !== undefined ? fallback : key;
  return s.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m));
}

/** Whether there is a string for `key` (in the page's language or English). */
export function hasText(key) {
  return STRINGS[current][key] !== undefined || STRINGS.en[key] !== undefined;
}

/** `text` in brackets after what it explains: " (text)" in English, full-width "（text）" in
 * Chinese (no space around them). */
export function inParens(text) {
  return current === "zh-CN" ? `（${text}）` : ` (${text})`;
}

/** Translate a code with a prefix, e.g. tc("f", "scratch"); unknown codes show as-is. */
export function tc(prefix, code) {
  if (code === null || code === undefined) return "";
  return t(`${prefix}_${code}`, {}, String(code));
}

/** Fill every [data-i18n] element's text (and [data-i18n-title] titles). */
export function applyI18n(root) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-title]")) el.title = t(el.dataset.i18nTitle);
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) el.placeholder = t(el.dataset.i18nPlaceholder);
}

/** The language switch every page carries. */
export function langSwitch() {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "lang-switch";
  b.id = "lang-switch";
  const paint = () => { b.textContent = t("lang_switch"); b.title = t("lang_switch_title"); };
  paint();
  b.addEventListener("click", () => setLang(current === "en" ? "zh-CN" : "en"));
  onLangChange(paint);
  return b;
}

document.documentElement.lang = current;

// ------------------------------------------------------------------ the hub's notes
// `last.note_codes`: what the latest event did, as codes with arguments (hub/rules/notes.py); each is
// said by the template `nt_<code>` of js/strings/<language>/notes.js. An argument is shown by its
// kind (js/strings/note-args.js): a player's id as the player's name, a number as it is, a code
// through its own string (a win type `w_<code>`, a reason `r_<code>`, ...).
const ARG_TEXT = {
  player: (v, nameOf) => nameOf(v),
  winner: (v, nameOf) => (v === null ? t("draw") : nameOf(v)),
  number: (v) => (Number.isInteger(v) ? String(v) : null),
  numbers: (v) => (Array.isArray(v) && v.every(Number.isInteger) ? v.join(" : ") : null),
  win_type: (v) => tc("w", v),
  reason: (v) => tc("r", v),
  choice: (v) => tc("o", v),
  penalty: (v) => tc("pen", v),
  scope: (v) => t(`scope_${v}`, {}, String(v)),
  group: (v) => (known(String(v)) ? t(String(v)) : null),
  loss: (v) => (known(`nt_l_${v}`) ? t(`nt_l_${v}`) : null),
};

/** A string the tables hold (own keys only: a note's code is the hub's, not the page's). */
function known(key) {
  return Object.hasOwn(STRINGS[current], key) || Object.hasOwn(STRINGS.en, key);
}

/** One of the hub's notes (`{code, args}`, from `last.note_codes`) in the page's language.
 * `nameOf(id)` gives a player's name, or null when `id` is not a player of the match. A note the
 * page cannot say (a code it does not know, an argument it cannot show) is `english`, the same note
 * as the hub said it (`last.notes`), shown as sent. */
export function noteText(note, english, nameOf = () => null) {
  const said = english === undefined || english === null ? String((note && note.code) || "") : String(english);
  if (!note || typeof note.code !== "string" || !known(`nt_${note.code}`)) return said;
  const vars = {};
  for (const [name, value] of Object.entries(note.args || {})) {
    const show = Object.hasOwn(NOTE_ARGS, name) ? ARG_TEXT[NOTE_ARGS[name]] : undefined;
    const text = show ? show(value, nameOf) : null;
    if (text === null || text === undefined) return said;
    vars[name] = text;
  }
  return t(`nt_${note.code}`, vars);
}
