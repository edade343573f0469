// A match that leaves the table (moved, back to the queue, cancelled, a withdrawal: the socket's
// `match_left`, or a match not started giving way to another) is said in plain words ("W1-7 moved
// to Table 3") until the next match starts; so is the finished match on screen when the desk
// reopens it. Only a match this tablet showed as the one to play is said; another is only logged.
// `tab` is the page's state and actions (tablet.js).
import { t, inParens } from "./i18n.js";
import { getJSON } from "./live.js";
import { el, fill } from "./ui.js";
import { matchLabel } from "./tablet-over.js";

export const leftBanner = el("div", { class: "leftbanner hidden", id: "left-banner", role: "alert" });

const leftIds = new Set(); // matches a `match_left` was said for
const shownIds = new Set(); // matches this tablet has shown as the one to play (a match_left of another is only logged)
let left = null; // {what, to} of the match that last left this table, said until the next one starts

/** What is said now of a match that left the table (null: nothing). */
export function leftNow() {
  return left;
}

/** A live match `m` arrived: what was said of a match that left stops being said (unless it is
 * `m` itself, reopened at the desk, and this is no later than its reopening). */
export function leftSaidUntil(m) {
  if (!(left && left.reopened && left.id === m.id && m.version <= left.version)) left = null;
}

/** The match of `id` was shown on this tablet as the one to play. */
export function markShown(id) {
  shownIds.add(id);
}

export function wasShown(id) {
  return shownIds.has(id);
}

/** The names a "left the table" text may carry: the match's players, the table it went to. */
export function leftNames(l) {
  if (!l) return [];
  return [...(l.what || "").split(" – "), ...(l.names || "").split(" – "), l.to && l.to.name].filter(Boolean);
}

export async function wentAway(tab, prev) {
  const said = { id: prev.id, what: matchLabel(prev), names: prev.draw ? (prev.players || []).map((p) => p.name).join(" – ") : "", to: null };
  left = said;
  try {
    const m = await getJSON(`/api/matches/${encodeURIComponent(prev.id)}`);
    if (m && m.table_id && m.table_id !== tab.tableId && left === said) {
      const tb = await getJSON(`/api/tables/${encodeURIComponent(m.table_id)}`).catch(() => null);
      if (left === said) left = { ...said, to: { table_id: m.table_id, name: tb ? tb.name : m.table_id } };
    }
  } catch (_) { /* cancelled (gone) or no link: "no longer on this table" says it */ }
  if (left && left.id === said.id && !left.logged) {
    left.logged = true;
    tab.logEntry({ text: leftText(left), names: leftNames(left), kind: "info" });
  }
  tab.render();
}

export function onLeft(tab, msg, dropped) {
  const { match, over, session } = tab;
  const gone = [match, over, session && session.match].find((x) => x && x.id === msg.match_id) || null;
  if (!gone && !(dropped && dropped.length) && leftIds.has(msg.match_id)) return; // said already
  leftIds.add(msg.match_id);
  const before = left && left.id === msg.match_id ? left : null; // said already, from the state that came first
  const said = {
    id: msg.match_id,
    what: gone ? matchLabel(gone) : before ? before.what : "",
    names: gone && gone.draw ? (gone.players || []).map((p) => p.name).join(" – ") : before ? before.names : "",
    to: msg.to || null,
  };
  // A match the referee never had in front of it (called while "Match over" was up) goes quietly.
  if (shownIds.has(msg.match_id) || (left && left.id === msg.match_id)) left = said;
  if (over && over.id === msg.match_id) tab.keepOver(null);
  if (match && match.id === msg.match_id) tab.match = null;
  if (tab.lock) tab.lock = null;
  for (const env of dropped || []) tab.logUpdate(env.id, { status: "removed", kind: "info" });
  if (!(before && before.logged && leftText(before) === leftText(said))) tab.logEntry({ text: leftText(said), names: leftNames(said), kind: "info" });
  said.logged = true;
  tab.paintQueue();
  tab.render();
}

/** The finished match on screen came back (the desk reopened it, or corrected it on another
 * tablet): said like a match that left, until the next entry. */
export function reopenedAt(tab, m) {
  left = { id: m.id, what: matchLabel(m), names: "", to: null, reopened: true, version: m.version, logged: false };
  tab.logEntry({ text: leftText(left), names: leftNames(left), kind: "info" });
  left.logged = true;
}

function leftText(l) {
  if (!l) return "";
  const what = l.what || t("tl_that_match");
  if (l.reopened) return t("tl_reopened", { what });
  if (l.to) return t("tl_moved_to", { what, table: l.to.name || l.to.table_id });
  return t("tl_left", { what });
}

export function renderLeft(tab) {
  const { match, named } = tab;
  leftBanner.classList.toggle("hidden", !left);
  if (!left) return;
  fill(leftBanner,
    el("strong", { id: "left-text" }, named(leftText(left))),
    left.names ? el("span", { class: "left-names" }, named(inParens(left.names))) : null,
    left.reopened ? null : el("div", { class: "muted small", id: "left-now" }, named(match ? t("tl_now_here", { what: matchLabel(match) }) : t("tl_nothing_here"))),
    el("button", { type: "button", class: "btn small", id: "left-ok", text: t("tl_ok"), onclick: () => { left = null; tab.render(); } }));
}
