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
import zhCommon from "./strings/zh-CN/common.js";
import zhMatch from "./strings/zh-CN/match.js";
import zhTablet from "./strings/zh-CN/tablet.js";
import zhScreens from "./strings/zh-CN/screens.js";
import zhNotes from "./strings/zh-CN/notes.js";
import zhDesk from "./strings/zh-CN/desk.js";
import zhCorrections from "./strings/zh-CN/corrections.js";
import zhFans from "./strings/zh-CN/fans.js";
import zhFollow from "./strings/zh-CN/follow.js";

// A key is in one area of each language (tests/web/test_strings.py), so the order does not matter.
const STRINGS = {
  en: Object.assign({}, enCommon, enMatch, enTablet, enScreens, enNotes, enDesk, enCorrections, enFans, enFollow),
  "zh-CN": Object.assign({}, zhCommon, zhMatch, zhTablet, zhScreens, zhNotes, zhDesk, zhCorrections, zhFans, zhFollow),
};

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
// `last.notes` are short English strings made by the rules (hub/rules: note.append). Known
// shapes are matched here and drawn in the page's language, player ids turned into names;
// anything else (a note added later, an id that is not a player) is shown exactly as sent.
// Slots: P player id, P? player id or "shared top", N number, W win type, R reason,
// C choice, X penalty type, S scope, G group, L chinese_eight loss reason.
const NOTE_PATTERNS = [
  ["golden_break", "golden break"],
  ["rail_safety_n", "rail safety {n:N} of 2 allowed"],
  ["snooker_pass", "snooker: the next player may pass"],
  ["third_rail_safety", "third rail safety: all three are fouls and the rack is lost"],
  ["chase_third_foul", "third consecutive foul: the 上家 wins the rack"],
  ["chase_two_fouls", "warning: {p:P} has two consecutive fouls; a third loses the rack"],
  ["chase_pass", "{p:P} passes: {q:P} shoots again; {p2:P} pays for that inning"],
  ["rebreak_failed", "the warned rebreak failed again: the rack is lost"],
  ["not_trying", "not trying to win: a foul and a warning"],
  ["rack_lost", "{l:L}: the rack is lost"],
  ["takes_group", "{p:P} takes {g:G}"],
  ["rebreaks_warned", "{p:P} rebreaks, warned"],
  ["respotted", "the {n:N} is respotted"],
  ["rerack", "rerack: {p:P} breaks"],
  ["stalemate", "stalemate: the rack is replayed"],
  ["rack_to", "rack {n:N} to {p:P} ({w:W}, {r:R})"],
  ["tie", "tie: one extra rack decides the match (lag)"],
  ["match_over", "match over: {p:P?} ({r:R})"],
  ["wins_lag", "{p:P} wins the lag"],
  ["clock_expired", "shot clock expired"],
  ["penalty", "penalty: {x:X}"],
  ["concedes", "{p:P} concedes the {s:S}"],
  ["extension", "extension"],
  ["match_time_up", "match time is up"],
  ["chooses_break", "{p:P} chooses to {c:C}: {q:P} breaks"],
  ["chooses", "{p:P} chooses {c:C}"],
  ["passes", "{p:P} passes: {q:P} shoots"],
  ["break_position", "break position: warning (next time a foul)"],
  ["loss_of_chance", "loss of chance: fewer than four crossings"],
  ["eight_gold", "the 8 in a gold inning is no win: the 9 must follow"],
  ["third_foul_rack", "third foul in this rack: the rack goes to the opponent"],
  ["second_foul_rack", "second foul in this rack"],
  ["unsportsmanlike", "unsportsmanlike conduct: warning"],
  ["wpa_third_foul", "third consecutive foul: the rack is lost"],
  ["wpa_two_fouls", "{p:P} is on two fouls: a third consecutive foul loses the rack"],
  ["undone", "event {n:N} undone"],
  ["foul_pays", "foul: {p:P} pays {n:N} to {q:P}"],
  ["foul_gains", "foul: {p:P} +{n:N}"],
  ["push_out", "push-out: the opponent chooses to play or pass"],
  ["voided_time", "entered before the shot clock ran out: the time foul is taken back"],
  ["result_entered", "result entered by the desk: {s:T}"],
  ["withdrew", "{p:P} withdrew from the event"],
];

const LOSS_REASONS = {
  "second not-trying foul in the rack": "nt_l_not_trying",
  "the 8 pocketed on a foul": "nt_l_eight_foul",
  "the 8 pocketed before the group was cleared": "nt_l_eight_early",
  "the 8 left the table": "nt_l_eight_off",
};

const escapeRe = (x) => x.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const SLOT_RE = { T: "(-?\\d+(?: : -?\\d+)+)", P: "(.+?)", "P?": "(.+?)", N: "(\\d+)", G: "(solids|stripes)", L: `(${Object.keys(LOSS_REASONS).map(escapeRe).join("|")})` };

const COMPILED = NOTE_PATTERNS.map(([key, pattern]) => {
  const slots = [];
  let re = "";
  let rest = pattern;
  for (const m of pattern.matchAll(/\{(\w+):([A-Z]\??)\}/g)) {
    const at = rest.indexOf(m[0]);
    re += escapeRe(rest.slice(0, at)) + (SLOT_RE[m[2]] || "([A-Za-z_]+)");
    rest = rest.slice(at + m[0].length);
    slots.push([m[1].replace(/\d+$/, ""), m[2]]);
  }
  return { key, re: new RegExp(`^${re}${escapeRe(rest)}$`), slots };
});

/** One of the hub's notes in the page's language. `nameOf(id)` gives a player's name, or
 * null when `id` is not a player of the match. Unknown notes come back unchanged. */
export function noteText(note, nameOf = () => null) {
  const raw = String(note);
  for (const { key, re, slots } of COMPILED) {
    const m = raw.match(re);
    if (!m) continue;
    const vars = {};
    let ok = true;
    slots.forEach(([name, type], i) => {
      const v = m[i + 1];
      let out;
      if (type === "P" || type === "P?") {
        out = nameOf(v);
        if ((out === null || out === undefined) && type === "P?" && v === "shared top") out = t("draw");
      } else if (type === "N" || type === "T") out = v; // a number, or a score line "2 : 1"
      else if (type === "W") out = tc("w", v);
      else if (type === "R") out = tc("r", v);
      else if (type === "C") out = tc("o", v);
      else if (type === "X") out = tc("pen", v);
      else if (type === "S") out = t(`scope_${v}`, {}, v);
      else if (type === "G") out = t(v);
      else if (type === "L") out = t(LOSS_REASONS[v]);
      if (out === null || out === undefined) ok = false;
      else vars[name] = out;
    });
    if (ok) return t(`nt_${key}`, vars);
  }
  return raw;
}
