// The board's call announcement: every draw match newly called to a table is shown for a few
// seconds over the tables, across the hall: "Now called", both players, the table. It is a live
// region (role="status", aria-live="polite"), so a screen reader reads it too. Calls that come
// together are shown one after another. The calls already on the tables when the board opens
// are not announced (they are not new), and a call is announced once however often the
// projection repeats it (a reconnect's snapshot included). Only a call still current is shown: one
// whose match started, finished or left its table meanwhile is dropped from the queue, and taken off
// the screen at once if it is showing (a busy evening's queue never announces the past).
import { t } from "./i18n.js";
import { el, fill } from "./ui.js";
import { calledEntryOf, matchRoundName } from "./draw-view.js";
import { serverNow } from "./live.js";

/** A draw match said by its round's name ("Final", "Semi-finals": as the bracket heads it), its key
 * small beside it; the key alone when the draw does not know it. */
export function roundLabel(draw, entry, key) {
  const name = entry ? matchRoundName(draw, entry) : "";
  return [name ? el("span", { class: "rnd", text: name }) : null, name ? " " : null,
    el("span", { class: "key", text: key || (entry && entry.key) || "" })];
}

/** "Called N min ago" for a called match `m` (a table's match) past its no-show time
 * (`no_show_at` of its draw match or rubber, PROTOCOL.md section 16), else null. */
export function calledAgo(draw, m) {
  const e = m && m.draw && draw ? calledEntryOf(draw.matches, m.draw.key, m) : null; // a rubber's too
  if (!e || e.status !== "called" || !e.no_show_at || m.status !== "scheduled" || serverNow() < e.no_show_at) return null;
  return t("bd_called_ago", { n: Math.max(0, Math.floor((serverNow() - e.called_at) / 60000)) });
}

export const SHOW_MS = 8000;

export class CallAnnouncer {
  constructor({ showMs = SHOW_MS } = {}) {
    this.showMs = showMs;
    this.seen = null; // match ids of the calls known; null before the first projection
    this.queue = [];
    this.timer = null;
    this.showing = null; // the call on screen
    this.latest = null; // the latest tournament projection: what is current
    this.node = el("div", { class: "call-announce", id: "call-announce", role: "status", "aria-live": "polite", "aria-atomic": "true" });
  }

  /** A tournament projection: queue the draw matches called since the last one. */
  consider(proj) {
    this.latest = proj;
    const draw = proj && proj.draw;
    const called = ((draw && draw.matches) || []).filter((m) => m.status === "called" && m.match_id);
    const first = this.seen === null;
    if (first) this.seen = new Set();
    const names = new Map(((proj && proj.players) || []).map((p) => [p.id, p.name]));
    const tables = new Map(((proj && proj.tables) || []).map((tb) => [tb.id, tb.name]));
    for (const m of called) {
      if (this.seen.has(m.match_id)) continue;
      this.seen.add(m.match_id);
      if (first) continue;
      this.queue.push({
        key: m.key,
        matchId: m.match_id,
        players: (m.players || []).filter((x) => x && x !== "bye").map((x) => names.get(x) || String(x)),
        table: tables.get(m.table_id) || t("table"),
      });
    }
    if (this.timer && this.showing && !this.current(this.showing)) {
      clearTimeout(this.timer); // the call on screen is over: the next one, or the tables again
      this.timer = null;
    }
    if (!this.timer) this.next();
  }

  /** Whether a call still stands in the latest projection: its draw match called to the same match,
   * and that match not started nor finished on its table. */
  current(call) {
    const proj = this.latest;
    const m = ((proj && proj.draw && proj.draw.matches) || []).find((x) => x.key === call.key);
    if (!m || m.status !== "called" || m.match_id !== call.matchId) return false;
    const tb = ((proj && proj.tables) || []).find((x) => x.match && x.match.id === call.matchId);
    return !tb || tb.match.status === "scheduled";
  }

  next() {
    let call = this.queue.shift();
    while (call && !this.current(call)) call = this.queue.shift();
    this.showing = call || null;
    const draw = this.latest && this.latest.draw;
    if (!call) {
      this.timer = null;
      this.node.classList.remove("on");
      fill(this.node);
      delete document.body.dataset.announcing;
      return;
    }
    fill(this.node, el("div", { class: "ca-card", dataset: { key: call.key } },
      el("div", { class: "ca-label", text: t("bd_now_called") }),
      el("div", { class: "ca-players" }, call.players.map((name, i) => [
        i ? el("span", { class: "ca-vs", text: ` ${t("bd_vs")} ` }) : null, el("bdi", { class: "ca-name", text: name })])),
      el("div", { class: "ca-table" }, el("span", { text: "→ " }), el("bdi", { text: call.table })),
      // the round's name in the language of the moment it is shown
      el("div", { class: "ca-key" }, roundLabel(draw, ((draw && draw.matches) || []).find((x) => x.key === call.key), call.key))));
    this.node.classList.add("on");
    document.body.dataset.announcing = call.key;
    this.timer = setTimeout(() => this.next(), this.showMs);
  }
}
