// Small helpers shared by the desk's views (text only through textContent, as everywhere).
import { t, lang, hasText, inParens } from "./i18n.js";
import { el, fill, isolated, confirmDialog } from "./ui.js";

const KEY_RE = /\b(?:[WLC]\d+-\d+|GF2?|[A-Z]-\d+|R\d+-\d+)\b/g;

/** The draw match a refusal names (result_used: the match that has started since): a field of
 * the error when the hub gives one, else a key in its message other than `self`. */
export function refusedKey(e, self = null) {
  const d = (e && e.detail) || {};
  for (const k of [d.blocking, d.started, d.key, d.match_key, d.match && d.match.key, typeof d.match === "string" ? d.match : null]) {
    if (typeof k === "string" && k && k !== self) return k;
  }
  const found = String((e && e.message) || "").match(KEY_RE) || [];
  return found.filter((k) => k !== self).pop() || null;
}

/** A failed call in plain words: the hub's refusals that an organiser meets mid-event as a
 * sentence of their own in the page's language (naming the match in the way, `label(key)` its
 * players too) with the code; a refusal whose code the desk knows as its sentence in the page's
 * language, then the hub's own words in English (they are English) or the code in Chinese;
 * otherwise the hub's message and code. `texts` names the sentence for a code where the action
 * gives it its own meaning ({team_match: "team_match_reopen"}: one code, refused call or reopen). */
export function errorText(e, { self = null, label = null, texts = {} } = {}) {
  if (!e || e.status === 0) return t("desk_network");
  if (e.status === 429) return t("desk_too_many", { s: e.retryAfter || 1 });
  if (e.status === 401) return t("desk_session_ended");
  const msg = e.message && e.code && e.message !== e.code ? `${e.message} (${e.code})` : e.message || e.code || String(e.status);
  if (e.code && ["result_used", "draw_used", "has_results"].includes(e.code)) {
    const key = refusedKey(e, self);
    if (key) return `${t(`desk_err_${e.code}_key`, { key: label ? label(key) : key })}${inParens(e.code)}`;
    return `${t(`desk_err_${e.code}`)} ${t("desk_hub_said", { msg })}`;
  }
  const said = e.code && Object.hasOwn(texts, e.code) ? texts[e.code] : e.code;
  if (e.code && hasText(`desk_err_${said}`)) {
    return lang() === "en" ? `${t(`desk_err_${said}`)} ${t("desk_hub_said", { msg })}` : `${t(`desk_err_${said}`)}${inParens(e.code)}`;
  }
  return t("desk_error", { msg });
}

/** "123456" -> "123 456" (easier to read out and to type). */
export function spacedCode(code) {
  const s = String(code || "");
  return s.length === 6 ? `${s.slice(0, 3)} ${s.slice(3)}` : s;
}

export function timeOfDay(ms) {
  return new Date(ms).toLocaleTimeString(lang(), { hour: "2-digit", minute: "2-digit" });
}

export function minSec(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

// The names the desk may put into a sentence: the players, tables and name of the tournament in
// view, or the tournaments listed. Each one found in a status line or a question is isolated.
let knownNames = [];

/** The names of the tournament in view (its projection), or of the tournaments listed. */
export function knowNames(tour, list = []) {
  knownNames = [tour && tour.name, ...((tour && tour.players) || []).map((p) => p.name),
    ...((tour && tour.tables) || []).map((x) => x.name), ...list.map((x) => x.name)].filter(Boolean);
}

/** `text` as nodes, every name the desk knows in it in a <bdi> (a right-to-left or mixed name never
 * reorders the words around it). */
export function named(text, ...more) {
  return isolated(text, knownNames, ...more);
}

/** The in-page question, names isolated. */
export function ask(text) {
  return confirmDialog(named(text));
}

/** A status line: `kind` ok | err | info. */
export function say(node, text, kind = "info") {
  fill(node, named(text || ""));
  node.className = `notice ${kind}${text ? "" : " hidden"}`;
}

export function noticeLine(id) {
  return el("p", { class: "notice hidden", id, role: "status", "aria-live": "polite" });
}

/** A labelled input: <label>text <input></label>. */
export function field(labelKey, input) {
  return el("label", { class: "field" }, el("span", { class: "field-label", text: t(labelKey) }), input);
}

/** Is `host` one that other devices cannot reach? */
export function isLoopback(host) {
  const h = String(host || "").replace(/^\[|\]$/g, "").toLowerCase();
  return h === "localhost" || h === "::1" || h.startsWith("127.") || h.endsWith(".localhost");
}

/** The wizard's way on: a big link to the next step ("Next: Players →"). */
export function nextStep(tid, step, titleKey, { id = "next-step", primary = true } = {}) {
  return el("div", { class: "next-row" },
    el("a", {
      class: `btn big${primary ? " primary" : ""}`, id, href: `/desk/${encodeURIComponent(tid)}/${step}`, "data-nav": true,
      dataset: { next: step }, text: t("dk_next", { step: t(titleKey) }),
    }));
}

/** A player's name from the tournament projection (an id the desk does not know shows as is). */
export function nameOf(tour, pid) {
  if (pid === null || pid === undefined) return t("dk_tbd");
  const p = ((tour && tour.players) || []).find((x) => x.id === pid);
  return p ? p.name : String(pid);
}

/** Run `work` with `button` disabled; a failure is said on `node` in plain words. */
export async function busy(button, node, work) {
  if (button) button.disabled = true;
  try {
    return await work();
  } catch (e) {
    if (node) say(node, errorText(e), "err");
    return undefined;
  } finally {
    if (button) button.disabled = false;
  }
}
