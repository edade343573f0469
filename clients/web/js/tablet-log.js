// The tablet's log, kept on the tablet (localStorage, the last 40 lines): each entry the referee
// made and what became of it (sending, queued, accepted, refused, removed), and what the hub did
// by itself (a clock's expiry, the link lost and back). `tab` is the page's state (tablet.js).
import { t, inParens } from "./i18n.js";
import { el, fill, isolated, playerNames } from "./ui.js";
import { verdictOf, verdictLine } from "./entries.js";

export const logPanel = el("section", { class: "card log", id: "log-panel" },
  el("h3", { class: "section-title", "data-i18n": "log" }), el("ul", { id: "log" }));

/** The log kept under `key`: `logEntry` adds a line, `logUpdate` changes one, `logVerdict` adds the
 * hub's verdict to a stored entry, `paintLog` shows it. */
export function tabletLog(key, tab) {
  let log = [];
  try { log = JSON.parse(localStorage.getItem(key) || "[]"); } catch (_) { log = []; }

  function saveLog() {
    log.length = Math.min(log.length, 40);
    try { localStorage.setItem(key, JSON.stringify(log)); } catch (_) { /* full: the screen still shows it */ }
  }

  function logEntry(entry) {
    log.unshift({ at: Date.now(), names: [...playerNames(tab.match), ...playerNames(tab.over)], ...entry });
    saveLog();
    paintLog();
  }

  function logUpdate(id, changes) {
    const e = log.find((x) => x.id === id);
    if (e) { Object.assign(e, changes); saveLog(); paintLog(); }
    return e;
  }

  function paintLog() {
    const ul = document.getElementById("log");
    fill(ul, log.map((e) => el("li", { class: `${e.kind || "info"} ${e.foul ? "foul" : ""}`, dataset: { id: e.id || "" } },
      el("span", { class: "time muted", text: new Date(e.at).toLocaleTimeString() }), " ",
      el("span", { class: "what" }, logNamed(e.text, e)),
      e.status ? el("span", { class: "status" }, logNamed(` — ${statusLabel(e)}`, e)) : null,
      e.verdict ? el("div", { class: "verdict-line" }, logNamed(e.verdict, e)) : null)));
  }

  /** The verdict of the stored entry of `version` (the match's last: its projection is here). */
  function logVerdict(version) {
    const e = log.find((x) => x.status === "stored" && x.version === version);
    if (!e || e.verdict) return;
    const v = verdictOf(tab.match);
    e.verdict = verdictLine(v);
    e.foul = v.foul;
    if (v.foul) e.kind = "err";
    saveLog();
    paintLog();
  }

  /** A log line's text, the names it was written with (kept with it) isolated. */
  function logNamed(text, e) {
    return isolated(text, e.names || [], tab.tableName);
  }

  return { logEntry, logUpdate, logVerdict, paintLog };
}

function statusLabel(e) {
  if (e.status === "stored") return `${t("accepted")}${inParens(`#${e.version}`)}`;
  if (e.status === "refused") return `${t("rejected")}: ${e.detail || ""}`;
  if (e.status === "removed") return t("removed_unsent");
  if (e.status === "sending") return t("sending");
  return t("queued");
}
